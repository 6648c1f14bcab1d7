package val

import "testing"

func TestNonUniform(t *testing.T) {
	const caps = "GroupNonUniform GroupNonUniformBallot GroupNonUniformVote GroupNonUniformArithmetic GroupNonUniformShuffle GroupNonUniformQuad GroupNonUniformClustered"
	const decls = "%v4 = OpTypeVector %uint 4\n%v3 = OpTypeVector %uint 3\n%t = OpConstantTrue %bool\n%i1 = OpConstant %int 1\n%f1 = OpConstant %float 1\n%b4 = OpConstantComposite %v4 %u1 %u1 %u1 %u1\n"
	nu := func(body string) string { return compSrc(caps, "", decls, body) }
	cases := []vcase{
		{name: "elect", src: nu("%r = OpGroupNonUniformElect %bool %u3")},
		{name: "elect-result", src: nu("%r = OpGroupNonUniformElect %uint %u3"), want: "error: line 38: Result must be a boolean scalar type", gap: "type rules newer than 2023.1"},
		{name: "all-predicate", src: nu("%r = OpGroupNonUniformAll %bool %u3 %u1"), want: "error: line 38: Predicate must be a boolean scalar type", gap: "type rules newer than 2023.1"},
		{name: "all-equal", src: nu("%r = OpGroupNonUniformAllEqual %bool %u3 %f1")},
		{name: "broadcast", src: nu("%r = OpGroupNonUniformBroadcast %uint %u3 %u1 %u0")},
		{name: "broadcast-signed-id", src: nu("%r = OpGroupNonUniformBroadcast %uint %u3 %u1 %i1"), want: "error: line 38: Id must be an unsigned integer scalar", gap: "type rules newer than 2023.1"},
		{name: "broadcast-dynamic-id-1.4", env: EnvUniversal1_4, src: nu("%ld = OpLoad %uint %pv\n%r = OpGroupNonUniformBroadcast %uint %u3 %u1 %ld"),
			want: "error: line 39: In SPIR-V 1.4 or earlier, Id must be a constant instruction", gap: "type rules newer than 2023.1"},
		{name: "broadcast-dynamic-id-1.5", env: EnvUniversal1_5, src: nu("%ld = OpLoad %uint %pv\n%r = OpGroupNonUniformBroadcast %uint %u3 %u1 %ld")},
		{name: "shuffle-xor-mask", src: nu("%r = OpGroupNonUniformShuffleXor %uint %u3 %u1 %f1"), want: "error: line 38: Mask must be an unsigned integer scalar", gap: "type rules newer than 2023.1"},
		{name: "quad-swap-dynamic", src: nu("%ld = OpLoad %uint %pv\n%r = OpGroupNonUniformQuadSwap %uint %u3 %u1 %ld"),
			want: "error: line 39: In SPIR-V 1.4 or earlier, Direction must be a constant instruction", gap: "type rules newer than 2023.1"},
		{name: "ballot", src: nu("%r = OpGroupNonUniformBallot %v4 %u3 %t")},
		{name: "ballot-result", src: nu("%r = OpGroupNonUniformBallot %v3 %u3 %t"), want: "error: line 38: Result must be a 4-component unsigned integer vector", gap: "type rules newer than 2023.1"},
		{name: "ballot-predicate", src: nu("%r = OpGroupNonUniformBallot %v4 %u3 %u1"), want: "error: line 38: Predicate must be a boolean scalar", gap: "type rules newer than 2023.1"},
		{name: "inverse-ballot-value", src: nu("%r = OpGroupNonUniformInverseBallot %bool %u3 %u1"), want: "error: line 38: Value must be a 4-component unsigned integer vector", gap: "type rules newer than 2023.1"},
		{name: "bit-extract-id", src: nu("%r = OpGroupNonUniformBallotBitExtract %bool %u3 %b4 %i1"), want: "error: line 38: Id must be an unsigned integer scalar", gap: "type rules newer than 2023.1"},
		{name: "bit-count", src: nu("%r = OpGroupNonUniformBallotBitCount %uint %u3 Reduce %b4")},
		{name: "bit-count-result", src: nu("%r = OpGroupNonUniformBallotBitCount %int %u3 Reduce %b4"), want: "error: line 38: Expected Result Type to be an unsigned integer type scalar."},
		{name: "bit-count-clustered-vulkan", env: EnvVulkan1_1, src: nu("%r = OpGroupNonUniformBallotBitCount %uint %u3 ClusteredReduce %b4"),
			want: "error: line 38: [VUID-StandaloneSpirv-OpGroupNonUniformBallotBitCount-04685] In Vulkan: The OpGroupNonUniformBallotBitCount group operation must be only: Reduce, InclusiveScan, or ExclusiveScan."},
		{name: "find-lsb-value", src: nu("%r = OpGroupNonUniformBallotFindLSB %uint %u3 %u1"), want: "error: line 38: Value must be a 4-component unsigned integer vector", gap: "type rules newer than 2023.1"},
		{name: "iadd-clustered", src: nu("%r = OpGroupNonUniformIAdd %uint %u3 ClusteredReduce %u1 %u4")},
		{name: "iadd-clustered-dynamic", src: nu("%ld = OpLoad %uint %pv\n%r = OpGroupNonUniformIAdd %uint %u3 ClusteredReduce %u1 %ld"),
			want: "error: line 39: ClusterSize must be a constant instruction", gap: "type rules newer than 2023.1"},
		{name: "fadd-int", src: nu("%r = OpGroupNonUniformFAdd %uint %u3 Reduce %u1"), want: "error: line 38: Result must be a floating-point scalar or vector", gap: "type rules newer than 2023.1"},
		{name: "scope-workgroup", src: nu("%r = OpGroupNonUniformIAdd %uint %u2 Reduce %u1"), want: "error: line 38: GroupNonUniformIAdd: Execution scope is limited to Subgroup", gap: "rule newer than 2023.1"},
		{name: "scope-not-constant", src: nu("%ld = OpLoad %uint %pv\n%r = OpGroupNonUniformIAdd %uint %ld Reduce %u1"),
			want: "error: line 39: Scope ids must be OpConstant when Shader capability is present"},
	}
	runCases(t, cases)
}
