package dis

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"spvx/spirv"
)

// sharedDir is the shared workspace, read in place; tests that need it
// skip when it is absent.
const sharedDir = "../../shared"

func corpusFiles(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(sharedDir, "corpus/valid/*.spv"))
	if err != nil || len(files) == 0 {
		t.Skipf("corpus not available at %s/corpus/valid: skipping", sharedDir)
	}
	return files
}

// TestCorpus checks that, for every module of the corpus, the default
// output is byte-identical to current spirv-dis's (corpus/asm) and the
// --raw-id output to spirv-dis --raw-id's (corpus/asm-rawid).
func TestCorpus(t *testing.T) {
	files := corpusFiles(t)
	var agree, agreeRaw int
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".spv") + ".spvasm"
		bin, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m, err := spirv.Decode(bin)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		for _, c := range []struct {
			dir   string
			opt   Options
			count *int
		}{
			{"asm", Options{}, &agree},
			{"asm-rawid", Options{RawID: true}, &agreeRaw},
		} {
			want, err := os.ReadFile(filepath.Join(sharedDir, "corpus", c.dir, name))
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			got := Disassemble(m, c.opt)
			if !bytes.Equal(got, want) {
				t.Errorf("%s/%s differs from spirv-dis:\n%s", c.dir, name, firstDiff(got, want))
				continue
			}
			// The streaming path must print the same.
			got, err = DisassembleBinary(bin, c.opt)
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("%s/%s: DisassembleBinary differs from spirv-dis (err %v):\n%s", c.dir, name, err, firstDiff(got, want))
				continue
			}
			*c.count++
		}
	}
	t.Logf("default: %d of %d modules byte-identical; --raw-id: %d of %d", agree, len(files), agreeRaw, len(files))
}

// TestBig checks the output for corpus/big.spv with every path to text.
func TestBig(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the 2 MB module")
	}
	bin, err := os.ReadFile(filepath.Join(sharedDir, "corpus/big.spv"))
	if err != nil {
		t.Skipf("corpus/big.spv not available (%v): skipping", err)
	}
	want, err := os.ReadFile(filepath.Join(sharedDir, "corpus/big.spvasm"))
	if err != nil {
		t.Skipf("corpus/big.spvasm not available (%v): skipping", err)
	}
	got, err := DisassembleBinary(bin, Options{})
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("DisassembleBinary (err %v):\n%s", err, firstDiff(got, want))
	}
	var buf bytes.Buffer
	if err := FprintBinary(&buf, bin, Options{}); err != nil || !bytes.Equal(buf.Bytes(), want) {
		t.Fatalf("FprintBinary (err %v):\n%s", err, firstDiff(buf.Bytes(), want))
	}
	m, err := spirv.Decode(bin)
	if err != nil {
		t.Fatal(err)
	}
	if got := Disassemble(m, Options{}); !bytes.Equal(got, want) {
		t.Fatalf("Disassemble:\n%s", firstDiff(got, want))
	}
}

// firstDiff describes the first differing line of got and want.
func firstDiff(got, want []byte) string {
	g := strings.Split(string(got), "\n")
	w := strings.Split(string(want), "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return "line " + itoa(i+1) + ":\n got: " + strconvQuote(gl) + "\nwant: " + strconvQuote(wl)
		}
	}
	return "(no line differs)"
}
