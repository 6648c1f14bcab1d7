package spirv

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
// the order written.
type Module struct {
	Header Header
	Insts  []Instruction

	index   *Index        // built by Index on first use
	scratch decodeScratch // decoder storage kept for DecodeInto
}

// Instruction is one instruction: its raw words (first word included) and
// the decoded view of its operands.
type Instruction struct {
	Words    []uint32 // all the instruction's words, in host order
	Operands []Operand
	// ExtSet is the grammar of the set an OpExtInst refers to; nil for
	// other instructions and for unknown NonSemantic.* sets.
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

// Word returns the first word of operand i.
func (in *Instruction) Word(i int) uint32 { return in.Words[in.Operands[i].Offset] }

// String decodes a LiteralString operand: the bytes up to the first nul.
func (in *Instruction) String(i int) string {
	return DecodeString(in.OperandWords(i))
}

// DecodeString returns the nul-terminated UTF-8 string packed little-end
// first into words.
func DecodeString(words []uint32) string {
	b := make([]byte, 0, len(words)*4)
	for _, w := range words {
		for k := 0; k < 4; k++ {
			c := byte(w >> (8 * k))
			if c == 0 {
				return string(b)
			}
			b = append(b, c)
		}
	}
	return string(b)
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
