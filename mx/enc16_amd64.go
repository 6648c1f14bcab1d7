package mx

import "unsafe"

// AVX2 encoders of the float formats in the directed modes (RTZ, RTP,
// RTN) by arithmetic (enc16_amd64.s), from float32 and fused from
// bfloat16 and binary16 (the latter with F16C): a normal result truncates
// the magnitude at the rounding position after adding 2^shift − 1 on the
// lanes that round up (a ceiling), as the AVX-512 kernels do; a subnormal
// one is the magnitude divided by the format's subnormal quantum (an
// exact power-of-two multiply), rounded up with VROUNDPS on those lanes
// and truncated by the conversion on the others. The rest (limit, sign,
// NaN) is RNE8's. useDirArith false selects the encodeTable gather.

//go:noescape
func encodeDirF32AVX2(dst *byte, src *uint32, n int, c *rteConsts, d *dirConsts)

//go:noescape
func encodeDirBF16AVX2(dst *byte, src *uint16, n int, c *rteConsts, d *dirConsts)

//go:noescape
func encodeDirHalfAVX2(dst *byte, src *uint16, n int, c *rteConsts, d *dirConsts)

// dirConsts holds one (float format, directed mode) pair's constants as
// 8-lane vectors: the sign of u XOR flip, ANDed with enable, marks the
// lanes whose magnitude rounds up (enable 0 for RTZ, flip all ones for
// RTP so that the positive lanes are marked); inc is 2^shift − 1 and
// scale 2^(m − emin), the reciprocal of the subnormal quantum.
type dirConsts struct {
	flip, enable, inc, scale [8]uint32
}

// dirConstTable holds dirConsts for the float formats and the directed
// modes (the RTE row is unused).
var dirConstTable = func() (t [E5M2 + 1][RTN + 1]*dirConsts) {
	for f := E2M1; f <= E5M2; f++ {
		p := &formatInfos[f].float
		for m := RTZ; m <= RTN; m++ {
			d := new(dirConsts)
			for i := range 8 {
				d.inc[i] = 1<<(23-p.manBits) - 1
				d.scale[i] = uint32(127+int(p.manBits)-p.emin) << 23
				d.enable[i] = 0xFFFFFFFF * b2u(m != RTZ)
				d.flip[i] = 0xFFFFFFFF * b2u(m == RTP)
			}
			t[f][m] = d
		}
	}
	return t
}()

// encodeDirAVX2 encodes n inputs (a positive multiple of 32) of kind in
// in a directed mode by arithmetic and reports whether it did (not for
// binary16 without F16C).
func encodeDirAVX2(e *sliceEncoder, dst *byte, src unsafe.Pointer, n int, in outKind) bool {
	c, d := rteConstTable[e.f][b2u(e.sat)], dirConstTable[e.f][e.m]
	switch in {
	case outF32:
		encodeDirF32AVX2(dst, (*uint32)(src), n, c, d)
	case outBF16:
		encodeDirBF16AVX2(dst, (*uint16)(src), n, c, d)
	default:
		if !useF16C {
			return false
		}
		encodeDirHalfAVX2(dst, (*uint16)(src), n, c, d)
	}
	return true
}

// E5M2 is binary16 without its low 8 mantissa bits (same exponent bias,
// subnormals included), so encoding binary16 to E5M2 is integer rounding
// at bit 8 of the 16-bit pattern, 16 lanes at a time: the magnitude plus
// an increment, shifted right by 8 (RTE adds 0x7F plus the kept lsb, the
// directed modes 0xFF on the lanes that round up, as DIR8 does), a
// carry moving into the exponent as it should; then the minimum with the
// limit, the sign, and NaN inputs replaced by the NaN code, as in RNE8.
//
//go:noescape
func encodeE5M2RTEHalfAVX2(dst *byte, src *uint16, n int, c *e5hConsts)

//go:noescape
func encodeE5M2DirHalfAVX2(dst *byte, src *uint16, n int, c *e5hConsts)

// e5hConsts holds the constants of one (mode, saturation) pair of the
// binary16 to E5M2 encoders as 16-word vectors: RNE8's limit, nanSign and
// nanCode, and for the directed modes DIR8's flip and the increment
// (0xFF, or 0 for RTZ).
type e5hConsts struct {
	limit, nanSign, nanCode, flip, inc [16]uint16
}

// e5hConstTable holds e5hConsts by mode and saturation.
var e5hConstTable = func() (t [RTN + 1][2]*e5hConsts) {
	for m := RTE; m <= RTN; m++ {
		for sat := range 2 {
			r := rteConstTable[E5M2][sat]
			c := new(e5hConsts)
			for i := range 16 {
				c.limit[i], c.nanSign[i], c.nanCode[i] = uint16(r.limit[0]), uint16(r.nanSign[0]), uint16(r.nanCode[0])
				c.flip[i] = 0xFFFF * uint16(b2u(m == RTP))
				c.inc[i] = 0xFF * uint16(b2u(m != RTZ))
			}
			t[m][sat] = c
		}
	}
	return t
}()

// useE5Half selects the binary16 to E5M2 encoders over the general ones
// (the tests run both).
var useE5Half = true

// encodeRTEW16AVX2 encodes bfloat16 to a float format, to nearest even,
// in 16-bit lanes: rneMag's integer rounding on the bfloat16 pattern
// (whose float32 low half is zero, so rounding at bit 7 − m of the 16 bits
// is rounding at bit 23 − m of the 32) for normal results; for subnormal
// ones the FPU's magic-number addition on the even and odd words widened
// to float32 in place (shifted up, or the low half cleared), the two codes
// then joined in the words again. Then RNE8's limit, sign and NaN code.
// encodeRTEWHalfAVX2 does the same on binary16 patterns (rounding at bit
// 10 − m; a magnitude shifted left by 13 is its value times 2^-112 as a
// float32, rounded by the magic number times 2^-112).
//
//go:noescape
func encodeRTEW16AVX2(dst *byte, src *uint16, n int, c *w16Consts)

//go:noescape
func encodeRTEWHalfAVX2(dst *byte, src *uint16, n int, c *w16Consts)

// w16Consts holds one (input kind, float format, saturation) triple's
// constants for encodeRTEW16AVX2 and encodeRTEWHalfAVX2: rneMag's and
// RNE8's constants for 16-bit patterns as 16-word vectors (inf is the
// input's +Inf), the float32 magic number as 8 dwords.
type w16Consts struct {
	half, rebias, minNormalM1, limit, signBit, nanSign, nanCode, inf [16]uint16
	magic                                                            [8]uint32
	shift, signShift                                                 uint64
}

// w16ConstTable holds w16Consts for bfloat16 (0) and binary16 (1) inputs,
// every float format and saturation.
var w16ConstTable = func() (t [2][E5M2 + 1][2]*w16Consts) {
	for f := E2M1; f <= E5M2; f++ {
		in := &formatInfos[f]
		p := &in.float
		m, bias := uint32(p.manBits), uint32(p.bias)
		for sat := range 2 {
			r := rteConstTable[f][sat]
			for kind, q := range [2]struct{ man, bias, inf, magicAdj uint32 }{{7, 127, 0x7F80, 0}, {10, 15, 0x7C00, 112 << 23}} {
				c := &w16Consts{shift: uint64(q.man - m), signShift: uint64(16 - in.bits)}
				for i := range 16 {
					c.half[i], c.rebias[i] = uint16(1<<(q.man-m-1)-1), uint16((q.bias-bias)<<m)
					c.minNormalM1[i] = uint16((q.bias+1-bias)<<q.man - 1) // 2^emin
					c.limit[i], c.signBit[i], c.inf[i] = uint16(r.limit[0]), uint16(r.signBit[0]), uint16(q.inf)
					c.nanSign[i], c.nanCode[i] = uint16(r.nanSign[0]), uint16(r.nanCode[0])
				}
				for i := range 8 {
					c.magic[i] = r.magic[0] - q.magicAdj
				}
				t[kind][f][sat] = c
			}
		}
	}
	return t
}()

// useRTEW16 selects the 16-bit-lane encoders (encodeRTEW16AVX2,
// encodeRTEWHalfAVX2, and encodeDirW16 in the directed modes) for 16-bit
// inputs (the tests run both).
var useRTEW16 = true

// encodeDirW16AVX2 and encodeDirWHalfAVX2 are DIR8's directed rounding
// for bfloat16 and binary16 inputs in 16-bit lanes, as encodeRTEW16AVX2
// is RNE8's: the ceiling add on the normal results; the subnormal ones
// from the even and odd words widened to float32 in place, multiplied by
// the reciprocal of the quantum (times 2^112 for binary16, whose widened
// magnitudes are their values times 2^-112), rounded up by VROUNDPS on the
// lanes that round up and truncated by VCVTTPS2DQ.
//
//go:noescape
func encodeDirW16AVX2(dst *byte, src *uint16, n int, c *w16Consts, d *w16DirConsts)

//go:noescape
func encodeDirWHalfAVX2(dst *byte, src *uint16, n int, c *w16Consts, d *w16DirConsts)

// w16DirConsts holds dirConsts for 16-bit patterns: flip, enable and inc
// as 16-word vectors, scale as 8 dwords.
type w16DirConsts struct {
	flip, enable, inc [16]uint16
	scale             [8]uint32
}

// w16DirConstTable holds w16DirConsts for bfloat16 (0) and binary16 (1)
// inputs, the float formats and the directed modes (not for binary16 to
// E5M2, whose scale 2^(16+112) is beyond float32; useE5Half's kernel
// takes that case).
var w16DirConstTable = func() (t [2][E5M2 + 1][RTN + 1]*w16DirConsts) {
	for f := E2M1; f <= E5M2; f++ {
		p := &formatInfos[f].float
		for kind, q := range [2]struct{ man, adj int }{{7, 0}, {10, 112}} {
			e := 127 + int(p.manBits) - p.emin + q.adj
			if e > 254 {
				continue
			}
			for m := RTZ; m <= RTN; m++ {
				d := new(w16DirConsts)
				for i := range 16 {
					d.flip[i] = 0xFFFF * uint16(b2u(m == RTP))
					d.enable[i] = 0xFFFF * uint16(b2u(m != RTZ))
					d.inc[i] = uint16(1<<(q.man-int(p.manBits)) - 1)
				}
				for i := range 8 {
					d.scale[i] = uint32(e) << 23
				}
				t[kind][f][m] = d
			}
		}
	}
	return t
}()

// encodeDirW16 runs encodeDirW16AVX2 or encodeDirWHalfAVX2 on n inputs (a
// positive multiple of 32) in a directed mode and reports whether it did
// (not where w16DirConstTable has no constants).
func encodeDirW16(e *sliceEncoder, dst *byte, src *uint16, n int, half bool) bool {
	kind := b2u(half)
	d := w16DirConstTable[kind][e.f][e.m]
	if d == nil {
		return false
	}
	c := w16ConstTable[kind][e.f][b2u(e.sat)]
	if half {
		encodeDirWHalfAVX2(dst, src, n, c, d)
	} else {
		encodeDirW16AVX2(dst, src, n, c, d)
	}
	return true
}
