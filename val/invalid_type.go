package val

import "spvx/spirv"

// This file holds validate_invalid_type.cpp's deny-list (OCP-MX-RULES.md
// §2.2 C), which spirv-val runs last for each instruction: arithmetic,
// derivative, atomic, group and comparison instructions must not take or
// produce BFloat16, FP8 (E4M3/E5M2) or OCP microscaling types. The BF16 and
// FP8 checks are shallow (the type itself, a vector of it, a cooperative
// matrix of it, a matrix's component); the OCP check goes through every
// composite and pointer. With Options.SpecStrict, the extensions' allow-list
// applies as well (specstrict.go).

// checkInvalid is CheckInvalidScalarOrCompositeType.
func (s *state) checkInvalid(i int, in *spirv.Instruction, t uint32) bool {
	name := opName(in.Opcode)
	shallow := func(scalar func(uint32) bool) bool {
		if scalar == nil {
			return false
		}
		if s.scalarVectorOrCoopMat(t, scalar) {
			return true
		}
		ty := s.typeOf(t)
		return ty != nil && (ty.Kind == spirv.TypeMatrix || ty.Op == spirv.OpTypeCooperativeMatrixNV) && scalar(s.plainComponentType(t))
	}
	switch {
	case shallow(s.isBF16Scalar):
		return s.fail(i, "", "%s doesn't support BFloat16 type.", name)
	case shallow(s.isFP8Scalar):
		return s.fail(i, "", "%s doesn't support FP8 E4M3/E5M2 types.", name)
	case s.containsOCP(t):
		return s.fail(i, "", "%s doesn't support OCP microscaling types.", name)
	}
	return false
}

// checkInvalidType is the operand form: IsBfloat16Type, IsFP8Type, then
// ContainsOCPMicroscalingType.
func (s *state) checkInvalidType(i int, in *spirv.Instruction, t uint32, bf16, fp8 func(uint32) bool) bool {
	name := opName(in.Opcode)
	switch {
	case bf16 != nil && bf16(t):
		return s.fail(i, "", "%s doesn't support BFloat16 type.", name)
	case fp8(t):
		return s.fail(i, "", "%s doesn't support FP8 E4M3/E5M2 types.", name)
	case s.containsOCP(t):
		return s.fail(i, "", "%s doesn't support OCP microscaling types.", name)
	}
	return false
}

func (s *state) invalidTypePass(i int, in *spirv.Instruction) bool {
	switch in.Opcode {
	case spirv.OpFAdd, spirv.OpFSub, spirv.OpFMul, spirv.OpFDiv, spirv.OpFRem, spirv.OpFMod, spirv.OpFNegate,
		spirv.OpFmaKHR, spirv.OpVectorTimesScalar, spirv.OpMatrixTimesScalar, spirv.OpVectorTimesMatrix,
		spirv.OpMatrixTimesVector, spirv.OpMatrixTimesMatrix, spirv.OpOuterProduct,
		spirv.OpDPdx, spirv.OpDPdy, spirv.OpFwidth, spirv.OpDPdxFine, spirv.OpDPdyFine, spirv.OpFwidthFine,
		spirv.OpDPdxCoarse, spirv.OpDPdyCoarse, spirv.OpFwidthCoarse,
		spirv.OpAtomicFAddEXT, spirv.OpAtomicFMinEXT, spirv.OpAtomicFMaxEXT, spirv.OpAtomicLoad, spirv.OpAtomicExchange,
		spirv.OpGroupNonUniformRotateKHR, spirv.OpGroupNonUniformBroadcast, spirv.OpGroupNonUniformShuffle,
		spirv.OpGroupNonUniformShuffleXor, spirv.OpGroupNonUniformShuffleUp, spirv.OpGroupNonUniformShuffleDown,
		spirv.OpGroupNonUniformQuadBroadcast, spirv.OpGroupNonUniformQuadSwap, spirv.OpGroupNonUniformBroadcastFirst,
		spirv.OpGroupNonUniformFAdd, spirv.OpGroupNonUniformFMul, spirv.OpGroupNonUniformFMin:
		if s.checkInvalid(i, in, in.TypeID) {
			return true
		}
	case spirv.OpCooperativeMatrixMulAddNV:
		if s.checkInvalid(i, in, in.TypeID) {
			return true
		}
		for k := 2; k <= 4; k++ {
			if s.checkInvalid(i, in, s.opType(in, k)) {
				return true
			}
		}
	case spirv.OpDot:
		if s.checkInvalidType(i, in, in.TypeID, nil, s.isFP8Type) {
			return true
		}
	case spirv.OpAtomicStore:
		if len(in.Words) > 4 {
			t := s.typeOfValue(in.Words[4])
			vec := func(scalar func(uint32) bool) func(uint32) bool {
				return func(t uint32) bool {
					ty := s.typeOf(t)
					return ty != nil && ty.Kind == spirv.TypeVector && scalar(ty.Elem)
				}
			}
			if s.checkInvalidType(i, in, t, vec(s.isBF16Scalar), vec(s.isFP8Scalar)) {
				return true
			}
		}
	case spirv.OpIsNan, spirv.OpIsInf, spirv.OpIsFinite, spirv.OpIsNormal, spirv.OpFOrdEqual, spirv.OpFUnordEqual,
		spirv.OpFOrdNotEqual, spirv.OpFUnordNotEqual, spirv.OpFOrdLessThan, spirv.OpFUnordLessThan,
		spirv.OpFOrdGreaterThan, spirv.OpFUnordGreaterThan, spirv.OpFOrdLessThanEqual, spirv.OpFUnordLessThanEqual,
		spirv.OpFOrdGreaterThanEqual, spirv.OpFUnordGreaterThanEqual, spirv.OpLessOrGreater, spirv.OpOrdered,
		spirv.OpUnordered, spirv.OpSignBitSet:
		if s.checkInvalidType(i, in, s.opType(in, 2), s.isBF16Type, s.isFP8Type) {
			return true
		}
	case spirv.OpGroupNonUniformAllEqual:
		if s.checkInvalidType(i, in, s.opType(in, 3), s.isBF16Type, s.isFP8Type) {
			return true
		}
	}
	if s.opts.SpecStrict {
		return s.specStrictPass(i, in)
	}
	return false
}
