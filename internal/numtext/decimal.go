package numtext

// Decimal parses s as a plain decimal number: one or more ASCII digits,
// no sign, no spaces, with a value of at most max. With canonical, a
// leading zero is refused unless s is "0": C's base-0 parsing (spirv-as)
// reads such text as octal, and spirv-dis never prints it. It is the one
// fast path for the decimal numbers the assembler and disassembler meet
// most (widths, indices, ids written as numbers); typed literals in full
// generality go through Parse.
func Decimal(s []byte, max uint64, canonical bool) (uint64, bool) {
	if len(s) == 0 || canonical && s[0] == '0' && len(s) > 1 {
		return 0, false
	}
	var v uint64
	for _, c := range s {
		d := uint64(c - '0')
		if d > 9 || d > max || v > (max-d)/10 {
			return 0, false
		}
		v = v*10 + d
	}
	return v, true
}
