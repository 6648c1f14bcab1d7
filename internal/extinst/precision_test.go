package extinst

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// A unary op checked over every float16 input against a float64 reference.
type halfRef struct {
	name string
	eval func(Type, []Arg) (Value, Value, error)
	ref  func(x float64) float64
	ulps float64 // allowed distance in float16 ulps
}

func glslOp(op uint32) func(Type, []Arg) (Value, Value, error) {
	return func(r Type, a []Arg) (Value, Value, error) { return GLSL(op, r, a) }
}

func clOp(op uint32) func(Type, []Arg) (Value, Value, error) {
	return func(r Type, a []Arg) (Value, Value, error) { return OpenCL(op, r, a) }
}

// cr is the bound for a result computed in float64 and rounded once: half an
// ulp, plus slack for the float64 reference's own last-bit error near ties.
const cr = 0.5 + 1.0/1024

// pi-scaled references reduce with math.Mod (exact) rather than the
// implementation's symmetric reduction.
func refSinpi(x float64) float64 {
	if math.IsInf(x, 0) {
		return math.NaN()
	}
	if x == math.Trunc(x) {
		return math.Copysign(0, x)
	}
	return math.Sin(math.Pi * math.Mod(x, 2))
}

func refCospi(x float64) float64 {
	if math.IsInf(x, 0) {
		return math.NaN()
	}
	if r := math.Mod(math.Abs(x), 2); r == 0.5 || r == 1.5 {
		return 0
	}
	return math.Cos(math.Pi * math.Mod(x, 2))
}

func refTanpi(x float64) float64 {
	if math.IsInf(x, 0) {
		return math.NaN()
	}
	r := math.Mod(x, 1) // in (-1, 1), exact
	switch math.Abs(r) {
	case 0:
		if math.Mod(x, 2) == 0 {
			return math.Copysign(0, x)
		}
		return math.Copysign(0, -x)
	case 0.5:
		if math.Mod(math.Abs(x-0.5), 2) == 0 {
			return math.Inf(1)
		}
		return math.Inf(-1)
	}
	return math.Tan(math.Pi * r)
}

var halfRefs = []halfRef{
	{"Round", glslOp(GLSLRound), math.RoundToEven, 0},
	{"RoundEven", glslOp(GLSLRoundEven), math.RoundToEven, 0},
	{"Trunc", glslOp(GLSLTrunc), math.Trunc, 0},
	{"FAbs", glslOp(GLSLFAbs), math.Abs, 0},
	{"Floor", glslOp(GLSLFloor), math.Floor, 0},
	{"Ceil", glslOp(GLSLCeil), math.Ceil, 0},
	{"Fract", glslOp(GLSLFract), func(x float64) float64 { return x - math.Floor(x) }, cr},
	{"FSign", glslOp(GLSLFSign), func(x float64) float64 {
		if x == 0 || math.IsNaN(x) {
			return x
		}
		return math.Copysign(1, x)
	}, 0},
	{"Radians", glslOp(GLSLRadians), func(x float64) float64 { return x / 180 * math.Pi }, cr},
	{"Degrees", glslOp(GLSLDegrees), func(x float64) float64 { return x / math.Pi * 180 }, cr},
	{"Sin", glslOp(GLSLSin), math.Sin, cr},
	{"Cos", glslOp(GLSLCos), math.Cos, cr},
	{"Tan", glslOp(GLSLTan), math.Tan, cr},
	{"Asin", glslOp(GLSLAsin), math.Asin, cr},
	{"Acos", glslOp(GLSLAcos), math.Acos, cr},
	{"Atan", glslOp(GLSLAtan), math.Atan, cr},
	{"Sinh", glslOp(GLSLSinh), math.Sinh, cr},
	{"Cosh", glslOp(GLSLCosh), math.Cosh, cr},
	{"Tanh", glslOp(GLSLTanh), math.Tanh, cr},
	{"Asinh", glslOp(GLSLAsinh), math.Asinh, cr},
	{"Acosh", glslOp(GLSLAcosh), math.Acosh, cr},
	{"Atanh", glslOp(GLSLAtanh), math.Atanh, cr},
	{"Exp", glslOp(GLSLExp), math.Exp, cr},
	{"Log", glslOp(GLSLLog), math.Log, cr},
	{"Exp2", glslOp(GLSLExp2), math.Exp2, cr},
	{"Log2", glslOp(GLSLLog2), math.Log2, cr},
	{"Sqrt", glslOp(GLSLSqrt), math.Sqrt, 0.5},
	{"InverseSqrt", glslOp(GLSLInverseSqrt), func(x float64) float64 { return 1 / math.Sqrt(x) }, cr},
	{"acospi", clOp(CLAcospi), func(x float64) float64 { return math.Acos(x) / math.Pi }, cr},
	{"asinpi", clOp(CLAsinpi), func(x float64) float64 { return math.Asin(x) / math.Pi }, cr},
	{"atanpi", clOp(CLAtanpi), func(x float64) float64 { return math.Atan(x) / math.Pi }, cr},
	{"sinpi", clOp(CLSinpi), refSinpi, cr},
	{"cospi", clOp(CLCospi), refCospi, cr},
	{"tanpi", clOp(CLTanpi), refTanpi, cr},
	{"cbrt", clOp(CLCbrt), math.Cbrt, cr},
	{"erf", clOp(CLErf), math.Erf, cr},
	{"erfc", clOp(CLErfc), math.Erfc, cr},
	{"exp10", clOp(CLExp10), func(x float64) float64 { return math.Exp(x * math.Ln10) }, cr},
	{"expm1", clOp(CLExpm1), math.Expm1, cr},
	{"log10", clOp(CLLog10), math.Log10, cr},
	{"log1p", clOp(CLLog1p), math.Log1p, cr},
	{"logb", clOp(CLLogb), math.Logb, 0},
	{"rint", clOp(CLRint), math.RoundToEven, 0},
	{"round", clOp(CLRound), math.Round, 0},
	{"rsqrt", clOp(CLRsqrt), func(x float64) float64 { return 1 / math.Sqrt(x) }, cr},
	{"tgamma", clOp(CLTgamma), math.Gamma, cr},
	{"lgamma", clOp(CLLgamma), func(x float64) float64 {
		if math.IsInf(x, -1) {
			return math.Inf(1) // C99 F.9.5.3; math.Lgamma says -Inf
		}
		v, _ := math.Lgamma(x)
		return v
	}, cr},
	{"half_recip", clOp(CLHalfRecip), func(x float64) float64 { return 1 / x }, 0.5},
	{"native_exp2", clOp(CLNativeExp2), math.Exp2, cr},
	{"acos", clOp(CLAcos), math.Acos, cr},
	{"acosh", clOp(CLAcosh), math.Acosh, cr},
	{"asin", clOp(CLAsin), math.Asin, cr},
	{"asinh", clOp(CLAsinh), math.Asinh, cr},
	{"atan", clOp(CLAtan), math.Atan, cr},
	{"atanh", clOp(CLAtanh), math.Atanh, cr},
	{"cos", clOp(CLCos), math.Cos, cr},
	{"cosh", clOp(CLCosh), math.Cosh, cr},
	{"exp", clOp(CLExp), math.Exp, cr},
	{"exp2", clOp(CLExp2), math.Exp2, cr},
	{"log", clOp(CLLog), math.Log, cr},
	{"log2", clOp(CLLog2), math.Log2, cr},
	{"sin", clOp(CLSin), math.Sin, cr},
	{"sinh", clOp(CLSinh), math.Sinh, cr},
	{"sqrt", clOp(CLSqrt), math.Sqrt, cr},
	{"tan", clOp(CLTan), math.Tan, cr},
	{"tanh", clOp(CLTanh), math.Tanh, cr},
	{"ceil", clOp(CLCeil), math.Ceil, cr},
	{"floor", clOp(CLFloor), math.Floor, cr},
	{"trunc", clOp(CLTrunc), math.Trunc, cr},
	{"fabs", clOp(CLFabs), math.Abs, cr},
	{"half_cos", clOp(CLHalfCos), math.Cos, cr},
	{"half_sin", clOp(CLHalfSin), math.Sin, cr},
	{"half_tan", clOp(CLHalfTan), math.Tan, cr},
	{"half_exp", clOp(CLHalfExp), math.Exp, cr},
	{"half_exp2", clOp(CLHalfExp2), math.Exp2, cr},
	{"half_log", clOp(CLHalfLog), math.Log, cr},
	{"half_log2", clOp(CLHalfLog2), math.Log2, cr},
	{"half_log10", clOp(CLHalfLog10), math.Log10, cr},
	{"half_sqrt", clOp(CLHalfSqrt), math.Sqrt, cr},
	{"native_cos", clOp(CLNativeCos), math.Cos, cr},
	{"native_sin", clOp(CLNativeSin), math.Sin, cr},
	{"native_tan", clOp(CLNativeTan), math.Tan, cr},
	{"native_exp", clOp(CLNativeExp), math.Exp, cr},
	{"native_log", clOp(CLNativeLog), math.Log, cr},
	{"native_log2", clOp(CLNativeLog2), math.Log2, cr},
	{"native_log10", clOp(CLNativeLog10), math.Log10, cr},
	{"native_sqrt", clOp(CLNativeSqrt), math.Sqrt, cr},
	{"half_exp10", clOp(CLHalfExp10), func(x float64) float64 { return math.Exp(x * math.Ln10) }, cr},
	{"native_exp10", clOp(CLNativeExp10), func(x float64) float64 { return math.Exp(x * math.Ln10) }, cr},
	{"half_rsqrt", clOp(CLHalfRsqrt), func(x float64) float64 { return 1 / math.Sqrt(x) }, cr},
	{"native_rsqrt", clOp(CLNativeRsqrt), func(x float64) float64 { return 1 / math.Sqrt(x) }, cr},
	{"native_recip", clOp(CLNativeRecip), func(x float64) float64 { return 1 / x }, 0.5},
	{"degrees", clOp(CLDegrees), func(x float64) float64 { return x / math.Pi * 180 }, cr},
	{"radians", clOp(CLRadians), func(x float64) float64 { return x / 180 * math.Pi }, cr},
	{"sign", clOp(CLSign), func(x float64) float64 {
		if math.IsNaN(x) {
			return 0
		}
		if x == 0 {
			return x
		}
		return math.Copysign(1, x)
	}, 0},
}

// TestHalfExhaustive runs every float16 code through each unary op and
// checks the result against the float64 reference: correctly rounded (up to
// reference noise) where the bound is cr, exact where it is 0. Vulkan's
// float16 bounds are far looser; this catches reduction and special-case
// mistakes at every exponent.
func TestHalfExhaustive(t *testing.T) {
	for _, h := range halfRefs {
		bad := 0
		for code := range 1 << 16 {
			x := ToFloat64(uint64(code), 16)
			out, _, err := h.eval(f16t(1), []Arg{{T: f16t(1), V: Value{uint64(code)}}})
			if err != nil {
				t.Fatalf("%s: %v", h.name, err)
			}
			got := ToFloat64(out[0], 16)
			ref := h.ref(x)
			ok := false
			if h.ulps == 0 {
				ok = sameFloat(got, roundTo(ref, 16)) || (math.IsNaN(ref) && math.IsNaN(got))
			} else {
				ok = withinULP(got, ref, 16, h.ulps)
				if ok && ref == 0 && got == 0 && !math.IsNaN(x) {
					ok = math.Signbit(got) == math.Signbit(ref)
				}
			}
			if !ok {
				if bad < 5 {
					t.Errorf("%s(%#04x = %g) = %g (%#04x), reference %g", h.name, code, x, got, out[0], ref)
				}
				bad++
			}
		}
		if bad > 0 {
			t.Errorf("%s: %d of 65536 inputs out of bounds", h.name, bad)
		}
	}
}

// TestFloat32Random checks float32 results of the composite functions (our
// own reductions and formulas) against float64 references on random inputs
// spread over all exponents, with OpenCL's full-profile ULP bounds.
func TestFloat32Random(t *testing.T) {
	type rc struct {
		name string
		eval func(Type, []Arg) (Value, Value, error)
		ref  func(x float64) float64
		ulps float64
	}
	cases := []rc{
		{"sinpi", clOp(CLSinpi), refSinpi, 4},
		{"cospi", clOp(CLCospi), refCospi, 4},
		{"tanpi", clOp(CLTanpi), refTanpi, 6},
		{"acospi", clOp(CLAcospi), func(x float64) float64 { return math.Acos(x) / math.Pi }, 5},
		{"exp10", clOp(CLExp10), func(x float64) float64 { return math.Exp(x * math.Ln10) }, 3},
		{"Fract", glslOp(GLSLFract), func(x float64) float64 { return x - math.Floor(x) }, 0.5},
		{"Sqrt", glslOp(GLSLSqrt), math.Sqrt, 0.5},
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for _, c := range cases {
		for i := range 200000 {
			var x float64
			if i%2 == 0 {
				x = float64(math.Float32frombits(rng.Uint32()))
			} else {
				x = float64(float32((rng.Float64() - 0.5) * 8)) // dense near the special points
			}
			if math.IsNaN(x) {
				continue
			}
			out, _, err := c.eval(f32t(1), []Arg{fa(32, x)})
			if err != nil {
				t.Fatal(err)
			}
			got := ToFloat64(out[0], 32)
			ref := c.ref(x)
			if !withinULP(got, ref, 32, c.ulps) {
				t.Fatalf("%s(%g) = %g, reference %g (%.2f ulp)", c.name, x, got, ref, math.Abs(got-ref)/ulpOf(ref, 32))
			}
		}
	}
}

// bigRound rounds an exact big.Float to width w (nearest even, subnormals
// and overflow included) and returns the float64 value.
func bigRound(v *big.Float, w uint8) float64 {
	if w == 64 {
		f, _ := v.Float64()
		return f
	}
	if w == 32 {
		f, _ := v.Float32()
		return float64(f)
	}
	// float16: scale into float32's normal range exactly, round to 11 bits
	// or to the subnormal quantum 2^-24.
	if v.Sign() == 0 {
		f, _ := v.Float64()
		return f
	}
	e := v.MantExp(nil) // v = m * 2^e, m in [0.5, 1)
	p := uint(11)
	if e-1 < -14 { // subnormal: fewer bits
		if bits := 11 - (-14 - (e - 1)); bits <= 0 {
			p = 0
		} else {
			p = uint(bits)
		}
	}
	if p == 0 {
		// below half the smallest subnormal? compare with 2^-25
		a := new(big.Float).Abs(v)
		c := a.Cmp(big.NewFloat(0x1p-25))
		if c <= 0 {
			return math.Copysign(0, float64(v.Sign()))
		}
		return math.Copysign(0x1p-24, float64(v.Sign()))
	}
	r := new(big.Float).SetPrec(p).SetMode(big.ToNearestEven).Set(v)
	f, _ := r.Float64()
	if math.Abs(f) > 65504 {
		return math.Inf(int(r.Sign()))
	}
	return f
}

// TestFmaExact compares Fma at every width with the exactly rounded a*b+c of
// math/big, on random and adversarial operands (products that cancel,
// sums near ties, subnormal results).
func TestFmaExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	gen := func(w uint8) float64 {
		switch rng.IntN(4) {
		case 0, 1: // 1 + i*2^-s with s about half the precision: products
			// with bits right at the rounding position of w
			s := (precision(w)+1)/2 + rng.IntN(3)
			v := ToFloat64(FromFloat64(1+float64(rng.IntN(16))*math.Ldexp(1, -s), w), w)
			if rng.IntN(2) == 0 {
				v = -v
			}
			return v
		}
		for {
			var b uint64
			switch w {
			case 16:
				b = rng.Uint64() & 0xFFFF
			case 32:
				b = rng.Uint64() & 0xFFFFFFFF
			default:
				b = rng.Uint64()
			}
			if x := ToFloat64(b, w); !math.IsNaN(x) && !math.IsInf(x, 0) {
				return x
			}
		}
	}
	for _, w := range []uint8{16, 32, 64} {
		for range 100000 {
			a, b, c := gen(w), gen(w), gen(w)
			switch rng.IntN(3) {
			case 0: // c cancels most of a*b
				c = -ToFloat64(FromFloat64(a*b, w), w)
			case 1: // c far below a*b: the float64 sum may land on a tie of w
				if p := a * b; p != 0 && !math.IsInf(p, 0) {
					c = ToFloat64(FromFloat64(math.Ldexp(math.Copysign(1, float64(rng.IntN(2)*2-1)), math.Ilogb(p)-precision(w)-1-rng.IntN(60)), w), w)
				}
			}
			out, _ := mustGLSL(t, GLSLFma, Type{Float, w, 1}, fa(w, a), fa(w, b), fa(w, c))
			got := ToFloat64(out[0], w)
			exact := new(big.Float).SetPrec(2200).SetFloat64(a)
			exact.Mul(exact, new(big.Float).SetFloat64(b))
			exact.Add(exact, new(big.Float).SetFloat64(c))
			want := bigRound(exact, w)
			if exact.Sign() == 0 {
				want = math.Copysign(0, a*b+c) // IEEE sign of an exact zero sum
			}
			if !sameFloat(got, want) && !(got == 0 && want == 0) {
				t.Fatalf("Fma f%d(%g, %g, %g) = %g, want %g", w, a, b, c, got, want)
			}
		}
	}
}

// TestLdexpExact checks Ldexp against math/big scaling and rounding.
func TestLdexpExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, w := range []uint8{16, 32, 64} {
		for range 50000 {
			var x float64
			for {
				x = ToFloat64(rng.Uint64()&mask(w), w)
				if !math.IsNaN(x) && !math.IsInf(x, 0) {
					break
				}
			}
			k := int64(rng.IntN(2300) - 1150)
			out, _ := mustGLSL(t, GLSLLdexp, Type{Float, w, 1}, fa(w, x), ia(32, k))
			got := ToFloat64(out[0], w)
			exact := new(big.Float).SetPrec(64).SetFloat64(x)
			exact.SetMantExp(exact, int(k))
			want := bigRound(exact, w)
			if w == 64 {
				// big.Float.Float64 rounds subnormals correctly too.
				want, _ = exact.Float64()
			}
			if x == 0 {
				want = x
			}
			if !sameFloat(got, want) && !(got == 0 && want == 0 && math.Signbit(got) == math.Signbit(x)) {
				t.Fatalf("Ldexp f%d(%g, %d) = %g, want %g", w, x, k, got, want)
			}
		}
	}
}

// TestFloat32Binary checks the two-operand float functions on random float32
// pairs against float64 references (correctly rounded up to reference noise).
func TestFloat32Binary(t *testing.T) {
	type bc struct {
		name string
		eval func(Type, []Arg) (Value, Value, error)
		ref  func(x, y float64) float64
		ulps float64
	}
	cases := []bc{
		{"Atan2", glslOp(GLSLAtan2), math.Atan2, cr},
		{"atan2", clOp(CLAtan2), math.Atan2, cr},
		{"atan2pi", clOp(CLAtan2pi), func(y, x float64) float64 { return math.Atan2(y, x) / math.Pi }, cr},
		{"hypot", clOp(CLHypot), math.Hypot, cr},
		{"fmod", clOp(CLFmod), math.Mod, 0},
		{"remainder", clOp(CLRemainder), math.Remainder, 0},
		{"pow", clOp(CLPow), math.Pow, 1},
		{"Pow", glslOp(GLSLPow), func(x, y float64) float64 {
			if x < 0 {
				return math.NaN()
			}
			return math.Pow(math.Abs(x), y)
		}, 1},
		{"powr", clOp(CLPowr), func(x, y float64) float64 {
			if x < 0 {
				return math.NaN()
			}
			return math.Pow(x, y)
		}, 1},
		{"half_divide", clOp(CLHalfDivide), func(x, y float64) float64 { return x / y }, 0.5},
		{"native_divide", clOp(CLNativeDivide), func(x, y float64) float64 { return x / y }, 0.5},
		{"half_powr", clOp(CLHalfPowr), func(x, y float64) float64 {
			if x < 0 {
				return math.NaN()
			}
			return math.Pow(x, y)
		}, 1},
		{"fdim", clOp(CLFdim), func(x, y float64) float64 { return math.Max(x-y, 0) }, 0.5},
	}
	rng := rand.New(rand.NewPCG(17, 18))
	for _, c := range cases {
		for i := range 30000 {
			var x, y float64
			if i%2 == 0 {
				x, y = float64(math.Float32frombits(rng.Uint32())), float64(math.Float32frombits(rng.Uint32()))
			} else {
				x, y = float64(float32((rng.Float64()-0.5)*16)), float64(float32((rng.Float64()-0.5)*16))
			}
			if math.IsNaN(x) || math.IsNaN(y) || (x == 0 && y == 0) {
				continue // special values are in the tables
			}
			if (c.name == "powr" || c.name == "half_powr") && (x == 0 || math.IsInf(x, 0) || math.IsInf(y, 0)) {
				continue
			}
			out, _, err := c.eval(f32t(1), []Arg{fa(32, x), fa(32, y)})
			if err != nil {
				t.Fatal(err)
			}
			got := ToFloat64(out[0], 32)
			ref := c.ref(x, y)
			if !withinULP(got, ref, 32, c.ulps) {
				t.Fatalf("%s(%g, %g) = %g, reference %g", c.name, x, y, got, ref)
			}
		}
	}
}
