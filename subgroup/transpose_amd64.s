#include "textflag.h"

// func transpose8x8(dst, src unsafe.Pointer, nq, row, inMul, inStep, outMul, outStep int)
//
// For q < nq and each 8-byte column w of a row, reads the words at
// src + q·inMul + t·inStep + w (t < 8), transposes them as an 8×8 byte
// matrix, and writes word t of the result at dst + q·outMul + t·outStep + w.
// Rows are loaded in pairs, [row 2i | row 2i+1] per register; three rounds
// of unpacks (bytes, bytes, dwords) leave [column 2i | column 2i+1], so
// the same code serves both directions. Go operand order: PUNPCKLBW X1, X0
// interleaves the low bytes of X0 and X1 into X0.
TEXT ·transpose8x8(SB), NOSPLIT, $0-64
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ nq+16(FP), CX
	MOVQ row+24(FP), R8
	MOVQ inStep+40(FP), R9
	MOVQ outStep+56(FP), R10
	LEAQ (R9)(R9*2), R11  // 3·inStep
	LEAQ (R10)(R10*2), R12 // 3·outStep
	TESTQ CX, CX
	JEQ done

qloop:
	XORQ DX, DX // w

wloop:
	LEAQ (SI)(DX*1), AX     // input word 0
	LEAQ (AX)(R9*4), BX     // input word 4
	MOVQ (AX), X0
	MOVHPS (AX)(R9*1), X0   // [x0 x1]
	MOVQ (AX)(R9*2), X1
	MOVHPS (AX)(R11*1), X1  // [x2 x3]
	MOVQ (BX), X2
	MOVHPS (BX)(R9*1), X2   // [x4 x5]
	MOVQ (BX)(R9*2), X3
	MOVHPS (BX)(R11*1), X3  // [x6 x7]

	MOVO X0, X4
	PUNPCKLBW X1, X0 // x0, x2 interleaved
	PUNPCKHBW X1, X4 // x1, x3
	MOVO X2, X5
	PUNPCKLBW X3, X2 // x4, x6
	PUNPCKHBW X3, X5 // x5, x7

	MOVO X0, X1
	PUNPCKLBW X4, X0 // columns 0-3 of rows 0-3
	PUNPCKHBW X4, X1 // columns 4-7 of rows 0-3
	MOVO X2, X3
	PUNPCKLBW X5, X2 // columns 0-3 of rows 4-7
	PUNPCKHBW X5, X3 // columns 4-7 of rows 4-7

	MOVO X0, X4
	PUNPCKLLQ X2, X0 // [column 0 | column 1]
	PUNPCKHLQ X2, X4 // [column 2 | column 3]
	MOVO X1, X5
	PUNPCKLLQ X3, X1 // [column 4 | column 5]
	PUNPCKHLQ X3, X5 // [column 6 | column 7]

	LEAQ (DI)(DX*1), AX     // output word 0
	LEAQ (AX)(R10*4), BX    // output word 4
	MOVQ X0, (AX)
	MOVHPS X0, (AX)(R10*1)
	MOVQ X4, (AX)(R10*2)
	MOVHPS X4, (AX)(R12*1)
	MOVQ X1, (BX)
	MOVHPS X1, (BX)(R10*1)
	MOVQ X5, (BX)(R10*2)
	MOVHPS X5, (BX)(R12*1)

	ADDQ $8, DX
	CMPQ DX, R8
	JLT wloop

	ADDQ inMul+32(FP), SI
	ADDQ outMul+48(FP), DI
	DECQ CX
	JNZ qloop

done:
	RET
