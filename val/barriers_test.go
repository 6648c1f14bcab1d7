package val

import "testing"

// Barriers, scopes and memory semantics, in several environments.
func TestBarriersScopesSemantics(t *testing.T) {
	const frag = "OpExecutionMode %main OriginUpperLeft\n"
	const vmm = "VulkanMemoryModel"
	sems := "%s66 = OpConstant %uint 66\n%s264 = OpConstant %uint 264\n%s272 = OpConstant %uint 272\n%s256 = OpConstant %uint 256\n" +
		"%s6 = OpConstant %uint 6\n%s8452 = OpConstant %uint 8452\n%s8450 = OpConstant %uint 8450\n%s16648 = OpConstant %uint 16648\n" +
		"%s33032 = OpConstant %uint 33032\n%s258 = OpConstant %uint 258\n%s16644 = OpConstant %uint 16644\n"
	cases := []vcase{
		{name: "control-valid", src: compSrc("", "", sems, "OpControlBarrier %u2 %u2 %s264")},
		{name: "control-valid-vulkan", env: EnvVulkan1_1, src: compSrc("", "", sems, "OpControlBarrier %u2 %u2 %s264")},
		{name: "control-valid-opencl-like-universal-device", src: compSrc("", "", sems, "OpControlBarrier %u1 %u1 %u0")},
		{name: "exec-scope-device-vulkan", env: EnvVulkan1_1, src: compSrc("", "", sems, "OpControlBarrier %u1 %u2 %s264"),
			want: "error: line 36: [VUID-StandaloneSpirv-None-04636] ControlBarrier: in Vulkan environment Execution Scope is limited to Workgroup and Subgroup"},
		{name: "exec-scope-invalid", src: compSrc("", "", sems+"%u7 = OpConstant %uint 7", "OpControlBarrier %u7 %u2 %s264"),
			want: "error: line 37: Invalid scope value:"},
		{name: "mem-scope-crossdevice-vulkan", env: EnvVulkan1_2, src: compSrc("", "", sems, "OpMemoryBarrier %u0 %s264"),
			want: "error: line 36: [VUID-StandaloneSpirv-None-04638] MemoryBarrier: in Vulkan environment Memory Scope is limited to Device, QueueFamily, Workgroup, ShaderCallKHR, Subgroup, or Invocation"},
		{name: "mem-scope-crossdevice-universal", src: compSrc("", "", sems, "OpMemoryBarrier %u0 %s264")},
		{name: "mem-scope-subgroup-vulkan1.0", env: EnvVulkan1_0, src: compSrc("", "", sems, "OpMemoryBarrier %u3 %s264"),
			want: "error: line 36: [VUID-StandaloneSpirv-SubgroupVoteKHR-07951] MemoryBarrier: in Vulkan 1.0 environment Memory Scope is can not be Subgroup without SubgroupBallotKHR or SubgroupVoteKHR declared", gap: "wording: 2023.1 has VUID 06997"},
		{name: "mem-scope-subgroup-vulkan1.1", env: EnvVulkan1_1, src: compSrc("", "", sems, "OpMemoryBarrier %u3 %s264")},
		{name: "queue-family-no-vmm", src: compSrc("", "", sems, "OpMemoryBarrier %u5 %s264"),
			want: "error: line 36: MemoryBarrier: Memory Scope QueueFamilyKHR requires capability VulkanMemoryModelKHR"},
		{name: "device-scope-vmm", src: compSrc(vmm, "Vulkan", sems, "OpMemoryBarrier %u1 %s264"),
			want: "error: line 37: Use of device scope with VulkanKHR memory model requires the VulkanMemoryModelDeviceScopeKHR capability"},
		{name: "device-scope-vmm-ok", src: compSrc(vmm+" VulkanMemoryModelDeviceScope", "Vulkan", sems, "OpMemoryBarrier %u1 %s264")},
		{name: "two-orders", src: compSrc("", "", sems, "OpMemoryBarrier %u2 %s6"),
			want: "error: line 36: MemoryBarrier: Memory Semantics must have at most one non-relaxed memory order bit set", gap: "wording: 2023.1 lists the bits"},
		{name: "two-orders-vulkan", env: EnvVulkan1_3, src: compSrc("", "", sems, "OpMemoryBarrier %u2 %s6"),
			want: "error: line 36: [VUID-StandaloneSpirv-MemorySemantics-10865] MemoryBarrier: Memory Semantics must have at most one non-relaxed memory order bit set", gap: "wording: 2023.1 lists the bits"},
		{name: "seqcst-vulkan", env: EnvVulkan1_1, src: compSrc("", "", sems, "OpMemoryBarrier %u2 %s272"),
			want: "error: line 36: [VUID-StandaloneSpirv-MemorySemantics-10866] MemoryBarrier: Memory Semantics with SequentiallyConsistent memory order must not be used in the Vulkan API", gap: "rule newer than 2023.1"},
		{name: "seqcst-universal", src: compSrc("", "", sems, "OpMemoryBarrier %u2 %s272")},
		{name: "relaxed-barrier-vulkan", env: EnvVulkan1_1, src: compSrc("", "", sems, "OpMemoryBarrier %u2 %u0"),
			want: "error: line 36: [VUID-StandaloneSpirv-MemorySemantics-10869] MemoryBarrier: MemorySemantics must not use Relaxed memory order with MemoryBarrier", gap: "rule newer than 2023.1"},
		{name: "order-without-storage-vulkan", env: EnvVulkan1_1, src: compSrc("", "", sems, "OpMemoryBarrier %u2 %u2"),
			want: "error: line 36: [VUID-StandaloneSpirv-MemorySemantics-10870] MemoryBarrier: Memory Semantics with a non-relaxed memory order (Acquire, Release, or AcquireRelease) must have at least one Vulkan-supported storage class semantics bit set (UniformMemory, WorkgroupMemory, ImageMemory, or OutputMemory)", gap: "rule newer than 2023.1"},
		{name: "storage-without-order-vulkan", env: EnvVulkan1_1, src: compSrc("", "", sems, "%r = OpAtomicIAdd %uint %wg %u2 %s256 %u1"),
			want: "error: line 36: [VUID-StandaloneSpirv-MemorySemantics-10871] AtomicIAdd: Memory Semantics with at least one Vulkan-supported storage class semantics bit set (UniformMemory, WorkgroupMemory, ImageMemory, or OutputMemory) must use a non-relaxed memory order (Acquire, Release, or AcquireRelease)", gap: "rule newer than 2023.1"},
		{name: "storage-without-order-vmm", src: compSrc(vmm, "Vulkan", sems, "%r = OpAtomicIAdd %uint %wg %u2 %s256 %u1"),
			want: "error: line 37: AtomicIAdd: Memory Semantics with at least one Vulkan-supported storage class semantics bit set (UniformMemory, WorkgroupMemory, ImageMemory, or OutputMemory) must use a non-relaxed memory order (Acquire, Release, or AcquireRelease)", gap: "rule newer than 2023.1"},
		{name: "storage-without-order-universal", src: compSrc("", "", sems, "%r = OpAtomicIAdd %uint %wg %u2 %s256 %u1")},
		{name: "store-acquire", src: compSrc("", "", sems, "OpAtomicStore %wg %u2 %u2 %u1"),
			want: "error: line 36: AtomicStore: MemorySemantics must not use Acquire or AcquireRelease memory order with AtomicStore", gap: "rule newer than 2023.1"},
		{name: "load-release", src: compSrc("", "", sems, "%r = OpAtomicLoad %uint %wg %u2 %u4"),
			want: "error: line 36: AtomicLoad: MemorySemantics must not use Release or AcquireRelease memory order with AtomicLoad", gap: "rule newer than 2023.1"},
		{name: "make-available-no-vmm", src: compSrc("", "", sems, "OpMemoryBarrier %u2 %s8452"),
			want: "error: line 36: MemoryBarrier: Memory Semantics MakeAvailableKHR requires capability VulkanMemoryModelKHR"},
		{name: "make-available-acquire", src: compSrc(vmm, "Vulkan", sems, "OpMemoryBarrier %u2 %s8450"),
			want: "error: line 37: MemoryBarrier: Memory Semantics with MakeAvailable bit set must use Release or AcquireRelease memory order", gap: "wording: 2023.1 words it otherwise"},
		{name: "make-visible-release", src: compSrc(vmm, "Vulkan", sems, "OpMemoryBarrier %u2 %s16644"),
			want: "error: line 37: MemoryBarrier: Memory Semantics with MakeVisible bit set must use Acquire or AcquireRelease memory order", gap: "wording: 2023.1 words it otherwise"},
		{name: "make-visible-ok", src: compSrc(vmm, "Vulkan", sems, "OpMemoryBarrier %u2 %s16648")},
		{name: "volatile-barrier", src: compSrc(vmm, "Vulkan", sems, "OpMemoryBarrier %u2 %s33032"),
			want: "error: line 37: MemoryBarrier: Memory Semantics with Volatile bit set must not be used with barrier instructions", gap: "wording: 2023.1 words it otherwise"},
		{name: "invocation-scope-acquire-vulkan", env: EnvVulkan1_1, src: compSrc("", "", sems, "%r = OpAtomicIAdd %uint %wg %u4 %s258 %u1"),
			want: "error: line 36: [VUID-StandaloneSpirv-None-04641] AtomicIAdd: Vulkan specification requires Memory Semantics to be Relaxed if used with Invocation Memory Scope", gap: "wording: 2023.1 says None"},
		{name: "nonuniform-scope-universal", src: compSrc("GroupNonUniform", "", sems, "%r = OpGroupNonUniformElect %bool %u2"),
			want: "error: line 37: GroupNonUniformElect: Execution scope is limited to Subgroup", gap: "rule newer than 2023.1"},
		{name: "nonuniform-scope-vulkan", env: EnvVulkan1_1, src: compSrc("GroupNonUniform", "", sems, "%r = OpGroupNonUniformElect %bool %u2"),
			want: "error: line 37: [VUID-StandaloneSpirv-None-04642] GroupNonUniformElect: in Vulkan environment Execution scope is limited to Subgroup"},
		{name: "nonuniform-scope-ok", env: EnvVulkan1_1, src: compSrc("GroupNonUniform", "", sems, "%r = OpGroupNonUniformElect %bool %u3")},
		// Execution-model limitations registered by scopes and barriers.
		{name: "barrier-fragment-spv1.2", env: EnvUniversal1_2, src: modelSrc("Fragment", frag, "", "", sems, "OpControlBarrier %u2 %u2 %u0"),
			want: "error: line 34: OpEntryPoint Entry Point <id> '1[%1]'s callgraph contains function <id> '1[%1]', which cannot be used with the current execution model:"},
		{name: "barrier-fragment-spv1.3", env: EnvUniversal1_3, src: modelSrc("Fragment", frag, "", "", sems, "OpControlBarrier %u2 %u2 %u0")},
		{name: "barrier-fragment-vulkan", env: EnvVulkan1_1, src: modelSrc("Fragment", frag, "", "", sems, "OpControlBarrier %u3 %u3 %u0"),
			want: ""},
		{name: "barrier-fragment-workgroup-vulkan", env: EnvVulkan1_1, src: modelSrc("Fragment", frag, "", "", sems, "OpControlBarrier %u2 %u3 %u0"),
			want: "error: line 34: OpEntryPoint Entry Point <id> '1[%1]'s callgraph contains function <id> '1[%1]', which cannot be used with the current execution model:"},
		{name: "workgroup-memscope-fragment-vulkan", env: EnvVulkan1_1, src: modelSrc("Fragment", frag, "", "", sems, "OpMemoryBarrier %u2 %s264"),
			want: "error: line 34: OpEntryPoint Entry Point <id> '1[%1]'s callgraph contains function <id> '1[%1]', which cannot be used with the current execution model:"},
		{name: "workgroup-memscope-tesscontrol-glsl450", env: EnvVulkan1_1, src: modelSrc("TessellationControl", "OpExecutionMode %main OutputVertices 3\n", "Tessellation", "", sems, "OpMemoryBarrier %u2 %s264"),
			want: "error: line 35: OpEntryPoint Entry Point <id> '1[%1]'s callgraph contains function <id> '1[%1]', which cannot be used with the current execution model:"},
		{name: "workgroup-memscope-tesscontrol-vmm", env: EnvVulkan1_1, src: modelSrc("TessellationControl", "OpExecutionMode %main OutputVertices 3\n", "Tessellation VulkanMemoryModel SPV_KHR_vulkan_memory_model", "Vulkan", sems, "OpMemoryBarrier %u2 %s264")},
	}
	runCases(t, cases)
}
