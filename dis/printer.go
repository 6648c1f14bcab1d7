package dis

import (
	"io"

	"spvx/spirv"
)

// ANSI escapes, as SPIRV-Tools' clr:: manipulators write them.
const (
	clrReset  = "\x1b[0m"
	clrGrey   = "\x1b[1;30m"
	clrRed    = "\x1b[31m"
	clrGreen  = "\x1b[32m"
	clrYellow = "\x1b[33m"
	clrBlue   = "\x1b[34m"
)

// Layout constants of spirv-dis's text.
const (
	standardIndent  = 15  // column of the opcode; "%id = " ends here
	blockNestIndent = 2   // --nested-indent: per nesting level
	blockBodyIndent = 2   // --nested-indent: instructions within a block
	commentColumn   = 50  // --comment/--offsets: minimum comment column
	maxCarriedAlign = 256 // --comment/--offsets: most a column carries over
)

const spaces = "                                                                " // 64

func appendSpaces(b []byte, n int) []byte {
	for n > 0 {
		k := min(n, len(spaces))
		b = append(b, spaces[:k]...)
		n -= k
	}
	return b
}

// printer writes the text of one module.
type printer struct {
	b      []byte
	m      *spirv.Module // the module, when printing a decoded one
	header spirv.Header
	opt    Options
	nm     *namer
	indent int // standardIndent, or 0 with NoIndent

	// --comment and --offsets state.
	comments   []byte            // comments of the current line
	lastAlign  int               // comment column of the previous line, 0 if it had none
	idComments map[uint32][]byte // --comment: decorations, by target id
	sectDecor  bool              // section headings already printed
	sectDebug  bool
	sectTypes  bool

	// --nested-indent / --reorder-blocks: the blocks of the current function.
	cfg cfg

	// Fprint: the text goes to w in chunks of about flushSize bytes.
	w   io.Writer
	err error // the first write error
}

// flushSize is the chunk size of Fprint: large enough that writes are few,
// small enough to stay in cache and not to need a buffer for the whole text.
const flushSize = 128 << 10

// flush writes the text so far to p.w.
func (p *printer) flush() {
	if p.err == nil && len(p.b) > 0 {
		_, p.err = p.w.Write(p.b)
	}
	p.b = p.b[:0]
}

func newPrinter(dst []byte, w io.Writer, h spirv.Header, nwords int, opt Options) *printer {
	p := &printer{b: dst, w: w, header: h, opt: opt, indent: standardIndent}
	if opt.NoIndent {
		p.indent = 0
	}
	switch {
	case w != nil:
		p.b = make([]byte, 0, flushSize+64<<10)
	case p.b == nil:
		// The text is about three times the binary's size; growing a
		// buffer of that size by doubling would copy it several times.
		p.b = make([]byte, 0, nwords*4*3+256)
	}
	return p
}

// printModule prints a decoded module.
func printModule(dst []byte, w io.Writer, m *spirv.Module, opt Options) *printer {
	nwords := m.Size()
	p := newPrinter(dst, w, m.Header, nwords, opt)
	p.m = m
	p.nm = computeNames(m, nwords, opt.RawID)
	p.module()
	return p
}

func (p *printer) module() {
	if !p.opt.NoHeader {
		p.printHeader()
	}
	deferBlocks := p.opt.NestedIndent || p.opt.ReorderBlocks
	for i := range p.m.Len() {
		inst := p.m.Inst(i)
		in := &inst
		if p.opt.Comment {
			p.sectionComment(in)
		}
		if !deferBlocks {
			p.inst(in, false, 0)
			continue
		}
		// As spirv-dis, hold a function's blocks until its end, when the
		// control flow that decides their order and nesting is known.
		switch in.Opcode {
		case spirv.OpLabel:
			p.cfg.open(i)
			continue
		case spirv.OpFunctionEnd:
			p.flushBlocks(i)
		}
		if !p.cfg.pending() {
			p.inst(in, false, 0)
		}
	}
	// A module cut short inside a function: print what was held back rather
	// than drop it (spirv-dis would print nothing of it).
	p.flushBlocks(p.m.Len())
}

func (p *printer) printHeader() {
	h := &p.header
	b := append(p.b, "; SPIR-V\n; Version: "...)
	b = appendUint(b, uint64(h.Version>>16&0xFF))
	b = append(b, '.')
	b = appendUint(b, uint64(h.Version>>8&0xFF))
	b = append(b, "\n; Generator: "...)
	b = appendGenerator(b, h.Generator)
	b = append(b, "\n; Bound: "...)
	b = appendUint(b, uint64(h.Bound))
	b = append(b, "\n; Schema: "...)
	b = appendUint(b, uint64(h.Schema))
	p.b = append(b, '\n')
}

// sectionComment prints --comment's headings: before each function, and
// before the first decoration, debug and type instruction.
func (p *printer) sectionComment(in *spirv.Instruction) {
	op := in.Opcode
	if op == spirv.OpFunction {
		p.b = append(p.b, '\n')
		if p.opt.NestedIndent {
			p.b = append(p.b, '\n') // blocks are already separated by a blank line
		}
		p.b = appendSpaces(p.b, p.indent)
		p.b = append(p.b, "; Function "...)
		p.b = p.appendIDName(p.b, in.ResultID)
		p.b = append(p.b, '\n')
	}
	if !p.sectDecor && isDecoration(op) {
		p.sectDecor = true
		p.heading("; Annotations\n")
	}
	if !p.sectDebug && isDebug(op) {
		p.sectDebug = true
		p.heading("; Debug Information\n")
	}
	if !p.sectTypes && spirv.DeclaresType(op) {
		p.sectTypes = true
		p.heading("; Types, variables and constants\n")
	}
}

func (p *printer) heading(s string) {
	p.b = append(p.b, '\n')
	p.b = appendSpaces(p.b, p.indent)
	p.b = append(p.b, s...)
}

func isDecoration(op spirv.Opcode) bool {
	switch op {
	case spirv.OpDecorate, spirv.OpDecorateId, spirv.OpMemberDecorate, spirv.OpGroupDecorate,
		spirv.OpGroupMemberDecorate, spirv.OpDecorateString, spirv.OpMemberDecorateString:
		return true
	}
	return false
}

func isDebug(op spirv.Opcode) bool {
	switch op {
	case spirv.OpName, spirv.OpMemberName, spirv.OpSource, spirv.OpSourceContinued,
		spirv.OpSourceExtension, spirv.OpString, spirv.OpLine, spirv.OpNoLine, spirv.OpModuleProcessed:
		return true
	}
	return false
}

// appendIDName appends the name of id (its number with RawID).
func (p *printer) appendIDName(b []byte, id uint32) []byte {
	return p.nm.appendName(b, id)
}

// inst prints one instruction line. inBlock and nest are the block
// placement under --nested-indent.
func (p *printer) inst(in *spirv.Instruction, inBlock bool, nest int) {
	if p.w != nil && len(p.b) >= flushSize {
		p.flush()
	}
	if p.err != nil {
		return // w failed: the rest of the text would be thrown away
	}
	op := in.Opcode
	color := p.opt.Color
	b := p.b
	if p.opt.NestedIndent && op == spirv.OpLabel {
		b = append(b, '\n') // a blank line between blocks
	}
	line := len(b)
	if in.ResultID != 0 {
		if color {
			b = append(b, clrBlue...)
		}
		if p.indent > 0 {
			// spirv-dis right-aligns "%name" so that " = " ends at the
			// opcode column; a longer name pushes the opcode right.
			b = appendSpaces(b, p.indent-3-p.nm.nameLen(in.ResultID)-1)
		}
		b = append(b, '%')
		b = p.nm.appendName(b, in.ResultID)
		if color {
			b = append(b, clrReset...)
		}
		b = append(b, " = "...)
	} else {
		b = appendSpaces(b, p.indent)
	}
	if p.opt.NestedIndent && inBlock {
		n := nest * blockNestIndent
		if op != spirv.OpLabel {
			n += blockBodyIndent
		}
		b = appendSpaces(b, n)
	}
	info := op.Info()
	b = append(b, info.Name...)
	ops := in.Operands
	for i := range ops {
		if ops[i].Kind == spirv.OperandKindIdResult {
			continue
		}
		b = append(b, ' ')
		b = p.operand(b, in, i)
		if ops[i].Kind == spirv.OperandKindLiteralExtInstInteger && opaqueExtSet(in.ExtSet) {
			// SPIRV-Tools does not know this NonSemantic set: it prints the
			// instruction number, then every remaining word as an id.
			for _, w := range in.Words[ops[i].Offset+1:] {
				b = append(b, ' ')
				b = p.appendID(b, w)
			}
			break
		}
	}
	p.b = b
	if p.opt.Comment || p.opt.Offsets {
		p.lineComments(in, line)
	}
	p.b = append(p.b, '\n')
}

// lineComments adds the trailing comment of the line that starts at
// p.b[line:]: the byte offset (--offsets), the target id of OpName and the
// decorations of the result id (--comment).
func (p *printer) lineComments(in *spirv.Instruction, line int) {
	if p.opt.Comment && in.Opcode == spirv.OpDecorate {
		p.noteDecoration(in)
	}
	c := p.comments[:0]
	sep := false
	if p.opt.Offsets {
		if p.opt.Color {
			c = append(c, clrGrey...)
		}
		c = append(c, "0x"...)
		c = appendHex8(c, uint32(in.Offset)*4)
		if p.opt.Color {
			c = append(c, clrReset...)
		}
		sep = true
	}
	if p.opt.Comment && in.Opcode == spirv.OpName && len(in.Words) > 1 {
		if sep {
			c = append(c, ", "...)
		}
		c = append(c, "id %"...)
		c = appendUint(c, uint64(in.Words[1]))
		sep = true
	}
	if p.opt.Comment && in.ResultID != 0 {
		if dc, ok := p.idComments[in.ResultID]; ok {
			if sep {
				c = append(c, ", "...)
			}
			c = append(c, dc...)
			// Printed once: a module that defines an id twice (which
			// spirv-dis rejects) must not repeat all its decorations on
			// every definition, output quadratic in the input.
			delete(p.idComments, in.ResultID)
		}
	}
	p.comments = c
	if len(c) == 0 {
		p.lastAlign = 0
		return
	}
	n := visibleLen(p.b[line:])
	align := max(n+2, p.lastAlign, commentColumn)
	align = (align + 3) &^ 3 // a multiple of 4, as spirv-dis
	// The column carried to the next line is at most 256 (SPIRV-Tools
	// #6149, 2025-06): before that one long line (a 64 KiB OpName) pushed
	// the comments of every following line as far, quadratic output.
	p.lastAlign = min(align, maxCarriedAlign)
	p.b = appendSpaces(p.b, align-n)
	p.b = append(p.b, "; "...)
	p.b = append(p.b, c...)
}

// noteDecoration records, for --comment, the text of an OpDecorate after
// its target, to be shown on the target's definition.
func (p *printer) noteDecoration(in *spirv.Instruction) {
	if len(in.Operands) == 0 {
		return
	}
	id := in.Words[in.Operands[0].Offset]
	if id == 0 {
		return
	}
	if p.idComments == nil {
		p.idComments = make(map[uint32][]byte)
	}
	c := p.idComments[id]
	if len(c) > 0 {
		c = append(c, ", "...)
	}
	for i := 1; i < len(in.Operands); i++ {
		if i > 1 {
			c = append(c, ' ')
		}
		c = p.operand(c, in, i)
	}
	p.idComments[id] = c
}

// visibleLen is the length of a line without its color escapes.
func visibleLen(b []byte) int {
	n := 0
	for i := 0; i < len(b); i++ {
		if b[i] == 0x1b {
			for i < len(b) && b[i] != 'm' {
				i++
			}
			continue
		}
		n++
	}
	return n
}

func appendHex8(b []byte, v uint32) []byte {
	for s := 28; s >= 0; s -= 4 {
		b = append(b, "0123456789abcdef"[v>>uint(s)&0xF])
	}
	return b
}

// operand appends operand i of in.
func (p *printer) operand(b []byte, in *spirv.Instruction, i int) []byte {
	o := &in.Operands[i]
	w := in.Words[o.Offset]
	color := p.opt.Color
	switch o.Kind {
	case spirv.OperandKindIdRef, spirv.OperandKindIdResultType, spirv.OperandKindIdScope,
		spirv.OperandKindIdMemorySemantics, spirv.OperandKindIdResult:
		return p.appendID(b, w)
	case spirv.OperandKindLiteralInteger, spirv.OperandKindLiteralContextDependentNumber,
		spirv.OperandKindLiteralFloat:
		if color {
			b = append(b, clrRed...)
		}
		switch {
		case o.Number.Kind != spirv.NotNumber:
			b = appendNumber(b, in.Words[o.Offset:int(o.Offset)+int(o.Count)], o.Number)
		case o.Kind == spirv.OperandKindLiteralFloat:
			b = appendNumber(b, in.Words[o.Offset:o.Offset+1], spirv.NumberType{Kind: spirv.Float, Width: 32})
		default:
			b = appendUint(b, uint64(w))
		}
		if color {
			b = append(b, clrReset...) // spirv-dis resets here and again below
		}
	case spirv.OperandKindLiteralString:
		b = append(b, '"')
		if color {
			b = append(b, clrGreen...)
		}
		b = appendEscaped(b, in.Words[o.Offset:int(o.Offset)+int(o.Count)])
		if color {
			b = append(b, clrReset...)
		}
		b = append(b, '"')
	case spirv.OperandKindLiteralExtInstInteger:
		if color {
			b = append(b, clrRed...)
		}
		if !opaqueExtSet(in.ExtSet) {
			if e, ok := in.ExtSet.Instruction(w); ok {
				b = append(b, e.Name...)
				break
			}
		}
		b = appendUint(b, uint64(w)) // an unknown NonSemantic set: the number
	case spirv.OperandKindLiteralSpecConstantOpInteger:
		if color {
			b = append(b, clrRed...)
		}
		if info := spirv.Opcode(w).Info(); info != nil {
			b = append(b, info.Name[2:]...) // without "Op"
		} else {
			b = appendUint(b, uint64(w))
		}
	default:
		b = appendEnum(b, o.Kind, w)
	}
	if color {
		b = append(b, clrReset...)
	}
	return b
}

// appendEnum appends an enumerant operand: the name of a value, or the
// names of a mask's set bits from the lowest, joined by '|' (the name of
// value 0, usually "None", for an empty mask).
func appendEnum(b []byte, k spirv.OperandKind, w uint32) []byte {
	info := k.Info()
	if info == nil {
		return appendUint(b, uint64(w))
	}
	if info.Category != spirv.CategoryBitEnum {
		if e, ok := k.Enumerant(w); ok {
			return append(b, e.Name...)
		}
		return appendUint(b, uint64(w))
	}
	if w == 0 {
		if e, ok := k.Enumerant(0); ok {
			b = append(b, e.Name...)
		}
		return b
	}
	first := true
	for rest := w; rest != 0; rest &= rest - 1 {
		bit := rest & -rest
		if !first {
			b = append(b, '|')
		}
		first = false
		if e, ok := k.Enumerant(bit); ok {
			b = append(b, e.Name...)
		} else {
			b = appendUint(b, uint64(bit))
		}
	}
	return b
}

// appendEscaped appends a string literal's bytes, with '"' and '\'
// escaped by a backslash.
func appendEscaped(b []byte, words []uint32) []byte {
	start := len(b)
	b = spirv.AppendString(b, words)
	n := 0
	for _, c := range b[start:] {
		if c == '"' || c == '\\' {
			n++
		}
	}
	if n == 0 {
		return b
	}
	// Spread the bytes from the end, inserting the backslashes.
	b = append(b, make([]byte, n)...)
	j := len(b)
	for i := len(b) - n - 1; i >= start; i-- {
		c := b[i]
		j--
		b[j] = c
		if c == '"' || c == '\\' {
			j--
			b[j] = '\\'
		}
	}
	return b
}

// appendID appends an id operand: "%name", yellow under Color.
func (p *printer) appendID(b []byte, id uint32) []byte {
	if p.opt.Color {
		b = append(b, clrYellow...)
	}
	b = append(b, '%')
	b = p.appendIDName(b, id)
	if p.opt.Color {
		b = append(b, clrReset...)
	}
	return b
}

// opaqueExtSet reports whether SPIRV-Tools treats the extended instruction
// set as an unknown NonSemantic set, whose instructions it prints by number
// with every operand as an id. The decoder decides, as SPIRV-Tools does:
// such instructions have no ExtSet (spirv.DecodeOptions, importedSet).
func opaqueExtSet(set *spirv.ExtInstSet) bool { return set == nil }
