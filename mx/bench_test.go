package mx

import (
	"math"
	"math/rand/v2"
	"testing"
)

// benchN elements per benchmark iteration: large enough to stream, small
// enough to stay in cache, so the figures measure the arithmetic.
const benchN = 1 << 14

func benchInput() []float32 {
	rng := rand.New(rand.NewPCG(1, 1))
	src := make([]float32, benchN)
	for i := range src {
		src[i] = float32(rng.NormFloat64())
	}
	return src
}

func BenchmarkQuantize(b *testing.B) {
	src := benchInput()
	for _, f := range BlockFormats {
		b.Run(f.String(), func(b *testing.B) {
			scales := make([]byte, mustScaleBytes(len(src), 32))
			elems := make([]byte, mustElementBytes(f, len(src)))
			b.SetBytes(int64(len(scales) + len(elems))) // output bytes, as the copy baseline
			b.ReportAllocs()
			for b.Loop() {
				_ = Quantize(scales, elems, src, f, Options{Workers: 1})
			}
			b.ReportMetric(float64(b.N)*benchN/b.Elapsed().Seconds()/1e6, "Melem/s")
		})
	}
}

// BenchmarkQuantize16 is BenchmarkQuantize from bfloat16 and binary16 (in
// cache), with BenchmarkSlice's metrics, to compare the 16-bit kernels'
// arithmetic with the float32 ones.
func BenchmarkQuantize16(b *testing.B) {
	src := benchInput()
	bf, hf := make([]uint16, len(src)), make([]uint16, len(src))
	for i, x := range src {
		bf[i], hf[i] = BFloat16FromFloat32(x, RTE), HalfFromFloat32(x, RTE)
	}
	for _, f := range BlockFormats {
		scales := make([]byte, mustScaleBytes(len(src), 32))
		elems := make([]byte, mustElementBytes(f, len(src)))
		opt := Options{Workers: 1}
		b.Run(f.String()+"_bf16", func(b *testing.B) {
			smallBench(b, 2*benchN, func() { _ = QuantizeBFloat16(scales, elems, bf, f, opt) })
		})
		b.Run(f.String()+"_f16", func(b *testing.B) {
			smallBench(b, 2*benchN, func() { _ = QuantizeHalf(scales, elems, hf, f, opt) })
		})
	}
}

func BenchmarkDequantize(b *testing.B) {
	src := benchInput()
	for _, f := range BlockFormats {
		b.Run(f.String(), func(b *testing.B) {
			scales := make([]byte, mustScaleBytes(len(src), 32))
			elems := make([]byte, mustElementBytes(f, len(src)))
			_ = Quantize(scales, elems, src, f, Options{Workers: 1})
			dst := make([]float32, len(src))
			b.SetBytes(int64(len(dst) * 4)) // float32 output bytes
			b.ReportAllocs()
			for b.Loop() {
				_ = Dequantize(dst, scales, elems, f, 32, 1)
			}
			b.ReportMetric(float64(b.N)*benchN/b.Elapsed().Seconds()/1e6, "Melem/s")
		})
	}
}

// BenchmarkQuantizePortable and BenchmarkDequantizePortable run the
// formats that have assembly kernels through the portable loops, which
// other architectures (and GODEBUG=cpu.avx2=off) use.
func BenchmarkQuantizePortable(b *testing.B) {
	src := benchInput()
	for _, f := range []BlockFormat{MXFP8E4M3, MXFP8E5M2, MXFP4} {
		b.Run(f.String(), func(b *testing.B) {
			scales := make([]byte, mustScaleBytes(len(src), 32))
			elems := make([]byte, mustElementBytes(f, len(src)))
			b.SetBytes(int64(len(scales) + len(elems)))
			b.ReportAllocs()
			for b.Loop() {
				_ = quantize(scales, elems, src, f, Options{Workers: 1}, true)
			}
			b.ReportMetric(float64(b.N)*benchN/b.Elapsed().Seconds()/1e6, "Melem/s")
		})
	}
}

func BenchmarkDequantizePortable(b *testing.B) {
	src := benchInput()
	f := MXFP4
	b.Run(f.String(), func(b *testing.B) {
		scales := make([]byte, mustScaleBytes(len(src), 32))
		elems := make([]byte, mustElementBytes(f, len(src)))
		_ = Quantize(scales, elems, src, f, Options{Workers: 1})
		dst := make([]float32, len(src))
		b.SetBytes(int64(len(dst) * 4))
		b.ReportAllocs()
		for b.Loop() {
			_ = dequantize(dst, scales, elems, f, 32, 1, true)
		}
		b.ReportMetric(float64(b.N)*benchN/b.Elapsed().Seconds()/1e6, "Melem/s")
	})
}

// BenchmarkCopyFloat32 copies the same number of output bytes as
// Dequantize writes, the yardstick for the ratios in BENCHMARKS-mx.md.
func BenchmarkCopyFloat32(b *testing.B) {
	src := benchInput()
	dst := make([]float32, len(src))
	b.SetBytes(int64(len(dst) * 4))
	b.ReportAllocs()
	for b.Loop() {
		copy(dst, src)
	}
	b.ReportMetric(float64(b.N)*benchN/b.Elapsed().Seconds()/1e6, "Melem/s")
}

// BenchmarkCopyBytes copies the same number of bytes as MXFP4 and MXFP8
// quantization write (elements plus scales), and as scalar encoding of
// benchN values writes (codes).
func BenchmarkCopyBytes(b *testing.B) {
	sizes := []struct {
		name string
		n    int
	}{
		{"mxfp4", mustElementBytes(MXFP4, benchN) + mustScaleBytes(benchN, 32)},
		{"mxfp8_e4m3", mustElementBytes(MXFP8E4M3, benchN) + mustScaleBytes(benchN, 32)},
		{"codes", benchN},
	}
	for _, sz := range sizes {
		b.Run(sz.name, func(b *testing.B) {
			src, dst := make([]byte, sz.n), make([]byte, sz.n)
			b.SetBytes(int64(sz.n))
			for b.Loop() {
				copy(dst, src)
			}
			b.ReportMetric(float64(b.N)*benchN/b.Elapsed().Seconds()/1e6, "Melem/s")
		})
	}
}

var sink uint8

// BenchmarkEncodeFloat32 converts an array through the public scalar API
// with the format a run-time value, as a caller converting a tensor would;
// the codes go to an output slice (BenchmarkCopyBytes/codes copies as many
// bytes).
func BenchmarkEncodeFloat32(b *testing.B) {
	src := benchInput()
	dst := make([]uint8, len(src))
	for _, f := range Formats {
		b.Run(f.String(), func(b *testing.B) {
			b.SetBytes(int64(len(dst))) // one code byte out per conversion
			b.ReportAllocs()
			for b.Loop() {
				for i, x := range src {
					dst[i] = f.EncodeFloat32(x, RTE, false)
				}
			}
			b.ReportMetric(float64(b.N)*benchN/b.Elapsed().Seconds()/1e6, "Mconv/s")
		})
	}
}

func BenchmarkDecodeFloat32(b *testing.B) {
	var acc float32
	for b.Loop() {
		for c := range 256 {
			acc += E4M3.DecodeFloat32(uint8(c))
		}
	}
	if math.IsNaN(float64(acc)) {
		sink++
	}
	b.ReportMetric(float64(b.N)*256/b.Elapsed().Seconds()/1e6, "Mconv/s")
}
