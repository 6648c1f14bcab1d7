package val

import "spvx/spirv"

// Helpers of the arithmetic, conversion, composite, image and ray query
// rules: operand queries (GetOperandTypeId) and the cooperative matrix and
// vector shape comparisons.

// opType is GetOperandTypeId: the type of the id in operand k (Result
// Type and Result count as operands 0 and 1 when present), 0 for none.
func (s *state) opType(in *spirv.Instruction, k int) uint32 {
	if k >= len(in.Operands) {
		return 0
	}
	return s.typeOfValue(in.Words[in.Operands[k].Offset])
}

// opWord is GetOperandAs<uint32_t>(k), 0 past the end.
func (s *state) opWord(in *spirv.Instruction, k int) uint32 {
	if k >= len(in.Operands) {
		return 0
	}
	return in.Words[in.Operands[k].Offset]
}

// coopShapesMatch is CooperativeMatrixShapesMatch: the same kind of
// cooperative matrix, scope, rows and columns (swapped for a transposing
// conversion), and for KHR matrices the same Use unless a conversion
// capability allows the change.
func (s *state) coopShapesMatch(i int, in *spirv.Instruction, m1, m2 uint32, conversion, swap bool) bool {
	op := s.typeOp(m1)
	if op != s.typeOp(m2) {
		return s.fail(i, "", "Expected cooperative matrix types")
	}
	rows1, cols1 := s.typeWord(m1, 4), s.typeWord(m1, 5)
	if swap {
		rows1, cols1 = cols1, rows1
	}
	switch {
	case s.constsDiffer(s.typeWord(m1, 3), s.typeWord(m2, 3)):
		return s.fail(i, "", "Expected scopes of Matrix and Result Type to be identical")
	case s.constsDiffer(rows1, s.typeWord(m2, 4)):
		return s.fail(i, "", "Expected rows of Matrix type and Result Type to be %s", pick(swap, "swapped with columns", "identical"))
	case s.constsDiffer(cols1, s.typeWord(m2, 5)):
		return s.fail(i, "", "Expected columns of Matrix type and Result Type to be %s", pick(swap, "swapped with rows", "identical"))
	}
	if op != spirv.OpTypeCooperativeMatrixKHR {
		return false
	}
	use1, use2 := s.typeWord(m1, 6), s.typeWord(m2, 6)
	u1, ok1 := s.constInt32(use1)
	u2, ok2 := s.constInt32(use2)
	acc := func(u uint32) bool { return u == 2 }
	ab := func(u uint32) bool { return u == 0 || u == 1 }
	ext := s.caps.has(spirv.CapabilityCooperativeMatrixConversionsEXT)
	if swap && ext && (use1 == use2 || ok1 && !ab(u1) || ok2 && !acc(u2)) {
		return s.fail(i, "", "A conversion decorated with CooperativeMatrixTransposeEXT must have a MatrixAccumulatorKHR Matrix and a MatrixAKHR or MatrixBKHR Result Type: %s", opName(in.Opcode))
	}
	if ok1 && ok2 && u1 != u2 {
		allow := (s.caps.has(spirv.CapabilityCooperativeMatrixConversionsNV) || ext) && acc(u2) && ab(u1) ||
			ext && acc(u1) && ab(u2)
		if !(conversion && allow) {
			return s.fail(i, "", "Expected Use of Matrix type and Result Type to be identical")
		}
	}
	return false
}

// coopVecDimsMatch is CooperativeVectorDimensionsMatch.
func (s *state) coopVecDimsMatch(i int, v1, v2 uint32) bool {
	if s.typeOp(v1) != s.typeOp(v2) {
		return s.fail(i, "", "Expected cooperative vector types")
	}
	if s.constsDiffer(s.typeWord(v1, 3), s.typeWord(v2, 3)) {
		return s.fail(i, "", "Expected number of components to be identical")
	}
	return false
}

// hasCoopTranspose: id is decorated CooperativeMatrixTransposeEXT.
func (s *state) hasCoopTranspose(id uint32) bool {
	for _, d := range s.x.Decorations[id] {
		if d.Member < 0 && d.Kind == spirv.DecorationCooperativeMatrixTransposeEXT {
			return true
		}
	}
	return false
}
