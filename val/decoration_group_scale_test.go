package val

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"spvx/spirv"
)

// groupModule is a Kernel module with one decoration group of k
// decorations (FuncParamAttr Zext, which may repeat) applied by one
// OpGroupDecorate to the parameters of m functions: k×m decorations once
// the group is expanded, m once duplicates are removed.
func groupModule(k, m int) string {
	var b strings.Builder
	b.WriteString("OpCapability Addresses\nOpCapability Kernel\nOpCapability Linkage\nOpCapability Int8\nOpMemoryModel Physical64 OpenCL\n")
	for range k {
		b.WriteString("OpDecorate %g FuncParamAttr Zext\n")
	}
	b.WriteString("%g = OpDecorationGroup\nOpGroupDecorate %g")
	for i := range m {
		fmt.Fprintf(&b, " %%p%d", i)
	}
	b.WriteString("\n%void = OpTypeVoid\n%u8 = OpTypeInt 8 0\n%fn = OpTypeFunction %void %u8\n")
	for i := range m {
		fmt.Fprintf(&b, "%%f%d = OpFunction %%void None %%fn\n%%p%d = OpFunctionParameter %%u8\n%%l%d = OpLabel\nOpReturn\nOpFunctionEnd\n", i, i, i)
	}
	return b.String()
}

// TestDecorationGroupsLinear: a group of k decorations applied to m
// targets is kept unexpanded: the store holds k + m entries and
// memberships, not k×m, and validating k = m = 4n takes well under
// sixteen times the CPU time of k = m = n (expanding took 16.6 s and
// 764 MB at k = m = 4000).
func TestDecorationGroupsLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	const n = 1000
	var times [2]time.Duration
	for j, size := range []int{n, 4 * n} {
		mod := decodeAsm(t, groupModule(size, size))
		times[j] = bestOf(t, mod)
		s := &state{shared: &shared{m: mod, x: mod.Index()}}
		d := s.decorations()
		entries := 0
		for _, l := range d.own {
			entries += len(l)
		}
		for _, r := range d.refs {
			entries += len(r)
		}
		// The group's k equal decorations are one entry; each target has
		// one membership.
		if entries != 1+size {
			t.Errorf("k = m = %d: %d entries and memberships stored, want %d", size, entries, 1+size)
		}
		// Every target sees the group's decoration, once.
		for _, f := range mod.Index().Functions {
			got := d.ofKinds(f.Params[0], spirv.DecorationFuncParamAttr)
			if len(got) != 1 || got[0].Member != -1 || !d.has(f.Params[0], spirv.DecorationFuncParamAttr) {
				t.Fatalf("parameter %%%d: decorations %v", f.Params[0], got)
			}
		}
	}
	ratio := float64(times[1]) / float64(max(times[0], 1))
	t.Logf("k = m = %d: %v; k = m = %d: %v (x%.1f)", n, times[0], 4*n, times[1], ratio)
	if ratio > 10 {
		t.Errorf("4x the group and targets took %.1fx as long: not linear", ratio)
	}
}
