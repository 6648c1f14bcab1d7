package interp

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// copyLoopSrc loops forever copying one Workgroup array of N uints to
// another, counting the iterations in the output buffer.
const copyLoopSrc = `OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %O Block
OpMemberDecorate %O 0 Offset 0
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%u32 = OpTypeInt 32 0
%c0 = OpConstant %u32 0
%c1 = OpConstant %u32 1
%n = OpConstant %u32 N
%arr = OpTypeArray %u32 %n
%parr = OpTypePointer Workgroup %arr
%a = OpVariable %parr Workgroup
%b = OpVariable %parr Workgroup
%O = OpTypeStruct %u32
%pO = OpTypePointer StorageBuffer %O
%pu = OpTypePointer StorageBuffer %u32
%out = OpVariable %pO StorageBuffer
%true = OpConstantTrue %bool
%main = OpFunction %void None %fn
%entry = OpLabel
%cnt = OpAccessChain %pu %out %c0
OpBranch %head
%head = OpLabel
%i = OpPhi %u32 %c0 %entry %next %body
OpLoopMerge %exit %body None
OpBranchConditional %true %body %exit
%body = OpLabel
OpCopyMemory %a %b
%next = OpIAdd %u32 %i %c1
OpStore %cnt %next
OpBranch %head
%exit = OpLabel
OpReturn
OpFunctionEnd
`

// copyLoops runs the copy loop over arrays of n uints with a budget and
// returns the iterations done before the budget fault.
func copyLoops(t *testing.T, n int, budget int64) uint32 {
	t.Helper()
	m := assemble(t, strings.Replace(copyLoopSrc, "N", itoa(n), 1))
	out := make([]byte, 4)
	err := run(t, m, Options{SubgroupSize: 1, Parallelism: 1, MaxSteps: budget}, [3]uint32{1, 1, 1}, map[BindingKey][]byte{{0, 0}: out}, nil)
	var f *Fault
	if !errors.As(err, &f) || f.Kind != FaultStepBudget {
		t.Fatalf("n=%d: got %v, want the work budget fault", n, err)
	}
	return getU32(out, 0)
}

// An OpCopyMemory of a large array is charged per element: the loop ends by
// the budget, after a number of iterations inversely proportional to the
// array's length (an instruction count would allow the same number).
func TestBudgetCountsCopiedElements(t *testing.T) {
	const budget = 1 << 26
	small, large := copyLoops(t, 16384, budget), copyLoops(t, 65536, budget)
	// each iteration loads and stores n elements
	if want := uint32(budget / (2 * memCost * 65536)); large < want/2 || large > want+1 {
		t.Errorf("65536 elements: %d iterations within the budget, want about %d", large, want)
	}
	if r := float64(small) / float64(large); r < 3.5 || r > 4.5 {
		t.Errorf("iterations %d (16384 elements) and %d (65536): ratio %.2f, want 4", small, large, r)
	}
}

// emptySrc is a kernel that does nothing.
const emptySrc = `OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
`

// 2^32 empty workgroups end by the default budget after a fraction of a
// second of CPU: each workgroup's start is charged.
func TestBudgetChargesWorkgroups(t *testing.T) {
	p, err := Compile(assemble(t, emptySrc), "", Options{})
	if err != nil {
		t.Fatal(err)
	}
	start := cpuTime()
	err = p.Dispatch(context.Background(), 65536, 65536, 1, nil)
	used := cpuTime() - start
	var f *Fault
	if !errors.As(err, &f) || f.Kind != FaultStepBudget {
		t.Fatalf("got %v, want the work budget fault", err)
	}
	if used > 2*time.Second {
		t.Errorf("the budget ended the dispatch after %v of CPU", used)
	}
	t.Logf("%v of CPU", used)
}

// bigWGSrc stores once into a Workgroup array of N uints: each workgroup
// starts by clearing N*4 bytes.
const bigWGSrc = `OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%u32 = OpTypeInt 32 0
%c0 = OpConstant %u32 0
%n = OpConstant %u32 N
%arr = OpTypeArray %u32 %n
%parr = OpTypePointer Workgroup %arr
%pu = OpTypePointer Workgroup %u32
%w = OpVariable %parr Workgroup
%main = OpFunction %void None %fn
%entry = OpLabel
%e = OpAccessChain %pu %w %c0
OpStore %e %c0
OpReturn
OpFunctionEnd
`

// The context's deadline ends a dispatch whose time goes into setting up
// workgroups (clearing 64 MiB each), not only into instructions.
func TestDeadlineDuringSetup(t *testing.T) {
	m := assemble(t, strings.Replace(bigWGSrc, "N", itoa(1<<24), 1))
	p, err := Compile(m, "", Options{MaxSteps: -1, Parallelism: 2})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	err = p.Dispatch(ctx, 65536, 65536, 1, nil)
	var f *Fault
	if !errors.As(err, &f) || f.Kind != FaultCanceled {
		t.Fatalf("got %v, want a canceled fault", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the dispatch returned %v after its 200 ms deadline", d)
	}
}

// Workers that would hold more than MaxWorkerMemory of workgroup state
// together are fewer: a 512 MiB Workgroup array runs on one, 256 MiB on
// three.
func TestWorkersBoundedByMemory(t *testing.T) {
	for _, c := range []struct{ n, want int }{{1 << 27, 1}, {1 << 26, 3}, {1 << 10, 8}} {
		m := assemble(t, strings.Replace(bigWGSrc, "N", itoa(c.n), 1))
		p, err := Compile(m, "", Options{Parallelism: 8})
		if err != nil {
			t.Fatal(err)
		}
		d, err := p.newDispatch(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		d.local = p.localSize
		if got := min(8, d.workersByMemory()); got != c.want {
			t.Errorf("%d bytes of workgroup memory: %d workers, want %d", 4*c.n, got, c.want)
		}
	}
}

// Dispatch sizes whose product or per-dimension invocation count does not
// fit are errors naming the sizes, never a wrapped size that skips the
// dispatch.
func TestDispatchSizeOverflow(t *testing.T) {
	p, err := Compile(assemble(t, emptySrc), "", Options{})
	if err != nil {
		t.Fatal(err)
	}
	err = p.Dispatch(context.Background(), 4194304, 2097152, 2097152, nil)
	if err == nil || !strings.Contains(err.Error(), "4194304x2097152x2097152 workgroups") {
		t.Errorf("4194304x2097152x2097152 workgroups: got %v", err)
	}
	big := strings.Replace(emptySrc, "LocalSize 1 1 1", "LocalSize 64 1 1", 1)
	if p, err = Compile(assemble(t, big), "", Options{}); err != nil {
		t.Fatal(err)
	}
	err = p.Dispatch(context.Background(), 1<<26, 1, 1, nil)
	if err == nil || !strings.Contains(err.Error(), "67108864 workgroups of 64 invocations") {
		t.Errorf("2^26 workgroups of 64: got %v", err)
	}
	if err := p.Dispatch(context.Background(), 0, 1<<31, 1<<31, nil); err != nil {
		t.Errorf("a dispatch with a zero dimension: %v", err)
	}
}

const emptyKernelSrc = `OpCapability Addresses
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

// An NDRange of 2^32-1 in every dimension is too many workgroups: an
// error, not a wrapped count (nor a wrapped global+local-1).
func TestDispatchNDSizeOverflow(t *testing.T) {
	p, err := Compile(assemble(t, emptyKernelSrc), "", Options{})
	if err != nil {
		t.Fatal(err)
	}
	const max = 1<<32 - 1
	for _, c := range []struct{ global, local [3]uint32 }{
		{[3]uint32{max, max, max}, [3]uint32{}},
		{[3]uint32{max, max, max}, [3]uint32{64, 1, 1}},
		{[3]uint32{max, 1 << 16, 1 << 16}, [3]uint32{1 << 10, 1, 1}},
	} {
		err := p.DispatchND(context.Background(), c.global, c.local, nil)
		if err == nil || !strings.Contains(err.Error(), "workgroups is too many") {
			t.Errorf("global %v local %v: got %v", c.global, c.local, err)
		}
	}
	// 2^22 workgroups: not (2^32-1 + 1023) / 1024 wrapped to 0
	if p, err = Compile(assemble(t, emptyKernelSrc), "", Options{MaxSteps: 1 << 20}); err != nil {
		t.Fatal(err)
	}
	err = p.DispatchND(context.Background(), [3]uint32{max, 1, 1}, [3]uint32{1 << 10, 1, 1}, nil)
	var f *Fault
	if !errors.As(err, &f) || f.Kind != FaultStepBudget {
		t.Errorf("global 2^32-1 local 1024: got %v, want the work budget fault", err)
	}
}

// copySizedSrc loops forever doing an OpCopyMemorySized of SIZE bytes
// between two global buffers, counting the iterations in the third.
const copySizedSrc = `OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%size = OpConstant %ulong SIZE
%true = OpConstantTrue %bool
%pu = OpTypePointer CrossWorkgroup %uint
%fnty = OpTypeFunction %void %pu %pu %pu
%k = OpFunction %void None %fnty
%dst = OpFunctionParameter %pu
%src = OpFunctionParameter %pu
%cnt = OpFunctionParameter %pu
%e = OpLabel
OpBranch %head
%head = OpLabel
%i = OpPhi %uint %u0 %e %next %body
OpLoopMerge %exit %body None
OpBranchConditional %true %body %exit
%body = OpLabel
OpCopyMemorySized %dst %src %size
%next = OpIAdd %uint %i %u1
OpStore %cnt %next
OpBranch %head
%exit = OpLabel
OpReturn
OpFunctionEnd
`

// sizedCopies runs the OpCopyMemorySized loop with size-byte copies and
// returns the iterations done before the budget fault.
func sizedCopies(t *testing.T, size int, budget int64) uint32 {
	t.Helper()
	m := assemble(t, strings.Replace(copySizedSrc, "SIZE", itoa(size), 1))
	p, err := Compile(m, "", Options{SubgroupSize: 1, Parallelism: 1, MaxSteps: budget})
	if err != nil {
		t.Fatal(err)
	}
	cnt := make([]byte, 4)
	args := []KernelArg{{Kind: ArgGlobal, Global: make([]byte, size)}, {Kind: ArgGlobal, Global: make([]byte, size)}, {Kind: ArgGlobal, Global: cnt}}
	err = p.DispatchND(context.Background(), [3]uint32{1, 1, 1}, [3]uint32{1, 1, 1}, &Resources{Args: args})
	var f *Fault
	if !errors.As(err, &f) || f.Kind != FaultStepBudget {
		t.Fatalf("size %d: got %v, want the work budget fault", size, err)
	}
	return getU32(cnt, 0)
}

// OpCopyMemorySized is charged by the bytes it copies.
func TestBudgetCountsCopiedBytes(t *testing.T) {
	const budget = 1 << 22
	small, large := sizedCopies(t, 1<<20, budget), sizedCopies(t, 1<<22, budget)
	if want := uint32(budget / (1 << 22 / bytesPerUnit)); large < want/2 || large > want+1 {
		t.Errorf("4 MiB copies: %d iterations within the budget, want about %d", large, want)
	}
	if r := float64(small) / float64(large); r < 3.5 || r > 4.5 {
		t.Errorf("iterations %d (1 MiB) and %d (4 MiB): ratio %.2f, want 4", small, large, r)
	}
}

// A LocalSize whose product wraps in 64 bits (2^22·2^21·2^21) is too
// large, not a workgroup of zero invocations.
func TestLocalSizeOverflow(t *testing.T) {
	src := strings.Replace(emptySrc, "LocalSize 1 1 1", "LocalSize 4194304 2097152 2097152", 1)
	p, err := Compile(assemble(t, src), "", Options{})
	if err == nil {
		err = p.Dispatch(context.Background(), 1, 1, 1, nil)
	}
	if err == nil || !strings.Contains(err.Error(), "4194304x2097152x2097152 too large") {
		t.Errorf("got %v", err)
	}
}
