package spirv

import (
	"fmt"
	"os"
	"os/exec"
	"reflect"
	"sync"
	"testing"
)

// entryPointModule has n GLCompute entry points and n execution modes.
// With shared, every entry point names function %1; otherwise entry point
// k names function %(k+1) and mode k names the entry point n-1-k, so that
// a scan over the entry points per mode is quadratic whichever end it
// starts from.
func entryPointModule(n int, shared bool) []uint32 {
	m := header(uint32(n + 2))
	m = append(m,
		w(OpCapability, 2), uint32(CapabilityShader),
		w(OpMemoryModel, 3), uint32(AddressingModelLogical), uint32(MemoryModelGLSL450))
	fn := func(k int) uint32 {
		if shared {
			return 1
		}
		return uint32(k + 1)
	}
	for k := range n {
		m = append(m, w(OpEntryPoint, 4), uint32(ExecutionModelGLCompute), fn(k), 'm')
	}
	for k := range n {
		m = append(m, w(OpExecutionMode, 6), fn(n-1-k), uint32(ExecutionModeLocalSize), uint32(k), 1, 1)
	}
	return m
}

// TestIndexExecutionModes checks which entry points get which modes, on a
// small module of every shape.
func TestIndexExecutionModes(t *testing.T) {
	m := header(10)
	m = append(m,
		w(OpCapability, 2), uint32(CapabilityShader),
		w(OpMemoryModel, 3), uint32(AddressingModelLogical), uint32(MemoryModelGLSL450),
		w(OpEntryPoint, 4), uint32(ExecutionModelGLCompute), 1, 'a',
		w(OpEntryPoint, 4), uint32(ExecutionModelGLCompute), 2, 'b',
		w(OpEntryPoint, 4), uint32(ExecutionModelVertex), 1, 'c', // a second entry point of %1
		w(OpEntryPoint, 4), uint32(ExecutionModelGLCompute), 3, 'd', // no modes
		w(OpExecutionMode, 6), 1, uint32(ExecutionModeLocalSize), 8, 4, 1,
		w(OpExecutionMode, 6), 2, uint32(ExecutionModeLocalSize), 2, 2, 2,
		w(OpExecutionMode, 3), 1, uint32(ExecutionModeDepthReplacing),
		w(OpExecutionMode, 3), 9, uint32(ExecutionModeDepthReplacing), // no such entry point
	)
	mod, err := DecodeWords(m)
	if err != nil {
		t.Fatal(err)
	}
	x := mod.Index()
	got := map[string][]ExecutionMode{}
	for _, ep := range x.EntryPoints {
		for _, md := range ep.Modes {
			got[ep.Name] = append(got[ep.Name], md.Mode)
		}
	}
	want := map[string][]ExecutionMode{
		"a": {ExecutionModeLocalSize, ExecutionModeDepthReplacing},
		"b": {ExecutionModeLocalSize},
		"c": {ExecutionModeLocalSize, ExecutionModeDepthReplacing},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("modes %v, want %v", got, want)
	}
	if ls, ok := x.EntryPoints[1].LocalSize(); !ok || ls != [3]uint32{2, 2, 2} {
		t.Errorf("b: local size %v %v", ls, ok)
	}
	if md := x.EntryPoints[0].Modes[0]; md.Inst != 6 || !reflect.DeepEqual(md.Params, []uint32{8, 4, 1}) {
		t.Errorf("a: first mode %+v", md)
	}
}

// TestIndexManyEntryPoints is the regression test for the quadratic
// attachment of execution modes: 300k entry points and 300k modes (the
// scan per mode took 12 s for 40k of each, so about 11 minutes here, past
// go test's default timeout); linear, the index takes milliseconds.
func TestIndexManyEntryPoints(t *testing.T) {
	const n = 300_000
	for _, shared := range []bool{false, true} {
		mod, err := DecodeWords(entryPointModule(n, shared))
		if err != nil {
			t.Fatal(err)
		}
		x := mod.Index()
		if len(x.EntryPoints) != n {
			t.Fatalf("%d entry points", len(x.EntryPoints))
		}
		for k, ep := range x.EntryPoints {
			wantModes := 1
			if shared {
				wantModes = n
			}
			if len(ep.Modes) != wantModes {
				t.Fatalf("shared %v: entry point %d has %d modes, want %d", shared, k, len(ep.Modes), wantModes)
			}
			if !shared && ep.Modes[0].Params[0] != uint32(n-1-k) {
				t.Fatalf("entry point %d got mode %d", k, ep.Modes[0].Params[0])
			}
		}
	}
}

// BenchmarkIndexEntryPoints indexes modules of n entry points and n
// execution modes at two sizes: time per op grows linearly with n.
func BenchmarkIndexEntryPoints(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		mod, err := DecodeWords(entryPointModule(n, false))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				buildIndex(mod)
			}
		})
	}
}

// TestIndexConcurrentFirstUse calls Index for the first time from several
// goroutines at once, with instruction reads in between, so that go test
// -race sees the concurrent first use. Every caller gets the same index.
func TestIndexConcurrentFirstUse(t *testing.T) {
	mod, err := DecodeWords(narrowModule())
	if err != nil {
		t.Fatal(err)
	}
	want := buildIndex(mod)
	const n = 8
	got := make([]*Index, n)
	var start, wg sync.WaitGroup
	start.Add(1)
	for g := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			start.Wait()
			for range mod.All() {
			}
			got[g] = mod.Index()
		}()
	}
	start.Done()
	wg.Wait()
	for g := range n {
		if got[g] != got[0] {
			t.Fatalf("goroutine %d got another index", g)
		}
	}
	if !reflect.DeepEqual(got[0], want) {
		t.Error("concurrently built index differs")
	}
	// DecodeInto drops the index: the next call builds the new module's.
	if err := DecodeInto(mod, bytesOf(entryPointModule(3, false))); err != nil {
		t.Fatal(err)
	}
	if x := mod.Index(); x == got[0] || len(x.EntryPoints) != 3 {
		t.Errorf("after DecodeInto: %d entry points", len(x.EntryPoints))
	}
}

// TestFirstUseInFreshProcess runs firstUseChild in a new process of this
// test binary, where nothing has decoded yet: there the shared operand
// lists, the decoder's tables and the index are all first used by
// concurrent goroutines. Under go test -race the child is race-checked
// too (it is the same binary).
func TestFirstUseInFreshProcess(t *testing.T) {
	if os.Getenv("SPVX_FIRST_USE_CHILD") == "1" {
		firstUseChild(t)
		return
	}
	if testing.Short() {
		t.Skip("starts a process")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestFirstUseInFreshProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), "SPVX_FIRST_USE_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
}

func firstUseChild(t *testing.T) {
	b := bytesOf(narrowModule())
	// One module decoded by whichever goroutine comes first, indexed and
	// read by all; each goroutine also decodes its own copy.
	sharedModule := sync.OnceValues(func() (*Module, error) { return Decode(b) })
	const n = 8
	var start, wg sync.WaitGroup
	start.Add(1)
	errs := make(chan string, n)
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			start.Wait()
			own, err := Decode(b)
			if err != nil {
				errs <- err.Error()
				return
			}
			m, err := sharedModule()
			if err != nil {
				errs <- err.Error()
				return
			}
			x := m.Index()
			if len(x.Types) == 0 || !reflect.DeepEqual(collectInsts(m), collectInsts(own)) {
				errs <- "views differ"
			}
		}()
	}
	start.Done()
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// constantsModule declares n 32-bit integer constants, each named and
// decorated (a SpecId on the spec constants among them).
func constantsModule(n int) []uint32 {
	m := header(uint32(n + 2))
	m = append(m,
		w(OpCapability, 2), uint32(CapabilityShader),
		w(OpMemoryModel, 3), uint32(AddressingModelLogical), uint32(MemoryModelGLSL450))
	for k := range n {
		m = append(m, w(OpName, 3), uint32(k+2), 'c')
	}
	for k := range n {
		m = append(m, w(OpDecorate, 4), uint32(k+2), uint32(DecorationSpecId), uint32(k))
	}
	m = append(m, w(OpTypeInt, 4), 1, 32, 0)
	for k := range n {
		m = append(m, w(OpSpecConstant, 4), 1, uint32(k+2), uint32(k))
	}
	return m
}

// TestIndexAllocationsPerConstant: the index makes its maps, its
// constants and its decoration lists at their size, so a module with 4x
// the constants, names and decorations costs no more allocations (the
// one-letter names need none), where one allocation per constant and one
// per decoration list made it two per item.
func TestIndexAllocationsPerConstant(t *testing.T) {
	allocs := func(n int) float64 {
		m, err := DecodeWords(constantsModule(n))
		if err != nil {
			t.Fatal(err)
		}
		return testing.AllocsPerRun(3, func() { buildIndex(m) })
	}
	const n = 2000
	small, large := allocs(n), allocs(4*n)
	if perItem := (large - small) / (3 * n); perItem > 0.1 {
		t.Fatalf("%.2f allocations per constant (%.0f for %d, %.0f for %d), want none", perItem, small, n, large, 4*n)
	}
	x := mustIndex(t, constantsModule(3))
	for k, c := range x.Constants {
		if c.ID != k || !c.Spec || len(c.Value) != 1 || c.Value[0] != k-2 {
			t.Errorf("constant %d: %+v", k, c)
		}
		if d := x.Decorations[k]; len(d) != 1 || cap(d) != 1 || d[0].Kind != DecorationSpecId || d[0].Params[0] != k-2 {
			t.Errorf("decorations of %d: %+v (cap %d)", k, d, cap(d))
		}
	}
}

// mustIndex decodes words and indexes them.
func mustIndex(t *testing.T, words []uint32) *Index {
	t.Helper()
	m, err := DecodeWords(words)
	if err != nil {
		t.Fatal(err)
	}
	return m.Index()
}

// TestIndexDecorationWindows: decorations of ids interleaved in the
// module land in each id's list in module order, and filling one list
// never writes into its neighbour in the shared allocation.
func TestIndexDecorationWindows(t *testing.T) {
	m := header(10)
	m = append(m,
		w(OpDecorate, 4), 2, uint32(DecorationSpecId), 0,
		w(OpDecorate, 4), 3, uint32(DecorationSpecId), 1,
		w(OpDecorate, 3), 2, uint32(DecorationRelaxedPrecision),
		w(OpMemberDecorate, 5), 3, 0, uint32(DecorationOffset), 4,
		w(OpDecorate, 3), 5, uint32(DecorationRelaxedPrecision))
	x := mustIndex(t, m)
	kinds := func(id uint32) (out []Decoration) {
		for _, d := range x.Decorations[id] {
			out = append(out, d.Kind)
		}
		return out
	}
	for id, want := range map[uint32][]Decoration{
		2: {DecorationSpecId, DecorationRelaxedPrecision},
		3: {DecorationSpecId, DecorationOffset},
		5: {DecorationRelaxedPrecision},
	} {
		if got := kinds(id); !reflect.DeepEqual(got, want) || cap(x.Decorations[id]) != len(want) {
			t.Errorf("decorations of %d: %v (cap %d), want %v", id, got, cap(x.Decorations[id]), want)
		}
	}
	if d := x.Decorations[3][1]; d.Member != 0 || d.Params[0] != 4 {
		t.Errorf("member decoration: %+v", d)
	}
	if len(x.Decorations) != 3 {
		t.Errorf("%d decorated ids, want 3", len(x.Decorations))
	}
}

// namesModule names n ids ("n" and the id, zero-padded: 8 bytes, three
// words with the nul) and member 1 of each, then renames id 2 ("last").
func namesModule(n int) []uint32 {
	m := header(uint32(n + 2))
	named := func(op Opcode, str string, ids ...uint32) {
		s := EncodeString(nil, str)
		m = append(m, w(op, 1+len(ids)+len(s)))
		m = append(append(m, ids...), s...)
	}
	for k := range n {
		id := uint32(k + 2)
		named(OpName, fmt.Sprintf("n%07d", id), id)
		named(OpMemberName, fmt.Sprintf("m%07d", id), id, 1)
	}
	named(OpName, "last", 2)
	return m
}

// TestIndexNames: the index files every name and member name, a later
// OpName of an id replacing an earlier one, and the names' strings share
// one allocation.
func TestIndexNames(t *testing.T) {
	x := mustIndex(t, namesModule(3))
	want := map[uint32]string{2: "last", 3: "n0000003", 4: "n0000004"}
	if !reflect.DeepEqual(x.Names, want) {
		t.Errorf("Names %v, want %v", x.Names, want)
	}
	for id := uint32(2); id <= 4; id++ {
		if got, want := x.MemberNames[id][1], fmt.Sprintf("m%07d", id); got != want || len(x.MemberNames[id]) != 1 {
			t.Errorf("member names of %d: %v, want 1: %s", id, x.MemberNames[id], want)
		}
	}
	allocs := func(n int) float64 {
		m, err := DecodeWords(namesModule(n))
		if err != nil {
			t.Fatal(err)
		}
		return testing.AllocsPerRun(3, func() { buildIndex(m) })
	}
	const n = 1000
	// Each id's member-name map takes two allocations of its own; the
	// two names took two more.
	if perID := (allocs(4*n) - allocs(n)) / (3 * n); perID > 2.1 {
		t.Fatalf("%.2f allocations per named id, want 2 (its member-name map)", perID)
	}
}
