package val

import (
	"strings"
	"testing"
)

// toEXT turns an hoModule into its SPV_EXT_shader_invocation_reorder
// form: %hot is OpTypeHitObjectEXT, %hat a HitObjectAttributeEXT variable.
var toEXT = strings.NewReplacer("ShaderInvocationReorderNV", "ShaderInvocationReorderEXT",
	"SPV_NV_shader_invocation_reorder", "SPV_EXT_shader_invocation_reorder",
	"OpTypeHitObjectNV", "OpTypeHitObjectEXT", "HitObjectAttributeNV", "HitObjectAttributeEXT")

// heGen is a ray-generation shader of the EXT form running body.
func heGen(body string) string { return toEXT.Replace(hoGen(body)) }

// withRayQuery adds the RayQueryKHR capability and a Ray Query %q.
func withRayQuery(m string) string {
	return strings.NewReplacer("OpCapability Float64\n", "OpCapability Float64\nOpCapability RayQueryKHR\n",
		"OpExtension \"SPV_KHR_ray_tracing\"\n", "OpExtension \"SPV_KHR_ray_tracing\"\nOpExtension \"SPV_KHR_ray_query\"\n",
		"%hot = ", "%rqt = OpTypeRayQueryKHR\n%prq = OpTypePointer Function %rqt\n%hot = ",
		"%fv = OpVariable %pfn Function\n", "%fv = OpVariable %pfn Function\n%q = OpVariable %prq Function\n").Replace(m)
}

// heCases cover the EXT hit-object queries and commands.
func heCases() []rqCase {
	const (
		traceOps = "%ho %as %s0 %c0 %c0 %c0 %c0 %o %fz %o %fz %pl"
		motion   = "%ho %as %s0 %c0 %c0 %c0 %c0 %o %fz %o %fz %fz %pl"
	)
	q := func(op, ty string) string { return heGen("%r = " + op + " " + ty + " %ho\n") }
	cmd := func(op, ops string) string { return heGen(op + " " + ops + "\n") }
	vertex := "%r = OpHitObjectGetIntersectionTriangleVertexPositionsEXT %a3v %ho\n"
	valid := heGen(`%r1 = OpHitObjectIsHitEXT %bool %ho
%r2 = OpHitObjectGetRayFlagsEXT %u32 %ho
%r3 = OpHitObjectGetWorldToObjectEXT %m43 %ho
` + vertex + `OpHitObjectRecordEmptyEXT %ho
OpHitObjectRecordMissEXT %ho %s0 %c0 %o %fz %o %fz
OpHitObjectRecordMissMotionEXT %ho %s0 %c0 %o %fz %o %fz %fz
OpHitObjectTraceRayEXT ` + traceOps + `
OpHitObjectTraceRayMotionEXT ` + motion + `
OpHitObjectGetAttributesEXT %ho %hat
OpHitObjectSetShaderBindingTableRecordIndexEXT %ho %s0
OpHitObjectExecuteShaderEXT %ho %pl
OpReorderThreadWithHintEXT %c0 %s0
OpReorderThreadWithHitObjectEXT %ho
OpHitObjectReorderExecuteShaderEXT %ho %pl %c0 %c0
OpHitObjectTraceReorderExecuteEXT ` + traceOps + `
OpHitObjectTraceMotionReorderExecuteEXT ` + motion + ` %c0 %c0
`)
	const fromQuery = "OpHitObjectRecordFromQueryEXT %ho %q %c0 %hat\n"
	return []rqCase{
		rq("EXT valid", valid, ""),
		rq("EXT record from query valid", withRayQuery(heGen(fromQuery+"OpHitObjectRecordFromQueryEXT %ho %q %s0 %hat %c0\n")), ""),
		rq("EXT is hit result", q("OpHitObjectIsHitEXT", "%f32"), "expected Result Type to be bool scalar type"),
		rq("EXT is hit NV hit object", withRayQuery(heGen("%r = OpHitObjectIsHitEXT %bool %q\n")), "Type must be OpTypeHitObjectEXT"),
		rq("EXT ray flags result", q("OpHitObjectGetRayFlagsEXT", "%f32"), "Expected 32-bit integer type scalar as Result Type: HitObjectGetRayFlagsEXT"),
		rq("EXT object to world columns", q("OpHitObjectGetObjectToWorldEXT", "%m33"), "expected Result Type matrix to have a Column Count of 4HitObjectGetObjectToWorldEXT"),
		rq("EXT vertex positions length", q("OpHitObjectGetIntersectionTriangleVertexPositionsEXT", "%a2v"),
			"Expected 3 element array of 32-bit 3 component float vectors as Result Type: HitObjectGetIntersectionTriangleVertexPositionsEXT"),
		rq("EXT vertex positions hit object", heGen("%r = OpHitObjectGetIntersectionTriangleVertexPositionsEXT %a3v %fv\n"), "Type must be OpTypeHitObjectEXT"),
		rq("EXT get attributes", cmd("OpHitObjectGetAttributesEXT", "%ho %pl"), "Hit Object Attributes id must be a OpVariable of storage class HitObjectAttributeEXT"),
		rq("EXT set sbt index", cmd("OpHitObjectSetShaderBindingTableRecordIndexEXT", "%ho %fz"), "SBT Index must be a 32-bit integer scalar"),
		rq("EXT execute shader", cmd("OpHitObjectExecuteShaderEXT", "%ho %hat"), "Payload must be a OpVariable of storage class RayPayloadKHR or IncomingRayPayloadKHR"),
		rq("EXT record empty", cmd("OpHitObjectRecordEmptyEXT", "%as"), "Hit Object must be a pointer"),
		rq("EXT record miss flags", cmd("OpHitObjectRecordMissEXT", "%ho %fz %c0 %o %fz %o %fz"), "Ray Flags must be a 32-bit int scalar"),
		rq("EXT record miss index", cmd("OpHitObjectRecordMissEXT", "%ho %c0 %s0 %o %fz %o %fz"), "Miss Index must be a 32-bit unsigned int scalar"),
		rq("EXT record miss tmin", cmd("OpHitObjectRecordMissEXT", "%ho %c0 %c0 %o %dz %o %fz"), "Ray TMin must be a 32-bit float scalar"),
		rq("EXT record miss motion time", cmd("OpHitObjectRecordMissMotionEXT", "%ho %c0 %c0 %o %fz %o %fz %c0"), "Current Time must be a 32-bit float scalar"),
		rq("EXT record from query function variable", heGen("OpHitObjectRecordFromQueryEXT %ho %fv %c0 %hat\n"), "Ray Query must be a pointer to OpTypeRayQueryKHR"),
		rq("EXT record from query ray query", withRayQuery(heGen("OpHitObjectRecordFromQueryEXT %ho %ho %c0 %hat\n")), "Ray Query must be a pointer to OpTypeRayQueryKHR"),
		rq("EXT record from query ray query value", withRayQuery(heGen("OpHitObjectRecordFromQueryEXT %ho %c0 %c0 %hat\n")), "Ray Query must be a pointer"),
		rq("EXT record from query sbt", withRayQuery(heGen("OpHitObjectRecordFromQueryEXT %ho %q %fz %hat\n")), "SBT Record Index must be a 32-bit integer scalar"),
		rq("EXT record from query attributes", withRayQuery(heGen("OpHitObjectRecordFromQueryEXT %ho %q %c0 %pl\n")),
			"Hit Object Attributes id must be a OpVariable of storage class HitObjectAttributeEXT"),
		rq("EXT record from query hit kind", withRayQuery(heGen("OpHitObjectRecordFromQueryEXT %ho %q %c0 %hat %s0\n")), "Hit Kind must be a 32-bit unsigned int scalar"),
		rq("EXT trace ray payload", cmd("OpHitObjectTraceRayEXT", strings.Replace(traceOps, "%pl", "%hat", 1)),
			"payload must be a OpVariable of storage class RayPayloadKHR or IncomingRayPayloadKHR"),
		rq("EXT trace ray motion time", cmd("OpHitObjectTraceRayMotionEXT", strings.Replace(motion, "%fz %fz %pl", "%fz %c0 %pl", 1)),
			"Current Time must be a 32-bit float scalar"),
		rq("EXT reorder hint", cmd("OpReorderThreadWithHintEXT", "%fz %c0"), "Hint must be a 32-bit int scalar"),
		rq("EXT reorder bits", cmd("OpReorderThreadWithHitObjectEXT", "%ho %c0 %fz"), "Bits must be a 32-bit int scalar"),
		rq("EXT reorder hint alone", cmd("OpReorderThreadWithHitObjectEXT", "%ho %c0"),
			"Hint and Bits are optional together i.e  Either both Hint and Bits should be provided or neither."),
		rq("EXT reorder execute payload", cmd("OpHitObjectReorderExecuteShaderEXT", "%ho %fv"),
			"Payload must be a OpVariable of storage class RayPayloadKHR or IncomingRayPayloadKHR"),
		rq("EXT reorder execute hint alone", cmd("OpHitObjectReorderExecuteShaderEXT", "%ho %pl %c0"),
			"Hint and Bits are optional together i.e  Either both Hint and Bits should be provided or neither."),
		rq("EXT trace reorder cull mask", cmd("OpHitObjectTraceReorderExecuteEXT", strings.Replace(traceOps, "%s0 %c0", "%s0 %fz", 1)),
			"Cull mask must be a 32-bit int scalar"),
		rq("EXT trace reorder bits", cmd("OpHitObjectTraceReorderExecuteEXT", traceOps+" %c0 %fz"), "Bits must be a 32-bit int scalar"),
		rq("EXT trace motion reorder time", cmd("OpHitObjectTraceMotionReorderExecuteEXT", strings.Replace(motion, "%fz %fz %pl", "%fz %c0 %pl", 1)),
			"Current Time must be a 32-bit float scalar"),
		rq("EXT trace motion reorder hint", cmd("OpHitObjectTraceMotionReorderExecuteEXT", motion+" %fz %c0"), "Hint must be a 32-bit int scalar"),
		rq("EXT query in closest hit", toEXT.Replace(hoModule("ClosestHitKHR", "", "%r = OpHitObjectIsHitEXT %bool %ho\n")), ""),
		rq("EXT query in callable", toEXT.Replace(hoModule("CallableKHR", "", "%r = OpHitObjectIsHitEXT %bool %ho\n")),
			rtLimitLine+"HitObjectIsHitEXT requires RayGenerationKHR, ClosestHitKHR and MissKHR execution models\n"),
		rq("EXT reorder execute in miss", toEXT.Replace(hoModule("MissKHR", "", "OpHitObjectReorderExecuteShaderEXT %ho %pl\n")),
			rtLimitLine+"HitObjectReorderExecuteShaderEXT requires RayGenerationKHR execution model\n"),
	}
}

// TestRayReorderEXT is the EXT reorder rule table (ray_tracing_reorder.go),
// checked like TestRayTracing.
func TestRayReorderEXT(t *testing.T) {
	runTable(t, heCases())
}
