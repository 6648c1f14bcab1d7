package interp

import (
	"fmt"
	"math"
	"math/bits"

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
		v, err := q.decode(3, 3)
		if err != nil {
			return true, err
		}
		d, rt, cs, ct, a, at, b, bt := v.d, v.rt, v.a, v.at, v.b, v.bt, v.c, v.ct
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

// execIntExtra runs integer division, bit-field and extended arithmetic.
func (sg *subgroup) execIntExtra(in *inst, lanes []int32) *Fault {
	n := in.n
	switch in.op {
	case opDiv:
		w, m := in.sc.width, in.sc.mask()
		for c := int32(0); c < n; c++ {
			d, a, b := sg.col(in.dst+c), sg.col(in.a+c), sg.col(in.b+c)
			for _, l := range lanes {
				x, y := a[l], b[l]
				if y == 0 {
					if sg.p.opts.Strict {
						return &Fault{Kind: FaultDivByZero, Lane: uint32(l), Msg: "integer division by zero"}
					}
					d[l] = 0
					continue
				}
				var z uint64
				switch in.aux {
				case 0:
					z = x / y
				case 2:
					z = x % y
				default:
					sx, sy := sext(x, w), sext(y, w)
					if sy == -1 {
						// avoid the INT_MIN / -1 trap: the result wraps
						if in.aux == 1 {
							z = uint64(-sx)
						} else {
							z = 0
						}
						break
					}
					switch in.aux {
					case 1:
						z = uint64(sx / sy)
					case 3:
						z = uint64(sx % sy)
					default:
						rm := sx % sy
						if rm != 0 && (rm < 0) != (sy < 0) {
							rm += sy
						}
						z = uint64(rm)
					}
				}
				d[l] = z & m
			}
		}
	case opBitField:
		w, m := in.sc.width, in.sc.mask()
		offs, cnts := sg.col(in.c), sg.col(in.aux)
		for c := int32(0); c < n; c++ {
			d, a := sg.col(in.dst+c), sg.col(in.a+c)
			var ins []uint64
			if in.imm == 0 {
				ins = sg.col(in.b + c)
			}
			for _, l := range lanes {
				off, cnt := offs[l], cnts[l]
				if off > uint64(w) || cnt > uint64(w) || off+cnt > uint64(w) {
					d[l] = 0 // undefined
					continue
				}
				fm := uint64(0)
				if cnt > 0 {
					fm = (^uint64(0) >> (64 - cnt)) << off
				}
				switch in.imm {
				case 0:
					d[l] = (a[l]&^fm | ins[l]<<off&fm) & m
				case 1:
					if cnt == 0 {
						d[l] = 0
						continue
					}
					v := (a[l] & fm) >> off
					d[l] = uint64(sext(v, uint8(cnt))) & m
				default:
					d[l] = (a[l] & fm) >> off
				}
			}
		}
	case opExtArith:
		w, m := in.sc.width, in.sc.mask()
		for c := int32(0); c < n; c++ {
			lo, hi, a, b := sg.col(in.dst+c), sg.col(in.dst+n+c), sg.col(in.a+c), sg.col(in.b+c)
			for _, l := range lanes {
				x, y := a[l], b[l]
				switch in.aux {
				case 0:
					s := x + y
					if w < 64 {
						lo[l], hi[l] = s&m, s>>w&1
					} else {
						lo[l], hi[l] = s, b2u(s < x)
					}
				case 1:
					lo[l], hi[l] = (x-y)&m, b2u(x < y)
				case 2:
					if w == 64 {
						h, l2 := bits.Mul64(x, y)
						lo[l], hi[l] = l2, h
					} else {
						p := x * y
						lo[l], hi[l] = p&m, p>>w&m
					}
				default:
					if w == 64 {
						h, l2 := bits.Mul64(x, y)
						hs := int64(h)
						if int64(x) < 0 {
							hs -= int64(y)
						}
						if int64(y) < 0 {
							hs -= int64(x)
						}
						lo[l], hi[l] = l2, uint64(hs)
					} else {
						p := uint64(sext(x, w) * sext(y, w))
						lo[l], hi[l] = p&m, p>>w&m
					}
				}
			}
		}
	}
	return nil
}

// execShiftCmp runs shifts and integer comparisons on lane lists (full
// subgroups of run take denseBin).
func (sg *subgroup) execShiftCmp(in *inst, lanes []int32) *Fault {
	n := in.n
	switch in.op {
	case opShl, opShrL, opShrA:
		m, w, sm := in.imm, in.sc.width, in.sc2.mask()
		for c := int32(0); c < n; c++ {
			d, a, b := sg.col(in.dst+c), sg.col(in.a+c), sg.col(in.b+c)
			// a shift by the width or more is undefined in SPIR-V: give
			// what a wide shift gives
			switch in.op {
			case opShl:
				for _, l := range lanes {
					if sh := b[l] & sm; sh < uint64(w) {
						d[l] = (a[l] << sh) & m
					} else {
						d[l] = 0
					}
				}
			case opShrL:
				for _, l := range lanes {
					if sh := b[l] & sm; sh < uint64(w) {
						d[l] = a[l] >> sh
					} else {
						d[l] = 0
					}
				}
			default:
				for _, l := range lanes {
					sh := min(b[l]&sm, uint64(w-1))
					d[l] = uint64(sext(a[l], w)>>sh) & m
				}
			}
		}
	case opIEq, opINe, opULt, opULe, opUGt, opUGe, opSLt, opSLe, opSGt, opSGe:
		w := in.sc.width
		for c := int32(0); c < n; c++ {
			d, a, b := sg.col(in.dst+c), sg.col(in.a+c), sg.col(in.b+c)
			switch in.op {
			case opIEq:
				for _, l := range lanes {
					d[l] = b2u(a[l] == b[l])
				}
			case opINe:
				for _, l := range lanes {
					d[l] = b2u(a[l] != b[l])
				}
			case opULt:
				for _, l := range lanes {
					d[l] = b2u(a[l] < b[l])
				}
			case opULe:
				for _, l := range lanes {
					d[l] = b2u(a[l] <= b[l])
				}
			case opUGt:
				for _, l := range lanes {
					d[l] = b2u(a[l] > b[l])
				}
			case opUGe:
				for _, l := range lanes {
					d[l] = b2u(a[l] >= b[l])
				}
			case opSLt:
				for _, l := range lanes {
					d[l] = b2u(sext(a[l], w) < sext(b[l], w))
				}
			case opSLe:
				for _, l := range lanes {
					d[l] = b2u(sext(a[l], w) <= sext(b[l], w))
				}
			case opSGt:
				for _, l := range lanes {
					d[l] = b2u(sext(a[l], w) > sext(b[l], w))
				}
			default:
				for _, l := range lanes {
					d[l] = b2u(sext(a[l], w) >= sext(b[l], w))
				}
			}
		}
	}
	return nil
}

// execHorizontal runs the instructions that combine a vector's components into one: OpAny, OpAll and OpDot.
func (sg *subgroup) execHorizontal(in *inst, lanes []int32) *Fault {
	R := int32(sg.R)
	r := sg.regs
	n := in.n
	switch in.op {
	case opAnyAll:
		d := sg.col(in.dst)
		for _, l := range lanes {
			acc := in.imm
			for c := int32(0); c < n; c++ {
				v := r[(in.a+c)*R+int32(l)]
				if in.imm == 1 {
					acc &= v
				} else {
					acc |= v
				}
			}
			d[l] = acc & 1
		}
	case opDot:
		d := sg.col(in.dst)
		s := in.sc
		for _, l := range lanes {
			acc := uint64(0)
			for c := int32(0); c < n; c++ {
				p := fbin(bFMul, r[(in.a+c)*R+int32(l)], r[(in.b+c)*R+int32(l)], s)
				if c == 0 {
					acc = p
				} else {
					acc = fbin(bFAdd, acc, p, s)
				}
			}
			d[l] = acc
		}
	}
	return nil
}

// execFloatArith runs IEEE binary32 and binary64 add, subtract, multiply and divide on lane lists (full subgroups of run take denseBin).
func (sg *subgroup) execFloatArith(in *inst, lanes []int32) *Fault {
	S := int32(sg.S)
	n := in.n
	switch in.op {
	case opFAdd32, opFSub32, opFMul32, opFDiv32:
		for c := int32(0); c < n; c++ {
			d, a, b := sg.col(in.dst+c), sg.col(in.a+c), sg.col(in.b+c)
			switch in.op {
			case opFAdd32:
				if len(lanes) == int(S) {
					for l := range d {
						d[l] = uint64(math.Float32bits(math.Float32frombits(uint32(a[l])) + math.Float32frombits(uint32(b[l]))))
					}
					continue
				}
				for _, l := range lanes {
					d[l] = uint64(math.Float32bits(math.Float32frombits(uint32(a[l])) + math.Float32frombits(uint32(b[l]))))
				}
			case opFSub32:
				for _, l := range lanes {
					d[l] = uint64(math.Float32bits(math.Float32frombits(uint32(a[l])) - math.Float32frombits(uint32(b[l]))))
				}
			case opFMul32:
				if len(lanes) == int(S) {
					for l := range d {
						d[l] = uint64(math.Float32bits(math.Float32frombits(uint32(a[l])) * math.Float32frombits(uint32(b[l]))))
					}
					continue
				}
				for _, l := range lanes {
					d[l] = uint64(math.Float32bits(math.Float32frombits(uint32(a[l])) * math.Float32frombits(uint32(b[l]))))
				}
			default:
				for _, l := range lanes {
					d[l] = uint64(math.Float32bits(math.Float32frombits(uint32(a[l])) / math.Float32frombits(uint32(b[l]))))
				}
			}
		}
	case opFAdd64, opFSub64, opFMul64, opFDiv64:
		for c := int32(0); c < n; c++ {
			d, a, b := sg.col(in.dst+c), sg.col(in.a+c), sg.col(in.b+c)
			for _, l := range lanes {
				x, y := math.Float64frombits(a[l]), math.Float64frombits(b[l])
				var z float64
				switch in.op {
				case opFAdd64:
					z = x + y
				case opFSub64:
					z = x - y
				case opFMul64:
					z = x * y
				default:
					z = x / y
				}
				d[l] = math.Float64bits(z)
			}
		}
	}
	return nil
}
