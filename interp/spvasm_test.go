package interp

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"spvx/mx"
	sgpkg "spvx/subgroup"
)

const shuffleTemplate = `OpCapability Shader
OpCapability Int8
OpCapability Int16
OpCapability Int64
OpCapability StorageBuffer8BitAccess
OpCapability StorageBuffer16BitAccess
OpCapability GroupNonUniform
OpCapability SubgroupBitcastShuffleINTEL
OpExtension "SPV_INTEL_subgroup_bitcast_shuffle"
OpExtension "SPV_KHR_8bit_storage"
OpExtension "SPV_KHR_16bit_storage"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gid
OpExecutionMode %main LocalSize LOCAL 1 1
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %srcarr ArrayStride SSTRIDE
OpDecorate %dstarr ArrayStride DSTRIDE
OpMemberDecorate %SB 0 Offset 0
OpMemberDecorate %DB 0 Offset 0
OpDecorate %SB Block
OpDecorate %DB Block
OpDecorate %in DescriptorSet 0
OpDecorate %in Binding 0
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%u8 = OpTypeInt 8 0
%u16 = OpTypeInt 16 0
%u32 = OpTypeInt 32 0
%u64 = OpTypeInt 64 0
%v2u8 = OpTypeVector %u8 2
%v4u8 = OpTypeVector %u8 4
%v8u8 = OpTypeVector %u8 8
%v16u8 = OpTypeVector %u8 16
%v2u16 = OpTypeVector %u16 2
%v4u16 = OpTypeVector %u16 4
%v8u16 = OpTypeVector %u16 8
%v16u16 = OpTypeVector %u16 16
%v2u32 = OpTypeVector %u32 2
%v3u32 = OpTypeVector %u32 3
%v4u32 = OpTypeVector %u32 4
%v8u32 = OpTypeVector %u32 8
%v16u32 = OpTypeVector %u32 16
%v2u64 = OpTypeVector %u64 2
%v4u64 = OpTypeVector %u64 4
%v8u64 = OpTypeVector %u64 8
%pin = OpTypePointer Input %v3u32
%gid = OpVariable %pin Input
%pinx = OpTypePointer Input %u32
%uint_0 = OpConstant %u32 0
%srcarr = OpTypeRuntimeArray %SRC
%dstarr = OpTypeRuntimeArray %DST
%SB = OpTypeStruct %srcarr
%DB = OpTypeStruct %dstarr
%pSB = OpTypePointer StorageBuffer %SB
%pDB = OpTypePointer StorageBuffer %DB
%pS = OpTypePointer StorageBuffer %SRC
%pD = OpTypePointer StorageBuffer %DST
%in = OpVariable %pSB StorageBuffer
%out = OpVariable %pDB StorageBuffer
%main = OpFunction %void None %fn
%entry = OpLabel
%gx = OpAccessChain %pinx %gid %uint_0
%i = OpLoad %u32 %gx
%ps = OpAccessChain %pS %in %uint_0 %i
%v = OpLoad %SRC %ps
COND
%r = OpSubgroupBitcastShuffleINTEL %DST %v
%pd = OpAccessChain %pD %out %uint_0 %i
OpStore %pd %r
OpReturn
OpFunctionEnd
`

func shuffleModule(t testing.TB, src, dst sgpkg.Type, local int, divergent bool) string {
	name := func(ty sgpkg.Type) string {
		if ty.Components == 1 {
			return fmt.Sprintf("%%u%d", ty.Width)
		}
		return fmt.Sprintf("%%v%du%d", ty.Components, ty.Width)
	}
	cond := ""
	if divergent {
		// only even invocations execute the shuffle
		cond = `%bit = OpUMod %u32 %i %two
%isodd = OpIEqual %bool %bit %uint_1
OpSelectionMerge %done None
OpBranchConditional %isodd %done %body
%body = OpLabel`
	}
	s := strings.NewReplacer("%SRC", name(src), "%DST", name(dst), "LOCAL", fmt.Sprint(local),
		"SSTRIDE", fmt.Sprint(src.Bits()/8), "DSTRIDE", fmt.Sprint(dst.Bits()/8), "COND", cond).Replace(shuffleTemplate)
	if divergent {
		s = strings.Replace(s, "%uint_0 = OpConstant %u32 0\n", "%uint_0 = OpConstant %u32 0\n%uint_1 = OpConstant %u32 1\n%two = OpConstant %u32 2\n%bool = OpTypeBool\n", 1)
		s = strings.Replace(s, "OpStore %pd %r\nOpReturn", "OpStore %pd %r\nOpBranch %done\n%done = OpLabel\nOpReturn", 1)
	}
	return s
}

func TestBitcastShuffleKernels(t *testing.T) {
	pairs := [][2]sgpkg.Type{
		{sgpkg.U(32, 1), sgpkg.U(16, 2)}, {sgpkg.U(16, 2), sgpkg.U(32, 1)},
		{sgpkg.U(32, 1), sgpkg.U(8, 4)}, {sgpkg.U(8, 4), sgpkg.U(32, 1)},
		{sgpkg.U(64, 1), sgpkg.U(16, 4)}, {sgpkg.U(32, 4), sgpkg.U(64, 2)}, {sgpkg.U(8, 16), sgpkg.U(32, 4)},
		{sgpkg.U(16, 16), sgpkg.U(64, 4)}, {sgpkg.U(32, 16), sgpkg.U(64, 8)},
	}
	for _, pr := range pairs {
		src, dst := pr[0], pr[1]
		m := assemble(t, shuffleModule(t, src, dst, 64, false))
		t.Run(src.String()+"_to_"+dst.String(), func(t *testing.T) {
			forEach(t, func(t *testing.T, o Options) {
				S := o.SubgroupSize
				n := 128
				sb := src.Bits() / 8
				in := make([]byte, n*sb)
				for i := range in {
					in[i] = byte(i*37 + 11)
				}
				out := make([]byte, n*dst.Bits()/8)
				if err := run(t, m, o, [3]uint32{2, 1, 1}, map[BindingKey][]byte{{0, 0}: in, {0, 1}: out}, nil); err != nil {
					if 64%S != 0 {
						return // non-full subgroups fault (checked below)
					}
					t.Fatal(err)
				}
				if 64%S != 0 {
					t.Fatal("a non-full subgroup did not fault")
				}
				// expected: subgroup.BitcastShuffle per subgroup
				for g := 0; g < n/S; g++ {
					sv := make([]uint64, S*src.Components)
					for i := 0; i < S; i++ {
						for c := 0; c < src.Components; c++ {
							sv[i*src.Components+c] = readLE(in, ((g*S+i)*src.Components+c)*src.Width/8, src.Width/8)
						}
					}
					dv := make([]uint64, S*dst.Components)
					if err := sgpkg.BitcastShuffle(dv, sv, src, dst, S); err != nil {
						t.Fatal(err)
					}
					for i := 0; i < S; i++ {
						for c := 0; c < dst.Components; c++ {
							got := readLE(out, ((g*S+i)*dst.Components+c)*dst.Width/8, dst.Width/8)
							if got != dv[i*dst.Components+c] {
								t.Fatalf("invocation %d component %d: got %#x, want %#x", g*S+i, c, got, dv[i*dst.Components+c])
							}
						}
					}
				}
			})
		})
	}
	// The spec's first example: u32 -> 2 x u16 at subgroup size 8, operand
	// of invocation i = 2i | (2i+1) << 16: invocation 0 gets <0, 8>.
	m := assemble(t, shuffleModule(t, sgpkg.U(32, 1), sgpkg.U(16, 2), 8, false))
	in, out := make([]byte, 32), make([]byte, 32)
	for i := 0; i < 8; i++ {
		binary.LittleEndian.PutUint32(in[4*i:], uint32(2*i)|uint32(2*i+1)<<16)
	}
	if err := run(t, m, Options{SubgroupSize: 8}, [3]uint32{1, 1, 1}, map[BindingKey][]byte{{0, 0}: in, {0, 1}: out}, nil); err != nil {
		t.Fatal(err)
	}
	if a, b := binary.LittleEndian.Uint16(out[0:]), binary.LittleEndian.Uint16(out[2:]); a != 0 || b != 8 {
		t.Fatalf("invocation 0 got <%d,%d>, want <0,8>", a, b)
	}
	// Undefined cases fault: divergence, non-full subgroup.
	var f *Fault
	dm := assemble(t, shuffleModule(t, sgpkg.U(32, 1), sgpkg.U(16, 2), 8, true))
	err := run(t, dm, Options{SubgroupSize: 8}, [3]uint32{1, 1, 1}, map[BindingKey][]byte{{0, 0}: in, {0, 1}: out}, nil)
	if !errors.As(err, &f) || f.Kind != FaultSubgroup {
		t.Fatalf("divergent shuffle: got %v", err)
	}
	nm := assemble(t, shuffleModule(t, sgpkg.U(32, 1), sgpkg.U(16, 2), 6, false))
	err = run(t, nm, Options{SubgroupSize: 8}, [3]uint32{1, 1, 1}, map[BindingKey][]byte{{0, 0}: in, {0, 1}: out}, nil)
	if !errors.As(err, &f) || f.Kind != FaultSubgroup {
		t.Fatalf("non-full subgroup shuffle: got %v", err)
	}
}

func readLE(b []byte, off, size int) uint64 {
	var v uint64
	for k := size - 1; k >= 0; k-- {
		v = v<<8 | uint64(b[off+k])
	}
	return v
}

const mxTemplate = `OpCapability Shader
OpCapability Int8
OpCapability StorageBuffer8BitAccess
OpCapability Float8EXT
OpCapability Float4EXT
OpCapability Float6EXT
OpCapability Float8UnsignedE8M0EXT
OpCapability MXInt8EXT
OpCapability BitcastExtractEXT
OpExtension "SPV_EXT_float8"
OpExtension "SPV_EXT_ocp_microscaling_types"
OpExtension "SPV_KHR_8bit_storage"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gid
OpExecutionMode %main LocalSize 64 1 1
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %farr ArrayStride 4
OpDecorate %uarr ArrayStride 4
OpMemberDecorate %FB 0 Offset 0
OpMemberDecorate %UB 0 Offset 0
OpDecorate %FB Block
OpDecorate %UB Block
OpDecorate %in DescriptorSet 0
OpDecorate %in Binding 0
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 1
OpDecorate %out2 DescriptorSet 0
OpDecorate %out2 Binding 2
DECOR
%void = OpTypeVoid
%fn = OpTypeFunction %void
%u8 = OpTypeInt 8 0
%u32 = OpTypeInt 32 0
%f32 = OpTypeFloat 32
%small = OpTypeFloat WIDTH ENC
%v3u32 = OpTypeVector %u32 3
%pin = OpTypePointer Input %v3u32
%gid = OpVariable %pin Input
%pinx = OpTypePointer Input %u32
%uint_0 = OpConstant %u32 0
%farr = OpTypeRuntimeArray %f32
%uarr = OpTypeRuntimeArray %u32
%FB = OpTypeStruct %farr
%UB = OpTypeStruct %uarr
%pFB = OpTypePointer StorageBuffer %FB
%pUB = OpTypePointer StorageBuffer %UB
%pf = OpTypePointer StorageBuffer %f32
%pu = OpTypePointer StorageBuffer %u32
%in = OpVariable %pFB StorageBuffer
%out = OpVariable %pUB StorageBuffer
%out2 = OpVariable %pFB StorageBuffer
%main = OpFunction %void None %fn
%entry = OpLabel
%gx = OpAccessChain %pinx %gid %uint_0
%i = OpLoad %u32 %gx
%pi = OpAccessChain %pf %in %uint_0 %i
%x = OpLoad %f32 %pi
%c = OpFConvert %small %x
%bitsv = OpBitcast BITTYPE %c
%code = OpUConvert %u32 %bitsv
%po = OpAccessChain %pu %out %uint_0 %i
OpStore %po %code
%back = OpFConvert %f32 %c
%po2 = OpAccessChain %pf %out2 %uint_0 %i
OpStore %po2 %back
OpReturn
OpFunctionEnd
`

func TestMXConversions(t *testing.T) {
	type fc struct {
		name, enc string
		width     int
		f         mx.Format
	}
	formats := []fc{{"e4m3", "Float8E4M3EXT", 8, mx.E4M3}, {"e5m2", "Float8E5M2EXT", 8, mx.E5M2}}
	// inputs: every code's value, midpoints, overflow, NaN, Inf, denormals
	var xs []float32
	for c := 0; c < 256; c++ {
		xs = append(xs, mx.E4M3.DecodeFloat32(uint8(c)), mx.E5M2.DecodeFloat32(uint8(c)))
	}
	for _, v := range []float32{0.3, -1.0625, 464, 465, 61440, 1e9, -1e9, float32(math.Inf(1)), float32(math.Inf(-1)), 1e-10, -0.0, 0x1p-9, 0x1p-17, 3.14159} {
		xs = append(xs, v)
	}
	for len(xs)%64 != 0 {
		xs = append(xs, 1.5)
	}
	for _, f := range formats {
		for _, sat := range []bool{false, true} {
			for mode, mname := range []string{"RTE", "RTZ", "RTP", "RTN"} {
				decor := ""
				if sat {
					decor += "OpDecorate %c SaturatedToLargestFloat8NormalConversionEXT\n"
				}
				if mode != 0 {
					decor += "OpDecorate %c FPRoundingMode " + mname + "\n"
				}
				src := strings.NewReplacer("WIDTH", fmt.Sprint(f.width), "ENC", f.enc, "DECOR", decor, "BITTYPE", "%u8").Replace(mxTemplate)
				m := assemble(t, src)
				name := fmt.Sprintf("%s/sat=%v/%s", f.name, sat, mname)
				t.Run(name, func(t *testing.T) {
					in, out, out2 := f32s(xs...), make([]byte, 4*len(xs)), make([]byte, 4*len(xs))
					err := run(t, m, Options{SubgroupSize: 16}, [3]uint32{uint32(len(xs) / 64), 1, 1}, map[BindingKey][]byte{{0, 0}: in, {0, 1}: out, {0, 2}: out2}, nil)
					if err != nil {
						t.Fatal(err)
					}
					for i, x := range xs {
						want := f.f.EncodeFloat64(float64(x), mx.RoundingMode(mode), sat)
						if got := getU32(out, i); got != uint32(want) {
							t.Fatalf("%g: code %#x, want %#x", x, got, want)
						}
						back := f.f.DecodeFloat32(want)
						if got := getF32(out2, i); math.Float32bits(got) != math.Float32bits(back) && !(got != got && back != back) {
							t.Fatalf("%g: back %g, want %g", x, got, back)
						}
					}
				})
			}
		}
	}
}
