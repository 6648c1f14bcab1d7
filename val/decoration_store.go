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
//
// Group membership stays unexpanded: k decorations of a group applied to m
// targets cost k + m entries, not k×m (k = m = 4000 took 16.6 s and 764 MB
// expanded). A query names the decorations it looks for (ofKinds), and
// reads each group's decorations of those kinds through the target's
// memberships.
type decorationStore struct {
	own  map[uint32][]spirv.DecorationEntry // direct decorations, sorted, no duplicates
	refs map[uint32][]groupRef              // each target's group memberships, by member
	// memberRefs are the whole-id memberships (OpGroupDecorate) whose
	// group has member decorations, by target: rare, but member must
	// read them.
	memberRefs map[uint32][]groupRef
	groups     map[uint32]*groupDecs // each group's decorations
	ids        []uint32              // the decorated ids, ascending (id_decorations is a std::map)

	epRefs    map[uint32][]uint32 // see entryPointRefs
	bufferPtr map[uint32]bool     // pointer types to uniform blocks and storage buffers
	groupUses map[uint32][][2]int // uses of decoration groups (see decorationGroup)
}

// groupRef is one OpGroupDecorate (member -1) or OpGroupMemberDecorate
// target: the group, the member, and the instruction, since a group gives
// only the decorations registered before it is applied (as SPIRV-Tools
// copies them then).
type groupRef struct {
	group  uint32
	member int
	at     int
}

// groupDecs are a decoration group's decorations by kind, each list
// sorted as the store's; members says whether any names a member.
type groupDecs struct {
	byKind  map[spirv.Decoration][]spirv.DecorationEntry
	members bool
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

func sortDecorations(list []spirv.DecorationEntry) []spirv.DecorationEntry {
	slices.SortStableFunc(list, compareDecoration)
	return slices.CompactFunc(list, func(a, b spirv.DecorationEntry) bool { return compareDecoration(a, b) == 0 })
}

// decorations returns the module's decoration store.
func (s *state) decorations() *decorationStore {
	if s.decs != nil {
		return s.decs
	}
	n := len(s.x.Decorations) // own and ids made at their size: grown, they cost twice that
	d := &decorationStore{own: make(map[uint32][]spirv.DecorationEntry, n), ids: make([]uint32, 0, n),
		bufferPtr: map[uint32]bool{}}
	// The index has every direct decoration: share its lists where they
	// are already in order (the index is read-only, so never sort them in
	// place).
	for id, list := range s.x.Decorations {
		ordered := true
		for k := 1; k < len(list) && ordered; k++ {
			ordered = compareDecoration(list[k-1], list[k]) < 0
		}
		if !ordered {
			list = sortDecorations(slices.Clone(list))
		}
		d.own[id] = list
		d.ids = append(d.ids, id)
	}
	m := s.m
	var extra map[uint32][]spirv.DecorationEntry // OpMemberDecorateIdEXT, which the index leaves out
	for i := 0; i < m.Len(); i++ {
		switch m.Opcode(i) {
		case spirv.OpMemberDecorateIdEXT, spirv.OpGroupDecorate, spirv.OpGroupMemberDecorate:
		default:
			continue
		}
		in := m.Inst(i)
		w := in.Words
		switch in.Opcode {
		case spirv.OpMemberDecorateIdEXT:
			if len(w) >= 4 {
				if extra == nil {
					extra = map[uint32][]spirv.DecorationEntry{}
				}
				extra[w[1]] = append(extra[w[1]], spirv.DecorationEntry{Inst: i, Member: int(w[2]), Kind: spirv.Decoration(w[3]), Params: w[4:]})
			}
		case spirv.OpGroupDecorate:
			for _, t := range w[min(2, len(w)):] {
				d.addRef(t, groupRef{group: w[1], member: -1, at: i})
			}
		case spirv.OpGroupMemberDecorate:
			for k := 2; k+1 < len(w); k += 2 {
				d.addRef(w[k], groupRef{group: w[1], member: int(w[k+1]), at: i})
			}
		}
	}
	for id, list := range extra {
		d.own[id] = sortDecorations(append(slices.Clone(d.own[id]), list...))
		d.ids = append(d.ids, id)
	}
	d.indexGroups()
	slices.Sort(d.ids)
	d.ids = slices.Compact(d.ids)
	s.decs = d
	return d
}

func (d *decorationStore) addRef(t uint32, r groupRef) {
	if d.refs == nil {
		d.refs = map[uint32][]groupRef{}
	}
	d.refs[t] = append(d.refs[t], r)
	d.ids = append(d.ids, t)
}

// indexGroups sorts each target's memberships by member (member looks
// them up by binary search) and files each group's decorations by kind.
func (d *decorationStore) indexGroups() {
	for t, rs := range d.refs {
		slices.SortStableFunc(rs, func(a, b groupRef) int { return cmp.Compare(a.member, b.member) })
		d.refs[t] = rs
		for _, r := range rs {
			if d.groups == nil {
				d.groups = map[uint32]*groupDecs{}
			}
			if d.groups[r.group] != nil {
				continue
			}
			g := &groupDecs{byKind: map[spirv.Decoration][]spirv.DecorationEntry{}}
			for _, e := range d.own[r.group] {
				g.byKind[e.Kind] = append(g.byKind[e.Kind], e)
				g.members = g.members || e.Member >= 0
			}
			d.groups[r.group] = g
		}
		for _, r := range rs {
			if r.member < 0 && d.groups[r.group].members {
				if d.memberRefs == nil {
					d.memberRefs = map[uint32][]groupRef{}
				}
				d.memberRefs[t] = append(d.memberRefs[t], r)
			}
		}
	}
}

// ofKinds returns id's decorations (members' included) of the given
// kinds, sorted and without duplicates: its own, and its groups'. (At
// least one kind: a query names what it reads.)
func (d *decorationStore) ofKinds(id uint32, kind spirv.Decoration, more ...spirv.Decoration) []spirv.DecorationEntry {
	var buf [8]spirv.Decoration // the kinds on the stack: queries name a few
	return d.collect(id, d.refs[id], -1, append(append(buf[:0], kind), more...))
}

// collect gathers the decorations of the given kinds of id (member -1) or
// of member k of id, from own and the memberships rs.
func (d *decorationStore) collect(id uint32, rs []groupRef, k int, kinds []spirv.Decoration) []spirv.DecorationEntry {
	own := d.own[id]
	if k >= 0 {
		own = memberRange(own, k)
	}
	var out []spirv.DecorationEntry
	for _, e := range own {
		if slices.Contains(kinds, e.Kind) {
			out = append(out, e)
		}
	}
	grouped := false
	for _, r := range rs {
		g := d.groups[r.group]
		if k >= 0 && r.member != k && !g.members {
			continue
		}
		for _, kind := range kinds {
			for _, e := range g.byKind[kind] {
				if e.Inst >= r.at {
					continue
				}
				if r.member >= 0 {
					e.Member = r.member
				}
				if k < 0 || e.Member == k {
					out, grouped = append(out, e), true
				}
			}
		}
	}
	if grouped {
		out = sortDecorations(out)
	}
	return out
}

// memberRange returns the entries of member k of a sorted list.
func memberRange(list []spirv.DecorationEntry, k int) []spirv.DecorationEntry {
	lo, _ := slices.BinarySearchFunc(list, k, func(e spirv.DecorationEntry, k int) int { return cmp.Compare(e.Member, k) })
	hi := lo
	for hi < len(list) && list[hi].Member == k {
		hi++
	}
	return list[lo:hi]
}

// member returns the decorations of the given kinds of member k of
// struct id.
func (d *decorationStore) member(id uint32, k int, kind spirv.Decoration, more ...spirv.Decoration) []spirv.DecorationEntry {
	kinds := append([]spirv.Decoration{kind}, more...)
	rs := d.refs[id]
	// Memberships are sorted by member: those of member k, and those of
	// the whole id whose groups name members.
	lo, _ := slices.BinarySearchFunc(rs, k, func(r groupRef, k int) int { return cmp.Compare(r.member, k) })
	hi := lo
	for hi < len(rs) && rs[hi].member == k {
		hi++
	}
	if whole := d.memberRefs[id]; len(whole) > 0 {
		return d.collect(id, append(slices.Clip(whole), rs[lo:hi]...), k, kinds)
	}
	return d.collect(id, rs[lo:hi], k, kinds)
}

// has is HasDecoration: id (or one of its members) has decoration dec.
func (d *decorationStore) has(id uint32, dec spirv.Decoration) bool {
	for _, e := range d.own[id] {
		if e.Kind == dec {
			return true
		}
	}
	for _, r := range d.refs[id] {
		for _, e := range d.groups[r.group].byKind[dec] {
			if e.Inst < r.at {
				return true
			}
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
