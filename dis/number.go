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
// OpSwitch case, LiteralFloat) as spirv-dis prints it.
func appendNumber(b []byte, words []uint32, nt spirv.NumberType) []byte {
	return numtext.AppendFormat(b, words, nt)
}
