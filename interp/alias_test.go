package interp

import (
	"strings"
	"testing"

	"spvx/spirv"
)

// aliasModule declares two buffer variables at set 0 binding 0: a storage
// buffer of a runtime uint array, and second, declared by decl (its
// pointer type %p2), which main loads one uint through.
func aliasModule(t *testing.T, decl string) *spirv.Module {
	return assemble(t, `OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %a %b
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %S Block
OpMemberDecorate %S 0 Offset 0
OpDecorate %ra ArrayStride 4
OpDecorate %a DescriptorSet 0
OpDecorate %a Binding 0
OpDecorate %b DescriptorSet 0
OpDecorate %b Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%u32 = OpTypeInt 32 0
%c0 = OpConstant %u32 0
%c4 = OpConstant %u32 4
%ra = OpTypeRuntimeArray %u32
%S = OpTypeStruct %ra
%pS = OpTypePointer StorageBuffer %S
%pu = OpTypePointer StorageBuffer %u32
%a = OpVariable %pS StorageBuffer
`+decl+`%main = OpFunction %void None %fn
%e = OpLabel
%q = OpAccessChain %pu %a %c0 %c0
OpStore %q %c4
OpReturn
OpFunctionEnd
`)
}

// TestDescriptorAliasingRefused: variables sharing a binding must agree on
// what the descriptor is, and the later may not declare more descriptors
// than the first reserved; each disagreement is an error naming the
// binding. (internal/vkref's TestDescriptorAliasing runs the legal case
// against lavapipe.)
func TestDescriptorAliasingRefused(t *testing.T) {
	for _, c := range []struct{ name, decl, want string }{
		{"uniform", "%U = OpTypeStruct %u32\n%pU = OpTypePointer Uniform %U\n%b = OpVariable %pU Uniform\n",
			"descriptor set 0 binding 0 is used as both a StorageBuffer and a UniformBuffer"},
		{"more descriptors", "%c3 = OpConstant %u32 3\n%arr = OpTypeArray %S %c3\n%pA = OpTypePointer StorageBuffer %arr\n%b = OpVariable %pA StorageBuffer\n",
			"descriptor set 0 binding 0: variables declare 1 and 3 descriptors"},
	} {
		m := aliasModule(t, c.decl)
		if _, err := Compile(m, "", Options{}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
	m := aliasModule(t, "%S2 = OpTypeStruct %ra\n%pS2 = OpTypePointer StorageBuffer %S2\n%b = OpVariable %pS2 StorageBuffer\n")
	if _, err := Compile(m, "", Options{}); err != nil {
		t.Errorf("two storage buffers on one binding: %v", err)
	}
}
