package extinst

import (
	"errors"
	"math"
	"testing"
)

var (
	inf  = math.Inf(1)
	ninf = math.Inf(-1)
	nz   = math.Copysign(0, -1)
	qnan = math.NaN()
)

// fcase is a scalar float case: operands, the exact expected result and,
// for two-result ops, the second result (float) .
type fcase struct {
	op    uint32
	w     uint8
	in    []float64
	want  float64
	want2 float64
}

var glslExact = []fcase{
	// Round is round-half-even (documented choice); RoundEven the same.
	{op: GLSLRound, w: 32, in: []float64{2.5}, want: 2},
	{op: GLSLRound, w: 32, in: []float64{3.5}, want: 4},
	{op: GLSLRound, w: 32, in: []float64{-2.5}, want: -2},
	{op: GLSLRound, w: 32, in: []float64{-0.5}, want: nz},
	{op: GLSLRound, w: 16, in: []float64{0.5}, want: 0},
	{op: GLSLRoundEven, w: 64, in: []float64{-3.5}, want: -4},
	{op: GLSLRoundEven, w: 32, in: []float64{inf}, want: inf},
	{op: GLSLTrunc, w: 32, in: []float64{-1.7}, want: -1},
	{op: GLSLTrunc, w: 32, in: []float64{-0.2}, want: nz},
	{op: GLSLFAbs, w: 32, in: []float64{nz}, want: 0},
	{op: GLSLFAbs, w: 16, in: []float64{ninf}, want: inf},
	{op: GLSLFAbs, w: 64, in: []float64{-5e-324}, want: 5e-324},
	{op: GLSLFSign, w: 32, in: []float64{-3}, want: -1},
	{op: GLSLFSign, w: 32, in: []float64{1e-45}, want: 1},
	{op: GLSLFSign, w: 32, in: []float64{nz}, want: nz},
	{op: GLSLFSign, w: 16, in: []float64{0}, want: 0},
	{op: GLSLFSign, w: 64, in: []float64{qnan}, want: qnan},
	{op: GLSLFloor, w: 32, in: []float64{-0.5}, want: -1},
	{op: GLSLFloor, w: 32, in: []float64{nz}, want: nz},
	{op: GLSLCeil, w: 32, in: []float64{-0.5}, want: nz},
	{op: GLSLCeil, w: 16, in: []float64{1.001}, want: 2},
	{op: GLSLFract, w: 32, in: []float64{-0.25}, want: 0.75},
	{op: GLSLFract, w: 32, in: []float64{-1e-30}, want: 1}, // x - floor(x) rounded at float32
	{op: GLSLFract, w: 64, in: []float64{2.75}, want: 0.75},
	{op: GLSLFract, w: 32, in: []float64{inf}, want: qnan},
	{op: GLSLSqrt, w: 32, in: []float64{-1}, want: qnan},
	{op: GLSLSqrt, w: 32, in: []float64{nz}, want: nz},
	{op: GLSLSqrt, w: 64, in: []float64{2}, want: math.Sqrt2},
	{op: GLSLInverseSqrt, w: 32, in: []float64{0}, want: inf},
	{op: GLSLInverseSqrt, w: 32, in: []float64{4}, want: 0.5},
	{op: GLSLLog, w: 32, in: []float64{0}, want: ninf},
	{op: GLSLLog, w: 32, in: []float64{-1}, want: qnan},
	{op: GLSLLog2, w: 16, in: []float64{8}, want: 3},
	{op: GLSLExp2, w: 32, in: []float64{-149}, want: 0x1p-149},
	{op: GLSLExp2, w: 32, in: []float64{128}, want: inf},
	{op: GLSLExp, w: 16, in: []float64{12}, want: inf},
	{op: GLSLAtan2, w: 32, in: []float64{0, nz}, want: float64(float32(math.Pi))},
	{op: GLSLAtan2, w: 32, in: []float64{nz, 0}, want: nz},
	{op: GLSLAcosh, w: 32, in: []float64{0.5}, want: qnan},
	{op: GLSLAtanh, w: 32, in: []float64{1}, want: inf},
	{op: GLSLAsin, w: 32, in: []float64{1.5}, want: qnan},
	{op: GLSLPow, w: 32, in: []float64{-2, 2}, want: qnan},
	{op: GLSLPow, w: 32, in: []float64{2, 10}, want: 1024},
	{op: GLSLPow, w: 32, in: []float64{nz, 3}, want: 0},
	{op: GLSLPow, w: 32, in: []float64{0, -1}, want: inf},
	{op: GLSLFMin, w: 32, in: []float64{1, 2}, want: 1},
	{op: GLSLFMin, w: 32, in: []float64{qnan, 2}, want: 2},
	{op: GLSLFMin, w: 32, in: []float64{2, qnan}, want: 2},
	{op: GLSLFMin, w: 32, in: []float64{0, nz}, want: 0},
	{op: GLSLFMin, w: 32, in: []float64{nz, 0}, want: nz},
	{op: GLSLFMax, w: 16, in: []float64{ninf, -1}, want: -1},
	{op: GLSLFMax, w: 64, in: []float64{qnan, qnan}, want: qnan},
	{op: GLSLNMin, w: 32, in: []float64{qnan, -7}, want: -7},
	{op: GLSLNMax, w: 32, in: []float64{5, qnan}, want: 5},
	{op: GLSLNMax, w: 32, in: []float64{qnan, qnan}, want: qnan},
	{op: GLSLFClamp, w: 32, in: []float64{5, 0, 1}, want: 1},
	{op: GLSLFClamp, w: 32, in: []float64{-5, 0, 1}, want: 0},
	{op: GLSLFClamp, w: 32, in: []float64{0.5, 2, 1}, want: 1}, // minVal > maxVal: maxVal
	{op: GLSLNClamp, w: 32, in: []float64{qnan, 0, 1}, want: 0},
	{op: GLSLNClamp, w: 32, in: []float64{0.5, qnan, 1}, want: 0.5},
	{op: GLSLFMix, w: 32, in: []float64{1, 3, 0.5}, want: 2},
	{op: GLSLFMix, w: 32, in: []float64{1, 3, 1}, want: 3},
	{op: GLSLFMix, w: 32, in: []float64{1, 3, 0}, want: 1},
	{op: GLSLStep, w: 32, in: []float64{1, 1}, want: 1},
	{op: GLSLStep, w: 32, in: []float64{1, 0.999}, want: 0},
	{op: GLSLStep, w: 32, in: []float64{1, qnan}, want: 1},
	{op: GLSLSmoothStep, w: 32, in: []float64{0, 1, 0.5}, want: 0.5},
	{op: GLSLSmoothStep, w: 32, in: []float64{0, 1, -2}, want: 0},
	{op: GLSLSmoothStep, w: 32, in: []float64{0, 1, 2}, want: 1},
	// Fma is fused: 1+2^-23 squared minus (1+2^-22) leaves 2^-46, lost by a*b+c.
	{op: GLSLFma, w: 32, in: []float64{1 + 0x1p-23, 1 + 0x1p-23, -(1 + 0x1p-22)}, want: 0x1p-46},
	{op: GLSLFma, w: 64, in: []float64{1 + 0x1p-52, 1 + 0x1p-52, -(1 + 0x1p-51)}, want: 0x1p-104},
	{op: GLSLFma, w: 16, in: []float64{1 + 0x1p-10, 1 + 0x1p-10, -(1 + 0x1p-9)}, want: 0x1p-20},
	{op: GLSLFma, w: 32, in: []float64{inf, 0, 1}, want: qnan},
	{op: GLSLFma, w: 32, in: []float64{0x1p100, 0x1p100, 1}, want: inf},
	// Double rounding trap: a*b + c exactly half an ulp above a float32 tie.
	{op: GLSLFma, w: 32, in: []float64{1 + 0x1p-12, 1 + 0x1p-12, 0x1p-60}, want: float64(float32(1 + 0x1p-11 + 0x1p-23))},
	{op: GLSLRadians, w: 32, in: []float64{180}, want: float64(float32(math.Pi))},
	{op: GLSLDegrees, w: 64, in: []float64{math.Pi}, want: 180},
	{op: GLSLLdexp, w: 32, in: []float64{0.75, 3}, want: 6},
	{op: GLSLLdexp, w: 32, in: []float64{1, -149}, want: 0x1p-149},
	{op: GLSLLdexp, w: 32, in: []float64{1, -150}, want: 0},          // tie to even: 0
	{op: GLSLLdexp, w: 32, in: []float64{1.5, -150}, want: 0x1p-149}, // above the tie
	{op: GLSLLdexp, w: 32, in: []float64{1, 128}, want: inf},         // overflow
	{op: GLSLLdexp, w: 64, in: []float64{1, -1075}, want: 0},         // tie to even
	{op: GLSLLdexp, w: 64, in: []float64{1.5, -1075}, want: 5e-324},  // rounds up
	{op: GLSLLdexp, w: 64, in: []float64{0x1p-1074, 2098}, want: inf},
	{op: GLSLLdexp, w: 16, in: []float64{1, -24}, want: 0x1p-24},
	{op: GLSLLdexp, w: 16, in: []float64{1, 16}, want: inf},
}

func TestGLSLExact(t *testing.T) {
	for _, c := range glslExact {
		args := make([]Arg, len(c.in))
		for i, x := range c.in {
			args[i] = fa(c.w, x)
		}
		if c.op == GLSLLdexp {
			args[1] = ia(32, int64(c.in[1]))
		}
		out, _, err := GLSL(c.op, Type{Float, c.w, 1}, args)
		if err != nil {
			t.Errorf("%s%v: %v", setGLSL.opName(c.op), c.in, err)
			continue
		}
		got := ToFloat64(out[0], c.w)
		want := roundTo(c.want, c.w)
		if !sameFloat(got, want) {
			t.Errorf("%s f%d %v = %v, want %v", setGLSL.opName(c.op), c.w, c.in, got, want)
		}
	}
}

func TestGLSLInteger(t *testing.T) {
	cases := []struct {
		op   uint32
		w    uint8
		in   []int64
		want int64
	}{
		{GLSLSAbs, 32, []int64{-5}, 5},
		{GLSLSAbs, 32, []int64{math.MinInt32}, math.MinInt32}, // wraps
		{GLSLSAbs, 8, []int64{-128}, -128},
		{GLSLSAbs, 64, []int64{math.MinInt64}, math.MinInt64},
		{GLSLSSign, 32, []int64{-7}, -1},
		{GLSLSSign, 16, []int64{0}, 0},
		{GLSLSSign, 64, []int64{math.MaxInt64}, 1},
		{GLSLUMin, 32, []int64{-1, 3}, 3}, // 0xFFFFFFFF is large unsigned
		{GLSLUMax, 32, []int64{-1, 3}, -1},
		{GLSLSMin, 32, []int64{-1, 3}, -1},
		{GLSLSMax, 8, []int64{-128, 127}, 127},
		{GLSLUClamp, 32, []int64{10, 2, 5}, 5},
		{GLSLUClamp, 32, []int64{1, 2, 5}, 2},
		{GLSLUClamp, 32, []int64{3, 6, 5}, 5}, // min > max: max
		{GLSLSClamp, 32, []int64{-10, -2, 5}, -2},
		{GLSLSClamp, 64, []int64{math.MaxInt64, -2, 5}, 5},
		{GLSLFindILsb, 32, []int64{0}, -1},
		{GLSLFindILsb, 32, []int64{0x80000000}, 31},
		{GLSLFindILsb, 32, []int64{12}, 2},
		{GLSLFindSMsb, 32, []int64{0}, -1},
		{GLSLFindSMsb, 32, []int64{-1}, -1},
		{GLSLFindSMsb, 32, []int64{1}, 0},
		{GLSLFindSMsb, 32, []int64{0x7FFFFFFF}, 30},
		{GLSLFindSMsb, 32, []int64{-2}, 0},
		{GLSLFindSMsb, 32, []int64{math.MinInt32}, 30},
		{GLSLFindUMsb, 32, []int64{0}, -1},
		{GLSLFindUMsb, 32, []int64{-1}, 31},
		{GLSLFindUMsb, 32, []int64{256}, 8},
		{GLSLFindUMsb, 64, []int64{-1}, 63},
	}
	for _, c := range cases {
		args := make([]Arg, len(c.in))
		for i, x := range c.in {
			args[i] = ia(c.w, x)
		}
		out, _ := mustGLSL(t, c.op, it(c.w, 1), args...)
		if got := sext(out[0], c.w); got != c.want {
			t.Errorf("%s i%d %v = %d, want %d", setGLSL.opName(c.op), c.w, c.in, got, c.want)
		}
		if out[0]&^mask(c.w) != 0 {
			t.Errorf("%s i%d %v: result %#x not zero-extended", setGLSL.opName(c.op), c.w, c.in, out[0])
		}
	}
}

func TestGLSLModfFrexp(t *testing.T) {
	cases := []struct {
		x           float64
		frac, whole float64
	}{
		{3.75, 0.75, 3},
		{-3.75, -0.75, -3},
		{-3, nz, -3},
		{nz, nz, nz},
		{inf, 0, inf},
		{ninf, nz, ninf},
		{qnan, qnan, qnan},
	}
	for _, op := range []uint32{GLSLModf, GLSLModfStruct} {
		for _, w := range []uint8{16, 32, 64} {
			for _, c := range cases {
				out, out2 := mustGLSL(t, op, f32t(1).withWidth(w), fa(w, c.x))
				if f, wh := ToFloat64(out[0], w), ToFloat64(out2[0], w); !sameFloat(f, c.frac) || !sameFloat(wh, c.whole) {
					t.Errorf("Modf f%d(%v) = %v, %v; want %v, %v", w, c.x, f, wh, c.frac, c.whole)
				}
			}
		}
	}
	fr := []struct {
		x   float64
		sig float64
		exp int32
	}{
		{8, 0.5, 4},
		{-3, -0.75, 2},
		{0, 0, 0},
		{nz, nz, 0},
		{0x1p-149, 0.5, -148}, // float32 denormal
		{inf, inf, 0},
		{qnan, qnan, 0},
	}
	for _, op := range []uint32{GLSLFrexp, GLSLFrexpStruct} {
		for _, c := range fr {
			out, out2 := mustGLSL(t, op, f32t(1), fa(32, c.x))
			if s, e := ToFloat64(out[0], 32), int32(uint32(out2[0])); !sameFloat(s, c.sig) || e != c.exp || out2[0]>>32 != 0 {
				t.Errorf("Frexp(%v) = %v, %d (%#x); want %v, %d", c.x, s, e, out2[0], c.sig, c.exp)
			}
		}
	}
	// float16 denormal and float64 denormal.
	out, out2 := mustGLSL(t, GLSLFrexp, f16t(1), fa(16, 0x1p-24))
	if ToFloat64(out[0], 16) != 0.5 || int32(uint32(out2[0])) != -23 {
		t.Errorf("Frexp f16 2^-24 = %v, %d", ToFloat64(out[0], 16), int32(uint32(out2[0])))
	}
	out, out2 = mustGLSL(t, GLSLFrexp, f64t(1), fa(64, 5e-324))
	if ToFloat64(out[0], 64) != 0.5 || int32(uint32(out2[0])) != -1073 {
		t.Errorf("Frexp f64 min denormal = %v, %d", ToFloat64(out[0], 64), int32(uint32(out2[0])))
	}
}

func (t Type) withWidth(w uint8) Type { t.Width = w; return t }

func TestGLSLPack(t *testing.T) {
	type pc struct {
		op   uint32
		in   []float64
		want uint64
	}
	cases := []pc{
		{GLSLPackSnorm4x8, []float64{1, -1, 0, 0.5}, 0x40_00_81_7F},
		{GLSLPackSnorm4x8, []float64{2, -2, qnan, -0.5}, 0xC0_00_81_7F},
		{GLSLPackSnorm4x8, []float64{-0.5, 1.0 / 127, 0, 0}, 0x01C0}, // -63.5 ties to even: -64
		{GLSLPackUnorm4x8, []float64{1, 0, 0.5, -1}, 0x00_80_00_FF},
		{GLSLPackUnorm4x8, []float64{0.4 / 255, 1.6 / 255, 2, qnan}, 0x00_FF_02_00},
		{GLSLPackSnorm2x16, []float64{1, -1}, 0x8001_7FFF},
		{GLSLPackSnorm2x16, []float64{-0.0, 0.5}, 0x4000_0000},
		{GLSLPackUnorm2x16, []float64{1, 0.5}, 0x8000_FFFF},
		{GLSLPackHalf2x16, []float64{1, -2}, 0xC000_3C00},
		{GLSLPackHalf2x16, []float64{65520, 1 + 0x1p-11}, 0x3C00_7C00}, // overflow to Inf; tie to even
		{GLSLPackHalf2x16, []float64{0x1p-25, nz}, 0x8000_0000},        // tie to zero
	}
	for _, c := range cases {
		out, _ := mustGLSL(t, c.op, ut(32, 1), fa(32, c.in...))
		if out[0] != c.want {
			t.Errorf("%s%v = %#x, want %#x", setGLSL.opName(c.op), c.in, out[0], c.want)
		}
	}
	out, _ := mustGLSL(t, GLSLPackDouble2x32, f64t(1), ua(32, 0x54442D18, 0x400921FB))
	if ToFloat64(out[0], 64) != math.Pi {
		t.Errorf("PackDouble2x32 = %#x", out[0])
	}
	out, _ = mustGLSL(t, GLSLUnpackDouble2x32, ut(32, 2), fa(64, math.Pi))
	if out[0] != 0x54442D18 || out[1] != 0x400921FB {
		t.Errorf("UnpackDouble2x32 = %#x %#x", out[0], out[1])
	}
	type uc struct {
		op   uint32
		in   uint64
		want []float64
	}
	ucases := []uc{
		{GLSLUnpackSnorm2x16, 0x8000_7FFF, []float64{1, -1}}, // -32768 clamps to -1
		{GLSLUnpackSnorm2x16, 0x0001_0000, []float64{0, 1.0 / 32767}},
		{GLSLUnpackUnorm2x16, 0xFFFF_0001, []float64{1.0 / 65535, 1}},
		{GLSLUnpackSnorm4x8, 0x80_81_7F_00, []float64{0, 1, -1, -1}},
		{GLSLUnpackUnorm4x8, 0xFF_80_01_00, []float64{0, 1.0 / 255, 128.0 / 255, 1}},
		{GLSLUnpackHalf2x16, 0x7C00_3555, []float64{float64(float32(ToFloat64(0x3555, 16))), inf}},
		{GLSLUnpackHalf2x16, 0x8001_0400, []float64{0x1p-14, -0x1p-24}},
	}
	for _, c := range ucases {
		out, _ := mustGLSL(t, c.op, f32t(uint8(len(c.want))), ua(32, c.in))
		for i, w := range c.want {
			if got := ToFloat64(out[i], 32); got != float64(float32(w)) {
				t.Errorf("%s(%#x)[%d] = %v, want %v", setGLSL.opName(c.op), c.in, i, got, float32(w))
			}
		}
	}
	// Pack/unpack round trip of every 16-bit snorm/unorm code.
	for v := range uint64(1 << 16) {
		for _, pair := range [][2]uint32{{GLSLUnpackSnorm2x16, GLSLPackSnorm2x16}, {GLSLUnpackUnorm2x16, GLSLPackUnorm2x16}} {
			u, _ := mustGLSL(t, pair[0], f32t(2), ua(32, v))
			p, _ := mustGLSL(t, pair[1], ut(32, 1), Arg{T: f32t(2), V: u})
			want := v
			if pair[0] == GLSLUnpackSnorm2x16 && v == 0x8000 {
				want = 0x8001 // -32768 unpacks to -1, which packs as -32767
			}
			if p[0] != want {
				t.Fatalf("%s/%s round trip of %#x = %#x", setGLSL.opName(pair[0]), setGLSL.opName(pair[1]), v, p[0])
			}
		}
	}
}

func TestGLSLGeometric(t *testing.T) {
	out, _ := mustGLSL(t, GLSLLength, f32t(1), fa(32, 3, 4))
	if ToFloat64(out[0], 32) != 5 {
		t.Errorf("Length(3,4) = %v", ToFloat64(out[0], 32))
	}
	out, _ = mustGLSL(t, GLSLLength, f64t(1), fa(64, 3e300, 4e300))
	if ToFloat64(out[0], 64) != 5e300 {
		t.Errorf("Length f64 huge = %v", ToFloat64(out[0], 64))
	}
	out, _ = mustGLSL(t, GLSLLength, f64t(1), fa(64, 3e-320, 4e-320))
	if got := ToFloat64(out[0], 64); math.Abs(got-5e-320) > 5e-324 {
		t.Errorf("Length f64 tiny = %v", got)
	}
	out, _ = mustGLSL(t, GLSLDistance, f32t(1), fa(32, 1, 1, 1), fa(32, 1, 1, 3))
	if ToFloat64(out[0], 32) != 2 {
		t.Errorf("Distance = %v", ToFloat64(out[0], 32))
	}
	out, _ = mustGLSL(t, GLSLCross, f32t(3), fa(32, 1, 0, 0), fa(32, 0, 1, 0))
	if ToFloat64(out[0], 32) != 0 || ToFloat64(out[1], 32) != 0 || ToFloat64(out[2], 32) != 1 {
		t.Errorf("Cross(x, y) = %v", out[:3])
	}
	out, _ = mustGLSL(t, GLSLNormalize, f32t(2), fa(32, 3, 4))
	if ToFloat64(out[0], 32) != float64(float32(0.6)) || ToFloat64(out[1], 32) != float64(float32(0.8)) {
		t.Errorf("Normalize(3,4) = %v %v", ToFloat64(out[0], 32), ToFloat64(out[1], 32))
	}
	out, _ = mustGLSL(t, GLSLNormalize, f32t(2), fa(32, 0, 0))
	if !math.IsNaN(ToFloat64(out[0], 32)) {
		t.Errorf("Normalize(0) = %v, want NaN", ToFloat64(out[0], 32))
	}
	out, _ = mustGLSL(t, GLSLFaceForward, f32t(2), fa(32, 1, 2), fa(32, 1, 0), fa(32, -1, 0))
	if ToFloat64(out[0], 32) != 1 || ToFloat64(out[1], 32) != 2 {
		t.Errorf("FaceForward (dot<0) = %v", out[:2])
	}
	out, _ = mustGLSL(t, GLSLFaceForward, f32t(2), fa(32, 1, 2), fa(32, 1, 0), fa(32, 1, 0))
	if ToFloat64(out[0], 32) != -1 || ToFloat64(out[1], 32) != -2 {
		t.Errorf("FaceForward (dot>=0) = %v", out[:2])
	}
	out, _ = mustGLSL(t, GLSLReflect, f32t(2), fa(32, 1, -1), fa(32, 0, 1))
	if ToFloat64(out[0], 32) != 1 || ToFloat64(out[1], 32) != 1 {
		t.Errorf("Reflect = %v", out[:2])
	}
	// Refract with eta 1 passes straight through; total internal reflection gives 0.
	out, _ = mustGLSL(t, GLSLRefract, f32t(2), fa(32, 0.6, -0.8), fa(32, 0, 1), fa(32, 1))
	if ToFloat64(out[0], 32) != float64(float32(0.6)) || ToFloat64(out[1], 32) != float64(float32(-0.8)) {
		t.Errorf("Refract eta=1 = %v %v", ToFloat64(out[0], 32), ToFloat64(out[1], 32))
	}
	out, _ = mustGLSL(t, GLSLRefract, f32t(2), fa(32, 0.8, -0.6), fa(32, 0, 1), fa(16, 1.5))
	if out[0] != 0 || out[1] != 0 {
		t.Errorf("Refract TIR = %v", out[:2])
	}
}

func TestGLSLMatrix(t *testing.T) {
	// Column-major [[2,1],[1,3]] (columns (2,1) and (1,3)): det 5.
	out, _ := mustGLSL(t, GLSLDeterminant, f32t(1), fa(32, 2, 1, 1, 3))
	if ToFloat64(out[0], 32) != 5 {
		t.Errorf("det2 = %v", ToFloat64(out[0], 32))
	}
	m3 := fa(64, 2, 0, 0, 0, 3, 0, 1, 0, 4) // columns (2,0,0) (0,3,0) (1,0,4)
	out, _ = mustGLSL(t, GLSLDeterminant, f64t(1), m3)
	if ToFloat64(out[0], 64) != 24 {
		t.Errorf("det3 = %v", ToFloat64(out[0], 64))
	}
	m4 := fa(64, 1, 2, 3, 4, 0, 1, 0, 0, 5, 0, 1, 0, 0, 0, 0, 2)
	out, _ = mustGLSL(t, GLSLDeterminant, f64t(1), m4)
	// rows: [1 0 5 0; 2 1 0 0; 3 0 1 0; 4 0 0 2] -> det = 2 * det3([1 0 5;2 1 0;3 0 1]) = 2*(1*1 - 0 + 5*(0-3)) = -28
	if ToFloat64(out[0], 64) != -28 {
		t.Errorf("det4 = %v", ToFloat64(out[0], 64))
	}
	for _, m := range []Arg{fa(64, 2, 1, 1, 3), m3, m4} {
		inv, _ := mustGLSL(t, GLSLMatrixInverse, m.T, m)
		n := map[uint8]int{4: 2, 9: 3, 16: 4}[m.T.Len]
		// m * inv must be the identity.
		for r := range n {
			for c := range n {
				s := 0.0
				for k := range n {
					s += ToFloat64(m.V[k*n+r], 64) * ToFloat64(inv[c*n+k], 64)
				}
				want := 0.0
				if r == c {
					want = 1
				}
				if math.Abs(s-want) > 1e-14 {
					t.Errorf("%dx%d: (m*inv)[%d][%d] = %v", n, n, r, c, s)
				}
			}
		}
	}
	if _, _, err := GLSL(GLSLDeterminant, f32t(1), []Arg{fa(32, 1, 2, 3)}); err == nil {
		t.Error("Determinant of 3 components: no error")
	}
}

func TestGLSLVectorBroadcastAndErrors(t *testing.T) {
	out, _ := mustGLSL(t, GLSLFClamp, f32t(4), fa(32, -1, 0.5, 2, 0.25), fa(32, 0), fa(32, 1))
	for i, w := range []float64{0, 0.5, 1, 0.25} {
		if ToFloat64(out[i], 32) != w {
			t.Errorf("FClamp vec4 [%d] = %v, want %v", i, ToFloat64(out[i], 32), w)
		}
	}
	out, _ = mustGLSL(t, GLSLLdexp, f32t(2), fa(32, 1, 1), ia(16, 3, -3))
	if ToFloat64(out[0], 32) != 8 || ToFloat64(out[1], 32) != 0.125 {
		t.Errorf("Ldexp vec2 = %v %v", ToFloat64(out[0], 32), ToFloat64(out[1], 32))
	}
	bad := []struct {
		op   uint32
		res  Type
		args []Arg
	}{
		{GLSLSin, f32t(1), nil},
		{GLSLSin, f32t(1), []Arg{fa(32, 1), fa(32, 1)}},
		{GLSLSin, f32t(1), []Arg{ia(32, 1)}},
		{GLSLSin, f32t(2), []Arg{fa(32, 1, 2, 3)}},
		{GLSLSin, f16t(1), []Arg{fa(32, 1)}},
		{GLSLSin, Type{Float, 8, 1}, []Arg{{T: Type{Float, 8, 1}}}},
		{GLSLSin, Type{Float, 32, 17}, []Arg{{T: Type{Float, 32, 17}}}},
		{GLSLSAbs, f32t(1), []Arg{fa(32, 1)}},
		{GLSLCross, f32t(2), []Arg{fa(32, 1, 2), fa(32, 1, 2)}},
		{GLSLLength, f32t(2), []Arg{fa(32, 1, 2)}},
		{GLSLIMix, it(32, 1), []Arg{ia(32, 1), ia(32, 1), ia(32, 1)}},
		{GLSLInterpolateAtCentroid, f32t(1), []Arg{fa(32, 1)}},
		{GLSLPackHalf2x16, ut(32, 1), []Arg{fa(32, 1)}},
		{GLSLPackHalf2x16, f32t(1), []Arg{fa(32, 1, 2)}},
		{GLSLPackDouble2x32, ut(64, 1), []Arg{ua(32, 1, 2)}},
		{GLSLUnpackHalf2x16, f32t(2), []Arg{ua(16, 1)}},
		{0, f32t(1), []Arg{fa(32, 1)}},
		{82, f32t(1), []Arg{fa(32, 1)}},
	}
	for _, b := range bad {
		if _, _, err := GLSL(b.op, b.res, b.args); err == nil {
			t.Errorf("%s %v %v: no error", setGLSL.opName(b.op), b.res, b.args)
		}
	}
	_, _, err := GLSL(GLSLInterpolateAtSample, f32t(1), []Arg{fa(32, 1), ia(32, 0)})
	if err == nil || err.Error() != "GLSL.std.450 InterpolateAtSample requires Fragment execution model" {
		t.Errorf("InterpolateAtSample error = %v", err)
	}
	_, _, err = GLSL(1000, f32t(1), []Arg{fa(32, 1)})
	if !errors.Is(err, ErrUnknownOp) {
		t.Errorf("unknown op error = %v", err)
	}
	_, _, err = GLSL(GLSLSin, f32t(1), []Arg{fa(32, 1), fa(32, 2)})
	if err == nil || err.Error() != "GLSL.std.450 Sin: expected 1 operand(s), got 2" {
		t.Errorf("message = %v", err)
	}
}
