package interp

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"testing"
)

// A Kernel converting element i of in to element i of out with one
// decorated instruction; SRC, DST, OP and DECO are filled in.
const convKernel = `OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpCapability Int16
OpCapability Int8
OpCapability Float64
OpCapability Float16Buffer
%ext = OpExtInstImport "OpenCL.std"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k" %gid
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %gid Constant
DECO
%void = OpTypeVoid
%ulong = OpTypeInt 64 0
%v3ulong = OpTypeVector %ulong 3
%pgid = OpTypePointer Input %v3ulong
%gid = OpVariable %pgid Input
%src = SRC
%dst = DST
%half = OpTypeFloat 16
%ps = OpTypePointer CrossWorkgroup %src
%pd = OpTypePointer CrossWorkgroup %dst
%ph = OpTypePointer CrossWorkgroup %half
%fnty = OpTypeFunction %void %ps %pd
%k = OpFunction %void None %fnty
%in = OpFunctionParameter %ps
%out = OpFunctionParameter %pd
%e = OpLabel
%g = OpLoad %v3ulong %gid
%i = OpCompositeExtract %ulong %g 0
%pi = OpInBoundsPtrAccessChain %ps %in %i
%x = OpLoad %src %pi
OP
OpReturn
OpFunctionEnd
`

type convDecoCase struct {
	name     string
	src, dst string // OpType... declarations
	op       string // the instruction(s), reading %x, storing through %out at %i
	deco     string
	in       []uint64 // raw source bits
	want     []uint64 // raw result bits
	srcBytes int
	dstBytes int
}

func runConvDeco(t *testing.T, c convDecoCase) {
	t.Helper()
	src := strings.NewReplacer("SRC", c.src, "DST", c.dst, "OP", c.op, "DECO", c.deco).Replace(convKernel)
	m := assemble(t, src)
	p, err := Compile(m, "k", Options{SubgroupSize: 4})
	if err != nil {
		t.Fatalf("%s: compile: %v", c.name, err)
	}
	in := make([]byte, c.srcBytes*len(c.in))
	for i, v := range c.in {
		putLE(in[c.srcBytes*i:], uint8(c.srcBytes), v)
	}
	out := make([]byte, c.dstBytes*len(c.in))
	args := []KernelArg{{Kind: ArgGlobal, Global: in}, {Kind: ArgGlobal, Global: out}}
	n := uint32(len(c.in))
	if err := p.DispatchND(context.Background(), [3]uint32{n, 1, 1}, [3]uint32{1, 1, 1}, &Resources{Args: args}); err != nil {
		t.Fatalf("%s: %v", c.name, err)
	}
	for i, w := range c.want {
		if got := getLE(out[c.dstBytes*i:], uint8(c.dstBytes)); got != w {
			t.Errorf("%s: element %d (input %#x) = %#x, want %#x", c.name, i, c.in[i], got, w)
		}
	}
}

func f32bits(v ...float32) []uint64 {
	out := make([]uint64, len(v))
	for i, f := range v {
		out[i] = uint64(math.Float32bits(f))
	}
	return out
}

func ints(v ...int64) []uint64 {
	out := make([]uint64, len(v))
	for i, x := range v {
		out[i] = uint64(x)
	}
	return out
}

const storeR = `%r = CONV %dst %x
%po = OpInBoundsPtrAccessChain %pd %out %i
OpStore %po %r`

// TestConvertRoundingModes: an FPRoundingMode decoration on a
// float-to-integer conversion rounds by that mode (OpenCL's
// convert_int_rte and friends); without one the conversion truncates.
func TestConvertRoundingModes(t *testing.T) {
	in := f32bits(1.5, -1.5, 2.5, -2.5, 0.49999997, -0.5, 7, 1e10, -1e10, float32(math.NaN()))
	for _, c := range []struct {
		mode string
		want []int64
	}{
		{"", []int64{1, -1, 2, -2, 0, 0, 7, math.MaxInt32, math.MinInt32, 0}},
		{"RTE", []int64{2, -2, 2, -2, 0, 0, 7, math.MaxInt32, math.MinInt32, 0}},
		{"RTZ", []int64{1, -1, 2, -2, 0, 0, 7, math.MaxInt32, math.MinInt32, 0}},
		{"RTP", []int64{2, -1, 3, -2, 1, 0, 7, math.MaxInt32, math.MinInt32, 0}},
		{"RTN", []int64{1, -2, 2, -3, 0, -1, 7, math.MaxInt32, math.MinInt32, 0}},
	} {
		deco := "OpDecorate %r SaturatedConversion"
		if c.mode != "" {
			deco += "\nOpDecorate %r FPRoundingMode " + c.mode
		}
		want := make([]uint64, len(c.want))
		for i, v := range c.want {
			want[i] = uint64(uint32(v))
		}
		runConvDeco(t, convDecoCase{name: "FToS " + c.mode, src: "OpTypeFloat 32", dst: "OpTypeInt 32 0",
			op: strings.Replace(storeR, "CONV", "OpConvertFToS", 1), deco: deco, in: in, want: want, srcBytes: 4, dstBytes: 4})
	}
	// unsigned: negative values round first, then saturate at 0
	runConvDeco(t, convDecoCase{name: "FToU RTN", src: "OpTypeFloat 32", dst: "OpTypeInt 16 0",
		op:   strings.Replace(storeR, "CONV", "OpConvertFToU", 1),
		deco: "OpDecorate %r SaturatedConversion\nOpDecorate %r FPRoundingMode RTN",
		in:   f32bits(-0.25, 0.75, 65535.5, 65536, 1.5), want: []uint64{0, 0, 65535, 65535, 1}, srcBytes: 4, dstBytes: 2})
	runConvDeco(t, convDecoCase{name: "FToU RTP", src: "OpTypeFloat 32", dst: "OpTypeInt 16 0",
		op:   strings.Replace(storeR, "CONV", "OpConvertFToU", 1),
		deco: "OpDecorate %r SaturatedConversion\nOpDecorate %r FPRoundingMode RTP",
		in:   f32bits(-0.25, 0.25, 65534.5, 1.5), want: []uint64{0, 1, 65535, 2}, srcBytes: 4, dstBytes: 2})
}

// TestConvertSaturation64: float to 64-bit integers saturate at the top of
// the range too (2^63-1 is not a float64, so it cannot be computed by
// subtracting one from 2^63 in floating point).
func TestConvertSaturation64(t *testing.T) {
	runConvDeco(t, convDecoCase{name: "FToS 64", src: "OpTypeFloat 32", dst: "OpTypeInt 64 0",
		op: strings.Replace(storeR, "CONV", "OpConvertFToS", 1), deco: "OpDecorate %r SaturatedConversion",
		in:       f32bits(1e19, -1e19, 9.223372e18, float32(math.Inf(1)), float32(math.Inf(-1)), -9.223372e18),
		want:     ints(math.MaxInt64, math.MinInt64, 9223372036854775807, math.MaxInt64, math.MinInt64, -9223372036854775808),
		srcBytes: 4, dstBytes: 8})
	runConvDeco(t, convDecoCase{name: "FToU 64", src: "OpTypeFloat 64", dst: "OpTypeInt 64 0",
		op: strings.Replace(storeR, "CONV", "OpConvertFToU", 1), deco: "OpDecorate %r SaturatedConversion",
		in:   []uint64{math.Float64bits(2e19), math.Float64bits(18446744073709549568), math.Float64bits(-1)},
		want: []uint64{math.MaxUint64, 18446744073709549568, 0}, srcBytes: 8, dstBytes: 8})
}

// TestConvertSaturatedNarrowing: SaturatedConversion on a narrowing
// OpSConvert/OpUConvert clamps to the destination's range
// (convert_char_sat(int), convert_ushort_sat(ulong)); without it the value
// wraps.
func TestConvertSaturatedNarrowing(t *testing.T) {
	for _, sat := range []bool{false, true} {
		deco := ""
		if sat {
			deco = "OpDecorate %r SaturatedConversion"
		}
		want := ints(-56, 127, -128, 5, -1, 0)
		if sat {
			want = ints(127, 127, -128, 5, -1, -128)
		}
		for i := range want {
			want[i] &= 0xFF
		}
		runConvDeco(t, convDecoCase{name: fmt.Sprintf("SConvert sat=%v", sat), src: "OpTypeInt 32 0", dst: "OpTypeInt 8 0",
			op: strings.Replace(storeR, "CONV", "OpSConvert", 1), deco: deco,
			in: ints(200, 127, -128, 5, -1, -2147483648), want: want, srcBytes: 4, dstBytes: 1})
		uwant := []uint64{0x5678, 0xFFFF, 7}
		if sat {
			uwant = []uint64{0xFFFF, 0xFFFF, 7}
		}
		runConvDeco(t, convDecoCase{name: fmt.Sprintf("UConvert sat=%v", sat), src: "OpTypeInt 64 0", dst: "OpTypeInt 16 0",
			op: strings.Replace(storeR, "CONV", "OpUConvert", 1), deco: deco,
			in: []uint64{0x12345678, 0xFFFFFFFFFFFFFFFF, 7}, want: uwant, srcBytes: 8, dstBytes: 2})
	}
}

// TestVstoreHalfRoundingModes: vstore_half_r's rounding mode is a literal
// operand and is honoured, overflow under RTZ included.
func TestVstoreHalfRoundingModes(t *testing.T) {
	in := f32bits(-0.393, 0.393, 65520, 1e6, -1e6, 1e-8, -1e-8, 0, float32(math.Copysign(0, -1)))
	want := map[string][]uint64{
		"RTE": {0xb64a, 0x364a, 0x7c00, 0x7c00, 0xfc00, 0x0000, 0x8000, 0, 0x8000},
		"RTZ": {0xb649, 0x3649, 0x7bff, 0x7bff, 0xfbff, 0x0000, 0x8000, 0, 0x8000},
		"RTP": {0xb649, 0x364a, 0x7c00, 0x7c00, 0xfbff, 0x0001, 0x8000, 0, 0x8000},
		"RTN": {0xb64a, 0x3649, 0x7bff, 0x7bff, 0xfc00, 0x0000, 0x8001, 0, 0x8000},
	}
	for mode, w := range want {
		op := `%ho = OpConvertPtrToU %ulong %out
%hp = OpConvertUToPtr %ph %ho
%r = OpExtInst %void %ext vstore_half_r %x %i %hp MODE`
		runConvDeco(t, convDecoCase{name: "vstore_half_r " + mode, src: "OpTypeFloat 32", dst: "OpTypeInt 16 0",
			op: strings.Replace(op, "MODE", mode, 1), in: in, want: w, srcBytes: 4, dstBytes: 2})
	}
}

// TestOpenCLShuffle: shuffle and shuffle2 are ordinary OpenCL.std
// instructions (not memory ones), with a mask whose high bits are ignored
// and a result width other than the operands'.
func TestOpenCLShuffle(t *testing.T) {
	src := `OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpCapability Vector16
%ext = OpExtInstImport "OpenCL.std"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%v4 = OpTypeVector %uint 4
%v8 = OpTypeVector %uint 8
%v2 = OpTypeVector %uint 2
%p4 = OpTypePointer CrossWorkgroup %v4
%p8 = OpTypePointer CrossWorkgroup %v8
%p2 = OpTypePointer CrossWorkgroup %v2
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%u2 = OpConstant %uint 2
%u3 = OpConstant %uint 3
%u7 = OpConstant %uint 7
%u13 = OpConstant %uint 13
%m2 = OpConstantComposite %v2 %u13 %u2
%m8 = OpConstantComposite %v8 %u7 %u0 %u13 %u2 %u3 %u1 %u0 %u7
%fnty = OpTypeFunction %void %p4 %p4 %p2 %p8
%k = OpFunction %void None %fnty
%a = OpFunctionParameter %p4
%b = OpFunctionParameter %p4
%o2 = OpFunctionParameter %p2
%o8 = OpFunctionParameter %p8
%e = OpLabel
%x = OpLoad %v4 %a
%y = OpLoad %v4 %b
%s = OpExtInst %v2 %ext shuffle %x %m2
%t = OpExtInst %v8 %ext shuffle2 %x %y %m8
OpStore %o2 %s
OpStore %o8 %t
OpReturn
OpFunctionEnd
`
	m := assemble(t, src)
	p, err := Compile(m, "k", Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, b := u32s(10, 11, 12, 13), u32s(20, 21, 22, 23)
	o2, o8 := make([]byte, 8), make([]byte, 32)
	args := []KernelArg{{Kind: ArgGlobal, Global: a}, {Kind: ArgGlobal, Global: b}, {Kind: ArgGlobal, Global: o2}, {Kind: ArgGlobal, Global: o8}}
	if err := p.DispatchND(context.Background(), [3]uint32{1, 1, 1}, [3]uint32{1, 1, 1}, &Resources{Args: args}); err != nil {
		t.Fatal(err)
	}
	// shuffle reads the low 2 mask bits (13 -> 1), shuffle2 the low 3 (13 -> 5).
	want2, want8 := []uint32{11, 12}, []uint32{23, 10, 21, 12, 13, 11, 10, 23}
	for i, w := range want2 {
		if got := binary.LittleEndian.Uint32(o2[4*i:]); got != w {
			t.Errorf("shuffle[%d] = %d, want %d", i, got, w)
		}
	}
	for i, w := range want8 {
		if got := binary.LittleEndian.Uint32(o8[4*i:]); got != w {
			t.Errorf("shuffle2[%d] = %d, want %d", i, got, w)
		}
	}
}
