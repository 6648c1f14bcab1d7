package dis

import (
	"strconv"

	"spvx/internal/numtext"
	"spvx/spirv"
)

// appendUint appends the decimal form of v.
func appendUint(b []byte, v uint64) []byte {
	if v < 10 {
		return append(b, byte('0'+v))
	}
	return strconv.AppendUint(b, v, 10)
}

// appendNumber appends a typed literal number (OpConstant, OpSpecConstant,
// OpSwitch case, LiteralFloat) as spirv-dis prints it, words being the
// operand's words. It follows SPIRV-Tools' EmitNumericLiteral
// (source/parsed_operand.cpp) also where a word has bits outside its type's
// width, which a valid module never has:
//   - an integer of one word prints the whole word (as int32 if signed), of
//     two words the whole 64 bits, whatever the type's width;
//   - a float of one word with an FP encoding prints the encoding's low bits;
//     without one, a 16-bit type the low 16 bits, a 32-bit type the word,
//     other widths nothing; a float of two words prints as binary64;
//   - a literal of no word or of more than two words prints nothing.
func appendNumber(b []byte, words []uint32, nt spirv.NumberType) []byte {
	switch len(words) {
	case 1:
		w := words[0]
		switch nt.Kind {
		case spirv.Signed:
			return strconv.AppendInt(b, int64(int32(w)), 10)
		case spirv.Unsigned:
			return appendUint(b, uint64(w))
		case spirv.Float:
			if nt.HasEncoding {
				width := numtext.EncodingWidth(nt.Encoding)
				if width == 0 || width > 32 {
					return b
				}
				ft := spirv.NumberType{Kind: spirv.Float, Width: uint8(width), HasEncoding: true, Encoding: nt.Encoding}
				return numtext.AppendFormat(b, []uint32{w & (1<<width - 1)}, ft)
			}
			switch nt.Width {
			case 16:
				return numtext.AppendFormat(b, []uint32{w & 0xFFFF}, spirv.NumberType{Kind: spirv.Float, Width: 16})
			case 32:
				return numtext.AppendFormat(b, words, spirv.NumberType{Kind: spirv.Float, Width: 32})
			}
		}
	case 2:
		v := uint64(words[0]) | uint64(words[1])<<32
		switch nt.Kind {
		case spirv.Signed:
			return strconv.AppendInt(b, int64(v), 10)
		case spirv.Unsigned:
			return strconv.AppendUint(b, v, 10)
		case spirv.Float:
			return numtext.AppendFormat(b, words, spirv.NumberType{Kind: spirv.Float, Width: 64})
		}
	}
	return b
}
