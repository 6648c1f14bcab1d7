package main

import (
	"errors"
	"os/exec"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the test binary be the spvx command in the scripts:
// testscript runs "exec spvx ..." by re-executing it with main.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"spvx": main})
}

// TestScripts runs the command-line scripts of testdata/script: one txtar
// file per behaviour group, each command with its expected output and
// exit status, as cmd/go tests itself.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{Dir: "testdata/script",
		Cmds: map[string]func(*testscript.TestScript, bool, []string){"status": cmdStatus}})
}

// cmdStatus is the scripts' "status N PROGRAM ARGS...": it runs PROGRAM
// as exec does and checks that it exits with status N, where "! exec"
// only checks that it fails (a usage error is 2, a rejected input 1).
func cmdStatus(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: status N program [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("status %q: want a number", args[0])
	}
	got := 0
	var ee *exec.ExitError
	switch err := ts.Exec(args[1], args[2:]...); {
	case errors.As(err, &ee):
		got = ee.ExitCode()
	case err != nil:
		ts.Fatalf("%v", err)
	}
	if got != want {
		ts.Fatalf("exit status %d, want %d", got, want)
	}
}
