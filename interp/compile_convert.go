package interp

import (
	"fmt"

	"spvx/spirv"
)

// convKinds gives the conversion kind (opConv aux) of each conversion opcode.
var (
	convKinds = map[spirv.Opcode]int32{spirv.OpConvertFToU: cvFToU, spirv.OpConvertFToS: cvFToS, spirv.OpConvertSToF: cvSToF,
		spirv.OpConvertUToF: cvUToF, spirv.OpUConvert: cvUConv, spirv.OpSConvert: cvSConv, spirv.OpFConvert: cvFConv,
		spirv.OpQuantizeToF16: cvQuant16, spirv.OpSatConvertSToU: cvSatSToU, spirv.OpSatConvertUToS: cvSatUToS,
		spirv.OpConvertPtrToU: cvPtrToU, spirv.OpConvertUToPtr: cvUToPtr}
)

// compileConvert compiles conversions, pointer casts and bitcasts.
func (c *compiler) compileConvert(q *cinst) (bool, error) {
	opc, result, ops := q.opc, q.result, q.ops
	switch opc {
	case spirv.OpConvertFToU, spirv.OpConvertFToS, spirv.OpConvertSToF, spirv.OpConvertUToF, spirv.OpUConvert,
		spirv.OpSConvert, spirv.OpFConvert, spirv.OpQuantizeToF16, spirv.OpSatConvertSToU, spirv.OpSatConvertUToS,
		spirv.OpConvertPtrToU, spirv.OpConvertUToPtr:
		v, err := q.elem1()
		if err != nil {
			return true, err
		}
		d, a, rt, at := v.d, v.a, v.rt, v.at
		k := convKinds[opc]
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
			if err := c.notePtr(result, rt); err != nil {
				return true, err
			}
		}
		sc := rt.sc
		if opc == spirv.OpConvertPtrToU {
			at = &tinfo{sc: scalar{kind: skInt, width: uint8(c.ptrBytes * 8)}}
		}
		if opc == spirv.OpConvertUToPtr {
			sc = scalar{kind: skPtr, width: uint8(c.ptrBytes * 8)}
		}
		c.emit(inst{op: opConv, aux: k, dst: d, a: a, n: int32(rt.ncomp), sc: sc, sc2: at.sc, imm: mode | sat<<8})
		return true, nil
	case spirv.OpPtrCastToGeneric, spirv.OpGenericCastToPtr, spirv.OpGenericCastToPtrExplicit, spirv.OpCrossWorkgroupCastToPtrINTEL, spirv.OpPtrCastToCrossWorkgroupINTEL:
		v, err := q.elem1()
		if err != nil {
			return true, err
		}
		d, a, rt := v.d, v.a, v.rt
		pi, err := c.ptrOf(rt)
		if err != nil {
			return true, err
		}
		if src := c.ptrs[ops[0]]; src != nil && src.pointee == pi.pointee {
			pi = src
		}
		c.ptrs[result] = pi
		if opc == spirv.OpGenericCastToPtrExplicit || opc == spirv.OpGenericCastToPtr {
			c.emit(inst{op: opGenericCast, dst: d, a: a, n: 1, imm: uint64(rt.storage)})
			return true, nil
		}
		c.emit(inst{op: opCopy, dst: d, a: a, n: 1})
		return true, nil
	case spirv.OpGenericPtrMemSemantics:
		v, err := q.elem1()
		if err != nil {
			return true, err
		}
		d, a := v.d, v.a
		c.emit(inst{op: opGenericCast, dst: d, a: a, n: 1, imm: 1 << 32})
		return true, nil
	case spirv.OpBitcast:
		v, err := q.operands1()
		if err != nil {
			return true, err
		}
		d, rt, a, at := v.d, v.rt, v.a, v.at
		wr, wa := compWidth(rt.sc, c.ptrBytes), compWidth(at.sc, c.ptrBytes)
		if rt.vec != rt.ncomp || at.vec != at.ncomp || rt.ncomp*wr != at.ncomp*wa {
			return true, fmt.Errorf("OpBitcast: operand and result sizes differ")
		}
		if rt.kind == spirv.TypePointer {
			if err := c.notePtr(result, rt); err != nil {
				return true, err
			}
		}
		c.emit(inst{op: opBitcast, dst: d, a: a, n: int32(rt.ncomp), aux: int32(at.ncomp), sc: scalar{width: uint8(wr)}, sc2: scalar{width: uint8(wa)}})
		return true, nil
	case spirv.OpBitcastExtractEXT:
		v, err := q.operands2()
		if err != nil {
			return true, err
		}
		d, rt, a, at, b, bt := v.d, v.rt, v.a, v.at, v.b, v.bt
		if at.ncomp != rt.ncomp || bt.ncomp != 1 || bt.sc.kind != skInt || at.sc.width <= rt.sc.width {
			return true, fmt.Errorf("OpBitcastExtractEXT: bad operands")
		}
		c.emit(inst{op: opBitcastExtract, dst: d, a: a, b: b, n: int32(rt.ncomp), sc: rt.sc, sc2: at.sc})
		return true, nil
	}
	return false, nil
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

// execConvert runs conversions and bitcasts.
func (sg *subgroup) execConvert(in *inst, lanes []int32) *Fault {
	R := int32(sg.R)
	r := sg.regs
	n := in.n
	switch in.op {
	case opConv:
		mode, sat := uint8(in.imm&0xFF), in.imm>>8&1 != 0
		if in.c > 0 {
			tab := sg.p.convTabs[in.c-1]
			for c := int32(0); c < n; c++ {
				d, a := sg.col(in.dst+c), sg.col(in.a+c)
				if len(lanes) == len(d) {
					convTabDense(d, a, tab, in, mode, sat)
					continue
				}
				for _, l := range lanes {
					if x := a[l]; x < uint64(len(tab)) {
						d[l] = tab[x]
					} else {
						d[l] = convert(in.aux, x, in.sc2, in.sc, mode, sat)
					}
				}
			}
			break
		}
		for c := int32(0); c < n; c++ {
			d, a := sg.col(in.dst+c), sg.col(in.a+c)
			if len(lanes) == len(d) {
				convDense(d, a, in, mode, sat)
				continue
			}
			for _, l := range lanes {
				d[l] = convert(in.aux, a[l], in.sc2, in.sc, mode, sat)
			}
		}
	case opBitcast:
		wd, ws, na := int(in.sc.width), int(in.sc2.width), int(in.aux)
		if wd == ws {
			for c := int32(0); c < n; c++ {
				d, a := sg.col(in.dst+c), sg.col(in.a+c)
				for _, l := range lanes {
					d[l] = a[l]
				}
			}
			break
		}
		for _, l := range lanes {
			// gather the source bits, lowest component first
			var acc [17]uint64 // up to 16 x 64 bits
			pos := 0
			for k := 0; k < na; k++ {
				v := r[(in.a+int32(k))*R+int32(l)]
				putBits(acc[:], pos, ws, v)
				pos += ws
			}
			for k := int32(0); k < n; k++ {
				r[(in.dst+k)*R+int32(l)] = getBits(acc[:], int(k)*wd, wd)
			}
		}
	case opBitcastExtract:
		return sg.bitcastExtract(in, lanes)
	}
	return nil
}

// convDense converts every lane of a full subgroup without a table: the
// narrowing conversions to FP8, FP6, FP4, bf16 and f16, and the wider
// ones; the integer truncations and sign extensions without saturation
// have loops of their own (what convert does for them, inlined).
func convDense(d, a []uint64, in *inst, mode uint8, sat bool) {
	a = a[:len(d)]
	m := in.sc.mask()
	switch {
	case in.aux == cvUConv && !sat:
		for l, x := range a {
			d[l] = x & m
		}
	case in.aux == cvSConv && !sat:
		w := in.sc2.width
		for l, x := range a {
			d[l] = uint64(sext(x, w)) & m
		}
	default:
		for l, x := range a {
			d[l] = convert(in.aux, x, in.sc2, in.sc, mode, sat)
		}
	}
}

// convTabDense converts every lane of a full subgroup through the
// conversion's table (tabulateConversions); a value outside it (a
// register with stray high bits) is converted as the lane loop would.
func convTabDense(d, a, tab []uint64, in *inst, mode uint8, sat bool) {
	a = a[:len(d)]
	for l, x := range a {
		if x < uint64(len(tab)) {
			d[l] = tab[x]
		} else {
			d[l] = convert(in.aux, x, in.sc2, in.sc, mode, sat)
		}
	}
}

// bitcastExtract runs OpBitcastExtractEXT: each lane's result is the
// bits of its base at its own offset. An offset past the base is
// undefined: a fault naming the lane under Strict, 0 otherwise.
func (sg *subgroup) bitcastExtract(in *inst, lanes []int32) *Fault {
	wr, wb, m := uint64(in.sc.width), uint64(in.sc2.width), in.sc.mask()
	offs := sg.col(in.b)
	strict := sg.p.opts.Strict
	bad := func(l int32, off uint64) *Fault {
		return &Fault{Kind: FaultUndefined, Lane: uint32(l), Msg: fmt.Sprintf("OpBitcastExtractEXT offset %d out of range for a %d-bit base", off, wb)}
	}
	lim := wb - wr // compileConvert: the base is wider than the result
	for c := int32(0); c < in.n; c++ {
		d, a := sg.col(in.dst+c), sg.col(in.a+c)
		if len(lanes) == len(d) {
			// every lane: no lane list
			a, offs := a[:len(d)], offs[:len(d)]
			for l, off := range offs {
				if off > lim {
					if strict {
						return bad(int32(l), off)
					}
					d[l] = 0
					continue
				}
				d[l] = a[l] >> off & m
			}
			continue
		}
		for _, l := range lanes {
			off := offs[l]
			if off > lim {
				if strict {
					return bad(l, off)
				}
				d[l] = 0
				continue
			}
			d[l] = a[l] >> off & m
		}
	}
	return nil
}
