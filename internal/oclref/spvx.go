package oclref

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"spvx/interp"
	"spvx/spirv"
)

// SPVX runs programs on spvx: clang-15 and llvm-spirv-15 translate the
// source to SPIR-V, and interp runs it.
type SPVX struct {
	clang, translator string
	// Opts are the executor's options for every run (subgroup size,
	// schedule); MaxSteps 0 keeps interp's default budget.
	Opts interp.Options
	// Timeout bounds each run (0: one minute).
	Timeout time.Duration
	// Validate runs spirv-val (when on PATH) on llvm-spirv's output and
	// makes a module it rejects a translation error: llvm-spirv-15 has bugs
	// of its own (a one-component OpTypeVector from a <1 x i64> bitcast),
	// and a kernel the translator gets wrong says nothing about spvx.
	Validate bool
}

// NewSPVX finds the translators, or returns why it cannot.
func NewSPVX() (*SPVX, error) {
	clang, err1 := exec.LookPath("clang-15")
	tr, err2 := exec.LookPath("llvm-spirv-15")
	if err1 != nil || err2 != nil {
		return nil, errors.New("clang-15 or llvm-spirv-15 not found (Debian: clang-15 llvm-spirv-15)")
	}
	return &SPVX{clang: clang, translator: tr}, nil
}

// Translate returns the program's SPIR-V, from the cache when the same
// source was translated before.
func (s *SPVX) Translate(p *Program) ([]byte, error) {
	ext := p.Extensions
	if ext == "" {
		ext = "+all"
	}
	h := sha256.New()
	opt := p.Opt
	if opt == "" {
		opt = "-O2"
	}
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00", p.std(), ext, opt, p.Source)
	key := hex.EncodeToString(h.Sum(nil)[:12])
	dir := filepath.Join(cacheDir(), "spv")
	spv := filepath.Join(dir, key+".spv")
	if b, err := os.ReadFile(spv); err == nil {
		return b, s.validate(spv)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(dir, "build")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	cl, bc, out := filepath.Join(tmp, "k.cl"), filepath.Join(tmp, "k.bc"), filepath.Join(tmp, "k.spv")
	if err := os.WriteFile(cl, []byte(p.Source), 0o644); err != nil {
		return nil, err
	}
	if b, err := exec.Command(s.clang, "-cc1", "-triple", "spir64-unknown-unknown", "-cl-std="+p.std(),
		"-finclude-default-header", "-cl-ext=+cl_khr_fp64,+cl_khr_int64_base_atomics,+cl_khr_int64_extended_atomics,+cl_khr_subgroups,+cl_intel_subgroups",
		"-emit-llvm-bc", opt, "-ffp-contract=off", "-no-opaque-pointers", "-o", bc, cl).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("clang-15: %v\n%s", err, b)
	}
	if b, err := exec.Command(s.translator, bc, "-o", out, "--spirv-ext="+ext).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("llvm-spirv-15: %v\n%s", err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		return nil, err
	}
	if err := os.Rename(out, spv); err != nil {
		return nil, err
	}
	return b, s.validate(spv)
}

// validate checks a translated module with spirv-val when s.Validate is
// set, caching the verdict next to the module.
func (s *SPVX) validate(spv string) error {
	if !s.Validate {
		return nil
	}
	verdict := strings.TrimSuffix(spv, ".spv") + ".val"
	msg, err := os.ReadFile(verdict)
	if err != nil {
		tool, err := exec.LookPath("spirv-val")
		if err != nil {
			return nil // not installed: nothing to check with
		}
		out, err := exec.Command(tool, spv).CombinedOutput()
		msg = []byte("ok")
		if err != nil {
			msg = []byte(err.Error() + "\n" + string(out))
		}
		tmp := fmt.Sprintf("%s.%d", verdict, os.Getpid())
		if err := os.WriteFile(tmp, msg, 0o644); err != nil {
			return err
		}
		if err := os.Rename(tmp, verdict); err != nil {
			return err
		}
	}
	if string(msg) == "ok" {
		return nil
	}
	return fmt.Errorf("llvm-spirv-15: its output fails spirv-val: %s", strings.TrimSpace(string(msg)))
}

// Run translates the program and makes its runs on the executor. The error
// is for the translators failing; the executor's own compile errors and
// faults are per run.
func (s *SPVX) Run(p *Program) (*Result, error) {
	b, err := s.Translate(p)
	if err != nil {
		return nil, err
	}
	words := make([]uint32, len(b)/4)
	for i := range words {
		words[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	m, err := spirv.DecodeWords(words)
	if err != nil {
		return &Result{BuildErr: fmt.Errorf("decoding llvm-spirv's output: %v", err)}, nil
	}
	res := &Result{Runs: make([]Outcome, len(p.Runs))}
	progs := map[string]*interp.Program{}
	for i := range p.Runs {
		res.Runs[i] = s.run(m, progs, &p.Runs[i])
	}
	return res, nil
}

func (s *SPVX) run(m *spirv.Module, progs map[string]*interp.Program, r *Run) Outcome {
	prog := progs[r.Kernel]
	if prog == nil {
		var err error
		if prog, err = interp.Compile(m, r.Kernel, s.Opts); err != nil {
			return Outcome{Err: err}
		}
		progs[r.Kernel] = prog
	}
	var global, local [3]uint32
	for d := 0; d < 3; d++ {
		global[d], local[d] = 1, 1
		if d < r.Dims() {
			global[d] = uint32(r.Global[d])
			if r.Local[d] > 0 {
				local[d] = uint32(r.Local[d])
			}
		}
	}
	var args []interp.KernelArg
	var bufs [][]byte
	for _, a := range r.Args {
		switch a.Kind {
		case Buffer:
			b := append([]byte(nil), a.Data...)
			bufs = append(bufs, b)
			args = append(args, interp.KernelArg{Kind: interp.ArgGlobal, Global: b})
		case Local:
			args = append(args, interp.KernelArg{Kind: interp.ArgLocal, LocalSize: a.Size})
		case Value:
			args = append(args, interp.KernelArg{Kind: interp.ArgBytes, Bytes: append([]byte(nil), a.Data...)})
		}
	}
	timeout := s.Timeout
	if timeout == 0 {
		timeout = time.Minute
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if err := prog.DispatchND(ctx, global, local, &interp.Resources{Args: args}); err != nil {
		return Outcome{Err: err}
	}
	return Outcome{Buffers: bufs}
}
