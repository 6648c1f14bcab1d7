// Package hexdump reads a SPIR-V module written as text in hexadecimal, as
// debuggers, logs and C arrays show it, so that the tools which take a
// binary module take such a dump as well (current SPIRV-Tools does the
// same). The format is told by the first token, which must spell the magic
// number:
//
//   - words: 0x07230203 (or 0x7230203, x07230203, x7230203), then one
//     32-bit word per token, each with its 0x or x prefix;
//   - bytes with a prefix: 0x03 or 0x07 (or 0x3, x03, x3, 0x7, x07, x7),
//     then one byte per token; a first byte of 3 means little-endian, 7
//     big-endian;
//   - bytes without a prefix: 03 or 07 (or 3, 7), then one byte per token.
//
// Tokens are separated by white space or commas. Anything else is an
// error that gives its line and column.
package hexdump

import (
	"encoding/binary"
	"fmt"
)

// Format is the layout of a hex dump.
type Format uint8

// The formats of a hex dump; NotHex is anything else (a binary module).
const (
	NotHex Format = iota
	Words
	PrefixedBytes
	Bytes
)

func (f Format) String() string {
	switch f {
	case Words:
		return "words"
	case PrefixedBytes:
		return "bytes with 0x prefix"
	case Bytes:
		return "bytes"
	}
	return "not hex"
}

// Detect tells the format of b from its first token. A binary module is
// never mistaken for a dump: its first byte is 0x03 or 0x07, not a digit.
func Detect(b []byte) Format {
	tok, _, _ := nextToken(b, 0)
	if tok.end == tok.start { // also a binary module, whose first byte is 3 or 7
		return NotHex
	}
	prefix, digits, ok := splitToken(b[tok.start:tok.end])
	if !ok {
		return NotHex
	}
	v, ok := parseHex(digits, 8)
	switch {
	case !ok:
		return NotHex
	case prefix && v == 0x07230203:
		return Words
	case prefix && (v == 3 || v == 7) && len(digits) <= 2:
		return PrefixedBytes
	case !prefix && (v == 3 || v == 7) && len(digits) <= 2:
		return Bytes
	}
	return NotHex
}

// Error is a malformed dump: the line and column (1-based, in bytes) of
// the token at fault, and what is wrong with it.
type Error struct {
	Line, Col int
	Msg       string
}

func (e *Error) Error() string { return fmt.Sprintf("hex input:%d:%d: %s", e.Line, e.Col, e.Msg) }

// Decode returns the binary module a dump spells, in the byte order the
// dump gives (words are written little-endian). It returns nil, nil when b
// is not a dump (Detect gives NotHex), so that a caller can pass any input
// through it.
func Decode(b []byte) ([]byte, error) {
	format := Detect(b)
	if format == NotHex {
		return nil, nil
	}
	// A token takes at least two bytes of text (digits and a separator),
	// except the last: this bounds the output by the input.
	out := make([]byte, 0, outputBound(format, len(b)))
	for pos := 0; ; {
		tok, next, bad := nextToken(b, pos)
		if bad >= 0 {
			return nil, errorAt(b, bad, fmt.Sprintf("unexpected character %q", b[bad]))
		}
		if tok.start == tok.end {
			break
		}
		pos = next
		text := b[tok.start:tok.end]
		prefix, digits, ok := splitToken(text)
		want := format == Words || format == PrefixedBytes
		maxDigits := 2
		if format == Words {
			maxDigits = 8
		}
		v, valid := parseHex(digits, maxDigits)
		if !ok || prefix != want || !valid {
			return nil, errorAt(b, tok.start, fmt.Sprintf("%q is not a %s (the dump started as %s)", text, formatUnit(format), format))
		}
		if format == Words {
			out = binary.LittleEndian.AppendUint32(out, uint32(v))
		} else {
			out = append(out, byte(v))
		}
	}
	if format != Words && len(out)%4 != 0 {
		return nil, errorAt(b, len(b), fmt.Sprintf("the dump ends after %d bytes, not a whole number of 4-byte words", len(out)))
	}
	return out, nil
}

func outputBound(f Format, n int) int {
	if f == Words {
		return 4 * (n/2 + 1)
	}
	return n/2 + 1
}

func formatUnit(f Format) string {
	switch f {
	case Words:
		return "32-bit word like 0x07230203"
	case PrefixedBytes:
		return "byte like 0x07"
	}
	return "byte like 07"
}

type span struct{ start, end int }

// nextToken skips separators from pos and returns the token there (empty
// at the end of b) and where scanning resumes. bad is the offset of a byte
// that is neither a separator nor part of a token, found before or right
// after the token, or -1.
func nextToken(b []byte, pos int) (tok span, next, bad int) {
	for pos < len(b) && isSeparator(b[pos]) {
		pos++
	}
	start := pos
	for pos < len(b) && isTokenByte(b[pos]) {
		pos++
	}
	if pos < len(b) && !isSeparator(b[pos]) {
		return span{start, pos}, pos, pos
	}
	return span{start, pos}, pos, -1
}

func isSeparator(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || c == ','
}

func isTokenByte(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// splitToken separates a 0x or x prefix from the digits.
func splitToken(t []byte) (prefix bool, digits []byte, ok bool) {
	switch {
	case len(t) >= 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X'):
		return true, t[2:], len(t) > 2
	case len(t) >= 1 && (t[0] == 'x' || t[0] == 'X'):
		return true, t[1:], len(t) > 1
	}
	return false, t, len(t) > 0
}

// parseHex reads 1 to maxDigits hex digits.
func parseHex(digits []byte, maxDigits int) (uint64, bool) {
	if len(digits) == 0 || len(digits) > maxDigits {
		return 0, false
	}
	var v uint64
	for _, c := range digits {
		var d byte
		switch {
		case '0' <= c && c <= '9':
			d = c - '0'
		case 'a' <= c && c <= 'f':
			d = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, false
		}
		v = v<<4 | uint64(d)
	}
	return v, true
}

// errorAt builds an Error for byte offset off of b.
func errorAt(b []byte, off int, msg string) *Error {
	line, col := 1, 1
	for _, c := range b[:off] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return &Error{Line: line, Col: col, Msg: msg}
}
