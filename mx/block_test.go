package mx

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// quantizeAll is a test helper that allocates the outputs.
func quantizeAll(t testing.TB, src []float32, b BlockFormat, opt Options) (scales, elems []byte) {
	t.Helper()
	k := opt.blockSize()
	scales = make([]byte, mustScaleBytes(len(src), k))
	elems = make([]byte, mustElementBytes(b, len(src)))
	if err := Quantize(scales, elems, src, b, opt); err != nil {
		t.Fatalf("Quantize: %v", err)
	}
	return scales, elems
}

func dequantizeAll(t testing.TB, n int, scales, elems []byte, b BlockFormat, k int) []float32 {
	t.Helper()
	out := make([]float32, n)
	if err := Dequantize(out, scales, elems, b, k, 0); err != nil {
		t.Fatalf("Dequantize: %v", err)
	}
	return out
}

func TestQuantizeHandWorked(t *testing.T) {
	tests := []struct {
		name   string
		b      BlockFormat
		opt    Options
		src    []float32
		scales []byte
		elems  []byte
	}{
		{
			// amax 6.5: ⌊log2⌋ = 2 = emax, scale 2^0; 6.5 clamps to 6;
			// 1.2 → 1; -3 → 0xD.
			name: "mxfp4", b: MXFP4, opt: Options{BlockSize: 4},
			src:    []float32{0.5, -3, 6.5, 1.2},
			scales: []byte{127}, elems: []byte{0xD1, 0x27},
		},
		{
			// amax 100: ⌊log2⌋ = 6, scale 2^4; 100/16 = 6.25 → 6 (0x7),
			// −5/16 = −0.3125 → −0.5 (0x9).
			name: "mxfp4 scaled", b: MXFP4, opt: Options{BlockSize: 2},
			src:    []float32{100, -5},
			scales: []byte{131}, elems: []byte{0x97},
		},
		{
			// Tie 2.5 between 2 (even code 4) and 3 (code 5).
			name: "mxfp4 ties even", b: MXFP4, opt: Options{BlockSize: 2},
			src:    []float32{2.5, 4},
			scales: []byte{127}, elems: []byte{0x64},
		},
		{
			name: "mxfp4 ties away", b: MXFP4, opt: Options{BlockSize: 2, Rounding: TiesAway},
			src:    []float32{2.5, 4},
			scales: []byte{127}, elems: []byte{0x65},
		},
		{
			// amax 1000: ⌊log2⌋ = 9, emax 8, scale 2^1; 500 saturates to 448.
			name: "mxfp8 e4m3", b: MXFP8E4M3, opt: Options{BlockSize: 2},
			src:    []float32{1000, 1},
			scales: []byte{128}, elems: []byte{0x7E, 0x30},
		},
		{
			name: "mxfp8 e5m2", b: MXFP8E5M2, opt: Options{BlockSize: 2},
			src:    []float32{65536 * 4, -1},
			scales: []byte{127 + 3}, elems: []byte{0x78, 0xB0}, // 2^15 and −2^-3
		},
		{
			// amax 1.5: scale 2^0; 1.5·64 = 96, −0.75·64 = −48, 0.01·64 = 0.64 → 1.
			name: "mxint8", b: MXINT8Block, opt: Options{BlockSize: 3},
			src:    []float32{1.5, -0.75, 0.01},
			scales: []byte{127}, elems: []byte{0x60, 0xD0, 0x01},
		},
		{
			// 1.999·64 → 128 clamps to 127; −1.999 → −128 clamps to −127.
			name: "mxint8 symmetric clamp", b: MXINT8Block, opt: Options{BlockSize: 2},
			src:    []float32{1.999, -1.999},
			scales: []byte{127}, elems: []byte{0x7F, 0x81},
		},
		{
			// FP6 bit stream: codes 0x01, 0x02, 0x03, 0x3F (−max) as 6-bit
			// fields from bit 0 upwards.
			name: "mxfp6 e2m3 packing", b: MXFP6E2M3, opt: Options{BlockSize: 4},
			src:    []float32{0.125, 0.25, 0.375, -7.5},
			scales: []byte{127}, elems: []byte{0x81, 0x30, 0xFC},
		},
		{
			name: "all zero", b: MXFP4, opt: Options{BlockSize: 4},
			src:    []float32{0, 0, 0, 0},
			scales: []byte{0}, elems: []byte{0, 0},
		},
		{
			name: "NaN block", b: MXFP8E4M3, opt: Options{BlockSize: 2},
			// Second block: amax 4, scale 2^(2−8); 2·64 = 2^7 → 0x70, 2^8 → 0x78.
			src:    []float32{float32(math.NaN()), 1, 2, 4},
			scales: []byte{0xFF, 121}, elems: []byte{0, 0, 0x70, 0x78},
		},
		{
			name: "Inf block", b: MXFP4, opt: Options{BlockSize: 2},
			src:    []float32{1, float32(math.Inf(-1))},
			scales: []byte{0xFF}, elems: []byte{0},
		},
		{
			// The float32 log2 of 15.999999 rounds to 4; the exact floor is 3.
			name: "exact floor log2", b: MXFP4, opt: Options{BlockSize: 1},
			src:    []float32{math.Float32frombits(0x417FFFFF)},
			scales: []byte{128}, elems: []byte{0x07},
		},
		{
			// FLT_MAX: ⌊log2⌋ = 127 and emax 0 gives scale 2^127, not NaN.
			name: "huge mxint8", b: MXINT8Block, opt: Options{BlockSize: 1},
			src:    []float32{math.MaxFloat32},
			scales: []byte{254}, elems: []byte{0x7F},
		},
		{
			// A float32 subnormal block clamps its scale to 2^-127.
			name: "subnormal", b: MXFP8E4M3, opt: Options{BlockSize: 1},
			src:    []float32{math.Float32frombits(0x00400000)}, // 2^-127
			scales: []byte{0}, elems: []byte{0x38},
		},
		{
			name: "short last block", b: MXFP4, opt: Options{BlockSize: 2},
			// {1, 1}: scale 2^(0−2), 1·4 → code 6; {8}: scale 2^1, 8/2 → code 6.
			src:    []float32{1, 1, 8},
			scales: []byte{125, 128}, elems: []byte{0x66, 0x06},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			scales, elems := quantizeAll(t, tc.src, tc.b, tc.opt)
			if !bytes.Equal(scales, tc.scales) || !bytes.Equal(elems, tc.elems) {
				t.Errorf("Quantize(%v) = scales % x elements % x, want % x / % x", tc.src, scales, elems, tc.scales, tc.elems)
			}
		})
	}
}

// refQuantize is an independent model of the block rule built from the
// scalar API in float64 and math.Frexp, with its own packing.
func refQuantize(src []float32, b BlockFormat, k int, tiesAway bool) (scales, elems []byte) {
	elem := b.Element()
	codes := make([]uint8, len(src))
	for start := 0; start < len(src); start += k {
		block := src[start:min(start+k, len(src))]
		amax, special := 0.0, false
		for _, v := range block {
			a := math.Abs(float64(v))
			special = special || math.IsNaN(a) || math.IsInf(a, 0)
			amax = math.Max(amax, a)
		}
		var s int
		switch {
		case special:
			scales = append(scales, 0xFF)
			continue
		case amax == 0:
			s = -127
		default:
			_, e := math.Frexp(amax)
			s = min(max(e-1-elem.EmaxElem(), -127), 127)
		}
		scales = append(scales, uint8(s+127))
		for i, v := range block {
			y := math.Ldexp(float64(v), -s)
			var c uint8
			switch {
			case elem == MXINT8:
				r := math.RoundToEven(y * 64)
				if tiesAway {
					r = math.Round(y * 64)
				}
				c = uint8(int8(math.Max(-127, math.Min(127, r))))
			case tiesAway:
				c = uint8(formatInfos[elem].float.encode64(y, roundTiesAway, true))
			default:
				c = elem.EncodeFloat64(y, RTE, true)
			}
			codes[start+i] = c
		}
	}
	// Pack as a little-endian bit stream of Bits()-wide fields.
	w := elem.Bits()
	elems = make([]byte, (len(codes)*w+7)/8)
	for i, c := range codes {
		for bit := range w {
			if c>>bit&1 != 0 {
				pos := i*w + bit
				elems[pos/8] |= 1 << (pos % 8)
			}
		}
	}
	return scales, elems
}

// randomBlockData mixes magnitudes across many binades, exact ties,
// zeros, subnormals and (optionally) specials.
func randomBlockData(rng *rand.Rand, n int, specials bool) []float32 {
	out := make([]float32, n)
	for i := range out {
		switch r := rng.IntN(20); {
		case r == 0:
			out[i] = 0
		case r == 1:
			out[i] = math.Float32frombits(rng.Uint32() & 0x807FFFFF) // subnormal
		case r == 2:
			out[i] = float32(rng.IntN(64)-32) / 4 // ties on coarse grids
		case r == 3 && specials:
			out[i] = []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))}[rng.IntN(3)]
		default:
			out[i] = float32(math.Ldexp(rng.NormFloat64(), rng.IntN(40)-20))
		}
	}
	return out
}

func TestQuantizeMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, b := range BlockFormats {
		for _, k := range []int{1, 2, 3, 5, 8, 32, 33} {
			for _, rounding := range []Rounding{TiesEven, TiesAway} {
				for _, n := range []int{0, 1, 7, 64, 101} {
					src := randomBlockData(rng, n, n%2 == 1)
					scales, elems := quantizeAll(t, src, b, Options{BlockSize: k, Rounding: rounding})
					ws, we := refQuantize(src, b, k, rounding == TiesAway)
					if !bytes.Equal(scales, ws) || !bytes.Equal(elems, we) {
						t.Fatalf("%v k=%d %v n=%d: Quantize = % x | % x\nreference = % x | % x\nsrc %v", b, k, rounding, n, scales, elems, ws, we, src)
					}
				}
			}
		}
	}
}

// TestQuantizeParallel checks that the multi-goroutine path gives the same
// bytes as the serial one, including odd block sizes that straddle bytes.
func TestQuantizeParallel(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	src := randomBlockData(rng, parallelMin*3+77, true)
	for _, b := range BlockFormats {
		for _, k := range []int{32, 7} {
			s1, e1 := quantizeAll(t, src, b, Options{BlockSize: k, Workers: 1})
			s4, e4 := quantizeAll(t, src, b, Options{BlockSize: k, Workers: 4})
			if !bytes.Equal(s1, s4) || !bytes.Equal(e1, e4) {
				t.Fatalf("%v k=%d: parallel quantize differs from serial", b, k)
			}
			d1 := make([]float32, len(src))
			d4 := make([]float32, len(src))
			if err := Dequantize(d1, s1, e1, b, k, 1); err != nil {
				t.Fatal(err)
			}
			if err := Dequantize(d4, s1, e1, b, k, 4); err != nil {
				t.Fatal(err)
			}
			for i := range d1 {
				if math.Float32bits(d1[i]) != math.Float32bits(d4[i]) {
					t.Fatalf("%v k=%d: parallel dequantize differs at %d", b, k, i)
				}
			}
		}
	}
}

// TestDequantizeExact checks every element against element·scale computed
// in float64, and the error bound of a quantize → dequantize round trip:
// half a quantum of the element's binade unless the element saturated.
func TestDequantizeRoundTripBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, b := range BlockFormats {
		elem := b.Element()
		for _, k := range []int{32, 5} {
			src := randomBlockData(rng, 1000, true)
			scales, elems := quantizeAll(t, src, b, Options{BlockSize: k})
			got := dequantizeAll(t, len(src), scales, elems, b, k)
			for i, x := range src {
				s := scales[i/k]
				if s == 0xFF {
					if got[i] == got[i] {
						t.Fatalf("%v: element %d of a NaN-scale block = %v", b, i, got[i])
					}
					continue
				}
				X := math.Ldexp(1, int(s)-127)
				want := elem.Decode(Code(elems, elem, i)) * X
				if float64(got[i]) != want {
					t.Fatalf("%v: Dequantize[%d] = %v, want exact %v", b, i, got[i], want)
				}
				y := float64(x) / X
				var bound float64
				if math.Abs(y) > elem.Max() {
					bound = (math.Abs(y) - elem.Max()) * X
				} else if elem == MXINT8 {
					bound = X / 128
				} else {
					e := math.Max(math.Floor(math.Log2(math.Abs(y))), math.Log2(elem.MinNormal()))
					bound = math.Ldexp(1, int(e)-elem.MantissaBits()-1) * X
				}
				if err := math.Abs(float64(got[i]) - float64(x)); err > bound*(1+1e-12) {
					t.Fatalf("%v k=%d: |%v − %v| = %v exceeds %v", b, k, got[i], x, err, bound)
				}
			}
		}
	}
}

func TestQuantizeNoAllocs(t *testing.T) {
	src := randomBlockData(rand.New(rand.NewPCG(9, 9)), 4096, false)
	for _, b := range BlockFormats {
		scales := make([]byte, mustScaleBytes(len(src), 32))
		elems := make([]byte, mustElementBytes(b, len(src)))
		dst := make([]float32, len(src))
		opt := Options{Workers: 1}
		if a := testing.AllocsPerRun(20, func() { _ = Quantize(scales, elems, src, b, opt) }); a != 0 {
			t.Errorf("%v: Quantize allocates %v times per call", b, a)
		}
		if a := testing.AllocsPerRun(20, func() { _ = Dequantize(dst, scales, elems, b, 32, 1) }); a != 0 {
			t.Errorf("%v: Dequantize allocates %v times per call", b, a)
		}
	}
}

func TestQuantizeErrors(t *testing.T) {
	src := make([]float32, 40)
	if err := Quantize(make([]byte, 1), make([]byte, 20), src, MXFP4, Options{}); !errors.Is(err, ErrShortBuffer) {
		t.Errorf("short scales: %v", err)
	}
	if err := Quantize(make([]byte, 2), make([]byte, 19), src, MXFP4, Options{}); !errors.Is(err, ErrShortBuffer) {
		t.Errorf("short elements: %v", err)
	}
	if err := Quantize(make([]byte, 2), make([]byte, 20), src, 0, Options{}); !errors.Is(err, ErrFormat) {
		t.Errorf("bad format: %v", err)
	}
	if err := Quantize(make([]byte, 2), make([]byte, 20), src, MXFP4, Options{BlockSize: -1}); !errors.Is(err, ErrFormat) {
		t.Errorf("bad block size: %v", err)
	}
	if err := Dequantize(make([]float32, 40), make([]byte, 1), make([]byte, 20), MXFP4, 32, 0); !errors.Is(err, ErrShortBuffer) {
		t.Errorf("dequantize short scales: %v", err)
	}
}

func TestGGUFMXFP4(t *testing.T) {
	// Hand-made block: element i has code i%16, so element j and j+16 share
	// qs[j] as (j%16) | (j%16)<<4.
	src := make([]byte, 16)
	for i := range 32 {
		putCode(src, 4, i, uint8(i%16))
	}
	gg := make([]byte, mustGGUFBytes(32))
	if err := ToGGUFMXFP4(gg, []byte{0x80}, src, 32); err != nil {
		t.Fatal(err)
	}
	if gg[0] != 0x80 {
		t.Errorf("scale byte = %#x", gg[0])
	}
	for j := range 16 {
		if want := byte(j | j<<4); gg[1+j] != want {
			t.Errorf("qs[%d] = %#02x, want %#02x", j, gg[1+j], want)
		}
	}
	// Round trip over random data with a short last block.
	rng := rand.New(rand.NewPCG(10, 11))
	for _, n := range []int{0, 1, 31, 32, 33, 95, 256} {
		data := randomBlockData(rng, n, false)
		scales, elems := quantizeAll(t, data, MXFP4, Options{})
		gg := make([]byte, mustGGUFBytes(n))
		if err := ToGGUFMXFP4(gg, scales, elems, n); err != nil {
			t.Fatal(err)
		}
		s2 := make([]byte, len(scales))
		e2 := make([]byte, len(elems))
		if err := FromGGUFMXFP4(s2, e2, gg, n); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(scales, s2) || !bytes.Equal(elems, e2) {
			t.Errorf("n=%d: GGUF round trip differs", n)
		}
		// ggml's reading of a block: kvalues[q]·2^(e−128) equals OCP's value.
		kvalues := []float64{0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12}
		want := dequantizeAll(t, n, scales, elems, MXFP4, 32)
		for i := range n {
			blk := gg[i/32*GGUFBlockBytes:]
			q := blk[1+i%16]
			if i%32 >= 16 {
				q >>= 4
			}
			v := kvalues[q&0xF] * math.Ldexp(1, int(blk[0])-128)
			if float32(v) != want[i] {
				t.Fatalf("n=%d element %d: ggml reading %v, spvx %v", n, i, v, want[i])
			}
		}
	}
	if err := FromGGUFMXFP4(make([]byte, 1), make([]byte, 16), make([]byte, 16), 32); !errors.Is(err, ErrShortBuffer) {
		t.Errorf("truncated GGUF data: %v", err)
	}
}
