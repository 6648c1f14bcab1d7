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

// groupKinds gives the kind of each group instruction that is not a
// reduction, and whether its first operand is a scope.
var groupKinds = map[spirv.Opcode]struct {
	kind   int
	scoped bool
}{
	spirv.OpGroupNonUniformElect:            {gElect, true},
	spirv.OpGroupNonUniformAll:              {gAll, true},
	spirv.OpGroupAll:                        {gAll, true},
	spirv.OpGroupNonUniformAny:              {gAny, true},
	spirv.OpGroupAny:                        {gAny, true},
	spirv.OpGroupNonUniformAllEqual:         {gAllEqual, true},
	spirv.OpGroupNonUniformBroadcast:        {gBroadcast, true},
	spirv.OpGroupBroadcast:                  {gBroadcast, true},
	spirv.OpGroupNonUniformBroadcastFirst:   {gBroadcastFirst, true},
	spirv.OpGroupNonUniformBallot:           {gBallot, true},
	spirv.OpGroupNonUniformInverseBallot:    {gInverseBallot, true},
	spirv.OpGroupNonUniformBallotBitExtract: {gBitExtract, true},
	spirv.OpGroupNonUniformBallotBitCount:   {gBitCount, true},
	spirv.OpGroupNonUniformBallotFindLSB:    {gFindLSB, true},
	spirv.OpGroupNonUniformBallotFindMSB:    {gFindMSB, true},
	spirv.OpGroupNonUniformShuffle:          {gShuffle, true},
	spirv.OpGroupNonUniformShuffleXor:       {gShuffleXor, true},
	spirv.OpGroupNonUniformShuffleUp:        {gShuffleUp, true},
	spirv.OpGroupNonUniformShuffleDown:      {gShuffleDown, true},
	spirv.OpGroupNonUniformQuadBroadcast:    {gQuadBroadcast, true},
	spirv.OpGroupNonUniformQuadSwap:         {gQuadSwap, true},
	spirv.OpGroupNonUniformRotateKHR:        {gRotate, true},
	spirv.OpGroupNonUniformPartitionNV:      {gPartition, false},
	spirv.OpSubgroupBallotKHR:               {gBallot, false},
	spirv.OpSubgroupFirstInvocationKHR:      {gBroadcastFirst, false},
	spirv.OpSubgroupAllKHR:                  {gAll, false},
	spirv.OpSubgroupAnyKHR:                  {gAny, false},
	spirv.OpSubgroupAllEqualKHR:             {gAllEqual, false},
	spirv.OpSubgroupReadInvocationKHR:       {gShuffle, false},
	spirv.OpSubgroupShuffleINTEL:            {gShuffle, false},
	spirv.OpSubgroupShuffleXorINTEL:         {gShuffleXor, false},
	spirv.OpSubgroupShuffleDownINTEL:        {gIntelDown, false},
	spirv.OpSubgroupShuffleUpINTEL:          {gIntelUp, false},
	spirv.OpSubgroupBlockReadINTEL:          {gBlockRead, false},
	spirv.OpSubgroupBlockWriteINTEL:         {gBlockWrite, false},
	spirv.OpSubgroupBitcastShuffleINTEL:     {gBitcastShuffle, false},
}

// groupArgs is the least number of operands after the scope and group
// operation, by kind.
var groupArgs = [...]int{gElect: 0, gAll: 1, gAny: 1, gAllEqual: 1, gBroadcast: 2, gBroadcastFirst: 1, gBallot: 1,
	gInverseBallot: 1, gBitExtract: 2, gBitCount: 1, gFindLSB: 1, gFindMSB: 1, gShuffle: 2, gShuffleXor: 2,
	gShuffleUp: 2, gShuffleDown: 2, gReduce: 1, gQuadBroadcast: 2, gQuadSwap: 2, gRotate: 2, gPartition: 1,
	gIntelDown: 3, gIntelUp: 3, gBlockRead: 1, gBlockWrite: 2, gBitcastShuffle: 1}

// groupOp compiles the subgroup instructions. It reports false for an
// opcode it does not know.
func (c *compiler) groupOp(opc spirv.Opcode, result uint32, ops []uint32) (bool, error) {
	var g groupInfo
	scoped := true
	if k, ok := groupKinds[opc]; ok {
		g.kind, scoped = k.kind, k.scoped
	} else {
		red, ok := reduceOps[opc]
		if !ok {
			return false, nil
		}
		g.kind, g.red = gReduce, red
	}
	rest, wgScope, err := c.groupScope(opc, &g, scoped, ops)
	if err != nil {
		return true, err
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
	nargs := groupArgs[g.kind]
	if len(rest) < nargs {
		return true, errOps(opc)
	}
	for k, p := range []*int32{&in.a, &in.b, &in.c} {
		if k < len(slots) {
			*p = slots[k]
		}
	}
	if err := c.groupCheck(opc, &g, &in, rt, vals, rest); err != nil {
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

// groupScope reads a group instruction's scope (when scoped) and group
// operation (for reductions and ballot bit counts). It returns the
// operands that follow, and whether the scope is Workgroup (an OpenCL
// work-group function).
func (c *compiler) groupScope(opc spirv.Opcode, g *groupInfo, scoped bool, ops []uint32) (rest []uint32, wgScope bool, err error) {
	rest = ops
	if scoped {
		if len(rest) < 1 {
			return nil, false, errOps(opc)
		}
		sc, ok := c.constScalar(rest[0])
		if !ok {
			return nil, false, fmt.Errorf("%s: the scope is not a constant", opc)
		}
		if sc == uint64(spirv.ScopeWorkgroup) && isWGCollective(opc) {
			wgScope = true
		} else if sc != uint64(spirv.ScopeSubgroup) {
			return nil, false, fmt.Errorf("%s: only Subgroup scope is supported here (got scope %d)", opc, sc)
		}
		rest = rest[1:]
	}
	if g.kind == gReduce || g.kind == gBitCount {
		if len(rest) < 1 {
			return nil, false, errOps(opc)
		}
		g.groupOp = spirv.GroupOperation(rest[0])
		rest = rest[1:]
		switch g.groupOp {
		case spirv.GroupOperationReduce, spirv.GroupOperationInclusiveScan, spirv.GroupOperationExclusiveScan:
		case spirv.GroupOperationClusteredReduce, spirv.GroupOperationPartitionedReduceEXT,
			spirv.GroupOperationPartitionedInclusiveScanEXT, spirv.GroupOperationPartitionedExclusiveScanEXT:
			if g.kind == gBitCount {
				return nil, false, fmt.Errorf("%s: group operation %d not allowed", opc, g.groupOp)
			}
		default:
			return nil, false, fmt.Errorf("%s: unknown group operation %d", opc, g.groupOp)
		}
	}
	return rest, wgScope, nil
}

// groupCheck checks the operand types of group instruction g (its result
// type rt, its operands' types vals and ids rest) and completes g and in
// from constant operands.
func (c *compiler) groupCheck(opc spirv.Opcode, g *groupInfo, in *inst, rt *tinfo, vals []*tinfo, rest []uint32) error {
	ok := true
	switch g.kind {
	case gElect:
		ok = rt != nil && rt.ncomp == 1
	case gAll, gAny:
		ok = rt.ncomp == 1 && vals[0].ncomp == 1
	case gAllEqual:
		ok = rt.ncomp == 1
		g.nsrc = int32(vals[0].ncomp)
	case gBroadcast, gShuffle, gShuffleXor, gShuffleUp, gShuffleDown, gQuadBroadcast, gQuadSwap, gRotate:
		ok = vals[0].ncomp == rt.ncomp && vals[1].ncomp == 1
		if g.kind == gQuadSwap {
			v, isConst := c.constScalar(rest[1])
			if !isConst || v > 2 {
				return fmt.Errorf("%s: Direction must be a constant 0, 1 or 2", opc)
			}
		}
		if g.kind == gRotate && len(rest) > 2 {
			v, isConst := c.constScalar(rest[2])
			if !isConst || v == 0 || v&(v-1) != 0 || v > 128 {
				return fmt.Errorf("%s: ClusterSize must be a constant power of two", opc)
			}
			g.cluster = int(v)
			in.c = -1
		}
	case gBroadcastFirst:
		ok = vals[0].ncomp == rt.ncomp
	case gBallot:
		ok = rt.ncomp == 4 && vals[0].ncomp == 1
	case gInverseBallot:
		ok = rt.ncomp == 1 && vals[0].ncomp == 4
	case gBitExtract:
		ok = rt.ncomp == 1 && vals[0].ncomp == 4 && vals[1].ncomp == 1
	case gBitCount, gFindLSB, gFindMSB:
		ok = rt.ncomp == 1 && vals[0].ncomp == 4
	case gPartition:
		ok = rt.ncomp == 4
		g.nsrc = int32(vals[0].ncomp)
	case gReduce:
		ok = vals[0].ncomp == rt.ncomp
		if g.groupOp == spirv.GroupOperationClusteredReduce {
			if len(rest) < 2 {
				return fmt.Errorf("%s: ClusteredReduce needs a ClusterSize", opc)
			}
			v, isConst := c.constScalar(rest[1])
			if !isConst || v == 0 || v&(v-1) != 0 || v > 128 {
				return fmt.Errorf("%s: ClusterSize must be a constant power of two", opc)
			}
			g.cluster = int(v)
		}
		if g.groupOp >= spirv.GroupOperationPartitionedReduceEXT {
			if len(rest) < 2 || vals[1].ncomp != 4 {
				return fmt.Errorf("%s: a partitioned operation needs a ballot", opc)
			}
		}
	case gIntelDown, gIntelUp:
		ok = vals[0].ncomp == rt.ncomp && vals[1].ncomp == rt.ncomp && vals[2].ncomp == 1
	case gBlockRead, gBlockWrite:
		pt := vals[0]
		vt := rt
		if g.kind == gBlockWrite {
			vt = vals[1]
		}
		pi := c.ptrs[rest[0]]
		if pt.kind != spirv.TypePointer || pi == nil {
			return fmt.Errorf("%s: not a pointer", opc)
		}
		if err := c.layout(pi.pointee); err != nil {
			return err
		}
		es := uint32(vt.sc.width / 8)
		if vt.sc.kind != skInt || es == 0 {
			return fmt.Errorf("%s: data must be integers", opc)
		}
		g.esize = es
		in.n = int32(vt.ncomp)
	case gBitcastShuffle:
		st, dt := vals[0], rt
		g.srcT = sgpkg.Type{Kind: kindOf(st), Width: int(st.sc.width), Components: st.ncomp, Signed: st.sc.signed}
		g.dstT = sgpkg.Type{Kind: kindOf(dt), Width: int(dt.sc.width), Components: dt.ncomp, Signed: dt.sc.signed}
		if st.vec != st.ncomp || dt.vec != dt.ncomp {
			return fmt.Errorf("%s: operand and result must be scalars or vectors", opc)
		}
		if e := sgpkg.CheckSupported(g.srcT, g.dstT); e != nil {
			return fmt.Errorf("%s: %v", opc, e)
		}
		g.nsrc = int32(st.ncomp)
	}
	if !ok {
		return fmt.Errorf("%s: operand types do not match", opc)
	}
	return nil
}
