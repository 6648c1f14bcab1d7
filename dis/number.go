package dis

import (
	"math"
	"strconv"

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
// OpSwitch case) as spirv-dis prints it.
//
// TODO(issue 3): replace with internal/numtext.Format once it lands on main.
func appendNumber(b []byte, words []uint32, nt spirv.NumberType) []byte {
	if len(words) == 0 {
		return b
	}
	w := words[0]
	var w64 uint64
	if len(words) > 1 {
		w64 = uint64(w) | uint64(words[1])<<32
	}
	switch nt.Kind {
	case spirv.Signed:
		if len(words) > 1 {
			return strconv.AppendInt(b, int64(w64), 10)
		}
		return strconv.AppendInt(b, int64(int32(w)), 10)
	case spirv.Unsigned:
		if len(words) > 1 {
			return strconv.AppendUint(b, w64, 10)
		}
		return appendUint(b, uint64(w))
	case spirv.Float:
		if nt.HasEncoding {
			return appendEncodedFloat(b, w, nt.Encoding)
		}
		switch nt.Width {
		case 16:
			return appendHexFloat(b, uint64(w&0xFFFF), 5, 10)
		case 32:
			f := math.Float32frombits(w)
			if f == 0 || isNormal32(w) {
				return strconv.AppendFloat(b, float64(f), 'g', 9, 64)
			}
			return appendHexFloat(b, uint64(w), 8, 23)
		case 64:
			f := math.Float64frombits(w64)
			if f == 0 || isNormal64(w64) {
				return strconv.AppendFloat(b, f, 'g', 17, 64)
			}
			return appendHexFloat(b, w64, 11, 52)
		}
	}
	return appendUint(b, uint64(w))
}

func isNormal32(w uint32) bool {
	e := (w >> 23) & 0xFF
	return e != 0 && e != 0xFF
}

func isNormal64(w uint64) bool {
	e := (w >> 52) & 0x7FF
	return e != 0 && e != 0x7FF
}

func appendEncodedFloat(b []byte, w uint32, enc spirv.FPEncoding) []byte {
	switch enc {
	case spirv.FPEncodingBFloat16KHR:
		return appendHexFloat(b, uint64(w&0xFFFF), 8, 7)
	case spirv.FPEncodingFloat8E4M3EXT:
		return appendHexFloat(b, uint64(w&0xFF), 4, 3)
	case spirv.FPEncodingFloat8E5M2EXT:
		return appendHexFloat(b, uint64(w&0xFF), 5, 2)
	case spirv.FPEncodingFloat6E2M3EXT:
		return appendHexFloat(b, uint64(w&0x3F), 2, 3)
	case spirv.FPEncodingFloat6E3M2EXT:
		return appendHexFloat(b, uint64(w&0x3F), 3, 2)
	case spirv.FPEncodingFloat4E2M1EXT:
		return appendHexFloat(b, uint64(w&0xF), 2, 1)
	case spirv.FPEncodingFloat8UnsignedE8M0EXT:
		b = append(b, "0x1p"...)
		e := int(w&0xFF) - 127
		if e >= 0 {
			b = append(b, '+')
		}
		return strconv.AppendInt(b, int64(e), 10)
	case spirv.FPEncodingMXInt8EXT:
		f := float32(int8(w&0xFF)) / 64
		return appendHexFloat(b, uint64(math.Float32bits(f)), 8, 23)
	}
	return appendUint(b, uint64(w))
}

// appendHexFloat prints a binary floating-point value of the given exponent
// and fraction widths in SPIRV-Tools' hex-float form.
func appendHexFloat(b []byte, bits uint64, expBits, fracBits uint) []byte {
	sign := bits>>(expBits+fracBits)&1 != 0
	exp := int64(bits>>fracBits) & (1<<expBits - 1)
	nibbles := (fracBits + 3) / 4
	frac := (bits & (1<<fracBits - 1)) << (nibbles*4 - fracBits)
	bias := int64(1)<<(expBits-1) - 1
	isZero := exp == 0 && frac == 0
	e := exp - bias
	if isZero {
		e = 0
	}
	if exp == 0 && !isZero {
		top := uint64(1) << (nibbles*4 - 1)
		for frac&top == 0 {
			frac <<= 1
			e--
		}
		frac = (frac << 1) & (1<<(nibbles*4) - 1)
	}
	for nibbles > 0 && frac&0xF == 0 {
		frac >>= 4
		nibbles--
	}
	if sign {
		b = append(b, '-')
	}
	b = append(b, '0', 'x')
	if isZero {
		b = append(b, '0')
	} else {
		b = append(b, '1')
	}
	if nibbles > 0 {
		b = append(b, '.')
		for i := int(nibbles) - 1; i >= 0; i-- {
			b = append(b, "0123456789abcdef"[frac>>(uint(i)*4)&0xF])
		}
	}
	b = append(b, 'p')
	if e >= 0 {
		b = append(b, '+')
	}
	return strconv.AppendInt(b, e, 10)
}
