package extinst

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"
)

// TestAccuracyDump writes float64 results of the OpenCL math functions on
// random arguments to the file named by EXTINST_ACCURACY_DUMP, for
// testdata/accuracy.py to compare with mpmath (see ACCURACY.md). It is
// skipped otherwise.
func TestAccuracyDump(t *testing.T) {
	path := os.Getenv("EXTINST_ACCURACY_DUMP")
	if path == "" {
		t.Skip("EXTINST_ACCURACY_DUMP not set")
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rng := rand.New(rand.NewPCG(1, 1))
	type u struct {
		name     string
		op       uint32
		lo, hi   float64
		logscale bool
	}
	un := []u{{"sin", CLSin, -1e6, 1e6, false}, {"cos", CLCos, -1e6, 1e6, false}, {"tan", CLTan, -100, 100, false},
		{"asin", CLAsin, -1, 1, false}, {"acos", CLAcos, -1, 1, false}, {"atan", CLAtan, -1e3, 1e3, false},
		{"sinh", CLSinh, -700, 700, false}, {"cosh", CLCosh, -700, 700, false}, {"tanh", CLTanh, -20, 20, false},
		{"asinh", CLAsinh, -1e6, 1e6, false}, {"acosh", CLAcosh, 1, 1e6, false}, {"atanh", CLAtanh, -1, 1, false},
		{"exp", CLExp, -700, 700, false}, {"exp2", CLExp2, -1000, 1000, false}, {"expm1", CLExpm1, -5, 5, false},
		{"log", CLLog, -300, 300, true}, {"log2", CLLog2, -300, 300, true}, {"log10", CLLog10, -300, 300, true},
		{"log1p", CLLog1p, -0.9, 10, false}, {"cbrt", CLCbrt, -300, 300, true}, {"erf", CLErf, -6, 6, false},
		{"erfc", CLErfc, -6, 26, false}, {"acospi", CLAcospi, -1, 1, false}, {"asinpi", CLAsinpi, -1, 1, false},
		{"atanpi", CLAtanpi, -1e3, 1e3, false}, {"sinpi", CLSinpi, -1e3, 1e3, false}, {"cospi", CLCospi, -1e3, 1e3, false},
		{"tanpi", CLTanpi, -1e3, 1e3, false}, {"exp10", CLExp10, -300, 300, false}, {"rsqrt", CLRsqrt, -300, 300, true},
		{"tgamma", CLTgamma, -170, 171, false}, {"lgamma", CLLgamma, 0.01, 1e5, false}, {"sqrt", CLSqrt, -300, 300, true}}
	for _, c := range un {
		for range 400 {
			var x float64
			if c.logscale {
				x = math.Pow(10, c.lo+(c.hi-c.lo)*rng.Float64())
			} else {
				x = c.lo + (c.hi-c.lo)*rng.Float64()
			}
			if rng.IntN(4) == 0 && !c.logscale {
				x = (c.lo + (c.hi-c.lo)*rng.Float64()) * 1e-3
			}
			out, _, err := OpenCL(c.op, Type{Float, 64, 1}, []Arg{{T: Type{Float, 64, 1}, V: Value{math.Float64bits(x)}}})
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(f, "%s %x 0 %x\n", c.name, math.Float64bits(x), out[0])
		}
	}
	type b struct {
		name string
		op   uint32
	}
	for _, c := range []b{{"atan2", CLAtan2}, {"atan2pi", CLAtan2pi}, {"hypot", CLHypot}, {"pow", CLPow}, {"powr", CLPowr}} {
		for range 400 {
			x := (rng.Float64() - 0.5) * 200
			y := (rng.Float64() - 0.5) * 200
			if c.name == "pow" || c.name == "powr" {
				x = math.Pow(10, (rng.Float64()-0.5)*20)
				y = (rng.Float64() - 0.5) * 60
			}
			out, _, _ := OpenCL(c.op, Type{Float, 64, 1}, []Arg{{T: Type{Float, 64, 1}, V: Value{math.Float64bits(x)}}, {T: Type{Float, 64, 1}, V: Value{math.Float64bits(y)}}})
			fmt.Fprintf(f, "%s %x %x %x\n", c.name, math.Float64bits(x), math.Float64bits(y), out[0])
		}
	}
}
