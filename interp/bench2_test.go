package interp

import (
	"context"
	"encoding/binary"
	"math"
	"testing"

	"spvx/mx"
)

const reduceSrc = `#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) buffer S { float s[]; };
void main() { float v = subgroupAdd(x[gl_GlobalInvocationID.x]);
  if (gl_SubgroupInvocationID == 0) s[gl_GlobalInvocationID.x / gl_SubgroupSize] = v; }`

// BenchmarkReduce: a subgroup-heavy kernel (a subgroupAdd per 32 elements).
func BenchmarkReduce(b *testing.B) {
	m := glsl(b, reduceSrc, "")
	n := 1 << 22
	x, s := make([]byte, 4*n), make([]byte, 4*n/32)
	b.Run("interp/S32", func(b *testing.B) {
		p, err := Compile(m, "", Options{SubgroupSize: 32, Parallelism: 1, MaxSteps: 1 << 62})
		if err != nil {
			b.Fatal(err)
		}
		res := &Resources{Buffers: map[BindingKey][]*Buffer{{0, 0}: {{Data: x}}, {0, 1}: {{Data: s}}}}
		b.SetBytes(int64(4 * n))
		c0 := cpuTime()
		for b.Loop() {
			if err := p.Dispatch(context.Background(), uint32(n/256), 1, 1, res); err != nil {
				b.Fatal(err)
			}
		}
		reportWork(b, c0)
		reportCPU(b, c0, n)
	})
	b.Run("go", func(b *testing.B) {
		xs, ss := make([]float32, n), make([]float32, n/32)
		b.SetBytes(int64(4 * n))
		c0 := cpuTime()
		for b.Loop() {
			for k := range ss {
				var acc float32
				for _, v := range xs[32*k : 32*k+32] {
					acc += v
				}
				ss[k] = acc
			}
		}
		reportCPU(b, c0, n)
	})
}

// mxfp4Src dequantizes MXFP4: element i is FP4 code i of the packed words
// (OpBitcastExtractEXT), times the E8M0 scale of its block of 32.
const mxfp4Src = `OpCapability Shader
OpCapability Int8
OpCapability Float4EXT
OpCapability Float8UnsignedE8M0EXT
OpCapability Float8EXT
OpCapability BitcastExtractEXT
OpExtension "SPV_EXT_ocp_microscaling_types"
OpExtension "SPV_EXT_float8"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gid
OpExecutionMode %main LocalSize 256 1 1
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %arr ArrayStride 4
OpDecorate %farr ArrayStride 4
OpMemberDecorate %B 0 Offset 0
OpMemberDecorate %F 0 Offset 0
OpDecorate %B Block
OpDecorate %F Block
OpDecorate %scales DescriptorSet 0
OpDecorate %scales Binding 0
OpDecorate %elems DescriptorSet 0
OpDecorate %elems Binding 1
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 2
%void = OpTypeVoid
%fn = OpTypeFunction %void
%u8 = OpTypeInt 8 0
%u32 = OpTypeInt 32 0
%f32 = OpTypeFloat 32
%fp4 = OpTypeFloat 4 Float4E2M1EXT
%e8m0 = OpTypeFloat 8 Float8UnsignedE8M0EXT
%v3 = OpTypeVector %u32 3
%pin = OpTypePointer Input %v3
%gid = OpVariable %pin Input
%pinx = OpTypePointer Input %u32
%c0 = OpConstant %u32 0
%c2 = OpConstant %u32 2
%c3 = OpConstant %u32 3
%c5 = OpConstant %u32 5
%c7 = OpConstant %u32 7
%c255 = OpConstant %u32 255
%arr = OpTypeRuntimeArray %u32
%farr = OpTypeRuntimeArray %f32
%B = OpTypeStruct %arr
%F = OpTypeStruct %farr
%pB = OpTypePointer StorageBuffer %B
%pF = OpTypePointer StorageBuffer %F
%pu = OpTypePointer StorageBuffer %u32
%pf = OpTypePointer StorageBuffer %f32
%scales = OpVariable %pB StorageBuffer
%elems = OpVariable %pB StorageBuffer
%out = OpVariable %pF StorageBuffer
%main = OpFunction %void None %fn
%entry = OpLabel
%gx = OpAccessChain %pinx %gid %c0
%i = OpLoad %u32 %gx
%wi = OpShiftRightLogical %u32 %i %c3
%pw = OpAccessChain %pu %elems %c0 %wi
%w = OpLoad %u32 %pw
%k = OpBitwiseAnd %u32 %i %c7
%off = OpShiftLeftLogical %u32 %k %c2
%code = OpBitcastExtractEXT %fp4 %w %off
%v = OpFConvert %f32 %code
%blk = OpShiftRightLogical %u32 %i %c5
%sw = OpShiftRightLogical %u32 %blk %c2
%ps = OpAccessChain %pu %scales %c0 %sw
%swv = OpLoad %u32 %ps
%sb = OpBitwiseAnd %u32 %blk %c3
%sh = OpShiftLeftLogical %u32 %sb %c3
%sv = OpShiftRightLogical %u32 %swv %sh
%s32 = OpBitwiseAnd %u32 %sv %c255
%s8 = OpUConvert %u8 %s32
%se = OpBitcast %e8m0 %s8
%sf = OpFConvert %f32 %se
%r = OpFMul %f32 %v %sf
%po = OpAccessChain %pf %out %c0 %i
OpStore %po %r
OpReturn
OpFunctionEnd
`

func mxfp4Data(n int) (src []float32, scales, elems []byte) {
	src = make([]float32, n)
	for i := range src {
		src[i] = float32(math.Sin(float64(i))) * float32(1+i%97)
	}
	ns, err := mx.ScaleBytes(n, 32)
	if err != nil {
		panic(err)
	}
	ne, err := mx.ElementBytes(mx.MXFP4, n)
	if err != nil {
		panic(err)
	}
	scales, elems = make([]byte, ns), make([]byte, ne)
	if err := mx.Quantize(scales, elems, src, mx.MXFP4, mx.Options{}); err != nil {
		panic(err)
	}
	return
}

func TestMXFP4Dequantize(t *testing.T) {
	const n = 4096
	_, scales, elems := mxfp4Data(n)
	want := make([]float32, n)
	if err := mx.Dequantize(want, scales, elems, mx.MXFP4, 32, 1); err != nil {
		t.Fatal(err)
	}
	m := assemble(t, mxfp4Src)
	out := make([]byte, 4*n)
	if err := run(t, m, Options{}, [3]uint32{n / 256, 1, 1}, map[BindingKey][]byte{{0, 0}: scales, {0, 1}: elems, {0, 2}: out}, nil); err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if got := getF32(out, i); math.Float32bits(got) != math.Float32bits(want[i]) {
			t.Fatalf("element %d: %g, want %g (mx.Dequantize)", i, got, want[i])
		}
	}
}

func BenchmarkMXFP4Dequantize(b *testing.B) {
	n := 1 << 22
	_, scales, elems := mxfp4Data(n)
	m := assemble(b, mxfp4Src)
	b.Run("interp/S32", func(b *testing.B) {
		p, err := Compile(m, "", Options{SubgroupSize: 32, Parallelism: 1, MaxSteps: 1 << 62})
		if err != nil {
			b.Fatal(err)
		}
		out := make([]byte, 4*n)
		res := &Resources{Buffers: map[BindingKey][]*Buffer{{0, 0}: {{Data: scales}}, {0, 1}: {{Data: elems}}, {0, 2}: {{Data: out}}}}
		b.SetBytes(int64(4 * n))
		c0 := cpuTime()
		for b.Loop() {
			if err := p.Dispatch(context.Background(), uint32(n/256), 1, 1, res); err != nil {
				b.Fatal(err)
			}
		}
		reportWork(b, c0)
		reportCPU(b, c0, n)
	})
	// The shader's loop in plain Go (issue 25's reference): the same word
	// and scale loads, shifts and two table decodes per element.
	b.Run("go", func(b *testing.B) {
		var fp4 [16]float32
		var e8m0 [256]float32
		for c := range fp4 {
			fp4[c] = mx.E2M1.DecodeFloat32(uint8(c))
		}
		for c := range e8m0 {
			e8m0[c] = mx.E8M0.DecodeFloat32(uint8(c))
		}
		dst := make([]float32, n)
		b.SetBytes(int64(4 * n))
		c0 := cpuTime()
		for b.Loop() {
			for i := range dst {
				w := binary.LittleEndian.Uint32(elems[4*(i>>3):])
				blk := i >> 5
				sw := binary.LittleEndian.Uint32(scales[4*(blk>>2):])
				dst[i] = fp4[w>>(4*(i&7))&15] * e8m0[sw>>(8*(blk&3))&255]
			}
		}
		reportCPU(b, c0, n)
	})
	b.Run("go-mx.Dequantize", func(b *testing.B) {
		dst := make([]float32, n)
		b.SetBytes(int64(4 * n))
		c0 := cpuTime()
		for b.Loop() {
			if err := mx.Dequantize(dst, scales, elems, mx.MXFP4, 32, 1); err != nil {
				b.Fatal(err)
			}
		}
		reportCPU(b, c0, n)
	})
}
