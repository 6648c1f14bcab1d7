package amber

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"spvx/mx"
)

// The FP8 and OCP MX script under testdata/interp/ needs the executor.
// Its expected values come from spvx/mx, the reference of the formats;
// TestMXScripts regenerates it with -update and otherwise checks it is
// current, parses and assembles.

const mxHeader = `               OpCapability Shader
               OpCapability Int8
               OpCapability Float8EXT
               OpCapability Float4EXT
               OpCapability Float6EXT
               OpCapability BitcastExtractEXT
               OpExtension "SPV_EXT_float8"
               OpExtension "SPV_EXT_ocp_microscaling_types"
               OpMemoryModel Logical GLSL450
`

const mxTypes = `               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %rt_u32 ArrayStride 4
               OpMemberDecorate %U32s 0 Offset 0
               OpDecorate %U32s Block
               OpDecorate %rt_f32 ArrayStride 4
               OpMemberDecorate %F32s 0 Offset 0
               OpDecorate %F32s Block
               OpDecorate %in DescriptorSet 0
               OpDecorate %in Binding 0
               OpDecorate %out DescriptorSet 0
               OpDecorate %out Binding 1
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
      %uchar = OpTypeInt 8 0
      %float = OpTypeFloat 32
     %v3uint = OpTypeVector %uint 3
     %rt_u32 = OpTypeRuntimeArray %uint
     %rt_f32 = OpTypeRuntimeArray %float
       %U32s = OpTypeStruct %rt_u32
       %F32s = OpTypeStruct %rt_f32
     %p_U32s = OpTypePointer StorageBuffer %U32s
     %p_F32s = OpTypePointer StorageBuffer %F32s
     %p_uint = OpTypePointer StorageBuffer %uint
      %p_f32 = OpTypePointer StorageBuffer %float
   %p_v3uint = OpTypePointer Input %v3uint
        %gid = OpVariable %p_v3uint Input
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
     %uint_3 = OpConstant %uint 3
     %uint_4 = OpConstant %uint 4
`

// fp8Shader: out[4i..4i+3] = the E4M3 and E5M2 codes of the float whose
// bits are in[i], each without and with
// SaturatedToLargestFloat8NormalConversionEXT (rounding RTE, the only one
// Vulkan allows for FP8).
var fp8Shader = mxHeader + `               OpEntryPoint GLCompute %main "main" %gid
               OpExecutionMode %main LocalSize 1 1 1
               OpDecorate %c1 SaturatedToLargestFloat8NormalConversionEXT
               OpDecorate %c3 SaturatedToLargestFloat8NormalConversionEXT
` + mxTypes + `       %e4m3 = OpTypeFloat 8 Float8E4M3EXT
       %e5m2 = OpTypeFloat 8 Float8E5M2EXT
         %in = OpVariable %p_U32s StorageBuffer
        %out = OpVariable %p_U32s StorageBuffer
       %main = OpFunction %void None %fn
          %l = OpLabel
         %g3 = OpLoad %v3uint %gid
          %i = OpCompositeExtract %uint %g3 0
         %pi = OpAccessChain %p_uint %in %uint_0 %i
          %u = OpLoad %uint %pi
          %x = OpBitcast %float %u
         %c0 = OpFConvert %e4m3 %x
         %c1 = OpFConvert %e4m3 %x
         %c2 = OpFConvert %e5m2 %x
         %c3 = OpFConvert %e5m2 %x
         %b0 = OpBitcast %uchar %c0
         %b1 = OpBitcast %uchar %c1
         %b2 = OpBitcast %uchar %c2
         %b3 = OpBitcast %uchar %c3
         %w0 = OpUConvert %uint %b0
         %w1 = OpUConvert %uint %b1
         %w2 = OpUConvert %uint %b2
         %w3 = OpUConvert %uint %b3
       %base = OpIMul %uint %i %uint_4
         %o1 = OpIAdd %uint %base %uint_1
         %o2 = OpIAdd %uint %base %uint_2
         %o3 = OpIAdd %uint %base %uint_3
         %q0 = OpAccessChain %p_uint %out %uint_0 %base
         %q1 = OpAccessChain %p_uint %out %uint_0 %o1
         %q2 = OpAccessChain %p_uint %out %uint_0 %o2
         %q3 = OpAccessChain %p_uint %out %uint_0 %o3
               OpStore %q0 %w0
               OpStore %q1 %w1
               OpStore %q2 %w2
               OpStore %q3 %w3
               OpReturn
               OpFunctionEnd
`

// ocpShader: for the byte code in[c], out[4c..4c+3] = E2M1 of the low
// nibble, E2M1 of the high nibble, E2M3 of bits 0-5 and E3M2 of bits 2-7
// (OpBitcastExtractEXT), each widened to float32 (exact).
var ocpShader = mxHeader + `               OpEntryPoint GLCompute %main "main" %gid
               OpExecutionMode %main LocalSize 1 1 1
` + mxTypes + `       %e2m1 = OpTypeFloat 4 Float4E2M1EXT
       %e2m3 = OpTypeFloat 6 Float6E2M3EXT
       %e3m2 = OpTypeFloat 6 Float6E3M2EXT
         %in = OpVariable %p_U32s StorageBuffer
        %out = OpVariable %p_F32s StorageBuffer
       %main = OpFunction %void None %fn
          %l = OpLabel
         %g3 = OpLoad %v3uint %gid
          %i = OpCompositeExtract %uint %g3 0
         %pi = OpAccessChain %p_uint %in %uint_0 %i
          %u = OpLoad %uint %pi
          %b = OpUConvert %uchar %u
         %x0 = OpBitcastExtractEXT %e2m1 %b %uint_0
         %x1 = OpBitcastExtractEXT %e2m1 %b %uint_4
         %x2 = OpBitcastExtractEXT %e2m3 %b %uint_0
         %x3 = OpBitcastExtractEXT %e3m2 %b %uint_2
         %f0 = OpFConvert %float %x0
         %f1 = OpFConvert %float %x1
         %f2 = OpFConvert %float %x2
         %f3 = OpFConvert %float %x3
       %base = OpIMul %uint %i %uint_4
         %o1 = OpIAdd %uint %base %uint_1
         %o2 = OpIAdd %uint %base %uint_2
         %o3 = OpIAdd %uint %base %uint_3
         %q0 = OpAccessChain %p_f32 %out %uint_0 %base
         %q1 = OpAccessChain %p_f32 %out %uint_0 %o1
         %q2 = OpAccessChain %p_f32 %out %uint_0 %o2
         %q3 = OpAccessChain %p_f32 %out %uint_0 %o3
               OpStore %q0 %f0
               OpStore %q1 %f1
               OpStore %q2 %f2
               OpStore %q3 %f3
               OpReturn
               OpFunctionEnd
`

func mxScript() string {
	inf := float32(math.Inf(1))
	inputs := []float32{0, float32(math.Copysign(0, -1)), 1, -1, 1.5, 0.1, -0.3, 3.14159, 240, 300, 448, 449, 464,
		465, 500, -1000, 57344, 61439, 61440, 70000, 1e-3, 1.0 / 512, 1.0 / 1024, 1e-9, 1.0 / 65536, 3.0 / 131072, inf, -inf}
	var b strings.Builder
	b.WriteString(`#!amber
# FP8 (SPV_EXT_float8: E4M3 and E5M2, RTE, with and without
# SaturatedToLargestFloat8NormalConversionEXT) from float32, and the OCP MX
# formats (SPV_EXT_ocp_microscaling_types: E2M1, E2M3, E3M2 through
# OpBitcastExtractEXT) to float32, for every byte code. Generated by amber's
# TestMXScripts (go test -update); the expected values are spvx/mx. A
# non-saturating E4M3 overflow is NaN with either sign, so those entries are
# not checked. Needs the executor.
DEVICE_FEATURE Float16Int8Features.shaderInt8

SHADER compute fp8 SPIRV-ASM TARGET_ENV spv1.3
`)
	b.WriteString(fp8Shader)
	b.WriteString("END\n\nSHADER compute ocp SPIRV-ASM TARGET_ENV spv1.3\n")
	b.WriteString(ocpShader)
	b.WriteString("END\n\nBUFFER fp8_in DATA_TYPE uint32 DATA\n")
	for i, x := range inputs {
		fmt.Fprintf(&b, "0x%08x", math.Float32bits(x))
		if i%8 == 7 || i == len(inputs)-1 {
			b.WriteString("\n")
		} else {
			b.WriteString(" ")
		}
	}
	fmt.Fprintf(&b, "END\nBUFFER fp8_out DATA_TYPE uint32 SIZE %d FILL 0\n", 4*len(inputs))
	b.WriteString("BUFFER codes DATA_TYPE uint32 SIZE 256 SERIES_FROM 0 INC_BY 1\n")
	b.WriteString("BUFFER decoded DATA_TYPE float SIZE 1024 FILL 0.0\n")
	b.WriteString(`
PIPELINE compute encode
  ATTACH fp8
  BIND BUFFER fp8_in AS storage DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER fp8_out AS storage DESCRIPTOR_SET 0 BINDING 1
END
PIPELINE compute decode
  ATTACH ocp
  BIND BUFFER codes AS storage DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER decoded AS storage DESCRIPTOR_SET 0 BINDING 1
END
`)
	fmt.Fprintf(&b, "\nRUN encode %d 1 1\n", len(inputs))
	for i, x := range inputs {
		codes := []uint8{mx.E4M3.EncodeFloat32(x, mx.RTE, false), mx.E4M3.EncodeFloat32(x, mx.RTE, true),
			mx.E5M2.EncodeFloat32(x, mx.RTE, false), mx.E5M2.EncodeFloat32(x, mx.RTE, true)}
		fmt.Fprintf(&b, "# %v\n", x)
		if codes[0]&0x7f == 0x7f {
			fmt.Fprintf(&b, "EXPECT fp8_out IDX %d EQ %d %d %d\n", 16*i+4, codes[1], codes[2], codes[3])
		} else {
			fmt.Fprintf(&b, "EXPECT fp8_out IDX %d EQ %d %d %d %d\n", 16*i, codes[0], codes[1], codes[2], codes[3])
		}
	}
	b.WriteString("\nRUN decode 256 1 1\n")
	for c := 0; c < 256; c += 4 {
		fmt.Fprintf(&b, "EXPECT decoded IDX %d EQ", 16*c)
		for k := c; k < c+4; k++ {
			u := uint8(k)
			for _, v := range []float64{mx.E2M1.Decode(u & 0xf), mx.E2M1.Decode(u >> 4), mx.E2M3.Decode(u & 0x3f), mx.E3M2.Decode(u >> 2)} {
				fmt.Fprintf(&b, " %s", strconv64(v))
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

// strconv64 prints a value as an Amber float token (with a '.', which
// makes the tokenizer read it as a double).
func strconv64(v float64) string {
	s := fmt.Sprintf("%g", v)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	if strings.Contains(s, "e") && !strings.Contains(s, ".") {
		i := strings.IndexByte(s, 'e')
		s = s[:i] + ".0" + s[i:]
	}
	return s
}

func TestMXScripts(t *testing.T) {
	const path = "testdata/interp/mx_conversions.amber"
	golden(t, path, mxScript())
	s, err := ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, sh := range s.Shaders {
		if _, _, err := CompileShader(context.Background(), sh, path, CompileOptions{}); err != nil {
			t.Error(err)
		}
	}
	if m := Unsupported(s, nil); len(m) > 0 {
		t.Errorf("device lacks %v", m)
	}
}
