package mx

import (
	"math"
	"sync"
	"unsafe"
)

// Slice conversions: whole arrays of element codes (one code per byte, in
// the low bits for FP4 and FP6) to and from float32, bfloat16 and IEEE
// binary16 (raw uint16 bit patterns). Every element gives exactly what the
// scalar functions give:
//
//	DecodeSlice:          dst[i] = f.DecodeFloat32(src[i])
//	DecodeSliceBFloat16:  dst[i] = BFloat16FromFloat32(f.DecodeFloat32(src[i]), RTE)
//	DecodeSliceHalf:      dst[i] = HalfFromFloat32(f.DecodeFloat32(src[i]), RTE)
//	EncodeSlice:          dst[i] = f.EncodeFloat32(src[i], m, saturate)
//	EncodeSliceBFloat16:  dst[i] = f.EncodeFloat32(BFloat16ToFloat32(src[i]), m, saturate)
//	EncodeSliceHalf:      dst[i] = f.EncodeFloat32(HalfToFloat32(src[i]), m, saturate)
//
// Every element value is a bfloat16, so DecodeSliceBFloat16 is exact; it is
// a binary16 too except for E8M0, whose scales beyond binary16's range
// round (RTE) to ±Inf, zero or a subnormal.
//
// The portable loops decode with a 256-entry table and encode the float
// formats with a table indexed by the float32 sign, exponent, the top m
// mantissa bits, the rounding bit and a sticky bit (these decide the result
// in every mode; see rteTable); E8M0 and MXINT8 are a few integer or float
// operations. On amd64 with AVX2 (see slice_amd64.go) whole groups of 32
// elements run in vector kernels; GODEBUG=cpu.avx2=off selects the
// portable loops. Slices of at least sliceParallelMin elements are split
// across GOMAXPROCS goroutines; each element is converted on its own, so the
// output does not depend on the split.

// sliceParallelMin is the element count from which the slice conversions
// split the work across goroutines: at about 1 ns an element, 256 Ki
// elements take a few hundred microseconds, against a few microseconds to
// start and join the goroutines.
const sliceParallelMin = 1 << 18

// sliceChunk is the staging buffer of the bfloat16 and binary16 encoders:
// they widen this many inputs to float32 bits on the stack, then encode them.
const sliceChunk = 512

// DecodeSlice decodes len(src) codes of format f into dst[:len(src)]. dst
// must be at least as long as src (ErrShortBuffer); an invalid format gives
// ErrFormat.
func (f Format) DecodeSlice(dst []float32, src []uint8) error {
	if !f.valid() {
		return ErrFormat
	}
	if len(dst) < len(src) {
		return ErrShortBuffer
	}
	forSlice(len(src), func(lo, hi int) { decodeF32(dst[lo:hi], src[lo:hi], &decodeTables[f]) })
	return nil
}

// DecodeSliceBFloat16 decodes codes of format f to bfloat16 bit patterns
// (exact for every code; NaN codes give 0x7FC0).
func (f Format) DecodeSliceBFloat16(dst []uint16, src []uint8) error {
	if !f.valid() {
		return ErrFormat
	}
	return f.decode16(dst, src, &decodeTables16()[f].bf16)
}

// DecodeSliceHalf decodes codes of format f to IEEE binary16 bit patterns
// (exact except for E8M0 scales outside binary16's range, which round to
// nearest even; NaN codes give 0x7E00).
func (f Format) DecodeSliceHalf(dst []uint16, src []uint8) error {
	if !f.valid() {
		return ErrFormat
	}
	return f.decode16(dst, src, &decodeTables16()[f].half)
}

func (f Format) decode16(dst []uint16, src []uint8, table *[258]uint16) error {
	if len(dst) < len(src) {
		return ErrShortBuffer
	}
	forSlice(len(src), func(lo, hi int) { decodeU16(dst[lo:hi], src[lo:hi], table) })
	return nil
}

// decodeTable16 holds a format's codes as bfloat16 and binary16 bits. Two
// entries of padding let a vector gather read 32 bits at any entry.
type decodeTable16 struct {
	bf16, half [258]uint16
}

var decodeTables16 = sync.OnceValue(func() *[MXINT8 + 1]decodeTable16 {
	t := new([MXINT8 + 1]decodeTable16)
	for _, f := range Formats {
		for c := range 256 {
			x := f.DecodeFloat32(uint8(c))
			t[f].bf16[c] = BFloat16FromFloat32(x, RTE)
			t[f].half[c] = HalfFromFloat32(x, RTE)
		}
	}
	return t
})

// decodeF32 and decodeU16 run the vector kernel over a prefix where there
// is one and the table lookup over the rest.
func decodeF32(dst []float32, src []uint8, table *[256]float32) {
	n := decodeF32Kernel(dst, src, table)
	dst, src = dst[n:len(src)], src[n:]
	for i, c := range src {
		dst[i] = table[c]
	}
}

func decodeU16(dst []uint16, src []uint8, table *[258]uint16) {
	n := decodeU16Kernel(dst, src, table)
	dst, src = dst[n:len(src)], src[n:]
	for i, c := range src {
		dst[i] = table[c]
	}
}

// EncodeSlice encodes len(src) float32 values into dst[:len(src)] as codes
// of format f, rounding in mode m, saturating or not, exactly as
// EncodeFloat32 does. dst must be at least as long as src
// (ErrShortBuffer); an invalid format or mode gives ErrFormat.
func (f Format) EncodeSlice(dst []uint8, src []float32, m RoundingMode, saturate bool) error {
	e, err := newSliceEncoder(f, m, saturate)
	if err != nil {
		return err
	}
	if len(dst) < len(src) {
		return ErrShortBuffer
	}
	bits := unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(src))), len(src))
	forSlice(len(src), func(lo, hi int) { e.encodeBits(dst[lo:hi], bits[lo:hi]) })
	return nil
}

// EncodeSliceBFloat16 encodes bfloat16 bit patterns as codes of format f
// (each value is widened to float32 exactly, then encoded).
func (f Format) EncodeSliceBFloat16(dst []uint8, src []uint16, m RoundingMode, saturate bool) error {
	return f.encode16(dst, src, m, saturate, false)
}

// EncodeSliceHalf encodes IEEE binary16 bit patterns as codes of format f
// (each value is widened to float32 exactly, then encoded).
func (f Format) EncodeSliceHalf(dst []uint8, src []uint16, m RoundingMode, saturate bool) error {
	return f.encode16(dst, src, m, saturate, true)
}

func (f Format) encode16(dst []uint8, src []uint16, m RoundingMode, saturate, half bool) error {
	e, err := newSliceEncoder(f, m, saturate)
	if err != nil {
		return err
	}
	if len(dst) < len(src) {
		return ErrShortBuffer
	}
	forSlice(len(src), func(lo, hi int) { e.encode16(dst[lo:hi], src[lo:hi], half) })
	return nil
}

// forSlice runs body over [0, n), split across goroutines for large n.
func forSlice(n int, body func(lo, hi int)) {
	if n < sliceParallelMin || serial(n, 0) {
		body(0, n)
		return
	}
	parallelFor(n, 256, 0, body) // chunks of a multiple of 1024 elements
}

// sliceEncoder is one (format, mode, saturate) encoder for the slice
// functions.
type sliceEncoder struct {
	f     Format
	m     RoundingMode
	sat   bool
	table *encodeTable // float formats
}

func newSliceEncoder(f Format, m RoundingMode, saturate bool) (*sliceEncoder, error) {
	if !f.valid() || m > RTN {
		return nil, ErrFormat
	}
	e := &sliceEncoder{f: f, m: m, sat: saturate}
	if f <= E5M2 {
		e.table = encodeTables(f, m, saturate)
	}
	return e, nil
}

// encode16 widens bfloat16 or binary16 inputs to float32 bits a chunk at a
// time and encodes the chunk.
func (e *sliceEncoder) encode16(dst []uint8, src []uint16, half bool) {
	if n := encode16Kernel(e, dst, src, half); n > 0 {
		dst, src = dst[n:], src[n:]
	}
	// The rest (the formats and modes without a 16-bit kernel, and tails)
	// goes through float32 bits a chunk at a time, widened exactly (by
	// widen16's kernel where there is one) and encoded by encodeBits.
	var buf [sliceChunk]uint32
	for len(src) > 0 {
		n := min(len(src), len(buf))
		b := buf[:n]
		widen16(unsafe.Slice((*float32)(unsafe.Pointer(&b[0])), n), src[:n], half)
		e.encodeBits(dst[:n], b)
		dst, src = dst[n:], src[n:]
	}
}

// halfBits returns the float32 bits of the exact value of a binary16 code,
// keeping a NaN's sign and payload (as HalfToFloat32 does).
func halfBits(h uint16) uint32 {
	s := uint32(h&0x8000) << 16
	a := uint32(h & 0x7FFF)
	switch {
	case a >= 0x7C00: // Inf and NaN
		return s | 0x7F800000 | (a&0x3FF)<<13
	case a >= 0x0400: // normal: rebias the exponent from 15 to 127
		return s | (a<<13 + 112<<23)
	}
	// Subnormal: a·2^-24, exact in float32 (an integer below 2^10 times a
	// power of two).
	return s | math.Float32bits(float32(a)*(1.0/(1<<24)))
}

// encodeBits encodes float32 bit patterns; len(dst) ≥ len(src).
func (e *sliceEncoder) encodeBits(dst []uint8, src []uint32) {
	n := encodeBitsKernel(e, dst, src)
	dst, src = dst[n:len(src)], src[n:]
	switch {
	case e.table != nil:
		t := e.table
		for i, u := range src {
			dst[i] = t.lookup(u)
		}
	case e.f == E8M0 && e.m == RTE:
		for i, u := range src {
			dst[i] = e8m0RTE(u, e.sat)
		}
	case e.f == E8M0:
		for i, u := range src {
			dst[i] = e8m0Directed(u, e.m, e.sat)
		}
	default: // MXINT8
		mxint8Slice(dst, src, e.m)
	}
}

// encodeTable maps the key bits of a float32 to a code of a float format
// for one rounding mode and saturation. The key is the sign, the exponent,
// the top m mantissa bits and the rounding bit below them, then a sticky bit
// for whether any lower bit is set: 11+m bits. Rounding to m mantissa bits
// depends on nothing else, in any mode, and in binades where the format is
// subnormal fewer bits are kept and all the dropped ones are among these
// (see rteTable, which is the sign-free RTE case). The key of an Inf has
// only the exponent set, and every NaN has some mantissa key bit or the
// sticky bit set, so the table covers every input. It is built from
// EncodeFloat32 on one representative per key.
type encodeTable struct {
	shift   uint32 // 22 − m: position of the rounding bit
	lowMask uint32 // bits below the rounding bit
	// codes has 3 bytes of padding so that a vector gather may read 32 bits
	// at any entry.
	codes []uint8
}

func (t *encodeTable) lookup(u uint32) uint8 {
	sticky := ((u & t.lowMask) + t.lowMask) >> t.shift & 1
	return t.codes[(u>>t.shift)<<1|sticky]
}

// encodeTableKey is one table of the cache: format, mode, saturation.
type encodeTableKey struct {
	f   Format
	m   RoundingMode
	sat bool
}

var encodeTableCache sync.Map // encodeTableKey → func() *encodeTable

// encodeTables returns the (cached) table for a float format, mode and
// saturation, building it on first use: up to 16 Ki scalar conversions.
func encodeTables(f Format, m RoundingMode, sat bool) *encodeTable {
	key := encodeTableKey{f, m, sat}
	build, ok := encodeTableCache.Load(key)
	if !ok {
		build, _ = encodeTableCache.LoadOrStore(key, sync.OnceValue(func() *encodeTable {
			mb := uint32(formatInfos[f].float.manBits)
			t := &encodeTable{shift: 22 - mb, lowMask: 1<<(22-mb) - 1}
			n := uint32(1) << (11 + mb)
			t.codes = make([]uint8, n+3)
			for idx := range n {
				u := (idx>>1)<<t.shift | idx&1
				t.codes[idx] = f.EncodeFloat32(math.Float32frombits(u), m, sat)
			}
			return t
		}))
	}
	return build.(func() *encodeTable)()
}

// e8m0Directed is encodeE8M0 for RTZ, RTP and RTN on float32 bits. For a
// positive normal x, ⌊log2 x⌋ + 127 is the exponent field; RTP adds one
// unless the mantissa is zero. A positive float32 subnormal is below
// 2^-126: it gives code 0, or 1 when RTP rounds a value above 2^-127 up.
func e8m0Directed(u uint32, m RoundingMode, sat bool) uint8 {
	switch {
	case u&0x7FFFFFFF >= 0x7F800000: // NaN, ±Inf
		return 0xFF
	case u == 0 || u>>31 != 0: // zero and negative values
		if sat {
			return 0
		}
		return 0xFF
	case u < 0x800000:
		if m == RTP && u > 0x400000 {
			return 1
		}
		return 0
	}
	c := u >> 23
	if m == RTP && u&0x7FFFFF != 0 {
		c++
	}
	if c > 254 {
		if sat {
			return 0xFE
		}
		return 0xFF
	}
	return uint8(c)
}

// mxint8Slice encodes to MXINT8 in mode m: x·64 clamped to [−128, 127]
// (exact, see mxint8RTE), then rounded to an integer; the clamp commutes
// with rounding because the bounds are integers. NaN gives 0.
func mxint8Slice(dst []uint8, src []uint32, m RoundingMode) {
	switch m {
	case RTE:
		for i, u := range src {
			dst[i] = mxint8RTE(math.Float32frombits(u))
		}
		return
	}
	for i, u := range src {
		x := math.Float32frombits(u)
		if x != x {
			dst[i] = 0
			continue
		}
		v := min(max(x*64, -128), 127)
		t := int32(v) // truncates toward zero: RTZ
		switch {
		case m == RTP && float32(t) < v:
			t++
		case m == RTN && float32(t) > v:
			t--
		}
		dst[i] = uint8(int8(t))
	}
}
