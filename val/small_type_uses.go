package val

import "spvx/spirv"

// This file holds validate_small_type_uses.cpp's rule, which spirv-val
// runs in its last per-instruction loop: in a Shader module, a result
// whose type holds an 8- or 16-bit type without its full-use capability
// (Int8, Int16, Float16) may only be decorated, copied (OpCopyObject),
// stored, or converted by width (OpFConvert, OpUConvert, OpSConvert).
// Pointers to such types are not restricted here.

// smallTypeUses reports the first such result (in module order) with a
// disallowed use, at its first disallowed user. Uses are every id operand
// but Result ids, as UpdateIdUse records them; one pass finds the earliest
// (definition, user) pair without building use lists.
func (s *state) smallTypeUses() bool {
	if !s.caps.has(spirv.CapabilityShader) ||
		s.caps.has(spirv.CapabilityInt8) && s.caps.has(spirv.CapabilityInt16) && s.caps.has(spirv.CapabilityFloat16) {
		return false
	}
	// Most modules declare no such type: then there is nothing to scan.
	limited := false
	for _, ty := range s.x.Types {
		if w := ty.Width; ty.Kind == spirv.TypeInt && (w == 8 && !s.caps.has(spirv.CapabilityInt8) || w == 16 && !s.caps.has(spirv.CapabilityInt16)) ||
			ty.Kind == spirv.TypeFloat && w == 16 && !ty.HasEncoding && !s.caps.has(spirv.CapabilityFloat16) {
			limited = true
			break
		}
	}
	if !limited {
		return false
	}
	m := s.m
	bestDef, bestUser := -1, -1
	for j := 0; j < m.Len(); j++ {
		in := m.Inst(j)
		switch in.Opcode {
		case spirv.OpDecorate, spirv.OpDecorateId, spirv.OpCopyObject, spirv.OpStore, spirv.OpFConvert,
			spirv.OpUConvert, spirv.OpSConvert:
			continue
		}
		for _, id := range in.IDOperands() {
			d, ok := s.x.Def(id)
			if !ok || bestDef >= 0 && d >= bestDef {
				continue
			}
			t := m.Inst(d).TypeID
			if t == 0 || s.isPointerType(t) || !s.limitedUse(t) {
				continue
			}
			bestDef, bestUser = d, j
		}
	}
	if bestDef < 0 {
		return false
	}
	return s.fail(bestUser, "", "Invalid use of 8- or 16-bit result")
}
