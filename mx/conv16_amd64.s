#include "textflag.h"
#include "go_asm.h"

// AVX2 block dequantizers fused to bfloat16 and binary16, for CPUs without
// AVX-512 (see conv16_amd64.go): each block of 32 is decoded, multiplied
// by its scale in float32 and rounded to 16 bits in registers, instead of
// dequantizing to a float32 buffer and narrowing it in a second pass. Go
// operand order: sources first, destination last.

DATA c16NaN<>+0(SB)/4, $0x7fc00000
GLOBL c16NaN<>(SB), RODATA|NOPTR, $4
DATA c16Inf<>+0(SB)/4, $0x7f800000
GLOBL c16Inf<>(SB), RODATA|NOPTR, $4
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

// FDEC16 decodes the 8 codes at off(SI) of a float format (decConsts at
// R8) to float32 in code, as FDEC8 in slice_amd64.s: the shifted
// magnitude rebiased, with a subnormal code's exponent field set to 1 and
// 2^(1−bias) subtracted (exact, and no float32 subnormal through the
// FPU); then the sign, ±Inf and the canonical NaN. X12 the mantissa shift,
// X11 the sign shift, Y10 +Inf, Y9 the NaN; Y4, Y5, Y7, Y8 scratch.
#define FDEC16(off, code) \
	VPMOVZXBD off(SI), Y4; \
	VPAND     decConsts_signMask(R8), Y4, Y7; \
	VPSLLD    X11, Y7, Y7; \
	VPAND     decConsts_magMask(R8), Y4, Y5; \
	VPSLLD    X12, Y5, code; \
	VPADDD    decConsts_rebias(R8), code, code; \
	VPCMPGTD  decConsts_minNormalM1(R8), Y5, Y8; \
	VPANDN    decConsts_one23(R8), Y8, Y4; \
	VPADDD    Y4, code, code; \
	VPANDN    decConsts_sub(R8), Y8, Y4; \
	VSUBPS    Y4, code, code; \
	VPOR      Y7, code, code; \
	VPCMPEQD  decConsts_infMag(R8), Y5, Y8; \
	VPOR      Y10, Y7, Y7; \
	VPBLENDVB Y8, Y7, code, code; \
	VPCMPGTD  decConsts_nanMinM1(R8), Y5, Y8; \
	VPBLENDVB Y8, Y9, code, code

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
	MOVQ         c+32(FP), R8; \
	VPBROADCASTD c16NaN<>(SB), Y9; \
	VPBROADCASTD c16Inf<>(SB), Y10; \
	VPBROADCASTD c16One<>(SB), Y13; \
	VPBROADCASTD c16Round<>(SB), Y14; \
	VPBROADCASTD c16Int8<>(SB), Y15

#define FSHIFTS \
	VMOVQ decConsts_shift(R8), X12; \
	VMOVQ decConsts_signShift(R8), X11

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

// func dequantFBF16AVX2(dst *uint16, scales, codes *byte, nblocks int, c *decConsts)
TEXT ·dequantFBF16AVX2(SB), NOSPLIT, $0-40
	DQ16ARGS
	FSHIFTS
	DQ16LOOP(FDEC16, OUTBF16(qfb2exact, qfb2pack), c16NaNBF, qfb2loop, qfb2next, qfb2nan, qfb2done)

// func dequantFHalfAVX2(dst *uint16, scales, codes *byte, nblocks int, c *decConsts)
TEXT ·dequantFHalfAVX2(SB), NOSPLIT, $0-40
	DQ16ARGS
	FSHIFTS
	DQ16LOOP(FDEC16, OUTH16, c16NaNH, qfh2loop, qfh2next, qfh2nan, qfh2done)

// func dequantIBF16AVX2(dst *uint16, scales, codes *byte, nblocks int, c *decConsts)
TEXT ·dequantIBF16AVX2(SB), NOSPLIT, $0-40
	DQ16ARGS
	DQ16LOOP(IDEC16, OUTBF16(qib2exact, qib2pack), c16NaNBF, qib2loop, qib2next, qib2nan, qib2done)

// func dequantIHalfAVX2(dst *uint16, scales, codes *byte, nblocks int, c *decConsts)
TEXT ·dequantIHalfAVX2(SB), NOSPLIT, $0-40
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
