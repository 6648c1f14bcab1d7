package vkref

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"spvx/interp"
)

// GLCompute families on lavapipe and on spvx: GLSL.std.450's float
// functions, and the integer and float arithmetic instructions. One shader
// per family computes every function of it on the same inputs (function f
// writes o[f*N + i]), compiled by glslangValidator; lavapipe and interp
// each run the module, and every function's results are judged:
//
//   - exact functions (arithmetic but division, floor, fract, min, ...) bit
//     for bit between the two;
//   - the others within Vulkan's precision for the function ("Precision
//     and Operation of SPIR-V Instructions" in the Vulkan specification) of
//     lavapipe's result, and spvx within 1 ULP of a float64 reference
//     (spvx rounds float64 results once, which is stricter than Vulkan).
//
// What lavapipe cannot judge here (spvx's own references judge these
// elsewhere): subgroup sizes other than 8 (its SIMD
// width), float controls (denormal, rounding and signed-zero modes: it has
// none of the shaderDenorm*/RoundingMode features), OpFMod (Vulkan's
// precision is inherited from x - y·floor(x/y), whose rounded quotient may
// move floor by one: lavapipe gives 0 where the exact result is y), FP8 and the MX
// encodings (no shaderFloat8), cooperative matrices, and behaviour on
// NaN, infinities and denormals, which Vulkan leaves to the implementation
// without float controls (inputs avoid them).

const glslN = 512

// glslFn is one function of a family: a GLSL expression of a, b, c (the
// inputs at i) and how its result is judged.
type glslFn struct {
	expr string
	// ulp: the Vulkan bound in ULPs; abs: an absolute bound (sin, cos,
	// log near 1); 0 and 0: exact.
	ulp, abs float64
	// inherit, if set, is the absolute bound of a function whose Vulkan
	// precision is inherited from a formula (mix), at the inputs.
	inherit func(a, b, c float64) float64
	ref     func(a, b, c float64) float64
}

func glslFloatFns() []glslFn {
	u1 := func(f func(float64) float64) func(a, b, c float64) float64 {
		return func(a, _, _ float64) float64 { return f(a) }
	}
	return []glslFn{
		{expr: "a + b", ref: func(a, b, _ float64) float64 { return a + b }},
		{expr: "a - b", ref: func(a, b, _ float64) float64 { return a - b }},
		{expr: "a * b", ref: func(a, b, _ float64) float64 { return a * b }},
		{expr: "a / b", ulp: 2.5, ref: func(a, b, _ float64) float64 { return a / b }},
		{expr: "-a", ref: func(a, _, _ float64) float64 { return -a }},
		{expr: "float(a < b) + 2.0 * float(a == b) + 4.0 * float(a >= c)", ref: func(a, b, c float64) float64 {
			return b2f(a < b) + 2*b2f(a == b) + 4*b2f(a >= c)
		}},
		{expr: "abs(a)", ref: u1(math.Abs)},
		{expr: "sign(a)", ref: u1(func(a float64) float64 {
			if a == 0 {
				return a
			}
			return math.Copysign(1, a)
		})},
		{expr: "floor(a)", ref: u1(math.Floor)},
		{expr: "ceil(a)", ref: u1(math.Ceil)},
		{expr: "trunc(a)", ref: u1(math.Trunc)},
		{expr: "roundEven(a)", ref: u1(math.RoundToEven)},
		{expr: "fract(a)", ref: u1(func(a float64) float64 { return a - math.Floor(a) })},
		{expr: "min(a, b)", ref: func(a, b, _ float64) float64 { return math.Min(a, b) }},
		{expr: "max(a, b)", ref: func(a, b, _ float64) float64 { return math.Max(a, b) }},
		{expr: "clamp(a, min(b, c), max(b, c))", ref: func(a, b, c float64) float64 {
			return math.Min(math.Max(a, math.Min(b, c)), math.Max(b, c))
		}},
		{expr: "step(b, a)", ref: func(a, b, _ float64) float64 { return b2f(a >= b) }},
		{expr: "fma(a, b, c)", ulp: 1, ref: func(a, b, c float64) float64 { return math.FMA(a, b, c) }},
		{expr: "sqrt(abs(a))", ulp: 3, ref: u1(func(a float64) float64 { return math.Sqrt(math.Abs(a)) })},
		{expr: "inversesqrt(abs(a) + 0.5)", ulp: 2, ref: u1(func(a float64) float64 { return 1 / math.Sqrt(f32(math.Abs(a)+0.5)) })},
		{expr: "exp(c)", ulp: 3 + 2*8, ref: func(_, _, c float64) float64 { return math.Exp(c) }},
		{expr: "exp2(c)", ulp: 3 + 2*8, ref: func(_, _, c float64) float64 { return math.Exp2(c) }},
		{expr: "log(abs(a) + 0.25)", ulp: 3, abs: 0x1p-21, ref: u1(func(a float64) float64 { return math.Log(f32(math.Abs(a) + 0.25)) })},
		{expr: "log2(abs(a) + 0.25)", ulp: 3, abs: 0x1p-21, ref: u1(func(a float64) float64 { return math.Log2(f32(math.Abs(a) + 0.25)) })},
		{expr: "sin(c)", abs: 0x1p-11, ref: func(_, _, c float64) float64 { return math.Sin(c) }},
		{expr: "cos(c)", abs: 0x1p-11, ref: func(_, _, c float64) float64 { return math.Cos(c) }},
		{expr: "atan(a)", ulp: 4096, ref: u1(math.Atan)},
		{expr: "atan(a, b)", ulp: 4096, ref: func(a, b, _ float64) float64 { return math.Atan2(a, b) }},
		{expr: "mix(a, b, 0.25)", ref: func(a, b, _ float64) float64 { return a*0.75 + b*0.25 },
			// x·(1-a) + y·a: each product and the sum rounded
			inherit: func(a, b, _ float64) float64 { return ulp32(a*0.75) + ulp32(b*0.25) + ulp32(a*0.75+b*0.25) }},
		{expr: "ldexp(a, int(c))", ref: func(a, _, c float64) float64 { return math.Ldexp(a, int(c)) }},
		{expr: "float(int(a * 100.0))", ref: u1(func(a float64) float64 { return math.Trunc(float64(float32(a * 100))) })},
		{expr: "float(uint(abs(a) * 1000.0))", ref: u1(func(a float64) float64 {
			return math.Trunc(float64(float32(math.Abs(a) * 1000)))
		})},
		{expr: "uintBitsToFloat(floatBitsToUint(a) ^ 0x80000000u)", ref: u1(func(a float64) float64 { return -a })},
	}
}

func f32(v float64) float64 { return float64(float32(v)) }

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// glslIntFns are expressions over uint a, b, c with a uint result.
var glslIntFns = []string{
	"a + b", "a - b", "a * b", "a / (b | 1u)", "a % (b | 1u)",
	"uint(int(a) / (int(b) | 1))", "uint(int(a) % (int(b) | 1))", "uint(int(a) >> (b & 31u))",
	"a >> (b & 31u)", "a << (b & 31u)", "a & b", "a | b", "a ^ b", "~a",
	"uint(int(a) < int(b)) | uint(a < b) << 1 | uint(a == b) << 2",
	"min(a, b)", "max(a, b)", "uint(min(int(a), int(b)))", "uint(max(int(a), int(b)))",
	"uint(abs(int(a)))", "uint(sign(int(a)))", "clamp(a, min(b, c), max(b, c))",
	"uint(bitCount(a))", "uint(findLSB(a))", "uint(findMSB(a))", "uint(findMSB(int(a)))", "bitfieldReverse(a)",
	"bitfieldExtract(a, int(b & 15u), int(c & 15u))", "uint(bitfieldExtract(int(a), int(b & 15u), int(c & 15u)))",
	"bitfieldInsert(a, b, int(c & 15u), int((c >> 4) & 15u))",
	"uaddCarry(a, b, o_carry) ^ o_carry", "usubBorrow(a, b, o_carry) + o_carry * 7u",
	"mul_hi_u(a, b)", "mul_hi_s(a, b)",
	"floatBitsToUint(float(a))", "floatBitsToUint(float(int(a)))",
}

const glslIntHelpers = `uint o_carry;
uint mul_hi_u(uint x, uint y) { uint hi, lo; umulExtended(x, y, hi, lo); return hi; }
uint mul_hi_s(uint x, uint y) { int hi, lo; imulExtended(int(x), int(y), hi, lo); return uint(hi); }
`

// shader builds the family's shader: function f writes o[f*N+i].
func shader(typ string, exprs []string, helpers string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { %[1]s a_[]; };
layout(set = 0, binding = 1) readonly buffer B { %[1]s b_[]; };
layout(set = 0, binding = 2) readonly buffer C { %[1]s c_[]; };
layout(set = 0, binding = 3) writeonly buffer O { %[1]s o[]; };
%[2]s
void main() {
  uint i = gl_GlobalInvocationID.x;
  %[1]s a = a_[i], b = b_[i], c = c_[i];
`, typ, helpers)
	for f, e := range exprs {
		fmt.Fprintf(&b, "  o[%d + i] = %s;\n", f*glslN, e)
	}
	b.WriteString("}\n")
	return b.String()
}

func compileGLSL(t *testing.T, src string) []byte {
	t.Helper()
	tool, err := exec.LookPath("glslangValidator")
	if err != nil {
		t.Skip("glslangValidator not found (Debian: glslang-tools)")
	}
	dir := t.TempDir()
	in, out := filepath.Join(dir, "k.comp"), filepath.Join(dir, "k.spv")
	if err := os.WriteFile(in, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := exec.Command(tool, "--target-env", "vulkan1.1", "-o", out, in).CombinedOutput(); err != nil {
		t.Fatalf("glslangValidator: %v\n%s\n%s", err, b, src)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// runBoth runs the shader on lavapipe and on spvx (subgroup size 8, as
// lavapipe's, and 32) and returns the output buffers: lavapipe's first.
func runBoth(t *testing.T, spv []byte, ins [3][]byte, nfn int) ([]byte, [][]byte) {
	t.Helper()
	d, err := New(Lavapipe)
	if err != nil {
		t.Skip(err)
	}
	job := &Job{SPIRV: spv, Entry: "main", Groups: [3]uint32{glslN / 64, 1, 1}}
	for k, in := range ins {
		job.Buffers = append(job.Buffers, Buffer{Binding: uint32(k), Data: in})
	}
	job.Buffers = append(job.Buffers, Buffer{Binding: 3, Data: make([]byte, 4*glslN*nfn)})
	want, err := d.Run(job)
	if err != nil {
		t.Fatalf("lavapipe: %v", err)
	}
	var got [][]byte
	for _, S := range []int{8, 32} {
		g, err := RunSPVX(job, interp.Options{SubgroupSize: S})
		if err != nil {
			t.Fatalf("spvx: %v", err)
		}
		got = append(got, g[3])
	}
	return want[3], got
}

func f32bytes(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return b
}

// TestGLSLFloatFamily: GLSL.std.450 and float arithmetic on lavapipe and
// spvx.
func TestGLSLFloatFamily(t *testing.T) {
	fns := glslFloatFns()
	exprs := make([]string, len(fns))
	for f := range fns {
		exprs[f] = fns[f].expr
	}
	spv := compileGLSL(t, shader("float", exprs, ""))
	rng := rand.New(rand.NewPCG(18, 7))
	var a, b, c [glslN]float32
	edges := []float32{0, 1, -1, 0.5, -0.5, 1.5, -2.5, 2.5, 3, -7, 100, 1e-3, 1e6, -1e6, 0.1, 12345.678}
	for i := range glslN {
		// normal magnitudes only: Vulkan without float controls may flush
		// denormals and need not keep NaN or infinity
		a[i] = float32((rng.Float64()*2 - 1) * math.Ldexp(1, rng.IntN(24)-8))
		b[i] = float32((rng.Float64()*2 - 1) * math.Ldexp(1, rng.IntN(24)-8))
		c[i] = float32(rng.Float64()*16 - 8) // exp, sin and cos arguments
		if i < len(edges)*len(edges) {
			a[i], b[i] = edges[i%len(edges)], edges[i/len(edges)]
		}
		if b[i] == 0 {
			b[i] = 0.75 // division and mod
		}
		if c[i] == 0 {
			c[i] = 0.25
		}
	}
	want, gots := runBoth(t, spv, [3][]byte{f32bytes(a[:]), f32bytes(b[:]), f32bytes(c[:])}, len(fns))
	for gi, got := range gots {
		bad := 0
		for f, fn := range fns {
			for i := range glslN {
				off := 4 * (f*glslN + i)
				g := float64(math.Float32frombits(binary.LittleEndian.Uint32(got[off:])))
				w := float64(math.Float32frombits(binary.LittleEndian.Uint32(want[off:])))
				r := fn.ref(float64(a[i]), float64(b[i]), float64(c[i]))
				if msg := judgeGLSL(fn, g, w, r, float64(a[i]), float64(b[i]), float64(c[i])); msg != "" {
					if bad++; bad <= 20 {
						t.Errorf("spvx #%d: %s with a=%g b=%g c=%g: %s", gi, fn.expr, a[i], b[i], c[i], msg)
					}
				}
			}
		}
	}
}

// judgeGLSL returns why spvx's g is wrong against lavapipe's w and the
// reference r, or "".
func judgeGLSL(fn glslFn, g, w, r, a, b, c float64) string {
	if fn.ulp == 0 && fn.abs == 0 && fn.inherit == nil {
		if math.Float64bits(g) != math.Float64bits(w) && !(g == 0 && w == 0) {
			return fmt.Sprintf("spvx %g, lavapipe %g (exact)", g, w)
		}
		return ""
	}
	ulp := ulp32(r)
	if d := math.Abs(g - r); d > ulp && d > 0x1p-24*math.Abs(r) {
		return fmt.Sprintf("spvx %g is %.2f ulp from the reference %g", g, d/ulp, r)
	}
	tol := math.Max(fn.ulp*ulp32(w), fn.abs) + ulp
	if fn.inherit != nil {
		tol = fn.inherit(a, b, c)
	}
	if d := math.Abs(g - w); d > tol {
		return fmt.Sprintf("spvx %g, lavapipe %g: %g apart, Vulkan allows %g", g, w, d, tol)
	}
	return ""
}

func ulp32(v float64) float64 {
	_, e := math.Frexp(math.Abs(v))
	return math.Ldexp(1, max(e-1, -126)-23)
}

// TestGLSLIntFamily: integer arithmetic, bit and conversion instructions,
// compared bit for bit. (uint(float(a)) is not among them: lavapipe folds
// the round trip away, which is not what IEEE conversion gives for a above
// 2^24; floatBitsToUint(float(a)) cannot be folded.)
func TestGLSLIntFamily(t *testing.T) {
	spv := compileGLSL(t, shader("uint", glslIntFns, glslIntHelpers))
	rng := rand.New(rand.NewPCG(18, 8))
	edges := []uint32{0, 1, 2, 0xFFFFFFFF, 0x80000000, 0x7FFFFFFF, 0x80000001, 31, 32, 33, 0xFFFF, 0x10000, 0xDEADBEEF, 7}
	var ins [3][]byte
	for k := range ins {
		ins[k] = make([]byte, 4*glslN)
		for i := range glslN {
			v := rng.Uint32() >> rng.IntN(32)
			switch {
			case k < 2 && i < len(edges)*len(edges):
				v = edges[i%len(edges)]
				if k == 1 {
					v = edges[i/len(edges)]
				}
			}
			binary.LittleEndian.PutUint32(ins[k][4*i:], v)
		}
	}
	want, gots := runBoth(t, spv, ins, len(glslIntFns))
	for gi, got := range gots {
		bad := 0
		for f, e := range glslIntFns {
			for i := range glslN {
				off := 4 * (f*glslN + i)
				g, w := binary.LittleEndian.Uint32(got[off:]), binary.LittleEndian.Uint32(want[off:])
				a, b := binary.LittleEndian.Uint32(ins[0][4*i:]), binary.LittleEndian.Uint32(ins[1][4*i:])
				if g == w || intUndefined(e, a, b) {
					continue
				}
				if bad++; bad <= 20 {
					t.Errorf("spvx #%d: %s with a=%#x b=%#x c=%#x: spvx %#x, lavapipe %#x", gi, e, a, b,
						binary.LittleEndian.Uint32(ins[2][4*i:]), g, w)
				}
			}
		}
	}
}

// intUndefined reports the inputs where GLSL leaves an expression's value
// undefined.
func intUndefined(e string, a, b uint32) bool {
	switch {
	case strings.HasPrefix(e, "uint(int(a) / "): // INT_MIN / -1 overflows
		return a == 0x80000000 && b|1 == 0xFFFFFFFF
	case strings.HasPrefix(e, "uint(int(a) % "): // % with a negative operand is undefined
		return int32(a) < 0 || int32(b|1) < 0
	}
	return false
}
