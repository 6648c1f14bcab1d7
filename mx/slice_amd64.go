package mx

import "unsafe"

// AVX2 kernels for the slice conversions (slice_amd64.s), over whole
// groups of 32 elements; the portable loops in slice.go finish the tail.
// Decoding a float format to float32 is arithmetic (decodeFloatAVX2), to
// 16 bits too (decodeWBF16AVX2, decodeWHalfAVX2 in conv16_amd64.go), and
// so is decoding E8M0 and MXINT8 to 16 bits; E8M0 and MXINT8 to float32
// gather from the same tables the portable loops read.
// Encoding a float format in RTE does rneMag's integer arithmetic 8 lanes
// at a time; the directed modes round by arithmetic too (enc16_amd64.go),
// or, with useDirArith off, gather from the encodeTable the portable loop
// reads. bfloat16 and binary16 inputs are encoded in 16-bit lanes
// (encodeRTEW16AVX2 and its kin, and binary16 to E5M2 by integer rounding
// alone) unless useRTEW16 and useE5Half are off. MXINT8 rounds with VROUNDPS; E8M0 is integer arithmetic
// on the exponent field.
//
// Dispatch: useAVX2 (kernels_amd64.go) is set once from CPUID and GODEBUG
// (cpu.avx2=off switches it off); tests flip it to run both paths. The
// AVX-512 kernels (conv512_amd64.go, useAVX512, cpu.avx512f=off) are tried
// first in each wrapper below.

//go:noescape
func decodeGather32AVX2(dst *float32, src *byte, n int, table *[256]float32)

//go:noescape
func decodeGather16AVX2(dst *uint16, src *byte, n int, table *[258]uint16)

//go:noescape
func encodeTableAVX2(dst *byte, src *uint32, n int, codes *byte, shift uint64, low uint32)

//go:noescape
func encodeRTEAVX2(dst *byte, src *uint32, n int, c *rteConsts)

//go:noescape
func encodeTable16AVX2(dst *byte, src *uint16, n int, codes *byte, shift uint64, low uint32, half uint8)

//go:noescape
func encodeRTE16AVX2(dst *byte, src *uint16, n int, c *rteConsts, half uint8)

// The MXINT8 encoders, one per rounding mode (VROUNDPS takes the mode as
// an immediate).
//
//go:noescape
func encodeINT8RTEAVX2(dst *byte, src *uint32, n int)

//go:noescape
func encodeINT8RTZAVX2(dst *byte, src *uint32, n int)

//go:noescape
func encodeINT8RTPAVX2(dst *byte, src *uint32, n int)

//go:noescape
func encodeINT8RTNAVX2(dst *byte, src *uint32, n int)

// The E8M0 encoders (RTN gives RTZ's codes on the positive values that
// are not special).
//
//go:noescape
func encodeE8M0RTEAVX2(dst *byte, src *uint32, n int, sat bool)

//go:noescape
func encodeE8M0RTZAVX2(dst *byte, src *uint32, n int, sat bool)

//go:noescape
func encodeE8M0RTPAVX2(dst *byte, src *uint32, n int, sat bool)

var encodeE8M0AVX2 = [...]func(dst *byte, src *uint32, n int, sat bool){
	RTE: encodeE8M0RTEAVX2, RTZ: encodeE8M0RTZAVX2, RTP: encodeE8M0RTPAVX2, RTN: encodeE8M0RTZAVX2,
}

var encodeINT8AVX2 = [...]func(dst *byte, src *uint32, n int){
	RTE: encodeINT8RTEAVX2, RTZ: encodeINT8RTZAVX2, RTP: encodeINT8RTPAVX2, RTN: encodeINT8RTNAVX2,
}

//go:noescape
func decodeFloatAVX2(dst *float32, src *byte, n int, c *decConsts)

// decConsts holds a float format's constants for decodeFloatAVX2 and the
// AVX-512 decoders. A code's magnitude shifted to the float32 mantissa
// position plus rebias (the exponent bias difference) is its float32
// value if its exponent field is not 0 (the magnitude above minNormalM1);
// a subnormal code gets one more (one23, exponent field 1) and then
// 2^(1−bias) (sub) subtracted, which is exact. Neither step multiplies a
// float32 subnormal, which costs a microcode assist on some CPUs.
type decConsts struct {
	magMask, signMask, infMag, nanMinM1 [8]uint32
	rebias, minNormalM1, one23, sub     [8]uint32
	shift, signShift                    uint64
}

// decConstTable holds decConsts for the float formats. Magnitudes are
// compared as signed dwords; 0xFFFF is beyond every magnitude (no Inf, no
// NaN).
var decConstTable = func() (t [E5M2 + 1]*decConsts) {
	for f := E2M1; f <= E5M2; f++ {
		in := &formatInfos[f]
		p := &in.float
		infMag, nanMinM1 := uint32(0xFFFF), uint32(0xFFFF)
		switch p.overflow {
		case overflowNaN:
			nanMinM1 = p.maxMag
		case overflowInf:
			infMag, nanMinM1 = p.infMag, p.infMag
		}
		c := &decConsts{shift: uint64(23 - p.manBits), signShift: uint64(32 - in.bits)}
		for i := range 8 {
			c.magMask[i], c.signMask[i] = p.signBit-1, p.signBit
			c.infMag[i], c.nanMinM1[i] = infMag, nanMinM1
			c.rebias[i], c.minNormalM1[i] = uint32(127-p.bias)<<23, 1<<p.manBits-1
			c.one23[i], c.sub[i] = 1<<23, uint32(128-p.bias)<<23 // 2^(1−bias)
		}
		t[f] = c
	}
	return t
}()

// useArithDecode selects decodeFloatAVX2 over the gather for the float
// formats (see BENCHMARKS.md).
var useArithDecode = true

//go:noescape
func narrowRTE16AVX2(dst *uint16, src *uint32, n int, c *rteConsts)

// narrowConsts are the rteConsts of bfloat16 and binary16 (IEEE overflow
// to ±Inf under RTE: the limit is the Inf code).
var narrowConsts = [2]*rteConsts{newRTEConstsParams(&bfloat16Params, 16, false), newRTEConstsParams(&halfParams, 16, false)}

//go:noescape
func widen16AVX2(dst *uint32, src *uint16, n int, half uint8)

// widen16Kernel widens bfloat16 (half false) or binary16 bits to float32
// over a prefix of whole groups of 32 and returns its length.
func widen16Kernel(dst []float32, src []uint16, half bool) int {
	n := len(src) &^ 31
	if !useAVX2 || n == 0 {
		return 0
	}
	_ = dst[n-1]
	widen16AVX2((*uint32)(unsafe.Pointer(&dst[0])), &src[0], n, uint8(b2u(half))) // bit-exact, so never VCVTPH2PS
	return n
}

// narrow16Kernel rounds float32 values to bfloat16 (half false) or
// binary16 over a prefix of whole groups of 32 and returns its length.
func narrow16Kernel(dst []uint16, src []float32, half bool) int {
	n := len(src) &^ 31
	if !useAVX2 || n == 0 {
		return 0
	}
	_ = dst[n-1]
	bits := (*uint32)(unsafe.Pointer(&src[0]))
	switch {
	case !half:
		narrowBF16AVX2(&dst[0], bits, n)
	case useF16C:
		narrowHalfF16CAVX2(&dst[0], bits, n)
	default:
		narrowRTE16AVX2(&dst[0], bits, n, narrowConsts[1])
	}
	return n
}

// narrowBF16AVX2 rounds to bfloat16 by integer arithmetic;
// narrowHalfF16CAVX2 to binary16 with VCVTPS2PH (F16C).
//
//go:noescape
func narrowBF16AVX2(dst *uint16, src *uint32, n int)

//go:noescape
func narrowHalfF16CAVX2(dst *uint16, src *uint32, n int)

// rteConsts holds one (float format, saturation) pair's constants for
// encodeRTEAVX2 as 8-lane vectors; the assembly finds the fields through
// go_asm.h.
type rteConsts struct {
	half, rebias, minNormalM1, magic, limit, signBit, nanSign, nanCode [8]uint32
	shift, signShift                                                   uint64
}

// newRTEConsts derives the constants from the format parameters: limit is
// the code overflow gives (the scalar encoders' min limit), and NaN inputs
// give nanCode, with the input's sign where the format keeps it.
func newRTEConsts(f Format, sat bool) *rteConsts {
	in := &formatInfos[f]
	return newRTEConstsParams(&in.float, in.bits, sat)
}

func newRTEConstsParams(p *floatParams, bits uint, sat bool) *rteConsts {
	sh, half, rebias, minNormal, _, magicBits := rneConsts(uint32(p.manBits), uint32(p.bias))
	limit := p.maxMag
	if !sat {
		switch p.overflow {
		case overflowNaN:
			limit = p.nanMag
		case overflowInf, overflowIEEE:
			limit = p.infMag
		}
	}
	nanSign, nanCode := p.signBit, p.nanMag
	if p.nanToZero {
		nanSign, nanCode = 0, 0
	}
	c := &rteConsts{shift: uint64(sh), signShift: uint64(32 - bits)}
	for i := range 8 {
		c.half[i], c.rebias[i], c.minNormalM1[i], c.magic[i] = half, rebias, minNormal-1, magicBits
		c.limit[i], c.signBit[i], c.nanSign[i], c.nanCode[i] = limit, p.signBit, nanSign, nanCode
	}
	return c
}

// rteConstTable holds newRTEConsts for every float format and saturation.
var rteConstTable = func() (t [E5M2 + 1][2]*rteConsts) {
	for f := E2M1; f <= E5M2; f++ {
		t[f][0], t[f][1] = newRTEConsts(f, false), newRTEConsts(f, true)
	}
	return t
}()

func decodeF32Kernel(dst []float32, src []uint8, table *[256]float32) int {
	if useAVX512 {
		if f := tableFormat(table); f != 0 {
			return decode512(unsafe.Pointer(unsafe.SliceData(dst)), len(dst), src, f, outF32)
		}
	}
	n := len(src) &^ 31
	if !useAVX2 || n == 0 {
		return 0
	}
	_ = dst[n-1]
	for f := E2M1; f <= E5M2; f++ {
		if table == &decodeTables[f] && useArithDecode {
			decodeFloatAVX2(&dst[0], &src[0], n, decConstTable[f])
			return n
		}
	}
	decodeGather32AVX2(&dst[0], &src[0], n, table)
	return n
}

func decodeU16Kernel(dst []uint16, src []uint8, table *[258]uint16) int {
	if useAVX512 {
		if f, out := table16Format(table); f != 0 {
			return decode512(unsafe.Pointer(unsafe.SliceData(dst)), len(dst), src, f, out)
		}
	}
	n := len(src) &^ 31
	if !useAVX2 || n == 0 {
		return 0
	}
	_ = dst[n-1]
	if useArithDecode {
		if f, out := table16Format(table); f != 0 && decodeIE16AVX2(dst, src, n, f, out) {
			return n
		}
		t := decodeTables16()
		for f := E2M1; f <= E5M2; f++ {
			switch {
			case table == &t[f].bf16:
				decodeWBF16AVX2(&dst[0], &src[0], n, wConstTable[f])
				return n
			case table == &t[f].half && useF16C:
				decodeWHalfAVX2(&dst[0], &src[0], n, wConstTable[f])
				return n
			}
		}
	}
	decodeGather16AVX2(&dst[0], &src[0], n, table)
	return n
}

func encodeBitsKernel(e *sliceEncoder, dst []uint8, src []uint32) int {
	if useAVX512 {
		return encode512(e, dst, unsafe.Pointer(unsafe.SliceData(src)), len(src), outF32)
	}
	n := len(src) &^ 31
	if !useAVX2 || n == 0 {
		return 0
	}
	_ = dst[n-1]
	switch {
	case e.f == E8M0:
		encodeE8M0AVX2[e.m](&dst[0], &src[0], n, e.sat)
	case e.f == MXINT8:
		encodeINT8AVX2[e.m](&dst[0], &src[0], n)
	case e.m == RTE:
		encodeRTEAVX2(&dst[0], &src[0], n, rteConstTable[e.f][b2u(e.sat)])
	case useDirArith:
		encodeDirAVX2(e, &dst[0], unsafe.Pointer(&src[0]), n, outF32)
	default:
		encodeTableAVX2(&dst[0], &src[0], n, &e.table.codes[0], uint64(e.table.shift), e.table.lowMask)
	}
	return n
}

// widenMode is the 16-bit kernels' input mode (WIDEN in slice_amd64.s):
// 0 bfloat16, 1 binary16 by integer arithmetic, 2 binary16 by VCVTPH2PS.
func widenMode(half bool) uint8 {
	switch {
	case !half:
		return 0
	case useF16C:
		return 2
	}
	return 1
}

// encode16Kernel widens bfloat16 or binary16 inputs inside the kernels.
func encode16Kernel(e *sliceEncoder, dst []uint8, src []uint16, half bool) int {
	in := outBF16
	if half {
		in = outHalf
	}
	n := len(src) &^ 31
	if half && e.f == E5M2 && useE5Half && useAVX2 && n > 0 {
		// Binary16 to E5M2 by integer rounding alone runs at copy speed on
		// AVX2, faster than the general AVX-512 encoder, so AVX-512 CPUs
		// take it too.
		_ = dst[n-1]
		if e.m == RTE {
			encodeE5M2RTEHalfAVX2(&dst[0], &src[0], n, e5hConstTable[e.m][b2u(e.sat)])
		} else {
			encodeE5M2DirHalfAVX2(&dst[0], &src[0], n, e5hConstTable[e.m][b2u(e.sat)])
		}
		return n
	}
	if useAVX512 {
		return encode512(e, dst, unsafe.Pointer(unsafe.SliceData(src)), len(src), in)
	}
	if !useAVX2 || n == 0 || e.table == nil {
		return 0
	}
	_ = dst[n-1]
	switch {
	case e.m == RTE && useRTEW16 && !half:
		encodeRTEW16AVX2(&dst[0], &src[0], n, w16ConstTable[0][e.f][b2u(e.sat)])
	case e.m == RTE && useRTEW16:
		encodeRTEWHalfAVX2(&dst[0], &src[0], n, w16ConstTable[1][e.f][b2u(e.sat)])
	case e.m == RTE:
		encodeRTE16AVX2(&dst[0], &src[0], n, rteConstTable[e.f][b2u(e.sat)], widenMode(half))
	case useRTEW16 && encodeDirW16(e, &dst[0], &src[0], n, half):
	case useDirArith && encodeDirAVX2(e, &dst[0], unsafe.Pointer(&src[0]), n, in):
	default:
		encodeTable16AVX2(&dst[0], &src[0], n, &e.table.codes[0], uint64(e.table.shift), e.table.lowMask, widenMode(half))
	}
	return n
}
