package val

import "spvx/spirv"

// StructuredSwitchChecks in time linear in the function (issue 19 §5).
// SPIRV-Tools' FindCaseFallThrough walks, for each case target, the
// blocks it structurally dominates, so d switches nested in each other's
// cases cost d × blocks. Here the blocks every case construct branches
// to outside its region are found for all case targets at once
// (findCaseExits), and a case whose exits are all structured exits, with
// one other case among them at most, needs no walk: its fall-through
// target is that case. Any other case is walked as SPIRV-Tools walks it,
// so that the first error found and its message are SPIRV-Tools'.

// switchChecks is StructuredSwitchChecks.
func (f *fnCFG) switchChecks(c *construct) bool {
	s := f.s
	h, merge := c.header, c.exit
	in := s.m.Inst(f.term(h))
	ops := in.Operands
	target := func(j int) int32 { return f.block(in.Words[ops[j].Offset]) }
	isCase := make(map[int32]bool)
	for j := 1; j < len(ops); j += 2 {
		if t := target(j); t != merge {
			isCase[t] = true
		}
	}
	numTargeted := map[int32]int32{}
	defaultFall := int32(-1)
	def := target(1)
	defaultMany := false
	for j := 3; j < len(ops); j += 2 {
		if target(j) == def {
			defaultMany = true
			break
		}
	}
	// runEnd[j]: the last label operand of the run of equal targets at j.
	runEnd := make([]int, len(ops))
	for j := len(ops) - 1; j >= 1; j-- {
		if j%2 == 0 {
			continue
		}
		runEnd[j] = j
		if j+2 < len(ops) && target(j) == target(j+2) {
			runEnd[j] = runEnd[j+2]
		}
	}
	seen := map[int32]int32{}
	for j := 1; j < len(ops); j += 2 {
		t := target(j)
		if t == merge {
			continue
		}
		fall, ok := seen[t]
		if !ok {
			if f.sreach[h] && f.sreach[t] && !f.sdominates(h, t) {
				return s.fail(f.labelInst(h), "", "Switch header %s does not structurally dominate its case construct %s",
					s.idName(f.label(h)), s.idName(f.label(t)))
			}
			var proved bool
			if fall, proved = f.caseFallThrough(c, t, isCase); !proved {
				var stop bool
				if fall, stop = f.findCaseFallThrough(c, t, isCase); stop {
					return true
				}
			}
			if fall >= 0 {
				numTargeted[fall]++
			}
			seen[t] = fall
		}
		if fall == def && !defaultMany {
			fall = defaultFall
		}
		if fall >= 0 {
			if j == 1 {
				defaultFall = fall
			} else {
				e := runEnd[j]
				if e+2 >= len(ops) || fall != target(e+2) {
					return s.fail(f.term(h), "", "Case construct that targets %s has branches to the case construct that targets %s, but does not immediately precede it in the OpSwitch's target list",
						s.idName(f.label(t)), s.idName(f.label(fall)))
				}
			}
		}
	}
	// Each case construct is the fall-through of one other at most; the
	// first by label id, as std::map orders them.
	worst := int32(-1)
	for b, k := range numTargeted {
		if k > 1 && (worst < 0 || f.label(b) < f.label(worst)) {
			worst = b
		}
	}
	if worst >= 0 {
		return s.fail(f.labelInst(worst), "", "Multiple case constructs have branches to the case construct that targets %s", s.idName(f.label(worst)))
	}
	return false
}

// findCaseFallThrough is SPIRV-Tools' FindCaseFallThrough for the case
// target t of switch construct c: a walk from t through the blocks t
// structurally dominates, up to the merge block. It returns the other
// case the case construct falls through to (-1 if none), or reports its
// first error in the walk's order and returns stop.
func (f *fnCFG) findCaseFallThrough(c *construct, t int32, isCase map[int32]bool) (fall int32, stop bool) {
	s := f.s
	merge := c.exit
	if f.visited == nil {
		f.visited = make([]bool, f.n+2)
	}
	visited := f.visited
	var touched []int32
	defer func() {
		for _, v := range touched {
			visited[v] = false
		}
	}()
	fall = -1
	stack := []int32{t}
	reach := f.sreach[t]
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if b == merge || visited[b] {
			continue
		}
		visited[b] = true
		touched = append(touched, b)
		if reach && f.sreach[b] && f.sdominates(t, b) {
			stack = append(stack, f.succ.Succ(b)...)
			continue
		}
		if !isCase[b] {
			if f.structuredExit(c, b) {
				continue
			}
			return -1, s.fail(f.labelInst(t), "", "Case construct that targets %s has invalid branch to block %s (not another case construct, corresponding merge, outer loop merge or outer loop continue)",
				s.idName(f.label(t)), s.idName(f.label(b)))
		}
		if fall < 0 {
			if t != b {
				fall = b
			}
		} else if fall != b {
			return -1, s.fail(f.labelInst(t), "", "Case construct that targets %s has branches to multiple other case construct targets %s and %s",
				s.idName(f.label(t)), s.idName(f.label(fall)), s.idName(f.label(b)))
		}
	}
	return fall, false
}

// caseFallThrough is findCaseFallThrough's answer from the case exits
// where they prove it: proved is false where the walk must decide, which
// is where it may find an error (an exit that is neither a case nor a
// structured exit, or two other cases) and where the walk's blocks may
// not be t's region (t is not reached by branches, or it dominates the
// merge block, where the walk stops).
func (f *fnCFG) caseFallThrough(c *construct, t int32, isCase map[int32]bool) (fall int32, proved bool) {
	if f.caseExits == nil {
		f.caseExits = f.findCaseExits()
	}
	ce := f.caseExits
	merge := c.exit
	if constructWalkOnly || ce.over || !f.sreach[t] || !f.dom.Reached(t) || (merge >= 0 && f.sdominates(t, merge)) {
		return -1, false
	}
	fall = -1
	for _, y := range ce.exits[t] {
		switch {
		case y == merge:
		case !isCase[y]:
			if !f.structuredExit(c, y) {
				return -1, false
			}
		case fall >= 0:
			return -1, false // exits are distinct: a second case
		default:
			fall = y
		}
	}
	return fall, true
}

// caseExits holds, by case target t of any switch in the function, the
// distinct blocks that blocks t structurally dominates (and branches
// reach) branch to outside that region: where the case construct's
// walk goes on to check a block, once t reaches its blocks by branches
// and does not dominate its merge block.
type caseExits struct {
	exits map[int32][]int32
	over  bool // more exits than the budget: every case is walked
}

// findCaseExits finds the case exits of every case target in one pass
// over the branch edges. An edge u -> y is an exit of each case target
// that structurally dominates u but not y: a climb up the structural
// dominator tree from u, through the case targets only. A climb that
// meets a target already given y stops, since the climb that gave it
// went on above it; the work is the edges plus the exits found, which a
// budget bounds (a valid function has a few per case).
func (f *fnCFG) findCaseExits() *caseExits {
	n := int32(f.n)
	isTarget := make([]bool, n)
	for k := range f.cons {
		c := &f.cons[k]
		h := c.header
		if c.kind != ctSelection || !f.sreach[h] || f.termOp(h) != spirv.OpSwitch {
			continue
		}
		in := f.s.m.Inst(f.term(h))
		for j := 1; j < len(in.Operands); j += 2 {
			if t := f.block(in.Words[in.Operands[j].Offset]); t >= 0 && t < n {
				isTarget[t] = true
			}
		}
	}
	// The nearest case target at or above a block in the structural
	// dominator tree, -1 if none.
	anc := newClimber(int(n))
	nearest := func(b int32) int32 {
		return anc.find(b, func(b int32) bool { return isTarget[b] }, func(b int32) int32 { return f.sdom.Idom[b] })
	}
	type pair struct{ t, y int32 }
	seen := map[pair]bool{}
	ce := &caseExits{exits: map[int32][]int32{}}
	budget := 4*(len(f.succ.Adj)+int(n)) + 64
	for u := int32(0); u < n; u++ {
		if !f.sreach[u] || !f.dom.Reached(u) {
			continue
		}
		for _, y := range f.succ.Succ(u) {
			inside := func(a int32) bool { return y < n && f.sreach[y] && f.sdominates(a, y) }
			for a := nearest(u); a >= 0 && !inside(a); a = nearest(f.sdom.Idom[a]) {
				if seen[pair{a, y}] {
					break
				}
				if budget--; budget < 0 {
					return &caseExits{over: true}
				}
				seen[pair{a, y}] = true
				ce.exits[a] = append(ce.exits[a], y)
			}
		}
	}
	return ce
}
