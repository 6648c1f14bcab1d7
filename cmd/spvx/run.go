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
	"spvx/internal/entryinfo"
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

// runKernel is spvx run in kernel mode: one module's compute entry point
// on the executor. Everything the flags give is checked before the
// dispatch, so a typo does not cost a long run.
func runKernel(fs *cmdFlags, k *kernelFlags, timeout time.Duration, name string) int {
	s := fs.s
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
		return listArgs(s, m, name, *k.entry)
	}
	opts, err := k.options(s)
	if err != nil {
		return fs.usageErr(err.Error())
	}
	prog, err := interp.Compile(m, *k.entry, opts)
	if err != nil {
		return fail(s, "run", fmt.Errorf("%s: %w", name, err))
	}
	kr := &kernelRun{prog: prog, kernel: prog.ExecutionModel() == spirv.ExecutionModelKernel, entry: describeEntry(m, *k.entry),
		res: &interp.Resources{Buffers: map[interp.BindingKey][]*interp.Buffer{}}, argData: map[int][]byte{}}
	if code, ok := kr.bind(fs, k); !ok {
		return code
	}
	toPrint, err := resolvePrints(k.prints, kr.kernel, kr.argData, kr.res)
	if err != nil {
		return fs.usageErr(err.Error())
	}
	dispatch, err := kr.dispatcher(k)
	if err != nil {
		return fs.usageErr(err.Error())
	}
	ctx, cancel := runContext(timeout)
	defer cancel()
	if err := dispatch(ctx); err != nil {
		return fail(s, "run", timedOut(ctx, timeout, err))
	}
	return kr.finish(s, toPrint)
}

// parseCoopMatLayout reads --coopmat-layout.
func parseCoopMatLayout(name string) (interp.CoopMatLayout, error) {
	switch name {
	case "linear":
		return interp.CoopMatLinear, nil
	case "shuffle":
		return interp.CoopMatShuffle, nil
	}
	return 0, fmt.Errorf("--coopmat-layout: want linear or shuffle, not %q", name)
}

// options are the executor's options from the flags.
func (k *kernelFlags) options(s stdio) (interp.Options, error) {
	opts := interp.Options{SubgroupSize: *k.sgSize, MaxSteps: *k.maxSteps, Shuffle: *k.shuffle, Seed: *k.seed,
		Strict: *k.strict, SeparateSubgroups: *k.separate, RobustImageAccess: *k.robustImages, SpecConstants: map[uint32]uint64{}}
	if *k.trace {
		opts.Trace = s.err
	}
	switch *k.matrixAccumulate {
	case "ordered":
		opts.MatrixAccumulate = interp.MatrixOrdered
	case "exact":
		opts.MatrixAccumulate = interp.MatrixExact
	default:
		return opts, fmt.Errorf("--matrix-accumulate: want ordered or exact, not %q", *k.matrixAccumulate)
	}
	layout, err := parseCoopMatLayout(*k.coopMatLayout)
	if err != nil {
		return opts, err
	}
	opts.CoopMatLayout = layout
	for _, sp := range k.specs {
		id, bits, err := parseSpecFlag(sp)
		if err != nil {
			return opts, err
		}
		opts.SpecConstants[id] = bits
	}
	return opts, nil
}

// kernelRun is a kernel-mode run being put together: the program, the
// resources the flags give it, and what to write after the dispatch.
type kernelRun struct {
	prog    *interp.Program
	kernel  bool             // a Kernel (--arg), not a GLCompute shader (--buffer)
	entry   *entryinfo.Entry // what it uses, as --list-args lists it; nil if unknown
	res     *interp.Resources
	argData map[int][]byte // Kernel: the global buffers, by argument
	outs    []outFile
}

// outFile is a buffer written back to its file after the run.
type outFile struct {
	name string
	data []byte
}

// bind reads --push and the Kernel's --arg or the shader's --buffer
// values into the resources, and checks that every argument or binding
// the entry point uses is given.
func (kr *kernelRun) bind(fs *cmdFlags, k *kernelFlags) (code int, ok bool) {
	var err error
	if *k.push != "" {
		if kr.res.PushConstants, err = boundedread.ReadAny(*k.push, maxInput); err != nil {
			return fail(fs.s, "run", err), false
		}
	}
	if kr.kernel {
		if len(k.buffers) > 0 || len(k.images) > 0 || len(k.samplers) > 0 {
			return fs.usageErr("a Kernel takes --arg, not --buffer or --image"), false
		}
		return kr.bindArgs(fs, k.args)
	}
	if len(k.args) > 0 {
		return fs.usageErr("a GLCompute shader takes --buffer, not --arg"), false
	}
	if code, ok := kr.bindImages(fs, k.images); !ok {
		return code, false
	}
	if code, ok := kr.bindSamplers(fs, k.samplers); !ok {
		return code, false
	}
	return kr.bindBuffers(fs, k.buffers)
}

// bindArgs sets the Kernel's arguments from the --arg values.
func (kr *kernelRun) bindArgs(fs *cmdFlags, args []string) (code int, ok bool) {
	n := kr.prog.NumArgs()
	kr.res.Args = make([]interp.KernelArg, n)
	seen := make([]bool, n)
	for _, a := range args {
		i, spec, err := parseArgFlag(a, n)
		if err != nil {
			return fs.usageErr(err.Error()), false
		}
		ka, file, err := kernelArg(kr.prog.Args()[i], spec)
		if err != nil {
			return fs.usageErr(fmt.Sprintf("--arg %q: %v", a, err)), false
		}
		kr.res.Args[i], seen[i] = ka, true
		if ka.Kind == interp.ArgGlobal {
			kr.argData[i] = ka.Global
			if file != "" {
				kr.outs = append(kr.outs, outFile{file, ka.Global})
			}
		}
	}
	for i, ok := range seen {
		if !ok {
			return fs.usageErr(fmt.Sprintf("kernel argument %d is not given (--arg %d=...)", i, i)), false
		}
	}
	return 0, true
}

// bindBuffers binds the --buffer values and checks that every descriptor
// the entry point uses has one.
func (kr *kernelRun) bindBuffers(fs *cmdFlags, buffers []string) (code int, ok bool) {
	for _, b := range buffers {
		key, file, size, err := parseBufferFlag(b)
		if err != nil {
			return fs.usageErr(fmt.Sprintf("--buffer %q: %v", b, err)), false
		}
		var d []byte
		if size >= 0 {
			d = make([]byte, size)
		} else if d, err = boundedread.ReadAny(file, maxInput); err != nil {
			return fail(fs.s, "run", err), false
		}
		kr.res.Buffers[key] = append(kr.res.Buffers[key], &interp.Buffer{Data: d})
		kr.outs = append(kr.outs, outFile{file, d})
	}
	if msg := kr.missing(); msg != "" {
		return fs.usageErr(msg), false
	}
	return 0, true
}

// bindImages binds the --image values: the file's texels, or zeros
// when it does not exist.
func (kr *kernelRun) bindImages(fs *cmdFlags, images []string) (code int, ok bool) {
	kr.res.Images = map[interp.BindingKey][]*interp.Image{}
	for _, v := range images {
		key, file, img, err := parseImageFlag(v)
		if err == nil {
			img.Data, err = imageData(file, img)
		}
		if err != nil {
			return fs.usageErr(fmt.Sprintf("--image %q: %v", v, err)), false
		}
		kr.res.Images[key] = append(kr.res.Images[key], img)
		kr.outs = append(kr.outs, outFile{file, img.Data})
	}
	return 0, true
}

// bindSamplers binds the --sampler values.
func (kr *kernelRun) bindSamplers(fs *cmdFlags, samplers []string) (code int, ok bool) {
	kr.res.Samplers = map[interp.BindingKey][]*interp.Sampler{}
	for _, v := range samplers {
		key, sm, err := parseSamplerFlag(v)
		if err != nil {
			return fs.usageErr(fmt.Sprintf("--sampler %q: %v", v, err)), false
		}
		kr.res.Samplers[key] = append(kr.res.Samplers[key], sm)
	}
	return 0, true
}

// imageData reads an image's texels from file, or makes zeros for a
// file that does not exist.
func imageData(file string, img *interp.Image) ([]byte, error) {
	n, err := img.DataSize()
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(file); errors.Is(err, os.ErrNotExist) {
		if n > maxInput {
			return nil, fmt.Errorf("%d bytes of texels are more than the %d a run takes", n, maxInput)
		}
		return make([]byte, n), nil
	}
	d, err := boundedread.ReadAny(file, maxInput)
	if err == nil && len(d) < n {
		err = fmt.Errorf("%s holds %d bytes, the image's texels take %d", file, len(d), n)
	}
	return d, err
}

// missing names the first buffer or push-constant block the shader uses
// that the flags do not give, with the flag that gives it, or "".
func (kr *kernelRun) missing() string {
	if kr.entry == nil {
		return ""
	}
	for _, b := range kr.entry.Bindings {
		key := interp.BindingKey{Set: b.Set, Binding: b.Binding}
		if hasSampler(b.Descriptor) && len(kr.res.Samplers[key]) == 0 {
			return fmt.Sprintf("binding %d:%d (%s, %s) is not given: --sampler %d:%d=KEY=VALUE,... (--list-args lists them)",
				b.Set, b.Binding, orID(b.Name, b.ID), b.Descriptor, b.Set, b.Binding)
		}
		if isImageDescriptor(b.Descriptor) {
			if len(kr.res.Images[key]) == 0 {
				return fmt.Sprintf("binding %d:%d (%s, %s) is not given: --image %d:%d=FILE:FORMAT:WxHxD (--list-args lists them)",
					b.Set, b.Binding, orID(b.Name, b.ID), b.Descriptor, b.Set, b.Binding)
			}
			continue
		}
		if strings.HasSuffix(b.Descriptor, "buffer") && len(kr.res.Buffers[key]) == 0 {
			return fmt.Sprintf("binding %d:%d (%s, %s of %s) is not given: --buffer %d:%d=FILE[:SIZE] (--list-args lists them)",
				b.Set, b.Binding, orID(b.Name, b.ID), b.Descriptor, b.Size, b.Set, b.Binding)
		}
	}
	if p := kr.entry.Push; p != nil && kr.res.PushConstants == nil {
		return fmt.Sprintf("the push constants (%s, %s) are not given: --push FILE (--list-args lists them)", orID(p.Name, p.ID), p.Size)
	}
	return ""
}

// describeEntry describes the compute entry point spvx run runs: the one
// named, else the first GLCompute or Kernel one.
func describeEntry(m *spirv.Module, name string) *entryinfo.Entry {
	es, err := entryinfo.Describe(m)
	if err != nil {
		return nil
	}
	for i := range es {
		e := &es[i]
		compute := e.Model == spirv.ExecutionModelKernel || e.Model == spirv.ExecutionModelGLCompute
		if compute && (name == "" || e.Name == name) {
			return e
		}
	}
	return nil
}

// dispatcher checks the sizes the flags give and returns the dispatch.
func (kr *kernelRun) dispatcher(k *kernelFlags) (func(context.Context) error, error) {
	if !kr.kernel {
		g, err := parseDims(*k.groups, 1)
		if err != nil {
			return nil, fmt.Errorf("--groups: %v", err)
		}
		return func(ctx context.Context) error { return kr.prog.Dispatch(ctx, g[0], g[1], g[2], kr.res) }, nil
	}
	g, err := parseDims(*k.global, 0)
	if err != nil || *k.global == "" {
		return nil, errors.New("a Kernel needs --global X[,Y[,Z]]")
	}
	var l [3]uint32
	if *k.local != "" {
		if l, err = parseDims(*k.local, 1); err != nil {
			return nil, fmt.Errorf("--local: %v", err)
		}
	}
	if *k.offset != "" {
		if kr.res.GlobalOffset, err = parseDims(*k.offset, 0); err != nil {
			return nil, fmt.Errorf("--offset: %v", err)
		}
	}
	return func(ctx context.Context) error { return kr.prog.DispatchND(ctx, g, l, kr.res) }, nil
}

// finish writes the buffers back to their files and prints the --print
// ones.
func (kr *kernelRun) finish(s stdio, toPrint []printJob) int {
	for _, o := range kr.outs {
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
	ka, file, err := loadKernelArg(spec)
	if err == nil && info.Storage == spirv.StorageClassFunction && ka.Kind == interp.ArgGlobal {
		ka = interp.KernelArg{Kind: interp.ArgBytes, Bytes: ka.Global} // byval: the bytes are the value
	}
	return ka, file, err
}

// loadKernelArg reads an --arg value, and for FILE the file's bytes.
func loadKernelArg(v string) (interp.KernelArg, string, error) {
	ka, file, read, err := parseArgValue(v)
	if err == nil && read {
		ka.Global, err = boundedread.ReadAny(file, maxInput)
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
		f, err := parsePrintFlag(p, kernel)
		if err != nil {
			return nil, err
		}
		j := printJob{label: f.label, typ: f.typ}
		if kernel {
			if j.data = argData[f.arg]; j.data == nil {
				return nil, fmt.Errorf("--print %q: argument %d is not a buffer given with --arg %d=FILE[:SIZE]", p, f.arg, f.arg)
			}
		} else {
			bs, is := res.Buffers[f.key], res.Images[f.key]
			switch {
			case len(bs) > 0:
				j.data = bs[0].Data
			case len(is) > 0:
				j.data = is[0].Data
			default:
				return nil, fmt.Errorf("--print %q: no buffer at set %d, binding %d: give it with --buffer %d:%d=FILE[:SIZE]", p, f.key.Set, f.key.Binding, f.key.Set, f.key.Binding)
			}
		}
		out = append(out, j)
	}
	return out, nil
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

// isImageDescriptor reports whether a descriptor (entryinfo's wording)
// takes --image.
func isImageDescriptor(d string) bool {
	return d == "storage image" || d == "storage texel buffer" || d == "uniform texel buffer" || d == "sampled image" || d == "combined image sampler"
}

// hasSampler reports whether a descriptor takes --sampler.
func hasSampler(d string) bool { return d == "sampler" || d == "combined image sampler" }
