package oclref

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"spvx/internal/hostbuild"
)

//go:embed host/oclhost.c
var hostSource []byte

// Reference is an OpenCL implementation reached through the host program.
type Reference struct {
	// Platform is a substring of the platform name to use: "Portable
	// Computing Language" for PoCL, "rusticl" for Mesa's.
	Platform string
	// Timeout bounds one program's compile and runs in the host process
	// (0: DefaultReferenceTimeout), so that a kernel the reference hangs on
	// fails the program instead of the test binary's deadline.
	Timeout time.Duration
	host    string
}

// DefaultReferenceTimeout is a Reference's Timeout when it is 0: the
// largest family program takes well under a minute.
const DefaultReferenceTimeout = 5 * time.Minute

// PoCL is the default reference: the Portable Computing Language CPU
// runtime, compiling the OpenCL C source with its own front end.
const PoCL = "Portable Computing Language"

// cacheDir is where PoCL's kernel cache and clang's outputs are kept.
func cacheDir() string { return filepath.Join(hostbuild.CacheDir(), "oclref") }

func buildHost() (string, error) {
	return hostbuild.Build("oclhost", hostSource, "/usr/include/CL/cl.h", "ocl-icd-opencl-dev", "-lOpenCL")
}

// NewReference finds the host and a platform whose name contains platform,
// or returns why it cannot (the caller skips with that message).
func NewReference(platform string) (*Reference, error) {
	host, err := buildHost()
	if err != nil {
		return nil, err
	}
	r := &Reference{Platform: platform, host: host}
	// An empty program tells whether the platform exists.
	res, err := r.Run(&Program{Source: "__kernel void probe_(void) {}"})
	if err != nil {
		return nil, err
	}
	if res.BuildErr != nil {
		return nil, fmt.Errorf("%s cannot build an empty kernel: %v", platform, res.BuildErr)
	}
	return r, nil
}

// Run builds the program from source on the reference and makes its runs.
// The error is for the harness failing (the host missing or dying); a
// build failure is Result.BuildErr and a failed run Outcome.Err.
func (r *Reference) Run(p *Program) (*Result, error) {
	var req bytes.Buffer
	w32 := func(v uint32) { binary.Write(&req, binary.LittleEndian, v) }
	w64 := func(v uint64) { binary.Write(&req, binary.LittleEndian, v) }
	wstr := func(s string) { w32(uint32(len(s))); req.WriteString(s) }
	w32(0x484c434f)
	wstr(r.Platform)
	wstr(p.Source)
	opts := "-cl-std=" + p.std()
	if p.RefOptions != "" {
		opts += " " + p.RefOptions
	}
	wstr(opts)
	w32(uint32(len(p.Runs)))
	for _, run := range p.Runs {
		wstr(run.Kernel)
		w32(uint32(run.Dims()))
		for _, g := range run.Global {
			w64(uint64(g))
		}
		for _, l := range run.Local {
			w64(uint64(l))
		}
		w32(uint32(len(run.Args)))
		for _, a := range run.Args {
			w32(uint32(a.Kind))
			if a.Kind == Local {
				w64(uint64(a.Size))
				continue
			}
			w64(uint64(len(a.Data)))
			req.Write(a.Data)
		}
	}
	timeout := r.Timeout
	if timeout <= 0 {
		timeout = DefaultReferenceTimeout
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, r.host)
	cmd.Stdin = &req
	cmd.Env = append(os.Environ(), "POCL_CACHE_DIR="+filepath.Join(cacheDir(), "pocl"))
	// PoCL writes a broken.dot into its working directory when its
	// work-group barrier pass meets a control-flow graph it cannot handle:
	// keep that out of the caller's (the source tree, under go test).
	cmd.Dir = filepath.Join(cacheDir(), "pocl-cwd")
	if err := os.MkdirAll(cmd.Dir, 0o755); err != nil {
		return nil, err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if ctx.Err() != nil {
		return nil, fmt.Errorf("OpenCL host: no answer within %v (Reference.Timeout)", timeout)
	}
	if err != nil {
		return nil, fmt.Errorf("OpenCL host: %v: %s", err, bytes.TrimSpace(stderr.Bytes()))
	}
	return parseReply(bytes.NewReader(out), p)
}

func parseReply(rd *bytes.Reader, p *Program) (*Result, error) {
	var bad error
	u32 := func() uint32 {
		var v uint32
		if err := binary.Read(rd, binary.LittleEndian, &v); err != nil && bad == nil {
			bad = err
		}
		return v
	}
	blob := func(n uint64) []byte {
		if n > uint64(rd.Len()) {
			if bad == nil {
				bad = io.ErrUnexpectedEOF
			}
			return nil
		}
		b := make([]byte, n)
		rd.Read(b)
		return b
	}
	str := func() string { return string(blob(uint64(u32()))) }
	res := &Result{}
	if st, msg := u32(), str(); st != 0 {
		res.BuildErr = fmt.Errorf("build failed: %s", msg)
		return res, bad
	}
	res.Runs = make([]Outcome, len(p.Runs))
	for i, run := range p.Runs {
		st, msg := u32(), str()
		if bad != nil {
			break
		}
		if st != 0 {
			res.Runs[i].Err = errors.New(msg)
			continue
		}
		for _, a := range run.Args {
			if a.Kind == Buffer {
				lo := uint64(u32())
				n := lo | uint64(u32())<<32
				res.Runs[i].Buffers = append(res.Runs[i].Buffers, blob(n))
			}
		}
	}
	if bad != nil {
		return nil, fmt.Errorf("OpenCL host: bad reply: %v", bad)
	}
	return res, nil
}
