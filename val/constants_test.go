package val

import "testing"

// TestConstantRules covers validate_constants.cpp.
func TestConstantRules(t *testing.T) {
	decl := "%v2 = OpTypeVector %f32 2\n%m2 = OpTypeMatrix %v2 2\n%a2 = OpTypeArray %f32 %u1\n%S = OpTypeStruct %f32 %u32\n%sc = OpSpecConstant %u32 3\n"
	cases := []memRuleCase{
		{name: "valid composites", src: comp("", decl+"%c = OpConstantComposite %v2 %f1 %f1\n%m = OpConstantComposite %m2 %c %c\n%a = OpConstantComposite %a2 %f1\n%s = OpConstantComposite %S %f1 %u1\n%n = OpConstantNull %S\n%t = OpConstantTrue %bool\n", "")},
		{name: "true of a non-bool", src: comp("", "%t = OpConstantTrue %u32\n", ""),
			want: "OpConstantTrue Result Type <id> '*[%uint]' is not a boolean type."},
		{name: "composite of a scalar", src: comp("", "%c = OpConstantComposite %f32 %f1\n", ""),
			want: "OpConstantComposite Result Type <id> '*[%float]' is not a composite type."},
		{name: "vector count", src: comp("", decl+"%c = OpConstantComposite %v2 %f1\n", ""),
			want: "OpConstantComposite Constituent <id> count does not match Result Type <id> '*[%v2float]'s vector component count."},
		{name: "vector element type", src: comp("", decl+"%c = OpConstantComposite %v2 %f1 %u1\n", ""),
			want: "OpConstantComposite Constituent <id> '*[%uint_1]'s type does not match Result Type <id> '*[%v2float]'s vector element type."},
		{name: "matrix column type", src: comp("", decl+"%m = OpConstantComposite %m2 %f1 %f1\n", ""),
			want: "OpConstantComposite Constituent <id> '*[%float_1]' type does not match Result Type <id> '*[%mat2v2float]'s matrix column type."},
		{name: "array length", src: comp("", decl+"%a = OpConstantComposite %a2 %f1 %f1\n", ""),
			want: "OpConstantComposite Constituent count does not match Result Type <id> '*[%_arr_float_uint_1]'s array length."},
		{name: "struct member type", src: comp("", decl+"%s = OpConstantComposite %S %u1 %u1\n", ""),
			want: "OpConstantComposite Constituent <id> '*[%uint_1]' type does not match the Result Type <id> '*[%_struct_*]'s member type."},
		{name: "struct member count", src: comp("", decl+"%s = OpConstantComposite %S %f1\n", ""),
			want: "OpConstantComposite Constituent <id> '*[%_struct_*]' count does not match Result Type <id> '*[%_struct_*]'s struct member count."},
		{name: "spec constant operand of a constant", src: comp("", decl+"%s = OpConstantComposite %S %f1 %sc\n", ""),
			want: "OpConstantComposite must not have spec constant operands: <id> '*[%*]'", agree: oracleNone /* older-oracle gap */},
		{name: "spec constant composite of a spec constant", src: comp("", decl+"%s = OpSpecConstantComposite %S %f1 %sc\n", "")},
		{name: "null of a function type", src: comp("", "%rta = OpTypeRuntimeArray %f32\n%n = OpConstantNull %rta\n", ""),
			want: "OpConstantNull Result Type <id> '*[%*]' cannot have a null value."},
		{name: "spec constant op FAdd in a shader", src: comp("", "%sf = OpSpecConstant %f32 1\n%x = OpSpecConstantOp %f32 FAdd %sf %sf\n", ""),
			want: "Specialization constant operation FAdd requires Kernel capability"},
		{name: "spec constant op IAdd", src: comp("", "%x = OpSpecConstantOp %u32 IAdd %u1 %u1\n", "")},
		{name: "16-bit constant without Int16", src: module{caps: "Shader StorageBuffer16BitAccess", exts: "SPV_KHR_16bit_storage", decls: "%u16 = OpTypeInt 16 0\n%c = OpConstant %u16 1"}.text(),
			want: "Cannot form constants of 8- or 16-bit types"},
		{name: "16-bit constant with Int16", src: module{caps: "Shader Int16", decls: "%u16 = OpTypeInt 16 0\n%c = OpConstant %u16 1"}.text()},
	}
	runMemRuleCases(t, cases)
}
