package oracle

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func requireSh(t *testing.T) string {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh to run test scripts with")
	}
	return sh
}

// TestRunStatus checks that the three outcomes are told apart.
func TestRunStatus(t *testing.T) {
	sh := requireSh(t)
	tests := []struct {
		path   string
		args   []string
		want   Status
		stdout string
	}{
		{sh, []string{"-c", "echo hi"}, Accepted, "hi\n"},
		{sh, []string{"-c", "echo no >&2; exit 3"}, Rejected, ""},
		{sh, []string{"-c", "kill -9 $$"}, Failed, ""},
		{filepath.Join(t.TempDir(), "no-such-tool"), nil, Failed, ""},
	}
	for _, tc := range tests {
		r := Run(tc.path, nil, tc.args...)
		if r.Status != tc.want || string(r.Stdout) != tc.stdout {
			t.Errorf("Run(%s %q) = %v %q (%v), want %v %q", tc.path, tc.args, r.Status, r.Stdout, r.Err, tc.want, tc.stdout)
		}
		if (r.Status == Accepted) != (r.Err == nil) {
			t.Errorf("Run(%s %q): status %v with error %v", tc.path, tc.args, r.Status, r.Err)
		}
	}
}

// TestOverrideVersion checks that a tool named by SPVX_<TOOL> gets the
// same version check as one found on PATH.
func TestOverrideVersion(t *testing.T) {
	requireSh(t)
	dir := t.TempDir()
	script := func(name, version string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("#!/bin/sh\necho '"+version+"'\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := script("good", "SPIRV-Tools "+WantVersion+" unknown hash")
	bad := script("bad", "SPIRV-Tools v2026.4")
	t.Setenv(EnvVar(SpirvAs), bad)
	if p, err := Path(SpirvAs); err == nil || !strings.Contains(err.Error(), "is not SPIRV-Tools "+WantVersion) {
		t.Errorf("Path with %s=%s: %q, %v; want a version error", EnvVar(SpirvAs), bad, p, err)
	}
	t.Setenv(EnvVar(SpirvAs), good)
	if p, err := Path(SpirvAs); err != nil || p != good {
		t.Errorf("Path with %s=%s: %q, %v", EnvVar(SpirvAs), good, p, err)
	}
	t.Setenv(EnvVar(SpirvAs), filepath.Join(dir, "missing"))
	if _, err := Path(SpirvAs); err == nil || !strings.Contains(err.Error(), "does not run") {
		t.Errorf("Path with a missing override: %v, want \"does not run\"", err)
	}
	t.Setenv(EnvVar(GlslangValidator), bad)
	if _, err := Path(GlslangValidator); err == nil {
		t.Errorf("Path(glslangValidator) accepts a tool that is not glslang")
	}
	t.Setenv(EnvVar(GlslangValidator), script("glslang10", "Glslang Version: 10:11.1.0"))
	if _, err := Path(GlslangValidator); err == nil {
		t.Errorf("Path(glslangValidator) accepts another glslang release")
	}
	glslang := script("glslang12", "Glslang Version: "+WantGlslangVersion)
	t.Setenv(EnvVar(GlslangValidator), glslang)
	if p, err := Path(GlslangValidator); err != nil || p != glslang {
		t.Errorf("Path(glslangValidator) with the expected release: %q, %v", p, err)
	}
}

func TestEnvVar(t *testing.T) {
	if got := EnvVar(SpirvAs); got != "SPVX_SPIRV_AS" {
		t.Errorf("EnvVar(spirv-as) = %s", got)
	}
	if got := EnvVar(GlslangValidator); got != "SPVX_GLSLANGVALIDATOR" {
		t.Errorf("EnvVar(glslangValidator) = %s", got)
	}
}
