package val

import "spvx/spirv"

// This file holds validate_atomics.cpp's rules, as far as they exist
// here: the Value and Comparator operands have the Result Type, and
// OpAtomicStore's Value has the Pointer's pointee type. The scope and
// memory-semantics checks that spirv-val runs before these are not
// written yet.

func (s *state) atomicsPass(i int, in *spirv.Instruction) bool {
	name := func() string { return opName(in.Opcode) }
	switch in.Opcode {
	case spirv.OpAtomicStore:
		if len(in.Words) < 5 {
			return false
		}
		pt := s.typeOf(s.typeOfValue(in.Words[1]))
		if pt == nil || pt.Op != spirv.OpTypePointer {
			return false
		}
		if s.typeOfValue(in.Words[4]) != pt.Elem {
			return s.fail(i, "", "%s: expected Value type and the type pointed to by Pointer to be the same", name())
		}
	case spirv.OpAtomicExchange, spirv.OpAtomicIAdd, spirv.OpAtomicISub, spirv.OpAtomicSMin, spirv.OpAtomicUMin,
		spirv.OpAtomicSMax, spirv.OpAtomicUMax, spirv.OpAtomicAnd, spirv.OpAtomicOr, spirv.OpAtomicXor,
		spirv.OpAtomicFAddEXT, spirv.OpAtomicFMinEXT, spirv.OpAtomicFMaxEXT:
		if len(in.Words) > 6 && s.typeOfValue(in.Words[6]) != in.TypeID {
			return s.fail(i, "", "%s: expected Value to be of type Result Type", name())
		}
	case spirv.OpAtomicCompareExchange, spirv.OpAtomicCompareExchangeWeak:
		if len(in.Words) > 8 {
			if s.typeOfValue(in.Words[7]) != in.TypeID {
				return s.fail(i, "", "%s: expected Value to be of type Result Type", name())
			}
			if s.typeOfValue(in.Words[8]) != in.TypeID {
				return s.fail(i, "", "%s: expected Comparator to be of type Result Type", name())
			}
		}
	}
	return false
}
