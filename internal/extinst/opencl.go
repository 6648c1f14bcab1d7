package extinst

import (
	"math"
	"math/bits"
)

// OpenCL.std instruction numbers.
const (
	CLAcos          = 0
	CLAcosh         = 1
	CLAcospi        = 2
	CLAsin          = 3
	CLAsinh         = 4
	CLAsinpi        = 5
	CLAtan          = 6
	CLAtan2         = 7
	CLAtanh         = 8
	CLAtanpi        = 9
	CLAtan2pi       = 10
	CLCbrt          = 11
	CLCeil          = 12
	CLCopysign      = 13
	CLCos           = 14
	CLCosh          = 15
	CLCospi         = 16
	CLErfc          = 17
	CLErf           = 18
	CLExp           = 19
	CLExp2          = 20
	CLExp10         = 21
	CLExpm1         = 22
	CLFabs          = 23
	CLFdim          = 24
	CLFloor         = 25
	CLFma           = 26
	CLFmax          = 27
	CLFmin          = 28
	CLFmod          = 29
	CLFract         = 30
	CLFrexp         = 31
	CLHypot         = 32
	CLIlogb         = 33
	CLLdexp         = 34
	CLLgamma        = 35
	CLLgammaR       = 36
	CLLog           = 37
	CLLog2          = 38
	CLLog10         = 39
	CLLog1p         = 40
	CLLogb          = 41
	CLMad           = 42
	CLMaxmag        = 43
	CLMinmag        = 44
	CLModf          = 45
	CLNan           = 46
	CLNextafter     = 47
	CLPow           = 48
	CLPown          = 49
	CLPowr          = 50
	CLRemainder     = 51
	CLRemquo        = 52
	CLRint          = 53
	CLRootn         = 54
	CLRound         = 55
	CLRsqrt         = 56
	CLSin           = 57
	CLSincos        = 58
	CLSinh          = 59
	CLSinpi         = 60
	CLSqrt          = 61
	CLTan           = 62
	CLTanh          = 63
	CLTanpi         = 64
	CLTgamma        = 65
	CLTrunc         = 66
	CLHalfCos       = 67
	CLHalfDivide    = 68
	CLHalfExp       = 69
	CLHalfExp2      = 70
	CLHalfExp10     = 71
	CLHalfLog       = 72
	CLHalfLog2      = 73
	CLHalfLog10     = 74
	CLHalfPowr      = 75
	CLHalfRecip     = 76
	CLHalfRsqrt     = 77
	CLHalfSin       = 78
	CLHalfSqrt      = 79
	CLHalfTan       = 80
	CLNativeCos     = 81
	CLNativeDivide  = 82
	CLNativeExp     = 83
	CLNativeExp2    = 84
	CLNativeExp10   = 85
	CLNativeLog     = 86
	CLNativeLog2    = 87
	CLNativeLog10   = 88
	CLNativePowr    = 89
	CLNativeRecip   = 90
	CLNativeRsqrt   = 91
	CLNativeSin     = 92
	CLNativeSqrt    = 93
	CLNativeTan     = 94
	CLFclamp        = 95
	CLDegrees       = 96
	CLFmaxCommon    = 97
	CLFminCommon    = 98
	CLMix           = 99
	CLRadians       = 100
	CLStep          = 101
	CLSmoothstep    = 102
	CLSign          = 103
	CLCross         = 104
	CLDistance      = 105
	CLLength        = 106
	CLNormalize     = 107
	CLFastDistance  = 108
	CLFastLength    = 109
	CLFastNormalize = 110
	CLSAbs          = 141
	CLSAbsDiff      = 142
	CLSAddSat       = 143
	CLUAddSat       = 144
	CLSHadd         = 145
	CLUHadd         = 146
	CLSRhadd        = 147
	CLURhadd        = 148
	CLSClamp        = 149
	CLUClamp        = 150
	CLClz           = 151
	CLCtz           = 152
	CLSMadHi        = 153
	CLUMadSat       = 154
	CLSMadSat       = 155
	CLSMax          = 156
	CLUMax          = 157
	CLSMin          = 158
	CLUMin          = 159
	CLSMulHi        = 160
	CLRotate        = 161
	CLSSubSat       = 162
	CLUSubSat       = 163
	CLUUpsample     = 164
	CLSUpsample     = 165
	CLPopcount      = 166
	CLSMad24        = 167
	CLUMad24        = 168
	CLSMul24        = 169
	CLUMul24        = 170
	CLVloadn        = 171
	CLVstoren       = 172
	CLVloadHalf     = 173
	CLVloadHalfn    = 174
	CLVstoreHalf    = 175
	CLVstoreHalfR   = 176
	CLVstoreHalfn   = 177
	CLVstoreHalfnR  = 178
	CLVloadaHalfn   = 179
	CLVstoreaHalfn  = 180
	CLVstoreaHalfnR = 181
	CLShuffle       = 182
	CLShuffle2      = 183
	CLPrintf        = 184
	CLPrefetch      = 185
	CLBitselect     = 186
	CLSelect        = 187
	CLUAbs          = 201
	CLUAbsDiff      = 202
	CLUMulHi        = 203
	CLUMadHi        = 204
)

// clUnary maps the OpenCL float functions of one operand to float64 code.
func clUnary(op uint32) f1 {
	switch op {
	case CLAcos:
		return acos
	case CLAcosh:
		return math.Acosh
	case CLAcospi:
		return func(x float64) float64 { return acos(x) / math.Pi }
	case CLAsin:
		return math.Asin
	case CLAsinh:
		return math.Asinh
	case CLAsinpi:
		return func(x float64) float64 { return math.Asin(x) / math.Pi }
	case CLAtan:
		return math.Atan
	case CLAtanh:
		return math.Atanh
	case CLAtanpi:
		return func(x float64) float64 { return math.Atan(x) / math.Pi }
	case CLCbrt:
		return math.Cbrt
	case CLCeil:
		return math.Ceil
	case CLCos, CLHalfCos, CLNativeCos:
		return math.Cos
	case CLCosh:
		return math.Cosh
	case CLCospi:
		return cospi
	case CLErfc:
		return math.Erfc
	case CLErf:
		return math.Erf
	case CLExp, CLHalfExp, CLNativeExp:
		return math.Exp
	case CLExp2, CLHalfExp2, CLNativeExp2:
		return math.Exp2
	case CLExp10, CLHalfExp10, CLNativeExp10:
		return exp10
	case CLExpm1:
		return math.Expm1
	case CLFloor:
		return math.Floor
	case CLLgamma:
		return func(x float64) float64 { v, _ := lgamma(x); return v }
	case CLLog, CLHalfLog, CLNativeLog:
		return math.Log
	case CLLog2, CLHalfLog2, CLNativeLog2:
		return math.Log2
	case CLLog10, CLHalfLog10, CLNativeLog10:
		return math.Log10
	case CLLog1p:
		return math.Log1p
	case CLLogb:
		return math.Logb
	case CLRint:
		return math.RoundToEven
	case CLRound:
		return math.Round
	case CLRsqrt, CLHalfRsqrt, CLNativeRsqrt:
		return func(x float64) float64 { return 1 / math.Sqrt(x) }
	case CLSin, CLHalfSin, CLNativeSin:
		return math.Sin
	case CLSinh:
		return math.Sinh
	case CLSinpi:
		return sinpi
	case CLSqrt, CLHalfSqrt, CLNativeSqrt:
		return math.Sqrt
	case CLTan, CLHalfTan, CLNativeTan:
		return math.Tan
	case CLTanh:
		return math.Tanh
	case CLTanpi:
		return tanpi
	case CLTrunc:
		return math.Trunc
	case CLHalfRecip, CLNativeRecip:
		return func(x float64) float64 { return 1 / x }
	case CLDegrees:
		return func(x float64) float64 { return x * (180 / math.Pi) }
	case CLRadians:
		return func(x float64) float64 { return x * (math.Pi / 180) }
	case CLSign:
		return func(x float64) float64 {
			if math.IsNaN(x) {
				return 0
			}
			return fsign(x)
		}
	}
	return nil
}

// clBinary maps the OpenCL float functions of two float operands.
func clBinary(op uint32) f2 {
	switch op {
	case CLAtan2:
		return math.Atan2
	case CLAtan2pi:
		return atan2pi
	case CLFdim:
		return func(x, y float64) float64 {
			if math.IsNaN(x) || math.IsNaN(y) {
				return nan
			}
			if x > y {
				return x - y
			}
			return 0
		}
	case CLFmax, CLFmaxCommon:
		return fmaxCL
	case CLFmin, CLFminCommon:
		return fminCL
	case CLFmod:
		return math.Mod
	case CLHypot:
		return math.Hypot
	case CLMaxmag:
		return func(x, y float64) float64 {
			ax, ay := math.Abs(x), math.Abs(y)
			switch {
			case ax > ay:
				return x
			case ay > ax:
				return y
			}
			return fmaxCL(x, y)
		}
	case CLMinmag:
		return func(x, y float64) float64 {
			ax, ay := math.Abs(x), math.Abs(y)
			switch {
			case ax < ay:
				return x
			case ay < ax:
				return y
			}
			return fminCL(x, y)
		}
	case CLPow:
		return pow // C99 pow special values, as OpenCL requires
	case CLPowr, CLHalfPowr, CLNativePowr:
		return powr
	case CLRemainder:
		return math.Remainder
	case CLHalfDivide, CLNativeDivide:
		return func(x, y float64) float64 { return x / y }
	case CLStep:
		return func(edge, x float64) float64 {
			if x < edge {
				return 0
			}
			return 1
		}
	}
	return nil
}

// clTernary maps the OpenCL float functions of three float operands.
func clTernary(op uint32) f3 {
	switch op {
	case CLFma, CLMad:
		return fma
	case CLFclamp:
		return func(x, lo, hi float64, _ uint8) float64 { return fminCL(fmaxCL(x, lo), hi) }
	case CLMix:
		return func(x, y, a float64, _ uint8) float64 { return x + (y-x)*a }
	case CLSmoothstep:
		return smoothstep
	}
	return nil
}

// clInt2 maps the componentwise OpenCL integer functions of two operands.
func clInt2(op uint32) i2 {
	switch op {
	case CLSAbsDiff:
		return func(x, y uint64, w uint8) uint64 {
			a, b := sext(x, w), sext(y, w)
			if a > b {
				return uint64(a) - uint64(b)
			}
			return uint64(b) - uint64(a)
		}
	case CLUAbsDiff:
		return func(x, y uint64, w uint8) uint64 {
			x, y = x&mask(w), y&mask(w)
			if x > y {
				return x - y
			}
			return y - x
		}
	case CLSAddSat:
		return addSatS
	case CLUAddSat:
		return addSatU
	case CLSSubSat:
		return subSatS
	case CLUSubSat:
		return subSatU
	case CLSHadd:
		return func(x, y uint64, w uint8) uint64 {
			a, b := sext(x, w), sext(y, w)
			return uint64(a>>1 + b>>1 + a&b&1)
		}
	case CLUHadd:
		return func(x, y uint64, w uint8) uint64 {
			x, y = x&mask(w), y&mask(w)
			return x>>1 + y>>1 + x&y&1
		}
	case CLSRhadd:
		return func(x, y uint64, w uint8) uint64 {
			a, b := sext(x, w), sext(y, w)
			return uint64(a>>1 + b>>1 + (a|b)&1)
		}
	case CLURhadd:
		return func(x, y uint64, w uint8) uint64 {
			x, y = x&mask(w), y&mask(w)
			return x>>1 + y>>1 + (x|y)&1
		}
	case CLSMax:
		return func(x, y uint64, w uint8) uint64 { return uint64(max(sext(x, w), sext(y, w))) }
	case CLUMax:
		return func(x, y uint64, w uint8) uint64 { return max(x&mask(w), y&mask(w)) }
	case CLSMin:
		return func(x, y uint64, w uint8) uint64 { return uint64(min(sext(x, w), sext(y, w))) }
	case CLUMin:
		return func(x, y uint64, w uint8) uint64 { return min(x&mask(w), y&mask(w)) }
	case CLSMulHi:
		return mulHiS
	case CLUMulHi:
		return mulHiU
	case CLRotate:
		return rotate
	case CLSMul24:
		return func(x, y uint64, w uint8) uint64 { return uint64(sext(x, 24) * sext(y, 24)) }
	case CLUMul24:
		return func(x, y uint64, w uint8) uint64 { return (x & 0xFFFFFF) * (y & 0xFFFFFF) }
	}
	return nil
}

// clInt3 maps the componentwise OpenCL integer functions of three operands.
func clInt3(op uint32) i3 {
	switch op {
	case CLSClamp:
		return func(x, lo, hi uint64, w uint8) uint64 {
			return uint64(min(max(sext(x, w), sext(lo, w)), sext(hi, w)))
		}
	case CLUClamp:
		return func(x, lo, hi uint64, w uint8) uint64 {
			return min(max(x&mask(w), lo&mask(w)), hi&mask(w))
		}
	case CLSMadHi:
		return func(a, b, c uint64, w uint8) uint64 { return mulHiS(a, b, w) + c }
	case CLUMadHi:
		return func(a, b, c uint64, w uint8) uint64 { return mulHiU(a, b, w) + c }
	case CLSMadSat:
		return madSatS
	case CLUMadSat:
		return madSatU
	case CLSMad24:
		return func(x, y, z uint64, w uint8) uint64 { return uint64(sext(x, 24)*sext(y, 24)) + z }
	case CLUMad24:
		return func(x, y, z uint64, w uint8) uint64 { return (x&0xFFFFFF)*(y&0xFFFFFF) + z }
	}
	return nil
}

// OpenCL evaluates one OpenCL.std instruction (op is its number) for one
// lane, except the memory and I/O instructions (vloadn, vstoren,
// vload_half*, vstore_half*, vloada_halfn, vstorea_halfn*, printf,
// prefetch), which return ErrMemoryOp so the caller performs them. For
// fract, frexp, lgamma_r, modf, remquo and sincos the pointer operand is
// omitted from args and out2 is the value to store through it (a float of
// res's type for fract, modf and sincos; 32-bit integers for frexp, lgamma_r
// and remquo). Wrong operand counts or types and unknown numbers are errors,
// never panics.
func OpenCL(op uint32, res Type, args []Arg) (out, out2 Value, err error) {
	c := ctx{setCL, op}
	if f := clUnary(op); f != nil {
		out, err = c.fun1(res, args, f)
	} else if f := clBinary(op); f != nil {
		out, err = c.fun2(res, args, f)
	} else if f := clTernary(op); f != nil {
		out, err = c.fun3(res, args, f)
	} else if f := clInt2(op); f != nil {
		out, err = c.bits2(res, args, Int, f)
	} else if op == CLBitselect {
		out, err = c.bitselect(res, args)
	} else if f := clInt3(op); f != nil {
		out, err = c.bits3(res, args, Int, f)
	} else {
		out, out2, err = c.openCLOther(op, res, args)
	}
	if err != nil {
		return Value{}, Value{}, err
	}
	return out, out2, nil
}

func (c ctx) openCLOther(op uint32, res Type, args []Arg) (out, out2 Value, err error) {
	switch op {
	case CLCopysign:
		out, err = c.bits2(res, args, Float, func(x, y uint64, w uint8) uint64 {
			_, s := floatLayout(w)
			return x&^s | y&s
		})
	case CLFabs:
		out, err = c.bits1(res, args, Float, func(x uint64, w uint8) uint64 {
			_, s := floatLayout(w)
			return x &^ s
		})
	case CLNextafter:
		out, err = c.bits2(res, args, Float, nextafter)
	case CLTgamma:
		if err = c.checkSame(res, args, 1, Float); err != nil {
			return
		}
		for i := range res.n() {
			out[i] = FromFloat64(tgamma(ToFloat64(args[0].at(i), res.Width), res.Width), res.Width)
		}
	case CLFract, CLModf, CLSincos, CLFrexp, CLLgammaR:
		if err = c.checkSame(res, args, 1, Float); err != nil {
			return
		}
		w := res.Width
		for i := range res.n() {
			x := ToFloat64(args[0].at(i), w)
			var r, r2 float64
			switch op {
			case CLFract:
				r, r2 = fractCL(x, w), math.Floor(x)
			case CLModf:
				r, r2 = modf(x)
			case CLSincos:
				r, r2 = math.Sin(x), math.Cos(x)
			case CLFrexp:
				f, e := frexpW(x)
				out[i], out2[i] = FromFloat64(f, w), uint64(uint32(e))
				continue
			case CLLgammaR:
				v, s := lgamma(x)
				out[i], out2[i] = FromFloat64(v, w), uint64(uint32(int32(s)))
				continue
			}
			out[i], out2[i] = FromFloat64(r, w), FromFloat64(r2, w)
		}
	case CLRemquo:
		if err = c.checkSame(res, args, 2, Float); err != nil {
			return
		}
		w := res.Width
		for i := range res.n() {
			r, q := remquo(ToFloat64(args[0].at(i), w), ToFloat64(args[1].at(i), w))
			out[i], out2[i] = FromFloat64(r, w), uint64(uint32(q))
		}
	case CLIlogb:
		if err = c.checkN(args, 1); err != nil {
			return
		}
		if err = c.checkRes(res, Int); err != nil {
			return
		}
		if err = c.checkArg(args, 0, Float, 0, res.n()); err != nil {
			return
		}
		for i := range res.n() {
			x := ToFloat64(args[0].at(i), args[0].T.Width)
			out[i] = uint64(int64(math.Ilogb(x))) & mask(res.Width)
		}
	case CLLdexp, CLPown, CLRootn:
		if err = c.floatWithInt(res, args); err != nil {
			return
		}
		w := res.Width
		for i := range res.n() {
			x := ToFloat64(args[0].at(i), w)
			k := sext(args[1].at(i), args[1].T.Width)
			var r float64
			switch op {
			case CLLdexp:
				r = ldexpW(x, k)
			case CLPown:
				r = pow(x, float64(k))
			default:
				r = rootn(x, k)
			}
			out[i] = FromFloat64(r, w)
		}
	case CLNan:
		if err = c.checkN(args, 1); err != nil {
			return
		}
		if err = c.checkRes(res, Float); err != nil {
			return
		}
		if err = c.checkArg(args, 0, Int, res.Width, res.n()); err != nil {
			return
		}
		for i := range res.n() {
			out[i] = nanCode(args[0].at(i), res.Width)
		}
	case CLCross, CLDistance, CLLength, CLNormalize, CLFastDistance, CLFastLength, CLFastNormalize:
		out, err = c.geometric(setCL, op, res, args)
	case CLSAbs:
		out, err = c.bits1(res, args, Int, func(x uint64, w uint8) uint64 {
			if v := sext(x, w); v < 0 {
				return uint64(-v)
			}
			return x
		})
	case CLUAbs:
		out, err = c.bits1(res, args, Int, func(x uint64, _ uint8) uint64 { return x })
	case CLClz:
		out, err = c.bits1(res, args, Int, clz)
	case CLCtz:
		out, err = c.bits1(res, args, Int, ctz)
	case CLPopcount:
		out, err = c.bits1(res, args, Int, func(x uint64, w uint8) uint64 { return uint64(bits.OnesCount64(x & mask(w))) })
	case CLUUpsample, CLSUpsample:
		if err = c.checkN(args, 2); err != nil {
			return
		}
		if err = c.checkRes(res, Int); err != nil {
			return
		}
		if res.Width < 16 {
			return out, out2, c.errf("result type %v, expected 16, 32 or 64-bit integers", res)
		}
		hw := res.Width / 2
		for i := range 2 {
			if err = c.checkArg(args, i, Int, hw, res.n()); err != nil {
				return
			}
		}
		for i := range res.n() {
			out[i] = (args[0].at(i)&mask(hw))<<hw | args[1].at(i)&mask(hw)
		}
	case CLShuffle, CLShuffle2:
		out, err = c.shuffle(op, res, args)
	case CLSelect:
		if err = c.checkN(args, 3); err != nil {
			return
		}
		k := res.Kind
		if k == Uint {
			k = Int
		}
		if err = c.checkRes(res, k); err != nil {
			return
		}
		for i := range 2 {
			if err = c.checkArg(args, i, k, res.Width, res.n()); err != nil {
				return
			}
		}
		if err = c.checkArg(args, 2, Int, res.Width, res.n()); err != nil {
			return
		}
		cw := args[2].T.Width
		for i := range res.n() {
			cv := args[2].at(i) & mask(cw)
			pick := cv != 0
			if res.n() > 1 {
				pick = cv>>(cw-1) != 0 // vectors test the most significant bit
			}
			if pick {
				out[i] = args[1].at(i)
			} else {
				out[i] = args[0].at(i)
			}
		}
	case CLVloadn, CLVstoren, CLVloadHalf, CLVloadHalfn, CLVstoreHalf, CLVstoreHalfR, CLVstoreHalfn,
		CLVstoreHalfnR, CLVloadaHalfn, CLVstoreaHalfn, CLVstoreaHalfnR, CLPrintf, CLPrefetch:
		err = ErrMemoryOp
	default:
		err = c.errf("%w %d", ErrUnknownOp, op)
	}
	return
}

// fractCL is OpenCL fract: x - floor(x), never 1.0.
func fractCL(x float64, w uint8) float64 {
	switch {
	case math.IsNaN(x):
		return x
	case math.IsInf(x, 0), x == 0:
		return math.Copysign(0, x)
	}
	return math.Min(roundTo(x-math.Floor(x), w), belowOne(w))
}

func (c ctx) shuffle(op uint32, res Type, args []Arg) (out Value, err error) {
	nargs := 2
	if op == CLShuffle2 {
		nargs = 3
	}
	if err = c.checkN(args, nargs); err != nil {
		return
	}
	src := args[0].T
	if res.Len > 16 || src.Len > 16 || !(validType(src, Float) || validType(src, Int)) {
		return out, c.errf("operand 1 has type %v, expected a vector", src)
	}
	if res.Kind != src.Kind && !(validType(res, Int) && validType(src, Int)) || res.Width != src.Width {
		return out, c.errf("result type %v has not the component type of %v", res, src)
	}
	if nargs == 3 && args[1].T != src {
		return out, c.errf("operand 2 has type %v, expected %v", args[1].T, src)
	}
	mk := args[nargs-1].T
	if !validType(mk, Int) || mk.n() != res.n() {
		return out, c.errf("shuffle mask has type %v, expected %d integer components", mk, res.n())
	}
	m := src.n()
	nb := bits.Len(uint(2*m-1)) - 1 // ilogb(2m-1)
	if op == CLShuffle2 {
		nb++
	}
	for i := range res.n() {
		k := int(args[nargs-1].at(i) & (1<<nb - 1))
		switch {
		case k < m:
			out[i] = args[0].V[k]
		case op == CLShuffle2 && k < 2*m:
			out[i] = args[1].V[k-m]
		}
		// Components are moved, not computed: mask them, so that bits a
		// caller left above the width never reach the result.
		out[i] &= mask(res.Width)
	}
	return
}

// bitselect works on raw bits, so each operand may be float or integer of the
// result's width.
func (c ctx) bitselect(res Type, args []Arg) (out Value, err error) {
	if err = c.checkN(args, 3); err != nil {
		return
	}
	k := Int
	if res.Kind == Float {
		k = Float
	}
	if err = c.checkRes(res, k); err != nil {
		return
	}
	for i := range args {
		ak := Int
		if args[i].T.Kind == Float {
			ak = Float
		}
		if err = c.checkArg(args, i, ak, res.Width, res.n()); err != nil {
			return
		}
	}
	for i := range res.n() {
		a, b, s := args[0].at(i), args[1].at(i), args[2].at(i)
		out[i] = (a&^s | b&s) & mask(res.Width)
	}
	return
}

// atan2pi is atan2(y, x)/π with OpenCL's exact values where both operands
// are infinite (atan2's 3π/4 divided by π is not exactly 0.75).
func atan2pi(y, x float64) float64 {
	if math.IsInf(y, 0) && math.IsInf(x, 0) {
		v := 0.25
		if x < 0 {
			v = 0.75
		}
		return math.Copysign(v, y)
	}
	return math.Atan2(y, x) / math.Pi
}

// lgamma is ln|Γ(x)| and the sign of Γ(x), with C's lgamma(-Inf) = +Inf
// (math.Lgamma returns -Inf) and OpenCL's sign 0 for zero and the negative
// integers (the poles).
func lgamma(x float64) (float64, int) {
	if math.IsInf(x, -1) {
		return math.Inf(1), 0
	}
	v, s := math.Lgamma(x)
	if x == 0 || (x < 0 && x == math.Trunc(x)) {
		s = 0
	}
	return v, s
}
