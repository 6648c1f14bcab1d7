package val

import (
	"slices"

	"spvx/spirv"
)

// The construct rules of StructuredControlFlowChecks in time linear in the
// function, whatever the nesting depth (issue 19 §5). SPIRV-Tools walks
// every construct's blocks, which costs nesting depth × blocks. Here the
// constructs are nested once, in one walk of the structural dominator
// tree, each block getting its innermost construct; a construct then
// holds a block iff it is an ancestor of the block's innermost one, an
// O(1) query, and the rules are checked per edge against the constructs
// the edge leaves or enters only.
//
// Construct.blocks is a walk from the header through the blocks the
// header dominates, minus those the merge block (or, for a loop, the
// continue target) dominates; a continue construct keeps the back-edge
// block's dominated blocks it post-dominates. When no edge enters a
// construct elsewhere than at its header, every such block is reached by
// that walk, so the construct is that dominator-tree region.
//
// constructSuspects marks the constructs where either may fail: an edge
// enters it elsewhere than at its header, or a rule fails on the region.
// walkConstructs then walks those only, in SPIRV-Tools' order, and stops
// at the first error, so an invalid function costs the sizes of the
// suspect constructs up to the first one that is wrong (usually one), and
// verdicts and messages are SPIRV-Tools' either way. The constructs before
// the first that fails its header rules are nested, and the walk stops
// there. A construct the nesting cannot describe (one that overlaps
// another without nesting, loops sharing a continue target, and the
// other cases undescribed lists) is left out of it and walked alone.

// Set by the tests only, which compare the two paths: constructWalkOnly
// turns the fast paths off (constructs and switch cases), constructPathSeen
// is given per function the nesting (nil if the constructs could not be
// nested) and the constructs left to the walk (nil: all),
// constructWalkSeen each construct whose blocks are walked.
var (
	constructWalkOnly bool
	constructPathSeen func(f *fnCFG, nest *constructNest, suspect []bool)
	constructWalkSeen func(k int)
)

// constructNest is the nesting of a function's constructs.
type constructNest struct {
	inner     []int32 // by block: its innermost construct, -1 if none
	parent    []int32 // by construct: the construct around it, -1 if none
	pre, post []int32 // by construct: its interval in the nesting tree
	// excluded marks the constructs left out of the nesting because they
	// overlap another without nesting: the walk checks those.
	excluded []bool
}

// holds reports whether construct c holds block b.
func (t *constructNest) holds(c, b int32) bool {
	x := t.inner[b]
	return x >= 0 && t.pre[c] <= t.pre[x] && t.post[x] <= t.post[c]
}

// nestConstructs nests the constructs before limit whose headers are
// structurally reachable; ok is false if one fails its header rules (the
// limit excludes those). The constructs the nesting cannot describe are
// left out of it (constructNest.excluded) for the walk: a loop whose
// continue target strictly dominates its header, loops sharing a
// continue target (with their continue constructs), a continue construct
// whose back-edge block strictly dominates a block it post-dominates, and
// constructs that overlap without nesting. A loop that is its own
// continue target holds no block, and is not nested.
func (f *fnCFG) nestConstructs(limit int) (t *constructNest, ok bool) {
	n := int32(f.n)
	kids := f.sdom.Children()
	opens := make([][]int32, n)  // by block: the constructs it heads
	closes := make([][]int32, n) // by block: the constructs it leaves
	t = &constructNest{parent: make([]int32, len(f.cons)), excluded: f.undescribed(limit)}
	for pass := 0; pass < 2; pass++ {
		// Continue constructs open first: they hold the whole region
		// below their header, a loop or selection headed there only part.
		for k := range f.cons[:limit] {
			c := &f.cons[k]
			h, e := c.header, c.exit
			if !f.sreach[h] || (pass == 0) != (c.kind == ctContinue) || t.excluded[k] {
				continue
			}
			if e < 0 || !f.sdominates(h, e) || (c.kind != ctContinue && h == e) || (c.kind == ctContinue && !f.spdominates(e, h)) {
				return nil, false
			}
			switch c.kind {
			case ctContinue:
				// It leaves the blocks the back-edge block strictly
				// dominates (it post-dominates none: undescribed).
				for _, d := range kids.Succ(e) {
					if d < n {
						closes[d] = append(closes[d], int32(k))
					}
				}
			case ctLoop:
				ct := f.cons[c.loop].header
				if ct == h {
					continue // its own continue target: a loop of no blocks and no rules
				}
				closes[ct] = append(closes[ct], int32(k))
				if e != ct {
					closes[e] = append(closes[e], int32(k))
				}
			default:
				closes[e] = append(closes[e], int32(k))
			}
			opens[h] = append(opens[h], int32(k))
		}
	}
	t.inner = make([]int32, n)
	f.nest(t, &kids, opens, closes)
	t.dropExcluded()
	t.number()
	return t, true
}

// undescribed marks, by construct before limit, those whose region
// nestConstructs cannot describe from its header and exits alone (see
// there), so that they are left to the walk.
func (f *fnCFG) undescribed(limit int) []bool {
	ex := make([]bool, len(f.cons))
	conts := make([]int32, f.n)
	loops := func(visit func(k int, c *construct, ct int32)) {
		for k := range f.cons[:limit] {
			if c := &f.cons[k]; c.kind == ctLoop && f.sreach[c.header] {
				visit(k, c, f.cons[c.loop].header)
			}
		}
	}
	loops(func(_ int, _ *construct, ct int32) { conts[ct]++ })
	loops(func(k int, c *construct, ct int32) {
		if conts[ct] > 1 || (ct != c.header && f.sdominates(ct, c.header)) {
			ex[k] = true
			if int(c.loop) < limit {
				ex[c.loop] = true
			}
		}
	})
	var backs, of []int32 // the continue constructs' back-edge blocks, and the constructs
	for k := range f.cons[:limit] {
		if c := &f.cons[k]; c.kind == ctContinue && f.sreach[c.header] && !ex[k] && c.exit >= 0 {
			backs, of = append(backs, c.exit), append(of, int32(k))
		}
	}
	for q, below := range f.belowInBoth(backs) {
		ex[of[q]] = ex[of[q]] || below
	}
	return ex
}

// nest walks the structural dominator tree from the entry with the stack
// of open constructs: a block closes the constructs it is the merge block
// or continue target of, opens those it heads, and its innermost
// construct is then the top. The constructs a block closes should be the
// top of the stack; any construct above one of them that the block does
// not close overlaps it without nesting, and is excluded: it leaves the
// stack for good, and the walk checks it. Excluding costs nothing more
// than closing, so the nesting stays linear in the function.
func (f *fnCFG) nest(t *constructNest, kids *spirv.Graph, opens, closes [][]int32) {
	n := int32(f.n)
	pos := make([]int32, len(f.cons))     // place in the stack, -1 if not open
	closing := make([]int32, len(f.cons)) // the block (+1) closing it, while entered
	for k := range pos {
		pos[k], t.parent[k] = -1, -1
	}
	for b := range t.inner {
		t.inner[b] = -1
	}
	var stack, saved []int32 // open constructs; closed ones kept for the way back
	type frame struct {
		b, next int32
		nsaved  int32 // len(saved) before b
	}
	var walk []frame
	enter := func(b int32) {
		fr := frame{b: b, next: kids.Start[b], nsaved: int32(len(saved))}
		lo := int32(len(stack))
		for _, k := range closes[b] {
			closing[k] = b + 1
			if pos[k] >= 0 {
				lo = min(lo, pos[k])
			}
		}
		for _, k := range stack[lo:] {
			pos[k] = -1
			if closing[k] == b+1 {
				saved = append(saved, k)
			} else {
				t.excluded[k] = true
			}
		}
		stack = stack[:lo]
		for _, k := range opens[b] {
			if len(stack) > 0 {
				t.parent[k] = stack[len(stack)-1]
			}
			pos[k] = int32(len(stack))
			stack = append(stack, k)
		}
		if len(stack) > 0 {
			t.inner[b] = stack[len(stack)-1]
		}
		walk = append(walk, fr)
	}
	// leave undoes enter, but for the exclusions: those of the constructs
	// b opened that are not excluded are the top of the stack again.
	leave := func(fr *frame) {
		top := len(stack)
		for _, k := range opens[fr.b] {
			if !t.excluded[k] {
				top--
			}
		}
		for _, k := range stack[top:] {
			pos[k] = -1
		}
		stack = stack[:top]
		for _, k := range saved[fr.nsaved:] {
			pos[k] = int32(len(stack))
			stack = append(stack, k)
		}
		saved = saved[:fr.nsaved]
	}
	enter(0)
	for len(walk) > 0 {
		fr := &walk[len(walk)-1]
		if fr.next == kids.Start[fr.b+1] {
			leave(fr)
			walk = walk[:len(walk)-1]
			continue
		}
		c := kids.Adj[fr.next]
		fr.next++
		if c < n {
			enter(c)
		}
	}
}

// dropExcluded takes the excluded constructs out of the nesting: each
// block and construct inside one belongs to the nearest construct around
// it that is not excluded.
func (t *constructNest) dropExcluded() {
	kept := newClimber(len(t.parent))
	resolve := func(k int32) int32 {
		return kept.find(k, func(k int32) bool { return !t.excluded[k] }, func(k int32) int32 { return t.parent[k] })
	}
	parent := make([]int32, len(t.parent))
	for k, p := range t.parent {
		parent[k] = -1
		if !t.excluded[k] {
			parent[k] = resolve(p)
		}
	}
	for b, k := range t.inner {
		t.inner[b] = resolve(k)
	}
	t.parent = parent
}

// number gives each construct its interval in the nesting tree.
func (t *constructNest) number() {
	m := len(t.parent)
	t.pre, t.post = make([]int32, m), make([]int32, m)
	start := make([]int32, m+2)
	for _, p := range t.parent {
		start[p+2]++ // p+1: -1 is the root node 0
	}
	for v := 1; v < m+2; v++ {
		start[v] += start[v-1]
	}
	adj := make([]int32, m)
	fill := append([]int32(nil), start[:m+1]...)
	for k, p := range t.parent {
		adj[fill[p+1]] = int32(k)
		fill[p+1]++
	}
	tree := spirv.Graph{Start: start, Adj: adj} // node k+1 is construct k
	clock := int32(0)
	type frame struct{ v, next int32 }
	walk := []frame{{0, start[0]}}
	for len(walk) > 0 {
		fr := &walk[len(walk)-1]
		if fr.next == start[fr.v+1] {
			if fr.v > 0 {
				t.post[fr.v-1] = clock
				clock++
			}
			walk = walk[:len(walk)-1]
			continue
		}
		k := tree.Adj[fr.next]
		fr.next++
		t.pre[k] = clock
		clock++
		walk = append(walk, frame{k + 1, start[k+1]})
	}
}

// exitKey is a construct and a block it exits to.
type exitKey struct{ construct, dest int32 }

// firstHeaderFailure returns the first construct, in SPIRV-Tools' order,
// that fails the rules walkConstructs checks on its header and exit alone
// (len(f.cons) if none): the constructs before it can be nested and
// proved, the walk stops at it at the latest.
func (f *fnCFG) firstHeaderFailure() int {
	for k := range f.cons {
		c := &f.cons[k]
		h, e := c.header, c.exit
		if f.sreach[h] && (e < 0 || !f.sdominates(h, e) || (c.kind != ctContinue && h == e) || (c.kind == ctContinue && !f.spdominates(e, h))) {
			return k
		}
	}
	return len(f.cons)
}

// constructSuspects returns, by construct of the nesting t, whether
// SPIRV-Tools' walk may find an error in it: an edge (structural, a
// superset of the branch edges its entry rule follows) enters it
// elsewhere than at its header, so that its blocks may not be t's, or, on
// t's blocks, an edge leaving it is not a structured exit of it, a header
// in it has its merge block outside (unless it heads it), or a block
// outside branches to a loop's continue target other than by a
// back-edge. A construct not marked has no error in the walk. Each climb
// from a block's innermost construct skips the constructs already marked
// (a union-find over the nesting), so the work is the number of blocks
// and edges, times the few constructs a block heads, plus one
// IsStructuredExit per construct and block it exits to.
func (f *fnCFG) constructSuspects(t *constructNest, latches map[cfgEdge]bool) []bool {
	n := int32(f.n)
	bad := make([]bool, len(f.cons))
	up := slices.Clone(t.parent)  // by marked construct: an ancestor, unmarked ones between it and the nearest one
	next := func(k int32) int32 { // the nearest unmarked construct from k up, -1 if none
		r := k
		for r >= 0 && bad[r] {
			r = up[r]
		}
		for k >= 0 && bad[k] {
			k, up[k] = up[k], r
		}
		return r
	}
	header := func(k int32) int32 { return f.cons[k].header }
	// The constructs a block of them exits to a destination: the blocks
	// of a construct share its few exits, and a selection's
	// IsStructuredExit walks up to the loop around it. A climb goes on to
	// every construct the destination is outside of, so a climb that
	// meets one seen can stop.
	exits := map[exitKey]bool{}
	for b := int32(0); b < n; b++ {
		if !f.sreach[b] {
			continue
		}
		for _, y := range f.ssucc.Succ(b) {
			for k := next(t.inner[y]); k >= 0 && !t.holds(k, b); k = next(t.parent[k]) {
				if header(k) != y {
					bad[k] = true
				}
			}
		}
		for _, y := range f.succ.Succ(b) {
			for k := next(t.inner[b]); k >= 0 && !t.holds(k, y); k = next(t.parent[k]) {
				if exits[exitKey{k, y}] {
					break
				}
				exits[exitKey{k, y}] = true
				bad[k] = !f.structuredExit(&f.cons[k], y)
			}
		}
		if _, m, _ := f.mergeTargets(b); m >= 0 && f.sreach[m] {
			for k := next(t.inner[b]); k >= 0 && !t.holds(k, m); k = next(t.parent[k]) {
				if header(k) != b {
					bad[k] = true
				}
			}
		}
	}
	for k := range f.cons {
		c := &f.cons[k]
		if c.kind != ctLoop || !f.sreach[c.header] {
			continue
		}
		ct := f.cons[c.loop].header
		if ct == c.header {
			continue
		}
		for _, p := range f.pred.Succ(ct) {
			if p < n && f.sreach[p] && !t.holds(int32(k), p) && !latches[cfgEdge{p, ct}] {
				bad[k] = true
			}
		}
	}
	return bad
}

// belowInBoth reports for each block e of qs whether another block is
// below e both in the structural dominator tree and in the structural
// post-dominator tree. One sweep over the dominator tree's order counts
// the blocks in each rectangle of the two orders with a Fenwick tree over
// the post-dominator order: O((n + len(qs)) log n).
func (f *fnCFG) belowInBoth(qs []int32) []bool {
	size := int32(2 * (f.n + 2)) // both orders number below this
	pointY := make([]int32, size)
	for x := range pointY {
		pointY[x] = -1
	}
	for d := int32(0); d < int32(f.n); d++ {
		x, _ := f.sdom.Order(d)
		y, _ := f.spdom.Order(d)
		if x >= 0 && y >= 0 {
			pointY[x] = y
		}
	}
	type event struct {
		x, q, sign int32
	}
	var evs []event
	for q, e := range qs {
		x0, x1 := f.sdom.Order(e)
		if y0, _ := f.spdom.Order(e); x0 >= 0 && y0 >= 0 {
			evs = append(evs, event{x1 - 1, int32(q), 1}, event{x0, int32(q), -1})
		}
	}
	slices.SortFunc(evs, func(a, b event) int { return int(a.x - b.x) })
	fen := make([]int32, size+1)
	prefix := func(y int32) (c int32) { // points with pointY <= y so far
		for i := y + 1; i > 0; i -= i & -i {
			c += fen[i]
		}
		return c
	}
	count := make([]int32, len(qs))
	j := 0
	for x := int32(0); x < size && j < len(evs); x++ {
		if y := pointY[x]; y >= 0 {
			for i := y + 1; i <= size; i += i & -i {
				fen[i]++
			}
		}
		for ; j < len(evs) && evs[j].x == x; j++ {
			y0, y1 := f.spdom.Order(qs[evs[j].q])
			count[evs[j].q] += evs[j].sign * (prefix(y1-1) - prefix(y0))
		}
	}
	below := make([]bool, len(qs))
	for q := range qs {
		below[q] = count[q] > 0
	}
	return below
}
