package val

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"spvx/spirv"
)

const sharedDir = "../../shared"

func corpusGlob(t testing.TB, pattern string) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(sharedDir, "corpus", pattern))
	if len(files) == 0 {
		t.Skipf("corpus not found under %s: skipping", sharedDir)
	}
	return files
}

func decodeFile(t testing.TB, path string) *spirv.Module {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := spirv.Decode(b)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return m
}

// TestCorpusValid: zero false positives. Every valid corpus module (which
// current spirv-val accepts with default options) and big.spv pass.
func TestCorpusValid(t *testing.T) {
	files := append(corpusGlob(t, "valid/*.spv"), filepath.Join(sharedDir, "corpus/big.spv"))
	bad := 0
	for _, f := range files {
		m := decodeFile(t, f)
		if err := Validate(m, Options{}); err != nil {
			bad++
			if bad <= 20 {
				t.Errorf("%s: rejected: %v", filepath.Base(f), err)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d valid modules rejected", bad, len(files))
	}
}

// invalidFloor is how many shared invalid modules get spirv-val's first
// message line. It may only go up.
const invalidFloor = 43

// TestCorpusInvalid compares the first error on each shared invalid module
// with current spirv-val's (invalid/spirv-val.tsv) and lists the misses.
func TestCorpusInvalid(t *testing.T) {
	corpusGlob(t, "invalid/*.spv")
	f, err := os.Open(filepath.Join(sharedDir, "corpus/invalid/spirv-val.tsv"))
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	sc.Scan() // header
	same, total := 0, 0
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 2 {
			continue
		}
		total++
		path := filepath.Join(sharedDir, "corpus/invalid", cols[0])
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		got := "(accepted)"
		m, err := spirv.Decode(b)
		if err != nil {
			got = "(does not decode: " + err.Error() + ")"
			if e, ok := FromDecodeError(err); ok {
				got = "error: line " + itoa(e.Line()) + ": " + e.Msg
			}
		} else if err := Validate(m, Options{}); err != nil {
			e := err.(ErrorList)[0]
			got = "error: line " + itoa(e.Line()) + ": " + strings.SplitN(e.Error(), "\n", 2)[0]
		}
		if got == cols[1] {
			same++
		} else {
			t.Logf("miss %s:\n\tgot  %s\n\twant %s", cols[0], got, cols[1])
		}
	}
	t.Logf("%d of %d invalid modules get spirv-val's first message line", same, total)
	if same < invalidFloor {
		t.Errorf("only %d match, floor is %d", same, invalidFloor)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
