#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
// Scalar widths and constants of every integer and float width.
layout(local_size_x = 1) in;

layout(std430, binding = 0) buffer Out {
    int8_t i8; uint8_t u8;
    int16_t i16; uint16_t u16;
    int64_t i64; uint64_t u64;
    float16_t h; double d;
    f16vec4 hv; dmat2 dm;
    float arr[3][2];
} o;

void main() {
    o.i8 = int8_t(-128);
    o.u8 = uint8_t(255);
    o.i16 = int16_t(-32768);
    o.u16 = uint16_t(65535);
    o.i64 = -9223372036854775807l - 1l;
    o.u64 = 18446744073709551615ul;
    o.h = float16_t(0.333) + float16_t(65504.0) * float16_t(6.0e-8);
    o.d = 1.0lf / 3.0lf + 1.0e-310lf;
    o.hv = f16vec4(1.0hf, -2.5hf, 0.0hf, -0.0hf);
    o.dm = dmat2(0.1lf);
    o.arr[2][1] = uintBitsToFloat(0x7f800000u) + uintBitsToFloat(0x00000001u) - 3.4028235e38;
}
