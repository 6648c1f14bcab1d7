package interp

import (
	"math"
	"strings"
	"testing"

	"spvx/mx"
)

// FP4 and FP6 through OpBitcastExtractEXT (decode) and OpFConvert + a
// vector OpBitcast (encode), against spvx/mx.
const fp4Src = `OpCapability Shader
OpCapability Int8
OpCapability StorageBuffer8BitAccess
OpCapability FloatSMALLCAP
OpCapability BitcastExtractEXT
OpExtension "SPV_EXT_ocp_microscaling_types"
OpExtension "SPV_KHR_8bit_storage"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gid
OpExecutionMode %main LocalSize 32 1 1
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %arr ArrayStride 4
OpMemberDecorate %B 0 Offset 0
OpDecorate %B Block
OpDecorate %in DescriptorSet 0
OpDecorate %in Binding 0
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 1
OpDecorate %enc DescriptorSet 0
OpDecorate %enc Binding 2
%void = OpTypeVoid
%fn = OpTypeFunction %void
%u8 = OpTypeInt 8 0
%u16 = OpTypeInt 16 0
%u32 = OpTypeInt 32 0
%f32 = OpTypeFloat 32
%small = OpTypeFloat WIDTH ENC
%v3 = OpTypeVector %u32 3
%pin = OpTypePointer Input %v3
%gid = OpVariable %pin Input
%pinx = OpTypePointer Input %u32
%c0 = OpConstant %u32 0
%c1 = OpConstant %u32 1
%cW = OpConstant %u32 SHIFT
%arr = OpTypeRuntimeArray %u32
%B = OpTypeStruct %arr
%pB = OpTypePointer StorageBuffer %B
%pe = OpTypePointer StorageBuffer %u32
%in = OpVariable %pB StorageBuffer
%out = OpVariable %pB StorageBuffer
%enc = OpVariable %pB StorageBuffer
%main = OpFunction %void None %fn
%entry = OpLabel
%gx = OpAccessChain %pinx %gid %c0
%i = OpLoad %u32 %gx
%pi = OpAccessChain %pe %in %c0 %i
%x = OpLoad %u32 %pi
%x16 = OpUConvert %u16 %x
%par = OpBitwiseAnd %u32 %i %c1
%off = OpIMul %u32 %par %cW
%e = OpBitcastExtractEXT %small %x16 %off
%f = OpFConvert %f32 %e
%fb = OpBitcast %u32 %f
%po = OpAccessChain %pe %out %c0 %i
OpStore %po %fb
%ff = OpBitcast %f32 %x
%s = OpFConvert %small %ff
%sb = OpBitcastExtractEXT %small %x16 %c0
%vec = OpCompositeConstruct %vsmall %s %sb
%packed = OpBitcast %PACK %vec
%pw = OpUConvert %u32 %packed
%pz = OpAccessChain %pe %enc %c0 %i
OpStore %pz %pw
OpReturn
OpFunctionEnd
`

func TestFP4FP6(t *testing.T) {
	type fc struct {
		name, cap, enc string
		width          int
		f              mx.Format
	}
	for _, c := range []fc{{"e2m1", "Float4EXT", "Float4E2M1EXT", 4, mx.E2M1}, {"e2m3", "Float6EXT", "Float6E2M3EXT", 6, mx.E2M3}, {"e3m2", "Float6EXT", "Float6E3M2EXT", 6, mx.E3M2}} {
		// The encode check packs two components into a u8 with OpBitcast,
		// which only FP4 allows (two FP6 are 12 bits): FP6 checks decoding.
		pack, vec := "%u8", "%vsmall = OpTypeVector %small 2\n"
		encode := c.width == 4
		src := strings.NewReplacer("FloatSMALLCAP", c.cap, "WIDTH", itoa(c.width), "ENC", c.enc, "SHIFT", itoa(c.width), "%PACK", pack).Replace(fp4Src)
		src = strings.Replace(src, "%v3 = OpTypeVector", vec+"%v3 = OpTypeVector", 1)
		if !encode {
			i, j := strings.Index(src, "%ff = "), strings.Index(src, "OpReturn\n")
			src = src[:i] + src[j:]
		}
		m := assemble(t, src)
		t.Run(c.name, func(t *testing.T) {
			var xs []uint32
			for code := 0; code < 256; code++ {
				xs = append(xs, uint32(code)|uint32(code)<<8)
			}
			for _, v := range []float32{0.25, 0.3, 2.5, 5, 7, 100, -100, -0.1, float32(math.NaN()), float32(math.Inf(1))} {
				xs = append(xs, math.Float32bits(v))
			}
			for len(xs)%32 != 0 {
				xs = append(xs, 0)
			}
			out, enc := make([]byte, 4*len(xs)), make([]byte, 4*len(xs))
			err := run(t, m, Options{SubgroupSize: 8}, [3]uint32{uint32(len(xs) / 32), 1, 1}, map[BindingKey][]byte{{0, 0}: u32s(xs...), {0, 1}: out, {0, 2}: enc}, nil)
			if err != nil {
				t.Fatal(err)
			}
			mask := uint32(1)<<c.width - 1
			for i, x := range xs {
				off := uint32(i%2) * uint32(c.width)
				code := (x & 0xFFFF) >> off & mask
				if got, want := getU32(out, i), math.Float32bits(c.f.DecodeFloat32(uint8(code))); got != want {
					t.Fatalf("decode %#x at %d: got %#x, want %#x", x, off, got, want)
				}
				if !encode {
					continue
				}
				s := uint32(c.f.EncodeFloat64(float64(math.Float32frombits(x)), mx.RTE, false))
				want := s | (x&mask)<<c.width
				if got := getU32(enc, i); got != want {
					t.Fatalf("encode %#x (%g): got %#x, want %#x", x, math.Float32frombits(x), got, want)
				}
			}
		})
	}
}
