// Package asm assembles SPIR-V assembly text into a SPIR-V binary module,
// accepting the syntax of SPIRV-Tools' spirv-as (v2026.4) and producing the
// same words.
//
// The text is a sequence of instructions, each either
//
//	OpName operand...
//	%result = OpName operand...
//
// with `;` comments to the end of the line. Operands are ids (`%name` or
// `%12`), integer and floating-point literals, quoted strings with
// backslash escapes, enumerant names (any spelling or alias the grammar
// gives, for the operand's kind), `A|B` bit masks, extended-instruction
// names after an OpExtInstImport'ed set, and opcode names (without "Op")
// after OpSpecConstantOp. `!<integer>` writes one raw word wherever an
// operand or instruction may start, and `OpUnknown(opcode, wordcount)`
// writes an instruction the grammar does not know.
//
// Ids are numbered in order of first appearance (so the binary is
// byte-identical to spirv-as's), or, with Options.PreserveNumericIDs, numeric
// names keep their numbers and the other names fill the gaps. The header
// carries the SPIR-V version of Options.TargetEnv (by default the version a
// "; Version: 1.X" header comment names, else 1.6), the generator word of
// the Khronos SPIR-V Tools Assembler (tool 7, version 0) and the bound.
//
// Literals of OpConstant and OpSpecConstant are typed by their result type
// and OpSwitch case literals by the selector's type, including every
// OpTypeFloat FP Encoding (BFloat16KHR, Float8E4M3EXT, Float8E5M2EXT,
// Float6E2M3EXT, Float6E3M2EXT, Float4E2M1EXT, Float8UnsignedE8M0EXT,
// MXInt8EXT); internal/numtext implements the literal syntax.
//
// Errors are reported as an ErrorList of *Error, each with a file:line:col
// position and SPIRV-Tools' wording. Unlike spirv-as, which stops at the
// first error, Assemble resynchronises at the next instruction and reports
// every error it finds. Two checks go beyond spirv-as (both can be turned
// off with Options.LaxIDs): every id used must be defined by some
// instruction, and no id may be defined twice.
//
// The grammar (opcodes, operand kinds, enumerants, extended instruction
// sets) comes from package spirv: SPIR-V 1.6 revision 7 with the spvx
// overlay (SPV_INTEL_subgroup_bitcast_shuffle).
package asm
