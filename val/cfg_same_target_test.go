package val

import (
	"testing"

	"spvx/asm"
	"spvx/spirv"
)

// TestConditionalSameTarget: an OpBranchConditional whose two labels are
// the same block has one successor, so it needs no merge instruction
// even inside a loop (spirv-val marks the true label seen before it looks
// at the false one). Found by TestMutationCurrent
// (phi-loop-variable.asm.frag:branch:1). The same branch with two
// different unseen labels is still "Selection must be structured".
func TestConditionalSameTarget(t *testing.T) {
	loop := func(falseLabel string) string {
		return valHeadAsm + domTypesAsm + `%main = OpFunction %void None %fn
%e = OpLabel
OpBranch %h
%h = OpLabel
OpLoopMerge %m %ct None
OpBranch %b
%b = OpLabel
OpBranchConditional %true %x ` + falseLabel + `
%x = OpLabel
OpBranch %ct
%y = OpLabel
OpBranch %ct
%ct = OpLabel
OpBranch %h
%m = OpLabel
OpReturn
OpFunctionEnd
`
	}
	for _, c := range []struct{ falseLabel, want string }{
		{"%x", ""},
		{"%y", "Selection must be structured"},
	} {
		words, err := asm.Assemble([]byte(loop(c.falseLabel)), asm.Options{TargetEnv: "spv1.5"}) // 1.6 forbids equal labels
		if err != nil {
			t.Fatal(err)
		}
		m, err := spirv.DecodeWords(words)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if err := Validate(m, Options{}); err != nil {
			got = err.(ErrorList)[0].Msg
		}
		if got != c.want {
			t.Errorf("false label %s: got %q, want %q", c.falseLabel, got, c.want)
		}
	}
}
