package val

import "spvx/spirv"

// This file holds validate_logical_pointers.cpp's operand and result
// rules (ValidateLogicalPointers, which spirv-val runs last, in the Logical
// and PhysicalStorageBuffer64 addressing models unless
// --relax-logical-pointer): only the instructions listed may take a logical
// pointer (any pointer not in PhysicalStorageBuffer) as an id operand or
// return one, some of them only for StorageBuffer or Workgroup pointers
// with the matching variable-pointers capability. The variable-pointer
// tracing rules (ValidateVariablePointers) are in variable_pointers.go.

// logicalPointerOperandOK lists the instructions that take logical
// pointer operands without a capability.
func logicalPointerOperandOK(op spirv.Opcode) bool {
	switch op {
	case spirv.OpLoad, spirv.OpStore, spirv.OpAccessChain, spirv.OpInBoundsAccessChain,
		spirv.OpFunctionCall, spirv.OpImageTexelPointer, spirv.OpCopyMemory, spirv.OpCopyObject,
		spirv.OpArrayLength, spirv.OpExtInst, spirv.OpDecorate, spirv.OpDecorateId,
		spirv.OpGroupDecorate, spirv.OpEntryPoint, spirv.OpName, spirv.OpDecorateString,
		spirv.OpUntypedArrayLengthKHR, spirv.OpUntypedAccessChainKHR,
		spirv.OpUntypedInBoundsAccessChainKHR, spirv.OpCopyMemorySized, spirv.OpCooperativeMatrixLoadKHR,
		spirv.OpCooperativeMatrixLoadNV, spirv.OpCooperativeMatrixStoreKHR,
		spirv.OpCooperativeMatrixStoreNV, spirv.OpTraceRayKHR, spirv.OpExecuteCallableKHR,
		spirv.OpRayQueryConfirmIntersectionKHR, spirv.OpRayQueryInitializeKHR,
		spirv.OpRayQueryTerminateKHR, spirv.OpRayQueryGenerateIntersectionKHR,
		spirv.OpRayQueryProceedKHR, spirv.OpRayQueryGetIntersectionTypeKHR,
		spirv.OpRayQueryGetRayTMinKHR, spirv.OpRayQueryGetRayFlagsKHR,
		spirv.OpRayQueryGetIntersectionTKHR, spirv.OpRayQueryGetIntersectionInstanceCustomIndexKHR,
		spirv.OpRayQueryGetIntersectionInstanceIdKHR,
		spirv.OpRayQueryGetIntersectionInstanceShaderBindingTableRecordOffsetKHR,
		spirv.OpRayQueryGetIntersectionGeometryIndexKHR,
		spirv.OpRayQueryGetIntersectionPrimitiveIndexKHR, spirv.OpRayQueryGetIntersectionBarycentricsKHR,
		spirv.OpRayQueryGetIntersectionFrontFaceKHR,
		spirv.OpRayQueryGetIntersectionCandidateAABBOpaqueKHR,
		spirv.OpRayQueryGetIntersectionObjectRayDirectionKHR,
		spirv.OpRayQueryGetIntersectionObjectRayOriginKHR, spirv.OpRayQueryGetWorldRayDirectionKHR,
		spirv.OpRayQueryGetWorldRayOriginKHR, spirv.OpRayQueryGetIntersectionObjectToWorldKHR,
		spirv.OpRayQueryGetIntersectionWorldToObjectKHR,
		spirv.OpRayQueryGetIntersectionTriangleVertexPositionsKHR, spirv.OpRayQueryGetClusterIdNV,
		spirv.OpHitObjectGetClusterIdNV, spirv.OpTraceMotionNV, spirv.OpTraceRayMotionNV,
		spirv.OpRayQueryGetIntersectionSpherePositionNV, spirv.OpRayQueryGetIntersectionSphereRadiusNV,
		spirv.OpRayQueryGetIntersectionLSSPositionsNV, spirv.OpRayQueryGetIntersectionLSSRadiiNV,
		spirv.OpRayQueryGetIntersectionLSSHitValueNV, spirv.OpRayQueryIsSphereHitNV,
		spirv.OpRayQueryIsLSSHitNV, spirv.OpHitObjectGetSpherePositionNV,
		spirv.OpHitObjectGetSphereRadiusNV, spirv.OpHitObjectGetLSSPositionsNV,
		spirv.OpHitObjectGetLSSRadiiNV, spirv.OpHitObjectIsSphereHitNV, spirv.OpHitObjectIsLSSHitNV,
		spirv.OpReorderThreadWithHitObjectNV, spirv.OpHitObjectTraceRayNV,
		spirv.OpHitObjectTraceRayMotionNV, spirv.OpHitObjectRecordHitNV,
		spirv.OpHitObjectRecordHitMotionNV, spirv.OpHitObjectRecordHitWithIndexNV,
		spirv.OpHitObjectRecordHitWithIndexMotionNV, spirv.OpHitObjectRecordMissNV,
		spirv.OpHitObjectRecordMissMotionNV, spirv.OpHitObjectRecordEmptyNV,
		spirv.OpHitObjectExecuteShaderNV, spirv.OpHitObjectGetCurrentTimeNV,
		spirv.OpHitObjectGetAttributesNV, spirv.OpHitObjectGetHitKindNV,
		spirv.OpHitObjectGetPrimitiveIndexNV, spirv.OpHitObjectGetGeometryIndexNV,
		spirv.OpHitObjectGetInstanceIdNV, spirv.OpHitObjectGetInstanceCustomIndexNV,
		spirv.OpHitObjectGetObjectRayOriginNV, spirv.OpHitObjectGetObjectRayDirectionNV,
		spirv.OpHitObjectGetWorldRayDirectionNV, spirv.OpHitObjectGetWorldRayOriginNV,
		spirv.OpHitObjectGetObjectToWorldNV, spirv.OpHitObjectGetWorldToObjectNV,
		spirv.OpHitObjectGetRayTMaxNV, spirv.OpHitObjectGetRayTMinNV,
		spirv.OpHitObjectGetShaderBindingTableRecordIndexNV,
		spirv.OpHitObjectGetShaderRecordBufferHandleNV, spirv.OpHitObjectIsEmptyNV,
		spirv.OpHitObjectIsHitNV, spirv.OpHitObjectIsMissNV, spirv.OpHitObjectRecordFromQueryEXT,
		spirv.OpHitObjectRecordMissEXT, spirv.OpHitObjectRecordMissMotionEXT,
		spirv.OpHitObjectGetIntersectionTriangleVertexPositionsEXT, spirv.OpHitObjectGetRayFlagsEXT,
		spirv.OpHitObjectSetShaderBindingTableRecordIndexEXT, spirv.OpHitObjectReorderExecuteShaderEXT,
		spirv.OpHitObjectTraceReorderExecuteEXT, spirv.OpHitObjectTraceMotionReorderExecuteEXT,
		spirv.OpReorderThreadWithHintEXT, spirv.OpReorderThreadWithHitObjectEXT,
		spirv.OpHitObjectTraceRayEXT, spirv.OpHitObjectTraceRayMotionEXT,
		spirv.OpHitObjectRecordEmptyEXT, spirv.OpHitObjectExecuteShaderEXT,
		spirv.OpHitObjectGetCurrentTimeEXT, spirv.OpHitObjectGetAttributesEXT,
		spirv.OpHitObjectGetHitKindEXT, spirv.OpHitObjectGetPrimitiveIndexEXT,
		spirv.OpHitObjectGetGeometryIndexEXT, spirv.OpHitObjectGetInstanceIdEXT,
		spirv.OpHitObjectGetInstanceCustomIndexEXT, spirv.OpHitObjectGetObjectRayOriginEXT,
		spirv.OpHitObjectGetObjectRayDirectionEXT, spirv.OpHitObjectGetWorldRayDirectionEXT,
		spirv.OpHitObjectGetWorldRayOriginEXT, spirv.OpHitObjectGetObjectToWorldEXT,
		spirv.OpHitObjectGetWorldToObjectEXT, spirv.OpHitObjectGetRayTMaxEXT,
		spirv.OpHitObjectGetRayTMinEXT, spirv.OpHitObjectGetShaderBindingTableRecordIndexEXT,
		spirv.OpHitObjectGetShaderRecordBufferHandleEXT, spirv.OpHitObjectIsEmptyEXT,
		spirv.OpHitObjectIsHitEXT, spirv.OpHitObjectIsMissEXT, spirv.OpRawAccessChainNV,
		spirv.OpCooperativeMatrixLoadTensorNV, spirv.OpCooperativeMatrixStoreTensorNV,
		spirv.OpCooperativeVectorLoadNV, spirv.OpCooperativeVectorStoreNV,
		spirv.OpCooperativeVectorMatrixMulNV, spirv.OpCooperativeVectorMatrixMulAddNV,
		spirv.OpCooperativeVectorOuterProductAccumulateNV,
		spirv.OpCooperativeVectorReduceSumAccumulateNV, spirv.OpEmitMeshTasksEXT,
		spirv.OpEnqueueNodePayloadsAMDX, spirv.OpNodePayloadArrayLengthAMDX,
		spirv.OpIsNodePayloadValidAMDX, spirv.OpFinishWritingNodePayloadAMDX,
		spirv.OpPredicatedLoadINTEL, spirv.OpPredicatedStoreINTEL, spirv.OpGraphEntryPointARM,
		spirv.OpBufferPointerEXT, spirv.OpUntypedImageTexelPointerEXT:
		return true
	}
	return false
}

// logicalPointerOperandVP lists the instructions that take logical pointer
// operands with a variable-pointers capability.
func logicalPointerOperandVP(op spirv.Opcode) bool {
	switch op {
	case spirv.OpReturnValue, spirv.OpPtrAccessChain, spirv.OpPtrEqual, spirv.OpPtrNotEqual,
		spirv.OpPtrDiff, spirv.OpSelect, spirv.OpPhi, spirv.OpVariable, spirv.OpUntypedPtrAccessChainKHR:
		return true
	}
	return false
}

// logicalPointerReturnOK lists the instructions that may return a logical
// pointer without a capability.
func logicalPointerReturnOK(op spirv.Opcode) bool {
	switch op {
	case spirv.OpVariable, spirv.OpAccessChain, spirv.OpInBoundsAccessChain, spirv.OpFunctionParameter,
		spirv.OpImageTexelPointer, spirv.OpCopyObject, spirv.OpUndef,
		spirv.OpConstantFunctionPointerINTEL, spirv.OpUntypedAccessChainKHR,
		spirv.OpUntypedInBoundsAccessChainKHR, spirv.OpUntypedVariableKHR, spirv.OpRawAccessChainNV,
		spirv.OpAllocateNodePayloadsAMDX, spirv.OpBufferPointerEXT, spirv.OpUntypedImageTexelPointerEXT:
		return true
	}
	return false
}

// logicalPointerReturnVP lists the instructions that may return a logical
// pointer with a variable-pointers capability.
func logicalPointerReturnVP(op spirv.Opcode) bool {
	switch op {
	case spirv.OpSelect, spirv.OpPhi, spirv.OpFunctionCall, spirv.OpPtrAccessChain, spirv.OpLoad,
		spirv.OpConstantNull, spirv.OpFunction, spirv.OpUntypedPtrAccessChainKHR:
		return true
	}
	return false
}

// logicalPointerType returns the storage class of t if it is a logical
// pointer type (IsLogicalPointer).
func (s *state) logicalPointerType(t uint32) (spirv.StorageClass, bool) {
	ty := s.typeOf(t)
	if ty == nil || (ty.Op != spirv.OpTypePointer && ty.Op != spirv.OpTypeUntypedPointerKHR) {
		return 0, false
	}
	sc := s.storageOf(ty)
	return sc, sc != spirv.StorageClassPhysicalStorageBuffer
}

func (s *state) variablePointerStorage(sc spirv.StorageClass) bool {
	return (s.caps.has(spirv.CapabilityVariablePointersStorageBuffer) && sc == spirv.StorageClassStorageBuffer) ||
		(s.caps.has(spirv.CapabilityVariablePointers) && sc == spirv.StorageClassWorkgroup)
}

// logicalPointers is ValidateLogicalPointers' operand and result checks.
func (s *state) logicalPointers() bool {
	am := s.x.AddressingModel
	if (am != spirv.AddressingModelLogical && am != spirv.AddressingModelPhysicalStorageBuffer64) || s.opts.RelaxLogicalPointer {
		return false
	}
	vp := s.newVarPointers()
	for i := 0; i < s.m.Len(); i++ {
		in := s.m.Inst(i)
		// Operands.
		has := false
		var sc spirv.StorageClass
		// Instructions that may take any logical pointer need no look at
		// their operands.
		anyOK := logicalPointerOperandOK(in.Opcode)
		for _, o := range in.Operands {
			if anyOK {
				break
			}
			if o.Kind != spirv.OperandKindIdRef {
				continue
			}
			if c, ok := s.logicalPointerType(s.x.ValueType(in.Words[o.Offset])); ok {
				has, sc = true, c
				break
			}
		}
		if has {
			var failed bool
			switch {
			case logicalPointerOperandVP(in.Opcode):
				if !s.variablePointerStorage(sc) {
					failed = s.fail(i, "", "Instruction may only have a logical pointer operand in the StorageBuffer or Workgroup storage classes with appropriate variable pointers capability")
				}
			case in.Opcode.Info() != nil && in.Opcode.Info().Class == "Atomic":
			default:
				failed = s.fail(i, "", "Instruction may not have a logical pointer operand")
			}
			if failed && s.stopped() {
				return true
			}
		}
		if s.logicalPointerResult(i, &in) && s.stopped() {
			return true
		}
		if s.variablePointerRules(vp, i, &in) && s.stopped() {
			return true
		}
	}
	return false
}

// logicalPointerResult is ValidateLogicalPointerReturns for instruction
// i.
func (s *state) logicalPointerResult(i int, in *spirv.Instruction) bool {
	if in.TypeID == 0 || in.ResultID == 0 {
		return false
	}
	rsc, ok := s.logicalPointerType(in.TypeID)
	if !ok || logicalPointerReturnOK(in.Opcode) {
		return false
	}
	if !logicalPointerReturnVP(in.Opcode) {
		return s.fail(i, "", "Instruction may not return a logical pointer")
	}
	if !s.variablePointerStorage(rsc) {
		return s.fail(i, "", "Instruction may only return a logical pointer in the StorageBuffer or Workgroup storage classes with appropriate variable pointers capability")
	}
	return false
}
