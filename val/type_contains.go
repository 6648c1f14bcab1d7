package val

import "spvx/spirv"

// The ContainsType family: whether a type holds, anywhere inside it, an
// OCP microscaling, FP8 or BFloat16 float (contains) or an 8- or 16-bit
// scalar (sized, for ContainsLimitedUseIntOrFloatType). Both walk like
// ContainsType with traverse_all_types and cache their answer per type,
// so that asking about every instruction stays linear in the module.
// smallTypes (OpUndef's: not through pointers) and containsCoopMat
// (uncached, depth-bounded) walk less far, as their rules do.

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
			v |= s.sized(s.typeWord(t, 2))
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

// Bits of the limited-use cache: the type contains a 16-bit integer, an
// 8-bit integer, a 16-bit float (not BFloat16), through arrays, vectors,
// matrices, images, cooperative matrices and structs, not pointers
// (ContainsSizedIntOrFloatType). smallTypes returns them, cached per type.
const (
	smallDone = 1 << iota
	smallI16
	smallI8
	smallF16
)

func (s *state) smallTypes(t uint32) uint8 {
	if s.smallCache == nil {
		s.smallCache = map[uint32]uint8{}
	}
	if v, ok := s.smallCache[t]; ok {
		return v
	}
	s.smallCache[t] = smallDone
	var v uint8 = smallDone
	if ty := s.typeOf(t); ty != nil {
		switch ty.Kind {
		case spirv.TypeInt:
			switch ty.Width {
			case 16:
				v |= smallI16
			case 8:
				v |= smallI8
			}
		case spirv.TypeFloat:
			if ty.Width == 16 && !ty.HasEncoding {
				v |= smallF16
			}
		case spirv.TypeVector, spirv.TypeMatrix, spirv.TypeArray, spirv.TypeRuntimeArray,
			spirv.TypeImage, spirv.TypeSampledImage, spirv.TypeCooperativeMatrix:
			v |= s.smallTypes(ty.Elem)
		case spirv.TypeStruct:
			for _, m := range ty.Members {
				v |= s.smallTypes(m)
			}
		}
	}
	s.smallCache[t] = v
	return v
}

// holdsLimitedUse is ContainsLimitedUseIntOrFloatType over smallTypes: the
// limited-use types a value of type t holds itself, not through pointers
// (OpUndef's rule; limitedUse looks through pointers).
func (s *state) holdsLimitedUse(t uint32) bool {
	v := s.smallTypes(t)
	return v&smallI16 != 0 && !s.caps.has(spirv.CapabilityInt16) ||
		v&smallI8 != 0 && !s.caps.has(spirv.CapabilityInt8) ||
		v&smallF16 != 0 && !s.caps.has(spirv.CapabilityFloat16)
}

// containsCoopMat: ContainsType (all types) of a cooperative matrix.
func (s *state) containsCoopMat(t uint32, depth int) bool {
	ty := s.typeOf(t)
	if ty == nil || depth > 64 {
		return false
	}
	if ty.Op == spirv.OpTypeCooperativeMatrixKHR || ty.Op == spirv.OpTypeCooperativeMatrixNV {
		return true
	}
	switch ty.Kind {
	case spirv.TypeVector, spirv.TypeMatrix, spirv.TypeArray, spirv.TypeRuntimeArray, spirv.TypeImage, spirv.TypeSampledImage:
		return s.containsCoopMat(ty.Elem, depth+1)
	case spirv.TypePointer:
		return !s.fwdPtr[t] && s.containsCoopMat(ty.Elem, depth+1)
	case spirv.TypeStruct:
		for _, m := range ty.Members {
			if s.containsCoopMat(m, depth+1) {
				return true
			}
		}
	}
	return false
}
