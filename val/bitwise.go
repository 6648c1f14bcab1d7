package val

import "spvx/spirv"

// This file holds validate_bitwise.cpp's rules: shifts, the bitwise
// operations (also as OpSpecConstantOp operations), bit-field insert and
// extract, OpBitReverse and OpBitCount. In Vulkan, the Base of the
// bit-field and bit-count instructions must be 32-bit (spirv-val's
// --allow-vulkan-32-bit-bitwise, the maintenance9 feature, is not an
// option here yet).

// bitwiseOps reports whether bitwisePass can act on an instruction of opcode op
// (passGate runs it on no other: a new case there needs its opcode here).
func bitwiseOps(op spirv.Opcode) bool {
	return opIn(op, spirv.OpSpecConstantOp, spirv.OpShiftRightLogical, spirv.OpShiftRightArithmetic,
		spirv.OpShiftLeftLogical, spirv.OpBitwiseOr, spirv.OpBitwiseXor, spirv.OpBitwiseAnd, spirv.OpNot,
		spirv.OpBitFieldInsert, spirv.OpBitFieldSExtract, spirv.OpBitFieldUExtract, spirv.OpBitReverse, spirv.OpBitCount)
}

func (s *state) bitwisePass(i int, in *spirv.Instruction) bool {
	op, first := in.Opcode, 2
	if op == spirv.OpSpecConstantOp {
		op, first = spirv.Opcode(s.opWord(in, 2)), 3
		switch op {
		case spirv.OpShiftRightLogical, spirv.OpShiftRightArithmetic, spirv.OpShiftLeftLogical,
			spirv.OpBitwiseOr, spirv.OpBitwiseXor, spirv.OpBitwiseAnd, spirv.OpNot:
		default:
			return false
		}
	}
	name := opName(in.Opcode)
	res := in.TypeID
	intOrCoop := func(t uint32) bool { return s.isIntScalarOrVector(t) || s.isIntCoopVec(t) }
	switch op {
	case spirv.OpShiftRightLogical, spirv.OpShiftRightArithmetic, spirv.OpShiftLeftLogical:
		if !intOrCoop(res) {
			return s.fail(i, "", "Expected int scalar or vector type as Result Type: %s", name)
		}
		dim := s.dimension(res)
		base, shift := s.opType(in, first), s.opType(in, first+1)
		switch {
		case base == 0 || !intOrCoop(base):
			return s.fail(i, "", "Expected Base to be int scalar or vector: %s", name)
		case s.dimension(base) != dim:
			return s.fail(i, "", "Expected Base to have the same dimension as Result Type: %s", name)
		case s.bitWidth(base) != s.bitWidth(res):
			return s.fail(i, "", "Expected Base to have the same bit width as Result Type: %s", name)
		case shift == 0 || !intOrCoop(shift):
			return s.fail(i, "", "Expected Shift to be int scalar or vector: %s", name)
		case s.dimension(shift) != dim:
			return s.fail(i, "", "Expected Shift to have the same dimension as Result Type: %s", name)
		}
	case spirv.OpBitwiseOr, spirv.OpBitwiseXor, spirv.OpBitwiseAnd, spirv.OpNot:
		if !intOrCoop(res) {
			return s.fail(i, "", "Expected int scalar or vector type as Result Type: %s", name)
		}
		dim, width := s.dimension(res), s.bitWidth(res)
		for k := first; k < len(in.Operands); k++ {
			t := s.opType(in, k)
			switch {
			case t == 0 || !intOrCoop(t):
				return s.fail(i, "", "Expected int scalar or vector as operand: %s operand index %d", name, k)
			case s.dimension(t) != dim:
				return s.fail(i, "", "Expected operands to have the same dimension as Result Type: %s operand index %d", name, k)
			case s.bitWidth(t) != width:
				return s.fail(i, "", "Expected operands to have the same bit width as Result Type: %s operand index %d", name, k)
			}
		}
	case spirv.OpBitFieldInsert:
		if s.bitBase(i, in, name) {
			return true
		}
		if s.opType(in, 3) != res {
			return s.fail(i, "", "Expected Insert Type to be equal to Result Type: %s", name)
		}
		return s.offsetCount(i, in, 4, name)
	case spirv.OpBitFieldSExtract, spirv.OpBitFieldUExtract:
		if s.bitBase(i, in, name) {
			return true
		}
		return s.offsetCount(i, in, 3, name)
	case spirv.OpBitReverse:
		return s.bitBase(i, in, name)
	case spirv.OpBitCount:
		if !s.isIntScalarOrVector(res) {
			return s.fail(i, "", "Expected int scalar or vector type as Result Type: %s", name)
		}
		if s.bitBase(i, in, name) {
			return true
		}
		if s.dimension(s.opType(in, 2)) != s.dimension(res) {
			return s.fail(i, "", "Expected Base dimension to be equal to Result Type dimension: %s", name)
		}
	}
	return false
}

// bitBase is ValidateBaseType for operand 2.
func (s *state) bitBase(i int, in *spirv.Instruction, name string) bool {
	base := s.opType(in, 2)
	if !s.isIntScalarOrVector(base) {
		return s.fail(i, "", "Expected int scalar or vector type for Base operand: %s", name)
	}
	if s.opts.Env.IsVulkan() && s.bitWidth(base) != 32 {
		return s.fail(i, "VUID-RuntimeSpirv-None-10824", "Expected 32-bit int type for Base operand: %s\n"+
			"This is allowed if you enable the maintenance9 feature (or use the --allow-vulkan-32-bit-bitwise command line flag)", name)
	}
	if base != in.TypeID && in.Opcode != spirv.OpBitCount {
		return s.fail(i, "", "Expected Base Type to be equal to Result Type: %s", name)
	}
	return false
}

// offsetCount checks the Offset (operand k) and Count (k+1) operands.
func (s *state) offsetCount(i int, in *spirv.Instruction, k int, name string) bool {
	if t := s.opType(in, k); t == 0 || !s.isIntScalar(t) {
		return s.fail(i, "", "Expected Offset Type to be int scalar: %s", name)
	}
	if t := s.opType(in, k+1); t == 0 || !s.isIntScalar(t) {
		return s.fail(i, "", "Expected Count Type to be int scalar: %s", name)
	}
	return false
}
