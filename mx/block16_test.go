package mx

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"
)

// blockInputs16 returns bfloat16 or binary16 inputs for the block tests:
// every 16-bit pattern shuffled (so blocks mix magnitudes, and NaN and Inf
// make NaN blocks), every finite pattern again in order (so neighbouring
// patterns share a block and scale, and each is rounded at full
// resolution in a block that is not NaN), then blocks of grid points and
// specials from kernelBlocks rounded to the format.
func blockInputs16(f Format, half bool, rng *rand.Rand) []uint16 {
	var in []uint16
	for c := range 1 << 16 {
		in = append(in, uint16(c*40503))
	}
	expMask := uint16(0x7F80)
	if half {
		expMask = 0x7C00
	}
	for c := range 1 << 16 {
		if h := uint16(c); h&expMask != expMask {
			in = append(in, h)
		}
	}
	for _, x := range kernelBlocks(f, rng) {
		if half {
			in = append(in, HalfFromFloat32(x, RTE))
		} else {
			in = append(in, BFloat16FromFloat32(x, RTE))
		}
	}
	return in
}

func TestQuantize16(t *testing.T) {
	withEachPath(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(51, 52))
		for _, b := range BlockFormats {
			for _, half := range []bool{false, true} {
				src := blockInputs16(b.Element(), half, rng)
				wide := make([]float32, len(src))
				widen16(wide, src, half)
				for i, h := range src { // widen16 is the exact conversion
					w := BFloat16ToFloat32(h)
					if half {
						w = HalfToFloat32(h)
					}
					if math.Float32bits(wide[i]) != math.Float32bits(w) {
						t.Fatalf("widen16(%#04x, half=%v) = %v, want %v", h, half, wide[i], w)
					}
				}
				for _, k := range []int{32, 7, 1, 1000} {
					opts := []Options{{BlockSize: k, Workers: 1}, {BlockSize: k, Workers: 3}, {BlockSize: k, Workers: 3, Rounding: TiesAway}}
					for _, opt := range opts {
						// Whole input, a tail, a misaligned start, one block and a bit.
						for _, cut := range [][2]int{{0, len(src)}, {0, len(src) - 5}, {3, len(src) - 40}, {0, 33}} {
							in, w := src[cut[0]:cut[1]], wide[cut[0]:cut[1]]
							// The portable float32 loops on the exact widening.
							s1, e1 := make([]byte, mustScaleBytes(len(in), k)), make([]byte, mustElementBytes(b, len(in)))
							if err := quantize(s1, e1, w, b, opt, true); err != nil {
								t.Fatal(err)
							}
							s2, e2 := make([]byte, len(s1)), make([]byte, len(e1))
							q := QuantizeBFloat16
							if half {
								q = QuantizeHalf
							}
							if err := q(s2, e2, in, b, opt); err != nil {
								t.Fatal(err)
							}
							if !bytes.Equal(s1, s2) || !bytes.Equal(e1, e2) {
								blk := firstDiffK(s1, s2, e1, e2, b, k)
								t.Fatalf("%v half=%v k=%d cut=%v %+v: 16-bit quantize differs from the portable float32 loop in block %d: src % x",
									b, half, k, cut, opt, blk, in[blk*k:min(blk*k+k, len(in))])
							}
						}
					}
				}
			}
		}
	})
}

// firstDiffK returns the first block of size k whose scale or elements
// differ.
func firstDiffK(s1, s2, e1, e2 []byte, b BlockFormat, k int) int {
	for blk := range s1 {
		lo, hi := mustElementBytes(b, blk*k), mustElementBytes(b, min(blk*k+k, len(s1)*k))
		if s1[blk] != s2[blk] || !bytes.Equal(e1[lo:min(hi, len(e1))], e2[lo:min(hi, len(e2))]) {
			return blk
		}
	}
	return -1
}

func TestDequantize16(t *testing.T) {
	withEachPath(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(53, 54))
		for _, b := range BlockFormats {
			for _, k := range []int{32, 5, 3000} {
				n := 70000 + rng.IntN(100)
				scales := make([]byte, mustScaleBytes(n, k))
				elems := make([]byte, mustElementBytes(b, n))
				for i := range scales {
					scales[i] = uint8(i * 7)
				}
				for i := range elems {
					elems[i] = uint8(rng.Uint32())
				}
				want := make([]float32, n)
				if err := Dequantize(want, scales, elems, b, k, 1); err != nil {
					t.Fatal(err)
				}
				for _, workers := range []int{1, 2} {
					bf, hf := make([]uint16, n), make([]uint16, n)
					if err := DequantizeBFloat16(bf, scales, elems, b, k, workers); err != nil {
						t.Fatal(err)
					}
					if err := DequantizeHalf(hf, scales, elems, b, k, workers); err != nil {
						t.Fatal(err)
					}
					for i, x := range want {
						if w := BFloat16FromFloat32(x, RTE); bf[i] != w {
							t.Fatalf("%v k=%d: DequantizeBFloat16[%d] = %#04x, want %#04x (%v)", b, k, i, bf[i], w, x)
						}
						if w := HalfFromFloat32(x, RTE); hf[i] != w {
							t.Fatalf("%v k=%d: DequantizeHalf[%d] = %#04x, want %#04x (%v)", b, k, i, hf[i], w, x)
						}
					}
				}
			}
		}
	})
}

// TestBFloat16RTE checks the bfloat16 rounding of the dequantizer against
// BFloat16FromFloat32 on a sweep of float32 bit patterns.
func TestBFloat16RTE(t *testing.T) {
	for _, u := range probeBits(4099) {
		if got, want := bfloat16RTE(u), BFloat16FromFloat32(math.Float32frombits(u), RTE); got != want {
			t.Fatalf("bfloat16RTE(%#08x) = %#04x, want %#04x", u, got, want)
		}
	}
}

func TestQuantize16Errors(t *testing.T) {
	if err := QuantizeHalf(nil, nil, []uint16{1}, MXFP4, Options{}); err != ErrShortBuffer {
		t.Errorf("short buffers: %v", err)
	}
	if err := QuantizeBFloat16(nil, nil, nil, 0, Options{}); err != ErrFormat {
		t.Errorf("invalid format: %v", err)
	}
	if err := DequantizeHalf(make([]uint16, 1), nil, nil, MXFP4, 32, 1); err != ErrShortBuffer {
		t.Errorf("short dequantize buffers: %v", err)
	}
	if err := DequantizeBFloat16(nil, nil, nil, MXFP4, MaxBlockSize+1, 1); err == nil {
		t.Errorf("block size too large: no error")
	}
}

// TestNarrow16 checks the dequantizers' float32 → bfloat16/binary16
// rounding on every path against the scalar functions, over a sweep of
// float32 patterns with every tie and boundary of both formats.
func TestNarrow16(t *testing.T) {
	bits := probeBits(65537)
	for _, p := range []*floatParams{&halfParams, &bfloat16Params} {
		for _, idx := range []uint32{0, 1, 2, 0x3FF, 0x400, 0x7BFF, 0x7C00, 0x7F7F, 0x7F80, 0x0080} {
			v := float32(p.decode(idx))
			u := math.Float32bits(v)
			for d := uint32(0); d < 1<<14; d += 1 << 9 {
				bits = append(bits, u+d, u-d, u|0x80000000+d)
			}
		}
	}
	src := make([]float32, len(bits))
	for i, u := range bits {
		src[i] = math.Float32frombits(u)
	}
	withEachPath(t, func(t *testing.T) {
		for _, half := range []bool{false, true} {
			dst := make([]uint16, len(src))
			narrow16(dst, src, half)
			for i, x := range src {
				w := BFloat16FromFloat32(x, RTE)
				if half {
					w = HalfFromFloat32(x, RTE)
				}
				if dst[i] != w {
					t.Fatalf("half=%v: %#08x gives %#04x, want %#04x", half, bits[i], dst[i], w)
				}
			}
		}
	})
}
