package extinst

import (
	"math"
	"math/bits"
)

// Float helpers shared by both sets. Each takes values already widened to
// float64 and the result width w, and returns a float64 that the caller
// rounds once to w.

var nan = math.NaN()

// fma returns a*b+c rounded once to width w. For w < 64 the product of two
// float16/float32 values is exact in float64; the sum is formed with
// round-to-odd (the float64 sum, nudged to an odd significand when it is
// inexact), which makes the later rounding to 24 or 11 bits correct.
func fma(a, b, c float64, w uint8) float64 {
	if w == 64 {
		return math.FMA(a, b, c)
	}
	p := a * b
	s := p + c
	if math.IsInf(s, 0) || math.IsNaN(s) || s == 0 {
		return s
	}
	// TwoSum error term: the exact p+c is s+e.
	bb := s - p
	e := (p - (s - bb)) + (c - bb)
	if e != 0 {
		u := math.Float64bits(s)
		if u&1 == 0 {
			if (e > 0) == (s > 0) {
				u++ // true value is farther from zero
			} else {
				u--
			}
			s = math.Float64frombits(u)
		}
	}
	return s
}

// precision returns the significand bits of a float width.
func precision(w uint8) int {
	switch w {
	case 16:
		return 11
	case 32:
		return 24
	}
	return 53
}

// belowOne returns the largest value of width w below 1.
func belowOne(w uint8) float64 {
	return 1 - math.Ldexp(1, -precision(w))
}

// floatLayout returns the exponent shift and sign bit of a width.
func floatLayout(w uint8) (mant uint, sign uint64) {
	switch w {
	case 16:
		return 10, 1 << 15
	case 32:
		return 23, 1 << 31
	}
	return 52, 1 << 63
}

func isNaNBits(v uint64, w uint8) bool {
	m, s := floatLayout(w)
	return v&^s > (s-1)&^(1<<m-1)
}

// nextafter steps x toward y by one value of width w, on raw bits.
func nextafter(x, y uint64, w uint8) uint64 {
	if isNaNBits(x, w) {
		return x
	}
	if isNaNBits(y, w) {
		return y
	}
	fx, fy := ToFloat64(x, w), ToFloat64(y, w)
	if fx == fy {
		return y
	}
	_, s := floatLayout(w)
	if fx == 0 {
		return y&s | 1
	}
	if (fx < fy) == (fx > 0) {
		return x + 1
	}
	return x - 1
}

// nanCode builds a quiet NaN of width w with the payload bits of code.
func nanCode(code uint64, w uint8) uint64 {
	m, s := floatLayout(w)
	quiet := uint64(1) << (m - 1)
	exp := (s - 1) &^ (1<<m - 1)
	return exp | quiet | code&(quiet-1)
}

// frexpW splits x into a significand in [0.5, 1) and an exponent; zeros,
// infinities and NaNs return themselves and exponent 0.
func frexpW(x float64) (float64, int32) {
	f, e := math.Frexp(x)
	return f, int32(e)
}

// ldexpW returns x*2^k; math.Ldexp rounds a subnormal result once, and for
// float16/float32 operands the float64 result is exact (rounded later).
func ldexpW(x float64, k int64) float64 {
	k = max(-4000, min(4000, k))
	return math.Ldexp(x, int(k))
}

// modf splits x into a fraction and a whole part, both with x's sign.
func modf(x float64) (frac, whole float64) {
	if math.IsNaN(x) {
		return x, x
	}
	if math.IsInf(x, 0) {
		return math.Copysign(0, x), x
	}
	whole = math.Trunc(x)
	frac = math.Copysign(x-whole, x)
	return
}

// sinpi, cospi and tanpi reduce the argument exactly before multiplying by pi.
func sinpi(x float64) float64 {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return nan
	}
	if x == math.Trunc(x) {
		return math.Copysign(0, x)
	}
	r := x - 2*math.RoundToEven(x*0.5) // exact, in [-1, 1]
	s := 1.0
	if r < 0 {
		r, s = -r, -1
	}
	if r > 0.5 {
		r = 1 - r
	}
	if r <= 0.25 {
		return s * math.Sin(math.Pi*r)
	}
	return s * math.Cos(math.Pi*(0.5-r))
}

func cospi(x float64) float64 {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return nan
	}
	r := math.Abs(x)
	r -= 2 * math.RoundToEven(r*0.5) // exact, in [-1, 1]
	r = math.Abs(r)
	s := 1.0
	if r > 0.5 {
		r, s = 1-r, -1
	}
	var v float64
	if r <= 0.25 {
		v = math.Cos(math.Pi * r)
	} else {
		v = math.Sin(math.Pi * (0.5 - r))
	}
	if v == 0 {
		return 0 // cospi(n + 0.5) is +0
	}
	return s * v
}

func tanpi(x float64) float64 {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return nan
	}
	n := math.RoundToEven(x)
	r := x - n // exact, in [-0.5, 0.5]
	odd := func(v float64) bool { return math.Mod(v, 2) != 0 }
	switch {
	case r == 0:
		if odd(n) {
			return math.Copysign(0, -x)
		}
		return math.Copysign(0, x)
	case r == 0.5 || r == -0.5:
		if odd(x - 0.5) {
			return math.Inf(-1)
		}
		return math.Inf(1)
	}
	a := math.Abs(r)
	var v float64
	if a <= 0.25 {
		v = math.Tan(math.Pi * a)
	} else {
		v = 1 / math.Tan(math.Pi*(0.5-a))
	}
	return math.Copysign(v, r)
}

// powr is OpenCL powr: pow for x >= 0, with its own special cases.
func powr(x, y float64) float64 {
	switch {
	case math.IsNaN(x) || math.IsNaN(y) || x < 0:
		return nan
	case x == 0:
		if y == 0 {
			return nan
		}
		if y < 0 {
			return math.Inf(1)
		}
		return 0
	case math.IsInf(x, 1):
		if y == 0 {
			return nan
		}
		if y < 0 {
			return 0
		}
		return x
	case x == 1:
		if math.IsInf(y, 0) {
			return nan
		}
		return 1
	case y == 0:
		return 1
	}
	return pow(x, y)
}

// rootn is OpenCL rootn: x^(1/n).
func rootn(x float64, n int64) float64 {
	switch {
	case n == 0 || math.IsNaN(x):
		return nan
	case x < 0 && n%2 == 0:
		return nan
	case x == 0:
		// ±0 for odd n > 0, +0 for even n > 0; ±Inf (odd) or +Inf (even) for n < 0.
		r := 0.0
		if n < 0 {
			r = math.Inf(1)
		}
		if n%2 != 0 {
			r = math.Copysign(r, x)
		}
		return r
	case n == 1:
		return x
	case n == 2:
		return math.Sqrt(x)
	case n == 3:
		return math.Cbrt(x)
	case n == -1:
		return 1 / x
	case n == -2:
		return 1 / math.Sqrt(x)
	}
	a := math.Abs(x)
	r := pow(a, 1/float64(n))
	if !math.IsInf(a, 0) && r != 0 && !math.IsInf(r, 0) {
		// One Newton step on n·ln(r) = ln(a) corrects the error of rounding
		// 1/n, which ln(a) amplifies. It is taken in double-double
		// logarithms, not as r^n, which overflows where a is near the
		// largest double and n < 0.
		ah, al := logDD(a)
		rh, rl := logDD(r)
		nf := float64(n)
		ph := nf * rh
		pl := math.FMA(nf, rh, -ph) + nf*rl
		d := ((ah - ph) - pl) + al // ln(a) - n·ln(r), small
		r += r * d / nf
	}
	return math.Copysign(r, x)
}

// remquo returns remainder(x, y) and the low 7 bits of the rounded quotient
// with the sign of x/y.
func remquo(x, y float64) (float64, int32) {
	r := math.Remainder(x, y)
	if math.IsNaN(r) || math.IsInf(x, 0) || y == 0 {
		return r, 0
	}
	ax, ay := math.Abs(x), math.Abs(y)
	if m := 128 * ay; !math.IsInf(m, 0) {
		ax = math.Mod(ax, m) // exact; the quotient modulo 128 is unchanged
	}
	// ax < 128*ay: the quotient is at most 128, so rounding its float64
	// estimate recovers it exactly.
	// (ax - r)/ay is formed as ax/ay - r/ay so that nothing overflows.
	k := int64(math.RoundToEven(ax/ay - math.Remainder(ax, ay)/ay))
	q := int32(k & 127)
	if math.Signbit(x) != math.Signbit(y) {
		q = -q
	}
	return r, q
}

// fmaxCL and fminCL are OpenCL fmax/fmin (and IEEE maxNum/minNum): a NaN
// operand yields the other; +0 is above -0.
func fmaxCL(x, y float64) float64 {
	switch {
	case math.IsNaN(x):
		return y
	case math.IsNaN(y):
		return x
	case x == y:
		if math.Signbit(x) {
			return y
		}
		return x
	case x > y:
		return x
	}
	return y
}

func fminCL(x, y float64) float64 {
	switch {
	case math.IsNaN(x):
		return y
	case math.IsNaN(y):
		return x
	case x == y:
		if math.Signbit(x) {
			return x
		}
		return y
	case x < y:
		return x
	}
	return y
}

// length returns the Euclidean norm of v[:n], scaling by a power of two so
// float64 operands neither overflow nor underflow.
func length(v *[16]float64, n int) float64 {
	m := 0.0
	for i := range n {
		a := math.Abs(v[i])
		if math.IsNaN(a) {
			return nan
		}
		if a > m {
			m = a
		}
	}
	if m == 0 || math.IsInf(m, 0) {
		return m
	}
	e := math.Ilogb(m)
	s := 0.0
	for i := range n {
		t := math.Ldexp(v[i], -e)
		s += t * t
	}
	return math.Ldexp(math.Sqrt(s), e)
}

func dot(a, b *[16]float64, n int) float64 {
	s := 0.0
	for i := range n {
		s += a[i] * b[i]
	}
	return s
}

// Integer helpers on raw bits of width w.

func sMin(w uint8) int64 { return -1 << (w - 1) }
func sMax(w uint8) int64 { return int64(mask(w) >> 1) }

func satS(v int64, w uint8) uint64 {
	if w < 64 {
		if v < sMin(w) {
			v = sMin(w)
		} else if v > sMax(w) {
			v = sMax(w)
		}
	}
	return uint64(v)
}

func addSatS(x, y uint64, w uint8) uint64 {
	a, b := sext(x, w), sext(y, w)
	if w < 64 {
		return satS(a+b, w)
	}
	s := a + b
	if (a >= 0) == (b >= 0) && (s >= 0) != (a >= 0) {
		if a < 0 {
			return 1 << 63
		}
		return 1<<63 - 1
	}
	return uint64(s)
}

func subSatS(x, y uint64, w uint8) uint64 {
	a, b := sext(x, w), sext(y, w)
	if w < 64 {
		return satS(a-b, w)
	}
	s := a - b
	if (a >= 0) != (b >= 0) && (s >= 0) != (a >= 0) {
		if a < 0 {
			return 1 << 63
		}
		return 1<<63 - 1
	}
	return uint64(s)
}

func addSatU(x, y uint64, w uint8) uint64 {
	x, y = x&mask(w), y&mask(w)
	s, c := bits.Add64(x, y, 0)
	if c != 0 || s > mask(w) {
		return mask(w)
	}
	return s
}

func subSatU(x, y uint64, w uint8) uint64 {
	x, y = x&mask(w), y&mask(w)
	if y > x {
		return 0
	}
	return x - y
}

func mulHiS(x, y uint64, w uint8) uint64 {
	a, b := sext(x, w), sext(y, w)
	if w <= 32 {
		return uint64((a * b) >> w)
	}
	hi, _ := bits.Mul64(uint64(a), uint64(b))
	if a < 0 {
		hi -= uint64(b)
	}
	if b < 0 {
		hi -= uint64(a)
	}
	return hi
}

func mulHiU(x, y uint64, w uint8) uint64 {
	x, y = x&mask(w), y&mask(w)
	if w <= 32 {
		return (x * y) >> w
	}
	hi, _ := bits.Mul64(x, y)
	return hi
}

func madSatU(x, y, z uint64, w uint8) uint64 {
	x, y, z = x&mask(w), y&mask(w), z&mask(w)
	hi, lo := bits.Mul64(x, y)
	lo, c := bits.Add64(lo, z, 0)
	hi += c
	if hi != 0 || lo > mask(w) {
		return mask(w)
	}
	return lo
}

func madSatS(x, y, z uint64, w uint8) uint64 {
	a, b, c := sext(x, w), sext(y, w), sext(z, w)
	if w <= 32 {
		return satS(a*b+c, w)
	}
	// 128-bit signed a*b + c.
	ua, ub := uint64(a), uint64(b)
	if a < 0 {
		ua = -ua
	}
	if b < 0 {
		ub = -ub
	}
	hi, lo := bits.Mul64(ua, ub)
	if (a < 0) != (b < 0) {
		lo = ^lo + 1
		hi = ^hi
		if lo == 0 {
			hi++
		}
	}
	chi := uint64(c >> 63)
	lo, carry := bits.Add64(lo, uint64(c), 0)
	hi, _ = bits.Add64(hi, chi, carry)
	if hi == uint64(int64(lo)>>63) {
		return lo
	}
	if int64(hi) < 0 {
		return 1 << 63
	}
	return 1<<63 - 1
}

func rotate(v, n uint64, w uint8) uint64 {
	v &= mask(w)
	k := uint8(n & uint64(w-1))
	if k == 0 {
		return v
	}
	return (v<<k | v>>(w-k)) & mask(w)
}

// clz/ctz/popcount on width w.
func clz(v uint64, w uint8) uint64 {
	return uint64(bits.LeadingZeros64(v&mask(w)) - (64 - int(w)))
}

func ctz(v uint64, w uint8) uint64 {
	v &= mask(w)
	if v == 0 {
		return uint64(w)
	}
	return uint64(bits.TrailingZeros64(v))
}

// acos avoids math.Acos's π/2 - asin(x) cancellation near |x| = 1 (6 ulps
// there in float64, over OpenCL's 4): for |x| > 1/2 it uses the half-angle
// form 2 asin(√((1-x)/2)), whose 1-x is exact.
func acos(x float64) float64 {
	const piLo = 1.2246467991473532e-16 // π - float64(π)
	switch {
	case x > 0.5:
		return 2 * math.Asin(math.Sqrt((1-x)*0.5))
	case x < -0.5:
		return (math.Pi - 2*math.Asin(math.Sqrt((1+x)*0.5))) + piLo
	}
	return (math.Pi/2 - math.Asin(x)) + piLo/2
}
