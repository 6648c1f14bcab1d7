package val

import "testing"

// TestDecorationRules covers ValidateDecorations (validate_decorations.cpp)
// and the annotation pass (validate_annotation.cpp).
func TestDecorationRules(t *testing.T) {
	sb := func(annot, decls string) string {
		return buffer("StorageBuffer", annot, decls, true)
	}
	frag := func(annot, decls, iface string) string {
		return "OpCapability Shader\nOpMemoryModel Logical GLSL450\nOpEntryPoint Fragment %main \"main\"" + iface +
			"\nOpExecutionMode %main OriginUpperLeft\n" + annot +
			"%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%f32 = OpTypeFloat 32\n%u32 = OpTypeInt 32 0\n%i32 = OpTypeInt 32 1\n" + decls +
			"\n%main = OpFunction %void None %fn\n%entry = OpLabel\nOpReturn\nOpFunctionEnd\n"
	}
	cases := []memRuleCase{
		// Buffers in Vulkan.
		{name: "storage buffer without Block", src: sb("OpMemberDecorate %S 0 Offset 0\n", "%S = OpTypeStruct %f32"), opts: vk13, agree: oracleVerdict,
			want: "[VUID-StandaloneSpirv-PushConstant-06675] StorageBuffer id '*' is missing Block decoration.\nFrom Vulkan spec:\nSuch variables must be identified with a Block decoration"},
		{name: "uniform without Block", src: buffer("Uniform", "OpMemberDecorate %S 0 Offset 0\n", "%S = OpTypeStruct %f32", true), opts: vk13, agree: oracleVerdict,
			want: "[VUID-StandaloneSpirv-Uniform-06676] Uniform id '*' is missing Block or BufferBlock decoration.\nFrom Vulkan spec:\nSuch variables must be identified with a Block or BufferBlock decoration"},
		{name: "push constant without Block", src: buffer("PushConstant", "OpMemberDecorate %S 0 Offset 0\n", "%S = OpTypeStruct %f32", true), opts: vk13, agree: oracleVerdict,
			want: "[VUID-StandaloneSpirv-PushConstant-06675] PushConstant id '*' is missing Block decoration.\nFrom Vulkan spec:\nSuch variables must be identified with a Block decoration"},
		{name: "storage buffer without DescriptorSet", src: buffer("PushConstant", "OpMemberDecorate %S 0 Offset 0\n", "%S = OpTypeStruct %f32\n%pS = OpTypePointer StorageBuffer %S\n%sbv = OpVariable %pS StorageBuffer\n", false), opts: vk13,
			agree: oracleNone, // older-oracle gap: 2023.1 checks only variables an entry point uses
			want:  "[VUID-StandaloneSpirv-UniformConstant-06677] StorageBuffer id '*' is missing DescriptorSet decoration.\nFrom Vulkan spec:\nThese variables must have DescriptorSet and Binding decorations specified"},
		{name: "block buffer outside Vulkan", src: sb("OpMemberDecorate %S 0 Offset 0\n", "%S = OpTypeStruct %f32")},

		// Imports and linkage.
		{name: "imported variable initialized", src: "OpCapability Shader\nOpCapability Linkage\nOpMemoryModel Logical GLSL450\nOpDecorate %v LinkageAttributes \"v\" Import\n%f32 = OpTypeFloat 32\n%c = OpConstant %f32 1\n%p = OpTypePointer Private %f32\n%v = OpVariable %p Private %c\n",
			want: "A module-scope OpVariable with initialization value cannot be marked with the Import Linkage Type."},
		{name: "function declaration without import", src: "OpCapability Shader\nOpCapability Linkage\nOpMemoryModel Logical GLSL450\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%f = OpFunction %void None %fn\nOpFunctionEnd\n",
			want: "Function declaration (id *) must have a LinkageAttributes decoration with the Import Linkage type."},
		{name: "function definition imported", src: "OpCapability Shader\nOpCapability Linkage\nOpMemoryModel Logical GLSL450\nOpDecorate %f LinkageAttributes \"f\" Import\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%f = OpFunction %void None %fn\n%l = OpLabel\nOpReturn\nOpFunctionEnd\n",
			want: "Function definition (id *) may not be decorated with Import Linkage type."},
		{name: "entry point with linkage", src: "OpCapability Shader\nOpCapability Linkage\nOpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %f \"main\"\nOpExecutionMode %f LocalSize 1 1 1\nOpDecorate %f LinkageAttributes \"f\" Export\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%f = OpFunction %void None %fn\n%l = OpLabel\nOpReturn\nOpFunctionEnd\n",
			want: "The LinkageAttributes Decoration (Linkage name: f) cannot be applied to function id * because it is targeted by an OpEntryPoint instruction."},

		// Entry point interfaces.
		{name: "fragment int input without Flat", src: frag("", "%pi = OpTypePointer Input %i32\n%in = OpVariable %pi Input", " %in"), opts: vk13, agree: oracleVerdict,
			want: "[VUID-StandaloneSpirv-Flat-04744] Fragment OpEntryPoint operand * with Input interfaces with integer or float type must have a Flat decoration for Entry Point id *."},
		{name: "fragment int input with Flat", src: frag("OpDecorate %in Flat\nOpDecorate %in Location 0\n", "%pi = OpTypePointer Input %i32\n%in = OpVariable %pi Input", " %in"), opts: vk13, agree: oracleVerdict},
		{name: "fragment Flat output", src: frag("OpDecorate %o Flat\nOpDecorate %o Location 0\n", "%po = OpTypePointer Output %f32\n%o = OpVariable %po Output", " %o"), opts: vk13, agree: oracleVerdict,
			want: "[VUID-StandaloneSpirv-Flat-06201] Flat decorated variable must not be used in fragment execution model as an Output storage class for Entry Point id *."},
		{name: "duplicate interface in 1.4", src: frag("OpDecorate %o Location 0\n", "%po = OpTypePointer Output %f32\n%o = OpVariable %po Output", " %o %o"),
			agree: oracleVerdict, want: "In SPIR-V 1.4 or later, non-unique OpEntryPoint interface '*' is disallowed"},
		{name: "interface not a variable", src: frag("", "%c = OpConstant %f32 1", " %c"),
			agree: oracleVerdict, want: "Interfaces passed to OpEntryPoint must be variables. Found OpConstant."},
		{name: "BuiltIn with Location", src: frag("OpDecorate %o BuiltIn FragDepth\nOpDecorate %o Location 0\n", "%po = OpTypePointer Output %f32\n%o = OpVariable %po Output", " %o"), opts: vk13, agree: oracleVerdict,
			want: "[VUID-StandaloneSpirv-Location-04915] A BuiltIn variable (id *) cannot have any Location or Component decorations"},
		{name: "Vulkan memory model Coherent", src: "OpCapability Shader\nOpCapability VulkanMemoryModel\nOpMemoryModel Logical Vulkan\nOpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\nOpDecorate %v Coherent\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%f32 = OpTypeFloat 32\n%p = OpTypePointer Private %f32\n%v = OpVariable %p Private\n%main = OpFunction %void None %fn\n%l = OpLabel\nOpReturn\nOpFunctionEnd\n",
			want: "Coherent decoration targeting '*' is banned when using the Vulkan memory model."},

		// Decoration-driven checks.
		{name: "Block on a non-struct", src: comp("OpDecorate %f32 Block\n", "", ""),
			want: "Block decoration on target <id> '*' must be a structure type"},
		{name: "Location on a constant", src: comp("OpDecorate %u1 Location 0\n", "", ""),
			want: "Location decoration on target <id> '*' must be a variable"},
		{name: "RelaxedPrecision on a type", src: comp("OpDecorate %f32 RelaxedPrecision\n", "", ""),
			want: "RelaxPrecision decoration cannot be applied to a type"},
		{name: "NoSignedWrap on FAdd", src: comp("OpDecorate %x NoSignedWrap\n", "", "%x = OpFAdd %f32 %f1 %f1"), agree: oracleNone,
			want: "NoSignedWrap decoration may not be applied to FAdd"},
		{name: "NoSignedWrap on IAdd", src: comp("OpDecorate %x NoSignedWrap\n", "", "%x = OpIAdd %u32 %u1 %u1"), agree: oracleNone},
		{name: "NonWritable on a Function variable (1.4+)", src: comp("OpDecorate %v NonWritable\n", "", "%v = OpVariable %pf Function")},
		{name: "NonReadable on a Function variable", src: comp("OpDecorate %v NonReadable\n", "", "%v = OpVariable %pf Function"),
			agree: oracleNone, // older-oracle gap: 2023.1 accepts it
			want:  "Target of NonReadable decoration is invalid: must point to a storage image, tensor variable in UniformConstant storage class, uniform block, or storage buffer"},
		{name: "NonWritable on a value", src: comp("OpDecorate %x NonWritable\n", "", "%x = OpIAdd %u32 %u1 %u1"),
			want: "NonWritable decoration on target <id> '*' must be a memory object declaration"},
		{name: "Uniform on a type", src: comp("OpDecorate %f32 Uniform\n", "", ""),
			want: "Uniform decoration applied to a non-object"},
		{name: "FPRoundingMode on FAdd", src: comp("OpDecorate %x FPRoundingMode RTE\n", "", "%x = OpFAdd %f32 %f1 %f1"),
			want: "FPRoundingMode decoration can be applied only to a width-only conversion instruction for floating-point object."},
		{name: "Component on a value", src: comp("OpDecorate %x Component 0\n", "", "%x = OpIAdd %u32 %u1 %u1"),
			want: "Component decoration on target <id> '*' must be a memory object declaration"},
		{name: "Component past 3", src: frag("OpDecorate %o Location 0\nOpDecorate %o Component 2\n", "%v4 = OpTypeVector %f32 4\n%po = OpTypePointer Output %v4\n%o = OpVariable %po Output", " %o"), opts: vk13, agree: oracleVerdict,
			want: "[VUID-StandaloneSpirv-Component-04921] Sequence of components starting with 2 and ending with 5 gets larger than 3"},

		// Annotation operands.
		{name: "MatrixStride on an id", src: comp("OpDecorate %f32 MatrixStride 16\n", "", ""),
			want: "MatrixStride can only be applied to structure members"},
		{name: "member index out of bounds", src: comp("OpMemberDecorate %S 2 Offset 0\n", "%S = OpTypeStruct %f32", ""),
			want: "Index 2 provided in OpMemberDecorate for struct <id> '*' is out of bounds. The structure has 1 members. Largest valid index is 0."},
		{name: "member decorate of a non-struct", src: comp("OpMemberDecorate %f32 0 Offset 0\n", "", ""),
			want: "OpMemberDecorate Structure type <id> '*' is not a struct type."},
		{name: "Binding on a member", src: comp("OpMemberDecorate %S 0 Binding 0\n", "%S = OpTypeStruct %f32", ""),
			want: "Binding cannot be applied to structure members"},
		{name: "ArrayStride on a struct", src: comp("OpDecorate %S ArrayStride 4\n", "%S = OpTypeStruct %f32", ""),
			want: "ArrayStride decoration on target <id> '*' must be an array or pointer type"},
		{name: "SpecId on a constant", src: comp("OpDecorate %u1 SpecId 1\n", "", ""),
			want: "SpecId decoration on target <id> '*' must be OpSpecConstantTrue, OpSpecConstantFalse, OpSpecConstant, or OpSpecConstantDataKHR", agree: oracleVerdict},
		{name: "GLSLShared in Vulkan", src: comp("OpDecorate %S GLSLShared\n", "%S = OpTypeStruct %f32", ""), opts: vk13,
			want: "[VUID-StandaloneSpirv-GLSLShared-04669] OpDecorate decoration 'GLSLShared' is not valid for the Vulkan execution environment."},
		{name: "FPFastMathMode with NoContraction", src: module{kernel: true, caps: "Shader Kernel Addresses", annot: "OpDecorate %x NoContraction\nOpDecorate %x FPFastMathMode Fast\n", decls: "%f32 = OpTypeFloat 32\n%c = OpConstant %f32 1", body: "%x = OpFAdd %f32 %c %c"}.text(), agree: oracleNone, /* older-oracle gap */
			want: "FPFastMathMode and NoContraction cannot decorate the same target"},
		{name: "group decorate", src: comp("OpDecorate %g RelaxedPrecision\n%g = OpDecorationGroup\nOpGroupDecorate %g %x\n", "", "%x = OpFAdd %f32 %f1 %f1")},
		{name: "group decorate of a non-group", src: comp("%str = OpString \"x\"\nOpGroupDecorate %str %x\n", "", "%x = OpFAdd %f32 %f1 %f1"),
			want: "OpGroupDecorate Decoration group <id> '*' is not a decoration group.", agree: oracleVerdict},
		{name: "group decorate duplicate target", src: comp("OpDecorate %g RelaxedPrecision\n%g = OpDecorationGroup\nOpGroupDecorate %g %x %x\n", "", "%x = OpFAdd %f32 %f1 %f1"),
			want: "Targets contains duplicate id '*'", agree: oracleNone},
		{name: "group-applied RelaxedPrecision on a type", src: comp("OpDecorate %g RelaxedPrecision\n%g = OpDecorationGroup\nOpGroupDecorate %g %f32\n", "", ""),
			want: "RelaxPrecision decoration cannot be applied to a type"},
		// Member decorations through OpGroupMemberDecorate reach the block
		// layout rules: member 1's Offset 2 comes from the group.
		{name: "group-applied member Offset", src: comp("OpDecorate %sb DescriptorSet 0\nOpDecorate %sb Binding 0\nOpDecorate %s Block\nOpMemberDecorate %s 0 Offset 0\nOpDecorate %g Offset 2\n%g = OpDecorationGroup\nOpGroupMemberDecorate %g %s 1\n",
			"%s = OpTypeStruct %u32 %u32\n%ps = OpTypePointer StorageBuffer %s\n%sb = OpVariable %ps StorageBuffer\n", ""),
			opts: Options{Env: EnvVulkan1_3}, want: "Structure member 1 at offset 2 is not aligned to 4.*", agree: oracleVerdict /* current spirv-val's wording */},
		{name: "group-applied member Offset, aligned", src: comp("OpDecorate %sb DescriptorSet 0\nOpDecorate %sb Binding 0\nOpDecorate %s Block\nOpMemberDecorate %s 0 Offset 0\nOpDecorate %g Offset 4\n%g = OpDecorationGroup\nOpGroupMemberDecorate %g %s 1\n",
			"%s = OpTypeStruct %u32 %u32\n%ps = OpTypePointer StorageBuffer %s\n%sb = OpVariable %ps StorageBuffer\n", ""), opts: Options{Env: EnvVulkan1_3}},
	}
	runMemRuleCases(t, cases)
}
