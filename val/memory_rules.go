package val

import (
	"sort"

	"spvx/spirv"
)

// validate_memory.cpp's OpVariable, OpLoad, OpStore, OpCopyMemory(Sized),
// memory access, access-chain, OpArrayLength and pointer-comparison rules.
// Descriptor heaps are descriptor_heap.go's. Not written yet: cooperative
// matrix/vector loads and stores, long vectors, tile images, and validate_logical_pointers.cpp.

// Bits of the shallow-contains cache (ContainsType without
// traverse_all_types: through arrays, vectors, matrices, images, sampled
// images, cooperative matrices and structs, not pointers).
const (
	shallowDone      = 1 << iota
	shallowRTA       // OpTypeRuntimeArray
	shallowForbidden // image, sampler, sampled image, acceleration structure
	shallowImage     // image or sampler (descriptor-heap and BindlessTextureNV exceptions)
	shallowSampled   // sampled image (a BindlessTextureNV exception)
	shallowOpaque    // the other base opaque types (spvOpcodeIsBaseOpaqueType)
)

func (s *state) shallow(t uint32) uint8 {
	if s.shallowCache == nil {
		s.shallowCache = map[uint32]uint8{}
	}
	if v, ok := s.shallowCache[t]; ok {
		return v
	}
	s.shallowCache[t] = shallowDone
	var v uint8 = shallowDone
	if ty := s.typeOf(t); ty != nil {
		switch ty.Kind {
		case spirv.TypeRuntimeArray:
			v |= shallowRTA | s.shallow(ty.Elem)
		case spirv.TypeImage:
			v |= shallowForbidden | shallowImage | s.shallow(ty.Elem)
		case spirv.TypeSampledImage:
			v |= shallowForbidden | shallowSampled | s.shallow(ty.Elem)
		case spirv.TypeSampler:
			v |= shallowForbidden | shallowImage
		case spirv.TypeArray, spirv.TypeVector, spirv.TypeMatrix, spirv.TypeCooperativeMatrix:
			v |= s.shallow(ty.Elem)
		case spirv.TypeStruct:
			for _, m := range ty.Members {
				v |= s.shallow(m)
			}
		}
		switch ty.Op {
		case spirv.OpTypeAccelerationStructureKHR:
			v |= shallowForbidden
		case spirv.OpTypeOpaque, spirv.OpTypeEvent, spirv.OpTypeDeviceEvent, spirv.OpTypeReserveId, spirv.OpTypeQueue,
			spirv.OpTypePipe, spirv.OpTypePipeStorage, spirv.OpTypeNamedBarrier:
			v |= shallowOpaque
		}
	}
	s.shallowCache[t] = v
	return v
}

// inFunction reports whether instruction i lies in a function.
func (s *state) inFunction(i int) bool {
	fs := s.x.Functions
	k := sort.Search(len(fs), func(k int) bool { return fs[k].Start > i }) - 1
	return k >= 0 && (fs[k].End < 0 || i <= fs[k].End)
}

// containsInvalidBool is ContainsInvalidBool.
func (s *state) containsInvalidBool(t uint32, skipBuiltin bool, depth int) bool {
	if depth > 512 {
		return false
	}
	if skipBuiltin && s.decorations().has(t, spirv.DecorationBuiltIn) {
		return false
	}
	ty := s.typeOf(t)
	if ty == nil {
		return false
	}
	switch ty.Kind {
	case spirv.TypeBool:
		return true
	case spirv.TypeVector, spirv.TypeMatrix, spirv.TypeArray, spirv.TypeRuntimeArray:
		return s.containsInvalidBool(ty.Elem, skipBuiltin, depth+1)
	case spirv.TypeStruct:
		for _, m := range ty.Members {
			if s.containsInvalidBool(m, skipBuiltin, depth+1) {
				return true
			}
		}
	}
	return false
}

func (s *state) validStorageClass(sc spirv.StorageClass) bool {
	if !s.opts.Env.IsVulkan() {
		return true
	}
	switch sc {
	case spirv.StorageClassUniformConstant, spirv.StorageClassUniform, spirv.StorageClassStorageBuffer,
		spirv.StorageClassInput, spirv.StorageClassOutput, spirv.StorageClassImage, spirv.StorageClassWorkgroup,
		spirv.StorageClassPrivate, spirv.StorageClassFunction, spirv.StorageClassPushConstant,
		spirv.StorageClassPhysicalStorageBuffer, spirv.StorageClassRayPayloadKHR,
		spirv.StorageClassIncomingRayPayloadKHR, spirv.StorageClassHitAttributeKHR,
		spirv.StorageClassCallableDataKHR, spirv.StorageClassIncomingCallableDataKHR,
		spirv.StorageClassShaderRecordBufferKHR, spirv.StorageClassTaskPayloadWorkgroupEXT,
		spirv.StorageClassHitObjectAttributeNV, spirv.StorageClassHitObjectAttributeEXT,
		spirv.StorageClassTileImageEXT, spirv.StorageClassNodePayloadAMDX, spirv.StorageClassTileAttachmentQCOM:
		return true
	}
	return false
}

// variable is ValidateVariable's result-type check, ValidateVariableInitializer
// and ValidateVariableStorageClass, for OpVariable and (untyped_pointers.go)
// OpUntypedVariableKHR.
func (s *state) variable(i int, in *spirv.Instruction) bool {
	if in.Opcode == spirv.OpUntypedVariableKHR {
		return s.untypedVariable(i, in)
	}
	pt := s.typeOf(in.TypeID)
	if pt == nil || pt.Op != spirv.OpTypePointer {
		return s.fail(i, "", "OpVariable Result Type <id> %s is not a pointer type.", s.idName(in.TypeID))
	}
	if len(in.Words) < 4 {
		return false
	}
	return s.variableChecks(i, in, pt.Elem, 4, pt.Storage)
}

// variableChecks is ValidateVariableInitializer and
// ValidateVariableStorageClass for variable i of data type value (0:
// none), whose initializer (if any) is word initWord, and whose result
// type has storage class ptrSC.
func (s *state) variableChecks(i int, in *spirv.Instruction, value uint32, initWord int, ptrSC spirv.StorageClass) bool {
	sc := spirv.StorageClass(in.Words[3])
	hasInit := len(in.Words) > initWord
	if hasInit {
		initID := in.Words[initWord]
		j, ok := s.x.Def(initID)
		var init spirv.Instruction
		if ok {
			init = s.m.Inst(j)
		}
		moduleVar := ok && (init.Opcode == spirv.OpVariable || init.Opcode == spirv.OpUntypedVariableKHR) &&
			len(init.Words) > 3 && spirv.StorageClass(init.Words[3]) != spirv.StorageClassFunction
		if !ok || !(isConstantOp(init.Opcode) || moduleVar) {
			return s.fail(i, "", "Variable Initializer <id> %s is not a constant or module-scope variable.", s.idName(initID))
		}
		if init.TypeID != value {
			return s.fail(i, "", "Initializer type must match the data type")
		}
		if sc != spirv.StorageClassOutput && sc != spirv.StorageClassPrivate && sc != spirv.StorageClassFunction && s.opts.Env.IsVulkan() {
			if sc == spirv.StorageClassWorkgroup {
				if init.Opcode != spirv.OpConstantNull {
					return s.fail(i, s.vuid("VUID-StandaloneSpirv-OpVariable-04734"), "OpVariable, <id> %s, initializers are limited to OpConstantNull in Workgroup storage class", s.idName(in.ResultID))
				}
			} else {
				return s.fail(i, s.vuid("VUID-StandaloneSpirv-OpVariable-04651"), "OpVariable, <id> %s, has a disallowed initializer & storage class combination.\nFrom Vulkan spec:\nVariable declarations that include initializers must have one of the following storage classes: Output, Private, Function or Workgroup", s.idName(in.ResultID))
			}
		}
		switch sc {
		case spirv.StorageClassTaskPayloadWorkgroupEXT, spirv.StorageClassInput, spirv.StorageClassHitObjectAttributeNV, spirv.StorageClassHitObjectAttributeEXT:
			return s.fail(i, "", "OpVariable, <id> %s, initializer are not allowed for %s", s.idName(in.ResultID), storageClassName(sc))
		}
	}
	switch sc {
	case spirv.StorageClassWorkgroup, spirv.StorageClassCrossWorkgroup, spirv.StorageClassPrivate, spirv.StorageClassFunction,
		spirv.StorageClassUniformConstant, spirv.StorageClassRayPayloadKHR, spirv.StorageClassIncomingRayPayloadKHR,
		spirv.StorageClassHitAttributeKHR, spirv.StorageClassCallableDataKHR, spirv.StorageClassIncomingCallableDataKHR,
		spirv.StorageClassTaskPayloadWorkgroupEXT, spirv.StorageClassHitObjectAttributeNV, spirv.StorageClassHitObjectAttributeEXT,
		spirv.StorageClassNodePayloadAMDX:
	default:
		io := sc == spirv.StorageClassInput || sc == spirv.StorageClassOutput
		builtin := io && s.decorations().has(in.ResultID, spirv.DecorationBuiltIn)
		if !builtin && s.containsInvalidBool(value, io, 0) {
			if io {
				return s.fail(i, s.vuid("VUID-StandaloneSpirv-Input-07290"), "If OpTypeBool is stored in conjunction with OpVariable using Input or Output Storage Classes it requires a BuiltIn decoration")
			}
			return s.fail(i, "", "If OpTypeBool is stored in conjunction with OpVariable, it can only be used with non-externally visible shader Storage Classes: Workgroup, CrossWorkgroup, Private, Function, Input, Output, RayPayloadKHR, IncomingRayPayloadKHR, HitAttributeKHR, CallableDataKHR, IncomingCallableDataKHR, NodePayloadAMDX, or UniformConstant")
		}
	}
	if !s.validStorageClass(sc) {
		return s.fail(i, s.vuid("VUID-StandaloneSpirv-None-04643"), "Invalid storage class for target environment")
	}
	if sc == spirv.StorageClassGeneric {
		return s.fail(i, "", "Variable storage class cannot be Generic")
	}
	inFn := s.inFunction(i)
	if inFn && sc != spirv.StorageClassFunction {
		return s.fail(i, "", "Variables must have a function[7] storage class inside of a function")
	}
	if !inFn && sc == spirv.StorageClassFunction {
		return s.fail(i, "", "Variables can not have a function[7] storage class outside of a function")
	}
	if sc != ptrSC {
		return s.fail(i, "", "Storage class must match result type storage class")
	}
	if sc == spirv.StorageClassPhysicalStorageBuffer {
		return s.fail(i, "", "PhysicalStorageBuffer must not be used with OpVariable.")
	}
	if sc == spirv.StorageClassTileAttachmentQCOM && !s.caps.has(spirv.CapabilityTileShadingQCOM) {
		return s.fail(i, s.vuid("VUID-StandaloneSpirv-TileAttachmentQCOM-10689"), "the TileAttachmentQCOM storage class variable requires TileShadingQCOM capability enabled.")
	}
	return false
}

// logicalPointerOK is the "is a logical pointer" test of OpLoad and
// OpStore (spvOpcodeReturnsLogicalPointer, or its variable-pointer form).
func (s *state) logicalPointerOK(op spirv.Opcode) bool {
	if s.x.AddressingModel != spirv.AddressingModelLogical {
		return true
	}
	switch op {
	case spirv.OpVariable, spirv.OpUntypedVariableKHR, spirv.OpAccessChain, spirv.OpInBoundsAccessChain,
		spirv.OpUntypedAccessChainKHR, spirv.OpUntypedInBoundsAccessChainKHR, spirv.OpBufferPointerEXT,
		spirv.OpFunctionParameter, spirv.OpImageTexelPointer, spirv.OpUntypedImageTexelPointerEXT,
		spirv.OpCopyObject, spirv.OpRawAccessChainNV, spirv.OpAllocateNodePayloadsAMDX:
		return true
	case spirv.OpSelect, spirv.OpPhi, spirv.OpFunctionCall, spirv.OpPtrAccessChain, spirv.OpUntypedPtrAccessChainKHR,
		spirv.OpLoad, spirv.OpConstantNull:
		return s.caps.has(spirv.CapabilityVariablePointers) || s.caps.has(spirv.CapabilityVariablePointersStorageBuffer)
	}
	return false
}

// load is ValidateLoad.
func (s *state) load(i int, in *spirv.Instruction) bool {
	if len(in.Words) < 4 {
		return false
	}
	if s.defInst(in.TypeID) < 0 {
		return s.fail(i, "", "OpLoad Result Type <id> %s is not defined.", s.idName(in.TypeID))
	}
	ptrID := in.Words[3]
	pj := s.defInst(ptrID)
	if pj < 0 || !s.logicalPointerOK(s.m.Opcode(pj)) {
		return s.fail(i, "", "OpLoad Pointer <id> %s is not a logical pointer.", s.idName(ptrID))
	}
	ptr := s.m.Inst(pj)
	pt := s.typeOf(ptr.TypeID)
	if pt == nil || (pt.Op != spirv.OpTypePointer && pt.Op != spirv.OpTypeUntypedPointerKHR) {
		return s.fail(i, "", "OpLoad type for pointer <id> %s is not a pointer type.", s.idName(ptrID))
	}
	if pt.Op == spirv.OpTypePointer && pt.Elem != in.TypeID {
		return s.fail(i, "", "OpLoad Result Type <id> %s does not match Pointer <id> %ss type.", s.idName(in.TypeID), s.idName(ptrID))
	}
	if !s.opts.BeforeHLSLLegalization && s.shallow(in.TypeID)&shallowRTA != 0 {
		return s.fail(i, "", "Cannot load a runtime-sized array")
	}
	if s.memoryAccess(i, in, 4) {
		return true
	}
	if rt := s.typeOf(in.TypeID); s.caps.has(spirv.CapabilityShader) && rt != nil && rt.Kind != spirv.TypePointer && s.limitedUse(in.TypeID) {
		switch rt.Kind {
		case spirv.TypeInt, spirv.TypeFloat, spirv.TypeVector, spirv.TypeMatrix:
		default:
			return s.fail(i, "", "8- or 16-bit loads must be a scalar, vector or matrix type")
		}
	}
	return s.heapLoad(i, in)
}

// tracePointer is TracePointer: through access chains and copies to the
// base pointer.
func (s *state) tracePointer(j int) int {
	for k := 0; k < 1<<16; k++ {
		in := s.m.Inst(j)
		switch in.Opcode {
		case spirv.OpAccessChain, spirv.OpInBoundsAccessChain, spirv.OpPtrAccessChain, spirv.OpInBoundsPtrAccessChain,
			spirv.OpCopyObject:
			if len(in.Words) < 4 {
				return j
			}
			n := s.defInst(in.Words[3])
			if n < 0 {
				return j
			}
			j = n
		default:
			return j
		}
	}
	return j
}

// store is ValidateStore.
func (s *state) store(i int, in *spirv.Instruction) bool {
	if len(in.Words) < 3 {
		return false
	}
	ptrID := in.Words[1]
	pj := s.defInst(ptrID)
	if pj < 0 || !s.logicalPointerOK(s.m.Opcode(pj)) {
		return s.fail(i, "", "OpStore Pointer <id> %s is not a logical pointer.", s.idName(ptrID))
	}
	ptr := s.m.Inst(pj)
	pt := s.typeOf(ptr.TypeID)
	if pt == nil || (pt.Op != spirv.OpTypePointer && pt.Op != spirv.OpTypeUntypedPointerKHR) {
		return s.fail(i, "", "OpStore type for pointer <id> %s is not a pointer type.", s.idName(ptrID))
	}
	var typ *spirv.Type
	sc := pt.Storage
	if pt.Op == spirv.OpTypePointer {
		typ = s.typeOf(pt.Elem)
		if typ == nil || typ.Kind == spirv.TypeVoid {
			return s.fail(i, "", "OpStore Pointer <id> %ss type is void.", s.idName(ptrID))
		}
	} else if j, ok := s.x.Def(ptr.TypeID); ok && len(s.m.Inst(j).Words) > 2 {
		sc = spirv.StorageClass(s.m.Inst(j).Words[2])
	}
	switch sc {
	case spirv.StorageClassUniformConstant, spirv.StorageClassInput, spirv.StorageClassPushConstant:
		return s.fail(i, "", "OpStore Pointer <id> %s storage class is read-only", s.idName(ptrID))
	case spirv.StorageClassShaderRecordBufferKHR:
		return s.fail(i, "", "ShaderRecordBufferKHR Storage Class variables are read only")
	case spirv.StorageClassHitAttributeKHR:
		s.limitModels(i, limHitAttributeStore, in.Opcode) // ray_tracing.go's family
	}
	if s.opts.Env.IsVulkan() && sc == spirv.StorageClassUniform {
		if b := s.m.Inst(s.tracePointer(pj)); b.Opcode == spirv.OpVariable {
			if bt := s.typeOf(b.TypeID); bt != nil && bt.Kind == spirv.TypePointer {
				base := bt.Elem
				if at := s.typeOf(base); at != nil && (at.Kind == spirv.TypeArray || at.Kind == spirv.TypeRuntimeArray) {
					base = at.Elem
				}
				if s.decorations().has(base, spirv.DecorationBlock) {
					return s.fail(i, s.vuid("VUID-StandaloneSpirv-Uniform-06925"), "In the Vulkan environment, cannot store to Uniform Blocks")
				}
			}
		}
	}
	objID := in.Words[2]
	oj := s.defInst(objID)
	if oj < 0 || s.m.Inst(oj).TypeID == 0 {
		return s.fail(i, "", "OpStore Object <id> %s is not an object.", s.idName(objID))
	}
	objType := s.m.Inst(oj).TypeID
	ot := s.typeOf(objType)
	if ot == nil || ot.Kind == spirv.TypeVoid {
		return s.fail(i, "", "OpStore Object <id> %ss type is void.", s.idName(objID))
	}
	if typ != nil && typ.ID != objType {
		if !s.opts.RelaxStructStore || typ.Kind != spirv.TypeStruct || ot.Kind != spirv.TypeStruct {
			return s.fail(i, "", "OpStore Pointer <id> %ss type does not match Object <id> %ss type.", s.idName(ptrID), s.idName(objID))
		}
		if !s.layoutCompatibleStructs(typ, ot, 0) {
			return s.fail(i, "", "OpStore Pointer <id> %ss layout does not match Object <id> %ss layout.", s.idName(ptrID), s.idName(objID))
		}
	}
	if s.memoryAccess(i, in, 3) {
		return true
	}
	if s.opts.Env.IsVulkan() && !s.opts.BeforeHLSLLegalization && s.shallow(objType)&shallowForbidden != 0 {
		return s.fail(i, s.vuid("VUID-StandaloneSpirv-OpTypeImage-06924"), "Cannot store to OpTypeImage, OpTypeSampler, OpTypeSampledImage, or OpTypeAccelerationStructureKHR objects")
	}
	return false
}

// layoutCompatibleStructs is AreLayoutCompatibleStructs: same member
// count, members of the same type (or layout-compatible structs), and
// the same Offset, ArrayStride... decorations member by member.
func (s *state) layoutCompatibleStructs(a, b *spirv.Type, depth int) bool {
	if len(a.Members) != len(b.Members) || depth > 64 {
		return false
	}
	d := s.decorations()
	for k := range a.Members {
		ma, mb := a.Members[k], b.Members[k]
		if ma != mb {
			ta, tb := s.typeOf(ma), s.typeOf(mb)
			if ta == nil || tb == nil || ta.Kind != spirv.TypeStruct || tb.Kind != spirv.TypeStruct || !s.layoutCompatibleStructs(ta, tb, depth+1) {
				return false
			}
		}
		// HaveSameLayoutDecorations: the Offset decorations of the members
		// must agree.
		oa, ob := memberOffset(d.member(a.ID, k, spirv.DecorationOffset)), memberOffset(d.member(b.ID, k, spirv.DecorationOffset))
		if oa != ob {
			return false
		}
	}
	return true
}

func memberOffset(es []spirv.DecorationEntry) int64 {
	for _, e := range es {
		if e.Kind == spirv.DecorationOffset && len(e.Params) > 0 {
			return int64(e.Params[0])
		}
	}
	return -1
}

func isPtrAccessChain(op spirv.Opcode) bool {
	switch op {
	case spirv.OpPtrAccessChain, spirv.OpInBoundsPtrAccessChain,
		spirv.OpUntypedPtrAccessChainKHR, spirv.OpUntypedInBoundsPtrAccessChainKHR:
		return true
	}
	return false
}

// accessChain is ValidateAccessChain, for the typed access chains and
// (with the checks of untypedAccessChain first) the untyped ones, whose
// operands are one word later: the Base Type comes before the Base.
func (s *state) accessChain(i int, in *spirv.Instruction) bool {
	name := opName(in.Opcode)
	untyped := isUntypedPointerOpcode(in.Opcode)
	rt := s.typeOf(in.TypeID)
	want, off := spirv.OpTypePointer, 0
	if untyped {
		want, off = spirv.OpTypeUntypedPointerKHR, 1
	}
	if rt == nil || rt.Op != want {
		found := "unknown"
		if j := s.defInst(in.TypeID); j >= 0 {
			found = opName(s.m.Opcode(j))
		}
		return s.fail(i, "", "The Result Type of Op%s <id> %s must be %s. Found Op%s.", name, s.idName(in.ResultID), want, found)
	}
	if len(in.Words) < 4+off {
		return false
	}
	if untyped && s.untypedAccessChain(i, in) {
		return true
	}
	baseID := in.Words[3+off]
	bj := s.defInst(baseID)
	var bt *spirv.Type
	if bj >= 0 {
		bt = s.typeOf(s.m.Inst(bj).TypeID)
	}
	if bt == nil || !(bt.Op == spirv.OpTypePointer || untyped && bt.Op == spirv.OpTypeUntypedPointerKHR) {
		return s.fail(i, "", "The Base <id> %s in Op%s instruction must be a pointer.", s.idName(baseID), name)
	}
	rsc := s.storageOf(rt)
	if rsc != s.storageOf(bt) {
		return s.fail(i, "", "The result pointer storage class and base pointer storage class in Op%s do not match.", name)
	}
	pointee := s.typeOf(bt.Elem)
	if untyped {
		pointee = s.typeOf(in.Words[3])
	}
	numIndexes := len(in.Words) - 4 - off
	start := 4 + off
	if isPtrAccessChain(in.Opcode) {
		numIndexes--
		start++
	}
	if limit := int(s.lim.MaxAccessChainIndexes); numIndexes > limit {
		return s.fail(i, "", "The number of indexes in Op%s may not exceed %d. Found %d indexes.", name, limit, numIndexes)
	}
	logical := !s.opts.RelaxLogicalPointer &&
		(s.x.AddressingModel == spirv.AddressingModelLogical || s.x.AddressingModel == spirv.AddressingModelPhysicalStorageBuffer64) &&
		rsc != spirv.StorageClassPhysicalStorageBuffer
	for k := start; k < len(in.Words); k++ {
		w := in.Words[k]
		var it *spirv.Type
		if j := s.defInst(w); j >= 0 {
			it = s.typeOf(s.m.Inst(j).TypeID)
		}
		if it == nil || it.Kind != spirv.TypeInt {
			return s.fail(i, "", "Indexes passed to Op%s must be of type integer.", name)
		}
		if logical && it.Signed {
			if v, ok := s.constInt64(w); ok && v < 0 {
				return s.fail(i, "", "Index at word %d may not have a negative value", k)
			}
		}
		if pointee == nil {
			return false
		}
		switch pointee.Kind {
		case spirv.TypeMatrix, spirv.TypeVector, spirv.TypeCooperativeMatrix, spirv.TypeArray, spirv.TypeRuntimeArray:
			pointee = s.typeOf(pointee.Elem)
		case spirv.TypeStruct:
			v, ok := s.constInt64(w)
			if !ok {
				return s.fail(i, "", "The <id> passed to Op%s to index %s into a structure must be an OpConstant.", name, s.idName(w))
			}
			n := int64(len(pointee.Members))
			if v >= n || v < 0 {
				return s.fail(i, "", "Index %s is out of bounds: Op%s cannot find index %d into the structure <id> %s. This structure has %d members. Largest valid index is %d.",
					s.idName(w), name, v, s.idName(pointee.ID), n, n-1)
			}
			pointee = s.typeOf(pointee.Members[v])
		default:
			if pointee.Op == spirv.OpTypeVectorIdEXT || pointee.Op == spirv.OpTypeNodePayloadArrayAMDX || pointee.Op == spirv.OpTypeCooperativeMatrixNV {
				if j := s.defInst(pointee.ID); j >= 0 && len(s.m.Inst(j).Words) > 2 {
					pointee = s.typeOf(s.m.Inst(j).Words[2])
					continue
				}
			}
			return s.fail(i, "", "Op%s reached non-composite type while indexes still remain to be traversed.", name)
		}
	}
	if pointee == nil || untyped {
		return false
	}
	if pointee.ID != rt.Elem {
		want := s.typeOf(rt.Elem)
		wantOp := "unknown"
		if j := s.defInst(rt.Elem); j >= 0 {
			wantOp = opName(s.m.Opcode(j))
		}
		same := ""
		if want != nil && want.Op == pointee.Op {
			same = " (The types must be the exact same Id, so the two types referenced are slighlty different)"
		}
		return s.fail(i, "", "Op%s result type <id> %s (Op%s) does not match the type that results from indexing into the base <id> %s (Op%s).%s",
			name, s.idName(rt.Elem), wantOp, s.idName(pointee.ID), opName(pointee.Op), same)
	}
	return false
}

// ptrAccessChain is the rest of ValidatePtrAccessChain.
func (s *state) ptrAccessChain(i int, in *spirv.Instruction) bool {
	untyped := isUntypedPointerOpcode(in.Opcode)
	off := 0
	if untyped {
		off = 1
	}
	if len(in.Words) < 5+off {
		return false
	}
	bj := s.defInst(in.Words[3+off])
	if bj < 0 {
		return false
	}
	bt := s.typeOf(s.m.Inst(bj).TypeID)
	if bt == nil {
		return false
	}
	sc := s.storageOf(bt)
	interp := bt.Elem // the interpretation type
	if untyped {
		interp = in.Words[3]
	}
	var et *spirv.Type
	if j := s.defInst(in.Words[4+off]); j >= 0 {
		et = s.typeOf(s.m.Inst(j).TypeID)
	}
	if et == nil || et.Kind != spirv.TypeInt {
		return s.fail(i, "", "Element must be an integer")
	}
	d := s.decorations()
	if v, ok := s.constUint(in.Words[4+off]); ok && v != 0 {
		if s.isKind(interp, spirv.TypeStruct) && (d.has(interp, spirv.DecorationBlock) || d.has(interp, spirv.DecorationBufferBlock)) {
			return s.fail(i, "", "Element must be 0 if the interpretation type is a Block- or BufferBlock-decorated structure")
		}
	}
	if s.caps.has(spirv.CapabilityShader) &&
		(sc == spirv.StorageClassUniform || sc == spirv.StorageClassStorageBuffer || sc == spirv.StorageClassPhysicalStorageBuffer ||
			sc == spirv.StorageClassPushConstant ||
			(s.caps.has(spirv.CapabilityWorkgroupMemoryExplicitLayoutKHR) && sc == spirv.StorageClassWorkgroup)) &&
		!d.has(bt.ID, spirv.DecorationArrayStride) && !d.has(bt.ID, spirv.DecorationArrayStrideIdEXT) {
		return s.fail(i, "", "OpPtrAccessChain must have a Base whose type is decorated with ArrayStride or ArrayStrideIdEXT")
	}
	if s.opts.Env.IsVulkan() && !(untyped && s.caps.has(spirv.CapabilityUntypedPointersKHR)) {
		switch sc {
		case spirv.StorageClassWorkgroup:
			if !s.caps.has(spirv.CapabilityVariablePointers) {
				return s.fail(i, s.vuid("VUID-StandaloneSpirv-Base-07651"), "OpPtrAccessChain Base operand pointing to Workgroup storage class must use VariablePointers capability")
			}
		case spirv.StorageClassStorageBuffer:
			if !s.caps.has(spirv.CapabilityVariablePointers) && !s.caps.has(spirv.CapabilityVariablePointersStorageBuffer) {
				return s.fail(i, s.vuid("VUID-StandaloneSpirv-Base-07652"), "OpPtrAccessChain Base operand pointing to StorageBuffer storage class must use VariablePointers or VariablePointersStorageBuffer capability")
			}
		case spirv.StorageClassPhysicalStorageBuffer:
		default:
			return s.fail(i, s.vuid("VUID-StandaloneSpirv-Base-07650"), "OpPtrAccessChain Base operand must point to Workgroup, StorageBuffer, or PhysicalStorageBuffer storage class")
		}
	}
	return false
}

// arrayLength is ValidateArrayLength for OpArrayLength and
// OpUntypedArrayLengthKHR, whose Structure type is its own operand.
func (s *state) arrayLength(i int, in *spirv.Instruction) bool {
	name := opName(in.Opcode)
	rt := s.typeOf(in.TypeID)
	if rt == nil || rt.Kind != spirv.TypeInt || rt.Signed || (rt.Width != 32 && rt.Width != 64) {
		return s.fail(i, "", "The Result Type of Op%s <id> %s must be OpTypeInt with width 32 or 64 and signedness 0.", name, s.idName(in.ResultID))
	}
	untyped := in.Opcode == spirv.OpUntypedArrayLengthKHR
	off := 0
	if untyped {
		off = 1
	}
	if len(in.Words) < 5+off {
		return false
	}
	notStruct := func() bool {
		return s.fail(i, "", "The Structure's type in Op%s <id> %s must be a pointer to an OpTypeStruct.", name, s.idName(in.ResultID))
	}
	var pt *spirv.Type
	if j := s.defInst(in.Words[3+off]); j >= 0 {
		pt = s.typeOf(s.m.Inst(j).TypeID)
	}
	if untyped && (pt == nil || pt.Op != spirv.OpTypeUntypedPointerKHR) {
		return s.fail(i, "", "Pointer must be an untyped pointer object")
	}
	if pt == nil || (!untyped && pt.Op != spirv.OpTypePointer) {
		return notStruct()
	}
	st := s.typeOf(pt.Elem)
	if untyped {
		st = s.typeOf(in.Words[3])
	}
	if st == nil || st.Kind != spirv.TypeStruct {
		return notStruct()
	}
	n := len(st.Members)
	if n == 0 || !s.isKind(st.Members[n-1], spirv.TypeRuntimeArray) {
		return s.fail(i, "", "The Structure's last member in Op%s <id> %s must be an OpTypeRuntimeArray.", name, s.idName(in.ResultID))
	}
	if in.Words[4+off] != uint32(n-1) {
		return s.fail(i, "", "The array member in Op%s <id> %s must be the last member of the struct.", name, s.idName(in.ResultID))
	}
	if s.opts.Env.IsVulkan() && s.storageOf(pt) == spirv.StorageClassUniform && s.decorations().has(st.ID, spirv.DecorationBlock) {
		return s.fail(i, s.vuid("VUID-StandaloneSpirv-OpArrayLength-11805"), "Op%s must not be used on the OpTypeRuntimeArray inside a Uniform block", name)
	}
	return false
}

// variableRest is ValidateVariableCoopMat and, in Vulkan,
// ValidateVariableVulkanDescriptor, ValidateVariableVulkanInterface and
// ValidateVariableVulkanArray.
func (s *state) variableRest(i int, in *spirv.Instruction) bool {
	value, ok := s.variableDataType(in)
	if !ok {
		return false
	}
	sc := spirv.StorageClass(in.Words[3])
	vt := s.typeOf(value)
	if vt == nil {
		return false
	}
	if sc != spirv.StorageClassFunction && sc != spirv.StorageClassPrivate && s.containsCoopMat(value, 0) {
		return s.fail(i, "", "Cooperative matrix types (or types containing them) can only be allocated in Function or Private storage classes or as function parameters")
	}
	if !s.opts.Env.IsVulkan() {
		return false
	}
	name := lazyName{s, in.ResultID}
	elemOp := func() spirv.Opcode {
		if vt.Kind == spirv.TypeArray || vt.Kind == spirv.TypeRuntimeArray {
			if e := s.typeOf(vt.Elem); e != nil {
				return e.Op
			}
			return 0
		}
		return vt.Op
	}
	switch sc {
	case spirv.StorageClassPushConstant:
		if vt.Kind != spirv.TypeStruct {
			return s.fail(i, s.vuid("VUID-StandaloneSpirv-PushConstant-06808"), "PushConstant OpVariable <id> %s has illegal type.\nFrom Vulkan spec, Push Constant Interface section:\nSuch variables must be typed as OpTypeStruct", name)
		}
	case spirv.StorageClassUniformConstant:
		switch elemOp() {
		case spirv.OpTypeImage, spirv.OpTypeSampler, spirv.OpTypeSampledImage, spirv.OpTypeTensorARM, spirv.OpTypeAccelerationStructureKHR:
		default:
			return s.fail(i, s.vuid("VUID-StandaloneSpirv-UniformConstant-04655"), "UniformConstant OpVariable <id> %s has illegal type.\nVariables identified with the UniformConstant storage class are used only as handles to refer to opaque resources. Such variables must be typed as OpTypeImage, OpTypeSampler, OpTypeSampledImage, OpTypeAccelerationStructureKHR, or an array of one of these types.", name)
		}
	case spirv.StorageClassUniform, spirv.StorageClassStorageBuffer:
		if elemOp() != spirv.OpTypeStruct {
			return s.fail(i, s.vuid("VUID-StandaloneSpirv-Uniform-06807"), "%s OpVariable <id> %s has illegal type.\nFrom Vulkan spec:\nVariables identified with the %s storage class are used to access transparent buffer backed resources. Such variables must be typed as OpTypeStruct, or an array of this type", storageClassName(sc), name, storageClassName(sc))
		}
	}
	d := s.decorations()
	if sc != spirv.StorageClassInput && sc != spirv.StorageClassOutput {
		if d.has(in.ResultID, spirv.DecorationInvariant) {
			return s.fail(i, s.vuid("VUID-StandaloneSpirv-Invariant-04677"), "Variable decorated with Invariant must only be identified with the Input or Output storage class in Vulkan environment.")
		}
		if vt.Kind == spirv.TypeStruct && d.has(value, spirv.DecorationInvariant) {
			return s.fail(i, s.vuid("VUID-StandaloneSpirv-Invariant-04677"), "Variable struct member decorated with Invariant must only be identified with the Input or Output storage class in Vulkan environment.")
		}
	}
	rta := s.vuid("VUID-StandaloneSpirv-OpTypeRuntimeArray-04680")
	if vt.Kind == spirv.TypeRuntimeArray {
		if !s.caps.has(spirv.CapabilityRuntimeDescriptorArray) {
			return s.fail(i, rta, "OpVariable, <id> %s, is attempting to create memory for an illegal type, OpTypeRuntimeArray.\nFor Vulkan OpTypeRuntimeArray can only appear as the final member of an OpTypeStruct, thus cannot be instantiated via OpVariable, unless the RuntimeDescriptorArray Capability is declared", name)
		}
		if sc != spirv.StorageClassStorageBuffer && sc != spirv.StorageClassUniform && sc != spirv.StorageClassUniformConstant {
			return s.fail(i, rta, "For Vulkan with RuntimeDescriptorArray, a variable containing OpTypeRuntimeArray must have storage class of StorageBuffer, Uniform, or UniformConstant.")
		}
	}
	if vt.Kind == spirv.TypeStruct {
		hasRTA := false
		for _, m := range vt.Members {
			hasRTA = hasRTA || s.isKind(m, spirv.TypeRuntimeArray)
		}
		if hasRTA {
			switch sc {
			case spirv.StorageClassStorageBuffer, spirv.StorageClassPhysicalStorageBuffer:
				if !d.has(value, spirv.DecorationBlock) {
					return s.fail(i, rta, "For Vulkan, an OpTypeStruct variable containing an OpTypeRuntimeArray must be decorated with Block if it has storage class StorageBuffer or PhysicalStorageBuffer.")
				}
			case spirv.StorageClassUniform:
			default:
				return s.fail(i, rta, "For Vulkan, OpTypeStruct variables containing OpTypeRuntimeArray must have storage class of StorageBuffer, PhysicalStorageBuffer, or Uniform.")
			}
		}
	}
	return false
}

// variableSmallTypes is ValidateVariableShader's 16-bit and 8-bit rules.
func (s *state) variableSmallTypes(i int, in *spirv.Instruction) bool {
	value, ok := s.variableDataType(in)
	if !ok {
		return false
	}
	bits := s.sized(value)
	for _, w := range []uint32{16, 8} {
		var need bool
		if w == 16 {
			need = (bits&sizedInt16 != 0 && !s.caps.has(spirv.CapabilityInt16)) || (bits&sizedFloat16 != 0 && !s.caps.has(spirv.CapabilityFloat16))
		} else {
			need = bits&sizedInt8 != 0 && !s.caps.has(spirv.CapabilityInt8)
		}
		if !need {
			continue
		}
		sc := spirv.StorageClass(in.Words[3])
		under := s.typeOf(value)
		for k := 0; under != nil && under.Kind == spirv.TypePointer && k < 64; k++ {
			sc = under.Storage
			under = s.typeOf(under.Elem)
		}
		caps16 := map[spirv.StorageClass]spirv.Capability{
			spirv.StorageClassStorageBuffer: spirv.CapabilityStorageBuffer16BitAccess, spirv.StorageClassPhysicalStorageBuffer: spirv.CapabilityStorageBuffer16BitAccess,
			spirv.StorageClassPushConstant: spirv.CapabilityStoragePushConstant16, spirv.StorageClassInput: spirv.CapabilityStorageInputOutput16,
			spirv.StorageClassOutput: spirv.CapabilityStorageInputOutput16, spirv.StorageClassWorkgroup: spirv.CapabilityWorkgroupMemoryExplicitLayout16BitAccessKHR,
		}
		caps8 := map[spirv.StorageClass]spirv.Capability{
			spirv.StorageClassStorageBuffer: spirv.CapabilityStorageBuffer8BitAccess, spirv.StorageClassPhysicalStorageBuffer: spirv.CapabilityStorageBuffer8BitAccess,
			spirv.StorageClassPushConstant: spirv.CapabilityStoragePushConstant8, spirv.StorageClassWorkgroup: spirv.CapabilityWorkgroupMemoryExplicitLayout8BitAccessKHR,
		}
		table, uniformCap, sbCap := caps16, spirv.CapabilityUniformAndStorageBuffer16BitAccess, spirv.CapabilityStorageBuffer16BitAccess
		if w == 8 {
			table, uniformCap, sbCap = caps8, spirv.CapabilityUniformAndStorageBuffer8BitAccess, spirv.CapabilityStorageBuffer8BitAccess
		}
		ok := true
		if sc == spirv.StorageClassUniform {
			if under != nil && !s.caps.has(uniformCap) {
				if under.Kind == spirv.TypeArray || under.Kind == spirv.TypeRuntimeArray {
					under = s.typeOf(under.Elem)
				}
				if !s.caps.has(sbCap) || under == nil || !s.decorations().has(under.ID, spirv.DecorationBufferBlock) {
					ok = false
				}
			}
		} else if c, known := table[sc]; known {
			ok = s.caps.has(c)
		} else {
			return s.fail(i, "", "Cannot allocate a variable containing a %d-bit type in %s storage class", w, storageClassName(sc))
		}
		if !ok {
			return s.fail(i, "", "Allocating a variable containing a %d-bit element in %s storage class requires an additional capability", w, storageClassName(sc))
		}
	}
	return false
}

// Memory access mask bits.
const (
	maVolatile     = 0x1
	maAligned      = 0x2
	maAvailable    = 0x8
	maVisible      = 0x10
	maNonPrivate   = 0x20
	maAliasScope   = 0x10000
	maNoAliasINTEL = 0x20000
)

func memoryAccessWords(mask uint32) int {
	n := 1
	for _, b := range []uint32{maAligned, maAvailable, maVisible, maAliasScope, maNoAliasINTEL} {
		if mask&b != 0 {
			n++
		}
	}
	return n
}

// pointerTypeOf returns the type of pointer value id.
func (s *state) pointerTypeOf(id uint32) *spirv.Type {
	j := s.defInst(id)
	if j < 0 {
		return nil
	}
	return s.typeOf(s.m.Inst(j).TypeID)
}

// storageOf returns a pointer type's storage class (untyped pointers
// included), or a value no storage class has.
func (s *state) storageOf(t *spirv.Type) spirv.StorageClass {
	if t == nil {
		return spirv.StorageClass(0x7fffffff)
	}
	if t.Op == spirv.OpTypeUntypedPointerKHR {
		if j := s.defInst(t.ID); j >= 0 && len(s.m.Inst(j).Words) > 2 {
			return spirv.StorageClass(s.m.Inst(j).Words[2])
		}
	}
	return t.Storage
}

// largestScalar is GetLargestScalarType, in bytes.
func (s *state) largestScalar(t uint32, depth int) uint32 {
	ty := s.typeOf(t)
	if ty == nil || depth > 64 {
		return 0
	}
	switch ty.Kind {
	case spirv.TypeStruct:
		var m uint32
		for _, e := range ty.Members {
			m = max(m, s.largestScalar(e, depth+1))
		}
		return m
	case spirv.TypeArray, spirv.TypeVector:
		return s.largestScalar(ty.Elem, depth+1)
	}
	// The width of the core component only: pointers, NV matrices and
	// OpTypeVectorIdEXT count as no scalar here.
	if c := s.typeOf(s.plainComponentType(t)); c != nil {
		return c.Width / 8
	}
	return 0
}

// memoryAccess is CheckMemoryAccess for the memory operands at word k.
func (s *state) memoryAccess(i int, in *spirv.Instruction, k int) bool {
	var dst, src *spirv.Type
	switch in.Opcode {
	case spirv.OpLoad, spirv.OpCooperativeMatrixLoadKHR:
		dst = s.pointerTypeOf(in.Words[3])
	case spirv.OpStore, spirv.OpCooperativeMatrixStoreKHR:
		dst = s.pointerTypeOf(in.Words[1])
	case spirv.OpCopyMemory, spirv.OpCopyMemorySized:
		dst, src = s.pointerTypeOf(in.Words[1]), s.pointerTypeOf(in.Words[2])
	}
	const none = spirv.StorageClass(0x7fffffff)
	dsc, ssc := none, none
	if dst != nil {
		dsc = s.storageOf(dst)
	}
	if src != nil {
		ssc = s.storageOf(src)
	}
	psb := spirv.StorageClassPhysicalStorageBuffer
	if k >= len(in.Words) {
		if ssc == psb || dsc == psb {
			return s.fail(i, s.vuid("VUID-StandaloneSpirv-PhysicalStorageBuffer64-04708"), "Memory accesses with PhysicalStorageBuffer must use Aligned.")
		}
		return false
	}
	mask := in.Words[k]
	if mask&maAvailable != 0 {
		if in.Opcode == spirv.OpLoad || in.Opcode == spirv.OpCooperativeMatrixLoadKHR {
			return s.fail(i, "", "MakePointerAvailableKHR cannot be used with OpLoad.")
		}
		if mask&maNonPrivate == 0 {
			return s.fail(i, "", "NonPrivatePointerKHR must be specified if MakePointerAvailableKHR is specified.")
		}
		if s.accessScope(i, in, k, mask, maAvailable) {
			return true
		}
	}
	if mask&maVisible != 0 {
		if in.Opcode == spirv.OpStore || in.Opcode == spirv.OpCooperativeMatrixStoreKHR {
			return s.fail(i, "", "MakePointerVisibleKHR cannot be used with OpStore.")
		}
		if mask&maNonPrivate == 0 {
			return s.fail(i, "", "NonPrivatePointerKHR must be specified if MakePointerVisibleKHR is specified.")
		}
		if s.accessScope(i, in, k, mask, maVisible) {
			return true
		}
	}
	if mask&maNonPrivate != 0 {
		ok := func(sc spirv.StorageClass) bool {
			switch sc {
			case spirv.StorageClassUniform, spirv.StorageClassWorkgroup, spirv.StorageClassCrossWorkgroup, spirv.StorageClassGeneric,
				spirv.StorageClassImage, spirv.StorageClassStorageBuffer, spirv.StorageClassPhysicalStorageBuffer:
				return true
			}
			return false
		}
		if !ok(dsc) || (ssc != none && !ok(ssc)) {
			return s.fail(i, "", "NonPrivatePointerKHR requires a pointer in Uniform, Workgroup, CrossWorkgroup, Generic, Image or StorageBuffer storage classes.")
		}
	}
	if mask&maAligned == 0 {
		if ssc == psb || dsc == psb {
			return s.fail(i, s.vuid("VUID-StandaloneSpirv-PhysicalStorageBuffer64-04708"), "Memory accesses with PhysicalStorageBuffer must use Aligned.")
		}
		return false
	}
	if k+1 >= len(in.Words) {
		return false
	}
	a := in.Words[k+1]
	if a == 0 || a&(a-1) != 0 {
		return s.fail(i, "", "Memory accesses Aligned operand value %d is not a power of two.", a)
	}
	var largest uint32
	if dsc == psb {
		if dst.Op != spirv.OpTypeUntypedPointerKHR {
			largest = s.largestScalar(dst.Elem, 0)
		} else if in.TypeID != 0 {
			largest = s.largestScalar(in.TypeID, 0)
		}
	}
	if ssc == psb && src.Op != spirv.OpTypeUntypedPointerKHR {
		largest = max(largest, s.largestScalar(src.Elem, 0))
	}
	if a < largest {
		return s.fail(i, s.vuid("VUID-StandaloneSpirv-PhysicalStorageBuffer64-06314"), "Memory accesses Aligned operand value %d is too small, the largest scalar type is %d bytes.", a, largest)
	}
	return false
}

// accessScope checks the memory scope that follows the mask at word k
// for MakePointerAvailable or MakePointerVisible (bit): the operands
// come in bit order, so the scope's word is after the mask and the
// operands of the lower bits.
func (s *state) accessScope(i int, in *spirv.Instruction, k int, mask, bit uint32) bool {
	w := k - 1 + memoryAccessWords(mask&(bit|(bit-1)))
	if w >= len(in.Words) {
		return false
	}
	return s.memoryScope(i, in, in.Words[w])
}

// copyMemory is ValidateCopyMemory (the Shader rule on the size of
// OpCopyMemorySized, VUID 11165, is copySizeMultiple).
func (s *state) copyMemory(i int, in *spirv.Instruction) bool {
	if len(in.Words) < 3 {
		return false
	}
	tID, sID := in.Words[1], in.Words[2]
	if s.defInst(tID) < 0 {
		return s.fail(i, "", "Target operand <id> %s is not defined.", s.idName(tID))
	}
	if s.defInst(sID) < 0 {
		return s.fail(i, "", "Source operand <id> %s is not defined.", s.idName(sID))
	}
	isPtr := func(t *spirv.Type) bool {
		return t != nil && (t.Op == spirv.OpTypePointer || t.Op == spirv.OpTypeUntypedPointerKHR)
	}
	tp, sp := s.pointerTypeOf(tID), s.pointerTypeOf(sID)
	if !isPtr(tp) {
		return s.fail(i, "", "Target operand <id> %s is not a pointer.", s.idName(tID))
	}
	if !isPtr(sp) {
		return s.fail(i, "", "Source operand <id> %s is not a pointer.", s.idName(sID))
	}
	first := 3
	if in.Opcode == spirv.OpCopyMemory {
		var tt, st *spirv.Type
		if tp.Op == spirv.OpTypePointer {
			tt = s.typeOf(tp.Elem)
			if tt == nil || tt.Kind == spirv.TypeVoid {
				return s.fail(i, "", "Target operand <id> %s cannot be a void pointer.", s.idName(tID))
			}
		}
		if sp.Op == spirv.OpTypePointer {
			st = s.typeOf(sp.Elem)
			if st == nil || st.Kind == spirv.TypeVoid {
				return s.fail(i, "", "Source operand <id> %s cannot be a void pointer.", s.idName(sID))
			}
		}
		if tt != nil && st != nil && tt.ID != st.ID {
			return s.fail(i, "", "Target <id> %ss type does not match Source <id> %ss type.", s.idName(sID), s.idName(st.ID))
		}
		if tt == nil && st == nil {
			return s.fail(i, "", "One of Source or Target must be a typed pointer")
		}
	} else {
		if len(in.Words) < 4 {
			return false
		}
		first = 4
		zID := in.Words[3]
		zj := s.defInst(zID)
		if zj < 0 {
			return s.fail(i, "", "Size operand <id> %s is not defined.", s.idName(zID))
		}
		z := s.m.Inst(zj)
		zt := s.typeOf(z.TypeID)
		if zt == nil || zt.Kind != spirv.TypeInt {
			return s.fail(i, "", "Size operand <id> %s must be a scalar integer type.", s.idName(zID))
		}
		switch z.Opcode {
		case spirv.OpConstantNull:
			return s.fail(i, "", "Size operand <id> %s cannot be a constant zero.", s.idName(zID))
		case spirv.OpConstant:
			if zt.Signed && len(z.Words) > 3 && z.Words[len(z.Words)-1]&0x80000000 != 0 {
				return s.fail(i, "", "Size operand <id> %s cannot have the sign bit set to 1.", s.idName(zID))
			}
			zero := true
			for _, w := range z.Words[3:] {
				zero = zero && w == 0
			}
			if zero {
				return s.fail(i, "", "Size operand <id> %s cannot be a constant zero.", s.idName(zID))
			}
		}
		if s.caps.has(spirv.CapabilityShader) && s.copySizeMultiple(i, zID, s.storageOf(sp), s.storageOf(tp)) {
			return true
		}
	}
	if s.memoryAccess(i, in, first) {
		return true
	}
	if first < len(in.Words) {
		m1 := in.Words[first]
		second := first + memoryAccessWords(m1)
		if second < len(in.Words) {
			if s.version < spirv.MakeVersion(1, 4) {
				return s.fail(i, "", "%s with two memory access operands requires SPIR-V 1.4 or later", opName(in.Opcode))
			}
			if s.memoryAccess(i, in, second) {
				return true
			}
			if m1&maVisible != 0 {
				return s.fail(i, "", "Target memory access must not include MakePointerVisibleKHR")
			}
			if in.Words[second]&maAvailable != 0 {
				return s.fail(i, "", "Source memory access must not include MakePointerAvailableKHR")
			}
		}
	}
	if tp.Op == spirv.OpTypePointer {
		sub := s.typeOf(tp.Elem)
		for k := 0; sub != nil && sub.Kind == spirv.TypePointer && k < 64; k++ {
			sub = s.typeOf(sub.Elem)
		}
		if sub != nil && s.caps.has(spirv.CapabilityShader) && s.limitedUse(sub.ID) {
			return s.fail(i, "", "Cannot copy memory of objects containing 8- or 16-bit types")
		}
	}
	return false
}

// ptrComparison is ValidatePtrComparison (OpPtrEqual, OpPtrNotEqual,
// OpPtrDiff).
func (s *state) ptrComparison(i int, in *spirv.Instruction) bool {
	if len(in.Words) < 5 {
		return false
	}
	j1, j2 := s.defInst(in.Words[3]), s.defInst(in.Words[4])
	if j1 < 0 || j2 < 0 {
		return false
	}
	op1, op2 := s.m.Inst(j1), s.m.Inst(j2)
	// spirv-val reads the storage class operand of the first operand's
	// type before it knows the type is a pointer.
	var sc spirv.StorageClass
	if tj := s.defInst(op1.TypeID); tj >= 0 && len(s.m.Inst(tj).Words) > 2 {
		sc = spirv.StorageClass(s.m.Inst(tj).Words[2])
	}
	am := s.x.AddressingModel
	vp := s.caps.has(spirv.CapabilityVariablePointers) || s.caps.has(spirv.CapabilityVariablePointersStorageBuffer)
	if (am == spirv.AddressingModelLogical || am == spirv.AddressingModelPhysicalStorageBuffer64) &&
		sc != spirv.StorageClassPhysicalStorageBuffer && !vp {
		return s.fail(i, "", "Instruction on logical pointers cannot be used without a variable pointers capability")
	}
	if in.Opcode == spirv.OpPtrDiff {
		if !s.isKind(in.TypeID, spirv.TypeInt) {
			return s.fail(i, "", "Result Type must be an integer scalar")
		}
	} else if !s.isKind(in.TypeID, spirv.TypeBool) {
		return s.fail(i, "", "Result Type must be OpTypeBool")
	}
	t1, t2 := s.typeOf(op1.TypeID), s.typeOf(op2.TypeID)
	isPtr := func(t *spirv.Type) bool {
		return t != nil && (t.Op == spirv.OpTypePointer || t.Op == spirv.OpTypeUntypedPointerKHR)
	}
	if !isPtr(t1) || !isPtr(t2) {
		return s.fail(i, "", "Operand type must be a pointer")
	}
	untyped := t1.Op == spirv.OpTypeUntypedPointerKHR || t2.Op == spirv.OpTypeUntypedPointerKHR
	switch {
	case in.Opcode != spirv.OpPtrDiff && untyped:
		if s.storageOf(t1) != s.storageOf(t2) {
			return s.fail(i, "", "Pointer storage classes must match")
		}
	case op1.TypeID != op2.TypeID:
		return s.fail(i, "", "The types of Operand 1 and Operand 2 must match")
	}
	if am == spirv.AddressingModelLogical {
		if sc != spirv.StorageClassWorkgroup && sc != spirv.StorageClassStorageBuffer {
			return s.fail(i, "", "Invalid pointer storage class")
		}
		if sc == spirv.StorageClassWorkgroup && !s.caps.has(spirv.CapabilityVariablePointers) {
			return s.fail(i, "", "Workgroup storage class pointer requires VariablePointers capability to be specified")
		}
	} else if sc == spirv.StorageClassPhysicalStorageBuffer {
		return s.fail(i, "", "Cannot use a pointer in the PhysicalStorageBuffer storage class")
	}
	return false
}
