package oclref

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// Built-in function families, each function at every element type and
// vector width it has: one kernel loads its operands from buffers (vloadN),
// calls the function and stores the result (vstoreN). The inputs cross a
// type's edge values with each other and add random ones.

const builtinElems = 480 // a multiple of every vector width

// builtin describes one built-in function's family of kernels.
type builtin struct {
	fn    string
	nargs int
	types []clType
	// arg gives operand k's element type for element type t (nil: t).
	arg func(t clType, k int) clType
	// res gives the result's element type at width w (nil: t).
	res func(t clType, w int) clType
	// fix adjusts element i's operands (raw bits) to the function's domain.
	fix func(t clType, ops [][]uint64, i int)
	// widths overrides vecWidths.
	widths []int
	// direct builds vectors without vloadN/vstoreN, which PoCL 3.1 lacks
	// under OpenCL C 2.0 (generic address space overloads).
	direct bool
	// cmp judges the result buffer (nil: elemCompare with NaNs equal);
	// ops are the operands' raw bits.
	cmp func(t, r clType, w int, ops [][]uint64) ElemCompare
}

var (
	intTypes   = convTypes[:8]
	floatTypes = convTypes[8:]
)

func typeNamed(name string) clType {
	for _, t := range convTypes {
		if t.name == name {
			return t
		}
	}
	panic(name)
}

// unsignedOf is the unsigned type of an integer type's size.
func unsignedOf(t clType) clType { return intTypes[2*log2(t.size)+1] }

// signedOf is the signed integer type of a type's size.
func signedOf(t clType) clType { return intTypes[2*log2(t.size)] }

func log2(n int) int {
	k := 0
	for n > 1 {
		n >>= 1
		k++
	}
	return k
}

func mask(t clType) uint64 { return math.MaxUint64 >> (64 - 8*t.size) }

// edgeBits are a type's edge values, raw.
func edgeBits(t clType) []uint64 {
	if t.kind == 'f' {
		var out []uint64
		for _, v := range []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -1.5, 2.5, math.Inf(1), math.Inf(-1), math.NaN(),
			math.MaxFloat32, 0x1p-126, -0x1p-149, 3.14159265358979, 100, -7} {
			out = append(out, floatBits(v, t))
		}
		if t.size == 8 {
			out = append(out, floatBits(math.MaxFloat64, t), floatBits(0x1p-1074, t), floatBits(0x1p-1022, t))
		}
		return out
	}
	lo, hi := intRange(t)
	m := mask(t)
	return []uint64{0, 1, m, uint64(lo) & m, hi, (uint64(lo) + 1) & m, hi - 1, 2, uint64(8*t.size - 1), uint64(8*t.size + 3)}
}

// randomBits is a random value of t: a random bit pattern, or a small or
// medium value, which exercise different paths than uniform bits.
func randomBits(t clType, rng *rand.Rand) uint64 {
	if t.kind == 'f' {
		switch rng.IntN(3) {
		case 0:
			return rng.Uint64() & mask(t)
		case 1:
			return floatBits((rng.Float64()*2-1)*math.Ldexp(1, rng.IntN(40)-20), t)
		}
		return floatBits(float64(rng.IntN(41)-20)*0.25, t)
	}
	switch rng.IntN(3) {
	case 0:
		return rng.Uint64() & mask(t)
	case 1:
		return uint64(rng.IntN(33)-16) & mask(t)
	}
	return rng.Uint64() >> (64 - 8*t.size + rng.IntN(8*t.size)) & mask(t)
}

// operands returns nargs operand arrays for the element types ts: the
// first elements cross the edge values of the first two operands, the rest
// are random.
func operands(ts []clType, rng *rand.Rand) [][]uint64 {
	ops := make([][]uint64, len(ts))
	for k := range ops {
		ops[k] = make([]uint64, builtinElems)
	}
	e0 := edgeBits(ts[0])
	var e1 []uint64
	if len(ts) > 1 {
		e1 = edgeBits(ts[1])
	}
	for i := range builtinElems {
		for k, t := range ts {
			ops[k][i] = randomBits(t, rng)
		}
		switch {
		case len(ts) == 1 && i < len(e0):
			ops[0][i] = e0[i]
		case len(ts) > 1 && i < len(e0)*len(e1):
			ops[0][i], ops[1][i] = e0[i%len(e0)], e1[i/len(e0)]
		}
	}
	return ops
}

func (b *builtin) argType(t clType, k int) clType {
	if b.arg == nil {
		return t
	}
	return b.arg(t, k)
}

func (b *builtin) resType(t clType, w int) clType {
	if b.res == nil {
		return t
	}
	return b.res(t, w)
}

func vecName(t clType, w int) string {
	if w == 1 {
		return t.name
	}
	return fmt.Sprint(t.name, w)
}

// cases makes the kernels of a built-in at every type and width.
func (b *builtin) cases(rng *rand.Rand) []famCase {
	widths := b.widths
	if widths == nil {
		widths = vecWidths
	}
	var out []famCase
	for _, t := range b.types {
		ts := make([]clType, b.nargs)
		for k := range ts {
			ts[k] = b.argType(t, k)
		}
		for _, w := range widths {
			ops := operands(ts, rng)
			if b.fix != nil {
				for i := range builtinElems {
					b.fix(t, ops, i)
				}
			}
			out = append(out, b.kernel(t, ts, w, ops))
		}
	}
	return out
}

func (b *builtin) kernel(t clType, ts []clType, w int, ops [][]uint64) famCase {
	r := b.resType(t, w)
	name := fmt.Sprintf("b_%s_%s", b.fn, vecName(t, w))
	var params, call []string
	var args []Arg
	for k, at := range ts {
		params = append(params, fmt.Sprintf("__global const %s* a%d", at.name, k))
		call = append(call, b.load(at, w, fmt.Sprintf("a%d", k)))
		data := make([]byte, at.size*builtinElems)
		for i, v := range ops[k] {
			putLE(data[at.size*i:], at.size, v)
		}
		args = append(args, Arg{Kind: Buffer, Data: data})
	}
	params = append(params, fmt.Sprintf("__global %s* out", r.name))
	args = append(args, Arg{Kind: Buffer, Data: make([]byte, r.size*builtinElems)})
	expr := fmt.Sprintf("%s(%s)", b.fn, strings.Join(call, ", "))
	store := b.store(r, w, expr)
	c := famCase{
		kernel: name,
		src:    fmt.Sprintf("__kernel void %s(%s) { size_t i = get_global_id(0); %s }", name, strings.Join(params, ", "), store),
		run:    Run{Global: [3]int{builtinElems / w}, Args: args},
		cmp:    elemCompare(len(ts), r.size, r.kind == 'f', nil),
	}
	if b.cmp != nil {
		c.cmp = b.cmp(t, r, w, ops)
	}
	return c
}

// load is the expression of element i of a vector of w ts at p.
func (b *builtin) load(t clType, w int, p string) string {
	switch {
	case w == 1:
		return p + "[i]"
	case !b.direct:
		return fmt.Sprintf("vload%d(i, %s)", w, p)
	case w == 3:
		return fmt.Sprintf("(%s3)(%[2]s[3*i], %[2]s[3*i+1], %[2]s[3*i+2])", t.name, p)
	}
	return fmt.Sprintf("((__global const %s*)%s)[i]", vecName(t, w), p)
}

// store is the statement storing expr as element i of out.
func (b *builtin) store(r clType, w int, expr string) string {
	switch {
	case w == 1:
		return fmt.Sprintf("out[i] = %s;", expr)
	case !b.direct:
		return fmt.Sprintf("vstore%d(%s, i, out);", w, expr)
	case w == 3:
		return fmt.Sprintf("%s3 r = %s; out[3*i] = r.s0; out[3*i+1] = r.s1; out[3*i+2] = r.s2;", r.name, expr)
	}
	return fmt.Sprintf("((__global %s*)out)[i] = %s;", vecName(r, w), expr)
}

func familyCases(seed uint64, bs []builtin) []famCase {
	rng := rand.New(rand.NewPCG(seed, 3))
	var cases []famCase
	for i := range bs {
		cases = append(cases, bs[i].cases(rng)...)
	}
	return cases
}

// ---- integer functions (OpenCL C 6.15.3)

func integerBuiltins() []builtin {
	same := func(fn string, n int) builtin { return builtin{fn: fn, nargs: n, types: intTypes} }
	unsignedRes := func(t clType, _ int) clType { return unsignedOf(t) }
	bs := []builtin{
		{fn: "abs", nargs: 1, types: intTypes, res: unsignedRes},
		{fn: "abs_diff", nargs: 2, types: intTypes, res: unsignedRes},
		same("add_sat", 2), same("hadd", 2), same("rhadd", 2), same("clz", 1), same("popcount", 1),
		same("mad_hi", 3), same("mad_sat", 3), same("max", 2), same("min", 2), same("mul_hi", 2),
		same("rotate", 2), same("sub_sat", 2),
		{fn: "clamp", nargs: 3, types: intTypes, fix: orderBounds},
		{fn: "upsample", nargs: 2, types: []clType{typeNamed("char"), typeNamed("uchar"), typeNamed("short"), typeNamed("ushort"),
			typeNamed("int"), typeNamed("uint")},
			arg: func(t clType, k int) clType {
				if k == 1 {
					return unsignedOf(t)
				}
				return t
			},
			res: func(t clType, _ int) clType { return intTypes[2*log2(2*t.size)+int(t.kind-'i')/('u'-'i')] }},
		{fn: "mul24", nargs: 2, types: []clType{typeNamed("int"), typeNamed("uint")}, fix: fit24},
		{fn: "mad24", nargs: 3, types: []clType{typeNamed("int"), typeNamed("uint")}, fix: fit24},
	}
	return bs
}

// orderBounds makes clamp's minval <= maxval (otherwise undefined).
func orderBounds(t clType, ops [][]uint64, i int) {
	lo, hi := ops[1][i], ops[2][i]
	if less(t, hi, lo) {
		ops[1][i], ops[2][i] = hi, lo
	}
}

func less(t clType, a, b uint64) bool {
	switch t.kind {
	case 'i':
		sh := 64 - 8*t.size
		return int64(a<<sh)>>sh < int64(b<<sh)>>sh
	case 'u':
		return a < b
	}
	return bitsFloat(a, t) < bitsFloat(b, t)
}

// fit24 keeps mul24/mad24's first two operands in the 24-bit range that
// defines them.
func fit24(t clType, ops [][]uint64, i int) {
	for k := 0; k < 2; k++ {
		v := ops[k][i] & 0xFFFFFF
		if t.kind == 'i' {
			v = uint64(int64(v<<40)>>40) & 0xFFFFFFFF
		}
		ops[k][i] = v
	}
}

func TestIntegerBuiltins(t *testing.T) {
	runFamily(t, "", "CL1.2", familyCases(31, integerBuiltins()), 120)
}

// ctz is OpenCL C 2.0.
func TestIntegerBuiltinsCL20(t *testing.T) {
	runFamily(t, "", "CL2.0", familyCases(32, []builtin{{fn: "ctz", nargs: 1, types: intTypes, direct: true}}), 120)
}

// ---- relational functions (OpenCL C 6.15.6)

// relRes is the result type of a float comparison: int for a scalar, the
// signed integer of the element's size for a vector.
func relRes(t clType, w int) clType {
	if w == 1 {
		return typeNamed("int")
	}
	return signedOf(t)
}

func relationalBuiltins() []builtin {
	var bs []builtin
	for _, fn := range []string{"isequal", "isnotequal", "isgreater", "isgreaterequal", "isless", "islessequal",
		"islessgreater", "isordered", "isunordered"} {
		bs = append(bs, builtin{fn: fn, nargs: 2, types: floatTypes, res: relRes})
	}
	for _, fn := range []string{"isfinite", "isinf", "isnan", "isnormal", "signbit"} {
		bs = append(bs, builtin{fn: fn, nargs: 1, types: floatTypes, res: relRes})
	}
	signed := []clType{typeNamed("char"), typeNamed("short"), typeNamed("int"), typeNamed("long")}
	for _, fn := range []string{"any", "all"} {
		bs = append(bs, builtin{fn: fn, nargs: 1, types: signed, res: func(clType, int) clType { return typeNamed("int") },
			cmp: func(t, r clType, w int, _ [][]uint64) ElemCompare {
				// one int per work-item, written to out[i]: only the first
				// builtinElems/w elements are results
				return elemCompare(1, 4, false, func(i int) bool { return i >= builtinElems/w })
			}})
	}
	bs = append(bs, builtin{fn: "bitselect", nargs: 3, types: convTypes})
	// select's third operand: an integer of the element's size; a vector's
	// component selects by its MSB, a scalar by != 0.
	for _, u := range []bool{false, true} {
		bs = append(bs, builtin{fn: "select", nargs: 3, types: convTypes, arg: func(t clType, k int) clType {
			if k < 2 {
				return t
			}
			if u {
				return unsignedOf(t)
			}
			return signedOf(t)
		}})
	}
	return bs
}

func TestRelationalBuiltins(t *testing.T) {
	cases := familyCases(33, relationalBuiltins())
	// the two select variants have the same kernel names: tell them apart
	seen := map[string]int{}
	for i := range cases {
		seen[cases[i].kernel]++
		if n := seen[cases[i].kernel]; n > 1 {
			old := cases[i].kernel
			cases[i].kernel = fmt.Sprintf("%s_u", old)
			cases[i].src = strings.Replace(cases[i].src, old+"(", cases[i].kernel+"(", 1)
		}
	}
	runFamily(t, fp64Header, "CL1.2", cases, 120)
}

// ---- common functions (OpenCL C 6.15.4)

func commonBuiltins() []builtin {
	noNaN := func(t clType, ops [][]uint64, i int) {
		for k := range ops {
			if v := bitsFloat(ops[k][i], t); math.IsNaN(v) {
				ops[k][i] = floatBits(1.25, t)
			}
		}
	}
	return []builtin{
		{fn: "clamp", nargs: 3, types: floatTypes, fix: func(t clType, ops [][]uint64, i int) { noNaN(t, ops, i); orderBounds(t, ops, i) },
			cmp: zeroSignFree},
		{fn: "max", nargs: 2, types: floatTypes, fix: noNaN, cmp: zeroSignFree},
		{fn: "min", nargs: 2, types: floatTypes, fix: noNaN, cmp: zeroSignFree},
		{fn: "step", nargs: 2, types: floatTypes, fix: noNaN},
		{fn: "sign", nargs: 1, types: floatTypes},
		{fn: "degrees", nargs: 1, types: floatTypes, cmp: ulpCompare(2)},
		{fn: "radians", nargs: 1, types: floatTypes, cmp: ulpCompare(2)},
	}
}

// zeroSignFree compares min, max and clamp with +0 and -0 equal. OpenCL C
// defines max(x, y) as "y if x < y, otherwise x", so max(+0, -0) is +0,
// which spvx gives; PoCL computes fmax, whose zero sign C leaves open.
func zeroSignFree(_, r clType, _ int, ops [][]uint64) ElemCompare {
	return func(_, a int, got, want []byte) (int, string) {
		if a != len(ops) {
			return firstDiff(got, want)
		}
		for i := 0; i+r.size <= len(got); i += r.size {
			g, w := bitsFloat(le(got[i:], r.size), r), bitsFloat(le(want[i:], r.size), r)
			if g != w && !(math.IsNaN(g) && math.IsNaN(w)) {
				return i, fmt.Sprintf("element %d: spvx %g, PoCL %g", i/r.size, g, w)
			}
		}
		return -1, ""
	}
}

func TestCommonBuiltins(t *testing.T) {
	runFamily(t, fp64Header, "CL1.2", familyCases(34, commonBuiltins()), 120)
}

// ---- vector shuffles (OpenCL C 6.15.12)

// TestShuffles: shuffle and shuffle2 at every element type, from and to
// widths 2, 4, 8 and 16, with masks whose high bits are set (only the low
// bits select, 6.15.12).
func TestShuffles(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 4))
	var cases []famCase
	for _, et := range convTypes {
		mt := unsignedOf(et)
		for _, n := range []int{2, 4, 8, 16} {
			for _, m := range []int{2, 4, 8, 16} {
				for _, two := range []bool{false, true} {
					cases = append(cases, shuffleCase(et, mt, n, m, two, rng))
				}
			}
		}
	}
	runFamily(t, fp64Header, "CL1.2", cases, 160)
}

func shuffleCase(et, mt clType, n, m int, two bool, rng *rand.Rand) famCase {
	const items = 16
	fn, yparam, yarg := "shuffle", "", ""
	if two {
		fn = "shuffle2"
		yparam = fmt.Sprintf(", __global const %s* y", et.name)
		yarg = fmt.Sprintf(", vload%d(i, y)", n)
	}
	name := fmt.Sprintf("v_%s_%s%d_%d", fn, et.name, n, m)
	src := fmt.Sprintf("__kernel void %s(__global const %s* x%s, __global const %s* mask, __global %s* out) {"+
		" size_t i = get_global_id(0); vstore%d(%s(vload%d(i, x)%s, vload%d(i, mask)), i, out); }",
		name, et.name, yparam, mt.name, et.name, m, fn, n, yarg, m)
	data := func(k, size int) []byte {
		b := make([]byte, size*k)
		for i := range k {
			putLE(b[size*i:], size, randomBits(et, rng))
		}
		return b
	}
	runArgs := []Arg{{Kind: Buffer, Data: data(items*n, et.size)}}
	if two {
		runArgs = append(runArgs, Arg{Kind: Buffer, Data: data(items*n, et.size)})
	}
	masks := make([]byte, mt.size*items*m)
	for i := range items * m {
		putLE(masks[mt.size*i:], mt.size, rng.Uint64()&mask(mt)) // high bits set at random
	}
	runArgs = append(runArgs, Arg{Kind: Buffer, Data: masks}, Arg{Kind: Buffer, Data: make([]byte, et.size*items*m)})
	return famCase{kernel: name, src: src, run: Run{Global: [3]int{items}, Args: runArgs},
		cmp: elemCompare(len(runArgs)-1, et.size, false, nil)}
}

// ulpCompare accepts a float result within bound ULPs of PoCL's (both are
// within the OpenCL bound of the true value; spvx rounds once from float64),
// with NaN, infinities and zeros of the same class.
func ulpCompare(bound float64) func(t, r clType, w int, ops [][]uint64) ElemCompare {
	return func(t, r clType, w int, ops [][]uint64) ElemCompare {
		return func(_, a int, got, want []byte) (int, string) {
			if a != len(ops) {
				return firstDiff(got, want)
			}
			for i := 0; i+r.size <= len(got); i += r.size {
				g, wv := bitsFloat(le(got[i:], r.size), r), bitsFloat(le(want[i:], r.size), r)
				if d := ulpDiff(g, wv, r); d > bound {
					return i, fmt.Sprintf("element %d: spvx %g, PoCL %g (%.1f ulp, bound %g)", i/r.size, g, wv, d, bound)
				}
			}
			return -1, ""
		}
	}
}

// ulpDiff is |got-want| in ULPs of want's type at want, and +Inf where the
// two differ in class (NaN, infinity).
func ulpDiff(got, want float64, t clType) float64 {
	switch {
	case math.IsNaN(got) || math.IsNaN(want):
		if math.IsNaN(got) && math.IsNaN(want) {
			return 0
		}
		return math.Inf(1)
	case math.IsInf(got, 0) || math.IsInf(want, 0):
		if got == want {
			return 0
		}
		return math.Inf(1)
	case got == want:
		return 0
	}
	return math.Abs(got-want) / ulpOf(want, t)
}

// ulpOf is the spacing of t's values at v (the denormal spacing below the
// smallest normal).
func ulpOf(v float64, t clType) float64 {
	mant, minExp := 24, -126
	if t.size == 8 {
		mant, minExp = 53, -1022
	}
	if t.size == 2 {
		mant, minExp = 11, -14
	}
	_, e := math.Frexp(math.Abs(v))
	e--
	if e < minExp {
		e = minExp
	}
	return math.Ldexp(1, e-mant+1)
}
