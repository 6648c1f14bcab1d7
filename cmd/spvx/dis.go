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

const disUsage = `usage: spvx dis [options] [FILE...]

Disassembles SPIR-V binary modules into SPIRV-Tools assembly text,
byte-identical to current spirv-dis. FILE "-" is standard input, as is
no FILE at all.

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

func runDis(args []string, s stdio) int {
	fs := newFlagSet("dis", disUsage, s)
	var opt dis.Options
	fs.BoolVar(&opt.RawID, "raw-id", false, "")
	fs.BoolVar(&opt.NoHeader, "no-header", false, "")
	fs.BoolVar(&opt.NoIndent, "no-indent", false, "")
	fs.BoolVar(&opt.Offsets, "offsets", false, "")
	fs.BoolVar(&opt.Comment, "comment", false, "")
	fs.BoolVar(&opt.NestedIndent, "nested-indent", false, "")
	fs.BoolVar(&opt.ReorderBlocks, "reorder-blocks", false, "")
	out := fs.String("o", "", "")
	version := fs.Bool("version", false, "")
	// The last of --color and --no-color wins, as with spirv-dis:
	// 0 default (terminal only), 1 --color, -1 --no-color.
	color := 0
	fs.BoolFunc("color", "", func(v string) error { return setTo(&color, v, 1) })
	fs.BoolFunc("no-color", "", func(v string) error { return setTo(&color, v, -1) })
	files, code, ok := fs.parse(args)
	if !ok {
		return code
	}
	if *version {
		printVersion(s.out)
		return exitOK
	}
	if len(files) == 0 {
		files = []string{"-"} // spirv-dis reads standard input without a file
	}
	// As spirv-dis: color only ever goes to standard output, by default
	// only when it is a terminal.
	stdoutColor := color == 1 || color == 0 && isTerminal(s.out)

	several := len(files) > 1
	if several && *out != "" && *out != "-" {
		if fi, err := os.Stat(*out); err != nil || !fi.IsDir() {
			return fs.usageErr(fmt.Sprintf("-o %s: with several input files, -o must name a directory", *out))
		}
	}
	// A run's garbage is small next to what it keeps (the decoded module),
	// and the process is short: collecting would only cost time. The
	// memory limit still bounds a long run over many large files.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(disMemoryLimit))

	status := exitOK
	for _, in := range files {
		dest := outputFor(in, *out, several)
		opt := opt
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
