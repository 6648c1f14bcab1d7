package vkref

import (
	"bytes"
	"encoding/binary"
	"testing"

	"spvx/interp"
)

// TestDescriptorAliasing: variables of different types on one binding see
// one buffer, as Vulkan allows and glslang emits to reinterpret a buffer.
// Each invocation writes through one view (a uint array, a vec2 array, a
// struct of a uvec4 and a float, read back through a std430 array of
// uint) and reads what another view wrote before a barrier; lavapipe and
// spvx must leave the same bytes in both bindings.
func TestDescriptorAliasing(t *testing.T) {
	const n = 64
	src := `#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer U { uint u[]; };
layout(std430, binding = 0) buffer V { vec2 v[]; };
struct P { uvec4 q; float f; uint pad[3]; };
layout(std430, binding = 0) buffer S { P p[]; };
layout(std430, binding = 1) buffer O { uint o[]; };
void main() {
	uint i = gl_LocalInvocationIndex;
	u[2u * i] = i * 0x01010101u;
	v[i].y = float(i) + 0.5;
	barrier();
	memoryBarrierBuffer();
	o[i] = u[(2u * i + 7u) % 128u] ^ floatBitsToUint(v[(i + 1u) % 64u].x);
	barrier();
	memoryBarrierBuffer();
	if (i < 16u) {
		p[i + 8u].q.w += p[i].q.z;
		o[64u + i] = floatBitsToUint(p[i].f) + p[i].pad[2];
	}
}
`
	spv := compileGLSL(t, src)
	d, err := New(Lavapipe)
	if err != nil {
		t.Skip(err)
	}
	in := make([]byte, 16*n) // p[] reaches p[23], 768 bytes
	for k := range 4 * n {
		binary.LittleEndian.PutUint32(in[4*k:], uint32(k)*2654435761)
	}
	job := &Job{SPIRV: spv, Entry: "main", Groups: [3]uint32{1, 1, 1}, Buffers: []Buffer{
		{Binding: 0, Data: in},
		{Binding: 1, Data: make([]byte, 4*(n+16))},
	}}
	want, err := d.Run(job)
	if err != nil {
		t.Fatalf("lavapipe: %v", err)
	}
	for _, S := range []int{8, 32} {
		got, err := RunSPVX(job, interp.Options{SubgroupSize: S})
		if err != nil {
			t.Fatalf("spvx: %v", err)
		}
		for b := range got {
			if !bytes.Equal(got[b], want[b]) {
				t.Errorf("subgroup %d, binding %d: spvx and lavapipe differ\nspvx     % x\nlavapipe % x", S, b, got[b][:64], want[b][:64])
			}
		}
	}
}
