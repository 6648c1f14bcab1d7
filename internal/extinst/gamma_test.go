package extinst

import (
	"math"
	"math/big"
	"testing"
)

// TestTgammaFloat64 checks float64 tgamma against exact factorials and the
// closed forms at half-integers (positive and negative), within OpenCL's
// 16 ulp; we require 4.
func TestTgammaFloat64(t *testing.T) {
	const prec = 400
	sqrtPi, _ := new(big.Float).SetPrec(prec).SetString("1.7724538509055160272981674833411451827975494561223871282138077898529112845910321813749506567385446654")
	check := func(x float64, ref *big.Float) {
		t.Helper()
		want, _ := ref.Float64()
		got := tgamma(x, 64)
		if !withinULP(got, want, 64, 4) {
			t.Errorf("tgamma(%v) = %v, want %v (%.1f ulp; math.Gamma %v)", x, got, want, math.Abs(got-want)/ulpOf(want, 64), math.Gamma(x))
		}
	}
	fact := func(n int64) *big.Float {
		if n <= 1 {
			return new(big.Float).SetPrec(prec).SetInt64(1)
		}
		return new(big.Float).SetPrec(prec).SetInt(new(big.Int).MulRange(1, n))
	}
	for n := int64(1); n <= 171; n++ {
		check(float64(n), fact(n-1))
	}
	for n := int64(0); n <= 170; n++ {
		// Γ(n + 1/2) = (2n)! √π / (4^n n!)
		r := new(big.Float).SetPrec(prec).Quo(fact(2*n), new(big.Float).SetPrec(prec).SetInt(new(big.Int).Lsh(big.NewInt(1), uint(2*n))))
		r.Quo(r, fact(n))
		r.Mul(r, sqrtPi)
		if f, _ := r.Float64(); math.IsInf(f, 0) {
			break
		}
		check(float64(n)+0.5, r)
		// Γ(1/2 - n) = (-4)^n n! √π / (2n)!
		q := new(big.Float).SetPrec(prec).SetInt(new(big.Int).Lsh(big.NewInt(1), uint(2*n)))
		q.Mul(q, fact(n))
		q.Mul(q, sqrtPi)
		q.Quo(q, fact(2*n))
		if n%2 == 1 {
			q.Neg(q)
		}
		if f, _ := q.Float64(); f == 0 || math.Abs(f) < 0x1p-1022 {
			continue // subnormal results: checked loosely below
		}
		check(0.5-float64(n), q)
	}
	for _, c := range []struct{ x, want float64 }{
		{0, inf}, {nz, ninf}, {-1, qnan}, {-1e300, qnan}, {ninf, qnan}, {inf, inf}, {172, inf}, {-200.5, nz}, {-201.5, 0},
	} {
		if got := tgamma(c.x, 64); !sameFloat(got, c.want) {
			t.Errorf("tgamma(%v) = %v, want %v", c.x, got, c.want)
		}
	}
	// Tiny arguments: Γ(x) ≈ 1/x - γ.
	if got := tgamma(1e-300, 64); !withinULP(got, 1e300, 64, 1) {
		t.Errorf("tgamma(1e-300) = %v", got)
	}
	// A subnormal result from the logarithmic path.
	if got := tgamma(-175.5, 64); got == 0 || math.Abs(got) > 0x1p-1000 {
		t.Errorf("tgamma(-175.5) = %v, want a tiny non-zero", got)
	}
}
