package mx

// AVX2 block dequantizers fused to bfloat16 and binary16 (conv16_amd64.s),
// for dequantize16 on CPUs without AVX-512: the float formats decode to
// bfloat16 in 16-bit lanes (below), MXINT8 by conversion, MXFP4 through
// its 8 magnitudes scaled per block; each value is multiplied by the block
// scale in float32 as the portable loop does (or, where that is exact, its
// exponent added) and rounded in the same pass (integer RNE for bfloat16,
// VCVTPS2PH for binary16, which needs F16C). The one-byte float formats
// go to binary16 through dequantHDirectAVX2 (deqh_amd64.go) unless
// useHDirect is off.
// They take nblocks ≥ 0 blocks of 32; the wrapper checks the lengths.

//go:noescape
func dequantIBF16AVX2(dst *uint16, scales, codes *byte, nblocks int)

//go:noescape
func dequantIHalfAVX2(dst *uint16, scales, codes *byte, nblocks int)

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
		if useHDirect {
			if half {
				dequantHFP6AVX2(&dst[0], &scales[0], &elements[0], nb, hConstTable[elem])
			} else {
				dequantHFP6BF16AVX2(&dst[0], &scales[0], &elements[0], nb, hConstTable[elem])
			}
			break
		}
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
	switch {
	case elem == MXINT8 && half:
		dequantIHalfAVX2(&dst[0], &scales[0], &codes[0], nb)
	case elem == MXINT8:
		dequantIBF16AVX2(&dst[0], &scales[0], &codes[0], nb)
	case half && useHDirect:
		dequantHDirectAVX2(&dst[0], &scales[0], &codes[0], nb, hConstTable[elem])
	case half:
		dequantWHalfAVX2(&dst[0], &scales[0], &codes[0], nb, wConstTable[elem])
	default:
		dequantWBF16AVX2(&dst[0], &scales[0], &codes[0], nb, wConstTable[elem])
	}
}

// AVX2 decoders of the float formats straight to bfloat16 in 16-bit
// lanes, 16 codes per vector (every code's value is a bfloat16): a normal
// code's bfloat16 is its magnitude shifted to the bfloat16 mantissa
// position plus the exponent bias difference; the few subnormal codes come
// from a 16-entry VPSHUFB table. decodeWBF16AVX2 stores those words,
// decodeWHalfAVX2 widens them and converts with VCVTPS2PH (F16C), and the
// dequantizers add the block's exponent to the bfloat16 bits where every
// product is a normal bfloat16 (scale codes 17 to 238: the values lie
// between 2^-16 and 2^16) and otherwise multiply in float32 as the
// portable loop does.
//
//go:noescape
func decodeWBF16AVX2(dst *uint16, src *byte, n int, c *wConsts)

//go:noescape
func decodeWHalfAVX2(dst *uint16, src *byte, n int, c *wConsts)

//go:noescape
func dequantWBF16AVX2(dst *uint16, scales, codes *byte, nblocks int, c *wConsts)

//go:noescape
func dequantWHalfAVX2(dst *uint16, scales, codes *byte, nblocks int, c *wConsts)

// wConsts holds a float format's constants for the 16-bit-lane decoders
// as 16-word vectors (the assembly finds them through go_asm.h).
type wConsts struct {
	magMask, rebias, minNormalM1, signMask, infMag, nanMinM1 [16]uint16
	subLo, subHi                                             [32]byte // bfloat16 of subnormal magnitudes, both lanes
	shift, signShift                                         uint64
}

// wConstTable holds wConsts for the float formats.
var wConstTable = func() (t [E5M2 + 1]*wConsts) {
	for f := E2M1; f <= E5M2; f++ {
		in := &formatInfos[f]
		p := &in.float
		infMag, nanMinM1 := uint16(0xFFFF), uint16(0x7FFF) // none
		switch p.overflow {
		case overflowNaN:
			nanMinM1 = uint16(p.maxMag)
		case overflowInf:
			infMag, nanMinM1 = uint16(p.infMag), uint16(p.infMag)
		}
		c := &wConsts{shift: uint64(7 - p.manBits), signShift: uint64(16 - in.bits)}
		for i := range 16 {
			c.magMask[i], c.signMask[i] = uint16(p.signBit-1), uint16(p.signBit)
			c.rebias[i], c.minNormalM1[i] = uint16(127-p.bias)<<7, 1<<p.manBits-1
			c.infMag[i], c.nanMinM1[i] = infMag, nanMinM1
		}
		for m := range 16 {
			b := BFloat16FromFloat32(decodeTables[f][m&(1<<p.manBits-1)], RTE)
			c.subLo[m], c.subLo[16+m] = byte(b), byte(b)
			c.subHi[m], c.subHi[16+m] = byte(b>>8), byte(b>>8)
		}
		t[f] = c
	}
	return t
}()

// dequantWF32AVX2 and dequantIF32AVX2 dequantize nblocks blocks of 32
// one-byte codes of a float format (through BDEC) or of MXINT8 to float32
// by arithmetic; dequantBlocks32 uses them unless useArithDecode is off
// (then the table gather, dequant8x32AVX2).
//
//go:noescape
func dequantWF32AVX2(dst *float32, scales, codes *byte, nblocks int, c *wConsts)

//go:noescape
func dequantIF32AVX2(dst *float32, scales, codes *byte, nblocks int)

// dequant8x32 dequantizes nb blocks of one-byte codes to float32 (the
// caller checked the lengths).
func dequant8x32(elem Format, dst []float32, scales, codes []byte, nb int) {
	switch {
	case !useArithDecode:
		dequant8x32AVX2(&dst[0], &scales[0], &codes[0], nb, &decodeTables[elem])
	case elem == MXINT8:
		dequantIF32AVX2(&dst[0], &scales[0], &codes[0], nb)
	default:
		dequantWF32AVX2(&dst[0], &scales[0], &codes[0], nb, wConstTable[elem])
	}
}

// The AVX2 decoders of MXINT8 and E8M0 to bfloat16 and binary16 (the
// latter with F16C) compute the float32 value (int8/64, or 2^(c−127)) and
// narrow it, exactly for bfloat16 and by VCVTPS2PH for binary16; n is a
// positive multiple of 32.
//
//go:noescape
func decodeIBF16AVX2(dst *uint16, src *byte, n int)

//go:noescape
func decodeIHalfAVX2(dst *uint16, src *byte, n int)

//go:noescape
func decodeEBF16AVX2(dst *uint16, src *byte, n int)

//go:noescape
func decodeEHalfAVX2(dst *uint16, src *byte, n int)

// decodeIE16AVX2 decodes MXINT8 or E8M0 codes (f) to 16 bits by those
// kernels and reports whether it did (not for other formats, nor for
// binary16 without F16C).
func decodeIE16AVX2(dst []uint16, src []uint8, n int, f Format, out outKind) bool {
	if out == outHalf && !useF16C {
		return false
	}
	switch {
	case f == MXINT8 && out == outBF16:
		decodeIBF16AVX2(&dst[0], &src[0], n)
	case f == MXINT8:
		decodeIHalfAVX2(&dst[0], &src[0], n)
	case f == E8M0 && out == outBF16:
		decodeEBF16AVX2(&dst[0], &src[0], n)
	case f == E8M0:
		decodeEHalfAVX2(&dst[0], &src[0], n)
	default:
		return false
	}
	return true
}
