// Package spirv is the core of spvx: the SPIR-V grammar tables (generated
// from the Khronos grammar JSON plus spvx's overlay), the binary form of a
// module (Decode and Encode), an on-demand index of a decoded module
// (types, constants, names, decorations, entry points, functions), and the
// control-flow model every later stage shares (cfg.go: a function's blocks,
// branch and merge targets, one dominator algorithm for dominators and
// post-dominators). The validator, disassembler and executor build on
// these.
//
// The grammar is SPIR-V 1.6 revision 7 (SPIRV-Headers of 2026-08-14) with
// the overlay entries of SPV_INTEL_subgroup_bitcast_shuffle; see
// GrammarInputs for the exact input files.
//
// A Module is a flat, order-preserving list of instructions, each keeping
// its raw words and a decoded view of its operands: the validator and the
// disassembler must see invalid modules exactly as written, so sections,
// control flow and the like are views built on demand (Index). Read the
// instructions with Len and Inst, or range over All:
//
//	for i, in := range m.All() {
//		if in.Opcode == spirv.OpEntryPoint {
//			fmt.Println(i, in.String(2))
//		}
//	}
//
// A Module stores no pointers per instruction (Inst builds each view), so
// decoding a large module is a few allocations the garbage collector does
// not scan. DecodeInto reuses a module's storage; Reader streams a module
// one instruction at a time.
//
// Decode never panics and never trusts the header's id bound for
// allocation: memory use is bounded by the input's size, and time is linear
// in it. It applies the rules of SPIRV-Tools' binary parser, so it accepts
// what spirv-dis accepts; DecodeOptions{Lenient: true} also accepts ids at
// or above the bound, as spirv-dis does, while the default rejects them.
// Errors are *DecodeError values wrapping one of the Err* sentinels.
package spirv
