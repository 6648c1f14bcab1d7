package val

import "spvx/spirv"

// Passes of spirv-val's second loop that do not exist here yet; each
// accepts everything, so that a missing family never rejects a valid
// module. validate_conversion.cpp, validate_literals.cpp and
// validate_invalid_type.cpp (OCP-MX-RULES.md §2.2 C, D, F) go here.

func (s *state) conversionPass(i int, in *spirv.Instruction) bool  { return false }
func (s *state) literalsPass(i int, in *spirv.Instruction) bool    { return false }
func (s *state) invalidTypePass(i int, in *spirv.Instruction) bool { return false }
