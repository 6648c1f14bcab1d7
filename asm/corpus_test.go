package asm

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"spvx/spirv"
)

// corpusDir is the shared corpus of real modules: valid/*.spv, their
// current spirv-dis text in asm/ and with --raw-id in asm-rawid/.
const corpusDir = "../../shared/corpus"

// corpusFiles lists corpusDir/sub/*.spvasm, or skips the test.
func corpusFiles(t testing.TB, sub string) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(corpusDir, sub, "*.spvasm"))
	if len(files) == 0 {
		t.Skipf("corpus absent: no %s/%s/*.spvasm", corpusDir, sub)
	}
	return files
}

// original returns the corpus module a text was disassembled from.
func original(t testing.TB, text string) *spirv.Module {
	t.Helper()
	name := strings.TrimSuffix(filepath.Base(text), ".spvasm") + ".spv"
	b, err := os.ReadFile(filepath.Join(corpusDir, "valid", name))
	if err != nil {
		t.Fatal(err)
	}
	m, err := spirv.Decode(b)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return m
}

// renumbered returns what spirv-as makes of the friendly-name disassembly
// of m: the same module with ids renumbered from 1 in order of first
// appearance in the binary (spirv-as numbers a result id when the grammar
// reaches it, after the result type), the assembler's generator word, and
// the bound those ids need.
func renumbered(m *spirv.Module) []uint32 {
	out := []uint32{spirv.MagicNumber, uint32(m.Header.Version), Generator, 0, 0}
	ids := map[uint32]uint32{}
	for _, in := range m.All() {
		start := len(out)
		out = append(out, in.Words...)
		for _, o := range in.Operands {
			if o.Kind.Info().Category != spirv.CategoryID {
				continue
			}
			w := &out[start+int(o.Offset)]
			n, ok := ids[*w]
			if !ok {
				n = uint32(len(ids) + 1)
				ids[*w] = n
			}
			*w = n
		}
	}
	out[3] = uint32(len(ids) + 1)
	return out
}

func moduleWords(m *spirv.Module) []uint32 {
	h := m.Header
	out := []uint32{spirv.MagicNumber, uint32(h.Version), h.Generator, h.Bound, h.Schema}
	for _, in := range m.All() {
		out = append(out, in.Words...)
	}
	return out
}

// firstDiff returns the index of the first differing word, or -1.
func firstDiff(a, b []uint32) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

// TestCorpusText assembles the current spirv-dis text of every corpus
// module. The result must be the original module with the ids spirv-as
// gives friendly names (numbered in order of first appearance), its
// generator word and the bound of those ids: exactly spirv-as's output,
// which TestCorpusOracle also checks against Debian's spirv-as.
func TestCorpusText(t *testing.T) {
	files := corpusFiles(t, "asm")
	agree := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Assemble(src, Options{File: filepath.Base(f)})
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		want := renumbered(original(t, f))
		if i := firstDiff(got, want); i >= 0 {
			t.Errorf("%s: word %d differs from the renumbered original", filepath.Base(f), i)
			continue
		}
		agree++
	}
	t.Logf("%d of %d corpus texts assemble to their original module (ids renumbered as spirv-as does)", agree, len(files))
}

// TestCorpusRawIDs assembles the --raw-id disassembly of every corpus
// module with PreserveNumericIDs: that must reproduce the original module
// but for the generator word and the bound, which spirv-as computes from
// the ids used (the original may count unused ids).
func TestCorpusRawIDs(t *testing.T) {
	files := corpusFiles(t, "asm-rawid")
	agree, bounds := 0, 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Assemble(src, Options{File: filepath.Base(f), PreserveNumericIDs: true})
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		m := original(t, f)
		want := moduleWords(m)
		if got[2] != Generator {
			t.Errorf("%s: generator %#x, want %#x", filepath.Base(f), got[2], Generator)
		}
		if got[3] > want[3] {
			t.Errorf("%s: bound %d exceeds the original's %d", filepath.Base(f), got[3], want[3])
		}
		if got[3] != want[3] {
			bounds++
		}
		got[2], got[3] = want[2], want[3]
		if i := firstDiff(got, want); i >= 0 {
			t.Errorf("%s: word %d differs from the original module", filepath.Base(f), i)
			continue
		}
		agree++
	}
	t.Logf("%d of %d raw-id texts reproduce their module (%d with a smaller bound, the original counting unused ids)", agree, len(files), bounds)
}
