package interp

import (
	"context"
	"math/bits"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"spvx/spirv"
)

// clModule compiles OpenCL C with Debian's clang-15 and llvm-spirv-15, or skips.
func clModule(t testing.TB, src string) *spirv.Module {
	t.Helper()
	clang, err1 := exec.LookPath("clang-15")
	tr, err2 := exec.LookPath("llvm-spirv-15")
	if err1 != nil || err2 != nil {
		t.Skip("clang-15 or llvm-spirv-15 not found: skipping the OpenCL C test")
	}
	dir := t.TempDir()
	cl, bc, spv := filepath.Join(dir, "k.cl"), filepath.Join(dir, "k.bc"), filepath.Join(dir, "k.spv")
	if err := os.WriteFile(cl, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := exec.Command(clang, "-cc1", "-triple", "spir64", "-cl-std=CL2.0", "-finclude-default-header",
		"-cl-ext=+cl_khr_subgroups,+cl_intel_subgroups", "-O2", "-ffp-contract=off", "-no-opaque-pointers", "-emit-llvm-bc", "-o", bc, cl).CombinedOutput(); err != nil {
		t.Fatalf("clang: %v\n%s", err, b)
	}
	if b, err := exec.Command(tr, bc, "-o", spv, "--spirv-ext=+all").CombinedOutput(); err != nil {
		t.Fatalf("llvm-spirv: %v\n%s", err, b)
	}
	return readModule(t, spv)
}

// clCase: kernel k(__global const int* in, __global int* out, int n [, __local int* tmp]).
type clCase struct {
	name  string
	src   string
	local bool // takes a __local int[64] as a 4th argument
	full  bool // check only full workgroups (cross-lane reads past the end are undefined)
	want  func(i, S int, in []int32) int32
}

func TestOpenCLKernels(t *testing.T) {
	const n, wg = 200, 64
	cases := []clCase{
		{name: "arith", src: `__kernel void k(__global const int* in, __global int* out, int n) {
  int i = get_global_id(0); if (i >= n) return; int v = in[i];
  int a = v - 500; if (a < 0) a = -a; out[i] = v * 3 - (v >> 2) + (v % 7) * (v / 5) + a + (v < 300 ? v : 300) + (v > 100 ? v : 100); }`,
			want: func(i, S int, in []int32) int32 {
				v := in[i]
				a := v - 500
				if a < 0 {
					a = -a
				}
				return v*3 - (v >> 2) + (v%7)*(v/5) + a + min(v, 300) + max(v, 100)
			}},
		{name: "private_array_loop", src: `__kernel void k(__global const int* in, __global int* out, int n) {
  int i = get_global_id(0); if (i >= n) return; int a[8];
  for (int k = 0; k < 8; k++) a[k] = in[(i + k) % n] ^ k;
  int s = 0; for (int k = 0; k < 8; k++) s += a[(k * 3 + in[i]) & 7] * (k + 1);
  out[i] = s; }`,
			want: func(i, S int, in []int32) int32 {
				var a [8]int32
				for k := 0; k < 8; k++ {
					a[k] = in[(i+k)%n] ^ int32(k)
				}
				var s int32
				for k := 0; k < 8; k++ {
					s += a[(int32(k*3)+in[i])&7] * int32(k+1)
				}
				return s
			}},
		{name: "float_math", src: `__kernel void k(__global const int* in, __global int* out, int n) {
  int i = get_global_id(0); if (i >= n) return; float f = (float)in[i];
  float g = f * 0.5f + 1.25f; g = g / (f + 1.0f); out[i] = (int)(g * 1000.0f) + (int)(f > 300.0f); }`,
			want: func(i, S int, in []int32) int32 {
				f := float32(in[i])
				g := f*0.5 + 1.25
				g = g / (f + 1)
				r := int32(g * 1000)
				if f > 300 {
					r++
				}
				return r
			}},
		{name: "local_barrier_reverse", local: true, src: `__kernel void k(__global const int* in, __global int* out, int n, __local int* tmp) {
  int i = get_global_id(0); int l = get_local_id(0); int ls = get_local_size(0);
  tmp[l] = i < n ? in[i] : -1; barrier(CLK_LOCAL_MEM_FENCE);
  if (i < n) out[i] = tmp[ls - 1 - l]; }`,
			want: func(i, S int, in []int32) int32 {
				base, l := i/wg*wg, i%wg
				ls := min(wg, n-base)
				return in[base+ls-1-l]
			}},
		{name: "atomics", src: `__kernel void k(__global const int* in, __global int* out, int n) {
  int i = get_global_id(0); if (i >= n) return;
  atomic_add(&out[0], in[i]); atomic_max(&out[1], in[i]); atomic_inc(&out[2]); atomic_or(&out[3], 1 << (in[i] & 31)); }`,
			want: func(i, S int, in []int32) int32 {
				switch i {
				case 0:
					var s int32
					for _, v := range in {
						s += v
					}
					return s
				case 1:
					var m int32
					for _, v := range in {
						m = max(m, v)
					}
					return m
				case 2:
					return n
				case 3:
					var o int32
					for _, v := range in {
						o |= 1 << (v & 31)
					}
					return o
				}
				return 0
			}},
		{name: "sub_group_builtins", src: `__kernel void k(__global const int* in, __global int* out, int n) {
  int i = get_global_id(0); int v = i < n ? in[i] : 0;
  int r = sub_group_reduce_add(v) + 3 * sub_group_scan_exclusive_add(v) + 5 * sub_group_reduce_max(v)
        + 7 * sub_group_broadcast(v, 0) + 11 * (int)get_sub_group_local_id() + 13 * (int)get_sub_group_size() + 17 * sub_group_all(v < 2000);
  if (i < n) out[i] = r; }`,
			want: func(i, S int, in []int32) int32 {
				first, cnt, lane := sgLanes(i, S, wg)
				if rem := n - i/wg*wg; rem < wg { // last, smaller workgroup
					first, cnt, lane = sgLanes(i-i/wg*wg, S, rem)
					first += i / wg * wg
				}
				at := func(k int) int32 {
					if first+k < n {
						return in[first+k]
					}
					return 0
				}
				var sum, ex, mx int32
				for k := 0; k < cnt; k++ {
					sum += at(k)
					mx = max(mx, at(k))
					if k < lane {
						ex += at(k)
					}
				}
				return sum + 3*ex + 5*mx + 7*at(0) + 11*int32(lane) + 13*int32(cnt) + 17
			}},
		{name: "intel_shuffle", full: true, src: `__kernel void k(__global const int* in, __global int* out, int n) {
  int i = get_global_id(0); int v = in[i]; uint l = get_sub_group_local_id(); uint s = get_max_sub_group_size();
  out[i] = intel_sub_group_shuffle(v, (l + 1) % s) + 3 * intel_sub_group_shuffle_xor(v, 1 % s); }`,
			want: func(i, S int, in []int32) int32 {
				first, _, lane := sgLanes(i, S, wg)
				return in[first+(lane+1)%S] + 3*in[first+(lane^(1%S))]
			}},
		{name: "int64_vectors", src: `__kernel void k(__global const int* in, __global int* out, int n) {
  int i = get_global_id(0); if (i >= n) return; long x = (long)in[i] * 1000003L;
  int4 v = (int4)(in[i], 2, 3, 4); v = v * v + (int4)(1); int4 w = v.wzyx;
  out[i] = (int)(x % 65521) + w.x + w.w * 2 + (((float)v.x + (float)v.y) + (float)v.z) + (float)v.w; }`,
			want: func(i, S int, in []int32) int32 {
				x := int64(in[i]) * 1000003
				v := [4]int32{in[i], 2, 3, 4}
				for k := range v {
					v[k] = v[k]*v[k] + 1
				}
				d := float32(float32(float32(float32(v[0])+float32(v[1]))+float32(v[2])) + float32(v[3]))
				return int32(float32(int32(x%65521)+v[3]+v[0]*2) + d)
			}},
		{name: "calls_divergent", src: `int f(int x) { int s = 0; while (x > 1) { x = (x & 1) ? 3 * x + 1 : x / 2; s++; } return s; }
__kernel void k(__global const int* in, __global int* out, int n) {
  int i = get_global_id(0); if (i >= n) return; out[i] = (in[i] & 1) ? f(in[i]) : -f(in[i] + 7); }`,
			want: func(i, S int, in []int32) int32 {
				f := func(x int32) int32 {
					var s int32
					for x > 1 {
						if x&1 != 0 {
							x = 3*x + 1
						} else {
							x /= 2
						}
						s++
					}
					return s
				}
				if in[i]&1 != 0 {
					return f(in[i])
				}
				return -f(in[i] + 7)
			}},
		{name: "bitops", src: `__kernel void k(__global const int* in, __global int* out, int n) {
  int i = get_global_id(0); if (i >= n) return; uint v = (uint)in[i];
  out[i] = (int)(popcount(v) + ((v << 3) ^ (v >> 1) | ~v)); }`,
			want: func(i, S int, in []int32) int32 {
				v := uint32(in[i])
				return int32(uint32(bits.OnesCount32(v)) + ((v << 3) ^ (v >> 1) | ^v))
			}},
		{name: "narrow_ints", src: `__kernel void k(__global const int* in, __global int* out, int n) {
  int i = get_global_id(0); if (i >= n) return; uchar c = (uchar)(in[i] * 3); short s = (short)(in[i] * 100);
  char d = (char)(c - 200); out[i] = c + s + d; }`,
			want: func(i, S int, in []int32) int32 {
				c := uint8(in[i] * 3)
				s := int16(in[i] * 100)
				d := int8(c - 200)
				return int32(c) + int32(s) + int32(d)
			}},
		{name: "work_item_functions", src: `__kernel void k(__global const int* in, __global int* out, int n) {
  int i = get_global_id(0); if (i >= n) return;
  out[i] = get_group_id(0) * 1000000 + get_num_groups(0) * 10000 + get_local_id(0) * 100 + get_global_size(0) % 100 + get_work_dim(); }`,
			want: func(i, S int, in []int32) int32 {
				return int32(i/wg*1000000 + 4*10000 + i%wg*100 + n%100 + 1)
			}},
		{name: "local_tree_reduction", local: true, src: `__kernel void k(__global const int* in, __global int* out, int n, __local int* tmp) {
  int i = get_global_id(0); int l = get_local_id(0);
  tmp[l] = i < n ? in[i] : 0; barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = 32; s > 0; s >>= 1) { if (l < s) tmp[l] += tmp[l + s]; barrier(CLK_LOCAL_MEM_FENCE); }
  if (i < n) out[i] = tmp[0]; }`,
			want: func(i, S int, in []int32) int32 {
				base := i / wg * wg
				var s int32
				for k := base; k < base+wg && k < n; k++ {
					s += in[k]
				}
				return s
			}},
		{name: "fp64", src: `#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void k(__global const int* in, __global int* out, int n) {
  int i = get_global_id(0); if (i >= n) return; double d = (double)in[i]; d = d / 3.0 * 1.5 - 0.25; out[i] = (int)(d * 8.0); }`,
			want: func(i, S int, in []int32) int32 {
				d := float64(in[i])
				d = d/3.0*1.5 - 0.25
				return int32(d * 8)
			}},
		{name: "private_struct", src: `typedef struct { int a; float b; short c[3]; } P;
void fill(P* p, int v) { p->a = v; p->b = v * 0.5f; for (int k = 0; k < 3; k++) p->c[k] = (short)(v + k); }
__kernel void k(__global const int* in, __global int* out, int n) {
  int i = get_global_id(0); if (i >= n) return; P p; fill(&p, in[i]);
  out[i] = p.a + (int)p.b + p.c[in[i] % 3]; }`,
			want: func(i, S int, in []int32) int32 {
				v := in[i]
				return v + int32(float32(v)*0.5) + int32(int16(v+v%3))
			}},
		{name: "pointer_arith", src: `__kernel void k(__global const int* in, __global int* out, int n) {
  int i = get_global_id(0); if (i >= n - 4) { if (i < n) out[i] = 0; return; }
  __global const int* q = in + (i % 4); out[i] = *q + q[1] * 2 + *(q + i % 3); }`,
			want: func(i, S int, in []int32) int32 {
				if i >= n-4 {
					return 0
				}
				q := i % 4
				return in[q] + in[q+1]*2 + in[q+i%3]
			}},
		{name: "do_while", src: `__kernel void k(__global const int* in, __global int* out, int n) {
  int i = get_global_id(0); if (i >= n) return; int v = in[i], s = 0, k = 0;
  do { k++; if (k % 3 == 0) continue; s += k * v; if (s > 4000) break; } while (k < v % 17);
  out[i] = s * 100 + k; }`,
			want: func(i, S int, in []int32) int32 {
				v := in[i]
				var s, k int32
				for {
					k++
					if k%3 != 0 {
						s += k * v
						if s > 4000 {
							break
						}
					}
					if !(k < v%17) {
						break
					}
				}
				return s*100 + k
			}},
		{name: "vector_select", src: `__kernel void k(__global const int* in, __global int* out, int n) {
  int i = get_global_id(0); if (i >= n) return; int v = in[i] - 500;
  int2 a = (int2)(v, -v * 3); int2 b = a > (int2)(0) ? a : (int2)(7, 9); out[i] = b.x * 10 + b.y; }`,
			want: func(i, S int, in []int32) int32 {
				v := in[i] - 500
				a := [2]int32{v, -v * 3}
				b := [2]int32{7, 9}
				for k := range a {
					if a[k] > 0 {
						b[k] = a[k]
					}
				}
				return b[0]*10 + b[1]
			}},
		{name: "local_atomic_cmpxchg", local: true, src: `__kernel void k(__global const int* in, __global int* out, int n, __local int* tmp) {
  int i = get_global_id(0); int l = get_local_id(0);
  if (l == 0) tmp[0] = 0; barrier(CLK_LOCAL_MEM_FENCE);
  if (i < n) { int old, nw; do { old = tmp[0]; nw = old + in[i]; } while (atomic_cmpxchg(&tmp[0], old, nw) != old); }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (i < n) out[i] = tmp[0]; }`,
			want: func(i, S int, in []int32) int32 {
				base := i / wg * wg
				var s int32
				for k := base; k < base+wg && k < n; k++ {
					s += in[k]
				}
				return s
			}},
		{name: "work_group_functions", src: `__kernel void k(__global const int* in, __global int* out, int n) {
  int i = get_global_id(0); int v = i < n ? in[i] : 0;
  int r = work_group_reduce_add(v) + 3 * work_group_scan_exclusive_add(v) + 5 * work_group_reduce_max(v)
        + 7 * work_group_broadcast(v, 5) + 11 * work_group_all(v < 2000) + 13 * work_group_scan_inclusive_min(v);
  if (i < n) out[i] = r; }`,
			want: func(i, S int, in []int32) int32 {
				base := i / wg * wg
				var sum, ex, mx int32
				mn := int32(1 << 30)
				for k := base; k < base+wg && k < n; k++ {
					sum += in[k]
					mx = max(mx, in[k])
					if k < i {
						ex += in[k]
					}
					if k <= i {
						mn = min(mn, in[k])
					}
				}
				return sum + 3*ex + 5*mx + 7*in[base+5] + 11 + 13*mn
			}},
		{name: "switch_select", src: `__kernel void k(__global const int* in, __global int* out, int n) {
  int i = get_global_id(0); if (i >= n) return; int v = in[i]; int r;
  switch (v % 5) { case 0: r = 10; break; case 1: r = v; break; case 3: r = -v; break; default: r = v > 500 ? 1 : 2; }
  out[i] = r; }`,
			want: func(i, S int, in []int32) int32 {
				v := in[i]
				switch v % 5 {
				case 0:
					return 10
				case 1:
					return v
				case 3:
					return -v
				}
				if v > 500 {
					return 1
				}
				return 2
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel() // clang and llvm-spirv dominate: run them side by side
			m := clModule(t, c.src)
			for _, S := range []int{1, 8, 16, 32} {
				for _, sc := range schedules {
					o := sc.opts
					o.SubgroupSize = S
					p, err := Compile(m, "k", o)
					if err != nil {
						t.Fatalf("compile: %v", err)
					}
					in := make([]int32, n)
					for i := range in {
						in[i] = int32(i*7919%1000 + 1)
					}
					ib := make([]byte, 4*n)
					for i, v := range in {
						copy(ib[4*i:], u32s(uint32(v)))
					}
					ob := make([]byte, 4*n)
					args := []KernelArg{{Kind: ArgGlobal, Global: ib}, {Kind: ArgGlobal, Global: ob}, {Kind: ArgScalar, Scalar: n}}
					if c.local {
						args = append(args, KernelArg{Kind: ArgLocal, LocalSize: 4 * wg})
					}
					err = p.DispatchND(context.Background(), [3]uint32{n, 1, 1}, [3]uint32{wg, 1, 1}, &Resources{Args: args})
					if err != nil {
						t.Fatalf("S=%d %s: %v", S, sc.name, err)
					}
					for i := 0; i < n; i++ {
						if c.full && i >= n/wg*wg {
							break
						}
						if got, want := int32(getU32(ob, i)), c.want(i, S, in); got != want {
							t.Fatalf("S=%d %s: out[%d] = %d, want %d", S, sc.name, i, got, want)
						}
					}
				}
			}
		})
	}
}
