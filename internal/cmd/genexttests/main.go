// Command genexttests writes the Amber acceptance scripts for spvx's new
// extensions (SPV_INTEL_subgroup_bitcast_shuffle, SPV_EXT_float8,
// SPV_EXT_ocp_microscaling_types) and a few core subgroup scripts into
// amber/testdata/ext. Every expected value is computed here by spvx/subgroup
// and spvx/mx (or, for the core subgroup operations, by plain Go loops), never
// written by hand, so the scripts and the reference semantics cannot drift
// apart: a test regenerates the scripts and compares them with the committed
// files.
//
// Usage (from gen.go, via go generate):
//
//	genexttests -o DIR
//
// It uses only the standard library and spvx packages.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	out := flag.String("o", "", "output folder (amber/testdata/ext)")
	flag.Parse()
	if *out == "" || flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: genexttests -o DIR")
		os.Exit(2)
	}
	if err := write(*out); err != nil {
		fmt.Fprintln(os.Stderr, "genexttests:", err)
		os.Exit(1)
	}
}

// write replaces every generated script in dir: stale .amber files (from a
// pair or format that no longer exists) are removed, so the folder always
// equals Generate's output.
func write(dir string) error {
	files, err := Generate()
	if err != nil {
		return err
	}
	old, err := filepath.Glob(filepath.Join(dir, "*.amber"))
	if err != nil {
		return err
	}
	for _, f := range old {
		if _, ok := files[filepath.Base(f)]; !ok {
			if err := os.Remove(f); err != nil {
				return err
			}
		}
	}
	for _, name := range sortedNames(files) {
		if err := os.WriteFile(filepath.Join(dir, name), files[name], 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Generate returns every script, keyed by file name. It is deterministic.
func Generate() (map[string][]byte, error) {
	files := map[string][]byte{}
	add := func(name string, s *script) error {
		if _, dup := files[name]; dup {
			return fmt.Errorf("duplicate script %s", name)
		}
		b, err := s.bytes()
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		files[name] = b
		return nil
	}
	var all []*script
	for _, g := range generators {
		scripts, err := g()
		if err != nil {
			return nil, err
		}
		for _, s := range scripts {
			if err := add(s.name, s); err != nil {
				return nil, err
			}
			all = append(all, s)
		}
	}
	files["README.md"] = readme(all)
	return files, nil
}

// generators lists the script families; each returns its scripts.
var generators = []func() ([]*script, error){
	shuffleSpecExamples,
	shufflePairs,
	undefinedShuffleScripts,
	mxDecodeScripts,
	mxEncodeScripts,
	mxNarrowScripts,
	mxIntScripts,
	bitcastExtractScripts,
	coreSubgroupScripts,
}

func sortedNames(m map[string][]byte) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// lines joins text lines with newlines, ending with one.
func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }
