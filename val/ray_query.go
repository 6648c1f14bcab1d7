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

// rayQueryOps reports whether rayQueryPass can act on an instruction of opcode op
// (passGate runs it on no other: a new case there needs its opcode here).
func rayQueryOps(op spirv.Opcode) bool {
	return opNamed(op, "OpRayQuery")
}

// rayQueryPass is RayQueryPass: it applies the rule of in's opcode. The
// rules are chosen by switches over constants, never function values: a
// function value given in would move every instruction of the second
// loop to the heap (TestRayQueryAllocs, TestTypeRulesAllocs).
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
	if s.typeOp(s.opType(in, 1)) != spirv.OpTypeAccelerationStructureKHR {
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
	if msg := s.rayQueryResult(result, in); msg != "" {
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

// The Result Type rules of the queries.
const (
	rqBool    = iota
	rqBoolean // the NV queries' wording
	rqFloat
	rqFloatPt // the NV queries' wording
	rqInt
	rqVec2
	rqVec3
	rqTransform
	rqLSSPositions
	rqLSSRadii
	rqVertexPositions
)

// rayQueryGetterRule is the Intersection placement and Result Type rule
// of a query opcode; ok is false for other opcodes.
func rayQueryGetterRule(op spirv.Opcode) (intersection, result int, ok bool) {
	switch op {
	case spirv.OpRayQueryProceedKHR, spirv.OpRayQueryGetIntersectionCandidateAABBOpaqueKHR:
		return rqNone, rqBool, true
	case spirv.OpRayQueryGetIntersectionFrontFaceKHR:
		return rqAfter, rqBool, true
	case spirv.OpRayQueryGetRayTMinKHR:
		return rqNone, rqFloat, true
	case spirv.OpRayQueryGetIntersectionTKHR:
		return rqAfter, rqFloat, true
	case spirv.OpRayQueryGetRayFlagsKHR:
		return rqNone, rqInt, true
	case spirv.OpRayQueryGetIntersectionTypeKHR, spirv.OpRayQueryGetIntersectionInstanceCustomIndexKHR,
		spirv.OpRayQueryGetIntersectionInstanceIdKHR, spirv.OpRayQueryGetIntersectionGeometryIndexKHR,
		spirv.OpRayQueryGetIntersectionInstanceShaderBindingTableRecordOffsetKHR,
		spirv.OpRayQueryGetIntersectionPrimitiveIndexKHR:
		return rqAfter, rqInt, true
	case spirv.OpRayQueryGetWorldRayDirectionKHR, spirv.OpRayQueryGetWorldRayOriginKHR:
		return rqNone, rqVec3, true
	case spirv.OpRayQueryGetIntersectionObjectRayDirectionKHR, spirv.OpRayQueryGetIntersectionObjectRayOriginKHR:
		return rqAfter, rqVec3, true
	}
	result, ok = rayQueryIntersectionFirst(op)
	return rqFirst, result, ok
}

// rayQueryIntersectionFirst is the Result Type rule of the queries that
// check their Intersection first.
func rayQueryIntersectionFirst(op spirv.Opcode) (result int, ok bool) {
	switch op {
	case spirv.OpRayQueryGetIntersectionBarycentricsKHR:
		return rqVec2, true
	case spirv.OpRayQueryGetIntersectionObjectToWorldKHR, spirv.OpRayQueryGetIntersectionWorldToObjectKHR:
		return rqTransform, true
	case spirv.OpRayQueryGetIntersectionClusterIdNV:
		return rqInt, true
	case spirv.OpRayQueryGetIntersectionSpherePositionNV:
		return rqVec3, true
	case spirv.OpRayQueryGetIntersectionSphereRadiusNV, spirv.OpRayQueryGetIntersectionLSSHitValueNV:
		return rqFloatPt, true
	case spirv.OpRayQueryIsSphereHitNV, spirv.OpRayQueryIsLSSHitNV:
		return rqBoolean, true
	case spirv.OpRayQueryGetIntersectionLSSPositionsNV:
		return rqLSSPositions, true
	case spirv.OpRayQueryGetIntersectionLSSRadiiNV:
		return rqLSSRadii, true
	case spirv.OpRayQueryGetIntersectionTriangleVertexPositionsKHR:
		return rqVertexPositions, true
	}
	return 0, false
}

// rayQueryResult applies Result Type rule result to in.
func (s *state) rayQueryResult(result int, in *spirv.Instruction) string {
	t := in.TypeID
	switch result {
	case rqBool:
		if !s.isBoolScalar(t) {
			return rqBoolResult
		}
	case rqBoolean:
		if !s.isBoolScalar(t) {
			return "expected Result Type to be Boolean scalar type"
		}
	case rqFloat:
		if !s.isFloatN(t, 32) {
			return rqFloatResult
		}
	case rqFloatPt:
		if !s.isFloatN(t, 32) {
			return rqFloatPtResult
		}
	case rqInt:
		if !s.isIntN(t, 32) {
			return rqIntResult
		}
	case rqVec2:
		if !s.isFloatVecN(t, 2) {
			return "expected Result Type to be 32-bit float 2-component vector type"
		}
	case rqVec3:
		if !s.isFloatVecN(t, 3) {
			return rqVec3Result
		}
	default:
		return s.rayQueryArrayResult(result, in)
	}
	return ""
}

// rayQueryArrayResult applies the matrix and array Result Type rules.
func (s *state) rayQueryArrayResult(result int, in *spirv.Instruction) string {
	switch result {
	case rqTransform:
		return s.transformResult(in.TypeID)
	case rqLSSPositions:
		return s.lssPositionsResult(in.TypeID, in.Opcode)
	case rqLSSRadii:
		return s.lssRadiiResult(in.TypeID, in.Opcode)
	}
	return s.vertexPositionsResult(in.TypeID, in.Opcode)
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
	if s.typeOp(def.TypeID) != spirv.OpTypePointer {
		return "Ray Query must be a pointer"
	}
	if s.typeOp(s.typeWord(def.TypeID, 3)) != spirv.OpTypeRayQueryKHR {
		return "Ray Query must be a pointer to OpTypeRayQueryKHR"
	}
	return ""
}

// intersectionID is ValidateIntersectionId: operand 3 must be a constant
// (spec constants count) of a 32-bit integer type.
func (s *state) intersectionID(in *spirv.Instruction) string {
	id := s.opWord(in, 3)
	j, ok := s.x.Def(id)
	if !ok || !isConstantOp(s.m.Opcode(j)) || !s.isIntN(s.typeOfValue(id), 32) {
		return "expected Intersection ID to be a constant 32-bit int scalar"
	}
	return ""
}

// transformResult is the Result Type rule of the object-to-world and
// world-to-object matrices: 4 columns of 3-component 32-bit floats.
func (s *state) transformResult(t uint32) string {
	rows, cols, _, comp, ok := s.matrixInfo(t)
	switch {
	case !ok:
		return "expected matrix type as Result Type"
	case cols != 4:
		return "expected Result Type matrix to have a Column Count of 4"
	case !s.isFloatScalar(comp) || s.bitWidth(t) != 32 || rows != 3:
		return "expected Result Type matrix to have a Column Type of 3-component 32-bit float vectors"
	}
	return ""
}

// lssPositionsResult: an array of 2 3-component float vectors (spirv-val
// checks no width here).
func (s *state) lssPositionsResult(t uint32, op spirv.Opcode) string {
	elem := s.componentType(t)
	if s.typeOp(t) != spirv.OpTypeArray || s.rqArrayLength(t) != 2 || !s.isFloatVector(elem) || s.dimension(elem) != 3 {
		return "Expected 2 element array of 32-bit 3 component float point vector as Result Type: " + opName(op)
	}
	return ""
}

// lssRadiiResult: an array of 2 float scalars (of any width, as
// spirv-val checks it).
func (s *state) lssRadiiResult(t uint32, op spirv.Opcode) string {
	if s.typeOp(t) != spirv.OpTypeArray || !s.isFloatScalar(s.componentType(t)) || s.rqArrayLength(t) != 2 {
		return "Expected 32-bit floating point scalar as Result Type: " + opName(op)
	}
	return ""
}

// vertexPositionsResult: an array of 3 3-component 32-bit float vectors.
func (s *state) vertexPositionsResult(t uint32, op spirv.Opcode) string {
	elem := s.componentType(t)
	if s.typeOp(t) != spirv.OpTypeArray || s.rqArrayLength(t) != 3 || !s.isFloatVector(elem) ||
		s.dimension(elem) != 3 || s.bitWidth(elem) != 32 {
		return "Expected 3 element array of 32-bit 3 component float point vector as Result Type: " + opName(op)
	}
	return ""
}

// rqArrayLength is validate_ray_query.cpp's GetArrayLength: the low word
// of an OpConstant length, 0 for any other length (a spec constant).
func (s *state) rqArrayLength(array uint32) uint32 {
	c, ok := s.intConstant(s.typeWord(array, 3))
	if !ok || c.spec || c.null {
		return 0
	}
	return uint32(c.val)
}
