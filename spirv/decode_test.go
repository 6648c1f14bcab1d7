package spirv

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"
)

// w builds an instruction's first word.
func w(op Opcode, count int) uint32 { return uint32(count)<<16 | uint32(op) }

// header returns a module header with the given bound.
func header(bound uint32) []uint32 { return []uint32{MagicNumber, 0x00010600, 0, bound, 0} }

func bytesOf(words []uint32) []byte {
	b := make([]byte, 4*len(words))
	for i, x := range words {
		binary.LittleEndian.PutUint32(b[4*i:], x)
	}
	return b
}

// narrowModule declares every FP encoding and a constant of each, the
// extension instructions spvx is ahead on, and 64-bit switch literals.
func narrowModule() []uint32 {
	m := header(100)
	m = append(m,
		w(OpCapability, 2), uint32(CapabilityFloat4EXT),
		w(OpExtension, 2), 0x00000000, // "" is fine for the decoder
		w(OpMemoryModel, 3), uint32(AddressingModelLogical), uint32(MemoryModelGLSL450),
		w(OpTypeFloat, 4), 1, 4, uint32(FPEncodingFloat4E2M1EXT),
		w(OpTypeFloat, 4), 2, 6, uint32(FPEncodingFloat6E2M3EXT),
		w(OpTypeFloat, 4), 3, 8, uint32(FPEncodingFloat8UnsignedE8M0EXT),
		w(OpTypeFloat, 4), 4, 16, uint32(FPEncodingBFloat16KHR),
		w(OpTypeInt, 4), 5, 32, 0,
		w(OpTypeInt, 4), 6, 64, 1,
		w(OpConstant, 4), 1, 10, 0x7,
		w(OpConstant, 4), 2, 11, 0x1F,
		w(OpConstant, 4), 3, 12, 0xFF,
		w(OpConstant, 4), 4, 13, 0x3F80,
		w(OpConstant, 5), 6, 14, 0xFFFFFFFF, 0xFFFFFFFF,
		w(OpTypeVector, 4), 15, 5, 4,
		w(OpTypeVector, 4), 16, 5, 2,
		w(OpUndef, 3), 15, 17,
		w(OpSubgroupBitcastShuffleINTEL, 4), 16, 18, 17,
		w(OpBitcastExtractEXT, 5), 1, 19, 10, 10,
	)
	return m
}

func TestDecodeNarrowTypes(t *testing.T) {
	words := narrowModule()
	m, err := DecodeWords(words)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Encode(); !bytes.Equal(got, bytesOf(words)) {
		t.Fatal("round trip differs")
	}
	want := map[uint32]NumberType{
		10: {Kind: Float, Width: 4, HasEncoding: true, Encoding: FPEncodingFloat4E2M1EXT},
		11: {Kind: Float, Width: 6, HasEncoding: true, Encoding: FPEncodingFloat6E2M3EXT},
		12: {Kind: Float, Width: 8, HasEncoding: true, Encoding: FPEncodingFloat8UnsignedE8M0EXT},
		13: {Kind: Float, Width: 16, HasEncoding: true, Encoding: FPEncodingBFloat16KHR},
		14: {Kind: Signed, Width: 64},
	}
	for _, in := range m.All() {
		if in.Opcode != OpConstant {
			continue
		}
		lit := in.Operands[2]
		if lit.Kind != OperandKindLiteralContextDependentNumber || lit.Number != want[in.ResultID] {
			t.Errorf("constant %%%d: literal operand %+v, want number type %+v", in.ResultID, lit, want[in.ResultID])
		}
		if wantCount := uint16(1 + want[in.ResultID].Width/64); lit.Count != wantCount {
			t.Errorf("constant %%%d: %d words, want %d", in.ResultID, lit.Count, wantCount)
		}
	}
	x := m.Index()
	if ty := x.Types[2]; ty.Kind != TypeFloat || ty.Width != 6 || !ty.HasEncoding || ty.Encoding != FPEncodingFloat6E2M3EXT {
		t.Errorf("index type %%2 = %+v", ty)
	}
	last := m.Inst(m.Len() - 1)
	if last.Opcode != OpBitcastExtractEXT || last.TypeID != 1 || last.ResultID != 19 {
		t.Errorf("last instruction = %v type %d result %d", last.Opcode, last.TypeID, last.ResultID)
	}
}

func TestDecodeOperands(t *testing.T) {
	b, err := os.ReadFile("../examples/switch64.spv")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	var switches []Instruction
	for _, in := range m.All() {
		switch in.Opcode {
		case OpSwitch:
			switches = append(switches, in)
		case OpExtInst:
			if in.ExtSet == nil || in.ExtSet.Name != "GLSL.std.450" {
				t.Errorf("OpExtInst set = %v", in.ExtSet)
			}
			if k := in.Operands[3].Kind; k != OperandKindLiteralExtInstInteger {
				t.Errorf("OpExtInst operand 3 kind %v", k)
			}
		case OpSpecConstantOp:
			if in.Operands[2].Kind != OperandKindLiteralSpecConstantOpInteger || Opcode(in.Word(2)) != OpIAdd || len(in.Operands) != 5 {
				t.Errorf("OpSpecConstantOp operands %+v", in.Operands)
			}
		case OpExecutionMode:
			if len(in.Operands) != 5 || in.Operands[1].Kind != OperandKindExecutionMode || in.Operands[4].Kind != OperandKindLiteralInteger {
				t.Errorf("OpExecutionMode LocalSize operands %+v", in.Operands)
			}
		case OpEntryPoint:
			if got := in.String(2); got != "main" {
				t.Errorf("entry point name %q", got)
			}
		}
	}
	if len(switches) != 2 {
		t.Fatalf("found %d OpSwitch", len(switches))
	}
	if lit := switches[0].Operands[2]; lit.Number != (NumberType{Kind: Signed, Width: 32}) || lit.Count != 1 {
		t.Errorf("int switch literal %+v", lit)
	}
	if lit := switches[1].Operands[2]; lit.Number != (NumberType{Kind: Unsigned, Width: 64}) || lit.Count != 2 {
		t.Errorf("ulong switch literal %+v", lit)
	}
	x := m.Index()
	ep := x.EntryPoints[0]
	if ls, ok := ep.LocalSize(); !ok || ls != [3]uint32{8, 4, 1} || ep.Name != "main" || ep.Model != ExecutionModelGLCompute {
		t.Errorf("entry point %+v", ep)
	}
	if len(x.Functions) != 1 || len(x.Functions[0].Blocks) != 6 {
		t.Errorf("functions %+v", x.Functions)
	}
	for _, b := range x.Functions[0].Blocks {
		if b.End < b.Start {
			t.Errorf("block %d has no terminator", b.Label)
		}
	}
	if x.ExtInstImports[1] != "GLSL.std.450" {
		t.Errorf("imports %v", x.ExtInstImports)
	}
	// Def finds every result id's defining instruction, and nothing else.
	defined := map[uint32]bool{}
	for i, in := range m.All() {
		if in.ResultID == 0 {
			continue
		}
		defined[in.ResultID] = true
		if d, ok := x.Def(in.ResultID); !ok || d != i {
			t.Errorf("Def(%d) = %d, %v; want %d", in.ResultID, d, ok, i)
		}
	}
	for id := uint32(0); id < m.Header.Bound+10; id++ {
		if _, ok := x.Def(id); ok != defined[id] {
			t.Errorf("Def(%d) found %v", id, ok)
		}
	}
}

// TestNonSemanticUnknownInstruction: an instruction number a known
// NonSemantic set lacks decodes as ids, as SPIRV-Tools reads it.
func TestNonSemanticUnknownInstruction(t *testing.T) {
	name := EncodeString(nil, "NonSemantic.Shader.DebugInfo.100")
	words := append(header(10), w(OpExtInstImport, 2+len(name)), 1)
	words = append(words, name...)
	words = append(words, w(OpTypeVoid, 2), 2, w(OpExtInst, 7), 2, 3, 1, 999, 2, 2)
	m, err := DecodeWords(words)
	if err != nil {
		t.Fatal(err)
	}
	in := m.Inst(2)
	if in.ExtSet != nil || len(in.Operands) != 6 || in.Operands[5].Kind != OperandKindIdRef {
		t.Errorf("ExtSet %v, operands %+v", in.ExtSet, in.Operands)
	}
}

func TestBigEndian(t *testing.T) {
	words := narrowModule()
	b := make([]byte, 4*len(words))
	for i, x := range words {
		binary.BigEndian.PutUint32(b[4*i:], x)
	}
	m, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if !m.Header.BigEndian || !bytes.Equal(m.Encode(), b) {
		t.Fatal("big-endian module does not round-trip")
	}
}

func TestDecodeErrors(t *testing.T) {
	base := header(10)
	mm := []uint32{w(OpMemoryModel, 3), 0, 1}
	tests := []struct {
		name     string
		words    []uint32
		raw      []byte // used instead of words when set
		want     error
		wantWord int
		wantInst int
	}{
		{"empty", nil, []byte{}, ErrShortHeader, 0, -1},
		{"short header", header(10)[:4], nil, ErrShortHeader, 4, -1},
		{"not word aligned", nil, append(bytesOf(header(10)), 1, 2), ErrNotWordAligned, -1, -1},
		{"version low byte", append([]uint32{MagicNumber, 0x00010001}, base[2:]...), nil, ErrBadVersion, 1, -1},
		{"version high byte", append([]uint32{MagicNumber, 0x01010000}, base[2:]...), nil, ErrBadVersion, 1, -1},
		{"version 0.9", append([]uint32{MagicNumber, 0x00000900}, base[2:]...), nil, ErrBadVersion, 1, -1},
		{"version 1.7", append([]uint32{MagicNumber, 0x00010700}, base[2:]...), nil, ErrBadVersion, 1, -1},
		{"bad magic", append([]uint32{0xdeadbeef}, base[1:]...), nil, ErrBadMagic, 0, -1},
		{"zero word count", append(append([]uint32{}, base...), 0), nil, ErrZeroWordCount, 5, 0},
		{"past the end", append(append([]uint32{}, base...), w(OpMemoryModel, 4), 0, 1), nil, ErrTruncated, 5, 0},
		{"unknown opcode", append(append([]uint32{}, base...), w(9999, 1)), nil, ErrUnknownOpcode, 5, 0},
		{"missing operand", append(append([]uint32{}, base...), w(OpMemoryModel, 2), 0), nil, ErrMissingOperand, 5, 0},
		{"extra words", append(append([]uint32{}, base...), w(OpMemoryModel, 4), 0, 1, 7), nil, ErrExtraWords, 5, 0},
		{"unknown enumerant", append(append([]uint32{}, base...), w(OpMemoryModel, 3), 0, 77), nil, ErrUnknownEnumerant, 5, 0},
		{"unknown mask bit", append(append(append([]uint32{}, base...), mm...), w(OpTypeVoid, 2), 1, w(OpTypeFunction, 3), 2, 1, w(OpFunction, 5), 1, 3, 0x80000, 2), nil, ErrUnknownEnumerant, 13, 3},
		{"unterminated string", append(append([]uint32{}, base...), w(OpExtension, 2), 0x41414141), nil, ErrUnterminatedString, 5, 0},
		{"id out of bound", append(append([]uint32{}, base...), w(OpTypeVoid, 2), 10), nil, ErrIDOutOfBound, 5, 0},
		{"id zero", append(append([]uint32{}, base...), w(OpTypeVoid, 2), 0), nil, ErrZeroID, 5, 0},
		{"id zero in the shared path", append(append([]uint32{}, base...), w(OpTypeVoid, 2), 1, w(OpUndef, 3), 1, 0), nil, ErrZeroID, 7, 1},
		{"defined twice", append(append([]uint32{}, base...), w(OpTypeVoid, 2), 1, w(OpTypeBool, 2), 1), nil, ErrDuplicateID, 7, 1},
		{"defined twice in the shared path", append(append([]uint32{}, base...), w(OpTypeVoid, 2), 1, w(OpUndef, 3), 1, 2, w(OpUndef, 3), 1, 2), nil, ErrDuplicateID, 10, 2},
		{"constant of a zero-width type", append(append([]uint32{}, base...), w(OpTypeInt, 4), 1, 0, 0, w(OpConstant, 4), 1, 2, 0), nil, ErrBadNumberType, 9, 1},
		{"arm set needs its dot", EncodeString(append(append([]uint32{}, base...), w(OpExtInstImport, 10), 1), "Arm.ExperimentalMLOperations"), nil, ErrUnknownExtInstSet, 5, 0},
		{"unknown ext set", append(append([]uint32{}, base...), w(OpExtInstImport, 4), 1, 0x6f6f6f46, 0), nil, ErrUnknownExtInstSet, 5, 0},
		{"ext inst without import", append(append([]uint32{}, base...), w(OpTypeVoid, 2), 1, w(OpExtInst, 5), 1, 2, 3, 1), nil, ErrUnknownExtInstSet, 7, 1},
		{"unknown ext inst", append(append([]uint32{}, base...),
			w(OpExtInstImport, 6), 1, 0x4c534c47, 0x6474732e, 0x3035342e, 0, // "GLSL.std.450"
			w(OpTypeVoid, 2), 2, w(OpExtInst, 5), 2, 3, 1, 999), nil, ErrUnknownExtInst, 13, 2},
		{"constant of a non-number type", append(append([]uint32{}, base...), w(OpTypeVoid, 2), 1, w(OpConstant, 4), 1, 2, 0), nil, ErrBadNumberType, 7, 1},
		{"64-bit constant too short", append(append([]uint32{}, base...), w(OpTypeInt, 4), 1, 64, 0, w(OpConstant, 4), 1, 2, 0), nil, ErrOperandOverrun, 9, 1},
		{"bad spec constant op", append(append([]uint32{}, base...), w(OpTypeInt, 4), 1, 32, 0, w(OpSpecConstantOp, 4), 1, 2, 9999), nil, ErrBadSpecConstantOp, 9, 1},
		{"spec constant op not allowed", append(append([]uint32{}, base...), w(OpTypeInt, 4), 1, 32, 0, w(OpSpecConstantOp, 5), 1, 2, uint32(OpLoad), 1), nil, ErrBadSpecConstantOp, 9, 1},
		{"nested spec constant op", append(append([]uint32{}, base...), w(OpTypeInt, 4), 1, 32, 0, w(OpSpecConstantOp, 6), 1, 2, uint32(OpSpecConstantOp), uint32(OpIAdd), 1), nil, ErrBadSpecConstantOp, 9, 1},
		{"switch on a non-integer", append(append([]uint32{}, base...), w(OpTypeBool, 2), 1, w(OpConstantTrue, 3), 1, 2, w(OpSwitch, 5), 2, 3, 0, 3), nil, ErrBadNumberType, 10, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := tc.raw
			if b == nil {
				b = bytesOf(tc.words)
			}
			_, err := Decode(b)
			if !errors.Is(err, tc.want) {
				t.Fatalf("Decode = %v, want %v", err, tc.want)
			}
			var de *DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("error %T is not a *DecodeError", err)
			}
			if de.Word != tc.wantWord || de.Inst != tc.wantInst {
				t.Errorf("error at word %d instruction %d, want word %d instruction %d (%v)", de.Word, de.Inst, tc.wantWord, tc.wantInst, err)
			}
		})
	}
}

func TestDecodeErrorText(t *testing.T) {
	words := append(header(10), w(OpTypeVoid, 2), 1, w(OpMemoryModel, 3), 0, 77)
	_, err := Decode(bytesOf(words))
	want := "instruction #1 (OpMemoryModel) at word 7: unknown enumerant: 77 is not a MemoryModel"
	if err == nil || err.Error() != want {
		t.Errorf("error = %q, want %q", err, want)
	}
}

// TestHugeBoundSmallModule: the header's bound must not drive allocation.
func TestHugeBoundSmallModule(t *testing.T) {
	words := append(header(0xFFFFFFFF), w(OpTypeInt, 4), 0xFFFFFFF0, 32, 0, w(OpConstant, 4), 0xFFFFFFF0, 0xFFFFFFF1, 5)
	allocs := testing.AllocsPerRun(10, func() {
		if _, err := DecodeWords(words); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 20 {
		t.Errorf("%v allocations for a 13-word module", allocs)
	}
	// The index keeps its dense id table to the module's size too.
	m, err := DecodeWords(words)
	if err != nil {
		t.Fatal(err)
	}
	x := m.Index()
	if len(x.defs) > len(words)+64 {
		t.Errorf("index id table of %d entries for a %d-word module", len(x.defs), len(words))
	}
	if d, ok := x.Def(0xFFFFFFF1); !ok || d != 1 {
		t.Errorf("Def(0xFFFFFFF1) = %d, %v; want 1", d, ok)
	}
	if _, ok := x.Def(0xFFFFFFF2); ok {
		t.Error("Def of an undefined id found something")
	}
}

// TestAllocationsPerInstruction: allocation count does not grow with the
// number of instructions or operands.
func TestAllocationsPerInstruction(t *testing.T) {
	small := narrowModule()
	big := append([]uint32{}, small...)
	for i := 0; i < 2000; i++ {
		big = append(big, w(OpNop, 1), w(OpUndef, 3), 5, 100+uint32(i))
	}
	big[3] = 2200
	if _, err := DecodeWords(big); err != nil {
		t.Fatal(err)
	}
	a1 := testing.AllocsPerRun(5, func() { DecodeWords(small) })
	a2 := testing.AllocsPerRun(5, func() { DecodeWords(big) })
	if a2 > a1+2 {
		t.Errorf("allocations grow with size: %v for %d words, %v for %d words", a1, len(small), a2, len(big))
	}
}

func FuzzDecode(f *testing.F) {
	f.Add(bytesOf(narrowModule()))
	files, _ := filepath.Glob("../examples/*.spv")
	for _, file := range files {
		if b, err := os.ReadFile(file); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := Decode(b)
		checkLenient(t, b, m, err)
		// The general path (no shared operand lists) agrees, errors included.
		if words, _, werr := wordsOf(b); werr == nil {
			general, gerr := decodeGeneral(words)
			if fmt.Sprint(err) != fmt.Sprint(gerr) {
				t.Fatalf("shared lists: %v; general path: %v", err, gerr)
			}
			if err == nil && !reflect.DeepEqual(collectInsts(m), collectInsts(general)) {
				t.Fatal("shared operand lists and the general path disagree")
			}
		}
		if err != nil {
			var de *DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("error %T is not a *DecodeError", err)
			}
			return
		}
		enc := m.Encode()
		if !bytes.Equal(enc, b) {
			t.Fatal("Encode(Decode(b)) != b")
		}
		m2, err := Decode(enc)
		if err != nil || m2.Len() != m.Len() {
			t.Fatalf("re-decode: %v", err)
		}
		for i, in := range m.All() {
			if !reflect.DeepEqual(in, m2.Inst(i)) {
				t.Fatalf("instruction %d decodes differently", i)
			}
		}
		_ = m.Index()
	})
}

// manyExtInsts is a module of n OpExtInstImport and n OpExtInst, each
// OpExtInst naming the last import: the worst case for a decoder that
// looks an import up by scanning the imports (n² steps).
func manyExtInsts(n int) []uint32 {
	m := header(uint32(2*n + 10))
	m = append(m, w(OpMemoryModel, 3), 0, 1, w(OpTypeVoid, 2), 1)
	for i := range n {
		// A set SPIRV-Tools does not know, whose operands are all ids.
		m = append(m, w(OpExtInstImport, 6), uint32(2+i))
		m = EncodeString(m, "NonSemantic.X")
	}
	last := uint32(2 + n - 1)
	for i := range n {
		m = append(m, w(OpExtInst, 6), 1, uint32(2+n+i), last, 7, 1)
	}
	return m
}

// TestManyExtInstImports: the scan over the imports took 13 s for 100k of
// each; with a million of each it would take about 20 minutes, past the
// test timeout. The id table makes each lookup O(1).
func TestManyExtInstImports(t *testing.T) {
	words := manyExtInsts(1_000_000)
	m, err := DecodeWords(words)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Len(); got != 2+2_000_000 {
		t.Fatalf("%d instructions", got)
	}
	if in := m.Inst(m.Len() - 1); in.Opcode != OpExtInst || in.ExtSet != nil || len(in.Operands) != 5 {
		t.Errorf("last instruction %v set %v with %d operands", in.Opcode, in.ExtSet, len(in.Operands))
	}
}

// nestedSpecConstantOp is one OpSpecConstantOp of the largest word count
// whose operation words are all OpSpecConstantOp, as deep a nest as one
// instruction can spell, ending in an OpIAdd.
func nestedSpecConstantOp() []uint32 {
	m := header(10)
	m = append(m, w(OpTypeInt, 4), 1, 32, 0, w(OpSpecConstant, 4), 1, 2, 7)
	n := 0xFFFF
	m = append(m, w(OpSpecConstantOp, n), 1, 3)
	for len(m) < 13+n-3 {
		m = append(m, uint32(OpSpecConstantOp))
	}
	return append(m, uint32(OpIAdd), 2, 2)
}

// TestNestedSpecConstantOp: the decoder read each nested operation by a
// level of recursion, 110 MB of stack for this one 256 KB instruction.
// Only the operations the specification allows are read, and none of them
// embeds an operation, so the nest is rejected at its second word without
// growing the stack.
func TestNestedSpecConstantOp(t *testing.T) {
	words := nestedSpecConstantOp()
	var before, after runtime.MemStats
	var err error
	done := make(chan struct{})
	runtime.ReadMemStats(&before)
	go func() { // a fresh goroutine: its stack starts small
		_, err = DecodeWords(words)
		runtime.ReadMemStats(&after)
		close(done)
	}()
	<-done
	if grew := int64(after.StackInuse) - int64(before.StackInuse); grew > 1<<20 {
		t.Errorf("the stack grew by %d bytes", grew)
	}
	if !errors.Is(err, ErrBadSpecConstantOp) {
		t.Fatalf("Decode = %v, want %v", err, ErrBadSpecConstantOp)
	}
	want := "instruction #2 (OpSpecConstantOp) at word 13: invalid OpSpecConstantOp opcode: 52"
	if err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	// The same instruction with an allowed operation decodes.
	words[16] = uint32(OpCompositeExtract)
	words[17] = 2
	for i := 18; i < len(words); i++ {
		words[i] = 0 // indices
	}
	m, err := DecodeWords(words)
	if err != nil {
		t.Fatal(err)
	}
	if in := m.Inst(2); len(in.Operands) != 0xFFFF-1 {
		t.Errorf("%d operands", len(in.Operands))
	}
}

// TestLenientBound: an id at or above the bound is a validation matter;
// the lenient decoder and reader accept it, the strict ones do not.
func TestLenientBound(t *testing.T) {
	words := append(header(3), w(OpTypeInt, 4), 1, 32, 0, w(OpConstant, 4), 1, 9, 5, w(OpUndef, 3), 1, 70000)
	if _, err := DecodeWords(words); !errors.Is(err, ErrIDOutOfBound) {
		t.Fatalf("strict: %v, want %v", err, ErrIDOutOfBound)
	}
	lenient := DecodeOptions{Lenient: true}
	m, err := lenient.DecodeWords(words)
	if err != nil {
		t.Fatal(err)
	}
	if in := m.Inst(1); in.ResultID != 9 || in.Operands[2].Number.Kind != Unsigned {
		t.Errorf("constant %+v", in)
	}
	// Twice defined above the bound is still twice defined.
	dup := append(append([]uint32{}, words...), w(OpUndef, 3), 1, 70000)
	if _, err := lenient.DecodeWords(dup); !errors.Is(err, ErrDuplicateID) {
		t.Errorf("lenient, defined twice: %v", err)
	}
	// A Reader reads the same module twice (Reset forgets the definitions).
	r, err := lenient.NewReader(bytesOf(words))
	if err != nil {
		t.Fatal(err)
	}
	for pass := range 2 {
		n := 0
		for {
			_, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("pass %d: %v", pass, err)
			}
			n++
		}
		if n != 3 {
			t.Errorf("pass %d: %d instructions", pass, n)
		}
		r.Reset()
	}
	if _, err := NewReader(bytesOf(words)); err != nil {
		t.Fatal(err) // the header is fine: the strict reader fails at the id
	}
}

// TestNonSemanticTrailingIDs: as current SPIRV-Tools, a known NonSemantic
// instruction may carry more operands than its grammar (a later version's),
// read as ids; a semantic set's may not.
func TestNonSemanticTrailingIDs(t *testing.T) {
	// "NonSemantic.Shader.DebugInfo.100", DebugInfoNone (0) with an extra id.
	imp := EncodeString([]uint32{w(OpExtInstImport, 11), 2}, "NonSemantic.Shader.DebugInfo.100")
	words := append(header(10), w(OpTypeVoid, 2), 1)
	words = append(words, imp...)
	words = append(words, w(OpExtInst, 6), 1, 3, 2, 0, 1)
	m, err := DecodeWords(words)
	if err != nil {
		t.Fatal(err)
	}
	in := m.Inst(2)
	if in.ExtSet == nil || in.ExtSet.Name != "NonSemantic.Shader.DebugInfo.100" || len(in.Operands) != 5 || in.Operands[4].Kind != OperandKindIdRef {
		t.Errorf("ExtSet %v, operands %+v", in.ExtSet, in.Operands)
	}
	// "NonSemantic.Shader.DebugInfo.101" reads as 100, as SPIRV-Tools does.
	words[len(words)-7] = 0x00313031 // "101"
	if m, err := DecodeWords(words); err != nil || m.Inst(2).ExtSet.Name != "NonSemantic.Shader.DebugInfo.100" {
		t.Errorf("101: %v", err)
	}
}

// TestImportedSet pins the import names SPIRV-Tools knows.
func TestImportedSet(t *testing.T) {
	for _, tc := range []struct {
		name, set string // set "" with ok: an opaque NonSemantic set
		ok        bool
	}{
		{"GLSL.std.450", "GLSL.std.450", true},
		{"GLSL.std.4500", "", false},
		{"OpenCL.std", "OpenCL.std", true},
		{"Arm.ExperimentalMLOperations.1", "Arm.ExperimentalMLOperations", true},
		{"Arm.ExperimentalMLOperations", "", false},
		{"NonSemantic.DebugPrintf", "", true},
		{"NonSemantic.Foo", "", true},
		{"NonSemantic.ClspvReflection.6", "NonSemantic.ClspvReflection.", true},
		{"NonSemantic.VkspReflection.1", "NonSemantic.VkspReflection", true},
		{"NonSemantic.VkspReflection", "", true},
		{"NonSemantic.Shader.DebugInfo.100", "NonSemantic.Shader.DebugInfo.100", true},
		{"NonSemantic.Shader.DebugInfo.101", "NonSemantic.Shader.DebugInfo.100", true},
		{"NonSemantic.Graph.DebugInfo.1", "NonSemantic.Graph.DebugInfo.", true},
		{"Foo", "", false},
	} {
		set, _, ok := importedSet([]byte(tc.name))
		got := ""
		if set != nil {
			got = set.Name
		}
		if got != tc.set || ok != tc.ok {
			t.Errorf("%q: set %q ok %v, want %q %v", tc.name, got, ok, tc.set, tc.ok)
		}
	}
}

// benchmarkManyExtInsts decodes manyExtInsts(n); the time per import is
// the same at both sizes (BENCHMARKS.md).
func benchmarkManyExtInsts(b *testing.B, n int) {
	words := manyExtInsts(n)
	b.SetBytes(int64(4 * len(words)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeWords(words); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkManyExtInsts10k(b *testing.B)  { benchmarkManyExtInsts(b, 10_000) }
func BenchmarkManyExtInsts100k(b *testing.B) { benchmarkManyExtInsts(b, 100_000) }

// benchmarkSpecConstantOps decodes n maximal OpSpecConstantOp instructions
// (the nest of nestedSpecConstantOp made valid); time grows with n.
func benchmarkSpecConstantOps(b *testing.B, n int) {
	one := nestedSpecConstantOp()
	inst := one[13:]
	inst[3], inst[4] = uint32(OpCompositeExtract), 2
	for i := 5; i < len(inst); i++ {
		inst[i] = 0
	}
	words := append([]uint32{}, one[:13]...)
	words[3] = uint32(n + 10)
	for i := range n {
		inst[2] = uint32(3 + i)
		words = append(words, inst...)
	}
	b.SetBytes(int64(4 * len(words)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeWords(words); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSpecConstantOps4(b *testing.B)  { benchmarkSpecConstantOps(b, 4) }
func BenchmarkSpecConstantOps40(b *testing.B) { benchmarkSpecConstantOps(b, 40) }

// TestPhiOddOperands: SPIRV-Tools reads OpPhi's (value, parent) pairs as a
// list of ids, so a list cut inside a pair still decodes (a validator
// matter).
func TestPhiOddOperands(t *testing.T) {
	words := append(header(10), w(OpTypeBool, 2), 1, w(OpPhi, 6), 1, 2, 3, 4, 5)
	m, err := DecodeWords(words)
	if err != nil {
		t.Fatal(err)
	}
	if in := m.Inst(1); len(in.Operands) != 5 || in.Operands[4].Kind != OperandKindIdRef {
		t.Errorf("operands %+v", in.Operands)
	}
}

// checkLenient checks the lenient decoder against the strict result m, err
// for b: it accepts everything the strict one does, identically; what it
// rejects the strict one rejects too; its Reader agrees with it,
// instruction by instruction and error for error; and the index of a
// lenient module (ids past the bound) builds.
func checkLenient(t *testing.T, b []byte, m *Module, err error) {
	t.Helper()
	lenient := DecodeOptions{Lenient: true}
	lm, lerr := lenient.Decode(b)
	if err == nil && (lerr != nil || !reflect.DeepEqual(collectInsts(m), collectInsts(lm))) {
		t.Fatalf("strict decode accepts, lenient: %v (or differs)", lerr)
	}
	if lerr != nil && err == nil {
		t.Fatalf("lenient rejects what strict accepts: %v", lerr)
	}
	r, rerr := lenient.NewReader(b)
	if rerr != nil {
		if lerr == nil || rerr.Error() != lerr.Error() {
			t.Fatalf("NewReader: %v, Decode: %v", rerr, lerr)
		}
		return
	}
	for pass := range 2 {
		i := 0
		for {
			in, err := r.Next()
			if err == io.EOF {
				if lerr != nil {
					t.Fatalf("pass %d: Reader reached the end, Decode failed: %v", pass, lerr)
				}
				break
			}
			if err != nil {
				if lerr == nil || err.Error() != lerr.Error() {
					t.Fatalf("pass %d: Reader: %v, Decode: %v", pass, err, lerr)
				}
				break
			}
			if lm != nil && !reflect.DeepEqual(*in, lm.Inst(i)) {
				t.Fatalf("pass %d: instruction %d differs between Reader and Decode", pass, i)
			}
			i++
		}
		r.Reset()
	}
	if lm != nil {
		_ = lm.Index()
	}
}

// TestSwitchWithoutCases: SPIRV-Tools checks the selector's type only to
// size case literals, so a case-less OpSwitch on anything decodes.
func TestSwitchWithoutCases(t *testing.T) {
	words := append(header(10), w(OpTypeBool, 2), 1, w(OpConstantTrue, 3), 1, 2, w(OpSwitch, 3), 2, 3)
	if _, err := DecodeWords(words); err != nil {
		t.Fatal(err)
	}
}
