package val

import "spvx/spirv"

// This file holds validate_extensions.cpp's rules, as far as they exist
// here: extensions that need a minimum SPIR-V version, and the
// NonSemantic import rule.

// extensionOps reports whether extensionPass can act on an instruction of opcode op
// (passGate runs it on no other: a new case there needs its opcode here).
func extensionOps(op spirv.Opcode) bool {
	return op == spirv.OpExtension || op == spirv.OpExtInst || op == spirv.OpExtInstImport
}

func (s *state) extensionPass(i int, in *spirv.Instruction) bool {
	switch in.Opcode {
	case spirv.OpExtension:
		name := in.String(0)
		if s.version < spirv.MakeVersion(1, 3) {
			switch name {
			case "SPV_KHR_vulkan_memory_model", "SPV_QCOM_cooperative_matrix_conversion":
				return s.fail(i, "", "%s extension requires SPIR-V version 1.3 or later.", name)
			}
		}
		if s.version < spirv.MakeVersion(1, 4) {
			switch name {
			case "SPV_KHR_workgroup_memory_explicit_layout", "SPV_KHR_opacity_micromap", "SPV_EXT_mesh_shader",
				"SPV_NV_shader_invocation_reorder", "SPV_EXT_shader_invocation_reorder",
				"SPV_NV_cluster_acceleration_structure", "SPV_NV_linear_swept_spheres",
				"SPV_QCOM_image_processing", "SPV_QCOM_image_processing2":
				return s.fail(i, "", "%s extension requires SPIR-V version 1.4 or later.", name)
			}
		}
	case spirv.OpExtInst:
		return s.extInst(i, in)
	case spirv.OpExtInstImport:
		name := in.String(1)
		if s.version <= spirv.MakeVersion(1, 5) && !s.exts["SPV_KHR_non_semantic_info"] && len(name) >= 12 && name[:12] == "NonSemantic." {
			return s.fail(i, "", "NonSemantic extended instruction sets cannot be declared without SPV_KHR_non_semantic_info. (This can also be fixed having SPIR-V 1.6 or later)")
		}
	}
	return false
}

// extInst holds ValidateExtInst's rules, as far as they exist here: the
// line range of NonSemantic.Shader.DebugInfo.100 DebugLine. Only operands
// that are 32-bit integer constants are judged (spirv-val reads any other
// operand as 0, which an earlier check it has rejects in Vulkan debug
// info; that check is not written yet).
func (s *state) extInst(i int, in *spirv.Instruction) bool {
	if in.ExtSet == nil || len(in.Words) < 10 {
		return false
	}
	setName := s.x.ExtInstImports[in.Words[3]]
	if setName != "NonSemantic.Shader.DebugInfo.100" {
		return false
	}
	e, ok := in.ExtSet.Instruction(in.Words[4])
	if !ok || e.Name != "DebugLine" {
		return false
	}
	name := setName + " " + e.Name
	lineStart, ok1 := s.constLiteralU32(in.Words[6])
	lineEnd, ok2 := s.constLiteralU32(in.Words[7])
	colStart, ok3 := s.constLiteralU32(in.Words[8])
	colEnd, ok4 := s.constLiteralU32(in.Words[9])
	switch {
	case ok1 && lineStart == 0:
		return s.fail(i, "", "%s: operand Line Start (0) is not allowed, source lines start at Line 1", name)
	case ok1 && ok2 && lineEnd < lineStart:
		return s.fail(i, "", "%s: operand Line End (%d) is less than Line Start (%d)", name, lineEnd, lineStart)
	case ok1 && ok2 && ok3 && ok4 && lineStart == lineEnd && colEnd < colStart:
		return s.fail(i, "", "%s: operand Column End (%d) is less than Column Start (%d) when Line Start equals Line End", name, colEnd, colStart)
	}
	return false
}
