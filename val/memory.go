package val

import "spvx/spirv"

// This file holds validate_memory.cpp's rules, as far as they exist here:
// OpVariable (result type, initializer, storage class, variable pointers),
// OpLoad, OpStore (with --relax-struct-store), the access chains (index
// types, struct indexes, the type walk, negative constant indexes in
// logical addressing unless --relax-logical-pointer), OpPtrAccessChain,
// OpArrayLength, OpCopyMemory(Sized), the memory access operands and the
// pointer comparisons (see memory_rules.go); and
// SPV_EXT_ocp_microscaling_types' storage-class rule for OpVariable and
// OpUntypedVariableKHR (OCP-MX-RULES.md §2.2 E): with the Shader
// capability, a variable whose data type contains E2M1, E2M3 or E3M2 must
// be in the Function or Private storage class, following the data type
// through pointers to the innermost pointer's storage class.

// memoryOps reports whether memoryPass can act on an instruction of opcode op
// (passGate runs it on no other: a new case there needs its opcode here).
func memoryOps(op spirv.Opcode) bool {
	return opIn(op, spirv.OpVariable, spirv.OpUntypedVariableKHR, spirv.OpLoad, spirv.OpStore,
		spirv.OpAccessChain, spirv.OpInBoundsAccessChain, spirv.OpInBoundsPtrAccessChain, spirv.OpUntypedAccessChainKHR,
		spirv.OpUntypedInBoundsAccessChainKHR, spirv.OpPtrAccessChain, spirv.OpUntypedPtrAccessChainKHR,
		spirv.OpUntypedInBoundsPtrAccessChainKHR, spirv.OpArrayLength, spirv.OpUntypedArrayLengthKHR, spirv.OpCopyMemory,
		spirv.OpCopyMemorySized, spirv.OpPtrEqual, spirv.OpPtrNotEqual, spirv.OpPtrDiff, spirv.OpBufferPointerEXT,
		spirv.OpCooperativeMatrixLengthKHR, spirv.OpSpecConstantOp, spirv.OpCooperativeMatrixLoadKHR,
		spirv.OpCooperativeMatrixStoreKHR)
}

func (s *state) memoryPass(i int, in *spirv.Instruction) bool {
	switch in.Opcode {
	case spirv.OpVariable, spirv.OpUntypedVariableKHR:
	case spirv.OpLoad:
		return s.load(i, in)
	case spirv.OpStore:
		return s.store(i, in)
	case spirv.OpAccessChain, spirv.OpInBoundsAccessChain, spirv.OpInBoundsPtrAccessChain,
		spirv.OpUntypedAccessChainKHR, spirv.OpUntypedInBoundsAccessChainKHR:
		return s.accessChain(i, in)
	case spirv.OpPtrAccessChain, spirv.OpUntypedPtrAccessChainKHR, spirv.OpUntypedInBoundsPtrAccessChainKHR:
		return s.accessChain(i, in) || s.ptrAccessChain(i, in)
	case spirv.OpArrayLength, spirv.OpUntypedArrayLengthKHR:
		return s.arrayLength(i, in)
	case spirv.OpCopyMemory, spirv.OpCopyMemorySized:
		return s.copyMemory(i, in)
	case spirv.OpPtrEqual, spirv.OpPtrNotEqual, spirv.OpPtrDiff:
		return s.ptrComparison(i, in)
	case spirv.OpBufferPointerEXT:
		return s.bufferPointer(i, in)
	case spirv.OpCooperativeMatrixLengthKHR, spirv.OpSpecConstantOp, spirv.OpCooperativeMatrixLoadKHR, spirv.OpCooperativeMatrixStoreKHR:
		return s.coopMatMemoryPass(i, in)
	default:
		return false
	}
	if s.variable(i, in) {
		return true
	}
	if s.variablePointer(i, in) {
		return true
	}
	if s.variableRest(i, in) {
		return true
	}
	if !s.caps.has(spirv.CapabilityShader) {
		return false
	}
	if s.variableSmallTypes(i, in) {
		return true
	}
	return s.memoryStorage(i, in)
}

// variablePointer is ValidateVariablePointer: in Logical (or
// PhysicalStorageBuffer64) addressing, the first pointer other than a
// PhysicalStorageBuffer one that a variable's data type holds (depth
// first, the type itself first) points to StorageBuffer or Workgroup, with
// the matching variable-pointers capability, and such a variable is in the
// Function or Private storage class.
func (s *state) variablePointer(i int, in *spirv.Instruction) bool {
	if s.opts.RelaxLogicalPointer || s.opts.BeforeHLSLLegalization ||
		(s.x.AddressingModel != spirv.AddressingModelLogical && s.x.AddressingModel != spirv.AddressingModelPhysicalStorageBuffer64) {
		return false
	}
	data, ok := s.variableDataType(in)
	if !ok {
		return false
	}
	sc, found := s.firstLogicalPointer(data)
	if !found {
		return false
	}
	switch {
	case sc != spirv.StorageClassStorageBuffer && sc != spirv.StorageClassWorkgroup:
		return s.fail(i, "", "In Logical addressing, variables can only allocate a pointer to the StorageBuffer or Workgroup storage classes")
	case sc == spirv.StorageClassStorageBuffer && !s.caps.has(spirv.CapabilityVariablePointersStorageBuffer):
		return s.fail(i, "", "In Logical addressing, variables can only allocate a storage buffer pointer if the VariablePointersStorageBuffer capability is declared")
	case sc == spirv.StorageClassWorkgroup && !s.caps.has(spirv.CapabilityVariablePointers):
		return s.fail(i, "", "In Logical addressing, variables can only allocate a workgroup pointer if the VariablePointers capability is declared")
	}
	if vsc := spirv.StorageClass(in.Words[3]); vsc != spirv.StorageClassFunction && vsc != spirv.StorageClassPrivate {
		return s.fail(i, "", "In Logical addressing with variable pointers, variables that allocate pointers must be in Function or Private storage classes")
	}
	return false
}

// firstLogicalPointer finds, depth first as ContainsType walks, the first
// pointer type in t that is not a PhysicalStorageBuffer pointer, and
// returns its storage class. Results are cached per type.
func (s *state) firstLogicalPointer(t uint32) (spirv.StorageClass, bool) {
	if s.logicalPtrCache == nil {
		s.logicalPtrCache = map[uint32]int64{}
	}
	if v, ok := s.logicalPtrCache[t]; ok {
		return spirv.StorageClass(v), v >= 0
	}
	s.logicalPtrCache[t] = -1 // cycles contribute nothing
	var res int64 = -1
	ty := s.typeOf(t)
	var kids []uint32
	if ty != nil {
		switch ty.Kind {
		case spirv.TypePointer:
			if ty.Storage != spirv.StorageClassPhysicalStorageBuffer {
				res = int64(ty.Storage)
			} else if !s.fwdPtr[t] {
				kids = []uint32{ty.Elem}
			}
		case spirv.TypeVector, spirv.TypeMatrix, spirv.TypeArray, spirv.TypeRuntimeArray,
			spirv.TypeImage, spirv.TypeSampledImage, spirv.TypeCooperativeMatrix:
			kids = []uint32{ty.Elem}
		case spirv.TypeStruct:
			kids = ty.Members
		case spirv.TypeFunction:
			kids = append([]uint32{ty.Return}, ty.Members...)
		}
		if ty.Op == spirv.OpTypeUntypedPointerKHR {
			if j, ok := s.x.Def(t); ok && len(s.m.Inst(j).Words) > 2 {
				if sc := spirv.StorageClass(s.m.Inst(j).Words[2]); sc != spirv.StorageClassPhysicalStorageBuffer {
					res = int64(sc)
				}
			}
		}
	}
	for _, k := range kids {
		if res >= 0 {
			break
		}
		if sc, ok := s.firstLogicalPointer(k); ok {
			res = int64(sc)
		}
	}
	s.logicalPtrCache[t] = res
	return spirv.StorageClass(res), res >= 0
}

// memoryStorage applies the storage-class rule to OpVariable or
// OpUntypedVariableKHR i.
func (s *state) memoryStorage(i int, in *spirv.Instruction) bool {
	if in.Opcode == spirv.OpUntypedVariableKHR {
		return s.untypedVariableStorage(i, in)
	}
	if len(in.Words) < 4 {
		return false
	}
	ptr := s.typeOf(in.TypeID)
	if ptr == nil || ptr.Kind != spirv.TypePointer {
		return false
	}
	return s.ocpStorage(i, ptr.Storage, ptr.Elem)
}

// untypedVariableStorage applies the storage-class rule to
// OpUntypedVariableKHR i, whose data type is its optional operand (none:
// nothing to check); this rule is the OCP one (OCP-MX-RULES.md §2.2 E).
func (s *state) untypedVariableStorage(i int, in *spirv.Instruction) bool {
	if len(in.Words) < 5 {
		return false
	}
	return s.ocpStorage(i, spirv.StorageClass(in.Words[3]), in.Words[4])
}

// ocpStorage is the rule itself for a variable of storage class sc and
// data type data.
func (s *state) ocpStorage(i int, sc spirv.StorageClass, data uint32) bool {
	if !s.containsOCPNB(data) {
		return false
	}
	for t := s.typeOf(data); t != nil && t.Kind == spirv.TypePointer; t = s.typeOf(t.Elem) {
		sc = t.Storage
	}
	if sc != spirv.StorageClassFunction && sc != spirv.StorageClassPrivate {
		name := "?"
		if e, ok := spirv.OperandKindStorageClass.Enumerant(uint32(sc)); ok {
			name = e.Name
		}
		return s.fail(i, "", "Cannot allocate a variable containing a Float4EXT or Float6EXT type in %s storage class", name)
	}
	return false
}
