package val

import (
	"sync"

	"spvx/spirv"
)

// Several rules ask who uses an id: ValidateFunction (uses of a function),
// ValidateTypeFunction (uses of a function type), the decoration-group and
// FPRoundingMode rules, ValidateSampledImage (the consumers of an
// OpSampledImage) and ValidateInterfaces (the functions that reach a
// variable). spirv-val answers from its def-use manager, built once; each
// of those rules here once walked the whole module's operands itself (and
// the second loop's forks each walked again). useIndex is the def-use
// list, built once per validation and shared by the forks.

// use is one id operand: the instruction and the operand's index in its
// Operands.
type use struct {
	inst, op int32
}

// useIndex lists every id operand of the module (spirv.Instruction.
// IDOperands: Result Type included) by the instruction that defines the
// id, in module order: the uses of the id that instruction d defines are
// uses[start[d]:start[d+1]]. An id no instruction defines has its uses in
// undefined.
type useIndex struct {
	start     []int32
	uses      []use
	undefined map[uint32][]use
}

// sharedUses builds the useIndex once per validation, on first need.
type sharedUses struct {
	once sync.Once
	idx  *useIndex
}

// useIdx returns the module's def-use lists, building them on first use;
// safe to call from the second loop's forks.
func (s *state) useIdx() *useIndex {
	s.useList.once.Do(func() { s.useList.idx = buildUseIndex(s.m, s.x) })
	return s.useList.idx
}

// buildUseIndex walks the module's operands twice, counting the uses of
// each definition and then placing them (a counting sort, so each list
// stays in module order and the lists take one exact allocation).
func buildUseIndex(m *spirv.Module, x *spirv.Index) *useIndex {
	n := m.Len()
	u := &useIndex{start: make([]int32, n+1)}
	for i := 0; i < n; i++ {
		in := m.Inst(i)
		for k, id := range in.IDOperands() {
			if d, ok := x.Def(id); ok {
				u.start[d+1]++
			} else {
				if u.undefined == nil {
					u.undefined = map[uint32][]use{}
				}
				u.undefined[id] = append(u.undefined[id], use{int32(i), int32(k)})
			}
		}
	}
	for d := 1; d <= n; d++ {
		u.start[d] += u.start[d-1]
	}
	// start[d] is where d's next use goes while they are placed: its
	// beginning, advancing to its end, which is d+1's beginning; one
	// shift then gives the beginnings back (no second table of the
	// module's size).
	u.uses = make([]use, u.start[n])
	for i := 0; i < n; i++ {
		in := m.Inst(i)
		for k, id := range in.IDOperands() {
			if d, ok := x.Def(id); ok {
				u.uses[u.start[d]] = use{int32(i), int32(k)}
				u.start[d]++
			}
		}
	}
	copy(u.start[1:], u.start[:n])
	u.start[0] = 0
	return u
}

// of returns the uses of id, in module order.
func (u *useIndex) of(x *spirv.Index, id uint32) []use {
	d, ok := x.Def(id)
	if !ok {
		return u.undefined[id]
	}
	return u.uses[u.start[d]:u.start[d+1]]
}

// byDef returns the uses of the id instruction d defines (d must be the
// id's first definition), in module order.
func (u *useIndex) byDef(d int) []use {
	return u.uses[u.start[d]:u.start[d+1]]
}

// calleeAt returns the function instruction i calls, if it is an
// OpFunctionCall; a scan for calls reads only the opcodes of the rest.
func calleeAt(m *spirv.Module, i int) (uint32, bool) {
	if m.Opcode(i) != spirv.OpFunctionCall {
		return 0, false
	}
	if in := m.Inst(i); len(in.Words) > 3 {
		return in.Words[3], true
	}
	return 0, false
}
