package val

import "spvx/spirv"

// This file holds validate_debug.cpp's rules (DebugPass): OpMemberName
// names a member of a struct type, and OpLine's file is an OpString.

// debugOps reports whether debugPass can act on an instruction of opcode op
// (passGate runs it on no other: a new case there needs its opcode here).
func debugOps(op spirv.Opcode) bool {
	return op == spirv.OpMemberName || op == spirv.OpLine
}

func (s *state) debugPass(i int, in *spirv.Instruction) bool {
	switch in.Opcode {
	case spirv.OpMemberName:
		if len(in.Words) < 3 {
			return false
		}
		t, member := in.Words[1], in.Words[2]
		j, ok := s.x.Def(t)
		if !ok || s.m.Opcode(j) != spirv.OpTypeStruct {
			return s.fail(i, "", "OpMemberName Type <id> %s is not a struct type.", s.idName(t))
		}
		if n := uint32(len(s.m.Inst(j).Words) - 2); n <= member {
			// spirv-val names the member index as if it were an id.
			return s.fail(i, "", "OpMemberName Member <id> %s index is larger than Type <id> %ss member count.", s.idName(member), s.idName(t))
		}
	case spirv.OpLine:
		if len(in.Words) < 2 {
			return false
		}
		if s.defOp(in.Words[1]) != spirv.OpString {
			return s.fail(i, "", "OpLine Target <id> %s is not an OpString.", s.idName(in.Words[1]))
		}
	}
	return false
}
