package amber

import (
	"context"
	"errors"
	"io/fs"
	"math"
	"strconv"
	"strings"
	"unsafe"

	"spvx/internal/checked"
)

// amberParser reads AmberScript, following amber's
// src/amberscript/parser.cc: its commands, its order of checks and its
// messages.
type amberParser struct {
	s        *Script
	z        *tokenizer
	opt      ParseOptions
	cmds     *[]Command
	bufBytes int
	held     int // bytes reserved from opt.budget
	structs  map[string]*StructDef
	vfiles   map[string]string // VIRTUAL_FILE path -> contents
}

func (p *amberParser) parse() error {
	top := []Command{}
	p.cmds = &top
	for {
		t := p.z.next()
		if t.kind == tokEOS {
			break
		}
		if t.kind == tokEOL {
			continue
		}
		if t.kind != tokIdent {
			return fileError(p.s.Path, errAt(t.line, "expected identifier: %s", t.show()))
		}
		if err := p.command(t); err != nil {
			return fileError(p.s.Path, err)
		}
	}
	p.s.Commands = top
	for _, pl := range p.s.Pipelines {
		if err := validatePipeline(pl); err != nil {
			return fileError(p.s.Path, err)
		}
	}
	return nil
}

func validatePipeline(pl *Pipeline) error {
	if pl.Kind != "compute" {
		return nil
	}
	n := 0
	for _, a := range pl.Shaders {
		if a.Shader.Stage == "compute" {
			n++
		}
	}
	if n == 0 {
		return errAt(pl.Line, "compute pipeline requires a compute shader")
	}
	return nil
}

func isRepeatable(s string) bool {
	switch s {
	case "CLEAR", "CLEAR_COLOR", "CLEAR_DEPTH", "CLEAR_STENCIL", "COPY", "EXPECT", "RUN":
		return true
	}
	return false
}

func (p *amberParser) command(t token) error {
	if isRepeatable(t.text) {
		return p.repeatable(t)
	}
	switch t.text {
	case "BUFFER":
		return p.buffer(t)
	case "DEVICE_FEATURE":
		return p.require(t, "feature", "missing feature name for DEVICE_FEATURE command",
			"invalid feature name for DEVICE_FEATURE command")
	case "DEVICE_EXTENSION":
		return p.require(t, "extension", "DEVICE_EXTENSION missing name", "DEVICE_EXTENSION invalid name: ")
	case "INSTANCE_EXTENSION":
		return p.require(t, "instance extension", "INSTANCE_EXTENSION missing name", "INSTANCE_EXTENSION invalid name: ")
	case "DEVICE_PROPERTY":
		return p.require(t, "property", "missing property name for DEVICE_PROPERTY command",
			"invalid property name for DEVICE_PROPERTY command")
	case "PIPELINE":
		return p.pipeline(t)
	case "DERIVE_PIPELINE":
		return p.derivePipeline(t)
	case "REPEAT":
		return p.repeat(t)
	case "SET":
		return p.set(t)
	case "SHADER":
		return p.shader(t)
	case "STRUCT":
		return p.structDecl(t)
	case "VIRTUAL_FILE":
		return p.virtualFile(t)
	case "IMAGE":
		return p.image(t)
	case "SAMPLER":
		return p.sampler(t)
	case "ACCELERATION_STRUCTURE":
		return unsupAt(t.line, "%s is not supported by spvx (compute buffers only)", t.text)
	}
	return errAt(t.line, "unknown token: %s", t.text)
}

// endOfStatement checks that nothing follows a command on its line.
func (p *amberParser) endOfStatement(name string) error {
	t := p.z.next()
	if t.isEnd() {
		return nil
	}
	return errAt(t.line, "extra parameters after %s: %s", name, t.text)
}

func (p *amberParser) require(cmd token, kind, missing, invalid string) error {
	t := p.z.next()
	if t.isEnd() {
		return errAt(t.line, "%s", missing)
	}
	if t.kind != tokIdent {
		if strings.HasSuffix(invalid, ": ") {
			return errAt(t.line, "%s%s", invalid, t.text)
		}
		return errAt(t.line, "%s", invalid)
	}
	switch kind {
	case "feature":
		if !knownFeature(t.text) {
			return errAt(t.line, "unknown feature name for DEVICE_FEATURE command: %s", t.text)
		}
	case "property":
		if !knownProperty(t.text) {
			return errAt(t.line, "unknown property name for DEVICE_PROPERTY command: %s", t.text)
		}
	}
	p.s.Requires = append(p.s.Requires, Requirement{Kind: kind, Name: t.text, Line: t.line})
	return p.endOfStatement(cmd.text + " command")
}

func (p *amberParser) set(cmd token) error {
	t := p.z.next()
	if !t.isIdent("ENGINE_DATA") {
		return errAt(t.line, "SET missing ENGINE_DATA")
	}
	t = p.z.next()
	if t.isEnd() {
		return errAt(t.line, "SET missing variable to be set")
	}
	if t.kind != tokIdent {
		return errAt(t.line, "SET invalid variable to set: %s", t.text)
	}
	if t.text != "fence_timeout_ms" {
		return errAt(t.line, "SET unknown variable provided: %s", t.text)
	}
	v := p.z.next()
	if v.isEnd() {
		return errAt(v.line, "SET missing value for fence_timeout_ms")
	}
	ms, err := uintField(v, "SET invalid value for fence_timeout_ms, must be uint32")
	if err != nil {
		return err
	}
	p.s.EngineData["fence_timeout_ms"] = ms
	return p.endOfStatement("SET command")
}

var shaderStages = map[string]bool{
	"vertex": true, "fragment": true, "geometry": true, "tessellation_evaluation": true,
	"tessellation_control": true, "compute": true, "ray_generation": true, "any_hit": true,
	"closest_hit": true, "miss": true, "intersection": true, "callable": true, "multi": true,
}

var shaderFormats = map[string]ShaderFormat{
	"GLSL": FormatGLSL, "HLSL": FormatHLSL, "SPIRV-ASM": FormatSPIRVAsm,
	"SPIRV-HEX": FormatSPIRVHex, "SPIRV-BIN": FormatSPIRVBin, "OPENCL-C": FormatOpenCLC,
}

func (p *amberParser) shader(cmd token) error {
	t := p.z.next()
	if t.kind != tokIdent {
		return errAt(t.line, "invalid token when looking for shader type: %s", t.show())
	}
	if !shaderStages[t.text] {
		return errAt(t.line, "unknown shader type: %s", t.text)
	}
	sh := &Shader{Stage: t.text, Line: cmd.line}
	t = p.z.next()
	if t.kind != tokIdent {
		return errAt(t.line, "invalid token when looking for shader name: %s", t.show())
	}
	sh.Name = t.text
	t = p.z.next()
	if t.kind != tokIdent {
		return errAt(t.line, "invalid token when looking for shader format: %s", t.show())
	}
	if t.text == "PASSTHROUGH" {
		if sh.Stage != "vertex" {
			return errAt(t.line, "invalid shader type for PASSTHROUGH. Only vertex PASSTHROUGH allowed: %s", t.show())
		}
		sh.Format = FormatSPIRVAsm
		sh.TargetEnv = "spv1.0"
		if err := p.addShader(sh, cmd.line); err != nil {
			return err
		}
		return p.endOfStatement("SHADER PASSTHROUGH")
	}
	f, ok := shaderFormats[t.text]
	if !ok {
		return errAt(t.line, "unknown shader format: %s", t.text)
	}
	sh.Format = f
	if n := p.z.peek(); n.isIdent("TARGET_ENV") {
		p.z.next()
		e := p.z.next()
		if e.kind != tokIdent && e.kind != tokString {
			return errAt(e.line, "expected target environment after TARGET_ENV: %s", e.show())
		}
		sh.TargetEnv = e.text
	}
	if n := p.z.peek(); n.isIdent("VIRTUAL_FILE") || n.isIdent("FILE") {
		p.z.next()
		fn := p.z.next()
		if fn.kind != tokIdent && fn.kind != tokString {
			return errAt(fn.line, "expected file path after VIRTUAL_FILE or FILE: %s", fn.show())
		}
		if n.text == "VIRTUAL_FILE" {
			data, ok := p.vfiles[fn.text]
			if !ok {
				return errAt(fn.line, "virtual file %s not found", fn.text)
			}
			sh.Source = []byte(data)
		} else {
			data, err := p.opt.ReadFile(fn.text)
			if err != nil {
				return errAt(fn.line, "unable to read shader file %s: %v", fn.text, unwrapPathError(err))
			}
			sh.Source = data
			sh.File = fn.text
		}
		if err := p.addShader(sh, cmd.line); err != nil {
			return err
		}
		return p.endOfStatement("SHADER command")
	}
	if err := p.endOfStatement("SHADER command"); err != nil {
		return err
	}
	if sh.Format == FormatSPIRVBin {
		return errAt(cmd.line, "SPIRV-BIN shaders must be loaded with FILE")
	}
	body, found := p.z.extractTo("END")
	if body == "" {
		return errAt(p.z.line, "SHADER must not be empty")
	}
	if !found {
		return errAt(p.z.line, "SHADER missing END command")
	}
	end := p.z.next()
	if !end.isIdent("END") {
		return errAt(end.line, "SHADER missing END command")
	}
	sh.Source = []byte(body)
	if err := p.addShader(sh, cmd.line); err != nil {
		return err
	}
	return p.endOfStatement("END")
}

// unwrapPathError drops the path from a file error: the message names the
// file as the script wrote it.
func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func (p *amberParser) addShader(sh *Shader, line int) error {
	if _, dup := p.s.shaders[sh.Name]; dup {
		return errAt(line, "duplicate shader name provided")
	}
	p.s.shaders[sh.Name] = sh
	p.s.Shaders = append(p.s.Shaders, sh)
	return nil
}

// ---- BUFFER ----

func (p *amberParser) buffer(cmd token) error {
	t := p.z.next()
	if t.kind != tokIdent {
		return errAt(t.line, "invalid BUFFER name provided: %s", t.show())
	}
	name := t.text
	if name == "DATA_TYPE" || name == "FORMAT" {
		return errAt(t.line, "missing BUFFER name")
	}
	t = p.z.next()
	if t.kind != tokIdent {
		return errAt(t.line, "invalid BUFFER command provided: %s", t.show())
	}
	b := &Buffer{Name: name, Line: cmd.line}
	switch t.text {
	case "DATA_TYPE":
		if err := p.bufferInitializer(b); err != nil {
			return err
		}
	case "FORMAT":
		f := p.z.next()
		if f.kind != tokIdent {
			return errAt(f.line, "BUFFER FORMAT must be an identifier: %s", f.show())
		}
		ty := ParseType(f.text)
		if ty == nil {
			return errAt(f.line, "invalid BUFFER FORMAT: %s", f.show())
		}
		b.Format = NewFormat(ty, Std430)
		for {
			n := p.z.peek()
			if n.kind != tokIdent {
				break
			}
			switch n.text {
			case "MIP_LEVELS", "SAMPLES":
				p.z.next()
				v := p.z.next()
				msg := "invalid value for MIP_LEVELS"
				if n.text == "SAMPLES" {
					msg = "expected integer value for SAMPLES"
				}
				u, err := uintField(v, msg)
				if err != nil {
					return err
				}
				if n.text == "MIP_LEVELS" {
					b.Image.MipLevels = u
				} else if !validSamples(u) {
					return errAt(v.line, "invalid sample count: %s", v.show())
				} else {
					b.Image.Samples = u
				}
				continue
			case "FILE":
				p.z.next()
				if err := p.bufferFile(b); err != nil {
					return err
				}
				continue
			}
			break
		}
		if err := p.endOfStatement("BUFFER command"); err != nil {
			return err
		}
	default:
		return errAt(t.line, "unknown BUFFER command provided: %s", t.text)
	}
	if _, dup := p.s.buffers[name]; dup {
		return errAt(cmd.line, "duplicate buffer name provided")
	}
	p.s.buffers[name] = b
	p.s.Buffers = append(p.s.Buffers, b)
	return nil
}

// declare checks n more bytes of buffer against the script's limit; it
// allocates nothing (VkScript's sizes, allocated by the runner).
func (p *amberParser) declare(line, n int) error {
	if n < 0 || n > p.opt.MaxBufferBytes-p.bufBytes {
		return errAt(line, "BUFFER too large: the script's buffers would exceed %d bytes", p.opt.MaxBufferBytes)
	}
	p.bufBytes += n
	return nil
}

// alloc accounts for n bytes the parser is about to allocate: against the
// script's limit and, when the parse has one, the shared budget.
func (p *amberParser) alloc(line, n int) error {
	if err := p.declare(line, n); err != nil {
		return err
	}
	b := p.opt.budget
	if b == nil {
		return nil
	}
	if b.tryReserve(n) {
		p.held += n
		return nil
	}
	// Wait holding nothing, as a run's first reservation does, so that
	// parses and runs waiting on each other cannot deadlock.
	b.release(p.held)
	want := p.held + n
	p.held = 0
	ctx := p.opt.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	if err := b.reserveWait(ctx, want); err != nil {
		p.bufBytes -= n
		return errAt(line, "BUFFER too large: %v", err)
	}
	p.held = want
	return nil
}

// free returns n bytes alloc accounted for, once the parser has dropped
// them.
func (p *amberParser) free(n int) {
	p.bufBytes -= n
	if p.opt.budget != nil {
		p.opt.budget.release(n)
		p.held -= n
	}
}

// valueBytes is what one parsed Value occupies.
const valueBytes = int(unsafe.Sizeof(Value{}))

// countValue accounts for value number i of a list as append grows it:
// *counted is how many the list has accounted for so far, doubled (from
// 8) each time i reaches it, so a list costs one reservation per doubling
// and at most twice its size.
func (p *amberParser) countValue(line, i int, counted *int) error {
	if i < *counted {
		return nil
	}
	more := max(*counted, 8)
	if err := p.alloc(line, more*valueBytes); err != nil {
		return err
	}
	*counted += more
	return nil
}

// releaseHeld returns a failed parse's reservation.
func (p *amberParser) releaseHeld() {
	if p.opt.budget != nil {
		p.opt.budget.release(p.held)
		p.held = 0
	}
}

// handOver gives the parse's reservation to the script, for the run.
func (p *amberParser) handOver() {
	p.s.held, p.s.heldBy = p.held, p.opt.budget
}

func (p *amberParser) bufferInitializer(b *Buffer) error {
	t := p.z.next()
	if t.kind != tokIdent {
		return errAt(t.line, "BUFFER invalid data type: %s", t.show())
	}
	ty := p.lookupType(t.text)
	if ty == nil {
		return errAt(t.line, "invalid data type '%s' provided", t.text)
	}
	layout := Std430
	t = p.z.next()
	if t.kind != tokIdent {
		return errAt(t.line, "BUFFER missing initializer")
	}
	if t.text == "STD140" || t.text == "STD430" {
		if t.text == "STD140" {
			layout = Std140
		}
		t = p.z.next()
	}
	b.Format = NewFormat(ty, layout)
	if !b.Format.fits() {
		// An assert in amber's Format; every reader and writer here
		// relies on it.
		return errAt(t.line, "Struct has more members then fit within stride")
	}
	if t.kind != tokIdent {
		return errAt(t.line, "BUFFER missing initializer")
	}
	switch t.text {
	case "SIZE":
		return p.bufferSize(b)
	case "WIDTH":
		w := p.z.next()
		wv, err := uintField(w, "expected an integer for WIDTH")
		if err != nil {
			return err
		}
		if wv == 0 {
			return errAt(w.line, "expected WIDTH to be positive: %s", w.show())
		}
		h := p.z.next()
		if !h.isIdent("HEIGHT") {
			return errAt(h.line, "BUFFER HEIGHT missing")
		}
		h = p.z.next()
		hv, err := uintField(h, "expected an integer for HEIGHT")
		if err != nil {
			return err
		}
		if hv == 0 {
			return errAt(h.line, "expected HEIGHT to be positive: %s", h.show())
		}
		n := uint64(wv) * uint64(hv)
		if n > math.MaxInt32 {
			return errAt(h.line, "BUFFER too large")
		}
		if err := p.setElements(b, int(n), h.line); err != nil {
			return err
		}
		i := p.z.next()
		switch {
		case i.isIdent("FILL"):
			return p.bufferFill(b)
		case i.isIdent("SERIES_FROM"):
			return p.bufferSeries(b)
		case i.isEnd():
			return nil
		}
		return errAt(i.line, "extra parameters after BUFFER command: %s", i.text)
	case "DATA":
		vals, counted, err := p.dataValues(b.Format, p.z, false)
		defer p.free(counted * valueBytes)
		if err != nil {
			return err
		}
		if err := p.setData(b, vals, t.line); err != nil {
			return err
		}
		return p.endOfStatement("BUFFER data command")
	}
	return errAt(t.line, "unknown initializer for BUFFER")
}

func (p *amberParser) setElements(b *Buffer, n, line int) error {
	size, ok := checked.Mul(n, b.Format.Stride)
	if !ok {
		return errAt(line, "BUFFER too large")
	}
	if err := p.alloc(line, size); err != nil {
		return err
	}
	b.Elements = n
	b.Data = make([]byte, size)
	return nil
}

// setData sizes the buffer to hold vals and writes them (amber's
// SetValueCount then SetData).
func (p *amberParser) setData(b *Buffer, vals []Value, line int) error {
	in := b.Format.Inputs()
	if len(vals)%in != 0 {
		return errAt(line, "Mismatched number of items in buffer")
	}
	if err := p.setElements(b, len(vals)/in, line); err != nil {
		return err
	}
	writeValues(b.Data, b.Format, 0, vals)
	return nil
}

// writeValues writes vals into data from byte offset off, element by
// element, skipping padding.
func writeValues(data []byte, f *Format, off int, vals []Value) {
	in := f.Inputs()
	for i, v := range vals {
		e, c := i/in, i%in
		cp := f.Comps[c]
		at := off + e*f.Stride + cp.Off
		if at+cp.Size() > len(data) {
			return
		}
		put(data[at:], cp.Scalar, v)
	}
}

func (p *amberParser) bufferSize(b *Buffer) error {
	t := p.z.next()
	if t.isEnd() {
		return errAt(t.line, "BUFFER size missing")
	}
	n, err := uintField(t, "BUFFER size invalid")
	if err != nil {
		return err
	}
	if err := p.setElements(b, int(n), t.line); err != nil {
		return err
	}
	t = p.z.next()
	if t.kind != tokIdent {
		return errAt(t.line, "BUFFER invalid initializer: %s", t.show())
	}
	switch t.text {
	case "FILL":
		return p.bufferFill(b)
	case "SERIES_FROM":
		return p.bufferSeries(b)
	case "FILE":
		return p.bufferFile(b)
	}
	return errAt(t.line, "invalid BUFFER initializer provided: %s", t.show())
}

func (p *amberParser) bufferFill(b *Buffer) error {
	t := p.z.next()
	if t.isEnd() {
		return errAt(t.line, "missing BUFFER fill value")
	}
	if !t.isNumber() {
		return errAt(t.line, "invalid BUFFER fill value: %s", t.show())
	}
	in := b.Format.Inputs()
	for i := 0; i < in; i++ {
		if err := checkScalar(t, b.Format.Comps[i].Scalar, "invalid BUFFER fill value"); err != nil {
			return err
		}
	}
	if b.Elements > 0 {
		// Write one element, then replicate it.
		one := make([]Value, in)
		for i := range one {
			one[i] = tokenValue(t, b.Format.Comps[i].Kind == Float)
		}
		writeValues(b.Data, b.Format, 0, one)
		st := b.Format.Stride
		for off := st; off < len(b.Data); off *= 2 {
			copy(b.Data[off:], b.Data[:off])
		}
	}
	return p.endOfStatement("BUFFER fill command")
}

// tokenValue is a number token as a value of a float or integer component.
func tokenValue(t token, isFloat bool) Value {
	if isFloat {
		f, _ := t.asDouble()
		return Value{IsFloat: true, F: f}
	}
	if t.kind == tokDouble {
		return Value{U: uint64(int64(t.f))}
	}
	return Value{U: t.u}
}

func (p *amberParser) bufferSeries(b *Buffer) error {
	t := p.z.next()
	if t.isEnd() {
		return errAt(t.line, "missing BUFFER series_from value")
	}
	if !t.isNumber() {
		return errAt(t.line, "invalid BUFFER series_from value: %s", t.show())
	}
	ty := b.Format.Type
	if ty.Struct != nil || ty.Rows > 1 || ty.Cols > 1 {
		return errAt(t.line, "BUFFER series_from must not be multi-row/column types")
	}
	if err := checkScalar(t, ty.Scalar, "invalid BUFFER series_from value"); err != nil {
		return err
	}
	start := tokenValue(t, ty.Kind == Float)
	t = p.z.next()
	if t.kind != tokIdent {
		return errAt(t.line, "missing BUFFER series_from inc_by")
	}
	if t.text != "INC_BY" {
		return errAt(t.line, "BUFFER series_from invalid command: %s", t.show())
	}
	t = p.z.next()
	if t.isEnd() {
		return errAt(t.line, "missing BUFFER series_from inc_by value")
	}
	if !t.isNumber() {
		return errAt(t.line, "invalid BUFFER series_from inc_by value: %s", t.show())
	}
	if err := checkScalar(t, ty.Scalar, "invalid BUFFER series_from inc_by value"); err != nil {
		return err
	}
	inc := tokenValue(t, ty.Kind == Float)
	f := b.Format
	cur := start
	for i := 0; i < b.Elements; i++ {
		put(b.Data[i*f.Stride+f.Comps[0].Off:], ty.Scalar, cur)
		if cur.IsFloat {
			cur.F += inc.F
		} else {
			cur.U += inc.U
		}
	}
	return p.endOfStatement("BUFFER series_from command")
}

func (p *amberParser) bufferFile(b *Buffer) error {
	t := p.z.next()
	if t.kind != tokIdent {
		return errAt(t.line, "invalid value for FILE: %s", t.show())
	}
	kind := "PNG"
	if t.text == "TEXT" || t.text == "BINARY" || t.text == "PNG" {
		kind = t.text
		t = p.z.next()
	}
	if t.kind != tokIdent && t.kind != tokString {
		return errAt(t.line, "missing file name for FILE")
	}
	if kind == "PNG" {
		return unsupAt(t.line, "BUFFER FILE PNG is not supported by spvx")
	}
	data, err := p.opt.ReadFile(t.text)
	if err != nil {
		return errAt(t.line, "unable to read buffer file %s: %v", t.text, unwrapPathError(err))
	}
	p.free(len(b.Data))
	b.Data = nil
	if kind == "TEXT" {
		z := newTokenizer(string(data), 1)
		vals, counted, err := p.dataValues(b.Format, z, true)
		defer p.free(counted * valueBytes)
		if err != nil {
			if pe, ok := err.(*perr); ok {
				return errAt(t.line, "%s:%d: %s", t.text, pe.line, pe.msg)
			}
			return err
		}
		if err := p.setData(b, vals, t.line); err != nil {
			return err
		}
	} else {
		if err := p.alloc(t.line, len(data)); err != nil {
			return err
		}
		b.Data = data
		b.Elements = len(data) / b.Format.Stride
	}
	return p.endOfStatement("BUFFER command")
}

// dataValues reads the values of DATA … END (or of a FILE TEXT, which
// ends at the end of the file), one per non-padding component, cycling
// through the element's components.
// It returns how many values it accounted for (countValue), for the
// caller to free once the values are written.
func (p *amberParser) dataValues(f *Format, z *tokenizer, fromFile bool) (vals []Value, counted int, err error) {
	for {
		isFloat := f.comp(len(vals)).Kind == Float
		t := z.next()
		switch {
		case t.kind == tokEOL:
			continue
		case t.kind == tokEOS && fromFile, t.isIdent("END"):
			return vals, counted, nil
		case t.kind == tokEOS:
			return nil, counted, errAt(t.line, "missing BUFFER END command")
		case t.kind != tokInt && t.kind != tokDouble && t.kind != tokHex, !isFloat && t.kind == tokDouble:
			return nil, counted, errAt(t.line, "invalid BUFFER data value: %s", t.text)
		}
		if err := checkScalar(t, f.comp(len(vals)).Scalar, "invalid BUFFER data value"); err != nil {
			return nil, counted, err
		}
		if err := p.countValue(t.line, len(vals), &counted); err != nil {
			return nil, counted, err
		}
		vals = append(vals, tokenValue(t, isFloat))
	}
}

// ---- PIPELINE ----

func (p *amberParser) pipeline(cmd token) error {
	t := p.z.next()
	if t.kind != tokIdent {
		return errAt(t.line, "invalid token when looking for pipeline type: %s", t.show())
	}
	switch t.text {
	case "compute", "graphics", "raytracing":
	default:
		return errAt(t.line, "unknown pipeline type: %s", t.text)
	}
	pl := &Pipeline{Kind: t.text, Line: cmd.line}
	t = p.z.next()
	if t.kind != tokIdent {
		return errAt(t.line, "invalid token when looking for pipeline name: %s", t.show())
	}
	pl.Name = t.text
	if err := p.endOfStatement("PIPELINE command"); err != nil {
		return err
	}
	return p.pipelineBody("PIPELINE", pl)
}

func (p *amberParser) derivePipeline(cmd token) error {
	t := p.z.next()
	if t.kind != tokIdent || t.text == "FROM" {
		return errAt(t.line, "missing pipeline name for DERIVE_PIPELINE command")
	}
	name := t.text
	if p.s.pipelines[name] != nil {
		return errAt(t.line, "duplicate pipeline name for DERIVE_PIPELINE command")
	}
	t = p.z.next()
	if !t.isIdent("FROM") {
		return errAt(t.line, "missing FROM in DERIVE_PIPELINE command")
	}
	t = p.z.next()
	if t.kind != tokIdent {
		return errAt(t.line, "missing parent pipeline name in DERIVE_PIPELINE command")
	}
	parent := p.s.pipelines[t.text]
	if parent == nil {
		return errAt(t.line, "unknown parent pipeline in DERIVE_PIPELINE command")
	}
	if err := p.endOfStatement("DERIVE_PIPELINE command"); err != nil {
		return err
	}
	pl := &Pipeline{Name: name, Kind: parent.Kind, PushConst: parent.PushConst, Line: cmd.line}
	for _, a := range parent.Shaders {
		c := *a
		c.Specializations = append([]Specialization(nil), a.Specializations...)
		pl.Shaders = append(pl.Shaders, &c)
	}
	for _, b := range parent.Bindings {
		c := *b
		pl.Bindings = append(pl.Bindings, &c)
	}
	return p.pipelineBody("DERIVE_PIPELINE", pl)
}

// nextInBlock reads the next command of a block that END closes (a
// pipeline, SHADER_OPTIMIZATION, SUBGROUP), skipping blank lines, and
// says whether it is END. A block the script ends inside is "NAME missing
// END command"; a token that is no identifier is "notIdent: TOKEN".
func (p *amberParser) nextInBlock(name, notIdent string) (t token, end bool, err error) {
	for {
		t = p.z.next()
		switch {
		case t.kind == tokEOL:
			continue
		case t.kind == tokEOS:
			return t, false, errAt(t.line, "%s missing END command", name)
		case t.kind != tokIdent:
			return t, false, errAt(t.line, "%s: %s", notIdent, t.show())
		}
		return t, t.text == "END", nil
	}
}

func (p *amberParser) pipelineBody(name string, pl *Pipeline) error {
	for {
		t, end, err := p.nextInBlock(name, "expected identifier")
		if err != nil {
			return err
		}
		if end {
			break
		}
		switch t.text {
		case "ATTACH":
			err = p.attach(pl, t)
		case "SHADER_OPTIMIZATION":
			err = p.shaderOptimization(pl, t)
		case "SUBGROUP":
			err = p.subgroup(pl, t)
		case "BIND":
			err = p.bind(pl, t)
		case "COMPILE_OPTIONS":
			err = errAt(t.line, "COMPILE_OPTIONS currently only supports OPENCL-C shaders")
		case "FRAMEBUFFER_SIZE", "VIEWPORT", "VERTEX_DATA", "INDEX_DATA", "POLYGON_MODE",
			"DEPTH", "STENCIL", "PATCH_CONTROL_POINTS", "BLEND", "SHADER_GROUP",
			"SHADER_BINDING_TABLE", "MAX_RAY_PAYLOAD_SIZE", "MAX_RAY_HIT_ATTRIBUTE_SIZE",
			"MAX_RAY_RECURSION_DEPTH", "FLAGS", "USE_LIBRARY", "SET":
			err = unsupAt(t.line, "%s is not supported by spvx (compute pipelines only)", t.text)
		default:
			err = errAt(t.line, "unknown token in pipeline block: %s", t.text)
		}
		if err != nil {
			return err
		}
	}
	if p.s.pipelines[pl.Name] != nil {
		return errAt(pl.Line, "duplicate pipeline name provided")
	}
	p.s.pipelines[pl.Name] = pl
	p.s.Pipelines = append(p.s.Pipelines, pl)
	return p.endOfStatement("END")
}

func (p *amberParser) attachment(pl *Pipeline, sh *Shader) *Attachment {
	for _, a := range pl.Shaders {
		if a.Shader == sh {
			return a
		}
	}
	return nil
}

func (p *amberParser) attach(pl *Pipeline, cmd token) error {
	t := p.z.next()
	if t.kind != tokIdent {
		return errAt(t.line, "invalid token in ATTACH command: %s", t.show())
	}
	sh := p.s.shaders[t.text]
	if sh == nil {
		return errAt(t.line, "unknown shader in ATTACH command: %s", t.text)
	}
	add := func(stage string) (*Attachment, error) {
		if pl.Kind == "compute" && stage != "compute" {
			return nil, errAt(cmd.line, "only compute shaders allowed in a compute pipeline")
		}
		if p.attachment(pl, sh) != nil {
			return nil, errAt(cmd.line, "can not add duplicate shader to pipeline")
		}
		a := &Attachment{Shader: sh, Entry: "main", Line: cmd.line}
		pl.Shaders = append(pl.Shaders, a)
		return a, nil
	}
	t = p.z.next()
	if t.isEnd() {
		if sh.Stage == "multi" {
			return errAt(t.line, "multi shader ATTACH requires TYPE")
		}
		_, err := add(sh.Stage)
		return err
	}
	if t.kind != tokIdent {
		return errAt(t.line, "invalid token after ATTACH: %s", t.show())
	}
	stage := sh.Stage
	setType := false
	if t.text == "TYPE" {
		ty := p.z.next()
		if ty.kind != tokIdent {
			return errAt(ty.line, "invalid type in ATTACH: %s", ty.show())
		}
		if !shaderStages[ty.text] {
			return errAt(ty.line, "unknown shader type: %s", ty.text)
		}
		stage, setType = ty.text, true
		t = p.z.next()
		if t.kind != tokIdent {
			return errAt(t.line, "ATTACH TYPE requires an ENTRY_POINT")
		}
	}
	if setType && t.text != "ENTRY_POINT" {
		return errAt(t.line, "unknown ATTACH parameter: %s", t.text)
	}
	if sh.Stage == "multi" && !setType {
		return errAt(t.line, "ATTACH missing TYPE for multi shader")
	}
	a, err := add(stage)
	if err != nil {
		return err
	}
	if t.text == "ENTRY_POINT" {
		e := p.z.next()
		if e.kind != tokIdent {
			return errAt(e.line, "missing shader name in ATTACH ENTRY_POINT command")
		}
		a.Entry = e.text
		t = p.z.next()
	}
	for {
		if t.isIdent("SPECIALIZE") {
			if err := p.specialize(a); err != nil {
				return err
			}
			t = p.z.next()
			continue
		}
		if t.isEnd() {
			return nil
		}
		if t.kind == tokIdent {
			return errAt(t.line, "unknown ATTACH parameter: %s", t.text)
		}
		return errAt(t.line, "extra parameters after ATTACH command: %s", t.text)
	}
}

func (p *amberParser) specialize(a *Attachment) error {
	t := p.z.next()
	id, err := uintField(t, "specialization ID must be an integer")
	if err != nil {
		return err
	}
	t = p.z.next()
	if !t.isIdent("AS") {
		return errAt(t.line, "expected AS as next token: %s", t.show())
	}
	t = p.z.next()
	if t.kind != tokIdent {
		return errAt(t.line, "expected data type in SPECIALIZE subcommand: %s", t.show())
	}
	ty := ParseType(t.text)
	if ty == nil {
		return errAt(t.line, "invalid data type '%s' provided", t.text)
	}
	if ty.Rows != 1 || ty.Cols != 1 || ty.Array || ty.FormatList {
		return errAt(t.line, "only numeric types are accepted for specialization values")
	}
	v := p.z.next()
	var bits uint64
	if ty.Kind == Float {
		f, ok := v.asDouble()
		if !ok {
			return errAt(v.line, "value is not a floating point value")
		}
		if err := checkScalar(v, ty.Scalar, "invalid value for SPECIALIZE"); err != nil {
			return err
		}
		switch ty.Bits {
		case 16:
			bits = uint64(amberFloatToHalf(float32(f)))
		case 32:
			bits = uint64(math.Float32bits(float32(f)))
		default:
			bits = math.Float64bits(f)
		}
	} else {
		if v.kind != tokInt && v.kind != tokHex {
			return errAt(v.line, "invalid value for SPECIALIZE: %s", v.show())
		}
		if err := checkScalar(v, ty.Scalar, "invalid value for SPECIALIZE"); err != nil {
			return err
		}
		bits = v.u
		if ty.Bits < 64 {
			bits &= 1<<uint(ty.Bits) - 1
		}
	}
	a.Specializations = append(a.Specializations, Specialization{ID: id, Type: ty.Scalar, Value: bits})
	return nil
}

func (p *amberParser) shaderOptimization(pl *Pipeline, cmd token) error {
	t := p.z.next()
	if t.kind != tokIdent {
		return errAt(t.line, "missing shader name in SHADER_OPTIMIZATION command")
	}
	sh := p.s.shaders[t.text]
	if sh == nil {
		return errAt(t.line, "unknown shader in SHADER_OPTIMIZATION command")
	}
	t = p.z.next()
	if t.kind != tokEOL {
		return errAt(t.line, "extra parameters after SHADER_OPTIMIZATION command: %s", t.show())
	}
	var opts []string
	for {
		t, end, err := p.nextInBlock("SHADER_OPTIMIZATION", "SHADER_OPTIMIZATION options must be identifiers")
		if err != nil {
			return err
		}
		if end {
			break
		}
		opts = append(opts, t.text)
	}
	a := p.attachment(pl, sh)
	if a == nil {
		return errAt(cmd.line, "unknown shader specified for optimizations: %s", sh.Name)
	}
	a.Optimizations = opts
	return p.endOfStatement("SHADER_OPTIMIZATION command")
}

func (p *amberParser) subgroup(pl *Pipeline, cmd token) error {
	t := p.z.next()
	if t.kind != tokIdent {
		return errAt(t.line, "missing shader name in SUBGROUP command")
	}
	sh := p.s.shaders[t.text]
	if sh == nil {
		return errAt(t.line, "unknown shader in SUBGROUP command")
	}
	a := p.attachment(pl, sh)
	if a == nil {
		return errAt(t.line, "unknown shader specified for subgroups: %s", sh.Name)
	}
	onOff := func(name string) (bool, error) {
		v := p.z.next()
		if v.isEnd() {
			return false, errAt(v.line, "missing value for %s command", name)
		}
		switch v.text {
		case "on":
			return true, nil
		case "off":
			return false, nil
		}
		return false, errAt(v.line, "invalid value for %s command", name)
	}
	for {
		t, end, err := p.nextInBlock("SUBGROUP", "SUBGROUP options must be identifiers")
		if err != nil {
			return err
		}
		if end {
			break
		}
		switch t.text {
		case "FULLY_POPULATED":
			if !p.s.requires("feature", "SubgroupSizeControl.computeFullSubgroups") {
				return errAt(t.line, "missing DEVICE_FEATURE SubgroupSizeControl.computeFullSubgroups")
			}
			a.FullSubgroups, err = onOff("FULLY_POPULATED")
		case "VARYING_SIZE":
			if !p.s.requires("feature", "SubgroupSizeControl.subgroupSizeControl") {
				return errAt(t.line, "missing DEVICE_FEATURE SubgroupSizeControl.subgroupSizeControl")
			}
			a.VaryingSubgroupSize, err = onOff("VARYING_SIZE")
		case "REQUIRED_SIZE":
			if !p.s.requires("feature", "SubgroupSizeControl.subgroupSizeControl") {
				return errAt(t.line, "missing DEVICE_FEATURE SubgroupSizeControl.subgroupSizeControl")
			}
			v := p.z.next()
			switch {
			case v.isEnd():
				return errAt(v.line, "missing size for REQUIRED_SIZE command")
			case v.kind == tokInt:
				n, _ := v.uintUpTo(128)
				if n == 0 || n&(n-1) != 0 || n > 128 {
					return errAt(v.line, "invalid size for REQUIRED_SIZE command: %s (must be a power of two from 1 to 128)", v.text)
				}
				a.RequiredSubgroupSize = int(n)
			case v.isIdent("MIN"):
				a.RequiredSubgroupSize = -1
			case v.isIdent("MAX"):
				a.RequiredSubgroupSize = -2
			default:
				return errAt(v.line, "invalid size for REQUIRED_SIZE command: %s", v.show())
			}
		default:
			return errAt(t.line, "SUBGROUP invalid value for SUBGROUP %s", t.text)
		}
		if err != nil {
			return err
		}
	}
	return p.endOfStatement("SUBGROUP command")
}

func (p *amberParser) bind(pl *Pipeline, cmd token) error {
	t := p.z.next()
	if t.kind != tokIdent {
		return errAt(t.line, "missing BUFFER, BUFFER_ARRAY, SAMPLER, SAMPLER_ARRAY, or ACCELERATION_STRUCTURE in BIND command")
	}
	switch t.text {
	case "BUFFER", "BUFFER_ARRAY":
	case "SAMPLER", "SAMPLER_ARRAY":
		return p.bindSampler(pl, cmd, t.text == "SAMPLER_ARRAY")
	case "ACCELERATION_STRUCTURE":
		return unsupAt(t.line, "BIND %s is not supported by spvx (compute buffers only)", t.text)
	default:
		return errAt(t.line, "missing BUFFER or SAMPLER in BIND command")
	}
	isArray := t.text == "BUFFER_ARRAY"
	t = p.z.next()
	if t.kind != tokIdent {
		return errAt(t.line, "missing buffer name in BIND command")
	}
	buf := p.s.buffers[t.text]
	if buf == nil {
		return errAt(t.line, "unknown buffer: %s", t.text)
	}
	bufs := []*Buffer{buf}
	if isArray {
		for {
			n := p.z.peek()
			if n.kind != tokIdent || n.text == "AS" || n.text == "KERNEL" || n.text == "DESCRIPTOR_SET" {
				break
			}
			p.z.next()
			b := p.s.buffers[n.text]
			if b == nil {
				return errAt(n.line, "unknown buffer: %s", n.text)
			}
			bufs = append(bufs, b)
		}
		if len(bufs) < 2 {
			return errAt(t.line, "expecting multiple buffer names for BUFFER_ARRAY: %s", t.show())
		}
	}
	t = p.z.next()
	if !t.isIdent("AS") {
		if t.isIdent("KERNEL") {
			return unsupAt(t.line, "BIND … KERNEL is for OPENCL-C shaders, which spvx does not run")
		}
		return errAt(t.line, "missing DESCRIPTOR_SET or KERNEL for BIND command")
	}
	t = p.z.next()
	if t.kind != tokIdent {
		return errAt(t.line, "invalid token for BUFFER type: %s", t.show())
	}
	kind, ok := bufferKindNames[t.text]
	var err error
	if !ok {
		return errAt(t.line, "unknown buffer_type: %s", t.text)
	}
	if kind == BindOther {
		return unsupAt(t.line, "BIND … AS %s is not supported by spvx (compute buffers only)", t.text)
	}
	var samp *Sampler
	if kind == BindCombinedImageSampler {
		if samp, err = p.combinedSampler(bufs); err != nil {
			return err
		}
	}
	if kind == BindPushConstant {
		if pl.PushConst != nil {
			return errAt(t.line, "can only bind one push constant buffer in a PIPELINE")
		}
		pl.PushConst = buf
		pl.Bindings = append(pl.Bindings, &BufferBinding{Buffers: bufs[:1], Kind: kind, Line: cmd.line})
		return p.endOfStatement("BIND command")
	}
	t = p.z.next()
	if t.isIdent("KERNEL") {
		return unsupAt(t.line, "BIND … KERNEL is for OPENCL-C shaders, which spvx does not run")
	}
	if !t.isIdent("DESCRIPTOR_SET") {
		return errAt(t.line, "missing DESCRIPTOR_SET or KERNEL for BIND command")
	}
	bb := &BufferBinding{Buffers: bufs, Kind: kind, Line: cmd.line}
	if samp != nil {
		bb.Samplers = []*Sampler{samp}
	}
	if bb.Set, bb.Binding, err = p.setAndBinding(); err != nil {
		return err
	}
	if kind == BindStorageImage || kind == BindSampledImage || kind == BindCombinedImageSampler {
		// amber checks the last buffer named
		if bb.BaseMipLevel, err = p.baseMipLevel(bufs[len(bufs)-1]); err != nil {
			return err
		}
	}
	n := len(bufs)
	bb.DynamicOffsets = make([]uint64, n)
	bb.DescriptorOffsets = make([]uint64, n)
	bb.DescriptorRanges = make([]int64, n)
	for i := range bb.DescriptorRanges {
		bb.DescriptorRanges[i] = -1
	}
	if kind == BindStorageDynamic || kind == BindUniformDynamic {
		t = p.z.next()
		if !t.isIdent("OFFSET") {
			return errAt(t.line, "expecting an OFFSET for dynamic buffer type: %s", t.show())
		}
		for i := 0; i < n; i++ {
			t = p.z.next()
			if t.kind != tokInt {
				if i > 0 {
					return errAt(t.line, "expecting an OFFSET value for each buffer in the array: %s", t.show())
				}
				return errAt(t.line, "expecting an integer value for OFFSET: %s", t.show())
			}
			off, err := uintField(t, "invalid value for OFFSET")
			if err != nil {
				return err
			}
			bb.DynamicOffsets[i] = uint64(off)
		}
	}
	if kind.IsImage() {
		p.replaceBinding(pl, bb)
		return p.endOfStatement("BIND command")
	}
	if n := p.z.peek(); n.isIdent("DESCRIPTOR_OFFSET") {
		p.z.next()
		for i := range bufs {
			t = p.z.next()
			if t.kind != tokInt {
				if i > 0 {
					return errAt(t.line, "expecting a DESCRIPTOR_OFFSET value for each buffer in the array: %s", t.show())
				}
				return errAt(t.line, "expecting an integer value for DESCRIPTOR_OFFSET: %s", t.show())
			}
			// The view starts at OFFSET + DESCRIPTOR_OFFSET: a sum that
			// wrapped (OFFSET 8 and DESCRIPTOR_OFFSET 2^64-4 gave 4)
			// would bind the wrong bytes.
			if _, ok := t.uintUpTo(math.MaxInt); !ok {
				return outOfRange(t, "invalid value for DESCRIPTOR_OFFSET", "a byte offset")
			}
			if _, ok := checked.Add(int(bb.DynamicOffsets[i]), int(t.u)); !ok {
				return errAt(t.line, "DESCRIPTOR_OFFSET %s plus OFFSET %d overflows", t.show(), bb.DynamicOffsets[i])
			}
			bb.DescriptorOffsets[i] = t.u
		}
	}
	if n := p.z.peek(); n.isIdent("DESCRIPTOR_RANGE") {
		p.z.next()
		for i := range bufs {
			t = p.z.next()
			if t.kind != tokInt {
				if i > 0 {
					return errAt(t.line, "expecting a DESCRIPTOR_RANGE value for each buffer in the array: %s", t.show())
				}
				return errAt(t.line, "expecting an integer value for DESCRIPTOR_RANGE: %s", t.show())
			}
			// amber reads a uint64; spvx keeps -1 for "the rest of the
			// buffer", so a range must fit int64.
			r, ok := t.uintUpTo(math.MaxInt64)
			if !ok {
				return outOfRange(t, "invalid value for DESCRIPTOR_RANGE", "a byte range")
			}
			bb.DescriptorRanges[i] = int64(r)
		}
	}
	p.replaceBinding(pl, bb)
	return p.endOfStatement("BIND command")
}

// replaceBinding adds bb to the pipeline: a later BIND at the same set and
// binding replaces the earlier one.
func (p *amberParser) replaceBinding(pl *Pipeline, bb *BufferBinding) {
	out := pl.Bindings[:0]
	for _, x := range pl.Bindings {
		if x.Kind == BindPushConstant || x.Set != bb.Set || x.Binding != bb.Binding {
			out = append(out, x)
		}
	}
	pl.Bindings = append(out, bb)
}

// setAndBinding reads "SET BINDING b" after DESCRIPTOR_SET.
func (p *amberParser) setAndBinding() (set, binding uint32, err error) {
	t := p.z.next()
	if set, err = uintField(t, "invalid value for DESCRIPTOR_SET in BIND command"); err != nil {
		return 0, 0, err
	}
	t = p.z.next()
	if !t.isIdent("BINDING") {
		return 0, 0, errAt(t.line, "missing BINDING for BIND command: %s", t.show())
	}
	t = p.z.next()
	binding, err = uintField(t, "invalid value for BINDING in BIND command")
	return set, binding, err
}

// baseMipLevel reads an optional BASE_MIP_LEVEL, which must name one of
// the image's levels.
func (p *amberParser) baseMipLevel(b *Buffer) (uint32, error) {
	if !p.z.peek().isIdent("BASE_MIP_LEVEL") {
		return 0, nil
	}
	p.z.next()
	t := p.z.next()
	l, err := uintField(t, "invalid value for BASE_MIP_LEVEL")
	if err != nil {
		return 0, err
	}
	if l >= b.Image.Levels() {
		return 0, errAt(t.line, "base mip level (now %s) needs to be larger than the number of buffer mip maps (%d)", t.text, b.Image.Levels())
	}
	return l, nil
}

// combinedSampler reads "SAMPLER name" after AS combined_image_sampler; as
// amber, the sampler is kept on each buffer too.
func (p *amberParser) combinedSampler(bufs []*Buffer) (*Sampler, error) {
	t := p.z.next()
	if !t.isIdent("SAMPLER") {
		return nil, errAt(t.line, "expecting SAMPLER for combined image sampler: %s", t.show())
	}
	t = p.z.next()
	if t.kind != tokIdent {
		return nil, errAt(t.line, "missing sampler name in BIND command: %s", t.show())
	}
	s := p.s.samplers[t.text]
	if s == nil {
		return nil, errAt(t.line, "unknown sampler: %s", t.text)
	}
	for _, b := range bufs {
		b.Sampler = s
	}
	return s, nil
}

// bindSampler parses BIND SAMPLER / SAMPLER_ARRAY after its keyword.
func (p *amberParser) bindSampler(pl *Pipeline, cmd token, isArray bool) error {
	t := p.z.next()
	if t.kind != tokIdent {
		return errAt(t.line, "missing sampler name in BIND command: %s", t.show())
	}
	var ss []*Sampler
	for {
		s := p.s.samplers[t.text]
		if s == nil {
			return errAt(t.line, "unknown sampler: %s", t.text)
		}
		ss = append(ss, s)
		n := p.z.peek()
		if !isArray || n.kind != tokIdent || n.text == "KERNEL" || n.text == "DESCRIPTOR_SET" {
			break
		}
		t = p.z.next()
	}
	if isArray && len(ss) < 2 {
		return errAt(t.line, "expecting multiple sampler names for SAMPLER_ARRAY")
	}
	t = p.z.next()
	if t.kind != tokIdent {
		return errAt(t.line, "expected a string token for BIND command: %s", t.show())
	}
	if t.text == "KERNEL" {
		return unsupAt(t.line, "BIND … KERNEL is for OPENCL-C shaders, which spvx does not run")
	}
	if t.text != "DESCRIPTOR_SET" {
		return errAt(t.line, "missing DESCRIPTOR_SET or KERNEL for BIND command")
	}
	bb := &BufferBinding{Kind: BindSampler, Samplers: ss, Line: cmd.line}
	var err error
	if bb.Set, bb.Binding, err = p.setAndBinding(); err != nil {
		return err
	}
	p.replaceBinding(pl, bb)
	return p.endOfStatement("BIND command")
}

// ---- commands ----

func (p *amberParser) repeatable(t token) error {
	switch t.text {
	case "RUN":
		return p.run(t)
	case "EXPECT":
		return p.expect(t)
	case "COPY":
		return p.copyCmd(t)
	case "CLEAR":
		return p.clear(t)
	}
	return unsupAt(t.line, "%s is not supported by spvx (graphics pipelines only)", t.text)
}

func (p *amberParser) clear(cmd token) error {
	t := p.z.next()
	if t.kind != tokIdent {
		return errAt(t.line, "missing pipeline name for CLEAR command")
	}
	pl := p.s.pipelines[t.text]
	if pl == nil {
		return errAt(t.line, "unknown pipeline for CLEAR command: %s", t.text)
	}
	if pl.Kind != "graphics" {
		return errAt(t.line, "CLEAR command requires graphics pipeline")
	}
	*p.cmds = append(*p.cmds, &ClearCommand{Pipeline: pl, Line: cmd.line})
	return p.endOfStatement("CLEAR command")
}

func (p *amberParser) run(cmd token) error {
	t := p.z.next()
	timed := false
	if t.isIdent("TIMED_EXECUTION") {
		timed = true
		t = p.z.next()
	}
	if t.kind != tokIdent {
		return errAt(t.line, "missing pipeline name for RUN command")
	}
	pl := p.s.pipelines[t.text]
	if pl == nil {
		return errAt(t.line, "unknown pipeline for RUN command: %s", t.text)
	}
	t = p.z.next()
	if t.isEnd() {
		return errAt(t.line, "RUN command requires parameters")
	}
	if t.kind != tokInt {
		if t.isIdent("DRAW_RECT") || t.isIdent("DRAW_GRID") || t.isIdent("DRAW_ARRAY") {
			return unsupAt(t.line, "RUN %s is not supported by spvx (graphics pipelines only)", t.text)
		}
		return errAt(t.line, "invalid token in RUN command: %s", t.text)
	}
	if pl.Kind != "compute" {
		return errAt(t.line, "RUN command requires compute pipeline")
	}
	rc := &RunCommand{Pipeline: pl, Timed: timed, Line: cmd.line}
	var err error
	if rc.Groups[0], err = uintField(t, "invalid token in RUN command"); err != nil {
		return err
	}
	for i := 1; i < 3; i++ {
		t = p.z.next()
		if rc.Groups[i], err = uintField(t, "invalid parameter for RUN command"); err != nil {
			return err
		}
	}
	*p.cmds = append(*p.cmds, rc)
	return p.endOfStatement("RUN command")
}

func (p *amberParser) copyCmd(cmd token) error {
	t := p.z.next()
	if t.isEnd() {
		return errAt(t.line, "missing buffer name after COPY")
	}
	if t.kind != tokIdent {
		return errAt(t.line, "invalid buffer name after COPY: %s", t.show())
	}
	if t.text == "TO" {
		return errAt(t.line, "missing buffer name between COPY and TO")
	}
	from := p.s.buffers[t.text]
	if from == nil {
		return errAt(t.line, "COPY origin buffer was not declared")
	}
	t = p.z.next()
	if t.isEnd() {
		return errAt(t.line, "missing 'TO' after COPY and buffer name")
	}
	if !t.isIdent("TO") {
		return errAt(t.line, "expected 'TO' after COPY and buffer name: %s", t.show())
	}
	t = p.z.next()
	if t.isEnd() {
		return errAt(t.line, "missing buffer name after TO")
	}
	if t.kind != tokIdent {
		return errAt(t.line, "invalid buffer name after TO: %s", t.show())
	}
	to := p.s.buffers[t.text]
	if to == nil {
		return errAt(t.line, "COPY destination buffer was not declared")
	}
	if from == to {
		return errAt(t.line, "COPY origin and destination buffers are identical")
	}
	// The destination mirrors the origin's size from here on (amber sets it
	// at parse time).
	to.Elements = from.Elements
	*p.cmds = append(*p.cmds, &CopyCommand{From: from, To: to, Line: cmd.line})
	return p.endOfStatement("COPY command")
}

func (p *amberParser) repeat(cmd token) error {
	t := p.z.next()
	if t.isEnd() {
		return errAt(t.line, "missing count parameter for REPEAT command")
	}
	if t.kind != tokInt {
		return errAt(t.line, "invalid count parameter for REPEAT command: %s", t.text)
	}
	if t.neg || t.u == 0 {
		return errAt(t.line, "count parameter must be > 0 for REPEAT command: %s", t.show())
	}
	count, ok := t.uintUpTo(math.MaxInt32)
	if !ok {
		return outOfRange(t, "invalid count parameter for REPEAT command", "int32")
	}
	rc := &RepeatCommand{Count: int(count), Line: cmd.line}
	outer := p.cmds
	p.cmds = &rc.Commands
	defer func() { p.cmds = outer }()
	for {
		t = p.z.next()
		if t.kind == tokEOS {
			return errAt(t.line, "missing END for REPEAT command")
		}
		if t.kind == tokEOL {
			continue
		}
		if t.kind != tokIdent {
			return errAt(t.line, "expected identifier: %s", t.show())
		}
		if t.text == "END" {
			break
		}
		if !isRepeatable(t.text) {
			return errAt(t.line, "unknown token: %s", t.text)
		}
		if err := p.repeatable(t); err != nil {
			return err
		}
	}
	*outer = append(*outer, rc)
	return p.endOfStatement("REPEAT command")
}

var comparatorNames = map[string]Comparator{"EQ": EQ, "NE": NE, "LT": LT, "LE": LE, "GT": GT, "GE": GE}

func (p *amberParser) expect(cmd token) error {
	start := p.z.pos
	text := func() string {
		end := p.z.pos
		s := p.z.s[start:end]
		s = strings.Join(strings.Fields(strings.ReplaceAll(s, "\\\n", " ")), " ")
		return "EXPECT " + s
	}
	t := p.z.next()
	if t.kind != tokIdent {
		return errAt(t.line, "invalid buffer name in EXPECT command: %s", t.show())
	}
	switch t.text {
	case "IDX", "EQ_BUFFER", "RMSE_BUFFER", "EQ_HISTOGRAM_EMD_BUFFER":
		return errAt(t.line, "missing buffer name between EXPECT and %s", t.text)
	}
	buf := p.s.buffers[t.text]
	if buf == nil {
		return errAt(t.line, "unknown buffer name for EXPECT command: %s", t.text)
	}
	t = p.z.next()
	if t.kind != tokIdent {
		return errAt(t.line, "invalid comparator in EXPECT command: %s", t.show())
	}
	switch t.text {
	case "EQ_BUFFER", "RMSE_BUFFER", "EQ_HISTOGRAM_EMD_BUFFER":
		name := t.text
		t = p.z.next()
		if t.kind != tokIdent {
			return errAt(t.line, "invalid buffer name in EXPECT %s command", name)
		}
		b2 := p.s.buffers[t.text]
		if b2 == nil {
			return errAt(t.line, "unknown buffer name for EXPECT %s command: %s", name, t.text)
		}
		if !buf.Format.Equal(b2.Format) {
			return errAt(t.line, "EXPECT %s command cannot compare buffers of differing format", name)
		}
		if buf.Elements != b2.Elements {
			return errAt(t.line, "EXPECT %s command cannot compare buffers of different size: %d vs %d", name, buf.Elements, b2.Elements)
		}
		w1, h1, _ := buf.Image.Size()
		w2, h2, _ := b2.Image.Size()
		if w1 != w2 {
			return errAt(t.line, "EXPECT %s command cannot compare buffers of different width", name)
		}
		if h1 != h2 {
			return errAt(t.line, "EXPECT %s command cannot compare buffers of different height", name)
		}
		cc := &CompareCommand{A: buf, B: b2, Line: cmd.line}
		switch name {
		case "RMSE_BUFFER", "EQ_HISTOGRAM_EMD_BUFFER":
			if name == "RMSE_BUFFER" {
				cc.Comparator = RMSEBuffer
			} else {
				cc.Comparator = HistogramEMDBuffer
			}
			t = p.z.next()
			if !t.isIdent("TOLERANCE") {
				return errAt(t.line, "missing TOLERANCE for EXPECT %s", name)
			}
			t = p.z.next()
			if !t.isNumber() {
				return errAt(t.line, "invalid TOLERANCE for EXPECT %s", name)
			}
			if err := checkScalar(t, Scalar{Float, 32}, "invalid TOLERANCE for EXPECT "+name); err != nil {
				return err
			}
			f, _ := t.asDouble()
			cc.Tolerance = float64(float32(f))
		}
		if err := p.endOfStatement("EXPECT " + name + " command"); err != nil {
			return err
		}
		cc.Text = text()
		*p.cmds = append(*p.cmds, cc)
		return nil
	}
	if t.text != "IDX" {
		return errAt(t.line, "missing IDX in EXPECT command")
	}
	t = p.z.next()
	if t.kind != tokInt {
		return errAt(t.line, "invalid X value in EXPECT command: %s", t.show())
	}
	x, ok := t.uintUpTo(math.MaxInt32)
	if !ok {
		return outOfRange(t, "invalid X value in EXPECT command", "int32")
	}
	t = p.z.next()
	if t.kind == tokInt {
		y, ok := t.uintUpTo(math.MaxInt32)
		if !ok {
			return outOfRange(t, "invalid Y value in EXPECT command", "int32")
		}
		if n := p.z.peek(); !n.isIdent("SIZE") {
			return errAt(t.line, "Y value not needed for non-color comparator")
		}
		pc, err := p.imageProbe(buf, uint32(x), uint32(y), cmd.line)
		if err != nil {
			return err
		}
		pc.Text = text()
		*p.cmds = append(*p.cmds, pc)
		return nil
	}
	if t.isIdent("SIZE") {
		return errAt(t.line, "invalid Y value in EXPECT command: %s", t.show())
	}
	ec := &ExpectCommand{Buffer: buf, Format: buf.Format, Line: cmd.line}
	if t.isIdent("TOLERANCE") {
		tols, err := parseTolerances(p.z)
		if err != nil {
			return err
		}
		if len(tols) == 0 {
			return errAt(t.line, "TOLERANCE specified but no tolerances provided")
		}
		if len(tols) > 4 {
			return errAt(t.line, "TOLERANCE has a maximum of 4 values")
		}
		ec.Tolerances = tols
		t = p.z.next()
	}
	cmp, ok := comparatorNames[t.text]
	if t.kind != tokIdent || !ok {
		return errAt(t.line, "unexpected token in EXPECT command: %s", t.show())
	}
	if ec.Tolerances != nil {
		if cmp != EQ {
			return errAt(t.line, "TOLERANCE only available with EQ probes")
		}
		cmp = FuzzyEQ
	}
	ec.Comparator = cmp
	ec.Offset = int(x)
	vals, err := p.expectValues(buf.Format)
	if err != nil {
		return err
	}
	if len(vals) == 0 {
		return errAt(t.line, "missing comparison values for EXPECT command")
	}
	ec.Values = vals
	ec.Text = text()
	if err := checkProbeBounds(ec, buf.SizeInBytes()); err != nil {
		return err
	}
	*p.cmds = append(*p.cmds, ec)
	return nil
}

// checkProbeBounds applies amber's ProbeSSBO checks: the values must lie
// inside the buffer, and the offset must be a multiple of the element size.
func checkProbeBounds(ec *ExpectCommand, size int) error {
	f := ec.Format
	elems := (len(ec.Values) + f.Inputs() - 1) / f.Inputs()
	need, ok := checked.MulAdd(elems, f.Stride, ec.Offset)
	if !ok || need > size {
		return errAt(ec.Line, "Verifier::ProbeSSBO request to access to byte %d would read outside buffer of size %d bytes", need, size)
	}
	if f.Stride > 0 && ec.Offset%f.Stride != 0 {
		return errAt(ec.Line, "Verifier::ProbeSSBO given offset (%d) is not multiple of element size (%d)", ec.Offset, f.Stride)
	}
	return nil
}

// expectValues reads the values to the end of the line: float components
// take integers, floats and hex; integer components integers and hex.
func (p *amberParser) expectValues(f *Format) ([]Value, error) {
	var vals []Value
	counted := 0
	for {
		isFloat := f.comp(len(vals)).Kind == Float
		t := p.z.next()
		if t.isEnd() {
			return vals, nil
		}
		ok := t.kind == tokInt || t.kind == tokHex || (isFloat && t.kind == tokDouble)
		if !ok {
			return nil, errAt(t.line, "Invalid value provided to EXPECT command: %s", t.text)
		}
		if err := checkScalar(t, f.comp(len(vals)).Scalar, "Invalid value provided to EXPECT command"); err != nil {
			return nil, err
		}
		if err := p.countValue(t.line, len(vals), &counted); err != nil {
			return nil, err
		}
		vals = append(vals, tokenValue(t, isFloat))
	}
}

// parseTolerances reads tolerance values, each optionally followed by %.
func parseTolerances(z *tokenizer) ([]Tolerance, error) {
	var tols []Tolerance
	for {
		t := z.peek()
		if !t.isNumber() {
			return tols, nil
		}
		z.next()
		f, err := finiteNumber(t, "invalid value for TOLERANCE")
		if err != nil {
			return nil, err
		}
		if n := z.peek(); n.isIdent("%") {
			z.next()
			tols = append(tols, Tolerance{Value: f, Percent: true})
		} else {
			tols = append(tols, Tolerance{Value: f})
		}
	}
}

// parseUint is strconv.ParseUint for small decimal numbers in names.
func parseUint(s string) (uint64, bool) {
	v, err := strconv.ParseUint(s, 10, 32)
	return v, err == nil
}

// lookupType is a STRUCT name or an Amber type name.
func (p *amberParser) lookupType(name string) *Type {
	if s := p.structs[name]; s != nil {
		return &Type{Struct: s, Name: name}
	}
	return ParseType(name)
}

// structDecl reads STRUCT name [STRIDE n] … END: one "type name [OFFSET n]
// [MATRIX_STRIDE n]" member per line.
func (p *amberParser) structDecl(cmd token) error {
	t := p.z.next()
	if t.kind != tokIdent {
		return errAt(t.line, "invalid STRUCT name provided: %s", t.show())
	}
	if t.text == "STRIDE" {
		return errAt(t.line, "missing STRUCT name")
	}
	if p.structs == nil {
		p.structs = map[string]*StructDef{}
	}
	if p.structs[t.text] != nil {
		return errAt(t.line, "duplicate type name provided")
	}
	sd := &StructDef{Name: t.text}
	t = p.z.next()
	if t.kind == tokIdent {
		if t.text != "STRIDE" {
			return errAt(t.line, "invalid token in STRUCT definition: %s", t.show())
		}
		v := p.z.next()
		if v.isEnd() {
			return errAt(v.line, "missing value for STRIDE")
		}
		if v.kind != tokInt || v.u > 1<<20 {
			return errAt(v.line, "invalid value for STRIDE: %s", v.show())
		}
		sd.Stride = int(v.u)
		t = p.z.next()
	}
	if t.kind != tokEOL {
		return errAt(t.line, "extra token %s after STRUCT header", t.show())
	}
	seen := map[string]bool{}
	for {
		t = p.z.next()
		if t.kind == tokEOL {
			continue
		}
		if t.kind != tokIdent {
			return errAt(t.line, "invalid type for STRUCT member: %s", t.show())
		}
		if t.text == "END" {
			break
		}
		if t.text == sd.Name {
			return errAt(t.line, "recursive types are not allowed")
		}
		mt := p.lookupType(t.text)
		if mt == nil {
			return errAt(t.line, "unknown type '%s' for STRUCT member", t.text)
		}
		if mt.Array {
			return unsupAt(t.line, "array STRUCT members are not supported by spvx")
		}
		n := p.z.next()
		if n.kind == tokEOL {
			return errAt(n.line, "missing name for STRUCT member")
		}
		if n.kind != tokIdent {
			return errAt(n.line, "invalid name for STRUCT member: %s", n.show())
		}
		if seen[n.text] {
			return errAt(n.line, "duplicate name for STRUCT member")
		}
		seen[n.text] = true
		m := Member{Name: n.text, Type: mt, Offset: -1}
		for {
			o := p.z.next()
			if o.kind != tokIdent {
				if o.kind != tokEOL {
					return errAt(o.line, "extra param for STRUCT member")
				}
				break
			}
			v := p.z.next()
			switch o.text {
			case "OFFSET", "MATRIX_STRIDE", "ARRAY_STRIDE":
			default:
				return errAt(o.line, "unknown param '%s' for STRUCT member", o.text)
			}
			if v.kind == tokEOL {
				return errAt(v.line, "missing value for STRUCT member %s", o.text)
			}
			if v.kind != tokInt || v.u > 1<<20 {
				return errAt(v.line, "invalid value for STRUCT member %s", o.text)
			}
			switch o.text {
			case "OFFSET":
				m.Offset = int(v.u)
			case "MATRIX_STRIDE":
				if mt.Cols < 2 {
					return errAt(o.line, "MATRIX_STRIDE only valid on matrix members")
				}
				m.MatrixStride = int(v.u)
			default:
				return errAt(o.line, "ARRAY_STRIDE only valid on array members")
			}
		}
		sd.Members = append(sd.Members, m)
	}
	if len(sd.Members) == 0 {
		return errAt(cmd.line, "STRUCT %s has no members", sd.Name)
	}
	sd.finish()
	if sd.depth > maxStructDepth {
		return errAt(cmd.line, "STRUCT %s nests more than %d levels of STRUCT", sd.Name, maxStructDepth)
	}
	if sd.comps > maxStructComponents {
		return errAt(cmd.line, "STRUCT %s has more than %d components", sd.Name, maxStructComponents)
	}
	p.structs[sd.Name] = sd
	return p.endOfStatement("STRUCT command")
}

// virtualFile reads VIRTUAL_FILE path … END: text a SHADER can name with
// VIRTUAL_FILE instead of FILE.
func (p *amberParser) virtualFile(cmd token) error {
	t := p.z.next()
	if t.kind != tokIdent && t.kind != tokString {
		return errAt(t.line, "invalid virtual file path: %s", t.show())
	}
	if err := p.endOfStatement("VIRTUAL_FILE command"); err != nil {
		return err
	}
	body, found := p.z.extractTo("END")
	end := p.z.next()
	if !found || !end.isIdent("END") {
		return errAt(end.line, "VIRTUAL_FILE missing END command")
	}
	if p.vfiles == nil {
		p.vfiles = map[string]string{}
	}
	if _, dup := p.vfiles[t.text]; dup {
		return errAt(t.line, "Virtual file '%s' already declared", t.text)
	}
	p.vfiles[t.text] = body
	return p.endOfStatement("END")
}
