// Package val validates SPIR-V modules as SPIRV-Tools' spirv-val does,
// with the same verdicts and message texts, and also knows the extensions
// spirv-val does not: SPV_INTEL_subgroup_bitcast_shuffle, and the full rule
// set of SPV_EXT_float8 and SPV_EXT_ocp_microscaling_types.
//
// Validate runs rule families in spirv-val's order, so that the first error
// is spirv-val's first error. Each family lives in a file named after
// SPIRV-Tools' source/val file that holds it (validate_layout.cpp is
// layout.go, validate_id.cpp is id.go, and so on); rules spirv-val does not
// have live in files named after their extension.
//
// Only some of spirv-val's families exist yet (see README.md, "spvx val").
// A family that does not exist rejects nothing: the validator may accept a
// module spirv-val rejects, but must never reject one spirv-val accepts.
package val
