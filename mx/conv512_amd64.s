#include "textflag.h"
#include "go_asm.h"

// AVX-512 (F, BW, DQ, VL) kernels for the slice decoders and the block
// dequantizers, to float32, bfloat16 and binary16; see conv512_amd64.go.
// Go operand order: sources first, destination last. They work on 16
// lanes at a time, two vectors per group of 32 elements or per block, and
// do what the AVX2 kernels do (the same float32 multiplies, the same
// integer rounding), with mask registers where those blend.
//
// The table-lookup decoders take nt: the Go
// wrappers set it for outputs far larger than the caches, 64-byte
// aligned, and the kernels then store with VMOVNTDQ, which writes whole
// lines without reading them first (as the runtime's memmove does for
// large copies); both end with SFENCE so the stores are ordered
// before the caller reads the output. The dequantizers store normally:
// they are bound by their arithmetic, and non-temporal stores measured
// slower there.

DATA c512NaN<>+0(SB)/4, $0x7fc00000
GLOBL c512NaN<>(SB), RODATA|NOPTR, $4
DATA c512Inf<>+0(SB)/4, $0x7f800000
GLOBL c512Inf<>(SB), RODATA|NOPTR, $4
DATA c512Min<>+0(SB)/4, $0x00400000 // 2^-127, E8M0 code 0
GLOBL c512Min<>(SB), RODATA|NOPTR, $4
DATA c512FF<>+0(SB)/4, $0x000000ff
GLOBL c512FF<>(SB), RODATA|NOPTR, $4
DATA c512One<>+0(SB)/4, $0x00000001
GLOBL c512One<>(SB), RODATA|NOPTR, $4
DATA c512Round<>+0(SB)/4, $0x00007fff
GLOBL c512Round<>(SB), RODATA|NOPTR, $4
DATA c512Int8<>+0(SB)/4, $0x3c800000 // 1/64, the MXINT8 step
GLOBL c512Int8<>(SB), RODATA|NOPTR, $4

DATA c512Abs<>+0(SB)/4, $0x7fffffff
GLOBL c512Abs<>(SB), RODATA|NOPTR, $4
DATA c512F64<>+0(SB)/4, $0x42800000 // 64.0
GLOBL c512F64<>(SB), RODATA|NOPTR, $4
DATA c512F127<>+0(SB)/4, $0x42fe0000 // 127.0
GLOBL c512F127<>(SB), RODATA|NOPTR, $4
DATA c512Fm128<>+0(SB)/4, $0xc3000000 // -128.0
GLOBL c512Fm128<>(SB), RODATA|NOPTR, $4
DATA c512Man<>+0(SB)/4, $0x007fffff
GLOBL c512Man<>(SB), RODATA|NOPTR, $4
DATA c512MaxFinite<>+0(SB)/4, $0x7f7fffff
GLOBL c512MaxFinite<>(SB), RODATA|NOPTR, $4
DATA c512MaxNormM1<>+0(SB)/4, $0x7f7ffffe
GLOBL c512MaxNormM1<>(SB), RODATA|NOPTR, $4
DATA c512Quarter<>+0(SB)/4, $0x00200000
GLOBL c512Quarter<>(SB), RODATA|NOPTR, $4

// c512EvenB and c512OddB pick the even (low) and odd (high) bytes of the
// 64 words of two vectors (VPERMT2B): a word table split into byte planes.
DATA c512EvenB<>+0(SB)/8, $0x0e0c0a0806040200
DATA c512EvenB<>+8(SB)/8, $0x1e1c1a1816141210
DATA c512EvenB<>+16(SB)/8, $0x2e2c2a2826242220
DATA c512EvenB<>+24(SB)/8, $0x3e3c3a3836343230
DATA c512EvenB<>+32(SB)/8, $0x4e4c4a4846444240
DATA c512EvenB<>+40(SB)/8, $0x5e5c5a5856545250
DATA c512EvenB<>+48(SB)/8, $0x6e6c6a6866646260
DATA c512EvenB<>+56(SB)/8, $0x7e7c7a7876747270
GLOBL c512EvenB<>(SB), RODATA|NOPTR, $64
DATA c512OddB<>+0(SB)/8, $0x0f0d0b0907050301
DATA c512OddB<>+8(SB)/8, $0x1f1d1b1917151311
DATA c512OddB<>+16(SB)/8, $0x2f2d2b2927252321
DATA c512OddB<>+24(SB)/8, $0x3f3d3b3937353331
DATA c512OddB<>+32(SB)/8, $0x4f4d4b4947454341
DATA c512OddB<>+40(SB)/8, $0x5f5d5b5957555351
DATA c512OddB<>+48(SB)/8, $0x6f6d6b6967656361
DATA c512OddB<>+56(SB)/8, $0x7f7d7b7977757371
GLOBL c512OddB<>(SB), RODATA|NOPTR, $64

// c512QPerm puts qwords k and k+4 in 128-bit lane k, so that VPUNPCKLBW
// and VPUNPCKHBW of the looked-up byte planes give elements 0-31 and
// 32-63 in order.
DATA c512QPerm<>+0(SB)/8, $0x0000000000000000
DATA c512QPerm<>+8(SB)/8, $0x0000000000000004
DATA c512QPerm<>+16(SB)/8, $0x0000000000000001
DATA c512QPerm<>+24(SB)/8, $0x0000000000000005
DATA c512QPerm<>+32(SB)/8, $0x0000000000000002
DATA c512QPerm<>+40(SB)/8, $0x0000000000000006
DATA c512QPerm<>+48(SB)/8, $0x0000000000000003
DATA c512QPerm<>+56(SB)/8, $0x0000000000000007
GLOBL c512QPerm<>(SB), RODATA|NOPTR, $64

// c512DTrans transposes the 4x4 dwords (dword 4k+j from 4j+k), so that
// the byte and then word unpacks of the looked-up planes give elements
// 0-15, 16-31, 32-47, 48-63 in order.
DATA c512DTrans<>+0(SB)/8, $0x0000000400000000
DATA c512DTrans<>+8(SB)/8, $0x0000000c00000008
DATA c512DTrans<>+16(SB)/8, $0x0000000500000001
DATA c512DTrans<>+24(SB)/8, $0x0000000d00000009
DATA c512DTrans<>+32(SB)/8, $0x0000000600000002
DATA c512DTrans<>+40(SB)/8, $0x0000000e0000000a
DATA c512DTrans<>+48(SB)/8, $0x0000000700000003
DATA c512DTrans<>+56(SB)/8, $0x0000000f0000000b
GLOBL c512DTrans<>(SB), RODATA|NOPTR, $64

// c512FP6Idx gathers the packed FP6 bytes of two blocks (48) for
// VPMULTISHIFTQB: quadword q gets the 3 bytes of the 4 codes of
// c512DTrans dword 2q and those of dword 2q+1, so the codes come out in
// c512DTrans order.
DATA c512FP6Idx<>+0(SB)/8, $0x00000e0d0c020100
DATA c512FP6Idx<>+8(SB)/8, $0x00002625241a1918
DATA c512FP6Idx<>+16(SB)/8, $0x000011100f050403
DATA c512FP6Idx<>+24(SB)/8, $0x00002928271d1c1b
DATA c512FP6Idx<>+32(SB)/8, $0x0000141312080706
DATA c512FP6Idx<>+40(SB)/8, $0x00002c2b2a201f1e
DATA c512FP6Idx<>+48(SB)/8, $0x00001716150b0a09
DATA c512FP6Idx<>+56(SB)/8, $0x00002f2e2d232221
GLOBL c512FP6Idx<>(SB), RODATA|NOPTR, $64

// c512FP6Shift: the bit offsets of the 8 codes in each quadword.
DATA c512FP6Shift<>+0(SB)/8, $0x2a241e18120c0600
DATA c512FP6Shift<>+8(SB)/8, $0x2a241e18120c0600
DATA c512FP6Shift<>+16(SB)/8, $0x2a241e18120c0600
DATA c512FP6Shift<>+24(SB)/8, $0x2a241e18120c0600
DATA c512FP6Shift<>+32(SB)/8, $0x2a241e18120c0600
DATA c512FP6Shift<>+40(SB)/8, $0x2a241e18120c0600
DATA c512FP6Shift<>+48(SB)/8, $0x2a241e18120c0600
DATA c512FP6Shift<>+56(SB)/8, $0x2a241e18120c0600
GLOBL c512FP6Shift<>(SB), RODATA|NOPTR, $64
DATA c512Low6<>+0(SB)/4, $0x3f3f3f3f
GLOBL c512Low6<>(SB), RODATA|NOPTR, $4

// c512OddW picks the high word of each dword of two vectors (words 1, 3, ..., 63
// of the pair), for VPERMT2W: 32 float32 bit patterns to their top halves.
DATA c512OddW<>+0(SB)/8, $0x0007000500030001
DATA c512OddW<>+8(SB)/8, $0x000f000d000b0009
DATA c512OddW<>+16(SB)/8, $0x0017001500130011
DATA c512OddW<>+24(SB)/8, $0x001f001d001b0019
DATA c512OddW<>+32(SB)/8, $0x0027002500230021
DATA c512OddW<>+40(SB)/8, $0x002f002d002b0029
DATA c512OddW<>+48(SB)/8, $0x0037003500330031
DATA c512OddW<>+56(SB)/8, $0x003f003d003b0039
GLOBL c512OddW<>(SB), RODATA|NOPTR, $64

// c512ZipDLo and c512ZipDHi interleave the dwords of two vectors a, b
// (VPERMI2D/VPERMT2D: 0-15 from a, 16-31 from b): a0 b0 a1 b1 ... a7 b7,
// then a8 b8 ... a15 b15.
DATA c512ZipDLo<>+0(SB)/8, $0x0000001000000000
DATA c512ZipDLo<>+8(SB)/8, $0x0000001100000001
DATA c512ZipDLo<>+16(SB)/8, $0x0000001200000002
DATA c512ZipDLo<>+24(SB)/8, $0x0000001300000003
DATA c512ZipDLo<>+32(SB)/8, $0x0000001400000004
DATA c512ZipDLo<>+40(SB)/8, $0x0000001500000005
DATA c512ZipDLo<>+48(SB)/8, $0x0000001600000006
DATA c512ZipDLo<>+56(SB)/8, $0x0000001700000007
GLOBL c512ZipDLo<>(SB), RODATA|NOPTR, $64
DATA c512ZipDHi<>+0(SB)/8, $0x0000001800000008
DATA c512ZipDHi<>+8(SB)/8, $0x0000001900000009
DATA c512ZipDHi<>+16(SB)/8, $0x0000001a0000000a
DATA c512ZipDHi<>+24(SB)/8, $0x0000001b0000000b
DATA c512ZipDHi<>+32(SB)/8, $0x0000001c0000000c
DATA c512ZipDHi<>+40(SB)/8, $0x0000001d0000000d
DATA c512ZipDHi<>+48(SB)/8, $0x0000001e0000000e
DATA c512ZipDHi<>+56(SB)/8, $0x0000001f0000000f
GLOBL c512ZipDHi<>(SB), RODATA|NOPTR, $64

// c512ZipW interleaves the low 16 words of two vectors a, b (VPERMT2W:
// 0-31 from a, 32-63 from b): a0 b0 a1 b1 ... a15 b15.
DATA c512ZipW<>+0(SB)/8, $0x0021000100200000
DATA c512ZipW<>+8(SB)/8, $0x0023000300220002
DATA c512ZipW<>+16(SB)/8, $0x0025000500240004
DATA c512ZipW<>+24(SB)/8, $0x0027000700260006
DATA c512ZipW<>+32(SB)/8, $0x0029000900280008
DATA c512ZipW<>+40(SB)/8, $0x002b000b002a000a
DATA c512ZipW<>+48(SB)/8, $0x002d000d002c000c
DATA c512ZipW<>+56(SB)/8, $0x002f000f002e000e
GLOBL c512ZipW<>(SB), RODATA|NOPTR, $64

// SETUP512 loads the constants every kernel here may use: Z9 the
// canonical NaN (what the decode tables hold for NaN codes), Z10 +Inf's
// bits, Z8 2^-127, Z18 0xFF, Z19 1, Z21 0x7FFF, Z20 c512OddW, Z22/Z23
// c512ZipDLo/Hi, Z24 c512ZipW, Z13 1/64.
#define SETUP512 \
	VPBROADCASTD c512NaN<>(SB), Z9; \
	VPBROADCASTD c512Inf<>(SB), Z10; \
	VPBROADCASTD c512Min<>(SB), Z8; \
	VPBROADCASTD c512FF<>(SB), Z18; \
	VPBROADCASTD c512One<>(SB), Z19; \
	VPBROADCASTD c512Round<>(SB), Z21; \
	VPBROADCASTD c512Int8<>(SB), Z13; \
	VMOVDQU32    c512OddW<>(SB), Z20; \
	VMOVDQU32    c512ZipDLo<>(SB), Z22; \
	VMOVDQU32    c512ZipDHi<>(SB), Z23; \
	VMOVDQU32    c512ZipW<>(SB), Z24

// FSETUP loads a float format's shifts from the decConsts at R8: X12 the
// mantissa shift, X11 the sign shift.
#define FSETUP \
	VMOVQ decConsts_shift(R8), X12; \
	VMOVQ decConsts_signShift(R8), X11

// DECF decodes the 16 codes at off(SI) of a float format (decConsts at
// R8) to float32 in z, as FDEC8 in slice_amd64.s: the magnitude shifted
// to the float32 mantissa position and rebiased is a normal code's value;
// a subnormal code (K5) gets exponent field 1 and 2^(1−bias) subtracted,
// exactly (no float32 subnormal through the FPU, which would cost a
// microcode assist); then the sign, ±Inf for the Inf magnitude (K1), and
// the canonical NaN for NaN magnitudes (K2). Z4, Z5, Z7 scratch.
#define DECF(off, z) \
	VPMOVZXBD     off(SI), Z4; \
	VPANDD.BCST   decConsts_magMask(R8), Z4, Z5; \
	VPSLLD        X12, Z5, z; \
	VPADDD.BCST   decConsts_rebias(R8), z, z; \
	VPCMPUD.BCST  $2, decConsts_minNormalM1(R8), Z5, K5; \
	VPADDD.BCST   decConsts_one23(R8), z, K5, z; \
	VSUBPS.BCST   decConsts_sub(R8), z, K5, z; \
	VPANDD.BCST   decConsts_signMask(R8), Z4, Z7; \
	VPSLLD        X11, Z7, Z7; \
	VPORD         Z7, z, z; \
	VPCMPEQD.BCST decConsts_infMag(R8), Z5, K1; \
	VPORD         Z10, Z7, K1, z; \
	VPCMPGTD.BCST decConsts_nanMinM1(R8), Z5, K2; \
	VMOVDQA32     Z9, K2, z

// DECI decodes 16 MXINT8 codes: int8(c)/64, exact (an 8-bit integer
// times a power of two).
#define DECI(off, z) \
	VPMOVSXBD off(SI), z; \
	VCVTDQ2PS z, z; \
	VMULPS    Z13, z, z

// DECE decodes 16 E8M0 codes: 2^(c−127) has the bits c<<23, except code
// 0 (2^-127, a float32 subnormal: 0x00400000) and code 0xFF (NaN).
#define DECE(off, z) \
	VPMOVZXBD off(SI), z; \
	VPTESTNMD z, z, K1; \
	VPCMPEQD  Z18, z, K2; \
	VPSLLD    $23, z, z; \
	VMOVDQA32 Z8, K1, z; \
	VMOVDQA32 Z9, K2, z

// NBF rounds the float32 in z to bfloat16 in the high word of each dword,
// to nearest even as bfloat16RTE does: u + 0x7FFF + (bit 16 of u) carries
// into the kept bits exactly when the dropped half is above one half, or
// one half with an odd lsb, and overflow carries into the exponent (IEEE
// ±Inf). The kernels' only NaN is the canonical 0x7FC00000, which this
// leaves as 0x7FC0, bfloat16RTE's NaN, so NaN needs no test. Z5 scratch.
#define NBF(z) \
	VPSRLD $16, z, Z5; \
	VPANDD Z19, Z5, Z5; \
	VPADDD Z5, z, z; \
	VPADDD Z21, z, z

// OUTF32 stores Z0, Z1 (32 float32); OUTBF the high words of Z0, Z1 (32
// bfloat16: one word permute picks them from both vectors); OUTHALF
// converts Z0, Z1 to binary16 with VCVTPS2PH to nearest even (imm 0: the
// immediate's mode, not MXCSR's), which is HalfFromFloat32's RTE result
// for every input but a NaN with a payload, and the kernels' only NaN is
// the canonical one, which gives 0x7E00 as the tables hold.
#define OUTF32 \
	VMOVDQU32 Z0, 0(DI); \
	VMOVDQU32 Z1, 64(DI); \
	ADDQ      $128, DI

#define OUTBF \
	VPERMT2W  Z1, Z20, Z0; \
	VMOVDQU16 Z0, 0(DI); \
	ADDQ      $64, DI

#define OUTHALF \
	VCVTPS2PH $0, Z0, Y0; \
	VCVTPS2PH $0, Z1, Y1; \
	VMOVDQU   Y0, 0(DI); \
	VMOVDQU   Y1, 32(DI); \
	ADDQ      $64, DI

// DECLOOP decodes CX codes (a multiple of 32) at SI with dec and stores
// them with out. Every code's value is a bfloat16 (its low 16 bits are
// zero), so OUTBF needs no rounding here.
#define DECLOOP(dec, out, label, done) \
	SHRQ $5, CX; \
	JEQ  done; \
label: \
	dec(0, Z0); \
	dec(16, Z1); \
	out; \
	ADDQ $32, SI; \
	DECQ CX; \
	JNZ  label; \
done: \
	VZEROUPPER; \
	RET

#define DECARGS \
	MOVQ dst+0(FP), DI; \
	MOVQ src+8(FP), SI; \
	MOVQ n+16(FP), CX; \
	MOVQ c+24(FP), R8; \
	SETUP512

// BSCALEAT reads the block's scale byte at off(BX) and leaves 2^(s−127)
// broadcast in zs (bits s<<23, or 0x00400000 for s = 0, as pow2f32
// gives) and in k all ones for the NaN scale 0xFF, whose block is NaN
// whatever its elements (zs is then +Inf, and k overwrites the products).
#define BSCALEAT(off, zs, k) \
	MOVBLZX      off(BX), AX; \
	XORL         DX, DX; \
	CMPL         AX, $0xFF; \
	SETEQ        DL; \
	NEGL         DX; \
	KMOVW        DX, k; \
	SHLL         $23, AX; \
	MOVL         $0x00400000, DX; \
	TESTL        AX, AX; \
	CMOVLEQ      DX, AX; \
	VPBROADCASTD AX, zs

#define BSCALE BSCALEAT(0, Z6, K3)

// SCALE multiplies the decoded values in z by the block scale, as the
// portable loop does (table[c]·scale: one float32 rounding, only where
// the product leaves the normal range), and makes a NaN block NaN.
#define SCALE(z) \
	VMULPS    Z6, z, z; \
	VMOVDQA32 Z9, K3, z

#define NBFOUT \
	NBF(Z0); \
	NBF(Z1); \
	OUTBF

// DQLOOP dequantizes CX blocks of 32 one-byte codes at SI with scales at
// BX: decode, scale, store.
#define DQLOOP(dec, out, label, done) \
	TESTQ CX, CX; \
	JEQ   done; \
label: \
	BSCALE; \
	dec(0, Z0); \
	dec(16, Z1); \
	SCALE(Z0); \
	SCALE(Z1); \
	out; \
	ADDQ $32, SI; \
	INCQ BX; \
	DECQ CX; \
	JNZ  label; \
done: \
	VZEROUPPER; \
	RET

#define DQARGS \
	MOVQ dst+0(FP), DI; \
	MOVQ scales+8(FP), BX; \
	MOVQ codes+16(FP), SI; \
	MOVQ nblocks+24(FP), CX; \
	MOVQ c+32(FP), R8; \
	SETUP512

// MXFP4: the block's 16 values are one vector. FP4TABLE scales the E2M1
// table (Z15, its first 16 entries) by the block scale into Z16, as the
// portable loop's t[c] = table[c]·scale, NaN for a NaN block.
#define FP4TABLE \
	BSCALE; \
	VMULPS    Z6, Z15, Z16; \
	VMOVDQA32 Z9, K3, Z16

// FP4F32 looks the 32 nibbles of the 16 bytes at SI up in Z16: VPERMD
// reads only an index's low 4 bits, so a byte is the index of its low
// nibble and the byte shifted right by 4 that of its high one; the two
// results are interleaved back into element order (low nibble first).
#define FP4F32(st) \
	VPMOVZXBD (SI), Z2; \
	VPSRLD    $4, Z2, Z3; \
	VPERMD    Z16, Z2, Z2; \
	VPERMD    Z16, Z3, Z3; \
	VMOVDQA32 Z22, Z4; \
	VPERMI2D  Z3, Z2, Z4; \
	VPERMT2D  Z3, Z23, Z2; \
	st        Z4, 0(DI); \
	st        Z2, 64(DI); \
	ADDQ      $128, DI

// FP4W looks the nibbles up in the 16 words of Z17 (the table rounded to
// bfloat16 or binary16, repeated in both halves because VPERMW reads 5
// index bits): the byte and the byte shifted right by 4 as word indices,
// interleaved, then one word permute.
#define FP4W(st) \
	VPMOVZXBW (SI), Y2; \
	VPSRLW    $4, Y2, Y3; \
	VPERMT2W  Z3, Z24, Z2; \
	VPERMW    Z17, Z2, Z2; \
	st        Z2, 0(DI); \
	ADDQ      $64, DI

// FP4BFTAB and FP4HTAB round the scaled table Z16 to 16-bit words in Z17
// (both halves): integer RNE (NBF) or VCVTPS2PH, as OUTBF and OUTHALF.
#define FP4BFTAB \
	NBF(Z16); \
	VPSRLD        $16, Z16, Z16; \
	VPMOVDW       Z16, Y17; \
	VINSERTI64X4  $1, Y17, Z17, Z17

#define FP4HTAB \
	VCVTPS2PH     $0, Z16, Y17; \
	VINSERTI64X4  $1, Y17, Z17, Z17

// FP4LOOP dequantizes CX MXFP4 blocks (16 bytes each) at SI.
#define FP4LOOP(tab, out, label, done) \
	TESTQ CX, CX; \
	JEQ   done; \
label: \
	FP4TABLE; \
	tab; \
	out(VMOVDQU64); \
	ADDQ $16, SI; \
	INCQ BX; \
	DECQ CX; \
	JNZ  label; \
done: \
	VZEROUPPER; \
	RET

#define FP4ARGS \
	MOVQ      dst+0(FP), DI; \
	MOVQ      scales+8(FP), BX; \
	MOVQ      elements+16(FP), SI; \
	MOVQ      nblocks+24(FP), CX; \
	MOVQ      table+32(FP), R8; \
	SETUP512; \
	VMOVDQU32 (R8), Z15

#define NOTAB

// Encoders: 32 inputs per iteration, two vectors of 16, each loaded into
// Z4 as float32 bits by a load macro, turned into codes in the dwords of
// Z0 and Z1 by a lane macro, and stored as 32 bytes (VPMOVDB keeps each
// dword's low byte, which holds the code; MXINT8's clamped integers too).

// LDF32, LDBF and LDH load 16 float32, bfloat16 or binary16 inputs as
// float32 bits: a bfloat16 is the top half of a float32; VCVTPH2PS is
// exact (it sets a signalling NaN's quiet bit, which no encoder can
// observe: every NaN gives the same code).
#define LDF32(off) \
	VMOVDQU32 off(SI), Z4

#define LDBF(off) \
	VPMOVZXWD off(SI), Z4; \
	VPSLLD    $16, Z4, Z4

#define LDH(off) \
	VCVTPH2PS off(SI), Z4

// ENCLOOP runs load and lane over CX inputs (a multiple of 32) at SI, off0
// and off1 the two vectors' offsets and step the bytes per iteration.
#define ENCLOOP(load, off0, off1, step, lane, label, done) \
	SHRQ $5, CX; \
	JEQ  done; \
label: \
	load(off0); \
	lane(Z0); \
	load(off1); \
	lane(Z1); \
	VPMOVDB Z0, X0; \
	VPMOVDB Z1, X1; \
	VMOVDQU X0, 0(DI); \
	VMOVDQU X1, 16(DI); \
	ADDQ $step, SI; \
	ADDQ $32, DI; \
	DECQ CX; \
	JNZ  label; \
done: \
	VZEROUPPER; \
	RET

#define ENCARGS \
	MOVQ dst+0(FP), DI; \
	MOVQ src+8(FP), SI; \
	MOVQ n+16(FP), CX

// RNESETUP: R8 the rteConsts, X12 the rounding shift, X11 the sign shift,
// Z14 the magnitude mask, Z15 ones, Z9 +Inf's bits.
#define RNESETUP \
	ENCARGS; \
	MOVQ         c+24(FP), R8; \
	VMOVQ        rteConsts_shift(R8), X12; \
	VMOVQ        rteConsts_signShift(R8), X11; \
	VPBROADCASTD c512Abs<>(SB), Z14; \
	VPBROADCASTD c512One<>(SB), Z15; \
	VPBROADCASTD c512Inf<>(SB), Z9

// RNE16 is slice_amd64.s's RNE8 on 16 lanes: rneMag's integer rounding to
// nearest even for normal results (K1) and the FPU's (adding the magic
// number) for subnormal ones, the minimum with the limit (saturation, or
// the overflow code), the sign, and NaN inputs (K2) replaced by the
// format's NaN code with the input's sign where the format keeps it.
#define RNE16(code) \
	VPANDD        Z14, Z4, Z5; \
	VPSRLD        X12, Z5, Z6; \
	VPANDD        Z15, Z6, Z6; \
	VPADDD        Z5, Z6, Z6; \
	VPADDD.BCST   rteConsts_half(R8), Z6, Z6; \
	VPSRLD        X12, Z6, Z6; \
	VPSUBD.BCST   rteConsts_rebias(R8), Z6, Z6; \
	VADDPS.BCST   rteConsts_magic(R8), Z5, code; \
	VPSUBD.BCST   rteConsts_magic(R8), code, code; \
	VPCMPGTD.BCST rteConsts_minNormalM1(R8), Z5, K1; \
	VMOVDQA32     Z6, K1, code; \
	VPMINUD.BCST  rteConsts_limit(R8), code, code; \
	VPSRLD        X11, Z4, Z4; \
	VPANDD.BCST   rteConsts_signBit(R8), Z4, Z4; \
	VPORD         Z4, code, code; \
	VPCMPGTD      Z9, Z5, K2; \
	VPANDD.BCST   rteConsts_nanSign(R8), Z4, Z4; \
	VPORD.BCST    rteConsts_nanCode(R8), Z4, K2, code

// DIRSETUP is RNESETUP for the directed modes, plus Z16 the magic number
// (a register: embedded rounding needs register operands) and Z17 the
// increment 2^shift − 1 that rounds a magnitude up.
#define DIRSETUP \
	RNESETUP; \
	VPBROADCASTD rteConsts_magic(R8), Z16; \
	VPBROADCASTD inc+32(FP), Z17

// UPRTZ, UPRTP and UPRTN set K3 on the lanes whose magnitude rounds up:
// none for RTZ, the positive ones for RTP, the negative ones for RTN (the
// others round their magnitude down).
#define UPRTZ KXORW K3, K3, K3
#define UPRTP VPMOVD2M Z4, K3; KNOTW K3, K3
#define UPRTN VPMOVD2M Z4, K3

// DIR16 is RNE16 for a directed mode (up sets K3): a normal result
// truncates the magnitude's bits at the rounding position after adding
// 2^shift − 1 on the lanes that round up (a ceiling); a subnormal one
// comes from the magic-number addition with the FPU rounding toward zero,
// or up on those lanes (EVEX embedded rounding, so MXCSR is untouched).
// Rounding is on the unbounded grid; the minimum with the limit then
// gives saturation or the overflow code, as the scalar encoder checks the
// range on the rounded value.
#define DIR16(up, code) \
	VPANDD        Z14, Z4, Z5; \
	up; \
	VMOVDQA32     Z5, Z6; \
	VPADDD        Z17, Z6, K3, Z6; \
	VPSRLD        X12, Z6, Z6; \
	VPSUBD.BCST   rteConsts_rebias(R8), Z6, Z6; \
	VADDPS.RZ_SAE Z16, Z5, code; \
	VADDPS.RU_SAE Z16, Z5, K3, code; \
	VPSUBD        Z16, code, code; \
	VPCMPGTD.BCST rteConsts_minNormalM1(R8), Z5, K1; \
	VMOVDQA32     Z6, K1, code; \
	VPMINUD.BCST  rteConsts_limit(R8), code, code; \
	VPSRLD        X11, Z4, Z4; \
	VPANDD.BCST   rteConsts_signBit(R8), Z4, Z4; \
	VPORD         Z4, code, code; \
	VPCMPGTD      Z9, Z5, K2; \
	VPANDD.BCST   rteConsts_nanSign(R8), Z4, Z4; \
	VPORD.BCST    rteConsts_nanCode(R8), Z4, K2, code

#define DIRRTZ(code) DIR16(UPRTZ, code)
#define DIRRTP(code) DIR16(UPRTP, code)
#define DIRRTN(code) DIR16(UPRTN, code)

// TABSETUP: R8 the encodeTable's codes, X12 its shift, Z11 its low mask.
#define TABSETUP \
	ENCARGS; \
	MOVQ         codes+24(FP), R8; \
	VMOVQ        shift+32(FP), X12; \
	VPBROADCASTD low+40(FP), Z11

// TKEY16 is TKEY on 16 lanes: the key (u >> shift) << 1 | sticky, sticky
// = ((u & low) + low) >> shift, and a gather of the codes (reading 32
// bits at each byte entry; the table is padded).
#define TKEY16(code) \
	VPANDD     Z11, Z4, Z5; \
	VPADDD     Z11, Z5, Z5; \
	VPSRLD     X12, Z5, Z5; \
	VPSRLD     X12, Z4, Z4; \
	VPSLLD     $1, Z4, Z4; \
	VPORD      Z5, Z4, Z4; \
	KXNORW     K1, K1, K1; \
	VPGATHERDD (R8)(Z4*1), K1, code

// I8SETUP: Z10 64, Z13 127, Z8 −128.
#define I8SETUP \
	ENCARGS; \
	VPBROADCASTD c512F64<>(SB), Z10; \
	VPBROADCASTD c512F127<>(SB), Z13; \
	VPBROADCASTD c512Fm128<>(SB), Z8

// I8LANE is INT8LANE on 16 lanes: x·64 (exact, or ±Inf), clamped to
// [−128, 127], rounded to an integer in mode imm (VRNDSCALEPS: 0 nearest
// even, 1 down, 2 up, 3 toward zero), converted; NaN lanes (K1) give 0.
#define I8LANE(imm, code) \
	VCMPPS      $3, Z4, Z4, K1; \
	VMULPS      Z10, Z4, code; \
	VMAXPS      Z8, code, code; \
	VMINPS      Z13, code, code; \
	VRNDSCALEPS $imm, code, code; \
	VCVTTPS2DQ  code, code; \
	VPXORD      code, code, K1, code

#define I8RTE(code) I8LANE(0, code)
#define I8RTN(code) I8LANE(1, code)
#define I8RTP(code) I8LANE(2, code)
#define I8RTZ(code) I8LANE(3, code)

// E8SETUP: Z15 the mantissa mask, Z19 1, Z20 0x7F7FFFFE, Z21 0x7F7FFFFF,
// Z14 the magnitude mask, Z18 0xFF, Z24 2^22, Z25 2^21, and from sat: Z17
// the code of zero and negative values (0xFF, or 0 when saturating) and
// Z16 the largest code (0xFF, or 0xFE when saturating).
#define E8SETUP \
	ENCARGS; \
	VPBROADCASTD c512Man<>(SB), Z15; \
	VPBROADCASTD c512One<>(SB), Z19; \
	VPBROADCASTD c512MaxNormM1<>(SB), Z20; \
	VPBROADCASTD c512MaxFinite<>(SB), Z21; \
	VPBROADCASTD c512Abs<>(SB), Z14; \
	VPBROADCASTD c512FF<>(SB), Z18; \
	VPBROADCASTD c512Min<>(SB), Z24; \
	VPBROADCASTD c512Quarter<>(SB), Z25; \
	MOVBLZX      sat+24(FP), AX; \
	NEGL         AX; \
	VPBROADCASTD AX, Z16; \
	VPANDND      Z18, Z16, Z17; \
	VPADDD       Z18, Z16, Z16

// E8SPECIAL replaces the code c in code where u is +0, negative, ±Inf or
// NaN ((u−1) above 0x7F7FFFFE unsigned, not K1): 0xFF for ±Inf and NaN
// (|u| above 0x7F7FFFFF, K2), else Z17.
#define E8SPECIAL(code) \
	VPSUBD    Z19, Z4, Z10; \
	VPCMPUD   $2, Z20, Z10, K1; \
	KNOTW     K1, K1; \
	VMOVDQA32 Z17, K1, code; \
	VPANDD    Z14, Z4, Z10; \
	VPCMPUD   $6, Z21, Z10, K2; \
	VMOVDQA32 Z18, K2, code

// E8RTE: min((u + r) >> 23, largest), r = 2^21 for a float32 subnormal
// (u ≤ 0x7FFFFF, K3), else 2^22 (e8m0RTE).
#define E8RTE(code) \
	VPCMPUD   $2, Z15, Z4, K3; \
	VMOVDQA32 Z24, Z12; \
	VMOVDQA32 Z25, K3, Z12; \
	VPADDD    Z4, Z12, Z12; \
	VPSRLD    $23, Z12, Z12; \
	VPMINUD   Z16, Z12, code; \
	E8SPECIAL(code)

// E8RTZ: min(u >> 23, largest); RTN is the same on the positive values
// that reach it.
#define E8RTZ(code) \
	VPSRLD  $23, Z4, Z12; \
	VPMINUD Z16, Z12, code; \
	E8SPECIAL(code)

// E8RTP: u >> 23, plus one where the mantissa is above t (K4: t = 2^22
// for a subnormal, whose code 0 stands for 2^-127, else 0), then the
// minimum with the largest code (e8m0Directed).
#define E8RTP(code) \
	VPSRLD    $23, Z4, Z12; \
	VPTESTNMD Z12, Z12, K3; \
	VPXORD    Z5, Z5, Z5; \
	VMOVDQA32 Z24, K3, Z5; \
	VPANDD    Z15, Z4, Z6; \
	VPCMPUD   $6, Z5, Z6, K4; \
	VPADDD    Z19, Z12, K4, Z12; \
	VPMINUD   Z16, Z12, code; \
	E8SPECIAL(code)

#define F32LOOP(lane, l, d) ENCLOOP(LDF32, 0, 64, 128, lane, l, d)
#define BFLOOP(lane, l, d) ENCLOOP(LDBF, 0, 32, 64, lane, l, d)
#define HLOOP(lane, l, d) ENCLOOP(LDH, 0, 32, 64, lane, l, d)

// VBMI kernels: table lookups with byte permutes. A 256-entry table of
// 16-bit values is split into two byte planes of 4 vectors each (Z24-Z27
// the low bytes, Z28-Z31 the high bytes); VPERMI2B looks 64 indices up in
// 128 bytes (two vectors, 7 index bits) and bit 7 of each code (K1)
// selects between the two halves of a plane. Every code's value is a
// bfloat16, so the bfloat16 table shifted left by 16 is the float32
// decode, exactly, with no float arithmetic.

// PLANES splits the 256 words at (R8) into the byte planes.
#define PLANES \
	VMOVDQU64 c512EvenB<>(SB), Z16; \
	VMOVDQU64 c512OddB<>(SB), Z17; \
	VMOVDQU64 0(R8), Z24; \
	VMOVDQU64 0(R8), Z28; \
	VPERMT2B  64(R8), Z16, Z24; \
	VPERMT2B  64(R8), Z17, Z28; \
	VMOVDQU64 128(R8), Z25; \
	VMOVDQU64 128(R8), Z29; \
	VPERMT2B  192(R8), Z16, Z25; \
	VPERMT2B  192(R8), Z17, Z29; \
	VMOVDQU64 256(R8), Z26; \
	VMOVDQU64 256(R8), Z30; \
	VPERMT2B  320(R8), Z16, Z26; \
	VPERMT2B  320(R8), Z17, Z30; \
	VMOVDQU64 384(R8), Z27; \
	VMOVDQU64 384(R8), Z31; \
	VPERMT2B  448(R8), Z16, Z27; \
	VPERMT2B  448(R8), Z17, Z31

// LOOK looks the 64 codes in Z0 up in one plane (t0-t3) into dst: codes
// below 128 in t0:t1, the others (K1) in t2:t3. Z5 scratch.
#define LOOK(t0, t1, t2, t3, dst) \
	VMOVDQA64 Z0, dst; \
	VPERMI2B  t1, t0, dst; \
	VMOVDQA64 Z0, Z5; \
	VPERMI2B  t3, t2, Z5; \
	VMOVDQU8  Z5, K1, dst

// LOOK2 loads 64 codes from (SI) permuted by Z23 (VPERMD or VPERMQ as
// perm) and looks them up in both planes: Z1 low bytes, Z2 high bytes.
#define LOOK2(perm) \
	perm     (SI), Z23, Z0; \
	LOOKZ0

// LOAD8 loads 64 one-byte codes for the dequantizers, in c512DTrans
// order; LOAD6 unpacks 64 FP6 codes from 48 packed bytes in that order:
// a 64-byte load (the wrapper makes sure the 16 bytes after the pair are
// in the slice; a masked load would not need that but is twice as slow
// here), VPERMB to put each dword's 3 bytes in place (Z22 c512FP6Idx),
// VPMULTISHIFTQB to pick the 6-bit fields (Z18 c512FP6Shift) and a mask
// (Z17 0x3F).
#define LOAD8 \
	VPERMD (SI), Z23, Z0

#define LOAD6 \
	VMOVDQU8       (SI), Z0; \
	VPERMB         Z0, Z22, Z0; \
	VPMULTISHIFTQB Z0, Z18, Z0; \
	VPANDD         Z17, Z0, Z0

// LOOKZ0 looks the codes in Z0 up in both planes: Z1 low bytes, Z2 high.
#define LOOKZ0 \
	VPMOVB2M Z0, K1; \
	LOOK(Z24, Z25, Z26, Z27, Z1); \
	LOOK(Z28, Z29, Z30, Z31, Z2)

// WIDEN4 makes the float32 of the 64 elements in Z10-Z13 (in order) from
// bfloat16 planes looked up in c512DTrans order: bytes to words, words to
// the high halves of dwords (Z3 is zero).
#define WIDEN4 \
	VPUNPCKLBW Z2, Z1, Z4; \
	VPUNPCKHBW Z2, Z1, Z5; \
	VPUNPCKLWD Z4, Z3, Z10; \
	VPUNPCKHWD Z4, Z3, Z11; \
	VPUNPCKLWD Z5, Z3, Z12; \
	VPUNPCKHWD Z5, Z3, Z13

#define VBMIARGS(perm) \
	MOVQ      dst+0(FP), DI; \
	MOVQ      src+8(FP), SI; \
	MOVQ      n+16(FP), CX; \
	MOVQ      table+24(FP), R8; \
	MOVBQZX   nt+32(FP), R9; \
	VMOVDQU64 perm<>(SB), Z23; \
	PLANES; \
	SHRQ      $6, CX

// BSCALE2 is BSCALE for two blocks: Z6 and K3 for the first, Z7 and K4
// for the second.
#define BSCALE2 \
	BSCALEAT(0, Z6, K3); \
	BSCALEAT(1, Z7, K4)

// SCALE2 multiplies z by the block scale in zs and makes a NaN block (k)
// NaN.
#define SCALE2(zs, k, z) \
	VMULPS    zs, z, z; \
	VMOVDQA32 Z9, k, z

// DQVBMI dequantizes CX pairs of blocks of one-byte codes at SI (scales at
// BX): decode 64 codes by lookup, scale each block's two vectors, out.
#define DQVBMI(load, step, out, label, done) \
	TESTQ CX, CX; \
	JEQ   done; \
label: \
	BSCALE2; \
	load; \
	LOOKZ0; \
	WIDEN4; \
	SCALE2(Z6, K3, Z10); \
	SCALE2(Z6, K3, Z11); \
	SCALE2(Z7, K4, Z12); \
	SCALE2(Z7, K4, Z13); \
	out; \
	ADDQ $step, SI; \
	ADDQ $2, BX; \
	DECQ CX; \
	JNZ  label; \
done: \
	VZEROUPPER; \
	RET

#define VOUTF32(st) \
	st        Z10, 0(DI); \
	st        Z11, 64(DI); \
	st        Z12, 128(DI); \
	st        Z13, 192(DI); \
	ADDQ      $256, DI

#define VOUTBF(st) \
	VPERMT2W  Z11, Z20, Z10; \
	VPERMT2W  Z13, Z20, Z12; \
	st        Z10, 0(DI); \
	st        Z12, 64(DI); \
	ADDQ      $128, DI

#define VOUTHALF(st) \
	VCVTPS2PH $0, Z10, Y10; \
	VCVTPS2PH $0, Z11, Y11; \
	VCVTPS2PH $0, Z12, Y12; \
	VCVTPS2PH $0, Z13, Y13; \
	st        Y10, 0(DI); \
	st        Y11, 32(DI); \
	st        Y12, 64(DI); \
	st        Y13, 96(DI); \
	ADDQ      $128, DI

// VOUTBFX stores the pair's 64 values as bfloat16. Every element value
// is a bfloat16 no smaller than 2^-16 in magnitude (E5M2's least), so
// when both scale codes are at least 17 each product is a bfloat16 too
// (normal in float32, or an infinity), its low half zero, and taking the
// high halves is bfloat16RTE; smaller scales can give float32 subnormals,
// which NBF rounds; exact is a label for that branch.
#define VOUTBFX(exact) \
	MOVBLZX 0(BX), AX; \
	MOVBLZX 1(BX), DX; \
	CMPL    AX, DX; \
	CMOVLHI DX, AX; \
	CMPL    AX, $17; \
	JCC     exact; \
	NBF(Z10); \
	NBF(Z11); \
	NBF(Z12); \
	NBF(Z13); \
exact: \
	VOUTBF(VMOVDQU64)

#define DQVBMIARGS \
	MOVQ         dst+0(FP), DI; \
	MOVQ         scales+8(FP), BX; \
	MOVQ         codes+16(FP), SI; \
	MOVQ         npairs+24(FP), CX; \
	MOVQ         table+32(FP), R8; \
	VMOVDQU64    c512DTrans<>(SB), Z23; \
	PLANES; \
	VPXORD       Z3, Z3, Z3; \
	VPBROADCASTD c512NaN<>(SB), Z9; \
	VPBROADCASTD c512One<>(SB), Z19; \
	VPBROADCASTD c512Round<>(SB), Z21; \
	VMOVDQU32    c512OddW<>(SB), Z20

#define FP6ARGS \
	DQVBMIARGS; \
	VMOVDQU64    c512FP6Idx<>(SB), Z22; \
	VMOVDQU64    c512FP6Shift<>(SB), Z18; \
	VPBROADCASTD c512Low6<>(SB), Z17

// func decodeFF32AVX512(dst unsafe.Pointer, src *byte, n int, c *decConsts)
TEXT ·decodeFF32AVX512(SB), NOSPLIT, $0-32
	DECARGS
	FSETUP
	DECLOOP(DECF, OUTF32, dff32loop, dff32done)

// func decodeFBF16AVX512(dst unsafe.Pointer, src *byte, n int, c *decConsts)
TEXT ·decodeFBF16AVX512(SB), NOSPLIT, $0-32
	DECARGS
	FSETUP
	DECLOOP(DECF, OUTBF, dfbfloop, dfbfdone)

// func decodeFHalfAVX512(dst unsafe.Pointer, src *byte, n int, c *decConsts)
TEXT ·decodeFHalfAVX512(SB), NOSPLIT, $0-32
	DECARGS
	FSETUP
	DECLOOP(DECF, OUTHALF, dfhloop, dfhdone)

// func decodeIF32AVX512(dst unsafe.Pointer, src *byte, n int, c *decConsts)
TEXT ·decodeIF32AVX512(SB), NOSPLIT, $0-32
	DECARGS
	DECLOOP(DECI, OUTF32, dif32loop, dif32done)

// func decodeIBF16AVX512(dst unsafe.Pointer, src *byte, n int, c *decConsts)
TEXT ·decodeIBF16AVX512(SB), NOSPLIT, $0-32
	DECARGS
	DECLOOP(DECI, OUTBF, dibfloop, dibfdone)

// func decodeIHalfAVX512(dst unsafe.Pointer, src *byte, n int, c *decConsts)
TEXT ·decodeIHalfAVX512(SB), NOSPLIT, $0-32
	DECARGS
	DECLOOP(DECI, OUTHALF, dihloop, dihdone)

// func decodeEF32AVX512(dst unsafe.Pointer, src *byte, n int, c *decConsts)
TEXT ·decodeEF32AVX512(SB), NOSPLIT, $0-32
	DECARGS
	DECLOOP(DECE, OUTF32, def32loop, def32done)

// func decodeEBF16AVX512(dst unsafe.Pointer, src *byte, n int, c *decConsts)
TEXT ·decodeEBF16AVX512(SB), NOSPLIT, $0-32
	DECARGS
	DECLOOP(DECE, OUTBF, debfloop, debfdone)

// func decodeEHalfAVX512(dst unsafe.Pointer, src *byte, n int, c *decConsts)
TEXT ·decodeEHalfAVX512(SB), NOSPLIT, $0-32
	DECARGS
	DECLOOP(DECE, OUTHALF, dehloop, dehdone)

// func dequantFF32AVX512(dst unsafe.Pointer, scales, codes *byte, nblocks int, c *decConsts)
TEXT ·dequantFF32AVX512(SB), NOSPLIT, $0-40
	DQARGS
	FSETUP
	DQLOOP(DECF, OUTF32, qff32loop, qff32done)

// func dequantFBF16AVX512(dst unsafe.Pointer, scales, codes *byte, nblocks int, c *decConsts)
TEXT ·dequantFBF16AVX512(SB), NOSPLIT, $0-40
	DQARGS
	FSETUP
	DQLOOP(DECF, NBFOUT, qfbfloop, qfbfdone)

// func dequantFHalfAVX512(dst unsafe.Pointer, scales, codes *byte, nblocks int, c *decConsts)
TEXT ·dequantFHalfAVX512(SB), NOSPLIT, $0-40
	DQARGS
	FSETUP
	DQLOOP(DECF, OUTHALF, qfhloop, qfhdone)

// func dequantIF32AVX512(dst unsafe.Pointer, scales, codes *byte, nblocks int, c *decConsts)
TEXT ·dequantIF32AVX512(SB), NOSPLIT, $0-40
	DQARGS
	DQLOOP(DECI, OUTF32, qif32loop, qif32done)

// func dequantIBF16AVX512(dst unsafe.Pointer, scales, codes *byte, nblocks int, c *decConsts)
TEXT ·dequantIBF16AVX512(SB), NOSPLIT, $0-40
	DQARGS
	DQLOOP(DECI, NBFOUT, qibfloop, qibfdone)

// func dequantIHalfAVX512(dst unsafe.Pointer, scales, codes *byte, nblocks int, c *decConsts)
TEXT ·dequantIHalfAVX512(SB), NOSPLIT, $0-40
	DQARGS
	DQLOOP(DECI, OUTHALF, qihloop, qihdone)

// func dequantFP4F32AVX512(dst unsafe.Pointer, scales, elements *byte, nblocks int, table *[256]float32)
TEXT ·dequantFP4F32AVX512(SB), NOSPLIT, $0-40
	FP4ARGS
	FP4LOOP(NOTAB, FP4F32, q4f32loop, q4f32done)

// func dequantFP4BF16AVX512(dst unsafe.Pointer, scales, elements *byte, nblocks int, table *[256]float32)
TEXT ·dequantFP4BF16AVX512(SB), NOSPLIT, $0-40
	FP4ARGS
	FP4LOOP(FP4BFTAB, FP4W, q4bfloop, q4bfdone)

// func dequantFP4HalfAVX512(dst unsafe.Pointer, scales, elements *byte, nblocks int, table *[256]float32)
TEXT ·dequantFP4HalfAVX512(SB), NOSPLIT, $0-40
	FP4ARGS
	FP4LOOP(FP4HTAB, FP4W, q4hloop, q4hdone)

// func encodeRTEF32AVX512(dst *byte, src unsafe.Pointer, n int, c *rteConsts)
TEXT ·encodeRTEF32AVX512(SB), NOSPLIT, $0-32
	RNESETUP
	F32LOOP(RNE16, encodertef32avx512loop, encodertef32avx512done)

// func encodeRTEBF16AVX512(dst *byte, src unsafe.Pointer, n int, c *rteConsts)
TEXT ·encodeRTEBF16AVX512(SB), NOSPLIT, $0-32
	RNESETUP
	BFLOOP(RNE16, encodertebf16avx512loop, encodertebf16avx512done)

// func encodeRTEHalfAVX512(dst *byte, src unsafe.Pointer, n int, c *rteConsts)
TEXT ·encodeRTEHalfAVX512(SB), NOSPLIT, $0-32
	RNESETUP
	HLOOP(RNE16, encodertehalfavx512loop, encodertehalfavx512done)

// func encodeTableF32AVX512(dst *byte, src unsafe.Pointer, n int, codes *byte, shift uint64, low uint32)
TEXT ·encodeTableF32AVX512(SB), NOSPLIT, $0-44
	TABSETUP
	F32LOOP(TKEY16, encodetablef32avx512loop, encodetablef32avx512done)

// func encodeTableBF16AVX512(dst *byte, src unsafe.Pointer, n int, codes *byte, shift uint64, low uint32)
TEXT ·encodeTableBF16AVX512(SB), NOSPLIT, $0-44
	TABSETUP
	BFLOOP(TKEY16, encodetablebf16avx512loop, encodetablebf16avx512done)

// func encodeTableHalfAVX512(dst *byte, src unsafe.Pointer, n int, codes *byte, shift uint64, low uint32)
TEXT ·encodeTableHalfAVX512(SB), NOSPLIT, $0-44
	TABSETUP
	HLOOP(TKEY16, encodetablehalfavx512loop, encodetablehalfavx512done)

// func encodeINT8RTEF32AVX512(dst *byte, src unsafe.Pointer, n int)
TEXT ·encodeINT8RTEF32AVX512(SB), NOSPLIT, $0-24
	I8SETUP
	F32LOOP(I8RTE, encodeint8rtef32avx512loop, encodeint8rtef32avx512done)

// func encodeINT8RTEBF16AVX512(dst *byte, src unsafe.Pointer, n int)
TEXT ·encodeINT8RTEBF16AVX512(SB), NOSPLIT, $0-24
	I8SETUP
	BFLOOP(I8RTE, encodeint8rtebf16avx512loop, encodeint8rtebf16avx512done)

// func encodeINT8RTEHalfAVX512(dst *byte, src unsafe.Pointer, n int)
TEXT ·encodeINT8RTEHalfAVX512(SB), NOSPLIT, $0-24
	I8SETUP
	HLOOP(I8RTE, encodeint8rtehalfavx512loop, encodeint8rtehalfavx512done)

// func encodeINT8RTZF32AVX512(dst *byte, src unsafe.Pointer, n int)
TEXT ·encodeINT8RTZF32AVX512(SB), NOSPLIT, $0-24
	I8SETUP
	F32LOOP(I8RTZ, encodeint8rtzf32avx512loop, encodeint8rtzf32avx512done)

// func encodeINT8RTZBF16AVX512(dst *byte, src unsafe.Pointer, n int)
TEXT ·encodeINT8RTZBF16AVX512(SB), NOSPLIT, $0-24
	I8SETUP
	BFLOOP(I8RTZ, encodeint8rtzbf16avx512loop, encodeint8rtzbf16avx512done)

// func encodeINT8RTZHalfAVX512(dst *byte, src unsafe.Pointer, n int)
TEXT ·encodeINT8RTZHalfAVX512(SB), NOSPLIT, $0-24
	I8SETUP
	HLOOP(I8RTZ, encodeint8rtzhalfavx512loop, encodeint8rtzhalfavx512done)

// func encodeINT8RTPF32AVX512(dst *byte, src unsafe.Pointer, n int)
TEXT ·encodeINT8RTPF32AVX512(SB), NOSPLIT, $0-24
	I8SETUP
	F32LOOP(I8RTP, encodeint8rtpf32avx512loop, encodeint8rtpf32avx512done)

// func encodeINT8RTPBF16AVX512(dst *byte, src unsafe.Pointer, n int)
TEXT ·encodeINT8RTPBF16AVX512(SB), NOSPLIT, $0-24
	I8SETUP
	BFLOOP(I8RTP, encodeint8rtpbf16avx512loop, encodeint8rtpbf16avx512done)

// func encodeINT8RTPHalfAVX512(dst *byte, src unsafe.Pointer, n int)
TEXT ·encodeINT8RTPHalfAVX512(SB), NOSPLIT, $0-24
	I8SETUP
	HLOOP(I8RTP, encodeint8rtphalfavx512loop, encodeint8rtphalfavx512done)

// func encodeINT8RTNF32AVX512(dst *byte, src unsafe.Pointer, n int)
TEXT ·encodeINT8RTNF32AVX512(SB), NOSPLIT, $0-24
	I8SETUP
	F32LOOP(I8RTN, encodeint8rtnf32avx512loop, encodeint8rtnf32avx512done)

// func encodeINT8RTNBF16AVX512(dst *byte, src unsafe.Pointer, n int)
TEXT ·encodeINT8RTNBF16AVX512(SB), NOSPLIT, $0-24
	I8SETUP
	BFLOOP(I8RTN, encodeint8rtnbf16avx512loop, encodeint8rtnbf16avx512done)

// func encodeINT8RTNHalfAVX512(dst *byte, src unsafe.Pointer, n int)
TEXT ·encodeINT8RTNHalfAVX512(SB), NOSPLIT, $0-24
	I8SETUP
	HLOOP(I8RTN, encodeint8rtnhalfavx512loop, encodeint8rtnhalfavx512done)

// func encodeE8M0RTEF32AVX512(dst *byte, src unsafe.Pointer, n int, sat bool)
TEXT ·encodeE8M0RTEF32AVX512(SB), NOSPLIT, $0-25
	E8SETUP
	F32LOOP(E8RTE, encodee8m0rtef32avx512loop, encodee8m0rtef32avx512done)

// func encodeE8M0RTEBF16AVX512(dst *byte, src unsafe.Pointer, n int, sat bool)
TEXT ·encodeE8M0RTEBF16AVX512(SB), NOSPLIT, $0-25
	E8SETUP
	BFLOOP(E8RTE, encodee8m0rtebf16avx512loop, encodee8m0rtebf16avx512done)

// func encodeE8M0RTEHalfAVX512(dst *byte, src unsafe.Pointer, n int, sat bool)
TEXT ·encodeE8M0RTEHalfAVX512(SB), NOSPLIT, $0-25
	E8SETUP
	HLOOP(E8RTE, encodee8m0rtehalfavx512loop, encodee8m0rtehalfavx512done)

// func encodeE8M0RTZF32AVX512(dst *byte, src unsafe.Pointer, n int, sat bool)
TEXT ·encodeE8M0RTZF32AVX512(SB), NOSPLIT, $0-25
	E8SETUP
	F32LOOP(E8RTZ, encodee8m0rtzf32avx512loop, encodee8m0rtzf32avx512done)

// func encodeE8M0RTZBF16AVX512(dst *byte, src unsafe.Pointer, n int, sat bool)
TEXT ·encodeE8M0RTZBF16AVX512(SB), NOSPLIT, $0-25
	E8SETUP
	BFLOOP(E8RTZ, encodee8m0rtzbf16avx512loop, encodee8m0rtzbf16avx512done)

// func encodeE8M0RTZHalfAVX512(dst *byte, src unsafe.Pointer, n int, sat bool)
TEXT ·encodeE8M0RTZHalfAVX512(SB), NOSPLIT, $0-25
	E8SETUP
	HLOOP(E8RTZ, encodee8m0rtzhalfavx512loop, encodee8m0rtzhalfavx512done)

// func encodeE8M0RTPF32AVX512(dst *byte, src unsafe.Pointer, n int, sat bool)
TEXT ·encodeE8M0RTPF32AVX512(SB), NOSPLIT, $0-25
	E8SETUP
	F32LOOP(E8RTP, encodee8m0rtpf32avx512loop, encodee8m0rtpf32avx512done)

// func encodeE8M0RTPBF16AVX512(dst *byte, src unsafe.Pointer, n int, sat bool)
TEXT ·encodeE8M0RTPBF16AVX512(SB), NOSPLIT, $0-25
	E8SETUP
	BFLOOP(E8RTP, encodee8m0rtpbf16avx512loop, encodee8m0rtpbf16avx512done)

// func encodeE8M0RTPHalfAVX512(dst *byte, src unsafe.Pointer, n int, sat bool)
TEXT ·encodeE8M0RTPHalfAVX512(SB), NOSPLIT, $0-25
	E8SETUP
	HLOOP(E8RTP, encodee8m0rtphalfavx512loop, encodee8m0rtphalfavx512done)

// func decodeTab16VBMI(dst unsafe.Pointer, src *byte, n int, table *[258]uint16, nt bool)
//
// Codes to 16-bit values by the byte-plane lookup; n is a multiple of 64.
TEXT ·decodeTab16VBMI(SB), NOSPLIT, $0-33
	VBMIARGS(c512QPerm)
	JEQ dt16done

dt16loop:
	LOOK2(VPERMQ)
	VPUNPCKLBW Z2, Z1, Z3
	VPUNPCKHBW Z2, Z1, Z4
	TESTQ      R9, R9
	JNZ        dt16nt
	VMOVDQU64  Z3, 0(DI)
	VMOVDQU64  Z4, 64(DI)
	JMP        dt16next

dt16nt:
	VMOVNTDQ Z3, 0(DI)
	VMOVNTDQ Z4, 64(DI)

dt16next:
	ADDQ $64, SI
	ADDQ $128, DI
	DECQ CX
	JNZ  dt16loop

dt16done:
	SFENCE
	VZEROUPPER
	RET

// func decodeTab32VBMI(dst unsafe.Pointer, src *byte, n int, table *[258]uint16, nt bool)
//
// Codes to float32 by looking up their bfloat16 values (table is the
// format's bfloat16 decode table) and widening; n is a multiple of 64.
TEXT ·decodeTab32VBMI(SB), NOSPLIT, $0-33
	VBMIARGS(c512DTrans)
	VPXORD Z3, Z3, Z3
	JEQ    dt32done

dt32loop:
	LOOK2(VPERMD)
	WIDEN4
	TESTQ     R9, R9
	JNZ       dt32nt
	VOUTF32(VMOVDQU64)
	JMP       dt32next

dt32nt:
	VOUTF32(VMOVNTDQ)

dt32next:
	ADDQ $64, SI
	DECQ CX
	JNZ  dt32loop

dt32done:
	SFENCE
	VZEROUPPER
	RET

// func dequantTabF32VBMI(dst unsafe.Pointer, scales, codes *byte, npairs int, table *[258]uint16)
TEXT ·dequantTabF32VBMI(SB), NOSPLIT, $0-40
	DQVBMIARGS
	DQVBMI(LOAD8, 64, VOUTF32(VMOVDQU64), qtf32loop, qtf32done)

// func dequantTabBF16VBMI(dst unsafe.Pointer, scales, codes *byte, npairs int, table *[258]uint16)
TEXT ·dequantTabBF16VBMI(SB), NOSPLIT, $0-40
	DQVBMIARGS
	DQVBMI(LOAD8, 64, VOUTBFX(qtbfexact), qtbfloop, qtbfdone)

// func dequantTabHalfVBMI(dst unsafe.Pointer, scales, codes *byte, npairs int, table *[258]uint16)
TEXT ·dequantTabHalfVBMI(SB), NOSPLIT, $0-40
	DQVBMIARGS
	DQVBMI(LOAD8, 64, VOUTHALF(VMOVDQU64), qthloop, qthdone)

// func encodeDirRTZF32AVX512(dst *byte, src unsafe.Pointer, n int, c *rteConsts, inc uint32)
TEXT ·encodeDirRTZF32AVX512(SB), NOSPLIT, $0-36
	DIRSETUP
	F32LOOP(DIRRTZ, encodedirrtzf32avx512loop, encodedirrtzf32avx512done)

// func encodeDirRTZBF16AVX512(dst *byte, src unsafe.Pointer, n int, c *rteConsts, inc uint32)
TEXT ·encodeDirRTZBF16AVX512(SB), NOSPLIT, $0-36
	DIRSETUP
	BFLOOP(DIRRTZ, encodedirrtzbf16avx512loop, encodedirrtzbf16avx512done)

// func encodeDirRTZHalfAVX512(dst *byte, src unsafe.Pointer, n int, c *rteConsts, inc uint32)
TEXT ·encodeDirRTZHalfAVX512(SB), NOSPLIT, $0-36
	DIRSETUP
	HLOOP(DIRRTZ, encodedirrtzhalfavx512loop, encodedirrtzhalfavx512done)

// func encodeDirRTPF32AVX512(dst *byte, src unsafe.Pointer, n int, c *rteConsts, inc uint32)
TEXT ·encodeDirRTPF32AVX512(SB), NOSPLIT, $0-36
	DIRSETUP
	F32LOOP(DIRRTP, encodedirrtpf32avx512loop, encodedirrtpf32avx512done)

// func encodeDirRTPBF16AVX512(dst *byte, src unsafe.Pointer, n int, c *rteConsts, inc uint32)
TEXT ·encodeDirRTPBF16AVX512(SB), NOSPLIT, $0-36
	DIRSETUP
	BFLOOP(DIRRTP, encodedirrtpbf16avx512loop, encodedirrtpbf16avx512done)

// func encodeDirRTPHalfAVX512(dst *byte, src unsafe.Pointer, n int, c *rteConsts, inc uint32)
TEXT ·encodeDirRTPHalfAVX512(SB), NOSPLIT, $0-36
	DIRSETUP
	HLOOP(DIRRTP, encodedirrtphalfavx512loop, encodedirrtphalfavx512done)

// func encodeDirRTNF32AVX512(dst *byte, src unsafe.Pointer, n int, c *rteConsts, inc uint32)
TEXT ·encodeDirRTNF32AVX512(SB), NOSPLIT, $0-36
	DIRSETUP
	F32LOOP(DIRRTN, encodedirrtnf32avx512loop, encodedirrtnf32avx512done)

// func encodeDirRTNBF16AVX512(dst *byte, src unsafe.Pointer, n int, c *rteConsts, inc uint32)
TEXT ·encodeDirRTNBF16AVX512(SB), NOSPLIT, $0-36
	DIRSETUP
	BFLOOP(DIRRTN, encodedirrtnbf16avx512loop, encodedirrtnbf16avx512done)

// func encodeDirRTNHalfAVX512(dst *byte, src unsafe.Pointer, n int, c *rteConsts, inc uint32)
TEXT ·encodeDirRTNHalfAVX512(SB), NOSPLIT, $0-36
	DIRSETUP
	HLOOP(DIRRTN, encodedirrtnhalfavx512loop, encodedirrtnhalfavx512done)

// The MXFP6 dequantizers: DQVBMI with the codes unpacked in registers
// (LOAD6), 48 bytes per pair of blocks.

// func dequantFP6F32VBMI(dst unsafe.Pointer, scales, codes *byte, npairs int, table *[258]uint16)
TEXT ·dequantFP6F32VBMI(SB), NOSPLIT, $0-40
	FP6ARGS
	DQVBMI(LOAD6, 48, VOUTF32(VMOVDQU64), q6f32loop, q6f32done)

// func dequantFP6BF16VBMI(dst unsafe.Pointer, scales, codes *byte, npairs int, table *[258]uint16)
TEXT ·dequantFP6BF16VBMI(SB), NOSPLIT, $0-40
	FP6ARGS
	DQVBMI(LOAD6, 48, VOUTBFX(q6bfexact), q6bfloop, q6bfdone)

// func dequantFP6HalfVBMI(dst unsafe.Pointer, scales, codes *byte, npairs int, table *[258]uint16)
TEXT ·dequantFP6HalfVBMI(SB), NOSPLIT, $0-40
	FP6ARGS
	DQVBMI(LOAD6, 48, VOUTHALF(VMOVDQU64), q6hloop, q6hdone)
