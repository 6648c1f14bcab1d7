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
layout(set = 0, binding = 1) buffer Out { uint sum[4]; uint mx; uint mn; uint orr; uint xr; int smin; uint cnt; };
void main() {
  uint i = gl_GlobalInvocationID.x, x = a[i];
  atomicAdd(sum[i & 3u], x & 0xFFFFu);
  atomicMax(mx, x);
  atomicMin(mn, x);
  atomicOr(orr, 1u << (i & 31u));
  atomicXor(xr, x);
  atomicMin(smin, int(x));
  uint old = atomicAdd(cnt, 1u);
  if (old >= 128u) atomicAdd(sum[0], 1000000u);
}
