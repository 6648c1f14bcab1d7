package val

import (
	"fmt"

	"spvx/spirv"
)

// The tensor family (SPV_ARM_tensors), as SPIRV-Tools' TensorPass
// (validate_tensor.cpp) checks it: OpTensorReadARM, OpTensorWriteARM
// and OpTensorQuerySizeARM. The tensor layouts and views of
// SPV_NV_tensor_addressing are TensorLayoutPass (validate_tensor_layout.cpp),
// tensorLayoutPass below, which spirv-val runs just before. The type and
// constant rules of OpTypeTensorARM are in type.go and constants.go.

// Messages shared by the read and write rules.
const (
	tsRanked = "Expected Tensor to be an OpTypeTensorARM whose Rank is specified"
	tsCoords = "Expected Coordinates to be an array whose Element Type is an integer type and whose Length is equal to the Rank of Tensor."
	tsAvail  = "MakeElementAvailableARM requires NonPrivateElementARM."
)

// tensorOps reports whether tensorPass can act on an instruction of opcode op
// (passGate runs it on no other: a new case there needs its opcode here).
func tensorOps(op spirv.Opcode) bool {
	return op == spirv.OpTensorReadARM || op == spirv.OpTensorWriteARM || op == spirv.OpTensorQuerySizeARM
}

// tensorPass is TensorPass: it applies the rule of in's opcode.
func (s *state) tensorPass(i int, in *spirv.Instruction) bool {
	var msg string
	switch in.Opcode {
	case spirv.OpTensorReadARM:
		msg = s.tensorRead(in)
	case spirv.OpTensorWriteARM:
		msg = s.tensorWrite(in)
	case spirv.OpTensorQuerySizeARM:
		msg = s.tensorQuerySize(in)
	}
	if msg == "" {
		return false
	}
	return s.fail(i, "", "%s", msg)
}

// isRankedTensor is IsRankedTensor: an OpTypeTensorARM with a Rank.
func (s *state) isRankedTensor(t uint32) bool {
	return s.typeOp(t) == spirv.OpTypeTensorARM && len(s.typeWords(t)) > 3
}

// tensorRank is GetTensorTypeRank: the Rank of tensor type t when it is
// a plain constant, else 0.
func (s *state) tensorRank(t uint32) uint64 {
	if !s.isRankedTensor(t) {
		return 0
	}
	r, _ := s.constUint(s.typeWord(t, 3))
	return r
}

// isScalarOrScalarArray is IsScalarTypeOrOrArrayOfScalarType.
func (s *state) isScalarOrScalarArray(t uint32) bool {
	if s.isScalarType(t) {
		return true
	}
	return s.typeOp(t) == spirv.OpTypeArray && s.isScalarType(s.typeWord(t, 2))
}

// isScalarType is IsScalarType: an int, float or bool scalar.
func (s *state) isScalarType(t uint32) bool {
	return s.isIntScalar(t) || s.isFloatScalar(t) || s.isBoolScalar(t)
}

// isArrayOfLength is IsArrayType(t, length): an OpTypeArray whose Length,
// when length is not 0, is a constant instruction that does not evaluate
// to another length (a spec constant length passes).
func (s *state) isArrayOfLength(t uint32, length uint64) bool {
	if s.typeOp(t) != spirv.OpTypeArray {
		return false
	}
	if length == 0 {
		return true
	}
	lid := s.typeWord(t, 3)
	j, ok := s.x.Def(lid)
	if !ok || !isConstantOp(s.m.Opcode(j)) {
		return false
	}
	v, ok := s.constUint(lid)
	return !ok || v == length
}

// tensorCoordsOK is IsIntArrayType(type of coords, Rank of tensor type t).
func (s *state) tensorCoordsOK(coords, t uint32) bool {
	ct := s.typeOfValue(coords)
	return s.isArrayOfLength(ct, s.tensorRank(t)) && s.isIntScalar(s.componentType(ct))
}

// tensorRead is ValidateTensorRead. Its operands are Result Type,
// Result, Tensor, Coordinates and the optional Tensor Operands; the
// words are read as spirv-val reads them.
func (s *state) tensorRead(in *spirv.Instruction) string {
	if !s.isScalarOrScalarArray(in.TypeID) {
		return "Expected Result Type to be a scalar type or array of scalar type."
	}
	w := in.Words
	if len(w) < 5 {
		return ""
	}
	tt := s.typeOfValue(w[3])
	if !s.isRankedTensor(tt) {
		return tsRanked
	}
	if s.componentType(tt) != s.componentType(in.TypeID) {
		return "Expected Result Type to be the same as the Element Type of Tensor."
	}
	if !s.tensorCoordsOK(w[4], tt) {
		return tsCoords
	}
	if len(w) <= 5 {
		return ""
	}
	ops := spirv.TensorOperands(w[5])
	if ops&spirv.TensorOperandsOutOfBoundsValueARM != 0 {
		if len(w) < 7 {
			return "A value must be provided after the OutOfBoundsValueARM Tensor Operand."
		}
		if s.componentType(tt) != s.componentType(s.typeOfValue(w[6])) {
			return "Expected the type of the OutOfBoundsValueARM value to be the same as the Element Type of Tensor."
		}
	}
	if ops&spirv.TensorOperandsMakeElementAvailableARM != 0 {
		return "MakeElementAvailableARM cannot be used with OpTensorReadARM."
	}
	// spirv-val names the wrong operand here; its text is kept.
	if ops&spirv.TensorOperandsMakeElementVisibleARM != 0 && ops&spirv.TensorOperandsNonPrivateElementARM == 0 {
		return tsAvail
	}
	return ""
}

// tensorWrite is ValidateTensorWrite: Tensor, Coordinates, Object and
// the optional Tensor Operands, which spirv-val reads only when a word
// follows the mask.
func (s *state) tensorWrite(in *spirv.Instruction) string {
	w := in.Words
	if len(w) < 4 {
		return ""
	}
	tt := s.typeOfValue(w[1])
	if !s.isRankedTensor(tt) {
		return tsRanked
	}
	if !s.tensorCoordsOK(w[2], tt) {
		return tsCoords
	}
	ot := s.typeOfValue(w[3])
	if !s.isScalarOrScalarArray(ot) || s.componentType(ot) != s.componentType(tt) {
		return "Expected Object to be a scalar type or array of scalar type that is the same as the Element Type of Tensor."
	}
	if len(w) <= 5 {
		return ""
	}
	ops := spirv.TensorOperands(w[4])
	switch {
	case ops&spirv.TensorOperandsOutOfBoundsValueARM != 0:
		return "OutOfBoundsValue Tensor Operand not allowed with OpTensorWriteARM."
	case ops&spirv.TensorOperandsMakeElementVisibleARM != 0:
		return "MakeElementVisibleARM not allowed with OpTensorWriteARM."
	case ops&spirv.TensorOperandsMakeElementAvailableARM != 0 && ops&spirv.TensorOperandsNonPrivateElementARM == 0:
		return tsAvail
	}
	return ""
}

// tensorQuerySize is ValidateTensorQuerySize.
func (s *state) tensorQuerySize(in *spirv.Instruction) string {
	if !s.isIntScalar(in.TypeID) {
		return "Expected Result Type to be an integer type scalar"
	}
	w := in.Words
	if len(w) < 5 {
		return ""
	}
	tt := s.typeOfValue(w[3])
	if !s.isRankedTensor(tt) {
		return tsRanked
	}
	j, ok := s.x.Def(w[4])
	if !ok || !isConstantOp(s.m.Opcode(j)) || !s.isIntScalar(s.m.Inst(j).TypeID) {
		return "Dimension must come from a constant instruction of scalar integer type."
	}
	rank, ok1 := s.constUint(s.typeWord(tt, 3))
	dim, ok2 := s.constUint(w[4])
	if ok1 && ok2 && dim >= rank {
		return fmt.Sprintf("Dimension (%d) must be less than the Rank of Tensor (%d).", dim, rank)
	}
	return ""
}

// tensorLayoutOps reports whether tensorLayoutPass can act on an instruction of opcode op
// (passGate runs it on no other: a new case there needs its opcode here).
func tensorLayoutOps(op spirv.Opcode) bool {
	return opIn(op, spirv.OpCreateTensorLayoutNV, spirv.OpCreateTensorViewNV, spirv.OpTensorLayoutSetBlockSizeNV,
		spirv.OpTensorLayoutSetDimensionNV, spirv.OpTensorLayoutSetStrideNV, spirv.OpTensorLayoutSliceNV,
		spirv.OpTensorLayoutSetClampValueNV, spirv.OpTensorViewSetDimensionNV, spirv.OpTensorViewSetStrideNV,
		spirv.OpTensorViewSetClipNV)
}

// tensorLayoutPass is TensorLayoutPass (SPV_NV_tensor_addressing): the
// Result Type of the tensor layout and view instructions, and the count
// and type of the values the setters take.
func (s *state) tensorLayoutPass(i int, in *spirv.Instruction) bool {
	var msg string
	switch in.Opcode {
	case spirv.OpCreateTensorLayoutNV:
		msg = s.tensorLayoutResult(in, spirv.OpTypeTensorLayoutNV)
	case spirv.OpCreateTensorViewNV:
		msg = s.tensorLayoutResult(in, spirv.OpTypeTensorViewNV)
	case spirv.OpTensorLayoutSetBlockSizeNV, spirv.OpTensorLayoutSetDimensionNV, spirv.OpTensorLayoutSetStrideNV:
		msg = s.tensorDimValues(in, spirv.OpTypeTensorLayoutNV, tlDim)
	case spirv.OpTensorLayoutSliceNV:
		msg = s.tensorDimValues(in, spirv.OpTypeTensorLayoutNV, tlDimX2)
	case spirv.OpTensorLayoutSetClampValueNV:
		msg = s.tensorDimValues(in, spirv.OpTypeTensorLayoutNV, tlOne)
	case spirv.OpTensorViewSetDimensionNV, spirv.OpTensorViewSetStrideNV:
		msg = s.tensorDimValues(in, spirv.OpTypeTensorViewNV, tlDim)
	case spirv.OpTensorViewSetClipNV:
		msg = s.tensorDimValues(in, spirv.OpTypeTensorViewNV, tlFour)
	}
	if msg == "" {
		return false
	}
	return s.fail(i, "", "%s", msg)
}

// How many values a tensor layout or view setter takes: the Dim of the
// type, twice it, one or four (ExpectedNumValues).
const (
	tlDim = iota
	tlDimX2
	tlOne
	tlFour
)

// tensorLayoutResult is ValidateTensorLayoutResultTypeNV and
// ValidateTensorViewResultTypeNV: the Result Type must be a want type.
func (s *state) tensorLayoutResult(in *spirv.Instruction, want spirv.Opcode) string {
	if s.typeOp(in.TypeID) == want {
		return ""
	}
	kind := "layout"
	if want == spirv.OpTypeTensorViewNV {
		kind = "view"
	}
	return fmt.Sprintf("%s Result Type <id> %s is not a tensor %s type.", opName(in.Opcode), s.idName(in.TypeID), kind)
}

// tensorDimValues is ValidateTensorTypeWithDimValuesNV: the Result Type
// is the type of the layout or view operand, the number of values is
// what expected says when Dim is a known constant, and each value is a
// 32-bit integer.
func (s *state) tensorDimValues(in *spirv.Instruction, want spirv.Opcode, expected int) string {
	if msg := s.tensorLayoutResult(in, want); msg != "" {
		return msg
	}
	name := "TensorLayout"
	if want == spirv.OpTypeTensorViewNV {
		name = "TensorView"
	}
	if len(in.Words) < 4 || s.typeOfValue(in.Words[3]) != in.TypeID {
		return fmt.Sprintf("%s Result Type <id> %s does not match %s type.", opName(in.Opcode), s.idName(in.TypeID), name)
	}
	values := in.Words[4:]
	if dim, ok := s.constUint(s.typeWord(in.TypeID, 2)); ok {
		if uint64(len(values)) != tensorValueCount(expected, dim) {
			return fmt.Sprintf("%s unexpected number of operands.", opName(in.Opcode))
		}
	}
	for _, v := range values {
		if !s.isIntN(s.typeOfValue(v), 32) {
			return fmt.Sprintf("%s operand <id> %s is not a 32-bit integer.", opName(in.Opcode), s.idName(v))
		}
	}
	return ""
}

// tensorValueCount is the number of values expected asks for when the
// type's Dim is dim.
func tensorValueCount(expected int, dim uint64) uint64 {
	switch expected {
	case tlDim:
		return dim
	case tlDimX2:
		return dim * 2
	case tlOne:
		return 1
	}
	return 4
}

// tensorTypePass is the tensor part of spirv-val's TypePass
// (validate_type.cpp): ValidateTypeTensorLayoutNV, ValidateTypeTensorViewNV
// and ValidateTypeTensorARM. type.go's typePass calls it.
func (s *state) tensorTypePass(i int, in *spirv.Instruction) bool {
	var msg string
	switch in.Opcode {
	case spirv.OpTypeTensorLayoutNV:
		msg = s.tensorLayoutType(in)
	case spirv.OpTypeTensorViewNV:
		msg = s.tensorViewType(in)
	case spirv.OpTypeTensorARM:
		msg = s.tensorARMType(in)
	}
	if msg == "" {
		return false
	}
	return s.fail(i, "", "%s", msg)
}

// maxTensorDim is the largest Dim of a tensor layout or view.
const maxTensorDim = 5

// tensorDim is ValidateTensorDim: Dim (word 2) is a 32-bit integer,
// between 1 and maxTensorDim when it is a known constant.
func (s *state) tensorDim(in *spirv.Instruction) string {
	d := in.Words[2]
	if !s.isIntN(s.typeOfValue(d), 32) {
		return fmt.Sprintf("%s Dim <id> %s is not a 32-bit integer.", opName(in.Opcode), s.idName(d))
	}
	if v, ok := s.constUint(d); ok && (v == 0 || v > maxTensorDim) {
		return fmt.Sprintf("%s Dim <id> %s must be between 1 and %d.", opName(in.Opcode), s.idName(d), maxTensorDim)
	}
	return ""
}

// tensorLayoutType is ValidateTypeTensorLayoutNV: Dim, then ClampMode a
// 32-bit integer naming a TensorClampMode when it is a known constant.
func (s *state) tensorLayoutType(in *spirv.Instruction) string {
	if len(in.Words) < 4 {
		return ""
	}
	if msg := s.tensorDim(in); msg != "" {
		return msg
	}
	c := in.Words[3]
	if !s.isIntN(s.typeOfValue(c), 32) {
		return fmt.Sprintf("%s ClampMode <id> %s is not a 32-bit integer.", opName(in.Opcode), s.idName(c))
	}
	if v, ok := s.constUint(c); ok && v > uint64(spirv.TensorClampModeRepeatMirrored) {
		return fmt.Sprintf("%s ClampMode <id> %s must be a valid TensorClampMode.", opName(in.Opcode), s.idName(c))
	}
	return ""
}

// tensorViewType is ValidateTypeTensorViewNV: Dim, HasDimensions a bool,
// then the Permutation: 32-bit integers, each known one below their
// count, together a permutation when all are known, as many as Dim.
func (s *state) tensorViewType(in *spirv.Instruction) string {
	if len(in.Words) < 4 {
		return ""
	}
	if msg := s.tensorDim(in); msg != "" {
		return msg
	}
	name := opName(in.Opcode)
	if h := in.Words[3]; !s.isBoolScalar(s.typeOfValue(h)) {
		return fmt.Sprintf("%s HasDimensions <id> %s is not a boolean value.", name, s.idName(h))
	}
	perm := in.Words[4:]
	n := uint64(len(perm))
	var mask uint32
	allConst := true
	for _, p := range perm {
		if !s.isIntN(s.typeOfValue(p), 32) {
			return fmt.Sprintf("%s Permutation <id> %s is not a 32-bit integer.", name, s.idName(p))
		}
		v, ok := s.constUint(p)
		if !ok {
			allConst = false
			continue
		}
		if v >= n {
			return fmt.Sprintf("%s Permutation <id> %s must be a valid dimension.", name, s.idName(p))
		}
		mask |= 1 << (v & 31) // spirv-val's 32-bit shift, its count taken modulo 32 as x86 does
	}
	if allConst && mask != 1<<(n&31)-1 {
		return fmt.Sprintf("%s Permutation values don't form a valid permutation.", name)
	}
	if d, ok := s.constUint(in.Words[2]); ok && d != n {
		return fmt.Sprintf("%s Incorrect number of permutation values.", name)
	}
	return ""
}

// tensorARMType is ValidateTypeTensorARM: a scalar Element Type; a Rank,
// when present, from a constant instruction of integer type and not 0; a
// Shape, when present, a constant array of integers of Rank elements,
// none of them 0.
func (s *state) tensorARMType(in *spirv.Instruction) string {
	w := in.Words
	if len(w) < 3 {
		return ""
	}
	if !s.isScalarType(w[2]) {
		return fmt.Sprintf("OpTypeTensorARM Element Type <id> %s is not a scalar type.", s.idName(w[2]))
	}
	if len(w) < 4 {
		return ""
	}
	rank := w[3]
	if !s.isConstantID(rank) {
		return fmt.Sprintf("OpTypeTensorARM Rank <id> %s is not a constant instruction.", s.idName(rank))
	}
	if !s.isIntScalar(s.typeOfValue(rank)) {
		return fmt.Sprintf("OpTypeTensorARM Rank <id> %s does not have a scalar integer type.", s.idName(rank))
	}
	r, ok := s.constUint(rank)
	if ok && r == 0 {
		return fmt.Sprintf("OpTypeTensorARM Rank <id> %s must define a value greater than 0.", s.idName(rank))
	}
	if len(w) < 5 {
		return ""
	}
	return s.tensorShape(w[4], r)
}

// tensorShape checks a tensor type's Shape against its Rank r (0 when
// not known).
func (s *state) tensorShape(shape uint32, r uint64) string {
	j, ok := s.x.Def(shape)
	if !ok || !isConstantOp(s.m.Opcode(j)) {
		return fmt.Sprintf("OpTypeTensorARM Shape <id> %s is not a constant instruction.", s.idName(shape))
	}
	st := s.typeOfValue(shape)
	if !s.isArrayOfLength(st, r) || !s.isIntScalar(s.componentType(st)) {
		return fmt.Sprintf("OpTypeTensorARM Shape <id> %s is not an array of integer type whose Length is equal to Rank.", s.idName(shape))
	}
	sw := s.m.Inst(j).Words
	for k := 3; k < len(sw); k++ {
		if v, ok := s.constUint(sw[k]); ok && v == 0 {
			return fmt.Sprintf("OpTypeTensorARM Shape constituent %d is not greater than 0.", k-3)
		}
	}
	return ""
}

// isShapedTensor is isCompositeType's tensor case: an OpTypeTensorARM
// with a Shape is a composite.
func (s *state) isShapedTensor(rt *spirv.Type) bool {
	j := s.defInst(rt.ID)
	return rt.Op == spirv.OpTypeTensorARM && j >= 0 && len(s.m.Inst(j).Words) == 5
}

// tensorConstantComposite is ValidateConstantComposite's OpTypeTensorARM
// case: as many constituents as the outermost dimension of the Shape;
// with Rank 1 they are elements, with a higher known Rank tensors of the
// same Element Type, Rank one less and the inner dimensions of the Shape.
func (s *state) tensorConstantComposite(i int, in *spirv.Instruction, rt uint32) bool {
	name := opName(in.Opcode)
	tw := s.m.Inst(s.defInst(rt)).Words
	elem := tw[2]
	rank, _ := s.constUint(tw[3])
	var shape []uint32 // the Shape constant's words
	if j := s.defInst(tw[4]); j >= 0 {
		shape = s.m.Inst(j).Words
	}
	parts := in.Words[3:]
	if len(shape) > 3 {
		if v, ok := s.constUint(shape[3]); ok && v != uint64(len(parts)) {
			return s.fail(i, "", "Op%s Constituent count does not match the shape of Result Type <id> %s along its outermost dimension, expected %d but got %d.",
				name, s.idName(rt), v, len(parts))
		}
	}
	for k, p := range parts {
		_, ct := s.constituent(p)
		if ct == 0 {
			j := s.defInst(p)
			if j < 0 {
				j = i
			}
			return s.fail(j, "", "Type of Constituent %d is not defined.", k)
		}
		if rank == 0 {
			continue // a tensor constant of unknown rank
		}
		if rank == 1 {
			if ct != elem {
				return s.fail(i, "", "Op%s Constituent <id> %s type does not match the element type of the tensor (%s).", name, s.idName(p), s.idName(rt))
			}
			continue
		}
		if s.tensorConstituent(i, in, rt, p, ct, k, shape) {
			return true
		}
	}
	return false
}

// tensorConstituent checks constituent k (id p, type ct) of a tensor
// constant of Rank above 1: a tensor of the same Element Type, one Rank
// less, with the inner dimensions of the result's Shape (words shape).
func (s *state) tensorConstituent(i int, in *spirv.Instruction, rt, p, ct uint32, k int, shape []uint32) bool {
	name := opName(in.Opcode)
	tw := s.m.Inst(s.defInst(rt)).Words
	rank, _ := s.constUint(tw[3])
	cj := s.defInst(ct)
	if cj < 0 || s.m.Opcode(cj) != spirv.OpTypeTensorARM {
		return s.fail(i, "", "Op%s Constituent <id> %s must be an OpTypeTensorARM.", name, s.idName(p))
	}
	cw := s.m.Inst(cj).Words
	if len(cw) < 3 || cw[2] != tw[2] {
		return s.fail(i, "", "Op%s Constituent <id> %s must have the same Element Type as Result Type <id> %s.", name, s.idName(p), s.idName(rt))
	}
	if len(cw) > 3 {
		if cr, ok := s.constUint(cw[3]); ok && cr != rank-1 {
			return s.fail(i, "", "Op%s Constituent <id> %s must have a Rank that is 1 less than the Rank of Result Type <id> %s, expected %d but got %d.",
				name, s.idName(p), s.idName(rt), rank-1, cr)
		}
	}
	sj := -1
	if len(cw) > 4 {
		sj = s.defInst(cw[4])
	}
	if sj < 0 {
		return s.fail(s.defInst(rt), "", "Shape of Constituent %d is not defined.", k)
	}
	cs := s.m.Inst(sj).Words
	for w := 3; w < len(cs) && w+1 < len(shape); w++ {
		c, ok1 := s.constUint(cs[w])
		d, ok2 := s.constUint(shape[w+1])
		if ok1 && ok2 && c != d {
			return s.fail(i, "", "Op%s Constituent <id> %s must have a Shape that matches that of Result Type <id> %s along all inner dimensions of Result Type, expected %d for dimension %d of Constituent but got %d.",
				name, s.idName(p), s.idName(rt), d, w-3, c)
		}
	}
	return false
}
