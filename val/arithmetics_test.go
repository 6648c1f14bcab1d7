package val

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"spvx/internal/oracle"
	"spvx/spirv"
)

// typeRuleDecls declares the types and constants the type-rule tests of
// arithmetics, logicals, bitwise, conversion and composites use.
const typeRuleDecls = `
%bool = OpTypeBool
%i32 = OpTypeInt 32 1
%u32 = OpTypeInt 32 0
%f32 = OpTypeFloat 32
%v2b = OpTypeVector %bool 2
%v2i = OpTypeVector %i32 2
%v2u = OpTypeVector %u32 2
%v3u = OpTypeVector %u32 3
%v2f = OpTypeVector %f32 2
%v3f = OpTypeVector %f32 3
%v4f = OpTypeVector %f32 4
%m22 = OpTypeMatrix %v2f 2
%m32 = OpTypeMatrix %v2f 3
%m23 = OpTypeMatrix %v3f 2
%sUU = OpTypeStruct %u32 %u32
%sII = OpTypeStruct %i32 %i32
%sUI = OpTypeStruct %u32 %i32
%sU = OpTypeStruct %u32
%true = OpConstantTrue %bool
%i1 = OpConstant %i32 1
%u1 = OpConstant %u32 1
%u2 = OpConstant %u32 2
%f1 = OpConstant %f32 1
%arr2 = OpTypeArray %f32 %u2
%bv = OpConstantComposite %v2b %true %true
%iv = OpConstantComposite %v2i %i1 %i1
%uv = OpConstantComposite %v2u %u1 %u1
%uv3 = OpConstantComposite %v3u %u1 %u1 %u1
%fv = OpConstantComposite %v2f %f1 %f1
%fv3 = OpConstantComposite %v3f %f1 %f1 %f1
%fv4 = OpConstantComposite %v4f %f1 %f1 %f1 %f1
%m = OpConstantComposite %m22 %fv %fv
%m3 = OpConstantComposite %m32 %fv %fv %fv
%mt = OpConstantComposite %m23 %fv3 %fv3
%sv = OpConstantComposite %sUU %u1 %u1
`

// tr is a shader module with typeRuleDecls, extra declarations and body.
func tr(decls, body string) module {
	return module{caps: "Shader", decls: typeRuleDecls + decls, body: body}
}

// tr64 is tr with a 64-bit signed integer %i64 and its constant %l1.
func tr64(body string) module {
	m := tr("%i64 = OpTypeInt 64 1\n%l1 = OpConstant %i64 1", body)
	m.caps += " Int64"
	return m
}

// ruleCase is one type-rule test: a module, the first message we must
// give ("" for valid), and whether Debian's spirv-val 2023.1 knows the
// rule with this wording (oracle: its verdict and first line must equal
// ours; otherwise the case is an older-oracle gap and only ours is
// checked).
type ruleCase struct {
	name   string
	mod    module
	src    string                  // the module text, when not mod's
	patch  func([]uint32) []uint32 // applied to the assembled words
	opts   Options
	want   string
	oracle bool
}

// firstLine returns "error: line N: msg" (the first line of the message)
// for the first error, or "" when the module is valid.
func firstLineOf(t *testing.T, words []uint32, opts Options) string {
	t.Helper()
	m, err := spirv.DecodeWords(words)
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	err = Validate(m, opts)
	if err == nil {
		return ""
	}
	e := err.(ErrorList)[0]
	l, _, _ := strings.Cut(e.Error(), "\n")
	return "error: line " + strconv.Itoa(e.Line()) + ": " + l
}

func wordsBytes(w []uint32) []byte {
	b := make([]byte, 4*len(w))
	for i, v := range w {
		b[4*i], b[4*i+1], b[4*i+2], b[4*i+3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
	}
	return b
}

func runRuleCases(t *testing.T, cases []ruleCase) {
	t.Helper()
	sv := ""
	if p, err := oracle.Path("spirv-val"); err == nil && !testing.Short() {
		sv = p
	}
	dir := t.TempDir()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := c.mod.text()
			if c.src != "" {
				src = c.src
			}
			words := assemble(t, src)
			if c.patch != nil {
				words = c.patch(words)
			}
			got := firstError(t, words, c.opts)
			if !matches(got, c.want) {
				t.Errorf("got  %q\nwant %q\nmodule:\n%s", got, c.want, src)
			}
			if !c.oracle || sv == "" || c.opts.Env != (Options{}).Env {
				return
			}
			bin := filepath.Join(dir, strings.ReplaceAll(c.name, "/", "_")+".spv")
			if err := os.WriteFile(bin, wordsBytes(words), 0o666); err != nil {
				t.Fatal(err)
			}
			_, stderr, ok := oracle.Exec(t, sv, nil, bin)
			theirs, _, _ := strings.Cut(string(stderr), "\n")
			ours := firstLineOf(t, words, c.opts)
			if ok != (ours == "") || !ok && theirs != ours {
				t.Errorf("spirv-val differs:\nours   %q\ntheirs %q (accepted %v)", ours, theirs, ok)
			}
		})
	}
}

func TestArithmeticsRules(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "valid", oracle: true, mod: tr("", `
%a = OpFAdd %f32 %f1 %f1
%b = OpFNegate %v2f %fv
%c = OpIAdd %i32 %i1 %i1
%d = OpIAdd %u32 %i1 %u1
%e = OpUDiv %v2u %uv %uv
%f = OpSNegate %v2i %uv
%g = OpDot %f32 %fv %fv
%h = OpVectorTimesScalar %v2f %fv %f1
%k = OpMatrixTimesScalar %m22 %m %f1
%l = OpVectorTimesMatrix %v2f %fv3 %mt
%n = OpMatrixTimesVector %v2f %m3 %fv3
%o = OpMatrixTimesMatrix %m22 %m3 %mt
%p = OpOuterProduct %m32 %fv %fv3
%q = OpIAddCarry %sUU %u1 %u1
%r = OpSMulExtended %sII %i1 %i1
%s = OpUMulExtended %sUU %u1 %u1
`)},
		{name: "float result", oracle: true, mod: tr("", "%a = OpFAdd %u32 %f1 %f1"),
			want: "Expected floating scalar or vector type as Result Type: FAdd"},
		{name: "float operand", oracle: true, mod: tr("", "%a = OpFMul %f32 %f1 %u1"),
			want: "Expected arithmetic operands to be of Result Type: FMul operand index 3"},
		{name: "float negate operand", oracle: true, mod: tr("", "%a = OpFNegate %v2f %f1"),
			want: "Expected arithmetic operands to be of Result Type: FNegate operand index 2"},
		{name: "udiv result", oracle: true, mod: tr("", "%a = OpUDiv %i32 %u1 %u1"),
			want: "Expected unsigned int scalar or vector type as Result Type: UDiv"},
		{name: "umod operand", oracle: true, mod: tr("", "%a = OpUMod %u32 %u1 %i1"),
			want: "Expected arithmetic operands to be of Result Type: UMod operand index 3"},
		{name: "iadd result", oracle: true, mod: tr("", "%a = OpIAdd %f32 %i1 %i1"),
			want: "Expected int scalar or vector type as Result Type: IAdd"},
		{name: "iadd operand", oracle: true, mod: tr("", "%a = OpIAdd %i32 %f1 %i1"),
			want: "Expected int scalar or vector type as operand: IAdd operand index 2"},
		{name: "isub dimension", oracle: true, mod: tr("", "%a = OpISub %i32 %i1 %iv"),
			want: "Expected arithmetic operands to have the same dimension as Result Type: ISub operand index 3"},
		{name: "imul width", oracle: true, mod: tr64("%a = OpIMul %i32 %i1 %l1"),
			want: "Expected arithmetic operands to have the same bit width as Result Type: IMul operand index 3"},
		{name: "spec constant op", // 2023.1 does not check OpSpecConstantOp operations here
			mod:  tr("%sc = OpSpecConstantOp %i32 IAdd %i1 %f1", ""),
			want: "Expected int scalar or vector type as operand: SpecConstantOp operand index 4"},
		{name: "spec constant op float", mod: module{caps: "Kernel Addresses", kernel: true,
			decls: "%f32 = OpTypeFloat 32\n%u32 = OpTypeInt 32 0\n%f1 = OpConstant %f32 1\n%u1 = OpConstant %u32 1\n%sc = OpSpecConstantOp %f32 FAdd %f1 %u1"},
			want: "Expected arithmetic operands to be of Result Type: SpecConstantOp operand index 4"},
		{name: "dot result", oracle: true, mod: tr("", "%a = OpDot %v2f %fv %fv"),
			want: "Expected float scalar type as Result Type: Dot"},
		{name: "dot operand", oracle: true, mod: tr("", "%a = OpDot %f32 %f1 %fv"),
			want: "Expected float vector as operand: Dot operand index 2"},
		{name: "dot component", oracle: true, mod: tr("", "%a = OpDot %f32 %fv %uv"),
			want: "Expected float vector as operand: Dot operand index 3"},
		{name: "dot size", oracle: true, mod: tr("", "%a = OpDot %f32 %fv %fv3"),
			want: "Expected operands to have the same number of components: Dot"},
		{name: "vts result", oracle: true, mod: tr("", "%a = OpVectorTimesScalar %f32 %fv %f1"),
			want: "Expected float vector type as Result Type: VectorTimesScalar"},
		{name: "vts vector", oracle: true, mod: tr("", "%a = OpVectorTimesScalar %v3f %fv %f1"),
			want: "Expected vector operand type to be equal to Result Type: VectorTimesScalar"},
		{name: "vts scalar", oracle: true, mod: tr("", "%a = OpVectorTimesScalar %v2f %fv %u1"),
			want: "Expected scalar operand type to be equal to the component type of the vector operand: VectorTimesScalar"},
		{name: "mts result", oracle: true, mod: tr("", "%a = OpMatrixTimesScalar %v2f %m %f1"),
			want: "Expected float matrix type as Result Type: MatrixTimesScalar"},
		{name: "mts matrix", oracle: true, mod: tr("", "%a = OpMatrixTimesScalar %m32 %m %f1"),
			want: "Expected matrix operand type to be equal to Result Type: MatrixTimesScalar"},
		{name: "mts scalar", oracle: true, mod: tr("", "%a = OpMatrixTimesScalar %m22 %m %i1"),
			want: "Expected scalar operand type to be equal to the component type of the matrix operand: MatrixTimesScalar"},
		{name: "vtm result", oracle: true, mod: tr("", "%a = OpVectorTimesMatrix %f32 %fv %m"),
			want: "Expected float vector type as Result Type: VectorTimesMatrix"},
		{name: "vtm left", oracle: true, mod: tr("", "%a = OpVectorTimesMatrix %v2f %uv %m"),
			want: "Expected float vector type as left operand: VectorTimesMatrix"},
		{name: "vtm right", oracle: true, mod: tr("", "%a = OpVectorTimesMatrix %v2f %fv %fv"),
			want: "Expected float matrix type as right operand: VectorTimesMatrix"},
		{name: "vtm columns", oracle: true, mod: tr("", "%a = OpVectorTimesMatrix %v2f %fv %m3"),
			want: "Expected number of columns of the matrix to be equal to Result Type vector size: VectorTimesMatrix"},
		{name: "vtm rows", oracle: true, mod: tr("", "%a = OpVectorTimesMatrix %v2f %fv3 %m"),
			want: "Expected number of rows of the matrix to be equal to the vector operand size: VectorTimesMatrix"},
		{name: "mtv left", oracle: true, mod: tr("", "%a = OpMatrixTimesVector %v2f %fv %fv"),
			want: "Expected float matrix type as left operand: MatrixTimesVector"},
		{name: "mtv column", oracle: true, mod: tr("", "%a = OpMatrixTimesVector %v3f %m %fv"),
			want: "Expected column type of the matrix to be equal to Result Type: MatrixTimesVector"},
		{name: "mtv right", oracle: true, mod: tr("", "%a = OpMatrixTimesVector %v2f %m %f1"),
			want: "Expected float vector type as right operand: MatrixTimesVector"},
		{name: "mtv size", oracle: true, mod: tr("", "%a = OpMatrixTimesVector %v2f %m %fv3"),
			want: "Expected number of columns of the matrix to be equal to the vector size: MatrixTimesVector"},
		{name: "mtm result", oracle: true, mod: tr("", "%a = OpMatrixTimesMatrix %v2f %m %m"),
			want: "Expected float matrix type as Result Type: MatrixTimesMatrix"},
		{name: "mtm left", oracle: true, mod: tr("", "%a = OpMatrixTimesMatrix %m22 %fv %m"),
			want: "Expected float matrix type as left operand: MatrixTimesMatrix"},
		{name: "mtm right", oracle: true, mod: tr("", "%a = OpMatrixTimesMatrix %m22 %m %fv"),
			want: "Expected float matrix type as right operand: MatrixTimesMatrix"},
		{name: "mtm left column", oracle: true, mod: tr("", "%a = OpMatrixTimesMatrix %m22 %mt %m"),
			want: "Expected column types of Result Type and left matrix to be equal: MatrixTimesMatrix"},
		{name: "mtm columns", oracle: true, mod: tr("", "%a = OpMatrixTimesMatrix %m22 %m %m3"),
			want: "Expected number of columns of Result Type and right matrix to be equal: MatrixTimesMatrix"},
		{name: "mtm inner", oracle: true, mod: tr("", "%a = OpMatrixTimesMatrix %m22 %m3 %m"),
			want: "Expected number of columns of left matrix and number of rows of right matrix to be equal: MatrixTimesMatrix"},
		{name: "outer result", oracle: true, mod: tr("", "%a = OpOuterProduct %v2f %fv %fv"),
			want: "Expected float matrix type as Result Type: OuterProduct"},
		{name: "outer left", oracle: true, mod: tr("", "%a = OpOuterProduct %m22 %fv3 %fv"),
			want: "Expected column type of Result Type to be equal to the type of the left operand: OuterProduct"},
		{name: "outer right", oracle: true, mod: tr("", "%a = OpOuterProduct %m22 %fv %uv"),
			want: "Expected float vector type as right operand: OuterProduct"},
		{name: "outer size", oracle: true, mod: tr("", "%a = OpOuterProduct %m22 %fv %fv3"),
			want: "Expected number of columns of the matrix to be equal to the vector size of the right operand: OuterProduct"},
		{name: "carry struct", oracle: true, mod: tr("", "%a = OpIAddCarry %u32 %u1 %u1"),
			want: "Expected a struct as Result Type: IAddCarry"},
		{name: "carry members", oracle: true, mod: tr("", "%a = OpISubBorrow %sU %u1 %u1"),
			want: "Expected Result Type struct to have two members: ISubBorrow"},
		{name: "carry unsigned", oracle: true, mod: tr("", "%a = OpUMulExtended %sII %i1 %i1"),
			want: "Expected Result Type struct member types to be unsigned integer scalar or vector: UMulExtended"},
		{name: "smul int", oracle: true, mod: tr("%sFF = OpTypeStruct %f32 %f32", "%a = OpSMulExtended %sFF %f1 %f1"),
			want: "Expected Result Type struct member types to be integer scalar or vector: SMulExtended"},
		{name: "carry identical", oracle: true, mod: tr("", "%a = OpSMulExtended %sUI %u1 %u1"),
			want: "Expected Result Type struct member types to be identical: SMulExtended"},
		{name: "carry operands", oracle: true, mod: tr("", "%a = OpIAddCarry %sUU %u1 %i1"),
			want: "Expected both operands to be of Result Type member type: IAddCarry"},
	})
}

func TestLogicalsRules(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "valid", oracle: true, mod: tr("", `
%a = OpAny %bool %bv
%b = OpIsNan %v2b %fv
%c = OpFOrdLessThan %bool %f1 %f1
%d = OpLogicalAnd %v2b %bv %bv
%e = OpLogicalNot %bool %true
%f = OpSelect %f32 %true %f1 %f1
%g = OpSelect %v2f %bv %fv %fv
%h = OpIEqual %bool %i1 %u1
%k = OpSLessThan %v2b %iv %uv
`)},
		{name: "any result", oracle: true, mod: tr("", "%a = OpAll %v2b %bv"),
			want: "Expected bool scalar type as Result Type: All"},
		{name: "any operand", oracle: true, mod: tr("", "%a = OpAny %bool %true"),
			want: "Expected operand to be vector bool: Any"},
		{name: "isnan result", oracle: true, mod: tr("", "%a = OpIsInf %u32 %f1"),
			want: "Expected bool scalar or vector type as Result Type: IsInf"},
		{name: "isnan operand", oracle: true, mod: tr("", "%a = OpIsNan %bool %u1"),
			want: "Expected operand to be scalar or vector float: IsNan"},
		{name: "isnan size", oracle: true, mod: tr("", "%a = OpIsNan %bool %fv"),
			want: "Expected vector sizes of Result Type and the operand to be equal: IsNan"},
		{name: "fcmp result", oracle: true, mod: tr("", "%a = OpFOrdEqual %f32 %f1 %f1"),
			want: "Expected bool scalar or vector type as Result Type: FOrdEqual"},
		{name: "fcmp operand", oracle: true, mod: tr("", "%a = OpFUnordEqual %bool %u1 %f1"),
			want: "Expected operands to be scalar or vector float: FUnordEqual"},
		{name: "fcmp size", oracle: true, mod: tr("", "%a = OpFOrdGreaterThan %bool %fv %fv"),
			want: "Expected vector sizes of Result Type and the operands to be equal: FOrdGreaterThan"},
		{name: "fcmp same", oracle: true, mod: tr("", "%a = OpFOrdNotEqual %bool %f1 %u1"),
			want: "Expected left and right operands to have the same type: FOrdNotEqual"},
		{name: "logical", oracle: true, mod: tr("", "%a = OpLogicalOr %bool %true %bv"),
			want: "Expected both operands to be of Result Type: LogicalOr"},
		{name: "logical result", oracle: true, mod: tr("", "%a = OpLogicalEqual %u32 %u1 %u1"),
			want: "Expected bool scalar or vector type as Result Type: LogicalEqual"},
		{name: "not", oracle: true, mod: tr("", "%a = OpLogicalNot %bool %bv"),
			want: "Expected operand to be of Result Type: LogicalNot"},
		{name: "select result", oracle: true, mod: tr("", "%a = OpSelect %sUU %true %sv %sv"),
			want: ""},
		{name: "select condition", oracle: true, mod: tr("", "%a = OpSelect %f32 %u1 %f1 %f1"),
			want: "Expected bool scalar or vector type as condition: Select"},
		{name: "select size", oracle: true, mod: tr("", "%a = OpSelect %f32 %bv %f1 %f1"),
			want: "Expected vector sizes of Result Type and the condition to be equal: Select"},
		{name: "select objects", oracle: true, mod: tr("", "%a = OpSelect %f32 %true %f1 %u1"),
			want: "Expected both objects to be of Result Type: Select"},
		{name: "select pointer", oracle: true, mod: tr("%pf = OpTypePointer Private %f32\n%var = OpVariable %pf Private", "%a = OpSelect %pf %true %var %var"),
			want: "Using pointers with OpSelect requires capability VariablePointers or VariablePointersStorageBuffer"},
		{name: "icmp result", oracle: true, mod: tr("", "%a = OpIEqual %u32 %u1 %u1"),
			want: "Expected bool scalar or vector type as Result Type: IEqual"},
		{name: "icmp left", oracle: true, mod: tr("", "%a = OpULessThan %bool %f1 %u1"),
			want: "Expected operands to be scalar or vector int: ULessThan"},
		{name: "icmp left size", oracle: true, mod: tr("", "%a = OpUGreaterThan %bool %uv %u1"),
			want: "Expected vector sizes of Result Type and the operands to be equal: UGreaterThan"},
		{name: "icmp right", oracle: true, mod: tr("", "%a = OpSGreaterThan %bool %i1 %f1"),
			want: "Expected operands to be scalar or vector int: SGreaterThan"},
		{name: "icmp width", oracle: true, mod: tr64("%a = OpINotEqual %bool %i1 %l1"),
			want: "Expected both operands to have the same component bit width: INotEqual"},
		{name: "spec select", // older-oracle gap, as above
			mod:  tr("%sc = OpSpecConstantOp %u32 Select %true %u1 %i1", ""),
			want: "Expected both objects to be of Result Type: SpecConstantOp"},
	})
}

func TestBitwiseRules(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "valid", oracle: true, mod: tr("", `
%a = OpShiftLeftLogical %u32 %i1 %u1
%b = OpBitwiseAnd %v2u %iv %uv
%c = OpNot %i32 %u1
%d = OpBitFieldInsert %u32 %u1 %u1 %i1 %u1
%e = OpBitFieldSExtract %v2i %iv %u1 %i1
%f = OpBitReverse %u32 %u1
%g = OpBitCount %v2i %uv
`)},
		{name: "shift result", oracle: true, mod: tr("", "%a = OpShiftRightLogical %f32 %u1 %u1"),
			want: "Expected int scalar or vector type as Result Type: ShiftRightLogical"},
		{name: "shift base", oracle: true, mod: tr("", "%a = OpShiftRightArithmetic %u32 %f1 %u1"),
			want: "Expected Base to be int scalar or vector: ShiftRightArithmetic"},
		{name: "shift base size", oracle: true, mod: tr("", "%a = OpShiftLeftLogical %u32 %uv %u1"),
			want: "Expected Base to have the same dimension as Result Type: ShiftLeftLogical"},
		{name: "shift base width", oracle: true, mod: tr64("%a = OpShiftLeftLogical %u32 %l1 %u1"),
			want: "Expected Base to have the same bit width as Result Type: ShiftLeftLogical"},
		{name: "shift shift", oracle: true, mod: tr("", "%a = OpShiftLeftLogical %u32 %u1 %f1"),
			want: "Expected Shift to be int scalar or vector: ShiftLeftLogical"},
		{name: "shift shift size", oracle: true, mod: tr("", "%a = OpShiftLeftLogical %u32 %u1 %uv"),
			want: "Expected Shift to have the same dimension as Result Type: ShiftLeftLogical"},
		{name: "bitwise result", oracle: true, mod: tr("", "%a = OpBitwiseOr %bool %u1 %u1"),
			want: "Expected int scalar or vector type as Result Type: BitwiseOr"},
		{name: "bitwise operand", oracle: true, mod: tr("", "%a = OpBitwiseXor %u32 %u1 %f1"),
			want: "Expected int scalar or vector as operand: BitwiseXor operand index 3"},
		{name: "bitwise size", oracle: true, mod: tr("", "%a = OpNot %u32 %uv"),
			want: "Expected operands to have the same dimension as Result Type: Not operand index 2"},
		{name: "bitwise width", oracle: true, mod: tr64("%a = OpBitwiseAnd %u32 %u1 %l1"),
			want: "Expected operands to have the same bit width as Result Type: BitwiseAnd operand index 3"},
		{name: "insert base", oracle: true, mod: tr("", "%a = OpBitFieldInsert %u32 %f1 %u1 %u1 %u1"),
			want: "Expected int scalar or vector type for Base operand: BitFieldInsert"},
		{name: "insert base type", oracle: true, mod: tr("", "%a = OpBitFieldInsert %u32 %i1 %u1 %u1 %u1"),
			want: "Expected Base Type to be equal to Result Type: BitFieldInsert"},
		{name: "insert insert", oracle: true, mod: tr("", "%a = OpBitFieldInsert %u32 %u1 %i1 %u1 %u1"),
			want: "Expected Insert Type to be equal to Result Type: BitFieldInsert"},
		{name: "insert offset", oracle: true, mod: tr("", "%a = OpBitFieldInsert %u32 %u1 %u1 %uv %u1"),
			want: "Expected Offset Type to be int scalar: BitFieldInsert"},
		{name: "extract count", oracle: true, mod: tr("", "%a = OpBitFieldUExtract %u32 %u1 %u1 %f1"),
			want: "Expected Count Type to be int scalar: BitFieldUExtract"},
		{name: "reverse", oracle: true, mod: tr("", "%a = OpBitReverse %i32 %u1"),
			want: "Expected Base Type to be equal to Result Type: BitReverse"},
		{name: "count result", oracle: true, mod: tr("", "%a = OpBitCount %f32 %u1"),
			want: "Expected int scalar or vector type as Result Type: BitCount"},
		{name: "count size", oracle: true, mod: tr("", "%a = OpBitCount %u32 %uv"),
			want: "Expected Base dimension to be equal to Result Type dimension: BitCount"},
		{name: "vulkan 32-bit base", opts: vulkan, mod: tr64("%a = OpBitCount %i32 %l1"),
			want: "[VUID-RuntimeSpirv-None-10824] Expected 32-bit int type for Base operand: BitCount\nThis is allowed if you enable the maintenance9 feature (or use the --allow-vulkan-32-bit-bitwise command line flag)"},
	})
}

// TestDotProductRules: Debian spirv-val 2023.1 has no dot-product rules
// (validate_dot_product.cpp came later), so no case asks the oracle.
func TestDotProductRules(t *testing.T) {
	dot := func(caps, decls, body string) module {
		return module{caps: "Shader Int8 DotProduct " + caps, decls: typeRuleDecls + `
%u8 = OpTypeInt 8 0
%i8 = OpTypeInt 8 1
%v4u8 = OpTypeVector %u8 4
%v4i8 = OpTypeVector %i8 4
%c8 = OpConstant %u8 1
%s8 = OpConstant %i8 1
%uv8 = OpConstantComposite %v4u8 %c8 %c8 %c8 %c8
%iv8 = OpConstantComposite %v4i8 %s8 %s8 %s8 %s8
` + decls, body: body}
	}
	runRuleCases(t, []ruleCase{
		{name: "valid", mod: dot("DotProductInput4x8Bit DotProductInput4x8BitPacked DotProductInputAll", "", `
%a = OpUDot %u32 %uv8 %uv8
%b = OpSDot %i32 %iv8 %iv8
%c = OpSUDot %i32 %iv8 %uv8
%d = OpSDot %i32 %u1 %u1 PackedVectorFormat4x8Bit
%e = OpUDotAccSat %u32 %uv8 %uv8 %u1
%f = OpSDot %i32 %iv %iv
`)},
		{name: "result", mod: dot("DotProductInput4x8Bit", "", "%a = OpSDot %f32 %iv8 %iv8"),
			want: "Result must be an int scalar type."},
		{name: "accumulator", mod: dot("DotProductInput4x8Bit", "", "%a = OpSDotAccSat %i32 %iv8 %iv8 %u1"),
			want: "Result must be the same as the Accumulator type."},
		{name: "udot result", mod: dot("DotProductInput4x8Bit", "", "%a = OpUDot %i32 %uv8 %uv8"),
			want: "Result must be an unsigned int scalar type."},
		{name: "mixed", mod: dot("DotProductInput4x8Bit DotProductInput4x8BitPacked", "", "%a = OpSDot %i32 %u1 %iv8"),
			want: "'Vector 1' and 'Vector 2' must be the same type."},
		{name: "packed capability", mod: dot("DotProductInput4x8Bit", "", "%a = OpSDot %i32 %u1 %u1 PackedVectorFormat4x8Bit"),
			want: "DotProductInput4x8BitPacked capability is required to use scalar integers."},
		{name: "packed format", mod: dot("DotProductInput4x8BitPacked", "", "%a = OpSDot %i32 %u1 %u1"),
			want: "'Vector 1' and 'Vector 2' are a 32-bit int scalar, but no Packed Vector Format was provided."},
		{name: "vector", mod: dot("DotProductInputAll", "", "%a = OpSDot %i32 %f1 %iv8"),
			want: "Expected 'Vector 1' to be an int scalar or vector."},
		{name: "lengths", mod: dot("DotProductInputAll", "", "%a = OpSDot %i32 %iv %iv8"),
			want: "'Vector 1' is 2 components but 'Vector 2' is 4 components"},
		{name: "integers", mod: dot("DotProductInputAll", "", "%a = OpSDot %i32 %fv %iv"),
			want: "Expected 'Vector 1' to be a vector of integers."},
		{name: "widths", mod: dot("DotProductInputAll", "%v2i8 = OpTypeVector %i8 2\n%i8v = OpConstantComposite %v2i8 %s8 %s8", "%a = OpSDot %i32 %iv %i8v"),
			want: "'Vector 1' component is 32-bit but 'Vector 2' component is 8-bit"},
		{name: "result width", mod: dot("DotProductInputAll", "", "%a = OpSDot %i8 %iv %iv"),
			want: "Result width (8) must be greater than or equal to the vectors width (32)."},
		{name: "4x8 capability", mod: dot("", "", "%a = OpSDot %i32 %iv8 %iv8"),
			want: "DotProductInput4x8Bit or DotProductInputAll capability is required to use 4-component vectors of 8-bit integers."},
		{name: "all capability", mod: dot("DotProductInput4x8Bit", "", "%a = OpSDot %i32 %iv %iv"),
			want: "DotProductInputAll capability is additionally required to the DotProduct capability to use vectors. (It is possible to set DotProductInput4x8BitPacked to only use 32-bit scalars packed as a 4-wide 8-byte vector)"},
		{name: "udot unsigned", mod: dot("DotProductInput4x8Bit", "", "%a = OpUDot %u32 %iv8 %uv8"),
			want: "Expected 'Vector 1' to be an vector of unsigned integers."},
		{name: "sudot unsigned", mod: dot("DotProductInput4x8Bit", "", "%a = OpSUDot %i32 %iv8 %iv8"),
			want: "Expected 'Vector 2' to be an vector of unsigned integers."},
	})
}

func TestCooperativeMatrixShapes(t *testing.T) {
	coop := func(args ...string) module {
		decls, body := "", args[0]
		if len(args) == 2 {
			decls, body = args[0], args[1]
		}
		return module{caps: "Shader Float16 CooperativeMatrixKHR VulkanMemoryModel", exts: "SPV_KHR_cooperative_matrix SPV_KHR_vulkan_memory_model", decls: `
%f32 = OpTypeFloat 32
%f16 = OpTypeFloat 16
%u32 = OpTypeInt 32 0
%sub = OpConstant %u32 3
%n8 = OpConstant %u32 8
%n16 = OpConstant %u32 16
%acc = OpConstant %u32 2
%ua = OpConstant %u32 0
%m = OpTypeCooperativeMatrixKHR %f32 %sub %n8 %n8 %acc
%m16 = OpTypeCooperativeMatrixKHR %f32 %sub %n16 %n8 %acc
%mh = OpTypeCooperativeMatrixKHR %f16 %sub %n8 %n8 %acc
%ma = OpTypeCooperativeMatrixKHR %f16 %sub %n8 %n8 %ua
%pm = OpTypePointer Function %m
%pm16 = OpTypePointer Function %m16
%pma = OpTypePointer Function %ma
%n1 = OpConstant %u32 1
` + decls, body: `%vm = OpVariable %pm Function
%vm16 = OpVariable %pm16 Function
%vma = OpVariable %pma Function
%x = OpLoad %m %vm
%y = OpLoad %m16 %vm16
%z = OpLoad %ma %vma
` + body}
	}
	runRuleCases(t, []ruleCase{
		{name: "valid", mod: coop("%a = OpFAdd %m %x %x\n%b = OpFConvert %mh %x")},
		{name: "rows", mod: coop("%a = OpFAdd %m %x %y"),
			want: "Expected rows of Matrix type and Result Type to be identical"},
		{name: "use", mod: coop("%a = OpFConvert %mh %z"),
			want: "Expected Use of Matrix type and Result Type to be identical"},
		{name: "muladd", mod: coop("%b16 = OpTypeCooperativeMatrixKHR %f16 %sub %n8 %n8 %n1\n", "%w = OpUndef %b16\n%a = OpCooperativeMatrixMulAddKHR %m %z %w %x")},
		{name: "muladd M", mod: coop("%b16 = OpTypeCooperativeMatrixKHR %f16 %sub %n8 %n8 %n1\n", "%w = OpUndef %b16\n%a = OpCooperativeMatrixMulAddKHR %m16 %z %w %x"),
			want: "Cooperative matrix 'M' mismatch: CooperativeMatrixMulAddKHR"},
		{name: "muladd A", mod: coop("", "%a = OpCooperativeMatrixMulAddKHR %m %x %x %x"),
			want: "Cooperative matrix type must be A Type: CooperativeMatrixMulAddKHR"},
		{name: "conversion rows", mod: coop("%a = OpFConvert %mh %y"),
			want: "Expected rows of Matrix type and Result Type to be identical"},
	})
}

func TestFDotMixVALVE(t *testing.T) {
	mix := func(body string) module {
		return module{caps: "Shader Float16 DotProductFloat16AccFloat32VALVE DotProductFloat16AccFloat16VALVE", exts: "SPV_VALVE_mixed_float_dot_product", decls: `
%f32 = OpTypeFloat 32
%f16 = OpTypeFloat 16
%v2h = OpTypeVector %f16 2
%v2f = OpTypeVector %f32 2
%h1 = OpConstant %f16 1
%f1 = OpConstant %f32 1
%hv = OpConstantComposite %v2h %h1 %h1
%fv = OpConstantComposite %v2f %f1 %f1
`, body: body}
	}
	runRuleCases(t, []ruleCase{
		{name: "valid", mod: mix("%a = OpFDot2MixAcc32VALVE %f32 %hv %hv %f1\n%b = OpFDot2MixAcc16VALVE %f16 %hv %hv %h1")},
		{name: "result", mod: mix("%a = OpFDot2MixAcc32VALVE %f16 %hv %hv %h1"),
			want: "Result must be a 32-bit IEEE 754 float scalar type."},
		{name: "vector", mod: mix("%a = OpFDot2MixAcc32VALVE %f32 %h1 %hv %f1"),
			want: "Expected 'Vector 1' to be an vector."},
		{name: "width", mod: mix("%a = OpFDot2MixAcc32VALVE %f32 %fv %hv %f1"),
			want: "Expected 'Vector 1' to be a vector of 16-bit floats."},
		{name: "accumulator", mod: mix("%a = OpFDot2MixAcc32VALVE %f32 %hv %hv %h1"),
			want: "Accumulator Type must be the same as the Result Type."},
		{name: "acc16 result", mod: mix("%a = OpFDot2MixAcc16VALVE %f32 %hv %hv %f1"),
			want: "Result must be a 16-bit float scalar type."},
	})
}
