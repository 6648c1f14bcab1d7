package val

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestPathological: inputs built to be slow for a quadratic validator
// finish quickly: a chain of 100k blocks (each using the previous block's
// value, so the dominator walk is 100k deep), a ladder of 20k nested
// selections, and a struct nested 200 deep.
func TestPathological(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	chain := func(n int) string {
		var b strings.Builder
		b.WriteString(valHeadAsm + domTypesAsm + "%main = OpFunction %void None %fn\n%b0 = OpLabel\n%v0 = OpIAdd %u32 %c %c\nOpBranch %b1\n")
		for i := 1; i < n; i++ {
			fmt.Fprintf(&b, "%%b%d = OpLabel\n%%v%d = OpIAdd %%u32 %%v%d %%c\nOpBranch %%b%d\n", i, i, i-1, i+1)
		}
		fmt.Fprintf(&b, "%%b%d = OpLabel\nOpReturn\nOpFunctionEnd\n", n)
		return b.String()
	}
	nested := func(n int) string {
		var b strings.Builder
		b.WriteString(valHeadAsm + domTypesAsm + "%main = OpFunction %void None %fn\n%h0 = OpLabel\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "OpSelectionMerge %%m%d None\nOpBranchConditional %%true %%h%d %%m%d\n%%h%d = OpLabel\n", i, i+1, i, i+1)
		}
		b.WriteString("OpBranch %m" + fmt.Sprint(n-1) + "\n")
		for i := n - 1; i >= 0; i-- {
			fmt.Fprintf(&b, "%%m%d = OpLabel\n", i)
			if i > 0 {
				fmt.Fprintf(&b, "OpBranch %%m%d\n", i-1)
			}
		}
		b.WriteString("OpReturn\nOpFunctionEnd\n")
		return b.String()
	}
	deepStruct := func(n int) string {
		var b strings.Builder
		b.WriteString(valHeadAsm + domTypesAsm + "%s0 = OpTypeStruct %u32\n")
		for i := 1; i < n; i++ {
			fmt.Fprintf(&b, "%%s%d = OpTypeStruct %%s%d\n", i, i-1)
		}
		b.WriteString("%main = OpFunction %void None %fn\n%e = OpLabel\nOpReturn\nOpFunctionEnd\n")
		return b.String()
	}
	hugeSwitch := func(n int) string {
		var b strings.Builder
		b.WriteString(valHeadAsm + domTypesAsm + "%main = OpFunction %void None %fn\n%e = OpLabel\nOpSelectionMerge %m None\nOpSwitch %c %m")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, " %d %%m", i)
		}
		b.WriteString("\n%m = OpLabel\nOpReturn\nOpFunctionEnd\n")
		return b.String()
	}
	for _, c := range []struct {
		name, src string
		want      string
	}{
		{"switch of 16383 cases", hugeSwitch(16383), ""},
		{"switch of 16384 cases", hugeSwitch(16384), "Number of (literal, label) pairs in OpSwitch (16384) exceeds the limit (16383)."},
		{"chain of 100k blocks", chain(100000), ""},
		{"1000 nested selections", nested(1000), ""},
		{"20k nested selections", nested(20000), "Maximum Control Flow nesting depth exceeded."},
		{"struct nested 300 deep", deepStruct(300), "Structure Nesting Depth may not be larger than 255. Found 256."},
	} {
		words := assemble(t, c.src)
		start := time.Now()
		got := firstError(t, words, Options{})
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("%s: %v", c.name, d)
		}
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
	// The id bound: up to the default --max-id-bound is fine (no table is
	// sized by it), one more is rejected.
	words := assemble(t, valHeadAsm+domTypesAsm+"%main = OpFunction %void None %fn\n%e = OpLabel\nOpReturn\nOpFunctionEnd\n")
	words[3] = 0x3FFFFF
	if got := firstError(t, words, Options{}); got != "" {
		t.Errorf("bound 2^22-1: %q", got)
	}
	words[3] = 1 << 22
	if got, want := firstError(t, words, Options{}), "Invalid SPIR-V.  The id bound is larger than the max id bound 4194303."; got != want {
		t.Errorf("bound 2^22: got %q, want %q", got, want)
	}
}

const valHeadAsm = "OpCapability Shader\nOpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\n"

const domTypesAsm = `%void = OpTypeVoid
%bool = OpTypeBool
%true = OpConstantTrue %bool
%u32 = OpTypeInt 32 0
%c = OpConstant %u32 1
%fn = OpTypeFunction %void
`
