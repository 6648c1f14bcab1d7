package interp

import (
	"math"
	"math/rand"
	"testing"
)

// denseBin (full subgroups, immediates) computes what the lane-list path
// of exec computes, for every kernel, width and operand shape.
func TestDenseBinMatchesLanePath(t *testing.T) {
	const S = 8
	rng := rand.New(rand.NewSource(1))
	special := []uint64{0, 1, 7, 8, 31, 32, 33, 63, 64, 65, 0xFF, 0x80, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF,
		math.MaxUint64, 1 << 63, uint64(math.Float32bits(float32(math.Inf(1)))), uint64(math.Float32bits(-0.0)),
		math.Float64bits(math.NaN()), uint64(math.Float32bits(1.5)), math.Float64bits(-2.25)}
	val := func() uint64 {
		if rng.Intn(2) == 0 {
			return special[rng.Intn(len(special))]
		}
		return rng.Uint64() >> uint(rng.Intn(64))
	}
	for o := opIAdd; o <= opFDiv64; o++ {
		widths := []uint8{8, 16, 32, 64}
		switch o {
		case opFAdd32, opFSub32, opFMul32, opFDiv32:
			widths = []uint8{32}
		case opFAdd64, opFSub64, opFMul64, opFDiv64:
			widths = []uint8{64}
		}
		for _, w := range widths {
			for _, imm := range []bool{false, true} {
				for trial := 0; trial < 20; trial++ {
					sc := scalar{kind: skInt, width: w}
					// slots: 0 a, 1 b, 2 dense result, 3 lane-path result
					sg := &subgroup{S: S, R: S, regs: make([]uint64, 4*S), p: &Program{}}
					k := val() & sc.mask()
					for l := 0; l < S; l++ {
						sg.regs[l] = val() & sc.mask()
						sg.regs[S+l] = val() & sc.mask()
						if imm {
							sg.regs[S+l] = k
						}
					}
					in := inst{op: o, n: 1, a: 0, b: 1, dst: 2, sc: sc, sc2: sc, imm: sc.mask()}
					if imm {
						in.bk, in.k = 1, k
					}
					sg.denseBin(&in)
					in.dst = 3
					for l := int32(0); l < S; l++ {
						if f := sg.exec(&in, []int32{l}); f != nil {
							t.Fatal(f)
						}
					}
					for l := 0; l < S; l++ {
						if got, want := sg.regs[2*S+l], sg.regs[3*S+l]; got != want {
							t.Fatalf("op %d width %d imm %v: %#x, %#x -> dense %#x, lane path %#x", o, w, imm, sg.regs[l], sg.regs[S+l], got, want)
						}
					}
				}
			}
		}
	}
}
