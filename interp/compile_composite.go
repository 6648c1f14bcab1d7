package interp

import (
	"fmt"

	"spvx/spirv"
)

// compileComposite compiles copies, composite construction and access,
// shuffles and OpTranspose.
func (c *compiler) compileComposite(q *cinst) (bool, error) {
	opc, result, ops := q.opc, q.result, q.ops
	switch opc {
	case spirv.OpCopyObject, spirv.OpCopyLogical, spirv.OpExpectKHR, spirv.OpFreezeKHR:
		v, err := q.operands1()
		if err != nil {
			return true, err
		}
		d, rt, a, at := v.d, v.rt, v.a, v.at
		if at.ncomp != rt.ncomp {
			return true, fmt.Errorf("%s: operand and result types differ", opc)
		}
		if pi := c.ptrs[ops[0]]; pi != nil {
			c.ptrs[result] = pi
		}
		c.emit(inst{op: opCopy, dst: d, a: a, n: int32(rt.ncomp)})
		return true, nil
	case spirv.OpCompositeConstruct:
		return true, c.compositeConstruct(q)
	case spirv.OpCompositeConstructReplicateEXT:
		return true, c.constructReplicate(q)
	case spirv.OpCompositeExtract:
		return true, c.compositeExtract(q)
	case spirv.OpCompositeInsert:
		return true, c.compositeInsert(q)
	case spirv.OpVectorShuffle:
		return true, c.vectorShuffle(q)
	case spirv.OpVectorExtractDynamic:
		return true, c.vectorExtractDynamic(q)
	case spirv.OpVectorInsertDynamic:
		return true, c.vectorInsertDynamic(q)
	case spirv.OpTranspose:
		return true, c.transpose(q)
	}
	return false, nil
}

// compositeConstruct copies each constituent into the result's slots, in order.
func (c *compiler) compositeConstruct(q *cinst) error {
	ops := q.ops
	d, rt, err := q.res()
	if err != nil {
		return err
	}
	if rt.coop != nil {
		return c.coopFill(ops, d, rt)
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
}

// constructReplicate copies the one constituent into each part of the result.
func (c *compiler) constructReplicate(q *cinst) error {
	opc := q.opc
	v, err := q.operands1()
	if err != nil {
		return err
	}
	d, rt, a, at := v.d, v.rt, v.a, v.at
	if at.ncomp == 0 || rt.ncomp%at.ncomp != 0 {
		return fmt.Errorf("%s: bad operand", opc)
	}
	for off := 0; off < rt.ncomp; off += at.ncomp {
		c.emit(inst{op: opCopy, dst: d + int32(off), a: a, n: int32(at.ncomp)})
	}
	return nil
}

// compositeExtract copies the part that literal indexes select.
func (c *compiler) compositeExtract(q *cinst) error {
	ops := q.ops
	v, err := q.operands1()
	if err != nil {
		return err
	}
	d, rt, a, at := v.d, v.rt, v.a, v.at
	off, t, err := compOffset(at, ops[1:])
	if ce, ok := err.(coopIndexError); ok {
		return c.undefinedOp("OpCompositeExtract", ce)
	}
	if err != nil {
		return err
	}
	if t.ncomp != rt.ncomp {
		return fmt.Errorf("OpCompositeExtract: result type does not match")
	}
	c.emit(inst{op: opCopy, dst: d, a: a + off, n: int32(rt.ncomp)})
	return nil
}

// compositeInsert copies the composite, then the object over the part that
// literal indexes select.
func (c *compiler) compositeInsert(q *cinst) error {
	ops := q.ops
	v, err := q.decode(2, 2)
	if err != nil {
		return err
	}
	d, rt, o, ot, a, at := v.d, v.rt, v.a, v.at, v.b, v.bt
	if at.ncomp != rt.ncomp {
		return fmt.Errorf("OpCompositeInsert: composite and result types differ")
	}
	off, t, err := compOffset(at, ops[2:])
	if ce, ok := err.(coopIndexError); ok {
		return c.undefinedOp("OpCompositeInsert", ce)
	}
	if err != nil {
		return err
	}
	if t.ncomp != ot.ncomp {
		return fmt.Errorf("OpCompositeInsert: object type does not match")
	}
	c.emit(inst{op: opCopy, dst: d, a: a, n: int32(rt.ncomp)})
	c.emit(inst{op: opCopy, dst: d + off, a: o, n: int32(ot.ncomp)})
	return nil
}

// vectorShuffle compiles OpVectorShuffle to a table of source slots (-1:
// undefined component).
func (c *compiler) vectorShuffle(q *cinst) error {
	ops := q.ops
	v, err := q.operands2()
	if err != nil {
		return err
	}
	d, rt, a, at, b, bt := v.d, v.rt, v.a, v.at, v.b, v.bt
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
}

// vectorExtractDynamic compiles OpVectorExtractDynamic.
func (c *compiler) vectorExtractDynamic(q *cinst) error {
	v, err := q.operands2()
	if err != nil {
		return err
	}
	d, rt, a, at, b, bt := v.d, v.rt, v.a, v.at, v.b, v.bt
	if rt.ncomp != 1 || bt.ncomp != 1 || bt.sc.kind != skInt || at.vec != at.ncomp {
		return fmt.Errorf("OpVectorExtractDynamic: bad operands")
	}
	c.emit(inst{op: opExtractDyn, dst: d, a: a, b: b, n: int32(at.ncomp), sc2: bt.sc})
	return nil
}

// vectorInsertDynamic compiles OpVectorInsertDynamic.
func (c *compiler) vectorInsertDynamic(q *cinst) error {
	v, err := q.decode(3, 3)
	if err != nil {
		return err
	}
	d, rt, a, at, b, bt, x, xt := v.d, v.rt, v.a, v.at, v.b, v.bt, v.c, v.ct
	if at.ncomp != rt.ncomp || bt.ncomp != 1 || xt.ncomp != 1 || xt.sc.kind != skInt {
		return fmt.Errorf("OpVectorInsertDynamic: bad operands")
	}
	c.emit(inst{op: opInsertDyn, dst: d, a: a, b: b, c: x, n: int32(rt.ncomp), sc2: xt.sc})
	return nil
}

// transpose compiles OpTranspose of a matrix.
func (c *compiler) transpose(q *cinst) error {
	v, err := q.elem1()
	if err != nil {
		return err
	}
	d, a, rt, at := v.d, v.a, v.rt, v.at
	if rt.kind != spirv.TypeMatrix || at.kind != spirv.TypeMatrix || rt.cols != at.vec {
		return fmt.Errorf("OpTranspose: bad operand")
	}
	c.emit(inst{op: opTranspose, dst: d, a: a, n: int32(rt.ncomp), imm: uint64(at.vec) | uint64(at.cols)<<8})
	return nil
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
		case spirv.TypeVector, spirv.TypeCooperativeMatrix:
			if int(i) >= t.vec && t.kind == spirv.TypeCooperativeMatrix {
				return 0, nil, coopIndexError{i, t.vec}
			}
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

// execComposite runs shuffles, dynamic vector element access and OpTranspose.
func (sg *subgroup) execComposite(in *inst, lanes []int32) *Fault {
	R := int32(sg.R)
	r := sg.regs
	n := in.n
	switch in.op {
	case opShuffle:
		m := sg.p.shuffles[in.aux]
		for c := int32(0); c < n; c++ {
			d := sg.col(in.dst + c)
			if m[c] < 0 {
				for _, l := range lanes {
					d[l] = 0
				}
				continue
			}
			a := sg.col(m[c])
			for _, l := range lanes {
				d[l] = a[l]
			}
		}
	case opExtractDyn:
		d, ix := sg.col(in.dst), sg.col(in.b)
		for _, l := range lanes {
			i := ix[l]
			if i < uint64(n) {
				d[l] = r[(in.a+int32(i))*R+int32(l)]
			} else {
				if sg.p.opts.Strict {
					return &Fault{Kind: FaultOutOfBounds, Lane: uint32(l), Msg: fmt.Sprintf("vector index %d out of range", i)}
				}
				d[l] = 0
			}
		}
	case opInsertDyn:
		ix, v := sg.col(in.c), sg.col(in.b)
		for c := int32(0); c < n; c++ {
			d, a := sg.col(in.dst+c), sg.col(in.a+c)
			for _, l := range lanes {
				if ix[l] == uint64(c) {
					d[l] = v[l]
				} else {
					d[l] = a[l]
				}
			}
		}
	case opTranspose:
		rows, cols := int32(in.imm&0xFF), int32(in.imm>>8&0xFF)
		for i := int32(0); i < cols; i++ {
			for j := int32(0); j < rows; j++ {
				d, a := sg.col(in.dst+j*cols+i), sg.col(in.a+i*rows+j)
				for _, l := range lanes {
					d[l] = a[l]
				}
			}
		}
	}
	return nil
}

// coopIndexError is a literal index past a cooperative matrix's components
// per invocation. The count (OpCooperativeMatrixLengthKHR) is the
// implementation's, so a module may well hold such an index on a path it
// never takes (glslang's tests do): it compiles to a fault, raised only if
// the instruction runs.
type coopIndexError struct {
	index uint32
	n     int
}

func (e coopIndexError) Error() string {
	return fmt.Sprintf("index %d is past the cooperative matrix's %d components per invocation (its Length here)", e.index, e.n)
}

// undefinedOp compiles an instruction whose every execution is undefined
// to a fault with that message.
func (c *compiler) undefinedOp(op string, err error) error {
	c.p.undefined = append(c.p.undefined, op+": "+err.Error())
	c.emit(inst{op: opUndefinedOp, aux: int32(len(c.p.undefined) - 1)})
	return nil
}
