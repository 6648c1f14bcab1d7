package val

import "spvx/spirv"

// The ray-tracing family (SPV_KHR_ray_tracing), as SPIRV-Tools'
// RayTracingPass (validate_ray_tracing.cpp) checks it: the operand types
// of OpTraceRayKHR, OpReportIntersectionKHR and OpExecuteCallableKHR,
// their payload and callable-data variables, and the execution models
// each may run in. OpIgnoreIntersectionKHR and OpTerminateRayKHR are
// terminators; their models are registered with the CFG's in
// execution_limitations.go.
//
// Also here: the execution models of the storage classes
// (ValidationState_t::RegisterStorageClassConsumer): an instruction in a
// function naming a pointer type or a variable of a ray-tracing storage
// class (or, in Vulkan, Output, Workgroup or TileImageEXT) limits the
// function to the models the storage class is for.

// rayTracingPass is RayTracingPass, plus the storage-class consumers of
// instruction i (registered by spirv-val before its second loop; they
// are sorted first within each function, see storageConsumer).
func (s *state) rayTracingPass(i int, in *spirv.Instruction) bool {
	s.rtStorageConsumer(i, in)
	var msg string
	switch in.Opcode {
	case spirv.OpTraceRayKHR:
		s.limitModels(i, limTraceRay, in.Opcode)
		msg = s.traceRay(in)
	case spirv.OpReportIntersectionKHR:
		s.limitModels(i, limReportIntersection, in.Opcode)
		msg = s.reportIntersection(in)
	case spirv.OpExecuteCallableKHR:
		s.limitModels(i, limExecuteCallable, in.Opcode)
		msg = s.executeCallable(in)
	}
	if msg == "" {
		return false
	}
	return s.fail(i, "", "%s", msg)
}

// traceRay is ValidateTraceRay's operand checks, in its order.
func (s *state) traceRay(in *spirv.Instruction) string {
	if s.typeOp(s.opType(in, 0)) != spirv.OpTypeAccelerationStructureKHR {
		return "Expected Acceleration Structure to be of type OpTypeAccelerationStructureKHR"
	}
	if !s.isIntN(s.opType(in, 1), 32) {
		return "Ray Flags must be a 32-bit int scalar"
	}
	if !s.isIntN(s.opType(in, 2), 32) {
		return "Cull Mask must be a 32-bit int scalar"
	}
	if !s.opacityMicromapFlagAllowed(s.opWord(in, 1)) {
		return "The ForceOpacityMicromap2StateKHR flag requires the RayTracingOpacityMicromapKHR and RayQueryKHR or RayTracingKHR capabilities"
	}
	if msg := s.sbtOperands(in, 3); msg != "" {
		return msg
	}
	if msg := s.rayGeometry(in, 6); msg != "" {
		return msg
	}
	return s.payloadVariable(s.opWord(in, 10))
}

// sbtOperands checks SBT Offset, SBT Stride and Miss Index, operands k
// to k+2: 32-bit integers of either signedness.
func (s *state) sbtOperands(in *spirv.Instruction, k int) string {
	switch {
	case !s.isIntN(s.opType(in, k), 32):
		return "SBT Offset must be a 32-bit int scalar"
	case !s.isIntN(s.opType(in, k+1), 32):
		return "SBT Stride must be a 32-bit int scalar"
	case !s.isIntN(s.opType(in, k+2), 32):
		return "Miss Index must be a 32-bit int scalar"
	}
	return ""
}

// rayGeometry checks Ray Origin, Ray TMin, Ray Direction and Ray TMax,
// operands k to k+3.
func (s *state) rayGeometry(in *spirv.Instruction, k int) string {
	switch {
	case !s.isFloatVecN(s.opType(in, k), 3):
		return "Ray Origin must be a 32-bit float 3-component vector"
	case !s.isFloatN(s.opType(in, k+1), 32):
		return "Ray TMin must be a 32-bit float scalar"
	case !s.isFloatVecN(s.opType(in, k+2), 3):
		return "Ray Direction must be a 32-bit float 3-component vector"
	case !s.isFloatN(s.opType(in, k+3), 32):
		return "Ray TMax must be a 32-bit float scalar"
	}
	return ""
}

// payloadVariable: the Payload must be an OpVariable of the RayPayloadKHR
// or IncomingRayPayloadKHR storage class.
func (s *state) payloadVariable(id uint32) string {
	sc, ok := s.variableStorage(id)
	switch {
	case !ok:
		return "Payload must be the result of a OpVariable"
	case sc != spirv.StorageClassRayPayloadKHR && sc != spirv.StorageClassIncomingRayPayloadKHR:
		return "Payload must have storage class RayPayloadKHR or IncomingRayPayloadKHR"
	}
	return ""
}

// variableStorage is the storage class of id's definition if that is an
// OpVariable; ok is false otherwise.
func (s *state) variableStorage(id uint32) (spirv.StorageClass, bool) {
	j, ok := s.x.Def(id)
	if !ok {
		return 0, false
	}
	def := s.m.Inst(j)
	if def.Opcode != spirv.OpVariable || len(def.Words) < 4 {
		return 0, false
	}
	return spirv.StorageClass(def.Words[3]), true
}

// reportIntersection is ValidateReportIntersection. Its "Hit must be a
// 32-bit int scalar" for a float operand is spirv-val's wording.
func (s *state) reportIntersection(in *spirv.Instruction) string {
	switch {
	case !s.isBoolScalar(in.TypeID):
		return "expected Result Type to be bool scalar type"
	case !s.isFloatN(s.opType(in, 2), 32):
		return "Hit must be a 32-bit int scalar"
	case !s.isUintScalar(s.opType(in, 3)) || s.bitWidth(s.opType(in, 3)) != 32:
		return "Hit Kind must be a 32-bit unsigned int scalar"
	}
	return ""
}

// executeCallable is ValidateExecuteCallable.
func (s *state) executeCallable(in *spirv.Instruction) string {
	t := s.opType(in, 0)
	if !s.isUintScalar(t) || s.bitWidth(t) != 32 {
		return "SBT Index must be a 32-bit unsigned int scalar"
	}
	sc, ok := s.variableStorage(s.opWord(in, 1))
	switch {
	case !ok:
		return "Callable Data must be the result of a OpVariable"
	case sc != spirv.StorageClassCallableDataKHR && sc != spirv.StorageClassIncomingCallableDataKHR:
		return "Callable Data must have storage class CallableDataKHR or IncomingCallableDataKHR"
	}
	return ""
}

// rtStorageConsumer registers, for an instruction inside a function, the
// limitation of each ray-tracing storage class it names through an id
// operand (the Result Type included) defined by an OpTypePointer or an
// OpVariable, as spirv-val's RegisterInstruction does. OpFunction itself
// is not in its function's body there.
func (s *state) rtStorageConsumer(i int, in *spirv.Instruction) {
	lims := s.getStorageLimits()
	if len(lims) == 0 || in.Opcode == spirv.OpFunction { // limitModels skips instructions outside functions
		return
	}
	for _, o := range in.Operands {
		if o.Kind != spirv.OperandKindIdRef && o.Kind != spirv.OperandKindIdResultType || int(o.Offset) >= len(in.Words) {
			continue
		}
		if w := in.Words[o.Offset]; w < uint32(len(lims)) && lims[w] != limNone {
			s.limitModels(i, lims[w], in.Opcode)
		}
	}
}

// getStorageLimits gives, by id, the limitation (storageLimit) that the
// storage class of each pointer type and variable puts on the execution
// models of the functions using it, limNone for the others; it ends at
// the last id that has one, so most modules get an empty table. Computed
// once, before the second loop's forks, from the module-level
// declarations (a variable inside a function is a Function one, which
// limits nothing).
func (s *state) getStorageLimits() []limitKind {
	if s.storageLimitsDone {
		return s.storageLimits
	}
	s.storageLimitsDone = true
	var lims []limitKind
declarations:
	for j := 0; j < s.m.Len(); j++ {
		switch s.m.Opcode(j) {
		case spirv.OpFunction:
			break declarations
		case spirv.OpTypePointer, spirv.OpVariable:
		default:
			continue // most of the module: read no more than the opcode
		}
		def := s.m.Inst(j)
		var sc spirv.StorageClass
		switch {
		case def.Opcode == spirv.OpTypePointer && len(def.Words) > 2:
			sc = spirv.StorageClass(def.Words[2])
		case def.Opcode == spirv.OpVariable && len(def.Words) > 3:
			sc = spirv.StorageClass(def.Words[3])
		default:
			continue
		}
		if kind := s.storageLimit(sc); kind != limNone {
			if first, ok := s.x.Def(def.ResultID); ok && first == j {
				if id := int(def.ResultID); id >= len(lims) {
					lims = append(lims, make([]limitKind, id+1-len(lims))...)
				}
				lims[def.ResultID] = kind
			}
		}
	}
	s.storageLimits = lims
	return lims
}

// storageLimit is the limitation a storage class puts on the functions
// using it, limNone for none: the ray-tracing storage classes, and in
// Vulkan environments Output, Workgroup and TileImageEXT.
// TaskPayloadWorkgroupEXT is the mesh family's.
func (s *state) storageLimit(sc spirv.StorageClass) limitKind {
	if s.opts.Env.IsVulkan() {
		switch sc {
		case spirv.StorageClassOutput:
			return limOutput
		case spirv.StorageClassWorkgroup:
			return limWorkgroup
		case spirv.StorageClassTileImageEXT:
			return limTileImage
		}
	}
	switch sc {
	case spirv.StorageClassCallableDataKHR:
		return limCallableData
	case spirv.StorageClassIncomingCallableDataKHR:
		return limIncomingCallableData
	case spirv.StorageClassRayPayloadKHR:
		return limRayPayload
	case spirv.StorageClassHitAttributeKHR:
		return limHitAttribute
	case spirv.StorageClassIncomingRayPayloadKHR:
		return limIncomingRayPayload
	case spirv.StorageClassShaderRecordBufferKHR:
		return limShaderRecordBuffer
	case spirv.StorageClassHitObjectAttributeNV:
		return limHitObjectAttributeNV
	case spirv.StorageClassHitObjectAttributeEXT:
		return limHitObjectAttributeEXT
	}
	return limNone
}

// storageConsumer reports whether k is the limitation of a storage
// class's consumers, which spirv-val registers before the others.
func (k limitKind) storageConsumer() bool {
	return k >= limOutput && k <= limHitObjectAttributeEXT
}
