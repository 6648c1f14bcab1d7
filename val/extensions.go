package val

import "spvx/spirv"

// This file holds validate_extensions.cpp's rules, as far as they exist
// here: extensions that need a minimum SPIR-V version, and the
// NonSemantic import rule.

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
	case spirv.OpExtInstImport:
		name := in.String(1)
		if s.version <= spirv.MakeVersion(1, 5) && !s.exts["SPV_KHR_non_semantic_info"] && len(name) >= 12 && name[:12] == "NonSemantic." {
			return s.fail(i, "", "NonSemantic extended instruction sets cannot be declared without SPV_KHR_non_semantic_info. (This can also be fixed having SPIR-V 1.6 or later)")
		}
	}
	return false
}
