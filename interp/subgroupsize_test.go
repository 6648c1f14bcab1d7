package interp

import (
	"context"
	"strings"
	"testing"
)

// reqdSubgroupKernelSrc is an OpenCL kernel built with
// reqd_sub_group_size(16): OpExecutionMode SubgroupSize 16.
const reqdSubgroupKernelSrc = `OpCapability Addresses
OpCapability Kernel
OpCapability SubgroupDispatch
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %main "k"
OpExecutionMode %main SubgroupSize 16
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
`

// TestEntryPointSubgroupSize: without Options.SubgroupSize a kernel runs at
// the size its OpExecutionMode SubgroupSize requires (else 32); asking for
// that size is fine, asking for another is an error that names the mode.
func TestEntryPointSubgroupSize(t *testing.T) {
	m := assemble(t, reqdSubgroupKernelSrc)
	for _, s := range []int{0, 16} {
		p, err := Compile(m, "", Options{SubgroupSize: s})
		if err != nil {
			t.Fatalf("SubgroupSize %d: %v", s, err)
		}
		if p.SubgroupSize() != 16 {
			t.Errorf("SubgroupSize %d: compiled for %d, want the required 16", s, p.SubgroupSize())
		}
		if err := p.DispatchND(context.Background(), [3]uint32{64, 1, 1}, [3]uint32{32, 1, 1}, nil); err != nil {
			t.Errorf("SubgroupSize %d: %v", s, err)
		}
	}
	_, err := Compile(m, "", Options{SubgroupSize: 8})
	if err == nil || !strings.Contains(err.Error(), `entry point "k" requires subgroup size 16 (OpExecutionMode SubgroupSize), not 8`) {
		t.Errorf("SubgroupSize 8: got %v, want the required-size error", err)
	}
	p, err := Compile(assemble(t, emptyKernelSrc), "", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p.SubgroupSize() != 32 {
		t.Errorf("a kernel without the mode: subgroup size %d, want 32", p.SubgroupSize())
	}
}
