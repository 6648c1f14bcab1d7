package dis

import "spvx/spirv"

// cfg holds the blocks of the function being printed under --nested-indent
// or --reorder-blocks until the function ends, then orders and indents them
// over spirv.NewCFG, the block structure val and interp use too.
type cfg struct {
	blocks []spirv.Block // End: the block's last instruction
	order  []int32
	nest   []int // -1: not set yet
	stack  []dfsEntry
	seen   []bool
	post   []int32
}

type dfsEntry struct {
	block int32
	post  bool
}

func (c *cfg) pending() bool { return len(c.blocks) > 0 }

// open starts a block at the OpLabel at instruction index i, ending the
// previous one.
func (c *cfg) open(i int) {
	if n := len(c.blocks); n > 0 {
		c.blocks[n-1].End = i - 1
	}
	c.blocks = append(c.blocks, spirv.Block{Start: i})
}

// flushBlocks prints the held blocks, which end at instruction index end,
// in input order or, with ReorderBlocks, in structured order.
func (p *printer) flushBlocks(end int) {
	c := &p.cfg
	if len(c.blocks) == 0 {
		return
	}
	c.blocks[len(c.blocks)-1].End = end - 1
	for k := range c.blocks {
		c.blocks[k].Label = p.m.Inst(c.blocks[k].Start).ResultID
	}
	// A block's last instruction stands for its terminator and the one
	// before for its merge instruction, as in spirv-dis: NewCFG finds no
	// targets in any other instruction.
	c.orderBlocks(p.m, spirv.NewCFG(p.m, c.blocks))
	for k := range c.blocks {
		bi := int32(k)
		if p.opt.ReorderBlocks {
			bi = c.order[k]
		}
		blk := c.blocks[bi]
		for i := blk.Start; i <= blk.End; i++ {
			in := p.m.Inst(i)
			p.inst(&in, true, c.nest[bi])
		}
	}
	c.blocks = c.blocks[:0]
}

// nestAt gives block b (-1: none) the nesting level, unless it has one.
func (c *cfg) nestAt(b int32, level int) {
	if b >= 0 && c.nest[b] < 0 {
		c.nest[b] = level
	}
}

// nestSuccessors, as spirv-dis: a merge block is at the header's level, a
// continue target one deeper, branch targets, loop bodies and cases two
// deeper, and the target of an OpBranch that no merge instruction
// precedes at the branching block's level.
func (c *cfg) nestSuccessors(m *spirv.Module, g *spirv.CFG, b int32) {
	level := c.nest[b]
	c.nestAt(g.Merge[b], level)
	c.nestAt(g.Continue[b], level+1)
	deeper := 2
	if g.MergeInst[b] < 0 && m.Inst(c.blocks[b].End).Opcode == spirv.OpBranch {
		deeper = 0
	}
	for _, t := range g.Succ.Succ(b) {
		c.nestAt(t, level+deeper)
	}
}

func (c *cfg) push(b int32) {
	if b >= 0 {
		c.stack = append(c.stack, dfsEntry{block: b})
	}
}

// orderBlocks computes the reverse post-order of a depth-first walk from
// the entry block, which also assigns nesting levels; unreachable blocks
// follow, at level 0.
func (c *cfg) orderBlocks(m *spirv.Module, g *spirv.CFG) {
	n := len(c.blocks)
	c.post = c.post[:0]
	c.seen = append(c.seen[:0], make([]bool, n)...)
	c.nest = c.nest[:0]
	for range n {
		c.nest = append(c.nest, -1)
	}
	c.nest[0] = 0
	c.stack = append(c.stack[:0], dfsEntry{block: 0})
	for len(c.stack) > 0 {
		e := c.stack[len(c.stack)-1]
		c.stack = c.stack[:len(c.stack)-1]
		if e.post {
			c.post = append(c.post, e.block)
			continue
		}
		if c.seen[e.block] {
			continue
		}
		c.seen[e.block] = true
		c.stack = append(c.stack, dfsEntry{block: e.block, post: true})
		c.nestSuccessors(m, g, e.block)
		// Pushed last is visited first, so lands last in the order.
		for _, t := range g.Succ.Succ(e.block) {
			c.push(t)
		}
		c.push(g.Continue[e.block])
		c.push(g.Merge[e.block])
	}
	c.order = c.order[:0]
	for i := len(c.post) - 1; i >= 0; i-- {
		c.order = append(c.order, c.post[i])
	}
	for bi := range c.blocks {
		if !c.seen[bi] {
			c.order = append(c.order, int32(bi))
			c.nest[bi] = 0
		}
	}
}
