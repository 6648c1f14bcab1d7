package mx

import (
	"encoding/binary"
	"math"
	"testing"
)

// The fuzz targets feed arbitrary bytes to the slice conversions, read as
// float32, bfloat16 or binary16 patterns (little-endian) or as codes, and
// compare every element with the scalar functions, on the kernels and on
// the portable loops. The first two bytes choose the format, the mode and
// the saturation.

func fuzzConfig(data []byte) (f Format, m RoundingMode, sat bool, rest []byte, ok bool) {
	if len(data) < 2 {
		return 0, 0, false, nil, false
	}
	f = Formats[int(data[0])%len(Formats)]
	m = RoundingMode(data[1] % 4)
	sat = data[1]&4 != 0
	return f, m, sat, data[2:], true
}

func fuzzSeeds(f *testing.F) {
	for _, u := range []uint32{0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00001, 1, 0x43E00000, 0x43E80000, 0x3F800000} {
		var b [4 * 33]byte
		for i := range 33 {
			binary.LittleEndian.PutUint32(b[4*i:], u+uint32(i)*0x10001)
		}
		f.Add(append([]byte{3, 0}, b[:]...))
		f.Add(append([]byte{4, 6}, b[:]...))
		f.Add(append([]byte{5, 1}, b[:]...))
		f.Add(append([]byte{6, 3}, b[:]...))
	}
}

// bothPaths runs fn with the machine's kernels and then without any.
func bothPaths(fn func()) {
	fn()
	if useAVX2 {
		useAVX2 = false
		defer func() { useAVX2 = true }()
		fn()
	}
}

func FuzzEncodeSlice(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		format, m, sat, rest, ok := fuzzConfig(data)
		if !ok {
			return
		}
		src := make([]float32, len(rest)/4)
		for i := range src {
			src[i] = math.Float32frombits(binary.LittleEndian.Uint32(rest[4*i:]))
		}
		bothPaths(func() {
			dst := make([]uint8, len(src))
			if err := format.EncodeSlice(dst, src, m, sat); err != nil {
				t.Fatal(err)
			}
			for i, x := range src {
				if w := format.EncodeFloat32(x, m, sat); dst[i] != w {
					t.Fatalf("%v %v sat=%v: %#08x gives %#02x, scalar %#02x (avx2=%v)", format, m, sat, math.Float32bits(x), dst[i], w, useAVX2)
				}
			}
		})
	})
}

func FuzzEncodeSlice16(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		format, m, sat, rest, ok := fuzzConfig(data)
		if !ok {
			return
		}
		src := make([]uint16, len(rest)/2)
		for i := range src {
			src[i] = binary.LittleEndian.Uint16(rest[2*i:])
		}
		bothPaths(func() {
			bf, hf := make([]uint8, len(src)), make([]uint8, len(src))
			if err := format.EncodeSliceBFloat16(bf, src, m, sat); err != nil {
				t.Fatal(err)
			}
			if err := format.EncodeSliceHalf(hf, src, m, sat); err != nil {
				t.Fatal(err)
			}
			for i, h := range src {
				if w := format.EncodeFloat32(BFloat16ToFloat32(h), m, sat); bf[i] != w {
					t.Fatalf("%v %v sat=%v: bfloat16 %#04x gives %#02x, scalar %#02x", format, m, sat, h, bf[i], w)
				}
				if w := format.EncodeFloat32(HalfToFloat32(h), m, sat); hf[i] != w {
					t.Fatalf("%v %v sat=%v: binary16 %#04x gives %#02x, scalar %#02x", format, m, sat, h, hf[i], w)
				}
			}
		})
	})
}

func FuzzDecodeSlice(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		format, _, _, src, ok := fuzzConfig(data)
		if !ok {
			return
		}
		bothPaths(func() {
			d32, bf, hf := make([]float32, len(src)), make([]uint16, len(src)), make([]uint16, len(src))
			if format.DecodeSlice(d32, src) != nil || format.DecodeSliceBFloat16(bf, src) != nil || format.DecodeSliceHalf(hf, src) != nil {
				t.Fatal("decode failed")
			}
			for i, c := range src {
				x := format.DecodeFloat32(c)
				if math.Float32bits(d32[i]) != math.Float32bits(x) || bf[i] != BFloat16FromFloat32(x, RTE) || hf[i] != HalfFromFloat32(x, RTE) {
					t.Fatalf("%v: code %#02x decodes to %#08x/%#04x/%#04x, scalar %v", format, c, math.Float32bits(d32[i]), bf[i], hf[i], x)
				}
			}
		})
	})
}

// FuzzQuantize16 checks the 16-bit block entry points against the portable
// Quantize loops and Dequantize of the exact float32 values, on both paths. The first byte
// chooses the block format and whether the data is binary16, the second
// the block size.
func FuzzQuantize16(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		b := BlockFormats[int(data[0])%len(BlockFormats)]
		half := data[0]&0x80 != 0
		k := []int{32, 1, 5, 64}[data[1]%4]
		src := make([]uint16, (len(data)-2)/2)
		for i := range src {
			src[i] = binary.LittleEndian.Uint16(data[2+2*i:])
		}
		wide := make([]float32, len(src))
		for i, h := range src {
			if half {
				wide[i] = HalfToFloat32(h)
			} else {
				wide[i] = BFloat16ToFloat32(h)
			}
		}
		bothPaths(func() {
			opt := Options{BlockSize: k, Workers: 1}
			ns, _ := ScaleBytes(len(src), k)
			ne, _ := ElementBytes(b, len(src))
			s1, e1 := make([]byte, ns), make([]byte, ne)
			s2, e2 := make([]byte, ns), make([]byte, ne)
			if err := quantize(s1, e1, wide, b, opt, true); err != nil {
				t.Fatal(err)
			}
			q := QuantizeBFloat16
			if half {
				q = QuantizeHalf
			}
			if err := q(s2, e2, src, b, opt); err != nil {
				t.Fatal(err)
			}
			if string(s1) != string(s2) || string(e1) != string(e2) {
				t.Fatalf("%v half=%v k=%d: 16-bit quantize differs from float32 quantize", b, half, k)
			}
			want := make([]float32, len(src))
			got := make([]uint16, len(src))
			if err := Dequantize(want, s1, e1, b, k, 1); err != nil {
				t.Fatal(err)
			}
			dq := DequantizeBFloat16
			if half {
				dq = DequantizeHalf
			}
			if err := dq(got, s1, e1, b, k, 1); err != nil {
				t.Fatal(err)
			}
			for i, x := range want {
				w := BFloat16FromFloat32(x, RTE)
				if half {
					w = HalfFromFloat32(x, RTE)
				}
				if got[i] != w {
					t.Fatalf("%v half=%v k=%d: dequantized[%d] = %#04x, want %#04x", b, half, k, i, got[i], w)
				}
			}
		})
	})
}
