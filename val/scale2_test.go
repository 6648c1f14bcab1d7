package val

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"spvx/asm"
	"spvx/spirv"
)

// TestPathologicalSizes: modules that are big in one dimension (ids near
// the 2^22 bound, a struct of thousands of members, tens of thousands of
// globals, access chains of 200 indexes) are valid, and validating one
// four times the size takes well under sixteen times as long (the ratio a
// quadratic rule would give). Times are the CPU time of the best of a few
// runs, compared with each other only, never with an absolute limit.
func TestPathologicalSizes(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	cases := []struct {
		name  string
		n     int
		build func(n int) string
	}{
		{"ids up to 2^22", 8000, sparseIDs},
		{"struct members", 4000, hugeStruct},
		{"globals", 8000, manyGlobals},
		{"access chains of 200 indexes", 1000, longChains},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			small, big := c.build(c.n), c.build(4*c.n)
			ms, mb := decodeAsm(t, small), decodeAsm(t, big)
			ts, tb := bestOf(t, ms), bestOf(t, mb)
			ratio := float64(tb) / float64(max(ts, 1))
			t.Logf("n=%d: %v, 4n: %v (x%.1f)", c.n, ts, tb, ratio)
			if ratio > 10 {
				t.Errorf("4x the input took %.1fx as long (%v vs %v): not linear", ratio, tb, ts)
			}
		})
	}
}

func decodeAsm(t *testing.T, src string) *spirv.Module {
	t.Helper()
	words, err := asm.Assemble([]byte(src), asm.Options{PreserveNumericIDs: true, TargetEnv: "spv1.3"})
	if err != nil {
		t.Fatalf("assembling: %v", err)
	}
	m, err := spirv.DecodeWords(words)
	if err != nil {
		t.Fatal(err)
	}
	m.Index()
	return m
}

// bestOf validates m a few times (it must be valid) and returns the
// least CPU time one took.
func bestOf(t *testing.T, m *spirv.Module) time.Duration {
	t.Helper()
	best := time.Duration(1<<63 - 1)
	for range 5 {
		start := cpuTime()
		err := Validate(m, Options{})
		d := cpuTime() - start
		if err != nil {
			t.Fatalf("rejected: %v", err)
		}
		best = min(best, d)
	}
	return best
}

// sparseIDs: n constants and n additions whose ids are spread up to
// 2^22-2 (the bound 2^22-1 is the default --max-id-bound), so that any table indexed by id
// would be as large as the bound.
func sparseIDs(n int) string {
	var b strings.Builder
	b.WriteString(valHeadAsm + "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%u32 = OpTypeInt 32 0\n")
	const top = 1<<22 - 2 // the bound is top+1, the default --max-id-bound
	step := (top - 100) / (2 * n)
	id := func(k int) int { return top - k*step }
	for k := 0; k < n; k++ {
		fmt.Fprintf(&b, "%%%d = OpConstant %%u32 %d\n", id(k), k)
	}
	b.WriteString("%main = OpFunction %void None %fn\n%e = OpLabel\n")
	for k := 0; k < n; k++ {
		fmt.Fprintf(&b, "%%%d = OpIAdd %%u32 %%%d %%%d\n", id(n+k), id(k), id((k+1)%n))
	}
	b.WriteString("OpReturn\nOpFunctionEnd\n")
	return b.String()
}

// hugeStruct: a Block struct of n members, each named and given an
// Offset, in a uniform buffer, with one member loaded per 16.
func hugeStruct(n int) string {
	var b strings.Builder
	b.WriteString(valHeadAsm)
	b.WriteString("OpDecorate %S Block\nOpDecorate %v DescriptorSet 0\nOpDecorate %v Binding 0\n")
	for k := 0; k < n; k++ {
		fmt.Fprintf(&b, "OpMemberDecorate %%S %d Offset %d\n", k, 4*k)
	}
	b.WriteString("%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%u32 = OpTypeInt 32 0\n%S = OpTypeStruct")
	for range n {
		b.WriteString(" %u32")
	}
	b.WriteString("\n%pS = OpTypePointer Uniform %S\n%pu = OpTypePointer Uniform %u32\n%v = OpVariable %pS Uniform\n")
	for k := 0; k < n; k += 16 {
		fmt.Fprintf(&b, "%%c%d = OpConstant %%u32 %d\n", k, k)
	}
	b.WriteString("%main = OpFunction %void None %fn\n%e = OpLabel\n")
	for k := 0; k < n; k += 16 {
		fmt.Fprintf(&b, "%%p%d = OpAccessChain %%pu %%v %%c%d\n%%l%d = OpLoad %%u32 %%p%d\n", k, k, k, k)
	}
	b.WriteString("OpReturn\nOpFunctionEnd\n")
	return b.String()
}

// manyGlobals: n named Private variables, each loaded and stored once.
func manyGlobals(n int) string {
	var b strings.Builder
	b.WriteString(valHeadAsm)
	for k := 0; k < n; k++ {
		fmt.Fprintf(&b, "OpName %%g%d \"g%d\"\n", k, k)
	}
	b.WriteString("%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%f32 = OpTypeFloat 32\n%pf = OpTypePointer Private %f32\n")
	for k := 0; k < n; k++ {
		fmt.Fprintf(&b, "%%g%d = OpVariable %%pf Private\n", k)
	}
	b.WriteString("%main = OpFunction %void None %fn\n%e = OpLabel\n")
	for k := 0; k < n; k++ {
		fmt.Fprintf(&b, "%%l%d = OpLoad %%f32 %%g%d\nOpStore %%g%d %%l%d\n", k, k, (k+1)%n, k)
	}
	b.WriteString("OpReturn\nOpFunctionEnd\n")
	return b.String()
}

// longChains: an array nested 200 deep in a Function variable, and n
// access chains of 200 indexes to its innermost element.
func longChains(n int) string {
	const depth = 200
	var b strings.Builder
	b.WriteString(valHeadAsm + "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%u32 = OpTypeInt 32 0\n%c0 = OpConstant %u32 0\n%c2 = OpConstant %u32 2\n%a0 = OpTypeArray %u32 %c2\n")
	for k := 1; k < depth; k++ {
		fmt.Fprintf(&b, "%%a%d = OpTypeArray %%a%d %%c2\n", k, k-1)
	}
	fmt.Fprintf(&b, "%%pa = OpTypePointer Function %%a%d\n%%pu = OpTypePointer Function %%u32\n", depth-1)
	b.WriteString("%main = OpFunction %void None %fn\n%e = OpLabel\n%v = OpVariable %pa Function\n")
	idx := strings.Repeat(" %c0", depth)
	for k := 0; k < n; k++ {
		fmt.Fprintf(&b, "%%p%d = OpAccessChain %%pu %%v%s\n", k, idx)
	}
	b.WriteString("OpReturn\nOpFunctionEnd\n")
	return b.String()
}
