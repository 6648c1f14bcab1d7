package interp

import "math"

//go:generate go run gen_dense.go

// Full subgroups (every lane active, the common case) run the elementwise
// binary instructions through denseBin (dense_gen.go): one loop per
// component over adjacent registers, without the lane list. The helpers
// here are the per-lane operations, small enough to inline.

// isDenseBin reports whether op has a denseBin kernel.
func isDenseBin(o op) bool { return o >= opIAdd && o <= opFDiv64 }

// shlBits is OpShiftLeftLogical: a shift by the width or more (undefined
// in SPIR-V) gives what a wide shift gives.
func shlBits(x, sh uint64, w uint8, m uint64) uint64 {
	if sh < uint64(w) {
		return (x << sh) & m
	}
	return 0
}

func shrBits(x, sh uint64, w uint8) uint64 {
	if sh < uint64(w) {
		return x >> sh
	}
	return 0
}

func sraBits(x, sh uint64, w uint8, m uint64) uint64 {
	return uint64(sext(x, w)>>min(sh, uint64(w-1))) & m
}

// f32op and f64op are the IEEE operations on register bits; op is a
// constant at every call, so each inlines to one instruction.
func f32op(x, y uint64, op byte) uint64 {
	a, b := math.Float32frombits(uint32(x)), math.Float32frombits(uint32(y))
	var z float32
	switch op {
	case '+':
		z = a + b
	case '-':
		z = a - b
	case '*':
		z = a * b
	default:
		z = a / b
	}
	return uint64(math.Float32bits(z))
}

func f64op(x, y uint64, op byte) uint64 {
	a, b := math.Float64frombits(x), math.Float64frombits(y)
	var z float64
	switch op {
	case '+':
		z = a + b
	case '-':
		z = a - b
	case '*':
		z = a * b
	default:
		z = a / b
	}
	return math.Float64bits(z)
}
