package mx

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"strings"
	"sync"
)

// BlockFormat is an MX block format: an element Format sharing one E8M0
// scale per block. The zero value is not a format.
type BlockFormat uint8

// The MX block formats of OCP MX v1.0 §5.
const (
	MXFP8E4M3 BlockFormat = iota + 1
	MXFP8E5M2
	MXFP6E3M2
	MXFP6E2M3
	MXFP4
	MXINT8Block
)

// BlockFormats lists every block format in table order.
var BlockFormats = []BlockFormat{MXFP8E4M3, MXFP8E5M2, MXFP6E3M2, MXFP6E2M3, MXFP4, MXINT8Block}

// DefaultBlockSize is the OCP MX block size k.
const DefaultBlockSize = 32

// MinBlockSize and MaxBlockSize bound the block sizes Quantize, Dequantize
// and ScaleBytes accept (OCP MX v1.0 fixes k = 32; other sizes are for
// experiments). The upper bound keeps every size computed from a block size
// (a parallel chunk of 4 blocks, a block's byte range) far from overflow,
// and a block of 2^20 elements already shares one scale across 4 MiB of
// float32 data. Outside the range the functions return ErrFormat.
const (
	MinBlockSize = 1
	MaxBlockSize = 1 << 20
)

// checkBlockSize returns ErrFormat, with the size, for a block size outside
// [MinBlockSize, MaxBlockSize].
func checkBlockSize(k int) error {
	if k < MinBlockSize || k > MaxBlockSize {
		return fmt.Errorf("%w: block size %d is outside %d to %d", ErrFormat, k, MinBlockSize, MaxBlockSize)
	}
	return nil
}

var blockFormatNames = [...]string{
	MXFP8E4M3:   "mxfp8_e4m3",
	MXFP8E5M2:   "mxfp8_e5m2",
	MXFP6E3M2:   "mxfp6_e3m2",
	MXFP6E2M3:   "mxfp6_e2m3",
	MXFP4:       "mxfp4",
	MXINT8Block: "mxint8",
}

var blockElements = [...]Format{
	MXFP8E4M3: E4M3, MXFP8E5M2: E5M2, MXFP6E3M2: E3M2, MXFP6E2M3: E2M3, MXFP4: E2M1, MXINT8Block: MXINT8,
}

func (b BlockFormat) valid() bool { return b >= MXFP8E4M3 && b <= MXINT8Block }

// String returns the name used by files and the CLI, e.g. "mxfp4".
func (b BlockFormat) String() string {
	if !b.valid() {
		return fmt.Sprintf("BlockFormat(%d)", uint8(b))
	}
	return blockFormatNames[b]
}

// Element returns the element format (E2M1 for MXFP4, ...).
func (b BlockFormat) Element() Format {
	if !b.valid() {
		return 0
	}
	return blockElements[b]
}

// ParseBlockFormat looks a block format up by name, ignoring case:
// mxfp8_e4m3, mxfp8_e5m2, mxfp6_e3m2, mxfp6_e2m3, mxfp4, mxint8.
func ParseBlockFormat(name string) (BlockFormat, error) {
	n := strings.ToLower(name)
	for _, b := range BlockFormats {
		if n == blockFormatNames[b] {
			return b, nil
		}
	}
	return 0, fmt.Errorf("unknown MX format %q (want one of mxfp8_e4m3 mxfp8_e5m2 mxfp6_e3m2 mxfp6_e2m3 mxfp4 mxint8)", name)
}

// ScaleBytes returns the size of the scales array for n elements: one byte
// per block, the last block possibly short, so ⌈n/blockSize⌉. It is exact
// for every n ≥ 0 (no intermediate sum can overflow), and returns ErrFormat
// for a negative n or a block size outside [MinBlockSize, MaxBlockSize].
func ScaleBytes(n, blockSize int) (int, error) {
	if err := checkBlockSize(blockSize); err != nil {
		return 0, err
	}
	if n < 0 {
		return 0, fmt.Errorf("%w: negative element count %d", ErrFormat, n)
	}
	return ceilDiv(n, blockSize), nil
}

// ceilDiv returns ⌈n/k⌉ for n ≥ 0, k > 0 without forming n+k−1, which
// overflows for n near MaxInt.
func ceilDiv(n, k int) int {
	q := n / k
	if n%k != 0 {
		q++
	}
	return q
}

// ElementBytes returns the size of the packed elements array for n elements
// of format b: ⌈n/2⌉ for FP4, ⌈6n/8⌉ for FP6, n for the 8-bit formats. It
// is exact for every n ≥ 0 (FP6 is counted in groups of 4 elements per 3
// bytes, so 6n is never formed), and returns ErrFormat for a negative n or
// an invalid b.
func ElementBytes(b BlockFormat, n int) (int, error) {
	if !b.valid() {
		return 0, ErrFormat
	}
	if n < 0 {
		return 0, fmt.Errorf("%w: negative element count %d", ErrFormat, n)
	}
	return elementBytes(b, n), nil
}

// elementBytes is ElementBytes for a valid b and n ≥ 0.
func elementBytes(b BlockFormat, n int) int {
	switch b.Element().Bits() {
	case 4:
		return ceilDiv(n, 2)
	case 6:
		return n/4*3 + ceilDiv(n%4*6, 8)
	}
	return n
}

// Rounding selects how block elements round to nearest.
type Rounding uint8

// Element rounding for Quantize.
const (
	TiesEven Rounding = iota // OCP's required roundTiesToEven (the default)
	TiesAway                 // ties away from zero: microxcaling's default "nearest"
)

// Options configure Quantize. The zero value is OCP MX with k = 32,
// ties to even, and as many workers as GOMAXPROCS for large inputs.
type Options struct {
	BlockSize int      // elements per shared scale; 0 means DefaultBlockSize
	Rounding  Rounding // TiesEven or TiesAway
	Workers   int      // goroutines for large inputs; 0 means GOMAXPROCS, 1 means serial
}

// ErrFormat reports an invalid block format or block size.
var ErrFormat = errors.New("mx: invalid block format or block size")

// ErrShortBuffer reports a scales or elements slice too small for the data.
var ErrShortBuffer = errors.New("mx: buffer too short")

func (o Options) blockSize() int {
	if o.BlockSize == 0 {
		return DefaultBlockSize
	}
	return o.BlockSize
}

// parallelMin is the element count below which splitting across goroutines
// costs more than it saves.
const parallelMin = 1 << 16

// Quantize converts src into MX blocks of format b, writing one scale byte
// per block into scales and the packed elements into elements (see the
// package documentation for the layout). scales must hold at least
// ScaleBytes(len(src), k) bytes and elements ElementBytes(b, len(src)); k
// must lie in [MinBlockSize, MaxBlockSize].
// Bits of the last element byte beyond the data are set to zero.
// It does not allocate when Workers is 1 or the input is small.
func Quantize(scales, elements []byte, src []float32, b BlockFormat, opt Options) error {
	return quantize(scales, elements, src, b, opt, false)
}

// quantize is Quantize; portable skips the assembly kernels, so tests can
// compare both paths.
func quantize(scales, elements []byte, src []float32, b BlockFormat, opt Options, portable bool) error {
	k := opt.blockSize()
	if !b.valid() || opt.Rounding > TiesAway {
		return ErrFormat
	}
	if err := checkBlockSize(k); err != nil {
		return err
	}
	n := len(src)
	eb := elementBytes(b, n)
	if len(scales) < ceilDiv(n, k) || len(elements) < eb {
		return ErrShortBuffer
	}
	q := quantizer{format: b, blockSize: k, tiesAway: opt.Rounding == TiesAway, portable: portable}
	if eb > 0 {
		elements[eb-1] = 0 // so the padding bits of a partial last byte are zero
	}
	if serial(n, opt.Workers) {
		q.run(scales, elements, src, 0, n) // no closure: no allocation
		return nil
	}
	quantizeParallel(q, scales, elements, src, opt.Workers)
	return nil
}

// Dequantize converts n = len(dst) elements of MX format b with block size
// blockSize (0 means DefaultBlockSize) back to float32: element·scale. A NaN
// scale (0xFF) makes its whole block NaN. Products beyond the float32 range
// (only possible with scales near 2^127) become ±Inf; all others are exact.
func Dequantize(dst []float32, scales, elements []byte, b BlockFormat, blockSize, workers int) error {
	return dequantize(dst, scales, elements, b, blockSize, workers, false)
}

// dequantize is Dequantize; portable skips the assembly kernels.
func dequantize(dst []float32, scales, elements []byte, b BlockFormat, blockSize, workers int, portable bool) error {
	if blockSize == 0 {
		blockSize = DefaultBlockSize
	}
	if !b.valid() {
		return ErrFormat
	}
	if err := checkBlockSize(blockSize); err != nil {
		return err
	}
	n := len(dst)
	if len(scales) < ceilDiv(n, blockSize) || len(elements) < elementBytes(b, n) {
		return ErrShortBuffer
	}
	d := dequantizer{format: b, blockSize: blockSize, portable: portable}
	if serial(n, workers) {
		d.run(dst, scales, elements, 0, n)
		return nil
	}
	dequantizeParallel(d, dst, scales, elements, workers)
	return nil
}

// quantizeParallel and dequantizeParallel take their state by value so that
// only the parallel path moves it to the heap.
func quantizeParallel(q quantizer, scales, elements []byte, src []float32, workers int) {
	parallelFor(len(src), q.blockSize, workers, func(lo, hi int) {
		q.run(scales, elements, src, lo, hi)
	})
}

func dequantizeParallel(d dequantizer, dst []float32, scales, elements []byte, workers int) {
	parallelFor(len(dst), d.blockSize, workers, func(lo, hi int) {
		d.run(dst, scales, elements, lo, hi)
	})
}

// serial reports whether n elements are better done on the caller's
// goroutine.
func serial(n, workers int) bool {
	return workers == 1 || n < parallelMin || (workers <= 0 && runtime.GOMAXPROCS(0) == 1)
}

// parallelFor calls body over [0, n) in chunks that start on block
// boundaries and on element-byte boundaries (2 FP4 or 4 FP6 elements), so
// workers never write the same byte. blockSize is at most MaxBlockSize
// (the callers check), so unit cannot overflow, and n is a slice length.
func parallelFor(n, blockSize, workers int, body func(lo, hi int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	unit := blockSize * 4 // a multiple of the block and of the packing group
	units := ceilDiv(n, unit)
	workers = min(workers, units)
	per := (units + workers - 1) / workers * unit
	var wg sync.WaitGroup
	for lo := 0; lo < n; lo += per {
		hi := min(lo+per, n)
		wg.Add(1)
		go func() {
			defer wg.Done()
			body(lo, hi)
		}()
	}
	wg.Wait()
}

// pow2f32 returns 2^k as a float32 for k in [−149, 127].
func pow2f32(k int) float32 {
	if k >= -126 {
		return math.Float32frombits(uint32(k+127) << 23)
	}
	return math.Float32frombits(1 << uint(k+149))
}

// sharedScale returns the E8M0 scale code of a block whose largest
// magnitude has float32 bits amaxBits (sign cleared): clamp(⌊log2 amax⌋ −
// emax, −127, 127) + 127, with 0xFF for NaN/Inf and 0 for an all-zero block.
func sharedScale(amaxBits uint32, emax int) uint8 {
	if amaxBits >= 0x7F800000 {
		return 0xFF
	}
	if amaxBits == 0 {
		return 0
	}
	var e int
	if amaxBits >= 0x00800000 {
		e = int(amaxBits>>23) - 127
	} else {
		e = bits.Len32(amaxBits) - 1 - 149 // float32 subnormal
	}
	s := min(max(e-emax, -127), 127)
	return uint8(s + 127)
}

// absMaxBits returns the largest float32 magnitude bits in v. Magnitude
// bits order like the values, and NaN bits exceed +Inf's, so one unsigned
// maximum finds amax and detects NaN and Inf at once.
func absMaxBits(v []float32) uint32 {
	var m uint32
	for _, x := range v {
		m = max(m, math.Float32bits(x)&0x7FFFFFFF)
	}
	return m
}

type quantizer struct {
	format    BlockFormat
	blockSize int
	tiesAway  bool
	portable  bool // no assembly kernels
}

// run quantizes elements [lo, hi); lo is a block boundary.
func (q *quantizer) run(scales, elements []byte, src []float32, lo, hi int) {
	elem := q.format.Element()
	emax := elem.EmaxElem()
	k := q.blockSize
	if k == 32 && !q.tiesAway && !q.portable {
		// Whole OCP-size blocks go to a vector kernel where there is one;
		// the rest (a short last block) continues below.
		lo += quantBlocks32(elem, scales[lo/32:], elements[lo*elem.Bits()/8:], src[lo:hi])
	}
	p := &formatInfos[elem].float
	var tab *rteTable
	if elem <= E5M2 {
		tab = rteTables()[elem]
	}
	for start := lo; start < hi; start += k {
		end := min(start+k, hi)
		block := src[start:end]
		s := sharedScale(absMaxBits(block), emax)
		scales[start/k] = s
		if s == 0xFF {
			// The scale alone makes the block NaN; store zero elements.
			for i := start; i < end; i++ {
				putCode(elements, elem.Bits(), i, 0)
			}
			continue
		}
		inv := pow2f32(127 - int(s)) // 2^−shared; multiplying by it is exact
		switch {
		case elem == MXINT8:
			for i, x := range block {
				elements[start+i] = mxint8Element(x*inv, q.tiesAway)
			}
		case q.tiesAway:
			for i, x := range block {
				putCode(elements, elem.Bits(), start+i, uint8(p.encodeTiesAway32(x*inv)))
			}
		case elem.Bits() == 8:
			out := elements[start:end]
			for i, x := range block {
				out[i] = tab.encode(math.Float32bits(x * inv))
			}
		case elem.Bits() == 4 && start%2 == 0:
			fp4Pairs(elements, block, start, inv, tab)
		case elem.Bits() == 6 && start%4 == 0:
			fp6Groups(elements, block, start, inv, tab)
		default:
			for i, x := range block {
				putCode(elements, elem.Bits(), start+i, tab.encode(math.Float32bits(x*inv)))
			}
		}
	}
}

// fp4Pairs packs a block starting at an even index two elements per byte.
func fp4Pairs(elements []byte, block []float32, start int, inv float32, tab *rteTable) {
	out := elements[start/2:]
	if len(block) == 32 && len(out) >= 16 {
		// The OCP block size gets fixed-size arrays: no bounds checks.
		in, o := (*[32]float32)(block), (*[16]byte)(out)
		for j := range 16 {
			c0 := tab.encode(math.Float32bits(in[2*j] * inv))
			c1 := tab.encode(math.Float32bits(in[2*j+1] * inv))
			o[j] = c0 | c1<<4
		}
		return
	}
	j := 0
	for ; j+1 < len(block); j += 2 {
		c0 := tab.encode(math.Float32bits(block[j] * inv))
		c1 := tab.encode(math.Float32bits(block[j+1] * inv))
		out[j/2] = c0 | c1<<4
	}
	if j < len(block) {
		putCode(elements, 4, start+j, tab.encode(math.Float32bits(block[j]*inv)))
	}
}

// fp6Groups packs a block starting at a multiple of 4, 4 elements per 3 bytes.
func fp6Groups(elements []byte, block []float32, start int, inv float32, tab *rteTable) {
	out := elements[start/4*3:]
	j := 0
	for ; j+3 < len(block); j += 4 {
		c0 := tab.encode(math.Float32bits(block[j] * inv))
		c1 := tab.encode(math.Float32bits(block[j+1] * inv))
		c2 := tab.encode(math.Float32bits(block[j+2] * inv))
		c3 := tab.encode(math.Float32bits(block[j+3] * inv))
		w := uint32(c0) | uint32(c1)<<6 | uint32(c2)<<12 | uint32(c3)<<18
		o := out[j/4*3 : j/4*3+3]
		o[0], o[1], o[2] = byte(w), byte(w>>8), byte(w>>16)
	}
	for ; j < len(block); j++ {
		putCode(elements, 6, start+j, tab.encode(math.Float32bits(block[j]*inv)))
	}
}

// encodeTiesAway32 is the ties-away element encoder (saturating).
func (p *floatParams) encodeTiesAway32(x float32) uint32 {
	u := math.Float32bits(x)
	a := u & 0x7FFFFFFF
	if a >= p.minNormal32 && a < p.overflow32 {
		sh := p.shift32
		code := (a + 1<<(sh-1)) >> sh
		if code -= p.rebias32; code <= p.maxMag {
			return (u>>31)*p.signBit | code
		}
	}
	return p.encode64(float64(x), roundTiesAway, true)
}

// mxint8Element rounds y·64 to nearest and clamps to ±127 (the MX
// reference's symmetric range). |y| < 2 after scaling, so y·64 is exact,
// and adding and removing 1.5·2^23 rounds it to an integer, ties to even,
// in float32 arithmetic.
func mxint8Element(y float32, tiesAway bool) uint8 {
	const roundMagic = 1.5 * (1 << 23)
	v := y * 64
	var r float32
	if tiesAway {
		r = float32(math.Round(float64(v)))
	} else {
		r = (v + roundMagic) - roundMagic
	}
	return uint8(int8(min(max(int32(r), -127), 127)))
}

// putCode stores one element code at index i of a packed elements array,
// leaving the neighbouring elements' bits alone.
func putCode(elements []byte, width int, i int, c uint8) {
	switch width {
	case 4:
		sh := uint(i&1) * 4
		elements[i/2] = elements[i/2]&^(0xF<<sh) | (c&0xF)<<sh
	case 6:
		lo, sh := fp6Pos(i)
		w := uint16(c&0x3F) << sh
		mask := uint16(0x3F) << sh
		elements[lo] = elements[lo]&^byte(mask) | byte(w)
		if mask>>8 != 0 {
			elements[lo+1] = elements[lo+1]&^byte(mask>>8) | byte(w>>8)
		}
	default:
		elements[i] = c
	}
}

// Code returns element i of a packed elements array of format f.
func Code(elements []byte, f Format, i int) uint8 {
	switch f.Bits() {
	case 4:
		return elements[i/2] >> (uint(i&1) * 4) & 0xF
	case 6:
		lo, sh := fp6Pos(i)
		w := uint16(elements[lo])
		if sh > 2 {
			w |= uint16(elements[lo+1]) << 8
		}
		return uint8(w>>sh) & 0x3F
	}
	return elements[i]
}

// fp6Pos returns the byte and bit offset of FP6 element i: bit 6i, counted
// as 3 bytes per 4 elements so that no 6i is formed (it wraps for i near
// MaxInt/6, and would then name a small, valid, wrong byte instead of
// failing the bounds check).
func fp6Pos(i int) (byteIdx int, shift uint) {
	if i < 0 {
		return -1, 0 // out of range, as the index is
	}
	r := i % 4
	return i/4*3 + r*6/8, uint(r * 6 % 8)
}

type dequantizer struct {
	format    BlockFormat
	blockSize int
	portable  bool // no assembly kernels
}

// run dequantizes elements [lo, hi); lo is a block boundary.
func (d *dequantizer) run(dst []float32, scales, elements []byte, lo, hi int) {
	elem := d.format.Element()
	table := &decodeTables[elem]
	k := d.blockSize
	if k == 32 && !d.portable {
		lo += dequantBlocks32(elem, dst[lo:hi], scales[lo/32:], elements[lo*elem.Bits()/8:])
	}
	nan := float32(math.NaN())
	for start := lo; start < hi; start += k {
		end := min(start+k, hi)
		out := dst[start:end]
		s := scales[start/k]
		if s == 0xFF {
			for i := range out {
				out[i] = nan
			}
			continue
		}
		scale := pow2f32(int(s) - 127)
		switch {
		case elem.Bits() == 8:
			in := elements[start:end]
			for i, c := range in {
				out[i] = table[c] * scale
			}
		case elem.Bits() == 4 && start%2 == 0:
			// Scale the 16 values once, then each byte is two lookups.
			var t [16]float32
			for c := range t {
				t[c] = table[c] * scale
			}
			in := elements[start/2 : (end+1)/2]
			if len(out) == 32 {
				o, b := (*[32]float32)(out), (*[16]byte)(in)
				for j, c := range b {
					o[2*j], o[2*j+1] = t[c&0xF], t[c>>4]
				}
				continue
			}
			j := 0
			for ; j+1 < len(out); j += 2 {
				c := in[j/2]
				out[j], out[j+1] = t[c&0xF], t[c>>4]
			}
			if j < len(out) {
				out[j] = t[in[j/2]&0xF]
			}
		case elem.Bits() == 6 && start%4 == 0:
			var t [64]float32
			for c := range t {
				t[c] = table[c] * scale
			}
			in := elements[start/4*3:]
			j := 0
			for ; j+3 < len(out); j += 4 {
				o := in[j/4*3 : j/4*3+3]
				w := uint32(o[0]) | uint32(o[1])<<8 | uint32(o[2])<<16
				out[j], out[j+1], out[j+2], out[j+3] = t[w&0x3F], t[w>>6&0x3F], t[w>>12&0x3F], t[w>>18&0x3F]
			}
			for ; j < len(out); j++ {
				out[j] = t[Code(elements, elem, start+j)]
			}
		default:
			for i := range out {
				out[i] = table[Code(elements, elem, start+i)] * scale
			}
		}
	}
}
