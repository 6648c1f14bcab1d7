package val

import "spvx/spirv"

// This file holds validate_constants.cpp's rules: boolean constants,
// OpConstantComposite / OpSpecConstantComposite constituents (vector,
// matrix, array, struct, cooperative matrix), the replicated composites,
// OpConstantSampler, OpConstantNull's nullable types, OpSpecConstant's
// type, the capabilities of OpSpecConstantOp's operations, and the ban on
// 8- and 16-bit constants without the matching capability under Shader.
// OpConstantSizeOfEXT is descriptor_heap.go's. Tensor (SPV_ARM_tensors)
// constants and OpConstantDataKHR are not written yet.

// constantOps reports whether constantPass can act on an instruction of opcode op
// (passGate runs it on no other: a new case there needs its opcode here).
func constantOps(op spirv.Opcode) bool {
	return isConstantOp(op)
}

func (s *state) constantPass(i int, in *spirv.Instruction) bool {
	switch in.Opcode {
	case spirv.OpConstantTrue, spirv.OpConstantFalse, spirv.OpSpecConstantTrue, spirv.OpSpecConstantFalse:
		if !s.isKind(in.TypeID, spirv.TypeBool) {
			return s.fail(i, "", "Op%s Result Type <id> %s is not a boolean type.", opName(in.Opcode), s.idName(in.TypeID))
		}
	case spirv.OpConstantComposite, spirv.OpSpecConstantComposite:
		if s.constantComposite(i, in) {
			return true
		}
	case spirv.OpConstantCompositeReplicateEXT, spirv.OpSpecConstantCompositeReplicateEXT:
		if s.constantCompositeReplicate(i, in) {
			return true
		}
	case spirv.OpConstantSizeOfEXT:
		if s.constantSizeOf(i, in) {
			return true
		}
	case spirv.OpConstantSampler:
		if !s.isKind(in.TypeID, spirv.TypeSampler) {
			return s.fail(s.defInst(in.TypeID), "", "OpConstantSampler Result Type <id> %s is not a sampler type.", s.idName(in.TypeID))
		}
	case spirv.OpConstantNull:
		if !s.nullable(in.TypeID, 0) {
			return s.fail(i, "", "OpConstantNull Result Type <id> %s cannot have a null value.", s.idName(in.TypeID))
		}
	case spirv.OpSpecConstant:
		if !s.isKind(in.TypeID, spirv.TypeInt) && !s.isKind(in.TypeID, spirv.TypeFloat) {
			return s.fail(i, "", "Specialization constant must be an integer or floating-point number.")
		}
	case spirv.OpSpecConstantOp:
		if s.specConstantOp(i, in) {
			return true
		}
	}
	if isConstantOp(in.Opcode) && s.caps.has(spirv.CapabilityShader) && !s.isKind(in.TypeID, spirv.TypePointer) &&
		s.typeOf(in.TypeID) != nil && s.limitedUse(in.TypeID) {
		return s.fail(i, "", "Cannot form constants of 8- or 16-bit types")
	}
	return false
}

// isCompositeTypeOp is spvOpcodeIsComposite (tensors aside).
func isCompositeTypeOp(op spirv.Opcode) bool {
	switch op {
	case spirv.OpTypeVector, spirv.OpTypeMatrix, spirv.OpTypeArray, spirv.OpTypeStruct, spirv.OpTypeRuntimeArray,
		spirv.OpTypeCooperativeMatrixNV, spirv.OpTypeCooperativeMatrixKHR, spirv.OpTypeVectorIdEXT:
		return true
	}
	return false
}

func isSpecConstantOp(op spirv.Opcode) bool {
	switch op {
	case spirv.OpSpecConstantTrue, spirv.OpSpecConstantFalse, spirv.OpSpecConstant, spirv.OpSpecConstantComposite,
		spirv.OpSpecConstantCompositeReplicateEXT, spirv.OpSpecConstantOp, spirv.OpSpecConstantArchitectureINTEL,
		spirv.OpSpecConstantTargetINTEL, spirv.OpSpecConstantCapabilitiesINTEL, spirv.OpSpecConstantDataKHR:
		return true
	}
	return false
}

// constituentType returns the type of value id and its opcode.
func (s *state) constituent(id uint32) (spirv.Opcode, uint32) {
	j := s.defInst(id)
	if j < 0 {
		return 0, 0
	}
	c := s.m.Inst(j)
	return c.Opcode, c.TypeID
}

// constantOperand is ValidateConstantOperand.
func (s *state) constantOperand(i int, in *spirv.Instruction, id uint32) bool {
	op, _ := s.constituent(id)
	name := opName(in.Opcode)
	if !(op == spirv.OpUndef || op == spirv.OpPoisonKHR || isConstantOp(op)) {
		return s.fail(i, "", "Op%s must only have constant, undef, or poison operands: <id> %s", name, s.idName(id))
	}
	if !isSpecConstantOp(in.Opcode) && isSpecConstantOp(op) {
		return s.fail(i, "", "Op%s must not have spec constant operands: <id> %s", name, s.idName(id))
	}
	return false
}

func (s *state) constantComposite(i int, in *spirv.Instruction) bool {
	name := opName(in.Opcode)
	rt := s.typeOf(in.TypeID)
	if rt == nil || (!isCompositeTypeOp(rt.Op) && !s.isShapedTensor(rt)) {
		return s.fail(i, "", "Op%s Result Type <id> %s is not a composite type.", name, s.idName(in.TypeID))
	}
	parts := in.Words[3:]
	n := uint32(len(parts))
	rtName := lazyName{s, rt.ID}
	switch rt.Op {
	case spirv.OpTypeVector:
		if rt.Count != n {
			return s.fail(i, "", "Op%s Constituent <id> count does not match Result Type <id> %ss vector component count.", name, rtName)
		}
		for _, p := range parts {
			if _, t := s.constituent(p); t == 0 || t != rt.Elem {
				return s.fail(i, "", "Op%s Constituent <id> %ss type does not match Result Type <id> %ss vector element type.", name, s.idName(p), rtName)
			}
		}
	case spirv.OpTypeMatrix:
		if rt.Count != n {
			return s.fail(i, "", "Op%s Constituent <id> count does not match Result Type <id> %ss matrix column count.", name, rtName)
		}
		col := s.typeOf(rt.Elem)
		if col == nil {
			return false
		}
		for _, p := range parts {
			_, t := s.constituent(p)
			v := s.typeOf(t)
			if v == nil {
				return false
			}
			if v.Op != col.Op {
				return s.fail(i, "", "Op%s Constituent <id> %s type does not match Result Type <id> %ss matrix column type.", name, s.idName(p), rtName)
			}
			if v.Elem != col.Elem {
				return s.fail(i, "", "Op%s Constituent <id> %s component type does not match Result Type <id> %ss matrix column component type.", name, s.idName(p), rtName)
			}
			if v.Count != col.Count {
				return s.fail(i, "", "Op%s Constituent <id> %s vector component count does not match Result Type <id> %ss vector component count.", name, s.idName(p), rtName)
			}
		}
	case spirv.OpTypeArray:
		if j := s.defInst(rt.ID); j >= 0 {
			if v, ok := s.constLiteralU32(s.m.Inst(j).Words[3]); ok && v != n {
				return s.fail(i, "", "Op%s Constituent count does not match Result Type <id> %ss array length.", name, rtName)
			}
		}
		for _, p := range parts {
			_, t := s.constituent(p)
			if t == 0 {
				return false
			}
			if t != rt.Elem {
				return s.fail(i, "", "Op%s Constituent <id> %ss type does not match Result Type <id> %ss array element type.", name, s.idName(p), rtName)
			}
		}
	case spirv.OpTypeStruct:
		if uint32(len(rt.Members)) != n {
			return s.fail(i, "", "Op%s Constituent <id> %s count does not match Result Type <id> %ss struct member count.", name, s.idName(in.TypeID), rtName)
		}
		for k, p := range parts {
			_, t := s.constituent(p)
			if t == 0 {
				return false
			}
			if rt.Members[k] != t {
				return s.fail(i, "", "Op%s Constituent <id> %s type does not match the Result Type <id> %ss member type.", name, s.idName(p), rtName)
			}
		}
	case spirv.OpTypeTensorARM:
		if s.tensorConstantComposite(i, in, rt.ID) {
			return true
		}
	case spirv.OpTypeCooperativeMatrixKHR, spirv.OpTypeCooperativeMatrixNV:
		if n != 1 {
			return s.fail(i, "", "Op%s Constituent <id> %s count must be one.", name, s.idName(in.TypeID))
		}
		_, t := s.constituent(parts[0])
		elem := rt.Elem
		if j := s.defInst(rt.ID); j >= 0 && len(s.m.Inst(j).Words) > 2 {
			elem = s.m.Inst(j).Words[2]
		}
		if t != 0 && t != elem {
			return s.fail(i, "", "Op%s Constituent <id> %s type does not match the Result Type <id> %ss component type.", name, s.idName(parts[0]), rtName)
		}
	}
	for _, p := range parts {
		if s.constantOperand(i, in, p) {
			return true
		}
	}
	return false
}

func (s *state) constantCompositeReplicate(i int, in *spirv.Instruction) bool {
	name := opName(in.Opcode)
	rt := s.typeOf(in.TypeID)
	if rt == nil || (!isCompositeTypeOp(rt.Op) && !s.isShapedTensor(rt)) {
		return s.fail(i, "", "Op%s Result Type <id> %s is not a composite type.", name, s.idName(in.TypeID))
	}
	if len(in.Words) < 4 {
		return false
	}
	p := in.Words[3]
	_, t := s.constituent(p)
	switch rt.Op {
	case spirv.OpTypeVector, spirv.OpTypeVectorIdEXT, spirv.OpTypeMatrix, spirv.OpTypeArray,
		spirv.OpTypeCooperativeMatrixKHR, spirv.OpTypeCooperativeMatrixNV, spirv.OpTypeTensorARM:
		elem := uint32(0)
		if j := s.defInst(rt.ID); j >= 0 && len(s.m.Inst(j).Words) > 2 {
			elem = s.m.Inst(j).Words[2]
		}
		if elem != t {
			return s.fail(i, "", "Op%s Constituent <id> %ss type does not match Result Type <id> %ss element type.", name, s.idName(p), s.idName(rt.ID))
		}
	case spirv.OpTypeStruct:
		for _, m := range rt.Members {
			if m != t {
				return s.fail(i, "", "Op%s Constituent <id> %s type does not match the Result Type <id> %ss member type.", name, s.idName(p), s.idName(rt.ID))
			}
		}
	}
	return s.constantOperand(i, in, p)
}

// nullable is IsTypeNullable.
func (s *state) nullable(t uint32, depth int) bool {
	j := s.defInst(t)
	if j < 0 || depth > 512 {
		return false
	}
	w := s.m.Inst(j).Words
	switch spirv.Opcode(w[0] & 0xffff) {
	case spirv.OpTypeBool, spirv.OpTypeInt, spirv.OpTypeFloat, spirv.OpTypeEvent, spirv.OpTypeDeviceEvent,
		spirv.OpTypeReserveId, spirv.OpTypeQueue:
		return true
	case spirv.OpTypeArray, spirv.OpTypeMatrix, spirv.OpTypeCooperativeMatrixNV, spirv.OpTypeCooperativeMatrixKHR,
		spirv.OpTypeVectorIdEXT, spirv.OpTypeVector:
		return len(w) > 2 && s.nullable(w[2], depth+1)
	case spirv.OpTypeStruct:
		for _, m := range w[2:] {
			if !s.nullable(m, depth+1) {
				return false
			}
		}
		return true
	case spirv.OpTypeUntypedPointerKHR, spirv.OpTypePointer:
		return len(w) > 2 && spirv.StorageClass(w[2]) != spirv.StorageClassPhysicalStorageBuffer
	case spirv.OpTypeTensorARM:
		return len(w) > 4 && s.nullable(w[2], depth+1)
	}
	return false
}

// specConstantOp is ValidateSpecConstantOp.
func (s *state) specConstantOp(i int, in *spirv.Instruction) bool {
	if len(in.Words) < 4 {
		return false
	}
	op := spirv.Opcode(in.Words[3])
	switch op {
	case spirv.OpQuantizeToF16:
		if !s.caps.has(spirv.CapabilityShader) {
			return s.fail(i, "", "Specialization constant operation %s requires Shader capability", opName(op))
		}
	case spirv.OpUConvert:
		if s.version < spirv.MakeVersion(1, 4) && !s.feat.uconvertSpecConstantOp && !s.caps.has(spirv.CapabilityKernel) {
			return s.fail(i, "", "Prior to SPIR-V 1.4, specialization constant operation UConvert requires Kernel capability or extension SPV_AMD_gpu_shader_int16")
		}
	case spirv.OpConvertFToS, spirv.OpConvertSToF, spirv.OpConvertFToU, spirv.OpConvertUToF, spirv.OpConvertPtrToU,
		spirv.OpConvertUToPtr, spirv.OpGenericCastToPtr, spirv.OpPtrCastToGeneric, spirv.OpBitcast, spirv.OpFNegate,
		spirv.OpFAdd, spirv.OpFSub, spirv.OpFMul, spirv.OpFDiv, spirv.OpFRem, spirv.OpFMod, spirv.OpAccessChain,
		spirv.OpInBoundsAccessChain, spirv.OpPtrAccessChain, spirv.OpInBoundsPtrAccessChain,
		spirv.OpUntypedAccessChainKHR, spirv.OpUntypedInBoundsAccessChainKHR, spirv.OpUntypedPtrAccessChainKHR,
		spirv.OpUntypedInBoundsPtrAccessChainKHR:
		if !s.caps.has(spirv.CapabilityKernel) {
			return s.fail(i, "", "Specialization constant operation %s requires Kernel capability", opName(op))
		}
	}
	return false
}

// lazyName formats as s.idName(id) only when a message is printed: the
// friendly names are built from a disassembly of the module, which a
// valid module must never pay for.
type lazyName struct {
	s  *state
	id uint32
}

func (n lazyName) String() string { return n.s.idName(n.id) }
