package main

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// coopLayoutAsm: a subgroup of 4 loads a 4×2 u32 accumulator matrix
// holding 0..7 (row-major, stride 2) and each invocation stores its
// component 0 at out[invocation]: a program that depends on the layout.
const coopLayoutAsm = `OpCapability Shader
OpCapability CooperativeMatrixKHR
OpCapability VulkanMemoryModel
OpExtension "SPV_KHR_cooperative_matrix"
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %main "main" %lid
OpExecutionMode %main LocalSize 4 1 1
OpDecorate %lid BuiltIn LocalInvocationIndex
OpDecorate %arr ArrayStride 4
OpMemberDecorate %Buf 0 Offset 0
OpDecorate %Buf Block
OpDecorate %in DescriptorSet 0
OpDecorate %in Binding 0
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%u32 = OpTypeInt 32 0
%arr = OpTypeRuntimeArray %u32
%Buf = OpTypeStruct %arr
%pBuf = OpTypePointer StorageBuffer %Buf
%pu = OpTypePointer StorageBuffer %u32
%pin = OpTypePointer Input %u32
%lid = OpVariable %pin Input
%in = OpVariable %pBuf StorageBuffer
%out = OpVariable %pBuf StorageBuffer
%c0 = OpConstant %u32 0
%c2 = OpConstant %u32 2
%c3 = OpConstant %u32 3
%c4 = OpConstant %u32 4
%M = OpTypeCooperativeMatrixKHR %u32 %c3 %c4 %c2 %c2
%main = OpFunction %void None %fn
%entry = OpLabel
%i = OpLoad %u32 %lid
%p = OpAccessChain %pu %in %c0 %c0
%m = OpCooperativeMatrixLoadKHR %M %p %c0 %c2
%x = OpCompositeExtract %u32 %m 0
%q = OpAccessChain %pu %out %c0 %i
OpStore %q %x
OpReturn
OpFunctionEnd
`

// TestRunCoopMatLayout checks --coopmat-layout: linear puts element i in
// invocation i's component 0; shuffle (with --seed) moves them.
func TestRunCoopMatLayout(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "coop.spvasm")
	in := filepath.Join(dir, "in.bin")
	b := make([]byte, 32)
	for i := range 8 {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(i))
	}
	if err := os.WriteFile(src, []byte(coopLayoutAsm), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(in, b, 0o644); err != nil {
		t.Fatal(err)
	}
	get := func(extra ...string) []uint32 {
		out := filepath.Join(dir, "out.bin")
		os.Remove(out)
		args := append([]string{"run", src, "--subgroup", "4", "--buffer", "0:0=" + in, "--buffer", "0:1=" + out + ":16"}, extra...)
		if _, errs, code := runCLI(t, nil, args...); code != exitOK {
			t.Fatalf("%v: exit %d: %s", extra, code, errs)
		}
		r, err := os.ReadFile(out)
		if err != nil || len(r) != 16 {
			t.Fatalf("%v: %v, %d bytes", extra, err, len(r))
		}
		v := make([]uint32, 4)
		for i := range v {
			v[i] = binary.LittleEndian.Uint32(r[4*i:])
		}
		return v
	}
	lin := get()
	for i, v := range lin {
		if v != uint32(i) {
			t.Errorf("linear: invocation %d's component 0 = %d, want element %d", i, v, i)
		}
	}
	if s := get("--coopmat-layout", "linear"); fmtU(s) != fmtU(lin) {
		t.Errorf("--coopmat-layout linear = %v, want %v", s, lin)
	}
	differs := false
	for seed := 1; seed <= 4 && !differs; seed++ {
		s := get("--coopmat-layout", "shuffle", "--seed", fmt.Sprint(seed))
		differs = fmtU(s) != fmtU(lin)
	}
	if !differs {
		t.Errorf("--coopmat-layout shuffle gave the linear layout's components for seeds 1..4")
	}
	_, errs, code := runCLI(t, nil, "run", src, "--subgroup", "4", "--buffer", "0:0="+in, "--buffer", "0:1="+filepath.Join(dir, "x.bin")+":16", "--coopmat-layout", "diagonal")
	if code != exitUsage || !strings.Contains(errs, `--coopmat-layout: want linear or shuffle, not "diagonal"`) {
		t.Errorf("bad layout: exit %d, %q", code, errs)
	}
}

func fmtU(v []uint32) string { return fmt.Sprint(v) }
