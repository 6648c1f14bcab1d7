package mx

import (
	"encoding/binary"
	"unsafe"

	"spvx/internal/cpuid"
)

// AVX2 kernels for the OCP block size, 32, over whole blocks, round to
// nearest even: MXFP4 dequantization (a VPERMD lookup); MXFP4, MXFP8 and
// MXINT8 quantization; MXFP8 and MXINT8 dequantization (a gather from the
// decode table). MXFP6 goes through the 8-bit kernels with one code per
// byte in a stack buffer, packed and unpacked in Go. They compute exactly what the portable loops in
// block.go compute (the same float32 multiplies, the same integer rounding
// as rneMag, the same NaN-block rule); the tests run both on the same
// inputs and compare bytes.

var useAVX2 = cpuid.AVX2()

// useF16C allows the AVX2 kernels that convert with VCVTPS2PH.
var useF16C = cpuid.F16C()

// useAVX512 allows the AVX-512 (F, BW, DQ, VL) kernels, which take
// precedence over the AVX2 ones; useVBMI and useBF16 allow the ones that
// also need VBMI's byte permutes or AVX512_BF16's conversions. Each implies
// useAVX2, and the tests clear them to run the AVX2 kernels.
var (
	useAVX512 = cpuid.AVX512()
	useVBMI   = cpuid.AVX512VBMI()
	useBF16   = cpuid.AVX512BF16()
)

// The kernels are in kernels_amd64.s. Pointers and counts come from the
// wrappers below, which check every length first.

//go:noescape
func dequantFP4x32AVX2(dst *float32, scales, elements *byte, nblocks int)

//go:noescape
func quantFP4x32AVX2(scales, elements *byte, src *float32, nblocks int, c *quantConsts)

//go:noescape
func quantFP8x32AVX2(scales, elements *byte, src *float32, nblocks int, c *quantConsts)

//go:noescape
func quantINT8x32AVX2(scales, elements *byte, src *float32, nblocks int)

//go:noescape
func dequant8x32AVX2(dst *float32, scales, codes *byte, nblocks int, table *[256]float32)

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
	e2m3Consts = newQuantConsts(E2M3)
	e3m2Consts = newQuantConsts(E3M2)
	e4m3Consts = newQuantConsts(E4M3)
	e5m2Consts = newQuantConsts(E5M2)
)

// fp6Chunk is how many FP6 blocks go through the stack buffer at a time.
const fp6Chunk = 64

// quantBlocks32 quantizes the whole 32-element blocks at the start of src
// with round to nearest even, if a kernel exists for elem, and returns how
// many elements it did (a multiple of 32, or 0). scales and elements start
// at the first block's scale and element byte.
func quantBlocks32(elem Format, scales, elements []byte, src []float32) int {
	nb := len(src) / 32
	if !useAVX2 || nb == 0 {
		return 0
	}
	perBlock := 32 * elem.Bits() / 8
	_, _ = scales[nb-1], elements[nb*perBlock-1] // the kernels write this far
	switch elem {
	case E2M1:
		quantFP4x32AVX2(&scales[0], &elements[0], &src[0], nb, e2m1Consts)
	case E4M3:
		quantFP8x32AVX2(&scales[0], &elements[0], &src[0], nb, e4m3Consts)
	case E5M2:
		quantFP8x32AVX2(&scales[0], &elements[0], &src[0], nb, e5m2Consts)
	case MXINT8:
		quantINT8x32AVX2(&scales[0], &elements[0], &src[0], nb)
	case E2M3, E3M2:
		c := e2m3Consts
		if elem == E3M2 {
			c = e3m2Consts
		}
		var tmp [fp6Chunk * 32]byte
		for b0 := 0; b0 < nb; b0 += fp6Chunk {
			k := min(fp6Chunk, nb-b0)
			quantFP8x32AVX2(&scales[b0], &tmp[0], &src[32*b0], k, c)
			packFP6(elements[24*b0:24*(b0+k)], tmp[:32*k])
		}
	default:
		return 0
	}
	return 32 * nb
}

//go:noescape
func packFP6AVX2(dst, codes *byte, n int)

//go:noescape
func unpackFP6AVX2(codes, src *byte, n int)

// packFP6 packs 6-bit codes, one per byte, 4 to 3 bytes (len(codes) a
// multiple of 4, len(dst) = 3/4 of it): 32 codes at a time in the AVX2
// kernel, the rest in Go.
func packFP6(dst, codes []byte) {
	if n := len(codes) &^ 31; useAVX2 && n > 0 && len(dst) >= n/4*3 {
		packFP6AVX2(&dst[0], &codes[0], n)
		dst, codes = dst[n/4*3:], codes[n:]
	}
	for len(codes) >= 8 && len(dst) >= 6 {
		w := binary.LittleEndian.Uint64(codes)
		p := w&0x3F | w>>2&0xFC0 | w>>4&0x3F000 | w>>6&0xFC0000 |
			w>>8&0x3F000000 | w>>10&0xFC0000000 | w>>12&0x3F000000000 | w>>14&0xFC0000000000
		dst[0], dst[1], dst[2], dst[3], dst[4], dst[5] = byte(p), byte(p>>8), byte(p>>16), byte(p>>24), byte(p>>32), byte(p>>40)
		codes, dst = codes[8:], dst[6:]
	}
	for len(codes) >= 4 && len(dst) >= 3 {
		w := uint32(codes[0]) | uint32(codes[1])<<6 | uint32(codes[2])<<12 | uint32(codes[3])<<18
		dst[0], dst[1], dst[2] = byte(w), byte(w>>8), byte(w>>16)
		codes, dst = codes[4:], dst[3:]
	}
}

// unpackFP6 is packFP6 reversed.
func unpackFP6(codes, src []byte) {
	if n := min(len(codes), len(src)/3*4) &^ 31; useAVX2 && n > 0 {
		unpackFP6AVX2(&codes[0], &src[0], n)
		codes, src = codes[n:], src[n/4*3:]
	}
	for len(src) >= 8 && len(codes) >= 8 {
		w := binary.LittleEndian.Uint64(src) // 6 bytes used
		codes[0], codes[1], codes[2], codes[3] = byte(w&63), byte(w>>6&63), byte(w>>12&63), byte(w>>18&63)
		codes[4], codes[5], codes[6], codes[7] = byte(w>>24&63), byte(w>>30&63), byte(w>>36&63), byte(w>>42&63)
		codes, src = codes[8:], src[6:]
	}
	for len(src) >= 3 && len(codes) >= 4 {
		w := uint32(src[0]) | uint32(src[1])<<8 | uint32(src[2])<<16
		codes[0], codes[1], codes[2], codes[3] = byte(w&63), byte(w>>6&63), byte(w>>12&63), byte(w>>18)
		codes, src = codes[4:], src[3:]
	}
}

// dequantBlocks32 is quantBlocks32's counterpart for Dequantize.
func dequantBlocks32(elem Format, dst []float32, scales, elements []byte) int {
	if useAVX512 {
		return dequant512(elem, unsafe.Pointer(unsafe.SliceData(dst)), len(dst), scales, elements, outF32)
	}
	nb := len(dst) / 32
	if !useAVX2 || nb == 0 {
		return 0
	}
	perBlock := 32 * elem.Bits() / 8
	_, _ = scales[nb-1], elements[nb*perBlock-1] // the kernels read this far
	switch elem {
	case E2M1:
		dequantFP4x32AVX2(&dst[0], &scales[0], &elements[0], nb)
	case E4M3, E5M2, MXINT8:
		dequant8x32(elem, dst, scales, elements, nb)
	case E2M3, E3M2:
		var tmp [fp6Chunk * 32]byte
		for b0 := 0; b0 < nb; b0 += fp6Chunk {
			k := min(fp6Chunk, nb-b0)
			unpackFP6(tmp[:32*k], elements[24*b0:24*(b0+k)])
			dequant8x32(elem, dst[32*b0:], scales[b0:], tmp[:32*k], k)
		}
	default:
		return 0
	}
	return 32 * nb
}

// haveKernels reports whether quantBlocks32 and dequantBlocks32 use
// assembly on this machine.
func haveKernels() bool { return useAVX2 }
