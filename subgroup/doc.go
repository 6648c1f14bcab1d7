// Package subgroup implements OpSubgroupBitcastShuffleINTEL
// (SPV_INTEL_subgroup_bitcast_shuffle rev 1) bit-exactly, and the
// extension's Supported Types rule for validators.
//
// # Data representation
//
// A subgroup's value of type T = {Width W, Components C} is a flat []uint64
// of N·C entries indexed [invocation·C + component]: the per-invocation
// vectors one after another, as an executor holds lane data. Each entry
// holds the component's bits in its low W bits; BitcastShuffle ignores the
// bits above W in its input and writes them as zero (zero extension, even
// for signed types: signedness changes no bit).
//
// BitcastShuffleBytes takes the same values packed: each invocation's
// vector at its natural width, little-endian, invocations one after
// another, as a SPIR-V buffer holds them; one call may carry many
// subgroups.
//
// # Semantics
//
// All data of the subgroup forms one little-endian bit stream, component
// major and invocation minor: bit b of component c of invocation i sits at
// stream position g = (c·N + i)·W + b. A result bit (i_d, c_d, b_d) is the
// operand bit at the same stream position. For N = 1 this is a plain
// bitcast; the result depends on N, and the operation is a bijection whose
// inverse is the shuffle back to the operand type.
package subgroup
