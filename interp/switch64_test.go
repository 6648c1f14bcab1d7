package interp

import (
	"encoding/binary"
	"testing"
)

// TestSwitch64 runs an OpSwitch on a 64-bit selector, whose case literals
// take two words each: the successors must come from the decoded operands
// (spirv.Targets), not from counting words. Case values differ only in
// their high word, so a selector cut to 32 bits picks the wrong case.
func TestSwitch64(t *testing.T) {
	m := assemble(t, `OpCapability Shader
OpCapability Int64
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gid
OpExecutionMode %main LocalSize 4 1 1
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %arr ArrayStride 8
OpDecorate %oarr ArrayStride 4
OpMemberDecorate %SB 0 Offset 0
OpMemberDecorate %OB 0 Offset 0
OpDecorate %SB Block
OpDecorate %OB Block
OpDecorate %in DescriptorSet 0
OpDecorate %in Binding 0
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%u32 = OpTypeInt 32 0
%u64 = OpTypeInt 64 0
%v3u32 = OpTypeVector %u32 3
%pin = OpTypePointer Input %v3u32
%pinx = OpTypePointer Input %u32
%gid = OpVariable %pin Input
%arr = OpTypeRuntimeArray %u64
%oarr = OpTypeRuntimeArray %u32
%SB = OpTypeStruct %arr
%OB = OpTypeStruct %oarr
%pSB = OpTypePointer StorageBuffer %SB
%pOB = OpTypePointer StorageBuffer %OB
%p64 = OpTypePointer StorageBuffer %u64
%p32 = OpTypePointer StorageBuffer %u32
%in = OpVariable %pSB StorageBuffer
%out = OpVariable %pOB StorageBuffer
%uint_0 = OpConstant %u32 0
%r_def = OpConstant %u32 9
%r_a = OpConstant %u32 1
%r_b = OpConstant %u32 2
%r_c = OpConstant %u32 3
%main = OpFunction %void None %fn
%entry = OpLabel
%gx = OpAccessChain %pinx %gid %uint_0
%i = OpLoad %u32 %gx
%ps = OpAccessChain %p64 %in %uint_0 %i
%sel = OpLoad %u64 %ps
OpSelectionMerge %merge None
OpSwitch %sel %def 4294967296 %a 8589934592 %b 7 %c
%a = OpLabel
OpBranch %merge
%b = OpLabel
OpBranch %merge
%c = OpLabel
OpBranch %merge
%def = OpLabel
OpBranch %merge
%merge = OpLabel
%r = OpPhi %u32 %r_a %a %r_b %b %r_c %c %r_def %def
%po = OpAccessChain %p32 %out %uint_0 %i
OpStore %po %r
OpReturn
OpFunctionEnd
`)
	sels := []uint64{1 << 32, 2 << 32, 7, 0}
	in := make([]byte, 8*len(sels))
	for i, s := range sels {
		binary.LittleEndian.PutUint64(in[8*i:], s)
	}
	out := make([]byte, 4*len(sels))
	forEach(t, func(t *testing.T, opts Options) {
		clear(out)
		if err := run(t, m, opts, [3]uint32{1, 1, 1}, map[BindingKey][]byte{{0, 0}: in, {0, 1}: out}, nil); err != nil {
			t.Fatal(err)
		}
		for i, want := range []uint32{1, 2, 3, 9} {
			if got := getU32(out, i); got != want {
				t.Errorf("selector %#x: got %d, want %d", sels[i], got, want)
			}
		}
	})
}
