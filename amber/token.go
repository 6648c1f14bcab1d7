package amber

import (
	"math"
	"strconv"
	"strings"
)

// tokKind classifies a token the way amber's tokenizer does: the parser
// decides from the kind whether a word is a name, an integer, a float or a
// hex literal.
type tokKind uint8

const (
	tokEOS tokKind = iota
	tokEOL
	tokIdent
	tokString
	tokInt
	tokDouble
	tokHex
)

// token is one lexical item with the line it starts on.
type token struct {
	kind tokKind
	text string  // original text (identifier, string value, or number text)
	u    uint64  // integer value (two's complement for negative numbers)
	f    float64 // double value
	neg  bool
	// ovf marks a number beyond what u or f hold: a decimal integer
	// beyond 64 bits (u saturates, as strtoull does) or a double beyond
	// float64's range (f is infinite). Fields reject it as out of range.
	ovf  bool
	line int
}

func (t token) isIdent(s string) bool { return t.kind == tokIdent && t.text == s }
func (t token) isEnd() bool           { return t.kind == tokEOL || t.kind == tokEOS }
func (t token) isNumber() bool        { return t.kind == tokInt || t.kind == tokDouble }

// show is the token as a message names it.
func (t token) show() string {
	switch t.kind {
	case tokEOS:
		return "end of file"
	case tokEOL:
		return "end of line"
	}
	return t.text
}

// asDouble converts an integer or hex token to a double, as amber's
// Token::ConvertToDouble does; ok is false for names and line ends.
func (t token) asDouble() (float64, bool) {
	switch t.kind {
	case tokDouble:
		return t.f, true
	case tokInt:
		if t.neg {
			return float64(int64(t.u)), true
		}
		return float64(t.u), true
	case tokHex:
		return float64(t.u), true
	}
	return 0, false
}

// tokenizer splits AmberScript (and VkScript [test] / [require] text) into
// tokens. It follows amber's src/tokenizer.cc: '#' starts a comment, a line
// end is a token, a lone '\' at the end of a line joins the next line, ',',
// '(' and ')' are tokens of their own, and a word starting with a digit (or
// '-' or '.' and a digit) is a number whose trailing non-numeric text
// becomes the next token (so "1%" is 1 then "%").
type tokenizer struct {
	s    string
	pos  int
	line int
}

func newTokenizer(s string, line int) *tokenizer { return &tokenizer{s: s, line: line} }

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == 0 || c == '\f' || c == '\v'
}

// isStop ends a word. Amber stops only at ' ', '\r', '\n', ',', '(' and ')';
// spvx also stops at tabs and other blanks, which the CTS files use as
// indentation and amber's whitespace skipping already treats as blank.
func isStop(c byte) bool {
	return isSpace(c) || c == '\n' || c == ',' || c == '(' || c == ')'
}

func (z *tokenizer) skipSpace() {
	for z.pos < len(z.s) && isSpace(z.s[z.pos]) {
		z.pos++
	}
}

func (z *tokenizer) next() token {
	z.skipSpace()
	if z.pos < len(z.s) && z.s[z.pos] == '#' {
		for z.pos < len(z.s) && z.s[z.pos] != '\n' {
			z.pos++
		}
	}
	if z.pos >= len(z.s) {
		return token{kind: tokEOS, line: z.line}
	}
	c := z.s[z.pos]
	if c == '\n' {
		t := token{kind: tokEOL, line: z.line}
		z.line++
		z.pos++
		return t
	}
	line := z.line
	if c == '"' {
		z.pos++
		var b strings.Builder
		esc := false
		for z.pos < len(z.s) {
			c := z.s[z.pos]
			z.pos++
			if esc {
				esc = false
				switch c {
				case 'a':
					c = '\a'
				case 'b':
					c = '\b'
				case 't':
					c = '\t'
				case 'n':
					c = '\n'
				case 'v':
					c = '\v'
				case 'f':
					c = '\f'
				case 'r':
					c = '\r'
				}
				b.WriteByte(c)
				continue
			}
			if c == '\\' {
				esc = true
				continue
			}
			if c == '"' {
				break
			}
			if c == '\n' {
				z.line++
			}
			b.WriteByte(c)
		}
		return token{kind: tokString, text: b.String(), line: line}
	}
	if c == ',' || c == '(' || c == ')' {
		z.pos++
		return token{kind: tokIdent, text: string(c), line: line}
	}
	end := z.pos
	for end < len(z.s) && !isStop(z.s[end]) {
		end++
	}
	word := z.s[z.pos:end]
	z.pos = end
	isNaN := strings.EqualFold(word, "nan")
	digitAt := func(i int) bool { return i < len(word) && word[i] >= '0' && word[i] <= '9' }
	if !isNaN && !digitAt(0) && !(word[0] == '-' && digitAt(1)) && !(word[0] == '.' && digitAt(1)) {
		if word == "\\" {
			// A continuation: skip the line end and go on.
			if z.pos < len(z.s) && z.s[z.pos] == '\n' {
				z.pos++
				z.line++
				return z.next()
			}
			if z.pos+1 < len(z.s) && z.s[z.pos] == '\r' && z.s[z.pos+1] == '\n' {
				z.pos += 2
				z.line++
				return z.next()
			}
			// Trailing blanks after the backslash.
			p := z.pos
			for p < len(z.s) && isSpace(z.s[p]) {
				p++
			}
			if p < len(z.s) && z.s[p] == '\n' {
				z.pos = p + 1
				z.line++
				return z.next()
			}
		}
		return token{kind: tokIdent, text: word, line: line}
	}
	if !isNaN && len(word) > 2 && word[0] == '0' && word[1] == 'x' {
		n := 2
		for n < len(word) && isHexDigit(word[n]) {
			n++
		}
		u, err := strconv.ParseUint(word[2:n], 16, 64)
		if err != nil || n == 2 {
			// Amber's strtoull would read what it can; an unreadable
			// hex literal is a name the parser then rejects.
			return token{kind: tokIdent, text: word, line: line}
		}
		z.pos -= len(word) - n
		return token{kind: tokHex, text: word[:n], u: u, line: line}
	}
	if isNaN {
		return token{kind: tokDouble, text: word, f: math.NaN(), line: line}
	}
	isDouble := strings.IndexByte(word, '.') >= 0
	if isDouble {
		n := floatPrefix(word)
		if n == 0 {
			return token{kind: tokIdent, text: word, line: line}
		}
		f, err := strconv.ParseFloat(word[:n], 64)
		z.pos -= len(word) - n
		return token{kind: tokDouble, text: word[:n], f: f, neg: word[0] == '-', ovf: err != nil, line: line}
	}
	n := 0
	if word[0] == '-' {
		n = 1
	}
	for n < len(word) && word[n] >= '0' && word[n] <= '9' {
		n++
	}
	// strtoull semantics: a negative number wraps to two's complement and
	// an out-of-range one saturates.
	digits := word[:n]
	var u uint64
	neg := digits[0] == '-'
	ovf := false
	if neg {
		v, err := strconv.ParseUint(digits[1:], 10, 64)
		if err != nil {
			v = math.MaxUint64
		}
		// A negative number is an int64: beyond -2^63 it has no value.
		ovf = err != nil || v > 1<<63
		u = -v
	} else {
		v, err := strconv.ParseUint(digits, 10, 64)
		if err != nil {
			v = math.MaxUint64
		}
		ovf = err != nil
		u = v
	}
	z.pos -= len(word) - n
	return token{kind: tokInt, text: digits, u: u, neg: neg, ovf: ovf, line: line}
}

// peek returns the next token without consuming it.
func (z *tokenizer) peek() token {
	pos, line := z.pos, z.line
	t := z.next()
	z.pos, z.line = pos, line
	return t
}

// extractTo returns the text up to the next occurrence of marker (not
// consuming it), as amber's Tokenizer::ExtractToNext does for shader bodies.
func (z *tokenizer) extractTo(marker string) (string, bool) {
	i := strings.Index(z.s[z.pos:], marker)
	var out string
	found := i >= 0
	if !found {
		out = z.s[z.pos:]
		z.pos = len(z.s)
	} else {
		out = z.s[z.pos : z.pos+i]
		z.pos += i
	}
	z.line += strings.Count(out, "\n")
	return out, found
}

func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// floatPrefix is the length of the longest prefix of w that strtod reads
// as a decimal number.
func floatPrefix(w string) int {
	i := 0
	if i < len(w) && (w[i] == '-' || w[i] == '+') {
		i++
	}
	digits := 0
	for i < len(w) && w[i] >= '0' && w[i] <= '9' {
		i++
		digits++
	}
	if i < len(w) && w[i] == '.' {
		i++
		for i < len(w) && w[i] >= '0' && w[i] <= '9' {
			i++
			digits++
		}
	}
	if digits == 0 {
		return 0
	}
	if i < len(w) && (w[i] == 'e' || w[i] == 'E') {
		j := i + 1
		if j < len(w) && (w[j] == '-' || w[j] == '+') {
			j++
		}
		k := j
		for k < len(w) && w[k] >= '0' && w[k] <= '9' {
			k++
		}
		if k > j {
			i = k
		}
	}
	return i
}
