package spirv

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"unsafe"
)

// DecodeOptions select how strictly a module is decoded. The zero value
// is the strict decoder that Decode, DecodeWords, DecodeInto and NewReader
// use.
//
// Both modes apply every rule of SPIRV-Tools' binary parser
// (source/binary.cpp), which is what spirv-dis accepts: the header, word
// counts, opcodes, enumerants, ids that are 0 or defined twice, literal
// sizes, extended instruction sets, OpSpecConstantOp operations. The strict
// mode also rejects ids not less than the header's bound, a rule of the
// validator rather than of the parser.
type DecodeOptions struct {
	// Lenient accepts ids at or above the header's bound, as spirv-dis
	// does: the disassembler, spvx info, and a validator that must report
	// such ids rather than refuse the module, decode leniently.
	Lenient bool
}

// Decode parses a binary SPIR-V module. The input may be in either byte
// order. Every operand is parsed per the grammar; the first problem found
// is returned as a *DecodeError. The module may share memory with b (to
// avoid copying large inputs), so b must not be modified afterwards.
func Decode(b []byte) (*Module, error) { return DecodeOptions{}.Decode(b) }

// Decode is spirv.Decode with options o.
func (o DecodeOptions) Decode(b []byte) (*Module, error) {
	words, bigEndian, err := wordsOf(b)
	if err != nil {
		return nil, err
	}
	m, err := o.DecodeWords(words)
	if m != nil {
		m.Header.BigEndian = bigEndian
	}
	return m, err
}

// wordsOf checks the byte-level framing of a module and returns its words
// in host order, viewing b in place when it can.
func wordsOf(b []byte) (words []uint32, bigEndian bool, err error) {
	if len(b) < 20 {
		return nil, false, &DecodeError{Word: len(b) / 4, Inst: -1, Err: ErrShortHeader}
	}
	if len(b)%4 != 0 {
		return nil, false, &DecodeError{Word: -1, Inst: -1, Err: fmt.Errorf("%w; it is %d bytes", ErrNotWordAligned, len(b))}
	}
	var order binary.ByteOrder = binary.LittleEndian
	switch {
	case binary.LittleEndian.Uint32(b) == MagicNumber:
	case binary.BigEndian.Uint32(b) == MagicNumber:
		order, bigEndian = binary.BigEndian, true
	default:
		return nil, false, &DecodeError{Word: 0, Inst: -1, Err: fmt.Errorf("%w 0x%08x", ErrBadMagic, binary.LittleEndian.Uint32(b))}
	}
	if words = hostWords(b); words == nil {
		words = make([]uint32, len(b)/4)
		for i := range words {
			words[i] = order.Uint32(b[4*i:])
		}
	}
	return words, bigEndian, nil
}

// hostWords views b as words without copying when b is in host byte order
// and suitably aligned; it returns nil otherwise. The module then shares
// b's memory, which is why Decode documents that b must not change.
func hostWords(b []byte) []uint32 {
	if !HostLittleEndian || uintptr(unsafe.Pointer(unsafe.SliceData(b)))%4 != 0 || binary.LittleEndian.Uint32(b) != MagicNumber {
		return nil
	}
	return unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/4)
}

// HostLittleEndian reports whether this machine stores words little-end
// first, the byte order of almost every SPIR-V module: words can then be
// viewed in place and written out without swapping.
var HostLittleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// DecodeWords parses a module already split into host-order words. The
// module keeps references to words.
func DecodeWords(words []uint32) (*Module, error) { return DecodeOptions{}.DecodeWords(words) }

// DecodeWords is spirv.DecodeWords with options o.
func (o DecodeOptions) DecodeWords(words []uint32) (*Module, error) {
	m := new(Module)
	if err := m.decodeWords(words, sharedOperands(), o); err != nil {
		return nil, err
	}
	return m, nil
}

// DecodeInto is Decode into an existing module, reusing its instruction
// and operand storage: a program that decodes many modules one after
// another (spvx info over a corpus) then allocates nothing in the steady
// state. Everything m held before is overwritten, including the
// instructions and operand slices earlier callers may still reference. On
// error m's contents are unspecified.
func DecodeInto(m *Module, b []byte) error { return DecodeOptions{}.DecodeInto(m, b) }

// DecodeInto is spirv.DecodeInto with options o.
func (o DecodeOptions) DecodeInto(m *Module, b []byte) error {
	words, bigEndian, err := wordsOf(b)
	if err != nil {
		return err
	}
	if err := m.decodeWords(words, sharedOperands(), o); err != nil {
		return err
	}
	m.Header.BigEndian = bigEndian
	return nil
}

// decodeWords decodes words into m. shared is sharedOperands(), or for
// tests of the general path, noSharedOperands.
func (m *Module) decodeWords(words []uint32, shared *sharedLists, o DecodeOptions) error {
	var d decoder
	h, err := d.init(words, &m.scratch, o)
	if err != nil {
		return err
	}
	d.shared = shared
	m.Header, m.index = h, nil
	// Count the instructions first so the record slice is allocated once
	// at its exact size. Every stored operand takes at least one word that
	// is not an instruction's first word, which bounds the operand count;
	// both allocations are bounded by the input's size.
	n, maxOps := countInstructions(words, d.shared)
	if cap(m.insts) >= n {
		m.insts = m.insts[:n]
	} else {
		m.insts = make([]instRecord, n)
	}
	if m.ops != nil && cap(m.ops) >= maxOps { // non-nil: Operands is never nil
		d.ops = m.ops[:0]
	} else {
		d.ops = make([]Operand, 0, maxOps)
	}
	m.words, m.shared = words, shared
	// The decoder fills in an Instruction view, which is then stored in
	// compact form; the view lives in the module so it is not allocated.
	in := &m.scratch.view
	for i := 0; d.off < len(words); i++ {
		if i == len(m.insts) { // only when countInstructions stopped early
			m.insts = append(m.insts, instRecord{})
		}
		start := len(d.ops)
		d.setIndex = 0
		if _, err := d.next(in); err != nil {
			m.insts, m.ops = m.insts[:i], d.ops
			return err
		}
		r := instRecord{
			offset:  in.Offset,
			opStart: uint32(start),
			nwords:  uint16(len(in.Words)),
			nops:    uint16(len(in.Operands)),
			opcode:  in.Opcode,
			extSet:  d.setIndex,
		}
		if d.sharedOps {
			r.opStart, r.flags = d.sharedStart, recordShared
		}
		if in.TypeID != 0 {
			r.flags |= recordHasType
		}
		if in.ResultID != 0 {
			r.flags |= recordHasResult
		}
		m.insts[i] = r
	}
	m.ops = d.ops
	*in = Instruction{}
	m.scratch.imports, m.scratch.nameBuf, m.scratch.defined = d.imports, d.nameBuf, d.ids.defined
	return nil
}

// Reader decodes a module one instruction at a time, reusing its buffers,
// for consumers that stream through a module (the disassembler) and
// should not pay for materializing every instruction: it allocates only
// small tables, whatever the module's size. It applies exactly Decode's
// checks and reports the same errors.
type Reader struct {
	d      decoder
	header Header
	in     Instruction
}

// NewReader checks b's header and prepares to read its instructions.
// Like Decode, it may keep a view of b, which must not change.
func NewReader(b []byte) (*Reader, error) { return DecodeOptions{}.NewReader(b) }

// NewReader is spirv.NewReader with options o.
func (o DecodeOptions) NewReader(b []byte) (*Reader, error) {
	words, bigEndian, err := wordsOf(b)
	if err != nil {
		return nil, err
	}
	r, err := o.NewWordReader(words)
	if r != nil {
		r.header.BigEndian = bigEndian
	}
	return r, err
}

// NewWordReader is NewReader for a module already in host-order words.
func NewWordReader(words []uint32) (*Reader, error) { return DecodeOptions{}.NewWordReader(words) }

// NewWordReader is spirv.NewWordReader with options o.
func (o DecodeOptions) NewWordReader(words []uint32) (*Reader, error) {
	r := new(Reader)
	h, err := r.d.init(words, new(decodeScratch), o)
	if err != nil {
		return nil, err
	}
	r.d.ops = make([]Operand, 0, 16)
	r.header = h
	return r, nil
}

// Header returns the module header.
func (r *Reader) Header() Header { return r.header }

// Next decodes the next instruction. The returned instruction, including
// its Operands, is valid only until the next call to Next or Reset, and
// must not be modified (Operands may be a list shared by many
// instructions). At the end of the module Next returns nil, io.EOF; on
// malformed input, nil and a *DecodeError (and keeps returning that error).
func (r *Reader) Next() (*Instruction, error) {
	if r.d.err != nil {
		return nil, r.d.err
	}
	r.d.ops = r.d.ops[:0]
	ok, err := r.d.next(&r.in)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, io.EOF
	}
	return &r.in, nil
}

// Reset goes back to the first instruction, for a consumer that needs two
// passes (the disassembler names ids in a first pass).
func (r *Reader) Reset() {
	r.d.off, r.d.index, r.d.err = 5, 0, nil
	r.d.imports = r.d.imports[:0]
	r.d.ids.reset() // the definitions are read again
}

// decodeScratch is the decoder's storage a Module keeps for DecodeInto.
type decodeScratch struct {
	view      Instruction
	imports   []extImport
	nameBuf   []byte
	typeOf    []uint32
	defined   []uint64
	numType   map[uint32]numInfo
	importIdx map[uint32]int32
}

// init checks the header words and prepares d to decode words.
func (d *decoder) init(words []uint32, scratch *decodeScratch, o DecodeOptions) (Header, error) {
	if len(words) < 5 {
		return Header{}, &DecodeError{Word: len(words), Inst: -1, Err: ErrShortHeader}
	}
	if words[0] != MagicNumber {
		return Header{}, &DecodeError{Word: 0, Inst: -1, Err: fmt.Errorf("%w 0x%08x", ErrBadMagic, words[0])}
	}
	if len(words) > math.MaxInt32 {
		// Instruction offsets are 32-bit; SPIR-V itself caps nothing, but
		// a module of 8 GiB is not one anyone writes.
		return Header{}, &DecodeError{Word: 0, Inst: -1, Err: fmt.Errorf("%w: %d words", ErrTooLarge, len(words))}
	}
	if v := words[1]; v&0xFF0000FF != 0 || v < 0x10000 || v > uint32(MaxVersion) {
		// SPIRV-Tools' spvBinaryHeaderGet: the high and low bytes are 0,
		// and the version is 1.0 to the latest it knows.
		return Header{}, &DecodeError{Word: 1, Inst: -1, Err: fmt.Errorf("%w 0x%08x: want 1.0 to %s", ErrBadVersion, v, MaxVersion)}
	}
	h := Header{
		Magic:     words[0],
		Version:   Version(words[1]),
		Generator: words[2],
		Bound:     words[3],
		Schema:    words[4],
	}
	*d = decoder{words: words, bound: words[3], off: 5, imports: scratch.imports[:0], nameBuf: scratch.nameBuf, shared: sharedOperands(), lenient: o.Lenient}
	d.ids.init(words[3], len(words), scratch)
	return h, nil
}

// countInstructions walks the word counts; it stops at the first zero
// count or overrun, which the real pass reports. It also returns how many
// operands the instructions can store at most: one per operand word, except
// for instructions that will use shared operand lists.
func countInstructions(words []uint32, shared *sharedLists) (n, maxOps int) {
	for off := 5; off < len(words); n++ {
		w := words[off]
		c := int(w >> 16)
		if c == 0 {
			return n + 1, maxOps
		}
		if list, _ := shared.lookup(Opcode(w), c-1); list == nil {
			maxOps += c - 1
		}
		off += c
	}
	return n, maxOps
}

// MaxVersion is the latest SPIR-V version, the highest a module header may
// give (SPIRV-Tools' SPV_VERSION).
const MaxVersion Version = 0x10600

// idTable records, per id, whether it is defined, the type of a value and
// the number type of a type. Ids below a limit proportional to the input
// size live in slices; any larger id (legal when the bound is large, and
// any id at all in a lenient decode) goes to maps, so a huge id in a small
// module cannot cause a huge allocation. Every lookup is O(1).
type idTable struct {
	typeOf  []uint32
	defined []uint64          // bit per id below len(typeOf)
	bigType map[uint32]uint32 // ids at or above len(typeOf): present when defined
	numType map[uint32]numInfo
	imports map[uint32]int32 // OpExtInstImport result id → index in decoder.imports
}

// numInfo is what a type id means to literal sizing: SPIRV-Tools'
// NumberType, with the word count a literal of the type takes.
type numInfo struct {
	nt    NumberType
	words uint16
}

func (t *idTable) init(bound uint32, nwords int, scratch *decodeScratch) {
	n := uint64(bound)
	if limit := uint64(nwords) + 64; n > limit {
		n = limit
	}
	if uint64(cap(scratch.typeOf)) >= n {
		scratch.typeOf = scratch.typeOf[:n]
		clear(scratch.typeOf)
	} else {
		scratch.typeOf = make([]uint32, n)
	}
	nd := (n + 63) / 64
	if uint64(cap(scratch.defined)) >= nd {
		scratch.defined = scratch.defined[:nd]
		clear(scratch.defined)
	} else {
		scratch.defined = make([]uint64, nd)
	}
	if scratch.numType == nil {
		scratch.numType = map[uint32]numInfo{}
		scratch.importIdx = map[uint32]int32{}
	}
	clear(scratch.numType)
	clear(scratch.importIdx)
	t.typeOf, t.defined, t.numType, t.imports = scratch.typeOf, scratch.defined, scratch.numType, scratch.importIdx
}

// reset forgets the definitions, for a Reader that reads the module again.
func (t *idTable) reset() {
	clear(t.defined)
	clear(t.bigType)
	clear(t.imports)
}

// isDefined reports whether id has been defined.
func (t *idTable) isDefined(id uint32) bool {
	if int(id) < len(t.typeOf) {
		return t.defined[id/64]&(1<<(id%64)) != 0
	}
	_, ok := t.bigType[id]
	return ok
}

// define records the definition of id with type typ (0 for none).
func (t *idTable) define(id, typ uint32) {
	if int(id) < len(t.typeOf) {
		t.typeOf[id] = typ
		t.defined[id/64] |= 1 << (id % 64)
		return
	}
	if t.bigType == nil {
		t.bigType = map[uint32]uint32{}
	}
	t.bigType[id] = typ
}

func (t *idTable) typeOfID(id uint32) uint32 {
	if int(id) < len(t.typeOf) {
		return t.typeOf[id]
	}
	return t.bigType[id]
}

func (t *idTable) setNum(id uint32, n numInfo) { t.numType[id] = n }

func (t *idTable) num(id uint32) numInfo { return t.numType[id] }

type extImport struct {
	id       uint32
	set      *ExtInstSet
	setIndex uint8 // 1 + index of set in extInstSets; 0 when set is nil
	ok       bool  // known set or NonSemantic.*
}

type decoder struct {
	words   []uint32
	bound   uint32
	lenient bool // DecodeOptions.Lenient
	off     int  // word offset of the next instruction
	ops     []Operand
	ids     idTable
	imports []extImport
	nameBuf []byte // scratch for OpExtInstImport names

	// Per instruction.
	inst  []uint32 // the current instruction's words
	pos   int      // next word to read within inst
	index int      // instruction index
	at    int      // word offset of the instruction
	op    Opcode
	cur   *Instruction
	err   error
	// setIndex is the current OpExtInst's set as 1 + its index in
	// extInstSets, the form a Module stores; 0 otherwise.
	setIndex uint8
	// sharedOps says the current instruction's operands are a shared list
	// (see sharedOperands) rather than stored in ops.
	sharedOps   bool
	sharedStart uint32       // the list's start in shared.flat
	shared      *sharedLists // sharedOperands()
}

func (d *decoder) fail(err error) error {
	if d.err == nil {
		d.err = &DecodeError{Word: d.at, Inst: d.index, Op: d.op, Err: err}
	}
	return d.err
}

// next decodes the instruction at d.off into *in, appending its operands
// to d.ops. It returns false at the end of the module.
func (d *decoder) next(in *Instruction) (bool, error) {
	words := d.words
	off := d.off
	if off >= len(words) {
		return false, nil
	}
	w := words[off]
	n := int(w >> 16)
	d.op = Opcode(w)
	d.at = off
	if n == 0 {
		return false, d.fail(ErrZeroWordCount)
	}
	if off+n > len(words) {
		return false, d.fail(fmt.Errorf("%w: word count %d, %d words left", ErrTruncated, n, len(words)-off))
	}
	info := d.op.Info()
	if info == nil {
		return false, d.fail(fmt.Errorf("%w %d", ErrUnknownOpcode, uint16(d.op)))
	}
	d.inst = words[off : off+n : off+n]
	d.pos = 1
	d.sharedOps = false
	start := len(d.ops)
	*in = Instruction{Opcode: d.op, Offset: int32(off), Words: d.inst}
	d.cur = in
	if err := d.operands(info); err != nil {
		return false, err
	}
	if d.pos != n {
		return false, d.fail(fmt.Errorf("%w: %d of %d words used", ErrExtraWords, d.pos, n))
	}
	if !d.sharedOps {
		in.Operands = d.ops[start:len(d.ops):len(d.ops)]
	}
	if err := d.record(); err != nil {
		return false, err
	}
	d.index++
	d.off = off + n
	return true, nil
}

// operands parses the operands of the current instruction.
func (d *decoder) operands(info *InstructionInfo) error {
	if d.op == OpSwitch {
		return d.switchOperands()
	}
	if d.idOperands(info) {
		return nil
	}
	return d.operandList(info.Operands, nil)
}

// idOperands is the fast path for instructions made of single-word ids
// only, whose operands are a shared list (see sharedOperands). It declines
// (returns false, having consumed nothing) whenever anything is off, so the
// general path reports the error.
func (d *decoder) idOperands(info *InstructionInfo) bool {
	inst := d.inst
	shared, start := d.shared.lookup(d.op, len(inst)-1)
	if shared == nil {
		return false
	}
	for _, id := range inst[1:] {
		if id == 0 || (id >= d.bound && !d.lenient) {
			return false
		}
	}
	var typ, res uint32
	if info.HasType {
		typ = inst[1]
		if info.HasResult {
			res = inst[2]
		}
	} else if info.HasResult {
		res = inst[1]
	}
	if res != 0 {
		if d.ids.isDefined(res) {
			return false
		}
		d.ids.define(res, typ)
	}
	d.cur.Operands, d.sharedOps, d.sharedStart = shared, true, start
	d.pos = len(inst)
	d.cur.TypeID, d.cur.ResultID = typ, res
	return true
}

// record notes what later instructions need from the current one: the
// number types that size literals, and the extended instruction imports.
func (d *decoder) record() error {
	in := d.cur
	switch d.op {
	case OpTypeInt:
		if len(in.Words) >= 4 {
			k := Unsigned
			if in.Words[3] != 0 {
				k = Signed
			}
			d.ids.setNum(in.ResultID, numberType(k, in.Words[2], false, 0))
		}
	case OpTypeFloat:
		if len(in.Words) >= 3 {
			enc := len(in.Words) >= 4
			var e FPEncoding
			if enc {
				e = FPEncoding(in.Words[3])
			}
			d.ids.setNum(in.ResultID, numberType(Float, in.Words[2], enc, e))
		}
	case OpExtInstImport:
		// The name is matched as bytes so that decoding allocates nothing.
		name := AppendString(d.nameBuf[:0], in.OperandWords(1))
		d.nameBuf = name
		set, index, ok := importedSet(name)
		d.ids.imports[in.ResultID] = int32(len(d.imports))
		d.imports = append(d.imports, extImport{in.ResultID, set, index, ok})
		if !ok {
			return d.fail(fmt.Errorf("%w '%s'", ErrUnknownExtInstSet, name))
		}
	}
	return nil
}

// ImportedExtInstSet says how SPIRV-Tools reads an OpExtInstImport name,
// which the decoder follows: ok is false for a name it rejects; set is the
// grammar that decodes the set's instructions, or nil for a NonSemantic.*
// set it does not know, whose operands are all ids (printed by number).
// "NonSemantic.Shader.DebugInfo.N" reads as version 100 for every N.
func ImportedExtInstSet(name string) (set *ExtInstSet, ok bool) {
	set, _, ok = importedSet([]byte(name))
	return set, ok
}

// importedSet is how SPIRV-Tools (spvExtInstImportTypeGet) reads the name
// an OpExtInstImport imports: the set whose grammar decodes its
// instructions, with 1 + its index in extInstSets (nil, 0 for a
// NonSemantic.* set that SPIRV-Tools does not know, whose operands are all
// ids), and ok false for a name it rejects.
func importedSet(name []byte) (set *ExtInstSet, index uint8, ok bool) {
	set, index = lookupExtInstSet(name)
	if !hasPrefix(name, "NonSemantic.") {
		return set, index, set != nil
	}
	if set != nil {
		for _, p := range spirvToolsNonSemantic {
			if hasPrefix(name, p) {
				if p == "NonSemantic.Shader.DebugInfo." {
					// Every version reads as 100, whose numbering later
					// versions keep.
					set, index = lookupExtInstSet("NonSemantic.Shader.DebugInfo.100")
				}
				return set, index, true
			}
		}
	}
	return nil, 0, true
}

// spirvToolsNonSemantic are the NonSemantic sets SPIRV-Tools decodes with a
// grammar, by the prefixes it matches; it reads every other NonSemantic.*
// set's operands as ids.
var spirvToolsNonSemantic = [...]string{
	"NonSemantic.Shader.DebugInfo.", "NonSemantic.Graph.DebugInfo.",
	"NonSemantic.ClspvReflection.", "NonSemantic.VkspReflection.",
}

// lookupExtInstSet finds the set an import names, as SPIRV-Tools matches
// names: exactly, or for a set that has versions (PrefixMatch) by its name
// followed by a dot. It returns the set with 1 + its index in extInstSets
// (nil, 0 when there is none). It takes the name as a string or as bytes,
// so that the decoder matches without allocating.
func lookupExtInstSet[S ~string | ~[]byte](name S) (*ExtInstSet, uint8) {
	for i := range extInstSets {
		s := &extInstSets[i]
		if !s.PrefixMatch {
			if string(name) == s.Name {
				return s, uint8(i + 1)
			}
			continue
		}
		if hasPrefix(name, s.Name) && (s.Name[len(s.Name)-1] == '.' || len(name) > len(s.Name) && name[len(s.Name)] == '.') {
			return s, uint8(i + 1)
		}
	}
	return nil, 0
}

func hasPrefix[S ~string | ~[]byte](s S, p string) bool {
	return len(s) >= len(p) && string(s[:len(p)]) == p
}

// numberType describes a literal of an OpTypeInt or OpTypeFloat of the
// given width. As in SPIRV-Tools, any width is accepted, and a literal
// takes (width+31)/32 words computed in 32 bits, then kept to 16 (so a
// width with bit 31 set wraps to a few words, as SPIRV-Tools reads it).
func numberType(k NumberKind, width uint32, hasEnc bool, enc FPEncoding) numInfo {
	return numInfo{
		nt:    NumberType{Kind: k, Width: uint8(min(width, 255)), HasEncoding: hasEnc, Encoding: enc},
		words: uint16((width + 31) / 32),
	}
}

// operandList parses operands per a grammar list. set is the extended
// instruction set whose kinds the list may name (nil for core).
func (d *decoder) operandList(list []OperandInfo, set *ExtInstSet) error {
	for i := range list {
		o := &list[i]
		switch o.Quantifier {
		case One:
			if d.pos >= len(d.inst) {
				return d.fail(fmt.Errorf("%w %s", ErrMissingOperand, operandLabel(o)))
			}
			if err := d.operand(o.Kind); err != nil {
				return err
			}
		case Optional:
			if d.pos < len(d.inst) {
				if err := d.operand(o.Kind); err != nil {
					return err
				}
			}
		case Variadic:
			k := o.Kind
			if k == OperandKindPairIdRefIdRef {
				// OpPhi's pairs: SPIRV-Tools reads them as a list of ids
				// (its grammar generator maps them to VariableId), so an
				// odd count is no error of the parser.
				k = OperandKindIdRef
			}
			for d.pos < len(d.inst) {
				if err := d.operand(k); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func operandLabel(o *OperandInfo) string {
	if o.Name != "" {
		return "'" + o.Name + "'"
	}
	return o.Kind.String()
}

func (d *decoder) add(kind OperandKind, count int) {
	d.ops = append(d.ops, Operand{Kind: kind, Offset: uint16(d.pos), Count: uint16(count)})
	d.pos += count
}

// checkID applies SPIRV-Tools' one check of an id, that it is not 0, and
// in a strict decode the bound.
func (d *decoder) checkID(id uint32) error {
	if id == 0 {
		return d.fail(ErrZeroID)
	}
	if id >= d.bound && !d.lenient {
		return d.fail(fmt.Errorf("%w: id %d, bound %d", ErrIDOutOfBound, id, d.bound))
	}
	return nil
}

// operand parses one operand of kind k at d.pos (words are known to remain).
func (d *decoder) operand(k OperandKind) error {
	info := &operandKinds[k]
	switch info.Category {
	case CategoryID:
		id := d.inst[d.pos]
		if err := d.checkID(id); err != nil {
			return err
		}
		switch k {
		case OperandKindIdResultType:
			d.cur.TypeID = id
		case OperandKindIdResult:
			d.cur.ResultID = id
			if d.ids.isDefined(id) {
				return d.fail(fmt.Errorf("Id %d is %w", id, ErrDuplicateID))
			}
			d.ids.define(id, d.cur.TypeID)
		}
		d.add(k, 1)
		return nil
	case CategoryValueEnum:
		v := d.inst[d.pos]
		e, ok := k.Enumerant(v)
		if !ok {
			return d.fail(fmt.Errorf("%w: %d is not a %s", ErrUnknownEnumerant, v, info.Name))
		}
		d.add(k, 1)
		return d.params(e)
	case CategoryBitEnum:
		v := d.inst[d.pos]
		d.add(k, 1)
		if v == 0 {
			return nil
		}
		for bit := uint32(1); bit != 0; bit <<= 1 {
			if v&bit == 0 {
				continue
			}
			e, ok := k.Enumerant(bit)
			if !ok {
				return d.fail(fmt.Errorf("%w: bit 0x%x is not a %s", ErrUnknownEnumerant, bit, info.Name))
			}
			if err := d.params(e); err != nil {
				return err
			}
		}
		return nil
	case CategoryComposite:
		for _, b := range info.Bases {
			if d.pos >= len(d.inst) {
				return d.fail(fmt.Errorf("%w: incomplete %s", ErrOperandOverrun, info.Name))
			}
			if err := d.operand(b); err != nil {
				return err
			}
		}
		return nil
	}
	// Literals.
	switch k {
	case OperandKindLiteralString:
		for i := d.pos; i < len(d.inst); i++ {
			w := d.inst[i]
			if w&0xFF == 0 || w&0xFF00 == 0 || w&0xFF0000 == 0 || w&0xFF000000 == 0 {
				d.add(k, i-d.pos+1)
				return nil
			}
		}
		return d.fail(ErrUnterminatedString)
	case OperandKindLiteralContextDependentNumber:
		n := d.ids.num(d.cur.TypeID)
		if n.nt.Kind != NotNumber && n.words == 0 {
			// SPIRV-Tools reads no word for the literal, and then always
			// fails on the word count.
			return d.fail(fmt.Errorf("%w: type id %d has width 0", ErrBadNumberType, d.cur.TypeID))
		}
		return d.typedNumber(k, n, d.cur.TypeID)
	case OperandKindLiteralExtInstInteger:
		return d.extInst()
	case OperandKindLiteralSpecConstantOpInteger:
		return d.specConstantOp()
	}
	// LiteralInteger, LiteralFloat and set-specific literal kinds: one word.
	d.add(k, 1)
	return nil
}

// params parses the parameters an enumerant brings (e.g. Decoration
// ArrayStride's stride, MemoryAccess Aligned's alignment).
func (d *decoder) params(e *Enumerant) error {
	for i := range e.Parameters {
		if d.pos >= len(d.inst) {
			return d.fail(fmt.Errorf("%w: %s needs its %s parameter", ErrMissingOperand, e.Name, operandLabel(&e.Parameters[i])))
		}
		if err := d.operand(e.Parameters[i].Kind); err != nil {
			return err
		}
	}
	return nil
}

func (d *decoder) typedNumber(k OperandKind, num numInfo, typeID uint32) error {
	if num.nt.Kind == NotNumber {
		return d.fail(fmt.Errorf("%w: Type Id %d is not a scalar numeric type", ErrBadNumberType, typeID))
	}
	n := int(num.words)
	if d.pos+n > len(d.inst) {
		return d.fail(fmt.Errorf("%w: a literal of type id %d needs %d words", ErrOperandOverrun, typeID, n))
	}
	d.ops = append(d.ops, Operand{Kind: k, Offset: uint16(d.pos), Count: uint16(n), Number: num.nt})
	d.pos += n
	return nil
}

// switchOperands parses OpSwitch, whose case literals take the width and
// signedness of the selector's type.
func (d *decoder) switchOperands() error {
	for i := 0; i < 2; i++ {
		if d.pos >= len(d.inst) {
			return d.fail(fmt.Errorf("%w %s", ErrMissingOperand, [2]string{"'Selector'", "'Default'"}[i]))
		}
		if err := d.operand(OperandKindIdRef); err != nil {
			return err
		}
	}
	if d.pos == len(d.inst) {
		// No case: SPIRV-Tools looks at the selector's type only to size
		// case literals, so it does not check it here.
		return nil
	}
	sel := d.inst[1]
	typeID := d.ids.typeOfID(sel)
	nt := d.ids.num(typeID)
	if nt.nt.Kind != Unsigned && nt.nt.Kind != Signed {
		return d.fail(fmt.Errorf("%w: OpSwitch selector %d does not have an integer type", ErrBadNumberType, sel))
	}
	for d.pos < len(d.inst) {
		if err := d.typedNumber(OperandKindLiteralInteger, nt, typeID); err != nil {
			return err
		}
		if d.pos >= len(d.inst) {
			return d.fail(fmt.Errorf("%w: OpSwitch case has no target label", ErrMissingOperand))
		}
		if err := d.operand(OperandKindIdRef); err != nil {
			return err
		}
	}
	return nil
}

func (d *decoder) extInst() error {
	// OpExtInst: Result Type, Result, Set, Instruction, operands...
	setID := d.inst[3]
	i, ok := d.ids.imports[setID]
	if !ok {
		return d.fail(fmt.Errorf("%w: set Id %d does not reference an OpExtInstImport result Id", ErrUnknownExtInstSet, setID))
	}
	imp := &d.imports[i]
	num := d.inst[d.pos]
	d.add(OperandKindLiteralExtInstInteger, 1)
	if imp.set == nil {
		// Unknown NonSemantic.* set: every remaining operand is an id.
		return d.idsToEnd()
	}
	nonSemantic := hasPrefix(imp.set.Name, "NonSemantic.")
	ext, ok := imp.set.Instruction(num)
	if !ok {
		if nonSemantic {
			// Non-semantic sets may grow; like SPIRV-Tools, read an
			// instruction this grammar lacks as ids (ExtSet stays nil).
			return d.idsToEnd()
		}
		return d.fail(fmt.Errorf("%w %d in %s", ErrUnknownExtInst, num, imp.set.Name))
	}
	d.cur.ExtSet, d.setIndex = imp.set, imp.setIndex
	if err := d.operandList(ext.Operands, imp.set); err != nil {
		return err
	}
	if nonSemantic {
		// As current SPIRV-Tools, absorb the operands a later version of
		// the set adds, as ids.
		return d.idsToEnd()
	}
	return nil
}

func (d *decoder) idsToEnd() error {
	for d.pos < len(d.inst) {
		if err := d.operand(OperandKindIdRef); err != nil {
			return err
		}
	}
	return nil
}

// specConstantOp parses OpSpecConstantOp's operation and its operands.
// Only the operations the specification allows are accepted, as
// SPIRV-Tools does; none of them is OpSpecConstantOp or takes an operand
// that embeds an operation, so this never nests (an operation word
// 52, OpSpecConstantOp, is an error, not a level of recursion).
func (d *decoder) specConstantOp() error {
	w := d.inst[d.pos]
	op := Opcode(w)
	info := op.Info()
	if info == nil || uint32(op) != w || !IsSpecConstantOpcode(op) {
		return d.fail(fmt.Errorf("%w: %d", ErrBadSpecConstantOp, w))
	}
	d.add(OperandKindLiteralSpecConstantOpInteger, 1)
	// The operation's own operands, less its Result Type and Result.
	ops := info.Operands
	for len(ops) > 0 && (ops[0].Kind == OperandKindIdResultType || ops[0].Kind == OperandKindIdResult) {
		ops = ops[1:]
	}
	return d.operandList(ops, nil)
}

// IsSpecConstantOpcode reports whether OpSpecConstantOp may perform op: the
// operations the specification lists under OpSpecConstantOp, with the
// untyped access chains and cooperative matrix lengths that SPIRV-Tools
// (source/assembly_grammar.cpp) adds.
func IsSpecConstantOpcode(op Opcode) bool {
	switch op {
	case OpSConvert, OpFConvert, OpConvertFToS, OpConvertSToF, OpConvertFToU,
		OpConvertUToF, OpUConvert, OpConvertPtrToU, OpConvertUToPtr,
		OpGenericCastToPtr, OpPtrCastToGeneric, OpBitcast, OpQuantizeToF16,
		// Arithmetic
		OpSNegate, OpNot, OpIAdd, OpISub, OpIMul, OpUDiv, OpSDiv, OpUMod,
		OpSRem, OpSMod, OpShiftRightLogical, OpShiftRightArithmetic,
		OpShiftLeftLogical, OpBitwiseOr, OpBitwiseAnd, OpBitwiseXor, OpFNegate,
		OpFAdd, OpFSub, OpFMul, OpFDiv, OpFRem, OpFMod,
		// Composite
		OpVectorShuffle, OpCompositeExtract, OpCompositeInsert,
		// Logical
		OpLogicalOr, OpLogicalAnd, OpLogicalNot, OpLogicalEqual,
		OpLogicalNotEqual, OpSelect,
		// Comparison
		OpIEqual, OpINotEqual, OpULessThan, OpSLessThan, OpUGreaterThan,
		OpSGreaterThan, OpULessThanEqual, OpSLessThanEqual,
		OpUGreaterThanEqual, OpSGreaterThanEqual,
		// Memory
		OpAccessChain, OpInBoundsAccessChain, OpPtrAccessChain,
		OpInBoundsPtrAccessChain, OpUntypedAccessChainKHR,
		OpUntypedInBoundsAccessChainKHR, OpUntypedPtrAccessChainKHR,
		OpUntypedInBoundsPtrAccessChainKHR,
		OpCooperativeMatrixLengthNV, OpCooperativeMatrixLengthKHR:
		return true
	}
	return false
}
