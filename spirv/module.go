package spirv

import (
	"iter"
	"sync"
)

// MagicNumber is the first word of every SPIR-V module.
const MagicNumber = 0x07230203

// Header is the five-word module header.
type Header struct {
	Magic     uint32 // MagicNumber, in host order after decoding
	Version   Version
	Generator uint32 // tool id in the high 16 bits, tool version in the low 16
	Bound     uint32 // all ids are less than Bound
	Schema    uint32
	// BigEndian records the byte order of the encoded module, so that
	// Encode reproduces the input byte for byte.
	BigEndian bool
}

// Module is a decoded SPIR-V module: its header and its instructions in
// the order written. Instructions are read with Len, Inst and All.
//
// A module stores its instructions as ranges into its words and operands
// rather than as slices: the stored form holds no pointers, so decoding a
// large module makes a few pointer-free allocations that the garbage
// collector never has to scan (see docs/ARCHITECTURE.md).
type Module struct {
	Header Header

	words   []uint32     // the module in host order, header included; instructions view into it
	insts   []instRecord // one per instruction, in order
	ops     []Operand    // the operands of instructions without a shared list, in order
	shared  *sharedLists // sharedOperands(), which holds the other instructions' operands
	index   *Index       // built by Index on first use, under indexMu
	indexMu sync.Mutex
	scratch decodeScratch // decoder storage kept for DecodeInto
}

// instRecord is the stored form of an Instruction. Result Type and
// Result <id> are not stored: the grammar puts them first, so Inst reads
// them from the words.
type instRecord struct {
	offset       int32  // word offset in Module.words
	opStart      uint32 // index of the first operand in Module.ops, or in shared.flat
	nwords, nops uint16 // a word count is 16 bits, which bounds both
	opcode       Opcode
	extSet       uint8 // 1 + index in extInstSets; 0 for none
	flags        uint8 // record* bits
}

// Bits of instRecord.flags.
const (
	recordShared    = 1 << iota // operands are a shared list (see sharedOperands)
	recordHasType               // words[1] is the Result Type
	recordHasResult             // the Result <id> follows the Result Type, if any
)

// Len returns the number of instructions.
func (m *Module) Len() int { return len(m.insts) }

// Inst returns instruction i, 0 <= i < Len(). The instruction is a view:
// its Words and Operands share the module's storage (and Operands may be
// shared with other instructions), so they must not be modified, and they
// stay valid as long as the module is not decoded into again (DecodeInto).
func (m *Module) Inst(i int) (in Instruction) {
	r := m.insts[i]
	off, end := int(r.offset), int(r.offset)+int(r.nwords)
	in.Words = m.words[off:end:end]
	in.Offset, in.Opcode = r.offset, r.opcode
	ops := m.ops
	if r.flags&recordShared != 0 {
		ops = m.shared.flat
	}
	opStart, opEnd := int(r.opStart), int(r.opStart)+int(r.nops)
	in.Operands = ops[opStart:opEnd:opEnd]
	if r.extSet != 0 {
		in.ExtSet = &extInstSets[r.extSet-1]
	}
	switch r.flags & (recordHasType | recordHasResult) {
	case recordHasType | recordHasResult:
		in.TypeID, in.ResultID = in.Words[1], in.Words[2]
	case recordHasResult:
		in.ResultID = in.Words[1]
	case recordHasType:
		in.TypeID = in.Words[1]
	}
	return in
}

// All iterates over the instructions with their indices, in order.
func (m *Module) All() iter.Seq2[int, Instruction] {
	return func(yield func(int, Instruction) bool) {
		for i := range m.insts {
			if !yield(i, m.Inst(i)) {
				return
			}
		}
	}
}

// Words returns the module's words in host order, header included, as
// decoded (Encode applies any change made to Header since). The slice
// shares the module's storage; it is nil for a module never decoded.
func (m *Module) Words() []uint32 {
	if m.words == nil {
		return nil
	}
	n := m.Size()
	return m.words[:n:n]
}

// Instruction is one instruction: its raw words (first word included) and
// the decoded view of its operands. It is a view into storage owned by a
// Module (see Module.Inst) or a Reader: its slices must not be modified.
type Instruction struct {
	Words    []uint32 // all the instruction's words, in host order
	Operands []Operand
	// ExtSet is the grammar of the set an OpExtInst refers to; nil for
	// other instructions, for an instruction number its NonSemantic.* set
	// lacks, and for NonSemantic.* sets SPIRV-Tools does not know (such as
	// NonSemantic.DebugPrintf: their operands are read as ids, as there;
	// see ImportedExtInstSet).
	ExtSet *ExtInstSet
	// TypeID and ResultID are the Result Type and Result <id> operands,
	// 0 when the instruction has none.
	TypeID, ResultID uint32
	Offset           int32 // word offset of the instruction in the module, header included
	Opcode           Opcode
}

// Operand locates one operand in its instruction's words.
type Operand struct {
	// Kind is the operand's kind as the grammar gives it (for enumerant
	// parameters, the parameter's kind; for the parts of a composite such
	// as PairLiteralIntegerIdRef, the part's kind).
	Kind   OperandKind
	Offset uint16 // index of the first word in Instruction.Words
	Count  uint16 // number of words
	// Number is the type that sizes a literal number: set for
	// LiteralContextDependentNumber (OpConstant, OpSpecConstant) and for
	// OpSwitch case literals; zero otherwise.
	Number NumberType
}

// NumberKind says how the words of a typed literal are read.
type NumberKind uint8

// Number kinds of typed literals.
const (
	NotNumber NumberKind = iota
	Unsigned
	Signed
	Float
)

// NumberType is the scalar type of a typed literal number.
type NumberType struct {
	Kind  NumberKind
	Width uint8 // bits: 4, 6, 8, 16, 32 or 64
	// HasEncoding and Encoding give OpTypeFloat's FP Encoding operand.
	HasEncoding bool
	Encoding    FPEncoding
}

// OperandWords returns the words of operand i.
func (in *Instruction) OperandWords(i int) []uint32 {
	o := in.Operands[i]
	return in.Words[o.Offset : int(o.Offset)+int(o.Count)]
}

// IDOperands yields the index and value of every operand that names an
// id, by the grammar's Id category, except the Result <id>: the Result
// Type, IdRef, IdScope and IdMemorySemantics operands, and the id operands
// of extended-instruction sets. Each such operand is one word.
func (in *Instruction) IDOperands() iter.Seq2[int, uint32] {
	return in.idOperands(false)
}

// UsedIDs is IDOperands without the Result Type: the ids whose values (or,
// for OpFunctionCall and the like, whose definitions) the instruction
// reads.
func (in *Instruction) UsedIDs() iter.Seq2[int, uint32] {
	return in.idOperands(true)
}

func (in *Instruction) idOperands(skipType bool) iter.Seq2[int, uint32] {
	return func(yield func(int, uint32) bool) {
		for k, o := range in.Operands {
			if o.Kind == OperandKindIdResult || skipType && o.Kind == OperandKindIdResultType {
				continue
			}
			if ki := o.Kind.Info(); ki == nil || ki.Category != CategoryID || int(o.Offset) >= len(in.Words) {
				continue
			}
			if !yield(k, in.Words[o.Offset]) {
				return
			}
		}
	}
}

// Word returns the first word of operand i.
func (in *Instruction) Word(i int) uint32 { return in.Words[in.Operands[i].Offset] }

// String decodes a LiteralString operand: the bytes up to the first nul.
func (in *Instruction) String(i int) string {
	return DecodeString(in.OperandWords(i))
}

// DecodeString returns the nul-terminated UTF-8 string packed little-end
// first into words.
func DecodeString(words []uint32) string {
	return string(AppendString(make([]byte, 0, len(words)*4), words))
}

// AppendString appends the bytes of the nul-terminated string packed
// little-end first into words (a LiteralString operand), without the nul;
// all of the words' bytes if there is no nul. It is the one string
// unpacker of spvx: the decoder, the index and the disassembler use it.
func AppendString(dst []byte, words []uint32) []byte {
	for _, w := range words {
		for k := 0; k < 4; k++ {
			c := byte(w >> (8 * k))
			if c == 0 {
				return dst
			}
			dst = append(dst, c)
		}
	}
	return dst
}

// EncodeString packs s with its nul terminator into words, appending to dst.
func EncodeString(dst []uint32, s string) []uint32 {
	n := len(s)/4 + 1
	for i := 0; i < n; i++ {
		var w uint32
		for k := 0; k < 4; k++ {
			j := i*4 + k
			if j < len(s) {
				w |= uint32(s[j]) << (8 * k)
			}
		}
		dst = append(dst, w)
	}
	return dst
}

// Opcode returns instruction i's opcode, without building its view: the
// cheap test of a scan that looks at a few opcodes.
func (m *Module) Opcode(i int) Opcode { return m.insts[i].opcode }
