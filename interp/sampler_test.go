package interp

import (
	"context"
	"math"
	"strings"
	"testing"

	"spvx/internal/vkformat"
	"spvx/spirv"
)

// sampleRun compiles src and runs one workgroup with the images,
// samplers and a 4 KiB output buffer at set 0 binding 9; it returns the
// output's floats.
func sampleRun(t *testing.T, src string, imgs map[BindingKey][]*Image, smps map[BindingKey][]*Sampler) ([]float32, error) {
	t.Helper()
	m := glsl(t, src, "")
	p, err := Compile(m, "", Options{SubgroupSize: 8})
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	out := make([]byte, 4096)
	res := &Resources{Buffers: map[BindingKey][]*Buffer{{0, 9}: {{Data: out}}}, Images: imgs, Samplers: smps}
	if err := p.Dispatch(context.Background(), 1, 1, 1, res); err != nil {
		return nil, err
	}
	f := make([]float32, 1024)
	for i := range f {
		f[i] = getF32(out, i)
	}
	return f, nil
}

// ramp4 is a 4x1 R32f image 0, 10, 20, 30 with levels 2 (2x1: 100, 200)
// and 3 (1x1: 1000).
func ramp4() *Image {
	return &Image{Format: spirv.ImageFormatR32f, Width: 4, Height: 1, Levels: 3, Data: f32s(0, 10, 20, 30, 100, 200, 1000)}
}

const sample2DSrc = `#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 9) buffer O { float o[]; };
layout(push_constant) uniform P { float pad; };
const vec2 at[8] = vec2[](vec2(0.125, 0.5), vec2(0.25, 0.5), vec2(0.3125, 0.5), vec2(-0.125, 0.5),
	vec2(1.125, 0.5), vec2(0.0, 0.5), vec2(0.625, 0.5), vec2(1.0, 0.5));
void main() {
	for (int i = 0; i < 8; i++) {
		o[i] = textureLod(tex, at[i], 0.0).r;
		o[8 + i] = textureLod(tex, at[i], 1.0).r;
		o[16 + i] = textureLod(tex, at[i], 0.5).r;
	}
	o[24] = textureLodOffset(tex, at[0], 0.0, ivec2(1, 0)).r;
	o[25] = texelFetch(tex, ivec2(2, 0), 0).r;
	o[26] = texelFetchOffset(tex, ivec2(1, 0), 1, ivec2(-1, 0)).r;
	o[27] = float(textureQueryLevels(tex));
	o[28] = float(textureSize(tex, 1).x);
	vec4 g = textureGather(tex, at[1]);
	o[29] = g.x; o[30] = g.y; o[31] = g.z; o[32] = g.w;
}`

// TestSampleAddressing samples a 4-texel ramp with each address mode and
// filter at hand-checked coordinates (texel centres are at (i+0.5)/4).
func TestSampleAddressing(t *testing.T) {
	cases := []struct {
		name string
		sm   Sampler
		want []float32 // o[0..7]: level 0
	}{
		{"nearest-repeat", Sampler{MaxLod: 4}, []float32{0, 10, 10, 30, 0, 0, 20, 0}},
		{"nearest-clamp", Sampler{MaxLod: 4, AddressU: AddressClampToEdge}, []float32{0, 10, 10, 0, 30, 0, 20, 30}},
		{"nearest-border", Sampler{MaxLod: 4, AddressU: AddressClampToBorder, BorderColor: BorderFloatOpaqueWhite}, []float32{0, 10, 10, 1, 1, 0, 20, 1}},
		{"nearest-mirror", Sampler{MaxLod: 4, AddressU: AddressMirroredRepeat}, []float32{0, 10, 10, 0, 30, 0, 20, 30}},
		{"nearest-mirrorclamp", Sampler{MaxLod: 4, AddressU: AddressMirrorClampToEdge}, []float32{0, 10, 10, 0, 30, 0, 20, 30}},
		// linear: u = 4s - 0.5 between texel centres
		{"linear-repeat", Sampler{MaxLod: 4, MagFilter: FilterLinear, MinFilter: FilterLinear}, []float32{0, 5, 7.5, 30, 0, 15, 20, 15}},
		{"linear-clamp", Sampler{MaxLod: 4, MagFilter: FilterLinear, MinFilter: FilterLinear, AddressU: AddressClampToEdge}, []float32{0, 5, 7.5, 0, 30, 0, 20, 30}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sm := c.sm
			o, err := sampleRun(t, sample2DSrc, map[BindingKey][]*Image{{0, 0}: {ramp4()}}, map[BindingKey][]*Sampler{{0, 0}: {&sm}})
			if err != nil {
				t.Fatal(err)
			}
			for i, w := range c.want {
				if o[i] != w {
					t.Errorf("level 0 at s=%v: %v, want %v (all %v)", []float32{0.125, 0.25, 0.3125, -0.125, 1.125, 0, 0.625, 1}[i], o[i], w, o[:8])
				}
			}
		})
	}
}

// TestSampleLevels checks level selection (nearest and linear mipmaps,
// MaxLod and bias clamping), offsets, fetch, queries and gather order.
func TestSampleLevels(t *testing.T) {
	sm := Sampler{MaxLod: 4}
	o, err := sampleRun(t, sample2DSrc, map[BindingKey][]*Image{{0, 0}: {ramp4()}}, map[BindingKey][]*Sampler{{0, 0}: {&sm}})
	if err != nil {
		t.Fatal(err)
	}
	// Level 1 (100, 200): s=0.125 -> texel 0; lod 0.5 rounds to level 0
	// with mipmap nearest (ceil(0.5+0.5)-1 = 0).
	if o[8] != 100 || o[14] != 200 || o[16] != 0 {
		t.Errorf("levels: lod 1 %v %v, lod 0.5 %v; want 100 200 0", o[8], o[14], o[16])
	}
	if o[24] != 10 || o[25] != 20 || o[26] != 100 || o[27] != 3 || o[28] != 2 {
		t.Errorf("offset %v fetch %v fetchOffset %v levels %v size %v; want 10 20 100 3 2", o[24], o[25], o[26], o[27], o[28])
	}
	// Gather at s=0.25 (u=1, footprint texels 0 and 1): i0j1 i1j1 i1j0 i0j0.
	if g := o[29:33]; g[0] != 0 || g[1] != 10 || g[2] != 10 || g[3] != 0 {
		t.Errorf("gather %v, want [0 10 10 0]", g)
	}
	sm = Sampler{MaxLod: 4, MipmapMode: MipmapLinear, MagFilter: FilterLinear, MinFilter: FilterLinear}
	if o, err = sampleRun(t, sample2DSrc, map[BindingKey][]*Image{{0, 0}: {ramp4()}}, map[BindingKey][]*Sampler{{0, 0}: {&sm}}); err != nil {
		t.Fatal(err)
	}
	// lod 0.5 at s=0.125: level 0 gives 0, level 1 (u=0.25, clamp-free
	// repeat: texels 1 and 0 weights 0.25/0.75) gives 125; the mean 62.5.
	if o[16] != 62.5 {
		t.Errorf("trilinear: %v, want 62.5", o[16])
	}
	sm = Sampler{MaxLod: 0.25, MipmapMode: MipmapLinear, MipLodBias: 3}
	if o, err = sampleRun(t, sample2DSrc, map[BindingKey][]*Image{{0, 0}: {ramp4()}}, map[BindingKey][]*Sampler{{0, 0}: {&sm}}); err != nil {
		t.Fatal(err)
	}
	// bias 3 then MaxLod 0.25: 3/4 of level 0 and 1/4 of level 1, min filter.
	if want := float32(0.75*0 + 0.25*100); o[0] != want {
		t.Errorf("bias and MaxLod: %v, want %v", o[0], want)
	}
}

const shadowCubeSrc = `#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform sampler2DShadow sh;
layout(set = 0, binding = 1) uniform samplerCube cube;
layout(set = 0, binding = 9) buffer O { float o[]; };
void main() {
	o[0] = textureLod(sh, vec3(0.25, 0.5, 0.5), 0.0);
	o[1] = textureLod(sh, vec3(0.75, 0.5, 0.5), 0.0);
	vec4 g = textureGather(sh, vec2(0.5, 0.5), 0.5);
	o[2] = g.x; o[3] = g.y; o[4] = g.z; o[5] = g.w;
	const vec3 dirs[6] = vec3[](vec3(1, 0.1, 0.2), vec3(-1, 0.1, 0.2), vec3(0.1, 1, 0.2), vec3(0.1, -1, 0.2), vec3(0.1, 0.2, 1), vec3(0.1, 0.2, -1));
	for (int i = 0; i < 6; i++)
		o[6 + i] = textureLod(cube, dirs[i], 0.0).r;
}`

// TestSampleShadowCube checks depth comparison (LessOrEqual: 1 where
// Dref <= D), Dref gather and cube face selection.
func TestSampleShadowCube(t *testing.T) {
	depth := &Image{Format: vkformat.D32f, Width: 2, Height: 1, Data: f32s(0.25, 0.75)}
	faces := &Image{Format: spirv.ImageFormatR32f, Width: 1, Height: 1, Layers: 6, Data: f32s(0, 1, 2, 3, 4, 5)}
	shadow := &Sampler{CompareEnable: true, CompareOp: CompareLessOrEqual}
	o, err := sampleRun(t, shadowCubeSrc, map[BindingKey][]*Image{{0, 0}: {depth}, {0, 1}: {faces}},
		map[BindingKey][]*Sampler{{0, 0}: {shadow}, {0, 1}: {{}}})
	if err != nil {
		t.Fatal(err)
	}
	want := []float32{0, 1, 0, 1, 1, 0, 0, 1, 2, 3, 4, 5}
	for i, w := range want {
		if o[i] != w {
			t.Fatalf("o[%d] = %v, want %v (all %v)", i, o[i], w, o[:12])
		}
	}
}

// TestSampleSeparate samples through a separate texture and sampler, and
// arrays of each, built with OpSampledImage.
func TestSampleSeparate(t *testing.T) {
	src := `#version 450
#extension GL_EXT_samplerless_texture_functions : require
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) uniform texture2D texs[2];
layout(set = 0, binding = 1) uniform sampler smps[2];
layout(set = 0, binding = 9) buffer O { float o[]; };
void main() {
	uint i = gl_LocalInvocationID.x;
	o[i] = textureLod(sampler2D(texs[i & 1], smps[i >> 1]), vec2(-0.125, 0.5), 0.0).r;
	o[4 + i] = float(textureSize(texs[i & 1], 0).x);
}`
	a, b := ramp4(), &Image{Format: spirv.ImageFormatR32f, Width: 2, Height: 1, Data: f32s(7, 8)}
	o, err := sampleRun(t, src, map[BindingKey][]*Image{{0, 0}: {a, b}},
		map[BindingKey][]*Sampler{{0, 1}: {{}, {AddressU: AddressClampToEdge}}})
	if err != nil {
		t.Fatal(err)
	}
	// repeat: the last texel; clamp: the first
	if want := []float32{30, 8, 0, 7, 4, 2, 4, 2}; !equalF32(o[:8], want) {
		t.Errorf("got %v, want %v", o[:8], want)
	}
}

func equalF32(a, b []float32) bool {
	for i := range a {
		if a[i] != b[i] && !(math.IsNaN(float64(a[i])) && math.IsNaN(float64(b[i]))) {
			return false
		}
	}
	return len(a) == len(b)
}

// TestSampleErrors: missing samplers, bad samplers, formats a binding
// cannot hold and undefined combinations are errors or faults, never
// panics.
func TestSampleErrors(t *testing.T) {
	img := map[BindingKey][]*Image{{0, 0}: {ramp4()}}
	cases := []struct {
		name string
		smps map[BindingKey][]*Sampler
		imgs map[BindingKey][]*Image
		want string
	}{
		{"no sampler", nil, img, "sampler of image (set 0, binding 0) is not bound"},
		{"no image", map[BindingKey][]*Sampler{{0, 0}: {{}}}, nil, "image (set 0, binding 0) is not bound"},
		{"lod range", map[BindingKey][]*Sampler{{0, 0}: {{MinLod: 2, MaxLod: 1}}}, img, "minLod must not exceed maxLod"},
		{"enum", map[BindingKey][]*Sampler{{0, 0}: {{AddressV: 9}}}, img, "address mode out of range"},
		{"unnormalized", map[BindingKey][]*Sampler{{0, 0}: {{UnnormalizedCoordinates: true}}}, img, "unnormalizedCoordinates needs"},
		{"compare", map[BindingKey][]*Sampler{{0, 0}: {{CompareEnable: true}}}, img, "sample without comparison with a sampler whose compareEnable is true"},
		{"int format", map[BindingKey][]*Sampler{{0, 0}: {{}}}, map[BindingKey][]*Image{{0, 0}: {{Format: spirv.ImageFormatR32ui, Width: 4, Height: 1, Levels: 3, Data: make([]byte, 28)}}}, "does not hold them"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := sampleRun(t, sample2DSrc, c.imgs, c.smps)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}

// TestSampleImplicitLod: under derivative groups, texture() takes its LOD
// from the quad's coordinate differences. Coordinates stepping by 2
// texels of level 0 per invocation give LOD 1, by 4 give LOD 2 (a 8x8
// image whose level k texels all hold k); textureQueryLod reports it.
func TestSampleImplicitLod(t *testing.T) {
	src := `#version 450
#extension GL_NV_compute_shader_derivatives : require
layout(local_size_x = 4, local_size_y = 2) in;
layout(derivative_group_quadsNV) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 9) buffer O { float o[]; };
void main() {
	uint i = gl_LocalInvocationIndex;
	vec2 p = vec2(gl_LocalInvocationID.xy) / 8.0;
	o[i] = texture(tex, p * 2.0).r;
	o[8 + i] = texture(tex, p * 4.0).r;
	o[16 + i] = textureQueryLod(tex, p * 4.0).y;
	o[24 + i] = texture(tex, p * 2.0, 1.0).r;
}`
	img := &Image{Format: spirv.ImageFormatR32f, Width: 8, Height: 8, Levels: 4}
	for lv, n := range []int{64, 16, 4, 1} {
		for range n {
			img.Data = append(img.Data, f32s(float32(lv))...)
		}
	}
	o, err := sampleRun(t, src, map[BindingKey][]*Image{{0, 0}: {img}}, map[BindingKey][]*Sampler{{0, 0}: {{MaxLod: 1000}}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 8 {
		if o[i] != 1 || o[8+i] != 2 || o[16+i] != 2 || o[24+i] != 2 {
			t.Fatalf("invocation %d: lod-1 %v, lod-2 %v, query %v, biased %v; want 1 2 2 2", i, o[i], o[8+i], o[16+i], o[24+i])
		}
	}
}

// TestSampleCubeFaults: a cube whose faces are not square is a fault,
// not an out-of-range read; a gather of a 3D image does not compile.
func TestSampleCubeFaults(t *testing.T) {
	src := `#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform samplerCube tex;
layout(set = 0, binding = 9) buffer O { vec4 o[]; };
void main() { o[0] = textureLod(tex, vec3(0.3, -1.0, 0.9), 0.0); }`
	img := &Image{Format: spirv.ImageFormatR32f, Width: 4, Height: 2, Layers: 6, Data: make([]byte, 4*2*6*4)}
	_, err := sampleRun(t, src, map[BindingKey][]*Image{{0, 0}: {img}}, map[BindingKey][]*Sampler{{0, 0}: {{MagFilter: FilterLinear, MinFilter: FilterLinear}}})
	if err == nil || !strings.Contains(err.Error(), "cube sampling of an image of 4x2 texels and 6 layers") {
		t.Errorf("non-square cube: %v", err)
	}
	m := assemble(t, `OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %tex DescriptorSet 0
OpDecorate %tex Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%f32 = OpTypeFloat 32
%i32 = OpTypeInt 32 1
%v3 = OpTypeVector %f32 3
%v4 = OpTypeVector %f32 4
%img = OpTypeImage %f32 3D 0 0 0 1 Unknown
%si = OpTypeSampledImage %img
%ptr = OpTypePointer UniformConstant %si
%tex = OpVariable %ptr UniformConstant
%zero = OpConstant %f32 0
%c0 = OpConstant %i32 0
%p = OpConstantComposite %v3 %zero %zero %zero
%main = OpFunction %void None %fn
%e = OpLabel
%s = OpLoad %si %tex
%g = OpImageGather %v4 %s %p %c0
OpReturn
OpFunctionEnd
`)
	if _, err := Compile(m, "", Options{}); err == nil || !strings.Contains(err.Error(), "a gather needs a 2D, Cube or Rect image, not Dim 3D") {
		t.Errorf("3D gather: %v", err)
	}
}

// TestSampleProj: projective sampling divides the coordinates (and Dref)
// by q: textureProjLod at (s*q, t*q, q) is textureLod at (s, t) (undivided,
// s would clamp to texel 3, 30, and the Dref 1 would fail Less).
func TestSampleProj(t *testing.T) {
	src := `#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) uniform sampler2DShadow sh;
layout(set = 0, binding = 9) buffer O { float o[]; };
void main() {
	o[0] = textureProjLod(tex, vec3(0.625 * 4.0, 0.5 * 4.0, 4.0), 0.0).r;
	o[1] = textureLod(tex, vec2(0.625, 0.5), 0.0).r;
	o[2] = textureProjLod(sh, vec4(0.75 * 2.0, 0.5 * 2.0, 0.5 * 2.0, 2.0), 0.0);
}`
	depth := &Image{Format: vkformat.D16, Width: 2, Height: 1, Data: []byte{0, 0, 0xff, 0xff}}
	o, err := sampleRun(t, src, map[BindingKey][]*Image{{0, 0}: {ramp4()}, {0, 1}: {depth}},
		map[BindingKey][]*Sampler{{0, 0}: {{AddressU: AddressClampToEdge}}, {0, 1}: {{CompareEnable: true, CompareOp: CompareLess}}})
	if err != nil {
		t.Fatal(err)
	}
	if o[0] != 20 || o[1] != 20 || o[2] != 1 {
		t.Errorf("proj %v, plain %v, proj Dref %v; want 20 20 1", o[0], o[1], o[2])
	}
}

// TestSampleCombinedArray samples an array of combined image samplers,
// each element its own image and sampler.
func TestSampleCombinedArray(t *testing.T) {
	src := `#version 450
#extension GL_EXT_nonuniform_qualifier : require
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) uniform sampler2D texs[2];
layout(set = 0, binding = 9) buffer O { float o[]; };
void main() {
	uint i = gl_LocalInvocationID.x;
	o[i] = textureLod(texs[nonuniformEXT(i & 1)], vec2(-0.125, 0.5), 0.0).r;
}`
	a, b := ramp4(), &Image{Format: spirv.ImageFormatR32f, Width: 2, Height: 1, Data: f32s(7, 8)}
	o, err := sampleRun(t, src, map[BindingKey][]*Image{{0, 0}: {a, b}},
		map[BindingKey][]*Sampler{{0, 0}: {{}, {AddressU: AddressClampToEdge}}})
	if err != nil {
		t.Fatal(err)
	}
	if want := []float32{30, 7, 30, 7}; !equalF32(o[:4], want) {
		t.Errorf("got %v, want %v", o[:4], want)
	}
}
