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
struct P { uvec2 xy; uint w[3]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  uvec4 v = uvec4(a[i], a[i] >> 8, i, 7u);
  uvec4 s = v.wzyx + v.xxyy;
  uint d = v[i & 3u];
  P p;
  p.xy = s.xy;
  p.w[0] = d; p.w[1] = s.z; p.w[2] = s.w;
  P q = p;
  q.w[i % 3u] += 1u;
  mat2 m = mat2(float(i), 1.0, 2.0, 3.0);
  vec2 r = m * vec2(0.5, float(i & 7u));
  uint k = 7u * i;
  o[k + 0u] = q.xy.x; o[k + 1u] = q.xy.y;
  o[k + 2u] = q.w[0]; o[k + 3u] = q.w[1]; o[k + 4u] = q.w[2];
  o[k + 5u] = floatBitsToUint(r.x); o[k + 6u] = floatBitsToUint(r.y);
}
