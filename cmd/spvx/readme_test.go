package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// The README test: every example in README.md and docs/*.md is run as a
// testscript script, so the documents cannot show output the commands
// do not produce. The rules, which the documents' authors follow:
//
//   - An example is a fenced block with lines that start with "$ ". Each
//     such line is a command; the lines after it, up to the next "$ " line
//     or the block's end, are its expected output: its standard output
//     followed by its standard error. A command followed directly by
//     another (or by the block's end) must print nothing. Blocks without
//     "$ " lines (code, syntax, usage synopses, excerpts of output, and
//     ```sh blocks of commands that are not examples of a run, such as
//     ./test.sh or fuzzing, which take minutes) are not run; but a ```sh
//     block without "$ " that runs spvx fails the test, so no example is
//     left out silently.
//   - A command ending in `\` continues on the next line. Words are split
//     as sh does for quotes ('...' and "...", no expansion); "# ..." to the
//     end of the line is a comment, and a comment "# exit status N" says
//     the command exits N (else it must exit 0).
//   - The commands are "spvx ..." and "go run ./cmd/spvx ..." (both the
//     spvx under test), "go run ./examples/mkcheckpoint ...", "cd DIR",
//     "mkdir DIR", "A | B" (B reads A's standard output; only B's output
//     is shown) and "< FILE". Anything else is an error.
//   - Output lines that are "..." (indented or not) stand for any number of
//     lines. A duration, a decimal number followed by "s" or " s" at the
//     end of a line or before ")", matches any duration: times depend on
//     the machine and the caches.
//   - Each block runs in a fresh directory holding a copy of examples/;
//     "cd ../shared/X" goes to the shared reference folder beside the
//     checkout, and the block is skipped with a message when it is absent,
//     or in -short mode (these blocks run Amber scripts of the shared
//     corpus, the whole CTS set among them). Such a block also needs
//     glslangValidator (most of those scripts are GLSL) and is skipped
//     without it.

// A docExample is one "$ " block of a document, as a script.
type docExample struct {
	name   string            // file and line, as the script's name
	script string            // the testscript text
	want   map[string]string // expected outputs, by output key
	shared bool              // needs ../shared
	mkckpt bool              // needs the mkcheckpoint command
}

// TestREADME runs the examples of README.md and docs/*.md.
func TestREADME(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	docs, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	docs = append([]string{filepath.Join(root, "README.md")}, docs...)
	var examples []*docExample
	for _, doc := range docs {
		src, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		exs, err := parseDocExamples(filepath.Base(doc), string(src))
		if err != nil {
			t.Fatal(err)
		}
		examples = append(examples, exs...)
	}
	if len(examples) == 0 {
		t.Fatal("no examples found in README.md and docs/*.md")
	}
	runDocExamples(t, root, examples)
}

// runDocExamples writes the examples as scripts and runs them.
func runDocExamples(t *testing.T, root string, examples []*docExample) {
	dir := t.TempDir()
	want := map[string]string{}
	needCkpt := false
	for _, ex := range examples {
		script := ex.script
		if reason := skipReason(root, ex); reason != "" {
			script = "skip " + quoteScript(reason) + "\n"
		}
		needCkpt = needCkpt || ex.mkckpt
		if err := os.WriteFile(filepath.Join(dir, ex.name+".txtar"), []byte(script), 0o644); err != nil {
			t.Fatal(err)
		}
		for k, v := range ex.want {
			want[k] = v
		}
	}
	bin := t.TempDir()
	if needCkpt {
		buildMkcheckpoint(t, root, bin)
	}
	testscript.Run(t, testscript.Params{
		Dir: dir,
		Setup: func(env *testscript.Env) error {
			return setupDocExample(env, root, bin)
		},
		Cmds: map[string]func(*testscript.TestScript, bool, []string){
			"exec-status":   cmdExecStatus,
			"readme-output": func(ts *testscript.TestScript, neg bool, args []string) { cmdReadmeOutput(ts, want, args) },
		},
	})
}

// skipReason says why an example cannot run here, or "".
func skipReason(root string, ex *docExample) string {
	if !ex.shared {
		return ""
	}
	if testing.Short() {
		return "runs scripts of the shared corpus: not in -short mode"
	}
	if _, err := os.Stat(filepath.Join(root, "..", "shared")); err != nil {
		return "needs ../shared beside the checkout: " + err.Error()
	}
	if _, err := exec.LookPath("glslangValidator"); err != nil {
		return "needs glslangValidator on PATH for the GLSL of the shared corpus's scripts"
	}
	return ""
}

// buildMkcheckpoint builds examples/mkcheckpoint into bin for the
// examples that run it with go run.
func buildMkcheckpoint(t *testing.T, root, bin string) {
	cmd := exec.Command("go", "build", "-o", filepath.Join(bin, "mkcheckpoint"), "./examples/mkcheckpoint")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./examples/mkcheckpoint: %v\n%s", err, out)
	}
}

// setupDocExample gives each script a copy of examples/, the shared
// folder's place, mkcheckpoint on PATH, and the user's GLSL cache (the
// script's HOME is not a real directory).
func setupDocExample(env *testscript.Env, root, bin string) error {
	if err := os.CopyFS(filepath.Join(env.WorkDir, "examples"), os.DirFS(filepath.Join(root, "examples"))); err != nil {
		return err
	}
	env.Setenv("SHARED", filepath.Join(root, "..", "shared"))
	env.Setenv("PATH", bin+string(os.PathListSeparator)+env.Getenv("PATH"))
	if d, err := os.UserCacheDir(); err == nil {
		env.Setenv("XDG_CACHE_HOME", d)
	}
	return nil
}

// cmdExecStatus runs "exec-status N PROG ARGS..." through testscript's
// exec and requires exit status N.
func cmdExecStatus(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exec-status N PROG [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exec-status: bad status %q", args[0])
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exec-status: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("exit status %d, want %d", got, want)
	}
}

// cmdReadmeOutput compares the last command's standard output and error
// with the document's text for the example KEY.
func cmdReadmeOutput(ts *testscript.TestScript, want map[string]string, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: readme-output KEY")
	}
	w, ok := want[args[0]]
	if !ok {
		ts.Fatalf("readme-output: no expected output %q", args[0])
	}
	got := ts.ReadFile("stdout") + ts.ReadFile("stderr")
	if !matchOutput(splitLines(w), splitLines(got)) {
		ts.Fatalf("%s: the output differs from the document's\n--- document:\n%s--- command:\n%s", args[0], w, got)
	}
}

// splitLines splits text into lines, without the final newline's empty
// line.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

var durationRE = regexp.MustCompile(`[0-9]+(\.[0-9]+)? ?s(\)|$)`)

// normLine replaces each duration of a line by a placeholder.
func normLine(s string) string {
	return durationRE.ReplaceAllString(s, "<duration>$2")
}

// matchOutput reports whether got matches the pattern lines want, where a
// "..." line matches any number of lines.
func matchOutput(want, got []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	if strings.TrimSpace(want[0]) == "..." {
		for i := 0; i <= len(got); i++ {
			if matchOutput(want[1:], got[i:]) {
				return true
			}
		}
		return false
	}
	return len(got) > 0 && normLine(want[0]) == normLine(got[0]) && matchOutput(want[1:], got[1:])
}

// fence is a Markdown code fence line.
var fence = regexp.MustCompile("^```")

// parseDocExamples finds the "$ " blocks of a document and translates
// each into a script.
func parseDocExamples(doc, src string) ([]*docExample, error) {
	lines := strings.Split(src, "\n")
	var out []*docExample
	for i := 0; i < len(lines); i++ {
		if !fence.MatchString(lines[i]) {
			continue
		}
		start := i + 1
		for i++; i < len(lines) && !fence.MatchString(lines[i]); i++ {
		}
		block := lines[start:min(i, len(lines))]
		if !hasPrompt(block) {
			if l, ok := untestedCommand(block); ok && isShellFence(lines[start-1]) {
				return nil, fmt.Errorf("%s:%d: a spvx command outside a \"$ \" example: write it as \"$ %s\" with its output", doc, start+1+l, strings.TrimSpace(block[l]))
			}
			continue
		}
		ex, err := translateBlock(doc, start+1, block)
		if err != nil {
			return nil, err
		}
		out = append(out, ex)
	}
	return out, nil
}

// isShellFence reports whether a fence opens a block of shell commands,
// which are to be typed (a plain fence may hold a usage synopsis).
func isShellFence(l string) bool {
	lang := strings.TrimSpace(strings.TrimPrefix(l, "```"))
	return lang == "sh" || lang == "shell" || lang == "console" || lang == "bash"
}

// hasPrompt reports whether a block has a "$ " line.
func hasPrompt(block []string) bool {
	for _, l := range block {
		if strings.HasPrefix(l, "$ ") {
			return true
		}
	}
	return false
}

// untestedCommand finds a line of a block that is a spvx command to type.
func untestedCommand(block []string) (int, bool) {
	for i, l := range block {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "spvx ") || strings.HasPrefix(l, "go run ./cmd/spvx ") || strings.HasPrefix(l, "go run ./examples/") {
			return i, true
		}
	}
	return 0, false
}
