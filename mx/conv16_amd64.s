#include "textflag.h"
#include "go_asm.h"

// AVX2 block dequantizers fused to bfloat16 and binary16, for CPUs without
// AVX-512 (see conv16_amd64.go): each block of 32 is decoded, multiplied
// by its scale in float32 and rounded to 16 bits in registers, instead of
// dequantizing to a float32 buffer and narrowing it in a second pass. Go
// operand order: sources first, destination last.

DATA c16One<>+0(SB)/4, $0x00000001
GLOBL c16One<>(SB), RODATA|NOPTR, $4
DATA c16Round<>+0(SB)/4, $0x00007fff
GLOBL c16Round<>(SB), RODATA|NOPTR, $4
DATA c16Int8<>+0(SB)/4, $0x3c800000 // 1/64, the MXINT8 step
GLOBL c16Int8<>(SB), RODATA|NOPTR, $4
DATA c16Sign<>+0(SB)/4, $0x80000000
GLOBL c16Sign<>(SB), RODATA|NOPTR, $4
DATA c16NaNBF<>+0(SB)/4, $0x7fc07fc0 // two bfloat16 NaNs
GLOBL c16NaNBF<>(SB), RODATA|NOPTR, $4
DATA c16NaNH<>+0(SB)/4, $0x7e007e00 // two binary16 NaNs
GLOBL c16NaNH<>(SB), RODATA|NOPTR, $4

// E2M1's magnitudes (codes 0-7), scaled per block for MXFP4.
DATA c16E2M1<>+0(SB)/8, $0x3f00000000000000
DATA c16E2M1<>+8(SB)/8, $0x3fc000003f800000
DATA c16E2M1<>+16(SB)/8, $0x4040000040000000
DATA c16E2M1<>+24(SB)/8, $0x40c0000040800000
GLOBL c16E2M1<>(SB), RODATA|NOPTR, $32

// IDEC16 decodes 8 MXINT8 codes: int8(c)/64, exact. Y15 1/64.
#define IDEC16(off, code) \
	VPMOVSXBD off(SI), code; \
	VCVTDQ2PS code, code; \
	VMULPS    Y15, code, code

// SCALE16 reads the block's scale byte at (BX), jumps to nan for the NaN
// scale 0xFF (the block is NaN whatever its elements), and leaves
// 2^(s−127) broadcast in Y6 (bits s<<23, or 0x00400000 for s = 0, as
// pow2f32 gives).
#define SCALE16(nan) \
	MOVBLZX      (BX), AX; \
	CMPL         AX, $0xFF; \
	JEQ          nan; \
	SHLL         $23, AX; \
	MOVL         $0x00400000, DX; \
	TESTL        AX, AX; \
	CMOVLEQ      DX, AX; \
	VMOVD        AX, X6; \
	VPBROADCASTD X6, Y6

// RNEBF rounds the float32 in z to bfloat16 in the low word of each dword,
// to nearest even as bfloat16RTE does (u + 0x7FFF + bit 16 of u, then the
// top half). The only NaN here is the canonical 0x7FC00000, which gives
// bfloat16RTE's 0x7FC0 without a test. Y13 ones, Y14 0x7FFF; Y4 scratch.
#define RNEBF(z) \
	VPSRLD $16, z, Y4; \
	VPAND  Y13, Y4, Y4; \
	VPADDD Y4, z, z; \
	VPADDD Y14, z, z; \
	VPSRLD $16, z, z

// OUTBF16 and OUTH16 store the block's 32 values in Y0-Y3 (element
// order) as bfloat16 or binary16 (VCVTPS2PH to nearest even, imm 0, which
// gives HalfFromFloat32's RTE result; the canonical NaN gives 0x7E00).
// Every element value is a bfloat16 no smaller than 2^-16 in magnitude
// (E5M2's least), so with a scale code of at least 17 each product is a
// bfloat16 too (normal in float32, or an infinity) and its top half is
// bfloat16RTE (exact); smaller scales can give float32 subnormals, which
// RNEBF rounds. OUTBF16 takes two labels for that branch.
#define OUTBF16(exact, pack) \
	MOVBLZX   (BX), AX; \
	CMPL      AX, $17; \
	JCC       exact; \
	RNEBF(Y0); \
	RNEBF(Y1); \
	RNEBF(Y2); \
	RNEBF(Y3); \
	JMP       pack; \
exact: \
	VPSRLD    $16, Y0, Y0; \
	VPSRLD    $16, Y1, Y1; \
	VPSRLD    $16, Y2, Y2; \
	VPSRLD    $16, Y3, Y3; \
pack: \
	VPACKUSDW Y1, Y0, Y0; \
	VPACKUSDW Y3, Y2, Y2; \
	VPERMQ    $0xd8, Y0, Y0; \
	VPERMQ    $0xd8, Y2, Y2; \
	VMOVDQU   Y0, 0(DI); \
	VMOVDQU   Y2, 32(DI)

#define OUTH16 \
	VCVTPS2PH $0, Y0, X0; \
	VCVTPS2PH $0, Y1, X1; \
	VCVTPS2PH $0, Y2, X2; \
	VCVTPS2PH $0, Y3, X3; \
	VMOVDQU   X0, 0(DI); \
	VMOVDQU   X1, 16(DI); \
	VMOVDQU   X2, 32(DI); \
	VMOVDQU   X3, 48(DI)

// DQ16LOOP dequantizes CX blocks of 32 one-byte codes at SI (scales at
// BX) with dec, storing 64 bytes per block with out; a NaN block stores
// the 16-bit NaN (nanc holds two) 32 times.
#define DQ16LOOP(dec, out, nanc, label, next, nan, done) \
	TESTQ        CX, CX; \
	JEQ          done; \
label: \
	SCALE16(nan); \
	dec(0, Y0); \
	dec(8, Y1); \
	dec(16, Y2); \
	dec(24, Y3); \
	VMULPS Y6, Y0, Y0; \
	VMULPS Y6, Y1, Y1; \
	VMULPS Y6, Y2, Y2; \
	VMULPS Y6, Y3, Y3; \
	out; \
next: \
	ADDQ $32, SI; \
	ADDQ $64, DI; \
	INCQ BX; \
	DECQ CX; \
	JNZ  label; \
done: \
	VZEROUPPER; \
	RET; \
nan: \
	VPBROADCASTD nanc<>(SB), Y0; \
	VMOVDQU Y0, 0(DI); \
	VMOVDQU Y0, 32(DI); \
	JMP     next

#define DQ16ARGS \
	MOVQ         dst+0(FP), DI; \
	MOVQ         scales+8(FP), BX; \
	MOVQ         codes+16(FP), SI; \
	MOVQ         nblocks+24(FP), CX; \
	VPBROADCASTD c16One<>(SB), Y13; \
	VPBROADCASTD c16Round<>(SB), Y14; \
	VPBROADCASTD c16Int8<>(SB), Y15

// FP4HALF16 decodes the 16 nibbles of the 8 bytes at off(SI) with the
// scaled magnitudes in Y12: VPERMD reads an index's low 3 bits, so a byte
// indexes its low nibble's magnitude and the byte shifted right by 4 its
// high nibble's; bit 3 of each nibble, moved to bit 31, is the sign
// (−m·s is −(m·s) exactly, as the portable t[c] = table[c]·scale). lo
// and hi end in Y0 and Y1 as VPUNPCKLDQ/VPUNPCKHDQ leave them: lane 0
// elements 0-3 and 4-7, lane 1 elements 8-11 and 12-15. Y11 the sign bit;
// Y4, Y5, Y7 scratch.
#define FP4HALF16(off, lo, hi) \
	VPMOVZXBD  off(SI), Y4; \
	VPERMD     Y12, Y4, Y5; \
	VPSLLD     $28, Y4, Y7; \
	VPAND      Y11, Y7, Y7; \
	VPOR       Y7, Y5, Y5; \
	VPSRLD     $4, Y4, Y4; \
	VPERMD     Y12, Y4, Y7; \
	VPSLLD     $28, Y4, Y4; \
	VPAND      Y11, Y4, Y4; \
	VPOR       Y4, Y7, Y7; \
	VPUNPCKLDQ Y7, Y5, lo; \
	VPUNPCKHDQ Y7, Y5, hi

// FP4BF16 rounds and stores 16 elements from FP4HALF16's lo and hi:
// VPACKUSDW's lane-wise order is then element order.
#define FP4BF16(off, lo, hi) \
	RNEBF(lo); \
	RNEBF(hi); \
	VPACKUSDW hi, lo, lo; \
	VMOVDQU   lo, off(DI)

// FP4H16 converts them: lo gives elements 0-3, 8-11 and hi 4-7, 12-15 as
// quadwords, which the quadword unpacks put in order.
#define FP4H16(off, lo, hi) \
	VCVTPS2PH   $0, lo, X4; \
	VCVTPS2PH   $0, hi, X5; \
	VPUNPCKLQDQ X5, X4, X7; \
	VPUNPCKHQDQ X5, X4, X4; \
	VMOVDQU     X7, off(DI); \
	VMOVDQU     X4, off+16(DI)

// FP4LOOP16 dequantizes CX MXFP4 blocks (16 bytes each) at SI.
#define FP4LOOP16(out, nanc, label, next, nan, done) \
	VPBROADCASTD c16Sign<>(SB), Y11; \
	TESTQ        CX, CX; \
	JEQ          done; \
label: \
	SCALE16(nan); \
	VMULPS c16E2M1<>(SB), Y6, Y12; \
	FP4HALF16(0, Y0, Y1); \
	out(0, Y0, Y1); \
	FP4HALF16(8, Y0, Y1); \
	out(32, Y0, Y1); \
next: \
	ADDQ $16, SI; \
	ADDQ $64, DI; \
	INCQ BX; \
	DECQ CX; \
	JNZ  label; \
done: \
	VZEROUPPER; \
	RET; \
nan: \
	VPBROADCASTD nanc<>(SB), Y0; \
	VMOVDQU Y0, 0(DI); \
	VMOVDQU Y0, 32(DI); \
	JMP     next

// func dequantIBF16AVX2(dst *uint16, scales, codes *byte, nblocks int)
TEXT ·dequantIBF16AVX2(SB), NOSPLIT, $0-32
	DQ16ARGS
	DQ16LOOP(IDEC16, OUTBF16(qib2exact, qib2pack), c16NaNBF, qib2loop, qib2next, qib2nan, qib2done)

// func dequantIHalfAVX2(dst *uint16, scales, codes *byte, nblocks int)
TEXT ·dequantIHalfAVX2(SB), NOSPLIT, $0-32
	DQ16ARGS
	DQ16LOOP(IDEC16, OUTH16, c16NaNH, qih2loop, qih2next, qih2nan, qih2done)

// func dequantFP4BF16AVX2(dst *uint16, scales, elements *byte, nblocks int)
TEXT ·dequantFP4BF16AVX2(SB), NOSPLIT, $0-32
	MOVQ         dst+0(FP), DI
	MOVQ         scales+8(FP), BX
	MOVQ         elements+16(FP), SI
	MOVQ         nblocks+24(FP), CX
	VPBROADCASTD c16One<>(SB), Y13
	VPBROADCASTD c16Round<>(SB), Y14
	FP4LOOP16(FP4BF16, c16NaNBF, q4b2loop, q4b2next, q4b2nan, q4b2done)

// func dequantFP4HalfAVX2(dst *uint16, scales, elements *byte, nblocks int)
TEXT ·dequantFP4HalfAVX2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ scales+8(FP), BX
	MOVQ elements+16(FP), SI
	MOVQ nblocks+24(FP), CX
	FP4LOOP16(FP4H16, c16NaNH, q4h2loop, q4h2next, q4h2nan, q4h2done)

// 16-bit-lane decoders (see conv16_amd64.go): R8 the wConsts, X12 the
// shift to the bfloat16 mantissa position, X11 the sign shift, Y9 the
// bfloat16 NaN, Y10 0x7F80 (Inf), Y13 0x8000 (a VPSHUFB index high byte
// that gives 0), Y14 zero, Y15 0x7F7F (the largest finite magnitude).
DATA c16WNaN<>+0(SB)/4, $0x7fc07fc0
GLOBL c16WNaN<>(SB), RODATA|NOPTR, $4
DATA c16WInf<>+0(SB)/4, $0x7f807f80
GLOBL c16WInf<>(SB), RODATA|NOPTR, $4
DATA c16WHi<>+0(SB)/4, $0x80008000
GLOBL c16WHi<>(SB), RODATA|NOPTR, $4
DATA c16WMax<>+0(SB)/4, $0x7f7f7f7f
GLOBL c16WMax<>(SB), RODATA|NOPTR, $4
DATA c16WAbs<>+0(SB)/8, $0x7fff7fff7fff7fff
DATA c16WAbs<>+8(SB)/8, $0x7fff7fff7fff7fff
DATA c16WAbs<>+16(SB)/8, $0x7fff7fff7fff7fff
DATA c16WAbs<>+24(SB)/8, $0x7fff7fff7fff7fff
GLOBL c16WAbs<>(SB), RODATA|NOPTR, $32
DATA c16OneV<>+0(SB)/8, $0x0000000100000001
DATA c16OneV<>+8(SB)/8, $0x0000000100000001
DATA c16OneV<>+16(SB)/8, $0x0000000100000001
DATA c16OneV<>+24(SB)/8, $0x0000000100000001
GLOBL c16OneV<>(SB), RODATA|NOPTR, $32
DATA c16RoundV<>+0(SB)/8, $0x00007fff00007fff
DATA c16RoundV<>+8(SB)/8, $0x00007fff00007fff
DATA c16RoundV<>+16(SB)/8, $0x00007fff00007fff
DATA c16RoundV<>+24(SB)/8, $0x00007fff00007fff
GLOBL c16RoundV<>(SB), RODATA|NOPTR, $32

// BDEC decodes the 16 codes at off(SI) to bfloat16 in w: a normal code's
// magnitude shifted and rebiased; a subnormal one (magnitude not above
// minNormalM1) from the subLo/subHi byte tables; then the sign, ±Inf and
// the canonical NaN (0x7FC0, as the decode table gives). Y3, Y4, Y5, Y7,
// Y8 scratch.
#define BDEC(off, w) \
	VPMOVZXBW off(SI), Y4; \
	VPAND     wConsts_magMask(R8), Y4, Y5; \
	VPSLLW    X12, Y5, w; \
	VPADDW    wConsts_rebias(R8), w, w; \
	VPOR      Y13, Y5, Y7; \
	VMOVDQU   wConsts_subLo(R8), Y8; \
	VPSHUFB   Y7, Y8, Y8; \
	VMOVDQU   wConsts_subHi(R8), Y3; \
	VPSHUFB   Y7, Y3, Y3; \
	VPSLLW    $8, Y3, Y3; \
	VPOR      Y3, Y8, Y8; \
	VPCMPGTW  wConsts_minNormalM1(R8), Y5, Y7; \
	VPBLENDVB Y7, w, Y8, w; \
	VPAND     wConsts_signMask(R8), Y4, Y7; \
	VPSLLW    X11, Y7, Y7; \
	VPOR      Y7, w, w; \
	VPCMPEQW  wConsts_infMag(R8), Y5, Y8; \
	VPOR      Y10, Y7, Y7; \
	VPBLENDVB Y8, Y7, w, w; \
	VPCMPGTW  wConsts_nanMinM1(R8), Y5, Y8; \
	VPBLENDVB Y8, Y9, w, w

// WHALF widens the 16 bfloat16 in w to float32 (the word in the high
// half of a dword: VPUNPCKLWD/VPUNPCKHWD with zero give elements 0-3,
// 8-11 and 4-7, 12-15), applies mul (nothing, or the block scale), and
// stores them as binary16 (VCVTPS2PH to nearest even, imm 0) in order.
#define WHALF(w, mul, off) \
	VPUNPCKLWD  w, Y14, Y4; \
	VPUNPCKHWD  w, Y14, Y5; \
	mul(Y4); \
	mul(Y5); \
	VCVTPS2PH   $0, Y4, X4; \
	VCVTPS2PH   $0, Y5, X5; \
	VPUNPCKLQDQ X5, X4, X7; \
	VPUNPCKHQDQ X5, X4, X4; \
	VMOVDQU     X7, off(DI); \
	VMOVDQU     X4, off+16(DI)

#define NOMUL(z)
#define MULS(z) VMULPS Y6, z, z

// RNEBFM is RNEBF with its constants in memory.
#define RNEBFM(z) \
	VPSRLD $16, z, Y4; \
	VPAND  c16OneV<>(SB), Y4, Y4; \
	VPADDD Y4, z, z; \
	VPADDD c16RoundV<>(SB), z, z; \
	VPSRLD $16, z, z

// WBFMUL multiplies the 16 bfloat16 in w by the block scale in float32
// (Y6) and stores them rounded to bfloat16 at off(DI): VPACKUSDW of the
// unpacked halves restores element order lane by lane.
#define WBFMUL(w, off) \
	VPUNPCKLWD w, Y14, Y2; \
	VPUNPCKHWD w, Y14, Y3; \
	VMULPS     Y6, Y2, Y2; \
	VMULPS     Y6, Y3, Y3; \
	RNEBFM(Y2); \
	RNEBFM(Y3); \
	VPACKUSDW  Y3, Y2, Y2; \
	VMOVDQU    Y2, off(DI)

// ADJ adds the block's exponent (Y6: (s − 127) << 7 in each word) to the
// nonzero finite bfloat16 in w; zeros, infinities and NaNs stay.
#define ADJ(w) \
	VPAND    c16WAbs<>(SB), w, Y4; \
	VPCMPGTW Y14, Y4, Y5; \
	VPCMPGTW Y15, Y4, Y7; \
	VPANDN   Y5, Y7, Y5; \
	VPAND    Y6, Y5, Y5; \
	VPADDW   Y5, w, w

// WSETUP loads the registers the 16-bit-lane decoders share.
#define WSETUP \
	VMOVQ        wConsts_shift(R8), X12; \
	VMOVQ        wConsts_signShift(R8), X11; \
	VPBROADCASTD c16WNaN<>(SB), Y9; \
	VPBROADCASTD c16WInf<>(SB), Y10; \
	VPBROADCASTD c16WHi<>(SB), Y13; \
	VPXOR        Y14, Y14, Y14; \
	VPBROADCASTD c16WMax<>(SB), Y15

// func decodeWBF16AVX2(dst *uint16, src *byte, n int, c *wConsts)
TEXT ·decodeWBF16AVX2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ c+24(FP), R8
	WSETUP
	SHRQ $5, CX
	JEQ  dwbdone

dwbloop:
	BDEC(0, Y0)
	BDEC(16, Y1)
	VMOVDQU Y0, 0(DI)
	VMOVDQU Y1, 32(DI)
	ADDQ    $32, SI
	ADDQ    $64, DI
	DECQ    CX
	JNZ     dwbloop

dwbdone:
	VZEROUPPER
	RET

// func decodeWHalfAVX2(dst *uint16, src *byte, n int, c *wConsts)
TEXT ·decodeWHalfAVX2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ c+24(FP), R8
	WSETUP
	SHRQ $5, CX
	JEQ  dwhdone

dwhloop:
	BDEC(0, Y0)
	BDEC(16, Y1)
	WHALF(Y0, NOMUL, 0)
	WHALF(Y1, NOMUL, 32)
	ADDQ $32, SI
	ADDQ $64, DI
	DECQ CX
	JNZ  dwhloop

dwhdone:
	VZEROUPPER
	RET

// func dequantWBF16AVX2(dst *uint16, scales, codes *byte, nblocks int, c *wConsts)
//
// Scale codes 17 to 238 add the exponent to the bfloat16 bits (every
// product is a normal bfloat16, exact); the others multiply in float32
// and round, as the portable loop and narrow16 do; 0xFF stores NaN.
TEXT ·dequantWBF16AVX2(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ scales+8(FP), BX
	MOVQ codes+16(FP), SI
	MOVQ nblocks+24(FP), CX
	MOVQ c+32(FP), R8
	WSETUP
	TESTQ CX, CX
	JEQ   qwbdone

qwbloop:
	MOVBLZX (BX), AX
	CMPL    AX, $0xFF
	JEQ     qwbnan
	BDEC(0, Y0)
	BDEC(16, Y1)
	CMPL    AX, $17
	JCS     qwbmul
	CMPL    AX, $238
	JHI     qwbmul
	LEAL    -127(AX), DX
	SHLL    $7, DX
	VMOVD   DX, X6
	VPBROADCASTW X6, Y6
	ADJ(Y0)
	ADJ(Y1)
	VMOVDQU Y0, 0(DI)
	VMOVDQU Y1, 32(DI)
	JMP     qwbnext

qwbmul:
	// 2^(s−127): bits s<<23, or 0x00400000 for s = 0.
	SHLL         $23, AX
	MOVL         $0x00400000, DX
	TESTL        AX, AX
	CMOVLEQ      DX, AX
	VMOVD        AX, X6
	VPBROADCASTD X6, Y6
	WBFMUL(Y0, 0)
	WBFMUL(Y1, 32)

qwbnext:
	ADDQ $32, SI
	ADDQ $64, DI
	INCQ BX
	DECQ CX
	JNZ  qwbloop

qwbdone:
	VZEROUPPER
	RET

qwbnan:
	VMOVDQU Y9, 0(DI)
	VMOVDQU Y9, 32(DI)
	JMP     qwbnext

// func dequantWHalfAVX2(dst *uint16, scales, codes *byte, nblocks int, c *wConsts)
TEXT ·dequantWHalfAVX2(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ scales+8(FP), BX
	MOVQ codes+16(FP), SI
	MOVQ nblocks+24(FP), CX
	MOVQ c+32(FP), R8
	WSETUP
	TESTQ CX, CX
	JEQ   qwhdone

qwhloop:
	SCALE16(qwhnan)
	BDEC(0, Y0)
	BDEC(16, Y1)
	WHALF(Y0, MULS, 0)
	WHALF(Y1, MULS, 32)

qwhnext:
	ADDQ $32, SI
	ADDQ $64, DI
	INCQ BX
	DECQ CX
	JNZ  qwhloop

qwhdone:
	VZEROUPPER
	RET

qwhnan:
	VPBROADCASTD c16NaNH<>(SB), Y0
	VMOVDQU      Y0, 0(DI)
	VMOVDQU      Y0, 32(DI)
	JMP          qwhnext

// WF32 widens the 16 bfloat16 in w to float32 (VPUNPCKLWD/VPUNPCKHWD
// with zero give elements 0-3, 8-11 and 4-7, 12-15), multiplies them by
// the block scale (Y6) and stores them in order (VPERM2I128 joins the
// lanes).
#define WF32(w, off) \
	VPUNPCKLWD w, Y14, Y4; \
	VPUNPCKHWD w, Y14, Y5; \
	VMULPS     Y6, Y4, Y4; \
	VMULPS     Y6, Y5, Y5; \
	VPERM2I128 $0x20, Y5, Y4, Y7; \
	VPERM2I128 $0x31, Y5, Y4, Y8; \
	VMOVDQU    Y7, off(DI); \
	VMOVDQU    Y8, off+32(DI)

// F32NAN stores a NaN block: 32 canonical NaNs (what pow2f32's caller
// stores for the NaN scale).
#define F32NAN \
	VPBROADCASTD c16NaN32<>(SB), Y0; \
	VMOVDQU      Y0, 0(DI); \
	VMOVDQU      Y0, 32(DI); \
	VMOVDQU      Y0, 64(DI); \
	VMOVDQU      Y0, 96(DI)

DATA c16NaN32<>+0(SB)/4, $0x7fc00000
GLOBL c16NaN32<>(SB), RODATA|NOPTR, $4

// func dequantWF32AVX2(dst *float32, scales, codes *byte, nblocks int, c *wConsts)
//
// Float formats to float32: BDEC's exact bfloat16, widened, times the
// block scale (the portable loop's table[c]·scale).
TEXT ·dequantWF32AVX2(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ scales+8(FP), BX
	MOVQ codes+16(FP), SI
	MOVQ nblocks+24(FP), CX
	MOVQ c+32(FP), R8
	WSETUP
	TESTQ CX, CX
	JEQ   qwfdone

qwfloop:
	SCALE16(qwfnan)
	BDEC(0, Y0)
	BDEC(16, Y1)
	WF32(Y0, 0)
	WF32(Y1, 64)

qwfnext:
	ADDQ $32, SI
	ADDQ $128, DI
	INCQ BX
	DECQ CX
	JNZ  qwfloop

qwfdone:
	VZEROUPPER
	RET

qwfnan:
	F32NAN
	JMP qwfnext

// IF32 converts the 8 MXINT8 codes at off(SI) to float32, int8(c)/64
// (exact, Y15), times the block scale (Y6), and stores them at 4·off(DI).
#define IF32(off) \
	VPMOVSXBD off(SI), Y0; \
	VCVTDQ2PS Y0, Y0; \
	VMULPS    Y15, Y0, Y0; \
	VMULPS    Y6, Y0, Y0; \
	VMOVDQU   Y0, (4*off)(DI)

// func dequantIF32AVX2(dst *float32, scales, codes *byte, nblocks int)
TEXT ·dequantIF32AVX2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ scales+8(FP), BX
	MOVQ codes+16(FP), SI
	MOVQ nblocks+24(FP), CX
	VPBROADCASTD c16Int8<>(SB), Y15
	TESTQ CX, CX
	JEQ   qifdone

qifloop:
	SCALE16(qifnan)
	IF32(0)
	IF32(8)
	IF32(16)
	IF32(24)

qifnext:
	ADDQ $32, SI
	ADDQ $128, DI
	INCQ BX
	DECQ CX
	JNZ  qifloop

qifdone:
	VZEROUPPER
	RET

qifnan:
	F32NAN
	JMP qifnext

// AVX2 decoders of MXINT8 and E8M0 to 16 bits, by arithmetic instead of
// a table gather: IDEC8 gives int8(c)/64 (exact, Y15 1/64); EDEC8 gives
// 2^(c−127), bits c<<23 except code 0 (2^-127: 0x00400000, Y12) and code
// 0xFF (the canonical NaN, Y9); Y14 zero, Y13 0xFF; Y4, Y5 scratch.
#define IDEC8(off, y) \
	VPMOVSXBD off(SI), y; \
	VCVTDQ2PS y, y; \
	VMULPS    Y15, y, y

#define EDEC8(off, y) \
	VPMOVZXBD off(SI), y; \
	VPCMPEQD  Y14, y, Y4; \
	VPCMPEQD  Y13, y, Y5; \
	VPSLLD    $23, y, y; \
	VPBLENDVB Y4, Y12, y, y; \
	VPBLENDVB Y5, Y9, y, y

// D16BF stores the float32 in Y0-Y3 (elements 0-31; every value is a
// bfloat16, so the top halves are exact) as 32 bfloat16; binary16 output
// stores with OUTH16 (above).
#define D16BF \
	VPSRLD    $16, Y0, Y0; \
	VPSRLD    $16, Y1, Y1; \
	VPSRLD    $16, Y2, Y2; \
	VPSRLD    $16, Y3, Y3; \
	VPACKUSDW Y1, Y0, Y0; \
	VPACKUSDW Y3, Y2, Y2; \
	VPERMQ    $0xd8, Y0, Y0; \
	VPERMQ    $0xd8, Y2, Y2; \
	VMOVDQU   Y0, 0(DI); \
	VMOVDQU   Y2, 32(DI)

// D16LOOP decodes CX codes (a multiple of 32) at SI with dec and stores
// them with out at DI.
#define D16LOOP(dec, out, label, done) \
	VPBROADCASTD c16Int8<>(SB), Y15; \
	VPBROADCASTD c16NaN32<>(SB), Y9; \
	VPBROADCASTD c16E8Min<>(SB), Y12; \
	VPBROADCASTD c16FF<>(SB), Y13; \
	VPXOR        Y14, Y14, Y14; \
	SHRQ         $5, CX; \
	JEQ          done; \
label: \
	dec(0, Y0); \
	dec(8, Y1); \
	dec(16, Y2); \
	dec(24, Y3); \
	out; \
	ADDQ $32, SI; \
	ADDQ $64, DI; \
	DECQ CX; \
	JNZ  label; \
done: \
	VZEROUPPER; \
	RET

DATA c16E8Min<>+0(SB)/4, $0x00400000
GLOBL c16E8Min<>(SB), RODATA|NOPTR, $4
DATA c16FF<>+0(SB)/4, $0x000000ff
GLOBL c16FF<>(SB), RODATA|NOPTR, $4

// func decodeIBF16AVX2(dst *uint16, src *byte, n int)
TEXT ·decodeIBF16AVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	D16LOOP(IDEC8, D16BF, dibf2loop, dibf2done)

// func decodeIHalfAVX2(dst *uint16, src *byte, n int)
TEXT ·decodeIHalfAVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	D16LOOP(IDEC8, OUTH16, dih2loop, dih2done)

// func decodeEBF16AVX2(dst *uint16, src *byte, n int)
TEXT ·decodeEBF16AVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	D16LOOP(EDEC8, D16BF, debf2loop, debf2done)

// func decodeEHalfAVX2(dst *uint16, src *byte, n int)
TEXT ·decodeEHalfAVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	D16LOOP(EDEC8, OUTH16, deh2loop, deh2done)
