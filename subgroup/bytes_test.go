package subgroup

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// packBytes lays []uint64 lane data out as BitcastShuffleBytes takes it.
func packBytes(v []uint64, t Type) []byte {
	b := t.Width / 8
	out := make([]byte, len(v)*b)
	for i, x := range v {
		var buf [8]byte
		binary.LittleEndian.PutUint64(buf[:], x)
		copy(out[i*b:], buf[:b])
	}
	return out
}

// shapes returns the 40 supported pairs plus byte-width shapes outside the
// table: equal widths, and widths or rows the word kernels do not take.
func byteShapes() [][2]Type {
	pairs := supportedPairs()
	pairs = append(pairs,
		[2]Type{U(32, 3), U(16, 6)}, [2]Type{U(16, 6), U(32, 3)}, // 12-byte rows
		[2]Type{U(8, 3), U(24, 1)}, [2]Type{U(24, 2), U(16, 3)}, [2]Type{U(48, 1), U(8, 6)},
		[2]Type{U(40, 3), U(24, 5)}, [2]Type{U(64, 3), U(48, 4)}, [2]Type{U(56, 1), U(8, 7)},
		[2]Type{U(32, 2), U(32, 2)}, [2]Type{U(8, 4), U(8, 4)})
	return pairs
}

// TestBitcastShuffleBytes checks the packed form against the []uint64 form
// (itself checked against the bit-by-bit model) for every supported pair
// and more, at subgroup sizes that do and do not suit the word kernels,
// over one and several subgroups at once.
func TestBitcastShuffleBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, p := range byteShapes() {
		st, dt := p[0], p[1]
		for _, n := range []int{1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 64} {
			for _, groups := range []int{1, 3} {
				var src, want []byte
				for range groups {
					v := randomData(rng, st, n)
					w := make([]uint64, n*dt.Components)
					if err := BitcastShuffle(w, v, st, dt, n); err != nil {
						t.Fatal(err)
					}
					src = append(src, packBytes(v, st)...)
					want = append(want, packBytes(w, dt)...)
				}
				// Junk around both buffers: a read outside src would change
				// the result, a write outside dst the junk.
				junk := func(k int) []byte {
					b := make([]byte, k)
					for i := range b {
						b[i] = byte(rng.Uint32())
					}
					return b
				}
				for _, portable := range []bool{false, true} { // with and without assembly
					pre, post := junk(16), junk(16)
					srcBuf := slices.Concat(junk(16), src, junk(16))
					dstBuf := slices.Concat(pre, make([]byte, len(src)), post)
					dst := dstBuf[16 : 16+len(src) : 16+len(src)]
					if err := bitcastShuffleBytes(dst, srcBuf[16:16+len(src):16+len(src)], st, dt, n, portable); err != nil {
						t.Fatalf("%v→%v N=%d: %v", st, dt, n, err)
					}
					if !slices.Equal(dst, want) {
						t.Fatalf("%v→%v N=%d ×%d (kernel %v, portable %v):\n got % x\nwant % x", st, dt, n, groups,
							kernelFor(st, dt, n), portable, dst, want)
					}
					if !slices.Equal(dstBuf[:16], pre) || !slices.Equal(dstBuf[16+len(src):], post) {
						t.Fatalf("%v→%v N=%d (portable %v) wrote outside the result", st, dt, n, portable)
					}
				}
			}
		}
	}
}

// TestWordKernelCoverage pins which shapes take the word kernels, so a
// change to the conditions is a deliberate one, and checks that the shapes
// TestBitcastShuffleBytes runs reach every loop.
func TestWordKernelCoverage(t *testing.T) {
	seen := map[int]bool{}
	for _, p := range byteShapes() {
		for _, n := range []int{1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 64} {
			var k wordKernel
			if k.init(p[0].Width, p[1].Width, p[0].Bits()/8, n) {
				seen[k.kind] = true
			}
		}
	}
	for kind := kindWords2; kind <= kindRow2; kind++ {
		if !seen[kind] {
			t.Errorf("no test shape takes loop kind %d", kind)
		}
	}
	for _, p := range supportedPairs() {
		for _, n := range []int{8, 16, 32, 64} {
			if !kernelFor(p[0], p[1], n) {
				t.Errorf("%v→%v N=%d has no word kernel", p[0], p[1], n)
			}
		}
	}
	for _, tc := range []struct {
		st, dt Type
		n      int
	}{{U(64, 1), U(8, 8), 4}, {U(32, 3), U(16, 6), 8}, {U(24, 2), U(16, 3), 8}} {
		if kernelFor(tc.st, tc.dt, tc.n) {
			t.Errorf("%v→%v N=%d unexpectedly has a word kernel", tc.st, tc.dt, tc.n)
		}
	}
}

func TestBitcastShuffleBytesErrors(t *testing.T) {
	buf := make([]byte, 256)
	for _, tc := range []struct {
		st, dt   Type
		n        int
		dst, src []byte
	}{
		{U(32, 1), U(16, 2), 0, buf, buf[:64]},
		{U(12, 2), U(8, 3), 4, buf, buf[:12]},      // not whole bytes
		{U(32, 1), U(16, 4), 4, buf, buf[:16]},     // bits differ
		{U(32, 1), U(16, 2), 4, buf, buf[:15]},     // not whole subgroups
		{U(32, 1), U(16, 2), 4, buf, buf[:0]},      // empty
		{U(32, 1), U(16, 2), 4, buf[:8], buf[:16]}, // short result buffer
		{U(128, 1), U(64, 2), 1, buf, buf[:16]},
		{U(8, 1<<30), U(16, 1<<29), 1, buf, buf[:16]},    // ws·cs would overflow int32
		{U(8, 2), U(16, 1), maxInt/2 + 1, buf, buf[:16]}, // n·row would overflow
		{U(8, 2), U(16, 1), maxInt/2 + 1, buf, buf[:0]},
	} {
		if err := BitcastShuffleBytes(tc.dst, tc.src, tc.st, tc.dt, tc.n); !errors.Is(err, ErrShape) {
			t.Errorf("BitcastShuffleBytes(%v→%v, N=%d, %d bytes) = %v, want ErrShape", tc.st, tc.dt, tc.n, len(tc.src), err)
		}
	}
}

func TestBitcastShuffleBytesNoAllocs(t *testing.T) {
	src := make([]byte, 32*64)
	dst := make([]byte, len(src))
	if a := testing.AllocsPerRun(10, func() { _ = BitcastShuffleBytes(dst, src, U(32, 4), U(8, 16), 32) }); a != 0 {
		t.Errorf("BitcastShuffleBytes allocates %v times", a)
	}
}

// kernelFor reports whether BitcastShuffleBytes takes a word kernel.
func kernelFor(st, dt Type, n int) bool {
	var k wordKernel
	return k.init(st.Width, dt.Width, st.Bits()/8, n)
}
