package numtext

import (
	"math"
	"math/bits"
	"strconv"
	"strings"

	"spvx/spirv"
)

// layout is the bit layout of a binary floating-point format.
type layout struct {
	ebits, mbits int
	bias         int
	// ieee formats reserve the all-ones exponent for Inf and NaN; the
	// others (E4M3, E2M3, E3M2, E2M1) use it for ordinary numbers.
	ieee bool
	// max is the largest finite magnitude, used by the decimal range check
	// of the formats without infinity.
	max float64
	tag string // name used in error messages
}

var (
	binary16 = layout{5, 10, 15, true, 65504, "16-bit"}
	bfloat16 = layout{8, 7, 127, true, 0x1.fep127, "16-bit"}
	binary32 = layout{8, 23, 127, true, math.MaxFloat32, "32-bit"}
	binary64 = layout{11, 52, 1023, true, math.MaxFloat64, "64-bit"}
	e4m3     = layout{4, 3, 7, false, 448, "E4M3"}
	e5m2     = layout{5, 2, 15, true, 57344, "E5M2"}
	e2m3     = layout{2, 3, 1, false, 7.5, "E2M3"}
	e3m2     = layout{3, 2, 3, false, 28, "E3M2"}
	e2m1     = layout{2, 1, 1, false, 6, "E2M1"}
)

// floatKind says how a float type's literals are written.
type floatKind uint8

const (
	notFloat floatKind = iota
	binaryFloat
	e8m0Float
	mxint8Float
	badFloat // a width/encoding combination with no literal syntax
)

func classify(nt spirv.NumberType) (floatKind, layout) {
	if nt.Kind != spirv.Float {
		return notFloat, layout{}
	}
	if !nt.HasEncoding {
		switch nt.Width {
		case 16:
			return binaryFloat, binary16
		case 32:
			return binaryFloat, binary32
		case 64:
			return binaryFloat, binary64
		}
		return badFloat, layout{}
	}
	if int(nt.Width) != EncodingWidth(nt.Encoding) {
		return badFloat, layout{}
	}
	switch nt.Encoding {
	case spirv.FPEncodingBFloat16KHR:
		return binaryFloat, bfloat16
	case spirv.FPEncodingFloat8E4M3EXT:
		return binaryFloat, e4m3
	case spirv.FPEncodingFloat8E5M2EXT:
		return binaryFloat, e5m2
	case spirv.FPEncodingFloat6E2M3EXT:
		return binaryFloat, e2m3
	case spirv.FPEncodingFloat6E3M2EXT:
		return binaryFloat, e3m2
	case spirv.FPEncodingFloat4E2M1EXT:
		return binaryFloat, e2m1
	case spirv.FPEncodingFloat8UnsignedE8M0EXT:
		return e8m0Float, layout{tag: "E8M0"}
	case spirv.FPEncodingMXInt8EXT:
		return mxint8Float, layout{tag: "MXInt8"}
	}
	return badFloat, layout{}
}

// EncodingWidth returns the bit width an FP encoding requires, or 0 for
// an encoding spvx does not know.
func EncodingWidth(e spirv.FPEncoding) int {
	switch e {
	case spirv.FPEncodingBFloat16KHR:
		return 16
	case spirv.FPEncodingFloat8E4M3EXT, spirv.FPEncodingFloat8E5M2EXT,
		spirv.FPEncodingFloat8UnsignedE8M0EXT, spirv.FPEncodingMXInt8EXT:
		return 8
	case spirv.FPEncodingFloat6E2M3EXT, spirv.FPEncodingFloat6E3M2EXT:
		return 6
	case spirv.FPEncodingFloat4E2M1EXT:
		return 4
	}
	return 0
}

// Format returns the text spirv-dis prints for the literal words of type
// nt. words must hold its words (two for widths above 32, else one); bits above the type's width are
// ignored, as spirv-dis ignores them.
func Format(words []uint32, nt spirv.NumberType) string {
	return string(AppendFormat(nil, words, nt))
}

// AppendFormat appends Format's text to dst.
func AppendFormat(dst []byte, words []uint32, nt spirv.NumberType) []byte {
	var v uint64
	if len(words) > 0 {
		v = uint64(words[0])
	}
	if nt.Width > 32 && len(words) > 1 {
		v |= uint64(words[1]) << 32
	}
	w := uint(nt.Width)
	if w < 64 {
		v &= 1<<w - 1
	}
	switch nt.Kind {
	case spirv.Signed:
		s := int64(v<<(64-w)) >> (64 - w)
		return strconv.AppendInt(dst, s, 10)
	case spirv.Float:
		kind, l := classify(nt)
		switch kind {
		case binaryFloat:
			if l == binary32 || l == binary64 {
				f := math.Float64frombits(v)
				if l == binary32 {
					f = float64(math.Float32frombits(uint32(v)))
				}
				if f == 0 || isNormal(v, l) {
					prec := 9
					if l == binary64 {
						prec = 17
					}
					return strconv.AppendFloat(dst, f, 'g', prec, 64)
				}
			}
			return appendHexBits(dst, v, l)
		case e8m0Float:
			dst = append(dst, "0x1p"...)
			return appendExp(dst, int(v)-127)
		case mxint8Float:
			return appendHexValue(dst, float64(int8(v))/64)
		}
	}
	return strconv.AppendUint(dst, v, 10)
}

func isNormal(v uint64, l layout) bool {
	e := v >> uint(l.mbits) & (1<<uint(l.ebits) - 1)
	return e != 0 && e != 1<<uint(l.ebits)-1
}

func appendExp(dst []byte, e int) []byte {
	if e >= 0 {
		dst = append(dst, '+')
	}
	return strconv.AppendInt(dst, int64(e), 10)
}

// appendHexBits prints a pattern of layout l as SPIRV-Tools' HexFloat does:
// by its fields, so the all-ones exponent prints as an ordinary power (the
// E4M3 NaN is 0x1.ep+8, binary32 infinity 0x1p+128).
func appendHexBits(dst []byte, v uint64, l layout) []byte {
	mb := uint(l.mbits)
	sign := v>>(mb+uint(l.ebits))&1 != 0
	exp := int(v >> mb & (1<<uint(l.ebits) - 1))
	frac := v & (1<<mb - 1)
	if sign {
		dst = append(dst, '-')
	}
	if exp == 0 && frac == 0 {
		return append(dst, "0x0p+0"...)
	}
	e := exp - l.bias
	if exp == 0 {
		// Subnormal: normalize so the leading one becomes implicit.
		e = 1 - l.bias
		for frac&(1<<mb) == 0 {
			frac <<= 1
			e--
		}
		frac &= 1<<mb - 1
	}
	dst = append(dst, "0x1"...)
	dst = appendFraction(dst, frac, l.mbits)
	dst = append(dst, 'p')
	return appendExp(dst, e)
}

// appendFraction writes an n-bit fraction as hex nibbles, left-aligned,
// without trailing zero nibbles, preceded by '.' unless it is zero.
func appendFraction(dst []byte, frac uint64, n int) []byte {
	if frac == 0 {
		return dst
	}
	pad := (4 - n%4) % 4
	frac <<= uint(pad)
	nibbles := (n + pad) / 4
	for frac&0xF == 0 {
		frac >>= 4
		nibbles--
	}
	dst = append(dst, '.')
	for i := nibbles - 1; i >= 0; i-- {
		dst = append(dst, "0123456789abcdef"[frac>>(4*uint(i))&0xF])
	}
	return dst
}

// appendHexValue prints a finite binary64 value as a hex float.
func appendHexValue(dst []byte, f float64) []byte {
	return appendHexBits(dst, math.Float64bits(f), binary64)
}

// Parse parses the text of a literal of type nt and returns its words.
// Errors carry spirv-as's message, e.g. "Invalid 32-bit float literal: x"
// or "Integer 300 does not fit in a 8-bit unsigned integer".
func Parse(text string, nt spirv.NumberType) ([]uint32, error) {
	return AppendParse(nil, text, nt)
}

// ParseError is a literal that does not fit its type or is malformed.
type ParseError struct{ Msg string }

func (e *ParseError) Error() string { return e.Msg }

func fail(msg string) error { return &ParseError{msg} }

// AppendParse appends the words of the literal to dst.
func AppendParse(dst []uint32, text string, nt spirv.NumberType) ([]uint32, error) {
	switch nt.Kind {
	case spirv.Unsigned, spirv.Signed:
		v, err := parseInt(text, int(nt.Width), nt.Kind == spirv.Signed)
		if err != nil {
			return dst, err
		}
		return appendWords(dst, v, nt.Width), nil
	case spirv.Float:
		v, err := parseFloat(text, nt)
		if err != nil {
			return dst, err
		}
		return appendWords(dst, v, nt.Width), nil
	}
	return dst, fail("Invalid literal number: " + text)
}

func appendWords(dst []uint32, v uint64, width uint8) []uint32 {
	if width > 32 {
		return append(dst, uint32(v), uint32(v>>32))
	}
	return append(dst, uint32(v))
}

// parseInt reads an integer as spirv-as does (C++ stream rules with the
// base taken from the prefix: 0x hex, leading 0 octal, else decimal).
// Signed types accept hex and octal bit patterns that fit the width and
// sign-extend them; narrow signed values are sign-extended to 32 bits.
func parseInt(text string, width int, signed bool) (uint64, error) {
	kind := "unsigned"
	if signed {
		kind = "signed"
	}
	// spirv-as reads text without a leading '-' as an unsigned number even
	// for a signed type, and words its syntax error that way.
	syntax := "unsigned"
	if strings.HasPrefix(text, "-") {
		syntax = "signed"
	}
	invalid := fail("Invalid " + syntax + " integer literal: " + text)
	s := text
	neg := false
	if len(s) > 0 && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if neg && !signed {
		return 0, fail("Cannot put a negative number in an unsigned literal")
	}
	base := 10
	switch {
	case len(s) > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'):
		base, s = 16, s[2:]
	case len(s) > 1 && s[0] == '0':
		base, s = 8, s[1:]
	}
	if s == "" {
		return 0, invalid
	}
	for i := 0; i < len(s); i++ {
		if digitValue(s[i]) >= base {
			return 0, invalid
		}
	}
	mag, err := strconv.ParseUint(s, base, 64)
	if err != nil {
		return 0, invalid
	}
	tooBig := fail("Integer " + text + " does not fit in a " + strconv.Itoa(width) + "-bit " + kind + " integer")
	mask := uint64(math.MaxUint64)
	if width < 64 {
		mask = 1<<uint(width) - 1
	}
	if !signed {
		if mag > mask {
			return 0, tooBig
		}
		return mag, nil
	}
	var v int64
	switch {
	case base != 10 && !neg:
		// A bit pattern: it must fit the width, then it is sign-extended.
		if mag > mask {
			return 0, tooBig
		}
		v = int64(mag<<(64-uint(width))) >> (64 - uint(width))
	case neg:
		if mag > 1<<uint(width-1) {
			return 0, tooBig
		}
		v = -int64(mag)
	default:
		if mag > 1<<uint(width-1)-1 {
			return 0, tooBig
		}
		v = int64(mag)
	}
	if width <= 32 {
		return uint64(uint32(int32(v))), nil // sign-extended to the word
	}
	return uint64(v), nil
}

func digitValue(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return 99
}

func parseFloat(text string, nt spirv.NumberType) (uint64, error) {
	kind, l := classify(nt)
	switch kind {
	case badFloat:
		return 0, fail("Unsupported " + strconv.Itoa(int(nt.Width)) + "-bit float literals")
	case e8m0Float:
		return parseE8M0(text)
	case mxint8Float:
		return parseMXInt8(text)
	}
	invalid := fail("Invalid " + l.tag + " float literal: " + text)
	if h, ok := scanHex(text); ok {
		v, ok := h.build(l)
		if !ok {
			return 0, invalid
		}
		return v, nil
	}
	if !isDecimal(text) {
		return 0, invalid
	}
	if l == binary64 {
		f, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return 0, invalid
		}
		return math.Float64bits(f), nil
	}
	f, err := strconv.ParseFloat(text, 32)
	if err != nil {
		return 0, invalid
	}
	if l == binary32 {
		return uint64(math.Float32bits(float32(f))), nil
	}
	if !l.ieee && math.Abs(f) > l.max {
		return 0, invalid
	}
	// Narrow the binary32 value toward zero, as spirv-as does.
	b := math.Float32bits(float32(f))
	h := hexValue{neg: b>>31 != 0}
	exp := int(b >> 23 & 0xFF)
	h.mant = uint64(b & (1<<23 - 1))
	if exp == 0 {
		h.exp = -126 - 23
	} else {
		h.mant |= 1 << 23
		h.exp = exp - 127 - 23
	}
	v, ok := h.build(l)
	if !ok || (l.ieee && !isFinite(v, l)) {
		return 0, invalid // a decimal too large for the format
	}
	return v, nil
}

func isFinite(v uint64, l layout) bool {
	allOnes := uint64(1)<<uint(l.ebits) - 1
	return v>>uint(l.mbits)&allOnes != allOnes
}

// isDecimal accepts C++ stream float syntax: [+-] digits [. digits] or
// [+-] . digits, then an optional exponent. It rejects inf, nan and
// anything strconv would take that a C++ stream would not.
func isDecimal(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
			digits++
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		n := 0
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
			n++
		}
		if n == 0 {
			return false
		}
	}
	return i == len(s)
}

// hexValue is an exactly read hex float: (-1)^neg · mant · 2^exp, with
// sticky set when nonzero digits beyond mant's 64 bits were dropped.
type hexValue struct {
	neg    bool
	mant   uint64
	exp    int
	sticky bool
}

// scanHex reads [+-]0x hexdigits[.hexdigits]p[+-]decimal. It reports
// ok=false when the text is not hex-float shaped at all (no 0x prefix);
// a malformed hex float yields ok=true with a hexValue whose build fails.
func scanHex(s string) (hexValue, bool) {
	var h hexValue
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		h.neg = s[i] == '-'
		i++
	}
	if !(i+1 < len(s) && s[i] == '0' && (s[i+1] == 'x' || s[i+1] == 'X')) {
		return h, false
	}
	i += 2
	bad := hexValue{exp: math.MinInt32}
	digits := 0
	point := false
	for ; i < len(s); i++ {
		c := s[i]
		if c == '.' && !point {
			point = true
			continue
		}
		d := digitValue(c)
		if d >= 16 {
			break
		}
		digits++
		if h.mant>>60 != 0 {
			// No room: drop the digit, remember it, keep the scale.
			if d != 0 {
				h.sticky = true
			}
			if !point {
				h.exp += 4
			}
			continue
		}
		h.mant = h.mant<<4 | uint64(d)
		if point {
			h.exp -= 4
		}
	}
	if digits == 0 || i >= len(s) || s[i] != 'p' {
		return bad, true
	}
	i++
	eneg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		eneg = s[i] == '-'
		i++
	}
	if i == len(s) {
		return bad, true
	}
	e := 0
	for ; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return bad, true
		}
		if e < 1<<20 {
			e = e*10 + int(s[i]-'0')
		}
	}
	if eneg {
		e = -e
	}
	h.exp += e
	return h, true
}

// build encodes h in layout l, dropping excess fraction bits (toward
// zero). Overflow gives infinity in IEEE formats, as spirv-as does, and
// fails in formats without infinity. ok is false for malformed input.
func (h hexValue) build(l layout) (uint64, bool) {
	if h.exp == math.MinInt32 {
		return 0, false
	}
	mb := uint(l.mbits)
	var sign uint64
	if h.neg {
		sign = 1 << (mb + uint(l.ebits))
	}
	if h.mant == 0 {
		return sign, true
	}
	top := bits.Len64(h.mant) - 1 // position of the leading one
	e := top + h.exp              // unbiased exponent of the value
	// The all-ones exponent field is built like any other (in IEEE
	// formats that is how the printed forms of Inf and NaN read back);
	// beyond it, IEEE formats clamp to infinity as spirv-as does.
	maxField := 1<<uint(l.ebits) - 1
	if e+l.bias > maxField {
		if !l.ieee {
			return 0, false
		}
		return sign | uint64(maxField)<<mb, true
	}
	if e+l.bias >= 1 {
		frac := shift(h.mant, int(mb)-top) & (1<<mb - 1)
		return sign | uint64(e+l.bias)<<mb | frac, true
	}
	// Subnormal: the value in units of the smallest subnormal 2^(1-bias-mb).
	frac := shift(h.mant, h.exp-(1-l.bias-int(mb)))
	return sign | frac, true
}

// shift returns v·2^n, truncated, for n of either sign.
func shift(v uint64, n int) uint64 {
	switch {
	case n >= 64 || n <= -64:
		return 0
	case n >= 0:
		return v << uint(n)
	}
	return v >> uint(-n)
}

// exactValue reads decimal or hex text as an exact binary64 value; ok is
// false when the text is malformed or not exactly representable.
func exactValue(text string) (float64, bool) {
	if h, hex := scanHex(text); hex {
		if h.exp == math.MinInt32 || h.sticky {
			return 0, false
		}
		if h.mant == 0 {
			return 0, true
		}
		top := bits.Len64(h.mant) - 1
		if top > 52 && h.mant&(1<<uint(top-52)-1) != 0 {
			return 0, false // more than 53 significant bits
		}
		f := math.Ldexp(float64(h.mant), h.exp)
		if math.IsInf(f, 0) || f == 0 {
			return 0, false
		}
		if h.neg {
			f = -f
		}
		return f, true
	}
	if !isDecimal(text) {
		return 0, false
	}
	f, err := strconv.ParseFloat(text, 64)
	return f, err == nil
}

// parseE8M0 accepts exact powers of two from 2^-127 to 2^127, and 2^128,
// the text spirv-dis prints for the NaN code 0xFF.
func parseE8M0(text string) (uint64, error) {
	f, ok := exactValue(text)
	if ok && f > 0 {
		frac, exp := math.Frexp(f) // f = frac·2^exp, frac in [0.5, 1)
		if frac == 0.5 && exp-1 >= -127 && exp-1 <= 128 {
			return uint64(exp - 1 + 127), nil
		}
	}
	return 0, fail("Invalid E8M0 float literal: " + text)
}

// parseMXInt8 accepts exact multiples of 2^-6 from -2 to 127/64; -2 (the
// code 0x80, printed as -0x1p+1) is accepted so that it round-trips.
func parseMXInt8(text string) (uint64, error) {
	f, ok := exactValue(text)
	if ok {
		x := f * 64
		if x == math.Trunc(x) && x >= -128 && x <= 127 {
			return uint64(uint8(int8(x))), nil
		}
	}
	return 0, fail("Invalid MXInt8 float literal: " + text)
}
