package interp

import (
	"encoding/binary"
	"errors"
	"testing"
)

// PhysicalStorageBuffer64 through GL_EXT_buffer_reference, with addresses
// from BufferAddress passed in a buffer.
func TestBufferReference(t *testing.T) {
	m := glsl(t, `#version 450
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 8) in;
layout(buffer_reference, std430) buffer Data { uint v[]; };
layout(set = 0, binding = 0) buffer Ptrs { Data src; Data dst; uint64_t raw; };
layout(set = 0, binding = 1) buffer Store { uint s[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  Data d = Data(raw + 4ul * i);
  dst.v[i] = src.v[i] * 2u + d.v[0];
}`, "vulkan1.2")
	p, err := Compile(m, "", Options{SubgroupSize: 4})
	if err != nil {
		t.Fatal(err)
	}
	base, ok := p.BufferAddress(BindingKey{0, 1}, 0)
	if !ok {
		t.Fatal("no address for binding 1")
	}
	ptrs := make([]byte, 24)
	binary.LittleEndian.PutUint64(ptrs[0:], base)
	binary.LittleEndian.PutUint64(ptrs[8:], base+64)
	binary.LittleEndian.PutUint64(ptrs[16:], base)
	store := make([]byte, 128)
	for i := 0; i < 8; i++ {
		binary.LittleEndian.PutUint32(store[4*i:], uint32(i+1))
	}
	res := &Resources{Buffers: map[BindingKey][]*Buffer{{0, 0}: {{Data: ptrs}}, {0, 1}: {{Data: store}}}}
	if err := p.Dispatch(t.Context(), 1, 1, 1, res); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 8; i++ {
		if got, want := getU32(store, 16+i), uint32(2*(i+1)+(i+1)); got != want {
			t.Fatalf("dst[%d] = %d, want %d", i, got, want)
		}
	}
	// a dangling address faults
	binary.LittleEndian.PutUint64(ptrs[16:], base+1<<20)
	var f *Fault
	if err := p.Dispatch(t.Context(), 1, 1, 1, res); !errors.As(err, &f) || f.Kind != FaultOutOfBounds {
		t.Fatalf("dangling pointer: %v", err)
	}
}
