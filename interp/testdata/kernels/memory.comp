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
struct E { vec3 p; uint tag; };
layout(set = 0, binding = 0) readonly buffer In { uint a[]; };
layout(std430, set = 0, binding = 1) buffer Out { uint o[128]; E e[]; };
shared uint sh[64];
void main() {
  uint i = gl_GlobalInvocationID.x, l = gl_LocalInvocationID.x;
  uint t[8];
  for (uint j = 0u; j < 8u; j++) t[j] = a[i] >> (4u * j) & 15u;
  t[a[i] & 7u] += 100u;
  sh[l] = t[0] + t[1] * 16u + t[(i + 3u) & 7u] * 256u;
  barrier();
  o[i] = sh[63u - l] + sh[(l + 1u) & 63u] * 65536u;
  e[i].p = vec3(float(i), float(l) * 0.25, -1.0);
  e[i].tag = t[7];
}
