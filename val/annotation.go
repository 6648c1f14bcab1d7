package val

import "spvx/spirv"

// This file holds validate_annotation.cpp's rules: OpDecorate (the target
// each decoration may apply to, Vulkan's storage classes for Location,
// Binding, Flat and the rest, FPFastMathMode), OpDecorateId,
// OpMemberDecorate(IdEXT) (struct target, member index, member-only and
// never-member decorations), OpDecorationGroup and OpGroupDecorate /
// OpGroupMemberDecorate. The descriptor-heap parts of ArrayStrideIdEXT and
// OffsetIdEXT (SPV_EXT_descriptor_heap) are not written yet.

// annotationOps reports whether annotationPass can act on an instruction of opcode op
// (passGate runs it on no other: a new case there needs its opcode here).
func annotationOps(op spirv.Opcode) bool {
	return opIn(op, spirv.OpDecorate, spirv.OpDecorateId, spirv.OpMemberDecorate, spirv.OpMemberDecorateIdEXT,
		spirv.OpDecorationGroup, spirv.OpGroupDecorate, spirv.OpGroupMemberDecorate)
}

func (s *state) annotationPass(i int, in *spirv.Instruction) bool {
	switch in.Opcode {
	case spirv.OpDecorate:
		return s.decorate(i, in)
	case spirv.OpDecorateId:
		return s.decorateID(i, in)
	case spirv.OpMemberDecorate, spirv.OpMemberDecorateIdEXT:
		return s.memberDecorate(i, in)
	case spirv.OpDecorationGroup:
		return s.decorationGroup(i, in)
	case spirv.OpGroupDecorate:
		return s.groupDecorate(i, in)
	case spirv.OpGroupMemberDecorate:
		return s.groupMemberDecorate(i, in)
	}
	return false
}

func decorationTakesIDs(d spirv.Decoration) bool {
	switch d {
	case spirv.DecorationUniformId, spirv.DecorationAlignmentId, spirv.DecorationMaxByteOffsetId,
		spirv.DecorationCounterBuffer, spirv.DecorationNodeMaxPayloadsAMDX,
		spirv.DecorationNodeSharesPayloadLimitsWithAMDX, spirv.DecorationPayloadNodeArraySizeAMDX,
		spirv.DecorationPayloadNodeNameAMDX, spirv.DecorationPayloadNodeBaseIndexAMDX,
		spirv.DecorationArrayStrideIdEXT, spirv.DecorationOffsetIdEXT, spirv.DecorationAliasScopeINTEL,
		spirv.DecorationNoAliasINTEL:
		return true
	}
	return false
}

func memberDecorationOnly(d spirv.Decoration) bool {
	switch d {
	case spirv.DecorationRowMajor, spirv.DecorationColMajor, spirv.DecorationMatrixStride, spirv.DecorationOffsetIdEXT:
		return true
	}
	return false
}

func notMemberDecoration(d spirv.Decoration) bool {
	switch d {
	case spirv.DecorationSpecId, spirv.DecorationBlock, spirv.DecorationBufferBlock, spirv.DecorationArrayStride,
		spirv.DecorationArrayStrideIdEXT, spirv.DecorationGLSLShared, spirv.DecorationGLSLPacked, spirv.DecorationCPacked,
		spirv.DecorationAliased, spirv.DecorationConstant, spirv.DecorationUniform, spirv.DecorationUniformId,
		spirv.DecorationSaturatedConversion, spirv.DecorationIndex, spirv.DecorationBinding, spirv.DecorationDescriptorSet,
		spirv.DecorationFuncParamAttr, spirv.DecorationFPRoundingMode, spirv.DecorationFPFastMathMode,
		spirv.DecorationLinkageAttributes, spirv.DecorationNoContraction, spirv.DecorationInputAttachmentIndex,
		spirv.DecorationAlignment, spirv.DecorationMaxByteOffset, spirv.DecorationAlignmentId,
		spirv.DecorationMaxByteOffsetId, spirv.DecorationNoSignedWrap, spirv.DecorationNoUnsignedWrap,
		spirv.DecorationNonUniform, spirv.DecorationRestrictPointer, spirv.DecorationAliasedPointer,
		spirv.DecorationCounterBuffer:
		return true
	}
	return false
}

// decoratedBefore reports whether an OpDecorate before instruction i gives
// id decoration dec (SPIRV-Tools registers decorations as it goes).
func (s *state) decoratedBefore(id uint32, dec spirv.Decoration, i int) bool {
	for _, e := range s.x.Decorations[id] {
		if e.Inst < i && e.Kind == dec {
			return true
		}
	}
	return false
}

func (s *state) decorate(i int, in *spirv.Instruction) bool {
	if len(in.Words) < 3 {
		return false
	}
	targetID, dec := in.Words[1], spirv.Decoration(in.Words[2])
	tj := s.defInst(targetID)
	if tj < 0 {
		return s.fail(i, "", "target is not defined")
	}
	if s.opts.Env.IsVulkan() && (dec == spirv.DecorationGLSLShared || dec == spirv.DecorationGLSLPacked) {
		return s.fail(i, s.vuid("VUID-StandaloneSpirv-GLSLShared-04669"), "OpDecorate decoration '%s' is not valid for the Vulkan execution environment.", decorationName(dec))
	}
	if dec == spirv.DecorationFPFastMathMode {
		if s.decoratedBefore(targetID, spirv.DecorationNoContraction, i) {
			return s.fail(i, "", "FPFastMathMode and NoContraction cannot decorate the same target")
		}
		if len(in.Words) > 3 {
			const transform, contract, reassoc = 0x40000, 0x10000, 0x20000
			if m := in.Words[3]; m&transform != 0 && m&(contract|reassoc) != contract|reassoc {
				return s.fail(i, "", "AllowReassoc and AllowContract must be specified when AllowTransform is specified")
			}
		}
	}
	if dec == spirv.DecorationNoContraction && s.decoratedBefore(targetID, spirv.DecorationFPFastMathMode, i) {
		return s.fail(i, "", "FPFastMathMode and NoContraction cannot decorate the same target")
	}
	if decorationTakesIDs(dec) {
		return s.fail(i, "", "Decorations taking ID parameters may not be used with OpDecorateId")
	}
	target := s.m.Inst(tj)
	if target.Opcode == spirv.OpDecorationGroup {
		return false
	}
	if memberDecorationOnly(dec) {
		return s.fail(i, "", "%s can only be applied to structure members", decorationName(dec))
	}
	return s.decorationTarget(i, in, dec, tj, &target)
}

// decorationTarget is ValidateDecorationTarget.
func (s *state) decorationTarget(i int, in *spirv.Instruction, dec spirv.Decoration, tj int, target *spirv.Instruction) bool {
	prefix := func() string {
		return decorationName(dec) + " decoration on target <id> " + s.idName(target.ResultID) + " "
	}
	isVar := target.Opcode == spirv.OpVariable || target.Opcode == spirv.OpUntypedVariableKHR
	switch dec {
	case spirv.DecorationSpecId:
		switch target.Opcode {
		case spirv.OpSpecConstantTrue, spirv.OpSpecConstantFalse, spirv.OpSpecConstant, spirv.OpSpecConstantDataKHR:
		default:
			return s.fail(i, "", "%smust be OpSpecConstantTrue, OpSpecConstantFalse, OpSpecConstant, or OpSpecConstantDataKHR", prefix())
		}
	case spirv.DecorationBlock, spirv.DecorationBufferBlock, spirv.DecorationGLSLShared, spirv.DecorationGLSLPacked, spirv.DecorationCPacked:
		if target.Opcode != spirv.OpTypeStruct {
			return s.fail(i, "", "%smust be a structure type", prefix())
		}
	case spirv.DecorationArrayStride:
		switch target.Opcode {
		case spirv.OpTypeArray, spirv.OpTypeRuntimeArray, spirv.OpTypePointer, spirv.OpTypeUntypedPointerKHR:
		default:
			return s.fail(i, "", "%smust be an array or pointer type", prefix())
		}
	case spirv.DecorationBuiltIn:
		if !isVar && !isConstantOp(target.Opcode) {
			return s.fail(i, "", "BuiltIns can only target variables, structure members or constants")
		}
		if s.caps.has(spirv.CapabilityShader) && len(in.Words) > 3 && spirv.BuiltIn(in.Words[3]) == spirv.BuiltInWorkgroupSize {
			if !isConstantOp(target.Opcode) {
				return s.fail(i, "", "%smust be a constant for WorkgroupSize", prefix())
			}
		} else if !isVar {
			return s.fail(i, "", "%smust be a variable", prefix())
		}
	case spirv.DecorationNoPerspective, spirv.DecorationFlat, spirv.DecorationPatch, spirv.DecorationCentroid,
		spirv.DecorationSample, spirv.DecorationRestrict, spirv.DecorationAliased, spirv.DecorationVolatile,
		spirv.DecorationCoherent, spirv.DecorationNonWritable, spirv.DecorationNonReadable, spirv.DecorationXfbBuffer,
		spirv.DecorationXfbStride, spirv.DecorationComponent, spirv.DecorationStream, spirv.DecorationRestrictPointer,
		spirv.DecorationAliasedPointer, spirv.DecorationPerPrimitiveEXT:
		switch target.Opcode {
		case spirv.OpVariable, spirv.OpUntypedVariableKHR, spirv.OpFunctionParameter, spirv.OpRawAccessChainNV, spirv.OpBufferPointerEXT:
		default:
			return s.fail(i, "", "%smust be a memory object declaration", prefix())
		}
		if t := s.typeOf(target.TypeID); t == nil || (t.Op != spirv.OpTypePointer && t.Op != spirv.OpTypeUntypedPointerKHR) {
			return s.fail(i, "", "%smust be a pointer type", prefix())
		}
	case spirv.DecorationInvariant, spirv.DecorationConstant, spirv.DecorationLocation, spirv.DecorationIndex,
		spirv.DecorationBinding, spirv.DecorationDescriptorSet, spirv.DecorationInputAttachmentIndex:
		if !isVar {
			return s.fail(i, "", "%smust be a variable", prefix())
		}
	}
	if !s.opts.Env.IsVulkan() {
		return false
	}
	sc := spirv.StorageClassUniform
	if j := s.defInst(target.TypeID); j >= 0 {
		if t := s.m.Inst(j); len(t.Operands) > 2 {
			sc = spirv.StorageClass(t.Words[2])
		}
	}
	switch dec {
	case spirv.DecorationLocation, spirv.DecorationComponent:
		switch sc {
		case spirv.StorageClassInput, spirv.StorageClassOutput, spirv.StorageClassRayPayloadKHR,
			spirv.StorageClassIncomingRayPayloadKHR, spirv.StorageClassHitAttributeKHR, spirv.StorageClassCallableDataKHR,
			spirv.StorageClassIncomingCallableDataKHR, spirv.StorageClassShaderRecordBufferKHR,
			spirv.StorageClassHitObjectAttributeNV, spirv.StorageClassHitObjectAttributeEXT, spirv.StorageClassTileImageEXT:
		default:
			return s.fail(tj, s.vuid("VUID-StandaloneSpirv-Location-06672"), "%s decoration must not be applied to this storage class", decorationName(dec))
		}
	case spirv.DecorationIndex:
		if sc != spirv.StorageClassOutput {
			return s.fail(i, "", "%smust be in the Output storage class", prefix())
		}
	case spirv.DecorationBinding, spirv.DecorationDescriptorSet:
		switch sc {
		case spirv.StorageClassStorageBuffer, spirv.StorageClassUniform, spirv.StorageClassUniformConstant, spirv.StorageClassTileAttachmentQCOM:
		default:
			return s.fail(i, s.vuid("VUID-StandaloneSpirv-DescriptorSet-06491"), "%smust be in the StorageBuffer, Uniform, or UniformConstant storage class", prefix())
		}
	case spirv.DecorationInputAttachmentIndex:
		if sc != spirv.StorageClassUniformConstant {
			return s.fail(i, s.vuid("VUID-StandaloneSpirv-InputAttachmentIndex-06678"), "%smust be in the UniformConstant storage class", prefix())
		}
	case spirv.DecorationFlat, spirv.DecorationNoPerspective, spirv.DecorationCentroid, spirv.DecorationSample:
		if sc != spirv.StorageClassInput && sc != spirv.StorageClassOutput {
			return s.fail(i, s.vuid("VUID-StandaloneSpirv-Flat-04670"), "%sstorage class must be Input or Output", prefix())
		}
	case spirv.DecorationPerVertexKHR:
		if sc != spirv.StorageClassInput {
			return s.fail(i, s.vuid("VUID-StandaloneSpirv-PerVertexKHR-06777"), "%sstorage class must be Input", prefix())
		}
	}
	return false
}

func (s *state) decorateID(i int, in *spirv.Instruction) bool {
	if len(in.Words) < 3 {
		return false
	}
	targetID, dec := in.Words[1], spirv.Decoration(in.Words[2])
	tj := s.defInst(targetID)
	if tj >= 0 && s.m.Opcode(tj) == spirv.OpDecorationGroup {
		return s.fail(i, "", "OpMemberDecorate Target <id> %s must not be an OpDecorationGroup instruction.", s.idName(targetID))
	}
	if !decorationTakesIDs(dec) {
		return s.fail(i, "", "Decorations that don't take ID parameters may not be used with OpDecorateId")
	}
	if dec == spirv.DecorationArrayStrideIdEXT && tj >= 0 {
		if op := s.m.Opcode(tj); op != spirv.OpTypeArray && op != spirv.OpTypeRuntimeArray {
			return s.fail(i, "", "ArrayStrideIdEXT decoration must only be applied to array types.")
		}
	}
	for _, p := range in.Words[3:] {
		if pj := s.defInst(p); tj >= 0 && pj >= tj {
			return s.fail(i, "", "Parameter <ID> %s must appear earlier in the binary than the target", s.idName(p))
		}
	}
	if memberDecorationOnly(dec) {
		return s.fail(i, "", "%s can only be applied to structure members", decorationName(dec))
	}
	return false
}

func (s *state) memberDecorate(i int, in *spirv.Instruction) bool {
	if len(in.Words) < 4 {
		return false
	}
	name := "OpMemberDecorate"
	isID := in.Opcode == spirv.OpMemberDecorateIdEXT
	if isID {
		name = "OpMemberDecorateIdEXT"
	}
	stID := in.Words[1]
	st := s.typeOf(stID)
	if st == nil || st.Kind != spirv.TypeStruct {
		return s.fail(i, "", "%s Structure type <id> %s is not a struct type.", name, s.idName(stID))
	}
	member, n := in.Words[2], uint32(len(st.Members))
	if n <= member {
		return s.fail(i, "", "Index %d provided in %s for struct <id> %s is out of bounds. The structure has %d members. Largest valid index is %d.",
			member, name, s.idName(stID), n, n-1)
	}
	dec := spirv.Decoration(in.Words[3])
	if isID && dec != spirv.DecorationOffsetIdEXT {
		if dec == spirv.DecorationArrayStrideIdEXT {
			return s.fail(i, "", "ArrayStrideIdEXT could only be directly applied to array type using OpDecorateId.")
		}
		return s.fail(i, "", "Decoration operand could only be OffsetIdEXT.")
	}
	if notMemberDecoration(dec) {
		return s.fail(i, "", "%s cannot be applied to structure members", decorationName(dec))
	}
	return false
}

func (s *state) decorationGroup(i int, in *spirv.Instruction) bool {
	d := s.decorations()
	if d.groupUses == nil {
		want := map[uint32]bool{}
		for k := 0; k < s.m.Len(); k++ {
			if s.m.Opcode(k) == spirv.OpDecorationGroup {
				want[s.m.Inst(k).ResultID] = true
			}
		}
		d.groupUses = s.usesOf(want)
	}
	for _, u := range d.groupUses[in.ResultID] {
		user := s.m.Inst(u[0])
		switch {
		case user.Opcode == spirv.OpDecorate, user.Opcode == spirv.OpGroupDecorate, user.Opcode == spirv.OpGroupMemberDecorate,
			user.Opcode == spirv.OpName, user.Opcode == spirv.OpExtInst && s.isNonSemantic(&user):
		default:
			return s.fail(i, "", "Result id of OpDecorationGroup can only be targeted by OpName, OpGroupDecorate, OpDecorate, OpDecorateId, and OpGroupMemberDecorate")
		}
	}
	return false
}

func (s *state) isDecorationGroup(id uint32) bool {
	j := s.defInst(id)
	return j >= 0 && s.m.Opcode(j) == spirv.OpDecorationGroup
}

func (s *state) groupDecorate(i int, in *spirv.Instruction) bool {
	if len(in.Words) < 2 {
		return false
	}
	if !s.isDecorationGroup(in.Words[1]) {
		return s.fail(i, "", "OpGroupDecorate Decoration group <id> %s is not a decoration group.", s.idName(in.Words[1]))
	}
	seen := map[uint32]bool{}
	for _, t := range in.Words[2:] {
		if s.defInst(t) < 0 || s.isDecorationGroup(t) {
			return s.fail(i, "", "OpGroupDecorate may not target OpDecorationGroup <id> %s", s.idName(t))
		}
		if seen[t] {
			return s.fail(i, "", "Targets contains duplicate id %s", s.idName(t))
		}
		seen[t] = true
	}
	return false
}

func (s *state) groupMemberDecorate(i int, in *spirv.Instruction) bool {
	if len(in.Words) < 2 {
		return false
	}
	if !s.isDecorationGroup(in.Words[1]) {
		return s.fail(i, "", "OpGroupMemberDecorate Decoration group <id> %s is not a decoration group.", s.idName(in.Words[1]))
	}
	for k := 2; k+1 < len(in.Words); k += 2 {
		stID, idx := in.Words[k], in.Words[k+1]
		st := s.typeOf(stID)
		if st == nil || st.Kind != spirv.TypeStruct {
			return s.fail(i, "", "OpGroupMemberDecorate Structure type <id> %s is not a struct type.", s.idName(stID))
		}
		if n := uint32(len(st.Members)); idx >= n {
			return s.fail(i, "", "Index %d provided in OpGroupMemberDecorate for struct <id> %s is out of bounds. The structure has %d members. Largest valid index is %d.",
				idx, s.idName(stID), n, n-1)
		}
	}
	return false
}
