package interp

import (
	"fmt"
	"math"
	"math/bits"

	"spvx/spirv"
	sgpkg "spvx/subgroup"
)

// Group op kinds.
const (
	gElect = iota
	gAll
	gAny
	gAllEqual
	gBroadcast
	gBroadcastFirst
	gBallot
	gInverseBallot
	gBitExtract
	gBitCount
	gFindLSB
	gFindMSB
	gShuffle
	gShuffleXor
	gShuffleUp
	gShuffleDown
	gReduce // arithmetic with a GroupOperation
	gQuadBroadcast
	gQuadSwap
	gRotate
	gPartition
	gIntelDown
	gIntelUp
	gBlockRead
	gBlockWrite
	gBitcastShuffle
	gSwizzleAMD // SPV_AMD_shader_ballot's extended instructions (amd_ballot.go)
	gSwizzleMaskedAMD
	gWriteInvocationAMD
	gMbcntAMD
)

// Reduction operators.
const (
	rIAdd = iota
	rIMul
	rFAdd
	rFMul
	rSMin
	rUMin
	rFMin
	rSMax
	rUMax
	rFMax
	rAnd
	rOr
	rXor
	rLAnd
	rLOr
	rLXor
)

type groupInfo struct {
	kind    int
	red     int // reduction operator
	groupOp spirv.GroupOperation
	cluster int
	srcT    sgpkg.Type
	dstT    sgpkg.Type
	nsrc    int32
	lv      []leaf
	esize   uint32
	amd     [4]uint8 // SwizzleInvocations(Masked)AMD's constant offsets or masks
}

// finishCollective computes a work-group collective once every subgroup of
// the workgroup has reached it (runGroup calls it), in local-index order.
func (st *wgState) finishCollective(sgs []*subgroup) *Fault {
	var in *inst
	for _, sg := range sgs {
		if sg.state != sgBarrier {
			continue
		}
		if sg.pending == nil || in != nil && sg.pending != in {
			f := &Fault{Kind: FaultBarrier, Msg: "subgroups of a workgroup reached different barriers or work-group functions"}
			sg.describeFault(f, sg.pending)
			return f
		}
		in = sg.pending
	}
	p := sgs[0].p
	g := &p.groups[in.aux]
	S := int32(p.S)
	R := int32(sgs[0].R)
	for c := int32(0); c < max(in.n, 1); c++ {
		var acc uint64
		first := true
		var bsrc uint64
		if g.kind == gBroadcast {
			// LocalId, from the first waiting invocation: a linear local index
			var sg *subgroup
			for _, x := range sgs {
				if x.state == sgBarrier && len(x.frames[x.depth].lanes) > 0 {
					sg = x
					break
				}
			}
			if sg == nil {
				return nil
			}
			l := sg.frames[sg.depth].lanes[0]
			var id [3]uint64
			for k := int32(0); k < g.nsrc; k++ {
				id[k] = sg.regs[(in.b+k)*R+l]
			}
			sz := st.size
			bsrc = id[0] + id[1]*uint64(sz[0]) + id[2]*uint64(sz[0])*uint64(sz[1])
		}
		for _, sg := range sgs {
			if sg.state != sgBarrier {
				continue
			}
			lanes := sg.frames[sg.depth].lanes
			a := sg.regs[(in.a+c)*R : (in.a+c)*R+S]
			d := sg.regs[(in.dst+c)*R : (in.dst+c)*R+S]
			for _, l := range lanes {
				v := a[l]
				switch g.kind {
				case gAll:
					if first {
						acc = 1
					}
					acc &= v
				case gAny:
					acc |= v
				case gBroadcast:
					if uint64(sg.localIdx[l]) == bsrc {
						acc = v
					}
				default:
					if g.groupOp == spirv.GroupOperationExclusiveScan {
						if first {
							d[l] = identityOf(g.red, in.sc)
						} else {
							d[l] = acc
						}
					}
					if first {
						acc = v
					} else {
						acc = combine(g.red, acc, v, in.sc)
					}
					if g.groupOp == spirv.GroupOperationInclusiveScan {
						d[l] = acc
					}
				}
				first = false
			}
		}
		if g.kind != gReduce || g.groupOp == spirv.GroupOperationReduce {
			for _, sg := range sgs {
				if sg.state != sgBarrier {
					continue
				}
				d := sg.regs[(in.dst+c)*R : (in.dst+c)*R+S]
				for _, l := range sg.frames[sg.depth].lanes {
					d[l] = acc
				}
			}
		}
	}
	return nil
}

func kindOf(t *tinfo) sgpkg.Kind {
	switch t.sc.kind {
	case skInt:
		return sgpkg.Int
	case skFloat:
		return sgpkg.Float
	}
	return sgpkg.Other
}

// identityOf is the identity of a reduction operator for s.
func identityOf(red int, s scalar) uint64 {
	m := s.mask()
	switch red {
	case rIMul:
		return 1
	case rFMul:
		return fromF64(1, s, 0, false)
	case rFAdd:
		return fromF64(0, s, 0, false)
	case rSMin:
		return m >> 1
	case rUMin, rAnd:
		return m
	case rFMin:
		return fromF64(math.Inf(1), s, 0, false)
	case rSMax:
		return (m >> 1) ^ m
	case rFMax:
		return fromF64(math.Inf(-1), s, 0, false)
	case rLAnd:
		return 1
	}
	return 0
}

func combine(red int, x, y uint64, s scalar) uint64 {
	m := s.mask()
	switch red {
	case rIAdd:
		return (x + y) & m
	case rIMul:
		return (x * y) & m
	case rFAdd:
		return fbin(bFAdd, x, y, s)
	case rFMul:
		return fbin(bFMul, x, y, s)
	case rSMin:
		return binTab[bSMin](x, y, s)
	case rUMin:
		return min(x, y)
	case rFMin:
		return fbin(bFMin, x, y, s)
	case rSMax:
		return binTab[bSMax](x, y, s)
	case rUMax:
		return max(x, y)
	case rFMax:
		return fbin(bFMax, x, y, s)
	case rAnd, rLAnd:
		return x & y
	case rOr, rLOr:
		return x | y
	}
	return x ^ y
}

// reduceLanes folds the active lanes of column a with red in lane order,
// as combine would one lane at a time (id for no lane). The common
// reductions have loops of their own: the reduction kernels spend their
// time here.
func reduceLanes(red int, a []uint64, lanes []int32, s scalar, id uint64) uint64 {
	if len(lanes) == 0 {
		return id
	}
	acc, rest := a[lanes[0]], lanes[1:]
	switch {
	case red == rFAdd && s.enc == encIEEE && s.width == 32:
		f := math.Float32frombits(uint32(acc))
		for _, l := range rest {
			f += math.Float32frombits(uint32(a[l]))
		}
		return uint64(math.Float32bits(f))
	case red == rFAdd && s.enc == encIEEE && s.width == 64:
		f := math.Float64frombits(acc)
		for _, l := range rest {
			f += math.Float64frombits(a[l])
		}
		return math.Float64bits(f)
	case red == rIAdd:
		for _, l := range rest {
			acc += a[l]
		}
		return acc & s.mask()
	case red == rAnd || red == rLAnd:
		for _, l := range rest {
			acc &= a[l]
		}
		return acc
	case red == rOr || red == rLOr:
		for _, l := range rest {
			acc |= a[l]
		}
		return acc
	case red == rUMin:
		for _, l := range rest {
			acc = min(acc, a[l])
		}
		return acc
	case red == rUMax:
		for _, l := range rest {
			acc = max(acc, a[l])
		}
		return acc
	}
	for _, l := range rest {
		acc = combine(red, acc, a[l], s)
	}
	return acc
}

// group runs a subgroup instruction over the active lanes.
func (sg *subgroup) group(in *inst, lanes []int32) *Fault {
	g := &sg.p.groups[in.aux]
	S := int32(sg.S)
	R := int32(sg.R)
	r := sg.regs
	n := in.n
	ballotBit := func(slot int32, l int32, bit uint64) bool {
		if bit >= 128 {
			return false
		}
		return r[(slot+int32(bit/32))*R+l]>>(bit%32)&1 != 0
	}
	switch g.kind {
	case gElect:
		d := sg.col(in.dst)
		for _, l := range lanes {
			d[l] = b2u(l == lanes[0])
		}
	case gAll, gAny:
		a := sg.col(in.a)
		acc := b2u(g.kind == gAll)
		for _, l := range lanes {
			if g.kind == gAll {
				acc &= a[l]
			} else {
				acc |= a[l]
			}
		}
		d := sg.col(in.dst)
		for _, l := range lanes {
			d[l] = acc
		}
	case gAllEqual:
		eq := uint64(1)
		for c := int32(0); c < g.nsrc; c++ {
			a := sg.col(in.a + c)
			for _, l := range lanes {
				if a[l] != a[lanes[0]] {
					eq = 0
				}
			}
		}
		d := sg.col(in.dst)
		for _, l := range lanes {
			d[l] = eq
		}
	case gBallot:
		var w [4]uint64
		a := sg.col(in.a)
		for _, l := range lanes {
			if a[l] != 0 {
				w[l/32] |= 1 << (l % 32)
			}
		}
		for c := int32(0); c < 4; c++ {
			d := sg.col(in.dst + c)
			for _, l := range lanes {
				d[l] = w[c]
			}
		}
	case gInverseBallot:
		d := sg.col(in.dst)
		for _, l := range lanes {
			d[l] = b2u(ballotBit(in.a, l, uint64(l)))
		}
	case gBitExtract:
		d, ix := sg.col(in.dst), sg.col(in.b)
		for _, l := range lanes {
			d[l] = b2u(ballotBit(in.a, l, ix[l]))
		}
	case gBitCount, gFindLSB, gFindMSB:
		return sg.groupBallotScan(in, g, lanes)
	case gBroadcast, gBroadcastFirst, gShuffle, gShuffleXor, gShuffleUp, gShuffleDown, gQuadBroadcast, gQuadSwap, gRotate:
		return sg.groupShuffle(in, g, lanes)
	case gIntelDown, gIntelUp:
		return sg.groupIntelShuffle(in, g, lanes)
	case gReduce:
		return sg.reduce(in, g, lanes)
	case gSwizzleAMD, gSwizzleMaskedAMD, gWriteInvocationAMD, gMbcntAMD:
		return sg.amdBallot(in, g, lanes)
	case gPartition:
		for _, l := range lanes {
			var w [4]uint64
			for _, o := range lanes {
				eq := true
				for c := int32(0); c < g.nsrc; c++ {
					if r[(in.a+c)*R+l] != r[(in.a+c)*R+o] {
						eq = false
					}
				}
				if eq {
					w[o/32] |= 1 << (o % 32)
				}
			}
			for c := int32(0); c < 4; c++ {
				r[(in.dst+c)*R+l] = w[c]
			}
		}
	case gBlockRead, gBlockWrite:
		ptr := sg.col(in.a)[lanes[0]]
		es := int(g.esize)
		total := es * int(S) * int(n)
		m, off, f := sg.deref(ptr, total, lanes[0])
		if f != nil {
			return f
		}
		for c := int32(0); c < n; c++ {
			for _, l := range lanes {
				at := off + (int(c)*int(S)+int(l))*es
				if g.kind == gBlockRead {
					r[(in.dst+c)*R+l] = getLE(m[at:], uint8(es))
				} else {
					putLE(m[at:], uint8(es), r[(in.b+c)*R+l])
				}
			}
		}
	case gBitcastShuffle:
		if sg.n != sg.S || len(lanes) != sg.S {
			return &Fault{Kind: FaultSubgroup, Msg: fmt.Sprintf("OpSubgroupBitcastShuffleINTEL executed by %d of %d invocations (subgroup of %d present): undefined unless all invocations of a full subgroup execute it together", len(lanes), sg.S, sg.n)}
		}
		cs, cd := int(g.nsrc), int(n)
		need := int(S) * max(cs, cd)
		if len(sg.bsrc) < need {
			sg.bsrc, sg.bdst = make([]uint64, need), make([]uint64, need)
		}
		src, dst := sg.bsrc[:int(S)*cs], sg.bdst[:int(S)*cd]
		for i := 0; i < int(S); i++ {
			for c := 0; c < cs; c++ {
				src[i*cs+c] = r[(in.a+int32(c))*R+int32(i)]
			}
		}
		if err := sgpkg.BitcastShuffle(dst, src, g.srcT, g.dstT, int(S)); err != nil {
			return &Fault{Kind: FaultSubgroup, Msg: err.Error()}
		}
		for i := 0; i < int(S); i++ {
			for c := 0; c < cd; c++ {
				r[(in.dst+int32(c))*R+int32(i)] = dst[i*cd+c]
			}
		}
	}
	return nil
}

// setLanes copies the given lanes of vals (the scratch column a group
// operation filled) into slot s.
func (sg *subgroup) setLanes(s int32, vals []uint64, lanes []int32) {
	d := sg.col(s)
	for _, l := range lanes {
		d[l] = vals[l]
	}
}

// reduce runs reductions and scans (plain, clustered, partitioned).
func (sg *subgroup) reduce(in *inst, g *groupInfo, lanes []int32) *Fault {
	R := int32(sg.R)
	r := sg.regs
	s := in.sc
	id := identityOf(g.red, s)
	tmp := sg.gscratch
	for c := int32(0); c < in.n; c++ {
		a := sg.col(in.a + c)
		if len(lanes) == len(a) && sg.reduceDense(in, g, sg.col(in.dst+c), a) {
			continue
		}
		switch g.groupOp {
		case spirv.GroupOperationReduce:
			acc := reduceLanes(g.red, a, lanes, s, id)
			for _, l := range lanes {
				tmp[l] = acc
			}
		case spirv.GroupOperationInclusiveScan, spirv.GroupOperationExclusiveScan:
			acc := id
			first := true
			for _, l := range lanes {
				if g.groupOp == spirv.GroupOperationExclusiveScan {
					tmp[l] = acc
				}
				if first {
					acc, first = a[l], false
				} else {
					acc = combine(g.red, acc, a[l], s)
				}
				if g.groupOp == spirv.GroupOperationInclusiveScan {
					tmp[l] = acc
				}
			}
		case spirv.GroupOperationClusteredReduce:
			cs := int32(g.cluster)
			for _, l := range lanes {
				base := l / cs * cs
				acc, first := id, true
				for _, o := range lanes {
					if o >= base && o < base+cs {
						if first {
							acc, first = a[o], false
						} else {
							acc = combine(g.red, acc, a[o], s)
						}
					}
				}
				tmp[l] = acc
			}
		default: // partitioned: the ballot operand gives each lane's partition
			for _, l := range lanes {
				acc, first := id, true
				for _, o := range lanes {
					if o > l && g.groupOp != spirv.GroupOperationPartitionedReduceEXT {
						break
					}
					if o == l && g.groupOp == spirv.GroupOperationPartitionedExclusiveScanEXT {
						break
					}
					if r[(in.b+o/32)*R+l]>>(o%32)&1 == 0 {
						continue
					}
					if first {
						acc, first = a[o], false
					} else {
						acc = combine(g.red, acc, a[o], s)
					}
				}
				tmp[l] = acc
			}
		}
		sg.setLanes(in.dst+c, tmp, lanes)
	}
	return nil
}

// groupBallotScan runs OpGroupNonUniformBallotBitCount, FindLSB and FindMSB.
func (sg *subgroup) groupBallotScan(in *inst, g *groupInfo, lanes []int32) *Fault {
	S := int32(sg.S)
	R := int32(sg.R)
	r := sg.regs
	switch g.kind {
	case gBitCount, gFindLSB, gFindMSB:
		d := sg.col(in.dst)
		for _, l := range lanes {
			var w [2]uint64
			for c := int32(0); c < 4; c++ {
				w[c/2] |= (r[(in.a+c)*R+l] & 0xFFFFFFFF) << (32 * (c % 2))
			}
			// only the subgroup's bits count
			if S < 64 {
				w[0] &= 1<<S - 1
				w[1] = 0
			} else if S < 128 {
				w[1] &= 1<<(S-64) - 1
			}
			switch g.kind {
			case gBitCount:
				var lim [2]uint64
				switch g.groupOp {
				case spirv.GroupOperationReduce:
					lim = [2]uint64{^uint64(0), ^uint64(0)}
				default:
					k := int(l)
					if g.groupOp == spirv.GroupOperationInclusiveScan {
						k++
					}
					if k >= 64 {
						lim[0] = ^uint64(0)
						if k-64 >= 64 {
							lim[1] = ^uint64(0)
						} else {
							lim[1] = 1<<(k-64) - 1
						}
					} else {
						lim[0] = 1<<k - 1
					}
				}
				d[l] = uint64(bits.OnesCount64(w[0]&lim[0]) + bits.OnesCount64(w[1]&lim[1]))
			case gFindLSB:
				switch {
				case w[0] != 0:
					d[l] = uint64(bits.TrailingZeros64(w[0]))
				case w[1] != 0:
					d[l] = uint64(64 + bits.TrailingZeros64(w[1]))
				default:
					d[l] = 0xFFFFFFFF
				}
			default:
				switch {
				case w[1] != 0:
					d[l] = uint64(127 - bits.LeadingZeros64(w[1]))
				case w[0] != 0:
					d[l] = uint64(63 - bits.LeadingZeros64(w[0]))
				default:
					d[l] = 0xFFFFFFFF
				}
			}
			d[l] &= in.sc.mask()
		}
	}
	return nil
}

// groupShuffle runs the broadcasts, shuffles, quad operations and rotates: each lane reads another lane's value.
func (sg *subgroup) groupShuffle(in *inst, g *groupInfo, lanes []int32) *Fault {
	S := int32(sg.S)
	var act [2]uint64
	for _, l := range lanes {
		act[l/64] |= 1 << (l % 64)
	}
	isActive := func(l int32) bool { return l >= 0 && l < S && act[l/64]>>(l%64)&1 != 0 }
	n := in.n
	switch g.kind {
	case gBroadcast, gBroadcastFirst, gShuffle, gShuffleXor, gShuffleUp, gShuffleDown, gQuadBroadcast, gQuadSwap, gRotate:
		// source lane per lane, then a gather through scratch (the result
		// may not alias the operand, but keep it simple and safe)
		src := sg.gsrc[:S]
		var bv []uint64
		if in.b >= 0 {
			bv = sg.col(in.b)
		}
		for _, l := range lanes {
			var s int64
			switch g.kind {
			case gBroadcast:
				s = int64(bv[lanes[0]])
			case gBroadcastFirst:
				s = int64(lanes[0])
			case gShuffle:
				s = int64(bv[l])
			case gShuffleXor:
				s = int64(uint64(l) ^ bv[l])
			case gShuffleUp:
				s = int64(l) - int64(bv[l])
			case gShuffleDown:
				s = int64(l) + int64(bv[l])
			case gQuadBroadcast:
				s = int64(l&^3) + int64(bv[lanes[0]]&3)
			case gQuadSwap:
				s = int64(l) ^ int64(bv[lanes[0]]+1)
			case gRotate:
				delta := int64(bv[lanes[0]])
				if g.cluster > 0 {
					cs := int64(g.cluster)
					base := int64(l) / cs * cs
					s = base + (int64(l)-base+delta)%cs
				} else {
					s = (int64(l) + delta) % int64(S)
				}
			}
			if s < 0 || s >= int64(S) || !isActive(int32(s)) {
				if sg.p.opts.Strict {
					return &Fault{Kind: FaultSubgroup, Lane: uint32(l), Msg: fmt.Sprintf("reads invocation %d, which is not active", s)}
				}
				if s < 0 || s >= int64(S) {
					s = -1
				}
			}
			src[l] = int32(s)
		}
		tmp := sg.gscratch
		for c := int32(0); c < n; c++ {
			a := sg.col(in.a + c)
			for _, l := range lanes {
				if src[l] < 0 {
					tmp[l] = 0
				} else {
					tmp[l] = a[src[l]]
				}
			}
			sg.setLanes(in.dst+c, tmp, lanes)
		}
	}
	return nil
}

// groupIntelShuffle runs OpSubgroupShuffleDownINTEL and OpSubgroupShuffleUpINTEL, which read across two values.
func (sg *subgroup) groupIntelShuffle(in *inst, g *groupInfo, lanes []int32) *Fault {
	S := int32(sg.S)
	n := in.n
	switch g.kind {
	case gIntelDown, gIntelUp:
		dl := sg.col(in.c)
		tmp := sg.gscratch
		for c := int32(0); c < n; c++ {
			cur, other := sg.col(in.a+c), sg.col(in.b+c)
			if g.kind == gIntelUp {
				cur, other = sg.col(in.b+c), sg.col(in.a+c) // (previous, current)
			}
			for _, l := range lanes {
				delta := int64(dl[l])
				var idx int64
				if g.kind == gIntelDown {
					idx = int64(l) + delta
					if idx < int64(S) {
						tmp[l] = cur[idx]
					} else if idx < 2*int64(S) {
						tmp[l] = other[idx-int64(S)]
					} else {
						tmp[l] = 0
					}
				} else {
					idx = int64(l) - delta
					if idx >= 0 {
						tmp[l] = cur[idx]
					} else if idx+int64(S) >= 0 {
						tmp[l] = other[idx+int64(S)]
					} else {
						tmp[l] = 0
					}
				}
			}
			sg.setLanes(in.dst+c, tmp, lanes)
		}
	}
	return nil
}

// reduceDense runs a reduction, scan or clustered reduction over every
// lane of a full subgroup: contiguous loops without the lane list or the
// scratch column, folding in lane order as reduce does (the result may be
// the operand's register: each lane's operand is read before its result
// is written). It reports false for the partitioned operations.
func (sg *subgroup) reduceDense(in *inst, g *groupInfo, d, a []uint64) bool {
	s := in.sc
	a = a[:len(d)]
	switch g.groupOp {
	case spirv.GroupOperationReduce:
		fill(d, reduceDenseCol(g.red, a, s))
	case spirv.GroupOperationInclusiveScan, spirv.GroupOperationExclusiveScan:
		scanDense(g.red, d, a, s, g.groupOp == spirv.GroupOperationExclusiveScan)
	case spirv.GroupOperationClusteredReduce:
		cs := max(g.cluster, 1)
		for base := 0; base < len(a); base += cs {
			end := min(base+cs, len(a))
			fill(d[base:end], reduceDenseCol(g.red, a[base:end], s))
		}
	default:
		return false
	}
	return true
}

// reduceDenseCol folds the non-empty column a with red in lane order:
// reduceLanes without the lane list.
func reduceDenseCol(red int, a []uint64, s scalar) uint64 {
	acc, rest := a[0], a[1:]
	switch {
	case red == rFAdd && s.enc == encIEEE && s.width == 32:
		f := math.Float32frombits(uint32(acc))
		for _, v := range rest {
			f += math.Float32frombits(uint32(v))
		}
		return uint64(math.Float32bits(f))
	case red == rFAdd && s.enc == encIEEE && s.width == 64:
		f := math.Float64frombits(acc)
		for _, v := range rest {
			f += math.Float64frombits(v)
		}
		return math.Float64bits(f)
	case red == rIAdd:
		for _, v := range rest {
			acc += v
		}
		return acc & s.mask()
	case red == rAnd || red == rLAnd:
		for _, v := range rest {
			acc &= v
		}
		return acc
	case red == rOr || red == rLOr:
		for _, v := range rest {
			acc |= v
		}
		return acc
	case red == rUMin:
		for _, v := range rest {
			acc = min(acc, v)
		}
		return acc
	case red == rUMax:
		for _, v := range rest {
			acc = max(acc, v)
		}
		return acc
	}
	for _, v := range rest {
		acc = combine(red, acc, v, s)
	}
	return acc
}

// scanDense is the inclusive (or exclusive) scan of the non-empty column
// a into d in lane order. The first lane's value starts the fold as is
// (not combined with the identity, which would turn -0.0 into +0.0).
func scanDense(red int, d, a []uint64, s scalar, excl bool) {
	d = d[:len(a)]
	if red == rFAdd && s.enc == encIEEE && s.width == 32 {
		f := math.Float32frombits(uint32(a[0]))
		if excl {
			d[0] = identityOf(red, s)
		} else {
			d[0] = a[0]
		}
		for l := 1; l < len(a); l++ {
			v := math.Float32frombits(uint32(a[l]))
			if excl {
				d[l] = uint64(math.Float32bits(f))
			}
			f += v
			if !excl {
				d[l] = uint64(math.Float32bits(f))
			}
		}
		return
	}
	acc := a[0]
	if excl {
		d[0] = identityOf(red, s)
	} else {
		d[0] = acc
	}
	for l := 1; l < len(a); l++ {
		v := a[l]
		if excl {
			d[l] = acc
		}
		acc = combine(red, acc, v, s)
		if !excl {
			d[l] = acc
		}
	}
}
