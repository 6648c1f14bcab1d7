package val

import (
	"fmt"
	"strings"
	"testing"

	"spvx/spirv"
)

// ifaceModule is a SPIR-V 1.4 module (every global variable is an
// interface variable) with two compute entry points: %a, which lists
// aList, and %b, which lists bList; %a calls %helper, and bodyA, bodyB
// and bodyHelper are their bodies. %g, a Private pointer to a Workgroup
// pointer, is initialized with %w.
func ifaceModule(aList, bList, bodyA, bodyB, bodyHelper string) string {
	return fmt.Sprintf(`OpCapability Shader
OpCapability VariablePointers
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %%a "a"%s
OpEntryPoint GLCompute %%b "b"%s
OpExecutionMode %%a LocalSize 1 1 1
OpExecutionMode %%b LocalSize 1 1 1
%%void = OpTypeVoid
%%fn = OpTypeFunction %%void
%%u32 = OpTypeInt 32 0
%%c1 = OpConstant %%u32 1
%%pp = OpTypePointer Private %%u32
%%pw = OpTypePointer Workgroup %%u32
%%v = OpVariable %%pp Private
%%w = OpVariable %%pw Workgroup
%%ppw = OpTypePointer Private %%pw
%%g = OpVariable %%ppw Private %%w
%%helper = OpFunction %%void None %%fn
%%h0 = OpLabel
%sOpReturn
OpFunctionEnd
%%a = OpFunction %%void None %%fn
%%a0 = OpLabel
%%call = OpFunctionCall %%void %%helper
%sOpReturn
OpFunctionEnd
%%b = OpFunction %%void None %%fn
%%b0 = OpLabel
%sOpReturn
OpFunctionEnd
`, aList, bList, bodyHelper, bodyA, bodyB)
}

// TestInterfaceListed: a global variable an entry point's call graph uses
// must be in its interface (SPIR-V 1.4), as validate_interfaces.cpp
// checks: directly, through a called function, per entry point, each
// variable reported once per entry point missing it.
func TestInterfaceListed(t *testing.T) {
	const storeV, storeW = "OpStore %v %c1\n", "OpStore %w %c1\n"
	// The assembler numbers ids by first appearance.
	msg := func(src, v, ep string) string {
		ids := map[string]int{}
		for _, tok := range strings.FieldsFunc(src, func(r rune) bool { return r == ' ' || r == '\n' }) {
			if strings.HasPrefix(tok, "%") && ids[tok] == 0 {
				ids[tok] = len(ids) + 1
			}
		}
		return fmt.Sprintf("Interface variable id <%d> is used by entry point '%s' id <%d>, but is not listed as an interface", ids["%"+v], ep, ids["%"+ep])
	}
	c := func(name, aList, bList, bodyA, bodyB, bodyHelper, v, ep string) rqCase {
		src := ifaceModule(aList, bList, bodyA, bodyB, bodyHelper)
		want := ""
		if v != "" {
			want = msg(src, v, ep)
		}
		return rqCase{name: name, src: src, want: want, env: EnvUniversal1_4}
	}
	cases := []rqCase{
		c("listed", " %v %w", "", storeV+storeW, "", "", "", ""),
		c("direct", " %w", "", storeV+storeW, "", "", "v", "a"),
		c("through a call", " %w", "", storeW, "", storeV, "v", "a"),
		c("second entry point", " %v", " %w", storeV, storeV+storeW, "", "v", "b"),
		c("unused", "", "", "", "", "", "", ""),
		c("second variable", " %v", "", storeV+storeW, "", "", "w", "a"),
		// %g's initializer is %w: loading %g uses %w, through a global
		c("through a global", " %g", "", "%x = OpLoad %pw %g\n", "", "", "w", "a"),
		c("through a global, listed", " %g %w", "", "%x = OpLoad %pw %g\n", "", "", "", ""),
	}
	runTable(t, cases)
}

// TestInterfaceUsersLinear: the use walk is one pass, whatever the number
// of interface variables and functions.
func TestInterfaceUsersLinear(t *testing.T) {
	module := func(n int) string {
		var decl, fns, calls, list strings.Builder
		for k := 0; k < n; k++ {
			fmt.Fprintf(&decl, "%%v%d = OpVariable %%pp Private\n", k)
			fmt.Fprintf(&list, " %%v%d", k)
			fmt.Fprintf(&fns, "%%f%[1]d = OpFunction %%void None %%fn\n%%l%[1]d = OpLabel\nOpStore %%v%[1]d %%c1\nOpReturn\nOpFunctionEnd\n", k)
			fmt.Fprintf(&calls, "%%r%[1]d = OpFunctionCall %%void %%f%[1]d\n", k)
		}
		return "OpCapability Shader\nOpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %main \"main\"" + list.String() +
			"\nOpExecutionMode %main LocalSize 1 1 1\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%u32 = OpTypeInt 32 0\n%c1 = OpConstant %u32 1\n%pp = OpTypePointer Private %u32\n" +
			decl.String() + fns.String() + "%main = OpFunction %void None %fn\n%e = OpLabel\n" + calls.String() + "OpReturn\nOpFunctionEnd\n"
	}
	linearOnValid(t, "%d interface variables", module, 2000)
}

// TestBodiesMatchTable: bodies answers as the table of every
// instruction's function it replaced, for regular function lists and for
// the irregular ones Options.All may go on with (a function without an
// OpFunctionEnd before others, instructions between functions).
func TestBodiesMatchTable(t *testing.T) {
	const n = 40
	lists := [][]spirv.Function{
		nil,
		{{Start: 5, End: 12}, {Start: 13, End: 20}, {Start: 21, End: 39}},
		{{Start: 5, End: 12}, {Start: 15, End: 20}, {Start: 25, End: -1}},
		{{Start: 5, End: -1}, {Start: 10, End: 14}, {Start: 18, End: 22}, {Start: 30, End: -1}, {Start: 33, End: 35}},
		{{Start: 0, End: -1}, {Start: 1, End: -1}, {Start: 2, End: 3}},
	}
	for c, fns := range lists {
		want := make([]int32, n)
		for i := range want {
			want[i] = -1
		}
		for f, fn := range fns {
			end := fn.End
			if end < 0 {
				end = n - 1
			}
			for i := fn.Start + 1; i <= end && i < n; i++ {
				want[i] = int32(f)
			}
		}
		s := &state{shared: &shared{x: &spirv.Index{Functions: fns}}}
		of := s.bodies()
		for i := range n {
			if got := of(i); got != want[i] {
				t.Errorf("list %d: instruction %d: function %d, want %d", c, i, got, want[i])
			}
		}
	}
}
