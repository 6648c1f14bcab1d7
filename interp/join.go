package interp

// Short conditional arms. A conditional branch whose lanes disagree
// normally hands its lanes to the scheduler: each side's block counters
// are written and the lowest-numbered block runs next (exec.go), and in a
// wide group it splits the group into its subgroups (wide.go). Many such
// branches are an if without an else (or with one) whose arms are single
// blocks of plain instructions that branch on to a common block, numbered
// after them: a guarded store, a clamp. When every live lane of the frame
// is at the branch, the scheduler would run the arms in block order, each
// with its side's lanes, and then the common block with all of them. A
// join (found at compile time, inst.c of the opBranchCond) lets the
// executor do exactly that at once: no block counters, no scheduling, and
// in a wide group no split. Only the order of memory accesses between
// subgroups of a wide group differs, as for every wide instruction.

// join describes a conditional branch whose two ways meet after at most
// one block each.
type join struct {
	target int32    // the block where both ways meet
	arm    [2]int32 // the block the true (false) edge runs before target; -1: the edge goes to target
	wide   bool     // every arm instruction is wide (a wide group can run the arms)
}

// findJoins gives every conditional branch with a join its join (inst.c
// is the index in p.joins plus one). It runs once the code and each
// instruction's wide flag are final.
func (p *Program) findJoins() {
	for i := range p.code {
		in := &p.code[i]
		if in.op != opBranchCond {
			continue
		}
		if j, ok := p.joinOf(in); ok {
			p.joins = append(p.joins, j)
			in.c = int32(len(p.joins))
		}
	}
}

// joinOf finds the join of conditional branch in, if it has one: a target
// the other edge reaches through one arm block numbered before it, or the
// common successor of two arm blocks numbered before it.
func (p *Program) joinOf(in *inst) (join, bool) {
	t := [2]int32{p.edges[in.aux].target, p.edges[in.aux+1].target}
	if t[0] == t[1] {
		return join{}, false
	}
	var next [2]int32
	var wide, ok [2]bool
	for k := range t {
		next[k], wide[k], ok[k] = p.armExit(t[k])
	}
	j := join{arm: [2]int32{-1, -1}}
	switch {
	case ok[0] && next[0] == t[1] && t[0] < t[1]:
		j.target, j.arm[0], j.wide = t[1], t[0], wide[0]
	case ok[1] && next[1] == t[0] && t[1] < t[0]:
		j.target, j.arm[1], j.wide = t[0], t[1], wide[1]
	case ok[0] && ok[1] && next[0] == next[1] && t[0] < next[0] && t[1] < next[0]:
		j.target, j.arm, j.wide = next[0], t, wide[0] && wide[1]
	default:
		return join{}, false
	}
	return j, true
}

// armExit reports whether block b can be an arm: instructions that are not
// control flow, then an unconditional branch; next is the branch's target
// and wide whether a wide group can run every instruction.
func (p *Program) armExit(b int32) (next int32, wide, ok bool) {
	blk := &p.blocks[b]
	if blk.end <= blk.start || p.code[blk.end-1].op != opBranch {
		return 0, false, false
	}
	wide = true
	for ip := blk.start; ip < blk.end-1; ip++ {
		in := &p.code[ip]
		if in.op == opNop {
			continue
		}
		if in.op <= opLastControl {
			return 0, false, false
		}
		wide = wide && in.wide
	}
	return p.edges[p.code[blk.end-1].aux].target, wide, true
}

// runJoin runs a conditional branch with a join whose lanes (every live
// lane of the frame) disagree on condition column c: each side's phi
// moves, then the arms in block order, each with its side's lanes, as the
// scheduler would; the caller goes on at the join's target with all the
// lanes. It returns the arm instructions it ran (for the wide group's
// count) and false if an arm faulted or the budget or the dispatch ended
// (the subgroup's state says which).
func (sg *subgroup) runJoin(in *inst, c []uint64, lanes []int32) (int64, bool) {
	p := sg.p
	j := &p.joins[in.c-1]
	// a side's lanes are needed for its phi moves or its arm
	var side [2][]int32
	buf := [2][]int32{sg.tA[:len(lanes)], sg.tB[:len(lanes)]}
	for k := range side {
		if e := &p.edges[in.aux+int32(k)]; j.arm[k] >= 0 || len(e.moves) > 0 {
			side[k] = pickLanes(buf[k], c, lanes, k == 0)
			sg.moves(e, side[k])
		}
	}
	order := [2]int{0, 1}
	if j.arm[1] >= 0 && (j.arm[0] < 0 || j.arm[1] < j.arm[0]) {
		order = [2]int{1, 0}
	}
	ran := int64(0)
	for _, k := range order {
		if j.arm[k] < 0 || len(side[k]) == 0 {
			continue
		}
		n, ok := sg.runArm(j.arm[k], side[k])
		ran += n
		if !ok {
			return ran, false
		}
	}
	return ran, true
}

// pickLanes returns the lanes (in order, in dst, as long as lanes) whose
// condition c is want. Each lane is written and the count advances only
// for a match: no branch to mispredict when the sides mix. With every
// lane, it reads c without the lane list.
func pickLanes(dst []int32, c []uint64, lanes []int32, want bool) []int32 {
	n := 0
	if len(lanes) == len(c) {
		dst = dst[:len(c)]
		for l, v := range c {
			t := 0
			if (v != 0) == want {
				t = 1
			}
			dst[n] = int32(l)
			n += t
		}
		return dst[:n]
	}
	for _, l := range lanes {
		t := 0
		if (c[l] != 0) == want {
			t = 1
		}
		dst[n] = l
		n += t
	}
	return dst[:n]
}

// runArm runs arm block b for lanes, charging each instruction as the
// run loop does, and its branch's phi moves. It returns the instructions
// it ran and false if one faulted or the budget or dispatch ended.
func (sg *subgroup) runArm(b int32, lanes []int32) (int64, bool) {
	p := sg.p
	blk := &p.blocks[b]
	ran := int64(0)
	for ip := blk.start; ip < blk.end; ip++ {
		if sg.steps <= 0 && !sg.refill() {
			return ran, false
		}
		in := &p.code[ip]
		sg.steps -= int64(in.cost)*int64(len(lanes)) + instrCost
		ran++
		switch {
		case in.op == opBranch:
			sg.moves(&p.edges[in.aux], lanes)
		case in.op != opNop:
			if f := sg.exec(in, lanes); f != nil {
				sg.setFault(f, in, lanes)
				return ran, false
			}
		}
	}
	return ran, true
}
