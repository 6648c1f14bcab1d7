package amber

import "math"

// Numeric fields are checked at their full range: a script's number that
// does not fit the field it fills is an error naming the token, where the
// tokenizer's strtoull-style value would otherwise be cut to the field's
// width (SIZE 4294967297 made a 1-element buffer).

// uintUpTo is a non-negative integer token's value when it is at most max.
func (t token) uintUpTo(max uint64) (uint64, bool) {
	if t.kind != tokInt || t.ovf || (t.neg && t.u != 0) || t.u > max {
		return 0, false
	}
	return t.u, true
}

// outOfRange is the error for a number that does not fit its field: the
// message amber gives for an invalid value of the field, the token, and
// the range it had to fit.
func outOfRange(t token, msg, what string) error {
	return errAt(t.line, "%s: %s (out of range for %s)", msg, t.show(), what)
}

// uintField reads a uint32 field such as a binding or a group count: a
// non-integer gets msg, an integer beyond uint32 msg and its range.
func uintField(t token, msg string) (uint32, error) {
	if t.kind != tokInt {
		return 0, errAt(t.line, "%s: %s", msg, t.show())
	}
	v, ok := t.uintUpTo(math.MaxUint32)
	if !ok {
		return 0, outOfRange(t, msg, "uint32")
	}
	return uint32(v), nil
}

// fitsScalar reports whether a number token is a value of s without loss
// of range: an integer must fit in s.Bits bits read as signed or as
// unsigned (so int8 takes -128..255 and hex bit patterns, uint32 takes -1
// as amber's strtoull does), a double for an integer component must
// truncate to such an integer, and a finite number for a float component
// must stay finite at its width. NaN and infinite doubles are values of
// every float width.
func fitsScalar(t token, s Scalar) bool {
	if t.ovf {
		return false
	}
	if s.Kind == Float {
		f, ok := t.asDouble()
		if !ok {
			return false
		}
		return floatFits(f, s.Bits)
	}
	switch t.kind {
	case tokInt, tokHex:
		return intFits(t.u, t.neg && t.kind == tokInt, s.Bits)
	case tokDouble:
		f := math.Trunc(t.f)
		if math.IsNaN(f) || f < -(1<<63) || f >= 1<<64 {
			return false
		}
		if f < 0 {
			return intFits(uint64(int64(f)), true, s.Bits)
		}
		return intFits(uint64(f), false, s.Bits)
	}
	return false
}

// intFits reports whether u (two's complement when neg) fits in bits bits
// as a signed or an unsigned number.
func intFits(u uint64, neg bool, bits int) bool {
	if bits >= 64 {
		return true
	}
	if neg {
		return int64(u) >= -(1 << (bits - 1))
	}
	return u < 1<<bits
}

// floatFits reports whether a finite f stays finite at a float width:
// float32 by rounding, float16 by amber's truncating conversion.
func floatFits(f float64, bits int) bool {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return true
	}
	switch bits {
	case 16:
		return math.Abs(float64(float32(f))) < 65536
	case 32:
		return !math.IsInf(float64(float32(f)), 0)
	}
	return true
}

// checkScalar is fitsScalar as an error: msg is amber's message for an
// invalid value of the field.
func checkScalar(t token, s Scalar, msg string) error {
	if fitsScalar(t, s) {
		return nil
	}
	return outOfRange(t, msg, s.String())
}

// finiteNumber checks a double field such as a TOLERANCE: a number
// beyond float64's range is out of range.
func finiteNumber(t token, msg string) (float64, error) {
	f, ok := t.asDouble()
	if !ok {
		return 0, errAt(t.line, "%s: %s", msg, t.show())
	}
	if t.ovf {
		return 0, outOfRange(t, msg, "double")
	}
	return f, nil
}
