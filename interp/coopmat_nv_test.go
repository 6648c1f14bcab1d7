package interp

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"testing"
)

// SPV_NV_cooperative_matrix runs on coopmat.go's machinery: the type has
// no Use, loads and stores take Stride before a boolean ColumnMajor, and
// MulAdd takes each integer matrix's signedness from its component type.
// nvGemmSrc multiplies R = A·B + C for 4×4 matrices at subgroup size 4,
// A and C row-major, B column-major, in component types ab (A, B) and cr
// (C, R), and stores R and OpCooperativeMatrixLengthNV.
func nvGemmSrc(ab, cr string) string {
	caps, int8 := "", ""
	if strings.Contains(ab, "8") {
		caps = "OpCapability Int8\nOpCapability StorageBuffer8BitAccess\nOpExtension \"SPV_KHR_8bit_storage\"\n"
		int8 = "%i8 = OpTypeInt 8 1\n%u8 = OpTypeInt 8 0\n"
	}
	src := fmt.Sprintf(`OpCapability Shader
OpCapability CooperativeMatrixNV
%[1]sOpExtension "SPV_NV_cooperative_matrix"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %%main "main"
OpExecutionMode %%main LocalSize 4 1 1
OpDecorate %%rab ArrayStride %[4]d
OpDecorate %%rcr ArrayStride 4
OpMemberDecorate %%BAB 0 Offset 0
OpMemberDecorate %%BCR 0 Offset 0
OpDecorate %%BAB Block
OpDecorate %%BCR Block
OpDecorate %%a DescriptorSet 0
OpDecorate %%a Binding 0
OpDecorate %%b DescriptorSet 0
OpDecorate %%b Binding 1
OpDecorate %%c DescriptorSet 0
OpDecorate %%c Binding 2
OpDecorate %%r DescriptorSet 0
OpDecorate %%r Binding 3
%%void = OpTypeVoid
%%fn = OpTypeFunction %%void
%%bool = OpTypeBool
%%u32 = OpTypeInt 32 0
%%i32 = OpTypeInt 32 1
%%f32 = OpTypeFloat 32
%[5]s%%c0 = OpConstant %%u32 0
%%c3 = OpConstant %%u32 3
%%c4 = OpConstant %%u32 4
%%c16 = OpConstant %%u32 16
%%false = OpConstantFalse %%bool
%%true = OpConstantTrue %%bool
%%rab = OpTypeRuntimeArray %%%[2]s
%%rcr = OpTypeRuntimeArray %%%[3]s
%%BAB = OpTypeStruct %%rab
%%BCR = OpTypeStruct %%rcr
%%pBAB = OpTypePointer StorageBuffer %%BAB
%%pBCR = OpTypePointer StorageBuffer %%BCR
%%pab = OpTypePointer StorageBuffer %%%[2]s
%%pcr = OpTypePointer StorageBuffer %%%[3]s
%%a = OpVariable %%pBAB StorageBuffer
%%b = OpVariable %%pBAB StorageBuffer
%%c = OpVariable %%pBCR StorageBuffer
%%r = OpVariable %%pBCR StorageBuffer
%%MAB = OpTypeCooperativeMatrixNV %%%[2]s %%c3 %%c4 %%c4
%%MCR = OpTypeCooperativeMatrixNV %%%[3]s %%c3 %%c4 %%c4
%%main = OpFunction %%void None %%fn
%%entry = OpLabel
%%pa = OpAccessChain %%pab %%a %%c0 %%c0
%%pb = OpAccessChain %%pab %%b %%c0 %%c0
%%pc = OpAccessChain %%pcr %%c %%c0 %%c0
%%pr = OpAccessChain %%pcr %%r %%c0 %%c0
%%am = OpCooperativeMatrixLoadNV %%MAB %%pa %%c4 %%false
%%bm = OpCooperativeMatrixLoadNV %%MAB %%pb %%c4 %%true
%%cm = OpCooperativeMatrixLoadNV %%MCR %%pc %%c4 %%false
%%rm = OpCooperativeMatrixMulAddNV %%MCR %%am %%bm %%cm
OpCooperativeMatrixStoreNV %%pr %%rm %%c4 %%false None
%%len = OpCooperativeMatrixLengthNV %%u32 %%MCR
%%pl = OpAccessChain %%pcr %%r %%c0 %%c16
%%lenv = OpBitcast %%%[3]s %%len
OpStore %%pl %%lenv
OpReturn
OpFunctionEnd
`, caps, ab, cr, map[string]int{"i8": 1, "u8": 1}[ab]+4*map[string]int{"f32": 1, "i32": 1}[ab], int8)
	if ab == cr { // one type: SPIR-V allows no duplicate
		src = strings.Replace(src, "%MCR = OpTypeCooperativeMatrixNV %"+cr+" %c3 %c4 %c4\n", "", 1)
		src = strings.ReplaceAll(src, "%MCR", "%MAB")
		src = strings.Replace(src, "%pcr = OpTypePointer StorageBuffer %"+cr+"\n", "", 1)
		src = strings.ReplaceAll(src, "%pcr", "%pab")
		src = strings.Replace(src, "%rcr = OpTypeRuntimeArray %"+cr+"\n", "", 1)
		src = strings.ReplaceAll(src, "%rcr", "%rab")
		src = strings.Replace(src, "OpDecorate %rab ArrayStride 4\n", "", 1)
	}
	return src
}

func TestCoopMatNV(t *testing.T) {
	for _, c := range []struct{ ab, cr string }{{"f32", "f32"}, {"i8", "i32"}, {"u8", "u32"}} {
		t.Run(c.ab+"_"+c.cr, func(t *testing.T) {
			m := assemble(t, nvGemmSrc(c.ab, c.cr))
			elem := func(i int) int64 { return int64((i*7)%11) - 5 } // -5..5
			if c.ab == "u8" {
				elem = func(i int) int64 { return int64(250 - (i*7)%11) } // above 127: unsigned matters
			}
			ab := func(k int) []byte { // A (k = 0) row-major, B (k = 1) column-major: 16 elements
				var out []byte
				for i := range 16 {
					v := elem(16*k + i)
					switch c.ab {
					case "f32":
						out = binary.LittleEndian.AppendUint32(out, math.Float32bits(float32(v)))
					default:
						out = append(out, byte(v))
					}
				}
				return out
			}
			cr := make([]byte, 4*17)
			for i := range 16 {
				if c.cr == "f32" {
					binary.LittleEndian.PutUint32(cr[4*i:], math.Float32bits(float32(i)))
				} else {
					binary.LittleEndian.PutUint32(cr[4*i:], uint32(i))
				}
			}
			r := make([]byte, 4*17)
			a, b := ab(0), ab(1)
			bufs := map[BindingKey][]byte{{0, 0}: a, {0, 1}: b, {0, 2}: cr, {0, 3}: r}
			for _, opts := range []Options{{SubgroupSize: 4}, {SubgroupSize: 4, CoopMatLayout: CoopMatShuffle, Seed: 5}} {
				clear(r)
				if err := run(t, m, opts, [3]uint32{1, 1, 1}, bufs, nil); err != nil {
					t.Fatal(err)
				}
				for i := range 4 {
					for j := range 4 {
						want := int64(4*i + j) // C
						for k := range 4 {
							want += elem(4*i+k) * elem(16+4*j+k) // A row-major; B(k, j) column-major at 4j+k
						}
						got := int64(int32(binary.LittleEndian.Uint32(r[4*(4*i+j):])))
						if c.cr == "f32" {
							got = int64(math.Float32frombits(binary.LittleEndian.Uint32(r[4*(4*i+j):])))
						} else if c.cr == "u32" {
							got, want = int64(binary.LittleEndian.Uint32(r[4*(4*i+j):])), int64(uint32(want))
						}
						if got != want {
							t.Errorf("%+v: R[%d][%d] = %d, want %d", opts, i, j, got, want)
						}
					}
				}
				if n := binary.LittleEndian.Uint32(r[64:]); n != 4 {
					t.Errorf("OpCooperativeMatrixLengthNV = %d, want 16 elements / 4 invocations = 4", n)
				}
			}
		})
	}
}

// TestCoopMatIndexPastLength: a constant index past a matrix's components
// per invocation compiles (the Length is the implementation's, so such an
// index may sit on a path never taken) and faults if it runs.
func TestCoopMatIndexPastLength(t *testing.T) {
	src := strings.Replace(nvGemmSrc("f32", "f32"), "%pl = OpAccessChain", "%bad = OpCompositeExtract %f32 %rm 9\n%pl = OpAccessChain", 1)
	m := assemble(t, src)
	bufs := map[BindingKey][]byte{{0, 0}: make([]byte, 64), {0, 1}: make([]byte, 64), {0, 2}: make([]byte, 68), {0, 3}: make([]byte, 68)}
	err := run(t, m, Options{SubgroupSize: 4}, [3]uint32{1, 1, 1}, bufs, nil)
	if err == nil || !strings.Contains(err.Error(), "index 9 is past the cooperative matrix's 4 components per invocation") {
		t.Fatalf("extract of component 9 of 4: %v", err)
	}
}

// TestConstantIndexPastArray: a constant index past a shader array's end
// is undefined behaviour, as a dynamic one is; without Strict the executor
// computes the address as a GPU does (here it lands on the next member),
// and an access past the buffer still faults. Strict refuses it when
// compiling.
func TestConstantIndexPastArray(t *testing.T) {
	src := func(index int) string {
		return fmt.Sprintf(`OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %%main "main"
OpExecutionMode %%main LocalSize 1 1 1
OpDecorate %%a1 ArrayStride 4
OpDecorate %%a3 ArrayStride 4
OpMemberDecorate %%B 0 Offset 0
OpMemberDecorate %%B 1 Offset 4
OpMemberDecorate %%B 2 Offset 16
OpDecorate %%B Block
OpDecorate %%buf DescriptorSet 0
OpDecorate %%buf Binding 0
%%void = OpTypeVoid
%%fn = OpTypeFunction %%void
%%u32 = OpTypeInt 32 0
%%c0 = OpConstant %%u32 0
%%c1 = OpConstant %%u32 1
%%c2 = OpConstant %%u32 2
%%ci = OpConstant %%u32 %d
%%c3 = OpConstant %%u32 3
%%a1 = OpTypeArray %%u32 %%c1
%%a3 = OpTypeArray %%u32 %%c3
%%B = OpTypeStruct %%a1 %%a3 %%u32
%%pB = OpTypePointer StorageBuffer %%B
%%pu = OpTypePointer StorageBuffer %%u32
%%buf = OpVariable %%pB StorageBuffer
%%main = OpFunction %%void None %%fn
%%e = OpLabel
%%p = OpAccessChain %%pu %%buf %%c0 %%ci
%%v = OpLoad %%u32 %%p
%%q = OpAccessChain %%pu %%buf %%c2
OpStore %%q %%v
OpReturn
OpFunctionEnd
`, index)
	}
	buf := u32s(10, 11, 12, 13, 0)
	if err := run(t, assemble(t, src(2)), Options{}, [3]uint32{1, 1, 1}, map[BindingKey][]byte{{0, 0}: buf}, nil); err != nil {
		t.Fatal(err)
	}
	if got := binary.LittleEndian.Uint32(buf[16:]); got != 12 {
		t.Errorf("a1[2] read %d, want 12 (the word 8 bytes on, member 1's element 1)", got)
	}
	err := run(t, assemble(t, src(9)), Options{}, [3]uint32{1, 1, 1}, map[BindingKey][]byte{{0, 0}: u32s(10, 11, 12, 13, 0)}, nil)
	if err == nil || !strings.Contains(err.Error(), "out-of-bounds") {
		t.Errorf("a1[9], past the buffer: %v, want an out-of-bounds fault", err)
	}
	if _, err := Compile(assemble(t, src(2)), "", Options{Strict: true}); err == nil || !strings.Contains(err.Error(), "constant index 2 out of range 0..0") {
		t.Errorf("Strict: %v, want the constant index refused", err)
	}
}
