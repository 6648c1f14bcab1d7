package val

import "spvx/spirv"

// This file holds validate_type.cpp's rules, as far as they exist here:
// OpTypeInt widths and signedness, and OpTypeFloat widths and encodings,
// which is where SPV_EXT_float8 and SPV_EXT_ocp_microscaling_types types
// are gated (OCP-MX-RULES.md §2.2 B).

func (s *state) typePass(i int, in *spirv.Instruction) bool {
	switch in.Opcode {
	case spirv.OpTypeInt:
		return s.typeInt(i, in)
	case spirv.OpTypeFloat:
		return s.typeFloat(i, in)
	case spirv.OpTypeVector:
		return s.typeVector(i, in)
	case spirv.OpTypeCooperativeMatrixKHR:
		return s.typeCooperativeMatrix(i, in)
	}
	return false
}

func (s *state) typeInt(i int, in *spirv.Instruction) bool {
	if len(in.Words) < 4 {
		return false
	}
	bits, signedness := in.Words[2], in.Words[3]
	if bits != 32 {
		switch bits {
		case 4:
			if s.caps.has(spirv.CapabilityInt4TypeINTEL) || s.caps.has(spirv.CapabilityArbitraryPrecisionIntegersINTEL) {
				return false
			}
			return s.fail(i, "", "Using a 4-bit integer type requires the Int4TypeINTEL or ArbitraryPrecisionIntegersINTEL capability.")
		case 8:
			if s.feat.declareInt8 {
				return false
			}
			return s.fail(i, "", "Using an 8-bit integer type requires the Int8 capability, or an extension that explicitly enables 8-bit integers.")
		case 16:
			if s.feat.declareI16 {
				return false
			}
			return s.fail(i, "", "Using a 16-bit integer type requires the Int16 capability, or an extension that explicitly enables 16-bit integers.")
		case 64:
			if s.caps.has(spirv.CapabilityInt64) {
				return false
			}
			return s.fail(i, "", "Using a 64-bit integer type requires the Int64 capability.")
		default:
			if s.caps.has(spirv.CapabilityArbitraryPrecisionIntegersINTEL) {
				if bits == 0 {
					return s.fail(i, "", "OpTypeInt has 0 bits, which is not allowed even with ArbitraryPrecisionIntegersINTEL.")
				}
				return false
			}
			return s.fail(i, "", "Invalid number of bits (%d) used for OpTypeInt.", bits)
		}
	}
	if signedness != 0 && signedness != 1 {
		return s.fail(i, "", "OpTypeInt has invalid signedness:")
	}
	if s.caps.has(spirv.CapabilityKernel) && signedness != 0 {
		return s.fail(i, "", "The Signedness in OpTypeInt must always be 0 when Kernel capability is used.")
	}
	return false
}

func (s *state) typeFloat(i int, in *spirv.Instruction) bool {
	if len(in.Words) < 3 {
		return false
	}
	bits := in.Words[2]
	hasEnc := len(in.Words) > 3
	var enc spirv.FPEncoding
	if hasEnc {
		enc = spirv.FPEncoding(in.Words[3])
	}
	switch bits {
	case 32:
		if hasEnc {
			return s.fail(i, "", "32-bit floating point type must not have encoding parameter.")
		}
	case 4:
		if !hasEnc {
			return s.fail(i, "", "4-bit floating point type requires an encoding.")
		}
		if enc != spirv.FPEncodingFloat4E2M1EXT {
			return s.fail(i, "", "Unsupported 4-bit floating point encoding (%d).", enc)
		}
	case 6:
		if !hasEnc {
			return s.fail(i, "", "6-bit floating point type requires an encoding.")
		}
		if enc != spirv.FPEncodingFloat6E2M3EXT && enc != spirv.FPEncodingFloat6E3M2EXT {
			return s.fail(i, "", "Unsupported 6-bit floating point encoding (%d).", enc)
		}
	case 16:
		if !hasEnc && !s.feat.declareFloat16 {
			return s.fail(i, "", "Using a 16-bit floating point type requires the Float16 or Float16Buffer capability, or an extension that explicitly enables 16-bit floating point.")
		}
		if hasEnc && enc != spirv.FPEncodingBFloat16KHR {
			return s.fail(i, "", "Unsupported 16-bit floating point encoding (%d).", enc)
		}
	case 8:
		if !s.feat.declareFloat8 {
			return s.fail(i, "", "Using a 8-bit floating point type requires one of the following capabilities: Float8EXT, Float8UnsignedE8M0EXT, MXInt8EXT.")
		}
		if !hasEnc {
			return s.fail(i, "", "8-bit floating point type requires an encoding.")
		}
		switch enc {
		case spirv.FPEncodingFloat8E4M3EXT, spirv.FPEncodingFloat8E5M2EXT, spirv.FPEncodingFloat8UnsignedE8M0EXT, spirv.FPEncodingMXInt8EXT:
		default:
			return s.fail(i, "", "Unsupported 8-bit floating point encoding (%d).", enc)
		}
	case 64:
		if !s.caps.has(spirv.CapabilityFloat64) {
			return s.fail(i, "", "Using a 64-bit floating point type requires the Float64 capability.")
		}
		if hasEnc {
			return s.fail(i, "", "64-bit floating point type must not have encoding parameter.")
		}
	default:
		return s.fail(i, "", "Invalid number of bits (%d) used for OpTypeFloat.", bits)
	}
	return false
}

// isScalarTypeOp is spvOpcodeIsScalarType.
func isScalarTypeOp(op spirv.Opcode) bool {
	return op == spirv.OpTypeInt || op == spirv.OpTypeFloat || op == spirv.OpTypeBool
}

// typeVector is ValidateTypeVector: a scalar component, and 2, 3 or 4
// components unless Vector16 (8, 16) or LongVectorEXT (any) is declared.
func (s *state) typeVector(i int, in *spirv.Instruction) bool {
	if len(in.Words) < 4 {
		return false
	}
	comp, n := in.Words[2], in.Words[3]
	var compOp spirv.Opcode
	if j, ok := s.x.Def(comp); ok {
		compOp = s.m.Inst(j).Opcode
	}
	if s.caps.has(spirv.CapabilityMaskedGatherScatterINTEL) {
		if compOp != spirv.OpTypePointer && !isScalarTypeOp(compOp) {
			return s.fail(i, "", "Invalid OpTypeVector Component Type<id> %s: Expected a scalar or pointer type when using the SPV_INTEL_masked_gather_scatter extension.", s.idName(comp))
		}
	} else if !isScalarTypeOp(compOp) {
		return s.fail(i, "", "OpTypeVector Component Type <id> %s is not a scalar type.", s.idName(comp))
	}
	switch {
	case n == 2 || n == 3 || n == 4:
	case n > 0 && s.caps.has(spirv.CapabilityLongVectorEXT):
	case n == 8 || n == 16:
		if !s.caps.has(spirv.CapabilityVector16) {
			return s.fail(i, s.vuid("VUID-StandaloneSpirv-None-12295"), "Having %d components for TypeVector requires the Vector16 or LongVectorEXT capability", n)
		}
	default:
		return s.fail(i, s.vuid("VUID-StandaloneSpirv-None-12295"), "Illegal number of components (%d) for TypeVector", n)
	}
	return false
}

// typeCooperativeMatrix is ValidateTypeCooperativeMatrix's FP8 gate
// (OCP-MX-RULES.md §2.2 G): an E4M3/E5M2 component needs
// Float8CooperativeMatrixEXT. OCP components are not gated.
func (s *state) typeCooperativeMatrix(i int, in *spirv.Instruction) bool {
	if len(in.Words) < 3 {
		return false
	}
	comp := in.Words[2]
	if s.isFP8Scalar(comp) && !s.caps.has(spirv.CapabilityFloat8CooperativeMatrixEXT) {
		return s.fail(i, "", "OpTypeCooperativeMatrix Component Type <id> %srequire Float8CooperativeMatrixEXT be declared.", s.idName(comp))
	}
	return false
}
