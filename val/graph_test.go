package val

import (
	"strings"
	"testing"
)

// gxHeader declares tensors of int8 (rank 4 and 3) and int32, arrays of
// them, and UniformConstant variables of each; the graph section follows.
const gxHeader = `OpCapability Shader
OpCapability VulkanMemoryModel
OpCapability Int8
OpCapability Int16
OpCapability GraphARM
OpCapability TensorsARM
OpCapability RuntimeDescriptorArray
OpExtension "SPV_ARM_graph"
OpExtension "SPV_ARM_tensors"
OpMemoryModel Logical Vulkan
OpDecorate %v8 DescriptorSet 0
OpDecorate %v8 Binding 0
OpDecorate %v32 DescriptorSet 0
OpDecorate %v32 Binding 1
OpDecorate %va3 DescriptorSet 0
OpDecorate %va3 Binding 2
OpDecorate %vra DescriptorSet 0
OpDecorate %vra Binding 3
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%int8 = OpTypeInt 8 1
%int32 = OpTypeInt 32 1
%ushort = OpTypeInt 16 0
%float = OpTypeFloat 32
%c0 = OpConstant %uint 0
%c1 = OpConstant %uint 1
%c2 = OpConstant %uint 2
%c3 = OpConstant %uint 3
%c4 = OpConstant %uint 4
%c7 = OpConstant %uint 7
%h0 = OpConstant %ushort 0
%sp0 = OpSpecConstant %uint 0
%un = OpUndef %uint
%t8 = OpTypeTensorARM %int8 %c4
%t8r3 = OpTypeTensorARM %int8 %c3
%t32 = OpTypeTensorARM %int32 %c4
%a3 = OpTypeArray %t8 %c3
%ra = OpTypeRuntimeArray %t8
%pin = OpTypePointer Input %t8
%vin = OpVariable %pin Input
%p8 = OpTypePointer UniformConstant %t8
%p32 = OpTypePointer UniformConstant %t32
%pa3 = OpTypePointer UniformConstant %a3
%pra = OpTypePointer UniformConstant %ra
%v8 = OpVariable %p8 UniformConstant
%v32 = OpVariable %p32 UniformConstant
%va3 = OpVariable %pa3 UniformConstant
%vra = OpVariable %pra UniformConstant
`

// gx is gxHeader, then decls, then the graph entry point "main" of graph
// %g (of type %gt, one int8 tensor in, one out, unless decls declares
// %gt itself) over ep, then the graph's body.
func gx(decls, ep, body string) string {
	if !strings.Contains(decls, "%gt = ") {
		decls += "%gt = OpTypeGraphARM 1 %t8 %t8\n"
	}
	return gxHeader + decls + "OpGraphEntryPointARM %g \"main\" " + ep + "\n%g = OpGraphARM %gt\n" + body + "OpGraphEndARM\n"
}

// gxIO is gx with the default entry point and body.
func gxIO(body string) string { return gx("", "%v8 %v8", body) }

// graphCases cover every rule of GraphPass and validate.cpp's graph
// entry-point checks, in Vulkan 1.3 as SPIRV-Tools' tests run them.
func graphCases() []tsCase {
	v := EnvVulkan1_3
	u := EnvUniversal1_6
	const pass = "%in = OpGraphInputARM %t8 %c0\nOpGraphSetOutputARM %in %c0\n"
	arrays := "%gt = OpTypeGraphARM 2 %a3 %ra %a3 %ra\n"
	arrBody := func(s string) string { return gx(arrays, "%va3 %vra %va3 %vra", s) }
	const dupIn = "Two OpGraphInputARM instructions with the same InputIndex must not be part of the same graph definition unless ElementIndex is present in both with different values."
	const dupOut = "Two OpGraphSetOutputARM instructions with the same OutputIndex must not be part of the same graph definition unless ElementIndex is present in both with different values."
	return []tsCase{
		{"valid", gxIO(pass), "", v},
		{"valid universal", gxIO(pass), "", u},
		{"no graph entry point", gxHeader, "No OpGraphEntryPointARM instruction was found but the GraphARM capability is declared.", v},
		{"entry point names", strings.Replace(gxIO(pass), "OpGraphEntryPointARM", "OpGraphEntryPointARM %g \"main\" %v8 %v8\nOpGraphEntryPointARM", 1),
			"Graph entry points cannot share the same name.", v},
		{"missing graph end", strings.TrimSuffix(gxIO(pass), "OpGraphEndARM\n"), "Missing OpGraphEndARM at end of module.", v},
		{"type io fewer than inputs", gx("%gt = OpTypeGraphARM 3 %t8 %t8\n", "%v8 %v8", pass), "2 I/O types were provided but the graph has 3 inputs.", v},
		{"type no output", gx("%gt = OpTypeGraphARM 2 %t8 %t8\n", "%v8 %v8", pass), "A graph type must have at least one output.", v},
		{"type io not tensor", gx("%gt = OpTypeGraphARM 1 %t8 %uint\n", "%v8 %v8", pass), "I/O type '6[%uint]' is not a Graph Interface Type.", v},
		{"constant valid", gx("%k = OpGraphConstantARM %t8 1\n%k2 = OpGraphConstantARM %t8 2\n", "%v8 %v8", pass), "", v},
		{"constant not tensor", gx("%k = OpGraphConstantARM %uint 1\n", "%v8 %v8", pass), "GraphConstantARM must have a Result Type that is a tensor type.", v},
		{"constant same id", gx("%k = OpGraphConstantARM %t8 1\n%k2 = OpGraphConstantARM %t8 1\n", "%v8 %v8", pass),
			"No two OpGraphConstantARM instructions may have the same GraphConstantID", v},
		{"entry point not graph", strings.Replace(gxIO(pass), "OpGraphEntryPointARM %g", "OpGraphEntryPointARM %c0", 1),
			"GraphEntryPointARM Graph must be a OpGraphARM but found Constant.", v},
		{"entry point interface count", gx("", "%v8", pass), "GraphEntryPointARM Interface list contains 1 IDs but Graph's type '31[%31]' has 2 inputs and outputs.", v},
		{"entry point interface storage", gx("", "%v8 %vin", pass),
			"GraphEntryPointARM Interface ID '26[%26]' must come from OpVariable with UniformConstant Storage Class.", v},
		{"entry point interface type", gx("", "%v8 %v32", pass),
			"GraphEntryPointARM Interface ID type '22[%22]' must match the type of the corresponding graph I/O '20[%20]'", v},
		{"graph type", strings.Replace(gxIO(pass), "%g = OpGraphARM %gt", "%g = OpGraphARM %t8", 1), "GraphARM Result Type must be an OpTypeGraphARM.", v},
		{"input index 16-bit", gxIO("%in = OpGraphInputARM %t8 %h0\nOpGraphSetOutputARM %in %c0\n"), "GraphInputARM InputIndex must be a 32-bit integer.", v},
		{"input index not constant", gxIO("%in = OpGraphInputARM %t8 %un\nOpGraphSetOutputARM %in %c0\n"),
			"[VUID-StandaloneSpirv-OpGraphInputARM-09931] OpGraphInputARM InputIndex must be the <id> of a constant instruction.", v},
		{"input index undef universal", gxIO("%in = OpGraphInputARM %t8 %un\nOpGraphSetOutputARM %in %c0\n"), "", u},
		{"input index spec constant", gxIO("%in = OpGraphInputARM %t8 %sp0\nOpGraphSetOutputARM %in %c0\n"), "", v},
		{"input index range", gxIO("%in = OpGraphInputARM %t8 %c1\nOpGraphSetOutputARM %in %c0\n"),
			"Type '31[%31]' for graph '32[%32]' has 1 inputs but found an OpGraphInputARM instruction with an InputIndex that is 1: %33 = OpGraphInputARM %20 %uint_1", v},
		{"input type", gxIO("%in = OpGraphInputARM %t32 %c0\nOpGraphSetOutputARM %in %c0\n"),
			"Result Type '22[%22]' of graph input instruction '33[%33]' does not match the type '20[%20]' of input 0 in the graph type.", v},
		{"input element valid", arrBody("%i0 = OpGraphInputARM %t8 %c0 %c2\n%i1 = OpGraphInputARM %t8 %c1 %c7\n%i2 = OpGraphInputARM %t8 %c0 %c1\nOpGraphSetOutputARM %i0 %c0 %c0\nOpGraphSetOutputARM %i1 %c1 %c3\n"), "", v},
		{"input element 16-bit", arrBody("%i0 = OpGraphInputARM %t8 %c0 %h0\nOpGraphSetOutputARM %i0 %c0 %c0\n"), "GraphInputARM ElementIndex must be a 32-bit integer.", v},
		{"input element not constant", arrBody("%i0 = OpGraphInputARM %t8 %c0 %un\nOpGraphSetOutputARM %i0 %c0 %c0\n"),
			"[VUID-StandaloneSpirv-OpGraphInputARM-09931] OpGraphInputARM ElementIndex must be the <id> of a constant instruction.", v},
		{"input element not array", gxIO("%in = OpGraphInputARM %t8 %c0 %c0\nOpGraphSetOutputARM %in %c0\n"),
			"OpGraphInputARM ElementIndex not allowed when the graph input selected by InputIndex is not an OpTypeArray or OpTypeRuntimeArray", v},
		{"input element range", arrBody("%i0 = OpGraphInputARM %t8 %c0 %c3\nOpGraphSetOutputARM %i0 %c0 %c0\n"),
			"OpGraphInputARM ElementIndex out of range. The type of the graph input being accessed '23[%_arr_20_uint_3]' is an array of 3 elements but ElementIndex is 3", v},
		{"input element type", arrBody("%i0 = OpGraphInputARM %a3 %c0 %c0\nOpGraphSetOutputARM %i0 %c0 %c0\n"),
			"Result Type '23[%_arr_20_uint_3]' of graph input instruction '33[%33]' does not match the component type '20[%20]' of input 0 in the graph type.", v},
		{"output index 16-bit", gxIO("%in = OpGraphInputARM %t8 %c0\nOpGraphSetOutputARM %in %h0\n"), "GraphSetOutputARM OutputIndex must be a 32-bit integer.", v},
		{"output index not constant", gxIO("%in = OpGraphInputARM %t8 %c0\nOpGraphSetOutputARM %in %un\n"),
			"[VUID-StandaloneSpirv-OpGraphSetOutputARM-09932] OpGraphSetOutputARM OutputIndex must be the <id> of a constant instruction.", v},
		{"output element not constant", arrBody("%i0 = OpGraphInputARM %t8 %c0 %c0\nOpGraphSetOutputARM %i0 %c0 %un\n"),
			"[VUID-StandaloneSpirv-OpGraphSetOutputARM-09932] OpGraphSetOutputARM ElementIndex must be the <id> of a constant instruction.", v},
		{"output element 16-bit", arrBody("%i0 = OpGraphInputARM %t8 %c0 %c0\nOpGraphSetOutputARM %i0 %c0 %h0\n"), "GraphSetOutputARM ElementIndex must be a 32-bit integer.", v},
		{"output index range", gxIO("%in = OpGraphInputARM %t8 %c0\nOpGraphSetOutputARM %in %c1\n"), "GraphSetOutputARM setting OutputIndex 1 but graph only has 1 outputs.", v},
		{"output element not array", gxIO("%in = OpGraphInputARM %t8 %c0\nOpGraphSetOutputARM %in %c0 %c0\n"),
			"OpGraphSetOutputARM ElementIndex not allowed when the graph output selected by OutputIndex is not an OpTypeArray or OpTypeRuntimeArray", v},
		{"output element range", arrBody("%i0 = OpGraphInputARM %t8 %c0 %c0\nOpGraphSetOutputARM %i0 %c0 %c4\n"),
			"OpGraphSetOutputARM ElementIndex out of range. The type of the graph output being accessed '23[%_arr_20_uint_3]' is an array of 3 elements but ElementIndex is 4", v},
		{"output type", gx("%k = OpGraphConstantARM %t32 1\n", "%v8 %v8", "%in = OpGraphInputARM %t8 %c0\nOpGraphSetOutputARM %k %c0\n"),
			"The type '22[%22]' of Value provided to the graph output instruction '31[%31]' does not match the type '20[%20]' of output 0 in the graph type.", v},
		{"output element type", arrBody("%i0 = OpGraphInputARM %a3 %c0\nOpGraphSetOutputARM %i0 %c0 %c0\n"),
			"The type '23[%_arr_20_uint_3]' of Value provided to the graph output instruction '33[%33]' does not match the component type '20[%20]' of output 0 in the graph type.", v},
		{"duplicate input", gxIO("%in = OpGraphInputARM %t8 %c0\n%in2 = OpGraphInputARM %t8 %c0\nOpGraphSetOutputARM %in %c0\n"), dupIn, v},
		{"duplicate input element", arrBody("%i0 = OpGraphInputARM %t8 %c0 %c1\n%i1 = OpGraphInputARM %t8 %c0 %c1\nOpGraphSetOutputARM %i0 %c0 %c0\n"), dupIn, v},
		{"input whole then element", arrBody("%i0 = OpGraphInputARM %a3 %c0\n%i1 = OpGraphInputARM %t8 %c0 %c1\nOpGraphSetOutputARM %i1 %c0 %c0\n"), dupIn, v},
		{"input element then whole", arrBody("%i1 = OpGraphInputARM %t8 %c0 %c1\n%i0 = OpGraphInputARM %a3 %c0\nOpGraphSetOutputARM %i1 %c0 %c0\n"), "", v},
		{"duplicate output", gxIO("%in = OpGraphInputARM %t8 %c0\nOpGraphSetOutputARM %in %c0\nOpGraphSetOutputARM %in %c0\n"), dupOut, v},
		{"duplicate spec index", gxIO("%in = OpGraphInputARM %t8 %sp0\n%in2 = OpGraphInputARM %t8 %sp0\nOpGraphSetOutputARM %in %c0\n"), "", v},
	}
}

// TestGraph checks the table against spvx and, with
// $SPVX_CURRENT_SPIRV_TOOLS, against the current spirv-val.
func TestGraph(t *testing.T) {
	runTensorCases(t, graphCases())
}
