package val

import "spvx/spirv"

// This file holds validate_atomics.cpp's rules: the Result Type's kind per
// opcode, the Pointer's type and storage class (universal, Shader, Vulkan
// and OpenCL rules), 64-bit and float atomics' capabilities, the memory
// scope and memory semantics (scope.go, memory_semantics.go), and the
// Value and Comparator types.

// storageClassName is StorageClassToString.
func storageClassName(sc spirv.StorageClass) string {
	if e, ok := spirv.OperandKindStorageClass.Enumerant(uint32(sc)); ok {
		return e.Name
	}
	return "Unknown"
}

// atomicsOps reports whether atomicsPass can act on an instruction of opcode op
// (passGate runs it on no other: a new case there needs its opcode here).
func atomicsOps(op spirv.Opcode) bool {
	return opNamed(op, "OpAtomic")
}

func (s *state) atomicsPass(i int, in *spirv.Instruction) bool {
	op := in.Opcode
	switch op {
	case spirv.OpAtomicLoad, spirv.OpAtomicStore, spirv.OpAtomicExchange, spirv.OpAtomicFAddEXT,
		spirv.OpAtomicCompareExchange, spirv.OpAtomicCompareExchangeWeak, spirv.OpAtomicIIncrement,
		spirv.OpAtomicIDecrement, spirv.OpAtomicIAdd, spirv.OpAtomicISub, spirv.OpAtomicSMin, spirv.OpAtomicUMin,
		spirv.OpAtomicFMinEXT, spirv.OpAtomicSMax, spirv.OpAtomicUMax, spirv.OpAtomicFMaxEXT, spirv.OpAtomicAnd,
		spirv.OpAtomicOr, spirv.OpAtomicXor, spirv.OpAtomicFlagTestAndSet, spirv.OpAtomicFlagClear:
	default:
		return false
	}
	name := opName(op)
	res := in.TypeID
	hasResult := op != spirv.OpAtomicStore && op != spirv.OpAtomicFlagClear
	f16vec := s.caps.has(spirv.CapabilityAtomicFloat16VectorNV) && s.isLiteralVector(res) && s.isFloat16Vec2or4(res)
	if hasResult {
		switch op {
		case spirv.OpAtomicFAddEXT, spirv.OpAtomicFMinEXT, spirv.OpAtomicFMaxEXT:
			if !f16vec && !s.isFloatScalar(res) {
				return s.fail(i, "", "%s: expected Result Type to be float scalar type", name)
			}
		case spirv.OpAtomicLoad, spirv.OpAtomicExchange:
			if !s.isFloatScalar(res) && !(op == spirv.OpAtomicExchange && f16vec) && !s.isIntScalar(res) {
				return s.fail(i, "", "%s: expected Result Type to be integer or float scalar type", name)
			}
		case spirv.OpAtomicFlagTestAndSet:
			if !s.isBoolScalar(res) {
				return s.fail(i, "", "%s: expected Result Type to be bool scalar type", name)
			}
		default:
			if !s.isIntScalar(res) {
				return s.fail(i, "", "%s: expected Result Type to be integer scalar type", name)
			}
		}
	}
	w := 1 // the Pointer's word
	if hasResult {
		w = 3
	}
	if w+2 >= len(in.Words) {
		return false
	}
	ptrType := s.typeOf(s.typeOfValue(in.Words[w]))
	var data uint32
	var sc spirv.StorageClass
	switch {
	case ptrType != nil && ptrType.Op == spirv.OpTypePointer:
		data, sc = ptrType.Elem, ptrType.Storage
	case ptrType != nil && ptrType.Op == spirv.OpTypeUntypedPointerKHR:
		if j, ok := s.x.Def(ptrType.ID); ok {
			sc = spirv.StorageClass(s.m.Inst(j).Words[2])
		}
		switch op {
		case spirv.OpAtomicFlagTestAndSet, spirv.OpAtomicFlagClear:
			return s.fail(i, "", "Untyped pointers are not supported by atomic flag instructions")
		case spirv.OpAtomicStore:
			data = s.typeOfValue(in.Words[4])
		default:
			data = res
		}
	default:
		return s.fail(i, "", "%s: expected Pointer to be a pointer type", name)
	}
	if t := s.typeOf(data); t != nil && t.Kind == spirv.TypeInt && t.Width == 64 && !s.caps.has(spirv.CapabilityInt64Atomics) {
		return s.fail(i, "", "%s: 64-bit atomics require the Int64Atomics capability", name)
	}
	switch sc {
	case spirv.StorageClassUniform, spirv.StorageClassStorageBuffer, spirv.StorageClassWorkgroup,
		spirv.StorageClassCrossWorkgroup, spirv.StorageClassGeneric, spirv.StorageClassAtomicCounter,
		spirv.StorageClassImage, spirv.StorageClassFunction, spirv.StorageClassPhysicalStorageBuffer,
		spirv.StorageClassTaskPayloadWorkgroupEXT:
	default:
		return s.fail(i, "", "%s: Can not be used with storage class %s by universal validation rules", name, storageClassName(sc))
	}
	if s.caps.has(spirv.CapabilityShader) {
		if s.opts.Env.IsVulkan() {
			switch sc {
			case spirv.StorageClassUniform, spirv.StorageClassStorageBuffer, spirv.StorageClassWorkgroup,
				spirv.StorageClassImage, spirv.StorageClassPhysicalStorageBuffer, spirv.StorageClassTaskPayloadWorkgroupEXT:
			default:
				return s.fail(i, s.vuid("VUID-StandaloneSpirv-None-04686"),
					"%s: %s is not allowed, the Vulkan spec only allows storage classes for atomic to be: Uniform, Workgroup, Image, StorageBuffer, PhysicalStorageBuffer or TaskPayloadWorkgroupEXT.", name, storageClassName(sc))
			}
		} else if sc == spirv.StorageClassFunction {
			return s.fail(i, "", "%s: Function storage class forbidden when the Shader capability is declared.", name)
		}
		if s.floatAtomicCaps(i, in, res) {
			return true
		}
	}
	if s.opts.Env.IsOpenCL() {
		switch sc {
		case spirv.StorageClassFunction, spirv.StorageClassWorkgroup, spirv.StorageClassCrossWorkgroup, spirv.StorageClassGeneric:
		default:
			return s.fail(i, "", "%s: storage class is %s, but must be Function, Workgroup, CrossWorkGroup or Generic in the OpenCL environment.", name, storageClassName(sc))
		}
		if s.opts.Env == EnvOpenCL1_2 && sc == spirv.StorageClassGeneric {
			return s.fail(i, "", "Storage class cannot be Generic in OpenCL 1.2 environment")
		}
	}
	switch op {
	case spirv.OpAtomicFlagTestAndSet, spirv.OpAtomicFlagClear:
		if t := s.typeOf(data); t == nil || t.Kind != spirv.TypeInt || t.Width != 32 {
			return s.fail(i, "", "%s: expected Pointer to point to a value of 32-bit integer type", name)
		}
	case spirv.OpAtomicStore:
		if !s.isFloatScalar(data) && !s.isIntScalar(data) {
			return s.fail(i, "", "%s: expected Pointer to be a pointer to integer or float scalar type", name)
		}
	default:
		if data != res {
			return s.fail(i, "", "%s: expected Pointer to point to a value of type Result Type", name)
		}
	}
	scope := in.Words[w+1]
	if s.memoryScope(i, in, scope) {
		return true
	}
	if s.memorySemantics(i, in, w+2, scope) {
		return true
	}
	next := w + 3
	if op == spirv.OpAtomicCompareExchange || op == spirv.OpAtomicCompareExchangeWeak {
		if s.memorySemantics(i, in, w+3, scope) {
			return true
		}
		next++
	}
	switch op {
	case spirv.OpAtomicStore:
		if next < len(in.Words) && s.typeOfValue(in.Words[next]) != data {
			return s.fail(i, "", "%s: expected Value type and the type pointed to by Pointer to be the same", name)
		}
		return false
	case spirv.OpAtomicLoad, spirv.OpAtomicIIncrement, spirv.OpAtomicIDecrement, spirv.OpAtomicFlagTestAndSet, spirv.OpAtomicFlagClear:
	default:
		if next < len(in.Words) && s.typeOfValue(in.Words[next]) != res {
			return s.fail(i, "", "%s: expected Value to be of type Result Type", name)
		}
		next++
	}
	if op == spirv.OpAtomicCompareExchange || op == spirv.OpAtomicCompareExchangeWeak {
		if next < len(in.Words) && s.typeOfValue(in.Words[next]) != res {
			return s.fail(i, "", "%s: expected Comparator to be of type Result Type", name)
		}
	}
	return false
}

// floatAtomicCaps is the Shader rule that float atomics declare their
// width's capability.
func (s *state) floatAtomicCaps(i int, in *spirv.Instruction, res uint32) bool {
	name := opName(in.Opcode)
	width := s.bitWidth(res)
	switch in.Opcode {
	case spirv.OpAtomicFAddEXT:
		if width == 16 {
			if s.isFloat16Vec2or4(res) {
				if !s.caps.has(spirv.CapabilityAtomicFloat16VectorNV) {
					return s.fail(i, "", "%s: float vector atomics require the AtomicFloat16VectorNV capability", name)
				}
			} else if !s.caps.has(spirv.CapabilityAtomicFloat16AddEXT) {
				// spirv-val names the 32-bit capability here.
				return s.fail(i, "", "%s: float add atomics require the AtomicFloat32AddEXT capability", name)
			}
		}
		if width == 32 && !s.caps.has(spirv.CapabilityAtomicFloat32AddEXT) {
			return s.fail(i, "", "%s: float add atomics require the AtomicFloat32AddEXT capability", name)
		}
		if width == 64 && !s.caps.has(spirv.CapabilityAtomicFloat64AddEXT) {
			return s.fail(i, "", "%s: float add atomics require the AtomicFloat64AddEXT capability", name)
		}
	case spirv.OpAtomicFMinEXT, spirv.OpAtomicFMaxEXT:
		if width == 16 {
			if s.isFloat16Vec2or4(res) {
				if !s.caps.has(spirv.CapabilityAtomicFloat16VectorNV) {
					return s.fail(i, "", "%s: float vector atomics require the AtomicFloat16VectorNV capability", name)
				}
			} else if !s.caps.has(spirv.CapabilityAtomicFloat16MinMaxEXT) {
				return s.fail(i, "", "%s: float min/max atomics require the AtomicFloat16MinMaxEXT capability", name)
			}
		}
		if width == 32 && !s.caps.has(spirv.CapabilityAtomicFloat32MinMaxEXT) {
			return s.fail(i, "", "%s: float min/max atomics require the AtomicFloat32MinMaxEXT capability", name)
		}
		if width == 64 && !s.caps.has(spirv.CapabilityAtomicFloat64MinMaxEXT) {
			return s.fail(i, "", "%s: float min/max atomics require the AtomicFloat64MinMaxEXT capability", name)
		}
	}
	return false
}
