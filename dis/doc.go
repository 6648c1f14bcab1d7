// Package dis disassembles SPIR-V: binary module to the assembly text of
// SPIRV-Tools, byte-identical to what current spirv-dis (SPIRV-Tools
// v2026.4) prints with the same options.
//
// The text follows spirv-dis in every detail: the "; SPIR-V" header
// comments (version, generator by its registered name, bound, schema); the
// result ids right-aligned so that " = " ends at column 15; friendly names
// derived as SPIRV-Tools' FriendlyNameMapper derives them (OpName strings
// reduced to [A-Za-z0-9_], built-in variables as %gl_Position..., types as
// %uint, %v4float, %_ptr_Function_uint, %_arr_float_uint_4, %_struct_12,
// %bfloat16, %fp4e2m1..., scalar constants as %uint_0, %float_n1_5,
// %true, with _0, _1... for names already taken; a suggestion of more than
// 256 bytes names the id by its number, as since SPIRV-Tools #6763, and
// names derived from it build on the number); enumerants by the primary
// name of the current grammar; literal numbers as spirv-dis formats them
// (internal/numtext: integers by width and signedness, floats of every width
// and FP encoding); strings with '"' and '\' escaped; extended instructions
// by name (by number for the NonSemantic sets SPIRV-Tools does not know,
// e.g. NonSemantic.DebugPrintf); OpSpecConstantOp operations without "Op".
//
// Options mirror the spirv-dis flags, and the zero Options is its default:
// RawID (--raw-id), NoHeader (--no-header), NoIndent (--no-indent), Offsets
// (--offsets), Comment (--comment), NestedIndent (--nested-indent),
// ReorderBlocks (--reorder-blocks) and Color (--color). Where spirv-dis's
// behaviour is surprising, dis keeps it: --offsets and --comment share one
// trailing comment whose column (at least 50, a multiple of 4) carries over
// to following commented lines, up to column 256 (SPIRV-Tools #6149), also
// after a long multi-line OpSource; and --comment notes OpDecorate (not
// OpMemberDecorate) on the definition of the decorated id.
//
// Differences from spirv-dis, all outside its normal output:
//   - A module that does not decode gives an error and no text; spirv-dis
//     prints the instructions before the error.
//   - Under NestedIndent or ReorderBlocks, a module that ends inside a
//     function still prints that function's blocks (spirv-dis drops them),
//     and a function without blocks prints (spirv-dis's behaviour there is
//     undefined).
//   - Color follows spirv-dis after SPIRV-Tools' fix of result-id coloring
//     (2025-08): the blue escape precedes the padding of the id column.
//   - spirv-dis's --style is not implemented. (Its hex-dump input is read
//     by the spvx command, internal/hexdump, before dis sees the bytes.)
//
// Disassemble and Fprint print a decoded *spirv.Module; DisassembleBinary
// and FprintBinary start from the binary. Without NestedIndent or
// ReorderBlocks these read it twice with a spirv.Reader (names, then text)
// and never hold the decoded module, which is several times faster as a
// process for large modules (see BENCHMARKS.md); those two options need a
// function's blocks at hand, so there the module is decoded first.
//
// Size of the text: each line is bounded by its instruction (names are at
// most 256 bytes plus a suffix, carried comment columns at most 256), except
// under NestedIndent, where every nesting level indents a block's lines by
// two more columns, without limit, as in spirv-dis: a function of n nested
// constructs prints O(n^2) bytes (docs/dis.md). Fprint and FprintBinary
// write such text to an io.Writer in chunks of 128 KiB with memory bounded
// by the module; Disassemble and DisassembleBinary return it whole.
package dis
