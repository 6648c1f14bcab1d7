package amber

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"

	"spvx/internal/boundedread"
)

// Error is a script error at a line: "FILE:LINE: message".
type Error struct {
	File string
	Line int
	Msg  string
	// Unsupported marks a valid script that uses what spvx does not
	// implement (graphics, images, OpenCL C): the runner reports it as SKIP.
	Unsupported bool
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return e.File + ": " + e.Msg
}

// ParseOptions configure Parse.
type ParseOptions struct {
	// ReadFile loads a file named by SHADER … FILE or BUFFER … FILE; the
	// name is as written in the script, relative to the script's folder. Nil
	// reads from disk relative to the folder of the script's path.
	ReadFile func(name string) ([]byte, error)
	// MaxBufferBytes bounds the bytes of all buffers of a script (0: 1 GiB),
	// so a hostile SIZE fails with an error instead of exhausting memory.
	MaxBufferBytes int

	// budget, when set (RunFile sets the run's), is reserved the bytes
	// the parser allocates, as it allocates them: buffer data and the
	// values of DATA, subdata, probes and EXPECTs; ctx ends a wait for it.
	budget *Budget
	ctx    context.Context
}

const defaultMaxBufferBytes = 1 << 30

// MaxFileBytes bounds a file a script loads.
const MaxFileBytes = 1 << 30

// ParseFile reads and parses a script from disk. The script, like every
// FILE it names, must be a regular file of at most MaxFileBytes: a FIFO, a
// device such as /dev/zero or a file that grows while it is read is
// rejected rather than read until memory runs out.
func ParseFile(path string) (*Script, error) {
	src, err := readLimited(path)
	if err != nil {
		return nil, &Error{File: path, Msg: unwrapPathError(err).Error()}
	}
	return Parse(path, src, ParseOptions{})
}

// readLimited reads a regular file of at most MaxFileBytes through the
// bounded reader, which stops at the limit whatever Stat said.
func readLimited(path string) ([]byte, error) {
	return boundedread.ReadFile(path, MaxFileBytes)
}

// Parse parses one script; path names it in errors and locates its FILE
// companions. The syntax is AmberScript when src starts with "#!amber" and
// VkScript otherwise, as amber decides.
func Parse(path string, src []byte, opt ParseOptions) (*Script, error) {
	if opt.ReadFile == nil {
		dir := filepath.Dir(path)
		opt.ReadFile = func(name string) ([]byte, error) {
			if !filepath.IsAbs(name) {
				name = filepath.Join(dir, name)
			}
			return readLimited(name)
		}
	}
	if opt.MaxBufferBytes <= 0 {
		opt.MaxBufferBytes = defaultMaxBufferBytes
	}
	if len(src) == 0 {
		// As amber's sample runner, "FILE is empty.", not VkScript's "no
		// compute shader" that an empty text would otherwise get.
		return nil, &Error{File: path, Msg: "the file is empty"}
	}
	if bytes.HasPrefix(src, []byte("#!amber")) {
		p := &amberParser{s: newScript(path, AmberScript), z: newTokenizer(string(src), 1), opt: opt}
		if err := p.parse(); err != nil {
			p.releaseHeld()
			return nil, err
		}
		p.handOver()
		return p.s, nil
	}
	return parseVk(path, src, opt)
}

// perr is a parse error at a line; the parse functions return it and Parse
// adds the file name.
type perr struct {
	line  int
	msg   string
	unsup bool
}

func (e *perr) Error() string { return fmt.Sprintf("%d: %s", e.line, e.msg) }

func errAt(line int, format string, args ...any) error {
	return &perr{line: line, msg: fmt.Sprintf(format, args...)}
}

// unsupAt is errAt for a valid command spvx does not implement.
func unsupAt(line int, format string, args ...any) error {
	return &perr{line, fmt.Sprintf(format, args...), true}
}

func fileError(path string, err error) error {
	if e, ok := err.(*perr); ok {
		return &Error{File: path, Line: e.line, Msg: e.msg, Unsupported: e.unsup}
	}
	return &Error{File: path, Msg: err.Error()}
}
