package val

import "spvx/spirv"

// This file holds validate_non_uniform.cpp's type rules, as far as they
// exist here: the arithmetic, bitwise and logical group operations, the
// broadcasts and shuffles, and OpGroupNonUniformAllEqual. The execution
// scope checks that spirv-val runs first are not written yet.

func (s *state) isBoolScalar(t uint32) bool { return s.isKind(t, spirv.TypeBool) }

func (s *state) isBoolSV(t uint32) bool {
	ty := s.typeOf(t)
	return ty != nil && (ty.Kind == spirv.TypeBool || (ty.Kind == spirv.TypeVector && s.isBoolScalar(ty.Elem)))
}

func (s *state) isUnsignedIntSV(t uint32) bool {
	if !s.isIntSV(t) {
		return false
	}
	c := s.typeOf(s.componentType(t))
	return c != nil && !c.Signed
}

func (s *state) isUnsignedIntScalar(t uint32) bool {
	ty := s.typeOf(t)
	return ty != nil && ty.Kind == spirv.TypeInt && !ty.Signed
}

func (s *state) nonUniformPass(i int, in *spirv.Instruction) bool {
	res := in.TypeID
	switch in.Opcode {
	case spirv.OpGroupNonUniformAllEqual:
		if !s.isBoolScalar(res) {
			return s.fail(i, "", "Result must be a boolean scalar type")
		}
		if v := s.operandType(in, 3); !s.isFloatSV(v) && !s.isIntSV(v) && !s.isBoolSV(v) {
			return s.fail(i, "", "Value must be a scalar or vector of integer, floating-point, or boolean type")
		}
	case spirv.OpGroupNonUniformBroadcast, spirv.OpGroupNonUniformShuffle, spirv.OpGroupNonUniformShuffleXor,
		spirv.OpGroupNonUniformShuffleUp, spirv.OpGroupNonUniformShuffleDown, spirv.OpGroupNonUniformQuadBroadcast,
		spirv.OpGroupNonUniformQuadSwap, spirv.OpGroupNonUniformBroadcastFirst:
		if !s.isFloatSV(res) && !s.isIntSV(res) && !s.isBoolSV(res) {
			return s.fail(i, "", "Result must be a scalar or vector of integer, floating-point, or boolean type")
		}
		if s.operandType(in, 3) != res {
			return s.fail(i, "", "The type of Value must match the Result type")
		}
	case spirv.OpGroupNonUniformIAdd, spirv.OpGroupNonUniformFAdd, spirv.OpGroupNonUniformIMul, spirv.OpGroupNonUniformFMul,
		spirv.OpGroupNonUniformSMin, spirv.OpGroupNonUniformUMin, spirv.OpGroupNonUniformFMin, spirv.OpGroupNonUniformSMax,
		spirv.OpGroupNonUniformUMax, spirv.OpGroupNonUniformFMax, spirv.OpGroupNonUniformBitwiseAnd,
		spirv.OpGroupNonUniformBitwiseOr, spirv.OpGroupNonUniformBitwiseXor, spirv.OpGroupNonUniformLogicalAnd,
		spirv.OpGroupNonUniformLogicalOr, spirv.OpGroupNonUniformLogicalXor:
		return s.nonUniformArithmetic(i, in)
	}
	return false
}

func (s *state) nonUniformArithmetic(i int, in *spirv.Instruction) bool {
	res := in.TypeID
	switch in.Opcode {
	case spirv.OpGroupNonUniformFAdd, spirv.OpGroupNonUniformFMul, spirv.OpGroupNonUniformFMin, spirv.OpGroupNonUniformFMax:
		if !s.isFloatSV(res) {
			return s.fail(i, "", "Result must be a floating-point scalar or vector")
		}
	case spirv.OpGroupNonUniformLogicalAnd, spirv.OpGroupNonUniformLogicalOr, spirv.OpGroupNonUniformLogicalXor:
		if !s.isBoolSV(res) {
			return s.fail(i, "", "Result must be a boolean scalar or vector")
		}
	case spirv.OpGroupNonUniformUMin, spirv.OpGroupNonUniformUMax:
		if !s.isUnsignedIntSV(res) {
			return s.fail(i, "", "Result must be an unsigned integer scalar or vector")
		}
	default:
		if !s.isIntSV(res) {
			return s.fail(i, "", "Result must be an integer scalar or vector")
		}
	}
	if s.operandType(in, 4) != res {
		return s.fail(i, "", "The type of Value must match the Result type")
	}
	if len(in.Words) < 5 {
		return false
	}
	op := spirv.GroupOperation(in.Words[4])
	clustered := op == spirv.GroupOperationClusteredReduce
	partitioned := op == spirv.GroupOperationPartitionedReduceEXT || op == spirv.GroupOperationPartitionedInclusiveScanEXT ||
		op == spirv.GroupOperationPartitionedExclusiveScanEXT
	if len(in.Words) <= 6 {
		switch {
		case clustered:
			return s.fail(i, "", "ClusterSize must be present when Operation is ClusteredReduce")
		case partitioned:
			return s.fail(i, "", "Ballot must be present when Operation is PartitionedReduceNV, PartitionedInclusiveScanNV, or PartitionedExclusiveScanNV")
		}
		return false
	}
	t := s.typeOfValue(in.Words[6])
	if partitioned {
		if !s.isIntSV(t) || s.dimension(t) != 4 {
			return s.fail(i, "", "Ballot must be a 4-component integer vector")
		}
	} else if !s.isUnsignedIntScalar(t) {
		return s.fail(i, "", "ClusterSize must be an unsigned integer scalar")
	}
	return false
}
