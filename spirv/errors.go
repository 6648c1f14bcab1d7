package spirv

import (
	"errors"
	"fmt"
)

// Sentinel errors wrapped by *DecodeError; test with errors.Is.
var (
	ErrBadMagic           = errors.New("invalid magic number")
	ErrShortHeader        = errors.New("module is shorter than the 5-word header")
	ErrNotWordAligned     = errors.New("module size should be a multiple of 4 bytes")
	ErrBadVersion         = errors.New("invalid SPIR-V version")
	ErrZeroWordCount      = errors.New("word count is 0")
	ErrTruncated          = errors.New("instruction runs past the end of the module")
	ErrOperandOverrun     = errors.New("operands run past the instruction's word count")
	ErrExtraWords         = errors.New("instruction has words left after its last operand")
	ErrMissingOperand     = errors.New("missing operand")
	ErrUnterminatedString = errors.New("string literal has no nul terminator")
	ErrUnknownOpcode      = errors.New("unknown opcode")
	ErrUnknownEnumerant   = errors.New("unknown enumerant")
	ErrIDOutOfBound       = errors.New("id is not less than the bound")
	ErrZeroID             = errors.New("Id is 0")
	ErrDuplicateID        = errors.New("defined more than once") // "Id N is defined more than once"
	ErrUnknownExtInstSet  = errors.New("unknown extended instruction set")
	ErrUnknownExtInst     = errors.New("unknown extended instruction")
	ErrBadNumberType      = errors.New("literal number has no usable type")
	ErrBadSpecConstantOp  = errors.New("invalid OpSpecConstantOp opcode")
	ErrTooLarge           = errors.New("module has more than 2^31-1 words")
)

// DecodeError reports where decoding failed: the word offset from the
// start of the module (header included), the index of the instruction,
// and its opcode when known.
type DecodeError struct {
	Word int    // word offset in the module; -1 when the module is not words (ErrNotWordAligned)
	Inst int    // instruction index, -1 for the header
	Op   Opcode // opcode of the instruction, if it was read
	Err  error  // wraps one of the Err* sentinels
}

func (e *DecodeError) Error() string {
	if e.Word < 0 {
		return e.Err.Error() // the framing, not a word, is wrong
	}
	if e.Inst < 0 {
		return fmt.Sprintf("header at word %d: %v", e.Word, e.Err)
	}
	name := ""
	if info := e.Op.Info(); info != nil {
		name = " (" + info.Name + ")"
	}
	return fmt.Sprintf("instruction #%d%s at word %d: %v", e.Inst, name, e.Word, e.Err)
}

func (e *DecodeError) Unwrap() error { return e.Err }
