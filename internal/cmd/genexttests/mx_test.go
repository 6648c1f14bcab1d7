package main

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"spvx/mx"
)

// expectedWords concatenates the EXPECT values of buffer buf, checking that
// they are contiguous from IDX 0.
func expectedWords(t *testing.T, name string, p *parsed, buf string) []uint64 {
	t.Helper()
	var out []uint64
	for _, e := range p.expects {
		if e.buf != buf {
			continue
		}
		if e.offset != 4*len(out) {
			t.Fatalf("%s: EXPECT %s IDX %d not contiguous", name, buf, e.offset)
		}
		out = append(out, e.values...)
	}
	return out
}

// e4m3CodeOf finds, by search over the decode table, the E4M3 code of an exact
// value: the widening the shaders apply to 4- and 6-bit results.
func e4m3CodeOf(t *testing.T, v float32) uint8 {
	for c := 0; c < 256; c++ {
		d := mx.E4M3.DecodeFloat32(uint8(c))
		if d == v && math.Signbit(float64(d)) == math.Signbit(float64(v)) {
			return uint8(c)
		}
	}
	t.Fatalf("%v has no E4M3 code", v)
	return 0
}

var modeByName = map[string]mx.RoundingMode{"rte": mx.RTE, "rtz": mx.RTZ, "rtp": mx.RTP, "rtn": mx.RTN, "default": mx.RTE}

// TestMXEncodeExpectations re-derives every EXPECT of the float32 → narrow
// scripts from the script's own inputs with spvx/mx's float64 encoder (a
// separate code path from the float32 one the generator calls) and checks
// the inputs cover every value of the format.
func TestMXEncodeExpectations(t *testing.T) {
	scripts := generated(t)
	for _, f := range mx.Formats {
		name := fmt.Sprintf("mx_fconvert_f32_to_%s.amber", f)
		p := scripts[name]
		if p == nil {
			t.Errorf("%s missing", name)
			continue
		}
		var xs []float32
		have := map[uint32]bool{}
		for _, w := range p.buffers["in"].values {
			xs = append(xs, math.Float32frombits(uint32(w)))
			have[uint32(w)] = true
		}
		for c := 0; c < f.Codes(); c++ {
			v := f.DecodeFloat32(uint8(c))
			if v == v && !have[math.Float32bits(v)] {
				t.Errorf("%s: inputs lack the value %v of code %#x", name, v, c)
			}
		}
		if f.HasNaN() != have[0x7FC00000] {
			t.Errorf("%s: NaN input present = %v, want %v", name, have[0x7FC00000], f.HasNaN())
		}
		nvar := 0
		for buf := range p.buffers {
			tag, ok := strings.CutPrefix(buf, "out_")
			if !ok {
				continue
			}
			nvar++
			mode, ok := modeByName[strings.TrimSuffix(tag, "_sat")]
			if !ok {
				t.Fatalf("%s: unknown conversion %s", name, buf)
			}
			sat := strings.HasSuffix(tag, "_sat")
			if sat && f != mx.E4M3 && f != mx.E5M2 {
				t.Errorf("%s: saturation decoration on a conversion to %s", name, f)
			}
			got := expectedWords(t, name, p, buf)
			if len(got)*4 != len(xs) {
				t.Fatalf("%s %s: %d words for %d inputs", name, buf, len(got), len(xs))
			}
			for n, x := range xs {
				c := f.EncodeFloat64(float64(x), mode, sat)
				if f.Bits() != 8 {
					c = e4m3CodeOf(t, f.DecodeFloat32(c))
				}
				if g := uint8(got[n/4] >> (8 * (n % 4))); g != c {
					t.Errorf("%s %s: input %#08x: expected code %#02x, script says %#02x", name, buf, math.Float32bits(x), c, g)
				}
			}
		}
		want := 4
		if f == mx.E4M3 || f == mx.E5M2 {
			want = 10
		}
		if nvar != want {
			t.Errorf("%s: %d conversions, want %d", name, nvar, want)
		}
	}
}

// TestMXDecodeExpectations re-derives the narrow → float32 scripts: every
// code of the format appears, and every EXPECT is its exact value.
func TestMXDecodeExpectations(t *testing.T) {
	scripts := generated(t)
	for _, f := range mx.Formats {
		name := fmt.Sprintf("mx_fconvert_%s_to_f32.amber", f)
		p := scripts[name]
		if p == nil {
			t.Errorf("%s missing", name)
			continue
		}
		in := p.buffers["in"].values
		got := expectedWords(t, name, p, "out")
		var codes []uint8
		if f.Bits() == 8 {
			for _, w := range in {
				for j := 0; j < 4; j++ {
					codes = append(codes, uint8(w>>(8*j)))
				}
			}
		} else {
			slots := 32 / f.Bits()
			for i := 0; i < len(in)/4; i++ {
				for k := 0; k < slots; k++ {
					for j := 0; j < 4; j++ {
						codes = append(codes, uint8(in[4*i+j]>>(k*f.Bits())&(1<<f.Bits()-1)))
					}
				}
			}
		}
		if len(codes) != len(got) {
			t.Fatalf("%s: %d codes, %d expectations", name, len(codes), len(got))
		}
		seen := map[uint8]bool{}
		for n, c := range codes {
			seen[c] = true
			v := f.Decode(c) // float64 path
			want := uint64(math.Float32bits(float32(v)))
			if math.IsNaN(v) {
				want = canonNaN
			}
			if got[n] != want {
				t.Errorf("%s: code %#x: script expects %#08x, want %#08x", name, c, got[n], want)
			}
		}
		if len(seen) != f.Codes() {
			t.Errorf("%s: %d of %d codes covered", name, len(seen), f.Codes())
		}
	}
}

// TestMXNarrowExpectations re-derives the narrow → FP8 scripts.
func TestMXNarrowExpectations(t *testing.T) {
	n := 0
	for name, p := range generated(t) {
		var src, dst mx.Format
		var s, d string
		if _, err := fmt.Sscanf(strings.ReplaceAll(strings.TrimSuffix(strings.TrimPrefix(name, "mx_fconvert_"), ".amber"), "_to_", " "), "%s %s", &s, &d); err != nil || s == "f32" || d == "f32" || !strings.HasPrefix(name, "mx_fconvert_") {
			continue
		}
		var err error
		if src, err = mx.ParseFormat(s); err != nil {
			t.Fatal(err)
		}
		if dst, err = mx.ParseFormat(d); err != nil {
			t.Fatal(err)
		}
		n++
		for buf := range p.buffers {
			tag, ok := strings.CutPrefix(buf, "out_")
			if !ok {
				continue
			}
			mode, ok := modeByName[strings.TrimSuffix(tag, "_sat")]
			if !ok {
				t.Fatalf("%s: unknown conversion %s", name, buf)
			}
			sat := strings.HasSuffix(tag, "_sat")
			got := expectedWords(t, name, p, buf)
			for c := 0; c < 256; c++ {
				want := dst.EncodeFloat32(src.DecodeFloat32(uint8(c)), mode, sat)
				if g := uint8(got[c/4] >> (8 * (c % 4))); g != want {
					t.Errorf("%s %s: code %#02x: script %#02x, want %#02x", name, buf, c, g, want)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no narrow conversion scripts")
	}
}

// TestBitcastExtractExpectations recomputes the OpBitcastExtractEXT script's
// EXPECTs from its inputs.
func TestBitcastExtractExpectations(t *testing.T) {
	p := generated(t)["mx_bitcast_extract.amber"]
	if p == nil {
		t.Fatal("missing")
	}
	in, offs := p.buffers["in"].values, p.buffers["offs"].values
	got := expectedWords(t, "extract", p, "out")
	k := 0
	for i := range offs {
		w := in[4*i : 4*i+4]
		u64 := w[1] | w[2]<<32
		d := int(offs[i])
		f32 := func(f mx.Format, bits uint64) uint64 { return uint64(math.Float32bits(f.DecodeFloat32(uint8(bits)))) }
		want := []uint64{
			w[0] >> 16 & 0xFFFF,
			w[0] >> 5 & 0xFF,
			f32(mx.E2M1, u64>>60&0xF),
			f32(mx.E2M1, u64>>30&0xF),
			f32(mx.E3M2, w[3]>>10&0x3F),
			f32(mx.E3M2, w[3]>>26&0x3F),
			f32(mx.E2M3, w[0]>>26&0x3F),
			w[1] >> 13 & 0xFF,
			w[2] >> 24 & 0xFF,
			w[3] & 0xFF,
			f32(mx.E2M1, w[2]>>d&0xF),
			f32(mx.E3M2, w[3]>>d&0x3F),
			u64 >> (d + 28) & 0xFF,
		}
		for _, v := range want {
			if got[k] != v {
				t.Errorf("invocation %d result %d: script %d, want %d", i, k%len(want), got[k], v)
			}
			k++
		}
	}
	if k != len(got) || k == 0 {
		t.Errorf("checked %d of %d results", k, len(got))
	}
}

// TestMXIntExpectations re-derives the integer → FP8 scripts with the float32
// encoder where the integer is a float32 exactly, and by a brute-force
// nearest-code search in RTE otherwise.
func TestMXIntExpectations(t *testing.T) {
	n := 0
	for _, f := range []mx.Format{mx.E4M3, mx.E5M2} {
		name := fmt.Sprintf("mx_convert_int_to_%s.amber", f)
		p := generated(t)[name]
		if p == nil {
			t.Fatalf("%s missing", name)
		}
		in := p.buffers["in"].values
		for buf := range p.buffers {
			rest, ok := strings.CutPrefix(buf, "out_")
			if !ok {
				continue
			}
			signed := strings.HasPrefix(rest, "s_")
			tag := rest[2:]
			mode, ok := modeByName[strings.TrimSuffix(tag, "_sat")]
			if !ok {
				t.Fatalf("%s: unknown conversion %s", name, buf)
			}
			sat := strings.HasSuffix(tag, "_sat")
			got := expectedWords(t, name, p, buf)
			for k, w := range in {
				x := float64(uint32(w))
				if signed {
					x = float64(int32(uint32(w)))
				}
				g := uint8(got[k/4] >> (8 * (k % 4)))
				if float64(float32(x)) == x {
					if want := f.EncodeFloat32(float32(x), mode, sat); g != want {
						t.Errorf("%s %s: %v: script %#02x, want %#02x", name, buf, x, g, want)
					}
					n++
				} else if mode == mx.RTE && !sat && math.Abs(x) < f.Max() {
					// Nearest code by search (no ties: such x are huge, so
					// only the in-range ones below max could get here).
					best := -1
					for c := 0; c < 256; c++ {
						d := f.Decode(uint8(c))
						if math.IsNaN(d) {
							continue
						}
						if best < 0 || math.Abs(d-x) < math.Abs(f.Decode(uint8(best))-x) {
							best = c
						}
					}
					if uint8(best) != g {
						t.Errorf("%s %s: %v: script %#02x, nearest %#02x", name, buf, x, g, best)
					}
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("nothing checked")
	}
}
