package val

import "testing"

func TestModeSetting(t *testing.T) {
	const ls = "OpExecutionMode %main LocalSize 1 1 1\n"
	frag := func(modes string) string { return modelSrc("Fragment", modes, "", "", "", "") }
	cases := []vcase{
		{name: "fragment-origin", src: frag("OpExecutionMode %main OriginUpperLeft\n")},
		{name: "fragment-no-origin", src: frag(""),
			want: "error: line 3: Fragment execution model entry points require either an OriginUpperLeft or OriginLowerLeft execution mode."},
		{name: "fragment-two-origins", src: frag("OpExecutionMode %main OriginUpperLeft\nOpExecutionMode %main OriginLowerLeft\n"),
			want: "error: line 3: Fragment execution model entry points can only specify one of OriginUpperLeft or OriginLowerLeft execution modes."},
		{name: "fragment-two-depth", src: frag("OpExecutionMode %main OriginUpperLeft\nOpExecutionMode %main DepthGreater\nOpExecutionMode %main DepthLess\n"),
			want: "error: line 3: Fragment execution model entry points can specify at most one of DepthGreater, DepthLess or DepthUnchanged execution modes."},
		{name: "lower-left-vulkan", env: EnvVulkan1_1, src: frag("OpExecutionMode %main OriginLowerLeft\n"),
			want: "error: line 4: [VUID-StandaloneSpirv-OriginLowerLeft-04653] In the Vulkan environment, the OriginLowerLeft execution mode must not be used."},
		{name: "pixel-center-vulkan", env: EnvVulkan1_0, src: frag("OpExecutionMode %main OriginUpperLeft\nOpExecutionMode %main PixelCenterInteger\n"),
			want: "error: line 5: [VUID-StandaloneSpirv-PixelCenterInteger-04654] In the Vulkan environment, the PixelCenterInteger execution mode must not be used."},
		{name: "fragment-mode-on-compute", src: modelSrc("GLCompute", ls+"OpExecutionMode %main OriginUpperLeft\n", "", "", "", ""),
			want: "error: line 5: Execution mode can only be used with the Fragment execution model."},
		{name: "local-size-on-fragment", src: frag("OpExecutionMode %main OriginUpperLeft\n" + ls),
			want: "error: line 5: Execution mode can only be used with a Kernel or GLCompute execution model."},
		{name: "geometry-mode-on-compute", src: modelSrc("GLCompute", ls+"OpExecutionMode %main Invocations 2\n", "Geometry", "", "", ""),
			want: "error: line 6: Execution mode can only be used with the Geometry execution model."},
		{name: "tess-mode-on-compute", src: modelSrc("GLCompute", ls+"OpExecutionMode %main SpacingEqual\n", "Tessellation", "", "", ""),
			want: "error: line 6: Execution mode can only be used with a tessellation execution model."},
		{name: "geometry-needs-input", src: modelSrc("Geometry", "OpExecutionMode %main OutputPoints\nOpExecutionMode %main OutputVertices 1\n", "Geometry", "", "", ""),
			want: "error: line 4: Geometry execution model entry points must specify exactly one of InputPoints, InputLines, InputLinesAdjacency, Triangles or InputTrianglesAdjacency execution modes."},
		{name: "geometry-ok", src: modelSrc("Geometry", "OpExecutionMode %main InputPoints\nOpExecutionMode %main OutputPoints\nOpExecutionMode %main OutputVertices 1\nOpExecutionMode %main Invocations 1\n", "Geometry", "", "", "")},
		{name: "tess-two-spacings", src: modelSrc("TessellationControl", "OpExecutionMode %main SpacingEqual\nOpExecutionMode %main SpacingFractionalOdd\nOpExecutionMode %main OutputVertices 3\n", "Tessellation", "", "", ""),
			want: "error: line 4: Tessellation execution model entry points can specify at most one of SpacingEqual, SpacingFractionalOdd or SpacingFractionalEven execution modes."},
		{name: "compute-no-local-size-vulkan", env: EnvVulkan1_1, src: modelSrc("GLCompute", "", "", "", "", ""),
			want: "error: line 3: [VUID-StandaloneSpirv-None-10685] In the Vulkan environment, GLCompute execution model entry points require either the LocalSize or LocalSizeId execution mode or an object decorated with WorkgroupSize must be specified.",
			gap:  "wording: 2023.1 has VUID 06426 and other words"},
		{name: "compute-no-local-size-universal", src: modelSrc("GLCompute", "", "", "", "", "")},
		{name: "local-size-zero", src: modelSrc("GLCompute", "OpExecutionMode %main LocalSize 1 0 1\n", "", "", "", ""),
			want: "error: line 4: Local Size execution mode must not have a product of zero (X = 1, Y = 0, Z = 1).", gap: "rule newer than 2023.1"},
		{name: "local-size-id-vulkan1.1", env: EnvVulkan1_1, src: modelSrc("GLCompute", "OpExecutionModeId %main LocalSizeId %u1 %u1 %u1\n", "", "", "", ""),
			want: "error: line 4: LocalSizeId mode is not allowed by the current environment."},
		{name: "local-size-id-vulkan1.1-allowed", env: EnvVulkan1_1, opts: &Options{AllowLocalSizeID: true},
			src: modelSrc("GLCompute", "OpExecutionModeId %main LocalSizeId %u1 %u1 %u1\n", "", "", "", "")},
		{name: "local-size-id-vulkan1.3", env: EnvVulkan1_3, src: modelSrc("GLCompute", "OpExecutionModeId %main LocalSizeId %u1 %u1 %u1\n", "", "", "", "")},
		{name: "local-size-id-zero", env: EnvVulkan1_3, src: modelSrc("GLCompute", "OpExecutionModeId %main LocalSizeId %u1 %u0 %u1\n", "", "", "", ""),
			want: "error: line 4: LocalSizeId execution mode must not have a product of zero (X = 1, Y = 0, Z = 1).", gap: "rule newer than 2023.1"},
		{name: "local-size-id-not-constant", env: EnvVulkan1_3, src: modelSrc("GLCompute", "OpExecutionModeId %main LocalSizeId %u1 %u1 %pv\n", "", "", "", ""),
			want: "error: line 4: For OpExecutionModeId all Extra Operand ids must be constant instructions.", gap: "rule newer than 2023.1"},
		{name: "mode-id-for-literal-mode", src: modelSrc("GLCompute", "OpExecutionModeId %main LocalSize 1 1 1\n", "", "", "", ""),
			want: "error: line 4: OpExecutionModeId is only valid when the Mode operand is an execution mode that takes Extra Operands that are id operands."},
		{name: "duplicate-mode", src: modelSrc("GLCompute", ls+ls, "", "", "", ""),
			want: "error: line 5: LocalSize execution mode must not be specified multiple times per entry point", gap: "rule newer than 2023.1"},
		{name: "vmm-cap-glsl450", src: compSrc("VulkanMemoryModel", "", "", ""),
			want: "error: line 3: VulkanMemoryModelKHR capability must only be specified if the VulkanKHR memory model is used."},
		{name: "fast-math-default-no-contraction", src: fc2Src("OpDecorate %r NoContraction\n"),
			want: "error: line 30: NoContraction cannot be used by an entry point with the FPFastMathDefault execution mode", gap: "FloatControls2 is newer than 2023.1"},
		{name: "fast-math-default-fast", src: fc2Src("OpDecorate %r FPFastMathMode Fast\n"),
			want: "error: line 30: FPFastMathMode Fast cannot be used by an entry point with the FPFastMathDefault execution mode", gap: "FloatControls2 is newer than 2023.1"},
		{name: "fast-math-default-other-mode", src: fc2Src("OpDecorate %r FPFastMathMode NotNaN\n"), gap: "FloatControls2 is newer than 2023.1"},
		{name: "fast-math-default-clean", src: fc2Src(""), gap: "FloatControls2 is newer than 2023.1"},
	}
	runCases(t, cases)
}

// fc2Src is a compute module whose entry point has FPFastMathDefault for
// float, with annot decorating %r = OpFAdd.
func fc2Src(annot string) string {
	return modelSrc("GLCompute", "OpExecutionMode %main LocalSize 1 1 1\nOpExecutionModeId %main FPFastMathDefault %float %u0\n"+annot,
		"FloatControls2 SPV_KHR_float_controls2", "", "%f1 = OpConstant %float 1", "%r = OpFAdd %float %f1 %f1")
}

// TestTileShadingEntryPoints: SPV_QCOM_tile_shading's entry-point rules
// in Vulkan (ValidateEntryPoints), each case checked against current
// spirv-val.
func TestTileShadingEntryPoints(t *testing.T) {
	mod := func(model, modes string, capability bool) string {
		c := ""
		if capability {
			c = "OpCapability TileShadingQCOM\n"
		}
		return "OpCapability Shader\n" + c + "OpExtension \"SPV_QCOM_tile_shading\"\nOpMemoryModel Logical GLSL450\n" +
			"OpEntryPoint " + model + " %main \"main\"\n" + modes +
			"%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%main = OpFunction %void None %fn\n%e = OpLabel\nOpReturn\nOpFunctionEnd\n"
	}
	const (
		rate  = "OpExecutionMode %main TileShadingRateQCOM 1 1 1\n"
		local = "OpExecutionMode %main LocalSize 1 1 1\n"
		frag  = "OpExecutionMode %main OriginUpperLeft\n"
		nonco = "OpExecutionMode %main NonCoherentTileAttachmentReadQCOM\n"
	)
	runTable(t, []rqCase{
		{name: "compute rate", env: EnvVulkan1_3, src: mod("GLCompute", rate, true)},
		{name: "compute rate and LocalSize", env: EnvVulkan1_3, src: mod("GLCompute", rate+local, true),
			want: "[VUID-StandaloneSpirv-TileShadingRateQCOM-10692] If the TileShadingRateQCOM execution mode is used, LocalSize and LocalSizeId must not be specified."},
		{name: "fragment rate", env: EnvVulkan1_3, src: mod("Fragment", frag+rate, true),
			want: "[VUID-StandaloneSpirv-Execution-10688] The TileShadingRateQCOM execution mode must not be used in any stage other than compute."},
		{name: "vertex capability", env: EnvVulkan1_3, src: mod("Vertex", "", true),
			want: "[VUID-StandaloneSpirv-TileShadingQCOM-10686] The TileShadingQCOM capability must not be enabled in any stage other than compute or fragment."},
		{name: "compute non-coherent", env: EnvVulkan1_3, src: mod("GLCompute", local+nonco, true),
			want: "[VUID-StandaloneSpirv-Execution-10687] The NonCoherentTileAttachmentQCOM execution mode must not be used in any stage other than fragment."},
		{name: "fragment non-coherent", env: EnvVulkan1_3, src: mod("Fragment", frag+nonco, true)},
		{name: "universal environment", src: mod("Vertex", "", true)},
	})
}
