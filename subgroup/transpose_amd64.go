package subgroup

import "unsafe"

// transpose8x8 is words8 in SSE2 (part of every amd64 processor, so no
// detection): the 8×8 byte transposes of u64 ↔ 8xu8 and 2xu64 ↔ 16xu8
// as three rounds of unpack instructions on pairs of words, instead of
// twelve 64-bit delta swaps whose eight live words the Go compiler spills.
// The arguments are wordKernel's addressing (see transpose_amd64.s).
//
//go:noescape
func transpose8x8(dst, src unsafe.Pointer, nq, row, inMul, inStep, outMul, outStep int)

// words8Fast runs transpose8x8 unless k is set to the portable loops.
func (k *wordKernel) words8Fast(dst, src unsafe.Pointer) bool {
	if k.portable {
		return false
	}
	transpose8x8(dst, src, k.n/8, k.row, k.inMul, k.inStep, k.outMul, k.outStep)
	return true
}
