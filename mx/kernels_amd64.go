package mx

import (
	"encoding/binary"
	"unsafe"

	"spvx/internal/cpuid"
)

// AVX2 kernels for the OCP block size, 32, over whole blocks, round to
// nearest even: MXFP4 dequantization (a VPERMD lookup); MXINT8
// quantization; MXFP8 and MXINT8 dequantization (a gather from the decode
// table). MXFP6 dequantization goes through the 8-bit kernel with one code
// per byte in a stack buffer, unpacked in vector code. The other block
// quantizers are in quant16_amd64.s (AVX2) and quant512_amd64.s
// (AVX-512). They compute exactly what the portable loops in block.go
// compute (the same float32 multiplies, the same rounding as rneMag, the
// same NaN-block rule); the tests run both on the same inputs and compare
// bytes.

var useAVX2 = cpuid.AVX2()

// useF16C allows the AVX2 kernels that convert with VCVTPS2PH.
var useF16C = cpuid.F16C()

// useAVX512 allows the AVX-512 (F, BW, DQ, VL) kernels, which take
// precedence over the AVX2 ones; useVBMI allows the ones that also need
// VBMI's byte permutes. Each implies useAVX2, and the tests clear them to
// run the AVX2 kernels. (No kernel uses AVX512_BF16: VCVTNEPS2BF16 flushes
// subnormals, and integer rounding to nearest even is as fast here.)
var (
	useAVX512 = cpuid.AVX512()
	useVBMI   = cpuid.AVX512VBMI()
)

// The kernels are in kernels_amd64.s. Pointers and counts come from the
// wrappers below, which check every length first.

//go:noescape
func dequantFP4x32AVX2(dst *float32, scales, elements *byte, nblocks int)

//go:noescape
func quantINT8x32AVX2(scales, elements *byte, src *float32, nblocks int)

//go:noescape
func dequant8x32AVX2(dst *float32, scales, codes *byte, nblocks int, table *[256]float32)

// fp6Chunk is how many FP6 blocks go through the stack buffer at a time.
const fp6Chunk = 64

// quantBlocks32 quantizes the whole 32-element blocks at the start of src
// with round to nearest even, if a kernel exists for elem, and returns how
// many elements it did (a multiple of 32, or 0). scales and elements start
// at the first block's scale and element byte. The AVX-512 kernel comes
// first; on AVX2 MXINT8 has its own kernel (VCVTPS2DQ and signed packs,
// faster there than quant16_amd64.s's general one) and the float formats
// take quant32F32AVX2.
func quantBlocks32(elem Format, scales, elements []byte, src []float32) int {
	if n := quant512Blocks32(elem, scales, elements, src); n > 0 {
		return n
	}
	nb := len(src) / 32
	if !useAVX2 || nb == 0 || !blockQuantKernel(elem) {
		return 0
	}
	checkBlockOut(elem, scales, elements, nb)
	if elem == MXINT8 {
		quantINT8x32AVX2(&scales[0], &elements[0], &src[0], nb)
	} else {
		quant32F32AVX2(&scales[0], &elements[0], &src[0], nb, &quant512Table[elem])
	}
	return 32 * nb
}

//go:noescape
func unpackFP6AVX2(codes, src *byte, n int)

// unpackFP6 unpacks 6-bit codes, 3 bytes to 4 codes of a byte each (code
// k of a group from bits 6k of its 24): 32 codes at a time in the AVX2
// kernel, the rest in Go.
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
