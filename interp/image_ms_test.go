package interp

import (
	"context"
	"encoding/binary"
	"strings"
	"testing"

	"spvx/spirv"
)

// Multisampled images: imageLoad/imageStore/imageAtomicAdd with a sample
// number, texelFetch on a multisampled sampled image, imageSamples and
// textureSamples. Each texel's samples are consecutive in Image.Data (the
// layout api.go gives), so the expected bytes are computed here from that
// layout alone.
const msSrc = `#version 450
layout(local_size_x = 4, local_size_y = 2) in;
layout(set = 0, binding = 0, r32ui) uniform uimage2DMS img;
layout(set = 0, binding = 1) uniform usampler2DMS tex;
layout(set = 0, binding = 2) buffer B { uint samples[2]; uint fetched[]; };
void main() {
	ivec2 p = ivec2(gl_GlobalInvocationID.xy);
	uint i = gl_LocalInvocationIndex;
	for (int s = 0; s < 4; s++) {
		uint v = imageLoad(img, p, s).x;
		imageStore(img, p, s, uvec4(v * 10u + uint(s)));
		imageAtomicAdd(img, p, s, 1000u);
		fetched[4u * i + uint(s)] = texelFetch(tex, p, s).x;
	}
	if (i == 0u) {
		samples[0] = uint(imageSamples(img));
		samples[1] = uint(textureSamples(tex));
	}
}`

func TestImageMultisampled(t *testing.T) {
	m := glsl(t, msSrc, "")
	const w, h, n = 4, 2, 4
	forEach(t, func(t *testing.T, opts Options) {
		img := &Image{Format: spirv.ImageFormatR32ui, Width: w, Height: h, Samples: n, Data: make([]byte, 4*w*h*n)}
		tex := &Image{Format: spirv.ImageFormatR32ui, Width: w, Height: h, Samples: n, Data: make([]byte, 4*w*h*n)}
		for k := range w * h * n {
			binary.LittleEndian.PutUint32(img.Data[4*k:], uint32(k))
			binary.LittleEndian.PutUint32(tex.Data[4*k:], uint32(7*k+1))
		}
		buf := make([]byte, 8+4*w*h*n)
		err := dispatchImages(t, m, opts, [3]uint32{1, 1, 1}, map[BindingKey][]*Image{{0, 0}: {img}, {0, 1}: {tex}},
			map[BindingKey][]byte{{0, 2}: buf})
		if err != nil {
			t.Fatal(err)
		}
		if s0, s1 := binary.LittleEndian.Uint32(buf), binary.LittleEndian.Uint32(buf[4:]); s0 != n || s1 != n {
			t.Fatalf("imageSamples %d, textureSamples %d, want %d", s0, s1, n)
		}
		for y := range h {
			for x := range w {
				for s := range n {
					k := (y*w+x)*n + s // texel (x, y), sample s
					if got, want := binary.LittleEndian.Uint32(img.Data[4*k:]), uint32(k*10+s+1000); got != want {
						t.Errorf("image texel (%d,%d) sample %d = %d, want %d", x, y, s, got, want)
					}
					i := y*w + x // the invocation's local index
					if got, want := binary.LittleEndian.Uint32(buf[8+4*(4*i+s):]), uint32(7*k+1); got != want {
						t.Errorf("texelFetch (%d,%d) sample %d = %d, want %d", x, y, s, got, want)
					}
				}
			}
		}
	})
}

// TestImageMultisampledErrors: a sample number outside the image is a
// fault naming it (robustImageAccess reads zero instead), and a
// single-sampled image does not bind where the shader declares a
// multisampled one (nor the reverse).
func TestImageMultisampledErrors(t *testing.T) {
	m := glsl(t, `#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0, r32ui) uniform uimage2DMS img;
layout(set = 0, binding = 1) buffer B { uint s; uint v; };
void main() { v = imageLoad(img, ivec2(0), int(s)).x; }`, "")
	data := func() []byte {
		b := make([]byte, 4*2)
		binary.LittleEndian.PutUint32(b, 5)
		binary.LittleEndian.PutUint32(b[4:], 9)
		return b
	}
	ms := func() *Image {
		return &Image{Format: spirv.ImageFormatR32ui, Width: 1, Height: 1, Samples: 2, Data: make([]byte, 8)}
	}
	buf := make([]byte, 8)
	binary.LittleEndian.PutUint32(buf, 2) // sample 2 of 2
	err := dispatchImages(t, m, Options{}, [3]uint32{1, 1, 1}, map[BindingKey][]*Image{{0, 0}: {ms()}}, map[BindingKey][]byte{{0, 1}: buf})
	if err == nil || !strings.Contains(err.Error(), "sample 2 of") {
		t.Fatalf("sample 2 of 2: %v, want an out-of-bounds fault naming the sample", err)
	}
	binary.LittleEndian.PutUint32(buf[4:], 77)
	if err := dispatchImages(t, m, Options{RobustImageAccess: true}, [3]uint32{1, 1, 1}, map[BindingKey][]*Image{{0, 0}: {ms()}}, map[BindingKey][]byte{{0, 1}: buf}); err != nil {
		t.Fatal(err)
	}
	if v := binary.LittleEndian.Uint32(buf[4:]); v != 0 {
		t.Fatalf("robust read of sample 2 of 2 = %d, want 0", v)
	}
	single := &Image{Format: spirv.ImageFormatR32ui, Width: 1, Height: 1, Data: data()}
	err = dispatchImages(t, m, Options{}, [3]uint32{1, 1, 1}, map[BindingKey][]*Image{{0, 0}: {single}}, map[BindingKey][]byte{{0, 1}: make([]byte, 8)})
	if err == nil || !strings.Contains(err.Error(), "declares a multisampled image") {
		t.Fatalf("a single-sampled image bound to an image2DMS: %v", err)
	}
}

// TestImageKindsShareBinding: a combined image sampler and a storage
// image declared on one binding number (as glslang gives HLSL's Texture2D
// and RWTexture2D registers) both bind the binding's Image: texelFetch
// reads through one view what imageStore writes through the other.
func TestImageKindsShareBinding(t *testing.T) {
	m := glsl(t, `#version 450
layout(local_size_x = 2) in;
layout(set = 0, binding = 0) uniform usampler2D tex;
layout(set = 0, binding = 0, r32ui) uniform uimage2D img;
layout(set = 0, binding = 1) buffer B { uint read[2]; };
void main() {
	ivec2 p = ivec2(gl_LocalInvocationIndex, 0);
	read[p.x] = texelFetch(tex, p, 0).x;
	imageStore(img, p, uvec4(read[p.x] + 100u));
}`, "")
	p, err := Compile(m, "", Options{})
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[ResourceKind]bool{}
	for _, b := range p.Bindings() {
		if b.Set == 0 && b.Binding == 0 {
			kinds[b.Kind] = true
		}
	}
	if !kinds[CombinedImageSampler] || !kinds[StorageImage] {
		t.Fatalf("binding 0's kinds: %v, want a combined image sampler and a storage image", kinds)
	}
	img := &Image{Format: spirv.ImageFormatR32ui, Width: 2, Height: 1, Data: make([]byte, 8)}
	binary.LittleEndian.PutUint32(img.Data, 5)
	binary.LittleEndian.PutUint32(img.Data[4:], 6)
	buf := make([]byte, 8)
	res := &Resources{Images: map[BindingKey][]*Image{{0, 0}: {img}}, Samplers: map[BindingKey][]*Sampler{{0, 0}: {{}}},
		Buffers: map[BindingKey][]*Buffer{{0, 1}: {{Data: buf}}}}
	if err := p.Dispatch(context.Background(), 1, 1, 1, res); err != nil {
		t.Fatal(err)
	}
	for i, want := range []uint32{5, 6} {
		if got := binary.LittleEndian.Uint32(buf[4*i:]); got != want {
			t.Errorf("texelFetch of texel %d = %d, want %d", i, got, want)
		}
		if got := binary.LittleEndian.Uint32(img.Data[4*i:]); got != want+100 {
			t.Errorf("texel %d after imageStore = %d, want %d", i, got, want+100)
		}
	}
}
