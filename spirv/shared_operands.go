package spirv

import "sync"

// Most instructions of a typical module consist of single-word ids only:
// either every operand is an id (InstructionInfo.IDsOnly: OpIAdd,
// OpAccessChain, ...) or the ids are followed by optional operands that
// are absent (OpLoad and OpStore without Memory Operands). The operands of
// such an instruction depend only on its opcode and word count: operand i
// is word i+1, of the kind the grammar gives. They share one read-only
// operand list per opcode instead of each storing their own, which makes
// decoding faster and a decoded module smaller.

// maxSharedVariadic is how many trailing variadic ids a shared list
// covers; a longer instruction stores its operands like any other.
const maxSharedVariadic = 64

// sharedLists holds every shared operand list in one array, so that a
// decoded module can refer to a list by its start index.
type sharedLists struct {
	flat   []Operand
	byInst []sharedList // by row of instructions
}

// sharedList locates the shared operand list of one instruction, valid
// for instructions with min to max operand words, all of them ids.
type sharedList struct {
	start    uint32 // in sharedLists.flat
	min, max uint16 // max is 0 when the instruction has no list
}

// sharedOperands returns the shared operand lists. They are built on first
// use, not in init, so that programs which never decode pay nothing.
var sharedOperands = sync.OnceValue(func() *sharedLists {
	s := &sharedLists{byInst: make([]sharedList, len(instructions))}
	for i := range instructions {
		kinds, min := sharedKinds(&instructions[i])
		if len(kinds) == 0 {
			continue
		}
		s.byInst[i] = sharedList{start: uint32(len(s.flat)), min: uint16(min), max: uint16(len(kinds))}
		for k, kind := range kinds {
			s.flat = append(s.flat, Operand{Kind: kind, Offset: uint16(k + 1), Count: 1})
		}
	}
	return s
})

// noSharedOperands has no lists: decoding with it takes the general path
// for every instruction (tests compare the two).
var noSharedOperands = &sharedLists{byInst: make([]sharedList, len(instructions))}

// sharedKinds gives the operand kinds of an instruction's shared list, and
// the fewest operands it applies to: its leading single-word id operands,
// when everything after them is optional, or a variadic id list (extended
// to maxSharedVariadic ids). It returns nothing when there is no list.
func sharedKinds(info *InstructionInfo) (kinds []OperandKind, min int) {
	variadic := false
	for k, o := range info.Operands {
		isID := operandKinds[o.Kind].Category == CategoryID
		switch {
		case o.Quantifier == One && isID && len(kinds) == k:
			kinds = append(kinds, o.Kind)
		case o.Quantifier == One:
			return nil, 0 // a required operand that is not an id
		case o.Quantifier == Variadic && isID && len(kinds) == k && k == len(info.Operands)-1:
			variadic = true
		}
	}
	min = len(kinds)
	if variadic {
		for range maxSharedVariadic {
			kinds = append(kinds, info.Operands[len(info.Operands)-1].Kind)
		}
	}
	return kinds, min
}

// lookup returns the shared operand list of an instruction with opcode op
// and n operand words, and its start in flat; nil when it cannot have one.
func (s *sharedLists) lookup(op Opcode, n int) ([]Operand, uint32) {
	if int(op) >= len(opcodeIndex) || opcodeIndex[op] == noInstruction {
		return nil, 0
	}
	l := s.byInst[opcodeIndex[op]]
	if l.max == 0 || n < int(l.min) || n > int(l.max) {
		return nil, 0
	}
	end := int(l.start) + n
	return s.flat[l.start:end:end], l.start
}
