package amber

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"spvx/spirv"
	"spvx/val"
)

// Status is a script's outcome.
type Status uint8

// Outcomes, as amber reports them.
const (
	Pass Status = iota
	Fail
	SkipStatus
)

func (s Status) String() string {
	switch s {
	case Fail:
		return "FAIL"
	case SkipStatus:
		return "SKIP"
	}
	return "PASS"
}

// Result is the outcome of one script.
type Result struct {
	Path    string
	Status  Status
	Reason  string        // why it failed or was skipped; for an expect_fail pass, the expected failure
	Failure *Failure      // the first failed EXPECT, if that is why it failed
	Missing []string      // for SKIP: what the device lacks
	Elapsed time.Duration // wall time of the whole script
	// ExpectFail marks a *.expect_fail.* script: it passes when it fails
	// after parsing (an EXPECT or a RUN), as amber's tests/run_tests.py has it.
	ExpectFail bool
	// Timed holds the durations of RUN TIMED_EXECUTION dispatches.
	Timed []time.Duration
	// Notes are what the parser and runner ignored (VkScript framebuffer
	// lines, SHADER_OPTIMIZATION without spirv-opt).
	Notes []string
	// Extractions are the buffers Options.Extract named, in its order.
	Extractions []Extraction
}

// Options configure a run.
type Options struct {
	Engine  Engine
	Device  *Device // nil: DefaultDevice()
	Compile CompileOptions
	// Log, if non-nil, receives every command as it runs (spvx run -v),
	// as "FILE:LINE: COMMAND".
	Log io.Writer
	// SpirvOpt is the spirv-opt to run SHADER_OPTIMIZATION passes with;
	// empty looks on PATH, and without one the passes are skipped with a
	// note (the executor runs the unoptimized module).
	SpirvOpt string
	Parse    ParseOptions
	// NoValidate skips validating each compiled shader with spvx's
	// validator (package val), which amber does with SPIRV-Tools.
	NoValidate bool
	// Budget bounds the buffer bytes of all scripts running at once; nil
	// shares one process-wide budget of 1 GiB.
	Budget *Budget
	// Timeout bounds each script RunFile (and so RunAll) runs, from its
	// parse to its last command; 0 is no limit. A script past it fails
	// with "timed out after D", an expect_fail one too (it never reached
	// the failure it expects).
	Timeout time.Duration
	// CompileOnly stops each script after its pipelines' shaders are
	// compiled (and validated, unless NoValidate): no buffer is made and
	// no command runs. A script that gets that far passes.
	CompileOnly bool
	// Extract names buffers to copy into Result.Extractions when the
	// script ends, pass or fail, as amber's Options::extractions.
	Extract []BufferID
}

// IsExpectFail reports whether a script path marks an expected failure
// (amber's tests/run_tests.py: a name containing ".expect_fail.").
func IsExpectFail(path string) bool {
	return strings.Contains(filepath.Base(path), ".expect_fail.")
}

// RunFile parses and runs one script, within opt.Timeout.
func RunFile(ctx context.Context, path string, opt Options) Result {
	if opt.Timeout <= 0 {
		return runFile(ctx, path, opt)
	}
	c, cancel := context.WithTimeout(ctx, opt.Timeout)
	defer cancel()
	r := runFile(c, path, opt)
	stopped := r.Status == Fail || (r.ExpectFail && r.Status == Pass)
	if stopped && ctx.Err() == nil && errors.Is(c.Err(), context.DeadlineExceeded) {
		r.Status = Fail
		r.Reason = fmt.Sprintf("timed out after %v: %s", opt.Timeout, r.Reason)
	}
	return r
}

func runFile(ctx context.Context, path string, opt Options) Result {
	start := time.Now()
	src, err := readLimited(path)
	var s *Script
	if err == nil {
		po := opt.Parse
		po.budget, po.ctx = runBudget(opt), ctx
		s, err = Parse(path, src, po)
	} else {
		err = &Error{File: path, Msg: unwrapPathError(err).Error()}
	}
	if err != nil {
		r := Result{Path: path, Status: Fail, Reason: err.Error(), ExpectFail: IsExpectFail(path)}
		var pe *Error
		if errors.As(err, &pe) && pe.Unsupported {
			r.Status = SkipStatus
		}
		r.Elapsed = time.Since(start)
		return r
	}
	// The script was parsed for this run alone: its buffers are used in
	// place rather than copied, which doubled a large buffer's memory.
	r := run(ctx, s, opt, true)
	if s.heldBy != nil {
		// The run ended before it took the parse's reservation (a SKIP).
		s.heldBy.release(s.held)
	}
	r.Elapsed = time.Since(start)
	return r
}

// Requirements lists everything a script needs from the device: its own
// declarations and those the CTS adds for its folder (CTSRules).
func Requirements(s *Script) []Requirement {
	reqs := append([]Requirement(nil), s.Requires...)
	for _, r := range ctsRules(s.Path) {
		reqs = append(reqs, r.Requires...)
	}
	return reqs
}

// Unsupported names what a parsed script needs that the device lacks:
// features and extensions, SUBGROUP sizes out of range, and shaders that
// cannot be compiled here (no glslangValidator, OPENCL-C).
func Unsupported(s *Script, dev *Device) []string {
	if dev == nil {
		dev = DefaultDevice()
	}
	out := dev.Missing(Requirements(s))
	for _, pl := range s.Pipelines {
		for _, a := range pl.Shaders {
			if n := a.RequiredSubgroupSize; n > 0 && (n < dev.MinSubgroupSize || n > dev.MaxSubgroupSize) {
				out = append(out, fmt.Sprintf("subgroup size %d", n))
			}
		}
	}
	for _, sh := range s.Shaders {
		switch sh.Format {
		case FormatGLSL, FormatHLSL:
			if _, err := GlslangPath(); err != nil {
				out = append(out, "glslangValidator (for "+sh.Format.String()+" shader "+sh.Name+")")
			}
		case FormatOpenCLC:
			out = append(out, "OPENCL-C shader "+sh.Name)
		}
	}
	return dedupe(out)
}

func dedupe(in []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range in {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// rtBuffer is a buffer's state while a script runs.
type rtBuffer struct {
	b        *Buffer
	format   *Format
	elements int
	data     []byte
}

// compiled is a pipeline shader ready to dispatch.
type compiled struct {
	module *spirv.Module
	binary []byte
	env    string
	cache  map[string]*any // per entry point
}

type runner struct {
	ctx     context.Context
	s       *Script
	opt     Options
	dev     *Device
	bufs    map[*Buffer]*rtBuffer
	shaders map[*Attachment]*compiled
	entry   map[*Pipeline]string // VkScript compute entrypoint
	push    map[*Pipeline][]byte // VkScript push constants
	res     *Result
	maxMem  int
	mem     int
	// budget is the shared budget, reserved the bytes the run holds:
	// the parsed buffers and everything the runner allocates.
	budget   *Budget
	reserved int
	inPlace  bool // the script is the run's own: use its buffers without copying
}

// Run runs a parsed script. The script is not changed: the runner works on
// copies of its buffers.
func Run(ctx context.Context, s *Script, opt Options) Result {
	return run(ctx, s, opt, false)
}

func run(ctx context.Context, s *Script, opt Options, inPlace bool) (res Result) {
	start := time.Now()
	res = Result{Path: s.Path, ExpectFail: IsExpectFail(s.Path)}
	defer func() { res.Elapsed = time.Since(start) }()
	dev := opt.Device
	if dev == nil {
		dev = DefaultDevice()
	}
	if miss := Unsupported(s, dev); len(miss) > 0 {
		res.Status, res.Missing = SkipStatus, miss
		res.Reason = "missing " + strings.Join(miss, ", ")
		res.Extractions = notRun(opt.Extract, res.Reason)
		return res
	}
	r := &runner{ctx: ctx, s: s, opt: opt, dev: dev, bufs: map[*Buffer]*rtBuffer{},
		shaders: map[*Attachment]*compiled{}, entry: map[*Pipeline]string{}, push: map[*Pipeline][]byte{}, res: &res,
		maxMem: opt.Parse.MaxBufferBytes, budget: opt.Budget, inPlace: inPlace}
	if r.maxMem <= 0 {
		r.maxMem = defaultMaxBufferBytes
	}
	r.budget = runBudget(opt)
	err := r.run()
	res.Extractions = r.extract()
	r.budget.release(r.reserved)
	res.Notes = s.Notes
	var f *Failure
	isExpect := errors.As(err, &f)
	switch {
	case err == nil && res.ExpectFail && !opt.CompileOnly:
		res.Status, res.Reason = Fail, "expected to fail (its name has .expect_fail.) but passed"
	case err == nil:
		res.Status = Pass
	case IsSkip(err):
		res.Status, res.Reason = SkipStatus, err.Error()
	case res.ExpectFail:
		// As amber's tests/run_tests.py: an expect_fail script that parsed
		// passes when it fails, at an EXPECT or at a RUN (an executor
		// fault, which is how the undefined cases of the extensions end).
		res.Status, res.Reason = Pass, "failed as expected: "+err.Error()
	default:
		res.Status, res.Reason = Fail, err.Error()
		if isExpect {
			res.Failure = f
		}
	}
	return res
}

// runBudget is the budget a run with opt reserves from.
func runBudget(opt Options) *Budget {
	if opt.Budget != nil {
		return opt.Budget
	}
	return processBudget
}

func (r *runner) logf(line int, format string, args ...any) {
	if r.opt.Log != nil {
		fmt.Fprintf(r.opt.Log, "%s:%d: %s\n", r.s.Path, line, fmt.Sprintf(format, args...))
	}
}

func (r *runner) run() error {
	// The shaders first: -p (CompileOnly) stops after them, before any
	// buffer is made.
	if err := r.compilePipelines(); err != nil || r.opt.CompileOnly {
		return err
	}
	if err := r.reserveBuffers(); err != nil {
		return err
	}
	for _, b := range r.s.Buffers {
		rb := &rtBuffer{b: b, format: b.Format, elements: b.Elements, data: b.Data}
		if !r.inPlace {
			rb.data = append([]byte(nil), b.Data...)
		}
		if r.s.Syntax == VkScript {
			// amber creates VkScript's device buffers, at their final size,
			// before any command runs: the larger of the last "ssbo B N"
			// and the end of the furthest subdata.
			n := max(b.Elements*b.Format.Stride, b.MaxSize)
			if err := r.grow(n, b.Line, b.Name); err != nil {
				return err
			}
			rb.data = make([]byte, n)
			rb.elements = 0
		}
		r.bufs[b] = rb
	}
	return r.commands(r.s.Commands)
}

// compilePipelines compiles (and validates) every pipeline's shaders.
func (r *runner) compilePipelines() error {
	for _, pl := range r.s.Pipelines {
		if pl.Kind != "compute" {
			return Skip("pipeline %s: %s pipelines are not supported by spvx", pl.Name, pl.Kind)
		}
		for _, a := range pl.Shaders {
			if err := r.compile(a); err != nil {
				return err
			}
		}
		if pl.PushConst != nil {
			r.push[pl] = nil
		}
	}
	return nil
}

func (r *runner) compile(a *Attachment) error {
	bin, env, err := CompileShader(r.ctx, a.Shader, r.s.Path, r.opt.Compile)
	if err != nil {
		return err
	}
	if len(a.Optimizations) > 0 {
		bin, err = r.optimize(a, bin, env)
		if err != nil {
			return err
		}
	}
	m, err := spirv.Decode(bin)
	if err != nil {
		return fmt.Errorf("%s:%d: shader %s: %v", r.s.Path, a.Shader.Line, a.Shader.Name, err)
	}
	if !r.opt.NoValidate {
		if err := validateShader(m, env); err != nil {
			return fmt.Errorf("%s:%d: shader %s fails validation: %v", r.s.Path, a.Shader.Line, a.Shader.Name, err)
		}
	}
	r.shaders[a] = &compiled{module: m, binary: bin, env: env, cache: map[string]*any{}}
	return nil
}

// optimize runs SHADER_OPTIMIZATION passes with spirv-opt when it is
// installed; otherwise the passes are skipped with a note, since they must
// not change what a correct shader computes.
func (r *runner) optimize(a *Attachment, bin []byte, env string) ([]byte, error) {
	tool := r.opt.SpirvOpt
	if tool == "" {
		tool, _ = exec.LookPath("spirv-opt")
	}
	if tool == "" {
		r.s.Notes = append(r.s.Notes, fmt.Sprintf("line %d: SHADER_OPTIMIZATION %s ignored (no spirv-opt on PATH)", a.Line, strings.Join(a.Optimizations, " ")))
		return bin, nil
	}
	dir, err := os.MkdirTemp("", "spvx-opt-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	in, out := filepath.Join(dir, "in.spv"), filepath.Join(dir, "out.spv")
	if err := os.WriteFile(in, bin, 0o600); err != nil {
		return nil, err
	}
	args := append([]string(nil), a.Optimizations...)
	if env != "" {
		args = append(args, "--target-env="+env)
	}
	args = append(args, in, "-o", out)
	msg, err := exec.CommandContext(r.ctx, tool, args...).CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("%s:%d: SHADER_OPTIMIZATION for shader %s: spirv-opt failed: %s", r.s.Path, a.Line, a.Shader.Name, strings.TrimSpace(string(msg)))
	}
	return readLimited(out)
}

func (r *runner) commands(cmds []Command) error {
	for _, c := range cmds {
		if err := r.ctx.Err(); err != nil {
			return deadlineErr(err)
		}
		if err := r.command(c); err != nil {
			return err
		}
	}
	return nil
}

// deadlineErr words a deadline met between commands as amber words one
// met in a dispatch (interpEngine.Run): its fence timed out.
func deadlineErr(err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("Vulkan::Calling vkWaitForFences Timeout (%w)", err)
	}
	return err
}

func (r *runner) command(c Command) error {
	switch c := c.(type) {
	case *RunCommand:
		return r.dispatch(c)
	case *ExpectCommand:
		r.logf(c.Line, "%s", c.Text)
		rb := r.bufs[c.Buffer]
		if f := probe(c, rb.data, r.s.Path); f != nil {
			return f
		}
	case *ProbeCommand:
		r.logf(c.Line, "%s", c.Text)
		if f := probeImage(c, r.bufs[c.Buffer].data, r.s.Path); f != nil {
			return f
		}
	case *CompareCommand:
		r.logf(c.Line, "%s", c.Text)
		if f := compare(c, r.bufs[c.A], r.bufs[c.B], r.s.Path); f != nil {
			return f
		}
	case *CopyCommand:
		r.logf(c.Line, "COPY %s TO %s", c.From.Name, c.To.Name)
		from, to := r.bufs[c.From], r.bufs[c.To]
		if more := len(from.data) - cap(to.data); more > 0 {
			if err := r.grow(more, c.Line, c.To.Name); err != nil {
				return err
			}
		}
		to.data = append(to.data[:0], from.data...)
		to.elements = from.elements
	case *RepeatCommand:
		r.logf(c.Line, "REPEAT %d", c.Count)
		for i := 0; i < c.Count; i++ {
			// also here: an empty body checks nothing
			if err := r.ctx.Err(); err != nil {
				return deadlineErr(err)
			}
			if err := r.commands(c.Commands); err != nil {
				return err
			}
		}
	case *BufferCommand:
		return r.bufferCommand(c)
	case *EntryPointCommand:
		r.logf(c.Line, "compute entrypoint %s", c.Entry)
		r.entry[c.Pipeline] = c.Entry
	case *ClearCommand:
		return Skip("%s:%d: CLEAR needs a graphics pipeline", r.s.Path, c.Line)
	}
	return nil
}

// bufferCommand applies a VkScript ssbo/uniform command as amber's
// Vulkan engine does (DoBuffer): a size resizes the buffer to that many
// elements of its final format; data is written at its offset, growing
// the buffer as needed.
func (r *runner) bufferCommand(c *BufferCommand) error {
	if c.Push {
		r.logf(c.Line, "uniform (push constants) at offset %d", c.Offset)
		pl := r.s.pipelines[vkPipelineName]
		f := c.Format
		end := c.Offset + len(c.Values)/f.Inputs()*f.Stride
		pc := r.push[pl]
		if len(pc) < end {
			pc = append(pc, make([]byte, end-len(pc))...)
		}
		writeValues(pc, f, c.Offset, c.Values)
		r.push[pl] = pc
		return nil
	}
	rb := r.bufs[c.Buffer]
	f := rb.format
	if c.Values == nil {
		r.logf(c.Line, "ssbo %s size %d", c.Buffer.Name, c.Size)
		rb.elements = c.Size
		return r.resize(rb, c.Size*f.Stride, c.Line)
	}
	r.logf(c.Line, "ssbo/uniform %s subdata at offset %d (%d values)", c.Buffer.Name, c.Offset, len(c.Values))
	in := f.Inputs()
	valueCount := c.Offset/f.Stride*in + len(c.Values)
	if n := valueCount / in; n > rb.elements {
		rb.elements = n
	}
	if err := r.resize(rb, rb.elements*f.Stride, c.Line); err != nil {
		return err
	}
	newSpace := len(c.Values) / in * f.Stride
	if c.Offset+newSpace <= len(rb.data) {
		clear(rb.data[c.Offset : c.Offset+newSpace])
	}
	writeValues(rb.data, f, c.Offset, c.Values)
	return nil
}

func (r *runner) resize(rb *rtBuffer, n, line int) error {
	if n <= len(rb.data) {
		// The device buffer keeps its largest size.
		return nil
	}
	if err := r.grow(n-len(rb.data), line, rb.b.Name); err != nil {
		return err
	}
	rb.data = append(rb.data, make([]byte, n-len(rb.data))...)
	return nil
}

// reserveBuffers reserves, before the run starts, the bytes the script's
// parsed buffers hold plus the runner's copies of them, waiting while
// other scripts hold the budget.
func (r *runner) reserveBuffers() error {
	n := 0
	for _, b := range r.s.Buffers {
		n += len(b.Data)
	}
	if !r.inPlace {
		n *= 2
	}
	if r.inPlace && r.s.heldBy == r.budget {
		// The parse reserved the buffers it made (and the values it
		// keeps): the run takes that reservation and releases it.
		n = max(n-r.s.held, 0)
		r.reserved += r.s.held
		r.s.held, r.s.heldBy = 0, nil
	}
	if err := r.budget.reserveWait(r.ctx, n); err != nil {
		return fmt.Errorf("%s: %w", r.s.Path, err)
	}
	r.reserved += n
	return nil
}

// grow accounts for n more bytes of buffer name (line: where it is
// declared or grows) against the script's limit and the shared budget.
func (r *runner) grow(n, line int, name string) error {
	if n > r.maxMem-r.mem {
		return fmt.Errorf("%s:%d: buffer %s too large (%d bytes)", r.s.Path, line, name, n)
	}
	if !r.budget.tryReserve(n) {
		return fmt.Errorf("%s:%d: buffer %s: %d more bytes would exceed the %d-byte budget of the scripts running at once", r.s.Path, line, name, n, r.budget.Limit())
	}
	r.mem += n
	r.reserved += n
	return nil
}

func (r *runner) dispatch(c *RunCommand) error {
	pl := c.Pipeline
	var a *Attachment
	for _, x := range pl.Shaders {
		if x.Shader.Stage == "compute" {
			a = x
		}
	}
	cs := r.shaders[a]
	job := &Job{Module: cs.module, Binary: cs.binary, Entry: a.Entry, TargetEnv: cs.env,
		SubgroupSize: r.dev.DefaultSubgroupSize, RequireFullSubgroups: a.FullSubgroups,
		VaryingSubgroupSize: a.VaryingSubgroupSize, Groups: c.Groups,
		Descriptors: map[DescriptorBinding]*Descriptor{}, Images: map[DescriptorBinding]*ImageDescriptor{}}
	if e, ok := r.entry[pl]; ok {
		job.Entry = e
	}
	if cs.cache[job.Entry] == nil {
		cs.cache[job.Entry] = new(any)
	}
	job.Cache = cs.cache[job.Entry]
	switch n := a.RequiredSubgroupSize; {
	case n > 0:
		job.SubgroupSize = n
	case n == -1:
		job.SubgroupSize = r.dev.MinSubgroupSize
	case n == -2:
		job.SubgroupSize = r.dev.MaxSubgroupSize
	}
	if len(a.Specializations) > 0 {
		job.SpecConstants = map[uint32]uint64{}
		for _, sp := range a.Specializations {
			job.SpecConstants[sp.ID] = sp.Value
		}
	}
	for _, bb := range pl.Bindings {
		if bb.Kind == BindPushConstant {
			if r.s.Syntax == AmberScript {
				job.PushConstants = r.bufs[bb.Buffers[0]].data
			}
			continue
		}
		if bb.Kind.IsImage() {
			d, err := r.imageDescriptor(bb)
			if err != nil {
				return err
			}
			job.Images[DescriptorBinding{bb.Set, bb.Binding}] = d
			continue
		}
		d := &Descriptor{Kind: bb.Kind}
		for i, b := range bb.Buffers {
			data := r.bufs[b].data
			off, carry := bits.Add64(bb.DynamicOffsets[i], bb.DescriptorOffsets[i], 0)
			if carry != 0 {
				return fmt.Errorf("%s:%d: BIND %s: OFFSET %d plus DESCRIPTOR_OFFSET %d overflows", r.s.Path, bb.Line, b.Name, bb.DynamicOffsets[i], bb.DescriptorOffsets[i])
			}
			if off > uint64(len(data)) {
				return fmt.Errorf("%s:%d: BIND %s: offset %d is beyond the end of buffer %s (%d bytes)", r.s.Path, bb.Line, b.Name, off, b.Name, len(data))
			}
			end := uint64(len(data))
			if rng := bb.DescriptorRanges[i]; rng >= 0 {
				if off+uint64(rng) > end {
					return fmt.Errorf("%s:%d: BIND %s: DESCRIPTOR_RANGE %d at offset %d exceeds buffer %s (%d bytes)", r.s.Path, bb.Line, b.Name, rng, off, b.Name, len(data))
				}
				end = off + uint64(rng)
			}
			d.Views = append(d.Views, data[off:end:end])
		}
		job.Descriptors[DescriptorBinding{bb.Set, bb.Binding}] = d
	}
	if r.s.Syntax == VkScript {
		job.PushConstants = r.push[pl]
	}
	r.logf(c.Line, "RUN %s %d %d %d (entry %s, subgroup size %d)", pl.Name, c.Groups[0], c.Groups[1], c.Groups[2], job.Entry, job.SubgroupSize)
	if r.opt.Engine == nil {
		return Skip("no executor: spvx was built without one")
	}
	t0 := time.Now()
	err := r.opt.Engine.Run(r.ctx, job)
	if err != nil {
		r.releaseLevels(job, false)
	}
	if c.Timed {
		d := time.Since(t0)
		r.res.Timed = append(r.res.Timed, d)
		r.logf(c.Line, "TIMED_EXECUTION %s: %v", pl.Name, d)
	}
	if err != nil {
		if IsSkip(err) {
			return Skip("%s:%d: RUN %s: %v", r.s.Path, c.Line, pl.Name, err)
		}
		return fmt.Errorf("%s:%d: RUN %s: %w", r.s.Path, c.Line, pl.Name, err)
	}
	r.releaseLevels(job, true)
	return nil
}

// validateShader validates a compiled shader for its target environment
// (vulkan1.0 when the script names none, amber's default), as amber does
// with SPIRV-Tools before it creates the pipeline. Only the first error is
// reported.
func validateShader(m *spirv.Module, env string) error {
	if env == "" {
		env = "vulkan1.0"
	}
	e, err := val.ParseEnv(env)
	if err != nil {
		return err
	}
	err = val.Validate(m, val.Options{Env: e})
	var list val.ErrorList
	if errors.As(err, &list) && len(list) > 0 {
		return list[0]
	}
	return err
}
