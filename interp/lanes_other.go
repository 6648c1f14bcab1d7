//go:build !amd64

package interp

// Without amd64's vector loops (lanes_amd64.go) the portable ones do
// everything.

var useAVX2 = false

func f32Vector(op int, d, a, b []uint64, y uint64) int { return 0 }

func intVector(op int, d, a, b []uint64, y, m, flip, sh, s uint64) int { return 0 }

func isRamp(idx []uint64, i0 uint64) bool { return isRampGo(idx, i0) }

func widen32(d []uint64, src []byte) { widen32Go(d, src) }

func narrow32(dst []byte, v []uint64) { narrow32Go(dst, v) }

func fill(d []uint64, v uint64) { fillGo(d, v) }

func ramp(d []uint64, base, m uint64) { rampGo(d, base, m) }
