package main

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestDispatch(t *testing.T) {
	if _, errOut, code := runCLI(t, nil); code != exitUsage || !strings.Contains(errOut, "usage: spvx") {
		t.Errorf("no arguments: code %d, stderr %q", code, errOut)
	}
	if out, _, code := runCLI(t, nil, "--help"); code != exitOK || !strings.Contains(out, "info") {
		t.Errorf("--help: code %d, stdout %q", code, out)
	}
	if _, errOut, code := runCLI(t, nil, "frobnicate"); code != exitUsage || !strings.Contains(errOut, `unknown command "frobnicate"`) {
		t.Errorf("unknown command: code %d, stderr %q", code, errOut)
	}
	for _, c := range commands {
		if out, errOut, code := runCLI(t, nil, c.name, "--help"); code != exitOK || !strings.Contains(strings.ToLower(out+errOut), "usage") {
			t.Errorf("spvx %s --help: code %d, stderr %q", c.name, code, errOut)
		}
	}
}

func TestInfo(t *testing.T) {
	out, errOut, code := runCLI(t, nil, "info", "--ops", "../../examples/saxpy.spv")
	if code != exitOK {
		t.Fatalf("code %d, stderr %s", code, errOut)
	}
	for _, want := range []string{
		"version:      1.3 (little-endian)",
		"generator:    Khronos Glslang Reference Front End; 11 (tool 8, 0x0008000b)",
		"bound:        82",
		"capabilities: Shader, GroupNonUniform, GroupNonUniformArithmetic",
		`imports:      %1 "GLSL.std.450"`,
		"memory model: Logical GLSL450",
		`GLCompute "main" %4: interface 4, local size 64x1x1`,
		"instructions: 149 (597 words)",
		"     18 OpDecorate",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestInfoStdinAndErrors(t *testing.T) {
	b, err := os.ReadFile("../../examples/switch64.spv")
	if err != nil {
		t.Fatal(err)
	}
	if out, _, code := runCLI(t, b, "info", "-"); code != exitOK || !strings.Contains(out, "local size 8x4x1") {
		t.Errorf("stdin: code %d, out %q", code, out)
	}
	out, errOut, code := runCLI(t, nil, "info", "../../examples/switch64.spv", "missing.spv")
	if code != exitRejected || !strings.Contains(out, "switch64.spv:") || !strings.Contains(errOut, "missing.spv") {
		t.Errorf("missing file: code %d, stderr %q", code, errOut)
	}
	if _, errOut, code := runCLI(t, []byte("\x03\x02\x23\x07\x00\x00\x01\x00\x00\x00\x00\x00\x05\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"), "info", "-"); code != exitRejected || !strings.Contains(errOut, "at word 5") {
		t.Errorf("bad module: code %d, stderr %q", code, errOut)
	}
	if _, _, code := runCLI(t, nil, "info", "--bogus"); code != exitUsage {
		t.Errorf("bad flag: code %d", code)
	}
}

// TestInfoCorpus runs info over the whole corpus in one invocation.
func TestInfoCorpus(t *testing.T) {
	files, _ := filepath.Glob("../../../shared/corpus/valid/*.spv")
	if len(files) == 0 {
		t.Skip("corpus not found under ../../../shared: skipping")
	}
	start := time.Now()
	out, errOut, code := runCLI(t, nil, append([]string{"info"}, files...)...)
	if code != exitOK {
		t.Fatalf("code %d: %s", code, errOut)
	}
	if n := strings.Count(out, "\n  version:"); n != len(files) {
		t.Errorf("%d summaries for %d files", n, len(files))
	}
	t.Logf("info on %d modules in %v", len(files), time.Since(start))
}

func TestBuildVersion(t *testing.T) {
	setting := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	cases := []struct {
		info *debug.BuildInfo
		ok   bool
		want string
	}{
		{nil, false, "(unknown build)"},
		{&debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, true, "v1.2.3"},
		{&debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261130102424-c0ba5ddb516a+dirty"},
			Settings: setting("vcs.revision", "c0ba5ddb516a0000", "vcs.modified", "true")}, true,
			"v0.0.0-20261130102424-c0ba5ddb516a+dirty"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, true, "(devel)"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"},
			Settings: setting("vcs.revision", "0123456789abcdef", "vcs.time", "2026-11-30T10:00:00Z", "vcs.modified", "true")}, true,
			"(devel) 0123456789ab+modified, 2026-11-30T10:00:00Z"},
	}
	for _, c := range cases {
		if got := buildVersion(c.info, c.ok); got != c.want {
			t.Errorf("buildVersion = %q, want %q", got, c.want)
		}
	}
}

func TestVersionFlags(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"version"}, {"as", "--version"}, {"dis", "--version"}} {
		out, errOut, code := runCLI(t, nil, args...)
		if code != exitOK {
			t.Errorf("spvx %v: exit %d, stderr %q", args, code, errOut)
		}
		if !strings.HasPrefix(out, "spvx ") || !strings.Contains(out, "Target: SPIR-V 1.6 (grammar revision 7)") {
			t.Errorf("spvx %v printed %q", args, out)
		}
	}
}

// TestInfoDamaged: spvx info reads what spirv-dis reads (an id at or above
// the bound is a validator's matter), and a size that is not whole words
// is reported as such.
func TestInfoDamaged(t *testing.T) {
	b, err := os.ReadFile("../../examples/switch64.spv")
	if err != nil {
		t.Fatal(err)
	}
	low := append([]byte(nil), b...)
	low[12], low[13], low[14], low[15] = 5, 0, 0, 0 // bound 5
	out, errOut, code := runCLI(t, low, "info", "-")
	if code != exitOK || !strings.Contains(out, "bound:        5\n") {
		t.Errorf("bound below the ids: code %d, stderr %q, out %q", code, errOut, out)
	}
	_, errOut, code = runCLI(t, b[:len(b)-3], "info", "-")
	want := "module size should be a multiple of 4 bytes; it is " + strconv.Itoa(len(b)-3) + " bytes"
	if code != exitRejected || !strings.Contains(errOut, want) || strings.Contains(errOut, "header at word") {
		t.Errorf("odd size: code %d, stderr %q, want %q", code, errOut, want)
	}
}
