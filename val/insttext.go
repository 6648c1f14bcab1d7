package val

import (
	"sort"
	"strings"
	"sync/atomic"

	"spvx/spirv"
)

// textedInsts counts the instructions disassembled for messages, so tests
// can check that printing one failing instruction does not disassemble a
// module of a million.
var textedInsts atomic.Int64

// InstructionTextsOf returns the disassembly of instructions idx (indices
// for m.Inst) as InstructionTexts gives them, disassembling only what their
// names depend on: the instructions before the first OpFunction (debug
// names, decorations, types, constants and globals, which the friendly-name
// pass names in order) and those that define the ids they use.
func InstructionTextsOf(m *spirv.Module, idx []int) []string {
	out := make([]string, len(idx))
	sub, pos := subModule(m, idx)
	if pos == nil {
		return out
	}
	if sub == nil {
		// The selection did not decode on its own (it should): fall back
		// to the whole module, whose positions are the indices.
		sub, pos = m, nil
	}
	texts := InstructionTexts(sub)
	for k, i := range idx {
		p, ok := i, i >= 0
		if pos != nil {
			p, ok = pos[i]
		}
		if ok && p < len(texts) {
			out[k] = texts[p]
		}
	}
	return out
}

// ErrorTexts returns, for each error of list, its instruction's text as
// spirv-val prints it under the message ("" for an error about the
// module as a whole), disassembling only those instructions.
func ErrorTexts(m *spirv.Module, list ErrorList) []string {
	idx := make([]int, len(list))
	for k, e := range list {
		idx[k] = e.Inst
	}
	return InstructionTextsOf(m, idx)
}

// subModule builds the module of m's global section, the instructions
// idx and the definitions of the ids they use, in m's order, and where
// each of idx landed in it; a nil map when there is nothing to show, a
// nil module when the selection does not decode.
func subModule(m *spirv.Module, idx []int) (*spirv.Module, map[int]int) {
	keep := map[int]bool{}
	x := m.Index()
	for _, i := range idx {
		if i < 0 || i >= m.Len() {
			continue
		}
		keep[i] = true
		in := m.Inst(i)
		for _, o := range in.Operands {
			if !isIDKind(o.Kind) {
				continue
			}
			for _, id := range in.Words[o.Offset : o.Offset+o.Count] {
				if d, ok := x.Def(id); ok {
					keep[d] = true
				}
			}
		}
	}
	if len(keep) == 0 {
		return nil, nil
	}
	order := make([]int, 0, len(keep))
	for i := range keep {
		order = append(order, i)
	}
	sort.Ints(order)
	words := append([]uint32(nil), m.Words()[:5]...)
	pos := map[int]int{}
	n := 0
	add := func(i int) {
		pos[i] = n
		n++
		words = append(words, m.Inst(i).Words...)
	}
	g := 0
	for ; g < m.Len() && m.Opcode(g) != spirv.OpFunction; g++ {
		add(g)
	}
	for _, i := range order {
		if i >= g {
			add(i)
		}
	}
	sub, err := spirv.DecodeWords(words)
	if err != nil {
		return nil, pos
	}
	return sub, pos
}

// isIDKind reports whether an operand of kind k holds ids.
func isIDKind(k spirv.OperandKind) bool {
	switch k {
	case spirv.OperandKindIdRef, spirv.OperandKindIdResultType, spirv.OperandKindIdScope, spirv.OperandKindIdMemorySemantics:
		return true
	}
	return false
}

// maxNameLookups is how many ids friendly names one at a time before it
// names the whole module at once: a few names cost the global section each,
// many cost one disassembly.
const maxNameLookups = 16

// friendly returns id's friendly name as spirv-dis (and so spirv-val)
// prints it, or the number when the id has no definition. A name comes
// from disassembling the global section and the id's definition, as the
// message that needs it is made; after maxNameLookups of those, from one
// disassembly of the whole module.
func (s *state) friendly(id uint32) string {
	if n, ok := s.names[id]; ok {
		return n
	}
	if s.names == nil {
		s.names = map[uint32]string{}
	}
	if d, ok := s.x.Def(id); ok {
		if s.nameLookups < maxNameLookups {
			s.nameLookups++
			if n := definedName(s.m, d); n != "" {
				s.names[id] = n
				return n
			}
		} else if !s.allNamed {
			s.allNamed = true
			for k, v := range friendlyNames(s.m) {
				s.names[k] = v
			}
			if n, ok := s.names[id]; ok {
				return n
			}
		}
	}
	return s.undefinedName(id)
}

// definedName is the name instruction d's text gives its result id.
func definedName(m *spirv.Module, d int) string {
	l := InstructionTextsOf(m, []int{d})[0]
	if strings.HasPrefix(l, "%") {
		if k := strings.Index(l, " = "); k > 1 {
			return l[1:k]
		}
	}
	return ""
}
