#include "textflag.h"
#include "go_asm.h"

// dequantHDirectAVX2 and dequantHFP6AVX2; see deqh_amd64.go.

DATA deqhNaN<>+0(SB)/4, $0x7e007e00 // two binary16 NaNs
GLOBL deqhNaN<>(SB), RODATA|NOPTR, $4

// VPSHUFB indices that put, in word j of a 128-bit lane, the two bytes
// holding FP6 code j%4 of the lane's group j/4 (bytes 0-1 for codes 0 and
// 1, bytes 1-2 for codes 2 and 3 of a 3-byte group): Lo for the 16 bytes
// at a block's start (codes 0-7 from bytes 0-5, codes 8-15 from 6-11),
// Hi for the 16 bytes from its byte 8 (codes 16-23 from bytes 12-17,
// 24-31 from 18-23, so no load passes the block's 24 bytes).
DATA deqhShufLo<>+0(SB)/8, $0x0201020101000100
DATA deqhShufLo<>+8(SB)/8, $0x0504050404030403
DATA deqhShufLo<>+16(SB)/8, $0x0807080707060706
DATA deqhShufLo<>+24(SB)/8, $0x0b0a0b0a0a090a09
GLOBL deqhShufLo<>(SB), RODATA|NOPTR, $32
DATA deqhShufHi<>+0(SB)/8, $0x0605060505040504
DATA deqhShufHi<>+8(SB)/8, $0x0908090808070807
DATA deqhShufHi<>+16(SB)/8, $0x0c0b0c0b0b0a0b0a
DATA deqhShufHi<>+24(SB)/8, $0x0f0e0f0e0e0d0e0d
GLOBL deqhShufHi<>(SB), RODATA|NOPTR, $32

// VPMULLW multipliers that shift code k of a group (bits 6k to 6k+5 of
// its 24) to the top of its word: by 10, 4, 6 and 0 bits.
DATA deqhMul6<>+0(SB)/8, $0x0001004000100400
DATA deqhMul6<>+8(SB)/8, $0x0001004000100400
DATA deqhMul6<>+16(SB)/8, $0x0001004000100400
DATA deqhMul6<>+24(SB)/8, $0x0001004000100400
GLOBL deqhMul6<>(SB), RODATA|NOPTR, $32

#define NOPRE(z)
#define PRE(z) VMULPS Y10, z, z

// HPAT8 loads the 16 one-byte codes at off(SI) as binary16 patterns in
// Y4 (shift left to put the sign at bit 15, shift right arithmetically to
// put the exponent field in place, clear the sign's copies and anything
// below the magnitude) and marks the NaN codes in Y5. Y11 magnitude mask,
// Y12 nanMinM1, X13 lshift, X14 rshift, Y15 keep.
#define HPAT8(off) \
	VPMOVZXBW off(SI), Y4; \
	VPAND     Y11, Y4, Y5; \
	VPCMPGTW  Y12, Y5, Y5; \
	VPSLLW    X13, Y4, Y4; \
	VPSRAW    X14, Y4, Y4; \
	VPAND     Y15, Y4, Y4

// HPAT6 is HPAT8 for 16 packed FP6 codes: the 16 bytes at off(SI) in both
// lanes, each code's two bytes in its word (shuf), VPMULLW moving the code
// to the top (Y2); FP6 has no NaN.
#define HPAT6(off, shuf) \
	VBROADCASTI128 off(SI), Y4; \
	VPSHUFB        shuf, Y4, Y4; \
	VPMULLW        Y2, Y4, Y4; \
	VPSRAW         X14, Y4, Y4; \
	VPAND          Y15, Y4, Y4

// HMUL turns the 16 patterns in Y4 into the binary16 results: VCVTPH2PS
// (exact), the multiplies (pre, then the block multiplier Y6), VCVTPS2PH
// rounding to nearest even. Y7 scratch.
#define HMUL(pre) \
	VEXTRACTI128 $1, Y4, X7; \
	VCVTPH2PS    X4, Y4; \
	VCVTPH2PS    X7, Y7; \
	pre(Y4); \
	pre(Y7); \
	VMULPS       Y6, Y4, Y4; \
	VMULPS       Y6, Y7, Y7; \
	VCVTPS2PH    $0, Y4, X4; \
	VCVTPS2PH    $0, Y7, X7; \
	VINSERTI128  $1, X7, Y4, Y4

// The two halves of a block: 16 codes each to 32 bytes at DI; the
// one-byte formats' NaN codes (Y5) take Y9.
#define H8LO(pre) HPAT8(0); HMUL(pre); VPBLENDVB Y5, Y9, Y4, Y4; VMOVDQU Y4, 0(DI)
#define H8HI(pre) HPAT8(16); HMUL(pre); VPBLENDVB Y5, Y9, Y4, Y4; VMOVDQU Y4, 32(DI)
#define H6LO(pre) HPAT6(0, Y0); HMUL(pre); VMOVDQU Y4, 0(DI)
#define H6HI(pre) HPAT6(8, Y1); HMUL(pre); VMOVDQU Y4, 32(DI)

// HSETUP loads the arguments and the constants.
#define HSETUP \
	MOVQ         dst+0(FP), DI; \
	MOVQ         scales+8(FP), BX; \
	MOVQ         codes+16(FP), SI; \
	MOVQ         nblocks+24(FP), CX; \
	MOVQ         c+32(FP), R8; \
	MOVL         hConsts_rebias(R8), R9; \
	VPBROADCASTD hConsts_pre(R8), Y10; \
	VMOVDQU      hConsts_magMask(R8), Y11; \
	VMOVDQU      hConsts_nanMinM1(R8), Y12; \
	VMOVQ        hConsts_lshift(R8), X13; \
	VMOVQ        hConsts_rshift(R8), X14; \
	VMOVDQU      hConsts_keep(R8), Y15; \
	VPBROADCASTD deqhNaN<>(SB), Y9; \
	VMOVDQU      deqhShufLo<>(SB), Y0; \
	VMOVDQU      deqhShufHi<>(SB), Y1; \
	VMOVDQU      deqhMul6<>(SB), Y2

// HLOOP dequantizes CX blocks (step code bytes each) with the halves lo
// and hi. The multiplier's exponent field is s + 15 − bias: 0 only for
// E5M2's s = 0, whose 2^-127 is the float32 subnormal 0x00400000 (as
// pow2f32 gives); above 254 the block multiplies by 2^(15 − bias), exactly,
// then by 2^(s − 127) (normal: s ≤ 254 there). Scale 0xFF stores NaNs.
#define HLOOP(lo, hi, step, loop, next, nan, big, done) \
	TESTQ CX, CX; \
	JEQ   done; \
loop: \
	MOVBLZX      (BX), AX; \
	CMPL         AX, $0xFF; \
	JEQ          nan; \
	ADDL         R9, AX; \
	CMPL         AX, $254; \
	JHI          big; \
	SHLL         $23, AX; \
	MOVL         $0x00400000, DX; \
	TESTL        AX, AX; \
	CMOVLEQ      DX, AX; \
	VMOVD        AX, X6; \
	VPBROADCASTD X6, Y6; \
	lo(NOPRE); \
	hi(NOPRE); \
next: \
	ADDQ $step, SI; \
	ADDQ $64, DI; \
	INCQ BX; \
	DECQ CX; \
	JNZ  loop; \
done: \
	VZEROUPPER; \
	RET; \
nan: \
	VMOVDQU Y9, 0(DI); \
	VMOVDQU Y9, 32(DI); \
	JMP     next; \
big: \
	SUBL         R9, AX; \
	SHLL         $23, AX; \
	VMOVD        AX, X6; \
	VPBROADCASTD X6, Y6; \
	lo(PRE); \
	hi(PRE); \
	JMP          next

// func dequantHDirectAVX2(dst *uint16, scales, codes *byte, nblocks int, c *hConsts)
TEXT ·dequantHDirectAVX2(SB), NOSPLIT, $0-40
	HSETUP
	HLOOP(H8LO, H8HI, 32, dh8loop, dh8next, dh8nan, dh8big, dh8done)

// func dequantHFP6AVX2(dst *uint16, scales, packed *byte, nblocks int, c *hConsts)
TEXT ·dequantHFP6AVX2(SB), NOSPLIT, $0-40
	HSETUP
	HLOOP(H6LO, H6HI, 24, dh6loop, dh6next, dh6nan, dh6big, dh6done)

DATA deqhBFNaN<>+0(SB)/4, $0x7fc07fc0 // two bfloat16 NaNs
GLOBL deqhBFNaN<>(SB), RODATA|NOPTR, $4

// HMULBF is HMUL with bfloat16 results. Every float32 product of an FP6
// value (at most 4 significant bits) and a power of two is a bfloat16,
// ±0 or ±Inf: its lowest significant bit is at least 2^-131 (E3M2's
// smallest 2^-4 times 2^-127), bit 18 of a float32 subnormal, so no bit
// below bit 16 is ever set and the top half is the result, rounded or
// not. VPACKUSDW interleaves the two vectors' 128-bit lanes; VPERMQ
// restores element order.
#define HMULBF(pre) \
	VEXTRACTI128 $1, Y4, X7; \
	VCVTPH2PS    X4, Y4; \
	VCVTPH2PS    X7, Y7; \
	pre(Y4); \
	pre(Y7); \
	VMULPS       Y6, Y4, Y4; \
	VMULPS       Y6, Y7, Y7; \
	VPSRLD       $16, Y4, Y4; \
	VPSRLD       $16, Y7, Y7; \
	VPACKUSDW    Y7, Y4, Y4; \
	VPERMQ       $0xd8, Y4, Y4

#define H6BLO(pre) HPAT6(0, Y0); HMULBF(pre); VMOVDQU Y4, 0(DI)
#define H6BHI(pre) HPAT6(8, Y1); HMULBF(pre); VMOVDQU Y4, 32(DI)

// func dequantHFP6BF16AVX2(dst *uint16, scales, packed *byte, nblocks int, c *hConsts)
TEXT ·dequantHFP6BF16AVX2(SB), NOSPLIT, $0-40
	HSETUP
	VPBROADCASTD deqhBFNaN<>(SB), Y9
	HLOOP(H6BLO, H6BHI, 24, dh6bloop, dh6bnext, dh6bnan, dh6bbig, dh6bdone)
