// Command spirvgen generates spvx's SPIR-V grammar tables
// (spirv/grammar_gen.go) from the Khronos grammar JSON files and spvx's
// overlay of entries the Khronos grammar does not have yet.
//
// Usage (from spirv/gen.go, via go generate):
//
//	spirvgen -grammar DIR -overlay FILE -o FILE
//
// DIR holds spirv.core.grammar.json and the extinst.*.grammar.json files
// (pinned: SPIR-V 1.6 revision 7, SPIRV-Headers of 2026-08-14, as in
// ../shared/spirv-headers; Debian's /usr/include/spirv/unified1 also works
// but is older). The overlay uses the core grammar's schema plus a
// "source" field naming the extension, and "replace": true on an entry
// that deliberately overrides the base grammar; any other collision with
// the base grammar is an error. The output records the grammar revision and
// the SHA-256 of every input.
//
// The generator uses only the standard library.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	grammar := flag.String("grammar", "", "folder with spirv.core.grammar.json and extinst.*.grammar.json")
	overlay := flag.String("overlay", "", "overlay JSON with entries newer than the grammar (optional)")
	out := flag.String("o", "grammar_gen.go", "output file")
	flag.Parse()
	if *grammar == "" || flag.NArg() != 0 {
		flag.Usage()
		os.Exit(2)
	}
	m, err := load(*grammar, *overlay)
	if err != nil {
		fmt.Fprintln(os.Stderr, "spirvgen:", err)
		os.Exit(1)
	}
	src, err := generate(m)
	if err != nil {
		fmt.Fprintln(os.Stderr, "spirvgen:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "spirvgen:", err)
		os.Exit(1)
	}
}
