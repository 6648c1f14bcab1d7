package val

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"spvx/spirv"
)

// TestUseIndexMatchesScan: the def-use lists hold, for every id, its
// uses in module order as a scan of every instruction's id operands finds
// them, on modules of several families.
func TestUseIndexMatchesScan(t *testing.T) {
	for _, name := range gateModules {
		text, err := os.ReadFile(filepath.Join(ownModulesDir, name))
		if err != nil {
			t.Fatal(err)
		}
		m := assembleModule(t, string(text))
		x := m.Index()
		u := buildUseIndex(m, x)
		want := map[uint32][]use{}
		for i := 0; i < m.Len(); i++ {
			in := m.Inst(i)
			for k, id := range in.IDOperands() {
				want[id] = append(want[id], use{int32(i), int32(k)})
			}
		}
		for id := uint32(0); id < m.Header.Bound+2; id++ {
			if got := u.of(x, id); !slices.Equal(got, want[id]) {
				t.Errorf("%s: uses of %d: %v, want %v", name, id, got, want[id])
			}
		}
	}
}

// TestBlockLabels: blockLabels names the block of each instruction asked
// for as a walk keeping the last OpLabel since the last OpFunctionEnd
// does, the OpLabels and OpFunctionEnds themselves included.
func TestBlockLabels(t *testing.T) {
	for _, name := range gateModules {
		s, _ := gateState(t, name)
		var at []int
		want := []uint32{}
		var block uint32
		for i := 0; i < s.m.Len(); i++ {
			switch in := s.m.Inst(i); in.Opcode {
			case spirv.OpLabel:
				block = in.ResultID
			case spirv.OpFunctionEnd:
				block = 0
			}
			if i%3 == 0 || s.m.Opcode(i) == spirv.OpLabel || s.m.Opcode(i) == spirv.OpFunctionEnd {
				at, want = append(at, i), append(want, block)
			}
		}
		if got := s.blockLabels(at); !slices.Equal(got, want) {
			t.Errorf("%s: blocks %v, want %v", name, got, want)
		}
	}
}

// TestJoinedCFG: the module's block graph holds each function's block
// graph, offset by its first block, node for node and edge for edge.
func TestJoinedCFG(t *testing.T) {
	for _, name := range gateModules {
		s, _ := gateState(t, name)
		g := s.getCFG()
		var gb spirv.GraphBuilder
		for f, fn := range s.x.Functions {
			for k := range fn.Blocks {
				gb.Node()
				for _, to := range g.fns[f].c.Succ.Succ(int32(k)) {
					gb.Edge(to + g.fns[f].first)
				}
			}
		}
		want := gb.Graph()
		if !slices.Equal(g.succ.Start, want.Start) || !slices.Equal(g.succ.Adj, want.Adj) {
			t.Errorf("%s: block graph %v, want %v", name, g.succ, want)
		}
	}
}
