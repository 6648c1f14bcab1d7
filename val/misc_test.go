package val

import (
	"strings"
	"testing"
)

func TestMisc(t *testing.T) {
	const clock = "ShaderClockKHR SPV_KHR_shader_clock"
	const v2u = "%v2u = OpTypeVector %uint 2"
	cases := []vcase{
		{name: "undef", src: compSrc("", "", "%x = OpUndef %uint", "")},
		{name: "undef-void", src: compSrc("", "", "%x = OpUndef %void", ""),
			want: "error: line 23: Cannot create undefined values with void type"},
		{name: "undef-16-bit", src: compSrc("StorageBuffer16BitAccess SPV_KHR_16bit_storage", "", "%h = OpTypeInt 16 0\n%x = OpUndef %h", ""),
			want: "error: line 26: Cannot create undefined values with 8- or 16-bit types"},
		{name: "undef-16-bit-pointer", src: compSrc("StorageBuffer16BitAccess SPV_KHR_16bit_storage", "", "%h = OpTypeInt 16 0\n%ph = OpTypePointer Function %h\n%x = OpUndef %ph", "")},
		{name: "undef-16-bit-cap", src: compSrc("Int16", "", "%h = OpTypeInt 16 0\n%x = OpUndef %h", "")},
		{name: "clock", src: compSrc(clock, "", v2u, "%c = OpReadClockKHR %v2u %u3")},
		{name: "clock-vulkan", env: EnvVulkan1_1, src: compSrc(clock, "", v2u, "%c = OpReadClockKHR %v2u %u1")},
		{name: "clock-scope-vulkan", env: EnvVulkan1_1, src: compSrc(clock, "", v2u, "%c = OpReadClockKHR %v2u %u2"),
			want: "error: line 28: [VUID-StandaloneSpirv-OpReadClockKHR-04652] Scope must be Subgroup or Device"},
		{name: "clock-result", src: compSrc(clock, "", v2u, "%c = OpReadClockKHR %uint %u3"),
			want: "error: line 28: Expected Value to be a vector of two components of unsigned integer or 64bit unsigned integer"},
		{name: "clock-scope-value", src: compSrc(clock, "", v2u+"\n%u9 = OpConstant %uint 9", "%c = OpReadClockKHR %v2u %u9"),
			want: "error: line 29: Invalid scope value:"},
		{name: "is-helper", src: modelSrc("Fragment", "OpExecutionMode %main OriginUpperLeft\n", "DemoteToHelperInvocation", "", "", "%h = OpIsHelperInvocationEXT %bool")},
		{name: "is-helper-result", src: modelSrc("Fragment", "OpExecutionMode %main OriginUpperLeft\n", "DemoteToHelperInvocation", "", "", "%h = OpIsHelperInvocationEXT %uint"),
			want: "error: line 26: Expected bool scalar type as Result Type: IsHelperInvocationEXT"},
		{name: "is-helper-compute", src: compSrc("DemoteToHelperInvocation", "", "", "%h = OpIsHelperInvocationEXT %bool"),
			want: "error: line 24: OpEntryPoint Entry Point <id> '1[%1]'s callgraph contains function <id> '1[%1]', which cannot be used with the current execution model:"},
		{name: "abort", src: abortSrc("%uint", "%u1"), gap: "OpAbortKHR is newer than 2023.1"},
		{name: "abort-struct-match", src: abortSrc("%s2", "%cs"), gap: "OpAbortKHR is newer than 2023.1"},
		{name: "abort-mismatch", src: abortSrc("%int", "%u1"), want: "error: line 30: Type of Message operand does not logically match the type of the Message Type operand", gap: "OpAbortKHR is newer than 2023.1"},
	}
	runCases(t, cases)
}

// abortSrc ends main with OpAbortKHR of the given Message Type and
// Message (%s1 and %s2 are two declarations of struct { uint }).
func abortSrc(msgType, msg string) string {
	src := compSrc("AbortKHR SPV_KHR_abort", "", "%s1 = OpTypeStruct %uint\n%s2 = OpTypeStruct %uint\n%cs = OpConstantComposite %s1 %u1", "OpAbortKHR "+msgType+" "+msg)
	return strings.Replace(src, "OpAbortKHR "+msgType+" "+msg+"\nOpReturn\n", "OpAbortKHR "+msgType+" "+msg+"\n", 1)
}
