package mx

import "spvx/internal/cpuid"

// AVX2 kernels for the OCP block size, 32, over whole blocks: MXFP4
// dequantization, and MXFP4 and MXFP8 (E4M3, E5M2) quantization with
// round to nearest even. They compute exactly what the portable loops in
// block.go compute (the same float32 multiplies, the same integer rounding
// as rneMag, the same NaN-block rule); the tests run both on the same
// inputs and compare bytes.

var useAVX2 = cpuid.AVX2()

// The kernels are in kernels_amd64.s. Pointers and counts come from the
// wrappers below, which check every length first.

//go:noescape
func dequantFP4x32AVX2(dst *float32, scales, elements *byte, nblocks int)

//go:noescape
func quantFP4x32AVX2(scales, elements *byte, src *float32, nblocks int, c *quantConsts)

//go:noescape
func quantFP8x32AVX2(scales, elements *byte, src *float32, nblocks int, c *quantConsts)

// quantConsts holds one format's rneMag constants as 8-lane vectors (the
// kernels use them as memory operands, leaving registers for data). The
// assembly finds the fields through go_asm.h.
type quantConsts struct {
	half, rebias, minNormalM1, magic, maxMag, signBit [8]uint32
	shift, signShift                                  uint64 // shift counts, for VPSRLD's xmm form
	emax                                              uint64
}

func newQuantConsts(f Format) *quantConsts {
	in := &formatInfos[f]
	sh, half, rebias, minNormal, _, magicBits := rneConsts(uint32(in.manBits), uint32(in.float.bias))
	c := &quantConsts{shift: uint64(sh), signShift: uint64(32 - in.bits), emax: uint64(in.emaxElem)}
	for i := range 8 {
		c.half[i], c.rebias[i], c.minNormalM1[i], c.magic[i] = half, rebias, minNormal-1, magicBits
		c.maxMag[i], c.signBit[i] = in.float.maxMag, in.float.signBit
	}
	return c
}

var (
	e2m1Consts = newQuantConsts(E2M1)
	e4m3Consts = newQuantConsts(E4M3)
	e5m2Consts = newQuantConsts(E5M2)
)

// quantBlocks32 quantizes the whole 32-element blocks at the start of src
// with round to nearest even, if a kernel exists for elem, and returns how
// many elements it did (a multiple of 32, or 0). scales and elements start
// at the first block's scale and element byte.
func quantBlocks32(elem Format, scales, elements []byte, src []float32) int {
	nb := len(src) / 32
	if !useAVX2 || nb == 0 {
		return 0
	}
	var c *quantConsts
	switch elem {
	case E2M1:
		c = e2m1Consts
	case E4M3:
		c = e4m3Consts
	case E5M2:
		c = e5m2Consts
	default:
		return 0
	}
	perBlock := 32 * elem.Bits() / 8
	_, _ = scales[nb-1], elements[nb*perBlock-1] // the kernels write this far
	if elem == E2M1 {
		quantFP4x32AVX2(&scales[0], &elements[0], &src[0], nb, c)
	} else {
		quantFP8x32AVX2(&scales[0], &elements[0], &src[0], nb, c)
	}
	return 32 * nb
}

// dequantBlocks32 is quantBlocks32's counterpart for Dequantize.
func dequantBlocks32(elem Format, dst []float32, scales, elements []byte) int {
	nb := len(dst) / 32
	if !useAVX2 || nb == 0 || elem != E2M1 {
		return 0
	}
	_, _ = scales[nb-1], elements[nb*16-1] // the kernel reads this far
	dequantFP4x32AVX2(&dst[0], &scales[0], &elements[0], nb)
	return 32 * nb
}

// haveKernels reports whether quantBlocks32 and dequantBlocks32 use
// assembly on this machine.
func haveKernels() bool { return useAVX2 }
