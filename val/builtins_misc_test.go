package val

import (
	"strings"
	"testing"
)

// miscBuiltinCases cover builtins_misc.go: for each built-in a valid
// use and its type, storage class and model rules.
func miscBuiltinCases() []rqCase {
	with := func(st biStage, caps ...string) biStage {
		for _, c := range caps {
			if len(c) > 4 && c[:4] == "SPV_" {
				st.caps += "OpExtension \"" + c + "\"\n"
			} else {
				st.caps += "OpCapability " + c + "\n"
			}
		}
		return st
	}
	flat := "OpDecorate %bi Flat\n"
	v2 := "OpTypeVector %f32 2"
	v3 := "OpTypeVector %f32 3"
	iv2 := "OpTypeVector %u32 2"
	dedup := func(m string) string {
		return strings.Replace(strings.Replace(m, "%uv2 = OpTypeVector %u32 2\n", "", 1), "%bool = OpTypeBool\n", "", 1)
	}
	draw := with(stVertex, "DrawParameters")
	bary := func(st biStage) biStage {
		return with(st, "FragmentBarycentricKHR", "SPV_KHR_fragment_shader_barycentric")
	}
	density := func(st biStage) biStage { return with(st, "FragmentDensityEXT", "SPV_EXT_fragment_invocation_density") }
	stencil := func(st biStage) biStage { return with(st, "StencilExportEXT", "SPV_EXT_shader_stencil_export") }
	covered := func(st biStage) biStage { return with(st, "FragmentFullyCoveredEXT", "SPV_EXT_fragment_fully_covered") }
	rate := func(st biStage) biStage { return with(st, "FragmentShadingRateKHR", "SPV_KHR_fragment_shading_rate") }
	sm := func(st biStage) biStage { return with(st, "ShaderSMBuiltinsNV", "SPV_NV_shader_sm_builtins") }
	tile := func(st biStage) biStage { return with(st, "TileShadingQCOM", "SPV_QCOM_tile_shading") }
	meshRate := biStage{stMesh.model, "OpCapability MeshShadingEXT\nOpCapability FragmentShadingRateKHR\nOpExtension \"SPV_EXT_mesh_shader\"\nOpExtension \"SPV_KHR_fragment_shading_rate\"\n", stMesh.modes}
	core := func(st biStage) biStage { return with(st, "CoreBuiltinsARM", "SPV_ARM_core_builtins") }
	return []rqCase{
		vk("base instance", biModule(draw, "BaseInstance", i32Type, "Input", "", "", ""), ""),
		vk("base instance float", biModule(with(draw, "Float16"), "BaseInstance", "OpTypeFloat 16", "Input", "", "", ""), "[VUID-BaseInstance-BaseInstance-04183] According to the Vulkan spec BuiltIn BaseInstance variable needs to be a 32-bit int scalar. ID <2> (OpVariable) is not an int scalar."),
		vk("base vertex output", biModule(draw, "BaseVertex", i32Type, "Output", "", "", ""), "[VUID-BaseVertex-BaseVertex-04185] Vulkan spec allows BuiltIn BaseVertex to be only used for variables with Input storage class. ID <2> (OpVariable) is referencing ID <2> (OpVariable) which is decorated with BuiltIn BaseVertex. ID <2> (OpVariable) uses storage class Output."),
		vk("base vertex fragment", biModule(with(stFragment, "DrawParameters"), "BaseVertex", i32Type, "Input", flat, "", ""), "[VUID-BaseVertex-BaseVertex-04184] Vulkan spec allows BuiltIn BaseVertex to be used only with Vertex execution model. ID <18> (OpLoad) is referencing ID <2> (OpVariable) which is decorated with BuiltIn BaseVertex in function <1> called with execution model Fragment."),
		vk("draw index", biModule(draw, "DrawIndex", i32Type, "Input", "", "", ""), ""),
		vk("draw index geometry", biModule(with(stGeometry, "DrawParameters"), "DrawIndex", i32Type, "Input", "", "", ""), "[VUID-DrawIndex-DrawIndex-04207] Vulkan spec allows BuiltIn DrawIndex to be used only with Vertex, MeshNV, TaskNV , MeshEXT or TaskEXT execution model. ID <18> (OpLoad) is referencing ID <2> (OpVariable) which is decorated with BuiltIn DrawIndex in function <1> called with execution model Geometry."),
		vk("draw index vector", biModule(draw, "DrawIndex", "OpTypeVector %u32 4", "Input", "", "", ""), "[VUID-DrawIndex-DrawIndex-04209] According to the Vulkan spec BuiltIn DrawIndex variable needs to be a 32-bit int scalar. ID <2> (OpVariable) is not an int scalar."),
		vk("view index", biModule(with(stVertex, "MultiView"), "ViewIndex", i32Type, "Input", "", "", ""), ""),
		vk("view index compute", biModule(with(stCompute, "MultiView"), "ViewIndex", i32Type, "Input", "", "", ""), "[VUID-ViewIndex-ViewIndex-04401] Vulkan spec allows BuiltIn ViewIndex to be not be used with GLCompute execution model. ID <18> (OpLoad) is referencing ID <2> (OpVariable) which is decorated with BuiltIn ViewIndex in function <1> called with execution model GLCompute."),
		vk("view index output", biModule(with(stVertex, "MultiView"), "ViewIndex", i32Type, "Output", "", "", ""), "[VUID-ViewIndex-ViewIndex-04402] Vulkan spec allows BuiltIn ViewIndex to be only used for variables with Input storage class. ID <2> (OpVariable) is referencing ID <2> (OpVariable) which is decorated with BuiltIn ViewIndex. ID <2> (OpVariable) uses storage class Output."),
		vk("view index 64-bit", biModule(with(stVertex, "MultiView", "Int64"), "ViewIndex", "OpTypeInt 64 0", "Input", "", "", ""), "[VUID-ViewIndex-ViewIndex-04403] According to the Vulkan spec BuiltIn ViewIndex variable needs to be a 32-bit int scalar. ID <2> (OpVariable) has bit width 64."),
		vk("device index", biModule(with(stCompute, "DeviceGroup"), "DeviceIndex", i32Type, "Input", "", "", ""), ""),
		vk("device index output", biModule(with(stVertex, "DeviceGroup"), "DeviceIndex", i32Type, "Output", "", "", ""), "[VUID-DeviceIndex-DeviceIndex-04205] Vulkan spec allows BuiltIn DeviceIndex to be only used for variables with Input storage class. ID <2> (OpVariable) is referencing ID <2> (OpVariable) which is decorated with BuiltIn DeviceIndex. ID <2> (OpVariable) uses storage class Output."),
		vk("device index bool", biModule(with(stCompute, "DeviceGroup"), "DeviceIndex", "OpTypeVector %bool 2", "Input", "", "", ""), "[VUID-DeviceIndex-DeviceIndex-04206] According to the Vulkan spec BuiltIn DeviceIndex variable needs to be a 32-bit int scalar. ID <2> (OpVariable) is not an int scalar."),
		vk("point coord", biModule(stFragment, "PointCoord", v2, "Input", "", "", ""), ""),
		vk("point coord vec3", biModule(stFragment, "PointCoord", v3, "Input", "", "", ""), "[VUID-PointCoord-PointCoord-04313] According to the Vulkan spec BuiltIn PointCoord variable needs to be a 2-component 32-bit float vector. ID <2> (OpVariable) has 3 components."),
		vk("point coord vertex", biModule(stVertex, "PointCoord", v2, "Input", "", "", ""), "[VUID-PointCoord-PointCoord-04311] Vulkan spec allows BuiltIn PointCoord to be used only with Fragment execution model. ID <18> (OpLoad) is referencing ID <2> (OpVariable) which is decorated with BuiltIn PointCoord in function <1> called with execution model Vertex."),
		vk("sample position", biModule(with(stFragment, "SampleRateShading"), "SamplePosition", v2, "Input", "", "", ""), ""),
		vk("sample position output", biModule(with(stFragment, "SampleRateShading"), "SamplePosition", v2, "Output", "", "", ""), "[VUID-SamplePosition-SamplePosition-04361] Vulkan spec allows BuiltIn SamplePosition to be only used for variables with Input storage class. ID <2> (OpVariable) is referencing ID <2> (OpVariable) which is decorated with BuiltIn SamplePosition. ID <2> (OpVariable) uses storage class Output."),
		vk("bary coord", biModule(bary(stFragment), "BaryCoordKHR", v3, "Input", "", "", ""), ""),
		vk("bary coord vec2", biModule(bary(stFragment), "BaryCoordKHR", v2, "Input", "", "", ""), "[VUID-BaryCoordKHR-BaryCoordKHR-04156] According to the Vulkan spec BuiltIn BaryCoordKHR variable needs to be a 3-component 32-bit float vector. ID <2> (OpVariable) has 2 components."),
		vk("bary coord no persp vertex", biModule(bary(stVertex), "BaryCoordNoPerspKHR", v3, "Input", "", "", ""), "[VUID-BaryCoordNoPerspKHR-BaryCoordNoPerspKHR-04160] Vulkan spec allows BuiltIn BaryCoordNoPerspKHR to be used only with Fragment execution model. ID <18> (OpLoad) is referencing ID <2> (OpVariable) which is decorated with BuiltIn BaryCoordNoPerspKHR in function <1> called with execution model Vertex."),
		vk("frag invocation count", biModule(density(stFragment), "FragInvocationCountEXT", i32Type, "Input", flat, "", ""), ""),
		vk("frag invocation count float", biModule(density(with(stFragment, "Float16")), "FragInvocationCountEXT", "OpTypeFloat 16", "Input", "", "", ""), "[VUID-FragInvocationCountEXT-FragInvocationCountEXT-04219] According to the Vulkan spec BuiltIn FragInvocationCountEXT variable needs to be a 32-bit int scalar. ID <2> (OpVariable) is not an int scalar."),
		vk("frag size", dedup(biModule(density(stFragment), "FragSizeEXT", iv2, "Input", flat, "", "")), ""),
		vk("frag size 3", biModule(density(stFragment), "FragSizeEXT", "OpTypeVector %u32 4", "Input", flat, "", ""), "[VUID-FragSizeEXT-FragSizeEXT-04222] According to the Vulkan spec BuiltIn FragSizeEXT variable needs to be a 2-component 32-bit int vector. ID <2> (OpVariable) has 4 components."),
		vk("frag size vertex", dedup(biModule(density(stVertex), "FragSizeEXT", iv2, "Input", "", "", "")), "[VUID-FragSizeEXT-FragSizeEXT-04220] Vulkan spec allows BuiltIn FragSizeEXT to be used only with Fragment execution model. ID <16> (OpLoad) is referencing ID <2> (OpVariable) which is decorated with BuiltIn FragSizeEXT in function <1> called with execution model Vertex."),
		vk("frag stencil ref", biModule(stencil(stFragment), "FragStencilRefEXT", i32Type, "Output", "", "", ""), ""),
		vk("frag stencil ref input", biModule(stencil(stFragment), "FragStencilRefEXT", i32Type, "Input", flat, "", ""), "[VUID-FragStencilRefEXT-FragStencilRefEXT-04224] Vulkan spec allows BuiltIn FragStencilRefEXT to be only used for variables with Output storage class. ID <2> (OpVariable) is referencing ID <2> (OpVariable) which is decorated with BuiltIn FragStencilRefEXT. ID <2> (OpVariable) uses storage class Input."),
		vk("frag stencil ref float", biModule(stencil(with(stFragment, "Float16")), "FragStencilRefEXT", "OpTypeFloat 16", "Output", "", "", ""), "[VUID-FragStencilRefEXT-FragStencilRefEXT-04225] According to the Vulkan spec BuiltIn FragStencilRefEXT variable needs to be a int scalar. ID <2> (OpVariable) is not an int scalar."),
		vk("fully covered", dedup(biModule(covered(stFragment), "FullyCoveredEXT", "OpTypeBool", "Input", "", "", "")), ""),
		vk("fully covered int", biModule(covered(stFragment), "FullyCoveredEXT", i32Type, "Input", flat, "", ""), "[VUID-FullyCoveredEXT-FullyCoveredEXT-04234] According to the Vulkan spec BuiltIn FullyCoveredEXT variable needs to be a bool scalar. ID <2> (OpVariable) is not a bool scalar."),
		vk("shading rate", biModule(rate(stFragment), "ShadingRateKHR", i32Type, "Input", flat, "", ""), ""),
		vk("shading rate vertex", biModule(rate(stVertex), "ShadingRateKHR", i32Type, "Input", "", "", ""), "[VUID-ShadingRateKHR-ShadingRateKHR-04490] Vulkan spec allows BuiltIn ShadingRateKHR to be used only with the Fragment execution model. ID <18> (OpLoad) is referencing ID <2> (OpVariable) which is decorated with BuiltIn ShadingRateKHR in function <1> called with execution model Vertex."),
		vk("sm id", biModule(sm(stCompute), "SMIDNV", i32Type, "Input", "", "", ""), ""),
		vk("sm id output", biModule(sm(stVertex), "SMIDNV", i32Type, "Output", "", "", ""), "Vulkan spec allows BuiltIn SMIDNV to be only used for variables with Input storage class. ID <2> (OpVariable) is referencing ID <2> (OpVariable) which is decorated with BuiltIn SMIDNV. ID <2> (OpVariable) uses storage class Output."),
		vk("core id float", biModule(core(with(stCompute, "Float16")), "CoreIDARM", "OpTypeFloat 16", "Input", "", "", ""), "According to the Vulkan spec BuiltIn CoreIDARM variable needs to be a 32-bit int scalar. ID <2> (OpVariable) is not an int scalar."),
		vk("vertex id", biModule(stVertex, "VertexId", i32Type, "Input", "", "", ""), "Vulkan spec doesn't allow BuiltIn VertexId to be used."),
		vk("sample mask", biModule(stFragment, "SampleMask", "OpTypeArray %u32 %c1", "Input", flat, "", ""), ""),
		vk("sample mask output", biModule(stFragment, "SampleMask", "OpTypeArray %u32 %c1", "Output", "", "", ""), ""),
		vk("sample mask scalar", biModule(stFragment, "SampleMask", i32Type, "Input", flat, "", ""), "[VUID-SampleMask-SampleMask-04359] According to the Vulkan spec BuiltIn SampleMask variable needs to be a 32-bit int array. ID <2> (OpVariable) is not an array."),
		vk("sample mask floats", biModule(stFragment, "SampleMask", "OpTypeArray %f32 %c1", "Input", "", "", ""), "[VUID-SampleMask-SampleMask-04359] According to the Vulkan spec BuiltIn SampleMask variable needs to be a 32-bit int array. ID <2> (OpVariable) components are not int scalar."),
		vk("sample mask private", biModule(stFragment, "SampleMask", "OpTypeArray %u32 %c1", "Private", "", "", ""), "[VUID-SampleMask-SampleMask-04358] Vulkan spec allows BuiltIn SampleMask to be only used for variables with Input or Output storage class. ID <2> (OpVariable) is referencing ID <2> (OpVariable) which is decorated with BuiltIn SampleMask. ID <2> (OpVariable) uses storage class Private."),
		vk("sample mask vertex", biModule(stVertex, "SampleMask", "OpTypeArray %u32 %c1", "Output", "", "", ""), "[VUID-SampleMask-SampleMask-04357] Vulkan spec allows BuiltIn SampleMask to be used only with Fragment execution model. ID <18> (OpLoad) is referencing ID <2> (OpVariable) which is decorated with BuiltIn SampleMask in function <1> called with execution model Vertex."),
		vk("tile offset", dedup(biModule(tile(stCompute), "TileOffsetQCOM", iv2, "Input", "", "", "")), ""),
		vk("tile offset float", biModule(tile(stCompute), "TileOffsetQCOM", v2, "Input", "", "", ""), "[VUID-TileOffsetQCOM-TileOffsetQCOM-10628] According to the Vulkan spec BuiltIn TileOffsetQCOM variable must be a 2-component 32-bit unsigned int vector. ID <2> (OpVariable) is not an unsigned int vector."),
		vk("tile dimension 2", dedup(biModule(tile(stCompute), "TileDimensionQCOM", iv2, "Input", "", "", "")), "[VUID-TileDimensionQCOM-TileDimensionQCOM-10631] According to the Vulkan spec BuiltIn TileDimensionQCOM variable must be a 3-component 32-bit unsigned int vector. ID <2> (OpVariable) has 2 components."),
		vk("tile apron size output", dedup(biModule(tile(stCompute), "TileApronSizeQCOM", iv2, "Output", "", "", "")), "[VUID-TileApronSizeQCOM-TileApronSizeQCOM-10633] Vulkan spec allows BuiltIn TileApronSizeQCOM to be only used for variables with Input storage class. ID <2> (OpVariable) is referencing ID <2> (OpVariable) which is decorated with BuiltIn TileApronSizeQCOM. ID <2> (OpVariable) uses storage class Output."),
		vk("primitive shading rate", biModule(rate(stVertex), "PrimitiveShadingRateKHR", i32Type, "Output", "", "", ""), ""),
		vk("primitive shading rate float", biModule(rate(with(stVertex, "Float16")), "PrimitiveShadingRateKHR", "OpTypeFloat 16", "Output", "", "", ""), "[VUID-PrimitiveShadingRateKHR-PrimitiveShadingRateKHR-04486] According to the Vulkan spec BuiltIn PrimitiveShadingRateKHR variable needs to be a 32-bit int scalar. ID <2> (OpVariable) is not an int scalar."),
		vk("primitive shading rate input", biModule(rate(stGeometry), "PrimitiveShadingRateKHR", i32Type, "Input", "", "", ""), "[VUID-PrimitiveShadingRateKHR-PrimitiveShadingRateKHR-04485] Vulkan spec allows BuiltIn PrimitiveShadingRateKHR to be only used for variables with Output storage class. ID <2> (OpVariable) is referencing ID <2> (OpVariable) which is decorated with BuiltIn PrimitiveShadingRateKHR. ID <2> (OpVariable) uses storage class Input."),
		vk("primitive shading rate fragment", biModule(rate(stFragment), "PrimitiveShadingRateKHR", i32Type, "Output", "", "", ""), "[VUID-PrimitiveShadingRateKHR-PrimitiveShadingRateKHR-04484] Vulkan spec allows BuiltIn PrimitiveShadingRateKHR to be used only with Vertex, Geometry, MeshNV or MeshEXT execution models. ID <18> (OpLoad) is referencing ID <2> (OpVariable) which is decorated with BuiltIn PrimitiveShadingRateKHR in function <1> called with execution model Fragment."),
		vk("primitive shading rate mesh", biModule(meshRate, "PrimitiveShadingRateKHR", "OpTypeArray %u32 %c1", "Output", "OpDecorate %bi PerPrimitiveEXT\n", "", ""), ""),
		vk("primitive shading rate mesh not per primitive", biModule(meshRate, "PrimitiveShadingRateKHR", "OpTypeArray %u32 %c1", "Output", "", "", ""), "[VUID-PrimitiveShadingRateKHR-PrimitiveShadingRateKHR-07059] According to the Vulkan spec the variable decorated with Builtin PrimitiveShadingRateKHR within the MeshEXT Execution Model must also be decorated with the PerPrimitiveEXT decoration. "),
		vk("primitive shading rate mesh size", biModule(meshRate, "PrimitiveShadingRateKHR", "OpTypeArray %u32 %c2", "Output", "OpDecorate %bi PerPrimitiveEXT\n", "", ""), "[VUID-PrimitiveShadingRateKHR-PrimitiveShadingRateKHR-10599]  The size of the array decorated with PrimitiveShadingRateKHR (2) must match the value specified by OutputPrimitivesEXT (1). "),
		rq("vertex id universal", biModule(stVertex, "VertexId", i32Type, "Input", "", "", ""), ""),
	}
}

func TestMiscBuiltins(t *testing.T) { runTable(t, miscBuiltinCases()) }
