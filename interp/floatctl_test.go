package interp

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"spvx/mx"
)

// ---- the reference: exact rational arithmetic rounded by math/big

func fmtParams(w uint8) (p, emin, emax int) {
	switch w {
	case 16:
		return 11, -14, 15
	case 32:
		return 24, -126, 127
	}
	return 53, -1022, 1023
}

// refRound rounds the exact nonzero value q to an IEEE float of width w with
// big.Float's rounding (ToZero or ToNearestEven), denormals and overflow
// included.
func refRound(q *big.Rat, w uint8, mode big.RoundingMode) uint64 {
	p, emin, emax := fmtParams(w)
	neg := q.Sign() < 0
	// floor(log2 |q|): truncation never carries into the next binade
	e := new(big.Float).SetPrec(64).SetMode(big.ToZero).SetRat(q).MantExp(nil) - 1
	prec := p
	if e < emin {
		prec = p - (emin - e) // a denormal keeps fewer bits
	}
	var v float64
	switch {
	case prec >= 1:
		f := new(big.Float).SetPrec(uint(prec)).SetMode(mode).SetRat(q)
		if f.MantExp(nil)-1 > emax {
			if mode == big.ToZero || mode == big.ToNegativeInf && !neg || mode == big.ToPositiveInf && neg {
				return maxFinite(neg, w)
			}
			v = math.Inf(1)
		} else {
			v, _ = f.Float64()
			v = math.Abs(v)
		}
	case prec == 0 && mode == big.ToNearestEven:
		// q lies in [half the smallest denormal, the smallest denormal)
		half := new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), uint(p-emin)))
		if new(big.Rat).Abs(q).Cmp(half) > 0 {
			v = math.Ldexp(1, emin-p+1)
		}
	}
	if neg {
		v = -v
	}
	switch w {
	case 16:
		return uint64(mx.HalfFromFloat64(v, mx.RTE)) | b2u(neg)<<15
	case 32:
		return uint64(math.Float32bits(float32(v))) | b2u(neg)<<31
	}
	return math.Float64bits(v) | b2u(neg)<<63
}

func bitsToF64(x uint64, w uint8) float64 { return ieee64(x, w) }

func f64ToBits(v float64, w uint8) uint64 {
	switch w {
	case 16:
		return uint64(mx.HalfFromFloat64(v, mx.RTE))
	case 32:
		return uint64(math.Float32bits(float32(v)))
	}
	return math.Float64bits(v)
}

// refOp computes a op b (op "+", "-", "*", "/") or a*b+c ("fma") of width w
// exactly and rounds it with mode; IEEE's rules give the specials and the
// signs of exact zeros.
func refOp(op string, x, y, z uint64, w uint8, mode big.RoundingMode) uint64 {
	a, b, c := bitsToF64(x, w), bitsToF64(y, w), bitsToF64(z, w)
	if op == "-" {
		op, b = "+", -b
	}
	if op != "fma" {
		c = 0
	}
	special := !finite(a, b, c) || op == "/" && b == 0
	var q *big.Rat
	var zeroSign bool // the sign of an exact zero result
	switch op {
	case "+":
		if !special {
			q = new(big.Rat).Add(rat(a), rat(b))
		}
		zeroSign = math.Signbit(a) && math.Signbit(b)
	case "*":
		if !special {
			q = new(big.Rat).Mul(rat(a), rat(b))
		}
		zeroSign = math.Signbit(a) != math.Signbit(b)
	case "/":
		if !special {
			q = new(big.Rat).Quo(rat(a), rat(b))
		}
		zeroSign = math.Signbit(a) != math.Signbit(b)
	case "fma":
		if !special {
			q = new(big.Rat).Add(new(big.Rat).Mul(rat(a), rat(b)), rat(c))
			// an exact zero: -0 only from a zero product and c both negative
			zeroSign = math.Signbit(a) != math.Signbit(b) && math.Signbit(c) && (a == 0 || b == 0)
		}
	}
	if special {
		var v float64
		switch op {
		case "+":
			v = a + b
		case "*":
			v = a * b
		case "/":
			v = a / b
		default:
			v = math.FMA(a, b, c)
		}
		return f64ToBits(v, w)
	}
	if q.Sign() == 0 {
		return b2u(zeroSign) << (w - 1)
	}
	return refRound(q, w, mode)
}

// sample values of width w: zeros, denormals, the normal range's ends,
// values around one, and random bit patterns (no NaNs).
func floatSamples(w uint8, r *rand.Rand, nrand int) []uint64 {
	var v []uint64
	switch w {
	case 16:
		v = []uint64{0, 1, 2, 0x3FF, 0x200, 0x400, 0x401, 0x3C00, 0x3C01, 0x3BFF, 0x7BFF, 0x7BFE, 0x7C00, 0x5640, 0x0155}
	case 32:
		v = []uint64{0, 1, 2, 0x7FFFFF, 0x400000, 0x800000, 0x800001, 0x3F800000, 0x3F800001, 0x3F7FFFFF, 0x7F7FFFFF, 0x7F7FFFFE, 0x7F800000, 0x34000000, 0x00123457}
	default:
		v = []uint64{0, 1, 2, 0xFFFFFFFFFFFFF, 0x8000000000000, 0x10000000000000, 0x10000000000001, 0x3FF0000000000000,
			0x3FF0000000000001, 0x3FEFFFFFFFFFFFFF, 0x7FEFFFFFFFFFFFFF, 0x7FEFFFFFFFFFFFFE, 0x7FF0000000000000, 0x3CB0000000000000, 0x0000123456789ABC,
			0x1C8FFFFFFFFFFFFF, 0x2000000000000001}
	}
	n := len(v)
	for i := 0; i < n; i++ {
		v = append(v, v[i]|1<<(w-1))
	}
	mask := uint64(1)<<w - 1
	expMask := map[uint8]uint64{16: 0x7C00, 32: 0x7F800000, 64: 0x7FF0000000000000}[w]
	for len(v) < 2*n+nrand {
		x := r.Uint64() & mask
		if r.Intn(4) == 0 { // a small exponent: denormal results
			x &^= expMask &^ (expMask >> 3 & expMask)
		}
		if x&expMask == expMask {
			continue // NaN or infinity: the table has the infinities
		}
		v = append(v, x)
	}
	return v
}

func isNaNBits(x uint64, w uint8) bool { return math.IsNaN(bitsToF64(x, w)) }

// TestRTZArithmetic checks the exact round-toward-zero arithmetic, and the
// default round-to-nearest arithmetic, against math/big, for every width,
// on every pair of the samples and on random close pairs (cancellation).
func TestRTZArithmetic(t *testing.T) {
	for _, w := range []uint8{16, 32, 64} {
		t.Run(fmt.Sprint("f", w), func(t *testing.T) {
			t.Parallel()
			testRTZWidth(t, w)
		})
	}
}

func testRTZWidth(t *testing.T, w uint8) {
	r := rand.New(rand.NewSource(int64(w)))
	{
		nrand := 36
		if w == 64 {
			nrand = 16 // exact float64 rationals are the slow part
		}
		vals := floatSamples(w, r, nrand)
		type triple struct{ a, b, c uint64 }
		var cases []triple
		for _, a := range vals {
			for _, b := range vals {
				cases = append(cases, triple{a, b, vals[r.Intn(len(vals))]})
			}
		}
		for k := 0; k < 1500; k++ { // b close to -a: sums cancel; c close to -a*b
			a := vals[r.Intn(len(vals))]
			b := (a ^ 1<<(w-1)) + uint64(r.Intn(7)) - 3
			cases = append(cases, triple{a, b, vals[r.Intn(len(vals))]})
			pa := bitsToF64(a, w) * bitsToF64(b, w)
			cases = append(cases, triple{a, b, f64ToBits(-pa, w) + uint64(r.Intn(3)) - 1})
		}
		sc := scalar{kind: skFloat, width: w}
		ops := []struct {
			name string
			kind int
			bk   int
		}{{"+", fcAdd, bFAdd}, {"-", fcSub, bFSub}, {"*", fcMul, bFMul}, {"/", fcDiv, bFDiv}, {"fma", fcFma, -1}}
		for _, o := range ops {
			bad := 0
			for _, c := range cases {
				if isNaNBits(c.b, w) || isNaNBits(c.a, w) || isNaNBits(c.c, w) {
					continue
				}
				var got, gotRTE uint64
				if o.kind == fcFma {
					got = rtzFma(c.a, c.b, c.c, w)
				} else {
					got = rtzBin(o.kind, c.a, c.b, w)
					gotRTE = fbin(o.bk, c.a, c.b, sc)
				}
				want := refOp(o.name, c.a, c.b, c.c, w, big.ToZero)
				if got != want && !(isNaNBits(got, w) && isNaNBits(want, w)) {
					if bad++; bad <= 5 {
						t.Errorf("f%d RTZ %#x %s %#x (c %#x) = %#x, want %#x", w, c.a, o.name, c.b, c.c, got, want)
					}
				}
				if o.kind == fcFma {
					continue
				}
				want = refOp(o.name, c.a, c.b, 0, w, big.ToNearestEven)
				if gotRTE != want && !(isNaNBits(gotRTE, w) && isNaNBits(want, w)) {
					if bad++; bad <= 5 {
						t.Errorf("f%d RTE %#x %s %#x = %#x, want %#x", w, c.a, o.name, c.b, gotRTE, want)
					}
				}
			}
			if bad > 5 {
				t.Errorf("f%d %s: %d mismatches in %d cases", w, o.name, bad, len(cases))
			}
		}
	}
}

// TestIntToFloatDirected checks the directed-rounding integer conversions
// (FPRoundingMode, RoundingModeRTZ) against math/big, 64-bit integers
// included (where float64 alone would round twice).
func TestIntToFloatDirected(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	ints := []uint64{0, 1, 2047, 2049, 65504, 65519, 65520, 70000, 1 << 24, 1<<24 + 1, 1<<24 + 3, 1<<53 + 1, 1<<63 - 1, 1 << 63, 1<<64 - 1, 0x8000000000000401}
	for k := 0; k < 400; k++ {
		ints = append(ints, r.Uint64()>>uint(r.Intn(64)))
	}
	modes := map[uint8]big.RoundingMode{1: big.ToZero, 2: big.ToPositiveInf, 3: big.ToNegativeInf}
	for _, fw := range []uint8{32, 64} {
		for _, signed := range []bool{false, true} {
			from := scalar{kind: skInt, width: fw, signed: signed}
			for _, tw := range []uint8{16, 32, 64} {
				to := scalar{kind: skFloat, width: tw}
				for mode, bm := range modes {
					for _, x := range ints {
						x &= from.mask()
						kind := int32(cvUToF)
						q := new(big.Rat).SetInt(new(big.Int).SetUint64(x))
						if signed {
							kind = cvSToF
							q = new(big.Rat).SetInt64(sext(x, fw))
						}
						got := convert(kind, x, from, to, mode, false)
						var want uint64
						if q.Sign() != 0 {
							want = refRound(q, tw, bm)
						}
						if got != want {
							t.Fatalf("%v int%d %#x -> f%d mode %d = %#x, want %#x", signed, fw, x, tw, mode, got, want)
						}
					}
				}
			}
		}
	}
}

func TestFlushDenorm(t *testing.T) {
	for _, c := range []struct {
		w       uint8
		in, out uint64
	}{
		{16, 0x0001, 0}, {16, 0x83FF, 0x8000}, {16, 0x0400, 0x0400}, {16, 0x8000, 0x8000}, {16, 0x7C00, 0x7C00}, {16, 0x7E00, 0x7E00},
		{32, 0x00000001, 0}, {32, 0x807FFFFF, 0x80000000}, {32, 0x00800000, 0x00800000}, {32, 0x3F800000, 0x3F800000}, {32, 0xFFC00000, 0xFFC00000},
		{64, 1, 0}, {64, 0x800FFFFFFFFFFFFF, 1 << 63}, {64, 0x0010000000000000, 0x0010000000000000}, {64, 0x7FF8000000000000, 0x7FF8000000000000},
	} {
		if got := flushDenorm(c.in, c.w); got != c.out {
			t.Errorf("flushDenorm(%#x, %d) = %#x, want %#x", c.in, c.w, got, c.out)
		}
	}
}

// ---- kernels with the execution modes

// fcKernel: out[i*10+j] for j = a+b, a-b, a*b, a/b, Fma(a,b,c), a*1.0,
// (a == 0.0 ? 1.0 : 0.0), float(n), FConvert(d), a copied. d is the other
// width GW (64 for W 16 and 32, 32 for W 64).
const fcKernel = `OpCapability Shader
OpCapability Float16
OpCapability Float64
OpCapability StorageBuffer16BitAccess
OpCapability DenormFlushToZero
OpCapability DenormPreserve
OpCapability SignedZeroInfNanPreserve
OpCapability RoundingModeRTE
OpCapability RoundingModeRTZ
CAPS
OpExtension "SPV_KHR_16bit_storage"
OpExtension "SPV_KHR_float_controls"
EXTS
%glsl = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gid %A %B %C %O %G %I
OpExecutionMode %main LocalSize 64 1 1
MODES
DECOS
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %fa ArrayStride @FS@
OpDecorate %ga ArrayStride @GS@
OpDecorate %ia ArrayStride 4
OpMemberDecorate %FB 0 Offset 0
OpMemberDecorate %GB 0 Offset 0
OpMemberDecorate %IB 0 Offset 0
OpDecorate %FB Block
OpDecorate %GB Block
OpDecorate %IB Block
OpDecorate %A DescriptorSet 0
OpDecorate %A Binding 0
OpDecorate %B DescriptorSet 0
OpDecorate %B Binding 1
OpDecorate %C DescriptorSet 0
OpDecorate %C Binding 2
OpDecorate %I DescriptorSet 0
OpDecorate %I Binding 3
OpDecorate %G DescriptorSet 0
OpDecorate %G Binding 4
OpDecorate %O DescriptorSet 0
OpDecorate %O Binding 5
%void = OpTypeVoid
%fn = OpTypeFunction %void
%u32 = OpTypeInt 32 0
%i32 = OpTypeInt 32 1
%bool = OpTypeBool
%f = OpTypeFloat @W@
%g = OpTypeFloat @GW@
%v3u32 = OpTypeVector %u32 3
%pin = OpTypePointer Input %v3u32
%gid = OpVariable %pin Input
%pinx = OpTypePointer Input %u32
%fa = OpTypeRuntimeArray %f
%ga = OpTypeRuntimeArray %g
%ia = OpTypeRuntimeArray %i32
%FB = OpTypeStruct %fa
%GB = OpTypeStruct %ga
%IB = OpTypeStruct %ia
%pFB = OpTypePointer StorageBuffer %FB
%pGB = OpTypePointer StorageBuffer %GB
%pIB = OpTypePointer StorageBuffer %IB
%pf = OpTypePointer StorageBuffer %f
%pg = OpTypePointer StorageBuffer %g
%pi = OpTypePointer StorageBuffer %i32
%A = OpVariable %pFB StorageBuffer
%B = OpVariable %pFB StorageBuffer
%C = OpVariable %pFB StorageBuffer
%O = OpVariable %pFB StorageBuffer
%G = OpVariable %pGB StorageBuffer
%I = OpVariable %pIB StorageBuffer
%one = OpConstant %f 1.0
%zero = OpConstant %f 0.0
%c0 = OpConstant %u32 0
%c1 = OpConstant %u32 1
%c2 = OpConstant %u32 2
%c3 = OpConstant %u32 3
%c4 = OpConstant %u32 4
%c5 = OpConstant %u32 5
%c6 = OpConstant %u32 6
%c7 = OpConstant %u32 7
%c8 = OpConstant %u32 8
%c9 = OpConstant %u32 9
%c10 = OpConstant %u32 10
%fmflags = OpConstant %u32 0x7
%main = OpFunction %void None %fn
%e = OpLabel
%gx = OpAccessChain %pinx %gid %c0
%i = OpLoad %u32 %gx
%pa = OpAccessChain %pf %A %c0 %i
%a = OpLoad %f %pa
%pb = OpAccessChain %pf %B %c0 %i
%b = OpLoad %f %pb
%pc = OpAccessChain %pf %C %c0 %i
%c = OpLoad %f %pc
%pn = OpAccessChain %pi %I %c0 %i
%n = OpLoad %i32 %pn
%pd = OpAccessChain %pg %G %c0 %i
%d = OpLoad %g %pd
%r0 = OpFAdd %f %a %b
%r1 = OpFSub %f %a %b
%r2 = OpFMul %f %a %b
%r3 = OpFDiv %f %a %b
%r4 = OpExtInst %f %glsl Fma %a %b %c
%r5 = OpFMul %f %a %one
%eq = OpFOrdEqual %bool %a %zero
%r6 = OpSelect %f %eq %one %zero
%r7 = OpConvertSToF %f %n
%r8 = OpFConvert %f %d
%r9 = OpCopyObject %f %a
%base = OpIMul %u32 %i %c10
STORES
OpReturn
OpFunctionEnd
`

type fcModes struct {
	name string
	// the execution modes, as "Mode Width" pairs
	modes []string
	// fast: SPV_KHR_float_controls2's FPFastMathDefault and an
	// FPFastMathMode decoration, which allow but never require a different
	// result (and which Debian's spirv-val does not know)
	fast bool
}

// fcExpect is what out[i*10+j] must be for inputs a, b, c, n, d of width w
// (d of width gw) with the flush and rounding settings.
func fcExpect(w, gw uint8, ftzW, rtzW, ftzG bool, a, b, c uint64, n int32, d uint64) [10]uint64 {
	fl := func(x uint64) uint64 {
		if ftzW {
			return flushDenorm(x, w)
		}
		return x
	}
	mode := big.ToNearestEven
	if rtzW {
		mode = big.ToZero
	}
	fa, fb, fc := fl(a), fl(b), fl(c)
	var o [10]uint64
	for j, op := range []string{"+", "-", "*", "/", "fma"} {
		o[j] = fl(refOp(op, fa, fb, fc, w, mode))
	}
	o[5] = fl(refOp("*", fa, f64ToBits(1, w), 0, w, mode))
	if bitsToF64(fa, w) == 0 {
		o[6] = f64ToBits(1, w)
	}
	if n != 0 {
		o[7] = refRound(new(big.Rat).SetInt64(int64(n)), w, mode)
	}
	if ftzG {
		d = flushDenorm(d, gw)
	}
	if dv := bitsToF64(d, gw); dv == 0 || !finite(dv) {
		o[8] = f64ToBits(dv, w)
	} else {
		o[8] = fl(refRound(rat(dv), w, mode))
	}
	o[9] = a
	return o
}

func TestFloatControlsKernels(t *testing.T) {
	const N = 128
	r := rand.New(rand.NewSource(3))
	for _, w := range []uint8{16, 32, 64} {
		gw := uint8(64)
		if w == 64 {
			gw = 32
		}
		W, GW := fmt.Sprint(w), fmt.Sprint(gw)
		other := "16" // a width neither the operands nor the conversion source have
		if w == 16 {
			other = "32"
		}
		modeSets := []fcModes{
			{"default", nil, false},
			{"preserve_rte", []string{"DenormPreserve " + W, "RoundingModeRTE " + W, "SignedZeroInfNanPreserve " + W}, false},
			{"ftz", []string{"DenormFlushToZero " + W}, false},
			{"rtz", []string{"RoundingModeRTZ " + W}, false},
			{"ftz_rtz", []string{"DenormFlushToZero " + W, "RoundingModeRTZ " + W, "SignedZeroInfNanPreserve " + W}, false},
			{"fast_math", []string{"DenormPreserve " + W}, true},
			{"other_widths", []string{"DenormFlushToZero " + other, "RoundingModeRTZ " + other, "DenormFlushToZero " + GW, "RoundingModeRTZ " + GW}, false},
		}
		vals := floatSamples(w, r, 40)
		gvals := floatSamples(gw, r, 20)
		a, b, c, d := make([]uint64, N), make([]uint64, N), make([]uint64, N), make([]uint64, N)
		n := make([]int32, N)
		for i := 0; i < N; i++ {
			a[i], b[i], c[i] = vals[i%len(vals)], vals[r.Intn(len(vals))], vals[r.Intn(len(vals))]
			d[i] = gvals[r.Intn(len(gvals))]
			n[i] = int32(r.Uint32() >> uint(r.Intn(32)))
		}
		// crafted: denormal inputs and results, RTZ-visible roundings
		switch w {
		case 16:
			a[0], b[0], c[0] = 0x0001, 0x0002, 0x8001 // denormal + denormal
			a[1], b[1] = 0x0400, 0x3800               // min normal * 0.5: a denormal result
			a[2], b[2] = 0x3C00, 0x1001               // 1 + tiny: RTE 1, RTZ 1 (and 1 - tiny: RTZ below 1)
			a[3], b[3] = 0x7BFF, 0x7BFF               // overflow: RTE inf, RTZ max
			n[4] = 2051                               // int to f16: RTE 2052, RTZ 2050
			d[5] = math.Float64bits(0x1p-20)          // a denormal f16 from an f64
			d[6] = 1                                  // a denormal f64: flushed by DenormFlushToZero 64
		case 32:
			a[0], b[0], c[0] = 0x00000001, 0x00000002, 0x80000001
			a[1], b[1] = 0x00800000, 0x3F000000
			a[2], b[2] = 0x3F800000, 0x33000001
			a[3], b[3] = 0x7F7FFFFF, 0x7F7FFFFF
			n[4] = 16777219
			d[5] = math.Float64bits(0x1p-140)
			d[6] = 1
		default:
			a[0], b[0], c[0] = 1, 2, 1<<63|1
			a[1], b[1] = 0x0010000000000000, 0x3FE0000000000000
			a[2], b[2] = 0x3FF0000000000000, 0x3CA0000000000001
			a[3], b[3] = 0x7FEFFFFFFFFFFFFF, 0x7FEFFFFFFFFFFFFF
			d[5] = uint64(math.Float32bits(0x1p-130))
		}
		var stores strings.Builder
		for j := 0; j < 10; j++ {
			fmt.Fprintf(&stores, "%%o%d = OpIAdd %%u32 %%base %%c%d\n%%q%d = OpAccessChain %%pf %%O %%c0 %%o%d\nOpStore %%q%d %%r%d\n", j, j, j, j, j, j)
		}
		put := func(vs []uint64, width uint8) []byte {
			bs := make([]byte, len(vs)*int(width)/8)
			for i, v := range vs {
				switch width {
				case 16:
					binary.LittleEndian.PutUint16(bs[2*i:], uint16(v))
				case 32:
					binary.LittleEndian.PutUint32(bs[4*i:], uint32(v))
				default:
					binary.LittleEndian.PutUint64(bs[8*i:], v)
				}
			}
			return bs
		}
		get := func(bs []byte, i int, width uint8) uint64 {
			switch width {
			case 16:
				return uint64(binary.LittleEndian.Uint16(bs[2*i:]))
			case 32:
				return uint64(binary.LittleEndian.Uint32(bs[4*i:]))
			}
			return binary.LittleEndian.Uint64(bs[8*i:])
		}
		nb := make([]byte, 4*N)
		for i, v := range n {
			binary.LittleEndian.PutUint32(nb[4*i:], uint32(v))
		}
		for _, ms := range modeSets {
			t.Run(fmt.Sprintf("f%d/%s", w, ms.name), func(t *testing.T) {
				var modes strings.Builder
				ftzW, rtzW, ftzG := false, false, false
				for _, m := range ms.modes {
					fmt.Fprintf(&modes, "OpExecutionMode %%main %s\n", m)
					ftzW = ftzW || m == "DenormFlushToZero "+W
					rtzW = rtzW || m == "RoundingModeRTZ "+W
					ftzG = ftzG || m == "DenormFlushToZero "+GW
				}
				caps, exts, decos := "", "", ""
				if ms.fast {
					caps, exts = "OpCapability FloatControls2\n", "OpExtension \"SPV_KHR_float_controls2\"\n"
					modes.WriteString("OpExecutionModeId %main FPFastMathDefault %f %fmflags\n")
					decos = "OpDecorate %r0 FPFastMathMode NotNaN|NotInf|NSZ\nOpDecorate %r4 FPFastMathMode AllowContract\n"
				}
				src := strings.NewReplacer("CAPS\n", caps, "EXTS\n", exts, "DECOS\n", decos, "MODES\n", modes.String(), "STORES\n", stores.String(), "@GW@", GW, "@GS@", fmt.Sprint(gw/8),
					"@W@", W, "@FS@", fmt.Sprint(w/8)).Replace(fcKernel)
				if !ms.fast {
					spirvVal(t, src)
				}
				m := assemble(t, src)
				for _, S := range []int{1, 4, 32} {
					out := make([]byte, 10*N*int(w)/8)
					bufs := map[BindingKey][]byte{{0, 0}: put(a, w), {0, 1}: put(b, w), {0, 2}: put(c, w), {0, 3}: nb, {0, 4}: put(d, gw), {0, 5}: out}
					if err := run(t, m, Options{SubgroupSize: S}, [3]uint32{N / 64, 1, 1}, bufs, nil); err != nil {
						t.Fatalf("S=%d: %v", S, err)
					}
					for i := 0; i < N; i++ {
						want := fcExpect(w, gw, ftzW, rtzW, ftzG, a[i], b[i], c[i], n[i], d[i])
						for j := range want {
							got := get(out, i*10+j, w)
							if got != want[j] && !(isNaNBits(got, w) && isNaNBits(want[j], w)) {
								t.Fatalf("S=%d: invocation %d (a %#x b %#x c %#x n %d d %#x) result %d = %#x, want %#x", S, i, a[i], b[i], c[i], n[i], d[i], j, got, want[j])
							}
						}
					}
				}
			})
		}
	}
}

// spirvVal checks an assembly kernel with Debian's spirv-as and spirv-val
// where they are installed (a check of the test's own kernel).
func spirvVal(t *testing.T, src string) {
	t.Helper()
	as, err1 := exec.LookPath("spirv-as")
	val, err2 := exec.LookPath("spirv-val")
	if err1 != nil || err2 != nil {
		return
	}
	dir := t.TempDir()
	in, out := filepath.Join(dir, "k.spvasm"), filepath.Join(dir, "k.spv")
	if err := os.WriteFile(in, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := exec.Command(as, "--target-env", "vulkan1.2", "-o", out, in).CombinedOutput(); err != nil {
		t.Fatalf("spirv-as: %v\n%s", err, b)
	}
	if b, err := exec.Command(val, "--target-env", "vulkan1.2", out).CombinedOutput(); err != nil {
		t.Fatalf("spirv-val: %v\n%s", err, b)
	}
}

// fcSpecKernel stores two OpSpecConstantOp results, 1.0 - %sb and %sc + %sc,
// and an OpFMul of a denormal OpConstant by 2^100 (a normal result, unless
// the operand is flushed).
const fcSpecKernel = `OpCapability Shader
OpCapability DenormFlushToZero
OpCapability DenormPreserve
OpCapability RoundingModeRTZ
OpExtension "SPV_KHR_float_controls"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %O
OpExecutionMode %main LocalSize 1 1 1
MODES
OpDecorate %fa ArrayStride 4
OpMemberDecorate %FB 0 Offset 0
OpDecorate %FB Block
OpDecorate %O DescriptorSet 0
OpDecorate %O Binding 0
OpDecorate %sb SpecId 1
OpDecorate %sc SpecId 2
%void = OpTypeVoid
%fn = OpTypeFunction %void
%u32 = OpTypeInt 32 0
%f = OpTypeFloat 32
%fa = OpTypeRuntimeArray %f
%FB = OpTypeStruct %fa
%pFB = OpTypePointer StorageBuffer %FB
%pf = OpTypePointer StorageBuffer %f
%O = OpVariable %pFB StorageBuffer
%c0 = OpConstant %u32 0
%c1 = OpConstant %u32 1
%one = OpConstant %f 1.0
%sb = OpSpecConstant %f 0.0
%sc = OpSpecConstant %f 0.0
%r0 = OpSpecConstantOp %f FSub %one %sb
%r1 = OpSpecConstantOp %f FAdd %sc %sc
%den = OpConstant %f 0x1p-149
%big = OpConstant %f 0x1p+100
%c2 = OpConstant %u32 2
%main = OpFunction %void None %fn
%e = OpLabel
%r2 = OpFMul %f %den %big
%q2 = OpAccessChain %pf %O %c0 %c2
OpStore %q2 %r2
%q0 = OpAccessChain %pf %O %c0 %c0
OpStore %q0 %r0
%q1 = OpAccessChain %pf %O %c0 %c1
OpStore %q1 %r1
OpReturn
OpFunctionEnd
`

// TestFloatControlsSpecConstantOp: the modes apply to OpSpecConstantOp,
// which the executor evaluates with its own arithmetic (Vulkan's
// VK_KHR_shader_float_controls issue 3).
func TestFloatControlsSpecConstantOp(t *testing.T) {
	for _, c := range []struct {
		modes      string
		r0, r1, r2 uint32
	}{
		{"", 0x3F800000, 2, 0x27000000},
		{"OpExecutionMode %main DenormPreserve 32\n", 0x3F800000, 2, 0x27000000},
		{"OpExecutionMode %main RoundingModeRTZ 32\n", 0x3F7FFFFF, 2, 0x27000000},
		{"OpExecutionMode %main DenormFlushToZero 32\n", 0x3F800000, 0, 0},
		{"OpExecutionMode %main DenormFlushToZero 32\nOpExecutionMode %main RoundingModeRTZ 32\n", 0x3F7FFFFF, 0, 0},
	} {
		m := assemble(t, strings.Replace(fcSpecKernel, "MODES\n", c.modes, 1))
		out := make([]byte, 12)
		o := Options{SpecConstants: map[uint32]uint64{1: 0x32800001, 2: 1}}
		if err := run(t, m, o, [3]uint32{1, 1, 1}, map[BindingKey][]byte{{0, 0}: out}, nil); err != nil {
			t.Fatalf("%q: %v", c.modes, err)
		}
		if g0, g1, g2 := getU32(out, 0), getU32(out, 1), getU32(out, 2); g0 != c.r0 || g1 != c.r1 || g2 != c.r2 {
			t.Errorf("%q: results %#x %#x %#x, want %#x %#x %#x", c.modes, g0, g1, g2, c.r0, c.r1, c.r2)
		}
	}
}

func TestFloatControlsConflict(t *testing.T) {
	for _, modes := range []string{
		"OpExecutionMode %main DenormFlushToZero 32\nOpExecutionMode %main DenormPreserve 32\n",
		"OpExecutionMode %main RoundingModeRTZ 16\nOpExecutionMode %main RoundingModeRTE 16\n",
		"OpExecutionMode %main DenormFlushToZero 8\n",
	} {
		m := assemble(t, strings.Replace(fcSpecKernel, "MODES\n", modes, 1))
		if _, err := Compile(m, "", Options{}); err == nil || !strings.Contains(err.Error(), "floating-point width") && !strings.Contains(err.Error(), "both") {
			t.Errorf("%q: err = %v, want a float-controls error", modes, err)
		}
	}
}

// FuzzRTZ compares the round-toward-zero arithmetic, the default
// round-to-nearest arithmetic and the flush with math/big on arbitrary bit
// patterns of every width.
func FuzzRTZ(f *testing.F) {
	f.Add(uint8(1), uint8(0), uint64(0x3F800000), uint64(1), uint64(0))
	f.Add(uint8(2), uint8(2), uint64(0x0010000000000000), uint64(0x3FE0000000000001), uint64(0))
	f.Add(uint8(0), uint8(4), uint64(0x7BFF), uint64(0x3C01), uint64(0xFBFF))
	f.Add(uint8(2), uint8(3), uint64(1), uint64(0x7FEFFFFFFFFFFFFF), uint64(0))
	f.Fuzz(func(t *testing.T, ws, op uint8, x, y, z uint64) {
		w := []uint8{16, 32, 64}[ws%3]
		mask := uint64(1)<<w - 1
		if w == 64 {
			mask = ^uint64(0)
		}
		x, y, z = x&mask, y&mask, z&mask
		if isNaNBits(x, w) || isNaNBits(y, w) || isNaNBits(z, w) {
			return
		}
		names := []string{"+", "-", "*", "/", "fma"}
		kinds := []int{fcAdd, fcSub, fcMul, fcDiv, fcFma}
		k := int(op) % 5
		var got uint64
		if kinds[k] == fcFma {
			got = rtzFma(x, y, z, w)
		} else {
			got = rtzBin(kinds[k], x, y, w)
			rte := fbin([]int{bFAdd, bFSub, bFMul, bFDiv}[k], x, y, scalar{kind: skFloat, width: w})
			if want := refOp(names[k], x, y, 0, w, big.ToNearestEven); rte != want && !(isNaNBits(rte, w) && isNaNBits(want, w)) {
				t.Fatalf("f%d RTE %#x %s %#x = %#x, want %#x", w, x, names[k], y, rte, want)
			}
		}
		if want := refOp(names[k], x, y, z, w, big.ToZero); got != want && !(isNaNBits(got, w) && isNaNBits(want, w)) {
			t.Fatalf("f%d RTZ %#x %s %#x (c %#x) = %#x, want %#x", w, x, names[k], y, z, got, want)
		}
		if fl := flushDenorm(x, w); bitsToF64(fl, w) != 0 && math.Abs(bitsToF64(fl, w)) < minNormal(scalar{kind: skFloat, width: w}) || fl != x && fl != x&(1<<(w-1)) {
			t.Fatalf("flushDenorm(%#x, %d) = %#x", x, w, fl)
		}
	})
}

// fcCLKernel is a Kernel module: o[2i] = fma(a[i], b[i], c[i]),
// o[2i+1] = fabs(a[i]), both OpenCL.std.
const fcCLKernel = `OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpCapability DenormFlushToZero
OpCapability RoundingModeRTZ
OpExtension "SPV_KHR_float_controls"
%cl = OpExtInstImport "OpenCL.std"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k" %gid
MODES
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %gid Constant
%void = OpTypeVoid
%u64 = OpTypeInt 64 0
%v3u64 = OpTypeVector %u64 3
%pin = OpTypePointer Input %v3u64
%gid = OpVariable %pin Input
%f = OpTypeFloat 32
%pf = OpTypePointer CrossWorkgroup %f
%fn = OpTypeFunction %void %pf %pf %pf %pf
%c1 = OpConstant %u64 1
%c2 = OpConstant %u64 2
%k = OpFunction %void None %fn
%pa = OpFunctionParameter %pf
%pb = OpFunctionParameter %pf
%pc = OpFunctionParameter %pf
%po = OpFunctionParameter %pf
%e = OpLabel
%g = OpLoad %v3u64 %gid
%i = OpCompositeExtract %u64 %g 0
%qa = OpInBoundsPtrAccessChain %pf %pa %i
%qb = OpInBoundsPtrAccessChain %pf %pb %i
%qc = OpInBoundsPtrAccessChain %pf %pc %i
%a = OpLoad %f %qa
%b = OpLoad %f %qb
%c = OpLoad %f %qc
%r0 = OpExtInst %f %cl fma %a %b %c
%r1 = OpExtInst %f %cl fabs %a
%j = OpIMul %u64 %i %c2
%q0 = OpInBoundsPtrAccessChain %pf %po %j
OpStore %q0 %r0
%j1 = OpIAdd %u64 %j %c1
%q1 = OpInBoundsPtrAccessChain %pf %po %j1
OpStore %q1 %r1
OpReturn
OpFunctionEnd
`

// TestFloatControlsKernelModel runs the modes in a Kernel module through
// OpenCL.std's fma (RTZ) and fabs (an extended instruction: FTZ).
func TestFloatControlsKernelModel(t *testing.T) {
	const N = 64
	r := rand.New(rand.NewSource(4))
	vals := floatSamples(32, r, 30)
	a, b, c := make([]uint64, N), make([]uint64, N), make([]uint64, N)
	for i := range a {
		a[i], b[i], c[i] = vals[i%len(vals)], vals[r.Intn(len(vals))], vals[r.Intn(len(vals))]
	}
	a[0], b[0], c[0] = 0x3F800000, 0x3F800001, 0xB4000000 // 1*(1+ulp) - 2^-23*... : RTZ differs
	a[1] = 0x80000005                                     // a negative denormal: fabs gives +0 under FTZ
	for _, c2 := range []struct {
		name     string
		modes    string
		ftz, rtz bool
	}{
		{"default", "", false, false},
		{"ftz", "OpExecutionMode %k DenormFlushToZero 32\n", true, false},
		{"rtz", "OpExecutionMode %k RoundingModeRTZ 32\n", false, true},
		{"ftz_rtz", "OpExecutionMode %k DenormFlushToZero 32\nOpExecutionMode %k RoundingModeRTZ 32\n", true, true},
	} {
		t.Run(c2.name, func(t *testing.T) {
			m := assemble(t, strings.Replace(fcCLKernel, "MODES\n", c2.modes, 1))
			for _, S := range []int{1, 4, 32} {
				p, err := Compile(m, "k", Options{SubgroupSize: S})
				if err != nil {
					t.Fatal(err)
				}
				put := func(v []uint64) []byte {
					bs := make([]byte, 4*len(v))
					for i, x := range v {
						binary.LittleEndian.PutUint32(bs[4*i:], uint32(x))
					}
					return bs
				}
				out := make([]byte, 8*N)
				args := []KernelArg{{Kind: ArgGlobal, Global: put(a)}, {Kind: ArgGlobal, Global: put(b)}, {Kind: ArgGlobal, Global: put(c)}, {Kind: ArgGlobal, Global: out}}
				if err := p.DispatchND(context.Background(), [3]uint32{N, 1, 1}, [3]uint32{16, 1, 1}, &Resources{Args: args}); err != nil {
					t.Fatal(err)
				}
				fl := func(x uint64) uint64 {
					if c2.ftz {
						return flushDenorm(x, 32)
					}
					return x
				}
				mode := big.ToNearestEven
				if c2.rtz {
					mode = big.ToZero
				}
				for i := 0; i < N; i++ {
					want0 := fl(refOp("fma", fl(a[i]), fl(b[i]), fl(c[i]), 32, mode))
					want1 := fl(a[i]) &^ (1 << 31)
					got0, got1 := uint64(getU32(out, 2*i)), uint64(getU32(out, 2*i+1))
					if got0 != want0 && !(isNaNBits(got0, 32) && isNaNBits(want0, 32)) || got1 != want1 {
						t.Fatalf("S=%d: a %#x b %#x c %#x: fma %#x fabs %#x, want %#x %#x", S, a[i], b[i], c[i], got0, got1, want0, want1)
					}
				}
			}
		})
	}
}
