#include "textflag.h"
#include "go_asm.h"

// AVX2 directed-mode encoders of the float formats; see enc16_amd64.go.
// Each takes a count that is a positive multiple of 32 (the wrapper
// checks) and loops over groups of 32 inputs.

DATA encAbs<>+0(SB)/4, $0x7fffffff
GLOBL encAbs<>(SB), RODATA|NOPTR, $4
DATA encInf<>+0(SB)/4, $0x7f800000
GLOBL encInf<>(SB), RODATA|NOPTR, $4

// Dword order after VPACKUSDW and VPACKUSWB of four vectors, undone.
DATA encPackPerm<>+0(SB)/8, $0x0000000400000000
DATA encPackPerm<>+8(SB)/8, $0x0000000500000001
DATA encPackPerm<>+16(SB)/8, $0x0000000600000002
DATA encPackPerm<>+24(SB)/8, $0x0000000700000003
GLOBL encPackPerm<>(SB), RODATA|NOPTR, $32

// The loads put 8 inputs at off(SI) in Y4 as float32 bits, exactly: a
// bfloat16 is the top half of a float32, and VCVTPH2PS widens binary16
// exactly (it quiets a signalling NaN, which no encoder can observe: a
// NaN's payload decides nothing).
#define LDF32(off) VMOVDQU off(SI), Y4
#define LDBF(off) \
	VPMOVZXWD off(SI), Y4; \
	VPSLLD    $16, Y4, Y4
#define LDH(off) VCVTPH2PS off(SI), Y4

// DIR8 rounds the 8 float32 bit patterns in Y4 to codes of a float format
// in a directed mode, in the dwords of code. Y15 marks the lanes whose
// magnitude rounds up (the sign of u XOR flip, ANDed with enable). A
// normal result is the magnitude plus inc on those lanes (a ceiling),
// shifted to the code's mantissa position, minus the exponent rebias; a
// subnormal one is the magnitude times scale (exact: a power of two),
// rounded up by VROUNDPS on those lanes, truncated by VCVTTPS2DQ on all.
// Both are computed and one selected, as the mix is unpredictable.
// Rounding is on the unbounded grid: the minimum with the limit then gives
// saturation or the overflow code, as the scalar encoder checks the range
// on the rounded value. Then the sign, and NaN inputs replaced by the
// format's NaN code, as in RNE8. R8 the rteConsts, R10 the dirConsts, X12
// the rounding shift, X11 the sign shift, Y14 the magnitude mask, Y9 the
// Inf bits, Y10 flip; Y4–Y8 and Y15 scratch.
#define DIR8(code) \
	VPAND      Y14, Y4, Y5; \
	VPXOR      Y10, Y4, Y15; \
	VPSRAD     $31, Y15, Y15; \
	VPAND      dirConsts_enable(R10), Y15, Y15; \
	VPAND      dirConsts_inc(R10), Y15, Y6; \
	VPADDD     Y5, Y6, Y6; \
	VPSRLD     X12, Y6, Y6; \
	VPSUBD     rteConsts_rebias(R8), Y6, Y6; \
	VMULPS     dirConsts_scale(R10), Y5, Y7; \
	VROUNDPS   $2, Y7, Y8; \
	VBLENDVPS  Y15, Y8, Y7, Y7; \
	VCVTTPS2DQ Y7, Y7; \
	VPCMPGTD   rteConsts_minNormalM1(R8), Y5, Y8; \
	VPBLENDVB  Y8, Y6, Y7, code; \
	VPMINUD    rteConsts_limit(R8), code, code; \
	VPSRLD     X11, Y4, Y4; \
	VPAND      rteConsts_signBit(R8), Y4, Y4; \
	VPOR       Y4, code, code; \
	VPCMPGTD   Y9, Y5, Y8; \
	VPAND      rteConsts_nanSign(R8), Y4, Y4; \
	VPOR       rteConsts_nanCode(R8), Y4, Y4; \
	VPBLENDVB  Y8, Y4, code, code

// DIRSETUP loads the arguments (dst, src, n, c, d) and DIR8's constants;
// CX becomes the group count.
#define DIRSETUP \
	MOVQ         dst+0(FP), DI; \
	MOVQ         src+8(FP), SI; \
	MOVQ         n+16(FP), CX; \
	MOVQ         c+24(FP), R8; \
	MOVQ         d+32(FP), R10; \
	VMOVQ        rteConsts_shift(R8), X12; \
	VMOVQ        rteConsts_signShift(R8), X11; \
	VPBROADCASTD encAbs<>(SB), Y14; \
	VPBROADCASTD encInf<>(SB), Y9; \
	VMOVDQU      dirConsts_flip(R10), Y10; \
	VMOVDQU      encPackPerm<>(SB), Y13; \
	SHRQ         $5, CX

// DIRLOOP encodes CX groups of 32 inputs loaded by load at SI (step
// bytes apart, the four vectors w bytes apart) and packs the codes to
// 32 bytes at DI.
#define DIRLOOP(load, w, step, label, done) \
	JEQ done; \
label: \
	load(0); \
	DIR8(Y0); \
	load(w); \
	DIR8(Y1); \
	load(2*w); \
	DIR8(Y2); \
	load(3*w); \
	DIR8(Y3); \
	VPACKUSDW Y1, Y0, Y0; \
	VPACKUSDW Y3, Y2, Y2; \
	VPACKUSWB Y2, Y0, Y0; \
	VPERMD    Y0, Y13, Y0; \
	VMOVDQU   Y0, (DI); \
	ADDQ      $step, SI; \
	ADDQ      $32, DI; \
	DECQ      CX; \
	JNZ       label; \
done: \
	VZEROUPPER; \
	RET

// func encodeDirF32AVX2(dst *byte, src *uint32, n int, c *rteConsts, d *dirConsts)
TEXT ·encodeDirF32AVX2(SB), NOSPLIT, $0-40
	DIRSETUP
	DIRLOOP(LDF32, 32, 128, edf32loop, edf32done)

// func encodeDirBF16AVX2(dst *byte, src *uint16, n int, c *rteConsts, d *dirConsts)
TEXT ·encodeDirBF16AVX2(SB), NOSPLIT, $0-40
	DIRSETUP
	DIRLOOP(LDBF, 16, 64, edbf16loop, edbf16done)

// func encodeDirHalfAVX2(dst *byte, src *uint16, n int, c *rteConsts, d *dirConsts)
TEXT ·encodeDirHalfAVX2(SB), NOSPLIT, $0-40
	DIRSETUP
	DIRLOOP(LDH, 16, 64, edhalfloop, edhalfdone)

DATA e5hAbs<>+0(SB)/4, $0x7fff7fff
GLOBL e5hAbs<>(SB), RODATA|NOPTR, $4
DATA e5hOne<>+0(SB)/4, $0x00010001
GLOBL e5hOne<>(SB), RODATA|NOPTR, $4
DATA e5hHalf<>+0(SB)/4, $0x007f007f
GLOBL e5hHalf<>(SB), RODATA|NOPTR, $4
DATA e5hSign<>+0(SB)/4, $0x00800080
GLOBL e5hSign<>(SB), RODATA|NOPTR, $4
DATA e5hInf<>+0(SB)/4, $0x7c007c00
GLOBL e5hInf<>(SB), RODATA|NOPTR, $4

// INCRTE puts in Y6 RTE's increment for the magnitudes in Y5: 0x7F plus
// the lsb kept (bit 8), which gives ties to even.
#define INCRTE \
	VPSRLW $8, Y5, Y6; \
	VPAND  Y13, Y6, Y6; \
	VPADDW Y12, Y6, Y6

// INCDIR puts in Y6 the directed modes' increment: inc (0xFF, or 0 for
// RTZ) where the sign of h XOR flip is set (the lanes that round up).
#define INCDIR \
	VPXOR  Y10, Y4, Y6; \
	VPSRAW $15, Y6, Y6; \
	VPAND  Y11, Y6, Y6

// E5H16 encodes the 16 binary16 patterns at off(SI) to E5M2 in the words
// of code (see enc16_amd64.go). Y14 0x7FFF, Y9 binary16 +Inf, Y8 the
// limit, Y7 0x80, Y3 nanSign, Y2 nanCode; Y4–Y6 scratch.
#define E5H16(inc, off, code) \
	VMOVDQU   off(SI), Y4; \
	VPAND     Y14, Y4, Y5; \
	inc; \
	VPADDW    Y5, Y6, Y6; \
	VPSRLW    $8, Y6, Y6; \
	VPMINUW   Y8, Y6, Y6; \
	VPSRLW    $8, Y4, Y4; \
	VPAND     Y7, Y4, Y4; \
	VPOR      Y4, Y6, Y6; \
	VPCMPGTW  Y9, Y5, Y5; \
	VPAND     Y3, Y4, Y4; \
	VPOR      Y2, Y4, Y4; \
	VPBLENDVB Y5, Y4, Y6, code

// E5HLOOP loads the arguments and constants and encodes CX inputs (a
// multiple of 32) to 32 bytes a group: VPACKUSWB packs the two vectors'
// words lane by lane, VPERMQ restores element order.
#define E5HLOOP(inc, loop, done) \
	MOVQ         dst+0(FP), DI; \
	MOVQ         src+8(FP), SI; \
	MOVQ         n+16(FP), CX; \
	MOVQ         c+24(FP), R8; \
	VMOVDQU      e5hConsts_nanCode(R8), Y2; \
	VMOVDQU      e5hConsts_nanSign(R8), Y3; \
	VPBROADCASTD e5hSign<>(SB), Y7; \
	VMOVDQU      e5hConsts_limit(R8), Y8; \
	VPBROADCASTD e5hInf<>(SB), Y9; \
	VMOVDQU      e5hConsts_flip(R8), Y10; \
	VMOVDQU      e5hConsts_inc(R8), Y11; \
	VPBROADCASTD e5hHalf<>(SB), Y12; \
	VPBROADCASTD e5hOne<>(SB), Y13; \
	VPBROADCASTD e5hAbs<>(SB), Y14; \
	SHRQ         $5, CX; \
	JEQ          done; \
loop: \
	E5H16(inc, 0, Y0); \
	E5H16(inc, 32, Y1); \
	VPACKUSWB Y1, Y0, Y0; \
	VPERMQ    $0xd8, Y0, Y0; \
	VMOVDQU   Y0, (DI); \
	ADDQ      $64, SI; \
	ADDQ      $32, DI; \
	DECQ      CX; \
	JNZ       loop; \
done: \
	VZEROUPPER; \
	RET

// func encodeE5M2RTEHalfAVX2(dst *byte, src *uint16, n int, c *e5hConsts)
TEXT ·encodeE5M2RTEHalfAVX2(SB), NOSPLIT, $0-32
	E5HLOOP(INCRTE, e5rteloop, e5rtedone)

// func encodeE5M2DirHalfAVX2(dst *byte, src *uint16, n int, c *e5hConsts)
TEXT ·encodeE5M2DirHalfAVX2(SB), NOSPLIT, $0-32
	E5HLOOP(INCDIR, e5dirloop, e5dirdone)

DATA w16Hi<>+0(SB)/4, $0xffff0000
GLOBL w16Hi<>(SB), RODATA|NOPTR, $4

// RNEW16 encodes the 16 bfloat16 or binary16 patterns at off(SI) in the
// words of code (see encodeRTEW16AVX2 in enc16_amd64.go); even and odd
// widen the even and odd magnitudes in Y5 to float32 in the dwords of Y7
// and Y8. The subnormal codes are
// joined by VPBLENDW, not OR: an even word's dword holds garbage above
// the code where the value is normal. R8 the w16Consts, X12
// the rounding shift, X11 the sign shift, Y14 0x7FFF, Y13 ones (words),
// Y15 0xFFFF0000, Y10 the magic number, Y9 +Inf; Y4–Y8 scratch.
#define RNEW16(even, odd, off, code) \
	VMOVDQU   off(SI), Y4; \
	VPAND     Y14, Y4, Y5; \
	VPSRLW    X12, Y5, Y6; \
	VPAND     Y13, Y6, Y6; \
	VPADDW    Y5, Y6, Y6; \
	VPADDW    w16Consts_half(R8), Y6, Y6; \
	VPSRLW    X12, Y6, Y6; \
	VPSUBW    w16Consts_rebias(R8), Y6, Y6; \
	even; \
	VADDPS    Y10, Y7, Y7; \
	VPSUBD    Y10, Y7, Y7; \
	odd; \
	VADDPS    Y10, Y8, Y8; \
	VPSUBD    Y10, Y8, Y8; \
	VPSLLD    $16, Y8, Y8; \
	VPBLENDW  $0xaa, Y8, Y7, Y7; \
	VPCMPGTW  w16Consts_minNormalM1(R8), Y5, Y8; \
	VPBLENDVB Y8, Y6, Y7, code; \
	VPMINUW   w16Consts_limit(R8), code, code; \
	VPSRLW    X11, Y4, Y4; \
	VPAND     w16Consts_signBit(R8), Y4, Y4; \
	VPOR      Y4, code, code; \
	VPCMPGTW  Y9, Y5, Y8; \
	VPAND     w16Consts_nanSign(R8), Y4, Y4; \
	VPOR      w16Consts_nanCode(R8), Y4, Y4; \
	VPBLENDVB Y8, Y4, code, code

// A bfloat16 is the top half of a float32: the even word shifted up, the
// odd one with the low half cleared. A binary16 magnitude shifted left by
// 13 is its value times 2^-112 as a float32 (a subnormal one included),
// which the magic number (scaled by 2^-112 too) rounds alike.
#define EVENBF VPSLLD $16, Y5, Y7
#define ODDBF VPAND Y15, Y5, Y8
#define EVENH \
	VPAND  w16Lo<>(SB), Y5, Y7; \
	VPSLLD $13, Y7, Y7
#define ODDH \
	VPAND  Y15, Y5, Y8; \
	VPSRLD $3, Y8, Y8

DATA w16Lo<>+0(SB)/8, $0x0000ffff0000ffff
DATA w16Lo<>+8(SB)/8, $0x0000ffff0000ffff
DATA w16Lo<>+16(SB)/8, $0x0000ffff0000ffff
DATA w16Lo<>+24(SB)/8, $0x0000ffff0000ffff
GLOBL w16Lo<>(SB), RODATA|NOPTR, $32

// W16LOOP loads the arguments and constants and encodes CX inputs in
// groups of 32: two vectors of 16 codes in words, packed to bytes lane by
// lane and put back in element order.
#define W16LOOP(even, odd, loop, done) \
	MOVQ         dst+0(FP), DI; \
	MOVQ         src+8(FP), SI; \
	MOVQ         n+16(FP), CX; \
	MOVQ         c+24(FP), R8; \
	VMOVQ        w16Consts_shift(R8), X12; \
	VMOVQ        w16Consts_signShift(R8), X11; \
	VPBROADCASTD e5hAbs<>(SB), Y14; \
	VPBROADCASTD e5hOne<>(SB), Y13; \
	VPBROADCASTD w16Hi<>(SB), Y15; \
	VMOVDQU      w16Consts_magic(R8), Y10; \
	VMOVDQU      w16Consts_inf(R8), Y9; \
	SHRQ         $5, CX; \
	JEQ          done; \
loop: \
	RNEW16(even, odd, 0, Y0); \
	RNEW16(even, odd, 32, Y1); \
	VPACKUSWB Y1, Y0, Y0; \
	VPERMQ    $0xd8, Y0, Y0; \
	VMOVDQU   Y0, (DI); \
	ADDQ      $64, SI; \
	ADDQ      $32, DI; \
	DECQ      CX; \
	JNZ       loop; \
done: \
	VZEROUPPER; \
	RET

// func encodeRTEW16AVX2(dst *byte, src *uint16, n int, c *w16Consts)
TEXT ·encodeRTEW16AVX2(SB), NOSPLIT, $0-32
	W16LOOP(EVENBF, ODDBF, ew16loop, ew16done)

// func encodeRTEWHalfAVX2(dst *byte, src *uint16, n int, c *w16Consts)
TEXT ·encodeRTEWHalfAVX2(SB), NOSPLIT, $0-32
	W16LOOP(EVENH, ODDH, ewhloop, ewhdone)

// DIRW16 is RNEW16 for a directed mode (see encodeDirW16AVX2): Y2 marks
// the lanes that round up (words all ones), Y3 scratch; R10 the
// w16DirConsts, Y10 their scale. An even word's up mask goes to its
// dword's sign bit (VPSLLD) for VBLENDVPS; an odd word's is there already.
#define DIRW16(even, odd, off, code) \
	VMOVDQU    off(SI), Y4; \
	VPAND      Y14, Y4, Y5; \
	VPXOR      w16DirConsts_flip(R10), Y4, Y2; \
	VPSRAW     $15, Y2, Y2; \
	VPAND      w16DirConsts_enable(R10), Y2, Y2; \
	VPAND      w16DirConsts_inc(R10), Y2, Y6; \
	VPADDW     Y5, Y6, Y6; \
	VPSRLW     X12, Y6, Y6; \
	VPSUBW     w16Consts_rebias(R8), Y6, Y6; \
	even; \
	VMULPS     Y10, Y7, Y7; \
	VROUNDPS   $2, Y7, Y3; \
	VPSLLD     $16, Y2, Y8; \
	VBLENDVPS  Y8, Y3, Y7, Y7; \
	VCVTTPS2DQ Y7, Y7; \
	odd; \
	VMULPS     Y10, Y8, Y8; \
	VROUNDPS   $2, Y8, Y3; \
	VBLENDVPS  Y2, Y3, Y8, Y8; \
	VCVTTPS2DQ Y8, Y8; \
	VPSLLD     $16, Y8, Y8; \
	VPBLENDW   $0xaa, Y8, Y7, Y7; \
	VPCMPGTW   w16Consts_minNormalM1(R8), Y5, Y8; \
	VPBLENDVB  Y8, Y6, Y7, code; \
	VPMINUW    w16Consts_limit(R8), code, code; \
	VPSRLW     X11, Y4, Y4; \
	VPAND      w16Consts_signBit(R8), Y4, Y4; \
	VPOR       Y4, code, code; \
	VPCMPGTW   Y9, Y5, Y8; \
	VPAND      w16Consts_nanSign(R8), Y4, Y4; \
	VPOR       w16Consts_nanCode(R8), Y4, Y4; \
	VPBLENDVB  Y8, Y4, code, code

// DIRW16LOOP is W16LOOP with DIRW16, with the arguments
// loaded outside the macro, where go vet can match them to the
// function).
#define DIRW16LOOP(even, odd, loop, done) \
	VMOVQ        w16Consts_shift(R8), X12; \
	VMOVQ        w16Consts_signShift(R8), X11; \
	VPBROADCASTD e5hAbs<>(SB), Y14; \
	VPBROADCASTD w16Hi<>(SB), Y15; \
	VMOVDQU      w16DirConsts_scale(R10), Y10; \
	VMOVDQU      w16Consts_inf(R8), Y9; \
	SHRQ         $5, CX; \
	JEQ          done; \
loop: \
	DIRW16(even, odd, 0, Y0); \
	DIRW16(even, odd, 32, Y1); \
	VPACKUSWB Y1, Y0, Y0; \
	VPERMQ    $0xd8, Y0, Y0; \
	VMOVDQU   Y0, (DI); \
	ADDQ      $64, SI; \
	ADDQ      $32, DI; \
	DECQ      CX; \
	JNZ       loop; \
done: \
	VZEROUPPER; \
	RET

// func encodeDirW16AVX2(dst *byte, src *uint16, n int, c *w16Consts, d *w16DirConsts)
TEXT ·encodeDirW16AVX2(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ c+24(FP), R8
	MOVQ d+32(FP), R10
	DIRW16LOOP(EVENBF, ODDBF, edw16loop, edw16done)

// func encodeDirWHalfAVX2(dst *byte, src *uint16, n int, c *w16Consts, d *w16DirConsts)
TEXT ·encodeDirWHalfAVX2(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ c+24(FP), R8
	MOVQ d+32(FP), R10
	DIRW16LOOP(EVENH, ODDH, edwhloop, edwhdone)
