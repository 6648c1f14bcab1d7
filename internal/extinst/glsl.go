package extinst

import (
	"errors"
	"math"
	"math/bits"
)

// GLSL.std.450 instruction numbers.
const (
	GLSLRound                 = 1
	GLSLRoundEven             = 2
	GLSLTrunc                 = 3
	GLSLFAbs                  = 4
	GLSLSAbs                  = 5
	GLSLFSign                 = 6
	GLSLSSign                 = 7
	GLSLFloor                 = 8
	GLSLCeil                  = 9
	GLSLFract                 = 10
	GLSLRadians               = 11
	GLSLDegrees               = 12
	GLSLSin                   = 13
	GLSLCos                   = 14
	GLSLTan                   = 15
	GLSLAsin                  = 16
	GLSLAcos                  = 17
	GLSLAtan                  = 18
	GLSLSinh                  = 19
	GLSLCosh                  = 20
	GLSLTanh                  = 21
	GLSLAsinh                 = 22
	GLSLAcosh                 = 23
	GLSLAtanh                 = 24
	GLSLAtan2                 = 25
	GLSLPow                   = 26
	GLSLExp                   = 27
	GLSLLog                   = 28
	GLSLExp2                  = 29
	GLSLLog2                  = 30
	GLSLSqrt                  = 31
	GLSLInverseSqrt           = 32
	GLSLDeterminant           = 33
	GLSLMatrixInverse         = 34
	GLSLModf                  = 35
	GLSLModfStruct            = 36
	GLSLFMin                  = 37
	GLSLUMin                  = 38
	GLSLSMin                  = 39
	GLSLFMax                  = 40
	GLSLUMax                  = 41
	GLSLSMax                  = 42
	GLSLFClamp                = 43
	GLSLUClamp                = 44
	GLSLSClamp                = 45
	GLSLFMix                  = 46
	GLSLIMix                  = 47
	GLSLStep                  = 48
	GLSLSmoothStep            = 49
	GLSLFma                   = 50
	GLSLFrexp                 = 51
	GLSLFrexpStruct           = 52
	GLSLLdexp                 = 53
	GLSLPackSnorm4x8          = 54
	GLSLPackUnorm4x8          = 55
	GLSLPackSnorm2x16         = 56
	GLSLPackUnorm2x16         = 57
	GLSLPackHalf2x16          = 58
	GLSLPackDouble2x32        = 59
	GLSLUnpackSnorm2x16       = 60
	GLSLUnpackUnorm2x16       = 61
	GLSLUnpackHalf2x16        = 62
	GLSLUnpackSnorm4x8        = 63
	GLSLUnpackUnorm4x8        = 64
	GLSLUnpackDouble2x32      = 65
	GLSLLength                = 66
	GLSLDistance              = 67
	GLSLCross                 = 68
	GLSLNormalize             = 69
	GLSLFaceForward           = 70
	GLSLReflect               = 71
	GLSLRefract               = 72
	GLSLFindILsb              = 73
	GLSLFindSMsb              = 74
	GLSLFindUMsb              = 75
	GLSLInterpolateAtCentroid = 76
	GLSLInterpolateAtSample   = 77
	GLSLInterpolateAtOffset   = 78
	GLSLNMin                  = 79
	GLSLNMax                  = 80
	GLSLNClamp                = 81
)

// The GLSL min/max: the spec's formulas, with a NaN operand giving the other.
func glslFMin(x, y float64) float64 {
	if math.IsNaN(x) {
		return y
	}
	if math.IsNaN(y) || !(y < x) {
		return x
	}
	return y
}

func glslFMax(x, y float64) float64 {
	if math.IsNaN(x) {
		return y
	}
	if math.IsNaN(y) || !(x < y) {
		return x
	}
	return y
}

func fsign(x float64) float64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return x // ±0 and NaN
}

func smoothstep(e0, e1, x float64, w uint8) float64 {
	// Computed at the operand precision step by step would only lose accuracy;
	// float64 keeps it within Vulkan's "inherited" bound.
	t := (x - e0) / (e1 - e0)
	t = math.Max(0, math.Min(1, t))
	return t * t * (3 - 2*t)
}

// GLSL evaluates one GLSL.std.450 instruction (op is its number) for one
// lane. res is the result type (for ModfStruct/FrexpStruct: the type of
// member 0; member 1's value is out2, a float of res's type for ModfStruct
// and 32-bit integers for FrexpStruct). For Modf and Frexp the pointer
// operand is omitted from args and out2 is the value to store through it.
// Wrong operand counts or types, unknown numbers, and instructions not
// defined for compute (InterpolateAt*, IMix) are errors, never panics.
func GLSL(op uint32, res Type, args []Arg) (out, out2 Value, err error) {
	c := ctx{setGLSL, op}
	switch op {
	case GLSLRound, GLSLRoundEven:
		out, err = c.fun1(res, args, func(x float64) float64 { return math.RoundToEven(x) })
	case GLSLTrunc:
		out, err = c.fun1(res, args, func(x float64) float64 { return math.Trunc(x) })
	case GLSLFAbs:
		out, err = c.bits1(res, args, Float, func(x uint64, w uint8) uint64 { return x &^ (1 << (w - 1)) })
	case GLSLSAbs:
		out, err = c.bits1(res, args, Int, func(x uint64, w uint8) uint64 {
			if v := sext(x, w); v < 0 {
				return uint64(-v)
			}
			return x
		})
	case GLSLFSign:
		out, err = c.fun1(res, args, fsign)
	case GLSLSSign:
		out, err = c.bits1(res, args, Int, func(x uint64, w uint8) uint64 {
			v := sext(x, w)
			switch {
			case v > 0:
				return 1
			case v < 0:
				return ^uint64(0)
			}
			return 0
		})
	case GLSLFloor:
		out, err = c.fun1(res, args, func(x float64) float64 { return math.Floor(x) })
	case GLSLCeil:
		out, err = c.fun1(res, args, func(x float64) float64 { return math.Ceil(x) })
	case GLSLFract:
		// x - floor(x) is exact in float64 for float16/float32 operands and
		// is rounded once to the result (so a tiny negative x gives 1.0, as the
		// spec's "x - floor(x)" does at that precision).
		out, err = c.fun1(res, args, func(x float64) float64 { return x - math.Floor(x) })
	case GLSLRadians:
		out, err = c.fun1(res, args, func(x float64) float64 { return x * (math.Pi / 180) })
	case GLSLDegrees:
		out, err = c.fun1(res, args, func(x float64) float64 { return x * (180 / math.Pi) })
	case GLSLSin:
		out, err = c.fun1(res, args, func(x float64) float64 { return math.Sin(x) })
	case GLSLCos:
		out, err = c.fun1(res, args, func(x float64) float64 { return math.Cos(x) })
	case GLSLTan:
		out, err = c.fun1(res, args, func(x float64) float64 { return math.Tan(x) })
	case GLSLAsin:
		out, err = c.fun1(res, args, func(x float64) float64 { return math.Asin(x) })
	case GLSLAcos:
		out, err = c.fun1(res, args, func(x float64) float64 { return acos(x) })
	case GLSLAtan:
		out, err = c.fun1(res, args, func(x float64) float64 { return math.Atan(x) })
	case GLSLSinh:
		out, err = c.fun1(res, args, func(x float64) float64 { return math.Sinh(x) })
	case GLSLCosh:
		out, err = c.fun1(res, args, func(x float64) float64 { return math.Cosh(x) })
	case GLSLTanh:
		out, err = c.fun1(res, args, func(x float64) float64 { return math.Tanh(x) })
	case GLSLAsinh:
		out, err = c.fun1(res, args, func(x float64) float64 { return math.Asinh(x) })
	case GLSLAcosh:
		out, err = c.fun1(res, args, func(x float64) float64 { return math.Acosh(x) })
	case GLSLAtanh:
		out, err = c.fun1(res, args, func(x float64) float64 { return math.Atanh(x) })
	case GLSLAtan2:
		out, err = c.fun2(res, args, func(y, x float64) float64 { return math.Atan2(y, x) })
	case GLSLPow:
		out, err = c.fun2(res, args, func(x, y float64) float64 {
			if x < 0 {
				return nan
			}
			return pow(math.Abs(x), y) // -0 is treated as +0
		})
	case GLSLExp:
		out, err = c.fun1(res, args, func(x float64) float64 { return math.Exp(x) })
	case GLSLLog:
		out, err = c.fun1(res, args, func(x float64) float64 { return math.Log(x) })
	case GLSLExp2:
		out, err = c.fun1(res, args, func(x float64) float64 { return math.Exp2(x) })
	case GLSLLog2:
		out, err = c.fun1(res, args, func(x float64) float64 { return math.Log2(x) })
	case GLSLSqrt:
		out, err = c.fun1(res, args, func(x float64) float64 { return math.Sqrt(x) })
	case GLSLInverseSqrt:
		out, err = c.fun1(res, args, func(x float64) float64 { return 1 / math.Sqrt(x) })
	case GLSLDeterminant:
		out, err = c.determinant(res, args)
	case GLSLMatrixInverse:
		out, err = c.inverse(res, args)
	case GLSLModf, GLSLModfStruct:
		if err = c.checkSame(res, args, 1, Float); err != nil {
			return
		}
		w := res.Width
		for i := range res.n() {
			f, whole := modf(ToFloat64(args[0].at(i), w))
			out[i], out2[i] = FromFloat64(f, w), FromFloat64(whole, w)
		}
	case GLSLFMin:
		out, err = c.fun2(res, args, func(x, y float64) float64 { return glslFMin(x, y) })
	case GLSLFMax:
		out, err = c.fun2(res, args, func(x, y float64) float64 { return glslFMax(x, y) })
	case GLSLUMin:
		out, err = c.bits2(res, args, Uint, func(x, y uint64, w uint8) uint64 { return min(x&mask(w), y&mask(w)) })
	case GLSLUMax:
		out, err = c.bits2(res, args, Uint, func(x, y uint64, w uint8) uint64 { return max(x&mask(w), y&mask(w)) })
	case GLSLSMin:
		out, err = c.bits2(res, args, Int, func(x, y uint64, w uint8) uint64 { return uint64(min(sext(x, w), sext(y, w))) })
	case GLSLSMax:
		out, err = c.bits2(res, args, Int, func(x, y uint64, w uint8) uint64 { return uint64(max(sext(x, w), sext(y, w))) })
	case GLSLFClamp:
		out, err = c.fun3(res, args, func(x, lo, hi float64, _ uint8) float64 { return glslFMin(glslFMax(x, lo), hi) })
	case GLSLUClamp:
		out, err = c.bits3(res, args, Uint, func(x, lo, hi uint64, w uint8) uint64 {
			return min(max(x&mask(w), lo&mask(w)), hi&mask(w))
		})
	case GLSLSClamp:
		out, err = c.bits3(res, args, Int, func(x, lo, hi uint64, w uint8) uint64 {
			return uint64(min(max(sext(x, w), sext(lo, w)), sext(hi, w)))
		})
	case GLSLFMix:
		out, err = c.fun3(res, args, func(x, y, a float64, _ uint8) float64 { return x*(1-a) + y*a })
	case GLSLIMix:
		err = errors.New("Extended instruction GLSLstd450IMix is not supported") // spirv-val's wording
	case GLSLStep:
		out, err = c.fun2(res, args, func(edge, x float64) float64 {
			if x < edge {
				return 0
			}
			return 1
		})
	case GLSLSmoothStep:
		out, err = c.fun3(res, args, smoothstep)
	case GLSLFma:
		out, err = c.fun3(res, args, fma)
	case GLSLFrexp, GLSLFrexpStruct:
		if err = c.checkSame(res, args, 1, Float); err != nil {
			return
		}
		w := res.Width
		for i := range res.n() {
			f, e := frexpW(ToFloat64(args[0].at(i), w))
			out[i], out2[i] = FromFloat64(f, w), uint64(uint32(e))
		}
	case GLSLLdexp:
		if err = c.floatWithInt(res, args); err != nil {
			return
		}
		w := res.Width
		for i := range res.n() {
			k := sext(args[1].at(i), args[1].T.Width)
			out[i] = FromFloat64(ldexpW(ToFloat64(args[0].at(i), w), k), w)
		}
	case GLSLPackSnorm4x8, GLSLPackUnorm4x8, GLSLPackSnorm2x16, GLSLPackUnorm2x16:
		out, err = c.packNorm(op, res, args)
	case GLSLPackHalf2x16:
		if err = c.pack(res, args, 32, Float, 32, 2); err != nil {
			return
		}
		out[0] = FromFloat64(ToFloat64(args[0].V[0], 32), 16) | FromFloat64(ToFloat64(args[0].V[1], 32), 16)<<16
	case GLSLPackDouble2x32:
		if err = c.pack(res, args, 64, Int, 32, 2); err != nil {
			return
		}
		out[0] = args[0].V[0]&0xFFFFFFFF | args[0].V[1]<<32
	case GLSLUnpackSnorm2x16, GLSLUnpackUnorm2x16, GLSLUnpackSnorm4x8, GLSLUnpackUnorm4x8, GLSLUnpackHalf2x16:
		out, err = c.unpack(op, res, args)
	case GLSLUnpackDouble2x32:
		if err = c.checkN(args, 1); err != nil {
			return
		}
		if !validType(res, Int) || res.Width != 32 || res.n() != 2 {
			err = c.errf("result type %v is not a 2-component 32-bit integer vector", res)
			return
		}
		if t := args[0].T; t.Kind != Float || t.Width != 64 || t.n() != 1 {
			err = c.errf("operand 1 has type %v, expected a 64-bit float scalar", t)
			return
		}
		out[0], out[1] = args[0].V[0]&0xFFFFFFFF, args[0].V[0]>>32
	case GLSLLength, GLSLDistance, GLSLCross, GLSLNormalize, GLSLFaceForward, GLSLReflect, GLSLRefract:
		out, err = c.geometric(setGLSL, op, res, args)
	case GLSLFindILsb:
		out, err = c.bits1(res, args, Int, func(x uint64, w uint8) uint64 {
			x &= mask(w)
			if x == 0 {
				return ^uint64(0)
			}
			return uint64(bits.TrailingZeros64(x))
		})
	case GLSLFindSMsb:
		out, err = c.bits1(res, args, Int, func(x uint64, w uint8) uint64 {
			if sext(x, w) < 0 {
				x = ^x
			}
			x &= mask(w)
			return uint64(bits.Len64(x) - 1) // -1 for 0 and -1
		})
	case GLSLFindUMsb:
		out, err = c.bits1(res, args, Int, func(x uint64, w uint8) uint64 {
			return uint64(bits.Len64(x&mask(w)) - 1)
		})
	case GLSLInterpolateAtCentroid, GLSLInterpolateAtSample, GLSLInterpolateAtOffset:
		err = errors.New(c.s.opName(op) + " requires Fragment execution model") // spirv-val's wording
	case GLSLNMin:
		out, err = c.fun2(res, args, func(x, y float64) float64 { return glslFMin(x, y) })
	case GLSLNMax:
		out, err = c.fun2(res, args, func(x, y float64) float64 { return glslFMax(x, y) })
	case GLSLNClamp:
		out, err = c.fun3(res, args, func(x, lo, hi float64, _ uint8) float64 { return glslFMin(glslFMax(x, lo), hi) })
	default:
		err = c.errf("%w %d", ErrUnknownOp, op)
	}
	if err != nil {
		return Value{}, Value{}, err
	}
	return out, out2, nil
}

// pack checks a scalar result of kind class rk, width rw and one operand of
// kind ak, width aw, n components.
func (c ctx) pack(res Type, args []Arg, rw uint8, ak Kind, aw uint8, n int) error {
	if err := c.checkN(args, 1); err != nil {
		return err
	}
	// Packing floats gives an integer; packing integers (PackDouble2x32) a float.
	rk := Int
	if ak != Float {
		rk = Float
	}
	if res.n() != 1 || res.Width != rw || !validType(res, rk) {
		return c.errf("result type %v, expected a %d-bit %s scalar", res, rw, map[Kind]string{Int: "integer", Float: "float"}[rk])
	}
	if t := args[0].T; !validType(t, ak) || t.Width != aw || t.n() != n {
		return c.errf("operand 1 has type %v, expected %d components of %d-bit %s", t, n, aw, ak)
	}
	return nil
}

func (c ctx) packNorm(op uint32, res Type, args []Arg) (out Value, err error) {
	n, bitsPer, signed := 4, uint(8), op == GLSLPackSnorm4x8
	if op == GLSLPackSnorm2x16 || op == GLSLPackUnorm2x16 {
		n, bitsPer, signed = 2, 16, op == GLSLPackSnorm2x16
	}
	if err = c.pack(res, args, 32, Float, 32, n); err != nil {
		return
	}
	scale := float64(uint64(1)<<bitsPer - 1)
	lo := 0.0
	if signed {
		scale = float64(uint64(1)<<(bitsPer-1) - 1)
		lo = -1
	}
	var r uint64
	for i := range n {
		x := ToFloat64(args[0].V[i], 32)
		var q int64
		if !math.IsNaN(x) {
			q = int64(math.RoundToEven(math.Max(lo, math.Min(1, x)) * scale))
		}
		r |= (uint64(q) & (1<<bitsPer - 1)) << (uint(i) * bitsPer)
	}
	out[0] = r
	return
}

func (c ctx) unpack(op uint32, res Type, args []Arg) (out Value, err error) {
	if err = c.checkN(args, 1); err != nil {
		return
	}
	n, bitsPer := 2, uint(16)
	if op == GLSLUnpackSnorm4x8 || op == GLSLUnpackUnorm4x8 {
		n, bitsPer = 4, 8
	}
	if res.Kind != Float || res.Width != 32 || res.n() != n {
		return out, c.errf("result type %v, expected %d components of 32-bit float", res, n)
	}
	if t := args[0].T; !validType(t, Int) || t.Width != 32 || t.n() != 1 {
		return out, c.errf("operand 1 has type %v, expected a 32-bit integer scalar", t)
	}
	p := args[0].V[0]
	for i := range n {
		f := p >> (uint(i) * bitsPer) & (1<<bitsPer - 1)
		var x float64
		switch op {
		case GLSLUnpackHalf2x16:
			x = ToFloat64(f, 16)
		case GLSLUnpackSnorm2x16, GLSLUnpackSnorm4x8:
			x = math.Max(-1, float64(sext(f, uint8(bitsPer)))/float64(uint64(1)<<(bitsPer-1)-1))
		default:
			x = float64(f) / float64(uint64(1)<<bitsPer-1)
		}
		out[i] = FromFloat64(x, 32)
	}
	return
}

// matrixN checks a square float matrix operand flattened to N*N components.
func (c ctx) matrixN(args []Arg) (int, error) {
	if err := c.checkN(args, 1); err != nil {
		return 0, err
	}
	t := args[0].T
	if !validType(t, Float) {
		return 0, c.errf("operand 1 has type %v, expected a float matrix", t)
	}
	switch t.n() {
	case 4:
		return 2, nil
	case 9:
		return 3, nil
	case 16:
		return 4, nil
	}
	return 0, c.errf("operand 1 has %d components, expected a 2x2, 3x3 or 4x4 matrix (4, 9 or 16)", t.n())
}

func loadMatrix(a *Arg, n int) (m [4][4]float64) {
	for col := range n {
		for row := range n {
			m[row][col] = ToFloat64(a.V[col*n+row], a.T.Width)
		}
	}
	return
}

func det2(m *[4][4]float64) float64 { return m[0][0]*m[1][1] - m[0][1]*m[1][0] }

func det3(m *[4][4]float64) float64 {
	return m[0][0]*(m[1][1]*m[2][2]-m[1][2]*m[2][1]) -
		m[0][1]*(m[1][0]*m[2][2]-m[1][2]*m[2][0]) +
		m[0][2]*(m[1][0]*m[2][1]-m[1][1]*m[2][0])
}

// det is not recursive, so the minors stay on the stack.
func det(m *[4][4]float64, n int) float64 {
	switch n {
	case 2:
		return det2(m)
	case 3:
		return det3(m)
	}
	s := 0.0
	for j := range 4 {
		var sub [4][4]float64
		minor(m, 4, 0, j, &sub)
		d := m[0][j] * det3(&sub)
		if j%2 == 1 {
			d = -d
		}
		s += d
	}
	return s
}

// minor writes m without row r and column k into sub.
func minor(m *[4][4]float64, n, r, k int, sub *[4][4]float64) {
	ri := 0
	for i := range n {
		if i == r {
			continue
		}
		ci := 0
		for j := range n {
			if j == k {
				continue
			}
			sub[ri][ci] = m[i][j]
			ci++
		}
		ri++
	}
}

func (c ctx) determinant(res Type, args []Arg) (out Value, err error) {
	n, err := c.matrixN(args)
	if err != nil {
		return
	}
	if res.Kind != Float || res.Width != args[0].T.Width || res.n() != 1 {
		return out, c.errf("result type %v, expected the matrix's float scalar", res)
	}
	m := loadMatrix(&args[0], n)
	out[0] = FromFloat64(det(&m, n), res.Width)
	return
}

func (c ctx) inverse(res Type, args []Arg) (out Value, err error) {
	n, err := c.matrixN(args)
	if err != nil {
		return
	}
	if res != args[0].T {
		return out, c.errf("result type %v differs from the operand's %v", res, args[0].T)
	}
	m := loadMatrix(&args[0], n)
	d := det(&m, n)
	for row := range n {
		for col := range n {
			// inverse[row][col] = cofactor(col,row) / det
			var cof float64
			if n == 2 {
				cof = m[1-col][1-row]
			} else {
				var sub [4][4]float64
				minor(&m, n, col, row, &sub)
				if n == 3 {
					cof = det2(&sub)
				} else {
					cof = det3(&sub)
				}
			}
			if (row+col)%2 == 1 {
				cof = -cof
			}
			out[col*n+row] = FromFloat64(cof/d, res.Width)
		}
	}
	return
}

// geometric evaluates the vector operations shared by both sets.
func (c ctx) geometric(s set, op uint32, res Type, args []Arg) (out Value, err error) {
	var a, b, e [16]float64
	nargs := 1
	switch {
	case s == setGLSL && (op == GLSLDistance || op == GLSLCross || op == GLSLReflect),
		s == setCL && (op == CLDistance || op == CLFastDistance || op == CLCross):
		nargs = 2
	case s == setGLSL && (op == GLSLFaceForward || op == GLSLRefract):
		nargs = 3
	}
	if err = c.checkN(args, nargs); err != nil {
		return
	}
	if err = c.checkRes(res, Float); err != nil {
		return
	}
	if !validType(args[0].T, Float) || args[0].T.Width != res.Width {
		return out, c.errf("operand 1 has type %v, expected %d-bit float", args[0].T, res.Width)
	}
	n := args[0].T.n()
	w := res.Width
	for i := 1; i < nargs; i++ {
		t := args[i].T
		if !validType(t, Float) {
			return out, c.errf("operand %d has type %v, expected a float type", i+1, t)
		}
		scalarEta := s == setGLSL && op == GLSLRefract && i == 2
		if scalarEta {
			if t.n() != 1 {
				return out, c.errf("operand 3 (eta) has type %v, expected a float scalar", t)
			}
			continue
		}
		if t.Width != w || t.n() != n {
			return out, c.errf("operand %d has type %v, expected %v", i+1, t, args[0].T)
		}
	}
	load := func(dst *[16]float64, arg *Arg) {
		for i := range n {
			dst[i] = ToFloat64(arg.V[i], arg.T.Width)
		}
	}
	load(&a, &args[0])
	if nargs > 1 {
		load(&b, &args[1])
	}
	wantVec := func() error {
		if res.n() != n {
			return c.errf("result type %v, expected %d components", res, n)
		}
		return nil
	}
	wantScalar := func() error {
		if res.n() != 1 {
			return c.errf("result type %v, expected a scalar", res)
		}
		return nil
	}
	switch {
	case s == setGLSL && op == GLSLLength, s == setCL && (op == CLLength || op == CLFastLength):
		if err = wantScalar(); err != nil {
			return
		}
		out[0] = FromFloat64(length(&a, n), w)
	case s == setGLSL && op == GLSLDistance, s == setCL && (op == CLDistance || op == CLFastDistance):
		if err = wantScalar(); err != nil {
			return
		}
		for i := range n {
			e[i] = a[i] - b[i]
		}
		out[0] = FromFloat64(length(&e, n), w)
	case s == setGLSL && op == GLSLCross, s == setCL && op == CLCross:
		if n != 3 && !(s == setCL && n == 4) {
			return out, c.errf("operands have %d components, expected 3", n)
		}
		if err = wantVec(); err != nil {
			return
		}
		out[0] = FromFloat64(a[1]*b[2]-b[1]*a[2], w)
		out[1] = FromFloat64(a[2]*b[0]-b[2]*a[0], w)
		out[2] = FromFloat64(a[0]*b[1]-b[0]*a[1], w)
	case s == setGLSL && op == GLSLNormalize, s == setCL && (op == CLNormalize || op == CLFastNormalize):
		if err = wantVec(); err != nil {
			return
		}
		if s == setCL {
			allZero, anyInf, anyNaN := true, false, false
			for i := range n {
				allZero = allZero && a[i] == 0
				anyInf = anyInf || math.IsInf(a[i], 0)
				anyNaN = anyNaN || math.IsNaN(a[i])
			}
			switch {
			case anyNaN:
				for i := range n {
					out[i] = FromFloat64(nan, w)
				}
				return
			case allZero:
				for i := range n {
					out[i] = args[0].V[i] & mask(w) // the zeros, signs kept
				}
				return
			case anyInf:
				for i := range n {
					if math.IsInf(a[i], 0) {
						a[i] = math.Copysign(1, a[i])
					} else {
						a[i] = math.Copysign(0, a[i])
					}
				}
			}
		}
		l := length(&a, n)
		for i := range n {
			out[i] = FromFloat64(a[i]/l, w)
		}
	case op == GLSLFaceForward:
		if err = wantVec(); err != nil {
			return
		}
		load(&e, &args[2]) // Nref
		neg := !(dot(&e, &b, n) < 0)
		for i := range n {
			out[i] = args[0].V[i] & mask(w)
			if neg {
				out[i] ^= 1 << (w - 1)
			}
		}
	case op == GLSLReflect:
		if err = wantVec(); err != nil {
			return
		}
		d := dot(&b, &a, n) // dot(N, I)
		for i := range n {
			out[i] = FromFloat64(a[i]-2*d*b[i], w)
		}
	case op == GLSLRefract:
		if err = wantVec(); err != nil {
			return
		}
		eta := ToFloat64(args[2].V[0], args[2].T.Width)
		d := dot(&b, &a, n)
		k := 1 - eta*eta*(1-d*d)
		if k < 0 {
			return // the zero vector
		}
		f := eta*d + math.Sqrt(k)
		for i := range n {
			out[i] = FromFloat64(eta*a[i]-f*b[i], w)
		}
	}
	return
}
