package mx

import "math"

// Round-to-nearest-even encoders specialised per format. Each is a few
// integer operations on the float32 bits with the format's parameters as
// constants, small enough for the compiler to inline into the leaf
// functions of EncodeFloat32's dispatch table (check with go build
// -gcflags=-m). The AVX2 slice encoders do rneMag's arithmetic 8 lanes at
// a time; the block quantizer kernels round with the FPU instead (see
// quant512_amd64.s) and the tests hold them to the same results.
//
// They saturate by taking the minimum of the rounded code and a limit: the
// integer rounding below gives codes that grow with the input all the way to
// +Inf (and beyond, for NaN bit patterns), so min(code, limit) maps every
// overflow to the limit. The limit is the largest finite code when
// saturating; without saturation it is the code overflow must produce: NaN
// (0x7F) for E4M3, Inf (0x7C) for E5M2, and ±max for FP4 and FP6, which
// always saturate. Only NaN inputs need a separate (predictable) test.

// rneMag rounds a float32 magnitude a (sign bit clear, not NaN) to the grid
// of a narrow format and returns the magnitude code; codes beyond the
// format's largest are not clamped. Normal results round with integer
// arithmetic on the bits: adding half an ulp minus one, plus the kept lsb,
// gives ties to even, and a mantissa carry moves into the exponent as it
// should. Subnormal results let the FPU round by adding a constant whose
// ulp is the format's subnormal quantum. Both are computed and one selected
// without a branch, as real data mixes them unpredictably (a normal
// distribution puts most FP4 values below 1.0, the smallest E2M1 normal).
//
// The arguments are the format's constants, derived by rneConsts; callers
// pass them as literals so the compiler folds them (the derivation inline
// would exceed the inlining budget).
func rneMag(a, sh, half, rebias, minNormal uint32, magic float32, magicBits uint32) uint32 {
	code := (a+half+(a>>sh)&1)>>sh - rebias
	sub := math.Float32bits(math.Float32frombits(a)+magic) - magicBits
	if a < minNormal {
		code = sub // a conditional move: both are computed
	}
	return code
}

// rneConsts derives rneMag's constants for m mantissa bits and exponent
// bias `bias`; a test checks the literals against it.
func rneConsts(m, bias uint32) (sh, half, rebias, minNormal uint32, magic float32, magicBits uint32) {
	sh = 23 - m
	magicBits = (151 - bias - m) << 23 // 2^(emin − m + 23), emin = 1 − bias
	return sh, 1<<(sh-1) - 1, (127 - bias) << m, (128 - bias) << 23, math.Float32frombits(magicBits), magicBits
}

// FP4 and FP6 have no NaN or Inf: overflow and ±Inf saturate, NaN gives +0.

func e2m1RTE(u uint32) uint8 {
	if u<<1 > 0xFF000000 {
		return 0
	}
	return uint8(u>>31<<3 | min(rneMag(u&0x7FFFFFFF, 22, 1<<21-1, 126<<1, 127<<23, 1<<22, 149<<23), 0x7))
}

func e2m3RTE(u uint32) uint8 {
	if u<<1 > 0xFF000000 {
		return 0
	}
	return uint8(u>>31<<5 | min(rneMag(u&0x7FFFFFFF, 20, 1<<19-1, 126<<3, 127<<23, 1<<20, 147<<23), 0x1F))
}

func e3m2RTE(u uint32) uint8 {
	if u<<1 > 0xFF000000 {
		return 0
	}
	return uint8(u>>31<<5 | min(rneMag(u&0x7FFFFFFF, 21, 1<<20-1, 124<<2, 125<<23, 1<<19, 146<<23), 0x1F))
}

// e4m3RTE: limit 0x7F (NaN) without saturation, 0x7E (448) with it; a NaN
// input is NaN either way.
func e4m3RTE(u uint32, limit uint32) uint8 {
	a := u & 0x7FFFFFFF
	if a > 0x7F800000 {
		limit = 0x7F
	}
	return uint8(u>>31<<7 | min(rneMag(a, 20, 1<<19-1, 120<<3, 121<<23, 1<<14, 141<<23), limit))
}

// e5m2RTE: limit 0x7C (Inf) without saturation, 0x7B (57344) with it; a
// NaN input gives the NaN 0x7E.
func e5m2RTE(u uint32, limit uint32) uint8 {
	a := u & 0x7FFFFFFF
	if a > 0x7F800000 {
		limit = 0x7E // min with the huge code of a NaN pattern
	}
	return uint8(u>>31<<7 | min(rneMag(a, 21, 1<<20-1, 112<<2, 113<<23, 1<<7, 134<<23), limit))
}

// e8m0RTE implements encodeE8M0 for round to nearest (ties up) on float32
// bits. For a positive normal x the code is its biased exponent rounded at
// the mantissa's top bit, (u + 2^22) >> 23, since a significand ≥ 1.5
// rounds up; 0xFF from that is overflow. A positive float32 subnormal is
// below 2^-126 and rounds to 2^-126 (code 1) from 1.5·2^-127 (bits
// 0x600000) up, else to 0, which (u + 2^21) >> 23 gives. Zero, negative
// values, Inf and NaN take the policy's fixed codes. Every case is computed
// and one selected, since signs in real data are unpredictable.
func e8m0RTE(u uint32, saturate bool) uint8 {
	r := uint32(0x400000)
	if u < 0x800000 {
		r = 0x200000
	}
	c := min((u+r)>>23, 0xFF-b2u(saturate))
	special := uint32(0xFF) // zero and negative values unless saturating, ±Inf, NaN
	if saturate && u&0x7FFFFFFF < 0x7F800000 {
		special = 0
	}
	if u-1 >= 0x7F7FFFFF { // +0, or the sign bit or an all-ones exponent set
		c = special
	}
	return uint8(c)
}

// mxint8RTE implements encodeMXINT8 for round to nearest even in float32:
// x·64 is exact (a power-of-two scaling up can only overflow, to ±Inf,
// which still clamps right), clamping to [−128, 127] before rounding gives
// the same result as after because the bounds are integers, and adding and
// removing 1.5·2^23 rounds to an integer, ties to even.
func mxint8RTE(x float32) uint8 {
	if x != x {
		return 0
	}
	const roundMagic = 1.5 * (1 << 23)
	v := min(max(x*64, -128), 127)
	return uint8(int8((v + roundMagic) - roundMagic))
}
