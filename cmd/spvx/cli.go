package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"

	"spvx/internal/vkformat"
	"spvx/interp"
	"spvx/mx"
	"spvx/spirv"
	"spvx/subgroup"
)

// This file is spvx's one command-line layer: the command table, the flag
// parser every subcommand uses, the wording of help and usage errors, and
// the syntax of the flags' values (X,Y,Z; S:B=FILE; TYPE:VALUE; ...). A
// command file declares its flags, takes its files and returns an exit
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

// The syntax of flag and argument values.

// listFlag is a repeatable flag: each value as given.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, " ") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// globList is a repeatable flag of comma-separated globs.
type globList []string

func (g *globList) String() string { return strings.Join(*g, ",") }
func (g *globList) Set(v string) error {
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			*g = append(*g, p)
		}
	}
	return nil
}

// parseDims reads X[,Y[,Z]] (--groups, --global, --local, --offset).
// Missing dimensions are 1; with fill 0 (a size that may be absent), ""
// is 0,1,1.
func parseDims(s string, fill uint32) ([3]uint32, error) {
	d := [3]uint32{fill, fill, fill}
	if fill == 0 {
		d = [3]uint32{0, 1, 1}
		if s == "" {
			return d, nil
		}
	}
	parts := strings.Split(s, ",")
	if len(parts) > 3 {
		return d, errors.New("at most three dimensions")
	}
	for i, p := range parts {
		v, err := strconv.ParseUint(strings.TrimSpace(p), 0, 32)
		if err != nil {
			return d, fmt.Errorf("bad number %q", p)
		}
		d[i] = uint32(v)
	}
	for i := len(parts); i < 3; i++ {
		d[i] = 1
	}
	return d, nil
}

// parseBufferFlag reads S:B=FILE[:SIZE]; size is -1 without :SIZE.
func parseBufferFlag(v string) (interp.BindingKey, string, int, error) {
	k, rest, ok := strings.Cut(v, "=")
	ss, bs, ok2 := strings.Cut(k, ":")
	if !ok || !ok2 || rest == "" {
		return interp.BindingKey{}, "", 0, errors.New("want S:B=FILE[:SIZE]")
	}
	set, err1 := strconv.ParseUint(ss, 10, 32)
	bind, err2 := strconv.ParseUint(bs, 10, 32)
	if err1 != nil || err2 != nil {
		return interp.BindingKey{}, "", 0, errors.New("bad set or binding")
	}
	file, size := rest, -1
	if i := strings.LastIndex(rest, ":"); i > 0 {
		if n, err := strconv.ParseUint(rest[i+1:], 0, 31); err == nil {
			file, size = rest[:i], int(n)
		}
	}
	return interp.BindingKey{Set: uint32(set), Binding: uint32(bind)}, file, size, nil
}

// parseImageFlag reads an --image value,
// S:B=FILE:FORMAT:W[xH[xD]][:LAYERS[:LEVELS[:SAMPLES]]], FORMAT a SPIR-V image
// format name (any case); FILE is the rest before FORMAT, so it may hold
// colons. The Image has no Data yet.
func parseImageFlag(v string) (interp.BindingKey, string, *interp.Image, error) {
	const want = "want S:B=FILE:FORMAT:W[xH[xD]][:LAYERS[:LEVELS[:SAMPLES]]]"
	k, rest, _ := strings.Cut(v, "=")
	key, _, _, err := parseBufferFlag(k + "=x")
	if err != nil || rest == "" {
		return key, "", nil, errors.New(want)
	}
	f := strings.Split(rest, ":")
	var counts []int // LAYERS, LEVELS, SAMPLES
	for len(f) > 3 && len(counts) < 3 {
		n, err := strconv.ParseUint(f[len(f)-1], 10, 31)
		if err != nil {
			break
		}
		counts = append([]int{int(n)}, counts...)
		f = f[:len(f)-1]
	}
	if len(f) < 3 {
		return key, "", nil, errors.New(want)
	}
	img := &interp.Image{}
	if img.Format, err = parseFormat(f[len(f)-2]); err != nil {
		return key, "", nil, err
	}
	dims := strings.Split(f[len(f)-1], "x")
	for i, p := range []*int{&img.Width, &img.Height, &img.Depth} {
		if i >= len(dims) {
			break
		}
		n, err := strconv.ParseUint(dims[i], 10, 31)
		if err != nil || n == 0 || len(dims) > 3 {
			return key, "", nil, fmt.Errorf("bad size %q: want W[xH[xD]], each at least 1", f[len(f)-1])
		}
		*p = int(n)
	}
	if len(counts) > 0 {
		img.Layers = counts[0]
	}
	if len(counts) > 1 {
		img.Levels = counts[1]
	}
	if len(counts) > 2 {
		img.Samples = counts[2]
	}
	return key, strings.Join(f[:len(f)-2], ":"), img, nil
}

// parseFormat finds an image format by its SPIR-V name, or a sampled-only
// one by internal/vkformat's.
func parseFormat(name string) (spirv.ImageFormat, error) {
	for _, f := range append(vkformat.Formats(), vkformat.SampledFormats()...) {
		if strings.EqualFold(vkformat.Name(f), name) {
			return f, nil
		}
	}
	return 0, fmt.Errorf("unknown image format %q: want a SPIR-V storage format name such as Rgba8, R32f, Rgba16Snorm or R11fG11fB10f", name)
}

// parseArgValue reads an --arg value: local:SIZE, TYPE:VALUE, FILE:SIZE
// (SIZE zero bytes, written to FILE after the run) or FILE; for FILE,
// read is true and the caller reads the file into arg.Global.
func parseArgValue(v string) (arg interp.KernelArg, file string, read bool, err error) {
	a, b, hasColon := strings.Cut(v, ":")
	if hasColon && a == "local" {
		n, err := strconv.ParseUint(b, 0, 31)
		if err != nil {
			return arg, "", false, errors.New("bad local size")
		}
		return interp.KernelArg{Kind: interp.ArgLocal, LocalSize: int(n)}, "", false, nil
	}
	if hasColon {
		if bits, _, ok := parseTyped(a, b); ok {
			return interp.KernelArg{Kind: interp.ArgScalar, Scalar: bits}, "", false, nil
		}
		if i := strings.LastIndex(v, ":"); i > 0 {
			if n, err := strconv.ParseUint(v[i+1:], 0, 31); err == nil {
				return interp.KernelArg{Kind: interp.ArgGlobal, Global: make([]byte, n)}, v[:i], false, nil
			}
		}
	}
	return interp.KernelArg{Kind: interp.ArgGlobal}, v, true, nil
}

// parseArgFlag reads an --arg N=VALUE for a kernel of n parameters.
func parseArgFlag(a string, n int) (int, string, error) {
	ns, spec, ok := strings.Cut(a, "=")
	i, err := strconv.Atoi(ns)
	if !ok || err != nil || i < 0 || i >= n {
		return 0, "", fmt.Errorf("--arg %q: want N=... with N < %d", a, n)
	}
	return i, spec, nil
}

// parseSpecFlag reads a --spec ID=VALUE.
func parseSpecFlag(sp string) (uint32, uint64, error) {
	k, v, ok := strings.Cut(sp, "=")
	id, err1 := strconv.ParseUint(k, 0, 32)
	bits, err2 := parseSpecValue(v)
	if !ok || err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("--spec %q: want ID=VALUE", sp)
	}
	return uint32(id), bits, nil
}

// parseTyped reads a scalar TYPE:VALUE into raw bits.
func parseTyped(typ, val string) (uint64, int, bool) {
	switch typ {
	case "i8", "i16", "i32", "i64":
		w, _ := strconv.Atoi(typ[1:])
		v, err := strconv.ParseInt(val, 0, w)
		if err != nil {
			return 0, 0, false
		}
		return uint64(v) & (1<<w - 1 | (^uint64(0))*boolBit(w == 64)), w, true
	case "u8", "u16", "u32", "u64":
		w, _ := strconv.Atoi(typ[1:])
		v, err := strconv.ParseUint(val, 0, w)
		return v, w, err == nil
	case "f16":
		f, err := strconv.ParseFloat(val, 64)
		return uint64(mx.HalfFromFloat64(f, mx.RTE)), 16, err == nil
	case "f32":
		f, err := strconv.ParseFloat(val, 32)
		return uint64(math.Float32bits(float32(f))), 32, err == nil
	case "f64":
		f, err := strconv.ParseFloat(val, 64)
		return math.Float64bits(f), 64, err == nil
	}
	return 0, 0, false
}

// boolBit is 1 for true.
func boolBit(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// parseSpecValue reads a --spec VALUE: TYPE:VALUE, a float (with a '.'
// or an exponent) as float32 bits, else an integer's bits.
func parseSpecValue(v string) (uint64, error) {
	if t, val, ok := strings.Cut(v, ":"); ok {
		if bits, _, ok := parseTyped(t, val); ok {
			return bits, nil
		}
		return 0, errors.New("bad typed value")
	}
	if strings.ContainsAny(v, ".eE") && !strings.HasPrefix(v, "0x") {
		f, err := strconv.ParseFloat(v, 32)
		return uint64(math.Float32bits(float32(f))), err
	}
	if strings.HasPrefix(v, "-") {
		i, err := strconv.ParseInt(v, 0, 64)
		return uint64(i), err
	}
	return strconv.ParseUint(v, 0, 64)
}

// setTo sets *p to to when a bool flag's value v is true (given bare);
// "false" leaves it. It gives flag pairs such as -q/-s and
// --color/--no-color their "the last one wins".
func setTo[T any](p *T, v string, to T) error {
	on, err := strconv.ParseBool(v)
	if on {
		*p = to
	}
	return err
}

// parseValue reads a decimal or hex float, inf, -inf or nan (with a sign).
func parseValue(a string) (float64, error) {
	l := strings.ToLower(a)
	switch l {
	case "nan", "+nan":
		return math.NaN(), nil
	case "-nan":
		return math.Copysign(math.NaN(), -1), nil
	}
	v, err := strconv.ParseFloat(a, 64)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange) {
			return v, nil // ±Inf or ±0 from an out-of-range literal is the value's rounding
		}
		return 0, fmt.Errorf("bad value %q: want a decimal or hex float, inf, -inf or nan", a)
	}
	return v, nil
}

// parseShuffleType reads u32, i16, 2xu16, 16xu8; f16/f32/f64 (and KxfW)
// parse so that the validator's rule can reject them with its own message.
func parseShuffleType(t string) (subgroup.Type, error) {
	typ := subgroup.Type{Components: 1}
	rest := strings.ToLower(t)
	if k, elem, ok := strings.Cut(rest, "x"); ok {
		c, err := strconv.Atoi(k)
		if err != nil || c < 1 || c > 16 {
			return typ, fmt.Errorf("bad component count in %q", t)
		}
		typ.Components, rest = c, elem
	}
	if rest == "" {
		return typ, fmt.Errorf("bad type %q", t)
	}
	switch rest[0] {
	case 'u':
		typ.Kind = subgroup.Int
	case 'i', 's':
		typ.Kind, typ.Signed = subgroup.Int, true
	case 'f':
		typ.Kind = subgroup.Float
	default:
		return typ, fmt.Errorf("bad type %q: want uW, iW or KxuW such as u32 or 2xu16", t)
	}
	w, err := strconv.Atoi(rest[1:])
	if err != nil || w < 1 || w > 64 {
		return typ, fmt.Errorf("bad width in %q", t)
	}
	typ.Width = w
	return typ, nil
}

// parseValues reads "a,b;c,d" into flat [invocation·C + component] data.
func parseValues(v string, t subgroup.Type, n int) ([]uint64, error) {
	rows := strings.Split(strings.TrimSpace(v), ";")
	if len(rows) != n {
		return nil, fmt.Errorf("--values has %d invocations, --subgroup is %d", len(rows), n)
	}
	out := make([]uint64, 0, n*t.Components)
	for i, r := range rows {
		comps := strings.Split(r, ",")
		if len(comps) != t.Components {
			return nil, fmt.Errorf("invocation %d has %d components, %s has %d", i, len(comps), t, t.Components)
		}
		for _, c := range comps {
			x, err := parseComponent(strings.TrimSpace(c), t)
			if err != nil {
				return nil, fmt.Errorf("invocation %d: %v", i, err)
			}
			out = append(out, x)
		}
	}
	return out, nil
}

// parseComponent reads one component value of t as its W-bit pattern. A
// decimal value must lie in the type's range: [0, 2^W-1] for uW (so no
// negative number), [-2^(W-1), 2^(W-1)-1] for iW. A hex or octal value
// (0x..., 0...) is a bit pattern for either signedness, as in the
// assembler, and must fit W bits.
func parseComponent(c string, t subgroup.Type) (uint64, error) {
	w := uint(t.Width)
	mask := uint64(1)<<w - 1
	if w == 64 {
		mask = ^uint64(0)
	}
	digits := strings.TrimLeft(c, "+-")
	pattern := len(digits) > 1 && digits[0] == '0'
	if strings.HasPrefix(c, "-") {
		v, err := strconv.ParseInt(c, 0, 64)
		if errors.Is(err, strconv.ErrRange) {
			return 0, fmt.Errorf("%s does not fit %d bits", c, w)
		}
		if err != nil {
			return 0, fmt.Errorf("bad value %q", c)
		}
		if v == 0 {
			return 0, nil
		}
		if !t.Signed {
			return 0, fmt.Errorf("%s is negative, but %s is unsigned", c, typeName(t))
		}
		if pattern {
			return 0, fmt.Errorf("%s: a hex or octal value is a bit pattern and cannot be negative", c)
		}
		if w < 64 && v < -(1<<(w-1)) {
			return 0, fmt.Errorf("%s does not fit %s (at least %d)", c, typeName(t), -(int64(1) << (w - 1)))
		}
		return uint64(v) & mask, nil
	}
	v, err := strconv.ParseUint(strings.TrimPrefix(c, "+"), 0, 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return 0, fmt.Errorf("%s does not fit %d bits", c, w)
		}
		return 0, fmt.Errorf("bad value %q", c)
	}
	max := mask
	if t.Signed && !pattern {
		max = mask >> 1
	}
	if v > max {
		if max == mask {
			return 0, fmt.Errorf("%s does not fit %d bits", c, w)
		}
		return 0, fmt.Errorf("%s does not fit %s (at most %d; write the bit pattern in hex)", c, typeName(t), max)
	}
	return v, nil
}

// printFlag is a --print value: the buffer (a Kernel's argument, or a
// shader's set and binding), its element type and the label to print.
type printFlag struct {
	label, typ string
	arg        int
	key        interp.BindingKey
}

// parsePrintFlag reads --print S:B:TYPE, or for a Kernel N:TYPE.
func parsePrintFlag(p string, kernel bool) (printFlag, error) {
	parts := strings.Split(p, ":")
	f := printFlag{label: p[:max(strings.LastIndex(p, ":"), 0)], typ: parts[len(parts)-1]}
	var err error
	switch {
	case kernel && len(parts) == 2:
		f.arg, err = strconv.Atoi(parts[0])
	case !kernel && len(parts) == 3:
		var set, bind uint64
		set, err = strconv.ParseUint(parts[0], 10, 32)
		if err == nil {
			bind, err = strconv.ParseUint(parts[1], 10, 32)
		}
		f.key = interp.BindingKey{Set: uint32(set), Binding: uint32(bind)}
	default:
		err = errors.New("")
	}
	if err != nil {
		return f, fmt.Errorf("--print %q: want S:B:TYPE (Kernel: N:TYPE)", p)
	}
	if bufferTypeSizes[f.typ] == 0 {
		return f, fmt.Errorf("--print %q: unknown type %q (want u8..u64, i8..i64, f16, f32, f64 or hex)", p, f.typ)
	}
	return f, nil
}

// parsePositive reads a positive uint32 (spirv-val's --max-* limits), in
// decimal, 0x hex or 0 octal, as SPIRV-Tools' ParseNumber reads it.
func parsePositive(v string) (uint32, error) {
	n, err := strconv.ParseUint(v, 0, 32)
	if err != nil || n == 0 {
		return 0, fmt.Errorf("invalid value %q", v)
	}
	return uint32(n), nil
}

// parseSizeAlign reads SIZE:ALIGN, both positive (spirv-val's
// --*-descriptor-layout).
func parseSizeAlign(v string) (size, align uint32, err error) {
	ss, as, ok := strings.Cut(v, ":")
	s, err1 := strconv.ParseUint(ss, 10, 32)
	a, err2 := strconv.ParseUint(as, 10, 32)
	if !ok || err1 != nil || err2 != nil || s == 0 || a == 0 {
		return 0, 0, fmt.Errorf("invalid value %q (want SIZE:ALIGN, both positive)", v)
	}
	return uint32(s), uint32(a), nil
}

// checkVersionForm checks amber's -v MAJOR.MINOR (1.1, not 1.1x).
func checkVersionForm(v string) error {
	major, minor, ok := strings.Cut(v, ".")
	_, err1 := strconv.ParseUint(major, 10, 32)
	_, err2 := strconv.ParseUint(minor, 10, 32)
	if !ok || err1 != nil || err2 != nil {
		return errors.New("want MAJOR.MINOR such as 1.1")
	}
	return nil
}
