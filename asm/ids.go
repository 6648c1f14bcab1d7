package asm

import (
	"encoding/binary"

	"spvx/internal/numtext"
	"spvx/spirv"
)

// idTable maps id names (the text after '%') to ids, numbered from 1 in
// order of first appearance. Names are kept as offsets into the source, so
// a new name costs no allocation.
//
// The table is built for a cost that dominates assembly: most lookups
// either repeat a recent name or add a new one, and a probe of a big hash
// table costs a cache miss. So a small direct-mapped cache of recent names
// answers first; then a bit filter tells most new names apart without
// touching the table; only the rest walk a hash chain.
type idTable struct {
	src     []byte
	heads   []uint32  // hash bucket -> first id of its chain, 0 if none
	entries []idEntry // by id-1
	filter  []uint64  // one bit per hash value (high bits): maybe present
	recent  []idRecent
	chained int // entries in the hash chains
	// nums maps the value of a decimal name ("%123", most of the ids
	// spirv-dis prints) straight to its id, without hashing.
	nums []uint32
}

// maxNum bounds the decimal names kept in nums; larger ones are hashed.
const maxNum = 1 << 20

// unchained marks the entries of decimal names, which are not in the hash
// chains.
const unchained = ^uint32(0)

type idEntry struct {
	off, n uint32 // the name is src[off:off+n]
	hash   uint32
	next   uint32 // next id in the same bucket, 0 at the end
}

type idRecent struct {
	hash uint32
	id   uint32 // 0: empty
}

// init sizes the table for sizeHint ids: a filter of a few bits per id
// and a recent-names cache that still fits a processor's nearest caches.
func (t *idTable) init(src []byte, sizeHint int) {
	t.src = src
	// Decimal names, most of them in disassembly, skip the hash table,
	// so it starts at a quarter of the size hint (it grows as needed).
	t.heads = make([]uint32, pow2(sizeHint/4, 256, 1<<30))
	t.entries = make([]idEntry, 0, sizeHint)
	t.filter = make([]uint64, pow2(4*sizeHint, 1<<12, 1<<20)/64)
	t.recent = make([]idRecent, pow2(sizeHint, 64, 1<<12))
	// Disassembly numbers ids up to about the module's bound.
	t.nums = make([]uint32, pow2(2*sizeHint, 1024, maxNum))
}

// pow2 returns the least power of two at least n, within [lo, hi].
func pow2(n, lo, hi int) int {
	p := lo
	for p < n && p < hi {
		p <<= 1
	}
	return p
}

// lookup returns the id of the name at src[off:end], assigning the next
// id if the name is new.
func (t *idTable) lookup(off, end int) (id uint32, isNew bool) {
	id, isNew, _ = t.lookupValid(off, end, false)
	return id, isNew
}

// lookupValid is lookup that, if check is set, adds a new name only if it
// is a valid id name (the names in the table are). ok is false when a
// name is refused.
func (t *idTable) lookupValid(off, end int, check bool) (id uint32, isNew, ok bool) {
	name := t.src[off:end]
	if c := name[0]; '1' <= c && c <= '9' {
		if v, ok := numtext.Decimal(name, maxNum-1, true); ok {
			id, isNew = t.lookupNum(int(v), off, len(name))
			return id, isNew, true
		}
	}
	h64 := hashName(name)
	h := uint32(h64)
	r := &t.recent[h&uint32(len(t.recent)-1)]
	if r.hash == h && r.id != 0 {
		e := &t.entries[r.id-1]
		if int(e.n) == len(name) && sameName(t.src[e.off:e.off+e.n], name) {
			return r.id, false, true
		}
	}
	fb := uint32(h64>>40) & uint32(64*len(t.filter)-1)
	if t.filter[fb/64]&(1<<(fb%64)) == 0 {
		if check && !validIDName(name) {
			return 0, false, false
		}
		t.filter[fb/64] |= 1 << (fb % 64)
		id = t.insert(off, len(name), h)
		*r = idRecent{h, id}
		return id, true, true
	}
	mask := uint32(len(t.heads) - 1)
	for id = t.heads[h&mask]; id != 0; {
		e := &t.entries[id-1]
		if e.hash == h && int(e.n) == len(name) && sameName(t.src[e.off:e.off+e.n], name) {
			*r = idRecent{h, id}
			return id, false, true
		}
		id = e.next
	}
	if check && !validIDName(name) {
		return 0, false, false
	}
	id = t.insert(off, len(name), h)
	*r = idRecent{h, id}
	return id, true, true
}

// lookupNum is lookup for a decimal name of value v.
func (t *idTable) lookupNum(v, off, n int) (uint32, bool) {
	if v >= len(t.nums) {
		nums := make([]uint32, pow2(v+1, 1024, maxNum))
		copy(nums, t.nums)
		t.nums = nums
	}
	if id := t.nums[v]; id != 0 {
		return id, false
	}
	t.entries = append(t.entries, idEntry{uint32(off), uint32(n), 0, unchained})
	id := uint32(len(t.entries))
	t.nums[v] = id
	return id, true
}

// insert adds a new name; the load of its bucket's head only feeds a
// store, so its cache miss does not hold up what follows.
func (t *idTable) insert(off, n int, h uint32) uint32 {
	if t.chained >= len(t.heads) {
		t.grow()
	}
	t.chained++
	b := h & uint32(len(t.heads)-1)
	t.entries = append(t.entries, idEntry{uint32(off), uint32(n), h, t.heads[b]})
	id := uint32(len(t.entries))
	t.heads[b] = id
	return id
}

func (t *idTable) grow() {
	t.heads = make([]uint32, 2*len(t.heads))
	mask := uint32(len(t.heads) - 1)
	for i := range t.entries {
		e := &t.entries[i]
		if e.next == unchained {
			continue
		}
		b := e.hash & mask
		e.next = t.heads[b]
		t.heads[b] = uint32(i + 1)
	}
}

// name returns the name of id.
func (t *idTable) name(id uint32) string {
	e := t.entries[id-1]
	return string(t.src[e.off : e.off+e.n])
}

// hashName hashes a name eight bytes at a time (a multiply-xorshift mix
// in the manner of wyhash); the last, partial chunk is read as the name's
// last eight bytes, overlapping the one before.
func hashName(b []byte) uint64 {
	const m = 0x9E3779B97F4A7C15
	n := len(b)
	h := uint64(n) * m
	if n <= 8 && cap(b) >= 8 {
		// A short name, read as one word from the text around it.
		h = (h ^ binary.LittleEndian.Uint64(b[:8])&lowBytes(n)) * m
	} else if n >= 8 {
		for i := 0; i < n-8; i += 8 {
			h = (h ^ binary.LittleEndian.Uint64(b[i:])) * m
			h ^= h >> 29
		}
		h = (h ^ binary.LittleEndian.Uint64(b[n-8:])) * m
	} else {
		var v uint64
		for i, c := range b {
			v |= uint64(c) << (8 * i)
		}
		h = (h ^ v) * m
	}
	h ^= h >> 32
	h *= m
	return h ^ h>>29
}

// lowBytes masks the low n bytes of a word (0 <= n <= 8; a Go shift by 64
// gives 0).
func lowBytes(n int) uint64 { return ^uint64(0) >> (64 - 8*uint(n)) }

// sameName reports whether a starts with name, comparing eight bytes at
// a time (names are short: an inline loop beats a call to memequal).
func sameName(a, name []byte) bool {
	n := len(name)
	if len(a) < n {
		return false
	}
	if n <= 8 && cap(a) >= 8 && cap(name) >= 8 {
		return (binary.LittleEndian.Uint64(a[:8])^binary.LittleEndian.Uint64(name[:8]))&lowBytes(n) == 0
	}
	if n >= 8 {
		for i := 0; i < n-8; i += 8 {
			if binary.LittleEndian.Uint64(a[i:]) != binary.LittleEndian.Uint64(name[i:]) {
				return false
			}
		}
		return binary.LittleEndian.Uint64(a[n-8:]) == binary.LittleEndian.Uint64(name[n-8:])
	}
	for i := 0; i < n; i++ {
		if a[i] != name[i] {
			return false
		}
	}
	return true
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

// idInfo is what the assembler knows of a type id or an
// OpExtInstImport result; few ids have one, so they live in a map, while
// the per-id flags and value types, touched for most ids, are compact
// slices.
type idInfo struct {
	class uint8
	width uint32           // OpTypeInt / OpTypeFloat width
	nt    spirv.NumberType // literal type, for classInt and classFloat
	ext   int32            // 1+index into assembler.imports for OpExtInstImport results
}
