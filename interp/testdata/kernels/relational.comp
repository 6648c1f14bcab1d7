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
layout(set = 0, binding = 0) readonly buffer In { uint a[128]; uint b[128]; float fa[128]; float fb[128]; };
layout(set = 0, binding = 1) buffer Out { uint o[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  uint x = a[i], y = b[i];
  float p = fa[i], q = fb[i];
  uint m = 0u;
  m |= uint(x < y) << 0;
  m |= uint(int(x) < int(y)) << 1;
  m |= uint(x >= y) << 2;
  m |= uint(int(x) >= int(y)) << 3;
  m |= uint(x == y || (x & 1u) == 0u) << 4;
  m |= uint(p < q) << 5;
  m |= uint(p <= q) << 6;
  m |= uint(p == q) << 7;
  m |= uint(p != q) << 8;
  m |= uint(isnan(p / q)) << 9;
  m |= uint(isinf(p * q)) << 10;
  m |= uint(!(p > q) && !(x > y)) << 11;
  o[i] = m;
  o[128u + i] = (p < q) ? x : y;
}
