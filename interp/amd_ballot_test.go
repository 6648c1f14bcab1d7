package interp

import (
	"math"
	"math/bits"
	"slices"
	"strings"
	"testing"
)

// amdBallotShader runs every SPV_AMD_shader_ballot operation in
// non-uniform control flow: only the invocations whose input has a low
// bit set take part. Each invocation writes its subgroup id and lane, then
// 19 results.
const amdBallotShader = `#version 450
#extension GL_AMD_shader_ballot : require
#extension GL_ARB_gpu_shader_int64 : require
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 96) in;
layout(set = 0, binding = 0) buffer In { uint vin[]; };
layout(set = 0, binding = 1) buffer Out { uint vout[]; };
const uint N = 21u;
void main() {
  uint i = gl_LocalInvocationIndex;
  uint v = vin[i];
  vout[N * i] = gl_SubgroupID;
  vout[N * i + 1u] = gl_SubgroupInvocationID;
  if ((v & 3u) != 0u) {
    int s = int(v) - 500;
    float f = float(s) * 0.5;
    uint b = N * i + 2u;
    vout[b] = addInvocationsNonUniformAMD(v);
    vout[b + 1u] = addInvocationsInclusiveScanNonUniformAMD(v);
    vout[b + 2u] = addInvocationsExclusiveScanNonUniformAMD(v);
    vout[b + 3u] = minInvocationsNonUniformAMD(v);
    vout[b + 4u] = maxInvocationsInclusiveScanNonUniformAMD(v);
    vout[b + 5u] = uint(minInvocationsExclusiveScanNonUniformAMD(s));
    vout[b + 6u] = uint(maxInvocationsNonUniformAMD(s));
    vout[b + 7u] = floatBitsToUint(addInvocationsInclusiveScanNonUniformAMD(f));
    vout[b + 8u] = floatBitsToUint(minInvocationsNonUniformAMD(f));
    vout[b + 9u] = floatBitsToUint(maxInvocationsExclusiveScanNonUniformAMD(f));
    vout[b + 10u] = swizzleInvocationsAMD(v, uvec4(3u, 0u, 2u, 1u));
    uvec2 w = swizzleInvocationsMaskedAMD(uvec2(v, v + 1u), uvec3(0x1cu, 0x01u, 0x02u));
    vout[b + 11u] = w.x;
    vout[b + 12u] = w.y;
    vout[b + 13u] = writeInvocationAMD(v, 777u, 5u);
    vout[b + 14u] = mbcntAMD(uint64_t(v) * 0x9E3779B97F4A7C15ul);
    vout[b + 15u] = uint(addInvocationsNonUniformAMD(s));
    vout[b + 16u] = floatBitsToUint(addInvocationsNonUniformAMD(f));
    vout[b + 17u] = floatBitsToUint(swizzleInvocationsAMD(f, uvec4(1u, 1u, 3u, 3u)));
    vout[b + 18u] = minInvocationsInclusiveScanNonUniformAMD(v);
  }
}
`

// amdLane is one invocation of the reference model.
type amdLane struct {
	v      uint32
	active bool
}

// amdBallotRef computes the 19 results of lane l of a subgroup of size S
// whose lanes are sg, from the extension's text: reductions and scans
// over the active lanes (scans in lane order, the exclusive ones starting
// from the identity), swizzles reading 0 from inactive lanes.
func amdBallotRef(sg []amdLane, S, l int) []uint32 {
	type acc struct {
		add, mn, mx uint32
		smin, smax  int32
		sadd        int32
		fadd        float32
		fmin, fmax  float32
	}
	fold := func(upto int, incl bool) acc {
		a := acc{mn: math.MaxUint32, smin: math.MaxInt32, smax: math.MinInt32,
			fmin: float32(math.Inf(1)), fmax: float32(math.Inf(-1))}
		for k := 0; k < len(sg) && (k < upto || incl && k == upto); k++ {
			if !sg[k].active {
				continue
			}
			v, s := sg[k].v, int32(sg[k].v)-500
			f := float32(s) * 0.5
			a.add += v
			a.mn, a.mx = min(a.mn, v), max(a.mx, v)
			a.smin, a.smax, a.sadd = min(a.smin, s), max(a.smax, s), a.sadd+s
			a.fadd += f
			a.fmin, a.fmax = min(a.fmin, f), max(a.fmax, f)
		}
		return a
	}
	at := func(k int, off uint32) uint32 {
		if k < 0 || k >= len(sg) || !sg[k].active {
			return 0
		}
		return sg[k].v + off
	}
	all, inc, exc := fold(len(sg), false), fold(l, true), fold(l, false)
	v := sg[l].v
	offs := [4]int{3, 0, 2, 1}
	j := ((l&31)&0x1c | 0x01) ^ 0x02 | l&^31
	wr := v
	if l == 5 {
		wr = 777
	}
	lt := uint64(math.MaxUint64)
	if l < 64 {
		lt = 1<<l - 1
	}
	fsw := math.Float32frombits(0)
	if k := l&^3 + [4]int{1, 1, 3, 3}[l&3]; k < len(sg) && sg[k].active {
		fsw = float32(int32(sg[k].v)-500) * 0.5
	}
	return []uint32{all.add, inc.add, exc.add, all.mn, inc.mx, uint32(exc.smin), uint32(all.smax),
		math.Float32bits(inc.fadd), math.Float32bits(all.fmin), math.Float32bits(exc.fmax),
		at(l&^3+offs[l&3], 0), at(j, 0), at(j, 1), wr,
		uint32(bits.OnesCount64(uint64(v) * 0x9E3779B97F4A7C15 & lt)), uint32(all.sadd), math.Float32bits(all.fadd),
		math.Float32bits(fsw), inc.mn}
}

func TestAMDShaderBallot(t *testing.T) {
	m := glsl(t, amdBallotShader, "vulkan1.1")
	const n, N = 96, 21
	in := make([]uint32, n)
	for i := range in {
		in[i] = uint32(i*i*7+i*13+5) % 997
	}
	forEach(t, func(t *testing.T, opts Options) {
		out := make([]byte, 4*N*n)
		bufs := map[BindingKey][]byte{{0, 0}: u32s(in...), {0, 1}: out}
		if err := run(t, m, opts, [3]uint32{1, 1, 1}, bufs, nil); err != nil {
			t.Fatal(err)
		}
		S := opts.SubgroupSize
		// the model's subgroups, from the ids the executor reported
		sgs := map[uint32][]amdLane{}
		for i := range n {
			id, l := getU32(out, N*i), int(getU32(out, N*i+1))
			if l >= S {
				t.Fatalf("invocation %d: lane %d of a subgroup of %d", i, l, S)
			}
			if len(sgs[id]) == 0 {
				sgs[id] = make([]amdLane, S)
			}
			sgs[id][l] = amdLane{in[i], in[i]&3 != 0}
		}
		for i := range n {
			if in[i]&3 == 0 {
				continue
			}
			id, l := getU32(out, N*i), int(getU32(out, N*i+1))
			want := amdBallotRef(sgs[id], S, l)
			got := make([]uint32, len(want))
			for k := range got {
				got[k] = getU32(out, N*i+2+k)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("invocation %d (subgroup %d lane %d):\n got %v\nwant %v", i, id, l, got, want)
			}
		}
	})
}

// TestAMDShaderBallotRefusals checks the compile-time errors: Workgroup
// scope, a non-constant or out-of-range swizzle offset, a wrong Result Type.
func TestAMDShaderBallotRefusals(t *testing.T) {
	const head = `OpCapability Shader
OpCapability Groups
OpExtension "SPV_AMD_shader_ballot"
%ext = OpExtInstImport "SPV_AMD_shader_ballot"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gid
OpExecutionMode %main LocalSize 4 1 1
OpDecorate %gid BuiltIn LocalInvocationIndex
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%v4 = OpTypeVector %uint 4
%pin = OpTypePointer Input %uint
%gid = OpVariable %pin Input
%u2 = OpConstant %uint 2
%u3 = OpConstant %uint 3
%u9 = OpConstant %uint 9
%off = OpConstantComposite %v4 %u3 %u3 %u3 %u9
%main = OpFunction %void None %fn
%l = OpLabel
%x = OpLoad %uint %gid
`
	for _, c := range []struct{ body, want string }{
		{"%r = OpGroupIAddNonUniformAMD %uint %u2 Reduce %x", "only Subgroup scope is supported here (got scope 2)"},
		{"%o = OpCompositeConstruct %v4 %x %x %x %x\n%r = OpExtInst %uint %ext SwizzleInvocationsAMD %x %o", "operand 2 must be a constant vector of 4 unsigned integers"},
		{"%r = OpExtInst %uint %ext SwizzleInvocationsAMD %x %off", "component 3 of operand 2 is 9, beyond 3"},
		{"%r = OpExtInst %v4 %ext MbcntAMD %x", "Result Type must be a 32-bit integer"},
	} {
		m := assemble(t, head+c.body+"\nOpReturn\nOpFunctionEnd\n")
		_, err := Compile(m, "", Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.body, err, c.want)
		}
	}
}
