package val

import (
	"fmt"
	"strings"
	"testing"

	"spvx/subgroup"
)

// shuffleModule declares every int type and vector the rule involves, and
// one OpSubgroupBitcastShuffleINTEL from src to dst (type names such as
// u32, v4u16, f32, v3u32).
func shuffleModule(src, dst string) module {
	var d strings.Builder
	d.WriteString("%u8 = OpTypeInt 8 0\n%u16 = OpTypeInt 16 0\n%u32 = OpTypeInt 32 0\n%u64 = OpTypeInt 64 0\n%f32 = OpTypeFloat 32\n%bool = OpTypeBool\n")
	for _, w := range []int{8, 16, 32, 64} {
		for _, n := range []int{2, 3, 4, 8, 16} {
			fmt.Fprintf(&d, "%%v%du%d = OpTypeVector %%u%d %d\n", n, w, w, n)
		}
	}
	d.WriteString("%v2f32 = OpTypeVector %f32 2\n")
	return module{
		caps:  "Shader Int8 Int16 Int64 Vector16 SubgroupBitcastShuffleINTEL",
		exts:  "SPV_INTEL_subgroup_bitcast_shuffle",
		decls: d.String(),
		body:  fmt.Sprintf("%%x = OpUndef %%%s\n%%r = OpSubgroupBitcastShuffleINTEL %%%s %%x", src, dst),
	}
}

// spell names a shuffle type as shuffleModule declares it.
func spell(t subgroup.Type) string {
	if t.Components == 1 {
		return fmt.Sprintf("u%d", t.Width)
	}
	return fmt.Sprintf("v%du%d", t.Components, t.Width)
}

// TestBitcastShuffleTable: every row of the Supported Types table is valid
// both ways, and every other pair of integer types of the rule's widths
// and sizes is rejected with subgroup.CheckSupported's message.
func TestBitcastShuffleTable(t *testing.T) {
	var types []subgroup.Type
	for _, w := range []int{8, 16, 32, 64} {
		for _, n := range []int{1, 2, 3, 4, 8, 16} {
			types = append(types, subgroup.U(w, n))
		}
	}
	valid := 0
	for _, src := range types {
		for _, dst := range types {
			words := assemble(t, shuffleModule(spell(src), spell(dst)).text())
			got := firstError(t, words, Options{})
			want := ""
			if err := subgroup.CheckSupported(src, dst); err != nil {
				want = err.Error()
			} else {
				valid++
			}
			if got != want {
				t.Errorf("%s -> %s: got %q, want %q", src, dst, got, want)
			}
		}
	}
	if valid != 40 {
		t.Errorf("%d valid directed pairs, want the table's 40", valid)
	}
}

func TestBitcastShuffleRules(t *testing.T) {
	noVector16 := shuffleModule("v16u8", "v4u32")
	noVector16.caps = strings.Replace(noVector16.caps, " Vector16", "", 1)
	longVector := shuffleModule("v16u8", "v4u32")
	longVector.caps = strings.Replace(longVector.caps, "Vector16", "LongVectorEXT", 1)
	longVector.exts += " SPV_EXT_long_vector"
	noCap := shuffleModule("u32", "v2u16")
	noCap.caps = strings.Replace(noCap.caps, " SubgroupBitcastShuffleINTEL", "", 1)
	noExt := shuffleModule("u32", "v2u16")
	noExt.exts = ""
	runExtCases(t, []extCase{
		{name: "u32 to v2u16", mod: shuffleModule("u32", "v2u16")},
		{name: "v2u16 to u32", mod: shuffleModule("v2u16", "u32")},
		{name: "float result", mod: shuffleModule("u64", "v2f32"),
			want: "Result Type and Operand type combination is not in the Supported Types table of SPV_INTEL_subgroup_bitcast_shuffle: Result Type 2xf32 is a float type; only 8-, 16-, 32- and 64-bit integers are supported"},
		{name: "float operand", mod: shuffleModule("f32", "v2u16"),
			want: "Result Type and Operand type combination is not in the Supported Types table of SPV_INTEL_subgroup_bitcast_shuffle: Operand f32 is a float type; only 8-, 16-, 32- and 64-bit integers are supported"},
		{name: "bool result", mod: shuffleModule("u32", "bool"), want: "Result Type must be a scalar or vector of numerical type"},
		{name: "same type", mod: shuffleModule("u32", "u32"), want: "Operand must have a different type than Result Type"},
		{name: "16 components need Vector16", mod: noVector16,
			want: "Having 8 components for TypeVector requires the Vector16 or LongVectorEXT capability"},
		{name: "LongVectorEXT instead of Vector16", mod: longVector},
		{name: "capability without extension", mod: noExt,
			want: "1st operand of Capability: operand SubgroupBitcastShuffleINTEL(6207) requires one of these extensions: SPV_INTEL_subgroup_bitcast_shuffle "},
		{name: "opcode without capability", mod: noCap,
			want: "Opcode SubgroupBitcastShuffleINTEL requires one of these capabilities: SubgroupBitcastShuffleINTEL "},
	})
}
