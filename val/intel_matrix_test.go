package val

import (
	"path/filepath"
	"testing"

	"spvx/asm"
	"spvx/spirv"
)

// imModule is an OpenCL kernel with the DPAS and 2D block IO
// capabilities: a CrossWorkgroup parameter %src, Function variables %dst
// (16-bit) and %dstu (32-bit), %k a loaded 32-bit value, and body in the
// function. decls are added to the types and constants.
func imModule(decls, body string) string {
	return `OpCapability Addresses
OpCapability Kernel
OpCapability Int8
OpCapability Vector16
OpCapability Int16
OpCapability Int64
OpCapability Float16
OpCapability SubgroupMatrixMultiplyAccumulateINTEL
OpCapability Subgroup2DBlockIOINTEL
OpCapability Subgroup2DBlockTransformINTEL
OpCapability Subgroup2DBlockTransposeINTEL
OpExtension "SPV_INTEL_subgroup_matrix_multiply_accumulate"
OpExtension "SPV_INTEL_2d_block_io"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %main "main" %gp
%void = OpTypeVoid
%u8 = OpTypeInt 8 0
%u16 = OpTypeInt 16 0
%u32 = OpTypeInt 32 0
%f32 = OpTypeFloat 32
%v2u = OpTypeVector %u32 2
%v3u = OpTypeVector %u32 3
%v8u = OpTypeVector %u32 8
%v8f = OpTypeVector %f32 8
%v8s = OpTypeVector %u16 8
%pg = OpTypePointer CrossWorkgroup %u16
%pf = OpTypePointer Function %u16
%pfu = OpTypePointer Function %u32
%pw = OpTypePointer Workgroup %u16
%fn = OpTypeFunction %void %pg
%c1 = OpConstant %u32 1
%c2 = OpConstant %u32 2
%c3 = OpConstant %u32 3
%c6 = OpConstant %u32 6
%c8 = OpConstant %u32 8
%c16 = OpConstant %u32 16
%c64 = OpConstant %u32 64
%h16 = OpConstant %u16 16
%fz = OpConstant %f32 0
%co = OpConstantComposite %v2u %c1 %c1
%co3 = OpConstantComposite %v3u %c1 %c1 %c1
%a = OpConstantNull %v8s
%b = OpConstantNull %v8u
%c = OpConstantNull %v8f
%gp = OpVariable %pw Workgroup
` + decls + `%main = OpFunction %void None %fn
%src = OpFunctionParameter %pg
%entry = OpLabel
%dst = OpVariable %pf Function
%dstu = OpVariable %pfu Function
%k = OpLoad %u32 %dstu
` + body + `OpReturn
OpFunctionEnd
`
}

// imDPAS is imModule with one OpSubgroupMatrixMultiplyAccumulateINTEL of
// result type ty and operands ops.
func imDPAS(ty, ops string) string {
	return imModule("", "%r = OpSubgroupMatrixMultiplyAccumulateINTEL "+ty+" "+ops+"\n")
}

// imBlock is imModule with one 2D block instruction op and its operands.
func imBlock(op, ops string) string {
	return imModule("%sc = OpSpecConstant %u32 3\n", op+" "+ops+"\n")
}

// imCases are spec-strict cases: want is the first error under
// SpecStrict; without it, and for current spirv-val, every case is valid.
func imCases() []rqCase {
	const (
		ld   = "OpSubgroup2DBlockLoadINTEL"
		st   = "OpSubgroup2DBlockStoreINTEL"
		dpas = "OpSubgroupMatrixMultiplyAccumulateINTEL"
		sfx  = " (spec-strict)"
		ops  = "%c2 %c16 %c8 %c1 %src %c64 %c16 %c64 %co %dst"
	)
	valid := imModule("", `%r = OpSubgroupMatrixMultiplyAccumulateINTEL %v8f %c16 %a %b %c MatrixAPackedFloat16INTEL|MatrixBPackedFloat16INTEL
%r2 = OpSubgroupMatrixMultiplyAccumulateINTEL %v8u %c8 %b %b %b MatrixASignedComponentsINTEL|MatrixBPackedInt4INTEL
%r3 = OpSubgroupMatrixMultiplyAccumulateINTEL %f32 %c8 %c %c %fz MatrixATF32INTEL|MatrixBTF32INTEL
OpSubgroup2DBlockLoadINTEL %c2 %c16 %c8 %c1 %src %c64 %c16 %c64 %co %dst
OpSubgroup2DBlockLoadTransposeINTEL %c2 %c16 %c8 %c1 %src %c64 %c16 %c64 %co %dst
OpSubgroup2DBlockLoadTransformINTEL %c2 %c16 %c8 %c1 %src %c64 %c16 %c64 %co %dstu
OpSubgroup2DBlockPrefetchINTEL %c2 %c16 %c8 %c1 %src %c64 %c16 %c64 %co
OpSubgroup2DBlockStoreINTEL %c2 %c16 %c8 %c1 %dst %src %c64 %c16 %c64 %co
OpSubgroup2DBlockLoadINTEL %c1 %c16 %c8 %c1 %src %k %k %k %co %dst
`)
	return []rqCase{
		rq("valid", valid, ""),
		rq("dpas result pointer", imDPAS("%pg", "%c16 %a %b %c"), dpas+" Result Type must be a scalar or vector of floating-point or integer type"+sfx),
		rq("dpas k dim variable", imDPAS("%v8f", "%k %a %b %c"), dpas+" K Dim <id> '36[%36]' must come from a constant instruction with scalar 32-bit integer type"+sfx),
		rq("dpas k dim 16-bit", imDPAS("%v8f", "%h16 %a %b %c"), dpas+" K Dim <id> '25[%ushort_16]' must come from a constant instruction with scalar 32-bit integer type"+sfx),
		rq("dpas k dim spec constant", imModule("%sk = OpSpecConstant %u32 16\n", "%r = "+dpas+" %v8f %sk %a %b %c\n"), ""),
		rq("dpas matrix a pointer", imDPAS("%v8f", "%c16 %src %b %c"), dpas+" Matrix A <id> '32[%32]' must be a scalar or vector of floating-point or integer type"+sfx),
		rq("dpas matrix b pointer", imDPAS("%v8f", "%c16 %a %src %c"), dpas+" Matrix B <id> '32[%32]' must be a scalar or vector of floating-point or integer type"+sfx),
		rq("dpas matrix c pointer", imDPAS("%v8f", "%c16 %a %b %src"), dpas+" Matrix C <id> '32[%32]' must be a scalar or vector of floating-point or integer type"+sfx),
		rq("dpas a signed on float", imDPAS("%v8f", "%c16 %c %b %c MatrixASignedComponentsINTEL"),
			"Matrix Multiply Accumulate Operands 0x1: the signed and packed interpretations of Matrix A are only valid for an integer Matrix A"+sfx),
		rq("dpas b packed bf16 on float", imDPAS("%v8f", "%c16 %a %c %c MatrixBPackedBFloat16INTEL"),
			"Matrix Multiply Accumulate Operands 0x2000: the signed and packed interpretations of Matrix B are only valid for an integer Matrix B"+sfx),
		rq("dpas b tf32 on integer", imDPAS("%v8f", "%c16 %c %b %c MatrixATF32INTEL|MatrixBTF32INTEL"),
			"Matrix Multiply Accumulate Operands 0x300: the TF32 interpretation of Matrix B is only valid for a 32-bit float Matrix B"+sfx),
		rq("block width variable", imBlock(ld, "%c2 %k %c8 %c1 %src %c64 %c16 %c64 %co %dst"), ld+" Block Width <id> '37[%37]' must be a constant instruction with scalar 32-bit integer type"+sfx),
		rq("block height 16-bit", imBlock(ld, "%c2 %c16 %h16 %c1 %src %c64 %c16 %c64 %co %dst"), ld+" Block Height <id> '25[%ushort_16]' must be a constant instruction with scalar 32-bit integer type"+sfx),
		rq("block count float", imBlock(ld, "%c2 %c16 %c8 %fz %src %c64 %c16 %c64 %co %dst"), ld+" Block Count <id> '26[%float_0]' must be a constant instruction with scalar 32-bit integer type"+sfx),
		rq("block count spec constant", imBlock(ld, "%c2 %c16 %c8 %sc %src %c64 %c16 %c64 %co %dst"), ""),
		rq("src base workgroup", imBlock(ld, "%c2 %c16 %c8 %c1 %gp %c64 %c16 %c64 %co %dst"), ld+" Src Base Pointer <id> '2[%2]' must be a pointer to the CrossWorkgroup storage class"+sfx),
		rq("dst cross workgroup", imBlock(ld, "%c2 %c16 %c8 %c1 %src %c64 %c16 %c64 %co %src"), ld+" Dst Pointer <id> '33[%33]' must be a pointer to the Function storage class"+sfx),
		rq("store src cross workgroup", imBlock(st, "%c2 %c16 %c8 %c1 %src %src %c64 %c16 %c64 %co"), st+" Src Pointer <id> '33[%33]' must be a pointer to the Function storage class"+sfx),
		rq("store dst base function", imBlock(st, "%c2 %c16 %c8 %c1 %dst %dst %c64 %c16 %c64 %co"), st+" Dst Base Pointer <id> '35[%35]' must be a pointer to the CrossWorkgroup storage class"+sfx),
		rq("prefetch src base function", imBlock("OpSubgroup2DBlockPrefetchINTEL", "%c2 %c16 %c8 %c1 %dst %c64 %c16 %c64 %co"),
			"OpSubgroup2DBlockPrefetchINTEL Src Base Pointer <id> '35[%35]' must be a pointer to the CrossWorkgroup storage class"+sfx),
		rq("memory width float", imBlock(ld, "%c2 %c16 %c8 %c1 %src %fz %c16 %c64 %co %dst"), ld+" Memory Width <id> '26[%float_0]' must be an integer type scalar"+sfx),
		rq("memory pitch vector", imBlock(st, "%c2 %c16 %c8 %c1 %dst %src %c64 %c16 %co %co"), st+" Memory Pitch <id> '27[%27]' must be an integer type scalar"+sfx),
		rq("coordinate scalar", imBlock(ld, "%c2 %c16 %c8 %c1 %src %c64 %c16 %c64 %c1 %dst"), ld+" Coordinate <id> '18[%uint_1]' must be a vector of two integer type components"+sfx),
		rq("coordinate 3 components", imBlock("OpSubgroup2DBlockLoadTransposeINTEL", "%c2 %c16 %c8 %c1 %src %c64 %c16 %c64 %co3 %dst"),
			"OpSubgroup2DBlockLoadTransposeINTEL Coordinate <id> '28[%28]' must be a vector of two integer type components"+sfx),
		rq("transform dst 16-bit", imBlock("OpSubgroup2DBlockLoadTransformINTEL", ops),
			"OpSubgroup2DBlockLoadTransformINTEL Dst Pointer <id> '35[%35]' must point to a scalar 32-bit integer type"+sfx),
		rq("element size 3", imBlock(ld, "%c3 %c16 %c8 %c1 %src %c64 %c16 %c64 %co %dst"), ld+" Element Size must be 1, 2, 4, or 8 bytes, not 3"+sfx),
		rq("element size spec constant", imBlock(ld, "%sc %c16 %c8 %c1 %src %c64 %c16 %c64 %co %dst"), ""),
		rq("1-byte block width", imBlock(ld, "%c1 %c6 %c8 %c1 %src %c64 %c16 %c64 %co %dst"), ld+" Block Width must be a multiple of 4 for 1-byte elements, not 6"+sfx),
		rq("2-byte block width", imBlock(st, "%c2 %c3 %c8 %c1 %dst %src %c64 %c16 %c64 %co"), st+" Block Width must be a multiple of 2 for 2-byte elements, not 3"+sfx),
		rq("8-byte block width", imBlock(ld, "%c8 %c3 %c8 %c1 %src %c64 %c16 %c64 %co %dst"), ""),
	}
}

// TestIntelMatrixSpecStrict is the DPAS and 2D block IO table
// (intel_matrix.go); current spirv-val has none of these rules.
func TestIntelMatrixSpecStrict(t *testing.T) { runSpecStrictTable(t, imCases()) }

// runSpecStrictTable runs a table of spec-strict cases: each case's first
// error under SpecStrict is want; without SpecStrict, and for current
// spirv-val when $SPVX_CURRENT_SPIRV_TOOLS is set, every case is valid.
func runSpecStrictTable(t *testing.T, cases []rqCase) {
	sv := currentSpirvVal(t)
	dir := t.TempDir()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			words, err := asm.Assemble([]byte(c.src), asm.Options{})
			if err != nil {
				t.Fatalf("assembling:\n%s\n%v", c.src, err)
			}
			if got := firstError(t, words, Options{SpecStrict: true}); got != c.want {
				t.Errorf("spec-strict: got  %q\nwant %q", got, c.want)
			}
			if got := firstError(t, words, Options{}); got != "" {
				t.Errorf("without spec-strict: got %q, want valid", got)
			}
			if sv != "" {
				checkCurrentSpirvVal(t, sv, filepath.Join(dir, "m.spv"), words, Options{}, "")
			}
		})
	}
}

// FuzzMatrixRules validates mutations of the cooperative-matrix and
// INTEL matrix tables' modules, spec-strict, in the universal and Vulkan
// environments: the rules must never panic on malformed operands or types.
func FuzzMatrixRules(f *testing.F) {
	for _, cs := range [][]rqCase{cmTypeCases(), cmMemoryCases(), cmStrictCases(), bf16StrictCases(), imCases()} {
		for _, c := range cs {
			f.Add(wordsToBytes(assembleF(f, c.src)))
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := spirv.Decode(b)
		if err != nil {
			return
		}
		_ = Validate(m, Options{All: true, SpecStrict: true})
		_ = Validate(m, Options{All: true, SpecStrict: true, Env: EnvVulkan1_3})
	})
}
