// Package roundtrip holds the tests that tie the assembler and the
// disassembler together: text printed by dis must assemble back to the
// same words with asm, over the corpus, over every code of every narrow
// float type, and under fuzzing. asm and dis do not import each other, so
// these checks live here. The package has no non-test code.
package roundtrip
