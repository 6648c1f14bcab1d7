package val

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"spvx/asm"
	"spvx/spirv"
)

// cmModule is a compute shader with a Subgroup 16x16 float cooperative
// matrix type %mat, and a storage-buffer float pointer %p; caps and exts
// are added capability and extension lines, decls types and constants,
// body instructions in main.
func cmModule(caps, exts, decls, body string) string {
	return `OpCapability Shader
OpCapability VulkanMemoryModel
OpCapability CooperativeMatrixKHR
` + caps + `OpExtension "SPV_KHR_cooperative_matrix"
` + exts + `OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %main "main" %buf
OpExecutionMode %main LocalSize 32 1 1
OpDecorate %rta ArrayStride 4
OpDecorate %blk Block
OpMemberDecorate %blk 0 Offset 0
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%u32 = OpTypeInt 32 0
%i32 = OpTypeInt 32 1
%f32 = OpTypeFloat 32
%fz = OpConstant %f32 0
%c0 = OpConstant %u32 0
%c1 = OpConstant %u32 1
%c2 = OpConstant %u32 2
%c3 = OpConstant %u32 3
%c4 = OpConstant %u32 4
%c16 = OpConstant %u32 16
%sub = OpConstant %u32 3
` + decls + `%mat = OpTypeCooperativeMatrixKHR %f32 %sub %c16 %c16 %c2
%rta = OpTypeRuntimeArray %f32
%blk = OpTypeStruct %rta
%pblk = OpTypePointer StorageBuffer %blk
%pf = OpTypePointer StorageBuffer %f32
%pfn = OpTypePointer Function %f32
%pu = OpTypePointer Function %u32
%buf = OpVariable %pblk StorageBuffer
%main = OpFunction %void None %fn
%entry = OpLabel
%fv = OpVariable %pfn Function
%uv = OpVariable %pu Function
%ld = OpLoad %u32 %uv
%p = OpAccessChain %pf %buf %c0 %c0
%m = OpCooperativeMatrixLoadKHR %mat %p %c0 %c16
` + body + `OpReturn
OpFunctionEnd
`
}

// cmType is cmModule (without a body) with %mat's operands after the Component Type
// replaced by ops.
func cmType(caps, exts, decls, ops string) string {
	return strings.Replace(cmModule(caps, exts, decls, ""), "OpTypeCooperativeMatrixKHR %f32 %sub %c16 %c16 %c2", "OpTypeCooperativeMatrixKHR "+ops, 1)
}

// afterMat is cmModule with decl after %mat's declaration.
func afterMat(decl, body string) string {
	return strings.Replace(cmModule("", "", "", body), "%rta = OpTypeRuntimeArray", decl+"%rta = OpTypeRuntimeArray", 1)
}

// cmTypeCases cover OpTypeCooperativeMatrixKHR (and NV's shared rules).
func cmTypeCases() []rqCase {
	const bf, bfExt = "OpCapability BFloat16TypeKHR\n", "OpExtension \"SPV_KHR_bfloat16\"\n"
	const fp8, fp8Ext = "OpCapability Float8EXT\n", "OpExtension \"SPV_EXT_float8\"\n"
	noLocal := strings.Replace(cmType("", "", "", "%f32 %c2 %c16 %c16 %c2"), "OpExecutionMode %main LocalSize 32 1 1\n", "", 1)
	sizeID := func(decls string) string {
		return strings.Replace(cmType("", "", decls, "%f32 %c2 %c16 %c16 %c2"), "OpExecutionMode %main LocalSize 32 1 1\n",
			"OpExecutionModeId %main LocalSizeId %c32 %c1 %c1\n", 1)
	}
	late := strings.Replace(sizeID(""), "%rta = OpTypeRuntimeArray", "%c32 = OpConstant %u32 32\n%rta = OpTypeRuntimeArray", 1)
	nv := strings.NewReplacer("OpCapability CooperativeMatrixKHR\n", "OpCapability CooperativeMatrixKHR\nOpCapability CooperativeMatrixNV\n",
		"OpExtension \"SPV_KHR_cooperative_matrix\"\n", "OpExtension \"SPV_KHR_cooperative_matrix\"\nOpExtension \"SPV_NV_cooperative_matrix\"\n")
	return []rqCase{
		rq("valid", cmModule("", "", "", ""), ""),
		rq("component bool", cmType("", "", "", "%bool %sub %c16 %c16 %c2"), "OpTypeCooperativeMatrix Component Type <id> '7[%bool]' is not a scalar numerical type."),
		rq("component bfloat16", cmType(bf, bfExt, "%bf = OpTypeFloat 16 BFloat16KHR\n", "%bf %sub %c16 %c16 %c2"), "OpTypeCooperativeMatrix Component Type <id> '19[%bfloat16]'require BFloat16CooperativeMatrixKHR be declared."),
		rq("component bfloat16 with capability", cmType(bf+"OpCapability BFloat16CooperativeMatrixKHR\n", bfExt, "%bf = OpTypeFloat 16 BFloat16KHR\n", "%bf %sub %c16 %c16 %c2"), ""),
		rq("component fp8", cmType(fp8, fp8Ext, "%e4 = OpTypeFloat 8 Float8E4M3EXT\n", "%e4 %sub %c16 %c16 %c2"), "OpTypeCooperativeMatrix Component Type <id> '19[%fp8e4m3]'require Float8CooperativeMatrixEXT be declared."),
		rq("component fp8 with capability", cmType(fp8+"OpCapability Float8CooperativeMatrixEXT\n", fp8Ext, "%e4 = OpTypeFloat 8 Float8E4M3EXT\n", "%e4 %sub %c16 %c16 %c2"), ""),
		rq("scope float", cmType("", "", "", "%f32 %fz %c16 %c16 %c2"), "OpTypeCooperativeMatrix Scope <id> '11[%float_0]' is not a constant instruction with scalar integer type."),
		rq("scope spec constant", cmType("", "", "%ss = OpSpecConstant %u32 1\n", "%f32 %ss %c16 %c16 %c2"), ""),
		rq("scope undef", cmType("", "", "%su = OpUndef %u32\n", "%f32 %su %c16 %c16 %c2"), "OpTypeCooperativeMatrix Scope <id> '19[%19]' is not a constant instruction with scalar integer type."),
		rq("rows float", cmType("", "", "", "%f32 %sub %fz %c16 %c2"), "OpTypeCooperativeMatrix Rows <id> '11[%float_0]' is not a constant instruction with scalar integer type."),
		rq("cols float", cmType("", "", "", "%f32 %sub %c16 %fz %c2"), "OpTypeCooperativeMatrix Cols <id> '11[%float_0]' is not a constant instruction with scalar integer type."),
		rq("use float", cmType("", "", "", "%f32 %sub %c16 %c16 %fz"), "OpTypeCooperativeMatrixKHR Use <id> '11[%float_0]' is not a constant instruction with scalar integer type."),
		rq("scope device", cmType("", "", "", "%f32 %c1 %c16 %c16 %c2"), "OpTypeCooperativeMatrixKHR Scope is limited to Workgroup and Subgroup"),
		{"scope device vulkan", cmType("", "", "", "%f32 %c1 %c16 %c16 %c2"), "[VUID-StandaloneSpirv-Scope-12243] OpTypeCooperativeMatrixKHR Scope is limited to Workgroup and Subgroup", EnvVulkan1_3},
		rq("scope workgroup", cmType("", "", "", "%f32 %c2 %c16 %c16 %c2"), ""),
		rq("scope workgroup without local size", noLocal, "OpTypeCooperativeMatrixKHR with ScopeWorkgroup used without specifying LocalSize or LocalSizeId for entry point <id> '1[%1]'"),
		rq("scope workgroup local size id", sizeID("%c32 = OpConstant %u32 32\n"), ""),
		rq("scope workgroup local size id defined later", late, "OpTypeCooperativeMatrixKHR with ScopeWorkgroup used before LocalSizeId constant value <id> '3[%uint_32]' is defined."),
		rq("nv rows float", nv.Replace(cmModule("", "", "%nvm = OpTypeCooperativeMatrixNV %f32 %sub %fz %c16\n", "")), "OpTypeCooperativeMatrix Rows <id> '11[%float_0]' is not a constant instruction with scalar integer type."),
		rq("nv scope device", nv.Replace(cmModule("", "", "%nvm = OpTypeCooperativeMatrixNV %f32 %c1 %c16 %c16\n", "")), "OpTypeCooperativeMatrixKHR Scope is limited to Workgroup and Subgroup"),
	}
}

// cmMemoryCases cover OpCooperativeMatrixLengthKHR, LoadKHR and StoreKHR.
func cmMemoryCases() []rqCase {
	const arm, armExt = "OpCapability CooperativeMatrixLayoutsARM\n", "OpExtension \"SPV_ARM_cooperative_matrix_layouts\"\n"
	const armC = "%rb = OpConstant %u32 0x106a\n%cb = OpConstant %u32 0x106b\n%m2 = OpTypeCooperativeMatrixKHR %f32 %sub %c2 %c16 %c2\n%m3 = OpTypeCooperativeMatrixKHR %f32 %sub %c4 %c4 %c2\n"
	ld := func(caps, decls, ops string) string {
		exts := ""
		if caps != "" {
			exts = armExt
		}
		return cmModule(caps, exts, decls, "%r = OpCooperativeMatrixLoadKHR "+ops+"\n")
	}
	return []rqCase{
		rq("valid length store and layouts", afterMat("%sl = OpSpecConstantOp %u32 CooperativeMatrixLengthKHR %mat\n",
			"%n = OpCooperativeMatrixLengthKHR %u32 %mat\nOpCooperativeMatrixStoreKHR %p %m %c0 %c16\n"+
				"%r1 = OpCooperativeMatrixLoadKHR %mat %p %c1 %c16\n%r2 = OpCooperativeMatrixLoadKHR %mat %p %c2\n"+
				"%r3 = OpCooperativeMatrixLoadKHR %mat %p %c0 %ld Aligned 4\n"), ""),
		rq("length result signed", cmModule("", "", "", "%n = OpCooperativeMatrixLengthKHR %i32 %mat\n"), "The Result Type of OpCooperativeMatrixLengthKHR <id> '30[%30]' must be OpTypeInt with width 32 and signedness 0."),
		rq("length type", cmModule("", "", "", "%n = OpCooperativeMatrixLengthKHR %u32 %f32\n"), "The type in OpCooperativeMatrixLengthKHR <id> '10[%float]' must be OpTypeCooperativeMatrixKHR."),
		rq("length spec constant op type", afterMat("%sl = OpSpecConstantOp %u32 CooperativeMatrixLengthKHR %f32\n", ""), "The type in OpSpecConstantOp <id> '10[%float]' must be OpTypeCooperativeMatrixKHR."),
		rq("load result", ld("", "", "%f32 %p %c0 %c16"), "spv::Op::OpCooperativeMatrixLoadKHR Result Type <id> '10[%float]' is not a cooperative matrix type."),
		rq("store object", cmModule("", "", "", "OpCooperativeMatrixStoreKHR %p %fz %c0 %c16\n"), "spv::Op::OpCooperativeMatrixStoreKHR Object type <id> '10[%float]' is not a cooperative matrix type."),
		rq("pointer not logical", ld("", "", "%mat %c0 %c0 %c16"), "spv::Op::OpCooperativeMatrixLoadKHR Pointer <id> '12[%uint_0]' is not a logical pointer."),
		rq("pointer not a pointer", cmModule("", "", "", "%cp = OpCopyObject %u32 %c0\n%r = OpCooperativeMatrixLoadKHR %mat %cp %c0 %c16\n"), "spv::Op::OpCooperativeMatrixLoadKHR type for pointer <id> '30[%30]' is not a pointer type."),
		rq("function pointer", ld("", "", "%mat %fv %c0 %c16"), ""),
		{"function pointer vulkan", ld("", "", "%mat %fv %c0 %c16"), "[VUID-StandaloneSpirv-Pointer-08973] spv::Op::OpCooperativeMatrixLoadKHR storage class for pointer type <id> '22[%_ptr_Function_float]' is not Workgroup, StorageBuffer, or PhysicalStorageBuffer.", EnvVulkan1_3},
		rq("pointer to struct", ld("", "", "%mat %buf %c0 %c16"), "spv::Op::OpCooperativeMatrixLoadKHR Pointer <id> '2[%2]'s Type must be a scalar or vector type."),
		rq("layout float", ld("", "", "%mat %p %fz %c16"), "MemoryLayout operand <id> '11[%float_0]' must be a 32-bit integer constant instruction."),
		rq("layout variable", ld("", "", "%mat %p %ld %c16"), "MemoryLayout operand <id> '27[%27]' must be a 32-bit integer constant instruction."),
		rq("row major without stride", ld("", "", "%mat %p %c0"), "MemoryLayout 0 requires a Stride."),
		rq("column major without stride", cmModule("", "", "", "OpCooperativeMatrixStoreKHR %p %m %c1\n"), "MemoryLayout 1 requires a Stride."),
		rq("stride float", ld("", "", "%mat %p %c0 %fz"), "Stride operand <id> '11[%float_0]' must be a scalar integer type."),
		rq("arm layout without capability", ld("", armC, "%mat %p %rb %c1"), "Using the RowBlockedInterleavedARM or ColumnBlockedInterleavedARM MemoryLayout requires the CooperativeMatrixLayoutsARM capability be declared"),
		rq("arm layout", ld(arm, armC, "%mat %p %rb %c4"), ""),
		rq("arm layout stride variable", ld(arm, armC, "%mat %p %rb %ld"), "MemoryLayout 4202 requires Stride come from a constant instruction."),
		rq("arm layout stride 3", ld(arm, armC, "%mat %p %cb %c3"), "MemoryLayout 4203 requires Stride be 1, 2, or 4."),
		rq("arm layout without stride", ld(arm, armC, "%mat %p %cb"), "MemoryLayout 4203 requires a Stride."),
		rq("arm layout rows", ld(arm, armC, "%m2 %p %cb %c1"), "MemoryLayout 4203 with a Stride of 1 requires that the number of rows be a multiple of 4"),
		rq("arm layout columns", ld(arm, armC, "%m3 %p %rb %c2"), "MemoryLayout 4202 with a Stride of 2 requires that the number of columns be a multiple of 8"),
		rq("load make pointer available", ld("", "", "%mat %p %c0 %c16 MakePointerAvailable|NonPrivatePointer %c1"), "MakePointerAvailableKHR cannot be used with OpLoad."),
		rq("store make pointer visible", cmModule("", "", "", "OpCooperativeMatrixStoreKHR %p %m %c0 %c16 MakePointerVisible|NonPrivatePointer %c1\n"), "MakePointerVisibleKHR cannot be used with OpStore."),
		rq("load non-private", ld("", "", "%mat %p %c0 %c16 NonPrivatePointer"), ""),
		rq("load aligned 3", ld("", "", "%mat %p %c0 %c16 Aligned 3"), "Memory accesses Aligned operand value 3 is not a power of two."),
	}
}

// TestCooperativeMatrix is the cooperative-matrix rule table
// (cooperative_matrix.go), checked against current spirv-val with
// $SPVX_CURRENT_SPIRV_TOOLS set.
func TestCooperativeMatrix(t *testing.T) {
	runTable(t, append(cmTypeCases(), cmMemoryCases()...))
}

// cmStrictCases are the spec-strict cooperative-matrix cases, which
// current spirv-val accepts.
func cmStrictCases() []rqCase {
	const (
		sfx  = " (spec-strict)"
		ab   = "%ma = OpTypeCooperativeMatrixKHR %f32 %sub %c16 %c16 %c0\n%mb = OpTypeCooperativeMatrixKHR %f32 %sub %c16 %c16 %c1\n"
		lds  = "%la = OpCooperativeMatrixLoadKHR %ma %p %c0 %c16\n%lb = OpCooperativeMatrixLoadKHR %mb %p %c0 %c16\n"
		i16  = "OpCapability Int16\n"
		s16  = "%u16 = OpTypeInt 16 0\n%s16 = OpConstant %u16 3\n"
		neg  = "%n1 = OpConstant %i32 -1\n%ff = OpConstant %u32 0xffffffff\n"
		load = "%r = OpCooperativeMatrixLoadKHR %mat %p "
	)
	return []rqCase{
		rq("valid", cmModule("", "", ab+neg, lds+"%d = OpCooperativeMatrixMulAddKHR %mat %la %lb %m\n"+
			"OpCooperativeMatrixStoreKHR %p %d %c1 %c4\n"+load+"%c0 %c0\n%r2 = OpCooperativeMatrixLoadKHR %mat %p %c1 %ff\n"), ""),
		rq("muladd result use A", cmModule("", "", ab, lds+"%d = OpCooperativeMatrixMulAddKHR %ma %la %lb %m\n"),
			"OpCooperativeMatrixMulAddKHR Result Type must have the MatrixAccumulatorKHR Use"+sfx),
		rq("scope 16-bit", cmType(i16, "", s16, "%f32 %s16 %c16 %c16 %c2"),
			"OpTypeCooperativeMatrixKHR Scope <id> '20[%ushort_3]' must be a constant instruction with scalar 32-bit integer type"+sfx),
		rq("use 16-bit", cmType(i16, "", s16, "%f32 %sub %c16 %c16 %s16"),
			"OpTypeCooperativeMatrixKHR Use <id> '20[%ushort_3]' must be a constant instruction with scalar 32-bit integer type"+sfx),
		rq("use 5", cmType("", "", "%c5 = OpConstant %u32 5\n", "%f32 %sub %c16 %c16 %c5"), "OpTypeCooperativeMatrixKHR Use 5 is not a Cooperative Matrix Use"+sfx),
		rq("use spec constant", cmType("", "", "%c5 = OpSpecConstant %u32 2\n", "%f32 %sub %c16 %c16 %c5"), ""),
		rq("store stride 0", cmModule("", "", "", "OpCooperativeMatrixStoreKHR %p %m %c0 %c0\n"),
			"OpCooperativeMatrixStoreKHR Stride must be greater than 0 with MemoryLayout 0, not 0"+sfx),
		rq("store column major stride -1", cmModule("", "", neg, "OpCooperativeMatrixStoreKHR %p %m %c1 %n1\n"),
			"OpCooperativeMatrixStoreKHR Stride must be greater than 0 with MemoryLayout 1, not -1"+sfx),
		rq("load stride -1", cmModule("", "", neg, load+"%c0 %n1\n"), "OpCooperativeMatrixLoadKHR Stride must not be negative with MemoryLayout 0, not -1"+sfx),
		rq("load stride variable", cmModule("", "", "", load+"%c0 %ld\n"), ""),
		rq("load from a whole variable", cmModule("", "", "", load+"%c0 %c16\n%r3 = OpCooperativeMatrixLoadKHR %mat %fv %c0 %c16\n"),
			"OpCooperativeMatrixLoadKHR Pointer <id> '25[%25]' must point into an array when the Shader capability is declared"+sfx),
		rq("store through a copy of a chain", cmModule("", "", "", "%pc = OpCopyObject %pf %p\nOpCooperativeMatrixStoreKHR %pc %m %c0 %c16\n"), ""),
	}
}

// TestCooperativeMatrixSpecStrict is the cooperative-matrix spec-strict
// table (coopMatSpecStrict).
func TestCooperativeMatrixSpecStrict(t *testing.T) { runSpecStrictTable(t, cmStrictCases()) }

// TestCooperativeMatrixScopeLinear: n GLCompute entry points with
// LocalSizeId and n Workgroup cooperative matrix types validate in
// linear time (the entry points' local sizes are summarized once, not
// scanned per type).
func TestCooperativeMatrixScopeLinear(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("-short or -race: CPU-time ratios")
	}
	module := func(n int) string {
		var head, modes, types, fns strings.Builder
		for k := 0; k < n; k++ {
			fmt.Fprintf(&head, "OpEntryPoint GLCompute %%m%[1]d \"m%[1]d\"\n", k)
			fmt.Fprintf(&modes, "OpExecutionModeId %%m%[1]d LocalSizeId %%c1 %%c1 %%c1\n", k)
			fmt.Fprintf(&types, "%%r%[1]d = OpConstant %%u32 %[2]d\n%%t%[1]d = OpTypeCooperativeMatrixKHR %%f32 %%c2 %%r%[1]d %%r%[1]d %%c2\n", k, 16+k)
			fmt.Fprintf(&fns, "%%m%[1]d = OpFunction %%void None %%fn\n%%e%[1]d = OpLabel\nOpReturn\nOpFunctionEnd\n", k)
		}
		return "OpCapability Shader\nOpCapability VulkanMemoryModel\nOpCapability CooperativeMatrixKHR\nOpExtension \"SPV_KHR_cooperative_matrix\"\nOpMemoryModel Logical Vulkan\n" +
			head.String() + modes.String() + "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%u32 = OpTypeInt 32 0\n%f32 = OpTypeFloat 32\n%c1 = OpConstant %u32 1\n%c2 = OpConstant %u32 2\n" +
			types.String() + fns.String()
	}
	measure := func(n int) time.Duration {
		words, err := asm.Assemble([]byte(module(n)), asm.Options{})
		if err != nil {
			t.Fatal(err)
		}
		m, err := spirv.DecodeWords(words)
		if err != nil {
			t.Fatal(err)
		}
		d, err := validationCPU(m, Options{})
		if err != nil {
			t.Fatalf("%d entry points: %v", n, err)
		}
		return d
	}
	const n = 3000
	assertLinear(t, "%d entry points and types", n, measure(n), measure(4*n))
}

// bf16StrictCases cover SPV_KHR_bfloat16's allow-list under SpecStrict,
// which current spirv-val does not have.
func bf16StrictCases() []rqCase {
	const (
		bfCaps = "OpCapability BFloat16TypeKHR\nOpCapability BFloat16CooperativeMatrixKHR\nOpCapability BFloat16DotProductKHR\n"
		bfExt  = "OpExtension \"SPV_KHR_bfloat16\"\n"
		bfDecl = "%bf = OpTypeFloat 16 BFloat16KHR\n%v2b = OpTypeVector %bf 2\n%bz = OpConstantNull %v2b\n" +
			"%ba = OpTypeCooperativeMatrixKHR %bf %sub %c16 %c16 %c0\n%bb = OpTypeCooperativeMatrixKHR %bf %sub %c16 %c16 %c1\n" +
			"%na = OpConstantNull %ba\n%nb = OpConstantNull %bb\n"
	)
	broadcast := `OpCapability Addresses
OpCapability Kernel
OpCapability Groups
OpCapability BFloat16TypeKHR
OpExtension "SPV_KHR_bfloat16"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %main "main"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%u32 = OpTypeInt 32 0
%bf = OpTypeFloat 16 BFloat16KHR
%c2 = OpConstant %u32 2
%c0 = OpConstant %u32 0
%x = OpConstantNull %bf
%main = OpFunction %void None %fn
%e = OpLabel
%r = OpGroupBroadcast %bf %c2 %x %c0
OpReturn
OpFunctionEnd
`
	return []rqCase{
		rq("bfloat16 dot, muladd, length and conversion", cmModule(bfCaps, bfExt, bfDecl,
			"%d = OpDot %bf %bz %bz\n%f = OpFConvert %f32 %d\n%r = OpCooperativeMatrixMulAddKHR %mat %na %nb %m\n%n = OpCooperativeMatrixLengthKHR %u32 %ba\n"), ""),
		rq("bfloat16 group broadcast", broadcast, "GroupBroadcast cannot use an object of BFloat16 type: SPV_KHR_bfloat16 allows them only in the instructions it lists (spec-strict)"),
	}
}

// TestBFloat16SpecStrict is SPV_KHR_bfloat16's allow-list table.
func TestBFloat16SpecStrict(t *testing.T) { runSpecStrictTable(t, bf16StrictCases()) }
