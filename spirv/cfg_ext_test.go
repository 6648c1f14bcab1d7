package spirv_test

import (
	"slices"
	"testing"

	"spvx/asm"
	"spvx/spirv"
)

// TestCFGSwitch64: OpSwitch case literals on a 64-bit selector take two
// words each, and Succ still finds every label; merge and continue
// targets come from the merge instructions.
func TestCFGSwitch64(t *testing.T) {
	src := `OpCapability Shader
OpCapability Int64
OpMemoryModel Logical GLSL450
%void = OpTypeVoid
%fn = OpTypeFunction %void
%u64 = OpTypeInt 64 0
%sel = OpConstant %u64 5
%bool = OpTypeBool
%true = OpConstantTrue %bool
%main = OpFunction %void None %fn
%entry = OpLabel
OpSelectionMerge %merge None
OpSwitch %sel %merge 1 %a 0x100000000 %b 7 %a
%a = OpLabel
OpBranch %loop
%loop = OpLabel
OpLoopMerge %merge %cont None
OpBranchConditional %true %cont %merge
%cont = OpLabel
OpBranch %loop
%b = OpLabel
OpBranch %merge
%merge = OpLabel
OpReturn
OpFunctionEnd
`
	words, err := asm.Assemble([]byte(src), asm.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := spirv.DecodeWords(words)
	if err != nil {
		t.Fatal(err)
	}
	fn := m.Index().Functions[0]
	c := spirv.NewCFG(m, fn.Blocks)
	// Blocks: 0 entry, 1 a, 2 loop, 3 cont, 4 b, 5 merge.
	want := [][]int32{{5, 1, 4, 1}, {2}, {3, 5}, {2}, {5}, nil}
	for b, w := range want {
		if got := c.Succ.Succ(int32(b)); !slices.Equal(got, w) {
			t.Errorf("block %d: successors %v, want %v", b, got, w)
		}
	}
	if c.Merge[0] != 5 || c.Continue[0] != -1 || c.Merge[2] != 5 || c.Continue[2] != 3 || c.MergeInst[1] != -1 {
		t.Errorf("merges %v, continues %v, merge instructions %v", c.Merge, c.Continue, c.MergeInst)
	}
	s := c.Structural()
	if got := s.Succ(2); !slices.Equal(got, []int32{5, 3, 3, 5}) {
		t.Errorf("structural successors of the loop header: %v", got)
	}
	if len(c.Undefined) != 0 {
		t.Errorf("undefined labels %v", c.Undefined)
	}
	// Post-dominators over the reversed graph: merge post-dominates all.
	r := c.Succ.Reverse()
	pd := spirv.Dominators(&r, 5)
	for b := int32(0); b < 6; b++ {
		if !pd.Dominates(5, b) {
			t.Errorf("merge does not post-dominate block %d", b)
		}
	}
	d := spirv.Dominators(&c.Succ, 0)
	if d.Idom[2] != 1 || d.Idom[5] != 0 || d.Idom[3] != 2 {
		t.Errorf("idom %v", d.Idom)
	}
}

// TestCFGUndefined: labels outside the function are not edges and are
// listed once, in first-use order.
func TestCFGUndefined(t *testing.T) {
	src := `OpCapability Shader
OpMemoryModel Logical GLSL450
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%true = OpConstantTrue %bool
%f = OpFunction %void None %fn
%entry = OpLabel
OpSelectionMerge %x None
OpBranchConditional %true %y %x
OpFunctionEnd
%g = OpFunction %void None %fn
%x = OpLabel
OpReturn
%y = OpLabel
OpReturn
OpFunctionEnd
`
	words, err := asm.Assemble([]byte(src), asm.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := spirv.DecodeWords(words)
	if err != nil {
		t.Fatal(err)
	}
	x := m.Index()
	c := spirv.NewCFG(m, x.Functions[0].Blocks)
	if c.Succ.Len() != 1 || len(c.Succ.Succ(0)) != 0 || c.Merge[0] != -1 || c.MergeInst[0] < 0 {
		t.Errorf("successors %v, merge %d", c.Succ.Succ(0), c.Merge[0])
	}
	xid, yid := x.Functions[1].Blocks[0].Label, x.Functions[1].Blocks[1].Label
	if !slices.Equal(c.Undefined, []uint32{xid, yid}) {
		t.Errorf("undefined %v, want [%d %d]", c.Undefined, xid, yid)
	}
}
