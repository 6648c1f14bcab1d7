// Package mx implements the OCP Microscaling (MX) numeric formats exactly:
// the element formats FP4 E2M1, FP6 E2M3 and E3M2, FP8 E4M3 and E5M2, the
// E8M0 scale and MXINT8, the IEEE binary16 and bfloat16 helpers, and MX block
// quantization with shared E8M0 scales.
//
// # Scalars
//
// Decoding is exact for every code: every value of every format is a float32
// (2^-127, the smallest E8M0 value, is a float32 subnormal). Encoding rounds
// the exact input on the format's grid with the requested RoundingMode
// (RTE by default), and then checks the range on the rounded value:
//
//   - non-saturating: E4M3 gives NaN (0x7F, with the sign), E5M2 gives ±Inf;
//     FP4 and FP6 have neither, so they always saturate to ±max;
//   - saturating (SPIR-V SaturatedToLargestFloat8NormalConversionEXT, CUDA
//     SATFINITE): finite overflow and ±Inf give ±max; NaN stays NaN.
//
// NaN into E2M1, E2M3, E3M2 or MXINT8 is implementation-defined by OCP and by
// SPIR-V; this package gives +0 (code 0x00), which is what SPIRV-Tools does.
// NaN into E4M3 gives 0x7F and into E5M2 0x7E, each with the input's sign.
//
// E8M0 follows ml_dtypes: round to nearest with ties up (1.5·2^k → 2^(k+1)),
// NaN and ±Inf → 0xFF in every mode; non-saturating: overflow, zero and
// negative values → 0xFF; saturating: overflow → 0xFE, zero and negative
// values → 0x00; positive values below 2^-127 → 0x00. RTZ and RTN take the
// floor of the exponent, RTP the ceiling.
//
// MXINT8 rounds x·64 to an integer in the requested mode and saturates to
// [−128, 127] in both modes (it has no Inf or NaN); −0 gives 0x00.
//
// # Blocks
//
// Quantize and Dequantize implement the OCP MX v1.0 §6.3 block rule: the
// shared scale is clamp(⌊log2 amax⌋ − emax_elem, −127, 127) + 127 with an
// exact ⌊log2⌋ read from the exponent bits; a block holding NaN or ±Inf gets
// the NaN scale 0xFF (the whole block decodes to NaN); an all-zero block gets
// scale code 0 and zero elements. Elements are V·2^−shared rounded to
// nearest, ties to even (or ties away from zero, microxcaling's default, on
// request) and saturated to ±max; MXINT8 elements clamp symmetrically to ±127.
//
// Block sizes: OCP MX v1.0 fixes k = 32 (DefaultBlockSize); Quantize,
// Dequantize and ScaleBytes accept any k from MinBlockSize (1) to
// MaxBlockSize (2^20 = 1,048,576) and return ErrFormat outside that range.
// ScaleBytes, ElementBytes and GGUFMXFP4Bytes are exact for every
// non-negative int count (they never form a sum or product that can wrap)
// and return ErrFormat for a negative count or an invalid format.
//
// Packing (OCP defines none; this is spvx's): scales in one byte array,
// elements in another. FP4: element 2j in the low nibble of byte j, 2j+1 in
// the high nibble. FP6: a little-endian bit stream, element k in bits
// 6k..6k+5, so 4 elements fill 3 bytes. 8-bit formats: one element per byte.
// ToGGUFMXFP4 and FromGGUFMXFP4 convert MXFP4 data to and from the GGUF
// block_mxfp4 layout.
//
// # Slices and 16-bit data
//
// EncodeSlice, EncodeSliceBFloat16 and EncodeSliceHalf convert whole
// arrays of float32, bfloat16 or IEEE binary16 values (16-bit formats as
// raw uint16 bit patterns) to codes, one per byte, in any rounding mode,
// saturating or not; DecodeSlice, DecodeSliceBFloat16 and DecodeSliceHalf
// go back. Each element equals the scalar function's result (see
// slice.go for the exact correspondence). QuantizeBFloat16, QuantizeHalf,
// DequantizeBFloat16 and DequantizeHalf are the block functions for 16-bit
// data: inputs are widened to float32 exactly, outputs are the float32
// results rounded to nearest even. Large slices are split across
// GOMAXPROCS goroutines; the results do not depend on the split.
//
// # CPU features
//
// On amd64 the slice conversions and the 32-element blocks of every MX
// format run in AVX2 kernels when the CPU has AVX2; where it has AVX-512
// F, BW, DQ and VL, the slice decoders and encoders, the block quantizers
// and the block dequantizers run AVX-512 kernels instead, with
// byte-permute table lookups where it also has VBMI. Both read and write
// bfloat16 and binary16 directly (no float32 copy). Other cases and other
// architectures run portable Go, which gives the same bits.
// GODEBUG=cpu.avx512f=off selects the AVX2 kernels and cpu.avx2=off the
// portable code (the runtime's syntax, read once at start-up).
//
// Sources: OCP Microscaling Formats (MX) v1.0; SPV_EXT_float8 rev 1;
// SPV_EXT_ocp_microscaling_types rev 1.
package mx
