package val

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"spvx/asm"
	"spvx/spirv"
)

// biStage is one entry point's model, capabilities and modes.
type biStage struct{ model, caps, modes string }

var (
	stVertex   = biStage{"Vertex", "", ""}
	stFragment = biStage{"Fragment", "", "OpExecutionMode %main OriginUpperLeft\n"}
	stGeometry = biStage{"Geometry", "OpCapability Geometry\n", "OpExecutionMode %main InputPoints\nOpExecutionMode %main OutputPoints\nOpExecutionMode %main OutputVertices 1\nOpExecutionMode %main Invocations 1\n"}
	stTessCtl  = biStage{"TessellationControl", "OpCapability Tessellation\n", "OpExecutionMode %main OutputVertices 3\n"}
	stTessEval = biStage{"TessellationEvaluation", "OpCapability Tessellation\n", "OpExecutionMode %main Triangles\n"}
	stCompute  = biStage{"GLCompute", "", "OpExecutionMode %main LocalSize 1 1 1\n"}
	stMesh     = biStage{"MeshEXT", "OpCapability MeshShadingEXT\nOpExtension \"SPV_EXT_mesh_shader\"\n",
		"OpExecutionMode %main LocalSize 1 1 1\nOpExecutionMode %main OutputVertices 3\nOpExecutionMode %main OutputPrimitivesEXT 1\nOpExecutionMode %main OutputTrianglesEXT\n"}
)

// biModule is an entry point of stage st whose function loads %bi, a
// variable of type typ (declared as %bt) and storage class sc decorated
// BuiltIn b; decs are more decorations, decls more types and variables
// (listed in the interface when named in ifaces).
func biModule(st biStage, b, typ, sc, decs, decls, ifaces string) string {
	use := "%ld = OpLoad %bt %bi"
	if sc == "Output" && st.model == "MeshEXT" {
		use = "OpStore %bi %nl" // MeshEXT never reads its outputs
	}
	return "OpCapability Shader\n" + st.caps + "OpMemoryModel Logical GLSL450\n" +
		"OpEntryPoint " + st.model + " %main \"main\" %bi" + ifaces + "\n" + st.modes +
		"OpDecorate %bi BuiltIn " + b + "\n" + decs + `%void = OpTypeVoid
%fn = OpTypeFunction %void
%f32 = OpTypeFloat 32
%u32 = OpTypeInt 32 0
%bool = OpTypeBool
%uv2 = OpTypeVector %u32 2
%uv3 = OpTypeVector %u32 3
%c1 = OpConstant %u32 1
%c2 = OpConstant %u32 2
%c3 = OpConstant %u32 3
%c4 = OpConstant %u32 4
%bt = ` + typ + `
%pbt = OpTypePointer ` + sc + ` %bt
%bi = OpVariable %pbt ` + sc + "\n%nl = OpConstantNull %bt\n" + decls + `%main = OpFunction %void None %fn
%entry = OpLabel
` + use + `
OpReturn
OpFunctionEnd
`
}

// vk is a Vulkan 1.3 case.
func vk(name, src, want string) rqCase {
	return rqCase{name: name, src: src, want: want, env: EnvVulkan1_3}
}

const i32Type = "OpTypeInt 32 1"

func graphicsBuiltinCases() []rqCase {
	withCap := func(st biStage, c string) biStage { st.caps += "OpCapability " + c + "\n"; return st }
	return []rqCase{
		vk("layer geometry", biModule(stGeometry, "Layer", i32Type, "Output", "", "", ""), ""),
		vk("layer fragment input", biModule(withCap(stFragment, "Geometry"), "Layer", i32Type, "Input", "OpDecorate %bi Flat\n", "", ""), ""),
		vk("layer vertex", biModule(withCap(stVertex, "Geometry"), "Layer", i32Type, "Output", "", "", ""),
			"[VUID-Layer-Layer-04273] Using BuiltIn Layer in Vertex or Tessellation execution model requires the ShaderViewportIndexLayerEXT or ShaderLayer capability."),
		vk("layer vertex with ShaderLayer", biModule(withCap(stVertex, "ShaderLayer"), "Layer", i32Type, "Output", "", "", ""), ""),
		vk("layer compute", biModule(withCap(stCompute, "Geometry"), "Layer", i32Type, "Input", "", "", ""),
			"[VUID-Layer-Layer-04272] Vulkan spec allows BuiltIn Layer to be used only with Vertex, TessellationEvaluation, Geometry, or Fragment execution models. ID <18> (OpLoad) is referencing ID <2> (OpVariable) which is decorated with BuiltIn Layer in function <1> called with execution model GLCompute."),
		vk("layer vertex input", biModule(withCap(stVertex, "ShaderLayer"), "Layer", i32Type, "Input", "", "", ""), "[VUID-Layer-Layer-04274] Vulkan spec doesn't allow BuiltIn Layer and ViewportIndex to be used for variables with Input storage class if execution model is Vertex, TessellationEvaluation, Geometry, MeshNV or MeshEXT. ID <2> (OpVariable) depends on ID <2> (OpVariable) which is decorated with BuiltIn Layer. Id <2> is later referenced by ID <18> (OpLoad) in function <1> which is called with execution model Vertex."),
		vk("layer fragment output", biModule(withCap(stFragment, "Geometry"), "Layer", i32Type, "Output", "", "", ""), "[VUID-Layer-Layer-04275] Vulkan spec doesn't allow BuiltIn Layer and ViewportIndex to be used for variables with Output storage class if execution model is Fragment. ID <2> (OpVariable) depends on ID <2> (OpVariable) which is decorated with BuiltIn Layer. Id <2> is later referenced by ID <18> (OpLoad) in function <1> which is called with execution model Fragment."),
		vk("layer private", biModule(stGeometry, "Layer", i32Type, "Private", "", "", ""), "Vulkan spec allows BuiltIn Layer to be only used for variables with Input or Output storage class. ID <2> (OpVariable) is referencing ID <2> (OpVariable) which is decorated with BuiltIn Layer. ID <2> (OpVariable) uses storage class Private."),
		vk("layer float", biModule(withCap(withCap(stFragment, "Geometry"), "Float16"), "Layer", "OpTypeFloat 16", "Input", "OpDecorate %bi Flat\n", "", ""), "[VUID-Layer-Layer-04276] According to the Vulkan spec BuiltIn Layervariable needs to be a 32-bit int scalar. ID <2> (OpVariable) is not an int scalar."),
		vk("viewport index tessellation evaluation", biModule(withCap(stTessEval, "MultiViewport"), "ViewportIndex", i32Type, "Output", "", "", ""), "[VUID-ViewportIndex-ViewportIndex-04405] Using BuiltIn ViewportIndex in Vertex or Tessellation execution model requires the ShaderViewportIndexLayerEXT or ShaderViewportIndex capability."),
		vk("viewport index with ShaderViewportIndex", biModule(withCap(stTessEval, "ShaderViewportIndex"), "ViewportIndex", i32Type, "Output", "", "", ""), ""),
		vk("viewport index vector", biModule(withCap(stFragment, "MultiViewport"), "ViewportIndex", "OpTypeVector %u32 4", "Input", "OpDecorate %bi Flat\n", "", ""), "[VUID-ViewportIndex-ViewportIndex-04408] According to the Vulkan spec BuiltIn ViewportIndexvariable needs to be a 32-bit int scalar. ID <2> (OpVariable) is not an int scalar."),
		vk("primitive id fragment", biModule(withCap(stFragment, "Geometry"), "PrimitiveId", i32Type, "Input", "OpDecorate %bi Flat\n", "", ""), ""),
		vk("primitive id fragment output", biModule(withCap(stFragment, "Geometry"), "PrimitiveId", i32Type, "Output", "", "", ""), "[VUID-PrimitiveId-PrimitiveId-04334] Vulkan spec doesn't allow BuiltIn PrimitiveId to be used for variables with Output storage class if execution model is Fragment. ID <2> (OpVariable) depends on ID <2> (OpVariable) which is decorated with BuiltIn PrimitiveId. Id <2> is later referenced by ID <18> (OpLoad) in function <1> which is called with execution model Fragment."),
		vk("primitive id fragment without geometry", biModule(biStage{"Fragment", "OpCapability RayTracingKHR\nOpExtension \"SPV_KHR_ray_tracing\"\n", stFragment.modes},
			"PrimitiveId", i32Type, "Input", "OpDecorate %bi Flat\n", "", ""), "[VUID-PrimitiveId-Fragment-04333] Vulkan spec doesn't allow BuiltIn PrimitiveId to be used for variables in the Fragment execution model unless it declares Geometry, Tessellation, or MeshShader capabilities. ID <2> (OpVariable) depends on ID <2> (OpVariable) which is decorated with BuiltIn PrimitiveId. Id <2> is later referenced by ID <18> (OpLoad) in function <1> which is called with execution model Fragment."),
		vk("primitive id vertex", biModule(withCap(stVertex, "Geometry"), "PrimitiveId", i32Type, "Input", "", "", ""), "[VUID-PrimitiveId-PrimitiveId-04330] Vulkan spec allows BuiltIn PrimitiveId to be used only with Fragment, TessellationControl, TessellationEvaluation, Geometry, MeshNV, MeshEXT, IntersectionKHR, AnyHitKHR, and ClosestHitKHR execution models. ID <18> (OpLoad) is referencing ID <2> (OpVariable) which is decorated with BuiltIn PrimitiveId in function <1> called with execution model Vertex."),
		vk("primitive id geometry array", biModule(stGeometry, "PrimitiveId", "OpTypeArray %f32 %c1", "Input", "", "", ""), "[VUID-PrimitiveId-PrimitiveId-04337] According to the Vulkan spec BuiltIn PrimitiveIdvariable needs to be a 32-bit int scalar. ID <2> (OpVariable) is not an int scalar."),
		vk("primitive id workgroup", biModule(stGeometry, "PrimitiveId", i32Type, "Workgroup", "", "", ""), "Vulkan spec allows BuiltIn PrimitiveId to be only used for variables with Input or Output storage class. ID <2> (OpVariable) is referencing ID <2> (OpVariable) which is decorated with BuiltIn PrimitiveId. ID <2> (OpVariable) uses storage class Workgroup."),
		vk("tess level outer", biModule(stTessCtl, "TessLevelOuter", "OpTypeArray %f32 %c4", "Output", "OpDecorate %bi Patch\n", "", ""), ""),
		vk("tess level outer without patch", biModule(stTessCtl, "TessLevelOuter", "OpTypeArray %f32 %c4", "Output", "", "", ""), "[VUID-StandaloneSpirv-TessLevelInner-10880] BuiltIn TessLevelOuter variable needs to also have a Patch decoration."),
		vk("tess level outer size", biModule(stTessCtl, "TessLevelOuter", "OpTypeArray %f32 %c3", "Output", "OpDecorate %bi Patch\n", "", ""), "[VUID-TessLevelOuter-TessLevelOuter-04393] According to the Vulkan spec BuiltIn TessLevelOuter variable needs to be a 4-component 32-bit float array. ID <2> (OpVariable) has 3 components."),
		vk("tess level outer vertex", biModule(withCap(stVertex, "Tessellation"), "TessLevelOuter", "OpTypeArray %f32 %c4", "Output", "OpDecorate %bi Patch\n", "", ""), "[VUID-TessLevelOuter-TessLevelOuter-04390] Vulkan spec allows BuiltIn TessLevelOuter to be used only with TessellationControl or TessellationEvaluation execution models. ID <18> (OpLoad) is referencing ID <2> (OpVariable) which is decorated with BuiltIn TessLevelOuter in function <1> called with execution model Vertex."),
		vk("tess level outer control input", biModule(stTessCtl, "TessLevelOuter", "OpTypeArray %f32 %c4", "Input", "OpDecorate %bi Patch\n", "", ""), "[VUID-TessLevelOuter-TessLevelOuter-04391] Vulkan spec doesn't allow TessLevelOuter/TessLevelInner to be used for variables with Input storage class if execution model is TessellationControl. ID <2> (OpVariable) depends on ID <2> (OpVariable) which is decorated with BuiltIn TessLevelOuter. Id <2> is later referenced by ID <18> (OpLoad) in function <1> which is called with execution model TessellationControl."),
		vk("tess level inner evaluation output", biModule(stTessEval, "TessLevelInner", "OpTypeArray %f32 %c2", "Output", "OpDecorate %bi Patch\n", "", ""), "[VUID-TessLevelInner-TessLevelInner-04396] Vulkan spec doesn't allow TessLevelOuter/TessLevelInner to be used for variables with Output storage class if execution model is TessellationEvaluation. ID <2> (OpVariable) depends on ID <2> (OpVariable) which is decorated with BuiltIn TessLevelInner. Id <2> is later referenced by ID <18> (OpLoad) in function <1> which is called with execution model TessellationEvaluation."),
		vk("tess level inner evaluation", biModule(stTessEval, "TessLevelInner", "OpTypeArray %f32 %c2", "Input", "OpDecorate %bi Patch\n", "", ""), ""),
		vk("tess level inner size", biModule(stTessEval, "TessLevelInner", "OpTypeArray %f32 %c4", "Input", "OpDecorate %bi Patch\n", "", ""), "[VUID-TessLevelInner-TessLevelInner-04397] According to the Vulkan spec BuiltIn TessLevelInner variable needs to be a 2-component 32-bit float array. ID <2> (OpVariable) has 4 components."),
		vk("tess level inner ints", biModule(stTessEval, "TessLevelInner", "OpTypeArray %u32 %c2", "Input", "OpDecorate %bi Patch\n", "", ""), "[VUID-TessLevelInner-TessLevelInner-04397] According to the Vulkan spec BuiltIn TessLevelInner variable needs to be a 2-component 32-bit float array. ID <2> (OpVariable) components are not float scalar."),
		vk("tess level inner function", biModule(stTessEval, "TessLevelInner", "OpTypeArray %f32 %c2", "Private", "OpDecorate %bi Patch\n", "", ""), "Vulkan spec allows BuiltIn TessLevelInner to be only used for variables with Input or Output storage class. ID <2> (OpVariable) is referencing ID <2> (OpVariable) which is decorated with BuiltIn TessLevelInner. ID <2> (OpVariable) uses storage class Private."),
		vk("tess coord", biModule(stTessEval, "TessCoord", "OpTypeVector %f32 3", "Input", "", "", ""), ""),
		vk("tess coord vec4", biModule(stTessEval, "TessCoord", "OpTypeVector %f32 4", "Input", "", "", ""), "[VUID-TessCoord-TessCoord-04389] According to the Vulkan spec BuiltIn TessCoord variable needs to be a 3-component 32-bit float vector. ID <2> (OpVariable) has 4 components."),
		vk("tess coord output", biModule(stTessEval, "TessCoord", "OpTypeVector %f32 3", "Output", "", "", ""), "[VUID-TessCoord-TessCoord-04388] Vulkan spec allows BuiltIn TessCoord to be only used for variables with Input storage class. ID <2> (OpVariable) is referencing ID <2> (OpVariable) which is decorated with BuiltIn TessCoord. ID <2> (OpVariable) uses storage class Output."),
		vk("tess coord control", biModule(stTessCtl, "TessCoord", "OpTypeVector %f32 3", "Input", "", "", ""), "[VUID-TessCoord-TessCoord-04387] Vulkan spec allows BuiltIn TessCoord to be used only with TessellationEvaluation execution model. ID <18> (OpLoad) is referencing ID <2> (OpVariable) which is decorated with BuiltIn TessCoord in function <1> called with execution model TessellationControl."),
		vk("patch vertices", biModule(stTessCtl, "PatchVertices", i32Type, "Input", "", "", ""), ""),
		vk("patch vertices float", biModule(withCap(stTessCtl, "Float16"), "PatchVertices", "OpTypeFloat 16", "Input", "", "", ""), "[VUID-PatchVertices-PatchVertices-04310] According to the Vulkan spec BuiltIn PatchVertices variable needs to be a 32-bit int scalar. ID <2> (OpVariable) is not an int scalar."),
		vk("patch vertices geometry", biModule(withCap(stGeometry, "Tessellation"), "PatchVertices", i32Type, "Input", "", "", ""), "[VUID-PatchVertices-PatchVertices-04308] Vulkan spec allows BuiltIn PatchVertices to be used only with TessellationControl or TessellationEvaluation execution models. ID <18> (OpLoad) is referencing ID <2> (OpVariable) which is decorated with BuiltIn PatchVertices in function <1> called with execution model Geometry."),
		vk("invocation id", biModule(stGeometry, "InvocationId", i32Type, "Input", "", "", ""), ""),
		vk("invocation id output", biModule(stGeometry, "InvocationId", i32Type, "Output", "", "", ""), "[VUID-InvocationId-InvocationId-04258] Vulkan spec allows BuiltIn InvocationId to be only used for variables with Input storage class. ID <2> (OpVariable) is referencing ID <2> (OpVariable) which is decorated with BuiltIn InvocationId. ID <2> (OpVariable) uses storage class Output."),
		vk("invocation id evaluation", biModule(stTessEval, "InvocationId", i32Type, "Input", "", "", ""), "[VUID-InvocationId-InvocationId-04257] Vulkan spec allows BuiltIn InvocationId to be used only with TessellationControl or Geometry execution models. ID <18> (OpLoad) is referencing ID <2> (OpVariable) which is decorated with BuiltIn InvocationId in function <1> called with execution model TessellationEvaluation."),
		rq("tess level outer universal", biModule(stTessCtl, "TessLevelOuter", "OpTypeArray %f32 %c3", "Input", "", "", ""), ""),
	}
}

func TestGraphicsBuiltins(t *testing.T) { runTable(t, graphicsBuiltinCases()) }

// meshBI is a mesh-shader module whose built-in %bi is also listed in
// the interface.
func meshBI(st biStage, b, typ, sc, decs, decls, ifaces string) string {
	return biModule(st, b, typ, sc, decs, decls, ifaces)
}

// meshCaps adds the mesh capability and extension to st.
func meshCaps(st biStage) biStage {
	st.caps += "OpCapability MeshShadingEXT\nOpExtension \"SPV_EXT_mesh_shader\"\n"
	return st
}

func meshBuiltinCases() []rqCase {
	points := stMesh
	points.modes = strings.Replace(points.modes, "OutputTrianglesEXT", "OutputPoints", 1)
	perPrim := "OpDecorate %bi PerPrimitiveEXT\n"
	twoEntries := strings.Replace(meshBI(stMesh, "CullPrimitiveEXT", "OpTypeArray %bool %c1", "Output", perPrim, "", ""),
		"OpEntryPoint MeshEXT %main \"main\" %bi\n", "OpEntryPoint MeshEXT %main \"main\" %bi\nOpEntryPoint MeshEXT %main \"second\" %bi\n", 1)
	block := func(n string) string {
		m := meshBI(stMesh, "Layer", "OpTypeArray %u32 "+n, "Output", "", "", "")
		m = strings.Replace(m, "OpDecorate %bi BuiltIn Layer\n", "OpMemberDecorate %st 0 BuiltIn Layer\nOpMemberDecorate %st 0 PerPrimitiveEXT\nOpDecorate %st Block\n", 1)
		return strings.Replace(m, "%bt = OpTypeArray %u32 "+n, "%st = OpTypeStruct %u32\n%bt = OpTypeArray %st "+n, 1)
	}
	load := strings.Replace(meshBI(stMesh, "Layer", "OpTypeArray %u32 %c1", "Output", perPrim, "", ""), "OpStore %bi %nl", "%ld = OpLoad %bt %bi", 1)
	cull2 := "%bi2 = OpVariable %pbt Output\n"
	return []rqCase{
		vk("triangle indices", meshBI(stMesh, "PrimitiveTriangleIndicesEXT", "OpTypeArray %uv3 %c1", "Output", "", "", ""), ""),
		vk("triangle indices with points", meshBI(points, "PrimitiveTriangleIndicesEXT", "OpTypeArray %uv3 %c1", "Output", "", "", ""), "[VUID-PrimitiveTriangleIndicesEXT-PrimitiveTriangleIndicesEXT-07054] The PrimitiveTriangleIndicesEXT decoration must be used with the OutputTrianglesEXT Execution Mode. "),
		vk("triangle indices size", meshBI(stMesh, "PrimitiveTriangleIndicesEXT", "OpTypeArray %uv3 %c2", "Output", "", "", ""), "[VUID-PrimitiveTriangleIndicesEXT-PrimitiveTriangleIndicesEXT-07058] The size of the array decorated with PrimitiveTriangleIndicesEXT (2) must match the value specified by OutputPrimitivesEXT (1). "),
		vk("triangle indices uvec2", meshBI(stMesh, "PrimitiveTriangleIndicesEXT", "OpTypeArray %uv2 %c1", "Output", "", "", ""), "[VUID-PrimitiveTriangleIndicesEXT-PrimitiveTriangleIndicesEXT-07056] According to the Vulkan spec BuiltIn PrimitiveTriangleIndicesEXT variable needs to be a 3-component 32-bit int array.ID <2> (OpVariable) has 2 components."),
		vk("triangle indices vertex", meshBI(meshCaps(stVertex), "PrimitiveTriangleIndicesEXT", "OpTypeArray %uv3 %c1", "Output", "", "", ""), "[VUID-PrimitiveTriangleIndicesEXT-PrimitiveTriangleIndicesEXT-07053] Vulkan spec allows BuiltIn PrimitiveTriangleIndicesEXT to be used only with MeshEXT execution model. ID <18> (OpLoad) is referencing ID <2> (OpVariable) which is decorated with BuiltIn PrimitiveTriangleIndicesEXT in function <1> called with execution model Vertex."),
		vk("point indices", meshBI(points, "PrimitivePointIndicesEXT", "OpTypeArray %u32 %c1", "Output", "", "", ""), ""),
		vk("point indices float", meshBI(points, "PrimitivePointIndicesEXT", "OpTypeArray %f32 %c1", "Output", "", "", ""), "[VUID-PrimitivePointIndicesEXT-PrimitivePointIndicesEXT-07044] According to the Vulkan spec BuiltIn PrimitivePointIndicesEXT variable needs to be a 32-bit int array.ID <2> (OpVariable) components are not int scalar."),
		vk("line indices input", meshBI(stMesh, "PrimitiveLineIndicesEXT", "OpTypeArray %uv2 %c1", "Input", "", "", ""), "[VUID-PrimitiveLineIndicesEXT-PrimitiveLineIndicesEXT-07049] Vulkan spec allows BuiltIn PrimitiveLineIndicesEXT to be only used for variables with Output storage class. ID <2> (OpVariable) is referencing ID <2> (OpVariable) which is decorated with BuiltIn PrimitiveLineIndicesEXT. ID <2> (OpVariable) uses storage class Input."),
		vk("line indices with triangles", meshBI(stMesh, "PrimitiveLineIndicesEXT", "OpTypeArray %uv2 %c1", "Output", "", "", ""), "[VUID-PrimitiveLineIndicesEXT-PrimitiveLineIndicesEXT-07048] The PrimitiveLineIndicesEXT decoration must be used with the OutputLinesEXT Execution Mode. "),
		vk("cull primitive", meshBI(stMesh, "CullPrimitiveEXT", "OpTypeArray %bool %c1", "Output", perPrim, "", ""), ""),
		vk("cull primitive ints", meshBI(stMesh, "CullPrimitiveEXT", "OpTypeArray %u32 %c1", "Output", perPrim, "", ""), "[VUID-CullPrimitiveEXT-CullPrimitiveEXT-07036] According to the Vulkan specspec BuiltIn CullPrimitiveEXT variable needs to be a either a TypeBool or an array of TypeBool. ID <2> (OpVariable) is not a bool scalar."),
		vk("cull primitive not per-primitive", meshBI(stMesh, "CullPrimitiveEXT", "OpTypeArray %bool %c1", "Output", "", "", ""), "[VUID-CullPrimitiveEXT-CullPrimitiveEXT-07038] According to the Vulkan spec the variable decorated with Builtin CullPrimitiveEXT within the MeshEXT Execution Model must also be decorated with the PerPrimitiveEXT decoration. "),
		vk("cull primitive size", meshBI(stMesh, "CullPrimitiveEXT", "OpTypeArray %bool %c2", "Output", perPrim, "", ""), "[VUID-CullPrimitiveEXT-CullPrimitiveEXT-10589]  The size of the array decorated with CullPrimitiveEXT (2) must match the value specified by OutputPrimitivesEXT (1). "),
		vk("cull primitive twice", meshBI(stMesh, "CullPrimitiveEXT", "OpTypeArray %bool %c1", "Output", perPrim+"OpDecorate %bi2 BuiltIn CullPrimitiveEXT\nOpDecorate %bi2 PerPrimitiveEXT\n", cull2, " %bi2"), "[VUID-StandaloneSpirv-OpEntryPoint-09659] OpEntryPoint contains duplicate output variables with CullPrimitiveEXT builtin"),
		vk("layer in mesh", meshBI(stMesh, "Layer", "OpTypeArray %u32 %c1", "Output", perPrim, "", ""), ""),
		vk("layer in mesh not per-primitive", meshBI(stMesh, "Layer", "OpTypeArray %u32 %c1", "Output", "", "", ""), "[VUID-Layer-Layer-07039] According to the Vulkan spec the variable decorated with Builtin Layer within the MeshEXT Execution Model must also be decorated with the PerPrimitiveEXT decoration. "),
		vk("layer in mesh scalar", meshBI(stMesh, "Layer", i32Type, "Output", perPrim, "", ""), "[VUID-Layer-Layer-10592] According to the Vulkan specspec BuiltIn Layer variable needs to be a either a TypeInt or an array of TypeInt. ID <2> (OpVariable) Scalar boolean must be in a Block."),
		vk("viewport index in mesh size", meshBI(stMesh, "ViewportIndex", "OpTypeArray %u32 %c3", "Output", perPrim, "", ""), "[VUID-ViewportIndex-ViewportIndex-10602]  The size of the array decorated with ViewportIndex (3) must match the value specified by OutputPrimitivesEXT (1). "),
		vk("primitive id in mesh floats", meshBI(stMesh, "PrimitiveId", "OpTypeArray %f32 %c1", "Output", perPrim, "", ""), "According to the Vulkan specspec BuiltIn PrimitiveId variable needs to be a either a TypeInt or an array of TypeInt. ID <2> (OpVariable) is not an integer scalar."),
		vk("point indices with triangles", meshBI(stMesh, "PrimitivePointIndicesEXT", "OpTypeArray %u32 %c1", "Output", "", "", ""), "[VUID-PrimitivePointIndicesEXT-PrimitivePointIndicesEXT-07042] The PrimitivePointIndicesEXT decoration must be used with the OutputPoints Execution Mode. "),
		vk("point indices size", meshBI(points, "PrimitivePointIndicesEXT", "OpTypeArray %u32 %c3", "Output", "", "", ""), "[VUID-PrimitivePointIndicesEXT-PrimitivePointIndicesEXT-07046] The size of the array decorated with PrimitivePointIndicesEXT (3) must match the value specified by OutputPrimitivesEXT (1). "),
		vk("cull primitive input", meshBI(stMesh, "CullPrimitiveEXT", "OpTypeArray %bool %c1", "Input", "", "", ""), "[VUID-CullPrimitiveEXT-CullPrimitiveEXT-07035] Vulkan spec allows BuiltIn CullPrimitiveEXT to be only used for variables with Output storage class. ID <2> (OpVariable) is referencing ID <2> (OpVariable) which is decorated with BuiltIn CullPrimitiveEXT. ID <2> (OpVariable) uses storage class Input."),
		vk("cull primitive vertex", meshBI(meshCaps(stVertex), "CullPrimitiveEXT", "OpTypeArray %bool %c1", "Output", perPrim, "", ""), "[VUID-CullPrimitiveEXT-CullPrimitiveEXT-07034] Vulkan spec allows BuiltIn CullPrimitiveEXT to be used only with MeshEXT execution model. ID <18> (OpLoad) is referencing ID <2> (OpVariable) which is decorated with BuiltIn CullPrimitiveEXT in function <1> called with execution model Vertex."),
		vk("layer block in mesh", block("%c1"), ""),
		vk("layer block in mesh size", block("%c2"), "[VUID-Layer-Layer-10594]  The size of the array decorated with Layer (2) must match the value specified by OutputPrimitivesEXT (1). "),
		vk("cull primitive in two entry points", twoEntries, "[VUID-CullPrimitiveEXT-CullPrimitiveEXT-10591] There must be only one declaration of the CullPrimitiveEXT associated in entry point's interface. ID <1> (OpFunction)"),
		vk("mesh output load", load, "OpEntryPoint Entry Point <id> '1[%1]'s callgraph contains function <id> '1[%1]', which cannot be used with the current execution model:\n[VUID-StandaloneSpirv-MeshEXT-07107] The Output Storage Class in a Mesh Execution Model must not be read from\n"),
		vk("layer mesh input", meshBI(stMesh, "Layer", "OpTypeArray %u32 %c1", "Input", perPrim, "", ""), "[VUID-PrimitiveId-PrimitiveId-04336] PerPrimitiveEXT decoration must be applied only to variables in the Output Storage Class in the Storage Class in the MeshEXT Execution Model."),
	}
}

func TestMeshBuiltins(t *testing.T) { runTable(t, meshBuiltinCases()) }

// TestMeshBuiltinsLinear: n MeshEXT entry points, each with its own
// per-primitive Layer and CullPrimitiveEXT outputs, validate in linear
// time in Vulkan (the interface maps and entry-point positions are built
// once, not searched per reference or per decoration).
func TestMeshBuiltinsLinear(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("-short or -race: CPU-time ratios")
	}
	module := func(n int) string {
		var head, decs, vars, fns strings.Builder
		for k := 0; k < n; k++ {
			fmt.Fprintf(&head, "OpEntryPoint MeshEXT %%m%[1]d \"m%[1]d\" %%l%[1]d %%c%[1]d\n", k)
			fmt.Fprintf(&decs, "OpExecutionMode %%m%[1]d LocalSize 1 1 1\nOpExecutionMode %%m%[1]d OutputVertices 3\nOpExecutionMode %%m%[1]d OutputPrimitivesEXT 1\nOpExecutionMode %%m%[1]d OutputTrianglesEXT\n", k)
			fmt.Fprintf(&vars, "%%l%[1]d = OpVariable %%pl Output\n%%c%[1]d = OpVariable %%pc Output\n", k)
			fmt.Fprintf(&fns, "%%m%[1]d = OpFunction %%void None %%fn\n%%e%[1]d = OpLabel\nOpStore %%l%[1]d %%nl\nOpStore %%c%[1]d %%nc\nOpReturn\nOpFunctionEnd\n", k)
		}
		var ann strings.Builder
		for k := 0; k < n; k++ {
			fmt.Fprintf(&ann, "OpDecorate %%l%[1]d BuiltIn Layer\nOpDecorate %%l%[1]d PerPrimitiveEXT\nOpDecorate %%c%[1]d BuiltIn CullPrimitiveEXT\nOpDecorate %%c%[1]d PerPrimitiveEXT\n", k)
		}
		return "OpCapability Shader\nOpCapability MeshShadingEXT\nOpExtension \"SPV_EXT_mesh_shader\"\nOpMemoryModel Logical GLSL450\n" +
			head.String() + decs.String() + ann.String() + `%void = OpTypeVoid
%fn = OpTypeFunction %void
%u32 = OpTypeInt 32 0
%bool = OpTypeBool
%one = OpConstant %u32 1
%al = OpTypeArray %u32 %one
%ac = OpTypeArray %bool %one
%pl = OpTypePointer Output %al
%pc = OpTypePointer Output %ac
%nl = OpConstantNull %al
%nc = OpConstantNull %ac
` + vars.String() + fns.String()
	}
	opts := Options{Env: EnvVulkan1_3}
	measure := func(n int) time.Duration {
		words, err := asm.Assemble([]byte(module(n)), asm.Options{TargetEnv: opts.Env.String()})
		if err != nil {
			t.Fatal(err)
		}
		m, err := spirv.DecodeWords(words)
		if err != nil {
			t.Fatal(err)
		}
		d, err := validationCPU(m, opts)
		if err != nil {
			t.Fatalf("%d entry points: %v", n, err)
		}
		return d
	}
	const n = 1000
	assertLinear(t, "%d mesh entry points", n, measure(n), measure(4*n))
}
