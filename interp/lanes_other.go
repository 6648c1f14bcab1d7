//go:build !amd64

package interp

// Portable versions of lanes_amd64.go: no vector loops.

var useAVX2 = false

func f32Vector(op int, d, a, b []uint64, y uint64) int { return 0 }

func isRamp(idx []uint64, i0 uint64) bool {
	for l, v := range idx {
		if v != i0+uint64(l) {
			return false
		}
	}
	return true
}

func widen32(d []uint64, src []byte) {
	src = src[:4*len(d)]
	for l := range d {
		d[l] = uint64(uint32(src[4*l]) | uint32(src[4*l+1])<<8 | uint32(src[4*l+2])<<16 | uint32(src[4*l+3])<<24)
	}
}

func narrow32(dst []byte, v []uint64) {
	dst = dst[:4*len(v)]
	for l, x := range v {
		dst[4*l], dst[4*l+1], dst[4*l+2], dst[4*l+3] = byte(x), byte(x>>8), byte(x>>16), byte(x>>24)
	}
}
