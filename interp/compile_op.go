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
	// SPV_INTEL_shader_integer_functions2 (intfn2.go)
	bAbsISub
	bAbsUSub
	bIAddSat
	bUAddSat
	bIAverage
	bUAverage
	bIAverageRounded
	bUAverageRounded
	bISubSat
	bUSubSat
	bIMul32x16
	bUMul32x16
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
	uCountLeadingZeros  // SPV_INTEL_shader_integer_functions2
	uCountTrailingZeros // (intfn2.go)
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

// cinst is the instruction being compiled: its opcode, result type and
// id, and its operand words. Its methods decode operands in the order
// the compiler allocates slots, so that order is the same everywhere.
type cinst struct {
	c              *compiler
	opc            spirv.Opcode
	typeID, result uint32
	ops            []uint32
}

// operands holds the result's slot and type and the first one to three
// operands' slots and types.
type operands struct {
	d          int32
	rt         *tinfo
	a, b, c    int32
	at, bt, ct *tinfo
}

// need reports missing operands when the instruction has fewer than k.
func (q *cinst) need(k int) error {
	if len(q.ops) < k {
		return errOps(q.opc)
	}
	return nil
}

// res returns the result's slot and type.
func (q *cinst) res() (int32, *tinfo, error) { return q.c.slot(q.result) }

// vals decodes the first k (at most 3) operands into v, in order.
func (q *cinst) vals(v *operands, k int) error {
	for i := range k {
		s, t, err := q.c.val(q.ops[i])
		if err != nil {
			return err
		}
		switch i {
		case 0:
			v.a, v.at = s, t
		case 1:
			v.b, v.bt = s, t
		default:
			v.c, v.ct = s, t
		}
	}
	return nil
}

// decode checks that the instruction has at least need operands, then
// decodes the result and the first k (k <= need, at most 3) operands.
func (q *cinst) decode(need, k int) (v operands, err error) {
	if err = q.need(need); err != nil {
		return
	}
	if v.d, v.rt, err = q.res(); err != nil {
		return
	}
	err = q.vals(&v, k)
	return
}

// decodeArgs is decode for an instruction without a result.
func (q *cinst) decodeArgs(need, k int) (v operands, err error) {
	if err = q.need(need); err != nil {
		return
	}
	err = q.vals(&v, k)
	return
}

// operands1 decodes the result and the first operand.
func (q *cinst) operands1() (operands, error) { return q.decode(1, 1) }

// operands2 decodes the result and the first two operands.
func (q *cinst) operands2() (v operands, err error) {
	if v, err = q.operands1(); err != nil {
		return
	}
	if err = q.need(2); err != nil {
		return
	}
	v.b, v.bt, err = q.c.val(q.ops[1])
	return
}

// elem1 decodes a unary elementwise instruction: operand and result have
// as many components.
func (q *cinst) elem1() (v operands, err error) {
	if v, err = q.decode(1, 1); err == nil && v.at.ncomp != v.rt.ncomp {
		err = fmt.Errorf("%s: operand and result component counts differ", q.opc)
	}
	return
}

// elem2 decodes a binary elementwise instruction over vectors or scalars.
func (q *cinst) elem2() (v operands, err error) {
	if v, err = q.decode(2, 2); err == nil &&
		(v.at.ncomp != v.rt.ncomp || v.bt.ncomp != v.rt.ncomp || v.at.vec != v.at.ncomp) {
		err = fmt.Errorf("%s: operand and result component counts differ", q.opc)
	}
	return
}

// intBin compiles a binary integer (or bool) instruction to fast.
func (q *cinst) intBin(fast op) error {
	v, err := q.elem2()
	if err != nil {
		return err
	}
	if v.at.sc.kind != skInt && v.at.sc.kind != skBool {
		return fmt.Errorf("%s: operands are not integers", q.opc)
	}
	q.c.emitImm(inst{op: fast, dst: v.d, a: v.a, b: v.b, n: int32(v.rt.ncomp), sc: v.at.sc, imm: v.at.sc.mask()}, q.ops[1])
	return nil
}

// floatBin compiles a binary float instruction: binTab entry k, or f32
// and f64 (when not 0) for IEEE binary32 and binary64.
func (q *cinst) floatBin(k int, f32, f64 op) error {
	v, err := q.elem2()
	if err != nil {
		return err
	}
	if v.at.sc.kind != skFloat {
		return fmt.Errorf("%s: operands are not floats", q.opc)
	}
	in := inst{op: opBin, aux: int32(k), dst: v.d, a: v.a, b: v.b, n: int32(v.rt.ncomp), sc: v.at.sc}
	if v.at.sc.enc == encIEEE && v.at.sc.width == 32 && f32 != 0 {
		in.op = f32
	} else if v.at.sc.enc == encIEEE && v.at.sc.width == 64 && f64 != 0 {
		in.op = f64
	}
	q.c.emitImm(in, q.ops[1])
	return nil
}

// un compiles a unary instruction (unTab entry k) whose operand is of
// one of kinds.
func (q *cinst) un(k int, kinds ...uint8) error {
	v, err := q.elem1()
	if err != nil {
		return err
	}
	ok := false
	for _, kd := range kinds {
		ok = ok || v.at.sc.kind == kd
	}
	if !ok {
		return fmt.Errorf("%s: wrong operand type", q.opc)
	}
	q.c.emit(inst{op: opUn, aux: int32(k), dst: v.d, a: v.a, n: int32(v.rt.ncomp), sc: v.at.sc})
	return nil
}

// compileFamilies are the instruction families' compilers, each handling
// its own opcodes (compile_*.go). Atomics, group operations and extended
// instructions have compilers of their own signature. The table is filled
// by init, as the compilers reach op again through spec constants.
var compileFamilies []func(*compiler, *cinst) (bool, error)

func init() {
	compileFamilies = []func(*compiler, *cinst) (bool, error){
		(*compiler).compileCoopMat, (*compiler).compileInt, (*compiler).compileFloat, (*compiler).compileLogical, (*compiler).compileVecMat,
		(*compiler).compileComposite, (*compiler).compileConvert, (*compiler).compileImage, (*compiler).compileSampler, (*compiler).compileLoadStore,
		(*compiler).compilePointerOps, (*compiler).compileControl, (*compiler).compileIntFunctions2,
		(*compiler).compileDerivative, (*compiler).compileDPAS, (*compiler).compileBlock2D,
	}
}

// op compiles one instruction (or the operation of an OpSpecConstantOp),
// handing it to its family's compiler (compile_*.go).
func (c *compiler) op(opc spirv.Opcode, typeID, result uint32, ops []uint32, idx int) error {
	c.instIdx = idx
	switch opc {
	case spirv.OpNop, spirv.OpLine, spirv.OpNoLine, spirv.OpLifetimeStart, spirv.OpLifetimeStop,
		spirv.OpAssumeTrueKHR, spirv.OpMemoryBarrier, spirv.OpModuleProcessed, spirv.OpName, spirv.OpMemberName,
		spirv.OpSourceContinued, spirv.OpSource, spirv.OpSourceExtension, spirv.OpString, spirv.OpDecorate,
		spirv.OpMemberDecorate:
		return nil
	case spirv.OpUndef:
		if _, _, err := c.slot(result); err != nil {
			return err
		}
		c.cdone[result] = true
		return nil
	case spirv.OpExtInst:
		return c.extInst(result, typeID, ops)
	}
	if isAtomic(opc) {
		return c.atomic(opc, result, ops)
	}
	q := &cinst{c: c, opc: opc, typeID: typeID, result: result, ops: ops}
	for _, family := range compileFamilies {
		if handled, err := family(c, q); handled {
			return err
		}
	}
	if handled, err := c.groupOp(opc, result, ops); handled {
		return err
	}
	return fmt.Errorf("%s is not supported by the executor", opc)
}
