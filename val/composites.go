package val

import "spvx/spirv"

// This file holds validate_composites.cpp's rules, as far as they exist
// here: OpCopyLogical's types differ and match logically (arrays of the
// same length id, structs member by member, recursively). The 8/16-bit
// copy rule and the other composite checks are not written yet.

func (s *state) compositesPass(i int, in *spirv.Instruction) bool {
	if in.Opcode != spirv.OpCopyLogical || len(in.Words) < 4 {
		return false
	}
	res, src := in.TypeID, s.typeOfValue(in.Words[3])
	if res == 0 || src == 0 || res == src || s.typeOf(res) == nil || s.typeOf(src) == nil {
		return s.fail(i, "", "Result Type must not equal the Operand type")
	}
	if !s.logicallyMatch(src, res, 0) {
		return s.fail(i, "", "Result Type does not logically match the Operand type")
	}
	return false
}

// logicallyMatch is LogicallyMatch without decorations. depth bounds the
// recursion on malformed (cyclic) types.
func (s *state) logicallyMatch(a, b uint32, depth int) bool {
	x, y := s.typeOf(a), s.typeOf(b)
	if x == nil || y == nil || x.Op != y.Op || depth > 1<<16 {
		return false
	}
	wa, wb := s.typeWords(a), s.typeWords(b)
	switch x.Op {
	case spirv.OpTypeArray:
		if len(wa) < 4 || len(wb) < 4 || wa[3] != wb[3] {
			return false
		}
		return wa[2] == wb[2] || s.logicallyMatch(wa[2], wb[2], depth+1)
	case spirv.OpTypeStruct:
		if len(wa) != len(wb) {
			return false
		}
		for k := 2; k < len(wa); k++ {
			if wa[k] != wb[k] && !s.logicallyMatch(wa[k], wb[k], depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// typeWords returns the words of type id t's declaration.
func (s *state) typeWords(t uint32) []uint32 {
	if j, ok := s.x.Def(t); ok {
		return s.m.Inst(j).Words
	}
	return nil
}
