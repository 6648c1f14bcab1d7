package val

import (
	"fmt"
	"strings"
	"testing"
)

// rtbModule is a shader of execution model model whose entry point reads
// %bi, an Input variable of type ty decorated BuiltIn name. decls are
// added to the types.
func rtbModule(model, name, ty, decls string) string {
	return `OpCapability Shader
OpCapability RayTracingKHR
OpCapability RayTracingNV
OpCapability RayTracingPositionFetchKHR
OpCapability RayCullMaskKHR
OpCapability Float64
OpExtension "SPV_KHR_ray_tracing"
OpExtension "SPV_NV_ray_tracing"
OpExtension "SPV_KHR_ray_tracing_position_fetch"
OpExtension "SPV_KHR_ray_cull_mask"
OpMemoryModel Logical GLSL450
OpEntryPoint ` + model + ` %main "main" %bi
OpDecorate %bi BuiltIn ` + name + `
%void = OpTypeVoid
%fn = OpTypeFunction %void
%u32 = OpTypeInt 32 0
%f32 = OpTypeFloat 32
%f64 = OpTypeFloat 64
%v3 = OpTypeVector %f32 3
%v4 = OpTypeVector %f32 4
%d3 = OpTypeVector %f64 3
%uv3 = OpTypeVector %u32 3
%m43 = OpTypeMatrix %v3 4
%c2 = OpConstant %u32 2
%c3 = OpConstant %u32 3
%a3v = OpTypeArray %v3 %c3
` + decls + `%pbi = OpTypePointer Input ` + ty + `
%bi = OpVariable %pbi Input
%main = OpFunction %void None %fn
%entry = OpLabel
%x = OpLoad ` + ty + ` %bi
OpReturn
OpFunctionEnd
`
}

// rtbValid is one valid use of each ray-tracing built-in: its name, a
// model it is for, and its type.
var rtbValid = [][3]string{
	{"HitKindKHR", "AnyHitKHR", "%u32"}, {"HitTNV", "ClosestHitKHR", "%f32"},
	{"HitTriangleVertexPositionsKHR", "ClosestHitKHR", "%a3v"}, {"InstanceCustomIndexKHR", "IntersectionKHR", "%u32"},
	{"InstanceId", "AnyHitKHR", "%u32"}, {"RayGeometryIndexKHR", "ClosestHitKHR", "%u32"},
	{"ObjectRayDirectionKHR", "IntersectionKHR", "%v3"}, {"ObjectRayOriginKHR", "AnyHitKHR", "%v3"},
	{"ObjectToWorldKHR", "ClosestHitKHR", "%m43"}, {"WorldToObjectKHR", "IntersectionKHR", "%m43"},
	{"IncomingRayFlagsKHR", "MissKHR", "%u32"}, {"RayTminKHR", "MissKHR", "%f32"}, {"RayTmaxKHR", "AnyHitKHR", "%f32"},
	{"WorldRayDirectionKHR", "MissKHR", "%v3"}, {"WorldRayOriginKHR", "IntersectionKHR", "%v3"},
	{"CullMaskKHR", "MissKHR", "%u32"}, {"LaunchIdKHR", "RayGenerationKHR", "%uv3"}, {"LaunchSizeKHR", "CallableKHR", "%uv3"},
}

// rtbCases cover the ray-tracing built-ins in Vulkan 1.2.
func rtbCases() []rqCase {
	const vk = EnvVulkan1_2
	var cases []rqCase
	for _, v := range rtbValid {
		cases = append(cases, rqCase{"valid " + v[0], rtbModule(v[1], v[0], v[2], ""), "", vk})
	}
	typ := func(name, vuid, what, rest string) string {
		return fmt.Sprintf("[VUID-%s-%s-%s] According to the Vulkan spec BuiltIn %s variable needs to be %s. %s", name, name, vuid, name, what, rest)
	}
	const desc = "ID <2> (OpVariable)"
	bad := func(name, model, ty, decls, vuid, what, rest string) rqCase {
		src := rtbModule(model, name, ty, decls)
		return rqCase{name + " type " + ty, src, typ(name, vuid, what, desc+rest), vk}
	}
	const arr = "an array of 3, 32-bit float 3-component vectors"
	const mat = "a matrix with 4 columns of 3-component vectors of 32-bit floats"
	cases = append(cases,
		bad("RayTminKHR", "MissKHR", "%f64", "", "04353", "a 32-bit float scalar", " has bit width 64."),
		bad("HitTNV", "AnyHitKHR", "%u32", "", "04247", "a 32-bit float scalar", " is not a float scalar."),
		bad("HitKindKHR", "AnyHitKHR", "%f32", "", "04244", "a 32-bit int scalar", " is not an int scalar."),
		bad("CullMaskKHR", "MissKHR", "%uv3", "", "06737", "a 32-bit int scalar", " is not an int scalar."),
		bad("WorldRayOriginKHR", "MissKHR", "%v4", "", "04433", "a 3-component 32-bit float vector", " has 4 components."),
		bad("ObjectRayDirectionKHR", "AnyHitKHR", "%d3", "", "04301", "a 3-component 32-bit float vector", " has components with bit width 64."),
		bad("LaunchIdKHR", "RayGenerationKHR", "%v3", "", "04268", "a 3-component 32-bit int vector", " is not an int vector."),
		bad("ObjectToWorldKHR", "ClosestHitKHR", "%v3", "", "04307", mat, " has columns 0 and rows 0 not equal to expected 4x3."),
		bad("WorldToObjectKHR", "ClosestHitKHR", "%m44", "%m44 = OpTypeMatrix %v4 4\n", "04436", mat, " has columns 4 and rows 4 not equal to expected 4x3."),
		bad("WorldToObjectKHR", "ClosestHitKHR", "%dm", "%dm = OpTypeMatrix %d3 4\n", "04436", mat, " has components with bit width 64."),
		bad("HitTriangleVertexPositionsKHR", "AnyHitKHR", "%v3", "", "08749", arr, " is not an array."),
		bad("HitTriangleVertexPositionsKHR", "AnyHitKHR", "%a2v", "%a2v = OpTypeArray %v3 %c2\n", "08749", arr, " array length must be 3"),
		bad("HitTriangleVertexPositionsKHR", "AnyHitKHR", "%asv", "%sc = OpSpecConstant %u32 3\n%asv = OpTypeArray %v3 %sc\n", "08749", arr, " array has a non constant length."),
		bad("HitTriangleVertexPositionsKHR", "AnyHitKHR", "%a3d", "%a3d = OpTypeArray %d3 %c3\n", "08749", arr, " has components with bit width 64."),
		rqCase{"wrong type outside vulkan", rtbModule("MissKHR", "RayTminKHR", "%f64", ""), "", 0},
		rqCase{"wrong model outside vulkan", rtbModule("MissKHR", "HitKindKHR", "%u32", ""), "", 0},
	)
	model := func(name, vuid, model, ty string) rqCase {
		return rqCase{name + " in " + model, rtbModule(model, name, ty, ""),
			fmt.Sprintf("[VUID-%s-%s-%s] Vulkan spec does not allow BuiltIn %s to be used with the execution model %s.\n"+
				"ID <18> (OpLoad) is referencing ID <2> (OpVariable) which is decorated with BuiltIn %s in function <1> called with execution model %s.", name, name, vuid, name, model, name, model), vk}
	}
	cases = append(cases,
		model("HitKindKHR", "04242", "MissKHR", "%u32"),
		model("HitTriangleVertexPositionsKHR", "08747", "IntersectionKHR", "%a3v"),
		model("InstanceId", "04254", "MissKHR", "%u32"),
		model("ObjectToWorldKHR", "04305", "RayGenerationKHR", "%m43"),
		model("RayTmaxKHR", "04348", "CallableKHR", "%f32"),
		model("CullMaskKHR", "06735", "RayGenerationKHR", "%u32"),
		model("LaunchSizeKHR", "04269", "Vertex", "%uv3"),
	)
	out := strings.NewReplacer("%pbi = OpTypePointer Input", "%pbi = OpTypePointer Private", "%bi = OpVariable %pbi Input", "%bi = OpVariable %pbi Private")
	cases = append(cases, rqCase{"launch id private", out.Replace(rtbModule("RayGenerationKHR", "LaunchIdKHR", "%uv3", "")),
		"[VUID-LaunchIdKHR-LaunchIdKHR-04267] Vulkan spec allows BuiltIn LaunchIdKHR to be only used for variables with Input storage class. " +
			"ID <2> (OpVariable) is referencing ID <2> (OpVariable) which is decorated with BuiltIn LaunchIdKHR. ID <2> (OpVariable) uses storage class Private.", vk})
	member := strings.NewReplacer("OpDecorate %bi BuiltIn LaunchIdKHR\n", "OpDecorate %st Block\nOpMemberDecorate %st 0 BuiltIn LaunchIdKHR\n",
		"%pbi = OpTypePointer Input %v3\n", "%st = OpTypeStruct %v3\n%pbi = OpTypePointer Input %st\n",
		"%x = OpLoad %v3 %bi\n", "")
	cases = append(cases, rqCase{"launch id member type", member.Replace(rtbModule("RayGenerationKHR", "LaunchIdKHR", "%v3", "")),
		typ("LaunchIdKHR", "04268", "a 3-component 32-bit int vector", "Member #0 of struct ID <3> is not an int vector."), vk})
	return cases
}

// TestRayTracingBuiltins is the ray-tracing built-in table
// (builtins_raytracing.go), checked like TestRayTracing.
func TestRayTracingBuiltins(t *testing.T) {
	runTable(t, rtbCases())
}
