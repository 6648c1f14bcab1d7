package val

import (
	"math/bits"

	"spvx/spirv"
)

// This file holds validate_memory_semantics.cpp's rules: a Memory
// Semantics <id> is a 32-bit integer, an OpConstant when the Shader
// capability is declared; its bits need their capabilities; at most one
// memory order; and the Vulkan memory model's rules (which apply in a
// Vulkan environment and wherever the memory model is VulkanKHR): no
// SequentiallyConsistent, a non-relaxed order iff a storage-class bit,
// MakeAvailable/MakeVisible with a matching order, the Unequal semantics
// of a compare-exchange no stronger than the Equal ones.

const (
	semAcquire   = uint32(spirv.MemorySemanticsAcquire)
	semRelease   = uint32(spirv.MemorySemanticsRelease)
	semAcqRel    = uint32(spirv.MemorySemanticsAcquireRelease)
	semSeqCst    = uint32(spirv.MemorySemanticsSequentiallyConsistent)
	semUniform   = uint32(spirv.MemorySemanticsUniformMemory)
	semWorkgroup = uint32(spirv.MemorySemanticsWorkgroupMemory)
	semImage     = uint32(spirv.MemorySemanticsImageMemory)
	semOutput    = uint32(spirv.MemorySemanticsOutputMemory)
	semAvailable = uint32(spirv.MemorySemanticsMakeAvailable)
	semVisible   = uint32(spirv.MemorySemanticsMakeVisible)
	semVolatile  = uint32(spirv.MemorySemanticsVolatile)

	semOrders        = semAcquire | semRelease | semAcqRel | semSeqCst
	semStorageVulkan = semUniform | semWorkgroup | semImage | semOutput
)

// isAtomicOp is spvOpcodeIsAtomicOp.
func isAtomicOp(op spirv.Opcode) bool {
	switch op {
	case spirv.OpAtomicLoad, spirv.OpAtomicExchange, spirv.OpAtomicCompareExchange, spirv.OpAtomicCompareExchangeWeak,
		spirv.OpAtomicIIncrement, spirv.OpAtomicIDecrement, spirv.OpAtomicIAdd, spirv.OpAtomicFAddEXT,
		spirv.OpAtomicISub, spirv.OpAtomicSMin, spirv.OpAtomicUMin, spirv.OpAtomicFMinEXT, spirv.OpAtomicSMax,
		spirv.OpAtomicUMax, spirv.OpAtomicFMaxEXT, spirv.OpAtomicAnd, spirv.OpAtomicOr, spirv.OpAtomicXor,
		spirv.OpAtomicFlagTestAndSet, spirv.OpAtomicStore, spirv.OpAtomicFlagClear:
		return true
	}
	return false
}

// memorySemantics is ValidateMemorySemantics for the operand at word w
// of in (SPIRV-Tools counts operands; every operand before it is one
// word, so its operand index is w-1), with the instruction's memory scope
// id.
func (s *state) memorySemantics(i int, in *spirv.Instruction, w int, memScope uint32) bool {
	if w >= len(in.Words) {
		return false
	}
	op := in.Opcode
	name := opName(op)
	id := in.Words[w]
	isInt, isConst, v := s.evalInt32IfConst(id)
	vulkan := s.opts.Env.IsVulkan() || s.x.MemoryModel == spirv.MemoryModelVulkan
	if !isInt {
		return s.fail(i, "", "%s: expected Memory Semantics to be a 32-bit int", name)
	}
	if !isConst {
		if s.caps.has(spirv.CapabilityShader) {
			if !s.caps.has(spirv.CapabilityCooperativeMatrixNV) {
				return s.fail(i, "", "Memory Semantics ids must be OpConstant when Shader capability is present")
			}
			if !isConstantOp(s.idOpcode(id)) {
				return s.fail(i, "", "Memory Semantics must be a constant instruction when CooperativeMatrixNV capability is present")
			}
		}
		return false
	}
	vmm := s.caps.has(spirv.CapabilityVulkanMemoryModel)
	if v&semUniform != 0 && !s.caps.has(spirv.CapabilityShader) {
		return s.fail(i, "", "%s: Memory Semantics UniformMemory requires capability Shader", name)
	}
	if v&semOutput != 0 && !vmm {
		return s.fail(i, "", "%s: Memory Semantics OutputMemoryKHR requires capability VulkanMemoryModelKHR", name)
	}
	orders := bits.OnesCount32(v & semOrders)
	if orders > 1 {
		return s.fail(i, s.vuid("VUID-StandaloneSpirv-MemorySemantics-10865"),
			"%s: Memory Semantics must have at most one non-relaxed memory order bit set", name)
	}
	if vulkan && v&semSeqCst != 0 {
		return s.fail(i, s.vuid("VUID-StandaloneSpirv-MemorySemantics-10866"),
			"%s: Memory Semantics with SequentiallyConsistent memory order must not be used in the Vulkan API", name)
	}
	if (op == spirv.OpAtomicStore || op == spirv.OpAtomicFlagClear) && v&(semAcquire|semAcqRel) != 0 {
		return s.fail(i, s.vuid("VUID-StandaloneSpirv-MemorySemantics-10867"),
			"%s: MemorySemantics must not use Acquire or AcquireRelease memory order with %s", name, name)
	}
	if op == spirv.OpAtomicLoad && v&(semRelease|semAcqRel) != 0 {
		return s.fail(i, s.vuid("VUID-StandaloneSpirv-MemorySemantics-10868"),
			"%s: MemorySemantics must not use Release or AcquireRelease memory order with %s", name, name)
	}
	if vulkan && op == spirv.OpMemoryBarrier && orders == 0 {
		return s.fail(i, s.vuid("VUID-StandaloneSpirv-MemorySemantics-10869"),
			"%s: MemorySemantics must not use Relaxed memory order with %s", name, name)
	}
	if vulkan {
		storage := v&semStorageVulkan != 0
		if orders > 0 && !storage {
			return s.fail(i, s.vuid("VUID-StandaloneSpirv-MemorySemantics-10870"),
				"%s: Memory Semantics with a non-relaxed memory order (Acquire, Release, or AcquireRelease) must have at least one Vulkan-supported storage class semantics bit set (UniformMemory, WorkgroupMemory, ImageMemory, or OutputMemory)", name)
		}
		if orders == 0 && storage {
			return s.fail(i, s.vuid("VUID-StandaloneSpirv-MemorySemantics-10871"),
				"%s: Memory Semantics with at least one Vulkan-supported storage class semantics bit set (UniformMemory, WorkgroupMemory, ImageMemory, or OutputMemory) must use a non-relaxed memory order (Acquire, Release, or AcquireRelease)", name)
		}
	}
	if v&semAvailable != 0 {
		if !vmm {
			return s.fail(i, "", "%s: Memory Semantics MakeAvailableKHR requires capability VulkanMemoryModelKHR", name)
		}
		if v&(semRelease|semAcqRel) == 0 {
			return s.fail(i, s.vuid("VUID-StandaloneSpirv-MemorySemantics-10872"),
				"%s: Memory Semantics with MakeAvailable bit set must use Release or AcquireRelease memory order", name)
		}
	}
	if v&semVisible != 0 {
		if !vmm {
			return s.fail(i, "", "%s: Memory Semantics MakeVisibleKHR requires capability VulkanMemoryModelKHR", name)
		}
		if v&(semAcquire|semAcqRel) == 0 {
			return s.fail(i, s.vuid("VUID-StandaloneSpirv-MemorySemantics-10873"),
				"%s: Memory Semantics with MakeVisible bit set must use Acquire or AcquireRelease memory order", name)
		}
	}
	if v&semVolatile != 0 {
		if !vmm {
			return s.fail(i, "", "%s: Memory Semantics Volatile requires capability VulkanMemoryModelKHR", name)
		}
		if !isAtomicOp(op) {
			return s.fail(i, s.vuid("VUID-StandaloneSpirv-MemorySemantics-13551"),
				"%s: Memory Semantics with Volatile bit set must not be used with barrier instructions", name)
		}
	}
	if (op == spirv.OpAtomicCompareExchange || op == spirv.OpAtomicCompareExchangeWeak) && w == 6 {
		if v&(semRelease|semAcqRel) != 0 {
			return s.fail(i, s.vuid("VUID-StandaloneSpirv-UnequalMemorySemantics-10875"),
				"%s Unequal Memory Semantics must not use Release or AcquireRelease memory order", name)
		}
		_, _, eq := s.evalInt32IfConst(in.Words[5])
		if (v&semSeqCst != 0 && eq&semSeqCst == 0) || (v&semAcquire != 0 && eq&semOrders == 0) {
			return s.fail(i, s.vuid("VUID-StandaloneSpirv-UnequalMemorySemantics-10876"),
				"%s Unequal Memory Semantics must not use a stronger memory order than the corresponding Equal Memory Semantics", name)
		}
		if vulkan {
			if v&^eq&semStorageVulkan != 0 {
				return s.fail(i, s.vuid("VUID-StandaloneSpirv-UnequalMemorySemantics-10877"),
					"%s Unequal Memory Semantics must not have any Vulkan-supported storage class semantics bit set (UniformMemory, WorkgroupMemory, ImageMemory, or OutputMemory) unless this bit is also set in the corresponding Equal Memory Semantics", name)
			}
			if v&^eq&semVisible != 0 {
				return s.fail(i, s.vuid("VUID-StandaloneSpirv-UnequalMemorySemantics-10878"),
					"%s Unequal Memory Semantics must not have MakeVisible bit set unless this bit is also set in the corresponding Equal Memory Semantics", name)
			}
			if (eq^v)&semVolatile != 0 {
				return s.fail(i, s.vuid("VUID-StandaloneSpirv-UnequalMemorySemantics-10879"),
					"%s Unequal Memory Semantics must have Volatile bit set if and only if this bit is also set in the corresponding Equal Memory Semantics", name)
			}
		}
	}
	if vulkan && orders > 0 {
		if mInt, _, mv := s.evalInt32IfConst(memScope); mInt && spirv.Scope(mv) == spirv.ScopeInvocation {
			return s.fail(i, s.vuid("VUID-StandaloneSpirv-None-04641"),
				"%s: Vulkan specification requires Memory Semantics to be Relaxed if used with Invocation Memory Scope", name)
		}
	}
	if vulkan && (op == spirv.OpControlBarrierArriveEXT || op == spirv.OpControlBarrierWaitEXT) {
		o := v & (semAcquire | semRelease | semAcqRel)
		if op == spirv.OpControlBarrierArriveEXT && o != semRelease && o != 0 {
			return s.fail(i, s.vuid("VUID-StandaloneSpirv-MemorySemantics-13556"),
				"%s Memory Semantics must not have any non-relaxed memory order set other than Release", name)
		}
		if op == spirv.OpControlBarrierWaitEXT && o != semAcquire && o != 0 {
			return s.fail(i, s.vuid("VUID-StandaloneSpirv-MemorySemantics-13557"),
				"%s Memory Semantics must not have any non-relaxed memory order set other than Acquire", name)
		}
	}
	return false
}
