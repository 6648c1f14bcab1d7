package spirv

// The control-flow model every stage shares (val, dis, interp): a
// function's blocks, their branch targets and merge declarations taken
// from the decoded operands, and one dominator algorithm that serves
// dominators and post-dominators alike, as SPIRV-Tools'
// CFA::CalculateDominators does. Everything here is iterative and
// near-linear, because a hostile module may hold a million-block chain.

// Graph is a directed graph on the nodes 0..Len()-1 in compressed form:
// node v's successors are Adj[Start[v]:Start[v+1]], in order, repeats kept.
type Graph struct {
	Start []int32 // len Len()+1
	Adj   []int32
}

// Len returns the number of nodes.
func (g *Graph) Len() int { return max(len(g.Start)-1, 0) }

// Succ returns node v's successors.
func (g *Graph) Succ(v int32) []int32 { return g.Adj[g.Start[v]:g.Start[v+1]] }

// Reverse returns the graph with every edge turned around; a node's
// predecessors come in source-node order.
func (g *Graph) Reverse() Graph {
	n := g.Len()
	start := make([]int32, n+1)
	for _, t := range g.Adj {
		start[t+1]++
	}
	for v := 1; v <= n; v++ {
		start[v] += start[v-1]
	}
	adj := make([]int32, len(g.Adj))
	fill := append([]int32(nil), start[:n]...)
	for v := int32(0); v < int32(n); v++ {
		for _, t := range g.Succ(v) {
			adj[fill[t]] = v
			fill[t]++
		}
	}
	return Graph{start, adj}
}

// Induced returns g with only the edges between nodes that keep marks
// (len g.Len()); the other nodes stay, without edges. Dominators of the
// result are those of the subgraph the marked nodes induce.
func (g *Graph) Induced(keep []bool) Graph {
	gb := NewGraphBuilder(g.Len(), len(g.Adj))
	for v := int32(0); v < int32(g.Len()); v++ {
		gb.Node()
		if !keep[v] {
			continue
		}
		for _, t := range g.Succ(v) {
			if keep[t] {
				gb.Edge(t)
			}
		}
	}
	return gb.Graph()
}

// GraphBuilder builds a Graph node by node: Node starts the next node,
// Edge adds an edge from the node started last.
type GraphBuilder struct{ g Graph }

// NewGraphBuilder returns a GraphBuilder with room for nodes nodes and
// edges edges: a graph of about that size then takes one allocation per
// table instead of one each time a table grows.
func NewGraphBuilder(nodes, edges int) GraphBuilder {
	return GraphBuilder{Graph{Start: make([]int32, 0, nodes+1), Adj: make([]int32, 0, edges)}}
}

// Node starts the next node.
func (b *GraphBuilder) Node() { b.g.Start = append(b.g.Start, int32(len(b.g.Adj))) }

// Edge adds edges from the current node to ts.
func (b *GraphBuilder) Edge(ts ...int32) { b.g.Adj = append(b.g.Adj, ts...) }

// Graph ends the last node and returns the graph.
func (b *GraphBuilder) Graph() Graph {
	b.g.Start = append(b.g.Start, int32(len(b.g.Adj)))
	return b.g
}

// DomTree is a dominator tree, numbered so that each dominance query is
// O(1): a dominates b iff a's interval [pre, post] holds b's.
type DomTree struct {
	// Idom is each node's immediate dominator: -1 for the root and for
	// the nodes not reached from it.
	Idom      []int32
	pre, post []int32 // -1: not reached
}

// Reached reports whether v is reachable from the root.
func (d *DomTree) Reached(v int32) bool { return d.pre[v] >= 0 }

// Dominates reports whether a dominates b (a == b included); a node not
// reached from the root dominates nothing and is dominated by nothing.
func (d *DomTree) Dominates(a, b int32) bool {
	return d.pre[a] >= 0 && d.pre[b] >= 0 && d.pre[a] <= d.pre[b] && d.post[b] <= d.post[a]
}

// Order returns v's interval in a depth-first walk of the tree: a
// dominates b iff a's [pre, post] holds b's; the pre and post numbers of
// all nodes are distinct, below 2*Len(). An unreached v has -1, -1.
func (d *DomTree) Order(v int32) (pre, post int32) { return d.pre[v], d.post[v] }

// Children returns the dominator tree as a graph: each node's children
// (the nodes it immediately dominates), in increasing order.
func (d *DomTree) Children() Graph {
	n := len(d.Idom)
	start := make([]int32, n+1)
	for _, p := range d.Idom {
		if p >= 0 {
			start[p+1]++
		}
	}
	for v := 1; v <= n; v++ {
		start[v] += start[v-1]
	}
	adj := make([]int32, start[n])
	fill := append([]int32(nil), start[:n]...)
	for v, p := range d.Idom {
		if p >= 0 {
			adj[fill[p]] = int32(v)
			fill[p]++
		}
	}
	return Graph{start, adj}
}

// Dominators computes the dominator tree of g from root. Given g.Reverse()
// and an exit node it computes post-dominators. It is Lengauer and
// Tarjan's algorithm with path compression, O(E log V) at worst, and uses
// no recursion.
func Dominators(g *Graph, root int32) *DomTree {
	return dominators(g, root, nil)
}

// dominators is Dominators; work, if not nil, counts its steps (nodes,
// edges and path-compression steps), for the tests of its complexity.
func dominators(g *Graph, root int32, work *int) *DomTree {
	n := g.Len()
	// One allocation for the tree's three tables (a function's CFG is
	// often a handful of blocks, and a module has thousands).
	buf := make([]int32, 3*n)
	d := &DomTree{Idom: buf[:n:n], pre: buf[n : 2*n : 2*n], post: buf[2*n:]}
	for v := range d.Idom {
		d.Idom[v], d.pre[v], d.post[v] = -1, -1, -1
	}
	if root < 0 || int(root) >= n {
		return d
	}
	l := newLT(g, root)
	l.work = work
	l.run()
	l.number(d)
	return d
}

// lt is Lengauer–Tarjan's state, by depth-first number.
type lt struct {
	vertex, parent          []int32 // dfs number -> node, parent's dfs number
	predStart, pred         []int32 // predecessors by dfs number
	semi, idom, ancestor    []int32
	label, bktHead, bktNext []int32
	path                    []int32
	work                    *int
}

// newLT numbers the nodes reached from root depth-first (iteratively) and
// lists each one's reached predecessors.
func newLT(g *Graph, root int32) *lt {
	n := g.Len()
	// One allocation for dfn, vertex, parent, predStart and fill below.
	buf := make([]int32, 5*n+1)
	dfn := buf[:n:n] // node -> dfs number + 1 (0: unreached)
	l := &lt{vertex: buf[n : n : 2*n], parent: buf[2*n : 2*n : 3*n]}
	type frame struct{ v, next int32 }
	stack := make([]frame, 1, n) // the walk is at most n deep
	stack[0] = frame{root, g.Start[root]}
	dfn[root] = 1
	l.vertex, l.parent = append(l.vertex, root), append(l.parent, -1)
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next == g.Start[top.v+1] {
			stack = stack[:len(stack)-1]
			continue
		}
		t := g.Adj[top.next]
		top.next++
		if dfn[t] != 0 {
			continue
		}
		dfn[t] = int32(len(l.vertex)) + 1
		l.parent = append(l.parent, dfn[top.v]-1)
		l.vertex = append(l.vertex, t)
		stack = append(stack, frame{t, g.Start[t]})
	}
	m := int32(len(l.vertex))
	l.predStart = buf[3*n : 3*n+int(m)+1 : 4*n+1]
	for v := int32(0); v < m; v++ {
		for _, t := range g.Succ(l.vertex[v]) {
			if x := dfn[t]; x != 0 {
				l.predStart[x]++
			}
		}
	}
	for v := int32(1); v <= m; v++ {
		l.predStart[v] += l.predStart[v-1]
	}
	l.pred = make([]int32, l.predStart[m])
	fill := buf[4*n+1 : 4*n+1+int(m)]
	copy(fill, l.predStart[:m])
	for v := int32(0); v < m; v++ {
		for _, t := range g.Succ(l.vertex[v]) {
			if x := dfn[t]; x != 0 {
				l.pred[fill[x-1]] = v
				fill[x-1]++
			}
		}
	}
	return l
}

func (l *lt) count(k int) {
	if l.work != nil {
		*l.work += k
	}
}

// eval returns the node of least semidominator on v's path in the forest,
// compressing the path iteratively.
func (l *lt) eval(v int32) int32 {
	if l.ancestor[v] < 0 {
		return v
	}
	l.path = l.path[:0]
	for u := v; l.ancestor[l.ancestor[u]] >= 0; u = l.ancestor[u] {
		l.path = append(l.path, u)
	}
	l.count(len(l.path) + 1)
	for k := len(l.path) - 1; k >= 0; k-- {
		u := l.path[k]
		a := l.ancestor[u]
		if l.semi[l.label[a]] < l.semi[l.label[u]] {
			l.label[u] = l.label[a]
		}
		l.ancestor[u] = l.ancestor[a]
	}
	return l.label[v]
}

// run computes semidominators, then immediate dominators (dfs numbers).
func (l *lt) run() {
	m := int32(len(l.vertex))
	l.count(int(m) + len(l.pred))
	buf := make([]int32, 6*m) // one allocation for the six tables
	l.semi, l.idom, l.ancestor = buf[:m:m], buf[m:2*m:2*m], buf[2*m:3*m:3*m]
	l.label, l.bktHead, l.bktNext = buf[3*m:4*m:4*m], buf[4*m:5*m:5*m], buf[5*m:]
	for v := int32(0); v < m; v++ {
		l.semi[v], l.label[v], l.ancestor[v], l.bktHead[v] = v, v, -1, -1
	}
	for w := m - 1; w >= 1; w-- {
		for _, v := range l.pred[l.predStart[w]:l.predStart[w+1]] {
			if u := l.eval(v); l.semi[u] < l.semi[w] {
				l.semi[w] = l.semi[u]
			}
		}
		s := l.semi[w]
		l.bktNext[w], l.bktHead[s] = l.bktHead[s], w
		p := l.parent[w]
		l.ancestor[w] = p
		for v := l.bktHead[p]; v >= 0; v = l.bktNext[v] {
			if u := l.eval(v); l.semi[u] < l.semi[v] {
				l.idom[v] = u
			} else {
				l.idom[v] = p
			}
		}
		l.bktHead[p] = -1
	}
	for w := int32(1); w < m; w++ {
		if l.idom[w] != l.semi[w] {
			l.idom[w] = l.idom[l.idom[w]]
		}
	}
}

// number fills d from the dominator tree: Idom by node, and pre/post
// numbers from an iterative walk of the tree.
func (l *lt) number(d *DomTree) {
	m := int32(len(l.vertex))
	childHead, childNext := l.bktHead, l.bktNext // free again: reuse
	for v := range childHead {
		childHead[v] = -1
	}
	for w := m - 1; w >= 1; w-- {
		p := l.idom[w]
		childNext[w], childHead[p] = childHead[p], w
		d.Idom[l.vertex[w]] = l.vertex[p]
	}
	clock := int32(0)
	walk := append(l.path[:0], 0) // path is free again too
	d.pre[l.vertex[0]] = clock
	clock++
	for len(walk) > 0 {
		v := walk[len(walk)-1]
		if c := childHead[v]; c >= 0 {
			childHead[v] = childNext[c]
			d.pre[l.vertex[c]] = clock
			clock++
			walk = append(walk, c)
			continue
		}
		d.post[l.vertex[v]] = clock
		clock++
		walk = walk[:len(walk)-1]
	}
}

// Targets appends the branch targets of a terminator to dst, in operand
// order: OpBranch's target, OpBranchConditional's true and false labels,
// OpSwitch's default and case labels (the decoder has sized each case
// literal by the selector's width). Other instructions have none.
func Targets(in *Instruction, dst []uint32) []uint32 {
	ops := in.Operands
	label := func(k int) {
		if k < len(ops) {
			dst = append(dst, in.Words[ops[k].Offset])
		}
	}
	switch in.Opcode {
	case OpBranch:
		label(0)
	case OpBranchConditional:
		label(1)
		label(2)
	case OpSwitch:
		for k := 1; k < len(ops); k += 2 {
			label(k)
		}
	}
	return dst
}

// MergeTargets returns the merge block and, for OpLoopMerge, the continue
// target that a merge instruction names; ok is false for any other
// instruction or a merge instruction missing its operands.
func MergeTargets(in *Instruction) (merge, cont uint32, ok bool) {
	w := in.Words
	switch {
	case in.Opcode == OpSelectionMerge && len(w) > 1:
		return w[1], 0, true
	case in.Opcode == OpLoopMerge && len(w) > 2:
		return w[1], w[2], true
	}
	return 0, 0, false
}

// CFG is the block structure of one function. Blocks are numbered by
// their position in Blocks (the entry block is 0); a label defined twice
// names its first block.
type CFG struct {
	Blocks []Block
	// Succ holds each block's branch targets (Targets) that are blocks of
	// this function, repeats kept.
	Succ Graph
	// MergeInst is each block's OpSelectionMerge or OpLoopMerge (the
	// instruction before its terminator, with its operands), -1 if none;
	// Merge and Continue are the blocks it names, -1 if none or not a
	// block of this function.
	MergeInst       []int
	Merge, Continue []int32
	// Undefined lists the labels that a merge instruction or terminator
	// names but that are not blocks of this function, in first-use order
	// (for each block: merge, continue, branch targets).
	Undefined []uint32
	byLabel   map[uint32]int32
}

// NewCFG builds the block structure of the blocks of one function of m.
// A block's End is its terminator (-1: none): Targets of any other
// instruction are none, so a caller may pass the last instruction.
func NewCFG(m *Module, blocks []Block) *CFG {
	n := len(blocks)
	mc := make([]int32, 2*n) // one allocation for Merge and Continue
	c := &CFG{Blocks: blocks, byLabel: make(map[uint32]int32, n),
		MergeInst: make([]int, n), Merge: mc[:n:n], Continue: mc[n:]}
	for k, b := range blocks {
		if _, dup := c.byLabel[b.Label]; !dup {
			c.byLabel[b.Label] = int32(k)
		}
	}
	var undef map[uint32]bool // made on the first label not a block, which valid modules lack
	ref := func(id uint32) int32 {
		if t, ok := c.byLabel[id]; ok {
			return t
		}
		if undef == nil {
			undef = map[uint32]bool{}
		}
		if !undef[id] {
			undef[id] = true
			c.Undefined = append(c.Undefined, id)
		}
		return -1
	}
	// Sized for n nodes and two edges a block, the most a block without
	// an OpSwitch has: grown, they cost a few allocations a function.
	gb := NewGraphBuilder(n, 2*n)
	var ts []uint32
	for k, b := range blocks {
		gb.Node()
		c.MergeInst[k], c.Merge[k], c.Continue[k] = -1, -1, -1
		if b.End < 0 || b.End >= m.Len() {
			continue
		}
		if mi := b.End - 1; mi > b.Start {
			in := m.Inst(mi)
			if merge, cont, ok := MergeTargets(&in); ok {
				c.MergeInst[k], c.Merge[k] = mi, ref(merge)
				if in.Opcode == OpLoopMerge {
					c.Continue[k] = ref(cont)
				}
			}
		}
		in := m.Inst(b.End)
		ts = Targets(&in, ts[:0])
		for _, id := range ts {
			if t := ref(id); t >= 0 {
				gb.Edge(t)
			}
		}
	}
	c.Succ = gb.Graph()
	return c
}

// Block returns the block labelled id.
func (c *CFG) Block(id uint32) (int32, bool) {
	b, ok := c.byLabel[id]
	return b, ok
}

// Structural returns SPIRV-Tools' structural successors: each block's
// merge block and continue target (where named) before its branch targets.
func (c *CFG) Structural() Graph {
	gb := NewGraphBuilder(len(c.Blocks), len(c.Succ.Adj)+2*len(c.Blocks))
	for b := range c.Blocks {
		gb.Node()
		if c.Merge[b] >= 0 {
			gb.Edge(c.Merge[b])
		}
		if c.Continue[b] >= 0 {
			gb.Edge(c.Continue[b])
		}
		gb.Edge(c.Succ.Succ(int32(b))...)
	}
	return gb.Graph()
}
