package interp

import (
	"errors"
	"fmt"

	"spvx/spirv"
)

// compileLoadStore compiles variables, loads, stores and access chains.
func (c *compiler) compileLoadStore(q *cinst) (bool, error) {
	opc, typeID, result, ops := q.opc, q.typeID, q.result, q.ops
	switch opc {
	case spirv.OpVariable:
		return true, c.localVar(result, typeID, ops)
	case spirv.OpLoad:
		if err := q.need(1); err != nil {
			return true, err
		}
		if c.ssa != nil {
			if k, ok := c.ssa.vars[ops[0]]; ok {
				return true, c.ssaLoad(k, typeID, result)
			}
		}
		d, rt, err := q.res()
		if err != nil {
			return true, err
		}
		if vs, ok := c.regVars[ops[0]]; ok {
			if c.regVarN[ops[0]] != int32(rt.ncomp) {
				return true, fmt.Errorf("OpLoad: the pointee type does not match the result type")
			}
			if rt.kind == spirv.TypePointer {
				if err := c.notePtr(result, rt); err != nil {
					return true, err
				}
			}
			c.emit(inst{op: opCopy, dst: d, a: vs, n: int32(rt.ncomp)})
			return true, nil
		}
		a, pt, err := c.val(ops[0])
		if err != nil {
			return true, err
		}
		lv, err := c.ptrLeaves(ops[0], pt, rt)
		if err != nil {
			return true, err
		}
		if rt.kind == spirv.TypePointer {
			if err := c.notePtr(result, rt); err != nil {
				return true, err
			}
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
		return true, nil
	case spirv.OpStore:
		v, err := q.decodeArgs(2, 2)
		if err != nil {
			return true, err
		}
		a, pt, b, vt := v.a, v.at, v.b, v.bt
		if c.ssa != nil {
			if k, ok := c.ssa.vars[ops[0]]; ok {
				if c.ssa.n[k] != int32(vt.ncomp) {
					return true, fmt.Errorf("OpStore: the pointee type does not match the value type")
				}
				c.ssa.cur[k] = b
				return true, nil
			}
		}
		if vs, ok := c.regVars[ops[0]]; ok {
			if c.regVarN[ops[0]] != int32(vt.ncomp) {
				return true, fmt.Errorf("OpStore: the pointee type does not match the value type")
			}
			c.emit(inst{op: opCopy, dst: vs, a: b, n: int32(vt.ncomp)})
			return true, nil
		}
		lv, err := c.ptrLeaves(ops[0], pt, vt)
		if err != nil {
			return true, err
		}
		c.p.leafLists = append(c.p.leafLists, lv)
		st := inst{op: opStore, a: a, b: b, n: int32(vt.ncomp), aux: int32(len(c.p.leafLists) - 1)}
		c.fuse(&st, ops[0], false)
		if fp, ok := c.fixed[a]; ok && st.op == opStore && fp.lane && leafExtent(lv) <= int(fp.size) {
			st.op, st.imm = opStoreLane, uint64(fp.off)
		}
		c.emit(st)
		return true, nil
	case spirv.OpAccessChain, spirv.OpInBoundsAccessChain, spirv.OpPtrAccessChain, spirv.OpInBoundsPtrAccessChain:
		return true, c.accessChain(opc, result, ops)
	}
	return false, nil
}

// compilePointerOps compiles OpArrayLength, memory copies and pointer
// comparison and difference.
func (c *compiler) compilePointerOps(q *cinst) (bool, error) {
	opc, ops := q.opc, q.ops
	switch opc {
	case spirv.OpArrayLength:
		v, err := q.decode(2, 1)
		if err != nil {
			return true, err
		}
		d, a := v.d, v.a
		pi := c.ptrs[ops[0]]
		if pi == nil || pi.pointee.kind != spirv.TypeStruct || int(ops[1]) >= len(pi.pointee.members) {
			return true, fmt.Errorf("OpArrayLength: the pointer is not to a struct with that member")
		}
		st := pi.pointee
		if err := c.layout(st); err != nil {
			return true, err
		}
		mt := st.members[ops[1]]
		if mt.kind != spirv.TypeRuntimeArray || mt.stride == 0 {
			return true, fmt.Errorf("OpArrayLength: member %d is not a runtime array", ops[1])
		}
		c.emit(inst{op: opArrayLength, dst: d, a: a, n: 1, imm: uint64(st.moff[ops[1]]), aux: int32(mt.stride)})
		return true, nil
	case spirv.OpCopyMemory:
		v, err := q.decodeArgs(2, 2)
		if err != nil {
			return true, err
		}
		a, at, b, bt := v.a, v.at, v.b, v.bt
		ti, si := c.ptrs[ops[0]], c.ptrs[ops[1]]
		if ti == nil || si == nil || at.kind != spirv.TypePointer || bt.kind != spirv.TypePointer {
			return true, fmt.Errorf("OpCopyMemory: operands are not pointers")
		}
		if ti.pointee.ncomp != si.pointee.ncomp || ti.pointee.ncomp > maxComponents {
			return true, fmt.Errorf("OpCopyMemory: pointee types differ")
		}
		slv, err := c.leaves(nil, si.pointee, 0, si.ml, si.vs)
		if err != nil {
			return true, err
		}
		tlv, err := c.leaves(nil, ti.pointee, 0, ti.ml, ti.vs)
		if err != nil {
			return true, err
		}
		n := int32(len(slv))
		tmp := c.newSlots(int(n))
		c.p.leafLists = append(c.p.leafLists, slv, tlv)
		k := int32(len(c.p.leafLists))
		c.emit(inst{op: opLoad, dst: tmp, a: b, n: n, aux: k - 2})
		c.emit(inst{op: opStore, a: a, b: tmp, n: n, aux: k - 1})
		return true, nil
	case spirv.OpCopyMemorySized:
		v, err := q.decodeArgs(3, 3)
		if err != nil {
			return true, err
		}
		a, b, s, st := v.a, v.b, v.c, v.ct
		if st.ncomp != 1 || st.sc.kind != skInt {
			return true, fmt.Errorf("OpCopyMemorySized: size is not an integer")
		}
		c.emit(inst{op: opCopyMemSized, a: a, b: b, c: s, n: 1})
		return true, nil
	case spirv.OpPtrEqual, spirv.OpPtrNotEqual:
		v, err := q.elem2()
		if err != nil {
			return true, err
		}
		d, a, b, rt := v.d, v.a, v.b, v.rt
		var ne uint64
		if opc == spirv.OpPtrNotEqual {
			ne = 1
		}
		c.emit(inst{op: opPtrCmp, dst: d, a: a, b: b, n: int32(rt.ncomp), imm: ne})
		return true, nil
	case spirv.OpPtrDiff:
		v, err := q.decode(2, 2)
		if err != nil {
			return true, err
		}
		d, rt, a, b := v.d, v.rt, v.a, v.b
		pi := c.ptrs[ops[0]]
		if pi == nil {
			return true, fmt.Errorf("OpPtrDiff: not a pointer")
		}
		if err := c.layout(pi.pointee); err != nil {
			return true, err
		}
		es := alignUp(pi.pointee.size, pi.pointee.align)
		if es == 0 {
			es = 1
		}
		c.emit(inst{op: opPtrDiff, dst: d, a: a, b: b, n: 1, sc: rt.sc, imm: uint64(es)})
		return true, nil
	}
	return false, nil
}

// ptrLeaves returns the leaves of the value a pointer id points at, checking
// that the value type vt matches.
func (c *compiler) ptrLeaves(pid uint32, pt, vt *tinfo) ([]leaf, error) {
	if pt.kind != spirv.TypePointer {
		return nil, fmt.Errorf("%%%d is not a pointer", pid)
	}
	pi := c.ptrs[pid]
	if pi == nil {
		var err error
		if pi, err = c.ptrOf(pt); err != nil {
			return nil, err
		}
		c.ptrs[pid] = pi
	}
	if pi.desc {
		return nil, fmt.Errorf("a descriptor array cannot be loaded or stored as a whole")
	}
	if pi.pointee.ncomp != vt.ncomp {
		return nil, fmt.Errorf("the pointee type does not match the value type")
	}
	lv, err := c.leaves(nil, pi.pointee, 0, pi.ml, pi.vs)
	if err != nil {
		return nil, err
	}
	if len(lv) != vt.ncomp {
		return nil, fmt.Errorf("the pointee type does not match the value type")
	}
	return lv, nil
}

// localVar compiles a function-scope OpVariable: a per-lane pointer into the
// invocation memory (no recursion, so each function has one frame per
// invocation), and a store of its initializer.
func (c *compiler) localVar(result, typeID uint32, ops []uint32) error {
	s, pt, err := c.slot(result)
	if err != nil {
		return err
	}
	if pt.kind != spirv.TypePointer {
		return fmt.Errorf("OpVariable: result type is not a pointer")
	}
	pi, err := c.ptrOf(pt)
	if err != nil {
		return err
	}
	c.ptrs[result] = pi
	pe := pi.pointee
	if c.ssa != nil {
		if k, ok := c.ssa.vars[result]; ok {
			if len(ops) > 1 {
				is, it, err := c.val(ops[1])
				if err != nil {
					return err
				}
				if int32(it.ncomp) != c.ssa.n[k] {
					return fmt.Errorf("OpVariable: initializer type does not match")
				}
				c.ssa.cur[k] = is
			}
			return nil
		}
	}
	if vs, ok := c.regVars[result]; ok {
		if len(ops) > 1 {
			is, it, err := c.val(ops[1])
			if err != nil {
				return err
			}
			if int32(it.ncomp) != c.regVarN[result] {
				return fmt.Errorf("OpVariable: initializer type does not match")
			}
			c.emit(inst{op: opCopy, dst: vs, a: is, n: int32(it.ncomp)})
		}
		return nil
	}
	if pt.storage == spirv.StorageClassWorkgroup {
		if err := c.layout(pe); err != nil {
			return err
		}
		off := alignUp(c.wgSize, max(pe.align, 8))
		if uint64(off)+uint64(pe.size) > 1<<30 {
			return errors.New("workgroup memory too large")
		}
		c.wgSize = off + pe.size
		c.growCV()
		c.cv[s] = uint64(regWG)<<c.p.ptrShift | uint64(off)
		c.fixed[s] = fixedPtr{}
		return nil
	}
	off, err := c.invAlloc(pe)
	if err != nil {
		return err
	}
	c.p.lanePtrs = append(c.p.lanePtrs, lanePtr{slot: s, off: off})
	c.fixed[s] = fixedPtr{lane: true, off: off, size: pe.size}
	if len(ops) > 1 {
		is, it, err := c.val(ops[1])
		if err != nil {
			return err
		}
		lv, err := c.ptrLeaves(result, pt, it)
		if err != nil {
			return err
		}
		c.p.leafLists = append(c.p.leafLists, lv)
		c.emit(inst{op: opStore, a: s, b: is, n: int32(it.ncomp), aux: int32(len(c.p.leafLists) - 1)})
	}
	return nil
}

// accessChain compiles the access-chain family.
func (c *compiler) accessChain(opc spirv.Opcode, result uint32, ops []uint32) error {
	if len(ops) < 1 {
		return errOps(opc)
	}
	d, rt, err := c.slot(result)
	if err != nil {
		return err
	}
	base, bt, err := c.val(ops[0])
	if err != nil {
		return err
	}
	if bt.kind != spirv.TypePointer || rt.kind != spirv.TypePointer {
		return fmt.Errorf("%s: base or result is not a pointer", opc)
	}
	pi := c.ptrs[ops[0]]
	if pi == nil {
		pi, err = c.ptrOf(bt)
		if err != nil {
			return err
		}
	}
	idx := ops[1:]
	var ch chain
	w := chainWalk{t: pi.pointee, ml: pi.ml, vs: pi.vs}
	if err := c.layout(w.t); err != nil {
		return err
	}
	if opc == spirv.OpPtrAccessChain || opc == spirv.OpInBoundsPtrAccessChain {
		if len(idx) < 1 {
			return errOps(opc)
		}
		if err := c.addStep(&ch, idx[0], c.elementStride(bt, w.t), 0); err != nil {
			return err
		}
		idx = idx[1:]
	}
	if pi.desc {
		if len(idx) < 1 {
			return fmt.Errorf("%s: a descriptor array must be indexed", opc)
		}
		if err := c.descIndex(opc, &ch, pi, idx[0]); err != nil {
			return err
		}
		idx = idx[1:]
	}
	for _, ix := range idx {
		if err := c.indexStep(opc, &ch, &w, ix); err != nil {
			return err
		}
	}
	rpe, err := c.typ(rt.pointeeID)
	if err != nil {
		return err
	}
	if rpe.ncomp != w.t.ncomp && w.t.kind != spirv.TypeRuntimeArray {
		return fmt.Errorf("%s: result type does not match the indexed type", opc)
	}
	c.ptrs[result] = &ptrInfo{pointee: w.t, ml: w.ml, vs: w.vs, storage: rt.storage}
	c.emitChain(&ch, result, base, d)
	return nil
}

// elementStride is the stride of OpPtrAccessChain's element index over a
// pointer of type bt to elements of type t.
func (c *compiler) elementStride(bt, t *tinfo) int64 {
	stride := int64(bt.ptrStride)
	if stride == 0 || c.implicitLayout(bt.storage) {
		// Storage without an explicit layout ignores the pointer's
		// ArrayStride (the CTS's ptr_access_chain/workgroup_bad_stride
		// gives a wrong one on purpose): elements are laid out naturally.
		stride = int64(alignUp(t.size, t.align))
	}
	return stride
}

// descIndex sets the descriptor index of a chain into a descriptor array:
// a constant, or the slot of a run-time index.
func (c *compiler) descIndex(opc spirv.Opcode, ch *chain, pi *ptrInfo, ix uint32) error {
	ch.desc, ch.descN, ch.descIdx = true, pi.descN, -1
	if v, ok := c.constScalar(ix); ok {
		ch.descC = v
		return nil
	}
	s, it, err := c.val(ix)
	if err != nil {
		return err
	}
	if it.ncomp != 1 || it.sc.kind != skInt {
		return fmt.Errorf("%s: index is not an integer", opc)
	}
	ch.descIdx, ch.descW = s, it.sc.width
	return nil
}

// chainWalk is where an access chain has got to: the indexed type, the
// matrix layout that applies to it and, for a column of a row-major
// matrix, the stride between its components (0: natural).
type chainWalk struct {
	t  *tinfo
	ml matLay
	vs uint32
}

// indexStep indexes w's type with ix, adding the offset or step to ch.
func (c *compiler) indexStep(opc spirv.Opcode, ch *chain, w *chainWalk, ix uint32) error {
	t := w.t
	switch t.kind {
	case spirv.TypeStruct:
		v, ok := c.constScalar(ix)
		if !ok || v >= uint64(len(t.members)) {
			return fmt.Errorf("%s: struct index %%%d is not a constant in range", opc, ix)
		}
		ch.constOff += int64(t.moff[v])
		w.ml = t.mlay[v]
		w.t = t.members[v]
	case spirv.TypeArray, spirv.TypeRuntimeArray:
		if err := c.addStep(ch, ix, int64(t.stride), uint64(t.count)); err != nil {
			return err
		}
		w.t = t.elem
	case spirv.TypeVector, spirv.TypeCooperativeMatrix:
		es := int64(t.elem.size)
		if w.vs != 0 {
			es = int64(w.vs)
		}
		if err := c.addStep(ch, ix, es, uint64(t.vec)); err != nil {
			return err
		}
		w.t, w.vs = t.elem, 0
	case spirv.TypeMatrix:
		if err := c.matrixStep(ch, w, ix); err != nil {
			return err
		}
	default:
		return fmt.Errorf("%s: indexing into a non-composite type", opc)
	}
	return c.layout(w.t)
}

// matrixStep indexes a matrix's columns: in a row-major layout a column's
// components lie a matrix stride apart.
func (c *compiler) matrixStep(ch *chain, w *chainWalk, ix uint32) error {
	t, ml := w.t, w.ml
	cs, es := int64(t.stride), int64(t.elem.elem.size)
	if ml.stride != 0 {
		cs = int64(ml.stride)
	}
	if ml.rowMajor {
		if err := c.addStep(ch, ix, es, uint64(t.cols)); err != nil {
			return err
		}
		w.vs = uint32(cs)
	} else {
		if err := c.addStep(ch, ix, cs, uint64(t.cols)); err != nil {
			return err
		}
		w.vs = 0
	}
	w.t, w.ml = t.elem, matLay{}
	return nil
}

// emitChain compiles the finished chain ch from base into slot d: folded
// where the base is known at compile time and no index varies, fused
// into the loads and stores when those are its only uses, or an opChain.
func (c *compiler) emitChain(ch *chain, result uint32, base, d int32) {
	if fp, ok := c.fixed[base]; ok && !ch.desc && len(ch.steps) == 0 {
		// A constant offset from a pointer known at compile time: fold it
		// (what opChain would compute, for every lane).
		if !fp.lane {
			c.growCV()
			p, shift := c.cv[base], c.p.ptrShift
			np := p + uint64(ch.constOff)
			if p>>shift != np>>shift && p != 0 {
				np = 0
			}
			c.cv[d] = np
			c.fixed[d] = fixedPtr{}
			return
		}
		if ch.constOff >= 0 && ch.constOff < int64(fp.size) {
			// inside the lane's own variable: another per-lane pointer
			off := fp.off + uint32(ch.constOff)
			c.p.lanePtrs = append(c.p.lanePtrs, lanePtr{slot: d, off: off})
			c.fixed[d] = fixedPtr{lane: true, off: off, size: fp.size - uint32(ch.constOff), input: fp.input}
			return
		}
	}
	ch.src = int32(c.instIdx)
	c.p.chains = append(c.p.chains, *ch)
	if _, isConst := c.x.Constants[result]; !isConst && !ch.desc && len(ch.steps) > 0 && c.memOnly[result] {
		// only loaded and stored through: each access computes the address
		fp, isFixed := c.fixed[base]
		c.fused[result] = fusedRef{base: base, chain: int32(len(c.p.chains) - 1), slot: d, uni: isFixed && !fp.lane}
		return
	}
	c.emit(inst{op: opChain, dst: d, a: base, n: 1, aux: int32(len(c.p.chains) - 1)})
}

func (c *compiler) addStep(ch *chain, ix uint32, stride int64, count uint64) error {
	if k, ok := c.x.Constants[ix]; ok && k != nil {
		v, ok := c.constScalar(ix)
		if !ok {
			return fmt.Errorf("index %%%d is not an integer constant", ix)
		}
		t, _ := c.valType(ix)
		sv := int64(v)
		if t != nil && t.sc.width < 64 {
			sv = sext(v, t.sc.width)
		}
		// Physical addressing is address arithmetic: C forms pointers one
		// past an array's end (llvm-spirv writes them as constant indexes),
		// and any other address is checked when it is accessed. Strict
		// keeps C's rule. A constant index past a shader array's end is
		// undefined behaviour like a dynamic one (below), which a GPU
		// turns into an address: without Strict, so does the executor
		// (glslang's tests index a one-element buffer array at 16), the
		// access bounds-checked against the memory it lands in.
		if count > 0 && uint64(sv) >= count && c.opts.Strict && !(c.p.physical && uint64(sv) == count) {
			return fmt.Errorf("constant index %d out of range 0..%d", sv, count-1)
		}
		ch.constOff += sv * stride
		return nil
	}
	s, t, err := c.val(ix)
	if err != nil {
		return err
	}
	if t.ncomp != 1 || t.sc.kind != skInt {
		return fmt.Errorf("index %%%d is not an integer scalar", ix)
	}
	if !c.opts.Strict {
		// A dynamic index past its array's or vector's length is undefined
		// behaviour; a GPU computes the address, and CTS scripts rely on it
		// (signed_op/uint_umulextended indexes a uvec4 up to 14 inside a
		// larger buffer). Without Strict, so does the executor: the access
		// is still bounds-checked against the memory object it lands in.
		count = 0
	}
	ch.steps = append(ch.steps, chainStep{slot: s, w: t.sc.width, stride: stride, count: count})
	return nil
}

// implicitLayout reports whether memory of storage class sc has no explicit
// layout in a shader module: Function and Private variables, and Workgroup
// memory unless the module declares explicit-layout (Block) Workgroup
// variables (WorkgroupMemoryExplicitLayoutKHR). Kernel modules lay every
// storage class out physically.
func (c *compiler) implicitLayout(sc spirv.StorageClass) bool {
	if c.p.model == spirv.ExecutionModelKernel {
		return false
	}
	switch sc {
	case spirv.StorageClassFunction, spirv.StorageClassPrivate:
		return true
	case spirv.StorageClassWorkgroup:
		return c.wgBlock == 0
	}
	return false
}

// builtinLoad turns a load from a built-in input variable into an
// opBuiltin that computes the value, if the variable is lazy and every
// loaded leaf is one of its components; otherwise the variable must be
// written to invocation memory.
func (c *compiler) builtinLoad(ld *inst, fp fixedPtr, lv []leaf) {
	k := int(fp.input - 1)
	iv := &c.p.inputs[k]
	bl := builtinLoad{input: k}
	ok := iv.lazy
	for _, lf := range lv {
		if !ok {
			break
		}
		abs, found := fp.off+lf.off, false
		for ci, il := range iv.leaves {
			if il.off == abs && il.size == lf.size && lf.kind != skBool {
				bl.comps, found = append(bl.comps, ci), true
				break
			}
		}
		ok = found
	}
	if !ok {
		c.inputMem[k] = true
		return
	}
	c.p.bloads = append(c.p.bloads, bl)
	ld.op, ld.aux = opBuiltin, int32(len(c.p.bloads)-1)
}

// lazyInputs marks the built-in input variables that are only loaded,
// directly or through access chains with constant indices (glslang's
// gl_GlobalInvocationID.x): those loads can compute the value, and the
// variable need not be written per invocation.
func (c *compiler) lazyInputs() {
	if len(c.p.inputs) == 0 {
		return
	}
	of := map[uint32]int{} // variable or chain on it -> input index
	for i, iv := range c.p.inputs {
		of[iv.id] = i
	}
	isChain := func(op spirv.Opcode) bool {
		return op == spirv.OpAccessChain || op == spirv.OpInBoundsAccessChain
	}
	// chains on the variables (a chain follows its base in module order)
	for i := 0; i < c.m.Len(); i++ {
		in := c.m.Inst(i)
		if isChain(in.Opcode) && len(in.Words) > 3 {
			if k, ok := of[in.Words[3]]; ok && in.ResultID != 0 {
				of[in.ResultID] = k
			}
		}
	}
	escaped := map[int]bool{}
	for i := 0; i < c.m.Len(); i++ {
		in := c.m.Inst(i)
		switch in.Opcode {
		case spirv.OpName, spirv.OpMemberName, spirv.OpDecorate, spirv.OpDecorateId, spirv.OpDecorateString, spirv.OpEntryPoint:
			continue
		}
		for first, w := range usedIDs(&in) {
			vi, ok := of[w]
			if !ok {
				continue
			}
			allowed := first && in.Opcode == spirv.OpLoad
			if first && isChain(in.Opcode) {
				allowed = true
				for _, ix := range in.Words[4:] {
					if _, isConst := c.x.Constants[ix]; !isConst {
						allowed = false
					}
				}
			}
			if !allowed {
				escaped[vi] = true
			}
		}
	}
	for i := range c.p.inputs {
		c.p.inputs[i].lazy = !escaped[i]
	}
}

// execPointer runs OpArrayLength, sized memory copies, pointer comparison and difference and the generic-pointer casts.
func (sg *subgroup) execPointer(in *inst, lanes []int32) *Fault {
	switch in.op {
	case opArrayLength:
		d, a := sg.col(in.dst), sg.col(in.a)
		for _, l := range lanes {
			m, off, f := sg.deref(a[l], 0, l)
			if f != nil {
				return f
			}
			start := off + int(in.imm)
			if start > len(m) {
				d[l] = 0
				continue
			}
			d[l] = uint64((len(m) - start) / int(in.aux))
		}
	case opCopyMemSized:
		dp, sp, sz := sg.col(in.a), sg.col(in.b), sg.col(in.c)
		for _, l := range lanes {
			size := sz[l]
			if size > 1<<31 {
				return &Fault{Kind: FaultOutOfBounds, Lane: uint32(l), Msg: fmt.Sprintf("OpCopyMemorySized of %d bytes", size)}
			}
			dm, doff, f := sg.deref(dp[l], int(size), l)
			if f != nil {
				return f
			}
			sm, soff, f := sg.deref(sp[l], int(size), l)
			if f != nil {
				return f
			}
			if f, ok := sg.copyMem(dm[doff:doff+int(size)], sm[soff:soff+int(size)]); !ok {
				if f == nil {
					sg.state = sgDone // another worker stopped the dispatch
				}
				return f
			}
		}
	case opPtrCmp:
		d, a, b := sg.col(in.dst), sg.col(in.a), sg.col(in.b)
		for _, l := range lanes {
			d[l] = b2u(a[l] == b[l]) ^ in.imm
		}
	case opPtrDiff:
		d, a, b := sg.col(in.dst), sg.col(in.a), sg.col(in.b)
		for _, l := range lanes {
			d[l] = uint64((int64(a[l])-int64(b[l]))/int64(in.imm)) & in.sc.mask()
		}
	case opGenericCast:
		d, a := sg.col(in.dst), sg.col(in.a)
		shift := sg.p.ptrShift
		for _, l := range lanes {
			p := a[l]
			reg := p >> shift
			if in.imm == 1<<32 { // OpGenericPtrMemSemantics
				switch reg {
				case regWG:
					d[l] = 0x100
				case regInv:
					d[l] = 0
				default:
					d[l] = 0x200
				}
				continue
			}
			ok := true
			switch spirv.StorageClass(in.imm) {
			case spirv.StorageClassWorkgroup:
				ok = reg == regWG
			case spirv.StorageClassFunction, spirv.StorageClassPrivate:
				ok = reg == regInv
			case spirv.StorageClassCrossWorkgroup:
				ok = reg >= regFirstBuf
			}
			if ok {
				d[l] = p
			} else {
				d[l] = 0
			}
		}
	}
	return nil
}
