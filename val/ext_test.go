package val

import (
	"errors"
	"fmt"
	"path/filepath"
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
	iface                          string // the entry point's interface ids
	kernel                         bool
	importGLSL                     bool // %glsl = OpExtInstImport "GLSL.std.450"
	importCL                       bool // %cl = OpExtInstImport "OpenCL.std"
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
	if m.importCL {
		b.WriteString("%cl = OpExtInstImport \"OpenCL.std\"\n")
	}
	if m.kernel {
		b.WriteString("OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %main \"main\" " + m.iface + "\n")
	} else {
		// The VulkanMemoryModel capability requires the VulkanKHR model
		// (validate_mode_setting.cpp).
		mm := "GLSL450"
		if strings.Contains(" "+m.caps+" ", " VulkanMemoryModel ") {
			mm = "Vulkan"
		}
		b.WriteString("OpMemoryModel Logical " + mm + "\nOpEntryPoint GLCompute %main \"main\" " + m.iface + "\nOpExecutionMode %main LocalSize 1 1 1\n")
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
		{name: "A Float6EXT without extension", mod: module{caps: "Shader Float6EXT"},
			want: "1st operand of Capability: operand Float6EXT(4228) requires one of these extensions: SPV_EXT_ocp_microscaling_types "},
		{name: "A Float8UnsignedE8M0EXT without extension", mod: module{caps: "Shader Float8UnsignedE8M0EXT"},
			want: "1st operand of Capability: operand Float8UnsignedE8M0EXT(4230) requires one of these extensions: SPV_EXT_ocp_microscaling_types "},
		{name: "A MXInt8EXT without extension", mod: module{caps: "Shader MXInt8EXT"},
			want: "1st operand of Capability: operand MXInt8EXT(4231) requires one of these extensions: SPV_EXT_ocp_microscaling_types "},
		{name: "A Float8EXT without extension", mod: module{caps: "Shader Float8EXT"},
			want: "1st operand of Capability: operand Float8EXT(4212) requires one of these extensions: SPV_EXT_float8 "},
		{name: "A OCP extension alone, no SPV_EXT_float8 needed", mod: module{caps: "Shader Float8UnsignedE8M0EXT", exts: "SPV_EXT_ocp_microscaling_types",
			decls: "%t = OpTypeFloat 8 Float8UnsignedE8M0EXT"}},
		{name: "A Vulkan 1.0 with the extensions", mod: ocp("", ""), patch: setVersion(0x10000), opts: Options{Env: EnvVulkan1_0}},
		{name: "A Vulkan 1.4 with the extensions", mod: ocp("", ""), opts: Options{Env: EnvVulkan1_4}},
		{name: "A Vulkan without extension: the extension message", mod: module{caps: "Shader MXInt8EXT"}, opts: vulkan,
			want: "1st operand of Capability: operand MXInt8EXT(4231) requires one of these extensions: SPV_EXT_ocp_microscaling_types "},
		{name: "A OpenCL without extension", mod: module{kernel: true, caps: "Addresses Kernel MXInt8EXT"}, patch: setVersion(0x10000), opts: Options{Env: EnvOpenCL2_0},
			want: "Capability MXInt8EXT is not allowed by OpenCL 2.0/2.1 Full Profile specification (or requires extension or capability)"},
		{name: "A OpenCL with extension", mod: module{kernel: true, caps: "Addresses Kernel MXInt8EXT Float4EXT", exts: "SPV_EXT_ocp_microscaling_types",
			decls: "%t = OpTypeFloat 8 MXInt8EXT\n%u = OpTypeFloat 4 Float4E2M1EXT"}, patch: setVersion(0x10000), opts: Options{Env: EnvOpenCL2_0}},
		{name: "A E4M3 needs Float8EXT", mod: module{caps: "Shader Float8UnsignedE8M0EXT", exts: ocpExts, decls: "%t = OpTypeFloat 8 Float8E4M3EXT"},
			want: "Operand 3 of TypeFloat requires one of these capabilities: Float8EXT "},
		{name: "A MXInt8 needs MXInt8EXT", mod: module{caps: "Shader Float8UnsignedE8M0EXT", exts: ocpExts, decls: "%t = OpTypeFloat 8 MXInt8EXT"},
			want: "Operand 3 of TypeFloat requires one of these capabilities: MXInt8EXT "},
		{name: "A E2M1 needs Float4EXT", mod: module{caps: "Shader Float6EXT", exts: ocpExts, decls: "%t = OpTypeFloat 4 Float4E2M1EXT"},
			want: "Operand 3 of TypeFloat requires one of these capabilities: Float4EXT "},
		{name: "A E3M2 needs Float6EXT", mod: module{caps: "Shader Float4EXT", exts: ocpExts, decls: "%t = OpTypeFloat 6 Float6E3M2EXT"},
			want: "Operand 3 of TypeFloat requires one of these capabilities: Float6EXT "},

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
		{name: "C FNegate MXINT8", mod: ocp("%k = OpConstant %mxi8 1", "%x = OpFNegate %mxi8 %k"), want: "FNegate doesn't support OCP microscaling types."},
		{name: "C VectorTimesScalar OCP", mod: ocp("%c = OpConstantComposite %v2fp4 %fp4_1 %fp4_1", "%x = OpVectorTimesScalar %v2fp4 %c %fp4_1"),
			want: "VectorTimesScalar doesn't support OCP microscaling types."},
		{name: "C GroupNonUniformFMin OCP", mod: arith("%x = OpGroupNonUniformFMin %e8m0 %u32_3 Reduce %e8m0_1"),
			want: "GroupNonUniformFMin doesn't support OCP microscaling types."},
		{name: "C GroupNonUniformFMax OCP accepted (spirv-val gap)", mod: arith("%x = OpGroupNonUniformFMax %e8m0 %u32_3 Reduce %e8m0_1")},
		{name: "C AtomicLoad OCP", mod: ocpAtomic("%x = OpAtomicLoad %e8m0 %w %u32_2 %u32_0"), want: "AtomicLoad doesn't support OCP microscaling types."},
		{name: "C AtomicStore OCP value", mod: ocpAtomic("OpAtomicStore %w %u32_2 %u32_0 %e8m0_1"), want: "AtomicStore doesn't support OCP microscaling types."},
		{name: "C AtomicStore scalar FP8 accepted (spirv-val gap)", mod: func() module {
			m := ocpAtomic("OpAtomicStore %w8 %u32_2 %u32_0 %e4m3_1")
			m.decls += "\n%p8 = OpTypePointer Workgroup %e4m3\n%w8 = OpVariable %p8 Workgroup"
			m.iface = "%w8"
			return m
		}()},
		{name: "C FOrdEqual FP8", mod: ocp("", "%x = OpFOrdEqual %bool %e4m3_1 %e4m3_1"), want: "FOrdEqual doesn't support FP8 E4M3/E5M2 types."},
		{name: "C MatrixTimesScalar FP8 matrix", mod: ocp(matrix("%e4m3"), "%x = OpMatrixTimesScalar %m %c %e4m3_1"),
			want: "MatrixTimesScalar doesn't support FP8 E4M3/E5M2 types."},
		{name: "C MatrixTimesScalar OCP matrix", mod: ocp(matrix("%e8m0"), "%x = OpMatrixTimesScalar %m %c %e8m0_1"),
			want: "MatrixTimesScalar doesn't support OCP microscaling types."},
		{name: "C OpenCL.std fabs on E4M3", mod: module{kernel: true, caps: "Addresses Kernel Float8EXT", exts: "SPV_EXT_float8", importCL: true,
			decls: "%t = OpTypeFloat 8 Float8E4M3EXT\n%k = OpConstant %t 1", body: "%x = OpExtInst %t %cl fabs %k"},
			want: "OpenCL.std fabs: doesn't support FP8 E4M3/E5M2 types."},
		{name: "C Dot OCP", mod: ocp("%v2e8m0 = OpTypeVector %e8m0 2\n%c = OpConstantComposite %v2e8m0 %e8m0_1 %e8m0_1", "%x = OpDot %e8m0 %c %c"),
			want: "Dot doesn't support OCP microscaling types."},
		{name: "C GroupNonUniformAllEqual OCP value", mod: vote("%x = OpGroupNonUniformAllEqual %bool %u32_3 %fp4_1"),
			want: "GroupNonUniformAllEqual doesn't support OCP microscaling types."},
		{name: "C GroupNonUniformAllEqual FP8 value", mod: vote("%x = OpGroupNonUniformAllEqual %bool %u32_3 %e4m3_1"),
			want: "GroupNonUniformAllEqual doesn't support FP8 E4M3/E5M2 types."},
		{name: "C derivative: the width check first", mod: ocp("", "%x = OpDPdx %fp4 %fp4_1"), want: "Result type component width must be 32 bits"},
		{name: "C IAdd: the int check first", mod: ocp("", "%x = OpIAdd %fp4 %fp4_1 %fp4_1"), want: "Expected int scalar or vector type as Result Type: IAdd"},
		{name: "C GLSL FAbs on E4M3", mod: module{caps: ocpCaps, exts: ocpExts, decls: ocpDecl, body: "%x = OpExtInst %e4m3 %glsl FAbs %e4m3_1", importGLSL: true},
			want: "GLSL.std.450 FAbs: doesn't support FP8 E4M3/E5M2 types."},

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
		{name: "D ConvertFToS OCP Vulkan", mod: ocp("%i32 = OpTypeInt 32 1", "%x = OpConvertFToS %i32 %e2m3_1"), opts: vulkan,
			want: "[VUID-StandaloneSpirv-OpConvertFToU-12465] ConvertFToS must not consume or produce OCP microscaling types in the Vulkan environment."},
		{name: "D ConvertSToF OCP Vulkan", mod: ocp("%i32 = OpTypeInt 32 1\n%i1 = OpConstant %i32 1", "%x = OpConvertSToF %e3m2 %i1"), opts: vulkan,
			want: "[VUID-StandaloneSpirv-OpConvertFToU-12465] ConvertSToF must not consume or produce OCP microscaling types in the Vulkan environment."},
		{name: "D ConvertFToU OCP universal", mod: ocp("", "%x = OpConvertFToU %u32 %fp4_1")},
		{name: "D ConvertFToU FP8 Vulkan", mod: ocp("", "%x = OpConvertFToU %u32 %e4m3_1"), opts: vulkan},
		{name: "D FConvert OCP to E4M3 Vulkan", mod: ocp("", "%x = OpFConvert %e4m3 %e8m0_1"), opts: vulkan},
		{name: "D Bitcast total width", mod: ocp("", "%x = OpBitcast %v4fp4 %u32_0"),
			want: "Expected input to have the same total bit width as Result Type: Bitcast"},
		{name: "D Bitcast u8 to v2 E2M1 Vulkan", mod: ocp("", "%x = OpBitcast %v2fp4 %u8_1"), opts: vulkan},

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
		{name: "E FP4 untyped variable Workgroup", mod: func() module {
			m := ocp("%up = OpTypeUntypedPointerKHR Workgroup\n%v = OpUntypedVariableKHR %up Workgroup %fp4", "")
			m.caps += " UntypedPointersKHR"
			m.exts += " SPV_KHR_untyped_pointers"
			return m
		}(), want: "Cannot allocate a variable containing a Float4EXT or Float6EXT type in Workgroup storage class"},
		{name: "E FP4 function parameter", mod: ocp("%p = OpTypePointer Workgroup %fp4\n%ft = OpTypeFunction %void %p\n%f = OpFunction %void None %ft\n%a = OpFunctionParameter %p\n%fl = OpLabel\nOpReturn\nOpFunctionEnd", "")},
		{name: "E struct member PhysicalStorageBuffer pointer to FP4",
			mod: module{caps: ocpCaps + " PhysicalStorageBufferAddresses", exts: ocpExts, decls: ocpDecl +
				"%pp = OpTypePointer PhysicalStorageBuffer %fp4\n%s = OpTypeStruct %pp\n%p = OpTypePointer Private %s\n%v = OpVariable %p Private"}},
		{name: "E E8M0 and MXINT8 in a StorageBuffer block", mod: ocpBlock("%a = OpTypeRuntimeArray %e8m0\n%s = OpTypeStruct %mxi8 %a\n%p = OpTypePointer StorageBuffer %s\n%v = OpVariable %p StorageBuffer", ""),
			opts: vulkan},
		{name: "E FP4 Workgroup in a Kernel module", mod: module{kernel: true, caps: "Addresses Kernel Float4EXT", exts: "SPV_EXT_ocp_microscaling_types",
			decls: "%fp4 = OpTypeFloat 4 Float4E2M1EXT\n%p = OpTypePointer Workgroup %fp4\n%v = OpVariable %p Workgroup"}},
		{name: "E FP8 Input Vulkan", mod: io("Input", "%e4m3"), opts: vulkan,
			want: "[VUID-StandaloneSpirv-OpTypeFloat-10823] FP8 or OCP microscaling OpVariable <id> '*' must not be declared with a Storage Class of Input or Output."},
		{name: "E E8M0 Output Vulkan", mod: io("Output", "%e8m0"), opts: vulkan,
			want: "[VUID-StandaloneSpirv-OpTypeFloat-10823] FP8 or OCP microscaling OpVariable <id> '*' must not be declared with a Storage Class of Input or Output."},
		{name: "E MXINT8 array in struct Input Vulkan", mod: io("Input", "%s", "%a = OpTypeArray %mxi8 %u32_3\n%s = OpTypeStruct %f32 %a"), opts: vulkan,
			want: "[VUID-StandaloneSpirv-OpTypeFloat-10823] FP8 or OCP microscaling OpVariable <id> '*' must not be declared with a Storage Class of Input or Output."},
		{name: "E E5M2 vector Output Vulkan 1.0", mod: io("Output", "%v2", "%v2 = OpTypeVector %e5m2 2"), patch: setVersion(0x10000), opts: Options{Env: EnvVulkan1_0},
			want: "[VUID-StandaloneSpirv-OpTypeFloat-10823] FP8 or OCP microscaling OpVariable <id> '*' must not be declared with a Storage Class of Input or Output."},
		{name: "E FP4 Input Vulkan: the storage-class check first", mod: io("Input", "%fp4"), opts: vulkan,
			want: "Cannot allocate a variable containing a Float4EXT or Float6EXT type in Input storage class"},
		{name: "E FP8 Input universal", mod: io("Input", "%e4m3")},
		{name: "E E8M0 Output universal", mod: io("Output", "%e8m0")},
		{name: "E MXINT8 Input OpenCL", mod: module{kernel: true, caps: "Addresses Kernel MXInt8EXT", exts: "SPV_EXT_ocp_microscaling_types", iface: "%v",
			decls: "%t = OpTypeFloat 8 MXInt8EXT\n%p = OpTypePointer Input %t\n%v = OpVariable %p Input"}, patch: setVersion(0x10000), opts: Options{Env: EnvOpenCL2_0}},
		{name: "E FP8 Input not in the interface Vulkan", mod: ocp("%p = OpTypePointer Input %e4m3\n%v = OpVariable %p Input", ""), opts: vulkan},
		{name: "E E8M0 Private in the interface Vulkan", mod: func() module {
			m := ocp("%p = OpTypePointer Private %e8m0\n%v = OpVariable %p Private", "")
			m.iface = "%v"
			return m
		}(), opts: vulkan},

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
		{name: "G OCP coopmat needs no gate",
			mod: module{caps: ocpCaps + " CooperativeMatrixKHR VulkanMemoryModel", exts: ocpExts + " SPV_KHR_cooperative_matrix SPV_KHR_vulkan_memory_model",
				decls: ocpDecl + "%u32_3 = OpConstant %u32 3\n%u32_16 = OpConstant %u32 16\n%cm = OpTypeCooperativeMatrixKHR %fp4 %u32_3 %u32_16 %u32_16 %u32_0"}},
		{name: "G FDot4MixAcc32VALVE takes E8M0", mod: func() module {
			m := ocp("%v4e8m0 = OpTypeVector %e8m0 4\n%c = OpConstantComposite %v4e8m0 %e8m0_1 %e8m0_1 %e8m0_1 %e8m0_1",
				"%x = OpFDot4MixAcc32VALVE %f32 %c %c %f32_1")
			m.caps += " DotProductFloat8AccFloat32VALVE"
			m.exts += " SPV_VALVE_mixed_float_dot_product"
			return m
		}()},
		{name: "G FPRoundingMode on OCP FConvert universal", mod: rounding(ocp("", "%x = OpFConvert %fp4 %f32_1"))},
		{name: "G FPRoundingMode on OCP FConvert Kernel", mod: rounding(module{kernel: true, caps: "Addresses Kernel Float4EXT", exts: "SPV_EXT_ocp_microscaling_types",
			decls: "%fp4 = OpTypeFloat 4 Float4E2M1EXT\n%f32 = OpTypeFloat 32\n%f32_1 = OpConstant %f32 1", body: "%x = OpFConvert %fp4 %f32_1"})},
		{name: "G FPRoundingMode on OCP FConvert Vulkan", mod: rounding(ocp("", "%x = OpFConvert %fp4 %f32_1")), opts: vulkan,
			want: "Operand 2 of Decorate requires one of these capabilities: *"},
		{name: "G SpecConstantOp FConvert OCP Kernel", mod: module{kernel: true, caps: "Addresses Kernel Float4EXT", exts: "SPV_EXT_ocp_microscaling_types",
			decls: "%fp4 = OpTypeFloat 4 Float4E2M1EXT\n%f32 = OpTypeFloat 32\n%f32_1 = OpConstant %f32 1\n%x = OpSpecConstantOp %fp4 FConvert %f32_1"}},
		{name: "G ConstantComposite of a spec constant", mod: ocp("%s = OpSpecConstant %fp4 1\n%c = OpConstantComposite %v2fp4 %s %s", ""),
			want: "OpConstantComposite must not have spec constant operands: <id> '*'"},
	})
}

// bx is an OCP module with the BitcastExtractEXT capability.// vote is an OCP module with GroupNonUniformVote and a %u32_3 scope.
func vote(body string) module {
	m := ocp("%u32_3 = OpConstant %u32 3", body)
	m.caps += " GroupNonUniform GroupNonUniformVote"
	return m
}

// arith is an OCP module with GroupNonUniformArithmetic and a %u32_3 scope.
func arith(body string) module {
	m := ocp("%u32_3 = OpConstant %u32 3", body)
	m.caps += " GroupNonUniform GroupNonUniformArithmetic"
	return m
}

// ocpAtomic is an OCP module with an E8M0 Workgroup variable %w and the
// Workgroup scope %u32_2.
func ocpAtomic(body string) module {
	return ocp("%u32_2 = OpConstant %u32 2\n%p = OpTypePointer Workgroup %e8m0\n%w = OpVariable %p Workgroup", body)
}

// matrix declares %m, a 2x2 matrix of the float type elem, and %c, a
// constant of it built from elem's constant elem_1.
func matrix(elem string) string {
	return "%v2 = OpTypeVector " + elem + " 2\n%m = OpTypeMatrix %v2 2\n%cv = OpConstantComposite %v2 " + elem + "_1 " + elem + "_1\n" +
		"%c = OpConstantComposite %m %cv %cv"
}

// io is an OCP module whose entry point lists %v, a variable of type
// elem in storage class sc; decls declares what elem needs.
func io(sc, elem string, decls ...string) module {
	m := ocp("%u32_3 = OpConstant %u32 3\n"+strings.Join(decls, "\n")+"\n%p = OpTypePointer "+sc+" "+elem+"\n%v = OpVariable %p "+sc, "")
	m.iface = "%v"
	return m
}

// ocpBlock is an OCP module whose declarations are one StorageBuffer block
// %v of struct %s, whose members are the scalar and runtime array %a
// of 1-byte types.
func ocpBlock(decls, body string) module {
	m := ocp(decls, body)
	m.annot = "OpDecorate %s Block\nOpMemberDecorate %s 0 Offset 0\nOpMemberDecorate %s 1 Offset 1\nOpDecorate %a ArrayStride 1\n" +
		"OpDecorate %v DescriptorSet 0\nOpDecorate %v Binding 0\n"
	return m
}

// rounding decorates %x with FPRoundingMode RTE.
func rounding(m module) module {
	m.annot += "OpDecorate %x FPRoundingMode RTE\n"
	return m
}

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
	valve := ocp("%v4e8m0 = OpTypeVector %e8m0 4\n%c = OpConstantComposite %v4e8m0 %e8m0_1 %e8m0_1 %e8m0_1 %e8m0_1",
		"%x = OpFDot4MixAcc32VALVE %f32 %c %c %f32_1")
	valve.caps += " DotProductFloat8AccFloat32VALVE"
	valve.exts += " SPV_VALVE_mixed_float_dot_product"
	store := ocpAtomic("OpAtomicStore %w8 %u32_2 %u32_0 %e4m3_1")
	store.decls += "\n%p8 = OpTypePointer Workgroup %e4m3\n%w8 = OpVariable %p8 Workgroup"
	store.iface = "%w8"
	bcast := ocp("%u32_2 = OpConstant %u32 2", "%x = OpGroupBroadcast %e4m3 %u32_2 %e4m3_1 %u32_0")
	bcast.caps += " Groups"
	untyped := module{kernel: true, caps: "Addresses Kernel Float4EXT UntypedPointersKHR", exts: "SPV_EXT_ocp_microscaling_types SPV_KHR_untyped_pointers",
		decls: "%fp4 = OpTypeFloat 4 Float4E2M1EXT\n%up = OpTypeUntypedPointerKHR Workgroup\n%v = OpUntypedVariableKHR %up Workgroup %fp4"}
	coop := module{caps: ocpCaps + " CooperativeMatrixKHR VulkanMemoryModel", exts: ocpExts + " SPV_KHR_cooperative_matrix SPV_KHR_vulkan_memory_model",
		decls: ocpDecl + "%u32_3 = OpConstant %u32 3\n%u32_16 = OpConstant %u32 16\n%cm = OpTypeCooperativeMatrixKHR %fp4 %u32_3 %u32_16 %u32_16 %u32_0"}
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
		{name: "VALVE dot on E8M0 default", mod: valve},
		{name: "VALVE dot on E8M0 strict", mod: valve, opts: strict,
			want: "FDot4MixAcc32VALVE cannot use an object of OCP microscaling type: SPV_EXT_ocp_microscaling_types allows them only in the instructions it lists (spec-strict)"},
		{name: "scalar FP8 AtomicStore default", mod: store},
		{name: "scalar FP8 AtomicStore strict", mod: store, opts: strict,
			want: "AtomicStore cannot use an object of FP8 E4M3/E5M2 type: SPV_EXT_float8 allows them only in the instructions it lists (spec-strict)"},
		{name: "GroupBroadcast FP8 default", mod: bcast},
		{name: "GroupBroadcast FP8 strict", mod: bcast, opts: strict,
			want: "GroupBroadcast cannot use an object of FP8 E4M3/E5M2 type: SPV_EXT_float8 allows them only in the instructions it lists (spec-strict)"},
		{name: "Kernel FP4 untyped Workgroup default", mod: untyped},
		{name: "Kernel FP4 untyped Workgroup strict", mod: untyped, opts: strict,
			want: "Cannot allocate a variable containing a Float4EXT or Float6EXT type in Workgroup storage class"},
		{name: "OCP cooperative matrix type strict", mod: coop, opts: strict},
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

// runTable checks each case's first error, and when the current
// spirv-val is given, its verdict and first line.
func runTable(t *testing.T, cases []rqCase) {
	sv := currentSpirvVal(t)
	dir := t.TempDir()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			words, err := asm.Assemble([]byte(c.src), asm.Options{TargetEnv: c.env.String()})
			if err != nil {
				t.Fatalf("assembling:\n%s\n%v", c.src, err)
			}
			opts := Options{Env: c.env}
			if got := firstError(t, words, opts); got != c.want {
				t.Errorf("got  %q\nwant %q\nmodule:\n%s", got, c.want, c.src)
			}
			if sv != "" {
				first, _, _ := strings.Cut(c.want, "\n")
				checkCurrentSpirvVal(t, sv, filepath.Join(dir, "m.spv"), words, opts, first)
			}
		})
	}
}
