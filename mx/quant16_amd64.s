#include "textflag.h"
#include "go_asm.h"

// AVX2 block quantizers with the AVX-512 kernels' method
// (quant512_amd64.s, steps 1–4) on 8-lane vectors, for CPUs without
// AVX-512: from bfloat16 and binary16 directly, and from float32. Go operand order: sources first,
// destination last. Differences from the AVX-512 kernels:
//  - the signs are the bytes VPACKSSWB makes of the input words (signed
//    saturation keeps the sign; only +0 gives 0; float32 goes through
//    VPACKSSDW first), put in element order by VPERMQ or VPERMD; the float formats turn them into 0x00/0xFF (VPCMPGTB with
//    zero), AND them with the code's sign bit and OR them in, MXINT8 applies them with VPSIGNB (which zeroes a code whose
//    sign byte is 0: only +0, whose code is 0);
//  - the code bytes are gathered out of the dwords with VPSHUFB (within
//    lanes) and VPOR, then VPERMQ (bfloat16) or VPERMD (binary16);
//  - the vectors a format needs in memory operands live in the frame:
//    0(SP) the code offset, 32(SP) maxMag, 64(SP) the sign bit (bytes),
//    96(SP) the packing multipliers, 128(SP) 64.0, 160(SP) 127 (dwords),
//    and 2^−shared at 192(SP), broadcast from there into Y10.
// Fixed registers: Y15 0x7FFF words, Y14 2^emin, Y13 the exponent mask,
// Y12 (23 − m)<<23, X11 the shift 23 − m, Y9 0xFFFF0000, Y8 zero, R9 emax, R10
// the kind, R11 the element bytes per block.

// bfloat16: the code bytes of the even and odd elements of the first
// and second 16 to bytes 0, 2, 4, 6 / 1, 3, 5, 7 / 8, ... / 9, ... of
// each lane.
DATA q16EvenLo<>+0(SB)/8, $0x800c800880048000
DATA q16EvenLo<>+8(SB)/8, $0x8080808080808080
DATA q16EvenLo<>+16(SB)/8, $0x800c800880048000
DATA q16EvenLo<>+24(SB)/8, $0x8080808080808080
GLOBL q16EvenLo<>(SB), RODATA|NOPTR, $32
DATA q16OddLo<>+0(SB)/8, $0x0c80088004800080
DATA q16OddLo<>+8(SB)/8, $0x8080808080808080
DATA q16OddLo<>+16(SB)/8, $0x0c80088004800080
DATA q16OddLo<>+24(SB)/8, $0x8080808080808080
GLOBL q16OddLo<>(SB), RODATA|NOPTR, $32
DATA q16EvenHi<>+0(SB)/8, $0x8080808080808080
DATA q16EvenHi<>+8(SB)/8, $0x800c800880048000
DATA q16EvenHi<>+16(SB)/8, $0x8080808080808080
DATA q16EvenHi<>+24(SB)/8, $0x800c800880048000
GLOBL q16EvenHi<>(SB), RODATA|NOPTR, $32
DATA q16OddHi<>+0(SB)/8, $0x8080808080808080
DATA q16OddHi<>+8(SB)/8, $0x0c80088004800080
DATA q16OddHi<>+16(SB)/8, $0x8080808080808080
DATA q16OddHi<>+24(SB)/8, $0x0c80088004800080
GLOBL q16OddHi<>(SB), RODATA|NOPTR, $32
// binary16: the code bytes of elements 8k..8k+7 to bytes 4k..4k+3 of
// each lane.
DATA q16Part0<>+0(SB)/8, $0x808080800c080400
DATA q16Part0<>+8(SB)/8, $0x8080808080808080
DATA q16Part0<>+16(SB)/8, $0x808080800c080400
DATA q16Part0<>+24(SB)/8, $0x8080808080808080
GLOBL q16Part0<>(SB), RODATA|NOPTR, $32
DATA q16Part1<>+0(SB)/8, $0x0c08040080808080
DATA q16Part1<>+8(SB)/8, $0x8080808080808080
DATA q16Part1<>+16(SB)/8, $0x0c08040080808080
DATA q16Part1<>+24(SB)/8, $0x8080808080808080
GLOBL q16Part1<>(SB), RODATA|NOPTR, $32
DATA q16Part2<>+0(SB)/8, $0x8080808080808080
DATA q16Part2<>+8(SB)/8, $0x808080800c080400
DATA q16Part2<>+16(SB)/8, $0x8080808080808080
DATA q16Part2<>+24(SB)/8, $0x808080800c080400
GLOBL q16Part2<>(SB), RODATA|NOPTR, $32
DATA q16Part3<>+0(SB)/8, $0x8080808080808080
DATA q16Part3<>+8(SB)/8, $0x0c08040080808080
DATA q16Part3<>+16(SB)/8, $0x8080808080808080
DATA q16Part3<>+24(SB)/8, $0x0c08040080808080
GLOBL q16Part3<>(SB), RODATA|NOPTR, $32
// VPERMD index: lanes holding dwords 0 2 4 6 | 1 3 5 7 back in order.
DATA q16Order<>+0(SB)/8, $0x0000000400000000
DATA q16Order<>+8(SB)/8, $0x0000000500000001
DATA q16Order<>+16(SB)/8, $0x0000000600000002
DATA q16Order<>+24(SB)/8, $0x0000000700000003
GLOBL q16Order<>(SB), RODATA|NOPTR, $32

// FP6 packing, as in quant512_amd64.s.
DATA q16Shuf6<>+0(SB)/8, $0x0908060504020100
DATA q16Shuf6<>+8(SB)/8, $0x808080800e0d0c0a
DATA q16Shuf6<>+16(SB)/8, $0x0908060504020100
DATA q16Shuf6<>+24(SB)/8, $0x808080800e0d0c0a
GLOBL q16Shuf6<>(SB), RODATA|NOPTR, $32
DATA q16Perm6<>+0(SB)/8, $0x0000000100000000
DATA q16Perm6<>+8(SB)/8, $0x0000000400000002
DATA q16Perm6<>+16(SB)/8, $0x0000000600000005
DATA q16Perm6<>+24(SB)/8, $0x0000000700000007
GLOBL q16Perm6<>(SB), RODATA|NOPTR, $32

DATA q16Abs16<>+0(SB)/4, $0x7fff7fff
GLOBL q16Abs16<>(SB), RODATA|NOPTR, $4
DATA q16Abs32<>+0(SB)/4, $0x7fffffff
GLOBL q16Abs32<>(SB), RODATA|NOPTR, $4
DATA q16Hi16<>+0(SB)/4, $0xffff0000
GLOBL q16Hi16<>(SB), RODATA|NOPTR, $4
DATA q16Sixty4<>+0(SB)/4, $0x42800000
GLOBL q16Sixty4<>(SB), RODATA|NOPTR, $4
DATA q16Int8Max<>+0(SB)/4, $127
GLOBL q16Int8Max<>(SB), RODATA|NOPTR, $4
DATA q16MaddW<>+0(SB)/4, $0x10000001
GLOBL q16MaddW<>(SB), RODATA|NOPTR, $4

// Q16SETUP loads the constants (R8 points to the format's) into the fixed
// registers and the frame.
#define Q16SETUP \
	VPBROADCASTB quant512Consts_codeOff(R8), Y0; \
	VMOVDQU      Y0, 0(SP); \
	VPBROADCASTB quant512Consts_maxMag(R8), Y0; \
	VMOVDQU      Y0, 32(SP); \
	VPBROADCASTB quant512Consts_signByte(R8), Y0; \
	VMOVDQU      Y0, 64(SP); \
	VPBROADCASTD quant512Consts_packMul(R8), Y0; \
	VMOVDQU      Y0, 96(SP); \
	VPBROADCASTD q16Sixty4<>(SB), Y0; \
	VMOVDQU      Y0, 128(SP); \
	VPBROADCASTD q16Int8Max<>(SB), Y0; \
	VMOVDQU      Y0, 160(SP); \
	VPBROADCASTD q16Abs16<>(SB), Y15; \
	VPBROADCASTD quant512Consts_eminBits(R8), Y14; \
	VPBROADCASTD quant512Consts_expMask(R8), Y13; \
	VPBROADCASTD quant512Consts_off(R8), Y12; \
	VMOVQ        quant512Consts_sh(R8), X11; \
	VPBROADCASTD q16Hi16<>(SB), Y9; \
	VPXOR        Y8, Y8, Y8; \
	MOVQ         quant512Consts_emax(R8), R9; \
	MOVQ         quant512Consts_kind(R8), R10; \
	MOVQ         quant512Consts_step(R8), R11

// Q16LOAD loads a block's 32 words into Y0 and Y1, their signs as bytes in
// element order into Y2, clears the signs of Y0 and Y1, and leaves the
// largest magnitude XORed with 0x7FFF in the low word of X3 (see
// Q512MAX16).
#define Q16LOAD \
	VMOVDQU      0(SI), Y0; \
	VMOVDQU      32(SI), Y1; \
	VPACKSSWB    Y1, Y0, Y2; \
	VPERMQ       $0xd8, Y2, Y2; \
	VPAND        Y15, Y0, Y0; \
	VPAND        Y15, Y1, Y1; \
	VPMAXUW      Y1, Y0, Y3; \
	VEXTRACTI128 $1, Y3, X4; \
	VPMAXUW      X4, X3, X3; \
	VPXOR        X15, X3, X3; \
	VPHMINPOSUW  X3, X3

// Q16SCALE is Q512SCALE with 2^−shared stored at 192(SP) and broadcast
// into Y10.
#define Q16SCALE(nan) \
	CMPL         AX, $0x7f800000; \
	JAE          nan; \
	SHRL         $23, AX; \
	SUBL         R9, AX; \
	MOVL         $0, DX; \
	CMOVLLT      DX, AX; \
	MOVB         AX, (BX); \
	MOVL         $254, DX; \
	SUBL         AX, DX; \
	SHLL         $23, DX; \
	MOVL         $0x00400000, R12; \
	TESTL        DX, DX; \
	CMOVLEQ      R12, DX; \
	MOVL         DX, 192(SP); \
	VBROADCASTSS 192(SP), Y10

// Q16ENC is Q512ENC on 8 lanes: the low bytes of out are the magnitude
// codes of a plus the code offset, mod 256.
#define Q16ENC(a, tmp, out) \
	VMULPS  Y10, a, out; \
	VPMAXUD Y14, out, tmp; \
	VPAND   Y13, tmp, tmp; \
	VPADDD  Y12, tmp, tmp; \
	VADDPS  tmp, out, out; \
	VPSRLD  X11, tmp, tmp; \
	VPADDD  tmp, out, out

// Q16INT8 is Q512INT8 on 8 lanes.
#define Q16INT8(a, tmp, out) \
	VMULPS    Y10, a, out; \
	VMULPS    128(SP), out, out; \
	VCVTPS2DQ out, out; \
	VPMINSD   160(SP), out, out

// Q16PART encodes the 8 magnitudes in Y3 with enc and ORs the code bytes,
// placed by the VPSHUFB control ctl, into Y4.
#define Q16PART(enc, ctl) \
	Q16PARTOF(enc, Y3, ctl)

// Q16PARTOF is Q16PART for the magnitudes in a.
#define Q16PARTOF(enc, a, ctl) \
	enc(a, Y5, Y6); \
	VPSHUFB ctl<>(SB), Y6, Y6; \
	VPOR    Y6, Y4, Y4

// Q16BF16 encodes the 32 bfloat16 magnitudes in Y0 and Y1 with enc into
// code bytes in element order in Y4: the even elements shifted into the
// high halves of the dwords, the odd ones with the low halves cleared.
#define Q16BF16(enc) \
	VPXOR   Y4, Y4, Y4; \
	VPSLLD  $16, Y0, Y3; \
	Q16PART(enc, q16EvenLo); \
	VPAND   Y9, Y0, Y3; \
	Q16PART(enc, q16OddLo); \
	VPSLLD  $16, Y1, Y3; \
	Q16PART(enc, q16EvenHi); \
	VPAND   Y9, Y1, Y3; \
	Q16PART(enc, q16OddHi); \
	VPERMQ  $0xd8, Y4, Y4

// Q16F16 is Q16BF16 for binary16, widened by VCVTPH2PS 8 at a time.
#define Q16F16(enc) \
	VPXOR        Y4, Y4, Y4; \
	VCVTPH2PS    X0, Y3; \
	Q16PART(enc, q16Part0); \
	VEXTRACTI128 $1, Y0, X3; \
	VCVTPH2PS    X3, Y3; \
	Q16PART(enc, q16Part1); \
	VCVTPH2PS    X1, Y3; \
	Q16PART(enc, q16Part2); \
	VEXTRACTI128 $1, Y1, X3; \
	VCVTPH2PS    X3, Y3; \
	Q16PART(enc, q16Part3); \
	VMOVDQU      q16Order<>(SB), Y5; \
	VPERMD       Y4, Y5, Y4

// Q16F32 is Q16F16 for the float32 magnitudes of elements 0–7, 8–15,
// 16–23 and 24–31 in Y0, Y1, Y7 and Y9.
#define Q16F32(enc) \
	VPXOR   Y4, Y4, Y4; \
	Q16PARTOF(enc, Y0, q16Part0); \
	Q16PARTOF(enc, Y1, q16Part1); \
	Q16PARTOF(enc, Y7, q16Part2); \
	Q16PARTOF(enc, Y9, q16Part3); \
	VMOVDQU q16Order<>(SB), Y5; \
	VPERMD  Y4, Y5, Y4

// Q16STORE finishes the codes in Y4 with the signs in Y2 (step 4), packs
// and stores them at (DI), and loops; nan stores a NaN block.
#define Q16STORE(srcStep) \
fstore: \
	VPSUBB       0(SP), Y4, Y4; \
	VPMINUB      32(SP), Y4, Y4; \
	VPCMPGTB     Y2, Y8, Y2; \
	VPAND        64(SP), Y2, Y2; \
	VPOR         Y2, Y4, Y0; \
	CMPQ         R10, $1; \
	JB           store8; \
	JEQ          store6; \
	VPMADDUBSW   96(SP), Y0, Y0; \
	VPACKUSWB    Y0, Y0, Y0; \
	VPERMQ       $0x08, Y0, Y0; \
	VMOVDQU      X0, (DI); \
	JMP          next; \
store6: \
	VPMADDUBSW   96(SP), Y0, Y0; \
	VPBROADCASTD q16MaddW<>(SB), Y5; \
	VPMADDWD     Y5, Y0, Y0; \
	VPSHUFB      q16Shuf6<>(SB), Y0, Y0; \
	VMOVDQU      q16Perm6<>(SB), Y5; \
	VPERMD       Y0, Y5, Y0; \
	VMOVDQU      X0, (DI); \
	VEXTRACTI128 $1, Y0, X1; \
	VMOVQ        X1, 16(DI); \
	JMP          next; \
istore: \
	VPSIGNB      Y2, Y4, Y0; \
store8: \
	VMOVDQU      Y0, (DI); \
next: \
	ADDQ         $srcStep, SI; \
	ADDQ         R11, DI; \
	INCQ         BX; \
	DECQ         CX; \
	JNZ          loop; \
done: \
	VZEROUPPER; \
	RET; \
nan: \
	MOVB         $0xff, (BX); \
	VPXOR        X0, X0, X0; \
	VMOVDQU      X0, (DI); \
	CMPQ         R11, $16; \
	JEQ          next; \
	MOVQ         $0, 16(DI); \
	CMPQ         R11, $24; \
	JEQ          next; \
	MOVQ         $0, 24(DI); \
	JMP          next

// func quant32BF16AVX2(scales, elements *byte, src *uint16, nblocks int, c *quant512Consts)
TEXT ·quant32BF16AVX2(SB), NOSPLIT, $200-40
	MOVQ scales+0(FP), BX
	MOVQ elements+8(FP), DI
	MOVQ src+16(FP), SI
	MOVQ nblocks+24(FP), CX
	MOVQ c+32(FP), R8
	Q16SETUP
	TESTQ CX, CX
	JEQ   done

loop:
	Q16LOAD
	// amax as float32: the bfloat16 bits restored and moved up (the shift
	// drops the index word).
	VMOVD X3, AX
	XORL  $0x7fff, AX
	SHLL  $16, AX
	Q16SCALE(nan)
	CMPQ  R10, $3
	JEQ   int8
	Q16BF16(Q16ENC)
	JMP   fstore

int8:
	Q16BF16(Q16INT8)
	JMP istore
	Q16STORE(64)

// func quant32F16AVX2(scales, elements *byte, src *uint16, nblocks int, c *quant512Consts)
TEXT ·quant32F16AVX2(SB), NOSPLIT, $200-40
	MOVQ scales+0(FP), BX
	MOVQ elements+8(FP), DI
	MOVQ src+16(FP), SI
	MOVQ nblocks+24(FP), CX
	MOVQ c+32(FP), R8
	Q16SETUP
	TESTQ CX, CX
	JEQ   done

loop:
	Q16LOAD
	// amax as float32 (VCVTPH2PS: exact, and a NaN stays NaN).
	VPXOR     X15, X3, X3
	VCVTPH2PS X3, X3
	VMOVD     X3, AX
	Q16SCALE(nan)
	CMPQ      R10, $3
	JEQ       int8
	Q16F16(Q16ENC)
	JMP       fstore

int8:
	Q16F16(Q16INT8)
	JMP istore
	Q16STORE(64)

// func quant32F32AVX2(scales, elements *byte, src *float32, nblocks int, c *quant512Consts)
TEXT ·quant32F32AVX2(SB), NOSPLIT, $200-40
	MOVQ scales+0(FP), BX
	MOVQ elements+8(FP), DI
	MOVQ src+16(FP), SI
	MOVQ nblocks+24(FP), CX
	MOVQ c+32(FP), R8
	Q16SETUP
	VPBROADCASTD q16Abs32<>(SB), Y15
	TESTQ CX, CX
	JEQ   done

loop:
	// Magnitudes of elements 0–7, 8–15, 16–23, 24–31.
	VPAND 0(SI), Y15, Y0
	VPAND 32(SI), Y15, Y1
	VPAND 64(SI), Y15, Y7
	VPAND 96(SI), Y15, Y9

	// amax: an unsigned maximum over the 32 magnitudes.
	VPMAXUD      Y1, Y0, Y3
	VPMAXUD      Y9, Y7, Y4
	VPMAXUD      Y4, Y3, Y3
	VEXTRACTI128 $1, Y3, X4
	VPMAXUD      X4, X3, X3
	VPSHUFD      $0x4e, X3, X4
	VPMAXUD      X4, X3, X3
	VPSHUFD      $0xb1, X3, X4
	VPMAXUD      X4, X3, X3
	VMOVD        X3, AX

	// The signs: dwords to words to bytes with signed saturation, which
	// leaves dwords of 4 elements in the order 0 2 4 6 | 1 3 5 7, as
	// Q16F32 leaves the codes before its VPERMD.
	VMOVDQU   0(SI), Y3
	VPACKSSDW 32(SI), Y3, Y3
	VMOVDQU   64(SI), Y4
	VPACKSSDW 96(SI), Y4, Y4
	VPACKSSWB Y4, Y3, Y2
	VMOVDQU   q16Order<>(SB), Y5
	VPERMD    Y2, Y5, Y2
	Q16SCALE(nan)
	CMPQ      R10, $3
	JEQ       int8
	Q16F32(Q16ENC)
	JMP       fstore

int8:
	Q16F32(Q16INT8)
	JMP istore
	Q16STORE(128)
