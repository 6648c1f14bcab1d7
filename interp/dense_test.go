package interp

import (
	"math"
	"math/rand"
	"testing"
)

// denseBin (full subgroups, immediates) computes what the lane-list path
// of exec computes, for every kernel, width and operand shape, with the
// AVX2 lane loops and without them, at lengths with and without a tail
// after the groups of four.
func TestDenseBinMatchesLanePath(t *testing.T) {
	have := useAVX2
	for _, avx := range []bool{false, true} {
		if avx && !have {
			continue
		}
		setAVX2(t, avx)
		for _, S := range []int{1, 8, 13, 32, 70} {
			denseMatchesLanePath(t, S)
		}
	}
}

func denseMatchesLanePath(t *testing.T, S int) {
	rng := rand.New(rand.NewSource(int64(S)))
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
					for l := int32(0); l < int32(S); l++ {
						if f := sg.exec(&in, []int32{l}); f != nil {
							t.Fatal(f)
						}
					}
					for l := 0; l < S; l++ {
						got, want := sg.regs[2*S+l], sg.regs[3*S+l]
						if got != want && o >= opFAdd32 && bothNaN(sg.regs[l], sg.regs[S+l], w) && bothNaN(got, want, w) {
							continue // which operand's NaN payload: SPIR-V leaves it open
						}
						if got != want {
							t.Fatalf("avx %v S=%d op %d width %d imm %v lane %d: %#x, %#x -> dense %#x, lane path %#x", useAVX2, S, o, w, imm, l, sg.regs[l], sg.regs[S+l], got, want)
						}
					}
				}
			}
		}
	}
}

// With garbage above an operand's width (which no instruction writes, but
// which the kernels must treat alike), the AVX2 lane loops give what the
// portable loops give, bit for bit.
func TestDenseAVX2MatchesPortable(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2 on this machine (or GODEBUG=cpu.avx2=off)")
	}
	rng := rand.New(rand.NewSource(2))
	for o := opIAdd; o <= opSGe; o++ {
		for _, w := range []uint8{8, 16, 32, 64} {
			for _, imm := range []bool{false, true} {
				for _, S := range []int{4, 13, 32} {
					for trial := 0; trial < 10; trial++ {
						sc := scalar{kind: skInt, width: w}
						sg := &subgroup{S: S, R: S, regs: make([]uint64, 4*S), p: &Program{}}
						for l := 0; l < 2*S; l++ {
							sg.regs[l] = rng.Uint64() >> uint(rng.Intn(64))
						}
						in := inst{op: o, n: 1, a: 0, b: 1, dst: 2, sc: sc, sc2: sc, imm: sc.mask()}
						if imm {
							in.bk, in.k = 1, rng.Uint64()>>uint(rng.Intn(64))
						}
						useAVX2 = true
						sg.denseBin(&in)
						useAVX2 = false
						in.dst = 3
						sg.denseBin(&in)
						useAVX2 = true
						for l := 0; l < S; l++ {
							if got, want := sg.regs[2*S+l], sg.regs[3*S+l]; got != want {
								t.Fatalf("op %d width %d imm %v S=%d lane %d: %#x, %#x (k %#x): AVX2 %#x, portable %#x", o, w, imm, S, l, sg.regs[l], sg.regs[S+l], in.k, got, want)
							}
						}
					}
				}
			}
		}
	}
}

// bothNaN reports whether x and y are both NaNs of width w.
func bothNaN(x, y uint64, w uint8) bool {
	if w == 32 {
		return isNaN32(x) && isNaN32(y)
	}
	return math.IsNaN(math.Float64frombits(x)) && math.IsNaN(math.Float64frombits(y))
}
