package amber

import (
	"math"
	"strconv"
	"strings"
)

// vkPipelineName names VkScript's one implicit pipeline.
const vkPipelineName = "vk_pipeline"

// vkParser reads VkScript, following amber's src/vkscript: the file is cut
// into [sections] by lines starting with '['; [require], [compute shader
// ...] and [test] are read, [comment] is skipped, and the graphics
// sections make the script unsupported.
type vkParser struct {
	amberParser
	pl    *Pipeline
	tols  []Tolerance
	nbufs int
	// vkSubgroup is a [require] subgroupSize, applied to the shader.
	vkSubgroup int
}

type vkSection struct {
	name  string
	line  int // line of the [header]
	body  string
	first int // line of the body's first line
}

func parseVk(path string, src []byte, opt ParseOptions) (*Script, error) {
	s := newScript(path, VkScript)
	p := &vkParser{amberParser: amberParser{s: s, opt: opt}}
	secs, err := splitSections(string(src))
	if err != nil {
		return nil, fileError(path, err)
	}
	top := []Command{}
	p.cmds = &top
	p.pl = &Pipeline{Name: vkPipelineName, Kind: "compute", Line: 1}
	s.pipelines[p.pl.Name] = p.pl
	s.Pipelines = append(s.Pipelines, p.pl)
	for _, sec := range secs {
		if err := p.section(sec); err != nil {
			p.releaseHeld()
			return nil, fileError(path, err)
		}
	}
	s.Commands = top
	if len(p.pl.Shaders) == 0 {
		p.releaseHeld()
		return nil, fileError(path, errAt(1, "compute pipeline requires a compute shader"))
	}
	p.handOver()
	if p.vkSubgroup > 0 {
		p.pl.Shaders[0].RequiredSubgroupSize = p.vkSubgroup
	}
	return s, nil
}

func splitSections(src string) ([]vkSection, error) {
	var secs []vkSection
	var cur *vkSection
	var body strings.Builder
	lines := strings.SplitAfter(src, "\n")
	flush := func() {
		if cur != nil {
			cur.body = strings.TrimRight(body.String(), "\r\n")
			secs = append(secs, *cur)
		}
		body.Reset()
	}
	for i, l := range lines {
		n := i + 1
		line := strings.TrimSuffix(l, "\n")
		if cur == nil {
			if line == "" || line == "\r" || line[0] == '#' {
				continue
			}
			if line[0] != '[' {
				return nil, errAt(n, "Invalid character")
			}
		}
		if line != "" && line[0] == '[' {
			flush()
			end := strings.LastIndexByte(line, ']')
			if end < 0 {
				return nil, errAt(n, "Missing section close")
			}
			cur = &vkSection{name: line[1:end], line: n, first: n + 1}
			continue
		}
		body.WriteString(line)
		body.WriteByte('\n')
	}
	flush()
	return secs, nil
}

func (p *vkParser) section(sec vkSection) error {
	name := sec.name
	format := ""
	switch {
	case strings.HasSuffix(name, " spirv hex"):
		format, name = "hex", strings.TrimSuffix(name, " spirv hex")
	case strings.HasSuffix(name, " spirv"):
		format, name = "spirv", strings.TrimSuffix(name, " spirv")
	case strings.HasSuffix(name, " passthrough"):
		format, name = "passthrough", strings.TrimSuffix(name, " passthrough")
	}
	switch name {
	case "comment":
		return nil
	case "require":
		return p.require(sec)
	case "test":
		return p.test(sec)
	case "compute shader":
		sh := &Shader{Name: "vk_shader_" + strconv.Itoa(len(p.s.Shaders)), Stage: "compute",
			Source: []byte(sec.body), Line: sec.line}
		switch format {
		case "":
			sh.Format = FormatGLSL
		case "spirv":
			sh.Format = FormatSPIRVAsm
		case "hex":
			sh.Format = FormatSPIRVHex
		default:
			return errAt(sec.line, "Invalid source format: %s", sec.name)
		}
		if len(p.pl.Shaders) > 0 {
			return errAt(sec.line, "only one compute shader allowed in a VkScript compute pipeline")
		}
		if err := p.addShader(sh, sec.line); err != nil {
			return err
		}
		p.pl.Shaders = append(p.pl.Shaders, &Attachment{Shader: sh, Entry: "main", Line: sec.line})
		return nil
	case "indices", "vertex data", "vertex shader", "fragment shader", "geometry shader",
		"tessellation control shader", "tessellation evaluation shader":
		if format != "" && (name == "indices" || name == "vertex data") {
			return errAt(sec.line, "Invalid source format: %s", sec.name)
		}
		return unsupAt(sec.line, "[%s] is not supported by spvx (compute only)", sec.name)
	}
	return errAt(sec.line, "Invalid name: %s", sec.name)
}

func (p *vkParser) require(sec vkSection) error {
	z := newTokenizer(sec.body, sec.first)
	for {
		t := z.next()
		if t.kind == tokEOS {
			return nil
		}
		if t.kind == tokEOL {
			continue
		}
		if t.kind != tokIdent {
			return errAt(t.line, "Invalid token in requirements block: %s", t.text)
		}
		switch s := t.text; {
		case knownFeature(s):
			p.s.Requires = append(p.s.Requires, Requirement{Kind: "feature", Name: s, Line: t.line})
		case s == "framebuffer" || s == "depthstencil":
			f := z.next()
			if f.kind != tokIdent {
				return errAt(f.line, "Missing %s format", s)
			}
			p.s.Notes = append(p.s.Notes, "line "+strconv.Itoa(t.line)+": [require] "+s+" ignored (compute only)")
		case s == "fence_timeout":
			v := z.next()
			ms, err := uintField(v, "Missing fence_timeout value")
			if err != nil {
				return err
			}
			p.s.EngineData["fence_timeout_ms"] = ms
		case s == "fbsize":
			for i, what := range []string{"width", "height"} {
				v := z.next()
				if v.isEnd() {
					if i == 0 {
						return errAt(v.line, "Missing width and height for fbsize command")
					}
					return errAt(v.line, "Missing height for fbsize command")
				}
				if _, err := uintField(v, "Invalid "+what+" for fbsize command"); err != nil {
					return err
				}
			}
			p.s.Notes = append(p.s.Notes, "line "+strconv.Itoa(t.line)+": [require] fbsize ignored (compute only)")
		case s == "subgroupSize" || s == "subgroup_size":
			v := z.next()
			n, _ := v.uintUpTo(128)
			if n == 0 || n&(n-1) != 0 || n > 128 {
				return errAt(v.line, "invalid size for %s: %s (must be a power of two from 1 to 128)", s, v.show())
			}
			p.vkSubgroup = int(n)
		default:
			for _, c := range s {
				if !(c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
					return errAt(t.line, "Unknown feature or extension: %s", s)
				}
			}
			p.s.Requires = append(p.s.Requires, Requirement{Kind: "extension", Name: s, Line: t.line})
		}
		t = z.next()
		if !t.isEnd() {
			return errAt(t.line, "Failed to parse requirements block: invalid token: %s", t.text)
		}
	}
}

// vkDatumType reads VkScript's data type names (int, uint, int8_t …,
// float, double, [iu8|16|64|d]vecN, [d]matCxR), as amber's
// DatumTypeParser does.
func vkDatumType(s string) *Type {
	sc := map[string]Scalar{
		"int": {Int, 32}, "uint": {Uint, 32}, "int8_t": {Int, 8}, "uint8_t": {Uint, 8},
		"int16_t": {Int, 16}, "uint16_t": {Uint, 16}, "int64_t": {Int, 64}, "uint64_t": {Uint, 64},
		"float": {Float, 32}, "double": {Float, 64},
	}
	if v, ok := sc[s]; ok {
		return &Type{Scalar: v, Rows: 1, Cols: 1, Name: s}
	}
	t := &Type{Scalar: Scalar{Float, 32}, Rows: 4, Cols: 1, Name: s}
	if i := strings.Index(s, "vec"); i >= 0 {
		prefix := s[:i]
		switch prefix {
		case "":
		case "d":
			t.Bits = 64
		case "i", "u", "i8", "u8", "i16", "u16", "i64", "u64":
			t.Kind = Int
			if prefix[0] == 'u' {
				t.Kind = Uint
			}
			t.Bits = 32
			if len(prefix) > 1 {
				t.Bits, _ = strconv.Atoi(prefix[1:])
			}
		default:
			return nil
		}
		rest := s[i+3:]
		if rest != "" {
			if len(rest) != 1 || rest[0] < '2' || rest[0] > '4' {
				return nil
			}
			t.Rows = int(rest[0] - '0')
		}
		return t
	}
	i := strings.Index(s, "mat")
	if i < 0 || (s[:i] != "" && s[:i] != "d") {
		return nil
	}
	if s[:i] == "d" {
		t.Bits = 64
	}
	rest := s[i+3:]
	switch {
	case rest == "":
		t.Cols, t.Rows = 4, 4
	case len(rest) == 1 && rest[0] >= '2' && rest[0] <= '4':
		t.Cols = int(rest[0] - '0')
		t.Rows = t.Cols
	case len(rest) == 3 && rest[1] == 'x' && rest[0] >= '2' && rest[0] <= '4' && rest[2] >= '2' && rest[2] <= '4':
		t.Cols, t.Rows = int(rest[0]-'0'), int(rest[2]-'0')
	default:
		return nil
	}
	return t
}

// binding reads "B" or "S:B".
func vkBinding(z *tokenizer, what string) (set, binding uint32, err error) {
	t := z.next()
	if t.isEnd() {
		return 0, 0, errAt(t.line, "Missing binding and size values for %s command", what)
	}
	first, err := uintField(t, "Invalid binding value for "+what+" command")
	if err != nil {
		return 0, 0, err
	}
	n := z.peek()
	if n.kind == tokIdent && len(n.text) >= 2 && n.text[0] == ':' {
		z.next()
		b, ok := parseUint(n.text[1:])
		if !ok {
			return 0, 0, errAt(n.line, "binding value too large in %s command", what)
		}
		return first, uint32(b), nil
	}
	return 0, first, nil
}

// vkBuffer returns the buffer bound at set:binding, creating it (with
// amber's default byte format) on first use.
func (p *vkParser) vkBuffer(set, binding uint32, kind BufferKind, line int) *Buffer {
	if bb := p.pl.binding(set, binding); bb != nil {
		return bb.Buffers[0]
	}
	b := &Buffer{Name: "AutoBuf-" + strconv.Itoa(p.nbufs), Format: NewFormat(&Type{Scalar: Scalar{Int, 8}, Rows: 1, Cols: 1}, Std430),
		formatDefault: true, Line: line}
	p.nbufs++
	p.s.buffers[b.Name] = b
	p.s.Buffers = append(p.s.Buffers, b)
	p.pl.Bindings = append(p.pl.Bindings, &BufferBinding{Buffers: []*Buffer{b}, Kind: kind, Set: set, Binding: binding,
		DynamicOffsets: []uint64{0}, DescriptorOffsets: []uint64{0}, DescriptorRanges: []int64{-1}, Line: line})
	return b
}

func (p *vkParser) test(sec vkSection) error {
	z := newTokenizer(sec.body, sec.first)
	p.z = z
	for {
		t := z.next()
		if t.kind == tokEOS {
			return nil
		}
		if t.kind == tokEOL {
			continue
		}
		if t.kind != tokIdent {
			return errAt(t.line, "Command not recognized. Received something other then a string: %s", t.text)
		}
		var err error
		switch t.text {
		case "ssbo":
			err = p.ssbo(t)
		case "uniform":
			err = p.uniform(t)
		case "compute":
			err = p.compute(t)
		case "probe":
			n := z.peek()
			if n.isIdent("ssbo") {
				z.next()
				err = p.probeSSBO(t)
			} else {
				err = unsupAt(t.line, "probe %s is not supported by spvx (framebuffer probes need graphics)", n.show())
			}
		case "relative":
			err = unsupAt(t.line, "relative probe is not supported by spvx (framebuffer probes need graphics)")
		case "tolerance":
			err = p.tolerance(t)
		case "draw", "clear", "patch":
			err = unsupAt(t.line, "%s is not supported by spvx (graphics only)", t.text)
		case "vertex", "fragment", "geometry", "tessellation":
			err = unsupAt(t.line, "%s entrypoint is not supported by spvx (graphics only)", t.text)
		default:
			if vkPipelineCommands[t.text] {
				err = unsupAt(t.line, "%s is not supported by spvx (graphics pipeline state)", t.text)
			} else {
				err = errAt(t.line, "Unknown command: %s", t.text)
			}
		}
		if err != nil {
			return err
		}
	}
}

var vkPipelineCommands = map[string]bool{}

func init() {
	for _, s := range strings.Fields(`primitiveRestartEnable depthClampEnable rasterizerDiscardEnable
		depthBiasEnable logicOpEnable blendEnable depthTestEnable depthWriteEnable depthBoundsTestEnable
		stencilTestEnable topology polygonMode logicOp frontFace cullMode depthBiasConstantFactor
		depthBiasClamp depthBiasSlopeFactor lineWidth minDepthBounds maxDepthBounds srcColorBlendFactor
		dstColorBlendFactor srcAlphaBlendFactor dstAlphaBlendFactor colorBlendOp alphaBlendOp
		depthCompareOp front.compareOp back.compareOp front.failOp front.passOp front.depthFailOp
		back.failOp back.passOp back.depthFailOp front.compareMask front.writeMask back.compareMask
		back.writeMask front.reference back.reference colorWriteMask`) {
		vkPipelineCommands[s] = true
	}
}

func (p *vkParser) compute(cmd token) error {
	z := p.z
	t := z.next()
	if t.isIdent("entrypoint") {
		e := z.next()
		if e.isEnd() {
			return errAt(e.line, "Missing entrypoint name")
		}
		if e.kind != tokIdent {
			return errAt(e.line, "Entrypoint name must be a string: %s", e.text)
		}
		*p.cmds = append(*p.cmds, &EntryPointCommand{Pipeline: p.pl, Entry: e.text, Line: cmd.line})
		if n := z.next(); !n.isEnd() {
			return errAt(n.line, "Extra parameter for entrypoint command: %s", n.text)
		}
		return nil
	}
	rc := &RunCommand{Pipeline: p.pl, Line: cmd.line}
	for i, axis := range []string{"X", "Y", "Z"} {
		if i > 0 {
			t = z.next()
		}
		var err error
		if rc.Groups[i], err = uintField(t, "Missing integer value for compute "+axis+" entry"); err != nil {
			return err
		}
	}
	if n := z.next(); !n.isEnd() {
		return errAt(n.line, "Extra parameter to compute command: %s", n.text)
	}
	*p.cmds = append(*p.cmds, rc)
	return nil
}

// vkValues reads the values to the end of the line; their count must be a
// non-zero multiple of the type's row count.
func (p *vkParser) vkValues(name string, f *Format) ([]Value, error) {
	var vals []Value
	counted := 0
	isFloat := f.IsFloat()
	line := 0
	for {
		t := p.z.next()
		if line == 0 {
			line = t.line
		}
		if t.isEnd() {
			break
		}
		if isFloat {
			if !t.isNumber() {
				return nil, errAt(t.line, "Invalid value provided to %s command: %s", name, t.text)
			}
		} else if t.kind != tokInt {
			return nil, errAt(t.line, "Invalid value provided to %s command: %s", name, t.text)
		}
		if err := checkScalar(t, f.comp(len(vals)).Scalar, "Invalid value provided to "+name+" command"); err != nil {
			return nil, err
		}
		if err := p.countValue(t.line, len(vals), &counted); err != nil {
			return nil, err
		}
		vals = append(vals, tokenValue(t, isFloat))
	}
	if len(vals) == 0 || len(vals)%f.Type.Rows != 0 {
		return nil, errAt(line, "Incorrect number of values provided to %s command", name)
	}
	return vals, nil
}

// setFormat gives a VkScript buffer its type on first typed use, or checks
// that a later use agrees.
func setFormat(b *Buffer, f *Format, line int, what string) error {
	if b.formatDefault {
		b.Format = f
		b.formatDefault = false
		return nil
	}
	if !b.Format.Equal(f) {
		return errAt(line, "%s format does not match buffer format", what)
	}
	return nil
}

func (p *vkParser) ssbo(cmd token) error {
	z := p.z
	set, binding, err := vkBinding(z, "ssbo")
	if err != nil {
		return err
	}
	b := p.vkBuffer(set, binding, BindStorage, cmd.line)
	t := z.next()
	if t.isIdent("subdata") {
		ty := z.next()
		if ty.kind != tokIdent {
			return errAt(ty.line, "Invalid type for ssbo command: %s", ty.show())
		}
		typ := vkDatumType(ty.text)
		if typ == nil {
			return errAt(ty.line, "Invalid type provided: %s", ty.text)
		}
		if err := setFormat(b, NewFormat(typ, Std430), ty.line, "probe ssbo"); err != nil {
			return err
		}
		off := z.next()
		if off.kind != tokInt {
			return errAt(off.line, "Invalid offset for ssbo command: %s", off.show())
		}
		if off.neg && off.u != 0 {
			return errAt(off.line, "offset for SSBO must be positive, got: %s", off.text)
		}
		if _, ok := off.uintUpTo(math.MaxInt32); !ok {
			return outOfRange(off, "Invalid offset for ssbo command", "int32")
		}
		if uint32(off.u)%uint32(b.Format.Stride) != 0 {
			return errAt(off.line, "offset for SSBO must be a multiple of the data size expected %d", b.Format.Stride)
		}
		vals, err := p.vkValues("ssbo", b.Format)
		if err != nil {
			return err
		}
		if err := p.declare(cmd.line, len(vals)/b.Format.Inputs()*b.Format.Stride+int(uint32(off.u))); err != nil {
			return err
		}
		b.grow(int(uint32(off.u)) + (len(vals)+b.Format.Inputs()-1)/b.Format.Inputs()*b.Format.Stride)
		*p.cmds = append(*p.cmds, &BufferCommand{Buffer: b, Format: b.Format, Offset: int(uint32(off.u)), Values: vals, Line: cmd.line})
		return nil
	}
	if t.isEnd() {
		return errAt(t.line, "Missing size value for ssbo command: %s", t.show())
	}
	size, err := uintField(t, "Invalid size value for ssbo command")
	if err != nil {
		return err
	}
	n := int(size)
	if err := p.declare(t.line, n); err != nil {
		return err
	}
	if n := z.next(); !n.isEnd() {
		return errAt(n.line, "Extra parameter for ssbo command: %s", n.text)
	}
	b.Elements = n // amber sets the count when it parses the command
	*p.cmds = append(*p.cmds, &BufferCommand{Buffer: b, Size: n, Line: cmd.line})
	return nil
}

func (p *vkParser) uniform(cmd token) error {
	z := p.z
	t := z.next()
	if t.isEnd() {
		return errAt(t.line, "Missing binding and size values for uniform command: %s", t.show())
	}
	if t.kind != tokIdent {
		return errAt(t.line, "Invalid type value for uniform command: %s", t.text)
	}
	var b *Buffer
	push := t.text != "ubo"
	if !push {
		set, binding, err := vkBinding(z, "uniform ubo")
		if err != nil {
			return err
		}
		b = p.vkBuffer(set, binding, BindUniform, cmd.line)
		t = z.next()
		if t.kind != tokIdent {
			return errAt(t.line, "Invalid type value for uniform ubo command: %s", t.show())
		}
	}
	typ := vkDatumType(t.text)
	if typ == nil {
		return errAt(t.line, "Invalid type provided: %s", t.text)
	}
	layout := Std430
	if !push {
		layout = Std140 // uniform buffers are always std140
	}
	f := NewFormat(typ, layout)
	if push {
		if p.pl.PushConst == nil {
			p.pl.PushConst = &Buffer{Name: "AutoBuf-push", Format: f, Line: cmd.line}
			p.pl.Bindings = append(p.pl.Bindings, &BufferBinding{Buffers: []*Buffer{p.pl.PushConst}, Kind: BindPushConstant, Line: cmd.line})
		}
		b = p.pl.PushConst
	} else if err := setFormat(b, f, t.line, "probe ssbo"); err != nil {
		return err
	}
	off := z.next()
	if off.kind != tokInt {
		return errAt(off.line, "Invalid offset value for uniform command: %s", off.show())
	}
	if off.neg && off.u != 0 {
		return errAt(off.line, "offset for uniform must be positive, got: %s", off.text)
	}
	if _, ok := off.uintUpTo(math.MaxInt32); !ok {
		return outOfRange(off, "Invalid offset value for uniform command", "int32")
	}
	if uint32(off.u)%uint32(f.Stride) != 0 {
		return errAt(off.line, "offset for uniform must be multiple of data size: %s", off.show())
	}
	vals, err := p.vkValues("uniform", f)
	if err != nil {
		return err
	}
	if err := p.declare(cmd.line, len(vals)/f.Inputs()*f.Stride+int(uint32(off.u))); err != nil {
		return err
	}
	if !push {
		b.grow(int(uint32(off.u)) + (len(vals)+f.Inputs()-1)/f.Inputs()*f.Stride)
	}
	*p.cmds = append(*p.cmds, &BufferCommand{Buffer: b, Format: f, Offset: int(uint32(off.u)), Values: vals, Push: push, Line: cmd.line})
	return nil
}

func (p *vkParser) tolerance(cmd token) error {
	z := p.z
	p.tols = nil
	t := z.next()
	for !t.isEnd() && len(p.tols) < 4 {
		if t.isIdent(",") {
			t = z.next()
			continue
		}
		if !t.isNumber() {
			return errAt(t.line, "Invalid value for tolerance command: %s", t.text)
		}
		v, err := finiteNumber(t, "Invalid value for tolerance command")
		if err != nil {
			return err
		}
		t = z.next()
		if t.kind == tokIdent && t.text != "," {
			if t.text != "%" {
				return errAt(t.line, "Invalid value for tolerance command: %s", t.text)
			}
			p.tols = append(p.tols, Tolerance{Value: v, Percent: true})
			t = z.next()
		} else {
			p.tols = append(p.tols, Tolerance{Value: v})
		}
	}
	if len(p.tols) == 0 {
		return errAt(cmd.line, "Missing value for tolerance command")
	}
	if len(p.tols) != 1 && len(p.tols) != 4 {
		return errAt(cmd.line, "Invalid number of tolerance parameters provided")
	}
	if !t.isEnd() {
		return errAt(t.line, "Extra parameter for tolerance command: %s", t.text)
	}
	return nil
}

var vkComparators = map[string]Comparator{"==": EQ, "!=": NE, "~=": FuzzyEQ, "<": LT, "<=": LE, ">": GT, ">=": GE}

func (p *vkParser) probeSSBO(cmd token) error {
	z := p.z
	start := z.pos
	t := z.next()
	if t.isEnd() {
		return errAt(t.line, "Missing values for probe ssbo command")
	}
	if t.kind != tokIdent {
		return errAt(t.line, "Invalid type for probe ssbo command: %s", t.text)
	}
	typ := vkDatumType(t.text)
	if typ == nil {
		return errAt(t.line, "Invalid type provided: %s", t.text)
	}
	set, binding, err := vkBinding(z, "probe ssbo")
	if err != nil {
		return err
	}
	bb := p.pl.binding(set, binding)
	if bb == nil {
		return errAt(cmd.line, "unable to find buffer at descriptor set %d and binding %d", set, binding)
	}
	b := bb.Buffers[0]
	f := NewFormat(typ, Std430)
	if err := setFormat(b, f, cmd.line, "probe"); err != nil {
		return err
	}
	off := z.next()
	offset, err := uintField(off, "Invalid offset for probe ssbo command")
	if err != nil {
		return err
	}
	c := z.next()
	if c.kind != tokIdent {
		return errAt(c.line, "Invalid comparator for probe ssbo command: %s", c.show())
	}
	cmp, ok := vkComparators[c.text]
	if !ok {
		return errAt(c.line, "Invalid comparator: %s", c.text)
	}
	vals, err := p.vkValues("probe ssbo", f)
	if err != nil {
		return err
	}
	text := "probe ssbo " + strings.Join(strings.Fields(z.s[start:z.pos]), " ")
	ec := &ExpectCommand{Buffer: b, Format: f, Offset: int(offset), Comparator: cmp,
		Tolerances: p.tols, Values: vals, Text: text, Line: cmd.line, vk: true}
	*p.cmds = append(*p.cmds, ec)
	return nil
}

// grow raises a VkScript buffer's device size to hold n bytes (amber's
// RecalculateMaxSizeInBytes).
func (b *Buffer) grow(n int) {
	if n > b.MaxSize {
		b.MaxSize = n
	}
}
