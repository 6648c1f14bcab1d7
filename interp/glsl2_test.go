package interp

import (
	"errors"
	"math"
	"math/bits"
	"testing"
)

// A kernel test: a GLSL compute shader writing out[gid] (u32), checked
// against want(gid, subgroupSize).
type glslCase struct {
	name   string
	src    string
	groups uint32
	n      int // invocations per workgroup (local_size_x)
	in     []uint32
	want   func(i, S int, in []uint32) uint32
}

const glslHeader = `#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#extension GL_KHR_shader_subgroup_clustered : require
#extension GL_KHR_shader_subgroup_quad : require
layout(set = 0, binding = 0) buffer In { uint inp[]; };
layout(set = 0, binding = 1) buffer Out { uint outp[]; };
`

func runGLSL(t *testing.T, c glslCase) {
	m := glsl(t, glslHeader+c.src, "vulkan1.1")
	forEach(t, func(t *testing.T, o Options) {
		total := int(c.groups) * c.n
		in := c.in
		if in == nil {
			in = make([]uint32, total)
			for i := range in {
				in[i] = uint32(uint64(i)*2654435761>>7) % 1000
			}
		}
		ib, ob := u32s(in...), make([]byte, 4*total)
		if err := run(t, m, o, [3]uint32{c.groups, 1, 1}, map[BindingKey][]byte{{0, 0}: ib, {0, 1}: ob}, nil); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < total; i++ {
			if got, want := getU32(ob, i), c.want(i, o.SubgroupSize, in); got != want {
				t.Fatalf("out[%d] = %d, want %d", i, got, want)
			}
		}
	})
}

// sgLanes returns the lanes of i's subgroup (within its workgroup of n).
func sgLanes(i, S, n int) (first, count, lane int) {
	l := i % n
	first = i - l + l/S*S
	count = min(S, n-l/S*S)
	return first, count, l % S
}

func TestGLSLKernels(t *testing.T) {
	cases := []glslCase{
		{name: "divergent_loop", n: 64, groups: 3, src: `
layout(local_size_x = 64) in;
uint f(uint x) { uint s = 0; for (uint k = 0; k < x % 7; k++) { if (k == 3) continue; s += k * x; if (s > 500) break; } return s; }
void main() { uint i = gl_GlobalInvocationID.x; uint v = inp[i];
  uint r;
  switch (v % 4) { case 0: r = f(v); break; case 1: r = v * 3; case 2: r = v + 1; break; default: r = 7; }
  if (v % 3 == 0) { outp[i] = r; return; }
  outp[i] = r ^ 0x55; }`,
			want: func(i, S int, in []uint32) uint32 {
				v := in[i]
				f := func(x uint32) uint32 {
					var s uint32
					for k := uint32(0); k < x%7; k++ {
						if k == 3 {
							continue
						}
						s += k * x
						if s > 500 {
							break
						}
					}
					return s
				}
				var r uint32
				switch v % 4 {
				case 0:
					r = f(v)
				case 1:
					r = v + 1
				case 2:
					r = v + 1
				default:
					r = 7
				}
				if v%3 == 0 {
					return r
				}
				return r ^ 0x55
			}},
		{name: "shared_barrier_nonfull", n: 50, groups: 4, src: `
layout(local_size_x = 50) in;
shared uint sh[50];
void main() { uint l = gl_LocalInvocationID.x; uint i = gl_GlobalInvocationID.x;
  sh[l] = inp[i]; barrier();
  uint s = 0; for (uint k = 0; k <= l; k++) s += sh[k];
  barrier(); sh[49 - l] = s; barrier();
  outp[i] = sh[l]; }`,
			want: func(i, S int, in []uint32) uint32 {
				base, l := i/50*50, i%50
				var s uint32
				for k := 0; k <= 49-l; k++ {
					s += in[base+k]
				}
				return s
			}},
		{name: "subgroup_arith_nonfull", n: 50, groups: 2, src: `
layout(local_size_x = 50) in;
void main() { uint i = gl_GlobalInvocationID.x; uint v = inp[i];
  uint r = subgroupAdd(v) + 3 * subgroupExclusiveAdd(v) + 5 * subgroupMax(v) + 7 * subgroupInclusiveMin(v) + 11 * gl_SubgroupInvocationID + 13 * gl_SubgroupSize;
  outp[i] = r; }`,
			want: func(i, S int, in []uint32) uint32 {
				first, cnt, lane := sgLanes(i, S, 50)
				var sum, ex, mx uint32
				mn := ^uint32(0)
				for k := 0; k < cnt; k++ {
					v := in[first+k]
					sum += v
					mx = max(mx, v)
					if k < lane {
						ex += v
					}
					if k <= lane {
						mn = min(mn, v)
					}
				}
				return sum + 3*ex + 5*mx + 7*mn + 11*uint32(lane) + 13*uint32(S)
			}},
		{name: "ballot_vote_elect", n: 64, groups: 2, src: `
layout(local_size_x = 64) in;
void main() { uint i = gl_GlobalInvocationID.x; uint v = inp[i];
  uvec4 b = subgroupBallot(v % 2 == 0);
  uint r = subgroupBallotBitCount(b) + 100 * subgroupBallotExclusiveBitCount(b);
  if (subgroupElect()) r += 10000;
  if (subgroupAll(v < 2000)) r += 20000;
  if (subgroupAny(v == 12345)) r += 40000;
  r += 80000 * uint(subgroupBallotFindLSB(b) == subgroupBallotFindMSB(b));
  outp[i] = r; }`,
			want: func(i, S int, in []uint32) uint32 {
				first, cnt, lane := sgLanes(i, S, 64)
				var c, ex uint32
				var lsb, msb = -1, -1
				for k := 0; k < cnt; k++ {
					if in[first+k]%2 == 0 {
						c++
						if k < lane {
							ex++
						}
						if lsb < 0 {
							lsb = k
						}
						msb = k
					}
				}
				r := c + 100*ex
				if lane == 0 {
					r += 10000
				}
				r += 20000
				if lsb == msb {
					r += 80000
				}
				return r
			}},
		{name: "shuffles_quad_clustered", n: 64, groups: 2, src: `
layout(local_size_x = 64) in;
void main() { uint i = gl_GlobalInvocationID.x; uint v = inp[i]; uint id = gl_SubgroupInvocationID; uint S = gl_SubgroupSize;
  uint r = subgroupShuffle(v, (id + 1) % S);
  r += 3 * subgroupShuffleXor(v, 1 % S);
  r += 5 * subgroupBroadcast(v, 0);
  r += 7 * subgroupBroadcastFirst(v);
  r += 11 * subgroupClusteredAdd(v, 1);
  r += 13 * ((S >= 4) ? subgroupClusteredAdd(v, 4) : 0);
  r += 17 * ((S >= 4) ? subgroupQuadSwapHorizontal(v) : 0);
  r += 19 * ((S >= 4) ? subgroupQuadBroadcast(v, 2) : 0);
  outp[i] = r; }`,
			want: func(i, S int, in []uint32) uint32 {
				first, _, lane := sgLanes(i, S, 64)
				at := func(l int) uint32 { return in[first+l] }
				r := at((lane + 1) % S)
				r += 3 * at(lane^(1%S))
				r += 5 * at(0)
				r += 7 * at(0)
				r += 11 * at(lane)
				if S >= 4 {
					q := lane &^ 3
					r += 13 * (at(q) + at(q+1) + at(q+2) + at(q+3))
					r += 17 * at(lane^1)
					r += 19 * at(q+2)
				}
				return r
			}},
		{name: "divergent_subgroup", n: 64, groups: 1, src: `
layout(local_size_x = 64) in;
void main() { uint i = gl_GlobalInvocationID.x; uint id = gl_SubgroupInvocationID;
  uint r = 0;
  if (id % 2 == 1) { r = subgroupAdd(1u); } else { r = 1000 + subgroupAdd(2u); }
  r += 100000 * subgroupAdd(1u);
  outp[i] = r; }`,
			want: func(i, S int, in []uint32) uint32 {
				_, cnt, lane := sgLanes(i, S, 64)
				odd := uint32(cnt / 2)
				even := uint32(cnt) - odd
				var r uint32
				if lane%2 == 1 {
					r = odd
				} else {
					r = 1000 + 2*even
				}
				return r + 100000*uint32(cnt)
			}},
		{name: "atomics_contention", n: 32, groups: 16, src: `
layout(local_size_x = 32) in;
void main() { uint i = gl_GlobalInvocationID.x;
  uint old = atomicAdd(outp[0], 1u);
  atomicMax(outp[1], inp[i]);
  atomicXor(outp[2], inp[i]);
  if (i >= 3) atomicAdd(outp[i], old >= 0 ? 0u : 1u); }`,
			want: func(i, S int, in []uint32) uint32 {
				switch i {
				case 0:
					return uint32(len(in))
				case 1:
					m := uint32(0)
					for _, v := range in {
						m = max(m, v)
					}
					return m
				case 2:
					x := uint32(0)
					for _, v := range in {
						x ^= v
					}
					return x
				}
				return 0
			}},
		{name: "int64_float64_bits", n: 32, groups: 2, src: `
#extension GL_ARB_gpu_shader_int64 : require
layout(local_size_x = 32) in;
void main() { uint i = gl_GlobalInvocationID.x; uint v = inp[i];
  uint64_t a = uint64_t(v) * 0x100000001ul + 12345ul;
  int64_t s = -int64_t(a) / 7;
  double d = double(v) / 3.0;
  uint r = uint(a >> 20) ^ uint(s) ^ uint(d * 1000.0) ^ bitCount(v) ^ bitfieldReverse(v) ^ bitfieldExtract(v, 2, 5);
  uint carry; uint lo = uaddCarry(v * 0x9E3779B9u, 0xF0000000u, carry);
  uint hi2, lo2; umulExtended(v, 0x87654321u, hi2, lo2);
  outp[i] = r + carry + hi2 + lo + lo2; }`,
			want: func(i, S int, in []uint32) uint32 {
				v := in[i]
				a := uint64(v)*0x100000001 + 12345
				s := -int64(a) / 7
				d := float64(v) / 3.0
				r := uint32(a>>20) ^ uint32(s) ^ uint32(d*1000.0) ^ uint32(bits.OnesCount32(v)) ^ bits.Reverse32(v) ^ (v >> 2 & 31)
				x := v * 0x9E3779B9
				lo := x + 0xF0000000
				carry := uint32(0)
				if lo < x {
					carry = 1
				}
				h, l := bits.Mul32(v, 0x87654321)
				return r + carry + h + lo + l
			}},
		{name: "matrix_vector", n: 16, groups: 1, src: `
layout(local_size_x = 16) in;
void main() { uint i = gl_GlobalInvocationID.x; float f = float(inp[i]);
  mat3 m = mat3(f, 2.0, 3.0, 4.0, f * 0.5, 6.0, 7.0, 8.0, 9.0);
  vec3 v = vec3(1.0, f, -2.0);
  vec3 a = m * v; vec3 b = v * m; mat3 mm = m * transpose(m);
  float d = dot(a, b) + mm[1][2] + determinantLess(f);
  outp[i] = floatBitsToUint(d); }
`,
			want: nil},
	}
	// the matrix case uses a helper the GLSL must define: patch it in
	cases[len(cases)-1].src = `
layout(local_size_x = 16) in;
float determinantLess(float f) { return f * 0.25; }
void main() { uint i = gl_GlobalInvocationID.x; float f = float(inp[i]);
  mat3 m = mat3(f, 2.0, 3.0, 4.0, f * 0.5, 6.0, 7.0, 8.0, 9.0);
  vec3 v = vec3(1.0, f, -2.0);
  vec3 a = m * v; vec3 b = v * m; mat3 mm = m * transpose(m);
  float d = dot(a, b) + mm[1][2] + determinantLess(f);
  outp[i] = floatBitsToUint(d); }`
	cases[len(cases)-1].want = func(i, S int, in []uint32) uint32 {
		f := float32(in[i])
		m := [3][3]float32{{f, 2, 3}, {4, f * 0.5, 6}, {7, 8, 9}} // columns
		v := [3]float32{1, f, -2}
		var a, b [3]float32
		for r := 0; r < 3; r++ {
			a[r] = float32(float32(m[0][r]*v[0])+float32(m[1][r]*v[1])) + float32(m[2][r]*v[2])
		}
		for c := 0; c < 3; c++ {
			b[c] = float32(float32(v[0]*m[c][0])+float32(v[1]*m[c][1])) + float32(v[2]*m[c][2])
		}
		// (m * m^T)[1][2] = row 2 of m dot row 1 of m
		row := func(r int) [3]float32 { return [3]float32{m[0][r], m[1][r], m[2][r]} }
		r2, r1 := row(2), row(1)
		mm12 := float32(float32(r2[0]*r1[0])+float32(r2[1]*r1[1])) + float32(r2[2]*r1[2])
		d := float32(float32(a[0]*b[0])+float32(a[1]*b[1])) + float32(a[2]*b[2])
		d = d + mm12
		d = d + f*0.25
		return math.Float32bits(d)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { runGLSL(t, c) })
	}
}

func TestFaults(t *testing.T) {
	oob := glsl(t, glslHeader+`layout(local_size_x = 8) in;
void main() { outp[gl_GlobalInvocationID.x + inp[0]] = 1u; }`, "")
	var f *Fault
	err := run(t, oob, Options{}, [3]uint32{1, 1, 1}, map[BindingKey][]byte{{0, 0}: u32s(6), {0, 1}: make([]byte, 32)}, nil)
	if !errors.As(err, &f) || f.Kind != FaultOutOfBounds || f.GlobalID[0] != 2 {
		t.Fatalf("OOB: got %v", err)
	}
	if f.Inst == "" || f.Function != "main" {
		t.Errorf("fault does not name the instruction and function: %+v", f)
	}
	err = run(t, oob, Options{}, [3]uint32{1, 1, 1}, map[BindingKey][]byte{{0, 0}: u32s(0)}, nil)
	if !errors.As(err, &f) || f.Kind != FaultMissingResource {
		t.Fatalf("missing resource: got %v", err)
	}
	loop := glsl(t, glslHeader+`layout(local_size_x = 8) in;
void main() { uint k = 0; while (inp[0] == 0u) { k++; } outp[0] = k; }`, "")
	err = run(t, loop, Options{MaxSteps: 100000}, [3]uint32{2, 1, 1}, map[BindingKey][]byte{{0, 0}: u32s(0), {0, 1}: make([]byte, 4)}, nil)
	if !errors.As(err, &f) || f.Kind != FaultStepBudget {
		t.Fatalf("infinite loop: got %v", err)
	}
	div := glsl(t, glslHeader+`layout(local_size_x = 8) in;
void main() { if (gl_LocalInvocationID.x < 4) barrier(); outp[0] = 1; }`, "")
	err = run(t, div, Options{SubgroupSize: 8}, [3]uint32{1, 1, 1}, map[BindingKey][]byte{{0, 0}: u32s(0), {0, 1}: make([]byte, 4)}, nil)
	if !errors.As(err, &f) || f.Kind != FaultBarrier {
		t.Fatalf("divergent barrier: got %v", err)
	}
}

// TestIndexPastVector: without Strict, a dynamic index past a vector's
// length addresses memory as a GPU does (the CTS relies on it) and is still
// checked against the buffer; with Strict it faults.
func TestIndexPastVector(t *testing.T) {
	m := glsl(t, `#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer In { uint idx; } inp;
layout(set = 0, binding = 1) buffer Out { uvec4 v; uint after[4]; } outp;
void main() { outp.v[inp.idx] = 7u; }`, "")
	out := make([]byte, 32)
	if err := run(t, m, Options{}, [3]uint32{1, 1, 1}, map[BindingKey][]byte{{0, 0}: u32s(5), {0, 1}: out}, nil); err != nil {
		t.Fatalf("index 5 of a uvec4 inside the buffer: %v", err)
	}
	if got := getU32(out, 5); got != 7 {
		t.Errorf("v[5] landed at word 5 = %d, want 7 (after[1])", got)
	}
	var f *Fault
	err := run(t, m, Options{Strict: true}, [3]uint32{1, 1, 1}, map[BindingKey][]byte{{0, 0}: u32s(5), {0, 1}: make([]byte, 32)}, nil)
	if !errors.As(err, &f) || f.Kind != FaultOutOfBounds {
		t.Errorf("Strict: got %v, want an out-of-bounds fault", err)
	}
	err = run(t, m, Options{}, [3]uint32{1, 1, 1}, map[BindingKey][]byte{{0, 0}: u32s(8), {0, 1}: make([]byte, 32)}, nil)
	if !errors.As(err, &f) || f.Kind != FaultOutOfBounds {
		t.Errorf("index past the buffer: got %v, want an out-of-bounds fault", err)
	}
}

// TestPrivateZeroInitPerWorkgroup: an initialized Private variable starts
// from its initializer in every workgroup, also when that is zero and the
// subgroup's memory was used by an earlier workgroup.
func TestPrivateZeroInitPerWorkgroup(t *testing.T) {
	m := assemble(t, `OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gid
OpExecutionMode %main LocalSize 4 1 1
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %arr ArrayStride 4
OpMemberDecorate %blk 0 Offset 0
OpDecorate %blk Block
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%v3 = OpTypeVector %uint 3
%pin = OpTypePointer Input %v3
%gid = OpVariable %pin Input
%arr = OpTypeRuntimeArray %uint
%blk = OpTypeStruct %arr
%pblk = OpTypePointer StorageBuffer %blk
%out = OpVariable %pblk StorageBuffer
%ppriv = OpTypePointer Private %uint
%pbuf = OpTypePointer StorageBuffer %uint
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%g = OpVariable %ppriv Private %uint_0
%main = OpFunction %void None %fn
%entry = OpLabel
%v = OpLoad %uint %g
%w = OpIAdd %uint %v %uint_1
OpStore %g %w
%id = OpLoad %v3 %gid
%x = OpCompositeExtract %uint %id 0
%dst = OpAccessChain %pbuf %out %uint_0 %x
OpStore %dst %w
OpReturn
OpFunctionEnd
`)
	out := make([]byte, 4*4*8)
	if err := run(t, m, Options{SubgroupSize: 4, Parallelism: 1}, [3]uint32{8, 1, 1}, map[BindingKey][]byte{{0, 0}: out}, nil); err != nil {
		t.Fatal(err)
	}
	for i := range 32 {
		if got := getU32(out, i); got != 1 {
			t.Fatalf("invocation %d saw g = %d, want 1", i, got)
		}
	}
}
