package val

import "spvx/spirv"

// This file holds validate_memory.cpp's rules, as far as they exist here:
// SPV_EXT_ocp_microscaling_types' storage-class rule for OpVariable
// (OCP-MX-RULES.md §2.2 E): with the Shader capability, a variable whose
// data type contains E2M1, E2M3 or E3M2 must be in the Function or Private
// storage class, following the data type through pointers to the
// innermost pointer's storage class.

// containsFloat reports whether type t is or contains (through vectors,
// matrices, arrays, structs, pointers and cooperative matrices) a float
// type accepted by pred. Types are checked once each.
func (s *state) containsFloat(t uint32, pred func(*spirv.Type) bool) bool {
	seen := map[uint32]bool{}
	var walk func(uint32) bool
	walk = func(t uint32) bool {
		if seen[t] {
			return false
		}
		seen[t] = true
		ty := s.x.Types[t]
		if ty == nil {
			return false
		}
		switch ty.Kind {
		case spirv.TypeFloat:
			return pred(ty)
		case spirv.TypeVector, spirv.TypeMatrix, spirv.TypeArray, spirv.TypeRuntimeArray,
			spirv.TypePointer, spirv.TypeCooperativeMatrix, spirv.TypeImage, spirv.TypeSampledImage:
			return walk(ty.Elem)
		case spirv.TypeStruct:
			for _, mem := range ty.Members {
				if walk(mem) {
					return true
				}
			}
		}
		return false
	}
	return walk(t)
}

// isFP4orFP6 reports E2M1, E2M3 and E3M2.
func isFP4orFP6(t *spirv.Type) bool {
	if !t.HasEncoding {
		return false
	}
	switch t.Encoding {
	case spirv.FPEncodingFloat4E2M1EXT, spirv.FPEncodingFloat6E2M3EXT, spirv.FPEncodingFloat6E3M2EXT:
		return true
	}
	return false
}

func (s *state) memoryPass(i int, in *spirv.Instruction) bool {
	if in.Opcode != spirv.OpVariable || !s.caps.has(spirv.CapabilityShader) || len(in.Words) < 4 {
		return false
	}
	ptr := s.x.Types[in.TypeID]
	if ptr == nil || ptr.Kind != spirv.TypePointer {
		return false
	}
	if !s.containsFloat(ptr.Elem, isFP4orFP6) {
		return false
	}
	sc := ptr.Storage
	for t := s.x.Types[ptr.Elem]; t != nil && t.Kind == spirv.TypePointer; t = s.x.Types[t.Elem] {
		sc = t.Storage
	}
	if sc != spirv.StorageClassFunction && sc != spirv.StorageClassPrivate {
		name := "?"
		if e, ok := spirv.OperandKindStorageClass.Enumerant(uint32(sc)); ok {
			name = e.Name
		}
		return s.fail(i, "", "Cannot allocate a variable containing a Float4EXT or Float6EXT type in %s storage class", name)
	}
	return false
}
