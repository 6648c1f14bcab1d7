package interp

import (
	"fmt"

	"spvx/internal/extinst"
	"spvx/mx"
	"spvx/spirv"
)

// The per-lane math of GLSL.std.450 and OpenCL.std lives in
// spvx/internal/extinst; these names are that package's. Pointer operands'
// values come back through out2 (stored through the pointer), and so does
// member 1 of a struct result (ModfStruct, FrexpStruct). A matrix operand
// or result is its columns' components in order (column-major), as
// extinst expects.
type (
	extKind  = extinst.Kind
	extType  = extinst.Type
	extValue = extinst.Value
	extArg   = extinst.Arg
)

const (
	extFloat = extinst.Float
	extInt   = extinst.Int // signed
	extUint  = extinst.Uint
	extBool  = extinst.Bool
)

// extInstGLSL and extInstOpenCL evaluate one GLSL.std.450 / OpenCL.std
// instruction for one lane; variables so that a test can stand in for them.
var (
	extInstGLSL   = extinst.GLSL
	extInstOpenCL = extinst.OpenCL
)

// OpenCL.std memory instructions, run by the core.
type clMemOp struct {
	kind  uint32 // the OpenCL.std number (vloadn...), 0 for none
	n     int32  // vector size
	esize uint32 // bytes per element in memory
	half  bool   // memory holds halfs
	mode  uint8  // rounding of vstore_half_r
	elem  scalar
	align uint32 // vloada_half: vec3 aligned as vec4
}

func extTypeOf(t *tinfo) extType {
	e := extType{Width: t.sc.width, Len: uint8(t.ncomp)}
	switch t.sc.kind {
	case skFloat:
		e.Kind = extFloat
	case skBool:
		e.Kind = extBool
	case skInt:
		e.Kind = extUint
		if t.sc.signed {
			e.Kind = extInt
		}
	}
	return e
}

// pointer-operand positions: GLSL Modf(x, *i) 35, Frexp(x, *exp) 51;
// OpenCL fract 30, frexp 31, lgamma_r 36, modf 45, remquo 52 (third), sincos 58.
func extPtrArg(set uint8, op uint32) int {
	switch {
	case set == 1 && (op == 35 || op == 51):
		return 1
	case set == 2 && (op == 30 || op == 31 || op == 36 || op == 45 || op == 58):
		return 1
	case set == 2 && op == 52:
		return 2
	}
	return -1
}

func (c *compiler) extInst(result, typeID uint32, ops []uint32) error {
	if len(ops) < 2 {
		return errOps(spirv.OpExtInst)
	}
	set, ok := c.extSets[ops[0]]
	if !ok {
		return fmt.Errorf("OpExtInst: %%%d is not an OpExtInstImport", ops[0])
	}
	if set == 0 {
		return nil // NonSemantic.* and other sets without semantics
	}
	num, args := ops[1], ops[2:]
	if set == extSetAMDBallot {
		return c.amdBallotExt(result, num, args)
	}
	if set == 2 && extinst.OpenCLMemoryOp(num) {
		return c.clMem(result, num, args)
	}
	d, rt, err := c.slot(result)
	if err != nil {
		return err
	}
	ei := extInfo{set: set, op: num, ptrArg: -1, out2: -1}
	pa := extPtrArg(set, num)
	for k, a := range args {
		s, t, err := c.val(a)
		if err != nil {
			return err
		}
		if k == pa {
			pi := c.ptrs[a]
			if t.kind != spirv.TypePointer || pi == nil {
				return fmt.Errorf("OpExtInst: operand %d must be a pointer", k)
			}
			lv, err := c.leaves(nil, pi.pointee, 0, pi.ml, pi.vs)
			if err != nil {
				return err
			}
			ei.ptrArg, ei.ptrLv = s, lv
			continue
		}
		if t.ncomp > 16 || (t.vec != t.ncomp && t.kind != spirv.TypeMatrix) {
			return fmt.Errorf("OpExtInst: operand %d is not a scalar or vector", k)
		}
		ei.args = append(ei.args, s)
		ei.argT = append(ei.argT, extTypeOf(t))
	}
	res := rt
	if rt.kind == spirv.TypeStruct {
		if len(rt.members) != 2 {
			return fmt.Errorf("OpExtInst: unexpected struct result")
		}
		res = rt.members[0]
		ei.out2 = d + int32(rt.mcomp[1])
	}
	if res.ncomp > 16 || (res.vec != res.ncomp && res.kind != spirv.TypeMatrix) {
		return fmt.Errorf("OpExtInst: the result is not a scalar or vector")
	}
	ei.res = extTypeOf(res)
	c.p.exts = append(c.p.exts, ei)
	c.emit(inst{op: opExtInst, dst: d, n: int32(res.ncomp), aux: int32(len(c.p.exts) - 1)})
	return nil
}

func (sg *subgroup) extInst(in *inst, lanes []int32) *Fault {
	ei := &sg.p.exts[in.aux]
	if ei.clmem.kind != 0 {
		return sg.clMem(in, ei, lanes)
	}
	fn := extInstGLSL
	if ei.set == 2 {
		fn = extInstOpenCL
	}
	R := int32(sg.R)
	r := sg.regs
	var args [8]extArg
	for _, l := range lanes {
		na := len(ei.args)
		if na > len(args) {
			return &Fault{Kind: FaultUnsupported, Msg: "too many operands"}
		}
		for k, s := range ei.args {
			args[k].T = ei.argT[k]
			for c := 0; c < int(ei.argT[k].Len); c++ {
				args[k].V[c] = r[(s+int32(c))*R+l]
			}
		}
		out, out2, err := fn(ei.op, ei.res, args[:na])
		if err != nil {
			return &Fault{Kind: FaultUnsupported, Lane: uint32(l), Msg: err.Error()}
		}
		for c := int32(0); c < in.n; c++ {
			r[(in.dst+c)*R+l] = out[c]
		}
		if ei.out2 >= 0 {
			for c := int32(0); c < in.n; c++ {
				r[(ei.out2+c)*R+l] = out2[c]
			}
		}
		if ei.ptrArg >= 0 {
			m, off, f := sg.deref(r[ei.ptrArg*R+l], leafExtent(ei.ptrLv), l)
			if f != nil {
				return f
			}
			for k, lf := range ei.ptrLv {
				if k < 16 {
					putLE(m[off+int(lf.off):], lf.size, out2[k])
				}
			}
		}
	}
	return nil
}

// clMem compiles the OpenCL.std vload/vstore family and printf/prefetch.
func (c *compiler) clMem(result, num uint32, args []uint32) error {
	switch num {
	case 184, 185: // printf (result: 0), prefetch: no output in this executor
		if result != 0 {
			d, _, err := c.slot(result)
			if err != nil {
				return err
			}
			c.emit(inst{op: opCopy, dst: d, a: c.zeroSlot(), n: 1})
		}
		return nil
	}
	ei := extInfo{set: 2, op: num, ptrArg: -1, out2: -1}
	m := clMemOp{kind: num}
	in := inst{op: opExtInst, dst: -1}
	load := num == 171 || num == 173 || num == 174 || num == 179
	var valSlot int32 = -1
	var vt *tinfo
	if !load {
		if len(args) < 3 {
			return errOps(spirv.OpExtInst)
		}
		s, t, err := c.val(args[0])
		if err != nil {
			return err
		}
		valSlot, vt = s, t
		args = args[1:]
	}
	if len(args) < 2 {
		return errOps(spirv.OpExtInst)
	}
	os, ot, err := c.val(args[0])
	if err != nil {
		return err
	}
	ps, pt, err := c.val(args[1])
	if err != nil {
		return err
	}
	if ot.ncomp != 1 || pt.kind != spirv.TypePointer {
		return fmt.Errorf("OpenCL.std memory instruction: bad operands")
	}
	pe, err := c.pointee(args[1], pt)
	if err != nil {
		return err
	}
	if pe.ncomp != 1 {
		return fmt.Errorf("OpenCL.std memory instruction: pointer to a non-scalar")
	}
	m.esize = uint32(max(8, pe.sc.width) / 8)
	m.half = num >= 173
	if load {
		d, rt, err := c.slot(result)
		if err != nil {
			return err
		}
		in.dst, in.n = d, int32(rt.ncomp)
		m.n, m.elem = int32(rt.ncomp), rt.sc
	} else {
		in.b, in.n = valSlot, int32(vt.ncomp)
		m.n, m.elem = int32(vt.ncomp), vt.sc
		if num == 176 || num == 178 || num == 181 {
			// The mode is a literal FPRoundingMode, not an id.
			if len(args) < 3 || args[2] > 3 {
				return fmt.Errorf("OpenCL.std vstore_half_r: bad rounding mode operand")
			}
			m.mode = uint8(args[2])
		}
	}
	m.align = uint32(m.n)
	if (num == 179 || num == 180 || num == 181) && m.n == 3 {
		m.align = 4
	}
	if num == 173 || num == 175 || num == 176 {
		m.align = 1
	}
	in.a, in.c = ps, os
	ei.clmem = m
	c.p.exts = append(c.p.exts, ei)
	in.aux = int32(len(c.p.exts) - 1)
	c.emit(in)
	return nil
}

// zeroSlot returns a slot holding zero.
func (c *compiler) zeroSlot() int32 {
	if c.zero == 0 {
		c.zero = c.newSlots(1) + 1
	}
	return c.zero - 1
}

func (sg *subgroup) clMem(in *inst, ei *extInfo, lanes []int32) *Fault {
	m := &ei.clmem
	R := int32(sg.R)
	r := sg.regs
	es := int(m.esize)
	if m.half {
		es = 2
	}
	for _, l := range lanes {
		off := r[in.c*R+l]
		stride := uint64(m.align)
		byteOff := off * stride * uint64(es)
		if byteOff > 1<<40 {
			return &Fault{Kind: FaultOutOfBounds, Lane: uint32(l), Msg: "vload/vstore offset out of range"}
		}
		p := r[in.a*R+l] + byteOff
		mem, o, f := sg.deref(p, int(m.n)*es, l)
		if f != nil {
			return f
		}
		for k := int32(0); k < m.n; k++ {
			at := mem[o+int(k)*es:]
			switch {
			case m.kind == 171: // vloadn
				r[(in.dst+k)*R+l] = getLE(at, uint8(es))
			case m.kind == 172:
				putLE(at, uint8(es), r[(in.b+k)*R+l])
			case m.kind == 173 || m.kind == 174 || m.kind == 179: // half loads
				h := getLE(at, 2)
				r[(in.dst+k)*R+l] = fromF64(float64(mx.HalfToFloat32(uint16(h))), m.elem, 0, false)
			default: // half stores
				v := toF64(r[(in.b+k)*R+l], m.elem)
				putLE(at, 2, uint64(mx.HalfFromFloat64(v, mx.RoundingMode(m.mode))))
			}
		}
	}
	return nil
}
