package val

import "spvx/spirv"

// This file holds validate_literals.cpp's rule: the unused high-order
// bits of a typed literal narrower than its last word are zero (floats,
// including the 4-, 6- and 8-bit encodings and MXINT8, and unsigned
// ints) or the sign extension (signed ints). OCP-MX-RULES.md §2.2 F.

func (s *state) literalsPass(i int, in *spirv.Instruction) bool {
	for _, o := range in.Operands {
		if o.Number.Kind == spirv.NotNumber || o.Count == 0 {
			continue
		}
		rem := uint32(o.Number.Width) % 32
		if rem == 0 {
			continue
		}
		w := in.Words[int(o.Offset)+int(o.Count)-1]
		upper := uint32(0xFFFFFFFF) << rem
		ok := w&upper == 0
		if o.Number.Kind == spirv.Signed && w&(1<<(rem-1)) != 0 {
			ok = w&upper == upper
		}
		if !ok {
			return s.fail(i, "", "The high-order bits of a literal number in instruction <id> %d must be 0 for a floating-point type, or 0 for an integer type with Signedness of 0, or sign extended when Signedness is 1", in.ResultID)
		}
	}
	return false
}
