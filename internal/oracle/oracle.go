// Package oracle finds and runs Debian's SPIRV-Tools 2023.1 binaries
// (spirv-as, spirv-dis, spirv-val) and glslangValidator for differential
// tests. Tests call Require, which skips the test (with the reason) under
// -short or when the tool is absent or of another version.
//
// A tool is found with exec.LookPath, or at the path in the environment
// variable SPVX_<TOOL> (e.g. SPVX_SPIRV_AS=/opt/bin/spirv-as).
package oracle

import (
	"bytes"
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

// Path returns the path of tool, or an error saying why it is unusable.
func Path(tool string) (string, error) {
	env := "SPVX_" + strings.ToUpper(strings.NewReplacer("-", "_").Replace(tool))
	if p := os.Getenv(env); p != "" {
		return p, nil
	}
	p, err := exec.LookPath(tool)
	if err != nil {
		return "", fmt.Errorf("%s not found (install Debian's spirv-tools/glslang-tools, or set %s)", tool, env)
	}
	if strings.HasPrefix(tool, "spirv-") {
		out, _ := exec.Command(p, "--version").CombinedOutput()
		if !bytes.Contains(out, []byte(WantVersion)) {
			return "", fmt.Errorf("%s is not SPIRV-Tools %s: %s", p, WantVersion, firstLine(out))
		}
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

// Run runs the tool with args, feeding stdin, and returns stdout, stderr
// and whether it exited with status 0.
func Run(path string, stdin []byte, args ...string) (stdout, stderr []byte, ok bool) {
	cmd := exec.Command(path, args...)
	cmd.Stdin = bytes.NewReader(stdin)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	return o.Bytes(), e.Bytes(), err == nil
}
