package asm

import (
	"encoding/binary"
	"math/bits"
)

// The scanner follows SPIRV-Tools' text_handler.cpp exactly, since where a
// word ends and what starts an instruction decide which texts assemble and
// where errors point. Positions are byte offsets into the text; line and
// column are derived only when an error is reported.

// wordBreak marks the bytes that end a word outside quotes: white space,
// the comment start and the punctuation of OpUnknown(opcode, count).
// wordSlow marks the bytes that make word scanning stateful.
var wordClass = [256]uint8{
	' ': wordBreak | skipped, '\t': wordBreak | skipped, '\n': wordBreak | skipped, '\r': wordBreak | skipped,
	';': wordBreak | skipped, ',': wordBreak, '(': wordBreak, ')': wordBreak,
	'"': wordSlow, '\\': wordSlow,
}

const (
	wordBreak = 1
	wordSlow  = 2
	skipped   = 4 // white space or the start of a comment, which advance skips
)

// wordEnd returns the end of the word starting at p. A word ends at white
// space, ';', ',', '(' or ')' unless quoted ("...") or escaped (\x).
func (a *assembler) wordEnd(p int) int {
	src := a.src
	i := p
	for i < len(src) {
		c := wordClass[src[i]]
		if c == 0 {
			i++
			continue
		}
		if c&wordBreak != 0 {
			return i
		}
		return a.wordEndSlow(p)
	}
	return i
}

// shortEnd returns where the first byte below '0' (0x30) from p is: the
// end of an id or opcode name, whose bytes are letters, digits and '_',
// and that is followed by white space. It reads eight bytes at a time;
// callers check the name and what ends it.
func (a *assembler) shortEnd(p int) int {
	src := a.src
	for p+8 <= len(src) {
		if m := hasLess(binary.LittleEndian.Uint64(src[p:]), '0'); m != 0 {
			return p + bits.TrailingZeros64(m)/8 // the lowest flagged byte is exact
		}
		p += 8
	}
	for p < len(src) && src[p] >= '0' {
		p++
	}
	return p
}

// hasLess is non-zero if a byte of x is below n (n <= 128): the SWAR
// test of "Bit Twiddling Hacks", in which the lowest flagged byte is
// exact.
func hasLess(x uint64, n byte) uint64 {
	const lsb = 0x0101010101010101
	return (x - lsb*uint64(n)) &^ x & (lsb << 7)
}

// wordEndSlow is wordEnd with quoting and escaping.
//
//go:noinline
func (a *assembler) wordEndSlow(p int) int {
	src := a.src
	quoting, escaping := false, false
	for i := p; i < len(src); i++ {
		ch := src[i]
		if ch == '\\' {
			escaping = !escaping
			continue
		}
		switch ch {
		case '"':
			if !escaping {
				quoting = !quoting
			}
		case ' ', ';', ',', '(', ')', '\t', '\n', '\r':
			if !escaping && !quoting {
				return i
			}
		}
		escaping = false
	}
	return len(src)
}

// advance skips white space and comments from p and returns the start of
// the next word, or len(src) at the end of the text.
func (a *assembler) advance(p int) int {
	// Most words are followed by one space and the next word.
	if src := a.src; p+1 < len(src) && src[p] == ' ' && wordClass[src[p+1]]&skipped == 0 {
		return p + 1
	}
	return a.advanceSlow(p)
}

// advanceSlow is advance's general case, kept out of line so that advance
// inlines.
//
//go:noinline
func (a *assembler) advanceSlow(p int) int {
	// The end of a line is often skipped twice: once to see whether the
	// next line starts an instruction, once to go there.
	if p == a.advFrom {
		return a.advTo
	}
	from := p
	src := a.src
	for p < len(src) {
		// Spaces eight at a time: disassembly indents most lines by a
		// dozen or more.
		for p+8 <= len(src) {
			if x := binary.LittleEndian.Uint64(src[p:]) ^ 0x2020202020202020; x != 0 {
				p += bits.TrailingZeros64(x) / 8
				break
			}
			p += 8
		}
		if p >= len(src) {
			break
		}
		switch src[p] {
		case ' ', '\t', '\r', '\n':
			p++
		case ';':
			for p < len(src) && src[p] != '\n' {
				p++
			}
		default:
			a.advFrom, a.advTo = from, p
			return p
		}
	}
	return p
}

// startsWithOp reports whether an opcode name starts at p: "Op" and a
// capital letter.
func (a *assembler) startsWithOp(p int) bool {
	src := a.src
	return p+3 <= len(src) && src[p] == 'O' && src[p+1] == 'p' && 'A' <= src[p+2] && src[p+2] <= 'Z'
}

// newInst reports whether an instruction starts at p (a word start):
// an opcode name, or "%id = Op...". It also returns the end of the word at
// p when it had to find it (else -1), to save the caller a rescan.
func (a *assembler) newInst(p int) (bool, int) {
	if a.startsWithOp(p) {
		return true, -1
	}
	src := a.src
	e := a.wordEnd(p)
	if e == p || src[p] != '%' {
		return false, e
	}
	q := a.advance(e)
	if q >= len(src) || src[q] != '=' || a.wordEnd(q) != q+1 {
		return false, e
	}
	r := a.advance(q + 1)
	return r < len(src) && a.startsWithOp(r), e
}

// lineCol converts byte offsets (sorted) to 1-based lines and columns.
// Columns count bytes since the last newline, as SPIRV-Tools does.
func lineCols(src []byte, offs []int) [][2]int {
	res := make([][2]int, len(offs))
	line, lineStart, i := 1, 0, 0
	for k, off := range offs {
		if off > len(src) {
			off = len(src)
		}
		for ; i < off; i++ {
			if src[i] == '\n' {
				line++
				lineStart = i + 1
			}
		}
		res[k] = [2]int{line, off - lineStart + 1}
	}
	return res
}

// toolsLineCols converts byte offsets (sorted) to the lines and columns
// spirv-as reports. SPIRV-Tools counts a line only for a newline it skips
// between words: one inside a word (a quoted string, an escaped newline)
// just adds to the column. So this walks the text word by word, as the
// assembler reads it.
func (a *assembler) toolsLineCols(offs []int) [][2]int {
	src := a.src
	res := make([][2]int, len(offs))
	line, lineStart, k := 1, 0, 0
	put := func(limit int) {
		for ; k < len(offs) && offs[k] <= limit; k++ {
			res[k] = [2]int{line, offs[k] - lineStart + 1}
		}
	}
	p := 0
	for p < len(src) && k < len(offs) {
		// Between words: newlines count.
		for p < len(src) {
			c := src[p]
			if c == ';' {
				for p < len(src) && src[p] != '\n' {
					p++
				}
				continue
			}
			if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
				break
			}
			put(p)
			p++
			if c == '\n' {
				line, lineStart = line+1, p
			}
		}
		put(p)
		// A word, or the punctuation of OpUnknown.
		e := a.wordEnd(p)
		if e == p {
			e = p + 1
		}
		put(e - 1)
		p = e
	}
	put(len(src))
	for ; k < len(offs); k++ {
		res[k] = [2]int{line, offs[k] - lineStart + 1}
	}
	return res
}
