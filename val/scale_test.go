package val

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"spvx/spirv"
)

// TestPathological: inputs built to be slow for a quadratic validator
// get the right verdicts: a chain of 100k blocks (each using the previous
// block's value, so the dominator walk is 100k deep), a ladder of 20k
// nested selections, a struct nested 300 deep, the largest switches. That
// their time grows linearly is checked without wall-clock limits, by
// comparing sizes n and 4n in CPU time (TestCFGLinear, scale2_test.go).
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
		got := firstError(t, words, Options{})
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

// cfgShapes build functions whose size grows with n, for the linear-growth
// check: each must validate in time that grows linearly with n.
var cfgShapes = []struct {
	name string
	src  func(n int) string
	want string
	opts Options
}{
	{"chain of blocks", func(n int) string {
		var b strings.Builder
		b.WriteString(valHeadAsm + domTypesAsm + "%main = OpFunction %void None %fn\n%b0 = OpLabel\nOpBranch %b1\n")
		for i := 1; i < n; i++ {
			fmt.Fprintf(&b, "%%b%d = OpLabel\nOpBranch %%b%d\n", i, i+1)
		}
		fmt.Fprintf(&b, "%%b%d = OpLabel\nOpReturn\nOpFunctionEnd\n", n)
		return b.String()
	}, "", Options{}},
	{"sequence of if-else", func(n int) string {
		var b strings.Builder
		b.WriteString(valHeadAsm + domTypesAsm + "%main = OpFunction %void None %fn\n%m0 = OpLabel\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "OpSelectionMerge %%m%d None\nOpBranchConditional %%true %%t%d %%f%d\n%%t%d = OpLabel\nOpBranch %%m%d\n%%f%d = OpLabel\nOpBranch %%m%d\n%%m%d = OpLabel\n",
				i+1, i, i, i, i+1, i, i+1, i+1)
		}
		b.WriteString("OpReturn\nOpFunctionEnd\n")
		return b.String()
	}, "", Options{}},
	{"sequence of loops with breaks", func(n int) string {
		var b strings.Builder
		b.WriteString(valHeadAsm + domTypesAsm + "%main = OpFunction %void None %fn\n%m0 = OpLabel\nOpBranch %h0\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "%%h%d = OpLabel\nOpLoopMerge %%lm%d %%c%d None\nOpBranch %%s%d\n"+
				"%%s%d = OpLabel\nOpSelectionMerge %%sm%d None\nOpBranchConditional %%true %%lm%d %%sm%d\n"+
				"%%sm%d = OpLabel\nOpBranch %%c%d\n%%c%d = OpLabel\nOpBranchConditional %%true %%h%d %%lm%d\n%%lm%d = OpLabel\nOpBranch %%h%d\n",
				i, i, i, i, i, i, i, i, i, i, i, i, i, i, i+1)
		}
		fmt.Fprintf(&b, "%%h%d = OpLabel\nOpReturn\nOpFunctionEnd\n", n)
		return b.String()
	}, "", Options{}},
	{"blocks inside 500 nested selections", func(n int) string {
		const depth = 500
		var b strings.Builder
		b.WriteString(valHeadAsm + domTypesAsm + "%main = OpFunction %void None %fn\n%h0 = OpLabel\n")
		for i := 0; i < depth; i++ {
			fmt.Fprintf(&b, "OpSelectionMerge %%m%d None\nOpBranchConditional %%true %%h%d %%m%d\n%%h%d = OpLabel\n", i, i+1, i, i+1)
		}
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "OpBranch %%x%d\n%%x%d = OpLabel\n", i, i)
		}
		fmt.Fprintf(&b, "OpBranch %%m%d\n", depth-1)
		for i := depth - 1; i >= 0; i-- {
			fmt.Fprintf(&b, "%%m%d = OpLabel\n", i)
			if i > 0 {
				fmt.Fprintf(&b, "OpBranch %%m%d\n", i-1)
			}
		}
		b.WriteString("OpReturn\nOpFunctionEnd\n")
		return b.String()
	}, "", Options{}},
	{"switch with fall-through cases", func(n int) string {
		var b strings.Builder
		b.WriteString(valHeadAsm + domTypesAsm + "%main = OpFunction %void None %fn\n%e = OpLabel\nOpSelectionMerge %m None\nOpSwitch %c %m")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, " %d %%k%d", i, i)
		}
		b.WriteString("\n")
		for i := 0; i < n; i++ {
			next := fmt.Sprintf("%%k%d", i+1)
			if i == n-1 {
				next = "%m"
			}
			fmt.Fprintf(&b, "%%k%d = OpLabel\nOpBranch %s\n", i, next)
		}
		b.WriteString("%m = OpLabel\nOpReturn\nOpFunctionEnd\n")
		return b.String()
	}, "", Options{Limits: Limits{MaxSwitchBranches: 1 << 20}}},
	{"nesting over the limit", func(n int) string {
		var b strings.Builder
		b.WriteString(valHeadAsm + domTypesAsm + "%main = OpFunction %void None %fn\n%h0 = OpLabel\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "OpSelectionMerge %%m%d None\nOpBranchConditional %%true %%h%d %%m%d\n%%h%d = OpLabel\n", i, i+1, i, i+1)
		}
		fmt.Fprintf(&b, "OpBranch %%m%d\n", n-1)
		for i := n - 1; i >= 0; i-- {
			fmt.Fprintf(&b, "%%m%d = OpLabel\n", i)
			if i > 0 {
				fmt.Fprintf(&b, "OpBranch %%m%d\n", i-1)
			}
		}
		b.WriteString("OpReturn\nOpFunctionEnd\n")
		return b.String()
	}, "Maximum Control Flow nesting depth exceeded.", Options{}},
}

// TestCFGLinear: the CFG checks take time linear in the function's size.
// Each shape is validated at n and 4n blocks (best of three runs each, in
// process CPU time); a quadratic algorithm takes 16 times longer at 4n, a
// linear one 4 times, and the test allows 10 (the box is shared; the
// ratio, not a duration, is asserted). The construct walks cost the sum
// of the construct sizes: linear at a fixed nesting depth (the 500-deep
// shape), and nesting deeper than --max-control-flow-nesting-depth is
// refused before them in linear time.
func TestCFGLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	const n = 2500
	for _, c := range cfgShapes {
		t.Run(c.name, func(t *testing.T) {
			measure := func(size int) time.Duration {
				m, err := spirv.DecodeWords(assemble(t, c.src(size)))
				if err != nil {
					t.Fatal(err)
				}
				best := time.Duration(1 << 62)
				for range 3 {
					runtime.GC()
					start := cpuTime()
					err := Validate(m, c.opts)
					d := cpuTime() - start
					got := ""
					if err != nil {
						got = err.(ErrorList)[0].Msg
					}
					if got != c.want {
						t.Fatalf("size %d: got %q, want %q", size, got, c.want)
					}
					best = min(best, d)
				}
				return best
			}
			small, large := measure(n), measure(4*n)
			ratio := float64(large) / float64(max(small, time.Microsecond))
			t.Logf("%d blocks: %v, %d blocks: %v, ratio %.1f", n, small, 4*n, large, ratio)
			if ratio > 10 {
				t.Errorf("4x the size took %.1fx the time (%v -> %v): not linear", ratio, small, large)
			}
		})
	}
}
