package interp

import (
	"errors"
	"testing"
)

// TestFaultIsFirstInHandOutOrder: when many workgroups fault, the fault
// reported is the one of the first faulting workgroup in hand-out order,
// whatever the workers' timing, so a run reports the same fault every
// time. Every invocation here reads past its buffer, and the workgroups
// run on four workers; workgroup 0 (or, shuffled, the first of the
// permutation) must be named in each of many runs.
func TestFaultIsFirstInHandOutOrder(t *testing.T) {
	m := glsl(t, `#version 450
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer B { uint v[]; };
layout(set = 0, binding = 1) buffer O { uint o[]; };
void main() { uint i = gl_GlobalInvocationID.x; o[i] = v[i + 64u]; }`, "")
	for _, shuffle := range []bool{false, true} {
		var first string
		for run := 0; run < 40; run++ {
			p, err := Compile(m, "", Options{SubgroupSize: 4, Parallelism: 4, Shuffle: shuffle, Seed: 3})
			if err != nil {
				t.Fatal(err)
			}
			res := &Resources{Buffers: map[BindingKey][]*Buffer{{0, 0}: {{Data: make([]byte, 16)}}, {0, 1}: {{Data: make([]byte, 4*4*256)}}}}
			err = p.Dispatch(t.Context(), 256, 1, 1, res)
			var f *Fault
			if !errors.As(err, &f) || f.Kind != FaultOutOfBounds {
				t.Fatalf("shuffle=%v: got %v, want an out-of-bounds fault", shuffle, err)
			}
			if !shuffle && f.GlobalID != [3]uint32{0, 0, 0} {
				t.Errorf("run %d: fault names global id %v, want workgroup 0's first invocation", run, f.GlobalID)
			}
			if run == 0 {
				first = f.Error()
			} else if f.Error() != first {
				t.Fatalf("shuffle=%v, run %d: fault\n%v\ndiffers from the first run's\n%v", shuffle, run, f, first)
			}
		}
	}
}
