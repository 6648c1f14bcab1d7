package asm

import (
	"bytes"
	"sort"

	"spvx/internal/numtext"
	"spvx/spirv"
)

// instruction assembles the instruction at a.cur, following SPIRV-Tools'
// spvTextEncodeOpcode: the same checks in the same order, with the error
// at the same position, so that the first error matches spirv-as's.
func (a *assembler) instruction() status {
	src := a.src
	a.start = len(a.out)
	a.op, a.opcode, a.opName = nil, 0, nil
	a.result, a.resultID, a.resultTypeID, a.extSet = nil, 0, 0, nil
	a.stack = a.stack[:0]
	a.list, a.li = nil, 0

	if src[a.cur] == '!' {
		return a.immediateInstruction()
	}
	first := a.cur
	var firstEnd int
	isOp := a.startsWithOp(first)
	if isOp {
		firstEnd = a.opWordEnd(first)
	} else {
		firstEnd = a.wordEnd(first)
	}
	opStart, opEnd := first, firstEnd
	if !isOp {
		if firstEnd == first || src[first] != '%' {
			return a.fail(first, "Expected <opcode> or <result-id> at the beginning of an instruction, found '%s'.", src[first:firstEnd])
		}
		a.result, a.resultOff = src[first:firstEnd], first
		p := a.advance(firstEnd)
		a.cur = p
		if p >= len(src) {
			return a.fail(p, "Expected '=', found end of stream.")
		}
		e := a.wordEnd(p)
		if e != p+1 || src[p] != '=' {
			return a.fail(p, "'=' expected after result id but found '%s'.", src[p:e])
		}
		p = a.advance(e)
		a.cur = p
		if p >= len(src) {
			return a.fail(p, "Expected opcode, found end of stream.")
		}
		if !a.startsWithOp(p) {
			return a.fail(p, "Invalid Opcode prefix '%s'.", src[p:a.wordEnd(p)])
		}
		opStart, opEnd = p, a.opWordEnd(p)
	}
	name := src[opStart:opEnd]
	a.opName = name
	if string(name) == "OpUnknown" {
		if a.result != nil {
			return a.fail(opStart, "OpUnknown not allowed in assignment. Use an explicit result id operand instead.")
		}
		a.cur = opEnd
		return a.unknownInstruction()
	}
	info, ok := a.lk.opcode(name[2:])
	if !ok {
		if e := a.wordEnd(opStart); e != opEnd {
			// opWordEnd went past a ';' or a backslash: look again.
			opEnd, name = e, src[opStart:e]
			a.opName = name
			if opStart == first {
				firstEnd = e
			}
			info, ok = a.lk.opcode(name[2:])
		}
	}
	if !ok {
		return a.fail(opStart, "Invalid Opcode name '%s'", name)
	}
	if info.HasResult && a.result == nil {
		return a.fail(opStart, "Expected <result-id> at the beginning of an instruction, found '%s'.", src[first:firstEnd])
	}
	if !info.HasResult && a.result != nil {
		return a.fail(opStart, "Cannot set ID %s because %s does not produce a result ID.", a.result, name)
	}
	a.op, a.opcode = info, info.Opcode
	a.cur = opEnd
	a.out = append(a.out, 0)
	a.list, a.li = info.Operands, 0
	if a.opcode == spirv.OpExtInst || a.opcode == spirv.OpExtInstWithForwardRefsKHR {
		// The extended instruction's own operands replace the grammar's
		// trailing "IdRef* Operands", as in SPIRV-Tools' tables: extra
		// ids after them start a new instruction.
		for i, o := range a.list {
			if o.Kind == spirv.OperandKindLiteralExtInstInteger {
				a.list = a.list[:i+1]
				break
			}
		}
	}

	if st := a.operands(); st != stOK {
		return st
	}
	return a.finish()
}

// opWordEnd returns the end of the opcode name at p (which starts with
// "Op"), quickly: names are letters and digits followed by white space.
// It may run past a ';' or a backslash, which no opcode name has; the
// caller checks with wordEnd when the name is not found.
func (a *assembler) opWordEnd(p int) int {
	src := a.src
	if e := a.shortEnd(p); e == len(src) || wordClass[src[e]]&wordBreak != 0 {
		return e
	}
	return a.wordEnd(p)
}

// push adds the operands of a grammar list to the expected operands, to be
// consumed first to last.
func (a *assembler) push(ops []spirv.OperandInfo) {
	for i := len(ops) - 1; i >= 0; i-- {
		a.stack = append(a.stack, slot{kind: ops[i].Kind, q: ops[i].Quantifier})
	}
}

// operands consumes the expected operands (SPIRV-Tools' operand pattern):
// required ones must be there, optional and variadic ones end at the next
// instruction or the end of the text.
func (a *assembler) operands() status {
	src := a.src
	for {
		s, ok := a.nextSlot()
		if !ok {
			break
		}
		if s.form == formGrammar {
			if info := s.kind.Info(); info.Category == spirv.CategoryComposite {
				q := s.q
				for i := len(info.Bases) - 1; i >= 0; i-- {
					qi := spirv.One
					if i == 0 {
						qi = q
					}
					a.stack = append(a.stack, slot{kind: info.Bases[i], q: qi})
				}
				continue
			}
			if s.kind == spirv.OperandKindIdResult && a.result != nil {
				// The result id was read before the opcode; it is encoded
				// where the grammar puts it.
				if st := a.encodeID(s, a.resultOff, a.resultOff+len(a.result), a.cur); st != stOK {
					return st
				}
				continue
			}
		}

		// advance, with its common case written out: one space.
		p := a.cur
		if p+1 < len(src) && src[p] == ' ' && wordClass[src[p+1]]&skipped == 0 {
			p++
		} else {
			p = a.advanceSlow(p)
		}
		a.cur = p
		if p >= len(src) {
			if s.optional() {
				break
			}
			return a.fail(p, "Expected operand for %s instruction, but found the end of the stream.", a.opName)
		}
		if src[p] == '%' && s.form == formGrammar && s.kind.Info().Category == spirv.CategoryID {
			// The common case, an id operand, in one scan of its name;
			// anything unusual takes the general path below.
			if e := a.shortEnd(p + 1); e > p+1 && (e == len(src) || wordClass[src[e]]&wordBreak != 0) && !a.equalsOpFollows(e) {
				// A name the table has is valid; a new one is checked.
				if id, isNew, ok := a.ids.lookupValid(p+1, e, true); ok {
					if isNew {
						a.newID()
					}
					if st := a.useID(s.kind, id, p); st != stOK {
						return st
					}
					a.cur = e
					continue
				}
			}
		}
		isNew, e := a.newInst(p)
		if isNew {
			if s.form == formGrammar && s.kind == spirv.OperandKindLiteralSpecConstantOpInteger && a.startsWithOp(p) {
				return a.badSpecConstantOp(p, src[p:a.wordEnd(p)])
			}
			if s.optional() {
				break
			}
			return a.fail(p, "Expected operand for %s instruction, but found the next instruction instead.", a.opName)
		}
		if e < 0 {
			e = a.wordEnd(p)
		}
		switch st := a.operand(s, p, e); st {
		case stOK:
		case stNoMatch:
			// SPIRV-Tools stops the instruction here, leaving the word to
			// be read as the start of the next one, which then fails.
			a.cur = p
			return stNoMatch
		default:
			return st
		}
		a.cur = e
	}
	return stOK
}

// nextSlot returns the next expected operand: the top of the stack
// (enumerant parameters, extended instruction operands, ...), else the
// next of the instruction's own operands. Like SPIRV-Tools'
// spvExpandOperandSequenceOnce, a variadic operand yields one optional
// operand and stays in place for the next.
func (a *assembler) nextSlot() (slot, bool) {
	var s slot
	onStack := len(a.stack) > 0
	switch {
	case onStack:
		s = a.stack[len(a.stack)-1]
	case a.li < len(a.list):
		o := &a.list[a.li]
		s = slot{kind: o.Kind, q: o.Quantifier}
	default:
		return s, false
	}
	switch {
	case s.q != spirv.Variadic:
	case s.kind == spirv.OperandKindPairIdRefIdRef:
		// SPIRV-Tools reads OpPhi's pairs as a plain list of ids.
		return slot{kind: spirv.OperandKindIdRef, q: spirv.Optional}, true
	case s.kind.Info().Category != spirv.CategoryComposite:
		s.q = spirv.Optional
		return s, true
	}
	if onStack {
		a.stack = a.stack[:len(a.stack)-1]
	} else {
		a.li++
	}
	if s.q == spirv.Variadic {
		a.expandVariadic(s) // a pair: its parts, then the pairs again
		return a.nextSlot()
	}
	return s, true
}

// expandVariadic replaces a variadic operand by one optional operand
// followed by the variadic one again (spvExpandOperandSequenceOnce).
func (a *assembler) expandVariadic(s slot) {
	a.stack = append(a.stack, s)
	switch s.kind {
	case spirv.OperandKindPairLiteralIntegerIdRef:
		// OpSwitch targets: the literal is typed by the selector, and once
		// it is there the label must follow.
		a.stack = append(a.stack,
			slot{kind: spirv.OperandKindIdRef, q: spirv.One},
			slot{kind: spirv.OperandKindLiteralInteger, q: spirv.Optional, form: formSwitchLiteral})
	case spirv.OperandKindPairIdRefLiteralInteger:
		a.stack = append(a.stack,
			slot{kind: spirv.OperandKindLiteralInteger, q: spirv.One},
			slot{kind: spirv.OperandKindIdRef, q: spirv.Optional})
	case spirv.OperandKindPairIdRefIdRef:
		// SPIRV-Tools reads OpPhi's pairs as a plain list of ids.
		a.stack = append(a.stack, slot{kind: spirv.OperandKindIdRef, q: spirv.Optional})
	default:
		a.stack = append(a.stack, slot{kind: s.kind, q: spirv.Optional})
	}
}

// finish records what later instructions need (type and value types) and
// writes the instruction's first word.
func (a *assembler) finish() status {
	words := a.out[a.start:]
	info := a.op
	if info.HasResult && a.resultID != 0 {
		if st := a.define(info.DeclaresType); st != stOK {
			return st
		}
	}
	if info.DeclaresType {
		if st := a.recordType(); st != stOK {
			return st
		}
	} else if info.HasType && len(words) >= 3 && words[2] < uint32(len(a.flags)) {
		if v := &a.valueType[words[2]]; *v == 0 && words[1] < uint32(len(a.flags)) {
			*v = words[1]
		}
	}
	n := len(a.out) - a.start
	if n > maxWordCount {
		return a.fail(a.cur, "%s Instruction too long: %d words, but the limit is %d", a.opName, n, maxWordCount)
	}
	a.out[a.start] = uint32(n)<<16 | uint32(a.opcode)
	return stOK
}

// define marks the instruction's result id as defined. An id defined
// twice is an error unless Options.LaxIDs; a type id defined twice is
// SPIRV-Tools' own error, reported by recordType.
func (a *assembler) define(isType bool) status {
	f := &a.flags[a.resultID]
	if *f&(flagDefined|flagPoisoned) == flagDefined && !a.opt.LaxIDs && !(isType && a.infoOf(a.resultID).class != classNone) {
		a.fail(a.resultOff, "ID '%s' has already been defined", a.result)
	}
	*f |= flagDefined
	return stOK
}

// recordType notes a type declaration, for typing later literals
// (SPIRV-Tools' recordTypeDefinition).
func (a *assembler) recordType() status {
	words := a.out[a.start:]
	if len(words) < 2 {
		return stOK
	}
	id := words[1]
	if id >= uint32(len(a.flags)) {
		return stOK // a raw !<integer>, not an id of this text
	}
	if a.infoOf(id).class != classNone {
		return a.fail(a.cur, "Value %d has already been used to generate a type", id)
	}
	v := a.setInfo(id)
	switch a.opcode {
	case spirv.OpTypeInt:
		if len(words) != 4 {
			return a.fail(a.cur, "Invalid OpTypeInt instruction")
		}
		k := spirv.Unsigned
		if words[3] != 0 {
			k = spirv.Signed
		}
		v.class, v.width = classInt, words[2]
		v.nt = spirv.NumberType{Kind: k, Width: uint8(min(words[2], 255))}
	case spirv.OpTypeFloat:
		if len(words) != 3 && len(words) != 4 {
			return a.fail(a.cur, "Invalid OpTypeFloat instruction")
		}
		v.class, v.width = classFloat, words[2]
		v.nt = spirv.NumberType{Kind: spirv.Float, Width: uint8(min(words[2], 255))}
		if len(words) == 4 {
			enc := spirv.FPEncoding(words[3])
			v.nt.HasEncoding, v.nt.Encoding = true, enc
			if e, ok := spirv.OperandKindFPEncoding.Enumerant(words[3]); ok {
				if want := uint32(numtext.EncodingWidth(enc)); want != 0 && want != words[2] {
					v.class = classNone
					return a.fail(a.cur, "Invalid bit width %d for floating point encoding %s; expected %d", words[2], e.Name, want)
				}
			}
		}
	default:
		v.class = classOther
	}
	return stOK
}

// idOf returns the id of the name src[off:end] (after the '%').
func (a *assembler) idOf(off, end int) uint32 {
	id, isNew := a.ids.lookup(off, end)
	if isNew {
		a.newID()
	}
	return id
}

// newID makes room for the per-id data of a new id.
func (a *assembler) newID() {
	a.flags = append(a.flags, 0)
	a.valueType = append(a.valueType, 0)
}

// none is the idInfo of ids that have none; it is never written.
var none idInfo

// info returns what is known of id as a type or import; the zero idInfo
// if nothing.
func (a *assembler) infoOf(id uint32) *idInfo {
	if v := a.info[id]; v != nil {
		return v
	}
	return &none
}

// setInfo returns id's idInfo for writing.
func (a *assembler) setInfo(id uint32) *idInfo {
	v := a.info[id]
	if v == nil {
		v = new(idInfo)
		a.info[id] = v
	}
	return v
}

// equalsOpFollows reports whether "= Op..." follows the word ending at e,
// which makes the word the result id of a new instruction.
func (a *assembler) equalsOpFollows(e int) bool {
	src := a.src
	q := e
	if q+1 < len(src) && src[q] == ' ' && wordClass[src[q+1]]&skipped == 0 {
		q++
	} else {
		q = a.advanceSlow(q)
	}
	if q >= len(src) || src[q] != '=' || a.wordEnd(q) != q+1 {
		return false
	}
	r := a.advance(q + 1)
	return r < len(src) && a.startsWithOp(r)
}

// useID encodes id, an operand of kind k at p.
func (a *assembler) useID(k spirv.OperandKind, id uint32, p int) status {
	return a.putID(slot{kind: k}, id, p, p)
}

// putID encodes id, the operand s written at p: it records the result id,
// the result type, or the use (a raw-words operand only exempts the id
// from the checks); errors are reported at at.
func (a *assembler) putID(s slot, id uint32, p, at int) status {
	switch {
	case s.form == formCIV:
		a.flags[id] |= flagExempt
	case s.kind == spirv.OperandKindIdResult:
		a.resultID = id
	default:
		if f := &a.flags[id]; *f&flagUsed == 0 {
			*f |= flagUsed
			if *f&flagDefined == 0 && a.forward != nil {
				a.forward[id] = int32(p)
			}
		}
		if s.kind == spirv.OperandKindIdResultType {
			a.resultTypeID = id
		}
	}
	if a.recordIDs {
		a.idPos = append(a.idPos, uint32(len(a.out)))
	}
	a.out = append(a.out, id)
	if (a.opcode == spirv.OpExtInst || a.opcode == spirv.OpExtInstWithForwardRefsKHR) && len(a.out)-a.start == 4 {
		return a.setExtSet(at)
	}
	return stOK
}

// setExtSet looks up the extended instruction set OpExtInst's Set operand
// (word 3) imported; an error leaves it nil, which the instruction operand
// then reports as SPIRV-Tools does.
func (a *assembler) setExtSet(at int) status {
	words := a.out[a.start:]
	x := a.infoOf(words[3]).ext
	if x == 0 {
		return a.fail(at, "Invalid extended instruction import Id %d", words[2])
	}
	a.extSet = &a.imports[x-1]
	return stOK
}

// encodeID encodes an id operand whose text is src[p:e]; errors are
// reported at the current position at, as SPIRV-Tools does.
func (a *assembler) encodeID(s slot, p, e, at int) status {
	src := a.src
	if e == p || src[p] != '%' {
		return a.fail(at, "Expected id to start with %%.")
	}
	if !validIDName(src[p+1 : e]) {
		return a.fail(at, "Invalid ID %s", src[p+1:e])
	}
	return a.putID(s, a.idOf(p+1, e), p, at)
}

// operand encodes the operand text src[p:e] as the expected operand s.
func (a *assembler) operand(s slot, p, e int) status {
	src := a.src
	text := src[p:e]
	if len(text) > 0 && text[0] == '!' {
		return a.immediate(p, e)
	}
	if s.form == formCIV {
		return a.civ(p, e)
	}
	if s.form == formSwitchLiteral {
		return a.typedLiteral(s, p, e)
	}
	info := s.kind.Info()
	switch info.Category {
	case spirv.CategoryID:
		return a.encodeID(s, p, e, p)
	case spirv.CategoryValueEnum:
		en, ok := a.lk.enumerant(s.kind, text)
		if !ok {
			return a.fail(p, "Invalid %s '%s'.", kindDesc(s.kind), text)
		}
		a.out = append(a.out, en.Value)
		a.push(en.Parameters)
		return stOK
	case spirv.CategoryBitEnum:
		return a.mask(s.kind, p, text)
	}
	switch s.kind {
	case spirv.OperandKindLiteralString:
		return a.stringLiteral(s, p, text)
	case spirv.OperandKindLiteralContextDependentNumber:
		return a.typedLiteral(s, p, e)
	case spirv.OperandKindLiteralExtInstInteger:
		return a.extInstruction(p, text)
	case spirv.OperandKindLiteralSpecConstantOpInteger:
		return a.specConstantOp(p, text)
	case spirv.OperandKindLiteralFloat:
		return a.number(s, p, text, spirv.NumberType{Kind: spirv.Float, Width: 32})
	}
	// LiteralInteger, and any other literal kind: one unsigned 32-bit word.
	return a.number(s, p, text, spirv.NumberType{Kind: spirv.Unsigned, Width: 32})
}

// number encodes a literal number of type nt. An optional operand that is
// not a number of that type ends the instruction (stNoMatch); a number that
// cannot go in that type at all is an error either way.
func (a *assembler) number(s slot, p int, text []byte, nt spirv.NumberType) status {
	out, st, msg := appendNumber(a.out, text, nt)
	switch st {
	case litOK:
		a.out = out
		return stOK
	case litInvalidText:
		if s.optional() {
			return stNoMatch
		}
	}
	return a.fail(p, "%s", msg)
}

// typedLiteral encodes a literal typed by context: OpConstant's and
// OpSpecConstant's by their Result Type, OpSwitch's by its selector's
// type, and otherwise by its own spelling.
func (a *assembler) typedLiteral(s slot, p, e int) status {
	text := a.src[p:e]
	var t *idInfo
	tid := uint32(0)
	switch a.opcode {
	case spirv.OpConstant, spirv.OpSpecConstant:
		tid = a.resultTypeID
		t = a.infoOf(tid)
		if t.class != classInt && t.class != classFloat {
			if a.flags[tid]&flagPoisoned != 0 {
				return a.failQuiet(p)
			}
			return a.fail(p, "Type for %s must be a scalar floating point or integer type", a.opName[2:])
		}
	case spirv.OpSwitch:
		sel := uint32(0)
		if len(a.out)-a.start >= 2 {
			sel = a.out[a.start+1]
		}
		if sel < uint32(len(a.flags)) {
			tid = a.valueType[sel]
		}
		t = a.infoOf(tid)
		if t.class != classInt {
			if a.flags[tid]&flagPoisoned != 0 || sel < uint32(len(a.flags)) && a.flags[sel]&flagPoisoned != 0 {
				return a.failQuiet(p)
			}
			return a.fail(p, "The selector operand for OpSwitch must be the result of an instruction that generates an integer scalar")
		}
	default:
		return a.number(s, p, text, inferredType(text))
	}
	if t.width > 64 || t.class == classFloat && !t.nt.HasEncoding && t.width != 16 && t.width != 32 && t.width != 64 {
		kind := "integer"
		if t.class == classFloat {
			kind = "float"
		}
		return a.fail(p, "Unsupported %d-bit %s literals", t.width, kind)
	}
	return a.number(s, p, text, t.nt)
}

// inferredType is the type SPIRV-Tools gives a literal it cannot type by
// context: a float if it has a '.', else a signed integer if it starts
// with '-', else unsigned; 32 bits.
func inferredType(text []byte) spirv.NumberType {
	switch {
	case bytes.IndexByte(text, '.') >= 0:
		return spirv.NumberType{Kind: spirv.Float, Width: 32}
	case len(text) > 0 && text[0] == '-':
		return spirv.NumberType{Kind: spirv.Signed, Width: 32}
	}
	return spirv.NumberType{Kind: spirv.Unsigned, Width: 32}
}

// mask encodes a BitEnum operand: enumerant names joined by '|', whose
// parameters follow in bit order.
func (a *assembler) mask(k spirv.OperandKind, p int, text []byte) status {
	var value uint32
	rest := text
	for {
		i := bytes.IndexByte(rest, '|')
		part := rest
		if i >= 0 {
			part = rest[:i]
		}
		en, ok := a.lk.enumerant(k, part)
		if !ok {
			return a.fail(p, "Invalid %s operand '%s'.", kindDesc(k), text)
		}
		value |= en.Value
		if i < 0 {
			break
		}
		rest = rest[i+1:]
	}
	a.out = append(a.out, value)
	// Push the highest bit's parameters first, so the lowest bit's are
	// consumed first.
	for bit := uint32(1) << 31; bit != 0; bit >>= 1 {
		if value&bit != 0 {
			if en, ok := k.Enumerant(bit); ok {
				a.push(en.Parameters)
			}
		}
	}
	return stOK
}

// Classes of a word as SPIRV-Tools' spvTextToLiteral sees it.
const (
	litNoMatch = iota // neither a number nor a quoted string
	litNumber
	litString
)

// textLiteral classifies a word as spvTextToLiteral does and returns the
// contents of a quoted string, with backslash escapes resolved (a
// backslash makes the next byte literal, whatever it is).
func textLiteral(text []byte) (int, []byte) {
	if len(text) == 0 {
		return litNoMatch, nil
	}
	isString, periods := false, 0
	for i, c := range text {
		if c >= '0' && c <= '9' {
			continue
		}
		if c == '.' {
			periods++
			continue
		}
		if c == '-' && i == 0 {
			continue
		}
		isString = true
		break
	}
	if !isString && periods <= 1 && !(len(text) == 1 && text[0] == '-') {
		return litNumber, nil
	}
	if len(text) < 2 || text[0] != '"' || text[len(text)-1] != '"' {
		return litNoMatch, nil
	}
	body := text[1 : len(text)-1]
	if bytes.IndexByte(body, '\\') < 0 {
		return litString, body
	}
	str := make([]byte, 0, len(body))
	escaping := false
	for _, c := range body {
		if c == '\\' && !escaping {
			escaping = true
			continue
		}
		str = append(str, c)
		escaping = false
	}
	return litString, str
}

// stringLiteral encodes a LiteralString operand; OpExtInstImport's also
// selects the extended instruction set.
func (a *assembler) stringLiteral(s slot, p int, text []byte) status {
	kind, str := textLiteral(text)
	switch kind {
	case litNoMatch:
		if s.optional() {
			return stNoMatch
		}
		return a.fail(p, "Invalid literal string '%s'.", text)
	case litNumber:
		return a.fail(p, "Expected literal string, found literal number '%s'.", text)
	}
	return a.appendString(p, str)
}

func (a *assembler) appendString(p int, str []byte) status {
	if a.opcode == spirv.OpExtInstImport {
		set := spirv.LookupExtInstSet(string(str))
		nonSemantic := bytes.HasPrefix(str, []byte("NonSemantic."))
		if set == nil && !nonSemantic {
			return a.fail(p, "Invalid extended instruction import '%s'", str)
		}
		if len(a.out)-a.start >= 2 {
			if id := a.out[a.start+1]; id < uint32(len(a.flags)) {
				if a.infoOf(id).ext != 0 {
					return a.fail(p, "Import Id is being defined a second time")
				}
				a.imports = append(a.imports, extImport{set, nonSemantic})
				a.setInfo(id).ext = int32(len(a.imports))
			}
		}
	}
	if len(a.out)-a.start+len(str)/4+1 > maxWordCount {
		return a.fail(p, "Instruction too long: more than %d words.", maxWordCount)
	}
	for i := 0; i < len(str); i += 4 {
		var w uint32
		for k := 0; k < 4 && i+k < len(str); k++ {
			w |= uint32(str[i+k]) << (8 * k)
		}
		a.out = append(a.out, w)
	}
	if len(str)%4 == 0 {
		a.out = append(a.out, 0)
	}
	return stOK
}

// extInstruction encodes OpExtInst's instruction: a name of the imported
// set, or, for non-semantic sets, a number; then expects its operands.
func (a *assembler) extInstruction(p int, text []byte) status {
	x := a.extSet
	if x != nil && x.set != nil {
		if ext, ok := a.lk.extInstruction(x.set, text); ok {
			a.out = append(a.out, ext.Opcode)
			a.push(ext.Operands)
			return stOK
		}
	}
	if x == nil || !x.nonSemantic {
		return a.fail(p, "Invalid extended instruction name '%s'.", text)
	}
	// Every instruction of a non-semantic set takes ids only, so an
	// unknown one can still be encoded, by its number: decimal digits
	// that fit in 32 bits, what spvTextToLiteral reads as a 32-bit
	// unsigned literal.
	n, ok := numtext.Decimal(text, 0xFFFFFFFF, false)
	if !ok {
		return a.fail(p, "Couldn't translate unknown extended instruction name '%s' to unsigned integer.", text)
	}
	a.out = append(a.out, uint32(n))
	a.stack = append(a.stack, slot{kind: spirv.OperandKindIdRef, q: spirv.Variadic})
	return stOK
}

// specConstantOp encodes OpSpecConstantOp's operation, named without "Op",
// then expects that opcode's operands after its Result Type and Result.
func (a *assembler) specConstantOp(p int, text []byte) status {
	info, ok := specConstantOp(text)
	if !ok {
		return a.badSpecConstantOp(p, text)
	}
	a.out = append(a.out, uint32(info.Opcode))
	if len(info.Operands) >= 2 {
		a.push(info.Operands[2:])
	}
	return stOK
}

func (a *assembler) badSpecConstantOp(p int, text []byte) status {
	if bytes.HasPrefix(text, []byte("Op")) {
		if _, ok := specConstantOp(text[2:]); ok {
			return a.fail(p, "Invalid OpSpecConstantOp opcode '%s'. Did you mean '%s'?", text, text[2:])
		}
	}
	return a.fail(p, "Invalid OpSpecConstantOp opcode '%s'.", text)
}

// immediate encodes a !<integer> operand: one raw word. What follows can
// no longer be matched to the grammar, so the remaining operands become
// "context-insensitive values" (numbers, strings or ids), keeping only the
// result id, which was written before the opcode
// (spvAlternatePatternFollowingImmediate).
func (a *assembler) immediate(p, e int) status {
	v, ok := parseCUint(a.src[p+1:e], 32)
	if !ok {
		return a.fail(p, "Invalid immediate integer: !%s", a.src[p+1:e])
	}
	a.out = append(a.out, uint32(v))
	// The remaining operands, next first: the stack, then the list.
	k := -1
	for i := len(a.stack) - 1; i >= 0; i-- {
		if s := a.stack[i]; s.form == formGrammar && s.kind == spirv.OperandKindIdResult && s.q == spirv.One {
			k = len(a.stack) - 1 - i
			break
		}
	}
	if k < 0 {
		for i := a.li; i < len(a.list); i++ {
			if o := a.list[i]; o.Kind == spirv.OperandKindIdResult && o.Quantifier == spirv.One {
				k = len(a.stack) + i - a.li
				break
			}
		}
	}
	a.list, a.li = nil, 0
	civ := slot{kind: spirv.OperandKindIdRef, q: spirv.Optional, form: formCIV}
	a.stack = a.stack[:0]
	a.stack = append(a.stack, civ)
	if k >= 0 {
		a.stack = append(a.stack, slot{kind: spirv.OperandKindIdResult, q: spirv.One})
		for ; k > 0; k-- {
			a.stack = append(a.stack, civ)
		}
	}
	return stOK
}

// civ encodes a context-insensitive value: a number typed by its spelling,
// else a quoted string, else an id.
func (a *assembler) civ(p, e int) status {
	text := a.src[p:e]
	nerr := len(a.errs)
	invalid := func() status {
		// Whatever failed, SPIRV-Tools reports only this.
		a.errs = a.errs[:nerr]
		return a.fail(p, "Invalid word following !<integer>: %s", text)
	}
	out, st, _ := appendNumber(a.out, text, inferredType(text))
	switch {
	case st == litOK:
		a.out = out
	case st == litInvalidText:
		switch kind, str := textLiteral(text); kind {
		case litString:
			if a.appendString(p, str) != stOK {
				return invalid()
			}
		case litNoMatch:
			if len(text) > 0 && text[0] == '%' && validIDName(text[1:]) {
				if a.encodeID(slot{form: formCIV}, p, e, p) != stOK {
					return invalid()
				}
				break
			}
			return invalid()
		default:
			return invalid()
		}
	default:
		return invalid()
	}
	if len(a.stack) == 0 {
		a.stack = append(a.stack, slot{kind: spirv.OperandKindIdRef, q: spirv.Optional, form: formCIV})
	}
	return stOK
}

// immediateInstruction assembles an instruction that starts with
// !<integer>: raw words and context-insensitive values up to the next
// instruction, with no word count or type bookkeeping.
func (a *assembler) immediateInstruction() status {
	src := a.src
	first := a.cur
	firstEnd := a.wordEnd(first)
	v, ok := parseCUint(src[first+1:firstEnd], 32)
	if !ok {
		return a.fail(first, "Invalid immediate integer: !%s", src[first+1:firstEnd])
	}
	a.out = append(a.out, uint32(v))
	a.cur = firstEnd
	for {
		p := a.advance(a.cur)
		a.cur = p
		if p >= len(src) {
			return stOK
		}
		isNew, e := a.newInst(p)
		if isNew {
			return stOK
		}
		if e < 0 {
			e = a.wordEnd(p)
		}
		if e == p+1 && src[p] == '=' {
			return a.fail(p, "%s not allowed before =.", src[first:firstEnd])
		}
		a.stack = a.stack[:0]
		if st := a.operand(slot{kind: spirv.OperandKindIdRef, q: spirv.Optional, form: formCIV}, p, e); st != stOK {
			return stError
		}
		a.cur = e
	}
}

// unknownInstruction assembles OpUnknown(opcode, wordcount) followed by
// wordcount-1 context-insensitive values.
func (a *assembler) unknownInstruction() status {
	src := a.src
	punct := func(c byte, what string) status {
		p := a.advance(a.cur)
		a.cur = p
		if p >= len(src) {
			return a.fail(p, "Expected '%c', found end of stream.", c)
		}
		if src[p] != c {
			return a.fail(p, "'%c' expected after %s but found '%c'.", c, what, src[p])
		}
		a.cur = p + 1
		return stOK
	}
	number := func(what, errWhat string) (uint64, status) {
		p := a.advance(a.cur)
		a.cur = p
		if p >= len(src) {
			return 0, a.fail(p, "Expected %s, found end of stream.", what)
		}
		e := a.wordEnd(p)
		v, ok := parseCUint(src[p:e], 16)
		if !ok {
			return 0, a.fail(p, "Invalid %s: \"%s\".", errWhat, src[p:e])
		}
		a.cur = e
		return v, stOK
	}
	if st := punct('(', "OpUnknown"); st != stOK {
		return st
	}
	opcode, st := number("opcode enumerant", "opcode enumerant")
	if st != stOK {
		return st
	}
	if st := punct(',', "opcode enumerant"); st != stOK {
		return st
	}
	count, st := number("number of words", "number of words")
	if st != stOK {
		return st
	}
	if count == 0 {
		return a.fail(a.cur, "Number of words (which includes the opcode) must be greater than zero.")
	}
	if st := punct(')', "number of words"); st != stOK {
		return st
	}
	a.opcode = spirv.Opcode(opcode)
	a.out = append(a.out, uint32(count)<<16|uint32(opcode))
	for left := int(count) - 1; left > 0; left-- {
		p := a.advance(a.cur)
		a.cur = p
		if p >= len(src) {
			return a.fail(p, "Expected %d more operands, found end of stream.", left)
		}
		isNew, e := a.newInst(p)
		if isNew {
			return a.fail(p, "Unexpected start of new instruction: \"%s\". Expected %d more operands", src[p:a.wordEnd(p)], left)
		}
		if e < 0 {
			e = a.wordEnd(p)
		}
		if e == p+1 && src[p] == '=' {
			return a.fail(p, "OpUnknown not allowed before =.")
		}
		a.stack = a.stack[:0]
		if st := a.operand(slot{kind: spirv.OperandKindIdRef, q: spirv.Optional, form: formCIV}, p, e); st != stOK {
			return stError
		}
		a.cur = e
	}
	return stOK
}

// finishIDs checks that every id used is defined (unless LaxIDs), gives
// the final numbers under PreserveNumericIDs, and returns the bound.
func (a *assembler) finishIDs() uint32 {
	n := len(a.ids.entries)
	if !a.opt.PreserveNumericIDs {
		return uint32(n) + 1
	}
	final := make([]uint32, n+1)
	numeric := make([]bool, n+1)
	var preserved []uint32
	for id := 1; id <= n; id++ {
		e := a.ids.entries[id-1]
		if v, ok := parseCUint(a.src[e.off:e.off+e.n], 32); ok {
			final[id], numeric[id] = uint32(v), true
			preserved = append(preserved, uint32(v))
		}
	}
	sort.Slice(preserved, func(i, j int) bool { return preserved[i] < preserved[j] })
	bound := uint32(1)
	next, j := uint32(1), 0
	for id := 1; id <= n; id++ {
		if !numeric[id] {
			for {
				for j < len(preserved) && preserved[j] < next {
					j++
				}
				if j < len(preserved) && preserved[j] == next {
					next++
					continue
				}
				break
			}
			final[id] = next
			next++
		}
		if final[id] >= bound {
			bound = final[id] + 1
		}
	}
	for _, pos := range a.idPos {
		a.out[pos] = final[a.out[pos]]
	}
	return bound
}

// checkPreservedIDs rejects the numeric ids that cannot keep their
// number under PreserveNumericIDs. %4294967295 leaves no valid bound (the
// bound is the largest id + 1, a 32-bit word): spirv-as computes the bound
// as max(bound, id+1), which wraps, and writes bound 1, a module no tool
// reads. It is rejected even under LaxIDs. %0 is not an id (spirv-dis
// rejects "Result Id is 0"); spirv-as writes it as 0, and so does spvx
// under LaxIDs, to build deliberately invalid modules.
func (a *assembler) checkPreservedIDs() {
	for _, e := range a.ids.entries {
		v, ok := parseCUint(a.src[e.off:e.off+e.n], 32)
		switch {
		case !ok:
		case v == 1<<32-1:
			a.fail(int(e.off)-1, "ID '%%%s' cannot keep its number: the bound (the largest id + 1) must fit in 32 bits, so ids are at most 4294967294", a.src[e.off:e.off+e.n])
		case v == 0 && !a.opt.LaxIDs:
			a.fail(int(e.off)-1, "ID '%%%s' cannot keep its number: 0 is not a valid id", a.src[e.off:e.off+e.n])
		}
	}
}

// undefinedIDs reports whether some id is used but never defined.
func (a *assembler) undefinedIDs() bool {
	for _, f := range a.flags[1:] {
		if f&(flagUsed|flagDefined|flagExempt) == flagUsed {
			return true
		}
	}
	return false
}

// checkIDs reports ids used but never defined (unless LaxIDs).
func (a *assembler) checkIDs() {
	if a.opt.LaxIDs {
		return
	}
	for id := 1; id < len(a.flags); id++ {
		if a.flags[id]&(flagUsed|flagDefined|flagExempt) == flagUsed {
			a.fail(int(a.forward[uint32(id)]), "ID '%%%s' has not been defined", a.ids.name(uint32(id)))
		}
	}
}

// errorList converts the collected errors to an ErrorList sorted by
// position.
func (a *assembler) errorList() ErrorList {
	errs := a.errs[:0]
	for _, e := range a.errs {
		if e.msg != "" {
			errs = append(errs, e)
		}
	}
	if len(errs) == 0 {
		errs = append(errs, asmError{a.cur, "Assembly failed"})
	}
	sort.SliceStable(errs, func(i, j int) bool { return errs[i].off < errs[j].off })
	offs := make([]int, len(errs))
	for i, e := range errs {
		offs[i] = e.off
	}
	lc := lineCols(a.src, offs)
	tc := a.toolsLineCols(offs)
	list := make(ErrorList, len(errs))
	for i, e := range errs {
		list[i] = &Error{Pos: Pos{a.opt.File, lc[i][0], lc[i][1]}, Msg: e.msg, toolsLine: tc[i][0], toolsCol: tc[i][1]}
	}
	return list
}
