package mx

// AVX-512 block quantizers for the OCP block size, 32, round to nearest
// even, for every block format, reading float32, bfloat16 or binary16
// directly (the 16-bit inputs are widened in registers, so there is no
// float32 buffer and no second pass). One block is one ZMM of 16-bit
// input or two of float32. They compute exactly what quantizer.run
// computes on the float32 values; see quant512_amd64.s for how the
// rounding is done, and the tests under withEachPath for the proof.

// q512Kind selects the kernels' encode and store step.
const (
	q512Byte = iota // E4M3, E5M2: one code per byte
	q512FP6         // E2M3, E3M2: 4 codes in 3 bytes
	q512FP4         // E2M1: 2 codes per byte
	q512Int8        // MXINT8
)

// quant512Consts holds one element format's constants; the kernels
// broadcast them from memory and find the fields through go_asm.h.
type quant512Consts struct {
	eminBits uint32 // float32 bits of 2^emin, the smallest normal of the format
	expMask  uint32 // float32 exponent field
	off      uint32 // (23 − m)<<23: adds 23 − m to an exponent field
	codeOff  uint32 // (151 − m − bias)<<m, used mod 256: see Q512ENC
	maxMag   uint32 // largest magnitude code the block encoder gives (below 256)
	signByte uint32 // the sign bit of a code (low byte)
	packMul  uint32 // VPMADDUBSW multipliers for FP4 (1, 16) or FP6 (1, 64), twice
	kind     uint64 // q512Byte ... q512Int8
	step     uint64 // element bytes per block
	mask     uint64 // 1<<step − 1: the byte mask of a block's elements
	emax     uint64 // emax_elem
	sh       uint64 // 23 − m: the float32 mantissa bits below the format's
}

func newQuant512Consts(f Format) quant512Consts {
	in := &formatInfos[f]
	step := uint64(32 * in.bits / 8)
	mask := uint64(1)<<step - 1
	if f == MXINT8 {
		return quant512Consts{kind: q512Int8, step: step, mask: mask}
	}
	m, bias := uint32(in.manBits), uint32(in.float.bias)
	c := quant512Consts{
		eminBits: (128 - bias) << 23, expMask: 0x7F800000, off: (23 - m) << 23, codeOff: (151 - m - bias) << m,
		maxMag: in.float.maxMag, signByte: in.float.signBit,
		kind: q512Byte, step: step, mask: mask, emax: uint64(in.emaxElem), sh: uint64(23 - m),
	}
	switch in.bits {
	case 4:
		c.kind, c.packMul = q512FP4, 0x10011001
	case 6:
		c.kind, c.packMul = q512FP6, 0x40014001
	}
	return c
}

var quant512Table = func() (t [MXINT8 + 1]quant512Consts) {
	for _, f := range []Format{E2M1, E2M3, E3M2, E4M3, E5M2, MXINT8} {
		t[f] = newQuant512Consts(f)
	}
	return t
}()

//go:noescape
func quant32F32AVX512(scales, elements *byte, src *float32, nblocks int, c *quant512Consts, vbmi bool)

//go:noescape
func quant32BF16AVX512(scales, elements *byte, src *uint16, nblocks int, c *quant512Consts, vbmi bool)

//go:noescape
func quant32F16AVX512(scales, elements *byte, src *uint16, nblocks int, c *quant512Consts, vbmi bool)

// blockQuantKernel reports whether the fused kernels handle elem: every
// block format's element format.
func blockQuantKernel(elem Format) bool {
	switch elem {
	case E2M1, E2M3, E3M2, E4M3, E5M2, MXINT8:
		return true
	}
	return false
}

// quant512Blocks32 quantizes the whole 32-element blocks of src in the
// AVX-512 kernel for float32 and returns how many elements it did; it is
// quantBlocks32's first choice.
func quant512Blocks32(elem Format, scales, elements []byte, src []float32) int {
	nb := len(src) / 32
	if nb == 0 || !useAVX2 || !useAVX512 || !blockQuantKernel(elem) {
		return 0
	}
	checkBlockOut(elem, scales, elements, nb)
	quant32F32AVX512(&scales[0], &elements[0], &src[0], nb, &quant512Table[elem], useVBMI)
	return 32 * nb
}

// quantBlocks32x16 is quant512Blocks32 for bfloat16 (half false) or
// binary16 (half true) input: the whole 32-element blocks at the start of
// src, round to nearest even, in a fused kernel, AVX-512 or else AVX2 (the
// binary16 one needs F16C), if there is one on this machine. It returns
// how many elements it did (0 if none).
func quantBlocks32x16(elem Format, scales, elements []byte, src []uint16, half bool) int {
	nb := len(src) / 32
	if nb == 0 || !useAVX2 || !blockQuantKernel(elem) {
		return 0 // no AVX2 (or cpu.avx2=off, or a test): portable loops
	}
	c := &quant512Table[elem]
	switch {
	case useAVX512:
		checkBlockOut(elem, scales, elements, nb)
		if half {
			quant32F16AVX512(&scales[0], &elements[0], &src[0], nb, c, useVBMI)
		} else {
			quant32BF16AVX512(&scales[0], &elements[0], &src[0], nb, c, useVBMI)
		}
	case half && useF16C:
		checkBlockOut(elem, scales, elements, nb)
		quant32F16AVX2(&scales[0], &elements[0], &src[0], nb, c)
	case !half:
		checkBlockOut(elem, scales, elements, nb)
		quant32BF16AVX2(&scales[0], &elements[0], &src[0], nb, c)
	default:
		return 0
	}
	return 32 * nb
}

// checkBlockOut panics (an index out of range: a bug in the caller, which
// sized the buffers) unless scales and elements hold nb blocks of elem.
func checkBlockOut(elem Format, scales, elements []byte, nb int) {
	_, _ = scales[nb-1], elements[nb*32*elem.Bits()/8-1]
}
