package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// coopLayoutScript runs coopLayoutAsm (a program that depends on the
// layout: each invocation stores its component 0) in a subgroup of 4 and
// expects the linear layout's answer, element i in invocation i. SPIR-V
// 1.6, which the validator checks it for, lists the buffers among the
// entry point's interface too.
var coopLayoutScript = `#!amber
DEVICE_FEATURE CooperativeMatrixFeaturesKHR.cooperativeMatrix
DEVICE_FEATURE SubgroupSizeControl.subgroupSizeControl
DEVICE_FEATURE SubgroupSizeControl.computeFullSubgroups
SHADER compute s SPIRV-ASM TARGET_ENV spv1.6
` + strings.Replace(coopLayoutAsm, `"main" %lid`, `"main" %lid %in %out`, 1) + `END
BUFFER in DATA_TYPE uint32 DATA 0 1 2 3 4 5 6 7 END
BUFFER out DATA_TYPE uint32 SIZE 4 FILL 99
PIPELINE compute p
  ATTACH s
  SUBGROUP s
    FULLY_POPULATED on
    REQUIRED_SIZE 4
  END
  BIND BUFFER in AS storage DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER out AS storage DESCRIPTOR_SET 0 BINDING 1
END
RUN p 1 1 1
EXPECT out IDX 0 EQ 0 1 2 3
`

// TestRunScriptCoopMatLayout checks that script mode takes
// --coopmat-layout and --seed: the layout-dependent script passes under
// linear and fails under shuffle, and the FP8 GEMM example, which does
// not depend on the layout, passes under both.
func TestRunScriptCoopMatLayout(t *testing.T) {
	script := filepath.Join(t.TempDir(), "layout.amber")
	if err := os.WriteFile(script, []byte(coopLayoutScript), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, errs, code := runCLI(t, nil, "run", "--coopmat-layout", "linear", script); code != exitOK {
		t.Errorf("linear: exit %d: %s%s", code, out, errs)
	}
	// Some seed must move element 0..3 away from invocations 0..3's
	// component 0 (TestRunCoopMatLayout shows seeds 1..4 do in kernel mode).
	moved := false
	for _, seed := range []string{"1", "2", "3", "4"} {
		out, _, code := runCLI(t, nil, "run", "--coopmat-layout", "shuffle", "--seed", seed, script)
		if code != exitOK && strings.Contains(out, "EXPECT out IDX 0 EQ 0 1 2 3") {
			moved = true
		}
	}
	if !moved {
		t.Errorf("--coopmat-layout shuffle in script mode gave the linear layout for seeds 1..4")
	}
	gemm := filepath.Join("..", "..", "examples", "coopmat_fp8_gemm.amber")
	for _, args := range [][]string{{"--coopmat-layout", "linear"}, {"--coopmat-layout", "shuffle", "--seed", "5"}, {"--shuffle", "--coopmat-layout", "shuffle", "--seed", "6"}} {
		if out, errs, code := runCLI(t, nil, append(append([]string{"run"}, args...), gemm)...); code != exitOK {
			t.Errorf("%v: exit %d: %s%s", args, code, out, errs)
		}
	}
	_, errs, code := runCLI(t, nil, "run", "--coopmat-layout", "diagonal", script)
	if code != exitUsage || !strings.Contains(errs, `--coopmat-layout: want linear or shuffle, not "diagonal"`) {
		t.Errorf("--coopmat-layout diagonal in script mode: exit %d, %q", code, errs)
	}
}
