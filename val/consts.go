package val

import "spvx/spirv"

// Constant evaluation: the one place that reads a constant's value.
// SPIRV-Tools reads a constant differently per rule
// (EvalConstantValUint64, EvalConstantValInt64, EvalInt32IfConst, or
// "is an OpConstant"): a spec constant's literal is only a default, and
// OpConstantNull is zero without a literal. intConstant reports all of
// that; each rule asks for its reading by name below.

// intConst is what an integer scalar constant says about its value.
type intConst struct {
	val   uint64 // the literal, zero-extended; a spec constant's default; 0 for OpConstantNull
	words int    // literal words: 1 or 2, 0 for OpConstantNull
	width uint32 // the type's bit width
	spec  bool   // OpSpecConstant: val is a default, not the value
	null  bool   // OpConstantNull
}

// intConstant reads id as an integer scalar constant: an OpConstant or
// OpSpecConstant with one or two literal words, or an OpConstantNull,
// whose type is an OpTypeInt. ok is false for anything else.
func (s *state) intConstant(id uint32) (c intConst, ok bool) {
	k, found := s.x.Constants[id]
	if !found || !s.isIntScalar(k.Type) {
		return c, false
	}
	c.width, c.spec = s.typeOf(k.Type).Width, k.Spec
	switch k.Op {
	case spirv.OpConstantNull:
		c.null = true
		return c, true
	case spirv.OpConstant, spirv.OpSpecConstant:
	default:
		return c, false
	}
	switch c.words = len(k.Value); c.words {
	case 1:
		c.val = uint64(k.Value[0])
	case 2:
		c.val = uint64(k.Value[0]) | uint64(k.Value[1])<<32
	default:
		return c, false
	}
	return c, true
}

// constUint is EvalConstantValUint64: the value of an integer OpConstant
// or OpConstantNull; a spec constant is not evaluated.
func (s *state) constUint(id uint32) (uint64, bool) {
	c, ok := s.intConstant(id)
	if !ok || c.spec {
		return 0, false
	}
	return c.val, true
}

// constInt64 is EvalConstantValInt64: constUint's reading, with a
// one-word literal sign-extended from bit 31 whatever the signedness.
func (s *state) constInt64(id uint32) (int64, bool) {
	c, ok := s.intConstant(id)
	if !ok || c.spec {
		return 0, false
	}
	if c.words == 1 {
		return int64(int32(uint32(c.val))), true
	}
	return int64(c.val), true
}

// constInt32 is EvalInt32IfConst's "constant" answer for OpConstant and
// OpConstantNull: the value of a non-spec 32-bit integer constant.
func (s *state) constInt32(id uint32) (uint32, bool) {
	c, ok := s.intConstant(id)
	if !ok || c.spec || c.width != 32 || !c.null && c.words != 1 {
		return 0, false
	}
	return uint32(c.val), true
}

// constLiteralU32 is the value of a 32-bit integer OpConstant with one
// literal word; OpConstantNull and spec constants do not count (the
// DebugInfo rules read only literals).
func (s *state) constLiteralU32(id uint32) (uint32, bool) {
	c, ok := s.intConstant(id)
	if !ok || c.spec || c.null || c.width != 32 || c.words != 1 {
		return 0, false
	}
	return uint32(c.val), true
}

// constsDiffer: both ids are 32-bit integer constants of different values.
func (s *state) constsDiffer(a, b uint32) bool {
	x, okA := s.constInt32(a)
	y, okB := s.constInt32(b)
	return okA && okB && x != y
}

// evalInt32IfConst is EvalInt32IfConst: whether id's type is a 32-bit
// integer scalar, whether id is a (non-specialization) constant, and its
// value. Unlike constInt32 it takes any constant instruction of that type
// (the scope and memory semantics rules), reading its first literal word.
func (s *state) evalInt32IfConst(id uint32) (isInt32, isConst bool, v uint32) {
	j, ok := s.x.Def(id)
	if !ok {
		return false, false, 0
	}
	in := s.m.Inst(j)
	t := s.typeOf(in.TypeID)
	if in.TypeID == 0 || t == nil || t.Op != spirv.OpTypeInt || t.Width != 32 {
		return false, false, 0
	}
	switch in.Opcode {
	case spirv.OpConstantNull:
		return true, true, 0
	case spirv.OpSpecConstantTrue, spirv.OpSpecConstantFalse, spirv.OpSpecConstant,
		spirv.OpSpecConstantComposite, spirv.OpSpecConstantCompositeReplicateEXT,
		spirv.OpSpecConstantDataKHR, spirv.OpSpecConstantOp, spirv.OpSpecConstantStringAMDX:
		return true, false, 0
	}
	if !isConstantOp(in.Opcode) || len(in.Words) < 4 {
		return true, false, 0
	}
	return true, true, in.Words[3]
}
