package interp

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"spvx/spirv"
)

// A kernel that runs wide, splits at a divergent branch, and uses
// subgroup operations and built-ins both before the split (each subgroup
// on its own state) and after it, with a barrier and workgroup memory.
const wideSplitSrc = `#version 450
#extension GL_KHR_shader_subgroup_arithmetic : enable
#extension GL_KHR_shader_subgroup_ballot : enable
layout(local_size_x = 100) in;
layout(set = 0, binding = 0) buffer B { uint v[]; };
layout(set = 0, binding = 1) buffer O { uint o[]; };
shared uint sh[100];
uint f(uint x) { return x * 3u + 1u; }
void main() {
  uint i = gl_GlobalInvocationID.x, li = gl_LocalInvocationIndex;
  uint x = v[i];
  uint s = subgroupAdd(x) + subgroupBallot(x > 50u).x;
  sh[li] = x + gl_SubgroupID * 1000u + gl_SubgroupInvocationID * 7u + gl_NumSubgroups;
  barrier();
  uint y = sh[(li + 1u) % 100u];
  for (uint k = 0u; k < 8u; k++) y = y * 1664525u + k;
  if ((x & 1u) == 0u) y += f(x);
  y += subgroupBallot(true).x + subgroupMax(y);
  o[i] = y ^ s;
}`

// wideRun runs m over groups workgroups with the given options and returns
// the output buffer, the dispatch's error and the wide groups' steps.
func wideRun(t *testing.T, m *spirv.Module, opts Options, groups uint32, in []byte, outLen int) ([]byte, error, int64) {
	t.Helper()
	p, err := Compile(m, "", opts)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]byte, outLen)
	res := &Resources{Buffers: map[BindingKey][]*Buffer{{0, 0}: {{Data: in}}, {0, 1}: {{Data: out}}}}
	err = p.Dispatch(context.Background(), groups, 1, 1, res)
	return out, err, lastDispatchWideSteps.Load()
}

// The wide group and the subgroups run apart give the same results, for
// full and non-full last subgroups, and the wide group did run.
func TestWideMatchesSeparate(t *testing.T) {
	m := glsl(t, wideSplitSrc, "")
	const groups, n = 3, 300
	in := make([]byte, 4*n)
	for i := 0; i < n; i++ {
		copy(in[4*i:], u32s(uint32(i*37%101)))
	}
	for _, S := range []int{1, 4, 16, 32, 64} {
		base := Options{SubgroupSize: S, Parallelism: 1}
		sep := base
		sep.SeparateSubgroups = true
		want, err, ws := wideRun(t, m, sep, groups, bytes.Clone(in), 4*n)
		if err != nil {
			t.Fatalf("S=%d separate: %v", S, err)
		}
		if ws != 0 {
			t.Errorf("S=%d: SeparateSubgroups ran %d wide steps", S, ws)
		}
		got, err, ws := wideRun(t, m, base, groups, bytes.Clone(in), 4*n)
		if err != nil {
			t.Fatalf("S=%d wide: %v", S, err)
		}
		if !bytes.Equal(got, want) {
			for i := 0; i < n; i++ {
				if getU32(got, i) != getU32(want, i) {
					t.Fatalf("S=%d: o[%d] = %#x wide, %#x with the subgroups apart", S, i, getU32(got, i), getU32(want, i))
				}
			}
		}
		if S < 100 && ws == 0 {
			t.Errorf("S=%d: the wide group never ran", S)
		}
	}
}

// A fault inside a wide group names the same invocation, subgroup and
// lane as with the subgroups apart.
func TestWideFaultNamesInvocation(t *testing.T) {
	m := glsl(t, `#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer B { uint v[]; };
layout(set = 0, binding = 1) buffer O { uint o[]; };
void main() { uint i = gl_GlobalInvocationID.x; o[i] = v[i % 8u] + i; }`, "")
	for _, S := range []int{4, 16, 32} {
		var faults [2]*Fault
		for k, sep := range []bool{false, true} {
			_, err, _ := wideRun(t, m, Options{SubgroupSize: S, Parallelism: 1, SeparateSubgroups: sep}, 2, make([]byte, 32), 4*123)
			if !errors.As(err, &faults[k]) {
				t.Fatalf("S=%d separate=%v: got %v, want a fault", S, sep, err)
			}
		}
		w, s := faults[0], faults[1]
		if w.Kind != FaultOutOfBounds || w.GlobalID != [3]uint32{123, 0, 0} || w.LocalID != [3]uint32{59, 0, 0} ||
			w.SubgroupID != uint32(59/S) || w.Lane != uint32(59%S) {
			t.Errorf("S=%d: wide fault %+v", S, w)
		}
		if w.Error() != s.Error() {
			t.Errorf("S=%d: wide fault\n%v\nsubgroups apart\n%v", S, w, s)
		}
	}
}
