package mx

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// withGatherDecode runs fn with the float formats' decoders gathering from
// the tables instead of computing (the path of a machine without F16C for
// binary16 output, and the kernels' first form).
func withGatherDecode(fn func()) {
	arith, f16c := useArithDecode, useF16C
	useArithDecode, useF16C = false, false
	defer func() { useArithDecode, useF16C = arith, f16c }()
	fn()
}

// withGather512 runs fn with the AVX-512 directed-mode encoders gathering
// from the encodeTable instead of computing.
func withGather512(fn func()) {
	useDirArith = false
	defer func() { useDirArith = true }()
	fn()
}

// withNT runs fn with the AVX-512 kernels storing non-temporally
// wherever the output is aligned, whatever its size.
func withNT(fn func()) {
	ntMinBytes = 0
	defer func() { ntMinBytes = 1 << 20 }()
	fn()
}

// TestPackFP6Paths: the AVX2 FP6 packer and unpacker give the Go loops'
// bytes and codes at every length (whole groups of 32 and tails), and
// unpacking inverts packing.
func TestPackFP6Paths(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2: only the Go loops exist here")
	}
	rng := rand.New(rand.NewPCG(6, 6))
	for n := 0; n <= 200; n += 4 {
		codes := make([]byte, n)
		for i := range codes {
			codes[i] = byte(rng.IntN(64))
		}
		vec, scalar := make([]byte, n/4*3), make([]byte, n/4*3)
		packFP6(vec, codes)
		useAVX2 = false
		packFP6(scalar, codes)
		back := make([]byte, n)
		unpackFP6(back, scalar)
		useAVX2 = true
		if !bytes.Equal(vec, scalar) {
			t.Fatalf("n=%d: packed % x, Go loop % x", n, vec, scalar)
		}
		back2 := make([]byte, n)
		unpackFP6(back2, vec)
		for i := range codes {
			if back[i] != codes[i] || back2[i] != codes[i] {
				t.Fatalf("n=%d code %d: unpacked %#x (Go) %#x (AVX2), want %#x", n, i, back[i], back2[i], codes[i])
			}
		}
	}
}
