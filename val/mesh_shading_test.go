package val

import (
	"fmt"
	"strings"
	"testing"

	"spvx/spirv"
)

// meshModule is a MeshEXT entry point %main (3 vertices, 1 triangle)
// with a per-vertex Output array %out, a per-primitive Output array
// %prim, decls among the types and body in the function.
func meshModule(decls, body string) string {
	return `OpCapability MeshShadingEXT
OpCapability Int64
OpExtension "SPV_EXT_mesh_shader"
OpMemoryModel Logical GLSL450
OpEntryPoint MeshEXT %main "main" %out %prim
OpExecutionMode %main LocalSize 1 1 1
OpExecutionMode %main OutputVertices 3
OpExecutionMode %main OutputPrimitivesEXT 1
OpExecutionMode %main OutputTrianglesEXT
OpDecorate %out Location 0
OpDecorate %prim Location 1
OpDecorate %prim PerPrimitiveEXT
%void = OpTypeVoid
%fn = OpTypeFunction %void
%u32 = OpTypeInt 32 0
%i32 = OpTypeInt 32 1
%u64 = OpTypeInt 64 0
%f32 = OpTypeFloat 32
%c1 = OpConstant %u32 1
%c3 = OpConstant %u32 3
%c4 = OpConstant %u32 4
%s1 = OpConstant %i32 1
%l1 = OpConstant %u64 1
%a3 = OpTypeArray %f32 %c3
%a1 = OpTypeArray %f32 %c1
%pa3 = OpTypePointer Output %a3
%pa1 = OpTypePointer Output %a1
%pf = OpTypePointer Output %f32
%out = OpVariable %pa3 Output
%prim = OpVariable %pa1 Output
` + decls + `%main = OpFunction %void None %fn
%entry = OpLabel
` + body + `OpReturn
OpFunctionEnd
`
}

// taskModule is a TaskEXT entry point %main with a payload %pl; body
// ends its only block.
func taskModule(decls, body string) string {
	return `OpCapability MeshShadingEXT
OpExtension "SPV_EXT_mesh_shader"
OpMemoryModel Logical GLSL450
OpEntryPoint TaskEXT %main "main" %pl
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%u32 = OpTypeInt 32 0
%i32 = OpTypeInt 32 1
%c1 = OpConstant %u32 1
%s1 = OpConstant %i32 1
%ppl = OpTypePointer TaskPayloadWorkgroupEXT %u32
%pw = OpTypePointer Workgroup %u32
%pl = OpVariable %ppl TaskPayloadWorkgroupEXT
` + decls + `%main = OpFunction %void None %fn
%entry = OpLabel
` + body + `OpFunctionEnd
`
}

const meshLimits = "OpEntryPoint Entry Point <id> '1[%1]'s callgraph contains function <id> '1[%1]', which cannot be used with the current execution "

func meshCases() []rqCase {
	fragment := `OpCapability Shader
OpCapability MeshShadingEXT
OpExtension "SPV_EXT_mesh_shader"
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main" %v
OpExecutionMode %main OriginUpperLeft
OpDecorate %v Location 0
OpDecorate %v PerPrimitiveEXT
OpDecorate %v Flat
%void = OpTypeVoid
%fn = OpTypeFunction %void
%f32 = OpTypeFloat 32
%p = OpTypePointer SC %f32
%v = OpVariable %p SC
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
`
	fragIn := strings.ReplaceAll(fragment, "SC", "Input")
	fragOut := strings.ReplaceAll(strings.ReplaceAll(fragment, "SC", "Output"), "OpDecorate %v Flat\n", "")
	// A mesh and a fragment entry point: no variable is an interface of
	// every entry point's model, so neither variable rule applies.
	both := strings.Replace(meshModule("%pin = OpTypePointer Input %f32\n%in = OpVariable %pin Input\n%frag = OpFunction %void None %fn\n%fe = OpLabel\nOpReturn\nOpFunctionEnd\n", "OpSetMeshOutputsEXT %c3 %c1\n"),
		"OpEntryPoint MeshEXT %main \"main\" %out %prim\n", "OpEntryPoint MeshEXT %main \"main\" %out %prim %in\nOpEntryPoint Fragment %frag \"frag\" %in\nOpExecutionMode %frag OriginUpperLeft\n", 1)
	both = strings.Replace(both, "OpDecorate %prim PerPrimitiveEXT\n", "OpDecorate %prim PerPrimitiveEXT\nOpDecorate %in PerPrimitiveEXT\n", 1)
	scalarOut := strings.Replace(meshModule("%sv = OpVariable %pf Output\n", ""), "%out %prim\n", "%out %prim %sv\n", 1)
	scalarOut = strings.Replace(scalarOut, "OpDecorate %out Location 0\n", "OpDecorate %out Location 0\nOpDecorate %sv Location 2\n", 1)
	perPrimIn := strings.Replace(meshModule("%pin = OpTypePointer Input %a1\n%in = OpVariable %pin Input\n", ""), "%out %prim\n", "%out %prim %in\n", 1)
	perPrimIn = strings.Replace(perPrimIn, "OpDecorate %prim PerPrimitiveEXT\n", "OpDecorate %prim PerPrimitiveEXT\nOpDecorate %in PerPrimitiveEXT\nOpDecorate %in Location 2\n", 1)
	called := meshModule("%g = OpFunction %void None %fn\n%ge = OpLabel\nOpSetMeshOutputsEXT %c4 %c1\nOpReturn\nOpFunctionEnd\n", "%r = OpFunctionCall %void %g\n")
	return []rqCase{
		rq("valid mesh outputs", meshModule("", "OpSetMeshOutputsEXT %c3 %c1\n"), ""),
		rq("vertex count variable", meshModule("%pu = OpTypePointer Function %u32\n", "%x = OpVariable %pu Function\n%n = OpLoad %u32 %x\nOpSetMeshOutputsEXT %n %n\n"), ""),
		rq("vertex count too large", meshModule("", "OpSetMeshOutputsEXT %c4 %c1\n"), meshLimits+"modes:\nOpSetMeshOutputsEXT Vertex Count (4) is larger than the OutputVertices in OpExecutionMode (3).\n"),
		rq("primitive count too large", meshModule("", "OpSetMeshOutputsEXT %c3 %c3\n"), meshLimits+"modes:\nOpSetMeshOutputsEXT Primitive Count (3) is larger than the OutputPrimitivesEXT in OpExecutionMode (1).\n"),
		rq("both counts too large", meshModule("", "OpSetMeshOutputsEXT %c4 %c4\n"), meshLimits+"modes:\nOpSetMeshOutputsEXT Vertex Count (4) is larger than the OutputVertices in OpExecutionMode (3).\nOpSetMeshOutputsEXT Primitive Count (4) is larger than the OutputPrimitivesEXT in OpExecutionMode (1).\n"),
		rq("count too large in a callee", called, "OpEntryPoint Entry Point <id> '1[%1]'s callgraph contains function <id> '20[%20]', which cannot be used with the current execution modes:\nOpSetMeshOutputsEXT Vertex Count (4) is larger than the OutputVertices in OpExecutionMode (3).\n"),
		rq("vertex count signed", meshModule("", "OpSetMeshOutputsEXT %s1 %c1\n"), "Vertex Count must be a 32-bit unsigned int scalar"),
		rq("vertex count 64-bit", meshModule("", "OpSetMeshOutputsEXT %l1 %c1\n"), "Vertex Count must be a 32-bit unsigned int scalar"),
		rq("primitive count signed", meshModule("", "OpSetMeshOutputsEXT %c1 %s1\n"), "Primitive Count must be a 32-bit unsigned int scalar"),
		rq("set mesh outputs in task", taskModule("", "OpSetMeshOutputsEXT %c1 %c1\nOpEmitMeshTasksEXT %c1 %c1 %c1\n"), meshLimits+"model:\nOpSetMeshOutputsEXT requires MeshEXT execution model\n"),
		rq("valid emit", taskModule("", "OpEmitMeshTasksEXT %c1 %c1 %c1 %pl\n"), ""),
		rq("valid emit without payload", taskModule("", "OpEmitMeshTasksEXT %c1 %c1 %c1\n"), ""),
		rq("group count x", taskModule("", "OpEmitMeshTasksEXT %s1 %c1 %c1\n"), "Group Count X must be a 32-bit unsigned int scalar"),
		rq("group count y", taskModule("", "OpEmitMeshTasksEXT %c1 %s1 %c1\n"), "Group Count Y must be a 32-bit unsigned int scalar"),
		rq("group count z", taskModule("", "OpEmitMeshTasksEXT %c1 %c1 %s1\n"), "Group Count Z must be a 32-bit unsigned int scalar"),
		rq("payload not a variable", taskModule("", "OpEmitMeshTasksEXT %c1 %c1 %c1 %c1\n"), "Payload must be the result of a OpVariable"),
		rq("payload storage class", taskModule("%w = OpVariable %pw Workgroup\n", "OpEmitMeshTasksEXT %c1 %c1 %c1 %w\n"), "Payload OpVariable must have a storage class of TaskPayloadWorkgroupEXT"),
		rq("emit in mesh", meshModule("", "OpSetMeshOutputsEXT %c3 %c1\nOpEmitMeshTasksEXT %c1 %c1 %c1\n%dead = OpLabel\n"), meshLimits+"model:\nOpEmitMeshTasksEXT requires TaskEXT execution model\n"),
		rq("per-primitive fragment input", fragIn, ""),
		rq("per-primitive fragment output", fragOut, "PerPrimitiveEXT decoration must be applied only to variables in the Input Storage Class in the Fragment Execution Model."),
		rq("per-primitive mesh input", perPrimIn, "PerPrimitiveEXT decoration must be applied only to variables in the Output Storage Class in the Storage Class in the MeshEXT Execution Model."),
		{"per-primitive mesh input vulkan", perPrimIn, "[VUID-PrimitiveId-PrimitiveId-04336] PerPrimitiveEXT decoration must be applied only to variables in the Output Storage Class in the Storage Class in the MeshEXT Execution Model.", EnvVulkan1_3},
		rq("mesh and fragment entry points", both, ""),
		rq("mesh output not an array", scalarOut, "In the MeshEXT Execution Mode, all Output Variables must contain an Array."),
		{"valid mesh vulkan", meshModule("", "OpSetMeshOutputsEXT %c3 %c1\n"), "", EnvVulkan1_3},
	}
}

func TestMeshShading(t *testing.T) { runTable(t, meshCases()) }

// TestMeshCountLinear: the count limitations of many functions, each
// called by its own mesh entry point, cost linear work: the minimum
// output sizes are computed once, not per function.
func TestMeshCountLinear(t *testing.T) {
	module := func(n int) string {
		var eps, modes, fns strings.Builder
		for k := 0; k < n; k++ {
			fmt.Fprintf(&eps, "OpEntryPoint MeshEXT %%m%d \"m%d\"\n", k, k)
			fmt.Fprintf(&modes, "OpExecutionMode %%m%[1]d LocalSize 1 1 1\nOpExecutionMode %%m%[1]d OutputVertices 3\nOpExecutionMode %%m%[1]d OutputPrimitivesEXT 1\nOpExecutionMode %%m%[1]d OutputPoints\n", k)
			fmt.Fprintf(&fns, "%%m%d = OpFunction %%void None %%fn\n%%e%d = OpLabel\nOpSetMeshOutputsEXT %%c3 %%c1\nOpReturn\nOpFunctionEnd\n", k, k)
		}
		return "OpCapability MeshShadingEXT\nOpExtension \"SPV_EXT_mesh_shader\"\nOpMemoryModel Logical GLSL450\n" + eps.String() + modes.String() +
			"%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%u32 = OpTypeInt 32 0\n%c1 = OpConstant %u32 1\n%c3 = OpConstant %u32 3\n" + fns.String()
	}
	linearOnValid(t, "%d mesh entry points", module, 2000)
}

// FuzzMeshShading validates mutations of the mesh-shading and built-in
// tables' modules in the universal and Vulkan environments: the mesh
// rules and the graphics and mesh built-in rules must never panic on
// malformed operands, types or interfaces.
func FuzzMeshShading(f *testing.F) {
	for _, cs := range [][]rqCase{meshCases(), graphicsBuiltinCases(), meshBuiltinCases()} {
		for _, c := range cs {
			f.Add(wordsToBytes(assembleF(f, c.src)))
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := spirv.Decode(b)
		if err != nil {
			return
		}
		_ = Validate(m, Options{All: true})
		_ = Validate(m, Options{All: true, Env: EnvVulkan1_3})
	})
}
