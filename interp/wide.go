package interp

import "spvx/spirv"

// Wide groups. A workgroup's subgroups share one register file (subgroup
// k's lanes are lanes k*S..k*S+S-1 of every slot, see newWG), so while
// every invocation of the workgroup runs the same instruction, the
// subgroups can run it together: one interpreted instruction for the
// workgroup instead of one per subgroup. The wide group is that: a
// subgroup-shaped state of R lanes (the workgroup's lanes) that runs the
// entry function from its start for as long as control flow is uniform
// across the whole workgroup.
//
// What it runs:
//   - instructions whose meaning does not depend on the subgroup (integer
//     and float arithmetic, conversions, composites, memory, atomics,
//     extended instructions, built-ins of the invocation and workgroup,
//     and the subgroup built-ins that are numbers: a lane's subgroup id,
//     index in it, subgroup size, wideBuiltin) over all R lanes at once;
//   - instructions of subgroup scope (OpGroupNonUniform*, the subgroup
//     masks, OpSubgroupBitcastShuffleINTEL...) once per subgroup, on
//     the subgroup's own state, in subgroup order (the subgroup ops and
//     built-ins without starting the subgroups, startless);
//   - branches and switches that every invocation takes the same way, and
//     OpControlBarrier, which every invocation then reaches together;
//   - a divergent branch into short arms of wide instructions that meet
//     right after (join.go): each arm with its lanes, then the join with
//     all of them.
//
// Anything else (a branch that divides the workgroup, a function call,
// OpKill, a work-group collective, a fault-prone terminator) splits the
// wide group before that instruction: each subgroup resumes there on its
// own with every lane active, exactly where it would be had it run alone,
// and the rest of the workgroup runs as before (runGroup).
//
// Only the order of memory accesses between subgroups differs from
// running the subgroups one after the other (there, a subgroup runs until
// it finishes or reaches a barrier): a race-free kernel cannot tell, and
// Options.Shuffle, which exists to expose races, runs the subgroups apart.

// sgSplit is the state of a wide group that handed on to its subgroups.
const sgSplit = sgDone + 1

// newWide makes the wide group of a workgroup with R lanes.
func (p *Program) newWide(st *wgState, R int) *subgroup {
	w := &subgroup{p: p, wg: st, S: R, R: R, wideOf: st.sgs}
	w.regs, w.inv, w.localID, w.localIdx = st.regs, st.inv, st.localID, st.localIdx
	w.ident = make([]int32, R)
	w.tA, w.tB = make([]int32, 0, R), make([]int32, 0, R)
	for i := range w.ident {
		w.ident[i] = int32(i)
	}
	// one frame, and no block counters, lane lists or exit flags: the
	// wide group runs converged at depth 0 or not at all (startWide)
	w.frames = make([]frame, 1)
	return w
}

// wideOK reports whether instruction in means the same run over a whole
// workgroup's lanes as run per subgroup.
func (p *Program) wideOK(in *inst) bool {
	switch {
	case in.op <= opLastControl || in.op == opGroup:
		return false
	case in.op == opBuiltin:
		switch p.inputs[p.bloads[in.aux].input].builtin {
		case spirv.BuiltInGlobalInvocationId, spirv.BuiltInLocalInvocationId, spirv.BuiltInLocalInvocationIndex,
			spirv.BuiltInWorkgroupId, spirv.BuiltInNumWorkgroups, spirv.BuiltInWorkgroupSize,
			spirv.BuiltInEnqueuedWorkgroupSize, spirv.BuiltInGlobalSize, spirv.BuiltInGlobalOffset,
			spirv.BuiltInWorkDim, spirv.BuiltInGlobalLinearId:
			return true
		}
		return wideSubgroupBuiltin(p.inputs[p.bloads[in.aux].input].builtin)
	}
	return in.op < opGroup || in.op == opFloatCtl || in.op == opImage
}

// runWide runs the wide group of a workgroup whose subgroups are sgs
// (started or not). It ends with the wide group done (the entry function
// returned, a fault, a stopped dispatch) or split (sgSplit: every
// subgroup is started and resumes at the wide group's instruction).
func (w *subgroup) runWide(sgs []*subgroup) {
	p := w.p
	code := p.code
	S, R := int32(w.S), int32(w.R)
	r := w.regs
	fr := &w.frames[0]
	lanes := fr.lanes
	full := len(lanes) == int(S)
	nsg := int64(len(sgs))
	started := false
	steps := int64(0)
	defer func() { w.wg.d.wideSteps.Add(steps) }()
	for w.state == sgRunning {
		if w.steps <= 0 && !w.refill() {
			return
		}
		in := &code[fr.ip]
		cost := int64(in.cost)*int64(len(lanes)) + instrCost
		w.steps -= cost
		steps += nsg
		if in.op > opLastControl {
			if in.wide {
				if full && isDenseBin(in.op) {
					w.denseBin(in)
				} else if f := w.exec(in, lanes); f != nil {
					w.setFault(f, in, lanes)
					return
				}
				fr.ip++
				continue
			}
			if !started && !startless(in.op) {
				w.startAll(sgs)
				started = true
			}
			for _, sg := range sgs {
				// a subgroup not started yet has all its lanes
				l := sg.ident[:sg.n]
				if started {
					l = sg.frames[0].lanes
				}
				if f := sg.exec(in, l); f != nil {
					if !started {
						w.startAll(sgs) // the fault names the subgroup's function
					}
					sg.setFault(f, in, l)
					w.fault, w.state = sg.fault, sgDone
					return
				}
			}
			fr.ip++
			continue
		}
		switch in.op {
		case opNop:
			fr.ip++
			continue
		case opBranch:
			e := &p.edges[in.aux]
			w.moves(e, lanes)
			fr.ip = p.blocks[e.target].start
			continue
		case opBranchCond:
			c := r[in.a*R : in.a*R+S]
			if e := p.uniformEdge(in, c, lanes); e != nil {
				w.moves(e, lanes)
				fr.ip = p.blocks[e.target].start
				continue
			}
			if in.c > 0 && p.joins[in.c-1].wide {
				// short arms of wide instructions: no split (join.go)
				ran, ok := w.runJoin(in, c, lanes)
				steps += ran * nsg
				if !ok {
					return
				}
				fr.ip = p.blocks[p.joins[in.c-1].target].start
				continue
			}
		case opSwitch:
			sel := r[in.a*R : in.a*R+S]
			v := sel[lanes[0]]
			same := true
			for _, l := range lanes {
				if sel[l] != v {
					same = false
					break
				}
			}
			if same {
				e := &p.edges[p.switches[in.aux].edge(v)]
				w.moves(e, lanes)
				fr.ip = p.blocks[e.target].start
				continue
			}
		case opReturn, opReturnValue:
			// the entry function returns for every invocation
			w.state = sgDone
			return
		case opBarrier:
			// every invocation of the workgroup is here
			fr.ip++
			continue
		}
		// the workgroup goes on subgroup by subgroup from this instruction
		w.steps += cost
		steps -= nsg
		if !started {
			w.startAll(sgs)
		}
		for _, sg := range sgs {
			sg.frames[0].ip = fr.ip
		}
		w.state = sgSplit
		return
	}
}

// startWide starts the wide group with all n lanes of the workgroup at
// the start of the entry function. Its lanes' block counters and exit
// flags are never read (it runs converged or not at all), so they are not
// written.
func (w *subgroup) startWide(n int) {
	w.n, w.depth, w.nexit, w.state, w.fault = n, 0, 0, sgRunning, nil
	fr := &w.frames[0]
	fr.fn = w.p.entry
	fr.lanes = w.ident[:n]
	fr.nlive, fr.retDst = n, -1
	fr.ip = w.p.blocks[fr.fn.firstBlock].start
}

// startless reports whether a subgroup can run op without being started:
// subgroup operations and built-ins read only registers and the lane list
// they are given, so a wide group that never splits starts no subgroup.
func startless(o op) bool { return o == opGroup || o == opBuiltin }

// startAll starts the subgroups of the wide group's workgroup, each with
// all its lanes at the start of the entry function.
func (w *subgroup) startAll(sgs []*subgroup) {
	for _, sg := range sgs {
		sg.start(sg.n)
	}
}
