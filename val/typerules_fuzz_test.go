package val

import (
	"fmt"
	"strings"
	"testing"

	"spvx/spirv"
)

// typeRuleSeeds are valid modules that use every family of the type
// rules (arithmetic, logical, bitwise, conversion, composite, ext_inst,
// image); byte mutations of them swap ids and types under those rules.
func typeRuleSeeds() []string {
	return []string{
		tr("", `
%a = OpFAdd %f32 %f1 %f1
%c = OpIAdd %i32 %i1 %i1
%e = OpUDiv %v2u %uv %uv
%g = OpDot %f32 %fv %fv
%h = OpVectorTimesScalar %v2f %fv %f1
%l = OpVectorTimesMatrix %v2f %fv3 %mt
%n = OpMatrixTimesVector %v2f %m3 %fv3
%o = OpMatrixTimesMatrix %m22 %m3 %mt
%p = OpOuterProduct %m32 %fv %fv3
%q = OpIAddCarry %sUU %u1 %u1
%r = OpSelect %v2f %bv %fv %fv
%s = OpSLessThan %v2b %iv %uv
%t = OpBitFieldInsert %u32 %u1 %u1 %i1 %u1
%u = OpBitCount %v2i %uv
%v = OpConvertFToS %v2i %fv
%w = OpBitcast %v2u %fv
%x = OpVectorShuffle %v3f %fv %fv 0 3 1
%y = OpCompositeConstruct %v4f %fv %f1 %f1
%z = OpCompositeExtract %f32 %m 1 1
%z2 = OpCompositeInsert %m22 %f1 %m 0 1
%z3 = OpTranspose %m23 %m3
`).text(),
		glslMod("%sFF = OpTypeStruct %f32 %f32", `
%a = OpExtInst %v2f %glsl FClamp %fv %fv %fv
%b = OpExtInst %v2u %glsl UMin %uv %iv
%c = OpExtInst %f32 %glsl Determinant %m
%d = OpExtInst %sFF %glsl ModfStruct %f1
%e = OpExtInst %f32 %glsl Distance %fv %fv
%f = OpExtInst %u32 %glsl PackHalf2x16 %fv
`).text(),
		clMod("", `
%a = OpExtInst %f32 %cl fract %f1 %vf
%b = OpExtInst %u64 %cl u_upsample %u1 %u1
%c = OpExtInst %v2f %cl vloadn %l1 %vf 2
%d = OpExtInst %v2f %cl shuffle %fv %uv
%e = OpExtInst %f32 %cl select %f1 %f1 %u1
`),
		img("", `
%a = OpImageSampleExplicitLod %v4f %si %fv Lod %f1
%b = OpImageFetch %v4f %i %iv
%c = OpImageSampleDrefExplicitLod %f32 %sid %fv %f1 Lod %f1
%d = OpImageGather %v4f %si %fv %i1
%e = OpImageRead %v4f %st %iv
OpImageWrite %st %iv %fv4
%g = OpImageQuerySizeLod %v2i %i %i1
`).text(),
	}
}

// FuzzTypeRules validates mutations of typeRuleSeeds (and any other
// bytes that decode) in the universal, Vulkan and OpenCL environments:
// the type rules must never panic on malformed types or operands.
func FuzzTypeRules(f *testing.F) {
	for _, src := range typeRuleSeeds() {
		f.Add(wordsToBytes(assembleF(f, src)))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := spirv.Decode(b)
		if err != nil {
			return
		}
		_ = Validate(m, Options{All: true})
		_ = Validate(m, Options{All: true, Env: EnvVulkan1_3})
		_ = Validate(m, Options{All: true, Env: EnvOpenCL2_2})
	})
}

// TestTypeRulesAllocs: validating the type-rule families allocates
// nothing per instruction (an instruction moved to the heap, a message
// built eagerly, a cache filled per use would all scale with the body).
func TestTypeRulesAllocs(t *testing.T) {
	allocs := func(n int) float64 {
		var b strings.Builder
		for k := 0; k < n; k++ {
			fmt.Fprintf(&b, `%%xa%[1]d = OpFAdd %%f32 %%f1 %%f1
%%xb%[1]d = OpExtInst %%v2f %%glsl FClamp %%fv %%fv %%fv
%%xc%[1]d = OpIEqual %%bool %%i1 %%u1
%%xd%[1]d = OpShiftLeftLogical %%u32 %%u1 %%u1
%%xe%[1]d = OpConvertFToS %%v2i %%fv
%%xf%[1]d = OpCompositeExtract %%f32 %%m 1 1
%%xg%[1]d = OpVectorShuffle %%v3f %%fv %%fv 0 3 1
%%xh%[1]d = OpImageSampleExplicitLod %%v4f %%si %%fv Lod %%f1
`, k)
		}
		m := img("", b.String())
		m.importGLSL = true
		mod, err := spirv.DecodeWords(assemble(t, m.text()))
		if err != nil {
			t.Fatal(err)
		}
		if err := Validate(mod, Options{}); err != nil {
			t.Fatalf("module rejected: %v", err)
		}
		return testing.AllocsPerRun(5, func() { _ = Validate(mod, Options{}) })
	}
	small, large := allocs(10), allocs(200)
	if large-small > 20 {
		t.Errorf("Validate allocates %.0f times for 10 repetitions of the body and %.0f for 200: something allocates per instruction", small, large)
	}
}
