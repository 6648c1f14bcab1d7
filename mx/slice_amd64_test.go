package mx

import (
	"math/rand/v2"
	"testing"
)

// withGatherDecode runs fn with the float formats' decoders gathering from
// the tables instead of computing (the path of a machine without F16C for
// binary16 output, and the kernels' first form), the directed-mode
// encoders gathering from the encodeTable, and binary16 to E5M2 and
// bfloat16 in RTE through the general encoders.
func withGatherDecode(fn func()) {
	arith, f16c, dir, e5, w16 := useArithDecode, useF16C, useDirArith, useE5Half, useRTEW16
	useArithDecode, useF16C, useDirArith, useE5Half, useRTEW16 = false, false, false, false, false
	defer func() {
		useArithDecode, useF16C, useDirArith, useE5Half, useRTEW16 = arith, f16c, dir, e5, w16
	}()
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

// packFP6Ref packs codes (6 bits each, len a multiple of 4) 4 to 3 bytes,
// code k of a group at bits 6k: the layout ElementBytes gives MXFP6.
func packFP6Ref(codes []byte) []byte {
	dst := make([]byte, 0, len(codes)/4*3)
	for i := 0; i+4 <= len(codes); i += 4 {
		w := uint32(codes[i]) | uint32(codes[i+1])<<6 | uint32(codes[i+2])<<12 | uint32(codes[i+3])<<18
		dst = append(dst, byte(w), byte(w>>8), byte(w>>16))
	}
	return dst
}

// TestUnpackFP6Paths: the AVX2 FP6 unpacker and the Go loops invert the
// reference packing at every length (whole groups of 32 and tails).
func TestUnpackFP6Paths(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2: only the Go loops exist here")
	}
	rng := rand.New(rand.NewPCG(6, 6))
	for n := 0; n <= 200; n += 4 {
		codes := make([]byte, n)
		for i := range codes {
			codes[i] = byte(rng.IntN(64))
		}
		packed := packFP6Ref(codes)
		vec, scalar := make([]byte, n), make([]byte, n)
		unpackFP6(vec, packed)
		useAVX2 = false
		unpackFP6(scalar, packed)
		useAVX2 = true
		for i := range codes {
			if vec[i] != codes[i] || scalar[i] != codes[i] {
				t.Fatalf("n=%d code %d: unpacked %#x (AVX2) %#x (Go), want %#x", n, i, vec[i], scalar[i], codes[i])
			}
		}
	}
}
