package interp

import (
	"bytes"
	"math"
	"math/rand"
	"testing"
)

// laneValues are float32 bit patterns for the lane-loop tests: specials,
// denormals, both zeros, random bits, some with garbage in the high half
// (which every kernel must ignore and clear).
func laneValues(rng *rand.Rand, n int) []uint64 {
	special := []uint32{0, 0x80000000, 1, 0x80000001, 0x007fffff, 0x00800000, 0x7f7fffff, 0xff7fffff,
		0x7f800000, 0xff800000, 0x7fc00000, 0x7fa00001, 0xffc00123, 0x3f800000, 0xbf800000, 0x4b000000}
	v := make([]uint64, n)
	for i := range v {
		var x uint32
		switch rng.Intn(3) {
		case 0:
			x = special[rng.Intn(len(special))]
		case 1:
			x = math.Float32bits(float32(rng.NormFloat64()))
		default:
			x = rng.Uint32()
		}
		v[i] = uint64(x)
		if rng.Intn(4) == 0 {
			v[i] |= uint64(rng.Uint32()) << 32
		}
	}
	return v
}

func isNaN32(x uint64) bool { return math.IsNaN(float64(math.Float32frombits(uint32(x)))) }

// The AVX2 float32 loops give the portable loops' bits, lane for lane,
// for every length, both operand forms and all four operations; when both
// operands are NaNs only NaN-ness is compared (SPIR-V leaves the payload
// open, and the two loops may pick either operand's).
func TestF32VectorMatchesPortable(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2 on this machine (or GODEBUG=cpu.avx2=off): the portable loops are the only ones")
	}
	rng := rand.New(rand.NewSource(1))
	ops := []byte{'+', '-', '*', '/'}
	for n := 0; n <= 70; n++ {
		a, b := laneValues(rng, n), laneValues(rng, n)
		y := laneValues(rng, 1)[0]
		for k, op := range ops {
			for _, imm := range []bool{false, true} {
				d := make([]uint64, n)
				var done int
				if imm {
					done = f32Vector(k, d, a, nil, y)
				} else {
					done = f32Vector(k, d, a, b, 0)
				}
				if done != n&^3 {
					t.Fatalf("n=%d: f32Vector did %d lanes", n, done)
				}
				for l := 0; l < done; l++ {
					yl := b[l%max(len(b), 1)]
					if imm {
						yl = y
					}
					want := f32op(a[l], yl, op)
					if d[l] != want && !(isNaN32(a[l]) && isNaN32(yl) && isNaN32(d[l]) && d[l]>>32 == 0) {
						t.Fatalf("n=%d lane %d: %#x %c %#x (imm %v) = %#x, portable %#x", n, l, a[l], op, yl, imm, d[l], want)
					}
				}
			}
		}
	}
}

// setAVX2 sets whether the lane loops use AVX2 for the rest of the test.
func setAVX2(t *testing.T, on bool) {
	saved := useAVX2
	useAVX2 = on
	t.Cleanup(func() { useAVX2 = saved })
}

// contiguous finds the consecutive runs and only them; widen32 and
// narrow32 move exactly their bytes, with and without AVX2.
func TestContiguousAccess(t *testing.T) {
	have := useAVX2
	for _, avx := range []bool{false, true} {
		if avx && !have {
			continue
		}
		setAVX2(t, avx)
		for n := 8; n <= 40; n++ {
			idx := make([]uint64, n)
			for l := range idx {
				idx[l] = uint64(5 + l)
			}
			m := make([]byte, 4*(n+5)+3)
			for i := range m {
				m[i] = byte(i*7 + 1)
			}
			src := contiguous(m, 0, 4, idx)
			if src == nil || &src[0] != &m[20] || len(src) != 4*n {
				t.Fatalf("avx %v n=%d: contiguous run not found", avx, n)
			}
			d := make([]uint64, n)
			widen32(d, src)
			for l := range d {
				if want := uint64(uint32(m[20+4*l]) | uint32(m[21+4*l])<<8 | uint32(m[22+4*l])<<16 | uint32(m[23+4*l])<<24); d[l] != want {
					t.Fatalf("avx %v n=%d: widen lane %d = %#x, want %#x", avx, n, l, d[l], want)
				}
			}
			v := laneValues(rand.New(rand.NewSource(int64(n))), n)
			out := bytes.Clone(m)
			narrow32(out[20:20+4*n], v)
			for l := range v {
				for k := 0; k < 4; k++ {
					if out[20+4*l+k] != byte(v[l]>>(8*k)) {
						t.Fatalf("avx %v n=%d: narrow lane %d byte %d", avx, n, l, k)
					}
				}
			}
			if !bytes.Equal(out[:20], m[:20]) || !bytes.Equal(out[20+4*n:], m[20+4*n:]) {
				t.Fatalf("avx %v n=%d: narrow wrote outside its run", avx, n)
			}
			// not a run: one lane off, anywhere
			for bad := 0; bad < n; bad++ {
				idx[bad]++
				if contiguous(m, 0, 4, idx) != nil {
					t.Fatalf("avx %v n=%d: lane %d off, still contiguous", avx, n, bad)
				}
				idx[bad]--
			}
			// past the end, before the start, other strides, huge indexes
			if contiguous(m[:4*(n+5)-1], 0, 4, idx) != nil || contiguous(m, -24, 4, idx) != nil ||
				contiguous(m, 0, 8, idx) != nil {
				t.Fatalf("avx %v n=%d: out-of-range run accepted", avx, n)
			}
			hi := make([]uint64, n)
			for l := range hi {
				hi[l] = uint64(1<<31 - 4 + l)
			}
			if contiguous(make([]byte, 1<<12), -(1<<33), 4, hi) != nil {
				t.Fatalf("avx %v n=%d: indexes past 2^31 accepted", avx, n)
			}
		}
	}
}

// The saxpy example gives the same bytes through the AVX2 loops and the
// portable ones, with full and partial subgroups.
func TestLaneLoopsKernel(t *testing.T) {
	m := glsl(t, saxpySrc, "")
	const n = 256 * 3
	x := make([]byte, 4*n)
	y0 := make([]byte, 4*n)
	for i := 0; i < n; i++ {
		copy(x[4*i:], f32s(float32(i)*0.37-11))
		copy(y0[4*i:], f32s(float32(i%17)-3.5))
	}
	var outs [2][]byte
	have := useAVX2
	for k, avx := range []bool{false, true} {
		if avx && !have {
			t.Skip("no AVX2 on this machine (or GODEBUG=cpu.avx2=off): the portable result is checked above")
		}
		setAVX2(t, avx)
		y := bytes.Clone(y0)
		if err := run(t, m, Options{SubgroupSize: 32, Parallelism: 1}, [3]uint32{3, 1, 1}, map[BindingKey][]byte{{0, 0}: x, {0, 1}: y}, f32s(2.5)); err != nil {
			t.Fatal(err)
		}
		outs[k] = y
		for i := 0; i < n; i++ {
			if got, want := getF32(y, i), float32(2.5*getF32(x, i))+getF32(y0, i); got != want {
				t.Fatalf("avx %v: y[%d] = %v, want %v", avx, i, got, want)
			}
		}
	}
	if !bytes.Equal(outs[0], outs[1]) {
		t.Fatal("AVX2 and portable lane loops differ")
	}
}

// fill and ramp write exactly their lanes, with and without AVX2.
func TestFillRamp(t *testing.T) {
	have := useAVX2
	for _, avx := range []bool{false, true} {
		if avx && !have {
			continue
		}
		setAVX2(t, avx)
		for n := 0; n <= 70; n++ {
			buf := make([]uint64, n+2)
			buf[0], buf[n+1] = 0xdead, 0xbeef
			d := buf[1 : n+1]
			fill(d, 0x123456789)
			for l, v := range d {
				if v != 0x123456789 {
					t.Fatalf("avx %v n=%d: fill lane %d = %#x", avx, n, l, v)
				}
			}
			ramp(d, 0xFFFFFFF0, 0xFFFFFFFF)
			for l, v := range d {
				if want := (0xFFFFFFF0 + uint64(l)) & 0xFFFFFFFF; v != want {
					t.Fatalf("avx %v n=%d: ramp lane %d = %#x, want %#x", avx, n, l, v, want)
				}
			}
			if buf[0] != 0xdead || buf[n+1] != 0xbeef {
				t.Fatalf("avx %v n=%d: wrote outside the lanes", avx, n)
			}
		}
	}
}
