package val

import "spvx/spirv"

// Type queries shared by the rule families, after ValidationState_t's
// (IsFloatScalarType, GetComponentType, ContainsType, ...). They read the
// module index and never fail: an id that is not a type is "no type".

// typeOf returns the type declaration of type id t, or nil.
func (s *state) typeOf(t uint32) *spirv.Type { return s.x.Types[t] }

// componentType is GetComponentType for the kinds the rules here need:
// the scalar of a vector, matrix (through its column), array or
// cooperative matrix; a scalar is its own component; 0 otherwise.
func (s *state) componentType(t uint32) uint32 {
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

func (s *state) isKind(t uint32, k spirv.TypeKind) bool {
	ty := s.typeOf(t)
	return ty != nil && ty.Kind == k
}

func (s *state) isFloatScalar(t uint32) bool { return s.isKind(t, spirv.TypeFloat) }
func (s *state) isIntScalar(t uint32) bool   { return s.isKind(t, spirv.TypeInt) }

func (s *state) isFloatVector(t uint32) bool {
	ty := s.typeOf(t)
	return ty != nil && ty.Kind == spirv.TypeVector && s.isFloatScalar(ty.Elem)
}

func (s *state) isIntVector(t uint32) bool {
	ty := s.typeOf(t)
	return ty != nil && ty.Kind == spirv.TypeVector && s.isIntScalar(ty.Elem)
}

// isNumericScalarOrVector is validate_conversion.cpp's
// IsNumericScalarOrVectorType.
func (s *state) isNumericScalarOrVector(t uint32) bool {
	return s.isFloatScalar(t) || s.isFloatVector(t) || s.isIntScalar(t) || s.isIntVector(t)
}

// dimension is GetDimension for scalars (1) and vectors.
func (s *state) dimension(t uint32) uint32 {
	ty := s.typeOf(t)
	if ty == nil {
		return 0
	}
	switch ty.Kind {
	case spirv.TypeVector, spirv.TypeMatrix:
		return ty.Count
	}
	return 1
}

// bitWidth is GetBitWidth: the component's width.
func (s *state) bitWidth(t uint32) uint32 {
	if c := s.typeOf(s.componentType(t)); c != nil {
		return c.Width
	}
	return 0
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
// itself, a vector of it, or an OpTypeCooperativeMatrixKHR of it.
func (s *state) scalarVectorOrCoopMat(t uint32, scalar func(uint32) bool) bool {
	if scalar(t) {
		return true
	}
	ty := s.typeOf(t)
	if ty == nil {
		return false
	}
	switch ty.Kind {
	case spirv.TypeVector:
		return scalar(ty.Elem)
	case spirv.TypeCooperativeMatrix:
		return ty.Op == spirv.OpTypeCooperativeMatrixKHR && scalar(ty.Elem)
	}
	return false
}

func (s *state) isFP8Type(t uint32) bool  { return s.scalarVectorOrCoopMat(t, s.isFP8Scalar) }
func (s *state) isBF16Type(t uint32) bool { return s.scalarVectorOrCoopMat(t, s.isBF16Scalar) }

// The OCP encodings, all of them and the ones narrower than a byte.
func isOCPEncoding(e spirv.FPEncoding) bool {
	switch e {
	case spirv.FPEncodingFloat6E2M3EXT, spirv.FPEncodingFloat6E3M2EXT, spirv.FPEncodingFloat4E2M1EXT,
		spirv.FPEncodingFloat8UnsignedE8M0EXT, spirv.FPEncodingMXInt8EXT:
		return true
	}
	return false
}

func isOCPNonByteEncoding(e spirv.FPEncoding) bool {
	switch e {
	case spirv.FPEncodingFloat6E2M3EXT, spirv.FPEncodingFloat6E3M2EXT, spirv.FPEncodingFloat4E2M1EXT:
		return true
	}
	return false
}

// Bits of the contains cache.
const (
	containsDone  = 1 << iota // computed
	containsOCP               // ContainsOCPMicroscalingType
	containsOCPNB             // ContainsOCPMicroscalingNonByteType
	containsFP8               // contains E4M3/E5M2 anywhere (spec-strict allow-list)
	containsBF16              // contains BFloat16 anywhere
)

// contains returns the containsOCP.. bits of type t: ContainsType with
// traverse_all_types, through arrays, vectors, matrices, images, sampled
// images, cooperative matrices, pointers (not forward-declared ones),
// structs and function types. Results are cached per type, so that
// checking every instruction stays linear in the module.
func (s *state) contains(t uint32) uint8 {
	if s.containsCache == nil {
		s.containsCache = map[uint32]uint8{}
	}
	if v, ok := s.containsCache[t]; ok {
		return v
	}
	s.containsCache[t] = containsDone // a cycle (through a forward pointer) contributes nothing
	var v uint8 = containsDone
	ty := s.typeOf(t)
	if ty != nil {
		switch ty.Kind {
		case spirv.TypeFloat:
			if ty.HasEncoding {
				switch {
				case isOCPNonByteEncoding(ty.Encoding):
					v |= containsOCP | containsOCPNB
				case isOCPEncoding(ty.Encoding):
					v |= containsOCP
				case ty.Encoding == spirv.FPEncodingFloat8E4M3EXT || ty.Encoding == spirv.FPEncodingFloat8E5M2EXT:
					v |= containsFP8
				case ty.Encoding == spirv.FPEncodingBFloat16KHR:
					v |= containsBF16
				}
			}
		case spirv.TypeVector, spirv.TypeMatrix, spirv.TypeArray, spirv.TypeRuntimeArray,
			spirv.TypeImage, spirv.TypeSampledImage, spirv.TypeCooperativeMatrix:
			v |= s.contains(ty.Elem)
		case spirv.TypePointer:
			if !s.fwdPtr[t] {
				v |= s.contains(ty.Elem)
			}
		case spirv.TypeStruct:
			for _, m := range ty.Members {
				v |= s.contains(m)
			}
		case spirv.TypeFunction:
			v |= s.contains(ty.Return)
			for _, m := range ty.Members {
				v |= s.contains(m)
			}
		}
	}
	s.containsCache[t] = v
	return v
}

func (s *state) containsOCP(t uint32) bool   { return s.contains(t)&containsOCP != 0 }
func (s *state) containsOCPNB(t uint32) bool { return s.contains(t)&containsOCPNB != 0 }
