package dis

import (
	"strings"
	"testing"

	"spvx/spirv"
)

// TestFriendlyNames checks naming rules the corpus does not exercise, on
// small modules built word by word.
func TestFriendlyNames(t *testing.T) {
	b := newBuilder()
	b.op(spirv.OpCapability, uint32(spirv.CapabilityShader))
	b.op(spirv.OpMemoryModel, uint32(spirv.AddressingModelLogical), uint32(spirv.MemoryModelGLSL450))
	ids := make([]uint32, 20)
	for i := range ids {
		ids[i] = b.id()
	}
	// Names first, as in a real module; one OpName comes too late and
	// one built-in is decorated on a named variable.
	b.op(spirv.OpName, ids[10], "a")
	b.op(spirv.OpName, ids[11], "a")
	b.op(spirv.OpName, ids[12], "a_0")
	b.op(spirv.OpName, ids[13], "a")
	b.op(spirv.OpName, ids[14], "x.y[2]")
	b.op(spirv.OpName, ids[15], "16")
	b.op(spirv.OpDecorate, ids[15], uint32(spirv.DecorationBuiltIn), uint32(spirv.BuiltInPosition))
	b.op(spirv.OpDecorate, ids[16], uint32(spirv.DecorationBuiltIn), uint32(spirv.BuiltInBaseVertex))
	b.op(spirv.OpDecorate, ids[17], uint32(spirv.DecorationBuiltIn), uint32(spirv.BuiltInVertexId))
	b.op(spirv.OpTypeInt, ids[0], 7, 1)
	b.op(spirv.OpTypeInt, ids[1], 7, 0)
	b.op(spirv.OpTypeFloat, ids[2], 24)
	b.op(spirv.OpTypeInt, ids[3], 32, 0)
	b.op(spirv.OpTypeVector, ids[4], ids[2], 3)
	b.op(spirv.OpTypeMatrix, ids[5], ids[4], 2)
	b.op(spirv.OpTypeRuntimeArray, ids[6], ids[5])
	b.op(spirv.OpTypePointer, ids[7], uint32(spirv.StorageClassPhysicalStorageBuffer), ids[6])
	b.op(spirv.OpTypeStruct, ids[8], ids[3])
	b.op(spirv.OpTypeUntypedPointerKHR, ids[9], uint32(spirv.StorageClassWorkgroup))
	for _, id := range ids[10:18] {
		b.op(spirv.OpVariable, ids[7], id, uint32(spirv.StorageClassPhysicalStorageBuffer))
	}
	b.op(spirv.OpName, ids[18], "late")
	b.op(spirv.OpVariable, ids[7], ids[18], uint32(spirv.StorageClassPhysicalStorageBuffer))
	b.op(spirv.OpName, ids[18], "later")
	text, err := DisassembleBinary(b.bytes(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"%i7 = OpTypeInt 7 1",
		"%u7 = OpTypeInt 7 0",
		"%fp24 = OpTypeFloat 24",
		"%v3fp24 = OpTypeVector %fp24 3",
		"%mat2v3fp24 = OpTypeMatrix %v3fp24 2",
		"%_runtimearr_mat2v3fp24 = OpTypeRuntimeArray %mat2v3fp24",
		"%_ptr_PhysicalStorageBuffer__runtimearr_mat2v3fp24 = OpTypePointer PhysicalStorageBuffer %_runtimearr_mat2v3fp24",
		"%_struct_9 = OpTypeStruct %uint",
		"%_ptr_Workgroup = OpTypeUntypedPointerKHR Workgroup",
		"          %a = OpVariable",
		"        %a_0 = OpVariable", // the second "a"
		"      %a_0_0 = OpVariable", // "a_0" was taken by then
		"        %a_1 = OpVariable", // resumes after a_0
		"     %x_y_2_ = OpVariable", // sanitized
		"         %16 = OpVariable", // OpName "16" wins over BuiltIn
		"         %17 = OpVariable", // BaseVertex names nothing
		"%gl_VertexID = OpVariable", // VertexId -> gl_VertexID
		"       %late = OpVariable", // the first OpName wins
		"OpName %late \"later\"",
	} {
		if !strings.Contains(string(text), want) {
			t.Errorf("missing %q in\n%s", want, text)
		}
	}
}

func TestHeaderGenerator(t *testing.T) {
	for _, c := range []struct {
		gen  uint32
		want string
	}{
		{0x0008000B, "; Generator: Khronos Glslang Reference Front End; 11\n"},
		{0x00070000, "; Generator: Khronos SPIR-V Tools Assembler; 0\n"},
		{0x00000005, "; Generator: Khronos; 5\n"},
		{0x00060001, "; Generator: Khronos LLVM/SPIR-V Translator; 1\n"},
		{0x001C0000, "; Generator: gfx-rs community Naga; 0\n"},
		{0x00310002, "; Generator: Icyllis Milica Arc3D Shader Compiler; 2\n"},
		{0x0032FFFF, "; Generator: Unknown(50); 65535\n"},
		{0xFFFF0003, "; Generator: Unknown(65535); 3\n"},
	} {
		b := newBuilder()
		b.words[2] = c.gen
		text, err := DisassembleBinary(b.bytes(), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(text), c.want) {
			t.Errorf("generator 0x%08x: got\n%s\nwant %q", c.gen, text, c.want)
		}
	}
}
