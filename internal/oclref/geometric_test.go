package oclref

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"
	"testing"
)

// The geometric functions (OpenCL C 1.2 §6.12.5): dot, cross, distance,
// length, normalize and the fast_ variants, for float and double at every
// width they take, modelled on OpenCL-CTS test_conformance/geometrics.
//
// Inputs are CTS's: random components in [-512, 512], its tricky values
// (±FLT_EPSILON, ±2^±63, ±1.5·2^±63, ±2^±64, ±FLT_MAX/2, ±inf, ±0) alone
// and in combination, and components of random binary exponents, which
// CTS does not have; for double the tricky values add ±DBL_MAX/2 and
// ±2^±600, where squares leave float64's range.
//
// Each result is judged against the exact value (math/big: sums of
// products and square roots at 4400 bits, rounded once), with CTS's
// bounds, ε being the type's epsilon (CTS uses FLT_EPSILON for double too;
// an exact reference needs no slack):
//
//	dot            |error| ≤ max|input|² · (2n−1) · ε
//	cross          |error| ≤ (max of the four inputs of a component)² · 3ε
//	length         3 + 0.5·(0.5n + 0.5(n−1)) ulp
//	distance       3 + 1.5n + 0.5(n−1) ulp
//	normalize      2.5 + 0.5n + 0.5(n−1) ulp
//	fast_length    8192 + 0.5n + 0.5(n−1) ulp (float only, as fast_distance
//	fast_distance  8192 + 1.5n + 0.5(n−1) ulp  and fast_normalize)
//	fast_normalize 8192.5 + 0.5n + 0.5(n−1) ulp
//
// A result whose exact value overflows the type must be the infinity of
// its sign. Where an input is infinite or NaN, the reference is CTS's:
// the formula in IEEE float64 (NaN if any component is NaN; length and
// distance +inf otherwise; normalize maps infinite components to ±1 and
// the others to ±0 first). normalize of a zero vector returns it. PoCL's
// results are judged by the same reference; where PoCL is out of bound
// the count is logged, and only spvx fails the test.

// geoFn is one geometric function.
type geoFn struct {
	name      string
	args      int  // vector operands
	vec       bool // the result is a vector
	floatOnly bool // the fast_ variants have no double overload
	widths    []int
}

var geoFns = []geoFn{
	{name: "dot", args: 2, widths: []int{1, 2, 3, 4}},
	{name: "cross", args: 2, vec: true, widths: []int{3, 4}},
	{name: "distance", args: 2, widths: []int{1, 2, 3, 4}},
	{name: "length", args: 1, widths: []int{1, 2, 3, 4}},
	{name: "normalize", args: 1, vec: true, widths: []int{1, 2, 3, 4}},
	{name: "fast_distance", args: 2, floatOnly: true, widths: []int{1, 2, 3, 4}},
	{name: "fast_length", args: 1, floatOnly: true, widths: []int{1, 2, 3, 4}},
	{name: "fast_normalize", args: 1, vec: true, floatOnly: true, widths: []int{1, 2, 3, 4}},
}

const geoVectors = 480

// geoTricky are CTS's tricky values, and for double a few whose squares
// leave float64's range.
func geoTricky(t clType) []float64 {
	vs := []float64{-0x1p-23, 0x1p-23, 0x1p63, 0x1.8p63, 0x1p64, -0x1p63, -0x1.8p-63, -0x1p64,
		0x1p-63, 0x1.8p-63, 0x1p-64, -0x1p-63, -0x1p-64,
		math.MaxFloat32 / 2, -math.MaxFloat32 / 2, math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1)}
	if t.size == 8 {
		vs = append(vs, math.MaxFloat64/2, -math.MaxFloat64/2, 0x1p600, -0x1p-600, 0x1p-1074)
	}
	return vs
}

// geoInputs returns the operands' components, vector after vector.
func geoInputs(t clType, w, args int, rng *rand.Rand) [][]float64 {
	tricky := geoTricky(t)
	ops := make([][]float64, args)
	for a := range ops {
		ops[a] = make([]float64, geoVectors*w)
	}
	maxExp := 120
	if t.size == 8 {
		maxExp = 1000
	}
	for v := 0; v < geoVectors; v++ {
		for a := range ops {
			for j := 0; j < w; j++ {
				var x float64
				switch {
				case v < len(tricky)*w: // one tricky component, the others 0
					if j == v%w {
						x = tricky[v/w]
					}
				case v < 3*len(tricky)*w: // tricky components everywhere
					x = tricky[rng.IntN(len(tricky))]
				case v%3 == 0: // any binary exponent
					x = math.Ldexp(rng.Float64()+0.5, rng.IntN(2*maxExp)-maxExp)
					if rng.IntN(2) == 0 {
						x = -x
					}
				default:
					x = -512 + 1024*rng.Float64()
				}
				if a == 1 && v >= len(tricky)*w && v < 2*len(tricky)*w && rng.IntN(2) == 0 {
					x = ops[0][v*w+j] // distance of a vector to itself, and near it
				}
				ops[a][v*w+j] = roundTo(x, t)
			}
		}
	}
	ops[0][rng.IntN(geoVectors)*w] = math.NaN()
	return ops
}

const geoPrec = 4400 // exact sums of squares of doubles: exponents from -2148 to 2048

func bigOf(x float64) *big.Float { return new(big.Float).SetPrec(geoPrec).SetFloat64(x) }

// geoExact is the exact value of f on one vector (finite inputs), as
// float64 (±inf beyond its range; the verdict rounds to the type).
func geoExact(f *geoFn, a, b []float64) []float64 {
	sumSq := func(xs []*big.Float) *big.Float {
		s := bigOf(0)
		for _, x := range xs {
			s.Add(s, new(big.Float).SetPrec(geoPrec).Mul(x, x))
		}
		return s
	}
	vec := func(xs []float64) []*big.Float {
		out := make([]*big.Float, len(xs))
		for i, x := range xs {
			out[i] = bigOf(x)
		}
		return out
	}
	f64 := func(x *big.Float) float64 { v, _ := x.Float64(); return v }
	switch f.name {
	case "dot":
		s := bigOf(0)
		for i := range a {
			s.Add(s, new(big.Float).SetPrec(geoPrec).Mul(bigOf(a[i]), bigOf(b[i])))
		}
		return []float64{f64(s)}
	case "cross":
		out := make([]float64, len(a))
		for i := 0; i < 3; i++ {
			out[i] = crossComponent(a, b, i)
		}
		return out
	case "length", "fast_length":
		return []float64{f64(new(big.Float).SetPrec(geoPrec).Sqrt(sumSq(vec(a))))}
	case "distance", "fast_distance":
		d := vec(a)
		for i := range d {
			d[i].Sub(d[i], bigOf(b[i]))
		}
		return []float64{f64(new(big.Float).SetPrec(geoPrec).Sqrt(sumSq(d)))}
	default: // normalize
		s := sumSq(vec(a))
		if s.Sign() == 0 {
			return append([]float64(nil), a...)
		}
		n := new(big.Float).SetPrec(geoPrec).Sqrt(s)
		out := make([]float64, len(a))
		for i := range a {
			out[i] = f64(new(big.Float).SetPrec(geoPrec).Quo(bigOf(a[i]), n))
		}
		return out
	}
}

// geoSpecial is CTS's reference where a component is infinite or NaN.
func geoSpecial(f *geoFn, a, b []float64) []float64 {
	hasNaN := func(xs []float64) bool {
		for _, x := range xs {
			if math.IsNaN(x) {
				return true
			}
		}
		return false
	}
	switch f.name {
	case "dot":
		s := 0.0
		for i := range a {
			s += a[i] * b[i]
		}
		return []float64{s}
	case "cross":
		out := make([]float64, len(a))
		for i := 0; i < 3; i++ {
			j, k := (i+1)%3, (i+2)%3
			if finite(a[j], a[k], b[j], b[k]) {
				out[i] = crossComponent(a, b, i)
				continue
			}
			out[i] = a[j]*b[k] - a[k]*b[j]
		}
		return out
	case "length", "fast_length":
		if hasNaN(a) {
			return []float64{math.NaN()}
		}
		return []float64{math.Inf(1)}
	case "distance", "fast_distance":
		d := make([]float64, len(a))
		for i := range a {
			d[i] = a[i] - b[i]
		}
		if hasNaN(d) {
			return []float64{math.NaN()}
		}
		return []float64{math.Inf(1)}
	default: // normalize
		out := make([]float64, len(a))
		if hasNaN(a) {
			for i := range out {
				out[i] = math.NaN()
			}
			return out
		}
		for i, x := range a {
			out[i] = math.Copysign(0, x)
			if math.IsInf(x, 0) {
				out[i] = math.Copysign(1, x)
			}
		}
		return geoExact(f, out, nil)
	}
}

// crossComponent is component i of a×b, exactly (finite inputs).
func crossComponent(a, b []float64, i int) float64 {
	j, k := (i+1)%3, (i+2)%3
	p := new(big.Float).SetPrec(geoPrec).Mul(bigOf(a[j]), bigOf(b[k]))
	q := new(big.Float).SetPrec(geoPrec).Mul(bigOf(a[k]), bigOf(b[j]))
	v, _ := p.Sub(p, q).Float64()
	return v
}

func finite(xs ...float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// geoULPBound is CTS's ulp bound for the functions judged in ulps.
func geoULPBound(name string, n int) float64 {
	fn := float64(n)
	switch name {
	case "length":
		return 3 + 0.5*(0.5*fn+0.5*(fn-1))
	case "distance":
		return 3 + 1.5*fn + 0.5*(fn-1)
	case "normalize":
		return 2.5 + 0.5*fn + 0.5*(fn-1)
	case "fast_length":
		return 8192 + 0.5*fn + 0.5*(fn-1)
	case "fast_distance":
		return 8192 + 1.5*fn + 0.5*(fn-1)
	case "fast_normalize":
		return 8192.5 + 0.5*fn + 0.5*(fn-1)
	}
	return -1
}

// geoVerdict judges one result component: "" or why it is wrong.
func geoVerdict(f *geoFn, t clType, w, comp int, got, ref float64, a, b []float64) string {
	if strings.HasPrefix(f.name, "fast_") {
		// the spec defines these by a formula (half_sqrt or half_rsqrt of
		// the sum of squares): where float's squares overflow or lose
		// their low bits, what the formula gives is right too
		n := geoFastFormula(f, comp, a, b)
		if math.IsInf(n, 0) && got == n || f.name == "fast_normalize" && math.IsInf(geoFastFormula(&geoFn{name: "fast_length"}, 0, a, nil), 1) {
			return ""
		}
		if _, ok := mathVerdict(got, n, t, geoULPBound(f.name, w)); ok && finite(n) {
			return ""
		}
	}
	if f.name != "dot" && f.name != "cross" {
		if d, ok := mathVerdict(got, ref, t, geoULPBound(f.name, w)); !ok {
			return fmt.Sprintf("%g, exact %g (%.1f ulp, bound %g)", got, ref, d, geoULPBound(f.name, w))
		}
		return ""
	}
	// dot and cross: absolute bounds; an overflow may give the infinity
	eps := 0x1p-23
	if t.size == 8 {
		eps = 0x1p-52
	}
	// The naive formula in t's own arithmetic, where it overflows: the
	// spec asks for no wider intermediates, and CTS's double reference is
	// this formula.
	if n := geoNaive(f, t, comp, a, b); !finite(n) && (got == n || math.IsNaN(got) && math.IsNaN(n)) {
		return ""
	}
	switch {
	case math.IsNaN(ref) || math.IsNaN(got):
		if math.IsNaN(ref) != math.IsNaN(got) {
			return fmt.Sprintf("%g, want %g", got, ref)
		}
		return ""
	case math.IsInf(roundTo(ref, t), 0) && got == roundTo(ref, t):
		return ""
	}
	var m, tol float64
	if f.name == "dot" {
		for i := range a {
			m = math.Max(m, math.Max(math.Abs(a[i]), math.Abs(b[i])))
		}
		tol = m * m * float64(2*w-1) * eps
	} else if comp < 3 {
		j, k := (comp+1)%3, (comp+2)%3
		m = math.Max(math.Max(math.Abs(a[j]), math.Abs(a[k])), math.Max(math.Abs(b[j]), math.Abs(b[k])))
		tol = m * m * 3 * eps
	}
	tol += ulpOf(ref, t) / 2 // the result's own rounding
	if err := math.Abs(got - ref); !(err <= tol) {
		return fmt.Sprintf("%g, exact %g (error %g, bound %g)", got, ref, err, tol)
	}
	return ""
}

// geoNaive is component comp of dot or cross computed as written, each
// operation rounded to t.
func geoNaive(f *geoFn, t clType, comp int, a, b []float64) float64 {
	mul := func(x, y float64) float64 { return roundTo(x*y, t) } // exact in float64 for float
	sub := func(x, y float64) float64 { return roundTo(x-y, t) }
	if t.size == 4 {
		mul = func(x, y float64) float64 { return float64(float32(x) * float32(y)) }
		sub = func(x, y float64) float64 { return float64(float32(x) - float32(y)) }
	}
	if f.name == "cross" {
		if comp > 2 {
			return 0
		}
		j, k := (comp+1)%3, (comp+2)%3
		return sub(mul(a[j], b[k]), mul(a[k], b[j]))
	}
	s := mul(a[0], b[0])
	for i := 1; i < len(a); i++ {
		s = sub(s, -mul(a[i], b[i]))
	}
	return s
}

// geoFastFormula is component comp of a fast_ variant by its formula, the
// squares and their sum in float and the root exact.
func geoFastFormula(f *geoFn, comp int, a, b []float64) float64 {
	var s float32
	for i, x := range a {
		if f.name == "fast_distance" {
			x = float64(float32(x) - float32(b[i]))
		}
		s += float32(x) * float32(x)
	}
	if f.name == "fast_normalize" {
		return a[comp] / math.Sqrt(float64(s))
	}
	return math.Sqrt(float64(s))
}

// geoOutOfBound counts PoCL's results outside the bound, per function and
// type (logged).
var geoOutOfBound = struct {
	sync.Mutex
	m map[string]int
}{m: map[string]int{}}

func geoCase(f *geoFn, t clType, w int, rng *rand.Rand) famCase {
	ops := geoInputs(t, w, f.args, rng)
	b := &builtin{}
	name := fmt.Sprintf("g_%s_%s", f.name, vecName(t, w))
	var params, call []string
	var args []Arg
	for k := range ops {
		params = append(params, fmt.Sprintf("__global const %s* a%d", t.name, k))
		call = append(call, b.load(t, w, fmt.Sprintf("a%d", k)))
		data := make([]byte, t.size*len(ops[k]))
		for i, x := range ops[k] {
			putLE(data[t.size*i:], t.size, floatBits(x, t))
		}
		args = append(args, Arg{Kind: Buffer, Data: data})
	}
	rw := 1
	if f.vec {
		rw = w
	}
	params = append(params, fmt.Sprintf("__global %s* out", t.name))
	args = append(args, Arg{Kind: Buffer, Data: make([]byte, t.size*rw*geoVectors)})
	expr := fmt.Sprintf("%s(%s)", f.name, strings.Join(call, ", "))
	return famCase{
		kernel: name,
		src:    fmt.Sprintf("__kernel void %s(%s) { size_t i = get_global_id(0); %s }", name, strings.Join(params, ", "), b.store(t, rw, expr)),
		run:    Run{Global: [3]int{geoVectors}, Args: args},
		cmp:    geoCompare(f, t, w, rw, ops),
	}
}

func geoCompare(f *geoFn, t clType, w, rw int, ops [][]float64) ElemCompare {
	return func(_, arg int, got, want []byte) (int, string) {
		if arg < len(ops) {
			return firstDiff(got, want)
		}
		for v := 0; v < geoVectors; v++ {
			a := ops[0][v*w : v*w+w]
			var b []float64
			if len(ops) > 1 {
				b = ops[1][v*w : v*w+w]
			}
			var ref []float64
			if finite(a...) && finite(b...) {
				ref = geoExact(f, a, b)
			} else {
				ref = geoSpecial(f, a, b)
			}
			for c := 0; c < rw; c++ {
				off := t.size * (v*rw + c)
				g := bitsFloat(le(got[off:], t.size), t)
				p := bitsFloat(le(want[off:], t.size), t)
				if msg := geoVerdict(f, t, w, c, g, ref[c], a, b); msg != "" {
					return off, fmt.Sprintf("vector %d component %d (inputs %v %v): spvx %s; PoCL %g", v, c, a, b, msg, p)
				}
				if geoVerdict(f, t, w, c, p, ref[c], a, b) != "" {
					geoOutOfBound.Lock()
					geoOutOfBound.m[fmt.Sprintf("%s(%s)", f.name, vecName(t, w))]++
					geoOutOfBound.Unlock()
				}
			}
		}
		return -1, ""
	}
}

func TestGeometric(t *testing.T) {
	rng := rand.New(rand.NewPCG(65, 3))
	var cases []famCase
	for i := range geoFns {
		f := &geoFns[i]
		for _, ft := range floatTypes {
			if f.floatOnly && ft.size == 8 {
				continue
			}
			for _, w := range f.widths {
				cases = append(cases, geoCase(f, ft, w, rng))
			}
		}
	}
	runFamily(t, fp64Header, "CL1.2", cases, 60)
	geoOutOfBound.Lock()
	defer geoOutOfBound.Unlock()
	var keys []string
	for k, n := range geoOutOfBound.m {
		keys = append(keys, fmt.Sprintf("%s: %d", k, n))
	}
	sort.Strings(keys)
	if len(keys) > 0 {
		t.Logf("PoCL results outside the bound (not failed): %s", strings.Join(keys, ", "))
	}
}
