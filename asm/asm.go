package asm

import (
	"bytes"
	"fmt"

	"spvx/spirv"
)

// Generator is the header's generator word spirv-as writes: the Khronos
// SPIR-V Tools Assembler (tool id 7) with tool version 0.
const Generator = 7<<16 | 0

// maxErrors bounds the errors collected from one text.
const maxErrors = 1000

// maxText is the largest text Assemble takes: offsets are kept in 32 bits.
const maxText = 1<<31 - 1

// maxWordCount is the largest word count of an instruction.
const maxWordCount = 0xFFFF

// Assemble assembles SPIR-V assembly text into the words of a module,
// header included. On failure it returns an ErrorList (or, for a bad
// Options.TargetEnv, a plain error) and no words.
func Assemble(src []byte, opt Options) ([]uint32, error) {
	a, err := assemble(src, opt)
	if err != nil {
		return nil, err
	}
	return a.out, nil
}

// assemble does Assemble's work and returns the assembler.
func assemble(src []byte, opt Options) (*assembler, error) {
	version := DefaultVersion
	if opt.TargetEnv != "" {
		v, ok := LookupTargetEnv(opt.TargetEnv)
		if !ok {
			return nil, fmt.Errorf("unrecognized target env %q", opt.TargetEnv)
		}
		version = v
	} else if v, ok := versionFromText(src); ok {
		version = v
	}
	if len(src) > maxText {
		return nil, fmt.Errorf("assembly text of %d bytes is larger than the %d bytes spvx handles", len(src), maxText)
	}
	// SPIRV-Tools reads the text as a C string: a nul byte ends it.
	if i := bytes.IndexByte(src, 0); i >= 0 {
		src = src[:i]
	}
	a := newAssembler(src, opt, version, false)
	a.run()
	if !opt.LaxIDs && a.undefinedIDs() {
		// Where an undefined id is first used is only recorded when it is
		// needed: do it all again, noting each id used before it is
		// defined.
		a = newAssembler(src, opt, version, true)
		a.run()
	}
	a.checkIDs()
	if opt.PreserveNumericIDs {
		a.checkPreservedIDs()
	}
	if len(a.errs) > 0 {
		return a, a.errorList()
	}
	bound := a.finishIDs()
	a.out[0] = spirv.MagicNumber
	a.out[1] = uint32(version)
	a.out[2] = Generator
	a.out[3] = bound
	a.out[4] = 0
	return a, nil
}

func newAssembler(src []byte, opt Options, version spirv.Version, trackForward bool) *assembler {
	a := &assembler{src: src, opt: opt, lk: newLookups(version), recordIDs: opt.PreserveNumericIDs, advFrom: -1}
	// Hints from typical disassembly: an id per 80 bytes of text, a word
	// per 11 bytes.
	a.ids.init(src, len(src)/64+16)
	a.info = make(map[uint32]*idInfo)
	a.flags = make([]uint8, 1, len(src)/64+1)
	a.valueType = make([]uint32, 1, len(src)/64+1)
	if trackForward {
		a.forward = make(map[uint32]int32)
	}
	a.out = make([]uint32, 5, len(src)/8+16)
	return a
}

// AssembleBytes is Assemble with the module encoded as little-endian bytes,
// as spirv-as writes it.
func AssembleBytes(src []byte, opt Options) ([]byte, error) {
	words, err := Assemble(src, opt)
	if err != nil {
		return nil, err
	}
	b := make([]byte, 4*len(words))
	for i, w := range words {
		b[4*i] = byte(w)
		b[4*i+1] = byte(w >> 8)
		b[4*i+2] = byte(w >> 16)
		b[4*i+3] = byte(w >> 24)
	}
	return b, nil
}

// slot is one expected operand, like an entry of SPIRV-Tools' operand
// pattern: a grammar operand kind with its quantifier, or one of the
// assembler's own operand forms.
type slot struct {
	kind spirv.OperandKind
	q    spirv.Quantifier
	form uint8
}

// Slot forms beyond the grammar's kinds.
const (
	formGrammar       uint8 = iota
	formCIV                 // after a !<integer>: a number, a string or an id
	formSwitchLiteral       // an OpSwitch case literal, typed by the selector
)

func (s slot) optional() bool { return s.q != spirv.One || s.form != formGrammar }

// extImport is an OpExtInstImport'ed set.
type extImport struct {
	set         *spirv.ExtInstSet // nil for an unknown NonSemantic.* set
	nonSemantic bool
}

// asmError is an error at a byte offset; an empty msg marks an error
// already explained by an earlier one, which is not reported again.
type asmError struct {
	off int
	msg string
}

// status is the outcome of encoding one operand.
type status uint8

const (
	stOK      status = iota
	stError          // an error was recorded
	stNoMatch        // an optional literal that does not parse: the instruction ends there
)

type assembler struct {
	src       []byte
	opt       Options
	lk        *lookups
	out       []uint32
	ids       idTable
	info      map[uint32]*idInfo // types and OpExtInstImport results
	flags     []uint8            // by id; index 0 is unused
	valueType []uint32           // by id: the Result Type of the instruction defining it
	forward   map[uint32]int32   // if not nil, ids used before being defined: offset of the first use
	imports   []extImport
	errs      []asmError
	list      []spirv.OperandInfo // the instruction's operands still expected
	li        int                 // (from list[li]), after those on stack
	idPos     []uint32            // word offsets of ids in out, if recordIDs
	recordIDs bool                // PreserveNumericIDs: ids are renumbered at the end

	advFrom, advTo int // the last skip of advanceSlow (advFrom -1: none)
	stack          []slot

	// The current instruction.
	cur          int // SPIRV-Tools' "current position"
	start        int // index of its first word in out
	opcode       spirv.Opcode
	op           *spirv.InstructionInfo // nil for !<integer> and OpUnknown
	opName       []byte
	result       []byte // "%name" before "=", or nil
	resultOff    int    // its offset
	resultID     uint32
	resultTypeID uint32
	extSet       *extImport
}

func (a *assembler) fail(off int, format string, args ...any) status {
	if len(a.errs) < maxErrors {
		a.errs = append(a.errs, asmError{off, fmt.Sprintf(format, args...)})
	}
	return stError
}

// failQuiet records an error whose cause was already reported.
func (a *assembler) failQuiet(off int) status {
	a.errs = append(a.errs, asmError{off: off})
	return stError
}

func (a *assembler) run() {
	src := a.src
	p := a.advance(0)
	for p < len(src) && len(a.errs) < maxErrors {
		a.cur = p
		if a.instruction() == stError {
			a.recover()
			p = a.resync(p)
			continue
		}
		p = a.advance(a.cur)
	}
}

// recover cleans up after an instruction that failed: its words are
// dropped, and its result id counts as defined (so that its uses do not
// add "has not been defined" errors) but poisoned (so that literals typed
// by it are not reported again).
func (a *assembler) recover() {
	a.out = a.out[:a.start]
	if a.result != nil && validIDName(a.result[1:]) {
		id := a.resultID
		if id == 0 {
			id = a.idOf(a.resultOff+1, a.resultOff+len(a.result))
		}
		a.flags[id] |= flagDefined | flagPoisoned
	}
}

// resync finds where to go on after an error in the instruction starting
// at instStart: the next line that starts an instruction.
func (a *assembler) resync(instStart int) int {
	src := a.src
	p := instStart
	for {
		i := bytes.IndexByte(src[p:], '\n')
		if i < 0 {
			return len(src)
		}
		p = a.advance(p + i + 1)
		if p >= len(src) {
			return p
		}
		if ok, _ := a.newInst(p); ok || src[p] == '!' {
			return p
		}
	}
}
