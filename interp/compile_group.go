package interp

import (
	"fmt"

	"spvx/spirv"
	sgpkg "spvx/subgroup"
)

var reduceOps = map[spirv.Opcode]int{
	spirv.OpGroupNonUniformIAdd: rIAdd, spirv.OpGroupNonUniformIMul: rIMul, spirv.OpGroupNonUniformFAdd: rFAdd,
	spirv.OpGroupNonUniformFMul: rFMul, spirv.OpGroupNonUniformSMin: rSMin, spirv.OpGroupNonUniformUMin: rUMin,
	spirv.OpGroupNonUniformFMin: rFMin, spirv.OpGroupNonUniformSMax: rSMax, spirv.OpGroupNonUniformUMax: rUMax,
	spirv.OpGroupNonUniformFMax: rFMax, spirv.OpGroupNonUniformBitwiseAnd: rAnd, spirv.OpGroupNonUniformBitwiseOr: rOr,
	spirv.OpGroupNonUniformBitwiseXor: rXor, spirv.OpGroupNonUniformLogicalAnd: rLAnd, spirv.OpGroupNonUniformLogicalOr: rLOr,
	spirv.OpGroupNonUniformLogicalXor: rLXor,
	// OpenCL work-group / sub-group functions (Subgroup scope only)
	spirv.OpGroupIAdd: rIAdd, spirv.OpGroupFAdd: rFAdd, spirv.OpGroupFMin: rFMin, spirv.OpGroupUMin: rUMin,
	spirv.OpGroupSMin: rSMin, spirv.OpGroupFMax: rFMax, spirv.OpGroupUMax: rUMax, spirv.OpGroupSMax: rSMax,
	spirv.OpGroupIMulKHR: rIMul, spirv.OpGroupFMulKHR: rFMul, spirv.OpGroupBitwiseAndKHR: rAnd,
	spirv.OpGroupBitwiseOrKHR: rOr, spirv.OpGroupBitwiseXorKHR: rXor, spirv.OpGroupLogicalAndKHR: rLAnd,
	spirv.OpGroupLogicalOrKHR: rLOr, spirv.OpGroupLogicalXorKHR: rLXor,
}

// groupOp compiles the subgroup instructions. It reports false for an
// opcode it does not know.
func (c *compiler) groupOp(opc spirv.Opcode, result uint32, ops []uint32) (bool, error) {
	var g groupInfo
	var rest []uint32
	scoped := true
	wgScope := false
	switch opc {
	case spirv.OpGroupNonUniformElect:
		g.kind = gElect
	case spirv.OpGroupNonUniformAll, spirv.OpGroupAll:
		g.kind = gAll
	case spirv.OpGroupNonUniformAny, spirv.OpGroupAny:
		g.kind = gAny
	case spirv.OpGroupNonUniformAllEqual:
		g.kind = gAllEqual
	case spirv.OpGroupNonUniformBroadcast, spirv.OpGroupBroadcast:
		g.kind = gBroadcast
	case spirv.OpGroupNonUniformBroadcastFirst:
		g.kind = gBroadcastFirst
	case spirv.OpGroupNonUniformBallot:
		g.kind = gBallot
	case spirv.OpGroupNonUniformInverseBallot:
		g.kind = gInverseBallot
	case spirv.OpGroupNonUniformBallotBitExtract:
		g.kind = gBitExtract
	case spirv.OpGroupNonUniformBallotBitCount:
		g.kind = gBitCount
	case spirv.OpGroupNonUniformBallotFindLSB:
		g.kind = gFindLSB
	case spirv.OpGroupNonUniformBallotFindMSB:
		g.kind = gFindMSB
	case spirv.OpGroupNonUniformShuffle:
		g.kind = gShuffle
	case spirv.OpGroupNonUniformShuffleXor:
		g.kind = gShuffleXor
	case spirv.OpGroupNonUniformShuffleUp:
		g.kind = gShuffleUp
	case spirv.OpGroupNonUniformShuffleDown:
		g.kind = gShuffleDown
	case spirv.OpGroupNonUniformQuadBroadcast:
		g.kind = gQuadBroadcast
	case spirv.OpGroupNonUniformQuadSwap:
		g.kind = gQuadSwap
	case spirv.OpGroupNonUniformRotateKHR:
		g.kind = gRotate
	case spirv.OpGroupNonUniformPartitionNV:
		g.kind, scoped = gPartition, false
	case spirv.OpSubgroupBallotKHR:
		g.kind, scoped = gBallot, false
	case spirv.OpSubgroupFirstInvocationKHR:
		g.kind, scoped = gBroadcastFirst, false
	case spirv.OpSubgroupAllKHR:
		g.kind, scoped = gAll, false
	case spirv.OpSubgroupAnyKHR:
		g.kind, scoped = gAny, false
	case spirv.OpSubgroupAllEqualKHR:
		g.kind, scoped = gAllEqual, false
	case spirv.OpSubgroupReadInvocationKHR, spirv.OpSubgroupShuffleINTEL:
		g.kind, scoped = gShuffle, false
	case spirv.OpSubgroupShuffleXorINTEL:
		g.kind, scoped = gShuffleXor, false
	case spirv.OpSubgroupShuffleDownINTEL:
		g.kind, scoped = gIntelDown, false
	case spirv.OpSubgroupShuffleUpINTEL:
		g.kind, scoped = gIntelUp, false
	case spirv.OpSubgroupBlockReadINTEL:
		g.kind, scoped = gBlockRead, false
	case spirv.OpSubgroupBlockWriteINTEL:
		g.kind, scoped = gBlockWrite, false
	case spirv.OpSubgroupBitcastShuffleINTEL:
		g.kind, scoped = gBitcastShuffle, false
	default:
		red, ok := reduceOps[opc]
		if !ok {
			return false, nil
		}
		g.kind, g.red = gReduce, red
	}
	rest = ops
	if scoped {
		if len(rest) < 1 {
			return true, errOps(opc)
		}
		sc, ok := c.constScalar(rest[0])
		if !ok {
			return true, fmt.Errorf("%s: the scope is not a constant", opc)
		}
		if sc == uint64(spirv.ScopeWorkgroup) && isWGCollective(opc) {
			wgScope = true
		} else if sc != uint64(spirv.ScopeSubgroup) {
			return true, fmt.Errorf("%s: only Subgroup scope is supported here (got scope %d)", opc, sc)
		}
		rest = rest[1:]
	}
	if g.kind == gReduce || g.kind == gBitCount {
		if len(rest) < 1 {
			return true, errOps(opc)
		}
		g.groupOp = spirv.GroupOperation(rest[0])
		rest = rest[1:]
		switch g.groupOp {
		case spirv.GroupOperationReduce, spirv.GroupOperationInclusiveScan, spirv.GroupOperationExclusiveScan:
		case spirv.GroupOperationClusteredReduce, spirv.GroupOperationPartitionedReduceEXT,
			spirv.GroupOperationPartitionedInclusiveScanEXT, spirv.GroupOperationPartitionedExclusiveScanEXT:
			if g.kind == gBitCount {
				return true, fmt.Errorf("%s: group operation %d not allowed", opc, g.groupOp)
			}
		default:
			return true, fmt.Errorf("%s: unknown group operation %d", opc, g.groupOp)
		}
	}
	in := inst{op: opGroup, a: -1, b: -1, c: -1}
	var rt *tinfo
	if result != 0 {
		d, t, err := c.slot(result)
		if err != nil {
			return true, err
		}
		in.dst, rt = d, t
		in.n, in.sc = int32(t.ncomp), t.sc
	}
	vals := make([]*tinfo, len(rest))
	slots := make([]int32, len(rest))
	for k, id := range rest {
		s, t, err := c.val(id)
		if err != nil {
			return true, err
		}
		vals[k], slots[k] = t, s
	}
	nargs := map[int]int{gElect: 0, gAll: 1, gAny: 1, gAllEqual: 1, gBroadcast: 2, gBroadcastFirst: 1, gBallot: 1,
		gInverseBallot: 1, gBitExtract: 2, gBitCount: 1, gFindLSB: 1, gFindMSB: 1, gShuffle: 2, gShuffleXor: 2,
		gShuffleUp: 2, gShuffleDown: 2, gReduce: 1, gQuadBroadcast: 2, gQuadSwap: 2, gRotate: 2, gPartition: 1,
		gIntelDown: 3, gIntelUp: 3, gBlockRead: 1, gBlockWrite: 2, gBitcastShuffle: 1}[g.kind]
	if len(rest) < nargs {
		return true, errOps(opc)
	}
	for k := 0; k < len(slots) && k < 3; k++ {
		switch k {
		case 0:
			in.a = slots[0]
		case 1:
			in.b = slots[1]
		case 2:
			in.c = slots[2]
		}
	}
	chk := func(ok bool) error {
		if !ok {
			return fmt.Errorf("%s: operand types do not match", opc)
		}
		return nil
	}
	var err error
	switch g.kind {
	case gElect:
		err = chk(rt != nil && rt.ncomp == 1)
	case gAll, gAny:
		err = chk(rt.ncomp == 1 && vals[0].ncomp == 1)
	case gAllEqual:
		err = chk(rt.ncomp == 1)
		g.nsrc = int32(vals[0].ncomp)
	case gBroadcast, gShuffle, gShuffleXor, gShuffleUp, gShuffleDown, gQuadBroadcast, gQuadSwap, gRotate:
		err = chk(vals[0].ncomp == rt.ncomp && vals[1].ncomp == 1)
		if g.kind == gQuadSwap {
			v, ok := c.constScalar(rest[1])
			if !ok || v > 2 {
				return true, fmt.Errorf("%s: Direction must be a constant 0, 1 or 2", opc)
			}
		}
		if g.kind == gRotate && len(rest) > 2 {
			v, ok := c.constScalar(rest[2])
			if !ok || v == 0 || v&(v-1) != 0 || v > 128 {
				return true, fmt.Errorf("%s: ClusterSize must be a constant power of two", opc)
			}
			g.cluster = int(v)
			in.c = -1
		}
	case gBroadcastFirst:
		err = chk(vals[0].ncomp == rt.ncomp)
	case gBallot:
		err = chk(rt.ncomp == 4 && vals[0].ncomp == 1)
	case gInverseBallot:
		err = chk(rt.ncomp == 1 && vals[0].ncomp == 4)
	case gBitExtract:
		err = chk(rt.ncomp == 1 && vals[0].ncomp == 4 && vals[1].ncomp == 1)
	case gBitCount, gFindLSB, gFindMSB:
		err = chk(rt.ncomp == 1 && vals[0].ncomp == 4)
	case gPartition:
		err = chk(rt.ncomp == 4)
		g.nsrc = int32(vals[0].ncomp)
	case gReduce:
		err = chk(vals[0].ncomp == rt.ncomp)
		if g.groupOp == spirv.GroupOperationClusteredReduce {
			if len(rest) < 2 {
				return true, fmt.Errorf("%s: ClusteredReduce needs a ClusterSize", opc)
			}
			v, ok := c.constScalar(rest[1])
			if !ok || v == 0 || v&(v-1) != 0 || v > 128 {
				return true, fmt.Errorf("%s: ClusterSize must be a constant power of two", opc)
			}
			g.cluster = int(v)
		}
		if g.groupOp >= spirv.GroupOperationPartitionedReduceEXT {
			if len(rest) < 2 || vals[1].ncomp != 4 {
				return true, fmt.Errorf("%s: a partitioned operation needs a ballot", opc)
			}
		}
	case gIntelDown, gIntelUp:
		err = chk(vals[0].ncomp == rt.ncomp && vals[1].ncomp == rt.ncomp && vals[2].ncomp == 1)
	case gBlockRead, gBlockWrite:
		pt := vals[0]
		vt := rt
		if g.kind == gBlockWrite {
			vt = vals[1]
		}
		pi := c.ptrs[rest[0]]
		if pt.kind != spirv.TypePointer || pi == nil {
			return true, fmt.Errorf("%s: not a pointer", opc)
		}
		if err := c.layout(pi.pointee); err != nil {
			return true, err
		}
		es := uint32(vt.sc.width / 8)
		if vt.sc.kind != skInt || es == 0 {
			return true, fmt.Errorf("%s: data must be integers", opc)
		}
		g.esize = es
		in.n = int32(vt.ncomp)
	case gBitcastShuffle:
		st, dt := vals[0], rt
		g.srcT = sgpkg.Type{Kind: kindOf(st), Width: int(st.sc.width), Components: st.ncomp, Signed: st.sc.signed}
		g.dstT = sgpkg.Type{Kind: kindOf(dt), Width: int(dt.sc.width), Components: dt.ncomp, Signed: dt.sc.signed}
		if st.vec != st.ncomp || dt.vec != dt.ncomp {
			return true, fmt.Errorf("%s: operand and result must be scalars or vectors", opc)
		}
		if e := sgpkg.CheckSupported(g.srcT, g.dstT); e != nil {
			return true, fmt.Errorf("%s: %v", opc, e)
		}
		g.nsrc = int32(st.ncomp)
	}
	if err != nil {
		return true, err
	}
	if wgScope {
		if g.groupOp == spirv.GroupOperationClusteredReduce || g.groupOp >= spirv.GroupOperationPartitionedReduceEXT {
			return true, fmt.Errorf("%s: group operation %d at Workgroup scope", opc, g.groupOp)
		}
		if g.kind == gBroadcast {
			if len(vals) < 2 || vals[1].ncomp > 3 {
				return true, fmt.Errorf("%s: LocalId must be a scalar or a vector of 2 or 3", opc)
			}
			g.nsrc = int32(vals[1].ncomp)
		}
		in.op = opWGGroup
	}
	c.p.groups = append(c.p.groups, g)
	in.aux = int32(len(c.p.groups) - 1)
	c.emit(in)
	return true, nil
}

// isWGCollective reports the OpenCL work-group functions the executor runs
// at Workgroup scope.
func isWGCollective(op spirv.Opcode) bool {
	switch op {
	case spirv.OpGroupAll, spirv.OpGroupAny, spirv.OpGroupBroadcast, spirv.OpGroupIAdd, spirv.OpGroupFAdd,
		spirv.OpGroupFMin, spirv.OpGroupUMin, spirv.OpGroupSMin, spirv.OpGroupFMax, spirv.OpGroupUMax, spirv.OpGroupSMax,
		spirv.OpGroupIMulKHR, spirv.OpGroupFMulKHR, spirv.OpGroupBitwiseAndKHR, spirv.OpGroupBitwiseOrKHR,
		spirv.OpGroupBitwiseXorKHR, spirv.OpGroupLogicalAndKHR, spirv.OpGroupLogicalOrKHR, spirv.OpGroupLogicalXorKHR:
		return true
	}
	return false
}
