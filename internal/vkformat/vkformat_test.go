package vkformat

import (
	"encoding/binary"
	"math"
	"math/big"
	"math/rand"
	"sort"
	"testing"

	"spvx/spirv"
)

func info(t *testing.T, f spirv.ImageFormat) *Info {
	t.Helper()
	in, ok := Lookup(f)
	if !ok {
		t.Fatalf("%v: no format", f)
	}
	return &in
}

func TestTable(t *testing.T) {
	if n := len(Formats()); n != 41 {
		t.Errorf("%d formats, want the 41 storage formats Rgba32f..R64i", n)
	}
	for _, f := range Formats() {
		if info(t, f).VkFormat == 0 {
			t.Errorf("%v has no VkFormat", f)
		}
	}
	if v := info(t, spirv.ImageFormatRg8ui).VkFormat; v != 20 {
		t.Errorf("Rg8ui is VK_FORMAT_R8G8_UINT, 20, not %d", v)
	}
	if _, ok := Lookup(spirv.ImageFormatUnknown); ok {
		t.Error("Unknown has an Info")
	}
	for f, size := range map[spirv.ImageFormat]int{
		spirv.ImageFormatRgba32f: 16, spirv.ImageFormatRgba16f: 8, spirv.ImageFormatRg16f: 4,
		spirv.ImageFormatR11fG11fB10f: 4, spirv.ImageFormatRgb10A2: 4, spirv.ImageFormatRgb10a2ui: 4,
		spirv.ImageFormatRgba8Snorm: 4, spirv.ImageFormatR8: 1, spirv.ImageFormatRg8i: 2,
		spirv.ImageFormatR64ui: 8, spirv.ImageFormatR64i: 8, spirv.ImageFormatRgba32ui: 16,
	} {
		if got := info(t, f).Size; got != size {
			t.Errorf("%v: size %d, want %d", f, got, size)
		}
	}
}

// rat returns the float64 nearest p/q (big.Rat rounds to nearest even).
func rat(p, q int64) float64 {
	f, _ := new(big.Rat).SetFrac64(p, q).Float64()
	return f
}

// TestDecodeNorm checks every 8- and 16-bit UNORM and SNORM value against
// the spec's c/(2^b-1) and max(c/(2^(b-1)-1), -1), in every component.
func TestDecodeNorm(t *testing.T) {
	for _, tc := range []struct {
		f spirv.ImageFormat
		w uint
	}{{spirv.ImageFormatRgba8, 8}, {spirv.ImageFormatRgba16, 16}, {spirv.ImageFormatRgba8Snorm, 8}, {spirv.ImageFormatRgba16Snorm, 16}} {
		in := info(t, tc.f)
		b := make([]byte, in.Size)
		for c := uint64(0); c < 1<<tc.w; c++ {
			for k := range 4 {
				clear(b)
				if tc.w == 8 {
					b[k] = byte(c)
				} else {
					binary.LittleEndian.PutUint16(b[2*k:], uint16(c))
				}
				var want float64
				if in.Kind == UNorm {
					want = rat(int64(c), 1<<tc.w-1)
				} else {
					s := int64(c) - int64(c>>(tc.w-1))<<tc.w
					want = max(rat(s, 1<<(tc.w-1)-1), -1)
				}
				got := in.DecodeFloat(b)
				if got[k] != want {
					t.Fatalf("%v: component %d = %#x decodes to %v, want %v", tc.f, k, c, got[k], want)
				}
			}
		}
	}
}

// smallFloat is the value of stored float bits b from the spec's formula:
// (-1)^s 2^(e-15) (1 + m/2^M), or 2^-14 (m/2^M) for e = 0.
func smallFloat(b uint64, mb uint, signed bool) float64 {
	m, e := int64(b&(1<<mb-1)), int64(b>>mb&31)
	neg := signed && b>>(mb+5)&1 == 1
	var v float64
	switch {
	case e == 31 && m == 0:
		v = math.Inf(1)
	case e == 31:
		return math.NaN()
	case e == 0:
		v, _ = new(big.Rat).Mul(big.NewRat(m, 1<<mb), big.NewRat(1, 1<<14)).Float64()
	default:
		r := big.NewRat(1<<mb+m, 1<<mb)
		if e >= 15 {
			r.Mul(r, big.NewRat(1<<(e-15), 1))
		} else {
			r.Mul(r, big.NewRat(1, 1<<(15-e)))
		}
		v, _ = r.Float64()
	}
	if neg {
		v = -v
	}
	return v
}

func sameFloat(a, b float64) bool {
	return a != a && b != b || math.Float64bits(a) == math.Float64bits(b)
}

// TestDecodeFloats checks every half, 11-bit and 10-bit float.
func TestDecodeFloats(t *testing.T) {
	h := info(t, spirv.ImageFormatRgba16f)
	for c := range uint64(1 << 16) {
		b := make([]byte, 8)
		binary.LittleEndian.PutUint16(b[6:], uint16(c))
		if got, want := h.DecodeFloat(b)[3], smallFloat(c, 10, true); !sameFloat(got, want) {
			t.Fatalf("half %#04x decodes to %v, want %v", c, got, want)
		}
	}
	p := info(t, spirv.ImageFormatR11fG11fB10f)
	for c := range uint64(1 << 11) {
		for k, pos := range []uint{0, 11, 22} {
			if k == 2 && c >= 1<<10 {
				continue
			}
			b := binary.LittleEndian.AppendUint32(nil, uint32(c<<pos))
			mb := uint(6)
			if k == 2 {
				mb = 5
			}
			got := p.DecodeFloat(b)
			if want := smallFloat(c, mb, false); !sameFloat(got[k], want) {
				t.Fatalf("R11fG11fB10f component %d = %#x decodes to %v, want %v", k, c, got[k], want)
			}
			if got[3] != 1 {
				t.Fatalf("R11fG11fB10f alpha = %v, want 1", got[3])
			}
		}
	}
}

// TestDecodeInt checks sign and zero extension of every 8- and 16-bit
// value and the (0, 0, 0, 1) fill.
func TestDecodeInt(t *testing.T) {
	for c := range 1 << 16 {
		b := binary.LittleEndian.AppendUint16(nil, uint16(c))
		if got := info(t, spirv.ImageFormatR16i).DecodeInt(b); got != [4]uint64{uint64(int64(int16(c))), 0, 0, 1} {
			t.Fatalf("R16i %#x: %v", c, got)
		}
		if got := info(t, spirv.ImageFormatR16ui).DecodeInt(b); got != [4]uint64{uint64(c), 0, 0, 1} {
			t.Fatalf("R16ui %#x: %v", c, got)
		}
		if got := info(t, spirv.ImageFormatRg8i).DecodeInt(b); got != [4]uint64{uint64(int64(int8(c))), uint64(int64(int8(c >> 8))), 0, 1} {
			t.Fatalf("Rg8i %#x: %v", c, got)
		}
		if got := info(t, spirv.ImageFormatRg8ui).DecodeInt(b); got != [4]uint64{uint64(c & 255), uint64(c >> 8), 0, 1} {
			t.Fatalf("Rg8ui %#x: %v", c, got)
		}
	}
	w := binary.LittleEndian.AppendUint32(nil, 0x3ff|0x155<<10|0x2aa<<20|2<<30)
	if got := info(t, spirv.ImageFormatRgb10a2ui).DecodeInt(w); got != [4]uint64{0x3ff, 0x155, 0x2aa, 2} {
		t.Errorf("Rgb10a2ui: %#x", got)
	}
	if got := info(t, spirv.ImageFormatRgb10A2).DecodeFloat(w); got != [4]float64{1, rat(0x155, 1023), rat(0x2aa, 1023), rat(2, 3)} {
		t.Errorf("Rgb10A2: %v", got)
	}
	if got := info(t, spirv.ImageFormatR32f).DecodeFloat(binary.LittleEndian.AppendUint32(nil, math.Float32bits(-2.5))); got != [4]float64{-2.5, 0, 0, 1} {
		t.Errorf("R32f: %v", got)
	}
}

// TestRoundTrip encodes the decoding of every 8- and 16-bit component
// value (and samples of the wider ones) of every format: the bytes come
// back, except SNORM's second -1 (which encodes as the first) and NaNs
// (which come back quiet).
func TestRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, f := range Formats() {
		in := info(t, f)
		n := 1 << 16
		if in.Size > 2 && !in.Packed && in.Bits[0] > 16 {
			n = 1 << 12
		}
		b, out := make([]byte, in.Size), make([]byte, in.Size)
		for i := range n {
			if in.Size <= 2 {
				b[0] = byte(i)
				if in.Size == 2 {
					b[1] = byte(i >> 8)
				}
			} else {
				rng.Read(b)
			}
			want := append([]byte(nil), b...)
			if in.Kind.IsInt() {
				in.EncodeInt(out, in.DecodeInt(b))
			} else {
				v := in.DecodeFloat(b)
				in.EncodeFloat(out, v)
				for k := 0; k < in.Comps; k++ {
					if in.Kind == SNorm && v[k] == -1 || v[k] != v[k] {
						// compare through decode instead
						w := in.DecodeFloat(out)
						if !sameFloat(w[k], v[k]) && !(v[k] != v[k] && w[k] != w[k]) {
							t.Fatalf("%v % x: component %d %v comes back as %v", f, b, k, v[k], w[k])
						}
						want = out
					}
				}
			}
			if string(out) != string(want) {
				t.Fatalf("%v: % x decodes and encodes to % x", f, b, out)
			}
		}
	}
}

// normWant is the spec's encoding: clamp, multiply by m, round to
// nearest (ties to even), in exact rational arithmetic.
func normWant(x float64, lo int64, m int64) int64 {
	if x != x {
		return 0
	}
	x = min(max(x, float64(lo)), 1)
	r := new(big.Rat).SetFloat64(x)
	r.Mul(r, big.NewRat(m, 1))
	r.Add(r, big.NewRat(1, 2))
	q := new(big.Int).Div(r.Num(), r.Denom()) // floor(r + 1/2), Euclidean for positive denominator
	if new(big.Rat).SetInt(q).Cmp(r) == 0 && q.Bit(0) == 1 {
		q.Sub(q, big.NewInt(1)) // an exact midpoint: to even
	}
	return q.Int64()
}

func testValues(rng *rand.Rand, m int64, n int) []float64 {
	vs := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -0.5, 2, -2, math.Inf(1), math.Inf(-1), math.NaN(), 1e-300, -1e-300}
	for range n {
		switch rng.Intn(4) {
		case 0:
			vs = append(vs, float64(math.Float32frombits(rng.Uint32())))
		case 1:
			vs = append(vs, rng.Float64()*3-1.5)
		default: // at and next to a midpoint (k + 1/2)/m
			k := rng.Int63n(2*m+1) - m
			x := (float64(k) + 0.5) / float64(m)
			vs = append(vs, x, math.Nextafter(x, 2), math.Nextafter(x, -2), float64(float32(x)))
		}
	}
	return vs
}

func TestEncodeNorm(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for _, f := range []spirv.ImageFormat{spirv.ImageFormatR8, spirv.ImageFormatR16, spirv.ImageFormatR8Snorm, spirv.ImageFormatR16Snorm, spirv.ImageFormatRgb10A2} {
		in := info(t, f)
		w := uint(in.Bits[0])
		m, lo := int64(1)<<w-1, int64(0)
		if in.Kind == SNorm {
			m, lo = int64(1)<<(w-1)-1, -1
		}
		b := make([]byte, in.Size)
		for _, x := range testValues(rng, m, 20000) {
			in.EncodeFloat(b, [4]float64{x, 0, 0, 0})
			got := in.raw(b)[0]
			want := uint64(normWant(x, lo, m)) & (1<<w - 1)
			if got != want {
				t.Fatalf("%v: %v (%#x) encodes to %#x, want %#x", f, x, math.Float64bits(x), got, want)
			}
		}
	}
	// the 2-bit alpha of Rgb10A2
	in := info(t, spirv.ImageFormatRgb10A2)
	b := make([]byte, 4)
	for _, x := range []float64{0, 1.0 / 6, math.Nextafter(1.0/6, 1), 0.5, 5.0 / 6, 1, 7} {
		in.EncodeFloat(b, [4]float64{0, 0, 0, x})
		if got, want := in.raw(b)[3], uint64(normWant(x, 0, 3)); got != want {
			t.Errorf("Rgb10A2 alpha %v encodes to %d, want %d", x, got, want)
		}
	}
}

// TestEncodeSmallFloats checks half, 11- and 10-bit encoding against the
// nearest representable value found by search over every encoding.
func TestEncodeSmallFloats(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for _, tc := range []struct {
		f      spirv.ImageFormat
		k      int
		mb     uint
		signed bool
	}{{spirv.ImageFormatR16f, 0, 10, true}, {spirv.ImageFormatR11fG11fB10f, 1, 6, false}, {spirv.ImageFormatR11fG11fB10f, 2, 5, false}} {
		in := info(t, tc.f)
		w := 5 + tc.mb
		if tc.signed {
			w++
		}
		// the finite non-negative encodings in increasing order
		var fin []uint64
		var fv []float64
		for c := range uint64(31 << tc.mb) {
			fin, fv = append(fin, c), append(fv, smallFloat(c, tc.mb, false))
		}
		maxFin := fv[len(fv)-1]
		vals := []float64{maxFin, math.Nextafter(maxFin, 0), math.Nextafter(maxFin, math.Inf(1)), maxFin * 1.01, 1e10,
			math.Ldexp(1, -14-int(tc.mb)-1), math.Ldexp(3, -14-int(tc.mb)-1), math.Ldexp(1, -30)}
		for range 20000 {
			c := fin[rng.Intn(len(fin)-1)]
			lo, hi := fv[c], fv[c+1]
			mid := lo + (hi-lo)/2 // exact: both are multiples of a small power of two
			vals = append(vals, mid, math.Nextafter(mid, 0), math.Nextafter(mid, hi), lo+(hi-lo)*rng.Float64())
			vals = append(vals, float64(math.Float32frombits(rng.Uint32())))
		}
		b := make([]byte, in.Size)
		for _, x0 := range vals {
			if x0 != x0 {
				continue // TestEncodeSpecials
			}
			for _, x := range []float64{x0, -x0} {
				var v [4]float64
				v[tc.k] = x
				in.EncodeFloat(b, v)
				got := in.raw(b)[tc.k]
				if want := nearest(x, fin, fv, tc.mb, tc.signed); got != want {
					t.Fatalf("%v component %d: %v encodes to %#x, want %#x", tc.f, tc.k, x, got, want)
				}
			}
		}
	}
}

// nearest is the expected encoding of x: for the half, IEEE round to
// nearest even with overflow to infinity (from max + half an ulp); for
// the unsigned floats, the closest finite value, negatives giving 0.
func nearest(x float64, fin []uint64, fv []float64, mb uint, signed bool) uint64 {
	maxFin := fv[len(fv)-1]
	inf := uint64(31) << mb
	var sign uint64
	if signed && math.Signbit(x) {
		sign = 1 << (mb + 5)
	}
	a := math.Abs(x)
	switch {
	case math.IsInf(x, 1), signed && math.IsInf(x, -1):
		return sign | inf
	case !signed && (x < 0 || math.Signbit(x)):
		return 0
	case signed && a >= maxFin+math.Ldexp(1, 15-int(mb)-1):
		return sign | inf
	}
	ra := new(big.Rat).SetFloat64(a)
	i := sort.Search(len(fin), func(i int) bool { return fv[i] >= a })
	if i == len(fin) {
		return sign | fin[len(fin)-1]
	}
	if i == 0 || fv[i] == a {
		return sign | fin[i]
	}
	dl := new(big.Rat).Sub(ra, new(big.Rat).SetFloat64(fv[i-1]))
	dh := new(big.Rat).Sub(new(big.Rat).SetFloat64(fv[i]), ra)
	switch c := dl.Cmp(dh); {
	case c < 0, c == 0 && fin[i-1]&1 == 0:
		return sign | fin[i-1]
	}
	return sign | fin[i]
}

func TestEncodeSpecials(t *testing.T) {
	in := info(t, spirv.ImageFormatR11fG11fB10f)
	b := make([]byte, 4)
	in.EncodeFloat(b, [4]float64{math.NaN(), math.Inf(-1), math.Inf(1), 0})
	r := in.raw(b)
	if r[0]>>6 != 31 || r[0]&63 == 0 || r[1] != 0 || r[2] != 31<<5 {
		t.Errorf("NaN, -Inf, +Inf encode to %#x", r)
	}
	h := info(t, spirv.ImageFormatR16f)
	h.EncodeFloat(b, [4]float64{math.Copysign(math.NaN(), -1)})
	if v := binary.LittleEndian.Uint16(b); v&0x7c00 != 0x7c00 || v&0x3ff == 0 {
		t.Errorf("half NaN encodes to %#x", v)
	}
	i8 := info(t, spirv.ImageFormatRgba8i)
	i8.EncodeInt(b, [4]uint64{0x1ff, uint64(1<<64 - 129), 0x80, 0x7f})
	if string(b) != "\xff\x7f\x80\x7f" {
		t.Errorf("Rgba8i truncation: % x", b)
	}
}
