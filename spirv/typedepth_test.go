package spirv

import "testing"

// arrayChain returns a module whose %3 is an int, %4 a constant 1, and
// %5 ... %(n+4) arrays, each of the one before.
func arrayChain(n int) []uint32 {
	m := header(uint32(n + 5))
	m = append(m,
		w(OpCapability, 2), uint32(CapabilityShader),
		w(OpMemoryModel, 3), uint32(AddressingModelLogical), uint32(MemoryModelGLSL450),
		w(OpTypeInt, 4), 3, 32, 0,
		w(OpConstant, 4), 3, 4, 1)
	for k := range n {
		elem := uint32(k + 4)
		if k == 0 {
			elem = 3
		}
		m = append(m, w(OpTypeArray, 4), uint32(k+5), elem, 4)
	}
	return m
}

func TestTypeDepthChain(t *testing.T) {
	const n = 1_000_000 // deep enough that a recursive walk would need a huge stack
	mod, err := DecodeWords(arrayChain(n))
	if err != nil {
		t.Fatal(err)
	}
	x := mod.Index()
	if x.MaxTypeDepth != n+1 || x.TypeCycle != 0 {
		t.Fatalf("MaxTypeDepth %d TypeCycle %d, want %d 0", x.MaxTypeDepth, x.TypeCycle, n+1)
	}
	for _, id := range []uint32{3, 5, 6, n/2 + 4, n + 4} {
		want := id - 3
		if id == 3 {
			want = 1
		}
		if got := x.Types[id].Depth; got != want {
			t.Errorf("depth of %%%d = %d, want %d", id, got, want)
		}
	}
}

// TestTypeDepthForwardPointer: a struct that points to itself through a
// forward pointer is not a cycle and has a finite depth; the same struct
// without OpTypeForwardPointer is one.
func TestTypeDepthForwardPointer(t *testing.T) {
	build := func(fwd bool) *Index {
		m := header(10)
		m = append(m,
			w(OpCapability, 2), uint32(CapabilityShader),
			w(OpMemoryModel, 3), uint32(AddressingModelPhysicalStorageBuffer64), uint32(MemoryModelGLSL450))
		if fwd {
			m = append(m, w(OpTypeForwardPointer, 3), 5, uint32(StorageClassPhysicalStorageBuffer))
		}
		m = append(m,
			w(OpTypeInt, 4), 3, 32, 0,
			w(OpTypeStruct, 4), 4, 3, 5, // %4 = { int, %5 }
			w(OpTypePointer, 4), 5, uint32(StorageClassPhysicalStorageBuffer), 4,
			w(OpTypeArray, 4), 6, 5, 3) // an array of the forward pointer (its length id, a type, counts too)
		mod, err := DecodeWords(m)
		if err != nil {
			t.Fatal(err)
		}
		return mod.Index()
	}
	x := build(true)
	if x.TypeCycle != 0 {
		t.Errorf("forward pointer: TypeCycle %%%d", x.TypeCycle)
	}
	for id, want := range map[uint32]uint32{3: 1, 4: 2, 5: 1, 6: 2} {
		if got := x.Types[id].Depth; got != want {
			t.Errorf("forward pointer: depth of %%%d = %d, want %d", id, got, want)
		}
	}
	if x := build(false); x.TypeCycle == 0 {
		t.Errorf("a struct pointing to itself with no forward pointer: no TypeCycle")
	}
}

// TestTypeDepthForwardChain: a chain of arrays each of the one declared
// after it (invalid, but indexed before any validation) gets the same
// depths, from one walk with an explicit stack as deep as the chain.
func TestTypeDepthForwardChain(t *testing.T) {
	const n = 300_000
	m := header(uint32(n + 6))
	m = append(m,
		w(OpCapability, 2), uint32(CapabilityShader),
		w(OpMemoryModel, 3), uint32(AddressingModelLogical), uint32(MemoryModelGLSL450),
		w(OpTypeInt, 4), 3, 32, 0,
		w(OpConstant, 4), 3, 4, 1)
	for k := range n { // %5 = array of %6, ..., %(n+4) = array of %(n+5)
		m = append(m, w(OpTypeArray, 4), uint32(k+5), uint32(k+6), 4)
	}
	m = append(m, w(OpTypeArray, 4), uint32(n+5), 3, 4)
	mod, err := DecodeWords(m)
	if err != nil {
		t.Fatal(err)
	}
	x := mod.Index()
	if x.MaxTypeDepth != n+2 || x.TypeCycle != 0 || x.Types[5].Depth != n+2 || x.Types[n+5].Depth != 2 {
		t.Errorf("MaxTypeDepth %d TypeCycle %d depth(%%5) %d depth(%%%d) %d, want %d 0 %d 2",
			x.MaxTypeDepth, x.TypeCycle, x.Types[5].Depth, n+5, x.Types[n+5].Depth, n+2, n+2)
	}
}
