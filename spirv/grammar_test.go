package spirv

import "testing"

func TestLookupEnumerantKeyedByKind(t *testing.T) {
	tests := []struct {
		kind OperandKind
		name string
		want uint32
	}{
		{OperandKindCapability, "Float8UnsignedE8M0EXT", 4230},
		{OperandKindFPEncoding, "Float8UnsignedE8M0EXT", 4226},
		{OperandKindCapability, "MXInt8EXT", 4231},
		{OperandKindFPEncoding, "MXInt8EXT", 4227},
		{OperandKindCapability, "SubgroupBitcastShuffleINTEL", 6207},
		{OperandKindStorageClass, "RayPayloadNV", 5338}, // alias
		{OperandKindStorageClass, "RayPayloadKHR", 5338},
		{OperandKindDecoration, "SaturatedToLargestFloat8NormalConversionEXT", 4216},
		{OperandKindImageOperands, "Lod", 2},
	}
	for _, tc := range tests {
		e, ok := tc.kind.LookupEnumerant(tc.name)
		if !ok || e.Value != tc.want {
			t.Errorf("%v.LookupEnumerant(%q) = %v, %v; want %d", tc.kind, tc.name, e, ok, tc.want)
		}
	}
	if _, ok := OperandKindFPEncoding.LookupEnumerant("Shader"); ok {
		t.Error("Shader found as an FPEncoding")
	}
	if e, _ := OperandKindStorageClass.Enumerant(5338); e.Name != "RayPayloadKHR" {
		t.Errorf("canonical name of StorageClass 5338 = %q", e.Name)
	}
}

func TestInstructionTable(t *testing.T) {
	info := OpSubgroupBitcastShuffleINTEL.Info()
	if info == nil || info.Opcode != 6208 || !info.FromOverlay || info.Class != "Group" || len(info.Operands) != 3 ||
		len(info.Capabilities) != 1 || info.Capabilities[0] != CapabilitySubgroupBitcastShuffleINTEL || info.Version != VersionNone {
		t.Errorf("OpSubgroupBitcastShuffleINTEL = %+v", info)
	}
	e, _ := OperandKindCapability.Enumerant(6207)
	if !e.FromOverlay || len(e.Extensions) != 1 || e.Extensions[0] != "SPV_INTEL_subgroup_bitcast_shuffle" {
		t.Errorf("capability 6207 = %+v", e)
	}
	ext := OpBitcastExtractEXT.Info()
	if ext.Opcode != 4195 || ext.Class != "Conversion" || ext.FromOverlay || ext.Capabilities[0] != CapabilityBitcastExtractEXT {
		t.Errorf("OpBitcastExtractEXT = %+v", ext)
	}
	tf := OpTypeFloat.Info()
	if len(tf.Operands) != 3 || tf.Operands[2].Kind != OperandKindFPEncoding || tf.Operands[2].Quantifier != Optional {
		t.Errorf("OpTypeFloat operands %+v", tf.Operands)
	}
	if in, ok := LookupOpcode("OpSDotKHR"); !ok || in.Name != "OpSDot" {
		t.Errorf("alias lookup OpSDotKHR = %v", in)
	}
	if Opcode(9999).Info() != nil || Opcode(9999).String() != "Op(9999)" {
		t.Error("unknown opcode has info")
	}
	if v := OpLessOrGreater.Info().LastVersion; v != MakeVersion(1, 5) {
		t.Errorf("OpLessOrGreater last version %v", v)
	}
	if OpGroupNonUniformElect.Info().Version != MakeVersion(1, 3) {
		t.Error("OpGroupNonUniformElect version")
	}
	// Every opcode indexes back to itself.
	for _, in := range Instructions() {
		if in.Opcode.Info().Name != in.Name {
			t.Errorf("%s does not index back", in.Name)
		}
	}
}

func TestExtInstSets(t *testing.T) {
	glsl := LookupExtInstSet("GLSL.std.450")
	if glsl == nil || len(glsl.Instructions) != 81 {
		t.Fatalf("GLSL.std.450 = %v", glsl)
	}
	if in, ok := glsl.LookupInstruction("FMix"); !ok || in.Opcode != 46 || len(in.Operands) != 3 {
		t.Errorf("FMix = %+v", in)
	}
	if s := LookupExtInstSet("NonSemantic.ClspvReflection.6"); s == nil || s.Name != "NonSemantic.ClspvReflection." {
		t.Errorf("versioned clspv set = %v", s)
	}
	if LookupExtInstSet("NonSemantic.Unknown") != nil {
		t.Error("unknown set found")
	}
	// Set-specific operand kinds are distinct from core kinds.
	dbg := LookupExtInstSet("OpenCL.DebugInfo.100")
	in, _ := dbg.LookupInstruction("DebugTypeBasic")
	k := in.Operands[len(in.Operands)-1].Kind
	if k.Info().Set != "OpenCL.DebugInfo.100" || k.Info().Name != "DebugBaseTypeAttributeEncoding" {
		t.Errorf("DebugTypeBasic encoding kind = %+v", k.Info())
	}
	if len(ExtInstSets()) != 18 {
		t.Errorf("%d ext inst sets", len(ExtInstSets()))
	}
}

// TestDeclaresType checks DeclaresType against the opcodes SPIRV-Tools'
// spvOpcodeGeneratesType lists (source/opcode.cpp, 2026-08): exactly
// those, by any of their names, declare a type.
func TestDeclaresType(t *testing.T) {
	want := map[Opcode]bool{}
	for _, name := range []string{
		"OpTypeVoid", "OpTypeBool", "OpTypeInt", "OpTypeFloat", "OpTypeVector", "OpTypeMatrix",
		"OpTypeImage", "OpTypeSampler", "OpTypeSampledImage", "OpTypeArray", "OpTypeRuntimeArray",
		"OpTypeStruct", "OpTypeOpaque", "OpTypePointer", "OpTypeFunction", "OpTypeEvent",
		"OpTypeDeviceEvent", "OpTypeReserveId", "OpTypeQueue", "OpTypePipe", "OpTypePipeStorage",
		"OpTypeNamedBarrier", "OpTypeAccelerationStructureNV", "OpTypeCooperativeMatrixNV",
		"OpTypeCooperativeMatrixKHR", "OpTypeVectorIdEXT", "OpTypeRayQueryKHR", "OpTypeHitObjectNV",
		"OpTypeHitObjectEXT", "OpTypeUntypedPointerKHR", "OpTypeNodePayloadArrayAMDX",
		"OpTypeTensorLayoutNV", "OpTypeTensorViewNV", "OpTypeTensorARM", "OpTypeTaskSequenceINTEL",
		"OpTypeGraphARM", "OpTypeBufferEXT",
	} {
		info, ok := LookupOpcode(name)
		if !ok {
			t.Fatalf("no opcode %s", name)
		}
		want[info.Opcode] = true
	}
	n := 0
	for _, info := range Instructions() {
		if DeclaresType(info.Opcode) != want[info.Opcode] || info.DeclaresType != want[info.Opcode] {
			t.Errorf("DeclaresType(%s) = %v, want %v", info.Name, DeclaresType(info.Opcode), want[info.Opcode])
		}
		if info.DeclaresType {
			n++
		}
	}
	if n != len(want) {
		t.Errorf("%d instructions declare a type, want %d", n, len(want))
	}
	if DeclaresType(OpTypeForwardPointer) || DeclaresType(0xFFFF) {
		t.Errorf("DeclaresType is true for OpTypeForwardPointer or an unknown opcode")
	}
}
