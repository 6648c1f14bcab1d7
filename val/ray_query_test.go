package val

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"spvx/internal/oracle"
	"spvx/spirv"
)

// rqModule is a compute shader with every ray-query capability, a Ray
// Query %q initialized from %as, and body after the initialization.
// decls are added to the types and constants.
func rqModule(decls, body string) string {
	return `OpCapability Shader
OpCapability Float64
OpCapability RayQueryKHR
OpCapability RayQueryPositionFetchKHR
OpCapability RayTracingSpheresGeometryNV
OpCapability RayTracingLinearSweptSpheresGeometryNV
OpCapability RayTracingClusterAccelerationStructureNV
OpExtension "SPV_KHR_ray_query"
OpExtension "SPV_KHR_ray_tracing_position_fetch"
OpExtension "SPV_NV_linear_swept_spheres"
OpExtension "SPV_NV_cluster_acceleration_structure"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %asv
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %asv DescriptorSet 0
OpDecorate %asv Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%u32 = OpTypeInt 32 0
%f32 = OpTypeFloat 32
%f64 = OpTypeFloat 64
%v2 = OpTypeVector %f32 2
%v3 = OpTypeVector %f32 3
%v4 = OpTypeVector %f32 4
%d3 = OpTypeVector %f64 3
%m43 = OpTypeMatrix %v3 4
%rqt = OpTypeRayQueryKHR
%ast = OpTypeAccelerationStructureKHR
%pas = OpTypePointer UniformConstant %ast
%prq = OpTypePointer Function %rqt
%pu = OpTypePointer Function %u32
%asv = OpVariable %pas UniformConstant
%c0 = OpConstant %u32 0
%c1 = OpConstant %u32 1
%c2 = OpConstant %u32 2
%c3 = OpConstant %u32 3
%fz = OpConstant %f32 0
%o = OpConstantComposite %v3 %fz %fz %fz
` + decls + `%main = OpFunction %void None %fn
%entry = OpLabel
%q = OpVariable %prq Function
%x = OpVariable %pu Function
%as = OpLoad %ast %asv
%ld = OpLoad %u32 %x
OpRayQueryInitializeKHR %q %as %c0 %c0 %o %fz %o %fz
` + body + `OpReturn
OpFunctionEnd
`
}

// rqInit is rqModule with OpRayQueryInitializeKHR's operands replaced:
// ops is its operand list after the Ray Query.
func rqInit(decls, ops string) string {
	return strings.Replace(rqModule(decls, ""), "%q %as %c0 %c0 %o %fz %o %fz", "%q "+ops, 1)
}

type rqCase struct {
	name, src, want string
	env             Env // zero: universal 1.6, spirv-val's default
}

// rq is a case in the universal 1.6 environment.
func rq(name, src, want string) rqCase { return rqCase{name: name, src: src, want: want} }

// rqInitCases cover OpRayQueryInitializeKHR and the commands without a
// result.
func rqInitCases() []rqCase {
	withOMM := strings.NewReplacer("OpCapability RayQueryKHR\n", "OpCapability RayQueryKHR\nOpCapability RayTracingOpacityMicromapKHR\n",
		"OpExtension \"SPV_KHR_ray_query\"\n", "OpExtension \"SPV_KHR_ray_query\"\nOpExtension \"SPV_EXT_opacity_micromap\"\n").
		Replace(rqInit("%f400 = OpConstant %u32 0x400\n", "%as %f400 %c0 %o %fz %o %fz"))
	fnParam := strings.Replace(rqModule("%fq = OpTypeFunction %void %rqt\n", ""), "OpFunctionEnd\n",
		"OpFunctionEnd\n%g = OpFunction %void None %fq\n%gp = OpFunctionParameter %rqt\n%ge = OpLabel\nOpRayQueryTerminateKHR %gp\nOpReturn\nOpFunctionEnd\n", 1)
	return []rqCase{
		rq("valid commands", rqModule("", "OpRayQueryGenerateIntersectionKHR %q %fz\nOpRayQueryConfirmIntersectionKHR %q\nOpRayQueryTerminateKHR %q\n"), ""),
		rq("not a memory object", rqModule("", "OpRayQueryTerminateKHR %as\n"), "Ray Query must be a memory object declaration"),
		rq("not a pointer", fnParam, "Ray Query must be a pointer"),
		rq("pointer to another type", rqModule("", "OpRayQueryConfirmIntersectionKHR %x\n"), "Ray Query must be a pointer to OpTypeRayQueryKHR"),
		rq("acceleration structure", rqInit("", "%c0 %c0 %c0 %o %fz %o %fz"), "Expected Acceleration Structure to be of type OpTypeAccelerationStructureKHR"),
		rq("ray flags float", rqInit("", "%as %fz %c0 %o %fz %o %fz"), "Ray Flags must be a 32-bit int scalar"),
		rq("ray flags variable", rqInit("", "%as %ld %c0 %o %fz %o %fz"), ""),
		rq("opacity micromap flag", rqInit("%f400 = OpConstant %u32 0x400\n", "%as %f400 %c0 %o %fz %o %fz"),
			"The ForceOpacityMicromap2StateKHR flag requires the RayTracingOpacityMicromapKHR and RayQueryKHR or RayTracingKHR capabilities"),
		rq("opacity micromap flag with capability", withOMM, ""),
		rq("opacity micromap flag spec constant", rqInit("%f400 = OpSpecConstant %u32 0x400\n", "%as %f400 %c0 %o %fz %o %fz"), ""),
		rq("cull mask", rqInit("", "%as %c0 %o %o %fz %o %fz"), "Cull Mask must be a 32-bit int scalar"),
		rq("ray origin scalar", rqInit("", "%as %c0 %c0 %fz %fz %o %fz"), "Ray Origin must be a 32-bit float 3-component vector"),
		rq("ray origin 64-bit", rqInit("%dz = OpConstantNull %d3\n", "%as %c0 %c0 %dz %fz %o %fz"), "Ray Origin must be a 32-bit float 3-component vector"),
		rq("ray origin 2 components", rqInit("%o2 = OpConstantNull %v2\n", "%as %c0 %c0 %o2 %fz %o %fz"), "Ray Origin must be a 32-bit float 3-component vector"),
		rq("ray tmin", rqInit("", "%as %c0 %c0 %o %c0 %o %fz"), "Ray TMin must be a 32-bit float scalar"),
		rq("ray direction", rqInit("%o4 = OpConstantNull %v4\n", "%as %c0 %c0 %o %fz %o4 %fz"), "Ray Direction must be a 32-bit float 3-component vector"),
		rq("ray tmax", rqInit("%dn = OpConstantNull %f64\n", "%as %c0 %c0 %o %fz %o %dn"), "Ray TMax must be a 32-bit float scalar"),
		rq("hit t", rqModule("", "OpRayQueryGenerateIntersectionKHR %q %c0\n"), "Hit T must be a 32-bit float scalar"),
		{"valid commands vulkan", rqModule("", "OpRayQueryGenerateIntersectionKHR %q %fz\nOpRayQueryTerminateKHR %q\n"), "", EnvVulkan1_2},
		{"ray direction vulkan", rqInit("", "%as %c0 %c0 %o %fz %fz %fz"), "Ray Direction must be a 32-bit float 3-component vector", EnvVulkan1_2},
	}
}

// rqGet is a module with one query %r of result type ty and the given
// operands after the Ray Query %q.
func rqGet(decls, op, ty, ops string) string {
	return rqModule(decls, "%r = "+op+" "+ty+" %q"+ops+"\n")
}

// rqGetterCases cover the queries of SPV_KHR_ray_query.
func rqGetterCases() []rqCase {
	const (
		boolMsg  = "expected Result Type to be bool scalar type"
		floatMsg = "expected Result Type to be 32-bit float scalar type"
		intMsg   = "expected Result Type to be 32-bit int scalar type"
		vec3Msg  = "expected Result Type to be 32-bit float 3-component vector type"
		interMsg = "expected Intersection ID to be a constant 32-bit int scalar"
	)
	valid := rqModule("%m33 = OpTypeMatrix %v3 3\n", `%r1 = OpRayQueryProceedKHR %bool %q
%r2 = OpRayQueryGetIntersectionTypeKHR %u32 %q %c1
%r3 = OpRayQueryGetRayTMinKHR %f32 %q
%r4 = OpRayQueryGetRayFlagsKHR %u32 %q
%r5 = OpRayQueryGetIntersectionTKHR %f32 %q %c0
%r6 = OpRayQueryGetIntersectionInstanceCustomIndexKHR %u32 %q %c0
%r7 = OpRayQueryGetIntersectionInstanceIdKHR %u32 %q %c0
%r8 = OpRayQueryGetIntersectionInstanceShaderBindingTableRecordOffsetKHR %u32 %q %c0
%r9 = OpRayQueryGetIntersectionGeometryIndexKHR %u32 %q %c0
%r10 = OpRayQueryGetIntersectionPrimitiveIndexKHR %u32 %q %c0
%r11 = OpRayQueryGetIntersectionBarycentricsKHR %v2 %q %c0
%r12 = OpRayQueryGetIntersectionFrontFaceKHR %bool %q %c0
%r13 = OpRayQueryGetIntersectionCandidateAABBOpaqueKHR %bool %q
%r14 = OpRayQueryGetIntersectionObjectRayDirectionKHR %v3 %q %c0
%r15 = OpRayQueryGetIntersectionObjectRayOriginKHR %v3 %q %c0
%r16 = OpRayQueryGetWorldRayDirectionKHR %v3 %q
%r17 = OpRayQueryGetWorldRayOriginKHR %v3 %q
%r18 = OpRayQueryGetIntersectionObjectToWorldKHR %m43 %q %c0
%r19 = OpRayQueryGetIntersectionWorldToObjectKHR %m43 %q %c0
`)
	return []rqCase{
		rq("valid queries", valid, ""),
		rq("proceed ray query", rqModule("", "%r = OpRayQueryProceedKHR %bool %x\n"), "Ray Query must be a pointer to OpTypeRayQueryKHR"),
		rq("proceed result", rqGet("", "OpRayQueryProceedKHR", "%u32", ""), boolMsg),
		rq("candidate AABB opaque result", rqGet("", "OpRayQueryGetIntersectionCandidateAABBOpaqueKHR", "%f32", ""), boolMsg),
		rq("front face result", rqGet("", "OpRayQueryGetIntersectionFrontFaceKHR", "%u32", " %c1"), boolMsg),
		rq("front face intersection variable", rqGet("", "OpRayQueryGetIntersectionFrontFaceKHR", "%bool", " %ld"), interMsg),
		rq("front face result before intersection", rqGet("", "OpRayQueryGetIntersectionFrontFaceKHR", "%u32", " %fz"), boolMsg),
		rq("ray tmin result", rqGet("", "OpRayQueryGetRayTMinKHR", "%f64", ""), floatMsg),
		rq("intersection t result", rqGet("", "OpRayQueryGetIntersectionTKHR", "%u32", " %c0"), floatMsg),
		rq("intersection t intersection float", rqGet("", "OpRayQueryGetIntersectionTKHR", "%f32", " %fz"), interMsg),
		rq("intersection t spec constant", rqGet("%sc = OpSpecConstant %u32 1\n", "OpRayQueryGetIntersectionTKHR", "%f32", " %sc"), ""),
		rq("intersection t null constant", rqGet("%nc = OpConstantNull %u32\n", "OpRayQueryGetIntersectionTKHR", "%f32", " %nc"), ""),
		rq("ray flags result", rqGet("", "OpRayQueryGetRayFlagsKHR", "%f32", ""), intMsg),
		rq("intersection type result", rqGet("", "OpRayQueryGetIntersectionTypeKHR", "%bool", " %c0"), intMsg),
		rq("instance id intersection", rqGet("", "OpRayQueryGetIntersectionInstanceIdKHR", "%u32", " %ld"), interMsg),
		rq("primitive index result", rqGet("", "OpRayQueryGetIntersectionPrimitiveIndexKHR", "%f32", " %c0"), intMsg),
		rq("world ray origin result", rqGet("", "OpRayQueryGetWorldRayOriginKHR", "%v2", ""), vec3Msg),
		rq("world ray direction result 64-bit", rqGet("", "OpRayQueryGetWorldRayDirectionKHR", "%d3", ""), vec3Msg),
		rq("object ray origin intersection", rqGet("", "OpRayQueryGetIntersectionObjectRayOriginKHR", "%v3", " %ld"), interMsg),
		rq("barycentrics result", rqGet("", "OpRayQueryGetIntersectionBarycentricsKHR", "%v3", " %c0"),
			"expected Result Type to be 32-bit float 2-component vector type"),
		rq("barycentrics intersection before result", rqGet("", "OpRayQueryGetIntersectionBarycentricsKHR", "%v3", " %ld"), interMsg),
		rq("object to world not a matrix", rqGet("", "OpRayQueryGetIntersectionObjectToWorldKHR", "%v3", " %c0"), "expected matrix type as Result Type"),
		rq("object to world columns", rqGet("%m33 = OpTypeMatrix %v3 3\n", "OpRayQueryGetIntersectionObjectToWorldKHR", "%m33", " %c0"),
			"expected Result Type matrix to have a Column Count of 4"),
		rq("world to object column type", rqGet("%m44 = OpTypeMatrix %v4 4\n", "OpRayQueryGetIntersectionWorldToObjectKHR", "%m44", " %c0"),
			"expected Result Type matrix to have a Column Type of 3-component 32-bit float vectors"),
		rq("world to object 64-bit", rqGet("%dm = OpTypeMatrix %d3 4\n", "OpRayQueryGetIntersectionWorldToObjectKHR", "%dm", " %c0"),
			"expected Result Type matrix to have a Column Type of 3-component 32-bit float vectors"),
	}
}

// rqNVCases cover the NV cluster, sphere and linear-swept-sphere queries
// and SPV_KHR_ray_tracing_position_fetch.
func rqNVCases() []rqCase {
	const arrays = "%a2v = OpTypeArray %v3 %c2\n%a3v = OpTypeArray %v3 %c3\n%a2f = OpTypeArray %f32 %c2\n%a3f = OpTypeArray %f32 %c3\n" +
		"%a2d = OpTypeArray %d3 %c2\n%a3d = OpTypeArray %d3 %c3\n%a2h = OpTypeArray %f64 %c2\n%ss = OpSpecConstant %u32 2\n%a2s = OpTypeArray %f32 %ss\n"
	const interMsg = "expected Intersection ID to be a constant 32-bit int scalar"
	valid := rqModule(arrays, `%r1 = OpRayQueryGetIntersectionClusterIdNV %u32 %q %c0
%r2 = OpRayQueryGetIntersectionSpherePositionNV %v3 %q %c0
%r3 = OpRayQueryGetIntersectionSphereRadiusNV %f32 %q %c0
%r4 = OpRayQueryGetIntersectionLSSPositionsNV %a2v %q %c0
%r5 = OpRayQueryGetIntersectionLSSRadiiNV %a2f %q %c0
%r6 = OpRayQueryGetIntersectionLSSHitValueNV %f32 %q %c0
%r7 = OpRayQueryIsSphereHitNV %bool %q %c0
%r8 = OpRayQueryIsLSSHitNV %bool %q %c1
%r9 = OpRayQueryGetIntersectionTriangleVertexPositionsKHR %a3v %q %c0
%r10 = OpRayQueryGetIntersectionLSSPositionsNV %a2d %q %c0
%r11 = OpRayQueryGetIntersectionLSSRadiiNV %a2h %q %c0
`)
	lssPos := "Expected 2 element array of 32-bit 3 component float point vector as Result Type: RayQueryGetIntersectionLSSPositionsNV"
	lssRadii := "Expected 32-bit floating point scalar as Result Type: RayQueryGetIntersectionLSSRadiiNV"
	vertex := "Expected 3 element array of 32-bit 3 component float point vector as Result Type: RayQueryGetIntersectionTriangleVertexPositionsKHR"
	return []rqCase{
		rq("valid NV and position fetch queries", valid, ""),
		rq("cluster id result", rqGet("", "OpRayQueryGetIntersectionClusterIdNV", "%f32", " %c0"), "expected Result Type to be 32-bit int scalar type"),
		rq("cluster id intersection before result", rqGet("", "OpRayQueryGetIntersectionClusterIdNV", "%f32", " %ld"), interMsg),
		rq("cluster id ray query", rqModule("", "%r = OpRayQueryGetIntersectionClusterIdNV %u32 %as %c0\n"), "Ray Query must be a memory object declaration"),
		rq("sphere position result", rqGet("", "OpRayQueryGetIntersectionSpherePositionNV", "%v4", " %c0"),
			"expected Result Type to be 32-bit float 3-component vector type"),
		rq("sphere radius result", rqGet("", "OpRayQueryGetIntersectionSphereRadiusNV", "%f64", " %c0"),
			"expected Result Type to be 32-bit floating point scalar type"),
		rq("lss hit value result", rqGet("", "OpRayQueryGetIntersectionLSSHitValueNV", "%u32", " %c0"),
			"expected Result Type to be 32-bit floating point scalar type"),
		rq("is sphere hit result", rqGet("", "OpRayQueryIsSphereHitNV", "%u32", " %c0"), "expected Result Type to be Boolean scalar type"),
		rq("is lss hit intersection", rqGet("", "OpRayQueryIsLSSHitNV", "%bool", " %fz"), interMsg),
		rq("lss positions length", rqGet(arrays, "OpRayQueryGetIntersectionLSSPositionsNV", "%a3v", " %c0"), lssPos),
		rq("lss positions not an array", rqGet(arrays, "OpRayQueryGetIntersectionLSSPositionsNV", "%v3", " %c0"), lssPos),
		rq("lss positions scalars", rqGet(arrays, "OpRayQueryGetIntersectionLSSPositionsNV", "%a2f", " %c0"), lssPos),
		rq("lss radii length", rqGet(arrays, "OpRayQueryGetIntersectionLSSRadiiNV", "%a3f", " %c0"), lssRadii),
		rq("lss radii spec constant length", rqGet(arrays, "OpRayQueryGetIntersectionLSSRadiiNV", "%a2s", " %c0"), lssRadii),
		rq("lss radii vectors", rqGet(arrays, "OpRayQueryGetIntersectionLSSRadiiNV", "%a2v", " %c0"), lssRadii),
		rq("vertex positions length", rqGet(arrays, "OpRayQueryGetIntersectionTriangleVertexPositionsKHR", "%a2v", " %c0"), vertex),
		rq("vertex positions 64-bit", rqGet(arrays, "OpRayQueryGetIntersectionTriangleVertexPositionsKHR", "%a3d", " %c0"), vertex),
		rq("vertex positions intersection", rqGet(arrays, "OpRayQueryGetIntersectionTriangleVertexPositionsKHR", "%a3v", " %ld"), interMsg),
	}
}

// TestRayQuery is the ray-query rule table (ray_query.go). Every case's
// verdict and first line are current spirv-val's (v2026.4; Debian's
// 2023.1 lacks the NV queries): with $SPVX_CURRENT_SPIRV_TOOLS set to the
// bin folder scripts/build-spirv-tools.sh prints, each case is also run
// through that spirv-val and must agree with the table.
func TestRayQuery(t *testing.T) {
	var cases []rqCase
	cases = append(cases, rqInitCases()...)
	cases = append(cases, rqGetterCases()...)
	cases = append(cases, rqNVCases()...)
	runTable(t, cases)
}

// currentSpirvVal is the current spirv-val in $SPVX_CURRENT_SPIRV_TOOLS,
// or "" (with a log line) when it is not set or -short.
func currentSpirvVal(t *testing.T) string {
	bin := os.Getenv(currentToolsEnv)
	if bin == "" || testing.Short() {
		t.Logf("not comparing with current spirv-val: $%s unset or -short", currentToolsEnv)
		return ""
	}
	return filepath.Join(bin, "spirv-val")
}

// checkCurrentSpirvVal runs spirv-val on words and requires its verdict,
// and its first message line when it rejects, to be want.
func checkCurrentSpirvVal(t *testing.T, sv, path string, words []uint32, opts Options, want string) {
	t.Helper()
	b := make([]byte, 4*len(words))
	for k, w := range words {
		binary.LittleEndian.PutUint32(b[4*k:], w)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	r := oracle.Run(sv, nil, append(oracleFlags(opts), path)...)
	switch r.Status {
	case oracle.Failed:
		t.Fatalf("running %s: %v", sv, r.Err)
	case oracle.Accepted:
		if want != "" {
			t.Errorf("current spirv-val accepts; the table wants %q", want)
		}
		return
	}
	line, _, _ := strings.Cut(string(r.Stderr)+string(r.Stdout), "\n")
	if _, msg, ok := strings.Cut(line, ": "); ok {
		if _, rest, ok := strings.Cut(msg, ": "); ok {
			line = rest
		}
	}
	if line != want {
		t.Errorf("current spirv-val says %q; the table wants %q", line, want)
	}
}

// TestRayQueryAllocs: the ray-query rules allocate nothing per
// instruction on a valid module (a rule taking the instruction through a
// function value moves every instruction of the second loop to the heap).
func TestRayQueryAllocs(t *testing.T) {
	allocs := func(n int) float64 {
		var b strings.Builder
		for k := 0; k < n; k++ {
			fmt.Fprintf(&b, `%%p%[1]d = OpRayQueryProceedKHR %%bool %%q
%%t%[1]d = OpRayQueryGetIntersectionTKHR %%f32 %%q %%c1
%%w%[1]d = OpRayQueryGetIntersectionWorldToObjectKHR %%m43 %%q %%c0
%%l%[1]d = OpRayQueryGetIntersectionLSSPositionsNV %%a2v %%q %%c0
OpRayQueryGenerateIntersectionKHR %%q %%fz
`, k)
		}
		m, err := spirv.DecodeWords(assemble(t, rqModule("%a2v = OpTypeArray %v3 %c2\n", b.String())))
		if err != nil {
			t.Fatal(err)
		}
		if err := Validate(m, Options{}); err != nil {
			t.Fatalf("module rejected: %v", err)
		}
		return testing.AllocsPerRun(5, func() { _ = Validate(m, Options{}) })
	}
	small, large := allocs(10), allocs(200)
	if large-small > 20 {
		t.Errorf("Validate allocates %.0f times for 10 repetitions of the queries and %.0f for 200", small, large)
	}
}

// FuzzRayQuery validates mutations of the table's modules in the
// universal and Vulkan environments: the ray-query rules must never
// panic on malformed operands or types.
func FuzzRayQuery(f *testing.F) {
	for _, cs := range [][]rqCase{rqInitCases(), rqGetterCases(), rqNVCases()} {
		for _, c := range cs {
			f.Add(wordsToBytes(assembleF(f, c.src)))
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := spirv.Decode(b)
		if err != nil {
			return
		}
		_ = Validate(m, Options{All: true})
		_ = Validate(m, Options{All: true, Env: EnvVulkan1_3})
	})
}
