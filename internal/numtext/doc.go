// Package numtext formats and parses the typed literal numbers of SPIR-V
// assembly (OpConstant, OpSpecConstant and OpSwitch literals) exactly as
// SPIRV-Tools writes and reads them, for every width and FP encoding:
// integers of any width up to 64 bits, IEEE binary16/32/64, bfloat16, FP8
// E4M3/E5M2, FP6 E2M3/E3M2, FP4 E2M1, E8M0 and MXINT8.
//
// Printing follows spirv-dis: 32- and 64-bit floats print zero and normal
// values in decimal with 9 and 17 significant digits, and everything else
// (subnormals, infinities, NaNs, and every value of the narrower types) as
// a hex float with the fraction left-aligned in nibbles; see
// ../../shared/docs/OCP-MX-RULES.md §3.4.
//
// Parsing follows spirv-as: decimal text is read as binary32 (binary64
// for 64-bit, E8M0 and MXINT8) and narrowed toward zero; hex-float text
// is built bit by bit with excess fraction bits dropped. It deliberately
// differs from SPIRV-Tools where SPIRV-Tools has bugs (OCP-MX-RULES §3.3):
// the top binade of E2M1/E2M3/E3M2/E4M3 is not treated as overflow,
// hex-float subnormals of the 4- and 6-bit formats are read correctly, a
// hex float too large for a format without infinity is an error rather
// than a silently wrong value, and the printed forms of E8M0's NaN
// (0x1p+128) and MXINT8's -2.0 are accepted, so that every word the
// disassembler prints assembles back to the same word.
package numtext
