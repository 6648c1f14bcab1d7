package val

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// buffer is a Vulkan compute module with one variable %var of pointer
// type %ptr to %S in storage class sc (Block-decorated unless noBlock),
// the extra annotations and type declarations given. Common types: %f32
// %f64 %u32 %v2 %v3 %v4 (float vectors), %m4 (4 x vec4), %m3 (3 x vec3),
// %m32 (2 x vec3), and the u32 constants %c1 %c2 %c4.
func buffer(sc, annot, decls string, noBlock bool) string {
	head := "OpCapability Shader\nOpCapability Float64\nOpExtension \"SPV_KHR_storage_buffer_storage_class\"\nOpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\n"
	if !noBlock {
		head += "OpDecorate %S Block\n"
	}
	if sc == "StorageBuffer" || sc == "Uniform" {
		head += "OpDecorate %var DescriptorSet 0\nOpDecorate %var Binding 0\n"
	}
	return head + annot + `
%void = OpTypeVoid
%fn = OpTypeFunction %void
%f32 = OpTypeFloat 32
%f64 = OpTypeFloat 64
%u32 = OpTypeInt 32 0
%v2 = OpTypeVector %f32 2
%v3 = OpTypeVector %f32 3
%v4 = OpTypeVector %f32 4
%m4 = OpTypeMatrix %v4 4
%m3 = OpTypeMatrix %v3 3
%m32 = OpTypeMatrix %v3 2
%c1 = OpConstant %u32 1
%c2 = OpConstant %u32 2
%c4 = OpConstant %u32 4
` + decls + fmt.Sprintf(`
%%ptr = OpTypePointer %s %%S
%%var = OpVariable %%ptr %s
%%main = OpFunction %%void None %%fn
%%entry = OpLabel
OpReturn
OpFunctionEnd
`, sc, sc)
}

// members declares %S with the given member types and offsets.
func members(types []string, offsets []int) (annot, decls string) {
	decls = "%S = OpTypeStruct"
	for k, t := range types {
		decls += " " + t
		if k < len(offsets) && offsets[k] >= 0 {
			annot += fmt.Sprintf("OpMemberDecorate %%S %d Offset %d\n", k, offsets[k])
		}
	}
	return annot, decls
}

func ssbo(types []string, offsets []int, extraAnnot, extraDecls string) string {
	a, d := members(types, offsets)
	return buffer("StorageBuffer", a+extraAnnot, extraDecls+d, false)
}

func ubo(types []string, offsets []int, extraAnnot, extraDecls string) string {
	a, d := members(types, offsets)
	return buffer("Uniform", a+extraAnnot, extraDecls+d, false)
}

const (
	via        = " Instantiated via '*' in the "
	hintRelax  = "\nThis is may be allowed if you enable the VK_KHR_relaxed_block_layout extension (or use the --relax-block-layout command line flag)"
	hintScalar = "\nThis is may be allowed if you enable the scalarBlockLayout feature (or use the --scalar-block-layout command line flag)"
	hintStd    = "\nThis is may be allowed if you enable the uniformBufferStandardLayout feature (or use the --uniform-buffer-standard-layout command line flag)"
)

var (
	vk10  = Options{Env: EnvVulkan1_0}
	vk13  = Options{Env: EnvVulkan1_3}
	spv10 = setVersion(0x10000)
)

func TestBlockLayout(t *testing.T) {
	sb430 := via + "StorageBuffer storage class using standard layout rules."
	u140 := via + "Uniform storage class using extended layout rules."
	arrF4 := "OpDecorate %arr ArrayStride 4\n"
	cases := []memRuleCase{
		{name: "std430 scalars and vectors", src: ssbo([]string{"%f32", "%v2", "%v4"}, []int{0, 8, 16}, "", ""), opts: vk13, agree: oracleVerdict},
		{name: "std430 vec2 at 4, not relaxed", src: ssbo([]string{"%f32", "%v2"}, []int{0, 4}, "", ""), patch: spv10, opts: vk10,
			want: "Structure member 1 at offset 4 is not aligned to 8." + sb430 + hintRelax, agree: oracleVerdict},
		{name: "std430 vec2 at 4, relaxed", src: ssbo([]string{"%f32", "%v2"}, []int{0, 4}, "", ""), opts: vk13, agree: oracleVerdict},
		{name: "std430 vec2 at 4, --relax-block-layout", src: ssbo([]string{"%f32", "%v2"}, []int{0, 4}, "", ""), patch: spv10,
			opts: Options{Env: EnvVulkan1_0, RelaxBlockLayout: true}, agree: oracleVerdict},
		{name: "std430 vec3 at 4, relaxed", src: ssbo([]string{"%f32", "%v3"}, []int{0, 4}, "", ""), opts: vk13, agree: oracleVerdict},
		{name: "std430 vec3 at 0 then float at 12", src: ssbo([]string{"%v3", "%f32"}, []int{0, 12}, "", ""), patch: spv10, opts: vk10, agree: oracleVerdict},
		{name: "std430 vec3 at 8 straddles", src: ssbo([]string{"%v2", "%v3"}, []int{0, 8}, "", ""), opts: vk13,
			want: "Structure member 1: Vector has improper straddle due to offset 8." + sb430 + hintScalar, agree: oracleVerdict},
		{name: "std430 vec3 at 8 scalar", src: ssbo([]string{"%v2", "%v3"}, []int{0, 8}, "", ""), opts: Options{Env: EnvVulkan1_3, ScalarBlockLayout: true}, agree: oracleVerdict},
		{name: "std430 vec3 at 8 skip", src: ssbo([]string{"%v2", "%v3"}, []int{0, 8}, "", ""), opts: Options{Env: EnvVulkan1_3, SkipBlockLayout: true}, agree: oracleVerdict},
		{name: "overlap", src: ssbo([]string{"%v4", "%f32"}, []int{0, 8}, "", ""), opts: vk13,
			want: "Structure member 1 at offset 8 overlaps previous member ending at offset 15." + sb430 + hintScalar, agree: oracleVerdict},
		{name: "missing offset", src: ssbo([]string{"%f32", "%f32"}, []int{0, -1}, "", ""), opts: vk13,
			want: "Structure member 1 must be explicitly laid out with Offset or OffsetIdEXT decorations." + sb430 + hintScalar, agree: oracleVerdict},
		{name: "array without stride", src: ssbo([]string{"%arr"}, []int{0}, "", "%arr = OpTypeArray %f32 %c4\n"), opts: vk13,
			want: "Array must be explicitly laid out with ArrayStride or ArrayStrideIdEXT decorations." + sb430 + hintScalar, agree: oracleVerdict},
		{name: "std430 float array stride 4", src: ssbo([]string{"%arr"}, []int{0}, arrF4, "%arr = OpTypeArray %f32 %c4\n"), opts: vk13, agree: oracleVerdict},
		{name: "std140 float array stride 4", src: ubo([]string{"%arr"}, []int{0}, arrF4, "%arr = OpTypeArray %f32 %c4\n"), opts: vk13,
			want: "Array stride 4 must satisfy alignment 16." + u140 + hintStd, agree: oracleVerdict},
		{name: "std140 float array stride 4, --uniform-buffer-standard-layout", src: ubo([]string{"%arr"}, []int{0}, arrF4, "%arr = OpTypeArray %f32 %c4\n"),
			opts: Options{Env: EnvVulkan1_3, UniformBufferStandardLayout: true}, agree: oracleVerdict},
		{name: "std140 float array stride 4, scalar", src: ubo([]string{"%arr"}, []int{0}, arrF4, "%arr = OpTypeArray %f32 %c4\n"),
			opts: Options{Env: EnvVulkan1_3, ScalarBlockLayout: true}, agree: oracleVerdict},
		{name: "std140 float array stride 16", src: ubo([]string{"%arr"}, []int{0}, "OpDecorate %arr ArrayStride 16\n", "%arr = OpTypeArray %f32 %c4\n"), opts: vk13, agree: oracleVerdict},
		{name: "std140 BufferBlock is std430", src: buffer("Uniform", "OpMemberDecorate %S 0 Offset 0\n"+arrF4+"OpDecorate %S BufferBlock\n", "%arr = OpTypeArray %f32 %c4\n%S = OpTypeStruct %arr", true), patch: spv10, opts: vk10, agree: oracleVerdict},
		{name: "scalar stride smaller than element", src: ssbo([]string{"%arr"}, []int{0}, "OpDecorate %arr ArrayStride 8\n", "%arr = OpTypeArray %v4 %c2\n"),
			opts: Options{Env: EnvVulkan1_3, ScalarBlockLayout: true},
			want: "Array stride 8 is smaller than element type size 16." + via + "StorageBuffer storage class using scalar layout rules.", agree: oracleVerdict},
		{name: "array of vec3 stride 12 std430", src: ssbo([]string{"%arr"}, []int{0}, "OpDecorate %arr ArrayStride 12\n", "%arr = OpTypeArray %v3 %c2\n"), opts: vk13,
			want: "Array stride 12 must satisfy alignment 16." + sb430 + hintScalar, agree: oracleVerdict},
		{name: "array of vec3 stride 12 scalar", src: ssbo([]string{"%arr"}, []int{0}, "OpDecorate %arr ArrayStride 12\n", "%arr = OpTypeArray %v3 %c2\n"),
			opts: Options{Env: EnvVulkan1_3, ScalarBlockLayout: true}, agree: oracleVerdict},
		{name: "runtime array", src: ssbo([]string{"%f32", "%rta"}, []int{0, 16}, "OpDecorate %rta ArrayStride 16\n", "%rta = OpTypeRuntimeArray %v4\n"), opts: vk13, agree: oracleVerdict},

		// Matrices.
		{name: "mat4 col major", src: ssbo([]string{"%m4"}, []int{0}, "OpMemberDecorate %S 0 ColMajor\nOpMemberDecorate %S 0 MatrixStride 16\n", ""), opts: vk13, agree: oracleVerdict},
		{name: "mat4 no majorness", src: ssbo([]string{"%m4"}, []int{0}, "OpMemberDecorate %S 0 MatrixStride 16\n", ""), opts: vk13,
			want: "Structure member 0 containing a matrix must be explicitly laid out with RowMajor or ColMajor decorations." + sb430 + hintScalar, agree: oracleNone},
		{name: "mat4 no stride", src: ssbo([]string{"%m4"}, []int{0}, "OpMemberDecorate %S 0 ColMajor\n", ""), opts: vk13,
			want: "Structure member 0 containing a matrix must be explicitly laid out with MatrixStride decorations." + sb430 + hintScalar, agree: oracleVerdict},
		{name: "mat4 stride 8", src: ssbo([]string{"%m4"}, []int{0}, "OpMemberDecorate %S 0 ColMajor\nOpMemberDecorate %S 0 MatrixStride 8\n", ""), opts: vk13,
			want: "Matrix with a stride 8 not satisfying alignment to 16." + sb430 + hintScalar + "\n", agree: oracleVerdict},
		{name: "mat3 col major stride 12 scalar", src: ssbo([]string{"%m3"}, []int{0}, "OpMemberDecorate %S 0 ColMajor\nOpMemberDecorate %S 0 MatrixStride 12\n", ""),
			opts: Options{Env: EnvVulkan1_3, ScalarBlockLayout: true}, agree: oracleVerdict},
		{name: "mat3 col major stride 8 scalar", src: ssbo([]string{"%m3"}, []int{0}, "OpMemberDecorate %S 0 ColMajor\nOpMemberDecorate %S 0 MatrixStride 8\n", ""),
			opts: Options{Env: EnvVulkan1_3, ScalarBlockLayout: true},
			want: "Matrix stride 8 is smaller than column size 12." + via + "StorageBuffer storage class using scalar layout rules.", agree: oracleNone},
		{name: "mat2x3 row major stride 8 std430", src: ssbo([]string{"%m32"}, []int{0}, "OpMemberDecorate %S 0 RowMajor\nOpMemberDecorate %S 0 MatrixStride 8\n", ""), opts: vk13, agree: oracleVerdict},
		{name: "mat3 row major stride 12 std430", src: ssbo([]string{"%m3"}, []int{0}, "OpMemberDecorate %S 0 RowMajor\nOpMemberDecorate %S 0 MatrixStride 12\n", ""), opts: vk13,
			want: "Matrix with a stride 12 not satisfying alignment to 16." + sb430 + hintScalar + "\n", agree: oracleVerdict},
		{name: "std140 mat2x3 row major stride 8", src: ubo([]string{"%m32"}, []int{0}, "OpMemberDecorate %S 0 RowMajor\nOpMemberDecorate %S 0 MatrixStride 8\n", ""), opts: vk13,
			want: "Matrix with a stride 8 not satisfying alignment to 16." + u140 + hintStd + "\n", agree: oracleVerdict},
		{name: "array of mat4", src: ssbo([]string{"%am"}, []int{0}, "OpDecorate %am ArrayStride 64\nOpMemberDecorate %S 0 ColMajor\nOpMemberDecorate %S 0 MatrixStride 16\n", "%am = OpTypeArray %m4 %c2\n"), opts: vk13, agree: oracleVerdict},
		{name: "array of mat4 without majorness", src: ssbo([]string{"%am"}, []int{0}, "OpDecorate %am ArrayStride 64\nOpMemberDecorate %S 0 MatrixStride 16\n", "%am = OpTypeArray %m4 %c2\n"), opts: vk13,
			want: "Structure member 0 containing a matrix must be explicitly laid out with RowMajor or ColMajor decorations." + sb430 + hintScalar, agree: oracleNone},

		// Nested structs.
		{name: "std140 nested struct at 4", src: ubo([]string{"%f32", "%in"}, []int{0, 4}, "OpMemberDecorate %in 0 Offset 0\n", "%in = OpTypeStruct %f32\n"), opts: vk13,
			want: "Structure member 1 at offset 4 is not aligned to 16." + u140 + hintStd, agree: oracleVerdict},
		{name: "std430 nested struct at 4", src: ssbo([]string{"%f32", "%in"}, []int{0, 4}, "OpMemberDecorate %in 0 Offset 0\n", "%in = OpTypeStruct %f32\n"), opts: vk13, agree: oracleVerdict},
		{name: "std140 member after nested struct", src: ubo([]string{"%in", "%f32"}, []int{0, 4}, "OpMemberDecorate %in 0 Offset 0\n", "%in = OpTypeStruct %f32\n"), opts: vk13,
			want: "Structure member 1 at offset 4 overlaps previous member ending at offset 15." + u140 + hintStd, agree: oracleVerdict},
		{name: "nested vector straddles through incoming offset", src: ssbo([]string{"%f32", "%in"}, []int{0, 4}, "OpMemberDecorate %in 0 Offset 0\n", "%in = OpTypeStruct %v4\n"), opts: vk13,
			want: "Structure member 0: Vector has improper straddle due to offset 4." + sb430 + hintScalar, agree: oracleVerdict},
		{name: "nested struct missing offset", src: ssbo([]string{"%in"}, []int{0}, "", "%in = OpTypeStruct %f32\n"), opts: vk13,
			want: "Structure member 0 must be explicitly laid out with Offset or OffsetIdEXT decorations." + sb430 + hintScalar, agree: oracleVerdict},

		// Push constants and physical storage buffers use std430.
		{name: "push constant vec4 at 4", src: buffer("PushConstant", "OpMemberDecorate %S 0 Offset 0\nOpMemberDecorate %S 1 Offset 4\n", "%S = OpTypeStruct %f32 %v4", false), opts: vk13,
			want: "Structure member 1: Vector has improper straddle due to offset 4." + via + "PushConstant storage class using standard layout rules." + hintScalar, agree: oracleVerdict},
		{name: "double at 4", src: ssbo([]string{"%f32", "%f64"}, []int{0, 4}, "", ""), opts: vk13,
			want: "Structure member 1 at offset 4 is not aligned to 8." + sb430 + hintScalar, agree: oracleVerdict},

		// Workgroup blocks (SPV_KHR_workgroup_memory_explicit_layout).
		{name: "workgroup block vec3 at 8", src: wgBlock(), opts: vk13,
			want: "Structure member 1: Vector has improper straddle due to offset 8." + via + "Workgroup storage class using standard layout rules." +
				"\nThis is may be allowed if you enable the workgroupMemoryExplicitLayoutScalarBlockLayout feature (or use the --workgroup-scalar-block-layout command line flag)", agree: oracleVerdict},
		{name: "workgroup block vec3 at 8, --workgroup-scalar-block-layout", src: wgBlock(), opts: Options{Env: EnvVulkan1_3, WorkgroupScalarBlockLayout: true}, agree: oracleVerdict},
		{name: "workgroup block vec3 at 8, --scalar-block-layout only", src: wgBlock(), opts: Options{Env: EnvVulkan1_3, ScalarBlockLayout: true}, agree: oracleNone,
			want: "Structure member 1: Vector has improper straddle due to offset 8." + via + "Workgroup storage class using standard layout rules." +
				"\nThis is may be allowed if you enable the workgroupMemoryExplicitLayoutScalarBlockLayout feature (or use the --workgroup-scalar-block-layout command line flag)"},

		// Storage classes that prohibit a layout, and descriptor arrays.
		{name: "Private array with ArrayStride in 1.6", src: comp("OpDecorate %arr ArrayStride 4\n", "%arr = OpTypeArray %f32 %u5\n%pa = OpTypePointer Private %arr\n%pvar = OpVariable %pa Private\n", ""), opts: vk13, agree: oracleNone,
			want: "[VUID-StandaloneSpirv-None-10684] Invalid explicit layout decorations on type '*', the Private storage class has an explicit layout from the ArrayStride decoration"},
		{name: "Private array with ArrayStride in 1.4", src: comp("OpDecorate %arr ArrayStride 4\n", "%arr = OpTypeArray %f32 %u5\n%pa = OpTypePointer Private %arr\n%pvar = OpVariable %pa Private\n", ""),
			patch: setVersion(0x10400), opts: Options{Env: EnvVulkan1_1Spirv1_4}, agree: oracleNone},
		{name: "Function struct with Offset in 1.6", src: comp("OpMemberDecorate %T 0 Offset 0\n", "%T = OpTypeStruct %f32\n%pT = OpTypePointer Function %T\n", "%fv = OpVariable %pT Function"), opts: vk13, agree: oracleNone,
			want: "[VUID-StandaloneSpirv-None-10684] Invalid explicit layout decorations on type '*', the Function storage class has an explicit layout from the Offset decoration"},
		{name: "descriptor array with ArrayStride", src: buffer("StorageBuffer", "OpMemberDecorate %B 0 Offset 0\nOpDecorate %B Block\nOpDecorate %S ArrayStride 16\n", "%B = OpTypeStruct %f32\n%S = OpTypeArray %B %c2", true), opts: vk13, agree: oracleNone,
			want: "[VUID-StandaloneSpirv-None-10684] Invalid explicit layout decorations on type '*', the StorageBuffer storage class has an explicit layout from the ArrayStride decoration"},
		{name: "descriptor array", src: buffer("StorageBuffer", "OpMemberDecorate %B 0 Offset 0\nOpDecorate %B Block\n", "%B = OpTypeStruct %f32\n%S = OpTypeArray %B %c2", true), opts: vk13, agree: oracleVerdict},

		// Not laid out: Vulkan only.
		{name: "universal env ignores layout", src: ssbo([]string{"%v4", "%f32"}, []int{0, 8}, "", ""), agree: oracleNone},
	}
	runMemRuleCases(t, cases)
}

// wgBlock is a Workgroup Block with a vec3 at offset 8.
func wgBlock() string {
	return "OpCapability Shader\nOpCapability WorkgroupMemoryExplicitLayoutKHR\nOpExtension \"SPV_KHR_workgroup_memory_explicit_layout\"\n" +
		"OpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %main \"main\" %wg\nOpExecutionMode %main LocalSize 1 1 1\n" +
		"OpDecorate %S Block\nOpMemberDecorate %S 0 Offset 0\nOpMemberDecorate %S 1 Offset 8\n" +
		"%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%f32 = OpTypeFloat 32\n%v3 = OpTypeVector %f32 3\n%S = OpTypeStruct %f32 %v3\n" +
		"%ptr = OpTypePointer Workgroup %S\n%wg = OpVariable %ptr Workgroup\n" +
		"%main = OpFunction %void None %fn\n%entry = OpLabel\nOpReturn\nOpFunctionEnd\n"
}

// TestBlockLayoutDeepArrays: 30 nested two-element arrays of bytes, each
// stride odd and larger than its element's size, reach 2^30 distinct offsets;
// the checks stay bounded.
func TestBlockLayoutDeepArrays(t *testing.T) {
	var annot, decls strings.Builder
	prev := "%u8"
	size := 1
	for k := 0; k < 30; k++ {
		fmt.Fprintf(&decls, "%%a%d = OpTypeArray %s %%c2\n", k, prev)
		stride := size + 1
		if stride%2 == 0 {
			stride++ // odd strides: element offsets never repeat modulo 16
		}
		fmt.Fprintf(&annot, "OpDecorate %%a%d ArrayStride %d\n", k, stride)
		prev = fmt.Sprintf("%%a%d", k)
		size += stride
	}
	src := "OpCapability Shader\nOpCapability Int8\nOpCapability StorageBuffer8BitAccess\nOpExtension \"SPV_KHR_8bit_storage\"\n" +
		"OpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\n" +
		"OpDecorate %S Block\nOpMemberDecorate %S 0 Offset 0\nOpDecorate %var DescriptorSet 0\nOpDecorate %var Binding 0\n" + annot.String() +
		"%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%u8 = OpTypeInt 8 0\n%u32 = OpTypeInt 32 0\n%c2 = OpConstant %u32 2\n" + decls.String() +
		"%S = OpTypeStruct " + prev + "\n%ptr = OpTypePointer StorageBuffer %S\n%var = OpVariable %ptr StorageBuffer\n" +
		"%main = OpFunction %void None %fn\n%entry = OpLabel\nOpReturn\nOpFunctionEnd\n"
	start := time.Now()
	got := firstError(t, assemble(t, src), Options{Env: EnvVulkan1_3, ScalarBlockLayout: true})
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("took %v", d)
	}
	if got != "" {
		t.Errorf("got %q, want valid", got)
	}
}
