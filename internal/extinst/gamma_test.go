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

// Reference values computed with mpmath at 300 bits (Γ(x), and acos(x) with
// acos(x)/π), rounded to float64: points where a rounded 1-x, a rounded
// ln-difference or math.Acos's cancellation cost hundreds (or 6-7) ulps.
func TestFloat64MpmathPoints(t *testing.T) {
	gam := [][2]float64{
		{-127.79191215336625, 3.679117219514018e-215},
		{-170.08971000746195, -9.815747811878936e-307},
		{-170.7774764814854, -1.235744144401757e-308}, // subnormal
		{0.4439442621473917, 1.9951558473424085},
		{2.920888970704154, 1.8615203298118366},
		{128.79191215336624, 1.4040932968092873e+215},
		{-0.5000001, -3.5449076888758313},
		{-3.3, 0.43851739219876307},
		{-55.55, 2.7435017064978847e-74},
		{150.123, 7.051882814808248e+260},
		{1e-10, 9999999999.422785},
		{0.9999999, 1.0000000577215764},
	}
	for _, c := range gam {
		out, _ := mustCL(t, CLTgamma, f64t(1), fa(64, c[0]))
		if got := ToFloat64(out[0], 64); !withinULP(got, c[1], 64, 4) {
			t.Errorf("tgamma(%v) = %v, want %v (%.1f ulp)", c[0], got, c[1], math.Abs(got-c[1])/ulpOf(c[1], 64))
		}
	}
	ac := [][3]float64{
		{0.9703415163907836, 0.24415674694075468, 0.0777175063297162},
		{0.9853809917330607, 0.1712002746184928, 0.05449473992844615},
		{-0.97, 2.896027136074501, 0.9218340680690437},
		{-0.5000000001, 2.0943951025086656, 0.6666666667034219},
		{0.49999, 1.047209098163492, 0.33333700884705125},
		{0.99999999999, 4.472136140016396e-06, 1.4235251457270362e-06},
		{-0.9999999999, 3.1415785114535844, 0.999995498418233},
	}
	for _, c := range ac {
		out, _ := mustCL(t, CLAcos, f64t(1), fa(64, c[0]))
		if got := ToFloat64(out[0], 64); !withinULP(got, c[1], 64, 4) {
			t.Errorf("acos(%v) = %v, want %v (%.1f ulp)", c[0], got, c[1], math.Abs(got-c[1])/ulpOf(c[1], 64))
		}
		out, _ = mustCL(t, CLAcospi, f64t(1), fa(64, c[0]))
		if got := ToFloat64(out[0], 64); !withinULP(got, c[2], 64, 5) {
			t.Errorf("acospi(%v) = %v, want %v (%.1f ulp)", c[0], got, c[2], math.Abs(got-c[2])/ulpOf(c[2], 64))
		}
	}
}
