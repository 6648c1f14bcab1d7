package interp

import (
	"encoding/binary"
	"fmt"
	"strings"
	"testing"
)

// TestLongVectors runs SPV_EXT_long_vector's types: OpTypeVectorIdEXT
// with a constant count (5), a specialized spec-constant count (the
// module says 3, the run 7) and one component, and an OpTypeVector of 20
// components; each is built from buffer words, computed on (v*v + v, a
// dynamic extract, a shuffle reversing it), kept in a Function variable and
// written back. The expected words are computed here from the same
// formulas.
func TestLongVectors(t *testing.T) {
	for _, c := range []struct {
		name, decl string
		n          int
		spec       map[uint32]uint64
	}{
		{"idext-5", "%n = OpConstant %u32 5\n%v = OpTypeVectorIdEXT %u32 %n", 5, nil},
		{"idext-1", "%n = OpConstant %u32 1\n%v = OpTypeVectorIdEXT %u32 %n", 1, nil},
		{"idext-spec-7", "OpDecorate %n SpecId 3\n%n = OpSpecConstant %u32 3\n%v = OpTypeVectorIdEXT %u32 %n", 7, map[uint32]uint64{3: 7}},
		{"vector-20", "%v = OpTypeVector %u32 20", 20, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := assemble(t, longVecSrc(c.decl, c.n))
			const groups = 2
			buf := make([]byte, 4*c.n*4*groups)
			for i := range len(buf) / 4 {
				binary.LittleEndian.PutUint32(buf[4*i:], uint32(3*i+1))
			}
			in := append([]byte(nil), buf...)
			if err := run(t, m, Options{SpecConstants: c.spec}, [3]uint32{groups, 1, 1}, map[BindingKey][]byte{{0, 0}: buf}, nil); err != nil {
				t.Fatal(err)
			}
			for inv := range 4 * groups {
				base := inv * c.n
				for k := range c.n {
					x := binary.LittleEndian.Uint32(in[4*(base+c.n-1-k):]) // reversed by the shuffle
					want := x*x + x
					if k == 0 {
						want += binary.LittleEndian.Uint32(in[4*(base+c.n-1):]) // plus the dynamic extract of the last
					}
					if got := binary.LittleEndian.Uint32(buf[4*(base+k):]); got != want {
						t.Errorf("invocation %d component %d = %d, want %d", inv, k, got, want)
					}
				}
			}
		})
	}
}

// longVecSrc is a compute shader over vectors of n components of type %v
// declared by decl: invocation i reads words n*i.., computes
// w = reverse(v*v + v) and w[0] += v[n-1], and writes w back.
func longVecSrc(decl string, n int) string {
	var b strings.Builder
	b.WriteString(`OpCapability Shader
OpCapability LongVectorEXT
OpExtension "SPV_EXT_long_vector"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gid
OpExecutionMode %main LocalSize 4 1 1
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %arr ArrayStride 4
OpMemberDecorate %B 0 Offset 0
OpDecorate %B Block
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%u32 = OpTypeInt 32 0
%v3 = OpTypeVector %u32 3
%pin = OpTypePointer Input %v3
%gid = OpVariable %pin Input
%pinx = OpTypePointer Input %u32
%arr = OpTypeRuntimeArray %u32
%B = OpTypeStruct %arr
%pB = OpTypePointer StorageBuffer %B
%pu = OpTypePointer StorageBuffer %u32
%buf = OpVariable %pB StorageBuffer
%c0 = OpConstant %u32 0
`)
	fmt.Fprintf(&b, "%%cn = OpConstant %%u32 %d\n%%clast = OpConstant %%u32 %d\n", n, n-1)
	b.WriteString(decl + "\n%pfv = OpTypePointer Function %v\n")
	for k := range n {
		fmt.Fprintf(&b, "%%k%d = OpConstant %%u32 %d\n", k, k)
	}
	b.WriteString("%main = OpFunction %void None %fn\n%entry = OpLabel\n%var = OpVariable %pfv Function\n")
	b.WriteString("%gx = OpAccessChain %pinx %gid %c0\n%i = OpLoad %u32 %gx\n%base = OpIMul %u32 %i %cn\n")
	var parts []string
	for k := range n {
		fmt.Fprintf(&b, "%%a%d = OpIAdd %%u32 %%base %%k%d\n%%p%d = OpAccessChain %%pu %%buf %%c0 %%a%d\n%%x%d = OpLoad %%u32 %%p%d\n", k, k, k, k, k, k)
		parts = append(parts, fmt.Sprintf("%%x%d", k))
	}
	fmt.Fprintf(&b, "%%v0 = OpCompositeConstruct %%v %s\n", strings.Join(parts, " "))
	b.WriteString("%sq = OpIMul %v %v0 %v0\n%s = OpIAdd %v %sq %v0\n")
	idx := make([]string, n)
	for k := range n {
		idx[k] = fmt.Sprint(n - 1 - k)
	}
	fmt.Fprintf(&b, "%%r = OpVectorShuffle %%v %%s %%s %s\n", strings.Join(idx, " "))
	b.WriteString("%last = OpVectorExtractDynamic %u32 %v0 %clast\n%r0 = OpCompositeExtract %u32 %r 0\n%r0b = OpIAdd %u32 %r0 %last\n")
	b.WriteString("%w = OpCompositeInsert %v %r0b %r 0\nOpStore %var %w\n%w2 = OpLoad %v %var\n")
	for k := range n {
		fmt.Fprintf(&b, "%%y%d = OpCompositeExtract %%u32 %%w2 %d\nOpStore %%p%d %%y%d\n", k, k, k, k)
	}
	b.WriteString("OpReturn\nOpFunctionEnd\n")
	return b.String()
}
