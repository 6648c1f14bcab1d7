package val

import (
	"strings"
	"testing"

	"spvx/asm"
)

// TestInterfaceStorageClasses covers ValidateStorageClass
// (interface_storage.go) with current SPIRV-Tools' messages: Debian's
// spirv-val 2023.1 predates the rule (SPIRV-Tools #5528, 2024).
func TestInterfaceStorageClasses(t *testing.T) {
	const block = "OpDecorate %s Block\nOpMemberDecorate %s 0 Offset 0\n"
	twoVars := func(caps, exts, model, sc, annot string) string {
		var b strings.Builder
		for _, c := range strings.Fields(caps) {
			b.WriteString("OpCapability " + c + "\n")
		}
		for _, e := range strings.Fields(exts) {
			b.WriteString("OpExtension \"" + e + "\"\n")
		}
		b.WriteString("OpMemoryModel Logical GLSL450\nOpEntryPoint " + model + " %main \"main\" %a %b\n")
		if model == "GLCompute" {
			b.WriteString("OpExecutionMode %main LocalSize 1 1 1\n")
		}
		b.WriteString(annot + "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%u = OpTypeInt 32 0\n%s = OpTypeStruct %u\n")
		b.WriteString("%p = OpTypePointer " + sc + " %s\n%a = OpVariable %p " + sc + "\n%q = OpTypePointer Private %u\n")
		b.WriteString("%b = OpVariable %q Private\n%main = OpFunction %void None %fn\n%entry = OpLabel\nOpReturn\nOpFunctionEnd\n")
		return b.String()
	}
	second := func(src, sc string) string { // %b in sc too
		return strings.Replace(src, "%b = OpVariable %q Private", "%b = OpVariable %p "+sc, 1)
	}
	const rt = "RayTracingKHR"
	bf16 := func(sc string) string {
		return "OpCapability Shader\nOpCapability BFloat16TypeKHR\nOpExtension \"SPV_KHR_bfloat16\"\nOpMemoryModel Logical GLSL450\n" +
			"OpEntryPoint GLCompute %main \"main\" %v\nOpExecutionMode %main LocalSize 1 1 1\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n" +
			"%bf = OpTypeFloat 16 BFloat16KHR\n%v2 = OpTypeVector %bf 2\n%p = OpTypePointer " + sc + " %v2\n%v = OpVariable %p " + sc + "\n" +
			"%main = OpFunction %void None %fn\n%entry = OpLabel\nOpReturn\nOpFunctionEnd\n"
	}
	pc := twoVars("Shader", "", "GLCompute", "PushConstant", block)
	ray := twoVars(rt, "SPV_KHR_ray_tracing", "MissKHR", "IncomingRayPayloadKHR", "")
	hit := twoVars(rt, "SPV_KHR_ray_tracing", "AnyHitKHR", "HitAttributeKHR", "")
	call := twoVars(rt, "SPV_KHR_ray_tracing", "CallableKHR", "IncomingCallableDataKHR", "")
	banks := strings.Replace(second(pc, "PushConstant"), "OpCapability Shader\n", "OpCapability Shader\nOpCapability PushConstantBanksNV\nOpExtension \"SPV_NV_push_constant_bank\"\n", 1)
	cases := []struct {
		name, src string
		env       Env
		want      string
	}{
		{"one PushConstant", pc, EnvVulkan1_3, ""},
		{"two PushConstant", second(pc, "PushConstant"), EnvVulkan1_3,
			"[VUID-StandaloneSpirv-OpVariable-06673] Entry-point has more than one variable with the PushConstant storage class in the interface"},
		{"two PushConstant universal", second(pc, "PushConstant"), EnvUniversal1_6, ""},
		{"two PushConstant with PushConstantBanksNV", banks, EnvVulkan1_3, ""},
		{"one IncomingRayPayloadKHR", ray, EnvVulkan1_3, ""},
		{"two IncomingRayPayloadKHR", second(ray, "IncomingRayPayloadKHR"), EnvVulkan1_3,
			"[VUID-StandaloneSpirv-IncomingRayPayloadKHR-04700] Entry-point has more than one variable with the IncomingRayPayloadKHR storage class in the interface"},
		{"two HitAttributeKHR", second(hit, "HitAttributeKHR"), EnvVulkan1_3,
			"[VUID-StandaloneSpirv-HitAttributeKHR-04702] Entry-point has more than one variable with the HitAttributeKHR storage class in the interface"},
		{"two IncomingCallableDataKHR", second(call, "IncomingCallableDataKHR"), EnvVulkan1_3,
			"[VUID-StandaloneSpirv-IncomingCallableDataKHR-04706] Entry-point has more than one variable with the IncomingCallableDataKHR storage class in the interface"},
		{"BFloat16 Input", bf16("Input"), EnvVulkan1_3,
			"[VUID-StandaloneSpirv-OpTypeFloat-10370] Bfloat16 OpVariable <id> '2[%2]' must not be declared with a Storage Class of Input or Output."},
		{"BFloat16 Input universal", bf16("Input"), EnvUniversal1_6, ""},
		{"BFloat16 Private", bf16("Private"), EnvVulkan1_3, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			words, err := asm.Assemble([]byte(c.src), asm.Options{TargetEnv: c.env.String()})
			if err != nil {
				t.Fatalf("assembling:\n%s\n%v", c.src, err)
			}
			if got := firstError(t, words, Options{Env: c.env}); got != c.want {
				t.Errorf("got  %q\nwant %q\nmodule:\n%s", got, c.want, c.src)
			}
		})
	}
}
