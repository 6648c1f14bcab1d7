package val

import (
	"cmp"
	"slices"

	"spvx/spirv"
)

// decorationStore is ValidationState_t's id_decorations: every decoration
// that applies to an id or a struct member, the ones that decoration groups
// give (OpGroupDecorate, OpGroupMemberDecorate) included, sorted by
// (member, decoration, parameters) as SPIRV-Tools' std::set<Decoration>
// orders them, duplicates removed. It is built once, when the module-level
// decoration checks first need it.
type decorationStore struct {
	byID map[uint32][]spirv.DecorationEntry
	ids  []uint32 // the decorated ids, ascending (id_decorations is a std::map)

	epRefs    map[uint32][]uint32 // see entryPointRefs
	bufferPtr map[uint32]bool     // pointer types to uniform blocks and storage buffers
	groupUses map[uint32][][2]int // uses of decoration groups (see decorationGroup)
}

func compareDecoration(a, b spirv.DecorationEntry) int {
	if c := cmp.Compare(a.Member, b.Member); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Kind, b.Kind); c != 0 {
		return c
	}
	return slices.Compare(a.Params, b.Params)
}

// decorations returns the module's decoration store.
func (s *state) decorations() *decorationStore {
	if s.decs != nil {
		return s.decs
	}
	d := &decorationStore{byID: map[uint32][]spirv.DecorationEntry{}, bufferPtr: map[uint32]bool{}}
	m := s.m
	grouped := false
	for i := 0; i < m.Len() && !grouped; i++ {
		switch m.Inst(i).Opcode {
		case spirv.OpGroupDecorate, spirv.OpGroupMemberDecorate, spirv.OpMemberDecorateIdEXT:
			grouped = true
		}
	}
	if !grouped {
		// The index has every decoration: share its lists where they are
		// already in order (the index is read-only, so never sort them in
		// place).
		for id, list := range s.x.Decorations {
			ordered := true
			for k := 1; k < len(list) && ordered; k++ {
				ordered = compareDecoration(list[k-1], list[k]) < 0
			}
			if !ordered {
				list = slices.Clone(list)
				slices.SortStableFunc(list, compareDecoration)
				list = slices.CompactFunc(list, func(a, b spirv.DecorationEntry) bool { return compareDecoration(a, b) == 0 })
			}
			d.byID[id] = list
			d.ids = append(d.ids, id)
		}
		slices.Sort(d.ids)
		s.decs = d
		return d
	}
	// Two passes: count the entries of each id, then fill one backing
	// array, so that a module with many decoration groups costs a few
	// allocations, not one per decoration.
	var backing []spirv.DecorationEntry
	counts := map[uint32]int{}
	groupLen := map[uint32]int{}
	filling := false
	add := func(id uint32, e spirv.DecorationEntry) {
		if !filling {
			counts[id]++
			return
		}
		d.byID[id] = append(d.byID[id], e)
	}
	for pass := 0; pass < 2; pass++ {
		if pass == 1 {
			total := 0
			for _, n := range counts {
				total += n
			}
			backing = make([]spirv.DecorationEntry, total)
			off := 0
			for id, n := range counts {
				d.byID[id] = backing[off : off : off+n]
				off += n
			}
			filling = true
		}
		for i := 0; i < m.Len(); i++ {
			in := m.Inst(i)
			w := in.Words
			switch in.Opcode {
			case spirv.OpDecorate, spirv.OpDecorateId, spirv.OpDecorateString:
				if len(w) >= 3 {
					if !filling && s.isDecorationGroupTarget(w[1]) {
						groupLen[w[1]]++
					}
					add(w[1], spirv.DecorationEntry{Inst: i, Member: -1, Kind: spirv.Decoration(w[2]), Params: w[3:]})
				}
			case spirv.OpMemberDecorate, spirv.OpMemberDecorateString, spirv.OpMemberDecorateIdEXT:
				if len(w) >= 4 {
					add(w[1], spirv.DecorationEntry{Inst: i, Member: int(w[2]), Kind: spirv.Decoration(w[3]), Params: w[4:]})
				}
			case spirv.OpGroupDecorate:
				if len(w) < 2 {
					continue
				}
				for _, t := range w[2:] {
					if !filling {
						counts[t] += groupLen[w[1]]
						continue
					}
					for _, e := range d.byID[w[1]] {
						add(t, e)
					}
				}
			case spirv.OpGroupMemberDecorate:
				if len(w) < 2 {
					continue
				}
				for k := 2; k+1 < len(w); k += 2 {
					if !filling {
						counts[w[k]] += groupLen[w[1]]
						continue
					}
					for _, e := range d.byID[w[1]] {
						e.Member = int(w[k+1])
						add(w[k], e)
					}
				}
			}
		}
	}
	for id, list := range d.byID {
		slices.SortStableFunc(list, compareDecoration)
		list = slices.CompactFunc(list, func(a, b spirv.DecorationEntry) bool { return compareDecoration(a, b) == 0 })
		d.byID[id] = list
		d.ids = append(d.ids, id)
	}
	slices.Sort(d.ids)
	s.decs = d
	return d
}

// of returns id's decorations (members' included).
func (d *decorationStore) of(id uint32) []spirv.DecorationEntry { return d.byID[id] }

// member returns the decorations of member k of struct id: a sub-slice,
// the list being sorted by member.
func (d *decorationStore) member(id uint32, k int) []spirv.DecorationEntry {
	list := d.byID[id]
	lo, _ := slices.BinarySearchFunc(list, k, func(e spirv.DecorationEntry, k int) int { return cmp.Compare(e.Member, k) })
	hi := lo
	for hi < len(list) && list[hi].Member == k {
		hi++
	}
	return list[lo:hi]
}

// has is HasDecoration: id (or one of its members) has decoration dec.
func (d *decorationStore) has(id uint32, dec spirv.Decoration) bool {
	for _, e := range d.byID[id] {
		if e.Kind == dec {
			return true
		}
	}
	return false
}

// hasNested is validate_decorations.cpp's hasDecoration: id has dec, or
// a struct id is made of (directly, at any depth of struct members) does.
func (s *state) hasNested(id uint32, dec spirv.Decoration, depth int) bool {
	d := s.decorations()
	if d.has(id, dec) {
		return true
	}
	t := s.typeOf(id)
	if t == nil || t.Kind != spirv.TypeStruct || depth > 256 {
		return false
	}
	for _, m := range t.Members {
		if mt := s.typeOf(m); mt != nil && mt.Kind == spirv.TypeStruct && s.hasNested(m, dec, depth+1) {
			return true
		}
	}
	return false
}

// enumName returns the grammar's name of value v of kind k ("Unknown").
func enumName(k spirv.OperandKind, v uint32) string {
	if e, ok := k.Enumerant(v); ok {
		return e.Name
	}
	return "Unknown"
}

// isDecorationGroupTarget reports whether id is an OpDecorationGroup.
func (s *state) isDecorationGroupTarget(id uint32) bool {
	j, ok := s.x.Def(id)
	return ok && s.m.Inst(j).Opcode == spirv.OpDecorationGroup
}
