package val

import "spvx/spirv"

// This file holds validate_dot_product.cpp's rules for the integer dot
// products (OpSDot, OpUDot, OpSUDot and their AccSat forms): result and
// accumulator types, packed 32-bit scalars against vectors, component
// widths and signedness, and the DotProductInput* capabilities; and the
// VALVE mixed-precision float dot products (OpFDot2MixAcc32VALVE,
// OpFDot2MixAcc16VALVE, OpFDot4MixAcc32VALVE).

// dotProductOps reports whether dotProductPass can act on an instruction of opcode op
// (passGate runs it on no other: a new case there needs its opcode here).
func dotProductOps(op spirv.Opcode) bool {
	return opIn(op, spirv.OpSDot, spirv.OpUDot, spirv.OpSUDot, spirv.OpSDotAccSat, spirv.OpUDotAccSat,
		spirv.OpSUDotAccSat, spirv.OpFDot2MixAcc32VALVE, spirv.OpFDot2MixAcc16VALVE, spirv.OpFDot4MixAcc32VALVE)
}

func (s *state) dotProductPass(i int, in *spirv.Instruction) bool {
	op := in.Opcode
	switch op {
	case spirv.OpSDot, spirv.OpUDot, spirv.OpSUDot, spirv.OpSDotAccSat, spirv.OpUDotAccSat, spirv.OpSUDotAccSat:
	case spirv.OpFDot2MixAcc32VALVE, spirv.OpFDot2MixAcc16VALVE, spirv.OpFDot4MixAcc32VALVE:
		return s.fdotMix(i, in)
	default:
		return false
	}
	res := in.TypeID
	if !s.isIntScalar(res) {
		return s.fail(i, "", "Result must be an int scalar type.")
	}
	acc := op == spirv.OpSDotAccSat || op == spirv.OpUDotAccSat || op == spirv.OpSUDotAccSat
	if acc && s.opType(in, 4) != res {
		return s.fail(i, "", "Result must be the same as the Accumulator type.")
	}
	unsigned := op == spirv.OpUDot || op == spirv.OpUDotAccSat
	if unsigned && !s.isUintScalar(res) {
		return s.fail(i, "", "Result must be an unsigned int scalar type.")
	}
	v1, v2 := s.opType(in, 2), s.opType(in, 3)
	int32S := func(t uint32) bool { ty := s.typeOf(t); return ty != nil && ty.Kind == spirv.TypeInt && ty.Width == 32 }
	s1, s2 := int32S(v1), int32S(v2)
	switch {
	case s1 != s2:
		return s.fail(i, "", "'Vector 1' and 'Vector 2' must be the same type.")
	case s1:
		if !s.caps.has(spirv.CapabilityDotProductInput4x8BitPacked) {
			return s.fail(i, "", "DotProductInput4x8BitPacked capability is required to use scalar integers.")
		}
		if w := s.bitWidth(res); w < 8 {
			return s.fail(i, "", "Result width (%d) must be greater than or equal to the packed vector width of 8", w)
		}
		packed := 5
		if acc {
			packed = 6
		}
		if len(in.Operands) != packed {
			return s.fail(i, "", "'Vector 1' and 'Vector 2' are a 32-bit int scalar, but no Packed Vector Format was provided.")
		}
		return false
	}
	if !s.isVector(v1) {
		return s.fail(i, "", "Expected 'Vector 1' to be an int scalar or vector.")
	}
	if !s.isVector(v2) {
		return s.fail(i, "", "Expected 'Vector 2' to be an int scalar or vector.")
	}
	n1, n2 := s.dimension(v1), s.dimension(v2)
	if n1 != 0 && n2 != 0 && n1 != n2 {
		return s.fail(i, "", "'Vector 1' is %d components but 'Vector 2' is %d components", n1, n2)
	}
	c1, c2 := s.componentType(v1), s.componentType(v2)
	if !s.isIntScalar(c1) {
		return s.fail(i, "", "Expected 'Vector 1' to be a vector of integers.")
	}
	if !s.isIntScalar(c2) {
		return s.fail(i, "", "Expected 'Vector 2' to be a vector of integers.")
	}
	w1, w2 := s.bitWidth(c1), s.bitWidth(c2)
	if w1 != w2 {
		return s.fail(i, "", "'Vector 1' component is %d-bit but 'Vector 2' component is %d-bit", w1, w2)
	}
	if w := s.bitWidth(res); w < w1 {
		return s.fail(i, "", "Result width (%d) must be greater than or equal to the vectors width (%d).", w, w1)
	}
	if !s.caps.has(spirv.CapabilityDotProductInputAll) {
		switch {
		case n1 == 4 && w1 == 8:
			if !s.caps.has(spirv.CapabilityDotProductInput4x8Bit) {
				return s.fail(i, "", "DotProductInput4x8Bit or DotProductInputAll capability is required to use 4-component vectors of 8-bit integers.")
			}
		case s.caps.has(spirv.CapabilityDotProductInput4x8BitPacked):
			return s.fail(i, "", "DotProductInputAll capability is required use vectors. (DotProductInput4x8BitPacked capability declared allows for only 32-bit int scalars)")
		default:
			return s.fail(i, "", "DotProductInputAll capability is additionally required to the DotProduct capability to use vectors. "+
				"(It is possible to set DotProductInput4x8BitPacked to only use 32-bit scalars packed as a 4-wide 8-byte vector)")
		}
	}
	switch {
	case unsigned && !s.isUintScalar(c1):
		return s.fail(i, "", "Expected 'Vector 1' to be an vector of unsigned integers.")
	case unsigned && !s.isUintScalar(c2), (op == spirv.OpSUDot || op == spirv.OpSUDotAccSat) && !s.isUintScalar(c2):
		return s.fail(i, "", "Expected 'Vector 2' to be an vector of unsigned integers.")
	}
	return false
}

// fdotMix is ValidateFDot2MixAcc32, ValidateFDot2MixAcc16 and
// ValidateFDot4MixAcc32.
func (s *state) fdotMix(i int, in *spirv.Instruction) bool {
	op, res := in.Opcode, in.TypeID
	floatW := func(t, w uint32) bool { return s.isFloatScalar(t) && s.bitWidth(t) == w }
	if op != spirv.OpFDot2MixAcc16VALVE && !floatW(res, 32) {
		return s.fail(i, "", "Result must be a 32-bit IEEE 754 float scalar type.")
	}
	v1, v2 := s.opType(in, 2), s.opType(in, 3)
	length, width := uint32(2), uint32(16)
	if op == spirv.OpFDot4MixAcc32VALVE {
		length, width = 4, 8
	}
	if !s.isVector(v1) {
		return s.fail(i, "", "Expected 'Vector 1' to be an vector.")
	}
	if !s.isVector(v2) {
		return s.fail(i, "", "Expected 'Vector 2' to be an vector.")
	}
	if n1, n2 := s.dimension(v1), s.dimension(v2); n1 != 0 && n1 != length && n2 != 0 && n2 != length {
		return s.fail(i, "", "'Vector 1' is %d components and 'Vector 2' is %d components, but both need to be %d-components", n1, n2, length)
	}
	c1, c2 := s.componentType(v1), s.componentType(v2)
	if !floatW(c1, width) {
		return s.fail(i, "", "Expected 'Vector 1' to be a vector of %d-bit floats.", width)
	}
	if !floatW(c2, width) {
		return s.fail(i, "", "Expected 'Vector 2' to be a vector of %d-bit floats.", width)
	}
	if op != spirv.OpFDot4MixAcc32VALVE {
		bf := s.isBF16Scalar(c1)
		if bf != s.isBF16Scalar(c2) {
			return s.fail(i, "", "'Vector 1' and 'Vector 2' must be the same float encoding.")
		}
		switch {
		case bf && !s.caps.has(spirv.CapabilityDotProductBFloat16AccVALVE):
			return s.fail(i, "", "DotProductBFloat16AccVALVE capability is required to use BFloat16 encoded floats.")
		case !bf && op == spirv.OpFDot2MixAcc32VALVE && !s.caps.has(spirv.CapabilityDotProductFloat16AccFloat32VALVE):
			return s.fail(i, "", "DotProductFloat16AccFloat32VALVE capability is required to use IEEE 754 encoded 16-bit floats.")
		case !bf && op == spirv.OpFDot2MixAcc16VALVE && !s.caps.has(spirv.CapabilityDotProductFloat16AccFloat16VALVE):
			return s.fail(i, "", "DotProductFloat16AccFloat16VALVE capability is required to use IEEE 754 encoded 16-bit floats.")
		}
		if op == spirv.OpFDot2MixAcc16VALVE {
			if !floatW(res, 16) {
				return s.fail(i, "", "Result must be a 16-bit float scalar type.")
			}
			if s.isBF16Scalar(res) != bf {
				return s.fail(i, "", "Result must have the same float encoding as 'Vector 1' and 'Vector 2'.")
			}
		}
	}
	if s.opType(in, 4) != res {
		return s.fail(i, "", "Accumulator Type must be the same as the Result Type.")
	}
	return false
}
