package val

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"spvx/spirv"
)

// gateModules are modules whose declarations the synthetic instructions
// of TestPassGateCoversPasses refer to: ray tracing, mesh shading,
// cooperative matrices, tensors, graphs, untyped pointers, kernels.
var gateModules = []string{
	"glsl_rchit__hit.spvasm",
	"glsl_mesh__mesh.spvasm",
	"khr_cooperative_matrix__muladd.spvasm",
	"arm_tensor__readwrite.spvasm",
	"arm_graph__graph.spvasm",
	"nv_tensor_addressing__layout.spvasm",
	"khr_untyped_pointers__opencl_kernel.spvasm",
	"mx_conversions__fp8.spvasm",
}

// gateState validates the module of gateModules[k] far enough to give
// the second loop's shared state, and returns it with the index of an
// instruction inside a function.
func gateState(t *testing.T, name string) (*state, int) {
	t.Helper()
	return gateStateIn(t, name, Options{})
}

// gateStateIn is gateState under opts.
func gateStateIn(t *testing.T, name string, opts Options) (*state, int) {
	t.Helper()
	text, err := os.ReadFile(filepath.Join(ownModulesDir, name))
	if err != nil {
		t.Fatal(err)
	}
	m := assembleModule(t, string(text))
	s := &state{shared: &shared{m: m, opts: opts, lim: opts.Limits.withDefaults(), exts: map[string]bool{}, sampled: &sharedSampled{}}}
	s.run()
	s.useList.once.Do(func() {})
	if s.x == nil {
		t.Fatalf("%s: not indexed (%v)", name, s.errs)
	}
	s.prepareShared()
	s.errs, s.limits = nil, nil
	if len(s.x.Functions) == 0 {
		return s, m.Len() - 1 // a graph module
	}
	return s, s.x.Functions[0].Start + 1
}

// gateIDs picks operand values: 0, 1, and the first id each defining
// opcode of m gives, so that an operand can name a type, a constant, a
// variable, a function, a label and so on of every kind m has.
func gateIDs(s *state) []uint32 {
	vals := []uint32{0, 1}
	seen := map[spirv.Opcode]bool{}
	for i := 0; i < s.m.Len(); i++ {
		in := s.m.Inst(i)
		if in.ResultID != 0 && !seen[in.Opcode] {
			seen[in.Opcode] = true
			vals = append(vals, in.ResultID)
		}
	}
	return vals
}

// synthInsts gives instructions of opcode op with 0, 1, 2, 4 and 7 operand words,
// every word (Result Type and operands) v; a Result <id> is a fresh id.
func synthInsts(op spirv.Opcode, v, fresh uint32) []spirv.Instruction {
	info := op.Info()
	hasType := len(info.Operands) > 0 && info.Operands[0].Kind == spirv.OperandKindIdResultType
	var out []spirv.Instruction
	for _, n := range []int{0, 1, 2, 4, 7} {
		in := spirv.Instruction{Opcode: op, Words: make([]uint32, n+1)}
		in.Words[0] = uint32(n+1)<<16 | uint32(op)
		for w := 1; w <= n; w++ {
			in.Words[w] = v
			kind := spirv.OperandKindIdRef
			k := w - 1
			switch {
			case k < len(info.Operands) && info.Operands[k].Kind == spirv.OperandKindIdResult:
				kind, in.Words[w], in.ResultID = spirv.OperandKindIdResult, fresh, fresh
			case k == 0 && hasType:
				kind, in.TypeID = spirv.OperandKindIdResultType, v
			}
			in.Operands = append(in.Operands, spirv.Operand{Kind: kind, Offset: uint16(w), Count: 1})
		}
		out = append(out, in)
	}
	return out
}

// gateMisses runs each gated pass on synthetic instructions of every
// opcode the grammar knows outside its predicate, and names, by pass,
// those it did something with: returned true, recorded an error or a
// limitation, or wrote any other scratch state.
func gateMisses(s *state, at int, passes []secondLoopPass) map[int][]string {
	misses := map[int][]string{}
	vals, fresh := gateIDs(s), s.m.Header.Bound
	f := s.fork()
	for _, info := range spirv.Instructions() {
		missed := map[int]bool{}
		for _, v := range vals {
			for _, in := range synthInsts(info.Opcode, v, fresh) {
				for k, p := range passes {
					if p.ops == nil || p.ops(info.Opcode) || missed[k] {
						continue
					}
					f.scratch = scratch{}
					if acted := gateRun(f, at, p.run, &in); acted || !reflect.ValueOf(f.scratch).IsZero() {
						missed[k] = true
						misses[k] = append(misses[k], fmt.Sprintf("%s (%d words, value %d)", info.Name, len(in.Words), v))
					}
				}
			}
		}
	}
	return misses
}

// gateRun runs a pass, a panic counting as acting on the instruction.
func gateRun(f *state, at int, run func(*state, int, *spirv.Instruction) bool, in *spirv.Instruction) (acted bool) {
	defer func() {
		if recover() != nil {
			acted = true
		}
	}()
	return run(f, at, in)
}

// TestPassGateCoversPasses: each gated pass of the second loop does
// nothing with an instruction whose opcode its predicate leaves out, so
// passGate skipping it changes no verdict; in the universal and a Vulkan
// environment, whose rules differ.
func TestPassGateCoversPasses(t *testing.T) {
	for _, env := range []Env{EnvUniversal1_6, EnvVulkan1_3} {
		for _, name := range gateModules {
			s, at := gateStateIn(t, name, Options{Env: env})
			for k, misses := range gateMisses(s, at, secondLoopPasses[:]) {
				t.Errorf("%s, env %d: pass %d acts on opcodes its gate leaves out: %v", name, env, k, misses)
			}
		}
	}
}

// TestPassGateMissesSeen: the check above finds an opcode missing from a
// pass's predicate.
func TestPassGateMissesSeen(t *testing.T) {
	s, at := gateState(t, gateModules[0])
	narrowed := func(op spirv.Opcode) bool { return op != spirv.OpStore && memoryOps(op) }
	misses := gateMisses(s, at, []secondLoopPass{{(*state).memoryPass, narrowed}})[0]
	if len(misses) != 1 || misses[0][:len("OpStore ")] != "OpStore " {
		t.Fatalf("memoryPass without OpStore in its gate: misses %v, want OpStore alone", misses)
	}
}

// TestPassGateKeepsOrder: the gate of an opcode lists, in order, the
// ungated passes and those whose predicate takes it.
func TestPassGateKeepsOrder(t *testing.T) {
	for _, op := range []spirv.Opcode{spirv.OpLoad, spirv.OpSpecConstantOp, spirv.OpLabel, spirv.Opcode(0xFFFF)} {
		g := passesFor(op)
		for k, p := range secondLoopPasses {
			want := p.ops == nil || op.Info() == nil || p.ops(op)
			if got := g&(1<<k) != 0; got != want {
				t.Errorf("%v: pass %d gated %v, want %v", op, k, got, want)
			}
		}
	}
}
