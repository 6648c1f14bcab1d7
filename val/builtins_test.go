package val

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"spvx/asm"
	"spvx/spirv"
)

func TestBuiltins(t *testing.T) {
	const v3 = "%v3 = OpTypeVector %uint 3\n%v2 = OpTypeVector %uint 2\n%v4 = OpTypeVector %uint 4\n"
	in := func(name, typ, sc string) string {
		return v3 + "%p_" + name + " = OpTypePointer " + sc + " " + typ + "\n%" + name + " = OpVariable %p_" + name + " " + sc + "\n"
	}
	dec := func(name, b string) string { return "OpDecorate %" + name + " BuiltIn " + b + "\n" }
	comp := func(annot, decls, body string) string {
		return modelSrc("GLCompute", "OpExecutionMode %main LocalSize 1 1 1\n"+annot, "GroupNonUniform GroupNonUniformBallot", "", decls, body)
	}
	frag := func(annot, decls, body string) string {
		return modelSrc("Fragment", "OpExecutionMode %main OriginUpperLeft\n"+annot, "GroupNonUniform", "", decls, body)
	}
	cases := []vcase{
		{name: "gid", env: EnvVulkan1_1, src: comp(dec("gid", "GlobalInvocationId"), in("gid", "%v3", "Input"), "%x = OpLoad %v3 %gid")},
		{name: "gid-universal-any-type", src: comp(dec("gid", "GlobalInvocationId"), in("gid", "%v2", "Input"), "%x = OpLoad %v2 %gid")},
		{name: "gid-v2", env: EnvVulkan1_1, src: comp(dec("gid", "GlobalInvocationId"), in("gid", "%v2", "Input"), "%x = OpLoad %v2 %gid"),
			want: "error: line 30: [VUID-GlobalInvocationId-GlobalInvocationId-04238] According to the Vulkan spec BuiltIn GlobalInvocationId variable needs to be a 3-component 32-bit int vector. ID <2> (OpVariable) has 2 components."},
		{name: "gid-scalar", env: EnvVulkan1_2, src: comp(dec("gid", "GlobalInvocationId"), in("gid", "%uint", "Input"), "%x = OpLoad %uint %gid"),
			want: "error: line 30: [VUID-GlobalInvocationId-GlobalInvocationId-04238] According to the Vulkan spec BuiltIn GlobalInvocationId variable needs to be a 3-component 32-bit int vector. ID <4> (OpVariable) is not an int vector."},
		{name: "gid-private", env: EnvVulkan1_1, src: comp(dec("gid", "GlobalInvocationId"), in("gid", "%v3", "Private"), "%x = OpLoad %v3 %gid"),
			want: "error: line 30: [VUID-GlobalInvocationId-GlobalInvocationId-04237] Vulkan spec allows BuiltIn GlobalInvocationId to be only used for variables with Input storage class. ID <2> (OpVariable) is referencing ID <2> (OpVariable) which is decorated with BuiltIn GlobalInvocationId. ID <2> (OpVariable) uses storage class Private."},
		{name: "wgid-fragment", env: EnvVulkan1_1, src: frag(dec("wid", "WorkgroupId")+"OpDecorate %wid Flat\n", in("wid", "%v3", "Input"), "%x = OpLoad %v3 %wid"),
			want: "error: line 33: [VUID-WorkgroupId-WorkgroupId-04422] Vulkan spec allows BuiltIn WorkgroupId to be used only with GLCompute, MeshNV, TaskNV, MeshEXT or TaskEXT execution model. ID <26> (OpLoad) is referencing ID <2> (OpVariable) which is decorated with BuiltIn WorkgroupId in function <1> called with execution model Fragment."},
		{name: "local-index-v3", env: EnvVulkan1_1, src: comp(dec("li", "LocalInvocationIndex"), in("li", "%v3", "Input"), "%x = OpLoad %v3 %li"),
			want: "error: line 30: [VUID-LocalInvocationIndex-LocalInvocationIndex-04286] According to the Vulkan spec BuiltIn LocalInvocationIndex variable needs to be a 32-bit int scalar. ID <2> (OpVariable) is not an int scalar.", gap: "rule newer than 2023.1"},
		{name: "local-index", env: EnvVulkan1_1, src: comp(dec("li", "LocalInvocationIndex"), in("li", "%uint", "Input"), "%x = OpLoad %uint %li")},
		{name: "subgroup-size-output", env: EnvVulkan1_1, src: comp(dec("ss", "SubgroupSize"), in("ss", "%uint", "Output"), ""),
			want: "error: line 30: [VUID-SubgroupSize-SubgroupSize-04382] Vulkan spec allows BuiltIn SubgroupSize to be only used for variables with Input storage class. ID <2> (OpVariable) is referencing ID <2> (OpVariable) which is decorated with BuiltIn SubgroupSize. ID <2> (OpVariable) uses storage class Output."},
		{name: "subgroup-size-fragment", env: EnvVulkan1_1, src: frag(dec("ss", "SubgroupSize")+"OpDecorate %ss Flat\n", in("ss", "%uint", "Input"), "%x = OpLoad %uint %ss")},
		{name: "subgroup-id-float", env: EnvVulkan1_1, src: comp(dec("sid", "SubgroupId"), in("sid", "%float", "Input"), "%x = OpLoad %float %sid"),
			want: "error: line 30: [VUID-SubgroupId-SubgroupId-04369] According to the Vulkan spec BuiltIn SubgroupId variable needs to be a 32-bit int vector. ID <2> (OpVariable) is not an int scalar."},
		{name: "eq-mask-v3", env: EnvVulkan1_1, src: comp(dec("eq", "SubgroupEqMask"), in("eq", "%v3", "Input"), "%x = OpLoad %v3 %eq"),
			want: "error: line 30: [VUID-SubgroupEqMask-SubgroupEqMask-04371] According to the Vulkan spec BuiltIn SubgroupEqMask variable needs to be a 4-component 32-bit int vector. ID <2> (OpVariable) has 3 components."},
		{name: "eq-mask", env: EnvVulkan1_1, src: comp(dec("eq", "SubgroupEqMask"), in("eq", "%v4", "Input"), "%x = OpLoad %v4 %eq")},
		{name: "workgroup-size-zero", src: comp("OpDecorate %wgs BuiltIn WorkgroupSize\n", v3+"%wgs = OpConstantComposite %v3 %u0 %u1 %u1\n", ""),
			want: "error: line 29: WorkgroupSize decorations must not have a static product of zero (X = 0, Y = 1, Z = 1).", gap: "rule newer than 2023.1"},
		{name: "workgroup-size", env: EnvVulkan1_1, src: comp("OpDecorate %wgs BuiltIn WorkgroupSize\n", v3+"%wgs = OpConstantComposite %v3 %u2 %u1 %u1\n", "")},
		{name: "workgroup-size-fragment", env: EnvVulkan1_1, src: frag("OpDecorate %wgs BuiltIn WorkgroupSize\n", v3+"%wgs = OpConstantComposite %v3 %u2 %u1 %u1\n", "%x = OpCompositeExtract %uint %wgs 0"),
			want: "error: line 31: [VUID-WorkgroupSize-WorkgroupSize-04425] Vulkan spec allows BuiltIn WorkgroupSize to be used only with GLCompute, MeshNV, TaskNV, MeshEXT or TaskEXT execution model. ID <25> (OpCompositeExtract) is referencing ID <2> (OpConstantComposite) which is decorated with BuiltIn WorkgroupSize in function <1> called with execution model Fragment."},
	}
	runCases(t, cases)
}

func TestBuiltinsGraphics(t *testing.T) {
	const v4f = "%v4f = OpTypeVector %float 4\n%v3f = OpTypeVector %float 3\n"
	v := func(name, typ, sc string) string {
		return v4f + "%p_" + name + " = OpTypePointer " + sc + " " + typ + "\n%" + name + " = OpVariable %p_" + name + " " + sc + "\n"
	}
	frag := func(annot, decls, body string) string {
		return modelSrc("Fragment", "OpExecutionMode %main OriginUpperLeft\n"+annot, "SampleRateShading", "", decls, body)
	}
	vert := func(annot, decls, body string) string { return modelSrc("Vertex", annot, "", "", decls, body) }
	cases := []vcase{
		{name: "frag-coord", env: EnvVulkan1_1, src: frag("OpDecorate %fc BuiltIn FragCoord\n", v("fc", "%v4f", "Input"), "%x = OpLoad %v4f %fc")},
		{name: "frag-coord-v3", env: EnvVulkan1_1, src: frag("OpDecorate %fc BuiltIn FragCoord\n", v("fc", "%v3f", "Input"), "%x = OpLoad %v3f %fc"),
			want: "error: line 28: [VUID-FragCoord-FragCoord-04212] According to the Vulkan spec BuiltIn FragCoord variable needs to be a 4-component 32-bit float vector. ID <2> (OpVariable) has 3 components."},
		{name: "frag-coord-output", env: EnvVulkan1_1, src: frag("OpDecorate %fc BuiltIn FragCoord\n", v("fc", "%v4f", "Output"), ""),
			want: "error: line 28: [VUID-FragCoord-FragCoord-04211] Vulkan spec allows BuiltIn FragCoord to be only used for variables with Input storage class. ID <2> (OpVariable) is referencing ID <2> (OpVariable) which is decorated with BuiltIn FragCoord. ID <2> (OpVariable) uses storage class Output."},
		{name: "frag-coord-vertex", env: EnvVulkan1_1, src: vert("OpDecorate %fc BuiltIn FragCoord\n", v("fc", "%v4f", "Input"), "%x = OpLoad %v4f %fc"),
			want: "error: line 29: [VUID-FragCoord-FragCoord-04210] Vulkan spec allows BuiltIn FragCoord to be used only with Fragment execution model. ID <25> (OpLoad) is referencing ID <2> (OpVariable) which is decorated with BuiltIn FragCoord in function <1> called with execution model Vertex."},
		{name: "frag-depth", env: EnvVulkan1_1, src: frag("OpExecutionMode %main DepthReplacing\nOpDecorate %fd BuiltIn FragDepth\n", v("fd", "%float", "Output")+"%f0 = OpConstant %float 0\n", "OpStore %fd %f0")},
		{name: "frag-depth-no-replacing", env: EnvVulkan1_1, src: frag("OpDecorate %fd BuiltIn FragDepth\n", v("fd", "%float", "Output")+"%f0 = OpConstant %float 0\n", "OpStore %fd %f0"),
			want: "error: line 32: [VUID-FragDepth-FragDepth-04216] Vulkan spec requires DepthReplacing execution mode to be declared when using BuiltIn FragDepth. ID <0> (OpStore) is referencing ID <2> (OpVariable) which is decorated with BuiltIn FragDepth in function <1>."},
		{name: "front-facing-int", env: EnvVulkan1_1, src: frag("OpDecorate %ff BuiltIn FrontFacing\nOpDecorate %ff Flat\n", v("ff", "%uint", "Input"), ""),
			want: "error: line 29: [VUID-FrontFacing-FrontFacing-04231] According to the Vulkan spec BuiltIn FrontFacing variable needs to be a bool scalar. ID <2> (OpVariable) is not a bool scalar."},
		{name: "vertex-index", env: EnvVulkan1_1, src: vert("OpDecorate %vi BuiltIn VertexIndex\n", v("vi", "%int", "Input"), "%x = OpLoad %int %vi")},
		{name: "vertex-index-float", env: EnvVulkan1_1, src: vert("OpDecorate %vi BuiltIn VertexIndex\n", v("vi", "%float", "Input"), "%x = OpLoad %float %vi"),
			want: "error: line 26: [VUID-VertexIndex-VertexIndex-04400] According to the Vulkan spec BuiltIn VertexIndex variable needs to be a 32-bit int scalar. ID <2> (OpVariable) is not an int scalar."},
		{name: "instance-index-fragment", env: EnvVulkan1_1, src: frag("OpDecorate %ii BuiltIn InstanceIndex\nOpDecorate %ii Flat\n", v("ii", "%int", "Input"), "%x = OpLoad %int %ii"),
			want: "error: line 32: [VUID-InstanceIndex-InstanceIndex-04263] Vulkan spec allows BuiltIn InstanceIndex to be used only with Vertex execution model. ID <25> (OpLoad) is referencing ID <2> (OpVariable) which is decorated with BuiltIn InstanceIndex in function <1> called with execution model Fragment."},
		{name: "sample-id-float", env: EnvVulkan1_1, src: frag("OpDecorate %si BuiltIn SampleId\nOpDecorate %si Flat\n", v("si", "%float", "Input"), ""),
			want: "error: line 29: [VUID-SampleId-SampleId-04356] According to the Vulkan spec BuiltIn SampleId variable needs to be a 32-bit int scalar. ID <2> (OpVariable) is not an int scalar."},
		{name: "sample-id-universal", src: frag("OpDecorate %si BuiltIn SampleId\nOpDecorate %si Flat\n", v("si", "%float", "Input"), "")},
	}
	runCases(t, cases)
}

func TestBuiltinsPosition(t *testing.T) {
	const types = "%v4f = OpTypeVector %float 4\n%v3f = OpTypeVector %float 3\n%f0 = OpConstant %float 0\n%i1 = OpConstant %int 1\n%i2 = OpConstant %int 2\n"
	perVertex := func(posType string) string {
		return types + "%pv_t = OpTypeStruct " + posType + " %float\n%p_out = OpTypePointer Output %pv_t\n%out = OpVariable %p_out Output\n" +
			"%p_pos = OpTypePointer Output " + posType + "\n%p_ps = OpTypePointer Output %float\n"
	}
	const annot = "OpMemberDecorate %pv_t 0 BuiltIn Position\nOpMemberDecorate %pv_t 1 BuiltIn PointSize\nOpDecorate %pv_t Block\n"
	vert := func(annot, decls, body string) string { return modelSrc("Vertex", annot, "", "", decls, body) }
	frag := func(annot, decls, body string) string {
		return modelSrc("Fragment", "OpExecutionMode %main OriginUpperLeft\n"+annot, "", "", decls, body)
	}
	cases := []vcase{
		{name: "per-vertex", env: EnvVulkan1_1, src: vert(annot, perVertex("%v4f"), "%pp = OpAccessChain %p_ps %out %i1\nOpStore %pp %f0")},
		{name: "per-vertex-v3", env: EnvVulkan1_1, src: vert(annot, perVertex("%v3f"), "%pp = OpAccessChain %p_ps %out %i1\nOpStore %pp %f0"),
			want: "error: line 37: [VUID-Position-Position-04321] According to the Vulkan spec BuiltIn Position variable needs to be a 4-component 32-bit float vector. Member #0 of struct ID <3> has 3 components."},
		{name: "position-input-vertex", env: EnvVulkan1_1, src: vert("OpDecorate %pos BuiltIn Position\n", types+"%p_in = OpTypePointer Input %v4f\n%pos = OpVariable %p_in Input\n", "%x = OpLoad %v4f %pos"),
			want: "error: line 32: [VUID-Position-Position-04319] Vulkan spec doesn't allow BuiltIn Position to be used for variables with Input storage class if execution model is Vertex. ID <2> (OpVariable) depends on ID <2> (OpVariable) which is decorated with BuiltIn Position. Id <2> is later referenced by ID <28> (OpLoad) in function <1> which is called with execution model Vertex."},
		{name: "position-fragment", env: EnvVulkan1_1, src: frag("OpDecorate %pos BuiltIn Position\n", types+"%p_in = OpTypePointer Input %v4f\n%pos = OpVariable %p_in Input\n", "%x = OpLoad %v4f %pos"),
			want: "error: line 33: [VUID-Position-Position-04318] Vulkan spec allows BuiltIn Position to be used only with Vertex, TessellationControl, TessellationEvaluation or Geometry execution models. ID <28> (OpLoad) is referencing ID <2> (OpVariable) which is decorated with BuiltIn Position in function <1> called with execution model Fragment."},
		{name: "position-private", env: EnvVulkan1_1, src: vert("OpDecorate %pos BuiltIn Position\n", types+"%p_pr = OpTypePointer Private %v4f\n%pos = OpVariable %p_pr Private\n", "%x = OpLoad %v4f %pos"),
			want: "error: line 29: [VUID-Position-Position-04320] Vulkan spec allows BuiltIn Position to be only used for variables with Input or Output storage class. ID <2> (OpVariable) is referencing ID <2> (OpVariable) which is decorated with BuiltIn Position. ID <2> (OpVariable) uses storage class Private."},
		{name: "per-vertex-fragment", env: EnvVulkan1_1, src: frag(annot, perVertex("%v4f"), "%pp = OpAccessChain %p_ps %out %i1\nOpStore %pp %f0"),
			want: "error: line 38: [VUID-Position-Position-04318] Vulkan spec allows BuiltIn Position to be used only with Vertex, TessellationControl, TessellationEvaluation or Geometry execution models. ID <31> (OpAccessChain) is referencing ID <2> (OpVariable) which is dependent on ID <3> (OpTypeStruct) which is decorated with BuiltIn Position in function <1> called with execution model Fragment."},
		{name: "clip-distance", env: EnvVulkan1_1, src: modelSrc("Vertex", "OpDecorate %cd BuiltIn ClipDistance\n", "ClipDistance", "", types+"%a2 = OpTypeArray %float %i2\n%p_cd = OpTypePointer Output %a2\n%cd = OpVariable %p_cd Output\n%p_f = OpTypePointer Output %float\n", "%e = OpAccessChain %p_f %cd %i1\nOpStore %e %f0")},
		{name: "clip-distance-not-array", env: EnvVulkan1_1, src: vert("OpDecorate %cd BuiltIn ClipDistance\n", types+"%p_cd = OpTypePointer Output %float\n%cd = OpVariable %p_cd Output\n", "OpStore %cd %f0"),
			want: "error: line 32: [VUID-ClipDistance-ClipDistance-04191] According to the Vulkan spec BuiltIn ClipDistance variable needs to be a 32-bit float array. ID <2> (OpVariable) is not an array."},
		{name: "cull-distance-output-fragment", env: EnvVulkan1_1, src: frag("OpDecorate %cd BuiltIn CullDistance\n", types+"%a2 = OpTypeArray %float %i2\n%p_cd = OpTypePointer Output %a2\n%cd = OpVariable %p_cd Output\n%p_f = OpTypePointer Output %float\n", "%e = OpAccessChain %p_f %cd %i1\nOpStore %e %f0"),
			want: "error: line 35: [VUID-CullDistance-CullDistance-04198] Vulkan spec doesn't allow BuiltIn ClipDistance/CullDistance to be used for variables with Output storage class if execution model is Fragment. ID <2> (OpVariable) depends on ID <2> (OpVariable) which is decorated with BuiltIn CullDistance. Id <2> is later referenced by ID <30> (OpAccessChain) in function <1> which is called with execution model Fragment."},
		{name: "point-size-universal", src: vert("OpDecorate %ps BuiltIn PointSize\n", types+"%p_pr = OpTypePointer Private %float\n%ps = OpVariable %p_pr Private\n", "%x = OpLoad %float %ps")},
	}
	runCases(t, cases)
}

// TestBuiltinsChainLinear: global ids each built from the two before,
// all depending on WorkgroupSize: the reference rules must not multiply
// along the chain (they would double at each step).
func TestBuiltinsChainLinear(t *testing.T) {
	var b strings.Builder
	b.WriteString("OpCapability Shader\nOpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %main \"main\"\nOpDecorate %wgs BuiltIn WorkgroupSize\n")
	b.WriteString("%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%uint = OpTypeInt 32 0\n%v3 = OpTypeVector %uint 3\n%u1 = OpConstant %uint 1\n")
	b.WriteString("%wgs = OpConstantComposite %v3 %u1 %u1 %u1\n%c0 = OpSpecConstantOp %uint CompositeExtract %wgs 0\n%c1 = OpSpecConstantOp %uint CompositeExtract %wgs 1\n")
	const n = 3000
	for k := 2; k < n; k++ {
		fmt.Fprintf(&b, "%%c%d = OpSpecConstantOp %%uint IAdd %%c%d %%c%d\n", k, k-1, k-2)
	}
	fmt.Fprintf(&b, "%%main = OpFunction %%void None %%fn\n%%l = OpLabel\n%%x = OpIAdd %%uint %%c%d %%u1\nOpReturn\nOpFunctionEnd\n", n-1)
	words, err := asm.Assemble([]byte(b.String()), asm.Options{TargetEnv: "vulkan1.1"})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := spirv.DecodeWords(words)
	start := time.Now()
	if err := Validate(m, Options{Env: EnvVulkan1_1}); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("%d chained ids took %v", n, d)
	}
}

// TestWorkgroupSizeDerivativeGroups: a constant WorkgroupSize must suit
// every entry point's derivative group (quads: even X and Y; linear: a
// product that is a multiple of 4), checked once per decoration against
// the entry points that have such a mode.
func TestWorkgroupSizeDerivativeGroups(t *testing.T) {
	src := func(mode string, x, y, z int) string {
		capability := "ComputeDerivativeGroup" + mode + "KHR"
		if mode == "Quads" {
			capability = "ComputeDerivativeGroupQuadsKHR"
		}
		return fmt.Sprintf(`OpCapability Shader
OpCapability %s
OpExtension "SPV_KHR_compute_shader_derivatives"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %%main "main"
OpEntryPoint GLCompute %%other "other"
OpExecutionMode %%main DerivativeGroup%sKHR
OpDecorate %%wg BuiltIn WorkgroupSize
%%void = OpTypeVoid
%%u32 = OpTypeInt 32 0
%%v3 = OpTypeVector %%u32 3
%%x = OpConstant %%u32 %d
%%y = OpConstant %%u32 %d
%%z = OpConstant %%u32 %d
%%wg = OpConstantComposite %%v3 %%x %%y %%z
%%fn = OpTypeFunction %%void
%%main = OpFunction %%void None %%fn
%%e = OpLabel
OpReturn
OpFunctionEnd
%%other = OpFunction %%void None %%fn
%%e2 = OpLabel
OpReturn
OpFunctionEnd
`, capability, mode, x, y, z)
	}
	runTable(t, []rqCase{
		{name: "quads-even", env: EnvVulkan1_3, src: src("Quads", 2, 2, 1)},
		{name: "quads-odd-x", env: EnvVulkan1_3, src: src("Quads", 3, 2, 1),
			want: "[VUID-StandaloneSpirv-DerivativeGroupQuadsKHR-10151] WorkgroupSize decorations has a static dimensions of (X = 3, Y = 2) but Entry Point id 1 has an DerivativeGroupQuadsKHR execution mode, so both dimensions must be a multiple of 2"},
		{name: "linear-4", env: EnvVulkan1_3, src: src("Linear", 4, 1, 1)},
		{name: "linear-3", env: EnvVulkan1_3, src: src("Linear", 3, 1, 1),
			want: "[VUID-StandaloneSpirv-DerivativeGroupLinearKHR-10152] WorkgroupSize decorations has a static dimensions of (X = 3, Y = 1, Z = 1) but Entry Point id 1 has an DerivativeGroupLinearKHR execution mode, so the product (3) must be a multiple of 4"},
	})
}
