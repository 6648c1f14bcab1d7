package interp

import (
	"strings"
	"testing"
)

// derivModule is a compute shader of local size ls under execution mode
// mode, taking OpDPdx of a constant.
func derivModule(model, mode, ls string) string {
	return `OpCapability Shader
OpCapability ComputeDerivativeGroupQuadsKHR
OpCapability ComputeDerivativeGroupLinearKHR
OpExtension "SPV_KHR_compute_shader_derivatives"
OpMemoryModel Logical GLSL450
OpEntryPoint ` + model + ` %main "main"
OpExecutionMode %main LocalSize ` + ls + `
` + mode + `%void = OpTypeVoid
%fn = OpTypeFunction %void
%f32 = OpTypeFloat 32
%one = OpConstant %f32 1
%main = OpFunction %void None %fn
%e = OpLabel
%d = OpDPdx %f32 %one
OpReturn
OpFunctionEnd
`
}

// TestDerivativeGroupsRefused: quads must tile the workgroup and sit in
// whole subgroups, and derivatives need a derivative group; each refusal
// names its reason. (internal/vkref's TestComputeDerivatives checks the
// values.)
func TestDerivativeGroupsRefused(t *testing.T) {
	const quads, linear = "OpExecutionMode %main DerivativeGroupQuadsKHR\n", "OpExecutionMode %main DerivativeGroupLinearKHR\n"
	for _, c := range []struct {
		name, src string
		S         int
		want      string
	}{
		{"odd x", derivModule("GLCompute", quads, "3 2 1"), 8, "needs an even local size in x and y, not 3x2x1"},
		{"kernel", strings.Replace(derivModule("Kernel", quads, "2 2 1"), "OpCapability Shader\n", "OpCapability Shader\nOpCapability Kernel\n", 1), 8, "is for shaders, not Kernel entry points"},
		{"linear not a multiple of 4", derivModule("GLCompute", linear, "6 1 1"), 8, "multiple of 4, not 6x1x1"},
		{"subgroup of 2", derivModule("GLCompute", quads, "2 2 1"), 2, "subgroup size that is a multiple of 4, not 2"},
		{"no derivative group", derivModule("GLCompute", "", "4 1 1"), 8, "needs a derivative group"},
	} {
		m := assemble(t, c.src)
		_, err := Compile(m, "", Options{SubgroupSize: c.S})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.name, err, c.want)
		}
	}
	m := assemble(t, derivModule("GLCompute", quads, "4 2 1"))
	if _, err := Compile(m, "", Options{SubgroupSize: 8}); err != nil {
		t.Errorf("4x2 quads at subgroup 8: %v", err)
	}
}

// TestQuadLocalID: under DerivativeGroupQuadsKHR lanes 4q..4q+3 are the
// 2x2 block q, blocks in x, then y, then z order, and every local id of
// the workgroup appears once.
func TestQuadLocalID(t *testing.T) {
	size := [3]uint32{6, 4, 2}
	seen := map[[3]uint32]bool{}
	for li := uint32(0); li < size[0]*size[1]*size[2]; li++ {
		id := quadLocalID(li, size)
		if id[0] >= size[0] || id[1] >= size[1] || id[2] >= size[2] || seen[id] {
			t.Fatalf("lane %d: local id %v repeated or out of %v", li, id, size)
		}
		seen[id] = true
		base := quadLocalID(li&^3, size)
		if id[0]&^1 != base[0] || id[1]&^1 != base[1] || id[2] != base[2] || id[0]&1 != li&1 || id[1]&1 != li>>1&1 {
			t.Fatalf("lane %d: local id %v is not position %d of the quad at %v", li, id, li&3, base)
		}
	}
	if got := quadLocalID(12, size); got != [3]uint32{0, 2, 0} {
		t.Errorf("lane 12 (the fourth quad, the first of the second row of quads): %v, want [0 2 0]", got)
	}
}
