package mx

import (
	"flag"
	"math"
	"math/big"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
)

var long = flag.Bool("long", false, "check every float32 near each format's range instead of a sample")

// refFormat is an independent model of a format for the reference encoder:
// the positive grid, extended by one binade beyond the largest finite value
// so that overflow can be decided on the rounded value, and the policy for
// what overflow, Inf and NaN become. Nothing here shares code with the
// package's encoder.
type refFormat struct {
	f        Format
	grid     []*big.Rat // ascending, grid[i] is the value of magnitude code i
	maxIndex int        // index of the largest finite value
	signBit  uint8
}

func newRefFormat(f Format) *refFormat {
	r := &refFormat{f: f}
	var expBits, manBits, bias int
	switch f {
	case E2M1:
		expBits, manBits, bias, r.maxIndex = 2, 1, 1, 0x7
	case E2M3:
		expBits, manBits, bias, r.maxIndex = 2, 3, 1, 0x1F
	case E3M2:
		expBits, manBits, bias, r.maxIndex = 3, 2, 3, 0x1F
	case E4M3:
		expBits, manBits, bias, r.maxIndex = 4, 3, 7, 0x7E
	case E5M2:
		expBits, manBits, bias, r.maxIndex = 5, 2, 15, 0x7B
	default:
		panic("no float model for " + f.String())
	}
	r.signBit = 1 << (expBits + manBits)
	// Codes walk the grid in order: E = 0 is subnormal, then one binade per
	// exponent value; continue two binades past the top exponent field.
	for e := 0; e < 1<<expBits+2; e++ {
		for m := 0; m < 1<<manBits; m++ {
			v := new(big.Rat)
			if e == 0 {
				v.SetFrac64(int64(m), 1)
				v.Mul(v, ratPow2(1-bias-manBits))
			} else {
				v.SetFrac64(int64(m+1<<manBits), 1)
				v.Mul(v, ratPow2(e-bias-manBits))
			}
			r.grid = append(r.grid, v)
		}
	}
	return r
}

func ratPow2(k int) *big.Rat {
	v := new(big.Rat).SetInt64(1)
	p := new(big.Int).Lsh(big.NewInt(1), uint(abs(k)))
	if k >= 0 {
		return v.SetInt(p)
	}
	return v.SetFrac(big.NewInt(1), p)
}

func abs(k int) int {
	if k < 0 {
		return -k
	}
	return k
}

// roundIndex returns the grid index |x| rounds to in mode m (neg tells the
// sign for the directed modes), or len(grid) when beyond the extended grid.
func roundIndex(grid []*big.Rat, ax *big.Rat, neg bool, m RoundingMode) int {
	hi := sort.Search(len(grid), func(i int) bool { return grid[i].Cmp(ax) >= 0 })
	if hi < len(grid) && grid[hi].Cmp(ax) == 0 {
		return hi
	}
	if hi == len(grid) {
		return len(grid) // beyond everything: overflow whatever the mode
	}
	lo := hi - 1
	up := false
	switch m {
	case RTZ:
	case RTP:
		up = !neg
	case RTN:
		up = neg
	case RTE:
		mid := new(big.Rat).Add(grid[lo], grid[hi])
		mid.Quo(mid, big.NewRat(2, 1))
		switch ax.Cmp(mid) {
		case 1:
			up = true
		case 0:
			up = hi%2 == 0 // the even code
		}
	}
	if up {
		return hi
	}
	return lo
}

// encode is the reference encoder for E2M1..E5M2, written from the policy.
func (r *refFormat) encode(x float64, m RoundingMode, sat bool) uint8 {
	neg := math.Signbit(x)
	var sign uint8
	if neg {
		sign = r.signBit
	}
	maxCode := uint8(r.maxIndex) | sign
	switch {
	case math.IsNaN(x):
		switch r.f {
		case E4M3:
			return 0x7F | sign
		case E5M2:
			return 0x7E | sign
		}
		return 0 // the package's documented choice for FP4/FP6
	case math.IsInf(x, 0):
		return r.overflow(sign, maxCode, sat)
	}
	ax := new(big.Rat).SetFloat64(math.Abs(x))
	i := roundIndex(r.grid, ax, neg, m)
	if i > r.maxIndex {
		return r.overflow(sign, maxCode, sat)
	}
	return uint8(i) | sign
}

func (r *refFormat) overflow(sign, maxCode uint8, sat bool) uint8 {
	if sat {
		return maxCode
	}
	switch r.f {
	case E4M3:
		return 0x7F | sign
	case E5M2:
		return 0x7C | sign
	}
	return maxCode
}

// refE8M0 is the reference E8M0 encoder: the grid 2^-127..2^127, ties up.
func refE8M0(x float64, m RoundingMode, sat bool) uint8 {
	switch {
	case math.IsNaN(x) || math.IsInf(x, 0):
		return 0xFF
	case x <= 0:
		if sat {
			return 0
		}
		return 0xFF
	}
	ax := new(big.Rat).SetFloat64(x)
	for k := -127; k <= 128; k++ {
		p := e8m0Powers[k+127]
		if ax.Cmp(p) > 0 {
			continue
		}
		// 2^(k−1) < x ≤ 2^k, or x ≤ 2^-127 when k = −127.
		code := k + 127
		if ax.Cmp(p) < 0 && k > -127 {
			switch m {
			case RTZ, RTN:
				code--
			case RTE:
				mid := new(big.Rat).Mul(ratPow2(k-1), big.NewRat(3, 2))
				if ax.Cmp(mid) < 0 {
					code--
				}
			}
		}
		if code > 254 {
			break
		}
		return uint8(code)
	}
	if sat {
		return 0xFE
	}
	return 0xFF
}

// e8m0Powers holds 2^k for k = −127..128.
var e8m0Powers = func() (p []*big.Rat) {
	for k := -127; k <= 128; k++ {
		p = append(p, ratPow2(k))
	}
	return p
}()

// refMXINT8 rounds x·64 exactly and saturates.
func refMXINT8(x float64, m RoundingMode) uint8 {
	if math.IsNaN(x) {
		return 0
	}
	if math.IsInf(x, 0) {
		if x > 0 {
			return 0x7F
		}
		return 0x80
	}
	v := new(big.Rat).SetFloat64(x)
	v.Mul(v, big.NewRat(64, 1))
	fl := new(big.Int).Quo(v.Num(), v.Denom()) // truncated toward zero
	if v.Sign() < 0 && !v.IsInt() {
		fl.Sub(fl, big.NewInt(1)) // floor
	}
	frac := new(big.Rat).Sub(v, new(big.Rat).SetInt(fl)) // in [0, 1)
	n := fl
	if frac.Sign() != 0 {
		up := false
		switch m {
		case RTP:
			up = true
		case RTZ:
			up = v.Sign() < 0
		case RTE:
			c := frac.Cmp(big.NewRat(1, 2))
			up = c > 0 || (c == 0 && fl.Bit(0) == 1)
		}
		if up {
			n = new(big.Int).Add(fl, big.NewInt(1))
		}
	}
	switch {
	case n.Cmp(big.NewInt(127)) > 0:
		return 0x7F
	case n.Cmp(big.NewInt(-128)) < 0:
		return 0x80
	}
	return uint8(int8(n.Int64()))
}

// reference returns the reference encoder of a format.
func reference(f Format) func(x float64, m RoundingMode, sat bool) uint8 {
	switch f {
	case E8M0:
		return refE8M0
	case MXINT8:
		return func(x float64, m RoundingMode, _ bool) uint8 { return refMXINT8(x, m) }
	}
	return newRefFormat(f).encode
}

// interestingInputs returns, for a format, every representable value, every
// midpoint between neighbours (including past the largest finite value),
// the float32 and float64 neighbours of each, both signs, and the specials.
func interestingInputs(f Format) []float64 {
	var pts []float64
	switch f {
	case E8M0:
		for k := -130; k <= 129; k++ {
			pts = append(pts, math.Ldexp(1, k), math.Ldexp(1.5, k), math.Ldexp(1.25, k), math.Ldexp(1.75, k))
		}
	case MXINT8:
		for i := -140; i <= 140; i++ {
			pts = append(pts, float64(i)/64, (float64(i)+0.5)/64, (float64(i)+0.25)/64)
		}
	default:
		grid := newRefFormat(f).grid
		for i, g := range grid {
			v, _ := g.Float64()
			pts = append(pts, v)
			if i+1 < len(grid) {
				mid := new(big.Rat).Add(g, grid[i+1])
				mv, _ := mid.Quo(mid, big.NewRat(2, 1)).Float64()
				pts = append(pts, mv)
			}
		}
	}
	var out []float64
	for _, p := range pts {
		for _, v := range []float64{p, -p} {
			out = append(out, v,
				float64(math.Nextafter32(float32(v), float32(math.Inf(1)))),
				float64(math.Nextafter32(float32(v), float32(math.Inf(-1)))),
				math.Nextafter(v, math.Inf(1)), math.Nextafter(v, math.Inf(-1)))
		}
	}
	out = append(out, 0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), -math.NaN(),
		math.MaxFloat32, -math.MaxFloat32, math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32,
		math.MaxFloat64, math.SmallestNonzeroFloat64, 1e-30, -1e30, float64(math.Float32frombits(0x00400000)),
		float64(math.Float32frombits(0x00600000)), float64(math.Float32frombits(0x00600001)))
	return out
}

var modes = []RoundingMode{RTE, RTZ, RTP, RTN}

func TestEncodeMatchesReference(t *testing.T) {
	for _, f := range Formats {
		t.Run(f.String(), func(t *testing.T) {
			ref := reference(f)
			bad := 0
			for _, x := range interestingInputs(f) {
				for _, m := range modes {
					for _, sat := range []bool{false, true} {
						if got, want := f.EncodeFloat64(x, m, sat), ref(x, m, sat); got != want {
							bad++
							if bad < 20 {
								t.Errorf("%v.EncodeFloat64(%v (%#x), %v, sat=%v) = %#02x, want %#02x", f, x, math.Float64bits(x), m, sat, got, want)
							}
						}
						x32 := float32(x)
						if math.IsNaN(x) {
							x32 = float32(math.NaN())
							if math.Signbit(x) {
								x32 = -x32
							}
						}
						if got, want := f.EncodeFloat32(x32, m, sat), ref(float64(x32), m, sat); got != want {
							bad++
							if bad < 20 {
								t.Errorf("%v.EncodeFloat32(%v (%#08x), %v, sat=%v) = %#02x, want %#02x", f, x32, math.Float32bits(x32), m, sat, got, want)
							}
						}
					}
				}
			}
		})
	}
}

// neighbourhood returns the float32 bit patterns (positive) whose exponent
// lies within a few binades of a format's range, where every rounding
// decision happens; outside it results are constant (zero or overflow).
func neighbourhood(f Format) (lo, hi uint32) {
	minExp := int(math.Floor(math.Log2(f.MinSubnormal()))) - 3
	maxExp := int(math.Floor(math.Log2(f.Max()))) + 3
	lo = uint32(max(minExp+127, 0)) << 23
	hi = uint32(min(maxExp+127, 255)) << 23
	return lo, hi
}

// TestEncodeFloat32Sweep compares every float32 near the format's range
// (under -long) or a random sample of them against the reference.
func TestEncodeFloat32Sweep(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, f := range Formats {
		t.Run(f.String(), func(t *testing.T) {
			ref := reference(f)
			lo, hi := neighbourhood(f)
			check := func(u uint32, m RoundingMode, sat bool, want uint8) bool {
				x := math.Float32frombits(u)
				if got := f.EncodeFloat32(x, m, sat); got != want {
					t.Errorf("%v.EncodeFloat32(%v (%#08x), %v, sat=%v) = %#02x, want %#02x", f, x, u, m, sat, got, want)
					return false
				}
				return true
			}
			if *long {
				// Exhaustive: the exact big.Rat reference is too slow for
				// hundreds of millions of values, so compare the float32
				// fast path with the float64 path, which the reference has
				// checked at every decision point above.
				for u := lo; u < hi; u++ {
					for _, s := range []uint32{0, 1 << 31} {
						for _, m := range modes {
							want := f.EncodeFloat64(float64(math.Float32frombits(u|s)), m, false)
							if !check(u|s, m, false, want) {
								return
							}
						}
					}
				}
			}
			for range 4000 {
				u := lo + rng.Uint32N(hi-lo) | rng.Uint32()&(1<<31)
				for _, m := range modes {
					for _, sat := range []bool{false, true} {
						if !check(u, m, sat, ref(float64(math.Float32frombits(u)), m, sat)) {
							return
						}
					}
				}
			}
		})
	}
}

func TestHalfAndBFloat16(t *testing.T) {
	// Every binary16 and bfloat16 code decodes and re-encodes to itself
	// (NaNs to the canonical quiet NaN with the same sign).
	for c := range 1 << 16 {
		h := uint16(c)
		x := HalfToFloat32(h)
		want := h
		if x != x {
			want = h&0x8000 | 0x7E00
		}
		for _, m := range modes {
			if got := HalfFromFloat32(x, m); got != want {
				t.Fatalf("HalfFromFloat32(HalfToFloat32(%#04x) = %v, %v) = %#04x", h, x, m, got)
			}
		}
		b := BFloat16ToFloat32(h)
		want = h
		if b != b {
			want = h&0x8000 | 0x7FC0
		}
		if got := BFloat16FromFloat32(b, RTE); got != want {
			t.Fatalf("BFloat16FromFloat32(%v) = %#04x, want %#04x", b, got, want)
		}
	}
	tests := []struct {
		x    float64
		m    RoundingMode
		half uint16
	}{
		{65519.99, RTE, 0x7BFF},
		{65520, RTE, 0x7C00}, // tie with an odd max goes to Inf
		{1e6, RTZ, 0x7BFF},   // IEEE: RTZ overflow gives max
		{1e6, RTN, 0x7BFF},
		{-1e6, RTP, 0xFBFF},
		{-1e6, RTN, 0xFC00},
		{math.Ldexp(1, -25), RTE, 0x0000}, // tie at half the smallest subnormal: to even zero
		{math.Ldexp(1.5, -25), RTE, 0x0001},
		{math.Ldexp(1, -26), RTP, 0x0001},
		{1 + math.Ldexp(1, -11), RTE, 0x3C00},
		{1 + math.Ldexp(3, -11), RTE, 0x3C02},
		{math.Inf(-1), RTZ, 0xFC00},
	}
	for _, tc := range tests {
		if got := HalfFromFloat64(tc.x, tc.m); got != tc.half {
			t.Errorf("HalfFromFloat64(%v, %v) = %#04x, want %#04x", tc.x, tc.m, got, tc.half)
		}
		if float64(float32(tc.x)) == tc.x {
			if got := HalfFromFloat32(float32(tc.x), tc.m); got != tc.half {
				t.Errorf("HalfFromFloat32(%v, %v) = %#04x, want %#04x", tc.x, tc.m, got, tc.half)
			}
		}
	}
	if got := BFloat16FromFloat32(math.Float32frombits(0x3F808000), RTE); got != 0x3F80 {
		t.Errorf("bfloat16 tie to even: got %#04x, want 0x3f80", got)
	}
	if got := BFloat16FromFloat32(math.Float32frombits(0x3F818000), RTE); got != 0x3F82 {
		t.Errorf("bfloat16 tie to even (odd): got %#04x, want 0x3f82", got)
	}
	if got := BFloat16FromFloat32(math.Float32frombits(0x3F808000), RTZ); got != 0x3F80 {
		t.Errorf("bfloat16 RTZ: got %#04x", got)
	}
	if got := BFloat16FromFloat64(math.MaxFloat64, RTE); got != 0x7F80 {
		t.Errorf("bfloat16 overflow: got %#04x, want 0x7f80", got)
	}
}

// TestEncodeKnownValues pins policy decisions with hand-worked values, so a
// change that moved both the package and the reference would still show.
func TestEncodeKnownValues(t *testing.T) {
	nan := math.NaN()
	inf := math.Inf(1)
	tests := []struct {
		f    Format
		x    float64
		m    RoundingMode
		sat  bool
		want uint8
	}{
		{E4M3, 464, RTE, false, 0x7E}, // tie at the threshold goes to even 448
		{E4M3, 464.0001, RTE, false, 0x7F},
		{E4M3, 500, RTE, true, 0x7E},
		{E4M3, -inf, RTE, true, 0xFE}, // SPIR-V: saturating maps -Inf to -max
		{E4M3, inf, RTE, false, 0x7F},
		{E4M3, 480, RTZ, false, 0x7F}, // range check on the rounded value
		{E4M3, 479, RTZ, false, 0x7E},
		{E4M3, nan, RTE, true, 0x7F},
		{E4M3, math.Copysign(0, -1), RTE, false, 0x80},
		{E4M3, math.Ldexp(1, -10), RTE, false, 0x00}, // tie to even zero
		{E4M3, -math.Ldexp(1, -10), RTE, false, 0x80},
		{E4M3, math.Ldexp(3, -11), RTE, false, 0x01},
		{E5M2, 61440, RTE, false, 0x7C}, // odd max: the tie overflows to Inf
		{E5M2, 61439, RTE, false, 0x7B},
		{E5M2, -inf, RTE, true, 0xFB},
		{E5M2, -nan, RTE, false, 0xFE},
		{E2M1, 5, RTE, false, 0x6}, // 4 is even
		{E2M1, 0.75, RTE, false, 0x2},
		{E2M1, 0.25, RTE, false, 0x0},
		{E2M1, 7, RTE, false, 0x7}, // always saturates
		{E2M1, -inf, RTE, false, 0xF},
		{E2M1, nan, RTE, false, 0x0},
		{E2M1, 5.5, RTZ, false, 0x6},
		{E2M1, 5.5, RTP, false, 0x7},
		{E2M1, -5.5, RTN, false, 0xF},
		{E2M3, 7.75, RTE, false, 0x1F},
		{E3M2, 30, RTE, false, 0x1F},
		{E3M2, 0.03125, RTE, false, 0x00},
		{E8M0, 1.5, RTE, false, 128}, // ties up
		{E8M0, 3, RTE, false, 129},
		{E8M0, 1.4999, RTE, false, 127},
		{E8M0, 1.0001, RTP, false, 128},
		{E8M0, 1.9999, RTZ, false, 127},
		{E8M0, 0, RTE, false, 0xFF},
		{E8M0, 0, RTE, true, 0x00},
		{E8M0, -4, RTE, true, 0x00},
		{E8M0, -4, RTE, false, 0xFF},
		{E8M0, inf, RTE, true, 0xFF},
		{E8M0, float64(math.Float32frombits(0x00500000)), RTE, false, 0x00}, // ml_dtypes gives 1 here
		{E8M0, 1e-45, RTE, false, 0x00},
		{E8M0, math.Ldexp(1.5, 127), RTE, false, 0xFF},
		{E8M0, math.Ldexp(1.5, 127), RTE, true, 0xFE},
		{E8M0, math.MaxFloat32, RTZ, false, 0xFE},
		{MXINT8, 1.0, RTE, false, 64},
		{MXINT8, 1.9921875, RTE, false, 0x7F}, // 127.5 → 128 → saturates to 127
		{MXINT8, -2.0, RTE, false, 0x80},
		{MXINT8, -3, RTE, false, 0x80},
		{MXINT8, 0.5 / 64, RTE, false, 0x00},
		{MXINT8, 1.5 / 64, RTE, false, 0x02},
		{MXINT8, -0.5 / 64, RTN, false, 0xFF},
		{MXINT8, nan, RTE, false, 0x00},
	}
	for _, tc := range tests {
		if got := tc.f.EncodeFloat64(tc.x, tc.m, tc.sat); got != tc.want {
			t.Errorf("%v.EncodeFloat64(%v, %v, sat=%v) = %#02x, want %#02x", tc.f, tc.x, tc.m, tc.sat, got, tc.want)
		}
	}
}

func TestParseFormat(t *testing.T) {
	for _, f := range Formats {
		for _, name := range []string{f.String(), f.SPIRVName(), strings.ToUpper(f.String())} {
			if got, err := ParseFormat(name); err != nil || got != f {
				t.Errorf("ParseFormat(%q) = %v, %v; want %v", name, got, err, f)
			}
		}
	}
	if _, err := ParseFormat("e9m9"); err == nil {
		t.Error("ParseFormat(e9m9) succeeded")
	}
}
