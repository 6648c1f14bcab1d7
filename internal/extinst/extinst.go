// Package extinst evaluates the GLSL.std.450 and OpenCL.std extended
// instruction sets for one SIMT lane: pure functions from operand bits to
// result bits, with no SPIR-V or memory knowledge, called by the executor
// (package interp) once per active lane.
//
// # Values
//
// A Value holds one lane's components as raw bits, each zero-extended to 64
// bits (a float16 is its 16-bit code, a float32 its 32-bit code). A matrix
// operand or result (Determinant, MatrixInverse) is flattened column-major
// into Len = N*N components (column c, row r at index c*N+r). An operand with
// Len 1 given to a componentwise operation whose result is a vector is
// broadcast to every component (OpenCL's gentype/scalar overloads reach
// SPIR-V as vectors, but accepting a scalar costs nothing). A Len of 0 means 1.
//
// Integer results in out2 (Frexp's exponent, OpenCL frexp, lgamma_r, remquo)
// are 32-bit two's complement values zero-extended to 64 bits, because both
// specifications make those operands 32-bit integers.
//
// # Precision
//
// Float16 and float32 operands are widened exactly to float64, the operation
// is computed in float64 with Go's math package (which is faithful to about
// one float64 ulp) and rounded once to the result width (round to nearest
// even). Results are therefore correctly rounded or within a fraction of an
// ulp beyond, far inside Vulkan's "Precision and Operation of SPIR-V
// Instructions" bounds and OpenCL's full-profile ULP table; the operations
// those specifications call exact (Fma, Ldexp, Frexp, Modf, fmod,
// remainder, the roundings, min/max/clamp, the packs) are exact here. Fma
// and OpenCL fma/mad on float16/float32 add the exact product in float64
// with round-to-odd, so the final rounding is correct (no double rounding).
// Float64 operations are Go's float64 math (faithful or within 1-2 ulps),
// except where that is not good enough: sinpi/cospi/tanpi reduce their
// argument exactly; pow, pown, powr, rootn and exp10 form y*ln(x) in
// double-double arithmetic and exponentiate once (math.Pow's repeated
// squaring is off by millions of ulps for x near 1 and large y); rootn adds a
// Newton step; tgamma uses a double-double Stirling series (math.Gamma is 27
// ulps off at 167); acos uses the half-angle form near |x| = 1 (math.Acos:
// 6 ulps); length/distance/normalize scale by a power of two so that
// float64 vectors neither overflow nor underflow. The native_ and half_
// variants are computed at full precision, which both specifications allow.
// Denormals are never flushed. Worst cases measured against mpmath:
// ACCURACY.md.
//
// # Choices where the specifications leave the result undefined
//
//   - GLSL Round rounds halfway cases to even, like Mesa and SwiftShader.
//   - GLSL FMin/FMax/FClamp: a NaN operand yields the other operand (the
//     spec lets either be the result); otherwise the spec's formulas
//     (FMin: y < x ? y : x), so FMin(+0, -0) is +0. NMin/NMax/NClamp follow
//     the spec's NaN rules exactly (the same results).
//   - OpenCL fmin/fmax (and fmin_common/fmax_common, fclamp, the tie case of
//     minmag/maxmag): a NaN operand yields the other, as OpenCL requires;
//     -0 is treated as below +0.
//   - NaN results are quiet NaNs; input payloads are not preserved except by
//     the bit operations (FAbs, fabs, copysign, select, bitselect, shuffle).
//   - Clamps with minVal > maxVal (FClamp, NClamp, UClamp, SClamp, fclamp,
//     s_clamp, u_clamp) compute min(max(x, minVal), maxVal), i.e. maxVal.
//   - FSign/OpenCL sign: ±0 gives ±0; FSign of NaN is NaN, OpenCL sign of NaN
//     is +0 as OpenCL requires.
//   - Pow with x < 0 is NaN; Pow(±0, y<=0) follows C pow (+Inf or 1).
//     Atan2(±0, ±0) follows C atan2 (±0 or ±pi).
//   - Frexp of ±Inf or NaN returns the operand and exponent 0; Ldexp clamps
//     the exponent, so overflow gives ±Inf and underflow ±0 (correctly rounded).
//   - Modf of ±Inf gives fraction ±0 and whole part ±Inf (as C modf).
//   - Pack{S,U}norm: the scaled value is rounded to nearest even; NaN packs
//     as 0. PackHalf2x16 rounds to nearest even.
//   - Acosh(x<1), Atanh(|x|>1), Log(x<0), Sqrt(x<0), Asin/Acos(|x|>1): NaN.
//   - SmoothStep with edge0 >= edge1 computes the formula (Inf/NaN possible).
//   - Refract returns the zero vector when k < 0, as the spec says.
//   - OpenCL mad is fused (a*b+c rounded once); mul24/mad24 use only the low
//     24 bits of x and y (sign-extended for s_), as the spec describes.
//   - OpenCL shuffle/shuffle2 read only the low ilogb(2m-1) (+1) mask bits;
//     an index that is still out of range (3-component inputs) yields 0.
//   - OpenCL remquo returns the low 7 bits of the quotient's magnitude with
//     the sign of x/y (the minimum OpenCL requires); ilogb(0) is INT_MIN and
//     ilogb(NaN or Inf) INT_MAX (OpenCL's FP_ILOGB0 and FP_ILOGBNAN).
//
// IMix (which spirv-val rejects: "Extended instruction GLSLstd450IMix is not
// supported") and InterpolateAt* (Fragment execution model only) return errors.
//
// Validation the SPIR-V validator performs (for example GLSL's 16/32-bit-only
// transcendentals) is not repeated: a float64 operand of Sin is computed in
// float64. What the functions do check (so that bad input gives an error and
// never a panic): operand count, kinds, widths, component counts.
package extinst

import (
	"errors"
	"fmt"
	"math"

	"spvx/mx"
	"spvx/spirv"
)

// Kind is a component's numeric kind.
type Kind uint8

// The component kinds.
const (
	Float Kind = iota // IEEE binary16/32/64
	Int               // signed integer (also OpenCL's signless integers)
	Uint              // unsigned integer
	Bool              // boolean, Width 1
)

func (k Kind) String() string {
	switch k {
	case Float:
		return "float"
	case Int:
		return "int"
	case Uint:
		return "uint"
	case Bool:
		return "bool"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Type is a scalar or vector type: Width in bits (8/16/32/64; bool 1) and Len
// components (1 for a scalar, up to 16; a matrix is N*N, column-major).
type Type struct {
	Kind  Kind
	Width uint8
	Len   uint8
}

func (t Type) String() string {
	if t.Len > 1 {
		return fmt.Sprintf("%dx%s%d", t.Len, t.Kind, t.Width)
	}
	return fmt.Sprintf("%s%d", t.Kind, t.Width)
}

func (t Type) n() int {
	if t.Len == 0 {
		return 1
	}
	return int(t.Len)
}

// Value is one lane's components as raw bits, each zero-extended to 64 bits.
type Value [16]uint64

// Arg is one operand: its type and value.
type Arg struct {
	T Type
	V Value
}

// at returns component i, broadcasting a scalar.
func (a *Arg) at(i int) uint64 {
	if a.T.Len <= 1 {
		return a.V[0]
	}
	return a.V[i]
}

// ErrMemoryOp is returned by OpenCL for the instructions that access memory
// or do I/O (vloadn, vstoren, vload_half*, vstore_half*, vloada_halfn,
// vstorea_halfn*, printf, prefetch): the caller performs those, using
// HalfToFloat and FloatToHalf for the conversions.
var ErrMemoryOp = errors.New("extinst: memory or I/O instruction must be executed by the caller")

// ErrUnknownOp wraps the error for an instruction number a set does not define.
var ErrUnknownOp = errors.New("extinst: unknown extended instruction")

// RoundingMode is a SPIR-V FPRoundingMode value (the mode operand of
// vstore_half_r and friends).
type RoundingMode uint32

// The SPIR-V FPRoundingMode values.
const (
	RTE RoundingMode = 0 // to nearest, ties to even (the default)
	RTZ RoundingMode = 1 // toward zero
	RTP RoundingMode = 2 // toward +Inf
	RTN RoundingMode = 3 // toward -Inf
)

// FloatToHalf converts the float of the given width (16, 32 or 64) in bits to
// an IEEE binary16 code, rounded once in mode m with IEEE overflow (RTE gives
// ±Inf, a mode rounding toward zero gives ±65504). A NaN becomes a quiet NaN
// of the same sign. vstore_half uses RTE; vstore_half_r uses its mode operand.
// An unknown mode or width is an error.
func FloatToHalf(bits uint64, width uint8, m RoundingMode) (uint16, error) {
	if width != 16 && width != 32 && width != 64 {
		return 0, fmt.Errorf("extinst: FloatToHalf: float width %d", width)
	}
	if width == 16 {
		return uint16(bits), nil
	}
	var mm mx.RoundingMode
	switch m {
	case RTE:
		mm = mx.RTE
	case RTZ:
		mm = mx.RTZ
	case RTP:
		mm = mx.RTP
	case RTN:
		mm = mx.RTN
	default:
		return 0, fmt.Errorf("extinst: FloatToHalf: unknown FPRoundingMode %d", uint32(m))
	}
	return mx.HalfFromFloat64(ToFloat64(bits, width), mm), nil
}

// HalfToFloat returns the exact value of the binary16 code h as the raw bits
// of a float of the given width, as vload_half and vloada_halfn need: 32 or
// 64 (16 returns h itself; any other width is treated as 64).
func HalfToFloat(h uint16, width uint8) uint64 {
	return FromFloat64(float64(mx.HalfToFloat32(h)), width)
}

// ToFloat64 returns the value of a float of the given width (16, 32 or 64;
// any other width is read as 64) held in the low bits of bits; the
// conversion is exact.
func ToFloat64(bits uint64, width uint8) float64 {
	switch width {
	case 16:
		return float64(mx.HalfToFloat32(uint16(bits)))
	case 32:
		return float64(math.Float32frombits(uint32(bits)))
	}
	return math.Float64frombits(bits)
}

// FromFloat64 rounds x once to the float width 16, 32 or 64 (nearest even)
// and returns its bits; 64 (or any other width) is x's own bits.
func FromFloat64(x float64, width uint8) uint64 {
	switch width {
	case 16:
		return uint64(mx.HalfFromFloat64(x, mx.RTE))
	case 32:
		return uint64(math.Float32bits(float32(x)))
	}
	return math.Float64bits(x)
}

// roundTo rounds x to the precision of width and returns it as a float64.
func roundTo(x float64, w uint8) float64 {
	switch w {
	case 16:
		return float64(mx.HalfToFloat32(mx.HalfFromFloat64(x, mx.RTE)))
	case 32:
		return float64(float32(x))
	}
	return x
}

// mask returns the low-w-bits mask.
func mask(w uint8) uint64 {
	if w >= 64 {
		return ^uint64(0)
	}
	return 1<<w - 1
}

// sext sign-extends the low w bits of v.
func sext(v uint64, w uint8) int64 {
	if w >= 64 {
		return int64(v)
	}
	s := 64 - w
	return int64(v<<s) >> s
}

// set names the instruction set of an error message.
type set uint8

const (
	setGLSL set = iota
	setCL
)

func (s set) opName(op uint32) string {
	name := "GLSL.std.450"
	if s == setCL {
		name = "OpenCL.std"
	}
	if g := spirv.LookupExtInstSet(name); g != nil {
		if in, ok := g.Instruction(op); ok {
			return name + " " + in.Name
		}
	}
	return fmt.Sprintf("%s %d", name, op)
}

// evaluation context: which instruction, for error messages only.
type ctx struct {
	s  set
	op uint32
}

func (c ctx) errf(format string, a ...any) error {
	return fmt.Errorf("%s: "+format, append([]any{c.s.opName(c.op)}, a...)...)
}

// validType reports whether t is a well-formed type of kind class k
// (Int and Uint are interchangeable for integer operations).
func validType(t Type, k Kind) bool {
	if t.Len > 16 {
		return false
	}
	switch k {
	case Float:
		return t.Kind == Float && (t.Width == 16 || t.Width == 32 || t.Width == 64)
	case Int, Uint:
		return (t.Kind == Int || t.Kind == Uint) && (t.Width == 8 || t.Width == 16 || t.Width == 32 || t.Width == 64)
	}
	return false
}

func kindWord(k Kind) string {
	if k == Float {
		return "a float"
	}
	return "an integer"
}

// checkRes checks the result type's kind class.
func (c ctx) checkRes(res Type, k Kind) error {
	if !validType(res, k) {
		return c.errf("result type %v is not %s scalar or vector", res, kindWord(k))
	}
	return nil
}

// checkN checks the operand count.
func (c ctx) checkN(args []Arg, n int) error {
	if len(args) != n {
		return c.errf("expected %d operand(s), got %d", n, len(args))
	}
	return nil
}

// checkArg checks operand i: kind class k, width w (0: any valid width) and
// either n components or a scalar (broadcast).
func (c ctx) checkArg(args []Arg, i int, k Kind, w uint8, n int) error {
	t := args[i].T
	if !validType(t, k) {
		return c.errf("operand %d has type %v, expected %s type", i+1, t, kindWord(k))
	}
	if w != 0 && t.Width != w {
		return c.errf("operand %d has type %v, expected width %d", i+1, t, w)
	}
	if t.n() != n && t.n() != 1 {
		return c.errf("operand %d has %d components, expected %d", i+1, t.n(), n)
	}
	return nil
}

// checkSame checks the result kind k and that every operand has the result's
// width and component count (or is a scalar).
func (c ctx) checkSame(res Type, args []Arg, nargs int, k Kind) error {
	if err := c.checkN(args, nargs); err != nil {
		return err
	}
	if err := c.checkRes(res, k); err != nil {
		return err
	}
	for i := range args {
		if err := c.checkArg(args, i, k, res.Width, res.n()); err != nil {
			return err
		}
	}
	return nil
}

type (
	f1 func(x float64) float64
	f2 func(x, y float64) float64
	f3 func(x, y, z float64, w uint8) float64
	i1 func(x uint64, w uint8) uint64
	i2 func(x, y uint64, w uint8) uint64
	i3 func(x, y, z uint64, w uint8) uint64
)

func (c ctx) fun1(res Type, args []Arg, f f1) (out Value, err error) {
	if err = c.checkSame(res, args, 1, Float); err != nil {
		return
	}
	w := res.Width
	for i := range res.n() {
		out[i] = FromFloat64(f(ToFloat64(args[0].at(i), w)), w)
	}
	return
}

func (c ctx) fun2(res Type, args []Arg, f f2) (out Value, err error) {
	if err = c.checkSame(res, args, 2, Float); err != nil {
		return
	}
	w := res.Width
	for i := range res.n() {
		out[i] = FromFloat64(f(ToFloat64(args[0].at(i), w), ToFloat64(args[1].at(i), w)), w)
	}
	return
}

func (c ctx) fun3(res Type, args []Arg, f f3) (out Value, err error) {
	if err = c.checkSame(res, args, 3, Float); err != nil {
		return
	}
	w := res.Width
	for i := range res.n() {
		out[i] = FromFloat64(f(ToFloat64(args[0].at(i), w), ToFloat64(args[1].at(i), w), ToFloat64(args[2].at(i), w), w), w)
	}
	return
}

// bits1 applies f to the raw bits of a float operand (sign manipulation, NaN
// construction, nextafter) without passing through float64.
func (c ctx) bits1(res Type, args []Arg, k Kind, f i1) (out Value, err error) {
	if err = c.checkSame(res, args, 1, k); err != nil {
		return
	}
	w := res.Width
	for i := range res.n() {
		out[i] = f(args[0].at(i), w) & mask(w)
	}
	return
}

func (c ctx) bits2(res Type, args []Arg, k Kind, f i2) (out Value, err error) {
	if err = c.checkSame(res, args, 2, k); err != nil {
		return
	}
	w := res.Width
	for i := range res.n() {
		out[i] = f(args[0].at(i), args[1].at(i), w) & mask(w)
	}
	return
}

func (c ctx) bits3(res Type, args []Arg, k Kind, f i3) (out Value, err error) {
	if err = c.checkSame(res, args, 3, k); err != nil {
		return
	}
	w := res.Width
	for i := range res.n() {
		out[i] = f(args[0].at(i), args[1].at(i), args[2].at(i), w) & mask(w)
	}
	return
}

// floatWithInt checks a float operand 0 and an integer operand 1 of any
// width with the result's component count (Ldexp, pown, rootn).
func (c ctx) floatWithInt(res Type, args []Arg) error {
	if err := c.checkN(args, 2); err != nil {
		return err
	}
	if err := c.checkRes(res, Float); err != nil {
		return err
	}
	if err := c.checkArg(args, 0, Float, res.Width, res.n()); err != nil {
		return err
	}
	return c.checkArg(args, 1, Int, 0, res.n())
}

// GLSLOut2Type returns the type of GLSL's second result for op (the value
// stored through Modf's or Frexp's pointer, or ModfStruct's and
// FrexpStruct's member 1) given the result type res, and whether op has one.
// Frexp exponents are 32-bit integers: a caller storing them to a wider
// integer sign-extends from bit 31, to a narrower one truncates.
func GLSLOut2Type(op uint32, res Type) (Type, bool) {
	switch op {
	case GLSLModf, GLSLModfStruct:
		return res, true
	case GLSLFrexp, GLSLFrexpStruct:
		return Type{Int, 32, res.Len}, true
	}
	return Type{}, false
}

// OpenCLOut2Type is GLSLOut2Type for OpenCL: fract, modf and sincos store a
// float of res's type; frexp, lgamma_r and remquo store 32-bit integers.
func OpenCLOut2Type(op uint32, res Type) (Type, bool) {
	switch op {
	case CLFract, CLModf, CLSincos:
		return res, true
	case CLFrexp, CLLgammaR, CLRemquo:
		return Type{Int, 32, res.Len}, true
	}
	return Type{}, false
}

// OpenCLMemoryOp reports whether op is one of the OpenCL.std instructions
// that OpenCL leaves to the caller (ErrMemoryOp), so an executor can decide
// at compile time.
func OpenCLMemoryOp(op uint32) bool {
	return op >= CLVloadn && op <= CLVstoreaHalfnR || op == CLPrintf || op == CLPrefetch
}
