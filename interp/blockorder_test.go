package interp

import (
	"context"
	"encoding/binary"
	"math/rand"
	"testing"
	"time"
)

// An unstructured loop whose trip count differs per lane, then a
// workgroup barrier: every lane must leave the loop before any runs the
// barrier. Reverse postorder alone numbers the loop's exit (%end) before
// its body, and the lanes that left first reached the barrier alone.
const divergentLoopBarrier = `OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k" %lid
OpDecorate %lid BuiltIn LocalInvocationId
OpDecorate %lid Constant
%void = OpTypeVoid
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%v3ulong = OpTypeVector %ulong 3
%pid = OpTypePointer Input %v3ulong
%lid = OpVariable %pid Input
%pg = OpTypePointer CrossWorkgroup %uint
%pl = OpTypePointer Workgroup %uint
%fnty = OpTypeFunction %void %pg %pl
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%u2 = OpConstant %uint 2
%u6 = OpConstant %uint 6
%u7 = OpConstant %uint 7
%u8 = OpConstant %uint 8
%u272 = OpConstant %uint 272
%k = OpFunction %void None %fnty
%out = OpFunctionParameter %pg
%lm = OpFunctionParameter %pl
%entry = OpLabel
%l3 = OpLoad %v3ulong %lid
%l64 = OpCompositeExtract %ulong %l3 0
%l = OpUConvert %uint %l64
%trips = OpUMod %uint %l %u6
OpBranch %cond
%cond = OpLabel
%i = OpPhi %uint %u0 %entry %inext %inc
%more = OpULessThan %bool %i %trips
OpBranchConditional %more %body %end
%body = OpLabel
OpBranch %inc
%inc = OpLabel
%inext = OpIAdd %uint %i %u1
OpBranch %cond
%end = OpLabel
%pw = OpInBoundsPtrAccessChain %pl %lm %l
OpStore %pw %l
OpControlBarrier %u2 %u2 %u272
%l1 = OpIAdd %uint %l %u1
%nb = OpUMod %uint %l1 %u8
%pr = OpInBoundsPtrAccessChain %pl %lm %nb
%v = OpLoad %uint %pr
%po = OpInBoundsPtrAccessChain %pg %out %l
OpStore %po %v
OpReturn
OpFunctionEnd
`

func TestDivergentLoopThenBarrier(t *testing.T) {
	m := assemble(t, divergentLoopBarrier)
	for _, sg := range []int{4, 8} {
		p, err := Compile(m, "k", Options{SubgroupSize: sg})
		if err != nil {
			t.Fatal(err)
		}
		out := make([]byte, 4*8)
		args := []KernelArg{{Kind: ArgGlobal, Global: out}, {Kind: ArgLocal, LocalSize: 4 * 8}}
		if err := p.DispatchND(context.Background(), [3]uint32{8, 1, 1}, [3]uint32{8, 1, 1}, &Resources{Args: args}); err != nil {
			t.Fatalf("subgroup %d: %v", sg, err)
		}
		for i := 0; i < 8; i++ {
			if got := binary.LittleEndian.Uint32(out[4*i:]); got != uint32(i+1)%8 {
				t.Errorf("subgroup %d: out[%d] = %d, want %d", sg, i, got, (i+1)%8)
			}
		}
	}
}

// naturalLoops returns each back edge's natural loop (the header and the
// blocks that reach the back edge's source without passing the header),
// by the definition, for graphs where every retreating edge goes to a
// dominator (reducible).
func naturalLoops(kids [][]int, rank []int) [][]int {
	preds := make([][]int, len(kids))
	for u, ks := range kids {
		if rank[u] < 0 {
			continue
		}
		for _, v := range ks {
			preds[v] = append(preds[v], u)
		}
	}
	var loops [][]int
	for u, ks := range kids {
		for _, h := range ks {
			if rank[u] < 0 || rank[h] > rank[u] {
				continue
			}
			in := map[int]bool{h: true}
			work := []int{}
			if !in[u] {
				in[u] = true
				work = append(work, u)
			}
			for len(work) > 0 {
				x := work[len(work)-1]
				work = work[:len(work)-1]
				for _, y := range preds[x] {
					if !in[y] {
						in[y] = true
						work = append(work, y)
					}
				}
			}
			var l []int
			for b := range in {
				l = append(l, b)
			}
			loops = append(loops, l)
		}
	}
	return loops
}

// randomReducible builds a random reducible graph: a random tree of
// nested regions (sequence, if/else, loop with breaks), as unstructured
// compilers leave them, with no merge information.
func randomReducible(r *rand.Rand, n int) [][]int {
	kids := [][]int{{}}
	newBlock := func() int { kids = append(kids, nil); return len(kids) - 1 }
	edge := func(u, v int) { kids[u] = append(kids[u], v) }
	// region builds a region entered at from; it returns its exit block,
	// and may branch to brk (a loop exit) from inside.
	var region func(from, brk, depth int) int
	region = func(from, brk, depth int) int {
		cur := from
		for k := 0; k < 1+r.Intn(3) && len(kids) < n; k++ {
			switch c := r.Intn(4); {
			case c == 0 || depth > 4:
				b := newBlock()
				edge(cur, b)
				cur = b
			case c == 1: // if/else
				a, b, j := newBlock(), newBlock(), newBlock()
				edge(cur, a)
				edge(cur, b)
				edge(region(a, brk, depth+1), j)
				edge(region(b, brk, depth+1), j)
				cur = j
			default: // loop: header, body, latch back to header, exit
				h, x := newBlock(), newBlock()
				edge(cur, h)
				edge(h, x)
				body := newBlock()
				edge(h, body)
				end := region(body, x, depth+1)
				edge(end, h)
				cur = x
			}
			if brk >= 0 && r.Intn(4) == 0 {
				b := newBlock()
				edge(cur, b)
				edge(cur, brk)
				cur = b
			}
		}
		return cur
	}
	region(0, -1, 0)
	for _, ks := range kids { // shuffle successor order: reverse postorder depends on it
		r.Shuffle(len(ks), func(i, j int) { ks[i], ks[j] = ks[j], ks[i] })
	}
	return kids
}

func TestLoopContiguousOnRandomGraphs(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	changed := 0
	for iter := 0; iter < 2000; iter++ {
		kids := randomReducible(r, 10+r.Intn(60))
		order, rank := structuredOrder(kids)
		got := loopContiguous(kids, order, rank)
		if len(got) != len(order) {
			t.Fatalf("graph %d: %d blocks placed of %d", iter, len(got), len(order))
		}
		pos := make([]int, len(kids))
		for i := range pos {
			pos[i] = -1
		}
		for i, b := range got {
			if pos[b] >= 0 {
				t.Fatalf("graph %d: block %d placed twice", iter, b)
			}
			pos[b] = i
		}
		for i := range got {
			if got[i] != order[i] {
				changed++
				break
			}
		}
		// forward edges keep their direction
		for u, ks := range kids {
			for _, v := range ks {
				if rank[u] >= 0 && rank[v] > rank[u] && pos[v] <= pos[u] {
					t.Fatalf("graph %d: forward edge %d->%d placed backward", iter, u, v)
				}
			}
		}
		// every loop is contiguous and starts at its header
		for _, l := range naturalLoops(kids, rank) {
			lo, hi := len(got), -1
			for _, b := range l {
				lo, hi = min(lo, pos[b]), max(hi, pos[b])
			}
			if hi-lo+1 != len(l) {
				t.Fatalf("graph %d: loop %v spread over positions %d..%d of %v", iter, l, lo, hi, got)
			}
		}
	}
	// the property is not vacuous: reverse postorder alone breaks it often
	if changed < 100 {
		t.Errorf("only %d of 2000 graphs needed reordering", changed)
	}
}

// The order costs O(E log V) on any shape. A chain of n nested loops, each
// one's exit branching back to the header around it, makes a
// depth-times-size algorithm quadratic; the time at 4n stays within a
// small multiple of that at n (both measured here, best of five; a
// quadratic order would take 16 times as long).
func TestLoopContiguousDeepNesting(t *testing.T) {
	nested := func(n int) [][]int {
		// header i (0..n-1) enters header i+1 and exits to block n+i,
		// which branches back to header i-1; the innermost loops through
		// block 2n.
		kids := make([][]int, 2*n+1)
		for i := 0; i < n; i++ {
			if i+1 < n {
				kids[i] = append(kids[i], i+1)
			} else {
				kids[i] = append(kids[i], 2*n)
			}
			kids[i] = append(kids[i], n+i)
			if i > 0 {
				kids[n+i] = append(kids[n+i], i-1)
			}
		}
		kids[2*n] = []int{n - 1}
		return kids
	}
	cost := func(n int) time.Duration {
		kids := nested(n)
		best := time.Duration(1 << 62)
		for k := 0; k < 5; k++ {
			start := time.Now()
			order, rank := structuredOrder(kids)
			if got := loopContiguous(kids, order, rank); len(got) != 2*n+1 {
				t.Fatalf("n=%d: %d placed", n, len(got))
			}
			best = min(best, time.Since(start))
		}
		return best
	}
	small, large := cost(20000), cost(80000)
	if large > 12*small {
		t.Errorf("4x the blocks took %.1fx the time (%v, %v): not near-linear", float64(large)/float64(small), small, large)
	}
}
