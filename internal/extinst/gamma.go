package extinst

import "math"

// tgamma is Γ(x). For float16/float32 results math.Gamma (a few tens of
// float64 ulps at worst) is far more than accurate enough; for float64
// results that worst case exceeds OpenCL's 16 ulp (27 ulp at x = 167), so
// float64 uses Stirling's series with ln Γ formed in double-double, after an
// exact-ish upward recurrence for x < 10 and reflection for x < 0.5.
func tgamma(x float64, w uint8) float64 {
	if w != 64 {
		return math.Gamma(x)
	}
	switch {
	case math.IsNaN(x) || math.IsInf(x, -1):
		return nan
	case math.IsInf(x, 1):
		return x
	case x == 0:
		return math.Copysign(math.Inf(1), x) // ±Inf
	case x < 0 && x == math.Trunc(x):
		return nan
	case x > 171.7:
		return math.Inf(1)
	}
	if x < 0.5 {
		// Reflection: Γ(x) = π / (sin(πx) Γ(1-x)), whose sign is sin(πx)'s.
		// 1-x is kept as a double-double: rounding it (it can gain a bit)
		// costs ψ(1-x) times its relative error, hundreds of ulps.
		s := sinpi(x)
		if x < -190 {
			return math.Copysign(0, s)
		}
		yh, yl := twoSum(1, -x)
		if yh < 171 {
			return math.Pi / (s * gammaPos(yh, yl))
		}
		// Γ(1-x) overflows but Γ(x) is a subnormal: go through logarithms.
		lh, ll := lnGammaStirling(yh)
		ll += digamma(yh) * yl
		// exp(ln(π/|s|) - lnΓ) with the difference (near -706) kept in
		// double-double, since its rounding would be amplified by exp.
		dh, dl := twoSum(math.Log(math.Pi/math.Abs(s)), -lh)
		dl -= ll
		dh, dl = fastTwoSum(dh, dl)
		r := math.Exp(dh)
		return math.Copysign(r+r*dl, s)
	}
	return gammaPos(x, 0)
}

// digamma approximates ψ(a) for a >= 10, well enough for first-order
// corrections of size ψ(a)*δ with δ below an ulp.
func digamma(a float64) float64 { return math.Log(a) - 0.5/a - 1/(12*a*a) }

// gammaPos is Γ(x + xl) for 0.5 <= x <= 171.7 and |xl| below half an ulp of x.
func gammaPos(x, xl float64) float64 {
	// Γ(x) = Γ(x+n) / (x (x+1) ... (x+n-1)) with x+n >= 10, the shifted
	// argument and the product kept in double-double.
	ph, pl := 1.0, 0.0
	ah, al := x, xl
	for ah < 10 {
		ph, pl = mulDD(ph, pl, ah, al)
		var e float64
		ah, e = twoSum(ah, 1)
		ah, al = fastTwoSum(ah, al+e)
	}
	lh, ll := lnGammaStirling(ah)
	// Γ(ah + al) ≈ Γ(ah) (1 + ψ(ah) al)
	ll += digamma(ah) * al
	lh, ll = fastTwoSum(lh, ll)
	g := math.Exp(lh)
	if !math.IsInf(g, 0) {
		g += g * ll
	}
	if ph != 1 || pl != 0 {
		// divide by the product in double-double
		q := g / ph
		r := math.FMA(-q, ph, g) - q*pl
		g = q + r/ph
	}
	return g
}

// lnGammaStirling returns ln Γ(a) for a >= 10 as a double-double:
// (a - 1/2) ln a - a + ln(2π)/2 + Σ B2k / (2k (2k-1) a^(2k-1)).
func lnGammaStirling(a float64) (float64, float64) {
	const (
		halfLn2PiHi = 0.9189385332046728      // ln(2π)/2, high part
		halfLn2PiLo = -3.8782941580672414e-17 // its remainder
	)
	lh, ll := logDD(a)
	th, tl := mulDD(a-0.5, 0, lh, ll) // a - 1/2 is exact for 10 <= a < 2^52
	th, e := twoSum(th, -a)
	tl += e
	th, e = twoSum(th, halfLn2PiHi)
	tl += e + halfLn2PiLo
	// The series in 1/a², Horner from the smallest term.
	z := 1 / (a * a)
	s := 0.0
	for _, c := range stirling {
		s = s*z + c
	}
	s /= a
	tl += s
	return fastTwoSum(th, tl)
}

// stirling holds B2k / (2k (2k-1)) for k = 10 down to 1.
var stirling = [...]float64{
	-174611.0 / 125400.0,
	43867.0 / 244188.0,
	-3617.0 / 122400.0,
	1.0 / 156.0,
	-691.0 / 360360.0,
	1.0 / 1188.0,
	-1.0 / 1680.0,
	1.0 / 1260.0,
	-1.0 / 360.0,
	1.0 / 12.0,
}
