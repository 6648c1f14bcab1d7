package interp

// Float controls: the SPV_KHR_float_controls execution modes of the entry
// point.
//
// The executor's default is already exact IEEE 754 with round to nearest
// even: denormals and signed zeros are kept, NaNs and infinities are never
// assumed away, and nothing is fused. So DenormPreserve,
// SignedZeroInfNanPreserve and RoundingModeRTE change nothing, and
// SPV_KHR_float_controls2's FPFastMathDefault execution mode and the
// FPFastMathMode decoration are accepted and ignored (they allow
// optimizations, they never require a different result). Two modes do:
//
//   - DenormFlushToZero for a width: the floating-point arithmetic,
//     conversion, relational (except OpIsNan and OpIsInf, which give the
//     same answer either way) and extended (GLSL.std.450, OpenCL.std math)
//     instructions see their denormal operands of that width as zeros of the
//     same sign, and their denormal results of that width are flushed to
//     zeros of the same sign. Loads, stores, copies, OpSelect, OpPhi,
//     bitcasts and group operations pass denormals through unchanged.
//   - RoundingModeRTZ for a width: the correctly rounded instructions round
//     their results of that width toward zero, exactly: OpFAdd, OpFSub,
//     OpFMul, OpFDiv, OpVectorTimesScalar, GLSL.std.450 Fma and OpenCL.std
//     fma, and the conversions OpFConvert, OpConvertSToF and OpConvertUToF
//     (an FPRoundingMode decoration on a conversion takes precedence, as
//     the extension says). OpConvertFToU/S always truncate. The other
//     instructions (OpDot, the matrix products, OpFMod, the extended
//     instructions other than fma) are not correctly rounded in Vulkan or
//     OpenCL and keep round-to-nearest for their steps.
//
// Both apply to OpSpecConstantOp as well, which is compiled like any other
// instruction. The compiler's hook is opFC: it flushes operands into
// temporary slots (so a flushed value is never written back to its own
// register, which a store may still read), compiles the instruction, and
// flushes the result in place; RTZ instructions are compiled here as
// opFloatCtl. The RTZ arithmetic computes the round-to-nearest result and
// corrects it with the exact error term (TwoSum, or the FMA residual of a
// product or quotient), and falls back to exact rational arithmetic where
// those terms could underflow.

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"

	"spvx/mx"
	"spvx/spirv"
)

// floatCtl holds the float-controls modes, indexed by fcIndex(width).
type floatCtl struct {
	ftz [3]bool
	rtz [3]bool
}

// opFloatCtl kinds (inst.aux).
const (
	fcFlush = iota // dst[0:n] = a[0:n] with denormals of width sc flushed
	fcAdd          // RTZ a + b (imm&1: b is one scalar for every component)
	fcSub
	fcMul
	fcDiv
	fcFma // RTZ a*b + c
)

func fcIndex(w uint8) int {
	switch w {
	case 16:
		return 0
	case 32:
		return 1
	case 64:
		return 2
	}
	return -1
}

// floatModes reads the entry point's float-controls execution modes; c.fc
// stays nil when none changes a result.
func (c *compiler) floatModes(ep *spirv.EntryPoint) error {
	var fc floatCtl
	var preserve, rte [3]bool
	set := false
	for _, m := range ep.Modes {
		switch m.Mode {
		case spirv.ExecutionModeDenormFlushToZero, spirv.ExecutionModeDenormPreserve,
			spirv.ExecutionModeRoundingModeRTE, spirv.ExecutionModeRoundingModeRTZ, spirv.ExecutionModeSignedZeroInfNanPreserve:
		default:
			continue
		}
		if len(m.Params) != 1 || fcIndex(uint8(min(m.Params[0], 255))) < 0 {
			return fmt.Errorf("a float-controls execution mode (%d) needs a floating-point width of 16, 32 or 64", uint32(m.Mode))
		}
		w := fcIndex(uint8(m.Params[0]))
		switch m.Mode {
		case spirv.ExecutionModeDenormFlushToZero:
			fc.ftz[w], set = true, true
		case spirv.ExecutionModeDenormPreserve:
			preserve[w] = true
		case spirv.ExecutionModeRoundingModeRTE:
			rte[w] = true
		case spirv.ExecutionModeRoundingModeRTZ:
			fc.rtz[w], set = true, true
		}
		if fc.ftz[w] && preserve[w] {
			return fmt.Errorf("the entry point sets both DenormFlushToZero and DenormPreserve for %d-bit floats", m.Params[0])
		}
		if fc.rtz[w] && rte[w] {
			return fmt.Errorf("the entry point sets both RoundingModeRTE and RoundingModeRTZ for %d-bit floats", m.Params[0])
		}
	}
	if set {
		c.fc = &fc
	}
	return nil
}

// fcFloat reports whether t is an IEEE float scalar, vector or matrix whose
// width has mode set in modes.
func fcFloat(t *tinfo, modes *[3]bool) bool {
	if t == nil || t.sc.kind != skFloat || t.sc.enc != encIEEE || (t.vec != t.ncomp && t.kind != spirv.TypeMatrix) {
		return false
	}
	w := fcIndex(t.sc.width)
	return w >= 0 && modes[w]
}

// fcClass says how the float controls touch an instruction: ftz (its
// operands and result are flushed) and, for the correctly rounded ones, rtz
// (its result is rounded toward zero).
func fcClass(opc spirv.Opcode, ops []uint32) (ftz, rtz bool, kind int) {
	kind = -1
	switch opc {
	case spirv.OpFAdd:
		return true, true, fcAdd
	case spirv.OpFSub:
		return true, true, fcSub
	case spirv.OpFMul, spirv.OpVectorTimesScalar:
		return true, true, fcMul
	case spirv.OpFDiv:
		return true, true, fcDiv
	case spirv.OpFConvert, spirv.OpConvertSToF, spirv.OpConvertUToF:
		return true, true, -1
	case spirv.OpFNegate, spirv.OpFRem, spirv.OpFMod, spirv.OpMatrixTimesScalar, spirv.OpVectorTimesMatrix,
		spirv.OpMatrixTimesVector, spirv.OpMatrixTimesMatrix, spirv.OpOuterProduct, spirv.OpDot,
		spirv.OpConvertFToU, spirv.OpConvertFToS,
		spirv.OpFOrdEqual, spirv.OpFUnordEqual, spirv.OpFOrdNotEqual, spirv.OpFUnordNotEqual, spirv.OpFOrdLessThan,
		spirv.OpFUnordLessThan, spirv.OpFOrdGreaterThan, spirv.OpFUnordGreaterThan, spirv.OpFOrdLessThanEqual,
		spirv.OpFUnordLessThanEqual, spirv.OpFOrdGreaterThanEqual, spirv.OpFUnordGreaterThanEqual,
		spirv.OpOrdered, spirv.OpUnordered, spirv.OpLessOrGreater, spirv.OpIsFinite, spirv.OpIsNormal:
		return true, false, -1
	}
	return false, false, -1
}

// opFC compiles one instruction under the float controls (see the top of
// this file); without any, it is c.op.
func (c *compiler) opFC(opc spirv.Opcode, typeID, result uint32, ops []uint32, idx int) error {
	if c.fc == nil {
		return c.op(opc, typeID, result, ops, idx)
	}
	c.instIdx = idx
	ftz, rtz, kind := fcClass(opc, ops)
	args := ops
	if opc == spirv.OpExtInst && len(ops) >= 2 {
		set := c.extSets[ops[0]]
		if set == 1 || set == 2 && ops[1] < 171 { // not the OpenCL memory ops, whose operands include literals
			ftz, args = true, ops[2:]
			if set == 1 && ops[1] == 50 || set == 2 && ops[1] == 26 { // Fma, fma
				rtz, kind = true, fcFma
			}
		}
	}
	if !ftz {
		return c.op(opc, typeID, result, ops, idx)
	}
	var rt *tinfo
	if typeID != 0 {
		var err error
		if rt, err = c.typ(typeID); err != nil {
			return err
		}
	}
	// Flushed copies of the operands, seen by the instruction under their
	// own ids while it compiles.
	saved := map[uint32]int32{}
	defer func() {
		for id, s := range saved {
			c.slots[id] = s
		}
	}()
	for _, id := range args {
		if _, done := saved[id]; done {
			continue
		}
		t, err := c.valType(id)
		if err != nil || !fcFloat(t, &c.fc.ftz) {
			continue // errors are reported by c.op
		}
		s, t, err := c.val(id)
		if err != nil {
			return err
		}
		tmp := c.newSlots(t.ncomp)
		if k, isConst := c.x.Constants[id]; isConst && k != nil {
			// a constant's flushed copy is a constant too, so whatever
			// folds constant operands sees the flushed value
			c.growCV()
			for j := 0; j < t.ncomp; j++ {
				c.cv[int(tmp)+j] = flushDenorm(c.cv[int(s)+j], t.sc.width)
			}
		} else {
			c.emit(inst{op: opFloatCtl, aux: fcFlush, dst: tmp, a: s, n: int32(t.ncomp), sc: t.sc})
		}
		saved[id] = s
		c.slots[id] = tmp
	}
	var err error
	if rtz && fcFloat(rt, &c.fc.rtz) {
		err = c.rtzOp(opc, typeID, result, args, kind)
	} else {
		err = c.op(opc, typeID, result, ops, idx)
	}
	if err != nil {
		return err
	}
	if fcFloat(rt, &c.fc.ftz) {
		d, t, err := c.slot(result)
		if err != nil {
			return err
		}
		c.emit(inst{op: opFloatCtl, aux: fcFlush, dst: d, a: d, n: int32(t.ncomp), sc: t.sc})
	}
	return nil
}

// rtzOp compiles a correctly rounded instruction whose result width has
// RoundingModeRTZ.
func (c *compiler) rtzOp(opc spirv.Opcode, typeID, result uint32, args []uint32, kind int) error {
	if kind < 0 { // a conversion: its rounding mode operand
		start := len(c.code)
		if err := c.op(opc, typeID, result, args, c.instIdx); err != nil {
			return err
		}
		for _, dd := range c.x.Decorations[result] {
			if dd.Kind == spirv.DecorationFPRoundingMode {
				return nil // the decoration takes precedence
			}
		}
		for k := start; k < len(c.code); k++ {
			if in := &c.code[k]; in.op == opConv && (in.aux == cvFConv || in.aux == cvSToF || in.aux == cvUToF) {
				in.imm = in.imm&^0xFF | 1 // RTZ
			}
		}
		return nil
	}
	nargs := 2
	if kind == fcFma {
		nargs = 3
	}
	if len(args) < nargs {
		return errOps(opc)
	}
	d, rt, err := c.slot(result)
	if err != nil {
		return err
	}
	var s [3]int32
	for k := 0; k < nargs; k++ {
		sk, t, err := c.val(args[k])
		if err != nil {
			return err
		}
		scalarB := opc == spirv.OpVectorTimesScalar && k == 1
		if t.sc != rt.sc || !scalarB && t.ncomp != rt.ncomp || scalarB && t.ncomp != 1 {
			return fmt.Errorf("%s: operand and result types differ", opc)
		}
		s[k] = sk
	}
	in := inst{op: opFloatCtl, aux: int32(kind), dst: d, a: s[0], b: s[1], c: s[2], n: int32(rt.ncomp), sc: rt.sc}
	if opc == spirv.OpVectorTimesScalar {
		in.imm = 1
	}
	c.emit(in)
	return nil
}

// floatCtl executes an opFloatCtl.
func (sg *subgroup) floatCtl(in *inst, lanes []int32) *Fault {
	w := in.sc.width
	for k := int32(0); k < in.n; k++ {
		d, a := sg.col(in.dst+k), sg.col(in.a+k)
		switch in.aux {
		case fcFlush:
			for _, l := range lanes {
				d[l] = flushDenorm(a[l], w)
			}
		case fcFma:
			b, cc := sg.col(in.b+k), sg.col(in.c+k)
			for _, l := range lanes {
				d[l] = rtzFma(a[l], b[l], cc[l], w)
			}
		default:
			bk := k
			if in.imm&1 != 0 {
				bk = 0
			}
			b := sg.col(in.b + bk)
			for _, l := range lanes {
				d[l] = rtzBin(int(in.aux), a[l], b[l], w)
			}
		}
	}
	return nil
}

// flushDenorm replaces an IEEE denormal of width w by a zero of its sign.
func flushDenorm(x uint64, w uint8) uint64 {
	switch w {
	case 16:
		if x&0x7C00 == 0 {
			return x & 0x8000
		}
	case 32:
		if x&0x7F800000 == 0 {
			return x & 0x80000000
		}
	case 64:
		if x&0x7FF0000000000000 == 0 {
			return x & (1 << 63)
		}
	}
	return x
}

// ieee64 returns the exact value of an IEEE component of width w.
func ieee64(x uint64, w uint8) float64 {
	switch w {
	case 16:
		return float64(mx.HalfToFloat32(uint16(x)))
	case 32:
		return float64(math.Float32frombits(uint32(x)))
	}
	return math.Float64frombits(x)
}

// ieeeBits rounds v to width w in rounding mode m (exact when v is
// representable).
func ieeeBits(v float64, w uint8, m mx.RoundingMode) uint64 {
	return fromF64(v, scalar{kind: skFloat, width: w}, uint8(m), false)
}

// twoSum returns s = RN(a+b) and the exact error e = a+b-s (Knuth; exact
// unless s overflows).
func twoSum(a, b float64) (s, e float64) {
	s = a + b
	bb := s - a
	e = (a - (s - bb)) + (b - bb)
	return
}

// rtzPair rounds the exact value z+e toward zero to width w, where z is
// that value rounded to nearest in float64 and e the (exact) rest. Because
// every value of width w is a float64, a z that is not one of them lies on
// the same side of each of them as z+e; a z that is one is corrected by
// the sign of e.
func rtzPair(z, e float64, w uint8) uint64 {
	if w == 64 {
		if e != 0 && math.Signbit(e) != math.Signbit(z) {
			z = math.Nextafter(z, 0)
		}
		return math.Float64bits(z)
	}
	b := ieeeBits(z, w, mx.RTE)
	if ieee64(b, w) != z {
		return ieeeBits(z, w, mx.RTZ)
	}
	if e != 0 && math.Signbit(e) != math.Signbit(z) {
		b-- // the next magnitude toward zero (z is not zero: e would be)
	}
	return b
}

// maxFinite returns the largest finite value of width w with the sign of
// neg: what an overflow rounds to toward zero.
func maxFinite(neg bool, w uint8) uint64 {
	var b uint64
	switch w {
	case 16:
		b = 0x7BFF
	case 32:
		b = 0x7F7FFFFF
	default:
		b = 0x7FEFFFFFFFFFFFFF
	}
	if neg {
		b |= 1 << (w - 1)
	}
	return b
}

func finite(v ...float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// rtzBin computes x op y (fcAdd..fcDiv) of width w rounded toward zero.
func rtzBin(kind int, x, y uint64, w uint8) uint64 {
	a, b := ieee64(x, w), ieee64(y, w)
	var z float64
	switch kind {
	case fcAdd:
		z = a + b
	case fcSub:
		b = -b
		z = a + b
	case fcMul:
		z = a * b
	default:
		z = a / b
	}
	if !finite(a, b) || !finite(z) && !(kind == fcDiv && b == 0) {
		if finite(a, b) && math.IsInf(z, 0) {
			return maxFinite(z < 0, w) // finite overflow
		}
		return ieeeBits(z, w, mx.RTZ) // infinities and NaNs are exact
	}
	if kind == fcDiv && b == 0 || z == 0 && (kind != fcMul && kind != fcDiv || a == 0 || b == 0) {
		return ieeeBits(z, w, mx.RTZ) // exact: x/0, and zeros (a nonzero sum is never rounded to zero)
	}
	if kind == fcAdd || kind == fcSub {
		s, e := twoSum(a, b)
		return rtzPair(s, e, w)
	}
	if w != 64 {
		// Products of two 11- or 24-bit significands are exact in
		// float64; a quotient that is not a value of width w is farther
		// from every one (relatively 2^-48) than float64 rounding moves it.
		return rtzPair(z, 0, w)
	}
	switch kind {
	case fcMul:
		if math.Abs(z) >= 0x1p-900 {
			// The residual a*b-z is a multiple of 2^-1007: never lost.
			return rtzPair(z, math.FMA(a, b, -z), w)
		}
		return rtzRat(new(big.Rat).Mul(rat(a), rat(b)), math.Signbit(z), w)
	default:
		if math.Abs(a) >= 0x1p-900 && math.Abs(b) >= 0x1p-1022 && math.Abs(z) >= 0x1p-1000 {
			// a - z*b (exact: a multiple of 2^-1006) has the sign of
			// (a/b - z)*b.
			r := math.FMA(-z, b, a)
			var e float64
			if r != 0 {
				e = math.Copysign(1, r) * math.Copysign(1, b) * 0x1p-1074 // only its sign matters
			}
			return rtzPair(z, e, w)
		}
		return rtzRat(new(big.Rat).Quo(rat(a), rat(b)), math.Signbit(z), w)
	}
}

// rtzFma computes x*y+z of width w, exactly, rounded toward zero.
func rtzFma(x, y, zz uint64, w uint8) uint64 {
	a, b, c := ieee64(x, w), ieee64(y, w), ieee64(zz, w)
	f := math.FMA(a, b, c)
	if !finite(a, b, c) {
		return ieeeBits(f, w, mx.RTZ)
	}
	if w != 64 {
		// a*b is exact in float64, and TwoSum makes the sum exact.
		p := a * b
		s, e := twoSum(p, c)
		if math.IsInf(s, 0) {
			return maxFinite(s < 0, w)
		}
		if s == 0 {
			return ieeeBits(s, w, mx.RTE) // an exact zero, with IEEE's sign
		}
		return rtzPair(s, e, w)
	}
	q := new(big.Rat).Add(new(big.Rat).Mul(rat(a), rat(b)), rat(c))
	if q.Sign() == 0 {
		return math.Float64bits(f) // an exact zero: FMA's sign is IEEE's
	}
	return rtzRat(q, q.Sign() < 0, w)
}

func rat(x float64) *big.Rat { return new(big.Rat).SetFloat64(x) }

// rtzRat rounds the exact finite value q toward zero to width w (overflow
// gives the largest finite value, a value below the smallest denormal a
// zero of sign neg).
func rtzRat(q *big.Rat, neg bool, w uint8) uint64 {
	var p, emin, emax int
	switch w {
	case 16:
		p, emin, emax = 11, -14, 15
	case 32:
		p, emin, emax = 24, -126, 127
	default:
		p, emin, emax = 53, -1022, 1023
	}
	num := new(big.Int).Abs(q.Num())
	den := q.Denom()
	sign := uint64(0)
	if neg {
		sign = 1 << (w - 1)
	}
	if num.Sign() == 0 {
		return sign
	}
	// e = floor(log2 |q|)
	e := num.BitLen() - den.BitLen()
	if cmpShifted(num, den, e) < 0 {
		e--
	}
	if e > emax {
		return maxFinite(neg, w)
	}
	k := max(e, emin) - (p - 1) // the exponent of the last kept bit
	n, d := new(big.Int).Set(num), new(big.Int).Set(den)
	if k < 0 {
		n.Lsh(n, uint(-k))
	} else {
		d.Lsh(d, uint(k))
	}
	m := n.Quo(n, d).Uint64() // truncation: toward zero; m < 2^p
	v := math.Ldexp(float64(m), k)
	return ieeeBits(v, w, mx.RTE) | sign // exact
}

// cmpShifted compares num with den*2^e.
func cmpShifted(num, den *big.Int, e int) int {
	if e >= 0 {
		return num.Cmp(new(big.Int).Lsh(den, uint(e)))
	}
	return new(big.Int).Lsh(num, uint(-e)).Cmp(den)
}

// intToFloat converts an integer (the low from.width bits of x, signed or
// not) to an IEEE float of width to.width in a directed rounding mode
// (1 RTZ, 2 RTP, 3 RTN), exactly: the integer is truncated to the
// significand's bits and stepped once away from zero where the mode rounds
// that way. Saturation clamps an overflow to the largest finite value.
func intToFloat(x uint64, signed bool, from, to scalar, mode uint8, sat bool) uint64 {
	neg := false
	if signed {
		if v := sext(x, from.width); v < 0 {
			neg, x = true, uint64(-v)
		} else {
			x = uint64(v)
		}
	} else {
		x &= from.mask()
	}
	var p int
	switch to.width {
	case 16:
		p = 11
	case 32:
		p = 24
	default:
		p = 53
	}
	up := mode == 2 && !neg || mode == 3 && neg // rounds the magnitude up
	m := x
	if l := bits.Len64(x); l > p {
		sh := uint(l - p)
		m = x >> sh << sh
		if m != x && up {
			m += 1 << sh // may carry into a new top bit: still exact
		}
	}
	var v float64
	if m == 0 && x != 0 { // 2^64 after the carry
		v = 0x1p64
	} else {
		v = float64(m) // exact: at most p significant bits
	}
	if neg {
		v = -v
	}
	if to.width == 16 && math.Abs(v) > 65504 {
		if sat || !up {
			return maxFinite(neg, 16)
		}
		return ieeeBits(math.Inf(1), 16, mx.RTE) | b2u(neg)<<15
	}
	return ieeeBits(v, to.width, mx.RTE)
}
