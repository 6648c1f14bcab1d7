package val

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"spvx/asm"
	"spvx/spirv"
)

// callSrc: entry points (OpEntryPoint lines and modes) over functions
// %main (calls %a), %a (calls %b), %b (the body, then OpReturn unless the
// body ends in a terminator).
func callSrc(caps, entries, decls, body string) string {
	end := "OpReturn\n"
	if strings.HasSuffix(strings.TrimSpace(body), "OpKill") {
		end = ""
	}
	return "OpCapability Shader\n" + caps + "OpMemoryModel Logical GLSL450\n" + entries +
		"OpName %main \"main\"\nOpName %a \"a\"\nOpName %b \"b\"\n" +
		"%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%float = OpTypeFloat 32\n%f1 = OpConstant %float 1\n" + decls +
		"%main = OpFunction %void None %fn\n%l0 = OpLabel\n%c0 = OpFunctionCall %void %a\nOpReturn\nOpFunctionEnd\n" +
		"%a = OpFunction %void None %fn\n%l1 = OpLabel\n%c1 = OpFunctionCall %void %b\nOpReturn\nOpFunctionEnd\n" +
		"%b = OpFunction %void None %fn\n%l2 = OpLabel\n" + body + "\n" + end + "OpFunctionEnd\n"
}

func TestExecutionLimitations(t *testing.T) {
	const comp = "OpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\n"
	const frag = "OpEntryPoint Fragment %main \"main\"\nOpExecutionMode %main OriginUpperLeft\n"
	const vert = "OpEntryPoint Vertex %main \"main\"\n"
	cases := []vcase{
		{name: "kill-fragment", src: callSrc("", frag, "", "OpKill")},
		{name: "kill-compute", src: callSrc("", comp, "", "OpKill"),
			want: "error: line 22: OpEntryPoint Entry Point <id> '1[%main]'s callgraph contains function <id> '3[%b]', which cannot be used with the current execution model:"},
		{name: "derivative-vertex", src: callSrc("", vert, "", "%d = OpDPdx %float %f1"),
			want: "error: line 21: OpEntryPoint Entry Point <id> '1[%main]'s callgraph contains function <id> '3[%b]', which cannot be used with the current execution model:"},
		{name: "derivative-compute", src: callSrc("", comp, "", "%d = OpDPdx %float %f1"),
			gap: "older oracle: 2023.1 wants a DerivativeGroup mode even without SPV_KHR_compute_shader_derivatives"},
		{name: "derivative-compute-ext-no-mode", src: callSrc("OpCapability ComputeDerivativeGroupQuadsKHR\nOpExtension \"SPV_KHR_compute_shader_derivatives\"\n", comp, "", "%d = OpDPdx %float %f1"),
			want: "error: line 24: OpEntryPoint Entry Point <id> '1[%main]'s callgraph contains function <id> '3[%b]', which cannot be used with the current execution modes:", gap: "SPV_KHR_compute_shader_derivatives is newer than 2023.1"},
		{name: "derivative-compute-ext-mode", src: callSrc("OpCapability ComputeDerivativeGroupQuadsKHR\nOpExtension \"SPV_KHR_compute_shader_derivatives\"\n",
			"OpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 2 2 1\nOpExecutionMode %main DerivativeGroupQuadsKHR\n", "", "%d = OpDPdx %float %f1"), gap: "SPV_KHR_compute_shader_derivatives is newer than 2023.1"},
		{name: "emit-vertex-fragment", src: callSrc("OpCapability Geometry\n", frag, "", "OpEmitVertex"),
			want: "error: line 23: OpEntryPoint Entry Point <id> '1[%main]'s callgraph contains function <id> '3[%b]', which cannot be used with the current execution model:"},
		{name: "demote-compute", src: callSrc("OpCapability DemoteToHelperInvocation\n", comp, "", "OpDemoteToHelperInvocation"),
			want: "error: line 23: OpEntryPoint Entry Point <id> '1[%main]'s callgraph contains function <id> '3[%b]', which cannot be used with the current execution model:", gap: "DemoteToHelperInvocation is core in 1.6 only from 2023.x"},
	}
	runCases(t, cases)
}

// TestExecutionLimitationsReason checks the lines after the first: one
// per failing limitation, VUID-prefixed in Vulkan.
func TestExecutionLimitationsReason(t *testing.T) {
	src := modelSrc("Fragment", "OpExecutionMode %main OriginUpperLeft\n", "", "", "", "OpControlBarrier %u2 %u2 %u0")
	words, err := asm.Assemble([]byte(strings.ReplaceAll(src, "{IFACE}", "")), asm.Options{TargetEnv: "vulkan1.1"})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := spirv.DecodeWords(words)
	err = Validate(m, Options{Env: EnvVulkan1_1})
	want := "OpEntryPoint Entry Point <id> '1[%1]'s callgraph contains function <id> '1[%1]', which cannot be used with the current execution model:\n" +
		"[VUID-StandaloneSpirv-OpControlBarrier-04682] in Vulkan environment, OpControlBarrier execution scope must be Subgroup for Fragment, Vertex, Geometry, TessellationEvaluation, RayGeneration, Intersection, AnyHit, ClosestHit, and Miss execution models\n" +
		"[VUID-StandaloneSpirv-None-04637] in Vulkan environment, Workgroup execution scope is only for TaskNV, MeshNV, TaskEXT, MeshEXT, TessellationControl, and GLCompute execution models\n" +
		"[VUID-StandaloneSpirv-None-07321] Workgroup Memory Scope is limited to MeshNV, TaskNV, MeshEXT, TaskEXT, TessellationControl, and GLCompute execution model\n"
	if err == nil || err.(ErrorList)[0].Msg != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// TestExecutionLimitationsLinear: n entry points all calling a chain of n
// functions, the last with an OpKill: the check must stay linear
// (spirv-val's per-entry-point walk is quadratic here).
func TestExecutionLimitationsLinear(t *testing.T) {
	build := func(n int) *spirv.Module {
		var b strings.Builder
		b.WriteString("OpCapability Shader\nOpMemoryModel Logical GLSL450\n")
		for k := 0; k < n; k++ {
			fmt.Fprintf(&b, "OpEntryPoint Fragment %%e%d \"e%d\"\n", k, k)
		}
		for k := 0; k < n; k++ {
			fmt.Fprintf(&b, "OpExecutionMode %%e%d OriginUpperLeft\n", k)
		}
		b.WriteString("%void = OpTypeVoid\n%fn = OpTypeFunction %void\n")
		for k := 0; k < n; k++ {
			fmt.Fprintf(&b, "%%e%d = OpFunction %%void None %%fn\n%%le%d = OpLabel\n%%ce%d = OpFunctionCall %%void %%f0\nOpReturn\nOpFunctionEnd\n", k, k, k)
		}
		for k := 0; k < n; k++ {
			fmt.Fprintf(&b, "%%f%d = OpFunction %%void None %%fn\n%%l%d = OpLabel\n", k, k)
			if k+1 < n {
				fmt.Fprintf(&b, "%%c%d = OpFunctionCall %%void %%f%d\nOpReturn\n", k, k+1)
			} else {
				b.WriteString("OpKill\n")
			}
			b.WriteString("OpFunctionEnd\n")
		}
		words, err := asm.Assemble([]byte(b.String()), asm.Options{})
		if err != nil {
			t.Fatal(err)
		}
		m, err := spirv.DecodeWords(words)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	small, big := build(250), build(4000)
	// CPU time, best of three: wall time on a loaded machine measured
	// the load.
	run := func(m *spirv.Module) time.Duration {
		best := time.Duration(1 << 62)
		for range 3 {
			start := cpuTime()
			if err := Validate(m, Options{}); err != nil {
				t.Fatalf("rejected: %v", err)
			}
			best = min(best, cpuTime()-start)
		}
		return best
	}
	ts, tb := run(small), run(big)
	t.Logf("250: %v, 4000: %v", ts, tb)
	// 16x the size; quadratic would be 256x. Allow generous noise.
	if tb > 80*ts+50*time.Millisecond {
		t.Errorf("250 entry points over 250 functions: %v, 4000 over 4000: %v: not linear", ts, tb)
	}
}
