package interp

import (
	"errors"
	"sort"

	"spvx/spirv"
)

// ssaFn puts a function's promoted Function variables (see promote) into
// SSA form while the function compiles, which is what mem2reg does: an
// OpStore only records which register holds the variable's value, an
// OpLoad is that register (no instruction), and where values of a variable
// meet (the iterated dominance frontier of its stores) a phi on the
// incoming edges merges them. glslang's -O0 code is mostly loads and
// stores of locals, so this removes most of its instructions.
//
// A load's result names the register of the value stored last on every
// path to it. That register is an SSA value whose definition dominates the
// store, which dominates the load: by the usual SSA argument it still holds
// that value at every use of the load's result.
type ssaFn struct {
	vars  map[uint32]int // promoted variable -> index
	n     []int32        // components of each variable
	cur   []int32        // current register of each variable; -1 undefined
	undef []int32        // a never-written register group per variable (-1 not yet)
	end   [][]int32      // per block position in the compile order: cur at its end
	idom  []int          // per position: the immediate dominator's position; -1 none
	phis  [][]ssaPhi     // per position: the phis placed there
}

type ssaPhi struct {
	v    int
	slot int32
}

// ssaLimit bounds variables × blocks of one function put into SSA form
// (the per-block states); a larger function keeps the variables as
// registers written by copies.
const ssaLimit = 1 << 20

// buildSSA prepares SSA construction for the promoted variables vars of sf,
// whose blocks compile in order (indexes into sf.Blocks), with successors
// succ (by index into sf.Blocks). It returns nil when it cannot (too
// large, or a block would compile before its immediate dominator); the
// variables then stay registers.
func (c *compiler) buildSSA(sf *spirv.Function, vars []uint32, order []int, succ *spirv.Graph) *ssaFn {
	nb := len(order)
	if len(vars) == 0 || nb == 0 || len(vars)*nb > ssaLimit {
		return nil
	}
	s := &ssaFn{vars: map[uint32]int{}, n: make([]int32, len(vars)), cur: make([]int32, len(vars)), undef: make([]int32, len(vars))}
	for k, id := range vars {
		s.vars[id] = k
		s.n[k] = c.regVarN[id]
		s.cur[k], s.undef[k] = -1, -1
	}
	pos := make([]int32, len(sf.Blocks))
	for i := range pos {
		pos[i] = -1
	}
	for r, b := range order {
		pos[b] = int32(r)
	}
	// The control-flow graph by compile position (the compile order also
	// follows merge declarations), its predecessors and dominator tree.
	var gb spirv.GraphBuilder
	for _, b := range order {
		gb.Node()
		for _, t := range succ.Succ(int32(b)) {
			if pos[t] >= 0 {
				gb.Edge(pos[t])
			}
		}
	}
	g := gb.Graph()
	preds := g.Reverse()
	dom := spirv.Dominators(&g, 0)
	idom := make([]int, nb)
	for b := range idom {
		idom[b] = int(dom.Idom[b])
		if b > 0 && dom.Reached(int32(b)) && idom[b] >= b {
			return nil // the immediate dominator would compile later
		}
	}
	s.idom = idom
	// Dominance frontiers.
	df := make([][]int, nb)
	for b := 0; b < nb; b++ {
		if !dom.Reached(int32(b)) {
			continue
		}
		np := 0
		for _, p := range preds.Succ(int32(b)) {
			if dom.Reached(p) {
				np++
			}
		}
		if np < 2 {
			continue
		}
		for _, p := range preds.Succ(int32(b)) {
			if !dom.Reached(p) {
				continue
			}
			for r := int(p); r >= 0 && r != idom[b]; r = idom[r] {
				if n := len(df[r]); n == 0 || df[r][n-1] != b {
					df[r] = append(df[r], b)
				}
			}
		}
	}
	// Semi-pruned SSA: a variable needs phis only if some block loads it
	// before storing it; defs: the blocks that store it.
	global := make([]bool, len(vars))
	defs := make([][]int, len(vars))
	stored := make([]int, len(vars)) // last position+1 that stored the variable
	for r, b := range order {
		sb := sf.Blocks[b]
		for i := sb.Start + 1; i < sb.End; i++ {
			in := c.m.Inst(i)
			switch {
			case in.Opcode == spirv.OpLoad && len(in.Words) > 3:
				if k, ok := s.vars[in.Words[3]]; ok && stored[k] != r+1 {
					global[k] = true
				}
			case in.Opcode == spirv.OpStore && len(in.Words) > 2:
				if k, ok := s.vars[in.Words[1]]; ok && stored[k] != r+1 {
					stored[k] = r + 1
					defs[k] = append(defs[k], r)
				}
			}
		}
	}
	s.phis = make([][]ssaPhi, nb)
	has := make([]int, nb) // variable index+1 that last placed a phi / queued
	for k := range vars {
		if !global[k] {
			continue
		}
		work := append([]int(nil), defs[k]...)
		queued := map[int]bool{}
		for _, d := range work {
			queued[d] = true
		}
		for len(work) > 0 {
			x := work[len(work)-1]
			work = work[:len(work)-1]
			for _, y := range df[x] {
				if has[y] == k+1 {
					continue
				}
				has[y] = k + 1
				s.phis[y] = append(s.phis[y], ssaPhi{v: k, slot: c.newSlots(int(s.n[k]))})
				if !queued[y] {
					queued[y] = true
					work = append(work, y)
				}
			}
		}
	}
	s.end = make([][]int32, nb)
	return s
}

// promotedVars lists the promoted variables of sf in module order.
func (c *compiler) promotedVars(sf *spirv.Function) []uint32 {
	var ids []uint32
	for id := range c.regVars {
		if i, ok := c.x.Def(id); ok && i > sf.Start && i < sf.End {
			ids = append(ids, id)
		}
	}
	sort.Slice(ids, func(a, b int) bool { return ids[a] < ids[b] })
	return ids
}

// enter sets the variables' registers at the start of the block at
// position r: its phis, else the state at the end of its immediate
// dominator (which compiled earlier), else undefined.
func (s *ssaFn) enter(r int) {
	for k := range s.cur {
		s.cur[k] = -1
	}
	if d := s.idom[r]; d >= 0 && s.end[d] != nil {
		copy(s.cur, s.end[d])
	}
	for _, ph := range s.phis[r] {
		s.cur[ph.v] = ph.slot
	}
}

// leave records the state at the end of the block at position r.
func (s *ssaFn) leave(r int) {
	s.end[r] = append([]int32(nil), s.cur...)
}

// value returns the register holding variable k's current value.
func (c *compiler) ssaValue(k int) int32 {
	s := c.ssa
	if v := s.cur[k]; v >= 0 {
		return v
	}
	if s.undef[k] < 0 {
		s.undef[k] = c.newSlots(int(s.n[k]))
	}
	return s.undef[k]
}

// ssaLoad compiles an OpLoad of promoted variable k: the result is the
// register of the variable's current value. A result already given a
// register (a use compiled before its definition, which valid SSA only
// allows in phis) gets a copy instead.
func (c *compiler) ssaLoad(k int, typeID, result uint32) error {
	rt, err := c.typ(typeID)
	if err != nil {
		return err
	}
	if c.ssa.n[k] != int32(rt.ncomp) {
		return errors.New("OpLoad: the pointee type does not match the result type")
	}
	if rt.kind == spirv.TypePointer {
		if err := c.notePtr(result, rt); err != nil {
			return err
		}
	}
	v := c.ssaValue(k)
	if _, ok := c.slots[result]; ok {
		d, _, err := c.slot(result)
		if err != nil {
			return err
		}
		c.emit(inst{op: opCopy, dst: d, a: v, n: int32(rt.ncomp)})
		return nil
	}
	c.slots[result] = v
	return nil
}
