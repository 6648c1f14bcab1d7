package asm

import (
	"strings"

	"spvx/internal/numtext"
	"spvx/spirv"
)

// litStatus classifies a literal that failed to parse, as SPIRV-Tools'
// EncodeNumberStatus does. It decides whether an optional operand that
// does not parse ends the instruction silently (litInvalidText) or is an
// error in any case.
type litStatus uint8

const (
	litOK           litStatus = iota
	litInvalidText            // not a number of that type: "Invalid ..." / "does not fit"
	litInvalidUsage           // e.g. a negative number for an unsigned type
	litUnsupported            // a width that has no literal syntax
)

// appendNumber parses text as a literal of type nt and appends its words
// (low word first) to dst. Plain decimal integers, by far the most common
// literals (widths, locations, indices), are parsed here without
// allocating; everything else goes to internal/numtext.
func appendNumber(dst []uint32, text []byte, nt spirv.NumberType) ([]uint32, litStatus, string) {
	if (nt.Kind == spirv.Unsigned || nt.Kind == spirv.Signed) && nt.Width > 0 && nt.Width <= 64 {
		mag := uint64(1)<<nt.Width - 1
		if nt.Width == 64 {
			mag = ^uint64(0)
		}
		if nt.Kind == spirv.Signed {
			mag >>= 1
		}
		if v, ok := numtext.Decimal(text, mag, true); ok {
			if nt.Width > 32 {
				return append(dst, uint32(v), uint32(v>>32)), litOK, ""
			}
			return append(dst, uint32(v)), litOK, ""
		}
	}
	out, err := numtext.AppendParse(dst, string(text), nt)
	if err != nil {
		msg := err.Error()
		return dst, classifyLiteralError(msg), msg
	}
	return out, litOK, ""
}

// classifyLiteralError sorts numtext's messages into SPIRV-Tools'
// statuses: a negative number for an unsigned type is misuse, a width
// without literal syntax is unsupported, and everything else is text that
// is not a number of the type.
func classifyLiteralError(msg string) litStatus {
	switch {
	case strings.HasPrefix(msg, "Cannot put a negative number"):
		return litInvalidUsage
	case strings.HasPrefix(msg, "Unsupported "):
		return litUnsupported
	}
	return litInvalidText
}

// parseCUint parses text as C++'s `istream >> std::setbase(0) >> unsigned`
// does in SPIRV-Tools' ParseNumber: an optional sign, then a hex ("0x"),
// octal (leading "0") or decimal number that must use all the text and fit
// in bits; a minus sign is only accepted on zero.
func parseCUint(text []byte, bits uint) (uint64, bool) {
	if len(text) == 0 {
		return 0, false
	}
	neg := false
	if text[0] == '+' || text[0] == '-' {
		neg = text[0] == '-'
		text = text[1:]
	}
	base := uint64(10)
	switch {
	case len(text) > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X'):
		base, text = 16, text[2:]
	case len(text) > 1 && text[0] == '0':
		base, text = 8, text[1:]
	}
	if len(text) == 0 {
		return 0, false
	}
	limit := uint64(1)<<bits - 1
	if bits >= 64 {
		limit = ^uint64(0)
	}
	var v uint64
	for _, c := range text {
		var d uint64
		switch {
		case '0' <= c && c <= '9':
			d = uint64(c - '0')
		case 'a' <= c && c <= 'f':
			d = uint64(c-'a') + 10
		case 'A' <= c && c <= 'F':
			d = uint64(c-'A') + 10
		default:
			return 0, false
		}
		if d >= base {
			return 0, false
		}
		if v > (limit-d)/base {
			return 0, false
		}
		v = v*base + d
	}
	if neg && v != 0 {
		return 0, false
	}
	return v, true
}
