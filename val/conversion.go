package val

import "spvx/spirv"

// This file holds validate_conversion.cpp's rules, as far as they exist
// here: the ones SPV_EXT_float8 and SPV_EXT_ocp_microscaling_types touch
// (OCP-MX-RULES.md §2.2 D). The generic shape checks that come first in
// spirv-val are applied only as far as these rules need them; a shape
// this file does not model (cooperative matrices and vectors) is left
// alone rather than judged.

func (s *state) conversionPass(i int, in *spirv.Instruction) bool {
	op, first := in.Opcode, 2 // first: operand index (Result Type = 0) of the input
	if op == spirv.OpSpecConstantOp {
		if len(in.Words) < 4 {
			return false
		}
		op, first = spirv.Opcode(in.Words[3]), 3
	}
	switch op {
	case spirv.OpFConvert, spirv.OpConvertFToU, spirv.OpConvertFToS, spirv.OpConvertSToF, spirv.OpConvertUToF, spirv.OpBitcastExtractEXT:
	default:
		return false
	}
	name := opName(in.Opcode)
	switch op {
	case spirv.OpFConvert:
		return s.fconvert(i, in, first, name)
	case spirv.OpConvertFToU, spirv.OpConvertFToS, spirv.OpConvertSToF, spirv.OpConvertUToF:
		return s.floatIntConversion(i, in, op, first, name)
	case spirv.OpBitcastExtractEXT:
		if in.Opcode == spirv.OpBitcastExtractEXT {
			return s.bitcastExtract(i, in)
		}
	}
	return false
}

// operandType is GetOperandTypeId: the type of the value operand k
// (Result Type = 0, Result = 1, then the words after them).
func (s *state) operandType(in *spirv.Instruction, k int) uint32 {
	if k+1 >= len(in.Words) {
		return 0
	}
	return s.typeOfValue(in.Words[k+1])
}

// simpleShapes: both types are scalars or vectors of the same dimension,
// the case the rules below model.
func (s *state) simpleShapes(a, b uint32, aOK, bOK func(uint32) bool) bool {
	return aOK(a) && bOK(b) && s.dimension(a) == s.dimension(b)
}

func (s *state) isFloatSV(t uint32) bool { return s.isFloatScalar(t) || s.isFloatVector(t) }
func (s *state) isIntSV(t uint32) bool   { return s.isIntScalar(t) || s.isIntVector(t) }

func (s *state) fconvert(i int, in *spirv.Instruction, first int, name string) bool {
	res, input := in.TypeID, s.operandType(in, first)
	if !s.simpleShapes(res, input, s.isFloatSV, s.isFloatSV) {
		return false
	}
	if s.componentType(res) == s.componentType(input) {
		return s.fail(i, "", "Expected component type of Value to be different from component type of Result Type: %s", name)
	}
	if s.opts.Env.IsVulkan() {
		if s.containsOCP(res) {
			return s.fail(i, "VUID-StandaloneSpirv-OpFConvert-12466", "%s must not produce OCP microscaling types in the Vulkan environment.", name)
		}
		if s.containsOCP(input) {
			c := s.typeOf(s.componentType(res))
			allowed := c != nil && c.Kind == spirv.TypeFloat && (!c.HasEncoding ||
				c.Encoding == spirv.FPEncodingFloat8E4M3EXT || c.Encoding == spirv.FPEncodingFloat8E5M2EXT ||
				c.Encoding == spirv.FPEncodingBFloat16KHR)
			if !allowed {
				return s.fail(i, "VUID-StandaloneSpirv-OpFConvert-12467", "%s consuming an OCP microscaling type in the Vulkan environment must produce IEEE 754, Float8E4M3EXT, Float8E5M2EXT, or BFloat16KHR.", name)
			}
		}
	}
	return false
}

func (s *state) floatIntConversion(i int, in *spirv.Instruction, op spirv.Opcode, first int, name string) bool {
	if !s.opts.Env.IsVulkan() {
		return false
	}
	res, input := in.TypeID, s.operandType(in, first)
	floatType := input
	ok := s.simpleShapes(res, input, s.isIntSV, s.isFloatSV)
	if op == spirv.OpConvertSToF || op == spirv.OpConvertUToF {
		floatType = res
		ok = s.simpleShapes(res, input, s.isFloatSV, s.isIntSV)
	}
	if ok && s.containsOCP(floatType) {
		return s.fail(i, "VUID-StandaloneSpirv-OpConvertFToU-12465", "%s must not consume or produce OCP microscaling types in the Vulkan environment.", name)
	}
	return false
}

// bitcastExtract is ValidateBitcastExtract, every rule, in order.
func (s *state) bitcastExtract(i int, in *spirv.Instruction) bool {
	const name = "BitcastExtractEXT"
	res, base, offset := in.TypeID, s.operandType(in, 2), s.operandType(in, 3)
	vk := s.opts.Env.IsVulkan()
	switch {
	case !s.isNumericScalarOrVector(res):
		return s.fail(i, s.vuid("VUID-StandaloneSpirv-Result-12468"), "Expected Result Type to be a numerical scalar or vector type: %s", name)
	case vk && !s.containsOCPNB(res):
		return s.fail(i, "VUID-StandaloneSpirv-Result-12468", "Expected Result Type to be a Float4EXT or Float6EXT type in the Vulkan environment: %s", name)
	case base == 0 || !s.isNumericScalarOrVector(base):
		return s.fail(i, s.vuid("VUID-StandaloneSpirv-Base-12469"), "Expected Base to be a numerical scalar or vector type: %s", name)
	case vk && !s.isIntSV(base):
		return s.fail(i, "VUID-StandaloneSpirv-Base-12469", "Expected Base to be an integer scalar or vector type in the Vulkan environment: %s", name)
	case s.dimension(res) != s.dimension(base):
		return s.fail(i, "", "Expected Base to have the same dimension as Result Type: %s", name)
	case s.bitWidth(base) <= s.bitWidth(res):
		return s.fail(i, "", "Expected Base component bit width to be greater than Result Type component bit width: %s", name)
	case offset == 0 || !s.isIntScalar(offset):
		return s.fail(i, "", "Expected Offset to be a scalar integer type: %s", name)
	}
	return false
}
