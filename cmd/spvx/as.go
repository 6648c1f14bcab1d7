package main

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"unsafe"

	"spvx/asm"
	"spvx/spirv"
)

const asUsage = `usage: spvx as [options] [FILE...]

Assembles SPIR-V assembly text (the syntax of SPIRV-Tools' spirv-as) into
SPIR-V binary modules, byte-identical to spirv-as's output.

With no FILE, or FILE "-", the text is read from standard input. One input
is written to out.spv unless -o names another file ("-" is standard
output). Several inputs are each written beside their input with the
extension .spv, or into the directory -o names.

Errors are printed as FILE:LINE:COL: message, every error found; exit
status 1 if any input is rejected, 2 for a usage error.

Options:
  -o FILE                 output file (several inputs: output directory)
  --target-env ENV        SPIR-V version to target: spv1.0 ... spv1.6,
                          vulkan1.0 ... vulkan1.4, vulkan1.1spv1.4,
                          opencl1.2[embedded] ... opencl2.2[embedded],
                          opengl4.0 ... opengl4.5, universal1.0 ... 1.6.
                          Default: the "; Version: 1.X" comment of the
                          text's header, else 1.6 (as current spirv-as)
  --preserve-numeric-ids  keep the numbers of ids written as numbers (%12);
                          named ids fill the gaps
  --lax-ids               accept ids used but never defined, or defined
                          twice, as spirv-as does
  --spirv-as-errors       print only the first error, as spirv-as does:
                          error: LINE: COL: message
  --version               print the version and exit
  -h, --help              print this help
`

func runAs(args []string, s stdio) int {
	fs := newFlagSet("as", asUsage, s)
	out := fs.String("o", "", "output file or directory")
	env := fs.String("target-env", "", "target environment")
	preserve := fs.Bool("preserve-numeric-ids", false, "keep numeric ids")
	lax := fs.Bool("lax-ids", false, "accept undefined and redefined ids")
	toolsErrors := fs.Bool("spirv-as-errors", false, "spirv-as error format")
	version := fs.Bool("version", false, "print the version")
	files, code, ok := fs.parse(args)
	if !ok {
		return code
	}
	if *version {
		printVersion(s.out)
		return exitOK
	}
	if *env != "" {
		if _, ok := asm.LookupTargetEnv(*env); !ok {
			return fs.usageErr(fmt.Sprintf("unrecognized target env %q", *env))
		}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	if len(files) > 1 {
		for _, f := range files {
			if f == "-" {
				return fs.usageErr("standard input (-) can only be assembled alone")
			}
		}
		if *out == "-" {
			return fs.usageErr("-o - needs a single input")
		}
		// As spvx dis: the directory must exist, rather than each
		// output failing to open in it.
		if *out != "" {
			if fi, err := os.Stat(*out); err != nil || !fi.IsDir() {
				return fs.usageErr(fmt.Sprintf("-o %s: with several input files, -o must name a directory", *out))
			}
		}
	}

	// The assembler allocates a few times its input, in a few big blocks
	// that live to the end; collecting garbage meanwhile only costs time.
	// A memory limit still brings the collector back for huge inputs.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(1 << 30))

	opt := asm.Options{TargetEnv: *env, PreserveNumericIDs: *preserve, LaxIDs: *lax}
	status := exitOK
	for _, name := range files {
		dst := outputName(name, *out, len(files) > 1)
		if !assembleFile(name, dst, opt, *toolsErrors, s) {
			status = exitRejected
		}
	}
	return status
}

// outputName picks where the module assembled from input goes.
func outputName(input, out string, several bool) string {
	if !several {
		if out == "" {
			return "out.spv"
		}
		return out
	}
	base := strings.TrimSuffix(input, filepath.Ext(input)) + ".spv"
	if base == input {
		base += ".spv"
	}
	if out != "" {
		return filepath.Join(out, filepath.Base(base))
	}
	return base
}

// assembleFile assembles one input and writes its module; it reports any
// problem on s.err and returns false.
func assembleFile(name, dst string, opt asm.Options, toolsErrors bool, s stdio) bool {
	src, release, err := readText(name, s)
	if release != nil {
		defer release()
	}
	if err != nil {
		fmt.Fprintf(s.err, "spvx as: %s: %v\n", name, pathless(err))
		return false
	}
	if err := checkText(src); err != nil {
		fmt.Fprintf(s.err, "spvx as: %s: %v\n", name, err)
		return false
	}
	opt.File = name
	if name == "-" {
		opt.File = "<stdin>"
	}
	words, err := asm.Assemble(src, opt)
	if err != nil {
		var list asm.ErrorList
		switch {
		case errors.As(err, &list) && toolsErrors:
			fmt.Fprintln(s.err, list[0].SPIRVTools())
		case errors.As(err, &list):
			for _, e := range list {
				fmt.Fprintln(s.err, e)
			}
		default:
			fmt.Fprintf(s.err, "spvx as: %s: %v\n", name, err)
		}
		return false
	}
	b := wordBytes(words)
	if dst == "-" {
		if _, err := s.out.Write(b); err != nil {
			fmt.Fprintf(s.err, "spvx as: %v\n", err)
			return false
		}
		return true
	}
	if err := os.WriteFile(dst, b, 0o666); err != nil {
		fmt.Fprintf(s.err, "spvx as: %v\n", err)
		return false
	}
	return true
}

// wordBytes returns the module's little-endian bytes. On a little-endian
// host that is the words' own memory, which saves a copy of the module.
func wordBytes(words []uint32) []byte {
	if len(words) > 0 && spirv.HostLittleEndian {
		return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(words))), 4*len(words))
	}
	b := make([]byte, 4*len(words))
	for i, w := range words {
		binary.LittleEndian.PutUint32(b[4*i:], w)
	}
	return b
}
