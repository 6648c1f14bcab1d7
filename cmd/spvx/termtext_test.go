package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTermSafe(t *testing.T) {
	for _, c := range []struct {
		in        string
		keepLines bool
		want      string
	}{
		{"plain/näme.amber", false, "plain/näme.amber"},
		{"a\x1b[2Jb", false, `a\x1b[2Jb`},
		{"line\nnext\tx", false, `line\x0anext\x09x`},
		{"line\nnext\tx\x07", true, "line\nnext\tx\\x07"},
		{"c1\u009bq\x7f", false, `c1\u009bq\x7f`},
		{"bad\xffutf8", false, `bad\xffutf8`},
	} {
		if got := termSafe(c.in, c.keepLines); got != c.want {
			t.Errorf("termSafe(%q, %v) = %q, want %q", c.in, c.keepLines, got, c.want)
		}
	}
}

// TestRunScriptNameEscaped checks that the text report of spvx run escapes
// the control characters of a script's name.
func TestRunScriptNameEscaped(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "evil\x1b]0;title\x07.amber")
	if err := os.WriteFile(name, []byte("#!amber\nSHADER compute x GLSL\nEND\n"), 0o644); err != nil {
		t.Skip("cannot create the file:", err)
	}
	out, _, _ := runCLI(t, nil, "run", name)
	if strings.ContainsAny(out, "\x1b\x07") || !strings.Contains(out, `evil\x1b]0;title\x07.amber`) {
		t.Errorf("report: %q", out)
	}
}
