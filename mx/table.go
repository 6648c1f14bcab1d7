package mx

import (
	"math"
	"sync"
)

// rteTable encodes float32 to a narrow float format, round to nearest even
// with saturation, by one table lookup. Rounding a float32 magnitude onto a
// grid with m mantissa bits depends only on its exponent, its top m
// mantissa bits, the next (rounding) bit, and whether any lower bit is set
// (sticky); in binades where the format is subnormal fewer bits are kept and
// the dropped ones are among those. So the index is the magnitude's bits
// from the rounding bit up, followed by the sticky bit: 10+m bits, at most
// 8 KiB per format, built on first use from the exact encoder.
type rteTable struct {
	shift     uint32 // 22 − m: position of the rounding bit
	lowMask   uint32 // bits below the rounding bit
	signShift uint32 // position of the code's sign bit
	codes     [1 << 13]uint8
}

// encode converts float32 bits to a code; NaN and Inf inputs give
// meaningless codes, so callers exclude them (blocks holding them get the
// NaN scale, and EncodeFloat32 checks first).
func (t *rteTable) encode(u uint32) uint8 {
	a := u & 0x7FFFFFFF
	sticky := ((a & t.lowMask) + t.lowMask) >> t.shift // 1 if any low bit is set
	idx := (a>>t.shift)<<1 | sticky
	return t.codes[idx&(1<<13-1)] | uint8(u>>31)<<t.signShift
}

var rteTables = sync.OnceValue(func() (t [E5M2 + 1]*rteTable) {
	for f := E2M1; f <= E5M2; f++ {
		p := &formatInfos[f].float
		m := uint32(p.manBits)
		tab := &rteTable{shift: 22 - m, lowMask: 1<<(22-m) - 1, signShift: uint32(f.Bits() - 1)}
		for idx := range uint32(1) << (10 + m) {
			// A representative magnitude with this index: the key bits,
			// and the lowest bit set when the sticky bit is.
			a := (idx>>1)<<tab.shift | idx&1
			tab.codes[idx] = uint8(p.encode64(float64(math.Float32frombits(a)), RTE, true))
		}
		t[f] = tab
	}
	return t
})
