package interp

import (
	"fmt"
	"math/bits"

	"spvx/spirv"
)

// SPV_AMD_shader_ballot: eight group reductions that work in non-uniform
// control flow, over the active invocations of the subgroup (Reduce,
// InclusiveScan, ExclusiveScan), which are the core non-uniform
// reductions under other names; and the extended instruction set's
// swizzles within groups of 4 and 32 invocations, WriteInvocationAMD and
// MbcntAMD. The extension allows Workgroup scope too; the executor runs
// them at Subgroup scope only and says so at compile time.

// extSetAMDBallot is the extSets code of the "SPV_AMD_shader_ballot"
// extended instruction set.
const extSetAMDBallot = 3

// amdReduceOps are the extension's group reductions.
var amdReduceOps = map[spirv.Opcode]int{
	spirv.OpGroupIAddNonUniformAMD: rIAdd, spirv.OpGroupFAddNonUniformAMD: rFAdd,
	spirv.OpGroupFMinNonUniformAMD: rFMin, spirv.OpGroupUMinNonUniformAMD: rUMin,
	spirv.OpGroupSMinNonUniformAMD: rSMin, spirv.OpGroupFMaxNonUniformAMD: rFMax,
	spirv.OpGroupUMaxNonUniformAMD: rUMax, spirv.OpGroupSMaxNonUniformAMD: rSMax,
}

func init() {
	for op, r := range amdReduceOps {
		reduceOps[op] = r
	}
}

// The extended instructions: their numbers, group kinds and operand
// counts.
var amdExtInsts = map[uint32]struct {
	name  string
	kind  int
	nargs int
}{
	1: {"SwizzleInvocationsAMD", gSwizzleAMD, 2},
	2: {"SwizzleInvocationsMaskedAMD", gSwizzleMaskedAMD, 2},
	3: {"WriteInvocationAMD", gWriteInvocationAMD, 3},
	4: {"MbcntAMD", gMbcntAMD, 1},
}

// amdBallotExt compiles an OpExtInst of the SPV_AMD_shader_ballot set
// into a group instruction.
func (c *compiler) amdBallotExt(result, num uint32, args []uint32) error {
	x, ok := amdExtInsts[num]
	if !ok {
		return fmt.Errorf("OpExtInst: SPV_AMD_shader_ballot has no instruction %d", num)
	}
	if len(args) != x.nargs {
		return fmt.Errorf("OpExtInst %s: %d operands, want %d", x.name, len(args), x.nargs)
	}
	d, rt, err := c.slot(result)
	if err != nil {
		return err
	}
	in := inst{op: opGroup, dst: d, a: -1, b: -1, c: -1, n: int32(rt.ncomp), sc: rt.sc}
	ts := make([]*tinfo, len(args))
	for k, p := range []*int32{&in.a, &in.b, &in.c}[:len(args)] {
		if *p, ts[k], err = c.val(args[k]); err != nil {
			return err
		}
	}
	g := groupInfo{kind: x.kind}
	if err := c.amdCheck(x.name, &g, rt, ts, args); err != nil {
		return err
	}
	c.p.groups = append(c.p.groups, g)
	in.aux = int32(len(c.p.groups) - 1)
	c.emit(in)
	return nil
}

// amdCheck checks an extended instruction's types and reads its constant
// offsets or masks into g.
func (c *compiler) amdCheck(name string, g *groupInfo, rt *tinfo, ts []*tinfo, args []uint32) error {
	scalarOrVec := func(t *tinfo) bool { return t.vec == t.ncomp && t.ncomp >= 1 && t.ncomp <= 4 }
	switch g.kind {
	case gSwizzleAMD, gSwizzleMaskedAMD:
		n, hi := 4, uint64(3)
		if g.kind == gSwizzleMaskedAMD {
			n, hi = 3, 31
		}
		if !scalarOrVec(rt) || ts[0].ncomp != rt.ncomp {
			return fmt.Errorf("OpExtInst %s: data and Result Type must be one scalar or vector type", name)
		}
		v, ok := c.constVector(args[1], n)
		if !ok {
			return fmt.Errorf("OpExtInst %s: operand 2 must be a constant vector of %d unsigned integers", name, n)
		}
		for i, x := range v {
			if x > hi {
				return fmt.Errorf("OpExtInst %s: component %d of operand 2 is %d, beyond %d", name, i, x, hi)
			}
			g.amd[i] = uint8(x)
		}
	case gWriteInvocationAMD:
		if !scalarOrVec(rt) || ts[0].ncomp != rt.ncomp || ts[1].ncomp != rt.ncomp ||
			ts[2].ncomp != 1 || ts[2].sc.kind != skInt || ts[2].sc.width != 32 {
			return fmt.Errorf("OpExtInst %s: inputValue and writeValue must have Result Type, invocationIndex be a 32-bit integer", name)
		}
	case gMbcntAMD:
		if rt.ncomp != 1 || rt.sc.kind != skInt || rt.sc.width != 32 || ts[0].ncomp != 1 || ts[0].sc.kind != skInt {
			return fmt.Errorf("OpExtInst %s: Result Type must be a 32-bit integer and mask an integer scalar", name)
		}
	}
	return nil
}

// constVector returns the n components of constant vector id.
func (c *compiler) constVector(id uint32, n int) ([]uint64, bool) {
	if _, ok := c.x.Constants[id]; !ok {
		return nil, false
	}
	if err := c.constant(id); err != nil {
		return nil, false
	}
	s, t, err := c.slot(id)
	if err != nil || t.vec != n || t.sc.kind != skInt {
		return nil, false
	}
	c.growCV()
	return c.cv[s : s+int32(n)], true
}

// amdBallot runs the extended instructions on the active lanes.
func (sg *subgroup) amdBallot(in *inst, g *groupInfo, lanes []int32) *Fault {
	switch g.kind {
	case gMbcntAMD:
		m, d := sg.col(in.a), sg.col(in.dst)
		for _, l := range lanes {
			// SubgroupLtMask & mask; lanes past 63 see the whole mask
			lt := ^uint64(0)
			if l < 64 {
				lt = uint64(1)<<l - 1
			}
			d[l] = uint64(bits.OnesCount64(m[l] & lt))
		}
	case gWriteInvocationAMD:
		ix := sg.col(in.c)
		for c := int32(0); c < in.n; c++ {
			a, w, d := sg.col(in.a+c), sg.col(in.b+c), sg.col(in.dst+c)
			for _, l := range lanes {
				if uint64(l) == ix[l] {
					d[l] = w[l]
				} else {
					d[l] = a[l]
				}
			}
		}
	case gSwizzleAMD, gSwizzleMaskedAMD:
		sg.amdSwizzle(in, g, lanes)
	}
	return nil
}

// amdSwizzle gathers each lane's value from the lane its swizzle names,
// 0 when that lane is inactive or past the subgroup. For subgroups wider
// than 64 the masked form keeps each lane in its group of 32 (the text's
// "i & 0x20" for AMD's 64 lanes).
func (sg *subgroup) amdSwizzle(in *inst, g *groupInfo, lanes []int32) {
	S := int32(sg.S)
	var act [2]uint64
	for _, l := range lanes {
		act[l/64] |= 1 << (l % 64)
	}
	src := sg.gsrc[:S]
	for _, l := range lanes {
		var s int32
		if g.kind == gSwizzleAMD {
			s = l&^3 + int32(g.amd[l&3])
		} else {
			s = ((l&31)&int32(g.amd[0]) | int32(g.amd[1])) ^ int32(g.amd[2]) | l&^31
		}
		if s >= S || act[s/64]>>(s%64)&1 == 0 {
			s = -1
		}
		src[l] = s
	}
	tmp := sg.gscratch
	for c := int32(0); c < in.n; c++ {
		a := sg.col(in.a + c)
		for _, l := range lanes {
			tmp[l] = 0
			if src[l] >= 0 {
				tmp[l] = a[src[l]]
			}
		}
		sg.setLanes(in.dst+c, tmp, lanes)
	}
}
