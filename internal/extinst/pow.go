package extinst

import "math"

// pow is C pow computed so that float64 results stay within a few ulps:
// math.Pow raises to the integer part of y by repeated squaring, whose error
// grows with y (millions of ulps for x near 1 and large y). Here y*ln(x) is
// formed in double-double arithmetic and exponentiated once, so the error is
// that of math.Exp plus about 2^-60 relative. Special cases are math.Pow's,
// which are C99's.
func pow(x, y float64) float64 {
	switch {
	case y == 0 || x == 1:
		return 1
	case y == 1:
		return x
	case x == 0 || math.IsInf(x, 0) || math.IsNaN(x) || math.IsNaN(y) || math.IsInf(y, 0) || x == -1:
		return math.Pow(x, y)
	}
	neg := false
	if x < 0 {
		if y != math.Trunc(y) {
			return nan
		}
		neg = math.Abs(y) < 1<<53 && int64(y)&1 == 1
		x = -x
	}
	lh, ll := logDD(x)
	zh := y * lh
	zl := math.FMA(y, lh, -zh) + y*ll
	if math.IsInf(zh, 0) { // y ln x overflows: the result overflows or underflows
		zl = 0
	}
	zh, zl = fastTwoSum(zh, zl)
	r := math.Exp(zh)
	if r != 0 && !math.IsInf(r, 0) {
		r += r * zl
	}
	if neg {
		r = -r
	}
	return r
}

// exp10 is 10^x with the same double-double exponent.
func exp10(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) || x == 0 {
		return math.Pow(10, x)
	}
	return pow(10, x)
}

func fastTwoSum(a, b float64) (float64, float64) {
	s := a + b
	return s, b - (s - a)
}

func twoSum(a, b float64) (float64, float64) {
	s := a + b
	bb := s - a
	return s, (a - (s - bb)) + (b - bb)
}

func mulDD(ah, al, bh, bl float64) (float64, float64) {
	p := ah * bh
	e := math.FMA(ah, bh, -p) + (ah*bl + al*bh)
	return fastTwoSum(p, e)
}

// ln 2 split so that e*ln2Hi is exact for |e| < 2^11.
const (
	ln2Hi = 6.93147180369123816490e-01 // 0x3fe62e42fee00000
	ln2Lo = 1.90821492927058770002e-10
)

// logDD returns ln(x) for finite x > 0 as a double-double (hi + lo) with a
// relative error near 2^-64: x = m*2^e with m in [sqrt(1/2), sqrt(2)),
// ln(m) = 2 atanh(s), s = (m-1)/(m+1), summed as 2s(1 + s^2/3 + s^4 Q(s^2)).
func logDD(x float64) (float64, float64) {
	m, e := math.Frexp(x)
	if m < math.Sqrt2/2 {
		m *= 2
		e--
	}
	f := m - 1 // exact
	uh, ul := twoSum(1, m)
	sh := f / uh
	sl := (math.FMA(-sh, uh, f) - sh*ul) / uh
	// t = s^2
	th := sh * sh
	tl := math.FMA(sh, sh, -th) + 2*sh*sl
	// t/3 in double-double
	qh := th / 3
	ql := (math.FMA(-qh, 3, th) + tl) / 3
	// Q(t) = 1/5 + t/7 + t^2/9 + ... (|t| < 0.0295, 13 terms reach 2^-70)
	t := th
	q := 0.0
	for k := 27; k >= 5; k -= 2 {
		q = q*t + 1/float64(k)
	}
	ph, pl := twoSum(1, qh)
	pl += ql + t*t*q
	ph, pl = fastTwoSum(ph, pl)
	// ln m = 2s * (1 + P)
	lh, ll := mulDD(2*sh, 2*sl, ph, pl)
	// + e*ln2
	fe := float64(e)
	hi, lo := twoSum(fe*ln2Hi, lh)
	lo += ll + fe*ln2Lo
	return fastTwoSum(hi, lo)
}
