#include "textflag.h"

// AVX2 lane loops of the dense kernels (lanes_amd64.go). Registers hold a
// lane per 64-bit word; a 32-bit value is its low half. Go operand order:
// sources first, destination last. Counts are positive multiples of 4
// (the wrappers check and run the rest in Go).

DATA laneRamp<>+0(SB)/8, $0
DATA laneRamp<>+8(SB)/8, $1
DATA laneRamp<>+16(SB)/8, $2
DATA laneRamp<>+24(SB)/8, $3
GLOBL laneRamp<>(SB), RODATA|NOPTR, $32

DATA laneFour<>+0(SB)/8, $4
GLOBL laneFour<>(SB), RODATA|NOPTR, $8

// Dwords 0, 2, 4, 6 (the low halves of four words) to the low 128 bits.
DATA lanePack<>+0(SB)/4, $0
DATA lanePack<>+4(SB)/4, $2
DATA lanePack<>+8(SB)/4, $4
DATA lanePack<>+12(SB)/4, $6
DATA lanePack<>+16(SB)/4, $1
DATA lanePack<>+20(SB)/4, $3
DATA lanePack<>+24(SB)/4, $5
DATA lanePack<>+28(SB)/4, $7
GLOBL lanePack<>(SB), RODATA|NOPTR, $32

// F32LOOP runs d[l] = a[l] OP b[l] on the low halves, clearing the high
// halves, for CX groups of four lanes. F32ILOOP is the same with the
// broadcast immediate in Y6 for b.
#define F32LOOP(OP, label) \
label: \
	VMOVDQU (SI), Y0; \
	VMOVDQU (DX), Y1; \
	OP      Y1, Y0, Y0; \
	VPAND   Y7, Y0, Y0; \
	VMOVDQU Y0, (DI); \
	ADDQ    $32, SI; \
	ADDQ    $32, DX; \
	ADDQ    $32, DI; \
	DECQ    CX; \
	JNE     label; \
	JMP     f32done

// func f32binAVX2(op int, d, a, b *uint64, imm bool, n int)
// op: 0 add, 1 sub, 2 mul, 3 div; imm: b points at one word whose low
// half is used for every lane, else b is a lane array.
TEXT ·f32binAVX2(SB), NOSPLIT, $0-48
	MOVQ op+0(FP), AX
	MOVQ d+8(FP), DI
	MOVQ a+16(FP), SI
	MOVQ b+24(FP), DX
	MOVBLZX imm+32(FP), BX
	MOVQ n+40(FP), CX
	SHRQ $2, CX
	JEQ  f32ret
	VPCMPEQD Y7, Y7, Y7
	VPSRLQ   $32, Y7, Y7
	CMPQ BX, $0
	JNE  f32imm
	CMPQ AX, $0
	JEQ  f32add
	CMPQ AX, $1
	JEQ  f32sub
	CMPQ AX, $2
	JEQ  f32mul
	JMP  f32div

f32imm:
	// b: one word, broadcast; loop on a copy at a fixed address
	VPBROADCASTQ (DX), Y6
	CMPQ AX, $0
	JEQ  f32addi
	CMPQ AX, $1
	JEQ  f32subi
	CMPQ AX, $2
	JEQ  f32muli
	JMP  f32divi

F32LOOP(VADDPS, f32add)
F32LOOP(VSUBPS, f32sub)
F32LOOP(VMULPS, f32mul)
F32LOOP(VDIVPS, f32div)

#define F32ILOOP(OP, label) \
label: \
	VMOVDQU (SI), Y0; \
	OP      Y6, Y0, Y0; \
	VPAND   Y7, Y0, Y0; \
	VMOVDQU Y0, (DI); \
	ADDQ    $32, SI; \
	ADDQ    $32, DI; \
	DECQ    CX; \
	JNE     label; \
	JMP     f32done

F32ILOOP(VADDPS, f32addi)
F32ILOOP(VSUBPS, f32subi)
F32ILOOP(VMULPS, f32muli)
F32ILOOP(VDIVPS, f32divi)

f32done:
	VZEROUPPER
f32ret:
	RET

// func isRampAVX2(idx *uint64, n int, i0 uint64) bool
// reports whether idx[l] == i0+l for l < n.
TEXT ·isRampAVX2(SB), NOSPLIT, $0-25
	MOVQ idx+0(FP), SI
	MOVQ n+8(FP), CX
	SHRQ $2, CX
	VPBROADCASTQ i0+16(FP), Y0
	VPADDQ  laneRamp<>(SB), Y0, Y0
	VPBROADCASTQ laneFour<>(SB), Y5
	VPXOR   Y4, Y4, Y4
ramploop:
	VMOVDQU (SI), Y1
	VPXOR   Y0, Y1, Y1
	VPOR    Y1, Y4, Y4
	VPADDQ  Y5, Y0, Y0
	ADDQ    $32, SI
	DECQ    CX
	JNE     ramploop
	VPTEST  Y4, Y4
	SETEQ   ret+24(FP)
	VZEROUPPER
	RET

// func widen32AVX2(d *uint64, src *byte, n int)
// d[l] = the little-endian uint32 at src[4*l:].
TEXT ·widen32AVX2(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $2, CX
widenloop:
	VPMOVZXDQ (SI), Y0
	VMOVDQU   Y0, (DI)
	ADDQ      $16, SI
	ADDQ      $32, DI
	DECQ      CX
	JNE       widenloop
	VZEROUPPER
	RET

// func narrow32AVX2(dst *byte, v *uint64, n int)
// the little-endian uint32 at dst[4*l:] = the low half of v[l].
TEXT ·narrow32AVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ v+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $2, CX
	VMOVDQU lanePack<>(SB), Y5
narrowloop:
	VMOVDQU (SI), Y0
	VPERMD  Y0, Y5, Y0
	VMOVDQU X0, (DI)
	ADDQ    $32, SI
	ADDQ    $16, DI
	DECQ    CX
	JNE     narrowloop
	VZEROUPPER
	RET

DATA laneOne<>+0(SB)/8, $1
GLOBL laneOne<>(SB), RODATA|NOPTR, $8

// ILOOP runs BODY on Y0 = a[l..l+3], Y1 = b (BX = 32: a lane array; 0:
// four copies of the immediate) and stores Y0 to d.
#define ILOOP(label, BODY) \
label: \
	VMOVDQU (SI), Y0; \
	VMOVDQU (DX), Y1; \
	BODY; \
	VMOVDQU Y0, (DI); \
	ADDQ    $32, SI; \
	ADDQ    BX, DX; \
	ADDQ    $32, DI; \
	DECQ    CX; \
	JNE     label; \
	JMP     idone

// ORDER maps both operands to signed-comparable words: shifted left by
// X11 (sh: a narrow signed type's sign bit to bit 63), then XORed with
// Y8 (flip: bit 63 for an unsigned comparison).
#define ORDER \
	VPSLLQ X11, Y0, Y0; \
	VPSLLQ X11, Y1, Y1; \
	VPXOR  Y8, Y0, Y0; \
	VPXOR  Y8, Y1, Y1

// (The shift counts are loaded with VMOVQ: a legacy-SSE MOVQ into an XMM
// register after 256-bit instructions costs a state transition of
// hundreds of cycles, which made the whole kernel slower than Go.)
//
// func intbinAVX2(op int, d, a, b *uint64, bstep int, m, flip, sh, s uint64, n int)
// op (intOp in lanes_amd64.go): 0 add, 1 sub, 2 mul (low 32 bits), 3 and,
// 4 or, 5 xor, 6 eq, 7 ne, 8 lt, 9 gt, 10 le, 11 ge, 12 shl by s,
// 13 shr by s. Arithmetic and shl results are masked with m; comparisons
// give 0 or 1.
TEXT ·intbinAVX2(SB), NOSPLIT, $0-80
	MOVQ op+0(FP), AX
	MOVQ d+8(FP), DI
	MOVQ a+16(FP), SI
	MOVQ b+24(FP), DX
	MOVQ bstep+32(FP), BX
	MOVQ n+72(FP), CX
	SHRQ $2, CX
	JEQ  iret
	VPBROADCASTQ m+40(FP), Y7
	VPBROADCASTQ flip+48(FP), Y8
	VPBROADCASTQ laneOne<>(SB), Y9
	VMOVQ sh+56(FP), X11
	VMOVQ s+64(FP), X10
	CMPQ AX, $0
	JEQ  iadd
	CMPQ AX, $1
	JEQ  isub
	CMPQ AX, $2
	JEQ  imul
	CMPQ AX, $3
	JEQ  iand
	CMPQ AX, $4
	JEQ  ior
	CMPQ AX, $5
	JEQ  ixor
	CMPQ AX, $6
	JEQ  ieq
	CMPQ AX, $7
	JEQ  ine
	CMPQ AX, $8
	JEQ  ilt
	CMPQ AX, $9
	JEQ  igt
	CMPQ AX, $10
	JEQ  ile
	CMPQ AX, $11
	JEQ  ige
	CMPQ AX, $12
	JEQ  ishl
	JMP  ishr

// the loop bodies (macro arguments cannot hold commas)
#define IADD_BODY VPADDQ Y1, Y0, Y0; VPAND Y7, Y0, Y0
#define ISUB_BODY VPSUBQ Y1, Y0, Y0; VPAND Y7, Y0, Y0
#define IMUL_BODY VPMULUDQ Y1, Y0, Y0; VPAND Y7, Y0, Y0
#define IAND_BODY VPAND Y1, Y0, Y0
#define IOR_BODY VPOR Y1, Y0, Y0
#define IXOR_BODY VPXOR Y1, Y0, Y0
#define IEQ_BODY VPCMPEQQ Y1, Y0, Y0; VPAND Y9, Y0, Y0
#define INE_BODY VPCMPEQQ Y1, Y0, Y0; VPANDN Y9, Y0, Y0
#define ILT_BODY ORDER; VPCMPGTQ Y0, Y1, Y0; VPAND Y9, Y0, Y0
#define IGT_BODY ORDER; VPCMPGTQ Y1, Y0, Y0; VPAND Y9, Y0, Y0
#define ILE_BODY ORDER; VPCMPGTQ Y1, Y0, Y0; VPANDN Y9, Y0, Y0
#define IGE_BODY ORDER; VPCMPGTQ Y0, Y1, Y0; VPANDN Y9, Y0, Y0
#define ISHL_BODY VPSLLQ X10, Y0, Y0; VPAND Y7, Y0, Y0
#define ISHR_BODY VPSRLQ X10, Y0, Y0

ILOOP(iadd, IADD_BODY)
ILOOP(isub, ISUB_BODY)
ILOOP(imul, IMUL_BODY)
ILOOP(iand, IAND_BODY)
ILOOP(ior, IOR_BODY)
ILOOP(ixor, IXOR_BODY)
ILOOP(ieq, IEQ_BODY)
ILOOP(ine, INE_BODY)
ILOOP(ilt, ILT_BODY)
ILOOP(igt, IGT_BODY)
ILOOP(ile, ILE_BODY)
ILOOP(ige, IGE_BODY)
ILOOP(ishl, ISHL_BODY)
ILOOP(ishr, ISHR_BODY)

idone:
	VZEROUPPER
iret:
	RET

// func fillAVX2(d *uint64, v uint64, n int)
// d[l] = v.
TEXT ·fillAVX2(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ n+16(FP), CX
	SHRQ $2, CX
	JEQ  fillret
	VPBROADCASTQ v+8(FP), Y0
fillloop:
	VMOVDQU Y0, (DI)
	ADDQ    $32, DI
	DECQ    CX
	JNE     fillloop
	VZEROUPPER
fillret:
	RET

// func rampAVX2(d *uint64, base, m uint64, n int)
// d[l] = (base + l) & m.
TEXT ·rampAVX2(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ n+24(FP), CX
	SHRQ $2, CX
	JEQ  rampret
	VPBROADCASTQ base+8(FP), Y0
	VPADDQ       laneRamp<>(SB), Y0, Y0
	VPBROADCASTQ m+16(FP), Y7
	VPBROADCASTQ laneFour<>(SB), Y5
ramp2loop:
	VPAND   Y7, Y0, Y1
	VMOVDQU Y1, (DI)
	VPADDQ  Y5, Y0, Y0
	ADDQ    $32, DI
	DECQ    CX
	JNE     ramp2loop
	VZEROUPPER
rampret:
	RET
