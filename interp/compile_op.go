package interp

import (
	"fmt"

	"spvx/spirv"
)

// Indexes of binTab (generic binary operations).
const (
	bFAdd = iota
	bFSub
	bFMul
	bFDiv
	bFRem
	bFMod
	bFOrdEq
	bFUnordEq
	bFOrdNe
	bFUnordNe
	bFOrdLt
	bFUnordLt
	bFOrdGt
	bFUnordGt
	bFOrdLe
	bFUnordLe
	bFOrdGe
	bFUnordGe
	bOrdered
	bUnordered
	bLessOrGreater
	bLAnd
	bLOr
	bLEq
	bLNe
	bFMin // for group ops
	bFMax
	bSMin
	bSMax
	bUMin
	bUMax
	bNum
)

// Indexes of unTab.
const (
	uSNegate = iota
	uNot
	uFNegate
	uBitCount
	uBitReverse
	uIsNan
	uIsInf
	uIsFinite
	uIsNormal
	uSignBitSet
	uLNot
)

// Conversion kinds (opConv aux).
const (
	cvFToU = iota
	cvFToS
	cvSToF
	cvUToF
	cvUConv
	cvSConv
	cvFConv
	cvQuant16
	cvSatSToU
	cvSatUToS
	cvPtrToU
	cvUToPtr
)

func (c *compiler) emit(in inst) {
	in.src = int32(c.instIdx)
	c.code = append(c.code, in)
}

// emitImm emits a binary instruction whose operand b is the value id bid:
// a scalar constant is also given as an immediate (inst.k).
func (c *compiler) emitImm(in inst, bid uint32) {
	if _, isConst := c.x.Constants[bid]; isConst && in.n == 1 && in.b >= 0 && int(in.b) < len(c.cv) {
		in.bk, in.k = 1, c.cv[in.b]
	}
	c.emit(in)
}

func errOps(op spirv.Opcode) error { return fmt.Errorf("%s: missing operands", op) }

// op compiles one instruction (or the operation of an OpSpecConstantOp).
func (c *compiler) op(opc spirv.Opcode, typeID, result uint32, ops []uint32, idx int) error {
	c.instIdx = idx
	need := func(k int) error {
		if len(ops) < k {
			return errOps(opc)
		}
		return nil
	}
	res := func() (int32, *tinfo, error) { return c.slot(result) }
	// operands1 and operands2: the result slot and the first one or two
	// operands' slots, with their types.
	operands1 := func() (d int32, rt *tinfo, a int32, at *tinfo, err error) {
		if err = need(1); err != nil {
			return
		}
		if d, rt, err = res(); err != nil {
			return
		}
		a, at, err = c.val(ops[0])
		return
	}
	operands2 := func() (d int32, rt *tinfo, a int32, at *tinfo, b int32, bt *tinfo, err error) {
		if d, rt, a, at, err = operands1(); err != nil {
			return
		}
		if err = need(2); err != nil {
			return
		}
		b, bt, err = c.val(ops[1])
		return
	}
	// unary/binary elementwise checks
	elem2 := func() (d, a, b int32, rt, at *tinfo, err error) {
		if err = need(2); err != nil {
			return
		}
		if d, rt, err = res(); err != nil {
			return
		}
		var bt *tinfo
		if a, at, err = c.val(ops[0]); err != nil {
			return
		}
		if b, bt, err = c.val(ops[1]); err != nil {
			return
		}
		if at.ncomp != rt.ncomp || bt.ncomp != rt.ncomp || at.vec != at.ncomp {
			err = fmt.Errorf("%s: operand and result component counts differ", opc)
		}
		return
	}
	elem1 := func() (d, a int32, rt, at *tinfo, err error) {
		if err = need(1); err != nil {
			return
		}
		if d, rt, err = res(); err != nil {
			return
		}
		if a, at, err = c.val(ops[0]); err != nil {
			return
		}
		if at.ncomp != rt.ncomp {
			err = fmt.Errorf("%s: operand and result component counts differ", opc)
		}
		return
	}
	intBin := func(fast op) error {
		d, a, b, rt, at, err := elem2()
		if err != nil {
			return err
		}
		if at.sc.kind != skInt && at.sc.kind != skBool {
			return fmt.Errorf("%s: operands are not integers", opc)
		}
		c.emitImm(inst{op: fast, dst: d, a: a, b: b, n: int32(rt.ncomp), sc: at.sc, imm: at.sc.mask()}, ops[1])
		return nil
	}
	floatBin := func(k int, f32, f64 op) error {
		d, a, b, rt, at, err := elem2()
		if err != nil {
			return err
		}
		if at.sc.kind != skFloat {
			return fmt.Errorf("%s: operands are not floats", opc)
		}
		in := inst{op: opBin, aux: int32(k), dst: d, a: a, b: b, n: int32(rt.ncomp), sc: at.sc}
		if at.sc.enc == encIEEE && at.sc.width == 32 && f32 != 0 {
			in.op = f32
		} else if at.sc.enc == encIEEE && at.sc.width == 64 && f64 != 0 {
			in.op = f64
		}
		c.emitImm(in, ops[1])
		return nil
	}
	un := func(k int, kinds ...uint8) error {
		d, a, rt, at, err := elem1()
		if err != nil {
			return err
		}
		ok := false
		for _, kd := range kinds {
			ok = ok || at.sc.kind == kd
		}
		if !ok {
			return fmt.Errorf("%s: wrong operand type", opc)
		}
		c.emit(inst{op: opUn, aux: int32(k), dst: d, a: a, n: int32(rt.ncomp), sc: at.sc})
		return nil
	}
	switch opc {
	case spirv.OpNop, spirv.OpLine, spirv.OpNoLine, spirv.OpLifetimeStart, spirv.OpLifetimeStop,
		spirv.OpAssumeTrueKHR, spirv.OpMemoryBarrier, spirv.OpModuleProcessed, spirv.OpName, spirv.OpMemberName,
		spirv.OpSourceContinued, spirv.OpSource, spirv.OpSourceExtension, spirv.OpString, spirv.OpDecorate,
		spirv.OpMemberDecorate:
		return nil
	case spirv.OpUndef:
		if _, _, err := res(); err != nil {
			return err
		}
		c.cdone[result] = true
		return nil

	// ---- integer arithmetic
	case spirv.OpIAdd:
		return intBin(opIAdd)
	case spirv.OpISub:
		return intBin(opISub)
	case spirv.OpIMul:
		return intBin(opIMul)
	case spirv.OpBitwiseAnd:
		return intBin(opAnd)
	case spirv.OpBitwiseOr:
		return intBin(opOr)
	case spirv.OpBitwiseXor:
		return intBin(opXor)
	case spirv.OpShiftLeftLogical, spirv.OpShiftRightLogical, spirv.OpShiftRightArithmetic:
		d, rt, a, at, b, bt, err := operands2()
		if err != nil {
			return err
		}
		if at.ncomp != rt.ncomp || bt.ncomp != rt.ncomp || at.sc.kind != skInt || bt.sc.kind != skInt {
			return fmt.Errorf("%s: operand types do not match", opc)
		}
		o := map[spirv.Opcode]op{spirv.OpShiftLeftLogical: opShl, spirv.OpShiftRightLogical: opShrL, spirv.OpShiftRightArithmetic: opShrA}[opc]
		c.emitImm(inst{op: o, dst: d, a: a, b: b, n: int32(rt.ncomp), sc: at.sc, sc2: bt.sc, imm: at.sc.mask()}, ops[1])
		return nil
	case spirv.OpUDiv, spirv.OpSDiv, spirv.OpUMod, spirv.OpSRem, spirv.OpSMod:
		d, a, b, rt, at, err := elem2()
		if err != nil {
			return err
		}
		if at.sc.kind != skInt {
			return fmt.Errorf("%s: operands are not integers", opc)
		}
		k := map[spirv.Opcode]int32{spirv.OpUDiv: 0, spirv.OpSDiv: 1, spirv.OpUMod: 2, spirv.OpSRem: 3, spirv.OpSMod: 4}[opc]
		c.emit(inst{op: opDiv, aux: k, dst: d, a: a, b: b, n: int32(rt.ncomp), sc: at.sc})
		return nil
	case spirv.OpIEqual, spirv.OpINotEqual, spirv.OpULessThan, spirv.OpULessThanEqual, spirv.OpUGreaterThan,
		spirv.OpUGreaterThanEqual, spirv.OpSLessThan, spirv.OpSLessThanEqual, spirv.OpSGreaterThan, spirv.OpSGreaterThanEqual:
		o := map[spirv.Opcode]op{spirv.OpIEqual: opIEq, spirv.OpINotEqual: opINe, spirv.OpULessThan: opULt, spirv.OpULessThanEqual: opULe,
			spirv.OpUGreaterThan: opUGt, spirv.OpUGreaterThanEqual: opUGe, spirv.OpSLessThan: opSLt, spirv.OpSLessThanEqual: opSLe,
			spirv.OpSGreaterThan: opSGt, spirv.OpSGreaterThanEqual: opSGe}[opc]
		return intBin(o)
	case spirv.OpSNegate:
		return un(uSNegate, skInt)
	case spirv.OpNot:
		return un(uNot, skInt)
	case spirv.OpBitCount:
		return un(uBitCount, skInt)
	case spirv.OpBitReverse:
		return un(uBitReverse, skInt)
	case spirv.OpBitFieldInsert, spirv.OpBitFieldSExtract, spirv.OpBitFieldUExtract:
		k := 2
		if opc == spirv.OpBitFieldInsert {
			k = 3
		}
		if err := need(k + 1); err != nil {
			return err
		}
		d, rt, err := res()
		if err != nil {
			return err
		}
		var s [4]int32
		var ts [4]*tinfo
		for i := 0; i <= k; i++ {
			if s[i], ts[i], err = c.val(ops[i]); err != nil {
				return err
			}
		}
		if ts[0].ncomp != rt.ncomp || (k == 3 && ts[1].ncomp != rt.ncomp) || ts[k-1].ncomp != 1 || ts[k].ncomp != 1 {
			return fmt.Errorf("%s: operand types do not match", opc)
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
		return nil
	case spirv.OpIAddCarry, spirv.OpISubBorrow, spirv.OpUMulExtended, spirv.OpSMulExtended:
		d, rt, a, at, b, bt, err := operands2()
		if err != nil {
			return err
		}
		if rt.kind != spirv.TypeStruct || len(rt.members) != 2 || at.ncomp != bt.ncomp || rt.ncomp != 2*at.ncomp || at.sc.kind != skInt {
			return fmt.Errorf("%s: result must be a struct of two members of the operand type", opc)
		}
		k := map[spirv.Opcode]int32{spirv.OpIAddCarry: 0, spirv.OpISubBorrow: 1, spirv.OpUMulExtended: 2, spirv.OpSMulExtended: 3}[opc]
		c.emit(inst{op: opExtArith, aux: k, dst: d, a: a, b: b, n: int32(at.ncomp), sc: at.sc})
		return nil

	// ---- float arithmetic
	case spirv.OpFAdd:
		return floatBin(bFAdd, opFAdd32, opFAdd64)
	case spirv.OpFSub:
		return floatBin(bFSub, opFSub32, opFSub64)
	case spirv.OpFMul:
		return floatBin(bFMul, opFMul32, opFMul64)
	case spirv.OpFDiv:
		return floatBin(bFDiv, opFDiv32, opFDiv64)
	case spirv.OpFRem:
		return floatBin(bFRem, 0, 0)
	case spirv.OpFMod:
		return floatBin(bFMod, 0, 0)
	case spirv.OpFNegate:
		return un(uFNegate, skFloat)
	case spirv.OpFOrdEqual, spirv.OpFUnordEqual, spirv.OpFOrdNotEqual, spirv.OpFUnordNotEqual, spirv.OpFOrdLessThan,
		spirv.OpFUnordLessThan, spirv.OpFOrdGreaterThan, spirv.OpFUnordGreaterThan, spirv.OpFOrdLessThanEqual,
		spirv.OpFUnordLessThanEqual, spirv.OpFOrdGreaterThanEqual, spirv.OpFUnordGreaterThanEqual,
		spirv.OpOrdered, spirv.OpUnordered, spirv.OpLessOrGreater:
		k := map[spirv.Opcode]int{spirv.OpFOrdEqual: bFOrdEq, spirv.OpFUnordEqual: bFUnordEq, spirv.OpFOrdNotEqual: bFOrdNe,
			spirv.OpFUnordNotEqual: bFUnordNe, spirv.OpFOrdLessThan: bFOrdLt, spirv.OpFUnordLessThan: bFUnordLt,
			spirv.OpFOrdGreaterThan: bFOrdGt, spirv.OpFUnordGreaterThan: bFUnordGt, spirv.OpFOrdLessThanEqual: bFOrdLe,
			spirv.OpFUnordLessThanEqual: bFUnordLe, spirv.OpFOrdGreaterThanEqual: bFOrdGe, spirv.OpFUnordGreaterThanEqual: bFUnordGe,
			spirv.OpOrdered: bOrdered, spirv.OpUnordered: bUnordered, spirv.OpLessOrGreater: bLessOrGreater}[opc]
		return floatBin(k, 0, 0)
	case spirv.OpIsNan:
		return un(uIsNan, skFloat)
	case spirv.OpIsInf:
		return un(uIsInf, skFloat)
	case spirv.OpIsFinite:
		return un(uIsFinite, skFloat)
	case spirv.OpIsNormal:
		return un(uIsNormal, skFloat)
	case spirv.OpSignBitSet:
		return un(uSignBitSet, skFloat)

	// ---- logical
	case spirv.OpLogicalAnd, spirv.OpLogicalOr, spirv.OpLogicalEqual, spirv.OpLogicalNotEqual:
		d, a, b, rt, at, err := elem2()
		if err != nil {
			return err
		}
		if at.sc.kind != skBool {
			return fmt.Errorf("%s: operands are not bool", opc)
		}
		k := map[spirv.Opcode]int32{spirv.OpLogicalAnd: bLAnd, spirv.OpLogicalOr: bLOr, spirv.OpLogicalEqual: bLEq, spirv.OpLogicalNotEqual: bLNe}[opc]
		c.emit(inst{op: opBin, aux: k, dst: d, a: a, b: b, n: int32(rt.ncomp), sc: at.sc})
		return nil
	case spirv.OpLogicalNot:
		return un(uLNot, skBool)
	case spirv.OpAny, spirv.OpAll:
		d, rt, a, at, err := operands1()
		if err != nil {
			return err
		}
		if rt.ncomp != 1 || at.sc.kind != skBool {
			return fmt.Errorf("%s: bad operand", opc)
		}
		var all uint64
		if opc == spirv.OpAll {
			all = 1
		}
		c.emit(inst{op: opAnyAll, dst: d, a: a, n: int32(at.ncomp), imm: all})
		return nil
	case spirv.OpSelect:
		if err := need(3); err != nil {
			return err
		}
		d, rt, err := res()
		if err != nil {
			return err
		}
		cs, ct, err := c.val(ops[0])
		if err != nil {
			return err
		}
		a, at, err := c.val(ops[1])
		if err != nil {
			return err
		}
		b, bt, err := c.val(ops[2])
		if err != nil {
			return err
		}
		if at.ncomp != rt.ncomp || bt.ncomp != rt.ncomp || (ct.ncomp != 1 && ct.ncomp != rt.ncomp) || ct.sc.kind != skBool {
			return fmt.Errorf("OpSelect: operand types do not match")
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
		return nil

	// ---- composites
	case spirv.OpCopyObject, spirv.OpCopyLogical, spirv.OpExpectKHR, spirv.OpFreezeKHR:
		d, rt, a, at, err := operands1()
		if err != nil {
			return err
		}
		if at.ncomp != rt.ncomp {
			return fmt.Errorf("%s: operand and result types differ", opc)
		}
		if pi := c.ptrs[ops[0]]; pi != nil {
			c.ptrs[result] = pi
		}
		c.emit(inst{op: opCopy, dst: d, a: a, n: int32(rt.ncomp)})
		return nil
	case spirv.OpCompositeConstruct:
		d, rt, err := res()
		if err != nil {
			return err
		}
		off := int32(0)
		for _, p := range ops {
			a, at, err := c.val(p)
			if err != nil {
				return err
			}
			if int(off)+at.ncomp > rt.ncomp {
				return fmt.Errorf("OpCompositeConstruct: constituents do not match the result type")
			}
			c.emit(inst{op: opCopy, dst: d + off, a: a, n: int32(at.ncomp)})
			off += int32(at.ncomp)
		}
		if int(off) != rt.ncomp {
			return fmt.Errorf("OpCompositeConstruct: constituents do not match the result type")
		}
		return nil
	case spirv.OpCompositeConstructReplicateEXT:
		d, rt, a, at, err := operands1()
		if err != nil {
			return err
		}
		if at.ncomp == 0 || rt.ncomp%at.ncomp != 0 {
			return fmt.Errorf("%s: bad operand", opc)
		}
		for off := 0; off < rt.ncomp; off += at.ncomp {
			c.emit(inst{op: opCopy, dst: d + int32(off), a: a, n: int32(at.ncomp)})
		}
		return nil
	case spirv.OpCompositeExtract:
		d, rt, a, at, err := operands1()
		if err != nil {
			return err
		}
		off, t, err := compOffset(at, ops[1:])
		if err != nil {
			return err
		}
		if t.ncomp != rt.ncomp {
			return fmt.Errorf("OpCompositeExtract: result type does not match")
		}
		c.emit(inst{op: opCopy, dst: d, a: a + off, n: int32(rt.ncomp)})
		return nil
	case spirv.OpCompositeInsert:
		if err := need(2); err != nil {
			return err
		}
		d, rt, err := res()
		if err != nil {
			return err
		}
		o, ot, err := c.val(ops[0])
		if err != nil {
			return err
		}
		a, at, err := c.val(ops[1])
		if err != nil {
			return err
		}
		if at.ncomp != rt.ncomp {
			return fmt.Errorf("OpCompositeInsert: composite and result types differ")
		}
		off, t, err := compOffset(at, ops[2:])
		if err != nil {
			return err
		}
		if t.ncomp != ot.ncomp {
			return fmt.Errorf("OpCompositeInsert: object type does not match")
		}
		c.emit(inst{op: opCopy, dst: d, a: a, n: int32(rt.ncomp)})
		c.emit(inst{op: opCopy, dst: d + off, a: o, n: int32(ot.ncomp)})
		return nil
	case spirv.OpVectorShuffle:
		d, rt, a, at, b, bt, err := operands2()
		if err != nil {
			return err
		}
		sel := ops[2:]
		if len(sel) != rt.ncomp || at.vec != at.ncomp || bt.vec != bt.ncomp {
			return fmt.Errorf("OpVectorShuffle: component count does not match")
		}
		m := make([]int32, len(sel))
		for i, s := range sel {
			switch {
			case s == 0xFFFFFFFF:
				m[i] = -1
			case int(s) < at.ncomp:
				m[i] = a + int32(s)
			case int(s) < at.ncomp+bt.ncomp:
				m[i] = b + int32(s) - int32(at.ncomp)
			default:
				return fmt.Errorf("OpVectorShuffle: component %d out of range", s)
			}
		}
		c.p.shuffles = append(c.p.shuffles, m)
		c.emit(inst{op: opShuffle, dst: d, n: int32(rt.ncomp), aux: int32(len(c.p.shuffles) - 1)})
		return nil
	case spirv.OpVectorExtractDynamic:
		d, rt, a, at, b, bt, err := operands2()
		if err != nil {
			return err
		}
		if rt.ncomp != 1 || bt.ncomp != 1 || bt.sc.kind != skInt || at.vec != at.ncomp {
			return fmt.Errorf("OpVectorExtractDynamic: bad operands")
		}
		c.emit(inst{op: opExtractDyn, dst: d, a: a, b: b, n: int32(at.ncomp), sc2: bt.sc})
		return nil
	case spirv.OpVectorInsertDynamic:
		if err := need(3); err != nil {
			return err
		}
		d, rt, err := res()
		if err != nil {
			return err
		}
		a, at, err := c.val(ops[0])
		if err != nil {
			return err
		}
		b, bt, err := c.val(ops[1])
		if err != nil {
			return err
		}
		x, xt, err := c.val(ops[2])
		if err != nil {
			return err
		}
		if at.ncomp != rt.ncomp || bt.ncomp != 1 || xt.ncomp != 1 || xt.sc.kind != skInt {
			return fmt.Errorf("OpVectorInsertDynamic: bad operands")
		}
		c.emit(inst{op: opInsertDyn, dst: d, a: a, b: b, c: x, n: int32(rt.ncomp), sc2: xt.sc})
		return nil
	case spirv.OpTranspose:
		d, a, rt, at, err := elem1()
		if err != nil {
			return err
		}
		if rt.kind != spirv.TypeMatrix || at.kind != spirv.TypeMatrix || rt.cols != at.vec {
			return fmt.Errorf("OpTranspose: bad operand")
		}
		c.emit(inst{op: opTranspose, dst: d, a: a, n: int32(rt.ncomp), imm: uint64(at.vec) | uint64(at.cols)<<8})
		return nil

	// ---- conversions
	case spirv.OpConvertFToU, spirv.OpConvertFToS, spirv.OpConvertSToF, spirv.OpConvertUToF, spirv.OpUConvert,
		spirv.OpSConvert, spirv.OpFConvert, spirv.OpQuantizeToF16, spirv.OpSatConvertSToU, spirv.OpSatConvertUToS,
		spirv.OpConvertPtrToU, spirv.OpConvertUToPtr:
		d, a, rt, at, err := elem1()
		if err != nil {
			return err
		}
		k := map[spirv.Opcode]int32{spirv.OpConvertFToU: cvFToU, spirv.OpConvertFToS: cvFToS, spirv.OpConvertSToF: cvSToF,
			spirv.OpConvertUToF: cvUToF, spirv.OpUConvert: cvUConv, spirv.OpSConvert: cvSConv, spirv.OpFConvert: cvFConv,
			spirv.OpQuantizeToF16: cvQuant16, spirv.OpSatConvertSToU: cvSatSToU, spirv.OpSatConvertUToS: cvSatUToS,
			spirv.OpConvertPtrToU: cvPtrToU, spirv.OpConvertUToPtr: cvUToPtr}[opc]
		var mode, sat uint64
		for _, dd := range c.x.Decorations[result] {
			switch dd.Kind {
			case spirv.DecorationFPRoundingMode:
				if len(dd.Params) > 0 && dd.Params[0] <= 3 {
					mode = uint64(dd.Params[0])
					if k == cvFToU || k == cvFToS {
						mode = uint64(intRoundingMode(dd.Params[0]))
					}
				}
			case spirv.DecorationSaturatedToLargestFloat8NormalConversionEXT, spirv.DecorationSaturatedConversion:
				sat = 1
			}
		}
		if opc == spirv.OpConvertUToPtr {
			pe, err := c.typ(rt.pointeeID)
			if err != nil {
				return err
			}
			c.ptrs[result] = &ptrInfo{pointee: pe, storage: rt.storage}
		}
		sc := rt.sc
		if opc == spirv.OpConvertPtrToU {
			at = &tinfo{sc: scalar{kind: skInt, width: uint8(c.ptrBytes * 8)}}
		}
		if opc == spirv.OpConvertUToPtr {
			sc = scalar{kind: skPtr, width: uint8(c.ptrBytes * 8)}
		}
		c.emit(inst{op: opConv, aux: k, dst: d, a: a, n: int32(rt.ncomp), sc: sc, sc2: at.sc, imm: mode | sat<<8})
		return nil
	case spirv.OpPtrCastToGeneric, spirv.OpGenericCastToPtr, spirv.OpGenericCastToPtrExplicit, spirv.OpCrossWorkgroupCastToPtrINTEL, spirv.OpPtrCastToCrossWorkgroupINTEL:
		d, a, rt, _, err := elem1()
		if err != nil {
			return err
		}
		pe, err := c.typ(rt.pointeeID)
		if err != nil {
			return err
		}
		pi := &ptrInfo{pointee: pe, storage: rt.storage}
		if src := c.ptrs[ops[0]]; src != nil && src.pointee == pe {
			pi = src
		}
		c.ptrs[result] = pi
		if opc == spirv.OpGenericCastToPtrExplicit || opc == spirv.OpGenericCastToPtr {
			c.emit(inst{op: opGenericCast, dst: d, a: a, n: 1, imm: uint64(rt.storage)})
			return nil
		}
		c.emit(inst{op: opCopy, dst: d, a: a, n: 1})
		return nil
	case spirv.OpGenericPtrMemSemantics:
		d, a, _, _, err := elem1()
		if err != nil {
			return err
		}
		c.emit(inst{op: opGenericCast, dst: d, a: a, n: 1, imm: 1 << 32})
		return nil
	case spirv.OpBitcast:
		d, rt, a, at, err := operands1()
		if err != nil {
			return err
		}
		wr, wa := compWidth(rt.sc, c.ptrBytes), compWidth(at.sc, c.ptrBytes)
		if rt.vec != rt.ncomp || at.vec != at.ncomp || rt.ncomp*wr != at.ncomp*wa {
			return fmt.Errorf("OpBitcast: operand and result sizes differ")
		}
		if rt.kind == spirv.TypePointer {
			pe, err := c.typ(rt.pointeeID)
			if err != nil {
				return err
			}
			c.ptrs[result] = &ptrInfo{pointee: pe, storage: rt.storage}
		}
		c.emit(inst{op: opBitcast, dst: d, a: a, n: int32(rt.ncomp), aux: int32(at.ncomp), sc: scalar{width: uint8(wr)}, sc2: scalar{width: uint8(wa)}})
		return nil
	case spirv.OpBitcastExtractEXT:
		d, rt, a, at, b, bt, err := operands2()
		if err != nil {
			return err
		}
		if at.ncomp != rt.ncomp || bt.ncomp != 1 || bt.sc.kind != skInt || at.sc.width <= rt.sc.width {
			return fmt.Errorf("OpBitcastExtractEXT: bad operands")
		}
		c.emit(inst{op: opBitcastExtract, dst: d, a: a, b: b, n: int32(rt.ncomp), sc: rt.sc, sc2: at.sc})
		return nil

	// ---- vector and matrix float ops
	case spirv.OpDot:
		d, rt, a, at, b, bt, err := operands2()
		if err != nil {
			return err
		}
		if rt.ncomp != 1 || at.ncomp != bt.ncomp || at.sc.kind != skFloat {
			return fmt.Errorf("OpDot: bad operands")
		}
		c.emit(inst{op: opDot, dst: d, a: a, b: b, n: int32(at.ncomp), sc: at.sc})
		return nil
	case spirv.OpVectorTimesScalar, spirv.OpMatrixTimesScalar, spirv.OpVectorTimesMatrix, spirv.OpMatrixTimesVector,
		spirv.OpMatrixTimesMatrix, spirv.OpOuterProduct:
		d, rt, a, at, b, bt, err := operands2()
		if err != nil {
			return err
		}
		if rt.sc.kind != skFloat {
			return fmt.Errorf("%s: not a float type", opc)
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
			return fmt.Errorf("%s: operand shapes do not match", opc)
		}
		c.emit(inst{op: opMatrix, aux: k, dst: d, a: a, b: b, n: int32(rt.ncomp), sc: rt.sc, imm: uint64(rows) | uint64(cols)<<8 | uint64(inner)<<16})
		return nil
	case spirv.OpSDot, spirv.OpUDot, spirv.OpSUDot, spirv.OpSDotAccSat, spirv.OpUDotAccSat, spirv.OpSUDotAccSat:
		d, rt, a, at, b, bt, err := operands2()
		if err != nil {
			return err
		}
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
				return errOps(opc)
			}
			acc, acct, err := c.val(rest[0])
			if err != nil {
				return err
			}
			if acct.ncomp != 1 {
				return fmt.Errorf("%s: bad accumulator", opc)
			}
			in.c = acc
			rest = rest[1:]
		}
		if len(rest) > 0 { // PackedVectorFormat4x8Bit
			in.imm = 1
			if at.ncomp != 1 || at.sc.width != 32 {
				return fmt.Errorf("%s: packed operands must be 32-bit scalars", opc)
			}
		} else if at.ncomp != bt.ncomp || at.vec != at.ncomp || at.sc.kind != skInt {
			return fmt.Errorf("%s: bad operands", opc)
		}
		if rt.ncomp != 1 || rt.sc.kind != skInt {
			return fmt.Errorf("%s: result must be an integer scalar", opc)
		}
		c.emit(in)
		return nil

	// ---- memory
	case spirv.OpVariable:
		return c.localVar(result, typeID, ops)
	case spirv.OpLoad:
		if err := need(1); err != nil {
			return err
		}
		if c.ssa != nil {
			if k, ok := c.ssa.vars[ops[0]]; ok {
				return c.ssaLoad(k, typeID, result)
			}
		}
		d, rt, err := res()
		if err != nil {
			return err
		}
		if vs, ok := c.regVars[ops[0]]; ok {
			if c.regVarN[ops[0]] != int32(rt.ncomp) {
				return fmt.Errorf("OpLoad: the pointee type does not match the result type")
			}
			if rt.kind == spirv.TypePointer {
				pe, err := c.typ(rt.pointeeID)
				if err != nil {
					return err
				}
				c.ptrs[result] = &ptrInfo{pointee: pe, storage: rt.storage}
			}
			c.emit(inst{op: opCopy, dst: d, a: vs, n: int32(rt.ncomp)})
			return nil
		}
		a, pt, err := c.val(ops[0])
		if err != nil {
			return err
		}
		lv, err := c.ptrLeaves(ops[0], pt, rt)
		if err != nil {
			return err
		}
		if rt.kind == spirv.TypePointer {
			pe, err := c.typ(rt.pointeeID)
			if err != nil {
				return err
			}
			c.ptrs[result] = &ptrInfo{pointee: pe, storage: rt.storage}
		}
		c.p.leafLists = append(c.p.leafLists, lv)
		ld := inst{op: opLoad, dst: d, a: a, n: int32(rt.ncomp), aux: int32(len(c.p.leafLists) - 1)}
		c.fuse(&ld, ops[0], true)
		if fp, ok := c.fixed[a]; ok && ld.op == opLoad {
			if !fp.lane {
				ld.op = opLoadUni
			} else if leafExtent(lv) <= int(fp.size) {
				ld.op, ld.imm = opLoadLane, uint64(fp.off)
				if fp.input > 0 {
					c.builtinLoad(&ld, fp, lv)
				}
			}
		}
		c.emit(ld)
		return nil
	case spirv.OpStore:
		if err := need(2); err != nil {
			return err
		}
		a, pt, err := c.val(ops[0])
		if err != nil {
			return err
		}
		b, vt, err := c.val(ops[1])
		if err != nil {
			return err
		}
		if c.ssa != nil {
			if k, ok := c.ssa.vars[ops[0]]; ok {
				if c.ssa.n[k] != int32(vt.ncomp) {
					return fmt.Errorf("OpStore: the pointee type does not match the value type")
				}
				c.ssa.cur[k] = b
				return nil
			}
		}
		if vs, ok := c.regVars[ops[0]]; ok {
			if c.regVarN[ops[0]] != int32(vt.ncomp) {
				return fmt.Errorf("OpStore: the pointee type does not match the value type")
			}
			c.emit(inst{op: opCopy, dst: vs, a: b, n: int32(vt.ncomp)})
			return nil
		}
		lv, err := c.ptrLeaves(ops[0], pt, vt)
		if err != nil {
			return err
		}
		c.p.leafLists = append(c.p.leafLists, lv)
		st := inst{op: opStore, a: a, b: b, n: int32(vt.ncomp), aux: int32(len(c.p.leafLists) - 1)}
		c.fuse(&st, ops[0], false)
		if fp, ok := c.fixed[a]; ok && st.op == opStore && fp.lane && leafExtent(lv) <= int(fp.size) {
			st.op, st.imm = opStoreLane, uint64(fp.off)
		}
		c.emit(st)
		return nil
	case spirv.OpAccessChain, spirv.OpInBoundsAccessChain, spirv.OpPtrAccessChain, spirv.OpInBoundsPtrAccessChain:
		return c.accessChain(opc, result, ops)
	case spirv.OpArrayLength:
		if err := need(2); err != nil {
			return err
		}
		d, _, err := res()
		if err != nil {
			return err
		}
		a, _, err := c.val(ops[0])
		if err != nil {
			return err
		}
		pi := c.ptrs[ops[0]]
		if pi == nil || pi.pointee.kind != spirv.TypeStruct || int(ops[1]) >= len(pi.pointee.members) {
			return fmt.Errorf("OpArrayLength: the pointer is not to a struct with that member")
		}
		st := pi.pointee
		if err := c.layout(st); err != nil {
			return err
		}
		mt := st.members[ops[1]]
		if mt.kind != spirv.TypeRuntimeArray || mt.stride == 0 {
			return fmt.Errorf("OpArrayLength: member %d is not a runtime array", ops[1])
		}
		c.emit(inst{op: opArrayLength, dst: d, a: a, n: 1, imm: uint64(st.moff[ops[1]]), aux: int32(mt.stride)})
		return nil
	case spirv.OpCopyMemory:
		if err := need(2); err != nil {
			return err
		}
		a, at, err := c.val(ops[0])
		if err != nil {
			return err
		}
		b, bt, err := c.val(ops[1])
		if err != nil {
			return err
		}
		ti, si := c.ptrs[ops[0]], c.ptrs[ops[1]]
		if ti == nil || si == nil || at.kind != spirv.TypePointer || bt.kind != spirv.TypePointer {
			return fmt.Errorf("OpCopyMemory: operands are not pointers")
		}
		if ti.pointee.ncomp != si.pointee.ncomp || ti.pointee.ncomp > maxComponents {
			return fmt.Errorf("OpCopyMemory: pointee types differ")
		}
		slv, err := c.leaves(nil, si.pointee, 0, si.ml, si.vs)
		if err != nil {
			return err
		}
		tlv, err := c.leaves(nil, ti.pointee, 0, ti.ml, ti.vs)
		if err != nil {
			return err
		}
		n := int32(len(slv))
		tmp := c.newSlots(int(n))
		c.p.leafLists = append(c.p.leafLists, slv, tlv)
		k := int32(len(c.p.leafLists))
		c.emit(inst{op: opLoad, dst: tmp, a: b, n: n, aux: k - 2})
		c.emit(inst{op: opStore, a: a, b: tmp, n: n, aux: k - 1})
		return nil
	case spirv.OpCopyMemorySized:
		if err := need(3); err != nil {
			return err
		}
		a, _, err := c.val(ops[0])
		if err != nil {
			return err
		}
		b, _, err := c.val(ops[1])
		if err != nil {
			return err
		}
		s, st, err := c.val(ops[2])
		if err != nil {
			return err
		}
		if st.ncomp != 1 || st.sc.kind != skInt {
			return fmt.Errorf("OpCopyMemorySized: size is not an integer")
		}
		c.emit(inst{op: opCopyMemSized, a: a, b: b, c: s, n: 1})
		return nil
	case spirv.OpPtrEqual, spirv.OpPtrNotEqual:
		d, a, b, rt, _, err := elem2()
		if err != nil {
			return err
		}
		var ne uint64
		if opc == spirv.OpPtrNotEqual {
			ne = 1
		}
		c.emit(inst{op: opPtrCmp, dst: d, a: a, b: b, n: int32(rt.ncomp), imm: ne})
		return nil
	case spirv.OpPtrDiff:
		if err := need(2); err != nil {
			return err
		}
		d, rt, err := res()
		if err != nil {
			return err
		}
		a, _, err := c.val(ops[0])
		if err != nil {
			return err
		}
		b, _, err := c.val(ops[1])
		if err != nil {
			return err
		}
		pi := c.ptrs[ops[0]]
		if pi == nil {
			return fmt.Errorf("OpPtrDiff: not a pointer")
		}
		if err := c.layout(pi.pointee); err != nil {
			return err
		}
		es := alignUp(pi.pointee.size, pi.pointee.align)
		if es == 0 {
			es = 1
		}
		c.emit(inst{op: opPtrDiff, dst: d, a: a, b: b, n: 1, sc: rt.sc, imm: uint64(es)})
		return nil

	// ---- control flow
	case spirv.OpBranch:
		if err := need(1); err != nil {
			return err
		}
		e, err := c.edgeTo(ops[0])
		if err != nil {
			return err
		}
		c.emit(inst{op: opBranch, aux: e})
		return nil
	case spirv.OpBranchConditional:
		if err := need(3); err != nil {
			return err
		}
		cs, ct, err := c.val(ops[0])
		if err != nil {
			return err
		}
		if ct.ncomp != 1 || ct.sc.kind != skBool {
			return fmt.Errorf("OpBranchConditional: condition is not a bool")
		}
		e1, err := c.edgeTo(ops[1])
		if err != nil {
			return err
		}
		e2, err := c.edgeTo(ops[2])
		if err != nil {
			return err
		}
		if e2 != e1+1 {
			return fmt.Errorf("internal: edges not consecutive")
		}
		c.emit(inst{op: opBranchCond, a: cs, aux: e1})
		return nil
	case spirv.OpSwitch:
		if err := need(2); err != nil {
			return err
		}
		s, st, err := c.val(ops[0])
		if err != nil {
			return err
		}
		if st.ncomp != 1 || st.sc.kind != skInt {
			return fmt.Errorf("OpSwitch: selector is not an integer scalar")
		}
		w := 1
		if st.sc.width == 64 {
			w = 2
		}
		var tab switchTab
		if tab.def, err = c.edgeTo(ops[1]); err != nil {
			return err
		}
		for k := 2; k+w < len(ops); k += w + 1 {
			v := uint64(ops[k])
			if w == 2 {
				v |= uint64(ops[k+1]) << 32
			}
			e, err := c.edgeTo(ops[k+w])
			if err != nil {
				return err
			}
			tab.vals = append(tab.vals, v&st.sc.mask())
			tab.edges = append(tab.edges, e)
		}
		c.p.switches = append(c.p.switches, tab)
		c.emit(inst{op: opSwitch, a: s, aux: int32(len(c.p.switches) - 1)})
		return nil
	case spirv.OpReturn:
		c.emit(inst{op: opReturn})
		return nil
	case spirv.OpReturnValue:
		if err := need(1); err != nil {
			return err
		}
		a, at, err := c.val(ops[0])
		if err != nil {
			return err
		}
		if int32(at.ncomp) != c.curFn.retN {
			return fmt.Errorf("OpReturnValue: value does not match the function's return type")
		}
		c.emit(inst{op: opReturnValue, a: a, n: int32(at.ncomp)})
		return nil
	case spirv.OpKill, spirv.OpTerminateInvocation, spirv.OpDemoteToHelperInvocation:
		c.emit(inst{op: opKill})
		return nil
	case spirv.OpUnreachable:
		c.emit(inst{op: opUnreachable})
		return nil
	case spirv.OpFunctionCall:
		if err := need(1); err != nil {
			return err
		}
		fn := c.funcs[ops[0]]
		if fn == nil {
			return fmt.Errorf("OpFunctionCall: %%%d is not a compiled function", ops[0])
		}
		args := ops[1:]
		if len(args) != len(fn.params) {
			return fmt.Errorf("OpFunctionCall: %d arguments for %d parameters", len(args), len(fn.params))
		}
		ci := callInfo{fn: fn}
		for k, a := range args {
			s, t, err := c.val(a)
			if err != nil {
				return err
			}
			if int32(t.ncomp) != fn.paramN[k] {
				return fmt.Errorf("OpFunctionCall: argument %d does not match the parameter type", k)
			}
			ci.args = append(ci.args, s)
		}
		var d int32 = -1
		if fn.retN > 0 {
			var rt *tinfo
			var err error
			if d, rt, err = res(); err != nil {
				return err
			}
			if int32(rt.ncomp) != fn.retN {
				return fmt.Errorf("OpFunctionCall: result type does not match")
			}
		}
		c.curFn.depth = max(c.curFn.depth, fn.depth+1)
		c.p.calls = append(c.p.calls, ci)
		c.emit(inst{op: opCall, dst: d, aux: int32(len(c.p.calls) - 1), n: fn.retN})
		return nil
	case spirv.OpControlBarrier:
		if err := need(3); err != nil {
			return err
		}
		sc, ok := c.constScalar(ops[0])
		if !ok {
			return fmt.Errorf("OpControlBarrier: execution scope is not a constant")
		}
		if sc == uint64(spirv.ScopeSubgroup) || sc == uint64(spirv.ScopeInvocation) {
			return nil
		}
		c.emit(inst{op: opBarrier, imm: sc})
		return nil

	case spirv.OpExtInst:
		return c.extInst(result, typeID, ops)
	}
	if isAtomic(opc) {
		return c.atomic(opc, result, ops)
	}
	if handled, err := c.groupOp(opc, result, ops); handled {
		return err
	}
	return fmt.Errorf("%s is not supported by the executor", opc)
}

// compWidth is the bit width of one component for OpBitcast.
func compWidth(s scalar, ptrBytes uint32) int {
	if s.kind == skPtr {
		return int(ptrBytes) * 8
	}
	if s.kind == skBool {
		return 1
	}
	return int(s.width)
}

// compOffset walks a composite type with literal indexes.
func compOffset(t *tinfo, idx []uint32) (int32, *tinfo, error) {
	off := 0
	for _, i := range idx {
		switch t.kind {
		case spirv.TypeStruct:
			if int(i) >= len(t.members) {
				return 0, nil, fmt.Errorf("index %d out of range of the struct", i)
			}
			off += t.mcomp[i]
			t = t.members[i]
		case spirv.TypeArray:
			if int(i) >= t.count {
				return 0, nil, fmt.Errorf("index %d out of range of the array", i)
			}
			off += int(i) * t.elem.ncomp
			t = t.elem
		case spirv.TypeVector:
			if int(i) >= t.vec {
				return 0, nil, fmt.Errorf("index %d out of range of the vector", i)
			}
			off += int(i)
			t = t.elem
		case spirv.TypeMatrix:
			if int(i) >= t.cols {
				return 0, nil, fmt.Errorf("index %d out of range of the matrix", i)
			}
			off += int(i) * t.vec
			t = t.elem
		default:
			return 0, nil, fmt.Errorf("indexing into a non-composite")
		}
	}
	return int32(off), t, nil
}
