package amber

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// sharedDir is the shared read-only folder of the checkout, or "" (tests
// skip with a message where it is absent).
func sharedDir(t testing.TB) string {
	d := filepath.Join("..", "..", "shared", "conformance", "amber")
	if _, err := os.Stat(d); err != nil {
		t.Skipf("shared conformance corpus absent (%v)", err)
	}
	return d
}

// corpusScripts lists the .amber scripts under the shared folder.
func corpusScripts(t testing.TB) []string {
	d := sharedDir(t)
	var out []string
	filepath.WalkDir(d, func(p string, e os.DirEntry, err error) error {
		if err == nil && !e.IsDir() && strings.HasSuffix(p, ".amber") {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

func TestParseCorpus(t *testing.T) {
	files := corpusScripts(t)
	if len(files) != 317 {
		t.Errorf("found %d scripts, want 317", len(files))
	}
	syn := map[Syntax]int{}
	for _, f := range files {
		s, err := ParseFile(f)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		syn[s.Syntax]++
	}
	if syn[AmberScript] != 244 || syn[VkScript] != 73 {
		t.Errorf("syntaxes %v, want 244 AmberScript and 73 VkScript", syn)
	}
}
