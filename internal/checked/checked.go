// Package checked does the integer arithmetic of sizes that come from
// input (tensor shapes, block counts, byte counts) with overflow detection.
//
// Every function takes and returns int and reports ok = false instead of a
// wrapped result, and also for a negative operand: a size is never
// negative, and a negative value from a file is as wrong as an overflow.
// Callers compare the result with the bytes actually present before
// allocating anything, so a header cannot make them allocate more than the
// input holds.
package checked

import "math/bits"

// Mul returns a·b, with ok = false if a or b is negative or the product
// does not fit in an int.
func Mul(a, b int) (int, bool) {
	if a < 0 || b < 0 {
		return 0, false
	}
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if hi != 0 || lo > uint64(maxInt) {
		return 0, false
	}
	return int(lo), true
}

// Add returns a+b, with ok = false if a or b is negative or the sum does
// not fit in an int.
func Add(a, b int) (int, bool) {
	if a < 0 || b < 0 || a > maxInt-b {
		return 0, false
	}
	return a + b, true
}

// MulAdd returns a·b+c, with ok = false if an operand is negative or a
// step overflows.
func MulAdd(a, b, c int) (int, bool) {
	p, ok := Mul(a, b)
	if !ok {
		return 0, false
	}
	return Add(p, c)
}

// Product returns the product of dims times elemSize: the byte size of a
// tensor of that shape and element size (1 for an empty shape, a scalar).
// ok is false if a dimension or elemSize is negative or a step overflows,
// even when a later zero dimension would bring the product back to 0: a
// shape that cannot be sized is rejected whatever it multiplies to.
func Product(dims []int, elemSize int) (int, bool) {
	n, ok := elemSize, elemSize >= 0
	for _, d := range dims {
		if !ok {
			break
		}
		n, ok = Mul(n, d)
	}
	if !ok {
		return 0, false
	}
	return n, true
}

const maxInt = int(^uint(0) >> 1)
