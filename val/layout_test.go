package val

import "testing"

// TestLayoutLate: an instruction of an earlier section after the
// functions (or between a function's OpFunction and its first block,
// which also leaves the function sections) is an error of the graph
// definitions section, the last one, as current spirv-val words it
// (2023.1 said "... cannot appear in a function declaration"); and the
// first-loop rules that precede IdPass.
func TestLayoutLate(t *testing.T) {
	const head = "OpCapability Shader\nOpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\n"
	const types = "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n"
	const fn = "%main = OpFunction %void None %fn\n%e = OpLabel\nOpReturn\nOpFunctionEnd\n"
	cases := []struct{ name, src, want string }{
		{"valid", head + types + fn, ""},
		{"name after the functions", head + types + fn + "OpName %main \"m\"\n", "OpName cannot appear in the graph definitions section"},
		{"type in a function declaration", head + types + "%main = OpFunction %void None %fn\n%u32 = OpTypeInt 32 0\n%e = OpLabel\nOpReturn\nOpFunctionEnd\n",
			"OpTypeInt cannot appear in the graph definitions section"},
		{"entry point twice", "OpCapability Shader\nOpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %main \"main\"\nOpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\n" + types + fn,
			"2 Entry points cannot share the same name and ExecutionMode."},
		{"call outside a function", head + types + "%x = OpFunctionCall %void %main\n" + fn, "A FunctionCall must happen within a function body."},
		{"capability after its use", "OpCapability Shader\nOpMemoryModel Logical GLSL450\nOpCapability Int8\nOpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\n" + types + fn,
			"Capability is in an invalid layout section"},
		{"memory model before its capability", "OpMemoryModel Logical GLSL450\nOpCapability Shader\n" + types,
			"Operand 2 of MemoryModel requires one of these capabilities: Shader "},
		{"extension out of place is not registered", "OpCapability Shader\nOpCapability DrawParameters\nOpMemoryModel Logical GLSL450\nOpExtension \"SPV_KHR_shader_draw_parameters\"\n" + types,
			"1st operand of Capability: operand DrawParameters(4427) requires one of these extensions: SPV_KHR_shader_draw_parameters "},
	}
	for _, c := range cases {
		words := assemble(t, c.src)
		if c.name == "extension out of place is not registered" {
			words[1] = 0x10000 // SPIR-V 1.0: DrawParameters needs its extension
		}
		if got := firstError(t, words, Options{}); got != c.want {
			t.Errorf("%s:\n\tgot  %q\n\twant %q", c.name, got, c.want)
		}
	}
}
