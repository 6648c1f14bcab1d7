package diagram

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
	"testing"

	"spvx/subgroup"
)

// supportedPairs enumerates the Supported Types table through
// subgroup.CheckSupported.
func supportedPairs(t *testing.T) [][2]subgroup.Type {
	var types []subgroup.Type
	for _, w := range []int{8, 16, 32, 64} {
		for _, c := range []int{1, 2, 3, 4, 8, 16} {
			types = append(types, subgroup.U(w, c))
		}
	}
	var pairs [][2]subgroup.Type
	for _, a := range types {
		for _, b := range types {
			if a != b && subgroup.CheckSupported(a, b) == nil {
				pairs = append(pairs, [2]subgroup.Type{a, b})
			}
		}
	}
	if len(pairs) != 40 {
		t.Fatalf("%d supported pairs, want 40", len(pairs))
	}
	return pairs
}

// sourceInvocations returns, for every result bit (invocation, component,
// bit), the invocation it comes from, from subgroup.BitcastShuffle itself:
// bit plane k of the operand holds bit k of each invocation's index.
func sourceInvocations(t *testing.T, src, dst subgroup.Type, n int) func(inv, comp, bit int) int {
	planes := bits.Len(uint(n - 1))
	results := make([][]uint64, planes)
	for k := range planes {
		in := make([]uint64, n*src.Components)
		for i := range n {
			for c := range src.Components {
				if i>>k&1 == 1 {
					in[i*src.Components+c] = ^uint64(0) >> (64 - src.Width)
				}
			}
		}
		results[k] = make([]uint64, n*dst.Components)
		if err := subgroup.BitcastShuffle(results[k], in, src, dst, n); err != nil {
			t.Fatal(err)
		}
	}
	return func(inv, comp, bit int) int {
		s := 0
		for k := range planes {
			s |= int(results[k][inv*dst.Components+comp]>>bit&1) << k
		}
		return s
	}
}

func TestShuffleColoursAreSources(t *testing.T) {
	for _, pair := range supportedPairs(t) {
		for _, n := range []int{4, 8, 16, 32} {
			src, dst := pair[0], pair[1]
			name := fmt.Sprintf("%s→%s N=%d", src, dst, n)
			b, err := ShuffleSVG(src, dst, n, ShuffleOptions{})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			p := parseSVG(t, b)
			checkLayout(t, name, p)
			legend := map[string]int{}
			for _, r := range p.rects {
				if r.attr["class"] == "legend" {
					k, _ := strconv.Atoi(r.attr["data-inv"])
					if _, dup := legend[r.attr["fill"]]; dup {
						t.Fatalf("%s: two invocations share colour %s", name, r.attr["fill"])
					}
					legend[r.attr["fill"]] = k
				}
			}
			if len(legend) != n {
				t.Fatalf("%s: legend has %d colours", name, len(legend))
			}
			from := sourceInvocations(t, src, dst, n)
			u := unit(src, dst)
			cells := 0
			for _, r := range p.rects {
				if r.attr["class"] != "dst" {
					continue
				}
				cells++
				var inv, comp, lo int
				fmt.Sscanf(r.attr["data-cell"], "%d.%d.%d", &inv, &comp, &lo)
				got, ok := legend[r.attr["fill"]]
				if !ok {
					t.Fatalf("%s: cell %s has colour %s, not in the legend", name, r.attr["data-cell"], r.attr["fill"])
				}
				for bit := lo; bit < lo+u; bit++ {
					if want := from(inv, comp, bit); got != want {
						t.Fatalf("%s: result cell %s is coloured as invocation %d, its bit %d comes from %d", name, r.attr["data-cell"], got, bit, want)
					}
				}
			}
			if cells != n*dst.Bits()/u {
				t.Fatalf("%s: %d result cells, want %d", name, cells, n*dst.Bits()/u)
			}
		}
	}
}

// TestShuffleLarge: 64 invocations of 16 components stay within the
// width, as grids side by side or stacked or tiled, and more invocations
// tile by rows; labels never overlap.
func TestShuffleLarge(t *testing.T) {
	for _, c := range []struct {
		src, dst subgroup.Type
		n        int
	}{
		{subgroup.U(8, 16), subgroup.U(64, 2), 64},
		{subgroup.U(64, 16), subgroup.U(32, 32), 64}, // 128 cells a row: tiles
		{subgroup.U(32, 1), subgroup.U(8, 4), 200},   // rows tiled
		{subgroup.U(12, 2), subgroup.U(8, 3), 8},     // 4-bit cells
	} {
		name := fmt.Sprintf("%s→%s N=%d", c.src, c.dst, c.n)
		b, err := ShuffleSVG(c.src, c.dst, c.n, ShuffleOptions{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		p := parseSVG(t, b)
		checkLayout(t, name, p)
		if p.w > 1800 {
			t.Errorf("%s: %g pixels wide", name, p.w)
		}
		for _, r := range p.rects {
			if r.x+r.w > p.w || r.y+r.h > p.h {
				t.Errorf("%s: a box leaves the canvas", name)
				break
			}
		}
		if c.src.Width == 12 && !strings.Contains(string(b), "[3:0]") {
			t.Errorf("%s: no 4-bit cells", name)
		}
	}
}

// TestShuffleLines checks that no arrow crosses a box: every segment of
// every path lies in a gap or the corridor, touching only its own
// operand and result cells at its ends.
func TestShuffleLines(t *testing.T) {
	for _, c := range []struct {
		src, dst subgroup.Type
		n        int
	}{
		{subgroup.U(16, 2), subgroup.U(32, 1), 4},
		{subgroup.U(32, 1), subgroup.U(8, 4), 8},
		{subgroup.U(8, 4), subgroup.U(16, 2), 4},
		{subgroup.U(64, 1), subgroup.U(16, 4), 4},
	} {
		name := fmt.Sprintf("%s→%s N=%d", c.src, c.dst, c.n)
		b, err := ShuffleSVG(c.src, c.dst, c.n, ShuffleOptions{Style: Lines})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		p := parseSVG(t, b)
		checkLayout(t, name, p)
		arrows := 0
		for _, path := range p.paths {
			if path.attr["class"] != "arrow" {
				continue
			}
			arrows++
			segs := segments(t, path.d)
			for k, s := range segs {
				for _, r := range p.rects {
					if r.attr["class"] != "src" && r.attr["class"] != "dst" {
						continue
					}
					// The first and last segments start and end on a
					// cell's edge, which is not a crossing.
					if crosses(s, r) {
						t.Fatalf("%s: arrow %s segment %d crosses cell %s", name, path.attr["data-piece"], k, r.attr["data-cell"])
					}
				}
			}
		}
		if arrows != len(Sources(c.src, c.dst, c.n)) {
			t.Fatalf("%s: %d arrows, %d pieces", name, arrows, len(Sources(c.src, c.dst, c.n)))
		}
	}
	if _, err := ShuffleSVG(subgroup.U(64, 16), subgroup.U(32, 32), 65536, ShuffleOptions{}); err == nil || !strings.Contains(err.Error(), "at most") {
		t.Errorf("65536 invocations of 16xu64: %v", err)
	}
	if _, err := ShuffleSVG(subgroup.U(8, 16), subgroup.U(64, 2), 64, ShuffleOptions{Style: Lines}); err == nil {
		t.Error("the lines style drew 64 invocations")
	}
}

type segment struct{ x0, y0, x1, y1 float64 }

// segments reads "Mx,y Vy Hx ..." paths.
func segments(t *testing.T, d string) []segment {
	var out []segment
	var x, y float64
	for _, f := range strings.Fields(d) {
		switch f[0] {
		case 'M':
			fmt.Sscanf(f[1:], "%g,%g", &x, &y)
		case 'V':
			ny, _ := strconv.ParseFloat(f[1:], 64)
			out = append(out, segment{x, y, x, ny})
			y = ny
		case 'H':
			nx, _ := strconv.ParseFloat(f[1:], 64)
			out = append(out, segment{x, y, nx, y})
			x = nx
		default:
			t.Fatalf("path command %q", f)
		}
	}
	return out
}

// crosses reports whether an axis-parallel segment enters a rectangle's
// open interior.
func crosses(s segment, r rectEl) bool {
	const eps = 0.05
	lo := func(a, b float64) float64 { return min(a, b) }
	hi := func(a, b float64) float64 { return max(a, b) }
	return hi(s.x0, s.x1) > r.x+eps && lo(s.x0, s.x1) < r.x+r.w-eps &&
		hi(s.y0, s.y1) > r.y+eps && lo(s.y0, s.y1) < r.y+r.h-eps
}

func u(w, c int) subgroup.Type { return subgroup.U(w, c) }
