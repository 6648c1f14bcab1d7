package vkformat

import "math"

// Small floats: the 16-bit IEEE half (sign, 5-bit exponent, 10-bit
// mantissa) and the unsigned 11-bit (6-bit mantissa) and 10-bit (5-bit
// mantissa) floats of R11fG11fB10f share the exponent width and bias.
const (
	smallExp  = 5
	smallBias = 15
)

// mantBits returns the mantissa width and signedness of the stored
// float of w bits (16, 11 or 10).
func mantBits(w uint) (uint, bool) {
	if w == 16 {
		return 10, true
	}
	return w - smallExp, false
}

// decodeFloatBits decodes a stored float component of w bits.
func decodeFloatBits(b uint64, w uint) float64 {
	if w == 32 {
		return float64(math.Float32frombits(uint32(b)))
	}
	mb, signed := mantBits(w)
	m := b & (1<<mb - 1)
	e := int(b >> mb & (1<<smallExp - 1))
	neg := signed && b>>(mb+smallExp)&1 != 0
	var v float64
	switch e {
	case 1<<smallExp - 1:
		if m == 0 {
			v = math.Inf(1)
		} else { // keep the payload in the high mantissa bits
			v = math.Float64frombits(0x7ff<<52 | m<<(52-mb))
		}
	case 0:
		v = math.Ldexp(float64(m), 1-smallBias-int(mb))
	default:
		v = math.Ldexp(float64(1<<mb|m), e-smallBias-int(mb))
	}
	if neg {
		v = -v
	}
	return v
}

// encodeFloatBits encodes x as a stored float component of w bits, with
// the rounding and special cases of the package comment.
func encodeFloatBits(x float64, w uint) uint64 {
	if w == 32 {
		return uint64(math.Float32bits(float32(x)))
	}
	mb, signed := mantBits(w)
	expAll := uint64(1<<smallExp-1) << mb
	var sign uint64
	if signed && math.Signbit(x) {
		sign = 1 << (mb + smallExp)
	}
	switch {
	case x != x:
		payload := math.Float64bits(x) & (1<<52 - 1) >> (52 - mb)
		if !signed {
			sign = 0
		}
		return sign | expAll | 1<<(mb-1) | payload
	case !signed && x <= 0:
		return 0
	case math.IsInf(x, 0):
		return sign | expAll
	}
	a := math.Abs(x)
	_, fe := math.Frexp(a)
	e := max(fe-1, 1-smallBias) // the exponent of a's quantum band
	// a scaled so that the band's quantum is 1: exact, a power-of-two scale
	n := uint64(math.RoundToEven(math.Ldexp(a, int(mb)-e)))
	if n == 1<<(mb+1) { // rounded up into the next binade
		n >>= 1
		e++
	}
	if n < 1<<mb { // subnormal (or zero): e is the minimum exponent
		return sign | n
	}
	be := uint64(e + smallBias)
	if be >= 1<<smallExp-1 { // too large
		if signed {
			return sign | expAll
		}
		return expAll - 1 // the largest finite value: all mantissa bits set
	}
	return sign | be<<mb | n&(1<<mb-1)
}
