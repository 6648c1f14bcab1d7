package val

import "spvx/spirv"

// This file holds validate_non_uniform.cpp's rules: the execution scope
// of every non-uniform group operation (scope.go), then each opcode's
// operand types: elect, any/all/all-equal, broadcasts and shuffles (with
// the constant Id of SPIR-V 1.4 and earlier), ballots and their bit
// queries, the arithmetic, bitwise and logical group operations with
// their ClusterSize or Ballot, and OpGroupNonUniformRotateKHR.

// nonUniformOps reports whether nonUniformPass can act on an instruction of opcode op
// (passGate runs it on no other: a new case there needs its opcode here).
func nonUniformOps(op spirv.Opcode) bool {
	return isNonUniformGroupOp(op) || opNamed(op, "OpGroupNonUniform")
}

func (s *state) nonUniformPass(i int, in *spirv.Instruction) bool {
	res := in.TypeID
	op := in.Opcode
	if isNonUniformGroupOp(op) && op != spirv.OpGroupNonUniformQuadAllKHR && op != spirv.OpGroupNonUniformQuadAnyKHR &&
		len(in.Words) > 3 && s.executionScope(i, in, in.Words[3]) {
		return true
	}
	switch op {
	case spirv.OpGroupNonUniformElect:
		if !s.isBoolScalar(res) {
			return s.fail(i, "", "Result must be a boolean scalar type")
		}
	case spirv.OpGroupNonUniformAny, spirv.OpGroupNonUniformAll:
		if !s.isBoolScalar(res) {
			return s.fail(i, "", "Result must be a boolean scalar type")
		}
		if !s.isBoolScalar(s.opType(in, 3)) {
			return s.fail(i, "", "Predicate must be a boolean scalar type")
		}
	case spirv.OpGroupNonUniformBallot:
		if !s.literalVectorOf(res, s.isUintScalar, 4) {
			return s.fail(i, "", "Result must be a 4-component unsigned integer vector")
		}
		if !s.isBoolScalar(s.opType(in, 3)) {
			return s.fail(i, "", "Predicate must be a boolean scalar")
		}
	case spirv.OpGroupNonUniformInverseBallot, spirv.OpGroupNonUniformBallotBitExtract:
		if !s.isBoolScalar(res) {
			return s.fail(i, "", "Result must be a boolean scalar")
		}
		if !s.literalVectorOf(s.opType(in, 3), s.isUintScalar, 4) {
			return s.fail(i, "", "Value must be a 4-component unsigned integer vector")
		}
		if op == spirv.OpGroupNonUniformBallotBitExtract && !s.isUintScalar(s.opType(in, 4)) {
			return s.fail(i, "", "Id must be an unsigned integer scalar")
		}
	case spirv.OpGroupNonUniformBallotBitCount:
		if !s.isUintScalar(res) {
			return s.fail(i, "", "Expected Result Type to be an unsigned integer type scalar.")
		}
		if !s.literalVectorOf(s.opType(in, 4), s.isUintScalar, 4) {
			return s.fail(i, "", "Expected Value to be a vector of four components of integer type scalar")
		}
		if s.opts.Env.IsVulkan() && len(in.Words) > 4 {
			switch spirv.GroupOperation(in.Words[4]) {
			case spirv.GroupOperationReduce, spirv.GroupOperationInclusiveScan, spirv.GroupOperationExclusiveScan:
			default:
				return s.fail(i, s.vuid("VUID-StandaloneSpirv-OpGroupNonUniformBallotBitCount-04685"),
					"In Vulkan: The OpGroupNonUniformBallotBitCount group operation must be only: Reduce, InclusiveScan, or ExclusiveScan.")
			}
		}
	case spirv.OpGroupNonUniformBallotFindLSB, spirv.OpGroupNonUniformBallotFindMSB:
		if !s.isUintScalar(res) {
			return s.fail(i, "", "Result must be an unsigned integer scalar")
		}
		if !s.literalVectorOf(s.opType(in, 3), s.isUintScalar, 4) {
			return s.fail(i, "", "Value must be a 4-component unsigned integer vector")
		}
	case spirv.OpGroupNonUniformRotateKHR:
		return s.nonUniformRotate(i, in)
	case spirv.OpGroupNonUniformAllEqual:
		if !s.isBoolScalar(res) {
			return s.fail(i, "", "Result must be a boolean scalar type")
		}
		if v := s.opType(in, 3); !s.isFloatScalarOrVector(v) && !s.isIntScalarOrVector(v) && !s.scalarOrLiteralVector(v, s.isBoolScalar) {
			return s.fail(i, "", "Value must be a scalar or vector of integer, floating-point, or boolean type")
		}
	case spirv.OpGroupNonUniformBroadcast, spirv.OpGroupNonUniformShuffle, spirv.OpGroupNonUniformShuffleXor,
		spirv.OpGroupNonUniformShuffleUp, spirv.OpGroupNonUniformShuffleDown, spirv.OpGroupNonUniformQuadBroadcast,
		spirv.OpGroupNonUniformQuadSwap, spirv.OpGroupNonUniformBroadcastFirst:
		if !s.isFloatScalarOrVector(res) && !s.isIntScalarOrVector(res) && !s.scalarOrLiteralVector(res, s.isBoolScalar) {
			return s.fail(i, "", "Result must be a scalar or vector of integer, floating-point, or boolean type")
		}
		if s.opType(in, 3) != res {
			return s.fail(i, "", "The type of Value must match the Result type")
		}
		if op != spirv.OpGroupNonUniformBroadcastFirst {
			return s.nonUniformIndex(i, in)
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
		if !s.isFloatScalarOrVector(res) {
			return s.fail(i, "", "Result must be a floating-point scalar or vector")
		}
	case spirv.OpGroupNonUniformLogicalAnd, spirv.OpGroupNonUniformLogicalOr, spirv.OpGroupNonUniformLogicalXor:
		if !s.scalarOrLiteralVector(res, s.isBoolScalar) {
			return s.fail(i, "", "Result must be a boolean scalar or vector")
		}
	case spirv.OpGroupNonUniformUMin, spirv.OpGroupNonUniformUMax:
		if !s.scalarOrLiteralVector(res, s.isUintScalar) {
			return s.fail(i, "", "Result must be an unsigned integer scalar or vector")
		}
	default:
		if !s.isIntScalarOrVector(res) {
			return s.fail(i, "", "Result must be an integer scalar or vector")
		}
	}
	if s.opType(in, 4) != res {
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
		if !s.literalVectorOf(t, s.isIntScalar, 4) {
			return s.fail(i, "", "Ballot must be a 4-component integer vector")
		}
	} else if !s.isUintScalar(t) {
		return s.fail(i, "", "ClusterSize must be an unsigned integer scalar")
	} else if !isConstantOp(s.idOpcode(in.Words[6])) {
		return s.fail(i, "", "ClusterSize must be a constant instruction")
	}
	return false
}

// nonUniformIndex checks a broadcast's or shuffle's Id, Mask, Index,
// Direction or Delta operand.
func (s *state) nonUniformIndex(i int, in *spirv.Instruction) bool {
	name := "Delta"
	switch in.Opcode {
	case spirv.OpGroupNonUniformBroadcast, spirv.OpGroupNonUniformShuffle:
		name = "Id"
	case spirv.OpGroupNonUniformShuffleXor:
		name = "Mask"
	case spirv.OpGroupNonUniformQuadBroadcast:
		name = "Index"
	case spirv.OpGroupNonUniformQuadSwap:
		name = "Direction"
	}
	if !s.isUintScalar(s.opType(in, 4)) {
		return s.fail(i, "", "%s must be an unsigned integer scalar", name)
	}
	mustBeConst := in.Opcode == spirv.OpGroupNonUniformQuadSwap ||
		((in.Opcode == spirv.OpGroupNonUniformBroadcast || in.Opcode == spirv.OpGroupNonUniformQuadBroadcast) &&
			s.version < spirv.MakeVersion(1, 5))
	if mustBeConst && len(in.Words) > 5 && !isConstantOp(s.idOpcode(in.Words[5])) {
		return s.fail(i, "", "In SPIR-V 1.4 or earlier, %s must be a constant instruction", name)
	}
	return false
}

// nonUniformRotate is ValidateGroupNonUniformRotateKHR. (spirv-val's
// warning for a ClusterSize that is not a power of 2 is not an error.)
func (s *state) nonUniformRotate(i int, in *spirv.Instruction) bool {
	res := in.TypeID
	if !s.isIntScalarOrVector(res) && !s.isFloatScalarOrVector(res) && !s.scalarOrLiteralVector(res, s.isBoolScalar) {
		return s.fail(i, "", "Expected Result Type to be a scalar or vector of floating-point, integer or boolean type.")
	}
	if s.opType(in, 3) != res {
		return s.fail(i, "", "Result Type must be the same as the type of Value.")
	}
	if !s.isUintScalar(s.opType(in, 4)) {
		return s.fail(i, "", "Delta must be a scalar of integer type, whose Signedness operand is 0.")
	}
	if len(in.Words) > 6 {
		if !s.isUintScalar(s.opType(in, 5)) {
			return s.fail(i, "", "ClusterSize must be a scalar of integer type, whose Signedness operand is 0.")
		}
		if !isConstantOp(s.idOpcode(in.Words[6])) {
			return s.fail(i, "", "ClusterSize must come from a constant instruction.")
		}
	}
	return false
}
