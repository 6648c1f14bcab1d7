package dis

import (
	"bytes"
	"testing"

	"spvx/spirv"
)

// hostileCFGModule is one function whose control flow names a label that
// is not a block (a branch target and a loop's merge), holds a block no
// branch reaches, and a loop whose header's OpBranch enters the body.
func hostileCFGModule() []byte {
	b := newBuilder()
	b.op(spirv.OpCapability, uint32(spirv.CapabilityShader))
	b.op(spirv.OpMemoryModel, uint32(spirv.AddressingModelLogical), uint32(spirv.MemoryModelGLSL450))
	main := b.id()
	b.op(spirv.OpEntryPoint, uint32(spirv.ExecutionModelGLCompute), main, "main")
	void, fn, boolT, cond := b.id(), b.id(), b.id(), b.id()
	entry, head, body, cont, merge, dead, missing, missing2 := b.id(), b.id(), b.id(), b.id(), b.id(), b.id(), b.id(), b.id()
	b.op(spirv.OpName, entry, "entry")
	b.op(spirv.OpName, head, "head")
	b.op(spirv.OpName, body, "body")
	b.op(spirv.OpName, cont, "cont")
	b.op(spirv.OpName, merge, "merge")
	b.op(spirv.OpName, dead, "dead")
	b.op(spirv.OpTypeVoid, void)
	b.op(spirv.OpTypeFunction, fn, void)
	b.op(spirv.OpTypeBool, boolT)
	b.op(spirv.OpConstantTrue, boolT, cond)
	b.op(spirv.OpFunction, void, main, 0, fn)
	b.op(spirv.OpLabel, entry)
	b.op(spirv.OpSelectionMerge, merge, 0)
	b.op(spirv.OpBranchConditional, cond, head, missing)
	b.op(spirv.OpLabel, dead)
	b.op(spirv.OpReturn)
	b.op(spirv.OpLabel, merge)
	b.op(spirv.OpReturn)
	b.op(spirv.OpLabel, cont)
	b.op(spirv.OpBranch, head)
	b.op(spirv.OpLabel, body)
	b.op(spirv.OpBranch, cont)
	b.op(spirv.OpLabel, head)
	b.op(spirv.OpLoopMerge, missing2, cont, 0)
	b.op(spirv.OpBranch, body)
	b.op(spirv.OpFunctionEnd)
	return b.bytes()
}

// TestNestedReorderHostileCFG: blocks come in the depth-first reverse
// post-order from the entry (a header's merge and continue target visited
// before its branch targets, so printed after them), unreachable blocks
// last at level 0; a merge block sits at its header's level, a continue
// target one deeper and a header's branch targets two deeper; labels that
// are not blocks of the function are passed over.
func TestNestedReorderHostileCFG(t *testing.T) {
	bin := hostileCFGModule()
	for _, c := range []struct {
		opt  Options
		want string
	}{
		{Options{NestedIndent: true, ReorderBlocks: true, NoHeader: true}, `          %1 = OpFunction %void None %3

      %entry = OpLabel
                 OpSelectionMerge %merge None
                 OpBranchConditional %true %head %12

       %head =     OpLabel
                     OpLoopMerge %13 %cont None
                     OpBranch %body

       %body =         OpLabel
                         OpBranch %cont

       %cont =       OpLabel
                       OpBranch %head

      %merge = OpLabel
                 OpReturn

       %dead = OpLabel
                 OpReturn
               OpFunctionEnd
`},
		{Options{NestedIndent: true, NoHeader: true}, `          %1 = OpFunction %void None %3

      %entry = OpLabel
                 OpSelectionMerge %merge None
                 OpBranchConditional %true %head %12

       %dead = OpLabel
                 OpReturn

      %merge = OpLabel
                 OpReturn

       %cont =       OpLabel
                       OpBranch %head

       %body =         OpLabel
                         OpBranch %cont

       %head =     OpLabel
                     OpLoopMerge %13 %cont None
                     OpBranch %body
               OpFunctionEnd
`},
	} {
		got, err := DisassembleBinary(bin, c.opt)
		if err != nil {
			t.Fatal(err)
		}
		i := bytes.Index(got, []byte("          %1 = OpFunction"))
		if i < 0 {
			t.Fatalf("%+v: no OpFunction in\n%s", c.opt, got)
		}
		if fn := string(got[i:]); fn != c.want {
			t.Errorf("%+v: got\n%s\nwant\n%s", c.opt, fn, c.want)
		}
	}
}
