package interp

import "container/heap"

// Block order. The scheduler runs the lowest-numbered block some lane waits
// at (doc.go), so the numbering decides where diverged lanes meet again.
// Two rules make that the place the program's authors expect:
//
//   - a construct's blocks come before its merge block: the reverse
//     postorder of a depth-first walk that visits a header's merge (and a
//     loop's continue target) before its successors, so that they finish
//     first and are numbered last (structuredOrder);
//   - a loop's blocks are contiguous, and its exits come after all of them
//     (loopContiguous). Structured code has that from its merge blocks;
//     unstructured Kernel code has no merge blocks, and there reverse
//     postorder can number a loop's exit before the loop's body (the walk
//     from a header takes the body first, so the exit finishes last and
//     comes first). Lanes that left the loop early would then run the code
//     after it, a barrier included, while the others are still iterating.

// structuredOrder returns the reachable blocks of a function (0 is the
// entry) in structure-respecting reverse postorder, and each block's rank
// in it (-1: unreachable). kids[b] are the blocks a walk from b visits, in
// order: its merge targets, then its successors.
func structuredOrder(kids [][]int) (order, rank []int) {
	n := len(kids)
	rank = make([]int, n)
	for i := range rank {
		rank[i] = -1
	}
	seen := make([]bool, n)
	post := make([]int, 0, n)
	type frame struct{ b, k int }
	stack := []frame{{b: 0}}
	seen[0] = true
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.k < len(kids[top.b]) {
			nb := kids[top.b][top.k]
			top.k++
			if !seen[nb] {
				seen[nb] = true
				stack = append(stack, frame{b: nb})
			}
			continue
		}
		post = append(post, top.b)
		stack = stack[:len(stack)-1]
	}
	order = make([]int, len(post))
	for i, b := range post {
		order[len(post)-1-i] = b
		rank[b] = len(post) - 1 - i
	}
	return order, rank
}

// loopContiguous reorders a reverse postorder (rank, from structuredOrder
// over the same kids) so that every loop's blocks are contiguous and come
// before the blocks its exits lead to, changing nothing where that holds
// already. It is a topological sort of the graph without its back edges
// that, among the blocks ready to be placed, takes those of the innermost
// loop open (its header placed, some block not yet) first, and among
// those the lowest rank. A loop's blocks are entered only through its
// header, so once the header is placed they all become ready without
// anything outside the loop. In an irreducible graph a loop may have no
// ready block left before it is complete; it is then closed, and its
// remaining blocks are placed where they become ready.
//
// The loops are found in near-linear time (Havlak's loop-nesting forest,
// union-find over the depth-first tree), so the cost is O(E log V) on any
// graph.
func loopContiguous(kids [][]int, order, rank []int) []int {
	loopOf := loopForest(kids, order, rank)
	n := len(kids)
	indeg := make([]int, n)
	for _, u := range order {
		for _, v := range kids[u] {
			if rank[v] > rank[u] {
				indeg[v]++
			}
		}
	}
	// ready[h] holds the ready blocks of the loop headed by h (index n:
	// outside every loop), lowest rank first.
	ready := make([]*rankHeap, n+1)
	open := make([]bool, n+1)
	stack := []int{n}
	open[n] = true
	place := func(b int) {
		l := loopOf[b]
		if l < 0 {
			l = n
		}
		if !open[l] {
			l = stack[len(stack)-1]
		}
		h := ready[l]
		if h == nil {
			h = &rankHeap{rank: rank}
			ready[l] = h
		}
		heap.Push(h, b)
	}
	isHeader := make([]bool, n)
	for _, l := range loopOf {
		if l >= 0 {
			isHeader[l] = true
		}
	}
	out := make([]int, 0, len(order))
	place(order[0])
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		h := ready[top]
		if h == nil || h.Len() == 0 {
			open[top] = false
			stack = stack[:len(stack)-1]
			continue
		}
		u := heap.Pop(h).(int)
		out = append(out, u)
		if isHeader[u] {
			open[u] = true
			stack = append(stack, u)
		}
		for _, v := range kids[u] {
			if rank[v] > rank[u] {
				if indeg[v]--; indeg[v] == 0 {
					place(v)
				}
			}
		}
	}
	if len(out) != len(order) {
		return order // not reached: every reachable block has its forward predecessors placed
	}
	return out
}

// loopForest returns, for each reachable block, the header of the
// innermost loop containing it, or -1; for a loop's header, that of the
// loop around its loop. A loop is a header's natural loop: the blocks that
// reach one of its back edges without passing the header. Headers are
// taken innermost first (reverse preorder), and an inner loop, once found,
// is one node (union-find) for the loops around it.
func loopForest(kids [][]int, order, rank []int) []int {
	n := len(kids)
	pre, last := preorder(kids)
	isAncestor := func(a, b int) bool { return pre[a] <= pre[b] && pre[b] <= last[a] }
	var backPreds, preds [][]int
	backPreds = make([][]int, n)
	preds = make([][]int, n)
	for _, u := range order {
		for _, v := range kids[u] {
			if rank[v] <= rank[u] && isAncestor(v, u) {
				backPreds[v] = append(backPreds[v], u)
			} else {
				preds[v] = append(preds[v], u)
			}
		}
	}
	parent := make([]int, n) // union-find
	loopOf := make([]int, n)
	for i := range parent {
		parent[i], loopOf[i] = i, -1
	}
	find := func(x int) int {
		r := x
		for parent[r] != r {
			r = parent[r]
		}
		for parent[x] != r {
			parent[x], x = r, parent[x]
		}
		return r
	}
	byPre := make([]int, len(order)) // the reachable blocks are numbered 0..len(order)-1
	for _, b := range order {
		byPre[pre[b]] = b
	}
	inBody := make([]bool, n)
	for i := len(byPre) - 1; i >= 0; i-- {
		w := byPre[i]
		var body, work []int
		for _, v := range backPreds[w] {
			if x := find(v); x != w && !inBody[x] {
				inBody[x] = true
				body = append(body, x)
				work = append(work, x)
			}
		}
		for len(work) > 0 {
			x := work[len(work)-1]
			work = work[:len(work)-1]
			for _, y := range preds[x] {
				y = find(y)
				if y == w || inBody[y] || !isAncestor(w, y) {
					continue // the header, known, or an entry around it (irreducible)
				}
				inBody[y] = true
				body = append(body, y)
				work = append(work, y)
			}
		}
		for _, x := range body {
			inBody[x] = false
			loopOf[x] = w
			parent[x] = w
		}
	}
	return loopOf
}

// preorder numbers the blocks reachable from 0 in the depth-first walk
// over kids, and gives each the highest number in its subtree.
func preorder(kids [][]int) (pre, last []int) {
	n := len(kids)
	pre, last = make([]int, n), make([]int, n)
	for i := range pre {
		pre[i] = -1
	}
	type frame struct{ b, k int }
	stack := []frame{{b: 0}}
	next := 0
	pre[0] = next
	next++
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.k < len(kids[top.b]) {
			nb := kids[top.b][top.k]
			top.k++
			if pre[nb] < 0 {
				pre[nb] = next
				next++
				stack = append(stack, frame{b: nb})
			}
			continue
		}
		last[top.b] = next - 1
		stack = stack[:len(stack)-1]
	}
	return pre, last
}

// rankHeap is a min-heap of blocks by rank.
type rankHeap struct {
	rank []int
	bs   []int
}

func (h *rankHeap) Len() int           { return len(h.bs) }
func (h *rankHeap) Less(i, j int) bool { return h.rank[h.bs[i]] < h.rank[h.bs[j]] }
func (h *rankHeap) Swap(i, j int)      { h.bs[i], h.bs[j] = h.bs[j], h.bs[i] }
func (h *rankHeap) Push(x any)         { h.bs = append(h.bs, x.(int)) }
func (h *rankHeap) Pop() any {
	b := h.bs[len(h.bs)-1]
	h.bs = h.bs[:len(h.bs)-1]
	return b
}
