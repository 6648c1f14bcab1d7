package extinst

import (
	"math"
	"testing"
)

// Test helpers: typed scalar and vector operands.

func f32t(n uint8) Type  { return Type{Float, 32, n} }
func f16t(n uint8) Type  { return Type{Float, 16, n} }
func f64t(n uint8) Type  { return Type{Float, 64, n} }
func it(w, n uint8) Type { return Type{Int, w, n} }
func ut(w, n uint8) Type { return Type{Uint, w, n} }

// fa builds a float operand of width w from float64 values (rounded to w).
func fa(w uint8, xs ...float64) Arg {
	a := Arg{T: Type{Float, w, uint8(len(xs))}}
	for i, x := range xs {
		a.V[i] = FromFloat64(x, w)
	}
	return a
}

// ia builds an integer operand of width w from int64 values (truncated).
func ia(w uint8, xs ...int64) Arg {
	a := Arg{T: Type{Int, w, uint8(len(xs))}}
	for i, x := range xs {
		a.V[i] = uint64(x) & mask(w)
	}
	return a
}

func ua(w uint8, xs ...uint64) Arg {
	a := Arg{T: Type{Uint, w, uint8(len(xs))}}
	for i, x := range xs {
		a.V[i] = x & mask(w)
	}
	return a
}

// sameFloat reports whether got equals want exactly, NaN matching NaN and
// the sign of zero mattering.
func sameFloat(got, want float64) bool {
	if math.IsNaN(want) {
		return math.IsNaN(got)
	}
	return got == want && math.Signbit(got) == math.Signbit(want)
}

// ulpOf returns one ulp of width w at the magnitude of v.
func ulpOf(v float64, w uint8) float64 {
	p := precision(w)
	minExp := map[uint8]int{16: -14, 32: -126, 64: -1022}[w]
	v = math.Abs(v)
	if v == 0 || math.IsInf(v, 0) {
		return math.Ldexp(1, minExp-p+1)
	}
	e := max(math.Ilogb(v), minExp)
	return math.Ldexp(1, e-p+1)
}

// withinULP reports whether got is within n ulps (of width w) of the
// reference; infinities, NaNs and overflow must match exactly.
func withinULP(got, ref float64, w uint8, n float64) bool {
	if math.IsNaN(ref) || math.IsNaN(got) {
		return math.IsNaN(ref) && math.IsNaN(got)
	}
	if math.IsInf(got, 0) || math.IsInf(ref, 0) {
		maxv := map[uint8]float64{16: 65504, 32: math.MaxFloat32, 64: math.MaxFloat64}[w]
		if math.IsInf(got, 0) && math.Abs(ref) >= maxv*(1+math.Ldexp(1, -precision(w)-1)) {
			return math.Signbit(got) == math.Signbit(ref)
		}
		return got == ref
	}
	return math.Abs(got-ref) <= n*ulpOf(ref, w)
}

func mustGLSL(t *testing.T, op uint32, res Type, args ...Arg) (Value, Value) {
	t.Helper()
	out, out2, err := GLSL(op, res, args)
	if err != nil {
		t.Fatalf("GLSL %d: %v", op, err)
	}
	return out, out2
}

func mustCL(t *testing.T, op uint32, res Type, args ...Arg) (Value, Value) {
	t.Helper()
	out, out2, err := OpenCL(op, res, args)
	if err != nil {
		t.Fatalf("OpenCL %d: %v", op, err)
	}
	return out, out2
}
