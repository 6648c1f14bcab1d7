#version 450
// spvx example: y = a*x + y over a storage buffer, with a subgroup reduction.
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) buffer Y { float y[]; };
layout(set = 0, binding = 2) buffer Sums { float sums[]; };
layout(push_constant) uniform P { float a; uint n; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float v = 0.0;
    if (i < n) {
        v = a * x[i] + y[i];
        y[i] = v;
    }
    float s = subgroupAdd(v);
    if (subgroupElect()) sums[gl_WorkGroupID.x * gl_NumSubgroups + gl_SubgroupID] = s;
}
