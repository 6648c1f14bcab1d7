package val

import "spvx/spirv"

// This file holds validate_decorations.cpp's rules, as far as they exist
// here: CheckDecorationsCompatibility (a decoration at most once per id or
// member, and the mutually exclusive pairs). Block layout and the other
// decoration checks are not written yet.

func decorationName(d spirv.Decoration) string {
	if e, ok := spirv.OperandKindDecoration.Enumerant(uint32(d)); ok {
		return e.Name
	}
	return "Unknown"
}

func (s *state) decorationsCompatibility() bool {
	type idKey struct {
		dec spirv.Decoration
		id  uint32
	}
	type memberKey struct {
		dec        spirv.Decoration
		id, member uint32
	}
	perID := map[idKey]bool{}
	perMember := map[memberKey]bool{}
	exclusiveID := map[spirv.Decoration]spirv.Decoration{
		spirv.DecorationBlock: spirv.DecorationBufferBlock, spirv.DecorationBufferBlock: spirv.DecorationBlock,
		spirv.DecorationRestrict: spirv.DecorationAliased, spirv.DecorationAliased: spirv.DecorationRestrict,
		spirv.DecorationRestrictPointer: spirv.DecorationAliasedPointer, spirv.DecorationAliasedPointer: spirv.DecorationRestrictPointer,
	}
	exclusiveMember := map[spirv.Decoration]spirv.Decoration{
		spirv.DecorationRowMajor: spirv.DecorationColMajor, spirv.DecorationColMajor: spirv.DecorationRowMajor,
		spirv.DecorationOffset: spirv.DecorationOffsetIdEXT, spirv.DecorationOffsetIdEXT: spirv.DecorationOffset,
	}
	at := func(id uint32) int {
		if j, ok := s.x.Def(id); ok {
			return j
		}
		return -1
	}
	for i := 0; i < s.m.Len(); i++ {
		in := s.m.Inst(i)
		w := in.Words
		switch in.Opcode {
		case spirv.OpDecorate:
			if len(w) < 3 {
				continue
			}
			id, dec := w[1], spirv.Decoration(w[2])
			k := idKey{dec, id}
			if perID[k] && dec != spirv.DecorationUserSemantic && dec != spirv.DecorationFuncParamAttr {
				if s.fail(at(id), "", "ID '%d' decorated with %s multiple times is not allowed.", id, decorationName(dec)) {
					return true
				}
			}
			perID[k] = true
			if ex, ok := exclusiveID[dec]; ok && perID[idKey{ex, id}] {
				if s.fail(at(id), "", "ID '%d' decorated with both %s and %s is not allowed.", id, decorationName(dec), decorationName(ex)) {
					return true
				}
			}
		case spirv.OpMemberDecorate, spirv.OpMemberDecorateIdEXT:
			if len(w) < 4 {
				continue
			}
			id, member, dec := w[1], w[2], spirv.Decoration(w[3])
			k := memberKey{dec, id, member}
			if perMember[k] && dec != spirv.DecorationUserSemantic {
				if s.fail(at(id), "", "ID '%d', member '%d' decorated with %s multiple times is not allowed.", id, member, decorationName(dec)) {
					return true
				}
			}
			perMember[k] = true
			if ex, ok := exclusiveMember[dec]; ok && perMember[memberKey{ex, id, member}] {
				if s.fail(at(id), "", "ID '%d', member '%d' decorated with both %s and %s is not allowed.", id, member, decorationName(dec), decorationName(ex)) {
					return true
				}
			}
		}
	}
	return false
}
