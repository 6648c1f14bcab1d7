package val

import "spvx/spirv"

// SPV_EXT_descriptor_heap's own rules, called where spirv-val runs them:
// OpBufferPointerEXT (ValidateBufferPointerEXT, memory pass), which heap
// a sampler, image or acceleration structure is loaded from in Vulkan
// (ValidateLoad), the heap variables' storage class
// (CheckDecorationsOfBuffers), descriptors inside structs
// (ValidateTypeStruct), OpConstantSizeOfEXT and the heap built-ins as
// member decorations. Elsewhere: descriptorHeapBase and untyped variables
// without a data type (untyped_pointers.go), heaps needing no
// DescriptorSet/Binding (decoration.go), OpBufferPointerEXT's layout
// (layout_rules.go) and OpUntypedImageTexelPointerEXT (image.go).

// bufferPointer is ValidateBufferPointerEXT: the result is a Uniform or
// StorageBuffer pointer into the ResourceHeapEXT heap.
func (s *state) bufferPointer(i int, in *spirv.Instruction) bool {
	if len(in.Words) < 4 {
		return false
	}
	rt := s.typeOf(in.TypeID)
	if rt == nil || (rt.Op != spirv.OpTypePointer && rt.Op != spirv.OpTypeUntypedPointerKHR) {
		return s.fail(i, "", "OpBufferPointerEXT's Result Type should be a pointer type.")
	}
	switch s.storageOf(rt) {
	case spirv.StorageClassStorageBuffer, spirv.StorageClassUniform:
	default:
		return s.fail(i, "", "OpBufferPointerEXT Result Type must be a pointer type with a Storage Class of Uniform or StorageBuffer.")
	}
	b := s.untypedBase(in.Words[3])
	if b < 0 || !s.hasBuiltIn(s.m.Inst(b).ResultID, spirv.BuiltInResourceHeapEXT) {
		return s.fail(i, "", "OpBufferPointerEXT's buffer must be an untyped pointer into a variable declared with the ResourceHeapEXT built-in")
	}
	return false
}

// hasBuiltIn reports whether id itself (not a member) is decorated
// BuiltIn b.
func (s *state) hasBuiltIn(id uint32, b spirv.BuiltIn) bool {
	for _, e := range s.decorations().ofKinds(id, spirv.DecorationBuiltIn) {
		if e.Member < 0 && len(e.Params) > 0 && spirv.BuiltIn(e.Params[0]) == b {
			return true
		}
	}
	return false
}

// untypedBase is FindUntypedBaseVariable: the instruction a pointer
// comes from through untyped access chains, atomics and loads through
// untyped pointers; -1 when a load through a typed pointer (or an
// undefined id) ends the walk. Results are kept per id, so the walks of
// a module are linear in its size; a cycle (malformed SSA) ends at -1.
func (s *state) untypedBase(id uint32) int {
	if s.heapBase == nil {
		s.heapBase = map[uint32]int{}
	}
	if b, ok := s.heapBase[id]; ok {
		return b
	}
	s.heapBase[id] = -1 // a cycle back to id finds no base
	j := s.defInst(id)
	b := j
	if j >= 0 {
		if next, ok := s.untypedNext(s.m.Inst(j)); ok {
			b = -1
			if next != 0 {
				b = s.untypedBase(next)
			}
		}
	}
	s.heapBase[id] = b
	return b
}

// untypedNext is one step of FindUntypedBaseVariable: the pointer
// operand the walk goes on with (0: the walk ends without a base), or
// !ok when in is the base.
func (s *state) untypedNext(in spirv.Instruction) (uint32, bool) {
	if len(in.Words) < 4 {
		return 0, false
	}
	switch in.Opcode {
	case spirv.OpUntypedAccessChainKHR, spirv.OpUntypedInBoundsAccessChainKHR, spirv.OpUntypedPtrAccessChainKHR,
		spirv.OpUntypedInBoundsPtrAccessChainKHR, spirv.OpUntypedArrayLengthKHR:
		if len(in.Words) < 5 {
			return 0, true
		}
		return in.Words[4], true
	case spirv.OpLoad, spirv.OpAtomicLoad:
		if t := s.pointerTypeOf(in.Words[3]); t == nil || t.Op != spirv.OpTypeUntypedPointerKHR {
			return 0, true
		}
		return in.Words[3], true
	case spirv.OpAtomicExchange, spirv.OpAtomicCompareExchange, spirv.OpAtomicCompareExchangeWeak,
		spirv.OpAtomicIIncrement, spirv.OpAtomicIDecrement, spirv.OpAtomicIAdd, spirv.OpAtomicISub,
		spirv.OpAtomicSMin, spirv.OpAtomicUMin, spirv.OpAtomicSMax, spirv.OpAtomicUMax,
		spirv.OpAtomicAnd, spirv.OpAtomicOr, spirv.OpAtomicXor:
		return in.Words[3], true
	}
	return 0, false
}

// descriptorHeapPointer is IsDescriptorHeapBaseVariable for pointer id:
// with DescriptorHeapEXT declared, id comes from OpBufferPointerEXT or a
// heap variable.
func (s *state) descriptorHeapPointer(id uint32) bool {
	if !s.caps.has(spirv.CapabilityDescriptorHeapEXT) {
		return false
	}
	b := s.untypedBase(id)
	if b < 0 {
		return false
	}
	in := s.m.Inst(b)
	return in.Opcode == spirv.OpBufferPointerEXT ||
		(in.Opcode == spirv.OpUntypedVariableKHR && s.descriptorHeapBase(in.ResultID))
}

// heapLoad is ValidateLoad's descriptor-heap rule in Vulkan: a sampler
// loaded from a heap without DescriptorSet and Binding comes from
// SamplerHeapEXT, an image from ResourceHeapEXT, and an acceleration
// structure from ResourceHeapEXT unless its base is a Private or
// Function variable.
func (s *state) heapLoad(i int, in *spirv.Instruction) bool {
	rt := s.typeOf(in.TypeID)
	if !s.opts.Env.IsVulkan() || rt == nil || !s.descriptorHeapPointer(in.Words[3]) {
		return false
	}
	var kind string
	var vuid string
	want := spirv.BuiltInResourceHeapEXT
	switch rt.Op {
	case spirv.OpTypeSampler:
		kind, vuid, want = "OpTypeSampler", "VUID-StandaloneSpirv-Result-11336", spirv.BuiltInSamplerHeapEXT
	case spirv.OpTypeImage:
		kind, vuid = "OpTypeImage", "VUID-StandaloneSpirv-Result-11337"
	case spirv.OpTypeAccelerationStructureKHR:
		kind, vuid = "OpTypeAccelerationStructureKHR", "VUID-StandaloneSpirv-Result-11339"
	default:
		return false
	}
	base := s.m.Inst(s.untypedBase(in.Words[3]))
	id := base.ResultID
	if s.decorations().has(id, spirv.DecorationDescriptorSet) || s.decorations().has(id, spirv.DecorationBinding) || s.hasBuiltIn(id, want) {
		return false
	}
	if rt.Op == spirv.OpTypeAccelerationStructureKHR {
		switch s.storageOf(s.typeOf(base.TypeID)) {
		case spirv.StorageClassPrivate, spirv.StorageClassFunction, spirv.StorageClass(0x7fffffff):
			return false
		}
	}
	return s.fail(i, s.vuid(vuid), "%s pointer instruction has no descriptor set or binding and is not derived from a variable decorated with %s", kind, builtinName(want))
}

// heapStorage is CheckDecorationsOfBuffers' descriptor-heap rule in
// Vulkan: the untyped variable decorated ResourceHeapEXT or
// SamplerHeapEXT is in UniformConstant.
func (s *state) heapStorage(i int, in spirv.Instruction) bool {
	if len(in.Words) < 4 || spirv.StorageClass(in.Words[3]) == spirv.StorageClassUniformConstant || !s.descriptorHeapBase(in.ResultID) {
		return false
	}
	if s.hasBuiltIn(in.ResultID, spirv.BuiltInResourceHeapEXT) {
		return s.fail(i, s.vuid("VUID-ResourceHeapEXT-ResourceHeapEXT-11241"), "The variable decorated with ResourceHeapEXT must be declared using the UniformConstant storage class.")
	}
	return s.fail(i, s.vuid("VUID-SamplerHeapEXT-SamplerHeapEXT-11239"), "The variable decorated with SamplerHeapEXT must be declared using the UniformConstant storage class.")
}

// typeStructOpaque is ValidateTypeStruct's opaque-type rule in Vulkan: a
// struct holds (not through pointers) no base opaque type, except
// images, samplers and acceleration structures with DescriptorHeapEXT
// (descriptors in a heap), and images, samplers and sampled images
// with BindlessTextureNV.
func (s *state) typeStructOpaque(i int, in *spirv.Instruction) bool {
	if !s.opts.Env.IsVulkan() || s.opts.BeforeHLSLLegalization {
		return false
	}
	heap, bindless := s.caps.has(spirv.CapabilityDescriptorHeapEXT), s.caps.has(spirv.CapabilityBindlessTextureNV)
	invalid := uint8(shallowOpaque)
	if !bindless {
		invalid |= shallowSampled
		if !heap {
			invalid |= shallowImage
		}
	}
	if s.shallow(in.ResultID)&invalid == 0 {
		return false
	}
	vuid := "VUID-StandaloneSpirv-None-04667"
	if heap {
		vuid = "VUID-StandaloneSpirv-DescriptorHeapEXT-11482"
	}
	return s.fail(i, s.vuid(vuid), "In %s, OpTypeStruct must not contain an invalid opaque type.", s.opts.Env.logName())
}

// constantSizeOf is ValidateConstantSizeOfEXT: a 32- or 64-bit integer
// holding the size of a descriptor type.
func (s *state) constantSizeOf(i int, in *spirv.Instruction) bool {
	rt := s.typeOf(in.TypeID)
	if rt == nil || rt.Kind != spirv.TypeInt || (rt.Width != 32 && rt.Width != 64) {
		return s.fail(i, "", "For OpConstantSizeOfEXT instruction, its result type must be a 32-bit or 64-bit integer type scalar. (OpCapability Int64 is required for 64-bit)")
	}
	if len(in.Words) < 4 {
		return false
	}
	switch t := in.Words[3]; s.typeOp(t) {
	case spirv.OpTypeBufferEXT, spirv.OpTypeImage, spirv.OpTypeTensorARM, spirv.OpTypeSampler, spirv.OpTypeAccelerationStructureKHR:
		return false
	default:
		return s.fail(i, "", "For OpConstantSizeOfEXT instruction, its Type operand <Id> %s must be a Descriptor type.", s.idName(t))
	}
}

// heapBuiltinAtDefinition is ValidateDescriptorHeapAtDefinition (Vulkan):
// the heap built-ins decorate variables, never struct members.
func (s *state) heapBuiltinAtDefinition(j, member int, name string) bool {
	if member >= 0 {
		return s.failStop(j, "", "BuiltIn %s cannot be used as a member decoration ", name)
	}
	return false
}
