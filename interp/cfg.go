package interp

import (
	"fmt"
	"iter"

	"spvx/spirv"
)

// function compiles one function: orders its blocks so that every
// construct's blocks come before its merge block, then compiles each block.
func (c *compiler) function(fid uint32) error {
	sf := c.fnIndex[fid]
	if len(sf.Blocks) == 0 {
		return fmt.Errorf("function %s has no blocks", c.fnName(fid))
	}
	for _, b := range sf.Blocks {
		if b.End < 0 {
			return fmt.Errorf("block %%%d of function %s has no terminator", b.Label, c.fnName(fid))
		}
	}
	fn := &function{id: fid, name: c.fnName(fid)}
	c.curFn, c.curFnID = fn, fid
	if _, err := c.typ(sf.Type); err != nil {
		return err
	}
	if rt, err := c.typ(sf.Result); err != nil {
		return err
	} else if rt.kind != spirv.TypeVoid {
		fn.retN = int32(rt.ncomp)
	}
	for _, pid := range sf.Params {
		s, t, err := c.slot(pid)
		if err != nil {
			return err
		}
		fn.params = append(fn.params, s)
		fn.paramN = append(fn.paramN, int32(t.ncomp))
		if t.kind == spirv.TypePointer {
			if err := c.notePtr(pid, t); err != nil {
				return err
			}
		}
	}
	// The block structure (spirv.NewCFG): branch targets, with OpSwitch
	// literals sized by the selector, and merge declarations.
	cfg := spirv.NewCFG(c.m, sf.Blocks)
	var ts []uint32
	for i, b := range sf.Blocks {
		if first, _ := cfg.Block(b.Label); int(first) != i {
			return fmt.Errorf("block label %%%d defined twice", b.Label)
		}
		term := c.m.Inst(b.End)
		ts = spirv.Targets(&term, ts[:0])
		for _, s := range ts {
			if _, ok := cfg.Block(s); !ok {
				return fmt.Errorf("block %%%d branches to %%%d, which is not a block of function %s", b.Label, s, fn.name)
			}
		}
	}
	// Number the blocks (blockorder.go): structure first, and where the
	// function has no merge blocks to follow, loops kept contiguous. A
	// loop's merge is visited before its continue target, so the continue
	// target is numbered after the body and before the merge.
	walk := cfg.Structural()
	kids := make([][]int, len(sf.Blocks))
	structured := false
	for b := range kids {
		structured = structured || cfg.Merge[b] >= 0
		for _, t := range walk.Succ(int32(b)) {
			kids[b] = append(kids[b], int(t))
		}
	}
	order, rank := structuredOrder(kids)
	if !structured {
		order = loopContiguous(kids, order, rank)
	}
	fn.firstBlock = int32(len(c.p.blocks))
	fn.nblocks = int32(len(order))
	c.blockOf = map[uint32]int32{}
	for r, b := range order {
		c.blockOf[sf.Blocks[b].Label] = fn.firstBlock + int32(r)
		c.p.blocks = append(c.p.blocks, block{label: sf.Blocks[b].Label, fn: fn})
	}
	edges0 := len(c.p.edges)
	c.promote(sf)
	c.memOnly = c.memOnlyUses(sf)
	c.ssa = c.buildSSA(sf, c.promotedVars(sf), order, &cfg.Succ)
	defer func() { c.ssa = nil }()
	// Phis of every block, for the edge moves.
	c.phis = map[uint32][]phiInfo{}
	if c.ssa != nil {
		for r, phs := range c.ssa.phis {
			l := sf.Blocks[order[r]].Label
			for _, ph := range phs {
				c.phis[l] = append(c.phis[l], phiInfo{slot: ph.slot, n: c.ssa.n[ph.v], mvar: ph.v + 1})
			}
		}
	}
	for _, b := range sf.Blocks {
		for i := b.Start + 1; i < b.End; i++ {
			in := c.m.Inst(i)
			if in.Opcode != spirv.OpPhi {
				continue
			}
			s, t, err := c.slot(in.ResultID)
			if err != nil {
				return err
			}
			c.phis[b.Label] = append(c.phis[b.Label], phiInfo{slot: s, n: int32(t.ncomp), pairs: in.Words[3:]})
			if t.kind == spirv.TypePointer {
				// variable pointers: take what is known of the first incoming pointer
				if len(in.Words) > 3 {
					if pi := c.ptrs[in.Words[3]]; pi != nil {
						c.ptrs[in.ResultID] = pi
					}
				}
				if c.ptrs[in.ResultID] == nil {
					if err := c.notePtr(in.ResultID, t); err != nil {
						return err
					}
				}
			}
		}
	}
	// Compile blocks in order.
	for r, b := range order {
		sb := sf.Blocks[b]
		c.curLabel = sb.Label
		bi := fn.firstBlock + int32(r)
		c.p.blocks[bi].start = int32(len(c.code))
		if c.ssa != nil {
			c.ssa.enter(r)
		}
		for i := sb.Start + 1; i <= sb.End; i++ {
			in := c.m.Inst(i)
			c.instIdx = i
			if in.Opcode == spirv.OpPhi || in.Opcode == spirv.OpSelectionMerge || in.Opcode == spirv.OpLoopMerge {
				continue
			}
			var ops []uint32
			first := 1
			info := in.Opcode.Info()
			if info != nil && info.HasType {
				first++
			}
			if info != nil && info.HasResult {
				first++
			}
			if first <= len(in.Words) {
				ops = in.Words[first:]
			}
			if err := c.opFC(in.Opcode, in.TypeID, in.ResultID, ops, i); err != nil {
				return fmt.Errorf("%s: %w", c.describe(i), err)
			}
		}
		if c.ssa != nil {
			c.ssa.leave(r)
		}
		c.p.blocks[bi].end = int32(len(c.code))
		if c.p.blocks[bi].end == c.p.blocks[bi].start || c.code[len(c.code)-1].op >= opLastControl || c.code[len(c.code)-1].op == opCall || c.code[len(c.code)-1].op == opBarrier {
			return fmt.Errorf("block %%%d does not end in a terminator", sb.Label)
		}
	}
	c.threadEdges(edges0)
	c.funcs[fid] = fn
	return nil
}

// threadEdges retargets the function's edges (from index first) that lead
// to a block consisting of only an unconditional branch without phi moves
// (a loop header at -O0, an empty merge block) to that branch's target,
// when the target is numbered after the block. Lanes would wait at that
// block only until every lower-numbered block ran, and then go on, so the
// schedule is the same; backward branches (continue blocks) are kept, as
// the lanes must reconverge there. The trace, which prints every block,
// keeps them all.
func (c *compiler) threadEdges(first int) {
	if c.opts.Trace != nil {
		return
	}
	for i := first; i < len(c.p.edges); i++ {
		e := &c.p.edges[i]
		for hop := 0; hop < 8; hop++ {
			b := c.p.blocks[e.target]
			if b.end-b.start != 1 || c.code[b.start].op != opBranch {
				break
			}
			next := c.p.edges[c.code[b.start].aux]
			if len(next.moves) != 0 || next.target <= e.target {
				break
			}
			e.target = next.target
		}
	}
}

// valType returns the type of a value id.
func (c *compiler) valType(id uint32) (*tinfo, error) {
	i, ok := c.x.Def(id)
	if !ok {
		return nil, fmt.Errorf("%%%d is not defined", id)
	}
	in := c.m.Inst(i)
	if in.TypeID == 0 {
		return nil, fmt.Errorf("%%%d has no type", id)
	}
	return c.typ(in.TypeID)
}

// edgeTo builds the edge from the current block to label, with its phi moves.
func (c *compiler) edgeTo(label uint32) (int32, error) {
	b, ok := c.blockOf[label]
	if !ok {
		return 0, fmt.Errorf("branch target %%%d is not a block of this function", label)
	}
	e := edge{target: b}
	phis := c.phis[label]
	for _, ph := range phis {
		if ph.mvar > 0 {
			// a phi of a promoted variable: its current register here
			if s := c.ssaValue(ph.mvar - 1); s != ph.slot {
				e.moves = append(e.moves, move{dst: ph.slot, src: s, n: ph.n})
			}
			continue
		}
		var src uint32
		found := false
		for k := 0; k+1 < len(ph.pairs); k += 2 {
			if ph.pairs[k+1] == c.curLabel {
				src, found = ph.pairs[k], true
				break
			}
		}
		if !found {
			return 0, fmt.Errorf("OpPhi in block %%%d has no value for predecessor %%%d", label, c.curLabel)
		}
		s, t, err := c.val(src)
		if err != nil {
			return 0, err
		}
		if int32(t.ncomp) != ph.n {
			return 0, fmt.Errorf("OpPhi in block %%%d: value %%%d does not match the phi's type", label, src)
		}
		e.moves = append(e.moves, move{dst: ph.slot, src: s, n: ph.n})
	}
	// A phi reading another phi of the same block needs parallel-copy
	// semantics: go through temporaries.
	for _, mv := range e.moves {
		for _, ph := range phis {
			if mv.src < ph.slot+ph.n && ph.slot < mv.src+mv.n {
				e.twoPh = true
			}
		}
	}
	if e.twoPh {
		total := int32(0)
		for _, mv := range e.moves {
			total += mv.n
		}
		e.tmp = c.newSlots(int(total))
	}
	c.p.edges = append(c.p.edges, e)
	return int32(len(c.p.edges) - 1), nil
}

// promote finds the function's Function-storage variables whose pointer is
// only ever the pointer operand of OpLoad and OpStore (what glslang writes
// for every local at -O0): they live in registers instead of memory, a
// masked register write being exactly a store for the active lanes.
func (c *compiler) promote(sf *spirv.Function) {
	cand := map[uint32]bool{}
	for i := sf.Start; i < sf.End; i++ {
		in := c.m.Inst(i)
		if in.Opcode == spirv.OpVariable && len(in.Words) >= 4 && spirv.StorageClass(in.Words[3]) == spirv.StorageClassFunction {
			cand[in.ResultID] = true
		}
	}
	if len(cand) == 0 {
		return
	}
	for i := sf.Start; i < sf.End; i++ {
		in := c.m.Inst(i)
		for first, w := range usedIDs(&in) {
			ptrOperand := first && (in.Opcode == spirv.OpLoad || in.Opcode == spirv.OpStore)
			if cand[w] && !ptrOperand {
				delete(cand, w)
			}
		}
	}
	for id := range cand {
		t, err := c.valType(id)
		if err != nil || t.kind != spirv.TypePointer {
			continue
		}
		pe, err := c.typ(t.pointeeID)
		if err != nil || pe.ncomp > 64 || pe.ncomp == 0 {
			continue
		}
		c.regVars[id] = c.newSlots(pe.ncomp)
		c.regVarN[id] = int32(pe.ncomp)
	}
}

// usedIDs yields the ids that instruction in uses (its id operands, not
// its result type or result), each with whether it is in the first
// operand after those (OpLoad's and OpStore's pointer).
func usedIDs(in *spirv.Instruction) iter.Seq2[bool, uint32] {
	first := 0
	if in.TypeID != 0 {
		first++
	}
	if in.ResultID != 0 {
		first++
	}
	return func(yield func(bool, uint32) bool) {
		for k, id := range in.UsedIDs() {
			if !yield(k == first, id) {
				return
			}
		}
	}
}
