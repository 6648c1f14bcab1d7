package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The test modules and their expected text live with the dis package.
const disTestdata = "../../dis/testdata"

func readTestdata(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(disTestdata, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// runCLI runs spvx in-process with stdin and returns its exit status,
// stdout and stderr.
func runDisCLI(t *testing.T, stdin []byte, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, stdio{bytes.NewReader(stdin), &out, &errb})
	return code, out.String(), errb.String()
}

func TestDisCLI(t *testing.T) {
	kernel := filepath.Join(disTestdata, "kernel.spv")
	control := filepath.Join(disTestdata, "control.spv")
	golden := func(name string) string { return string(readTestdata(t, "golden/"+name+".spvasm")) }
	bad := filepath.Join(t.TempDir(), "bad.spv")
	if err := os.WriteFile(bad, append(readTestdata(t, "kernel.spv")[:20:20], 0xFF, 0xFF, 0x01, 0x00), 0o666); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		args     []string
		stdin    []byte
		code     int
		stdout   string // exact, unless "" and code != 0
		stderr   string // substring
		noStdout bool
	}{
		{name: "default", args: []string{kernel}, stdout: golden("kernel.default")},
		{name: "raw-id", args: []string{"--raw-id", kernel}, stdout: golden("kernel.raw-id")},
		{name: "flags after the file", args: []string{control, "--comment", "-offsets", "--color"},
			stdout: golden("control.comment-offsets-color")},
		{name: "single dash flags", args: []string{"-nested-indent", "-reorder-blocks", "-comment", control},
			stdout: golden("control.nested-reorder-comment")},
		{name: "no-header no-indent", args: []string{"--no-header", control}, stdout: golden("control.no-header")},
		{name: "no-indent", args: []string{"--no-indent", control}, stdout: golden("control.no-indent")},
		{name: "no-color wins", args: []string{"--color", "--no-color", control}, stdout: golden("control.default")},
		{name: "last color flag wins", args: []string{"--no-color", "--color", control}, stdout: golden("control.color")},
		{name: "stdin", args: []string{"-"}, stdin: readTestdata(t, "kernel.spv"), stdout: golden("kernel.default")},
		{name: "stdin after --", args: []string{"--", "-"}, stdin: readTestdata(t, "kernel.spv"), stdout: golden("kernel.default")},
		{name: "-o -", args: []string{"-o", "-", kernel}, stdout: golden("kernel.default")},
		{name: "help", args: []string{"--help"}, stdout: disUsage},
		{name: "h", args: []string{"-h"}, stdout: disUsage},
		{name: "decode error", args: []string{bad}, code: 1, noStdout: true,
			stderr: "spvx dis: " + bad + ": instruction #0 at word 5: unknown opcode 65535\n"},
		{name: "missing file", args: []string{"nope.spv"}, code: 1, noStdout: true,
			stderr: "spvx dis: nope.spv: no such file or directory\n"},
		{name: "one bad file of two", args: []string{"-o", "-", bad, kernel}, code: 1,
			stdout: golden("kernel.default"), stderr: "unknown opcode 65535"},
		{name: "no file reads stdin", args: nil, stdin: readTestdata(t, "kernel.spv"), stdout: golden("kernel.default")},
		{name: "unknown flag", args: []string{"--bogus", kernel}, code: 2, noStdout: true,
			stderr: "spvx dis: unknown flag --bogus (run 'spvx dis --help')\n"},
		{name: "unknown flag near a known one", args: []string{"--raw-ids", kernel}, code: 2, noStdout: true,
			stderr: "spvx dis: unknown flag --raw-ids; did you mean --raw-id? (run 'spvx dis --help')\n"},
		{name: "bool flag with a bad value", args: []string{"--raw-id=yes", kernel}, code: 2, noStdout: true, stderr: `invalid value "yes" for flag --raw-id`},
		{name: "-o without a name", args: []string{kernel, "-o"}, code: 2, noStdout: true, stderr: "spvx dis: flag -o needs a value (run 'spvx dis --help')\n"},
		{name: "-o names a file with several inputs", args: []string{"-o", kernel, kernel, control}, code: 2, noStdout: true,
			stderr: "with several input files, -o must name a directory"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runDisCLI(t, tc.stdin, append([]string{"dis"}, tc.args...)...)
			if code != tc.code {
				t.Errorf("exit status %d, want %d (stderr %q)", code, tc.code, stderr)
			}
			if tc.noStdout && stdout != "" {
				t.Errorf("stdout = %.200q, want nothing", stdout)
			}
			if !tc.noStdout && stdout != tc.stdout {
				t.Errorf("stdout differs: got %d bytes, want %d", len(stdout), len(tc.stdout))
			}
			if !strings.Contains(stderr, tc.stderr) {
				t.Errorf("stderr = %q, want it to contain %q", stderr, tc.stderr)
			}
			if tc.stderr == "" && stderr != "" {
				t.Errorf("stderr = %q, want nothing", stderr)
			}
		})
	}
}

func TestDisCLIFiles(t *testing.T) {
	dir := t.TempDir()
	names := []string{"kernel", "control", "types"}
	var inputs []string
	for _, n := range names {
		p := filepath.Join(dir, n+".spv")
		if err := os.WriteFile(p, readTestdata(t, n+".spv"), 0o666); err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, p)
	}
	check := func(path, golden string) {
		t.Helper()
		got, err := os.ReadFile(path)
		if err != nil {
			t.Error(err)
			return
		}
		if want := readTestdata(t, "golden/"+golden+".spvasm"); !bytes.Equal(got, want) {
			t.Errorf("%s differs from %s", path, golden)
		}
	}

	// One input, -o FILE.
	out := filepath.Join(dir, "one.txt")
	if code, _, stderr := runDisCLI(t, nil, "dis", "--raw-id", "-o", out, inputs[0]); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	check(out, "kernel.raw-id")

	// Several inputs: beside each input.
	if code, stdout, stderr := runDisCLI(t, nil, append([]string{"dis"}, inputs...)...); code != 0 || stdout != "" {
		t.Fatalf("exit %d, stdout %q: %s", code, stdout, stderr)
	}
	for _, n := range names {
		check(filepath.Join(dir, n+".spvasm"), n+".default")
	}

	// Several inputs, -o DIR.
	outDir := filepath.Join(dir, "out")
	if err := os.Mkdir(outDir, 0o777); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runDisCLI(t, nil, append([]string{"dis", "-o", outDir, "--raw-id"}, inputs...)...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, n := range names {
		check(filepath.Join(outDir, n+".spvasm"), n+".raw-id")
	}

	// A module that does not decode leaves no output file.
	bad := filepath.Join(dir, "bad.spv")
	if err := os.WriteFile(bad, []byte("not a module"), 0o666); err != nil {
		t.Fatal(err)
	}
	badOut := filepath.Join(dir, "bad.txt")
	code, _, stderr := runDisCLI(t, nil, "dis", "-o", badOut, bad)
	if code != 1 || stderr != "spvx dis: "+bad+": this is text, not a SPIR-V binary; if it is SPIR-V assembly, run 'spvx as' first\n" {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(badOut); !os.IsNotExist(err) {
		t.Errorf("%s exists after a decode error", badOut)
	}

	// An output that cannot be written.
	code, _, stderr = runDisCLI(t, nil, "dis", "-o", filepath.Join(dir, "no", "such", "dir.txt"), inputs[0])
	if code != 1 || !strings.Contains(stderr, "no such file or directory") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

func TestIsTerminal(t *testing.T) {
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer null.Close()
	if isTerminal(null) {
		t.Errorf("isTerminal(%s) = true", os.DevNull)
	}
	if isTerminal(&bytes.Buffer{}) {
		t.Error("isTerminal(buffer) = true")
	}
	if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
		defer tty.Close()
		if !isTerminal(tty) {
			t.Error("isTerminal(/dev/tty) = false")
		}
	}
}

// TestHexDumpInput: dis and info take a module written as a hex dump, as
// SPIRV-Tools' tools do, and point at the line and column of a bad token.
func TestHexDumpInput(t *testing.T) {
	bin := readTestdata(t, "kernel.spv")
	var words, bytesText strings.Builder
	for i := 0; i < len(bin); i += 4 {
		fmt.Fprintf(&words, "0x%08x,", uint32(bin[i])|uint32(bin[i+1])<<8|uint32(bin[i+2])<<16|uint32(bin[i+3])<<24)
		if i%32 == 28 {
			words.WriteString("\n")
		}
	}
	for _, c := range bin {
		fmt.Fprintf(&bytesText, "%02x ", c)
	}
	dir := t.TempDir()
	hexFile := filepath.Join(dir, "kernel.hex")
	if err := os.WriteFile(hexFile, []byte(words.String()), 0o666); err != nil {
		t.Fatal(err)
	}
	want := string(readTestdata(t, "golden/kernel.default.spvasm"))
	if code, out, errOut := runDisCLI(t, nil, "dis", hexFile); code != exitOK || out != want {
		t.Errorf("dis of a word dump: exit %d, stderr %q, same text %v", code, errOut, out == want)
	}
	if code, out, errOut := runDisCLI(t, []byte(bytesText.String()), "dis", "-"); code != exitOK || out != want {
		t.Errorf("dis of a byte dump on stdin: exit %d, stderr %q, same text %v", code, errOut, out == want)
	}
	_, wantInfo, _ := runDisCLI(t, bin, "info", "-")
	if code, out, errOut := runDisCLI(t, []byte(words.String()), "info", "-"); code != exitOK || out != wantInfo {
		t.Errorf("info of a word dump: exit %d, stderr %q, output %q", code, errOut, out)
	}
	bad := filepath.Join(dir, "bad.hex")
	if err := os.WriteFile(bad, []byte("0x07230203, 0x00010000,\n  0x0008000b, 0xzz\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	wantErr := "spvx dis: " + bad + `: hex input:2:15: "0xzz" is not a 32-bit word like 0x07230203 (the dump started as words)` + "\n"
	if code, out, errOut := runDisCLI(t, nil, "dis", bad); code != exitRejected || out != "" || errOut != wantErr {
		t.Errorf("dis of a bad dump: exit %d, stdout %q, stderr %q; want %q", code, out, errOut, wantErr)
	}
}
