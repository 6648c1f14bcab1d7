package mx

import (
	"math/rand/v2"
	"testing"
)

// TestDequantHalfKernels runs both AVX2 binary16 dequantizers of the
// one-byte float formats (dequantHDirectAVX2, and dequantWHalfAVX2 with
// useHDirect off), and both bfloat16 ones of FP6, on every scale code with every element byte (random
// packed bytes for FP6) and holds them bit for bit to the portable float32
// result rounded by HalfFromFloat32 and BFloat16FromFloat32.
func TestDequantHalfKernels(t *testing.T) {
	if !useAVX2 || !useF16C {
		t.Skip("no AVX2 and F16C")
	}
	defer func(a512 bool) { useAVX512 = a512 }(useAVX512)
	useAVX512 = false
	rng := rand.New(rand.NewPCG(7, 8))
	const n = 256 * 256 // 8 blocks per scale code
	for _, b := range []BlockFormat{MXFP8E4M3, MXFP8E5M2, MXFP6E2M3, MXFP6E3M2} {
		scales := make([]byte, n/32)
		for i := range scales {
			scales[i] = uint8(i / 8)
		}
		elems := make([]byte, mustElementBytes(b, n))
		for i := range elems {
			elems[i] = uint8(i)
			if b.Element().Bits() == 6 {
				elems[i] = uint8(rng.Uint32())
			}
		}
		want := make([]float32, n)
		if err := Dequantize(want, scales, elems, b, 32, 1); err != nil {
			t.Fatal(err)
		}
		for _, direct := range []bool{true, false} {
			useHDirect = direct
			got, gotBF := make([]uint16, n), make([]uint16, n)
			err := DequantizeHalf(got, scales, elems, b, 32, 1)
			errBF := DequantizeBFloat16(gotBF, scales, elems, b, 32, 1)
			useHDirect = true
			if err != nil || errBF != nil {
				t.Fatal(err, errBF)
			}
			for i, x := range want {
				if w := HalfFromFloat32(x, RTE); got[i] != w {
					t.Fatalf("%v direct=%v: element %d (scale %#02x) = %#04x, want %#04x (%v)", b, direct, i, scales[i/32], got[i], w, x)
				}
				if w := BFloat16FromFloat32(x, RTE); gotBF[i] != w {
					t.Fatalf("%v direct=%v: bfloat16 element %d (scale %#02x) = %#04x, want %#04x (%v)", b, direct, i, scales[i/32], gotBF[i], w, x)
				}
			}
		}
	}
}

// BenchmarkBigDequantHalf compares the AVX2 binary16 dequantizers out of
// cache (run with GODEBUG=cpu.avx512f=off -cpu 1).
func BenchmarkBigDequantHalf(b *testing.B) {
	in := bigInputs()
	dst := make([]uint16, bigN)
	for _, f := range []BlockFormat{MXFP8E4M3, MXFP8E5M2, MXFP6E3M2, MXFP6E2M3} {
		scales := make([]byte, mustScaleBytes(bigN, 32))
		elems := make([]byte, mustElementBytes(f, bigN))
		_ = Quantize(scales, elems, in.f32, f, Options{})
		for _, direct := range []bool{true, false} {
			name := f.String() + "_bdec"
			if direct {
				name = f.String() + "_direct"
			}
			b.Run(name, func(b *testing.B) {
				useHDirect = direct
				defer func() { useHDirect = true }()
				bigBench(b, 2*bigN, func() error { return DequantizeHalf(dst, scales, elems, f, 32, 0) })
			})
		}
	}
}
