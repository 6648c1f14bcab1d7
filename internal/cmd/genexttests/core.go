package main

import (
	"fmt"
	"math/bits"
	"strings"
)

// The core subgroup scripts use only SPIR-V 1.3 and KHR subgroup
// capabilities, so Debian's spirv-val (--target-env vulkan1.1) can validate
// them; their expected values come from plain Go loops over each subgroup.

// coreRuns are the subgroup sizes of the core scripts: one workgroup of two
// subgroups except N = 1 (four), N = 4 (two workgroups of two) and N = 32
// (one).
var coreRuns = []shuffleRun{{1, 4, 1}, {4, 8, 2}, {8, 16, 1}, {16, 32, 1}, {32, 32, 1}}

// coreOp is one core subgroup script: the capability it needs, the
// instructions computing its R result words from %v (the invocation's input
// word) and the Go model computing them for a whole subgroup.
type coreOp struct {
	file, about string
	capability  string
	results     int
	// body returns the SPIR-V computing results %r0..%r<R-1> (u32).
	body string
	// model returns the R results of each lane of one subgroup of inputs.
	model func(in []uint32) [][]uint32
	// spec are the extra spec constants (SpecId 1, 2, ...) as functions of N.
	spec []func(n int) uint32
}

var coreOps = []coreOp{
	{
		file: "subgroup_elect.amber", about: "OpGroupNonUniformElect: 1 in the lowest invocation of each (full) subgroup, else 0.",
		capability: "", results: 1,
		body: lines(
			"%e = OpGroupNonUniformElect %bool %scope",
			"%r0 = OpSelect %u32 %e %c1 %c0"),
		model: func(in []uint32) [][]uint32 {
			out := make([][]uint32, len(in))
			for l := range in {
				out[l] = []uint32{b2u(l == 0)}
			}
			return out
		},
	},
	{
		file: "subgroup_ballot.amber", about: "OpGroupNonUniformBallot of (input & 1) (four words) and OpGroupNonUniformBallotBitCount Reduce of it.",
		capability: "GroupNonUniformBallot", results: 5,
		body: lines(
			"%bit = OpBitwiseAnd %u32 %v %c1",
			"%p = OpINotEqual %bool %bit %c0",
			"%bal = OpGroupNonUniformBallot %v4u32 %scope %p",
			"%r0 = OpCompositeExtract %u32 %bal 0",
			"%r1 = OpCompositeExtract %u32 %bal 1",
			"%r2 = OpCompositeExtract %u32 %bal 2",
			"%r3 = OpCompositeExtract %u32 %bal 3",
			"%r4 = OpGroupNonUniformBallotBitCount %u32 %scope Reduce %bal"),
		model: func(in []uint32) [][]uint32 {
			var mask uint32 // subgroups here have at most 32 invocations
			for l, v := range in {
				mask |= (v & 1) << l
			}
			out := make([][]uint32, len(in))
			for l := range in {
				out[l] = []uint32{mask, 0, 0, 0, uint32(bits.OnesCount32(mask))}
			}
			return out
		},
	},
	{
		file: "subgroup_broadcast.amber", about: "OpGroupNonUniformBroadcast from the last invocation (Id: spec constant SpecId 1 = N-1) and OpGroupNonUniformBroadcastFirst.",
		capability: "GroupNonUniformBallot", results: 2,
		body: lines(
			"%r0 = OpGroupNonUniformBroadcast %u32 %scope %v %s1",
			"%r1 = OpGroupNonUniformBroadcastFirst %u32 %scope %v"),
		model: func(in []uint32) [][]uint32 {
			out := make([][]uint32, len(in))
			for l := range in {
				out[l] = []uint32{in[len(in)-1], in[0]}
			}
			return out
		},
		spec: []func(int) uint32{func(n int) uint32 { return uint32(n - 1) }},
	},
	{
		file: "subgroup_shuffle_xor.amber", about: "OpGroupNonUniformShuffleXor with Mask 1 (N-1 when N = 1: SpecId 1) and N-1 (SpecId 2).",
		capability: "GroupNonUniformShuffle", results: 2,
		body: lines(
			"%r0 = OpGroupNonUniformShuffleXor %u32 %scope %v %s1",
			"%r1 = OpGroupNonUniformShuffleXor %u32 %scope %v %s2"),
		model: func(in []uint32) [][]uint32 {
			n := len(in)
			m1 := min(1, n-1)
			out := make([][]uint32, n)
			for l := range in {
				out[l] = []uint32{in[l^m1], in[l^(n-1)]}
			}
			return out
		},
		spec: []func(int) uint32{func(n int) uint32 { return uint32(min(1, n-1)) }, func(n int) uint32 { return uint32(n - 1) }},
	},
	{
		file: "subgroup_iadd.amber", about: "OpGroupNonUniformIAdd Reduce, InclusiveScan and ExclusiveScan (32-bit, wrapping).",
		capability: "GroupNonUniformArithmetic", results: 3,
		body: lines(
			"%r0 = OpGroupNonUniformIAdd %u32 %scope Reduce %v",
			"%r1 = OpGroupNonUniformIAdd %u32 %scope InclusiveScan %v",
			"%r2 = OpGroupNonUniformIAdd %u32 %scope ExclusiveScan %v"),
		model: func(in []uint32) [][]uint32 {
			var sum uint32
			for _, v := range in {
				sum += v
			}
			out := make([][]uint32, len(in))
			var run uint32
			for l, v := range in {
				out[l] = []uint32{sum, run + v, run}
				run += v
			}
			return out
		},
	},
}

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

func coreShader(op coreOp) string {
	var b strings.Builder
	w := func(f string, a ...any) { fmt.Fprintf(&b, f+"\n", a...) }
	w("OpCapability Shader")
	w("OpCapability GroupNonUniform")
	if op.capability != "" {
		w("OpCapability %s", op.capability)
	}
	w("OpMemoryModel Logical GLSL450")
	w(`OpEntryPoint GLCompute %%main "main" %%wgid %%sgid %%sgsize %%sglid`)
	w("OpDecorate %%wgsize BuiltIn WorkgroupSize")
	w("OpDecorate %%lsx SpecId 0")
	for k := range op.spec {
		w("OpDecorate %%s%d SpecId %d", k+1, k+1)
	}
	w("OpDecorate %%wgid BuiltIn WorkgroupId")
	w("OpDecorate %%sgid BuiltIn SubgroupId")
	w("OpDecorate %%sgsize BuiltIn SubgroupSize")
	w("OpDecorate %%sglid BuiltIn SubgroupLocalInvocationId")
	w("OpDecorate %%arr ArrayStride 4")
	w("OpDecorate %%blk Block")
	w("OpMemberDecorate %%blk 0 Offset 0")
	w("OpDecorate %%in DescriptorSet 0")
	w("OpDecorate %%in Binding 0")
	w("OpDecorate %%out DescriptorSet 0")
	w("OpDecorate %%out Binding 1")
	w("%%void = OpTypeVoid")
	w("%%fn = OpTypeFunction %%void")
	w("%%bool = OpTypeBool")
	w("%%u32 = OpTypeInt 32 0")
	w("%%v3u32 = OpTypeVector %%u32 3")
	w("%%v4u32 = OpTypeVector %%u32 4")
	w("%%pin = OpTypePointer Input %%u32")
	w("%%pin3 = OpTypePointer Input %%v3u32")
	w("%%arr = OpTypeRuntimeArray %%u32")
	w("%%blk = OpTypeStruct %%arr")
	w("%%pblk = OpTypePointer StorageBuffer %%blk")
	w("%%pu32 = OpTypePointer StorageBuffer %%u32")
	w("%%c0 = OpConstant %%u32 0")
	w("%%c1 = OpConstant %%u32 1")
	w("%%scope = OpConstant %%u32 3") // Subgroup
	w("%%cR = OpConstant %%u32 %d", op.results)
	for k := 2; k < op.results; k++ {
		w("%%c%d = OpConstant %%u32 %d", k, k)
	}
	w("%%lsx = OpSpecConstant %%u32 64")
	for k := range op.spec {
		w("%%s%d = OpSpecConstant %%u32 0", k+1)
	}
	w("%%wgsize = OpSpecConstantComposite %%v3u32 %%lsx %%c1 %%c1")
	w("%%wgid = OpVariable %%pin3 Input")
	w("%%sgid = OpVariable %%pin Input")
	w("%%sgsize = OpVariable %%pin Input")
	w("%%sglid = OpVariable %%pin Input")
	w("%%in = OpVariable %%pblk StorageBuffer")
	w("%%out = OpVariable %%pblk StorageBuffer")
	w("%%main = OpFunction %%void None %%fn")
	w("%%entry = OpLabel")
	w("%%wg = OpLoad %%v3u32 %%wgid")
	w("%%wgx = OpCompositeExtract %%u32 %%wg 0")
	w("%%base = OpIMul %%u32 %%wgx %%lsx")
	w("%%sg = OpLoad %%u32 %%sgid")
	w("%%sgn = OpLoad %%u32 %%sgsize")
	w("%%lane = OpLoad %%u32 %%sglid")
	w("%%sgbase = OpIMul %%u32 %%sg %%sgn")
	w("%%inv = OpIAdd %%u32 %%sgbase %%lane")
	w("%%idx = OpIAdd %%u32 %%base %%inv")
	w("%%pv = OpAccessChain %%pu32 %%in %%c0 %%idx")
	w("%%v = OpLoad %%u32 %%pv")
	b.WriteString(op.body)
	w("%%ob = OpIMul %%u32 %%idx %%cR")
	for k := 0; k < op.results; k++ {
		w("%%o%d = OpIAdd %%u32 %%ob %%c%d", k, k)
		w("%%po%d = OpAccessChain %%pu32 %%out %%c0 %%o%d", k, k)
		w("OpStore %%po%d %%r%d", k, k)
	}
	w("OpReturn")
	w("OpFunctionEnd")
	return b.String()
}

func coreSubgroupScripts() ([]*script, error) {
	var out []*script
	for oi, op := range coreOps {
		s := newScript(op.file,
			"Core SPIR-V 1.3 subgroup operation (no new extension): "+op.about,
			"Each invocation reads its word in[idx], idx = WorkgroupId.x*L + SubgroupId*SubgroupSize +",
			fmt.Sprintf("SubgroupLocalInvocationId, and writes %d word(s) at out[%d*idx + k]. Subgroups are fully populated;", op.results, op.results),
			"the local size L is SpecId 0. Expected values: Go loops over each subgroup.")
		s.summary = "core (spirv-val checked): " + op.about + " SubgroupSize 1, 4, 8, 16, 32"
		s.require([]string{"SubgroupSizeControl.subgroupSizeControl", "SubgroupSizeControl.computeFullSubgroups"}, nil)
		s.shader("sg", "spv1.3", coreShader(op))
		most := 0
		for _, r := range coreRuns {
			most = max(most, r.G*r.L)
		}
		rg := rng(0xc0de + uint64(oi))
		in := make([]uint64, most)
		for i := range in {
			in[i] = rg.next() & 0xFFFFFFFF
		}
		s.bufferData("in", "uint32", in)
		s.bufferZero("out", "uint32", most*op.results)
		for _, r := range coreRuns {
			pipe := fmt.Sprintf("pipe_n%d", r.N)
			spec := [][2]uint32{{0, uint32(r.L)}}
			for k, f := range op.spec {
				spec = append(spec, [2]uint32{uint32(k + 1), f(r.N)})
			}
			s.pipeline(pipeline{name: pipe, shader: "sg", subgroupSize: r.N, specialize: spec, bindings: []string{"in", "out"}})
			s.comment(fmt.Sprintf("SubgroupSize %d, local size %d, %d workgroup(s).", r.N, r.L, r.G))
			s.run(pipe, r.G)
			var want []uint64
			for g := 0; g < r.G*r.L/r.N; g++ {
				sub := make([]uint32, r.N)
				for l := range sub {
					sub[l] = uint32(in[g*r.N+l])
				}
				for _, res := range op.model(sub) {
					for _, x := range res {
						want = append(want, uint64(x))
					}
				}
			}
			s.expect("out", 4, 0, want)
		}
		out = append(out, s)
	}
	return out, nil
}
