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
// Each reports G el/s and x-copy: the time of a Go copy of the larger of
// its input and output (measured in the same run, best of 3) divided by
// the conversion's time. Issue 25's target, a conversion in at most 1.25×
// the copy's time, is x-copy ≥ 0.8.

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

// copyRates returns the bytes per wall second (best of 3) and per CPU
// second (all 3) of copying n bytes.
func copyRates(n int) (wall, cpu float64) {
	src, dst := make([]byte, n), make([]byte, n)
	copy(dst, src) // fault the pages in
	best := time.Duration(math.MaxInt64)
	c0 := cpuTime()
	for range 3 {
		t0 := time.Now()
		copy(dst, src)
		best = min(best, time.Since(t0))
	}
	c := cpuTime() - c0
	return float64(n) / best.Seconds(), 3 * float64(n) / c.Seconds()
}

// bigBench runs fn, a conversion of bigN elements whose larger side (input
// or output) is sideBytes bytes, once untimed (faulting the output in,
// building tables) and then b.N times, and reports G el/s per wall second and per CPU second (all
// goroutines' CPU time, so with -cpu 2 it is the rate per core), each
// divided by the rate of copy() of those bytes measured the same way.
func bigBench(b *testing.B, sideBytes int, fn func() error) {
	if err := fn(); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	c0 := cpuTime()
	for range b.N {
		_ = fn()
	}
	b.StopTimer()
	cpu := cpuTime() - c0
	el := float64(b.N) * bigN
	wallRate, cpuRate := el/b.Elapsed().Seconds(), el/cpu.Seconds()
	cw, cc := copyRates(sideBytes)
	perElem := float64(sideBytes) / bigN
	b.ReportMetric(wallRate/1e9, "Gel/s")
	b.ReportMetric(wallRate/(cw/perElem), "x-copy")
	b.ReportMetric(cpuRate/1e9, "Gel/cpu-s")
	b.ReportMetric(cpuRate/(cc/perElem), "x-copy-cpu")
	b.ReportMetric(0, "ns/op")
}

func BenchmarkBigDecode(b *testing.B) {
	in := bigInputs()
	for _, f := range Formats {
		b.Run(f.String()+"_f32", func(b *testing.B) {
			dst := make([]float32, bigN)
			bigBench(b, 4*bigN, func() error { return f.DecodeSlice(dst, in.codes[f]) })
		})
		b.Run(f.String()+"_bf16", func(b *testing.B) {
			dst := make([]uint16, bigN)
			bigBench(b, 2*bigN, func() error { return f.DecodeSliceBFloat16(dst, in.codes[f]) })
		})
		b.Run(f.String()+"_f16", func(b *testing.B) {
			dst := make([]uint16, bigN)
			bigBench(b, 2*bigN, func() error { return f.DecodeSliceHalf(dst, in.codes[f]) })
		})
	}
}

// BenchmarkBigEncode encodes every format from float32, bfloat16 and
// binary16 to nearest even, and the two FP8 formats in the directed modes.
func BenchmarkBigEncode(b *testing.B) {
	in := bigInputs()
	dst := make([]uint8, bigN)
	for _, f := range Formats {
		modes := []RoundingMode{RTE}
		if f == E4M3 || f == E5M2 {
			modes = []RoundingMode{RTE, RTZ, RTP, RTN}
		}
		for _, m := range modes {
			b.Run("f32_"+f.String()+"_"+m.String(), func(b *testing.B) {
				bigBench(b, 4*bigN, func() error { return f.EncodeSlice(dst, in.f32, m, false) })
			})
			b.Run("bf16_"+f.String()+"_"+m.String(), func(b *testing.B) {
				bigBench(b, 2*bigN, func() error { return f.EncodeSliceBFloat16(dst, in.bf16, m, false) })
			})
			b.Run("f16_"+f.String()+"_"+m.String(), func(b *testing.B) {
				bigBench(b, 2*bigN, func() error { return f.EncodeSliceHalf(dst, in.f16, m, false) })
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
			bigBench(b, max(out, 4*bigN), func() error { return Quantize(scales, elems, in.f32, f, Options{}) })
		})
		b.Run(f.String()+"_bf16", func(b *testing.B) {
			bigBench(b, max(out, 2*bigN), func() error { return QuantizeBFloat16(scales, elems, in.bf16, f, Options{}) })
		})
		b.Run(f.String()+"_f16", func(b *testing.B) {
			bigBench(b, max(out, 2*bigN), func() error { return QuantizeHalf(scales, elems, in.f16, f, Options{}) })
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
			bigBench(b, 4*bigN, func() error { return Dequantize(dst, scales, elems, f, 32, 0) })
		})
		b.Run(f.String()+"_bf16", func(b *testing.B) {
			dst := make([]uint16, bigN)
			bigBench(b, 2*bigN, func() error { return DequantizeBFloat16(dst, scales, elems, f, 32, 0) })
		})
		b.Run(f.String()+"_f16", func(b *testing.B) {
			dst := make([]uint16, bigN)
			bigBench(b, 2*bigN, func() error { return DequantizeHalf(dst, scales, elems, f, 32, 0) })
		})
	}
}

// smallBench runs fn over benchN elements (in cache) b.N times and reports
// G el/s per wall second and per CPU second.
func smallBench(b *testing.B, outBytes int, fn func()) {
	b.SetBytes(int64(outBytes))
	fn()
	b.ResetTimer()
	c0 := cpuTime()
	for range b.N {
		fn()
	}
	b.StopTimer()
	el := float64(b.N) * benchN
	b.ReportMetric(el/b.Elapsed().Seconds()/1e9, "Gel/s")
	b.ReportMetric(el/(cpuTime()-c0).Seconds()/1e9, "Gel/cpu-s")
}

// BenchmarkSlice converts benchN elements (in cache) per iteration, to
// separate the kernels' arithmetic from memory bandwidth; MB/s counts
// output bytes, like BenchmarkCopyFloat32 and BenchmarkCopyBytes/codes.
func BenchmarkSlice(b *testing.B) {
	src := benchInput()
	codes := make([]uint8, len(src))
	dst32 := make([]float32, len(src))
	for _, f := range []Format{E4M3, E5M2, E2M1, E8M0, MXINT8} {
		b.Run("decode_"+f.String(), func(b *testing.B) {
			_ = f.EncodeSlice(codes, src, RTE, true)
			smallBench(b, 4*benchN, func() { _ = f.DecodeSlice(dst32, codes) })
		})
		for _, m := range []RoundingMode{RTE, RTZ} {
			b.Run("encode_"+f.String()+"_"+m.String(), func(b *testing.B) {
				smallBench(b, benchN, func() { _ = f.EncodeSlice(codes, src, m, false) })
			})
		}
	}
}

// BenchmarkCopyCPU is copy() of benchN float32 (in cache), with the same
// metrics as BenchmarkSlice.
func BenchmarkCopyCPU(b *testing.B) {
	src := benchInput()
	dst := make([]float32, len(src))
	smallBench(b, 4*benchN, func() { copy(dst, src) })
}
