package mx

import (
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

// The slice conversions must give the scalar functions' results on every
// input, on every path: the vector kernels where the machine has them, and
// the portable loops (withEachPath runs a test both ways, and
// TestSlicePortableProcess reruns the tests in a process started with
// GODEBUG=cpu.avx2=off).

// withEachPath runs fn with the kernels this machine selected and then with
// every kernel switched off.
func withEachPath(t *testing.T, fn func(t *testing.T)) {
	t.Helper()
	if useAVX512 {
		t.Run("avx512", fn)
		withNT(func() { t.Run("avx512-nt", fn) })
		if useVBMI {
			// The arithmetic AVX-512 kernels, which VBMI's lookups
			// replace in part, and the directed-mode encoders' gather.
			useVBMI = false
			withGather512(func() { t.Run("avx512-novbmi-gather", fn) })
			useVBMI = true
		} else {
			t.Log("no AVX512_VBMI: the kernels that need it were not run")
		}
		vbmi := useVBMI
		useAVX512, useVBMI = false, false
		defer func() { useAVX512, useVBMI = true, vbmi }()
	} else {
		t.Log("no AVX-512 (F, BW, DQ, VL, or GODEBUG cpu.avx512f=off): the AVX-512 kernels were not run")
	}
	if useAVX2 {
		t.Run("avx2", fn)
		if !useF16C {
			t.Log("no F16C: the binary16 decode kernel was not run")
		}
		withGatherDecode(func() { t.Run("avx2-gather", fn) })
		useAVX2 = false
		defer func() { useAVX2 = true }()
	} else {
		t.Log("no AVX2 (or GODEBUG cpu.avx2=off): the AVX2 kernels were not run")
	}
	t.Run("portable", fn)
}

// sliceCuts cuts an input so that the kernels' whole groups, the
// portable tails and misaligned starts all occur.
func sliceCuts(n int) [][2]int {
	return [][2]int{{0, n}, {1, n}, {3, n - 5}, {0, min(n, 31)}, {7, min(n, 40)}, {0, 0}}
}

// probeBits returns float32 bit patterns for the encoders: a sweep over the
// whole bit space with a prime stride, every boundary and midpoint of every
// format with its float32 neighbours, specials (±0, NaNs, ±Inf,
// subnormals), and random patterns.
func probeBits(stride uint32) []uint32 {
	us := rteProbe(E4M3, stride) // the sweep, and E4M3's points
	for _, f := range Formats {
		for _, x := range interestingInputs(f) {
			u := math.Float32bits(float32(x))
			us = append(us, u-2, u-1, u, u+1, u+2)
		}
	}
	rng := rand.New(rand.NewPCG(31, 32))
	for range 1 << 14 {
		us = append(us, rng.Uint32())
		us = append(us, math.Float32bits(float32(rng.NormFloat64()*math.Ldexp(1, rng.IntN(40)-20))))
	}
	return us
}

func TestDecodeSlice(t *testing.T) {
	var src []uint8
	for r := range 5 {
		for c := range 256 {
			src = append(src, uint8(c*(2*r+1)))
		}
	}
	withEachPath(t, func(t *testing.T) {
		for _, f := range Formats {
			for _, cut := range sliceCuts(len(src)) {
				in := src[cut[0]:cut[1]]
				d32 := make([]float32, len(in)+1)
				bf := make([]uint16, len(in)+1)
				hf := make([]uint16, len(in)+1)
				d32[len(in)], bf[len(in)], hf[len(in)] = 12345, 0xABCD, 0xABCD
				if err := f.DecodeSlice(d32, in); err != nil {
					t.Fatal(err)
				}
				if err := f.DecodeSliceBFloat16(bf, in); err != nil {
					t.Fatal(err)
				}
				if err := f.DecodeSliceHalf(hf, in); err != nil {
					t.Fatal(err)
				}
				for i, c := range in {
					x := f.DecodeFloat32(c)
					if math.Float32bits(d32[i]) != math.Float32bits(x) {
						t.Fatalf("%v.DecodeSlice: code %#02x gives %#08x, scalar %#08x", f, c, math.Float32bits(d32[i]), math.Float32bits(x))
					}
					if w := BFloat16FromFloat32(x, RTE); bf[i] != w {
						t.Fatalf("%v.DecodeSliceBFloat16: code %#02x gives %#04x, scalar %#04x", f, c, bf[i], w)
					}
					if w := HalfFromFloat32(x, RTE); hf[i] != w {
						t.Fatalf("%v.DecodeSliceHalf: code %#02x gives %#04x, scalar %#04x", f, c, hf[i], w)
					}
				}
				if d32[len(in)] != 12345 || bf[len(in)] != 0xABCD || hf[len(in)] != 0xABCD {
					t.Fatalf("%v: decode wrote beyond len(src)", f)
				}
			}
		}
	})
}

// checkEncoded compares a slice result with the scalar encoder's results.
func checkEncoded(t *testing.T, what string, f Format, m RoundingMode, sat bool, got, want []uint8, raw func(i int) uint32) {
	t.Helper()
	bad := 0
	for i, w := range want {
		if got[i] != w {
			if bad++; bad <= 5 {
				t.Errorf("%s %v %v sat=%v: input %#x gives %#02x, scalar %#02x", what, f, m, sat, raw(i), got[i], w)
			}
		}
	}
	if bad > 0 {
		t.FailNow()
	}
}

// scalarCodes encodes src with EncodeFloat32, the reference.
func scalarCodes(f Format, m RoundingMode, sat bool, src []float32) []uint8 {
	want := make([]uint8, len(src))
	for i, x := range src {
		want[i] = f.EncodeFloat32(x, m, sat)
	}
	return want
}

type encodeKey struct {
	f   Format
	m   RoundingMode
	sat bool
}

func TestEncodeSliceFloat32(t *testing.T) {
	stride := uint32(65521)
	if *long {
		stride = 251
	}
	bits := probeBits(stride)
	src := make([]float32, len(bits))
	for i, u := range bits {
		src[i] = math.Float32frombits(u)
	}
	want := map[encodeKey][]uint8{}
	for _, f := range Formats {
		for _, m := range modes {
			for _, sat := range []bool{false, true} {
				want[encodeKey{f, m, sat}] = scalarCodes(f, m, sat, src)
			}
		}
	}
	withEachPath(t, func(t *testing.T) {
		for _, f := range Formats {
			for _, m := range modes {
				for _, sat := range []bool{false, true} {
					for _, cut := range sliceCuts(len(src)) {
						in := src[cut[0]:cut[1]]
						dst := make([]uint8, len(in)+1)
						dst[len(in)] = 0x5A
						if err := f.EncodeSlice(dst, in, m, sat); err != nil {
							t.Fatal(err)
						}
						if dst[len(in)] != 0x5A {
							t.Fatalf("%v: EncodeSlice wrote beyond len(src)", f)
						}
						checkEncoded(t, "EncodeSlice", f, m, sat, dst, want[encodeKey{f, m, sat}][cut[0]:cut[1]], func(i int) uint32 { return math.Float32bits(in[i]) })
					}
				}
			}
		}
	})
}

// TestEncodeSlice16 encodes every bfloat16 and every binary16 value.
func TestEncodeSlice16(t *testing.T) {
	all := make([]uint16, 1<<16+37)
	for i := range all {
		all[i] = uint16(i * 7919) // every value (7919 is odd), then a few again
	}
	bf32 := make([]float32, len(all))
	hf32 := make([]float32, len(all))
	for i, h := range all {
		bf32[i] = BFloat16ToFloat32(h)
		hf32[i] = HalfToFloat32(h)
	}
	wantBF, wantHF := map[encodeKey][]uint8{}, map[encodeKey][]uint8{}
	for _, f := range Formats {
		for _, m := range modes {
			for _, sat := range []bool{false, true} {
				wantBF[encodeKey{f, m, sat}] = scalarCodes(f, m, sat, bf32)
				wantHF[encodeKey{f, m, sat}] = scalarCodes(f, m, sat, hf32)
			}
		}
	}
	withEachPath(t, func(t *testing.T) {
		for _, f := range Formats {
			for _, m := range modes {
				for _, sat := range []bool{false, true} {
					key := encodeKey{f, m, sat}
					for _, cut := range [][2]int{{0, len(all)}, {5, len(all) - 3}} {
						in := all[cut[0]:cut[1]]
						dst := make([]uint8, len(in))
						if err := f.EncodeSliceBFloat16(dst, in, m, sat); err != nil {
							t.Fatal(err)
						}
						checkEncoded(t, "EncodeSliceBFloat16", f, m, sat, dst, wantBF[key][cut[0]:cut[1]], func(i int) uint32 { return uint32(in[i]) })
						if err := f.EncodeSliceHalf(dst, in, m, sat); err != nil {
							t.Fatal(err)
						}
						checkEncoded(t, "EncodeSliceHalf", f, m, sat, dst, wantHF[key][cut[0]:cut[1]], func(i int) uint32 { return uint32(in[i]) })
					}
				}
			}
		}
	})
}

// TestHalfBits checks the slice encoders' binary16 widening on every code.
func TestHalfBits(t *testing.T) {
	for c := range 1 << 16 {
		if got, want := halfBits(uint16(c)), math.Float32bits(HalfToFloat32(uint16(c))); got != want {
			t.Fatalf("halfBits(%#04x) = %#08x, want %#08x", c, got, want)
		}
	}
}

// TestSliceParallel converts slices long enough to be split and checks the
// result is the same for every GOMAXPROCS.
func TestSliceParallel(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	n := 2*sliceParallelMin + 1021
	src := make([]float32, n)
	codes := make([]uint8, n)
	for i := range src {
		src[i] = float32(rng.NormFloat64() * 100)
		codes[i] = uint8(rng.Uint32())
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var ref []uint8
	var refDec []float32
	for _, procs := range []int{1, 2, 3, 8} {
		runtime.GOMAXPROCS(procs)
		dst := make([]uint8, n)
		if err := E4M3.EncodeSlice(dst, src, RTP, true); err != nil {
			t.Fatal(err)
		}
		dec := make([]float32, n)
		if err := E5M2.DecodeSlice(dec, codes); err != nil {
			t.Fatal(err)
		}
		if ref == nil {
			ref, refDec = dst, dec
			checkEncoded(t, "EncodeSlice", E4M3, RTP, true, dst, scalarCodes(E4M3, RTP, true, src), func(i int) uint32 { return math.Float32bits(src[i]) })
			continue
		}
		if string(dst) != string(ref) {
			t.Fatalf("GOMAXPROCS=%d: EncodeSlice differs from GOMAXPROCS=1", procs)
		}
		for i := range dec {
			if math.Float32bits(dec[i]) != math.Float32bits(refDec[i]) {
				t.Fatalf("GOMAXPROCS=%d: DecodeSlice differs at %d", procs, i)
			}
		}
	}
}

func TestSliceErrors(t *testing.T) {
	src := []float32{1, 2}
	dst := make([]uint8, 1)
	if err := E4M3.EncodeSlice(dst, src, RTE, false); !errors.Is(err, ErrShortBuffer) {
		t.Errorf("short dst: %v, want ErrShortBuffer", err)
	}
	if err := Format(0).EncodeSlice(make([]uint8, 2), src, RTE, false); !errors.Is(err, ErrFormat) {
		t.Errorf("invalid format: %v, want ErrFormat", err)
	}
	if err := E4M3.EncodeSlice(make([]uint8, 2), src, roundTiesAway, false); !errors.Is(err, ErrFormat) {
		t.Errorf("invalid mode: %v, want ErrFormat", err)
	}
	if err := E4M3.EncodeSliceHalf(dst, []uint16{1, 2}, RTE, false); !errors.Is(err, ErrShortBuffer) {
		t.Errorf("short dst (half): %v, want ErrShortBuffer", err)
	}
	if err := E4M3.DecodeSlice(make([]float32, 1), []uint8{1, 2}); !errors.Is(err, ErrShortBuffer) {
		t.Errorf("short decode dst: %v, want ErrShortBuffer", err)
	}
	if err := Format(99).DecodeSliceHalf(make([]uint16, 2), []uint8{1, 2}); !errors.Is(err, ErrFormat) {
		t.Errorf("invalid decode format: %v, want ErrFormat", err)
	}
}

// TestSlicePortableProcess reruns the package's tests in a child process
// with GODEBUG=cpu.avx2=off, so that the switch users have is the
// one tested, and checks that the child really ran without AVX2.
func TestSlicePortableProcess(t *testing.T) {
	if os.Getenv("SPVX_MX_CHILD") != "" {
		if strings.Contains(os.Getenv("GODEBUG"), "cpu.avx2=off") && useAVX2 {
			t.Fatal("GODEBUG=cpu.avx2=off did not switch the AVX2 kernels off")
		}
		return
	}
	if testing.Short() {
		t.Skip("-short: the portable paths run in-process only")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Skip("no test executable:", err)
	}
	// The whole package again: every test on the portable paths.
	cmd := exec.Command(exe, "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), "SPVX_MX_CHILD=1", "GODEBUG=cpu.avx2=off")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child with GODEBUG=cpu.avx2=off: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "--- PASS: TestEncodeSliceFloat32") || strings.Contains(string(out), "/avx2") {
		t.Fatalf("child did not run the portable slice tests:\n%s", out)
	}
}
