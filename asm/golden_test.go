package asm

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"spvx/spirv"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the assembler's output")

// goldenCase is one testdata/*.spvasm file with the options its
// "; options:" line asks for.
type goldenCase struct {
	name string // file name without .spvasm
	src  []byte
	opt  Options
}

func goldenCases(t testing.TB) []goldenCase {
	files, err := filepath.Glob("testdata/*.spvasm")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata/*.spvasm: %v", err)
	}
	var cases []goldenCase
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		c := goldenCase{name: strings.TrimSuffix(filepath.Base(f), ".spvasm"), src: src}
		c.opt.File = filepath.Base(f)
		first, _, _ := bytes.Cut(src, []byte("\n"))
		if opts, ok := bytes.CutPrefix(first, []byte("; options:")); ok {
			for _, o := range strings.Fields(string(opts)) {
				switch k, v, _ := strings.Cut(o, "="); k {
				case "preserve-numeric-ids":
					c.opt.PreserveNumericIDs = true
				case "target-env":
					c.opt.TargetEnv = v
				case "lax-ids":
					c.opt.LaxIDs = true
				default:
					t.Fatalf("%s: unknown option %q", f, o)
				}
			}
		}
		cases = append(cases, c)
	}
	return cases
}

// formatWords writes a module one instruction per line, in hex: the
// header first, then each instruction's words as its word count says.
func formatWords(words []uint32) string {
	var b strings.Builder
	for i := 0; i < len(words) && i < 5; i++ {
		fmt.Fprintf(&b, "%08x ", words[i])
	}
	b.WriteString("\n")
	for i := 5; i < len(words); {
		n := int(words[i] >> 16)
		if n == 0 || i+n > len(words) {
			n = len(words) - i // raw words that do not form instructions
		}
		for k, w := range words[i : i+n] {
			if k > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprintf(&b, "%08x", w)
		}
		b.WriteString("\n")
		i += n
	}
	return b.String()
}

// TestGolden assembles each testdata/*.spvasm and compares the words with
// its .golden file (go test -update rewrites them). The goldens of the
// files Debian's spirv-as accepts are also checked against it by
// TestGoldenOracle, so they hold spirv-as's output, not just ours.
func TestGolden(t *testing.T) {
	for _, c := range goldenCases(t) {
		t.Run(c.name, func(t *testing.T) {
			words, err := Assemble(c.src, c.opt)
			if err != nil {
				t.Fatalf("Assemble: %v", err)
			}
			got := formatWords(words)
			path := filepath.Join("testdata", c.name+".golden")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if got != string(want) {
				t.Errorf("Assemble(%s) differs from %s:\ngot:\n%s\nwant:\n%s", c.name, path, got, want)
			}
			// Every golden module must decode, except where raw words
			// make instructions the grammar does not know.
			if c.name != "immediates" {
				if _, err := spirv.DecodeWords(words); err != nil {
					t.Errorf("DecodeWords: %v", err)
				}
			}
		})
	}
}
