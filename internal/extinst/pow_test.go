package extinst

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// bigPow2 returns x^(k/2) for an integer k (sqrt of x^k) with 300-bit math/big.
func bigPow2(x float64, k int64) float64 {
	const prec = 300
	r := new(big.Float).SetPrec(prec).SetFloat64(1)
	b := new(big.Float).SetPrec(prec).SetFloat64(x)
	n := k
	if n < 0 {
		n = -n
	}
	for i := n; i > 0; i >>= 1 {
		if i&1 == 1 {
			r.Mul(r, b)
		}
		b.Mul(b, b)
	}
	if k < 0 {
		r.Quo(new(big.Float).SetPrec(prec).SetFloat64(1), r)
	}
	r.Sqrt(r)
	f, _ := r.Float64()
	return f
}

// TestPowFloat64 checks float64 pow against math/big for integer and
// half-integer exponents, including x near 1 with huge y, where math.Pow is
// off by millions of ulps. OpenCL allows 16 ulp; we require 2.
func TestPowFloat64(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	check := func(x float64, k int64) {
		y := float64(k) / 2
		got := pow(x, y)
		ref := bigPow2(x, k)
		if !withinULP(got, ref, 64, 2) {
			t.Fatalf("pow(%v, %v) = %v, reference %v (%.1f ulp); math.Pow gives %v", x, y, got, ref,
				math.Abs(got-ref)/ulpOf(ref, 64), math.Pow(x, y))
		}
	}
	for range 400 {
		// near 1, exponent so large that the result is moderate
		d := math.Ldexp(rng.Float64()-0.5, -rng.IntN(40)-1)
		x := 1 + d
		k := int64(rng.Float64() * 400 / math.Abs(math.Log(x)))
		if k == 0 || k > 1<<40 {
			continue
		}
		check(x, k)
		check(x, -k)
	}
	for range 400 {
		x := math.Ldexp(0.5+rng.Float64()/2, rng.IntN(200)-100)
		k := int64(rng.IntN(40) - 20)
		check(x, k)
	}
	// Large results with a fractional exponent (|y ln x| near 700).
	check(1e200, 3)
	check(3.7e-100, 13)
	check(10, 615) // 10^307.5
	// The sign for negative bases with integer y.
	if got := pow(-2, 3); got != -8 {
		t.Errorf("pow(-2, 3) = %v", got)
	}
	if got := pow(-2, 1e17); !math.IsInf(got, 1) {
		t.Errorf("pow(-2, 1e17) = %v", got)
	}
	if got := exp10(-307); !withinULP(got, 1e-307, 64, 1) {
		t.Errorf("exp10(-307) = %v", got)
	}
	if got := exp10(22); got != 1e22 {
		t.Errorf("exp10(22) = %v", got)
	}
}

// TestPownRootnFloat64 checks the OpenCL pown and rootn bounds (16 ulp)
// against math/big with wide integer exponents.
func TestPownFloat64(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for range 500 {
		x := 1 + math.Ldexp(rng.Float64()-0.5, -20)
		n := int64(rng.IntN(1 << 28))
		out, _ := mustCL(t, CLPown, f64t(1), fa(64, x), ia(32, n))
		got := ToFloat64(out[0], 64)
		ref := bigPow2(x, 2*n)
		if !withinULP(got, ref, 64, 2) {
			t.Fatalf("pown(%v, %d) = %v, reference %v", x, n, got, ref)
		}
	}
}
