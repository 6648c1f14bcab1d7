package val

import "spvx/spirv"

func (s *state) memoryPass(i int, in *spirv.Instruction) bool         { return false }
func (s *state) conversionPass(i int, in *spirv.Instruction) bool     { return false }
func (s *state) bitcastShufflePass(i int, in *spirv.Instruction) bool { return false }
func (s *state) literalsPass(i int, in *spirv.Instruction) bool       { return false }
func (s *state) invalidTypePass(i int, in *spirv.Instruction) bool    { return false }
