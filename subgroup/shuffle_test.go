package subgroup

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// maxInt is the largest int, for overflow cases.
const maxInt = int(^uint(0) >> 1)

// slowShuffle is an independent bit-by-bit model written from the spec's
// prose: concatenate first components of every invocation, then second
// components, ...; then deal C bits to each result component in the same
// order.
func slowShuffle(src []uint64, st, dt Type, n int) []uint64 {
	var stream []byte // one bit per entry
	for c := range st.Components {
		for i := range n {
			v := src[i*st.Components+c]
			for b := range st.Width {
				stream = append(stream, byte(v>>uint(b)&1))
			}
		}
	}
	out := make([]uint64, n*dt.Components)
	pos := 0
	for c := range dt.Components {
		for i := range n {
			var v uint64
			for b := range dt.Width {
				v |= uint64(stream[pos]) << uint(b)
				pos++
			}
			out[i*dt.Components+c] = v
		}
	}
	return out
}

// supportedPairs lists the spec's table: 20 rows, each both ways.
func supportedPairs() [][2]Type {
	rows := [][2]Type{
		{U(8, 2), U(16, 1)},
		{U(8, 4), U(16, 2)}, {U(8, 4), U(32, 1)}, {U(16, 2), U(32, 1)},
		{U(8, 8), U(16, 4)}, {U(8, 8), U(32, 2)}, {U(8, 8), U(64, 1)}, {U(16, 4), U(32, 2)}, {U(16, 4), U(64, 1)}, {U(32, 2), U(64, 1)},
		{U(8, 16), U(16, 8)}, {U(8, 16), U(32, 4)}, {U(8, 16), U(64, 2)}, {U(16, 8), U(32, 4)}, {U(16, 8), U(64, 2)}, {U(32, 4), U(64, 2)},
		{U(16, 16), U(32, 8)}, {U(16, 16), U(64, 4)}, {U(32, 8), U(64, 4)},
		{U(32, 16), U(64, 8)},
	}
	var pairs [][2]Type
	for _, r := range rows {
		pairs = append(pairs, r, [2]Type{r[1], r[0]})
	}
	return pairs
}

func randomData(rng *rand.Rand, t Type, n int) []uint64 {
	out := make([]uint64, n*t.Components)
	for i := range out {
		out[i] = rng.Uint64() & mask(t.Width)
	}
	return out
}

func TestAllSupportedPairs(t *testing.T) {
	pairs := supportedPairs()
	if len(pairs) != 40 {
		t.Fatalf("%d directed pairs, want 40", len(pairs))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, p := range pairs {
		st, dt := p[0], p[1]
		if err := CheckSupported(st, dt); err != nil {
			t.Errorf("CheckSupported(%v, %v) = %v", st, dt, err)
		}
		for _, n := range []int{1, 3, 4, 6, 8, 12, 16, 32, 64} {
			src := randomData(rng, st, n)
			dst := make([]uint64, n*dt.Components)
			if err := BitcastShuffle(dst, src, st, dt, n); err != nil {
				t.Fatalf("%v→%v N=%d: %v", st, dt, n, err)
			}
			if want := slowShuffle(src, st, dt, n); !slices.Equal(dst, want) {
				t.Fatalf("%v→%v N=%d:\n got %x\nwant %x", st, dt, n, dst, want)
			}
			back := make([]uint64, len(src))
			if err := BitcastShuffle(back, dst, dt, st, n); err != nil || !slices.Equal(back, src) {
				t.Fatalf("%v→%v→%v N=%d is not the identity (%v)", st, dt, st, n, err)
			}
		}
	}
}

// TestOddWidths exercises the general bit path, which the table never uses.
func TestOddWidths(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, p := range [][2]Type{{U(12, 2), U(8, 3)}, {U(24, 2), U(16, 3)}, {U(40, 3), U(24, 5)}, {U(64, 3), U(48, 4)}} {
		for _, n := range []int{1, 3, 7} {
			src := randomData(rng, p[0], n)
			dst := make([]uint64, n*p[1].Components)
			if err := BitcastShuffle(dst, src, p[0], p[1], n); err != nil {
				t.Fatal(err)
			}
			if want := slowShuffle(src, p[0], p[1], n); !slices.Equal(dst, want) {
				t.Fatalf("%v→%v N=%d: got %x want %x", p[0], p[1], n, dst, want)
			}
		}
	}
}

// pack builds lo|hi as the spec's examples write 32-bit values.
func pack(width int, parts ...uint64) uint64 {
	var v uint64
	for k, p := range parts {
		v |= p << uint(k*width)
	}
	return v
}

// TestSpecExamples runs the four examples of the extension text verbatim.
func TestSpecExamples(t *testing.T) {
	var u32pairs, vec2, u32quads, vec4 []uint64
	for i := range 8 {
		u32pairs = append(u32pairs, pack(16, uint64(2*i), uint64(2*i+1)))
		vec2 = append(vec2, uint64(2*i), uint64(2*i+1))
	}
	for i := range 4 {
		u32quads = append(u32quads, pack(8, uint64(4*i), uint64(4*i+1), uint64(4*i+2), uint64(4*i+3)))
		vec4 = append(vec4, uint64(4*i), uint64(4*i+1), uint64(4*i+2), uint64(4*i+3))
	}
	tests := []struct {
		name   string
		st, dt Type
		n      int
		src    []uint64
		want   []uint64
	}{
		{"32-bit scalar to vector of 16-bit", U(32, 1), U(16, 2), 8, u32pairs,
			[]uint64{0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15}},
		{"vector of 16-bit to 32-bit scalar", U(16, 2), U(32, 1), 8, vec2,
			[]uint64{pack(16, 0, 2), pack(16, 4, 6), pack(16, 8, 10), pack(16, 12, 14),
				pack(16, 1, 3), pack(16, 5, 7), pack(16, 9, 11), pack(16, 13, 15)}},
		{"32-bit scalar to vector of 8-bit", U(32, 1), U(8, 4), 4, u32quads,
			[]uint64{0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15}},
		{"vector of 8-bit to 32-bit scalar", U(8, 4), U(32, 1), 4, vec4,
			[]uint64{pack(8, 0, 4, 8, 12), pack(8, 1, 5, 9, 13), pack(8, 2, 6, 10, 14), pack(8, 3, 7, 11, 15)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dst := make([]uint64, len(tc.want))
			if err := BitcastShuffle(dst, tc.src, tc.st, tc.dt, tc.n); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(dst, tc.want) {
				t.Errorf("got %v, want %v", dst, tc.want)
			}
		})
	}
}

func TestCheckSupportedRejects(t *testing.T) {
	f32 := Type{Kind: Float, Width: 32, Components: 1}
	tests := []struct {
		src, dst Type
		rule     Rule
		msg      string
	}{
		{U(32, 1), Type{Kind: Other, Width: 1, Components: 1}, RuleResultNotNumerical, "Result Type must be a scalar or vector of numerical type"},
		{Type{Kind: Other, Width: 32, Components: 1}, U(16, 2), RuleOperandNotNumerical, "Operand must be a scalar or vector of numerical type"},
		{U(32, 1), U(32, 1), RuleSameType, "Operand must have a different type than Result Type"},
		{U(32, 1), U(16, 4), RuleTotalBits, "The total number of bits in Result Type must equal the total number of bits in Operand"},
		{f32, U(16, 2), RuleNotInTable, "Operand f32 is a float type"},
		{U(16, 2), f32, RuleNotInTable, "Result Type f32 is a float type"},
		{U(16, 3), U(48, 1), RuleNotInTable, "Result Type u48 has a component width of 48 bits"},
		{U(16, 3), Type{Kind: Int, Width: 16, Components: 3, Signed: true}, RuleNotInTable, "Result Type 3xi16 has 3 components"},
		{U(32, 3), U(16, 6), RuleResultNotNumerical, ""},
		{U(8, 12), U(32, 3), RuleOperandNotNumerical, ""},
		{U(16, 3), U(48, 1), RuleNotInTable, "width"},
		{U(32, 2), Type{Kind: Int, Width: 32, Components: 2, Signed: true}, RuleNotInTable, "same number of components; use OpBitcast"},
		{U(64, 1), Type{Kind: Int, Width: 16, Components: 4, Signed: true}, 0, ""}, // signedness does not matter
		{U(16, 8), U(32, 4), 0, ""},
	}
	for _, tc := range tests {
		err := CheckSupported(tc.src, tc.dst)
		if tc.rule == 0 {
			if err != nil {
				t.Errorf("CheckSupported(%v, %v) = %v, want nil", tc.src, tc.dst, err)
			}
			continue
		}
		var te *TypeError
		if !errors.As(err, &te) || te.Rule != tc.rule || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("CheckSupported(%v, %v) = %v, want rule %d containing %q", tc.src, tc.dst, err, tc.rule, tc.msg)
		}
	}
	// The closed form accepts exactly the 40 pairs among all power-of-two shapes.
	want := map[[2]Type]bool{}
	for _, p := range supportedPairs() {
		want[p] = true
	}
	var shapes []Type
	for _, w := range []int{8, 16, 32, 64} {
		for _, c := range []int{1, 2, 3, 4, 8, 16} {
			shapes = append(shapes, U(w, c))
		}
	}
	for _, a := range shapes {
		for _, b := range shapes {
			if got := CheckSupported(a, b) == nil; got != want[[2]Type{a, b}] {
				t.Errorf("CheckSupported(%v, %v) accepted = %v", a, b, got)
			}
		}
	}
}

func TestBitcastShuffleErrors(t *testing.T) {
	buf := make([]uint64, 64)
	for _, tc := range []struct {
		st, dt Type
		n      int
		dst    []uint64
	}{
		{U(32, 1), U(16, 2), 0, buf},
		{U(32, 1), U(16, 4), 4, buf},
		{U(32, 1), U(16, 2), 4, buf[:7]},
		{U(32, 1), U(16, 2), 100, buf},
		{U(0, 1), U(0, 2), 4, buf},
		{U(8, 1<<30), U(16, 1<<29), 1, buf},     // ws·cs would overflow int32
		{U(32, 2), U(16, 4), maxInt/2 + 1, buf}, // n·cs would overflow
	} {
		if err := BitcastShuffle(tc.dst, buf, tc.st, tc.dt, tc.n); !errors.Is(err, ErrShape) {
			t.Errorf("BitcastShuffle(%v→%v, N=%d) = %v, want ErrShape", tc.st, tc.dt, tc.n, err)
		}
	}
}

func TestNoAllocs(t *testing.T) {
	src := make([]uint64, 32*16)
	dst := make([]uint64, 32*16)
	if a := testing.AllocsPerRun(10, func() { _ = BitcastShuffle(dst, src, U(32, 4), U(8, 16), 32) }); a != 0 {
		t.Errorf("BitcastShuffle allocates %v times", a)
	}
}
