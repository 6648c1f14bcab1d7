package val

import "spvx/spirv"

// This file holds validate_logicals.cpp's rules: OpAny/OpAll, the float
// classification and comparison instructions, the logical operations,
// OpSelect and the integer comparisons (also as OpSpecConstantOp
// operations).

// logicalsOps reports whether logicalsPass can act on an instruction of opcode op
// (passGate runs it on no other: a new case there needs its opcode here).
func logicalsOps(op spirv.Opcode) bool {
	return opIn(op, spirv.OpSpecConstantOp, spirv.OpAny, spirv.OpAll, spirv.OpIsNan, spirv.OpIsInf,
		spirv.OpIsFinite, spirv.OpIsNormal, spirv.OpSignBitSet, spirv.OpFOrdEqual, spirv.OpFUnordEqual,
		spirv.OpFOrdNotEqual, spirv.OpFUnordNotEqual, spirv.OpFOrdLessThan, spirv.OpFUnordLessThan,
		spirv.OpFOrdGreaterThan, spirv.OpFUnordGreaterThan, spirv.OpFOrdLessThanEqual, spirv.OpFUnordLessThanEqual,
		spirv.OpFOrdGreaterThanEqual, spirv.OpFUnordGreaterThanEqual, spirv.OpLessOrGreater, spirv.OpOrdered,
		spirv.OpUnordered, spirv.OpLogicalEqual, spirv.OpLogicalNotEqual, spirv.OpLogicalOr, spirv.OpLogicalAnd,
		spirv.OpLogicalNot, spirv.OpSelect, spirv.OpIEqual, spirv.OpINotEqual, spirv.OpUGreaterThan,
		spirv.OpUGreaterThanEqual, spirv.OpULessThan, spirv.OpULessThanEqual, spirv.OpSGreaterThan,
		spirv.OpSGreaterThanEqual, spirv.OpSLessThan, spirv.OpSLessThanEqual)
}

func (s *state) logicalsPass(i int, in *spirv.Instruction) bool {
	op, first := in.Opcode, 2
	if op == spirv.OpSpecConstantOp {
		op, first = spirv.Opcode(s.opWord(in, 2)), 3
		switch op {
		case spirv.OpLogicalEqual, spirv.OpLogicalNotEqual, spirv.OpLogicalOr, spirv.OpLogicalAnd, spirv.OpLogicalNot,
			spirv.OpSelect, spirv.OpIEqual, spirv.OpINotEqual, spirv.OpUGreaterThan, spirv.OpUGreaterThanEqual,
			spirv.OpULessThan, spirv.OpULessThanEqual, spirv.OpSGreaterThan, spirv.OpSGreaterThanEqual,
			spirv.OpSLessThan, spirv.OpSLessThanEqual:
		default:
			return false
		}
	}
	name := opName(in.Opcode)
	res := in.TypeID
	const boolRes = "Expected bool scalar or vector type as Result Type: %s"
	switch op {
	case spirv.OpAny, spirv.OpAll:
		if !s.isBoolScalar(res) {
			return s.fail(i, "", "Expected bool scalar type as Result Type: %s", name)
		}
		if v := s.opType(in, 2); v == 0 || !s.isBoolVector(v) {
			return s.fail(i, "", "Expected operand to be vector bool: %s", name)
		}
	case spirv.OpIsNan, spirv.OpIsInf, spirv.OpIsFinite, spirv.OpIsNormal, spirv.OpSignBitSet:
		if !s.isBoolScalarOrVector(res) {
			return s.fail(i, "", boolRes, name)
		}
		t := s.opType(in, 2)
		if t == 0 || !s.isFloatScalarOrVector(t) {
			return s.fail(i, "", "Expected operand to be scalar or vector float: %s", name)
		}
		if s.dimension(res) != s.dimension(t) {
			return s.fail(i, "", "Expected vector sizes of Result Type and the operand to be equal: %s", name)
		}
	case spirv.OpFOrdEqual, spirv.OpFUnordEqual, spirv.OpFOrdNotEqual, spirv.OpFUnordNotEqual, spirv.OpFOrdLessThan,
		spirv.OpFUnordLessThan, spirv.OpFOrdGreaterThan, spirv.OpFUnordGreaterThan, spirv.OpFOrdLessThanEqual,
		spirv.OpFUnordLessThanEqual, spirv.OpFOrdGreaterThanEqual, spirv.OpFUnordGreaterThanEqual,
		spirv.OpLessOrGreater, spirv.OpOrdered, spirv.OpUnordered:
		if !s.isBoolScalarOrVector(res) {
			return s.fail(i, "", boolRes, name)
		}
		l := s.opType(in, 2)
		if l == 0 || !s.isFloatScalarOrVector(l) {
			return s.fail(i, "", "Expected operands to be scalar or vector float: %s", name)
		}
		if s.dimension(res) != s.dimension(l) {
			return s.fail(i, "", "Expected vector sizes of Result Type and the operands to be equal: %s", name)
		}
		if l != s.opType(in, 3) {
			return s.fail(i, "", "Expected left and right operands to have the same type: %s", name)
		}
	case spirv.OpLogicalEqual, spirv.OpLogicalNotEqual, spirv.OpLogicalOr, spirv.OpLogicalAnd:
		if !s.isBoolScalarOrVector(res) {
			return s.fail(i, "", boolRes, name)
		}
		if res != s.opType(in, first) || res != s.opType(in, first+1) {
			return s.fail(i, "", "Expected both operands to be of Result Type: %s", name)
		}
	case spirv.OpLogicalNot:
		if !s.isBoolScalarOrVector(res) {
			return s.fail(i, "", boolRes, name)
		}
		if res != s.opType(in, first) {
			return s.fail(i, "", "Expected operand to be of Result Type: %s", name)
		}
	case spirv.OpSelect:
		return s.logicalSelect(i, in, first, name)
	case spirv.OpIEqual, spirv.OpINotEqual, spirv.OpUGreaterThan, spirv.OpUGreaterThanEqual, spirv.OpULessThan,
		spirv.OpULessThanEqual, spirv.OpSGreaterThan, spirv.OpSGreaterThanEqual, spirv.OpSLessThan, spirv.OpSLessThanEqual:
		if !s.isBoolScalarOrVector(res) {
			return s.fail(i, "", boolRes, name)
		}
		l, r := s.opType(in, first), s.opType(in, first+1)
		switch {
		case l == 0 || !s.isIntScalarOrVector(l):
			return s.fail(i, "", "Expected operands to be scalar or vector int: %s", name)
		case s.dimension(res) != s.dimension(l):
			return s.fail(i, "", "Expected vector sizes of Result Type and the operands to be equal: %s", name)
		case r == 0 || !s.isIntScalarOrVector(r):
			return s.fail(i, "", "Expected operands to be scalar or vector int: %s", name)
		case s.dimension(res) != s.dimension(r):
			return s.fail(i, "", "Expected vector sizes of Result Type and the operands to be equal: %s", name)
		case s.bitWidth(l) != s.bitWidth(r):
			return s.fail(i, "", "Expected both operands to have the same component bit width: %s", name)
		}
	}
	return false
}

// logicalSelect is ValidateSelect. From SPIR-V 1.4 on, OpSelect may pick
// between composites (with a scalar condition).
func (s *state) logicalSelect(i int, in *spirv.Instruction, first int, name string) bool {
	res := in.TypeID
	composites := s.version >= spirv.MakeVersion(1, 4)
	fail := func() bool {
		kind := "vector"
		if composites {
			kind = "composite"
		}
		return s.fail(i, "", "Expected scalar or %s type as Result Type: %s", kind, name)
	}
	dim := uint32(1)
	switch s.typeOp(res) {
	case spirv.OpTypePointer, spirv.OpTypeUntypedPointerKHR:
		if s.x.AddressingModel == spirv.AddressingModelLogical && !s.caps.has(spirv.CapabilityVariablePointersStorageBuffer) {
			return s.fail(i, "", "Using pointers with OpSelect requires capability VariablePointers or VariablePointersStorageBuffer")
		}
	case spirv.OpTypeSampledImage, spirv.OpTypeImage, spirv.OpTypeSampler:
		if !s.caps.has(spirv.CapabilityBindlessTextureNV) {
			return s.fail(i, "", "Using image/sampler with OpSelect requires capability BindlessTextureNV")
		}
	case spirv.OpTypeVector:
		dim = s.typeWord(res, 3)
	case spirv.OpTypeVectorIdEXT:
		dim = s.dimension(res)
	case spirv.OpTypeBool, spirv.OpTypeInt, spirv.OpTypeFloat:
	case spirv.OpTypeArray, spirv.OpTypeMatrix, spirv.OpTypeStruct:
		if !composites {
			return fail()
		}
	default:
		return fail()
	}
	cond, l, r := s.opType(in, first), s.opType(in, first+1), s.opType(in, first+2)
	if cond == 0 || !s.isBoolScalarOrVector(cond) {
		return s.fail(i, "", "Expected bool scalar or vector type as condition: %s", name)
	}
	if s.dimension(cond) != dim && (!composites || s.isBoolVector(cond)) {
		return s.fail(i, "", "Expected vector sizes of Result Type and the condition to be equal: %s", name)
	}
	if res != l || res != r {
		return s.fail(i, "", "Expected both objects to be of Result Type: %s", name)
	}
	return false
}
