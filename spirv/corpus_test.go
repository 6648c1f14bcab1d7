package spirv

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// sharedDir is the read-only material beside the repository; tests that
// need it skip with a message where it is absent.
const sharedDir = "../../shared"

func corpusFiles(t testing.TB) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(sharedDir, "corpus/valid/*.spv"))
	if len(files) == 0 {
		t.Skipf("corpus not found under %s: skipping the corpus checks", sharedDir)
	}
	return files
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestCorpusRoundTrip decodes every corpus module and big.spv and checks
// that encoding reproduces the input byte for byte.
func TestCorpusRoundTrip(t *testing.T) {
	files := append(corpusFiles(t), filepath.Join(sharedDir, "corpus/big.spv"))
	for _, f := range files {
		b := readFile(t, f)
		m, err := Decode(b)
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(f), err)
			continue
		}
		if got := m.Encode(); !bytes.Equal(got, b) {
			t.Errorf("%s: Encode(Decode(b)) differs from b", filepath.Base(f))
		}
	}
}

// TestOwnModulesRoundTrip covers the example modules shipped in the repo, which exist
// without ../shared.
func TestOwnModulesRoundTrip(t *testing.T) {
	files, _ := filepath.Glob("../examples/*.spv")
	if len(files) == 0 {
		t.Fatal("no ../examples/*.spv modules")
	}
	for _, f := range files {
		b := readFile(t, f)
		m, err := Decode(b)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if !bytes.Equal(m.Encode(), b) {
			t.Errorf("%s: round trip differs", f)
		}
	}
}

// TestCorpusTruncationAndFlips damages every corpus module: truncated at
// several points and with single words replaced. Decode must return an
// error or a module, never panic.
func TestCorpusTruncationAndFlips(t *testing.T) {
	files := corpusFiles(t)
	if testing.Short() {
		files = files[:100]
	}
	for fi, f := range files {
		b := readFile(t, f)
		for _, cut := range []int{0, 4, 19, 20, 24, len(b) / 3, len(b) / 2, len(b) - 4, len(b) - 1} {
			if cut < 0 || cut > len(b) {
				continue
			}
			m, err := Decode(b[:cut])
			if err == nil && !bytes.Equal(m.Encode(), b[:cut]) {
				// A cut on an instruction boundary is a valid, shorter module.
				t.Errorf("%s cut %d: decodes but does not round-trip", f, cut)
			}
			var de *DecodeError
			if err != nil && !errors.As(err, &de) {
				t.Errorf("%s cut %d: error %v is not a *DecodeError", f, cut, err)
			}
		}
		c := append([]byte(nil), b...)
		seed := uint32(fi*7919 + 1)
		for k := 0; k < 20; k++ {
			seed = seed*1664525 + 1013904223
			pos := 20 + int(seed%uint32(len(c)-20))&^3
			old := [4]byte(c[pos : pos+4])
			c[pos], c[pos+1], c[pos+2], c[pos+3] = byte(seed>>3), byte(seed>>11), byte(seed>>19), byte(seed>>27)
			if m, err := Decode(c); err == nil {
				if !bytes.Equal(m.Encode(), c) {
					t.Errorf("%s: flipped module decodes but does not round-trip", f)
				}
			}
			copy(c[pos:], old[:])
		}
	}
}
