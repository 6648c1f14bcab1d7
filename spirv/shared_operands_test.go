package spirv

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"testing"
)

// decodeGeneral decodes words with no shared operand lists, so that every
// instruction goes through the general, grammar-walking path.
func decodeGeneral(words []uint32) (*Module, error) {
	m := new(Module)
	if err := m.decodeWords(words, noSharedOperands, DecodeOptions{}); err != nil {
		return nil, err
	}
	return m, nil
}

// TestSharedOperandsMatchGeneralPath: the shared operand lists give every
// instruction exactly the operands, result ids and errors the general path
// gives, and Result Type / Result read back by Inst match what the
// decoder saw (the Reader keeps the decoder's own values).
func TestSharedOperandsMatchGeneralPath(t *testing.T) {
	inputs := map[string][]byte{"narrow": bytesOf(narrowModule())}
	files, _ := filepath.Glob("../examples/*.spv")
	corpus, _ := filepath.Glob(filepath.Join(sharedDir, "corpus/valid/*.spv"))
	if len(corpus) == 0 {
		t.Logf("corpus not found under %s: checking the examples only", sharedDir)
	}
	files = append(files, corpus...)
	for _, f := range files {
		inputs[filepath.Base(f)] = readFile(t, f)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	shared := 0
	for name, b := range inputs {
		words, _, err := wordsOf(b)
		if err != nil {
			t.Fatal(err)
		}
		fast, err := DecodeWords(words)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		general, err := decodeGeneral(words)
		if err != nil {
			t.Fatalf("%s: general path: %v", name, err)
		}
		if !reflect.DeepEqual(collectInsts(fast), collectInsts(general)) {
			t.Errorf("%s: shared operand lists and the general path disagree", name)
		}
		streamed, err := readAll(t, b)
		if err != nil {
			t.Fatalf("%s: reader: %v", name, err)
		}
		for i, in := range fast.All() {
			if in.TypeID != streamed[i].TypeID || in.ResultID != streamed[i].ResultID {
				t.Fatalf("%s: instruction %d (%v): type/result %d/%d, decoder saw %d/%d",
					name, i, in.Opcode, in.TypeID, in.ResultID, streamed[i].TypeID, streamed[i].ResultID)
			}
		}
		for i := range fast.insts {
			if fast.insts[i].flags&recordShared != 0 {
				shared++
			}
		}
		// Damaged copies fail the same way on both paths.
		for range 5 {
			bad := append([]uint32(nil), words...)
			bad[5+rng.IntN(len(bad)-5)] ^= 1 << rng.IntN(32)
			_, err1 := DecodeWords(bad)
			_, err2 := decodeGeneral(bad)
			if fmt.Sprint(err1) != fmt.Sprint(err2) {
				t.Errorf("%s damaged: shared path %v, general path %v", name, err1, err2)
			}
		}
	}
	if shared == 0 {
		t.Error("no instruction used a shared operand list")
	}
}

// TestSharedListShapes pins the lists of a few instructions.
func TestSharedListShapes(t *testing.T) {
	lists := sharedOperands()
	cases := []struct {
		op       Opcode
		min, max int // operand words accepted; 0, 0 for none
	}{
		{OpIAdd, 4, 4},
		{OpLoad, 3, 3},  // Memory Operands absent
		{OpStore, 2, 2}, // likewise
		{OpAccessChain, 3, 3 + maxSharedVariadic},
		{OpFunctionCall, 3, 3 + maxSharedVariadic},
		{OpVariable, 0, 0}, // Storage Class is not an id
		{OpExtInst, 0, 0},  // the instruction number is a literal
		{OpPhi, 2, 2},      // only without pairs, which are composites
		{OpConstant, 0, 0}, // a literal number
		{OpReturn, 0, 0},   // no operands at all
		{OpTypeStruct, 1, 1 + maxSharedVariadic},
	}
	for _, c := range cases {
		l := lists.byInst[opcodeIndex[c.op]]
		if got := [2]int{int(l.min), int(l.max)}; got != [2]int{c.min, c.max} {
			t.Errorf("%v: shared list accepts %d..%d words, want %d..%d", c.op, got[0], got[1], c.min, c.max)
		}
		ops, _ := lists.lookup(c.op, c.max)
		for k, o := range ops {
			if o.Offset != uint16(k+1) || o.Count != 1 || operandKinds[o.Kind].Category != CategoryID {
				t.Errorf("%v: operand %d = %+v", c.op, k, o)
			}
		}
	}
	if ops, _ := lists.lookup(OpIAdd, 4); ops[1].Kind != OperandKindIdResult {
		t.Errorf("OpIAdd operand 1 kind %v", ops[1].Kind)
	}
}

// TestConcurrentReads decodes and reads modules from several goroutines at
// once, so that go test -race checks the shared operand lists and the
// instruction views. The shared module's index is built by the goroutines,
// not before: its first use is concurrent. (The shared operand lists are
// built once per process, usually by an earlier test:
// TestFirstUseInFreshProcess covers their concurrent first use.)
func TestConcurrentReads(t *testing.T) {
	b := bytesOf(narrowModule())
	want, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	wantInsts := collectInsts(want)
	wantIndex := buildIndex(want)
	done := make(chan string, 8)
	indexes := make(chan *Index, 8)
	for g := 0; g < 8; g++ {
		go func() {
			x := want.Index()
			indexes <- x
			m, err := Decode(b)
			switch {
			case err != nil:
				done <- err.Error()
			case !reflect.DeepEqual(collectInsts(m), wantInsts), !reflect.DeepEqual(collectInsts(want), wantInsts):
				done <- "instructions differ"
			case !reflect.DeepEqual(x, wantIndex):
				done <- "index differs"
			default:
				done <- ""
			}
		}()
	}
	for range 8 {
		if msg := <-done; msg != "" {
			t.Error(msg)
		}
		if x := <-indexes; x != want.Index() {
			t.Error("Index built twice")
		}
	}
}
