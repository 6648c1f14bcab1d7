package val

import "spvx/spirv"

// The ray-query family (SPV_KHR_ray_query, with the NV cluster, sphere
// and linear-swept-sphere queries and SPV_KHR_ray_tracing_position_fetch),
// as SPIRV-Tools' RayQueryPass (validate_ray_query.cpp) checks it: the
// Ray Query operand, the operand types of OpRayQueryInitializeKHR and
// OpRayQueryGenerateIntersectionKHR, the Intersection operand and the
// Result Type of each query. The capability and extension gating of the
// opcodes is the generic grammar check (instruction.go).

// Messages shared by several queries.
const (
	rqBoolResult    = "expected Result Type to be bool scalar type"
	rqFloatResult   = "expected Result Type to be 32-bit float scalar type"
	rqIntResult     = "expected Result Type to be 32-bit int scalar type"
	rqVec3Result    = "expected Result Type to be 32-bit float 3-component vector type"
	rqFloatPtResult = "expected Result Type to be 32-bit floating point scalar type"
)

// rayQueryPass is RayQueryPass: it applies the rule of in's opcode.
func (s *state) rayQueryPass(i int, in *spirv.Instruction) bool {
	msg := s.rayQueryCommand(in)
	if msg == "" {
		msg = s.rayQueryGetter(in)
	}
	if msg == "" {
		return false
	}
	return s.fail(i, "", "%s", msg)
}

// rayQueryCommand checks the ray-query instructions without a result;
// the Ray Query is their first operand.
func (s *state) rayQueryCommand(in *spirv.Instruction) string {
	switch in.Opcode {
	case spirv.OpRayQueryInitializeKHR:
		if msg := s.rayQueryPointer(in, 0); msg != "" {
			return msg
		}
		return s.rayQueryInitialize(in)
	case spirv.OpRayQueryTerminateKHR, spirv.OpRayQueryConfirmIntersectionKHR:
		return s.rayQueryPointer(in, 0)
	case spirv.OpRayQueryGenerateIntersectionKHR:
		if msg := s.rayQueryPointer(in, 0); msg != "" {
			return msg
		}
		if !s.isFloatN(s.opType(in, 1), 32) {
			return "Hit T must be a 32-bit float scalar"
		}
	}
	return ""
}

// rayQueryInitialize checks OpRayQueryInitializeKHR's operands after the
// Ray Query, in their order.
func (s *state) rayQueryInitialize(in *spirv.Instruction) string {
	if s.tyOp(s.opType(in, 1)) != spirv.OpTypeAccelerationStructureKHR {
		return "Expected Acceleration Structure to be of type OpTypeAccelerationStructureKHR"
	}
	if !s.isIntN(s.opType(in, 2), 32) {
		return "Ray Flags must be a 32-bit int scalar"
	}
	if !s.opacityMicromapFlagAllowed(s.opWord(in, 2)) {
		return "The ForceOpacityMicromap2StateKHR flag requires the RayTracingOpacityMicromapKHR and RayQueryKHR or RayTracingKHR capabilities"
	}
	if !s.isIntN(s.opType(in, 3), 32) {
		return "Cull Mask must be a 32-bit int scalar"
	}
	if !s.isFloatVecN(s.opType(in, 4), 3) {
		return "Ray Origin must be a 32-bit float 3-component vector"
	}
	if !s.isFloatN(s.opType(in, 5), 32) {
		return "Ray TMin must be a 32-bit float scalar"
	}
	if !s.isFloatVecN(s.opType(in, 6), 3) {
		return "Ray Direction must be a 32-bit float 3-component vector"
	}
	if !s.isFloatN(s.opType(in, 7), 32) {
		return "Ray TMax must be a 32-bit float scalar"
	}
	return ""
}

// opacityMicromapFlagAllowed is CheckForceOpacityMicromap2StateKHR-
// CapabilityRequirement: flags known to have ForceOpacityMicromap2StateKHR
// need the RayTracingOpacityMicromapKHR capability. A flags value that is
// not a plain constant (a spec constant, a variable) is not checked.
func (s *state) opacityMicromapFlagAllowed(flags uint32) bool {
	v, ok := s.constUint(flags)
	if !ok || v&uint64(spirv.RayFlagsForceOpacityMicromap2StateKHR) == 0 {
		return true
	}
	return s.caps.has(spirv.CapabilityRayTracingOpacityMicromapKHR)
}

// rayQueryGetter checks the queries with a result: the Ray Query is
// operand 2, the Intersection (when there is one) operand 3. The order
// of the checks is spirv-val's, which differs between the opcodes.
func (s *state) rayQueryGetter(in *spirv.Instruction) string {
	intersection, result, ok := rayQueryGetterRule(in.Opcode)
	if !ok {
		return ""
	}
	if msg := s.rayQueryPointer(in, 2); msg != "" {
		return msg
	}
	if intersection == rqFirst {
		if msg := s.intersectionID(in); msg != "" {
			return msg
		}
	}
	if msg := result(s, in); msg != "" {
		return msg
	}
	if intersection == rqAfter {
		return s.intersectionID(in)
	}
	return ""
}

// Where a query checks its Intersection operand: not at all, before its
// Result Type or after it.
const (
	rqNone = iota
	rqFirst
	rqAfter
)

// rayQueryResultRule checks a query's Result Type and returns the message
// ("" when it is right).
type rayQueryResultRule func(s *state, in *spirv.Instruction) string

// rayQueryGetterRule is the Intersection placement and Result Type rule
// of a query opcode; ok is false for other opcodes.
func rayQueryGetterRule(op spirv.Opcode) (intersection int, result rayQueryResultRule, ok bool) {
	switch op {
	case spirv.OpRayQueryProceedKHR, spirv.OpRayQueryGetIntersectionCandidateAABBOpaqueKHR:
		return rqNone, resultIs(rqBoolResult, (*state).isBoolS), true
	case spirv.OpRayQueryGetIntersectionFrontFaceKHR:
		return rqAfter, resultIs(rqBoolResult, (*state).isBoolS), true
	case spirv.OpRayQueryGetRayTMinKHR:
		return rqNone, resultIs(rqFloatResult, (*state).isFloat32), true
	case spirv.OpRayQueryGetIntersectionTKHR:
		return rqAfter, resultIs(rqFloatResult, (*state).isFloat32), true
	case spirv.OpRayQueryGetRayFlagsKHR:
		return rqNone, resultIs(rqIntResult, (*state).isInt32), true
	case spirv.OpRayQueryGetIntersectionTypeKHR, spirv.OpRayQueryGetIntersectionInstanceCustomIndexKHR,
		spirv.OpRayQueryGetIntersectionInstanceIdKHR, spirv.OpRayQueryGetIntersectionGeometryIndexKHR,
		spirv.OpRayQueryGetIntersectionInstanceShaderBindingTableRecordOffsetKHR,
		spirv.OpRayQueryGetIntersectionPrimitiveIndexKHR:
		return rqAfter, resultIs(rqIntResult, (*state).isInt32), true
	case spirv.OpRayQueryGetWorldRayDirectionKHR, spirv.OpRayQueryGetWorldRayOriginKHR:
		return rqNone, resultIs(rqVec3Result, (*state).isFloat32Vec3), true
	case spirv.OpRayQueryGetIntersectionObjectRayDirectionKHR, spirv.OpRayQueryGetIntersectionObjectRayOriginKHR:
		return rqAfter, resultIs(rqVec3Result, (*state).isFloat32Vec3), true
	}
	return rayQueryGetterRuleNV(op)
}

// rayQueryGetterRuleNV continues rayQueryGetterRule with the queries
// that check their Intersection first.
func rayQueryGetterRuleNV(op spirv.Opcode) (intersection int, result rayQueryResultRule, ok bool) {
	switch op {
	case spirv.OpRayQueryGetIntersectionBarycentricsKHR:
		return rqFirst, resultIs("expected Result Type to be 32-bit float 2-component vector type", (*state).isFloat32Vec2), true
	case spirv.OpRayQueryGetIntersectionObjectToWorldKHR, spirv.OpRayQueryGetIntersectionWorldToObjectKHR:
		return rqFirst, (*state).transformResult, true
	case spirv.OpRayQueryGetIntersectionClusterIdNV:
		return rqFirst, resultIs(rqIntResult, (*state).isInt32), true
	case spirv.OpRayQueryGetIntersectionSpherePositionNV:
		return rqFirst, resultIs(rqVec3Result, (*state).isFloat32Vec3), true
	case spirv.OpRayQueryGetIntersectionSphereRadiusNV, spirv.OpRayQueryGetIntersectionLSSHitValueNV:
		return rqFirst, resultIs(rqFloatPtResult, (*state).isFloat32), true
	case spirv.OpRayQueryIsSphereHitNV, spirv.OpRayQueryIsLSSHitNV:
		return rqFirst, resultIs("expected Result Type to be Boolean scalar type", (*state).isBoolS), true
	case spirv.OpRayQueryGetIntersectionLSSPositionsNV:
		return rqFirst, (*state).lssPositionsResult, true
	case spirv.OpRayQueryGetIntersectionLSSRadiiNV:
		return rqFirst, (*state).lssRadiiResult, true
	case spirv.OpRayQueryGetIntersectionTriangleVertexPositionsKHR:
		return rqFirst, (*state).vertexPositionsResult, true
	}
	return rqNone, nil, false
}

// resultIs is the Result Type rule "is(Result Type), else msg".
func resultIs(msg string, is func(*state, uint32) bool) rayQueryResultRule {
	return func(s *state, in *spirv.Instruction) string {
		if is(s, in.TypeID) {
			return ""
		}
		return msg
	}
}

// rayQueryPointer is ValidateRayQueryPointer: operand k must be a memory
// object declaration (a variable, function parameter or access chain)
// whose type is a pointer to OpTypeRayQueryKHR.
func (s *state) rayQueryPointer(in *spirv.Instruction, k int) string {
	j, ok := s.x.Def(s.opWord(in, k))
	if !ok {
		return "Ray Query must be a memory object declaration"
	}
	def := s.m.Inst(j)
	switch def.Opcode {
	case spirv.OpVariable, spirv.OpFunctionParameter, spirv.OpAccessChain, spirv.OpInBoundsAccessChain:
	default:
		return "Ray Query must be a memory object declaration"
	}
	if s.tyOp(def.TypeID) != spirv.OpTypePointer {
		return "Ray Query must be a pointer"
	}
	if s.tyOp(s.tyWord(def.TypeID, 3)) != spirv.OpTypeRayQueryKHR {
		return "Ray Query must be a pointer to OpTypeRayQueryKHR"
	}
	return ""
}

// intersectionID is ValidateIntersectionId: operand 3 must be a constant
// (spec constants count) of a 32-bit integer type.
func (s *state) intersectionID(in *spirv.Instruction) string {
	id := s.opWord(in, 3)
	j, ok := s.x.Def(id)
	if !ok || !isConstantOp(s.m.Inst(j).Opcode) || !s.isIntN(s.typeOfValue(id), 32) {
		return "expected Intersection ID to be a constant 32-bit int scalar"
	}
	return ""
}

// transformResult is the Result Type rule of the object-to-world and
// world-to-object matrices: 4 columns of 3-component 32-bit floats.
func (s *state) transformResult(in *spirv.Instruction) string {
	rows, cols, _, comp, ok := s.matrixInfo(in.TypeID)
	switch {
	case !ok:
		return "expected matrix type as Result Type"
	case cols != 4:
		return "expected Result Type matrix to have a Column Count of 4"
	case !s.isFloatScalar(comp) || s.widthOf(in.TypeID) != 32 || rows != 3:
		return "expected Result Type matrix to have a Column Type of 3-component 32-bit float vectors"
	}
	return ""
}

// lssPositionsResult: an array of 2 3-component float vectors (spirv-val
// checks no width here).
func (s *state) lssPositionsResult(in *spirv.Instruction) string {
	t := in.TypeID
	elem := s.compOf(t)
	if s.tyOp(t) != spirv.OpTypeArray || s.rqArrayLength(t) != 2 || !s.isFloatVec(elem) || s.dimOf(elem) != 3 {
		return "Expected 2 element array of 32-bit 3 component float point vector as Result Type: " + opName(in.Opcode)
	}
	return ""
}

// lssRadiiResult: an array of 2 float scalars (of any width, as
// spirv-val checks it).
func (s *state) lssRadiiResult(in *spirv.Instruction) string {
	t := in.TypeID
	if s.tyOp(t) != spirv.OpTypeArray || !s.isFloatScalar(s.compOf(t)) || s.rqArrayLength(t) != 2 {
		return "Expected 32-bit floating point scalar as Result Type: " + opName(in.Opcode)
	}
	return ""
}

// vertexPositionsResult: an array of 3 3-component 32-bit float vectors.
func (s *state) vertexPositionsResult(in *spirv.Instruction) string {
	t := in.TypeID
	elem := s.compOf(t)
	if s.tyOp(t) != spirv.OpTypeArray || s.rqArrayLength(t) != 3 || !s.isFloatVec(elem) ||
		s.dimOf(elem) != 3 || s.widthOf(elem) != 32 {
		return "Expected 3 element array of 32-bit 3 component float point vector as Result Type: " + opName(in.Opcode)
	}
	return ""
}

// rqArrayLength is validate_ray_query.cpp's GetArrayLength: the low word
// of an OpConstant length, 0 for any other length (a spec constant).
func (s *state) rqArrayLength(array uint32) uint32 {
	j, ok := s.x.Def(s.tyWord(array, 3))
	if !ok {
		return 0
	}
	c := s.m.Inst(j)
	if c.Opcode != spirv.OpConstant || len(c.Words) < 4 {
		return 0
	}
	return c.Words[3]
}

// isIntN and isFloatN are IsIntScalarType(t, n) and IsFloatScalarType(t, n).
func (s *state) isIntN(t, n uint32) bool {
	return s.isIntScalar(t) && s.typeOf(t).Width == n
}

func (s *state) isFloatN(t, n uint32) bool {
	return s.isFloatScalar(t) && s.typeOf(t).Width == n
}

// isFloatVecN: a float vector of n components of 32 bits.
func (s *state) isFloatVecN(t, n uint32) bool {
	return s.isFloatVec(t) && s.dimOf(t) == n && s.widthOf(t) == 32
}

func (s *state) isInt32(t uint32) bool       { return s.isIntN(t, 32) }
func (s *state) isFloat32(t uint32) bool     { return s.isFloatN(t, 32) }
func (s *state) isFloat32Vec2(t uint32) bool { return s.isFloatVecN(t, 2) }
func (s *state) isFloat32Vec3(t uint32) bool { return s.isFloatVecN(t, 3) }
