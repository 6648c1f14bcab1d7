package interp

import "spvx/internal/cpuid"

// AVX2 lane loops (lanes_amd64.s) for the hottest dense kernels: float32
// add, subtract, multiply and divide, and the contiguous loads and stores
// of 32-bit values. They compute what the portable loops compute, four
// lanes per instruction instead of one; lanes_test.go runs both on the
// same inputs. The one difference SPIR-V allows: when both operands of a
// float op are NaNs, which NaN's payload the result keeps.

var useAVX2 = cpuid.AVX2()

//go:noescape
func f32binAVX2(op int, d, a, b *uint64, imm bool, n int)

//go:noescape
func intbinAVX2(op int, d, a, b *uint64, bstep int, m, flip, sh, s uint64, n int)

//go:noescape
func fillAVX2(d *uint64, v uint64, n int)

//go:noescape
func rampAVX2(d *uint64, base, m uint64, n int)

//go:noescape
func isRampAVX2(idx *uint64, n int, i0 uint64) bool

//go:noescape
func widen32AVX2(d *uint64, src *byte, n int)

//go:noescape
func narrow32AVX2(dst *byte, v *uint64, n int)

// f32Vector runs d = a op b (op 0..3: + - * /) over the lanes of d in
// groups of four and reports how many lanes it did (a multiple of four;
// the caller does the rest). b is a lane array, or nil with y the
// immediate's bits.
func f32Vector(op int, d, a, b []uint64, y uint64) int {
	n := len(d) &^ 3
	if !useAVX2 || n == 0 || len(a) < n || (b != nil && len(b) < n) {
		return 0
	}
	if b == nil {
		f32binAVX2(op, &d[0], &a[0], &y, true, n)
	} else {
		f32binAVX2(op, &d[0], &a[0], &b[0], false, n)
	}
	return n
}

// intVector runs integer kernel op (intOp) over the lanes of d in groups
// of four and reports how many lanes it did (the caller does the rest).
// b is a lane array, or nil with y the immediate. m masks arithmetic
// results; comparisons see each operand as (x<<sh)^flip, a signed 64-bit
// word: flip 1<<63 orders unsigned words, sh 64-w narrow signed ones. s is
// the shift count of intShl/intShr.
func intVector(op int, d, a, b []uint64, y, m, flip, sh, s uint64) int {
	n := len(d) &^ 3
	if !useAVX2 || n == 0 || len(a) < n || (b != nil && len(b) < n) {
		return 0
	}
	if b == nil {
		yb := [4]uint64{y, y, y, y}
		intbinAVX2(op, &d[0], &a[0], &yb[0], 0, m, flip, sh, s, n)
	} else {
		intbinAVX2(op, &d[0], &a[0], &b[0], 32, m, flip, sh, s, n)
	}
	return n
}

// isRamp reports whether idx[l] == i0+l for every lane.
func isRamp(idx []uint64, i0 uint64) bool {
	n := len(idx) &^ 3
	if !useAVX2 || n == 0 {
		return isRampGo(idx, i0)
	}
	return isRampAVX2(&idx[0], n, i0) && isRampGo(idx[n:], i0+uint64(n))
}

// widen32 sets d[l] to the little-endian uint32 at src[4*l:]; src holds
// at least 4*len(d) bytes.
func widen32(d []uint64, src []byte) {
	src = src[:4*len(d)]
	n := len(d) &^ 3
	if !useAVX2 || n == 0 {
		widen32Go(d, src)
		return
	}
	widen32AVX2(&d[0], &src[0], n)
	widen32Go(d[n:], src[4*n:])
}

// narrow32 stores the low half of v[l] little-endian at dst[4*l:]; dst
// holds at least 4*len(v) bytes.
func narrow32(dst []byte, v []uint64) {
	dst = dst[:4*len(v)]
	n := len(v) &^ 3
	if !useAVX2 || n == 0 {
		narrow32Go(dst, v)
		return
	}
	narrow32AVX2(&dst[0], &v[0], n)
	narrow32Go(dst[4*n:], v[n:])
}

// fill sets every d[l] to v.
func fill(d []uint64, v uint64) {
	n := len(d) &^ 3
	if !useAVX2 || n == 0 {
		fillGo(d, v)
		return
	}
	fillAVX2(&d[0], v, n)
	fillGo(d[n:], v)
}

// ramp sets d[l] to (base + l) & m.
func ramp(d []uint64, base, m uint64) {
	n := len(d) &^ 3
	if !useAVX2 || n == 0 {
		rampGo(d, base, m)
		return
	}
	rampAVX2(&d[0], base, m, n)
	rampGo(d[n:], base+uint64(n), m)
}
