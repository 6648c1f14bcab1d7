package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// This file is spvx's one command-line layer: the command table, the flag
// parser every subcommand uses, and the wording of help and usage errors.
// A command file declares its flags, takes its files and returns an exit
// status; it never parses arguments itself.

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
// point, which receives the arguments after the subcommand name, declares
// its flags with newFlagSet and parses them with (*cmdFlags).parse.
type command struct {
	name    string
	summary string
	run     func(args []string, s stdio) int
}

// commands lists the subcommands in the order `spvx --help` shows them.
var commands = []command{
	{"as", "assemble SPIR-V text into binary modules, as spirv-as does", runAs},
	{"dis", "disassemble SPIR-V binaries to text, as spirv-dis prints it", runDis},
	{"info", "summarize SPIR-V modules (header, capabilities, entry points, opcodes)", cmdInfo},
	{"mx", "OCP MX formats: types, decode, encode, table, quantize, dequantize", runMX},
	{"shuffle", "explore OpSubgroupBitcastShuffleINTEL: bit sources, values, SVG", runShuffle},
	{"run", "run a compute kernel (or an Amber script) on the CPU executor", runRun},
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
	names := make([]string, len(commands))
	for i, c := range commands {
		if c.name == args[0] {
			return c.run(args[1:], s)
		}
		names[i] = c.name
	}
	hint := ""
	if m := closest(args[0], names); m != "" {
		hint = fmt.Sprintf("; did you mean %q?", m)
	}
	fmt.Fprintf(s.err, "spvx: unknown command %q%s (run 'spvx --help')\n", args[0], hint)
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

// cmdFlags is one (sub)command's command line: the flags it declares (a
// flag.FlagSet, used only as the table of flags; parse does the parsing),
// its help page and its streams.
type cmdFlags struct {
	*flag.FlagSet
	name  string // as typed after "spvx": "as", "mx quantize"
	usage string // a whole help page ("usage: ..."), or one usage line
	s     stdio
	// helpFunc, if set, writes the help page instead of usage.
	helpFunc func(io.Writer)
}

// newFlagSet starts the command line of command name. usage is either the
// command's whole help page, starting "usage:", or its usage line, which
// help follows with the list of flags.
func newFlagSet(name, usage string, s stdio) *cmdFlags {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return &cmdFlags{FlagSet: fs, name: name, usage: usage, s: s}
}

// help writes the command's help page to w.
func (c *cmdFlags) help(w io.Writer) {
	if c.helpFunc != nil {
		c.helpFunc(w)
		return
	}
	if strings.HasPrefix(c.usage, "usage:") {
		fmt.Fprint(w, c.usage)
		return
	}
	fmt.Fprintf(w, "usage: %s\n\nflags:\n", c.usage)
	c.printFlags(w, nil)
	fmt.Fprintln(w, "  -h, --help\n    \tprint this help")
}

// printFlags lists the flags (those keep accepts, or all when keep is
// nil) as the flag package does, spelled as spvx takes them: -x, --name.
func (c *cmdFlags) printFlags(w io.Writer, keep func(name string) bool) {
	c.VisitAll(func(f *flag.Flag) {
		if keep != nil && !keep(f.Name) {
			return
		}
		arg, text := flag.UnquoteUsage(f)
		line := "  " + dash(f.Name)
		if arg != "" {
			line += " " + arg
		}
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" && f.DefValue != "[]" {
			text += fmt.Sprintf(" (default %s)", f.DefValue)
		}
		fmt.Fprintf(w, "%s\n    \t%s\n", line, strings.ReplaceAll(text, "\n", "\n    \t"))
	})
}

// dash spells a flag as spvx's help does: one dash for a letter, two for a
// word.
func dash(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// usageErr reports a usage error on one line, naming the command, with
// where to find its help, and returns the usage exit status: the error
// stays on screen instead of scrolling away above the help page.
func (c *cmdFlags) usageErr(msg string) int {
	fmt.Fprintf(c.s.err, "spvx %s: %s (run 'spvx %s --help')\n", c.name, msg, c.name)
	return exitUsage
}

// fail reports a rejected input and returns its exit status.
func (c *cmdFlags) fail(err error) int { return fail(c.s, c.name, err) }

// fail reports a rejected input of command cmd and returns its exit status.
func fail(s stdio, cmd string, err error) int {
	fmt.Fprintf(s.err, "spvx %s: %v\n", cmd, err)
	return exitRejected
}

// errHelp is what parseArgs returns for -h and --help.
var errHelp = errors.New("help requested")

// parse parses args: flags (with one dash or two, "-x V", "-x=V") go
// before, between or after the positional arguments, "--" ends the flags,
// and "-" and negative numbers (-1.5, -inf) are positional. It returns
// the positional arguments, or, with ok false, the exit status: -h and
// --help print the help on stdout (0); a bad flag is a one-line usage
// error (2).
func (c *cmdFlags) parse(args []string) (pos []string, code int, ok bool) {
	pos, err := c.parseArgs(args)
	switch {
	case errors.Is(err, errHelp):
		c.help(c.s.out)
		return nil, exitOK, false
	case err != nil:
		return nil, c.usageErr(err.Error()), false
	}
	return pos, 0, true
}

// parseArgs is parse without the printing.
func (c *cmdFlags) parseArgs(args []string) ([]string, error) {
	var pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return append(pos, args[i+1:]...), nil
		case a == "-" || !strings.HasPrefix(a, "-") || isNegativeNumber(a):
			pos = append(pos, a)
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimPrefix(a[1:], "-"), "=")
		f := c.Lookup(name)
		if f == nil {
			if name == "h" || name == "help" {
				return nil, errHelp
			}
			return nil, c.unknown(a, name)
		}
		if !hasValue && !isBoolFlag(f) {
			if i+1 >= len(args) {
				return nil, fmt.Errorf("flag %s needs a value", dash(name))
			}
			i++
			value, hasValue = args[i], true
		}
		if !hasValue {
			value = "true"
		}
		// Through the FlagSet, so that Visit lists the flags given.
		if err := c.Set(name, value); err != nil {
			return nil, fmt.Errorf("invalid value %q for flag %s: %v", value, dash(name), err)
		}
	}
	return pos, nil
}

// unknown is the error for flag arg, which is not one of c's.
func (c *cmdFlags) unknown(arg, name string) error {
	var names []string
	c.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	if m := closest(name, names); m != "" {
		return fmt.Errorf("unknown flag %s; did you mean %s?", arg, dash(m))
	}
	return fmt.Errorf("unknown flag %s", arg)
}

// isBoolFlag reports whether f takes no value.
func isBoolFlag(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// isNegativeNumber reports whether a is a negative number (mx encode's
// values), which is positional, not a flag.
func isNegativeNumber(a string) bool {
	if len(a) < 2 || a[0] != '-' {
		return false
	}
	if c := a[1]; c >= '0' && c <= '9' || c == '.' {
		return true
	}
	l := strings.ToLower(a[1:])
	return l == "inf" || l == "infinity" || l == "nan"
}

// closest returns the name nearest to s by edit distance, when it is near
// enough to be a likely typo (at most 2 edits, and fewer edits than s has
// letters), else "".
func closest(s string, names []string) string {
	if len(s) > 64 {
		return "" // no flag is that long; and the table stays small
	}
	sort.Strings(names)
	best, bestD := "", 3
	for _, n := range names {
		if d := editDistance(s, n); d < bestD && d < len(s) {
			best, bestD = n, d
		}
	}
	return best
}

// editDistance is the edit distance between a and b counting an
// insertion, a deletion, a substitution or a swap of neighbours as one
// edit (optimal string alignment): "dsi" is one edit from "dis".
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
