package mx

// An AVX2 dequantizer of the one-byte float formats (E4M3, E5M2, and the
// FP6 formats unpacked to bytes) to binary16, for CPUs with F16C
// (deqh_amd64.s). A code's magnitude bits, moved so that its exponent
// field lands in the low bits of binary16's, read as a binary16 give the
// code's value times 2^(bias − 15), subnormal codes included; the sign
// moves to bit 15. VCVTPH2PS widens that exactly, one VMULPS by
// 2^(s − 127 + 15 − bias) makes the float32 product the portable loop
// computes (the same real product, rounded once), and VCVTPS2PH rounds it
// to binary16. NaN codes give 0x7E00, as the portable loop's canonical
// NaN does. Where 2^(s − 127 + 15 − bias) is beyond float32, the kernel
// first multiplies by 2^(15 − bias) (exact) and then by 2^(s − 127). This
// skips BDEC's bfloat16 decoding, which dequantWHalfAVX2 does first.

//go:noescape
func dequantHDirectAVX2(dst *uint16, scales, codes *byte, nblocks int, c *hConsts)

// dequantHFP6AVX2 is dequantHDirectAVX2 for packed FP6 elements (24
// bytes a block), unpacked in registers: each code's two bytes moved into
// its word by VPSHUFB, the code moved to the top by VPMULLW.
//
//go:noescape
func dequantHFP6AVX2(dst *uint16, scales, packed *byte, nblocks int, c *hConsts)

// dequantHFP6BF16AVX2 is dequantHFP6AVX2 with bfloat16 results: the top
// halves of the float32 products, which are bfloat16 values already (see
// HMULBF); FP6 has no NaN codes, and NaN blocks give 0x7FC0.
//
//go:noescape
func dequantHFP6BF16AVX2(dst *uint16, scales, packed *byte, nblocks int, c *hConsts)

// hConsts holds a format's constants for dequantHDirectAVX2 (the assembly
// finds them through go_asm.h): the code shifted left by lshift puts the
// sign at bit 15, an arithmetic shift right by rshift moves the exponent
// field to binary16's low exponent bits, and keep clears the sign's copies
// there and any bits below the magnitude; magnitudes above nanMinM1 are
// NaN. rebias is 15 − bias, pre the
// float32 bits of 2^(15 − bias).
type hConsts struct {
	keep, magMask, nanMinM1 [16]uint16
	lshift, rshift          uint64
	rebias, pre             uint32
}

// hConstTable holds hConsts for the formats dequantHDirectAVX2 takes.
var hConstTable = func() (t [E5M2 + 1]*hConsts) {
	for _, f := range []Format{E2M3, E3M2, E4M3, E5M2} {
		in := &formatInfos[f]
		p := &in.float
		ebits := in.bits - 1 - p.manBits
		c := &hConsts{lshift: uint64(16 - in.bits), rshift: uint64(5 - ebits)}
		c.rebias = uint32(15 - p.bias)
		c.pre = (127 + c.rebias) << 23
		w := wConstTable[f]
		for i := range 16 {
			c.keep[i] = uint16(0x8000 | (1<<(in.bits-1)-1)<<(16-in.bits-uint(c.rshift)))
			c.magMask[i], c.nanMinM1[i] = w.magMask[i], w.nanMinM1[i]
		}
		t[f] = c
	}
	return t
}()

// useHDirect selects these kernels (dequantHDirectAVX2 and the FP6 ones)
// over the bfloat16-decoding ones (dequantWHalfAVX2, and unpackFP6 then
// dequantWBF16AVX2); the tests run both.
var useHDirect = true
