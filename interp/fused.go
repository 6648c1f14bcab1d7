package interp

import (
	"encoding/binary"

	"spvx/spirv"
)

// Fused access chains: an OpAccessChain whose result is only ever the
// pointer of OpLoad/OpStore (what glslang writes for every buffer access)
// is not compiled on its own; each load or store through it computes the
// address itself (opLoadIdx, opStoreIdx). With a base pointer known at
// compile time to be uniform (a buffer, push constants, workgroup memory)
// the common shape (one unchecked 32-bit index, a 4-byte scalar) resolves
// the memory once for the subgroup and checks each lane's offset against
// it; anything else (another shape, an offset out of bounds) goes through
// the general opChain and opLoad/opStore code, so the faults are the same.

// fusedRef is a deferred access chain: its base register and chain.
type fusedRef struct {
	base  int32
	chain int32
	slot  int32 // the chain's own result register, for the general path
	uni   bool  // the base is a uniform pointer known at compile time
}

// memOnlyUses returns the ids of function sf used only as the pointer
// operand of OpLoad and OpStore.
func (c *compiler) memOnlyUses(sf *spirv.Function) map[uint32]bool {
	ok, bad := map[uint32]bool{}, map[uint32]bool{}
	for i := sf.Start; i < sf.End; i++ {
		in := c.m.Inst(i)
		for first, w := range usedIDs(&in) {
			if first && (in.Opcode == spirv.OpLoad || in.Opcode == spirv.OpStore) {
				ok[w] = true
			} else {
				bad[w] = true
			}
		}
	}
	for id := range bad {
		delete(ok, id)
	}
	return ok
}

// fuse marks an access (load or store instruction in) through pointer id
// as fused if id is a deferred access chain.
func (c *compiler) fuse(in *inst, id uint32, load bool) {
	fr, ok := c.fused[id]
	if !ok {
		return
	}
	in.a, in.c = fr.base, fr.chain
	if load {
		in.op, in.b = opLoadIdx, fr.slot
	} else {
		in.op, in.dst = opStoreIdx, fr.slot
	}
	if fr.uni {
		in.imm = 1
	}
}

// idxFast returns the memory and the first lane's byte offset (before the
// index) for the fast path of a fused access, or ok false.
func (sg *subgroup) idxFast(in *inst, lanes []int32) (m []byte, off0 int64, st chainStep, ok bool) {
	p := sg.p
	ch := &p.chains[in.c]
	lv := p.leafLists[in.aux]
	if in.imm == 0 || len(lv) != 1 || len(ch.steps) != 1 || len(lanes) == 0 {
		return
	}
	st, lf := ch.steps[0], lv[0]
	if st.count != 0 || st.w != 32 || lf.size != 4 || lf.kind == skBool {
		return
	}
	p0 := sg.regs[in.a*int32(sg.R)+lanes[0]]
	reg := p0 >> p.ptrShift
	if reg <= regInv {
		return
	}
	m = sg.region(reg)
	if len(m) < 4 {
		return
	}
	return m, int64(p0&(1<<p.ptrShift-1)) + ch.constOff + int64(lf.off), st, true
}

// loadIdx is a load through a fused access chain.
func (sg *subgroup) loadIdx(in *inst, lanes []int32) *Fault {
	if m, off0, st, ok := sg.idxFast(in, lanes); ok {
		idx, d := sg.col(st.slot), sg.col(in.dst)
		lim, stride := uint64(len(m)-4), st.stride
		if len(lanes) == len(d) {
			idx = idx[:len(d)]
			if src := contiguous(m, off0, stride, idx); src != nil {
				widen32(d, src)
				return nil
			}
			for l := range d {
				o := uint64(off0 + int64(int32(idx[l]))*stride)
				if o > lim {
					return sg.fusedSlow(in, in.b, lanes, true)
				}
				d[l] = uint64(binary.LittleEndian.Uint32(m[o:]))
			}
			return nil
		}
		for _, l := range lanes {
			o := uint64(off0 + int64(int32(idx[l]))*stride)
			if o > lim {
				return sg.fusedSlow(in, in.b, lanes, true)
			}
			d[l] = uint64(binary.LittleEndian.Uint32(m[o:]))
		}
		return nil
	}
	return sg.fusedSlow(in, in.b, lanes, true)
}

// storeIdx is a store through a fused access chain. A lane out of bounds
// sends all lanes through the general path, which stores the earlier
// lanes' values again (the same bytes) before it faults.
func (sg *subgroup) storeIdx(in *inst, lanes []int32) *Fault {
	if m, off0, st, ok := sg.idxFast(in, lanes); ok {
		idx, v := sg.col(st.slot), sg.col(in.b)
		lim, stride := uint64(len(m)-4), st.stride
		if len(lanes) == len(v) {
			idx = idx[:len(v)]
			if dst := contiguous(m, off0, stride, idx); dst != nil {
				narrow32(dst, v)
				return nil
			}
			for l := range v {
				o := uint64(off0 + int64(int32(idx[l]))*stride)
				if o > lim {
					return sg.fusedSlow(in, in.dst, lanes, false)
				}
				binary.LittleEndian.PutUint32(m[o:], uint32(v[l]))
			}
			return nil
		}
		for _, l := range lanes {
			o := uint64(off0 + int64(int32(idx[l]))*stride)
			if o > lim {
				return sg.fusedSlow(in, in.dst, lanes, false)
			}
			binary.LittleEndian.PutUint32(m[o:], uint32(v[l]))
		}
		return nil
	}
	return sg.fusedSlow(in, in.dst, lanes, false)
}

// fusedSlow runs a fused access as its access chain (into the chain's own
// register ptr) and then the load or store; a fault of the chain names the
// OpAccessChain.
func (sg *subgroup) fusedSlow(in *inst, ptr int32, lanes []int32, load bool) *Fault {
	ci := inst{op: opChain, dst: ptr, a: in.a, n: 1, aux: in.c}
	if f := sg.chain(&ci, lanes); f != nil {
		if src := sg.p.chains[in.c].src; src >= 0 && int(src) < sg.p.m.Len() {
			f.Inst = formatInst(sg.p.m, int(src))
		}
		return f
	}
	li := *in
	li.a = ptr
	if load {
		return sg.load(&li, lanes)
	}
	return sg.store(&li, lanes)
}

// contiguous returns the bytes a full subgroup's 4-byte accesses cover
// when its indexes are consecutive (idx[l] == idx[0]+l, the common
// invocation-id indexing), the stride is 4 and the whole run lies inside
// m; otherwise nil, and the lane loop checks each lane.
func contiguous(m []byte, off0, stride int64, idx []uint64) []byte {
	if stride != 4 || len(idx) < 8 {
		return nil
	}
	i0 := idx[0]
	if i0+uint64(len(idx)) > 1<<31 { // every index a non-negative int32
		return nil
	}
	lo := off0 + int64(i0)*4
	hi := lo + 4*int64(len(idx))
	if lo < 0 || hi > int64(len(m)) || !isRamp(idx, i0) {
		return nil
	}
	return m[lo:hi]
}
