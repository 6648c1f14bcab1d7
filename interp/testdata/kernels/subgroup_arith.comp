#version 450
#extension GL_KHR_shader_subgroup_basic : enable
#extension GL_KHR_shader_subgroup_vote : enable
#extension GL_KHR_shader_subgroup_ballot : enable
#extension GL_KHR_shader_subgroup_arithmetic : enable
#extension GL_KHR_shader_subgroup_shuffle : enable
#extension GL_KHR_shader_subgroup_shuffle_relative : enable
#extension GL_KHR_shader_subgroup_clustered : enable
#extension GL_KHR_shader_subgroup_quad : enable

layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint a[]; };
layout(set = 0, binding = 1) buffer Out { uint o[]; };
void main() {
  uint i = gl_GlobalInvocationID.x, w = a[i], x = w & 0xFFFFu, k = 12u * i;
  uint S = gl_SubgroupSize, lane = gl_SubgroupInvocationID;
  o[k + 0u] = subgroupAdd(x);
  o[k + 1u] = subgroupMul(x | 1u);
  o[k + 2u] = subgroupMin(x) + 65536u * subgroupMax(x);
  o[k + 3u] = subgroupAnd(w) ^ subgroupOr(w >> 1) ^ subgroupXor(w << 2);
  o[k + 4u] = subgroupInclusiveAdd(x);
  o[k + 5u] = subgroupExclusiveAdd(x);
  o[k + 6u] = floatBitsToUint(subgroupAdd(float(x & 255u)));
  o[k + 7u] = subgroupShuffle(w, (lane + 3u) % S);
  o[k + 8u] = uint(subgroupInclusiveMin(int(w)));
  uint c = x, q = x, s = x;
  if (S >= 4u) {
    c = subgroupClusteredAdd(x, 4u);
    q = subgroupQuadBroadcast(x, 2u) ^ subgroupQuadSwapHorizontal(x) << 8 ^ subgroupQuadSwapDiagonal(x) << 16;
  }
  if (S >= 2u) { s = subgroupShuffleXor(w, 1u); }
  o[k + 9u] = c;
  o[k + 10u] = q;
  o[k + 11u] = s;
}
