package val

import (
	"slices"

	"spvx/spirv"
)

// This file holds the control-flow graph of each function, as far as
// validate_cfg.cpp's checks here need it: spirv's CFG of each function
// (blocks, branch targets, merge declarations), reachability from the
// entry block and the dominator tree (spirv.Dominators), with the blocks
// of all functions numbered in one sequence for the passes that look up
// a block by instruction or label. The structured control-flow rules are
// in cfg_structured.go.

// cfg is the module's blocks and their dominator trees.
type cfg struct {
	blockOf []int32 // by instruction index: the block holding it, -1 if none
	blocks  []cfgBlock
	byLabel map[uint32]int32 // label id -> block
	fns     []fnGraph        // by function
	// succ is every block's branch targets within its function, in
	// operand order, repeats kept (as spirv-val registers them); pred is
	// its reverse, built on first use.
	succ, pred spirv.Graph
}

// fnGraph is one function's part of cfg.
type fnGraph struct {
	first int32 // the module-wide number of its block 0
	c     *spirv.CFG
	dom   *spirv.DomTree
}

// predecessors returns block b's predecessors, one per branch edge
// (repeats kept), as spirv-val's BasicBlock::predecessors.
func (g *cfg) predecessors(b int32) []int32 {
	if g.pred.Start == nil {
		g.pred = g.succ.Reverse()
	}
	return g.pred.Succ(b)
}

type cfgBlock struct {
	label      uint32
	fn         int32 // index in Index.Functions
	start, end int   // instruction indexes of OpLabel and the terminator (-1: none)
	reachable  bool
}

// dominates reports whether block a dominates block b (both reachable,
// same function).
func (g *cfg) dominates(a, b int32) bool {
	x, y := &g.blocks[a], &g.blocks[b]
	if x.fn != y.fn || !x.reachable || !y.reachable {
		return false
	}
	f := &g.fns[x.fn]
	return f.dom.Dominates(a-f.first, b-f.first)
}

// buildCFG builds the blocks of every function and their dominator trees.
func (s *state) buildCFG() *cfg {
	nblocks := 0
	for _, fn := range s.x.Functions {
		nblocks += len(fn.Blocks)
	}
	// Made at their size: grown, the lists and the map cost twice theirs.
	g := &cfg{blockOf: make([]int32, s.m.Len()), byLabel: make(map[uint32]int32, nblocks),
		blocks: make([]cfgBlock, 0, nblocks), fns: make([]fnGraph, 0, len(s.x.Functions))}
	for i := range g.blockOf {
		g.blockOf[i] = -1
	}
	edges := 0
	for f, fn := range s.x.Functions {
		first := int32(len(g.blocks))
		c := spirv.NewCFG(s.m, fn.Blocks)
		fg := fnGraph{first: first, c: c}
		if len(fn.Blocks) > 0 {
			fg.dom = spirv.Dominators(&c.Succ, 0)
		}
		g.fns = append(g.fns, fg)
		edges += len(c.Succ.Adj)
		for k, b := range fn.Blocks {
			blk := int32(k) + first
			g.blocks = append(g.blocks, cfgBlock{label: b.Label, fn: int32(f), start: b.Start, end: b.End,
				reachable: fg.dom.Reached(int32(k))})
			if _, dup := g.byLabel[b.Label]; !dup {
				g.byLabel[b.Label] = blk
			}
			end := b.End
			if end < 0 {
				end = fn.End - 1
			}
			for i := b.Start; i <= end && i < len(g.blockOf); i++ {
				g.blockOf[i] = blk
			}
		}
	}
	g.succ = s.joinGraphs(g.fns, nblocks, edges)
	return g
}

// joinGraphs returns the functions' block graphs as one graph of the
// module's blocks (function f's block k is node fns[f].first+k), made at
// its size: nblocks nodes and edges edges.
func (s *state) joinGraphs(fns []fnGraph, nblocks, edges int) spirv.Graph {
	g := spirv.Graph{Start: make([]int32, 0, nblocks+1), Adj: make([]int32, 0, edges)}
	for f, fg := range fns {
		for k := range s.x.Functions[f].Blocks {
			g.Start = append(g.Start, int32(len(g.Adj)))
			for _, t := range fg.c.Succ.Succ(int32(k)) {
				g.Adj = append(g.Adj, t+fg.first)
			}
		}
	}
	g.Start = append(g.Start, int32(len(g.Adj)))
	return g
}

// controlFlowPass holds ControlFlowPass's per-instruction rules, as far
// as they exist here: OpLoopMerge's targets and loop controls.
func (s *state) controlFlowPass(i int, in *spirv.Instruction) bool {
	if in.Opcode == spirv.OpLabel {
		s.curLabel = in.ResultID
		return false
	}
	isLabel := func(id uint32) bool {
		j, ok := s.x.Def(id)
		return ok && s.m.Opcode(j) == spirv.OpLabel
	}
	switch in.Opcode {
	case spirv.OpBranchConditional:
		return s.branchConditional(i, in, isLabel)
	case spirv.OpPhi:
		return s.phi(i, in, isLabel)
	case spirv.OpReturnValue:
		return s.returnValue(i, in)
	case spirv.OpBranch:
		if len(in.Words) > 1 && !isLabel(in.Words[1]) {
			return s.fail(i, "", "'Target Label' operands for OpBranch must be the ID of an OpLabel instruction")
		}
		return false
	case spirv.OpSwitch:
		if len(in.Words) < 3 {
			return false
		}
		if !s.isIntScalar(s.typeOfValue(in.Words[1])) {
			return s.fail(i, "", "Selector type must be OpTypeInt")
		}
		if !isLabel(in.Words[2]) {
			return s.fail(i, "", "Default must be an OpLabel instruction")
		}
		for k := 3; k < len(in.Operands); k += 2 {
			if !isLabel(in.Words[in.Operands[k].Offset]) {
				return s.fail(i, "", "'Target Label' operands for OpSwitch must be IDs of an OpLabel instruction")
			}
		}
		return false
	}
	if in.Opcode != spirv.OpLoopMerge || len(in.Words) < 4 {
		return false
	}
	merge, cont, ctl := in.Words[1], in.Words[2], in.Words[3]
	switch {
	case !isLabel(merge):
		return s.fail(i, "", "Merge Block %s must be an OpLabel", s.idName(merge))
	case merge == s.curLabel:
		return s.fail(i, "", "Merge Block may not be the block containing the OpLoopMerge\n")
	case !isLabel(cont):
		return s.fail(i, "", "Continue Target %s must be an OpLabel", s.idName(cont))
	case merge == cont:
		return s.fail(i, "", "Merge Block and Continue Target must be different ids")
	}
	const (
		unroll, dontUnroll, dependencyLength = 0x1, 0x2, 0x8
		minIterations, maxIterations         = 0x10, 0x20
		iterationMultiple, peelCount         = 0x40, 0x80
		partialCount                         = 0x100
	)
	switch {
	case ctl&unroll != 0 && ctl&dontUnroll != 0:
		return s.fail(i, "", "Unroll and DontUnroll loop controls must not both be specified")
	case ctl&dontUnroll != 0 && ctl&peelCount != 0:
		return s.fail(i, "", "PeelCount and DontUnroll loop controls must not both be specified")
	case ctl&dontUnroll != 0 && ctl&partialCount != 0:
		return s.fail(i, "", "PartialCount and DontUnroll loop controls must not both be specified")
	}
	if ctl&iterationMultiple != 0 {
		k := 4 // word index of the first loop-control parameter
		for _, bit := range []uint32{dependencyLength, minIterations, maxIterations} {
			if ctl&bit != 0 {
				k++
			}
		}
		if k >= len(in.Words) || in.Words[k] == 0 {
			return s.fail(i, "", "IterationMultiple loop control operand must be greater than zero")
		}
	}
	return false
}

// branchConditional is ValidateBranchConditional.
func (s *state) branchConditional(i int, in *spirv.Instruction, isLabel func(uint32) bool) bool {
	if n := len(in.Words) - 1; n != 3 && n != 5 {
		return s.fail(i, "", "OpBranchConditional requires either 3 or 5 parameters")
	}
	if t := s.typeOfValue(in.Words[1]); t == 0 || !s.isBoolScalar(t) {
		return s.fail(i, "", "Condition operand for OpBranchConditional must be of boolean type")
	}
	if !isLabel(in.Words[2]) {
		return s.fail(i, "", "The 'True Label' operand for OpBranchConditional must be the ID of an OpLabel instruction")
	}
	if !isLabel(in.Words[3]) {
		return s.fail(i, "", "The 'False Label' operand for OpBranchConditional must be the ID of an OpLabel instruction")
	}
	if s.version >= spirv.MakeVersion(1, 6) && in.Words[2] == in.Words[3] {
		return s.fail(i, "", "In SPIR-V 1.6 or later, True Label and False Label must be different labels")
	}
	return false
}

// phi is ValidatePhi.
func (s *state) phi(i int, in *spirv.Instruction, isLabel func(uint32) bool) bool {
	w := in.Words
	if (len(w)-3)%2 != 0 {
		return s.fail(i, "", "OpPhi does not have an equal number of incoming values and basic blocks.")
	}
	rt := s.typeOf(in.TypeID)
	if rt == nil {
		return false
	}
	if rt.Kind == spirv.TypeVoid {
		return s.fail(i, "", "OpPhi must not have void result type")
	}
	if (rt.Op == spirv.OpTypePointer || rt.Op == spirv.OpTypeUntypedPointerKHR) && s.x.AddressingModel == spirv.AddressingModelLogical &&
		!s.caps.has(spirv.CapabilityVariablePointers) && !s.caps.has(spirv.CapabilityVariablePointersStorageBuffer) {
		return s.fail(i, "", "Using pointers with OpPhi requires capability VariablePointers or VariablePointersStorageBuffer")
	}
	if !s.opts.BeforeHLSLLegalization && !s.caps.has(spirv.CapabilityBindlessTextureNV) {
		if rt.Op == spirv.OpTypeSampledImage || (s.caps.has(spirv.CapabilityShader) && (rt.Op == spirv.OpTypeImage || rt.Op == spirv.OpTypeSampler)) {
			return s.fail(i, "", "Result type cannot be %s", rt.Op)
		}
	}
	g := s.getCFG()
	b := g.blockOf[i]
	if b < 0 {
		return false
	}
	preds := g.predecessors(b)
	ids := make([]uint32, 0, len(preds))
	for _, p := range preds {
		ids = append(ids, g.blocks[p].label)
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	if edges := (len(w) - 3) / 2; edges != len(ids) {
		return s.fail(i, "", "OpPhi's number of incoming blocks (%d) does not match block's predecessor count (%d).", edges, len(preds))
	}
	observed := map[uint32]bool{}
	for k := 3; k+1 < len(w); k += 2 {
		if t := s.typeOfValue(w[k]); t != in.TypeID {
			return s.fail(i, "", "OpPhi's result type <id> %s does not match incoming value <id> %s type <id> %s.",
				s.idName(in.TypeID), s.idName(w[k]), s.idName(t))
		}
		p := w[k+1]
		if !isLabel(p) {
			return s.fail(i, "", "OpPhi's incoming basic block <id> %s is not an OpLabel.", s.idName(p))
		}
		if _, found := slices.BinarySearch(ids, p); !found {
			return s.fail(i, "", "OpPhi's incoming basic block <id> %s is not a predecessor of <id> %s.", s.idName(p), s.idName(g.blocks[b].label))
		}
		if observed[p] {
			return s.fail(i, "", "OpPhi references incoming basic block <id> %s multiple times.", s.idName(p))
		}
		observed[p] = true
	}
	return false
}

// getCFG builds the CFG once per validation.
func (s *state) getCFG() *cfg {
	if s.cfg == nil {
		s.cfg = s.buildCFG()
	}
	return s.cfg
}

// returnValue is ValidateReturnValue.
func (s *state) returnValue(i int, in *spirv.Instruction) bool {
	if len(in.Words) < 2 {
		return false
	}
	v := in.Words[1]
	vt := s.typeOfValue(v)
	if vt == 0 {
		return s.fail(i, "", "OpReturnValue Value <id> %s does not represent a value.", s.idName(v))
	}
	t := s.typeOf(vt)
	if t == nil || t.Kind == spirv.TypeVoid {
		return s.fail(i, "", "OpReturnValue value's type <id> %s is missing or void.", s.idName(vt))
	}
	if s.x.AddressingModel == spirv.AddressingModelLogical && (t.Op == spirv.OpTypePointer || t.Op == spirv.OpTypeUntypedPointerKHR) &&
		!s.caps.has(spirv.CapabilityVariablePointers) && !s.caps.has(spirv.CapabilityVariablePointersStorageBuffer) &&
		!s.opts.RelaxLogicalPointer && !s.opts.BeforeHLSLLegalization {
		return s.fail(i, "", "OpReturnValue value's type <id> %s is a pointer, which is invalid in the Logical addressing model.", s.idName(vt))
	}
	g := s.getCFG()
	b := g.blockOf[i]
	if b < 0 {
		return false
	}
	if fn := s.x.Functions[g.blocks[b].fn]; fn.Result != vt {
		return s.fail(i, "", "OpReturnValue Value <id> %ss type does not match OpFunction's return type.", s.idName(v))
	}
	return false
}
