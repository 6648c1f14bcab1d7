package vkref

import (
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

// Samplers on lavapipe and spvx: compute shaders sample images of several
// formats, dimensionalities, levels and arrays through samplers of every
// filter, mipmap mode, address mode and border colour, with offsets,
// gathers, fetches and depth comparisons, at coordinates a buffer gives;
// both engines' results must agree.
//
// Nearest filtering, gathers and fetches select texels exactly, so their
// results must be equal up to the decode of normalized texels (lavapipe's
// c * (1/255.0) may be 2 ULPs off c/255; sRGB decodes through its own
// approximation, within 2^-8 of the exact curve spvx uses). Linear
// filtering may quantize: Vulkan asks only for subTexelPrecisionBits (4)
// of weight precision and mipmapPrecisionBits (4) for the level blend.
// lavapipe filters float formats with exact float weights, as spvx does,
// but 8-bit UNORM formats in 8-bit fixed point: a 1D probe of texels 0
// and 255 gives round(alpha*256) weights and results quantized to k/255
// (alpha 0.080125 reads 21/255, not 20.43/255), which spvx does not
// imitate. So linear results are compared within range/64 (range the
// spread of the image's texel values), and mipmap-linear ones within
// range/16 more: far below what a wrong texel, address mode or level
// gives at the coordinates used, which stay 0.15 texel or more from
// texel boundaries and centres.

// sampleJob is one comparison: a shader of one expression sampling tex
// (binding 0) at coordinates c[i] (binding 1), results in o (binding 2).
type sampleJob struct {
	texType string // GLSL sampler type: "sampler2D", "usampler2D", "sampler2DShadow"...
	outType string // vec4, uvec4 or float
	expr    string // of tex and p (vec4 c[i]); e.g. textureLod(tex, p.xy, p.w)
	img     Image
	data    []byte
	sm      interp.Sampler
	coords  [][4]float32
	tol     float64 // absolute tolerance beyond 2 ULPs
}

// run compiles and runs the job on both engines and compares.
func (sj *sampleJob) run(t *testing.T, d *Driver) {
	t.Helper()
	n := len(sj.coords)
	src := fmt.Sprintf(`#version 450
#extension GL_EXT_samplerless_texture_functions : enable
layout(local_size_x = %d) in;
layout(binding = 0) uniform %s tex;
layout(binding = 1) readonly buffer I { vec4 c[]; };
layout(binding = 2) buffer O { %s o[]; };
void main() { uint i = gl_GlobalInvocationID.x; vec4 p = c[i]; o[i] = %s; }
`, n, sj.texType, sj.outType, sj.expr)
	spv := compileGLSL(t, src)
	cb := make([]byte, 16*n)
	for i, c := range sj.coords {
		for k, v := range c {
			binary.LittleEndian.PutUint32(cb[16*i+4*k:], math.Float32bits(v))
		}
	}
	outSize := 16 * n
	if sj.outType == "float" {
		outSize = 4 * n
	}
	img := sj.img
	img.Kind = interp.CombinedImageSampler
	sm := sj.sm
	job := &Job{SPIRV: spv, Entry: "main", Groups: [3]uint32{1, 1, 1}, Buffers: []Buffer{
		{Binding: 0, Image: &img, Sampler: &sm, Data: sj.data},
		{Binding: 1, Data: cb}, {Binding: 2, Data: make([]byte, outSize)}}}
	want, err := d.Run(job)
	if errors.Is(err, ErrUnsupportedFormat) {
		t.Skipf("lavapipe: %v", err)
	}
	if err != nil {
		t.Fatalf("lavapipe: %v", err)
	}
	got, err := RunSPVX(job, interp.Options{SubgroupSize: 8})
	if err != nil {
		t.Fatalf("spvx: %v", err)
	}
	sj.compare(t, got[2], want[2])
}

// compare judges spvx's results against lavapipe's, component by
// component.
func (sj *sampleJob) compare(t *testing.T, got, want []byte) {
	t.Helper()
	per := len(got) / len(sj.coords)
	bad := 0
	for i := 0; i+4 <= len(got); i += 4 {
		g, w := binary.LittleEndian.Uint32(got[i:]), binary.LittleEndian.Uint32(want[i:])
		if g == w {
			continue
		}
		gf, wf := float64(math.Float32frombits(g)), float64(math.Float32frombits(w))
		ulp := math.Abs(wf - float64(math.Nextafter32(float32(wf), float32(math.Inf(1)))))
		if sj.outType != "uvec4" && sj.outType != "ivec4" && math.Abs(gf-wf) <= sj.tol+2*ulp {
			continue
		}
		if bad++; bad <= 6 {
			t.Errorf("invocation %d component %d at %v: spvx %v (%#x), lavapipe %v (%#x)", i/per, i%per/4, sj.coords[i/per], gf, g, wf, w)
		}
	}
	if bad > 6 {
		t.Errorf("... %d mismatches in all", bad)
	}
}

// offCentre makes coordinates along an axis of n texels that stay at
// least 0.15 texel from texel boundaries and from texel centres (where a
// linear footprint or gather moves to the next texels): k + {0.15, 0.35,
// 0.65, 0.85} texels for k from -n-2 to 2n+1, normalized. At the
// boundaries themselves the texels chosen depend on how the
// implementation rounds s*width (lavapipe takes fract(s) first under
// Repeat), which Vulkan leaves to its precision.
func offCentre(n int, norm bool) []float32 {
	var c []float32
	for k := -n - 2; k < 2*n+2; k++ {
		for _, f := range []float64{0.15, 0.35, 0.65, 0.85} {
			v := float64(k) + f
			if norm {
				v /= float64(n)
			}
			c = append(c, float32(v))
		}
	}
	return c
}

// grid2D pairs coordinates of two axes, up to max of them, pseudo-randomly.
func grid2D(u, v []float32, lod float32, rng *rand.Rand, max int) [][4]float32 {
	var out [][4]float32
	for range max {
		out = append(out, [4]float32{u[rng.IntN(len(u))], v[rng.IntN(len(v))], 0, lod})
	}
	return out
}

// sampledTexels makes n texels of format f (floats: multiples of 1/64 in
// [-4, 4]; depth: in [0, 1]).
func sampledTexels(f *vkformat.Info, n int, rng *rand.Rand) []byte {
	if f.Depth {
		b := make([]byte, n*f.Size)
		for i := range n {
			f.EncodeFloat(b[i*f.Size:], [4]float64{float64(rng.IntN(17)) / 16})
		}
		return b
	}
	return texels(f, n, rng)
}

// valueRange is the spread of the values texels of format f take.
func valueRange(f *vkformat.Info) float64 {
	switch f.Kind {
	case vkformat.UNorm:
		return 1
	case vkformat.SNorm:
		return 2
	}
	return 8
}

var addressModes = []interp.AddressMode{interp.AddressRepeat, interp.AddressMirroredRepeat, interp.AddressClampToEdge,
	interp.AddressClampToBorder, interp.AddressMirrorClampToEdge}

// TestSamplerFormatsAndModes samples 2D images of several formats with
// both filters under every address mode (border colours rotating through
// the float ones).
func TestSamplerFormatsAndModes(t *testing.T) {
	d, err := New(Lavapipe)
	if err != nil {
		t.Skip(err)
	}
	const w, h = 5, 4
	rng := rand.New(rand.NewPCG(3, 4))
	formats := []spirv.ImageFormat{spirv.ImageFormatRgba8, spirv.ImageFormatRgba16f, spirv.ImageFormatR32f, spirv.ImageFormatRgba8Snorm,
		spirv.ImageFormatRg16, vkformat.Srgba8, vkformat.Bgra8, vkformat.Sbgra8}
	borders := []interp.BorderColor{interp.BorderFloatTransparentBlack, interp.BorderFloatOpaqueBlack, interp.BorderFloatOpaqueWhite}
	for _, f := range formats {
		info, _ := vkformat.Lookup(f)
		data := sampledTexels(&info, w*h, rng)
		for _, filter := range []interp.Filter{interp.FilterNearest, interp.FilterLinear} {
			for mi, mode := range addressModes {
				name := fmt.Sprintf("%s/%s/mode%d", vkformat.Name(f), map[interp.Filter]string{0: "nearest", 1: "linear"}[filter], mode)
				t.Run(name, func(t *testing.T) {
					sj := &sampleJob{texType: "sampler2D", outType: "vec4", expr: "textureLod(tex, p.xy, p.w)",
						img: Image{Format: f, Dim: spirv.Dim2D, Width: w, Height: h}, data: data,
						sm: interp.Sampler{MagFilter: filter, MinFilter: filter, AddressU: mode, AddressV: addressModes[(mi+2)%5],
							BorderColor: borders[mi%3]},
						coords: grid2D(offCentre(w, true), offCentre(h, true), 0, rng, 64)}
					sj.tol = tolerance(&info, filter, interp.MipmapNearest)
					sj.run(t, d)
				})
			}
		}
	}
}

// tolerance is the absolute tolerance of a sampling of format f.
func tolerance(f *vkformat.Info, filter interp.Filter, mip interp.MipmapMode) float64 {
	tol := 0.0
	if f.SRGB {
		tol = 1.0 / 256 // lavapipe's sRGB decode is some 1.2e-3 off the exact curve
	}
	if filter == interp.FilterLinear {
		tol += valueRange(f) / 64
	}
	if mip == interp.MipmapLinear {
		tol += valueRange(f) / 16
	}
	return tol
}

// TestSamplerLevels samples a mipmapped 2D image at LODs from -1 to 4.5,
// with both mipmap modes, LOD clamps and bias, and with Grad operands.
func TestSamplerLevels(t *testing.T) {
	d, err := New(Lavapipe)
	if err != nil {
		t.Skip(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	info, _ := vkformat.Lookup(spirv.ImageFormatRgba8)
	img := interp.Image{Format: spirv.ImageFormatRgba8, Width: 16, Height: 8, Levels: 5}
	size, _ := img.DataSize()
	data := sampledTexels(&info, size/4, rng)
	var coords [][4]float32
	u, v := offCentre(16, true), offCentre(8, true)
	for k := range 64 {
		lod := float32(k%23)*0.25 - 1.125 // never a level boundary under either rounding
		coords = append(coords, [4]float32{u[rng.IntN(len(u))], v[rng.IntN(len(v))], 0, lod})
	}
	for _, c := range []struct {
		name string
		sm   interp.Sampler
		expr string
	}{
		{"nearest", interp.Sampler{MaxLod: 1000}, "textureLod(tex, p.xy, p.w)"},
		{"nearest-clamped", interp.Sampler{MinLod: 0.5, MaxLod: 2.5}, "textureLod(tex, p.xy, p.w)"},
		{"nearest-bias", interp.Sampler{MaxLod: 1000, MipLodBias: 1}, "textureLod(tex, p.xy, p.w)"},
		{"linear-mips", interp.Sampler{MaxLod: 1000, MipmapMode: interp.MipmapLinear}, "textureLod(tex, p.xy, p.w)"},
		{"trilinear", interp.Sampler{MaxLod: 1000, MipmapMode: interp.MipmapLinear, MinFilter: interp.FilterLinear, MagFilter: interp.FilterLinear}, "textureLod(tex, p.xy, p.w)"},
		{"grad", interp.Sampler{MaxLod: 1000}, "textureGrad(tex, p.xy, vec2(exp2(p.w) / 16.0, 0.0), vec2(0.0, exp2(p.w) / 32.0))"},
		{"offset", interp.Sampler{MaxLod: 1000}, "textureLodOffset(tex, p.xy, p.w, ivec2(-2, 3))"},
		{"fetch", interp.Sampler{}, "texelFetch(tex, ivec2(p.xy * 4.0) & ivec2(3, 1), int(p.w + 1.125) % 5 / 2)"},
		{"fetch-offset", interp.Sampler{}, "texelFetchOffset(tex, ivec2(p.xy * 4.0) & ivec2(3, 1), 1, ivec2(1, 1))"},
	} {
		t.Run(c.name, func(t *testing.T) {
			sm := c.sm
			sj := &sampleJob{texType: "sampler2D", outType: "vec4", expr: c.expr, img: Image{Format: img.Format, Dim: spirv.Dim2D, Width: 16, Height: 8, Levels: 5},
				data: data, sm: sm, coords: coords, tol: tolerance(&info, sm.MinFilter, sm.MipmapMode)}
			sj.run(t, d)
		})
	}
}

// TestSamplerDims samples 1D, 3D, array and cube images.
func TestSamplerDims(t *testing.T) {
	d, err := New(Lavapipe)
	if err != nil {
		t.Skip(err)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	info, _ := vkformat.Lookup(spirv.ImageFormatR32f)
	var dirs [][4]float32
	for range 64 {
		// directions away from face edges and corners for nearest; the
		// linear case crosses edges within a texel
		v := [3]float32{float32(rng.IntN(41)-20) / 8, float32(rng.IntN(41)-20) / 8, float32(rng.IntN(41)-20) / 8}
		v[rng.IntN(3)] = float32(rng.IntN(2)*2-1) * 3
		dirs = append(dirs, [4]float32{v[0], v[1], v[2], float32(rng.IntN(5)) - 1})
	}
	cases := []struct {
		name, texType, expr string
		img                 Image
		coords              [][4]float32
	}{
		{"1D", "sampler1D", "textureLod(tex, p.x, 0.0)", Image{Dim: spirv.Dim1D, Width: 7}, grid2D(offCentre(7, true), []float32{0}, 0, rng, 64)},
		{"1DArray", "sampler1DArray", "textureLod(tex, p.xy, 0.0)", Image{Dim: spirv.Dim1D, Arrayed: true, Width: 7, Layers: 3}, grid2D(offCentre(7, true), []float32{-1.4, 0, 0.6, 1.2, 1.5, 2.5, 7}, 0, rng, 64)},
		{"2DArray", "sampler2DArray", "textureLod(tex, p.xyz, 0.0)", Image{Dim: spirv.Dim2D, Arrayed: true, Width: 4, Height: 3, Layers: 4}, layered(grid2D(offCentre(4, true), offCentre(3, true), 0, rng, 64), rng)},
		{"3D", "sampler3D", "textureLod(tex, p.xyz, 0.0)", Image{Dim: spirv.Dim3D, Width: 4, Height: 3, Depth: 5}, cube3(rng)},
		{"Cube", "samplerCube", "textureLod(tex, p.xyz, 0.0)", Image{Dim: spirv.DimCube, Width: 4, Height: 4, Layers: 6}, dirs},
		{"CubeArray", "samplerCubeArray", "textureLod(tex, vec4(p.xyz, p.w), 0.0)", Image{Dim: spirv.DimCube, Arrayed: true, Width: 4, Height: 4, Layers: 12}, dirs},
	}
	for _, c := range cases {
		for _, filter := range []interp.Filter{interp.FilterNearest, interp.FilterLinear} {
			t.Run(fmt.Sprintf("%s/filter%d", c.name, filter), func(t *testing.T) {
				img := c.img
				img.Format = spirv.ImageFormatR32f
				n := max(img.Width, 1) * max(img.Height, 1) * max(img.Depth, 1) * max(img.Layers, 1)
				sj := &sampleJob{texType: c.texType, outType: "vec4", expr: c.expr, img: img, data: sampledTexels(&info, n, rng),
					sm:     interp.Sampler{MagFilter: filter, MinFilter: filter, AddressU: interp.AddressMirroredRepeat, AddressV: interp.AddressRepeat, AddressW: interp.AddressClampToEdge},
					coords: c.coords, tol: tolerance(&info, filter, interp.MipmapNearest)}
				sj.run(t, d)
			})
		}
	}
}

// layered sets the layer coordinate of 2D coordinates (rounding
// mid-way values and out-of-range ones).
func layered(c [][4]float32, rng *rand.Rand) [][4]float32 {
	for i := range c {
		c[i][2] = float32(rng.IntN(13)-3) * 0.5
		if c[i][2] == float32(int(c[i][2])) {
			c[i][2] += 0.25
		}
	}
	return c
}

// cube3 is coordinates in a 4x3x5 volume.
func cube3(rng *rand.Rand) [][4]float32 {
	u, v, w := offCentre(4, true), offCentre(3, true), offCentre(5, true)
	var c [][4]float32
	for range 64 {
		c = append(c, [4]float32{u[rng.IntN(len(u))], v[rng.IntN(len(v))], w[rng.IntN(len(w))], 0})
	}
	return c
}

// TestSamplerGatherAndInts gathers each component, with offsets, and
// samples an integer image.
func TestSamplerGatherAndInts(t *testing.T) {
	d, err := New(Lavapipe)
	if err != nil {
		t.Skip(err)
	}
	rng := rand.New(rand.NewPCG(9, 10))
	fl, _ := vkformat.Lookup(spirv.ImageFormatRgba16f)
	in, _ := vkformat.Lookup(spirv.ImageFormatRgba8ui)
	coords := grid2D(offCentre(5, true), offCentre(3, true), 0, rng, 64)
	cases := []struct {
		name, texType, outType, expr string
		info                         *vkformat.Info
		mode                         interp.AddressMode
	}{
		{"gather-x", "sampler2D", "vec4", "textureGather(tex, p.xy, 0)", &fl, interp.AddressRepeat},
		{"gather-w", "sampler2D", "vec4", "textureGather(tex, p.xy, 3)", &fl, interp.AddressClampToBorder},
		{"gather-offset", "sampler2D", "vec4", "textureGatherOffset(tex, p.xy, ivec2(1, -1), 1)", &fl, interp.AddressMirroredRepeat},
		{"gather-offsets", "sampler2D", "vec4", "textureGatherOffsets(tex, p.xy, ivec2[4](ivec2(0, 0), ivec2(1, 2), ivec2(-3, 1), ivec2(2, -2)), 2)", &fl, interp.AddressRepeat},
		{"uint-nearest", "usampler2D", "uvec4", "textureLod(tex, p.xy, 0.0)", &in, interp.AddressMirrorClampToEdge},
		{"uint-gather", "usampler2D", "uvec4", "textureGather(tex, p.xy, 1)", &in, interp.AddressClampToEdge},
		{"uint-border", "usampler2D", "uvec4", "textureLod(tex, p.xy, 0.0)", &in, interp.AddressClampToBorder},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sj := &sampleJob{texType: c.texType, outType: c.outType, expr: c.expr,
				img: Image{Format: c.info.Format, Dim: spirv.Dim2D, Width: 5, Height: 3}, data: sampledTexels(c.info, 15, rng),
				sm: interp.Sampler{AddressU: c.mode, AddressV: c.mode, BorderColor: interp.BorderIntOpaqueWhite}, coords: coords}
			if c.info.Kind == vkformat.Float {
				sj.sm.BorderColor = interp.BorderFloatOpaqueBlack
			}
			sj.run(t, d)
		})
	}
}

// TestSamplerShadow compares depth images with every compare op, both
// filters, and gathers them.
func TestSamplerShadow(t *testing.T) {
	d, err := New(Lavapipe)
	if err != nil {
		t.Skip(err)
	}
	rng := rand.New(rand.NewPCG(11, 12))
	for _, f := range []spirv.ImageFormat{vkformat.D16, vkformat.D32f} {
		info, _ := vkformat.Lookup(f)
		data := sampledTexels(&info, 20, rng)
		coords := grid2D(offCentre(5, true), offCentre(4, true), 0, rng, 64)
		for i := range coords {
			coords[i][2] = float32(rng.IntN(19)-1)/16 + 1.0/32 // references between the texel values, some outside [0, 1]
		}
		for op := interp.CompareNever; op <= interp.CompareAlways; op++ {
			for _, filter := range []interp.Filter{interp.FilterNearest, interp.FilterLinear} {
				t.Run(fmt.Sprintf("%s/op%d/filter%d", vkformat.Name(f), op, filter), func(t *testing.T) {
					sj := &sampleJob{texType: "sampler2DShadow", outType: "float", expr: "textureLod(tex, p.xyz, 0.0)",
						img: Image{Format: f, Dim: spirv.Dim2D, Width: 5, Height: 4}, data: data,
						sm:     interp.Sampler{MagFilter: filter, MinFilter: filter, CompareEnable: true, CompareOp: op, AddressU: interp.AddressClampToEdge, AddressV: interp.AddressRepeat},
						coords: coords, tol: tolerance(&vkformat.Info{Kind: vkformat.UNorm}, filter, interp.MipmapNearest)}
					sj.run(t, d)
				})
			}
		}
		t.Run(vkformat.Name(f)+"/gather", func(t *testing.T) {
			sj := &sampleJob{texType: "sampler2DShadow", outType: "vec4", expr: "textureGather(tex, p.xy, p.z)",
				img: Image{Format: f, Dim: spirv.Dim2D, Width: 5, Height: 4}, data: data,
				sm: interp.Sampler{CompareEnable: true, CompareOp: interp.CompareLess}, coords: coords}
			sj.run(t, d)
		})
	}
}

// TestSamplerUnnormalized samples with texel-space coordinates.
func TestSamplerUnnormalized(t *testing.T) {
	d, err := New(Lavapipe)
	if err != nil {
		t.Skip(err)
	}
	rng := rand.New(rand.NewPCG(13, 14))
	info, _ := vkformat.Lookup(spirv.ImageFormatRgba8)
	for _, filter := range []interp.Filter{interp.FilterNearest, interp.FilterLinear} {
		t.Run(fmt.Sprintf("filter%d", filter), func(t *testing.T) {
			sj := &sampleJob{texType: "sampler2D", outType: "vec4", expr: "textureLod(tex, p.xy, 0.0)",
				img: Image{Format: info.Format, Dim: spirv.Dim2D, Width: 6, Height: 5}, data: sampledTexels(&info, 30, rng),
				sm:     interp.Sampler{MagFilter: filter, MinFilter: filter, UnnormalizedCoordinates: true, AddressU: interp.AddressClampToEdge, AddressV: interp.AddressClampToBorder, BorderColor: interp.BorderFloatOpaqueWhite},
				coords: grid2D(offCentre(6, false), offCentre(5, false), 0, rng, 64), tol: tolerance(&info, filter, interp.MipmapNearest)}
			sj.run(t, d)
		})
	}
}

// TestSamplerImplicitLod: texture() in compute under
// DerivativeGroupLinearNV takes its LOD from the quad's coordinate
// differences. Each quad's coordinates are linear in the quad (fine and
// coarse derivatives agree, as lavapipe's plain ones may be either), its
// scale 2^(k+f) texels per invocation with f 0.2 or 0.7, so that the LOD
// sits away from the levels' rounding points; nearest filtering and
// mipmaps make the results exact.
func TestSamplerImplicitLod(t *testing.T) {
	d, err := New(Lavapipe)
	if err != nil {
		t.Skip(err)
	}
	const n, w, h = 64, 32, 16
	rng := rand.New(rand.NewPCG(15, 16))
	var coords [][4]float32
	u, v := offCentre(w, true), offCentre(h, true)
	for range n / 4 {
		rho := math.Exp2(float64(rng.IntN(6)-1) + []float64{0.2, 0.7}[rng.IntN(2)])
		base := [2]float64{float64(u[rng.IntN(len(u))]), float64(v[rng.IntN(len(v))])}
		dx, dy := rho/w, rho/h*0.5 // x dominates
		if rng.IntN(2) == 0 {
			dx, dy = rho/w*0.5, rho/h
		}
		for i := range 4 {
			coords = append(coords, [4]float32{float32(base[0] + float64(i&1)*dx), float32(base[1] + float64(i>>1)*dy), 0, 0})
		}
	}
	src := `#version 450
#extension GL_NV_compute_shader_derivatives : require
layout(local_size_x = 64) in;
layout(derivative_group_linearNV) in;
layout(binding = 0) uniform sampler2D tex;
layout(binding = 1) readonly buffer I { vec4 c[]; };
layout(binding = 2) buffer O { vec4 o[]; };
void main() { uint i = gl_LocalInvocationIndex; o[i] = texture(tex, c[i].xy); }
`
	info, _ := vkformat.Lookup(spirv.ImageFormatRgba8)
	img := interp.Image{Format: info.Format, Width: w, Height: h, Levels: 5}
	size, _ := img.DataSize()
	sj := &sampleJob{outType: "vec4", img: Image{Kind: interp.CombinedImageSampler, Format: info.Format, Dim: spirv.Dim2D, Width: w, Height: h, Levels: 5},
		data: sampledTexels(&info, size/4, rng), sm: interp.Sampler{MaxLod: 1000}, coords: coords}
	spv := compileGLSL(t, src)
	cb := make([]byte, 16*n)
	for i, c := range coords {
		for k, x := range c {
			binary.LittleEndian.PutUint32(cb[16*i+4*k:], math.Float32bits(x))
		}
	}
	job := &Job{SPIRV: spv, Entry: "main", Groups: [3]uint32{1, 1, 1}, Buffers: []Buffer{
		{Binding: 0, Image: &sj.img, Sampler: &sj.sm, Data: sj.data}, {Binding: 1, Data: cb}, {Binding: 2, Data: make([]byte, 16*n)}}}
	want, err := d.Run(job)
	if err != nil {
		t.Fatalf("lavapipe: %v", err)
	}
	got, err := RunSPVX(job, interp.Options{SubgroupSize: 8})
	if err != nil {
		t.Fatalf("spvx: %v", err)
	}
	sj.compare(t, got[2], want[2])
}
