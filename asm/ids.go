package asm

import "spvx/spirv"

// idTable maps id names (the text after '%') to ids, numbered from 1 in
// order of first appearance. Names are kept as offsets into the source, so
// a new name costs no allocation; the table is open-addressed with linear
// probing.
type idTable struct {
	src     []byte
	buckets []uint32 // 0: empty; else index+1 into entries
	entries []idEntry
}

type idEntry struct {
	off, n uint32 // the name is src[off:off+n]
	hash   uint32
}

func (t *idTable) init(src []byte, sizeHint int) {
	t.src = src
	n := 1024
	for n < sizeHint*2 {
		n <<= 1
	}
	t.buckets = make([]uint32, n)
	t.entries = make([]idEntry, 0, n/2)
}

// lookup returns the id of the name at src[off:end], assigning the next
// id if the name is new.
func (t *idTable) lookup(off, end int) (id uint32, isNew bool) {
	name := t.src[off:end]
	h := hashName(name)
	if 2*(len(t.entries)+1) > len(t.buckets) {
		t.grow()
	}
	mask := uint32(len(t.buckets) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		b := t.buckets[i]
		if b == 0 {
			t.entries = append(t.entries, idEntry{uint32(off), uint32(len(name)), h})
			id = uint32(len(t.entries))
			t.buckets[i] = id
			return id, true
		}
		e := &t.entries[b-1]
		if e.hash == h && int(e.n) == len(name) && string(t.src[e.off:e.off+e.n]) == string(name) {
			return b, false
		}
	}
}

func (t *idTable) grow() {
	t.buckets = make([]uint32, 2*len(t.buckets))
	mask := uint32(len(t.buckets) - 1)
	for k := range t.entries {
		i := t.entries[k].hash & mask
		for t.buckets[i] != 0 {
			i = (i + 1) & mask
		}
		t.buckets[i] = uint32(k + 1)
	}
}

// name returns the name of id.
func (t *idTable) name(id uint32) string {
	e := t.entries[id-1]
	return string(t.src[e.off : e.off+e.n])
}

// hashName is FNV-1a with a final avalanche, so the low bits used to pick
// a bucket depend on every byte.
func hashName(b []byte) uint32 {
	h := uint32(2166136261)
	for _, c := range b {
		h ^= uint32(c)
		h *= 16777619
	}
	h ^= h >> 15
	h *= 0x2c1b3c6d
	h ^= h >> 12
	return h
}

// validIDName reports whether name is a valid id name for SPIRV-Tools:
// one or more ASCII letters, digits and underscores.
func validIDName(name []byte) bool {
	if len(name) == 0 {
		return false
	}
	for _, c := range name {
		if !(c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return true
}

// Type classes of ids, as SPIRV-Tools' assembler records them to size
// typed literals.
const (
	classNone  uint8 = iota // not a type the assembler has seen
	classOther              // a type, but not a scalar number type
	classInt
	classFloat
)

// Per-id flags.
const (
	flagDefined  uint8 = 1 << iota // the Result <id> of an instruction
	flagUsed                       // used as an operand
	flagExempt                     // appears among raw words (!n, OpUnknown): its role is unknown
	flagPoisoned                   // defined by an instruction that had an error
)

// idInfo is what the assembler knows about one id.
type idInfo struct {
	class     uint8
	flags     uint8
	width     uint32           // OpTypeInt / OpTypeFloat width
	nt        spirv.NumberType // literal type, for classInt and classFloat
	valueType uint32           // the Result Type of the instruction defining the id
	ext       int32            // 1+index into assembler.imports for OpExtInstImport results
	firstUse  int32            // offset of the first use, for "has not been defined"
	defAt     int32            // offset of the definition
}
