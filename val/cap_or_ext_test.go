package val

import (
	"strings"
	"testing"

	"spvx/asm"
)

// fragment builds a fragment shader: capabilities (space separated), the
// extension lines as they are, the entry point's interface (ids), annotations,
// declarations and the body of main's single block.
func fragment(caps, exts, iface, annot, decls, body string) string {
	var b strings.Builder
	for _, c := range strings.Fields(caps) {
		b.WriteString("OpCapability " + c + "\n")
	}
	b.WriteString(exts + "\n%glsl = OpExtInstImport \"GLSL.std.450\"\nOpMemoryModel Logical GLSL450\n")
	b.WriteString("OpEntryPoint Fragment %main \"main\" " + iface + "\nOpExecutionMode %main OriginUpperLeft\n")
	b.WriteString(annot + "\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n" + decls)
	b.WriteString("\n%main = OpFunction %void None %fn\n%entry = OpLabel\n" + body)
	if !strings.Contains(body, "OpTerminateInvocation") {
		b.WriteString("\nOpReturn")
	}
	b.WriteString("\nOpFunctionEnd\n")
	return b.String()
}

// capOrExtCase is a module for one rule of the form "capability X (or
// version V) or extension Y", validated with and without its extension.
type capOrExtCase struct {
	name      string
	env       Env    // also the assembler's target (the module's version)
	exts      string // the enabling extension(s)
	src       string // uses "{EXT}" where the extensions go
	withExt   string // first message with the extension, "" for valid
	withoutEx string // first message without it
}

// TestCapabilityOrExtension covers every rule whose condition is
// "capability X or extension Y" (or "version V or extension Y"): a module
// that declares the extension but not the capability must pass that rule,
// and the same module without the extension must fail it. Verdicts are
// Debian spirv-val 2023.1's where it knows the rule, else read from
// current SPIRV-Tools (marked "current").
func TestCapabilityOrExtension(t *testing.T) {
	const (
		specUConvert = "%u16 = OpTypeInt 16 0\n%u32 = OpTypeInt 32 0\n%sc = OpSpecConstant %u16 1\n%x = OpSpecConstantOp %u32 UConvert %sc"
		f16Input     = "%h = OpTypeFloat 16\n%p = OpTypePointer Input %h\n%in = OpVariable %p Input"
		frexp        = "%f = OpTypeFloat 32\n%f1 = OpConstant %f 1\n%i16 = OpTypeInt 16 1\n%p = OpTypePointer Function %i16"
		amdGroup     = "%u = OpTypeInt 32 0\n%sg = OpConstant %u 3\n%one = OpConstant %u 1"
		ssbo         = "%u = OpTypeInt 32 0\n%s = OpTypeStruct %u\n%p = OpTypePointer StorageBuffer %s\n%v = OpVariable %p StorageBuffer"
		ssboAnnot    = "OpDecorate %s Block\nOpMemberDecorate %s 0 Offset 0\nOpDecorate %v DescriptorSet 0\nOpDecorate %v Binding 0"
	)
	cases := []capOrExtCase{
		{name: "SpecConstantOp UConvert: Kernel or SPV_AMD_gpu_shader_int16", env: EnvUniversal1_3, exts: "SPV_AMD_gpu_shader_int16",
			src:       fragment("Shader Int16", "{EXT}", "", "", specUConvert, ""),
			withoutEx: "Prior to SPIR-V 1.4, specialization constant operation UConvert requires Kernel capability or extension SPV_AMD_gpu_shader_int16"},
		{name: "16-bit float type: Float16 or SPV_AMD_gpu_shader_half_float", env: EnvUniversal1_3, exts: "SPV_AMD_gpu_shader_half_float",
			src:       fragment("Shader", "{EXT}", "", "", "%h = OpTypeFloat 16", ""),
			withoutEx: "Using a 16-bit floating point type requires the Float16 or Float16Buffer capability, or an extension that explicitly enables 16-bit floating point."},
		// current: Debian's spirv-val allows only 32 bits here.
		{name: "derivative of f16: SPV_AMD_gpu_shader_half_float", env: EnvUniversal1_3, exts: "SPV_AMD_gpu_shader_half_float",
			src:       fragment("Shader Float16 StorageInputOutput16", "{EXT}", "%in", "OpDecorate %in Location 0", f16Input, "%l = OpLoad %h %in\n%d = OpDPdx %h %l"),
			withoutEx: "Result type component width must be 32 bits"},
		{name: "GLSL Frexp 16-bit Exp: SPV_AMD_gpu_shader_int16", env: EnvUniversal1_3, exts: "SPV_AMD_gpu_shader_int16",
			src:       fragment("Shader Int16", "{EXT}", "", "", frexp, "%v = OpVariable %p Function\n%r = OpExtInst %f %glsl Frexp %f1 %v"),
			withoutEx: "GLSL.std.450 Frexp: expected operand Exp data type to be a 32-bit int scalar or vector type"},
		// current: Debian's spirv-val allows only 32 bits here.
		{name: "GLSL InterpolateAtCentroid f16: SPV_AMD_gpu_shader_half_float", env: EnvUniversal1_3, exts: "SPV_AMD_gpu_shader_half_float",
			src: fragment("Shader Float16 StorageInputOutput16 InterpolationFunction", "{EXT}", "%in", "OpDecorate %in Location 0", f16Input,
				"%r = OpExtInst %h %glsl InterpolateAtCentroid %in"),
			withoutEx: "GLSL.std.450 InterpolateAtCentroid: expected Result Type to be a 32-bit float scalar or vector type"},
		{name: "AMD group opcode and Reduce: Groups or SPV_AMD_shader_ballot", env: EnvUniversal1_3, exts: "SPV_AMD_shader_ballot",
			src:       fragment("Shader", "{EXT}", "", "", amdGroup, "%r = OpGroupIAddNonUniformAMD %u %sg Reduce %one"),
			withoutEx: "Opcode GroupIAddNonUniformAMD requires one of these capabilities: Groups "},
		{name: "StorageBuffer operand: SPIR-V 1.3 or extension", env: EnvUniversal1_0, exts: "SPV_KHR_storage_buffer_storage_class",
			src:       fragment("Shader", "{EXT}", "", ssboAnnot, ssbo, ""),
			withoutEx: "2nd operand of TypePointer: operand StorageBuffer(12) requires one of these extensions: SPV_KHR_storage_buffer_storage_class SPV_KHR_variable_pointers "},
		{name: "OpTerminateInvocation: SPIR-V 1.6 or extension", env: EnvUniversal1_5, exts: "SPV_KHR_terminate_invocation",
			src:       fragment("Shader", "{EXT}", "", "", "", "OpTerminateInvocation"),
			withoutEx: "TerminateInvocation requires SPIR-V version 1.6 at minimum or one of the following extensions: SPV_KHR_terminate_invocation "},
		{name: "Vulkan capability enabled by extension", env: EnvVulkan1_0, exts: "SPV_KHR_shader_draw_parameters",
			src:       fragment("Shader DrawParameters", "{EXT}", "", "", "", ""),
			withoutEx: "Capability DrawParameters is not allowed by Vulkan 1.0 specification (or requires extension)"},
		{name: "OpenCL capability enabled by extension", env: EnvOpenCL2_0, exts: "SPV_INTEL_subgroups",
			src: "OpCapability Addresses\nOpCapability Kernel\nOpCapability SubgroupShuffleINTEL\n{EXT}\nOpMemoryModel Physical64 OpenCL\n" +
				"OpEntryPoint Kernel %main \"main\"\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%main = OpFunction %void None %fn\n%l = OpLabel\nOpReturn\nOpFunctionEnd\n",
			withoutEx: "Capability SubgroupShuffleINTEL is not allowed by OpenCL 2.0/2.1 Full Profile specification (or requires extension or capability)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var decl strings.Builder
			for _, e := range strings.Fields(c.exts) {
				decl.WriteString("OpExtension \"" + e + "\"\n")
			}
			check := func(src, want string) {
				t.Helper()
				words, err := asm.Assemble([]byte(src), asm.Options{TargetEnv: c.env.String()})
				if err != nil {
					t.Fatalf("assembling:\n%s\n%v", src, err)
				}
				if got := firstError(t, words, Options{Env: c.env}); got != want {
					t.Errorf("got  %q\nwant %q\nmodule:\n%s", got, want, src)
				}
			}
			check(strings.Replace(c.src, "{EXT}", decl.String(), 1), c.withExt)
			check(strings.Replace(c.src, "{EXT}", "", 1), c.withoutEx)
		})
	}
}
