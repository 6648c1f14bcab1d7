package entryinfo

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"spvx/asm"
	"spvx/spirv"
)

func module(t *testing.T, src string) *spirv.Module {
	t.Helper()
	w, err := asm.Assemble([]byte(src), asm.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := spirv.DecodeWords(w)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

const kernelSrc = `
OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpCapability Vector16
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
OpName %out "out"
OpName %n "n"
OpName %S "S"
OpDecorate %s FuncParamAttr ByVal
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%float = OpTypeFloat 32
%v3float = OpTypeVector %float 3
%uchar = OpTypeInt 8 0
%S = OpTypeStruct %uchar %ulong %v3float
%pS = OpTypePointer Function %S
%pf = OpTypePointer CrossWorkgroup %float
%pl = OpTypePointer Workgroup %uint
%fn = OpTypeFunction %void %pf %uint %pl %pS %v3float
%k = OpFunction %void None %fn
%out = OpFunctionParameter %pf
%n = OpFunctionParameter %uint
%loc = OpFunctionParameter %pl
%s = OpFunctionParameter %pS
%v = OpFunctionParameter %v3float
%l = OpLabel
OpReturn
OpFunctionEnd
`

func TestKernelParams(t *testing.T) {
	es, err := Describe(module(t, kernelSrc))
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 1 || es[0].Name != "k" || es[0].Model != spirv.ExecutionModelKernel {
		t.Fatalf("entries %+v", es)
	}
	var got []string
	for _, p := range es[0].Params {
		got = append(got, fmt.Sprintf("%d %s %s ptr=%v byval=%v sc=%d %s", p.Index, p.Name, p.Type, p.Pointer, p.ByVal, p.Storage, p.Size))
	}
	want := []string{
		"0 out *f32 ptr=true byval=false sc=5 0 bytes",
		"1 n u32 ptr=false byval=false sc=0 4 bytes",
		"2  *u32 ptr=true byval=false sc=4 0 bytes",
		// OpenCL C: uchar at 0, ulong at 8, float3 (16 bytes, aligned 16) at 16.
		"3  *struct S ptr=true byval=true sc=7 32 bytes",
		"4  f32x3 ptr=false byval=false sc=0 16 bytes",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("params:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// shaderSrc is SPIR-V 1.0: the interface lists no descriptors, so they
// are found through the call graph (main calls f, which reads %tex).
const shaderSrc = `
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %buf "buf"
OpName %Data "Data"
OpDecorate %Data BufferBlock
OpMemberDecorate %Data 0 Offset 0
OpMemberDecorate %Data 1 Offset 16
OpDecorate %rt ArrayStride 4
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 1
OpDecorate %U Block
OpMemberDecorate %U 0 Offset 0
OpMemberDecorate %U 0 ColMajor
OpMemberDecorate %U 0 MatrixStride 16
OpDecorate %ubo DescriptorSet 1
OpDecorate %ubo Binding 0
OpDecorate %tex DescriptorSet 0
OpDecorate %tex Binding 0
OpName %PC "PC"
OpDecorate %PC Block
OpMemberDecorate %PC 0 Offset 0
OpMemberDecorate %PC 1 Offset 16
OpDecorate %unused DescriptorSet 0
OpDecorate %unused Binding 7
%void = OpTypeVoid
%fnv = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%v4 = OpTypeVector %uint 4
%v3f = OpTypeVector %float 3
%m3 = OpTypeMatrix %v3f 3
%rt = OpTypeRuntimeArray %uint
%Data = OpTypeStruct %v4 %rt
%pData = OpTypePointer Uniform %Data
%buf = OpVariable %pData Uniform
%unused = OpVariable %pData Uniform
%U = OpTypeStruct %m3
%pU = OpTypePointer Uniform %U
%ubo = OpVariable %pU Uniform
%img = OpTypeImage %float 2D 0 0 0 2 Rgba32f
%uint_4 = OpConstant %uint 4
%imgs = OpTypeArray %img %uint_4
%pimg = OpTypePointer UniformConstant %imgs
%tex = OpVariable %pimg UniformConstant
%uint_0 = OpConstant %uint 0
%puint = OpTypePointer Uniform %uint
%PC = OpTypeStruct %uint %v3f
%pPC = OpTypePointer PushConstant %PC
%pc = OpVariable %pPC PushConstant
%ppcu = OpTypePointer PushConstant %uint
%f = OpFunction %void None %fnv
%fl = OpLabel
%t = OpLoad %imgs %tex
OpReturn
OpFunctionEnd
%main = OpFunction %void None %fnv
%ml = OpLabel
%c = OpFunctionCall %void %f
%p = OpAccessChain %puint %buf %uint_0 %uint_0
%u = OpAccessChain %puint %ubo %uint_0
%q = OpAccessChain %ppcu %pc %uint_0
OpReturn
OpFunctionEnd
`

func TestShaderBindings(t *testing.T) {
	es, err := Describe(module(t, shaderSrc))
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 1 || es[0].Model != spirv.ExecutionModelGLCompute {
		t.Fatalf("entries %+v", es)
	}
	var got []string
	for _, b := range es[0].Bindings {
		got = append(got, fmt.Sprintf("%d:%d %s %s sc=%d count=%d %s", b.Set, b.Binding, b.Name, b.Descriptor, b.Storage, b.Count, b.Size))
	}
	want := []string{
		"0:0  storage image sc=0 count=4 0 bytes",
		"0:1 buf storage buffer sc=2 count=1 16 bytes + 4 per element",
		"1:0  uniform buffer sc=2 count=1 48 bytes",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("bindings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The block's name comes from its type; vec3 at 16 ends at 28.
	if p := es[0].Push; p == nil || p.Name != "PC" || p.Size.String() != "28 bytes" {
		t.Errorf("push constants %+v, want PC, 28 bytes", p)
	}
}

// TestHugeArraySaturates: an array of 2^32-1 arrays of 2^32-1 u64 has a
// size past 2^64, which must not wrap around to a small number.
func TestHugeArraySaturates(t *testing.T) {
	src := strings.Replace(kernelSrc, "%v3float = OpTypeVector %float 3", `%v3float = OpTypeVector %float 3
%big = OpConstant %uint 4294967295
%a1 = OpTypeArray %ulong %big
%a2 = OpTypeArray %a1 %big`, 1)
	src = strings.Replace(src, "%S = OpTypeStruct %uchar %ulong %v3float", "%S = OpTypeStruct %uchar %a2", 1)
	es, err := Describe(module(t, src))
	if err != nil {
		t.Fatal(err)
	}
	if got := es[0].Params[3].Size.Bytes; got != saturated {
		t.Errorf("size %d, want the saturated %d", got, uint64(saturated))
	}
}

// TestCallGraphLinear counts the instructions and functions usedVars
// visits: a chain of n functions each calling the next, and every function
// also called from main, must be walked once per function, so 4n
// functions cost 4 times n.
func TestCallGraphLinear(t *testing.T) {
	visits := func(n int) int {
		m := module(t, callChain(n))
		d := newDescriber(m)
		d.usedVars(m.Index().EntryPoints[0].Function)
		if len(d.refs) != n+1 {
			t.Fatalf("n=%d: %d functions scanned", n, len(d.refs))
		}
		return d.steps
	}
	a, b := visits(100), visits(400)
	if a < 100 || b < 4*a-20 || b > 4*a+20 {
		t.Errorf("instructions visited: %d at n=100, %d at n=400; want about 4 times", a, b)
	}
}

func callChain(n int) string {
	var b strings.Builder
	b.WriteString("OpCapability Shader\nOpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %main \"main\"\n")
	b.WriteString("%void = OpTypeVoid\n%fnv = OpTypeFunction %void\n")
	for i := n - 1; i >= 0; i-- {
		fmt.Fprintf(&b, "%%f%d = OpFunction %%void None %%fnv\n%%l%d = OpLabel\n", i, i)
		if i+1 < n {
			fmt.Fprintf(&b, "%%c%d = OpFunctionCall %%void %%f%d\n", i, i+1)
		}
		b.WriteString("OpReturn\nOpFunctionEnd\n")
	}
	b.WriteString("%main = OpFunction %void None %fnv\n%lm = OpLabel\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "%%m%d = OpFunctionCall %%void %%f%d\n", i, i)
	}
	b.WriteString("OpReturn\nOpFunctionEnd\n")
	return b.String()
}

// TestCorpus describes every module of the shared corpus, valid and
// invalid: none may panic, and every valid one's entry points are all
// described.
func TestCorpus(t *testing.T) {
	files, _ := filepath.Glob("../../../shared/corpus/*/*.spv")
	if len(files) == 0 {
		t.Skip("no corpus")
	}
	described := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m, err := spirv.DecodeOptions{Lenient: true}.Decode(b)
		if err != nil {
			continue
		}
		es, err := Describe(m)
		if err == nil && len(es) != len(m.Index().EntryPoints) {
			t.Errorf("%s: %d entries for %d entry points", f, len(es), len(m.Index().EntryPoints))
		}
		for _, e := range es {
			described += len(e.Params) + len(e.Bindings)
		}
	}
	if described == 0 {
		t.Errorf("%d modules: no parameter or binding described", len(files))
	}
}

// FuzzDescribe: any module that decodes is described without a panic.
func FuzzDescribe(f *testing.F) {
	f.Add(mustWords(kernelSrc))
	f.Add(mustWords(shaderSrc))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := spirv.DecodeOptions{Lenient: true}.Decode(b)
		if err != nil {
			return
		}
		es, err := Describe(m)
		for _, e := range es {
			for _, p := range e.Params {
				_ = p.Size.String()
			}
		}
		_ = err
	})
}

func mustWords(src string) []byte {
	b, err := asm.AssembleBytes([]byte(src), asm.Options{})
	if err != nil {
		panic(err)
	}
	return b
}

// TestSharedFunctionScannedOnce: n GLCompute entry points all calling one
// function of about n instructions that uses a buffer. Each entry point
// lists the buffer, and the shared body is read once, not once per entry
// point: 4n entry points cost about 4 times n steps, not 16.
func TestSharedFunctionScannedOnce(t *testing.T) {
	steps := func(n int) int {
		m := module(t, sharedBody(n))
		d := newDescriber(m)
		for i := range m.Index().EntryPoints {
			bs, _ := d.bindings(&m.Index().EntryPoints[i])
			if len(bs) != 1 || bs[0].Name != "buf" {
				t.Fatalf("n=%d entry %d: bindings %+v", n, i, bs)
			}
		}
		return d.steps
	}
	a, b := steps(50), steps(200)
	if b > 5*a {
		t.Errorf("steps: %d at n=50, %d at n=200; want about 4 times", a, b)
	}
}

func sharedBody(n int) string {
	var b strings.Builder
	b.WriteString("OpCapability Shader\nOpMemoryModel Logical GLSL450\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "OpEntryPoint GLCompute %%e%d \"e%d\"\n", i, i)
	}
	b.WriteString(`OpName %buf "buf"
OpDecorate %S Block
OpMemberDecorate %S 0 Offset 0
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
%void = OpTypeVoid
%fnv = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_0 = OpConstant %uint 0
%S = OpTypeStruct %uint
%pS = OpTypePointer StorageBuffer %S
%pu = OpTypePointer StorageBuffer %uint
%buf = OpVariable %pS StorageBuffer
%f = OpFunction %void None %fnv
%fl = OpLabel
`)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "%%a%d = OpAccessChain %%pu %%buf %%uint_0\n", i)
	}
	b.WriteString("OpReturn\nOpFunctionEnd\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "%%e%d = OpFunction %%void None %%fnv\n%%l%d = OpLabel\n%%c%d = OpFunctionCall %%void %%f\nOpReturn\nOpFunctionEnd\n", i, i, i)
	}
	return b.String()
}

// TestDecorationGroups: BufferBlock, the set, and a member's Offset given
// through OpGroupDecorate / OpGroupMemberDecorate count as written.
func TestDecorationGroups(t *testing.T) {
	src := strings.Replace(shaderSrc, "OpDecorate %Data BufferBlock\nOpMemberDecorate %Data 0 Offset 0\nOpMemberDecorate %Data 1 Offset 16\n", `OpDecorate %g BufferBlock
OpDecorate %gs DescriptorSet 0
OpDecorate %go Offset 16
%g = OpDecorationGroup
%gs = OpDecorationGroup
%go = OpDecorationGroup
OpGroupDecorate %g %Data
OpGroupDecorate %gs %buf
OpGroupMemberDecorate %go %Data 1
`, 1)
	src = strings.Replace(src, "OpDecorate %buf DescriptorSet 0\n", "", 1)
	if src == shaderSrc {
		t.Fatal("test module unchanged")
	}
	es, err := Describe(module(t, src))
	if err != nil {
		t.Fatal(err)
	}
	b := es[0].Bindings[1]
	if b.Name != "buf" || b.Descriptor != "storage buffer" || b.Size.String() != "16 bytes + 4 per element" {
		t.Errorf("binding %+v", b)
	}
}
