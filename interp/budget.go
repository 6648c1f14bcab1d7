package interp

import (
	"fmt"
	"math"
)

// The work budget (Options.MaxSteps) is shared by a dispatch's workers in
// chunks: each subgroup and each worker's workgroup setup holds a local
// credit that the hot path decrements by an instruction's precomputed
// cost; only when the credit runs out does it touch the shared budget
// (refill), which is also where the context's deadline is checked. A chunk
// is a few microseconds of work, so a deadline is seen promptly.

// workChunk is the credit taken from the dispatch budget at a time.
const workChunk = 1 << 14

// instrCost is the units an instruction costs besides its lanes' work:
// interpreting it takes about as long as 30 lane-operations of arithmetic
// (13 ns against 0.45 ns), so a loop on one lane is charged by its time,
// not by its one lane.
const instrCost = 32

// memCost is the units per component and lane of a load, store or
// atomic: it takes about as long as 4 arithmetic operations (an element of
// an OpCopyMemory of an array, loaded and stored, some 4 ns).
const memCost = 4

// bytesPerUnit is how many bytes copied, cleared or initialized cost one
// work unit: at some 10 GB/s, about the time of one arithmetic
// lane-operation.
const bytesPerUnit = 8

// memPiece bounds the bytes one memory operation touches between two
// charges, so a large copy or clear sees a deadline or the budget in time.
const memPiece = 1 << 22

// setCosts computes each instruction's cost per active lane: one unit per
// component of its result (or stored value), memCost for memory accesses,
// and for control flow the phi moves and argument copies it does, and a
// switch's case scan.
func (p *Program) setCosts() {
	for i := range p.code {
		in := &p.code[i]
		c := int64(max(in.n, 1))
		switch in.op {
		case opLoad, opStore, opLoadLane, opStoreLane, opLoadIdx, opStoreIdx, opAtomic, opCLMem, opImage, opSample:
			c *= memCost
		case opBranch:
			c = 1 + p.edgeCost(in.aux)
		case opBranchCond:
			c = 1 + max(p.edgeCost(in.aux), p.edgeCost(in.aux+1))
		case opSwitch:
			tab := &p.switches[in.aux]
			m := p.edgeCost(tab.def)
			for _, e := range tab.edges {
				m = max(m, p.edgeCost(e))
			}
			c = 1 + int64(len(tab.vals)) + m
		case opDPAS:
			d := &p.dpas[in.aux]
			c = int64(d.M) * int64(d.K) // a column of M sums of K products per lane
		case opBlock2D:
			d := &p.block2d[in.aux]
			c = int64(d.perBlock) * int64(d.n) // each lane's cells
		case opCoopMat:
			c = p.coopCost(in)
		case opCall:
			c = 1 + int64(max(in.n, 0))
			for _, n := range p.calls[in.aux].fn.paramN {
				c += int64(n)
			}
		}
		in.cost = uint32(min(c, math.MaxUint32))
	}
}

// edgeCost is the components an edge's phi moves copy.
func (p *Program) edgeCost(e int32) int64 {
	if e < 0 || int(e) >= len(p.edges) {
		return 0
	}
	c := int64(0)
	for _, mv := range p.edges[e].moves {
		c += int64(mv.n)
	}
	return c
}

// refill pays the debt of *credit (<= 0) to the dispatch budget and takes
// a new chunk of credit. It returns ok = false when the dispatch must end
// here: with the fault (budget exceeded, context done), or with none when
// another worker already stopped the dispatch.
func (st *wgState) refill(credit *int64) (f *Fault, ok bool) {
	d := st.d
	if err := d.ctx.Err(); err != nil {
		return &Fault{Kind: FaultCanceled, Msg: err.Error()}, false
	}
	if st.stopped() {
		return nil, false
	}
	if d.unlimited {
		*credit = workChunk
		return nil, true
	}
	need := workChunk - min(*credit, 0)
	left := d.budget.Add(-need)
	if left+workChunk <= 0 {
		d.budget.Add(workChunk) // only the debt was spent
		return &Fault{Kind: FaultStepBudget, Msg: fmt.Sprintf("more than %d units of work done (Options.MaxSteps: instructions, their components × active invocations, bytes moved, workgroups started)", d.maxSteps)}, false
	}
	*credit = min(workChunk, left+workChunk)
	return nil, true
}

// spend charges n units to *credit, refilling it as needed; see refill.
func (st *wgState) spend(credit *int64, n int64) (*Fault, bool) {
	*credit -= n
	if *credit > 0 {
		return nil, true
	}
	return st.refill(credit)
}

// memUnits is the cost of touching n bytes of memory.
func memUnits(n int) int64 { return int64(n)/bytesPerUnit + 1 }

// refill is the subgroup's side of dispatch.refill: a fault is the
// subgroup's, a stopped dispatch ends it.
func (sg *subgroup) refill() bool {
	f, ok := sg.wg.refill(&sg.steps)
	if f != nil {
		sg.setFault(f, nil, nil)
	} else if !ok {
		sg.state = sgDone
	}
	return ok
}

// copyMem copies src to dst (the same length) in pieces, charging each
// to the subgroup. It returns ok = false if the budget or the deadline
// ended the copy (with the fault) or the dispatch stopped (without one).
func (sg *subgroup) copyMem(dst, src []byte) (*Fault, bool) {
	for len(src) > 0 {
		k := min(len(src), memPiece)
		if f, ok := sg.wg.spend(&sg.steps, memUnits(k)); !ok {
			return f, false
		}
		copy(dst[:k], src[:k])
		dst, src = dst[k:], src[k:]
	}
	return nil, true
}

// spendInit charges setting up the invocation memory of n lanes, per
// subgroup so that a deadline is seen between subgroups.
func (st *wgState) spendInit(n int) (*Fault, bool) {
	return st.spend(&st.credit, memUnits(n*int(st.d.p.invSize)))
}

// clearMem zeroes the workgroup memory in pieces, charging each.
func (st *wgState) clearMem() (*Fault, bool) {
	m := st.mem
	for len(m) > 0 {
		k := min(len(m), memPiece)
		if f, ok := st.spend(&st.credit, memUnits(k)); !ok {
			return f, false
		}
		clear(m[:k])
		m = m[k:]
	}
	return nil, true
}
