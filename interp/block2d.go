package interp

import (
	"fmt"
	"math/bits"

	"spvx/spirv"
)

// SPV_INTEL_2d_block_io (revision 2, 2025-02-28): the subgroup 2D block
// loads (plain, Transform, Transpose), the prefetch and the store. The
// subgroup reads or writes Block Count blocks of Block Height rows of
// Block Width elements of Element Size bytes from a row-major surface
// (base pointer, width in bytes, height in rows, pitch in bytes), starting
// at element x, row y (Coordinate); block b starts at column x + b·Width.
//
// Mapping ("Mapping Block Data to Invocations"): the block is first made
// a grid of cells. Plain loads and stores: cell (r, c) is element (r, c),
// the grid's width the Block Width padded to a power of two. Transpose:
// cell (r, c) is element (c, r), the grid's width the Block Height padded
// to a power of two. Transform: cell (r, c) is the 32-bit packing of
// elements (r·k+i, c), i < k = 4/Element Size, element i in bits
// i·8·Element Size up; the grid's width the padded Block Width. With the
// grid width G and subgroup size S (both powers of two): if G >= S,
// invocation i holds cells c = i·G/S .. (i+1)·G/S-1 of every row r, as
// components r·G/S + c%(G/S); if G < S, S/G rows share the subgroup:
// invocation i holds column i%G of rows j·S/G + i/G in component j. Block
// b's components follow block b-1's in the invocation's storage (the
// Dst or Src Pointer, components Element Size bytes apart, 4 for
// Transform).
//
// Padding: cells of rows >= the block height or columns >= its width
// read as zero and are not stored. Out of bounds (the spec's rule): an
// element outside the surface (column outside [0, Memory Width/Element
// Size), row outside [0, Memory Height)) loads as zero and is not stored.
//
// Implementation-defined choices:
//
//   - Legal blocks. The extension leaves the block sizes to the device;
//     here every shape the extension's Restrictions allow runs: Element
//     Size 1, 2, 4 or 8; Block Width, Height and Count at least 1, the
//     width a multiple of 4 for 1-byte and of 2 for 2-byte elements;
//     Transform only on 1- and 2-byte elements (the only packings it
//     defines). To bound memory, a block set may have at most 1<<16 cells
//     after padding. Anything else is a compile error.
//   - When G < S and S/G does not divide the grid's rows, the grid's
//     height is rounded up to a multiple of S/G: the extra components are
//     padding (zero). IGC's SIMD32 test (block_loads_sg32.ll) agrees: a
//     16-wide, 1-row block of bytes gives each invocation one byte. It
//     does not for a 32-wide, 1-row block of bytes at SIMD32, which it
//     reads as 2 bytes per invocation where the extension's scenario 1
//     gives one element: the text is followed here.
//   - The undefined cases of the Restrictions are faults, FaultUndefined
//     naming the rule: base address not 64-byte aligned (its offset in its
//     buffer), an invocation's Dst/Src address not aligned to the Element
//     Size, Memory Width outside [64, 2^24] bytes or not a multiple of 4
//     (1- and 2-byte elements) or of the Element Size, Memory Height
//     outside [1, 2^24], Memory Pitch below the width or not a multiple
//     of 16, x not a multiple of 4 (1-byte) or 2 (2-byte). A subgroup size
//     that is not a power of two is a compile error. Operands that differ
//     between invocations, or execution by less than a full subgroup, is a
//     FaultSubgroup. An in-surface element outside its buffer is a
//     FaultOutOfBounds. The prefetch makes every check but touches no
//     memory.
//   - Memory Width, Height, Pitch and Coordinate are read as signed
//     integers of their own width (the extension allows 32 or 64 bits).
//   - Element Size, like the block sizes the extension requires to be
//     constants, must be a constant 32-bit integer here: it fixes the
//     layout at compile time (IGC's builtins take it as a template
//     parameter too).

// block2dKind is the operation of an opBlock2D.
type block2dKind uint8

const (
	b2Load block2dKind = iota
	b2Transform
	b2Transpose
	b2Prefetch
	b2Store
)

// block2dMaxCells bounds a block set's cells after padding.
const block2dMaxCells = 1 << 16

// block2dInfo is a compiled 2D block instruction.
type block2dInfo struct {
	kind            block2dKind
	opc             spirv.Opcode
	esize, W, H, n  int // Element Size, Block Width, Height, Count
	base, priv      int32
	mw, mh, pitch   int32 // slots of the surface operands
	coord           int32 // slot of Coordinate (two components)
	mwW, mhW, pW    uint8 // their widths
	cW              uint8
	gw, gh          int // the cell grid of one block
	cellB, perBlock int // bytes of a cell; cells per invocation per block
}

// block2dOps maps the opcodes to their kinds.
var block2dOps = map[spirv.Opcode]block2dKind{
	spirv.OpSubgroup2DBlockLoadINTEL:          b2Load,
	spirv.OpSubgroup2DBlockLoadTransformINTEL: b2Transform,
	spirv.OpSubgroup2DBlockLoadTransposeINTEL: b2Transpose,
	spirv.OpSubgroup2DBlockPrefetchINTEL:      b2Prefetch,
	spirv.OpSubgroup2DBlockStoreINTEL:         b2Store,
}

// compileBlock2D compiles the SPV_INTEL_2d_block_io instructions.
func (c *compiler) compileBlock2D(q *cinst) (bool, error) {
	kind, ok := block2dOps[q.opc]
	if !ok {
		return false, nil
	}
	d, err := c.decodeBlock2D(q, kind)
	if err != nil {
		return true, fmt.Errorf("%s: %v", q.opc, err)
	}
	c.p.block2d = append(c.p.block2d, d)
	c.emit(inst{op: opBlock2D, aux: int32(len(c.p.block2d) - 1), a: -1, b: -1, c: -1})
	return true, nil
}

// decodeBlock2D decodes and checks the operands and lays out the grid.
func (c *compiler) decodeBlock2D(q *cinst, kind block2dKind) (d block2dInfo, err error) {
	want := 10
	if kind == b2Prefetch {
		want = 9
	}
	if len(q.ops) != want {
		return d, fmt.Errorf("wants %d operands, not %d", want, len(q.ops))
	}
	d.kind, d.opc, d.priv = kind, q.opc, -1
	var k [4]int
	for i, name := range []string{"Element Size", "Block Width", "Block Height", "Block Count"} {
		if k[i], err = c.block2dConst(q.ops[i], name); err != nil {
			return d, err
		}
	}
	d.esize, d.W, d.H, d.n = k[0], k[1], k[2], k[3]
	if err = d.checkShape(c.p.S); err != nil {
		return d, err
	}
	surf, priv := q.ops[4], 9
	if kind == b2Store {
		surf, priv = q.ops[5], 4
	}
	if d.base, err = c.block2dPtr(surf, spirv.StorageClassCrossWorkgroup, "the surface base pointer", false); err != nil {
		return d, err
	}
	if kind != b2Prefetch {
		if d.priv, err = c.block2dPtr(q.ops[priv], spirv.StorageClassFunction, "the invocation's pointer", kind == b2Transform); err != nil {
			return d, err
		}
	}
	rest := q.ops[5:9]
	if kind == b2Store {
		rest = q.ops[6:10]
	}
	return d, c.block2dSurface(&d, rest)
}

// block2dConst is a constant 32-bit integer scalar operand.
func (c *compiler) block2dConst(id uint32, name string) (int, error) {
	_, t, err := c.val(id)
	if err != nil {
		return 0, err
	}
	v, ok := c.constScalar(id)
	if !ok || t.sc.kind != skInt || t.sc.width != 32 || t.ncomp != 1 {
		return 0, fmt.Errorf("%s must be a constant 32-bit integer scalar", name)
	}
	if int32(v) < 1 {
		return 0, fmt.Errorf("%s %d is not positive", name, int32(v))
	}
	return int(v), nil
}

// checkShape applies the Restrictions to the block and lays out its grid
// for subgroup size S.
func (d *block2dInfo) checkShape(S int) error {
	switch d.esize {
	case 1, 2, 4, 8:
	default:
		return fmt.Errorf("Element Size %d is not 1, 2, 4 or 8", d.esize)
	}
	if d.esize < 4 && d.W%(4/d.esize) != 0 {
		return fmt.Errorf("Block Width %d must be a multiple of %d for %d-byte elements", d.W, 4/d.esize, d.esize)
	}
	if d.kind == b2Transform && d.esize > 2 {
		return fmt.Errorf("the transform packs only 1- and 2-byte elements, not %d-byte ones", d.esize)
	}
	if S&(S-1) != 0 {
		return fmt.Errorf("the subgroup size %d is not a power of two", S)
	}
	if d.W > block2dMaxCells || d.H > block2dMaxCells || d.n > block2dMaxCells {
		return fmt.Errorf("a %dx%d block of %d is larger than the %d cells supported", d.W, d.H, d.n, block2dMaxCells)
	}
	d.gw, d.gh, d.cellB = pow2Ceil(d.W), d.H, d.esize
	switch d.kind {
	case b2Transpose:
		d.gw, d.gh = pow2Ceil(d.H), d.W
	case b2Transform:
		pack := 4 / d.esize
		d.gh, d.cellB = (d.H+pack-1)/pack, 4
	}
	if d.gw < S {
		share := S / d.gw
		d.gh = (d.gh + share - 1) / share * share
	}
	if cells := d.gw * d.gh * d.n; cells > block2dMaxCells {
		return fmt.Errorf("a %dx%d block of %d is larger than the %d cells supported", d.W, d.H, d.n, block2dMaxCells)
	}
	d.perBlock = d.gw * d.gh / S
	return nil
}

// pow2Ceil is the least power of two >= n (n >= 1).
func pow2Ceil(n int) int {
	return 1 << bits.Len(uint(n-1))
}

// block2dPtr checks a pointer operand's storage class (and, for the
// transform's destination, its pointee) and returns its slot.
func (c *compiler) block2dPtr(id uint32, sc spirv.StorageClass, name string, u32 bool) (int32, error) {
	s, t, err := c.val(id)
	if err != nil {
		return 0, err
	}
	if t.kind != spirv.TypePointer || t.storage != sc {
		class := "CrossWorkgroup"
		if sc == spirv.StorageClassFunction {
			class = "Function"
		}
		return 0, fmt.Errorf("%s must be a pointer to the %s storage class", name, class)
	}
	if u32 {
		pe, err := c.pointee(id, t)
		if err != nil {
			return 0, err
		}
		if pe.kind != spirv.TypeInt || pe.sc.width != 32 {
			return 0, fmt.Errorf("the transform's Dst Pointer must point to a 32-bit integer scalar")
		}
	}
	return s, nil
}

// block2dSurface decodes Memory Width, Height, Pitch and Coordinate.
func (c *compiler) block2dSurface(d *block2dInfo, ops []uint32) error {
	names := []string{"Memory Width", "Memory Height", "Memory Pitch"}
	slots := []*int32{&d.mw, &d.mh, &d.pitch}
	widths := []*uint8{&d.mwW, &d.mhW, &d.pW}
	for i, name := range names {
		s, t, err := c.val(ops[i])
		if err != nil {
			return err
		}
		if t.sc.kind != skInt || t.ncomp != 1 || t.kind != spirv.TypeInt {
			return fmt.Errorf("%s must be an integer scalar", name)
		}
		*slots[i], *widths[i] = s, t.sc.width
	}
	s, t, err := c.val(ops[3])
	if err != nil {
		return err
	}
	if t.kind != spirv.TypeVector || t.ncomp != 2 || t.sc.kind != skInt {
		return fmt.Errorf("Coordinate must be a vector of two integers")
	}
	d.coord, d.cW = s, t.sc.width
	return nil
}

// block2dSurf is a surface's run-time operands, uniform over the subgroup.
type block2dSurf struct {
	base                 uint64
	width, height, pitch int64
	x, y                 int64
}

// block2d runs opBlock2D over the subgroup.
func (sg *subgroup) block2d(in *inst, lanes []int32) *Fault {
	d := &sg.p.block2d[in.aux]
	if sg.n != sg.S || len(lanes) != sg.S {
		return &Fault{Kind: FaultSubgroup, Msg: fmt.Sprintf("%s executed by %d of %d invocations (subgroup of %d present): undefined unless all invocations of a full subgroup execute it together", d.opc, len(lanes), sg.S, sg.n)}
	}
	s, f := sg.block2dOperands(d)
	if f != nil {
		return f
	}
	if f := s.check(d); f != nil {
		return f
	}
	if _, _, f := sg.deref(s.base, 0, 0); f != nil { // a null or unbound base, prefetch too
		f.Msg = fmt.Sprintf("%s: surface base: %s", d.opc, f.Msg)
		return f
	}
	if f := sg.block2dPrivAlign(d); f != nil || d.kind == b2Prefetch {
		return f
	}
	if d.kind == b2Store {
		return sg.block2dStore(d, &s)
	}
	return sg.block2dLoad(d, &s)
}

// block2dOperands reads the surface operands, which must be the same in
// every invocation.
func (sg *subgroup) block2dOperands(d *block2dInfo) (block2dSurf, *Fault) {
	var s block2dSurf
	for l := 0; l < sg.S; l++ {
		v := block2dSurf{
			base:  sg.reg(d.base, 0, l),
			width: sext(sg.reg(d.mw, 0, l), d.mwW), height: sext(sg.reg(d.mh, 0, l), d.mhW),
			pitch: sext(sg.reg(d.pitch, 0, l), d.pW),
			x:     sext(sg.reg(d.coord, 0, l), d.cW), y: sext(sg.reg(d.coord, 1, l), d.cW),
		}
		if l == 0 {
			s = v
		} else if v != s {
			return s, &Fault{Kind: FaultSubgroup, Lane: uint32(l), Msg: fmt.Sprintf("%s: the surface operands differ between invocations 0 and %d: undefined unless they are dynamically uniform", d.opc, l)}
		}
	}
	return s, nil
}

// check applies the extension's Restrictions to the surface.
func (s *block2dSurf) check(d *block2dInfo) *Fault {
	undef := func(format string, a ...any) *Fault {
		return &Fault{Kind: FaultUndefined, Msg: fmt.Sprintf("%s: ", d.opc) + fmt.Sprintf(format, a...)}
	}
	const max24 = 1 << 24
	wq := int64(max(4, d.esize))
	switch {
	case s.base&63 != 0:
		return undef("the surface base address is %d bytes past a 64-byte boundary: it must be cache-line aligned", s.base&63)
	case s.width < 64 || s.width > max24 || s.width%wq != 0:
		return undef("Memory Width %d must be in [64, 2^24] bytes and a multiple of %d", s.width, wq)
	case s.height < 1 || s.height > max24:
		return undef("Memory Height %d must be in [1, 2^24] rows", s.height)
	case s.pitch < s.width || s.pitch%16 != 0:
		return undef("Memory Pitch %d must be at least the Memory Width %d and a multiple of 16", s.pitch, s.width)
	case d.esize < 4 && s.x%int64(4/d.esize) != 0:
		return undef("the Coordinate's x %d must be a multiple of %d for %d-byte elements", s.x, 4/d.esize, d.esize)
	}
	return nil
}

// block2dPrivAlign checks that each invocation's storage is aligned to
// the Element Size.
func (sg *subgroup) block2dPrivAlign(d *block2dInfo) *Fault {
	if d.priv < 0 {
		return nil
	}
	for l := 0; l < sg.S; l++ {
		if p := sg.reg(d.priv, 0, l); p%uint64(d.esize) != 0 {
			return &Fault{Kind: FaultUndefined, Lane: uint32(l), Msg: fmt.Sprintf("%s: the invocation's address %#x is not aligned to the %d-byte Element Size", d.opc, p, d.esize)}
		}
	}
	return nil
}

// cellLane is the invocation and component of cell (r, c) of block b.
func (d *block2dInfo) cellLane(S, b, r, c int) (lane, comp int) {
	if d.gw >= S {
		e := d.gw / S
		return c / e, b*d.perBlock + r*e + c%e
	}
	share := S / d.gw
	return r%share*d.gw + c, b*d.perBlock + r/share
}

// cellElem is the block element (row, col) in part i of cell (r, c): the
// cell itself, the transpose's swap, or the transform's i-th row.
func (d *block2dInfo) cellElem(r, c, i int) (row, col int) {
	switch d.kind {
	case b2Transpose:
		return c, r
	case b2Transform:
		return r*(4/d.esize) + i, c
	}
	return r, c
}

// elemAddr is the byte offset from the base of element (row, col) of
// block b, and whether it is in the block and the surface. The offset
// saturates at 2^64-1 (a pitch of up to 2^63 times a row of up to 2^24),
// which no buffer reaches.
func (s *block2dSurf) elemAddr(d *block2dInfo, b, row, col int) (uint64, bool) {
	if row >= d.H || col >= d.W {
		return 0, false
	}
	x, y := s.x+int64(b*d.W+col), s.y+int64(row)
	if x < 0 || y < 0 || y >= s.height || x >= s.width/int64(d.esize) { // no overflow: width <= 2^24
		return 0, false
	}
	hi, lo := bits.Mul64(uint64(y), uint64(s.pitch))
	off, carry := bits.Add64(lo, uint64(x)*uint64(d.esize), 0)
	if hi != 0 || carry != 0 {
		off = ^uint64(0)
	}
	return off, true
}

// surfAccess resolves the element at byte offset off from the surface's
// base for an access of esize bytes.
func (sg *subgroup) surfAccess(d *block2dInfo, s *block2dSurf, off uint64) ([]byte, int, *Fault) {
	room := uint64(1)<<sg.p.ptrShift - 1 - s.base&(1<<sg.p.ptrShift-1) // offsets left in the base's region
	if off > room {
		return nil, 0, &Fault{Kind: FaultOutOfBounds, Msg: fmt.Sprintf("%s: surface element %d bytes past the base is beyond any buffer", d.opc, off)}
	}
	m, o, f := sg.deref(s.base+off, d.esize, 0)
	if f != nil {
		f.Msg = fmt.Sprintf("%s: surface %s", d.opc, f.Msg)
	}
	return m, o, f
}

// block2dLoad reads the blocks into every invocation's storage.
func (sg *subgroup) block2dLoad(d *block2dInfo, s *block2dSurf) *Fault {
	parts := d.cellB / d.esize
	for b := 0; b < d.n; b++ {
		for r := 0; r < d.gh; r++ {
			for c := 0; c < d.gw; c++ {
				var v uint64
				for i := 0; i < parts; i++ {
					row, col := d.cellElem(r, c, i)
					off, ok := s.elemAddr(d, b, row, col)
					if !ok {
						continue
					}
					m, o, f := sg.surfAccess(d, s, off)
					if f != nil {
						return f
					}
					v |= getLE(m[o:], uint8(d.esize)) << (8 * d.esize * i)
				}
				lane, comp := d.cellLane(sg.S, b, r, c)
				m, o, f := sg.deref(sg.reg(d.priv, 0, lane)+uint64(comp*d.cellB), d.cellB, int32(lane))
				if f != nil {
					return f
				}
				putLE(m[o:], uint8(d.cellB), v)
			}
		}
	}
	return nil
}

// block2dStore writes every invocation's storage to the blocks.
func (sg *subgroup) block2dStore(d *block2dInfo, s *block2dSurf) *Fault {
	for b := 0; b < d.n; b++ {
		for r := 0; r < d.gh; r++ {
			for c := 0; c < d.gw; c++ {
				lane, comp := d.cellLane(sg.S, b, r, c)
				m, o, f := sg.deref(sg.reg(d.priv, 0, lane)+uint64(comp*d.cellB), d.cellB, int32(lane))
				if f != nil {
					return f
				}
				off, ok := s.elemAddr(d, b, r, c)
				if !ok {
					continue
				}
				v := getLE(m[o:], uint8(d.cellB))
				if m, o, f = sg.surfAccess(d, s, off); f != nil {
					return f
				}
				putLE(m[o:], uint8(d.esize), v)
			}
		}
	}
	return nil
}
