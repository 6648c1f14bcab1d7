package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"spvx/dis"
	"spvx/spirv"
)

// disMemoryLimit is the heap size at which spvx dis collects garbage (it
// does not otherwise): well above what one large module needs.
const disMemoryLimit = 1 << 30

var disCommand = command{
	name:    "dis",
	summary: "disassemble SPIR-V binaries to text, as spirv-dis prints it",
	run:     runDis,
}

const disUsage = `usage: spvx dis [options] FILE...

Disassembles SPIR-V binary modules into SPIRV-Tools assembly text,
byte-identical to current spirv-dis. FILE "-" is standard input.

With one FILE, the text goes to standard output, or to the -o file.
With several, each text goes to DIR/NAME.spvasm with -o DIR, or else
beside its input as NAME.spvasm (NAME is FILE without ".spv"); standard
input, and every input with -o -, go to standard output.

Options:
  -o FILE           output file, or directory with several inputs ("-": stdout)
  --raw-id          print ids as numbers instead of friendly names
  --no-header       omit the "; SPIR-V" header comments
  --no-indent       do not align instructions in a column
  --offsets         comment each instruction with its byte offset
  --comment         add comments: section headings, OpName ids, decorations
  --nested-indent   indent blocks by their structured control-flow nesting
  --reorder-blocks  print blocks in structured control-flow order
  --color           color the text written to standard output (ANSI)
  --no-color        do not color (the default unless stdout is a terminal;
                    the last of --color and --no-color wins)
  --version         print the version and exit
  -h, --help        print this help
`

// disFlags are the parsed command line of spvx dis.
type disFlags struct {
	opt     dis.Options
	out     string // -o; "" when not given
	color   int    // 0 default (terminal only), 1 --color, -1 --no-color
	files   []string
	help    bool
	version bool
	invalid string // the usage error, if any
}

// parseDisFlags parses flags and file names in any order, as spirv-dis
// does; "--" ends the flags. Flags take one or two dashes.
func parseDisFlags(args []string) disFlags {
	var f disFlags
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			f.files = append(f.files, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			f.files = append(f.files, a)
			continue
		}
		name := strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
		name, value, hasValue := strings.Cut(name, "=")
		bools := map[string]*bool{
			"raw-id": &f.opt.RawID, "no-header": &f.opt.NoHeader, "no-indent": &f.opt.NoIndent,
			"offsets": &f.opt.Offsets, "comment": &f.opt.Comment, "nested-indent": &f.opt.NestedIndent,
			"reorder-blocks": &f.opt.ReorderBlocks, "h": &f.help, "help": &f.help,
			"version": &f.version,
		}
		switch {
		case name == "o":
			if !hasValue {
				if i+1 >= len(args) {
					f.invalid = "flag -o needs a file name"
					return f
				}
				i++
				value = args[i]
			}
			if value == "" {
				f.invalid = "flag -o needs a file name"
				return f
			}
			f.out = value
		case name == "color" && !hasValue:
			f.color = 1
		case name == "no-color" && !hasValue:
			f.color = -1
		case bools[name] != nil && !hasValue:
			*bools[name] = true
		default:
			f.invalid = "unknown flag " + a
			return f
		}
	}
	return f
}

func runDis(args []string, s stdio) int {
	f := parseDisFlags(args)
	if f.help {
		fmt.Fprint(s.out, disUsage)
		return exitOK
	}
	if f.version {
		printVersion(s.out)
		return exitOK
	}
	if f.invalid == "" && len(f.files) == 0 {
		f.invalid = "no input file"
	}
	if f.invalid != "" {
		fmt.Fprintf(s.err, "spvx dis: %s\n", f.invalid)
		fmt.Fprint(s.err, disUsage)
		return exitUsage
	}
	// As spirv-dis: color only ever goes to standard output, by default
	// only when it is a terminal.
	stdoutColor := f.color == 1 || f.color == 0 && isTerminal(s.out)

	several := len(f.files) > 1
	if several && f.out != "" && f.out != "-" {
		if fi, err := os.Stat(f.out); err != nil || !fi.IsDir() {
			fmt.Fprintf(s.err, "spvx dis: -o %s: with several input files, -o must name a directory\n", f.out)
			return exitUsage
		}
	}
	// A run's garbage is small next to what it keeps (the decoded module),
	// and the process is short: collecting would only cost time. The
	// memory limit still bounds a long run over many large files.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(disMemoryLimit))

	status := exitOK
	for _, in := range f.files {
		dest := outputFor(in, f.out, several)
		opt := f.opt
		opt.Color = dest == "-" && stdoutColor
		if err := disassembleFile(in, dest, opt, s); err != nil {
			fmt.Fprintf(s.err, "spvx dis: %v\n", err)
			status = exitRejected
		}
	}
	return status
}

// outputFor returns where the text of input goes: a path, or "-" for
// standard output.
func outputFor(input, out string, several bool) string {
	switch {
	case !several && out != "":
		return out
	case !several, input == "-", out == "-":
		return "-"
	}
	name := strings.TrimSuffix(input, ".spv") + ".spvasm"
	if out != "" {
		return filepath.Join(out, filepath.Base(name))
	}
	return name
}

// disassembleFile disassembles one input. Errors name the file.
func disassembleFile(input, dest string, opt dis.Options, s stdio) error {
	bin, release, err := readModule(input, s)
	if release != nil {
		defer release()
	}
	if err != nil {
		return fmt.Errorf("%s: %w", input, pathless(err))
	}
	if bin, err = binaryModule(bin); err != nil {
		return fmt.Errorf("%s: %w", input, err)
	}
	if dest == "-" {
		err = dis.FprintBinary(s.out, bin, opt)
	} else {
		// FprintBinary writes nothing for a module that does not decode,
		// so a lazily created file is not left behind empty.
		f := &lazyFile{path: dest}
		err = dis.FprintBinary(f, bin, opt)
		var de *spirv.DecodeError
		if !errors.As(err, &de) {
			if cerr := f.close(); err == nil {
				err = cerr
			}
		}
	}
	var de *spirv.DecodeError
	switch {
	case errors.As(err, &de):
		return fmt.Errorf("%s: %w", input, err)
	case err != nil:
		return fmt.Errorf("%s: %w", dest, pathless(err))
	}
	return nil
}

// lazyFile creates its file on the first write (or on close).
type lazyFile struct {
	path string
	f    *os.File
}

func (l *lazyFile) Write(p []byte) (int, error) {
	if l.f == nil {
		f, err := os.Create(l.path)
		if err != nil {
			return 0, err
		}
		l.f = f
	}
	return l.f.Write(p)
}

func (l *lazyFile) close() error {
	if l.f == nil {
		if _, err := l.Write(nil); err != nil {
			return err
		}
	}
	return l.f.Close()
}

// pathless drops the path from an *fs.PathError, which the message
// already names.
func pathless(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
