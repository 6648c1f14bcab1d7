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
layout(set = 0, binding = 0) readonly buffer In { uint a[128]; uint b[128]; };
layout(set = 0, binding = 1) buffer Out { uint o[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  uint x = a[i], y = b[i];
  int sx = int(x), sy = int(y);
  uint k = 12u * i;
  o[k + 0u] = x + y;
  o[k + 1u] = x - y;
  o[k + 2u] = x * y;
  o[k + 3u] = x / y;
  o[k + 4u] = x % y;
  o[k + 5u] = uint(sx / sy);
  o[k + 6u] = uint(sx % sy);
  o[k + 7u] = (x << (y & 31u)) ^ (x >> (i & 31u)) ^ uint(sx >> int(i & 31u));
  o[k + 8u] = (x & y) | (~x & (y >> 3));
  o[k + 9u] = uint(bitCount(x)) | (bitfieldReverse(y) & 0xFFFFFF00u);
  o[k + 10u] = bitfieldExtract(x, int(i & 15u), 9) ^ bitfieldInsert(x, y, 5, int(i & 7u));
  o[k + 11u] = uint(findLSB(x)) + 256u * uint(findMSB(int(y))) + 65536u * uint(findMSB(x));
}
