package extinst

import (
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

var clExact = []fcase{
	{op: CLFmax, w: 32, in: []float64{qnan, 1}, want: 1},
	{op: CLFmax, w: 32, in: []float64{1, qnan}, want: 1},
	{op: CLFmax, w: 32, in: []float64{qnan, qnan}, want: qnan},
	{op: CLFmax, w: 32, in: []float64{nz, 0}, want: 0},
	{op: CLFmax, w: 32, in: []float64{0, nz}, want: 0},
	{op: CLFmin, w: 32, in: []float64{0, nz}, want: nz},
	{op: CLFmin, w: 64, in: []float64{qnan, ninf}, want: ninf},
	{op: CLFclamp, w: 32, in: []float64{qnan, 0, 1}, want: 0},
	{op: CLFclamp, w: 32, in: []float64{7, 0, 1}, want: 1},
	{op: CLFdim, w: 32, in: []float64{5, 3}, want: 2},
	{op: CLFdim, w: 32, in: []float64{3, 5}, want: 0},
	{op: CLFdim, w: 32, in: []float64{qnan, 5}, want: qnan},
	{op: CLFmod, w: 32, in: []float64{-7, 3}, want: -1},
	{op: CLFmod, w: 32, in: []float64{7, 0}, want: qnan},
	{op: CLFmod, w: 32, in: []float64{7, inf}, want: 7},
	{op: CLFmod, w: 64, in: []float64{1e300, 3}, want: math.Mod(1e300, 3)},
	{op: CLRemainder, w: 32, in: []float64{7, 2}, want: -1}, // 3.5 rounds to even 4
	{op: CLRemainder, w: 32, in: []float64{5, 2}, want: 1},
	{op: CLRint, w: 32, in: []float64{2.5}, want: 2},
	{op: CLRint, w: 32, in: []float64{-3.5}, want: -4},
	{op: CLRound, w: 32, in: []float64{2.5}, want: 3}, // round: halfway away from zero
	{op: CLRound, w: 32, in: []float64{-2.5}, want: -3},
	{op: CLRound, w: 16, in: []float64{-0.4}, want: nz},
	{op: CLTrunc, w: 64, in: []float64{-0.9}, want: nz},
	{op: CLCeil, w: 32, in: []float64{-0.9}, want: nz},
	{op: CLFloor, w: 32, in: []float64{ninf}, want: ninf},
	{op: CLSign, w: 32, in: []float64{qnan}, want: 0},
	{op: CLSign, w: 32, in: []float64{nz}, want: nz},
	{op: CLSign, w: 32, in: []float64{-1e-40}, want: -1},
	{op: CLMaxmag, w: 32, in: []float64{-3, 2}, want: -3},
	{op: CLMaxmag, w: 32, in: []float64{-2, 2}, want: 2},
	{op: CLMaxmag, w: 32, in: []float64{qnan, 2}, want: 2},
	{op: CLMinmag, w: 32, in: []float64{-3, 2}, want: 2},
	{op: CLMinmag, w: 32, in: []float64{-2, 2}, want: -2},
	{op: CLCopysign, w: 32, in: []float64{3, nz}, want: -3},
	{op: CLCopysign, w: 16, in: []float64{ninf, 1}, want: inf},
	{op: CLFabs, w: 64, in: []float64{nz}, want: 0},
	{op: CLFma, w: 32, in: []float64{1 + 0x1p-23, 1 + 0x1p-23, -(1 + 0x1p-22)}, want: 0x1p-46},
	{op: CLMad, w: 32, in: []float64{2, 3, 4}, want: 10},
	{op: CLMix, w: 32, in: []float64{2, 4, 0.25}, want: 2.5},
	{op: CLStep, w: 32, in: []float64{0, nz}, want: 1},
	{op: CLSmoothstep, w: 32, in: []float64{0, 2, 1}, want: 0.5},
	{op: CLDegrees, w: 32, in: []float64{math.Pi / 2}, want: 90},
	{op: CLRadians, w: 64, in: []float64{90}, want: math.Pi / 2},
	{op: CLSinpi, w: 32, in: []float64{1}, want: 0},
	{op: CLSinpi, w: 32, in: []float64{-1}, want: nz},
	{op: CLSinpi, w: 32, in: []float64{3}, want: 0},
	{op: CLSinpi, w: 32, in: []float64{0.5}, want: 1},
	{op: CLSinpi, w: 32, in: []float64{-0.5}, want: -1},
	{op: CLSinpi, w: 32, in: []float64{1.5}, want: -1},
	{op: CLSinpi, w: 32, in: []float64{1e30}, want: 0},
	{op: CLSinpi, w: 32, in: []float64{inf}, want: qnan},
	{op: CLSinpi, w: 32, in: []float64{1.0 / 6}, want: 0.5},
	{op: CLCospi, w: 32, in: []float64{0.5}, want: 0},
	{op: CLCospi, w: 32, in: []float64{-1.5}, want: 0},
	{op: CLCospi, w: 32, in: []float64{1}, want: -1},
	{op: CLCospi, w: 32, in: []float64{-2}, want: 1},
	{op: CLCospi, w: 64, in: []float64{1.0 / 3}, want: 0.5},
	{op: CLTanpi, w: 32, in: []float64{0}, want: 0},
	{op: CLTanpi, w: 32, in: []float64{nz}, want: nz},
	{op: CLTanpi, w: 32, in: []float64{1}, want: nz},  // odd: copysign(0, -n)
	{op: CLTanpi, w: 32, in: []float64{-1}, want: 0},  // odd
	{op: CLTanpi, w: 32, in: []float64{2}, want: 0},   // even
	{op: CLTanpi, w: 32, in: []float64{-2}, want: nz}, // even
	{op: CLTanpi, w: 32, in: []float64{0.5}, want: inf},
	{op: CLTanpi, w: 32, in: []float64{1.5}, want: ninf},
	{op: CLTanpi, w: 32, in: []float64{-0.5}, want: ninf}, // n = -1 is odd
	{op: CLTanpi, w: 32, in: []float64{0.25}, want: 1},
	{op: CLTanpi, w: 32, in: []float64{-0.75}, want: 1},
	{op: CLPowr, w: 32, in: []float64{-1, 2}, want: qnan},
	{op: CLPowr, w: 32, in: []float64{0, 0}, want: qnan},
	{op: CLPowr, w: 32, in: []float64{inf, 0}, want: qnan},
	{op: CLPowr, w: 32, in: []float64{1, inf}, want: qnan},
	{op: CLPowr, w: 32, in: []float64{nz, -1}, want: inf},
	{op: CLPowr, w: 32, in: []float64{0, 3}, want: 0},
	{op: CLPowr, w: 32, in: []float64{4, 0.5}, want: 2},
	{op: CLPowr, w: 32, in: []float64{2, 0}, want: 1},
	{op: CLPowr, w: 32, in: []float64{inf, -1}, want: 0},
	{op: CLPow, w: 32, in: []float64{-2, 3}, want: -8},
	{op: CLPow, w: 32, in: []float64{-2, 0.5}, want: qnan},
	{op: CLPow, w: 32, in: []float64{qnan, 0}, want: 1},
	{op: CLPow, w: 32, in: []float64{1, qnan}, want: 1},
	{op: CLPow, w: 32, in: []float64{-1, ninf}, want: 1},
	{op: CLPow, w: 32, in: []float64{nz, -3}, want: ninf},
	{op: CLHypot, w: 32, in: []float64{inf, qnan}, want: inf},
	{op: CLHypot, w: 32, in: []float64{3, 4}, want: 5},
	{op: CLAtan2pi, w: 32, in: []float64{1, -1}, want: 0.75},
	{op: CLAtan2pi, w: 64, in: []float64{inf, ninf}, want: 0.75},
	{op: CLAtan2pi, w: 64, in: []float64{ninf, ninf}, want: -0.75},
	{op: CLAtan2pi, w: 64, in: []float64{ninf, inf}, want: -0.25},
	{op: CLAtan2pi, w: 64, in: []float64{nz, nz}, want: -1},
	{op: CLAtan2pi, w: 64, in: []float64{0, 0}, want: 0},
	{op: CLAtan2pi, w: 64, in: []float64{0, -3}, want: 1},
	{op: CLAtan2pi, w: 64, in: []float64{-2, 0}, want: -0.5},
	{op: CLAtan2pi, w: 64, in: []float64{-2, ninf}, want: -1},
	{op: CLAtan2pi, w: 64, in: []float64{inf, 5}, want: 0.5},
	{op: CLAtanpi, w: 64, in: []float64{ninf}, want: -0.5},
	{op: CLAcospi, w: 64, in: []float64{1}, want: 0},
	{op: CLAcospi, w: 64, in: []float64{1.5}, want: qnan},
	{op: CLLgamma, w: 64, in: []float64{ninf}, want: inf},
	{op: CLFmod, w: 64, in: []float64{nz, qnan}, want: qnan},
	{op: CLExp10, w: 64, in: []float64{ninf}, want: 0},
	{op: CLExp10, w: 64, in: []float64{nz}, want: 1},
	{op: CLExp10, w: 64, in: []float64{math.MaxFloat64}, want: inf}, // y·ln 10 overflows: was NaN
	{op: CLExp10, w: 64, in: []float64{-math.MaxFloat64}, want: 0},
	{op: CLPow, w: 64, in: []float64{3, math.MaxFloat64}, want: inf},
	{op: CLPow, w: 64, in: []float64{0.5, math.MaxFloat64}, want: 0},
	{op: CLPowr, w: 64, in: []float64{7, -math.MaxFloat64}, want: 0},
	{op: CLPow, w: 64, in: []float64{nz, ninf}, want: inf},
	{op: CLRint, w: 64, in: []float64{-0.5}, want: nz},
	{op: CLCospi, w: 64, in: []float64{nz}, want: 1},
	{op: CLAsinpi, w: 32, in: []float64{nz}, want: nz},
	{op: CLAcospi, w: 32, in: []float64{-1}, want: 1},
	{op: CLAtanpi, w: 32, in: []float64{inf}, want: 0.5},
	{op: CLExp10, w: 32, in: []float64{3}, want: 1000},
	{op: CLExp10, w: 32, in: []float64{-46}, want: 0},
	{op: CLExpm1, w: 32, in: []float64{nz}, want: nz},
	{op: CLLog1p, w: 32, in: []float64{-1}, want: ninf},
	{op: CLLog10, w: 32, in: []float64{1000}, want: 3},
	{op: CLLogb, w: 32, in: []float64{0}, want: ninf},
	{op: CLLogb, w: 32, in: []float64{ninf}, want: inf},
	{op: CLLogb, w: 32, in: []float64{0x1p-149}, want: -149},
	{op: CLCbrt, w: 32, in: []float64{-27}, want: -3},
	{op: CLTgamma, w: 32, in: []float64{5}, want: 24},
	{op: CLTgamma, w: 32, in: []float64{-2}, want: qnan},
	{op: CLTgamma, w: 32, in: []float64{nz}, want: ninf},
	{op: CLLgamma, w: 32, in: []float64{1}, want: 0},
	{op: CLErf, w: 32, in: []float64{inf}, want: 1},
	{op: CLErfc, w: 32, in: []float64{ninf}, want: 2},
	{op: CLRsqrt, w: 32, in: []float64{nz}, want: ninf},
	{op: CLHalfRecip, w: 32, in: []float64{4}, want: 0.25},
	{op: CLNativeDivide, w: 32, in: []float64{1, 4}, want: 0.25},
	{op: CLHalfDivide, w: 32, in: []float64{1, 0}, want: inf},
	{op: CLNativePowr, w: 32, in: []float64{9, 0.5}, want: 3},
	{op: CLNativeSqrt, w: 16, in: []float64{4}, want: 2},
	{op: CLFmaxCommon, w: 32, in: []float64{1, 2}, want: 2},
	{op: CLFminCommon, w: 32, in: []float64{1, 2}, want: 1},
}

func TestOpenCLExact(t *testing.T) {
	for _, c := range clExact {
		args := make([]Arg, len(c.in))
		for i, x := range c.in {
			args[i] = fa(c.w, x)
		}
		out, _, err := OpenCL(c.op, Type{Float, c.w, 1}, args)
		if err != nil {
			t.Errorf("%s%v: %v", setCL.opName(c.op), c.in, err)
			continue
		}
		got := ToFloat64(out[0], c.w)
		want := roundTo(c.want, c.w)
		if !sameFloat(got, want) {
			t.Errorf("%s f%d %v = %v, want %v", setCL.opName(c.op), c.w, c.in, got, want)
		}
	}
}

func TestOpenCLTwoResults(t *testing.T) {
	type tc struct {
		op      uint32
		w       uint8
		x       float64
		y       float64 // remquo's divisor
		r, r2   float64
		i2      int32 // integer second result
		integer bool
	}
	cases := []tc{
		{op: CLFract, w: 32, x: 1.25, r: 0.25, r2: 1},
		{op: CLFract, w: 32, x: -1.25, r: 0.75, r2: -2},
		{op: CLFract, w: 32, x: -1e-30, r: 0x1.fffffep-1, r2: -1}, // clamped below 1
		{op: CLFract, w: 16, x: -0x1p-24, r: 0x1.ffcp-1, r2: -1},
		{op: CLFract, w: 64, x: -1e-300, r: 0x1.fffffffffffffp-1, r2: -1},
		{op: CLFract, w: 32, x: inf, r: 0, r2: inf},
		{op: CLFract, w: 32, x: ninf, r: nz, r2: ninf},
		{op: CLFract, w: 32, x: nz, r: nz, r2: nz},
		{op: CLFract, w: 32, x: qnan, r: qnan, r2: qnan},
		{op: CLModf, w: 32, x: -2.5, r: -0.5, r2: -2},
		{op: CLModf, w: 32, x: ninf, r: nz, r2: ninf},
		{op: CLSincos, w: 64, x: 0.5, r: math.Sin(0.5), r2: math.Cos(0.5)},
		{op: CLSincos, w: 32, x: nz, r: nz, r2: 1},
		{op: CLFrexp, w: 32, x: 12, r: 0.75, i2: 4, integer: true},
		{op: CLFrexp, w: 64, x: ninf, r: ninf, i2: 0, integer: true},
		{op: CLLgammaR, w: 32, x: -0.5, r: math.Log(2 * math.Sqrt(math.Pi)), i2: -1, integer: true},
		{op: CLLgammaR, w: 32, x: 3, r: math.Log(2), i2: 1, integer: true},
		{op: CLLgammaR, w: 32, x: 0, r: inf, i2: 0, integer: true},
		{op: CLLgammaR, w: 32, x: nz, r: inf, i2: 0, integer: true},
		{op: CLLgammaR, w: 64, x: -3, r: inf, i2: 0, integer: true},
		{op: CLLgammaR, w: 64, x: ninf, r: inf, i2: 0, integer: true},
		{op: CLLgammaR, w: 32, x: -2.5, r: math.Log(8 * math.Sqrt(math.Pi) / 15), i2: -1, integer: true},
		{op: CLRemquo, w: 32, x: 7, y: 2, r: -1, i2: 4, integer: true},
		{op: CLRemquo, w: 32, x: -7, y: 2, r: 1, i2: -4, integer: true},
		{op: CLRemquo, w: 32, x: 5, y: -2, r: 1, i2: -2, integer: true},
		{op: CLRemquo, w: 32, x: 1000, y: 1, r: 0, i2: 1000 & 127, integer: true},
		{op: CLRemquo, w: 64, x: 1e300, y: 3, r: math.Remainder(1e300, 3), i2: remquoRef(1e300, 3), integer: true},
		{op: CLRemquo, w: 32, x: 1, y: 0, r: qnan, i2: 0, integer: true},
		{op: CLRemquo, w: 32, x: inf, y: 2, r: qnan, i2: 0, integer: true},
		{op: CLRemquo, w: 64, x: math.MaxFloat64, y: math.MaxFloat64 / 3, r: math.Remainder(math.MaxFloat64, math.MaxFloat64/3), i2: 3, integer: true},
	}
	for _, c := range cases {
		args := []Arg{fa(c.w, c.x)}
		if c.op == CLRemquo {
			args = append(args, fa(c.w, c.y))
		}
		out, out2 := mustCL(t, c.op, Type{Float, c.w, 1}, args...)
		got := ToFloat64(out[0], c.w)
		if !sameFloat(got, roundTo(c.r, c.w)) {
			t.Errorf("%s f%d(%v, %v) = %v, want %v", setCL.opName(c.op), c.w, c.x, c.y, got, c.r)
		}
		if c.integer {
			if g := int32(uint32(out2[0])); g != c.i2 || out2[0]>>32 != 0 {
				t.Errorf("%s f%d(%v, %v) second = %d (%#x), want %d", setCL.opName(c.op), c.w, c.x, c.y, g, out2[0], c.i2)
			}
		} else if g := ToFloat64(out2[0], c.w); !sameFloat(g, roundTo(c.r2, c.w)) {
			t.Errorf("%s f%d(%v) second = %v, want %v", setCL.opName(c.op), c.w, c.x, g, c.r2)
		}
	}
}

// remquoRef computes the low 7 bits of round-half-even(x/y) with big.Float.
func remquoRef(x, y float64) int32 {
	q := new(big.Float).SetPrec(4000).Quo(new(big.Float).SetPrec(4000).SetFloat64(x), new(big.Float).SetFloat64(y))
	// round half to even
	neg := q.Sign() < 0
	q.Abs(q)
	half := new(big.Float).SetPrec(4000).Add(q, big.NewFloat(0.5))
	k, _ := half.Int(nil) // floor, as half >= 0
	if new(big.Float).SetPrec(4000).SetInt(k).Cmp(half) == 0 && k.Bit(0) == 1 {
		k.Sub(k, big.NewInt(1)) // a tie: to even
	}
	r := int32(new(big.Int).And(k, big.NewInt(127)).Int64())
	if neg {
		r = -r
	}
	return r
}

func TestRemquoRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		x := math.Float64frombits(rng.Uint64())
		y := math.Float64frombits(rng.Uint64())
		if math.IsNaN(x) || math.IsInf(x, 0) || math.IsNaN(y) || math.IsInf(y, 0) || y == 0 || x == 0 {
			continue
		}
		r, q := remquo(x, y)
		if !sameFloat(r, math.Remainder(x, y)) {
			t.Fatalf("remquo(%g, %g) r = %g", x, y, r)
		}
		if want := remquoRef(x, y); q != want && !(math.Abs(x/y) > 1e300) {
			t.Fatalf("remquo(%g, %g) q = %d, want %d", x, y, q, want)
		}
	}
	for range 3000 {
		x := float64(math.Float32frombits(rng.Uint32()))
		y := float64(math.Float32frombits(rng.Uint32()))
		if math.IsNaN(x) || math.IsInf(x, 0) || math.IsNaN(y) || math.IsInf(y, 0) || y == 0 {
			continue
		}
		out, out2 := mustCL(t, CLRemquo, f32t(1), fa(32, x), fa(32, y))
		if got, want := int32(uint32(out2[0])), remquoRef(x, y); got != want && x != 0 {
			t.Fatalf("remquo f32(%g, %g) q = %d, want %d", x, y, got, want)
		}
		if got := ToFloat64(out[0], 32); !sameFloat(got, math.Remainder(x, y)) {
			t.Fatalf("remquo f32(%g, %g) r = %g", x, y, got)
		}
	}
}

func TestOpenCLIntArgs(t *testing.T) {
	type tc struct {
		op   uint32
		x    float64
		k    int64
		want float64
	}
	cases := []tc{
		{CLLdexp, 1, -149, 0x1p-149},
		{CLLdexp, 3, math.MaxInt32, inf},
		{CLLdexp, 3, math.MinInt32, 0},
		{CLPown, qnan, 0, 1},
		{CLPown, 2, -2, 0.25},
		{CLPown, nz, -3, ninf},
		{CLPown, nz, -2, inf},
		{CLPown, nz, 3, nz},
		{CLPown, -3, 3, -27},
		{CLRootn, 8, 3, 2},
		{CLRootn, -8, 3, -2},
		{CLRootn, -8, 2, qnan},
		{CLRootn, 8, 0, qnan},
		{CLRootn, 0, -3, inf},
		{CLRootn, nz, -3, ninf},
		{CLRootn, nz, -2, inf},
		{CLRootn, nz, 3, nz},
		{CLRootn, nz, 4, 0},
		{CLRootn, 16, -4, 0.5},
		{CLRootn, 1e30, 5, 1e6},
		{CLRootn, inf, 5, inf},
		{CLRootn, ninf, 5, ninf},
	}
	for _, c := range cases {
		out, _ := mustCL(t, c.op, f32t(1), fa(32, c.x), ia(32, c.k))
		if got := ToFloat64(out[0], 32); !sameFloat(got, roundTo(c.want, 32)) {
			t.Errorf("%s(%v, %d) = %v, want %v", setCL.opName(c.op), c.x, c.k, got, c.want)
		}
	}
	// rootn in float64 stays within OpenCL's 16 ulp (the Newton step matters for large x).
	rng := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		x := math.Abs(math.Float64frombits(rng.Uint64()))
		if math.IsNaN(x) || math.IsInf(x, 0) || x == 0 {
			continue
		}
		n := int64(rng.IntN(40) - 20)
		if n == 0 {
			continue
		}
		got := rootn(x, n)
		ref := bigRootn(x, n)
		if !withinULP(got, ref, 64, 2) {
			t.Fatalf("rootn(%g, %d) = %g, ref %g (%.1f ulp)", x, n, got, ref, math.Abs(got-ref)/ulpOf(ref, 64))
		}
	}
	// At the ends of the range, where r^n overflows or underflows (found by
	// internal/oclref's math family: rootn(DBL_MAX, -3) was 94 ulp off).
	for _, x := range []float64{math.MaxFloat64, 0x1.fffffffffffffp1022, 0x1p1000, 1e300} {
		for _, n := range []int64{-3, -5, -7, -20, 5, 7, 20, -1000, 1000} {
			if got, ref := rootn(x, n), bigRootn(x, n); !withinULP(got, ref, 64, 2) {
				t.Errorf("rootn(%g, %d) = %g, ref %g (%.1f ulp)", x, n, got, ref, math.Abs(got-ref)/ulpOf(ref, 64))
			}
		}
	}
	// ilogb
	for _, c := range []struct {
		x    float64
		want int32
	}{{1, 0}, {0x1p-149, -149}, {0, math.MinInt32}, {qnan, math.MaxInt32}, {ninf, math.MaxInt32}, {-1024, 10}} {
		out, _ := mustCL(t, CLIlogb, it(32, 1), fa(32, c.x))
		if got := int32(uint32(out[0])); got != c.want {
			t.Errorf("ilogb(%v) = %d, want %d", c.x, got, c.want)
		}
	}
	// nan(nancode)
	out, _ := mustCL(t, CLNan, f32t(2), ua(32, 0, 0x123))
	if out[0] != 0x7FC00000 || out[1] != 0x7FC00123 {
		t.Errorf("nan = %#x %#x", out[0], out[1])
	}
	out, _ = mustCL(t, CLNan, f16t(1), ua(16, 0xFFFF))
	if out[0] != 0x7FFF {
		t.Errorf("nan f16 = %#x", out[0])
	}
	out, _ = mustCL(t, CLNan, f64t(1), ua(64, 5))
	if out[0] != 0x7FF8000000000005 {
		t.Errorf("nan f64 = %#x", out[0])
	}
}

// bigRootn computes x^(1/n) to about 100 bits by Newton's method in big.Float.
func bigRootn(x float64, n int64) float64 {
	const prec = 200
	an := n
	if an < 0 {
		an = -an
	}
	bx := new(big.Float).SetPrec(prec).SetFloat64(x)
	r := new(big.Float).SetPrec(prec).SetFloat64(math.Pow(x, 1/float64(an)))
	nf := new(big.Float).SetPrec(prec).SetInt64(an)
	for range 8 {
		// r = r - (r^n - x) / (n r^(n-1))
		p := new(big.Float).SetPrec(prec).SetFloat64(1)
		for range an - 1 {
			p.Mul(p, r)
		}
		num := new(big.Float).SetPrec(prec).Mul(p, r)
		num.Sub(num, bx)
		den := new(big.Float).SetPrec(prec).Mul(nf, p)
		num.Quo(num, den)
		r.Sub(r, num)
	}
	if n < 0 {
		r.Quo(new(big.Float).SetPrec(prec).SetFloat64(1), r)
	}
	f, _ := r.Float64()
	return f
}

func TestNextafter(t *testing.T) {
	cases := []struct {
		w       uint8
		x, y    float64
		want    float64
		wantHex uint64
	}{
		{w: 32, x: 1, y: 2, want: 1 + 0x1p-23},
		{w: 32, x: 1, y: 0, want: 1 - 0x1p-24},
		{w: 32, x: 0, y: -1, want: -0x1p-149},
		{w: 32, x: nz, y: 1, want: 0x1p-149},
		{w: 32, x: 0x1p-149, y: 0, want: 0},
		{w: 32, x: 2, y: 2, want: 2},
		{w: 32, x: 0, y: nz, want: nz},
		{w: 32, x: math.MaxFloat32, y: inf, want: inf},
		{w: 32, x: inf, y: 0, want: math.MaxFloat32},
		{w: 32, x: qnan, y: 0, want: qnan},
		{w: 32, x: 0, y: qnan, want: qnan},
		{w: 16, x: 1, y: 2, want: 1 + 0x1p-10},
		{w: 16, x: -1, y: -2, want: -1 - 0x1p-10},
		{w: 64, x: 1, y: 0, want: 1 - 0x1p-53},
	}
	for _, c := range cases {
		out, _ := mustCL(t, CLNextafter, Type{Float, c.w, 1}, fa(c.w, c.x), fa(c.w, c.y))
		if got := ToFloat64(out[0], c.w); !sameFloat(got, c.want) {
			t.Errorf("nextafter f%d(%v, %v) = %v, want %v", c.w, c.x, c.y, got, c.want)
		}
	}
}

func TestOpenCLGeometric(t *testing.T) {
	out, _ := mustCL(t, CLNormalize, f32t(4), fa(32, 0, nz, 0, 0))
	if out[0] != 0 || out[1] != 0x80000000 {
		t.Errorf("normalize(0) = %#x %#x, want the operand", out[0], out[1])
	}
	out, _ = mustCL(t, CLNormalize, f32t(2), fa(32, inf, 5))
	if ToFloat64(out[0], 32) != 1 || ToFloat64(out[1], 32) != 0 {
		t.Errorf("normalize(inf, 5) = %v %v", ToFloat64(out[0], 32), ToFloat64(out[1], 32))
	}
	out, _ = mustCL(t, CLNormalize, f32t(2), fa(32, qnan, 5))
	if !math.IsNaN(ToFloat64(out[0], 32)) || !math.IsNaN(ToFloat64(out[1], 32)) {
		t.Errorf("normalize(NaN, 5) = %v", out[:2])
	}
	out, _ = mustCL(t, CLFastNormalize, f64t(2), fa(64, 3e300, 4e300))
	if ToFloat64(out[0], 64) != 0.6 || ToFloat64(out[1], 64) != 0.8 {
		t.Errorf("fast_normalize huge = %v %v", ToFloat64(out[0], 64), ToFloat64(out[1], 64))
	}
	out, _ = mustCL(t, CLCross, f32t(4), fa(32, 0, 1, 0, 9), fa(32, 0, 0, 1, 9))
	if ToFloat64(out[0], 32) != 1 || out[1] != 0 || out[2] != 0 || out[3] != 0 {
		t.Errorf("cross4 = %v", out[:4])
	}
	out, _ = mustCL(t, CLLength, f32t(1), fa(32, math.MaxFloat32, math.MaxFloat32))
	if got := ToFloat64(out[0], 32); !math.IsInf(got, 1) {
		t.Errorf("length(max, max) = %v (sqrt 2 * max overflows float32)", got)
	}
	out, _ = mustCL(t, CLDistance, f16t(1), fa(16, 1, 2), fa(16, 4, 6))
	if ToFloat64(out[0], 16) != 5 {
		t.Errorf("distance = %v", ToFloat64(out[0], 16))
	}
	out, _ = mustCL(t, CLFastLength, f32t(1), fa(32, 1e-30, 1e-30))
	if got := ToFloat64(out[0], 32); !withinULP(got, math.Sqrt2*float64(float32(1e-30)), 32, 0.5) {
		t.Errorf("fast_length tiny = %v", got)
	}
}

// icase is an integer case: width, signed inputs (truncated), expected bits.
type icase struct {
	op   uint32
	w    uint8
	in   []int64
	want int64
}

var clIntCases = []icase{
	{CLSAbs, 32, []int64{-5}, 5},
	{CLSAbs, 32, []int64{math.MinInt32}, math.MinInt32}, // 0x80000000 as unsigned
	{CLUAbs, 32, []int64{-5}, -5},
	{CLSAbsDiff, 32, []int64{math.MaxInt32, math.MinInt32}, -1}, // 0xFFFFFFFF
	{CLSAbsDiff, 64, []int64{math.MaxInt64, math.MinInt64}, -1},
	{CLSAbsDiff, 8, []int64{-100, 100}, 200},
	{CLUAbsDiff, 32, []int64{1, -1}, -2},
	{CLSAddSat, 32, []int64{math.MaxInt32, 1}, math.MaxInt32},
	{CLSAddSat, 32, []int64{math.MinInt32, -1}, math.MinInt32},
	{CLSAddSat, 64, []int64{math.MaxInt64, 1}, math.MaxInt64},
	{CLSAddSat, 64, []int64{math.MinInt64, -1}, math.MinInt64},
	{CLSAddSat, 64, []int64{math.MinInt64, math.MaxInt64}, -1},
	{CLUAddSat, 8, []int64{200, 100}, 255},
	{CLUAddSat, 64, []int64{-1, 1}, -1},
	{CLSSubSat, 16, []int64{-32768, 1}, -32768},
	{CLSSubSat, 64, []int64{math.MinInt64, 1}, math.MinInt64},
	{CLSSubSat, 64, []int64{math.MaxInt64, -1}, math.MaxInt64},
	{CLSSubSat, 64, []int64{0, math.MinInt64}, math.MaxInt64},
	{CLUSubSat, 32, []int64{1, 2}, 0},
	{CLSHadd, 32, []int64{math.MaxInt32, math.MaxInt32}, math.MaxInt32},
	{CLSHadd, 32, []int64{-1, -2}, -2},
	{CLSHadd, 64, []int64{math.MinInt64, math.MinInt64}, math.MinInt64},
	{CLUHadd, 64, []int64{-1, -1}, -1},
	{CLSRhadd, 32, []int64{-1, -2}, -1},
	{CLSRhadd, 32, []int64{math.MaxInt32, math.MaxInt32}, math.MaxInt32},
	{CLURhadd, 8, []int64{255, 254}, 255},
	{CLSClamp, 32, []int64{-10, -5, 5}, -5},
	{CLUClamp, 32, []int64{-10, 5, 50}, 50},
	{CLClz, 32, []int64{0}, 32},
	{CLClz, 32, []int64{1}, 31},
	{CLClz, 8, []int64{-1}, 0},
	{CLClz, 64, []int64{1}, 63},
	{CLCtz, 16, []int64{0}, 16},
	{CLCtz, 32, []int64{0x100}, 8},
	{CLPopcount, 32, []int64{-1}, 32},
	{CLPopcount, 8, []int64{0x55}, 4},
	{CLSMulHi, 32, []int64{math.MinInt32, math.MinInt32}, 0x40000000},
	{CLSMulHi, 32, []int64{-1, 1}, -1},
	{CLSMulHi, 64, []int64{math.MinInt64, math.MinInt64}, 0x4000000000000000},
	{CLSMulHi, 64, []int64{-1, 1}, -1},
	{CLUMulHi, 32, []int64{-1, -1}, -2},
	{CLUMulHi, 64, []int64{-1, -1}, -2},
	{CLSMadHi, 32, []int64{-1, 1, 5}, 4},
	{CLUMadHi, 32, []int64{-1, -1, 3}, 1},
	{CLSMadSat, 32, []int64{65536, 65536, 0}, math.MaxInt32},
	{CLSMadSat, 32, []int64{65536, -65536, -1}, math.MinInt32},
	{CLSMadSat, 64, []int64{math.MinInt64, -1, 0}, math.MaxInt64},
	{CLSMadSat, 64, []int64{math.MinInt64, 1, -1}, math.MinInt64},
	{CLSMadSat, 64, []int64{math.MinInt64, -1, math.MinInt64}, 0}, // 2^63 - 2^63 fits
	{CLSMadSat, 64, []int64{3, 4, 5}, 17},
	{CLUMadSat, 32, []int64{65536, 65536, 0}, -1},
	{CLUMadSat, 64, []int64{0x100000000, 0xFFFFFFFF, 0xFFFFFFFF}, -1},
	{CLUMadSat, 64, []int64{-1, 1, 0}, -1},
	{CLUMadSat, 64, []int64{-1, 1, 1}, -1},
	{CLSMax, 32, []int64{-1, 1}, 1},
	{CLUMax, 32, []int64{-1, 1}, -1},
	{CLSMin, 32, []int64{-1, 1}, -1},
	{CLUMin, 32, []int64{-1, 1}, 1},
	{CLRotate, 32, []int64{0x80000001, 1}, 3},
	{CLRotate, 32, []int64{0x80000001, 33}, 3},
	{CLRotate, 32, []int64{0x80000001, -1}, -0x40000000}, // rotate left by 31
	{CLRotate, 8, []int64{0x81, 4}, 0x18},
	{CLRotate, 64, []int64{1, 64}, 1},
	{CLSMul24, 32, []int64{-2, 3}, -6},
	{CLSMul24, 32, []int64{0x7FFFFF, 2}, 0xFFFFFE},
	{CLSMul24, 32, []int64{0x800000, 1}, -0x800000}, // bit 23 is the sign
	{CLUMul24, 32, []int64{0xFFFFFF, 0xFFFFFF}, 0xFFFFFE000001 & 0xFFFFFFFF},
	{CLUMul24, 32, []int64{0x1000002, 3}, 6}, // only the low 24 bits
	{CLSMad24, 32, []int64{-2, 3, 10}, 4},
	{CLUMad24, 32, []int64{2, 3, -1}, 5},
}

func TestOpenCLInteger(t *testing.T) {
	for _, c := range clIntCases {
		args := make([]Arg, len(c.in))
		for i, x := range c.in {
			args[i] = ia(c.w, x)
		}
		out, _ := mustCL(t, c.op, it(c.w, 1), args...)
		if out[0] != uint64(c.want)&mask(c.w) {
			t.Errorf("%s i%d %v = %#x, want %#x", setCL.opName(c.op), c.w, c.in, out[0], uint64(c.want)&mask(c.w))
		}
	}
}

// refInt computes an integer op exactly with big.Int for width w.
func refInt(op uint32, w uint8, in []uint64) uint64 {
	s := func(v uint64) *big.Int { return big.NewInt(sext(v, w)) }
	u := func(v uint64) *big.Int { return new(big.Int).SetUint64(v & mask(w)) }
	smin := new(big.Int).Lsh(big.NewInt(-1), uint(w-1))
	smax := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(w-1)), big.NewInt(1))
	umax := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(w)), big.NewInt(1))
	clamp := func(v, lo, hi *big.Int) *big.Int {
		if v.Cmp(lo) < 0 {
			return lo
		}
		if v.Cmp(hi) > 0 {
			return hi
		}
		return v
	}
	bits := func(v *big.Int) uint64 {
		m := new(big.Int).And(v, umax) // two's complement truncation
		return m.Uint64()
	}
	hi := func(p *big.Int) *big.Int { return new(big.Int).Rsh(p, uint(w)) } // floor shift
	var r *big.Int
	switch op {
	case CLSAddSat:
		r = clamp(new(big.Int).Add(s(in[0]), s(in[1])), smin, smax)
	case CLUAddSat:
		r = clamp(new(big.Int).Add(u(in[0]), u(in[1])), big.NewInt(0), umax)
	case CLSSubSat:
		r = clamp(new(big.Int).Sub(s(in[0]), s(in[1])), smin, smax)
	case CLUSubSat:
		r = clamp(new(big.Int).Sub(u(in[0]), u(in[1])), big.NewInt(0), umax)
	case CLSHadd:
		r = new(big.Int).Rsh(new(big.Int).Add(s(in[0]), s(in[1])), 1)
	case CLUHadd:
		r = new(big.Int).Rsh(new(big.Int).Add(u(in[0]), u(in[1])), 1)
	case CLSRhadd:
		r = new(big.Int).Rsh(new(big.Int).Add(new(big.Int).Add(s(in[0]), s(in[1])), big.NewInt(1)), 1)
	case CLURhadd:
		r = new(big.Int).Rsh(new(big.Int).Add(new(big.Int).Add(u(in[0]), u(in[1])), big.NewInt(1)), 1)
	case CLSAbsDiff:
		r = new(big.Int).Abs(new(big.Int).Sub(s(in[0]), s(in[1])))
	case CLUAbsDiff:
		r = new(big.Int).Abs(new(big.Int).Sub(u(in[0]), u(in[1])))
	case CLSMulHi:
		r = hi(new(big.Int).Mul(s(in[0]), s(in[1])))
	case CLUMulHi:
		r = hi(new(big.Int).Mul(u(in[0]), u(in[1])))
	case CLSMadHi:
		r = new(big.Int).Add(hi(new(big.Int).Mul(s(in[0]), s(in[1]))), s(in[2]))
	case CLUMadHi:
		r = new(big.Int).Add(hi(new(big.Int).Mul(u(in[0]), u(in[1]))), u(in[2]))
	case CLSMadSat:
		r = clamp(new(big.Int).Add(new(big.Int).Mul(s(in[0]), s(in[1])), s(in[2])), smin, smax)
	case CLUMadSat:
		r = clamp(new(big.Int).Add(new(big.Int).Mul(u(in[0]), u(in[1])), u(in[2])), big.NewInt(0), umax)
	case CLSClamp:
		r = s(in[0])
		if r.Cmp(s(in[1])) < 0 {
			r = s(in[1])
		}
		if r.Cmp(s(in[2])) > 0 {
			r = s(in[2])
		}
	case CLUClamp:
		r = u(in[0])
		if r.Cmp(u(in[1])) < 0 {
			r = u(in[1])
		}
		if r.Cmp(u(in[2])) > 0 {
			r = u(in[2])
		}
	case CLRotate:
		k := uint(in[1] % uint64(w))
		v := u(in[0])
		r = new(big.Int).Or(new(big.Int).Lsh(v, k), new(big.Int).Rsh(v, uint(w)-k))
	}
	return bits(r)
}

// TestOpenCLIntegerReference checks the arithmetic integer ops against
// math/big: all pairs (and a sample of triples) at 8 bits, random values at
// 16/32/64 bits biased toward the extremes.
func TestOpenCLIntegerReference(t *testing.T) {
	ops2 := []uint32{CLSAddSat, CLUAddSat, CLSSubSat, CLUSubSat, CLSHadd, CLUHadd, CLSRhadd, CLURhadd,
		CLSAbsDiff, CLUAbsDiff, CLSMulHi, CLUMulHi, CLRotate}
	ops3 := []uint32{CLSMadHi, CLUMadHi, CLSMadSat, CLUMadSat, CLSClamp, CLUClamp}
	check := func(op uint32, w uint8, in []uint64) {
		args := make([]Arg, len(in))
		for i, v := range in {
			args[i] = ua(w, v)
		}
		out, _ := mustCL(t, op, ut(w, 1), args...)
		if want := refInt(op, w, in); out[0] != want {
			t.Fatalf("%s i%d %#x = %#x, want %#x", setCL.opName(op), w, in, out[0], want)
		}
	}
	for _, op := range ops2 {
		for x := range uint64(256) {
			for y := range uint64(256) {
				check(op, 8, []uint64{x, y})
			}
		}
	}
	rng := rand.New(rand.NewPCG(5, 6))
	edge := func(w uint8) uint64 {
		switch rng.IntN(6) {
		case 0:
			return 0
		case 1:
			return mask(w)
		case 2:
			return mask(w) >> 1
		case 3:
			return 1 << (w - 1)
		case 4:
			return uint64(rng.IntN(5))
		}
		return rng.Uint64() & mask(w)
	}
	for _, op := range ops3 {
		for range 20000 {
			check(op, 8, []uint64{rng.Uint64() & 255, rng.Uint64() & 255, rng.Uint64() & 255})
		}
	}
	for _, w := range []uint8{16, 32, 64} {
		for _, op := range append(ops2, ops3...) {
			for range 3000 {
				check(op, w, []uint64{edge(w), edge(w), edge(w)}[:2+btoi(contains(ops3, op))])
			}
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func contains(s []uint32, v uint32) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func TestOpenCLUpsampleSelectShuffle(t *testing.T) {
	out, _ := mustCL(t, CLUUpsample, ut(16, 2), ua(8, 0x12, 0xFF), ua(8, 0x34, 0x01))
	if out[0] != 0x1234 || out[1] != 0xFF01 {
		t.Errorf("u_upsample = %#x %#x", out[0], out[1])
	}
	out, _ = mustCL(t, CLSUpsample, it(64, 1), ia(32, -1), ua(32, 0x80000000))
	if out[0] != 0xFFFFFFFF80000000 {
		t.Errorf("s_upsample = %#x", out[0])
	}
	// select: scalar tests != 0, vectors test the most significant bit.
	out, _ = mustCL(t, CLSelect, f32t(1), fa(32, 1), fa(32, 2), ia(32, 2))
	if ToFloat64(out[0], 32) != 2 {
		t.Errorf("select scalar = %v", ToFloat64(out[0], 32))
	}
	out, _ = mustCL(t, CLSelect, f32t(3), fa(32, 1, 1, 1), fa(32, 2, 2, 2), ia(32, 2, -1, math.MinInt32))
	if ToFloat64(out[0], 32) != 1 || ToFloat64(out[1], 32) != 2 || ToFloat64(out[2], 32) != 2 {
		t.Errorf("select vector = %v", out[:3])
	}
	out, _ = mustCL(t, CLSelect, it(8, 2), ia(8, 1, 1), ia(8, 2, 2), ua(8, 0x7F, 0x80))
	if out[0] != 1 || out[1] != 2 {
		t.Errorf("select i8 vector = %v", out[:2])
	}
	out, _ = mustCL(t, CLBitselect, it(32, 1), ua(32, 0xFFFF0000), ua(32, 0x0000FFFF), ua(32, 0x00FFFF00))
	if out[0] != 0xFF00FF00 {
		t.Errorf("bitselect = %#x", out[0])
	}
	out, _ = mustCL(t, CLBitselect, f32t(1), fa(32, 1), fa(32, -1), ua(32, 0x80000000))
	if ToFloat64(out[0], 32) != -1 {
		t.Errorf("bitselect float = %v", ToFloat64(out[0], 32))
	}
	// shuffle: a 4-element source uses 2 mask bits; shuffle2 uses 3.
	x := ia(32, 10, 11, 12, 13)
	y := ia(32, 20, 21, 22, 23)
	out, _ = mustCL(t, CLShuffle, it(32, 8), x, ua(32, 3, 2, 1, 0, 4, 7, 0xFFFFFFF9, 2))
	want := []uint64{13, 12, 11, 10, 10, 13, 11, 12}
	for i, w := range want {
		if out[i] != w {
			t.Errorf("shuffle[%d] = %d, want %d", i, out[i], w)
		}
	}
	out, _ = mustCL(t, CLShuffle2, it(32, 4), x, y, ua(32, 7, 0, 12, 4))
	for i, w := range []uint64{23, 10, 20, 20} {
		if out[i] != w {
			t.Errorf("shuffle2[%d] = %d, want %d", i, out[i], w)
		}
	}
	// 3-component source: 2 mask bits, index 3 is out of range and gives 0.
	out, _ = mustCL(t, CLShuffle, f32t(2), fa(32, 1, 2, 3), ua(32, 3, 6))
	if out[0] != 0 || ToFloat64(out[1], 32) != 3 {
		t.Errorf("shuffle from 3 = %#x %#x", out[0], out[1])
	}
	out, _ = mustCL(t, CLShuffle2, f16t(2), fa(16, 1, 2), fa(16, 3, 4), ua(16, 3, 6))
	if ToFloat64(out[0], 16) != 4 || ToFloat64(out[1], 16) != 3 {
		t.Errorf("shuffle2 f16 = %v %v", ToFloat64(out[0], 16), ToFloat64(out[1], 16))
	}
}

func TestOpenCLMemoryOpsAndErrors(t *testing.T) {
	for _, op := range []uint32{CLVloadn, CLVstoren, CLVloadHalf, CLVloadHalfn, CLVstoreHalf, CLVstoreHalfR,
		CLVstoreHalfn, CLVstoreHalfnR, CLVloadaHalfn, CLVstoreaHalfn, CLVstoreaHalfnR, CLPrintf, CLPrefetch} {
		if _, _, err := OpenCL(op, f32t(1), nil); !errors.Is(err, ErrMemoryOp) {
			t.Errorf("%s: err = %v, want ErrMemoryOp", setCL.opName(op), err)
		}
	}
	for _, op := range []uint32{111, 140, 188, 200, 205} {
		if _, _, err := OpenCL(op, f32t(1), []Arg{fa(32, 1)}); !errors.Is(err, ErrUnknownOp) {
			t.Errorf("op %d: err = %v, want ErrUnknownOp", op, err)
		}
	}
	bad := []struct {
		op   uint32
		res  Type
		args []Arg
	}{
		{CLSin, f32t(1), []Arg{ia(32, 1)}},
		{CLClz, f32t(1), []Arg{fa(32, 1)}},
		{CLUUpsample, ut(8, 1), []Arg{ua(8, 1), ua(8, 1)}},
		{CLUUpsample, ut(32, 1), []Arg{ua(8, 1), ua(8, 1)}},
		{CLShuffle, it(32, 4), []Arg{ia(32, 1, 2), ua(32, 0, 1)}},
		{CLShuffle2, it(32, 2), []Arg{ia(32, 1, 2), ia(32, 1, 2, 3), ua(32, 0, 1)}},
		{CLSelect, f32t(2), []Arg{fa(32, 1, 2), fa(32, 1, 2), ia(16, 0, 1)}},
		{CLIlogb, f32t(1), []Arg{fa(32, 1)}},
		{CLNan, f32t(1), []Arg{fa(32, 1)}},
		{CLLdexp, f32t(1), []Arg{fa(32, 1), fa(32, 1)}},
		{CLCross, f32t(2), []Arg{fa(32, 1, 2), fa(32, 1, 2)}},
	}
	for _, b := range bad {
		if _, _, err := OpenCL(b.op, b.res, b.args); err == nil {
			t.Errorf("%s %v %v: no error", setCL.opName(b.op), b.res, b.args)
		}
	}
}

func TestHalfHelpers(t *testing.T) {
	one32 := FromFloat64(1+0x1p-11, 32) // exactly halfway between two halves
	cases := []struct {
		bits uint64
		w    uint8
		m    RoundingMode
		want uint16
	}{
		{one32, 32, RTE, 0x3C00},
		{one32, 32, RTZ, 0x3C00},
		{one32, 32, RTP, 0x3C01},
		{one32, 32, RTN, 0x3C00},
		{FromFloat64(-(1 + 0x1p-11), 32), 32, RTN, 0xBC01},
		{FromFloat64(1e6, 32), 32, RTE, 0x7C00},
		{FromFloat64(1e6, 32), 32, RTZ, 0x7BFF},
		{FromFloat64(-1e6, 64), 64, RTP, 0xFBFF},
		{FromFloat64(-1e6, 64), 64, RTN, 0xFC00},
		{FromFloat64(0x1p-26, 64), 64, RTP, 0x0001},
		{FromFloat64(0x1p-26, 64), 64, RTE, 0x0000},
		{0x3C00, 16, RTZ, 0x3C00},
	}
	for _, c := range cases {
		got, err := FloatToHalf(c.bits, c.w, c.m)
		if err != nil || got != c.want {
			t.Errorf("FloatToHalf(%#x, %d, %d) = %#x, %v; want %#x", c.bits, c.w, c.m, got, err, c.want)
		}
	}
	if _, err := FloatToHalf(0, 32, 7); err == nil {
		t.Error("FloatToHalf mode 7: no error")
	}
	if _, err := FloatToHalf(0, 8, RTE); err == nil {
		t.Error("FloatToHalf width 8: no error")
	}
	if got := HalfToFloat(0x3555, 64); ToFloat64(got, 64) != ToFloat64(0x3555, 16) {
		t.Errorf("HalfToFloat 64 = %#x", got)
	}
	if got := HalfToFloat(0xFC00, 32); got != 0xFF800000 {
		t.Errorf("HalfToFloat(-Inf) = %#x", got)
	}
	if got := HalfToFloat(0x0001, 32); ToFloat64(got, 32) != 0x1p-24 {
		t.Errorf("HalfToFloat(min denormal) = %#x", got)
	}
}

func TestOut2TypesAndMemoryOps(t *testing.T) {
	// Every op that produces out2 is reported by the Out2Type helpers, with
	// the right kind, and no other op produces one.
	args := []Arg{fa(32, 2.5, -1.25), fa(32, 0.75, 3)}
	for op := uint32(0); op < 210; op++ {
		for _, n := range []int{1, 2} {
			out, out2, err := OpenCL(op, f32t(2), args[:n])
			_ = out
			t2, has := OpenCLOut2Type(op, f32t(2))
			if err == nil && out2 != (Value{}) && !has {
				t.Errorf("%s: out2 without OpenCLOut2Type", setCL.opName(op))
			}
			if has && n == 1 && op != CLRemquo && err == nil && t2.Kind == Float && t2 != f32t(2) {
				t.Errorf("%s: out2 type %v", setCL.opName(op), t2)
			}
		}
		if got, want := OpenCLMemoryOp(op), func() bool { _, _, err := OpenCL(op, f32t(1), nil); return errors.Is(err, ErrMemoryOp) }(); got != want {
			t.Errorf("OpenCLMemoryOp(%d) = %v, OpenCL says %v", op, got, want)
		}
	}
	for op := uint32(0); op < 90; op++ {
		_, out2, err := GLSL(op, f32t(2), args[:1])
		if _, has := GLSLOut2Type(op, f32t(2)); err == nil && out2 != (Value{}) && !has {
			t.Errorf("%s: out2 without GLSLOut2Type", setGLSL.opName(op))
		}
	}
	if ty, ok := GLSLOut2Type(GLSLFrexpStruct, f64t(3)); !ok || ty != it(32, 3) {
		t.Errorf("GLSLOut2Type(FrexpStruct) = %v, %v", ty, ok)
	}
}

func TestHalfToFloatWidths(t *testing.T) {
	if got := HalfToFloat(0x3C01, 16); got != 0x3C01 {
		t.Errorf("HalfToFloat(.., 16) = %#x", got)
	}
	if got := HalfToFloat(0x3C00, 8); got != 0x3FF0000000000000 {
		t.Errorf("HalfToFloat(.., 8) = %#x, want float64 1", got)
	}
	// Every half code survives half -> float32 -> half and half -> float64 -> half.
	for h := range 1 << 16 {
		for _, w := range []uint8{32, 64} {
			b := HalfToFloat(uint16(h), w)
			back, err := FloatToHalf(b, w, RTE)
			isNaN := h&0x7C00 == 0x7C00 && h&0x3FF != 0
			if err != nil || (back != uint16(h) && !(isNaN && back&0x7C00 == 0x7C00 && back&0x3FF != 0)) {
				t.Fatalf("half %#04x via f%d = %#x -> %#04x, %v", h, w, b, back, err)
			}
		}
	}
}
