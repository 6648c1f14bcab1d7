#include "textflag.h"
#include "go_asm.h"

// AVX-512 block quantizers, 32 elements a block, round to nearest even;
// see quant512_amd64.go. Go operand order: sources first, destination
// last; masked forms put the mask register just before the destination.
//
// Each block goes through the same steps as quantizer.run:
//  1. magnitudes |x| (sign bits cleared) and the signs as a 32-bit mask in
//     K1, element i in bit i (16-bit input stays 16-bit for this step);
//  2. amax, an unsigned maximum of the magnitude bits (they order like the
//     values, and NaN/Inf exceed every finite value), and from it the E8M0
//     scale as sharedScale computes it, and 2^−shared in the stack slot
//     inv, which the multiplies broadcast (a load, not a shuffle);
//  3. each magnitude w = |x|·2^−shared rounded to the element grid by the
//     FPU: C = 2^(E + 23 − m), with E = max(e, emin) and e the exponent
//     of w, has an ulp of 2^(E − m), the grid spacing at w, and w < 2^(e+1)
//     keeps w + C below 2C, so w + C rounds w to the grid, ties to even,
//     exactly as rneMag does (normal and subnormal results alike), and
//     its bits are C's plus n, the rounded w in units of 2^(E − m). The
//     code is then n + (E + bias − 1)<<m (a carry to 2^(e+1) gives n =
//     2^(m+1), which moves the code into the next binade as it should;
//     the subnormals have E = emin = 1 − bias, so the code is n), and
//     (E + bias − 1)<<m = C>>(23 − m) − (151 − m − bias)<<m. No step
//     makes a float32 subnormal, which would cost a microcode assist per
//     instruction. The low byte of sum + C>>(23 − m) is the code plus
//     that offset (mod 256: n fills the low bits of sum's mantissa and
//     nothing else), and every code before saturation is below 256, so
//     the offset is subtracted and the minimum with maxMag taken (which
//     saturates as the portable table does) on the 32 bytes together.
//     MXINT8 instead multiplies by 64 and rounds with VCVTPS2DQ (MXCSR
//     round to nearest, Go's setting) and clamps to 127;
//  4. 32 code bytes in element order in Y0, the offset subtracted and
//     the maximum applied (float formats), the signs added (the sign bit
//     of a magnitude code is clear; MXINT8 negates), packed and stored.
// A NaN or Inf block gets scale 0xFF and zero elements.

// FP6: the 24-bit groups of 4 codes, one per dword, to 12 bytes at the
// start of each 128-bit lane (VPSHUFB), then the two lanes' 12 bytes
// together (VPERMD).
DATA q512Shuf6<>+0(SB)/8, $0x0908060504020100
DATA q512Shuf6<>+8(SB)/8, $0x808080800e0d0c0a
DATA q512Shuf6<>+16(SB)/8, $0x0908060504020100
DATA q512Shuf6<>+24(SB)/8, $0x808080800e0d0c0a
GLOBL q512Shuf6<>(SB), RODATA|NOPTR, $32
DATA q512Perm6<>+0(SB)/8, $0x0000000100000000
DATA q512Perm6<>+8(SB)/8, $0x0000000400000002
DATA q512Perm6<>+16(SB)/8, $0x0000000600000005
DATA q512Perm6<>+24(SB)/8, $0x0000000700000007
GLOBL q512Perm6<>(SB), RODATA|NOPTR, $32

DATA q512Abs32<>+0(SB)/4, $0x7fffffff
GLOBL q512Abs32<>(SB), RODATA|NOPTR, $4
DATA q512Abs16<>+0(SB)/4, $0x7fff7fff
GLOBL q512Abs16<>(SB), RODATA|NOPTR, $4
DATA q512LowByte<>+0(SB)/4, $0x000000ff
GLOBL q512LowByte<>(SB), RODATA|NOPTR, $4
DATA q512Hi16<>+0(SB)/4, $0xffff0000
GLOBL q512Hi16<>(SB), RODATA|NOPTR, $4
DATA q512Sixty4<>+0(SB)/4, $0x42800000
GLOBL q512Sixty4<>(SB), RODATA|NOPTR, $4
DATA q512Int8Max<>+0(SB)/4, $127
GLOBL q512Int8Max<>(SB), RODATA|NOPTR, $4
// VPMADDWD multipliers (1, 4096): word pairs (w0, w1) become w0 | w1<<12.
DATA q512MaddW<>+0(SB)/4, $0x10000001
GLOBL q512MaddW<>(SB), RODATA|NOPTR, $4

// The VPERMT2B indexes (VBMI) that gather the low bytes of the code dwords
// of Z0 (bytes 0–63) and Z5 (64–127) into 32 bytes in element order: Z0
// then Z5 (float32, binary16), or alternating (bfloat16's even and odd).
DATA q512JoinInOrder<>+0(SB)/8, $0x1c1814100c080400
DATA q512JoinInOrder<>+8(SB)/8, $0x3c3834302c282420
DATA q512JoinInOrder<>+16(SB)/8, $0x5c5854504c484440
DATA q512JoinInOrder<>+24(SB)/8, $0x7c7874706c686460
GLOBL q512JoinInOrder<>(SB), RODATA|NOPTR, $64
DATA q512JoinEvenOdd<>+0(SB)/8, $0x4c0c480844044000
DATA q512JoinEvenOdd<>+8(SB)/8, $0x5c1c581854145010
DATA q512JoinEvenOdd<>+16(SB)/8, $0x6c2c682864246020
DATA q512JoinEvenOdd<>+24(SB)/8, $0x7c3c783874347030
GLOBL q512JoinEvenOdd<>(SB), RODATA|NOPTR, $64

// Q512SETUP loads the format's constants (R8 points to them) into the
// upper registers, which stay fixed through the loop:
// Z30 2^emin, Z29 the exponent mask, Z28 (23 − m)<<23, Y27 the code
// offset (151 − m − bias)<<m and Y26 maxMag in every byte, Z25 0xFF,
// Y24 the code's sign bit in every byte,
// Z23 64.0, Z22 127, Y21 zero, Y20 and Y19 the packing multipliers,
// Y18 and Y17 the FP6 byte shuffle and dword permute, Z16 0xFFFF0000,
// X15 the shift 23 − m, R9 emax, R10 the kind, R11 the element bytes
// per block, K2 their byte mask; each function loads Z31 (its magnitude
// mask) and Z9 (its VPERMT2B index), and R13 says whether VBMI may be used.
#define Q512SETUP \
	VPBROADCASTD quant512Consts_eminBits(R8), Z30; \
	VPBROADCASTD quant512Consts_expMask(R8), Z29; \
	VPBROADCASTD quant512Consts_off(R8), Z28; \
	VPBROADCASTB quant512Consts_codeOff(R8), Y27; \
	VPBROADCASTB quant512Consts_maxMag(R8), Y26; \
	VPBROADCASTD q512LowByte<>(SB), Z25; \
	VPBROADCASTB quant512Consts_signByte(R8), Y24; \
	VPBROADCASTD q512Sixty4<>(SB), Z23; \
	VPBROADCASTD q512Int8Max<>(SB), Z22; \
	VPXORD       Y21, Y21, Y21; \
	VPBROADCASTD quant512Consts_packMul(R8), Y20; \
	VPBROADCASTD q512MaddW<>(SB), Y19; \
	VMOVDQU32    q512Shuf6<>(SB), Y18; \
	VMOVDQU32    q512Perm6<>(SB), Y17; \
	VPBROADCASTD q512Hi16<>(SB), Z16; \
	VMOVQ        quant512Consts_sh(R8), X15; \
	MOVQ         quant512Consts_emax(R8), R9; \
	MOVQ         quant512Consts_kind(R8), R10; \
	MOVQ         quant512Consts_step(R8), R11; \
	KMOVD        quant512Consts_mask(R8), K2

// Q512SCALE takes amax's float32 bits in AX, jumps to nan for a NaN or
// Inf block, stores the scale byte max(⌊log2 amax⌋ + 127 − emax, 0) at
// (BX) (a subnormal or zero amax has exponent field 0, so it gives 0, as
// sharedScale's clamp does) and stores 2^−shared = 2^(127 − scale) at
// inv-8(SP): bits (254 − scale)<<23, or the subnormal 2^−127
// (0x00400000) for scale 254, which only MXINT8 (emax 0) reaches.
#define Q512SCALE(nan) \
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
	MOVL         DX, inv-8(SP)

// Q512ENC turns 16 magnitudes a into dwords in out whose low bytes are
// the magnitude codes plus the code offset, mod 256 (step 3 above); tmp
// is scratch.
#define Q512ENC(a, tmp, out) \
	VMULPS.BCST inv-8(SP), a, out; \
	VPMAXUD Z30, out, tmp; \
	VPANDD  Z29, tmp, tmp; \
	VPADDD  Z28, tmp, tmp; \
	VADDPS  tmp, out, out; \
	VPSRLD  X15, tmp, tmp; \
	VPADDD  tmp, out, out

// Q512INT8 turns 16 magnitudes a into MXINT8 magnitudes in out:
// |x|·2^−shared·64 (two multiplies, as mxint8Element does them), rounded
// to nearest even and clamped to 127.
#define Q512INT8(a, out) \
	VMULPS.BCST inv-8(SP), a, out; \
	VMULPS    Z23, out, out; \
	VCVTPS2DQ out, out; \
	VPMINSD   Z22, out, out

// Q512MAX16 finds the largest of the 32 16-bit magnitudes in Z0 and leaves
// it XORed with 0x7FFF in the low word of X2: VPMAXUW halves the vector
// down to 8 words, and VPHMINPOSUW finds their minimum after XOR with
// 0x7FFF, which reverses the order of values up to 0x7FFF. The callers
// XOR again to restore it (word 1 of X2 is the minimum's index).
#define Q512MAX16 \
	VEXTRACTI64X4 $1, Z0, Y2; \
	VPMAXUW       Y2, Y0, Y2; \
	VEXTRACTI128  $1, Y2, X3; \
	VPMAXUW       X3, X2, X2; \
	VPXORD        X31, X2, X2; \
	VPHMINPOSUW   X2, X2

// Q512INORDER encodes the magnitudes of elements 0–15 in Z1 and 16–31 in
// Z2 to 32 code bytes in Y0, then jumps to the float or MXINT8 store.
#define Q512INORDER \
	CMPQ        R10, $3; \
	JEQ         inorderInt8; \
	Q512ENC(Z1, Z11, Z0); \
	Q512ENC(Z2, Z12, Z5); \
	JMP         inorderJoin; \
inorderInt8: \
	Q512INT8(Z1, Z0); \
	Q512INT8(Z2, Z5); \
inorderJoin: \
	TESTQ       R13, R13; \
	JEQ         inorderMov; \
	VPERMT2B    Z5, Z9, Z0; \
	JMP         joined; \
inorderMov: \
	VPMOVDB     Z0, X4; \
	VPMOVDB     Z5, X5; \
	VINSERTI128 $1, X5, Y4, Y0; \
joined: \
	CMPQ        R10, $3; \
	JEQ         istore; \
	JMP         fstore

// Q512STORE adds the signs (K1) to the codes in Y0, packs them and stores
// the block at (DI), then moves to the next block (srcStep input bytes)
// and loops; nan stores the NaN block.
#define Q512STORE(srcStep) \
fstore: \
	VPSUBB     Y27, Y0, Y0; \
	VPMINUB    Y26, Y0, Y0; \
	VPADDB     Y24, Y0, K1, Y0; \
	CMPQ       R10, $1; \
	JB         store8; \
	JEQ        store6; \
	VPMADDUBSW Y20, Y0, Y0; \
	VPMOVWB    Y0, X0; \
	VMOVDQU    X0, (DI); \
	JMP        next; \
store6: \
	VPMADDUBSW Y20, Y0, Y0; \
	VPMADDWD   Y19, Y0, Y0; \
	VPSHUFB    Y18, Y0, Y0; \
	VPERMD     Y0, Y17, Y0; \
	VMOVDQU8   Y0, K2, (DI); \
	JMP        next; \
istore: \
	VPSUBB     Y0, Y21, K1, Y0; \
store8: \
	VMOVDQU    Y0, (DI); \
next: \
	ADDQ       $srcStep, SI; \
	ADDQ       R11, DI; \
	INCQ       BX; \
	DECQ       CX; \
	JNZ        loop; \
done: \
	VZEROUPPER; \
	RET; \
nan: \
	MOVB       $0xff, (BX); \
	VMOVDQU8   Y21, K2, (DI); \
	JMP        next

// Each TEXT loads its own arguments, as go vet checks argument references
// against the enclosing function only.

// func quant32F32AVX512(scales, elements *byte, src *float32, nblocks int, c *quant512Consts, vbmi bool)
TEXT ·quant32F32AVX512(SB), NOSPLIT, $8-41
	MOVQ scales+0(FP), BX
	MOVQ elements+8(FP), DI
	MOVQ src+16(FP), SI
	MOVQ nblocks+24(FP), CX
	MOVQ c+32(FP), R8
	MOVBQZX vbmi+40(FP), R13
	Q512SETUP
	VPBROADCASTD q512Abs32<>(SB), Z31
	VMOVDQU64    q512JoinInOrder<>(SB), Z9
	TESTQ CX, CX
	JEQ   done

loop:
	// Step 1: the signs of both halves into K1 (elements 0–15 low), the
	// magnitudes into Z1 and Z2.
	VMOVDQU32 0(SI), Z1
	VMOVDQU32 64(SI), Z2
	VPMOVD2M  Z1, K1
	VPMOVD2M  Z2, K3
	KUNPCKWD  K1, K3, K1
	VPANDD    Z31, Z1, Z1
	VPANDD    Z31, Z2, Z2

	// Step 2: amax, halving 16 dwords down to 1.
	VPMAXUD       Z2, Z1, Z3
	VEXTRACTI64X4 $1, Z3, Y4
	VPMAXUD       Y4, Y3, Y3
	VEXTRACTI128  $1, Y3, X4
	VPMAXUD       X4, X3, X3
	VPSHUFD       $0x4e, X3, X4
	VPMAXUD       X4, X3, X3
	VPSHUFD       $0xb1, X3, X4
	VPMAXUD       X4, X3, X3
	VMOVD         X3, AX
	Q512SCALE(nan)
	Q512INORDER
	Q512STORE(128)

// func quant32F16AVX512(scales, elements *byte, src *uint16, nblocks int, c *quant512Consts, vbmi bool)
TEXT ·quant32F16AVX512(SB), NOSPLIT, $8-41
	MOVQ scales+0(FP), BX
	MOVQ elements+8(FP), DI
	MOVQ src+16(FP), SI
	MOVQ nblocks+24(FP), CX
	MOVQ c+32(FP), R8
	MOVBQZX vbmi+40(FP), R13
	Q512SETUP
	VPBROADCASTD q512Abs16<>(SB), Z31
	VMOVDQU64    q512JoinInOrder<>(SB), Z9
	TESTQ CX, CX
	JEQ   done

loop:
	// Step 1 on the 16-bit values: 32 signs, 32 magnitudes in Z0.
	VMOVDQU16 (SI), Z0
	VPMOVW2M  Z0, K1
	VPANDD    Z31, Z0, Z0

	// Step 2: amax as binary16, then as float32 (VCVTPH2PS is exact; a
	// NaN stays NaN, which is all the NaN-block rule looks at).
	Q512MAX16
	VPXORD    X31, X2, X2
	VCVTPH2PS X2, X2
	VMOVD     X2, AX
	Q512SCALE(nan)

	// The magnitudes widened to float32 exactly, in element order.
	VCVTPH2PS     Y0, Z1
	VEXTRACTI64X4 $1, Z0, Y2
	VCVTPH2PS     Y2, Z2
	Q512INORDER
	Q512STORE(64)

// func quant32BF16AVX512(scales, elements *byte, src *uint16, nblocks int, c *quant512Consts, vbmi bool)
TEXT ·quant32BF16AVX512(SB), NOSPLIT, $8-41
	MOVQ scales+0(FP), BX
	MOVQ elements+8(FP), DI
	MOVQ src+16(FP), SI
	MOVQ nblocks+24(FP), CX
	MOVQ c+32(FP), R8
	MOVBQZX vbmi+40(FP), R13
	Q512SETUP
	VPBROADCASTD q512Abs16<>(SB), Z31
	VMOVDQU64    q512JoinEvenOdd<>(SB), Z9
	TESTQ CX, CX
	JEQ   done

loop:
	VMOVDQU16 (SI), Z0
	VPMOVW2M  Z0, K1
	VPANDD    Z31, Z0, Z0

	// amax as bfloat16, then as float32 (the high half of its bits; the
	// shift also drops the index word).
	Q512MAX16
	VMOVD X2, AX
	XORL  $0x7fff, AX
	SHLL  $16, AX
	Q512SCALE(nan)

	// The magnitudes as float32 without moving them across lanes: the even
	// elements shifted into the high halves, the odd ones with the low
	// halves cleared. The odd codes move one byte up, and the even ones'
	// low bytes are merged with them (VPTERNLOGD 0xEC: (Z0 & Z25) | Z5), so
	// VPMOVDW puts all 32 in order; with VBMI one VPERMT2B does all that.
	VPSLLD $16, Z0, Z1
	VPANDD Z16, Z0, Z2
	CMPQ R10, $3
	JEQ  int8
	Q512ENC(Z1, Z11, Z0)
	Q512ENC(Z2, Z12, Z5)
	JMP  join

int8:
	Q512INT8(Z1, Z0)
	Q512INT8(Z2, Z5)

join:
	TESTQ    R13, R13
	JEQ      joinMov
	VPERMT2B Z5, Z9, Z0
	JMP      joined

joinMov:
	VPSLLD     $8, Z5, Z5
	VPTERNLOGD $0xec, Z25, Z5, Z0
	VPMOVDW    Z0, Y0

joined:
	CMPQ R10, $3
	JEQ  istore
	JMP  fstore
	Q512STORE(64)
