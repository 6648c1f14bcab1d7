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
// exit status, as cmd/go tests itself.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{Dir: "testdata/script"})
}
