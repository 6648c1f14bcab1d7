package interp

import "testing"

// WorkgroupMemoryExplicitLayoutKHR: Block-decorated Workgroup variables alias.
func TestWorkgroupExplicitLayout(t *testing.T) {
	m := glsl(t, `#version 450
#extension GL_EXT_shared_memory_block : require
layout(local_size_x = 8) in;
shared A { uint a[8]; };
shared B { uvec2 b[4]; };
layout(set = 0, binding = 1) buffer Out { uint outp[]; };
void main() {
  uint l = gl_LocalInvocationID.x;
  a[l] = l * 10u + gl_WorkGroupID.x;
  barrier();
  outp[gl_GlobalInvocationID.x] = (l < 4u) ? b[l].y : 7u;
}`, "vulkan1.2")
	forEach(t, func(t *testing.T, o Options) {
		out := make([]byte, 4*16)
		if err := run(t, m, o, [3]uint32{2, 1, 1}, map[BindingKey][]byte{{0, 1}: out}, nil); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 16; i++ {
			l, g := i%8, i/8
			want := uint32(7)
			if l < 4 {
				want = uint32((2*l+1)*10 + g)
			}
			if got := getU32(out, i); got != want {
				t.Fatalf("out[%d] = %d, want %d", i, got, want)
			}
		}
	})
}
