package val

import "testing"

func TestAtomics(t *testing.T) {
	iadd := func(ptr, scope, sem string) string {
		return "%r = OpAtomicIAdd %uint " + ptr + " " + scope + " " + sem + " %u1"
	}
	const ld = "%ld = OpLoad %uint %pv\n"
	cases := []vcase{
		{name: "valid", src: compSrc("", "", "", iadd("%wg", "%u2", "%u0"))},
		{name: "valid-vulkan", env: EnvVulkan1_1, src: compSrc("", "", "", iadd("%wg", "%u2", "%u0"))},
		{name: "valid-acqrel-vulkan", env: EnvVulkan1_2, src: compSrc("", "", "%sem = OpConstant %uint 264", iadd("%wg", "%u2", "%sem"))},
		{name: "result-float", src: compSrc("", "", "%ptr_wgf = OpTypePointer Workgroup %float\n%wgf = OpVariable %ptr_wgf Workgroup\n%f1 = OpConstant %float 1",
			"%r = OpAtomicIAdd %float %wgf %u2 %u0 %f1"), want: "error: line 28: AtomicIAdd: expected Result Type to be integer scalar type"},
		{name: "load-bool", src: compSrc("", "", "", "%r = OpAtomicLoad %bool %wg %u2 %u0"),
			want: "error: line 25: AtomicLoad: expected Result Type to be integer or float scalar type"},
		{name: "not-pointer", src: compSrc("", "", "", iadd("%u1", "%u2", "%u0")),
			want: "error: line 25: AtomicIAdd: expected Pointer to be a pointer type", gap: "wording: 2023.1 says OpTypePointer"},
		{name: "private", src: compSrc("", "", "", iadd("%pv", "%u2", "%u0")),
			want: "error: line 25: AtomicIAdd: Can not be used with storage class Private by universal validation rules", gap: "wording: 2023.1 does not name the class"},
		{name: "function-shader", src: compSrc("", "", "", "%fv = OpVariable %ptr_fn Function\n"+iadd("%fv", "%u2", "%u0")),
			want: "error: line 26: AtomicIAdd: Function storage class forbidden when the Shader capability is declared."},
		{name: "function-vulkan", env: EnvVulkan1_0, src: compSrc("", "", "", "%fv = OpVariable %ptr_fn Function\n"+iadd("%fv", "%u2", "%u0")),
			want: "error: line 26: [VUID-StandaloneSpirv-None-04686] AtomicIAdd: Function is not allowed, the Vulkan spec only allows storage classes for atomic to be: Uniform, Workgroup, Image, StorageBuffer, PhysicalStorageBuffer or TaskPayloadWorkgroupEXT.", gap: "wording: 2023.1 does not name the class"},
		{name: "pointee", src: compSrc("", "", "%ptr_wgi = OpTypePointer Workgroup %int\n%wgi = OpVariable %ptr_wgi Workgroup", iadd("%wgi", "%u2", "%u0")),
			want: "error: line 27: AtomicIAdd: expected Pointer to point to a value of type Result Type"},
		{name: "int64-no-cap", src: compSrc("Int64", "", "%ul = OpTypeInt 64 0\n%ptr_wgl = OpTypePointer Workgroup %ul\n%wgl = OpVariable %ptr_wgl Workgroup\n%l1 = OpConstant %ul 1",
			"%r = OpAtomicIAdd %ul %wgl %u2 %u0 %l1"), want: "error: line 30: AtomicIAdd: 64-bit atomics require the Int64Atomics capability"},
		{name: "int64-ok", src: compSrc("Int64 Int64Atomics", "", "%ul = OpTypeInt 64 0\n%ptr_wgl = OpTypePointer Workgroup %ul\n%wgl = OpVariable %ptr_wgl Workgroup\n%l1 = OpConstant %ul 1",
			"%r = OpAtomicIAdd %ul %wgl %u2 %u0 %l1")},
		{name: "store-value-type", src: compSrc("", "", "%i1 = OpConstant %int 1", "OpAtomicStore %wg %u2 %u0 %i1"),
			want: "error: line 26: AtomicStore: expected Value type and the type pointed to by Pointer to be the same"},
		{name: "value-type", src: compSrc("", "", "%i1 = OpConstant %int 1", "%r = OpAtomicIAdd %uint %wg %u2 %u0 %i1"),
			want: "error: line 26: AtomicIAdd: expected Value to be of type Result Type"},
		{name: "comparator-type", src: compSrc("", "", "%i1 = OpConstant %int 1", "%r = OpAtomicCompareExchange %uint %wg %u2 %u0 %u0 %u1 %i1"),
			want: "error: line 26: AtomicCompareExchange: expected Comparator to be of type Result Type"},
		{name: "unequal-release", src: compSrc("", "", "", "%r = OpAtomicCompareExchange %uint %wg %u2 %u0 %u4 %u1 %u1"),
			want: "error: line 25: AtomicCompareExchange Unequal Memory Semantics must not use Release or AcquireRelease memory order", gap: "rule newer than 2023.1"},
		{name: "unequal-stronger", src: compSrc("", "", "", "%r = OpAtomicCompareExchange %uint %wg %u2 %u0 %u2 %u1 %u1"),
			want: "error: line 25: AtomicCompareExchange Unequal Memory Semantics must not use a stronger memory order than the corresponding Equal Memory Semantics", gap: "rule newer than 2023.1"},
		{name: "scope-not-const", src: compSrc("", "", "", ld+iadd("%wg", "%ld", "%u0")),
			want: "error: line 26: Scope ids must be OpConstant when Shader capability is present"},
		{name: "scope-value", src: compSrc("", "", "%u9 = OpConstant %uint 9", iadd("%wg", "%u9", "%u0")),
			want: "error: line 26: Invalid scope value:"},
		{name: "scope-64", src: compSrc("Int64", "", "%ul = OpTypeInt 64 0\n%l2 = OpConstant %ul 2", iadd("%wg", "%l2", "%u0")),
			want: "error: line 28: AtomicIAdd: expected scope to be a 32-bit int"},
		{name: "semantics-not-const", src: compSrc("", "", "", ld+iadd("%wg", "%u2", "%ld")),
			want: "error: line 26: Memory Semantics ids must be OpConstant when Shader capability is present"},
		{name: "semantics-float", src: compSrc("", "", "%f0 = OpConstant %float 0", iadd("%wg", "%u2", "%f0")),
			want: "error: line 26: AtomicIAdd: expected Memory Semantics to be a 32-bit int"},
	}
	runCases(t, cases)
}

// kernelSrc is an OpenCL kernel with a CrossWorkgroup uint %cw, the uint
// constants %u0..%u6, and main's body.
func kernelSrc(am, decls, body string) string {
	if am == "" {
		am = "Physical64"
	}
	return "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\nOpMemoryModel " + am + " OpenCL\nOpEntryPoint Kernel %main \"main\"{IFACE}\n" +
		"%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%uint = OpTypeInt 32 0\n" +
		"%u0 = OpConstant %uint 0\n%u1 = OpConstant %uint 1\n%u2 = OpConstant %uint 2\n%u3 = OpConstant %uint 3\n%u64 = OpConstant %uint 64\n" +
		"%ptr_cw = OpTypePointer CrossWorkgroup %uint\n%ptr_fn = OpTypePointer Function %uint\n%cw = OpVariable %ptr_cw CrossWorkgroup\n" +
		decls + "%main = OpFunction %void None %fn\n%entry = OpLabel\n" + body + "\nOpReturn\nOpFunctionEnd\n"
}

func TestAtomicsKernel(t *testing.T) {
	cases := []vcase{
		{name: "crossworkgroup-opencl", env: EnvOpenCL2_0, src: kernelSrc("", "", "%r = OpAtomicIAdd %uint %cw %u2 %u0 %u1")},
		{name: "crossworkgroup-universal", src: kernelSrc("", "", "%r = OpAtomicIAdd %uint %cw %u2 %u0 %u1")},
		{name: "function-kernel", env: EnvOpenCL1_2, src: kernelSrc("", "", "%fv = OpVariable %ptr_fn Function\n%r = OpAtomicIAdd %uint %fv %u2 %u0 %u1")},
		{name: "dynamic-scope-kernel", env: EnvOpenCL2_0, src: kernelSrc("", "", "%s = OpAtomicLoad %uint %cw %u2 %u0\n%r = OpAtomicIAdd %uint %cw %s %u0 %u1")},
		{name: "uniform-memory-no-shader", env: EnvOpenCL2_0, src: kernelSrc("", "", "%r = OpAtomicIAdd %uint %cw %u2 %u64 %u1"),
			want: "error: line 19: AtomicIAdd: Memory Semantics UniformMemory requires capability Shader"},
		{name: "logical-opencl", env: EnvOpenCL2_0, src: kernelSrc("Logical", "", ""),
			want: "error: line 4: Addressing model must be Physical32 or Physical64 in the OpenCL environment."},
	}
	runCases(t, cases)
}
