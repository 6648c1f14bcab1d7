package main

import (
	"fmt"
	"strings"

	"spvx/subgroup"
)

// The expect-fail scripts (".expect_fail." in the name, Amber's convention
// for a script that must fail) run OpSubgroupBitcastShuffleINTEL where its
// behaviour is undefined: on a partial subgroup, and in divergent control
// flow. BITCAST-SHUFFLE.md requires the executor to report both rather than
// compute something. They have no EXPECT: any RUN that completes is wrong.

// divergentShuffleShader is the u32 → 2xu16 shader with the shuffle moved
// under a branch taken only by SubgroupLocalInvocationId 0.
func divergentShuffleShader() (string, error) {
	sh := shuffleShader(subgroup.U(32, 1), subgroup.U(16, 2))
	lines := strings.Split(strings.TrimSuffix(sh, "\n"), "\n")
	var out []string
	done := 0
	for _, l := range lines {
		switch {
		case l == "%fn = OpTypeFunction %void":
			out = append(out, l, "%bool = OpTypeBool")
			done++
		case strings.HasPrefix(l, "%r = OpSubgroupBitcastShuffleINTEL"):
			out = append(out,
				"%one = OpULessThan %bool %lane %c1",
				"OpSelectionMerge %merge None",
				"OpBranchConditional %one %then %merge",
				"%then = OpLabel",
				l)
			done++
		case l == "OpReturn":
			out = append(out, "OpBranch %merge", "%merge = OpLabel", l)
			done++
		default:
			out = append(out, l)
		}
	}
	if done != 3 {
		return "", fmt.Errorf("divergent shader: %d of 3 edits applied", done)
	}
	return strings.Join(out, "\n") + "\n", nil
}

func undefinedShuffleScripts() ([]*script, error) {
	src, dst := subgroup.U(32, 1), subgroup.U(16, 2)
	in := make([]uint64, 8)
	for i := range in {
		in[i] = uint64(i)*0x00020002 + 0x00010000 // 0|1, 2|3, ... as in the spec's example
	}

	p := newScript("bitcast_shuffle_partial_subgroup.expect_fail.amber",
		"Must fail: OpSubgroupBitcastShuffleINTEL on a partial subgroup (local size 6, REQUIRED_SIZE 4,",
		"FULLY_POPULATED off: the second subgroup has 2 invocations). SPV_INTEL_subgroup_bitcast_shuffle:",
		"\"behavior is undefined unless the SubgroupSize is equal to the SubgroupMaxSize\"; the executor",
		"must report it. No EXPECT: a RUN that completes is the failure.")
	p.summary = "expect-fail: OpSubgroupBitcastShuffleINTEL on a partial subgroup (local size 6, SubgroupSize 4) must be reported"
	p.require(shuffleFeatures(src, dst), nil)
	p.shader("shuffle", "spv1.3", shuffleShader(src, dst))
	p.bufferData("in", "uint32", in[:6])
	p.bufferZero("out", "uint32", 6)
	p.pipeline(pipeline{name: "pipe", shader: "shuffle", subgroupSize: 4, partial: true,
		specialize: [][2]uint32{{0, 6}}, bindings: []string{"in", "out"}})
	p.run("pipe", 1)

	sh, err := divergentShuffleShader()
	if err != nil {
		return nil, err
	}
	d := newScript("bitcast_shuffle_divergent.expect_fail.amber",
		"Must fail: OpSubgroupBitcastShuffleINTEL reached by invocation 0 of each subgroup only (a branch",
		"on SubgroupLocalInvocationId < 1), with full subgroups of 4. SPV_INTEL_subgroup_bitcast_shuffle:",
		"\"behavior is undefined unless all invocations within the subgroup execute the same dynamic",
		"instance of this instruction\"; the executor must report it. No EXPECT: a RUN that completes is",
		"the failure.")
	d.summary = "expect-fail: OpSubgroupBitcastShuffleINTEL in divergent control flow must be reported"
	d.require(shuffleFeatures(src, dst), nil)
	d.shader("shuffle", "spv1.3", sh)
	d.bufferData("in", "uint32", in)
	d.bufferZero("out", "uint32", 8)
	d.pipeline(pipeline{name: "pipe", shader: "shuffle", subgroupSize: 4,
		specialize: [][2]uint32{{0, 8}}, bindings: []string{"in", "out"}})
	d.run("pipe", 1)
	return []*script{p, d}, nil
}
