package val

import (
	"slices"
	"strconv"
	"strings"

	"spvx/spirv"
)

// This file holds validate_instruction.cpp's rules: capabilities,
// extensions and SPIR-V versions of every opcode and enumerant operand,
// from the generated grammar tables, and the --max-* limits checked per
// instruction.

// registerCapability declares c and, recursively, every capability it
// implies (the grammar's "capabilities" of a Capability enumerant), and
// sets the features SPIRV-Tools ties to it.
func (s *state) registerCapability(c spirv.Capability) {
	if !s.caps.add(c) {
		return
	}
	if e, ok := spirv.OperandKindCapability.Enumerant(uint32(c)); ok {
		for _, d := range e.Capabilities {
			s.registerCapability(d)
		}
	}
	switch c {
	case spirv.CapabilityKernel:
		s.feat.groupOpsReduceAndScans = true
	case spirv.CapabilityInt8, spirv.CapabilityStorageBuffer8BitAccess,
		spirv.CapabilityUniformAndStorageBuffer8BitAccess, spirv.CapabilityStoragePushConstant8,
		spirv.CapabilityWorkgroupMemoryExplicitLayout8BitAccessKHR:
		s.feat.declareInt8 = true
	case spirv.CapabilityInt16:
		s.feat.declareI16 = true
	case spirv.CapabilityFloat16, spirv.CapabilityFloat16Buffer:
		s.feat.declareFloat16 = true
	case spirv.CapabilityFloat8EXT, spirv.CapabilityFloat8UnsignedE8M0EXT, spirv.CapabilityMXInt8EXT:
		s.feat.declareFloat8 = true
	case spirv.CapabilityStorageUniformBufferBlock16, spirv.CapabilityStorageUniform16,
		spirv.CapabilityStoragePushConstant16, spirv.CapabilityStorageInputOutput16,
		spirv.CapabilityWorkgroupMemoryExplicitLayout16BitAccessKHR:
		s.feat.declareI16, s.feat.declareFloat16, s.feat.freeFPRoundingMode = true, true, true
	}
}

// registerExtension declares an OpExtension name.
func (s *state) registerExtension(name string) {
	s.exts[name] = true
	switch name {
	case "SPV_AMD_gpu_shader_half_float", "SPV_AMD_gpu_shader_half_float_fetch":
		s.feat.declareFloat16 = true
	case "SPV_AMD_shader_ballot":
		s.feat.groupOpsReduceAndScans = true
	case "SPV_AMD_gpu_shader_int16":
		s.feat.uconvertSpecConstantOp = true
	}
}

// hasAnyCap is HasAnyOfCapabilities: true for an empty set.
func (s *state) hasAnyCap(cs []spirv.Capability) bool {
	if len(cs) == 0 {
		return true
	}
	for _, c := range cs {
		if s.caps.has(c) {
			return true
		}
	}
	return false
}

// hasAnyExt is HasAnyOfExtensions: true for an empty set.
func (s *state) hasAnyExt(es []string) bool {
	if len(es) == 0 {
		return true
	}
	for _, e := range es {
		if s.exts[e] {
			return true
		}
	}
	return false
}

// filterCaps is filterCapsAgainstTargetEnv: the capabilities visible in
// the environment (in its core version range, or enabled by an extension
// or a capability), sorted by value as SPIRV-Tools' CapabilitySet
// iterates them.
func (s *state) filterCaps(cs []spirv.Capability) []spirv.Capability {
	if len(cs) == 0 {
		return nil
	}
	v := s.opts.Env.Version()
	out := make([]spirv.Capability, 0, len(cs))
	for _, c := range cs {
		e, ok := spirv.OperandKindCapability.Enumerant(uint32(c))
		if !ok {
			continue
		}
		if (v >= e.Version && v <= lastVersion(e.LastVersion)) || len(e.Extensions) > 0 || len(e.Capabilities) > 0 {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// capsOK is hasAnyCap(filterCaps(cs)) without building the list: no
// visible capability, or one of them declared.
func (s *state) capsOK(cs []spirv.Capability) bool {
	v := s.opts.Env.Version()
	visible := false
	for _, c := range cs {
		e, ok := spirv.OperandKindCapability.Enumerant(uint32(c))
		if !ok {
			continue
		}
		if (v >= e.Version && v <= lastVersion(e.LastVersion)) || len(e.Extensions) > 0 || len(e.Capabilities) > 0 {
			if s.caps.has(c) {
				return true
			}
			visible = true
		}
	}
	return !visible
}

// lastVersion maps the grammar's 0 ("still current") to the largest
// version.
func lastVersion(v spirv.Version) spirv.Version {
	if v == 0 {
		return spirv.VersionNone
	}
	return v
}

// capNames is SPIRV-Tools' ToString(CapabilitySet): each name followed by
// a space.
func capNames(cs []spirv.Capability) string {
	var b strings.Builder
	for _, c := range cs {
		if e, ok := spirv.OperandKindCapability.Enumerant(uint32(c)); ok {
			b.WriteString(e.Name)
		} else {
			b.WriteString(strconv.FormatUint(uint64(c), 10))
		}
		b.WriteByte(' ')
	}
	return b.String()
}

// extNames is ExtensionSetToString: sorted (the Extension enum is in name
// order), each followed by a space.
func extNames(es []string) string {
	es = slices.Clone(es)
	slices.Sort(es)
	return strings.Join(es, " ") + " "
}

// opName is spvOpcodeString: the name without "Op".
func opName(op spirv.Opcode) string {
	return strings.TrimPrefix(op.String(), "Op")
}

// ordinal is CardinalToOrdinal.
func ordinal(n int) string {
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return strconv.Itoa(n) + suffix
}

// instructionPass is InstructionPass. It reports whether it failed.
func (s *state) instructionPass(i int, in *spirv.Instruction) bool {
	m := s.m
	switch in.Opcode {
	case spirv.OpCapability:
		if len(in.Words) > 1 {
			s.registerCapability(spirv.Capability(in.Words[1]))
		}
	case spirv.OpConditionalCapabilityINTEL:
		if len(in.Words) > 2 {
			s.registerCapability(spirv.Capability(in.Words[2]))
		}
	case spirv.OpSourceContinued:
		if i == 0 || (m.Inst(i-1).Opcode != spirv.OpSource && m.Inst(i-1).Opcode != spirv.OpSourceContinued) {
			return s.fail(i, "", "OpSourceContinued must be preceded by OpSource or OpSourceContinued.")
		}
	case spirv.OpMemoryModel:
		if s.memoryModelSeen {
			return s.fail(i, "", "OpMemoryModel should only be provided once.")
		}
		s.memoryModelSeen = true
	case spirv.OpVariable:
		if len(in.Words) > 3 {
			if spirv.StorageClass(in.Words[3]) == spirv.StorageClassFunction {
				s.localVars++
				if s.localVars > s.lim.MaxLocalVariables {
					return s.fail(-1, "", "Number of local variables ('Function' Storage Class) exceeded the valid limit (%d).", s.lim.MaxLocalVariables)
				}
			} else {
				s.globalVars++
				if s.globalVars > s.lim.MaxGlobalVariables {
					return s.fail(-1, "", "Number of Global Variables (Storage Class other than 'Function') exceeded the valid limit (%d).", s.lim.MaxGlobalVariables)
				}
			}
		}
	case spirv.OpImageSparseSampleProjImplicitLod, spirv.OpImageSparseSampleProjExplicitLod,
		spirv.OpImageSparseSampleProjDrefImplicitLod, spirv.OpImageSparseSampleProjDrefExplicitLod:
		return s.fail(i, "", "Invalid Opcode name '%s'", in.Opcode)
	}
	if s.capabilityCheck(i, in) {
		return true
	}
	if in.ResultID != 0 && in.ResultID >= m.Header.Bound {
		return s.fail(i, "", "Result <id> '%d' must be less than the ID bound '%d'.", in.ResultID, m.Header.Bound)
	}
	if in.Opcode == spirv.OpTypeStruct && s.limitStruct(i, in) {
		return true
	}
	if in.Opcode == spirv.OpSwitch {
		pairs := (len(in.Operands) - 2) / 2
		if uint32(pairs) > s.lim.MaxSwitchBranches {
			return s.fail(i, "", "Number of (literal, label) pairs in OpSwitch (%d) exceeds the limit (%d).", pairs, s.lim.MaxSwitchBranches)
		}
	}
	return s.versionCheck(i, in)
}

// capabilityCheck is CapabilityCheck: the opcode's capabilities, then
// each enumerant operand's (every bit of a mask, high bit first).
func (s *state) capabilityCheck(i int, in *spirv.Instruction) bool {
	info := in.Opcode.Info()
	if info == nil {
		return false
	}
	opcodeCaps := info.Capabilities
	switch in.Opcode {
	case spirv.OpGroupIAddNonUniformAMD, spirv.OpGroupFAddNonUniformAMD, spirv.OpGroupFMinNonUniformAMD,
		spirv.OpGroupUMinNonUniformAMD, spirv.OpGroupSMinNonUniformAMD, spirv.OpGroupFMaxNonUniformAMD,
		spirv.OpGroupUMaxNonUniformAMD, spirv.OpGroupSMaxNonUniformAMD:
		if s.exts["SPV_AMD_shader_ballot"] {
			opcodeCaps = nil
		}
	}
	if !s.capsOK(opcodeCaps) {
		return s.fail(i, "", "Opcode %s requires one of these capabilities: %s", opName(in.Opcode), capNames(s.filterCaps(opcodeCaps)))
	}
	for k, o := range in.Operands {
		ki := o.Kind.Info()
		if ki == nil || ki.Set != "" {
			continue
		}
		w := in.Words[o.Offset]
		switch ki.Category {
		case spirv.CategoryBitEnum:
			for bit := uint32(0x80000000); bit != 0; bit >>= 1 {
				if w&bit != 0 && s.requiredCaps(i, in, k+1, o.Kind, bit) {
					return true
				}
			}
		case spirv.CategoryValueEnum:
			if s.requiredCaps(i, in, k+1, o.Kind, w) {
				return true
			}
		}
	}
	return false
}

// requiredCaps is CheckRequiredCapabilities for operand number which
// (1-based, Result Type and Result included) of kind k with value word.
func (s *state) requiredCaps(i int, in *spirv.Instruction, which int, k spirv.OperandKind, word uint32) bool {
	switch k {
	case spirv.OperandKindBuiltIn:
		switch spirv.BuiltIn(word) {
		case spirv.BuiltInPointSize, spirv.BuiltInClipDistance, spirv.BuiltInCullDistance:
			return false
		}
	case spirv.OperandKindFPRoundingMode:
		if s.feat.freeFPRoundingMode {
			return false
		}
	case spirv.OperandKindGroupOperation:
		if s.feat.groupOpsReduceAndScans && word <= uint32(spirv.GroupOperationExclusiveScan) {
			return false
		}
	}
	e, ok := k.Enumerant(word)
	if !ok {
		return false
	}
	if in.Opcode != spirv.OpCapability && in.Opcode != spirv.OpConditionalCapabilityINTEL {
		if k == spirv.OperandKindDecoration && spirv.Decoration(word) == spirv.DecorationFPRoundingMode {
			if s.feat.freeFPRoundingMode {
				return false
			}
			if s.opts.Env.IsVulkan() {
				enabling := []spirv.Capability{spirv.CapabilityStorageUniformBufferBlock16, spirv.CapabilityStorageUniform16,
					spirv.CapabilityStoragePushConstant16, spirv.CapabilityStorageInputOutput16}
				slices.Sort(enabling)
				if !s.hasAnyCap(enabling) {
					return s.fail(i, "", "Operand %d of %s requires one of these capabilities: %s", which, opName(in.Opcode), capNames(enabling))
				}
			}
		} else if !s.capsOK(e.Capabilities) {
			return s.fail(i, "", "Operand %d of %s requires one of these capabilities: %s", which, opName(in.Opcode), capNames(s.filterCaps(e.Capabilities)))
		}
	} else if k == spirv.OperandKindDecoration && spirv.Decoration(word) == spirv.DecorationFPRoundingMode && s.feat.freeFPRoundingMode {
		return false
	}
	return s.operandVersionExtension(i, in, which, e, word)
}

// operandVersionExtension is OperandVersionExtensionCheck.
func (s *state) operandVersionExtension(i int, in *spirv.Instruction, which int, e *spirv.Enumerant, word uint32) bool {
	v := s.version
	minV, lastV := e.Version, lastVersion(e.LastVersion)
	reserved := minV == spirv.VersionNone
	if !reserved && minV <= v && v <= lastV {
		return false
	}
	if lastV < v {
		return s.fail(i, "", "%s operand of %s: operand %s(%d) requires SPIR-V version %d.%d or earlier",
			ordinal(which), opName(in.Opcode), e.Name, word, lastV.Major(), lastV.Minor())
	}
	if !reserved && len(e.Extensions) == 0 {
		return s.fail(i, "", "%s operand of %s: operand %s(%d) requires SPIR-V version %d.%d or later",
			ordinal(which), opName(in.Opcode), e.Name, word, minV.Major(), minV.Minor())
	}
	if !s.hasAnyExt(e.Extensions) {
		return s.fail(i, "", "%s operand of %s: operand %s(%d) requires one of these extensions: %s",
			ordinal(which), opName(in.Opcode), e.Name, word, extNames(e.Extensions))
	}
	return false
}

// versionCheck is VersionCheck: the opcode's version range and
// extensions.
func (s *state) versionCheck(i int, in *spirv.Instruction) bool {
	info := in.Opcode.Info()
	if info == nil {
		return false
	}
	v := s.version
	minV, lastV := info.Version, lastVersion(info.LastVersion)
	name := strings.TrimPrefix(info.Name, "Op")
	if lastV < v {
		return s.fail(i, "", "%s requires SPIR-V version %d.%d or earlier", name, lastV.Major(), lastV.Minor())
	}
	if in.Opcode != spirv.OpTerminateInvocation && len(info.Capabilities) > 0 {
		return false
	}
	if len(info.Extensions) == 0 {
		if minV == spirv.VersionNone {
			return s.fail(i, "", "%s is reserved for future use.", name)
		}
		if v < minV {
			return s.fail(i, "", "%s requires SPIR-V version %d.%d at minimum.", name, minV.Major(), minV.Minor())
		}
	} else if !s.hasAnyExt(info.Extensions) {
		if minV == spirv.VersionNone {
			return s.fail(i, "", "%s requires one of the following extensions: %s", name, extNames(info.Extensions))
		}
		if v < minV {
			return s.fail(i, "", "%s requires SPIR-V version %d.%d at minimum or one of the following extensions: %s",
				name, minV.Major(), minV.Minor(), extNames(info.Extensions))
		}
	}
	return false
}

// limitStruct is LimitCheckStruct: member count and nesting depth.
func (s *state) limitStruct(i int, in *spirv.Instruction) bool {
	members := len(in.Words) - 2
	if limit := uint16(s.lim.MaxStructMembers); members > int(limit) {
		return s.fail(i, "", "Number of OpTypeStruct members (%d) has exceeded the limit (%d).", members, limit)
	}
	if s.structDepth == nil {
		s.structDepth = map[uint32]uint32{}
	}
	var maxDepth uint32
	for _, mem := range in.Words[2:] {
		if d, ok := s.structDepth[mem]; ok && d > maxDepth {
			maxDepth = d
		}
	}
	depth := maxDepth + 1
	s.structDepth[in.ResultID] = depth
	if depth > s.lim.MaxStructDepth {
		return s.fail(i, "", "Structure Nesting Depth may not be larger than %d. Found %d.", s.lim.MaxStructDepth, depth)
	}
	return false
}
