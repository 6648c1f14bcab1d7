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
uint g(uint x, uint n) {
  uint r = 0u;
  for (uint j = 0u; j < n; j++) { if ((x >> j & 1u) == 0u) continue; r += j * j; if (r > 200u) break; }
  return r;
}
void main() {
  uint i = gl_GlobalInvocationID.x;
  uint x = a[i], r = 0u;
  if ((i & 1u) == 0u) { r = g(x, i % 23u); } else if (i % 3u == 0u) { r = x >> 7; } else { r = g(~x, 5u) + 1000u; }
  switch (i % 5u) {
  case 0u: r += 1u; break;
  case 1u: r += 10u;
  case 2u: r += 100u; break;
  default: r *= 3u;
  }
  uint n = 0u;
  while (x != 0u && n < (i & 15u)) { x &= x - 1u; n++; }
  o[i] = r ^ (n << 24);
}
