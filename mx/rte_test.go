package mx

import (
	"math"
	"testing"
)

// rteProbe returns float32 bit patterns that exercise the specialised RTE
// encoders: a sweep over the whole bit space with a prime stride (every
// exponent, both signs, NaN payloads), the float32 neighbours of every
// decision point the reference tests use, and hand-picked boundaries.
func rteProbe(f Format, stride uint32) []uint32 {
	var us []uint32
	for u := uint64(0); u < 1<<32; u += uint64(stride) {
		us = append(us, uint32(u))
	}
	for _, x := range interestingInputs(f) {
		u := math.Float32bits(float32(x))
		for d := uint32(0); d < 3; d++ {
			us = append(us, u-d, u+d)
		}
	}
	us = append(us,
		0, 0x80000000, 1, 0x80000001, // zeros, smallest subnormals
		0x3FFFFF, 0x400000, 0x5FFFFF, 0x600000, 0x7FFFFF, 0x800000, 0x800001, // E8M0 subnormal rounding
		0x7F3FFFFF, 0x7F400000, 0x7F7FFFFF, // E8M0 overflow at 1.5·2^127
		0x7F800000, 0xFF800000, 0x7F800001, 0xFF800001, 0x7FC00000, 0xFFC00000, 0x7FFFFFFF, 0xFFFFFFFF)
	return us
}

// TestEncodeFloat32RTEFast checks the specialised round-to-nearest-even
// encoders behind EncodeFloat32 against the general path, which rounds
// exactly through float64 and is itself checked against the big.Rat
// reference.
func TestEncodeFloat32RTEFast(t *testing.T) {
	stride := uint32(4093)
	if *long {
		stride = 7
	}
	for _, f := range Formats {
		t.Run(f.String(), func(t *testing.T) {
			bad := 0
			for _, u := range rteProbe(f, stride) {
				x := math.Float32frombits(u)
				for _, sat := range []bool{false, true} {
					got, want := f.EncodeFloat32(x, RTE, sat), f.encodeFloat32Slow(x, RTE, sat)
					if got != want {
						if bad++; bad < 10 {
							t.Errorf("%v.EncodeFloat32(%v (%#08x), rte, sat=%v) = %#02x, want %#02x", f, x, u, sat, got, want)
						}
					}
				}
			}
		})
	}
}

// TestEncodeFloat32Dispatch checks that invalid formats and modes, which
// share the dispatch table's last row and columns, still give what the
// general path gives (0 for an invalid format or mode).
func TestEncodeFloat32Dispatch(t *testing.T) {
	xs := []float32{0, 1.5, -3, 1e30, float32(math.Inf(-1)), float32(math.NaN())}
	for _, f := range []Format{0, E2M1, E4M3, E8M0, MXINT8, MXINT8 + 1, 100, 255} {
		for _, m := range []RoundingMode{RTE, RTZ, RTP, RTN, roundTiesAway, 5, 7, 8, 200, 255} {
			for _, x := range xs {
				for _, sat := range []bool{false, true} {
					want := f.encodeFloat32Slow(x, m, sat)
					if m == RTE && f.valid() {
						continue // the specialised path, checked above
					}
					if got := f.EncodeFloat32(x, m, sat); got != want {
						t.Errorf("Format(%d).EncodeFloat32(%v, %d, %v) = %#02x, want %#02x", f, x, m, sat, got, want)
					}
				}
			}
		}
	}
	if got := Format(0).EncodeFloat32(1, RTE, false); got != 0 {
		t.Errorf("invalid format encodes 1 to %#02x, want 0", got)
	}
}

// TestRNEConsts checks the literals the specialised encoders pass to
// rneMag against their derivation, through the one place each appears.
func TestRNEConsts(t *testing.T) {
	for _, f := range []Format{E2M1, E2M3, E3M2, E4M3, E5M2} {
		in := f.info()
		sh, half, rebias, minNormal, magic, magicBits := rneConsts(uint32(in.manBits), uint32(in.float.bias))
		p := &in.float
		if sh != uint32(p.shift32) || rebias != p.rebias32 || minNormal != p.minNormal32 || magic != p.subMagic32 ||
			magicBits != math.Float32bits(magic) || half != 1<<(sh-1)-1 {
			t.Errorf("%v: rneConsts disagrees with newFloatParams", f)
		}
		// rneMag with these constants must agree with the specialised
		// encoder on every magnitude class (the encoders embed literals).
		for _, u := range rteProbe(f, 1<<20+7) {
			a := u & 0x7FFFFFFF
			if a >= 0x7F800000 {
				continue
			}
			code := min(rneMag(a, sh, half, rebias, minNormal, magic, magicBits), p.maxMag) | u>>31*p.signBit
			if want := uint32(f.EncodeFloat32(math.Float32frombits(u), RTE, true)); code != want {
				t.Fatalf("%v: rneMag(%#08x) = %#02x, want %#02x", f, u, code, want)
			}
		}
	}
}
