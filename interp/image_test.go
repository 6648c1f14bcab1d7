package interp

import (
	"context"
	"encoding/binary"
	"errors"
	"regexp"
	"sort"
	"strings"
	"testing"

	"spvx/dis"
	"spvx/internal/vkformat"
	"spvx/spirv"
)

// dispatchImages compiles m and dispatches groups with images and buffers.
func dispatchImages(t *testing.T, m *spirv.Module, opts Options, groups [3]uint32, imgs map[BindingKey][]*Image, bufs map[BindingKey][]byte) error {
	t.Helper()
	p, err := Compile(m, "", opts)
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	res := &Resources{Buffers: map[BindingKey][]*Buffer{}, Images: imgs}
	for k, b := range bufs {
		res.Buffers[k] = []*Buffer{{Data: b}}
	}
	return p.Dispatch(context.Background(), groups[0], groups[1], groups[2], res)
}

const image2DSrc = `#version 450
layout(local_size_x = 4, local_size_y = 4) in;
layout(set = 0, binding = 0, rgba8) readonly uniform image2D src;
layout(set = 0, binding = 1, rgba32f) writeonly uniform image2D dst;
layout(set = 0, binding = 2, r32ui) uniform uimage2D counter;
layout(set = 0, binding = 3) buffer B { ivec4 size; uint old[]; };
void main() {
	ivec2 p = ivec2(gl_GlobalInvocationID.xy);
	imageStore(dst, p, imageLoad(src, p) * 2.0);
	old[gl_LocalInvocationIndex + 16 * gl_WorkGroupID.x] = imageAtomicAdd(counter, ivec2(1, 0), 1u);
	if (p == ivec2(0))
		size = ivec4(imageSize(src), imageSize(dst));
}`

// TestImage2D reads an Rgba8 image, writes an Rgba32f one, counts with
// imageAtomicAdd on an R32ui texel and queries sizes.
func TestImage2D(t *testing.T) {
	m := glsl(t, image2DSrc, "")
	forEach(t, func(t *testing.T, opts Options) {
		src := &Image{Format: spirv.ImageFormatRgba8, Width: 8, Height: 4, Data: make([]byte, 8*4*4)}
		for i := range src.Data {
			src.Data[i] = byte(i * 37)
		}
		dst := &Image{Format: spirv.ImageFormatRgba32f, Width: 8, Height: 4, Data: make([]byte, 8*4*16)}
		counter := &Image{Format: spirv.ImageFormatR32ui, Width: 2, Height: 1, Data: make([]byte, 8)}
		buf := make([]byte, 16+4*32)
		err := dispatchImages(t, m, opts, [3]uint32{2, 1, 1}, map[BindingKey][]*Image{
			{0, 0}: {src}, {0, 1}: {dst}, {0, 2}: {counter}}, map[BindingKey][]byte{{0, 3}: buf})
		if err != nil {
			t.Fatal(err)
		}
		for i := range src.Data {
			want := float32(float64(src.Data[i])/255) * 2
			if got := getF32(dst.Data, i); got != want {
				t.Fatalf("component %d: %v, want %v", i, got, want)
			}
		}
		if got := getU32(counter.Data, 1); got != 32 || getU32(counter.Data, 0) != 0 {
			t.Errorf("counter texels %d, %d, want 0, 32", getU32(counter.Data, 0), got)
		}
		var olds []int
		for i := range 32 {
			olds = append(olds, int(getU32(buf, 4+i)))
		}
		sort.Ints(olds)
		for i, o := range olds {
			if o != i {
				t.Fatalf("imageAtomicAdd returned %v, want a permutation of 0..31", olds)
			}
		}
		if got := [4]uint32{getU32(buf, 0), getU32(buf, 1), getU32(buf, 2), getU32(buf, 3)}; got != [4]uint32{8, 4, 8, 4} {
			t.Errorf("sizes %v", got)
		}
	})
}

// TestTexelBuffers fetches from a uniform texel buffer (format from the
// Image), writes an R16i storage texel buffer (truncating) and an
// Rgba8Snorm 1D array image.
func TestTexelBuffers(t *testing.T) {
	m := glsl(t, `#version 450
#extension GL_EXT_samplerless_texture_functions : require
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) uniform utextureBuffer tb;
layout(set = 0, binding = 1, r16i) uniform iimageBuffer ib;
layout(set = 0, binding = 2, rgba8_snorm) writeonly uniform image1DArray sn;
layout(set = 0, binding = 3) buffer B { int n; int layers; };
void main() {
	int i = int(gl_GlobalInvocationID.x);
	uvec4 u = texelFetch(tb, i);
	imageStore(ib, i, ivec4(int(u.x) - 40000 + int(u.w)));
	imageStore(sn, ivec2(i % 4, i / 4), vec4(-1.0, -0.5, 0.25, float(i) - 2.0));
	if (i == 0) {
		n = imageSize(ib) + textureSize(tb);
		layers = imageSize(sn).y;
	}
}`, "")
	tb := &Image{Format: spirv.ImageFormatR16ui, Width: 8, Data: make([]byte, 16)}
	for i := range 8 {
		binary.LittleEndian.PutUint16(tb.Data[2*i:], uint16(1000*i+7))
	}
	ib := &Image{Format: spirv.ImageFormatR16i, Width: 8, Data: make([]byte, 16)}
	sn := &Image{Format: spirv.ImageFormatRgba8Snorm, Width: 4, Layers: 2, Data: make([]byte, 32)}
	buf := make([]byte, 8)
	if err := dispatchImages(t, m, Options{}, [3]uint32{1, 1, 1}, map[BindingKey][]*Image{{0, 0}: {tb}, {0, 1}: {ib}, {0, 2}: {sn}},
		map[BindingKey][]byte{{0, 3}: buf}); err != nil {
		t.Fatal(err)
	}
	for i := range 8 {
		want := int16(uint16(1000*i + 7 - 40000 + 1)) // alpha of R16ui reads 1; the low 16 bits are kept
		if got := int16(binary.LittleEndian.Uint16(ib.Data[2*i:])); got != want {
			t.Errorf("ib[%d] = %d, want %d", i, got, want)
		}
		// -1 -> -127, -0.5 -> -63.5 -> -64 (ties to even), 0.25 -> 31.75 -> 32, i-2 clamped
		a := int8(max(min(i-2, 1), -1) * 127)
		if got, want := string(sn.Data[4*i:4*i+4]), string([]byte{0x81, 0xc0, 32, byte(a)}); got != want {
			t.Errorf("sn texel %d = % x, want % x", i, got, want)
		}
	}
	if getU32(buf, 0) != 16 || getU32(buf, 1) != 2 {
		t.Errorf("sizes %d, %d, want 16, 2", getU32(buf, 0), getU32(buf, 1))
	}
}

// TestImageArrays3D writes through an array of 3D image descriptors,
// with a level given by Lod-less queries of each level count.
func TestImageArrays3D(t *testing.T) {
	m := glsl(t, `#version 450
layout(local_size_x = 2, local_size_y = 2, local_size_z = 2) in;
layout(set = 0, binding = 0, r32f) uniform image3D imgs[2];
layout(set = 1, binding = 0, rgba16f) uniform imageCubeArray cubes;
layout(set = 0, binding = 1) buffer B { ivec4 size; };
void main() {
	ivec3 p = ivec3(gl_LocalInvocationID);
	uint w = gl_WorkGroupID.x;
	imageStore(imgs[w], p, vec4(imageLoad(imgs[1 - w], p).x + float(p.x + 2 * p.y + 4 * p.z)));
	imageStore(cubes, ivec3(p.xy, 6 + p.z), vec4(0.5, -2.0, 65504.0, 1e6));
	if (p == ivec3(0) && w == 0)
		size = ivec4(imageSize(cubes), imageSize(imgs[1]).z);
}`, "")
	mk := func(v float32) *Image {
		return &Image{Format: spirv.ImageFormatR32f, Width: 2, Height: 2, Depth: 2, Data: f32s(v, v, v, v, v, v, v, v)}
	}
	imgs := []*Image{mk(10), mk(100)}
	cubes := &Image{Format: spirv.ImageFormatRgba16f, Width: 2, Height: 2, Layers: 12, Data: make([]byte, 2*2*12*8)}
	buf := make([]byte, 16)
	// one workgroup at a time: each reads the other's image
	if err := dispatchImages(t, m, Options{Parallelism: 1}, [3]uint32{1, 1, 1}, map[BindingKey][]*Image{{0, 0}: imgs, {1, 0}: {cubes}},
		map[BindingKey][]byte{{0, 1}: buf}); err != nil {
		t.Fatal(err)
	}
	for i := range 8 {
		if got, want := getF32(imgs[0].Data, i), float32(100+i); got != want {
			t.Errorf("imgs[0][%d] = %v, want %v", i, got, want)
		}
	}
	if got := [4]uint32{getU32(buf, 0), getU32(buf, 1), getU32(buf, 2), getU32(buf, 3)}; got != [4]uint32{2, 2, 2, 2} {
		t.Errorf("sizes %v, want 2 2 2 (cubes) 2", got)
	}
	face := cubes.Data[6*2*2*8:]
	for i := range 8 { // faces 6 and 7: the second cube's +X and -X
		if got := string(face[8*i : 8*i+8]); got != "\x00\x38\x00\xc0\xff\x7b\x00\x7c" {
			t.Errorf("cube texel %d = % x", i, got)
		}
	}
	if cubes.Data[0] != 0 || cubes.Data[6*32-1] != 0 {
		t.Error("the first cube was written")
	}
}

const oobSrc = `#version 450
layout(local_size_x = 4) in;
layout(set = 0, binding = 0, r32ui) uniform uimage2D img;
layout(set = 0, binding = 1) buffer B { uint v[]; };
void main() {
	int i = int(gl_GlobalInvocationID.x);
	v[i] = imageLoad(img, ivec2(i, 1)).x + 1;
	imageStore(img, ivec2(i + 1, 0), uvec4(9));
}`

// TestImageOutOfBounds: without robustImageAccess an access outside the
// image is a fault naming it; with it reads give 0 and writes vanish.
func TestImageOutOfBounds(t *testing.T) {
	m := glsl(t, oobSrc, "")
	for _, robust := range []bool{false, true} {
		img := &Image{Format: spirv.ImageFormatR32ui, Width: 3, Height: 2, Data: u32s(1, 2, 3, 4, 5, 6)}
		buf := make([]byte, 16)
		err := dispatchImages(t, m, Options{RobustImageAccess: robust}, [3]uint32{1, 1, 1}, map[BindingKey][]*Image{{0, 0}: {img}}, map[BindingKey][]byte{{0, 1}: buf})
		if !robust {
			var f *Fault
			if !errors.As(err, &f) || f.Kind != FaultOutOfBounds || f.Lane != 3 || !strings.Contains(f.Msg, "image (set 0, binding 0)") || !strings.Contains(f.Inst, "OpImageRead") {
				t.Fatalf("err = %v, want an out-of-bounds fault of lane 3's OpImageRead", err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if got := [4]uint32{getU32(buf, 0), getU32(buf, 1), getU32(buf, 2), getU32(buf, 3)}; got != [4]uint32{5, 6, 7, 1} {
			t.Errorf("reads %v, want 5 6 7 1", got)
		}
		if got := [6]uint32{getU32(img.Data, 0), getU32(img.Data, 1), getU32(img.Data, 2), getU32(img.Data, 3)}; got != [6]uint32{1, 9, 9, 4} {
			t.Errorf("image %v, want 1 9 9 4", got)
		}
	}
}

// TestImageFormatless reads and writes an image without a declared
// format (StorageImageReadWithoutFormat): the Image's format decides.
func TestImageFormatless(t *testing.T) {
	m := glsl(t, `#version 450
#extension GL_EXT_shader_image_load_formatted : require
layout(local_size_x = 2) in;
layout(set = 0, binding = 0) uniform image2D img;
void main() {
	ivec2 p = ivec2(gl_GlobalInvocationID.x, 0);
	imageStore(img, p, imageLoad(img, p) * 3.0);
}`, "")
	for _, tc := range []struct {
		f    spirv.ImageFormat
		in   []byte
		want string
	}{
		// (1, 1, 1) * 3: 1.5 * 2^1 is exponent 16 and half the mantissa; +Inf stays
		{spirv.ImageFormatR11fG11fB10f, u32s(0x3c0|0x3c0<<11|0x1e0<<22, 0x7c0), "\x20\x04\x21\x84\xc0\x07\x00\x00"},
		// 0x4000/65535*3 = 0xc000/65535; 1*3 clamps; (1/3 in float32)*3 = 1
		{spirv.ImageFormatRg16, []byte{0, 0x40, 0xff, 0xff, 0x55, 0x55, 1, 0}, "\x00\xc0\xff\xff\xff\xff\x03\x00"},
	} {
		img := &Image{Format: tc.f, Width: 2, Height: 1, Data: tc.in}
		if err := dispatchImages(t, m, Options{}, [3]uint32{1, 1, 1}, map[BindingKey][]*Image{{0, 0}: {img}}, nil); err != nil {
			t.Fatal(err)
		}
		if string(img.Data) != tc.want {
			t.Errorf("%v: % x, want % x", tc.f, img.Data, tc.want)
		}
	}
}

// TestImageBindErrors: images that do not fit their declaration are
// dispatch errors; a missing one is a missing-resource fault.
func TestImageBindErrors(t *testing.T) {
	m := glsl(t, oobSrc, "")
	for _, tc := range []struct {
		img  *Image
		want string
	}{
		{&Image{Format: spirv.ImageFormatR32f, Width: 4, Height: 2, Data: make([]byte, 32)}, "format is R32f, the shader declares R32ui"},
		{&Image{Format: spirv.ImageFormatR32ui, Width: 4, Height: 2, Data: make([]byte, 31)}, "31 bytes of data are too few"},
		{&Image{Format: spirv.ImageFormatR32ui, Width: 4, Height: 2, Depth: 2, Data: make([]byte, 64)}, "no height or depth"},
		{&Image{Format: spirv.ImageFormatR32ui, Width: 4, Height: 2, Levels: 4, Data: make([]byte, 64)}, "4 levels are too many"},
		{&Image{Format: spirv.ImageFormatR32ui, Width: 1 << 40, Height: 1 << 40, Data: make([]byte, 64)}, "too few"},
		{&Image{Format: spirv.ImageFormatUnknown, Width: 4, Data: make([]byte, 64)}, "format Unknown is no image format"},
		{&Image{Format: vkformat.Srgba8, Width: 4, Data: make([]byte, 64)}, "format Srgba8 is for sampled images, the binding is a StorageImage"},
	} {
		err := dispatchImages(t, m, Options{}, [3]uint32{1, 1, 1}, map[BindingKey][]*Image{{0, 0}: {tc.img}}, map[BindingKey][]byte{{0, 1}: make([]byte, 16)})
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "image (set 0, binding 0)") {
			t.Errorf("err = %v, want %q", err, tc.want)
		}
	}
	err := dispatchImages(t, m, Options{}, [3]uint32{1, 1, 1}, nil, map[BindingKey][]byte{{0, 1}: make([]byte, 16)})
	var f *Fault
	if !errors.As(err, &f) || f.Kind != FaultMissingResource {
		t.Errorf("err = %v, want a missing resource", err)
	}
	p, _ := Compile(m, "", Options{})
	if b := p.Bindings(); len(b) != 2 || b[0].Kind != StorageImage {
		t.Errorf("bindings %+v", b)
	}
}

// TestImageAtomicsLod: 64-bit and float image atomics, compare-exchange,
// and reads and writes of a mip level (ImageReadWriteLodAMD), whose
// texels follow level 0's in Data.
func TestImageAtomicsLod(t *testing.T) {
	m := glsl(t, `#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_image_int64 : require
#extension GL_EXT_shader_atomic_float : require
#extension GL_AMD_shader_image_load_store_lod : require
layout(local_size_x = 16) in;
layout(set = 0, binding = 0, r64ui) uniform u64image1D big;
layout(set = 0, binding = 1, r32f) uniform image2D fl;
layout(set = 0, binding = 2, r32ui) uniform uimage2D mip;
layout(set = 0, binding = 3) buffer B { uint swapped; };
void main() {
	uint i = gl_LocalInvocationIndex;
	imageAtomicAdd(big, 1, uint64_t(i) << 30);
	imageAtomicAdd(fl, ivec2(0, 1), 0.25);
	if (imageAtomicCompSwap(mip, ivec2(0, 0), 0u, 100u + i) == 0u)
		swapped = i + 1u;
	if (i < 4u) // level 1 is 2x2: each texel gets level 2's texel plus its index
		imageStoreLodAMD(mip, ivec2(i % 2u, i / 2u), 1, imageLoadLodAMD(mip, ivec2(0), 2) + uvec4(i));
}`, "")
	big := &Image{Format: spirv.ImageFormatR64ui, Width: 2, Data: make([]byte, 16)}
	fl := &Image{Format: spirv.ImageFormatR32f, Width: 1, Height: 2, Data: f32s(0, 1)}
	mip := &Image{Format: spirv.ImageFormatR32ui, Width: 4, Height: 4, Levels: 3, Data: make([]byte, 4*(16+4+1))}
	binary.LittleEndian.PutUint32(mip.Data[4*20:], 7000) // level 2's one texel
	buf := make([]byte, 4)
	if err := dispatchImages(t, m, Options{}, [3]uint32{1, 1, 1}, map[BindingKey][]*Image{{0, 0}: {big}, {0, 1}: {fl}, {0, 2}: {mip}},
		map[BindingKey][]byte{{0, 3}: buf}); err != nil {
		t.Fatal(err)
	}
	if got := binary.LittleEndian.Uint64(big.Data[8:]); got != 120<<30 {
		t.Errorf("64-bit sum %#x, want %#x", got, uint64(120)<<30)
	}
	if got := getF32(fl.Data, 1); got != 5 {
		t.Errorf("float sum %v, want 5", got)
	}
	s := getU32(buf, 0)
	if s == 0 || getU32(mip.Data, 0) != 100+s-1 {
		t.Errorf("compare-exchange: invocation %d won, texel %d", int(s)-1, getU32(mip.Data, 0))
	}
	for i := range 4 {
		if got := getU32(mip.Data, 16+i); got != 7000+uint32(i) {
			t.Errorf("level 1 texel %d = %d, want %d", i, got, 7000+i)
		}
	}
}

// TestImageAtomicOutOfBounds: an atomic on a texel outside the image is
// a fault at OpImageTexelPointer, or with robustImageAccess does nothing
// and returns 0.
func TestImageAtomicOutOfBounds(t *testing.T) {
	m := glsl(t, `#version 450
layout(local_size_x = 4) in;
layout(set = 0, binding = 0, r32ui) uniform uimage2D img;
layout(set = 0, binding = 1) buffer B { uint v[]; };
void main() {
	int i = int(gl_GlobalInvocationID.x);
	v[i] = imageAtomicAdd(img, ivec2(i, 0), 5u) + 10u;
}`, "")
	for _, robust := range []bool{false, true} {
		forEach(t, func(t *testing.T, opts Options) {
			opts.RobustImageAccess = robust
			img := &Image{Format: spirv.ImageFormatR32ui, Width: 3, Data: u32s(1, 2, 3)}
			buf := make([]byte, 16)
			err := dispatchImages(t, m, opts, [3]uint32{1, 1, 1}, map[BindingKey][]*Image{{0, 0}: {img}}, map[BindingKey][]byte{{0, 1}: buf})
			if !robust {
				var f *Fault
				if !errors.As(err, &f) || f.Kind != FaultOutOfBounds || f.Lane != 3%uint32(opts.SubgroupSize) || !strings.Contains(f.Inst, "OpImageTexelPointer") {
					t.Fatalf("err = %v, want an out-of-bounds fault of invocation 3's OpImageTexelPointer", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := [4]uint32{getU32(buf, 0), getU32(buf, 1), getU32(buf, 2), getU32(buf, 3)}; got != [4]uint32{11, 12, 13, 10} {
				t.Errorf("returned %v, want 11 12 13 10", got)
			}
			if got := [3]uint32{getU32(img.Data, 0), getU32(img.Data, 1), getU32(img.Data, 2)}; got != [3]uint32{6, 7, 8} {
				t.Errorf("image %v, want 6 7 8", got)
			}
		})
	}
}

// TestImageSignExtend: SignExtend and ZeroExtend widen an integer texel
// whatever the format's signedness.
func TestImageSignExtend(t *testing.T) {
	m := glsl(t, `#version 450
layout(local_size_x = 2) in;
layout(set = 0, binding = 0, r8ui) uniform readonly uimage2D img;
layout(set = 0, binding = 1) buffer B { uint v[]; };
void main() {
	int i = int(gl_GlobalInvocationID.x);
	v[i] = imageLoad(img, ivec2(i, 0)).x;
}`, "vulkan1.2")
	src := string(dis.Disassemble(m, dis.Options{}))
	re := regexp.MustCompile(`(OpImageRead %\w+ %\w+ %\w+)( [A-Za-z]+)?`) // glslang may give one
	if !re.MatchString(src) {
		t.Fatalf("no OpImageRead in\n%s", src)
	}
	for _, tc := range []struct {
		operand string
		want    [2]uint32
	}{{"", [2]uint32{0x7f, 0x80}}, {" SignExtend", [2]uint32{0x7f, 0xffffff80}}, {" ZeroExtend", [2]uint32{0x7f, 0x80}}} {
		mm := assemble(t, re.ReplaceAllString(src, "${1}"+tc.operand))
		img := &Image{Format: spirv.ImageFormatR8ui, Width: 2, Data: []byte{0x7f, 0x80}}
		buf := make([]byte, 8)
		if err := dispatchImages(t, mm, Options{}, [3]uint32{1, 1, 1}, map[BindingKey][]*Image{{0, 0}: {img}}, map[BindingKey][]byte{{0, 1}: buf}); err != nil {
			t.Fatal(err)
		}
		if got := [2]uint32{getU32(buf, 0), getU32(buf, 1)}; got != tc.want {
			t.Errorf("OpImageRead%s: %#x, want %#x", tc.operand, got, tc.want)
		}
	}
}

// TestImageQueryLod: OpImageQuerySizeLod and OpImageQueryLevels on a
// storage image of three levels (glslang's OpImageQuerySize rewritten).
func TestImageQueryLod(t *testing.T) {
	m := glsl(t, `#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0, r32ui) uniform uimage2D img;
layout(set = 0, binding = 1) buffer B { ivec2 s; int one; };
void main() {
	s = imageSize(img);
	one = 1;
}`, "")
	src := string(dis.Disassemble(m, dis.Options{}))
	re := regexp.MustCompile(`(%\w+) = OpImageQuerySize (%\w+) (%\w+)`)
	if !re.MatchString(src) || !strings.Contains(src, "%int_1 = OpConstant") {
		t.Fatalf("no OpImageQuerySize or %%int_1 in\n%s", src)
	}
	for _, tc := range []struct {
		repl string
		want [2]uint32
	}{
		{"$1 = OpImageQuerySizeLod $2 $3 %int_1", [2]uint32{4, 2}},
		{"%lv = OpImageQueryLevels %int $3\n$1 = OpCompositeConstruct $2 %lv %lv", [2]uint32{3, 3}},
	} {
		mm := assemble(t, re.ReplaceAllString(src, tc.repl))
		img := &Image{Format: spirv.ImageFormatR32ui, Width: 8, Height: 4, Levels: 3, Data: make([]byte, 4*(32+8+2))}
		buf := make([]byte, 12)
		if err := dispatchImages(t, mm, Options{}, [3]uint32{1, 1, 1}, map[BindingKey][]*Image{{0, 0}: {img}}, map[BindingKey][]byte{{0, 1}: buf}); err != nil {
			t.Fatal(err)
		}
		if got := [2]uint32{getU32(buf, 0), getU32(buf, 1)}; got != tc.want {
			t.Errorf("%s: %v, want %v", tc.repl, got, tc.want)
		}
	}
}
