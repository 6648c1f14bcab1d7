package val

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"spvx/asm"
	"spvx/internal/oracle"
	"spvx/spirv"
)

// TestOwnModulesAccepted validates every SPIR-V module of this repository
// (examples and testdata, binary or assembly; fuzz corpora and the
// disassembler's golden outputs aside) that
// Debian's spirv-val accepts with default options: val must accept it
// too. Modules 2023.1 rejects (many use the new extensions it does not
// know) are counted, not judged.
func TestOwnModulesAccepted(t *testing.T) {
	sv := oracle.Require(t, "spirv-val")
	as := oracle.Require(t, "spirv-as")
	var files []string
	filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "fuzz" || d.Name() == "golden") {
			return filepath.SkipDir
		}
		if !d.IsDir() && (strings.HasSuffix(p, ".spv") || strings.HasSuffix(p, ".spvasm")) {
			files = append(files, p)
		}
		return nil
	})
	if len(files) < 10 {
		t.Fatalf("found only %d modules", len(files))
	}
	dir := t.TempDir()
	judged, skipped := 0, 0
	for k, f := range files {
		bin := f
		var words []uint32
		if strings.HasSuffix(f, ".spvasm") {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			w, err := asm.Assemble(src, asm.Options{})
			if err != nil {
				skipped++ // a fragment or an intentionally bad text
				continue
			}
			words = w
			bin = filepath.Join(dir, filepath.Base(f)+".spv")
			if _, _, ok := oracle.Exec(t, as, nil, f, "-o", bin); !ok {
				skipped++
				continue
			}
		}
		if _, _, ok := oracle.Exec(t, sv, nil, bin); !ok {
			skipped++
			continue
		}
		var m *spirv.Module
		var err error
		if words != nil {
			m, err = spirv.DecodeWords(words)
		} else {
			var b []byte
			if b, err = os.ReadFile(bin); err == nil {
				m, err = spirv.Decode(b)
			}
		}
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		judged++
		if err := Validate(m, Options{}); err != nil {
			t.Errorf("%s (%d): spirv-val accepts it, val says: %v", f, k, err)
		}
	}
	if judged < 5 {
		t.Errorf("only %d modules could be judged: the walk or the oracle runs are broken", judged)
	}
	t.Logf("%d modules spirv-val accepts, all accepted by val; %d not judged (spirv-val 2023.1 or spirv-as rejects them)", judged, skipped)
}
