#include "textflag.h"
#include "go_asm.h"

// AVX2 kernels for 32-element MX blocks; see kernels_amd64.go. Go operand
// order throughout: sources first, destination last.

// The E2M1 magnitudes 0, 0.5, 1, 1.5, 2, 3, 4, 6 as float32 bits.
DATA e2m1Mag<>+0(SB)/4, $0x00000000
DATA e2m1Mag<>+4(SB)/4, $0x3f000000
DATA e2m1Mag<>+8(SB)/4, $0x3f800000
DATA e2m1Mag<>+12(SB)/4, $0x3fc00000
DATA e2m1Mag<>+16(SB)/4, $0x40000000
DATA e2m1Mag<>+20(SB)/4, $0x40400000
DATA e2m1Mag<>+24(SB)/4, $0x40800000
DATA e2m1Mag<>+28(SB)/4, $0x40c00000
GLOBL e2m1Mag<>(SB), RODATA|NOPTR, $32

// i<<28 in lane i: XORed into the scaled magnitude table so that XORing a
// code c shifted left by 28 afterwards cancels the index bits and leaves
// bit 3 of c, the sign, in bit 31.
DATA laneHigh<>+0(SB)/4, $0x00000000
DATA laneHigh<>+4(SB)/4, $0x10000000
DATA laneHigh<>+8(SB)/4, $0x20000000
DATA laneHigh<>+12(SB)/4, $0x30000000
DATA laneHigh<>+16(SB)/4, $0x40000000
DATA laneHigh<>+20(SB)/4, $0x50000000
DATA laneHigh<>+24(SB)/4, $0x60000000
DATA laneHigh<>+28(SB)/4, $0x70000000
GLOBL laneHigh<>(SB), RODATA|NOPTR, $32

// VPSHUFB controls spreading bytes of a 16-byte block (in both lanes) into
// dwords, in the order [0 1 4 5 | 2 3 6 7] (first half) and the same +8
// (second half), which VPUNPCK{L,H}DQ turn back into element order.
DATA spreadLo<>+0(SB)/8, $0x8080800180808000
DATA spreadLo<>+8(SB)/8, $0x8080800580808004
DATA spreadLo<>+16(SB)/8, $0x8080800380808002
DATA spreadLo<>+24(SB)/8, $0x8080800780808006
GLOBL spreadLo<>(SB), RODATA|NOPTR, $32
DATA spreadHi<>+0(SB)/8, $0x8080800980808008
DATA spreadHi<>+8(SB)/8, $0x8080800d8080800c
DATA spreadHi<>+16(SB)/8, $0x8080800b8080800a
DATA spreadHi<>+24(SB)/8, $0x8080800f8080800e
GLOBL spreadHi<>(SB), RODATA|NOPTR, $32

DATA nanBits<>+0(SB)/4, $0x7fc00000
GLOBL nanBits<>(SB), RODATA|NOPTR, $4
DATA absMask<>+0(SB)/4, $0x7fffffff
GLOBL absMask<>(SB), RODATA|NOPTR, $4

// Dword order after VPACKUSDW and VPACKUSWB of four vectors, undone.
DATA packPerm<>+0(SB)/8, $0x0000000400000000
DATA packPerm<>+8(SB)/8, $0x0000000500000001
DATA packPerm<>+16(SB)/8, $0x0000000600000002
DATA packPerm<>+24(SB)/8, $0x0000000700000003
GLOBL packPerm<>(SB), RODATA|NOPTR, $32


// DEQUANT16 writes 16 floats at off(DI) from the dwords that the VPSHUFB
// control ctl spreads out of Y1, with the scaled table (XORed with
// laneHigh) in Y0. VPERMD reads only the low 3 bits of an index, so the
// raw byte indexes the low nibble's magnitude and the byte shifted right
// by 4 the high nibble's.
#define DEQUANT16(ctl, off) \
	VPSHUFB    ctl, Y1, Y2; \
	VPERMD     Y0, Y2, Y3; \
	VPSLLD     $28, Y2, Y4; \
	VPXOR      Y4, Y3, Y3; \
	VPSRLD     $4, Y2, Y2; \
	VPERMD     Y0, Y2, Y4; \
	VPSLLD     $28, Y2, Y5; \
	VPXOR      Y5, Y4, Y4; \
	VPUNPCKLDQ Y4, Y3, Y5; \
	VPUNPCKHDQ Y4, Y3, Y6; \
	VMOVDQU    Y5, off(DI); \
	VMOVDQU    Y6, off+32(DI)

// func dequantFP4x32AVX2(dst *float32, scales, elements *byte, nblocks int)
TEXT ·dequantFP4x32AVX2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ scales+8(FP), BX
	MOVQ elements+16(FP), SI
	MOVQ nblocks+24(FP), CX
	TESTQ CX, CX
	JEQ dqdone
	VMOVDQU e2m1Mag<>(SB), Y15
	VMOVDQU laneHigh<>(SB), Y14
	VMOVDQU spreadLo<>(SB), Y13
	VMOVDQU spreadHi<>(SB), Y12
	VPBROADCASTD nanBits<>(SB), Y11

dqloop:
	MOVBLZX (BX), AX
	CMPL AX, $0xFF
	JEQ dqnan
	// 2^(s−127): bits s<<23, or 0x00400000 (2^-127, subnormal) for s = 0.
	SHLL $23, AX
	MOVL $0x00400000, DX
	TESTL AX, AX
	CMOVLEQ DX, AX
	VMOVD AX, X0
	VPBROADCASTD X0, Y0
	VMULPS Y15, Y0, Y0 // magnitude·scale, exact as in the portable loop
	VPXOR Y14, Y0, Y0
	VBROADCASTI128 (SI), Y1
	DEQUANT16(Y13, 0)
	DEQUANT16(Y12, 64)

dqnext:
	ADDQ $128, DI
	ADDQ $16, SI
	INCQ BX
	DECQ CX
	JNZ dqloop

dqdone:
	VZEROUPPER
	RET

dqnan:
	// A NaN scale makes the whole block NaN.
	VMOVDQU Y11, 0(DI)
	VMOVDQU Y11, 32(DI)
	VMOVDQU Y11, 64(DI)
	VMOVDQU Y11, 96(DI)
	JMP dqnext

DATA int8Max<>+0(SB)/4, $127
GLOBL int8Max<>(SB), RODATA|NOPTR, $4
DATA int8Min<>+0(SB)/4, $-127
GLOBL int8Min<>(SB), RODATA|NOPTR, $4
DATA f32Sixty4<>+0(SB)/4, $0x42800000
GLOBL f32Sixty4<>(SB), RODATA|NOPTR, $4

// QINT8 rounds the 8 floats at off(SI), times 2^−shared (Y12) and then
// times 64 (Y10), to nearest even with VCVTPS2DQ (the MXCSR default, as Go
// keeps it), clamps them to ±127 (Y9, Y8) and leaves them in code. The
// products are exact or rounded exactly as the portable loop's.
#define QINT8(off, code) \
	VMULPS    off(SI), Y12, code; \
	VMULPS    Y10, code, code; \
	VCVTPS2DQ code, code; \
	VPMINSD   Y9, code, code; \
	VPMAXSD   Y8, code, code

// func quantINT8x32AVX2(scales, elements *byte, src *float32, nblocks int)
TEXT ·quantINT8x32AVX2(SB), NOSPLIT, $0-32
	MOVQ scales+0(FP), BX
	MOVQ elements+8(FP), DI
	MOVQ src+16(FP), SI
	MOVQ nblocks+24(FP), CX
	VPBROADCASTD absMask<>(SB), Y15
	VPBROADCASTD f32Sixty4<>(SB), Y10
	VPBROADCASTD int8Max<>(SB), Y9
	VPBROADCASTD int8Min<>(SB), Y8
	VMOVDQU packPerm<>(SB), Y7
	TESTQ CX, CX
	JEQ qi8done

qi8loop:
	// The block scale, as QSCALE with emax 0 computes it, except that
	// 2^-127 (scale 254) is the subnormal 0x00400000.
	VPAND        0(SI), Y15, Y0
	VPAND        32(SI), Y15, Y1
	VPAND        64(SI), Y15, Y2
	VPAND        96(SI), Y15, Y3
	VPMAXUD      Y1, Y0, Y0
	VPMAXUD      Y3, Y2, Y2
	VPMAXUD      Y2, Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPMAXUD      X1, X0, X0
	VPSHUFD      $0x4e, X0, X1
	VPMAXUD      X1, X0, X0
	VPSHUFD      $0xb1, X0, X1
	VPMAXUD      X1, X0, X0
	VMOVD        X0, AX
	CMPL         AX, $0x7f800000
	JAE          qi8nan
	SHRL         $23, AX
	MOVB         AX, (BX)
	MOVL         $254, DX
	SUBL         AX, DX
	SHLL         $23, DX
	MOVL         $0x00400000, R10
	TESTL        DX, DX
	CMOVLEQ      R10, DX
	VMOVD        DX, X12
	VPBROADCASTD X12, Y12
	QINT8(0, Y0)
	QINT8(32, Y1)
	QINT8(64, Y2)
	QINT8(96, Y3)
	VPACKSSDW Y1, Y0, Y0
	VPACKSSDW Y3, Y2, Y2
	VPACKSSWB Y2, Y0, Y0
	VPERMD    Y0, Y7, Y0
	VMOVDQU   Y0, (DI)

qi8next:
	ADDQ $128, SI
	ADDQ $32, DI
	INCQ BX
	DECQ CX
	JNZ qi8loop

qi8done:
	VZEROUPPER
	RET

qi8nan:
	MOVB $0xff, (BX)
	VPXOR Y0, Y0, Y0
	VMOVDQU Y0, (DI)
	JMP qi8next

// DQ8 writes 8 floats at off(DI): the table values (R8) of the codes at
// off/4(SI) times the block scale in Y0. Y15 is the gather mask.
#define DQ8(in, out, idx, val) \
	VPMOVZXBD  in(SI), idx; \
	VPCMPEQD   Y15, Y15, Y15; \
	VPGATHERDD Y15, (R8)(idx*4), val; \
	VMULPS     Y0, val, val; \
	VMOVDQU    val, out(DI)

// func dequant8x32AVX2(dst *float32, scales, codes *byte, nblocks int, table *[256]float32)
TEXT ·dequant8x32AVX2(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ scales+8(FP), BX
	MOVQ codes+16(FP), SI
	MOVQ nblocks+24(FP), CX
	MOVQ table+32(FP), R8
	VPBROADCASTD nanBits<>(SB), Y11
	TESTQ CX, CX
	JEQ dq8done

dq8loop:
	MOVBLZX (BX), AX
	CMPL AX, $0xFF
	JEQ dq8nan
	// 2^(s−127): bits s<<23, or 0x00400000 (2^-127, subnormal) for s = 0.
	SHLL $23, AX
	MOVL $0x00400000, DX
	TESTL AX, AX
	CMOVLEQ DX, AX
	VMOVD AX, X0
	VPBROADCASTD X0, Y0
	DQ8(0, 0, Y1, Y2)
	DQ8(8, 32, Y3, Y4)
	DQ8(16, 64, Y5, Y6)
	DQ8(24, 96, Y7, Y8)

dq8next:
	ADDQ $128, DI
	ADDQ $32, SI
	INCQ BX
	DECQ CX
	JNZ dq8loop

dq8done:
	VZEROUPPER
	RET

dq8nan:
	VMOVDQU Y11, 0(DI)
	VMOVDQU Y11, 32(DI)
	VMOVDQU Y11, 64(DI)
	VMOVDQU Y11, 96(DI)
	JMP dq8next

// FP6 unpacking: 3 bytes to 4 codes (one per byte of a dword, low 6
// bits), code k from bits 6k of the 24: the dword d of the 3 bytes gives
// d&0x3F | (d<<2)&0x3F00 | (d<<4)&0x3F0000 | (d<<6)&0x3F000000. (The
// quantizers pack FP6 in their own registers.)
DATA fp6M0<>+0(SB)/4, $0x0000003f
GLOBL fp6M0<>(SB), RODATA|NOPTR, $4
DATA fp6U1<>+0(SB)/4, $0x00003f00
GLOBL fp6U1<>(SB), RODATA|NOPTR, $4
DATA fp6U2<>+0(SB)/4, $0x003f0000
GLOBL fp6U2<>(SB), RODATA|NOPTR, $4
DATA fp6U3<>+0(SB)/4, $0x3f000000
GLOBL fp6U3<>(SB), RODATA|NOPTR, $4
// VPERMD indexes for unpacking: input bytes 0–11 to lane 0, 12–23 to
// lane 1.
DATA fp6Split<>+0(SB)/8, $0x0000000100000000
DATA fp6Split<>+8(SB)/8, $0x0000000000000002
DATA fp6Split<>+16(SB)/8, $0x0000000400000003
DATA fp6Split<>+24(SB)/8, $0x0000000000000005
GLOBL fp6Split<>(SB), RODATA|NOPTR, $32
// VPSHUFB control (both lanes): 3 bytes into each dword, the top byte 0.
DATA fp6Spread<>+0(SB)/8, $0x8005040380020100
DATA fp6Spread<>+8(SB)/8, $0x800b0a0980080706
DATA fp6Spread<>+16(SB)/8, $0x8005040380020100
DATA fp6Spread<>+24(SB)/8, $0x800b0a0980080706
GLOBL fp6Spread<>(SB), RODATA|NOPTR, $32

// func unpackFP6AVX2(codes, src *byte, n int)
//
// 3n/4 bytes to n codes (n a positive multiple of 32), 24 bytes a loop,
// read as 16 and 8 so that nothing past the input is touched.
TEXT ·unpackFP6AVX2(SB), NOSPLIT, $0-24
	MOVQ codes+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	VPBROADCASTD fp6M0<>(SB), Y15
	VPBROADCASTD fp6U1<>(SB), Y14
	VPBROADCASTD fp6U2<>(SB), Y13
	VPBROADCASTD fp6U3<>(SB), Y12
	VMOVDQU      fp6Spread<>(SB), Y11
	VMOVDQU      fp6Split<>(SB), Y10
	SHRQ         $5, CX
	JEQ          up6done

up6loop:
	VMOVDQU     (SI), X0
	VMOVQ       16(SI), X1
	VINSERTI128 $1, X1, Y0, Y0
	VPERMD      Y0, Y10, Y0
	VPSHUFB     Y11, Y0, Y0
	VPAND       Y15, Y0, Y1
	VPSLLD      $2, Y0, Y2
	VPAND       Y14, Y2, Y2
	VPOR        Y2, Y1, Y1
	VPSLLD      $4, Y0, Y2
	VPAND       Y13, Y2, Y2
	VPOR        Y2, Y1, Y1
	VPSLLD      $6, Y0, Y2
	VPAND       Y12, Y2, Y2
	VPOR        Y2, Y1, Y1
	VMOVDQU     Y1, (DI)
	ADDQ        $24, SI
	ADDQ        $32, DI
	DECQ        CX
	JNZ         up6loop

up6done:
	VZEROUPPER
	RET
