package mx

import (
	"math"
	"math/bits"
)

// decodeTables holds the float32 value of every code of every format, so
// decoding (and block dequantization) is one load. Codes beyond a narrow
// format's width repeat its pattern masked to the width. The tables are
// computed once and never written again.
var decodeTables = buildDecodeTables()

func buildDecodeTables() (t [MXINT8 + 1][256]float32) {
	for _, f := range Formats {
		mask := uint32(1)<<f.Bits() - 1
		for c := range 256 {
			t[f][c] = float32(f.decodeSlow(uint32(c) & mask))
		}
	}
	return t
}

// decodeSlow computes the exact value of a code from the format definition.
func (f Format) decodeSlow(code uint32) float64 {
	switch f {
	case E8M0:
		if code == 0xFF {
			return math.NaN()
		}
		return math.Ldexp(1, int(code)-127)
	case MXINT8:
		return float64(int8(uint8(code))) / 64
	}
	if !f.valid() {
		return math.NaN()
	}
	return f.info().float.decode(code)
}

// Decode returns the exact value of code as a float64. Bits above the
// format's width are ignored. Zeros keep their sign; NaN codes give NaN.
func (f Format) Decode(code uint8) float64 {
	if !f.valid() {
		return math.NaN()
	}
	return float64(decodeTables[f][code])
}

// DecodeFloat32 returns the exact value of code as a float32 (every value of
// every format is a float32).
func (f Format) DecodeFloat32(code uint8) float32 {
	if !f.valid() {
		return float32(math.NaN())
	}
	return decodeTables[f][code]
}

// EncodeFloat32 converts x to the nearest code in rounding mode m (see the
// package documentation for overflow, saturation and NaN). saturate selects
// the saturating conversion. An invalid format or mode gives 0.
//
// It is small enough to inline: the call it leaves in the caller goes
// straight to a specialised encoder for the format and mode, a leaf
// function of a dozen integer operations for the default mode RTE.
func (f Format) EncodeFloat32(x float32, m RoundingMode, saturate bool) uint8 {
	return encoders[min(f, MXINT8+1)][min(m, 7)](f, x, m, saturate)
}

// encoders[f][m] encodes float32 to format f in mode m. Row 0 and row
// MXINT8+1 (every invalid format) and columns 4 to 7 (every other mode)
// lead to the general path, which receives the real f and m and rejects
// what is invalid.
var encoders = [MXINT8 + 2][8]func(Format, float32, RoundingMode, bool) uint8{
	{encodeSlow, encodeSlow, encodeSlow, encodeSlow, encodeSlow, encodeSlow, encodeSlow, encodeSlow},
	{encodeE2M1RTE, encodeSlow, encodeSlow, encodeSlow, encodeSlow, encodeSlow, encodeSlow, encodeSlow},
	{encodeE2M3RTE, encodeSlow, encodeSlow, encodeSlow, encodeSlow, encodeSlow, encodeSlow, encodeSlow},
	{encodeE3M2RTE, encodeSlow, encodeSlow, encodeSlow, encodeSlow, encodeSlow, encodeSlow, encodeSlow},
	{encodeE4M3RTE, encodeSlow, encodeSlow, encodeSlow, encodeSlow, encodeSlow, encodeSlow, encodeSlow},
	{encodeE5M2RTE, encodeSlow, encodeSlow, encodeSlow, encodeSlow, encodeSlow, encodeSlow, encodeSlow},
	{encodeE8M0RTE, encodeSlow, encodeSlow, encodeSlow, encodeSlow, encodeSlow, encodeSlow, encodeSlow},
	{encodeMXINT8RTE, encodeSlow, encodeSlow, encodeSlow, encodeSlow, encodeSlow, encodeSlow, encodeSlow},
	{encodeSlow, encodeSlow, encodeSlow, encodeSlow, encodeSlow, encodeSlow, encodeSlow, encodeSlow},
}

// The table's entries for RTE: leaf functions around the inlined
// specialised encoders of rte.go.

func encodeE2M1RTE(_ Format, x float32, _ RoundingMode, _ bool) uint8 {
	return e2m1RTE(math.Float32bits(x))
}

func encodeE2M3RTE(_ Format, x float32, _ RoundingMode, _ bool) uint8 {
	return e2m3RTE(math.Float32bits(x))
}

func encodeE3M2RTE(_ Format, x float32, _ RoundingMode, _ bool) uint8 {
	return e3m2RTE(math.Float32bits(x))
}

func encodeE4M3RTE(_ Format, x float32, _ RoundingMode, saturate bool) uint8 {
	return e4m3RTE(math.Float32bits(x), 0x7F-b2u(saturate))
}

func encodeE5M2RTE(_ Format, x float32, _ RoundingMode, saturate bool) uint8 {
	return e5m2RTE(math.Float32bits(x), 0x7C-b2u(saturate))
}

func encodeE8M0RTE(_ Format, x float32, _ RoundingMode, saturate bool) uint8 {
	return e8m0RTE(math.Float32bits(x), saturate)
}

func encodeMXINT8RTE(_ Format, x float32, _ RoundingMode, _ bool) uint8 {
	return mxint8RTE(x)
}

func encodeSlow(f Format, x float32, m RoundingMode, saturate bool) uint8 {
	return f.encodeFloat32Slow(x, m, saturate)
}

// b2u is 1 for true and 0 for false.
func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// encodeFloat32Slow handles the directed rounding modes exactly through
// float64 (every float32 is a float64, so rounding once is preserved).
func (f Format) encodeFloat32Slow(x float32, m RoundingMode, saturate bool) uint8 {
	switch f {
	case E8M0:
		return encodeE8M0(float64(x), m, saturate)
	case MXINT8:
		return encodeMXINT8(float64(x), m)
	}
	if !f.valid() || m > RTN {
		return 0
	}
	return uint8(formatInfos[f].float.encode64(float64(x), m, saturate))
}

// EncodeFloat64 converts x like EncodeFloat32, rounding the float64 value
// once (converting to float32 first would round twice).
func (f Format) EncodeFloat64(x float64, m RoundingMode, saturate bool) uint8 {
	switch f {
	case E8M0:
		return encodeE8M0(x, m, saturate)
	case MXINT8:
		return encodeMXINT8(x, m)
	}
	if !f.valid() || m > RTN {
		return 0
	}
	return uint8(formatInfos[f].float.encode64(x, m, saturate))
}

// encodeRTE32 is the fast path: float32 bits to a code, round to nearest
// even. Normal results round with integer arithmetic on the float32 bits
// (a mantissa carry moves into the exponent as it should); subnormal results
// let the FPU round by adding a constant whose ulp is the format's quantum.
func (p *floatParams) encodeRTE32(u uint32, saturate bool) uint32 {
	if u&0x7FFFFFFF >= p.overflow32 {
		return p.special32(u, saturate)
	}
	return p.rte.encode(u)
}

// rteEncoder holds what the round-to-nearest-even fast path needs, for the
// formats whose constants are not literals in rte.go (binary16, bfloat16).
type rteEncoder struct {
	shift, halfMinus1, rebias, minNormal, signBit, maxMag, magicBits uint32
	magic                                                            float32
}

// encode converts float32 bits to a code, rounding to nearest even and
// saturating finite overflow to ±max; u must not be NaN or Inf. Normal
// results round with integer arithmetic on the float32 bits (a mantissa
// carry moves into the exponent as it should); subnormal results let the
// FPU round by adding a constant whose ulp is the format's quantum. Both
// are computed and one selected without a branch, as real data mixes them
// unpredictably.
func (e *rteEncoder) encode(u uint32) uint32 {
	a := u & 0x7FFFFFFF
	sh := e.shift & 31
	code := (a+e.halfMinus1+(a>>sh)&1)>>sh - e.rebias
	sub := math.Float32bits(math.Float32frombits(a)+e.magic) - e.magicBits
	// All ones when a < minNormal (both are below 2^31, so the difference
	// fits an int32); the compiler would otherwise emit a branch.
	isSub := uint32(int32(a-e.minNormal) >> 31)
	code = code&^isSub | sub&isSub
	return (u>>31)*e.signBit | min(code, e.maxMag)
}

// special32 handles what encodeRTE32 leaves out: RTE overflow, ±Inf, NaN.
func (p *floatParams) special32(u uint32, saturate bool) uint32 {
	a := u & 0x7FFFFFFF
	neg := u>>31 != 0
	if a > 0x7F800000 {
		return p.nanCode(neg)
	}
	return p.overflowCode(neg, RTE, saturate, a == 0x7F800000)
}

func (p *floatParams) nanCode(neg bool) uint32 {
	if p.nanToZero {
		return 0
	}
	if neg {
		return p.signBit | p.nanMag
	}
	return p.nanMag
}

// overflowCode returns the code for a value whose rounded magnitude is
// beyond the largest finite value, or for an infinity (isInf).
func (p *floatParams) overflowCode(neg bool, m RoundingMode, saturate, isInf bool) uint32 {
	var sign uint32
	if neg {
		sign = p.signBit
	}
	if saturate {
		return sign | p.maxMag
	}
	switch p.overflow {
	case overflowNaN:
		return sign | p.nanMag
	case overflowInf:
		return sign | p.infMag
	case overflowIEEE:
		// IEEE 754 §7.4: the directed modes give the largest finite value
		// when they round toward it, and an infinity stays infinite.
		if isInf || m == RTE || m == roundTiesAway || (m == RTP && !neg) || (m == RTN && neg) {
			return sign | p.infMag
		}
	}
	return sign | p.maxMag
}

// encode64 converts a float64 with any rounding mode. It is exact: the value
// is split into an integer significand and a power of two, and the
// significand is rounded once at the format's quantum.
func (p *floatParams) encode64(x float64, m RoundingMode, saturate bool) uint32 {
	u := math.Float64bits(x)
	neg := u>>63 != 0
	var sign uint32
	if neg {
		sign = p.signBit
	}
	expField := int(u>>52) & 0x7FF
	frac := u & (1<<52 - 1)
	switch {
	case expField == 0x7FF && frac != 0:
		return p.nanCode(neg)
	case expField == 0x7FF:
		return p.overflowCode(neg, m, saturate, true)
	case expField == 0 && frac == 0:
		return sign
	}
	mant, exp := frac, -1074
	if expField != 0 {
		mant |= 1 << 52
		exp = expField - 1075
	}
	return p.encodeParts(neg, mant, exp, m, saturate)
}

// encodeParts rounds |x| = mant·2^exp (mant > 0) onto the grid in mode m on
// an unbounded exponent range, then checks the range on the rounded value.
func (p *floatParams) encodeParts(neg bool, mant uint64, exp int, m RoundingMode, saturate bool) uint32 {
	var sign uint32
	if neg {
		sign = p.signBit
	}
	e := exp + bits.Len64(mant) - 1 // ⌊log2 |x|⌋
	et := max(e, p.emin)            // exponent of the binade the result is quantized in
	shift := et - int(p.manBits) - exp
	var r uint64 // rounded value in units of 2^(et − m)
	switch {
	case shift <= 0:
		r = mant << uint(-shift) // exact; shift is small here since mant ≥ 1 at exponent e ≤ et
	case shift >= 64:
		r = roundUnits(0, 1, 2, neg, m) // below half a unit, nonzero
	default:
		r = roundUnits(mant>>uint(shift), mant&(1<<uint(shift)-1), uint64(1)<<uint(shift-1), neg, m)
	}
	// Code of r units at binade et: subnormal codes are r itself, normal
	// codes carry the implicit bit; a carry from rounding moves into the
	// exponent field.
	code := uint64(et-p.emin)<<p.manBits + r
	if code > uint64(p.maxMag) {
		return p.overflowCode(neg, m, saturate, false)
	}
	return sign | uint32(code)
}

// roundUnits rounds q + rem/(2·half) to an integer in mode m; rem < 2·half.
func roundUnits(q, rem, half uint64, neg bool, m RoundingMode) uint64 {
	if rem == 0 {
		return q
	}
	switch m {
	case RTE:
		if rem > half || (rem == half && q&1 == 1) {
			q++
		}
	case roundTiesAway:
		if rem >= half {
			q++
		}
	case RTP:
		if !neg {
			q++
		}
	case RTN:
		if neg {
			q++
		}
	}
	return q
}

// encodeE8M0 implements the E8M0 policy (ml_dtypes' rules, see the package
// documentation). Only the exponent and the top mantissa bits matter.
func encodeE8M0(x float64, m RoundingMode, saturate bool) uint8 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0xFF
	}
	if x <= 0 { // zero (either sign) and negative values
		if saturate {
			return 0x00
		}
		return 0xFF
	}
	frac, exp := math.Frexp(x) // x = frac·2^exp, frac ∈ [0.5, 1)
	e := exp - 1               // ⌊log2 x⌋
	exact := frac == 0.5
	switch m {
	case RTE, roundTiesAway: // ties up: 1.5·2^k → 2^(k+1)
		if frac >= 0.75 {
			e++
		}
	case RTP:
		if !exact {
			e++
		}
	}
	switch {
	case e < -127:
		return 0x00
	case e > 127:
		if saturate {
			return 0xFE
		}
		return 0xFF
	}
	return uint8(e + 127)
}

// encodeMXINT8 rounds x·64 in mode m and saturates to [−128, 127]. x·64 is
// exact in float64 for every float64 that can matter (|x| < 2^1017).
func encodeMXINT8(x float64, m RoundingMode) uint8 {
	if math.IsNaN(x) {
		return 0
	}
	y := x * 64
	switch m {
	case RTE:
		y = math.RoundToEven(y)
	case RTZ:
		y = math.Trunc(y)
	case RTP:
		y = math.Ceil(y)
	case RTN:
		y = math.Floor(y)
	case roundTiesAway:
		y = math.Round(y)
	}
	switch {
	case y >= 127:
		return 0x7F
	case y <= -128:
		return 0x80
	}
	return uint8(int8(y))
}

// HalfToFloat32 returns the exact value of an IEEE binary16 code.
// A NaN keeps its sign and payload.
func HalfToFloat32(h uint16) float32 {
	if h&0x7C00 == 0x7C00 && h&0x3FF != 0 {
		return math.Float32frombits(uint32(h&0x8000)<<16 | 0x7F800000 | uint32(h&0x3FF)<<13)
	}
	return float32(halfParams.decode(uint32(h)))
}

// HalfFromFloat32 converts x to IEEE binary16 in rounding mode m with IEEE
// overflow (RTE gives ±Inf; a directed mode rounding toward zero gives
// ±max). NaN keeps its sign and becomes the quiet NaN 0x7E00.
func HalfFromFloat32(x float32, m RoundingMode) uint16 {
	if m == RTE {
		return uint16(halfParams.encodeRTE32(math.Float32bits(x), false))
	}
	return uint16(halfParams.encode64(float64(x), m, false))
}

// HalfFromFloat64 is HalfFromFloat32 for a float64, rounded once.
func HalfFromFloat64(x float64, m RoundingMode) uint16 {
	return uint16(halfParams.encode64(x, m, false))
}

// BFloat16ToFloat32 returns the exact value of a bfloat16 code.
func BFloat16ToFloat32(b uint16) float32 {
	return math.Float32frombits(uint32(b) << 16)
}

// BFloat16FromFloat32 converts x to bfloat16 in rounding mode m with IEEE
// overflow. NaN keeps its sign and becomes the quiet NaN 0x7FC0.
func BFloat16FromFloat32(x float32, m RoundingMode) uint16 {
	if m == RTE {
		return uint16(bfloat16Params.encodeRTE32(math.Float32bits(x), false))
	}
	return uint16(bfloat16Params.encode64(float64(x), m, false))
}

// BFloat16FromFloat64 is BFloat16FromFloat32 for a float64, rounded once.
func BFloat16FromFloat64(x float64, m RoundingMode) uint16 {
	return uint16(bfloat16Params.encode64(x, m, false))
}
