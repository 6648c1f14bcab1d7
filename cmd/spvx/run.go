package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"spvx/asm"
	"spvx/internal/boundedread"
	"spvx/interp"
	"spvx/mx"
	"spvx/spirv"
)

// defaultRunTimeout bounds a kernel's dispatch, and each Amber script, when
// --timeout is not given: the work budget's default takes some seconds of
// CPU, so only a dispatch with a raised budget or a hostile one reaches it.
const defaultRunTimeout = 60 * time.Second

// runContext is the context of a dispatch with timeout d (0: none).
func runContext(d time.Duration) (context.Context, context.CancelFunc) {
	if d <= 0 {
		return context.WithCancel(context.Background())
	}
	return context.WithTimeout(context.Background(), d)
}

// timedOut says that a dispatch error came from --timeout.
func timedOut(ctx context.Context, d time.Duration, err error) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("timed out after %v (--timeout): %w", d, err)
	}
	return err
}

type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, " ") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// runKernel is spvx run in kernel mode: one module's compute entry point
// on the executor.
func runKernel(fs *cmdFlags, k *kernelFlags, timeout time.Duration, name string) int {
	s := fs.s
	entry, groups, sgSize, push, global, local, offset := k.entry, k.groups, k.sgSize, k.push, k.global, k.local, k.offset
	trace, maxSteps, shuffle, seed, separate, strict := k.trace, k.maxSteps, k.shuffle, k.seed, k.separate, k.strict
	buffers, prints, kargs, specs := k.buffers, k.prints, k.args, k.specs
	data, release, err := readAny(name, s)
	if release != nil {
		defer release()
	}
	if err != nil {
		return fail(s, "run", err)
	}
	m, err := decodeInput(data, asm.Options{File: name})
	if err != nil {
		return fail(s, "run", fmt.Errorf("%s: %w", name, err))
	}
	if *k.listArgs {
		return listArgs(s, m, name, *entry)
	}
	opts := interp.Options{SubgroupSize: *sgSize, MaxSteps: *maxSteps, Shuffle: *shuffle, Seed: *seed, Strict: *strict, SeparateSubgroups: *separate,
		SpecConstants: map[uint32]uint64{}}
	if *trace {
		opts.Trace = s.err
	}
	for _, sp := range specs {
		k, v, ok := strings.Cut(sp, "=")
		id, err1 := strconv.ParseUint(k, 0, 32)
		bits, err2 := parseSpecValue(v)
		if !ok || err1 != nil || err2 != nil {
			return fs.usageErr(fmt.Sprintf("--spec %q: want ID=VALUE", sp))
		}
		opts.SpecConstants[uint32(id)] = bits
	}
	prog, err := interp.Compile(m, *entry, opts)
	if err != nil {
		return fail(s, "run", fmt.Errorf("%s: %w", name, err))
	}
	res := &interp.Resources{Buffers: map[interp.BindingKey][]*interp.Buffer{}}
	if *push != "" {
		if res.PushConstants, err = boundedread.ReadAny(*push, maxInput); err != nil {
			return fail(s, "run", err)
		}
	}
	type outFile struct {
		name string
		data []byte
	}
	var outs []outFile
	kernel := prog.ExecutionModel() == spirv.ExecutionModelKernel
	argData := map[int][]byte{}
	if kernel {
		if len(buffers) > 0 {
			return fs.usageErr("a Kernel takes --arg, not --buffer")
		}
		res.Args = make([]interp.KernelArg, prog.NumArgs())
		seen := make([]bool, prog.NumArgs())
		for _, a := range kargs {
			ns, spec, ok := strings.Cut(a, "=")
			n, err := strconv.Atoi(ns)
			if !ok || err != nil || n < 0 || n >= prog.NumArgs() {
				return fs.usageErr(fmt.Sprintf("--arg %q: want N=... with N < %d", a, prog.NumArgs()))
			}
			ka, file, err := kernelArg(prog.Args()[n], spec)
			if err != nil {
				return fs.usageErr(fmt.Sprintf("--arg %q: %v", a, err))
			}
			res.Args[n], seen[n] = ka, true
			if ka.Kind == interp.ArgGlobal {
				argData[n] = ka.Global
				if file != "" {
					outs = append(outs, outFile{file, ka.Global})
				}
			}
		}
		for i, ok := range seen {
			if !ok {
				return fs.usageErr(fmt.Sprintf("kernel argument %d is not given (--arg %d=...)", i, i))
			}
		}
	} else {
		for _, b := range buffers {
			key, file, size, err := parseBufferFlag(b)
			if err != nil {
				return fs.usageErr(fmt.Sprintf("--buffer %q: %v", b, err))
			}
			var d []byte
			if size >= 0 {
				d = make([]byte, size)
			} else if d, err = boundedread.ReadAny(file, maxInput); err != nil {
				return fail(s, "run", err)
			}
			res.Buffers[key] = append(res.Buffers[key], &interp.Buffer{Data: d})
			outs = append(outs, outFile{file, d})
		}
	}
	// Checked before the dispatch, so a typo does not cost a long run.
	toPrint, err := resolvePrints(prints, kernel, argData, res)
	if err != nil {
		return fs.usageErr(err.Error())
	}
	if kernel {
		g, err := parseDims(*global, 0)
		if err != nil || *global == "" {
			return fs.usageErr("a Kernel needs --global X[,Y[,Z]]")
		}
		var l, off [3]uint32
		if *local != "" {
			if l, err = parseDims(*local, 1); err != nil {
				return fs.usageErr("--local: " + err.Error())
			}
		}
		if *offset != "" {
			if off, err = parseDims(*offset, 0); err != nil {
				return fs.usageErr("--offset: " + err.Error())
			}
		}
		res.GlobalOffset = off
		ctx, cancel := runContext(timeout)
		defer cancel()
		err = prog.DispatchND(ctx, g, l, res)
		if err != nil {
			return fail(s, "run", timedOut(ctx, timeout, err))
		}
	} else {
		g, err := parseDims(*groups, 1)
		if err != nil {
			return fs.usageErr("--groups: " + err.Error())
		}
		ctx, cancel := runContext(timeout)
		defer cancel()
		if err := prog.Dispatch(ctx, g[0], g[1], g[2], res); err != nil {
			return fail(s, "run", timedOut(ctx, timeout, err))
		}
	}
	for _, o := range outs {
		if err := os.WriteFile(o.name, o.data, 0o644); err != nil {
			return fail(s, "run", err)
		}
	}
	for _, p := range toPrint {
		fmt.Fprintf(s.out, "%s:\n", p.label)
		if err := writeBuffer(s.out, p.data, p.typ); err != nil {
			return fail(s, "run", err)
		}
	}
	return exitOK
}

func looksLikeAmber(data []byte) bool {
	for _, kw := range []string{"#!amber", "SHADER ", "PIPELINE ", "BUFFER ", "[compute shader", "[test]", "[require]"} {
		if bytes.Contains(data, []byte(kw)) {
			return true
		}
	}
	return false
}

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

// kernelArg reads the --arg value spec for a parameter described by info,
// checking first that its form fits the parameter: a by-value scalar takes
// TYPE:VALUE of its size (a bare 100 is refused, not opened as a file
// named "100"); a pointer takes FILE, FILE:SIZE, or local:SIZE for
// Workgroup memory.
func kernelArg(info interp.ArgInfo, spec string) (interp.KernelArg, string, error) {
	t, v, typed := strings.Cut(spec, ":")
	bits, w, isScalar := parseTyped(t, v)
	switch {
	case !info.Pointer && !typed || !info.Pointer && !isScalar:
		return interp.KernelArg{}, "", fmt.Errorf("the parameter is a %d-byte value: give TYPE:VALUE, such as u32:100, i32:-1 or f32:0.5", info.Size)
	case !info.Pointer && w/8 != info.Size:
		return interp.KernelArg{}, "", fmt.Errorf("the parameter is a %d-byte value, %s is %d bytes", info.Size, t, w/8)
	case !info.Pointer:
		return interp.KernelArg{Kind: interp.ArgScalar, Scalar: bits}, "", nil
	case isScalar:
		return interp.KernelArg{}, "", errors.New("the parameter is a pointer: give FILE, FILE:SIZE (SIZE zero bytes, written to FILE after the run) or local:SIZE")
	case t == "local" && typed && info.Storage != spirv.StorageClassWorkgroup:
		return interp.KernelArg{}, "", errors.New("local:SIZE is for a Workgroup (__local) pointer; this one is not")
	}
	ka, file, err := parseKernelArg(spec)
	if err == nil && info.Storage == spirv.StorageClassFunction && ka.Kind == interp.ArgGlobal {
		ka = interp.KernelArg{Kind: interp.ArgBytes, Bytes: ka.Global} // byval: the bytes are the value
	}
	return ka, file, err
}

// printJob is one --print, resolved before the dispatch: the buffer's
// memory (the run writes into it in place), its element type and label.
type printJob struct {
	label, typ string
	data       []byte
}

// resolvePrints checks every --print against the buffers given (kernel:
// the global-buffer arguments) and returns what to print after the run.
func resolvePrints(prints []string, kernel bool, argData map[int][]byte, res *interp.Resources) ([]printJob, error) {
	var out []printJob
	for _, p := range prints {
		parts := strings.Split(p, ":")
		j := printJob{label: p[:max(strings.LastIndex(p, ":"), 0)], typ: parts[len(parts)-1]}
		switch {
		case kernel && len(parts) == 2:
			n, err := strconv.Atoi(parts[0])
			if err != nil || argData[n] == nil {
				return nil, fmt.Errorf("--print %q: argument %s is not a buffer given with --arg %s=FILE[:SIZE]", p, parts[0], parts[0])
			}
			j.data = argData[n]
		case !kernel && len(parts) == 3:
			set, err1 := strconv.ParseUint(parts[0], 10, 32)
			bind, err2 := strconv.ParseUint(parts[1], 10, 32)
			bs := res.Buffers[interp.BindingKey{Set: uint32(set), Binding: uint32(bind)}]
			if err1 != nil || err2 != nil || len(bs) == 0 {
				return nil, fmt.Errorf("--print %q: no buffer at set %s, binding %s: give it with --buffer %s:%s=FILE[:SIZE]", p, parts[0], parts[1], parts[0], parts[1])
			}
			j.data = bs[0].Data
		default:
			return nil, fmt.Errorf("--print %q: want S:B:TYPE (Kernel: N:TYPE)", p)
		}
		if bufferTypeSizes[j.typ] == 0 {
			return nil, fmt.Errorf("--print %q: unknown type %q (want u8..u64, i8..i64, f16, f32, f64 or hex)", p, j.typ)
		}
		out = append(out, j)
	}
	return out, nil
}

// parseKernelArg reads FILE, FILE:SIZE, TYPE:VALUE or local:SIZE; it
// returns the file to write back for buffers.
func parseKernelArg(v string) (interp.KernelArg, string, error) {
	a, b, hasColon := strings.Cut(v, ":")
	if hasColon && a == "local" {
		n, err := strconv.ParseUint(b, 0, 31)
		if err != nil {
			return interp.KernelArg{}, "", errors.New("bad local size")
		}
		return interp.KernelArg{Kind: interp.ArgLocal, LocalSize: int(n)}, "", nil
	}
	if hasColon {
		if bits, w, ok := parseTyped(a, b); ok {
			_ = w
			return interp.KernelArg{Kind: interp.ArgScalar, Scalar: bits}, "", nil
		}
		if i := strings.LastIndex(v, ":"); i > 0 {
			if n, err := strconv.ParseUint(v[i+1:], 0, 31); err == nil {
				return interp.KernelArg{Kind: interp.ArgGlobal, Global: make([]byte, n)}, v[:i], nil
			}
		}
	}
	d, err := boundedread.ReadAny(v, maxInput)
	if err != nil {
		return interp.KernelArg{}, "", err
	}
	return interp.KernelArg{Kind: interp.ArgGlobal, Global: d}, v, nil
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

func boolBit(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

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

// bufferTypeSizes are the element types --print knows, with their sizes.
var bufferTypeSizes = map[string]int{"u8": 1, "i8": 1, "u16": 2, "i16": 2, "f16": 2, "u32": 4, "i32": 4, "f32": 4, "u64": 8, "i64": 8, "f64": 8, "hex": 1}

// writeBuffer prints a buffer to w as typed values, eight per line
// (sixteen for hex), each line labelled with the element index of its
// first value. It streams through a small buffer: the text of a
// 200 MB buffer is 2.7 GB, which building as one string held in memory.
func writeBuffer(w io.Writer, d []byte, typ string) error {
	size := bufferTypeSizes[typ]
	if size == 0 {
		return fmt.Errorf("unknown type %q", typ)
	}
	per := 8
	if typ == "hex" {
		per = 16
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	var line []byte
	k := 0
	for i := 0; i+size <= len(d); i, k = i+size, k+1 {
		if k%per == 0 {
			line = fmt.Appendf(line[:0], "  %6d:", k)
		}
		var v uint64
		for j := size - 1; j >= 0; j-- {
			v = v<<8 | uint64(d[i+j])
		}
		line = appendValue(append(line, ' '), typ, size, v)
		if k%per == per-1 {
			if _, err := bw.Write(append(line, '\n')); err != nil {
				return err
			}
			line = line[:0]
		}
	}
	if len(line) > 0 {
		bw.Write(append(line, '\n'))
	}
	return bw.Flush()
}

// appendValue appends the element v of typ (size bytes) as text.
func appendValue(b []byte, typ string, size int, v uint64) []byte {
	switch typ {
	case "hex":
		return fmt.Appendf(b, "%02x", v)
	case "u8", "u16", "u32", "u64":
		return strconv.AppendUint(b, v, 10)
	case "i8", "i16", "i32", "i64":
		sh := 64 - 8*size
		return strconv.AppendInt(b, int64(v<<sh)>>sh, 10)
	case "f16":
		return append(b, formatValue(float64(mx.HalfToFloat32(uint16(v))))...)
	case "f32":
		return append(b, formatValue(float64(math.Float32frombits(uint32(v))))...)
	}
	return append(b, formatValue(math.Float64frombits(v))...)
}
