package val

import (
	"strings"
	"testing"
)

// hoModule is a shader of execution model model with a Hit Object %ho
// (a Function variable of OpTypeHitObjectNV), a payload %pl and a hit
// object attribute %hat; decls are added to the types and constants,
// body to %main.
func hoModule(model, decls, body string) string {
	return `OpCapability Shader
OpCapability RayTracingKHR
OpCapability ShaderInvocationReorderNV
OpCapability RayTracingMotionBlurNV
OpCapability RayTracingClusterAccelerationStructureNV
OpCapability RayTracingSpheresGeometryNV
OpCapability RayTracingLinearSweptSpheresGeometryNV
OpCapability Float64
OpExtension "SPV_KHR_ray_tracing"
OpExtension "SPV_NV_shader_invocation_reorder"
OpExtension "SPV_NV_ray_tracing_motion_blur"
OpExtension "SPV_NV_cluster_acceleration_structure"
OpExtension "SPV_NV_linear_swept_spheres"
OpMemoryModel Logical GLSL450
OpEntryPoint ` + model + ` %main "main" %asv %pl %hat
OpDecorate %asv DescriptorSet 0
OpDecorate %asv Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%u32 = OpTypeInt 32 0
%i32 = OpTypeInt 32 1
%f32 = OpTypeFloat 32
%f64 = OpTypeFloat 64
%v2 = OpTypeVector %f32 2
%v3 = OpTypeVector %f32 3
%v4 = OpTypeVector %f32 4
%uv2 = OpTypeVector %u32 2
%m43 = OpTypeMatrix %v3 4
%m33 = OpTypeMatrix %v3 3
%c0 = OpConstant %u32 0
%c2 = OpConstant %u32 2
%c3 = OpConstant %u32 3
%s0 = OpConstant %i32 0
%fz = OpConstant %f32 0
%dz = OpConstant %f64 0
%o = OpConstantComposite %v3 %fz %fz %fz
%a2v = OpTypeArray %v3 %c2
%a3v = OpTypeArray %v3 %c3
%a2f = OpTypeArray %f32 %c2
%a3f = OpTypeArray %f32 %c3
%ast = OpTypeAccelerationStructureKHR
%hot = OpTypeHitObjectNV
%pas = OpTypePointer UniformConstant %ast
%ppl = OpTypePointer RayPayloadKHR %v3
%phat = OpTypePointer HitObjectAttributeNV %v2
%pho = OpTypePointer Function %hot
%pfn = OpTypePointer Function %v3
%asv = OpVariable %pas UniformConstant
%pl = OpVariable %ppl RayPayloadKHR
%hat = OpVariable %phat HitObjectAttributeNV
` + decls + `%main = OpFunction %void None %fn
%entry = OpLabel
%ho = OpVariable %pho Function
%fv = OpVariable %pfn Function
%as = OpLoad %ast %asv
` + body + `OpReturn
OpFunctionEnd
`
}

// hoGen is a ray-generation shader running body.
func hoGen(body string) string { return hoModule("RayGenerationKHR", "", body) }

// hoQueryCases cover the NV hit-object queries.
func hoQueryCases() []rqCase {
	q := func(op, ty string) string { return hoGen("%r = " + op + " " + ty + " %ho\n") }
	valid := hoGen(`%r1 = OpHitObjectIsMissNV %bool %ho
%r2 = OpHitObjectGetShaderRecordBufferHandleNV %uv2 %ho
%r3 = OpHitObjectGetHitKindNV %u32 %ho
%r4 = OpHitObjectGetInstanceCustomIndexNV %i32 %ho
%r5 = OpHitObjectGetRayTMaxNV %f32 %ho
%r6 = OpHitObjectGetObjectToWorldNV %m43 %ho
%r7 = OpHitObjectGetWorldRayOriginNV %v3 %ho
%r8 = OpHitObjectGetClusterIdNV %u32 %ho
%r9 = OpHitObjectGetSpherePositionNV %v3 %ho
%r10 = OpHitObjectGetSphereRadiusNV %f32 %ho
%r11 = OpHitObjectGetLSSPositionsNV %a2v %ho
%r12 = OpHitObjectGetLSSRadiiNV %a2f %ho
%r13 = OpHitObjectIsLSSHitNV %bool %ho
`)
	return []rqCase{
		rq("hit object queries valid", valid, ""),
		rq("is miss result", q("OpHitObjectIsMissNV", "%u32"), "expected Result Type to be bool scalar type"),
		rq("is hit hit object not a pointer", hoGen("%h = OpLoad %hot %ho\n%r = OpHitObjectIsHitNV %bool %h\n"), "Hit Object must be a pointer"),
		rq("is empty pointer to another type", hoGen("%r = OpHitObjectIsEmptyNV %bool %fv\n"), "Type must be OpTypeHitObjectNV"),
		rq("shader record buffer handle result", q("OpHitObjectGetShaderRecordBufferHandleNV", "%v2"),
			"Expected 32-bit integer type 2-component vector as Result Type: HitObjectGetShaderRecordBufferHandleNV"),
		rq("primitive index result", q("OpHitObjectGetPrimitiveIndexNV", "%f32"), "Expected 32-bit integer type scalar as Result Type: HitObjectGetPrimitiveIndexNV"),
		rq("instance id hit object", hoGen("%r = OpHitObjectGetInstanceIdNV %u32 %fv\n"), "Type must be OpTypeHitObjectNV"),
		rq("current time result", q("OpHitObjectGetCurrentTimeNV", "%f64"), "Expected 32-bit floating-point type scalar as Result Type: HitObjectGetCurrentTimeNV"),
		rq("object to world not a matrix", q("OpHitObjectGetObjectToWorldNV", "%v3"), "expected matrix type as Result Type: HitObjectGetObjectToWorldNV"),
		rq("object to world columns", q("OpHitObjectGetObjectToWorldNV", "%m33"), "expected Result Type matrix to have a Column Count of 4HitObjectGetObjectToWorldNV"),
		rq("world to object column type", hoModule("RayGenerationKHR", "%m44 = OpTypeMatrix %v4 4\n", "%r = OpHitObjectGetWorldToObjectNV %m44 %ho\n"),
			"expected Result Type matrix to have a Column Type of 3-component 32-bit float vectors: HitObjectGetWorldToObjectNV"),
		rq("object ray direction result", q("OpHitObjectGetObjectRayDirectionNV", "%v4"),
			"Expected 32-bit floating-point type 3-component vector as Result Type: HitObjectGetObjectRayDirectionNV"),
		rq("sphere position result", q("OpHitObjectGetSpherePositionNV", "%v2"),
			"Expected 32-bit floating point 2 component vector type as Result Type: HitObjectGetSpherePositionNV"),
		rq("sphere radius result", q("OpHitObjectGetSphereRadiusNV", "%u32"), "Expected 32-bit floating point scalar as Result Type: HitObjectGetSphereRadiusNV"),
		rq("lss positions length", q("OpHitObjectGetLSSPositionsNV", "%a3v"),
			"Expected 2 element array of 32-bit 3 component float point vector as Result Type: HitObjectGetLSSPositionsNV"),
		rq("lss radii length", q("OpHitObjectGetLSSRadiiNV", "%a3f"), "Expected 2 element array of 32-bit floating point scalar as Result Type: HitObjectGetLSSRadiiNV"),
		rq("lss radii vectors", q("OpHitObjectGetLSSRadiiNV", "%a2v"), "Expected 2 element array of 32-bit floating point scalar as Result Type: HitObjectGetLSSRadiiNV"),
		rq("is sphere hit result", q("OpHitObjectIsSphereHitNV", "%u32"), "Expected Boolean scalar as Result Type: HitObjectIsSphereHitNV"),
		rq("query in miss", hoModule("MissKHR", "", "%r = OpHitObjectIsMissNV %bool %ho\n"), ""),
		rq("query in any hit", hoModule("AnyHitKHR", "", "%r = OpHitObjectIsMissNV %bool %ho\n"),
			rtLimitLine+"HitObjectIsMissNV requires RayGenerationKHR, ClosestHitKHR and MissKHR execution models\n"),
		rq("get attributes in any hit", hoModule("AnyHitKHR", "", "OpHitObjectGetAttributesNV %ho %hat\n"),
			rtLimitLine+"HitObjectAttributeNV Storage Class is limited to RayGenerationKHR, ClosestHitKHR or MissKHR execution model\n"+
				"HitObjectGetAttributesNV requires RayGenerationKHR, ClosestHitKHR and MissKHR execution models\n"),
	}
}

// hoCommandCases cover the NV record, trace, execute and reorder
// commands.
func hoCommandCases() []rqCase {
	const (
		hitOps   = "%ho %as %s0 %s0 %s0 %c0 %c0 %c0 %o %fz %o %fz %hat"
		indexOps = "%ho %as %s0 %s0 %s0 %c0 %c0 %o %fz %o %fz %hat"
		traceOps = "%ho %as %s0 %c0 %c0 %c0 %c0 %o %fz %o %fz %pl"
	)
	cmd := func(op, ops string) string { return hoGen(op + " " + ops + "\n") }
	hit := func(from, to string) string {
		return cmd("OpHitObjectRecordHitNV", strings.Replace(hitOps, from, to, 1))
	}
	trace := func(from, to string) string {
		return cmd("OpHitObjectTraceRayNV", strings.Replace(traceOps, from, to, 1))
	}
	return []rqCase{
		rq("commands valid", hoGen("OpHitObjectRecordEmptyNV %ho\nOpHitObjectRecordMissNV %ho %c0 %o %fz %o %fz\n"+
			"OpHitObjectRecordHitNV "+hitOps+"\nOpHitObjectRecordHitWithIndexNV "+indexOps+"\nOpHitObjectTraceRayNV "+traceOps+"\n"+
			"OpHitObjectTraceRayMotionNV %ho %as %s0 %c0 %c0 %c0 %c0 %o %fz %o %fz %fz %pl\n"+
			"OpHitObjectGetAttributesNV %ho %hat\nOpHitObjectExecuteShaderNV %ho %pl\n"+
			"OpReorderThreadWithHitObjectNV %ho\nOpReorderThreadWithHitObjectNV %ho %c0 %s0\nOpReorderThreadWithHintNV %s0 %c0\n"), ""),
		rq("record empty hit object", cmd("OpHitObjectRecordEmptyNV", "%fv"), "Type must be OpTypeHitObjectNV"),
		rq("record miss index signed", cmd("OpHitObjectRecordMissNV", "%ho %s0 %o %fz %o %fz"), "Miss Index must be a 32-bit int scalar"),
		rq("record miss origin", cmd("OpHitObjectRecordMissNV", "%ho %c0 %fz %fz %o %fz"), "Ray Origin must be a 32-bit float 3-component vector"),
		rq("record miss tmax", cmd("OpHitObjectRecordMissNV", "%ho %c0 %o %fz %o %dz"), "Ray TMax must be a 32-bit float scalar"),
		rq("record hit acceleration structure", hit("%as", "%c0"), "Expected Acceleration Structure to be of type OpTypeAccelerationStructureKHR"),
		rq("record hit instance id", hit("%s0 %s0 %s0", "%fz %s0 %s0"), "Instance Id must be a 32-bit int scalar"),
		rq("record hit primitive id", hit("%s0 %s0 %s0", "%s0 %fz %s0"), "Primitive Id must be a 32-bit int scalar"),
		rq("record hit geometry index", hit("%s0 %s0 %s0", "%s0 %s0 %fz"), "Geometry Index must be a 32-bit int scalar"),
		rq("record hit sbt record offset", hit("%c0 %c0 %c0 %o", "%c0 %s0 %c0 %o"), "SBT record offset must be a 32-bit unsigned int scalar"),
		rq("record hit sbt record stride", hit("%c0 %c0 %c0 %o", "%c0 %c0 %s0 %o"), "SBT record stride must be a 32-bit unsigned int scalar"),
		rq("record hit direction", hit("%fz %o %fz %hat", "%fz %fz %fz %hat"), "Ray Direction must be a 32-bit float 3-component vector"),
		rq("record hit hit kind", hit("%c0 %c0 %c0 %o", "%s0 %c0 %c0 %o"), "Hit Kind must be a 32-bit unsigned int scalar"),
		rq("record hit attributes", hit("%hat", "%pl"), "Hit Object Attributes id must be a OpVariable of storage class HitObjectAttributeNV"),
		rq("record hit with index sbt index", cmd("OpHitObjectRecordHitWithIndexNV", strings.Replace(indexOps, "%c0 %c0 %o", "%c0 %s0 %o", 1)),
			"SBT Index must be a 32-bit unsigned int scalar"),
		rq("trace ray miss index", trace("%c0 %c0 %c0 %c0 %o", "%c0 %c0 %c0 %s0 %o"), "Miss Index must be a 32-bit int scalar"),
		rq("trace ray cull mask", trace("%s0 %c0", "%s0 %s0"), "Cull mask must be a 32-bit int scalar"),
		rq("trace ray sbt offset", trace("%c0 %c0 %c0 %c0 %o", "%c0 %s0 %c0 %c0 %o"), "SBT Offset must be a 32-bit unsigned int scalar"),
		rq("trace ray sbt stride", trace("%c0 %c0 %c0 %c0 %o", "%c0 %c0 %s0 %c0 %o"), "SBT Stride must be a 32-bit unsigned int scalar"),
		rq("trace ray flags after the ray", trace("%as %s0", "%as %fz"), "Ray Flags must be a 32-bit int scalar"),
		rq("trace ray tmin before flags", trace("%as %s0 %c0 %c0 %c0 %c0 %o %fz", "%as %fz %c0 %c0 %c0 %c0 %o %dz"), "Ray TMin must be a 32-bit float scalar"),
		rq("trace ray payload", trace("%pl", "%fv"), "payload must be a OpVariable of storage class RayPayloadKHR or IncomingRayPayloadKHR"),
		rq("trace ray motion time", cmd("OpHitObjectTraceRayMotionNV", "%ho %as %s0 %c0 %c0 %c0 %c0 %o %fz %o %fz %c0 %pl"),
			"Current Times must be a 32-bit float scalar type"),
		rq("trace ray motion payload before time", cmd("OpHitObjectTraceRayMotionNV", "%ho %as %s0 %c0 %c0 %c0 %c0 %o %fz %o %fz %c0 %hat"),
			"payload must be a OpVariable of storage class RayPayloadKHR or IncomingRayPayloadKHR"),
		rq("get attributes storage class", cmd("OpHitObjectGetAttributesNV", "%ho %pl"), "Hit Object Attributes id must be a OpVariable of storage class HitObjectAttributeNV"),
		rq("execute shader storage class", cmd("OpHitObjectExecuteShaderNV", "%ho %hat"), "Hit Object Attributes id must be a OpVariable of storage class RayPayloadKHR"),
		rq("reorder hint alone", cmd("OpReorderThreadWithHitObjectNV", "%ho %c0"),
			"Hint and Bits are optional together i.e  Either both Hint and Bits should be provided or neither."),
		rq("reorder hint", cmd("OpReorderThreadWithHitObjectNV", "%ho %fz %c0"), "Hint must be a 32-bit int scalar"),
		rq("reorder bits", cmd("OpReorderThreadWithHintNV", "%c0 %fz"), "bits must be a 32-bit int scalar"),
		rq("reorder in closest hit", hoModule("ClosestHitKHR", "", "OpReorderThreadWithHintNV %c0 %c0\n"),
			rtLimitLine+"ReorderThreadWithHintNV requires RayGenerationKHR execution model\n"),
	}
}

// TestRayReorderNV is the NV reorder rule table (ray_tracing_reorder.go),
// checked like TestRayTracing.
func TestRayReorderNV(t *testing.T) {
	runTable(t, append(hoQueryCases(), hoCommandCases()...))
}
