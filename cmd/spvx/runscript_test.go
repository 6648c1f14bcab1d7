package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"io"
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

// runScriptsMain runs spvx run in script mode over engine.
func runScriptsMain(args []string, stdout, stderr io.Writer, engine amber.Engine) int {
	return runMain(append([]string{"--script"}, args...), stdio{strings.NewReader(""), stdout, stderr}, engine)
}

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
	out, _, _ := runScriptsT(t, "--log-commands", td+"emd.amber")
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

// TestRunMode: spvx run decides its mode from the files (names, a
// directory, a script's content) or --kernel/--script, whatever the flags
// and their order.
func TestRunMode(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "script.txt")
	os.WriteFile(script, []byte("#!amber\nSHADER compute s GLSL\nEND\n"), 0o644)
	for args, want := range map[string]string{
		"a.amber":                   "script",
		"-j 2 a.amber b.vkscript":   "script",
		"a.amber -j 2 --json " + td: "script",
		"--device-info":             "script",
		"-t spv1.3 s.amber":         "script",
		"module.spv":                "kernel",
		"module.spv --groups 2":     "kernel",
		"--script module.spv":       "script",
		"--kernel x.amber":          "kernel",
		script:                      "script",
		"a.amber module.spv":        "error",
		"":                          "error",
		"m1.spv m2.spv":             "error",
		"--kernel --script m.spv":   "error",
	} {
		fs := newFlagSet("run", runUsage, stdio{})
		r := declareRunFlags(fs)
		pos, err := fs.parseArgs(strings.Fields(args))
		if err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		m, err := r.mode(fs, pos)
		got := map[runMode]string{kernelMode: "kernel", scriptMode: "script"}[m]
		if err != nil {
			got = "error"
		}
		if got != want {
			t.Errorf("%q: %s (%v), want %s", args, got, err, want)
		}
	}
}

// TestRunFlagsAnywhere: the fixes of issue 20 for spvx run's command line.
func TestRunFlagsAnywhere(t *testing.T) {
	for _, args := range [][]string{
		{td + "emd.amber", "-j", "1"},
		{td + "emd.amber", "--json"},
		{"-t", "spv1.3", td + "emd.amber"},
		{"-q", td + "emd.amber", "-s", "--disable-spirv-val", "-d", "-v", "1.1"},
	} {
		// The no-op engine may fail the script's EXPECTs: what matters is
		// that the command line is taken.
		if out, errs, code := runScriptsT(t, args...); code == exitUsage || strings.Contains(errs, "spvx run") || !strings.Contains(out+errs, "emd.amber") {
			t.Errorf("spvx run %q: exit %d, stdout %q, stderr %q", args, code, out, errs)
		}
	}
	out, errs, code := runCLI(t, nil, "run", td+"emd.amber", "-h")
	if code != exitOK || errs != "" || !strings.Contains(out, "Kernel mode flags:") || !strings.Contains(out, "Script mode flags") || !strings.Contains(out, "--disable-spirv-val") {
		t.Errorf("spvx run x.amber -h: exit %d, stderr %q, stdout %q", code, errs, out)
	}
	_, errs, code = runCLI(t, nil, "run", td+"emd.amber", "--groups", "2")
	if code != exitUsage || errs != "spvx run: --groups is not a flag of script mode (Amber scripts) (run 'spvx run --help')\n" {
		t.Errorf("kernel flag in script mode: exit %d, %q", code, errs)
	}
	if out, _, code := runScriptsT(t, "-q", td+"emd.amber"); code == exitUsage || strings.Contains(out, "passed") || !strings.Contains(out, "emd.amber") {
		t.Errorf("-q: exit %d, %q", code, out)
	}
	if out, _, code := runScriptsT(t, "-q", "-s", td+"emd.amber"); !strings.Contains(out, ", 0 skipped") {
		t.Errorf("-q -s: exit %d, %q", code, out)
	}
	if _, errs, code := runScriptsT(t, "-v", "one", td+"emd.amber"); code != exitUsage || !strings.Contains(errs, `invalid value "one" for flag -v: want MAJOR.MINOR`) {
		t.Errorf("-v one: exit %d, %q", code, errs)
	}
}

// TestRunParseOnly: -p parses and compiles and runs nothing; a script
// that does not parse, or whose shader does not validate, fails with its
// FILE:LINE.
func TestRunParseOnly(t *testing.T) {
	var out, errb bytes.Buffer
	code := runScriptsMain([]string{"-p", td + "emd.amber"}, &out, &errb, blockEngine{})
	if code != exitOK || out.Len() != 0 || errb.Len() != 0 {
		t.Errorf("-p emd.amber: exit %d, %q %q", code, out.String(), errb.String())
	}
	bad := filepath.Join(t.TempDir(), "bad.amber")
	os.WriteFile(bad, []byte("#!amber\nBUFFER\n"), 0o644)
	out.Reset()
	code = runScriptsMain([]string{"-p", bad}, &out, &errb, blockEngine{})
	if code != exitRejected || !strings.Contains(errb.String(), bad+":2") {
		t.Errorf("-p bad.amber: exit %d, %q", code, errb.String())
	}
	// A shader that parses but does not validate fails under -p, as its
	// run would, unless validation is off.
	invalid := filepath.Join(t.TempDir(), "invalid.amber")
	os.WriteFile(invalid, []byte(invalidShaderScript), 0o644)
	errb.Reset()
	code = runScriptsMain([]string{"-p", invalid}, &out, &errb, blockEngine{})
	if code != exitRejected || !strings.Contains(errb.String(), invalid+":2: shader s fails validation") {
		t.Errorf("-p invalid.amber: exit %d, %q", code, errb.String())
	}
	errb.Reset()
	if code = runScriptsMain([]string{"-p", "--disable-spirv-val", invalid}, &out, &errb, blockEngine{}); code != exitOK || errb.Len() != 0 {
		t.Errorf("-p --disable-spirv-val invalid.amber: exit %d, %q", code, errb.String())
	}
}

// invalidShaderScript's shader assembles but fails validation: OpIAdd
// on floats.
const invalidShaderScript = `#!amber
SHADER compute s SPIRV-ASM
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%f1 = OpConstant %float 1
%main = OpFunction %void None %fn
%l = OpLabel
%x = OpIAdd %uint %f1 %f1
OpReturn
OpFunctionEnd
END
PIPELINE compute p
  ATTACH s
END
RUN p 1 1 1
`

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

// countEngine fills every bound buffer with 0, 1, 2, ... on each RUN.
type countEngine struct{}

func (countEngine) Run(_ context.Context, job *amber.Job) error {
	for _, d := range job.Descriptors {
		for _, v := range d.Views {
			for i := range v {
				v[i] = byte(i)
			}
		}
	}
	return nil
}

// TestRunDumpBuffer: -b FILE -B [PIPELINE:][SET:]BINDING writes the
// buffers after the run as amber does.
func TestRunDumpBuffer(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "s.amber")
	os.WriteFile(script, []byte(`#!amber
SHADER compute s SPIRV-ASM
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%l = OpLabel
OpReturn
OpFunctionEnd
END
BUFFER a DATA_TYPE uint8 SIZE 20 FILL 9
PIPELINE compute p
  ATTACH s
  BIND BUFFER a AS storage DESCRIPTOR_SET 0 BINDING 1
END
RUN p 1 1 1
`), 0o644)
	dump := filepath.Join(dir, "dump.txt")
	var out, errb bytes.Buffer
	code := runScriptsMain([]string{"--no-validate", script, "-b", dump, "-B", "0:1"}, &out, &errb, countEngine{})
	b, err := os.ReadFile(dump)
	want := "0:1\n 00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f\n 10 11 12 13\n"
	if code != exitOK || err != nil || string(b) != want {
		t.Errorf("exit %d (%s %s), dump %q, want %q", code, out.String(), errb.String(), b, want)
	}
	// A pipeline's name picks its binding; a wrong one fails, naming it,
	// and leaves amber's empty line in the file.
	errb.Reset()
	code = runScriptsMain([]string{"--no-validate", script, "-b", dump, "-B", "p:0:1", "-B", "q:0:1", "-B", "0:0"}, &out, &errb, countEngine{})
	b, _ = os.ReadFile(dump)
	want = "p:0:1\n 00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f\n 10 11 12 13\nq:0:1\n\n0:0\n\n"
	if code != exitRejected || string(b) != want ||
		!strings.Contains(errb.String(), `spvx run: -B q:0:1: `+script+` has no pipeline "q"`) ||
		!strings.Contains(errb.String(), "spvx run: -B 0:0: pipeline p binds no buffer at descriptor set 0, binding 0") {
		t.Errorf("-B p:0:1 q:0:1 0:0: exit %d, %q, dump %q, want %q", code, errb.String(), b, want)
	}
	errb.Reset()
	code = runScriptsMain([]string{script, "-b", dump, "-B", "p:x"}, &out, &errb, countEngine{})
	if code != exitUsage || !strings.Contains(errb.String(), "-B invalid buffer id: p:x") {
		t.Errorf("-B p:x: exit %d, %q", code, errb.String())
	}
}
