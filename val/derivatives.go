package val

import "spvx/spirv"

// This file holds validate_derivatives.cpp's type rules: a derivative's
// Result Type is a float scalar or vector of 32-bit IEEE components (16-bit
// too with SPV_AMD_gpu_shader_half_float), and P has that type. The
// execution-model limitations are not checked yet.

// derivativesOps reports whether derivativesPass can act on an instruction of opcode op
// (passGate runs it on no other: a new case there needs its opcode here).
func derivativesOps(op spirv.Opcode) bool {
	return opIn(op, spirv.OpDPdx, spirv.OpDPdy, spirv.OpFwidth, spirv.OpDPdxFine, spirv.OpDPdyFine,
		spirv.OpFwidthFine, spirv.OpDPdxCoarse, spirv.OpDPdyCoarse, spirv.OpFwidthCoarse)
}

func (s *state) derivativesPass(i int, in *spirv.Instruction) bool {
	switch in.Opcode {
	case spirv.OpDPdx, spirv.OpDPdy, spirv.OpFwidth, spirv.OpDPdxFine, spirv.OpDPdyFine, spirv.OpFwidthFine,
		spirv.OpDPdxCoarse, spirv.OpDPdyCoarse, spirv.OpFwidthCoarse:
	default:
		return false
	}
	name := opName(in.Opcode)
	res := in.TypeID
	if !s.isFloatScalarOrVector(res) {
		return s.fail(i, "", "Expected Result Type to be float scalar or vector type: %s", name)
	}
	c := s.typeOf(s.plainComponentType(res))
	ieee := c != nil && !c.HasEncoding
	half := s.exts["SPV_AMD_gpu_shader_half_float"]
	if !(ieee && c.Width == 32) && !(half && ieee && c.Width == 16) {
		if half {
			return s.fail(i, "", "Result type component width must be 16 bits or 32 bits")
		}
		return s.fail(i, "", "Result type component width must be 32 bits")
	}
	if s.opType(in, 2) != res {
		return s.fail(i, "", "Expected P type and Result Type to be the same: %s", name)
	}
	return false
}
