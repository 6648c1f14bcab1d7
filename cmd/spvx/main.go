// Command spvx is the command-line front end of the spvx SPIR-V toolkit:
// assembler, disassembler, module inspector, the CPU executor and Amber
// runner (run), MX numerics and the bitcast shuffle explorer, each a
// subcommand.
//
// Exit status: 0 success, 1 input rejected, 2 usage error.
package main

import (
	"fmt"
	"io"
	"os"
)

// Exit codes shared by every subcommand.
const (
	exitOK       = 0
	exitRejected = 1
	exitUsage    = 2
)

// stdio bundles the streams a subcommand may use, so tests can run the CLI
// in-process without touching the real ones.
type stdio struct {
	in       io.Reader
	out, err io.Writer
}

// command is one subcommand: its name, a one-line summary, and its entry
// point, which receives the arguments after the subcommand name.
type command struct {
	name    string
	summary string
	run     func(args []string, s stdio) int
}

// commands lists the subcommands in the order `spvx --help` shows them.
var commands = []command{
	{"as", "assemble SPIR-V text into binary modules, as spirv-as does", runAs},
	disCommand,
	{"info", "summarize SPIR-V modules (header, capabilities, entry points, opcodes)", cmdInfo},
	{"mx", "OCP MX formats: types, decode, encode, table, quantize, dequantize", runMX},
	{"shuffle", "explore OpSubgroupBitcastShuffleINTEL: bit sources, values, SVG", runShuffle},
	runCommand,
	{"val", "validate SPIR-V modules as spirv-val does (and the FP8/OCP/bitcast-shuffle extensions)", runVal},
}

func main() {
	os.Exit(run(os.Args[1:], stdio{os.Stdin, os.Stdout, os.Stderr}))
}

// run dispatches to a subcommand and returns the process exit status.
func run(args []string, s stdio) int {
	if len(args) == 0 {
		usage(s.err)
		return exitUsage
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		usage(s.out)
		return exitOK
	case "-version", "--version", "version":
		printVersion(s.out)
		return exitOK
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(args[1:], s)
		}
	}
	fmt.Fprintf(s.err, "spvx: unknown command %q\n", args[0])
	usage(s.err)
	return exitUsage
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: spvx <command> [arguments]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "commands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'spvx <command> --help' for a command's flags, 'spvx --version' for the build.")
}
