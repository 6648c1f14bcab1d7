package val

import "testing"

// TestLogicalPointerRules covers validate_logical_pointers.cpp's operand
// and result rules (newer than spirv-val 2023.1: not compared).
func TestLogicalPointerRules(t *testing.T) {
	cases := []memRuleCase{
		// validate_logicals.cpp's OpSelect rule comes first, in the second loop.
		{name: "select of pointers without variable pointers", src: comp("", "%t = OpConstantTrue %bool\n", "%a = OpVariable %pf Function\n%b = OpVariable %pf Function\n%c = OpSelect %pf %t %a %b"), agree: oracleNone,
			want: "Using pointers with OpSelect requires capability VariablePointers or VariablePointersStorageBuffer"},
		{name: "bitcast of a pointer", src: comp("", "", "%a = OpVariable %pf Function\n%c = OpBitcast %pu %a"), agree: oracleNone,
			want: "Instruction may not have a logical pointer operand"},
		{name: "bitcast of a pointer, --relax-logical-pointer", src: comp("", "", "%a = OpVariable %pf Function\n%c = OpBitcast %pu %a"), opts: Options{RelaxLogicalPointer: true}, agree: oracleNone},
		{name: "undef pointer", src: comp("", "%u = OpUndef %pf\n", ""), agree: oracleNone},
		{name: "null pointer", src: comp("", "%n = OpConstantNull %pf\n", ""), agree: oracleNone,
			want: "Instruction may only return a logical pointer in the StorageBuffer or Workgroup storage classes with appropriate variable pointers capability"},
		{name: "pointer access chain result", src: comp("", "", "%a = OpVariable %pf Function\n%b = OpCopyObject %pf %a\n%c = OpLoad %f32 %b")},
	}
	runMemRuleCases(t, cases)
}
