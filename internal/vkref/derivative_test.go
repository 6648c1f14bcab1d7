package vkref

import (
	"encoding/binary"
	"fmt"
	"math"
	"testing"

	"spvx/interp"
)

// derivShader computes every derivative function of a per-invocation value
// v (a function of the local id that is not linear, so fine and coarse
// differ) under one derivative-group layout, and stores them with the
// local ids, so that a difference shows where.
func derivShader(layout string, lx, ly uint32) string {
	return fmt.Sprintf(`#version 450
#extension GL_NV_compute_shader_derivatives : require
layout(local_size_x = %d, local_size_y = %d) in;
layout(%s) in;
layout(std430, binding = 0) buffer In { float x[]; };
layout(std430, binding = 1) buffer Out { vec4 o[]; };
void main() {
	uvec3 id = gl_LocalInvocationID;
	uint i = gl_LocalInvocationIndex + gl_WorkGroupID.x * gl_WorkGroupSize.x * gl_WorkGroupSize.y;
	float v = x[i] * float(id.x + 1u) + float(id.y * id.y) * 0.75;
	o[3u * i] = vec4(dFdx(v), dFdy(v), fwidth(v), uintBitsToFloat(id.x | id.y << 16));
	o[3u * i + 1u] = vec4(dFdxFine(v), dFdyFine(v), fwidthFine(v), 0.0);
	o[3u * i + 2u] = vec4(dFdxCoarse(v), dFdyCoarse(v), fwidthCoarse(v), 0.0);
}
`, lx, ly, layout)
}

// TestComputeDerivatives: OpDPdx, OpDPdy, OpFwidth and their fine and
// coarse forms in compute, under DerivativeGroupLinearNV on lavapipe and
// spvx (see compareDerivatives for the forms the implementations may each
// choose), and under DerivativeGroupQuadsNV against exact arithmetic:
// lavapipe 22.3 differences consecutive local invocation indices there
// too (its dFdy at local id (0,0) is v(2,0) - v(0,0)), where the
// extension's quads are the local ids (2m+{0,1}, 2n+{0,1}). spvx runs at
// subgroup sizes 8 (lavapipe's) and 32.
func TestComputeDerivatives(t *testing.T) {
	d, err := New(Lavapipe)
	if err != nil {
		t.Skip(err)
	}
	for _, c := range []struct {
		layout string
		lx, ly uint32
	}{{"derivative_group_quadsNV", 8, 4}, {"derivative_group_quadsNV", 4, 6}, {"derivative_group_linearNV", 16, 2}, {"derivative_group_linearNV", 12, 1}} {
		t.Run(fmt.Sprintf("%s-%dx%d", c.layout, c.lx, c.ly), func(t *testing.T) {
			spv := compileGLSL(t, derivShader(c.layout, c.lx, c.ly))
			const groups = 3
			n := int(c.lx*c.ly) * groups
			in := make([]byte, 4*n)
			for k := range n {
				binary.LittleEndian.PutUint32(in[4*k:], math.Float32bits(float32(k%7)*0.375+float32(k*k%11)))
			}
			job := &Job{SPIRV: spv, Entry: "main", Groups: [3]uint32{groups, 1, 1}, Buffers: []Buffer{
				{Binding: 0, Data: in}, {Binding: 1, Data: make([]byte, 48*n)},
			}}
			quads := c.layout == "derivative_group_quadsNV"
			var want []byte
			if quads {
				want = quadDerivatives(in, n, c.lx, c.ly)
			} else {
				out, err := d.Run(job)
				if err != nil {
					t.Fatalf("lavapipe: %v", err)
				}
				want = out[1]
			}
			for _, S := range []int{8, 32} {
				got, err := RunSPVX(job, interp.Options{SubgroupSize: S})
				if err != nil {
					t.Fatalf("spvx: %v", err)
				}
				compareDerivatives(t, S, got[1], want, n, quads, c.lx, c.ly)
			}
		})
	}
}

// compareDerivatives compares every invocation's twelve words. The plain
// forms (words 0-2) of spvx are compared with lavapipe's fine ones (words
// 4-6). Coarse derivatives are the implementation's choice among a quad's
// differences: lavapipe takes each invocation's own row and column, spvx
// the quad's first, so spvx's coarse words (8-10) are compared with
// lavapipe's fine words of the quad's top-left invocation, whose row and
// column those are.
func compareDerivatives(t *testing.T, S int, got, want []byte, n int, quads bool, lx, ly uint32) {
	t.Helper()
	word := func(b []byte, inv, k int) uint32 { return binary.LittleEndian.Uint32(b[48*inv+4*k:]) }
	per := int(lx * ly)
	topLeft := func(inv int) int {
		wg, idx := inv/per, inv%per
		if !quads {
			return wg*per + idx&^3
		}
		x, y := uint32(idx)%lx, uint32(idx)/lx
		return wg*per + int((y&^1)*lx+x&^1)
	}
	bad := 0
	for inv := range n {
		if g, w := word(got, inv, 3), word(want, inv, 3); g != w {
			t.Fatalf("subgroup %d: invocation %d has local id %#x in spvx, %#x in lavapipe", S, inv, g, w)
		}
		for k := range 12 {
			ref, rk := inv, k
			switch {
			case k < 3:
				rk = k + 4
			case k >= 8:
				ref, rk = topLeft(inv), k-4
			}
			if g, w := word(got, inv, k), word(want, ref, rk); g != w && bad < 6 {
				bad++
				t.Errorf("subgroup %d, invocation %d (local id %#x), word %d: spvx %g, lavapipe %g", S, inv, word(want, inv, 3), k,
					math.Float32frombits(g), math.Float32frombits(w))
			}
		}
	}
}

// quadDerivatives computes what derivShader stores under
// DerivativeGroupQuadsNV, in the layout lavapipe returns (fine forms in
// words 0-2 and 4-6, coarse in 8-10 as lavapipe's choice would give them,
// the local id in word 3). Every value is exact in float32: v is a
// product of a short input and a small integer plus a multiple of 0.75,
// and its differences are exact.
func quadDerivatives(in []byte, n int, lx, ly uint32) []byte {
	per := int(lx * ly)
	v := func(wg int, x, y uint32) float32 {
		i := wg*per + int(y*lx+x)
		xi := math.Float32frombits(binary.LittleEndian.Uint32(in[4*i:]))
		return xi*float32(x+1) + float32(y*y)*0.75
	}
	abs := func(f float32) float32 { return float32(math.Abs(float64(f))) }
	out := make([]byte, 48*n)
	for inv := range n {
		wg, idx := inv/per, uint32(inv%per)
		x, y := idx%lx, idx/lx
		x0, y0 := x&^1, y&^1
		dx := v(wg, x0+1, y) - v(wg, x0, y)
		dy := v(wg, x, y0+1) - v(wg, x, y0)
		words := []float32{dx, dy, abs(dx) + abs(dy), math.Float32frombits(x | y<<16), dx, dy, abs(dx) + abs(dy), 0, dx, dy, abs(dx) + abs(dy)}
		for k, f := range words {
			binary.LittleEndian.PutUint32(out[48*inv+4*k:], math.Float32bits(f))
		}
	}
	return out
}
