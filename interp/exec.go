package interp

import (
	"fmt"
	"math"
)

// Subgroup states.
const (
	sgRunning = iota
	sgBarrier
	sgDone
)

// frame is one active function call of a subgroup.
type frame struct {
	fn     *function
	pc     []int32 // per lane: program-wide block the lane waits at; -1 not in this frame
	lanes  []int32 // lanes running the current block
	buf    []int32
	ip     int32 // next instruction; -1: choose a block
	nlive  int   // lanes with pc >= 0
	retDst int32
	retN   int32
}

// subgroup is the execution state of one subgroup.
type subgroup struct {
	p      *Program
	wg     *wgState
	S      int         // lanes (the subgroup size; a wide group's lanes)
	R      int         // register stride: lane l of slot s is regs[s*R+l] (R >= S)
	lane0  int         // the subgroup's first lane in the workgroup (invocation memory)
	ident  []int32     // the identity list of S lanes
	wideOf []*subgroup // the wide group (wide.go): the workgroup's subgroups
	n      int         // lanes present (non-full last subgroup: < S)
	id     uint32
	regs   []uint64
	inv    []byte
	frames []frame
	depth  int
	nexit  int
	state  int
	exited []bool
	tA, tB []int32
	one    []int32
	steps  int64 // work units left before asking the dispatch budget (budget.go)
	fault  *Fault
	// per lane invocation ids, for built-ins and faults
	localID  [][3]uint32
	localIdx []uint32
	bval     [4]uint64
	gscratch []uint64
	gsrc     []int32
	bsrc     []uint64
	bdst     []uint64
	pending  *inst // the work-group collective the subgroup waits at
	lastInit initKey
}

// identity lists of lanes.
var identity = func() []int32 {
	s := make([]int32, 128)
	for i := range s {
		s[i] = int32(i)
	}
	return s
}()

// start resets the subgroup for a new workgroup with n lanes.
func (sg *subgroup) start(n int) {
	sg.n, sg.depth, sg.nexit, sg.state, sg.fault = n, 0, 0, sgRunning, nil
	for i := range sg.exited {
		sg.exited[i] = i >= n
	}
	fr := &sg.frames[0]
	fr.fn = sg.p.entry
	for l := range fr.pc {
		if l < n {
			fr.pc[l] = fr.fn.firstBlock
		} else {
			fr.pc[l] = -1
		}
	}
	fr.nlive, fr.ip, fr.retDst = n, -1, -1
	if sg.wg.d.trace == nil {
		// every lane starts at the entry block: no scheduling needed
		fr.lanes = append(fr.buf[:0], sg.ident[:n]...)
		fr.ip = sg.p.blocks[fr.fn.firstBlock].start
	}
}

// schedule picks the lowest-numbered block some lane of the frame waits
// at, with all the lanes waiting there. It reports false if no lane is left.
func (sg *subgroup) schedule(fr *frame) bool {
	if fr.nlive == 0 {
		return false
	}
	best := int32(math.MaxInt32)
	for _, b := range fr.pc {
		if b >= 0 && b < best {
			best = b
		}
	}
	if best == math.MaxInt32 {
		return false
	}
	l := fr.buf[:0]
	for i, b := range fr.pc {
		if b == best {
			l = append(l, int32(i))
		}
	}
	fr.lanes = l
	fr.ip = sg.p.blocks[best].start
	if sg.wg.d.trace != nil {
		sg.traceBlock(best, l)
	}
	return true
}

func (sg *subgroup) traceBlock(b int32, lanes []int32) {
	var m [2]uint64
	for _, l := range lanes {
		m[l/64] |= 1 << (l % 64)
	}
	mask := fmt.Sprintf("%#x", m[0])
	if sg.S > 64 {
		mask = fmt.Sprintf("%#x%016x", m[1], m[0])
	}
	wg := sg.wg.id
	fmt.Fprintf(sg.wg.d.trace, "wg %d,%d,%d sg %d: %s %%%d mask %s\n", wg[0], wg[1], wg[2], sg.id, sg.p.blocks[b].fn.name, sg.p.blocks[b].label, mask)
}

// run executes the subgroup until it finishes, reaches a barrier or faults.
func (sg *subgroup) run() {
	p := sg.p
	code := p.code
	S := int32(sg.S)
	R := int32(sg.R)
	r := sg.regs
	for sg.state == sgRunning {
		fr := &sg.frames[sg.depth]
		if sg.steps <= 0 && !sg.refill() {
			return
		}
		if fr.ip < 0 {
			if !sg.schedule(fr) {
				sg.popFrame()
				continue
			}
		}
		in := &code[fr.ip]
		lanes := fr.lanes
		sg.steps -= int64(in.cost)*int64(len(lanes)) + instrCost
		if in.op > opLastControl {
			if isDenseBin(in.op) && len(lanes) == int(S) {
				sg.denseBin(in)
				fr.ip++
				continue
			}
			if f := sg.exec(in, lanes); f != nil {
				sg.setFault(f, in, lanes)
				return
			}
			fr.ip++
			continue
		}
		switch in.op {
		case opNop:
			fr.ip++
		case opBranch:
			e := &p.edges[in.aux]
			sg.moves(e, lanes)
			if len(lanes) == fr.nlive && sg.wg.d.trace == nil {
				// every live lane goes on: no scheduling, and the lanes'
				// block counters stay stale (see uniformNote)
				fr.ip = p.blocks[e.target].start
				break
			}
			for _, l := range lanes {
				fr.pc[l] = e.target
			}
			fr.ip = -1
		case opBranchCond:
			c := r[in.a*R : in.a*R+S]
			if len(lanes) == fr.nlive && sg.wg.d.trace == nil {
				if e := p.uniformEdge(in, c, lanes); e != nil {
					sg.moves(e, lanes)
					fr.ip = p.blocks[e.target].start
					break
				}
				if in.c > 0 {
					// short arms: run them here, then every lane goes on
					// at the join (join.go)
					if _, ok := sg.runJoin(in, c, lanes); !ok {
						return
					}
					fr.ip = p.blocks[p.joins[in.c-1].target].start
					break
				}
			}
			ta, tb := sg.tA[:0], sg.tB[:0]
			for _, l := range lanes {
				if c[l] != 0 {
					ta = append(ta, l)
				} else {
					tb = append(tb, l)
				}
			}
			e1, e2 := &p.edges[in.aux], &p.edges[in.aux+1]
			if len(ta) > 0 {
				sg.moves(e1, ta)
				for _, l := range ta {
					fr.pc[l] = e1.target
				}
			}
			if len(tb) > 0 {
				sg.moves(e2, tb)
				for _, l := range tb {
					fr.pc[l] = e2.target
				}
			}
			if len(lanes) == fr.nlive && (len(ta) == 0 || len(tb) == 0) && sg.wg.d.trace == nil {
				t := e1.target
				if len(ta) == 0 {
					t = e2.target
				}
				fr.ip = p.blocks[t].start
			} else {
				fr.ip = -1
			}
		case opSwitch:
			tab := &p.switches[in.aux]
			sel := r[in.a*R : in.a*R+S]
			for _, l := range lanes {
				e := &p.edges[tab.edge(sel[l])]
				sg.one[0] = l
				sg.moves(e, sg.one)
				fr.pc[l] = e.target
			}
			fr.ip = -1
		case opReturn, opReturnValue:
			if in.op == opReturnValue && fr.retDst >= 0 {
				for c := int32(0); c < in.n; c++ {
					d, s := r[(fr.retDst+c)*R:(fr.retDst+c)*R+S], r[(in.a+c)*R:(in.a+c)*R+S]
					for _, l := range lanes {
						d[l] = s[l]
					}
				}
			}
			for _, l := range lanes {
				fr.pc[l] = -1
			}
			fr.nlive -= len(lanes)
			if sg.depth == 0 {
				for _, l := range lanes {
					sg.exited[l] = true
				}
				sg.nexit += len(lanes)
			}
			fr.ip = -1
		case opKill:
			for _, l := range lanes {
				for k := 0; k <= sg.depth; k++ {
					f := &sg.frames[k]
					if f.pc[l] >= 0 {
						f.pc[l] = -1
						f.nlive--
					}
				}
				sg.exited[l] = true
			}
			sg.nexit += len(lanes)
			fr.ip = -1
		case opUnreachable:
			sg.setFault(&Fault{Kind: FaultUnreachable}, in, lanes)
			return
		case opUndefinedOp:
			sg.setFault(&Fault{Kind: FaultUndefined, Msg: p.undefined[in.aux]}, in, lanes)
			return
		case opCall:
			ci := &p.calls[in.aux]
			if sg.depth+1 >= len(sg.frames) {
				sg.setFault(&Fault{Kind: FaultRecursion, Msg: "call depth exceeded"}, in, lanes)
				return
			}
			for k, a := range ci.args {
				ps, n := ci.fn.params[k], ci.fn.paramN[k]
				for c := int32(0); c < n; c++ {
					d, s := r[(ps+c)*R:(ps+c)*R+S], r[(a+c)*R:(a+c)*R+S]
					for _, l := range lanes {
						d[l] = s[l]
					}
				}
			}
			fr.ip++
			sg.depth++
			nf := &sg.frames[sg.depth]
			nf.fn = ci.fn
			for i := range nf.pc {
				nf.pc[i] = -1
			}
			for _, l := range lanes {
				nf.pc[l] = ci.fn.firstBlock
			}
			nf.nlive, nf.retDst, nf.retN = len(lanes), in.dst, in.n
			nf.lanes = append(nf.buf[:0], lanes...)
			nf.ip = p.blocks[ci.fn.firstBlock].start
			if sg.wg.d.trace != nil {
				nf.ip = -1
			}
		case opBarrier, opWGGroup:
			if len(lanes) != sg.n-sg.nexit {
				sg.setFault(&Fault{Kind: FaultBarrier, Msg: fmt.Sprintf("OpControlBarrier reached by %d of the subgroup's %d running invocations (divergent control flow)", len(lanes), sg.n-sg.nexit)}, in, lanes)
				return
			}
			fr.ip++
			sg.state = sgBarrier
			sg.pending = nil
			if in.op == opWGGroup {
				sg.pending = in
			}
			return
		default:
			sg.setFault(&Fault{Kind: FaultUnsupported, Msg: "bad control op"}, in, lanes)
			return
		}
	}
}

// uniformEdge returns the edge of conditional branch in that every lane
// takes (c: the condition's register), or nil if the lanes disagree.
func (p *Program) uniformEdge(in *inst, c []uint64, lanes []int32) *edge {
	if len(lanes) == 0 {
		return nil
	}
	if len(lanes) == len(c) {
		// every lane: the list is 0..S-1, scan the register itself
		first := c[0] != 0
		for _, v := range c {
			if (v != 0) != first {
				return nil
			}
		}
		if first {
			return &p.edges[in.aux]
		}
		return &p.edges[in.aux+1]
	}
	nt := 0
	for _, l := range lanes {
		if c[l] != 0 {
			nt++
		}
	}
	switch nt {
	case len(lanes):
		return &p.edges[in.aux]
	case 0:
		return &p.edges[in.aux+1]
	}
	return nil
}

// uniformNote: a branch that every live lane of the frame takes together
// does not write the lanes' block counters (pc). They are read only by
// schedule, which runs after a transition that wrote the counter of every
// lane it moved (divergent branches, switch, return, kill, call), and by
// popFrame, which asks only whether a lane is still in the frame (a stale
// counter is a block, >= 0, until a return or kill writes -1).

// popFrame returns from the current function once all its lanes returned.
func (sg *subgroup) popFrame() {
	if sg.depth == 0 {
		sg.state = sgDone
		return
	}
	sg.depth--
	fr := &sg.frames[sg.depth]
	l := fr.lanes[:0]
	for _, x := range fr.lanes {
		if fr.pc[x] >= 0 {
			l = append(l, x)
		}
	}
	fr.lanes = l
	if len(l) == 0 {
		fr.ip = -1
	}
}

// moves performs an edge's phi moves for the given lanes.
func (sg *subgroup) moves(e *edge, lanes []int32) {
	if len(e.moves) == 0 {
		return
	}
	S := int32(sg.S)
	R := int32(sg.R)
	r := sg.regs
	if !e.twoPh {
		for _, mv := range e.moves {
			for c := int32(0); c < mv.n; c++ {
				d, s := r[(mv.dst+c)*R:(mv.dst+c)*R+S], r[(mv.src+c)*R:(mv.src+c)*R+S]
				if len(lanes) == len(d) {
					copy(d, s)
					continue
				}
				for _, l := range lanes {
					d[l] = s[l]
				}
			}
		}
		return
	}
	t := e.tmp
	for _, mv := range e.moves {
		for c := int32(0); c < mv.n; c++ {
			d, s := r[(t+c)*R:(t+c)*R+S], r[(mv.src+c)*R:(mv.src+c)*R+S]
			for _, l := range lanes {
				d[l] = s[l]
			}
		}
		t += mv.n
	}
	t = e.tmp
	for _, mv := range e.moves {
		for c := int32(0); c < mv.n; c++ {
			d, s := r[(mv.dst+c)*R:(mv.dst+c)*R+S], r[(t+c)*R:(t+c)*R+S]
			for _, l := range lanes {
				d[l] = s[l]
			}
		}
		t += mv.n
	}
}

// setFault records a fault. A fault that names no lane (Lane 0) is given
// the first lane involved: lane lists are sorted, so a fault really at
// lane 0 keeps it.
func (sg *subgroup) setFault(f *Fault, in *inst, lanes []int32) {
	if f.Lane == 0 && len(lanes) > 0 {
		f.Lane = uint32(lanes[0])
	}
	sg.describeFault(f, in)
	sg.fault = f
	sg.state = sgDone
}

func (sg *subgroup) describeFault(f *Fault, in *inst) {
	p := sg.p
	if f.Inst == "" && in != nil && in.src >= 0 && int(in.src) < p.m.Len() {
		f.Inst = formatInst(p.m, int(in.src))
	}
	if fr := &sg.frames[sg.depth]; fr.fn != nil {
		f.Function = fr.fn.name
	}
	l := int(f.Lane)
	f.SubgroupID = sg.id
	if sg.wideOf != nil {
		// a wide group's lane is a workgroup lane
		f.SubgroupID, f.Lane = uint32(l/p.S), uint32(l%p.S)
	}
	if l < len(sg.localID) {
		f.LocalID = sg.localID[l]
		wg := sg.wg.id
		for k := 0; k < 3; k++ {
			f.GlobalID[k] = wg[k]*sg.wg.d.local[k] + f.LocalID[k] + sg.wg.d.offset[k]
		}
	}
}

func sext(v uint64, w uint8) int64 {
	if w >= 64 {
		return int64(v)
	}
	s := 64 - w
	return int64(v<<s) >> s
}

// exec runs one non-control instruction for the given lanes.
func (sg *subgroup) exec(in *inst, lanes []int32) *Fault {
	S := int32(sg.S)
	n := in.n
	switch in.op {
	case opCopy:
		for c := int32(0); c < n; c++ {
			d, a := sg.col(in.dst+c), sg.col(in.a+c)
			if len(lanes) == len(d) {
				copy(d, a)
				continue
			}
			for _, l := range lanes {
				d[l] = a[l]
			}
		}
	case opSelect:
		cc := sg.col(in.c)
		for c := int32(0); c < n; c++ {
			if in.imm != 0 {
				cc = sg.col(in.c + c)
			}
			d, a, b := sg.col(in.dst+c), sg.col(in.a+c), sg.col(in.b+c)
			for _, l := range lanes {
				if cc[l] != 0 {
					d[l] = a[l]
				} else {
					d[l] = b[l]
				}
			}
		}
	case opShuffle, opExtractDyn, opInsertDyn, opTranspose:
		return sg.execComposite(in, lanes)
	case opIAdd:
		m := in.imm
		for c := int32(0); c < n; c++ {
			d, a, b := sg.col(in.dst+c), sg.col(in.a+c), sg.col(in.b+c)
			if len(lanes) == int(S) {
				for l := range d {
					d[l] = (a[l] + b[l]) & m
				}
				continue
			}
			for _, l := range lanes {
				d[l] = (a[l] + b[l]) & m
			}
		}
	case opISub:
		m := in.imm
		for c := int32(0); c < n; c++ {
			d, a, b := sg.col(in.dst+c), sg.col(in.a+c), sg.col(in.b+c)
			for _, l := range lanes {
				d[l] = (a[l] - b[l]) & m
			}
		}
	case opIMul:
		m := in.imm
		for c := int32(0); c < n; c++ {
			d, a, b := sg.col(in.dst+c), sg.col(in.a+c), sg.col(in.b+c)
			if len(lanes) == int(S) {
				for l := range d {
					d[l] = (a[l] * b[l]) & m
				}
				continue
			}
			for _, l := range lanes {
				d[l] = (a[l] * b[l]) & m
			}
		}
	case opAnd, opOr, opXor:
		for c := int32(0); c < n; c++ {
			d, a, b := sg.col(in.dst+c), sg.col(in.a+c), sg.col(in.b+c)
			switch in.op {
			case opAnd:
				for _, l := range lanes {
					d[l] = a[l] & b[l]
				}
			case opOr:
				for _, l := range lanes {
					d[l] = a[l] | b[l]
				}
			default:
				for _, l := range lanes {
					d[l] = a[l] ^ b[l]
				}
			}
		}
	case opShl, opShrL, opShrA, opIEq, opINe, opULt, opULe, opUGt, opUGe, opSLt, opSLe, opSGt, opSGe:
		return sg.execShiftCmp(in, lanes)
	case opFAdd32, opFSub32, opFMul32, opFDiv32, opFAdd64, opFSub64, opFMul64, opFDiv64:
		return sg.execFloatArith(in, lanes)
	case opBin:
		f := binTab[in.aux]
		s := in.sc
		for c := int32(0); c < n; c++ {
			d, a, b := sg.col(in.dst+c), sg.col(in.a+c), sg.col(in.b+c)
			for _, l := range lanes {
				d[l] = f(a[l], b[l], s)
			}
		}
	case opUn:
		f := unTab[in.aux]
		s := in.sc
		for c := int32(0); c < n; c++ {
			d, a := sg.col(in.dst+c), sg.col(in.a+c)
			for _, l := range lanes {
				d[l] = f(a[l], s)
			}
		}
	case opDiv, opBitField, opExtArith:
		return sg.execIntExtra(in, lanes)
	case opAnyAll, opDot:
		return sg.execHorizontal(in, lanes)
	case opConv, opBitcast, opBitcastExtract:
		return sg.execConvert(in, lanes)
	case opMatrix:
		sg.matrix(in, lanes)
	case opIDot:
		sg.idot(in, lanes)
	case opLoad:
		return sg.load(in, lanes)
	case opStore:
		return sg.store(in, lanes)
	case opLoadLane:
		sg.loadLane(in, lanes)
	case opStoreLane:
		sg.storeLane(in, lanes)
	case opLoadUni:
		return sg.loadUni(in, lanes)
	case opBuiltin:
		sg.loadBuiltin(in, lanes)
	case opLoadIdx:
		return sg.loadIdx(in, lanes)
	case opStoreIdx:
		return sg.storeIdx(in, lanes)
	case opChain:
		return sg.chain(in, lanes)
	case opArrayLength, opCopyMemSized, opPtrCmp, opPtrDiff, opGenericCast:
		return sg.execPointer(in, lanes)
	case opAtomic:
		return sg.atomic(in, lanes)
	case opGroup:
		return sg.group(in, lanes)
	case opExtInst:
		return sg.extInst(in, lanes)
	case opFloatCtl:
		return sg.floatCtl(in, lanes)
	case opDeriv:
		sg.derivative(in, lanes)
	case opImage:
		return sg.image(in, lanes)
	case opSample:
		return sg.sample(in, lanes)
	case opDPAS:
		return sg.dpas(in, lanes)
	case opBlock2D:
		return sg.block2d(in, lanes)
	case opCoopMat:
		return sg.coopMat(in, lanes)
	default:
		return &Fault{Kind: FaultUnsupported, Msg: fmt.Sprintf("internal op %d", in.op)}
	}
	return nil
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// putBits stores the low w bits of v at bit position pos of a little-endian bit array.
func putBits(a []uint64, pos, w int, v uint64) {
	if w < 64 {
		v &= 1<<w - 1
	}
	i, s := pos/64, pos%64
	a[i] |= v << s
	if s+w > 64 {
		a[i+1] |= v >> (64 - s)
	}
}

func getBits(a []uint64, pos, w int) uint64 {
	i, s := pos/64, pos%64
	v := a[i] >> s
	if s+w > 64 {
		v |= a[i+1] << (64 - s)
	}
	if w < 64 {
		v &= 1<<w - 1
	}
	return v
}

// col returns slot s's column of registers: its value in each lane.
func (sg *subgroup) col(s int32) []uint64 {
	R := int32(sg.R)
	return sg.regs[s*R : s*R+int32(sg.S)]
}
