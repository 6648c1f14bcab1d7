package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const asText = "OpCapability Shader\nOpMemoryModel Logical GLSL450\n"

// asModule is asText assembled: header (SPIR-V 1.6, generator 7, bound 1)
// and two instructions.
var asModule = []byte{
	0x03, 0x02, 0x23, 0x07, 0x00, 0x06, 0x01, 0x00, 0x00, 0x00, 0x07, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x11, 0x00, 0x02, 0x00, 0x01, 0x00, 0x00, 0x00,
	0x0e, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
}

// runAsCLI runs spvx as in-process, in dir, with stdin.
func runAsCLI(t *testing.T, dir, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	t.Chdir(dir)
	var out, errb bytes.Buffer
	code = run(append([]string{"as"}, args...), stdio{strings.NewReader(stdin), &out, &errb})
	return code, out.String(), errb.String()
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestAsDefaultOutput(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a.spvasm"), asText)
	code, _, stderr := runAsCLI(t, dir, "", "a.spvasm")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if got := readFile(t, filepath.Join(dir, "out.spv")); !bytes.Equal(got, asModule) {
		t.Errorf("out.spv = % x\nwant % x", got, asModule)
	}
}

func TestAsStdinStdout(t *testing.T) {
	code, stdout, stderr := runAsCLI(t, t.TempDir(), asText, "-o", "-", "-")
	if code != exitOK || stdout != string(asModule) {
		t.Errorf("exit %d, stdout % x, stderr %s", code, stdout, stderr)
	}
	// No file at all also reads standard input.
	dir := t.TempDir()
	if code, _, stderr := runAsCLI(t, dir, asText); code != exitOK {
		t.Errorf("no file: exit %d: %s", code, stderr)
	}
	if got := readFile(t, filepath.Join(dir, "out.spv")); !bytes.Equal(got, asModule) {
		t.Errorf("no file: out.spv = % x", got)
	}
}

func TestAsFlagsAfterFile(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a.spvasm"), asText)
	code, _, stderr := runAsCLI(t, dir, "", "a.spvasm", "--target-env", "vulkan1.0", "-o", "x.spv")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got := readFile(t, filepath.Join(dir, "x.spv"))
	if got[5] != 0 || got[6] != 1 { // version word 0x00010000
		t.Errorf("version bytes % x, want SPIR-V 1.0", got[4:8])
	}
}

func TestAsPreserveNumericIDs(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a.spvasm"), "%7 = OpTypeVoid\n")
	code, stdout, stderr := runAsCLI(t, dir, "", "--preserve-numeric-ids", "-o", "-", "a.spvasm")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if b := []byte(stdout); b[12] != 8 || b[24] != 7 {
		t.Errorf("bound %d, id %d; want 8, 7", b[12], b[24])
	}
}

func TestAsSeveralFiles(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a.spvasm"), asText)
	writeFile(t, filepath.Join(dir, "b.asm"), asText)
	code, _, stderr := runAsCLI(t, dir, "", "a.spvasm", "b.asm")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, name := range []string{"a.spv", "b.spv"} {
		if got := readFile(t, filepath.Join(dir, name)); !bytes.Equal(got, asModule) {
			t.Errorf("%s = % x", name, got)
		}
	}
	out := filepath.Join(dir, "out")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runAsCLI(t, dir, "", "-o", "out", "a.spvasm", "b.asm"); code != exitOK {
		t.Fatalf("-o dir: exit %d: %s", code, stderr)
	}
	for _, name := range []string{"a.spv", "b.spv"} {
		if got := readFile(t, filepath.Join(out, name)); !bytes.Equal(got, asModule) {
			t.Errorf("out/%s = % x", name, got)
		}
	}
}

func TestAsErrors(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "bad.spvasm"), "OpCapability Shader\nOpCapability Bogus\nOpFoo\n")
	writeFile(t, filepath.Join(dir, "good.spvasm"), asText)
	code, _, stderr := runAsCLI(t, dir, "", "bad.spvasm", "good.spvasm")
	if code != exitRejected {
		t.Errorf("exit %d, want %d", code, exitRejected)
	}
	want := "bad.spvasm:2:14: Invalid capability 'Bogus'.\nbad.spvasm:3:1: Invalid Opcode name 'OpFoo'\n"
	if stderr != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", stderr, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "bad.spv")); err == nil {
		t.Errorf("bad.spv written for a rejected input")
	}
	if got := readFile(t, filepath.Join(dir, "good.spv")); !bytes.Equal(got, asModule) {
		t.Errorf("good.spv not written after another input failed")
	}

	code, _, stderr = runAsCLI(t, dir, "", "--spirv-as-errors", "bad.spvasm")
	if code != exitRejected || stderr != "error: 2: 14: Invalid capability 'Bogus'.\n" {
		t.Errorf("--spirv-as-errors: exit %d, stderr %q", code, stderr)
	}

	code, _, stderr = runAsCLI(t, dir, "OpName %x \"x\"\n", "-o", "-", "-")
	if code != exitRejected || stderr != "<stdin>:1:8: ID '%x' has not been defined\n" {
		t.Errorf("undefined id: exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = runAsCLI(t, dir, "OpName %x \"x\"\n", "--lax-ids", "-o", "-", "-")
	if code != exitOK {
		t.Errorf("--lax-ids: exit %d, stderr %q", code, stderr)
	}

	code, _, stderr = runAsCLI(t, dir, "", "missing.spvasm")
	if code != exitRejected || !strings.Contains(stderr, "missing.spvasm") {
		t.Errorf("missing file: exit %d, stderr %q", code, stderr)
	}
}

func TestAsUsage(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"--target-env", "spv2.0", "a.spvasm"},
		{"--bogus"},
		{"a.spvasm", "-"},
		{"-o", "-", "a.spvasm", "b.spvasm"},
	} {
		if code, _, stderr := runAsCLI(t, dir, "", args...); code != exitUsage {
			t.Errorf("spvx as %v: exit %d, want %d (stderr %q)", args, code, exitUsage, stderr)
		}
	}
	code, stdout, _ := runAsCLI(t, dir, "", "--help")
	if code != exitOK || !strings.Contains(stdout, "usage: spvx as") || !strings.Contains(stdout, "--target-env") {
		t.Errorf("--help: exit %d, stdout %q", code, stdout)
	}
}

// TestAsPreservedIDLimit checks that an id that leaves no bound is an
// input error (exit 1, FILE:LINE:COL) and writes nothing.
func TestAsPreservedIDLimit(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a.spvasm"), asText+"%4294967295 = OpTypeVoid\n")
	code, _, stderr := runAsCLI(t, dir, "", "--preserve-numeric-ids", "a.spvasm", "-o", "a.spv")
	if code != exitRejected || !strings.Contains(stderr, "a.spvasm:3:1: ID '%4294967295' cannot keep its number") {
		t.Errorf("exit %d, %q; want %d and the id error", code, stderr, exitRejected)
	}
	if _, err := os.Stat(filepath.Join(dir, "a.spv")); err == nil {
		t.Errorf("a.spv written for a rejected input")
	}
	if code, _, stderr := runAsCLI(t, dir, "", "--preserve-numeric-ids", "--spirv-as-errors", "a.spvasm", "-o", "a.spv"); code != exitRejected || !strings.HasPrefix(stderr, "error: 3: 1: ID '%4294967295'") {
		t.Errorf("--spirv-as-errors: exit %d, %q", code, stderr)
	}
}

// TestAsSeveralFilesNoDir checks that -o with several inputs must name an
// existing directory, a usage error given once, as spvx dis does, not one
// open error per input.
func TestAsSeveralFilesNoDir(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a.spvasm"), asText)
	writeFile(t, filepath.Join(dir, "b.spvasm"), asText)
	code, _, stderr := runAsCLI(t, dir, "", "-o", "out/", "a.spvasm", "b.spvasm")
	if code != exitUsage || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "-o out/: with several input files, -o must name a directory") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}
