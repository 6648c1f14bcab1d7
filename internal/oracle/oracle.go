// Package oracle finds and runs Debian's SPIRV-Tools 2023.1 binaries
// (spirv-as, spirv-dis, spirv-val), for differential tests, and its
// glslangValidator (glslang 12.0.0), for the examples test. Tests call Require, which skips the test (with the reason) under
// -short or when the tool is absent or of another version.
//
// A tool is found with exec.LookPath, or at the path in the environment
// variable SPVX_<TOOL> (e.g. SPVX_SPIRV_AS=/opt/bin/spirv-as); either way
// it must answer --version as the expected release does.
//
// A run has three outcomes, which callers must keep apart: the tool
// accepted its input (exit status 0), rejected it (another exit status),
// or could not be run at all (it did not start, or a signal killed it).
// The last is no verdict on the input: it fails the test, or skips it with
// that reason, and is never counted as a rejection.
package oracle

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Tool names.
const (
	SpirvAs          = "spirv-as"
	SpirvDis         = "spirv-dis"
	SpirvVal         = "spirv-val"
	GlslangValidator = "glslangValidator"
)

// WantVersion is the SPIRV-Tools release the differential tests were
// written against: its behaviour, not the current one, is what they expect.
const WantVersion = "v2023.1"

// WantGlslangVersion is the glslang release (Debian's glslang-tools
// 12.0.0) whose output the examples test expects byte for byte.
const WantGlslangVersion = "11:12.0.0"

// wantVersion returns what the --version output of tool must contain.
func wantVersion(tool string) string {
	if strings.HasPrefix(tool, "spirv-") {
		return "SPIRV-Tools " + WantVersion
	}
	if tool == GlslangValidator {
		return "Glslang Version: " + WantGlslangVersion
	}
	return ""
}

// EnvVar returns the name of the environment variable that overrides the
// path of tool: SPVX_SPIRV_AS for spirv-as.
func EnvVar(tool string) string {
	return "SPVX_" + strings.ToUpper(strings.NewReplacer("-", "_").Replace(tool))
}

// Path returns the path of tool, or an error saying why it is unusable:
// not found, or not the expected release (also for a path set in
// EnvVar(tool)).
func Path(tool string) (string, error) {
	env := EnvVar(tool)
	p := os.Getenv(env)
	from := "$" + env
	if p == "" {
		var err error
		p, err = exec.LookPath(tool)
		if err != nil {
			return "", fmt.Errorf("%s not found (install Debian's spirv-tools/glslang-tools, or set %s)", tool, env)
		}
		from = "PATH"
	}
	want := wantVersion(tool)
	if want == "" {
		return p, nil
	}
	out, err := exec.Command(p, "--version").CombinedOutput()
	if err != nil && len(out) == 0 {
		return "", fmt.Errorf("%s (from %s) does not run: %v", p, from, err)
	}
	if !bytes.Contains(out, []byte(want)) {
		return "", fmt.Errorf("%s (from %s) is not %s: %s", p, from, want, firstLine(out))
	}
	return p, nil
}

func firstLine(b []byte) string {
	s, _, _ := strings.Cut(string(b), "\n")
	return s
}

// Require returns the tool's path or skips the test.
func Require(t testing.TB, tool string) string {
	t.Helper()
	if testing.Short() {
		t.Skipf("-short: skipping the differential test against %s", tool)
	}
	p, err := Path(tool)
	if err != nil {
		t.Skipf("skipping the differential test: %v", err)
	}
	return p
}

// Status is the outcome of one run of a tool.
type Status uint8

const (
	// Accepted: the tool exited with status 0.
	Accepted Status = iota
	// Rejected: the tool exited with a non-zero status, refusing its input.
	Rejected
	// Failed: the tool did not start, or was killed by a signal. This is
	// no verdict on the input.
	Failed
)

func (s Status) String() string {
	switch s {
	case Accepted:
		return "accepted"
	case Rejected:
		return "rejected"
	}
	return "failed to run"
}

// Result is what one run of a tool produced.
type Result struct {
	Stdout, Stderr []byte
	Status         Status
	// Err says why, when Status is Rejected (the exit status) or Failed
	// (the start error or the signal).
	Err error
}

// Run runs the tool at path with args, feeding stdin. It is safe to call
// from any goroutine; the caller must tell Failed from Rejected.
func Run(path string, stdin []byte, args ...string) Result {
	cmd := exec.Command(path, args...)
	cmd.Stdin = bytes.NewReader(stdin)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	r := Result{Stdout: o.Bytes(), Stderr: e.Bytes(), Err: err}
	var exit *exec.ExitError
	switch {
	case err == nil:
		r.Status = Accepted
	case errors.As(err, &exit) && exit.Exited():
		r.Status = Rejected
	default:
		// Not started, or ended by a signal (Exited is false then).
		r.Status = Failed
		r.Err = fmt.Errorf("%s %s: %v", path, strings.Join(args, " "), err)
	}
	return r
}

// Exec is Run for the goroutine running t: it fails t at once when the
// tool could not be run, and otherwise returns its outputs and whether it
// accepted the input (false: it rejected it).
func Exec(t testing.TB, path string, stdin []byte, args ...string) (stdout, stderr []byte, ok bool) {
	t.Helper()
	r := Run(path, stdin, args...)
	if r.Status == Failed {
		t.Fatalf("the oracle could not be run: %v", r.Err)
	}
	return r.Stdout, r.Stderr, r.Status == Accepted
}
