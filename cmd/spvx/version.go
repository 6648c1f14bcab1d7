package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"spvx/spirv"
)

// printVersion writes what `spvx --version` (and `spvx as/dis --version`)
// print: like SPIRV-Tools' tools, the tool's version and build, then the
// SPIR-V it targets, here with the grammar revision the tables come from.
func printVersion(w io.Writer) {
	fmt.Fprintf(w, "spvx %s\n", buildVersion(debug.ReadBuildInfo()))
	fmt.Fprintf(w, "Target: SPIR-V %d.%d (grammar revision %d), %s\n",
		spirv.GrammarMajorVersion, spirv.GrammarMinorVersion, spirv.GrammarRevision, runtime.Version())
}

// buildVersion describes the build: the module version the Go toolchain
// stamped (a release tag, or a pseudo-version that already names the
// commit and its time), else "(devel)" with the VCS revision and time when
// those were stamped.
func buildVersion(info *debug.BuildInfo, ok bool) string {
	if !ok {
		return "(unknown build)"
	}
	v := info.Main.Version
	if v != "" && v != "(devel)" {
		return v
	}
	v = "(devel)"
	var rev, when, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = "+modified"
			}
		}
	}
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		v += " " + rev + modified
	}
	if when != "" {
		v += ", " + when
	}
	return v
}
