package interp

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"strings"

	"spvx/spirv"
)

// SPV_KHR_cooperative_matrix (revision 3) at Subgroup scope: the type
// OpTypeCooperativeMatrixKHR, OpCooperativeMatrixLoadKHR/StoreKHR,
// OpCooperativeMatrixMulAddKHR and OpCooperativeMatrixLengthKHR here; the
// composite, arithmetic and conversion instructions the extension allows
// on matrices run through their ordinary families, a matrix being, per
// invocation, a vector of its L components (coopCheck keeps those to the
// instructions and shapes the extension allows); OpMatrixTimesScalar,
// which the extension allows on integer matrices too, is compiled here.
//
// Implementation-defined choices (the extension leaves them open):
//
//   - Layout (Options.CoopMatLayout = CoopMatLinear): element e of the
//     row-major flattened R×C matrix, e = row·C + col, is component e / S
//     of invocation e % S, S the subgroup size; every invocation has
//     L = ceil(R·C / S) components (OpCooperativeMatrixLengthKHR), the
//     slots past the last element being padding that loads set to 0 and
//     stores ignore. The layout depends only on R, C and S, so matrices of
//     one shape and different component types or uses convert slot by slot.
//   - CoopMatShuffle: element e is in slot π(e) of the S·L slots
//     (component slot/S of invocation slot%S), π a fixed pseudo-random
//     permutation drawn from Options.Seed, R and C. A program that
//     depends on where an element lives gets different results under it,
//     as --shuffle exposes races.
//   - MulAdd, floats: Result[m][n] starts as C[m][n] rounded to the
//     Result type; then for k = 0, 1, ..., K-1 it becomes
//     acc + A[m][k]·B[k][n], computed exactly and rounded once to the
//     Result type (to nearest even, denormals kept). NaN and infinities
//     follow IEEE 754.
//   - MulAdd, integers: elements are sign- or zero-extended by the
//     Matrix{A,B,C}SignedComponents bits; without SaturatingAccumulation
//     the result is the low bits of the exact sum (the extension's
//     wraparound). With it, the exact sum of C and every product is
//     clamped to the Result type's range, signed if the
//     MatrixResultSignedComponents bit is set (where the extension calls
//     an overflowing A·B undefined, the exact sum is clamped too).
//   - Load and store: the pointer and stride must be the same in every
//     invocation (the extension requires them dynamically uniform) and
//     every invocation of a full subgroup must execute the instruction
//     (it requires that of any instruction on a matrix); otherwise a
//     FaultSubgroup. A Stride below 0 (or 0 for a store) is
//     FaultUndefined; an Aligned memory operand the pointer does not meet
//     is FaultUndefined; any element outside the memory FaultOutOfBounds.
//     Overlapping elements of a store are written in element order.

// CoopMatLayout selects how a cooperative matrix's elements are spread
// over the invocations of a subgroup (implementation-defined).
type CoopMatLayout uint8

const (
	// CoopMatLinear puts element e (row-major) in component e/S of
	// invocation e%S.
	CoopMatLinear CoopMatLayout = iota
	// CoopMatShuffle puts the elements in a fixed pseudo-random
	// permutation of the (invocation, component) slots, seeded by
	// Options.Seed.
	CoopMatShuffle
)

// Cooperative Matrix Operands, Use and Layout values.
const (
	cmASigned      = 0x1
	cmBSigned      = 0x2
	cmCSigned      = 0x4
	cmResultSigned = 0x8
	cmSaturating   = 0x10
	cmKnownOps     = 0x1f

	cmUseA   = 0
	cmUseB   = 1
	cmUseAcc = 2
	cmUseNV  = 3 // SPV_NV_cooperative_matrix: no Use, any role

	cmRowMajor = 0
	cmColMajor = 1

	maxCoopElems = 1 << 16 // elements of one matrix
)

// coopInfo is a resolved cooperative matrix type.
type coopInfo struct {
	rows, cols int
	use        uint64
	slot       []int32 // element e → slot: component slot/S of invocation slot%S
}

// Cooperative matrix run-time operations (coopOp.kind).
const (
	cmLoad = iota
	cmStore
	cmMulAdd
)

// coopOp is a compiled load, store or MulAdd.
type coopOp struct {
	kind uint8
	nv   bool      // the SPV_NV_cooperative_matrix form of the instruction
	n    int       // loaded or stored matrix: components per invocation
	m    *coopInfo // loaded or stored matrix
	sc   scalar    // its components
	val  int32     // store: the matrix's slot

	ptr, stride int32
	strideSc    scalar
	colMajor    bool
	psz         uint64 // bytes of the pointee: Stride's unit
	align       uint64 // Aligned memory operand, 0 if none

	a, b, c    int32 // MulAdd operand slots
	ta, tb, tc *tinfo
	tr         *tinfo
	ops        uint32
}

// coopType resolves OpTypeCooperativeMatrixKHR %id (or the NV form,
// which has no Use) into t.
func (c *compiler) coopType(t *tinfo) error {
	i, _ := c.x.Def(t.id)
	in := c.m.Inst(i)
	w := in.Words
	nv := in.Opcode == spirv.OpTypeCooperativeMatrixNV
	if want := 7 - boolInt(nv); len(w) != want {
		return fmt.Errorf("%s %%%d: wants %d operands, has %d", in.Opcode, t.id, want-2, len(w)-2)
	}
	e, err := c.typ(w[2])
	if err != nil {
		return err
	}
	if err := coopComponent(e); err != nil {
		return fmt.Errorf("%s %%%d: %v", in.Opcode, t.id, err)
	}
	v := [4]uint64{3: cmUseNV}
	names := []string{"Scope", "Rows", "Columns", "Use"}
	for k := range len(w) - 3 {
		var ok bool
		if v[k], ok = c.constScalar(w[3+k]); !ok {
			return fmt.Errorf("%s %%%d: %s must be a constant", in.Opcode, t.id, names[k])
		}
	}
	if v[0] != uint64(spirv.ScopeSubgroup) {
		return fmt.Errorf("%s %%%d: only Subgroup scope is supported, not %d", in.Opcode, t.id, v[0])
	}
	rows, cols := v[1], v[2]
	if rows == 0 || cols == 0 || rows > maxCoopElems || cols > maxCoopElems || rows*cols > maxCoopElems {
		return fmt.Errorf("%s %%%d: %d×%d is out of range (1 to %d elements)", in.Opcode, t.id, rows, cols, maxCoopElems)
	}
	if !nv && v[3] > cmUseAcc {
		return fmt.Errorf("%s %%%d: Use %d is not MatrixAKHR, MatrixBKHR or MatrixAccumulatorKHR", in.Opcode, t.id, v[3])
	}
	n := int(rows * cols)
	L := (n + c.p.S - 1) / c.p.S
	t.ncomp, t.vec, t.sc, t.elem = L, L, e.sc, e
	t.coop = &coopInfo{rows: int(rows), cols: int(cols), use: v[3], slot: c.coopLayout(int(rows), int(cols), L)}
	return nil
}

// coopComponent checks a matrix's component type: an integer, or an
// IEEE, bf16 or FP8 float.
func coopComponent(e *tinfo) error {
	switch {
	case e.kind == spirv.TypeInt:
		return nil
	case e.kind == spirv.TypeFloat:
		switch e.sc.enc {
		case encIEEE, encBF16, encE4M3, encE5M2:
			return nil
		}
	}
	return fmt.Errorf("Component Type must be an integer, or an IEEE, bfloat16 or FP8 float")
}

// coopLayout is the slot of each element of an R×C matrix of L
// components per invocation, shared by every type of that shape.
func (c *compiler) coopLayout(rows, cols, L int) []int32 {
	key := [2]int{rows, cols}
	if s, ok := c.coopSlots[key]; ok {
		return s
	}
	n := rows * cols
	var perm []int32
	if c.opts.CoopMatLayout == CoopMatShuffle {
		perm = shuffledSlots(c.opts.Seed, rows, cols, c.p.S*L)
	} else {
		perm = make([]int32, c.p.S*L)
		for i := range perm {
			perm[i] = int32(i)
		}
	}
	if c.coopSlots == nil {
		c.coopSlots = map[[2]int][]int32{}
	}
	c.coopSlots[key] = perm[:n]
	return perm[:n]
}

// shuffledSlots is a Fisher-Yates permutation of n slots from a
// splitmix64 stream of seed, rows and cols (its own generator, so the
// layout of a seed never changes with the Go version).
func shuffledSlots(seed int64, rows, cols, n int) []int32 {
	x := uint64(seed) ^ uint64(rows)<<40 ^ uint64(cols)<<20 ^ 0x636f6f706d6174
	next := func() uint64 {
		x += 0x9e3779b97f4a7c15
		z := x
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		return z ^ z>>31
	}
	p := make([]int32, n)
	for i := range p {
		p[i] = int32(i)
	}
	for i := n - 1; i > 0; i-- {
		j := int(next() % uint64(i+1))
		p[i], p[j] = p[j], p[i]
	}
	return p
}

// compileCoopMat compiles the extension's own instructions, and checks
// the others that meet a matrix (coopCheck) before their family does.
func (c *compiler) compileCoopMat(q *cinst) (bool, error) {
	var err error
	switch q.opc {
	case spirv.OpCooperativeMatrixLengthKHR, spirv.OpCooperativeMatrixLengthNV:
		err = c.coopLength(q)
	case spirv.OpCooperativeMatrixLoadKHR, spirv.OpCooperativeMatrixStoreKHR,
		spirv.OpCooperativeMatrixLoadNV, spirv.OpCooperativeMatrixStoreNV:
		err = c.coopMemory(q)
	case spirv.OpCooperativeMatrixMulAddKHR, spirv.OpCooperativeMatrixMulAddNV:
		err = c.coopMulAdd(q)
	default:
		return c.coopCheck(q)
	}
	if err != nil {
		return true, fmt.Errorf("%s: %v", q.opc, err)
	}
	return true, nil
}

// coopLength sets the result to L, a constant.
func (c *compiler) coopLength(q *cinst) error {
	if len(q.ops) != 1 {
		return fmt.Errorf("wants one Type operand")
	}
	t, err := c.typ(q.ops[0])
	if err != nil {
		return err
	}
	if t.coop == nil {
		return fmt.Errorf("Type %%%d is not a cooperative matrix type", q.ops[0])
	}
	d, rt, err := q.res()
	if err != nil {
		return err
	}
	if rt.kind != spirv.TypeInt || rt.ncomp != 1 || rt.sc.width != 32 {
		return fmt.Errorf("Result Type must be a 32-bit integer")
	}
	c.growCV()
	c.cv[d] = uint64(t.ncomp)
	return nil
}

// coopMemory compiles OpCooperativeMatrixLoadKHR and StoreKHR: Pointer,
// (Object,) MemoryLayout, Stride, memory operands; and the NV forms:
// Pointer, (Object,) Stride, ColumnMajor (a boolean constant), memory
// operands.
func (c *compiler) coopMemory(q *cinst) error {
	load := q.opc == spirv.OpCooperativeMatrixLoadKHR || q.opc == spirv.OpCooperativeMatrixLoadNV
	at := 0 // index of MemoryLayout
	o := coopOp{kind: cmLoad, nv: q.opc == spirv.OpCooperativeMatrixLoadNV || q.opc == spirv.OpCooperativeMatrixStoreNV}
	var mt *tinfo
	var err error
	if load {
		at = 1
		var d int32
		if d, mt, err = q.res(); err != nil {
			return err
		}
		o.val = d
	} else {
		at = 2
		if len(q.ops) < 2 {
			return fmt.Errorf("wants Pointer, Object and MemoryLayout")
		}
		o.kind = cmStore
		if o.val, mt, err = c.val(q.ops[1]); err != nil {
			return err
		}
	}
	if mt.coop == nil {
		return fmt.Errorf("%s must be a cooperative matrix", map[bool]string{true: "Result Type", false: "Object"}[load])
	}
	o.m, o.sc, o.n = mt.coop, mt.sc, mt.ncomp
	if len(q.ops) < at+2 {
		return fmt.Errorf("wants a MemoryLayout and a Stride (RowMajorKHR and ColumnMajorKHR need one)")
	}
	if err := c.coopPointer(&o, q.ops[0]); err != nil {
		return err
	}
	layAt, strideAt := at, at+1
	if o.nv {
		layAt, strideAt = at+1, at
	}
	lay, ok := c.constScalar(q.ops[layAt])
	switch {
	case o.nv && !ok:
		return fmt.Errorf("ColumnMajor must be a boolean constant")
	case !o.nv && (!ok || lay != cmRowMajor && lay != cmColMajor):
		return fmt.Errorf("MemoryLayout must be a constant RowMajorKHR (0) or ColumnMajorKHR (1)")
	}
	o.colMajor = lay == cmColMajor
	var st *tinfo
	if o.stride, st, err = c.val(q.ops[strideAt]); err != nil {
		return err
	}
	if st.kind != spirv.TypeInt || st.ncomp != 1 {
		return fmt.Errorf("Stride must be an integer scalar")
	}
	o.strideSc = st.sc
	if o.align, err = memAligned(q.ops[at+2:]); err != nil {
		return err
	}
	c.p.coop = append(c.p.coop, o)
	c.emit(inst{op: opCoopMat, aux: int32(len(c.p.coop) - 1), dst: o.val, n: int32(mt.ncomp)})
	return nil
}

// coopPointer checks the Pointer operand: a pointer to a scalar or vector,
// whose size is the Stride's unit.
func (c *compiler) coopPointer(o *coopOp, id uint32) error {
	var pt *tinfo
	var err error
	if o.ptr, pt, err = c.val(id); err != nil {
		return err
	}
	if pt.kind != spirv.TypePointer {
		return fmt.Errorf("Pointer is not a pointer")
	}
	et, err := c.typ(pt.pointeeID)
	if err != nil {
		return err
	}
	if et.kind != spirv.TypeInt && et.kind != spirv.TypeFloat && et.kind != spirv.TypeVector {
		return fmt.Errorf("Pointer must point to a scalar or vector")
	}
	if err := c.layout(et); err != nil {
		return err
	}
	o.psz = uint64(et.size)
	return nil
}

// memAligned reads the Aligned literal of a Memory Operands list (the
// first parameter after the mask when the bit is set), 0 if absent.
func memAligned(w []uint32) (uint64, error) {
	if len(w) == 0 || w[0]&uint32(spirv.MemoryAccessAligned) == 0 {
		return 0, nil
	}
	if len(w) < 2 || w[1] == 0 || w[1]&(w[1]-1) != 0 {
		return 0, fmt.Errorf("the Aligned memory operand needs a power-of-two literal")
	}
	return uint64(w[1]), nil
}

// coopMulAdd compiles OpCooperativeMatrixMulAddKHR.
func (c *compiler) coopMulAdd(q *cinst) error {
	if len(q.ops) < 3 || len(q.ops) > 4 {
		return fmt.Errorf("wants A, B, C and an optional Cooperative Matrix Operands literal")
	}
	o := coopOp{kind: cmMulAdd, nv: q.opc == spirv.OpCooperativeMatrixMulAddNV}
	if len(q.ops) == 4 && !o.nv {
		o.ops = q.ops[3]
	}
	var err error
	var d int32
	if d, o.tr, err = q.res(); err != nil {
		return err
	}
	slots := []*int32{&o.a, &o.b, &o.c}
	ts := []**tinfo{&o.ta, &o.tb, &o.tc}
	for i := range 3 {
		if *slots[i], *ts[i], err = c.val(q.ops[i]); err != nil {
			return err
		}
	}
	if o.nv {
		o.ops = nvSignedness(o.ta, o.tb, o.tc, o.tr)
	}
	if err := o.checkMulAdd(); err != nil {
		return err
	}
	c.p.coop = append(c.p.coop, o)
	c.emit(inst{op: opCoopMat, aux: int32(len(c.p.coop) - 1), dst: d, n: int32(o.tr.ncomp)})
	return nil
}

// nvSignedness is the Cooperative Matrix Operands an NV MulAdd implies:
// SPV_NV_cooperative_matrix takes each integer matrix's signedness from
// its component type, and never saturates.
func nvSignedness(a, b, c, r *tinfo) uint32 {
	var ops uint32
	for _, x := range []struct {
		t   *tinfo
		bit uint32
	}{{a, cmASigned}, {b, cmBSigned}, {c, cmCSigned}, {r, cmResultSigned}} {
		if x.t.sc.kind == skInt && x.t.sc.signed {
			ops |= x.bit
		}
	}
	return ops
}

// checkMulAdd checks uses, shapes, component kinds and operand bits.
func (o *coopOp) checkMulAdd() error {
	names := []string{"Result Type", "A", "B", "C"}
	uses := []uint64{cmUseAcc, cmUseA, cmUseB, cmUseAcc}
	if o.nv {
		uses = []uint64{cmUseNV, cmUseNV, cmUseNV, cmUseNV}
	}
	for i, t := range []*tinfo{o.tr, o.ta, o.tb, o.tc} {
		if t.coop == nil || t.coop.use != uses[i] {
			if o.nv {
				return fmt.Errorf("%s must be an NV cooperative matrix", names[i])
			}
			return fmt.Errorf("%s must be a cooperative matrix with Use %s", names[i], [...]string{"MatrixAKHR", "MatrixBKHR", "MatrixAccumulatorKHR"}[uses[i]])
		}
	}
	M, N, K := o.tr.coop.rows, o.tr.coop.cols, o.ta.coop.cols
	if o.ta.coop.rows != M || o.tb.coop.rows != K || o.tb.coop.cols != N || o.tc.coop.rows != M || o.tc.coop.cols != N {
		return fmt.Errorf("shapes do not make an M×N×K multiply: Result %d×%d, A %d×%d, B %d×%d, C %d×%d",
			M, N, o.ta.coop.rows, K, o.tb.coop.rows, o.tb.coop.cols, o.tc.coop.rows, o.tc.coop.cols)
	}
	if o.ops&^cmKnownOps != 0 {
		return fmt.Errorf("unknown Cooperative Matrix Operands bits 0x%x", o.ops&^cmKnownOps)
	}
	float := o.tr.sc.kind == skFloat
	for i, t := range []*tinfo{o.tr, o.ta, o.tb, o.tc} {
		if (t.sc.kind == skFloat) != float {
			return fmt.Errorf("%s's components must be %s like the Result Type's", names[i], map[bool]string{true: "floats", false: "integers"}[float])
		}
	}
	if float && o.ops != 0 && !o.nv {
		return fmt.Errorf("Cooperative Matrix Operands 0x%x apply only to integer matrices", o.ops)
	}
	return nil
}

// coopCheck vets an instruction of another family that meets a
// cooperative matrix: the extension allows conversions, OpBitcast, the
// listed arithmetic, OpMatrixTimesScalar and the composite instructions,
// between matrices of one shape and use; copies, phis, selects, memory
// and calls carry matrices whole. It never handles the instruction.
func (c *compiler) coopCheck(q *cinst) (bool, error) {
	if q.typeID == 0 {
		return false, nil
	}
	rt, err := c.typ(q.typeID)
	if err != nil || rt.coop == nil {
		return false, nil
	}
	switch q.opc {
	case spirv.OpConvertFToU, spirv.OpConvertFToS, spirv.OpConvertSToF, spirv.OpConvertUToF, spirv.OpUConvert,
		spirv.OpSConvert, spirv.OpFConvert, spirv.OpBitcast, spirv.OpSNegate, spirv.OpFNegate,
		spirv.OpIAdd, spirv.OpFAdd, spirv.OpISub, spirv.OpFSub, spirv.OpFMul, spirv.OpIMul,
		spirv.OpFDiv, spirv.OpSDiv, spirv.OpUDiv:
		n := 1
		if q.opc >= spirv.OpIAdd && q.opc <= spirv.OpFDiv {
			n = 2
		}
		return c.coopSameShape(q, rt, n)
	case spirv.OpMatrixTimesScalar:
		if handled, err := c.coopSameShape(q, rt, 1); err != nil {
			return handled, err
		}
		return true, c.coopTimesScalar(q, rt)
	case spirv.OpCompositeConstruct, spirv.OpCompositeConstructReplicateEXT, spirv.OpCompositeInsert,
		spirv.OpCopyObject, spirv.OpPhi, spirv.OpSelect, spirv.OpLoad, spirv.OpVariable, spirv.OpFunctionCall,
		spirv.OpFunctionParameter, spirv.OpUndef, spirv.OpCooperativeMatrixLoadKHR, spirv.OpCooperativeMatrixLoadNV:
		return false, nil
	}
	return true, fmt.Errorf("%s cannot produce a cooperative matrix", q.opc)
}

// coopTimesScalar compiles OpMatrixTimesScalar on a matrix of any
// component type (the extension allows integers, which the core
// instruction does not): the scalar copied to L slots, then the
// element-wise OpFMul or OpIMul.
func (c *compiler) coopTimesScalar(q *cinst, rt *tinfo) error {
	v, err := q.decode(2, 2)
	if err != nil {
		return err
	}
	if v.at.ncomp != rt.ncomp || v.bt.ncomp != 1 || v.bt.sc != rt.sc {
		return fmt.Errorf("%s: the Scalar must be of the matrix's Component Type", q.opc)
	}
	tmp := c.newSlots(rt.ncomp)
	for i := range rt.ncomp {
		c.emit(inst{op: opCopy, dst: tmp + int32(i), a: v.b, n: 1})
	}
	in := inst{op: opIMul, dst: v.d, a: v.a, b: tmp, n: int32(rt.ncomp), sc: rt.sc, imm: rt.sc.mask()}
	if rt.sc.kind == skFloat {
		in = inst{op: opBin, aux: bFMul, dst: v.d, a: v.a, b: tmp, n: int32(rt.ncomp), sc: rt.sc}
	}
	c.emit(in)
	return nil
}

// coopSameShape checks that the first n operands are matrices of the
// result's shape and use.
func (c *compiler) coopSameShape(q *cinst, rt *tinfo, n int) (bool, error) {
	if len(q.ops) < n {
		return true, errOps(q.opc)
	}
	for _, id := range q.ops[:n] {
		_, t, err := c.val(id)
		if err != nil {
			return true, err
		}
		if t.coop == nil || t.coop.rows != rt.coop.rows || t.coop.cols != rt.coop.cols || t.coop.use != rt.coop.use {
			return true, fmt.Errorf("%s: operands must be cooperative matrices of the result's rows, columns and use", q.opc)
		}
	}
	return false, nil
}

// coopMat runs opCoopMat over the subgroup.
func (sg *subgroup) coopMat(in *inst, lanes []int32) *Fault {
	o := &sg.p.coop[in.aux]
	name := [...]string{"OpCooperativeMatrixLoadKHR", "OpCooperativeMatrixStoreKHR", "OpCooperativeMatrixMulAddKHR"}[o.kind]
	if o.nv {
		name = strings.Replace(name, "KHR", "NV", 1)
	}
	if sg.n != sg.S || len(lanes) != sg.S {
		return &Fault{Kind: FaultSubgroup, Msg: fmt.Sprintf("%s executed by %d of %d invocations (subgroup of %d present): undefined unless all invocations of a full subgroup execute it together", name, len(lanes), sg.S, sg.n)}
	}
	if o.kind == cmMulAdd {
		sg.coopMulAdd(o, in.dst)
		return nil
	}
	return sg.coopAccess(o, name)
}

// celem is the bits of element e of matrix m whose first slot is base.
func (sg *subgroup) celem(base int32, m *coopInfo, e int) uint64 {
	s := int(m.slot[e])
	return sg.reg(base, s/sg.S, s%sg.S)
}

// setCelem sets element e of matrix m whose first slot is base.
func (sg *subgroup) setCelem(base int32, m *coopInfo, e int, v uint64) {
	s := int(m.slot[e])
	sg.regs[(int(base)+s/sg.S)*sg.R+s%sg.S] = v
}

// coopAccess runs a load or a store.
func (sg *subgroup) coopAccess(o *coopOp, name string) *Fault {
	p := sg.col(o.ptr)
	sv := sg.col(o.stride)
	for l := 1; l < sg.S; l++ {
		if p[l] != p[0] || sv[l] != sv[0] {
			return &Fault{Kind: FaultSubgroup, Lane: uint32(l), Msg: fmt.Sprintf("%s: Pointer and Stride must be dynamically uniform; invocation %d's differ from invocation 0's", name, l)}
		}
	}
	stride := int64(sv[0] & o.strideSc.mask())
	if o.strideSc.signed {
		stride = sext(sv[0], o.strideSc.width)
	}
	if stride < 0 || stride == 0 && o.kind == cmStore {
		return &Fault{Kind: FaultUndefined, Msg: fmt.Sprintf("%s: Stride %d must be %s", name, stride, map[bool]string{true: "greater than 0", false: "0 or more"}[o.kind == cmStore])}
	}
	if off := p[0] & (1<<sg.p.ptrShift - 1); o.align != 0 && off%o.align != 0 {
		return &Fault{Kind: FaultUndefined, Msg: fmt.Sprintf("%s: the pointer (offset %d) is not aligned to the Aligned memory operand's %d bytes", name, off, o.align)}
	}
	esz := uint64(max(8, o.sc.width) / 8)
	lines, along := o.m.rows, o.m.cols // a line is a row (RowMajor) or column
	if o.colMajor {
		lines, along = along, lines
	}
	hi, lineBytes := bits.Mul64(uint64(stride), o.psz)
	hi2, span := bits.Mul64(lineBytes, uint64(lines-1))
	ext := span + uint64(along)*esz
	if hi != 0 || hi2 != 0 || ext < span || ext > math.MaxInt32*4 {
		return &Fault{Kind: FaultOutOfBounds, Msg: fmt.Sprintf("%s: Stride %d puts the matrix past any memory", name, stride)}
	}
	mem, base, f := sg.deref(p[0], int(ext), 0)
	if f != nil {
		f.Msg = name + ": " + f.Msg
		return f
	}
	if o.kind == cmLoad {
		for comp := range o.n {
			clear(sg.col(o.val + int32(comp)))
		}
	}
	for e := range o.m.slot {
		r, cl := e/o.m.cols, e%o.m.cols
		line, pos := r, cl
		if o.colMajor {
			line, pos = cl, r
		}
		at := mem[base+int(uint64(line)*lineBytes+uint64(pos)*esz):]
		if o.kind == cmLoad {
			sg.setCelem(o.val, o.m, e, getLE(at, uint8(esz)))
		} else {
			putLE(at, uint8(esz), sg.celem(o.val, o.m, e))
		}
	}
	return nil
}

// coopMulAdd computes Result = A×B + C into dst.
func (sg *subgroup) coopMulAdd(o *coopOp, dst int32) {
	M, N, K := o.tr.coop.rows, o.tr.coop.cols, o.ta.coop.cols
	out := make([]uint64, M*N)
	for m := range M {
		for n := range N {
			if o.tr.sc.kind == skFloat {
				out[m*N+n] = sg.coopDotFloat(o, m, n, K)
			} else {
				out[m*N+n] = sg.coopDotInt(o, m, n, K)
			}
		}
	}
	for comp := range o.tr.ncomp {
		clear(sg.col(dst + int32(comp)))
	}
	for e, v := range out {
		sg.setCelem(dst, o.tr.coop, e, v)
	}
}

// extend is an integer element's bits sign- or zero-extended to 64 bits.
func extend(x uint64, s scalar, signed bool) uint64 {
	x &= s.mask()
	if signed {
		return uint64(sext(x, s.width))
	}
	return x
}

// coopDotInt is Result[m][n] for integers.
func (sg *subgroup) coopDotInt(o *coopOp, m, n, K int) uint64 {
	N := o.tr.coop.cols
	sa, sb := o.ops&cmASigned != 0, o.ops&cmBSigned != 0
	cv := extend(sg.celem(o.c, o.tc.coop, m*N+n), o.tc.sc, o.ops&cmCSigned != 0)
	a := func(k int) uint64 { return extend(sg.celem(o.a, o.ta.coop, m*K+k), o.ta.sc, sa) }
	b := func(k int) uint64 { return extend(sg.celem(o.b, o.tb.coop, k*N+n), o.tb.sc, sb) }
	if o.ops&cmSaturating == 0 {
		acc := cv // the low 64 bits of the exact sum
		for k := range K {
			acc += a(k) * b(k)
		}
		return acc & o.tr.sc.mask()
	}
	big64 := func(x uint64, signed bool) *big.Int {
		if signed {
			return big.NewInt(int64(x))
		}
		return new(big.Int).SetUint64(x)
	}
	acc := big64(cv, o.ops&cmCSigned != 0)
	t := new(big.Int)
	for k := range K {
		acc.Add(acc, t.Mul(big64(a(k), sa), big64(b(k), sb)))
	}
	return saturate(acc, o.tr.sc.width, o.ops&cmResultSigned != 0)
}

// saturate clamps x to the range of a w-bit integer and returns its bits.
func saturate(x *big.Int, w uint8, signed bool) uint64 {
	lo, hi := new(big.Int), new(big.Int).Lsh(big.NewInt(1), uint(w))
	if signed {
		hi.Rsh(hi, 1)
		lo.Neg(hi)
	}
	hi.Sub(hi, big.NewInt(1))
	if x.Cmp(hi) > 0 {
		x = hi
	} else if x.Cmp(lo) < 0 {
		x = lo
	}
	if x.Sign() < 0 {
		return uint64(x.Int64()) & (scalar{width: w}).mask()
	}
	return x.Uint64()
}

// coopDotFloat is Result[m][n] for floats: C rounded to the Result type,
// then each product added exactly and rounded, in order of k.
func (sg *subgroup) coopDotFloat(o *coopOp, m, n, K int) uint64 {
	N := o.tr.coop.cols
	rs := o.tr.sc
	narrow := o.ta.sc.width <= 32 && o.tb.sc.width <= 32 && rs.width <= 32
	acc := toF64(fromF64(toF64(sg.celem(o.c, o.tc.coop, m*N+n)&o.tc.sc.mask(), o.tc.sc), rs, 0, false), rs)
	var x, y [1]float64
	for k := range K {
		x[0] = toF64(sg.celem(o.a, o.ta.coop, m*K+k)&o.ta.sc.mask(), o.ta.sc)
		y[0] = toF64(sg.celem(o.b, o.tb.coop, k*N+n)&o.tb.sc.mask(), o.tb.sc)
		var s float64
		if narrow {
			// the product of two floats of 24 bits or fewer is exact; the
			// sum rounded to odd in float64 rounds correctly to a type of
			// at most 51 bits
			s = sumToOdd(acc, x[0]*y[0])
		} else {
			s = exactDot(acc, x[:], y[:], rs.width == 64)
		}
		acc = toF64(fromF64(s, rs, 0, false), rs)
	}
	return fromF64(acc, rs, 0, false)
}

// sumToOdd is a + b rounded to odd: the nearest float64 if exact, else
// the float64 toward zero from the exact sum with its last bit set.
// (Knuth's TwoSum gives the error of the nearest sum.) Infinities and NaN
// are IEEE's.
func sumToOdd(a, b float64) float64 {
	s := a + b
	if math.IsInf(s, 0) || math.IsNaN(s) {
		return s
	}
	bb := s - a
	err := (a - (s - bb)) + (b - bb)
	if err == 0 {
		return s
	}
	if (err < 0) != (s < 0) { // the exact sum is nearer zero than s
		s = math.Nextafter(s, 0)
	}
	return math.Float64frombits(math.Float64bits(s) | 1)
}

// coopFill compiles OpCompositeConstruct of a matrix: its one scalar
// Constituent fills every element (padding too, harmlessly).
func (c *compiler) coopFill(ops []uint32, d int32, rt *tinfo) error {
	if len(ops) != 1 {
		return fmt.Errorf("OpCompositeConstruct: a cooperative matrix takes one scalar Constituent, not %d", len(ops))
	}
	a, at, err := c.val(ops[0])
	if err != nil {
		return err
	}
	if at.ncomp != 1 || at.sc != rt.sc {
		return fmt.Errorf("OpCompositeConstruct: the Constituent must be a scalar of the matrix's Component Type")
	}
	for i := range rt.ncomp {
		c.emit(inst{op: opCopy, dst: d + int32(i), a: a, n: 1})
	}
	return nil
}

// coopConstFill evaluates OpConstantComposite of a matrix into slot s.
func (c *compiler) coopConstFill(id uint32, parts []uint32, s int32, t *tinfo) error {
	if len(parts) != 1 {
		return fmt.Errorf("composite constant %%%d: a cooperative matrix takes one scalar Constituent", id)
	}
	ps, pt, err := c.val(parts[0])
	if err != nil {
		return err
	}
	if pt.ncomp != 1 || pt.sc != t.sc {
		return fmt.Errorf("composite constant %%%d: the Constituent must be a scalar of the matrix's Component Type", id)
	}
	c.growCV()
	for i := range int32(t.ncomp) {
		c.cv[s+i] = c.cv[ps]
	}
	c.cdone[id] = true
	return nil
}

// coopCost is the work units of an opCoopMat per lane: its components
// (as memory accesses for a load or store), or a MulAdd's M·N·K products
// shared by the subgroup.
func (p *Program) coopCost(in *inst) int64 {
	o := &p.coop[in.aux]
	if o.kind != cmMulAdd {
		return int64(o.n) * memCost
	}
	return 1 + int64(o.tr.coop.rows)*int64(o.tr.coop.cols)*int64(o.ta.coop.cols)/int64(p.S)
}
