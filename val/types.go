package val

import "spvx/spirv"

// Type queries and predicates: the one layer every rule family asks,
// after ValidationState_t's (GetComponentType, GetDimension, GetBitWidth,
// IsXType, ...). They read the module index, allocate nothing and never
// fail: an id that is not a type is "no type". Like ValidationState_t
// they count OpTypeVectorIdEXT as a vector and know NV and KHR
// cooperative matrices and untyped pointers. A few rules were written
// against the core declarations only (OpTypeVector, OpTypeMatrix of
// vectors, arrays, OpTypeCooperativeMatrixKHR); they ask for that by name
// (isLiteralVector, literalVectorOf, plainComponentType), so that their
// verdicts stay what they are. The ContainsType family is in
// type_contains.go.

// typeOf returns the type declaration of type id t, or nil.
func (s *state) typeOf(t uint32) *spirv.Type {
	if tab := s.typeTab; tab != nil {
		if t < uint32(len(tab)) {
			return tab[t]
		}
		return nil
	}
	return s.x.Types[t]
}

// denseTypes lays x.Types out by id, for typeOf's every-instruction
// lookups: nil when the type ids are too sparse for a table (a table is
// at most eight entries per type plus 1024), and typeOf then reads the map.
func denseTypes(types map[uint32]*spirv.Type) []*spirv.Type {
	top := uint32(0)
	for id := range types {
		top = max(top, id)
	}
	if len(types) == 0 || uint64(top) > 8*uint64(len(types))+1024 {
		return nil
	}
	tab := make([]*spirv.Type, top+1)
	for id, t := range types {
		tab[id] = t
	}
	return tab
}

// typeOp is the opcode of type id t's declaration, 0 when t is no type.
func (s *state) typeOp(t uint32) spirv.Opcode {
	if ty := s.typeOf(t); ty != nil {
		return ty.Op
	}
	return 0
}

// typeWords returns the words of id t's declaration.
func (s *state) typeWords(t uint32) []uint32 {
	if j, ok := s.x.Def(t); ok {
		return s.m.Inst(j).Words
	}
	return nil
}

// typeWord is word k of type id t's declaration, 0 when it has none.
func (s *state) typeWord(t uint32, k int) uint32 {
	if w := s.typeWords(t); k < len(w) {
		return w[k]
	}
	return 0
}

// typeOfValue is the Result Type of id's definition, 0 if none.
func (s *state) typeOfValue(id uint32) uint32 { return s.x.ValueType(id) }

func (s *state) isKind(t uint32, k spirv.TypeKind) bool {
	ty := s.typeOf(t)
	return ty != nil && ty.Kind == k
}

func (s *state) isBoolScalar(t uint32) bool  { return s.isKind(t, spirv.TypeBool) }
func (s *state) isFloatScalar(t uint32) bool { return s.isKind(t, spirv.TypeFloat) }
func (s *state) isIntScalar(t uint32) bool   { return s.isKind(t, spirv.TypeInt) }

func (s *state) isUintScalar(t uint32) bool {
	ty := s.typeOf(t)
	return ty != nil && ty.Kind == spirv.TypeInt && !ty.Signed
}

// isIntN and isFloatN are IsIntScalarType(t, n) and IsFloatScalarType(t, n).
func (s *state) isIntN(t, n uint32) bool {
	return s.isIntScalar(t) && s.typeOf(t).Width == n
}

func (s *state) isFloatN(t, n uint32) bool {
	return s.isFloatScalar(t) && s.typeOf(t).Width == n
}

// componentType is GetComponentType: a scalar or pointer is its own
// component; vectors, arrays and cooperative types give their element, a
// matrix its column's component; a value gives its type's component.
func (s *state) componentType(t uint32) uint32 {
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

// plainComponentType is componentType over the core declarations only:
// type t itself for a scalar or OpTypePointer, the element of an
// OpTypeVector, array or OpTypeCooperativeMatrixKHR, the column's element
// of a matrix of vectors; 0 for anything else (OpTypeVectorIdEXT, NV
// matrices, untyped pointers, values). The derivative, non-uniform,
// invalid-type, spec-strict and scalar-layout rules ask it.
func (s *state) plainComponentType(t uint32) uint32 {
	ty := s.typeOf(t)
	if ty == nil {
		return 0
	}
	switch ty.Kind {
	case spirv.TypeInt, spirv.TypeFloat, spirv.TypeBool, spirv.TypePointer:
		return t
	case spirv.TypeVector, spirv.TypeArray, spirv.TypeRuntimeArray, spirv.TypeCooperativeMatrix:
		return ty.Elem
	case spirv.TypeMatrix:
		if col := s.typeOf(ty.Elem); col != nil && col.Kind == spirv.TypeVector {
			return col.Elem
		}
	}
	return 0
}

// dimension is GetDimension: 1 for a scalar, the component or column count
// of a vector or matrix, 0 for a cooperative matrix (its size is not
// known), the constant count of an OpTypeVectorIdEXT (0 if not constant);
// a value gives its type's.
func (s *state) dimension(t uint32) uint32 {
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

// bitWidth is GetBitWidth: the component's width, 1 for bool, 64 for a
// (physical storage buffer) pointer, 0 otherwise.
func (s *state) bitWidth(t uint32) uint32 {
	ty := s.typeOf(s.componentType(t))
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

// isVector is IsVectorType: OpTypeVector or OpTypeVectorIdEXT.
func (s *state) isVector(t uint32) bool {
	op := s.typeOp(t)
	return op == spirv.OpTypeVector || op == spirv.OpTypeVectorIdEXT
}

// vectorOf: t is a vector (IsVectorType) whose component satisfies scalar.
func (s *state) vectorOf(t uint32, scalar func(uint32) bool) bool {
	return s.isVector(t) && scalar(s.componentType(t))
}

func (s *state) isBoolVector(t uint32) bool  { return s.vectorOf(t, s.isBoolScalar) }
func (s *state) isIntVector(t uint32) bool   { return s.vectorOf(t, s.isIntScalar) }
func (s *state) isUintVector(t uint32) bool  { return s.vectorOf(t, s.isUintScalar) }
func (s *state) isFloatVector(t uint32) bool { return s.vectorOf(t, s.isFloatScalar) }

// The IsXScalarOrVectorType predicates, OpTypeVectorIdEXT vectors included.
func (s *state) isIntScalarOrVector(t uint32) bool   { return s.isIntScalar(t) || s.isIntVector(t) }
func (s *state) isUintScalarOrVector(t uint32) bool  { return s.isUintScalar(t) || s.isUintVector(t) }
func (s *state) isFloatScalarOrVector(t uint32) bool { return s.isFloatScalar(t) || s.isFloatVector(t) }
func (s *state) isBoolScalarOrVector(t uint32) bool  { return s.isBoolScalar(t) || s.isBoolVector(t) }

// isLiteralVector: t is an OpTypeVector, whose component count is a
// literal (an OpTypeVectorIdEXT's is an id).
func (s *state) isLiteralVector(t uint32) bool { return s.isKind(t, spirv.TypeVector) }

// literalVectorOf: t is an OpTypeVector whose component satisfies scalar,
// with n components unless n is 0.
func (s *state) literalVectorOf(t uint32, scalar func(uint32) bool, n uint32) bool {
	ty := s.typeOf(t)
	return ty != nil && ty.Kind == spirv.TypeVector && scalar(ty.Elem) && (n == 0 || ty.Count == n)
}

// scalarOrLiteralVector: t satisfies scalar, or is an OpTypeVector of it.
func (s *state) scalarOrLiteralVector(t uint32, scalar func(uint32) bool) bool {
	return scalar(t) || s.literalVectorOf(t, scalar, 0)
}

// isNumericScalarOrLiteralVector is validate_conversion.cpp's
// IsNumericScalarOrVectorType over OpTypeVector.
func (s *state) isNumericScalarOrLiteralVector(t uint32) bool {
	return s.scalarOrLiteralVector(t, s.isFloatScalar) || s.scalarOrLiteralVector(t, s.isIntScalar)
}

// isFloat16Vec2or4 is IsFloat16Vector2Or4Type.
func (s *state) isFloat16Vec2or4(t uint32) bool {
	d := s.dimension(t)
	return s.isFloatVector(t) && s.bitWidth(t) == 16 && (d == 2 || d == 4)
}

// isFloatVecN: a float vector of n components of 32 bits.
func (s *state) isFloatVecN(t, n uint32) bool {
	return s.isFloatVector(t) && s.dimension(t) == n && s.bitWidth(t) == 32
}

// isPointerType: OpTypePointer or OpTypeUntypedPointerKHR.
func (s *state) isPointerType(t uint32) bool {
	op := s.typeOp(t)
	return op == spirv.OpTypePointer || op == spirv.OpTypeUntypedPointerKHR
}

// isCoopVec is IsCooperativeVectorNVType, which is OpTypeVectorIdEXT now.
func (s *state) isCoopVec(t uint32) bool { return s.typeOp(t) == spirv.OpTypeVectorIdEXT }

func (s *state) coopVecOf(t uint32, scalar func(uint32) bool) bool {
	return s.isCoopVec(t) && scalar(s.typeWord(t, 2))
}

// isCoopMat is IsCooperativeMatrixType (NV or KHR).
func (s *state) isCoopMat(t uint32) bool {
	op := s.typeOp(t)
	return op == spirv.OpTypeCooperativeMatrixNV || op == spirv.OpTypeCooperativeMatrixKHR
}

func (s *state) isCoopMatKHR(t uint32) bool { return s.typeOp(t) == spirv.OpTypeCooperativeMatrixKHR }

func (s *state) coopMatOf(t uint32, scalar func(uint32) bool) bool {
	return s.isCoopMat(t) && scalar(s.typeWord(t, 2))
}

func (s *state) isFloatCoopMat(t uint32) bool { return s.coopMatOf(t, s.isFloatScalar) }
func (s *state) isIntCoopMat(t uint32) bool   { return s.coopMatOf(t, s.isIntScalar) }
func (s *state) isUintCoopMat(t uint32) bool  { return s.coopMatOf(t, s.isUintScalar) }
func (s *state) isFloatCoopVec(t uint32) bool { return s.coopVecOf(t, s.isFloatScalar) }
func (s *state) isIntCoopVec(t uint32) bool   { return s.coopVecOf(t, s.isIntScalar) }
func (s *state) isUintCoopVec(t uint32) bool  { return s.coopVecOf(t, s.isUintScalar) }

// matrixInfo is GetMatrixTypeInfo: rows, columns, column type and
// component type of an OpTypeMatrix of vectors.
func (s *state) matrixInfo(t uint32) (rows, cols, col, comp uint32, ok bool) {
	if t == 0 || s.typeOp(t) != spirv.OpTypeMatrix {
		return 0, 0, 0, 0, false
	}
	col = s.typeWord(t, 2)
	if s.typeOp(col) != spirv.OpTypeVector {
		return 0, 0, 0, 0, false
	}
	return s.typeWord(col, 3), s.typeWord(t, 3), col, s.typeWord(col, 2), true
}

// encodingIs reports whether t is an OpTypeFloat with one of encs.
func (s *state) encodingIs(t uint32, encs ...spirv.FPEncoding) bool {
	ty := s.typeOf(t)
	if ty == nil || ty.Kind != spirv.TypeFloat || !ty.HasEncoding {
		return false
	}
	for _, e := range encs {
		if ty.Encoding == e {
			return true
		}
	}
	return false
}

func (s *state) isBF16Scalar(t uint32) bool { return s.encodingIs(t, spirv.FPEncodingBFloat16KHR) }
func (s *state) isFP8Scalar(t uint32) bool {
	return s.encodingIs(t, spirv.FPEncodingFloat8E4M3EXT, spirv.FPEncodingFloat8E5M2EXT)
}

// scalarVectorOrCoopMat is IsFP8Type / IsBfloat16Type's shape: the scalar
// itself, an OpTypeVector of it, or an OpTypeCooperativeMatrixKHR of it.
func (s *state) scalarVectorOrCoopMat(t uint32, scalar func(uint32) bool) bool {
	if scalar(t) {
		return true
	}
	ty := s.typeOf(t)
	return ty != nil && (ty.Kind == spirv.TypeVector || ty.Kind == spirv.TypeCooperativeMatrix) && scalar(ty.Elem)
}

func (s *state) isFP8Type(t uint32) bool  { return s.scalarVectorOrCoopMat(t, s.isFP8Scalar) }
func (s *state) isBF16Type(t uint32) bool { return s.scalarVectorOrCoopMat(t, s.isBF16Scalar) }
