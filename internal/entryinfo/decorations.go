package entryinfo

import (
	"iter"

	"spvx/spirv"
)

// groupUse is one application of a decoration group to an id: to the
// whole id (member -1, OpGroupDecorate) or to a struct member
// (OpGroupMemberDecorate).
type groupUse struct {
	group  uint32
	member int
}

// indexGroups records, per target id, the decoration groups applied to it.
// spirv.Index keeps groups unexpanded (k group decorations on m targets
// cost k + m), so lookups here follow them.
func (d *describer) indexGroups() {
	d.groups = map[uint32][]groupUse{}
	for _, in := range d.m.All() {
		switch in.Opcode {
		case spirv.OpGroupDecorate:
			w := in.Words
			for _, t := range w[min(2, len(w)):] {
				d.groups[t] = append(d.groups[t], groupUse{w[1], -1})
			}
		case spirv.OpGroupMemberDecorate:
			w := in.Words
			for i := 2; i+1 < len(w); i += 2 {
				d.groups[w[i]] = append(d.groups[w[i]], groupUse{w[1], int(w[i+1])})
			}
		case spirv.OpFunction:
			return // annotations precede the functions
		}
	}
}

// decorations yields id's decorations: its own, then those of the groups
// applied to it (a group's whole-id decorations land on the member the
// group was applied to, if any).
func (d *describer) decorations(id uint32) iter.Seq[spirv.DecorationEntry] {
	return func(yield func(spirv.DecorationEntry) bool) {
		for _, e := range d.x.Decorations[id] {
			if !yield(e) {
				return
			}
		}
		for _, g := range d.groups[id] {
			for _, e := range d.x.Decorations[g.group] {
				if e.Member >= 0 {
					continue
				}
				e.Member = g.member
				if !yield(e) {
					return
				}
			}
		}
	}
}
