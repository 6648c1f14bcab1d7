package interp

import (
	"fmt"
	"strings"
	"testing"

	"spvx/spirv"
)

// deepArrayKernel is a GLCompute module with a chain of n arrays over
// uint and a Private variable of the deepest one, which the kernel stores
// to, so that compiling it resolves and lays out the whole chain.
func deepArrayKernel(n int) string {
	var b strings.Builder
	b.WriteString(`OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%u32 = OpTypeInt 32 0
%c1 = OpConstant %u32 1
`)
	prev := "%u32"
	for k := 1; k <= n; k++ {
		fmt.Fprintf(&b, "%%t%d = OpTypeArray %s %%c1\n", k, prev)
		prev = fmt.Sprintf("%%t%d", k)
	}
	fmt.Fprintf(&b, "%%pv = OpTypePointer Private %s\n%%v = OpVariable %%pv Private\n%%null = OpConstantNull %s\n", prev, prev)
	b.WriteString("%main = OpFunction %void None %fn\n%e = OpLabel\nOpStore %v %null\nOpReturn\nOpFunctionEnd\n")
	return b.String()
}

// TestTypeDepthLimit: a type one level past spirv.MaxTypeDepth is refused
// with a message naming it, before any recursive walk; at the limit the
// module gets past that check (whatever the later passes say).
func TestTypeDepthLimit(t *testing.T) {
	// n arrays over uint make the pointer type n+2 deep.
	under := assemble(t, deepArrayKernel(spirv.MaxTypeDepth-2))
	if _, err := Compile(under, "main", Options{}); err != nil && strings.Contains(err.Error(), "nests") {
		t.Errorf("depth %d: %v", spirv.MaxTypeDepth, err)
	}
	over := assemble(t, deepArrayKernel(spirv.MaxTypeDepth-1))
	_, err := Compile(over, "main", Options{})
	want := fmt.Sprintf("interp: type %%%d (instruction %d) nests 1025 deep; the limit is 1024", spirv.MaxTypeDepth+5, spirv.MaxTypeDepth+8)
	if err == nil || err.Error() != want {
		t.Errorf("depth %d: got %v, want %q", spirv.MaxTypeDepth+1, err, want)
	}
}

// TestTypeDepthDeepChain: a chain of a million arrays is refused cleanly
// (typ recursed once per level and exhausted the goroutine stack).
func TestTypeDepthDeepChain(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	m := assemble(t, deepArrayKernel(1_000_000))
	if _, err := Compile(m, "main", Options{}); err == nil || !strings.Contains(err.Error(), "the limit is 1024") {
		t.Errorf("got %v", err)
	}
}
