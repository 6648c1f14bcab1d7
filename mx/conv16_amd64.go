package mx

// AVX2 block dequantizers fused to bfloat16 and binary16 (conv16_amd64.s),
// for dequantize16 on CPUs without AVX-512: the float formats decode by
// arithmetic (FDEC8's steps), MXINT8 by conversion, MXFP4 through its 8
// magnitudes scaled per block; each value is multiplied by the block scale
// in float32 as the portable loop does and rounded in the same pass
// (integer RNE for bfloat16, VCVTPS2PH for binary16, which needs F16C).
// They take nblocks ≥ 0 blocks of 32; the wrapper checks the lengths.

//go:noescape
func dequantFBF16AVX2(dst *uint16, scales, codes *byte, nblocks int, c *decConsts)

//go:noescape
func dequantFHalfAVX2(dst *uint16, scales, codes *byte, nblocks int, c *decConsts)

//go:noescape
func dequantIBF16AVX2(dst *uint16, scales, codes *byte, nblocks int, c *decConsts)

//go:noescape
func dequantIHalfAVX2(dst *uint16, scales, codes *byte, nblocks int, c *decConsts)

//go:noescape
func dequantFP4BF16AVX2(dst *uint16, scales, elements *byte, nblocks int)

//go:noescape
func dequantFP4HalfAVX2(dst *uint16, scales, elements *byte, nblocks int)

// dequant16AVX2 dequantizes the whole 32-element blocks at the start of
// dst to bfloat16 (half false) or binary16 and returns how many elements
// it did (0 without AVX2, or for binary16 without F16C).
func dequant16AVX2(elem Format, dst []uint16, scales, elements []byte, half bool) int {
	nb := len(dst) / 32
	if !useAVX2 || nb == 0 || (half && !useF16C) {
		return 0
	}
	perBlock := 32 * elem.Bits() / 8
	_, _ = scales[nb-1], elements[nb*perBlock-1] // the kernels read this far
	switch elem {
	case E2M1:
		if half {
			dequantFP4HalfAVX2(&dst[0], &scales[0], &elements[0], nb)
		} else {
			dequantFP4BF16AVX2(&dst[0], &scales[0], &elements[0], nb)
		}
	case E4M3, E5M2, MXINT8:
		dequant8x16AVX2(elem, dst, scales, elements, nb, half)
	case E2M3, E3M2:
		var tmp [fp6Chunk * 32]byte
		for b0 := 0; b0 < nb; b0 += fp6Chunk {
			k := min(fp6Chunk, nb-b0)
			unpackFP6(tmp[:32*k], elements[24*b0:24*(b0+k)])
			dequant8x16AVX2(elem, dst[32*b0:], scales[b0:], tmp[:32*k], k, half)
		}
	default:
		return 0
	}
	return 32 * nb
}

// dequant8x16AVX2 dequantizes nb blocks of one-byte codes (the caller
// checked the lengths).
func dequant8x16AVX2(elem Format, dst []uint16, scales, codes []byte, nb int, half bool) {
	c := decConstTable[min(elem, E5M2)] // unused for MXINT8
	switch {
	case elem == MXINT8 && half:
		dequantIHalfAVX2(&dst[0], &scales[0], &codes[0], nb, c)
	case elem == MXINT8:
		dequantIBF16AVX2(&dst[0], &scales[0], &codes[0], nb, c)
	case half:
		dequantFHalfAVX2(&dst[0], &scales[0], &codes[0], nb, c)
	default:
		dequantFBF16AVX2(&dst[0], &scales[0], &codes[0], nb, c)
	}
}
