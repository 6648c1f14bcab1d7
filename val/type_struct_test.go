package val

import "testing"

// structModule is a compute shader with decls (decorations) before its
// types.
func structModule(decls string) string {
	return `OpCapability Shader
OpCapability RuntimeDescriptorArray
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
` + decls + `%void = OpTypeVoid
%fn = OpTypeFunction %void
%u32 = OpTypeInt 32 0
%f32 = OpTypeFloat 32
%v4 = OpTypeVector %f32 4
%c1 = OpConstant %u32 1
%ra = OpTypeRuntimeArray %u32
%main = OpFunction %void None %fn
%e = OpLabel
OpReturn
OpFunctionEnd
`
}

// TestTypeStructMembers: ValidateTypeStruct's member-type rules, with
// current spirv-val's messages. withStruct puts a case's decorations first
// and its struct declarations after the types they name.
func TestTypeStructMembers(t *testing.T) {
	withStruct := func(pre, st string) string {
		src := structModule(pre)
		return src[:len(src)-len("%main = OpFunction %void None %fn\n%e = OpLabel\nOpReturn\nOpFunctionEnd\n")] + st +
			"%main = OpFunction %void None %fn\n%e = OpLabel\nOpReturn\nOpFunctionEnd\n"
	}
	vk := func(c rqCase) rqCase { c.env = EnvVulkan1_3; return c }
	cases := []rqCase{
		rq("members are types", withStruct("", "%s = OpTypeStruct %u32 %v4\n"), ""),
		rq("a constant member", withStruct("", "%s = OpTypeStruct %u32 %c1\n"), "OpTypeStruct Member Type <id> '7[%uint_1]' is not a type."),
		rq("a void member", withStruct("", "%s = OpTypeStruct %u32 %void\n"), "Structures cannot contain a void type."),
		rq("a struct with built-ins inside", withStruct("OpMemberDecorate %b 0 BuiltIn Position\n", "%b = OpTypeStruct %v4\n%s = OpTypeStruct %b\n"),
			"Structure <id> '2[%_struct_2]' contains members with BuiltIn decoration. Therefore this structure may not be contained as a member of another structure type. Structure <id> '10[%_struct_10]' contains structure <id> '2[%_struct_2]'."),
		vk(rq("runtime array last in a Block", withStruct("OpDecorate %s Block\nOpMemberDecorate %s 0 Offset 0\nOpMemberDecorate %s 1 Offset 4\nOpDecorate %ra ArrayStride 4\n", "%s = OpTypeStruct %u32 %ra\n"), "")),
		vk(rq("runtime array not last", withStruct("OpDecorate %s Block\nOpMemberDecorate %s 0 Offset 0\nOpMemberDecorate %s 1 Offset 4\nOpDecorate %ra ArrayStride 4\n", "%s = OpTypeStruct %ra %u32\n"),
			"[VUID-StandaloneSpirv-OpTypeRuntimeArray-04680] In Vulkan, OpTypeRuntimeArray must only be used for the last member of an OpTypeStruct")),
		vk(rq("runtime array in a plain struct", withStruct("OpDecorate %ra ArrayStride 4\n", "%s = OpTypeStruct %u32 %ra\n"),
			"[VUID-StandaloneSpirv-OpTypeRuntimeArray-04680] Vulkan, OpTypeStruct containing an OpTypeRuntimeArray must be decorated with Block or BufferBlock.")),
		rq("runtime array not last, universal", withStruct("", "%s = OpTypeStruct %ra %u32\n"), ""),
	}
	runTable(t, cases)
}
