package interp

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"spvx/spirv"
)

// clModuleTriple compiles OpenCL C for a clang target triple ("spir" for
// 32-bit SPIR: Physical32 addressing, 32-bit size_t and pointers; "spir64"
// for Physical64) with Debian's clang-15 and llvm-spirv-15, or skips.
func clModuleTriple(t testing.TB, src, triple string) *spirv.Module {
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
	if b, err := exec.Command(clang, "-cc1", "-triple", triple, "-cl-std=CL2.0", "-finclude-default-header",
		"-cl-ext=+cl_khr_subgroups,+cl_intel_subgroups", "-O2", "-ffp-contract=off", "-no-opaque-pointers", "-emit-llvm-bc", "-o", bc, cl).CombinedOutput(); err != nil {
		t.Fatalf("clang: %v\n%s", err, b)
	}
	if b, err := exec.Command(tr, bc, "-o", spv, "--spirv-ext=+all").CombinedOutput(); err != nil {
		t.Fatalf("llvm-spirv: %v\n%s", err, b)
	}
	return readModule(t, spv)
}

// TestPhysical32Kernels runs OpenCL C compiled for 32-bit SPIR: pointers,
// size_t and uintptr_t are 32 bits wide, so access chains take 32-bit
// indices, get_global_id returns uint, and OpConvertPtrToU/UToPtr work on
// 32-bit integers. Every kernel has the signature
// k(__global const int* in, __global int* out, int n [, __local int* tmp]).
func TestPhysical32Kernels(t *testing.T) {
	for _, tr := range []struct {
		triple string
		ptr    int32
		model  spirv.AddressingModel
	}{{"spir", 4, spirv.AddressingModelPhysical32}, {"spir64", 8, spirv.AddressingModelPhysical64}} {
		t.Run(tr.triple, func(t *testing.T) {
			t.Parallel()
			for _, c := range physCases(tr.ptr) {
				t.Run(c.name, func(t *testing.T) {
					t.Parallel() // clang and llvm-spirv dominate: run them side by side
					m := clModuleTriple(t, c.src, tr.triple)
					if x := m.Index(); x.AddressingModel != tr.model {
						t.Fatalf("addressing model %v, want %v", x.AddressingModel, tr.model)
					}
					runCLCase(t, m, c)
				})
			}
		})
	}
}

const clN, clWG = 200, 64

// physCases are the kernels of TestPhysical32Kernels for pointers of ptr
// bytes (the same kernels run as Physical64 for comparison).
func physCases(ptr int32) []clCase {
	const n, wg = clN, clWG
	wgSum := func(i int, in []int32) int32 {
		base := i / wg * wg
		var s int32
		for k := base; k < base+wg && k < n; k++ {
			s += in[k]
		}
		return s
	}
	cases := []clCase{
		{name: "sizes_and_ptr_roundtrip", src: `__kernel void k(__global const int* in, __global int* out, int n) {
  size_t i = get_global_id(0); if (i >= (size_t)n) return;
  uintptr_t u = (uintptr_t)(in + i); __global const int* q = (__global const int*)(u + 4);
  ptrdiff_t d = (out + n) - (out + i);
  out[i] = (int)sizeof(size_t) * 1000000 + (int)sizeof(void*) * 100000 + (int)sizeof(ptrdiff_t) * 10000
         + (i + 1 < (size_t)n ? *q : -1) + (int)d * 7 + (int)((u - (uintptr_t)in) / 4) * 3; }`,
			want: func(i, S int, in []int32) int32 {
				q := int32(-1)
				if i+1 < n {
					q = in[i+1]
				}
				return ptr*1000000 + ptr*100000 + ptr*10000 + q + int32(n-i)*7 + int32(i)*3
			}},
		{name: "local_reverse_barrier", local: true, src: `__kernel void k(__global const int* in, __global int* out, int n, __local int* tmp) {
  size_t i = get_global_id(0), l = get_local_id(0), ls = get_local_size(0);
  tmp[l] = i < (size_t)n ? in[i] : -1; barrier(CLK_LOCAL_MEM_FENCE);
  if (i < (size_t)n) out[i] = tmp[ls - 1 - l]; }`,
			want: func(i, S int, in []int32) int32 {
				base, l := i/wg*wg, i%wg
				ls := min(wg, n-base)
				return in[base+ls-1-l]
			}},
		{name: "module_local_array", src: `__kernel void k(__global const int* in, __global int* out, int n) {
  __local int buf[64]; __local int* p = buf;
  size_t i = get_global_id(0), l = get_local_id(0);
  p[l] = i < (size_t)n ? in[i] * 2 : 0; barrier(CLK_LOCAL_MEM_FENCE);
  int s = 0; for (uint k = 0; k < 4; k++) s += *(p + ((l + k) & 63));
  if (i < (size_t)n) out[i] = s; }`,
			full: true,
			want: func(i, S int, in []int32) int32 {
				base, l := i/wg*wg, i%wg
				var s int32
				for k := 0; k < 4; k++ {
					s += 2 * in[base+(l+k)&63]
				}
				return s
			}},
		{name: "private_pointer_walk", src: `__kernel void k(__global const int* in, __global int* out, int n) {
  size_t i = get_global_id(0); if (i >= (size_t)n) return;
  int a[6]; int* p = a; for (int k = 0; k < 6; k++) *p++ = in[(i + k) % n] - k;
  int* e = a + 6; int s = 0; for (int* q = a + (in[i] & 1); q < e; q += 2) s += *q;
  out[i] = s + (int)(e - a); }`,
			want: func(i, S int, in []int32) int32 {
				var a [6]int32
				for k := range a {
					a[k] = in[(i+k)%n] - int32(k)
				}
				s := int32(6)
				for k := int(in[i] & 1); k < 6; k += 2 {
					s += a[k]
				}
				return s
			}},
		{name: "global_atomics", src: `__kernel void k(__global const int* in, __global int* out, int n) {
  size_t i = get_global_id(0); if (i >= (size_t)n) return;
  atomic_add(&out[0], in[i]); atomic_min(&out[1], -in[i]); atomic_inc(&out[2]); atomic_xor(&out[3], in[i]);
  int old = atomic_cmpxchg(&out[4], 0, 1); if (old == 0) atomic_add(&out[5], 1); }`,
			want: func(i, S int, in []int32) int32 {
				switch i {
				case 0:
					return wgSum(0, in) + wgSum(64, in) + wgSum(128, in) + wgSum(192, in)
				case 1:
					var m int32
					for _, v := range in {
						m = min(m, -v)
					}
					return m
				case 2:
					return n
				case 3:
					var x int32
					for _, v := range in {
						x ^= v
					}
					return x
				case 4, 5:
					return 1
				}
				return 0
			}},
		{name: "local_atomic_histogram", local: true, src: `__kernel void k(__global const int* in, __global int* out, int n, __local int* tmp) {
  size_t i = get_global_id(0), l = get_local_id(0);
  if (l < 8) tmp[l] = 0; barrier(CLK_LOCAL_MEM_FENCE);
  if (i < (size_t)n) atomic_inc(&tmp[in[i] & 7]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (i < (size_t)n) out[i] = tmp[l & 7] * 100 + tmp[in[i] & 7]; }`,
			want: func(i, S int, in []int32) int32 {
				base, l := i/wg*wg, i%wg
				var h [8]int32
				for k := base; k < base+wg && k < n; k++ {
					h[in[k]&7]++
				}
				return h[l&7]*100 + h[in[i]&7]
			}},
		{name: "sub_group_builtins", src: `__kernel void k(__global const int* in, __global int* out, int n) {
  size_t i = get_global_id(0); int v = i < (size_t)n ? in[i] : 0;
  int r = sub_group_reduce_add(v) + 3 * sub_group_scan_inclusive_add(v) + 5 * sub_group_reduce_min(v)
        + 7 * sub_group_broadcast(v, 0) + 11 * (int)get_sub_group_local_id() + 13 * (int)get_sub_group_size()
        + 17 * (int)get_sub_group_id() + 19 * (int)get_num_sub_groups() + 23 * sub_group_any(v == 500);
  if (i < (size_t)n) out[i] = r; }`,
			want: func(i, S int, in []int32) int32 {
				wgBase := i / wg * wg
				wgN := min(wg, n-wgBase)
				first, cnt, lane := sgLanes(i-wgBase, S, wgN)
				first += wgBase
				var sum, inc, any int32
				mn := int32(1 << 30)
				for k := 0; k < cnt; k++ {
					v := in[first+k]
					sum += v
					mn = min(mn, v)
					if k <= lane {
						inc += v
					}
					if v == 500 {
						any = 1
					}
				}
				sgID := (i - wgBase) / S
				nsg := (wgN + S - 1) / S
				return sum + 3*inc + 5*mn + 7*in[first] + 11*int32(lane) + 13*int32(cnt) + 17*int32(sgID) + 19*int32(nsg) + 23*any
			}},
		{name: "intel_shuffles", full: true, src: `__kernel void k(__global const int* in, __global int* out, int n) {
  size_t i = get_global_id(0); int v = in[i]; uint l = get_sub_group_local_id(); uint s = get_max_sub_group_size();
  out[i] = intel_sub_group_shuffle(v, (l + 3) % s) + 3 * intel_sub_group_shuffle_xor(v, 2 % s)
         + 5 * intel_sub_group_shuffle_down(v, v, 1) + 7 * intel_sub_group_shuffle_up(v, v, 1); }`,
			want: func(i, S int, in []int32) int32 {
				first, _, lane := sgLanes(i, S, wg)
				at := func(k int) int32 { return in[first+k] }
				// shuffle_down(cur, next, d): lane+d of cur, or of next past the end
				down := at((lane + 1) % S)
				// shuffle_up(prev, cur, d): lane-d of cur, or of prev before the start
				up := at((lane - 1 + S) % S)
				return at((lane+3)%S) + 3*at(lane^(2%S)) + 5*down + 7*up
			}},
		{name: "generic_pointers", local: true, src: `int sum3(int* p) { return p[0] + p[1] * 2 + p[2] * 3; }
__kernel void k(__global const int* in, __global int* out, int n, __local int* tmp) {
  size_t i = get_global_id(0), l = get_local_id(0);
  tmp[l] = i < (size_t)n ? in[i] : 0; barrier(CLK_LOCAL_MEM_FENCE);
  int pr[3] = { (int)l, (int)i, 5 };
  if (i < (size_t)n) out[i] = sum3((int*)&in[i < (size_t)n - 2 ? i : 0]) * 100 + sum3(&tmp[l < 60 ? l : 0]) * 10 + sum3(pr)
      + (to_local((int*)tmp) != 0) * 1000000 + (to_global((int*)tmp) == 0) * 2000000; }`,
			want: func(i, S int, in []int32) int32 {
				base, l := i/wg*wg, i%wg
				at := func(k int) int32 {
					if base+k < n {
						return in[base+k]
					}
					return 0
				}
				g := i
				if g >= n-2 {
					g = 0
				}
				lk := l
				if lk >= 60 {
					lk = 0
				}
				return (in[g]+in[g+1]*2+in[g+2]*3)*100 + (at(lk)+at(lk+1)*2+at(lk+2)*3)*10 + int32(l) + int32(i)*2 + 15 + 3000000
			}},
		{name: "long_and_size_t", src: `__kernel void k(__global const int* in, __global int* out, int n) {
  size_t i = get_global_id(0); if (i >= (size_t)n) return;
  ulong x = (ulong)i * 0x100000001UL + (ulong)(uint)in[i]; size_t wrap = (size_t)0 - i;
  out[i] = (int)(x >> 16) ^ (int)(x % 1000003UL) ^ (int)(wrap >> 8) ^ (int)(get_global_size(0) + get_num_groups(0)); }`,
			want: func(i, S int, in []int32) int32 {
				x := uint64(i)*0x100000001 + uint64(uint32(in[i]))
				wrap := uint64(uint32(0) - uint32(i)) // size_t wraps at its width
				if ptr == 8 {
					wrap = uint64(0) - uint64(i)
				}
				return int32(x>>16) ^ int32(x%1000003) ^ int32(wrap>>8) ^ int32(n+4)
			}},
	}
	return cases
}

// runCLCase runs one kernel at several subgroup sizes and schedules and
// checks every output.
func runCLCase(t *testing.T, m *spirv.Module, c clCase) {
	const n, wg = clN, clWG
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
}

// TestPhysical32Limits: memory a 32-bit pointer cannot address is an
// error before the dispatch, not an offset running into the region bits.
func TestPhysical32Limits(t *testing.T) {
	m := clModuleTriple(t, `__kernel void k(__global const int* in, __global int* out, int n, __local int* tmp) {
  size_t i = get_global_id(0), l = get_local_id(0); tmp[l] = in[i]; barrier(CLK_LOCAL_MEM_FENCE); out[i] = tmp[l ^ 1] + n; }`, "spir")
	p, err := Compile(m, "k", Options{SubgroupSize: 8})
	if err != nil {
		t.Fatal(err)
	}
	ok := func(in, out, local int) error {
		args := []KernelArg{{Kind: ArgGlobal, Global: make([]byte, in)}, {Kind: ArgGlobal, Global: make([]byte, out)},
			{Kind: ArgScalar, Scalar: 5}, {Kind: ArgLocal, LocalSize: local}}
		return p.DispatchND(context.Background(), [3]uint32{16, 1, 1}, [3]uint32{8, 1, 1}, &Resources{Args: args})
	}
	if err := ok(64, 1<<26, 32); err != nil {
		t.Fatalf("a 64 MiB buffer: %v", err)
	}
	if err := ok(64, 1<<26+4, 32); err == nil || !strings.Contains(err.Error(), "kernel argument 1 has 67108868 bytes, more than the 64 MiB") {
		t.Errorf("a buffer past 64 MiB: %v", err)
	}
	if err := ok(64, 64, 1<<26+16); err == nil || !strings.Contains(err.Error(), "workgroup memory") {
		t.Errorf("__local memory past 64 MiB: %v", err)
	}
}

// TestPhysical32ByValue: a struct and an int4 passed by value, vload4 and
// vstore4 with 32-bit offsets, a work-group reduction and local atomics,
// under Physical32 and Physical64.
func TestPhysical32ByValue(t *testing.T) {
	const src = `typedef struct { int a; short b; int c[3]; } S;
__kernel void k(__global const int* in, __global int* out, S s, int4 v, __local int* tmp) {
  size_t i = get_global_id(0), l = get_local_id(0);
  int4 x = vload4(i, in); vstore4(x * 2, i, out + 64);
  tmp[l] = (int)l; barrier(CLK_LOCAL_MEM_FENCE);
  int w = work_group_reduce_add(tmp[l]);
  atomic_add(&tmp[0], 1);
  out[i] = s.a + s.b + s.c[i % 3] + v.y + w + (int)get_local_linear_id() + (int)get_enqueued_local_size(0); }`
	for _, triple := range []string{"spir", "spir64"} {
		t.Run(triple, func(t *testing.T) {
			t.Parallel()
			m := clModuleTriple(t, src, triple)
			for _, S := range []int{1, 4, 8} {
				p, err := Compile(m, "k", Options{SubgroupSize: S})
				if err != nil {
					t.Fatal(err)
				}
				in := make([]byte, 4*64)
				for i := 0; i < 64; i++ {
					copy(in[4*i:], u32s(uint32(i)))
				}
				out := make([]byte, 4*128)
				// S: a at 0, b at 4, c at 8..20 (OpenCL C's layout)
				sb := append(append(u32s(100), 20, 0, 0, 0), u32s(1, 2, 3)...)
				args := []KernelArg{{Kind: ArgGlobal, Global: in}, {Kind: ArgGlobal, Global: out}, {Kind: ArgBytes, Bytes: sb},
					{Kind: ArgBytes, Bytes: u32s(0, 7, 0, 0)}, {Kind: ArgLocal, LocalSize: 64}}
				if err := p.DispatchND(context.Background(), [3]uint32{16, 1, 1}, [3]uint32{8, 1, 1}, &Resources{Args: args}); err != nil {
					t.Fatalf("S=%d: %v", S, err)
				}
				for i := 0; i < 16; i++ {
					want := int32(100 + 20 + (i%3 + 1) + 7 + 28 + i%8 + 8)
					if got := int32(getU32(out, i)); got != want {
						t.Errorf("S=%d: out[%d] = %d, want %d", S, i, got, want)
					}
				}
				for k := 0; k < 64; k++ {
					if got := getU32(out, 64+k); got != uint32(2*k) {
						t.Errorf("S=%d: out[%d] = %d, want %d", S, 64+k, got, 2*k)
					}
				}
			}
		})
	}
}
