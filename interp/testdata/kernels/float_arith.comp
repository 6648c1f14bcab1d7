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
layout(set = 0, binding = 0) readonly buffer In { float a[128]; float b[128]; };
layout(set = 0, binding = 1) buffer Out { float o[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  float x = a[i], y = b[i];
  uint k = 6u * i;
  o[k + 0u] = x + y;
  o[k + 1u] = x - y;
  o[k + 2u] = x * y;
  o[k + 3u] = x / y;
  o[k + 4u] = -x * 0.5 + y;
  o[k + 5u] = (x * 3.0) * (y + 1.0);
}
