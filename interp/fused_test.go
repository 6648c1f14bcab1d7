package interp

import (
	"errors"
	"strings"
	"testing"
)

// Accesses through fused access chains (fused.go) keep the general path's
// bounds checks and faults: the lane, the kind, and the instruction (the
// OpAccessChain for an index out of its array's range under Strict).
func TestFusedAccessFaults(t *testing.T) {
	const src = `#version 450
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer In { uint inp[]; };
layout(set = 0, binding = 1) buffer Out { uint outp[]; };
layout(set = 0, binding = 2) buffer Fix { uint fix[4]; };
layout(push_constant) uniform P { uint mode; };
shared uint wg[32];
void main() { uint i = gl_GlobalInvocationID.x;
  wg[31u - i] = inp[i] + 1u;
  barrier();
  if (mode == 0u) outp[i] = wg[i];
  else if (mode == 1u) outp[i] = inp[i + 4u];
  else outp[i] = fix[i];
}`
	m := glsl(t, src, "")
	p, err := Compile(m, "", Options{})
	if err != nil {
		t.Fatal(err)
	}
	nl, ns := 0, 0
	for _, in := range p.code {
		switch in.op {
		case opLoadIdx:
			nl++
		case opStoreIdx:
			ns++
		case opChain:
			t.Errorf("an access chain was not fused: %s", formatInst(m, int(in.src)))
		}
	}
	if nl != 4 || ns != 4 {
		t.Errorf("%d fused loads and %d fused stores, want 4 and 4", nl, ns)
	}
	in := make([]uint32, 32)
	for i := range in {
		in[i] = uint32(3 * i)
	}
	for _, tc := range []struct {
		mode   uint32
		strict bool
		lane   uint32 // faulting lane; 99: no fault
		inst   string
	}{
		{0, false, 99, ""},
		{1, false, 28, "OpLoad"},      // inp has 32 elements: lane 28 reads inp[32]
		{2, true, 4, "OpAccessChain"}, // fix[4] is out of its array (Strict)
		{2, false, 99, ""},            // without Strict: inside the 32-word buffer
	} {
		for _, S := range []int{4, 32} {
			out, fix := make([]byte, 4*32), make([]byte, 4*32)
			err := run(t, m, Options{SubgroupSize: S, Strict: tc.strict}, [3]uint32{1, 1, 1},
				map[BindingKey][]byte{{0, 0}: u32s(in...), {0, 1}: out, {0, 2}: fix}, u32s(tc.mode))
			if tc.lane == 99 {
				if err != nil {
					t.Fatalf("mode %d S %d: %v", tc.mode, S, err)
				}
				if tc.mode == 0 {
					for i := 0; i < 32; i++ {
						if got, want := getU32(out, i), in[31-i]+1; got != want {
							t.Fatalf("S %d: out[%d] = %d, want %d", S, i, got, want)
						}
					}
				}
				continue
			}
			var f *Fault
			if !errors.As(err, &f) || f.Kind != FaultOutOfBounds {
				t.Fatalf("mode %d S %d: %v, want an out-of-bounds fault", tc.mode, S, err)
			}
			if f.LocalID[0] != tc.lane || !strings.Contains(f.Inst, tc.inst) || f.Function != "main" {
				t.Errorf("mode %d S %d: fault %v (local id %d), want invocation %d at an %s", tc.mode, S, f, f.LocalID[0], tc.lane, tc.inst)
			}
		}
	}
}
