package interp

import (
	"fmt"

	"spvx/spirv"
)

// The opcodes of a family that compile alike, and what each becomes.
var (
	shiftOps      = map[spirv.Opcode]op{spirv.OpShiftLeftLogical: opShl, spirv.OpShiftRightLogical: opShrL, spirv.OpShiftRightArithmetic: opShrA}
	divKinds      = map[spirv.Opcode]int32{spirv.OpUDiv: 0, spirv.OpSDiv: 1, spirv.OpUMod: 2, spirv.OpSRem: 3, spirv.OpSMod: 4}
	extArithKinds = map[spirv.Opcode]int32{spirv.OpIAddCarry: 0, spirv.OpISubBorrow: 1, spirv.OpUMulExtended: 2, spirv.OpSMulExtended: 3}
	intCmpOps     = map[spirv.Opcode]op{spirv.OpIEqual: opIEq, spirv.OpINotEqual: opINe, spirv.OpULessThan: opULt, spirv.OpULessThanEqual: opULe,
		spirv.OpUGreaterThan: opUGt, spirv.OpUGreaterThanEqual: opUGe, spirv.OpSLessThan: opSLt, spirv.OpSLessThanEqual: opSLe,
		spirv.OpSGreaterThan: opSGt, spirv.OpSGreaterThanEqual: opSGe}
	floatCmpKinds = map[spirv.Opcode]int{spirv.OpFOrdEqual: bFOrdEq, spirv.OpFUnordEqual: bFUnordEq, spirv.OpFOrdNotEqual: bFOrdNe,
		spirv.OpFUnordNotEqual: bFUnordNe, spirv.OpFOrdLessThan: bFOrdLt, spirv.OpFUnordLessThan: bFUnordLt,
		spirv.OpFOrdGreaterThan: bFOrdGt, spirv.OpFUnordGreaterThan: bFUnordGt, spirv.OpFOrdLessThanEqual: bFOrdLe,
		spirv.OpFUnordLessThanEqual: bFUnordLe, spirv.OpFOrdGreaterThanEqual: bFOrdGe, spirv.OpFUnordGreaterThanEqual: bFUnordGe,
		spirv.OpOrdered: bOrdered, spirv.OpUnordered: bUnordered, spirv.OpLessOrGreater: bLessOrGreater}
	logicalKinds = map[spirv.Opcode]int32{spirv.OpLogicalAnd: bLAnd, spirv.OpLogicalOr: bLOr, spirv.OpLogicalEqual: bLEq, spirv.OpLogicalNotEqual: bLNe}
)

// compileInt compiles integer arithmetic, bit and comparison instructions.
func (c *compiler) compileInt(q *cinst) (bool, error) {
	opc, ops := q.opc, q.ops
	switch opc {
	case spirv.OpIAdd:
		return true, q.intBin(opIAdd)
	case spirv.OpISub:
		return true, q.intBin(opISub)
	case spirv.OpIMul:
		return true, q.intBin(opIMul)
	case spirv.OpBitwiseAnd:
		return true, q.intBin(opAnd)
	case spirv.OpBitwiseOr:
		return true, q.intBin(opOr)
	case spirv.OpBitwiseXor:
		return true, q.intBin(opXor)
	case spirv.OpShiftLeftLogical, spirv.OpShiftRightLogical, spirv.OpShiftRightArithmetic:
		v, err := q.operands2()
		if err != nil {
			return true, err
		}
		d, rt, a, at, b, bt := v.d, v.rt, v.a, v.at, v.b, v.bt
		if at.ncomp != rt.ncomp || bt.ncomp != rt.ncomp || at.sc.kind != skInt || bt.sc.kind != skInt {
			return true, fmt.Errorf("%s: operand types do not match", opc)
		}
		o := shiftOps[opc]
		c.emitImm(inst{op: o, dst: d, a: a, b: b, n: int32(rt.ncomp), sc: at.sc, sc2: bt.sc, imm: at.sc.mask()}, ops[1])
		return true, nil
	case spirv.OpUDiv, spirv.OpSDiv, spirv.OpUMod, spirv.OpSRem, spirv.OpSMod:
		v, err := q.elem2()
		if err != nil {
			return true, err
		}
		d, a, b, rt, at := v.d, v.a, v.b, v.rt, v.at
		if at.sc.kind != skInt {
			return true, fmt.Errorf("%s: operands are not integers", opc)
		}
		k := divKinds[opc]
		c.emit(inst{op: opDiv, aux: k, dst: d, a: a, b: b, n: int32(rt.ncomp), sc: at.sc})
		return true, nil
	case spirv.OpIEqual, spirv.OpINotEqual, spirv.OpULessThan, spirv.OpULessThanEqual, spirv.OpUGreaterThan,
		spirv.OpUGreaterThanEqual, spirv.OpSLessThan, spirv.OpSLessThanEqual, spirv.OpSGreaterThan, spirv.OpSGreaterThanEqual:
		o := intCmpOps[opc]
		return true, q.intBin(o)
	case spirv.OpSNegate:
		return true, q.un(uSNegate, skInt)
	case spirv.OpNot:
		return true, q.un(uNot, skInt)
	case spirv.OpBitCount:
		return true, q.un(uBitCount, skInt)
	case spirv.OpBitReverse:
		return true, q.un(uBitReverse, skInt)
	case spirv.OpBitFieldInsert, spirv.OpBitFieldSExtract, spirv.OpBitFieldUExtract:
		k := 2
		if opc == spirv.OpBitFieldInsert {
			k = 3
		}
		if err := q.need(k + 1); err != nil {
			return true, err
		}
		d, rt, err := q.res()
		if err != nil {
			return true, err
		}
		var s [4]int32
		var ts [4]*tinfo
		for i := 0; i <= k; i++ {
			if s[i], ts[i], err = c.val(ops[i]); err != nil {
				return true, err
			}
		}
		if ts[0].ncomp != rt.ncomp || (k == 3 && ts[1].ncomp != rt.ncomp) || ts[k-1].ncomp != 1 || ts[k].ncomp != 1 {
			return true, fmt.Errorf("%s: operand types do not match", opc)
		}
		in := inst{op: opBitField, dst: d, n: int32(rt.ncomp), sc: rt.sc}
		switch opc {
		case spirv.OpBitFieldInsert:
			in.a, in.b, in.c, in.aux, in.imm = s[0], s[1], s[2], s[3], 0
		case spirv.OpBitFieldSExtract:
			in.a, in.c, in.aux, in.imm = s[0], s[1], s[2], 1
		default:
			in.a, in.c, in.aux, in.imm = s[0], s[1], s[2], 2
		}
		c.emit(in)
		return true, nil
	case spirv.OpIAddCarry, spirv.OpISubBorrow, spirv.OpUMulExtended, spirv.OpSMulExtended:
		v, err := q.operands2()
		if err != nil {
			return true, err
		}
		d, rt, a, at, b, bt := v.d, v.rt, v.a, v.at, v.b, v.bt
		if rt.kind != spirv.TypeStruct || len(rt.members) != 2 || at.ncomp != bt.ncomp || rt.ncomp != 2*at.ncomp || at.sc.kind != skInt {
			return true, fmt.Errorf("%s: result must be a struct of two members of the operand type", opc)
		}
		k := extArithKinds[opc]
		c.emit(inst{op: opExtArith, aux: k, dst: d, a: a, b: b, n: int32(at.ncomp), sc: at.sc})
		return true, nil
	}
	return false, nil
}

// compileFloat compiles float arithmetic and comparisons.
func (c *compiler) compileFloat(q *cinst) (bool, error) {
	opc := q.opc
	switch opc {
	case spirv.OpFAdd:
		return true, q.floatBin(bFAdd, opFAdd32, opFAdd64)
	case spirv.OpFSub:
		return true, q.floatBin(bFSub, opFSub32, opFSub64)
	case spirv.OpFMul:
		return true, q.floatBin(bFMul, opFMul32, opFMul64)
	case spirv.OpFDiv:
		return true, q.floatBin(bFDiv, opFDiv32, opFDiv64)
	case spirv.OpFRem:
		return true, q.floatBin(bFRem, 0, 0)
	case spirv.OpFMod:
		return true, q.floatBin(bFMod, 0, 0)
	case spirv.OpFNegate:
		return true, q.un(uFNegate, skFloat)
	case spirv.OpFOrdEqual, spirv.OpFUnordEqual, spirv.OpFOrdNotEqual, spirv.OpFUnordNotEqual, spirv.OpFOrdLessThan,
		spirv.OpFUnordLessThan, spirv.OpFOrdGreaterThan, spirv.OpFUnordGreaterThan, spirv.OpFOrdLessThanEqual,
		spirv.OpFUnordLessThanEqual, spirv.OpFOrdGreaterThanEqual, spirv.OpFUnordGreaterThanEqual,
		spirv.OpOrdered, spirv.OpUnordered, spirv.OpLessOrGreater:
		k := floatCmpKinds[opc]
		return true, q.floatBin(k, 0, 0)
	case spirv.OpIsNan:
		return true, q.un(uIsNan, skFloat)
	case spirv.OpIsInf:
		return true, q.un(uIsInf, skFloat)
	case spirv.OpIsFinite:
		return true, q.un(uIsFinite, skFloat)
	case spirv.OpIsNormal:
		return true, q.un(uIsNormal, skFloat)
	case spirv.OpSignBitSet:
		return true, q.un(uSignBitSet, skFloat)
	}
	return false, nil
}

// compileLogical compiles the logical instructions and OpSelect.
func (c *compiler) compileLogical(q *cinst) (bool, error) {
	opc, result, ops := q.opc, q.result, q.ops
	switch opc {
	case spirv.OpLogicalAnd, spirv.OpLogicalOr, spirv.OpLogicalEqual, spirv.OpLogicalNotEqual:
		v, err := q.elem2()
		if err != nil {
			return true, err
		}
		d, a, b, rt, at := v.d, v.a, v.b, v.rt, v.at
		if at.sc.kind != skBool {
			return true, fmt.Errorf("%s: operands are not bool", opc)
		}
		k := logicalKinds[opc]
		c.emit(inst{op: opBin, aux: k, dst: d, a: a, b: b, n: int32(rt.ncomp), sc: at.sc})
		return true, nil
	case spirv.OpLogicalNot:
		return true, q.un(uLNot, skBool)
	case spirv.OpAny, spirv.OpAll:
		v, err := q.operands1()
		if err != nil {
			return true, err
		}
		d, rt, a, at := v.d, v.rt, v.a, v.at
		if rt.ncomp != 1 || at.sc.kind != skBool {
			return true, fmt.Errorf("%s: bad operand", opc)
		}
		var all uint64
		if opc == spirv.OpAll {
			all = 1
		}
		c.emit(inst{op: opAnyAll, dst: d, a: a, n: int32(at.ncomp), imm: all})
		return true, nil
	case spirv.OpSelect:
		if err := q.need(3); err != nil {
			return true, err
		}
		d, rt, err := q.res()
		if err != nil {
			return true, err
		}
		cs, ct, err := c.val(ops[0])
		if err != nil {
			return true, err
		}
		a, at, err := c.val(ops[1])
		if err != nil {
			return true, err
		}
		b, bt, err := c.val(ops[2])
		if err != nil {
			return true, err
		}
		if at.ncomp != rt.ncomp || bt.ncomp != rt.ncomp || (ct.ncomp != 1 && ct.ncomp != rt.ncomp) || ct.sc.kind != skBool {
			return true, fmt.Errorf("OpSelect: operand types do not match")
		}
		var per uint64
		if ct.ncomp != 1 {
			per = 1
		}
		if rt.kind == spirv.TypePointer {
			if pi := c.ptrs[ops[1]]; pi != nil {
				c.ptrs[result] = pi
			}
		}
		c.emit(inst{op: opSelect, dst: d, a: a, b: b, c: cs, n: int32(rt.ncomp), imm: per})
		return true, nil
	}
	return false, nil
}

// compileVecMat compiles float vector and matrix products and the
// integer dot products.
func (c *compiler) compileVecMat(q *cinst) (bool, error) {
	opc, ops := q.opc, q.ops
	switch opc {
	case spirv.OpDot:
		v, err := q.operands2()
		if err != nil {
			return true, err
		}
		d, rt, a, at, b, bt := v.d, v.rt, v.a, v.at, v.b, v.bt
		if rt.ncomp != 1 || at.ncomp != bt.ncomp || at.sc.kind != skFloat {
			return true, fmt.Errorf("OpDot: bad operands")
		}
		c.emit(inst{op: opDot, dst: d, a: a, b: b, n: int32(at.ncomp), sc: at.sc})
		return true, nil
	case spirv.OpVectorTimesScalar, spirv.OpMatrixTimesScalar, spirv.OpVectorTimesMatrix, spirv.OpMatrixTimesVector,
		spirv.OpMatrixTimesMatrix, spirv.OpOuterProduct:
		v, err := q.operands2()
		if err != nil {
			return true, err
		}
		d, rt, a, at, b, bt := v.d, v.rt, v.a, v.at, v.b, v.bt
		if rt.sc.kind != skFloat {
			return true, fmt.Errorf("%s: not a float type", opc)
		}
		var k int32
		var rows, cols, inner int
		ok := true
		switch opc {
		case spirv.OpVectorTimesScalar, spirv.OpMatrixTimesScalar:
			k, ok = 0, at.ncomp == rt.ncomp && bt.ncomp == 1
		case spirv.OpVectorTimesMatrix: // row vector a (len inner) × matrix b (inner rows × cols)
			k, rows, cols, inner = 1, 1, bt.cols, bt.vec
			ok = bt.kind == spirv.TypeMatrix && at.ncomp == inner && rt.ncomp == cols
		case spirv.OpMatrixTimesVector:
			k, rows, cols, inner = 2, at.vec, 1, at.cols
			ok = at.kind == spirv.TypeMatrix && bt.ncomp == inner && rt.ncomp == rows
		case spirv.OpMatrixTimesMatrix:
			k, rows, cols, inner = 3, at.vec, bt.cols, at.cols
			ok = at.kind == spirv.TypeMatrix && bt.kind == spirv.TypeMatrix && bt.vec == inner && rt.ncomp == rows*cols
		case spirv.OpOuterProduct:
			k, rows, cols = 4, at.ncomp, bt.ncomp
			ok = rt.ncomp == rows*cols
		}
		if !ok {
			return true, fmt.Errorf("%s: operand shapes do not match", opc)
		}
		c.emit(inst{op: opMatrix, aux: k, dst: d, a: a, b: b, n: int32(rt.ncomp), sc: rt.sc, imm: uint64(rows) | uint64(cols)<<8 | uint64(inner)<<16})
		return true, nil
	case spirv.OpSDot, spirv.OpUDot, spirv.OpSUDot, spirv.OpSDotAccSat, spirv.OpUDotAccSat, spirv.OpSUDotAccSat:
		v, err := q.operands2()
		if err != nil {
			return true, err
		}
		d, rt, a, at, b, bt := v.d, v.rt, v.a, v.at, v.b, v.bt
		in := inst{op: opIDot, dst: d, a: a, b: b, c: -1, n: int32(at.ncomp), sc: rt.sc, sc2: at.sc}
		switch opc {
		case spirv.OpSDot, spirv.OpSDotAccSat:
			in.aux = 0
		case spirv.OpUDot, spirv.OpUDotAccSat:
			in.aux = 1
		default:
			in.aux = 2
		}
		rest := ops[2:]
		if opc == spirv.OpSDotAccSat || opc == spirv.OpUDotAccSat || opc == spirv.OpSUDotAccSat {
			if len(rest) < 1 {
				return true, errOps(opc)
			}
			acc, acct, err := c.val(rest[0])
			if err != nil {
				return true, err
			}
			if acct.ncomp != 1 {
				return true, fmt.Errorf("%s: bad accumulator", opc)
			}
			in.c = acc
			rest = rest[1:]
		}
		if len(rest) > 0 { // PackedVectorFormat4x8Bit
			in.imm = 1
			if at.ncomp != 1 || at.sc.width != 32 {
				return true, fmt.Errorf("%s: packed operands must be 32-bit scalars", opc)
			}
		} else if at.ncomp != bt.ncomp || at.vec != at.ncomp || at.sc.kind != skInt {
			return true, fmt.Errorf("%s: bad operands", opc)
		}
		if rt.ncomp != 1 || rt.sc.kind != skInt {
			return true, fmt.Errorf("%s: result must be an integer scalar", opc)
		}
		c.emit(in)
		return true, nil
	}
	return false, nil
}
