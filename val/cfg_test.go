package val

import (
	"encoding/binary"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"spvx/internal/oracle"
	"spvx/spirv"
)

// cfgCase is one control-flow module: the blocks of main (after its
// OpFunction) and, optionally, more functions, each label named so that
// messages say '%name'.
type cfgCase struct {
	name     string
	body     string // main's blocks
	more     string // declarations before main (other functions go after)
	after    string // functions after main
	caps     string // extra capabilities
	iface    string // the entry point's interface (" %v ...")
	maximal  bool   // main has MaximallyReconvergesKHR
	noShader bool   // a Kernel module (no structured rules)
	opts     Options
	args     []string // the same options for spirv-val
	want     string   // first message, ids as '[%name]'; "" for valid
	// older is why Debian's spirv-val 2023.1 answers differently (a rule
	// newer than it), or "" when it must agree.
	older string
}

// valueDef matches the definitions that get an OpName: every one but
// types and constants, which keep the names spirv-dis derives.
var valueDef = regexp.MustCompile(`(?m)^\s*%(\w+) = (Op\w+)`)

func (c cfgCase) text() string {
	var b strings.Builder
	if c.noShader {
		b.WriteString("OpCapability Addresses\nOpCapability Kernel\n")
	} else {
		b.WriteString("OpCapability Shader\n")
	}
	for _, cp := range strings.Fields(c.caps) {
		b.WriteString("OpCapability " + cp + "\n")
	}
	if c.maximal {
		b.WriteString("OpExtension \"SPV_KHR_maximal_reconvergence\"\n")
	}
	if c.noShader {
		b.WriteString("OpMemoryModel Physical32 OpenCL\nOpEntryPoint Kernel %main \"main\"\n")
	} else {
		b.WriteString("OpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %main \"main\"" + c.iface + "\nOpExecutionMode %main LocalSize 1 1 1\n")
		if c.maximal {
			b.WriteString("OpExecutionMode %main MaximallyReconvergesKHR\n")
		}
	}
	b.WriteString("OpName %main \"main\"\n")
	for _, m := range valueDef.FindAllStringSubmatch(c.more+c.body+c.after, -1) {
		if !strings.HasPrefix(m[2], "OpType") && !strings.HasPrefix(m[2], "OpConstant") {
			b.WriteString("OpName %" + m[1] + " \"" + m[1] + "\"\n")
		}
	}
	b.WriteString(`%void = OpTypeVoid
%bool = OpTypeBool
%true = OpConstantTrue %bool
%u32 = OpTypeInt 32 0
%c0 = OpConstant %u32 0
%fn = OpTypeFunction %void
%fnu = OpTypeFunction %u32
`)
	b.WriteString(c.more)
	b.WriteString("%main = OpFunction %void None %fn\n")
	b.WriteString(c.body)
	b.WriteString("OpFunctionEnd\n")
	b.WriteString(c.after)
	return b.String()
}

var idNum = regexp.MustCompile(`'\d+\[%`)

// normIDs drops the numbers of '5[%name]' ids, which the assembler picks.
func normIDs(s string) string { return idNum.ReplaceAllString(s, "'[%") }

func runCFGCases(t *testing.T, cases []cfgCase) {
	t.Helper()
	sv := ""
	if p, err := oracle.Path("spirv-val"); err == nil && !testing.Short() {
		sv = p
	}
	if sv == "" {
		t.Log("Debian spirv-val not found: the messages are not compared with it")
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := c.text()
			words := assemble(t, src)
			got := firstError(t, words, c.opts)
			if normIDs(got) != c.want {
				t.Fatalf("got  %q\nwant %q\nmodule:\n%s", got, c.want, src)
			}
			if sv == "" {
				return
			}
			bin := filepath.Join(t.TempDir(), "m.spv")
			buf := make([]byte, 4*len(words))
			for k, w := range words {
				binary.LittleEndian.PutUint32(buf[4*k:], w)
			}
			if err := os.WriteFile(bin, buf, 0o644); err != nil {
				t.Fatal(err)
			}
			_, stderr, ok := oracle.Exec(t, sv, nil, append(append([]string{}, c.args...), bin)...)
			theirs := ""
			if !ok {
				line, _, _ := strings.Cut(string(stderr), "\n")
				if k := strings.Index(line, ": "); strings.HasPrefix(line, "error: line ") && k > 0 {
					if j := strings.Index(line[k+2:], ": "); j >= 0 {
						line = line[k+2+j+2:]
					}
				} else {
					line = strings.TrimPrefix(line, "error: ")
				}
				theirs = line
			}
			ours, _, _ := strings.Cut(got, "\n")
			if theirs != ours {
				if c.older != "" {
					t.Logf("older oracle (%s): spirv-val 2023.1 says %q", c.older, theirs)
					return
				}
				t.Errorf("Debian spirv-val says %q, we say %q", theirs, ours)
			}
		})
	}
}

// A selection whose header is the entry block, and a loop, both valid.
const (
	cfgIfElse = `%entry = OpLabel
OpSelectionMerge %m None
OpBranchConditional %true %a %b
%a = OpLabel
OpBranch %m
%b = OpLabel
OpBranch %m
%m = OpLabel
OpReturn
`
	cfgLoop = `%entry = OpLabel
OpBranch %h
%h = OpLabel
OpLoopMerge %m %c None
OpBranchConditional %true %body %m
%body = OpLabel
OpBranch %c
%c = OpLabel
OpBranch %h
%m = OpLabel
OpReturn
`
)

func TestCFGRules(t *testing.T) {
	nest := func(depth int) string { // selections nested depth deep
		var b strings.Builder
		b.WriteString("%entry = OpLabel\nOpBranch %h0\n")
		for i := 0; i < depth; i++ {
			n := strconv.Itoa(i)
			b.WriteString("%h" + n + " = OpLabel\nOpSelectionMerge %m" + n + " None\nOpBranchConditional %true %h" + strconv.Itoa(i+1) + " %m" + n + "\n")
		}
		b.WriteString("%h" + strconv.Itoa(depth) + " = OpLabel\nOpBranch %m" + strconv.Itoa(depth-1) + "\n")
		for i := depth - 1; i >= 0; i-- {
			b.WriteString("%m" + strconv.Itoa(i) + " = OpLabel\n")
			if i > 0 {
				b.WriteString("OpBranch %m" + strconv.Itoa(i-1) + "\n")
			} else {
				b.WriteString("OpReturn\n")
			}
		}
		return b.String()
	}
	cases := []cfgCase{
		{name: "if-else", body: cfgIfElse},
		{name: "loop", body: cfgLoop},
		{name: "loop, header its own continue target", body: `%entry = OpLabel
OpBranch %h
%h = OpLabel
OpLoopMerge %m %h None
OpBranchConditional %true %h %m
%m = OpLabel
OpReturn
`},
		// FirstBlockAssert.
		{name: "first block targeted", body: `%entry = OpLabel
OpBranch %entry
`, want: "First block '[%entry]' of function '[%main]' is targeted by block '[%entry]'"},
		// MergeBlockAssert.
		{name: "merge block of two headers", body: `%entry = OpLabel
OpSelectionMerge %m None
OpBranchConditional %true %a %m
%a = OpLabel
OpSelectionMerge %m None
OpBranchConditional %true %b %m
%b = OpLabel
OpBranch %m
%m = OpLabel
OpReturn
`, want: "Block '[%m]' is already a merge block for another header"},
		// CfgPass's OpReturn.
		{name: "OpReturn in a void function", body: "%entry = OpLabel\nOpReturn\n"},
		{name: "OpReturn in a non-void function", body: "%entry = OpLabel\nOpReturn\n",
			after: "%f = OpFunction %u32 None %fnu\n%fe = OpLabel\nOpReturn\nOpFunctionEnd\n",
			want:  "OpReturn can only be called from a function with void return type."},
		// Blocks referenced but not defined in the function.
		{name: "branch to another function's block", body: "%entry = OpLabel\nOpBranch %fe\n",
			after: "%f = OpFunction %void None %fn\n%fe = OpLabel\nOpReturn\nOpFunctionEnd\n",
			want:  "Block(s) {'[%fe]'} are referenced but not defined in function '[%main]'"},
		// Block order.
		{name: "block before its dominator", body: `%entry = OpLabel
OpBranch %b2
%b1 = OpLabel
OpReturn
%b2 = OpLabel
OpBranch %b1
`, want: "Block '[%b1]' appears in the binary before its dominator '[%b2]'"},
		{name: "block order, kernel", noShader: true, body: `%entry = OpLabel
OpBranch %b2
%b1 = OpLabel
OpReturn
%b2 = OpLabel
OpBranch %b1
`, want: "Block '[%b1]' appears in the binary before its dominator '[%b2]'"},
		{name: "unreachable block anywhere", body: `%entry = OpLabel
OpReturn
%dead = OpLabel
OpBranch %entry2
%entry2 = OpLabel
OpReturn
`},
		// Nesting depth.
		{name: "nesting depth at the limit", body: nest(2), opts: Options{Limits: Limits{MaxControlFlowNestingDepth: 2}},
			args: []string{"--max-control-flow-nesting-depth", "2"}},
		{name: "nesting depth over the limit", body: nest(3), opts: Options{Limits: Limits{MaxControlFlowNestingDepth: 2}},
			args: []string{"--max-control-flow-nesting-depth", "2"}, want: "Maximum Control Flow nesting depth exceeded."},
		// Back-edges.
		{name: "back-edge to a non-loop block", body: `%entry = OpLabel
OpBranch %a
%a = OpLabel
OpSelectionMerge %m None
OpBranchConditional %true %a %m
%m = OpLabel
OpReturn
`, want: "Back-edges ('[%a]' -> '[%a]') can only be formed between a block and a loop header."},
		{name: "loop header without back-edge", body: `%entry = OpLabel
OpBranch %h
%h = OpLabel
OpLoopMerge %m %c None
OpBranch %c
%c = OpLabel
OpBranch %m
%m = OpLabel
OpReturn
`, want: "Loop header '[%h]' is targeted by 0 back-edge blocks but the standard requires exactly one"},
		{name: "loop header with two back-edges", body: `%entry = OpLabel
OpBranch %h
%h = OpLabel
OpLoopMerge %m %c None
OpBranchConditional %true %body %m
%body = OpLabel
OpSelectionMerge %c None
OpBranchConditional %true %h %c
%c = OpLabel
OpBranch %h
%m = OpLabel
OpReturn
`, want: "Loop header '[%h]' is targeted by 2 back-edge blocks but the standard requires exactly one"},
		// Construct dominance.
		{name: "selection header does not dominate its merge", body: `%entry = OpLabel
OpSelectionMerge %m0 None
OpBranchConditional %true %h %x
%h = OpLabel
OpSelectionMerge %m None
OpBranchConditional %true %a %m
%a = OpLabel
OpBranch %m
%x = OpLabel
OpBranch %m
%m = OpLabel
OpBranch %m0
%m0 = OpLabel
OpReturn
`, want: "The selection construct with the selection header '[%h]' does not structurally dominate the merge block '[%m]'"},
		{name: "selection header its own merge", body: `%entry = OpLabel
OpBranch %h
%h = OpLabel
OpSelectionMerge %h None
OpBranchConditional %true %a %b
%a = OpLabel
OpReturn
%b = OpLabel
OpReturn
`, want: "The selection construct with the selection header '[%h]' does not strictly structurally dominate the merge block '[%h]'"},
		{name: "continue target not post-dominated by the back-edge block", body: `%entry = OpLabel
OpBranch %h
%h = OpLabel
OpLoopMerge %m %c None
OpBranchConditional %true %c %m
%c = OpLabel
OpBranchConditional %true %l %m
%l = OpLabel
OpBranch %h
%m = OpLabel
OpReturn
`, want: "The continue construct with the continue target '[%c]' is not structurally post dominated by the back-edge block '[%l]'"},
		// Construct exits and entries.
		{name: "exit from a selection not via a structured exit", body: `%entry = OpLabel
OpSelectionMerge %m0 None
OpBranchConditional %true %h %x
%h = OpLabel
OpSelectionMerge %m None
OpBranchConditional %true %a %m
%a = OpLabel
OpBranch %x
%m = OpLabel
OpBranch %m0
%x = OpLabel
OpBranch %m0
%m0 = OpLabel
OpReturn
`, want: "block <ID> '[%a]' exits the selection headed by <ID> '[%h]', but not via a structured exit"},
		{name: "break and continue from a selection in a loop", body: `%entry = OpLabel
OpBranch %h
%h = OpLabel
OpLoopMerge %m %c None
OpBranch %s
%s = OpLabel
OpSelectionMerge %sm None
OpBranchConditional %true %brk %cont
%brk = OpLabel
OpBranch %m
%cont = OpLabel
OpBranch %c
%sm = OpLabel
OpBranch %c
%c = OpLabel
OpBranch %h
%m = OpLabel
OpReturn
`},
		{name: "branch into a selection", body: `%entry = OpLabel
OpSelectionMerge %m None
OpBranchConditional %true %a %m
%a = OpLabel
OpBranch %m
%m = OpLabel
OpSelectionMerge %m2 None
OpBranchConditional %true %a2 %m2
%a2 = OpLabel
OpBranch %m2
%m2 = OpLabel
OpReturn
`},
		{name: "branch into a selection past its header", body: `%entry = OpLabel
OpSelectionMerge %m None
OpBranchConditional %true %a %m
%a = OpLabel
OpBranch %x
%m = OpLabel
OpBranch %x
%x = OpLabel
OpReturn
`, want: "block <ID> 4 branches to the selection construct, but not to the selection header <ID> 2"},
		{name: "branch to a continue target from outside the loop", body: `%entry = OpLabel
OpBranch %h
%h = OpLabel
OpLoopMerge %m %c None
OpBranchConditional %true %body %m
%body = OpLabel
OpBranch %c
%c = OpLabel
OpBranch %h
%m = OpLabel
OpBranch %c
`, want: "Block '[%m]' branches to the loop continue target '[%c]', but is not contained in the associated loop construct '[%h]'"},
		{name: "header in a loop whose merge is not", body: `%entry = OpLabel
OpBranch %h
%h = OpLabel
OpLoopMerge %m %c None
OpBranch %b
%b = OpLabel
OpSelectionMerge %c None
OpBranchConditional %true %x %c
%x = OpLabel
OpBranch %c
%c = OpLabel
OpBranch %h
%m = OpLabel
OpReturn
`, want: "Header block '[%b]' is contained in the loop construct headed by '[%h]', but its merge block '[%c]' is not"},
		// Switches.
		{name: "switch with fall-through in order", body: `%entry = OpLabel
OpSelectionMerge %m None
OpSwitch %c0 %m 0 %a 1 %b
%a = OpLabel
OpBranch %b
%b = OpLabel
OpBranch %m
%m = OpLabel
OpReturn
`},
		{name: "switch fall-through out of order", body: `%entry = OpLabel
OpSelectionMerge %m None
OpSwitch %c0 %m 0 %b 1 %a
%a = OpLabel
OpBranch %b
%b = OpLabel
OpBranch %m
%m = OpLabel
OpReturn
`, want: "Case construct that targets '[%a]' has branches to the case construct that targets '[%b]', but does not immediately precede it in the OpSwitch's target list"},
		{name: "case branching to two cases", body: `%entry = OpLabel
OpSelectionMerge %m None
OpSwitch %c0 %m 0 %a 1 %b 2 %d
%a = OpLabel
OpBranchConditional %true %b %d
%b = OpLabel
OpBranch %m
%d = OpLabel
OpBranch %m
%m = OpLabel
OpReturn
`, want: "Case construct that targets '[%a]' has branches to multiple other case construct targets '[%d]' and '[%b]'"},
		{name: "two cases falling into one", body: `%entry = OpLabel
OpSelectionMerge %m None
OpSwitch %c0 %m 0 %a 1 %b 2 %d
%a = OpLabel
OpBranch %d
%b = OpLabel
OpBranch %d
%d = OpLabel
OpBranch %m
%m = OpLabel
OpReturn
`, want: "Case construct that targets '[%a]' has branches to the case construct that targets '[%d]', but does not immediately precede it in the OpSwitch's target list"},
		{name: "case branching to a shared block", body: `%entry = OpLabel
OpSelectionMerge %m None
OpSwitch %c0 %m 0 %a 1 %b
%a = OpLabel
OpBranch %y
%b = OpLabel
OpBranch %y
%y = OpLabel
OpBranch %m
%m = OpLabel
OpReturn
`, want: "Case construct that targets '[%a]' has invalid branch to block '[%y]' (not another case construct, corresponding merge, outer loop merge or outer loop continue)"},
		{name: "case breaking to the enclosing loop's merge and continue", body: `%entry = OpLabel
OpBranch %h
%h = OpLabel
OpLoopMerge %lm %c None
OpBranch %s
%s = OpLabel
OpSelectionMerge %m None
OpSwitch %c0 %m 0 %a 1 %b
%a = OpLabel
OpBranch %lm
%b = OpLabel
OpBranch %c
%m = OpLabel
OpBranch %c
%c = OpLabel
OpBranch %h
%lm = OpLabel
OpReturn
`},
		{name: "switch without a merge", body: `%entry = OpLabel
OpSwitch %c0 %m 0 %a
%a = OpLabel
OpBranch %m
%m = OpLabel
OpReturn
`, want: "OpSwitch must be preceded by an OpSelectionMerge instruction"},
		// MaximalReconvergenceChecks.
		{name: "maximal reconvergence, if-else", maximal: true, body: cfgIfElse, older: "no SPV_KHR_maximal_reconvergence"},
		{name: "maximal reconvergence, loop", maximal: true, body: cfgLoop, older: "no SPV_KHR_maximal_reconvergence"},
		{name: "maximal reconvergence, join outside a merge", maximal: true, body: `%entry = OpLabel
OpSelectionMerge %m None
OpBranchConditional %true %a %b
%a = OpLabel
OpBranch %x
%b = OpLabel
OpBranch %x
%x = OpLabel
OpBranch %m
%m = OpLabel
OpReturn
`, want: "In entry points using the MaximallyReconvergesKHR execution mode, this basic block must not have multiple unique predecessors",
			older: "no SPV_KHR_maximal_reconvergence"},
		{name: "join outside a merge without maximal reconvergence", body: `%entry = OpLabel
OpSelectionMerge %m None
OpBranchConditional %true %a %b
%a = OpLabel
OpBranch %x
%b = OpLabel
OpBranch %x
%x = OpLabel
OpBranch %m
%m = OpLabel
OpReturn
`},
		// ValidateStructuredSelections.
		{name: "unstructured conditional branch", body: `%entry = OpLabel
OpBranchConditional %true %a %b
%a = OpLabel
OpReturn
%b = OpLabel
OpReturn
`, want: "Selection must be structured"},
		{name: "conditional branch to a merge needs no merge", body: `%entry = OpLabel
OpSelectionMerge %m None
OpBranchConditional %true %a %m
%a = OpLabel
OpBranchConditional %true %m %b
%b = OpLabel
OpBranch %m
%m = OpLabel
OpReturn
`},
		{name: "unstructured branch, kernel", noShader: true, body: `%entry = OpLabel
OpBranchConditional %true %a %b
%a = OpLabel
OpReturn
%b = OpLabel
OpReturn
`},
	}
	runCFGCases(t, cases)
}

func TestAdjacencyRules(t *testing.T) {
	const ptr = "%pf = OpTypePointer Function %u32\n"
	runCFGCases(t, []cfgCase{
		{name: "OpPhi after OpLine", body: `%entry = OpLabel
OpBranch %b
%b = OpLabel
OpNoLine
%p = OpPhi %u32 %c0 %entry
OpReturn
`},
		{name: "OpPhi in the entry block", body: `%entry = OpLabel
%p = OpPhi %u32
OpReturn
`, want: "OpPhi must appear within a non-entry block before all non-OpPhi instructions (except for OpLine, which can be mixed with OpPhi)."},
		{name: "OpPhi after another instruction", body: `%entry = OpLabel
OpBranch %b
%b = OpLabel
%x = OpCopyObject %u32 %c0
%p = OpPhi %u32 %c0 %entry
OpReturn
`, want: "OpPhi must appear within a non-entry block before all non-OpPhi instructions (except for OpLine, which can be mixed with OpPhi)."},
		{name: "variables first in the entry block", more: ptr, body: "%entry = OpLabel\n%v = OpVariable %pf Function\n%w = OpVariable %pf Function\nOpReturn\n"},
		{name: "variable after an instruction", more: ptr, body: "%entry = OpLabel\n%x = OpCopyObject %u32 %c0\n%v = OpVariable %pf Function\nOpReturn\n",
			want: "All OpVariable instructions in a function must be the first instructions in the first block."},
		{name: "variable in a later block", more: ptr, body: "%entry = OpLabel\nOpBranch %b\n%b = OpLabel\n%v = OpVariable %pf Function\nOpReturn\n",
			want: "All OpVariable instructions in a function must be the first instructions in the first block."},
		{name: "selection merge before OpBranch", body: "%entry = OpLabel\nOpSelectionMerge %m None\nOpBranch %m\n%m = OpLabel\nOpReturn\n",
			want: "OpSelectionMerge must immediately precede either an OpBranchConditional or OpSwitch instruction. OpSelectionMerge must be the second-to-last instruction in its block."},
		{name: "loop merge not before a branch", body: `%entry = OpLabel
OpBranch %h
%h = OpLabel
OpLoopMerge %m %h None
%x = OpCopyObject %u32 %c0
OpBranchConditional %true %h %m
%m = OpLabel
OpReturn
`, want: "OpLoopMerge must immediately precede either an OpBranch or OpBranchConditional instruction. OpLoopMerge must be the second-to-last instruction in its block."},
	})
}

func TestFunctionRules(t *testing.T) {
	const ptrs = `%st = OpTypeStruct %u32
%pst = OpTypePointer Function %st
%pf = OpTypePointer Function %u32
%psb = OpTypePointer StorageBuffer %u32
%pin = OpTypePointer Input %u32
%fnpf = OpTypeFunction %void %pf
%fnpsb = OpTypeFunction %void %psb
%fnpin = OpTypeFunction %void %pin
%fnp = OpTypeFunction %void %u32
%sb = OpVariable %psb StorageBuffer
%in = OpVariable %pin Input
`
	callee := func(name, typ string) string {
		return "%" + name + " = OpFunction %void None " + typ + "\n%" + name + "p = OpFunctionParameter " + map[string]string{
			"%fnpf": "%pf", "%fnpsb": "%psb", "%fnpin": "%pin", "%fnp": "%u32"}[typ] + "\n%" + name + "e = OpLabel\nOpReturn\nOpFunctionEnd\n"
	}
	cases := []cfgCase{
		{name: "function and parameter", more: ptrs, body: "%entry = OpLabel\n%r = OpFunctionCall %void %g %c0\nOpReturn\n", after: callee("g", "%fnp")},
		{name: "function type not a function type", body: "%entry = OpLabel\nOpReturn\n",
			after: "%f = OpFunction %void None %u32\n%fe = OpLabel\nOpReturn\nOpFunctionEnd\n",
			want:  "OpFunction Function Type <id> '[%uint]' is not a function type."},
		{name: "function result type not the type's", body: "%entry = OpLabel\nOpReturn\n",
			after: "%f = OpFunction %u32 None %fn\n%fe = OpLabel\nOpUnreachable\nOpFunctionEnd\n",
			want:  "OpFunction Result Type <id> '[%uint]' does not match the Function Type's return type <id> '[%void]'."},
		{name: "function id used as a value", body: "%entry = OpLabel\nOpReturn\n",
			after: "%f = OpFunction %void None %fn\n%fe = OpLabel\nOpReturn\nOpFunctionEnd\n" +
				"%g = OpFunction %void None %fn\n%ge = OpLabel\n%x = OpCopyObject %void %f\nOpReturn\nOpFunctionEnd\n",
			want: "Invalid use of function result id '[%f]'."},
		{name: "too many parameters", body: "%entry = OpLabel\nOpReturn\n",
			after: "%f = OpFunction %void None %fn\n%p = OpFunctionParameter %u32\n%fe = OpLabel\nOpReturn\nOpFunctionEnd\n",
			want:  "Too many OpFunctionParameters for 3: expected 0 based on the function's type"},
		{name: "parameter type not the type's", more: ptrs, body: "%entry = OpLabel\nOpReturn\n",
			after: "%f = OpFunction %void None %fnp\n%p = OpFunctionParameter %bool\n%fe = OpLabel\nOpReturn\nOpFunctionEnd\n",
			want:  "OpFunctionParameter Result Type <id> '[%bool]' does not match the OpTypeFunction parameter type of the same index."},
		{name: "Function pointer argument", more: ptrs, body: "%entry = OpLabel\n%v = OpVariable %pf Function\n%r = OpFunctionCall %void %g %v\nOpReturn\n",
			after: callee("g", "%fnpf")},
		{name: "StorageBuffer pointer argument without variable pointers", more: ptrs, body: "%entry = OpLabel\n%r = OpFunctionCall %void %g %sb\nOpReturn\n",
			after: callee("g", "%fnpsb"), want: "StorageBuffer pointer operand '[%sb]' requires a variable pointers capability"},
		{name: "StorageBuffer pointer argument with variable pointers", caps: "VariablePointersStorageBuffer", more: ptrs, iface: " %sb %in",
			body: "%entry = OpLabel\n%r = OpFunctionCall %void %g %sb\nOpReturn\n", after: callee("g", "%fnpsb")},
		{name: "Input pointer argument", more: ptrs, body: "%entry = OpLabel\n%r = OpFunctionCall %void %g %in\nOpReturn\n",
			after: callee("g", "%fnpin"), want: "Invalid storage class for pointer operand '[%in]'"},
		{name: "pointer argument not a memory object declaration", more: ptrs,
			body:  "%entry = OpLabel\n%v = OpVariable %pst Function\n%ac = OpAccessChain %pf %v %c0\n%r = OpFunctionCall %void %g %ac\nOpReturn\n",
			after: callee("g", "%fnpf"), want: "Pointer operand '[%ac]' must be a memory object declaration"},
	}
	runCFGCases(t, cases)
}

// cfgGen writes random structured control flow: sequences of plain
// blocks, if/else, loops (with breaks and continues) and switches (with
// fall-through), nested.
type cfgGen struct {
	r      *rand.Rand
	b      strings.Builder
	labels int
	lines  []int // line indexes of branch and merge instructions
	text   []string
}

func (g *cfgGen) label() string { g.labels++; return "%l" + strconv.Itoa(g.labels) }

func (g *cfgGen) emit(s string, branch bool) {
	if branch {
		g.lines = append(g.lines, len(g.text))
	}
	g.text = append(g.text, s)
}

// region emits statements into the open block and leaves a block open.
// loopMerge/loopCont are the innermost loop's, "" outside loops.
func (g *cfgGen) region(depth int, loopMerge, loopCont string) {
	for n := g.r.IntN(3); n >= 0; n-- {
		k := g.r.IntN(6)
		if depth <= 0 {
			k = 0
		}
		switch k {
		case 0: // a plain block
			next := g.label()
			g.emit("OpBranch "+next, true)
			g.emit(next+" = OpLabel", false)
		case 1: // if / if-else
			t, m := g.label(), g.label()
			f := m
			if g.r.IntN(2) == 0 {
				f = g.label()
			}
			g.emit("OpSelectionMerge "+m+" None", true)
			g.emit("OpBranchConditional %true "+t+" "+f, true)
			g.emit(t+" = OpLabel", false)
			g.region(depth-1, loopMerge, loopCont)
			g.emit("OpBranch "+m, true)
			if f != m {
				g.emit(f+" = OpLabel", false)
				g.region(depth-1, loopMerge, loopCont)
				g.emit("OpBranch "+m, true)
			}
			g.emit(m+" = OpLabel", false)
		case 2, 3: // a loop
			h, body, c, m := g.label(), g.label(), g.label(), g.label()
			g.emit("OpBranch "+h, true)
			g.emit(h+" = OpLabel", false)
			g.emit("OpLoopMerge "+m+" "+c+" None", true)
			g.emit("OpBranchConditional %true "+body+" "+m, true)
			g.emit(body+" = OpLabel", false)
			g.region(depth-1, m, c)
			g.emit("OpBranch "+c, true)
			g.emit(c+" = OpLabel", false)
			g.emit("OpBranch "+h, true)
			g.emit(m+" = OpLabel", false)
		case 4: // a switch, cases falling through sometimes
			m := g.label()
			cases := make([]string, 1+g.r.IntN(3))
			for j := range cases {
				cases[j] = g.label()
			}
			sw := "OpSwitch %c0 " + m
			for j, c := range cases {
				sw += " " + strconv.Itoa(j) + " " + c
			}
			g.emit("OpSelectionMerge "+m+" None", true)
			g.emit(sw, true)
			for j, c := range cases {
				g.emit(c+" = OpLabel", false)
				g.region(depth-1, loopMerge, loopCont)
				if j+1 < len(cases) && g.r.IntN(3) == 0 {
					g.emit("OpBranch "+cases[j+1], true)
				} else {
					g.emit("OpBranch "+m, true)
				}
			}
			g.emit(m+" = OpLabel", false)
		case 5: // break or continue, inside a loop
			if loopMerge == "" {
				continue
			}
			to := loopMerge
			if g.r.IntN(2) == 0 {
				to = loopCont
			}
			next := g.label()
			g.emit("OpBranchConditional %true "+to+" "+next, true)
			g.emit(next+" = OpLabel", false)
		}
	}
}

var labelRef = regexp.MustCompile(`%l\d+`)

// TestCFGDifferential compares our verdict, first message and its line
// with Debian spirv-val's on random structured functions: a quarter as
// generated, half with one branch or merge operand retargeted, a quarter
// with a merge instruction dropped or a block moved. SPVX_CFG_DIFF=n
// runs n modules, SPVX_CFG_SEED another seed (6,000 modules over two
// seeds agreed when this was written, the older-oracle rules apart).
func TestCFGDifferential(t *testing.T) {
	sv := oracle.Require(t, "spirv-val")
	seed := uint64(11)
	if n, err := strconv.ParseUint(os.Getenv("SPVX_CFG_SEED"), 10, 64); err == nil {
		seed = n
	}
	r := rand.New(rand.NewPCG(seed, 12))
	dir := t.TempDir()
	total := 300
	if n, err := strconv.Atoi(os.Getenv("SPVX_CFG_DIFF")); err == nil {
		total = n // a longer run on demand
	}
	agree, older := 0, 0
	for k := 0; k < total; k++ {
		src := randomCFG(r, k)
		words := assemble(t, src)
		m, err := spirv.DecodeWords(words)
		if err != nil {
			t.Fatal(err)
		}
		ours, line, afterLoopMerge := "", 0, false
		if err := Validate(m, Options{}); err != nil {
			e := err.(ErrorList)[0]
			ours, _, _ = strings.Cut(e.Error(), "\n")
			line = e.Line()
			afterLoopMerge = e.Inst > 0 && m.Inst(e.Inst-1).Opcode == spirv.OpLoopMerge
		}
		bin := filepath.Join(dir, "m.spv")
		buf := make([]byte, 4*len(words))
		for j, w := range words {
			binary.LittleEndian.PutUint32(buf[4*j:], w)
		}
		if err := os.WriteFile(bin, buf, 0o644); err != nil {
			t.Fatal(err)
		}
		_, stderr, ok := oracle.Exec(t, sv, nil, bin)
		theirs := ""
		if !ok {
			theirs, _, _ = strings.Cut(string(stderr), "\n")
		}
		want := ""
		if ours != "" {
			want = "error: line " + strconv.Itoa(line) + ": " + ours
		}
		if want == theirs {
			agree++
			continue
		}
		if strings.Contains(theirs, "branches to the loop continue target") {
			// Older oracle: SPIRV-Tools #5800 (2024) stopped checking
			// structurally unreachable predecessors of a continue target.
			older++
			continue
		}
		if strings.Contains(theirs, "has invalid branch to block") {
			// Older oracle: SPIRV-Tools #5852 (2024) replaced the nesting
			// depth comparison for case exits by the switch construct's
			// structured exits.
			older++
			continue
		}
		if theirs == "" && ours == "Selection must be structured" && afterLoopMerge {
			// Older oracle: SPIRV-Tools #5069 (2023) requires a loop
			// header's conditional branch to have the merge or continue
			// target as one of its targets.
			older++
			continue
		}
		t.Errorf("module %d:\n\tours   %s\n\ttheirs %s\n%s", k, want, theirs, src)
	}
	t.Logf("%d of %d random CFGs agree with Debian spirv-val; %d differ by a rule newer than it", agree, total, older)
}

// randomCFG is a random structured function (cfgGen), in one of four
// cases by k: as generated, with a branch or merge operand retargeted,
// with a merge instruction dropped or a block moved, retargeted again.
func randomCFG(r *rand.Rand, k int) string {
	g := &cfgGen{r: r}
	g.emit("%l0 = OpLabel", false)
	g.region(4, "", "")
	g.emit("OpReturn", false)
	switch k % 4 {
	case 1, 3: // retarget a branch or merge operand
		if len(g.lines) == 0 {
			break
		}
		line := g.lines[r.IntN(len(g.lines))]
		refs := labelRef.FindAllStringIndex(g.text[line], -1)
		if len(refs) > 0 {
			ref := refs[r.IntN(len(refs))]
			s := g.text[line]
			g.text[line] = s[:ref[0]] + "%l" + strconv.Itoa(r.IntN(g.labels+1)) + s[ref[1]:]
		}
	case 2: // drop a merge instruction, or move a block elsewhere
		if r.IntN(2) == 0 {
			var merges []int
			for j, l := range g.text {
				if strings.HasPrefix(l, "OpSelectionMerge") || strings.HasPrefix(l, "OpLoopMerge") {
					merges = append(merges, j)
				}
			}
			if len(merges) > 0 {
				j := merges[r.IntN(len(merges))]
				g.text = append(g.text[:j], g.text[j+1:]...)
			}
			break
		}
		var starts []int
		for j, l := range g.text {
			if j > 0 && strings.HasSuffix(l, "= OpLabel") {
				starts = append(starts, j)
			}
		}
		if len(starts) < 2 {
			break
		}
		x := r.IntN(len(starts))
		end := len(g.text)
		if x+1 < len(starts) {
			end = starts[x+1]
		}
		blk := append([]string(nil), g.text[starts[x]:end]...)
		rest := append(append([]string(nil), g.text[:starts[x]]...), g.text[end:]...)
		var at []int
		for j, l := range rest {
			if j > 0 && strings.HasSuffix(l, "= OpLabel") {
				at = append(at, j)
			}
		}
		at = append(at, len(rest))
		y := at[r.IntN(len(at))]
		g.text = append(append(append([]string(nil), rest[:y]...), blk...), rest[y:]...)
	}
	return cfgCase{body: strings.Join(g.text, "\n") + "\n"}.text()
}

// FuzzCFG: the control-flow modules of the tests above and random
// structured functions, mutated by the fuzzer, are validated (with and
// without --all) without panicking.
func FuzzCFG(f *testing.F) {
	for _, body := range []string{cfgIfElse, cfgLoop} {
		f.Add(wordsToBytes(assembleF(f, cfgCase{body: body}.text())))
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 20 {
		g := &cfgGen{r: r}
		g.emit("%l0 = OpLabel", false)
		g.region(4, "", "")
		g.emit("OpReturn", false)
		f.Add(wordsToBytes(assembleF(f, cfgCase{body: strings.Join(g.text, "\n") + "\n"}.text())))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := spirv.Decode(b)
		if err != nil {
			return
		}
		_ = Validate(m, Options{})
		_ = Validate(m, Options{All: true})
	})
}
