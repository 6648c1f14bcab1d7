package val

import "spvx/spirv"

// The untyped-pointer family (SPV_KHR_untyped_pointers), as spirv-val
// checks it: the rules validate_type.cpp and validate_memory.cpp add for
// OpTypeUntypedPointerKHR, OpUntypedVariableKHR and the untyped access
// chains. The rules the untyped instructions share with their typed
// counterparts (initializer, storage class, variable pointers, the index
// walk, ArrayStride, OpUntypedArrayLengthKHR's structure) are the typed
// ones in memory_rules.go and memory.go, which read the data type, the
// Base Type and the Structure type from these instructions' own operands.
// Not written: the Vulkan layout of untyped variables and access chains
// (validate_explicit_layout.cpp), the descriptor-heap uses
// (SPV_EXT_descriptor_heap) and validate_logical_pointers.cpp's untyped
// rules.

// untypedPointerType is ValidateTypeUntypedPointerKHR: in Vulkan,
// untyped pointers only point to explicitly laid out storage classes.
func (s *state) untypedPointerType(i int, in *spirv.Instruction) bool {
	if !s.opts.Env.IsVulkan() || len(in.Words) < 3 {
		return false
	}
	switch sc := spirv.StorageClass(in.Words[2]); sc {
	case spirv.StorageClassWorkgroup:
		if !s.caps.has(spirv.CapabilityWorkgroupMemoryExplicitLayoutKHR) {
			return s.fail(i, "", "Workgroup storage class untyped pointers in Vulkan require WorkgroupMemoryExplicitLayoutKHR be declared")
		}
	case spirv.StorageClassStorageBuffer, spirv.StorageClassPhysicalStorageBuffer, spirv.StorageClassUniform, spirv.StorageClassPushConstant:
	case spirv.StorageClassUniformConstant, spirv.StorageClassImage:
		if !s.caps.has(spirv.CapabilityDescriptorHeapEXT) {
			return s.fail(i, "", "%s storage class untyped pointers in Vulkan require DescriptorHeapEXT be declared", storageClassName(sc))
		}
	default:
		return s.fail(i, s.vuid("VUID-StandaloneSpirv-OpTypeUntypedPointerKHR-11417"), "In Vulkan, untyped pointers can only be used in an explicitly laid out storage class")
	}
	return false
}

// variableDataType is a variable's data type: OpVariable's pointee, or
// OpUntypedVariableKHR's Data Type operand. ok is false when there is
// none to check (a malformed variable, or an untyped one without it).
func (s *state) variableDataType(in *spirv.Instruction) (uint32, bool) {
	if len(in.Words) < 4 {
		return 0, false
	}
	if in.Opcode == spirv.OpUntypedVariableKHR {
		if len(in.Words) < 5 {
			return 0, false
		}
		return in.Words[4], true
	}
	pt := s.typeOf(in.TypeID)
	if pt == nil || pt.Kind != spirv.TypePointer {
		return 0, false
	}
	return pt.Elem, true
}

// untypedVariable is ValidateVariable's head for OpUntypedVariableKHR:
// its result type, its optional Data Type (required for the storage
// classes that allocate memory, and in Vulkan outside the descriptor
// heaps), then the initializer and storage-class rules of OpVariable.
func (s *state) untypedVariable(i int, in *spirv.Instruction) bool {
	pt := s.typeOf(in.TypeID)
	if pt == nil || pt.Op != spirv.OpTypeUntypedPointerKHR {
		return s.fail(i, "", "Result type must be an untyped pointer")
	}
	if len(in.Words) < 4 {
		return false
	}
	sc := spirv.StorageClass(in.Words[3])
	data := uint32(0)
	if len(in.Words) > 4 {
		data = in.Words[4]
		if !s.isTypeID(data) {
			return s.fail(i, "", "Data type must be a type instruction")
		}
	} else if s.untypedVariableNoData(i, in, sc) {
		return true
	}
	return s.variableChecks(i, in, data, 5, s.storageOf(pt))
}

// untypedVariableNoData checks an OpUntypedVariableKHR without a Data
// Type: not allowed for Function, Private and Workgroup, and in Vulkan
// only for a UniformConstant descriptor-heap base (IsDescriptorHeapBaseVariable).
func (s *state) untypedVariableNoData(i int, in *spirv.Instruction, sc spirv.StorageClass) bool {
	switch sc {
	case spirv.StorageClassFunction, spirv.StorageClassPrivate, spirv.StorageClassWorkgroup:
		return s.fail(i, "", "Data type must be specified for Function, Private, and Workgroup storage classes")
	}
	if !s.opts.Env.IsVulkan() {
		return false
	}
	if sc != spirv.StorageClassUniformConstant {
		return s.fail(i, s.vuid("VUID-StandaloneSpirv-OpUntypedVariableKHR-11167"),
			"Storage class is %s, but Vulkan requires that Data Type be specified when not using UniformConstant storage class", storageClassName(sc))
	}
	if !s.descriptorHeapBase(in.ResultID) {
		return s.fail(i, s.vuid("VUID-StandaloneSpirv-OpUntypedVariableKHR-11347"),
			"Storage class is UniformConstant, but Vulkan requires that Data Type be specified if the variable is not decorated with SamplerHeapEXT or ResourceHeapEXT")
	}
	return false
}

// descriptorHeapBase reports whether untyped variable id is a descriptor
// heap: DescriptorHeapEXT is declared and id is the SamplerHeapEXT or
// ResourceHeapEXT built-in.
func (s *state) descriptorHeapBase(id uint32) bool {
	if !s.caps.has(spirv.CapabilityDescriptorHeapEXT) {
		return false
	}
	for _, e := range s.decorations().ofKinds(id, spirv.DecorationBuiltIn) {
		if e.Member < 0 && len(e.Params) > 0 {
			switch spirv.BuiltIn(e.Params[0]) {
			case spirv.BuiltInSamplerHeapEXT, spirv.BuiltInResourceHeapEXT:
				return true
			}
		}
	}
	return false
}

// untypedAccessChain is ValidateAccessChain's part for the untyped
// access chains: the Base Type is a type other than a pointer, and a
// Block (or BufferBlock) array is reinterpreted only as itself. The base
// variable is found through OpCopyObject only, as spirv-val does.
func (s *state) untypedAccessChain(i int, in *spirv.Instruction) bool {
	baseType := in.Words[3]
	if !s.isTypeID(baseType) || isPointerOpcode(s.typeOp(baseType)) {
		return s.fail(i, "", "Base type must be a non-pointer type")
	}
	if len(in.Words) < 5 {
		return false
	}
	data, ok := s.baseVariableData(in.Words[4])
	if !ok {
		return false
	}
	typeArray, dataArray := s.blockArray(baseType), s.blockArray(data)
	switch {
	case typeArray != dataArray:
		return s.fail(i, "", "Both Base Type and Base must be Block or BufferBlock arrays or neither can be")
	case typeArray && baseType != data:
		return s.fail(i, "", "If Base or Base Type is a Block or BufferBlock array, the other must also be the same array")
	}
	return false
}

func isPointerOpcode(op spirv.Opcode) bool {
	return op == spirv.OpTypePointer || op == spirv.OpTypeUntypedPointerKHR
}

// baseVariableData follows base through OpCopyObject to a variable and
// returns that variable's data type; ok is false when base is not a
// variable or the variable has no data type.
func (s *state) baseVariableData(base uint32) (uint32, bool) {
	j := s.copySource(s.defInst(base))
	if j < 0 {
		return 0, false
	}
	in := s.m.Inst(j)
	switch in.Opcode {
	case spirv.OpVariable, spirv.OpUntypedVariableKHR:
		return s.variableDataType(&in)
	}
	return 0, false
}

// copySource follows instruction j through OpCopyObject operands to the
// first instruction that is not a copy (-1: an undefined id). The result
// is remembered for every copy on the way, so that chains of copies,
// each the base of an access chain, cost linear time; a cycle (possible
// only in an invalid module) ends at -1.
func (s *state) copySource(j int) int {
	if j < 0 || s.m.Opcode(j) != spirv.OpCopyObject {
		return j
	}
	if s.copyBase == nil {
		s.copyBase = map[uint32]int{}
	}
	var path []uint32
	for j >= 0 {
		in := s.m.Inst(j)
		if in.Opcode != spirv.OpCopyObject {
			break
		}
		if r, ok := s.copyBase[in.ResultID]; ok {
			j = r
			break
		}
		s.copyBase[in.ResultID] = -1 // a cycle ends here
		path = append(path, in.ResultID)
		j = -1
		if len(in.Words) > 3 {
			j = s.defInst(in.Words[3])
		}
	}
	for _, id := range path {
		s.copyBase[id] = j
	}
	return j
}

// blockArray reports whether t is an OpTypeArray holding (through arrays,
// vectors, matrices and structs) a Block or BufferBlock struct.
func (s *state) blockArray(t uint32) bool {
	if s.typeOp(t) != spirv.OpTypeArray {
		return false
	}
	d := s.decorations()
	return s.nestsBlock(t, func(id uint32) bool {
		return d.has(id, spirv.DecorationBlock) || d.has(id, spirv.DecorationBufferBlock)
	})
}

// untypedLayoutReference is GetMemoryReference for untyped pointers, in
// Vulkan with UntypedPointersKHR: every memory instruction through an
// untyped pointer requires a layout for the data type it reaches (its
// Data Type, Base Type, loaded or stored type, or Structure). A
// descriptor array of Block or BufferBlock structs stands for its
// element.
func (s *state) untypedLayoutReference(in *spirv.Instruction) (layoutRef, bool) {
	if !s.caps.has(spirv.CapabilityUntypedPointersKHR) {
		return layoutRef{}, false
	}
	ptrType, data, ok := s.untypedAccess(in)
	if !ok {
		return layoutRef{}, false
	}
	d := s.decorations()
	r := layoutRef{sc: s.storageOf(s.typeOf(ptrType)), t: data, req: layoutRequired, untyped: true}
	if at := s.typeOf(data); at != nil && (at.Kind == spirv.TypeArray || at.Kind == spirv.TypeRuntimeArray) &&
		(d.has(at.Elem, spirv.DecorationBlock) || d.has(at.Elem, spirv.DecorationBufferBlock)) {
		r.descArray, r.t = data, at.Elem
	}
	r.mode = s.storageLayout(r.sc, s.isKind(r.t, spirv.TypeStruct) && d.has(r.t, spirv.DecorationBufferBlock))
	return r, true
}

// untypedAccess returns the untyped pointer type and the data type of an
// access through an untyped pointer; ok is false for other instructions.
func (s *state) untypedAccess(in *spirv.Instruction) (ptrType, data uint32, ok bool) {
	w := in.Words
	operandType := func(k int) uint32 {
		if k >= len(w) {
			return 0
		}
		return s.typeOfValue(w[k])
	}
	switch in.Opcode {
	case spirv.OpUntypedVariableKHR:
		if len(w) > 4 {
			return in.TypeID, w[4], true
		}
	case spirv.OpUntypedAccessChainKHR, spirv.OpUntypedInBoundsAccessChainKHR,
		spirv.OpUntypedPtrAccessChainKHR, spirv.OpUntypedInBoundsPtrAccessChainKHR:
		if len(w) > 3 {
			return in.TypeID, w[3], true
		}
	case spirv.OpLoad:
		if p := operandType(3); s.typeOp(p) == spirv.OpTypeUntypedPointerKHR {
			return p, in.TypeID, true
		}
	case spirv.OpStore:
		if p := operandType(1); s.typeOp(p) == spirv.OpTypeUntypedPointerKHR {
			return p, operandType(2), true
		}
	case spirv.OpUntypedArrayLengthKHR:
		if len(w) > 4 {
			return operandType(4), w[3], true
		}
	}
	return 0, 0, false
}

// untypedWorkgroupBlock: an untyped Workgroup variable has a layout only
// as a Block-decorated struct (VUID 10684).
func (s *state) untypedWorkgroupBlock(i int, in *spirv.Instruction, r layoutRef) bool {
	if r.sc != spirv.StorageClassWorkgroup || in.Opcode != spirv.OpUntypedVariableKHR {
		return false
	}
	if s.isKind(r.t, spirv.TypeStruct) && s.decorations().has(r.t, spirv.DecorationBlock) {
		return false
	}
	return s.fail(i, s.vuid("VUID-StandaloneSpirv-None-10684"), "Untyped variables in Workgroup storage class must be block-decorated structs")
}

// copySizeMultiple is ValidateCopyMemory's Shader rule for a constant
// OpCopyMemorySized Size (VUID 11165), which only untyped pointers make
// reachable in shaders: a size that is not a multiple of 4 (or of 2)
// needs the 16-bit (or 8-bit) storage capabilities of both storage
// classes, or Int16/Int8. spirv-val names the Source storage class twice
// in the message; so does this.
func (s *state) copySizeMultiple(i int, size uint32, src, dst spirv.StorageClass) bool {
	_, isConst, v := s.evalInt32IfConst(size)
	if !isConst || v%4 == 0 {
		return false
	}
	int8 := s.caps.has(spirv.CapabilityInt8)
	int16 := s.caps.has(spirv.CapabilityInt16) || int8
	src16, src8 := s.smallStorage(src, true)
	dst16, dst8 := s.smallStorage(dst, false)
	name := storageClassName(src)
	vuid := s.vuid("VUID-RuntimeSpirv-Size-11165")
	if !int8 && !int16 && !(src16 && dst16) {
		return s.fail(i, vuid, "Size must be a multiple of 4. This is valid if Source (%s) and Target (%s) storage classes both support either 8-bit or 16-bit", name, name)
	}
	if v%2 != 0 && !int8 && !(src8 && dst8) {
		return s.fail(i, vuid, "Size must be a multiple of 2. This is valid if Source (%s) and Target (%s) storage classes both support 8-bit", name, name)
	}
	return false
}

// smallStorage reports whether storage class sc supports 16-bit and
// 8-bit accesses by the declared capabilities (each 8-bit capability
// implying its 16-bit one); Input counts only as a source.
func (s *state) smallStorage(sc spirv.StorageClass, source bool) (b16, b8 bool) {
	has := s.caps.has
	ubo8 := has(spirv.CapabilityUniformAndStorageBuffer8BitAccess)
	ssbo8 := has(spirv.CapabilityStorageBuffer8BitAccess) || ubo8
	ubo16 := has(spirv.CapabilityUniformAndStorageBuffer16BitAccess) || ubo8
	switch sc {
	case spirv.StorageClassStorageBuffer:
		return has(spirv.CapabilityStorageBuffer16BitAccess) || ubo16 || ssbo8, ssbo8
	case spirv.StorageClassUniform:
		return ubo16, ubo8
	case spirv.StorageClassPushConstant:
		pc8 := has(spirv.CapabilityStoragePushConstant8)
		return has(spirv.CapabilityStoragePushConstant16) || pc8, pc8
	case spirv.StorageClassInput:
		return source && has(spirv.CapabilityStorageInputOutput16), false
	case spirv.StorageClassOutput:
		return has(spirv.CapabilityStorageInputOutput16), false
	case spirv.StorageClassWorkgroup:
		return has(spirv.CapabilityWorkgroupMemoryExplicitLayout16BitAccessKHR), has(spirv.CapabilityWorkgroupMemoryExplicitLayout8BitAccessKHR)
	}
	return false, false
}
