package interp

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"spvx/asm"
	"spvx/spirv"
)

// Tests of SPV_KHR_cooperative_matrix against models written here from the
// extension's text: memory addresses from its "Cooperative Matrix Layout"
// table (RowMajorKHR: element (row, col) at Pointer[row·Stride] + col
// components; ColumnMajorKHR the transpose), and MulAdd from its
// OpCooperativeMatrixMulAddKHR section with the choices coopmat.go
// documents (floats: C, then each product added exactly and rounded to
// the Result type in order of k; integers: exact, wrapped or saturated).
// Element encodings are decoded by cmFmt below, written from IEEE 754 and
// SPV_EXT_float8's E4M3/E5M2 definitions, not by the executor's code.

// cmFmt is a component type: its SPIR-V declaration and encoding.
type cmFmt struct {
	name         string
	decl         string // OpType... operands
	bits         int
	float        bool
	signed       bool
	ebits, mbits int // floats
}

var (
	cmF16  = cmFmt{"f16", "OpTypeFloat 16", 16, true, false, 5, 10}
	cmF32  = cmFmt{"f32", "OpTypeFloat 32", 32, true, false, 8, 23}
	cmBF16 = cmFmt{"bf16", "OpTypeFloat 16 BFloat16KHR", 16, true, false, 8, 7}
	cmE4M3 = cmFmt{"e4m3", "OpTypeFloat 8 Float8E4M3EXT", 8, true, false, 4, 3}
	cmE5M2 = cmFmt{"e5m2", "OpTypeFloat 8 Float8E5M2EXT", 8, true, false, 5, 2}
	cmS8   = cmFmt{name: "s8", decl: "OpTypeInt 8 1", bits: 8, signed: true}
	cmU8   = cmFmt{name: "u8", decl: "OpTypeInt 8 0", bits: 8}
	cmS32  = cmFmt{name: "s32", decl: "OpTypeInt 32 1", bits: 32, signed: true}
	cmU32  = cmFmt{name: "u32", decl: "OpTypeInt 32 0", bits: 32}
)

func (f cmFmt) bytes() int { return max(8, f.bits) / 8 }

// value is the exact value of finite float bits x: (-1)^s · 2^(e-bias) ·
// 1.m, or 0.m · 2^(1-bias) when e is 0.
func (f cmFmt) value(x uint64) *big.Float {
	bias := 1<<(f.ebits-1) - 1
	m := x & (1<<f.mbits - 1)
	e := int(x>>f.mbits) & (1<<f.ebits - 1)
	v := new(big.Float).SetPrec(0).SetUint64(m)
	if e == 0 {
		v.SetMantExp(v, 1-bias-f.mbits)
	} else {
		v.SetUint64(m | 1<<f.mbits)
		v.SetMantExp(v, e-bias-f.mbits)
	}
	if x>>(f.ebits+f.mbits)&1 != 0 {
		v.Neg(v)
	}
	return v
}

// round is x rounded to nearest even at the format's precision (the
// tests keep values normal and finite).
func (f cmFmt) round(x *big.Float) *big.Float {
	return new(big.Float).SetPrec(uint(f.mbits + 1)).SetMode(big.ToNearestEven).Set(x)
}

// random is a random element: floats of magnitude 2^-3 to 2^3 (or zero),
// so sums stay normal and finite; integers of any bits.
func (f cmFmt) random(r *rand.Rand) uint64 {
	if !f.float {
		return r.Uint64() & (1<<f.bits - 1)
	}
	if r.Intn(16) == 0 {
		return 0
	}
	bias := 1<<(f.ebits-1) - 1
	e := uint64(bias - 3 + r.Intn(6))
	return uint64(r.Intn(2))<<(f.ebits+f.mbits) | e<<f.mbits | r.Uint64()&(1<<f.mbits-1)
}

// intVal is integer bits x extended as the MulAdd operand bits say.
func intVal(x uint64, f cmFmt, signed bool) int64 {
	x &= 1<<f.bits - 1
	if signed && x>>(f.bits-1) != 0 {
		return int64(x) - 1<<f.bits
	}
	return int64(x)
}

// gemmCase is a GEMM of (mt·TM)×(nt·TN)×(kt·TK) through TM×TN×TK tiles.
type gemmCase struct {
	a, b, c    cmFmt // A and B elements, C and Result elements
	TM, TN, TK int
	mt, nt, kt int
	ops        string // Cooperative Matrix Operands
	S          int
}

func (g gemmCase) String() string {
	return fmt.Sprintf("%s_%s_%s_%dx%dx%d_S%d_%s", g.a.name, g.b.name, g.c.name, g.TM, g.TN, g.TK, g.S, strings.ReplaceAll(g.ops, "|", "+"))
}

// gemmSrc is the shader: workgroup (i, j) loads its C tile (row-major),
// then for each k tile loads A's tile (row-major, a pointer to A's
// components) and B's (column-major, through a pointer to uint, so the
// Stride counts uints), accumulates with MulAdd in a loop, and stores the
// Result tile row-major.
func (g gemmCase) src() string {
	Kt, Nt := g.kt*g.TK, g.nt*g.TN
	consts := map[int]bool{}
	k := func(v int) string { consts[v] = true; return fmt.Sprintf("%%k%d", v) }
	ops := ""
	if g.ops != "" {
		ops = " " + g.ops
	}
	body := fmt.Sprintf(`%%main = OpFunction %%void None %%fn
%%entry = OpLabel
%%wg = OpLoad %%v3 %%wgid
%%i = OpCompositeExtract %%u32 %%wg 0
%%j = OpCompositeExtract %%u32 %%wg 1
%%row0 = OpIMul %%u32 %%i %[1]s
%%col0 = OpIMul %%u32 %%j %[2]s
%%ct = OpIMul %%u32 %%row0 %[3]s
%%coff = OpIAdd %%u32 %%ct %%col0
%%pc = OpAccessChain %%pe_%[13]s %%bufC %[5]s %%coff
%%cm = OpCooperativeMatrixLoadKHR %%MC %%pc %[5]s %[3]s
OpBranch %%loop
%%loop = OpLabel
%%kt = OpPhi %%u32 %[5]s %%entry %%ktn %%body
%%acc = OpPhi %%MC %%cm %%entry %%accn %%body
%%cond = OpULessThan %%bool %%kt %[6]s
OpLoopMerge %%merge %%body None
OpBranchConditional %%cond %%body %%merge
%%body = OpLabel
%%kk0 = OpIMul %%u32 %%kt %[7]s
%%at = OpIMul %%u32 %%row0 %[4]s
%%aoff = OpIAdd %%u32 %%at %%kk0
%%pa = OpAccessChain %%pe_%[14]s %%bufA %[5]s %%aoff
%%am = OpCooperativeMatrixLoadKHR %%MA %%pa %[5]s %[4]s
%%bt = OpIMul %%u32 %%col0 %[4]s
%%bo = OpIAdd %%u32 %%bt %%kk0
%%bb = OpIMul %%u32 %%bo %[8]s
%%boff = OpUDiv %%u32 %%bb %[9]s
%%pb = OpAccessChain %%pe_u32 %%bufB %[5]s %%boff
%%bm = OpCooperativeMatrixLoadKHR %%MB %%pb %[10]s %[11]s Aligned 4
%%accn = OpCooperativeMatrixMulAddKHR %%MC %%am %%bm %%acc%[12]s
%%ktn = OpIAdd %%u32 %%kt %[10]s
OpBranch %%loop
%%merge = OpLabel
%%pr = OpAccessChain %%pe_%[13]s %%bufR %[5]s %%coff
OpCooperativeMatrixStoreKHR %%pr %%acc %[5]s %[3]s
OpReturn
OpFunctionEnd
`, k(g.TM), k(g.TN), k(Nt), k(Kt), k(0), k(g.kt), k(g.TK), k(g.b.bytes()), k(4), k(1), k(Kt*g.b.bytes()/4), ops, g.c.name, g.a.name)
	types := fmt.Sprintf(`%%MA = OpTypeCooperativeMatrixKHR %%t_%[1]s %[4]s %[5]s %[6]s %[8]s
%%MB = OpTypeCooperativeMatrixKHR %%t_%[2]s %[4]s %[6]s %[7]s %[9]s
%%MC = OpTypeCooperativeMatrixKHR %%t_%[3]s %[4]s %[5]s %[7]s %[10]s
`, g.a.name, g.b.name, g.c.name, k(3), k(g.TM), k(g.TK), k(g.TN), k(0), k(1), k(2))
	return cmHeader(g.S, []cmFmt{g.a, g.b, g.c}, consts, []string{"A:" + g.a.name, "B:u32", "C:" + g.c.name, "R:" + g.c.name}) + types + body
}

// cmHeader is a module's capabilities, entry point (LocalSize S), the
// named component types, u32 constants, and one storage buffer per
// "Name:type" binding (binding i, a runtime array of the type, with
// %pe_<type> pointers to its elements).
func cmHeader(S int, fmts []cmFmt, consts map[int]bool, bufs []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `OpCapability Shader
OpCapability CooperativeMatrixKHR
OpCapability Int8
OpCapability Float16
OpCapability VulkanMemoryModel
OpExtension "SPV_KHR_cooperative_matrix"
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %%main "main" %%wgid %%lid
OpExecutionMode %%main LocalSize %d 1 1
OpDecorate %%wgid BuiltIn WorkgroupId
OpDecorate %%lid BuiltIn LocalInvocationIndex
`, S)
	seen := map[string]bool{"u32": true}
	decls := "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%bool = OpTypeBool\n%u32 = OpTypeInt 32 0\n%t_u32 = OpTypeInt 32 0\n%v3 = OpTypeVector %u32 3\n%pin = OpTypePointer Input %v3\n%pinu = OpTypePointer Input %u32\n"
	for _, f := range fmts {
		if !seen[f.name] {
			seen[f.name] = true
			decls += fmt.Sprintf("%%t_%s = %s\n", f.name, f.decl)
		}
	}
	ptrs := map[string]bool{}
	for i, bd := range bufs {
		name, ty, _ := strings.Cut(bd, ":")
		fmt.Fprintf(&b, "OpDecorate %%arr%s ArrayStride %d\nOpDecorate %%st%s Block\nOpMemberDecorate %%st%s 0 Offset 0\nOpDecorate %%buf%s DescriptorSet 0\nOpDecorate %%buf%s Binding %d\n",
			name, cmByName(ty).bytes(), name, name, name, name, i)
		decls += fmt.Sprintf("%%arr%s = OpTypeRuntimeArray %%t_%s\n%%st%s = OpTypeStruct %%arr%s\n%%pst%s = OpTypePointer StorageBuffer %%st%s\n", name, ty, name, name, name, name)
		if !ptrs[ty] {
			ptrs[ty] = true
			decls += fmt.Sprintf("%%pe_%s = OpTypePointer StorageBuffer %%t_%s\n", ty, ty)
		}
	}
	for _, bd := range bufs {
		name, _, _ := strings.Cut(bd, ":")
		decls += fmt.Sprintf("%%buf%s = OpVariable %%pst%s StorageBuffer\n", name, name)
	}
	ks := []int{}
	for v := range consts {
		ks = append(ks, v)
	}
	sort.Ints(ks)
	for _, v := range ks {
		decls += fmt.Sprintf("%%k%d = OpConstant %%u32 %d\n", v, v)
	}
	decls += "%wgid = OpVariable %pin Input\n%lid = OpVariable %pinu Input\n"
	return b.String() + decls
}

func cmByName(n string) cmFmt {
	for _, f := range []cmFmt{cmF16, cmF32, cmBF16, cmE4M3, cmE5M2, cmS8, cmU8, cmS32, cmU32} {
		if f.name == n {
			return f
		}
	}
	panic(n)
}

// gemmData is the logical matrices: A (M×K), B (K×N), C (M×N) element bits.
type gemmData struct{ A, B, C []uint64 }

func (g gemmCase) data(r *rand.Rand) gemmData {
	M, N, K := g.mt*g.TM, g.nt*g.TN, g.kt*g.TK
	d := gemmData{make([]uint64, M*K), make([]uint64, K*N), make([]uint64, M*N)}
	for i := range d.A {
		d.A[i] = g.a.random(r)
	}
	for i := range d.B {
		d.B[i] = g.b.random(r)
	}
	for i := range d.C {
		d.C[i] = g.c.random(r)
	}
	return d
}

// buffers lays the matrices out: A and C row-major, B column-major.
func (g gemmCase) buffers(d gemmData) map[BindingKey][]byte {
	M, N, K := g.mt*g.TM, g.nt*g.TN, g.kt*g.TK
	pack := func(f cmFmt, n int, at func(i int) uint64) []byte {
		b := make([]byte, n*f.bytes())
		for i := range n {
			v := at(i)
			for j := range f.bytes() {
				b[i*f.bytes()+j] = byte(v >> (8 * j))
			}
		}
		return b
	}
	return map[BindingKey][]byte{
		{0, 0}: pack(g.a, M*K, func(i int) uint64 { return d.A[i] }),
		{0, 1}: pack(g.b, K*N, func(i int) uint64 { n, k := i/K, i%K; return d.B[k*N+n] }),
		{0, 2}: pack(g.c, M*N, func(i int) uint64 { return d.C[i] }),
		{0, 3}: make([]byte, M*N*g.c.bytes()),
	}
}

// expect is the model's Result[m][n] (floats: exact value; integers:
// bits), following the shader's tiles: a MulAdd per k tile.
func (g gemmCase) expect(d gemmData, m, n int) (*big.Float, uint64) {
	N, K := g.nt*g.TN, g.kt*g.TK
	if g.c.float {
		acc := g.c.value(d.C[m*N+n])
		for k := range K {
			p := new(big.Float).SetPrec(0).Mul(g.a.value(d.A[m*K+k]), g.b.value(d.B[k*N+n]))
			acc = g.c.round(new(big.Float).SetPrec(0).Add(acc, p))
		}
		return acc, 0
	}
	has := func(s string) bool { return strings.Contains(g.ops, s) }
	acc := big.NewInt(intVal(d.C[m*N+n], g.c, has("MatrixCSigned")))
	for kt := range g.kt {
		sum := new(big.Int).Set(acc)
		for k := kt * g.TK; k < (kt+1)*g.TK; k++ {
			sum.Add(sum, big.NewInt(intVal(d.A[m*K+k], g.a, has("MatrixASigned"))*intVal(d.B[k*N+n], g.b, has("MatrixBSigned"))))
		}
		if has("Saturating") {
			lo, hi := big.NewInt(0), new(big.Int).Lsh(big.NewInt(1), uint(g.c.bits))
			if has("MatrixResultSigned") {
				hi.Rsh(hi, 1)
				lo.Neg(hi)
			}
			hi.Sub(hi, big.NewInt(1))
			if sum.Cmp(hi) > 0 {
				sum = hi
			} else if sum.Cmp(lo) < 0 {
				sum = lo
			}
		}
		acc = sum
	}
	mask := new(big.Int).Lsh(big.NewInt(1), uint(g.c.bits))
	mask.Sub(mask, big.NewInt(1))
	return nil, new(big.Int).And(acc, mask).Uint64() // two's complement low bits
}

// runGemm runs the case under opts and checks every Result element.
func runGemm(t *testing.T, g gemmCase, opts Options) {
	r := rand.New(rand.NewSource(int64(len(g.String()))))
	d := g.data(r)
	bufs := g.buffers(d)
	opts.SubgroupSize = g.S
	if err := run(t, assemble(t, g.src()), opts, [3]uint32{uint32(g.mt), uint32(g.nt), 1}, bufs, nil); err != nil {
		t.Fatal(err)
	}
	out := bufs[BindingKey{0, 3}]
	M, N := g.mt*g.TM, g.nt*g.TN
	bad := 0
	for m := range M {
		for n := range N {
			got := uint64(0)
			for j := range g.c.bytes() {
				got |= uint64(out[(m*N+n)*g.c.bytes()+j]) << (8 * j)
			}
			wf, wi := g.expect(d, m, n)
			ok := got == wi
			if g.c.float {
				ok = g.c.value(got).Cmp(wf) == 0
			}
			if !ok && bad < 5 {
				bad++
				t.Errorf("Result[%d][%d] = %#x, want %v (int bits %#x)", m, n, got, wf, wi)
			}
		}
	}
}

var gemmCases = []gemmCase{
	{a: cmF16, b: cmF16, c: cmF16, TM: 8, TN: 8, TK: 16, mt: 2, nt: 2, kt: 3, S: 16},
	{a: cmF16, b: cmF16, c: cmF32, TM: 16, TN: 16, TK: 16, mt: 2, nt: 1, kt: 2, S: 32},
	{a: cmBF16, b: cmBF16, c: cmF32, TM: 8, TN: 16, TK: 8, mt: 1, nt: 2, kt: 3, S: 8},
	{a: cmBF16, b: cmBF16, c: cmBF16, TM: 8, TN: 8, TK: 8, mt: 2, nt: 2, kt: 2, S: 16},
	{a: cmF32, b: cmF32, c: cmF32, TM: 8, TN: 8, TK: 8, mt: 2, nt: 2, kt: 4, S: 32},
	{a: cmE4M3, b: cmE4M3, c: cmF16, TM: 8, TN: 8, TK: 32, mt: 2, nt: 1, kt: 2, S: 16},
	{a: cmE5M2, b: cmE4M3, c: cmF32, TM: 16, TN: 8, TK: 16, mt: 1, nt: 2, kt: 2, S: 32},
	{a: cmE5M2, b: cmE5M2, c: cmF32, TM: 7, TN: 5, TK: 12, mt: 2, nt: 2, kt: 2, S: 8}, // L not a whole row
	{a: cmS8, b: cmS8, c: cmS32, TM: 16, TN: 16, TK: 32, mt: 1, nt: 2, kt: 2, S: 32, ops: "MatrixASignedComponentsKHR|MatrixBSignedComponentsKHR|MatrixCSignedComponentsKHR|MatrixResultSignedComponentsKHR"},
	{a: cmU8, b: cmU8, c: cmU32, TM: 8, TN: 8, TK: 32, mt: 2, nt: 2, kt: 2, S: 16},
	{a: cmU8, b: cmS8, c: cmU32, TM: 8, TN: 8, TK: 16, mt: 2, nt: 1, kt: 2, S: 16, ops: "MatrixBSignedComponentsKHR"},
	{a: cmS8, b: cmS8, c: cmS8, TM: 8, TN: 8, TK: 16, mt: 1, nt: 1, kt: 3, S: 8, ops: "MatrixASignedComponentsKHR|MatrixBSignedComponentsKHR|MatrixCSignedComponentsKHR|MatrixResultSignedComponentsKHR|SaturatingAccumulationKHR"},
	{a: cmU8, b: cmU8, c: cmU8, TM: 8, TN: 8, TK: 4, mt: 1, nt: 1, kt: 3, S: 8, ops: "SaturatingAccumulationKHR"},
	{a: cmS8, b: cmU8, c: cmS32, TM: 4, TN: 4, TK: 4, mt: 2, nt: 2, kt: 2, S: 1, ops: "MatrixASignedComponentsKHR|MatrixCSignedComponentsKHR"},
}

// TestCoopMatGemm runs a tiled GEMM through cooperative matrices for each
// component type and checks every element against the model (expect):
// under the linear layout and under two shuffled ones, as a program that
// does not depend on the layout gets the same results under any.
func TestCoopMatGemm(t *testing.T) {
	for _, g := range gemmCases {
		t.Run(g.String(), func(t *testing.T) {
			runGemm(t, g, Options{})
			runGemm(t, g, Options{CoopMatLayout: CoopMatShuffle, Seed: 1})
			runGemm(t, g, Options{CoopMatLayout: CoopMatShuffle, Seed: 99, Shuffle: true})
		})
	}
}

// TestCoopMatOrder checks that float sums are rounded at each k in order
// (coopmat.go's documented choice, not the exact sum rounded once): with
// C = 2^24 in float32 and products 1, 1, every step rounds back to 2^24,
// where a single rounding would give 2^24 + 2.
func TestCoopMatOrder(t *testing.T) {
	g := gemmCase{a: cmF32, b: cmF32, c: cmF32, TM: 1, TN: 1, TK: 2, mt: 1, nt: 1, kt: 1, S: 1}
	m := assemble(t, g.src())
	one, c := uint32(0x3f800000), uint32(0x4b800000) // 1.0, 2^24
	bufs := map[BindingKey][]byte{{0, 0}: u32s(one, one), {0, 1}: u32s(one, one), {0, 2}: u32s(c), {0, 3}: make([]byte, 4)}
	if err := run(t, m, Options{SubgroupSize: 1}, [3]uint32{1, 1, 1}, bufs, nil); err != nil {
		t.Fatal(err)
	}
	if got := getF32(bufs[BindingKey{0, 3}], 0); got != 1<<24 {
		t.Errorf("2^24 + 1 + 1 in order = %v, want %v", got, float32(1<<24))
	}
	// (1+2^-15)(1-2^-15) = 1 - 2^-30 added to 2^24+2: the exact sum lies
	// just below the float32 midpoint 2^24+3, so it rounds down to 2^24+2;
	// its nearest float64 is the midpoint itself, which a double rounding
	// would take to the even 2^24+4.
	g.TK = 1
	m = assemble(t, g.src())
	bufs = map[BindingKey][]byte{{0, 0}: f32s(1 + 1.0/(1<<15)), {0, 1}: f32s(1 - 1.0/(1<<15)), {0, 2}: f32s(1<<24 + 2), {0, 3}: make([]byte, 4)}
	if err := run(t, m, Options{SubgroupSize: 1}, [3]uint32{1, 1, 1}, bufs, nil); err != nil {
		t.Fatal(err)
	}
	if got := getF32(bufs[BindingKey{0, 3}], 0); got != 1<<24+2 {
		t.Errorf("2^24+2 + (1 - 2^-30) = %v, want %v", got, float32(1<<24+2))
	}
}

// layoutSrc loads an R×C u32 matrix (row-major, stride C) and has each
// invocation write its L components and OpCooperativeMatrixLengthKHR, as
// an instruction plus as a spec constant op (glslang's coopMat.length()):
// out[inv·(L+1)] = 2L, then component j at out[inv·(L+1)+1+j].
func layoutSrc(S, R, C, L int) string {
	consts := map[int]bool{0: true, 1: true, 2: true, 3: true, R: true, C: true, L + 1: true}
	var b strings.Builder
	b.WriteString(cmHeader(S, nil, consts, []string{"In:u32", "Out:u32"}))
	fmt.Fprintf(&b, "%%M = OpTypeCooperativeMatrixKHR %%u32 %%k3 %%k%d %%k%d %%k2\n", R, C)
	b.WriteString("%slen = OpSpecConstantOp %u32 CooperativeMatrixLengthKHR %M\n")
	fmt.Fprintf(&b, `%%main = OpFunction %%void None %%fn
%%entry = OpLabel
%%inv = OpLoad %%u32 %%lid
%%p = OpAccessChain %%pe_u32 %%bufIn %%k0 %%k0
%%m = OpCooperativeMatrixLoadKHR %%M %%p %%k0 %%k%d
%%len = OpCooperativeMatrixLengthKHR %%u32 %%M
%%base = OpIMul %%u32 %%inv %%k%d
%%len2 = OpIAdd %%u32 %%len %%slen
%%q = OpAccessChain %%pe_u32 %%bufOut %%k0 %%base
OpStore %%q %%len2
`, C, L+1)
	for j := range L {
		fmt.Fprintf(&b, "%%x%d = OpCompositeExtract %%u32 %%m %d\n%%o%d = OpIAdd %%u32 %%base %%k%d\n%%q%d = OpAccessChain %%pe_u32 %%bufOut %%k0 %%o%d\nOpStore %%q%d %%x%d\n", j, j, j, 1+j, j, j, j, j)
		consts[1+j] = true
	}
	b.WriteString("OpReturn\nOpFunctionEnd\n")
	return strings.Replace(b.String(), "%wgid = OpVariable", constLines(consts)+"%wgid = OpVariable", 1)
}

// constLines declares the constants cmHeader did not (added after it ran).
func constLines(consts map[int]bool) string {
	s := ""
	for v := range consts {
		s += fmt.Sprintf("%%k%d = OpConstant %%u32 %d\n", v, v)
	}
	return s
}

// TestCoopMatLayout checks the documented linear layout (element e of the
// row-major matrix is component e/S of invocation e%S, L = ceil(R·C/S))
// and that a program reading one invocation's components directly sees
// other elements under the shuffled layout, and different ones per seed.
func TestCoopMatLayout(t *testing.T) {
	const S, R, C = 8, 5, 6 // 30 elements: L = 4, two padding slots
	L := (R*C + S - 1) / S
	in := make([]uint32, R*C)
	for i := range in {
		in[i] = 1000 + uint32(i)
	}
	get := func(opts Options) []uint32 {
		src := layoutSrc(S, R, C, L)
		src = dedupeConsts(src)
		bufs := map[BindingKey][]byte{{0, 0}: u32s(in...), {0, 1}: make([]byte, 4*S*(L+1))}
		opts.SubgroupSize = S
		if err := run(t, assemble(t, src), opts, [3]uint32{1, 1, 1}, bufs, nil); err != nil {
			t.Fatal(err)
		}
		out := make([]uint32, S*(L+1))
		for i := range out {
			out[i] = getU32(bufs[BindingKey{0, 1}], i)
		}
		return out
	}
	lin := get(Options{})
	for inv := range S {
		if lin[inv*(L+1)] != uint32(2*L) {
			t.Fatalf("invocation %d: twice OpCooperativeMatrixLengthKHR = %d, want %d", inv, lin[inv*(L+1)], 2*L)
		}
		for j := range L {
			want := uint32(0) // padding: loads set it to 0
			if e := j*S + inv; e < R*C {
				want = in[e]
			}
			if got := lin[inv*(L+1)+1+j]; got != want {
				t.Errorf("linear: invocation %d component %d = %d, want %d", inv, j, got, want)
			}
		}
	}
	sh1, sh2 := get(Options{CoopMatLayout: CoopMatShuffle, Seed: 5}), get(Options{CoopMatLayout: CoopMatShuffle, Seed: 6})
	if fmt.Sprint(sh1) == fmt.Sprint(lin) || fmt.Sprint(sh1) == fmt.Sprint(sh2) {
		t.Errorf("a layout-dependent program got the same components under the shuffled layouts as under the linear one:\n%v\n%v\n%v", lin, sh1, sh2)
	}
	// the shuffled slots still hold every element once
	seen := map[uint32]int{}
	for inv := range S {
		for j := range L {
			seen[sh1[inv*(L+1)+1+j]]++
		}
	}
	for _, v := range in {
		if seen[v] != 1 {
			t.Errorf("shuffled layout: element %d held %d times", v, seen[v])
		}
	}
}

// dedupeConsts drops repeated OpConstant lines (layoutSrc declares some
// twice).
func dedupeConsts(src string) string {
	var out []string
	seen := map[string]bool{}
	for _, l := range strings.Split(src, "\n") {
		if strings.Contains(l, "= OpConstant ") {
			if seen[l] {
				continue
			}
			seen[l] = true
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// TestCoopMatElementwise checks the arithmetic and conversions the
// extension allows on matrices, element by element against Go's float32
// and integer arithmetic, under both layouts: (X+Y)·X, -X, X·2.5
// (OpMatrixTimesScalar), X-Y, X/Y converted to f16 and back, a fill by
// OpCompositeConstruct and OpConstantComposite, X to FP8 E4M3 and back, and for integers
// X+Y, X·Y, SConvert to s16 and back, ConvertSToF, X·-3 (OpMatrixTimesScalar).
func TestCoopMatElementwise(t *testing.T) {
	const S, R, C = 4, 4, 3
	consts := map[int]bool{}
	for _, v := range []int{0, 1, 2, 3, R, C, R * C, 2 * R * C, 3 * R * C, 4 * R * C, 5 * R * C, 6 * R * C, 7 * R * C, 8 * R * C, 9 * R * C} {
		consts[v] = true
	}
	src := cmHeader(S, []cmFmt{cmF32, cmF16, cmS32, cmE4M3}, consts, []string{"F:f32", "I:s32", "O:f32", "P:s32"}) + fmt.Sprintf(`%%t_s16 = OpTypeInt 16 1
%%MF = OpTypeCooperativeMatrixKHR %%t_f32 %%k3 %%k%[1]d %%k%[2]d %%k2
%%MH = OpTypeCooperativeMatrixKHR %%t_f16 %%k3 %%k%[1]d %%k%[2]d %%k2
%%MI = OpTypeCooperativeMatrixKHR %%t_s32 %%k3 %%k%[1]d %%k%[2]d %%k2
%%MS = OpTypeCooperativeMatrixKHR %%t_s16 %%k3 %%k%[1]d %%k%[2]d %%k2
%%M8 = OpTypeCooperativeMatrixKHR %%t_e4m3 %%k3 %%k%[1]d %%k%[2]d %%k2
%%f25 = OpConstant %%t_f32 2.5
%%f7 = OpConstant %%t_f32 7
%%sm3 = OpConstant %%t_s32 -3
%%fill7 = OpConstantComposite %%MF %%f7
%%pfm = OpTypePointer Function %%MF
%%pff = OpTypePointer Function %%t_f32
%%main = OpFunction %%void None %%fn
%%entry = OpLabel
%%var = OpVariable %%pfm Function
%%px = OpAccessChain %%pe_f32 %%bufF %%k0 %%k0
%%py = OpAccessChain %%pe_f32 %%bufF %%k0 %%k%[3]d
%%x = OpCooperativeMatrixLoadKHR %%MF %%px %%k0 %%k%[2]d
%%y = OpCooperativeMatrixLoadKHR %%MF %%py %%k1 %%k%[1]d
%%s = OpFAdd %%MF %%x %%y
%%r0 = OpFMul %%MF %%s %%x
%%r1 = OpFNegate %%MF %%x
%%r2 = OpMatrixTimesScalar %%MF %%x %%f25
%%r3 = OpFSub %%MF %%x %%y
%%q = OpFDiv %%MF %%x %%y
%%h = OpFConvert %%MH %%q
%%r4 = OpFConvert %%MF %%h
%%r5 = OpCompositeConstruct %%MF %%f25
%%e0 = OpCompositeExtract %%t_f32 %%x 0
%%r6 = OpCompositeInsert %%MF %%e0 %%fill7 0
%%ix = OpAccessChain %%pe_s32 %%bufI %%k0 %%k0
%%iy = OpAccessChain %%pe_s32 %%bufI %%k0 %%k%[3]d
%%a = OpCooperativeMatrixLoadKHR %%MI %%ix %%k0 %%k%[2]d
%%b = OpCooperativeMatrixLoadKHR %%MI %%iy %%k0 %%k%[2]d
%%j0 = OpIAdd %%MI %%a %%b
%%j1 = OpIMul %%MI %%a %%b
%%sh = OpSConvert %%MS %%a
%%j2 = OpSConvert %%MI %%sh
%%j3 = OpConvertSToF %%MF %%a
%%j4 = OpMatrixTimesScalar %%MI %%a %%sm3
OpStore %%var %%x
%%inv = OpLoad %%u32 %%lid
%%odd = OpBitwiseAnd %%u32 %%inv %%k1
%%pel = OpAccessChain %%pff %%var %%odd
%%el = OpLoad %%t_f32 %%pel
%%el2 = OpFMul %%t_f32 %%el %%f25
OpStore %%pel %%el2
%%r7 = OpLoad %%MF %%var
%%x8 = OpFConvert %%M8 %%x
%%r8 = OpFConvert %%MF %%x8
`, R, C, R*C)
	for i, v := range []string{"r0", "r1", "r2", "r3", "r4", "r5", "r6", "j3", "r7", "r8"} {
		src += fmt.Sprintf("%%po%d = OpAccessChain %%pe_f32 %%bufO %%k0 %%k%d\nOpCooperativeMatrixStoreKHR %%po%d %%%s %%k0 %%k%d\n", i, i*R*C, i, v, C)
	}
	for i, v := range []string{"j0", "j1", "j2", "j4"} {
		src += fmt.Sprintf("%%pp%d = OpAccessChain %%pe_s32 %%bufP %%k0 %%k%d\nOpCooperativeMatrixStoreKHR %%pp%d %%%s %%k0 %%k%d\n", i, i*R*C, i, v, C)
	}
	src += "OpReturn\nOpFunctionEnd\n"
	r := rand.New(rand.NewSource(3))
	x, y := make([]float32, R*C), make([]float32, R*C)
	a, b := make([]int32, R*C), make([]int32, R*C)
	for i := range x {
		// magnitudes keep X/Y a normal float16
		x[i], y[i] = float32(0.25+r.Float64())*float32(1-2*r.Intn(2)), float32(0.5+r.Float64())*float32(1-2*r.Intn(2))
		a[i], b[i] = int32(r.Uint32()), int32(r.Intn(1<<20))-1<<19
	}
	// Y is loaded column-major with stride R: its buffer is the transpose
	ybuf := make([]float32, R*C)
	for e := range ybuf {
		row, col := e/C, e%C
		ybuf[col*R+row] = y[e]
	}
	for _, opts := range []Options{{}, {CoopMatLayout: CoopMatShuffle, Seed: 11}} {
		opts.SubgroupSize = S
		bufs := map[BindingKey][]byte{{0, 0}: append(f32s(x...), f32s(ybuf...)...), {0, 1}: append(i32s(a), i32s(b)...),
			{0, 2}: make([]byte, 10*4*R*C), {0, 3}: make([]byte, 4*4*R*C)}
		if err := run(t, assemble(t, src), opts, [3]uint32{1, 1, 1}, bufs, nil); err != nil {
			t.Fatal(err)
		}
		for e := range R * C {
			h, _ := new(big.Float).SetPrec(11).SetMode(big.ToNearestEven).SetFloat64(float64(x[e] / y[e])).Float64()
			f16 := float32(h)
			// OpCompositeInsert writes component 0 of every invocation:
			// elements 0..S-1 under the linear layout; under the shuffled
			// one, the same slots of x as of the result (one shape, one layout)
			fill := float32(7)
			if opts.CoopMatLayout == CoopMatLinear && e < S || opts.CoopMatLayout == CoopMatShuffle && getF32(bufs[BindingKey{0, 2}], 6*R*C+e) == x[e] {
				fill = x[e]
			}
			// through a Function variable, invocation l scales its
			// component l&1: element (l&1)·S + l under the linear layout
			scaled := x[e]
			if l := e % S; opts.CoopMatLayout == CoopMatLinear && e/S == l&1 || opts.CoopMatLayout == CoopMatShuffle && getF32(bufs[BindingKey{0, 2}], 8*R*C+e) != x[e] {
				scaled = x[e] * 2.5
			}
			e4m3, _ := cmE4M3.round(new(big.Float).SetFloat64(float64(x[e]))).Float64() // |x| in [0.25, 1.25]: normal E4M3
			wantF := []float32{(x[e] + y[e]) * x[e], -x[e], x[e] * 2.5, x[e] - y[e], f16, 2.5, fill, float32(a[e]), scaled, float32(e4m3)}
			for i, w := range wantF {
				if got := getF32(bufs[BindingKey{0, 2}], i*R*C+e); got != w {
					t.Errorf("layout %d: float result %d element %d = %v, want %v", opts.CoopMatLayout, i, e, got, w)
				}
			}
			wantI := []int32{a[e] + b[e], a[e] * b[e], int32(int16(a[e])), a[e] * -3}
			for i, w := range wantI {
				if got := int32(getU32(bufs[BindingKey{0, 3}], i*R*C+e)); got != w {
					t.Errorf("layout %d: integer result %d element %d = %d, want %d", opts.CoopMatLayout, i, e, got, w)
				}
			}
		}
	}
}

func i32s(v []int32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(x))
	}
	return b
}

// coopBadSrc is a small module with one matrix load/store pair whose
// pieces the bad-input tests replace.
func coopBadSrc(body string, extra string) string {
	consts := map[int]bool{0: true, 1: true, 2: true, 3: true, 4: true, 8: true, 16: true}
	return cmHeader(8, []cmFmt{cmF32}, consts, []string{"X:f32"}) + `%M = OpTypeCooperativeMatrixKHR %t_f32 %k3 %k8 %k4 %k2
%MA = OpTypeCooperativeMatrixKHR %t_f32 %k3 %k8 %k4 %k0
%MB = OpTypeCooperativeMatrixKHR %t_f32 %k3 %k4 %k4 %k1
%MW = OpTypeCooperativeMatrixKHR %t_f32 %k2 %k8 %k4 %k2
%i32 = OpTypeInt 32 1
%km1 = OpConstant %i32 -1
` + extra + `%main = OpFunction %void None %fn
%entry = OpLabel
%inv = OpLoad %u32 %lid
%p = OpAccessChain %pe_f32 %bufX %k0 %k0
` + body + `OpReturn
OpFunctionEnd
`
}

// TestCoopMatBadInput checks that bad modules are compile errors naming
// the instruction and bad executions faults naming the problem, never a
// panic.
func TestCoopMatBadInput(t *testing.T) {
	compileErrs := []struct{ name, body, extra, want string }{
		{"workgroup scope", "%m = OpCooperativeMatrixLoadKHR %MW %p %k0 %k4\n", "", "only Subgroup scope"},
		{"muladd uses", "%a = OpCooperativeMatrixLoadKHR %M %p %k0 %k4\n%r = OpCooperativeMatrixMulAddKHR %M %a %a %a\n", "", "Use MatrixAKHR"},
		{"muladd shapes", "%a = OpCooperativeMatrixLoadKHR %MA %p %k0 %k4\n%b = OpCooperativeMatrixLoadKHR %MA %p %k0 %k4\n%c = OpCooperativeMatrixLoadKHR %M %p %k0 %k4\n%r = OpCooperativeMatrixMulAddKHR %M %a %b %c\n", "", "Use MatrixBKHR"},
		{"signed floats", "%a = OpCooperativeMatrixLoadKHR %MA %p %k0 %k4\n%b = OpCooperativeMatrixLoadKHR %MB %p %k0 %k4\n%c = OpCooperativeMatrixLoadKHR %M %p %k0 %k4\n%r = OpCooperativeMatrixMulAddKHR %M %a %b %c MatrixASignedComponentsKHR\n", "", "apply only to integer"},
		{"bad layout", "%m = OpCooperativeMatrixLoadKHR %M %p %k2 %k4\n", "", "MemoryLayout"},
		{"no stride", "%m = OpCooperativeMatrixLoadKHR %M %p %k0\n", "", "Stride"},
		{"mixed shapes", "%a = OpCooperativeMatrixLoadKHR %M %p %k0 %k4\n%b = OpCooperativeMatrixLoadKHR %MA %p %k0 %k4\n%r = OpFAdd %M %a %b\n", "", "rows, columns and use"},
		{"zero rows", "%m = OpCooperativeMatrixLoadKHR %MZ %p %k0 %k4\n", "%MZ = OpTypeCooperativeMatrixKHR %t_f32 %k3 %k0 %k4 %k2\n", "out of range"},
		{"huge", "%m = OpCooperativeMatrixLoadKHR %MZ %p %k0 %k4\n", "%kbig = OpConstant %u32 100000\n%MZ = OpTypeCooperativeMatrixKHR %t_f32 %k3 %kbig %k4 %k2\n", "out of range"},
		{"fill vector", "%m = OpCompositeConstruct %M %k1 %k1\n", "", "one scalar Constituent"},
		{"not allowed", "%a = OpCooperativeMatrixLoadKHR %M %p %k0 %k4\n%r = OpFRem %M %a %a\n", "", "cannot produce a cooperative matrix"},
	}
	for _, c := range compileErrs {
		t.Run(c.name, func(t *testing.T) {
			_, err := Compile(assemble(t, coopBadSrc(c.body, c.extra)), "", Options{SubgroupSize: 8})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("compile error %v, want one containing %q", err, c.want)
			}
		})
	}
	faults := []struct {
		name, body string
		buf        int // floats in the buffer
		local      int // LocalSize
		kind       FaultKind
		want       string
	}{
		{"out of bounds", "%m = OpCooperativeMatrixLoadKHR %M %p %k0 %k4\n", 31, 8, FaultOutOfBounds, "out-of-bounds"},
		{"stride past memory", "%m = OpCooperativeMatrixLoadKHR %M %p %k0 %km1\n", 64, 8, FaultUndefined, "Stride -1"},
		{"store stride 0", "%m = OpCooperativeMatrixLoadKHR %M %p %k0 %k4\nOpCooperativeMatrixStoreKHR %p %m %k0 %k0\n", 64, 8, FaultUndefined, "greater than 0"},
		{"non-uniform pointer", "%q = OpAccessChain %pe_f32 %bufX %k0 %inv\n%m = OpCooperativeMatrixLoadKHR %M %q %k0 %k4\n", 64, 8, FaultSubgroup, "dynamically uniform"},
		{"misaligned", "%q = OpAccessChain %pe_f32 %bufX %k0 %k1\n%m = OpCooperativeMatrixLoadKHR %M %q %k0 %k4 Aligned 8\n", 64, 8, FaultUndefined, "Aligned"},
		{"partial subgroup", "%m = OpCooperativeMatrixLoadKHR %M %p %k0 %k4\n", 64, 4, FaultSubgroup, "4 of 8 invocations"},
	}
	for _, c := range faults {
		t.Run(c.name, func(t *testing.T) {
			src := strings.Replace(coopBadSrc(c.body, ""), "LocalSize 8 1 1", fmt.Sprintf("LocalSize %d 1 1", c.local), 1)
			p, err := Compile(assemble(t, src), "", Options{SubgroupSize: 8})
			if err != nil {
				t.Fatal(err)
			}
			res := &Resources{Buffers: map[BindingKey][]*Buffer{{0, 0}: {{Data: make([]byte, 4*c.buf)}}}}
			err = p.Dispatch(context.Background(), 1, 1, 1, res)
			var f *Fault
			if !errors.As(err, &f) || f.Kind != c.kind || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want a %v fault containing %q", err, c.kind, c.want)
			}
			if !strings.Contains(f.Inst, "OpCooperativeMatrix") {
				t.Errorf("fault names %q, not the matrix instruction", f.Inst)
			}
		})
	}
}

// TestCoopMatOperandsNeverPanic replaces each id operand of every
// cooperative matrix instruction of a GEMM and of the bad-input module
// with each id of a mixed list (types, constants of other values,
// matrices of other uses and shapes, pointers, values), then compiles and
// runs what assembles: a compile error or a fault, never an internal
// error (a recovered panic).
func TestCoopMatOperandsNeverPanic(t *testing.T) {
	g := gemmCases[0]
	srcs := []string{g.src(), coopBadSrc("%m = OpCooperativeMatrixLoadKHR %M %p %k0 %k4\nOpCooperativeMatrixStoreKHR %p %m %k0 %k8\n", "")}
	ids := []string{"%k0", "%k1", "%k2", "%k3", "%k4", "%k8", "%k16", "%u32", "%t_f32", "%t_f16", "%MA", "%MB", "%MC", "%M", "%MW", "%p", "%pa", "%pc", "%am", "%bm", "%acc", "%m", "%km1", "%bufA", "%wg", "%inv"}
	runs := 0
	for si, src := range srcs {
		lines := strings.Split(src, "\n")
		for li, l := range lines {
			if !strings.Contains(l, "CooperativeMatrix") {
				continue
			}
			f := strings.Fields(l)
			for fi, tok := range f {
				if !strings.HasPrefix(tok, "%") || fi == 0 {
					continue
				}
				for _, id := range ids {
					g := append([]string(nil), f...)
					g[fi] = id
					mod := append([]string(nil), lines...)
					mod[li] = strings.Join(g, " ")
					runs += coopTryRun(t, strings.Join(mod, "\n"), fmt.Sprintf("src %d line %d: %s", si, li, mod[li]))
				}
			}
		}
	}
	t.Logf("%d variants assembled", runs)
	if runs < 100 {
		t.Fatalf("only %d variants assembled", runs)
	}
}

// coopTryRun assembles, compiles and runs src if it assembles; it reports
// internal errors and returns 1 if the module assembled.
func coopTryRun(t *testing.T, src, what string) int {
	words, err := asm.Assemble([]byte(src), asm.Options{})
	if err != nil {
		return 0
	}
	b := make([]byte, 4*len(words))
	for i, w := range words {
		binary.LittleEndian.PutUint32(b[4*i:], w)
	}
	m, err := spirv.Decode(b)
	if err != nil {
		return 0
	}
	p, err := Compile(m, "", Options{SubgroupSize: 8})
	if err != nil {
		if strings.Contains(err.Error(), "internal error") {
			t.Errorf("%s: %v", what, err)
		}
		return 1
	}
	bufs := map[BindingKey][]*Buffer{}
	for i := range uint32(4) {
		bufs[BindingKey{0, i}] = []*Buffer{{Data: make([]byte, 4096)}}
	}
	err = p.Dispatch(context.Background(), 1, 1, 1, &Resources{Buffers: bufs})
	if err != nil && strings.Contains(err.Error(), "internal error") {
		t.Errorf("%s: %v", what, err)
	}
	return 1
}
