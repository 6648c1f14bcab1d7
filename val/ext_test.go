package val

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"spvx/asm"
	"spvx/spirv"
	"spvx/subgroup"
)

// module builds a compute module: capabilities and extensions (space
// separated), annotations, declarations (types, constants, variables),
// and the body of main's single block.
type module struct {
	caps, exts, annot, decls, body string
	kernel                         bool
	importGLSL                     bool // %glsl = OpExtInstImport "GLSL.std.450"
}

func (m module) text() string {
	var b strings.Builder
	for _, c := range strings.Fields(m.caps) {
		fmt.Fprintf(&b, "OpCapability %s\n", c)
	}
	for _, e := range strings.Fields(m.exts) {
		fmt.Fprintf(&b, "OpExtension %q\n", e)
	}
	if m.importGLSL {
		b.WriteString("%glsl = OpExtInstImport \"GLSL.std.450\"\n")
	}
	if m.kernel {
		b.WriteString("OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %main \"main\"\n")
	} else {
		// The VulkanMemoryModel capability requires the VulkanKHR model
		// (validate_mode_setting.cpp).
		mm := "GLSL450"
		if strings.Contains(" "+m.caps+" ", " VulkanMemoryModel ") {
			mm = "Vulkan"
		}
		b.WriteString("OpMemoryModel Logical " + mm + "\nOpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\n")
	}
	b.WriteString(m.annot)
	b.WriteString("\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n")
	b.WriteString(m.decls)
	b.WriteString("\n%main = OpFunction %void None %fn\n%entry = OpLabel\n")
	b.WriteString(m.body)
	b.WriteString("\nOpReturn\nOpFunctionEnd\n")
	return b.String()
}

// assembleF is assemble for a fuzz target's seed corpus.
func assembleF(f *testing.F, src string) []uint32 {
	f.Helper()
	words, err := asm.Assemble([]byte(src), asm.Options{})
	if err != nil {
		f.Fatalf("assembling:\n%s\n%v", src, err)
	}
	return words
}

// assemble assembles src, failing the test on an assembler error.
func assemble(t *testing.T, src string) []uint32 {
	t.Helper()
	words, err := asm.Assemble([]byte(src), asm.Options{})
	if err != nil {
		t.Fatalf("assembling:\n%s\n%v", src, err)
	}
	return words
}

// firstError validates words and returns the first message with its VUID
// prefix, or "" when the module is valid.
func firstError(t *testing.T, words []uint32, opts Options) string {
	t.Helper()
	m, err := spirv.DecodeWords(words)
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	err = Validate(m, opts)
	if err == nil {
		return ""
	}
	var list ErrorList
	if !errors.As(err, &list) || len(list) == 0 {
		t.Fatalf("Validate returned %T %v", err, err)
	}
	return list[0].Error()
}

// patchInst rewrites the first instruction with opcode op whose word
// at is equal to match (at < 0: any): f gets its words and returns the
// replacement (possibly of another length). This writes what the
// assembler refuses.
func patchInst(op spirv.Opcode, at int, match uint32, f func([]uint32) []uint32) func([]uint32) []uint32 {
	return func(w []uint32) []uint32 {
		for i := 5; i < len(w); {
			n := int(w[i] >> 16)
			if n == 0 || i+n > len(w) {
				break
			}
			inst := w[i : i+n]
			if spirv.Opcode(inst[0]&0xFFFF) == op && (at < 0 || (at < n && inst[at] == match)) {
				repl := f(append([]uint32(nil), inst...))
				repl[0] = uint32(len(repl))<<16 | uint32(op)
				out := append(append(append([]uint32(nil), w[:i]...), repl...), w[i+n:]...)
				return out
			}
			i += n
		}
		panic("patchInst: instruction not found")
	}
}

// floatPatch rewrites the OpTypeFloat of the given width.
func floatPatch(width uint32, f func([]uint32) []uint32) func([]uint32) []uint32 {
	return patchInst(spirv.OpTypeFloat, 2, width, f)
}

func setWord(k int, v uint32) func([]uint32) []uint32 {
	return func(w []uint32) []uint32 { w[k] = v; return w }
}

func appendWord(v uint32) func([]uint32) []uint32 {
	return func(w []uint32) []uint32 { return append(w, v) }
}

type extCase struct {
	name  string
	mod   module
	patch func([]uint32) []uint32
	opts  Options
	want  string // first message, "" for valid; a "*" matches any text
}

// matches reports whether got is want, where a "*" in want stands for
// any text (ids the assembler picks).
func matches(got, want string) bool {
	if !strings.Contains(want, "*") {
		return got == want
	}
	pre, post, _ := strings.Cut(want, "*")
	return len(got) >= len(pre)+len(post) && strings.HasPrefix(got, pre) && strings.HasSuffix(got, post)
}

func runExtCases(t *testing.T, cases []extCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			words := assemble(t, c.mod.text())
			if c.patch != nil {
				words = c.patch(words)
			}
			if got := firstError(t, words, c.opts); !matches(got, c.want) {
				t.Errorf("got  %q\nwant %q\nmodule:\n%s", got, c.want, c.mod.text())
			}
		})
	}
}

const (
	ocpCaps = "Shader Int8 Float4EXT Float6EXT Float8UnsignedE8M0EXT MXInt8EXT Float8EXT"
	ocpExts = "SPV_EXT_ocp_microscaling_types SPV_EXT_float8"
	ocpDecl = `
%fp4 = OpTypeFloat 4 Float4E2M1EXT
%e2m3 = OpTypeFloat 6 Float6E2M3EXT
%e3m2 = OpTypeFloat 6 Float6E3M2EXT
%e8m0 = OpTypeFloat 8 Float8UnsignedE8M0EXT
%mxi8 = OpTypeFloat 8 MXInt8EXT
%e4m3 = OpTypeFloat 8 Float8E4M3EXT
%e5m2 = OpTypeFloat 8 Float8E5M2EXT
%f32 = OpTypeFloat 32
%u8 = OpTypeInt 8 0
%u32 = OpTypeInt 32 0
%bool = OpTypeBool
%v2fp4 = OpTypeVector %fp4 2
%v4fp4 = OpTypeVector %fp4 4
%v2u8 = OpTypeVector %u8 2
%v2u32 = OpTypeVector %u32 2
%v2f32 = OpTypeVector %f32 2
%u32_0 = OpConstant %u32 0
%u8_1 = OpConstant %u8 1
%f32_1 = OpConstant %f32 1
%fp4_1 = OpConstant %fp4 1
%e2m3_1 = OpConstant %e2m3 1
%e4m3_1 = OpConstant %e4m3 1
%e8m0_1 = OpConstant %e8m0 1
`
)

// ocp is a module with every FP8/OCP type declared.
func ocp(decls, body string) module {
	return module{caps: ocpCaps, exts: ocpExts, decls: ocpDecl + decls, body: body}
}

var vulkan = Options{Env: EnvVulkan1_3}

// TestOCPRules covers OCP-MX-RULES.md §2.2 A–G with spirv-val's messages.
func TestOCPRules(t *testing.T) {
	runExtCases(t, []extCase{
		{name: "all types valid", mod: ocp("", "")},

		// A. capability and extension gating.
		{name: "A cap without extension", mod: module{caps: "Shader Float4EXT"},
			want: "1st operand of Capability: operand Float4EXT(4229) requires one of these extensions: SPV_EXT_ocp_microscaling_types "},
		{name: "A Float8EXT needs SPV_EXT_float8", mod: module{caps: "Shader Float8EXT", exts: "SPV_EXT_ocp_microscaling_types"},
			want: "1st operand of Capability: operand Float8EXT(4212) requires one of these extensions: SPV_EXT_float8 "},
		{name: "A encoding without its capability", mod: module{caps: "Shader MXInt8EXT", exts: ocpExts, decls: "%t = OpTypeFloat 8 Float8UnsignedE8M0EXT"},
			want: "Operand 3 of TypeFloat requires one of these capabilities: Float8UnsignedE8M0EXT "},
		{name: "A saturation decoration without Float8EXT",
			mod:  module{caps: "Shader Float4EXT", exts: ocpExts, annot: "OpDecorate %x SaturatedToLargestFloat8NormalConversionEXT", decls: "%x = OpTypeFloat 32"},
			want: "Operand 2 of Decorate requires one of these capabilities: Float8EXT "},
		{name: "A BitcastExtractEXT without capability", mod: ocp("", "%x = OpBitcastExtractEXT %fp4 %u8_1 %u32_0"),
			want: "Opcode BitcastExtractEXT requires one of these capabilities: BitcastExtractEXT "},

		// B. OpTypeFloat.
		{name: "B 32 with encoding", mod: module{caps: "Shader Float8EXT", exts: "SPV_EXT_float8", decls: "%t = OpTypeFloat 32"},
			patch: floatPatch(32, appendWord(uint32(spirv.FPEncodingFloat8E4M3EXT))),
			want:  "32-bit floating point type must not have encoding parameter."},
		{name: "B 4 requires an encoding", mod: module{caps: "Shader", decls: "%t = OpTypeFloat 32"}, patch: floatPatch(32, setWord(2, 4)),
			want: "4-bit floating point type requires an encoding."},
		{name: "B 6 requires an encoding", mod: module{caps: "Shader", decls: "%t = OpTypeFloat 32"}, patch: floatPatch(32, setWord(2, 6)),
			want: "6-bit floating point type requires an encoding."},
		{name: "B 8 gate before encoding", mod: module{caps: "Shader", decls: "%t = OpTypeFloat 32"}, patch: floatPatch(32, setWord(2, 8)),
			want: "Using a 8-bit floating point type requires one of the following capabilities: Float8EXT, Float8UnsignedE8M0EXT, MXInt8EXT."},
		{name: "B 8 requires an encoding", mod: module{caps: "Shader Float8EXT", exts: "SPV_EXT_float8", decls: "%t = OpTypeFloat 32"}, patch: floatPatch(32, setWord(2, 8)),
			want: "8-bit floating point type requires an encoding."},
		{name: "B 4 unsupported encoding", mod: ocp("", ""), patch: floatPatch(4, setWord(3, uint32(spirv.FPEncodingFloat6E3M2EXT))),
			want: fmt.Sprintf("Unsupported 4-bit floating point encoding (%d).", spirv.FPEncodingFloat6E3M2EXT)},
		{name: "B 6 unsupported encoding", mod: ocp("", ""), patch: floatPatch(6, setWord(3, uint32(spirv.FPEncodingFloat8E4M3EXT))),
			want: fmt.Sprintf("Unsupported 6-bit floating point encoding (%d).", spirv.FPEncodingFloat8E4M3EXT)},
		{name: "B 8 unsupported encoding", mod: ocp("", ""), patch: floatPatch(8, setWord(3, uint32(spirv.FPEncodingFloat4E2M1EXT))),
			want: fmt.Sprintf("Unsupported 8-bit floating point encoding (%d).", spirv.FPEncodingFloat4E2M1EXT)},
		{name: "B 16 unsupported encoding", mod: module{caps: "Shader Float16 Float8EXT", exts: "SPV_EXT_float8", decls: "%h = OpTypeFloat 16"},
			patch: floatPatch(16, appendWord(uint32(spirv.FPEncodingFloat8E4M3EXT))),
			want:  fmt.Sprintf("Unsupported 16-bit floating point encoding (%d).", spirv.FPEncodingFloat8E4M3EXT)},
		{name: "B 64 with encoding", mod: module{caps: "Shader Float64 Float8EXT", exts: "SPV_EXT_float8", decls: "%d = OpTypeFloat 64"},
			patch: floatPatch(64, appendWord(uint32(spirv.FPEncodingFloat8E4M3EXT))),
			want:  "64-bit floating point type must not have encoding parameter."},
		{name: "B 16 without Float16", mod: ocp("%h = OpTypeFloat 16", ""),
			want: "Using a 16-bit floating point type requires the Float16 or Float16Buffer capability, or an extension that explicitly enables 16-bit floating point."},
		{name: "B 8 without any 8-bit capability", mod: module{caps: "Shader", decls: "%t = OpTypeFloat 8 Float8E4M3EXT"},
			want: "Operand 3 of TypeFloat requires one of these capabilities: Float8EXT "},
		{name: "B 64 without Float64", mod: ocp("%d = OpTypeFloat 64", ""),
			want: "Using a 64-bit floating point type requires the Float64 capability."},
		{name: "B invalid width", mod: module{caps: "Shader", decls: "%t = OpTypeFloat 32"}, patch: floatPatch(32, setWord(2, 7)),
			want: "Invalid number of bits (7) used for OpTypeFloat."},

		// C. deny-list.
		{name: "C FAdd OCP", mod: ocp("", "%x = OpFAdd %fp4 %fp4_1 %fp4_1"), want: "FAdd doesn't support OCP microscaling types."},
		{name: "C FAdd FP8", mod: ocp("", "%x = OpFAdd %e4m3 %e4m3_1 %e4m3_1"), want: "FAdd doesn't support FP8 E4M3/E5M2 types."},
		{name: "C FMul vector OCP", mod: ocp("%c = OpConstantComposite %v2fp4 %fp4_1 %fp4_1", "%x = OpFMul %v2fp4 %c %c"),
			want: "FMul doesn't support OCP microscaling types."},
		{name: "C IsNan FP8", mod: ocp("", "%x = OpIsNan %bool %e4m3_1"), want: "IsNan doesn't support FP8 E4M3/E5M2 types."},
		{name: "C FOrdLessThan OCP", mod: ocp("", "%x = OpFOrdLessThan %bool %e2m3_1 %e2m3_1"),
			want: "FOrdLessThan doesn't support OCP microscaling types."},
		{name: "C GLSL FAbs on E2M1 accepted (spirv-val gap)",
			mod: module{caps: ocpCaps, exts: ocpExts, decls: ocpDecl, body: "%x = OpExtInst %fp4 %glsl FAbs %fp4_1", importGLSL: true}},
		{name: "C FConvert E4M3 to E5M2 is fine", mod: ocp("", "%x = OpFConvert %e5m2 %e4m3_1")},

		// D. conversions.
		{name: "D FConvert same component", mod: ocp("", "%x = OpFConvert %fp4 %fp4_1"),
			want: "Expected component type of Value to be different from component type of Result Type: FConvert"},
		{name: "D FConvert E2M3 to E3M2", mod: ocp("", "%x = OpFConvert %e3m2 %e2m3_1")},
		{name: "D FConvert to OCP universal", mod: ocp("", "%x = OpFConvert %fp4 %f32_1")},
		{name: "D FConvert to OCP Vulkan", mod: ocp("", "%x = OpFConvert %fp4 %f32_1"), opts: vulkan,
			want: "[VUID-StandaloneSpirv-OpFConvert-12466] FConvert must not produce OCP microscaling types in the Vulkan environment."},
		{name: "D FConvert OCP to OCP Vulkan is 12466", mod: ocp("", "%x = OpFConvert %e3m2 %e2m3_1"), opts: vulkan,
			want: "[VUID-StandaloneSpirv-OpFConvert-12466] FConvert must not produce OCP microscaling types in the Vulkan environment."},
		{name: "D FConvert from OCP Vulkan", mod: ocp("", "%x = OpFConvert %f32 %fp4_1"), opts: vulkan},
		{name: "D ConvertFToU OCP Vulkan", mod: ocp("", "%x = OpConvertFToU %u32 %fp4_1"), opts: vulkan,
			want: "[VUID-StandaloneSpirv-OpConvertFToU-12465] ConvertFToU must not consume or produce OCP microscaling types in the Vulkan environment."},
		{name: "D ConvertUToF OCP Vulkan", mod: ocp("", "%x = OpConvertUToF %e8m0 %u32_0"), opts: vulkan,
			want: "[VUID-StandaloneSpirv-OpConvertFToU-12465] ConvertUToF must not consume or produce OCP microscaling types in the Vulkan environment."},
		{name: "D ConvertUToF OCP universal", mod: ocp("", "%x = OpConvertUToF %e8m0 %u32_0")},
		{name: "D SpecConstantOp FConvert Vulkan", mod: ocp("%x = OpSpecConstantOp %fp4 FConvert %f32_1", ""), opts: vulkan,
			want: "[VUID-StandaloneSpirv-OpFConvert-12466] SpecConstantOp must not produce OCP microscaling types in the Vulkan environment."},
		{name: "D SpecConstantOp FConvert universal", mod: ocp("%x = OpSpecConstantOp %fp4 FConvert %f32_1", "")},

		// D. OpBitcastExtractEXT, each rule in order.
		{name: "D extract valid", mod: bx("%x = OpBitcastExtractEXT %fp4 %u8_1 %u32_0"), opts: vulkan},
		{name: "D extract u16 from u32 outside Vulkan", mod: bx("%x = OpBitcastExtractEXT %u8 %u32_0 %u32_0")},
		{name: "D extract 1 result not numerical", mod: bx("%x = OpBitcastExtractEXT %bool %u8_1 %u32_0"),
			want: "Expected Result Type to be a numerical scalar or vector type: BitcastExtractEXT"},
		{name: "D extract 1 Vulkan VUID", mod: bx("%x = OpBitcastExtractEXT %bool %u8_1 %u32_0"), opts: vulkan,
			want: "[VUID-StandaloneSpirv-Result-12468] Expected Result Type to be a numerical scalar or vector type: BitcastExtractEXT"},
		{name: "D extract 2 Vulkan E8M0 result", mod: bx("%x = OpBitcastExtractEXT %e8m0 %u32_0 %u32_0"), opts: vulkan,
			want: "[VUID-StandaloneSpirv-Result-12468] Expected Result Type to be a Float4EXT or Float6EXT type in the Vulkan environment: BitcastExtractEXT"},
		{name: "D extract 3 base not numerical", mod: bx("%b = OpConstantTrue %bool", "%x = OpBitcastExtractEXT %fp4 %b %u32_0"),
			want: "Expected Base to be a numerical scalar or vector type: BitcastExtractEXT"},
		{name: "D extract 4 Vulkan float base", mod: bx("%x = OpBitcastExtractEXT %fp4 %f32_1 %u32_0"), opts: vulkan,
			want: "[VUID-StandaloneSpirv-Base-12469] Expected Base to be an integer scalar or vector type in the Vulkan environment: BitcastExtractEXT"},
		{name: "D extract 4 float base universal", mod: bx("%x = OpBitcastExtractEXT %fp4 %f32_1 %u32_0")},
		{name: "D extract 5 dimension", mod: bx("%x = OpBitcastExtractEXT %v2fp4 %u8_1 %u32_0"),
			want: "Expected Base to have the same dimension as Result Type: BitcastExtractEXT"},
		{name: "D extract 6 width", mod: bx("%x = OpBitcastExtractEXT %u32 %u32_0 %u32_0"),
			want: "Expected Base component bit width to be greater than Result Type component bit width: BitcastExtractEXT"},
		{name: "D extract 7 offset", mod: bx("%x = OpBitcastExtractEXT %fp4 %u8_1 %f32_1"),
			want: "Expected Offset to be a scalar integer type: BitcastExtractEXT"},

		// E. storage classes.
		{name: "E FP4 Workgroup", mod: ocp("%p = OpTypePointer Workgroup %fp4\n%v = OpVariable %p Workgroup", ""),
			want: "Cannot allocate a variable containing a Float4EXT or Float6EXT type in Workgroup storage class"},
		{name: "E FP6 in struct StorageBuffer", mod: ocp("%s = OpTypeStruct %u32 %e3m2\n%p = OpTypePointer StorageBuffer %s\n%v = OpVariable %p StorageBuffer", ""),
			want: "Cannot allocate a variable containing a Float4EXT or Float6EXT type in StorageBuffer storage class"},
		{name: "E FP4 Private", mod: ocp("%p = OpTypePointer Private %fp4\n%v = OpVariable %p Private", "")},
		{name: "E FP4 Function", mod: ocp("%p = OpTypePointer Function %fp4", "%v = OpVariable %p Function")},
		{name: "E pointer to PhysicalStorageBuffer FP4 in Function",
			mod: module{caps: ocpCaps + " PhysicalStorageBufferAddresses", exts: ocpExts, decls: ocpDecl +
				"%pp = OpTypePointer PhysicalStorageBuffer %fp4\n%p = OpTypePointer Function %pp", body: "%v = OpVariable %p Function"},
			want: "Cannot allocate a variable containing a Float4EXT or Float6EXT type in PhysicalStorageBuffer storage class"},
		{name: "E E8M0 Workgroup", mod: ocp("%p = OpTypePointer Workgroup %e8m0\n%v = OpVariable %p Workgroup", "")},
		{name: "E pointer type alone", mod: ocp("%p = OpTypePointer Workgroup %fp4", "")},

		// F. literals.
		{name: "F FP4 literal high bits", mod: ocp("", ""), patch: patchInst(spirv.OpConstant, 3, 2, setWord(3, 0x12)),
			want: "The high-order bits of a literal number in instruction <id> * must be 0 for a floating-point type, or 0 for an integer type with Signedness of 0, or sign extended when Signedness is 1"},
		{name: "F MXINT8 literal is zero-extended", mod: ocp("%k = OpConstant %mxi8 1", ""), patch: patchInst(spirv.OpConstant, 3, 0x40, setWord(3, 0xFFFFFF40)),
			want: "The high-order bits of a literal number in instruction <id> * must be 0 for a floating-point type, or 0 for an integer type with Signedness of 0, or sign extended when Signedness is 1"},
		{name: "F signed int literal sign-extended", mod: module{caps: "Shader Int8", decls: "%i8 = OpTypeInt 8 1\n%k = OpConstant %i8 -1"}},
		{name: "F E8M0 NaN word is fine", mod: ocp("", ""), patch: patchInst(spirv.OpConstant, 3, 0x7F, setWord(3, 0xFF))},

		// G. cooperative matrices.
		{name: "G FP8 coopmat without Float8CooperativeMatrixEXT",
			mod: module{caps: ocpCaps + " CooperativeMatrixKHR VulkanMemoryModel", exts: ocpExts + " SPV_KHR_cooperative_matrix SPV_KHR_vulkan_memory_model",
				decls: ocpDecl + "%u32_3 = OpConstant %u32 3\n%u32_16 = OpConstant %u32 16\n%cm = OpTypeCooperativeMatrixKHR %e4m3 %u32_3 %u32_16 %u32_16 %u32_0"},
			want: "OpTypeCooperativeMatrix Component Type <id> '*[%fp8e4m3]'require Float8CooperativeMatrixEXT be declared."},
	})
}

// bx is an OCP module with the BitcastExtractEXT capability.
func bx(declsAndBody ...string) module {
	m := ocp("", "")
	m.caps += " BitcastExtractEXT"
	if len(declsAndBody) == 2 {
		m.decls += declsAndBody[0]
		m.body = declsAndBody[1]
	} else {
		m.body = declsAndBody[0]
	}
	return m
}

var _ = subgroup.CheckSupported

// TestSpecStrict: what spirv-val accepts and --spec-strict rejects
// (OCP-MX-RULES.md §2.3), and what both accept.
func TestSpecStrict(t *testing.T) {
	strict := Options{SpecStrict: true}
	fmax := ocp("%u32_3 = OpConstant %u32 3", "%x = OpGroupNonUniformFMax %e4m3 %u32_3 Reduce %e4m3_1")
	fmax.caps += " GroupNonUniform GroupNonUniformArithmetic"
	satFAdd := ocp("%f32_2 = OpConstant %f32 2", "%x = OpFAdd %f32 %f32_1 %f32_2")
	satFAdd.annot = "OpDecorate %x SaturatedToLargestFloat8NormalConversionEXT"
	satConv := ocp("", "%x = OpFConvert %e4m3 %f32_1")
	satConv.annot = "OpDecorate %x SaturatedToLargestFloat8NormalConversionEXT"
	satFP4 := ocp("", "%x = OpFConvert %fp4 %f32_1")
	satFP4.annot = "OpDecorate %x SaturatedToLargestFloat8NormalConversionEXT"
	kernel := module{kernel: true, caps: "Addresses Kernel Float4EXT", exts: "SPV_EXT_ocp_microscaling_types",
		decls: "%fp4 = OpTypeFloat 4 Float4E2M1EXT\n%p = OpTypePointer Workgroup %fp4\n%v = OpVariable %p Workgroup"}
	glsl := module{caps: ocpCaps, exts: ocpExts, decls: ocpDecl, body: "%x = OpExtInst %fp4 %glsl FAbs %fp4_1", importGLSL: true}
	allowed := ocp("%p = OpTypePointer Function %e4m3\n%t = OpConstantTrue %bool",
		"%v = OpVariable %p Function\nOpStore %v %e4m3_1\n%l = OpLoad %e4m3 %v\n%s = OpSelect %e4m3 %t %l %e4m3_1\n%c = OpFConvert %f32 %s")
	const (
		fp8Msg = "GroupNonUniformFMax cannot use an object of FP8 E4M3/E5M2 type: SPV_EXT_float8 allows them only in the instructions it lists (spec-strict)"
		satMsg = "The SaturatedToLargestFloat8NormalConversionEXT decoration must decorate an OpFConvert, OpConvertSToF or OpConvertUToF whose Result Type is an FP8 E4M3/E5M2 type (spec-strict)"
	)
	runExtCases(t, []extCase{
		{name: "FMax FP8 default", mod: fmax},
		{name: "FMax FP8 strict", mod: fmax, opts: strict, want: fp8Msg},
		{name: "saturation on FAdd default", mod: satFAdd},
		{name: "saturation on FAdd strict", mod: satFAdd, opts: strict, want: satMsg},
		{name: "saturation on FConvert to E2M1 strict", mod: satFP4, opts: strict, want: satMsg},
		{name: "saturation on FConvert to E4M3 strict", mod: satConv, opts: strict},
		{name: "Kernel FP4 Workgroup default", mod: kernel},
		{name: "Kernel FP4 Workgroup strict", mod: kernel, opts: strict,
			want: "Cannot allocate a variable containing a Float4EXT or Float6EXT type in Workgroup storage class"},
		{name: "GLSL FAbs on E2M1 strict (Extension class)", mod: glsl, opts: strict},
		{name: "memory, select, conversion strict", mod: allowed, opts: strict},
	})
}

// TestCoreRules covers rules of current spirv-val that Debian's 2023.1
// oracle lacks or words differently, with current SPIRV-Tools' messages.
func TestCoreRules(t *testing.T) {
	dup := module{caps: "Shader", annot: "OpDecorate %x RelaxedPrecision\nOpDecorate %x RelaxedPrecision",
		decls: "%u32 = OpTypeInt 32 0\n%c = OpConstant %u32 1", body: "%x = OpIAdd %u32 %c %c"}
	both := module{caps: "Shader", annot: "OpMemberDecorate %s 0 RowMajor\nOpMemberDecorate %s 0 ColMajor",
		decls: "%f = OpTypeFloat 32\n%v = OpTypeVector %f 4\n%mat = OpTypeMatrix %v 4\n%s = OpTypeStruct %mat"}
	noEntry := module{caps: "Shader", decls: ""}
	runExtCases(t, []extCase{
		{name: "decoration twice", mod: dup, want: "ID '*' decorated with RelaxedPrecision multiple times is not allowed."},
		{name: "RowMajor and ColMajor", mod: both, want: "ID '*', member '0' decorated with both ColMajor and RowMajor is not allowed."},
		{name: "no entry point", mod: noEntry, patch: dropEntryPoint,
			want: "No OpEntryPoint instruction was found. This is only allowed if the Linkage or GraphARM capability is being used."},
		{name: "SPV_KHR_vulkan_memory_model in 1.0", mod: module{caps: "Shader", exts: "SPV_KHR_vulkan_memory_model"}, patch: setVersion(0x10000),
			want: "SPV_KHR_vulkan_memory_model extension requires SPIR-V version 1.3 or later."},
	})
}

// dropEntryPoint removes the OpEntryPoint and OpExecutionMode.
func dropEntryPoint(w []uint32) []uint32 {
	out := append([]uint32(nil), w[:5]...)
	for i := 5; i < len(w); {
		n := int(w[i] >> 16)
		if op := w[i] & 0xFFFF; op != uint32(spirv.OpEntryPoint) && op != uint32(spirv.OpExecutionMode) {
			out = append(out, w[i:i+n]...)
		}
		i += n
	}
	return out
}

func setVersion(v uint32) func([]uint32) []uint32 {
	return func(w []uint32) []uint32 { w[1] = v; return w }
}
