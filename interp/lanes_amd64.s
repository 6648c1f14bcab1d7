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
