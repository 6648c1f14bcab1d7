package interp

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"testing"

	"spvx/mx"
)

// The full-subgroup lane loops (conversions, OpBitcastExtractEXT,
// subgroup arithmetic) and the joins (join.go) must give what the per-lane
// code gives. Each test runs a module with every lane active (a workgroup
// of whole subgroups), with a partial last subgroup, and with divergence,
// in a wide group and with the subgroups apart, and checks the results
// against values computed here independently.

// laneShapes: local sizes (whole subgroups of 32 and 8, and a partial last
// subgroup of 8 lanes at 32) and schedules.
var laneShapes = []struct {
	local, S int
	sep      bool
}{
	{256, 32, false}, {256, 32, true}, {40, 32, false}, {40, 32, true}, {40, 8, false}, {40, 8, true},
}

// reduceLanesSrc stores six subgroup arithmetic results per invocation,
// for every invocation (DIV 0) or only those with i%3 != 1 (DIV 1: each
// subgroup runs them with a partial lane list).
const reduceLanesSrc = `#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_clustered : require
layout(local_size_x = LOCAL) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) buffer O { float o[]; };
layout(push_constant) uniform P { uint div; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  float v = x[i];
  if (div == 0u || i % 3u != 1u) {
    o[6u*i] = subgroupAdd(v);
    o[6u*i+1u] = subgroupInclusiveAdd(v);
    o[6u*i+2u] = subgroupExclusiveAdd(v);
    o[6u*i+3u] = subgroupClusteredAdd(v, 4u);
    o[6u*i+4u] = subgroupExclusiveMax(v);
    o[6u*i+5u] = subgroupInclusiveMin(v);
  }
}`

// wantReduce computes reduceLanesSrc's outputs for invocation i (local
// index li of a workgroup of local lanes) by folding the active lanes of
// its subgroup in lane order in float32; ok is false for an inactive one.
func wantReduce(x []float32, i, li, local, S int, div bool) (w [6]float32, ok bool) {
	on := func(j int) bool { return !div || j%3 != 1 }
	if !on(i) {
		return w, false
	}
	first := i - li%S // the subgroup's first invocation
	last := min(first+S, i-li+local)
	var add, incl, excl, clu float32
	exMax, inMin := float32(math.Inf(-1)), float32(math.Inf(1))
	seen, seenClu := false, false
	for j := first; j < last; j++ {
		if !on(j) {
			continue
		}
		v := x[j]
		if !seen {
			add = v
		} else {
			add += v
		}
		if j < i {
			if !seen {
				excl = v
			} else {
				excl += v
			}
			exMax = max(exMax, v)
		}
		if j <= i {
			incl = add
			inMin = min(inMin, v)
		}
		if (j-first)/4 == (i-first)/4 {
			if !seenClu {
				clu = v
			} else {
				clu += v
			}
			seenClu = true
		}
		seen = true
	}
	return [6]float32{add, incl, excl, clu, exMax, inMin}, true
}

func TestDenseSubgroupArithmeticMatchesLaneOrder(t *testing.T) {
	const groups = 5
	for _, local := range []int{256, 40} {
		m := glsl(t, strings.ReplaceAll(reduceLanesSrc, "LOCAL", fmt.Sprint(local)), "")
		n := groups * local
		x := make([]float32, n)
		for i := range x {
			// magnitudes far apart: a sum in another order rounds differently
			x[i] = float32(math.Sin(float64(i)+0.5)) * float32(math.Pow(10, float64(i%5)))
		}
		for _, sh := range laneShapes {
			if sh.local != local {
				continue
			}
			for _, div := range []bool{false, true} {
				out := make([]byte, 4*6*n)
				for k := range n * 6 {
					copy(out[4*k:], f32s(12345))
				}
				push := u32s(0)
				if div {
					push = u32s(1)
				}
				opts := Options{SubgroupSize: sh.S, SeparateSubgroups: sh.sep, Parallelism: 1}
				if err := run(t, m, opts, [3]uint32{groups, 1, 1}, map[BindingKey][]byte{{0, 0}: f32s(x...), {0, 1}: out}, push); err != nil {
					t.Fatal(err)
				}
				for i := range n {
					w, ok := wantReduce(x, i, i%local, local, sh.S, div)
					for k := range 6 {
						want := w[k]
						if !ok {
							want = 12345
						}
						if got := getF32(out, 6*i+k); math.Float32bits(got) != math.Float32bits(want) {
							t.Fatalf("local %d S=%d separate=%v divergent=%v: invocation %d result %d = %g, want %g", local, sh.S, sh.sep, div, i, k, got, want)
						}
					}
				}
			}
		}
	}
}

// mxfp4Shape is mxfp4Src with another workgroup size and invocation 45's
// offset past its 32-bit base (offset+64).
func mxfp4Shape(local int) string {
	return strings.NewReplacer(
		"LocalSize 256 1 1", fmt.Sprintf("LocalSize %d 1 1", local),
		"%c255 = OpConstant %u32 255\n", "%c255 = OpConstant %u32 255\n%c45 = OpConstant %u32 45\n%c64 = OpConstant %u32 64\n%bool = OpTypeBool\n",
		"%code = OpBitcastExtractEXT %fp4 %w %off\n", "%is = OpIEqual %bool %i %c45\n%bump = OpSelect %u32 %is %c64 %c0\n%off2 = OpIAdd %u32 %off %bump\n%code = OpBitcastExtractEXT %fp4 %w %off2\n",
	).Replace(mxfp4Src)
}

// OpBitcastExtractEXT and the FP4 and E8M0 conversions give mx.Dequantize's
// values with whole and partial subgroups; the out-of-range offset gives 0,
// or under Strict a fault naming invocation 45.
func TestDenseBitcastExtractMXFP4(t *testing.T) {
	const n = 1280 // 5 workgroups of 256, 32 of 40
	_, scales, elems := mxfp4Data(n)
	want := make([]float32, n)
	if err := mx.Dequantize(want, scales, elems, mx.MXFP4, 32, 1); err != nil {
		t.Fatal(err)
	}
	want[45] = 0
	for _, sh := range laneShapes {
		m := assemble(t, mxfp4Shape(sh.local))
		groups := [3]uint32{uint32(n / sh.local), 1, 1}
		opts := Options{SubgroupSize: sh.S, SeparateSubgroups: sh.sep, Parallelism: 1}
		name := fmt.Sprintf("local %d S=%d separate=%v", sh.local, sh.S, sh.sep)
		out := make([]byte, 4*n)
		if err := run(t, m, opts, groups, map[BindingKey][]byte{{0, 0}: scales, {0, 1}: elems, {0, 2}: out}, nil); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for i := range want {
			if got := getF32(out, i); math.Float32bits(got) != math.Float32bits(want[i]) {
				t.Fatalf("%s: element %d: %g, want %g", name, i, got, want[i])
			}
		}
		opts.Strict = true
		err := run(t, m, opts, groups, map[BindingKey][]byte{{0, 0}: scales, {0, 1}: elems, {0, 2}: make([]byte, 4*n)}, nil)
		var f *Fault
		if !errors.As(err, &f) {
			t.Fatalf("%s, Strict: got %v, want a fault", name, err)
		}
		li := 45 % sh.local
		if f.Kind != FaultUndefined || f.GlobalID != [3]uint32{45, 0, 0} || f.SubgroupID != uint32(li/sh.S) || f.Lane != uint32(li%sh.S) ||
			!strings.Contains(f.Error(), "OpBitcastExtractEXT offset 84 out of range for a 32-bit base") {
			t.Errorf("%s, Strict: fault %+v: %v", name, f, err)
		}
	}
}

// The narrowing conversions to FP8 (no table) and back (a table) give the
// mx encoder's codes with whole and partial subgroups.
func TestDenseNarrowConversions(t *testing.T) {
	var xs []float32
	for i := range 320 {
		xs = append(xs, float32(math.Sin(float64(i)))*float32(1+i%300))
	}
	xs = append(xs, 1e9, -0.0, 0x1p-9, float32(math.Inf(-1)))
	for len(xs)%320 != 0 {
		xs = append(xs, 0.3)
	}
	src := strings.NewReplacer("WIDTH", "8", "ENC", "Float8E4M3EXT", "DECOR", "", "BITTYPE", "%u8").Replace(mxTemplate)
	for _, sh := range []struct{ local, S int }{{64, 16}, {40, 32}, {40, 16}} {
		m := assemble(t, strings.Replace(src, "LocalSize 64 1 1", fmt.Sprintf("LocalSize %d 1 1", sh.local), 1))
		for _, sep := range []bool{false, true} {
			in, out, out2 := f32s(xs...), make([]byte, 4*len(xs)), make([]byte, 4*len(xs))
			opts := Options{SubgroupSize: sh.S, SeparateSubgroups: sep, Parallelism: 1}
			if err := run(t, m, opts, [3]uint32{uint32(len(xs) / sh.local), 1, 1}, map[BindingKey][]byte{{0, 0}: in, {0, 1}: out, {0, 2}: out2}, nil); err != nil {
				t.Fatal(err)
			}
			for i, x := range xs {
				code := mx.E4M3.EncodeFloat64(float64(x), mx.RoundingMode(0), false)
				back := mx.E4M3.DecodeFloat32(code)
				if got := getU32(out, i); got != uint32(code) {
					t.Fatalf("local %d S=%d separate=%v: %g: code %#x, want %#x", sh.local, sh.S, sep, x, got, code)
				}
				if got := getF32(out2, i); math.Float32bits(got) != math.Float32bits(back) && !(got != got && back != back) {
					t.Fatalf("local %d S=%d separate=%v: %g: back %g, want %g", sh.local, sh.S, sep, x, got, back)
				}
			}
		}
	}
}

// A guarded store (the reduction kernel: subgroupAdd, then a store by
// each subgroup's first invocation) runs as a join: the wide group runs
// every instruction of the entry function for every workgroup and never
// splits, and the sums are the lane-order folds.
func TestWideJoinDoesNotSplit(t *testing.T) {
	m := glsl(t, reduceSrc, "")
	const groups, S = 3, 32
	n := groups * 256
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(math.Cos(float64(i))) * float32(1+i%1000)
	}
	p, err := Compile(m, "", Options{SubgroupSize: S, Parallelism: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.joins) != 1 || !p.joins[0].wide {
		t.Fatalf("joins %+v, want one of wide instructions", p.joins)
	}
	// the instructions run: the entry block, the arm and the join's block
	entry := &p.blocks[p.entry.firstBlock]
	br := &p.code[entry.end-1]
	j := p.joins[br.c-1]
	ninst := int64(entry.end - entry.start)
	for _, b := range []int32{j.arm[0], j.arm[1], j.target} {
		if b >= 0 {
			ninst += int64(p.blocks[b].end - p.blocks[b].start)
		}
	}
	for _, sep := range []bool{false, true} {
		out := make([]byte, 4*n/S)
		res := map[BindingKey][]byte{{0, 0}: f32s(x...), {0, 1}: out}
		if err := run(t, m, Options{SubgroupSize: S, Parallelism: 1, SeparateSubgroups: sep}, [3]uint32{groups, 1, 1}, res, nil); err != nil {
			t.Fatal(err)
		}
		ws := lastDispatchWideSteps.Load()
		want := int64(0)
		if !sep {
			want = groups * 256 / S * ninst
		}
		if ws != want {
			t.Errorf("separate=%v: the wide groups ran %d subgroup-instructions, want %d (%d instructions for each of %d subgroups)", sep, ws, want, ninst, groups*256/S)
		}
		for k := range n / S {
			var acc float32
			for i, v := range x[S*k : S*k+S] {
				if i == 0 {
					acc = v
				} else {
					acc += v
				}
			}
			if got := getF32(out, k); math.Float32bits(got) != math.Float32bits(acc) {
				t.Fatalf("separate=%v: sum %d = %g, want %g", sep, k, got, acc)
			}
		}
	}
}

// joinSrc has an if/else whose arms write the same words (the later
// arm's stores land last) and a phi after it, and an if without an else.
const joinSrc = `#version 450
layout(local_size_x = 48) in;
layout(set = 0, binding = 0) buffer O { uint o[]; };
layout(set = 0, binding = 1) buffer W { uint w[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  uint y = i * 7u;
  if (((i * 2654435761u) >> 7) % 3u == 0u) { w[i >> 3] = i; y += 1u; } else { w[i >> 3] = i + 1000u; y ^= 5u; }
  if ((i & 5u) == 1u) { w[200u + (i >> 4)] = y; y *= 3u; }
  o[i] = y;
}`

// Joins run the arms in the scheduler's order with the scheduler's lanes:
// the results are those of a run with Trace (which runs every block
// through the scheduler), in a wide group and with the subgroups apart.
func TestJoinMatchesScheduler(t *testing.T) {
	m := glsl(t, joinSrc, "")
	const groups = 4
	n := groups * 48
	for _, S := range []int{8, 32} {
		p, err := Compile(m, "", Options{SubgroupSize: S})
		if err != nil {
			t.Fatal(err)
		}
		both := false
		for _, j := range p.joins {
			both = both || j.arm[0] >= 0 && j.arm[1] >= 0
		}
		if len(p.joins) != 2 || !both {
			t.Fatalf("S=%d: joins %+v, want two, one with two arms", S, p.joins)
		}
		var ref [2][]byte
		for k, o := range []Options{{Trace: io.Discard}, {SeparateSubgroups: true}, {}} {
			o.SubgroupSize, o.Parallelism = S, 1
			out, w := make([]byte, 4*n), make([]byte, 4*256)
			if err := run(t, m, o, [3]uint32{groups, 1, 1}, map[BindingKey][]byte{{0, 0}: out, {0, 1}: w}, nil); err != nil {
				t.Fatal(err)
			}
			if k == 0 {
				ref = [2][]byte{out, w}
				continue
			}
			if !bytes.Equal(out, ref[0]) || !bytes.Equal(w, ref[1]) {
				t.Errorf("S=%d, %+v: results differ from the scheduler's", S, o)
			}
		}
	}
}

// A fault in an arm (a store past the end of w by invocation 17) is the
// one the scheduler reports, in a wide group and with the subgroups apart.
func TestJoinFaultMatchesScheduler(t *testing.T) {
	m := glsl(t, joinSrc, "")
	for _, S := range []int{8, 16} {
		var ref string
		for k, o := range []Options{{Trace: io.Discard}, {SeparateSubgroups: true}, {}} {
			o.SubgroupSize, o.Parallelism = S, 1
			err := run(t, m, o, [3]uint32{4, 1, 1}, map[BindingKey][]byte{{0, 0}: make([]byte, 4*192), {0, 1}: make([]byte, 4*201)}, nil)
			var f *Fault
			if !errors.As(err, &f) || f.Kind != FaultOutOfBounds || f.GlobalID != [3]uint32{17, 0, 0} {
				t.Fatalf("S=%d, %+v: got %v, want invocation 17's out-of-bounds store", S, o, err)
			}
			if k == 0 {
				ref = f.Error()
			} else if f.Error() != ref {
				t.Errorf("S=%d, %+v: fault\n%v\nthe scheduler's\n%v", S, o, f, ref)
			}
		}
	}
}

// The integer truncations and sign extensions (OpUConvert, OpSConvert
// to and from 8 and 16 bits) give Go's conversions with whole and partial
// subgroups.
func TestDenseIntConversions(t *testing.T) {
	const n = 1280 // whole workgroups of 256 and of 40
	for _, sh := range laneShapes {
		m := glsl(t, fmt.Sprintf(`#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
layout(local_size_x = %d) in;
layout(set = 0, binding = 0) buffer X { int x[]; };
layout(set = 0, binding = 1) buffer O { int o[]; };
void main() { uint i = gl_GlobalInvocationID.x;
  int8_t s = int8_t(x[i]); uint8_t u = uint8_t(uint(x[i]) >> 3);
  int16_t h = int16_t(x[i] >> 5);
  o[3u*i] = int(s); o[3u*i+1u] = int(uint(u)); o[3u*i+2u] = int(h); }`, sh.local), "")
		x := make([]uint32, n)
		for i := range x {
			x[i] = uint32(i) * 2654435761
		}
		out := make([]byte, 12*n)
		opts := Options{SubgroupSize: sh.S, SeparateSubgroups: sh.sep, Parallelism: 1}
		if err := run(t, m, opts, [3]uint32{uint32(n / sh.local), 1, 1}, map[BindingKey][]byte{{0, 0}: u32s(x...), {0, 1}: out}, nil); err != nil {
			t.Fatal(err)
		}
		for i, v := range x {
			if got, want := getU32(out, 3*i), uint32(int32(int8(v))); got != want {
				t.Fatalf("local %d S=%d separate=%v: int8(%#x) = %#x, want %#x", sh.local, sh.S, sh.sep, v, got, want)
			}
			if got, want := getU32(out, 3*i+1), uint32(uint8(v>>3)); got != want {
				t.Fatalf("local %d S=%d separate=%v: uint8(%#x>>3) = %#x, want %#x", sh.local, sh.S, sh.sep, v, got, want)
			}
			if got, want := getU32(out, 3*i+2), uint32(int32(int16(int32(v)>>5))); got != want {
				t.Fatalf("local %d S=%d separate=%v: int16(%#x>>5) = %#x, want %#x", sh.local, sh.S, sh.sep, v, got, want)
			}
		}
	}
}
