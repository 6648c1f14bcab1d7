package interp

import (
	"fmt"
	"math/bits"

	"spvx/spirv"
)

// SPV_INTEL_shader_integer_functions2: leading/trailing zero counts,
// absolute difference, saturating add and subtract, averages and 32×16
// multiplies, which glslang emits for GL_INTEL_shader_integer_functions2.
// The I forms read their operands as signed and the U forms as unsigned,
// whatever the type's Signedness (the extension dropped every rule on
// it in revision 2). Each is one entry of unTab or binTab, so spec
// constants fold through the same functions the lanes run.

// intFn2Bin maps the binary opcodes to their binTab entries.
var intFn2Bin = map[spirv.Opcode]int{
	spirv.OpAbsISubINTEL: bAbsISub, spirv.OpAbsUSubINTEL: bAbsUSub,
	spirv.OpIAddSatINTEL: bIAddSat, spirv.OpUAddSatINTEL: bUAddSat,
	spirv.OpIAverageINTEL: bIAverage, spirv.OpUAverageINTEL: bUAverage,
	spirv.OpIAverageRoundedINTEL: bIAverageRounded, spirv.OpUAverageRoundedINTEL: bUAverageRounded,
	spirv.OpISubSatINTEL: bISubSat, spirv.OpUSubSatINTEL: bUSubSat,
	spirv.OpIMul32x16INTEL: bIMul32x16, spirv.OpUMul32x16INTEL: bUMul32x16,
}

// compileIntFunctions2 compiles the extension's instructions.
func (c *compiler) compileIntFunctions2(q *cinst) (bool, error) {
	switch q.opc {
	case spirv.OpUCountLeadingZerosINTEL:
		return true, q.un(uCountLeadingZeros, skInt)
	case spirv.OpUCountTrailingZerosINTEL:
		return true, q.un(uCountTrailingZeros, skInt)
	}
	k, ok := intFn2Bin[q.opc]
	if !ok {
		return false, nil
	}
	v, err := q.elem2()
	if err != nil {
		return true, err
	}
	if v.at.sc.kind != skInt || v.bt.sc.kind != skInt || v.rt.sc.kind != skInt ||
		v.at.sc.width != v.rt.sc.width || v.bt.sc.width != v.rt.sc.width {
		return true, fmt.Errorf("%s: operands and result must be integers of one width", q.opc)
	}
	c.emit(inst{op: opBin, aux: int32(k), dst: v.d, a: v.a, b: v.b, n: int32(v.rt.ncomp), sc: v.rt.sc})
	return true, nil
}

func init() {
	binTab[bAbsISub] = absISub
	binTab[bAbsUSub] = func(x, y uint64, s scalar) uint64 { return max(x, y) - min(x, y) }
	binTab[bIAddSat] = iAddSat
	binTab[bUAddSat] = func(x, y uint64, s scalar) uint64 {
		if sum, carry := bits.Add64(x, y, 0); carry == 0 && sum <= s.mask() {
			return sum
		}
		return s.mask()
	}
	binTab[bIAverage] = func(x, y uint64, s scalar) uint64 {
		a, b := sext(x, s.width), sext(y, s.width)
		return uint64(a>>1+b>>1+a&b&1) & s.mask()
	}
	binTab[bUAverage] = func(x, y uint64, s scalar) uint64 { return x>>1 + y>>1 + x&y&1 }
	binTab[bIAverageRounded] = func(x, y uint64, s scalar) uint64 {
		a, b := sext(x, s.width), sext(y, s.width)
		return uint64(a>>1+b>>1+(a|b)&1) & s.mask()
	}
	binTab[bUAverageRounded] = func(x, y uint64, s scalar) uint64 { return x>>1 + y>>1 + (x|y)&1 }
	binTab[bISubSat] = iSubSat
	binTab[bUSubSat] = func(x, y uint64, s scalar) uint64 { return x - min(x, y) }
	binTab[bIMul32x16] = func(x, y uint64, s scalar) uint64 { return x * uint64(sext(y, 16)) & s.mask() }
	binTab[bUMul32x16] = func(x, y uint64, s scalar) uint64 { return x * (y & 0xffff) & s.mask() }
}

// countLeadingZeros counts from the type's most significant bit: the
// width for zero.
func countLeadingZeros(x uint64, s scalar) uint64 {
	return uint64(bits.LeadingZeros64(x&s.mask()) - (64 - int(s.width)))
}

// countTrailingZeros is the width for zero.
func countTrailingZeros(x uint64, s scalar) uint64 {
	return uint64(min(bits.TrailingZeros64(x), int(s.width)))
}

// absISub is |x - y| of the signed readings, which always fits the
// unsigned width: it is the difference of the larger and the smaller,
// taken modulo 2^64.
func absISub(x, y uint64, s scalar) uint64 {
	a, b := sext(x, s.width), sext(y, s.width)
	if a < b {
		a, b = b, a
	}
	return (uint64(a) - uint64(b)) & s.mask()
}

// signedRange is the smallest and largest value of the signed reading.
func signedRange(s scalar) (lo, hi int64) {
	hi = int64(s.mask() >> 1)
	return -hi - 1, hi
}

// iAddSat is x + y of the signed readings clamped to the signed range.
func iAddSat(x, y uint64, s scalar) uint64 {
	a, b := sext(x, s.width), sext(y, s.width)
	lo, hi := signedRange(s)
	sum := a + b
	switch {
	case b > 0 && a > hi-b:
		sum = hi
	case b < 0 && a < lo-b:
		sum = lo
	}
	return uint64(sum) & s.mask()
}

// iSubSat is x - y of the signed readings clamped to the signed range.
func iSubSat(x, y uint64, s scalar) uint64 {
	a, b := sext(x, s.width), sext(y, s.width)
	lo, hi := signedRange(s)
	diff := a - b
	switch {
	case b < 0 && a > hi+b:
		diff = hi
	case b > 0 && a < lo+b:
		diff = lo
	}
	return uint64(diff) & s.mask()
}
