package mx

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// The assembly kernels (where the machine has them; see kernels_amd64.go)
// must give the portable loops' bytes exactly. These tests run Quantize
// and Dequantize both ways over inputs built to reach every code, scale
// and special case, with lengths that leave a short last block.

func logKernels(t *testing.T) {
	t.Helper()
	if !haveKernels() {
		t.Log("no assembly kernels on this machine: both paths are the portable loops")
	}
}

// kernelBlocks returns blocks of 32 values covering, for an element format,
// every grid point and midpoint (and their float32 neighbours) at shared
// exponents from the float32 subnormals to the top of the range, plus
// zero, subnormal, huge, NaN and Inf blocks.
func kernelBlocks(f Format, rng *rand.Rand) []float32 {
	var pool []float32
	for _, x := range interestingInputs(f) {
		if x32 := float32(x); !math.IsInf(float64(x32), 0) && x32 == x32 && math.Abs(x) <= f.Max()*2 {
			pool = append(pool, x32)
		}
	}
	var out []float32
	block := func(fill func(i int) float32) {
		for i := range 32 {
			out = append(out, fill(i))
		}
	}
	for e := -160; e <= 130; e += 3 {
		// A block of grid points scaled by 2^e, its largest value first so
		// that the shared scale puts the grid where the format has it.
		off := rng.IntN(len(pool))
		block(func(i int) float32 {
			if i == 0 {
				return float32(math.Ldexp(f.Max(), e))
			}
			return float32(math.Ldexp(float64(pool[(off+i)%len(pool)]), e))
		})
	}
	for range 64 {
		block(func(int) float32 { return pool[rng.IntN(len(pool))] })
	}
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	block(func(int) float32 { return 0 })
	block(func(i int) float32 { return float32(math.Copysign(0, -1)) })
	block(func(i int) float32 { return math.Float32frombits(uint32(i) * 0x3FFFF) }) // subnormals
	block(func(i int) float32 { return math.Float32frombits(0x80000001 + uint32(i)) })
	block(func(i int) float32 { return math.Float32frombits(0x7F7FFFFF - uint32(i)*0x10000) }) // up to FLT_MAX
	block(func(i int) float32 { return -math.Float32frombits(0x7F7FFFFF - uint32(i)) })
	block(func(i int) float32 { return []float32{1, nan}[i/31] })
	block(func(i int) float32 { return []float32{-inf, 1}[min(i, 1)] })
	block(func(i int) float32 { return []float32{2, -inf}[i/31] })
	block(func(i int) float32 { return math.Float32frombits(0x7F800001 + uint32(i)) }) // NaN payloads
	out = append(out, randomBlockData(rng, 32*40, true)...)
	return out
}

func TestQuantizeKernelsMatchPortable(t *testing.T) {
	logKernels(t)
	withEachPath(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(21, 22))
		for _, b := range BlockFormats {
			all := kernelBlocks(b.Element(), rng)
			for _, cut := range [][2]int{{0, len(all)}, {0, len(all) - 1}, {3, len(all) - 31}, {1, 34}, {0, 32}, {5, 36}, {0, 1}} {
				src := all[cut[0]:cut[1]] // misaligned starts move every block
				for _, rounding := range []Rounding{TiesEven, TiesAway} {
					checkQuantizeKernel(t, src, b, Options{Rounding: rounding, Workers: 1})
				}
			}
		}
	})
}

// checkQuantizeKernel compares Quantize on this path with the portable
// loop on src.
func checkQuantizeKernel(t *testing.T, src []float32, b BlockFormat, opt Options) {
	t.Helper()
	n := len(src)
	s1, e1 := make([]byte, mustScaleBytes(n, 32)), make([]byte, mustElementBytes(b, n))
	s2, e2 := make([]byte, len(s1)), make([]byte, len(e1))
	if err := quantize(s1, e1, src, b, opt, true); err != nil {
		t.Fatal(err)
	}
	if err := quantize(s2, e2, src, b, opt, false); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(s1, s2) || !bytes.Equal(e1, e2) {
		blk := firstDiff(s1, s2, e1, e2, b)
		t.Fatalf("%v %v n=%d: kernel differs from the portable loop in block %d\nsrc %v\nportable % x | % x\nkernel   % x | % x",
			b, opt.Rounding, n, blk, src[32*blk:min(32*blk+32, n)], s1[blk], blockBytes(e1, b, blk), s2[blk], blockBytes(e2, b, blk))
	}
}

// firstDiff returns the first block whose scale or elements differ.
func firstDiff(s1, s2, e1, e2 []byte, b BlockFormat) int {
	for blk := range s1 {
		if s1[blk] != s2[blk] || !bytes.Equal(blockBytes(e1, b, blk), blockBytes(e2, b, blk)) {
			return blk
		}
	}
	return -1
}

func blockBytes(e []byte, b BlockFormat, blk int) []byte {
	per := mustElementBytes(b, 32)
	return e[blk*per : min(blk*per+per, len(e))]
}

// TestDequantizeKernelsMatchPortable decodes every element byte under
// every scale byte, NaN scale included, and random data with a short tail,
// on every kernel path, to float32 (against the portable loop) and to
// bfloat16 and binary16 (against the portable float32 rounded by the
// scalar functions).
func TestDequantizeKernelsMatchPortable(t *testing.T) {
	logKernels(t)
	withEachPath(t, func(t *testing.T) {
		for _, b := range BlockFormats {
			checkDequantizeKernels(t, b)
		}
	})
}

func checkDequantizeKernels(t *testing.T, b BlockFormat) {
	t.Helper()
	per := mustElementBytes(b, 32)
	var scales, elems []byte
	for s := range 256 {
		for c := 0; c < 256; c += per {
			scales = append(scales, byte(s))
			for i := range per {
				elems = append(elems, byte(c+i))
			}
		}
	}
	rng := rand.New(rand.NewPCG(23, 24))
	for range 100 {
		scales = append(scales, byte(rng.IntN(256)))
		for range per {
			elems = append(elems, byte(rng.IntN(256)))
		}
	}
	n := 32 * len(scales)
	for _, m := range []int{n, n - 1, n - 17, 63, 32, 5} {
		for _, mis := range []int{0, 1} {
			checkDequantizeLen(t, b, scales, elems, m, mis)
		}
	}
}

// alignedF32 and alignedU16 return slices of n elements starting on a
// 64-byte boundary (where the kernels may store non-temporally).
func alignedF32(n int) []float32 {
	s := make([]float32, n+16)
	return s[(64-int(uintptr(unsafe.Pointer(&s[0]))%64))%64/4:][:n]
}

func alignedU16(n int) []uint16 {
	s := make([]uint16, n+32)
	return s[(64-int(uintptr(unsafe.Pointer(&s[0]))%64))%64/2:][:n]
}

// checkDequantizeLen dequantizes m elements to outputs mis elements past
// a 64-byte boundary.
func checkDequantizeLen(t *testing.T, b BlockFormat, scales, elems []byte, m, mis int) {
	t.Helper()
	d1, d2 := make([]float32, m), alignedF32(m + mis)[mis:]
	bf, hf := alignedU16(m + mis)[mis:], alignedU16(m + mis)[mis:]
	if err := dequantize(d1, scales, elems, b, 32, 1, true); err != nil {
		t.Fatal(err)
	}
	if err := dequantize(d2, scales, elems, b, 32, 1, false); err != nil {
		t.Fatal(err)
	}
	if err := DequantizeBFloat16(bf, scales, elems, b, 32, 1); err != nil {
		t.Fatal(err)
	}
	if err := DequantizeHalf(hf, scales, elems, b, 32, 1); err != nil {
		t.Fatal(err)
	}
	for i := range d1 {
		s, c := scales[i/32], Code(elems, b.Element(), i)
		if math.Float32bits(d1[i]) != math.Float32bits(d2[i]) {
			t.Fatalf("%v n=%d+%d: element %d (scale %#02x, code %#02x): kernel %#08x, portable %#08x",
				b, mis, m, i, s, c, math.Float32bits(d2[i]), math.Float32bits(d1[i]))
		}
		if w := BFloat16FromFloat32(d1[i], RTE); bf[i] != w {
			t.Fatalf("%v n=%d+%d: bfloat16 element %d (scale %#02x, code %#02x): %#04x, want %#04x", b, mis, m, i, s, c, bf[i], w)
		}
		if w := HalfFromFloat32(d1[i], RTE); hf[i] != w {
			t.Fatalf("%v n=%d+%d: binary16 element %d (scale %#02x, code %#02x): %#04x, want %#04x", b, mis, m, i, s, c, hf[i], w)
		}
	}
}
