package val

import "spvx/spirv"

// This file holds the rules Options.SpecStrict adds where spirv-val is
// looser than the extension texts (SPV_EXT_float8 and
// SPV_EXT_ocp_microscaling_types: OCP-MX-RULES.md §2.3; the others below).
// No other validator enforces them:
//
//   - the allow-list: an object whose type is or contains an FP8
//     (E4M3/E5M2) or OCP (E2M1, E2M3, E3M2, E8M0, MXINT8) float may be used
//     only by constant-creation, memory, function, conversion, composite,
//     annotation, debug, miscellaneous, extension and mode-setting
//     instructions, and OpSelect, OpPhi, OpReturnValue, OpLifetimeStart
//     and OpLifetimeStop; OpCooperativeMatrixMulAddKHR too for FP8 (the OCP
//     spec defers cooperative matrices, its Issue 4). Type declarations
//     name types, not objects, and are not uses.
//   - SPV_KHR_bfloat16's allow-list: the same classes and instructions,
//     and OpDot, OpCooperativeMatrixMulAddKHR and OpCooperativeMatrixLengthKHR.
//   - the SaturatedToLargestFloat8NormalConversionEXT decoration goes only
//     on OpFConvert, OpConvertSToF or OpConvertUToF whose Result Type's
//     component is E4M3 or E5M2.
//   - E2M1, E2M3 and E3M2 variables are Function or Private also without
//     the Shader capability (spirv-val checks Shader modules only).
//   - SPV_INTEL_subgroup_matrix_multiply_accumulate's and
//     SPV_INTEL_2d_block_io's operand rules (intel_matrix.go lists them):
//     spirv-val checks neither extension.
//   - SPV_KHR_cooperative_matrix's 32-bit Scope, Rows, Columns and Use, a
//     known Use's value, MulAdd's accumulator Result Type and the
//     RowMajorKHR/ColumnMajorKHR Stride's sign (cooperative_matrix.go).

const (
	msgStrictFP8  = "%s cannot use an object of FP8 E4M3/E5M2 type: SPV_EXT_float8 allows them only in the instructions it lists (spec-strict)"
	msgStrictOCP  = "%s cannot use an object of OCP microscaling type: SPV_EXT_ocp_microscaling_types allows them only in the instructions it lists (spec-strict)"
	msgStrictBF16 = "%s cannot use an object of BFloat16 type: SPV_KHR_bfloat16 allows them only in the instructions it lists (spec-strict)"
	msgStrictSat  = "The SaturatedToLargestFloat8NormalConversionEXT decoration must decorate an OpFConvert, OpConvertSToF or OpConvertUToF whose Result Type is an FP8 E4M3/E5M2 type (spec-strict)"
)

// bf16Allowed: SPV_KHR_bfloat16 lists op beyond the classes' allow-list.
func bf16Allowed(op spirv.Opcode) bool {
	return op == spirv.OpDot || op == spirv.OpCooperativeMatrixMulAddKHR || op == spirv.OpCooperativeMatrixLengthKHR
}

// allowedClass reports the instruction classes of the allow-list.
func allowedClass(c string) bool {
	switch c {
	case "Constant-Creation", "Memory", "Function", "Conversion", "Composite", "Annotation", "Debug",
		"Miscellaneous", "Extension", "Mode-Setting", "Type-Declaration":
		return true
	}
	return false
}

func (s *state) specStrictPass(i int, in *spirv.Instruction) bool {
	if s.intelMatrixPass(i, in) || s.coopMatSpecStrict(i, in) {
		return true
	}
	if in.Opcode == spirv.OpDecorate && len(in.Words) > 2 &&
		spirv.Decoration(in.Words[2]) == spirv.DecorationSaturatedToLargestFloat8NormalConversionEXT {
		ok := false
		if j, found := s.x.Def(in.Words[1]); found {
			t := s.m.Inst(j)
			switch t.Opcode {
			case spirv.OpFConvert, spirv.OpConvertSToF, spirv.OpConvertUToF:
				ok = s.isFP8Scalar(s.plainComponentType(t.TypeID))
			}
		}
		if !ok {
			return s.fail(i, "", msgStrictSat)
		}
	}
	if !s.caps.has(spirv.CapabilityShader) && (in.Opcode == spirv.OpVariable && s.memoryStorage(i, in) ||
		in.Opcode == spirv.OpUntypedVariableKHR && s.untypedVariableStorage(i, in)) {
		return true
	}
	info := in.Opcode.Info()
	if info == nil || allowedClass(info.Class) {
		return false
	}
	switch in.Opcode {
	case spirv.OpSelect, spirv.OpPhi, spirv.OpReturnValue, spirv.OpLifetimeStart, spirv.OpLifetimeStop:
		return false
	}
	for _, id := range in.UsedIDs() {
		t := s.typeOfValue(id)
		if t == 0 {
			continue
		}
		c := s.contains(t)
		if c&containsOCP != 0 {
			return s.fail(i, "", msgStrictOCP, opName(in.Opcode))
		}
		if c&containsFP8 != 0 && in.Opcode != spirv.OpCooperativeMatrixMulAddKHR {
			return s.fail(i, "", msgStrictFP8, opName(in.Opcode))
		}
		if c&containsBF16 != 0 && !bf16Allowed(in.Opcode) {
			return s.fail(i, "", msgStrictBF16, opName(in.Opcode))
		}
	}
	return false
}
