package spirv

import (
	"math/rand"
	"slices"
	"testing"
)

// randomGraph has n nodes and about e random edges, plus a few repeats
// and self-loops.
func randomGraph(r *rand.Rand, n, e int) Graph {
	var gb GraphBuilder
	for v := 0; v < n; v++ {
		gb.Node()
		for k := r.Intn(2*e/n + 1); k > 0; k-- {
			gb.Edge(int32(r.Intn(n)))
		}
	}
	return gb.Graph()
}

// reachAvoiding marks the nodes reachable from root without entering
// avoid (-1: none).
func reachAvoiding(g *Graph, root, avoid int32) []bool {
	seen := make([]bool, g.Len())
	if root == avoid {
		return seen
	}
	stack := []int32{root}
	seen[root] = true
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, t := range g.Succ(v) {
			if t != avoid && !seen[t] {
				seen[t] = true
				stack = append(stack, t)
			}
		}
	}
	return seen
}

// TestDominatorsBruteForce checks Dominates and Idom against the
// definition: a dominates b iff b is reachable and no path from the root
// reaches b avoiding a; forward and on the reversed graph.
func TestDominatorsBruteForce(t *testing.T) {
	r := rand.New(rand.NewSource(21))
	for iter := 0; iter < 300; iter++ {
		n := 1 + r.Intn(14)
		g := randomGraph(r, n, r.Intn(3*n+1))
		root := int32(r.Intn(n))
		if iter%2 == 1 {
			g = g.Reverse() // post-dominators of the original graph
		}
		d := Dominators(&g, root)
		reach := reachAvoiding(&g, root, -1)
		for a := int32(0); a < int32(n); a++ {
			without := reachAvoiding(&g, root, a)
			for b := int32(0); b < int32(n); b++ {
				want := reach[a] && reach[b] && (a == b || !without[b])
				if got := d.Dominates(a, b); got != want {
					t.Fatalf("iter %d: Dominates(%d, %d) = %v, want %v (root %d, graph %v)", iter, a, b, got, want, root, g)
				}
			}
		}
		for b := int32(0); b < int32(n); b++ {
			if d.Reached(b) != reach[b] {
				t.Fatalf("iter %d: Reached(%d) = %v", iter, b, d.Reached(b))
			}
			i := d.Idom[b]
			if b == root || !reach[b] {
				if i != -1 {
					t.Fatalf("iter %d: Idom[%d] = %d, want -1", iter, b, i)
				}
				continue
			}
			// The immediate dominator is the strict dominator that every
			// other strict dominator dominates.
			if i < 0 || i == b || !d.Dominates(i, b) {
				t.Fatalf("iter %d: Idom[%d] = %d is not a strict dominator", iter, b, i)
			}
			for a := int32(0); a < int32(n); a++ {
				if a != b && d.Dominates(a, b) && !d.Dominates(a, i) {
					t.Fatalf("iter %d: Idom[%d] = %d, but %d dominates %d and not %d", iter, b, i, a, b, i)
				}
			}
		}
	}
}

// Shapes that defeat simple algorithms: a deep chain (recursion depth),
// a chain whose every node also branches back to the root's successor
// (long compressions), a ladder, and random graphs.
var domShapes = map[string]func(n int) Graph{
	"chain": func(n int) Graph {
		var gb GraphBuilder
		for v := 0; v < n; v++ {
			gb.Node()
			if v+1 < n {
				gb.Edge(int32(v + 1))
			}
		}
		return gb.Graph()
	},
	"chain-back-edges": func(n int) Graph {
		var gb GraphBuilder
		for v := 0; v < n; v++ {
			gb.Node()
			if v+1 < n {
				gb.Edge(int32(v + 1))
			}
			gb.Edge(int32(min(1, n-1)))
		}
		return gb.Graph()
	},
	"ladder": func(n int) Graph {
		var gb GraphBuilder
		for v := 0; v < n; v++ {
			gb.Node()
			for _, t := range []int{v + 1, v + 2, n - 1 - v} {
				if t < n {
					gb.Edge(int32(t))
				}
			}
		}
		return gb.Graph()
	},
	"random": func(n int) Graph {
		// Random edges over a chain, so that everything is reached.
		r := rand.New(rand.NewSource(4))
		var gb GraphBuilder
		for v := 0; v < n; v++ {
			gb.Node()
			if v+1 < n {
				gb.Edge(int32(v + 1))
			}
			gb.Edge(int32(r.Intn(n)), int32(r.Intn(n)))
		}
		return gb.Graph()
	},
}

// TestDominatorsLinearWork counts the algorithm's steps at n and 4n on
// each shape, forward and backward: near-linear work grows about 4 times
// (a log factor allows a little more), quadratic work 16 times.
func TestDominatorsLinearWork(t *testing.T) {
	const n = 50000
	for name, shape := range domShapes {
		for _, back := range []bool{false, true} {
			count := func(n int) int {
				g := shape(n)
				root := int32(0)
				if back {
					g, root = g.Reverse(), int32(n-1)
				}
				work := 0
				dominators(&g, root, &work)
				return work
			}
			w1, w4 := count(n), count(4*n)
			if w1 < n || float64(w4)/float64(w1) > 6 {
				t.Errorf("%s (reversed %v): work %d at n=%d, %d at 4n: ratio %.1f", name, back, w1, n, w4, float64(w4)/float64(w1))
			}
		}
	}
}

// TestDominatorsDeepChain: a million-block chain needs no recursion.
func TestDominatorsDeepChain(t *testing.T) {
	const n = 1 << 20
	g := domShapes["chain"](n)
	d := Dominators(&g, 0)
	if d.Idom[n-1] != n-2 || !d.Dominates(0, n-1) || d.Dominates(n-1, 0) {
		t.Fatalf("chain: Idom[last] = %d", d.Idom[n-1])
	}
	r := g.Reverse()
	p := Dominators(&r, n-1)
	if p.Idom[0] != 1 || !p.Dominates(n-1, 0) {
		t.Fatalf("reversed chain: Idom[0] = %d", p.Idom[0])
	}
}

// TestDominatorsBadRoot: a root out of range reaches nothing.
func TestDominatorsBadRoot(t *testing.T) {
	g := domShapes["chain"](3)
	for _, root := range []int32{-1, 3} {
		d := Dominators(&g, root)
		if d.Reached(0) || d.Dominates(0, 0) {
			t.Fatalf("root %d: node 0 reached", root)
		}
	}
	var empty Graph
	if d := Dominators(&empty, 0); len(d.Idom) != 0 {
		t.Fatal("empty graph has nodes")
	}
}

// TestInducedAndChildren: Induced keeps exactly the edges between marked
// nodes, and Children lists each node's immediately dominated nodes, so
// that the tree it describes answers Dominates like the DomTree, and so
// do Order's intervals.
func TestInducedAndChildren(t *testing.T) {
	r := rand.New(rand.NewSource(19))
	for iter := 0; iter < 200; iter++ {
		n := 1 + r.Intn(12)
		g := randomGraph(r, n, r.Intn(3*n+1))
		keep := make([]bool, n)
		for v := range keep {
			keep[v] = r.Intn(3) > 0
		}
		sub := g.Induced(keep)
		if sub.Len() != n {
			t.Fatalf("iter %d: Induced has %d nodes, want %d", iter, sub.Len(), n)
		}
		for v := int32(0); v < int32(n); v++ {
			var want []int32
			for _, w := range g.Succ(v) {
				if keep[v] && keep[w] {
					want = append(want, w)
				}
			}
			if got := sub.Succ(v); !slices.Equal(got, want) {
				t.Fatalf("iter %d: node %d: induced successors %v, want %v", iter, v, got, want)
			}
		}
		d := Dominators(&g, 0)
		kids := d.Children()
		// Ancestors along Children, by walking down from the root.
		anc := make([][]bool, n)
		var walk func(v int32, path []int32)
		walk = func(v int32, path []int32) {
			path = append(path, v)
			anc[v] = make([]bool, n)
			for _, a := range path {
				anc[v][a] = true
			}
			prev := int32(-1)
			for _, c := range kids.Succ(v) {
				if c <= prev || d.Idom[c] != v {
					t.Fatalf("iter %d: children of %d: %v", iter, v, kids.Succ(v))
				}
				prev = c
				walk(c, path)
			}
		}
		walk(0, nil)
		for a := int32(0); a < int32(n); a++ {
			for b := int32(0); b < int32(n); b++ {
				got := anc[b] != nil && anc[b][a]
				pa, qa := d.Order(a)
				pb, qb := d.Order(b)
				if in := pa >= 0 && pb >= 0 && pa <= pb && qb <= qa; in != got {
					t.Fatalf("iter %d: Order of %d [%d %d] and %d [%d %d]: nested %v", iter, a, pa, qa, b, pb, qb, in)
				}
				if got != d.Dominates(a, b) {
					t.Fatalf("iter %d: tree says %d above %d: %v; Dominates: %v", iter, a, b, got, !got)
				}
			}
		}
	}
}

// TestDominatorsAllocations: a dominator tree's tables share a few
// allocations, which matters for modules of thousands of small
// functions; this graph took 21.
func TestDominatorsAllocations(t *testing.T) {
	var gb GraphBuilder
	for v := range int32(6) { // a diamond in a loop, and an unreached node
		gb.Node()
		switch v {
		case 0:
			gb.Edge(1, 2)
		case 1, 2:
			gb.Edge(3)
		case 3:
			gb.Edge(0, 4)
		}
	}
	g := gb.Graph()
	if n := testing.AllocsPerRun(10, func() { Dominators(&g, 0) }); n > 9 {
		t.Fatalf("%.0f allocations for a dominator tree, want at most 9", n)
	}
	d := Dominators(&g, 0)
	if !slices.Equal(d.Idom, []int32{-1, 0, 0, 0, 3, -1}) {
		t.Fatalf("Idom %v", d.Idom)
	}
}

// TestNewCFGShares: a CFG's Merge and Continue tables do not overlap
// though they share an allocation, and a valid function's CFG names no
// undefined label.
func TestNewCFGShares(t *testing.T) {
	c := NewCFG(&Module{}, []Block{{Label: 1, Start: 0, End: -1}, {Label: 2, Start: 1, End: -1}})
	c.Merge[1], c.Continue[0] = 7, 9
	if !slices.Equal(c.Merge, []int32{-1, 7}) || !slices.Equal(c.Continue, []int32{9, -1}) || c.Undefined != nil {
		t.Fatalf("Merge %v, Continue %v, Undefined %v", c.Merge, c.Continue, c.Undefined)
	}
}

// TestNewGraphBuilder: a sized builder builds the same graph as a zero
// one, in its two tables' allocations when the sizes hold.
func TestNewGraphBuilder(t *testing.T) {
	build := func(gb GraphBuilder) Graph {
		for v := range int32(50) {
			gb.Node()
			gb.Edge(v, (v+1)%50)
		}
		return gb.Graph()
	}
	want := build(GraphBuilder{})
	if got := build(NewGraphBuilder(50, 100)); !slices.Equal(got.Start, want.Start) || !slices.Equal(got.Adj, want.Adj) {
		t.Fatalf("sized builder: %v, want %v", got, want)
	}
	if n := testing.AllocsPerRun(10, func() { build(NewGraphBuilder(50, 100)) }); n > 2 {
		t.Fatalf("%.0f allocations, want 2", n)
	}
}
