package val

import (
	"fmt"
	"strings"
	"testing"

	"spvx/asm"
	"spvx/spirv"
)

// chainModule is a compute shader whose function is a chain of n OpIAdd,
// ending in an OpStore through a non-pointer, which spirv-val rejects
// naming the chain's last id.
func chainModule(t *testing.T, n int) *spirv.Module {
	t.Helper()
	var b strings.Builder
	b.WriteString(`OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %main "main"
OpName %last "last"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_1 = OpConstant %uint 1
%main = OpFunction %void None %fn
%entry = OpLabel
%c0 = OpIAdd %uint %uint_1 %uint_1
`)
	for k := 1; k < n; k++ {
		fmt.Fprintf(&b, "%%c%d = OpIAdd %%uint %%c%d %%uint_1\n", k, k-1)
	}
	fmt.Fprintf(&b, "%%last = OpIAdd %%uint %%c%d %%uint_1\nOpStore %%last %%uint_1\nOpReturn\nOpFunctionEnd\n", n-1)
	words, err := asm.Assemble([]byte(b.String()), asm.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := spirv.DecodeWords(words)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestErrorTextsCostIndependentOfSize checks issue 19 (c): the text of a
// failing instruction, and the friendly names in its message, come from
// disassembling the global section and the instructions involved, not the
// module (a 1M-instruction chain spent 16 s in InstructionTexts); the
// texts are the ones a whole-module disassembly gives.
func TestErrorTextsCostIndependentOfSize(t *testing.T) {
	var work [2]int64
	for k, n := range []int{5000, 20000} {
		m := chainModule(t, n)
		before := textedInsts.Load()
		err := Validate(m, Options{})
		list, ok := err.(ErrorList)
		if !ok || len(list) == 0 {
			t.Fatalf("n=%d: %v, want an ErrorList", n, err)
		}
		texts := ErrorTexts(m, list)
		work[k] = textedInsts.Load() - before
		full := InstructionTexts(m)
		for i, e := range list {
			if texts[i] != full[e.Inst] {
				t.Errorf("n=%d: error %d text %q, whole module gives %q", n, i, texts[i], full[e.Inst])
			}
		}
		if !strings.Contains(list[0].Msg, "[%last]") || texts[0] != "OpStore %last %uint_1" {
			t.Errorf("n=%d: %q / %q: want the message to name %%last and the OpStore's text", n, list[0].Msg, texts[0])
		}
	}
	if work[0] != work[1] || work[0] > 100 {
		t.Errorf("disassembled %d instructions at n=5000 and %d at n=20000: want the same few", work[0], work[1])
	}
}

// TestInstructionTextsOfNames checks that texts disassembled alone keep
// the names the whole module gives: OpName'd ids, types, constants, and a
// numbered id whose number an OpName took.
func TestInstructionTextsOfNames(t *testing.T) {
	words, err := asm.Assemble([]byte(`OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %x "12"
OpName %main "main"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_1 = OpConstant %uint 1
%main = OpFunction %void None %fn
%entry = OpLabel
%x = OpIAdd %uint %uint_1 %uint_1
%12 = OpIAdd %uint %x %uint_1
%y = OpIAdd %uint %12 %x
OpReturn
OpFunctionEnd
`), asm.Options{PreserveNumericIDs: true})
	if err != nil {
		t.Fatal(err)
	}
	m, err := spirv.DecodeWords(words)
	if err != nil {
		t.Fatal(err)
	}
	full := InstructionTexts(m)
	for i := 0; i < m.Len(); i++ {
		if got := InstructionTextsOf(m, []int{i})[0]; got != full[i] {
			t.Errorf("instruction %d alone: %q, in the module: %q", i, got, full[i])
		}
	}
}
