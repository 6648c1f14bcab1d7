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
layout(set = 0, binding = 0) readonly buffer In { uint a[128]; uint b[128]; float fa[128]; };
layout(set = 0, binding = 1) buffer Out { uint o[]; };
void main() {
  uint i = gl_GlobalInvocationID.x, x = a[i], y = b[i];
  uint k = 10u * i, c, hi, lo;
  o[k + 0u] = uaddCarry(x, y, c); o[k + 1u] = c;
  o[k + 2u] = usubBorrow(x, y, c); o[k + 3u] = c;
  umulExtended(x, y, hi, lo); o[k + 4u] = hi; o[k + 5u] = lo;
  int shi, slo;
  imulExtended(int(x), int(y), shi, slo); o[k + 6u] = uint(shi);
  float f = fa[i];
  o[k + 7u] = floatBitsToUint(abs(f)) ^ floatBitsToUint(floor(f * 0.75)) ^ floatBitsToUint(sqrt(abs(f)));
  o[k + 8u] = uint(clamp(int(x), -1000, int(y % 5000u))) ^ uint(abs(int(y))) ^ min(x, y) ^ max(x >> 3, y >> 5);
  o[k + 9u] = floatBitsToUint(min(f, 2.0)) ^ floatBitsToUint(max(f, -3.5)) ^ floatBitsToUint(trunc(f)) ^ floatBitsToUint(ceil(f));
}
