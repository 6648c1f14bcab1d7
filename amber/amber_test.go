package amber

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

func runTestScript(t *testing.T, path string, eng Engine) Result {
	t.Helper()
	return RunFile(context.Background(), path, Options{Engine: eng})
}

func TestAllCommands(t *testing.T) {
	eng := &fakeEngine{}
	var log bytes.Buffer
	r := RunFile(context.Background(), "testdata/all_commands.amber", Options{Engine: eng, Log: &log})
	if r.Status != Pass {
		t.Fatalf("%v: %s", r.Status, r.Reason)
	}
	if len(r.Timed) != 1 {
		t.Errorf("TIMED_EXECUTION recorded %d durations, want 1", len(r.Timed))
	}
	// -v names every command with its line.
	for _, want := range []string{"all_commands.amber:", "RUN double 5 1 1", "REPEAT 3", "COPY in_u32 TO copy_dst", "EXPECT series_f RMSE_BUFFER series_f TOLERANCE 0.0"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q", want)
		}
	}
	// 11 RUNs, REPEAT 3 counting 3.
	if len(eng.jobs) != 12 {
		t.Errorf("engine ran %d jobs, want 12", len(eng.jobs))
	}
	for _, j := range eng.jobs {
		if j.Entry == "spec" {
			if j.SpecConstants[2] != uint64(math.Float32bits(1.5)) {
				t.Errorf("SPECIALIZE 2 AS float 1.5 = %#x", j.SpecConstants[2])
			}
		}
	}
}

func TestVkScriptAll(t *testing.T) {
	r := runTestScript(t, "testdata/vkscript_all.vkscript", &fakeEngine{})
	if r.Status != Pass {
		t.Fatalf("%v: %s", r.Status, r.Reason)
	}
	if len(r.Notes) != 2 {
		t.Errorf("notes %q, want the framebuffer and fbsize lines", r.Notes)
	}
}

func TestEMDAndRMSE(t *testing.T) {
	r := runTestScript(t, "testdata/emd.amber", nil)
	if r.Status != Pass {
		t.Fatalf("%v: %s", r.Status, r.Reason)
	}
}

// TestFailReports checks the exact FAIL reports (golden files).
func TestFailReports(t *testing.T) {
	for _, name := range []string{"fail_expect", "fail_int", "fail_buffer"} {
		t.Run(name, func(t *testing.T) {
			r := runTestScript(t, "testdata/"+name+".amber", &fakeEngine{})
			if r.Status != Fail {
				t.Fatalf("status %v, want FAIL", r.Status)
			}
			if name != "fail_buffer" && r.Failure == nil {
				t.Fatalf("no Failure for %s", r.Reason)
			}
			golden(t, "testdata/"+name+".golden", r.Reason+"\n")
		})
	}
	r := runTestScript(t, "testdata/fail_expect.amber", &fakeEngine{})
	f := r.Failure
	if f.Buffer != "out" || f.Index != 2 || f.Got != "6" || f.Want != "6.5" || f.Tolerance != "0.01" || f.Line != 13 {
		t.Errorf("failure %+v", f)
	}
	// The context: every value of the EXPECT against the buffer, only
	// the third differing.
	want := "0:2=2 1:4=4 2:6≠6.5 3:8=8"
	if got := contextText(f.Context); got != want {
		t.Errorf("context %s, want %s", got, want)
	}
	r = runTestScript(t, "testdata/fail_buffer.amber", &fakeEngine{})
	if got, want := contextText(r.Failure.Context), "0:1=1 1:2=2 2:3≠5 3:4≠6"; got != want {
		t.Errorf("EQ_BUFFER context %s, want %s", got, want)
	}
}

func contextText(c []ValueDiff) string {
	var parts []string
	for _, v := range c {
		op := "="
		if v.Differs {
			op = "≠"
		}
		parts = append(parts, fmt.Sprintf("%d:%s%s%s", v.Index, v.Got, op, v.Want))
	}
	return strings.Join(parts, " ")
}

func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if got != string(want) {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestExpectFail(t *testing.T) {
	r := runTestScript(t, "testdata/rmse_too_large.expect_fail.amber", nil)
	if r.Status != Pass || !r.ExpectFail || !strings.Contains(r.Reason, "Root Mean Square Error of 0.100000 is greater than tolerance of 0.010000") {
		t.Errorf("%v: %s", r.Status, r.Reason)
	}
	r = runTestScript(t, "testdata/passes.expect_fail.amber", nil)
	if r.Status != Fail || !strings.Contains(r.Reason, "expected to fail") {
		t.Errorf("%v: %s", r.Status, r.Reason)
	}
}

func TestSkipMissing(t *testing.T) {
	r := runTestScript(t, "testdata/needs_geometry.amber", nil)
	if r.Status != SkipStatus || r.Reason != "missing feature geometryShader, extension VK_NV_nonexistent" {
		t.Errorf("%v: %q", r.Status, r.Reason)
	}
}

func TestNoEngineSkips(t *testing.T) {
	r := runTestScript(t, "testdata/fail_expect.amber", nil)
	if r.Status != SkipStatus || !strings.Contains(r.Reason, "no executor") {
		t.Errorf("%v: %q", r.Status, r.Reason)
	}
}

func TestVirtualFile(t *testing.T) {
	r := runTestScript(t, "testdata/virtual_file.amber", &fakeEngine{})
	if r.Status != Pass {
		t.Fatalf("%v: %s", r.Status, r.Reason)
	}
}

func TestHLSL(t *testing.T) {
	if _, err := GlslangPath(); err != nil {
		t.Skip(err)
	}
	r := runTestScript(t, "testdata/hlsl.amber", &fakeEngine{})
	if r.Status != Pass {
		t.Fatalf("%v: %s", r.Status, r.Reason)
	}
}

func TestGLSL(t *testing.T) {
	if _, err := GlslangPath(); err != nil {
		r := runTestScript(t, "testdata/glsl.amber", &fakeEngine{})
		if r.Status != SkipStatus || !strings.Contains(r.Reason, "glslangValidator") {
			t.Errorf("without glslangValidator: %v: %s", r.Status, r.Reason)
		}
		t.Skip(err)
	}
	eng := &fakeEngine{}
	r := runTestScript(t, "testdata/glsl.amber", eng)
	if r.Status != Pass {
		t.Fatalf("%v: %s", r.Status, r.Reason)
	}
	if v := eng.jobs[0].Module.Words()[1]; v != 0x00010300 {
		t.Errorf("TARGET_ENV spv1.3 built SPIR-V version %#x", v)
	}
}

// TestBadScripts checks that every malformed script gets a FILE:LINE:
// error (golden: testdata/bad/errors.golden).
func TestBadScripts(t *testing.T) {
	files, _ := filepath.Glob("testdata/bad/*")
	sort.Strings(files)
	var out strings.Builder
	for _, f := range files {
		if strings.HasSuffix(f, ".golden") {
			continue
		}
		if _, err := GlslangPath(); err != nil && strings.Contains(f, "glsl") {
			out.WriteString("(skipped: no glslangValidator)\n")
			continue
		}
		r := runTestScript(t, f, &fakeEngine{})
		if r.Status != Fail {
			t.Errorf("%s: %v, want FAIL", f, r.Status)
		}
		if !strings.HasPrefix(r.Reason, f+":") {
			t.Errorf("%s: error %q does not start with the file name", f, r.Reason)
		}
		out.WriteString(r.Reason + "\n")
	}
	golden(t, "testdata/bad/errors.golden", out.String())
}
