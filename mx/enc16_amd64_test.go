package mx

import "testing"

// BenchmarkBigEncodeDir compares the AVX2 directed-mode encoders out of
// cache: the arithmetic kernels (enc16_amd64.s) against the encodeTable
// gather, from float32, bfloat16 and binary16. Run it on the AVX2 path:
//
//	GODEBUG=cpu.avx512f=off go test ./mx -run '^$' -bench BigEncodeDir -benchtime 2x -cpu 1
func BenchmarkBigEncodeDir(b *testing.B) {
	in := bigInputs()
	dst := make([]uint8, bigN)
	for _, f := range []Format{E4M3, E5M2} {
		for _, m := range []RoundingMode{RTZ, RTP} {
			for _, arith := range []bool{true, false} {
				name := f.String() + "_" + m.String() + "_gather"
				if arith {
					name = f.String() + "_" + m.String() + "_arith"
				}
				run := func(kind string, side int, fn func()) {
					b.Run(kind+"_"+name, func(b *testing.B) {
						useDirArith = arith
						defer func() { useDirArith = true }()
						bigBench(b, side, fn)
					})
				}
				run("f32", 4*bigN, func() { _ = f.EncodeSlice(dst, in.f32, m, false) })
				run("bf16", 2*bigN, func() { _ = f.EncodeSliceBFloat16(dst, in.bf16, m, false) })
				run("f16", 2*bigN, func() { _ = f.EncodeSliceHalf(dst, in.f16, m, false) })
			}
		}
	}
}

// BenchmarkBigEncodeE5Half compares binary16 to E5M2 out of cache through
// the 16-lane integer encoders and through the general AVX2 ones.
func BenchmarkBigEncodeE5Half(b *testing.B) {
	in := bigInputs()
	dst := make([]uint8, bigN)
	for _, m := range []RoundingMode{RTE, RTZ, RTP} {
		for _, e5 := range []bool{true, false} {
			name := m.String() + "_general"
			if e5 {
				name = m.String() + "_e5half"
			}
			b.Run(name, func(b *testing.B) {
				useE5Half = e5
				defer func() { useE5Half = true }()
				bigBench(b, 2*bigN, func() { _ = E5M2.EncodeSliceHalf(dst, in.f16, m, false) })
			})
		}
	}
}

// BenchmarkBigEncodeRTEW16 compares bfloat16 and binary16 to the float
// formats in RTE out of cache through encodeRTEW16AVX2 and
// encodeRTEWHalfAVX2 (16-bit lanes) and through encodeRTE16AVX2 (float32
// lanes).
func BenchmarkBigEncodeRTEW16(b *testing.B) {
	in := bigInputs()
	dst := make([]uint8, bigN)
	for _, f := range []Format{E2M1, E4M3, E5M2} {
		for _, w16 := range []bool{true, false} {
			name := f.String() + "_f32lanes"
			if w16 {
				name = f.String() + "_w16"
			}
			b.Run(name, func(b *testing.B) {
				useRTEW16 = w16
				defer func() { useRTEW16 = true }()
				bigBench(b, 2*bigN, func() { _ = f.EncodeSliceBFloat16(dst, in.bf16, RTE, false) })
			})
			b.Run("f16_"+name, func(b *testing.B) {
				useRTEW16 = w16
				defer func() { useRTEW16 = true }()
				bigBench(b, 2*bigN, func() { _ = f.EncodeSliceHalf(dst, in.f16, RTE, false) })
			})
		}
	}
}
