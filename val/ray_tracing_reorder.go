package val

import "spvx/spirv"

// The NV shader-invocation-reorder family (SPV_NV_shader_invocation_reorder,
// with the NV cluster, sphere and linear-swept-sphere hit-object
// queries), as SPIRV-Tools' RayReorderNVPass
// (validate_ray_tracing_reorder.cpp) checks it: the Hit Object operand
// (a pointer to OpTypeHitObjectNV), the Result Type of each query, the
// operands of the record, trace and reorder commands, and the execution
// models each instruction may run in; and RayReorderEXTPass, the same
// for SPV_EXT_shader_invocation_reorder's OpTypeHitObjectEXT.

// rayReorderNVOps reports whether rayReorderNVPass can act on an instruction of opcode op
// (passGate runs it on no other: a new case there needs its opcode here).
func rayReorderNVOps(op spirv.Opcode) bool {
	return opNamed(op, "OpHitObject") || opNamed(op, "OpReorderThread")
}

// rayReorderNVPass is RayReorderNVPass.
func (s *state) rayReorderNVPass(i int, in *spirv.Instruction) bool {
	op := in.Opcode
	var msg string
	switch op {
	case spirv.OpReorderThreadWithHitObjectNV, spirv.OpReorderThreadWithHintNV:
		s.limitModels(i, limReorderThread, op)
		msg = s.reorderThreadNV(in)
	default:
		ok := true
		if msg, ok = s.hitObjectQueryNV(in); !ok {
			msg, ok = s.hitObjectCommandNV(in)
		}
		if !ok {
			return false
		}
		s.limitModels(i, limHitObject, op)
	}
	if msg == "" {
		return false
	}
	return s.fail(i, "", "%s", msg)
}

// hitObjectPointer is ValidateHitObjectPointer: operand k must be a
// pointer to hitObject.
func (s *state) hitObjectPointer(in *spirv.Instruction, k int, hitObject spirv.Opcode) string {
	switch s.pointerTo(in, k, hitObject) {
	case ptNotPointer:
		return "Hit Object must be a pointer"
	case ptWrongType:
		return "Type must be Op" + opName(hitObject)
	}
	return ""
}

// pointerTo's answers.
const (
	ptOK = iota
	ptNotPointer
	ptWrongType
)

// pointerTo reads operand k as ValidateHitObjectPointer and the reorder
// file's ValidateRayQueryPointer do: the type of its definition (that
// definition's first operand) must be an OpTypePointer to a type of
// opcode want.
func (s *state) pointerTo(in *spirv.Instruction, k int, want spirv.Opcode) int {
	ptr := uint32(0)
	if j, ok := s.x.Def(s.opWord(in, k)); ok {
		if def := s.m.Inst(j); len(def.Operands) > 0 {
			ptr = def.Words[def.Operands[0].Offset]
		}
	}
	switch {
	case s.typeOp(ptr) != spirv.OpTypePointer:
		return ptNotPointer
	case s.typeOp(s.typeWord(ptr, 3)) != want:
		return ptWrongType
	}
	return ptOK
}

// hitObjectQueryNV checks the queries with a Result Type and the Hit
// Object in operand 2; ok is false for other opcodes.
func (s *state) hitObjectQueryNV(in *spirv.Instruction) (msg string, ok bool) {
	op, t := in.Opcode, in.TypeID
	switch op {
	case spirv.OpHitObjectIsMissNV, spirv.OpHitObjectIsHitNV, spirv.OpHitObjectIsEmptyNV:
		if !s.isBoolScalar(t) {
			return "expected Result Type to be bool scalar type", true
		}
		return s.hitObjectPointer(in, 2, spirv.OpTypeHitObjectNV), true
	}
	rule, ok := hitObjectResultRule(op)
	if !ok {
		return "", false
	}
	if msg := s.hitObjectPointer(in, 2, spirv.OpTypeHitObjectNV); msg != "" {
		return msg, true
	}
	return s.hitObjectResult(rule, t, op), true
}

// The Result Type rules of the hit-object queries.
const (
	hoIntVec2 = iota
	hoInt
	hoFloat
	hoTransform
	hoFloatVec3
	hoSpherePosition
	hoSphereRadius
	hoLSSPositions
	hoLSSRadii
	hoBoolean
)

// hitObjectResultRule is the Result Type rule of an NV query opcode
// whose Hit Object is checked first.
func hitObjectResultRule(op spirv.Opcode) (int, bool) {
	switch op {
	case spirv.OpHitObjectGetShaderRecordBufferHandleNV:
		return hoIntVec2, true
	case spirv.OpHitObjectGetHitKindNV, spirv.OpHitObjectGetPrimitiveIndexNV, spirv.OpHitObjectGetGeometryIndexNV,
		spirv.OpHitObjectGetInstanceIdNV, spirv.OpHitObjectGetInstanceCustomIndexNV,
		spirv.OpHitObjectGetShaderBindingTableRecordIndexNV, spirv.OpHitObjectGetClusterIdNV:
		return hoInt, true
	case spirv.OpHitObjectGetCurrentTimeNV, spirv.OpHitObjectGetRayTMaxNV, spirv.OpHitObjectGetRayTMinNV:
		return hoFloat, true
	case spirv.OpHitObjectGetObjectToWorldNV, spirv.OpHitObjectGetWorldToObjectNV:
		return hoTransform, true
	case spirv.OpHitObjectGetObjectRayOriginNV, spirv.OpHitObjectGetObjectRayDirectionNV,
		spirv.OpHitObjectGetWorldRayDirectionNV, spirv.OpHitObjectGetWorldRayOriginNV:
		return hoFloatVec3, true
	case spirv.OpHitObjectGetSpherePositionNV:
		return hoSpherePosition, true
	case spirv.OpHitObjectGetSphereRadiusNV:
		return hoSphereRadius, true
	case spirv.OpHitObjectGetLSSPositionsNV:
		return hoLSSPositions, true
	case spirv.OpHitObjectGetLSSRadiiNV:
		return hoLSSRadii, true
	case spirv.OpHitObjectIsSphereHitNV, spirv.OpHitObjectIsLSSHitNV:
		return hoBoolean, true
	}
	return 0, false
}

// hitObjectResult applies Result Type rule rule to t; the messages end
// with the opcode's name, as spirv-val's do.
func (s *state) hitObjectResult(rule int, t uint32, op spirv.Opcode) string {
	var bad bool
	var what string
	switch rule {
	case hoIntVec2:
		bad, what = !s.isIntVector(t) || s.dimension(t) != 2 || s.bitWidth(t) != 32, "Expected 32-bit integer type 2-component vector as Result Type: "
	case hoInt:
		bad, what = !s.isIntN(t, 32), "Expected 32-bit integer type scalar as Result Type: "
	case hoFloat:
		bad, what = !s.isFloatN(t, 32), "Expected 32-bit floating-point type scalar as Result Type: "
	case hoTransform:
		return s.hitObjectTransform(t, op)
	case hoFloatVec3:
		bad, what = !s.isFloatVecN(t, 3), "Expected 32-bit floating-point type 3-component vector as Result Type: "
	case hoSpherePosition:
		bad, what = !s.isFloatVecN(t, 3), "Expected 32-bit floating point 2 component vector type as Result Type: " // sic
	case hoSphereRadius:
		bad, what = !s.isFloatN(t, 32), "Expected 32-bit floating point scalar as Result Type: "
	case hoLSSPositions:
		return s.lssPositionsResult(t, op)
	case hoLSSRadii:
		elem := s.componentType(t)
		bad = s.typeOp(t) != spirv.OpTypeArray || !s.isFloatScalar(elem) || s.rqArrayLength(t) != 2
		what = "Expected 2 element array of 32-bit floating point scalar as Result Type: "
	default:
		bad, what = !s.isBoolScalar(t), "Expected Boolean scalar as Result Type: "
	}
	if bad {
		return what + opName(op)
	}
	return ""
}

// hitObjectTransform is the Result Type rule of the object-to-world and
// world-to-object queries (the Column Count message lacks its ": ").
func (s *state) hitObjectTransform(t uint32, op spirv.Opcode) string {
	rows, cols, _, comp, ok := s.matrixInfo(t)
	switch {
	case !ok:
		return "expected matrix type as Result Type: " + opName(op)
	case cols != 4:
		return "expected Result Type matrix to have a Column Count of 4" + opName(op)
	case !s.isFloatScalar(comp) || s.bitWidth(t) != 32 || rows != 3:
		return "expected Result Type matrix to have a Column Type of 3-component 32-bit float vectors: " + opName(op)
	}
	return ""
}

// hitObjectCommandNV checks the NV commands whose Hit Object is operand
// 0; ok is false for other opcodes.
func (s *state) hitObjectCommandNV(in *spirv.Instruction) (msg string, ok bool) {
	var p hoParams
	switch in.Opcode {
	case spirv.OpHitObjectGetAttributesNV:
		return s.hitObjectVariable(in, 1, "HitObjectAttributeNV", spirv.StorageClassHitObjectAttributeNV, spirv.StorageClassHitObjectAttributeNV), true
	case spirv.OpHitObjectExecuteShaderNV:
		return s.hitObjectVariable(in, 1, "RayPayloadKHR", spirv.StorageClassRayPayloadKHR, spirv.StorageClassRayPayloadKHR), true
	case spirv.OpHitObjectRecordEmptyNV:
		return s.hitObjectPointer(in, 0, spirv.OpTypeHitObjectNV), true
	case spirv.OpHitObjectRecordMissNV:
		p = hoParams{missU: 1, origin: 2}
	case spirv.OpHitObjectRecordHitWithIndexNV:
		p = hoParams{as: 1, instance: 2, prim: 3, geom: 4, hitKind: 5, sbtIndex: 6, origin: 7, attr: 11}
	case spirv.OpHitObjectRecordHitNV:
		p = hoParams{as: 1, instance: 2, prim: 3, geom: 4, hitKind: 5, recOffset: 6, recStride: 7, origin: 8, attr: 12}
	case spirv.OpHitObjectTraceRayMotionNV:
		p = hoTraceParams(12)
		p.time = 11
	case spirv.OpHitObjectTraceRayNV:
		p = hoTraceParams(11)
	default:
		return "", false
	}
	if msg := s.hitObjectPointer(in, 0, spirv.OpTypeHitObjectNV); msg != "" {
		return msg, true
	}
	if p.missU != 0 {
		// OpHitObjectRecordMissNV's own order: Miss Index, then the ray.
		if t := s.opType(in, p.missU); !s.isUintScalar(t) || s.bitWidth(t) != 32 {
			return "Miss Index must be a 32-bit int scalar", true
		}
		return s.rayGeometry(in, p.origin), true
	}
	if msg := s.hitObjectParams(in, p); msg != "" {
		return msg, true
	}
	if p.time != 0 && !s.isFloatN(s.opType(in, p.time), 32) {
		return "Current Times must be a 32-bit float scalar type", true
	}
	return "", true
}

// hoTraceParams are the common parameters of the hit-object traces: the
// operands of OpTraceRayKHR after the Hit Object, the payload at
// position payload (after the Current Time of the motion traces).
func hoTraceParams(payload int) hoParams {
	return hoParams{as: 1, flags: 2, cull: 3, sbtOffset: 4, sbtStride: 5, miss: 6, origin: 7, payload: payload}
}

// hitObjectVariable: the Hit Object (operand 0), then operand k must be
// an OpVariable of storage class sc1 or sc2, named want in the message.
func (s *state) hitObjectVariable(in *spirv.Instruction, k int, want string, sc1, sc2 spirv.StorageClass) string {
	if msg := s.hitObjectPointer(in, 0, spirv.OpTypeHitObjectNV); msg != "" {
		return msg
	}
	if sc, ok := s.variableStorage(s.opWord(in, k)); !ok || sc != sc1 && sc != sc2 {
		return "Hit Object Attributes id must be a OpVariable of storage class " + want
	}
	return ""
}

// hoParams are the operand positions ValidateHitObjectInstruction-
// CommonParameters checks (0: not an operand of the instruction; the
// Hit Object is operand 0, so no parameter is). origin is the first of
// Ray Origin, TMin, Direction and TMax. missU is OpHitObjectRecordMissNV's
// Miss Index and time the Current Time, both checked outside the common
// parameters.
type hoParams struct {
	as, instance, prim, geom, flags, cull, hitKind, sbtIndex int
	sbtOffset, sbtStride, recOffset, recStride, miss, origin int
	payload, attr, missU, time                               int
}

// hitObjectParams is ValidateHitObjectInstructionCommonParameters, in its
// order.
func (s *state) hitObjectParams(in *spirv.Instruction, p hoParams) string {
	if p.as != 0 && s.typeOp(s.opType(in, p.as)) != spirv.OpTypeAccelerationStructureKHR {
		return "Expected Acceleration Structure to be of type OpTypeAccelerationStructureKHR"
	}
	if msg := s.hitObjectIDs(in, p); msg != "" {
		return msg
	}
	if msg := s.hitObjectSBT(in, p); msg != "" {
		return msg
	}
	if p.origin != 0 {
		if msg := s.rayGeometry(in, p.origin); msg != "" {
			return msg
		}
	}
	if p.flags != 0 && !s.isIntN(s.opType(in, p.flags), 32) {
		return "Ray Flags must be a 32-bit int scalar"
	}
	if p.payload != 0 {
		if sc, ok := s.variableStorage(s.opWord(in, p.payload)); !ok ||
			sc != spirv.StorageClassRayPayloadKHR && sc != spirv.StorageClassIncomingRayPayloadKHR {
			return "payload must be a OpVariable of storage class RayPayloadKHR or IncomingRayPayloadKHR"
		}
	}
	if p.hitKind != 0 && !s.isUint32(s.opType(in, p.hitKind)) {
		return "Hit Kind must be a 32-bit unsigned int scalar"
	}
	if p.attr != 0 {
		if sc, ok := s.variableStorage(s.opWord(in, p.attr)); !ok ||
			sc != spirv.StorageClassHitObjectAttributeNV && sc != spirv.StorageClassHitObjectAttributeEXT {
			return "Hit Object Attributes id must be a OpVariable of storage class HitObjectAttributeNV"
		}
	}
	return ""
}

// hitObjectIDs checks the Instance Id, Primitive Id, Geometry Index,
// Miss Index and Cull Mask parameters.
func (s *state) hitObjectIDs(in *spirv.Instruction, p hoParams) string {
	switch {
	case p.instance != 0 && !s.isIntN(s.opType(in, p.instance), 32):
		return "Instance Id must be a 32-bit int scalar"
	case p.prim != 0 && !s.isIntN(s.opType(in, p.prim), 32):
		return "Primitive Id must be a 32-bit int scalar"
	case p.geom != 0 && !s.isIntN(s.opType(in, p.geom), 32):
		return "Geometry Index must be a 32-bit int scalar"
	case p.miss != 0 && !s.isUint32(s.opType(in, p.miss)):
		return "Miss Index must be a 32-bit int scalar"
	case p.cull != 0 && !s.isUint32(s.opType(in, p.cull)):
		return "Cull mask must be a 32-bit int scalar"
	}
	return ""
}

// hitObjectSBT checks the shader-binding-table parameters: 32-bit
// unsigned integers.
func (s *state) hitObjectSBT(in *spirv.Instruction, p hoParams) string {
	switch {
	case p.sbtIndex != 0 && !s.isUint32(s.opType(in, p.sbtIndex)):
		return "SBT Index must be a 32-bit unsigned int scalar"
	case p.sbtOffset != 0 && !s.isUint32(s.opType(in, p.sbtOffset)):
		return "SBT Offset must be a 32-bit unsigned int scalar"
	case p.sbtStride != 0 && !s.isUint32(s.opType(in, p.sbtStride)):
		return "SBT Stride must be a 32-bit unsigned int scalar"
	case p.recOffset != 0 && !s.isUint32(s.opType(in, p.recOffset)):
		return "SBT record offset must be a 32-bit unsigned int scalar"
	case p.recStride != 0 && !s.isUint32(s.opType(in, p.recStride)):
		return "SBT record stride must be a 32-bit unsigned int scalar"
	}
	return ""
}

// isUint32: a 32-bit unsigned integer scalar.
func (s *state) isUint32(t uint32) bool { return s.isUintScalar(t) && s.bitWidth(t) == 32 }

// reorderThreadNV checks OpReorderThreadWithHitObjectNV (a Hit Object,
// then Hint and Bits together or neither) and OpReorderThreadWithHintNV.
func (s *state) reorderThreadNV(in *spirv.Instruction) string {
	k := 0
	if in.Opcode == spirv.OpReorderThreadWithHitObjectNV {
		if msg := s.hitObjectPointer(in, 0, spirv.OpTypeHitObjectNV); msg != "" {
			return msg
		}
		switch len(in.Operands) {
		case 1:
			return ""
		case 3:
		default:
			return "Hint and Bits are optional together i.e  Either both Hint and Bits should be provided or neither."
		}
		k = 1
	}
	if !s.isIntN(s.opType(in, k), 32) {
		return "Hint must be a 32-bit int scalar"
	}
	if !s.isIntN(s.opType(in, k+1), 32) {
		return "bits must be a 32-bit int scalar"
	}
	return ""
}

// rayReorderEXTOps reports whether rayReorderEXTPass can act on an instruction of opcode op
// (passGate runs it on no other: a new case there needs its opcode here).
func rayReorderEXTOps(op spirv.Opcode) bool {
	return rayReorderNVOps(op)
}

// rayReorderEXTPass is RayReorderEXTPass (SPV_EXT_shader_invocation_reorder):
// the NV rules for OpTypeHitObjectEXT, with the EXT-only commands and
// wordings.
func (s *state) rayReorderEXTPass(i int, in *spirv.Instruction) bool {
	op := in.Opcode
	var msg string
	switch op {
	case spirv.OpReorderThreadWithHintEXT, spirv.OpReorderThreadWithHitObjectEXT,
		spirv.OpHitObjectReorderExecuteShaderEXT, spirv.OpHitObjectTraceReorderExecuteEXT,
		spirv.OpHitObjectTraceMotionReorderExecuteEXT:
		s.limitModels(i, limReorderThread, op)
		msg = s.reorderCommandEXT(in)
	default:
		ok := true
		if msg, ok = s.hitObjectQueryEXT(in); !ok {
			msg, ok = s.hitObjectCommandEXT(in)
		}
		if !ok {
			return false
		}
		s.limitModels(i, limHitObject, op)
	}
	if msg == "" {
		return false
	}
	return s.fail(i, "", "%s", msg)
}

// hitObjectQueryEXT checks the EXT queries (Hit Object in operand 2); ok
// is false for other opcodes.
func (s *state) hitObjectQueryEXT(in *spirv.Instruction) (msg string, ok bool) {
	op, t := in.Opcode, in.TypeID
	rule := -1
	switch op {
	case spirv.OpHitObjectIsMissEXT, spirv.OpHitObjectIsHitEXT, spirv.OpHitObjectIsEmptyEXT:
		if !s.isBoolScalar(t) {
			return "expected Result Type to be bool scalar type", true
		}
		return s.hitObjectPointer(in, 2, spirv.OpTypeHitObjectEXT), true
	case spirv.OpHitObjectGetShaderRecordBufferHandleEXT:
		rule = hoIntVec2
	case spirv.OpHitObjectGetHitKindEXT, spirv.OpHitObjectGetPrimitiveIndexEXT, spirv.OpHitObjectGetGeometryIndexEXT,
		spirv.OpHitObjectGetInstanceIdEXT, spirv.OpHitObjectGetInstanceCustomIndexEXT,
		spirv.OpHitObjectGetShaderBindingTableRecordIndexEXT, spirv.OpHitObjectGetRayFlagsEXT:
		rule = hoInt
	case spirv.OpHitObjectGetCurrentTimeEXT, spirv.OpHitObjectGetRayTMaxEXT, spirv.OpHitObjectGetRayTMinEXT:
		rule = hoFloat
	case spirv.OpHitObjectGetObjectToWorldEXT, spirv.OpHitObjectGetWorldToObjectEXT:
		rule = hoTransform
	case spirv.OpHitObjectGetObjectRayOriginEXT, spirv.OpHitObjectGetObjectRayDirectionEXT,
		spirv.OpHitObjectGetWorldRayDirectionEXT, spirv.OpHitObjectGetWorldRayOriginEXT:
		rule = hoFloatVec3
	case spirv.OpHitObjectGetIntersectionTriangleVertexPositionsEXT:
		if msg := s.hitObjectPointer(in, 2, spirv.OpTypeHitObjectEXT); msg != "" {
			return msg, true
		}
		if s.vertexPositionsResult(t, op) != "" {
			return "Expected 3 element array of 32-bit 3 component float vectors as Result Type: " + opName(op), true
		}
		return "", true
	default:
		return "", false
	}
	if msg := s.hitObjectPointer(in, 2, spirv.OpTypeHitObjectEXT); msg != "" {
		return msg, true
	}
	return s.hitObjectResult(rule, t, op), true
}

// hitObjectCommandEXT checks the EXT commands limited to the models of
// OpTraceRayKHR; ok is false for other opcodes.
func (s *state) hitObjectCommandEXT(in *spirv.Instruction) (msg string, ok bool) {
	switch in.Opcode {
	case spirv.OpHitObjectGetAttributesEXT, spirv.OpHitObjectSetShaderBindingTableRecordIndexEXT,
		spirv.OpHitObjectExecuteShaderEXT, spirv.OpHitObjectRecordEmptyEXT, spirv.OpHitObjectRecordFromQueryEXT,
		spirv.OpHitObjectRecordMissEXT, spirv.OpHitObjectRecordMissMotionEXT,
		spirv.OpHitObjectTraceRayEXT, spirv.OpHitObjectTraceRayMotionEXT:
	default:
		return "", false
	}
	if msg := s.hitObjectPointer(in, 0, spirv.OpTypeHitObjectEXT); msg != "" {
		return msg, true
	}
	switch in.Opcode {
	case spirv.OpHitObjectGetAttributesEXT:
		return s.hitObjectAttrEXT(in, 1), true
	case spirv.OpHitObjectSetShaderBindingTableRecordIndexEXT:
		if !s.isIntN(s.opType(in, 1), 32) {
			return "SBT Index must be a 32-bit integer scalar", true
		}
	case spirv.OpHitObjectExecuteShaderEXT:
		return s.payloadEXT(in, 1), true
	case spirv.OpHitObjectRecordFromQueryEXT:
		return s.recordFromQueryEXT(in), true
	case spirv.OpHitObjectRecordMissEXT, spirv.OpHitObjectRecordMissMotionEXT:
		return s.recordMissEXT(in), true
	case spirv.OpHitObjectTraceRayEXT:
		return s.hitObjectParams(in, hoTraceParams(11)), true
	case spirv.OpHitObjectTraceRayMotionEXT:
		return s.traceMotionEXT(in), true
	}
	return "", true
}

// hitObjectAttrEXT: operand k must be an OpVariable of storage class
// HitObjectAttributeEXT.
func (s *state) hitObjectAttrEXT(in *spirv.Instruction, k int) string {
	if sc, ok := s.variableStorage(s.opWord(in, k)); !ok || sc != spirv.StorageClassHitObjectAttributeEXT {
		return "Hit Object Attributes id must be a OpVariable of storage class HitObjectAttributeEXT"
	}
	return ""
}

// payloadEXT: operand k must be an OpVariable of storage class
// RayPayloadKHR or IncomingRayPayloadKHR.
func (s *state) payloadEXT(in *spirv.Instruction, k int) string {
	if sc, ok := s.variableStorage(s.opWord(in, k)); !ok ||
		sc != spirv.StorageClassRayPayloadKHR && sc != spirv.StorageClassIncomingRayPayloadKHR {
		return "Payload must be a OpVariable of storage class RayPayloadKHR or IncomingRayPayloadKHR"
	}
	return ""
}

// recordFromQueryEXT checks OpHitObjectRecordFromQueryEXT after its Hit
// Object: the Ray Query (a pointer to OpTypeRayQueryKHR, read as
// hitObjectPointer reads the Hit Object), the RayQueryKHR capability, the
// SBT Record Index, the attributes and the optional Hit Kind.
func (s *state) recordFromQueryEXT(in *spirv.Instruction) string {
	switch s.pointerTo(in, 1, spirv.OpTypeRayQueryKHR) {
	case ptNotPointer:
		return "Ray Query must be a pointer"
	case ptWrongType:
		return "Ray Query must be a pointer to OpTypeRayQueryKHR"
	}
	if !s.caps.has(spirv.CapabilityRayQueryKHR) {
		return opName(in.Opcode) + ": requires RayQueryKHR capability"
	}
	if !s.isIntN(s.opType(in, 2), 32) {
		return "SBT Record Index must be a 32-bit integer scalar"
	}
	if msg := s.hitObjectAttrEXT(in, 3); msg != "" {
		return msg
	}
	if len(in.Operands) > 4 && !s.isUint32(s.opType(in, 4)) {
		return "Hit Kind must be a 32-bit unsigned int scalar"
	}
	return ""
}

// recordMissEXT checks OpHitObjectRecordMissEXT and its motion variant
// after the Hit Object: Ray Flags, Miss Index, the ray, Current Time.
func (s *state) recordMissEXT(in *spirv.Instruction) string {
	if !s.isIntN(s.opType(in, 1), 32) {
		return "Ray Flags must be a 32-bit int scalar"
	}
	if !s.isUint32(s.opType(in, 2)) {
		return "Miss Index must be a 32-bit unsigned int scalar"
	}
	if msg := s.rayGeometry(in, 3); msg != "" {
		return msg
	}
	if in.Opcode == spirv.OpHitObjectRecordMissMotionEXT && !s.isFloatN(s.opType(in, 7), 32) {
		return "Current Time must be a 32-bit float scalar"
	}
	return ""
}

// traceMotionEXT: the common trace parameters (the payload after the
// Current Time), then the Current Time.
func (s *state) traceMotionEXT(in *spirv.Instruction) string {
	if msg := s.hitObjectParams(in, hoTraceParams(12)); msg != "" {
		return msg
	}
	if !s.isFloatN(s.opType(in, 11), 32) {
		return "Current Time must be a 32-bit float scalar"
	}
	return ""
}

// reorderCommandEXT checks the EXT commands limited to RayGenerationKHR:
// each has optional Hint and Bits operands after its own.
func (s *state) reorderCommandEXT(in *spirv.Instruction) string {
	if in.Opcode == spirv.OpReorderThreadWithHintEXT {
		return s.hintBitsEXT(in, 0)
	}
	if msg := s.hitObjectPointer(in, 0, spirv.OpTypeHitObjectEXT); msg != "" {
		return msg
	}
	hint := 1
	switch in.Opcode {
	case spirv.OpHitObjectReorderExecuteShaderEXT:
		if msg := s.payloadEXT(in, 1); msg != "" {
			return msg
		}
		hint = 2
	case spirv.OpHitObjectTraceReorderExecuteEXT:
		if msg := s.hitObjectParams(in, hoTraceParams(11)); msg != "" {
			return msg
		}
		hint = 12
	case spirv.OpHitObjectTraceMotionReorderExecuteEXT:
		if msg := s.traceMotionEXT(in); msg != "" {
			return msg
		}
		hint = 13
	}
	switch len(in.Operands) {
	case hint:
		return ""
	case hint + 2:
		return s.hintBitsEXT(in, hint)
	}
	return "Hint and Bits are optional together i.e  Either both Hint and Bits should be provided or neither."
}

// hintBitsEXT checks Hint and Bits, operands k and k+1.
func (s *state) hintBitsEXT(in *spirv.Instruction, k int) string {
	if !s.isIntN(s.opType(in, k), 32) {
		return "Hint must be a 32-bit int scalar"
	}
	if !s.isIntN(s.opType(in, k+1), 32) {
		return "Bits must be a 32-bit int scalar"
	}
	return ""
}
