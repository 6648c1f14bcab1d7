package mx

import "testing"

// BenchmarkDecodeKernel compares the two AVX2 decoders of the float
// formats in cache: the gather from the decode table and the arithmetic
// decodeFloatAVX2, which DecodeSlice uses.
func BenchmarkDecodeKernel(b *testing.B) {
	if !useAVX2 {
		b.Skip("no AVX2")
	}
	src := benchInput()
	codes := make([]uint8, len(src))
	dst := make([]float32, len(src))
	for _, f := range []Format{E4M3, E5M2, E2M1} {
		_ = f.EncodeSlice(codes, src, RTE, true)
		b.Run(f.String()+"_gather", func(b *testing.B) {
			smallBench(b, 4*benchN, func() { decodeGather32AVX2(&dst[0], &codes[0], benchN, &decodeTables[f]) })
		})
		b.Run(f.String()+"_arith", func(b *testing.B) {
			smallBench(b, 4*benchN, func() { decodeFloatAVX2(&dst[0], &codes[0], benchN, decConstTable[f]) })
		})
	}
}
