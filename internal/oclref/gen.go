package oclref

// Random kernels, in the spirit of CLsmith: a second engine can only judge
// what someone thought to ask it, and random programs ask what nobody
// thought of. Every kernel this file generates is well defined in OpenCL C
// 1.2, so any byte that spvx and PoCL write differently is a defect of one
// of them:
//
//   - signed + - * << and unary minus are done on the unsigned type of the
//     same size (as_uintN), so nothing overflows; narrow scalars are widened
//     to uint first, because C's promotions would make ushort*ushort an int
//     product that can overflow;
//   - divisors are forced non-zero (unsigned) or into ±[2,126] (signed), so
//     there is no division by zero and no INT_MIN / -1;
//   - shift counts are masked to the width;
//   - float arithmetic is limited to operations the OpenCL C specification
//     requires correctly rounded or exact (+ - * fma fmin fmax fdim fmod
//     remainder ldexp nextafter floor ceil trunc rint round fabs, and
//     conversions with an explicit rounding mode; fmod and remainder on
//     float only, PoCL's double ones being wrong), FP_CONTRACT is off, and
//     float-to-integer conversions saturate;
//   - a NaN's payload and sign are not specified, so every NaN that reaches
//     an integer (as_type, signbit, the output) is made canonical first
//     (cnan);
//   - clamp gets ordered bounds; mul24/mad24 and ilogb are not used;
//   - loops run a bounded number of times by construction, and barriers are
//     reached only in uniform control flow.
//
// Each work-item writes one 64-bit digest per kernel variable, so every
// variable's final value is compared.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
)

// kind is a scalar element type.
type kind uint8

const (
	kChar kind = iota
	kUchar
	kShort
	kUshort
	kInt
	kUint
	kLong
	kUlong
	kFloat
	kDouble
	nKinds
)

var kindNames = [nKinds]string{"char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float", "double"}

func (k kind) size() int      { return [nKinds]int{1, 1, 2, 2, 4, 4, 8, 8, 4, 8}[k] }
func (k kind) isFloat() bool  { return k >= kFloat }
func (k kind) isSigned() bool { return !k.isFloat() && k%2 == 0 }

// bitsKind is the unsigned integer kind of the same size.
func (k kind) bitsKind() kind { return intKind(k.size(), false) }

// intKind is the integer kind of a size in bytes.
func intKind(size int, signed bool) kind {
	k := kind(2 * map[int]int{1: 0, 2: 1, 4: 2, 8: 3}[size])
	if !signed {
		k++
	}
	return k
}

// vtype is a scalar (n == 1) or vector type.
type vtype struct {
	k kind
	n int
}

func (t vtype) String() string {
	if t.n == 1 {
		return kindNames[t.k]
	}
	return kindNames[t.k] + strconv.Itoa(t.n)
}

func (t vtype) of(k kind) vtype { return vtype{k, t.n} }

// expr is an expression node: a template whose $0..$9 are its arguments
// (printed in parentheses), or a leaf when args is empty.
type expr struct {
	t    vtype
	tmpl string
	args []*expr
	lit  bool // a literal leaf (see opaqueLiterals)
}

func (e *expr) String() string {
	var b strings.Builder
	e.write(&b)
	return b.String()
}

func (e *expr) write(b *strings.Builder) {
	for i := 0; i < len(e.tmpl); i++ {
		c := e.tmpl[i]
		if c == '$' && i+1 < len(e.tmpl) && e.tmpl[i+1] >= '0' && e.tmpl[i+1] <= '9' {
			a := e.args[e.tmpl[i+1]-'0']
			i++
			if len(a.args) == 0 && isAtom(a.tmpl) {
				b.WriteString(a.tmpl)
				continue
			}
			b.WriteByte('(')
			a.write(b)
			b.WriteByte(')')
			continue
		}
		b.WriteByte(c)
	}
}

// isAtom reports whether a leaf's text needs no parentheses.
func isAtom(s string) bool {
	for _, c := range s {
		if !(c == '_' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

func (e *expr) clone() *expr {
	c := &expr{t: e.t, tmpl: e.tmpl, lit: e.lit}
	for _, a := range e.args {
		c.args = append(c.args, a.clone())
	}
	return c
}

func leaf(t vtype, s string) *expr { return &expr{t: t, tmpl: s} }

func node(t vtype, tmpl string, args ...*expr) *expr { return &expr{t: t, tmpl: tmpl, args: args} }

// stmtKind says what a statement is.
type stmtKind uint8

const (
	sAssign   stmtKind = iota // lhs = e[0];
	sIf                       // if (e[0]) body[0] else body[1]
	sFor                      // for (int lhs = 0; lhs < e[0]; lhs++) body[0]
	sDo                       // { int lhs = 0; do body[0] while (++lhs < e[0]); }
	sBreak                    // if (e[0]) break;
	sContinue                 // if (e[0]) continue;
	sReturn                   // if (e[0]) return e[1];  (helpers)
	sSwitch                   // switch ((uint)e[0] % len(body)) case i: body[i] (break unless fall[i])
	sStore                    // lhs[(uint)e[0] & mask] = e[1];
	sExchange                 // lm[lid] = bits(e[0]); barrier; lhs = from(lm[(lid+n) % ls]); barrier
)

type stmt struct {
	kind stmtKind
	lhs  string
	lt   vtype // the type of what lhs names (sExchange: the variable's)
	n    int   // sExchange: the neighbour distance; sStore: the array length
	e    []*expr
	body [][]*stmt
	fall []bool
}

func (s *stmt) clone() *stmt {
	c := *s
	c.e = make([]*expr, len(s.e))
	for i, e := range s.e {
		c.e[i] = e.clone()
	}
	c.body = make([][]*stmt, len(s.body))
	for i, b := range s.body {
		c.body[i] = cloneStmts(b)
	}
	c.fall = append([]bool(nil), s.fall...)
	return &c
}

func cloneStmts(ss []*stmt) []*stmt {
	out := make([]*stmt, len(ss))
	for i, s := range ss {
		out[i] = s.clone()
	}
	return out
}

// variable is a named scalar or vector, or a private array of them.
type variable struct {
	name string
	t    vtype
	init *expr
	arr  int // > 0: a private array of this length, element j initialized to init with j in scope
}

// function is the kernel or one of its helpers.
type function struct {
	name   string // the suffix after the kernel's name for helpers
	ret    vtype
	params []*variable
	vars   []*variable
	body   []*stmt
	result *expr // helpers: the value returned at the end
}

func (f *function) clone() *function {
	c := *f
	c.vars = make([]*variable, len(f.vars))
	for i, v := range f.vars {
		w := *v
		w.init = v.init.clone()
		c.vars[i] = &w
	}
	c.body = cloneStmts(f.body)
	if f.result != nil {
		c.result = f.result.clone()
	}
	return &c
}

// Kernel is one random kernel with its launch geometry.
type Kernel struct {
	Seed    uint64
	helpers []*function
	main    *function
	global  [3]int
	local   [3]int
	lmArg   bool // the exchange array is a __local argument, not a kernel-scope array
	usesLM  bool
	outputs []*variable
}

// RandomHeader is what every program of random kernels starts with: fp64,
// no contraction, cnan, which makes a NaN canonical, and cabs_diff, the
// definition of abs_diff for long (PoCL 3.1's wraps).
var RandomHeader = func() string {
	var b strings.Builder
	b.WriteString("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n#pragma OPENCL FP_CONTRACT OFF\n")
	for _, f := range []string{"float", "double"} {
		for _, n := range []string{"", "2", "4", "8", "16"} {
			t := f + n
			if n == "" {
				fmt.Fprintf(&b, "__attribute__((overloadable)) %s cnan(%s x) { return isnan(x) ? (%s)NAN : x; }\n", t, t, t)
			} else {
				fmt.Fprintf(&b, "__attribute__((overloadable)) %s cnan(%s x) { return select(x, (%s)(NAN), isnan(x)); }\n", t, t, t)
			}
		}
	}
	for _, n := range []string{"2", "4", "8", "16"} {
		fmt.Fprintf(&b, "__attribute__((overloadable)) ulong%s cabs_diff(long%s x, long%s y) { return select(as_ulong%s(y) - as_ulong%s(x), as_ulong%s(x) - as_ulong%s(y), x > y); }\n", n, n, n, n, n, n, n)
	}
	b.WriteString("__attribute__((overloadable)) ulong cabs_diff(long x, long y) { return x > y ? (ulong)x - (ulong)y : (ulong)y - (ulong)x; }\n")
	return b.String()
}()

// InWords is the number of 32-bit words of a random kernel's input buffer.
const InWords = 256

// Run returns the kernel's launch under the given name with its input
// buffer (filled from the kernel's seed).
func (k *Kernel) Run(name string) Run {
	return randomRun(name, k.Seed, k.global, k.local, len(k.outputs), k.lmArg)
}

// randomRun is the launch of a random kernel: its input words come from
// the seed, and each work-item writes outputs digests.
func randomRun(name string, seed uint64, global, local [3]int, outputs int, lmArg bool) Run {
	items, ls := 1, 1
	for d := 0; d < 3; d++ {
		if global[d] > 0 {
			items *= global[d]
			ls *= local[d]
		}
	}
	in := make([]byte, 4*InWords)
	rng := rand.New(rand.NewPCG(seed, 0x1badc0de))
	for i := 0; i < InWords; i++ {
		putU32(in[4*i:], interestingWord(rng))
	}
	r := Run{Kernel: name, Global: global, Local: local, Args: []Arg{
		{Kind: Buffer, Data: in},
		{Kind: Buffer, Data: make([]byte, 8*items*outputs)},
	}}
	if lmArg {
		r.Args = append(r.Args, Arg{Kind: Local, Size: 8 * ls})
	}
	return r
}

func putU32(b []byte, v uint32) {
	b[0], b[1], b[2], b[3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
}

// interestingWord is a random input word, often an edge of some type.
func interestingWord(rng *rand.Rand) uint32 {
	edges := []uint32{0, 1, 2, 0xffffffff, 0x80000000, 0x7fffffff, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff,
		0x3f800000, 0xbf800000, 0x3f000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x00000001, 0x807fffff,
		0x7f7fffff, 0x00800000, 0x4b000000, 0x4f000000, 0xcf000000, 0x5f000000, 0x3fc00000, 0x40200000}
	switch rng.IntN(3) {
	case 0:
		return edges[rng.IntN(len(edges))]
	case 1:
		return uint32(rng.IntN(64)) - 32
	}
	return rng.Uint32()
}

// Source returns the kernel's source under the given name (helpers are
// named after it), without RandomHeader.
func (k *Kernel) Source(name string) string {
	var b strings.Builder
	for _, h := range k.helpers {
		writeHelper(&b, name, h)
	}
	ls := 1
	for d := 0; d < 3; d++ {
		if k.global[d] > 0 {
			ls *= k.local[d]
		}
	}
	fmt.Fprintf(&b, "__kernel void %s(__global const uint *in, __global ulong *out", name)
	if k.lmArg {
		b.WriteString(", __local ulong *lm")
	}
	b.WriteString(") {\n")
	if k.global[1] > 0 {
		b.WriteString("  const int gid = (int)(get_global_id(1) * get_global_size(0) + get_global_id(0));\n")
		b.WriteString("  const int lid = (int)(get_local_id(1) * get_local_size(0) + get_local_id(0));\n")
	} else {
		b.WriteString("  const int gid = (int)get_global_id(0);\n  const int lid = (int)get_local_id(0);\n")
	}
	if k.usesLM && !k.lmArg {
		fmt.Fprintf(&b, "  __local ulong lm[%d];\n", ls)
	}
	writeVars(&b, name, k.main.vars, "  ")
	writeStmts(&b, name, k.main.body, "  ", ls)
	for i, v := range k.outputs {
		fmt.Fprintf(&b, "  out[gid * %d + %d] = %s;\n", len(k.outputs), i, digest(v))
	}
	b.WriteString("}\n")
	return b.String()
}

// digest folds a variable's lanes into one ulong, NaNs made canonical.
func digest(v *variable) string {
	if v.t.n == 1 {
		return laneBits(v.t.k, v.name)
	}
	s := "0UL"
	for i := 0; i < v.t.n; i++ {
		s = fmt.Sprintf("(%s) * 1000003UL + %s", s, laneBits(v.t.k, fmt.Sprintf("%s.s%x", v.name, i)))
	}
	return s
}

func laneBits(k kind, x string) string {
	if k.isFloat() {
		x = "cnan(" + x + ")"
	}
	return fmt.Sprintf("(ulong)as_%s(%s)", kindNames[k.bitsKind()], x)
}

func writeHelper(b *strings.Builder, kname string, f *function) {
	var ps []string
	for _, p := range f.params {
		ps = append(ps, p.t.String()+" "+p.name)
	}
	fmt.Fprintf(b, "%s %s_%s(%s) {\n", f.ret, kname, f.name, strings.Join(ps, ", "))
	writeVars(b, kname, f.vars, "  ")
	writeStmts(b, kname, f.body, "  ", 0)
	fmt.Fprintf(b, "  return %s;\n}\n", fixCalls(f.result.String(), kname))
}

// fixCalls names helper calls after the kernel: helpers are printed as @fN.
func fixCalls(s, kname string) string { return strings.ReplaceAll(s, "@", kname+"_") }

func writeVars(b *strings.Builder, kname string, vs []*variable, ind string) {
	for _, v := range vs {
		if v.arr > 0 {
			fmt.Fprintf(b, "%s%s %s[%d];\n%sfor (int j = 0; j < %d; j++) %s[j] = %s;\n", ind, v.t, v.name, v.arr, ind, v.arr, v.name, fixCalls(v.init.String(), kname))
			continue
		}
		fmt.Fprintf(b, "%s%s %s = %s;\n", ind, v.t, v.name, fixCalls(v.init.String(), kname))
	}
}

func writeStmts(b *strings.Builder, kname string, ss []*stmt, ind string, ls int) {
	for _, s := range ss {
		writeStmt(b, kname, s, ind, ls)
	}
}

func writeStmt(b *strings.Builder, kname string, s *stmt, ind string, ls int) {
	e := func(i int) string { return fixCalls(s.e[i].String(), kname) }
	in := ind + "  "
	switch s.kind {
	case sAssign:
		fmt.Fprintf(b, "%s%s = %s;\n", ind, s.lhs, e(0))
	case sIf:
		fmt.Fprintf(b, "%sif (%s) {\n", ind, e(0))
		writeStmts(b, kname, s.body[0], in, ls)
		if len(s.body[1]) > 0 {
			fmt.Fprintf(b, "%s} else {\n", ind)
			writeStmts(b, kname, s.body[1], in, ls)
		}
		fmt.Fprintf(b, "%s}\n", ind)
	case sFor:
		fmt.Fprintf(b, "%sfor (int %s = 0; %s < %s; %s++) {\n", ind, s.lhs, s.lhs, e(0), s.lhs)
		writeStmts(b, kname, s.body[0], in, ls)
		fmt.Fprintf(b, "%s}\n", ind)
	case sDo:
		fmt.Fprintf(b, "%s{\n%sint %s = 0;\n%sdo {\n", ind, in, s.lhs, in)
		writeStmts(b, kname, s.body[0], in+"  ", ls)
		fmt.Fprintf(b, "%s} while (++%s < %s);\n%s}\n", in, s.lhs, e(0), ind)
	case sBreak:
		fmt.Fprintf(b, "%sif (%s) break;\n", ind, e(0))
	case sContinue:
		fmt.Fprintf(b, "%sif (%s) continue;\n", ind, e(0))
	case sReturn:
		fmt.Fprintf(b, "%sif (%s) return %s;\n", ind, e(0), e(1))
	case sSwitch:
		fmt.Fprintf(b, "%sswitch ((uint)(%s) %% %du) {\n", ind, e(0), len(s.body))
		for i, body := range s.body {
			if i == len(s.body)-1 {
				fmt.Fprintf(b, "%sdefault: {\n", ind)
			} else {
				fmt.Fprintf(b, "%scase %d: {\n", ind, i)
			}
			writeStmts(b, kname, body, in, ls)
			if s.fall[i] {
				fmt.Fprintf(b, "%s}\n", ind)
			} else {
				fmt.Fprintf(b, "%s  break;\n%s}\n", ind, ind)
			}
		}
		fmt.Fprintf(b, "%s}\n", ind)
	case sStore:
		fmt.Fprintf(b, "%s%s[(uint)(%s) & %du] = %s;\n", ind, s.lhs, e(0), s.n-1, e(1))
	case sExchange:
		bk := kindNames[s.lt.k.bitsKind()]
		fmt.Fprintf(b, "%slm[lid] = %s;\n", ind, laneBits(s.lt.k, e(0)))
		fmt.Fprintf(b, "%sbarrier(CLK_LOCAL_MEM_FENCE);\n", ind)
		fmt.Fprintf(b, "%s%s = as_%s((%s)lm[(lid + %d) %% %d]);\n", ind, s.lhs, s.lt, bk, s.n, ls)
		fmt.Fprintf(b, "%sbarrier(CLK_LOCAL_MEM_FENCE);\n", ind)
	}
}

// Generate returns the random kernel of a seed.
func Generate(seed uint64) *Kernel {
	g := &gen{rng: rand.New(rand.NewPCG(seed, 0x5eed)), k: &Kernel{Seed: seed}}
	return g.kernel()
}

// gen holds the generator's state for one kernel.
type gen struct {
	rng *rand.Rand
	k   *Kernel
	// the function being generated
	fn       *function
	inKernel bool
	vars     []*variable // scalars and vectors in scope
	arrays   []*variable
	loopVars []string
	loops    int  // enclosing loops
	uniform  bool // control flow is uniform here (barriers allowed)
	// noJump forbids break and continue: the innermost loop is uniform, and
	// a break anywhere in its body would make the barriers after it divergent.
	noJump bool
	budget int // statements left to generate in this function
	nextID int
}

func (g *gen) name(p string) string {
	g.nextID++
	return fmt.Sprintf("%s%d", p, g.nextID)
}

func (g *gen) chance(p float64) bool { return g.rng.Float64() < p }

func (g *gen) kernel() *Kernel {
	k := g.k
	switch g.rng.IntN(4) {
	case 0:
		k.local = [3]int{4, 1 + g.rng.IntN(4), 0}
		k.global = [3]int{k.local[0] * (1 + g.rng.IntN(3)), k.local[1] * (1 + g.rng.IntN(3)), 0}
	default:
		ls := []int{1, 3, 8, 16, 24, 32, 40, 64}[g.rng.IntN(8)]
		k.local = [3]int{ls, 0, 0}
		k.global = [3]int{ls * (1 + g.rng.IntN(3)), 0, 0}
	}
	k.lmArg = g.chance(0.5)
	for i := g.rng.IntN(3); i > 0; i-- {
		k.helpers = append(k.helpers, g.helper())
	}
	f := &function{}
	g.begin(f, true)
	nv := 2 + g.rng.IntN(6)
	for i := 0; i < nv; i++ {
		v := &variable{name: g.name("v"), t: g.randType()}
		v.init = g.expr(v.t, 2)
		f.vars = append(f.vars, v)
		g.vars = append(g.vars, v)
	}
	k.outputs = append([]*variable(nil), f.vars...)
	g.addArrays(f)
	g.budget = 4 + g.rng.IntN(20)
	f.body = g.block(0)
	k.main = f
	return k
}

func (g *gen) begin(f *function, kernel bool) {
	g.fn, g.inKernel = f, kernel
	g.vars, g.arrays, g.loopVars = nil, nil, nil
	g.loops, g.uniform, g.noJump = 0, kernel, false
}

func (g *gen) addArrays(f *function) {
	for i := g.rng.IntN(3); i > 0; i-- {
		n := []int{4, 8, 16}[g.rng.IntN(3)]
		a := &variable{name: g.name("a"), t: g.randType(), arr: n}
		g.loopVars = append(g.loopVars, "j")
		a.init = g.expr(a.t, 2)
		g.loopVars = g.loopVars[:len(g.loopVars)-1]
		f.vars = append(f.vars, a)
		g.arrays = append(g.arrays, a)
	}
}

func (g *gen) helper() *function {
	f := &function{name: g.name("f"), ret: g.randType()}
	g.begin(f, false)
	for i := 1 + g.rng.IntN(3); i > 0; i-- {
		p := &variable{name: g.name("p"), t: g.randType()}
		f.params = append(f.params, p)
		g.vars = append(g.vars, p)
	}
	for i := g.rng.IntN(3); i > 0; i-- {
		v := &variable{name: g.name("v"), t: g.randType()}
		v.init = g.expr(v.t, 2)
		f.vars = append(f.vars, v)
		g.vars = append(g.vars, v)
	}
	g.addArrays(f)
	g.budget = 2 + g.rng.IntN(8)
	f.body = g.block(0)
	f.result = g.expr(f.ret, 3)
	return f
}

func (g *gen) randKind() kind { return kind(g.rng.IntN(int(nKinds))) }

func (g *gen) randWidth() int {
	switch r := g.rng.IntN(100); {
	case r < 50:
		return 1
	case r < 70:
		return 2
	case r < 90:
		return 4
	case r < 97:
		return 8
	}
	return 16
}

func (g *gen) randType() vtype { return vtype{g.randKind(), g.randWidth()} }

// block generates a list of statements at a nesting depth.
func (g *gen) block(depth int) []*stmt {
	var out []*stmt
	n := 1 + g.rng.IntN(4)
	if depth == 0 {
		n = g.budget
	}
	for i := 0; i < n && g.budget > 0; i++ {
		g.budget--
		out = append(out, g.stmt(depth))
	}
	return out
}

func (g *gen) stmt(depth int) *stmt {
	for {
		switch r := g.rng.IntN(100); {
		case r < 40:
			return g.assign()
		case r < 50 && depth < 3:
			return g.ifStmt(depth)
		case r < 60 && depth < 3:
			return g.loop(depth)
		case r < 65 && depth < 3:
			return g.switchStmt(depth)
		case r < 72 && len(g.arrays) > 0:
			a := g.arrays[g.rng.IntN(len(g.arrays))]
			return &stmt{kind: sStore, lhs: a.name, lt: a.t, n: a.arr, e: []*expr{g.expr(vtype{kInt, 1}, 2), g.expr(a.t, 3)}}
		case r < 80 && g.loops > 0 && !g.noJump:
			k := sBreak
			if g.chance(0.5) {
				k = sContinue
			}
			return &stmt{kind: k, e: []*expr{g.cond()}}
		case r < 84 && !g.inKernel && !g.uniform:
			return &stmt{kind: sReturn, e: []*expr{g.cond(), g.expr(g.fn.ret, 2)}}
		case r < 95 && g.uniform && g.inKernel:
			if s := g.exchange(); s != nil {
				return s
			}
		}
	}
}

func (g *gen) cond() *expr { return g.expr(vtype{kInt, 1}, 3) }

func (g *gen) assign() *stmt {
	v := g.vars[g.rng.IntN(len(g.vars))]
	if v.t.n > 1 && g.chance(0.4) {
		if g.chance(0.5) {
			i := g.rng.IntN(v.t.n)
			t := vtype{v.t.k, 1}
			return &stmt{kind: sAssign, lhs: fmt.Sprintf("%s.s%x", v.name, i), lt: t, e: []*expr{g.expr(t, 3)}}
		}
		half := []string{".lo", ".hi", ".even", ".odd"}[g.rng.IntN(4)]
		t := vtype{v.t.k, v.t.n / 2}
		return &stmt{kind: sAssign, lhs: v.name + half, lt: t, e: []*expr{g.expr(t, 3)}}
	}
	return &stmt{kind: sAssign, lhs: v.name, lt: v.t, e: []*expr{g.expr(v.t, 3)}}
}

func (g *gen) ifStmt(depth int) *stmt {
	s := &stmt{kind: sIf, e: []*expr{g.cond()}}
	u := g.uniform
	g.uniform = false
	s.body = [][]*stmt{g.block(depth + 1), nil}
	if g.chance(0.5) {
		s.body[1] = g.block(depth + 1)
	}
	g.uniform = u
	return s
}

func (g *gen) loop(depth int) *stmt {
	s := &stmt{kind: sFor, lhs: g.name("i")}
	if g.chance(0.3) {
		s.kind = sDo
	}
	u := g.uniform
	if g.chance(0.5) {
		s.e = []*expr{leaf(vtype{kInt, 1}, strconv.Itoa(1+g.rng.IntN(5)))}
		// A constant trip count keeps uniform control flow uniform, as long
		// as the body has no break or continue (stmt sees !uniform for those).
	} else {
		s.e = []*expr{node(vtype{kInt, 1}, "(int)((uint)$0 % 6u)", g.expr(vtype{kInt, 1}, 2))}
		g.uniform = false
	}
	g.loopVars = append(g.loopVars, s.lhs)
	g.loops++
	nj := g.noJump
	g.noJump = g.uniform
	s.body = [][]*stmt{g.block(depth + 1)}
	g.noJump = nj
	g.loops--
	g.loopVars = g.loopVars[:len(g.loopVars)-1]
	g.uniform = u
	return s
}

func (g *gen) switchStmt(depth int) *stmt {
	n := 2 + g.rng.IntN(3)
	s := &stmt{kind: sSwitch, e: []*expr{g.expr(vtype{kInt, 1}, 2)}}
	u := g.uniform
	g.uniform = false
	for i := 0; i < n; i++ {
		s.body = append(s.body, g.block(depth+1))
		s.fall = append(s.fall, i < n-1 && g.chance(0.3))
	}
	g.uniform = u
	return s
}

func (g *gen) exchange() *stmt {
	var scalars []*variable
	for _, v := range g.vars {
		if v.t.n == 1 {
			scalars = append(scalars, v)
		}
	}
	if len(scalars) == 0 {
		return nil
	}
	v := scalars[g.rng.IntN(len(scalars))]
	g.k.usesLM = true
	return &stmt{kind: sExchange, lhs: v.name, lt: v.t, n: 1 + g.rng.IntN(40), e: []*expr{g.expr(v.t, 3)}}
}

// expr generates an expression of type t with at most depth levels of
// operations.
func (g *gen) expr(t vtype, depth int) *expr {
	if depth <= 0 || g.chance(0.3) {
		return g.leaf(t)
	}
	for {
		var e *expr
		if t.k.isFloat() {
			e = g.floatOp(t, depth-1)
		} else {
			e = g.intOp(t, depth-1)
		}
		if e == nil {
			e = g.anyOp(t, depth-1)
		}
		if e != nil {
			return e
		}
	}
}

// leaf is a variable, a literal, an input word or an array element.
func (g *gen) leaf(t vtype) *expr {
	for {
		switch g.rng.IntN(8) {
		case 0, 1, 6, 7:
			var vs []*variable
			for _, v := range g.vars {
				if v.t == t {
					vs = append(vs, v)
				}
			}
			if len(vs) > 0 {
				return leaf(t, vs[g.rng.IntN(len(vs))].name)
			}
		case 2:
			return g.literal(t)
		case 3:
			if g.inKernel {
				return g.input(t)
			}
		case 4:
			for _, a := range g.arrays {
				if a.t == t && g.chance(0.7) {
					return node(t, fmt.Sprintf("%s[(uint)$0 & %du]", a.name, a.arr-1), g.expr(vtype{kInt, 1}, 1))
				}
			}
		case 5:
			if t.n == 1 && !t.k.isFloat() {
				ids := append([]string{}, g.loopVars...)
				if g.inKernel {
					ids = append(ids, "gid", "lid")
				}
				if len(ids) > 0 {
					id := ids[g.rng.IntN(len(ids))]
					if t.k == kInt {
						return leaf(t, id)
					}
					return leaf(t, fmt.Sprintf("(%s)%s", t, id))
				}
			}
		}
	}
}

// input reads input words: a scalar from one or two words, a vector lane by lane.
func (g *gen) input(t vtype) *expr {
	if t.n > 1 {
		h := vtype{t.k, t.n / 2}
		return node(t, "("+t.String()+")($0, $1)", g.input(h), g.input(h))
	}
	word := func() string {
		return fmt.Sprintf("in[(uint)(gid * %d + %d) & %du]", 1+g.rng.IntN(7), g.rng.IntN(InWords), InWords-1)
	}
	switch t.k {
	case kFloat:
		return leaf(t, "cnan(as_float("+word()+"))")
	case kDouble:
		return leaf(t, fmt.Sprintf("cnan(as_double(((ulong)%s << 32) | %s))", word(), word()))
	case kLong, kUlong:
		return leaf(t, fmt.Sprintf("(%s)(((ulong)%s << 32) | %s)", t, word(), word()))
	}
	return leaf(t, fmt.Sprintf("(%s)%s", t, word()))
}

func (g *gen) literal(t vtype) *expr {
	e := g.literalText(t)
	e.lit = true
	return e
}

func (g *gen) literalText(t vtype) *expr {
	if t.n == 1 {
		return leaf(t, g.scalarLiteral(t.k))
	}
	if g.chance(0.3) {
		return leaf(t, fmt.Sprintf("(%s)(%s)", t, g.scalarLiteral(t.k)))
	}
	var ls []string
	for i := 0; i < t.n; i++ {
		ls = append(ls, g.scalarLiteral(t.k))
	}
	return leaf(t, fmt.Sprintf("(%s)(%s)", t, strings.Join(ls, ", ")))
}

func (g *gen) scalarLiteral(k kind) string {
	if k.isFloat() {
		return floatLiteral(k, g.randFloat(k))
	}
	bits := 8 * k.size()
	var v uint64
	switch g.rng.IntN(4) {
	case 0:
		v = uint64(g.rng.IntN(17)) - 8
	case 1:
		edges := []uint64{0, 1, 1<<(bits-1) - 1, 1 << (bits - 1), math.MaxUint64}
		v = edges[g.rng.IntN(len(edges))] + uint64(g.rng.IntN(3)) - 1
	default:
		v = g.rng.Uint64()
	}
	if bits < 64 {
		v &= 1<<bits - 1
	}
	if k.isSigned() {
		s := int64(v<<(64-bits)) >> (64 - bits)
		if s > -1000 && s < 1000 {
			return fmt.Sprintf("(%s)%d", kindNames[k], s)
		}
	}
	suffix := "u"
	if bits == 64 {
		suffix = "ul"
	}
	return fmt.Sprintf("(%s)0x%x%s", kindNames[k], v, suffix)
}

func (g *gen) randFloat(k kind) float64 {
	specials := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -2.5, 3, math.Inf(1), math.Inf(-1), math.NaN(),
		math.MaxFloat32, 0x1p-126, 0x1p-149, 0x1p24, 0x1p24 + 2, 0x1p31, -0x1p31, 0x1p63, 0x1p64, 1.5, -1.5, 2.5, 0x1p-1}
	if k == kDouble {
		specials = append(specials, math.MaxFloat64, 0x1p-1022, 0x1p-1074, 0x1p53+2)
	}
	switch g.rng.IntN(3) {
	case 0:
		return specials[g.rng.IntN(len(specials))]
	case 1:
		return float64(g.rng.IntN(129)-64) / float64(int(1)<<g.rng.IntN(5))
	}
	m := g.rng.Float64()*2 - 1
	e := g.rng.IntN(80) - 40
	v := math.Ldexp(m, e)
	if k == kFloat {
		v = float64(float32(v))
	}
	return v
}

func floatLiteral(k kind, v float64) string {
	suffix, prec := "f", 32
	if k == kDouble {
		suffix, prec = "", 64
	}
	switch {
	case math.IsNaN(v):
		return "(" + kindNames[k] + ")NAN"
	case math.IsInf(v, 1):
		return "(" + kindNames[k] + ")INFINITY"
	case math.IsInf(v, -1):
		return "(" + kindNames[k] + ")(-INFINITY)"
	case v == 0 && math.Signbit(v):
		return "-0.0" + suffix
	}
	s := strconv.FormatFloat(v, 'x', -1, prec) + suffix
	if v < 0 {
		return "(" + s + ")"
	}
	return s
}

var roundModes = []string{"", "_rte", "_rtz", "_rtp", "_rtn"}

// anyOp produces t by an operation that exists for every type: a
// conversion, a reinterpretation, a swizzle, a constructor, a select or a
// helper call. It returns nil when the chosen one does not apply.
func (g *gen) anyOp(t vtype, d int) *expr {
	switch g.rng.IntN(7) {
	case 0:
		return g.convert(t, d)
	case 1:
		return g.reinterpret(t, d)
	case 2:
		return g.swizzle(t, d)
	case 3:
		if t.n > 1 {
			return g.construct(t, d)
		}
	case 4:
		if t.n == 1 {
			return node(t, "("+t.String()+")($0 ? $1 : $2)", g.cond1(d), g.expr(t, d), g.expr(t, d))
		}
		c := vtype{intKind(t.k.size(), g.chance(0.5)), t.n}
		return node(t, "select($0, $1, $2)", g.expr(t, d), g.expr(t, d), g.expr(c, d))
	case 5:
		return g.call(t, d)
	case 6:
		return g.leaf(t)
	}
	return nil
}

func (g *gen) cond1(d int) *expr { return g.expr(vtype{kInt, 1}, d) }

func (g *gen) convert(t vtype, d int) *expr {
	from := vtype{g.randKind(), t.n}
	name := "convert_" + t.String()
	switch {
	case t.k.isFloat():
		if from.k == kFloat && t.k == kDouble || !from.k.isFloat() && from.k.size() < 4 {
			name += "" // exact
		} else {
			name += roundModes[g.rng.IntN(5)]
		}
	case from.k.isFloat():
		name += "_sat" + roundModes[g.rng.IntN(5)]
	default:
		if t.n == 1 && g.chance(0.3) {
			return node(t, "("+t.String()+")$0", g.expr(from, d))
		}
		if g.chance(0.5) {
			name += "_sat"
		}
		if g.chance(0.2) {
			name += roundModes[1+g.rng.IntN(4)]
		}
	}
	return node(t, name+"($0)", g.expr(from, d))
}

func (g *gen) reinterpret(t vtype, d int) *expr {
	total := t.k.size() * t.n
	var froms []vtype
	for k := kind(0); k < nKinds; k++ {
		n := total / k.size()
		if total%k.size() == 0 && (n == 1 || n == 2 || n == 4 || n == 8 || n == 16) && (vtype{k, n}) != t {
			froms = append(froms, vtype{k, n})
		}
	}
	if len(froms) == 0 {
		return nil
	}
	from := froms[g.rng.IntN(len(froms))]
	tmpl := "as_" + t.String() + "($0)"
	if from.k.isFloat() {
		tmpl = "as_" + t.String() + "(cnan($0))"
	}
	if t.k.isFloat() {
		tmpl = "cnan(" + tmpl + ")"
	}
	return node(t, tmpl, g.expr(from, d))
}

const hexDigits = "0123456789abcdef"

func (g *gen) swizzle(t vtype, d int) *expr {
	if t.n == 16 {
		return nil
	}
	if g.chance(0.4) && t.n <= 8 {
		src := vtype{t.k, 2 * t.n}
		return node(t, "$0"+[]string{".lo", ".hi", ".even", ".odd"}[g.rng.IntN(4)], g.expr(src, d))
	}
	widths := []int{2, 4, 8, 16}
	src := vtype{t.k, widths[g.rng.IntN(4)]}
	sel := ".s"
	for i := 0; i < t.n; i++ {
		sel += string(hexDigits[g.rng.IntN(src.n)])
	}
	if src.n <= 4 && g.chance(0.5) {
		sel = "."
		for i := 0; i < t.n; i++ {
			sel += string("xyzw"[g.rng.IntN(src.n)])
		}
	}
	return node(t, "$0"+sel, g.expr(src, d))
}

func (g *gen) construct(t vtype, d int) *expr {
	// Split the width into at most eight power-of-two parts (templates have
	// ten argument slots).
	ws := []int{t.n / 2, t.n / 2}
	for len(ws) < 8 && g.chance(0.5) {
		i := g.rng.IntN(len(ws))
		if ws[i] == 1 {
			break
		}
		ws[i] /= 2
		ws = append(ws[:i+1], append([]int{ws[i]}, ws[i+1:]...)...)
	}
	var parts []*expr
	tmpl := "(" + t.String() + ")("
	for i, w := range ws {
		if i > 0 {
			tmpl += ", "
		}
		tmpl += fmt.Sprintf("$%d", i)
		parts = append(parts, g.expr(vtype{t.k, w}, d))
	}
	return node(t, tmpl+")", parts...)
}

func (g *gen) call(t vtype, d int) *expr {
	{
		for _, h := range g.k.helpers {
			if h.ret == t && g.chance(0.8) {
				tmpl := "@" + h.name + "("
				var args []*expr
				for i, p := range h.params {
					if i > 0 {
						tmpl += ", "
					}
					tmpl += fmt.Sprintf("$%d", i)
					args = append(args, g.expr(p.t, d))
				}
				return node(t, tmpl+")", args...)
			}
		}
	}
	return nil
}

// wrapped returns a template that applies an unsigned-safe binary operator
// to two operands of type t.
func wrapped(t vtype, op string) string {
	u := t.of(t.k.bitsKind())
	if t.n == 1 && t.k.size() < 4 {
		return fmt.Sprintf("(%s)((uint)$0 %s (uint)$1)", t, op)
	}
	if t.k.isSigned() {
		return fmt.Sprintf("as_%s((%s)(as_%s($0) %s as_%s($1)))", t, u, u, op, u)
	}
	return fmt.Sprintf("(%s)($0 %s $1)", t, op)
}

func (g *gen) intOp(t vtype, d int) *expr {
	two := func() (*expr, *expr) { return g.expr(t, d), g.expr(t, d) }
	bits := 8 * t.k.size()
	switch g.rng.IntN(16) {
	case 0, 1, 2:
		op := []string{"+", "-", "*", "&", "|", "^"}[g.rng.IntN(6)]
		a, b := two()
		return node(t, wrapped(t, op), a, b)
	case 3:
		op := []string{"/", "%"}[g.rng.IntN(2)]
		a, b := two()
		if t.k.isSigned() {
			neg := ""
			if g.chance(0.5) {
				neg = "-"
			}
			return node(t, fmt.Sprintf("(%s)($0 %s (%s)(%s(($1 & (%s)0x7e) | (%s)2)))", t, op, t, neg, t, t), a, b)
		}
		return node(t, fmt.Sprintf("(%s)($0 %s ($1 | (%s)1))", t, op, t), a, b)
	case 4:
		a, b := two()
		if g.chance(0.5) {
			if t.n == 1 && t.k.size() < 4 {
				return node(t, fmt.Sprintf("(%s)((uint)$0 << ($1 & (%s)%d))", t, t, bits-1), a, b)
			}
			if t.k.isSigned() {
				u := t.of(t.k.bitsKind())
				return node(t, fmt.Sprintf("as_%s((%s)(as_%s($0) << as_%s($1 & (%s)%d)))", t, u, u, u, t, bits-1), a, b)
			}
			return node(t, fmt.Sprintf("(%s)($0 << ($1 & (%s)%d))", t, t, bits-1), a, b)
		}
		return node(t, fmt.Sprintf("(%s)($0 >> ($1 & (%s)%d))", t, t, bits-1), a, b)
	case 5:
		if t.n == 1 && t.k.size() < 4 || !t.k.isSigned() {
			return node(t, fmt.Sprintf("(%s)(~$0)", t), g.expr(t, d))
		}
		u := t.of(t.k.bitsKind())
		return node(t, fmt.Sprintf("as_%s((%s)((%s)0 - as_%s($0)))", t, u, u, u), g.expr(t, d))
	case 6:
		fn := []string{"add_sat", "sub_sat", "hadd", "rhadd", "max", "min", "rotate", "mul_hi"}[g.rng.IntN(8)]
		a, b := two()
		return node(t, fn+"($0, $1)", a, b)
	case 7:
		fn := []string{"popcount", "clz"}[g.rng.IntN(2)]
		return node(t, fn+"($0)", g.expr(t, d))
	case 8:
		a, b, c := g.expr(t, d), g.expr(t, d), g.expr(t, d)
		switch g.rng.IntN(3) {
		case 0:
			return node(t, "clamp($0, min($1, $2), max($1, $2))", a, b, c)
		case 1:
			return node(t, "mad_hi($0, $1, $2)", a, b, c)
		}
		return node(t, "mad_sat($0, $1, $2)", a, b, c)
	case 9:
		if t.k.isSigned() {
			return nil
		}
		src := t.of(intKind(t.k.size(), g.chance(0.5)))
		if g.chance(0.5) {
			return node(t, "abs($0)", g.expr(src, d))
		}
		if src.k.isSigned() && src.k.size() == 8 {
			// PoCL 3.1's abs_diff on long computes abs(x - y), which
			// wraps; cabs_diff (RandomHeader) is the definition
			return node(t, "cabs_diff($0, $1)", g.expr(src, d), g.expr(src, d))
		}
		return node(t, "abs_diff($0, $1)", g.expr(src, d), g.expr(src, d))
	case 10:
		if t.k.size() < 2 {
			return nil
		}
		hi := t.of(intKind(t.k.size()/2, t.k.isSigned()))
		lo := t.of(intKind(t.k.size()/2, false))
		return node(t, "upsample($0, $1)", g.expr(hi, d), g.expr(lo, d))
	case 11, 12:
		return g.compare(t, d)
	case 13:
		if t == (vtype{kInt, 1}) {
			op := []string{"&&", "||"}[g.rng.IntN(2)]
			return node(t, "$0 "+op+" $1", g.expr(t, d), g.expr(t, d))
		}
		if t == (vtype{kInt, 1}) || t.n == 1 && g.chance(0.5) {
			return node(t, "("+t.String()+")!$0", g.expr(vtype{g.randIntKind(), 1}, d))
		}
	}
	return nil
}

func (g *gen) randIntKind() kind { return kind(g.rng.IntN(int(kFloat))) }

// compare produces t as the result of a comparison or a relational
// built-in: int for scalars, a signed vector of the operands' element size
// for vectors.
func (g *gen) compare(t vtype, d int) *expr {
	var from vtype
	switch {
	case t.n == 1 && t.k == kInt:
		from = vtype{g.randKind(), 1}
	case t.n > 1 && t.k.isSigned():
		ks := []kind{intKind(t.k.size(), true), intKind(t.k.size(), false)}
		if t.k.size() == 4 {
			ks = append(ks, kFloat)
		} else if t.k.size() == 8 {
			ks = append(ks, kDouble)
		}
		from = vtype{ks[g.rng.IntN(len(ks))], t.n}
	default:
		return nil
	}
	a, b := g.expr(from, d), g.expr(from, d)
	if from.k.isFloat() && g.chance(0.5) {
		switch g.rng.IntN(3) {
		case 0:
			fn := []string{"isnan", "isinf", "isfinite", "isnormal"}[g.rng.IntN(4)]
			return node(t, fn+"($0)", a)
		case 1:
			return node(t, "signbit(cnan($0))", a)
		}
		fn := []string{"isequal", "isnotequal", "isgreater", "isgreaterequal", "isless", "islessequal", "islessgreater", "isordered", "isunordered"}[g.rng.IntN(9)]
		return node(t, fn+"($0, $1)", a, b)
	}
	op := []string{"==", "!=", "<", "<=", ">", ">="}[g.rng.IntN(6)]
	return node(t, "$0 "+op+" $1", a, b)
}

func (g *gen) floatOp(t vtype, d int) *expr {
	two := func() (*expr, *expr) { return g.expr(t, d), g.expr(t, d) }
	switch g.rng.IntN(12) {
	case 0, 1, 2:
		op := []string{"+", "-", "*"}[g.rng.IntN(3)]
		a, b := two()
		return node(t, "$0 "+op+" $1", a, b)
	case 3:
		return node(t, "fma($0, $1, $2)", g.expr(t, d), g.expr(t, d), g.expr(t, d))
	case 4:
		fn := []string{"fmin", "fmax", "fdim", "fmod", "remainder", "nextafter"}[g.rng.IntN(6)]
		if t.k == kDouble && (fn == "fmod" || fn == "remainder") {
			// PoCL 3.1's double fmod and remainder are wrong on subnormal
			// divisors and wide exponent gaps, and can run for minutes
			// (the math family judges them by math/big instead)
			fn = "fdim"
		}
		a, b := two()
		if fn == "fmin" || fn == "fmax" {
			// the sign of a zero result of fmin(-0, +0) is the first
			// operand's by OpenCL's words and either by IEEE minNum's;
			// PoCL takes +0: + 0 makes the zero positive
			return node(t, fn+"($0, $1) + 0", a, b)
		}
		return node(t, fn+"($0, $1)", a, b)
	case 5:
		a, b := two()
		return node(t, "copysign($0, cnan($1))", a, b)
	case 6, 7:
		fn := []string{"floor", "ceil", "trunc", "rint", "round", "fabs", "-"}[g.rng.IntN(7)]
		return node(t, fn+"($0)", g.expr(t, d))
	case 8:
		return node(t, "ldexp($0, $1)", g.expr(t, d), g.expr(t.of(kInt), d))
	}
	return nil
}
