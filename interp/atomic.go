package interp

import (
	"fmt"
	"sync"
	"sync/atomic"
	"unsafe"

	"spvx/spirv"
)

// Atomic kinds.
const (
	aLoad = iota
	aStore
	aExchange
	aCmpXchg
	aInc
	aDec
	aIAdd
	aISub
	aSMin
	aUMin
	aSMax
	aUMax
	aAnd
	aOr
	aXor
	aFAdd
	aFMin
	aFMax
	aFlagTest
	aFlagClear
)

type atomicInfo struct {
	kind int
	sc   scalar
	size int
}

var atomicKinds = map[spirv.Opcode]int{
	spirv.OpAtomicLoad: aLoad, spirv.OpAtomicStore: aStore, spirv.OpAtomicExchange: aExchange,
	spirv.OpAtomicCompareExchange: aCmpXchg, spirv.OpAtomicCompareExchangeWeak: aCmpXchg,
	spirv.OpAtomicIIncrement: aInc, spirv.OpAtomicIDecrement: aDec, spirv.OpAtomicIAdd: aIAdd, spirv.OpAtomicISub: aISub,
	spirv.OpAtomicSMin: aSMin, spirv.OpAtomicUMin: aUMin, spirv.OpAtomicSMax: aSMax, spirv.OpAtomicUMax: aUMax,
	spirv.OpAtomicAnd: aAnd, spirv.OpAtomicOr: aOr, spirv.OpAtomicXor: aXor, spirv.OpAtomicFAddEXT: aFAdd,
	spirv.OpAtomicFMinEXT: aFMin, spirv.OpAtomicFMaxEXT: aFMax, spirv.OpAtomicFlagTestAndSet: aFlagTest,
	spirv.OpAtomicFlagClear: aFlagClear,
}

func isAtomic(op spirv.Opcode) bool { _, ok := atomicKinds[op]; return ok }

// atomic compiles an OpAtomic* instruction: a = pointer, b = value, c = comparator.
func (c *compiler) atomic(opc spirv.Opcode, result uint32, ops []uint32) error {
	k := atomicKinds[opc]
	if len(ops) < 3 {
		return errOps(opc)
	}
	pa, pt, err := c.val(ops[0])
	if err != nil {
		return err
	}
	if pt.kind != spirv.TypePointer {
		return fmt.Errorf("%s: not a pointer", opc)
	}
	pe, err := c.pointee(ops[0], pt)
	if err != nil {
		return err
	}
	in := inst{op: opAtomic, a: pa, b: -1, c: -1, dst: -1, n: 1}
	info := atomicInfo{kind: k, sc: pe.sc}
	if pe.ncomp != 1 || (pe.sc.kind != skInt && pe.sc.kind != skFloat) {
		return fmt.Errorf("%s: the pointee must be an integer or float scalar", opc)
	}
	info.size = int(pe.sc.width / 8)
	if info.size != 4 && info.size != 8 && info.size != 2 {
		return fmt.Errorf("%s: unsupported width %d", opc, pe.sc.width)
	}
	var valID, cmpID uint32
	switch k {
	case aStore:
		if len(ops) < 4 {
			return errOps(opc)
		}
		valID = ops[3]
	case aCmpXchg:
		if len(ops) < 6 {
			return errOps(opc)
		}
		valID, cmpID = ops[4], ops[5]
	case aLoad, aInc, aDec, aFlagTest, aFlagClear:
	default:
		if len(ops) < 4 {
			return errOps(opc)
		}
		valID = ops[3]
	}
	if valID != 0 {
		s, t, err := c.val(valID)
		if err != nil {
			return err
		}
		if t.ncomp != 1 {
			return fmt.Errorf("%s: value is not a scalar", opc)
		}
		in.b = s
	}
	if cmpID != 0 {
		s, t, err := c.val(cmpID)
		if err != nil {
			return err
		}
		if t.ncomp != 1 {
			return fmt.Errorf("%s: comparator is not a scalar", opc)
		}
		in.c = s
	}
	if result != 0 {
		d, _, err := c.slot(result)
		if err != nil {
			return err
		}
		in.dst = d
	}
	c.p.atomics = append(c.p.atomics, info)
	in.aux = int32(len(c.p.atomics) - 1)
	c.emit(in)
	return nil
}

// atomicLocks serialize atomics on memory that sync/atomic cannot address
// (16-bit or misaligned words).
var atomicLocks [64]sync.Mutex

func (sg *subgroup) atomic(in *inst, lanes []int32) *Fault {
	info := &sg.p.atomics[in.aux]
	R := int32(sg.R)
	r := sg.regs
	s := info.sc
	m := s.mask()
	for _, l := range lanes {
		ptr := r[in.a*R+l]
		mem, off, f := sg.deref(ptr, info.size, l)
		if f != nil {
			return f
		}
		var v, cmp uint64
		if in.b >= 0 {
			v = r[in.b*R+l] & m
		}
		if in.c >= 0 {
			cmp = r[in.c*R+l] & m
		}
		op := func(old uint64) (uint64, bool) {
			switch info.kind {
			case aLoad:
				return old, false
			case aStore, aExchange:
				return v, true
			case aCmpXchg:
				if old == cmp {
					return v, true
				}
				return old, false
			case aInc:
				return (old + 1) & m, true
			case aDec:
				return (old - 1) & m, true
			case aIAdd:
				return (old + v) & m, true
			case aISub:
				return (old - v) & m, true
			case aSMin:
				return binTab[bSMin](old, v, s), true
			case aUMin:
				return min(old, v), true
			case aSMax:
				return binTab[bSMax](old, v, s), true
			case aUMax:
				return max(old, v), true
			case aAnd:
				return old & v, true
			case aOr:
				return old | v, true
			case aXor:
				return old ^ v, true
			case aFAdd:
				return fbin(bFAdd, old, v, s), true
			case aFMin:
				return fbin(bFMin, old, v, s), true
			case aFMax:
				return fbin(bFMax, old, v, s), true
			case aFlagTest:
				return 1, true
			case aFlagClear:
				return 0, true
			}
			return old, false
		}
		old := atomicRMW(mem, off, info.size, op)
		if in.dst >= 0 {
			if info.kind == aFlagTest {
				old = b2u(old != 0)
			}
			r[in.dst*R+l] = old
		}
	}
	return nil
}

// atomicRMW applies f to the word at mem[off:off+size] atomically and
// returns the old value.
func atomicRMW(mem []byte, off, size int, f func(uint64) (uint64, bool)) uint64 {
	p := unsafe.Pointer(&mem[off])
	addr := uintptr(p)
	switch {
	case size == 4 && addr%4 == 0:
		a := (*uint32)(p)
		for {
			old := atomic.LoadUint32(a)
			nv, w := f(uint64(old))
			if !w || atomic.CompareAndSwapUint32(a, old, uint32(nv)) {
				return uint64(old)
			}
		}
	case size == 8 && addr%8 == 0:
		a := (*uint64)(p)
		for {
			old := atomic.LoadUint64(a)
			nv, w := f(old)
			if !w || atomic.CompareAndSwapUint64(a, old, nv) {
				return old
			}
		}
	}
	mu := &atomicLocks[(addr>>3)%uint64Len]
	mu.Lock()
	defer mu.Unlock()
	old := getLE(mem[off:], uint8(size))
	if nv, w := f(old); w {
		putLE(mem[off:], uint8(size), nv)
	}
	return old
}

const uint64Len = uintptr(len(atomicLocks))
