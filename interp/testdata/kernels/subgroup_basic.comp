#version 450
#extension GL_KHR_shader_subgroup_basic : enable
#extension GL_KHR_shader_subgroup_vote : enable
#extension GL_KHR_shader_subgroup_ballot : enable
#extension GL_KHR_shader_subgroup_arithmetic : enable
#extension GL_KHR_shader_subgroup_shuffle : enable
#extension GL_KHR_shader_subgroup_shuffle_relative : enable
#extension GL_KHR_shader_subgroup_clustered : enable
#extension GL_KHR_shader_subgroup_quad : enable

layout(local_size_x = 48) in;
layout(set = 0, binding = 0) readonly buffer In { uint a[]; };
layout(set = 0, binding = 1) buffer Out { uint o[]; };
void main() {
  uint i = gl_GlobalInvocationID.x, x = a[i], k = 8u * i;
  o[k + 0u] = gl_SubgroupSize;
  o[k + 1u] = gl_SubgroupInvocationID + 256u * gl_SubgroupID + 65536u * gl_NumSubgroups;
  o[k + 2u] = uint(subgroupElect());
  o[k + 3u] = subgroupBroadcastFirst(x);
  uvec4 b = subgroupBallot((x & 1u) != 0u);
  o[k + 4u] = subgroupBallotBitCount(b);
  o[k + 5u] = uint(subgroupAll(x != 0u)) | uint(subgroupAny((x & 3u) == 0u)) << 1 |
              uint(subgroupAllEqual(gl_SubgroupID)) << 2 | uint(subgroupAllEqual(x)) << 3;
  o[k + 6u] = subgroupBallotExclusiveBitCount(b);
  o[k + 7u] = b.x;
}
