package checked

import (
	"math"
	"testing"
)

func TestMulAdd(t *testing.T) {
	const max = math.MaxInt
	tests := []struct {
		a, b, c int
		mul     int
		mulOK   bool
		add     int
		addOK   bool
	}{
		{0, 0, 0, 0, true, 0, true},
		{3, 4, 5, 12, true, 7, true},
		{1 << 31, 1 << 31, 0, 1 << 62, true, 1 << 32, true},
		{1 << 32, 1 << 31, 1, 0, false, 1<<32 + 1<<31, true}, // 2^63 does not fit
		{1 << 32, 1 << 32, 0, 0, false, 1 << 33, true},       // 2^64 wraps to 0
		{1 << 53, 1 << 10, 0, 0, false, 1<<53 + 1<<10, true},
		{1 << 61, 8, 0, 0, false, 1<<61 + 8, true}, // the F64 [2^61] case: wraps to 0
		{1 << 61, 4, 0, 0, false, 1<<61 + 4, true},
		{1 << 61, 3, 0, 3 << 61 & max, true, 1<<61 + 3, true},
		{1 << 62, 2, 0, 0, false, 1<<62 + 2, true},
		{1 << 62, 1 << 62, 0, 0, false, 0, false},
		{max, 1, 0, max, true, 0, false},
		{max, 2, 0, 0, false, 0, false},
		{max, 0, 0, 0, true, max, true},
		{3074457345618258603, 6, 0, 0, false, 3074457345618258609, true}, // 6n wraps to 2
		{-1, 1, 0, 0, false, 0, true},
		{1, -1, 0, 0, false, 0, true},
	}
	for _, tc := range tests {
		p, ok := Mul(tc.a, tc.b)
		if ok != tc.mulOK || (ok && p != tc.mul) {
			t.Errorf("Mul(%d, %d) = %d, %v; want %d, %v", tc.a, tc.b, p, ok, tc.mul, tc.mulOK)
		}
		if tc.a >= 0 && tc.b >= 0 {
			s, ok := Add(tc.a, tc.b)
			if ok != tc.addOK || (ok && s != tc.add) {
				t.Errorf("Add(%d, %d) = %d, %v; want %d, %v", tc.a, tc.b, s, ok, tc.add, tc.addOK)
			}
		}
	}
	if _, ok := Add(-1, 5); ok {
		t.Error("Add(-1, 5) accepted a negative operand")
	}
	if v, ok := MulAdd(1<<31, 4, 7); !ok || v != 1<<33+7 {
		t.Errorf("MulAdd(2^31, 4, 7) = %d, %v", v, ok)
	}
	if _, ok := MulAdd(max/6+1, 6, 0); ok {
		t.Error("MulAdd(MaxInt/6+1, 6, 0) did not overflow")
	}
	if _, ok := MulAdd(max/6, 6, 7); ok {
		t.Error("MulAdd(MaxInt/6, 6, 7) did not overflow in the add")
	}
}

func TestProduct(t *testing.T) {
	tests := []struct {
		dims []int
		size int
		want int
		ok   bool
	}{
		{nil, 4, 4, true},
		{[]int{}, 8, 8, true},
		{[]int{2, 3}, 4, 24, true},
		{[]int{0, 5}, 4, 0, true},
		{[]int{1 << 61}, 8, 0, false},
		{[]int{1 << 62}, 4, 0, false},
		{[]int{1 << 32, 1 << 32}, 1, 0, false},
		{[]int{1 << 32, 1 << 32, 0}, 1, 0, false}, // wraps before the zero
		{[]int{1 << 31, 1 << 31}, 1, 1 << 62, true},
		{[]int{1 << 53}, 4, 1 << 55, true},
		{[]int{math.MaxInt}, 1, math.MaxInt, true},
		{[]int{math.MaxInt}, 4, 0, false},
		{[]int{3, -1}, 4, 0, false},
		{[]int{3}, -4, 0, false},
	}
	for _, tc := range tests {
		got, ok := Product(tc.dims, tc.size)
		if ok != tc.ok || got != tc.want {
			t.Errorf("Product(%v, %d) = %d, %v; want %d, %v", tc.dims, tc.size, got, ok, tc.want, tc.ok)
		}
	}
}
