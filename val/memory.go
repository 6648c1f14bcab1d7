package val

import "spvx/spirv"

// This file holds validate_memory.cpp's rules, as far as they exist here:
// SPV_EXT_ocp_microscaling_types' storage-class rule for OpVariable
// (OCP-MX-RULES.md §2.2 E): with the Shader capability, a variable whose
// data type contains E2M1, E2M3 or E3M2 must be in the Function or Private
// storage class, following the data type through pointers to the
// innermost pointer's storage class.

func (s *state) memoryPass(i int, in *spirv.Instruction) bool {
	if in.Opcode != spirv.OpVariable || !s.caps.has(spirv.CapabilityShader) {
		return false
	}
	return s.memoryStorage(i, in)
}

// memoryStorage applies the storage-class rule to variable i.
func (s *state) memoryStorage(i int, in *spirv.Instruction) bool {
	if len(in.Words) < 4 {
		return false
	}
	ptr := s.x.Types[in.TypeID]
	if ptr == nil || ptr.Kind != spirv.TypePointer {
		return false
	}
	if !s.containsOCPNB(ptr.Elem) {
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
