package mx

import "testing"

// BenchmarkBigEncodeDir compares the AVX2 directed-mode encoders out of
// cache, from float32, bfloat16 and binary16: the 16-bit-lane kernels
// (w16, for 16-bit inputs), the float32-lane arithmetic (enc16_amd64.s's
// DIR8) and the encodeTable gather. Run it on the AVX2 path:
//
//	GODEBUG=cpu.avx512f=off go test ./mx -run '^$' -bench BigEncodeDir -benchtime 2x -cpu 1
func BenchmarkBigEncodeDir(b *testing.B) {
	in := bigInputs()
	dst := make([]uint8, bigN)
	variants := []struct {
		name          string
		w16, dirArith bool
	}{{"w16", true, true}, {"arith", false, true}, {"gather", false, false}}
	for _, f := range []Format{E4M3, E5M2} {
		for _, m := range []RoundingMode{RTZ, RTP} {
			for _, v := range variants {
				run := func(kind string, side int, fn func() error) {
					if kind == "f32" && v.w16 {
						return
					}
					b.Run(kind+"_"+f.String()+"_"+m.String()+"_"+v.name, func(b *testing.B) {
						useRTEW16, useE5Half, useDirArith = v.w16, v.w16, v.dirArith
						defer func() { useRTEW16, useE5Half, useDirArith = true, true, true }()
						bigBench(b, side, fn)
					})
				}
				run("f32", 4*bigN, func() error { return f.EncodeSlice(dst, in.f32, m, false) })
				run("bf16", 2*bigN, func() error { return f.EncodeSliceBFloat16(dst, in.bf16, m, false) })
				run("f16", 2*bigN, func() error { return f.EncodeSliceHalf(dst, in.f16, m, false) })
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
				bigBench(b, 2*bigN, func() error { return E5M2.EncodeSliceHalf(dst, in.f16, m, false) })
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
				bigBench(b, 2*bigN, func() error { return f.EncodeSliceBFloat16(dst, in.bf16, RTE, false) })
			})
			b.Run("f16_"+name, func(b *testing.B) {
				useRTEW16 = w16
				defer func() { useRTEW16 = true }()
				bigBench(b, 2*bigN, func() error { return f.EncodeSliceHalf(dst, in.f16, RTE, false) })
			})
		}
	}
}

// TestEncode16FloatLanes runs the float32-lane AVX2 encoders of 16-bit
// inputs, which the 16-bit-lane kernels displace on the avx2 path (DIR8
// with its bfloat16 and binary16 loads, and encodeRTE16AVX2 with F16C),
// on every bfloat16 and binary16 pattern, every float format, mode and
// saturation, against the scalar encoder.
func TestEncode16FloatLanes(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2")
	}
	defer func(a512 bool) { useAVX512, useRTEW16, useE5Half = a512, true, true }(useAVX512)
	useAVX512, useRTEW16, useE5Half = false, false, false
	src := make([]uint16, 1<<16)
	for i := range src {
		src[i] = uint16(i * 40503) // every pattern, neighbours far apart
	}
	dst := make([]uint8, len(src))
	for f := E2M1; f <= E5M2; f++ {
		for _, m := range modes {
			for _, sat := range []bool{false, true} {
				for _, half := range []bool{false, true} {
					widen, enc := BFloat16ToFloat32, f.EncodeSliceBFloat16
					if half {
						widen, enc = HalfToFloat32, f.EncodeSliceHalf
					}
					if err := enc(dst, src, m, sat); err != nil {
						t.Fatal(err)
					}
					for i, h := range src {
						if w := f.EncodeFloat32(widen(h), m, sat); dst[i] != w {
							t.Fatalf("%v %v sat=%v half=%v: %#04x gives %#02x, scalar %#02x", f, m, sat, half, h, dst[i], w)
						}
					}
				}
			}
		}
	}
}
