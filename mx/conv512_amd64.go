package mx

import "unsafe"

// AVX-512 kernels (conv512_amd64.s) for the slice decoders and encoders
// and the block dequantizers of the OCP block size, to and from float32,
// bfloat16 and binary16. The decoders work by arithmetic, 16 codes per
// vector, as the AVX2 FDEC8 does (MXINT8 converts the integer, E8M0
// shifts the code into the exponent), or with VBMI by byte-plane table
// lookups, 64 codes per step. The dequantizers multiply by the block
// scale in float32 as the portable loop does and round to the 16-bit
// format in the same pass (integer RNE for bfloat16, VCVTPS2PH for
// binary16), so DequantizeBFloat16 and DequantizeHalf no longer
// dequantize to a float32 buffer first. MXFP4 scales its 16-entry table
// once per block and looks the nibbles up with one permute; MXFP6 unpacks
// in registers with VBMI. The kernels need AVX-512 F, BW, DQ and VL
// (useAVX512), the lookups VBMI too (useVBMI). The wrappers check every
// length before calling the assembly.

// outKind is a kernel's output type.
type outKind uint8

const (
	outF32 outKind = iota
	outBF16
	outHalf
)

// The decoders take n, a positive multiple of 32; c is the float
// format's decConsts (unused by the MXINT8 and E8M0 ones).
//
//go:noescape
func decodeFF32AVX512(dst unsafe.Pointer, src *byte, n int, c *decConsts)

//go:noescape
func decodeFBF16AVX512(dst unsafe.Pointer, src *byte, n int, c *decConsts)

//go:noescape
func decodeFHalfAVX512(dst unsafe.Pointer, src *byte, n int, c *decConsts)

//go:noescape
func decodeIF32AVX512(dst unsafe.Pointer, src *byte, n int, c *decConsts)

//go:noescape
func decodeIBF16AVX512(dst unsafe.Pointer, src *byte, n int, c *decConsts)

//go:noescape
func decodeIHalfAVX512(dst unsafe.Pointer, src *byte, n int, c *decConsts)

//go:noescape
func decodeEF32AVX512(dst unsafe.Pointer, src *byte, n int, c *decConsts)

//go:noescape
func decodeEBF16AVX512(dst unsafe.Pointer, src *byte, n int, c *decConsts)

//go:noescape
func decodeEHalfAVX512(dst unsafe.Pointer, src *byte, n int, c *decConsts)

// The dequantizers of one-byte codes (MXFP8, MXINT8, and MXFP6 unpacked
// to one code per byte) take nblocks ≥ 0 blocks of 32.
//
//go:noescape
func dequantFF32AVX512(dst unsafe.Pointer, scales, codes *byte, nblocks int, c *decConsts)

//go:noescape
func dequantFBF16AVX512(dst unsafe.Pointer, scales, codes *byte, nblocks int, c *decConsts)

//go:noescape
func dequantFHalfAVX512(dst unsafe.Pointer, scales, codes *byte, nblocks int, c *decConsts)

//go:noescape
func dequantIF32AVX512(dst unsafe.Pointer, scales, codes *byte, nblocks int, c *decConsts)

//go:noescape
func dequantIBF16AVX512(dst unsafe.Pointer, scales, codes *byte, nblocks int, c *decConsts)

//go:noescape
func dequantIHalfAVX512(dst unsafe.Pointer, scales, codes *byte, nblocks int, c *decConsts)

// The MXFP4 dequantizers read 16 element bytes per block and the first 16
// entries of table (E2M1's decode table).
//
//go:noescape
func dequantFP4F32AVX512(dst unsafe.Pointer, scales, elements *byte, nblocks int, table *[256]float32)

//go:noescape
func dequantFP4BF16AVX512(dst unsafe.Pointer, scales, elements *byte, nblocks int, table *[256]float32)

//go:noescape
func dequantFP4HalfAVX512(dst unsafe.Pointer, scales, elements *byte, nblocks int, table *[256]float32)

// The VBMI kernels look codes up in a 16-bit decode table split into byte
// planes (VPERMI2B): decodeTab16VBMI gives the table's words,
// decodeTab32VBMI the float32 of a bfloat16 table, n a positive multiple
// of 64; the dequantizers do two blocks of 32 one-byte codes per pair,
// decoding through the element format's bfloat16 table (every element
// value is a bfloat16) and scaling as the portable loop does.
//
//go:noescape
func decodeTab16VBMI(dst unsafe.Pointer, src *byte, n int, table *[258]uint16, nt bool)

//go:noescape
func decodeTab32VBMI(dst unsafe.Pointer, src *byte, n int, table *[258]uint16, nt bool)

//go:noescape
func dequantTabF32VBMI(dst unsafe.Pointer, scales, codes *byte, npairs int, table *[258]uint16)

//go:noescape
func dequantTabBF16VBMI(dst unsafe.Pointer, scales, codes *byte, npairs int, table *[258]uint16)

//go:noescape
func dequantTabHalfVBMI(dst unsafe.Pointer, scales, codes *byte, npairs int, table *[258]uint16)

// The MXFP6 dequantizers unpack the packed codes in registers (VBMI's
// VPERMB and VPMULTISHIFTQB), 48 bytes per pair of blocks, reading 64:
// the 16 bytes after the last pair must be in the elements slice.
//
//go:noescape
func dequantFP6F32VBMI(dst unsafe.Pointer, scales, codes *byte, npairs int, table *[258]uint16)

//go:noescape
func dequantFP6BF16VBMI(dst unsafe.Pointer, scales, codes *byte, npairs int, table *[258]uint16)

//go:noescape
func dequantFP6HalfVBMI(dst unsafe.Pointer, scales, codes *byte, npairs int, table *[258]uint16)

type decode512Func = func(dst unsafe.Pointer, src *byte, n int, c *decConsts)

var (
	decodeF512 = [...]decode512Func{outF32: decodeFF32AVX512, outBF16: decodeFBF16AVX512, outHalf: decodeFHalfAVX512}
	decodeI512 = [...]decode512Func{outF32: decodeIF32AVX512, outBF16: decodeIBF16AVX512, outHalf: decodeIHalfAVX512}
	decodeE512 = [...]decode512Func{outF32: decodeEF32AVX512, outBF16: decodeEBF16AVX512, outHalf: decodeEHalfAVX512}
)

var dequantFP4512 = [...]func(dst unsafe.Pointer, scales, elements *byte, nblocks int, table *[256]float32){
	outF32: dequantFP4F32AVX512, outBF16: dequantFP4BF16AVX512, outHalf: dequantFP4HalfAVX512,
}

// dequantF512 calls the float dequantizer for out directly: through a
// func value escape analysis would not see go:noescape, and FP6's stack
// buffer would move to the heap.
func dequantF512(out outKind, dst unsafe.Pointer, scales, codes *byte, nb int, c *decConsts) {
	switch out {
	case outF32:
		dequantFF32AVX512(dst, scales, codes, nb, c)
	case outBF16:
		dequantFBF16AVX512(dst, scales, codes, nb, c)
	default:
		dequantFHalfAVX512(dst, scales, codes, nb, c)
	}
}

// The encoders take n, a positive multiple of 32, inputs of kind in
// (outF32, outBF16, outHalf name the input type here): float32 bits,
// bfloat16 or binary16 patterns, each widened exactly in the kernel. The
// float formats round to nearest even by rneMag's arithmetic (RNE16) and
// in the directed modes by arithmetic too (DIR16; the encodeTable gather
// of the AVX2 kernels remains, useDirArith false); MXINT8 rounds with
// VRNDSCALEPS, E8M0 is integer arithmetic on the exponent field, as in the
// AVX2 kernels.
//
//go:noescape
func encodeRTEF32AVX512(dst *byte, src unsafe.Pointer, n int, c *rteConsts)

//go:noescape
func encodeRTEBF16AVX512(dst *byte, src unsafe.Pointer, n int, c *rteConsts)

//go:noescape
func encodeRTEHalfAVX512(dst *byte, src unsafe.Pointer, n int, c *rteConsts)

//go:noescape
func encodeTableF32AVX512(dst *byte, src unsafe.Pointer, n int, codes *byte, shift uint64, low uint32)

//go:noescape
func encodeTableBF16AVX512(dst *byte, src unsafe.Pointer, n int, codes *byte, shift uint64, low uint32)

//go:noescape
func encodeTableHalfAVX512(dst *byte, src unsafe.Pointer, n int, codes *byte, shift uint64, low uint32)

//go:noescape
func encodeINT8RTEF32AVX512(dst *byte, src unsafe.Pointer, n int)

//go:noescape
func encodeINT8RTEBF16AVX512(dst *byte, src unsafe.Pointer, n int)

//go:noescape
func encodeINT8RTEHalfAVX512(dst *byte, src unsafe.Pointer, n int)

//go:noescape
func encodeINT8RTZF32AVX512(dst *byte, src unsafe.Pointer, n int)

//go:noescape
func encodeINT8RTZBF16AVX512(dst *byte, src unsafe.Pointer, n int)

//go:noescape
func encodeINT8RTZHalfAVX512(dst *byte, src unsafe.Pointer, n int)

//go:noescape
func encodeINT8RTPF32AVX512(dst *byte, src unsafe.Pointer, n int)

//go:noescape
func encodeINT8RTPBF16AVX512(dst *byte, src unsafe.Pointer, n int)

//go:noescape
func encodeINT8RTPHalfAVX512(dst *byte, src unsafe.Pointer, n int)

//go:noescape
func encodeINT8RTNF32AVX512(dst *byte, src unsafe.Pointer, n int)

//go:noescape
func encodeINT8RTNBF16AVX512(dst *byte, src unsafe.Pointer, n int)

//go:noescape
func encodeINT8RTNHalfAVX512(dst *byte, src unsafe.Pointer, n int)

//go:noescape
func encodeE8M0RTEF32AVX512(dst *byte, src unsafe.Pointer, n int, sat bool)

//go:noescape
func encodeE8M0RTEBF16AVX512(dst *byte, src unsafe.Pointer, n int, sat bool)

//go:noescape
func encodeE8M0RTEHalfAVX512(dst *byte, src unsafe.Pointer, n int, sat bool)

//go:noescape
func encodeE8M0RTZF32AVX512(dst *byte, src unsafe.Pointer, n int, sat bool)

//go:noescape
func encodeE8M0RTZBF16AVX512(dst *byte, src unsafe.Pointer, n int, sat bool)

//go:noescape
func encodeE8M0RTZHalfAVX512(dst *byte, src unsafe.Pointer, n int, sat bool)

//go:noescape
func encodeE8M0RTPF32AVX512(dst *byte, src unsafe.Pointer, n int, sat bool)

//go:noescape
func encodeE8M0RTPBF16AVX512(dst *byte, src unsafe.Pointer, n int, sat bool)

//go:noescape
func encodeE8M0RTPHalfAVX512(dst *byte, src unsafe.Pointer, n int, sat bool)

// The directed-mode encoders of the float formats round by arithmetic
// too: inc is 2^shift − 1, added to the magnitudes that round up.
//
//go:noescape
func encodeDirRTZF32AVX512(dst *byte, src unsafe.Pointer, n int, c *rteConsts, inc uint32)

//go:noescape
func encodeDirRTZBF16AVX512(dst *byte, src unsafe.Pointer, n int, c *rteConsts, inc uint32)

//go:noescape
func encodeDirRTZHalfAVX512(dst *byte, src unsafe.Pointer, n int, c *rteConsts, inc uint32)

//go:noescape
func encodeDirRTPF32AVX512(dst *byte, src unsafe.Pointer, n int, c *rteConsts, inc uint32)

//go:noescape
func encodeDirRTPBF16AVX512(dst *byte, src unsafe.Pointer, n int, c *rteConsts, inc uint32)

//go:noescape
func encodeDirRTPHalfAVX512(dst *byte, src unsafe.Pointer, n int, c *rteConsts, inc uint32)

//go:noescape
func encodeDirRTNF32AVX512(dst *byte, src unsafe.Pointer, n int, c *rteConsts, inc uint32)

//go:noescape
func encodeDirRTNBF16AVX512(dst *byte, src unsafe.Pointer, n int, c *rteConsts, inc uint32)

//go:noescape
func encodeDirRTNHalfAVX512(dst *byte, src unsafe.Pointer, n int, c *rteConsts, inc uint32)

var (
	encodeRTE512 = [...]func(dst *byte, src unsafe.Pointer, n int, c *rteConsts){encodeRTEF32AVX512, encodeRTEBF16AVX512, encodeRTEHalfAVX512}
	encodeDir512 = [...][3]func(dst *byte, src unsafe.Pointer, n int, c *rteConsts, inc uint32){
		RTZ: {encodeDirRTZF32AVX512, encodeDirRTZBF16AVX512, encodeDirRTZHalfAVX512},
		RTP: {encodeDirRTPF32AVX512, encodeDirRTPBF16AVX512, encodeDirRTPHalfAVX512},
		RTN: {encodeDirRTNF32AVX512, encodeDirRTNBF16AVX512, encodeDirRTNHalfAVX512},
	}
	encodeTable512 = [...]func(dst *byte, src unsafe.Pointer, n int, codes *byte, shift uint64, low uint32){
		encodeTableF32AVX512, encodeTableBF16AVX512, encodeTableHalfAVX512,
	}
	encodeINT8512 = [...][3]func(dst *byte, src unsafe.Pointer, n int){
		RTE: {encodeINT8RTEF32AVX512, encodeINT8RTEBF16AVX512, encodeINT8RTEHalfAVX512},
		RTZ: {encodeINT8RTZF32AVX512, encodeINT8RTZBF16AVX512, encodeINT8RTZHalfAVX512},
		RTP: {encodeINT8RTPF32AVX512, encodeINT8RTPBF16AVX512, encodeINT8RTPHalfAVX512},
		RTN: {encodeINT8RTNF32AVX512, encodeINT8RTNBF16AVX512, encodeINT8RTNHalfAVX512},
	}
	// RTN gives RTZ's codes on the positive values that are not special.
	encodeE8M0512 = [...][3]func(dst *byte, src unsafe.Pointer, n int, sat bool){
		RTE: {encodeE8M0RTEF32AVX512, encodeE8M0RTEBF16AVX512, encodeE8M0RTEHalfAVX512},
		RTZ: {encodeE8M0RTZF32AVX512, encodeE8M0RTZBF16AVX512, encodeE8M0RTZHalfAVX512},
		RTP: {encodeE8M0RTPF32AVX512, encodeE8M0RTPBF16AVX512, encodeE8M0RTPHalfAVX512},
		RTN: {encodeE8M0RTZF32AVX512, encodeE8M0RTZBF16AVX512, encodeE8M0RTZHalfAVX512},
	}
)

// useDirArith selects the arithmetic directed-mode encoders over the
// table gather (the tests run both).
var useDirArith = true

// encode512 encodes the whole groups of 32 at the start of src (srcLen
// inputs of kind in) into dst and returns how many it did (0 without
// AVX-512).
func encode512(e *sliceEncoder, dst []uint8, src unsafe.Pointer, srcLen int, in outKind) int {
	n := srcLen &^ 31
	if !useAVX512 || n == 0 || len(dst) < n {
		return 0
	}
	switch {
	case e.f == E8M0:
		encodeE8M0512[e.m][in](&dst[0], src, n, e.sat)
	case e.f == MXINT8:
		encodeINT8512[e.m][in](&dst[0], src, n)
	case e.table == nil:
		return 0
	case e.m == RTE:
		encodeRTE512[in](&dst[0], src, n, rteConstTable[e.f][b2u(e.sat)])
	case useDirArith:
		c := rteConstTable[e.f][b2u(e.sat)]
		encodeDir512[e.m][in](&dst[0], src, n, c, 1<<c.shift-1)
	default:
		encodeTable512[in](&dst[0], src, n, &e.table.codes[0], uint64(e.table.shift), e.table.lowMask)
	}
	return n
}

// dequant8x512 dequantizes nb blocks of one-byte codes: pairs of blocks
// by lookup with VBMI, the rest by arithmetic.
func dequant8x512(elem Format, out outKind, dst unsafe.Pointer, scales, codes *byte, nb int) {
	if np := nb / 2; useVBMI && np > 0 {
		t := &decodeTables16()[elem].bf16
		switch out {
		case outF32:
			dequantTabF32VBMI(dst, scales, codes, np, t)
		case outBF16:
			dequantTabBF16VBMI(dst, scales, codes, np, t)
		default:
			dequantTabHalfVBMI(dst, scales, codes, np, t)
		}
		if nb%2 == 0 {
			return
		}
		dst = unsafe.Add(dst, 64*np*out.size())
		scales, codes = (*byte)(unsafe.Add(unsafe.Pointer(scales), 2*np)), (*byte)(unsafe.Add(unsafe.Pointer(codes), 64*np))
		nb = 1
	}
	if elem == MXINT8 {
		dequantI512(out, dst, scales, codes, nb)
		return
	}
	dequantF512(out, dst, scales, codes, nb, decConstTable[elem])
}

// dequantI512 is dequantF512 for MXINT8.
func dequantI512(out outKind, dst unsafe.Pointer, scales, codes *byte, nb int) {
	switch out {
	case outF32:
		dequantIF32AVX512(dst, scales, codes, nb, nil)
	case outBF16:
		dequantIBF16AVX512(dst, scales, codes, nb, nil)
	default:
		dequantIHalfAVX512(dst, scales, codes, nb, nil)
	}
}

// ntMinBytes is the output size from which the kernels store
// non-temporally: the runtime's memmove threshold. Below it the output may
// be read again soon, from the cache. Tests lower it to run both stores.
var ntMinBytes = 1 << 20

// useNT reports whether a kernel writing size bytes at dst should use
// non-temporal stores (which need 64-byte alignment).
func useNT(dst unsafe.Pointer, size int) bool {
	return size >= ntMinBytes && uintptr(dst)%64 == 0
}

// outSize is the byte size of one output element.
func (o outKind) size() int {
	if o == outF32 {
		return 4
	}
	return 2
}

// decode512 decodes a prefix of src into dst, which holds dstLen ≥
// len(src) elements of kind out, and returns its length (0 without
// AVX-512): whole groups of 32 in the kernels, after a few elements in Go
// where that aligns a large output for non-temporal stores.
func decode512(dst unsafe.Pointer, dstLen int, src []uint8, f Format, out outKind) int {
	if !useAVX512 || len(src) < 32 || dstLen < len(src) || !f.valid() {
		return 0
	}
	head := 0
	if a := uintptr(dst) % 64; useVBMI && a != 0 && len(src)*out.size() >= ntMinBytes {
		// Decode up to 63 bytes of output in Go so that the kernel's
		// stores start on a cache line and can be non-temporal.
		head = min(int(64-a)/out.size(), len(src))
		decodeSmall(dst, src[:head], f, out)
		dst, src = unsafe.Add(dst, head*out.size()), src[head:]
	}
	n := len(src) &^ 31
	if n == 0 {
		return head
	}
	if n64 := n &^ 63; useVBMI && n64 > 0 {
		t := &decodeTables16()[f]
		nt := useNT(dst, n64*out.size())
		switch out {
		case outF32:
			decodeTab32VBMI(dst, &src[0], n64, &t.bf16, nt)
		case outBF16:
			decodeTab16VBMI(dst, &src[0], n64, &t.bf16, nt)
		default:
			decodeTab16VBMI(dst, &src[0], n64, &t.half, nt)
		}
		if n64 == n {
			return head + n
		}
		// One group of 32 is left: the arithmetic kernel below.
		dst, src = unsafe.Add(dst, n64*out.size()), src[n64:n]
	}
	switch f {
	case MXINT8:
		decodeI512[out](dst, &src[0], 32*(len(src)/32), nil)
	case E8M0:
		decodeE512[out](dst, &src[0], 32*(len(src)/32), nil)
	default: // the float formats
		decodeF512[out](dst, &src[0], 32*(len(src)/32), decConstTable[f])
	}
	return head + n
}

// decodeSmall decodes a few codes by table lookup into dst, which holds
// len(src) elements of kind out.
func decodeSmall(dst unsafe.Pointer, src []uint8, f Format, out outKind) {
	switch out {
	case outF32:
		d := unsafe.Slice((*float32)(dst), len(src))
		for i, c := range src {
			d[i] = decodeTables[f][c]
		}
	default:
		t := &decodeTables16()[f].bf16
		if out == outHalf {
			t = &decodeTables16()[f].half
		}
		d := unsafe.Slice((*uint16)(dst), len(src))
		for i, c := range src {
			d[i] = t[c]
		}
	}
}

// dequant512 dequantizes the whole 32-element blocks at the start of dst
// (dstLen elements of kind out) and returns how many elements it did (0
// without AVX-512). scales and elements start at the first block's.
func dequant512(elem Format, dst unsafe.Pointer, dstLen int, scales, elements []byte, out outKind) int {
	nb := dstLen / 32
	if !useAVX512 || nb == 0 {
		return 0
	}
	perBlock := 32 * elem.Bits() / 8
	_, _ = scales[nb-1], elements[nb*perBlock-1] // the kernels read this far
	switch elem {
	case E2M1:
		dequantFP4512[out](dst, &scales[0], &elements[0], nb, &decodeTables[E2M1])
	case E4M3, E5M2, MXINT8:
		dequant8x512(elem, out, dst, &scales[0], &elements[0], nb)
	case E2M3, E3M2:
		step := out.size() * 32
		b0 := 0
		np := nb / 2
		if len(elements) < 48*np+16 {
			np-- // the kernel reads 16 bytes past a pair; the last one goes below
		}
		if useVBMI && np > 0 {
			t := &decodeTables16()[elem].bf16
			switch out {
			case outF32:
				dequantFP6F32VBMI(dst, &scales[0], &elements[0], np, t)
			case outBF16:
				dequantFP6BF16VBMI(dst, &scales[0], &elements[0], np, t)
			default:
				dequantFP6HalfVBMI(dst, &scales[0], &elements[0], np, t)
			}
			b0 = 2 * np // an odd last block continues below
		}
		var tmp [fp6Chunk * 32]byte
		for ; b0 < nb; b0 += fp6Chunk {
			k := min(fp6Chunk, nb-b0)
			unpackFP6(tmp[:32*k], elements[24*b0:24*(b0+k)])
			dequant8x512(elem, out, unsafe.Add(dst, step*b0), &scales[b0], &tmp[0], k)
		}
	default:
		return 0
	}
	return 32 * nb
}

// dequant16Kernel is dequantize16's fused path: the whole 32-element
// blocks at the start of dst dequantized straight to bfloat16 (half false)
// or binary16, in the AVX-512 kernels or else the AVX2 ones
// (conv16_amd64.go). It returns how many elements it did.
func dequant16Kernel(elem Format, dst []uint16, scales, elements []byte, half bool) int {
	out := outBF16
	if half {
		out = outHalf
	}
	if useAVX512 {
		return dequant512(elem, unsafe.Pointer(unsafe.SliceData(dst)), len(dst), scales, elements, out)
	}
	return dequant16AVX2(elem, dst, scales, elements, half)
}

// tableFormat returns the format whose float32 decode table is table, or
// 0 if none is.
func tableFormat(table *[256]float32) Format {
	for _, f := range Formats {
		if table == &decodeTables[f] {
			return f
		}
	}
	return 0
}

// table16Format returns the format and output kind of a 16-bit decode
// table, or 0 if table is none of decodeTables16's.
func table16Format(table *[258]uint16) (Format, outKind) {
	t := decodeTables16()
	for _, f := range Formats {
		switch table {
		case &t[f].bf16:
			return f, outBF16
		case &t[f].half:
			return f, outHalf
		}
	}
	return 0, 0
}
