package vkref

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"spvx/internal/vkformat"
	"spvx/interp"
	"spvx/spirv"
)

// Storage images and texel buffers on lavapipe and spvx: shaders load,
// store, query and do atomics on images of many formats, dimensionalities
// and arrays; both engines must leave the same bytes in every image and
// buffer. A format lavapipe cannot use for the descriptor is skipped with
// its name.

// glslFormats are the GLSL layout qualifiers of the formats tested.
var glslFormats = map[spirv.ImageFormat]string{
	spirv.ImageFormatRgba32f: "rgba32f", spirv.ImageFormatRgba16f: "rgba16f", spirv.ImageFormatRg16f: "rg16f",
	spirv.ImageFormatR32f: "r32f", spirv.ImageFormatR16f: "r16f", spirv.ImageFormatR11fG11fB10f: "r11f_g11f_b10f",
	spirv.ImageFormatRgba8: "rgba8", spirv.ImageFormatRgba8Snorm: "rgba8_snorm", spirv.ImageFormatRgba16: "rgba16",
	spirv.ImageFormatRgba16Snorm: "rgba16_snorm", spirv.ImageFormatRgb10A2: "rgb10_a2", spirv.ImageFormatR8: "r8",
	spirv.ImageFormatRg8Snorm: "rg8_snorm", spirv.ImageFormatR16: "r16", spirv.ImageFormatRg16Snorm: "rg16_snorm",
	spirv.ImageFormatRgba8ui: "rgba8ui", spirv.ImageFormatRgba8i: "rgba8i", spirv.ImageFormatRgba16i: "rgba16i",
	spirv.ImageFormatR32ui: "r32ui", spirv.ImageFormatR32i: "r32i", spirv.ImageFormatRgb10a2ui: "rgb10_a2ui",
	spirv.ImageFormatRg16ui: "rg16ui", spirv.ImageFormatRgba32i: "rgba32i", spirv.ImageFormatR8i: "r8i",
}

// texels makes n texels of format f: any bits for the normalized and
// integer formats, for the float ones finite multiples of 1/64 in [-4, 4]
// (Vulkan leaves NaN payloads and denormals to the implementation), so
// that sums and small multiples of them stay exact in float16.
func texels(f *vkformat.Info, n int, rng *rand.Rand) []byte {
	b := make([]byte, n*f.Size)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	if f.Kind == vkformat.Float {
		for i := range n {
			var v [4]float64
			for k := range v {
				v[k] = float64(int(rng.IntN(512))-256) / 64
			}
			f.EncodeFloat(b[i*f.Size:], v)
		}
	}
	return b
}

// runImages runs job on lavapipe and on spvx (subgroup sizes 8 and 32)
// and compares every descriptor's bytes; binding ulps (-1: none) holds
// float32 values compared within 1 ULP.
func runImages(t *testing.T, d *Driver, job *Job, ulps int) {
	t.Helper()
	want, err := d.Run(job)
	if errors.Is(err, ErrUnsupportedFormat) {
		t.Skipf("lavapipe: %v", err)
	}
	if err != nil {
		t.Fatalf("lavapipe: %v", err)
	}
	for _, S := range []int{8, 32} {
		got, err := RunSPVX(job, interp.Options{SubgroupSize: S})
		if err != nil {
			t.Fatalf("spvx: %v", err)
		}
		for i := range want {
			if int(job.Buffers[i].Binding) == ulps {
				if msg := within1ULP(got[i], want[i]); msg != "" {
					t.Errorf("subgroup size %d, binding %d: %s", S, ulps, msg)
				}
				continue
			}
			if !bytes.Equal(got[i], want[i]) {
				t.Errorf("subgroup size %d, binding %d: spvx and lavapipe differ\n%s", S, job.Buffers[i].Binding, firstDiff(got[i], want[i]))
			}
		}
	}
}

func firstDiff(got, want []byte) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			lo, hi := i&^15, min(i&^15+16, len(got), len(want))
			return fmt.Sprintf("at byte %d: spvx % x, lavapipe % x", i, got[lo:hi], want[lo:hi])
		}
	}
	return fmt.Sprintf("lengths %d and %d", len(got), len(want))
}

// TestImageFormats loads a 2D image of each format, writes what it read
// to a buffer, and stores a transformed texel into a second image.
func TestImageFormats(t *testing.T) {
	d, err := New(Lavapipe)
	if err != nil {
		t.Skip(err)
	}
	const w, h = 8, 4
	for _, f := range vkformat.Formats() {
		q, ok := glslFormats[f]
		if !ok {
			continue
		}
		t.Run(vkformat.Name(f), func(t *testing.T) {
			info, _ := vkformat.Lookup(f)
			// Stores are of values every rounding gives alike: lavapipe
			// rounds float16 and the 11/10-bit floats toward zero (the spec
			// lets it), spvx to nearest even.
			prefix, vec, op := "", "vec4", "v * vec4(2.0, -0.5, 4.0, 0.25)"
			ulps := -1
			switch info.Kind {
			case vkformat.UNorm, vkformat.SNorm:
				// lavapipe's c * (1/255.0) may be an ULP off spvx's correctly
				// rounded c / 255, within Vulkan's division precision; the
				// swizzled store of what was read encodes back exactly.
				op, ulps = "v.wzyx", 2
			case vkformat.UInt:
				prefix, vec, op = "u", "uvec4", "v ^ (v >> 1u)"
			case vkformat.SInt:
				prefix, vec, op = "i", "ivec4", "v ^ (v >> 1)"
			}
			src := fmt.Sprintf(`#version 450
layout(local_size_x = %d, local_size_y = %d) in;
layout(binding = 0, %s) uniform readonly %simage2D src;
layout(binding = 1, %s) uniform writeonly %simage2D dst;
layout(binding = 2) buffer O { %s o[]; };
void main() {
	ivec2 p = ivec2(gl_GlobalInvocationID.xy);
	%s v = imageLoad(src, p);
	o[p.y * %d + p.x] = v;
	imageStore(dst, p, %s);
}
`, w, h, q, prefix, q, prefix, vec, vec, w, op)
			rng := rand.New(rand.NewPCG(uint64(f), 1))
			img := &Image{Kind: interp.StorageImage, Format: f, Dim: spirv.Dim2D, Width: w, Height: h}
			runImages(t, d, &Job{SPIRV: compileGLSL(t, src), Entry: "main", Groups: [3]uint32{1, 1, 1}, Buffers: []Buffer{
				{Binding: 0, Image: img, Data: texels(&info, w*h, rng)},
				{Binding: 1, Image: img, Data: make([]byte, w*h*info.Size)},
				{Binding: 2, Data: make([]byte, w*h*16)},
			}}, ulps)
		})
	}
}

// TestImageKinds: atomics on R32ui and R32i texels, 1D arrays, 3D
// images, cube arrays, storage and uniform texel buffers, and the size
// queries of each.
func TestImageKinds(t *testing.T) {
	d, err := New(Lavapipe)
	if err != nil {
		t.Skip(err)
	}
	src := `#version 450
#extension GL_EXT_samplerless_texture_functions : require
layout(local_size_x = 64) in;
layout(binding = 0, r32ui) uniform uimage2D cnt;
layout(binding = 1, r32i) uniform iimage1DArray mins;
layout(binding = 2, rgba16f) uniform image3D vol;
layout(binding = 3, rgba8) uniform imageCubeArray cubes;
layout(binding = 4, r32f) uniform imageBuffer tb;
layout(binding = 5) uniform textureBuffer utb;
layout(binding = 6) buffer O { int o[]; };
void main() {
	uint i = gl_GlobalInvocationID.x;
	imageAtomicAdd(cnt, ivec2(i % 3u, i % 2u), i * 3u);
	imageAtomicOr(cnt, ivec2(3, 0), 1u << (i % 32u));
	imageAtomicXor(cnt, ivec2(3, 1), i * 0x01010101u);
	imageAtomicMin(mins, ivec2(i % 4u, i % 2u), int(i) - 30);
	imageAtomicMax(mins, ivec2(i % 4u, 2), int(i * 7u % 50u) - 25);
	if (i < 16u) {
		ivec3 q = ivec3(i % 4u, i / 4u % 2u, i / 8u);
		imageStore(vol, q, imageLoad(vol, q) * 2.0 + vec4(float(i), 0.5, -1.0, 0.0));
	}
	if (i < 24u) // faces 6..11 from faces 5..0
		imageStore(cubes, ivec3(i % 2u, i / 2u % 2u, 6u + i / 4u), imageLoad(cubes, ivec3(1u - i % 2u, i / 2u % 2u, 5u - i / 4u)).wzyx);
	imageStore(tb, int(i), vec4(texelFetch(utb, int(i) + 1).w));
	if (i == 0u) {
		o[0] = imageSize(cnt).x; o[1] = imageSize(mins).y; o[2] = imageSize(vol).z;
		ivec3 c = imageSize(cubes);
		o[3] = c.x; o[4] = c.z; o[5] = imageSize(tb); o[6] = textureSize(utb);
	}
}
`
	rng := rand.New(rand.NewPCG(5, 6))
	f16, _ := vkformat.Lookup(spirv.ImageFormatRgba16f)
	rgba8, _ := vkformat.Lookup(spirv.ImageFormatRgba8)
	r32f, _ := vkformat.Lookup(spirv.ImageFormatR32f)
	job := &Job{SPIRV: compileGLSL(t, src), Entry: "main", Groups: [3]uint32{2, 1, 1}, Buffers: []Buffer{
		{Binding: 0, Image: &Image{Kind: interp.StorageImage, Format: spirv.ImageFormatR32ui, Dim: spirv.Dim2D, Width: 4, Height: 2}, Data: texels(&r32f, 8, rng)},
		{Binding: 1, Image: &Image{Kind: interp.StorageImage, Format: spirv.ImageFormatR32i, Dim: spirv.Dim1D, Arrayed: true, Width: 4, Layers: 3}, Data: make([]byte, 48)},
		{Binding: 2, Image: &Image{Kind: interp.StorageImage, Format: spirv.ImageFormatRgba16f, Dim: spirv.Dim3D, Width: 4, Height: 2, Depth: 2}, Data: texels(&f16, 16, rng)},
		{Binding: 3, Image: &Image{Kind: interp.StorageImage, Format: spirv.ImageFormatRgba8, Dim: spirv.DimCube, Arrayed: true, Width: 2, Height: 2, Layers: 12}, Data: texels(&rgba8, 48, rng)},
		{Binding: 4, Image: &Image{Kind: interp.StorageTexelBuffer, Format: spirv.ImageFormatR32f, Width: 128}, Data: make([]byte, 4*128)},
		{Binding: 5, Image: &Image{Kind: interp.UniformTexelBuffer, Format: spirv.ImageFormatRgba8, Width: 130}, Data: texels(&rgba8, 130, rng)},
		{Binding: 6, Data: make([]byte, 4*8)},
	}}
	runImages(t, d, job, 4) // the texel buffer holds decoded UNORM values
	out, err := RunSPVX(job, interp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var sizes [7]int32
	binary.Read(bytes.NewReader(out[6]), binary.LittleEndian, &sizes)
	if sizes != [7]int32{4, 3, 2, 2, 2, 128, 130} {
		t.Errorf("sizes %v, want 4 3 2 2 2 128 130", sizes)
	}
}

// within1ULP compares float32 arrays: "" when every value is within one
// ULP (same sign), else where they differ.
func within1ULP(got, want []byte) string {
	for i := 0; i+4 <= min(len(got), len(want)); i += 4 {
		g, w := binary.LittleEndian.Uint32(got[i:]), binary.LittleEndian.Uint32(want[i:])
		if d := int64(g) - int64(w); d > 1 || d < -1 {
			return fmt.Sprintf("float %d: spvx %#x, lavapipe %#x", i/4, g, w)
		}
	}
	return ""
}

// TestImageNormStores stores chosen floats into the normalized formats:
// exact midpoints between two codes (127.5/255 and the like), values
// beside them, the ends and beyond, and random ones; lavapipe and spvx
// must write the same codes.
func TestImageNormStores(t *testing.T) {
	d, err := New(Lavapipe)
	if err != nil {
		t.Skip(err)
	}
	const n = 64
	rng := rand.New(rand.NewPCG(9, 9))
	vals := []float32{0, -0.0, 1, -1, 2, -2, 0.5, -0.5, 0.25, 1.0 / 3, -1.0 / 3, 127.5 / 255, 63.5 / 127, -63.5 / 127,
		32767.5 / 65535, 511.5 / 1023, 1.5 / 3, 1e-30, -1e-30}
	for len(vals) < n {
		vals = append(vals, rng.Float32()*2.5-1.25)
	}
	in := make([]byte, 4*n)
	for i, v := range vals {
		binary.LittleEndian.PutUint32(in[4*i:], math.Float32bits(v))
	}
	for _, f := range []spirv.ImageFormat{spirv.ImageFormatRgba8, spirv.ImageFormatRgba8Snorm, spirv.ImageFormatRgba16,
		spirv.ImageFormatRgba16Snorm, spirv.ImageFormatRgb10A2, spirv.ImageFormatR8, spirv.ImageFormatRg16Snorm} {
		t.Run(vkformat.Name(f), func(t *testing.T) {
			info, _ := vkformat.Lookup(f)
			src := fmt.Sprintf(`#version 450
layout(local_size_x = %d) in;
layout(binding = 0) buffer I { float v[]; };
layout(binding = 1, %s) uniform writeonly image1D dst;
void main() {
	int i = int(gl_GlobalInvocationID.x);
	float x = v[i];
	imageStore(dst, i, vec4(x, -x, x, x));
}
`, n, glslFormats[f])
			runImages(t, d, &Job{SPIRV: compileGLSL(t, src), Entry: "main", Groups: [3]uint32{1, 1, 1}, Buffers: []Buffer{
				{Binding: 0, Data: in},
				{Binding: 1, Image: &Image{Kind: interp.StorageImage, Format: f, Dim: spirv.Dim1D, Width: n}, Data: make([]byte, n*info.Size)},
			}}, -1)
		})
	}
}

// TestImageFormatless reads and writes images declared without a format
// (shaderStorageImageReadWithoutFormat and WriteWithoutFormat): the
// descriptor's format decides the conversion on both engines.
func TestImageFormatless(t *testing.T) {
	d, err := New(Lavapipe)
	if err != nil {
		t.Skip(err)
	}
	src := compileGLSL(t, `#version 450
#extension GL_EXT_shader_image_load_formatted : require
layout(local_size_x = 4, local_size_y = 4) in;
layout(binding = 0) uniform image2D img;
layout(binding = 1) buffer O { vec4 o[]; };
void main() {
	ivec2 p = ivec2(gl_GlobalInvocationID.xy);
	vec4 v = imageLoad(img, p);
	o[p.y * 4 + p.x] = v;
	imageStore(img, p, v.yxwz * 2.0);
}
`)
	rng := rand.New(rand.NewPCG(3, 4))
	for _, f := range []spirv.ImageFormat{spirv.ImageFormatRgba16f, spirv.ImageFormatR32f, spirv.ImageFormatRg16f, spirv.ImageFormatRgba32f} {
		t.Run(vkformat.Name(f), func(t *testing.T) {
			info, _ := vkformat.Lookup(f)
			runImages(t, d, &Job{SPIRV: src, Entry: "main", Groups: [3]uint32{1, 1, 1}, Buffers: []Buffer{
				{Binding: 0, Image: &Image{Kind: interp.StorageImage, Format: f, Dim: spirv.Dim2D, Width: 4, Height: 4}, Data: texels(&info, 16, rng)},
				{Binding: 1, Data: make([]byte, 16*16)},
			}}, -1)
		})
	}
}
