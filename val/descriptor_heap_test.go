package val

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"spvx/asm"
	"spvx/spirv"
)

// dhModule is a compute shader with SPV_EXT_descriptor_heap: the
// untyped UniformConstant heaps %rh (ResourceHeapEXT) and %sh
// (SamplerHeapEXT), sampler, image and acceleration-structure types and
// body in the entry point. decos and decls replace the default
// decorations and are added to the types.
func dhModule(decos, decls, body string) string {
	if decos == "" {
		decos = dhDecos
	}
	return `OpCapability Shader
OpCapability UntypedPointersKHR
OpCapability DescriptorHeapEXT
OpCapability RayQueryKHR
OpExtension "SPV_KHR_untyped_pointers"
OpExtension "SPV_EXT_descriptor_heap"
OpExtension "SPV_KHR_ray_query"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %rh %sh
OpExecutionMode %main LocalSize 1 1 1
` + decos + `%void = OpTypeVoid
%fn = OpTypeFunction %void
%u32 = OpTypeInt 32 0
%f32 = OpTypeFloat 32
%c0 = OpConstant %u32 0
%up = OpTypeUntypedPointerKHR UniformConstant
%sbp = OpTypeUntypedPointerKHR StorageBuffer
%samp = OpTypeSampler
%img = OpTypeImage %f32 2D 0 0 0 1 Unknown
%ast = OpTypeAccelerationStructureKHR
` + decls + `%rh = OpUntypedVariableKHR %up UniformConstant
%sh = OpUntypedVariableKHR %up UniformConstant
%main = OpFunction %void None %fn
%entry = OpLabel
` + body + `OpReturn
OpFunctionEnd
`
}

// noHeapStruct is a compute shader without descriptor heaps declaring a
// struct of member (%img is an image, %arr an array of samplers).
func noHeapStruct(member string) string {
	return `OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%u32 = OpTypeInt 32 0
%f32 = OpTypeFloat 32
%c2 = OpConstant %u32 2
%img = OpTypeImage %f32 2D 0 0 0 1 Unknown
%samp = OpTypeSampler
%arr = OpTypeArray %samp %c2
%st = OpTypeStruct ` + member + `
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
`
}

// texelPtr is an OpUntypedImageTexelPointerEXT of type rt into image
// type it at image (%a: an R32ui storage image in the resource heap),
// with coordinate co and sample.
func texelPtr(rt, it, image, co, sample string) string {
	return dhModule("", `%c1 = OpConstant %u32 1
%fz = OpConstant %f32 0
%v2 = OpTypeVector %u32 2
%v2f = OpTypeVector %f32 2
%co = OpConstantComposite %v2 %c0 %c0
%fco = OpConstantComposite %v2f %fz %fz
%simg = OpTypeImage %u32 2D 0 0 0 2 R32ui
%rgba = OpTypeImage %u32 2D 0 0 0 2 Rgba8ui
%ip = OpTypeUntypedPointerKHR Image
`, "%a = OpUntypedAccessChainKHR %up %simg %rh\n%tp = OpUntypedImageTexelPointerEXT "+rt+" "+it+" "+image+" "+co+" "+sample+"\n")
}

// dhDecos are dhModule's default decorations.
const dhDecos = "OpDecorate %rh BuiltIn ResourceHeapEXT\nOpDecorate %sh BuiltIn SamplerHeapEXT\n"

// dhCases cover the descriptor-heap rules.
func dhCases() []rqCase {
	vk := func(name, src, want string) rqCase {
		return rqCase{name: name, src: src, want: want, env: EnvVulkan1_3}
	}
	n := 0
	load := func(ty, heap string) string {
		n++
		return fmt.Sprintf("%%a%[1]d = OpUntypedAccessChainKHR %%up %[2]s %[3]s\n%%l%[1]d = OpLoad %[2]s %%a%[1]d\n", n, ty, heap)
	}
	return []rqCase{
		vk("heaps", dhModule("", "", load("%samp", "%sh")+load("%img", "%rh")+load("%ast", "%rh")+"%bp = OpBufferPointerEXT %sbp %rh\n"), ""),
		rq("buffer pointer uniform", dhModule("", "%ubp = OpTypeUntypedPointerKHR Uniform\n", "%bp = OpBufferPointerEXT %ubp %rh\n"), ""),
		rq("buffer pointer through chain", dhModule("", "", "%a = OpUntypedAccessChainKHR %up %img %rh\n%bp = OpBufferPointerEXT %sbp %a\n"), ""),
		rq("buffer pointer not pointer", dhModule("", "", "%bp = OpBufferPointerEXT %u32 %rh\n"),
			"OpBufferPointerEXT's Result Type should be a pointer type."),
		rq("buffer pointer storage class", dhModule("", "%pcp = OpTypeUntypedPointerKHR PushConstant\n", "%bp = OpBufferPointerEXT %pcp %rh\n"),
			"OpBufferPointerEXT Result Type must be a pointer type with a Storage Class of Uniform or StorageBuffer."),
		rq("buffer pointer sampler heap", dhModule("", "", "%bp = OpBufferPointerEXT %sbp %sh\n"),
			"OpBufferPointerEXT's buffer must be an untyped pointer into a variable declared with the ResourceHeapEXT built-in"),
		vk("sampler from resource heap", dhModule("", "", load("%samp", "%rh")),
			"[VUID-StandaloneSpirv-Result-11336] OpTypeSampler pointer instruction has no descriptor set or binding and is not derived from a variable decorated with SamplerHeapEXT"),
		rq("sampler from resource heap universal", dhModule("", "", load("%samp", "%rh")), ""),
		vk("image from sampler heap", dhModule("", "", load("%img", "%sh")),
			"[VUID-StandaloneSpirv-Result-11337] OpTypeImage pointer instruction has no descriptor set or binding and is not derived from a variable decorated with ResourceHeapEXT"),
		vk("acceleration structure from sampler heap", dhModule("", "", load("%ast", "%sh")),
			"[VUID-StandaloneSpirv-Result-11339] OpTypeAccelerationStructureKHR pointer instruction has no descriptor set or binding and is not derived from a variable decorated with ResourceHeapEXT"),
		vk("resource heap in storage buffer", strings.Replace(dhModule("OpDecorate %rh BuiltIn ResourceHeapEXT\nOpDecorate %sh BuiltIn SamplerHeapEXT\nOpDecorate %st Block\nOpMemberDecorate %st 0 Offset 0\n", "%st = OpTypeStruct %u32\n", ""), "%rh = OpUntypedVariableKHR %up UniformConstant", "%rh = OpUntypedVariableKHR %sbp StorageBuffer %st", 1),
			"[VUID-ResourceHeapEXT-ResourceHeapEXT-11241] The variable decorated with ResourceHeapEXT must be declared using the UniformConstant storage class."),
		vk("sampler heap in storage buffer", strings.Replace(dhModule("OpDecorate %rh BuiltIn ResourceHeapEXT\nOpDecorate %sh BuiltIn SamplerHeapEXT\nOpDecorate %st Block\nOpMemberDecorate %st 0 Offset 0\n", "%st = OpTypeStruct %u32\n", ""), "%sh = OpUntypedVariableKHR %up UniformConstant", "%sh = OpUntypedVariableKHR %sbp StorageBuffer %st", 1),
			"[VUID-SamplerHeapEXT-SamplerHeapEXT-11239] The variable decorated with SamplerHeapEXT must be declared using the UniformConstant storage class."),
		vk("struct of descriptors", dhModule("", "%ds = OpTypeStruct %img %samp %ast\n", ""), ""),
		vk("struct of sampled image", dhModule("", "%si = OpTypeSampledImage %img\n%ds = OpTypeStruct %si\n", ""),
			"[VUID-StandaloneSpirv-DescriptorHeapEXT-11482] In Vulkan, OpTypeStruct must not contain an invalid opaque type."),
		vk("struct of image without heaps", noHeapStruct("%img"),
			"[VUID-StandaloneSpirv-None-04667] In Vulkan, OpTypeStruct must not contain an invalid opaque type."),
		vk("array of sampler in struct without heaps", noHeapStruct("%arr"),
			"[VUID-StandaloneSpirv-None-04667] In Vulkan, OpTypeStruct must not contain an invalid opaque type."),
		vk("struct of u32 without heaps", noHeapStruct("%u32"), ""),
		rq("struct of image universal", noHeapStruct("%img"), ""),
		vk("untyped texel pointer", texelPtr("%ip", "%simg", "%a", "%co", "%c0"), ""),
		vk("untyped texel pointer storage class", texelPtr("%sbp", "%simg", "%a", "%co", "%c0"),
			"Expected Result Type to be a pointer whose Storage Class operand is Image"),
		vk("untyped texel pointer image not pointer", texelPtr("%ip", "%simg", "%c0", "%co", "%c0"),
			"Expected Image to be OpTypeUntypedPointerKHR"),
		vk("untyped texel pointer image type", texelPtr("%ip", "%u32", "%a", "%co", "%c0"),
			"Expected Image to be OpTypeUntypedPointerKHRwith Type OpTypeImage"),
		vk("untyped texel pointer float coordinate", texelPtr("%ip", "%simg", "%a", "%fco", "%c0"),
			"Expected Coordinate to be a 32-bit integer scalar or vector"),
		vk("untyped texel pointer short coordinate", texelPtr("%ip", "%simg", "%a", "%c0", "%c0"),
			"Expected Coordinate to have at least 2 components, but given only 1"),
		vk("untyped texel pointer sample", texelPtr("%ip", "%simg", "%a", "%co", "%c1"),
			"Expected Sample for Image with MS 0 to be a valid <id> for the value 0"),
		vk("untyped texel pointer format", texelPtr("%ip", "%rgba", "%a", "%co", "%c0"),
			"[VUID-StandaloneSpirv-OpUntypedImageTexelPointerEXT-11416] Expected the Image Format in Image to be R64i, R64ui, R32f, R32i, or R32ui for Vulkan environment using OpUntypedImageTexelPointerEXT"),
		rq("untyped texel pointer format universal", texelPtr("%ip", "%rgba", "%a", "%co", "%c0"), ""),
		rq("size of image", dhModule("", "%sz = OpConstantSizeOfEXT %u32 %img\n%bt = OpTypeBufferEXT StorageBuffer\n%bz = OpConstantSizeOfEXT %u32 %bt\n", ""), ""),
		rq("size of float", dhModule("", "%sz = OpConstantSizeOfEXT %u32 %f32\n", ""),
			"For OpConstantSizeOfEXT instruction, its Type operand <Id> '7[%float]' must be a Descriptor type."),
		rq("size as float", dhModule("", "%sz = OpConstantSizeOfEXT %f32 %img\n", ""),
			"For OpConstantSizeOfEXT instruction, its result type must be a 32-bit or 64-bit integer type scalar. (OpCapability Int64 is required for 64-bit)"),
		vk("typed buffer pointer layout", dhModule(dhDecos+"OpDecorate %st Block\nOpMemberDecorate %st 0 Offset 0\nOpMemberDecorate %st 1 Offset 4\n", "%st = OpTypeStruct %u32 %f32\n%pst = OpTypePointer StorageBuffer %st\n", "%bp = OpBufferPointerEXT %pst %rh\n"), ""),
		vk("typed buffer pointer overlapping members", dhModule(dhDecos+"OpDecorate %st Block\nOpMemberDecorate %st 0 Offset 0\nOpMemberDecorate %st 1 Offset 2\n", "%st = OpTypeStruct %u32 %f32\n%pst = OpTypePointer StorageBuffer %st\n", "%bp = OpBufferPointerEXT %pst %rh\n"),
			"Structure member 1 at offset 2 is not aligned to 4. Instantiated via '17[%17]' in the StorageBuffer storage class using standard layout rules."),
		vk("heap member built-in", dhModule(dhDecos+"OpMemberDecorate %st 0 BuiltIn SamplerHeapEXT\n", "%st = OpTypeStruct %u32\n", ""),
			"BuiltIn SamplerHeapEXT cannot be used as a member decoration "),
		rq("heap member built-in universal", dhModule(dhDecos+"OpMemberDecorate %st 0 BuiltIn SamplerHeapEXT\n", "%st = OpTypeStruct %u32\n", ""), ""),
		vk("image from sampler heap with binding", dhModule("OpDecorate %rh BuiltIn ResourceHeapEXT\nOpDecorate %sh BuiltIn SamplerHeapEXT\nOpDecorate %sh Binding 0\n", "", load("%img", "%sh")), ""),
	}
}

// TestDescriptorHeap is the SPV_EXT_descriptor_heap rule table
// (descriptor_heap.go), checked against current spirv-val when
// $SPVX_CURRENT_SPIRV_TOOLS is set.
func TestDescriptorHeap(t *testing.T) { runCurrentTable(t, dhCases()) }

// FuzzDescriptorHeap validates mutations of the table's modules: the
// descriptor-heap rules must never panic on malformed operands.
func FuzzDescriptorHeap(f *testing.F) {
	for _, c := range dhCases() {
		f.Add(wordsToBytes(assembleF(f, c.src)))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := spirv.Decode(b)
		if err != nil {
			return
		}
		_ = Validate(m, Options{All: true})
		_ = Validate(m, Options{All: true, Env: EnvVulkan1_3})
	})
}

// TestDescriptorHeapChainLinear: n images loaded each through a chain
// one longer than the last from the resource heap. Finding each load's
// heap walks the chain; the walks share their results, so 4n loads
// cost about 4 times n loads (a walk per load would cost 16 times).
func TestDescriptorHeapChainLinear(t *testing.T) {
	module := func(n int) *spirv.Module {
		var b strings.Builder
		b.WriteString("%a0 = OpUntypedAccessChainKHR %up %img %rh\n")
		for k := 1; k <= n; k++ {
			fmt.Fprintf(&b, "%%a%d = OpUntypedAccessChainKHR %%up %%img %%a%d\n%%l%d = OpLoad %%img %%a%d\n", k, k-1, k, k)
		}
		words, err := asm.Assemble([]byte(dhModule("", "", b.String())), asm.Options{TargetEnv: "vulkan1.3"})
		if err != nil {
			t.Fatal(err)
		}
		m, err := spirv.DecodeWords(words)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	cost := func(m *spirv.Module) time.Duration {
		d, err := validationCPU(m, Options{Env: EnvVulkan1_3})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	const n = 3000
	ms, ml := module(n), module(4*n)
	small, large := cost(ms), cost(ml)
	// Milliseconds of CPU time on a loaded machine can be off by 2x in one
	// measurement; a quadratic cost (a ratio near 16) shows in every one.
	for retry := 0; retry < 2 && small > 0 && large > 8*small; retry++ {
		small, large = cost(ms), cost(ml)
	}
	if small > 0 && large > 8*small {
		t.Errorf("%d chained loads took %v, %d took %v (ratio %.1f, linear is about 4)", n, small, 4*n, large, float64(large)/float64(small))
	}
}

// TestBuiltinMembersHugeIndex: a BuiltIn member decoration with a member
// index far past the struct's members (found by FuzzDescriptorHeap)
// costs no allocation sized by the index. ValidateTypeStruct counting
// the built-in members once allocated a slice of that length, 1.2 GB
// here.
func TestBuiltinMembersHugeIndex(t *testing.T) {
	src := `OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpMemberDecorate %st 1275068416 BuiltIn Position
%void = OpTypeVoid
%fn = OpTypeFunction %void
%f32 = OpTypeFloat 32
%st = OpTypeStruct %f32
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
`
	m, err := spirv.DecodeWords(assemble(t, src))
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	err = Validate(m, Options{All: true})
	runtime.ReadMemStats(&after)
	if err == nil {
		t.Error("the out-of-range member decoration is accepted")
	}
	if d := after.TotalAlloc - before.TotalAlloc; d > 64<<20 {
		t.Errorf("Validate allocated %d MB for one struct", d>>20)
	}
}
