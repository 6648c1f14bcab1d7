package subgroup

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"unsafe"
)

// BitcastShuffleBytes computes OpSubgroupBitcastShuffleINTEL like
// BitcastShuffle, over packed little-endian data: src holds each
// invocation's Operand vector at its natural width, one invocation after
// another ([invocation][component], Width/8 bytes per component, as a
// buffer of a SPIR-V vector type lays it out), and dst receives the Result
// the same way. Widths must be multiples of 8 bits, up to 64.
//
// src may hold several subgroups of n invocations back to back, each
// shuffled on its own: len(src) must be a positive multiple of
// n·srcT.Bits()/8, and dst at least as long. This is the form for moving
// many subgroups' data at once; it does not allocate.
//
// Every component is a contiguous run of bytes of the subgroup's bit
// stream (see the package documentation), so the operation is a pair of
// transposes. For the widths of the Supported Types table and subgroup
// sizes that are a multiple of the width ratio, it runs as r×r transposes
// of 64-bit words (SWAR); other shapes move runs of bytes.
func BitcastShuffleBytes(dst, src []byte, srcT, dstT Type, n int) error {
	return bitcastShuffleBytes(dst, src, srcT, dstT, n, false)
}

// bitcastShuffleBytes is BitcastShuffleBytes; portable skips the assembly.
func bitcastShuffleBytes(dst, src []byte, srcT, dstT Type, n int, portable bool) error {
	ws, cs, wd, cd := srcT.Width, srcT.Components, dstT.Width, dstT.Components
	// One predictable test on the common path; the messages are built only
	// for a failure. (uint(w-8) > 56 is w < 8 || w > 64.)
	if n < 1 || uint(ws-8) > 56 || uint(wd-8) > 56 || (ws|wd)&7 != 0 ||
		uint(cs-1) >= maxComponents || uint(cd-1) >= maxComponents || ws*cs != wd*cd {
		return typeShapeError(srcT, dstT, n)
	}
	row := ws * cs >> 3 // bytes per invocation
	// The kernels address memory without bounds checks, so the sizes are
	// checked without overflow: n·row ≤ len(src) before multiplying.
	if !mulFits(n, row, len(src)) {
		return lengthError(len(dst), len(src), 0, n, srcT)
	}
	sub := n * row // bytes per subgroup
	if len(src) != sub && len(src)%sub != 0 || len(dst) < len(src) {
		return lengthError(len(dst), len(src), sub, n, srcT)
	}
	dst = dst[:len(src)]
	if ws == wd { // equal widths, equal counts: the stream order is the layout
		copy(dst, src)
		return nil
	}
	k := wordKernel{portable: portable}
	if k.init(ws, wd, row, n) {
		k.run(dst, src)
		return nil
	}
	for off := 0; off < len(src); off += sub {
		shuffleRuns(dst[off:off+sub], src[off:off+sub], ws/8, cs, wd/8, cd, n)
	}
	return nil
}

func typeShapeError(srcT, dstT Type, n int) error {
	ws, cs, wd, cd := srcT.Width, srcT.Components, dstT.Width, dstT.Components
	switch {
	case n < 1:
		return fmt.Errorf("%w: subgroup size %d, want at least 1", ErrShape, n)
	case uint(ws-8) <= 56 && uint(wd-8) <= 56 && uint(cs-1) < maxComponents && uint(cd-1) < maxComponents && ws*cs != wd*cd:
		return fmt.Errorf("%w: Operand %s has %d bits per invocation, Result Type %s has %d", ErrShape, srcT, ws*cs, dstT, wd*cd)
	}
	return fmt.Errorf("%w: packed widths must be 8 to 64 bits in whole bytes and component counts 1 to %d (%s to %s)", ErrShape, maxComponents, srcT, dstT)
}

// lengthError explains a bad src or dst length; sub is the subgroup's size
// in bytes, 0 when it exceeds len(src) (or int).
func lengthError(dst, src, sub, n int, srcT Type) error {
	if sub == 0 {
		return fmt.Errorf("%w: operand data holds %d bytes, too few for %d invocations of %s", ErrShape, src, n, srcT)
	}
	if src%sub != 0 {
		return fmt.Errorf("%w: operand data holds %d bytes, want a positive multiple of %d (%d invocations of %s)", ErrShape, src, sub, n, srcT)
	}
	return fmt.Errorf("%w: result buffer holds %d bytes, want %d", ErrShape, dst, src)
}

// shuffleRuns is the general byte path: destination component (i, c) is
// stream bytes [(c·n + i)·bd, +bd), gathered from the source components
// that hold them, in runs.
func shuffleRuns(dst, src []byte, bs, cs, bd, cd, n int) {
	o := 0
	for i := range n {
		for c := range cd {
			g := (c*n + i) * bd // stream byte of the component's first byte
			for need := bd; need > 0; {
				e, off := g/bs, g%bs // source stream element, byte within it
				take := min(bs-off, need)
				s := ((e%n)*cs+e/n)*bs + off
				copy(dst[o:o+take], src[s:s+take])
				o, g, need = o+take, g+take, need-take
			}
		}
	}
}

// A wordKernel shuffles a subgroup whose component widths are powers of two
// and whose size n is a multiple of r, the ratio of the wide width Wb to
// the narrow one Wn. With Wb-bit "chunks" (one wide component, or r
// adjacent narrow ones) the stream formula becomes, for q < n/r, j, k < r
// and chunk column c:
//
//	narrow[r·q + k] chunk c = Σ_j part_k(wide[j·n/r + q] chunk c) << j·Wn
//
// so the r chunks in column c of rows j·n/r + q (wide side) and of rows
// r·q + k (narrow side) are an r×r matrix of Wn-bit units and its
// transpose. A 64-bit word holds 64/Wb chunks of a row, and SWAR delta
// swaps transpose all of them at once. Rows narrower than a word are
// packed 2 or 4 to a word, which takes one more transpose, of rows.
type wordKernel struct {
	r        int  // width ratio, 2, 4 or 8
	unit     uint // narrow width Wn in bits: the transpose's unit
	row      int  // bytes per invocation (row)
	n        int  // subgroup size
	split    bool // the source is the wide side
	kind     int  // which loop, see run
	portable bool // no assembly: tests compare both

	// Row addressing for the loops that move one row per word: the rows read for q are
	// at inMul·q + t·inStep (bytes, t < r), the rows written at outMul·q +
	// t·outStep. Splitting reads the wide rows j·n/r + q and writes the
	// narrow rows r·q + k; merging is the inverse, the same transpose read
	// the other way.
	inMul, inStep, outMul, outStep int
}

// The loops, by row size and ratio.
const (
	kindWords2 = iota // rows ≥ 8 bytes
	kindWords4
	kindWords8
	kindRows4x2 // 4-byte rows, two per word: r = 2, n a multiple of 4
	kindRows4x4 // 4-byte rows, two per word: r = 4, n a multiple of 8
	kindRows2x2 // 2-byte rows, four per word: r = 2, n a multiple of 8
	kindRow4r2  // one 4-byte row per word, for other n
	kindRow4r4
	kindRow2
)

// init sets k up for source width ws, destination width wd (bits), row
// bytes per invocation and subgroup size n, and reports whether a word
// kernel applies.
func (k *wordKernel) init(ws, wd, row, n int) bool {
	if ws&(ws-1) != 0 || wd&(wd-1) != 0 || ws == wd {
		return false // widths are 8..64 and multiples of 8 here: powers of two are 8, 16, 32, 64
	}
	wb, wn := max(ws, wd), min(ws, wd)
	lr := bits.TrailingZeros(uint(wb)) - bits.TrailingZeros(uint(wn))
	r := 1 << lr
	if n&(r-1) != 0 {
		return false
	}
	// Plain field stores: a composite literal or small arrays here cost
	// more than a small shuffle (store-forwarding stalls on partial reads).
	k.r, k.unit, k.row, k.n, k.split = r, uint(wn), row, n, ws > wd
	switch {
	case row&7 == 0:
		k.kind = kindWords2 + lr - 1
	case row == 4 && r == 2 && n&3 == 0:
		k.kind = kindRows4x2
	case row == 4 && r == 4 && n&7 == 0:
		k.kind = kindRows4x4
	case row == 2 && n&7 == 0:
		k.kind = kindRows2x2
	case row == 4 && r == 2:
		k.kind = kindRow4r2
	case row == 4:
		k.kind = kindRow4r4
	case row == 2:
		k.kind = kindRow2
	default:
		return false // e.g. 3xu32 ↔ 6xu16: rows of 12 bytes
	}
	wideMul, wideStep := row, (n>>lr)*row // wide rows j·n/r + q
	narrowMul, narrowStep := r*row, row   // narrow rows r·q + k
	if k.split {
		k.inMul, k.inStep, k.outMul, k.outStep = wideMul, wideStep, narrowMul, narrowStep
	} else {
		k.inMul, k.inStep, k.outMul, k.outStep = narrowMul, narrowStep, wideMul, wideStep
	}
	return true
}

// delta masks: the low s bits of every 2s-bit group.
const (
	m8  = 0x00FF00FF00FF00FF
	m16 = 0x0000FFFF0000FFFF
	m32 = 0x00000000FFFFFFFF
)

// swap exchanges the high s-bit halves of a's 2s-bit groups with the low
// halves of b's: one stage of a transpose (a delta swap). Callers pass
// constants, so the shifts and mask are immediates.
func swap(a, b uint64, s uint, m uint64) (uint64, uint64) {
	t := (a>>s ^ b) & m
	return a ^ t<<s, b ^ t
}

// The kernels address rows by byte offsets that run(), from the shape
// BitcastShuffleBytes validated, keeps inside the subgroup's bytes; ld and
// st read and write 8 unaligned bytes there without the bounds checks and
// slice bookkeeping that, in these loops, cost more than the shuffle.
// (*[8]byte has alignment 1, so checkptr accepts any offset.)

func ld(p unsafe.Pointer, off int) uint64 {
	return binary.LittleEndian.Uint64((*[8]byte)(unsafe.Add(p, off))[:])
}

func st(p unsafe.Pointer, off int, v uint64) {
	binary.LittleEndian.PutUint64((*[8]byte)(unsafe.Add(p, off))[:], v)
}

func ld32(p unsafe.Pointer, off int) uint64 {
	return uint64(binary.LittleEndian.Uint32((*[4]byte)(unsafe.Add(p, off))[:]))
}

func st32(p unsafe.Pointer, off int, v uint64) {
	binary.LittleEndian.PutUint32((*[4]byte)(unsafe.Add(p, off))[:], uint32(v))
}

func ld16(p unsafe.Pointer, off int) uint64 {
	return uint64(binary.LittleEndian.Uint16((*[2]byte)(unsafe.Add(p, off))[:]))
}

func st16(p unsafe.Pointer, off int, v uint64) {
	binary.LittleEndian.PutUint16((*[2]byte)(unsafe.Add(p, off))[:], uint16(v))
}

// run shuffles every subgroup in src; len(dst) = len(src), a whole number
// of subgroups of k.n rows of k.row bytes, which keeps every offset the
// loops compute inside the slices.
func (k *wordKernel) run(dst, src []byte) {
	sub := k.n * k.row
	d, s := unsafe.Pointer(unsafe.SliceData(dst)), unsafe.Pointer(unsafe.SliceData(src))
	for off := 0; off < len(src); off += sub {
		dp, sp := unsafe.Add(d, off), unsafe.Add(s, off)
		switch k.kind { // the same way for every subgroup
		case kindWords2:
			k.words2(dp, sp)
		case kindWords4:
			k.words4(dp, sp)
		case kindWords8:
			if !k.words8Fast(dp, sp) {
				k.words8(dp, sp)
			}
		case kindRows4x2:
			k.rows4x2(dp, sp)
		case kindRows4x4:
			k.rows4x4(dp, sp)
		case kindRows2x2:
			k.rows2x2(dp, sp)
		case kindRow4r2:
			k.row4r2(dp, sp)
		case kindRow4r4:
			k.row4r4(dp, sp)
		default:
			k.row2(dp, sp)
		}
	}
}

// words2, words4 and words8 move 64-bit columns of rows of 8 bytes or
// more. The unit switch picks constant shifts; it is taken the same way
// every iteration.
func (k *wordKernel) words2(dst, src unsafe.Pointer) {
	is, os, row, unit := k.inStep, k.outStep, k.row, k.unit
	for q := range k.n / 2 {
		in, out := unsafe.Add(src, q*k.inMul), unsafe.Add(dst, q*k.outMul)
		for w := 0; w < row; w += 8 {
			x0, x1 := ld(in, w), ld(in, is+w)
			switch unit {
			case 8:
				x0, x1 = swap(x0, x1, 8, m8)
			case 16:
				x0, x1 = swap(x0, x1, 16, m16)
			default:
				x0, x1 = swap(x0, x1, 32, m32)
			}
			st(out, w, x0)
			st(out, os+w, x1)
		}
	}
}

func (k *wordKernel) words4(dst, src unsafe.Pointer) {
	is, os, row, unit := k.inStep, k.outStep, k.row, k.unit
	for q := range k.n / 4 {
		in, out := unsafe.Add(src, q*k.inMul), unsafe.Add(dst, q*k.outMul)
		for w := 0; w < row; w += 8 {
			x0, x1, x2, x3 := ld(in, w), ld(in, is+w), ld(in, 2*is+w), ld(in, 3*is+w)
			if unit == 8 {
				x0, x2 = swap(x0, x2, 16, m16)
				x1, x3 = swap(x1, x3, 16, m16)
				x0, x1 = swap(x0, x1, 8, m8)
				x2, x3 = swap(x2, x3, 8, m8)
			} else {
				x0, x2 = swap(x0, x2, 32, m32)
				x1, x3 = swap(x1, x3, 32, m32)
				x0, x1 = swap(x0, x1, 16, m16)
				x2, x3 = swap(x2, x3, 16, m16)
			}
			st(out, w, x0)
			st(out, os+w, x1)
			st(out, 2*os+w, x2)
			st(out, 3*os+w, x3)
		}
	}
}

// words8: r = 8 only for 8-bit units in 64-bit chunks (u64 ↔ 8xu8 and
// wider vectors of them).
func (k *wordKernel) words8(dst, src unsafe.Pointer) {
	is, os, row := k.inStep, k.outStep, k.row
	for q := range k.n / 8 {
		in, out := unsafe.Add(src, q*k.inMul), unsafe.Add(dst, q*k.outMul)
		for w := 0; w < row; w += 8 {
			x0, x1, x2, x3 := ld(in, w), ld(in, is+w), ld(in, 2*is+w), ld(in, 3*is+w)
			x4, x5, x6, x7 := ld(in, 4*is+w), ld(in, 5*is+w), ld(in, 6*is+w), ld(in, 7*is+w)
			x0, x4 = swap(x0, x4, 32, m32)
			x1, x5 = swap(x1, x5, 32, m32)
			x2, x6 = swap(x2, x6, 32, m32)
			x3, x7 = swap(x3, x7, 32, m32)
			x0, x2 = swap(x0, x2, 16, m16)
			x1, x3 = swap(x1, x3, 16, m16)
			x4, x6 = swap(x4, x6, 16, m16)
			x5, x7 = swap(x5, x7, 16, m16)
			x0, x1 = swap(x0, x1, 8, m8)
			x2, x3 = swap(x2, x3, 8, m8)
			x4, x5 = swap(x4, x5, 8, m8)
			x6, x7 = swap(x6, x7, 8, m8)
			st(out, w, x0)
			st(out, os+w, x1)
			st(out, 2*os+w, x2)
			st(out, 3*os+w, x3)
			st(out, 4*os+w, x4)
			st(out, 5*os+w, x5)
			st(out, 6*os+w, x6)
			st(out, 7*os+w, x7)
		}
	}
}

// swapUnit is the r = 2 unit transpose for 4-byte rows: 16-bit units for
// u32 ↔ 2xu16, 8-bit units within 16-bit chunks for 2xu16 ↔ 4xu8.
func swapUnit(a, b uint64, unit uint) (uint64, uint64) {
	if unit == 8 {
		return swap(a, b, 8, m8)
	}
	return swap(a, b, 16, m16)
}

// rows4x2: 4-byte rows, r = 2, two rows per word. Split: the words for
// wide rows (q, q+1) and (n/2 + q, n/2 + q + 1) transpose to narrow rows
// 2q+k and 2q+2+k in their 32-bit lanes; a swap of the lanes puts rows
// 2q..2q+3 in order. Merging runs the same swaps in reverse order.
func (k *wordKernel) rows4x2(dst, src unsafe.Pointer) {
	nq := k.n / 2
	step := nq * 4 // from wide row q to wide row n/2 + q
	for q := 0; q < nq; q += 2 {
		wide, narrow := q*4, q*8
		if k.split {
			x0, x1 := swapUnit(ld(src, wide), ld(src, wide+step), k.unit)
			x0, x1 = swap(x0, x1, 32, m32)
			st(dst, narrow, x0)
			st(dst, narrow+8, x1)
		} else {
			x0, x1 := swap(ld(src, narrow), ld(src, narrow+8), 32, m32)
			x0, x1 = swapUnit(x0, x1, k.unit)
			st(dst, wide, x0)
			st(dst, wide+step, x1)
		}
	}
}

// rows4x4: u32 ↔ 4xu8, two rows per word: after the 4×4 byte transpose,
// words k hold narrow rows 4q+k and 4q+4+k; swapping lanes between words
// 0 and 1 and between 2 and 3 gives rows 4q..4q+7 as words 0, 2, 1, 3.
func (k *wordKernel) rows4x4(dst, src unsafe.Pointer) {
	nq := k.n / 4
	step := nq * 4
	for q := 0; q < nq; q += 2 {
		wide, narrow := q*4, q*16
		if k.split {
			x0, x1, x2, x3 := ld(src, wide), ld(src, wide+step), ld(src, wide+2*step), ld(src, wide+3*step)
			x0, x1, x2, x3 = transpose4x4x8(x0, x1, x2, x3)
			x0, x1 = swap(x0, x1, 32, m32)
			x2, x3 = swap(x2, x3, 32, m32)
			st(dst, narrow, x0)
			st(dst, narrow+8, x2)
			st(dst, narrow+16, x1)
			st(dst, narrow+24, x3)
		} else {
			x0, x2, x1, x3 := ld(src, narrow), ld(src, narrow+8), ld(src, narrow+16), ld(src, narrow+24)
			x0, x1 = swap(x0, x1, 32, m32)
			x2, x3 = swap(x2, x3, 32, m32)
			x0, x1, x2, x3 = transpose4x4x8(x0, x1, x2, x3)
			st(dst, wide, x0)
			st(dst, wide+step, x1)
			st(dst, wide+2*step, x2)
			st(dst, wide+3*step, x3)
		}
	}
}

// transpose4x4x8 transposes 4×4 matrices of bytes, one per 32-bit lane.
func transpose4x4x8(x0, x1, x2, x3 uint64) (uint64, uint64, uint64, uint64) {
	x0, x2 = swap(x0, x2, 16, m16)
	x1, x3 = swap(x1, x3, 16, m16)
	x0, x1 = swap(x0, x1, 8, m8)
	x2, x3 = swap(x2, x3, 8, m8)
	return x0, x1, x2, x3
}

// rows2x2: u16 ↔ 2xu8, four rows per word. The byte transpose leaves
// narrow rows 2(q+l)+k in lane l of word k; a swap of 32-bit halves and a
// swap of the middle 16-bit lanes of each word put rows 2q..2q+7 in order.
func (k *wordKernel) rows2x2(dst, src unsafe.Pointer) {
	nq := k.n / 2
	step := nq * 2
	for q := 0; q < nq; q += 4 {
		wide, narrow := q*2, q*4
		if k.split {
			x0, x1 := swap(ld(src, wide), ld(src, wide+step), 8, m8)
			x0, x1 = swap(x0, x1, 32, m32)
			st(dst, narrow, swapMid16(x0))
			st(dst, narrow+8, swapMid16(x1))
		} else {
			x0, x1 := swap(swapMid16(ld(src, narrow)), swapMid16(ld(src, narrow+8)), 32, m32)
			x0, x1 = swap(x0, x1, 8, m8)
			st(dst, wide, x0)
			st(dst, wide+step, x1)
		}
	}
}

// swapMid16 exchanges the 16-bit lanes 1 and 2 of x.
func swapMid16(x uint64) uint64 {
	t := (x ^ x>>16) & 0x00000000FFFF0000
	return x ^ t ^ t<<16
}

// row4r2, row4r4 and row2 move one row per word, for subgroup sizes the
// packed loops above do not divide.
func (k *wordKernel) row4r2(dst, src unsafe.Pointer) {
	is, os := k.inStep, k.outStep
	for q := range k.n / 2 {
		in, out := q*k.inMul, q*k.outMul
		x0, x1 := swapUnit(ld32(src, in), ld32(src, in+is), k.unit)
		st32(dst, out, x0)
		st32(dst, out+os, x1)
	}
}

func (k *wordKernel) row4r4(dst, src unsafe.Pointer) {
	is, os := k.inStep, k.outStep
	for q := range k.n / 4 {
		in, out := q*k.inMul, q*k.outMul
		x0, x1, x2, x3 := transpose4x4x8(ld32(src, in), ld32(src, in+is), ld32(src, in+2*is), ld32(src, in+3*is))
		st32(dst, out, x0)
		st32(dst, out+os, x1)
		st32(dst, out+2*os, x2)
		st32(dst, out+3*os, x3)
	}
}

func (k *wordKernel) row2(dst, src unsafe.Pointer) {
	is, os := k.inStep, k.outStep
	for q := range k.n / 2 {
		in, out := q*k.inMul, q*k.outMul
		x0, x1 := swap(ld16(src, in), ld16(src, in+is), 8, m8)
		st16(dst, out, x0)
		st16(dst, out+os, x1)
	}
}
