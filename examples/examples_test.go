package examples

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"spvx/asm"
	"spvx/internal/oracle"
)

// assembled are the examples src/build.sh assembles with spvx as, the
// target environment it gives each, and whether the README shows the
// command.
var assembled = []struct {
	src, targetEnv, out string
	inREADME            bool
}{
	{"src/switch64.spvasm", "spv1.3", "switch64.spv", true},
	{"src/scan.spvasm", "spv1.2", "scan.spv", false},
}

// TestAssembledExamples checks that each shipped module assembled from
// assembly text is what the assembler makes of its source today.
func TestAssembledExamples(t *testing.T) {
	for _, e := range assembled {
		src, err := os.ReadFile(e.src)
		if err != nil {
			t.Fatal(err)
		}
		got, err := asm.AssembleBytes(src, asm.Options{TargetEnv: e.targetEnv, File: e.src})
		if err != nil {
			t.Fatalf("%s: %v", e.src, err)
		}
		want, err := os.ReadFile(e.out)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is not what %s assembles to with --target-env %s; run src/build.sh", e.out, e.src, e.targetEnv)
		}
	}
}

// TestREADMECommands checks that src/build.sh, and the README's "spvx as"
// example where there is one, name the flags that reproduce each shipped
// module.
func TestREADMECommands(t *testing.T) {
	build, err := os.ReadFile("src/build.sh")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Skipf("no README: %v", err)
	}
	for _, e := range assembled {
		name := strings.TrimPrefix(e.src, "src/")
		cmd := "as --target-env " + e.targetEnv + " " + name + " -o ../" + e.out
		if !strings.Contains(string(build), cmd) {
			t.Errorf("src/build.sh does not run %q, the command that reproduces examples/%s", cmd, e.out)
		}
		cmd = "spvx as --target-env " + e.targetEnv + " examples/" + e.src
		if e.inREADME && !strings.Contains(string(readme), cmd) {
			t.Errorf("README.md does not show %q, the command that reproduces examples/%s", cmd, e.out)
		}
	}
}

// TestCompiledExamples checks saxpy.spv against its GLSL source, compiled
// as src/build.sh does, where Debian's glslangValidator is installed.
func TestCompiledExamples(t *testing.T) {
	tool := oracle.Require(t, oracle.GlslangValidator)
	out := filepath.Join(t.TempDir(), "saxpy.spv")
	_, stderr, ok := oracle.Exec(t, tool, nil, "-V", "--target-env", "vulkan1.1", "src/saxpy.comp", "-o", out)
	if !ok {
		t.Fatalf("glslangValidator rejects src/saxpy.comp: %s", stderr)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("saxpy.spv")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("saxpy.spv is not what glslangValidator makes of src/saxpy.comp; run src/build.sh")
	}
}
