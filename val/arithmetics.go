package val

import "spvx/spirv"

// This file holds validate_arithmetics.cpp's rules: the float, signed and
// unsigned integer operations (also as OpSpecConstantOp operations), OpDot,
// the vector/matrix products, the extended-carry operations and the
// cooperative matrix multiply-adds' operand kinds, with the cooperative
// matrix and vector shape comparisons and the multiply-adds' scope and
// M/N/K rules. OpCooperativeMatrixReduceEXT is not checked.

// arithmeticsOps reports whether arithmeticsPass can act on an instruction of opcode op
// (passGate runs it on no other: a new case there needs its opcode here).
func arithmeticsOps(op spirv.Opcode) bool {
	return opIn(op, spirv.OpSpecConstantOp, spirv.OpFAdd, spirv.OpFSub, spirv.OpFMul, spirv.OpFDiv,
		spirv.OpFRem, spirv.OpFMod, spirv.OpFNegate, spirv.OpFmaKHR, spirv.OpUDiv, spirv.OpUMod, spirv.OpISub,
		spirv.OpIAdd, spirv.OpIMul, spirv.OpSDiv, spirv.OpSMod, spirv.OpSRem, spirv.OpSNegate, spirv.OpDot,
		spirv.OpVectorTimesScalar, spirv.OpMatrixTimesScalar, spirv.OpVectorTimesMatrix, spirv.OpMatrixTimesVector,
		spirv.OpMatrixTimesMatrix, spirv.OpOuterProduct, spirv.OpIAddCarry, spirv.OpISubBorrow,
		spirv.OpUMulExtended, spirv.OpSMulExtended, spirv.OpCooperativeMatrixMulAddNV, spirv.OpCooperativeMatrixMulAddKHR)
}

func (s *state) arithmeticsPass(i int, in *spirv.Instruction) bool {
	op, first := in.Opcode, 2
	if op == spirv.OpSpecConstantOp {
		op, first = spirv.Opcode(s.opWord(in, 2)), 3
		switch op {
		case spirv.OpFAdd, spirv.OpFSub, spirv.OpFMul, spirv.OpFDiv, spirv.OpFRem, spirv.OpFMod, spirv.OpFNegate,
			spirv.OpUDiv, spirv.OpUMod, spirv.OpISub, spirv.OpIAdd, spirv.OpIMul, spirv.OpSDiv, spirv.OpSMod,
			spirv.OpSRem, spirv.OpSNegate:
		default:
			return false
		}
	}
	switch op {
	case spirv.OpFAdd, spirv.OpFSub, spirv.OpFMul, spirv.OpFDiv, spirv.OpFRem, spirv.OpFMod, spirv.OpFNegate, spirv.OpFmaKHR:
		return s.arithFloat(i, in, op, first)
	case spirv.OpUDiv, spirv.OpUMod:
		return s.arithUnsigned(i, in, op, first)
	case spirv.OpISub, spirv.OpIAdd, spirv.OpIMul, spirv.OpSDiv, spirv.OpSMod, spirv.OpSRem, spirv.OpSNegate:
		return s.arithSigned(i, in, op, first)
	case spirv.OpDot:
		return s.arithDot(i, in)
	case spirv.OpVectorTimesScalar:
		return s.vectorTimesScalar(i, in)
	case spirv.OpMatrixTimesScalar:
		return s.matrixTimesScalar(i, in)
	case spirv.OpVectorTimesMatrix:
		return s.vectorTimesMatrix(i, in)
	case spirv.OpMatrixTimesVector:
		return s.matrixTimesVector(i, in)
	case spirv.OpMatrixTimesMatrix:
		return s.matrixTimesMatrix(i, in)
	case spirv.OpOuterProduct:
		return s.outerProduct(i, in)
	case spirv.OpIAddCarry, spirv.OpISubBorrow, spirv.OpUMulExtended, spirv.OpSMulExtended:
		return s.extendedCarry(i, in)
	case spirv.OpCooperativeMatrixMulAddNV:
		return s.coopMatMulAddNV(i, in)
	case spirv.OpCooperativeMatrixMulAddKHR:
		return s.coopMatMulAddKHR(i, in)
	}
	return false
}

// operandsOfResultType is the loop the three Validate{Float,UnsignedInt}
// functions share: every operand from first on has the Result Type (or,
// for cooperative results, a cooperative operand of the same kind).
func (s *state) operandsOfResultType(i int, in *spirv.Instruction, first int, name string, coopVec, coopMat bool, coopMatKind func(uint32) bool) bool {
	res := in.TypeID
	for k := first; k < len(in.Operands); k++ {
		t := s.opType(in, k)
		switch {
		case coopVec && s.isCoopVec(res):
			if !s.isCoopVec(t) {
				return s.fail(i, "", "Expected arithmetic operands to be of Result Type: %s operand index %d", name, k)
			}
			if s.coopVecDimsMatch(i, t, res) {
				return true
			}
		case coopMat && s.isCoopMatKHR(res):
			if !s.isCoopMatKHR(t) || !coopMatKind(t) {
				return s.fail(i, "", "Expected arithmetic operands to be of Result Type: %s operand index %d", name, k)
			}
			if s.coopShapesMatch(i, in, res, t, false, false) {
				return true
			}
		case t != res:
			return s.fail(i, "", "Expected arithmetic operands to be of Result Type: %s operand index %d", name, k)
		}
	}
	return false
}

func (s *state) arithFloat(i int, in *spirv.Instruction, op spirv.Opcode, first int) bool {
	name := opName(in.Opcode)
	res := in.TypeID
	coopMat := op != spirv.OpFMul && op != spirv.OpFRem && op != spirv.OpFMod
	coopVec := op != spirv.OpFRem && op != spirv.OpFMod
	if !s.isFloatScalarOrVector(res) && !(coopMat && s.isFloatCoopMat(res)) &&
		!(op == spirv.OpFMul && s.isCoopMatKHR(res) && s.isFloatCoopMat(res)) &&
		!(coopVec && s.isFloatCoopVec(res)) {
		return s.fail(i, "", "Expected floating scalar or vector type as Result Type: %s", name)
	}
	return s.operandsOfResultType(i, in, first, name, coopVec, coopMat, s.isFloatCoopMat)
}

func (s *state) arithUnsigned(i int, in *spirv.Instruction, op spirv.Opcode, first int) bool {
	name := opName(in.Opcode)
	res := in.TypeID
	coop := op == spirv.OpUDiv
	if !s.isUintScalarOrVector(res) && !(coop && s.isUintCoopMat(res)) && !(coop && s.isUintCoopVec(res)) {
		return s.fail(i, "", "Expected unsigned int scalar or vector type as Result Type: %s", name)
	}
	return s.operandsOfResultType(i, in, first, name, coop, coop, s.isUintCoopMat)
}

func (s *state) arithSigned(i int, in *spirv.Instruction, op spirv.Opcode, first int) bool {
	name := opName(in.Opcode)
	res := in.TypeID
	coopMat := op != spirv.OpIMul && op != spirv.OpSRem && op != spirv.OpSMod
	coopVec := op != spirv.OpSRem && op != spirv.OpSMod
	// resCoop: the Result Type is a cooperative type the operation takes,
	// which also lets any operand kind past the scalar/vector check.
	resCoop := coopMat && s.isIntCoopMat(res) || op == spirv.OpIMul && s.isCoopMatKHR(res) && s.isIntCoopMat(res) ||
		coopVec && s.isIntCoopVec(res)
	if !s.isIntScalarOrVector(res) && !resCoop {
		return s.fail(i, "", "Expected int scalar or vector type as Result Type: %s", name)
	}
	dim, width := s.dimension(res), s.bitWidth(res)
	for k := first; k < len(in.Operands); k++ {
		t := s.opType(in, k)
		if coopVec && s.isCoopVec(res) {
			if !s.isCoopVec(t) {
				return s.fail(i, "", "Expected arithmetic operands to be of Result Type: %s operand index %d", name, k)
			}
			if s.coopVecDimsMatch(i, t, res) {
				return true
			}
		}
		if coopMat && s.isCoopMatKHR(res) {
			if !s.isCoopMatKHR(t) || !s.isIntCoopMat(t) {
				return s.fail(i, "", "Expected arithmetic operands to be of Result Type: %s operand index %d", name, k)
			}
			if s.coopShapesMatch(i, in, res, t, false, false) {
				return true
			}
		}
		if t == 0 || !s.isIntScalarOrVector(t) && !resCoop {
			return s.fail(i, "", "Expected int scalar or vector type as operand: %s operand index %d", name, k)
		}
		if s.dimension(t) != dim {
			return s.fail(i, "", "Expected arithmetic operands to have the same dimension as Result Type: %s operand index %d", name, k)
		}
		if s.bitWidth(t) != width {
			return s.fail(i, "", "Expected arithmetic operands to have the same bit width as Result Type: %s operand index %d", name, k)
		}
	}
	return false
}

func (s *state) arithDot(i int, in *spirv.Instruction) bool {
	const name = "Dot"
	res := in.TypeID
	if !s.isFloatScalar(res) {
		return s.fail(i, "", "Expected float scalar type as Result Type: %s", name)
	}
	if s.isBF16Scalar(res) && !s.caps.has(spirv.CapabilityBFloat16DotProductKHR) {
		return s.fail(i, "", "OpDot Result Type <id> %srequires BFloat16DotProductKHR be declared.", s.idName(res))
	}
	var n uint32
	for k := 2; k < len(in.Operands); k++ {
		t := s.opType(in, k)
		if t == 0 || !s.isFloatVector(t) {
			return s.fail(i, "", "Expected float vector as operand: %s operand index %d", name, k)
		}
		if s.componentType(t) != res {
			return s.fail(i, "", "Expected component type to be equal to Result Type: %s operand index %d", name, k)
		}
		if d := s.dimension(t); k == 2 {
			n = d
		} else if d != n {
			return s.fail(i, "", "Expected operands to have the same number of components: %s", name)
		}
	}
	return false
}

func (s *state) vectorTimesScalar(i int, in *spirv.Instruction) bool {
	const name = "VectorTimesScalar"
	res := in.TypeID
	if !s.isFloatVector(res) && !s.isFloatCoopVec(res) {
		return s.fail(i, "", "Expected float vector type as Result Type: %s", name)
	}
	vec := s.opType(in, 2)
	if vec != res {
		return s.fail(i, "", "Expected vector operand type to be equal to Result Type: %s", name)
	}
	if s.componentType(vec) != s.opType(in, 3) {
		return s.fail(i, "", "Expected scalar operand type to be equal to the component type of the vector operand: %s", name)
	}
	return false
}

func (s *state) matrixTimesScalar(i int, in *spirv.Instruction) bool {
	const name = "MatrixTimesScalar"
	res := in.TypeID
	if _, _, _, c, ok := s.matrixInfo(res); !(ok && s.isFloatScalar(c)) && !s.isCoopMat(res) {
		return s.fail(i, "", "Expected float matrix type as Result Type: %s", name)
	}
	mat := s.opType(in, 2)
	if mat != res {
		return s.fail(i, "", "Expected matrix operand type to be equal to Result Type: %s", name)
	}
	if s.componentType(mat) != s.opType(in, 3) {
		return s.fail(i, "", "Expected scalar operand type to be equal to the component type of the matrix operand: %s", name)
	}
	return false
}

func (s *state) vectorTimesMatrix(i int, in *spirv.Instruction) bool {
	const name = "VectorTimesMatrix"
	res, vec, mat := in.TypeID, s.opType(in, 2), s.opType(in, 3)
	if !s.isFloatVector(res) {
		return s.fail(i, "", "Expected float vector type as Result Type: %s", name)
	}
	rc := s.componentType(res)
	if vec == 0 || !s.isFloatVector(vec) {
		return s.fail(i, "", "Expected float vector type as left operand: %s", name)
	}
	if rc != s.componentType(vec) {
		return s.fail(i, "", "Expected component types of Result Type and vector to be equal: %s", name)
	}
	rows, cols, _, mc, ok := s.matrixInfo(mat)
	switch {
	case !ok:
		return s.fail(i, "", "Expected float matrix type as right operand: %s", name)
	case rc != mc:
		return s.fail(i, "", "Expected component types of Result Type and matrix to be equal: %s", name)
	case cols != s.dimension(res):
		return s.fail(i, "", "Expected number of columns of the matrix to be equal to Result Type vector size: %s", name)
	case rows != s.dimension(vec):
		return s.fail(i, "", "Expected number of rows of the matrix to be equal to the vector operand size: %s", name)
	}
	return false
}

func (s *state) matrixTimesVector(i int, in *spirv.Instruction) bool {
	const name = "MatrixTimesVector"
	res, mat, vec := in.TypeID, s.opType(in, 2), s.opType(in, 3)
	if !s.isFloatVector(res) {
		return s.fail(i, "", "Expected float vector type as Result Type: %s", name)
	}
	_, cols, col, mc, ok := s.matrixInfo(mat)
	switch {
	case !ok:
		return s.fail(i, "", "Expected float matrix type as left operand: %s", name)
	case res != col:
		return s.fail(i, "", "Expected column type of the matrix to be equal to Result Type: %s", name)
	case vec == 0 || !s.isFloatVector(vec):
		return s.fail(i, "", "Expected float vector type as right operand: %s", name)
	case mc != s.componentType(vec):
		return s.fail(i, "", "Expected component types of the operands to be equal: %s", name)
	case cols != s.dimension(vec):
		return s.fail(i, "", "Expected number of columns of the matrix to be equal to the vector size: %s", name)
	}
	return false
}

func (s *state) matrixTimesMatrix(i int, in *spirv.Instruction) bool {
	const name = "MatrixTimesMatrix"
	_, rcols, rcol, rc, ok := s.matrixInfo(in.TypeID)
	if !ok {
		return s.fail(i, "", "Expected float matrix type as Result Type: %s", name)
	}
	_, lcols, lcol, _, ok := s.matrixInfo(s.opType(in, 2))
	if !ok {
		return s.fail(i, "", "Expected float matrix type as left operand: %s", name)
	}
	rrows, rcols2, _, rrc, ok := s.matrixInfo(s.opType(in, 3))
	switch {
	case !ok:
		return s.fail(i, "", "Expected float matrix type as right operand: %s", name)
	case !s.isFloatScalar(rc):
		return s.fail(i, "", "Expected float matrix type as Result Type: %s", name)
	case rcol != lcol:
		return s.fail(i, "", "Expected column types of Result Type and left matrix to be equal: %s", name)
	case rc != rrc:
		return s.fail(i, "", "Expected component types of Result Type and right matrix to be equal: %s", name)
	case rcols != rcols2:
		return s.fail(i, "", "Expected number of columns of Result Type and right matrix to be equal: %s", name)
	case lcols != rrows:
		return s.fail(i, "", "Expected number of columns of left matrix and number of rows of right matrix to be equal: %s", name)
	}
	return false
}

func (s *state) outerProduct(i int, in *spirv.Instruction) bool {
	const name = "OuterProduct"
	left, right := s.opType(in, 2), s.opType(in, 3)
	_, cols, col, rc, ok := s.matrixInfo(in.TypeID)
	switch {
	case !ok:
		return s.fail(i, "", "Expected float matrix type as Result Type: %s", name)
	case left != col:
		return s.fail(i, "", "Expected column type of Result Type to be equal to the type of the left operand: %s", name)
	case right == 0 || !s.isFloatVector(right):
		return s.fail(i, "", "Expected float vector type as right operand: %s", name)
	case rc != s.componentType(right):
		return s.fail(i, "", "Expected component types of the operands to be equal: %s", name)
	case cols != s.dimension(right):
		return s.fail(i, "", "Expected number of columns of the matrix to be equal to the vector size of the right operand: %s", name)
	}
	return false
}

func (s *state) extendedCarry(i int, in *spirv.Instruction) bool {
	name := opName(in.Opcode)
	ty := s.typeOf(in.TypeID)
	if ty == nil || ty.Kind != spirv.TypeStruct || len(ty.Members) == 0 {
		return s.fail(i, "", "Expected a struct as Result Type: %s", name)
	}
	if len(ty.Members) != 2 {
		return s.fail(i, "", "Expected Result Type struct to have two members: %s", name)
	}
	m := ty.Members[0]
	if in.Opcode == spirv.OpSMulExtended {
		if !s.isIntScalarOrVector(m) {
			return s.fail(i, "", "Expected Result Type struct member types to be integer scalar or vector: %s", name)
		}
	} else if !s.isUintScalarOrVector(m) {
		return s.fail(i, "", "Expected Result Type struct member types to be unsigned integer scalar or vector: %s", name)
	}
	if m != ty.Members[1] {
		return s.fail(i, "", "Expected Result Type struct member types to be identical: %s", name)
	}
	if s.opType(in, 2) != m || s.opType(in, 3) != m {
		return s.fail(i, "", "Expected both operands to be of Result Type member type: %s", name)
	}
	return false
}

func (s *state) coopMatMulAddNV(i int, in *spirv.Instruction) bool {
	name := opName(in.Opcode)
	isNV := func(t uint32) bool { return s.typeOp(t) == spirv.OpTypeCooperativeMatrixNV }
	switch {
	case !isNV(s.opType(in, 2)):
		return s.fail(i, "", "Expected cooperative matrix type as A Type: %s", name)
	case !isNV(s.opType(in, 3)):
		return s.fail(i, "", "Expected cooperative matrix type as B Type: %s", name)
	case !isNV(s.opType(in, 4)):
		return s.fail(i, "", "Expected cooperative matrix type as C Type: %s", name)
	case !isNV(in.TypeID):
		return s.fail(i, "", "Expected cooperative matrix type as Result Type: %s", name)
	}
	return s.mulAddShapes(i, in, name)
}

// mulAddShapes is the scope and M/N/K comparison of the cooperative
// matrix multiply-adds: D = A*B + C with A MxK, B KxN, C and D MxN.
func (s *state) mulAddShapes(i int, in *spirv.Instruction, name string) bool {
	d, a, b, c := in.TypeID, s.opType(in, 2), s.opType(in, 3), s.opType(in, 4)
	m := [4]uint32{a, b, c, d}
	for x := 0; x < 4; x++ {
		for y := x + 1; y < 4; y++ {
			if s.constsDiffer(s.typeWord(m[x], 3), s.typeWord(m[y], 3)) {
				return s.fail(i, "", "Cooperative matrix scopes must match: %s", name)
			}
		}
	}
	rows := func(t uint32) uint32 { return s.typeWord(t, 4) }
	cols := func(t uint32) uint32 { return s.typeWord(t, 5) }
	switch {
	case s.constsDiffer(rows(a), rows(c)) || s.constsDiffer(rows(a), rows(d)) || s.constsDiffer(rows(c), rows(d)):
		return s.fail(i, "", "Cooperative matrix 'M' mismatch: %s", name)
	case s.constsDiffer(cols(b), cols(c)) || s.constsDiffer(cols(b), cols(d)) || s.constsDiffer(cols(c), cols(d)):
		return s.fail(i, "", "Cooperative matrix 'N' mismatch: %s", name)
	case s.constsDiffer(cols(a), rows(b)):
		return s.fail(i, "", "Cooperative matrix 'K' mismatch: %s", name)
	}
	return false
}

// coopMatUse is the constant Use of an OpTypeCooperativeMatrixKHR, ok
// false when it is not a known constant.
func (s *state) coopMatUse(t uint32) (uint32, bool) {
	v, ok := s.constUint(s.typeWord(t, 6))
	return uint32(v), ok
}

func (s *state) coopMatMulAddKHR(i int, in *spirv.Instruction) bool {
	name := opName(in.Opcode)
	use := func(t uint32, want uint32) bool {
		if !s.isCoopMatKHR(t) {
			return false
		}
		u, ok := s.coopMatUse(t)
		return ok && u == want
	}
	switch {
	case !use(s.opType(in, 2), 0):
		return s.fail(i, "", "Cooperative matrix type must be A Type: %s", name)
	case !use(s.opType(in, 3), 1):
		return s.fail(i, "", "Cooperative matrix type must be B Type: %s", name)
	case !use(s.opType(in, 4), 2):
		return s.fail(i, "", "Cooperative matrix type must be Accumulator Type: %s", name)
	case !s.isCoopMatKHR(in.TypeID):
		return s.fail(i, "", "Expected cooperative matrix type as Result Type: %s", name)
	}
	return s.mulAddShapes(i, in, name)
}
