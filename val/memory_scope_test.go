package val

import (
	"path/filepath"
	"strings"
	"testing"

	"spvx/asm"
	"spvx/spirv"
)

// msModule is a Vulkan-memory-model compute shader with a storage
// buffer %buf (member pointer %p), a storage image %img (loaded as %im)
// and scope constants; caps are extra capabilities and body the code
// after %p and %im.
func msModule(caps, body string) string {
	return `OpCapability Shader
OpCapability VulkanMemoryModel
OpCapability StorageImageReadWithoutFormat
OpCapability StorageImageWriteWithoutFormat
` + caps + `OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %main "main" %buf %buf2 %img
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %blk Block
OpMemberDecorate %blk 0 Offset 0
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
OpDecorate %buf2 DescriptorSet 0
OpDecorate %buf2 Binding 2
OpDecorate %img DescriptorSet 0
OpDecorate %img Binding 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%u32 = OpTypeInt 32 0
%f32 = OpTypeFloat 32
%v4 = OpTypeVector %f32 4
%v2i = OpTypeVector %u32 2
%blk = OpTypeStruct %u32
%pblk = OpTypePointer StorageBuffer %blk
%pu = OpTypePointer StorageBuffer %u32
%it = OpTypeImage %f32 2D 0 0 0 2 Unknown
%pit = OpTypePointer UniformConstant %it
%buf = OpVariable %pblk StorageBuffer
%buf2 = OpVariable %pblk StorageBuffer
%img = OpVariable %pit UniformConstant
%cross = OpConstant %u32 0
%dev = OpConstant %u32 1
%wg = OpConstant %u32 2
%bad = OpConstant %u32 9
%four = OpConstant %u32 4
%fz = OpConstant %f32 0
%v4z = OpConstantComposite %v4 %fz %fz %fz %fz
%co = OpConstantComposite %v2i %cross %cross
%main = OpFunction %void None %fn
%entry = OpLabel
%p = OpAccessChain %pu %buf %cross
%q = OpAccessChain %pu %buf2 %cross
%im = OpLoad %it %img
` + body + `OpReturn
OpFunctionEnd
`
}

const msDeviceCap = "OpCapability VulkanMemoryModelDeviceScope\n"

// msCases cover the memory scopes of MakePointerAvailable/Visible on
// OpLoad, OpStore and both memory accesses of OpCopyMemory(Sized), and
// of MakeTexelAvailable/Visible on OpImageWrite/OpImageRead.
func msCases() []rqCase {
	vk := func(name, src, want string) rqCase {
		return rqCase{name: name, src: src, want: want, env: EnvVulkan1_3}
	}
	return []rqCase{
		rq("load visible workgroup", msModule("", "%x = OpLoad %u32 %p MakePointerVisible|NonPrivatePointer %wg\n"), ""),
		rq("load visible float scope", msModule("", "%x = OpLoad %u32 %p MakePointerVisible|NonPrivatePointer %fz\n"),
			"Load: expected scope to be a 32-bit int"),
		rq("load visible scope not constant", msModule("", "%s = OpLoad %u32 %p\n%x = OpLoad %u32 %p MakePointerVisible|NonPrivatePointer %s\n"),
			"Scope ids must be OpConstant when Shader capability is present"),
		rq("load aligned visible device", msModule("", "%x = OpLoad %u32 %p Aligned|MakePointerVisible|NonPrivatePointer 4 %dev\n"),
			"Use of device scope with VulkanKHR memory model requires the VulkanMemoryModelDeviceScopeKHR capability"),
		rq("load aligned visible device cap", msModule(msDeviceCap, "%x = OpLoad %u32 %p Aligned|MakePointerVisible|NonPrivatePointer 4 %dev\n"), ""),
		rq("store available workgroup", msModule("", "OpStore %p %cross MakePointerAvailable|NonPrivatePointer %wg\n"), ""),
		rq("store available float scope", msModule("", "OpStore %p %cross MakePointerAvailable|NonPrivatePointer %fz\n"),
			"Store: expected scope to be a 32-bit int"),
		vk("store available cross device vulkan", msModule("", "OpStore %p %cross MakePointerAvailable|NonPrivatePointer %cross\n"),
			"[VUID-StandaloneSpirv-None-04638] Store: in Vulkan environment Memory Scope is limited to Device, QueueFamily, Workgroup, ShaderCallKHR, Subgroup, or Invocation"),
		vk("store available workgroup vulkan", msModule("", "OpStore %p %cross MakePointerAvailable|NonPrivatePointer %wg\n"), ""),
		rq("copy available and visible", msModule("", "OpCopyMemory %p %q MakePointerAvailable|MakePointerVisible|NonPrivatePointer %wg %wg\n"), ""),
		rq("copy visible scope after available", msModule("", "OpCopyMemory %p %q MakePointerAvailable|MakePointerVisible|NonPrivatePointer %wg %fz\n"),
			"CopyMemory: expected scope to be a 32-bit int"),
		rq("copy two accesses", msModule("", "OpCopyMemory %p %q MakePointerAvailable|NonPrivatePointer %wg MakePointerVisible|NonPrivatePointer %wg\n"), ""),
		rq("copy second access scope", msModule("", "OpCopyMemory %p %q MakePointerAvailable|NonPrivatePointer %wg MakePointerVisible|NonPrivatePointer %fz\n"),
			"CopyMemory: expected scope to be a 32-bit int"),
		rq("copy sized second access device", msModule("OpCapability Addresses\n", "OpCopyMemorySized %p %q %four MakePointerAvailable|NonPrivatePointer %wg MakePointerVisible|NonPrivatePointer %dev\n"),
			"Use of device scope with VulkanKHR memory model requires the VulkanMemoryModelDeviceScopeKHR capability"),
		rq("image write available workgroup", msModule("", "OpImageWrite %im %co %v4z MakeTexelAvailable|NonPrivateTexel %wg\n"), ""),
		rq("image write available float scope", msModule("", "OpImageWrite %im %co %v4z MakeTexelAvailable|NonPrivateTexel %fz\n"),
			"ImageWrite: expected scope to be a 32-bit int"),
		rq("image read visible device", msModule("", "%r = OpImageRead %v4 %im %co MakeTexelVisible|NonPrivateTexel %dev\n"),
			"Use of device scope with VulkanKHR memory model requires the VulkanMemoryModelDeviceScopeKHR capability"),
		rq("image read visible device cap", msModule(msDeviceCap, "%r = OpImageRead %v4 %im %co MakeTexelVisible|NonPrivateTexel %dev\n"), ""),
		rq("image read sample visible scope", msModule("", "%r = OpImageRead %v4 %im %co MakeTexelVisible|NonPrivateTexel %bad\n"),
			"Invalid scope value:"),
	}
}

// TestMemoryAccessScopes is the table of memory-access and texel scope
// rules (memory_rules.go, image_operands.go); every case's verdict and
// first line are current spirv-val's, re-checked when
// $SPVX_CURRENT_SPIRV_TOOLS is set.
func TestMemoryAccessScopes(t *testing.T) { runCurrentTable(t, msCases()) }

// runCurrentTable assembles and validates each case, comparing the
// first line of the first message with want and, with
// $SPVX_CURRENT_SPIRV_TOOLS set, with current spirv-val.
func runCurrentTable(t *testing.T, cases []rqCase) {
	sv := currentSpirvVal(t)
	dir := t.TempDir()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			words, err := asm.Assemble([]byte(c.src), asm.Options{TargetEnv: c.env.String()})
			if err != nil {
				t.Fatalf("assembling:\n%s\n%v", c.src, err)
			}
			opts := Options{Env: c.env}
			got, _, _ := strings.Cut(firstError(t, words, opts), "\n")
			if got != c.want {
				t.Errorf("got  %q\nwant %q\nmodule:\n%s", got, c.want, c.src)
			}
			if sv != "" {
				checkCurrentSpirvVal(t, sv, filepath.Join(dir, "m.spv"), words, opts, c.want)
			}
		})
	}
}

// FuzzMemoryAccessScopes validates mutations of the scope table's
// modules: the scope checks must never panic on malformed operands.
func FuzzMemoryAccessScopes(f *testing.F) {
	for _, c := range msCases() {
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
