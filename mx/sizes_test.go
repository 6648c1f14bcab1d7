package mx

import (
	"errors"
	"math"
	"testing"
)

// mustScaleBytes, mustElementBytes and mustGGUFBytes are the size
// functions for sizes the tests know to be valid.
func mustScaleBytes(n, k int) int {
	v, err := ScaleBytes(n, k)
	if err != nil {
		panic(err)
	}
	return v
}

func mustElementBytes(b BlockFormat, n int) int {
	v, err := ElementBytes(b, n)
	if err != nil {
		panic(err)
	}
	return v
}

func mustGGUFBytes(n int) int {
	v, err := GGUFMXFP4Bytes(n)
	if err != nil {
		panic(err)
	}
	return v
}

// Sizes at the edges of int: 2^31, 2^32, 2^53, 2^61, 2^62, 2^63−1 and
// counts whose naive products or sums wrap (6n for FP6, n+k−1, 17·blocks).
const (
	p31  = 1 << 31
	p32  = 1 << 32
	p53  = 1 << 53
	p61  = 1 << 61
	p62  = 1 << 62
	pmax = math.MaxInt
)

func TestPackedSizes(t *testing.T) {
	tests := []struct {
		b       BlockFormat
		n, want int
	}{
		{MXFP4, 0, 0}, {MXFP4, 1, 1}, {MXFP4, 32, 16}, {MXFP4, 33, 17},
		{MXFP6E2M3, 1, 1}, {MXFP6E2M3, 4, 3}, {MXFP6E3M2, 5, 4}, {MXFP6E3M2, 32, 24},
		{MXFP8E4M3, 33, 33}, {MXINT8Block, 7, 7},
		{MXFP4, p31, p31 / 2}, {MXFP4, p32 + 1, p32/2 + 1}, {MXFP4, p53, p53 / 2},
		{MXFP4, p61, p61 / 2}, {MXFP4, p62, p62 / 2}, {MXFP4, pmax, pmax/2 + 1},
		{MXFP6E3M2, p31, p31 / 4 * 3}, {MXFP6E3M2, p53 + 1, p53/4*3 + 1}, {MXFP6E2M3, p61, p61 / 4 * 3},
		{MXFP6E2M3, p62 + 2, p62/4*3 + 2}, {MXFP6E3M2, pmax, pmax/4*3 + 3}, // 2^63−1 = 4q+3: 3q + ⌈18/8⌉
		{MXFP6E3M2, 3074457345618258603, 2305843009213693953}, // 6n wraps to 2 in int
		{MXFP8E5M2, pmax, pmax}, {MXINT8Block, p62, p62},
	}
	for _, tc := range tests {
		got, err := ElementBytes(tc.b, tc.n)
		if err != nil || got != tc.want {
			t.Errorf("ElementBytes(%v, %d) = %d, %v; want %d", tc.b, tc.n, got, err, tc.want)
		}
		// The exact value, ⌈bits·n/8⌉, with float-free big arithmetic.
		bits := uint64(tc.b.Element().Bits())
		hi, lo := mul128(uint64(tc.n), bits)
		lo, c := add128(lo, 7)
		hi += c
		if exact := hi<<61 | lo>>3; exact != uint64(got) {
			t.Errorf("ElementBytes(%v, %d) = %d, exact %d", tc.b, tc.n, got, exact)
		}
	}
	for _, bad := range []struct {
		b BlockFormat
		n int
	}{{0, 4}, {BlockFormat(99), 4}, {MXFP4, -1}, {MXFP6E2M3, math.MinInt}} {
		if _, err := ElementBytes(bad.b, bad.n); !errors.Is(err, ErrFormat) {
			t.Errorf("ElementBytes(%v, %d): %v, want ErrFormat", bad.b, bad.n, err)
		}
	}
}

func mul128(a, b uint64) (hi, lo uint64) {
	const mask = 1<<32 - 1
	a0, a1, b0, b1 := a&mask, a>>32, b&mask, b>>32
	w0 := a0 * b0
	t := a1*b0 + w0>>32
	w1, w2 := t&mask, t>>32
	w1 += a0 * b1
	return a1*b1 + w2 + w1>>32, a * b
}

func add128(lo, x uint64) (uint64, uint64) {
	s := lo + x
	if s < lo {
		return s, 1
	}
	return s, 0
}

func TestScaleBytes(t *testing.T) {
	tests := []struct{ n, k, want int }{
		{0, 1, 0}, {65, 32, 3}, {64, 32, 2}, {1, MaxBlockSize, 1},
		{p31, 32, p31 / 32}, {p32 + 1, 32, p32/32 + 1}, {p53, 3, p53/3 + 1},
		{p61, 32, p61 / 32}, {p62 + 1, MaxBlockSize, p62/MaxBlockSize + 1},
		{pmax, 1, pmax}, {pmax, 32, pmax/32 + 1}, {pmax, MaxBlockSize, pmax/MaxBlockSize + 1}, // n+k−1 wraps
	}
	for _, tc := range tests {
		got, err := ScaleBytes(tc.n, tc.k)
		if err != nil || got != tc.want {
			t.Errorf("ScaleBytes(%d, %d) = %d, %v; want %d", tc.n, tc.k, got, err, tc.want)
		}
	}
	for _, bad := range []struct{ n, k int }{
		{32, 0}, {32, -1}, {32, MaxBlockSize + 1}, {32, p31}, {32, p32}, {32, p53}, {32, p61}, {32, p62}, {32, pmax},
		{-1, 32}, {math.MinInt, 32},
	} {
		if _, err := ScaleBytes(bad.n, bad.k); !errors.Is(err, ErrFormat) {
			t.Errorf("ScaleBytes(%d, %d): %v, want ErrFormat", bad.n, bad.k, err)
		}
	}
}

func TestGGUFSizes(t *testing.T) {
	for _, tc := range []struct{ n, want int }{
		{0, 0}, {1, 17}, {32, 17}, {33, 34}, {p31, p31 / 32 * 17}, {p32, p32 / 32 * 17}, {p53, p53 / 32 * 17},
		// 17·⌈n/32⌉ fits in an int for every int n (17·2^58 < 2^63), but
		// 17·(n+31)/32 would not: the size is computed without the sum.
		{p61, p61 / 32 * 17}, {p62, p62 / 32 * 17}, {pmax, (pmax/32 + 1) * 17},
	} {
		if got, err := GGUFMXFP4Bytes(tc.n); err != nil || got != tc.want {
			t.Errorf("GGUFMXFP4Bytes(%d) = %d, %v; want %d", tc.n, got, err, tc.want)
		}
	}
	for _, n := range []int{-1, -p62, math.MinInt} {
		if got, err := GGUFMXFP4Bytes(n); !errors.Is(err, ErrFormat) {
			t.Errorf("GGUFMXFP4Bytes(%d) = %d, %v; want ErrFormat", n, got, err)
		}
		if err := ToGGUFMXFP4(make([]byte, 17), make([]byte, 1), make([]byte, 16), n); !errors.Is(err, ErrFormat) {
			t.Errorf("ToGGUFMXFP4(n=%d): %v, want ErrFormat", n, err)
		}
		if err := FromGGUFMXFP4(make([]byte, 1), make([]byte, 16), make([]byte, 17), n); !errors.Is(err, ErrFormat) {
			t.Errorf("FromGGUFMXFP4(n=%d): %v, want ErrFormat", n, err)
		}
	}
	// Counts that fit but exceed the buffers are short buffers, not panics.
	for _, n := range []int{33, p31, p32, p53, p61, p62, pmax} {
		if err := ToGGUFMXFP4(make([]byte, 17), make([]byte, 1), make([]byte, 16), n); !errors.Is(err, ErrShortBuffer) {
			t.Errorf("ToGGUFMXFP4(n=%d): %v, want ErrShortBuffer", n, err)
		}
		if err := FromGGUFMXFP4(make([]byte, 1), make([]byte, 16), make([]byte, 17), n); !errors.Is(err, ErrShortBuffer) {
			t.Errorf("FromGGUFMXFP4(n=%d): %v, want ErrShortBuffer", n, err)
		}
	}
}

// TestBlockSizeRange: Quantize and Dequantize reject every block size
// outside [MinBlockSize, MaxBlockSize] with ErrFormat, including the ones
// whose derived sizes used to wrap (n+k−1, 4k), on the serial and the
// parallel path, and accept the bounds themselves.
func TestBlockSizeRange(t *testing.T) {
	src := make([]float32, parallelMin+5) // large enough for the parallel path
	for i := range src {
		src[i] = float32(i%7) - 3
	}
	for _, k := range []int{-1, -p62, MaxBlockSize + 1, p31, p32, p53, p61, p61 + 1, p62, pmax} {
		for _, workers := range []int{1, 4} {
			opt := Options{BlockSize: k, Workers: workers}
			for _, b := range BlockFormats {
				if err := Quantize(make([]byte, 1<<20), make([]byte, len(src)), src, b, opt); !errors.Is(err, ErrFormat) {
					t.Errorf("Quantize(%v, k=%d, workers %d): %v, want ErrFormat", b, k, workers, err)
				}
				if err := Dequantize(make([]float32, len(src)), make([]byte, 1<<20), make([]byte, len(src)), b, k, workers); !errors.Is(err, ErrFormat) {
					t.Errorf("Dequantize(%v, k=%d, workers %d): %v, want ErrFormat", b, k, workers, err)
				}
			}
		}
	}
	for _, k := range []int{MinBlockSize, MaxBlockSize} {
		for _, workers := range []int{1, 4} {
			for _, b := range BlockFormats {
				scales := make([]byte, mustScaleBytes(len(src), k))
				elems := make([]byte, mustElementBytes(b, len(src)))
				if err := Quantize(scales, elems, src, b, Options{BlockSize: k, Workers: workers}); err != nil {
					t.Fatalf("Quantize(%v, k=%d): %v", b, k, err)
				}
				dst := make([]float32, len(src))
				if err := Dequantize(dst, scales, elems, b, k, workers); err != nil {
					t.Fatalf("Dequantize(%v, k=%d): %v", b, k, err)
				}
				if b != MXFP4 && b != MXINT8Block && dst[10] != src[10] { // small integers survive the 6- and 8-bit formats
					t.Errorf("%v k=%d: element 10 = %v, want %v", b, k, dst[10], src[10])
				}
			}
		}
	}
	// A short buffer for a valid k is ErrShortBuffer, never a panic.
	if err := Quantize(nil, nil, src, MXFP4, Options{BlockSize: MaxBlockSize}); !errors.Is(err, ErrShortBuffer) {
		t.Errorf("nil buffers: %v", err)
	}
	if err := Dequantize(make([]float32, len(src)), nil, nil, MXFP4, MaxBlockSize, 0); !errors.Is(err, ErrShortBuffer) {
		t.Errorf("nil buffers: %v", err)
	}
}

// TestCodeHugeIndex: an element index whose bit offset 6i wraps (to 2 for
// 3074457345618258603) fails the bounds check instead of reading a wrong
// element; small indices read and write as before.
func TestCodeHugeIndex(t *testing.T) {
	elems := []byte{0xff, 0xff, 0xff}
	for _, i := range []int{3074457345618258603, p61, p62, pmax, -1} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Code(FP6, %d) read a value from 3 bytes", i)
				}
			}()
			Code(elems, E3M2, i)
		}()
	}
	var b [6]byte
	for i := range 8 {
		putCode(b[:], 6, i, uint8(i*9+1))
	}
	for i := range 8 {
		if got := Code(b[:], E2M3, i); got != uint8(i*9+1)&0x3F {
			t.Errorf("FP6 element %d = %#x, want %#x", i, got, uint8(i*9+1)&0x3F)
		}
	}
}
