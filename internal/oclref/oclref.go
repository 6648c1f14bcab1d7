// Package oclref runs OpenCL C kernels on spvx's executor and on an
// independent OpenCL implementation, and compares what they write.
//
// The two paths share only the source text. PoCL (or any ICD the platform
// filter selects) compiles the source with its own front end and runs it
// through a small C host program (host.c), built with gcc against the
// system's ICD loader the first time a test needs it and run as a process.
// spvx gets the same source through Debian's clang-15 and llvm-spirv-15 and
// runs the SPIR-V with interp. Every buffer argument is read back from both
// and compared byte for byte, or by a caller's comparison where the OpenCL C
// specification allows an error bound.
//
// A Program holds one source with many Runs, so that one PoCL compile (about
// a second) and one clang call serve many kernels and inputs. Both engines
// are external processes found on PATH; Available says why one is missing,
// and tests skip with that message.
package oclref

import (
	"fmt"
)

// ArgKind says what a kernel argument is.
type ArgKind uint32

// Argument kinds, numbered as host.c reads them.
const (
	Buffer ArgKind = iota // a __global or __constant pointer: Data, read back after the run
	Local                 // a __local pointer: Size bytes of workgroup memory
	Value                 // a by-value scalar or vector: Data
)

// Arg is one kernel argument.
type Arg struct {
	Kind ArgKind
	Data []byte // Buffer: initial contents; Value: the value's bytes
	Size int    // Local: bytes
}

// Run is one NDRange launch of one kernel of the program.
type Run struct {
	Kernel string
	Global [3]int // work-items per dimension; 0 in an unused dimension
	Local  [3]int // workgroup size; all 0 lets the runtime choose (spvx: 1)
	Args   []Arg
}

// Dims returns how many dimensions the run uses (at least 1).
func (r *Run) Dims() int {
	d := 1
	for i := 1; i < 3; i++ {
		if r.Global[i] > 0 {
			d = i + 1
		}
	}
	return d
}

// Program is one OpenCL C source and the launches to make with it.
type Program struct {
	Source string
	// Std is the OpenCL C version, "CL1.2" (default) or "CL2.0". PoCL 3.1
	// lacks the generic-address-space overloads of vload/vstore_half,
	// frexp and friends, so CL1.2 is the default.
	Std  string
	Runs []Run
	// Extensions lists SPIR-V extensions llvm-spirv may use, as
	// "+SPV_INTEL_subgroups"; empty means "+all".
	Extensions string
	// Opt is clang's optimization level for spvx's translation, "-O2" when
	// empty. Random kernels use -O0: llvm-spirv-15 cannot translate some of
	// what LLVM 15's optimizer makes of them (freeze, i2, switches on
	// lookup tables), and -O0 keeps every variable in Function memory.
	Opt string
	// RefOptions are build options for the reference besides -cl-std, as
	// "-cl-opt-disable": a second opinion when PoCL's optimizer is suspect.
	RefOptions string
}

func (p *Program) std() string {
	if p.Std == "" {
		return "CL1.2"
	}
	return p.Std
}

// Outcome is what one engine did with one Run: the buffer arguments'
// contents after it, in argument order, or an error.
type Outcome struct {
	Buffers [][]byte
	Err     error
}

// Result is an engine's answer for a whole Program: a build error, or one
// Outcome per Run.
type Result struct {
	BuildErr error
	Runs     []Outcome
}

// Mismatch describes the first difference between two engines on one run.
type Mismatch struct {
	Run    int
	Kernel string
	Arg    int // the argument index of the buffer
	Offset int // the byte offset of the first difference
	Msg    string
}

func (m Mismatch) String() string {
	return fmt.Sprintf("run %d (kernel %s): argument %d, byte %d: %s", m.Run, m.Kernel, m.Arg, m.Offset, m.Msg)
}

// Compare compares spvx's result with the reference's byte for byte and
// returns every run's first mismatch. A run that failed on one side and
// not the other is a mismatch; a run that failed on both is not compared.
func Compare(p *Program, spvx, ref *Result) []Mismatch {
	return CompareWith(p, spvx, ref, nil)
}

// ElemCompare judges one buffer of one run: given both buffers it returns
// the byte offset and a description of the first unacceptable difference,
// or -1.
type ElemCompare func(run, arg int, got, want []byte) (int, string)

// CompareWith is Compare with a per-buffer comparison (nil: byte for byte).
func CompareWith(p *Program, spvx, ref *Result, cmp ElemCompare) []Mismatch {
	var out []Mismatch
	for i := range p.Runs {
		r := &p.Runs[i]
		a, b := spvx.Runs[i], ref.Runs[i]
		if a.Err != nil || b.Err != nil {
			if (a.Err == nil) != (b.Err == nil) {
				out = append(out, Mismatch{Run: i, Kernel: r.Kernel, Arg: -1, Msg: fmt.Sprintf("spvx: %v; reference: %v", a.Err, b.Err)})
			}
			continue
		}
		bi := 0
		for ai, arg := range r.Args {
			if arg.Kind != Buffer {
				continue
			}
			got, want := a.Buffers[bi], b.Buffers[bi]
			bi++
			off, msg := -1, ""
			if cmp != nil {
				off, msg = cmp(i, ai, got, want)
			} else {
				off, msg = firstDiff(got, want)
			}
			if off >= 0 {
				out = append(out, Mismatch{Run: i, Kernel: r.Kernel, Arg: ai, Offset: off, Msg: msg})
			}
		}
	}
	return out
}

func firstDiff(got, want []byte) (int, string) {
	if len(got) != len(want) {
		return 0, fmt.Sprintf("length %d, reference %d", len(got), len(want))
	}
	for j := range got {
		if got[j] != want[j] {
			lo := j &^ 7
			hi := min(lo+16, len(got))
			return j, fmt.Sprintf("spvx % x, reference % x", got[lo:hi], want[lo:hi])
		}
	}
	return -1, ""
}
