package interp

// Portable lane loops: the whole job off amd64 (lanes_other.go) and the
// tails after the AVX2 loops' groups of four (lanes_amd64.go).

// Integer kernels of intVector (lanes_amd64.go); the numbers are the
// assembly's.
const (
	intAdd = iota
	intSub
	intMul // the low 32 bits of the product: only with a mask of 32 bits or fewer
	intAnd
	intOr
	intXor
	intEq
	intNe
	intLt
	intGt
	intLe
	intGe
	intShl
	intShr
)

// isRampGo reports whether idx[l] == i0+l for every lane.
func isRampGo(idx []uint64, i0 uint64) bool {
	for l, v := range idx {
		if v != i0+uint64(l) {
			return false
		}
	}
	return true
}

// widen32Go sets d[l] to the little-endian uint32 at src[4*l:].
func widen32Go(d []uint64, src []byte) {
	src = src[:4*len(d)]
	for l := range d {
		d[l] = uint64(uint32(src[4*l]) | uint32(src[4*l+1])<<8 | uint32(src[4*l+2])<<16 | uint32(src[4*l+3])<<24)
	}
}

// narrow32Go stores the low half of v[l] little-endian at dst[4*l:].
func narrow32Go(dst []byte, v []uint64) {
	dst = dst[:4*len(v)]
	for l, x := range v {
		dst[4*l], dst[4*l+1], dst[4*l+2], dst[4*l+3] = byte(x), byte(x>>8), byte(x>>16), byte(x>>24)
	}
}

// fillGo sets every d[l] to v.
func fillGo(d []uint64, v uint64) {
	for l := range d {
		d[l] = v
	}
}

// rampGo sets d[l] to (base + l) & m.
func rampGo(d []uint64, base, m uint64) {
	for l := range d {
		d[l] = (base + uint64(l)) & m
	}
}
