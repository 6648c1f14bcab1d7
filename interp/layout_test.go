package interp

import (
	"math"
	"testing"
)

func TestSpecConstantsAndLayouts(t *testing.T) {
	m := glsl(t, `#version 450
layout(constant_id = 0) const uint K = 3;
layout(constant_id = 2) const int NEG = -2;
const uint K2 = K * 2u + 1u;
layout(local_size_x_id = 1) in;
layout(std140, set = 0, binding = 0) uniform U { vec3 a[2]; layout(row_major) mat3 r; mat2x3 c; float tail; } u;
layout(std430, set = 0, binding = 1) buffer O { uint k; uint k2; int neg; uint size; float v[]; } o;
void main() {
  if (gl_GlobalInvocationID.x == 0) { o.k = K; o.k2 = K2; o.neg = NEG; o.size = gl_WorkGroupSize.x; }
  uint i = gl_GlobalInvocationID.x;
  if (i < 3) { o.v[i] = u.a[1][i] + u.r[1][i] * 10.0 + u.c[1][i] * 100.0; }
  if (i == 3) { o.v[3] = u.tail; o.v[4] = float(o.v.length()); }
}`, "")
	// std140: a[2] at 0 (stride 16), r row-major at 32 (3 rows of 16), c col-major at 80 (2 cols of 16), tail at 112
	ub := make([]float32, 29)
	for k := 0; k < 3; k++ {
		ub[4+k] = float32(1 + k) // a[1]
	}
	// row_major mat3: element [col][row] at 32 + row*16 + col*4
	for row := 0; row < 3; row++ {
		for col := 0; col < 3; col++ {
			ub[8+row*4+col] = float32(10*col + row)
		}
	}
	for col := 0; col < 2; col++ {
		for row := 0; row < 3; row++ {
			ub[20+col*4+row] = float32(col*3 + row)
		}
	}
	ub[28] = 42.5
	for _, o := range []Options{{SubgroupSize: 4, SpecConstants: map[uint32]uint64{0: 7, 1: 16, 2: uint64(math.MaxUint32 - 4)}}, {SubgroupSize: 32}} {
		p, err := Compile(m, "", o)
		if err != nil {
			t.Fatal(err)
		}
		k, ls, neg := uint32(3), uint32(1), int32(-2)
		if o.SpecConstants != nil {
			k, ls, neg = 7, 16, -5
		}
		if p.LocalSize() != [3]uint32{ls, 1, 1} {
			t.Fatalf("LocalSize = %v, want %d", p.LocalSize(), ls)
		}
		out := make([]byte, 16+4*8)
		if err := run(t, m, o, [3]uint32{4, 1, 1}, map[BindingKey][]byte{{0, 0}: f32s(ub...), {0, 1}: out}, nil); err != nil {
			t.Fatal(err)
		}
		if getU32(out, 0) != k || getU32(out, 1) != 2*k+1 || int32(getU32(out, 2)) != neg || getU32(out, 3) != ls {
			t.Fatalf("spec constants: got %d %d %d %d", getU32(out, 0), getU32(out, 1), int32(getU32(out, 2)), getU32(out, 3))
		}
		for i := 0; i < 3; i++ {
			want := float32(1+i) + float32(10*1+i)*10 + float32(3+i)*100
			if got := getF32(out, 4+i); got != want {
				t.Fatalf("v[%d] = %v, want %v", i, got, want)
			}
		}
		if getF32(out, 7) != 42.5 || getF32(out, 8) != 8 {
			t.Fatalf("tail/length: %v %v", getF32(out, 7), getF32(out, 8))
		}
	}
}
