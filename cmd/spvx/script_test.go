package main

import (
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
// exit status, as cmd/go tests itself ("exec-status N PROG ARGS" checks
// the status: a usage error is 2, a rejected input 1).
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{Dir: "testdata/script",
		Cmds: map[string]func(*testscript.TestScript, bool, []string){"exec-status": cmdExecStatus}})
}
