package val

import "spvx/spirv"

// Type queries for the arithmetic, logical, bitwise, conversion, composite,
// derivative, ext_inst and image rules. They follow ValidationState_t's
// helpers exactly (GetComponentType, GetDimension, GetBitWidth, IsXType),
// including their treatment of OpTypeVectorIdEXT, cooperative matrices
// (NV and KHR) and untyped pointers, which the shallower helpers of
// typeutil.go do not model. Every query is a lookup in the module index's
// per-type table: nothing is allocated.

// tyOp is the opcode of type id t's declaration, 0 when t is no type.
func (s *state) tyOp(t uint32) spirv.Opcode {
	if ty := s.typeOf(t); ty != nil {
		return ty.Op
	}
	return 0
}

// tyWord is word k of type id t's declaration, 0 when it has none.
func (s *state) tyWord(t uint32, k int) uint32 {
	if w := s.typeWords(t); k < len(w) {
		return w[k]
	}
	return 0
}

// compOf is GetComponentType: a scalar or pointer is its own component;
// vectors, arrays and cooperative types give their element, a matrix its
// column's component; a value gives its type's component.
func (s *state) compOf(t uint32) uint32 {
	for depth := 0; depth < 4; depth++ {
		j, ok := s.x.Def(t)
		if !ok {
			return 0
		}
		in := s.m.Inst(j)
		switch in.Opcode {
		case spirv.OpTypeFloat, spirv.OpTypeInt, spirv.OpTypeBool, spirv.OpTypePointer, spirv.OpTypeUntypedPointerKHR:
			return t
		case spirv.OpTypeArray, spirv.OpTypeRuntimeArray, spirv.OpTypeVector, spirv.OpTypeCooperativeMatrixNV,
			spirv.OpTypeCooperativeMatrixKHR, spirv.OpTypeVectorIdEXT, spirv.OpTypeTensorARM:
			if len(in.Words) > 2 {
				return in.Words[2]
			}
			return 0
		case spirv.OpTypeMatrix:
			if len(in.Words) < 3 {
				return 0
			}
			t = in.Words[2]
			continue
		}
		if in.TypeID == 0 {
			return 0
		}
		t = in.TypeID
	}
	return 0
}

// dimOf is GetDimension: 1 for a scalar, the component or column count of
// a vector or matrix, 0 for a cooperative matrix (its size is not
// known), the constant count of an OpTypeVectorIdEXT (0 if not
// constant); a value gives its type's.
func (s *state) dimOf(t uint32) uint32 {
	for depth := 0; depth < 2; depth++ {
		j, ok := s.x.Def(t)
		if !ok {
			return 0
		}
		in := s.m.Inst(j)
		switch in.Opcode {
		case spirv.OpTypeFloat, spirv.OpTypeInt, spirv.OpTypeBool:
			return 1
		case spirv.OpTypeVector, spirv.OpTypeMatrix:
			if len(in.Words) > 3 {
				return in.Words[3]
			}
			return 0
		case spirv.OpTypeCooperativeMatrixNV, spirv.OpTypeCooperativeMatrixKHR:
			return 0
		case spirv.OpTypeVectorIdEXT:
			if len(in.Words) > 3 {
				if v, ok := s.constUint(in.Words[3]); ok {
					return uint32(v)
				}
			}
			return 0
		}
		if in.TypeID == 0 {
			return 0
		}
		t = in.TypeID
	}
	return 0
}

// constUint is EvalConstantValUint64 for a scalar integer OpConstant or
// OpConstantNull (a spec constant's default is not its value).
func (s *state) constUint(id uint32) (uint64, bool) {
	c, ok := s.x.Constants[id]
	if !ok || !s.isIntScalar(c.Type) {
		return 0, false
	}
	if c.Op == spirv.OpConstantNull {
		return 0, true
	}
	if c.Op != spirv.OpConstant || len(c.Value) == 0 || len(c.Value) > 2 {
		return 0, false
	}
	v := uint64(c.Value[0])
	if len(c.Value) > 1 {
		v |= uint64(c.Value[1]) << 32
	}
	return v, true
}

// widthOf is GetBitWidth: the component's width, 1 for bool, 64 for a
// (physical storage buffer) pointer, 0 otherwise.
func (s *state) widthOf(t uint32) uint32 {
	c := s.compOf(t)
	ty := s.typeOf(c)
	if ty == nil {
		return 0
	}
	switch ty.Op {
	case spirv.OpTypeFloat, spirv.OpTypeInt:
		return ty.Width
	case spirv.OpTypeBool:
		return 1
	case spirv.OpTypePointer, spirv.OpTypeUntypedPointerKHR:
		return 64
	}
	return 0
}

func (s *state) isBoolS(t uint32) bool { return s.tyOp(t) == spirv.OpTypeBool }
func (s *state) isUIntS(t uint32) bool {
	ty := s.typeOf(t)
	return ty != nil && ty.Kind == spirv.TypeInt && !ty.Signed
}

// isVec is IsVectorType: OpTypeVector or OpTypeVectorIdEXT.
func (s *state) isVec(t uint32) bool {
	op := s.tyOp(t)
	return op == spirv.OpTypeVector || op == spirv.OpTypeVectorIdEXT
}

func (s *state) vecOf(t uint32, scalar func(uint32) bool) bool {
	return s.isVec(t) && scalar(s.compOf(t))
}

func (s *state) isBoolVec(t uint32) bool  { return s.vecOf(t, s.isBoolS) }
func (s *state) isIntVec(t uint32) bool   { return s.vecOf(t, s.isIntScalar) }
func (s *state) isUIntVec(t uint32) bool  { return s.vecOf(t, s.isUIntS) }
func (s *state) isFloatVec(t uint32) bool { return s.vecOf(t, s.isFloatScalar) }

// isCoopVec is IsCooperativeVectorNVType, which is OpTypeVectorIdEXT now.
func (s *state) isCoopVec(t uint32) bool { return s.tyOp(t) == spirv.OpTypeVectorIdEXT }

func (s *state) coopVecOf(t uint32, scalar func(uint32) bool) bool {
	return s.isCoopVec(t) && scalar(s.tyWord(t, 2))
}

// isCoopMat is IsCooperativeMatrixType (NV or KHR).
func (s *state) isCoopMat(t uint32) bool {
	op := s.tyOp(t)
	return op == spirv.OpTypeCooperativeMatrixNV || op == spirv.OpTypeCooperativeMatrixKHR
}

func (s *state) isCoopMatKHR(t uint32) bool { return s.tyOp(t) == spirv.OpTypeCooperativeMatrixKHR }

func (s *state) coopMatOf(t uint32, scalar func(uint32) bool) bool {
	return s.isCoopMat(t) && scalar(s.tyWord(t, 2))
}

func (s *state) isPtrType(t uint32) bool {
	op := s.tyOp(t)
	return op == spirv.OpTypePointer || op == spirv.OpTypeUntypedPointerKHR
}

// isIntSV, isFloatSV etc. with the OpTypeVectorIdEXT vectors
// ValidationState_t counts as vectors.
func (s *state) intSV(t uint32) bool   { return s.isIntScalar(t) || s.isIntVec(t) }
func (s *state) uintSV(t uint32) bool  { return s.isUIntS(t) || s.isUIntVec(t) }
func (s *state) floatSV(t uint32) bool { return s.isFloatScalar(t) || s.isFloatVec(t) }
func (s *state) boolSV(t uint32) bool  { return s.isBoolS(t) || s.isBoolVec(t) }

// matrixInfo is GetMatrixTypeInfo: rows, columns, column type and
// component type of an OpTypeMatrix of vectors.
func (s *state) matrixInfo(t uint32) (rows, cols, col, comp uint32, ok bool) {
	if t == 0 || s.tyOp(t) != spirv.OpTypeMatrix {
		return 0, 0, 0, 0, false
	}
	col = s.tyWord(t, 2)
	if s.tyOp(col) != spirv.OpTypeVector {
		return 0, 0, 0, 0, false
	}
	return s.tyWord(col, 3), s.tyWord(t, 3), col, s.tyWord(col, 2), true
}

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

// Bits of the sized-type cache (sizedCache): ContainsSizedIntOrFloatType
// for the widths the rules ask about.
const (
	sizedDone = 1 << iota
	sizedInt8
	sizedInt16
	sizedInt32
	sizedFloat16
)

// sized returns the sized* bits of type t, cached per type. Like
// ContainsType (with traverse_all_types): through arrays, vectors,
// matrices, images, sampled images, cooperative matrices, struct members,
// pointers (not forward-declared ones) and function types.
func (s *state) sized(t uint32) uint8 {
	if s.sizedCache == nil {
		s.sizedCache = map[uint32]uint8{}
	}
	if v, ok := s.sizedCache[t]; ok {
		return v
	}
	s.sizedCache[t] = sizedDone
	var v uint8 = sizedDone
	if ty := s.typeOf(t); ty != nil {
		switch ty.Op {
		case spirv.OpTypeInt:
			switch ty.Width {
			case 8:
				v |= sizedInt8
			case 16:
				v |= sizedInt16
			case 32:
				v |= sizedInt32
			}
		case spirv.OpTypeFloat:
			if ty.Width == 16 && !ty.HasEncoding {
				v |= sizedFloat16
			}
		case spirv.OpTypeArray, spirv.OpTypeRuntimeArray, spirv.OpTypeVector, spirv.OpTypeMatrix, spirv.OpTypeImage,
			spirv.OpTypeSampledImage, spirv.OpTypeCooperativeMatrixNV, spirv.OpTypeCooperativeMatrixKHR,
			spirv.OpTypeVectorIdEXT:
			v |= s.sized(s.tyWord(t, 2))
		case spirv.OpTypePointer:
			if !s.fwdPtr[t] {
				v |= s.sized(ty.Elem)
			}
		case spirv.OpTypeFunction:
			v |= s.sized(ty.Return)
			fallthrough
		case spirv.OpTypeStruct:
			for _, m := range ty.Members {
				v |= s.sized(m)
			}
		}
	}
	s.sizedCache[t] = v
	return v
}

// limitedUse is ContainsLimitedUseIntOrFloatType: an 8- or 16-bit type
// whose full-use capability (Int8, Int16, Float16) is not declared.
func (s *state) limitedUse(t uint32) bool {
	v := s.sized(t)
	return !s.caps.has(spirv.CapabilityInt16) && v&sizedInt16 != 0 ||
		!s.caps.has(spirv.CapabilityInt8) && v&sizedInt8 != 0 ||
		!s.caps.has(spirv.CapabilityFloat16) && v&sizedFloat16 != 0
}

// shaderLimitedUse is the recurring "Shader is declared and t holds a
// limited-use type" condition.
func (s *state) shaderLimitedUse(t uint32) bool {
	return s.caps.has(spirv.CapabilityShader) && s.limitedUse(t)
}

// constInt32 is EvalInt32IfConst's "constant" answer: the value of a
// non-spec 32-bit integer constant (OpConstantNull is 0).
func (s *state) constInt32(id uint32) (uint32, bool) {
	c, ok := s.x.Constants[id]
	if !ok || c.Spec || !s.isIntScalar(c.Type) || s.widthOf(c.Type) != 32 {
		return 0, false
	}
	if c.Op == spirv.OpConstantNull {
		return 0, true
	}
	if c.Op != spirv.OpConstant || len(c.Value) != 1 {
		return 0, false
	}
	return c.Value[0], true
}

// constsDiffer: both ids are 32-bit integer constants of different values.
func (s *state) constsDiffer(a, b uint32) bool {
	x, okA := s.constInt32(a)
	y, okB := s.constInt32(b)
	return okA && okB && x != y
}

// coopShapesMatch is CooperativeMatrixShapesMatch: the same kind of
// cooperative matrix, scope, rows and columns (swapped for a transposing
// conversion), and for KHR matrices the same Use unless a conversion
// capability allows the change.
func (s *state) coopShapesMatch(i int, in *spirv.Instruction, m1, m2 uint32, conversion, swap bool) bool {
	op := s.tyOp(m1)
	if op != s.tyOp(m2) {
		return s.fail(i, "", "Expected cooperative matrix types")
	}
	rows1, cols1 := s.tyWord(m1, 4), s.tyWord(m1, 5)
	if swap {
		rows1, cols1 = cols1, rows1
	}
	switch {
	case s.constsDiffer(s.tyWord(m1, 3), s.tyWord(m2, 3)):
		return s.fail(i, "", "Expected scopes of Matrix and Result Type to be identical")
	case s.constsDiffer(rows1, s.tyWord(m2, 4)):
		return s.fail(i, "", "Expected rows of Matrix type and Result Type to be %s", pick(swap, "swapped with columns", "identical"))
	case s.constsDiffer(cols1, s.tyWord(m2, 5)):
		return s.fail(i, "", "Expected columns of Matrix type and Result Type to be %s", pick(swap, "swapped with rows", "identical"))
	}
	if op != spirv.OpTypeCooperativeMatrixKHR {
		return false
	}
	use1, use2 := s.tyWord(m1, 6), s.tyWord(m2, 6)
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
	if s.tyOp(v1) != s.tyOp(v2) {
		return s.fail(i, "", "Expected cooperative vector types")
	}
	if s.constsDiffer(s.tyWord(v1, 3), s.tyWord(v2, 3)) {
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
