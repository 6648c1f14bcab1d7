package interp

import (
	"math"
	"math/bits"

	"spvx/mx"
)

var mxFormat = [...]mx.Format{encE4M3: mx.E4M3, encE5M2: mx.E5M2, encE2M3: mx.E2M3, encE3M2: mx.E3M2, encE2M1: mx.E2M1, encE8M0: mx.E8M0, encMXINT8: mx.MXINT8}

// toF64 returns the exact value of a float component.
func toF64(x uint64, s scalar) float64 {
	switch s.enc {
	case encIEEE:
		switch s.width {
		case 16:
			return float64(mx.HalfToFloat32(uint16(x)))
		case 32:
			return float64(math.Float32frombits(uint32(x)))
		default:
			return math.Float64frombits(x)
		}
	case encBF16:
		return float64(mx.BFloat16ToFloat32(uint16(x)))
	}
	return float64(mxFormat[s.enc].DecodeFloat32(uint8(x)))
}

// fromF64 rounds v to the float type s in mode (0 RTE, 1 RTZ, 2 RTP, 3 RTN).
func fromF64(v float64, s scalar, mode uint8, sat bool) uint64 {
	m := mx.RoundingMode(mode)
	switch s.enc {
	case encIEEE:
		switch s.width {
		case 16:
			if sat && !math.IsNaN(v) {
				v = math.Max(-65504, math.Min(65504, v))
			}
			return uint64(mx.HalfFromFloat64(v, m))
		case 32:
			f := float32(v)
			if mode != 0 && !math.IsNaN(v) && float64(f) != v && !math.IsInf(v, 0) {
				f = directed32(v, f, mode)
			}
			if sat && math.IsInf(float64(f), 0) {
				f = float32(math.Copysign(math.MaxFloat32, v))
			}
			return uint64(math.Float32bits(f))
		default:
			return math.Float64bits(v)
		}
	case encBF16:
		return uint64(mx.BFloat16FromFloat64(v, m))
	}
	return uint64(mxFormat[s.enc].EncodeFloat64(v, m, sat))
}

// directed32 corrects the nearest float32 f of v for a directed rounding mode.
func directed32(v float64, f float32, mode uint8) float32 {
	up := float64(f) < v // f is below v
	switch mode {
	case 1: // toward zero
		if v > 0 && !up {
			return math.Nextafter32(f, 0)
		}
		if v < 0 && up {
			return math.Nextafter32(f, 0)
		}
	case 2: // toward +inf
		if up {
			return math.Nextafter32(f, float32(math.Inf(1)))
		}
	case 3:
		if !up {
			return math.Nextafter32(f, float32(math.Inf(-1)))
		}
	}
	return f
}

// fbin computes a binary float operation at the precision of s: the exact
// operands in float64, rounded once (float64 holds every exact sum, product
// and quotient of the narrower formats to within the double-rounding bound).
func fbin(k int, x, y uint64, s scalar) uint64 {
	if s.enc == encIEEE && s.width == 64 {
		a, b := math.Float64frombits(x), math.Float64frombits(y)
		switch k {
		case bFAdd:
			return math.Float64bits(a + b)
		case bFSub:
			return math.Float64bits(a - b)
		case bFMul:
			return math.Float64bits(a * b)
		case bFDiv:
			return math.Float64bits(a / b)
		}
	}
	if s.enc == encIEEE && s.width == 32 {
		a, b := math.Float32frombits(uint32(x)), math.Float32frombits(uint32(y))
		switch k {
		case bFAdd:
			return uint64(math.Float32bits(a + b))
		case bFSub:
			return uint64(math.Float32bits(a - b))
		case bFMul:
			return uint64(math.Float32bits(a * b))
		case bFDiv:
			return uint64(math.Float32bits(a / b))
		}
	}
	a, b := toF64(x, s), toF64(y, s)
	var z float64
	switch k {
	case bFAdd:
		z = a + b
	case bFSub:
		z = a - b
	case bFMul:
		z = a * b
	case bFDiv:
		z = a / b
	case bFRem:
		z = math.Mod(a, b)
	case bFMod:
		z = math.Mod(a, b)
		if z != 0 && math.Signbit(z) != math.Signbit(b) && !math.IsInf(b, 0) {
			z += b
		} else if z == 0 {
			z = math.Copysign(0, b)
		}
	case bFMin:
		if math.IsNaN(a) {
			return y
		}
		if math.IsNaN(b) || a < b || a == b && math.Signbit(a) {
			return x
		}
		return y
	case bFMax:
		if math.IsNaN(a) {
			return y
		}
		if math.IsNaN(b) || a > b || a == b && !math.Signbit(a) {
			return x
		}
		return y
	}
	return fromF64(z, s, 0, false)
}

func fcmp(k int, x, y uint64, s scalar) uint64 {
	a, b := toF64(x, s), toF64(y, s)
	un := math.IsNaN(a) || math.IsNaN(b)
	var t bool
	switch k {
	case bFOrdEq:
		t = !un && a == b
	case bFUnordEq:
		t = un || a == b
	case bFOrdNe:
		t = !un && a != b
	case bFUnordNe:
		t = un || a != b
	case bFOrdLt:
		t = !un && a < b
	case bFUnordLt:
		t = un || a < b
	case bFOrdGt:
		t = !un && a > b
	case bFUnordGt:
		t = un || a > b
	case bFOrdLe:
		t = !un && a <= b
	case bFUnordLe:
		t = un || a <= b
	case bFOrdGe:
		t = !un && a >= b
	case bFUnordGe:
		t = un || a >= b
	case bOrdered:
		t = !un
	case bUnordered:
		t = un
	case bLessOrGreater:
		t = !un && a != b
	}
	return b2u(t)
}

var binTab [bNum]func(x, y uint64, s scalar) uint64

func init() {
	for k := bFAdd; k <= bFMod; k++ {
		k := k
		binTab[k] = func(x, y uint64, s scalar) uint64 { return fbin(k, x, y, s) }
	}
	for k := bFOrdEq; k <= bLessOrGreater; k++ {
		k := k
		binTab[k] = func(x, y uint64, s scalar) uint64 { return fcmp(k, x, y, s) }
	}
	binTab[bLAnd] = func(x, y uint64, _ scalar) uint64 { return x & y }
	binTab[bLOr] = func(x, y uint64, _ scalar) uint64 { return x | y }
	binTab[bLEq] = func(x, y uint64, _ scalar) uint64 { return b2u(x == y) }
	binTab[bLNe] = func(x, y uint64, _ scalar) uint64 { return b2u(x != y) }
	binTab[bFMin] = func(x, y uint64, s scalar) uint64 { return fbin(bFMin, x, y, s) }
	binTab[bFMax] = func(x, y uint64, s scalar) uint64 { return fbin(bFMax, x, y, s) }
	binTab[bSMin] = func(x, y uint64, s scalar) uint64 {
		if sext(x, s.width) < sext(y, s.width) {
			return x
		}
		return y
	}
	binTab[bSMax] = func(x, y uint64, s scalar) uint64 {
		if sext(x, s.width) > sext(y, s.width) {
			return x
		}
		return y
	}
	binTab[bUMin] = func(x, y uint64, _ scalar) uint64 { return min(x, y) }
	binTab[bUMax] = func(x, y uint64, _ scalar) uint64 { return max(x, y) }
}

var unTab = [...]func(x uint64, s scalar) uint64{
	uSNegate:    func(x uint64, s scalar) uint64 { return -x & s.mask() },
	uNot:        func(x uint64, s scalar) uint64 { return ^x & s.mask() },
	uFNegate:    func(x uint64, s scalar) uint64 { return x ^ 1<<(s.width-1) },
	uBitCount:   func(x uint64, s scalar) uint64 { return uint64(bits.OnesCount64(x & s.mask())) },
	uBitReverse: func(x uint64, s scalar) uint64 { return bits.Reverse64(x) >> (64 - s.width) },
	uIsNan:      func(x uint64, s scalar) uint64 { return b2u(math.IsNaN(toF64(x, s))) },
	uIsInf:      func(x uint64, s scalar) uint64 { return b2u(math.IsInf(toF64(x, s), 0)) },
	uIsFinite: func(x uint64, s scalar) uint64 {
		v := toF64(x, s)
		return b2u(!math.IsNaN(v) && !math.IsInf(v, 0))
	},
	uIsNormal: func(x uint64, s scalar) uint64 {
		v := math.Abs(toF64(x, s))
		return b2u(!math.IsNaN(v) && !math.IsInf(v, 0) && v >= minNormal(s))
	},
	uSignBitSet: func(x uint64, s scalar) uint64 { return x >> (s.width - 1) & 1 },
	uLNot:       func(x uint64, _ scalar) uint64 { return x ^ 1 },

	uCountLeadingZeros:  countLeadingZeros,
	uCountTrailingZeros: countTrailingZeros,
}

func minNormal(s scalar) float64 {
	switch s.enc {
	case encIEEE:
		switch s.width {
		case 16:
			return 0x1p-14
		case 32:
			return 0x1p-126
		default:
			return 0x1p-1022
		}
	case encBF16:
		return 0x1p-126
	}
	return mxFormat[s.enc].MinNormal()
}

// Rounding of a float-to-integer conversion (OpConvertFToU/S), kept in the
// mode byte of opConv: without an FPRoundingMode decoration the conversion
// rounds toward zero, and a decoration's mode is stored plus one, so that
// RTE (0 in SPIR-V) differs from no decoration.
const (
	fiDefault uint8 = iota // toward zero
	fiRTE
	fiRTZ
	fiRTP
	fiRTN
)

// intRoundingMode is the float-to-integer mode byte of an FPRoundingMode
// decoration's operand (0..3).
func intRoundingMode(fpMode uint32) uint8 { return uint8(fpMode) + fiRTE }

// roundToInt rounds v to an integral value by a float-to-integer mode.
func roundToInt(v float64, mode uint8) float64 {
	switch mode {
	case fiRTE:
		return math.RoundToEven(v)
	case fiRTP:
		return math.Ceil(v)
	case fiRTN:
		return math.Floor(v)
	}
	return math.Trunc(v)
}

// convert implements the conversion instructions on one component. mode is
// the FPRoundingMode (a float-to-integer mode for OpConvertFToU/S), sat the
// SaturatedConversion decoration. Out-of-range float-to-integer conversions
// saturate whether or not they are decorated (OpenCL leaves the undecorated
// result to the implementation), and NaN converts to 0.
func convert(kind int32, x uint64, from, to scalar, mode uint8, sat bool) uint64 {
	m := to.mask()
	switch kind {
	case cvFToU, cvFToS:
		v := roundToInt(toF64(x, from), mode)
		if math.IsNaN(v) {
			return 0
		}
		if kind == cvFToU {
			if v <= 0 {
				return 0
			}
			if v >= math.Ldexp(1, int(to.width)) {
				return m
			}
			return uint64(v) & m
		}
		lim := math.Ldexp(1, int(to.width)-1)
		if v >= lim {
			return m >> 1 // the largest signed value (lim-1 is not a float64 at 64 bits)
		}
		if v < -lim {
			return (m >> 1) + 1
		}
		return uint64(int64(v)) & m
	case cvSToF, cvUToF:
		if mode != 0 && to.enc == encIEEE {
			return intToFloat(x, kind == cvSToF, from, to, mode, sat) // exact for 64-bit integers too
		}
		if kind == cvSToF {
			i := sext(x, from.width)
			if to.enc == encIEEE && to.width == 32 && mode == 0 {
				return uint64(math.Float32bits(float32(i)))
			}
			return fromF64(float64(i), to, mode, sat)
		}
		if to.enc == encIEEE && to.width == 32 && mode == 0 {
			return uint64(math.Float32bits(float32(x)))
		}
		return fromF64(float64(x), to, mode, sat)
	case cvUConv:
		if sat && x&from.mask() > m {
			return m
		}
		return x & m
	case cvPtrToU, cvUToPtr:
		return x & m
	case cvSConv:
		i := sext(x, from.width)
		if sat && to.width < 64 {
			i = min(max(i, -1<<(to.width-1)), 1<<(to.width-1)-1)
		}
		return uint64(i) & m
	case cvFConv:
		return fromF64(toF64(x, from), to, mode, sat)
	case cvQuant16:
		v := toF64(x, from)
		h := mx.HalfFromFloat64(v, 0)
		r := float64(mx.HalfToFloat32(h))
		if h&0x7C00 == 0 && h&0x3FF != 0 {
			r = math.Copysign(0, r) // denormals flush to zero
		}
		return fromF64(r, from, 0, false)
	case cvSatSToU:
		i := sext(x, from.width)
		if i < 0 {
			return 0
		}
		if to.width < 64 && uint64(i) > m {
			return m
		}
		return uint64(i)
	case cvSatUToS:
		lim := uint64(1)<<(to.width-1) - 1
		if x > lim {
			return lim
		}
		return x
	}
	return x
}

// convKey identifies a conversion: its kind, types, rounding mode and
// saturation (opConv's aux, sc2, sc and imm).
type convKey struct {
	kind     int32
	from, to scalar
	imm      uint64
}

// tabulateConversions gives every conversion from a type of 8 bits or
// fewer (FP8, FP6, FP4, E8M0, 8-bit integers) a table of its results by
// source value, computed by convert itself, so a lane's conversion is a
// lookup (opConv with c > 0; exec checks the value is in range).
func (p *Program) tabulateConversions() {
	index := map[convKey]int32{}
	for i := range p.code {
		in := &p.code[i]
		if in.op != opConv || in.sc2.width > 8 || in.sc2.width == 0 || in.aux == cvPtrToU || in.aux == cvUToPtr {
			continue
		}
		k := convKey{in.aux, in.sc2, in.sc, in.imm}
		t, ok := index[k]
		if !ok {
			mode, sat := uint8(in.imm&0xFF), in.imm>>8&1 != 0
			tab := make([]uint64, 1<<in.sc2.width)
			for x := range tab {
				tab[x] = convert(in.aux, uint64(x), in.sc2, in.sc, mode, sat)
			}
			p.convTabs = append(p.convTabs, tab)
			t = int32(len(p.convTabs))
			index[k] = t
		}
		in.c = t
	}
}
