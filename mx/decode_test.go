package mx

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// formatValue prints a value the way the CLI contract does.
func formatValue(v float64) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	case v == 0 && math.Signbit(v):
		return "-0"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// TestDecodeGolden decodes every code of every format and compares with
// testdata/decode.golden, which -update regenerates; review its diff.
func TestDecodeGolden(t *testing.T) {
	var buf bytes.Buffer
	for _, f := range Formats {
		for c := range f.Codes() {
			v := f.Decode(uint8(c))
			if v32 := f.DecodeFloat32(uint8(c)); !(float64(v32) == v || v != v && v32 != v32) {
				t.Errorf("%v: DecodeFloat32(%#02x) = %v, Decode = %v", f, c, v32, v)
			}
			fmt.Fprintf(&buf, "%s 0x%02x %s\n", f, c, formatValue(v))
		}
	}
	path := filepath.Join("testdata", "decode.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("decode table differs from %s; run go test -update and review the diff", path)
	}
}

func TestDecodeKnownValues(t *testing.T) {
	tests := []struct {
		f    Format
		code uint8
		want string
	}{
		{E2M1, 0x0, "0"}, {E2M1, 0x8, "-0"}, {E2M1, 0x1, "0.5"}, {E2M1, 0x2, "1"}, {E2M1, 0x7, "6"}, {E2M1, 0xF, "-6"},
		{E2M3, 0x01, "0.125"}, {E2M3, 0x07, "0.875"}, {E2M3, 0x08, "1"}, {E2M3, 0x1F, "7.5"}, {E2M3, 0x20, "-0"},
		{E3M2, 0x01, "0.0625"}, {E3M2, 0x03, "0.1875"}, {E3M2, 0x04, "0.25"}, {E3M2, 0x1F, "28"}, {E3M2, 0x3F, "-28"},
		{E4M3, 0x01, "0.001953125"}, {E4M3, 0x08, "0.015625"}, {E4M3, 0x7E, "448"}, {E4M3, 0x7F, "NaN"}, {E4M3, 0xFF, "NaN"},
		{E4M3, 0x78, "256"}, {E4M3, 0x80, "-0"}, {E4M3, 0x38, "1"},
		{E5M2, 0x01, "1.52587890625e-05"}, {E5M2, 0x04, "6.103515625e-05"}, {E5M2, 0x7B, "57344"},
		{E5M2, 0x7C, "+Inf"}, {E5M2, 0xFC, "-Inf"}, {E5M2, 0x7D, "NaN"}, {E5M2, 0x7E, "NaN"}, {E5M2, 0xFF, "NaN"}, {E5M2, 0x3C, "1"},
		{E8M0, 0x00, "5.877471754111438e-39"}, {E8M0, 0x7F, "1"}, {E8M0, 0x80, "2"}, {E8M0, 0xFE, "1.7014118346046923e+38"}, {E8M0, 0xFF, "NaN"},
		{MXINT8, 0x00, "0"}, {MXINT8, 0x01, "0.015625"}, {MXINT8, 0x7F, "1.984375"}, {MXINT8, 0x80, "-2"}, {MXINT8, 0xFF, "-0.015625"},
	}
	for _, tc := range tests {
		if got := formatValue(tc.f.Decode(tc.code)); got != tc.want {
			t.Errorf("%v.Decode(%#02x) = %s, want %s", tc.f, tc.code, got, tc.want)
		}
	}
}

// TestDecodeEncodeRoundTrip: every non-NaN code encodes back to itself in
// every mode (exact values need no rounding); MXINT8 has no −0 to lose.
func TestDecodeEncodeRoundTrip(t *testing.T) {
	for _, f := range Formats {
		for c := range f.Codes() {
			v := f.Decode(uint8(c))
			if v != v {
				continue
			}
			for _, m := range modes {
				if got := f.EncodeFloat32(float32(v), m, false); got != uint8(c) {
					t.Errorf("%v: EncodeFloat32(Decode(%#02x) = %v, %v) = %#02x", f, c, v, m, got)
				}
			}
		}
	}
}

func TestFormatParameters(t *testing.T) {
	tests := []struct {
		f                         Format
		bias, emax, bits          int
		max, minNormal, minSubnrm float64
		encoding                  uint32
	}{
		{E2M1, 1, 2, 4, 6, 1, 0.5, 4225},
		{E2M3, 1, 2, 6, 7.5, 1, 0.125, 4223},
		{E3M2, 3, 4, 6, 28, 0.25, 0.0625, 4224},
		{E4M3, 7, 8, 8, 448, math.Ldexp(1, -6), math.Ldexp(1, -9), 4214},
		{E5M2, 15, 15, 8, 57344, math.Ldexp(1, -14), math.Ldexp(1, -16), 4215},
		{E8M0, 127, 127, 8, math.Ldexp(1, 127), math.Ldexp(1, -127), math.Ldexp(1, -127), 4226},
		{MXINT8, 0, 0, 8, 127.0 / 64, 1.0 / 64, 1.0 / 64, 4227},
	}
	for _, tc := range tests {
		f := tc.f
		if f.Bias() != tc.bias || f.EmaxElem() != tc.emax || f.Bits() != tc.bits || f.Max() != tc.max ||
			f.MinNormal() != tc.minNormal || f.MinSubnormal() != tc.minSubnrm || f.FPEncoding() != tc.encoding {
			t.Errorf("%v: bias %d emax %d bits %d max %v minNormal %v minSub %v encoding %d; want %+v",
				f, f.Bias(), f.EmaxElem(), f.Bits(), f.Max(), f.MinNormal(), f.MinSubnormal(), f.FPEncoding(), tc)
		}
	}
}

func TestNaNCodes(t *testing.T) {
	want := map[Format][]uint8{
		E4M3: {0x7f, 0xff},
		E5M2: {0x7d, 0x7e, 0x7f, 0xfd, 0xfe, 0xff},
		E8M0: {0xff},
	}
	for _, f := range Formats {
		got := f.NaNCodes()
		if !reflect.DeepEqual(got, want[f]) {
			t.Errorf("%v.NaNCodes() = %#v, want %#v", f, got, want[f])
		}
		if f.HasNaN() != (len(got) > 0) {
			t.Errorf("%v: HasNaN %v but %d NaN codes", f, f.HasNaN(), len(got))
		}
	}
	if Format(0).NaNCodes() != nil {
		t.Error("an invalid format has NaN codes")
	}
}
