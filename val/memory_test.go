package val

import (
	"strings"
	"testing"

	"spvx/spirv"
)

const spirvOpMemoryModel = spirv.OpMemoryModel

// comp is a compute module (see module in ext_test.go) for the rule
// tables: Shader, the common types, and main's body.
func comp(annot, decls, body string) string {
	return module{caps: "Shader", exts: "SPV_KHR_storage_buffer_storage_class", annot: annot, decls: `
%f32 = OpTypeFloat 32
%u32 = OpTypeInt 32 0
%i32 = OpTypeInt 32 1
%bool = OpTypeBool
%v4 = OpTypeVector %f32 4
%u0 = OpConstant %u32 0
%u1 = OpConstant %u32 1
%u5 = OpConstant %u32 5
%im1 = OpConstant %i32 -1
%f1 = OpConstant %f32 1
%pf = OpTypePointer Function %f32
%pv = OpTypePointer Function %v4
%pu = OpTypePointer Function %u32
%pp = OpTypePointer Private %f32
%priv = OpVariable %pp Private
` + decls, body: body}.text()
}

func TestMemoryRules(t *testing.T) {
	st := "%S = OpTypeStruct %f32 %u32\n%pS = OpTypePointer Function %S\n"
	arr := "%arr = OpTypeArray %f32 %u5\n%pa = OpTypePointer Function %arr\n"
	cases := []memRuleCase{
		{name: "valid load store", src: comp("", "", "%v = OpVariable %pf Function\n%x = OpLoad %f32 %v\nOpStore %v %x")},
		{name: "variable not a pointer", src: comp("", "", "%v = OpVariable %f32 Function"),
			want: "OpVariable Result Type <id> '*[%float]' is not a pointer type."},
		{name: "initializer not constant", src: comp("", "", "%v = OpVariable %pf Function\n%x = OpLoad %f32 %v\n%w = OpVariable %pf Function %x"),
			agree: oracleVerdict, want: "Variable Initializer <id> '*[%*]' is not a constant or module-scope variable."},
		{name: "initializer type", src: comp("", "", "%v = OpVariable %pf Function %u1"),
			agree: oracleVerdict, want: "Initializer type must match the data type"},
		{name: "Input initializer", src: comp("", "%pi = OpTypePointer Input %f32\n%in = OpVariable %pi Input %f1", ""),
			want: "OpVariable, <id> '*[%*]', initializer are not allowed for Input"},
		{name: "Uniform initializer in Vulkan", src: comp("OpDecorate %S Block\nOpMemberDecorate %S 0 Offset 0\nOpDecorate %ub DescriptorSet 0\nOpDecorate %ub Binding 0\n",
			"%S = OpTypeStruct %f32\n%pU = OpTypePointer Uniform %S\n%nul = OpConstantNull %S\n%ub = OpVariable %pU Uniform %nul", ""), opts: vk13,
			want: "[VUID-StandaloneSpirv-OpVariable-04651] OpVariable, <id> '*[%*]', has a disallowed initializer & storage class combination.\nFrom Vulkan spec:\nVariable declarations that include initializers must have one of the following storage classes: Output, Private, Function or Workgroup"},
		{name: "Workgroup initializer not null", src: comp("", "%pw = OpTypePointer Workgroup %f32\n%wg = OpVariable %pw Workgroup %f1", ""), opts: vk13,
			want: "[VUID-StandaloneSpirv-OpVariable-04734] OpVariable, <id> '*[%*]', initializers are limited to OpConstantNull in Workgroup storage class", agree: oracleNone},
		{name: "bool in Uniform", src: comp("", "%pb = OpTypePointer Uniform %bool\n%ub = OpVariable %pb Uniform", ""),
			want: "If OpTypeBool is stored in conjunction with OpVariable, it can only be used with non-externally visible shader Storage Classes: Workgroup, CrossWorkgroup, Private, Function, Input, Output, RayPayloadKHR, IncomingRayPayloadKHR, HitAttributeKHR, CallableDataKHR, IncomingCallableDataKHR, NodePayloadAMDX, or UniformConstant", agree: oracleVerdict},
		{name: "bool Input without BuiltIn", src: comp("", "%pb = OpTypePointer Input %bool\n%ib = OpVariable %pb Input", ""),
			want: "If OpTypeBool is stored in conjunction with OpVariable using Input or Output Storage Classes it requires a BuiltIn decoration"},
		{name: "Function variable outside function", src: comp("", "%gv = OpVariable %pf Function", ""),
			want: "Variables can not have a function[7] storage class outside of a function"},
		{name: "storage class mismatch", src: comp("", "%gv = OpVariable %pp Workgroup", ""),
			agree: oracleVerdict, want: "Storage class must match result type storage class"},
		{name: "Generic variable", src: module{kernel: true, caps: "Kernel Addresses GenericPointer", decls: "%f32 = OpTypeFloat 32\n%pg = OpTypePointer Generic %f32\n%g = OpVariable %pg Generic"}.text(),
			agree: oracleVerdict, want: "Variable storage class cannot be Generic"},

		{name: "load result type", src: comp("", "", "%v = OpVariable %pf Function\n%x = OpLoad %u32 %v"),
			want: "OpLoad Result Type <id> '*[%uint]' does not match Pointer <id> '*[%*]'s type."},
		{name: "load from non-pointer", src: comp("", "", "%x = OpLoad %f32 %f1"),
			want: "OpLoad Pointer <id> '*[%float_1]' is not a logical pointer."},
		{name: "store type mismatch", src: comp("", "", "%v = OpVariable %pf Function\nOpStore %v %u1"),
			want: "OpStore Pointer <id> '*[%*]'s type does not match Object <id> '*[%uint_1]'s type."},
		{name: "store to Input", src: comp("", "%pi = OpTypePointer Input %f32\n%in = OpVariable %pi Input", "OpStore %in %f1"),
			want: "OpStore Pointer <id> '*[%*]' storage class is read-only"},
		{name: "store non-object", src: comp("", "", "%v = OpVariable %pf Function\nOpStore %v %entry"),
			agree: oracleSame, // the id checks (IdPass) reject the label operand first, as spirv-val does
			want:  "Operand '*[%*]' requires a type"},
		{name: "relax struct store", src: comp("OpMemberDecorate %S 0 Offset 0\nOpMemberDecorate %T 0 Offset 0\n", "%S = OpTypeStruct %f32\n%T = OpTypeStruct %f32\n%pS = OpTypePointer Function %S\n%nt = OpConstantNull %T\n",
			"%v = OpVariable %pS Function\nOpStore %v %nt"), opts: Options{RelaxStructStore: true}},
		{name: "struct store without relax", src: comp("", "%S = OpTypeStruct %f32\n%T = OpTypeStruct %f32\n%pS = OpTypePointer Function %S\n%nt = OpConstantNull %T\n",
			"%v = OpVariable %pS Function\nOpStore %v %nt"),
			want: "OpStore Pointer <id> '*[%*]'s type does not match Object <id> '*[%*]'s type."},
		{name: "relax struct store, offsets differ", src: comp("OpMemberDecorate %S 0 Offset 0\nOpMemberDecorate %T 0 Offset 4\n", "%S = OpTypeStruct %f32\n%T = OpTypeStruct %f32\n%pS = OpTypePointer Function %S\n%nt = OpConstantNull %T\n",
			"%v = OpVariable %pS Function\nOpStore %v %nt"), opts: Options{RelaxStructStore: true},
			want: "OpStore Pointer <id> '*[%*]'s layout does not match Object <id> '*[%*]'s layout."},

		// Access chains.
		{name: "access chain valid", src: comp("", st+arr, "%s = OpVariable %pS Function\n%a = OpVariable %pa Function\n%p = OpAccessChain %pu %s %u1\n%q = OpAccessChain %pf %a %u1\n%r = OpAccessChain %pf %a %im1"), opts: Options{RelaxLogicalPointer: true}},
		{name: "access chain result not pointer", src: comp("", st, "%s = OpVariable %pS Function\n%p = OpAccessChain %u32 %s %u1"),
			want: "The Result Type of OpAccessChain <id> '*[%*]' must be OpTypePointer. Found OpTypeInt."},
		{name: "access chain base not pointer", src: comp("", st, "%p = OpAccessChain %pu %u1 %u1"),
			want: "The Base <id> '*[%uint_1]' in OpAccessChain instruction must be a pointer."},
		{name: "access chain storage classes", src: comp("", st+"%pU = OpTypePointer Private %u32\n", "%s = OpVariable %pS Function\n%p = OpAccessChain %pU %s %u1"),
			want: "The result pointer storage class and base pointer storage class in OpAccessChain do not match."},
		{name: "access chain float index", src: comp("", arr, "%a = OpVariable %pa Function\n%p = OpAccessChain %pf %a %f1"),
			want: "Indexes passed to OpAccessChain must be of type integer."},
		{name: "access chain negative index", src: comp("", arr, "%a = OpVariable %pa Function\n%p = OpAccessChain %pf %a %im1"),
			agree: oracleNone, want: "Index at word 4 may not have a negative value"},
		{name: "access chain struct index not constant", src: comp("", st, "%s = OpVariable %pS Function\n%i = OpVariable %pu Function\n%n = OpLoad %u32 %i\n%p = OpAccessChain %pu %s %n"),
			agree: oracleVerdict, want: "The <id> passed to OpAccessChain to index '*[%*]' into a structure must be an OpConstant."},
		{name: "access chain struct index out of bounds", src: comp("", st, "%s = OpVariable %pS Function\n%p = OpAccessChain %pu %s %u5"),
			agree: oracleVerdict, want: "Index '*[%uint_5]' is out of bounds: OpAccessChain cannot find index 5 into the structure <id> '*[%*]'. This structure has 2 members. Largest valid index is 1."},
		{name: "access chain too deep", src: comp("", arr, "%a = OpVariable %pa Function\n%p = OpAccessChain %pf %a %u1 %u1"),
			want: "OpAccessChain reached non-composite type while indexes still remain to be traversed."},
		{name: "access chain wrong result", src: comp("", st, "%s = OpVariable %pS Function\n%p = OpAccessChain %pf %s %u1"),
			agree: oracleVerdict, want: "OpAccessChain result type <id> '*[%float]' (OpTypeFloat) does not match the type that results from indexing into the base <id> '*[%uint]' (OpTypeInt)."},
		{name: "access chain index limit", src: comp("", arr, "%a = OpVariable %pa Function\n%p = OpAccessChain %pf %a %u1"), opts: Options{Limits: Limits{MaxAccessChainIndexes: 1}}},
		{name: "access chain index limit exceeded", src: comp("", "%aa = OpTypeArray %v4 %u5\n%paa = OpTypePointer Function %aa\n", "%a = OpVariable %paa Function\n%p = OpAccessChain %pf %a %u1 %u1"),
			opts: Options{Limits: Limits{MaxAccessChainIndexes: 1}}, agree: oracleNone,
			want: "The number of indexes in OpAccessChain may not exceed 1. Found 2 indexes."},

		// OpArrayLength.
		{name: "array length", src: comp("", "%rta = OpTypeRuntimeArray %f32\n%R = OpTypeStruct %u32 %rta\n%pR = OpTypePointer StorageBuffer %R\n%sb = OpVariable %pR StorageBuffer",
			"%n = OpArrayLength %u32 %sb 1"), patch: setVersion(0x10300), agree: oracleNone},
		{name: "array length not last", src: comp("", "%rta = OpTypeRuntimeArray %f32\n%R = OpTypeStruct %u32 %rta\n%pR = OpTypePointer StorageBuffer %R\n%sb = OpVariable %pR StorageBuffer",
			"%n = OpArrayLength %u32 %sb 0"),
			agree: oracleVerdict, want: "The array member in OpArrayLength <id> '*[%*]' must be the last member of the struct."},
		{name: "array length signed", src: comp("", "%rta = OpTypeRuntimeArray %f32\n%R = OpTypeStruct %u32 %rta\n%pR = OpTypePointer StorageBuffer %R\n%sb = OpVariable %pR StorageBuffer",
			"%n = OpArrayLength %i32 %sb 1"), agree: oracleVerdict,
			want: "The Result Type of OpArrayLength <id> '*[%*]' must be OpTypeInt with width 32 or 64 and signedness 0."},
	}
	runMemRuleCases(t, cases)
}

func TestVariableRules(t *testing.T) {
	cases := []memRuleCase{
		{name: "push constant of a scalar", src: comp("", "%pc = OpTypePointer PushConstant %f32\n%v = OpVariable %pc PushConstant", ""), opts: vk13, agree: oracleVerdict,
			want: "[VUID-StandaloneSpirv-PushConstant-06808] PushConstant OpVariable <id> '*' has illegal type.\nFrom Vulkan spec, Push Constant Interface section:\nSuch variables must be typed as OpTypeStruct"},
		{name: "uniform constant of a float", src: comp("OpDecorate %v DescriptorSet 0\nOpDecorate %v Binding 0\n", "%pc = OpTypePointer UniformConstant %f32\n%v = OpVariable %pc UniformConstant", ""), opts: vk13, agree: oracleVerdict,
			want: "[VUID-StandaloneSpirv-UniformConstant-04655] UniformConstant OpVariable <id> '*' has illegal type.\nVariables identified with the UniformConstant storage class are used only as handles to refer to opaque resources. Such variables must be typed as OpTypeImage, OpTypeSampler, OpTypeSampledImage, OpTypeAccelerationStructureKHR, or an array of one of these types."},
		{name: "storage buffer of a float", src: comp("OpDecorate %v DescriptorSet 0\nOpDecorate %v Binding 0\n", "%pc = OpTypePointer StorageBuffer %f32\n%v = OpVariable %pc StorageBuffer", ""), opts: vk13, agree: oracleVerdict,
			want: "[VUID-StandaloneSpirv-Uniform-06807] StorageBuffer OpVariable <id> '*' has illegal type.\nFrom Vulkan spec:\nVariables identified with the StorageBuffer storage class are used to access transparent buffer backed resources. Such variables must be typed as OpTypeStruct, or an array of this type"},
		{name: "Invariant on a private variable", src: comp("OpDecorate %priv Invariant\n", "", ""), opts: vk13, agree: oracleVerdict,
			want: "[VUID-StandaloneSpirv-Invariant-04677] Variable decorated with Invariant must only be identified with the Input or Output storage class in Vulkan environment."},
		{name: "bare runtime array", src: comp("", "%rta = OpTypeRuntimeArray %f32\n%pr = OpTypePointer Private %rta\n%r = OpVariable %pr Private", ""), opts: vk13, agree: oracleVerdict,
			want: "[VUID-StandaloneSpirv-OpTypeRuntimeArray-04680] OpVariable, <id> '*', is attempting to create memory for an illegal type, OpTypeRuntimeArray.\nFor Vulkan OpTypeRuntimeArray can only appear as the final member of an OpTypeStruct, thus cannot be instantiated via OpVariable, unless the RuntimeDescriptorArray Capability is declared"},
		// ValidateTypeStruct (the types pass) refuses the plain struct first,
		// as current spirv-val does; a Block struct reaches the memory rule.
		{name: "runtime array struct in Private", src: comp("", "%rta = OpTypeRuntimeArray %f32\n%R = OpTypeStruct %rta\n%pr = OpTypePointer Private %R\n%r = OpVariable %pr Private", ""), opts: vk13, agree: oracleVerdict,
			want: "[VUID-StandaloneSpirv-OpTypeRuntimeArray-04680] Vulkan, OpTypeStruct containing an OpTypeRuntimeArray must be decorated with Block or BufferBlock."},
		{name: "runtime array Block in Private", src: comp("OpDecorate %R Block\nOpMemberDecorate %R 0 Offset 0\nOpDecorate %rta ArrayStride 4\n", "%rta = OpTypeRuntimeArray %f32\n%R = OpTypeStruct %rta\n%pr = OpTypePointer Private %R\n%r = OpVariable %pr Private", ""), opts: vk13, agree: oracleVerdict,
			want: "[VUID-StandaloneSpirv-OpTypeRuntimeArray-04680] For Vulkan, OpTypeStruct variables containing OpTypeRuntimeArray must have storage class of StorageBuffer, PhysicalStorageBuffer, or Uniform."},
		{name: "16-bit in Private", src: module{caps: "Shader StorageBuffer16BitAccess", exts: "SPV_KHR_16bit_storage", decls: "%u16 = OpTypeInt 16 0\n%p = OpTypePointer Private %u16\n%v = OpVariable %p Private"}.text(),
			want: "Cannot allocate a variable containing a 16-bit type in Private storage class"},
		{name: "16-bit in StorageBuffer without the capability", src: module{caps: "Shader StoragePushConstant16", exts: "SPV_KHR_16bit_storage", annot: "OpDecorate %S Block\nOpMemberDecorate %S 0 Offset 0\n", decls: "%u16 = OpTypeInt 16 0\n%S = OpTypeStruct %u16\n%p = OpTypePointer StorageBuffer %S\n%v = OpVariable %p StorageBuffer"}.text(),
			want: "Allocating a variable containing a 16-bit element in StorageBuffer storage class requires an additional capability"},
		{name: "16-bit in StorageBuffer", src: module{caps: "Shader StorageBuffer16BitAccess", exts: "SPV_KHR_16bit_storage", annot: "OpDecorate %S Block\nOpMemberDecorate %S 0 Offset 0\n", decls: "%u16 = OpTypeInt 16 0\n%S = OpTypeStruct %u16\n%p = OpTypePointer StorageBuffer %S\n%v = OpVariable %p StorageBuffer"}.text()},
	}
	runMemRuleCases(t, cases)
}

func TestCopyMemoryAndAccessRules(t *testing.T) {
	cases := []memRuleCase{
		{name: "copy memory", src: comp("", "", "%a = OpVariable %pf Function\n%b = OpVariable %pf Function\nOpCopyMemory %a %b")},
		{name: "copy memory type mismatch", src: comp("", "", "%a = OpVariable %pf Function\n%b = OpVariable %pu Function\nOpCopyMemory %a %b"),
			want: "Target <id> '*'s type does not match Source <id> '*[%uint]'s type."},
		{name: "copy memory from a value", src: comp("", "", "%a = OpVariable %pf Function\nOpCopyMemory %a %f1"),
			want: "Source operand <id> '*[%float_1]' is not a pointer."},
		{name: "copy memory sized zero", src: module{kernel: true, caps: "Kernel Addresses", decls: "%u32 = OpTypeInt 32 0\n%z = OpConstant %u32 0\n%p = OpTypePointer Function %u32", body: "%a = OpVariable %p Function\n%b = OpVariable %p Function\nOpCopyMemorySized %a %b %z"}.text(),
			want: "Size operand <id> '*' cannot be a constant zero.", agree: oracleVerdict},
		{name: "copy memory sized", src: module{kernel: true, caps: "Kernel Addresses", decls: "%u32 = OpTypeInt 32 0\n%z = OpConstant %u32 4\n%p = OpTypePointer Function %u32", body: "%a = OpVariable %p Function\n%b = OpVariable %p Function\nOpCopyMemorySized %a %b %z"}.text()},
		{name: "aligned not a power of two", src: comp("", "", "%a = OpVariable %pf Function\n%x = OpLoad %f32 %a Aligned 3"),
			want: "Memory accesses Aligned operand value 3 is not a power of two.", agree: oracleNone /* older-oracle gap */},
		{name: "aligned 4", src: comp("", "", "%a = OpVariable %pf Function\n%x = OpLoad %f32 %a Aligned 4")},
		{name: "MakePointerAvailable on a load", src: module{caps: "Shader VulkanMemoryModel", decls: "%f32 = OpTypeFloat 32\n%u32 = OpTypeInt 32 0\n%dev = OpConstant %u32 1\n%p = OpTypePointer Function %f32", body: "%a = OpVariable %p Function\n%x = OpLoad %f32 %a MakePointerAvailable|NonPrivatePointer %dev"}.text(),
			patch: vulkanMemoryModel, want: "MakePointerAvailableKHR cannot be used with OpLoad."},
		{name: "NonPrivatePointer in Function", src: module{caps: "Shader VulkanMemoryModel", decls: "%f32 = OpTypeFloat 32\n%p = OpTypePointer Function %f32", body: "%a = OpVariable %p Function\n%x = OpLoad %f32 %a NonPrivatePointer"}.text(),
			patch: vulkanMemoryModel, want: "NonPrivatePointerKHR requires a pointer in Uniform, Workgroup, CrossWorkgroup, Generic, Image or StorageBuffer storage classes."},
	}
	runMemRuleCases(t, cases)
}

// vulkanMemoryModel sets OpMemoryModel's memory model to Vulkan.
var vulkanMemoryModel = patchInst(spirvOpMemoryModel, -1, 0, setWord(2, 3))

func TestPtrComparisonRules(t *testing.T) {
	vp := func(body string) string {
		src := module{caps: "Shader VariablePointers", annot: "", decls: "%f32 = OpTypeFloat 32\n%u32 = OpTypeInt 32 0\n%bool = OpTypeBool\n%pw = OpTypePointer Workgroup %f32\n%pf = OpTypePointer Function %f32\n%w = OpVariable %pw Workgroup\n", body: body}.text()
		return strings.Replace(src, "OpEntryPoint GLCompute %main \"main\"", "OpEntryPoint GLCompute %main \"main\" %w", 1)
	}
	cases := []memRuleCase{
		{name: "PtrEqual on Workgroup", src: vp("%e = OpPtrEqual %bool %w %w")},
		{name: "PtrEqual result not bool", src: vp("%e = OpPtrEqual %u32 %w %w"),
			want: "Result Type must be OpTypeBool"},
		{name: "PtrEqual on Function", src: vp("%a = OpVariable %pf Function\n%e = OpPtrEqual %bool %a %a"),
			want: "Invalid pointer storage class"},
		{name: "PtrEqual without variable pointers", src: comp("", "%pw = OpTypePointer Workgroup %f32\n%w = OpVariable %pw Workgroup\n", "%e = OpPtrEqual %bool %w %w"), agree: oracleVerdict,
			want: "Instruction on logical pointers cannot be used without a variable pointers capability"},
	}
	runMemRuleCases(t, cases)
}
