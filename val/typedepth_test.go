package val

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"spvx/spirv"
)

// typeChain returns a module with a chain of n types over %u32 (depth 1),
// so the last, %t<n>, has depth n+1, and a Private variable of a pointer
// to it, so that the memory, layout and logical-pointer passes walk it.
// link writes type k from the one before.
func typeChain(n int, link func(k int, prev string) string) string {
	var b strings.Builder
	b.WriteString(valHeadAsm + domTypesAsm)
	prev := "%u32"
	for k := 1; k <= n; k++ {
		fmt.Fprintf(&b, "%%t%d = %s\n", k, link(k, prev))
		prev = fmt.Sprintf("%%t%d", k)
	}
	fmt.Fprintf(&b, "%%pv = OpTypePointer Private %s\n%%v = OpVariable %%pv Private\n", prev)
	b.WriteString("%main = OpFunction %void None %fn\n%e = OpLabel\nOpReturn\nOpFunctionEnd\n")
	return b.String()
}

func validateAll(t *testing.T, words []uint32, opts Options) ErrorList {
	t.Helper()
	m, err := spirv.DecodeWords(words)
	if err != nil {
		t.Fatal(err)
	}
	var list ErrorList
	if err := Validate(m, opts); err != nil && !errors.As(err, &list) {
		t.Fatalf("Validate returned %T %v", err, err)
	}
	return list
}

// TestTypeDepthLimit: every kind of type chain is accepted (or refused
// for other reasons) at depth spirv.MaxTypeDepth (the chain and the
// variable's pointer type) and refused one deeper, at the pointer type, also under Options.All, where the passes after the first loop
// would otherwise walk the chain.
func TestTypeDepthLimit(t *testing.T) {
	links := map[string]func(k int, prev string) string{
		"array":         func(k int, prev string) string { return "OpTypeArray " + prev + " %c" },
		"runtime array": func(k int, prev string) string { return "OpTypeRuntimeArray " + prev },
		"pointer":       func(k int, prev string) string { return "OpTypePointer Function " + prev },
		"function":      func(k int, prev string) string { return "OpTypeFunction " + prev },
		"struct of array": func(k int, prev string) string {
			if k%2 == 0 {
				return "OpTypeStruct " + prev
			}
			return "OpTypeArray " + prev + " %c"
		},
	}
	const over = "Type Nesting Depth may not be larger than 1024. Found 1025."
	for name, link := range links {
		for _, all := range []bool{false, true} {
			under := validateAll(t, assemble(t, typeChain(spirv.MaxTypeDepth-2, link)), Options{All: all})
			for _, e := range under {
				if strings.Contains(e.Msg, "Type Nesting Depth") {
					t.Errorf("%s, depth %d, All %v: %v", name, spirv.MaxTypeDepth, all, e)
				}
			}
			list := validateAll(t, assemble(t, typeChain(spirv.MaxTypeDepth-1, link)), Options{All: all})
			if len(list) == 0 || list[len(list)-1].Msg != over || list[len(list)-1].Line() != 10+spirv.MaxTypeDepth {
				t.Errorf("%s, depth %d, All %v: got %v, want %q at line %d last", name, spirv.MaxTypeDepth+1, all, list, over, 10+spirv.MaxTypeDepth)
			}
		}
	}
}

// TestTypeDepthDeepChain: chains of 200k types end validation cleanly
// (a recursive walk over them needed gigabytes of stack and killed the
// process).
func TestTypeDepthDeepChain(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	const n = 200_000
	for _, c := range []struct {
		name, link, want string
	}{
		{"array", "OpTypeArray %s %%c", "Type Nesting Depth may not be larger than 1024. Found 1025."},
		{"struct", "OpTypeStruct %s", "Structure Nesting Depth may not be larger than 255. Found 256."},
	} {
		src := typeChain(n, func(k int, prev string) string { return fmt.Sprintf(c.link, prev) })
		list := validateAll(t, assemble(t, src), Options{All: true})
		if len(list) == 0 || list[0].Msg != c.want {
			t.Errorf("%s chain: first error %v, want %q", c.name, list, c.want)
		}
	}
}

// TestTypeCycle: a struct that contains a pointer to itself without
// OpTypeForwardPointer is refused, under Options.All too, without looping.
func TestTypeCycle(t *testing.T) {
	src := valHeadAsm + domTypesAsm + "%s = OpTypeStruct %u32 %p\n%p = OpTypePointer Private %s\n" +
		"%main = OpFunction %void None %fn\n%e = OpLabel\nOpReturn\nOpFunctionEnd\n"
	for _, all := range []bool{false, true} {
		if list := validateAll(t, assemble(t, src), Options{All: all}); len(list) == 0 {
			t.Errorf("All %v: accepted", all)
		}
	}
}
