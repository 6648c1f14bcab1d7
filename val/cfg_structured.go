package val

import (
	"slices"
	"strings"

	"spvx/spirv"
)

// This file holds validate_cfg.cpp's CfgPass (checked as the first loop
// meets each instruction) and PerformCfgChecks (run once per function
// after the adjacency and entry-point checks, before the dominance
// check): undefined blocks, blocks before their dominators, the control
// flow nesting depth and, with the Shader capability, the structured
// control-flow rules (back-edges, loop headers, selection, loop, continue
// and case constructs, structured selections).
//
// Dominance here is SPIRV-Tools' on its "augmented" CFG (a pseudo entry
// before every source and a pseudo exit after every sink), built over
// spirv's CFG of the function and computed by spirv.Dominators, so that
// each dominance query is O(1).
// Depth-first orders follow SPIRV-Tools' successor order exactly, because
// back-edges and the "Selection must be structured" check depend on them.
// The construct rules are first checked in linear time over the nesting
// of the constructs (cfg_constructs.go); only for the constructs that
// cannot be proved (all of them if the constructs cannot be nested) does
// walkConstructs find the blocks by a depth-first walk, as construct.cpp
// does, over stamp arrays: that work is the sum of their sizes, up to the
// first error.

// cfgFirst is CfgPass's per-function view while the first loop runs.
type cfgFirst struct {
	s          *state
	fnInst     int    // OpFunction of the current function, -1 outside
	fnID       uint32 // its result id
	fnResult   uint32 // its return type
	firstLabel uint32 // its first block, 0 before it
	curLabel   uint32 // the block being read, 0 between blocks
	merges     map[uint32]bool
	targets    []uint32 // scratch for spirv.Targets
}

func newCFGFirst(s *state) *cfgFirst { return &cfgFirst{s: s, fnInst: -1, merges: map[uint32]bool{}} }

// check applies CfgPass's rules to instruction i: the first block of a
// function is never a branch target, a block is the merge block of one
// header only, OpReturn only in a function returning void.
func (c *cfgFirst) check(i int, in *spirv.Instruction) bool {
	s := c.s
	w := in.Words
	switch in.Opcode {
	case spirv.OpFunction:
		c.fnInst, c.fnID, c.fnResult, c.firstLabel, c.curLabel = i, in.ResultID, in.TypeID, 0, 0
		clear(c.merges)
		return false
	case spirv.OpFunctionEnd:
		c.fnInst = -1
		return false
	case spirv.OpLabel:
		if c.firstLabel == 0 {
			c.firstLabel = in.ResultID
		}
		c.curLabel = in.ResultID
		return false
	}
	if c.fnInst < 0 || c.curLabel == 0 {
		return false
	}
	first := func(t uint32) bool {
		if t == c.firstLabel {
			return s.fail(c.fnInst, "", "First block %s of function %s is targeted by block %s",
				s.idName(t), s.idName(c.fnID), s.idName(c.curLabel))
		}
		return false
	}
	merge := func(t uint32) bool {
		if c.merges[t] {
			return s.fail(c.fnInst, "", "Block %s is already a merge block for another header", s.idName(t))
		}
		c.merges[t] = true
		return false
	}
	switch in.Opcode {
	case spirv.OpLoopMerge, spirv.OpSelectionMerge:
		if len(w) > 1 && merge(w[1]) {
			return true
		}
	case spirv.OpBranch, spirv.OpBranchConditional, spirv.OpSwitch:
		c.targets = spirv.Targets(in, c.targets[:0])
		for _, t := range c.targets {
			if first(t) {
				return true
			}
		}
		c.curLabel = 0
	case spirv.OpReturn:
		if j, ok := s.x.Def(c.fnResult); ok && s.m.Opcode(j) != spirv.OpTypeVoid {
			return s.fail(i, "", "OpReturn can only be called from a function with void return type.")
		}
		c.curLabel = 0
	case spirv.OpKill, spirv.OpReturnValue, spirv.OpUnreachable, spirv.OpTerminateInvocation,
		spirv.OpIgnoreIntersectionKHR, spirv.OpTerminateRayKHR, spirv.OpEmitMeshTasksEXT:
		c.curLabel = 0
	}
	return false
}

// domInfo is a dominator tree as SPIRV-Tools' iterators see it: an
// unreached block is dominated by itself only.
type domInfo struct{ *spirv.DomTree }

// dominates reports whether a dominates b (a == b included).
func (d domInfo) dominates(a, b int32) bool { return a == b || d.Dominates(a, b) }

// computeDominators returns the dominator tree of the nodes in set, for
// the graph whose edges are p -> v for each p in preds(v) (both in set),
// from root. That is what CFA::CalculateDominators computes from a
// postorder (the nodes) and a predecessor function (the edges), which
// need not be each other's reverse on the augmented CFG.
func computeDominators(root int32, set []bool, preds *spirv.Graph) domInfo {
	edges := preds.Reverse()
	sub := edges.Induced(set)
	return domInfo{spirv.Dominators(&sub, root)}
}

// withPseudo returns g with two more nodes without edges: the pseudo
// entry and exit of the augmented CFG.
func withPseudo(g spirv.Graph) spirv.Graph {
	last := g.Start[len(g.Start)-1]
	return spirv.Graph{Start: append(append([]int32(nil), g.Start...), last, last), Adj: g.Adj}
}

// depthFirst is CFA::DepthFirstTraversal: successors in order, a node
// entered the first time it is seen; post is called in postorder, back
// (if not nil) for every edge to a node on the current path.
func depthFirst(n int, root int32, g *spirv.Graph, post func(int32), back func(from, to int32)) {
	processed := make([]bool, n)
	onPath := make([]bool, n)
	type frame struct{ v, next int32 }
	stack := []frame{{root, g.Start[root]}}
	processed[root], onPath[root] = true, true
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next == g.Start[top.v+1] {
			v := top.v
			stack = stack[:len(stack)-1]
			onPath[v] = false
			if post != nil {
				post(v)
			}
			continue
		}
		child := g.Adj[top.next]
		top.next++
		if back != nil && onPath[child] {
			back(top.v, child)
		}
		if !processed[child] {
			processed[child], onPath[child] = true, true
			stack = append(stack, frame{child, g.Start[child]})
		}
	}
}

// Construct kinds, as ConstructType.
const (
	ctSelection = iota
	ctLoop
	ctContinue
)

type construct struct {
	kind   int
	header int32 // entry block
	exit   int32 // merge block, back-edge block for a continue (-1: none yet)
	loop   int32 // continue: its loop construct; loop: its continue construct
}

// Block types, as BlockType bits.
const (
	btSelection = 1 << iota
	btLoop
	btMerge
	btContinue
)

// fnCFG is one function's CFG as PerformCfgChecks sees it. Blocks are
// numbered 0..n-1 in binary order; n is the pseudo entry, n+1 the pseudo
// exit.
type fnCFG struct {
	s          *state
	fn         *spirv.Function
	n          int
	c          *spirv.CFG  // the function's blocks, targets and merges
	succ, pred spirv.Graph // branch edges (repeats kept)
	ssucc      spirv.Graph // structural: merge, continue, then branch targets
	spred      spirv.Graph
	btype      []uint8
	mergeHdr   []int32    // by block: the header naming it its merge (last), -1
	contLoop   []int32    // by block: the loop construct naming it its continue (last), -1
	loopOf     []int32    // by block: the loop construct it heads, -1
	visited    []bool     // scratch for FindCaseFallThrough, all false between uses
	caseExits  *caseExits // found at the first switch, nil before
	cons       []construct
	dom, sdom  domInfo     // dominators; structural dominators
	spdom      domInfo     // structural post-dominators
	sreach     []bool      // structurally reachable
	up         [2]*climber // upTo's climbs, by loopsOnly
	skipMemo   [2][]int32  // skipPast's answers (-2: not known), by loopsOnly
}

func (f *fnCFG) labelInst(b int32) int { return f.fn.Blocks[b].Start }

// block returns the block labelled id, known to be defined here (the
// undefined blocks have been reported before); 0 otherwise, never out of
// range.
func (f *fnCFG) block(id uint32) int32 {
	b, _ := f.c.Block(id)
	return b
}
func (f *fnCFG) label(b int32) uint32 { return f.fn.Blocks[b].Label }
func (f *fnCFG) term(b int32) int     { return f.fn.Blocks[b].End }

// cfgChecks is PerformCfgChecks.
func (s *state) cfgChecks() bool {
	g := s.getCFG()
	for fi := range s.x.Functions {
		if s.cfgFunction(&s.x.Functions[fi], g.fns[fi].c) && s.stopped() {
			return true
		}
	}
	return s.maximalReconvergence()
}

// maximalReconvergence is MaximalReconvergenceChecks: in the functions
// an entry point with MaximallyReconvergesKHR calls (transitively), a
// conditional branch has two different targets, and a block with several
// predecessors is a loop header or a merge, continue or switch target.
func (s *state) maximalReconvergence() bool {
	fnIndex := map[uint32]int{}
	for k, fn := range s.x.Functions {
		if _, dup := fnIndex[fn.ID]; !dup {
			fnIndex[fn.ID] = k
		}
	}
	maximal := make([]bool, len(s.x.Functions))
	var work []int
	for _, ep := range s.x.EntryPoints {
		for _, m := range ep.Modes {
			if m.Mode == spirv.ExecutionModeMaximallyReconvergesKHR {
				if k, ok := fnIndex[ep.Function]; ok && !maximal[k] {
					maximal[k] = true
					work = append(work, k)
				}
			}
		}
	}
	if len(work) == 0 {
		return false
	}
	// The call graph from those entry points.
	for len(work) > 0 {
		fn := &s.x.Functions[work[len(work)-1]]
		work = work[:len(work)-1]
		end := fn.End
		if end < 0 {
			end = s.m.Len() - 1
		}
		for i := fn.Start; i <= end; i++ {
			if callee, ok := calleeAt(s.m, i); ok {
				if k, ok := fnIndex[callee]; ok && !maximal[k] {
					maximal[k] = true
					work = append(work, k)
				}
			}
		}
	}
	inMaximal := func(i int) bool {
		fs := s.x.Functions
		k, _ := slices.BinarySearchFunc(fs, i, func(f spirv.Function, i int) int { return f.Start - i })
		if k < len(fs) && fs[k].Start == i {
			return maximal[k]
		}
		return k > 0 && maximal[k-1] && (fs[k-1].End < 0 || i <= fs[k-1].End)
	}
	// Labels a merge instruction or a switch names.
	named := map[uint32]bool{}
	for i := 0; i < s.m.Len(); i++ {
		switch s.m.Opcode(i) {
		case spirv.OpBranchConditional, spirv.OpSelectionMerge, spirv.OpLoopMerge, spirv.OpSwitch:
		default:
			continue
		}
		in := s.m.Inst(i)
		switch in.Opcode {
		case spirv.OpBranchConditional:
			if len(in.Words) > 3 && in.Words[2] == in.Words[3] && inMaximal(i) {
				return s.fail(i, "", "In entry points using the MaximallyReconvergesKHR execution mode, True Label and False Label must be different labels")
			}
		case spirv.OpSelectionMerge, spirv.OpLoopMerge, spirv.OpSwitch:
			for _, o := range in.Operands {
				if o.Kind == spirv.OperandKindIdRef {
					named[in.Words[o.Offset]] = true
				}
			}
		}
	}
	g := s.getCFG()
	first := int32(0)
	for k := range s.x.Functions {
		fn := &s.x.Functions[k]
		n := int32(len(fn.Blocks))
		if maximal[k] {
			for b := first; b < first+n; b++ {
				blk := &g.blocks[b]
				preds := g.predecessors(b)
				unique := 0
				for j, p := range preds {
					if !slices.Contains(preds[:j], p) {
						unique++
						if unique >= 2 {
							break
						}
					}
				}
				if unique < 2 || blk.end < 1 {
					continue
				}
				if s.m.Inst(blk.end-1).Opcode == spirv.OpLoopMerge || named[blk.label] {
					continue
				}
				return s.fail(blk.start, "", "In entry points using the MaximallyReconvergesKHR execution mode, this basic block must not have multiple unique predecessors")
			}
		}
		first += n
	}
	return false
}

// constructs records the constructs the merge instructions declare, in
// block order (a loop, then its continue construct), and the block types.
func (f *fnCFG) constructs() {
	n := f.n
	f.btype = make([]uint8, n+2)
	f.mergeHdr = make([]int32, n)
	f.contLoop = make([]int32, n)
	f.loopOf = make([]int32, n)
	for k := range f.mergeHdr {
		f.mergeHdr[k], f.contLoop[k], f.loopOf[k] = -1, -1, -1
	}
	for k := range f.fn.Blocks {
		b := int32(k)
		op, m, c := f.mergeTargets(b)
		switch {
		case op == spirv.OpSelectionMerge && m >= 0:
			f.btype[b] |= btSelection
			f.btype[m] |= btMerge
			f.mergeHdr[m] = b
			f.cons = append(f.cons, construct{kind: ctSelection, header: b, exit: m, loop: -1})
		case op == spirv.OpLoopMerge && m >= 0 && c >= 0:
			f.btype[b] |= btLoop
			f.btype[m] |= btMerge
			f.btype[c] |= btContinue
			f.mergeHdr[m] = b
			lc := int32(len(f.cons))
			f.contLoop[c] = lc
			f.loopOf[b] = lc
			f.cons = append(f.cons, construct{kind: ctLoop, header: b, exit: m, loop: lc + 1},
				construct{kind: ctContinue, header: c, exit: -1, loop: lc})
		}
	}
}

func (s *state) cfgFunction(fn *spirv.Function, c *spirv.CFG) bool {
	n := len(fn.Blocks)
	if n == 0 {
		return false
	}
	if len(c.Undefined) > 0 {
		// SPIRV-Tools joins the names oddly (a space after every name but
		// the first) and in hash-set order; here the order is first use.
		var b strings.Builder
		b.WriteString("{")
		for j, id := range c.Undefined {
			b.WriteString(s.idName(id))
			if j > 0 {
				b.WriteString(" ")
			}
		}
		return s.fail(fn.Start, "", "Block(s) %s} are referenced but not defined in function %s", b.String(), s.idName(fn.ID))
	}
	if n == 1 && c.MergeInst[0] < 0 {
		// One block and no merge instruction: no edge (a branch to the
		// entry block was refused in the first loop), nothing to check.
		return false
	}
	f := &fnCFG{s: s, fn: fn, n: n, c: c}
	f.constructs()
	f.succ, f.ssucc = withPseudo(c.Succ), withPseudo(c.Structural())
	f.pred, f.spred = f.succ.Reverse(), f.ssucc.Reverse()

	// The augmented CFG: sources and sinks (CFA::TraversalRoots).
	sources := traversalRoots(n, false, &f.ssucc, &f.spred)
	sinks := traversalRoots(n, true, &f.spred, &f.ssucc)
	entry, exit := int32(n), int32(n+1)
	isSource := make([]bool, n+2)
	isSink := make([]bool, n+2)
	for _, b := range sources {
		isSource[b] = true
	}
	for _, b := range sinks {
		isSink[b] = true
	}
	// The structural graphs hold the others' edges: room for the
	// augmented ones.
	augEdges := len(sources) + len(sinks) + len(f.ssucc.Adj)
	augSucc := func(structural bool) spirv.Graph {
		ab := spirv.NewGraphBuilder(n+2, augEdges)
		for v := int32(0); v < int32(n+2); v++ {
			ab.Node()
			switch {
			case v == entry:
				ab.Edge(sources...)
			case isSink[v]:
				ab.Edge(exit)
				ab.Edge(f.ssucc.Succ(v)...)
			case structural:
				ab.Edge(f.ssucc.Succ(v)...)
			default:
				ab.Edge(f.succ.Succ(v)...)
			}
		}
		return ab.Graph()
	}
	augPred := func(structural bool) spirv.Graph {
		ab := spirv.NewGraphBuilder(n+2, augEdges)
		for v := int32(0); v < int32(n+2); v++ {
			ab.Node()
			switch {
			case v == exit:
				ab.Edge(sinks...)
			case isSource[v]:
				ab.Edge(entry)
				ab.Edge(f.spred.Succ(v)...)
			case structural:
				ab.Edge(f.spred.Succ(v)...)
			default:
				ab.Edge(f.pred.Succ(v)...)
			}
		}
		return ab.Graph()
	}
	N := n + 2
	{
		as, ap := augSucc(false), augPred(false)
		set := make([]bool, N)
		depthFirst(N, 0, &as, func(v int32) { set[v] = true }, nil)
		f.dom = computeDominators(0, set, &ap)
	}
	// Blocks before their dominators.
	for b := int32(1); b < int32(n); b++ {
		if d := f.dom.Idom[b]; d >= 0 && d < int32(n) && d > b {
			return s.fail(f.labelInst(d), "", "Block %s appears in the binary before its dominator %s", s.idName(f.label(b)), s.idName(f.label(d)))
		}
	}
	if !s.caps.has(spirv.CapabilityShader) {
		return false
	}
	if f.nestingDepth() {
		return true
	}
	as, ap := augSucc(true), augPred(true)
	var postorder []int32
	set := make([]bool, N)
	depthFirst(N, 0, &as, func(v int32) { postorder = append(postorder, v); set[v] = true }, nil)
	f.sdom = computeDominators(0, set, &ap)
	f.sreach = set
	pset := make([]bool, N)
	depthFirst(N, exit, &ap, func(v int32) { pset[v] = true }, nil)
	f.spdom = computeDominators(exit, pset, &as)
	// Back-edges: real edges to a block on the depth-first path.
	var backEdges []cfgEdge
	depthFirst(N, entry, &as, nil, func(from, to int32) {
		if from >= int32(n) {
			return
		}
		for _, t := range f.succ.Succ(from) {
			if t == to {
				backEdges = append(backEdges, cfgEdge{from, to})
			}
		}
	})
	// UpdateContinueConstructExitBlocks.
	for _, e := range backEdges {
		if l := f.loopOf[e.to]; l >= 0 {
			f.cons[f.cons[l].loop].exit = e.from
		}
	}
	return f.structuredChecks(backEdges, postorder)
}

// traversalRoots is CFA::TraversalRoots over the blocks 0..n-1 (in
// reverse order if reverse): the blocks without predecessors, then one
// block of each part not reached from them.
func traversalRoots(n int, reverse bool, succ, pred *spirv.Graph) []int32 {
	visited := make([]bool, n+2)
	var roots, stack []int32
	mark := func(r int32) {
		stack = append(stack[:0], r)
		visited[r] = true
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, t := range succ.Succ(v) {
				if !visited[t] {
					visited[t] = true
					stack = append(stack, t)
				}
			}
		}
	}
	order := func(k int) int32 {
		if reverse {
			return int32(n - 1 - k)
		}
		return int32(k)
	}
	for k := 0; k < n; k++ {
		if b := order(k); len(pred.Succ(b)) == 0 {
			roots = append(roots, b)
			mark(b)
		}
	}
	for k := 0; k < n; k++ {
		if b := order(k); !visited[b] {
			roots = append(roots, b)
			mark(b)
		}
	}
	return roots
}

// nestingDepth is the Maximum Control Flow nesting depth check
// (Function::GetBlockDepth, memoized).
func (f *fnCFG) nestingDepth() bool {
	const unknown = -1
	depth := make([]int32, f.n)
	for k := range depth {
		depth[k] = unknown
	}
	var get func(b int32) int32
	get = func(b int32) int32 {
		if depth[b] != unknown {
			return depth[b]
		}
		depth[b] = 0 // a cycle reads 0, as SPIRV-Tools' memo does
		d := f.dom.Idom[b]
		var r int32
		switch {
		case d < 0 || d >= int32(f.n):
			r = 0
		case f.btype[b]&btContinue != 0:
			hdr := f.cons[f.contLoop[b]].header
			if hdr == b {
				r = 1 + get(d)
			} else {
				r = 1 + get(hdr)
			}
		case f.btype[b]&btMerge != 0:
			r = get(f.mergeHdr[b])
		case f.btype[d]&(btSelection|btLoop) != 0:
			r = 1 + get(d)
		default:
			r = get(d)
		}
		depth[b] = r
		return r
	}
	limit := int32(min(f.s.lim.MaxControlFlowNestingDepth, 1<<30))
	for b := int32(0); b < int32(f.n); b++ {
		if get(b) > limit {
			return f.s.fail(f.labelInst(b), "", "Maximum Control Flow nesting depth exceeded.")
		}
	}
	return false
}

var constructNames = [...][3]string{
	ctSelection: {"selection", "selection header", "merge block"},
	ctLoop:      {"loop", "loop header", "merge block"},
	ctContinue:  {"continue", "continue target", "back-edge block"},
}

func (f *fnCFG) sdominates(a, b int32) bool  { return f.sdom.dominates(a, b) }
func (f *fnCFG) spdominates(a, b int32) bool { return f.spdom.dominates(a, b) }

// mergeTargets returns block b's merge instruction and the merge block
// and continue target it names (-1 for none; every named block is
// defined by now).
func (f *fnCFG) mergeTargets(b int32) (op spirv.Opcode, merge, cont int32) {
	mi := f.c.MergeInst[b]
	if mi < 0 {
		return 0, -1, -1
	}
	return f.s.m.Opcode(mi), f.c.Merge[b], f.c.Continue[b]
}

func (f *fnCFG) termOp(b int32) spirv.Opcode {
	if t := f.term(b); t >= 0 {
		return f.s.m.Opcode(t)
	}
	return 0
}

// nextBlock is IsStructuredExit's NextBlock: the header naming b its
// merge block (if it structurally dominates b), else b's immediate
// structural dominator; -1 at the top.
func (f *fnCFG) nextBlock(b int32) int32 {
	if h := f.mergeHdr[b]; h >= 0 && h != b && f.sdominates(h, b) {
		return h
	}
	if d := f.sdom.Idom[b]; d >= 0 && d < int32(f.n) {
		return d
	}
	return -1
}

// upTo returns the first block from b up the NextBlock chain (b
// included) that IsStructuredExit looks at: a loop header or, unless
// loopsOnly, the header of a switch selection; -1 if none. The answers are
// kept, so that the walks from d nested selections cost d in all, not d².
func (f *fnCFG) upTo(b int32, loopsOnly bool) int32 {
	x := b2i(loopsOnly)
	if f.up[x] == nil {
		f.up[x] = newClimber(f.n)
	}
	looked := func(v int32) bool {
		op, _, _ := f.mergeTargets(v)
		return op == spirv.OpLoopMerge || (!loopsOnly && op == spirv.OpSelectionMerge && f.termOp(v) == spirv.OpSwitch)
	}
	return f.up[x].find(b, looked, f.nextBlock)
}

// skipPast returns, for a header a that upTo(_, loopsOnly) stops at, the
// next such header up the NextBlock chain whose merge block does not
// structurally dominate a's, -1 if none. Every header passed over has a
// merge block dominating a's, and so dominating whatever a's dominates:
// IsStructuredExit passes over them all for a construct whose header
// a's merge block dominates. The answers are kept, and each is found
// through those above it, without recursion.
func (f *fnCFG) skipPast(a int32, loopsOnly bool) int32 {
	x := b2i(loopsOnly)
	memo := f.skipMemo[x]
	if memo == nil {
		memo = make([]int32, f.n)
		for v := range memo {
			memo[v] = -2 // not known yet
		}
		f.skipMemo[x] = memo
	}
	type frame struct{ hdr, at int32 } // a header and the candidate reached
	stack := []frame{{a, f.upTo(f.nextBlock(a), loopsOnly)}}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if memo[top.hdr] != -2 {
			stack = stack[:len(stack)-1]
			continue
		}
		b := top.at
		for b >= 0 && memo[b] != -2 && f.sdominates(f.c.Merge[b], f.c.Merge[top.hdr]) {
			b = memo[b]
		}
		top.at = b
		if b >= 0 && memo[b] == -2 && f.sdominates(f.c.Merge[b], f.c.Merge[top.hdr]) {
			stack = append(stack, frame{b, f.upTo(f.nextBlock(b), loopsOnly)})
			continue
		}
		memo[top.hdr] = b
		stack = stack[:len(stack)-1]
	}
	return memo[a]
}

// structuredExit is Construct::IsStructuredExit.
func (f *fnCFG) structuredExit(c *construct, dest int32) bool {
	switch c.kind {
	case ctLoop:
		_, m, k := f.mergeTargets(c.header)
		return dest == m || dest == k
	case ctContinue:
		h := f.cons[c.loop].header
		_, m, _ := f.mergeTargets(h)
		return dest == h || dest == m
	}
	if dest == c.exit {
		return true
	}
	headerSwitch := f.termOp(c.header) == spirv.OpSwitch
	seenSwitch := false
	// Only loop headers and (unless the header is a switch) switch
	// headers count on the NextBlock chain: upTo skips the rest.
	for b := f.upTo(f.nextBlock(c.header), headerSwitch); b >= 0; b = f.upTo(f.nextBlock(b), headerSwitch) {
		// SPIRV-Tools passes over the headers whose merge block
		// dominates the construct's header; skipPast jumps over runs of
		// them (k loops in sequence would otherwise cost k each).
		for b >= 0 && f.sdominates(f.c.Merge[b], c.header) {
			b = f.skipPast(b, headerSwitch)
		}
		if b < 0 {
			break
		}
		op, m, k := f.mergeTargets(b)
		t := f.termOp(b)
		if op == spirv.OpLoopMerge || (!headerSwitch && op == spirv.OpSelectionMerge && t == spirv.OpSwitch) {
			if (!seenSwitch || op == spirv.OpLoopMerge) && dest == m {
				return true
			} else if op == spirv.OpLoopMerge && dest == k {
				return true
			}
			if t == spirv.OpSwitch {
				seenSwitch = true
			}
			if op == spirv.OpLoopMerge {
				return false
			}
		}
	}
	return false
}

// constructBlocks is Construct::blocks: the blocks reached from the
// header through blocks the construct includes, marked in mark with
// stamp, returned sorted by label id.
func (f *fnCFG) constructBlocks(c *construct, mark []int32, stamp int32, out []int32) []int32 {
	h, e := c.header, c.exit
	contHdr := int32(-1)
	if c.kind == ctLoop {
		contHdr = f.cons[c.loop].header
	}
	stack := []int32{h}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if mark[b] == stamp || !f.sdominates(h, b) {
			continue
		}
		include := false
		if c.kind == ctContinue && f.spdominates(e, b) {
			include = true
		} else if !f.sdominates(e, b) {
			include = !(c.kind == ctLoop && f.sdominates(contHdr, b))
		}
		if include {
			mark[b] = stamp
			out = append(out, b)
			stack = append(stack, f.ssucc.Succ(b)...)
		}
	}
	slices.SortFunc(out, func(a, b int32) int {
		x, y := f.label(a), f.label(b)
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	})
	return out
}

// structuredChecks is StructuredControlFlowChecks.
func (f *fnCFG) structuredChecks(backEdges []cfgEdge, postorder []int32) bool {
	s := f.s
	latches := map[cfgEdge]bool{}
	count := make([]int32, f.n)
	for _, e := range backEdges {
		if f.btype[e.to]&btLoop == 0 {
			return s.fail(f.labelInst(e.from), "", "Back-edges (%s -> %s) can only be formed between a block and a loop header.",
				s.idName(f.label(e.from)), s.idName(f.label(e.to)))
		}
		if !latches[e] {
			latches[e] = true
			count[e.to]++
		}
	}
	for b := int32(0); b < int32(f.n); b++ {
		if f.sreach[b] && f.btype[b]&btLoop != 0 && count[b] != 1 {
			return s.fail(f.labelInst(b), "", "Loop header %s is targeted by %d back-edge blocks but the standard requires exactly one",
				s.idName(f.label(b)), count[b])
		}
	}
	var suspect []bool // nil: walk every construct
	var nest *constructNest
	if !constructWalkOnly {
		limit := f.firstHeaderFailure()
		var ok bool
		if nest, ok = f.nestConstructs(limit); ok {
			suspect = f.constructSuspects(nest, latches)
			for k, x := range nest.excluded {
				suspect[k] = suspect[k] || x // overlapping: left to the walk
			}
			for k := limit; k < len(suspect); k++ {
				suspect[k] = true // past the failing header: not proved, never reached
			}
		}
	}
	if constructPathSeen != nil {
		constructPathSeen(f, nest, suspect)
	}
	if f.walkConstructs(latches, suspect) {
		return true
	}
	return f.structuredSelections(postorder)
}

// walkConstructs is StructuredControlFlowChecks' loop over the constructs
// as SPIRV-Tools writes it: each construct's header rules, its blocks
// found by a walk, then its rules. The walk costs the construct's size, so
// it is done only for the constructs marked in suspect (all if suspect is
// nil): constructSuspects proved the others have no error there. Like
// SPIRV-Tools, it stops at the function's first error, --all or not.
func (f *fnCFG) walkConstructs(latches map[cfgEdge]bool, suspect []bool) bool {
	s := f.s
	mark := make([]int32, f.n+2)
	var blocks []int32
	for k := range f.cons {
		c := &f.cons[k]
		h := c.header
		if !f.sreach[h] {
			continue
		}
		names := constructNames[c.kind]
		if c.exit < 0 {
			return s.fail(f.labelInst(h), "", "Construct %s with %s %s does not have a %s. This may be a bug in the validator.",
				names[0], names[1], s.idName(f.label(h)), names[2])
		}
		e := c.exit
		consErr := func(text string) bool {
			return s.fail(f.labelInst(e), "", "The %s construct with the %s %s %s the %s %s",
				names[0], names[1], s.idName(f.label(h)), text, names[2], s.idName(f.label(e)))
		}
		if !f.sdominates(h, e) {
			return consErr("does not structurally dominate")
		}
		if c.kind != ctContinue && h == e {
			return consErr("does not strictly structurally dominate")
		}
		if c.kind == ctContinue && !f.spdominates(e, h) {
			return consErr("is not structurally post dominated by")
		}
		if suspect == nil || suspect[k] {
			// The function's first construct error ends the walk even
			// with --all, as in SPIRV-Tools.
			n0 := len(s.errs)
			if stop := f.walkConstruct(k, mark, &blocks, latches); stop || len(s.errs) > n0 {
				return stop
			}
		}
		if c.kind == ctSelection && f.termOp(h) == spirv.OpSwitch {
			if f.switchChecks(c) {
				return true
			}
		}
	}
	return false
}

// walkConstruct checks construct k's rules on its blocks, which the walk
// marks in mark; blocks is scratch. It reports the first error only, and
// returns whether validation stops.
func (f *fnCFG) walkConstruct(k int, mark []int32, blocks *[]int32, latches map[cfgEdge]bool) bool {
	s := f.s
	c := &f.cons[k]
	h, names := c.header, constructNames[c.kind]
	if constructWalkSeen != nil {
		constructWalkSeen(k)
	}
	stamp := int32(k + 1)
	*blocks = f.constructBlocks(c, mark, stamp, (*blocks)[:0])
	for _, b := range *blocks {
		for _, t := range f.succ.Succ(b) {
			if mark[t] != stamp && !f.structuredExit(c, t) {
				return s.fail(f.labelInst(b), "", "block <ID> %s exits the %s headed by <ID> %s, but not via a structured exit",
					s.idName(f.label(b)), names[0], s.idName(f.label(h)))
			}
		}
		if b == h {
			continue
		}
		for _, p := range f.pred.Succ(b) {
			if p < int32(f.n) && f.sreach[p] && mark[p] != stamp {
				return s.fail(f.labelInst(p), "", "block <ID> %d branches to the %s construct, but not to the %s <ID> %d",
					f.label(p), names[0], names[1], f.label(h))
			}
		}
		if _, m, _ := f.mergeTargets(b); m >= 0 && f.sreach[m] && mark[m] != stamp {
			return s.fail(f.labelInst(b), "", "Header block %s is contained in the %s construct headed by %s, but its merge block %s is not",
				s.idName(f.label(b)), names[0], s.idName(f.label(h)), s.idName(f.label(m)))
		}
	}
	if c.kind != ctLoop {
		return false
	}
	_, _, ct := f.mergeTargets(h)
	if ct < 0 || ct == h {
		return false
	}
	for _, p := range f.pred.Succ(ct) {
		if p < int32(f.n) && f.sreach[p] && mark[p] != stamp && !latches[cfgEdge{p, ct}] {
			return s.fail(f.term(p), "", "Block %s branches to the loop continue target %s, but is not contained in the associated loop construct %s",
				s.idName(f.label(p)), s.idName(f.label(ct)), s.idName(f.label(h)))
		}
	}
	return false
}

// structuredSelections is ValidateStructuredSelections: a conditional
// branch without a selection merge may bring in one block not seen
// before at most, walking the blocks in reverse postorder.
func (f *fnCFG) structuredSelections(postorder []int32) bool {
	s := f.s
	seen := make([]bool, f.n)
	for k := len(postorder) - 1; k >= 0; k-- {
		b := postorder[k]
		if b >= int32(f.n) || f.term(b) < 0 {
			continue
		}
		op, m, ct := f.mergeTargets(b)
		if m >= 0 {
			seen[m] = true
		}
		if ct >= 0 {
			seen[ct] = true
		}
		if !f.sreach[b] {
			continue
		}
		in := s.m.Inst(f.term(b))
		switch in.Opcode {
		case spirv.OpBranchConditional:
			if len(in.Words) < 4 {
				continue
			}
			t, e := f.block(in.Words[2]), f.block(in.Words[3])
			// In spirv-val's order: the true label is marked seen
			// before the false one is looked at, so a branch whose two
			// labels are one block never needs a merge.
			tu := !seen[t]
			seen[t] = true
			eu := !seen[e]
			seen[e] = true
			if (op == 0 || op == spirv.OpLoopMerge) && tu && eu {
				return s.fail(f.term(b), "", "Selection must be structured")
			}
		case spirv.OpSwitch:
			if op == 0 {
				return s.fail(f.term(b), "", "OpSwitch must be preceded by an OpSelectionMerge instruction")
			}
			for j := 1; j < len(in.Operands); j += 2 {
				seen[f.block(in.Words[in.Operands[j].Offset])] = true
			}
		}
	}
	return false
}

// cfgEdge is a branch edge between two blocks of a function.
type cfgEdge struct{ from, to int32 }
