package interp

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand"
	"strings"
	"testing"

	"spvx/asm"
	"spvx/spirv"
)

// Tests of OpSubgroupMatrixMultiplyAccumulateINTEL against a model written
// here from SPV_INTEL_subgroup_matrix_multiply_accumulate revision 1: the
// logical matrices are random, spread over the invocations by the
// extension's "Mapping Matrix Data to Invocations" section (dpasSpread),
// and the expected Result is a naive GEMM over the logical matrices
// (dpasExpect), exact for integers and, for floats, either the ordered
// float32 sum dpas.go documents or the exact sum rounded once (math/big).

// dpasFmt is an element encoding of the test: its bits and how the model
// reads them.
type dpasFmt struct {
	name   string
	bits   int
	float  bool
	signed bool
}

var (
	fS8   = dpasFmt{"s8", 8, false, true}
	fU8   = dpasFmt{"u8", 8, false, false}
	fS4   = dpasFmt{"s4", 4, false, true}
	fU4   = dpasFmt{"u4", 4, false, false}
	fS32  = dpasFmt{"s32", 32, false, true}
	fF16  = dpasFmt{"f16", 16, true, false}
	fBF16 = dpasFmt{"bf16", 16, true, false}
	fTF32 = dpasFmt{"tf32", 32, true, false}
	fF32  = dpasFmt{"f32", 32, true, false}
)

// dpasCase is one instruction: the element formats of A and B (the same
// for both unless bf is set), the widths of A's components, C's and the
// Result's formats, M, K and the subgroup size N.
type dpasCase struct {
	a, b    dpasFmt
	aw      int // A component width
	c, r    dpasFmt
	M, K, N int
}

func (dc dpasCase) String() string {
	return fmt.Sprintf("%sx%s_a%d_c%s_r%s_M%d_K%d_N%d", dc.a.name, dc.b.name, dc.aw, dc.c.name, dc.r.name, dc.M, dc.K, dc.N)
}

// operandBits is the Matrix Multiply Accumulate Operands of the case, by
// the names of the extension's table.
func (dc dpasCase) operandBits() string {
	var names []string
	add := func(f dpasFmt, ab string) {
		if f.signed {
			names = append(names, "Matrix"+ab+"SignedComponentsINTEL")
		}
		switch f {
		case fS8, fU8:
			names = append(names, "Matrix"+ab+"PackedInt8INTEL")
		case fS4, fU4:
			names = append(names, "Matrix"+ab+"PackedInt4INTEL")
		case fF16:
			names = append(names, "Matrix"+ab+"PackedFloat16INTEL")
		case fBF16:
			names = append(names, "Matrix"+ab+"PackedBFloat16INTEL")
		case fTF32:
			names = append(names, "Matrix"+ab+"TF32INTEL")
		}
	}
	add(dc.a, "A")
	add(dc.b, "B")
	if dc.c == fBF16 {
		names = append(names, "MatrixCBFloat16INTEL")
	}
	if dc.r == fBF16 {
		names = append(names, "MatrixResultBFloat16INTEL")
	}
	return strings.Join(names, "|")
}

// The SPIR-V component type of each operand: packed data in integers, a
// float type for f32/tf32 (and for f16 C and Result).
func compType(f dpasFmt, width int) string {
	switch {
	case f == fF32 || f == fTF32:
		return "f32"
	case f == fF16 && width == 0:
		return "f16"
	case width == 0:
		return fmt.Sprintf("u%d", max(f.bits, 16))
	}
	return fmt.Sprintf("u%d", width)
}

// counts is the number of A, B and C components per invocation, from the
// mapping section: A one row per component (or ceil(M/r) when N > K),
// B 32-bit components for elements of 16 bits or fewer, C and Result M.
func (dc dpasCase) counts() (ca, cb int) {
	ca = dc.M
	if dc.K < dc.N {
		r := dc.N / dc.K
		ca = (dc.M + r - 1) / r
	}
	cb = dc.K
	if dc.b.bits <= 16 {
		cb = dc.K * dc.b.bits / 32
	}
	return
}

func (dc dpasCase) bType() string {
	if dc.b.bits <= 16 {
		return "u32"
	}
	return compType(dc.b, 0)
}

const dpasHeader = `OpCapability Shader
OpCapability Int8
OpCapability Int16
OpCapability Float16
OpCapability SubgroupMatrixMultiplyAccumulateINTEL
OpExtension "SPV_INTEL_subgroup_matrix_multiply_accumulate"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %lid
OpExecutionMode %main LocalSize LOCAL 1 1
OpDecorate %lid BuiltIn LocalInvocationId
OpDecorate %arr ArrayStride 4
OpMemberDecorate %Buf 0 Offset 0
OpDecorate %Buf Block
OpDecorate %in DescriptorSet 0
OpDecorate %in Binding 0
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%u8 = OpTypeInt 8 0
%u16 = OpTypeInt 16 0
%u32 = OpTypeInt 32 0
%f16 = OpTypeFloat 16
%f32 = OpTypeFloat 32
%v3u32 = OpTypeVector %u32 3
%arr = OpTypeRuntimeArray %u32
%Buf = OpTypeStruct %arr
%pBuf = OpTypePointer StorageBuffer %Buf
%pu32 = OpTypePointer StorageBuffer %u32
%pin = OpTypePointer Input %v3u32
%lid = OpVariable %pin Input
%in = OpVariable %pBuf StorageBuffer
%out = OpVariable %pBuf StorageBuffer
%c0 = OpConstant %u32 0
`

// dpasModule is a shader whose invocation i reads its A, B and C
// components from words i*(ca+cb+M).. of binding 0 (each component's bits
// zero-extended to a word), runs the instruction, and writes its Result
// components to words i*M.. of binding 1. kDim is the K Dim operand's
// text, extra more declarations.
func dpasModule(ta string, na int, tb string, nb int, tc, tr string, M int, kDim, bits string, local int, extra string) string {
	var sb strings.Builder
	sb.WriteString(strings.Replace(dpasHeader, "LOCAL", fmt.Sprint(local), 1))
	sb.WriteString(extra)
	vt := map[string]bool{"%v3u32": true}
	typ := func(t string, n int) string {
		if n == 1 {
			return "%" + t
		}
		name := fmt.Sprintf("%%v%d%s", n, t)
		if !vt[name] {
			vt[name] = true
			fmt.Fprintf(&sb, "%s = OpTypeVector %%%s %d\n", name, t, n)
		}
		return name
	}
	nw := na + nb + M
	ids := []string{typ(ta, na), typ(tb, nb), typ(tc, M), typ(tr, M)}
	for i := 0; i <= nw; i++ {
		fmt.Fprintf(&sb, "%%k%d = OpConstant %%u32 %d\n", i, i)
	}
	fmt.Fprintf(&sb, "%%stride = OpConstant %%u32 %d\n%%M = OpConstant %%u32 %d\n", nw, M)
	sb.WriteString("%main = OpFunction %void None %fn\n%entry = OpLabel\n%l3 = OpLoad %v3u32 %lid\n%i = OpCompositeExtract %u32 %l3 0\n%ib = OpIMul %u32 %i %stride\n%ob = OpIMul %u32 %i %M\n")
	word := 0
	load := func(name, t string, n int) {
		var comps []string
		for j := 0; j < n; j++ {
			id := fmt.Sprintf("%%%s%d", name, j)
			fmt.Fprintf(&sb, "%%o%s = OpIAdd %%u32 %%ib %%k%d\n%%p%s = OpAccessChain %%pu32 %%in %%c0 %%o%s\n%%w%s = OpLoad %%u32 %%p%s\n",
				id[1:], word, id[1:], id[1:], id[1:], id[1:])
			word++
			switch t {
			case "u32":
				fmt.Fprintf(&sb, "%s = OpCopyObject %%u32 %%w%s\n", id, id[1:])
			case "f32":
				fmt.Fprintf(&sb, "%s = OpBitcast %%f32 %%w%s\n", id, id[1:])
			case "f16":
				fmt.Fprintf(&sb, "%%h%s = OpUConvert %%u16 %%w%s\n%s = OpBitcast %%f16 %%h%s\n", id[1:], id[1:], id, id[1:])
			default:
				fmt.Fprintf(&sb, "%s = OpUConvert %%%s %%w%s\n", id, t, id[1:])
			}
			comps = append(comps, id)
		}
		if n == 1 {
			fmt.Fprintf(&sb, "%%%s = OpCopyObject %%%s %s\n", name, t, comps[0])
		} else {
			fmt.Fprintf(&sb, "%%%s = OpCompositeConstruct %s %s\n", name, typ(t, n), strings.Join(comps, " "))
		}
	}
	load("A", ta, na)
	load("B", tb, nb)
	load("C", tc, M)
	fmt.Fprintf(&sb, "%%R = OpSubgroupMatrixMultiplyAccumulateINTEL %s %s %%A %%B %%C %s\n", ids[3], kDim, bits)
	for j := 0; j < M; j++ {
		x := "%R"
		if M > 1 {
			x = fmt.Sprintf("%%x%d", j)
			fmt.Fprintf(&sb, "%s = OpCompositeExtract %%%s %%R %d\n", x, tr, j)
		}
		y := fmt.Sprintf("%%y%d", j)
		switch tr {
		case "u32":
			fmt.Fprintf(&sb, "%s = OpCopyObject %%u32 %s\n", y, x)
		case "f32":
			fmt.Fprintf(&sb, "%s = OpBitcast %%u32 %s\n", y, x)
		case "f16":
			fmt.Fprintf(&sb, "%%g%d = OpBitcast %%u16 %s\n%s = OpUConvert %%u32 %%g%d\n", j, x, y, j)
		default:
			fmt.Fprintf(&sb, "%s = OpUConvert %%u32 %s\n", y, x)
		}
		fmt.Fprintf(&sb, "%%q%d = OpIAdd %%u32 %%ob %%k%d\n%%pq%d = OpAccessChain %%pu32 %%out %%c0 %%q%d\nOpStore %%pq%d %s\n", j, j, j, j, j, y)
	}
	sb.WriteString("OpReturn\nOpFunctionEnd\n")
	return sb.String()
}

// dpasMats are the logical matrices: raw element bits, A[m][k], B[k][n],
// C[m][n].
type dpasMats struct{ A, B, C [][]uint64 }

// randElem is random bits of format f: integers of any value; floats with
// every mantissa bit of the format and a small exponent range, so that
// sums round but stay normal numbers of every Result format.
func randElem(rng *rand.Rand, f dpasFmt) uint64 {
	if !f.float {
		return rng.Uint64() & (1<<f.bits - 1)
	}
	mbits := map[dpasFmt]int{fF16: 10, fBF16: 7, fTF32: 10, fF32: 23}[f]
	v := float32(math.Ldexp(float64(1<<mbits+rng.Intn(1<<mbits)), rng.Intn(7)-3-mbits))
	if rng.Intn(2) == 0 {
		v = -v
	}
	if rng.Intn(8) == 0 {
		v = 0
	}
	switch f {
	case fF16:
		return uint64(f16Bits(v))
	case fBF16:
		return uint64(math.Float32bits(v) >> 16)
	case fTF32:
		// the low 13 bits are not part of a tf32 value: fill them with junk
		return uint64(math.Float32bits(v)) | uint64(rng.Intn(1<<13))
	}
	return uint64(math.Float32bits(v))
}

// f16Bits encodes a float32 that is exactly a normal binary16 (or zero).
func f16Bits(v float32) uint16 {
	b := math.Float32bits(v)
	sign := uint16(b>>16) & 0x8000
	if v == 0 {
		return sign
	}
	exp := int(b>>23&0xff) - 127 + 15
	return sign | uint16(exp)<<10 | uint16(b>>13&0x3ff)
}

// elemValue is the exact value of raw bits x of format f.
func elemValue(x uint64, f dpasFmt) *big.Float {
	z := new(big.Float).SetPrec(2000)
	switch {
	case !f.float && f.signed:
		return z.SetInt64(int64(x<<(64-f.bits)) >> (64 - f.bits))
	case !f.float:
		return z.SetUint64(x)
	case f == fF16:
		e, m := int(x>>10&0x1f), int64(x&0x3ff)
		if e != 0 {
			m |= 1 << 10
		} else {
			e = 1
		}
		z.SetMantExp(new(big.Float).SetInt64(m), e-15-10)
		if x&0x8000 != 0 {
			z.Neg(z)
		}
		return z
	case f == fBF16:
		return z.SetFloat64(float64(math.Float32frombits(uint32(x) << 16)))
	case f == fTF32:
		return z.SetFloat64(float64(math.Float32frombits(uint32(x) &^ (1<<13 - 1))))
	}
	return z.SetFloat64(float64(math.Float32frombits(uint32(x))))
}

// dpasSpread lays the logical matrices out per invocation as the
// extension's mapping section says, returning each invocation's words:
// its A, B and C components in order. Rows of A that no invocation
// carries (N > K with M not a multiple of r) are filled with junk.
func dpasSpread(dc dpasCase, mt dpasMats, rng *rand.Rand) []uint32 {
	ca, cb := dc.counts()
	words := make([]uint32, 0, dc.N*(ca+cb+dc.M))
	for inv := 0; inv < dc.N; inv++ {
		// Matrix A
		for comp := 0; comp < ca; comp++ {
			var w uint64
			switch {
			case dc.K >= dc.N:
				// "the multiple columns are packed into a single value per
				// row, with data from the lower-numbered columns in the lower
				// bits"; component = row
				per := dc.K / dc.N
				for j := 0; j < per; j++ {
					w |= mt.A[comp][inv*per+j] << (j * dc.a.bits)
				}
			default:
				// "each invocation contributes every other row" (every r-th):
				// invocation inv holds column inv%K of rows comp*r + inv/K
				r := dc.N / dc.K
				row := comp*r + inv/dc.K
				if row < dc.M {
					w = mt.A[row][inv%dc.K]
				} else {
					w = uint64(rng.Uint32()) & (1<<dc.aw - 1)
				}
			}
			words = append(words, uint32(w))
		}
		// Matrix B: column inv, lower rows in lower components and bits
		per := 1
		if dc.b.bits <= 16 {
			per = 32 / dc.b.bits
		}
		for comp := 0; comp < cb; comp++ {
			var w uint64
			for j := 0; j < per; j++ {
				w |= mt.B[comp*per+j][inv] << (j * dc.b.bits)
			}
			words = append(words, uint32(w))
		}
		// Matrix C: column inv, component = row
		for m := 0; m < dc.M; m++ {
			words = append(words, uint32(mt.C[m][inv]))
		}
	}
	return words
}

// dpasExpect is the Result, column by column, as words: integers exact
// and wrapped to 32 bits; floats summed exactly (exact) or in order in
// float32, then rounded to the Result format.
func dpasExpect(dc dpasCase, mt dpasMats, exact bool) []uint32 {
	out := make([]uint32, dc.N*dc.M)
	for n := 0; n < dc.N; n++ {
		for m := 0; m < dc.M; m++ {
			var v *big.Float
			if exact || !dc.a.float {
				v = elemValue(mt.C[m][n], dc.c)
				for k := 0; k < dc.K; k++ {
					p := new(big.Float).SetPrec(2000).Mul(elemValue(mt.A[m][k], dc.a), elemValue(mt.B[k][n], dc.b))
					v.Add(v, p)
				}
			} else {
				c, _ := elemValue(mt.C[m][n], dc.c).Float32()
				acc := c
				for k := 0; k < dc.K; k++ {
					p, _ := new(big.Float).Mul(elemValue(mt.A[m][k], dc.a), elemValue(mt.B[k][n], dc.b)).Float32()
					acc += p
				}
				v = big.NewFloat(float64(acc))
			}
			out[n*dc.M+m] = roundTo(v, dc.r)
		}
	}
	return out
}

// roundTo rounds v to nearest even in format f (integers: the low 32
// bits), as a word.
func roundTo(v *big.Float, f dpasFmt) uint32 {
	if !f.float {
		i, _ := v.Int(nil)
		return uint32(new(big.Int).And(i, big.NewInt(1<<32-1)).Uint64())
	}
	prec := map[dpasFmt]uint{fF32: 24, fF16: 11, fBF16: 8}[f]
	r, _ := new(big.Float).SetMode(big.ToNearestEven).SetPrec(prec).Set(v).Float32()
	switch f {
	case fF16:
		return uint32(f16Bits(r))
	case fBF16:
		return math.Float32bits(r) >> 16
	}
	return math.Float32bits(r)
}

// dpasCases are every encoding of the extension's operand table at
// subgroup sizes 8, 16 and 32, with each K the mapping allows for A
// components of 8, 16 and 32 bits (K = N × elements per component, or a
// divisor of N for unpacked A), B vectors of at most 16 components.
func dpasCases() []dpasCase {
	type enc struct{ a, b, c, r dpasFmt }
	encs := []enc{
		{fS8, fS8, fS32, fS32}, {fU8, fS8, fS32, fS32}, {fS8, fU8, fS32, fS32}, {fU8, fU8, fS32, fS32},
		{fS4, fS4, fS32, fS32}, {fU4, fS4, fS32, fS32}, {fS4, fU4, fS32, fS32}, {fU4, fU4, fS32, fS32},
		{fS8, fS4, fS32, fS32}, {fS32, fS32, fS32, fS32},
		{fF16, fF16, fF32, fF32}, {fF16, fF16, fF16, fF16},
		{fBF16, fBF16, fF32, fF32}, {fBF16, fBF16, fBF16, fBF16}, {fBF16, fBF16, fF32, fBF16},
		{fTF32, fTF32, fF32, fF32}, {fF32, fF32, fF32, fF32}, {fF16, fBF16, fF32, fF32},
	}
	var cs []dpasCase
	for _, N := range []int{8, 16, 32} {
		for i, e := range encs {
			for _, aw := range []int{8, 16, 32} {
				if aw < e.a.bits || aw%e.a.bits != 0 || e.a.float && aw < 16 {
					continue // packed floats are in 16- or 32-bit integers
				}
				Ks := []int{N * aw / e.a.bits}
				if aw == e.a.bits {
					Ks = append(Ks, N/2, N/4)
				}
				for _, K := range Ks {
					if K < 1 || K*e.b.bits > 16*32 || e.b.bits <= 16 && K*e.b.bits%32 != 0 {
						continue
					}
					M := []int{1, 3, 8}[(i+K+aw)%3]
					cs = append(cs, dpasCase{a: e.a, b: e.b, aw: aw, c: e.c, r: e.r, M: M, K: K, N: N})
				}
			}
		}
	}
	return cs
}

// TestDPASEncodings runs every case in both accumulation modes against
// the model.
func TestDPASEncodings(t *testing.T) {
	cases := dpasCases()
	if len(cases) < 100 {
		t.Fatalf("only %d cases", len(cases))
	}
	for ci, dc := range cases {
		t.Run(dc.String(), func(t *testing.T) {
			rng := rand.New(rand.NewSource(int64(ci)))
			mt := dpasMats{A: randMat(rng, dc.M, dc.K, dc.a), B: randMat(rng, dc.K, dc.N, dc.b), C: randMat(rng, dc.M, dc.N, dc.c)}
			ca, cb := dc.counts()
			ta := compType(dc.a, dc.aw)
			if dc.a.float && dc.a.bits == 32 {
				ta = "f32"
			}
			src := dpasModule(ta, ca, dc.bType(), cb, compType(dc.c, 0), compType(dc.r, 0), dc.M,
				fmt.Sprintf("%%k%d", 0)+"K", dc.operandBits(), dc.N, fmt.Sprintf("%%k0K = OpConstant %%u32 %d\n", dc.K))
			m := assemble(t, src)
			in := dpasSpread(dc, mt, rng)
			for _, mode := range []MatrixAccumulate{MatrixOrdered, MatrixExact} {
				if mode == MatrixExact && !dc.a.float {
					continue
				}
				out := make([]byte, 4*dc.N*dc.M)
				o := Options{SubgroupSize: dc.N, MatrixAccumulate: mode}
				if err := run(t, m, o, [3]uint32{1, 1, 1}, map[BindingKey][]byte{{0, 0}: u32s(in...), {0, 1}: out}, nil); err != nil {
					t.Fatal(err)
				}
				want := dpasExpect(dc, mt, mode == MatrixExact)
				for j, w := range want {
					if got := binary.LittleEndian.Uint32(out[4*j:]); got != w {
						t.Fatalf("mode %d: invocation %d row %d: got %#x, want %#x", mode, j/dc.M, j%dc.M, got, w)
					}
				}
			}
		})
	}
}

func randMat(rng *rand.Rand, rows, cols int, f dpasFmt) [][]uint64 {
	m := make([][]uint64, rows)
	for i := range m {
		m[i] = make([]uint64, cols)
		for j := range m[i] {
			m[i][j] = randElem(rng, f)
		}
	}
	return m
}

// TestDPASAccumulateModes pins the documented float accumulation: C = 1
// plus sixteen products 2^-12·2^-12 = 2^-24. In order in float32 each
// addition is a tie that rounds back to 1; summed exactly it is 1+2^-20,
// a float32. The values come from the accumulation bullets of dpas.go's
// header (the extension leaves order and precision open).
func TestDPASAccumulateModes(t *testing.T) {
	const N, K = 8, 16
	// A: one fp16 row, two columns packed per 32-bit component (K = 2N)
	src := dpasModule("u32", 1, "u32", K/2, "f32", "f32", 1, "%kK",
		"MatrixAPackedFloat16INTEL|MatrixBPackedFloat16INTEL", N, fmt.Sprintf("%%kK = OpConstant %%u32 %d\n", K))
	m := assemble(t, src)
	h := uint32(f16Bits(float32(math.Ldexp(1, -12))))
	var in []uint32
	for i := 0; i < N; i++ {
		in = append(in, h|h<<16)
		for j := 0; j < K/2; j++ {
			in = append(in, h|h<<16)
		}
		in = append(in, math.Float32bits(1))
	}
	for mode, want := range map[MatrixAccumulate]float32{MatrixOrdered: 1, MatrixExact: float32(1 + math.Ldexp(1, -20))} {
		out := make([]byte, 4*N)
		if err := run(t, m, Options{SubgroupSize: N, MatrixAccumulate: mode}, [3]uint32{1, 1, 1},
			map[BindingKey][]byte{{0, 0}: u32s(in...), {0, 1}: out}, nil); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < N; i++ {
			if got := getF32(out, i); got != want {
				t.Errorf("mode %d, invocation %d: got %g, want %g", mode, i, got, want)
			}
		}
	}
}

// TestDPASCompileErrors checks that operands the extension's instruction
// and mapping sections do not allow are compile errors naming the
// instruction, never a panic.
func TestDPASCompileErrors(t *testing.T) {
	k := func(v int) string { return fmt.Sprintf("%%kK = OpConstant %%u32 %d\n", v) }
	cases := []struct {
		name, src, want string
	}{
		{"K not N times the packing", dpasModule("u32", 2, "u32", 4, "u32", "u32", 2, "%kK", "MatrixAPackedInt8INTEL|MatrixBPackedInt8INTEL", 8, k(16)), "K Dim 16"},
		{"A components", dpasModule("u32", 3, "u32", 8, "u32", "u32", 2, "%kK", "MatrixAPackedInt8INTEL|MatrixBPackedInt8INTEL", 8, k(32)), "Matrix A has 3 components"},
		{"packed int8 on floats", dpasModule("f32", 2, "u32", 8, "u32", "u32", 2, "%kK", "MatrixAPackedInt8INTEL|MatrixBPackedInt8INTEL", 8, k(32)), "not integers"},
		{"signed float", dpasModule("u16", 2, "u32", 4, "f32", "f32", 2, "%kK", "MatrixASignedComponentsINTEL|MatrixAPackedFloat16INTEL|MatrixBPackedFloat16INTEL", 8, k(8)), "marked signed"},
		{"B not 32-bit", dpasModule("u32", 2, "u16", 16, "u32", "u32", 2, "%kK", "MatrixAPackedInt8INTEL|MatrixBPackedInt8INTEL", 8, k(32)), "packed in 32-bit"},
		{"B components", dpasModule("u32", 2, "u32", 4, "u32", "u32", 2, "%kK", "MatrixAPackedInt8INTEL|MatrixBPackedInt8INTEL", 8, k(32)), "Matrix B has 4 components"},
		{"C components", strings.Replace(dpasModule("u32", 2, "u32", 8, "u32", "u32", 2, "%kK", "MatrixAPackedInt8INTEL|MatrixBPackedInt8INTEL", 8, k(32)), "%A %B %C", "%A %B %Cx", 1), "Matrix C has 1"},
		{"K not constant", dpasModule("u32", 2, "u32", 8, "u32", "u32", 2, "%i", "MatrixAPackedInt8INTEL|MatrixBPackedInt8INTEL", 8, ""), "constant"},
		{"int times float", dpasModule("u32", 2, "u32", 4, "u32", "u32", 2, "%kK", "MatrixAPackedInt8INTEL|MatrixBPackedFloat16INTEL", 8, k(32)), "both be integers"},
		{"bf16 result in floats", dpasModule("u16", 2, "u32", 4, "f32", "f32", 2, "%kK", "MatrixAPackedBFloat16INTEL|MatrixBPackedBFloat16INTEL|MatrixResultBFloat16INTEL", 8, k(8)), "bf16"},
		{"K zero", dpasModule("u32", 2, "u32", 8, "u32", "u32", 2, "%kK", "", 8, k(0)), "out of range"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := tc.src
			if strings.Contains(src, "%Cx") {
				// C is the first component of the real C: one component for M = 2
				src = strings.Replace(src, "%R = OpSubgroupMatrix", "%Cx = OpCompositeExtract %u32 %C 0\n%R = OpSubgroupMatrix", 1)
			}
			_, err := Compile(assemble(t, src), "", Options{SubgroupSize: 8})
			if err == nil || !strings.Contains(err.Error(), "OpSubgroupMatrixMultiplyAccumulateINTEL") || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error naming the instruction and %q", err, tc.want)
			}
		})
	}
}

// TestDPASPartialSubgroup: the extension makes the instruction undefined
// unless every invocation of the subgroup executes it; a subgroup of 7
// present invocations of 8 is a FaultSubgroup, not a result.
func TestDPASPartialSubgroup(t *testing.T) {
	src := dpasModule("u32", 2, "u32", 8, "u32", "u32", 2, "%kK", "MatrixAPackedInt8INTEL|MatrixBPackedInt8INTEL", 7, "%kK = OpConstant %u32 32\n")
	in, out := make([]byte, 4*7*12), make([]byte, 4*7*2)
	err := run(t, assemble(t, src), Options{SubgroupSize: 8}, [3]uint32{1, 1, 1}, map[BindingKey][]byte{{0, 0}: in, {0, 1}: out}, nil)
	var f *Fault
	if !errors.As(err, &f) || f.Kind != FaultSubgroup || !strings.Contains(f.Error(), "OpSubgroupMatrixMultiplyAccumulateINTEL") {
		t.Fatalf("got %v, want a FaultSubgroup naming the instruction", err)
	}
}

// TestDPASFloatEdges checks the documented float choices on values where
// they show: float32 A and B (K = 2 < N = 8, so invocations 0 and 1 hold
// row 0 of A), C float32, every invocation's B column (b0, b1). Expected
// values are worked out by hand from IEEE 754 (round to nearest even,
// special values) and the ordered/exact rules of dpas.go's header.
func TestDPASFloatEdges(t *testing.T) {
	inf, nan := float32(math.Inf(1)), uint32(0x7fc00000)
	p := func(e int) float32 { return float32(math.Ldexp(1, e)) }
	bits := math.Float32bits
	cases := []struct {
		name           string
		bf16           bool // Result as bf16 (MatrixResultBFloat16INTEL)
		c, a0, a1      float32
		b0, b1         float32
		ordered, exact uint32 // Result bits; nan: any NaN
	}{
		// 1 + 2^-8 + 2^-60: in float32 the 2^-60 is lost and the bf16
		// rounding is a tie to even (1); exactly it is above the tie
		// (1 + 2^-7), which a float64 sum rounded twice would miss
		{"one rounding", true, 1, p(-4), p(-30), p(-4), p(-30), 0x3f80, 0x3f81},
		// 1 + 2^100 - 2^100: float32 loses the 1
		{"cancellation", false, 1, p(50), p(50), p(50), -p(50), 0, bits(1)},
		{"inf - inf", false, inf, -inf, 0, 1, 1, nan, nan},
		{"inf times zero", false, 1, inf, 1, 0, 1, nan, nan},
		{"inf", false, 1, inf, 1, 2, 1, bits(inf), bits(inf)},
		{"overflow", false, math.MaxFloat32, p(100), 0, p(100), 0, bits(inf), bits(inf)},
		{"negative zeros", false, float32(math.Copysign(0, -1)), 0, float32(math.Copysign(0, -1)), -1, 1, 0x80000000, 0x80000000},
		{"zero sum", false, 1, -1, 0, 1, 0, 0, 0},
		{"subnormal", false, 0, p(-70), 0, p(-70), 0, 0x200, 0x200},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rt, bitsOp := "f32", ""
			if tc.bf16 {
				rt, bitsOp = "u16", "MatrixResultBFloat16INTEL"
			}
			m := assemble(t, dpasModule("f32", 1, "f32", 2, "f32", rt, 1, "%kK", bitsOp, 8, "%kK = OpConstant %u32 2\n"))
			var in []uint32
			for i := 0; i < 8; i++ {
				a := []float32{tc.a0, tc.a1, 7, 7, 7, 7, 7, 7}[i] // rows >= M = 1 are ignored
				in = append(in, bits(a), bits(tc.b0), bits(tc.b1), bits(tc.c))
			}
			for mode, want := range map[MatrixAccumulate]uint32{MatrixOrdered: tc.ordered, MatrixExact: tc.exact} {
				out := make([]byte, 4*8)
				if err := run(t, m, Options{SubgroupSize: 8, MatrixAccumulate: mode}, [3]uint32{1, 1, 1},
					map[BindingKey][]byte{{0, 0}: u32s(in...), {0, 1}: out}, nil); err != nil {
					t.Fatal(err)
				}
				for i := 0; i < 8; i++ {
					got := getU32(out, i)
					isNaN := got&0x7f800000 == 0x7f800000 && got&0x7fffff != 0
					if want == nan && !isNaN || want != nan && got != want {
						t.Errorf("mode %d, invocation %d: got %#x, want %#x", mode, i, got, want)
					}
				}
			}
		})
	}
}

// TestDPASManySubgroups: each subgroup of a workgroup computes its own
// product from its own invocations' data, in every schedule (wide groups,
// separate subgroups, shuffled).
func TestDPASManySubgroups(t *testing.T) {
	const N, sgs = 8, 4
	dc := dpasCase{a: fS8, b: fU8, aw: 32, c: fS32, r: fS32, M: 2, K: 32, N: N}
	ca, cb := dc.counts()
	m := assemble(t, dpasModule("u32", ca, "u32", cb, "u32", "u32", dc.M, "%kK", dc.operandBits(), N*sgs, "%kK = OpConstant %u32 32\n"))
	rng := rand.New(rand.NewSource(5))
	var in, want []uint32
	for s := 0; s < sgs; s++ {
		mt := dpasMats{A: randMat(rng, dc.M, dc.K, dc.a), B: randMat(rng, dc.K, dc.N, dc.b), C: randMat(rng, dc.M, dc.N, dc.c)}
		in = append(in, dpasSpread(dc, mt, rng)...)
		want = append(want, dpasExpect(dc, mt, false)...)
	}
	for _, sc := range schedules {
		t.Run(sc.name, func(t *testing.T) {
			o := sc.opts
			o.SubgroupSize = N
			out := make([]byte, 4*len(want))
			if err := run(t, m, o, [3]uint32{1, 1, 1}, map[BindingKey][]byte{{0, 0}: u32s(in...), {0, 1}: out}, nil); err != nil {
				t.Fatal(err)
			}
			for j, w := range want {
				if got := getU32(out, j); got != w {
					t.Fatalf("word %d: got %#x, want %#x", j, got, w)
				}
			}
		})
	}
}

// TestDPASSpecExamples runs the extension's worked examples ("Mapping
// Matrix Data to Invocations", Examples) at subgroup size 4: A[r][c] and
// B[r][c] hold r·16+c, so the words dpasSpread lays out can be checked
// against the examples' lists before the executor runs them.
func TestDPASSpecExamples(t *testing.T) {
	rc := func(r, c int) uint64 { return uint64(r*16 + c) }
	cases := []struct {
		name  string
		dc    dpasCase
		wantA [][]uint64 // per invocation, A's components as the example lists them
		wantB [][]uint64 // per invocation, B's 32-bit components
	}{
		// Example 1 (A: N = K) with Example 5-like B of 8-bit data
		{"A N=K", dpasCase{a: fS8, b: fS8, aw: 8, c: fS32, r: fS32, M: 2, K: 4, N: 4},
			[][]uint64{{rc(0, 0), rc(1, 0)}, {rc(0, 1), rc(1, 1)}, {rc(0, 2), rc(1, 2)}, {rc(0, 3), rc(1, 3)}},
			[][]uint64{{rc(3, 0)<<24 | rc(2, 0)<<16 | rc(1, 0)<<8 | rc(0, 0)}, {rc(3, 1)<<24 | rc(2, 1)<<16 | rc(1, 1)<<8 | rc(0, 1)},
				{rc(3, 2)<<24 | rc(2, 2)<<16 | rc(1, 2)<<8 | rc(0, 2)}, {rc(3, 3)<<24 | rc(2, 3)<<16 | rc(1, 3)<<8 | rc(0, 3)}}},
		// Example 2 (A: N < K, two columns per value) with Example 5's B
		{"A N<K", dpasCase{a: fS8, b: fS8, aw: 16, c: fS32, r: fS32, M: 2, K: 8, N: 4},
			[][]uint64{{rc(0, 1)<<8 | rc(0, 0), rc(1, 1)<<8 | rc(1, 0)}, {rc(0, 3)<<8 | rc(0, 2), rc(1, 3)<<8 | rc(1, 2)},
				{rc(0, 5)<<8 | rc(0, 4), rc(1, 5)<<8 | rc(1, 4)}, {rc(0, 7)<<8 | rc(0, 6), rc(1, 7)<<8 | rc(1, 6)}},
			[][]uint64{{rc(3, 0)<<24 | rc(2, 0)<<16 | rc(1, 0)<<8 | rc(0, 0), rc(7, 0)<<24 | rc(6, 0)<<16 | rc(5, 0)<<8 | rc(4, 0)},
				{rc(3, 1)<<24 | rc(2, 1)<<16 | rc(1, 1)<<8 | rc(0, 1), rc(7, 1)<<24 | rc(6, 1)<<16 | rc(5, 1)<<8 | rc(4, 1)},
				{rc(3, 2)<<24 | rc(2, 2)<<16 | rc(1, 2)<<8 | rc(0, 2), rc(7, 2)<<24 | rc(6, 2)<<16 | rc(5, 2)<<8 | rc(4, 2)},
				{rc(3, 3)<<24 | rc(2, 3)<<16 | rc(1, 3)<<8 | rc(0, 3), rc(7, 3)<<24 | rc(6, 3)<<16 | rc(5, 3)<<8 | rc(4, 3)}}},
		// Example 3 (A: N > K, every other row) with Example 7's 32-bit B
		{"A N>K", dpasCase{a: fS32, b: fS32, aw: 32, c: fS32, r: fS32, M: 4, K: 2, N: 4},
			[][]uint64{{rc(0, 0), rc(2, 0)}, {rc(0, 1), rc(2, 1)}, {rc(1, 0), rc(3, 0)}, {rc(1, 1), rc(3, 1)}},
			[][]uint64{{rc(0, 0), rc(1, 0)}, {rc(0, 1), rc(1, 1)}, {rc(0, 2), rc(1, 2)}, {rc(0, 3), rc(1, 3)}}},
		// Example 4 (A: N > K, one row: invocations 2 and 3 ignored)
		{"A one row", dpasCase{a: fS32, b: fS32, aw: 32, c: fS32, r: fS32, M: 1, K: 2, N: 4},
			[][]uint64{{rc(0, 0)}, {rc(0, 1)}, nil, nil},
			[][]uint64{{rc(0, 0), rc(1, 0)}, {rc(0, 1), rc(1, 1)}, {rc(0, 2), rc(1, 2)}, {rc(0, 3), rc(1, 3)}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dc := tc.dc
			mat := func(rows, cols int) [][]uint64 {
				m := make([][]uint64, rows)
				for r := range m {
					m[r] = make([]uint64, cols)
					for c := range m[r] {
						m[r][c] = rc(r, c)
					}
				}
				return m
			}
			mt := dpasMats{A: mat(dc.M, dc.K), B: mat(dc.K, dc.N), C: mat(dc.M, dc.N)}
			in := dpasSpread(dc, mt, rand.New(rand.NewSource(1)))
			ca, cb := dc.counts()
			for inv := 0; inv < dc.N; inv++ {
				w := in[inv*(ca+cb+dc.M):]
				for j, v := range tc.wantA[inv] {
					if uint64(w[j]) != v {
						t.Errorf("invocation %d A[%d]: %#x, the example says %#x", inv, j, w[j], v)
					}
				}
				for j, v := range tc.wantB[inv] {
					if uint64(w[ca+j]) != v {
						t.Errorf("invocation %d B[%d]: %#x, the example says %#x", inv, j, w[ca+j], v)
					}
				}
			}
			m := assemble(t, dpasModule(compType(dc.a, dc.aw), ca, dc.bType(), cb, "u32", "u32", dc.M, "%kK", dc.operandBits(), dc.N,
				fmt.Sprintf("%%kK = OpConstant %%u32 %d\n", dc.K)))
			out := make([]byte, 4*dc.N*dc.M)
			if err := run(t, m, Options{SubgroupSize: dc.N}, [3]uint32{1, 1, 1}, map[BindingKey][]byte{{0, 0}: u32s(in...), {0, 1}: out}, nil); err != nil {
				t.Fatal(err)
			}
			for j, w := range dpasExpect(dc, mt, false) {
				if got := getU32(out, j); got != w {
					t.Fatalf("invocation %d row %d: got %#x, want %#x", j/dc.M, j%dc.M, got, w)
				}
			}
		})
	}
}

// TestDPASOperandBitsNeverPanic compiles and runs the instruction under
// every pair of Matrix Multiply Accumulate Operands bits (spirv.Decode
// already rejects unknown ones) over a few operand shapes: each is a compile error or a run, never
// a panic (which Compile and Dispatch would report as an internal error).
func TestDPASOperandBitsNeverPanic(t *testing.T) {
	shapes := []struct {
		ta       string
		na       int
		tb       string
		nb       int
		tc, tr   string
		M, K     int
		typeNote string
	}{
		{"u16", 2, "u32", 8, "u32", "u32", 2, 32, "int8 in 16 bits"},
		{"u16", 2, "u32", 8, "f32", "f32", 2, 16, "16-bit floats"},
		{"f32", 1, "f32", 8, "f32", "f32", 2, 8, "float32"},
		{"u32", 2, "u32", 16, "u32", "u32", 2, 16, "int32"},
		{"u16", 1, "u32", 8, "u16", "u16", 1, 16, "16-bit C and Result"},
	}
	var masks []uint32
	for i := -1; i < 14; i++ {
		for j := i; j < 14; j++ {
			var m uint32
			if i >= 0 {
				m |= 1 << i
			}
			if j >= 0 {
				m |= 1 << j
			}
			masks = append(masks, m)
		}
	}
	ran, rejected := 0, 0
	for _, sh := range shapes {
		for _, mask := range masks {
			src := dpasModule(sh.ta, sh.na, sh.tb, sh.nb, sh.tc, sh.tr, sh.M, "%kK", "None", 16,
				fmt.Sprintf("%%kK = OpConstant %%u32 %d\n", sh.K))
			p, err := Compile(assembleMMABits(t, src, mask), "", Options{SubgroupSize: 16})
			if err != nil {
				if strings.Contains(err.Error(), "internal") || !strings.Contains(err.Error(), "OpSubgroupMatrixMultiplyAccumulateINTEL") {
					t.Errorf("%s, bits %#x: %v", sh.typeNote, mask, err)
				}
				rejected++
				continue
			}
			ran++
			words := 16 * (sh.na + sh.nb + sh.M)
			in := make([]uint32, words)
			for i := range in {
				in[i] = uint32(i) * 0x9e3779b9
			}
			res := &Resources{Buffers: map[BindingKey][]*Buffer{{0, 0}: {{Data: u32s(in...)}}, {0, 1}: {{Data: make([]byte, 4*16*sh.M)}}}}
			if err := p.Dispatch(context.Background(), 1, 1, 1, res); err != nil {
				t.Errorf("%s, bits %#x: %v", sh.typeNote, mask, err)
			}
		}
	}
	t.Logf("%d ran, %d rejected", ran, rejected)
	if ran < 10 || rejected < 10 {
		t.Errorf("%d ran, %d rejected: the shapes no longer cover both", ran, rejected)
	}
}

// assembleMMABits assembles src, whose one matrix instruction has the
// operands literal None, and sets that literal to mask.
func assembleMMABits(t *testing.T, src string, mask uint32) *spirv.Module {
	t.Helper()
	words, err := asm.Assemble([]byte(src), asm.Options{})
	if err != nil {
		t.Fatalf("assemble: %v", err)
	}
	found := false
	for i := 5; i < len(words); i += int(words[i] >> 16) {
		if words[i]&0xffff == uint32(spirv.OpSubgroupMatrixMultiplyAccumulateINTEL) && words[i]>>16 == 8 {
			words[i+7], found = mask, true
		}
		if words[i]>>16 == 0 {
			break
		}
	}
	if !found {
		t.Fatal("no OpSubgroupMatrixMultiplyAccumulateINTEL with an operands literal")
	}
	m, err := spirv.Decode(u32s(words...))
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	return m
}
