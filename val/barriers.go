package val

import "spvx/spirv"

// This file holds validate_barriers.cpp's rules: OpControlBarrier (and
// the split barriers of SPV_EXT_split_barrier) check their execution
// scope, memory scope and semantics, and register the execution models
// they may run in; OpMemoryBarrier checks its memory scope and semantics;
// the named barriers check their types.

// barriersOps reports whether barriersPass can act on an instruction of opcode op
// (passGate runs it on no other: a new case there needs its opcode here).
func barriersOps(op spirv.Opcode) bool {
	return opIn(op, spirv.OpControlBarrier, spirv.OpControlBarrierArriveEXT, spirv.OpControlBarrierWaitEXT,
		spirv.OpMemoryBarrier, spirv.OpNamedBarrierInitialize, spirv.OpMemoryNamedBarrier)
}

func (s *state) barriersPass(i int, in *spirv.Instruction) bool {
	op := in.Opcode
	switch op {
	case spirv.OpControlBarrier, spirv.OpControlBarrierArriveEXT, spirv.OpControlBarrierWaitEXT:
		if op == spirv.OpControlBarrier && s.version < spirv.MakeVersion(1, 3) {
			s.limitModels(i, limBarrierOld, op)
		}
		if op != spirv.OpControlBarrier {
			s.limitModels(i, limSplitBarrier, op)
		}
		if len(in.Words) < 4 {
			return false
		}
		if s.executionScope(i, in, in.Words[1]) || s.memoryScope(i, in, in.Words[2]) {
			return true
		}
		return s.memorySemantics(i, in, 3, in.Words[2])
	case spirv.OpMemoryBarrier:
		if len(in.Words) < 3 {
			return false
		}
		if s.memoryScope(i, in, in.Words[1]) {
			return true
		}
		return s.memorySemantics(i, in, 2, in.Words[1])
	case spirv.OpNamedBarrierInitialize:
		if s.idOpcode(in.TypeID) != spirv.OpTypeNamedBarrier {
			return s.fail(i, "", "%s: expected Result Type to be OpTypeNamedBarrier", opName(op))
		}
		if t := s.typeOf(s.opType(in, 2)); t == nil || t.Kind != spirv.TypeInt || t.Width != 32 {
			return s.fail(i, "", "%s: expected Subgroup Count to be a 32-bit int", opName(op))
		}
	case spirv.OpMemoryNamedBarrier:
		if len(in.Words) < 4 {
			return false
		}
		if s.idOpcode(s.typeOfValue(in.Words[1])) != spirv.OpTypeNamedBarrier {
			return s.fail(i, "", "%s: expected Named Barrier to be of type OpTypeNamedBarrier", opName(op))
		}
		if s.memoryScope(i, in, in.Words[2]) {
			return true
		}
		return s.memorySemantics(i, in, 3, in.Words[2])
	}
	return false
}
