package val

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"spvx/asm"
	"spvx/spirv"
)

// upKernel is an OpenCL-style kernel with untyped pointers: a
// CrossWorkgroup untyped variable %gv of struct %st, a Function one %v,
// and a typed CrossWorkgroup variable %tv. iface adds entry-point
// interface ids, decls types and globals, body instructions after %v.
func upKernel(iface, decls, body string) string {
	annot, decls := splitAnnotations(decls)
	return `OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpCapability UntypedPointersKHR
OpExtension "SPV_KHR_untyped_pointers"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %main "main" %gv %tv` + iface + "\n" + annot + `%void = OpTypeVoid
%fn = OpTypeFunction %void
%u32 = OpTypeInt 32 0
%u64 = OpTypeInt 64 0
%f32 = OpTypeFloat 32
%bool = OpTypeBool
%c0 = OpConstant %u32 0
%c1 = OpConstant %u32 1
%c4 = OpConstant %u32 4
%f0 = OpConstant %f32 0
%arr = OpTypeArray %u32 %c4
%st = OpTypeStruct %u32 %arr
%up = OpTypeUntypedPointerKHR CrossWorkgroup
%upf = OpTypeUntypedPointerKHR Function
%upw = OpTypeUntypedPointerKHR Workgroup
%tp = OpTypePointer CrossWorkgroup %st
%tpu = OpTypePointer CrossWorkgroup %u32
%gv = OpUntypedVariableKHR %up CrossWorkgroup %st
%tv = OpVariable %tp CrossWorkgroup
` + decls + `%main = OpFunction %void None %fn
%e = OpLabel
%v = OpUntypedVariableKHR %upf Function %st
` + body + `OpReturn
OpFunctionEnd
`
}

// upShader is a Vulkan compute shader with untyped pointers: a
// StorageBuffer Block %blk (a u32 and a runtime array, ArrayStride 4 on
// its untyped pointer type %usb) in variable %sb, a typed one %tsb, and
// body in main. decls add types and globals; iface interface ids.
func upShader(caps, iface, decls, body string) string {
	annot, decls := splitAnnotations(decls)
	return `OpCapability Shader
OpCapability UntypedPointersKHR
` + caps + `OpExtension "SPV_KHR_untyped_pointers"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %sb %tsb` + iface + `
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %blk Block
OpMemberDecorate %blk 0 Offset 0
OpMemberDecorate %blk 1 Offset 4
OpDecorate %rta ArrayStride 4
OpDecorate %usb ArrayStride 8
OpDecorate %sb DescriptorSet 0
OpDecorate %sb Binding 0
OpDecorate %tsb DescriptorSet 0
OpDecorate %tsb Binding 1
` + annot + `%void = OpTypeVoid
%fn = OpTypeFunction %void
%u32 = OpTypeInt 32 0
%f32 = OpTypeFloat 32
%c0 = OpConstant %u32 0
%c1 = OpConstant %u32 1
%c2 = OpConstant %u32 2
%rta = OpTypeRuntimeArray %u32
%blk = OpTypeStruct %u32 %rta
%usb = OpTypeUntypedPointerKHR StorageBuffer
%tpsb = OpTypePointer StorageBuffer %blk
%sb = OpUntypedVariableKHR %usb StorageBuffer %blk
%tsb = OpVariable %tpsb StorageBuffer
` + decls + `%main = OpFunction %void None %fn
%e = OpLabel
` + body + `OpReturn
OpFunctionEnd
`
}

// splitAnnotations moves the decorations out of decls, for the
// annotation section.
func splitAnnotations(decls string) (annot, rest string) {
	for _, l := range strings.SplitAfter(decls, "\n") {
		if strings.HasPrefix(l, "OpDecorate") || strings.HasPrefix(l, "OpMemberDecorate") {
			annot += l
		} else {
			rest += l
		}
	}
	return annot, rest
}

// upPSB is a PhysicalStorageBuffer64 compute shader whose main casts
// %addr to an untyped PhysicalStorageBuffer pointer %p before body.
func upPSB(body string) string {
	return `OpCapability Shader
OpCapability Int64
OpCapability UntypedPointersKHR
OpCapability PhysicalStorageBufferAddresses
OpExtension "SPV_KHR_untyped_pointers"
OpExtension "SPV_KHR_physical_storage_buffer"
OpMemoryModel PhysicalStorageBuffer64 GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%u32 = OpTypeInt 32 0
%u64 = OpTypeInt 64 0
%addr = OpConstant %u64 64
%psb = OpTypeUntypedPointerKHR PhysicalStorageBuffer
%main = OpFunction %void None %fn
%e = OpLabel
%p = OpBitcast %psb %addr
` + body + `OpReturn
OpFunctionEnd
`
}

// upTypeAndVariableCases cover OpTypeUntypedPointerKHR and
// OpUntypedVariableKHR.
func upTypeAndVariableCases() []rqCase {
	vk := func(name, src, want string) rqCase { return rqCase{name, src, want, EnvVulkan1_3} }
	const wmel = "OpCapability WorkgroupMemoryExplicitLayoutKHR\nOpExtension \"SPV_KHR_workgroup_memory_explicit_layout\"\n"
	return []rqCase{
		rq("valid kernel variables", upKernel("", "%cst = OpConstantNull %st\n%g2 = OpUntypedVariableKHR %up CrossWorkgroup %st %cst\n",
			"%w = OpUntypedVariableKHR %upf Function %u32 %c1\n"), ""),
		rq("result type typed pointer", upKernel("", "", "%w = OpUntypedVariableKHR %tp Function %st\n"), "Result type must be an untyped pointer"),
		rq("typed variable of an untyped pointer type", upKernel("", "", "%w = OpVariable %upf Function\n"),
			"OpVariable Result Type <id> '17[%_ptr_Function]' is not a pointer type."),
		rq("data type not a type", upKernel("", "", "%w = OpUntypedVariableKHR %upf Function %c0\n"), "Data type must be a type instruction"),
		rq("no data type function", upKernel("", "", "%w = OpUntypedVariableKHR %upf Function\n"),
			"Data type must be specified for Function, Private, and Workgroup storage classes"),
		rq("no data type workgroup", upKernel(" %w", "%w = OpUntypedVariableKHR %upw Workgroup\n", ""),
			"Data type must be specified for Function, Private, and Workgroup storage classes"),
		rq("no data type cross-workgroup", upKernel(" %w", "%w = OpUntypedVariableKHR %up CrossWorkgroup\n", ""), ""),
		rq("initializer not constant", upKernel("", "", "%w = OpUntypedVariableKHR %upf Function %u32 %v\n"),
			"Variable Initializer <id> '22[%22]' is not a constant or module-scope variable."),
		rq("initializer type", upKernel("", "", "%w = OpUntypedVariableKHR %upf Function %u32 %f0\n"), "Initializer type must match the data type"),
		rq("storage class mismatch", upKernel("", "", "%w = OpUntypedVariableKHR %up Function %u32\n"), "Storage class must match result type storage class"),
		rq("function storage outside a function", upKernel("", "%w = OpUntypedVariableKHR %upf Function %u32\n", ""),
			"Variables can not have a function[7] storage class outside of a function"),
		rq("generic storage class", strings.Replace(upKernel(" %w", "%upg = OpTypeUntypedPointerKHR Generic\n%w = OpUntypedVariableKHR %upg Generic %u32\n", ""),
			"OpCapability Kernel\n", "OpCapability Kernel\nOpCapability GenericPointer\n", 1),
			"Variable storage class cannot be Generic"),
		vk("vulkan storage buffer", upShader("", "", "", ""), ""),
		vk("vulkan workgroup without explicit layout", upShader("", "", "%uw = OpTypeUntypedPointerKHR Workgroup\n", ""),
			"Workgroup storage class untyped pointers in Vulkan require WorkgroupMemoryExplicitLayoutKHR be declared"),
		vk("vulkan workgroup with explicit layout", upShader(wmel, "", "%uw = OpTypeUntypedPointerKHR Workgroup\n", ""), ""),
		vk("vulkan uniform constant", upShader("", "", "%uc = OpTypeUntypedPointerKHR UniformConstant\n", ""),
			"UniformConstant storage class untyped pointers in Vulkan require DescriptorHeapEXT be declared"),
		vk("vulkan private", upShader("", "", "%upr = OpTypeUntypedPointerKHR Private\n", ""),
			"[VUID-StandaloneSpirv-OpTypeUntypedPointerKHR-11417] In Vulkan, untyped pointers can only be used in an explicitly laid out storage class"),
		rq("private outside vulkan", upShader("", "", "%upr = OpTypeUntypedPointerKHR Private\n", ""), ""),
		vk("vulkan no data type", upShader("", " %nd", "%nd = OpUntypedVariableKHR %usb StorageBuffer\n", ""),
			"[VUID-StandaloneSpirv-OpUntypedVariableKHR-11167] Storage class is StorageBuffer, but Vulkan requires that Data Type be specified when not using UniformConstant storage class"),
		rq("no data type outside vulkan", upShader("", " %nd", "OpDecorate %nd DescriptorSet 0\nOpDecorate %nd Binding 2\n%nd = OpUntypedVariableKHR %usb StorageBuffer\n", ""), ""),
		vk("vulkan storage buffer bool", upShader("", " %bv", "%bool = OpTypeBool\n%bs = OpTypeStruct %bool\n%bv = OpUntypedVariableKHR %usb StorageBuffer %bs\n", ""),
			"If OpTypeBool is stored in conjunction with OpVariable, it can only be used with non-externally visible shader Storage Classes: Workgroup, CrossWorkgroup, Private, Function, Input, Output, RayPayloadKHR, IncomingRayPayloadKHR, HitAttributeKHR, CallableDataKHR, IncomingCallableDataKHR, NodePayloadAMDX, or UniformConstant"),
	}
}

// upAccessChainCases cover the untyped access chains and
// OpUntypedArrayLengthKHR.
func upAccessChainCases() []rqCase {
	vk := func(name, src, want string) rqCase { return rqCase{name, src, want, EnvVulkan1_3} }
	// %ba and %ba2 are arrays of the Block %blk; %bav a variable of %ba.
	const blockArrays = `%ba = OpTypeArray %blk %c2
%ba2 = OpTypeArray %blk %c1
%pba = OpTypePointer StorageBuffer %ba
%bav = OpVariable %pba StorageBuffer
OpDecorate %bav DescriptorSet 1
OpDecorate %bav Binding 0
`
	const vp = "OpCapability VariablePointersStorageBuffer\n"
	return []rqCase{
		rq("valid access chains", upKernel("", "", `%a = OpUntypedAccessChainKHR %upf %st %v %c1 %c0
%b = OpUntypedInBoundsAccessChainKHR %up %st %gv %c0
%c = OpUntypedPtrAccessChainKHR %up %st %gv %c1 %c1 %c1
%d = OpUntypedInBoundsPtrAccessChainKHR %up %u32 %tv %c0
%x = OpCopyObject %up %gv
%f = OpUntypedAccessChainKHR %up %arr %x %c1
%l = OpLoad %u32 %a
`), ""),
		rq("result type typed pointer", upKernel("", "", "%a = OpUntypedAccessChainKHR %tpu %st %gv %c0\n"),
			"The Result Type of OpUntypedAccessChainKHR <id> '23[%23]' must be OpTypeUntypedPointerKHR. Found OpTypePointer."),
		rq("typed chain untyped result", upKernel("", "", "%a = OpAccessChain %up %tv %c0\n"),
			"The Result Type of OpAccessChain <id> '23[%23]' must be OpTypePointer. Found OpTypeUntypedPointerKHR."),
		rq("base type pointer", upKernel("", "", "%a = OpUntypedAccessChainKHR %up %tp %gv %c0\n"), "Base type must be a non-pointer type"),
		rq("base type untyped pointer", upKernel("", "", "%a = OpUntypedAccessChainKHR %up %up %gv %c0\n"), "Base type must be a non-pointer type"),
		rq("base type not a type", upKernel("", "", "%a = OpUntypedAccessChainKHR %up %c0 %gv %c0\n"), "Base type must be a non-pointer type"),
		rq("block array base type only", upShader("", "", blockArrays, "%a = OpUntypedAccessChainKHR %usb %ba %sb %c0\n"),
			"Both Base Type and Base must be Block or BufferBlock arrays or neither can be"),
		rq("block array base only", upShader("", " %bav", blockArrays, "%a = OpUntypedAccessChainKHR %usb %blk %bav %c0\n"),
			"Both Base Type and Base must be Block or BufferBlock arrays or neither can be"),
		rq("block array base only through a copy", upShader(vp, " %bav", blockArrays, "%x = OpCopyObject %pba %bav\n%y = OpCopyObject %pba %x\n%a = OpUntypedAccessChainKHR %usb %blk %y %c0\n"),
			"Both Base Type and Base must be Block or BufferBlock arrays or neither can be"),
		rq("block arrays differ", upShader("", " %bav", blockArrays, "%a = OpUntypedAccessChainKHR %usb %ba2 %bav %c0\n"),
			"If Base or Base Type is a Block or BufferBlock array, the other must also be the same array"),
		rq("block arrays same", upShader("", " %bav", blockArrays, "%a = OpUntypedAccessChainKHR %usb %ba %bav %c0\n"), ""),
		rq("base not a pointer", upKernel("", "", "%a = OpUntypedAccessChainKHR %up %st %c0 %c0\n"),
			"The Base <id> '10[%uint_0]' in OpUntypedAccessChainKHR instruction must be a pointer."),
		rq("storage classes differ", upKernel("", "", "%a = OpUntypedAccessChainKHR %up %st %v %c0\n"),
			"The result pointer storage class and base pointer storage class in OpUntypedAccessChainKHR do not match."),
		rq("struct index not constant", upKernel("", "", "%i = OpLoad %u32 %v\n%a = OpUntypedAccessChainKHR %upf %st %v %i\n"),
			"The <id> passed to OpUntypedAccessChainKHR to index '23[%23]' into a structure must be an OpConstant."),
		rq("struct index out of bounds", upKernel("", "%c7 = OpConstant %u32 7\n", "%a = OpUntypedInBoundsAccessChainKHR %up %st %gv %c7\n"),
			"Index '21[%uint_7]' is out of bounds: OpUntypedInBoundsAccessChainKHR cannot find index 7 into the structure <id> '15[%_struct_15]'. This structure has 2 members. Largest valid index is 1."),
		rq("index not an integer", upKernel("", "", "%a = OpUntypedAccessChainKHR %up %st %gv %f0\n"), "Indexes passed to OpUntypedAccessChainKHR must be of type integer."),
		rq("too many indexes", upKernel("", "", "%a = OpUntypedAccessChainKHR %up %u32 %gv %c0\n"),
			"OpUntypedAccessChainKHR reached non-composite type while indexes still remain to be traversed."),
		rq("ptr chain element float", upKernel("", "", "%a = OpUntypedPtrAccessChainKHR %up %st %gv %f0 %c0\n"), "Element must be an integer"),
		rq("ptr chain element on a block", upShader(vp, "", "", "%a = OpUntypedPtrAccessChainKHR %usb %blk %sb %c1 %c0\n"),
			"Element must be 0 if the interpretation type is a Block- or BufferBlock-decorated structure"),
		rq("ptr chain element 0 on a block", upShader(vp, "", "", "%a = OpUntypedPtrAccessChainKHR %usb %blk %sb %c0 %c0\n"), ""),
		vk("vulkan ptr chain storage buffer", upShader(vp, "", "", "%a = OpUntypedPtrAccessChainKHR %usb %u32 %sb %c1\n"), ""),
		vk("vulkan ptr chain without variable pointers", upShader("", "", "", "%a = OpUntypedPtrAccessChainKHR %usb %u32 %sb %c1\n"),
			"Instruction may only have a logical pointer operand in the StorageBuffer or Workgroup storage classes with appropriate variable pointers capability"),
		vk("vulkan ptr chain without array stride", upShader("", "", "%usb2 = OpTypeUntypedPointerKHR PushConstant\n", "%a = OpUntypedPtrAccessChainKHR %usb %u32 %tsb %c1\n"),
			"OpPtrAccessChain must have a Base whose type is decorated with ArrayStride or ArrayStrideIdEXT"),
		vk("vulkan array length", upShader("", "", "", "%n = OpUntypedArrayLengthKHR %u32 %blk %sb 1\n"), ""),
		vk("array length typed pointer", upShader("", "", "", "%n = OpUntypedArrayLengthKHR %u32 %blk %tsb 1\n"), "Pointer must be an untyped pointer object"),
		vk("array length not a struct", upShader("", "", "", "%n = OpUntypedArrayLengthKHR %u32 %rta %sb 1\n"),
			"The Structure's type in OpUntypedArrayLengthKHR <id> '16[%16]' must be a pointer to an OpTypeStruct."),
		rq("array length last member", upShader("", "", "%s2 = OpTypeStruct %rta %u32\n", "%n = OpUntypedArrayLengthKHR %u32 %s2 %sb 1\n"),
			"The Structure's last member in OpUntypedArrayLengthKHR <id> '17[%17]' must be an OpTypeRuntimeArray."),
		vk("array length member index", upShader("", "", "", "%n = OpUntypedArrayLengthKHR %u32 %blk %sb 0\n"),
			"The array member in OpUntypedArrayLengthKHR <id> '16[%16]' must be the last member of the struct."),
		vk("array length result", upShader("", "", "", "%n = OpUntypedArrayLengthKHR %f32 %blk %sb 1\n"),
			"The Result Type of OpUntypedArrayLengthKHR <id> '16[%16]' must be OpTypeInt with width 32 or 64 and signedness 0."),
	}
}

// upLayoutCases cover the Vulkan layout of the data reached through
// untyped pointers (explicitLayout's untyped references).
func upLayoutCases() []rqCase {
	vk := func(name, src, want string) rqCase { return rqCase{name, src, want, EnvVulkan1_3} }
	const wmel = "OpCapability WorkgroupMemoryExplicitLayoutKHR\nOpExtension \"SPV_KHR_workgroup_memory_explicit_layout\"\n"
	// %ns has no Offset decorations, %na no ArrayStride, %sa has one.
	const bare = "%ns = OpTypeStruct %u32 %u32\n%na = OpTypeArray %u32 %c2\n%sa = OpTypeArray %u32 %c2\nOpDecorate %sa ArrayStride 4\n"
	const wg = `%uw = OpTypeUntypedPointerKHR Workgroup
OpDecorate %wb Block
OpMemberDecorate %wb 0 Offset 0
%wb = OpTypeStruct %u32
`
	return []rqCase{
		vk("valid layouts", upShader("", "", bare, `%a = OpUntypedAccessChainKHR %usb %blk %sb %c1 %c0
%l = OpLoad %u32 %a
%m = OpLoad %sa %sb
OpStore %a %c2
%n = OpUntypedArrayLengthKHR %u32 %blk %sb 1
`), ""),
		vk("access chain base type without offsets", upShader("", "", bare, "%a = OpUntypedAccessChainKHR %usb %ns %sb %c0\n"),
			"Structure member 0 must be explicitly laid out with Offset or OffsetIdEXT decorations. Instantiated via '19[%19]' in the StorageBuffer storage class using standard layout rules."),
		vk("load of an array without stride", upShader("", "", bare, "%l = OpLoad %na %sb\n"),
			"Array must be explicitly laid out with ArrayStride or ArrayStrideIdEXT decorations. Instantiated via '19[%19]' in the StorageBuffer storage class using standard layout rules."),
		vk("store of a struct without offsets", upShader("", "", bare+"%z = OpConstantNull %ns\n", "OpStore %sb %z\n"),
			"Structure member 0 must be explicitly laid out with Offset or OffsetIdEXT decorations. Instantiated via '0[%0]' in the StorageBuffer storage class using standard layout rules."),
		vk("workgroup block variable", upShader(wmel, " %wv", wg+"%wv = OpUntypedVariableKHR %uw Workgroup %wb\n", ""), ""),
		vk("workgroup variable not a block", upShader(wmel, " %wv", wg+"%wv = OpUntypedVariableKHR %uw Workgroup %u32\n", ""),
			"Untyped workgroup variables in shaders must be block decorated structs"),
		vk("descriptor array of blocks", upShader("", " %dv", "OpDecorate %dv DescriptorSet 2\nOpDecorate %dv Binding 0\n%da = OpTypeArray %blk %c2\n%dv = OpUntypedVariableKHR %usb StorageBuffer %da\n", ""), ""),
		vk("descriptor array of blocks without offsets", upShader("", " %dv", "OpDecorate %nb Block\nOpDecorate %dv DescriptorSet 2\nOpDecorate %dv Binding 0\n%nb = OpTypeStruct %u32\n%da = OpTypeArray %nb %c2\n%dv = OpUntypedVariableKHR %usb StorageBuffer %da\n", ""),
			"Structure member 0 must be explicitly laid out with Offset or OffsetIdEXT decorations. Instantiated via '4[%4]' in the StorageBuffer storage class using standard layout rules."),
		rq("workgroup blocks without Aliased and a non-block", upShader(wmel, " %wv %wv2 %tw", wg+"%wv = OpUntypedVariableKHR %uw Workgroup %wb\n%wv2 = OpUntypedVariableKHR %uw Workgroup %wb\n%ptw = OpTypePointer Workgroup %u32\n%tw = OpVariable %ptw Workgroup\n", ""), ""),
		rq("workgroup struct not a block", upShader(wmel, " %wv", wg+"%ws = OpTypeStruct %u32\n%wv = OpUntypedVariableKHR %uw Workgroup %ws\n", ""),
			"Untyped workgroup variables in shaders must be block decorated"),
		rq("workgroup block without explicit layout", upShader("", " %wv", wg+"%wv = OpUntypedVariableKHR %uw Workgroup %wb\n", ""),
			"Workgroup Storage Class variables can't be decorated with Block unless declaring the WorkgroupMemoryExplicitLayoutKHR capability."),
		vk("workgroup variable not a block outside the interface", upShader(wmel, "", wg+"%wv = OpUntypedVariableKHR %uw Workgroup %u32\n", ""),
			"[VUID-StandaloneSpirv-None-10684] Untyped variables in Workgroup storage class must be block-decorated structs"),
	}
}

// upSharedRuleCases cover the untyped branches of the other families'
// rules: load, store, copy, pointer comparison, atomics, adjacency and
// functions.
func upSharedRuleCases() []rqCase {
	vk := func(name, src, want string) rqCase { return rqCase{name, src, want, EnvVulkan1_3} }
	const vp = "OpCapability VariablePointersStorageBuffer\n"
	const fnv = "%fu = OpTypeFunction %usb\n"
	const sb16 = "OpCapability StorageBuffer16BitAccess\nOpExtension \"SPV_KHR_16bit_storage\"\n"
	const sb8 = "OpCapability StorageBuffer8BitAccess\nOpExtension \"SPV_KHR_8bit_storage\"\n"
	// withG adds %g, a function returning the untyped pointer %sb.
	withG := func(src string) string {
		return src + "%g = OpFunction %usb None %fu\n%ge = OpLabel\nOpReturnValue %sb\nOpFunctionEnd\n"
	}
	return []rqCase{
		rq("valid memory instructions", upKernel("", "", `%a = OpUntypedAccessChainKHR %up %st %gv %c0
%l = OpLoad %u32 %a
%f = OpLoad %f32 %a
OpStore %a %f0
OpCopyMemory %a %tv
OpCopyMemory %tv %gv
%q = OpPtrEqual %bool %a %gv
%t = OpAtomicLoad %u32 %a %c1 %c0
OpAtomicStore %a %c1 %c0 %c4
`), ""),
		rq("copy between untyped pointers", upKernel("", "", "OpCopyMemory %v %gv\n"), "One of Source or Target must be a typed pointer"),
		rq("copy sized between untyped pointers", upKernel("", "", "OpCopyMemorySized %v %gv %c4\n"), ""),
		rq("copy size not a multiple of 4", upShader("", "", "", "%a = OpUntypedAccessChainKHR %usb %blk %sb %c1 %c0\nOpCopyMemorySized %sb %a %c2\n"),
			"Size must be a multiple of 4. This is valid if Source (StorageBuffer) and Target (StorageBuffer) storage classes both support either 8-bit or 16-bit"),
		rq("copy size multiple of 2 with 16-bit storage", upShader(sb16, "", "", "%a = OpUntypedAccessChainKHR %usb %blk %sb %c1 %c0\nOpCopyMemorySized %sb %a %c2\n"), ""),
		rq("copy size odd with 16-bit storage", upShader(sb16, "", "%c3 = OpConstant %u32 3\n", "%a = OpUntypedAccessChainKHR %usb %blk %sb %c1 %c0\nOpCopyMemorySized %sb %a %c3\n"),
			"Size must be a multiple of 2. This is valid if Source (StorageBuffer) and Target (StorageBuffer) storage classes both support 8-bit"),
		rq("copy size odd with 8-bit storage", upShader(sb8, "", "%c3 = OpConstant %u32 3\n", "%a = OpUntypedAccessChainKHR %usb %blk %sb %c1 %c0\nOpCopyMemorySized %sb %a %c3\n"), ""),
		rq("copy size odd with Int8", upShader("OpCapability Int8\n", "", "%c3 = OpConstant %u32 3\n", "%a = OpUntypedAccessChainKHR %usb %blk %sb %c1 %c0\nOpCopyMemorySized %sb %a %c3\n"), ""),
		{"vulkan copy size", upShader("", "", "", "%a = OpUntypedAccessChainKHR %usb %blk %sb %c1 %c0\nOpCopyMemorySized %sb %a %c2\n"),
			"[VUID-RuntimeSpirv-Size-11165] Size must be a multiple of 4. This is valid if Source (StorageBuffer) and Target (StorageBuffer) storage classes both support either 8-bit or 16-bit", EnvVulkan1_3},
		rq("variable holding a storage buffer pointer", upShader("", " %pv", "%upr = OpTypeUntypedPointerKHR Private\n%pv = OpUntypedVariableKHR %upr Private %usb\n", ""),
			"In Logical addressing, variables can only allocate a storage buffer pointer if the VariablePointersStorageBuffer capability is declared"),
		rq("variable holding a storage buffer pointer with variable pointers", upShader(vp, " %pv", "%upr = OpTypeUntypedPointerKHR Private\n%pv = OpUntypedVariableKHR %upr Private %usb\n", ""), ""),
		rq("storage buffer variable holding a pointer", upShader(vp, " %pv", "OpDecorate %pv DescriptorSet 3\nOpDecorate %pv Binding 0\n%pv = OpUntypedVariableKHR %usb StorageBuffer %usb\n", ""),
			"In Logical addressing with variable pointers, variables that allocate pointers must be in Function or Private storage classes"),
		vk("storage buffer variable of a scalar", upShader("", " %nv", "OpDecorate %nv DescriptorSet 3\nOpDecorate %nv Binding 0\n%nv = OpUntypedVariableKHR %usb StorageBuffer %u32\n", ""),
			"[VUID-StandaloneSpirv-Uniform-06807] StorageBuffer OpVariable <id> '4[%4]' has illegal type."),
		vk("storage buffer variable without Binding", upShader("", " %nv", "OpDecorate %nv DescriptorSet 3\n%nv = OpUntypedVariableKHR %usb StorageBuffer %blk\n", ""),
			"[VUID-StandaloneSpirv-UniformConstant-06677] StorageBuffer id '4' is missing Binding decoration."),
		vk("uniform variable of a scalar", upShader("", " %nv", "OpDecorate %nv DescriptorSet 3\nOpDecorate %nv Binding 0\n%uu = OpTypeUntypedPointerKHR Uniform\n%nv = OpUntypedVariableKHR %uu Uniform %u32\n", ""),
			"[VUID-StandaloneSpirv-Uniform-06807] Uniform OpVariable <id> '4[%4]' has illegal type."),
		vk("push constant variable of a scalar", upShader("", " %nv", "%upc = OpTypeUntypedPointerKHR PushConstant\n%nv = OpUntypedVariableKHR %upc PushConstant %u32\n", ""),
			"[VUID-StandaloneSpirv-PushConstant-06808] PushConstant OpVariable <id> '4[%4]' has illegal type."),
		rq("function returning a private pointer", strings.Replace(upShader("", "", "%upr = OpTypeUntypedPointerKHR Private\n%fp = OpTypeFunction %upr\n%pv = OpUntypedVariableKHR %upr Private %u32\n", "%r = OpFunctionCall %upr %h\n"), "OpFunctionEnd\n",
			"OpFunctionEnd\n%h = OpFunction %upr None %fp\n%he = OpLabel\nOpReturnValue %pv\nOpFunctionEnd\n", 1),
			"In Logical addressing, functions may not return a pointer in this storage class"),
		rq("physical storage buffer access", upPSB("%l = OpLoad %u64 %p Aligned 8\n%b = OpBitcast %u64 %p\n"), ""),
		rq("physical storage buffer access without Aligned", upPSB("%l = OpLoad %u64 %p\n"), "Memory accesses with PhysicalStorageBuffer must use Aligned."),
		rq("physical storage buffer access under-aligned", upPSB("%l = OpLoad %u64 %p Aligned 4\n"),
			"Memory accesses Aligned operand value 4 is too small, the largest scalar type is 8 bytes."),
		rq("comparison across storage classes", upKernel("", "", "%q = OpPtrEqual %bool %v %gv\n"), "Pointer storage classes must match"),
		rq("comparison untyped and typed", upKernel("", "", "%q = OpPtrNotEqual %bool %tv %gv\n"), ""),
		rq("atomic flag through an untyped pointer", upKernel("", "", "%t = OpAtomicFlagTestAndSet %bool %gv %c1 %c0\n"),
			"Untyped pointers are not supported by atomic flag instructions"),
		rq("store to uniform constant", upShader("", " %ucv", "%uuc = OpTypeUntypedPointerKHR UniformConstant\n%ucv = OpUntypedVariableKHR %uuc UniformConstant %u32\n", "OpStore %ucv %c0\n"),
			"OpStore Pointer <id> '4[%4]' storage class is read-only"),
		rq("untyped variable after the first instructions", upKernel("", "", "%a = OpUntypedAccessChainKHR %upf %st %v %c0\n%w = OpUntypedVariableKHR %upf Function %u32\n"),
			"All OpUntypedVariableKHR instructions in a function must be the first instructions in the first block."),
		rq("function returning a storage buffer pointer", withG(upShader("", "", fnv, "%r = OpFunctionCall %usb %g\n")),
			"In Logical addressing, functions may only return a storage buffer pointer if the VariablePointersStorageBuffer capability is declared"),
		rq("function returning a storage buffer pointer with variable pointers", withG(upShader(vp, "", fnv, "%r = OpFunctionCall %usb %g\n")), ""),
	}
}

// TestUntypedPointers is the untyped-pointer rule table
// (untyped_pointers.go and the untyped branches of the memory rules).
// Every case's verdict and first line are current spirv-val's (v2026.4):
// with $SPVX_CURRENT_SPIRV_TOOLS set, each case is also run through that
// spirv-val and must agree with the table.
func TestUntypedPointers(t *testing.T) {
	sv := currentSpirvVal(t)
	dir := t.TempDir()
	cases := append(upTypeAndVariableCases(), upAccessChainCases()...)
	cases = append(cases, upLayoutCases()...)
	cases = append(cases, upSharedRuleCases()...)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			words, err := asm.Assemble([]byte(c.src), asm.Options{TargetEnv: c.env.String()})
			if err != nil {
				t.Fatalf("assembling:\n%s\n%v", c.src, err)
			}
			opts := Options{Env: c.env}
			// The table holds the first line, which is all the oracle
			// check compares: spvx adds spirv-val's hint lines after it.
			if got, _, _ := strings.Cut(firstError(t, words, opts), "\n"); got != c.want {
				t.Errorf("got  %q\nwant %q\nmodule:\n%s", got, c.want, c.src)
			}
			if sv != "" {
				checkCurrentSpirvVal(t, sv, filepath.Join(dir, "m.spv"), words, opts, c.want)
			}
		})
	}
}

// TestUntypedCopyChainLinear: untyped access chains through a chain of
// n OpCopyObject, each copy the base of a chain, validate in linear time
// (copySource remembers each copy's source; without it each chain walks
// back to the variable).
func TestUntypedCopyChainLinear(t *testing.T) {
	linearOnValid(t, "%d chained copies", func(n int) string {
		var b strings.Builder
		prev := "%gv"
		for k := 0; k < n; k++ {
			fmt.Fprintf(&b, "%%x%[1]d = OpCopyObject %%up %[2]s\n%%a%[1]d = OpUntypedAccessChainKHR %%up %%st %%x%[1]d %%c0\n", k, prev)
			prev = fmt.Sprintf("%%x%d", k)
		}
		return upKernel("", "", b.String())
	}, 3000)
}

// FuzzUntypedPointers validates mutations of the table's modules in the
// universal and Vulkan environments: the untyped-pointer rules must never
// panic on malformed operands or types.
func FuzzUntypedPointers(f *testing.F) {
	for _, cs := range [][]rqCase{upTypeAndVariableCases(), upAccessChainCases(), upLayoutCases(), upSharedRuleCases(), vpCases()} {
		for _, c := range cs {
			f.Add(wordsToBytes(assembleF(f, c.src)))
		}
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

// TestUntypedPointersAllocs: the untyped-pointer rules allocate nothing
// per instruction on a valid module (the closures and instruction copies
// of the rules stay on the stack).
func TestUntypedPointersAllocs(t *testing.T) {
	allocs := func(n int) float64 {
		var b strings.Builder
		for k := 0; k < n; k++ {
			fmt.Fprintf(&b, `%%a%[1]d = OpUntypedAccessChainKHR %%usb %%blk %%sb %%c1 %%c0
%%p%[1]d = OpUntypedPtrAccessChainKHR %%usb %%u32 %%a%[1]d %%c1
%%l%[1]d = OpLoad %%u32 %%p%[1]d
OpStore %%a%[1]d %%l%[1]d
%%n%[1]d = OpUntypedArrayLengthKHR %%u32 %%blk %%sb 1
`, k)
		}
		m, err := spirv.DecodeWords(assemble(t, upShader("OpCapability VariablePointersStorageBuffer\n", "", "", b.String())))
		if err != nil {
			t.Fatal(err)
		}
		opts := Options{Env: EnvVulkan1_3}
		if err := Validate(m, opts); err != nil {
			t.Fatalf("module rejected: %v", err)
		}
		return testing.AllocsPerRun(5, func() { _ = Validate(m, opts) })
	}
	small, large := allocs(10), allocs(200)
	t.Logf("allocations: %.0f for 10 repetitions, %.0f for 200", small, large)
	if large-small > 40 {
		t.Errorf("Validate allocates %.0f times for 10 repetitions of the untyped accesses and %.0f for 200", small, large)
	}
}
