#version 450
#extension GL_ARB_gpu_shader_int64 : require
// Control flow for --nested-indent and --reorder-blocks: "quotes" and a \ backslash
// in this comment reach OpSource with -g, to exercise string escapes.
layout(local_size_x = 8, local_size_y = 1, local_size_z = 1) in;

layout(constant_id = 0) const int MODE = 2;
layout(constant_id = 1) const bool FAST = true;

layout(std430, binding = 0) buffer Data {
    float scale;
    uint values[];
} data;

layout(std140, binding = 1) uniform Params {
    mat4 transform;
    vec4 bias;
    int64_t big;
} params;

shared uint tile[8];

float helper(float x, int n) {
    float acc = 0.0;
    for (int i = 0; i < n; ++i) {
        if (i % 3 == 0) {
            continue;
        }
        acc += x * float(i);
        if (acc > 100.0) {
            break;
        }
    }
    return acc;
}

void main() {
    uint id = gl_GlobalInvocationID.x;
    tile[gl_LocalInvocationID.x] = data.values[id];
    barrier();
    uint v = tile[(gl_LocalInvocationID.x + 1u) % 8u];
    switch (MODE) {
    case 0:
        v += 1u;
        break;
    case 1:
    case 2:
        v *= 3u;
        // fall through
    case -7:
        v ^= 0xdeadbeefu;
        break;
    default:
        v = 0u;
    }
    int k = int(v & 7u);
    do {
        k--;
    } while (k > 0 && FAST);
    float f = helper(float(v), k + 4) * data.scale;
    f = -f + 1.0e-3 + params.bias.x;
    if (isnan(f) || f < -1.5e38) {
        f = 0.0;
    } else if (f > 2.0) {
        f = sqrt(f);
    }
    data.values[id] = floatBitsToUint(f) + uint(params.big);
}
