package spirv

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// readAll streams a module through a Reader, twice (with Reset between),
// copying each instruction, and checks both passes agree.
func readAll(t testing.TB, b []byte) ([]Instruction, error) {
	r, err := NewReader(b)
	if err != nil {
		return nil, err
	}
	var passes [2][]Instruction
	for p := range passes {
		for {
			in, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, err
			}
			c := *in
			c.Operands = append([]Operand{}, in.Operands...)
			passes[p] = append(passes[p], c)
		}
		r.Reset()
	}
	if !reflect.DeepEqual(passes[0], passes[1]) {
		t.Fatal("the second pass after Reset differs from the first")
	}
	return passes[0], nil
}

// TestReaderMatchesDecode: streaming and whole-module decoding give the
// same instructions and the same errors.
func TestReaderMatchesDecode(t *testing.T) {
	files, _ := filepath.Glob("../examples/*.spv")
	files = append(files, filepath.Join(sharedDir, "corpus/big.spv"))
	inputs := [][]byte{bytesOf(narrowModule())}
	for _, f := range files {
		if b, err := os.ReadFile(f); err == nil {
			inputs = append(inputs, b)
		}
	}
	for i, b := range inputs {
		m, err := Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		got, err := readAll(t, b)
		if err != nil {
			t.Fatal(err)
		}
		want := collectInsts(m)
		for k := range want {
			if len(want[k].Operands) == 0 {
				want[k].Operands = []Operand{}
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("input %d: Reader and Decode disagree", i)
		}
		// Damaged copies must fail the same way.
		for cut := 24; cut < len(b) && cut < 4000 && len(b) < 100000; cut += 52 {
			c := append([]byte(nil), b...)
			c[cut] ^= 0x5a
			_, err1 := Decode(c)
			_, err2 := readAll(t, c)
			if (err1 == nil) != (err2 == nil) || (err1 != nil && err1.Error() != err2.Error()) {
				t.Errorf("input %d, byte %d damaged: Decode says %v, Reader says %v", i, cut, err1, err2)
			}
		}
	}
}

func TestReaderErrorIsSticky(t *testing.T) {
	words := append(header(10), w(OpTypeVoid, 2), 1, w(9999, 1))
	r, err := NewWordReader(words)
	if err != nil {
		t.Fatal(err)
	}
	if in, err := r.Next(); err != nil || in.Opcode != OpTypeVoid {
		t.Fatalf("first instruction: %v, %v", in, err)
	}
	for i := 0; i < 2; i++ {
		if _, err := r.Next(); !errors.Is(err, ErrUnknownOpcode) {
			t.Fatalf("call %d: error %v, want ErrUnknownOpcode", i, err)
		}
	}
	if _, err := NewReader([]byte{1, 2, 3}); !errors.Is(err, ErrShortHeader) {
		t.Errorf("short input: %v", err)
	}
}

// TestDecodeIntoReuses: decoding a sequence of modules into one Module
// gives what Decode gives for each, and allocates nothing once the
// storage is large enough.
func TestDecodeIntoReuses(t *testing.T) {
	inputs := [][]byte{bytesOf(narrowModule())}
	files, _ := filepath.Glob("../examples/*.spv")
	for _, f := range files {
		if b, err := os.ReadFile(f); err == nil {
			inputs = append(inputs, b)
		}
	}
	var m Module
	for round := 0; round < 2; round++ {
		for i, b := range inputs {
			want, err := Decode(b)
			if err != nil {
				t.Fatal(err)
			}
			if err := DecodeInto(&m, b); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(collectInsts(&m), collectInsts(want)) || m.Header != want.Header || !bytes.Equal(m.Encode(), b) {
				t.Errorf("round %d input %d: DecodeInto differs from Decode", round, i)
			}
			if m.Index().Types == nil {
				t.Error("index not rebuilt")
			}
		}
	}
	// A damaged module fails the same way, and the next decode recovers.
	bad := append([]byte(nil), inputs[1]...)
	bad[len(bad)-4] = 0xFF
	_, err1 := Decode(bad)
	if err2 := DecodeInto(&m, bad); (err1 == nil) != (err2 == nil) || (err1 != nil && err1.Error() != err2.Error()) {
		t.Errorf("damaged: Decode %v, DecodeInto %v", err1, err2)
	}
	big := inputs[len(inputs)-1]
	if err := DecodeInto(&m, big); err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(10, func() {
		if err := DecodeInto(&m, big); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 0 {
		t.Errorf("DecodeInto allocates %v times per module in the steady state", allocs)
	}
}

// collectInsts collects a module's instructions.
func collectInsts(m *Module) []Instruction {
	var all []Instruction
	for _, in := range m.All() {
		all = append(all, in)
	}
	return all
}
