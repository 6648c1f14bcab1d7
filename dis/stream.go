package dis

import (
	"encoding/binary"
	"strings"

	"spvx/spirv"
)

// stream decodes a binary module one instruction at a time into reused
// buffers, for the streaming path of FprintBinary.
//
// Why not spirv.Decode? Decode builds the whole module: for a 2 MB binary,
// about 18 MB of instructions and operands. On the machines spvx targets a
// first touch of fresh memory costs more than all the decoding and printing
// (a page fault is tens of microseconds in a VM), so a disassembler that
// touches only its input and small tables is several times faster as a
// process. The stream applies exactly spirv.Decode's checks; when it finds
// a problem, FprintBinary calls spirv.Decode for the error to report, so
// errors are spirv's. Tests check that both paths accept the same inputs
// and print the same text.
type stream struct {
	b      []byte // the module, as read
	big    bool   // big-endian byte order
	nwords int
	bound  uint32
	header spirv.Header

	off   int // word offset of the next instruction
	index int // index of the next instruction

	in    spirv.Instruction // the current instruction
	words []uint32          // its words (in.Words aliases this)
	ops   []spirv.Operand   // its operands (in.Operands aliases this)
	pos   int               // next word of in to read
	bad   bool              // a decode error was found

	typeOf  []uint32 // result type of each id below len(typeOf)
	bigType map[uint32]uint32
	numType map[uint32]spirv.NumberType // scalar numeric types
	imports []streamImport

	// For printing in parallel (see printChunks).
	end     int      // word offset where the stream stops
	frozen  bool     // the tables above are complete: read, never write
	cuts    []int    // instruction offsets about chunkWords apart
	defined []uint64 // bitset of the result ids seen
	dup     bool     // some result id is defined twice
}

// chunkWords is the size of the pieces a module is cut into to be printed
// in parallel: small enough that the buffers of the chunks in flight stay
// few and warm, large enough to amortize handing them over. Tests lower it
// to cut small modules into many pieces.
var chunkWords = 8 << 10

type streamImport struct {
	id  uint32
	set *spirv.ExtInstSet
}

// newStream checks the header of b. ok is false when b does not start like
// a module; the caller then lets spirv.Decode say why.
func newStream(b []byte) (*stream, bool) {
	if len(b) < 20 || len(b)%4 != 0 {
		return nil, false
	}
	s := &stream{b: b}
	switch {
	case binary.LittleEndian.Uint32(b) == spirv.MagicNumber:
	case binary.BigEndian.Uint32(b) == spirv.MagicNumber:
		s.big = true
	default:
		return nil, false
	}
	s.nwords = len(b) / 4
	s.header = spirv.Header{
		Magic:     spirv.MagicNumber,
		Version:   spirv.Version(s.word(1)),
		Generator: s.word(2),
		Bound:     s.word(3),
		Schema:    s.word(4),
		BigEndian: s.big,
	}
	s.bound = s.header.Bound
	n := uint64(s.bound)
	if limit := uint64(s.nwords) + 64; n > limit {
		n = limit
	}
	s.typeOf = make([]uint32, n)
	s.defined = make([]uint64, (n+63)/64)
	s.end = s.nwords
	s.numType = make(map[uint32]spirv.NumberType)
	s.words = make([]uint32, 0, 64)
	s.ops = make([]spirv.Operand, 0, 64)
	s.rewind()
	return s, true
}

func (s *stream) word(i int) uint32 {
	if s.big {
		return binary.BigEndian.Uint32(s.b[4*i:])
	}
	return binary.LittleEndian.Uint32(s.b[4*i:])
}

// rewind goes back to the first instruction.
func (s *stream) rewind() {
	s.off, s.index = 5, 0
	s.imports = s.imports[:0]
}

// section returns a stream over the instructions in [start, end) that
// shares s's tables, complete after a first pass, without writing them.
// It is safe to use alongside other sections.
func (s *stream) section(start, end int) *stream {
	return &stream{
		b: s.b, big: s.big, nwords: s.nwords, bound: s.bound, header: s.header,
		off: start, end: end, frozen: true,
		typeOf: s.typeOf, bigType: s.bigType, numType: s.numType, imports: s.imports,
		words: make([]uint32, 0, 64), ops: make([]spirv.Operand, 0, 64),
	}
}

// noteDefinition records, in the first pass, the result id just decoded
// and where chunks may start.
func (s *stream) noteDefinition() {
	if id := s.in.ResultID; id != 0 {
		if int(id/64) < len(s.defined) {
			bit := uint64(1) << (id % 64)
			if s.defined[id/64]&bit != 0 {
				s.dup = true
			}
			s.defined[id/64] |= bit
		} else {
			s.dup = true // rare: ids beyond the dense tables are not tracked
		}
	}
	if last := 5; len(s.cuts) > 0 {
		last = s.cuts[len(s.cuts)-1]
		if s.off-last >= chunkWords {
			s.cuts = append(s.cuts, s.off)
		}
	} else if s.off-last >= chunkWords {
		s.cuts = append(s.cuts, s.off)
	}
}

// next decodes the next instruction into s.in. It returns false at the end
// of the module and when the instruction does not decode (then s.bad).
func (s *stream) next() bool {
	if s.bad || s.off >= s.end {
		return false
	}
	first := s.word(s.off)
	n := int(first >> 16)
	op := spirv.Opcode(first)
	if n == 0 || s.off+n > s.nwords {
		return s.fail()
	}
	info := op.Info()
	if info == nil {
		return s.fail()
	}
	if cap(s.words) < n {
		s.words = make([]uint32, n)
	}
	w := s.words[:n]
	src := s.b[4*s.off : 4*(s.off+n)]
	if s.big {
		for i := range w {
			w[i] = binary.BigEndian.Uint32(src[4*i:])
		}
	} else {
		for i := range w {
			w[i] = binary.LittleEndian.Uint32(src[4*i:])
		}
	}
	s.words = w
	s.ops = s.ops[:0]
	// Field by field: assigning a whole Instruction costs a bulk write
	// barrier per instruction.
	in := &s.in
	in.Words = w
	in.Operands = nil
	in.ExtSet = nil
	in.TypeID, in.ResultID = 0, 0
	in.Offset = int32(s.off)
	in.Opcode = op
	s.pos = 1
	if op == spirv.OpSwitch {
		s.switchOperands()
	} else {
		s.operandList(info.Operands)
	}
	if s.bad || s.pos != n {
		return s.fail()
	}
	s.in.Operands = s.ops
	s.record()
	if s.bad {
		return false
	}
	s.off += n
	s.index++
	return true
}

func (s *stream) fail() bool {
	s.bad = true
	return false
}

// record notes what later instructions need: the number types that size
// literals and the extended instruction set imports.
func (s *stream) record() {
	if s.frozen {
		return
	}
	in := &s.in
	w := in.Words
	switch in.Opcode {
	case spirv.OpTypeInt:
		if len(w) >= 4 {
			k := spirv.Unsigned
			if w[3] != 0 {
				k = spirv.Signed
			}
			s.numType[in.ResultID] = numberType(k, w[2], false, 0)
		}
	case spirv.OpTypeFloat:
		if len(w) >= 3 {
			var e spirv.FPEncoding
			if len(w) >= 4 {
				e = spirv.FPEncoding(w[3])
			}
			s.numType[in.ResultID] = numberType(spirv.Float, w[2], len(w) >= 4, e)
		}
	case spirv.OpExtInstImport:
		name := string(appendString(nil, in.OperandWords(1)))
		set := spirv.LookupExtInstSet(name)
		if set == nil && !strings.HasPrefix(name, "NonSemantic.") {
			s.bad = true
			return
		}
		s.imports = append(s.imports, streamImport{in.ResultID, set})
	}
}

func numberType(k spirv.NumberKind, width uint32, hasEnc bool, enc spirv.FPEncoding) spirv.NumberType {
	if width == 0 || width > 64 {
		return spirv.NumberType{}
	}
	return spirv.NumberType{Kind: k, Width: uint8(width), HasEncoding: hasEnc, Encoding: enc}
}

func (s *stream) setType(id, typ uint32) {
	if s.frozen {
		return
	}
	if int(id) < len(s.typeOf) {
		s.typeOf[id] = typ
		return
	}
	if s.bigType == nil {
		s.bigType = make(map[uint32]uint32)
	}
	s.bigType[id] = typ
}

func (s *stream) typeOfID(id uint32) uint32 {
	if int(id) < len(s.typeOf) {
		return s.typeOf[id]
	}
	return s.bigType[id]
}

func (s *stream) operandList(list []spirv.OperandInfo) {
	for i := range list {
		o := &list[i]
		switch o.Quantifier {
		case spirv.One:
			if s.pos >= len(s.words) {
				s.bad = true
				return
			}
			s.operand(o.Kind)
		case spirv.Optional:
			if s.pos < len(s.words) {
				s.operand(o.Kind)
			}
		case spirv.Variadic:
			for s.pos < len(s.words) && !s.bad {
				s.operand(o.Kind)
			}
		}
		if s.bad {
			return
		}
	}
}

func (s *stream) add(k spirv.OperandKind, count int) {
	s.ops = append(s.ops, spirv.Operand{Kind: k, Offset: uint16(s.pos), Count: uint16(count)})
	s.pos += count
}

// operand parses one operand of kind k at s.pos; a word remains.
func (s *stream) operand(k spirv.OperandKind) {
	info := k.Info()
	switch info.Category {
	case spirv.CategoryID:
		id := s.words[s.pos]
		if id == 0 || id >= s.bound {
			s.bad = true
			return
		}
		switch k {
		case spirv.OperandKindIdResultType:
			s.in.TypeID = id
		case spirv.OperandKindIdResult:
			s.in.ResultID = id
			if s.in.TypeID != 0 {
				s.setType(id, s.in.TypeID)
			}
		}
		s.add(k, 1)
		return
	case spirv.CategoryValueEnum:
		e, ok := k.Enumerant(s.words[s.pos])
		if !ok {
			s.bad = true
			return
		}
		s.add(k, 1)
		s.params(e)
		return
	case spirv.CategoryBitEnum:
		v := s.words[s.pos]
		s.add(k, 1)
		for rest := v; rest != 0 && !s.bad; rest &= rest - 1 {
			e, ok := k.Enumerant(rest & -rest)
			if !ok {
				s.bad = true
				return
			}
			s.params(e)
		}
		return
	case spirv.CategoryComposite:
		for _, b := range info.Bases {
			if s.pos >= len(s.words) {
				s.bad = true
				return
			}
			s.operand(b)
			if s.bad {
				return
			}
		}
		return
	}
	switch k {
	case spirv.OperandKindLiteralString:
		for i := s.pos; i < len(s.words); i++ {
			w := s.words[i]
			if w&0xFF == 0 || w&0xFF00 == 0 || w&0xFF0000 == 0 || w&0xFF000000 == 0 {
				s.add(k, i-s.pos+1)
				return
			}
		}
		s.bad = true
	case spirv.OperandKindLiteralContextDependentNumber:
		s.typedNumber(k, s.numType[s.in.TypeID])
	case spirv.OperandKindLiteralExtInstInteger:
		s.extInst()
	case spirv.OperandKindLiteralSpecConstantOpInteger:
		s.specConstantOp()
	default:
		s.add(k, 1)
	}
}

func (s *stream) params(e *spirv.Enumerant) {
	for i := range e.Parameters {
		if s.pos >= len(s.words) {
			s.bad = true
			return
		}
		s.operand(e.Parameters[i].Kind)
		if s.bad {
			return
		}
	}
}

func (s *stream) typedNumber(k spirv.OperandKind, nt spirv.NumberType) {
	if nt.Kind == spirv.NotNumber {
		s.bad = true
		return
	}
	n := (int(nt.Width) + 31) / 32
	if s.pos+n > len(s.words) {
		s.bad = true
		return
	}
	s.ops = append(s.ops, spirv.Operand{Kind: k, Offset: uint16(s.pos), Count: uint16(n), Number: nt})
	s.pos += n
}

func (s *stream) switchOperands() {
	for i := 0; i < 2; i++ {
		if s.pos >= len(s.words) {
			s.bad = true
			return
		}
		s.operand(spirv.OperandKindIdRef)
		if s.bad {
			return
		}
	}
	nt := s.numType[s.typeOfID(s.words[1])]
	if nt.Kind != spirv.Unsigned && nt.Kind != spirv.Signed {
		s.bad = true
		return
	}
	for s.pos < len(s.words) && !s.bad {
		s.typedNumber(spirv.OperandKindLiteralInteger, nt)
		if s.bad || s.pos >= len(s.words) {
			s.bad = true
			return
		}
		s.operand(spirv.OperandKindIdRef)
	}
}

func (s *stream) extInst() {
	setID := s.words[3]
	var imp *streamImport
	for i := range s.imports {
		if s.imports[i].id == setID {
			imp = &s.imports[i]
			break
		}
	}
	if imp == nil {
		s.bad = true
		return
	}
	num := s.words[s.pos]
	s.add(spirv.OperandKindLiteralExtInstInteger, 1)
	if imp.set == nil {
		for s.pos < len(s.words) && !s.bad {
			s.operand(spirv.OperandKindIdRef)
		}
		return
	}
	s.in.ExtSet = imp.set
	ext, ok := imp.set.Instruction(num)
	if !ok {
		s.bad = true
		return
	}
	s.operandList(ext.Operands)
}

func (s *stream) specConstantOp() {
	w := s.words[s.pos]
	op := spirv.Opcode(w)
	info := op.Info()
	if info == nil || uint32(op) != w {
		s.bad = true
		return
	}
	s.add(spirv.OperandKindLiteralSpecConstantOpInteger, 1)
	ops := info.Operands
	for len(ops) > 0 && (ops[0].Kind == spirv.OperandKindIdResultType || ops[0].Kind == spirv.OperandKindIdResult) {
		ops = ops[1:]
	}
	s.operandList(ops)
}
