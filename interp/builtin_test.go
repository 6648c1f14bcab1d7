package interp

import "testing"

// Built-ins read through constant access chains are computed at the load
// (lazy); one indexed dynamically or passed by pointer is read from
// invocation memory. Both must give every invocation its own ids in every
// workgroup, including the ones a subgroup runs after another.
func TestBuiltinsLazyAndInMemory(t *testing.T) {
	const src = `#version 450
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 8, local_size_y = 2) in;
layout(set = 0, binding = 0) buffer B { uint v[]; };
layout(push_constant) uniform P { uint k; };
uint viaPtr(in uvec3 w) { return w.y; }
void main() {
  uint i = gl_LocalInvocationIndex + 16u * (gl_WorkGroupID.x + 3u * gl_WorkGroupID.y);
  v[6u*i+0u] = gl_GlobalInvocationID.x;
  v[6u*i+1u] = gl_GlobalInvocationID.y;
  v[6u*i+2u] = gl_LocalInvocationID[k];   // dynamic: from memory
  v[6u*i+3u] = viaPtr(gl_WorkGroupID);
  v[6u*i+4u] = gl_NumWorkGroups.x;
  v[6u*i+5u] = gl_SubgroupInvocationID;
}`
	m := glsl(t, src, "vulkan1.1")
	groups := [3]uint32{3, 2, 1}
	forEach(t, func(t *testing.T, o Options) {
		for k := uint32(0); k < 2; k++ {
			buf := make([]byte, 4*6*16*6)
			if err := run(t, m, o, groups, map[BindingKey][]byte{{0, 0}: buf}, u32s(k)); err != nil {
				t.Fatal(err)
			}
			for wy := uint32(0); wy < 2; wy++ {
				for wx := uint32(0); wx < 3; wx++ {
					for li := uint32(0); li < 16; li++ {
						lid := [2]uint32{li % 8, li / 8}
						i := li + 16*(wx+3*wy)
						want := []uint32{wx*8 + lid[0], wy*2 + lid[1], lid[k], wy, 3, li % uint32(o.SubgroupSize)}
						for c, w := range want {
							if got := getU32(buf, int(6*i)+c); got != w {
								t.Fatalf("k=%d wg (%d,%d) local index %d: word %d = %d, want %d", k, wx, wy, li, c, got, w)
							}
						}
					}
				}
			}
		}
	})
}
