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
layout(set = 0, binding = 0) readonly buffer In { float f[128]; uint u[128]; };
layout(set = 0, binding = 1) buffer Out { uint o[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  float x = f[i];
  uint k = 5u * i;
  float c = clamp(x, -2.0e9, 2.0e9);
  o[k + 0u] = uint(int(c));
  o[k + 1u] = uint(abs(c));
  o[k + 2u] = floatBitsToUint(float(int(u[i])));
  o[k + 3u] = floatBitsToUint(float(u[i]));
  o[k + 4u] = packHalf2x16(vec2(x, float(i) * 0.3));
}
