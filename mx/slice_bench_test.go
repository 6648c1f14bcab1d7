package mx

import (
	"math"
	"math/rand/v2"
	"sync"
	"testing"
	"time"
)

// Large benchmarks (issue 12): 64 Mi elements, out of cache, as a tensor
// conversion is. They only run with -bench; set the goroutine count with
// -cpu (the slice functions and Quantize with Workers 0 use GOMAXPROCS):
//
//	go test ./mx -run '^$' -bench 'Big' -benchtime 3x -cpu 1,2
//
// Each reports G el/s and x-copy, its element rate divided by the rate of
// a Go copy of the same output bytes measured in the same run (best of 3).

const bigN = 64 << 20

var bigInputs = sync.OnceValue(func() (in struct {
	f32   []float32
	bf16  []uint16
	f16   []uint16
	codes [MXINT8 + 1][]uint8
}) {
	rng := rand.New(rand.NewPCG(3, 4))
	in.f32 = make([]float32, bigN)
	in.bf16 = make([]uint16, bigN)
	in.f16 = make([]uint16, bigN)
	for i := range in.f32 {
		x := float32(rng.NormFloat64())
		in.f32[i] = x
		in.bf16[i] = BFloat16FromFloat32(x, RTE)
		in.f16[i] = HalfFromFloat32(x, RTE)
	}
	for _, f := range Formats {
		c := make([]uint8, bigN)
		_ = f.EncodeSlice(c, in.f32, RTE, true)
		in.codes[f] = c
	}
	return in
})

// copyRate returns the bytes per second of copying n bytes (best of 3).
func copyRate(n int) float64 {
	src, dst := make([]byte, n), make([]byte, n)
	copy(dst, src) // fault the pages in
	best := time.Duration(math.MaxInt64)
	for range 3 {
		t0 := time.Now()
		copy(dst, src)
		best = min(best, time.Since(t0))
	}
	return float64(n) / best.Seconds()
}

// reportBig sets the metrics of a benchmark over bigN elements writing
// outBytes bytes per iteration.
func reportBig(b *testing.B, outBytes int) {
	b.StopTimer()
	elemRate := float64(b.N) * bigN / b.Elapsed().Seconds()
	copyElems := copyRate(outBytes) / (float64(outBytes) / bigN)
	b.ReportMetric(elemRate/1e9, "Gel/s")
	b.ReportMetric(elemRate/copyElems, "x-copy")
	b.ReportMetric(0, "ns/op")
}

func BenchmarkBigDecode(b *testing.B) {
	in := bigInputs()
	for _, f := range Formats {
		b.Run(f.String()+"_f32", func(b *testing.B) {
			dst := make([]float32, bigN)
			b.SetBytes(4 * bigN)
			for b.Loop() {
				_ = f.DecodeSlice(dst, in.codes[f])
			}
			reportBig(b, 4*bigN)
		})
		if f == E4M3 || f == E5M2 {
			b.Run(f.String()+"_bf16", func(b *testing.B) {
				dst := make([]uint16, bigN)
				for b.Loop() {
					_ = f.DecodeSliceBFloat16(dst, in.codes[f])
				}
				reportBig(b, 2*bigN)
			})
			b.Run(f.String()+"_f16", func(b *testing.B) {
				dst := make([]uint16, bigN)
				for b.Loop() {
					_ = f.DecodeSliceHalf(dst, in.codes[f])
				}
				reportBig(b, 2*bigN)
			})
		}
	}
}

func BenchmarkBigEncode(b *testing.B) {
	in := bigInputs()
	dst := make([]uint8, bigN)
	for _, f := range Formats {
		for _, m := range []RoundingMode{RTE, RTZ} {
			if m != RTE && f != E4M3 && f != E5M2 {
				continue
			}
			b.Run("f32_"+f.String()+"_"+m.String(), func(b *testing.B) {
				for b.Loop() {
					_ = f.EncodeSlice(dst, in.f32, m, false)
				}
				reportBig(b, bigN)
			})
		}
		if f == E4M3 || f == E5M2 {
			b.Run("bf16_"+f.String()+"_rte", func(b *testing.B) {
				for b.Loop() {
					_ = f.EncodeSliceBFloat16(dst, in.bf16, RTE, false)
				}
				reportBig(b, bigN)
			})
			b.Run("f16_"+f.String()+"_rte", func(b *testing.B) {
				for b.Loop() {
					_ = f.EncodeSliceHalf(dst, in.f16, RTE, false)
				}
				reportBig(b, bigN)
			})
		}
	}
}

func BenchmarkBigQuantize(b *testing.B) {
	in := bigInputs()
	for _, f := range BlockFormats {
		scales := make([]byte, mustScaleBytes(bigN, 32))
		elems := make([]byte, mustElementBytes(f, bigN))
		out := len(scales) + len(elems)
		b.Run(f.String()+"_f32", func(b *testing.B) {
			for b.Loop() {
				_ = Quantize(scales, elems, in.f32, f, Options{})
			}
			reportBig(b, out)
		})
		b.Run(f.String()+"_bf16", func(b *testing.B) {
			for b.Loop() {
				_ = QuantizeBFloat16(scales, elems, in.bf16, f, Options{})
			}
			reportBig(b, out)
		})
	}
}

func BenchmarkBigDequantize(b *testing.B) {
	in := bigInputs()
	for _, f := range BlockFormats {
		scales := make([]byte, mustScaleBytes(bigN, 32))
		elems := make([]byte, mustElementBytes(f, bigN))
		_ = Quantize(scales, elems, in.f32, f, Options{})
		b.Run(f.String()+"_f32", func(b *testing.B) {
			dst := make([]float32, bigN)
			for b.Loop() {
				_ = Dequantize(dst, scales, elems, f, 32, 0)
			}
			reportBig(b, 4*bigN)
		})
		b.Run(f.String()+"_bf16", func(b *testing.B) {
			dst := make([]uint16, bigN)
			for b.Loop() {
				_ = DequantizeBFloat16(dst, scales, elems, f, 32, 0)
			}
			reportBig(b, 2*bigN)
		})
	}
}
