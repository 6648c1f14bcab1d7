package main

import (
	"encoding/binary"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestRunSaxpy(t *testing.T) {
	dir := t.TempDir()
	x := make([]byte, 4*128)
	for i := 0; i < 128; i++ {
		binary.LittleEndian.PutUint32(x[4*i:], math.Float32bits(float32(i)))
	}
	pc := make([]byte, 8)
	binary.LittleEndian.PutUint32(pc, math.Float32bits(2))
	binary.LittleEndian.PutUint32(pc[4:], 100)
	xf, yf, sf, pf := filepath.Join(dir, "x.bin"), filepath.Join(dir, "y.bin"), filepath.Join(dir, "s.bin"), filepath.Join(dir, "pc.bin")
	os.WriteFile(xf, x, 0o644)
	os.WriteFile(pf, pc, 0o644)
	for _, extra := range [][]string{nil, {"--separate-subgroups"}} {
		args := append([]string{"run", "../../examples/saxpy.spv", "--groups", "2", "--subgroup", "16",
			"--buffer", "0:0=" + xf, "--buffer", "0:1=" + yf + ":512", "--buffer", "0:2=" + sf + ":64", "--push", pf, "--print", "0:2:f32"}, extra...)
		out, errs, code := runCLI(t, nil, args...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", extra, code, errs)
		}
		// subgroup sums of 2*i over lanes of 16, for i < n = 100
		if !strings.Contains(out, "0: 240 752 1264 1776 2288 2800 780 0") {
			t.Errorf("%v: unexpected output:\n%s", extra, out)
		}
	}
	y, err := os.ReadFile(yf)
	if err != nil || len(y) != 512 || math.Float32frombits(binary.LittleEndian.Uint32(y[4*99:])) != 198 {
		t.Errorf("y not written back: %v len %d", err, len(y))
	}
}

func TestRunErrors(t *testing.T) {
	dir := t.TempDir()
	am := filepath.Join(dir, "t.amber")
	os.WriteFile(am, []byte("#!amber\nSHADER compute x GLSL\nEND\n"), 0o644)
	out, errs, code := runCLI(t, nil, "run", am)
	if code != exitRejected || !strings.Contains(out, "FAIL "+am+": "+am+":3: SHADER must not be empty") {
		t.Errorf("amber: exit %d, %q %q", code, out, errs)
	}
	// What the shader uses and the flags do not give is named before the
	// dispatch, with the flag that gives it.
	_, errs, code = runCLI(t, nil, "run", "../../examples/saxpy.spv", "--groups", "1")
	if code != exitUsage || !strings.Contains(errs, "binding 0:0 (X, storage buffer of 4 bytes per element) is not given: --buffer 0:0=FILE[:SIZE]") {
		t.Errorf("missing buffer: exit %d, %q", code, errs)
	}
	tmp := t.TempDir()
	bufs := []string{"--buffer", "0:0=" + tmp + "/x:16", "--buffer", "0:1=" + tmp + "/y:16", "--buffer", "0:2=" + tmp + "/s:16"}
	_, errs, code = runCLI(t, nil, append([]string{"run", "../../examples/saxpy.spv"}, bufs...)...)
	if code != exitUsage || !strings.Contains(errs, "the push constants (P, 8 bytes) are not given: --push FILE") {
		t.Errorf("missing push constants: exit %d, %q", code, errs)
	}
	_, _, code = runCLI(t, nil, "run")
	if code != exitUsage {
		t.Errorf("no input: exit %d", code)
	}
}

func TestRunKernel(t *testing.T) {
	clang, err1 := exec.LookPath("clang-15")
	tr, err2 := exec.LookPath("llvm-spirv-15")
	if err1 != nil || err2 != nil {
		t.Skip("clang-15 or llvm-spirv-15 not found: skipping the Kernel run test")
	}
	dir := t.TempDir()
	cl, bc, spv := filepath.Join(dir, "k.cl"), filepath.Join(dir, "k.bc"), filepath.Join(dir, "k.spv")
	os.WriteFile(cl, []byte(`__kernel void scale(__global const int* in, __global int* out, int k, __local int* tmp) {
  size_t i = get_global_id(0); size_t l = get_local_id(0);
  tmp[l] = in[i - get_global_offset(0)]; barrier(CLK_LOCAL_MEM_FENCE);
  out[i - get_global_offset(0)] = tmp[get_local_size(0) - 1 - l] * k + (int)get_global_offset(0); }`), 0o644)
	if b, err := exec.Command(clang, "-cc1", "-triple", "spir64", "-cl-std=CL2.0", "-finclude-default-header", "-no-opaque-pointers", "-emit-llvm-bc", "-o", bc, cl).CombinedOutput(); err != nil {
		t.Fatalf("clang: %v\n%s", err, b)
	}
	if b, err := exec.Command(tr, bc, "-o", spv).CombinedOutput(); err != nil {
		t.Fatalf("llvm-spirv: %v\n%s", err, b)
	}
	in := make([]byte, 4*16)
	for i := 0; i < 16; i++ {
		binary.LittleEndian.PutUint32(in[4*i:], uint32(i))
	}
	inf, outf := filepath.Join(dir, "in.bin"), filepath.Join(dir, "out.bin")
	os.WriteFile(inf, in, 0o644)
	out, errs, code := runCLI(t, nil, "run", spv, "--entry", "scale", "--global", "16", "--local", "8", "--offset", "3",
		"--arg", "0="+inf, "--arg", "1="+outf+":64", "--arg", "2=i32:10", "--arg", "3=local:32", "--print", "1:i32")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if want := "1:\n       0: 73 63 53 43 33 23 13 3\n       8: 153 143 133 123 113 103 93 83\n"; out != want {
		t.Errorf("got\n%q\nwant\n%q", out, want)
	}
	if b, _ := os.ReadFile(outf); len(b) != 64 {
		t.Errorf("out.bin has %d bytes", len(b))
	}
}

// TestRunKernelPhysical32 runs OpenCL C compiled for 32-bit SPIR
// (Physical32: 32-bit pointers and size_t) and, for comparison, for spir64,
// with buffer, uint and ulong scalar and __local arguments.
func TestRunKernelPhysical32(t *testing.T) {
	clang, err1 := exec.LookPath("clang-15")
	tr, err2 := exec.LookPath("llvm-spirv-15")
	if err1 != nil || err2 != nil {
		t.Skip("clang-15 or llvm-spirv-15 not found: skipping the Kernel run test")
	}
	for _, c := range []struct {
		triple string
		ptr    uint32
	}{{"spir", 4}, {"spir64", 8}} {
		t.Run(c.triple, func(t *testing.T) {
			dir := t.TempDir()
			cl, bc, spv := filepath.Join(dir, "k.cl"), filepath.Join(dir, "k.bc"), filepath.Join(dir, "k.spv")
			os.WriteFile(cl, []byte(`__kernel void addr(__global const uint* in, __global uint* out, uint stride, ulong k, __local uint* tmp) {
  size_t i = get_global_id(0), l = get_local_id(0);
  tmp[l] = in[i * stride]; barrier(CLK_LOCAL_MEM_FENCE);
  out[i] = (uint)(tmp[get_local_size(0) - 1 - l] * k) + (uint)sizeof(size_t) * 1000 + (uint)((uintptr_t)&out[i] - (uintptr_t)out); }`), 0o644)
			if b, err := exec.Command(clang, "-cc1", "-triple", c.triple, "-cl-std=CL2.0", "-finclude-default-header", "-no-opaque-pointers", "-emit-llvm-bc", "-o", bc, cl).CombinedOutput(); err != nil {
				t.Fatalf("clang: %v\n%s", err, b)
			}
			if b, err := exec.Command(tr, bc, "-o", spv).CombinedOutput(); err != nil {
				t.Fatalf("llvm-spirv: %v\n%s", err, b)
			}
			in := make([]byte, 4*32)
			for i := 0; i < 32; i++ {
				binary.LittleEndian.PutUint32(in[4*i:], uint32(i))
			}
			inf, outf := filepath.Join(dir, "in.bin"), filepath.Join(dir, "out.bin")
			os.WriteFile(inf, in, 0o644)
			out, errs, code := runCLI(t, nil, "run", spv, "--entry", "addr", "--global", "16", "--local", "8", "--subgroup", "4",
				"--arg", "0="+inf, "--arg", "1="+outf+":64", "--arg", "2=u32:2", "--arg", "3=u64:10", "--arg", "4=local:32", "--print", "1:u32")
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, errs)
			}
			b, _ := os.ReadFile(outf)
			if len(b) != 64 {
				t.Fatalf("out.bin has %d bytes", len(b))
			}
			var first []string
			for i := uint32(0); i < 16; i++ {
				base, l := i/8*8, i%8
				want := 2*(base+7-l)*10 + c.ptr*1000 + 4*i
				if got := binary.LittleEndian.Uint32(b[4*i:]); got != want {
					t.Errorf("out[%d] = %d, want %d", i, got, want)
				}
				if i < 8 {
					first = append(first, strconv.Itoa(int(want)))
				}
			}
			if line := "0: " + strings.Join(first, " ") + "\n"; !strings.Contains(out, line) {
				t.Errorf("--print output %q lacks %q", out, line)
			}
		})
	}
}

// emptyGL is a GLCompute kernel that does nothing, LOCAL invocations a
// workgroup.
const emptyGL = `OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize LOCAL 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
`

const emptyCL = `OpCapability Addresses
OpCapability Kernel
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %main "k"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
`

// Dispatch sizes that overflow fail naming them (they once wrapped to an
// empty dispatch and exit 0); --timeout stops a long dispatch.
func TestRunSizesAndTimeout(t *testing.T) {
	dir := t.TempDir()
	gl, big, cl := filepath.Join(dir, "gl.spvasm"), filepath.Join(dir, "big.spvasm"), filepath.Join(dir, "cl.spvasm")
	os.WriteFile(gl, []byte(strings.Replace(emptyGL, "LOCAL", "1", 1)), 0o644)
	os.WriteFile(big, []byte(strings.Replace(emptyGL, "LOCAL", "1024", 1)), 0o644)
	os.WriteFile(cl, []byte(emptyCL), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{gl, "--groups", "4194304,2097152,2097152"}, "4194304x2097152x2097152 workgroups is too many"},
		{[]string{big, "--groups", "4194304"}, "4194304 workgroups of 1024 invocations in dimension x"},
		{[]string{cl, "--global", "4294967295,4294967295,4294967295"}, "workgroups is too many"},
		{[]string{big, "--groups", "65536,65536", "--max-steps", "-1", "--timeout", "200ms"}, "timed out after 200ms (--timeout)"},
	} {
		_, errs, code := runCLI(t, nil, append([]string{"run"}, c.args...)...)
		if code == exitOK || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, %q, want %q", c.args, code, errs, c.want)
		}
	}
}

// TestRunFileArgsBounded checks that spvx run reads --push and --buffer
// through the bounded reader: /dev/zero fails at 1 GiB with an error
// instead of ending in a fatal out-of-memory error.
func TestRunFileArgsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 1 GiB of /dev/zero")
	}
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	// One flag: each costs a second or more of page faults on a small
	// machine, and --buffer and --arg read through the same function.
	for _, flag := range [][]string{{"--push", "/dev/zero"}} {
		args := append([]string{"run", "../../examples/saxpy.spv", "--groups", "1"}, flag...)
		_, errs, code := runCLI(t, nil, args...)
		if code != exitRejected || !strings.Contains(errs, "/dev/zero: input is larger than 1073741824 bytes") {
			t.Errorf("%v: exit %d, %q", flag, code, errs)
		}
	}
}

// limitWriter accepts n bytes, then fails.
type limitWriter struct{ n, got, writes int }

func (w *limitWriter) Write(p []byte) (int, error) {
	w.writes++
	if w.got+len(p) > w.n {
		return 0, errors.New("writer full")
	}
	w.got += len(p)
	return len(p), nil
}

// TestWriteBufferStreams checks --print's formatting and that it streams:
// the text of a 64 MB buffer reaches the writer in pieces of at most
// 64 KiB, and a writer that fails stops it at once, rather than the whole
// text (about 14 bytes per byte of f32 data) being built first.
func TestWriteBufferStreams(t *testing.T) {
	d := make([]byte, 40)
	for i := 0; i < 10; i++ {
		binary.LittleEndian.PutUint32(d[4*i:], math.Float32bits(float32(i)-0.5))
	}
	var b strings.Builder
	if err := writeBuffer(&b, d, "f32"); err != nil {
		t.Fatal(err)
	}
	want := "       0: -0.5 0.5 1.5 2.5 3.5 4.5 5.5 6.5\n       8: 7.5 8.5\n"
	if b.String() != want {
		t.Errorf("f32:\n%q\nwant\n%q", b.String(), want)
	}
	b.Reset()
	writeBuffer(&b, d[:18], "i16")
	if want := "       0: 0 -16640 0 16128 0 16320 0 16416\n       8: 0\n"; b.String() != want {
		t.Errorf("i16: %q, want %q", b.String(), want)
	}
	big := make([]byte, 64<<20)
	w := &limitWriter{n: 1 << 20}
	if err := writeBuffer(w, big, "f32"); err == nil || err.Error() != "writer full" {
		t.Errorf("full writer: %v", err)
	}
	if w.got > 1<<20 || w.writes > 1<<20/(32<<10)+2 {
		t.Errorf("wrote %d bytes in %d writes before the error", w.got, w.writes)
	}
}
