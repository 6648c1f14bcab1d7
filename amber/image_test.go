package amber

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"testing"

	"spvx/internal/vkformat"
	"spvx/spirv"
)

// imgShader is a compute shader the image scripts attach (parsing only
// needs one to exist).
const imgShader = "#!amber\nSHADER compute s SPIRV-ASM\nOpCapability Shader\nEND\n"

func parseImg(t *testing.T, body string) *Script {
	t.Helper()
	s, err := Parse("img.amber", []byte(imgShader+body), ParseOptions{})
	if err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	return s
}

func TestParseImage(t *testing.T) {
	s := parseImg(t, `IMAGE a FORMAT R8G8B8A8_UNORM MIP_LEVELS 1 SAMPLES 1 DIM_3D WIDTH 2 HEIGHT 3 DEPTH 4 FILL 9
IMAGE b DATA_TYPE vec2<float> DIM_1D WIDTH 3 DATA
1 2 3 4 5 6
END
IMAGE c FORMAT R32_UINT WIDTH 5 SERIES_FROM 10 INC_BY 2
IMAGE d FORMAT B10G11R11_UFLOAT_PACK32 DIM_2D WIDTH 2 HEIGHT 1
BUFFER e FORMAT R16G16_SFLOAT MIP_LEVELS 3 SAMPLES 4
`)
	a := s.Buffer("a")
	if a.Image != (ImageInfo{Dim: Dim3D, Width: 2, Height: 3, Depth: 4, MipLevels: 1, Samples: 1}) {
		t.Errorf("a: %+v", a.Image)
	}
	if a.Elements != 24 || len(a.Data) != 96 || a.Data[95] != 9 {
		t.Errorf("a: %d elements, %d bytes", a.Elements, len(a.Data))
	}
	if b := s.Buffer("b"); b.Image.Dim != Dim1D || b.Elements != 3 || b.Format.Stride != 8 {
		t.Errorf("b: %+v %d elements stride %d", b.Image, b.Elements, b.Format.Stride)
	}
	if c := s.Buffer("c"); c.Image.Dim != DimUnknown || binary.LittleEndian.Uint32(c.Data[16:]) != 18 {
		t.Errorf("c: %+v % x", c.Image, c.Data)
	}
	if d := s.Buffer("d"); d.Elements != 2 || d.Format.Stride != 4 || !d.Format.Type.Packed || d.Format.Type.Channels != "BGR" {
		t.Errorf("d: %d elements, type %+v", d.Elements, d.Format.Type)
	}
	if e := s.Buffer("e"); e.Image.MipLevels != 3 || e.Image.Samples != 4 {
		t.Errorf("e: %+v", e.Image)
	}
}

// parseErr returns the message of a script that must not parse.
func parseErr(t *testing.T, body string) string {
	t.Helper()
	_, err := Parse("img.amber", []byte(imgShader+body), ParseOptions{})
	if err == nil {
		t.Fatalf("%q parsed", body)
	}
	return err.Error()
}

func TestParseImageErrors(t *testing.T) {
	for _, c := range []struct{ body, want string }{
		{"IMAGE FORMAT R8_UNORM", "img.amber:5: missing IMAGE name"},
		{"IMAGE 5", "img.amber:5: invalid IMAGE name provided: 5"},
		{"IMAGE a FORMAT R8_UNORM DIM_2D WIDTH 2", "img.amber:5: expected IMAGE HEIGHT"},
		{"IMAGE a FORMAT R8_UNORM DIM_3D WIDTH 2 HEIGHT 2", "img.amber:5: expected IMAGE DEPTH"},
		{"IMAGE a FORMAT R8_UNORM DIM_1D", "img.amber:5: expected IMAGE WIDTH"},
		{"IMAGE a FORMAT R8_UNORM WIDTH 0", "img.amber:5: expected positive IMAGE WIDTH: 0"},
		{"IMAGE a FORMAT R8_UNORM WIDTH 1 HEIGHT x", "img.amber:5: expected positive IMAGE HEIGHT: x"},
		{"IMAGE a FORMAT NOPE WIDTH 1", "img.amber:5: invalid IMAGE FORMAT: NOPE"},
		{"IMAGE a DATA_TYPE vec9 WIDTH 1", "img.amber:5: invalid data type 'vec9' provided"},
		{"IMAGE a FORMAT R8_UNORM WIDTH 1 SAMPLES 3", "img.amber:5: invalid sample count: 3"},
		{"IMAGE a FORMAT R8_UNORM WIDTH 1 MIP_LEVELS x", "img.amber:5: invalid value for MIP_LEVELS: x"},
		{"IMAGE a FORMAT R8_UNORM WIDTH 1 FILE x.png", "img.amber:5: unknown IMAGE command provided: FILE"},
		{"IMAGE a FORMAT R8_UNORM WIDTH 1 5", "img.amber:5: unexpected IMAGE token: 5"},
		{"IMAGE a WIDTH 1", "img.amber:5: IMAGE missing DATA_TYPE or FORMAT"},
		{"IMAGE a FORMAT R8_UNORM WIDTH 3 DATA 1 2 END", "img.amber:5: Elements provided in data does not match size specified: 3 specified vs 2 provided"},
		{"IMAGE a FORMAT R8_UNORM WIDTH 65536 HEIGHT 65536 DEPTH 2", "img.amber:5: IMAGE too large: 65536×65536×2 texels"},
		{"IMAGE a FORMAT R8_UNORM WIDTH 1\nIMAGE a FORMAT R8_UNORM WIDTH 1", "img.amber:6: duplicate buffer name provided"},
		{"BUFFER b FORMAT R8_UNORM SAMPLES 5", "img.amber:5: invalid sample count: 5"},
	} {
		if got := parseErr(t, c.body); got != c.want {
			t.Errorf("%q:\n got %s\nwant %s", c.body, got, c.want)
		}
	}
}

func TestParseSampler(t *testing.T) {
	s := parseImg(t, `SAMPLER def
SAMPLER all MAG_FILTER linear MIN_FILTER linear ADDRESS_MODE_U mirrored_repeat ADDRESS_MODE_V clamp_to_edge \
  ADDRESS_MODE_W mirror_clamp_to_edge BORDER_COLOR int_opaque_white MIN_LOD 0.5 MAX_LOD 2.5 COMPARE on COMPARE_OP greater_or_equal
SAMPLER un MIN_LOD 1.0 MAX_LOD 4.0 UNNORMALIZED_COORDS ADDRESS_MODE_U clamp_to_border
`)
	want := map[string]Sampler{
		"def": {Name: "def", MaxLOD: 1, NormalizedCoords: true, Line: 5},
		"all": {Name: "all", MagFilter: 1, MinFilter: 1, AddressU: 1, AddressV: 2, AddressW: 4, BorderColor: 5,
			MinLOD: 0.5, MaxLOD: 2.5, NormalizedCoords: true, CompareEnable: true, CompareOp: 6, Line: 6},
		"un": {Name: "un", AddressU: 3, Line: 8},
	}
	if len(s.Samplers) != 3 {
		t.Fatalf("%d samplers", len(s.Samplers))
	}
	for _, got := range s.Samplers {
		if *got != want[got.Name] {
			t.Errorf("%s:\n got %+v\nwant %+v", got.Name, *got, want[got.Name])
		}
	}
	for _, c := range []struct{ body, want string }{
		{"SAMPLER 1", "img.amber:5: invalid token when looking for sampler name: 1"},
		{"SAMPLER s MAG_FILTER cubic", "img.amber:5: invalid MAG_FILTER value cubic"},
		{"SAMPLER s ADDRESS_MODE_W wrap", "img.amber:5: invalid ADDRESS_MODE_W value wrap"},
		{"SAMPLER s BORDER_COLOR 3", "img.amber:5: invalid token when looking for BORDER_COLOR value: 3"},
		{"SAMPLER s MIN_LOD 1", "img.amber:5: invalid token when looking for MIN_LOD value: 1"},
		{"SAMPLER s MIN_LOD 2.0", "img.amber:5: max LOD needs to be greater than or equal to min LOD"},
		{"SAMPLER s COMPARE yes", "img.amber:5: invalid value for COMPARE: yes"},
		{"SAMPLER s COMPARE_OP sometimes", "img.amber:5: invalid value for COMPARE_OP: sometimes"},
		{"SAMPLER s LOD_BIAS 1.0", "img.amber:5: unexpected sampler parameter LOD_BIAS"},
		{"SAMPLER s\nSAMPLER s", "img.amber:6: duplicate sampler name provided"},
	} {
		if got := parseErr(t, c.body); got != c.want {
			t.Errorf("%q:\n got %s\nwant %s", c.body, got, c.want)
		}
	}
}

const bindImages = `IMAGE a FORMAT R32_SFLOAT DIM_2D WIDTH 2 HEIGHT 2 FILL 1.5
IMAGE m FORMAT R8G8B8A8_UNORM MIP_LEVELS 2 DIM_2D WIDTH 2 HEIGHT 2
BUFFER t DATA_TYPE uint32 SIZE 6 FILL 0
SAMPLER s1
SAMPLER s2 MAG_FILTER linear
PIPELINE compute p
  ATTACH s
  BIND BUFFER a AS storage_image DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER_ARRAY a a AS sampled_image DESCRIPTOR_SET 0 BINDING 1
  BIND BUFFER a AS combined_image_sampler SAMPLER s2 DESCRIPTOR_SET 1 BINDING 2 BASE_MIP_LEVEL 0
  BIND BUFFER m AS storage_image DESCRIPTOR_SET 0 BINDING 3 BASE_MIP_LEVEL 1
  BIND BUFFER t AS storage_texel_buffer DESCRIPTOR_SET 0 BINDING 4
  BIND BUFFER t AS uniform_texel_buffer DESCRIPTOR_SET 0 BINDING 5
  BIND SAMPLER s1 DESCRIPTOR_SET 0 BINDING 6
  BIND SAMPLER_ARRAY s1 s2 DESCRIPTOR_SET 0 BINDING 7
END
`

func TestBindImages(t *testing.T) {
	s := parseImg(t, bindImages)
	p := s.Pipeline("p")
	kinds := []BufferKind{BindStorageImage, BindSampledImage, BindCombinedImageSampler, BindStorageImage,
		BindStorageTexelBuffer, BindUniformTexelBuffer, BindSampler, BindSampler}
	if len(p.Bindings) != len(kinds) {
		t.Fatalf("%d bindings", len(p.Bindings))
	}
	for i, bb := range p.Bindings {
		if bb.Kind != kinds[i] {
			t.Errorf("binding %d: %v, want %v", i, bb.Kind, kinds[i])
		}
	}
	if c := p.Bindings[2]; c.Set != 1 || c.Binding != 2 || len(c.Samplers) != 1 || c.Samplers[0].Name != "s2" || s.Buffer("a").Sampler != c.Samplers[0] {
		t.Errorf("combined image sampler: %+v", c)
	}
	if p.Bindings[3].BaseMipLevel != 1 || len(p.Bindings[1].Buffers) != 2 || len(p.Bindings[7].Samplers) != 2 {
		t.Errorf("BASE_MIP_LEVEL %d, %d array buffers, %d array samplers",
			p.Bindings[3].BaseMipLevel, len(p.Bindings[1].Buffers), len(p.Bindings[7].Samplers))
	}
	for _, c := range []struct{ bind, want string }{
		{"BIND BUFFER a AS combined_image_sampler DESCRIPTOR_SET 0 BINDING 0", "expecting SAMPLER for combined image sampler: DESCRIPTOR_SET"},
		{"BIND BUFFER a AS combined_image_sampler SAMPLER zz DESCRIPTOR_SET 0 BINDING 0", "unknown sampler: zz"},
		{"BIND BUFFER a AS storage_image DESCRIPTOR_SET 0 BINDING 0 BASE_MIP_LEVEL 1", "base mip level (now 1) needs to be larger than the number of buffer mip maps (1)"},
		{"BIND BUFFER a AS storage_image DESCRIPTOR_SET 0 BINDING 0 BASE_MIP_LEVEL x", "invalid value for BASE_MIP_LEVEL: x"},
		{"BIND SAMPLER zz DESCRIPTOR_SET 0 BINDING 0", "unknown sampler: zz"},
		{"BIND SAMPLER_ARRAY s1 DESCRIPTOR_SET 0 BINDING 0", "expecting multiple sampler names for SAMPLER_ARRAY"},
		{"BIND SAMPLER s1 BINDING 0", "missing DESCRIPTOR_SET or KERNEL for BIND command"},
		{"BIND SAMPLER s1 DESCRIPTOR_SET 0 BINDING 0 extra", "extra parameters after BIND command: extra"},
		{"BIND BUFFER a AS storage_image DESCRIPTOR_SET 0 BINDING 0 DESCRIPTOR_OFFSET 4", "extra parameters after BIND command: DESCRIPTOR_OFFSET"},
	} {
		body := "IMAGE a FORMAT R32_SFLOAT WIDTH 1\nSAMPLER s1\nPIPELINE compute p\nATTACH s\n" + c.bind + "\nEND\n"
		if got := parseErr(t, body); got != "img.amber:9: "+c.want {
			t.Errorf("%s:\n got %s\nwant img.amber:9: %s", c.bind, got, c.want)
		}
	}
}

// jobRecorder records the jobs a run dispatches, and runs do on each.
type jobRecorder struct {
	jobs []*Job
	do   func(*Job)
}

func (r *jobRecorder) Run(_ context.Context, j *Job) error {
	r.jobs = append(r.jobs, j)
	if r.do != nil {
		r.do(j)
	}
	return nil
}

func TestImageDescriptors(t *testing.T) {
	body := strings.Replace(bindImages, "  BIND BUFFER m AS storage_image DESCRIPTOR_SET 0 BINDING 3 BASE_MIP_LEVEL 1\n", "", 1) + "RUN p 1 1 1\nEXPECT a IDX 0 EQ 2.5 1.5\n"
	s := parseImg(t, body)
	// The view is the script's buffer: what the engine writes, EXPECT sees.
	rec := &jobRecorder{do: func(j *Job) {
		binary.LittleEndian.PutUint32(j.Images[DescriptorBinding{0, 0}].Images[0].Data, math.Float32bits(2.5))
	}}
	if r := Run(context.Background(), s, Options{Engine: rec, NoValidate: true}); r.Status != Pass || len(rec.jobs) != 1 {
		t.Fatalf("%v %s (%d jobs)", r.Status, r.Reason, len(rec.jobs))
	}
	j := rec.jobs[0]
	if len(j.Descriptors) != 0 || len(j.Images) != 7 {
		t.Fatalf("%d buffer descriptors, %d image descriptors", len(j.Descriptors), len(j.Images))
	}
	st := j.Images[DescriptorBinding{0, 0}]
	if v := st.Images[0]; v.Format != spirv.ImageFormatR32f || v.Width != 2 || v.Height != 2 || v.Depth != 1 || len(v.Data) != 16 || len(st.Samplers) != 0 {
		t.Errorf("storage image: %+v", v)
	}
	if d := j.Images[DescriptorBinding{0, 1}]; len(d.Images) != 2 || d.Kind != BindSampledImage {
		t.Errorf("sampled image array: %+v", d)
	}
	if d := j.Images[DescriptorBinding{1, 2}]; len(d.Images) != 1 || len(d.Samplers) != 1 || d.Samplers[0].MagFilter != 1 {
		t.Errorf("combined image sampler: %+v", d)
	}
	for _, b := range []uint32{4, 5} {
		if v := j.Images[DescriptorBinding{0, b}].Images[0]; v.Format != spirv.ImageFormatR32ui || v.Width != 6 || v.Height != 1 {
			t.Errorf("texel buffer at binding %d: %+v", b, v)
		}
	}
	if d := j.Images[DescriptorBinding{0, 7}]; len(d.Images) != 0 || len(d.Samplers) != 2 || d.Kind != BindSampler {
		t.Errorf("sampler array: %+v", d)
	}
}

// TestImageFormatNames checks that every format the executor has is
// reachable by its VkFormat name, and that a format it lacks is a SKIP
// naming it.
func TestImageFormatNames(t *testing.T) {
	if n, m := len(ImageFormatNames()), len(vkformat.Formats()); n != m {
		t.Errorf("%d names for %d formats", n, m)
	}
	for _, name := range ImageFormatNames() {
		ty := ParseType(name)
		if ty == nil {
			t.Errorf("%s does not parse", name)
			continue
		}
		f := imageFormats[formatName(ty)]
		in, _ := vkformat.Lookup(f)
		if NewFormat(ty, Std430).Stride != in.Size {
			t.Errorf("%s: stride %d, texel %d bytes", name, NewFormat(ty, Std430).Stride, in.Size)
		}
	}
	for name, want := range map[string]spirv.ImageFormat{"R8G8B8A8_UNORM": spirv.ImageFormatRgba8,
		"A2B10G10R10_UNORM_PACK32": spirv.ImageFormatRgb10A2, "B10G11R11_UFLOAT_PACK32": spirv.ImageFormatR11fG11fB10f,
		"R16G16B16A16_SFLOAT": spirv.ImageFormatRgba16f, "R32_SFLOAT": spirv.ImageFormatR32f, "vec2<int16>": spirv.ImageFormatRg16i,
		"uint32": spirv.ImageFormatR32ui, "vec4<float>": spirv.ImageFormatRgba32f} {
		if got := imageFormats[formatName(ParseType(name))]; got != want {
			t.Errorf("%s: %v, want %v", name, got, want)
		}
	}
	var info strings.Builder
	DefaultDevice().Print(&info)
	if !strings.Contains(info.String(), "storage image and texel buffer formats (41):\n  A2B10G10R10_UINT_PACK32\n") {
		t.Errorf("--device-info lacks the image formats:\n%s", info.String())
	}
	if !strings.Contains(info.String(), "sampled-only image formats (5):\n  B8G8R8A8_SRGB\n  B8G8R8A8_UNORM\n  D16_UNORM\n  D32_SFLOAT\n  R8G8B8A8_SRGB\n") {
		t.Errorf("--device-info lacks the sampled-only formats:\n%s", info.String())
	}
	bind := func(format, kind string) Result {
		s := parseImg(t, "IMAGE a FORMAT "+format+" WIDTH 1\nPIPELINE compute p\nATTACH s\nBIND BUFFER a AS "+kind+" DESCRIPTOR_SET 0 BINDING 0\nEND\nRUN p 1 1 1\n")
		return Run(context.Background(), s, Options{Engine: &jobRecorder{}, NoValidate: true})
	}
	r := bind("R16G16B16A16_USCALED", "sampled_image")
	if r.Status != SkipStatus || !strings.Contains(r.Reason, "img.amber:8: BIND a AS sampled_image: buffer a: format R16G16B16A16_USCALED is not an image format spvx's executor has") {
		t.Errorf("%v: %s", r.Status, r.Reason)
	}
	// Sampled-only formats: sampled, never storage (Vulkan gives them no
	// storage feature).
	r = bind("B8G8R8A8_UNORM", "storage_image")
	if r.Status != Fail || !strings.Contains(r.Reason, "img.amber:8: BIND a AS storage_image: buffer a: format B8G8R8A8_UNORM can only be sampled") {
		t.Errorf("%v: %s", r.Status, r.Reason)
	}
	for name, want := range sampledFormats {
		rec := &jobRecorder{}
		s := parseImg(t, "IMAGE a FORMAT "+name+" WIDTH 1\nSAMPLER z\nPIPELINE compute p\nATTACH s\nBIND BUFFER a AS combined_image_sampler SAMPLER z DESCRIPTOR_SET 0 BINDING 0\nEND\nRUN p 1 1 1\n")
		if r := Run(context.Background(), s, Options{Engine: rec, NoValidate: true}); r.Status != Pass {
			t.Errorf("%s: %v %s", name, r.Status, r.Reason)
			continue
		}
		in, _ := vkformat.Lookup(want)
		if v := rec.jobs[0].Images[DescriptorBinding{0, 0}].Images[0]; v.Format != want || len(v.Data) != in.Size {
			t.Errorf("%s: format %v, %d bytes", name, v.Format, len(v.Data))
		}
	}
}

// TestMipLevels checks amber's fill of an image's mip levels (each level
// the buffer's first texels at that level's size, from BASE_MIP_LEVEL
// on), the copy back after the run (each level in turn to the buffer's
// start), and the mip chain's limit.
func TestMipLevels(t *testing.T) {
	body := `IMAGE m FORMAT R32_UINT DIM_2D WIDTH 4 HEIGHT 2 MIP_LEVELS 3 SERIES_FROM 10 INC_BY 1
PIPELINE compute p
  ATTACH s
  BIND BUFFER m AS storage_image DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER m AS sampled_image DESCRIPTOR_SET 0 BINDING 1 BASE_MIP_LEVEL 1
END
RUN p 1 1 1
EXPECT m IDX 0 EQ 77 11 12 13 14 15 16 17
`
	words := func(b []byte) []uint32 {
		out := make([]uint32, len(b)/4)
		for i := range out {
			out[i] = binary.LittleEndian.Uint32(b[4*i:])
		}
		return out
	}
	var got [2][]uint32
	rec := &jobRecorder{do: func(j *Job) {
		full, base := j.Images[DescriptorBinding{0, 0}].Images[0], j.Images[DescriptorBinding{0, 1}].Images[0]
		if full.Width != 4 || full.Height != 2 || full.Levels != 3 || base.Width != 2 || base.Height != 1 || base.Levels != 2 {
			t.Errorf("views %+v and %+v", full, base)
		}
		got[0], got[1] = words(full.Data), words(base.Data)
		// level 2 (1×1), written by the "shader" in both views: the last
		// level amber copies back, so it lands in texel 0 whichever view
		// is copied first
		binary.LittleEndian.PutUint32(full.Data[len(full.Data)-4:], 77)
		binary.LittleEndian.PutUint32(base.Data[len(base.Data)-4:], 77)
	}}
	if r := Run(context.Background(), parseImg(t, body), Options{Engine: rec, NoValidate: true}); r.Status != Pass {
		t.Fatalf("%v: %s", r.Status, r.Reason)
	}
	want := [2][]uint32{{10, 11, 12, 13, 14, 15, 16, 17, 10, 11, 10}, {10, 11, 10}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("levels %v, want %v", got, want)
	}
	bad := strings.Replace(body, "MIP_LEVELS 3", "MIP_LEVELS 4", 1)
	r := Run(context.Background(), parseImg(t, bad), Options{Engine: &jobRecorder{}, NoValidate: true})
	if r.Status != Fail || !strings.Contains(r.Reason, "img.amber:8: BIND m AS storage_image: buffer m: MIP_LEVELS 4: a 4×2×1 image has at most 3") {
		t.Errorf("%v: %s", r.Status, r.Reason)
	}
}

func TestImageProbe(t *testing.T) {
	s := parseImg(t, `IMAGE a FORMAT B8G8R8A8_UNORM DIM_2D WIDTH 3 HEIGHT 2 DATA
0 0 255 255  0 0 255 255  0 0 255 255
0 0 255 255  0 0 255 255  10 20 30 40
END
IMAGE f FORMAT R32G32_SFLOAT DIM_2D WIDTH 1 HEIGHT 1 DATA 0.5 0.25 END
EXPECT a IDX 0 0 SIZE 2 2 EQ_RGBA 255 0 0 255
EXPECT a IDX 2 1 SIZE 1 1 EQ_RGB 30 20 10
EXPECT a IDX 2 1 SIZE 1 1 EQ_RGBA 30 20 10 41 TOLERANCE 0.004
EXPECT f IDX 0 0 SIZE 1 1 EQ_RGB 127 64 200
EXPECT a IDX 1 0 SIZE 2 2 EQ_RGBA 255 0 0 255
EXPECT a IDX 2 0 SIZE 2 1 EQ_RGB 255 0 0
`)
	r := Run(context.Background(), s, Options{})
	want := "img.amber:14: EXPECT a IDX 1 0 SIZE 2 2 EQ_RGBA 255 0 0 255: Line 14: Probe failed at: 2, 1\n" +
		"  Expected: 255.000000, 0.000000, 0.000000, 255.000000\n    Actual: 30.000000, 20.000000, 10.000000, 40.000000\nProbe failed in 1 pixels"
	if r.Status != Fail || r.Reason != want {
		t.Fatalf("%v:\n%s\nwant\n%s", r.Status, r.Reason, want)
	}
	// The float image's channels compare as floats with the colour / 255:
	// 127/255 and 63/255 lie within 0.002 of 0.5 and 0.25 (B is absent).
	s.Commands = s.Commands[len(s.Commands)-1:]
	r = Run(context.Background(), s, Options{})
	if r.Status != Fail || !strings.HasSuffix(r.Reason, "Verifier::Probe Position(3, 0) is out of framebuffer scope (3,2)") {
		t.Errorf("%v: %s", r.Status, r.Reason)
	}
	for _, c := range []struct{ expect, want string }{
		{"EXPECT a IDX 0 0 SIZE 0 1 EQ_RGB 1 2 3", "invalid width in EXPECT command: 0"},
		{"EXPECT a IDX 0 0 SIZE 1 1 EQ_RGB 1 2 256", "invalid B value in EXPECT command: 256"},
		{"EXPECT a IDX 0 0 SIZE 1 1 EQ_RGBA 1 2 3", "invalid A value in EXPECT command: end of file"},
		{"EXPECT a IDX 0 0 SIZE 1 1 EQ_RGBB 1 2 3", "unknown comparator type in EXPECT: EQ_RGBB"},
		{"EXPECT a IDX 0 0 SIZE 1 1 EQ_RGB 1 2 3 TOLERANCE 1 1 1 1", "TOLERANCE for an RGB comparison has a maximum of 3 values"},
		{"EXPECT a IDX 0 0 SIZE 1 1 EQ_RGB 1 2 3 4", "extra parameters after EXPECT command: 4"},
		{"EXPECT a IDX 0 0 EQ 1", "Y value not needed for non-color comparator"},
	} {
		got := parseErr(t, "IMAGE a FORMAT R8_UNORM WIDTH 1\n"+c.expect)
		if got != "img.amber:6: "+c.want {
			t.Errorf("%s:\n got %s\nwant img.amber:6: %s", c.expect, got, c.want)
		}
	}
}

// TestMipLevelsBudget: the copy of an image's levels is counted against
// the budget for its RUN only, so a thousand RUNs of a 64×64 mip chain
// fit in a budget of less than the buffer and two copies, and all
// of it is free again afterwards; a budget too small for the copy is an
// error naming the BIND.
func TestMipLevelsBudget(t *testing.T) {
	body := `IMAGE m FORMAT R32_UINT DIM_2D WIDTH 64 HEIGHT 64 MIP_LEVELS 7 FILL 1
PIPELINE compute p
  ATTACH s
  BIND BUFFER m AS sampled_image DESCRIPTOR_SET 0 BINDING 0
END
REPEAT 1000
RUN p 1 1 1
END
`
	const buf, levels = 64 * 64 * 4, 5461 * 4 // 64² + 32² + ... + 1 texels
	b := NewBudget(buf + levels + 16384)      // less than two copies
	rec := &jobRecorder{}
	if r := Run(context.Background(), parseImg(t, body), Options{Engine: rec, NoValidate: true, Budget: b}); r.Status != Pass || len(rec.jobs) != 1000 {
		t.Fatalf("%v: %s (%d runs)", r.Status, r.Reason, len(rec.jobs))
	}
	if b.Used() != 0 {
		t.Errorf("%d bytes still reserved", b.Used())
	}
	small := NewBudget(buf + levels - 4)
	r := Run(context.Background(), parseImg(t, body), Options{Engine: &jobRecorder{}, NoValidate: true, Budget: small})
	if r.Status != Fail || !strings.Contains(r.Reason, "img.amber:8: buffer m:") {
		t.Errorf("%v: %s", r.Status, r.Reason)
	}
}
