package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"spvx/amber"
)

// nopEngine runs every dispatch as a no-op.
type nopEngine struct{}

func (nopEngine) Run(context.Context, *amber.Job) error { return nil }

const td = "../../amber/testdata/"

func runScriptsT(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := runScriptsMain(append([]string{"--cache", ""}, args...), &out, &errb, nopEngine{})
	return out.String(), errb.String(), code
}

var seconds = regexp.MustCompile(`\(\d+\.\d\d s\)`)

func TestRunScriptsLines(t *testing.T) {
	out, _, code := runScriptsT(t, "-j", "2", td+"emd.amber", td+"fail_buffer.amber", td+"needs_geometry.amber", td+"rmse_too_large.expect_fail.amber")
	if code != exitRejected {
		t.Errorf("exit %d, want 1", code)
	}
	got := seconds.ReplaceAllString(out, "(T)")
	want := `PASS ../../amber/testdata/emd.amber (T)
FAIL ../../amber/testdata/fail_buffer.amber: ../../amber/testdata/fail_buffer.amber:4: EXPECT a EQ_BUFFER b: Buffers have different values. 2 values differed, first difference at byte 2 values 3 != 5
SKIP ../../amber/testdata/needs_geometry.amber: missing feature geometryShader, extension VK_NV_nonexistent
PASS ../../amber/testdata/rmse_too_large.expect_fail.amber (T) (expected failure: failed as expected: ../../amber/testdata/rmse_too_large.expect_fail.amber:5: EXPECT a RMSE_BUFFER b TOLERANCE 0.01: Root Mean Square Error of 0.100000 is greater than tolerance of 0.010000)
2 passed, 1 failed, 1 skipped (T)
`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	out, _, code = runScriptsT(t, td+"emd.amber")
	if code != exitOK || !strings.HasPrefix(out, "PASS") {
		t.Errorf("exit %d: %s", code, out)
	}
}

func TestRunScriptsVerbose(t *testing.T) {
	out, _, _ := runScriptsT(t, "-v", td+"emd.amber")
	for _, want := range []string{"emd.amber:17: EXPECT a EQ_HISTOGRAM_EMD_BUFFER b TOLERANCE 0.01", "emd.amber:18: EXPECT x RMSE_BUFFER y TOLERANCE 0.11", "PASS"} {
		if !strings.Contains(out, want) {
			t.Errorf("-v output lacks %q:\n%s", want, out)
		}
	}
}

func TestRunScriptsJSONAndJUnit(t *testing.T) {
	junit := filepath.Join(t.TempDir(), "report.xml")
	out, errs, code := runScriptsT(t, "--json", "--junit", junit, td+"emd.amber", td+"fail_int.amber", td+"needs_geometry.amber")
	if code != exitRejected {
		t.Errorf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d JSON lines: %s", len(lines), out)
	}
	var statuses []string
	for _, l := range lines {
		var v struct {
			Script, Status, Reason string
			Seconds                float64
		}
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		statuses = append(statuses, v.Status)
	}
	if strings.Join(statuses, " ") != "pass fail skip" {
		t.Errorf("statuses %v", statuses)
	}
	if !strings.Contains(errs, "1 passed, 1 failed, 1 skipped") {
		t.Errorf("summary on stderr: %q", errs)
	}
	b, err := os.ReadFile(junit)
	if err != nil {
		t.Fatal(err)
	}
	var suite junitSuite
	if err := xml.Unmarshal(b, &suite); err != nil {
		t.Fatal(err)
	}
	if suite.Tests != 3 || suite.Failures != 1 || suite.Skipped != 1 || suite.Cases[1].Failure == nil {
		t.Errorf("junit %+v", suite)
	}
}

func TestRunScriptsModes(t *testing.T) {
	out, _, code := runScriptsT(t, "--device-info")
	if code != 0 || !strings.Contains(out, "subgroup sizes: default 32, REQUIRED_SIZE any power of two from 1 to 128") ||
		!strings.Contains(out, "VK_KHR_shader_subgroup_uniform_control_flow") {
		t.Errorf("--device-info: %s", out)
	}
	out, _, _ = runScriptsT(t, "--list-unsupported", td)
	if !strings.Contains(out, "needs_geometry.amber: needs feature geometryShader, extension VK_NV_nonexistent") {
		t.Errorf("--list-unsupported: %s", out)
	}
	if _, _, code := runScriptsT(t); code != exitUsage {
		t.Errorf("no scripts: exit %d", code)
	}
	if _, errs, code := runScriptsT(t, "no/such/dir"); code != exitRejected || !strings.Contains(errs, "no/such/dir") {
		t.Errorf("missing path: %d %s", code, errs)
	}
	// A directory runs every script in it, sorted.
	out, _, _ = runScriptsT(t, td+"bad")
	if n := strings.Count(out, "FAIL "); n < 20 {
		t.Errorf("bad/: %d FAIL lines:\n%s", n, out)
	}
}

// blockEngine blocks every dispatch until it is cancelled.
type blockEngine struct{}

func (blockEngine) Run(ctx context.Context, _ *amber.Job) error {
	<-ctx.Done()
	return ctx.Err()
}

func TestRunScriptsTimeout(t *testing.T) {
	var out, errb bytes.Buffer
	code := runScriptsMain([]string{"--cache", "", "--timeout", "50ms", td + "fail_expect.amber"}, &out, &errb, blockEngine{})
	if code != exitRejected || !strings.Contains(out.String(), "FAIL ../../amber/testdata/fail_expect.amber: timed out after 50ms") {
		t.Errorf("exit %d: %s", code, out.String())
	}
}

func TestLooksLikeScripts(t *testing.T) {
	for args, want := range map[string]bool{
		"a.amber":                        true,
		"-j 2 a.amber b.vkscript":        true,
		"-v a.amber " + td:               true,
		"--device-info":                  true,
		"module.spv":                     false,
		"a.amber module.spv":             false,
		"":                               false,
		"--list-unsupported " + td + "x": true,
	} {
		if got := looksLikeScripts(strings.Fields(args)); got != want {
			t.Errorf("%q: %v, want %v", args, got, want)
		}
	}
}

func TestRunScriptsStats(t *testing.T) {
	out, _, _ := runScriptsT(t, "--stats", td+"emd.amber", td+"fail_int.amber", td+"fail_buffer.amber")
	if !strings.Contains(out, "median ") || strings.Count(out, "\n  ") != 3 {
		t.Errorf("--stats: %s", out)
	}
}

func TestRunScriptsHTML(t *testing.T) {
	page := filepath.Join(t.TempDir(), "report.html")
	_, _, code := runScriptsT(t, "--html", page, td+"emd.amber", td+"fail_buffer.amber", td+"fail_expect.amber", td+"needs_geometry.amber")
	if code != exitRejected {
		t.Errorf("exit %d", code)
	}
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	// Two failures with their values around the first difference: the
	// EQ_BUFFER's components 2 and 3 differ; the no-op engine leaves the
	// EXPECT's buffer zero, so its first value differs.
	for _, want := range []string{`<tr class="fail">`, `<tr class="skip">`, `<tr class="pass">`, "2 failed", "1 skipped",
		`<tr class="differs"><td class="num">2</td><td class="num">2</td><td class="num">0</td><td>3</td><td>5</td></tr>`,
		"EXPECT out IDX 0 TOLERANCE 0.01 EQ 2 4 6.5 8", "BUFFER a DATA_TYPE uint8 DATA 1 2 3 4 END"} {
		if !strings.Contains(s, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if strings.Count(s, `class="failure"`) != 2 {
		t.Errorf("%d failure sections", strings.Count(s, `class="failure"`))
	}
}
