package val

import "testing"

// layersModule declares, under numeric ids, the types and constants the
// type-query and constant-evaluation layers tell apart.
const layersModule = `
OpCapability Shader
OpCapability Int64
OpMemoryModel Logical GLSL450
%1 = OpTypeFloat 32
%2 = OpTypeInt 32 1
%3 = OpTypeInt 32 0
%4 = OpTypeInt 64 1
%5 = OpTypeInt 16 1
%6 = OpTypeVector %1 4
%7 = OpConstant %3 4
%8 = OpTypeVectorIdEXT %1 %7
%9 = OpConstant %2 -1
%10 = OpConstantNull %3
%11 = OpSpecConstant %3 7
%12 = OpConstant %4 0x100000002
%13 = OpConstant %5 -2
%14 = OpConstant %1 1
`

func layersState(t *testing.T) *state {
	mod := decodeAsm(t, layersModule)
	return &state{shared: &shared{m: mod, x: mod.Index()}}
}

// TestTypeLayerVectors: ValidationState_t's queries count
// OpTypeVectorIdEXT as a vector of a constant size; the literal-vector
// predicates, which some rules were written against, do not.
func TestTypeLayerVectors(t *testing.T) {
	s := layersState(t)
	const v4, vid, f = 6, 8, 1
	for _, c := range []struct {
		name      string
		got, want any
	}{
		{"isFloatVector(v4)", s.isFloatVector(v4), true},
		{"isFloatVector(vid)", s.isFloatVector(vid), true},
		{"literalVectorOf(v4)", s.literalVectorOf(v4, s.isFloatScalar, 4), true},
		{"literalVectorOf(v4, 3)", s.literalVectorOf(v4, s.isFloatScalar, 3), false},
		{"literalVectorOf(vid)", s.literalVectorOf(vid, s.isFloatScalar, 0), false},
		{"dimension(vid)", s.dimension(vid), uint32(4)},
		{"dimension(float)", s.dimension(f), uint32(1)},
		{"componentType(vid)", s.componentType(vid), uint32(f)},
		{"plainComponentType(vid)", s.plainComponentType(vid), uint32(0)},
		{"plainComponentType(v4)", s.plainComponentType(v4), uint32(f)},
		{"bitWidth(value %14)", s.bitWidth(14), uint32(32)},
		{"isNumericScalarOrLiteralVector(vid)", s.isNumericScalarOrLiteralVector(vid), false},
	} {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
}

// TestConstantReadings: each named reading treats spec constants,
// OpConstantNull and wide or narrow literals as its SPIRV-Tools
// counterpart does.
func TestConstantReadings(t *testing.T) {
	s := layersState(t)
	const uint4, intM1, null, spec, big, shortM2, float1 = 7, 9, 10, 11, 12, 13, 14
	type u64 struct {
		v  uint64
		ok bool
	}
	u := func(v uint64, ok bool) u64 { return u64{v, ok} }
	for _, c := range []struct {
		name      string
		got, want u64
	}{
		{"constUint(4)", u(s.constUint(uint4)), u64{4, true}},
		{"constUint(null)", u(s.constUint(null)), u64{0, true}},
		{"constUint(spec)", u(s.constUint(spec)), u64{0, false}},
		{"constUint(64-bit)", u(s.constUint(big)), u64{0x100000002, true}},
		{"constUint(float)", u(s.constUint(float1)), u64{0, false}},
	} {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if v, ok := s.constInt64(intM1); !ok || v != -1 {
		t.Errorf("constInt64(-1) = %d, %v", v, ok)
	}
	// A narrow signed literal fills its word sign-extended (SPIR-V's
	// rule), so the one-word reading gives -2 back.
	if v, ok := s.constInt64(shortM2); !ok || v != -2 {
		t.Errorf("constInt64(short -2) = %d, %v", v, ok)
	}
	if v, ok := s.constUint(intM1); !ok || v != 0xffffffff {
		t.Errorf("constUint(int -1) = %#x, %v; want the word zero-extended", v, ok)
	}
	if v, ok := s.constInt32(null); !ok || v != 0 {
		t.Errorf("constInt32(null) = %d, %v", v, ok)
	}
	if _, ok := s.constInt32(big); ok {
		t.Error("constInt32 read a 64-bit constant")
	}
	if _, ok := s.constLiteralU32(null); ok {
		t.Error("constLiteralU32 read OpConstantNull")
	}
	if v, ok := s.constLiteralU32(uint4); !ok || v != 4 {
		t.Errorf("constLiteralU32(4) = %d, %v", v, ok)
	}
	if isInt, isConst, _ := s.evalInt32IfConst(spec); !isInt || isConst {
		t.Errorf("evalInt32IfConst(spec) = %v, %v; want int, not constant", isInt, isConst)
	}
	if c, ok := s.intConstant(spec); !ok || !c.spec || c.val != 7 {
		t.Errorf("intConstant(spec) = %+v, %v; want the default 7 flagged spec", c, ok)
	}
}
