#include "textflag.h"
#include "go_asm.h"

// AVX2 kernels for the slice conversions; see slice_amd64.go. Go operand
// order: sources first, destination last. Every kernel takes a count that
// is a positive multiple of 32 (the wrappers check) and loops over groups
// of 32 elements.

DATA sliceAbs<>+0(SB)/4, $0x7fffffff
GLOBL sliceAbs<>(SB), RODATA|NOPTR, $4
DATA sliceOnes<>+0(SB)/4, $0x00000001
GLOBL sliceOnes<>(SB), RODATA|NOPTR, $4
DATA sliceInf<>+0(SB)/4, $0x7f800000
GLOBL sliceInf<>(SB), RODATA|NOPTR, $4
DATA sliceLow16<>+0(SB)/4, $0x0000ffff
GLOBL sliceLow16<>(SB), RODATA|NOPTR, $4
DATA sliceLow8<>+0(SB)/4, $0x000000ff
GLOBL sliceLow8<>(SB), RODATA|NOPTR, $4

// Dword order after VPACKUSDW and VPACKUSWB of four vectors, undone.
DATA slicePackPerm<>+0(SB)/8, $0x0000000400000000
DATA slicePackPerm<>+8(SB)/8, $0x0000000500000001
DATA slicePackPerm<>+16(SB)/8, $0x0000000600000002
DATA slicePackPerm<>+24(SB)/8, $0x0000000700000003
GLOBL slicePackPerm<>(SB), RODATA|NOPTR, $32

// GATHER32 looks up 8 codes (bytes at off(SI)) in the dword table at R8
// and leaves the values in dst; Y15 is scratch for the mask, which the
// gather clears.
#define GATHER32(off, idx, dst) \
	VPMOVZXBD  off(SI), idx; \
	VPCMPEQD   Y15, Y15, Y15; \
	VPGATHERDD Y15, (R8)(idx*4), dst

// func decodeGather32AVX2(dst *float32, src *byte, n int, table *[256]float32)
TEXT ·decodeGather32AVX2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ table+24(FP), R8
	SHRQ $5, CX
	JEQ  d32done

d32loop:
	GATHER32(0, Y0, Y1)
	GATHER32(8, Y2, Y3)
	GATHER32(16, Y4, Y5)
	GATHER32(24, Y6, Y7)
	VMOVDQU Y1, 0(DI)
	VMOVDQU Y3, 32(DI)
	VMOVDQU Y5, 64(DI)
	VMOVDQU Y7, 96(DI)
	ADDQ    $32, SI
	ADDQ    $128, DI
	DECQ    CX
	JNZ     d32loop

d32done:
	VZEROUPPER
	RET

// GATHER16 looks up 8 codes in the word table at R8 (reading 32 bits at
// each entry; the table is padded) and leaves the words in the low halves
// of the dwords of dst.
#define GATHER16(off, idx, dst) \
	VPMOVZXBD  off(SI), idx; \
	VPCMPEQD   Y15, Y15, Y15; \
	VPGATHERDD Y15, (R8)(idx*2), dst; \
	VPAND      Y14, dst, dst

// func decodeGather16AVX2(dst *uint16, src *byte, n int, table *[258]uint16)
TEXT ·decodeGather16AVX2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ table+24(FP), R8
	VPBROADCASTD sliceLow16<>(SB), Y14
	SHRQ $5, CX
	JEQ  d16done

d16loop:
	GATHER16(0, Y0, Y1)
	GATHER16(8, Y2, Y3)
	GATHER16(16, Y4, Y5)
	GATHER16(24, Y6, Y7)
	// Words of 8+8 elements per vector; VPERMQ restores element order
	// from VPACKUSDW's per-lane interleave.
	VPACKUSDW Y3, Y1, Y1
	VPACKUSDW Y7, Y5, Y5
	VPERMQ    $0xd8, Y1, Y1
	VPERMQ    $0xd8, Y5, Y5
	VMOVDQU   Y1, 0(DI)
	VMOVDQU   Y5, 32(DI)
	ADDQ      $32, SI
	ADDQ      $64, DI
	DECQ      CX
	JNZ       d16loop

d16done:
	VZEROUPPER
	RET

// PACK32 stores the byte codes in the dwords of Y0–Y3 (element order) as
// 32 bytes at (DI).
#define PACK32 \
	VPACKUSDW Y1, Y0, Y0; \
	VPACKUSDW Y3, Y2, Y2; \
	VPACKUSWB Y2, Y0, Y0; \
	VPERMD    Y0, Y13, Y0; \
	VMOVDQU   Y0, (DI)

// PACKW32 stores the 16-bit values in the dwords of Y0–Y3 (element
// order) as 32 words at (DI).
#define PACKW32 \
	VPACKUSDW Y1, Y0, Y0; \
	VPACKUSDW Y3, Y2, Y2; \
	VPERMQ    $0xd8, Y0, Y0; \
	VPERMQ    $0xd8, Y2, Y2; \
	VMOVDQU   Y0, 0(DI); \
	VMOVDQU   Y2, 32(DI)

// TKEY computes the encodeTable key of the 8 float32 bit patterns in Y4 and gathers their codes into the low bytes of dst: key = (u >>
// shift) << 1 | sticky, sticky = ((u & low) + low) >> shift. X12 holds the
// shift, Y11 the low mask, Y10 0xFF, R8 the table.
#define TKEY(dst) \
	VPAND      Y11, Y4, Y5; \
	VPADDD     Y11, Y5, Y5; \
	VPSRLD     X12, Y5, Y5; \
	VPSRLD     X12, Y4, Y4; \
	VPSLLD     $1, Y4, Y4; \
	VPOR       Y5, Y4, Y4; \
	VPCMPEQD   Y15, Y15, Y15; \
	VPGATHERDD Y15, (R8)(Y4*1), dst; \
	VPAND      Y10, dst, dst

// func encodeTableAVX2(dst *byte, src *uint32, n int, codes *byte, shift uint64, low uint32)
TEXT ·encodeTableAVX2(SB), NOSPLIT, $0-44
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ codes+24(FP), R8
	VMOVQ shift+32(FP), X12
	MOVL low+40(FP), AX
	VMOVD AX, X11
	VPBROADCASTD X11, Y11
	VPBROADCASTD sliceLow8<>(SB), Y10
	VMOVDQU slicePackPerm<>(SB), Y13
	SHRQ $5, CX
	JEQ  etdone

etloop:
	VMOVDQU 0(SI), Y4
	TKEY(Y0)
	VMOVDQU 32(SI), Y4
	TKEY(Y1)
	VMOVDQU 64(SI), Y4
	TKEY(Y2)
	VMOVDQU 96(SI), Y4
	TKEY(Y3)
	PACK32
	ADDQ $128, SI
	ADDQ $32, DI
	DECQ CX
	JNZ  etloop

etdone:
	VZEROUPPER
	RET

// RNE8 rounds the 8 float32 bit patterns in Y4 to codes of a float
// format, to nearest even, in the dwords of code: rneMag's integer rounding
// for normal results and the FPU's for subnormal ones, the saturating
// minimum with the limit, the sign, and NaN inputs replaced by the format's
// NaN code. R8 points to the rteConsts; X12 holds the rounding shift, X11
// the sign shift, Y14 the magnitude mask, Y10 ones, Y9 the Inf bits;
// Y4–Y8 are scratch.
#define RNE8(code) \
	VPAND     Y14, Y4, Y5; \
	VPSRLD    X12, Y5, Y6; \
	VPAND     Y10, Y6, Y6; \
	VPADDD    Y5, Y6, Y6; \
	VPADDD    rteConsts_half(R8), Y6, Y6; \
	VPSRLD    X12, Y6, Y6; \
	VPSUBD    rteConsts_rebias(R8), Y6, Y6; \
	VADDPS    rteConsts_magic(R8), Y5, Y7; \
	VPSUBD    rteConsts_magic(R8), Y7, Y7; \
	VPCMPGTD  rteConsts_minNormalM1(R8), Y5, Y8; \
	VPBLENDVB Y8, Y6, Y7, code; \
	VPMINUD   rteConsts_limit(R8), code, code; \
	VPSRLD    X11, Y4, Y4; \
	VPAND     rteConsts_signBit(R8), Y4, Y4; \
	VPOR      Y4, code, code; \
	VPCMPGTD  Y9, Y5, Y8; \
	VPAND     rteConsts_nanSign(R8), Y4, Y4; \
	VPOR      rteConsts_nanCode(R8), Y4, Y4; \
	VPBLENDVB Y8, Y4, code, code

// func encodeRTEAVX2(dst *byte, src *uint32, n int, c *rteConsts)
TEXT ·encodeRTEAVX2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ c+24(FP), R8
	VMOVQ rteConsts_shift(R8), X12
	VMOVQ rteConsts_signShift(R8), X11
	VPBROADCASTD sliceAbs<>(SB), Y14
	VPBROADCASTD sliceOnes<>(SB), Y10
	VPBROADCASTD sliceInf<>(SB), Y9
	VMOVDQU slicePackPerm<>(SB), Y13
	SHRQ $5, CX
	JEQ  erdone

erloop:
	VMOVDQU 0(SI), Y4
	RNE8(Y0)
	VMOVDQU 32(SI), Y4
	RNE8(Y1)
	VMOVDQU 64(SI), Y4
	RNE8(Y2)
	VMOVDQU 96(SI), Y4
	RNE8(Y3)
	PACK32
	ADDQ $128, SI
	ADDQ $32, DI
	DECQ CX
	JNZ  erloop

erdone:
	VZEROUPPER
	RET

// 16-bit inputs: WIDEN widens 8 bfloat16 (R9 = 0) or binary16 (R9 = 1,
// or 2 to use F16C's VCVTPH2PS) patterns at off(SI) to float32 bits in
// Y4, exactly. A bfloat16 is the top half of a float32. A binary16
// magnitude shifted left by 13 has the right mantissa and the exponent 112
// too small, so multiplying by 2^112 gives the value, subnormals included
// (the shifted pattern is then a float32 subnormal, the product normal);
// Inf and NaN get the all-ones exponent instead, keeping the payload, as
// halfBits does. VCVTPH2PS is exact too but sets a signalling NaN's quiet
// bit, which no encoder or quantizer can observe (a NaN's payload decides
// nothing). Y5–Y8 scratch; Y3 must not be live (the callers widen before
// computing element 3).
#define WIDEN(off) \
	CMPQ      R9, $2; \
	JNE       3(PC); \
	VCVTPH2PS off(SI), Y4; \
	JMP       15(PC); \
	VPMOVZXWD off(SI), Y4; \
	TESTQ     R9, R9; \
	JNZ       3(PC); \
	VPSLLD    $16, Y4, Y4; \
	JMP       10(PC); \
	VPAND     halfAbs<>(SB), Y4, Y5; \
	VPSLLD    $13, Y5, Y5; \
	VMULPS    halfScale<>(SB), Y5, Y6; \
	VPCMPGTD  halfInfM1<>(SB), Y5, Y7; \
	VPOR      sliceInf8<>(SB), Y5, Y8; \
	VPBLENDVB Y7, Y8, Y6, Y6; \
	VPSRLD    $15, Y4, Y4; \
	VPSLLD    $31, Y4, Y4; \
	VPOR      Y6, Y4, Y4

DATA halfAbs<>+0(SB)/8, $0x00007fff00007fff
DATA halfAbs<>+8(SB)/8, $0x00007fff00007fff
DATA halfAbs<>+16(SB)/8, $0x00007fff00007fff
DATA halfAbs<>+24(SB)/8, $0x00007fff00007fff
GLOBL halfAbs<>(SB), RODATA|NOPTR, $32
DATA halfScale<>+0(SB)/8, $0x7780000077800000
DATA halfScale<>+8(SB)/8, $0x7780000077800000
DATA halfScale<>+16(SB)/8, $0x7780000077800000
DATA halfScale<>+24(SB)/8, $0x7780000077800000
GLOBL halfScale<>(SB), RODATA|NOPTR, $32
DATA halfInfM1<>+0(SB)/8, $0x0f7fffff0f7fffff
DATA halfInfM1<>+8(SB)/8, $0x0f7fffff0f7fffff
DATA halfInfM1<>+16(SB)/8, $0x0f7fffff0f7fffff
DATA halfInfM1<>+24(SB)/8, $0x0f7fffff0f7fffff
GLOBL halfInfM1<>(SB), RODATA|NOPTR, $32
DATA sliceInf8<>+0(SB)/8, $0x7f8000007f800000
DATA sliceInf8<>+8(SB)/8, $0x7f8000007f800000
DATA sliceInf8<>+16(SB)/8, $0x7f8000007f800000
DATA sliceInf8<>+24(SB)/8, $0x7f8000007f800000
GLOBL sliceInf8<>(SB), RODATA|NOPTR, $32

// func encodeTable16AVX2(dst *byte, src *uint16, n int, codes *byte, shift uint64, low uint32, half uint8)
TEXT ·encodeTable16AVX2(SB), NOSPLIT, $0-45
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ codes+24(FP), R8
	VMOVQ shift+32(FP), X12
	MOVL low+40(FP), AX
	VMOVD AX, X11
	VPBROADCASTD X11, Y11
	MOVBQZX half+44(FP), R9
	VPBROADCASTD sliceLow8<>(SB), Y10
	VMOVDQU slicePackPerm<>(SB), Y13
	SHRQ $5, CX
	JEQ  et16done

et16loop:
	WIDEN(0)
	TKEY(Y0)
	WIDEN(16)
	TKEY(Y1)
	WIDEN(32)
	TKEY(Y2)
	WIDEN(48)
	TKEY(Y3)
	PACK32
	ADDQ $64, SI
	ADDQ $32, DI
	DECQ CX
	JNZ  et16loop

et16done:
	VZEROUPPER
	RET

// func encodeRTE16AVX2(dst *byte, src *uint16, n int, c *rteConsts, half uint8)
TEXT ·encodeRTE16AVX2(SB), NOSPLIT, $0-33
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ c+24(FP), R8
	MOVBQZX half+32(FP), R9
	VMOVQ rteConsts_shift(R8), X12
	VMOVQ rteConsts_signShift(R8), X11
	VPBROADCASTD sliceAbs<>(SB), Y14
	VPBROADCASTD sliceOnes<>(SB), Y10
	VPBROADCASTD sliceInf<>(SB), Y9
	VMOVDQU slicePackPerm<>(SB), Y13
	SHRQ $5, CX
	JEQ  er16done

er16loop:
	WIDEN(0)
	RNE8(Y0)
	WIDEN(16)
	RNE8(Y1)
	WIDEN(32)
	RNE8(Y2)
	WIDEN(48)
	RNE8(Y3)
	PACK32
	ADDQ $64, SI
	ADDQ $32, DI
	DECQ CX
	JNZ  er16loop

er16done:
	VZEROUPPER
	RET

DATA sliceF64<>+0(SB)/4, $0x42800000 // 64.0
GLOBL sliceF64<>(SB), RODATA|NOPTR, $4
DATA sliceF127<>+0(SB)/4, $0x42fe0000 // 127.0
GLOBL sliceF127<>(SB), RODATA|NOPTR, $4
DATA sliceFm128<>+0(SB)/4, $0xc3000000 // -128.0
GLOBL sliceFm128<>(SB), RODATA|NOPTR, $4

// INT8LANE encodes the 8 float32 values in Y4 to MXINT8 in the dwords of
// code, as mxint8RTE and mxint8Slice do: x·64 (exact, or ±Inf), clamped
// to [−128, 127], rounded to an integer with VROUNDPS in mode imm (0 to
// nearest even, 1 down, 2 up, 3 toward zero), converted; NaN lanes give
// 0. Y10 = 64, Y9 = 127, Y8 = −128; Y5 scratch.
#define INT8LANE(imm, code) \
	VCMPPS     $3, Y4, Y4, Y5; \
	VMULPS     Y10, Y4, code; \
	VMAXPS     Y8, code, code; \
	VMINPS     Y9, code, code; \
	VROUNDPS   $imm, code, code; \
	VCVTTPS2DQ code, code; \
	VPANDN     code, Y5, code

// PACKS32 stores the signed dwords of Y0–Y3 as 32 bytes at (DI).
#define PACKS32 \
	VPACKSSDW Y1, Y0, Y0; \
	VPACKSSDW Y3, Y2, Y2; \
	VPACKSSWB Y2, Y0, Y0; \
	VPERMD    Y0, Y13, Y0; \
	VMOVDQU   Y0, (DI)

// func encodeINT8RTEAVX2(dst *byte, src *uint32, n int)
TEXT ·encodeINT8RTEAVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	VPBROADCASTD sliceF64<>(SB), Y10
	VPBROADCASTD sliceF127<>(SB), Y9
	VPBROADCASTD sliceFm128<>(SB), Y8
	VMOVDQU slicePackPerm<>(SB), Y13
	SHRQ $5, CX
	JEQ  i8RTEdone

i8RTEloop:
	VMOVDQU 0(SI), Y4
	INT8LANE(0, Y0)
	VMOVDQU 32(SI), Y4
	INT8LANE(0, Y1)
	VMOVDQU 64(SI), Y4
	INT8LANE(0, Y2)
	VMOVDQU 96(SI), Y4
	INT8LANE(0, Y3)
	PACKS32
	ADDQ $128, SI
	ADDQ $32, DI
	DECQ CX
	JNZ  i8RTEloop

i8RTEdone:
	VZEROUPPER
	RET

// func encodeINT8RTNAVX2(dst *byte, src *uint32, n int)
TEXT ·encodeINT8RTNAVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	VPBROADCASTD sliceF64<>(SB), Y10
	VPBROADCASTD sliceF127<>(SB), Y9
	VPBROADCASTD sliceFm128<>(SB), Y8
	VMOVDQU slicePackPerm<>(SB), Y13
	SHRQ $5, CX
	JEQ  i8RTNdone

i8RTNloop:
	VMOVDQU 0(SI), Y4
	INT8LANE(1, Y0)
	VMOVDQU 32(SI), Y4
	INT8LANE(1, Y1)
	VMOVDQU 64(SI), Y4
	INT8LANE(1, Y2)
	VMOVDQU 96(SI), Y4
	INT8LANE(1, Y3)
	PACKS32
	ADDQ $128, SI
	ADDQ $32, DI
	DECQ CX
	JNZ  i8RTNloop

i8RTNdone:
	VZEROUPPER
	RET

// func encodeINT8RTPAVX2(dst *byte, src *uint32, n int)
TEXT ·encodeINT8RTPAVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	VPBROADCASTD sliceF64<>(SB), Y10
	VPBROADCASTD sliceF127<>(SB), Y9
	VPBROADCASTD sliceFm128<>(SB), Y8
	VMOVDQU slicePackPerm<>(SB), Y13
	SHRQ $5, CX
	JEQ  i8RTPdone

i8RTPloop:
	VMOVDQU 0(SI), Y4
	INT8LANE(2, Y0)
	VMOVDQU 32(SI), Y4
	INT8LANE(2, Y1)
	VMOVDQU 64(SI), Y4
	INT8LANE(2, Y2)
	VMOVDQU 96(SI), Y4
	INT8LANE(2, Y3)
	PACKS32
	ADDQ $128, SI
	ADDQ $32, DI
	DECQ CX
	JNZ  i8RTPloop

i8RTPdone:
	VZEROUPPER
	RET

// func encodeINT8RTZAVX2(dst *byte, src *uint32, n int)
TEXT ·encodeINT8RTZAVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	VPBROADCASTD sliceF64<>(SB), Y10
	VPBROADCASTD sliceF127<>(SB), Y9
	VPBROADCASTD sliceFm128<>(SB), Y8
	VMOVDQU slicePackPerm<>(SB), Y13
	SHRQ $5, CX
	JEQ  i8RTZdone

i8RTZloop:
	VMOVDQU 0(SI), Y4
	INT8LANE(3, Y0)
	VMOVDQU 32(SI), Y4
	INT8LANE(3, Y1)
	VMOVDQU 64(SI), Y4
	INT8LANE(3, Y2)
	VMOVDQU 96(SI), Y4
	INT8LANE(3, Y3)
	PACKS32
	ADDQ $128, SI
	ADDQ $32, DI
	DECQ CX
	JNZ  i8RTZloop

i8RTZdone:
	VZEROUPPER
	RET

DATA sliceNaN<>+0(SB)/4, $0x7fc00000
GLOBL sliceNaN<>(SB), RODATA|NOPTR, $4

// FDEC8 decodes the 8 codes at off(SI) of a float format (constants at
// R8) to float32 in code. The magnitude shifted to the float32 mantissa
// position, plus the bias difference in the exponent field, is the value
// of a normal code; a subnormal code (magnitude not above minNormalM1)
// gets exponent field 1 instead and 2^(1−bias) subtracted, exactly (no
// float32 subnormal goes through the FPU, which would cost a microcode
// assist). Then the sign, ±Inf for the Inf magnitude and the canonical NaN
// (what the decode table holds) for NaN magnitudes. X12 is the mantissa
// shift, X11 the sign shift, Y10 the Inf bits, Y9 the NaN; Y4–Y8 scratch.
#define FDEC8(off, code) \
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

// FDECSETUP loads the arguments (dst, src, n, c) and FDEC8's constants of
// the float decoders; CX becomes the group count.
#define FDECSETUP \
	MOVQ         dst+0(FP), DI; \
	MOVQ         src+8(FP), SI; \
	MOVQ         n+16(FP), CX; \
	MOVQ         c+24(FP), R8; \
	VMOVQ        decConsts_shift(R8), X12; \
	VMOVQ        decConsts_signShift(R8), X11; \
	VPBROADCASTD sliceInf<>(SB), Y10; \
	VPBROADCASTD sliceNaN<>(SB), Y9; \
	SHRQ         $5, CX

// func decodeFloatAVX2(dst *float32, src *byte, n int, c *decConsts)
TEXT ·decodeFloatAVX2(SB), NOSPLIT, $0-32
	FDECSETUP
	JEQ  fddone

fdloop:
	FDEC8(0, Y0)
	FDEC8(8, Y1)
	FDEC8(16, Y2)
	FDEC8(24, Y3)
	VMOVDQU Y0, 0(DI)
	VMOVDQU Y1, 32(DI)
	VMOVDQU Y2, 64(DI)
	VMOVDQU Y3, 96(DI)
	ADDQ    $32, SI
	ADDQ    $128, DI
	DECQ    CX
	JNZ     fdloop

fddone:
	VZEROUPPER
	RET

// func narrowRTE16AVX2(dst *uint16, src *uint32, n int, c *rteConsts)
//
// float32 to bfloat16 or binary16, to nearest even, with IEEE overflow to
// ±Inf and NaN to the quiet NaN with the input's sign: RNE8 with the 16-bit
// format's constants, packed to words.
TEXT ·narrowRTE16AVX2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ c+24(FP), R8
	VMOVQ rteConsts_shift(R8), X12
	VMOVQ rteConsts_signShift(R8), X11
	VPBROADCASTD sliceAbs<>(SB), Y14
	VPBROADCASTD sliceOnes<>(SB), Y10
	VPBROADCASTD sliceInf<>(SB), Y9
	SHRQ $5, CX
	JEQ  nrdone

nrloop:
	VMOVDQU 0(SI), Y4
	RNE8(Y0)
	VMOVDQU 32(SI), Y4
	RNE8(Y1)
	VMOVDQU 64(SI), Y4
	RNE8(Y2)
	VMOVDQU 96(SI), Y4
	RNE8(Y3)
	PACKW32
	ADDQ $128, SI
	ADDQ $64, DI
	DECQ CX
	JNZ  nrloop

nrdone:
	VZEROUPPER
	RET

// func widen16AVX2(dst *uint32, src *uint16, n int, half uint8)
//
// bfloat16 or binary16 bits to float32 bits, exactly (WIDEN), for the
// 16-bit block quantizers.
TEXT ·widen16AVX2(SB), NOSPLIT, $0-25
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVBQZX half+24(FP), R9
	SHRQ $5, CX
	JEQ  wddone

wdloop:
	WIDEN(0)
	VMOVDQU Y4, 0(DI)
	WIDEN(16)
	VMOVDQU Y4, 32(DI)
	WIDEN(32)
	VMOVDQU Y4, 64(DI)
	WIDEN(48)
	VMOVDQU Y4, 96(DI)
	ADDQ $64, SI
	ADDQ $128, DI
	DECQ CX
	JNZ  wdloop

wddone:
	VZEROUPPER
	RET

// E8M0 constants, as 32-byte vectors the kernels read as memory operands.
DATA e8Man<>+0(SB)/8, $0x007fffff007fffff
DATA e8Man<>+8(SB)/8, $0x007fffff007fffff
DATA e8Man<>+16(SB)/8, $0x007fffff007fffff
DATA e8Man<>+24(SB)/8, $0x007fffff007fffff
GLOBL e8Man<>(SB), RODATA|NOPTR, $32
DATA e8Abs<>+0(SB)/8, $0x7fffffff7fffffff
DATA e8Abs<>+8(SB)/8, $0x7fffffff7fffffff
DATA e8Abs<>+16(SB)/8, $0x7fffffff7fffffff
DATA e8Abs<>+24(SB)/8, $0x7fffffff7fffffff
GLOBL e8Abs<>(SB), RODATA|NOPTR, $32
DATA e8MaxFinite<>+0(SB)/8, $0x7f7fffff7f7fffff
DATA e8MaxFinite<>+8(SB)/8, $0x7f7fffff7f7fffff
DATA e8MaxFinite<>+16(SB)/8, $0x7f7fffff7f7fffff
DATA e8MaxFinite<>+24(SB)/8, $0x7f7fffff7f7fffff
GLOBL e8MaxFinite<>(SB), RODATA|NOPTR, $32
DATA e8MaxNormM1<>+0(SB)/8, $0x7f7ffffe7f7ffffe
DATA e8MaxNormM1<>+8(SB)/8, $0x7f7ffffe7f7ffffe
DATA e8MaxNormM1<>+16(SB)/8, $0x7f7ffffe7f7ffffe
DATA e8MaxNormM1<>+24(SB)/8, $0x7f7ffffe7f7ffffe
GLOBL e8MaxNormM1<>(SB), RODATA|NOPTR, $32
DATA e8Half<>+0(SB)/8, $0x0040000000400000
DATA e8Half<>+8(SB)/8, $0x0040000000400000
DATA e8Half<>+16(SB)/8, $0x0040000000400000
DATA e8Half<>+24(SB)/8, $0x0040000000400000
GLOBL e8Half<>(SB), RODATA|NOPTR, $32
DATA e8Quarter<>+0(SB)/8, $0x0020000000200000
DATA e8Quarter<>+8(SB)/8, $0x0020000000200000
DATA e8Quarter<>+16(SB)/8, $0x0020000000200000
DATA e8Quarter<>+24(SB)/8, $0x0020000000200000
GLOBL e8Quarter<>(SB), RODATA|NOPTR, $32
DATA e8One<>+0(SB)/8, $0x0000000100000001
DATA e8One<>+8(SB)/8, $0x0000000100000001
DATA e8One<>+16(SB)/8, $0x0000000100000001
DATA e8One<>+24(SB)/8, $0x0000000100000001
GLOBL e8One<>(SB), RODATA|NOPTR, $32

// E8M0 encoders (e8m0RTE and e8m0Directed, 8 lanes at a time). The bits
// u are in Y4 and the code is left in code (one of Y0–Y3, which PACK32
// stores). Registers: Y15 0x7FFFFF, Y13 the pack permutation, Y9 the
// largest code (0xFF, or 0xFE when saturating), Y8 all ones when
// saturating, Y7 0xFF; Y10–Y12 scratch.

// E8M0SPECIAL puts in code the code in c, or where u is +0, negative,
// ±Inf or NaN ((u−1) above 0x7F7FFFFE unsigned) the special one: 0xFF,
// or 0 for a finite value (|u| not above 0x7F7FFFFF) when saturating.
#define E8M0SPECIAL(c, code) \
	VPSUBD    e8One<>(SB), Y4, Y10; \
	VPMINUD   e8MaxNormM1<>(SB), Y10, Y11; \
	VPCMPEQD  Y10, Y11, Y11; \
	VPAND     e8Abs<>(SB), Y4, Y10; \
	VPCMPGTD  e8MaxFinite<>(SB), Y10, Y10; \
	VPANDN    Y8, Y10, Y10; \
	VPANDN    Y7, Y10, Y10; \
	VPBLENDVB Y11, c, Y10, code

// E8M0RTE: c = min((u + r) >> 23, largest), r = 0x200000 for a float32
// subnormal (u ≤ 0x7FFFFF), else 0x400000.
#define E8M0RTE(code) \
	VPMINUD   Y15, Y4, Y10; \
	VPCMPEQD  Y4, Y10, Y10; \
	VMOVDQU   e8Half<>(SB), Y11; \
	VPBLENDVB Y10, e8Quarter<>(SB), Y11, Y12; \
	VPADDD    Y4, Y12, Y12; \
	VPSRLD    $23, Y12, Y12; \
	VPMINUD   Y9, Y12, Y12; \
	E8M0SPECIAL(Y12, code)

// E8M0RTZ: c = min(u >> 23, largest); RTN is the same on the positive
// values that reach it.
#define E8M0RTZ(code) \
	VPSRLD    $23, Y4, Y12; \
	VPMINUD   Y9, Y12, Y12; \
	E8M0SPECIAL(Y12, code)

// E8M0RTP: c = u >> 23, plus one when the mantissa is above t (t =
// 0x400000 for a subnormal, as code 0 stands for 2^-127; else 0), then
// min(c, largest).
#define E8M0RTP(code) \
	VPSRLD    $23, Y4, Y12; \
	VPXOR     Y10, Y10, Y10; \
	VPCMPEQD  Y10, Y12, Y10; \
	VPAND     e8Half<>(SB), Y10, Y10; \
	VPAND     Y15, Y4, Y11; \
	VPCMPGTD  Y10, Y11, Y11; \
	VPSUBD    Y11, Y12, Y12; \
	VPMINUD   Y9, Y12, Y12; \
	E8M0SPECIAL(Y12, code)

// E8M0SETUP loads the arguments and constants; CX becomes the group
// count. largest = 0xFF + satMask (0xFE when saturating).
#define E8M0SETUP \
	MOVQ         dst+0(FP), DI; \
	MOVQ         src+8(FP), SI; \
	MOVQ         n+16(FP), CX; \
	VMOVDQU      e8Man<>(SB), Y15; \
	VMOVDQU      slicePackPerm<>(SB), Y13; \
	VPBROADCASTD sliceLow8<>(SB), Y7; \
	MOVBLZX      sat+24(FP), AX; \
	NEGL         AX; \
	MOVL         AX, X8; \
	VPBROADCASTD X8, Y8; \
	VPADDD       Y8, Y7, Y9; \
	SHRQ         $5, CX

// E8M0LOOP runs lane(code) over the groups of 32.
#define E8M0LOOP(lane, label, done) \
	JEQ done; \
label: \
	VMOVDQU 0(SI), Y4; \
	lane(Y0); \
	VMOVDQU 32(SI), Y4; \
	lane(Y1); \
	VMOVDQU 64(SI), Y4; \
	lane(Y2); \
	VMOVDQU 96(SI), Y4; \
	lane(Y3); \
	PACK32; \
	ADDQ $128, SI; \
	ADDQ $32, DI; \
	DECQ CX; \
	JNZ  label; \
done: \
	VZEROUPPER; \
	RET

// func encodeE8M0RTEAVX2(dst *byte, src *uint32, n int, sat bool)
TEXT ·encodeE8M0RTEAVX2(SB), NOSPLIT, $0-25
	E8M0SETUP
	E8M0LOOP(E8M0RTE, e8rteLoop, e8rteDone)

// func encodeE8M0RTZAVX2(dst *byte, src *uint32, n int, sat bool)
TEXT ·encodeE8M0RTZAVX2(SB), NOSPLIT, $0-25
	E8M0SETUP
	E8M0LOOP(E8M0RTZ, e8rtzLoop, e8rtzDone)

// func encodeE8M0RTPAVX2(dst *byte, src *uint32, n int, sat bool)
TEXT ·encodeE8M0RTPAVX2(SB), NOSPLIT, $0-25
	E8M0SETUP
	E8M0LOOP(E8M0RTP, e8rtpLoop, e8rtpDone)

DATA nbRound<>+0(SB)/4, $0x00007fff
GLOBL nbRound<>(SB), RODATA|NOPTR, $4
DATA nbNaN<>+0(SB)/4, $0x00007fc0
GLOBL nbNaN<>(SB), RODATA|NOPTR, $4
DATA nbSign<>+0(SB)/4, $0x00008000
GLOBL nbSign<>(SB), RODATA|NOPTR, $4
DATA nhNaN<>+0(SB)/4, $0x7fc00000
GLOBL nhNaN<>(SB), RODATA|NOPTR, $4
DATA nhSign<>+0(SB)/4, $0x80000000
GLOBL nhSign<>(SB), RODATA|NOPTR, $4

// NBF16 rounds the 8 float32 in Y4 to bfloat16 in the low words of code:
// (u + 0x7FFF + bit 16 of u) >> 16 is round to nearest even with IEEE
// overflow to ±Inf (the carry runs into the exponent); a NaN gives its
// sign and 0x7FC0. Y15 0x7FFF, Y14 abs mask, Y13 1, Y12 0x7F800000, Y11
// 0x7FC0, Y10 0x8000; Y5–Y7 scratch.
#define NBF16(code) \
	VPSRLD    $16, Y4, Y5; \
	VPAND     Y13, Y5, Y6; \
	VPADDD    Y4, Y6, Y6; \
	VPADDD    Y15, Y6, Y6; \
	VPSRLD    $16, Y6, Y6; \
	VPAND     Y10, Y5, Y5; \
	VPOR      Y11, Y5, Y5; \
	VPAND     Y14, Y4, Y7; \
	VPCMPGTD  Y12, Y7, Y7; \
	VPBLENDVB Y7, Y5, Y6, code

// func narrowBF16AVX2(dst *uint16, src *uint32, n int)
TEXT ·narrowBF16AVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	VPBROADCASTD nbRound<>(SB), Y15
	VPBROADCASTD sliceAbs<>(SB), Y14
	VPBROADCASTD sliceOnes<>(SB), Y13
	VPBROADCASTD sliceInf<>(SB), Y12
	VPBROADCASTD nbNaN<>(SB), Y11
	VPBROADCASTD nbSign<>(SB), Y10
	SHRQ $5, CX
	JEQ  nbdone

nbloop:
	VMOVDQU 0(SI), Y4
	NBF16(Y0)
	VMOVDQU 32(SI), Y4
	NBF16(Y1)
	VMOVDQU 64(SI), Y4
	NBF16(Y2)
	VMOVDQU 96(SI), Y4
	NBF16(Y3)
	PACKW32
	ADDQ $128, SI
	ADDQ $64, DI
	DECQ CX
	JNZ  nbloop

nbdone:
	VZEROUPPER
	RET

// NHALF converts the 8 float32 at off(SI) to binary16 in xmm code with
// VCVTPS2PH to nearest even (IEEE: overflow to ±Inf, subnormals rounded),
// after replacing each NaN by the canonical quiet NaN of its sign, so that
// it gives 0x7E00 with that sign as HalfFromFloat32 does. Y14 abs mask,
// Y12 0x7F800000, Y11 0x7FC00000, Y10 the sign bit; Y5–Y7 scratch.
#define NHALF(off, code) \
	VMOVDQU   off(SI), Y4; \
	VPAND     Y10, Y4, Y5; \
	VPOR      Y11, Y5, Y5; \
	VPAND     Y14, Y4, Y7; \
	VPCMPGTD  Y12, Y7, Y7; \
	VPBLENDVB Y7, Y5, Y4, Y4; \
	VCVTPS2PH $0, Y4, code

// func narrowHalfF16CAVX2(dst *uint16, src *uint32, n int)
TEXT ·narrowHalfF16CAVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	VPBROADCASTD sliceAbs<>(SB), Y14
	VPBROADCASTD sliceInf<>(SB), Y12
	VPBROADCASTD nhNaN<>(SB), Y11
	VPBROADCASTD nhSign<>(SB), Y10
	SHRQ $5, CX
	JEQ  nhdone

nhloop:
	NHALF(0, X0)
	NHALF(32, X1)
	NHALF(64, X2)
	NHALF(96, X3)
	VMOVDQU X0, 0(DI)
	VMOVDQU X1, 16(DI)
	VMOVDQU X2, 32(DI)
	VMOVDQU X3, 48(DI)
	ADDQ $128, SI
	ADDQ $64, DI
	DECQ CX
	JNZ  nhloop

nhdone:
	VZEROUPPER
	RET
