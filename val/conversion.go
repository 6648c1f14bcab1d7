package val

import "spvx/spirv"

// This file holds validate_conversion.cpp's rules: every conversion
// instruction's Result Type and input (also as OpSpecConstantOp
// operations), the pointer casts, OpBitcast (pointer rules before and
// after SPIR-V 1.5, total bit widths), and the SPV_EXT_float8 and
// SPV_EXT_ocp_microscaling_types rules (OCP-MX-RULES.md §2.2 D), with the
// cooperative matrix and vector shape comparisons. The cooperative matrix
// use conversions and OpBitCastArrayQCOM are not checked.

// conversionOps reports whether conversionPass can act on an instruction of opcode op
// (passGate runs it on no other: a new case there needs its opcode here).
func conversionOps(op spirv.Opcode) bool {
	return opIn(op, spirv.OpSpecConstantOp, spirv.OpConvertFToU, spirv.OpConvertFToS, spirv.OpConvertSToF,
		spirv.OpConvertUToF, spirv.OpUConvert, spirv.OpSConvert, spirv.OpFConvert, spirv.OpQuantizeToF16,
		spirv.OpConvertPtrToU, spirv.OpSatConvertSToU, spirv.OpSatConvertUToS, spirv.OpConvertUToPtr,
		spirv.OpPtrCastToGeneric, spirv.OpGenericCastToPtr, spirv.OpGenericCastToPtrExplicit, spirv.OpBitcast,
		spirv.OpBitcastExtractEXT, spirv.OpConvertUToAccelerationStructureKHR)
}

func (s *state) conversionPass(i int, in *spirv.Instruction) bool {
	op, first := in.Opcode, 2 // first: operand index (Result Type = 0) of the input
	if op == spirv.OpSpecConstantOp {
		op, first = spirv.Opcode(s.opWord(in, 2)), 3
		switch op {
		case spirv.OpUConvert, spirv.OpSConvert, spirv.OpFConvert, spirv.OpConvertSToF, spirv.OpConvertUToF,
			spirv.OpConvertFToS, spirv.OpConvertFToU, spirv.OpQuantizeToF16, spirv.OpConvertPtrToU,
			spirv.OpConvertUToPtr, spirv.OpGenericCastToPtr, spirv.OpPtrCastToGeneric, spirv.OpBitcast:
		default:
			return false
		}
	}
	name := opName(in.Opcode)
	switch op {
	case spirv.OpConvertFToU, spirv.OpConvertFToS, spirv.OpConvertSToF, spirv.OpConvertUToF,
		spirv.OpUConvert, spirv.OpSConvert, spirv.OpFConvert:
		return s.numericConversion(i, in, op, first, name)
	case spirv.OpQuantizeToF16:
		res := in.TypeID
		if !s.isFloatScalarOrVector(res) || s.bitWidth(res) != 32 {
			return s.fail(i, "", "Expected 32-bit float scalar or vector type as Result Type: %s", name)
		}
		if s.opType(in, first) != res {
			return s.fail(i, "", "Expected input type to be equal to Result Type: %s", name)
		}
	case spirv.OpConvertPtrToU:
		return s.convertPtrToU(i, in, first, name)
	case spirv.OpSatConvertSToU, spirv.OpSatConvertUToS:
		res, input := in.TypeID, s.opType(in, 2)
		switch {
		case !s.isIntScalarOrVector(res):
			return s.fail(i, "", "Expected int scalar or vector type as Result Type: %s", name)
		case input == 0 || !s.isIntScalarOrVector(input):
			return s.fail(i, "", "Expected int scalar or vector as input: %s", name)
		case s.dimension(res) != s.dimension(input):
			return s.fail(i, "", "Expected input to have the same dimension as Result Type: %s", name)
		}
	case spirv.OpConvertUToPtr:
		return s.convertUToPtr(i, in, first, name)
	case spirv.OpPtrCastToGeneric, spirv.OpGenericCastToPtr, spirv.OpGenericCastToPtrExplicit:
		return s.genericCast(i, in, op, first, name)
	case spirv.OpBitcast:
		return s.bitcast(i, in, first, name)
	case spirv.OpBitcastExtractEXT:
		return s.bitcastExtract(i, in)
	case spirv.OpConvertUToAccelerationStructureKHR:
		if s.typeOp(in.TypeID) != spirv.OpTypeAccelerationStructureKHR {
			return s.fail(i, "", "Expected Result Type to be a Acceleration Structure: %s", name)
		}
		input := s.opType(in, 2)
		if input == 0 || !(s.isUintScalar(input) && s.bitWidth(input) == 64 || s.isUintVector(input) && s.dimension(input) == 2 && s.bitWidth(input) == 32) {
			return s.fail(i, "", "Expected 64-bit uint scalar or 2-component 32-bit uint vector as input: %s", name)
		}
	}
	return false
}

// numericConversion is ValidateConvertFToU, ..FToS, ..IntToF, UConvert,
// SConvert and FConvert: the Result Type's and the input's kinds, their
// dimensions, and each one's last rules.
func (s *state) numericConversion(i int, in *spirv.Instruction, op spirv.Opcode, first int, name string) bool {
	res, input := in.TypeID, s.opType(in, first)
	uintAny := func(t uint32) bool { return s.isUintScalarOrVector(t) || s.isUintCoopMat(t) || s.isUintCoopVec(t) }
	intAny := func(t uint32) bool { return s.isIntScalarOrVector(t) || s.isIntCoopMat(t) || s.isIntCoopVec(t) }
	floatAny := func(t uint32) bool { return s.isFloatScalarOrVector(t) || s.isFloatCoopMat(t) || s.isFloatCoopVec(t) }
	var resOK, inOK func(uint32) bool
	var resMsg, inMsg string
	switch op {
	case spirv.OpConvertFToU:
		resOK, resMsg, inOK, inMsg = uintAny, "unsigned int scalar or vector type", floatAny, "float scalar or vector"
	case spirv.OpConvertFToS:
		resOK, resMsg, inOK, inMsg = intAny, "int scalar or vector type", floatAny, "float scalar or vector"
	case spirv.OpConvertSToF, spirv.OpConvertUToF:
		resOK, resMsg, inOK, inMsg = floatAny, "float scalar or vector type", intAny, "int scalar or vector"
	case spirv.OpUConvert:
		resOK, resMsg, inOK, inMsg = uintAny, "unsigned int scalar or vector type", intAny, "int scalar or vector"
	case spirv.OpSConvert:
		resOK, resMsg, inOK, inMsg = intAny, "int scalar or vector type", intAny, "int scalar or vector"
	default: // OpFConvert
		resOK, resMsg, inOK, inMsg = floatAny, "float scalar or vector type", floatAny, "float scalar or vector"
	}
	if !resOK(res) {
		return s.fail(i, "", "Expected %s as Result Type: %s", resMsg, name)
	}
	if input == 0 || !inOK(input) {
		return s.fail(i, "", "Expected input to be %s: %s", inMsg, name)
	}
	switch {
	case s.isCoopVec(res) || s.isCoopVec(input):
		if s.coopVecDimsMatch(i, res, input) {
			return true
		}
	case s.isCoopMat(res) || s.isCoopMat(input):
		if s.coopShapesMatch(i, in, res, input, true, s.hasCoopTranspose(in.ResultID)) {
			return true
		}
	case s.dimension(res) != s.dimension(input):
		return s.fail(i, "", "Expected input to have the same dimension as Result Type: %s", name)
	}
	switch op {
	case spirv.OpConvertFToU, spirv.OpConvertFToS, spirv.OpConvertSToF, spirv.OpConvertUToF:
		floatType := input
		if op == spirv.OpConvertSToF || op == spirv.OpConvertUToF {
			floatType = res
		}
		if s.opts.Env.IsVulkan() && s.containsOCP(floatType) {
			return s.fail(i, "VUID-StandaloneSpirv-OpConvertFToU-12465", "%s must not consume or produce OCP microscaling types in the Vulkan environment.", name)
		}
		return s.shaderBitWidth(i, in)
	case spirv.OpUConvert, spirv.OpSConvert:
		if s.bitWidth(res) == s.bitWidth(input) {
			return s.fail(i, "", "Expected input to have different bit width from Result Type: %s", name)
		}
		return false
	}
	// OpFConvert.
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

// shaderBitWidth is ValidateShaderBitWidth: with Shader, the Result Type
// and operand 2's type must not hold limited-use 8/16-bit types.
func (s *state) shaderBitWidth(i int, in *spirv.Instruction) bool {
	if s.caps.has(spirv.CapabilityShader) && (s.limitedUse(in.TypeID) || s.limitedUse(s.opType(in, 2))) {
		return s.fail(i, "", "8- or 16-bit types can only be used with width-only conversions")
	}
	return false
}

// ptrInfo is GetPointerTypeInfo: pointee (0 for an untyped pointer) and
// storage class.
func (s *state) ptrInfo(t uint32) (data uint32, sc spirv.StorageClass, ok bool) {
	switch s.typeOp(t) {
	case spirv.OpTypeUntypedPointerKHR:
		return 0, spirv.StorageClass(s.typeWord(t, 2)), true
	case spirv.OpTypePointer:
		return s.typeWord(t, 3), spirv.StorageClass(s.typeWord(t, 2)), true
	}
	return 0, 0, false
}

func (s *state) convertPtrToU(i int, in *spirv.Instruction, first int, name string) bool {
	res, input := in.TypeID, s.opType(in, first)
	mgs := s.caps.has(spirv.CapabilityMaskedGatherScatterINTEL)
	if !s.isUintScalar(res) && !(mgs && s.isUintVector(res)) {
		if mgs {
			return s.fail(i, "", "Expected unsigned int scalar type as Result Type (or vector of unsigned int with MaskedGatherScatterINTEL): %s", name)
		}
		return s.fail(i, "", "Expected unsigned int scalar type as Result Type: %s", name)
	}
	if !s.isPointerType(input) && !(mgs && input != 0 && s.isVector(input) && s.isPointerType(s.componentType(input))) {
		if mgs {
			return s.fail(i, "", "Expected input to be a pointer (or vector of pointers with MaskedGatherScatterINTEL): %s", name)
		}
		return s.fail(i, "", "Expected input to be a pointer: %s", name)
	}
	if mgs && s.isVector(res) {
		if !s.isVector(input) {
			return s.fail(i, "", "Expected input to be a vector when Result Type is a vector: %s", name)
		}
		if s.dimension(res) != s.dimension(input) {
			return s.fail(i, "", "Expected input to have the same dimension as Result Type: %s", name)
		}
	}
	return s.physicalPointerCast(i, name, input, res, "result integer type to have")
}

func (s *state) convertUToPtr(i int, in *spirv.Instruction, first int, name string) bool {
	res, input := in.TypeID, s.opType(in, first)
	mgs := s.caps.has(spirv.CapabilityMaskedGatherScatterINTEL)
	if !s.isPointerType(res) && !(mgs && s.isVector(res) && s.isPointerType(s.componentType(res))) {
		if mgs {
			return s.fail(i, "", "Expected Result Type to be a pointer (or vector of pointers with MaskedGatherScatterINTEL): %s", name)
		}
		return s.fail(i, "", "Expected Result Type to be a pointer: %s", name)
	}
	if !(input != 0 && s.isIntScalar(input)) && !(mgs && input != 0 && s.isIntVector(input)) {
		if mgs {
			return s.fail(i, "", "Expected int scalar as input (or vector of int with MaskedGatherScatterINTEL): %s", name)
		}
		return s.fail(i, "", "Expected int scalar as input: %s", name)
	}
	if mgs && s.isVector(res) {
		if !s.isVector(input) {
			return s.fail(i, "", "Expected input to be a vector when Result Type is a vector: %s", name)
		}
		if s.dimension(res) != s.dimension(input) {
			return s.fail(i, "", "Expected input to have the same dimension as Result Type: %s", name)
		}
	}
	return s.physicalPointerCast(i, name, res, input, "input integer to have")
}

// physicalPointerCast is the addressing-model part of ConvertPtrToU and
// ConvertUToPtr: ptr is the pointer (or pointer vector) side, integer the
// other.
func (s *state) physicalPointerCast(i int, name string, ptr, integer uint32, what string) bool {
	switch s.x.AddressingModel {
	case spirv.AddressingModelLogical:
		return s.fail(i, "", "Logical addressing not supported: %s", name)
	case spirv.AddressingModelPhysicalStorageBuffer64:
		if s.isVector(ptr) {
			ptr = s.componentType(ptr)
		}
		if _, sc, _ := s.ptrInfo(ptr); sc != spirv.StorageClassPhysicalStorageBuffer {
			return s.fail(i, "", "Pointer storage class must be PhysicalStorageBuffer: %s", name)
		}
		if s.opts.Env.IsVulkan() && s.bitWidth(integer) != 64 {
			return s.fail(i, "VUID-StandaloneSpirv-PhysicalStorageBuffer64-04710", "PhysicalStorageBuffer64 addressing mode requires the %s a 64-bit width for Vulkan environment.", what)
		}
	}
	return false
}

func isGenericCastable(sc spirv.StorageClass) bool {
	switch sc {
	case spirv.StorageClassWorkgroup, spirv.StorageClassCrossWorkgroup, spirv.StorageClassFunction, spirv.StorageClassCodeSectionINTEL:
		return true
	}
	return false
}

// genericCast is ValidatePtrCastToGeneric, ValidateGenericCastToPtr and
// ValidateGenericCastToPtrExplicit.
func (s *state) genericCast(i int, in *spirv.Instruction, op spirv.Opcode, first int, name string) bool {
	const classes = "Workgroup, CrossWorkgroup, Function or CodeSectionINTEL"
	resData, resSC, ok := s.ptrInfo(in.TypeID)
	if !ok {
		return s.fail(i, "", "Expected Result Type to be a pointer: %s", name)
	}
	switch op {
	case spirv.OpPtrCastToGeneric:
		if resSC != spirv.StorageClassGeneric {
			return s.fail(i, "", "Expected Result Type to have storage class Generic: %s", name)
		}
	case spirv.OpGenericCastToPtr:
		if !isGenericCastable(resSC) {
			return s.fail(i, "", "Expected Result Type to have storage class %s: %s", classes, name)
		}
	default:
		if resSC != spirv.StorageClass(s.opWord(in, 3)) {
			return s.fail(i, "", "Expected Result Type to be of target storage class: %s", name)
		}
		first = 2
	}
	inData, inSC, ok := s.ptrInfo(s.opType(in, first))
	if !ok {
		return s.fail(i, "", "Expected input to be a pointer: %s", name)
	}
	if op == spirv.OpPtrCastToGeneric {
		if !isGenericCastable(inSC) {
			return s.fail(i, "", "Expected input to have storage class %s: %s", classes, name)
		}
	} else if inSC != spirv.StorageClassGeneric {
		return s.fail(i, "", "Expected input to have storage class Generic: %s", name)
	}
	if resData != inData {
		return s.fail(i, "", "Expected input and Result Type to point to the same type: %s", name)
	}
	if op == spirv.OpGenericCastToPtrExplicit && !isGenericCastable(spirv.StorageClass(s.opWord(in, 3))) {
		return s.fail(i, "", "Expected target storage class to be %s: %s", classes, name)
	}
	return false
}

// bitcast is ValidateBitcast.
func (s *state) bitcast(i int, in *spirv.Instruction, first int, name string) bool {
	res, input := in.TypeID, s.opType(in, first)
	if input == 0 {
		return s.fail(i, "", "Expected input to have a type: %s", name)
	}
	resPtr, inPtr := s.isPointerType(res), s.isPointerType(input)
	resInt, inInt := s.isIntScalar(res), s.isIntScalar(input)
	resMat, inMat := s.isCoopMat(res), s.isCoopMat(input)
	resVec, inVec := s.isCoopVec(res), s.isCoopVec(input)
	other := func(t uint32) bool { return s.isIntVector(t) || s.isFloatScalar(t) || s.isFloatVector(t) }
	if !resPtr && !resInt && !resMat && !resVec && !other(res) {
		return s.fail(i, "", "Expected Result Type to be a pointer or int or float vector or scalar type: %s", name)
	}
	if !inPtr && !inInt && !inMat && !inVec && !other(input) {
		return s.fail(i, "", "Expected input to be a pointer or int or float vector or scalar: %s", name)
	}
	longVec := s.caps.has(spirv.CapabilityLongVectorEXT)
	if resVec != inVec && !longVec {
		return s.fail(i, "", "Cooperative vector can only be cast to another cooperative vector: %s", name)
	}
	if resMat != inMat {
		return s.fail(i, "", "Cooperative matrix can only be cast to another cooperative matrix: %s", name)
	}
	if resVec && inVec && !longVec && s.coopVecDimsMatch(i, res, input) {
		return true
	}
	if resMat && s.coopShapesMatch(i, in, res, input, false, false) {
		return true
	}
	if s.version >= spirv.MakeVersion(1, 5) || s.exts["SPV_KHR_physical_storage_buffer"] {
		int32Vec := func(t uint32) bool { return s.isIntVector(t) && s.sized(t)&sizedInt32 != 0 }
		if resPtr && !inPtr && !inInt && !int32Vec(input) {
			return s.fail(i, "", "In SPIR-V 1.5 or later (or with SPV_KHR_physical_storage_buffer), expected input to be a pointer, int scalar or 32-bit int vector if Result Type is pointer: %s", name)
		}
		if inPtr && !resPtr && !resInt && !int32Vec(res) {
			return s.fail(i, "", "In SPIR-V 1.5 or later (or with SPV_KHR_physical_storage_buffer), pointer can only be converted to another pointer, int scalar or 32-bit int vector: %s", name)
		}
	} else {
		if resPtr && !inPtr && !inInt {
			return s.fail(i, "", "In SPIR-V 1.4 or earlier (and without SPV_KHR_physical_storage_buffer), expected input to be a pointer or int scalar if Result Type is pointer: %s", name)
		}
		if inPtr && !resPtr && !resInt {
			return s.fail(i, "", "In SPIR-V 1.4 or earlier (and without SPV_KHR_physical_storage_buffer), pointer can only be converted to another pointer or int scalar: %s", name)
		}
	}
	if !resPtr && !inPtr && s.bitWidth(res)*s.dimension(res) != s.bitWidth(input)*s.dimension(input) {
		return s.fail(i, "", "Expected input to have the same total bit width as Result Type: %s", name)
	}
	return s.shaderBitWidth(i, in)
}

// bitcastExtract is ValidateBitcastExtract, every rule, in order.
func (s *state) bitcastExtract(i int, in *spirv.Instruction) bool {
	const name = "BitcastExtractEXT"
	res, base, offset := in.TypeID, s.opType(in, 2), s.opType(in, 3)
	vk := s.opts.Env.IsVulkan()
	switch {
	case !s.isNumericScalarOrLiteralVector(res):
		return s.fail(i, s.vuid("VUID-StandaloneSpirv-Result-12468"), "Expected Result Type to be a numerical scalar or vector type: %s", name)
	case vk && !s.containsOCPNB(res):
		return s.fail(i, "VUID-StandaloneSpirv-Result-12468", "Expected Result Type to be a Float4EXT or Float6EXT type in the Vulkan environment: %s", name)
	case base == 0 || !s.isNumericScalarOrLiteralVector(base):
		return s.fail(i, s.vuid("VUID-StandaloneSpirv-Base-12469"), "Expected Base to be a numerical scalar or vector type: %s", name)
	case vk && !s.isIntScalarOrVector(base):
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
