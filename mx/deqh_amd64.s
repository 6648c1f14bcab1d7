#include "textflag.h"
#include "go_asm.h"

// dequantHDirectAVX2; see deqh_amd64.go.

DATA deqhNaN<>+0(SB)/4, $0x7e007e00 // two binary16 NaNs
GLOBL deqhNaN<>(SB), RODATA|NOPTR, $4

#define NOPRE(z)
#define PRE(z) VMULPS Y10, z, z

// HCONV dequantizes the 16 codes at off(SI) to binary16 at doff(DI): the
// codes as binary16 patterns (shift left to put the sign at bit 15, shift
// right arithmetically to put the exponent field in place, clear the
// sign's copies), widened by VCVTPH2PS (exact), multiplied (pre, then the
// block multiplier Y6), rounded by VCVTPS2PH to nearest even; NaN codes
// (Y5) take Y9. Y11 magnitude mask, Y12 nanMinM1, X13 lshift, X14 rshift,
// Y15 keep; Y4, Y5, Y7 scratch.
#define HCONV(off, doff, pre) \
	VPMOVZXBW    off(SI), Y4; \
	VPAND        Y11, Y4, Y5; \
	VPCMPGTW     Y12, Y5, Y5; \
	VPSLLW       X13, Y4, Y4; \
	VPSRAW       X14, Y4, Y4; \
	VPAND        Y15, Y4, Y4; \
	VEXTRACTI128 $1, Y4, X7; \
	VCVTPH2PS    X4, Y4; \
	VCVTPH2PS    X7, Y7; \
	pre(Y4); \
	pre(Y7); \
	VMULPS       Y6, Y4, Y4; \
	VMULPS       Y6, Y7, Y7; \
	VCVTPS2PH    $0, Y4, X4; \
	VCVTPS2PH    $0, Y7, X7; \
	VINSERTI128  $1, X7, Y4, Y4; \
	VPBLENDVB    Y5, Y9, Y4, Y4; \
	VMOVDQU      Y4, doff(DI)

// func dequantHDirectAVX2(dst *uint16, scales, codes *byte, nblocks int, c *hConsts)
TEXT ·dequantHDirectAVX2(SB), NOSPLIT, $0-40
	MOVQ         dst+0(FP), DI
	MOVQ         scales+8(FP), BX
	MOVQ         codes+16(FP), SI
	MOVQ         nblocks+24(FP), CX
	MOVQ         c+32(FP), R8
	MOVL         hConsts_rebias(R8), R9
	VPBROADCASTD hConsts_pre(R8), Y10
	VMOVDQU      hConsts_magMask(R8), Y11
	VMOVDQU      hConsts_nanMinM1(R8), Y12
	VMOVQ        hConsts_lshift(R8), X13
	VMOVQ        hConsts_rshift(R8), X14
	VMOVDQU      hConsts_keep(R8), Y15
	VPBROADCASTD deqhNaN<>(SB), Y9
	TESTQ        CX, CX
	JEQ          dhdone

dhloop:
	// The multiplier's exponent field s + 15 − bias: 0 only for E5M2's
	// s = 0, whose 2^-127 is the float32 subnormal 0x00400000 (as
	// pow2f32 gives); above 254 the two-step path.
	MOVBLZX (BX), AX
	CMPL    AX, $0xFF
	JEQ     dhnan
	ADDL    R9, AX
	CMPL    AX, $254
	JHI     dhbig
	SHLL    $23, AX
	MOVL    $0x00400000, DX
	TESTL   AX, AX
	CMOVLEQ DX, AX
	VMOVD   AX, X6
	VPBROADCASTD X6, Y6
	HCONV(0, 0, NOPRE)
	HCONV(16, 32, NOPRE)

dhnext:
	ADDQ $32, SI
	ADDQ $64, DI
	INCQ BX
	DECQ CX
	JNZ  dhloop

dhdone:
	VZEROUPPER
	RET

dhnan:
	VMOVDQU Y9, 0(DI)
	VMOVDQU Y9, 32(DI)
	JMP     dhnext

dhbig:
	// 2^(s − 127), a normal float32 here (s ≤ 254), after 2^(15 − bias).
	SUBL  R9, AX
	SHLL  $23, AX
	VMOVD AX, X6
	VPBROADCASTD X6, Y6
	HCONV(0, 0, PRE)
	HCONV(16, 32, PRE)
	JMP   dhnext
