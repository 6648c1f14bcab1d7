package val

import "spvx/spirv"

// This file holds validate_composites.cpp's rules: the dynamic vector
// extract and insert, OpVectorShuffle, OpCompositeConstruct (and its
// replicate form), OpCompositeExtract and OpCompositeInsert (also as
// OpSpecConstantOp operations), OpCopyObject, OpTranspose and
// OpCopyLogical, with the rule that Shader modules use 8- and 16-bit types
// in composites only with their full-use capability. The QCOM cooperative
// matrix composites are not checked.

// compositesOps reports whether compositesPass can act on an instruction of opcode op
// (passGate runs it on no other: a new case there needs its opcode here).
func compositesOps(op spirv.Opcode) bool {
	return opIn(op, spirv.OpSpecConstantOp, spirv.OpVectorExtractDynamic, spirv.OpVectorInsertDynamic,
		spirv.OpVectorShuffle, spirv.OpCompositeConstruct, spirv.OpCompositeConstructReplicateEXT,
		spirv.OpCompositeExtract, spirv.OpCompositeInsert, spirv.OpCopyObject, spirv.OpTranspose, spirv.OpCopyLogical)
}

func (s *state) compositesPass(i int, in *spirv.Instruction) bool {
	op, first := in.Opcode, 2
	if op == spirv.OpSpecConstantOp {
		op, first = spirv.Opcode(s.opWord(in, 2)), 3
		switch op {
		case spirv.OpVectorShuffle, spirv.OpCompositeExtract, spirv.OpCompositeInsert:
		default:
			return false
		}
	}
	switch op {
	case spirv.OpVectorExtractDynamic:
		return s.vectorExtractDynamic(i, in)
	case spirv.OpVectorInsertDynamic:
		return s.vectorInsertDynamic(i, in)
	case spirv.OpVectorShuffle:
		return s.vectorShuffle(i, in, first)
	case spirv.OpCompositeConstruct:
		return s.compositeConstruct(i, in)
	case spirv.OpCompositeConstructReplicateEXT:
		return s.compositeConstructReplicate(i, in)
	case spirv.OpCompositeExtract:
		return s.compositeExtract(i, in, first)
	case spirv.OpCompositeInsert:
		return s.compositeInsert(i, in, first)
	case spirv.OpCopyObject:
		if s.opType(in, 2) != in.TypeID {
			return s.fail(i, "", "Expected Result Type and Operand type to be the same")
		}
		if s.typeOp(in.TypeID) == spirv.OpTypeVoid {
			return s.fail(i, "", "OpCopyObject cannot have void result type")
		}
	case spirv.OpTranspose:
		return s.transpose(i, in)
	case spirv.OpCopyLogical:
		return s.copyLogical(i, in)
	}
	return false
}

// idOpName is spvOpcodeString(GetIdOpcode(id)): the opcode name of id's
// definition ("Nop" for none).
func (s *state) idOpName(id uint32) string {
	if j, ok := s.x.Def(id); ok {
		return opName(s.m.Opcode(j))
	}
	return opName(spirv.OpNop)
}

func (s *state) vectorExtractDynamic(i int, in *spirv.Instruction) bool {
	res := in.TypeID
	if !isScalarTypeOp(s.typeOp(res)) {
		return s.fail(i, "", "Expected Result Type to be a scalar type")
	}
	vec := s.opType(in, 2)
	if !s.isVector(vec) {
		return s.fail(i, "", "Expected Vector type to be OpTypeVector")
	}
	if s.componentType(vec) != res {
		return s.fail(i, "", "Expected Vector component type to be equal to Result Type")
	}
	if t := s.opType(in, 3); t == 0 || !s.isIntScalar(t) {
		return s.fail(i, "", "Expected Index to be int scalar")
	}
	if s.shaderLimitedUse(res) {
		return s.fail(i, "", "Cannot extract from a vector of 8- or 16-bit types")
	}
	return false
}

func (s *state) vectorInsertDynamic(i int, in *spirv.Instruction) bool {
	res := in.TypeID
	if !s.isVector(res) {
		return s.fail(i, "", "Expected Result Type to be OpTypeVector")
	}
	if s.opType(in, 2) != res {
		return s.fail(i, "", "Expected Vector type to be equal to Result Type")
	}
	if s.componentType(res) != s.opType(in, 3) {
		return s.fail(i, "", "Expected Component type to be equal to Result Type component type")
	}
	if !s.isIntScalar(s.opType(in, 4)) {
		return s.fail(i, "", "Expected Index to be int scalar")
	}
	if s.shaderLimitedUse(res) {
		return s.fail(i, "", "Cannot insert into a vector of 8- or 16-bit types")
	}
	return false
}

func (s *state) vectorShuffle(i int, in *spirv.Instruction, first int) bool {
	res := in.TypeID
	if !s.isVector(res) {
		return s.fail(i, "", "The Result Type of OpVectorShuffle must be a vector type. Found Op%s.", s.idOpName(res))
	}
	lits := first + 2
	count := len(in.Operands) - lits
	if d := s.dimension(res); d > 0 && uint32(count) != d {
		return s.fail(i, "", "OpVectorShuffle component literals count does not match Result Type <id> %ss vector component count.", s.idName(res))
	}
	v1, v2 := s.opType(in, first), s.opType(in, first+1)
	if !s.isVector(v1) {
		return s.fail(i, "", "The type of Vector 1 must be a vector type.")
	}
	if !s.isVector(v2) {
		return s.fail(i, "", "The type of Vector 2 must be a vector type.")
	}
	comp := s.typeWord(res, 2)
	if s.typeWord(v1, 2) != comp {
		return s.fail(i, "", "The Component Type of Vector 1 must be the same as ResultType.")
	}
	if s.typeWord(v2, 2) != comp {
		return s.fail(i, "", "The Component Type of Vector 2 must be the same as ResultType.")
	}
	n := s.typeWord(v1, 3) + s.typeWord(v2, 3)
	for k := lits; k < len(in.Operands); k++ {
		if l := s.opWord(in, k); l != 0xFFFFFFFF && l >= n {
			return s.fail(i, "", "Component index %d is out of bounds for combined (Vector1 + Vector2) size of %d.", l, n)
		}
	}
	if s.shaderLimitedUse(res) {
		return s.fail(i, "", "Cannot shuffle a vector of 8- or 16-bit types")
	}
	return false
}

// arrayTypeLength is the length of OpTypeArray t for the composite rules:
// known false when the length is a spec constant. A length that does not
// evaluate counts as 0, as in a release build of spirv-val.
func (s *state) arrayTypeLength(t uint32) (n uint64, known bool) {
	lenID := s.typeWord(t, 3)
	if c, ok := s.x.Constants[lenID]; ok && c.Spec {
		return 0, false
	}
	n, _ = s.constUint(lenID)
	return n, true
}

func (s *state) compositeConstruct(i int, in *spirv.Instruction) bool {
	n := len(in.Operands)
	res := in.TypeID
	switch op := s.typeOp(res); op {
	case spirv.OpTypeVector, spirv.OpTypeVectorIdEXT:
		want := s.dimension(res)
		comp := s.componentType(res)
		known := true
		if op == spirv.OpTypeVector {
			if n <= 3 && !s.caps.has(spirv.CapabilityLongVectorEXT) {
				return s.fail(i, "", "Expected number of constituents to be at least 2")
			}
		} else {
			v, ok := s.constUint(s.typeWord(res, 3))
			want, known = uint32(v), ok
		}
		var given uint32
		for k := 2; k < n; k++ {
			t := s.opType(in, k)
			if t == comp {
				given++
				continue
			}
			if s.typeOp(t) != spirv.OpTypeVector || s.componentType(t) != comp {
				return s.fail(i, "", "Expected Constituents to be scalars or vectors of the same type as Result Type components")
			}
			given += s.dimension(t)
		}
		if known && want != given {
			return s.fail(i, "", "Expected total number of given components to be equal to the size of Result Type vector")
		}
	case spirv.OpTypeMatrix:
		_, cols, col, _, ok := s.matrixInfo(res)
		if !ok {
			break
		}
		if int(cols)+2 != n {
			return s.fail(i, "", "Expected total number of Constituents to be equal to the number of columns of Result Type matrix")
		}
		for k := 2; k < n; k++ {
			if s.opType(in, k) != col {
				return s.fail(i, "", "Expected Constituent type to be equal to the column type Result Type matrix")
			}
		}
	case spirv.OpTypeArray:
		size, known := s.arrayTypeLength(res)
		if !known {
			break
		}
		if size+2 != uint64(n) {
			return s.fail(i, "", "Expected total number of Constituents to be equal to the number of elements of Result Type array")
		}
		elem := s.typeWord(res, 2)
		for k := 2; k < n; k++ {
			if s.opType(in, k) != elem {
				return s.fail(i, "", "Expected Constituent type to be equal to the column type Result Type array")
			}
		}
	case spirv.OpTypeStruct:
		members := s.typeOf(res).Members
		if len(members)+2 != n {
			return s.fail(i, "", "Expected total number of Constituents to be equal to the number of members of Result Type struct")
		}
		for k := 2; k < n; k++ {
			if s.opType(in, k) != members[k-2] {
				return s.fail(i, "", "Expected Constituent type to be equal to the corresponding member type of Result Type struct")
			}
		}
	case spirv.OpTypeCooperativeMatrixKHR, spirv.OpTypeCooperativeMatrixNV:
		if n != 3 {
			if op == spirv.OpTypeCooperativeMatrixKHR {
				return s.fail(i, "", "Must be only one constituent")
			}
			return s.fail(i, "", "Expected single constituent")
		}
		if s.opType(in, 2) != s.typeWord(res, 2) {
			return s.fail(i, "", "Expected Constituent type to be equal to the component type")
		}
	default:
		return s.fail(i, "", "Expected Result Type to be a composite type")
	}
	if s.shaderLimitedUse(res) {
		return s.fail(i, "", "Cannot create a composite containing 8- or 16-bit types")
	}
	return false
}

func (s *state) compositeConstructReplicate(i int, in *spirv.Instruction) bool {
	res, t := in.TypeID, s.opType(in, 2)
	switch s.typeOp(res) {
	case spirv.OpTypeVector, spirv.OpTypeVectorIdEXT, spirv.OpTypeMatrix, spirv.OpTypeArray,
		spirv.OpTypeCooperativeMatrixKHR, spirv.OpTypeCooperativeMatrixNV:
		if t != s.typeWord(res, 2) {
			return s.fail(i, "", "Expected Value type to be equal to the result's element type")
		}
	case spirv.OpTypeStruct:
		for _, m := range s.typeOf(res).Members {
			if t != m {
				return s.fail(i, "", "Expected Value type to be equal to the corresponding member type of the result")
			}
		}
	case spirv.OpTypeTensorARM:
		if t != s.typeWord(res, 2) {
			return s.fail(i, "", "Expected Value type to be equal to the result's element type")
		}
		if len(s.typeWords(res)) <= 4 {
			return s.fail(i, "", "Result tensor type is not a composite type because it lacks a shape operand")
		}
	default:
		return s.fail(i, "", "Expected Result Type to be a composite type")
	}
	if s.shaderLimitedUse(res) {
		return s.fail(i, "", "Cannot create a composite containing 8- or 16-bit types")
	}
	return false
}

// extractInsertType is GetExtractInsertValueType: the type reached by
// the literal indices after operand k (the composite), or an error
// recorded (failed true).
func (s *state) extractInsertType(i int, in *spirv.Instruction, k int) (t uint32, failed bool) {
	name := opName(in.Opcode)
	n := len(in.Operands) - (k + 1)
	if n <= 0 {
		return 0, s.fail(i, "", "Expected at least one index to Op%s, zero found", name) || true
	}
	if n > 255 {
		return 0, s.fail(i, "", "The number of indexes in Op%s may not exceed 255. Found %d indexes.", name, n) || true
	}
	t = s.opType(in, k)
	if t == 0 {
		return 0, s.fail(i, "", "Expected Composite to be an object of composite type") || true
	}
	for j := k + 1; j < len(in.Operands); j++ {
		idx := s.opWord(in, j)
		switch s.typeOp(t) {
		case spirv.OpTypeVector:
			size := s.typeWord(t, 3)
			t = s.typeWord(t, 2)
			if idx >= size {
				return 0, s.fail(i, "", "Vector access is out of bounds, vector size is %d, but access index is %d", size, idx) || true
			}
		case spirv.OpTypeMatrix:
			cols := s.typeWord(t, 3)
			t = s.typeWord(t, 2)
			if idx >= cols {
				return 0, s.fail(i, "", "Matrix access is out of bounds, matrix has %d columns, but access index is %d", cols, idx) || true
			}
		case spirv.OpTypeArray:
			size, known := s.arrayTypeLength(t)
			t = s.typeWord(t, 2)
			if known && uint64(idx) >= size {
				return 0, s.fail(i, "", "Array access is out of bounds, array size is %d, but access index is %d", size, idx) || true
			}
		case spirv.OpTypeRuntimeArray, spirv.OpTypeNodePayloadArrayAMDX, spirv.OpTypeVectorIdEXT,
			spirv.OpTypeCooperativeMatrixKHR, spirv.OpTypeCooperativeMatrixNV:
			t = s.typeWord(t, 2)
		case spirv.OpTypeStruct:
			members := s.typeOf(t).Members
			if uint64(idx) >= uint64(len(members)) {
				return 0, s.fail(i, "", "Index is out of bounds, can not find index %d in the structure <id> '%d'. This structure has %d members. Largest valid index is %d.",
					idx, t, len(members), len(members)-1) || true
			}
			t = members[idx]
		default:
			return 0, s.fail(i, "", "Reached non-composite type while indexes still remain to be traversed.") || true
		}
	}
	return t, false
}

func (s *state) compositeExtract(i int, in *spirv.Instruction, first int) bool {
	member, failed := s.extractInsertType(i, in, first)
	if failed {
		return s.stopped()
	}
	res := in.TypeID
	if res != member {
		return s.fail(i, "", "Result type (Op%s) does not match the type that results from indexing into the composite (Op%s).",
			s.idOpName(res), s.idOpName(member))
	}
	if s.shaderLimitedUse(res) {
		return s.fail(i, "", "Cannot extract from a composite of 8- or 16-bit types")
	}
	return false
}

func (s *state) compositeInsert(i int, in *spirv.Instruction, first int) bool {
	obj, comp := s.opType(in, first), s.opType(in, first+1)
	res := in.TypeID
	if res != comp {
		return s.fail(i, "", "The Result Type must be the same as Composite type in Op%s yielding Result Id %d.", opName(in.Opcode), res)
	}
	member, failed := s.extractInsertType(i, in, first+1)
	if failed {
		return s.stopped()
	}
	if obj != member {
		return s.fail(i, "", "The Object type (Op%s) does not match the type that results from indexing into the Composite (Op%s).",
			s.idOpName(obj), s.idOpName(member))
	}
	if s.shaderLimitedUse(res) {
		return s.fail(i, "", "Cannot insert into a composite of 8- or 16-bit types")
	}
	return false
}

func (s *state) transpose(i int, in *spirv.Instruction) bool {
	rrows, rcols, _, rc, ok := s.matrixInfo(in.TypeID)
	if !ok {
		return s.fail(i, "", "Expected Result Type to be a matrix type")
	}
	mrows, mcols, _, mc, ok := s.matrixInfo(s.opType(in, 2))
	switch {
	case !ok:
		return s.fail(i, "", "Expected Matrix to be of type OpTypeMatrix")
	case rc != mc:
		return s.fail(i, "", "Expected component types of Matrix and Result Type to be identical")
	case rrows != mcols || rcols != mrows:
		return s.fail(i, "", "Expected number of columns and the column size of Matrix to be the reverse of those of Result Type")
	case s.shaderLimitedUse(in.TypeID):
		return s.fail(i, "", "Cannot transpose matrices of 16-bit floats")
	}
	return false
}

// copyLogical is ValidateCopyLogical: the types differ and match
// logically (arrays of the same length id, structs member by member,
// recursively).
func (s *state) copyLogical(i int, in *spirv.Instruction) bool {
	if len(in.Words) < 4 {
		return false
	}
	res, src := in.TypeID, s.typeOfValue(in.Words[3])
	if res == 0 || src == 0 || res == src || s.typeOf(res) == nil || s.typeOf(src) == nil {
		return s.fail(i, "", "Result Type must not equal the Operand type")
	}
	if !s.logicallyMatch(src, res, 0) {
		return s.fail(i, "", "Result Type does not logically match the Operand type")
	}
	if s.shaderLimitedUse(res) {
		return s.fail(i, "", "Cannot copy composites of 8- or 16-bit types")
	}
	return false
}

// logicallyMatch is LogicallyMatch without decorations. depth bounds the
// recursion on malformed (cyclic) types.
func (s *state) logicallyMatch(a, b uint32, depth int) bool {
	x, y := s.typeOf(a), s.typeOf(b)
	if x == nil || y == nil || x.Op != y.Op || depth > 1<<16 {
		return false
	}
	wa, wb := s.typeWords(a), s.typeWords(b)
	switch x.Op {
	case spirv.OpTypeArray:
		if len(wa) < 4 || len(wb) < 4 || wa[3] != wb[3] {
			return false
		}
		return wa[2] == wb[2] || s.logicallyMatch(wa[2], wb[2], depth+1)
	case spirv.OpTypeStruct:
		if len(wa) != len(wb) {
			return false
		}
		for k := 2; k < len(wa); k++ {
			if wa[k] != wb[k] && !s.logicallyMatch(wa[k], wb[k], depth+1) {
				return false
			}
		}
		return true
	}
	return false
}
