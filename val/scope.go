package val

import "spvx/spirv"

// This file holds validate_scopes.cpp's rules: a Scope <id> is a 32-bit
// integer, an OpConstant when the Shader capability is declared, one of
// the Scope enumerants; execution scopes in Vulkan are Workgroup or
// Subgroup (and Subgroup for the non-uniform group operations); memory
// scopes follow the Vulkan memory model's capabilities. Some Vulkan rules
// depend on the entry point's execution model: they are registered as
// execution-model limitations of the function (see
// execution_limitations.go) and judged once the call graph is known.

// idOpcode is GetIdOpcode: the opcode defining id, 0 (OpNop) if none.
func (s *state) idOpcode(id uint32) spirv.Opcode {
	if j, ok := s.x.Def(id); ok {
		return s.m.Opcode(j)
	}
	return spirv.OpNop
}

func isValidScope(v uint32) bool { return v <= uint32(spirv.ScopeShaderCallKHR) }

// isNonUniformGroupOp is spvOpcodeIsNonUniformGroupOperation.
func isNonUniformGroupOp(op spirv.Opcode) bool {
	switch op {
	case spirv.OpGroupNonUniformElect, spirv.OpGroupNonUniformAll, spirv.OpGroupNonUniformAny,
		spirv.OpGroupNonUniformAllEqual, spirv.OpGroupNonUniformBroadcast, spirv.OpGroupNonUniformBroadcastFirst,
		spirv.OpGroupNonUniformBallot, spirv.OpGroupNonUniformInverseBallot, spirv.OpGroupNonUniformBallotBitExtract,
		spirv.OpGroupNonUniformBallotBitCount, spirv.OpGroupNonUniformBallotFindLSB, spirv.OpGroupNonUniformBallotFindMSB,
		spirv.OpGroupNonUniformShuffle, spirv.OpGroupNonUniformShuffleXor, spirv.OpGroupNonUniformShuffleUp,
		spirv.OpGroupNonUniformShuffleDown, spirv.OpGroupNonUniformIAdd, spirv.OpGroupNonUniformFAdd,
		spirv.OpGroupNonUniformIMul, spirv.OpGroupNonUniformFMul, spirv.OpGroupNonUniformSMin,
		spirv.OpGroupNonUniformUMin, spirv.OpGroupNonUniformFMin, spirv.OpGroupNonUniformSMax,
		spirv.OpGroupNonUniformUMax, spirv.OpGroupNonUniformFMax, spirv.OpGroupNonUniformBitwiseAnd,
		spirv.OpGroupNonUniformBitwiseOr, spirv.OpGroupNonUniformBitwiseXor, spirv.OpGroupNonUniformLogicalAnd,
		spirv.OpGroupNonUniformLogicalOr, spirv.OpGroupNonUniformLogicalXor, spirv.OpGroupNonUniformQuadBroadcast,
		spirv.OpGroupNonUniformQuadSwap, spirv.OpGroupNonUniformRotateKHR, spirv.OpGroupNonUniformQuadAllKHR,
		spirv.OpGroupNonUniformQuadAnyKHR:
		return true
	}
	return false
}

// validateScope is ValidateScope, the checks every scope operand gets.
func (s *state) validateScope(i int, in *spirv.Instruction, scope uint32) bool {
	isInt, isConst, v := s.evalInt32IfConst(scope)
	if !isInt {
		return s.fail(i, "", "%s: expected scope to be a 32-bit int", opName(in.Opcode))
	}
	if !isConst && s.caps.has(spirv.CapabilityShader) {
		if !s.caps.has(spirv.CapabilityCooperativeMatrixNV) {
			return s.fail(i, "", "Scope ids must be OpConstant when Shader capability is present")
		}
		if !isConstantOp(s.idOpcode(scope)) {
			return s.fail(i, "", "Scope ids must be constant or specialization constant when CooperativeMatrixNV capability is present")
		}
	}
	if isConst && !isValidScope(v) {
		j, _ := s.x.Def(scope)
		return s.fail(i, "", "Invalid scope value:\n %s", s.instText(j))
	}
	return false
}

// instText is spirv-val's Disassemble of instruction j: friendly names,
// no indentation.
func (s *state) instText(j int) string {
	return InstructionTextsOf(s.m, []int{j})[0]
}

// executionScope is ValidateExecutionScope.
func (s *state) executionScope(i int, in *spirv.Instruction, scope uint32) bool {
	if s.validateScope(i, in, scope) {
		return true
	}
	_, isConst, v := s.evalInt32IfConst(scope)
	if !isConst {
		return false
	}
	op := in.Opcode
	sc := spirv.Scope(v)
	nonUniform := isNonUniformGroupOp(op) && op != spirv.OpGroupNonUniformQuadAllKHR && op != spirv.OpGroupNonUniformQuadAnyKHR
	if s.opts.Env.IsVulkan() {
		if s.opts.Env != EnvVulkan1_0 && nonUniform && sc != spirv.ScopeSubgroup {
			return s.fail(i, s.vuid("VUID-StandaloneSpirv-None-04642"),
				"%s: in Vulkan environment Execution scope is limited to Subgroup", opName(op))
		}
		if op == spirv.OpControlBarrier && sc != spirv.ScopeSubgroup {
			s.limitModels(i, limBarrierSubgroup, op)
		}
		if (op == spirv.OpControlBarrierArriveEXT || op == spirv.OpControlBarrierWaitEXT) &&
			sc != spirv.ScopeWorkgroup && sc != spirv.ScopeSubgroup {
			return s.fail(i, s.vuid("VUID-StandaloneSpirv-OpControlBarrierArriveEXT-13553"),
				"The execution Scope for OpControlBarrierArriveEXT and OpControlBarrierWaitEXT must be Workgroup or Subgroup")
		}
		if sc == spirv.ScopeWorkgroup {
			s.limitModels(i, limWorkgroupExecScope, op)
		}
		if sc != spirv.ScopeWorkgroup && sc != spirv.ScopeSubgroup {
			return s.fail(i, s.vuid("VUID-StandaloneSpirv-None-04636"),
				"%s: in Vulkan environment Execution Scope is limited to Workgroup and Subgroup", opName(op))
		}
	}
	if nonUniform && op != spirv.OpGroupNonUniformRotateKHR && sc != spirv.ScopeSubgroup {
		return s.fail(i, "", "%s: Execution scope is limited to Subgroup", opName(op))
	}
	if op == spirv.OpGroupNonUniformRotateKHR && sc != spirv.ScopeSubgroup && sc != spirv.ScopeWorkgroup {
		return s.fail(i, "", "%s: Execution scope is limited to Subgroup or Workgroup", opName(op))
	}
	return false
}

// memoryScope is ValidateMemoryScope.
func (s *state) memoryScope(i int, in *spirv.Instruction, scope uint32) bool {
	if s.validateScope(i, in, scope) {
		return true
	}
	_, isConst, v := s.evalInt32IfConst(scope)
	if !isConst {
		return false
	}
	op := in.Opcode
	sc := spirv.Scope(v)
	vmm := s.caps.has(spirv.CapabilityVulkanMemoryModel)
	if sc == spirv.ScopeQueueFamily {
		if vmm {
			return false
		}
		return s.fail(i, "", "%s: Memory Scope QueueFamilyKHR requires capability VulkanMemoryModelKHR", opName(op))
	}
	if sc == spirv.ScopeDevice && vmm && !s.caps.has(spirv.CapabilityVulkanMemoryModelDeviceScope) {
		return s.fail(i, "", "Use of device scope with VulkanKHR memory model requires the VulkanMemoryModelDeviceScopeKHR capability")
	}
	if !s.opts.Env.IsVulkan() {
		return false
	}
	switch sc {
	case spirv.ScopeDevice, spirv.ScopeWorkgroup, spirv.ScopeSubgroup, spirv.ScopeInvocation, spirv.ScopeShaderCallKHR:
	default:
		return s.fail(i, s.vuid("VUID-StandaloneSpirv-None-04638"),
			"%s: in Vulkan environment Memory Scope is limited to Device, QueueFamily, Workgroup, ShaderCallKHR, Subgroup, or Invocation", opName(op))
	}
	if s.opts.Env == EnvVulkan1_0 && sc == spirv.ScopeSubgroup &&
		!s.caps.has(spirv.CapabilitySubgroupBallotKHR) && !s.caps.has(spirv.CapabilitySubgroupVoteKHR) {
		return s.fail(i, s.vuid("VUID-StandaloneSpirv-SubgroupVoteKHR-07951"),
			"%s: in Vulkan 1.0 environment Memory Scope is can not be Subgroup without SubgroupBallotKHR or SubgroupVoteKHR declared", opName(op))
	}
	if sc == spirv.ScopeShaderCallKHR {
		s.limitModels(i, limShaderCallScope, op)
	}
	if sc == spirv.ScopeWorkgroup {
		s.limitModels(i, limWorkgroupMemScope, op)
		if s.x.MemoryModel == spirv.MemoryModelGLSL450 {
			s.limitModels(i, limWorkgroupTessGLSL, op)
		}
	}
	return false
}
