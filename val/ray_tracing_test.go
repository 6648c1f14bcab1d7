package val

import (
	"fmt"
	"strings"
	"testing"

	"spvx/spirv"
)

// rtModule is a ray-tracing shader of execution model model whose entry
// point %main lists the variables iface; decls are added to the types,
// constants and variables, body to %main after %as (the loaded
// acceleration structure) and %fv (a Function variable of %v3).
func rtModule(model, iface, decls, body string) string {
	return `OpCapability Shader
OpCapability RayTracingKHR
OpCapability Float64
OpCapability Int64
OpExtension "SPV_KHR_ray_tracing"
OpMemoryModel Logical GLSL450
OpEntryPoint ` + model + ` %main "main" %asv ` + iface + `
OpDecorate %asv DescriptorSet 0
OpDecorate %asv Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%u32 = OpTypeInt 32 0
%i32 = OpTypeInt 32 1
%u64 = OpTypeInt 64 0
%f32 = OpTypeFloat 32
%f64 = OpTypeFloat 64
%v2 = OpTypeVector %f32 2
%v3 = OpTypeVector %f32 3
%d3 = OpTypeVector %f64 3
%ast = OpTypeAccelerationStructureKHR
%pas = OpTypePointer UniformConstant %ast
%ppl = OpTypePointer RayPayloadKHR %v3
%pipl = OpTypePointer IncomingRayPayloadKHR %v3
%pcd = OpTypePointer CallableDataKHR %v3
%picd = OpTypePointer IncomingCallableDataKHR %v3
%pha = OpTypePointer HitAttributeKHR %v2
%pfn = OpTypePointer Function %v3
%asv = OpVariable %pas UniformConstant
%c0 = OpConstant %u32 0
%s0 = OpConstant %i32 0
%l0 = OpConstant %u64 0
%fz = OpConstant %f32 0
%dz = OpConstant %f64 0
%o = OpConstantComposite %v3 %fz %fz %fz
` + decls + `%main = OpFunction %void None %fn
%entry = OpLabel
%fv = OpVariable %pfn Function
%as = OpLoad %ast %asv
` + body + `OpReturn
OpFunctionEnd
`
}

// Variables the cases declare, by storage class.
const (
	rtPayload   = "%pl = OpVariable %ppl RayPayloadKHR\n"
	rtIncoming  = "%ipl = OpVariable %pipl IncomingRayPayloadKHR\n"
	rtCallable  = "%cd = OpVariable %pcd CallableDataKHR\n"
	rtIncCall   = "%icd = OpVariable %picd IncomingCallableDataKHR\n"
	rtHitAttr   = "%ha = OpVariable %pha HitAttributeKHR\n"
	rtOutput    = "%pout = OpTypePointer Output %v3\n%out = OpVariable %pout Output\n"
	rtTraceOps  = "%c0 %c0 %c0 %c0 %c0 %o %fz %o %fz %pl"
	rtLimitLine = "OpEntryPoint Entry Point <id> '1[%1]'s callgraph contains function <id> '1[%1]', which cannot be used with the current execution model:\n"
)

// rtTrace is a ray-generation shader tracing a ray with OpTraceRayKHR's
// operands after the acceleration structure replaced by ops.
func rtTrace(decls, ops string) string {
	return rtModule("RayGenerationKHR", "%pl", rtPayload+decls, "OpTraceRayKHR %as "+ops+"\n")
}

// rtTraceCases cover OpTraceRayKHR.
func rtTraceCases() []rqCase {
	return []rqCase{
		rq("trace ray valid", rtTrace("", rtTraceOps), ""),
		rq("trace ray signed operands", rtTrace("", "%s0 %s0 %s0 %s0 %s0 %o %fz %o %fz %pl"), ""),
		rq("trace ray acceleration structure", rtModule("RayGenerationKHR", "%pl", rtPayload, "OpTraceRayKHR %c0 "+rtTraceOps+"\n"),
			"Expected Acceleration Structure to be of type OpTypeAccelerationStructureKHR"),
		rq("trace ray flags", rtTrace("", "%fz %c0 %c0 %c0 %c0 %o %fz %o %fz %pl"), "Ray Flags must be a 32-bit int scalar"),
		rq("trace ray cull mask", rtTrace("", "%c0 %l0 %c0 %c0 %c0 %o %fz %o %fz %pl"), "Cull Mask must be a 32-bit int scalar"),
		rq("trace ray opacity micromap flag", rtTrace("%f400 = OpConstant %u32 0x400\n", "%f400 %c0 %c0 %c0 %c0 %o %fz %o %fz %pl"),
			"The ForceOpacityMicromap2StateKHR flag requires the RayTracingOpacityMicromapKHR and RayQueryKHR or RayTracingKHR capabilities"),
		rq("trace ray sbt offset", rtTrace("", "%c0 %c0 %fz %c0 %c0 %o %fz %o %fz %pl"), "SBT Offset must be a 32-bit int scalar"),
		rq("trace ray sbt stride", rtTrace("", "%c0 %c0 %c0 %l0 %c0 %o %fz %o %fz %pl"), "SBT Stride must be a 32-bit int scalar"),
		rq("trace ray miss index", rtTrace("", "%c0 %c0 %c0 %c0 %o %o %fz %o %fz %pl"), "Miss Index must be a 32-bit int scalar"),
		rq("trace ray origin", rtTrace("%do = OpConstantNull %d3\n", "%c0 %c0 %c0 %c0 %c0 %do %fz %o %fz %pl"), "Ray Origin must be a 32-bit float 3-component vector"),
		rq("trace ray tmin", rtTrace("", "%c0 %c0 %c0 %c0 %c0 %o %dz %o %fz %pl"), "Ray TMin must be a 32-bit float scalar"),
		rq("trace ray direction", rtTrace("", "%c0 %c0 %c0 %c0 %c0 %o %fz %fz %fz %pl"), "Ray Direction must be a 32-bit float 3-component vector"),
		rq("trace ray tmax", rtTrace("", "%c0 %c0 %c0 %c0 %c0 %o %fz %o %c0 %pl"), "Ray TMax must be a 32-bit float scalar"),
		rq("trace ray payload not a variable", rtTrace("", "%c0 %c0 %c0 %c0 %c0 %o %fz %o %fz %as"), "Payload must be the result of a OpVariable"),
		rq("trace ray payload storage class", rtTrace("", "%c0 %c0 %c0 %c0 %c0 %o %fz %o %fz %fv"),
			"Payload must have storage class RayPayloadKHR or IncomingRayPayloadKHR"),
		rq("trace ray incoming payload", rtModule("ClosestHitKHR", "%ipl", rtIncoming, "OpTraceRayKHR %as %c0 %c0 %c0 %c0 %c0 %o %fz %o %fz %ipl\n"), ""),
		rq("trace ray in miss", rtModule("MissKHR", "%pl", rtPayload, "OpTraceRayKHR %as "+rtTraceOps+"\n"), ""),
		rq("trace ray in any hit", rtModule("AnyHitKHR", "", "", "OpTraceRayKHR %as %c0 %c0 %c0 %c0 %c0 %o %fz %o %fz %fv\n"),
			"Payload must have storage class RayPayloadKHR or IncomingRayPayloadKHR"),
		{"trace ray model", rtModule("AnyHitKHR", "%ipl", rtIncoming, "OpTraceRayKHR %as %c0 %c0 %c0 %c0 %c0 %o %fz %o %fz %ipl\n"),
			rtLimitLine + "OpTraceRayKHR requires RayGenerationKHR, ClosestHitKHR and MissKHR execution models\n", 0},
	}
}

// rtCallCases cover OpReportIntersectionKHR and OpExecuteCallableKHR.
func rtCallCases() []rqCase {
	report := func(model, ops string) string {
		return rtModule(model, "", "", "%r = OpReportIntersectionKHR "+ops+"\n")
	}
	call := func(model, iface, decls, ops string) string {
		return rtModule(model, iface, decls, "OpExecuteCallableKHR "+ops+"\n")
	}
	return []rqCase{
		rq("report intersection valid", report("IntersectionKHR", "%bool %fz %c0"), ""),
		rq("report intersection result", report("IntersectionKHR", "%u32 %fz %c0"), "expected Result Type to be bool scalar type"),
		rq("report intersection hit", report("IntersectionKHR", "%bool %c0 %c0"), "Hit must be a 32-bit int scalar"),
		rq("report intersection hit 64-bit", report("IntersectionKHR", "%bool %dz %c0"), "Hit must be a 32-bit int scalar"),
		rq("report intersection hit kind signed", report("IntersectionKHR", "%bool %fz %s0"), "Hit Kind must be a 32-bit unsigned int scalar"),
		rq("report intersection hit kind 64-bit", report("IntersectionKHR", "%bool %fz %l0"), "Hit Kind must be a 32-bit unsigned int scalar"),
		{"report intersection model", report("AnyHitKHR", "%bool %fz %c0"),
			rtLimitLine + "OpReportIntersectionKHR requires IntersectionKHR execution model\n", 0},
		rq("execute callable valid", call("RayGenerationKHR", "%cd", rtCallable, "%c0 %cd"), ""),
		rq("execute callable incoming", call("CallableKHR", "%icd", rtIncCall, "%c0 %icd"), ""),
		rq("execute callable sbt index signed", call("RayGenerationKHR", "%cd", rtCallable, "%s0 %cd"), "SBT Index must be a 32-bit unsigned int scalar"),
		rq("execute callable sbt index float", call("RayGenerationKHR", "%cd", rtCallable, "%fz %cd"), "SBT Index must be a 32-bit unsigned int scalar"),
		rq("execute callable data not a variable", call("RayGenerationKHR", "%cd", rtCallable, "%c0 %o"), "Callable Data must be the result of a OpVariable"),
		rq("execute callable data storage class", call("RayGenerationKHR", "", "", "%c0 %fv"),
			"Callable Data must have storage class CallableDataKHR or IncomingCallableDataKHR"),
		{"execute callable model", call("IntersectionKHR", "", "", "%c0 %fv"),
			"Callable Data must have storage class CallableDataKHR or IncomingCallableDataKHR", 0},
		{"execute callable model limit", rtModule("IntersectionKHR", "%icd", rtIncCall, "OpExecuteCallableKHR %c0 %icd\n%x = OpLoad %v3 %icd\n"),
			rtLimitLine + "[VUID-StandaloneSpirv-IncomingCallableDataKHR-04705] IncomingCallableDataKHR Storage Class is limited to CallableKHR execution model\n" +
				"[VUID-StandaloneSpirv-IncomingCallableDataKHR-04705] IncomingCallableDataKHR Storage Class is limited to CallableKHR execution model\n" +
				"OpExecuteCallableKHR requires RayGenerationKHR, ClosestHitKHR, MissKHR and CallableKHR execution models\n", EnvVulkan1_2},
	}
}

// rtStorageCases cover the execution models of the ray-tracing storage
// classes, in the universal and Vulkan environments.
func rtStorageCases() []rqCase {
	load := func(model, v, decl, ty string) string {
		return rtModule(model, v, decl, "%ld = OpLoad "+ty+" "+v+"\n")
	}
	const srb = "OpDecorate %srb Block\nOpMemberDecorate %srb 0 Offset 0\n"
	srbModule := func(model string) string {
		m := load(model, "%sr", "%srb = OpTypeStruct %u32\n%psr = OpTypePointer ShaderRecordBufferKHR %srb\n%sr = OpVariable %psr ShaderRecordBufferKHR\n", "%srb")
		return strings.Replace(m, "OpDecorate %asv Binding 0\n", "OpDecorate %asv Binding 0\n"+srb, 1)
	}
	const vk = EnvVulkan1_2
	return []rqCase{
		rq("incoming payload in miss", load("MissKHR", "%ipl", rtIncoming, "%v3"), ""),
		rq("incoming payload in ray generation", load("RayGenerationKHR", "%ipl", rtIncoming, "%v3"),
			rtLimitLine+"IncomingRayPayloadKHR Storage Class is limited to AnyHitKHR, ClosestHitKHR, and MissKHR execution model\n"),
		{"incoming payload in ray generation vulkan", load("RayGenerationKHR", "%ipl", rtIncoming, "%v3"),
			rtLimitLine + "[VUID-StandaloneSpirv-IncomingRayPayloadKHR-04699] IncomingRayPayloadKHR Storage Class is limited to AnyHitKHR, ClosestHitKHR, and MissKHR execution model\n", vk},
		rq("payload in ray generation", load("RayGenerationKHR", "%pl", rtPayload, "%v3"), ""),
		rq("payload in intersection", load("IntersectionKHR", "%pl", rtPayload, "%v3"),
			rtLimitLine+"RayPayloadKHR Storage Class is limited to RayGenerationKHR, ClosestHitKHR, and MissKHR execution model\n"),
		rq("hit attribute in closest hit", load("ClosestHitKHR", "%ha", rtHitAttr, "%v2"), ""),
		rq("hit attribute in miss", load("MissKHR", "%ha", rtHitAttr, "%v2"),
			rtLimitLine+"HitAttributeKHR Storage Class is limited to IntersectionKHR, AnyHitKHR, sand ClosestHitKHR execution model\n"),
		rq("hit attribute store in intersection", rtModule("IntersectionKHR", "%ha", rtHitAttr+"%h0 = OpConstantNull %v2\n", "OpStore %ha %h0\n"), ""),
		{"hit attribute store in any hit", rtModule("AnyHitKHR", "%ha", rtHitAttr+"%h0 = OpConstantNull %v2\n", "OpStore %ha %h0\n"),
			rtLimitLine + "[VUID-StandaloneSpirv-HitAttributeKHR-04703] HitAttributeKHR Storage Class variables are read only with AnyHitKHR and ClosestHitKHR\n", vk},
		rq("callable data in callable", load("CallableKHR", "%cd", rtCallable, "%v3"), ""),
		rq("callable data in any hit", load("AnyHitKHR", "%cd", rtCallable, "%v3"),
			rtLimitLine+"CallableDataKHR Storage Class is limited to RayGenerationKHR, ClosestHitKHR, CallableKHR, and MissKHR execution model\n"),
		rq("incoming callable data in closest hit", load("ClosestHitKHR", "%icd", rtIncCall, "%v3"),
			rtLimitLine+"IncomingCallableDataKHR Storage Class is limited to CallableKHR execution model\n"),
		rq("shader record buffer in any hit", srbModule("AnyHitKHR"), ""),
		rq("shader record buffer in compute", srbModule("GLCompute"),
			rtLimitLine+"ShaderRecordBufferKHR Storage Class is limited to RayGenerationKHR, IntersectionKHR, AnyHitKHR, ClosestHitKHR, CallableKHR, and MissKHR execution model\n"),
		rq("output in ray generation universal", rtModule("RayGenerationKHR", "%out", rtOutput, "OpStore %out %o\n"), ""),
		{"output in ray generation vulkan", rtModule("RayGenerationKHR", "%out", rtOutput, "OpStore %out %o\n"),
			rtLimitLine + "[VUID-StandaloneSpirv-None-04644] in Vulkan environment, Output Storage Class must not be used in GLCompute, RayGenerationKHR, IntersectionKHR, AnyHitKHR, ClosestHitKHR, MissKHR, or CallableKHR execution models\n", vk},
		{"workgroup in any hit vulkan", load("AnyHitKHR", "%wg", "%pwg = OpTypePointer Workgroup %v3\n%wg = OpVariable %pwg Workgroup\n", "%v3"),
			rtLimitLine + "[VUID-StandaloneSpirv-None-04645] in Vulkan environment, Workgroup Storage Class is limited to MeshEXT, TaskEXT, MeshNV, TaskNV, and GLCompute execution model\n", vk},
		{"workgroup in compute vulkan", strings.Replace(load("GLCompute", "%wg", "%pwg = OpTypePointer Workgroup %v3\n%wg = OpVariable %pwg Workgroup\n", "%v3"),
			"OpDecorate %asv DescriptorSet 0\n", "OpExecutionMode %main LocalSize 1 1 1\nOpDecorate %asv DescriptorSet 0\n", 1), "", vk},
		rq("function parameter of a payload pointer", strings.Replace(rtModule("IntersectionKHR", "", "%fp = OpTypeFunction %void %ppl\n", ""),
			"OpFunctionEnd\n", "OpFunctionEnd\n%g = OpFunction %void None %fp\n%gp = OpFunctionParameter %ppl\n%ge = OpLabel\nOpReturn\nOpFunctionEnd\n", 1), ""),
	}
}

// TestRayTracing is the ray-tracing rule table (ray_tracing.go). Every
// case's verdict and first line are current spirv-val's (v2026.4); the
// lines after the first, for an execution-model limitation, are checked
// against spvx alone.
func TestRayTracing(t *testing.T) {
	var cases []rqCase
	cases = append(cases, rtTraceCases()...)
	cases = append(cases, rtCallCases()...)
	cases = append(cases, rtStorageCases()...)
	runTable(t, cases)
}

// TestRayTracingLinear: the ray-tracing, reorder and storage-class rules
// cost the same per instruction whatever the module's size (4x the
// traces, loads and hit-object queries in one function take less than 8x
// the CPU time).
func TestRayTracingLinear(t *testing.T) {
	text := func(n int) string {
		var b strings.Builder
		for k := 0; k < n; k++ {
			fmt.Fprintf(&b, "%%l%[1]d = OpLoad %%v3 %%pl\nOpHitObjectTraceRayNV %%ho %%as %%s0 %%c0 %%c0 %%c0 %%c0 %%o %%fz %%o %%fz %%pl\n"+
				"%%t%[1]d = OpHitObjectGetRayTMaxNV %%f32 %%ho\nOpReorderThreadWithHitObjectNV %%ho\n", k)
		}
		return hoGen(b.String())
	}
	linearOnValid(t, "ray tracing, %d traces", text, 4000)
}

// FuzzRayTracing validates mutations of the ray-tracing, built-in and
// reorder tables' modules in the universal and Vulkan environments: the
// rules must never panic on malformed operands or types.
func FuzzRayTracing(f *testing.F) {
	for _, cs := range [][]rqCase{rtTraceCases(), rtCallCases(), rtStorageCases(), rtbCases(), hoQueryCases(), hoCommandCases(), heCases()} {
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
