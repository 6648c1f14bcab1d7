package dis

import "spvx/spirv"

// cfg holds the blocks of the function being printed under --nested-indent
// or --reorder-blocks. A block is a range of instruction indices from its
// OpLabel to its terminator.
type cfg struct {
	blocks []cfgBlock
	index  map[uint32]int // label id -> block index
	order  []int
	stack  []dfsEntry
	seen   []bool
	post   []int
}

type cfgBlock struct {
	start, end int // instructions [start, end), indices for Module.Inst

	// Successors, as spirv-dis's BlockSuccessors: 0 when absent.
	merge, cont, ifTrue, ifFalse, body, next uint32
	cases                                    []uint32

	nest      int
	nestSet   bool
	reachable bool
}

type dfsEntry struct {
	block int
	post  bool
}

func (c *cfg) pending() bool { return len(c.blocks) > 0 }

// open starts a block at the OpLabel at instruction index i, ending the
// previous one.
func (c *cfg) open(i int) {
	if n := len(c.blocks); n > 0 {
		c.blocks[n-1].end = i
	}
	c.blocks = append(c.blocks, cfgBlock{start: i})
}

// flushBlocks prints the held blocks, which end at instruction index end,
// in input order or, with ReorderBlocks, in structured order.
func (p *printer) flushBlocks(end int) {
	c := &p.cfg
	if len(c.blocks) == 0 {
		return
	}
	c.blocks[len(c.blocks)-1].end = end
	c.build(p.m)
	c.orderBlocks()
	for k := range c.blocks {
		bi := k
		if p.opt.ReorderBlocks {
			bi = c.order[k]
		}
		blk := &c.blocks[bi]
		for i := blk.start; i < blk.end; i++ {
			in := p.m.Inst(i)
			p.inst(&in, true, blk.nest)
		}
	}
	c.blocks = c.blocks[:0]
}

// build finds each block's successors from its merge instruction and
// terminator, as spirv-dis does, through spirv's MergeTargets and Targets.
func (c *cfg) build(m *spirv.Module) {
	if c.index == nil {
		c.index = make(map[uint32]int)
	}
	clear(c.index)
	var ts []uint32
	for bi := range c.blocks {
		blk := &c.blocks[bi]
		c.index[m.Inst(blk.start).ResultID] = bi
		n := blk.end - blk.start
		if n >= 3 {
			mi := m.Inst(blk.end - 2)
			blk.merge, blk.cont, _ = spirv.MergeTargets(&mi)
		}
		if n < 2 {
			continue
		}
		br := m.Inst(blk.end - 1)
		ts = spirv.Targets(&br, ts[:0])
		switch {
		case len(ts) == 0:
		case br.Opcode == spirv.OpBranch && blk.merge != 0:
			blk.body = ts[0]
		case br.Opcode == spirv.OpBranch:
			blk.next = ts[0]
		case br.Opcode == spirv.OpBranchConditional:
			blk.ifTrue = ts[0]
			if len(ts) > 1 {
				blk.ifFalse = ts[1]
			}
		case br.Opcode == spirv.OpSwitch:
			blk.cases = append(blk.cases, ts...)
		}
	}
}

// nestAt gives the block labelled id the nesting level, unless it has one
// or is not a block of this function.
func (c *cfg) nestAt(id uint32, level int) {
	if id == 0 {
		return
	}
	bi, ok := c.index[id]
	if !ok {
		return
	}
	if blk := &c.blocks[bi]; !blk.nestSet {
		blk.nest, blk.nestSet = level, true
	}
}

// nestSuccessors: a merge block is at the header's level, a continue target
// one deeper, branch targets, loop bodies and cases two deeper.
func (c *cfg) nestSuccessors(blk *cfgBlock) {
	c.nestAt(blk.merge, blk.nest)
	c.nestAt(blk.cont, blk.nest+1)
	c.nestAt(blk.ifTrue, blk.nest+2)
	c.nestAt(blk.ifFalse, blk.nest+2)
	c.nestAt(blk.body, blk.nest+2)
	c.nestAt(blk.next, blk.nest)
	for _, id := range blk.cases {
		c.nestAt(id, blk.nest+2)
	}
}

func (c *cfg) push(id uint32) {
	if id == 0 {
		return
	}
	if bi, ok := c.index[id]; ok {
		c.stack = append(c.stack, dfsEntry{block: bi})
	}
}

// orderBlocks computes the reverse post-order of a depth-first walk from
// the entry block, which also assigns nesting levels; unreachable blocks
// follow, at level 0.
func (c *cfg) orderBlocks() {
	n := len(c.blocks)
	c.post = c.post[:0]
	c.seen = append(c.seen[:0], make([]bool, n)...)
	c.blocks[0].nest, c.blocks[0].nestSet = 0, true
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
		blk := &c.blocks[e.block]
		c.nestSuccessors(blk)
		blk.reachable = true
		// Pushed last is visited first, so lands last in the order.
		c.push(blk.ifTrue)
		c.push(blk.ifFalse)
		c.push(blk.body)
		c.push(blk.next)
		for _, id := range blk.cases {
			c.push(id)
		}
		c.push(blk.cont)
		c.push(blk.merge)
	}
	c.order = c.order[:0]
	for i := len(c.post) - 1; i >= 0; i-- {
		c.order = append(c.order, c.post[i])
	}
	for bi := range c.blocks {
		if blk := &c.blocks[bi]; !blk.reachable {
			c.order = append(c.order, bi)
			blk.nest, blk.nestSet = 0, true
		}
	}
}
