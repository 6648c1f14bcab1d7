package interp

import "testing"

// Variable pointers: OpSelect and OpPhi of pointers into two buffers,
// OpPtrEqual, OpPtrAccessChain with the pointer type's ArrayStride,
// OpCopyMemory of a struct, OpArrayLength.
const varPtrSrc = `OpCapability Shader
OpCapability VariablePointers
OpExtension "SPV_KHR_variable_pointers"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gid
OpExecutionMode %main LocalSize 8 1 1
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %arr ArrayStride 4
OpDecorate %pelem ArrayStride 4
OpMemberDecorate %B 0 Offset 0
OpDecorate %B Block
OpDecorate %a DescriptorSet 0
OpDecorate %a Binding 0
OpDecorate %b DescriptorSet 0
OpDecorate %b Binding 1
OpDecorate %o DescriptorSet 0
OpDecorate %o Binding 2
OpMemberDecorate %P 0 Offset 0
OpMemberDecorate %P 1 Offset 4
%void = OpTypeVoid
%fn = OpTypeFunction %void
%u32 = OpTypeInt 32 0
%bool = OpTypeBool
%v3 = OpTypeVector %u32 3
%pin = OpTypePointer Input %v3
%gid = OpVariable %pin Input
%pinx = OpTypePointer Input %u32
%c0 = OpConstant %u32 0
%c1 = OpConstant %u32 1
%c2 = OpConstant %u32 2
%arr = OpTypeRuntimeArray %u32
%B = OpTypeStruct %arr
%pB = OpTypePointer StorageBuffer %B
%pelem = OpTypePointer StorageBuffer %u32
%P = OpTypeStruct %u32 %u32
%pP = OpTypePointer Function %P
%pf = OpTypePointer Function %u32
%a = OpVariable %pB StorageBuffer
%b = OpVariable %pB StorageBuffer
%o = OpVariable %pB StorageBuffer
%main = OpFunction %void None %fn
%entry = OpLabel
%s1 = OpVariable %pP Function
%s2 = OpVariable %pP Function
%gx = OpAccessChain %pinx %gid %c0
%i = OpLoad %u32 %gx
%odd = OpBitwiseAnd %u32 %i %c1
%isodd = OpIEqual %bool %odd %c1
%pa = OpAccessChain %pelem %a %c0 %i
%pb = OpAccessChain %pelem %b %c0 %i
%sel = OpSelect %pelem %isodd %pa %pb
%eq = OpPtrEqual %bool %sel %pa
%next = OpPtrAccessChain %pelem %sel %c1
%v0 = OpLoad %u32 %sel
%v1 = OpLoad %u32 %next
OpSelectionMerge %m None
OpBranchConditional %eq %t %m
%t = OpLabel
OpBranch %m
%m = OpLabel
%ph = OpPhi %pelem %pb %t %pa %entry
%v2 = OpLoad %u32 %ph
%s1a = OpAccessChain %pf %s1 %c1
OpStore %s1a %v0
OpCopyMemory %s2 %s1
%s2a = OpAccessChain %pf %s2 %c1
%cv = OpLoad %u32 %s2a
%len = OpArrayLength %u32 %a 0
%x = OpIAdd %u32 %v0 %v1
%y = OpIMul %u32 %v2 %c2
%z = OpIAdd %u32 %x %y
%w0 = OpIAdd %u32 %z %len
%w = OpIAdd %u32 %w0 %cv
%po = OpAccessChain %pelem %o %c0 %i
OpStore %po %w
OpReturn
OpFunctionEnd
`

func TestVariablePointers(t *testing.T) {
	m := assemble(t, varPtrSrc)
	forEach(t, func(t *testing.T, o Options) {
		a, b := make([]uint32, 9), make([]uint32, 9)
		for i := range a {
			a[i], b[i] = uint32(100+i), uint32(200+i)
		}
		out := make([]byte, 32)
		err := run(t, m, o, [3]uint32{1, 1, 1}, map[BindingKey][]byte{{0, 0}: u32s(a...), {0, 1}: u32s(b...), {0, 2}: out}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 8; i++ {
			// odd lanes select a (and the phi then takes b through %t),
			// even lanes select b (and the phi takes a from %entry)
			sel, ph := b, a
			if i%2 == 1 {
				sel, ph = a, b
			}
			v0, v1 := sel[i], sel[i+1]
			want := v0 + v1 + 2*ph[i] + 9 + v0 // + OpArrayLength + the value copied through OpCopyMemory
			if got := getU32(out, i); got != want {
				t.Fatalf("out[%d] = %d, want %d", i, got, want)
			}
		}
	})
}
