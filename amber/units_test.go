package amber

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
)

func TestLayouts(t *testing.T) {
	for _, c := range []struct {
		typ     string
		layout  Layout
		stride  int
		offsets []int
	}{
		{"uint32", Std430, 4, []int{0}},
		{"uint32", Std140, 4, []int{0}},
		{"uint32[]", Std140, 16, []int{0}},
		{"float[]", Std430, 4, []int{0}},
		{"int8", Std430, 1, []int{0}},
		{"float16", Std430, 2, []int{0}},
		{"vec2<float>", Std430, 8, []int{0, 4}},
		{"vec3<float>", Std430, 16, []int{0, 4, 8}},
		{"vec3<float>", Std140, 16, []int{0, 4, 8}},
		{"vec4<double>", Std430, 32, []int{0, 8, 16, 24}},
		{"vec3<int16>", Std430, 8, []int{0, 2, 4}},
		{"mat2x2<float>", Std430, 16, []int{0, 4, 8, 12}},
		{"mat2x2<float>", Std140, 32, []int{0, 4, 16, 20}},
		{"mat3x3<float>", Std430, 48, []int{0, 4, 8, 16, 20, 24, 32, 36, 40}},
		{"mat2x3<float16>", Std430, 16, []int{0, 2, 4, 8, 10, 12}},
		{"mat4x4<double>", Std430, 128, nil},
		{"R32G32B32_SFLOAT", Std430, 12, []int{0, 4, 8}},
		{"R8G8B8A8_UNORM", Std430, 4, []int{0, 1, 2, 3}},
	} {
		ty := ParseType(c.typ)
		if ty == nil {
			t.Errorf("%s: not a type", c.typ)
			continue
		}
		f := NewFormat(ty, c.layout)
		var offs []int
		for _, cp := range f.Comps {
			offs = append(offs, cp.Off)
		}
		if f.Stride != c.stride || (c.offsets != nil && !equalInts(offs, c.offsets)) {
			t.Errorf("%s layout %d: stride %d offsets %v, want %d %v", c.typ, c.layout, f.Stride, offs, c.stride, c.offsets)
		}
	}
	for _, bad := range []string{"vec1<float>", "vec5<float>", "mat1x2<float>", "mat2x2<vec2<float>>", "float32", "int", "R8G16_UINT", "vec2<float>[", ""} {
		if ParseType(bad) != nil {
			t.Errorf("%q parsed as a type", bad)
		}
	}
	for name, want := range map[string]string{"vec3": "vec3<float>", "ivec2": "vec2<int32>", "u8vec4": "vec4<uint8>",
		"dvec2": "vec2<double>", "mat3": "mat3x3<float>", "dmat2x4": "mat2x4<double>", "i64vec3": "vec3<int64>", "uint16_t": "uint16"} {
		ty := vkDatumType(name)
		if ty == nil {
			t.Errorf("VkScript %s: not a type", name)
			continue
		}
		ty.Name = ""
		if ty.String() != want {
			t.Errorf("VkScript %s = %s, want %s", name, ty, want)
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestFloat16(t *testing.T) {
	for _, c := range []struct {
		f float32
		h uint16
	}{
		{1, 0x3c00}, {-2, 0xc000}, {0.5, 0x3800}, {65504, 0x7bff}, {0, 0}, {float32(math.Copysign(0, -1)), 0x8000},
		{0.333, 0x3553}, // truncated, as amber does (round to nearest would be 0x3554)
		{1e-6, 0}, {1e6, 0x7c00}, {float32(math.Inf(-1)), 0xfc00},
	} {
		if got := amberFloatToHalf(c.f); got != c.h {
			t.Errorf("amberFloatToHalf(%v) = %#04x, want %#04x", c.f, got, c.h)
		}
	}
	if math.Float32bits(amberHalfRoundTrip(float32(math.NaN()))) == 0 {
		t.Error("NaN")
	}
	for h, want := range map[uint16]float32{0x3c00: 1, 0xc000: -2, 0x0001: 0 /* denormal flushed */, 0x7c00: 65536 /* amber's reading */} {
		if got := amberHalfToFloat(h); got != want {
			t.Errorf("amberHalfToFloat(%#04x) = %v, want %v", h, got, want)
		}
	}
}

// amberHalfRoundTrip round-trips through half.
func amberHalfRoundTrip(f float32) float32 { return amberHalfToFloat(amberFloatToHalf(f)) }

func TestTokenizer(t *testing.T) {
	z := newTokenizer("EXPECT b IDX 0 TOLERANCE 1% .5 -3 0x1F nan 1.5e3 a,b(c) \"q s\" # comment\nX \\\n Y", 1)
	var got []string
	for {
		tk := z.next()
		if tk.kind == tokEOS {
			break
		}
		got = append(got, []string{"EOS", "EOL", "id", "str", "int", "dbl", "hex"}[tk.kind]+":"+tk.text)
	}
	want := "id:EXPECT id:b id:IDX int:0 id:TOLERANCE int:1 id:% dbl:.5 int:-3 hex:0x1F dbl:nan dbl:1.5e3 id:a id:, id:b id:( id:c id:) str:q s EOL: id:X id:Y"
	if strings.Join(got, " ") != want {
		t.Errorf("tokens\n%s\nwant\n%s", strings.Join(got, " "), want)
	}
	z = newTokenizer("-1 18446744073709551615 99999999999999999999", 1)
	if tk := z.next(); tk.u != math.MaxUint64 || !tk.neg {
		t.Errorf("-1 = %+v", tk)
	}
	if tk := z.next(); tk.u != math.MaxUint64 {
		t.Errorf("max = %+v", tk)
	}
	if tk := z.next(); tk.u != math.MaxUint64 {
		t.Errorf("overflow saturates as strtoull: %+v", tk)
	}
}

func TestCTSRules(t *testing.T) {
	for path, env := range map[string]string{
		"x/vk-gl-cts/spirv_assembly/instruction/spirv1p4/opselect/a.amber":          "spv1.4",
		"x/vk-gl-cts/compute/workgroup_memory_explicit_layout/a.amber":              "spv1.4",
		"x/vk-gl-cts/spirv_assembly/instruction/compute/ptr_access_chain/a.amber":   "spv1.4",
		"x/vk-gl-cts/spirv_assembly/instruction/compute/signed_op/a.amber":          "",
		"x/vk-gl-cts/subgroup_uniform_control_flow/large/subgroup_reconverge.amber": "",
	} {
		sh := &Shader{Format: FormatSPIRVAsm, TargetEnv: "spv1.0"}
		got, _ := shaderEnv(sh, path, &CompileOptions{})
		if env == "" {
			env = "spv1.0"
		}
		if got != env {
			t.Errorf("%s: env %s, want %s", path, got, env)
		}
	}
	sh := &Shader{Format: FormatSPIRVAsm, TargetEnv: "spv1.0"}
	if got, _ := shaderEnv(sh, "spirv1p4/a.amber", &CompileOptions{TargetEnv: "spv1.5"}); got != "spv1.5" {
		t.Errorf("--target-env override: %s", got)
	}
	s := &Script{Path: "vk-gl-cts/subgroup_uniform_control_flow/small/x.amber"}
	var names []string
	for _, r := range Requirements(s) {
		names = append(names, r.Name)
	}
	if !strings.Contains(strings.Join(names, " "), "VK_KHR_shader_subgroup_uniform_control_flow") {
		t.Errorf("requirements %v", names)
	}
	if m := DefaultDevice().Missing(Requirements(s)); len(m) != 0 {
		t.Errorf("device lacks %v", m)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("#!amber\nBUFFER a DATA_TYPE vec3<float> STD140 DATA 1 2 3 END\nEXPECT a IDX 0 TOLERANCE 1% EQ 1 2 3\n"))
	f.Add([]byte("#!amber\nSHADER compute s SPIRV-ASM\nOpCapability Shader\nEND\nPIPELINE compute p\nATTACH s ENTRY_POINT main \\\n SPECIALIZE 1 AS float 2.5\nBIND BUFFER_ARRAY a b AS storage_dynamic DESCRIPTOR_SET 0 BINDING 1 OFFSET 0 4\nEND\nREPEAT 2\nRUN p 1 1 1\nEND\n"))
	f.Add([]byte("[require]\nshaderInt16\nVK_KHR_x\n[compute shader spirv]\nOpNop\n[test]\nssbo 0:1 subdata vec2 0 1 2\nuniform ubo 0:2 mat2 0 1 2 3 4\ntolerance 1 2 3 4\nprobe ssbo vec2 0:1 0 ~= 1 2\ncompute 1 1 1\n"))
	f.Add([]byte("#!amber\nSHADER compute s SPIRV-ASM\nOpCapability Shader\nEND\nIMAGE i FORMAT R8G8B8A8_UNORM MIP_LEVELS 1 SAMPLES 1 DIM_3D WIDTH 2 HEIGHT 2 DEPTH 2 FILL 3\n" +
		"IMAGE j DATA_TYPE vec2<float> DIM_1D WIDTH 2 DATA 1 2 3 4 END\nIMAGE k FORMAT A2B10G10R10_UNORM_PACK32 WIDTH 3 SERIES_FROM 1 INC_BY 2\n" +
		"SAMPLER s1 MAG_FILTER linear MIN_FILTER nearest ADDRESS_MODE_U clamp_to_border ADDRESS_MODE_V repeat ADDRESS_MODE_W mirror_clamp_to_edge " +
		"BORDER_COLOR int_opaque_white MIN_LOD 0.5 MAX_LOD 2.0 UNNORMALIZED_COORDS COMPARE on COMPARE_OP less\nSAMPLER s2\n" +
		"PIPELINE compute p\nATTACH s\nBIND BUFFER i AS storage_image DESCRIPTOR_SET 0 BINDING 0 BASE_MIP_LEVEL 0\n" +
		"BIND BUFFER_ARRAY j j AS combined_image_sampler SAMPLER s1 DESCRIPTOR_SET 0 BINDING 1\nBIND BUFFER k AS storage_texel_buffer DESCRIPTOR_SET 0 BINDING 2\n" +
		"BIND SAMPLER_ARRAY s1 s2 DESCRIPTOR_SET 0 BINDING 3\nEND\nRUN p 1 1 1\nEXPECT i IDX 0 0 SIZE 2 2 EQ_RGBA 3 3 3 3 TOLERANCE 1 2 3 4\nEXPECT j EQ_BUFFER j\n"))
	// sampled-only and depth formats, mip chains bound at a base level,
	// a mip chain too long for its image, a probe of a depth image
	f.Add([]byte("#!amber\nSHADER compute s SPIRV-ASM\nOpCapability Shader\nEND\nIMAGE d FORMAT D16_UNORM DIM_2D WIDTH 2 HEIGHT 2 FILL 7\n" +
		"IMAGE e FORMAT D32_SFLOAT DIM_2D WIDTH 4 HEIGHT 1 MIP_LEVELS 3 FILL 0.5\nIMAGE c FORMAT B8G8R8A8_SRGB DIM_2D WIDTH 4 HEIGHT 4 MIP_LEVELS 3 SERIES_FROM 0 INC_BY 1\n" +
		"SAMPLER z MAX_LOD 2.0\nPIPELINE compute p\nATTACH s\nBIND BUFFER d AS sampled_image DESCRIPTOR_SET 0 BINDING 0\n" +
		"BIND BUFFER c AS combined_image_sampler SAMPLER z DESCRIPTOR_SET 0 BINDING 1 BASE_MIP_LEVEL 2\nBIND BUFFER e AS sampled_image DESCRIPTOR_SET 0 BINDING 2 BASE_MIP_LEVEL 1\n" +
		"BIND BUFFER c AS storage_image DESCRIPTOR_SET 0 BINDING 3\nBIND SAMPLER z DESCRIPTOR_SET 0 BINDING 4\nEND\nRUN p 1 1 1\nEXPECT d IDX 0 0 SIZE 2 2 EQ_RGBA 7 7 7 7\nEXPECT c IDX 0 EQ 0 1 2 3\n"))
	for _, p := range []string{"testdata/interp/sampled_mips.amber", "testdata/interp/sampled_separate.amber", "testdata/all_commands.amber", "testdata/vkscript_all.vkscript", "testdata/emd.amber", "testdata/struct.amber", "testdata/virtual_file.amber"} {
		if b, err := readLimited(p); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		opt := ParseOptions{MaxBufferBytes: 1 << 20, ReadFile: func(string) ([]byte, error) { return []byte("1 2 3 4"), nil }}
		s, err := Parse("fuzz.amber", src, opt)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.amber:") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		// A parsed script runs (without an engine) without panicking; GLSL
		// is left out to keep glslangValidator processes out of the loop.
		for _, sh := range s.Shaders {
			if sh.Format == FormatGLSL || sh.Format == FormatHLSL {
				return
			}
		}
		ctx, cancel := context.WithTimeout(t.Context(), time.Second) // REPEAT can be long
		defer cancel()
		Run(ctx, s, Options{Parse: opt, SpirvOpt: "/nonexistent/spirv-opt"})
	})
}

func TestStructLayout(t *testing.T) {
	s, err := ParseFile("testdata/struct.amber")
	if err != nil {
		t.Fatal(err)
	}
	offsets := func(name string) ([]int, int) {
		f := s.Buffer(name).Format
		var o []int
		for _, c := range f.Comps {
			o = append(o, c.Off)
		}
		return o, f.Stride
	}
	// a@0, b@8 (vec2 align 8), inner c@16 (align 16): x@16, v@32 (vec3 align
	// 16); d@48 (OFFSET); e@52; STRIDE 64.
	if o, st := offsets("buf"); fmt.Sprint(o) != "[0 8 12 16 32 36 40 48 52]" || st != 64 {
		t.Errorf("struct s: offsets %v stride %d", o, st)
	}
	// std140: f@0, matrix aligned to 16, columns 16 apart; size 48.
	if o, st := offsets("mbuf"); fmt.Sprint(o) != "[0 16 20 32 36]" || st != 48 {
		t.Errorf("struct m: offsets %v stride %d", o, st)
	}
	r := Run(t.Context(), s, Options{})
	if r.Status != Pass {
		t.Errorf("%v: %s", r.Status, r.Reason)
	}
}
