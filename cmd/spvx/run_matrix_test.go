package main

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// dpasAccumulateAsm: every invocation of a subgroup of 8 passes A = two
// fp16 2^-12 (K = 16), B = sixteen fp16 2^-12 and C = 1.0; Result = C +
// sixteen products 2^-24, stored as float32 at out[invocation].
const dpasAccumulateAsm = `OpCapability Shader
OpCapability SubgroupMatrixMultiplyAccumulateINTEL
OpExtension "SPV_INTEL_subgroup_matrix_multiply_accumulate"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %lid
OpExecutionMode %main LocalSize 8 1 1
OpDecorate %lid BuiltIn LocalInvocationId
OpDecorate %arr ArrayStride 4
OpMemberDecorate %Buf 0 Offset 0
OpDecorate %Buf Block
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%u32 = OpTypeInt 32 0
%f32 = OpTypeFloat 32
%v3u32 = OpTypeVector %u32 3
%v8u32 = OpTypeVector %u32 8
%arr = OpTypeRuntimeArray %f32
%Buf = OpTypeStruct %arr
%pBuf = OpTypePointer StorageBuffer %Buf
%pf32 = OpTypePointer StorageBuffer %f32
%pin = OpTypePointer Input %v3u32
%lid = OpVariable %pin Input
%out = OpVariable %pBuf StorageBuffer
%c0 = OpConstant %u32 0
%K = OpConstant %u32 16
%h2 = OpConstant %u32 0x0c000c00
%B = OpConstantComposite %v8u32 %h2 %h2 %h2 %h2 %h2 %h2 %h2 %h2
%one = OpConstant %f32 1
%main = OpFunction %void None %fn
%entry = OpLabel
%l3 = OpLoad %v3u32 %lid
%i = OpCompositeExtract %u32 %l3 0
%r = OpSubgroupMatrixMultiplyAccumulateINTEL %f32 %K %h2 %B %one MatrixAPackedFloat16INTEL|MatrixBPackedFloat16INTEL
%p = OpAccessChain %pf32 %out %c0 %i
OpStore %p %r
OpReturn
OpFunctionEnd
`

// TestRunMatrixAccumulate checks --matrix-accumulate: in order each
// float32 addition of 2^-24 to 1 is a tie that rounds back to 1; exactly
// the sum is 1 + 2^-20.
func TestRunMatrixAccumulate(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "dpas.spvasm")
	if err := os.WriteFile(src, []byte(dpasAccumulateAsm), 0o644); err != nil {
		t.Fatal(err)
	}
	for mode, want := range map[string]uint32{"": 0x3f800000, "ordered": 0x3f800000, "exact": 0x3f800008} {
		out := filepath.Join(dir, "out"+mode+".bin")
		args := []string{"run", src, "--subgroup", "8", "--buffer", "0:0=" + out + ":32"}
		if mode != "" {
			args = append(args, "--matrix-accumulate", mode)
		}
		if _, errs, code := runCLI(t, nil, args...); code != exitOK {
			t.Fatalf("%q: exit %d: %s", mode, code, errs)
		}
		b, err := os.ReadFile(out)
		if err != nil || len(b) != 32 {
			t.Fatalf("%q: %v, %d bytes", mode, err, len(b))
		}
		for i := 0; i < 8; i++ {
			if got := binary.LittleEndian.Uint32(b[4*i:]); got != want {
				t.Errorf("%q: invocation %d: %#x, want %#x", mode, i, got, want)
			}
		}
	}
	_, errs, code := runCLI(t, nil, "run", src, "--subgroup", "8", "--buffer", "0:0="+filepath.Join(dir, "x.bin")+":32", "--matrix-accumulate", "fast")
	if code != exitUsage || !strings.Contains(errs, `--matrix-accumulate: want ordered or exact, not "fast"`) {
		t.Errorf("bad mode: exit %d, %q", code, errs)
	}
}
