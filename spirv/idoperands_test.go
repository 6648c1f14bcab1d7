package spirv_test

import (
	"maps"
	"slices"
	"testing"

	"spvx/asm"
	"spvx/spirv"
)

// TestIDOperands: the id operands of each instruction, by the grammar,
// against a hand count: result types in, result ids out, literals and
// enumerants out, scope and semantics ids in, OpExtInst's set in.
func TestIDOperands(t *testing.T) {
	src := `OpCapability Shader
%ext = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%f32 = OpTypeFloat 32
%u32 = OpTypeInt 32 0
%pf = OpTypePointer Function %f32
%one = OpConstant %f32 1
%dev = OpConstant %u32 1
%sem = OpConstant %u32 0
%main = OpFunction %void None %fn
%entry = OpLabel
%v = OpVariable %pf Function
OpStore %v %one
%l = OpLoad %f32 %v Aligned 4
%s = OpExtInst %f32 %ext Sqrt %l
OpMemoryBarrier %dev %sem
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
	// spvx's assembler numbers ids by first appearance: ext 1, main 2,
	// void 3, fn 4, f32 5, u32 6, pf 7, one 8, dev 9, sem 10, entry 11,
	// v 12, l 13, s 14.
	want := map[spirv.Opcode][2][]uint32{ // IDOperands, UsedIDs
		spirv.OpStore:         {{12, 8}, {12, 8}},
		spirv.OpLoad:          {{5, 12}, {12}},
		spirv.OpExtInst:       {{5, 1, 13}, {1, 13}},
		spirv.OpMemoryBarrier: {{9, 10}, {9, 10}},
		spirv.OpVariable:      {{7}, {}},
		spirv.OpEntryPoint:    {{2}, {2}},
		spirv.OpTypePointer:   {{5}, {5}},
		spirv.OpConstant:      {{5}, {}},
	}
	seen := map[spirv.Opcode]bool{}
	for _, in := range m.All() {
		w, ok := want[in.Opcode]
		if !ok || seen[in.Opcode] {
			continue
		}
		seen[in.Opcode] = true
		got, used := []uint32{}, []uint32{}
		for _, id := range in.IDOperands() {
			got = append(got, id)
		}
		for _, id := range in.UsedIDs() {
			used = append(used, id)
		}
		if !slices.Equal(got, w[0]) || !slices.Equal(used, w[1]) {
			t.Errorf("%v: IDOperands %v, UsedIDs %v; want %v and %v", in.Opcode, got, used, w[0], w[1])
		}
		for k, id := range in.IDOperands() {
			if in.Word(k) != id {
				t.Errorf("%v: operand %d is word %d, yielded %d", in.Opcode, k, in.Word(k), id)
			}
		}
	}
	if missing := len(want) - len(seen); missing != 0 {
		t.Errorf("%d opcodes of the table not in the module (seen %v)", missing, slices.Collect(maps.Keys(seen)))
	}
}
