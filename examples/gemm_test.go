package examples

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand"
	"os"
	"strings"
	"testing"

	"spvx/asm"
	"spvx/interp"
	"spvx/spirv"
	"spvx/val"
)

// The GEMM examples (src/gemm_int8_dpas.spvasm, src/gemm_bf16_dpas.spvasm)
// run end to end: assembled by spvx, validated, run by interp over random
// matrices at subgroup sizes 8 and 16, and compared with plain Go GEMMs
// written here from SPV_INTEL_subgroup_matrix_multiply_accumulate's
// definition, Result = A×B + C, and for floats the accumulation model
// interp/dpas.go's header documents (the extension leaves it open). The
// reference knows nothing of layouts: it indexes the row-major matrices
// in memory, so the 2D block loads' and the store's mappings, the VNNI
// transform, the bitcast shuffles and DPAS's operand layouts must all be
// right for C to match.

// gemmSize is one problem: C is M×N, K the shared dimension, and the row
// pitches in elements (the 2D block rules want pitches in bytes that are
// multiples of 16, so they may exceed the widths).
type gemmSize struct{ M, N, K, lda, ldb, ldc int }

// gemmModule assembles src as src/build.sh would and validates it as an
// OpenCL 2.2 module with the extensions' spec texts enforced.
func gemmModule(t *testing.T, src string) *spirv.Module {
	t.Helper()
	text, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	b, err := asm.AssembleBytes(text, asm.Options{TargetEnv: "spv1.2", File: src})
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	m, err := spirv.Decode(b)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	if err := val.Validate(m, val.Options{Env: val.EnvOpenCL2_2, SpecStrict: true}); err != nil {
		t.Fatalf("%s does not validate: %v", src, err)
	}
	return m
}

// gemmRun runs entry over C's tiles: one subgroup of S per 8×S tile, two
// subgroups a workgroup (local S×2), so several workgroups and subgroups
// run. The extra tile row when ceil(M/8) is odd lies wholly below the
// surfaces: its loads read zeros and its store writes nothing.
func gemmRun(t *testing.T, m *spirv.Module, entry string, o interp.Options, z gemmSize, a, b, c []byte, extra ...interp.KernelArg) {
	t.Helper()
	if err := gemmDispatch(m, entry, o, z, a, b, c, extra...); err != nil {
		t.Fatalf("%s %+v: %v", entry, z, err)
	}
}

// gemmDispatch compiles entry with o and runs it as gemmRun says.
func gemmDispatch(m *spirv.Module, entry string, o interp.Options, z gemmSize, a, b, c []byte, extra ...interp.KernelArg) error {
	S := o.SubgroupSize
	p, err := interp.Compile(m, entry, o)
	if err != nil {
		return err
	}
	u := func(v int) interp.KernelArg { return interp.KernelArg{Kind: interp.ArgScalar, Scalar: uint64(v)} }
	args := []interp.KernelArg{{Kind: interp.ArgGlobal, Global: a}, {Kind: interp.ArgGlobal, Global: b}, {Kind: interp.ArgGlobal, Global: c},
		u(z.M), u(z.N), u(z.K), u(z.lda), u(z.ldb), u(z.ldc)}
	args = append(args, extra...)
	tiles := (z.M + 7) / 8
	global := [3]uint32{uint32((z.N + S - 1) / S * S), uint32((tiles + 1) / 2 * 2), 1}
	return p.DispatchND(context.Background(), global, [3]uint32{uint32(S), 2, 1}, &interp.Resources{Args: args})
}

// gemmSentinel fills C before the run, so that the test sees the pitch's
// padding columns left alone.
const gemmSentinel = 0xa5

// checkC compares C (M×N 32-bit words at pitch ldc) with want and checks
// that the padding columns still hold the sentinel.
func checkC(t *testing.T, what string, z gemmSize, c []byte, want func(m, n int) uint32) {
	t.Helper()
	bad := 0
	for m := 0; m < z.M; m++ {
		for n := 0; n < z.ldc; n++ {
			got := binary.LittleEndian.Uint32(c[4*(m*z.ldc+n):])
			w := uint32(gemmSentinel * 0x01010101)
			if n < z.N {
				w = want(m, n)
			}
			if got != w && bad < 5 {
				t.Errorf("%s %+v: C[%d][%d] = %#x, want %#x", what, z, m, n, got, w)
			}
			if got != w {
				bad++
			}
		}
	}
	if bad > 5 {
		t.Errorf("%s %+v: %d wrong words in all", what, z, bad)
	}
}

func filled(n int, v byte) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = v
	}
	return b
}

// TestGEMMInt8DPAS runs gemm_int8_dpas.spvasm: C = A × (B − zp) with A
// int8 and B uint8 less a zero point per column, exact in integers (the
// extension: integer DPAS is exact at the Result width; int32 here never
// wraps). Random zero points per column check that the kernel places
// them where its bitcast shuffles put B's elements, as the extension's
// concatenation rule says (a uniform zero point would pass under any
// shuffle that its reverse undoes).
// Sizes include ragged M, N and K (not multiples of 8, S or 32), which
// the kernel leaves to the block loads' out-of-bounds zeros. Each runs in
// the default schedule and again with the subgroups run apart in shuffled
// order under Strict, which must not change C.
func TestGEMMInt8DPAS(t *testing.T) {
	m := gemmModule(t, "src/gemm_int8_dpas.spvasm")
	sizes := []gemmSize{{8, 64, 64, 64, 64, 64}, {13, 68, 80, 80, 80, 68}, {40, 128, 160, 160, 128, 132}, {3, 96, 100, 112, 96, 96}}
	rng := rand.New(rand.NewSource(24))
	// the second schedule runs each subgroup apart, in a shuffled order
	scheds := []interp.Options{{}, {SeparateSubgroups: true, Shuffle: true, Seed: 7, Strict: true}}
	for run, S := range []int{8, 16, 8, 16} {
		o := scheds[run/2]
		o.SubgroupSize = S
		for _, z := range sizes {
			a := make([]byte, z.M*z.lda)
			b := make([]byte, z.K*z.ldb)
			rng.Read(a)
			rng.Read(b)
			zp := make([]byte, z.N)
			if z != sizes[0] {
				// (the first size keeps zp zero: the shuffles' round
				// trip alone, C = A×B as the transform load gives B)
				rng.Read(zp)
			}
			c := filled(4*z.M*z.ldc, gemmSentinel)
			gemmRun(t, m, fmt.Sprintf("gemm_int8_sg%d", S), o, z, a, b, c, interp.KernelArg{Kind: interp.ArgGlobal, Global: zp})
			checkC(t, fmt.Sprintf("S=%d schedule %d", S, run/2), z, c, func(i, j int) uint32 {
				var s int64
				for k := 0; k < z.K; k++ {
					s += int64(int8(a[i*z.lda+k])) * int64(int8(b[k*z.ldb+j]-zp[j]))
				}
				return uint32(int32(s))
			})
		}
	}
}

// bf16 is the float32 value of bfloat16 bits: its upper half.
func bf16(h uint16) float32 { return math.Float32frombits(uint32(h) << 16) }

// randBF16 is a random bf16 of either sign with an exponent in
// [-8, 8): wide enough that the order of the float32 additions changes
// the sums, so the two accumulation modes give different results.
func randBF16(rng *rand.Rand) uint16 {
	return uint16(rng.Intn(2))<<15 | uint16(127-8+rng.Intn(16))<<7 | uint16(rng.Intn(128))
}

// bf16Ref is C[i][j] under interp's documented accumulation model with
// K Dim 16 per DPAS call and C starting at +0: MatrixOrdered adds the
// products (exact in float32: two 8-bit significands) one by one in order
// of k, rounding each sum to float32; MatrixExact adds each call's 16
// products to the running C exactly and rounds once per call, to nearest
// even. Columns of K past K are the loads' zeros, products +0 or -0,
// which are added too (they decide the sign of a zero sum).
func bf16Ref(mode interp.MatrixAccumulate, z gemmSize, a, b []uint16, i, j int) float32 {
	kp := (z.K + 15) / 16 * 16
	at := func(k int) (float32, float32) {
		if k >= z.K {
			return 0, 0
		}
		return bf16(a[i*z.lda+k]), bf16(b[k*z.ldb+j])
	}
	var acc float32
	for k0 := 0; k0 < kp; k0 += 16 {
		if mode == interp.MatrixOrdered {
			for k := k0; k < k0+16; k++ {
				x, y := at(k)
				acc = float32(acc + float32(x*y))
			}
			continue
		}
		s := new(big.Float).SetPrec(4096).SetFloat64(float64(acc))
		for k := k0; k < k0+16; k++ {
			x, y := at(k)
			s.Add(s, new(big.Float).SetFloat64(float64(x)*float64(y)))
		}
		acc, _ = s.Float32()
	}
	return acc
}

// TestGEMMBF16DPAS runs gemm_bf16_dpas.spvasm in both MatrixAccumulate
// modes against bf16Ref, bit for bit, in the default schedule and with
// the subgroups run apart in shuffled order under Strict, and checks that
// the modes differ somewhere (so the comparison tells them apart).
func TestGEMMBF16DPAS(t *testing.T) {
	m := gemmModule(t, "src/gemm_bf16_dpas.spvasm")
	sizes := []gemmSize{{8, 32, 32, 32, 32, 32}, {13, 36, 40, 40, 40, 36}, {40, 96, 80, 80, 96, 100}, {5, 48, 120, 120, 56, 48}}
	rng := rand.New(rand.NewSource(25))
	for _, S := range []int{8, 16} {
		differ := 0
		for _, z := range sizes {
			a := make([]uint16, z.M*z.lda)
			b := make([]uint16, z.K*z.ldb)
			for i := range a {
				a[i] = randBF16(rng)
			}
			for i := range b {
				b[i] = randBF16(rng)
			}
			ab, bb := u16Bytes(a), u16Bytes(b)
			var got [2][]byte
			for mode := range got {
				mode := interp.MatrixAccumulate(mode)
				want := make([]uint32, z.M*z.N)
				for i := range want {
					want[i] = math.Float32bits(bf16Ref(mode, z, a, b, i/z.N, i%z.N))
				}
				for sched, o := range []interp.Options{{}, {SeparateSubgroups: true, Shuffle: true, Seed: 9, Strict: true}} {
					o.SubgroupSize, o.MatrixAccumulate = S, mode
					c := filled(4*z.M*z.ldc, gemmSentinel)
					gemmRun(t, m, fmt.Sprintf("gemm_bf16_sg%d", S), o, z, ab, bb, c)
					checkC(t, fmt.Sprintf("S=%d mode=%d schedule %d", S, mode, sched), z, c, func(i, j int) uint32 { return want[i*z.N+j] })
					got[mode] = c
				}
			}
			for i := 0; i < len(got[0]); i += 4 {
				if binary.LittleEndian.Uint32(got[0][i:]) != binary.LittleEndian.Uint32(got[1][i:]) {
					differ++
				}
			}
		}
		if differ == 0 {
			t.Errorf("S=%d: MatrixOrdered and MatrixExact agree everywhere: the data does not tell them apart", S)
		}
	}
}

func u16Bytes(v []uint16) []byte {
	b := make([]byte, 2*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint16(b[2*i:], x)
	}
	return b
}

// TestGEMMBadLaunch runs the int8 kernel on surfaces that break
// SPV_INTEL_2d_block_io's Restrictions, which its header passes on to the
// caller: each is a *interp.Fault of kind FaultUndefined naming the
// instruction and the rule, never a wrong C or a panic; a C buffer
// smaller than the surface its arguments describe is a FaultOutOfBounds.
// The SIMD16 entry
// point at subgroup size 8 is a compile error naming DPAS, whose K Dim 32
// then does not fit A's two int8 per component.
func TestGEMMBadLaunch(t *testing.T) {
	m := gemmModule(t, "src/gemm_int8_dpas.spvasm")
	z := gemmSize{8, 64, 64, 64, 64, 64}
	err := gemmDispatch(m, "gemm_int8_sg16", interp.Options{SubgroupSize: 8}, z, make([]byte, 64*64), make([]byte, 64*64), make([]byte, 4*64*8),
		interp.KernelArg{Kind: interp.ArgGlobal, Global: make([]byte, 64)})
	// the kernel requires 16 (OpExecutionMode SubgroupSize), as an OpenCL
	// kernel's reqd_sub_group_size does: another size does not compile
	var f *interp.Fault
	if err == nil || errors.As(err, &f) || !strings.Contains(err.Error(), `requires subgroup size 16 (OpExecutionMode SubgroupSize), not 8`) {
		t.Errorf("gemm_int8_sg16 at subgroup size 8: %v, want a compile error naming the required size", err)
	}
	// C's buffer one word short of the M×ldc surface: the store's last
	// in-surface element lies outside it
	c := make([]byte, 4*64*8-4)
	err = gemmDispatch(m, "gemm_int8_sg16", interp.Options{SubgroupSize: 16}, z, make([]byte, 64*64), make([]byte, 64*64), c,
		interp.KernelArg{Kind: interp.ArgGlobal, Global: make([]byte, 64)})
	if !errors.As(err, &f) || f.Kind != interp.FaultOutOfBounds || !strings.Contains(f.Error(), "OpSubgroup2DBlockStoreINTEL") {
		t.Errorf("C one word short: %v, want a FaultOutOfBounds at the store", err)
	}
	for _, tc := range []struct {
		z        gemmSize
		op, rule string
	}{
		// A is K = 32 bytes wide: below the 64-byte minimum
		{gemmSize{8, 64, 32, 32, 64, 64}, "OpSubgroup2DBlockLoadINTEL", "Memory Width"},
		// B's pitch of 72 bytes is not a multiple of 16
		{gemmSize{8, 64, 64, 64, 72, 64}, "OpSubgroup2DBlockLoadTransformINTEL", "Memory Pitch"},
		// C's pitch of 4*66 bytes is not a multiple of 16
		{gemmSize{8, 64, 64, 64, 64, 66}, "OpSubgroup2DBlockStoreINTEL", "Memory Pitch"},
	} {
		z := tc.z
		c := make([]byte, 4*z.M*z.ldc)
		err := gemmDispatch(m, "gemm_int8_sg16", interp.Options{SubgroupSize: 16}, z, make([]byte, z.M*z.lda), make([]byte, z.K*z.ldb), c,
			interp.KernelArg{Kind: interp.ArgGlobal, Global: make([]byte, 64)})
		var f *interp.Fault
		if !errors.As(err, &f) || f.Kind != interp.FaultUndefined || !strings.Contains(f.Error(), tc.op) || !strings.Contains(f.Error(), tc.rule) {
			t.Errorf("%+v: %v, want a FaultUndefined naming %s and %s", z, err, tc.op, tc.rule)
		}
	}
}
