package interp

import (
	"encoding/binary"
	"fmt"
)

// region returns the memory of region number reg.
func (sg *subgroup) region(reg uint64) []byte {
	switch reg {
	case regInv:
		return sg.inv
	case regWG:
		return sg.wg.mem
	case regPush:
		return sg.wg.d.push
	}
	if reg < uint64(len(sg.wg.d.regions)) {
		return sg.wg.d.regions[reg]
	}
	return nil
}

// deref resolves a pointer for an access of size bytes by lane l: the
// memory and the offset, bounds-checked.
func (sg *subgroup) deref(p uint64, size int, l int32) ([]byte, int, *Fault) {
	shift := sg.p.ptrShift
	reg := p >> shift
	off := p & (1<<shift - 1)
	if reg == regNull {
		return nil, 0, &Fault{Kind: FaultNullPointer, Lane: uint32(l), Msg: fmt.Sprintf("access through a null or invalid pointer %#x", p)}
	}
	m := sg.region(reg)
	if m == nil && reg >= regFirstBuf {
		if reg < uint64(len(sg.wg.d.regions)) || reg < uint64(sg.p.nregions) {
			return nil, 0, &Fault{Kind: FaultMissingResource, Lane: uint32(l), Msg: sg.wg.d.regionName(int(reg)) + " is not bound"}
		}
		return nil, 0, &Fault{Kind: FaultNullPointer, Lane: uint32(l), Msg: fmt.Sprintf("access through an invalid pointer %#x", p)}
	}
	if reg == regInv {
		// an invocation may only touch its own private and function memory
		base := uint64(sg.lane0+int(l)) * uint64(sg.p.invSize)
		if off < base || off+uint64(size) > base+uint64(sg.p.invSize) {
			return nil, 0, &Fault{Kind: FaultOutOfBounds, Lane: uint32(l), Msg: fmt.Sprintf("access of %d bytes at offset %d of the invocation's private memory (%d bytes)", size, int64(off-base), sg.p.invSize)}
		}
	}
	if off+uint64(size) > uint64(len(m)) {
		return nil, 0, &Fault{Kind: FaultOutOfBounds, Lane: uint32(l), Msg: fmt.Sprintf("access of %d bytes at offset %d of %s (%d bytes)", size, off, sg.wg.d.regionName(int(reg)), len(m))}
	}
	return m, int(off), nil
}

func getLE(b []byte, size uint8) uint64 {
	switch size {
	case 1:
		return uint64(b[0])
	case 2:
		return uint64(binary.LittleEndian.Uint16(b))
	case 4:
		return uint64(binary.LittleEndian.Uint32(b))
	default:
		return binary.LittleEndian.Uint64(b)
	}
}

func putLE(b []byte, size uint8, v uint64) {
	switch size {
	case 1:
		b[0] = byte(v)
	case 2:
		binary.LittleEndian.PutUint16(b, uint16(v))
	case 4:
		binary.LittleEndian.PutUint32(b, uint32(v))
	default:
		binary.LittleEndian.PutUint64(b, v)
	}
}

func leafExtent(lv []leaf) int {
	e := 0
	for _, l := range lv {
		e = max(e, int(l.off)+int(l.size))
	}
	return e
}

// laneMem resolves lane l's pointer p for an access of ext bytes, reusing
// the region of the previous lane (cache) when it is the same: most
// accesses of a subgroup go to one buffer.
func (sg *subgroup) laneMem(p uint64, ext int, l int32, cache *regCache) ([]byte, int, *Fault) {
	shift := sg.p.ptrShift
	reg := p >> shift
	if reg == cache.reg {
		off := p & (1<<shift - 1)
		if reg == regInv {
			base := uint64(sg.lane0+int(l)) * uint64(sg.p.invSize)
			if off >= base && off+uint64(ext) <= base+uint64(sg.p.invSize) {
				return sg.inv, int(off), nil
			}
		} else if off+uint64(ext) <= uint64(len(cache.m)) {
			return cache.m, int(off), nil
		}
	}
	m, off, f := sg.deref(p, ext, l)
	if f == nil {
		cache.reg, cache.m = reg, m
	}
	return m, off, f
}

type regCache struct {
	reg uint64
	m   []byte
}

func (sg *subgroup) load(in *inst, lanes []int32) *Fault {
	lv := sg.p.leafLists[in.aux]
	ext := sg.p.leafExt[in.aux]
	R := int32(sg.R)
	r := sg.regs
	ptrs := sg.col(in.a)
	cache := regCache{reg: ^uint64(0)}
	if len(lv) == 1 {
		lf := lv[0]
		d := sg.col(in.dst)
		shift := sg.p.ptrShift
		for _, l := range lanes {
			p := ptrs[l]
			// fast path: the previous lane's buffer, in bounds, a 4-byte leaf
			if off := p & (1<<shift - 1); p>>shift == cache.reg && cache.reg > regInv && lf.size == 4 && lf.kind != skBool &&
				off+uint64(ext) <= uint64(len(cache.m)) {
				d[l] = uint64(binary.LittleEndian.Uint32(cache.m[off+uint64(lf.off):]))
				continue
			}
			m, off, f := sg.laneMem(p, ext, l, &cache)
			if f != nil {
				return f
			}
			at := m[off+int(lf.off):]
			var v uint64
			switch lf.size {
			case 4:
				v = uint64(binary.LittleEndian.Uint32(at))
			default:
				v = getLE(at, lf.size)
			}
			if lf.kind == skBool {
				v = b2u(v != 0)
			}
			d[l] = v
		}
		return nil
	}
	for _, l := range lanes {
		m, off, f := sg.laneMem(ptrs[l], ext, l, &cache)
		if f != nil {
			return f
		}
		for k, lf := range lv {
			v := getLE(m[off+int(lf.off):], lf.size)
			if lf.kind == skBool {
				v = b2u(v != 0)
			}
			r[(in.dst+int32(k))*R+l] = v
		}
	}
	return nil
}

func (sg *subgroup) store(in *inst, lanes []int32) *Fault {
	lv := sg.p.leafLists[in.aux]
	ext := sg.p.leafExt[in.aux]
	R := int32(sg.R)
	r := sg.regs
	ptrs := sg.col(in.a)
	cache := regCache{reg: ^uint64(0)}
	if len(lv) == 1 {
		lf := lv[0]
		v := sg.col(in.b)
		shift := sg.p.ptrShift
		for _, l := range lanes {
			p := ptrs[l]
			if off := p & (1<<shift - 1); p>>shift == cache.reg && cache.reg > regInv && lf.size == 4 &&
				off+uint64(ext) <= uint64(len(cache.m)) {
				binary.LittleEndian.PutUint32(cache.m[off+uint64(lf.off):], uint32(v[l]))
				continue
			}
			m, off, f := sg.laneMem(p, ext, l, &cache)
			if f != nil {
				return f
			}
			putLE(m[off+int(lf.off):], lf.size, v[l])
		}
		return nil
	}
	for _, l := range lanes {
		m, off, f := sg.laneMem(ptrs[l], ext, l, &cache)
		if f != nil {
			return f
		}
		for k, lf := range lv {
			putLE(m[off+int(lf.off):], lf.size, r[(in.b+int32(k))*R+l])
		}
	}
	return nil
}

func (sg *subgroup) chain(in *inst, lanes []int32) *Fault {
	ch := &sg.p.chains[in.aux]
	R := int32(sg.R)
	r := sg.regs
	base, d := sg.col(in.a), sg.col(in.dst)
	shift := sg.p.ptrShift
	if !ch.desc && len(ch.steps) == 1 {
		st := ch.steps[0]
		idx := sg.col(st.slot)
		if st.count == 0 && st.w == 32 {
			// the common case (an unchecked 32-bit index), without the
			// general sign extension and bound
			off0, stride := ch.constOff, st.stride
			for _, l := range lanes {
				p := base[l]
				np := p + uint64(off0+int64(int32(idx[l]))*stride)
				if p>>shift != np>>shift && p != 0 {
					np = 0
				}
				d[l] = np
			}
			return nil
		}
		for _, l := range lanes {
			p := base[l]
			iv := sext(idx[l], st.w)
			if st.count > 0 && uint64(iv) >= st.count {
				return &Fault{Kind: FaultOutOfBounds, Lane: uint32(l), Msg: fmt.Sprintf("index %d out of range of an array of %d", iv, st.count)}
			}
			np := p + uint64(ch.constOff+iv*st.stride)
			if p>>shift != np>>shift && p != 0 {
				np = 0
			}
			d[l] = np
		}
		return nil
	}
	for _, l := range lanes {
		p := base[l]
		if ch.desc {
			idx := ch.descC
			if ch.descIdx >= 0 {
				idx = r[ch.descIdx*R+l]
			}
			if ch.descN > 0 && idx >= uint64(ch.descN) || idx >= 1<<12 {
				return &Fault{Kind: FaultOutOfBounds, Lane: uint32(l), Msg: fmt.Sprintf("descriptor index %d out of range", idx)}
			}
			p += idx << shift
		}
		off := ch.constOff
		for _, st := range ch.steps {
			v := r[st.slot*R+l]
			iv := sext(v, st.w)
			if st.count > 0 && uint64(iv) >= st.count {
				return &Fault{Kind: FaultOutOfBounds, Lane: uint32(l), Msg: fmt.Sprintf("index %d out of range of an array of %d", iv, st.count)}
			}
			off += iv * st.stride
		}
		np := p + uint64(off)
		if p>>shift != np>>shift && p != 0 {
			// the offset left the region: keep an invalid pointer that faults on use
			np = 0
		}
		d[l] = np
	}
	return nil
}

// loadLane loads through a per-lane pointer into invocation memory whose
// offset is known at compile time, and whose access the compiler checked
// lies inside the lane's own variable: no pointer to decode or check.
func (sg *subgroup) loadLane(in *inst, lanes []int32) {
	lv := sg.p.leafLists[in.aux]
	isz := int(sg.p.invSize)
	off := int(in.imm)
	for k, lf := range lv {
		d := sg.col(in.dst + int32(k))
		at := off + int(lf.off)
		for _, l := range lanes {
			v := getLE(sg.inv[(sg.lane0+int(l))*isz+at:], lf.size)
			if lf.kind == skBool {
				v = b2u(v != 0)
			}
			d[l] = v
		}
	}
}

// storeLane is loadLane's store.
func (sg *subgroup) storeLane(in *inst, lanes []int32) {
	lv := sg.p.leafLists[in.aux]
	isz := int(sg.p.invSize)
	off := int(in.imm)
	for k, lf := range lv {
		v := sg.col(in.b + int32(k))
		at := off + int(lf.off)
		for _, l := range lanes {
			putLE(sg.inv[(sg.lane0+int(l))*isz+at:], lf.size, v[l])
		}
	}
}

// loadUni loads through a uniform pointer known at compile time (a
// buffer, push constants, workgroup memory): every lane reads the same
// bytes, so they are read once and broadcast.
func (sg *subgroup) loadUni(in *inst, lanes []int32) *Fault {
	if len(lanes) == 0 {
		return nil
	}
	lv := sg.p.leafLists[in.aux]
	R := int32(sg.R)
	r := sg.regs
	l0 := lanes[0]
	m, off, f := sg.deref(r[in.a*R+l0], sg.p.leafExt[in.aux], l0)
	if f != nil {
		return f
	}
	for k, lf := range lv {
		v := getLE(m[off+int(lf.off):], lf.size)
		if lf.kind == skBool {
			v = b2u(v != 0)
		}
		d := sg.col(in.dst + int32(k))
		if len(lanes) == len(d) {
			fill(d, v)
			continue
		}
		for _, l := range lanes {
			d[l] = v
		}
	}
	return nil
}
