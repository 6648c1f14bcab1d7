package numtext

import (
	"math"
	"slices"
	"testing"

	"spvx/spirv"
)

var (
	u8    = spirv.NumberType{Kind: spirv.Unsigned, Width: 8}
	u16   = spirv.NumberType{Kind: spirv.Unsigned, Width: 16}
	u32   = spirv.NumberType{Kind: spirv.Unsigned, Width: 32}
	u64   = spirv.NumberType{Kind: spirv.Unsigned, Width: 64}
	i8    = spirv.NumberType{Kind: spirv.Signed, Width: 8}
	i16   = spirv.NumberType{Kind: spirv.Signed, Width: 16}
	i32   = spirv.NumberType{Kind: spirv.Signed, Width: 32}
	i64   = spirv.NumberType{Kind: spirv.Signed, Width: 64}
	f16   = spirv.NumberType{Kind: spirv.Float, Width: 16}
	f32   = spirv.NumberType{Kind: spirv.Float, Width: 32}
	f64   = spirv.NumberType{Kind: spirv.Float, Width: 64}
	bf16  = enc(16, spirv.FPEncodingBFloat16KHR)
	fe4m3 = enc(8, spirv.FPEncodingFloat8E4M3EXT)
	fe5m2 = enc(8, spirv.FPEncodingFloat8E5M2EXT)
	fe2m3 = enc(6, spirv.FPEncodingFloat6E2M3EXT)
	fe3m2 = enc(6, spirv.FPEncodingFloat6E3M2EXT)
	fe2m1 = enc(4, spirv.FPEncodingFloat4E2M1EXT)
	fe8m0 = enc(8, spirv.FPEncodingFloat8UnsignedE8M0EXT)
	fmx8  = enc(8, spirv.FPEncodingMXInt8EXT)
)

func enc(w uint8, e spirv.FPEncoding) spirv.NumberType {
	return spirv.NumberType{Kind: spirv.Float, Width: w, HasEncoding: true, Encoding: e}
}

func TestFormat(t *testing.T) {
	tests := []struct {
		nt    spirv.NumberType
		words []uint32
		want  string
	}{
		{u32, []uint32{4294967295}, "4294967295"},
		{i32, []uint32{0xFFFFFFFF}, "-1"},
		{i8, []uint32{0xFFFFFF80}, "-128"},
		{i8, []uint32{0x80}, "-128"}, // high bits ignored
		{u8, []uint32{0xFFFFFFFF}, "255"},
		{i16, []uint32{0x7FFF}, "32767"},
		{u64, []uint32{0, 1}, "4294967296"},
		{i64, []uint32{0xFFFFFFFF, 0xFFFFFFFF}, "-1"},
		{f32, []uint32{0}, "0"},
		{f32, []uint32{0x80000000}, "-0"},
		{f32, []uint32{0x3f800000}, "1"},
		{f32, []uint32{0x3dcccccd}, "0.100000001"},
		{f32, []uint32{0x7f800000}, "0x1p+128"},
		{f32, []uint32{0xff800000}, "-0x1p+128"},
		{f32, []uint32{0x7fc00000}, "0x1.8p+128"},
		{f32, []uint32{0x000116C2}, "0x1.16c2p-133"},
		{f32, []uint32{1}, "0x1p-149"},
		{f32, []uint32{0x3727c5ac}, "9.99999975e-06"},
		{f32, []uint32{0x4eef0c6c}, "2.00528435e+09"},
		{f64, []uint32{0x9999999a, 0x3fb99999}, "0.10000000000000001"},
		{f64, []uint32{0, 0x3ff00000}, "1"},
		{f16, []uint32{0x3c00}, "0x1p+0"},
		{f16, []uint32{0}, "0x0p+0"},
		{f16, []uint32{0x8000}, "-0x0p+0"},
		{f16, []uint32{0x7bff}, "0x1.ffcp+15"},
		{f16, []uint32{0x7c00}, "0x1p+16"},
		{f16, []uint32{0x0001}, "0x1p-24"},
		{bf16, []uint32{0x3f80}, "0x1p+0"},
		{bf16, []uint32{0x3fc1}, "0x1.82p+0"},
		{fe4m3, []uint32{0x7F}, "0x1.ep+8"},
		{fe4m3, []uint32{0xFF}, "-0x1.ep+8"},
		{fe4m3, []uint32{0x07}, "0x1.cp-7"},
		{fe4m3, []uint32{0x7E}, "0x1.cp+8"},
		{fe5m2, []uint32{0x7C}, "0x1p+16"},
		{fe5m2, []uint32{0x7D}, "0x1.4p+16"},
		{fe5m2, []uint32{0x7E}, "0x1.8p+16"},
		{fe5m2, []uint32{0x7F}, "0x1.cp+16"},
		{fe2m1, []uint32{0x0}, "0x0p+0"},
		{fe2m1, []uint32{0x1}, "0x1p-1"},
		{fe2m1, []uint32{0x3}, "0x1.8p+0"},
		{fe2m1, []uint32{0x7}, "0x1.8p+2"},
		{fe2m1, []uint32{0x9}, "-0x1p-1"},
		{fe2m1, []uint32{0x8}, "-0x0p+0"},
		{fe2m3, []uint32{0x01}, "0x1p-3"},
		{fe2m3, []uint32{0x07}, "0x1.cp-1"},
		{fe2m3, []uint32{0x0B}, "0x1.6p+0"},
		{fe2m3, []uint32{0x1F}, "0x1.ep+2"},
		{fe3m2, []uint32{0x01}, "0x1p-4"},
		{fe3m2, []uint32{0x03}, "0x1.8p-3"},
		{fe3m2, []uint32{0x04}, "0x1p-2"},
		{fe3m2, []uint32{0x1F}, "0x1.cp+4"},
		{fe8m0, []uint32{0x00}, "0x1p-127"},
		{fe8m0, []uint32{0x7F}, "0x1p+0"},
		{fe8m0, []uint32{0xFE}, "0x1p+127"},
		{fe8m0, []uint32{0xFF}, "0x1p+128"},
		{fmx8, []uint32{0x40}, "0x1p+0"},
		{fmx8, []uint32{0x7F}, "0x1.fcp+0"},
		{fmx8, []uint32{0x81}, "-0x1.fcp+0"},
		{fmx8, []uint32{0xFF}, "-0x1p-6"},
		{fmx8, []uint32{0xEE}, "-0x1.2p-2"},
		{fmx8, []uint32{0x00}, "0x0p+0"},
		{fmx8, []uint32{0x80}, "-0x1p+1"},
	}
	for _, tc := range tests {
		if got := Format(tc.words, tc.nt); got != tc.want {
			t.Errorf("Format(%#x, %+v) = %q, want %q", tc.words, tc.nt, got, tc.want)
		}
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		nt   spirv.NumberType
		text string
		want []uint32
		err  string
	}{
		{u32, "0", []uint32{0}, ""},
		{u32, "4294967295", []uint32{0xFFFFFFFF}, ""},
		{u32, "0X1F", []uint32{31}, ""},
		{u32, "00012", []uint32{10}, ""}, // octal, as C++ streams read it
		{u32, "+5", []uint32{5}, ""},
		{u32, "-1", nil, "Cannot put a negative number in an unsigned literal"},
		{u32, "4294967296", nil, "Integer 4294967296 does not fit in a 32-bit unsigned integer"},
		{u32, "1.5", nil, "Invalid unsigned integer literal: 1.5"},
		{u32, "0x", nil, "Invalid unsigned integer literal: 0x"},
		{u32, "abc", nil, "Invalid unsigned integer literal: abc"},
		{u64, "18446744073709551615", []uint32{0xFFFFFFFF, 0xFFFFFFFF}, ""},
		{u64, "18446744073709551616", nil, "Invalid unsigned integer literal: 18446744073709551616"},
		{u16, "0xFFFF", []uint32{0xFFFF}, ""},
		{u16, "0x10000", nil, "Integer 0x10000 does not fit in a 16-bit unsigned integer"},
		{i32, "-2147483648", []uint32{0x80000000}, ""},
		{i32, "2147483648", nil, "Integer 2147483648 does not fit in a 32-bit signed integer"},
		{i32, "-2147483649", nil, "Integer -2147483649 does not fit in a 32-bit signed integer"},
		{i32, "0xFFFFFFFF", []uint32{0xFFFFFFFF}, ""},
		{i32, "-0x1", []uint32{0xFFFFFFFF}, ""},
		{i16, "0xFFFF", []uint32{0xFFFFFFFF}, ""},
		{i16, "-32769", nil, "Integer -32769 does not fit in a 16-bit signed integer"},
		{i8, "-1", []uint32{0xFFFFFFFF}, ""},
		{i8, "0x80", []uint32{0xFFFFFF80}, ""},
		{i8, "128", nil, "Integer 128 does not fit in a 8-bit signed integer"},
		{i32, "abc", nil, "Invalid unsigned integer literal: abc"},
		{i32, "-abc", nil, "Invalid signed integer literal: -abc"},
		{i64, "-1", []uint32{0xFFFFFFFF, 0xFFFFFFFF}, ""},
		{i64, "-9223372036854775808", []uint32{0, 0x80000000}, ""},
		{f32, "1", []uint32{0x3f800000}, ""},
		{f32, "-0", []uint32{0x80000000}, ""},
		{f32, ".5", []uint32{0x3f000000}, ""},
		{f32, "1.", []uint32{0x3f800000}, ""},
		{f32, "1e-46", []uint32{0}, ""},
		{f32, "1e-40", []uint32{0x000116C2}, ""},
		{f32, "0x1p+128", []uint32{0x7f800000}, ""},
		{f32, "0x1p+129", []uint32{0x7f800000}, ""},
		{f32, "0x1.8p+128", []uint32{0x7fc00000}, ""},
		{f32, "0x1p-150", []uint32{0}, ""},
		{f32, "0x1.8p-149", []uint32{1}, ""},
		{f32, "0x1.fffffffp+127", []uint32{0x7f7fffff}, ""},
		{f32, "0x.8p+1", []uint32{0x3f800000}, ""},
		{f32, "0X1p+0", []uint32{0x3f800000}, ""},
		{f32, "1e40", nil, "Invalid 32-bit float literal: 1e40"},
		{f32, "0x1p", nil, "Invalid 32-bit float literal: 0x1p"},
		{f32, "0x1P+0", nil, "Invalid 32-bit float literal: 0x1P+0"},
		{f32, "0x1", nil, "Invalid 32-bit float literal: 0x1"},
		{f32, "1.0f", nil, "Invalid 32-bit float literal: 1.0f"},
		{f32, "inf", nil, "Invalid 32-bit float literal: inf"},
		{f32, "nan", nil, "Invalid 32-bit float literal: nan"},
		{f32, "1e", nil, "Invalid 32-bit float literal: 1e"},
		{f64, "0.1", []uint32{0x9999999a, 0x3fb99999}, ""},
		{f64, "1e400", nil, "Invalid 64-bit float literal: 1e400"},
		{f64, "0x1p-1075", []uint32{0, 0}, ""},
		{f16, "1.0001", []uint32{0x3c00}, ""},
		{f16, "0.1", []uint32{0x2e66}, ""},
		{f16, "65504", []uint32{0x7bff}, ""},
		{f16, "65535", []uint32{0x7bff}, ""}, // toward zero
		{f16, "65536", nil, "Invalid 16-bit float literal: 65536"},
		{f16, "-65536", nil, "Invalid 16-bit float literal: -65536"},
		{f16, "1e-8", []uint32{0}, ""},
		{f16, "0.0000001", []uint32{1}, ""},
		{f16, "0x1p+17", []uint32{0x7c00}, ""},
		{f16, "0x1.2p+16", []uint32{0x7c80}, ""},
		{f16, "0x1.fffp+0", []uint32{0x3fff}, ""},
		{f16, "0x1p-25", []uint32{0}, ""},
		{f16, "0x1.8p-24", []uint32{1}, ""},
		{fe2m1, "5", []uint32{0x6}, ""}, // toward zero: 4
		{fe2m1, "4", []uint32{0x6}, ""}, // SPIRV-Tools: 0x7 (bug 1)
		{fe2m1, "6", []uint32{0x7}, ""},
		{fe2m1, "-0.5", []uint32{0x9}, ""},
		{fe2m1, "0.25", []uint32{0x0}, ""},
		{fe2m1, "6.5", nil, "Invalid E2M1 float literal: 6.5"},
		{fe2m1, "0x1p-1", []uint32{0x1}, ""}, // SPIRV-Tools: 0 (bug 3)
		{fe2m1, "0x1.cp+1", []uint32{0x5}, ""},
		{fe2m1, "0x1p+3", nil, "Invalid E2M1 float literal: 0x1p+3"}, // SPIRV-Tools: 4.0 (bug 2)
		{fe2m3, "0x1p-3", []uint32{0x01}, ""},
		{fe2m3, "0x1.cp-1", []uint32{0x07}, ""},
		{fe2m3, "7.5", []uint32{0x1F}, ""},
		{fe2m3, "4", []uint32{0x18}, ""},
		{fe3m2, "0x1p-4", []uint32{0x01}, ""},
		{fe3m2, "16", []uint32{0x1C}, ""},
		{fe3m2, "28", []uint32{0x1F}, ""},
		{fe3m2, "28.5", nil, "Invalid E3M2 float literal: 28.5"},
		{fe4m3, "3.3", []uint32{0x45}, ""}, // 3.25, toward zero
		{fe4m3, "256", []uint32{0x78}, ""},
		{fe4m3, "448", []uint32{0x7E}, ""},
		{fe4m3, "449", nil, "Invalid E4M3 float literal: 449"},
		{fe4m3, "0x1.ep+8", []uint32{0x7F}, ""},
		{fe4m3, "0x1p+9", nil, "Invalid E4M3 float literal: 0x1p+9"},
		{fe5m2, "60000", []uint32{0x7B}, ""},
		{fe5m2, "65536", nil, "Invalid E5M2 float literal: 65536"},
		{fe5m2, "0x1p+16", []uint32{0x7C}, ""},
		{fe5m2, "0x1p+17", []uint32{0x7C}, ""},
		{fe8m0, "1", []uint32{127}, ""},
		{fe8m0, "0x1p-127", []uint32{0}, ""},
		{fe8m0, "0x1p+127", []uint32{0xFE}, ""},
		{fe8m0, "0x1p+128", []uint32{0xFF}, ""}, // spvx accepts the NaN's printed form
		{fe8m0, "0.5", []uint32{126}, ""},
		{fe8m0, "1.5", nil, "Invalid E8M0 float literal: 1.5"},
		{fe8m0, "0", nil, "Invalid E8M0 float literal: 0"},
		{fe8m0, "-1", nil, "Invalid E8M0 float literal: -1"},
		{fe8m0, "0x1p-128", nil, "Invalid E8M0 float literal: 0x1p-128"},
		{fe8m0, "0x1p+129", nil, "Invalid E8M0 float literal: 0x1p+129"},
		{fmx8, "1", []uint32{0x40}, ""},
		{fmx8, "-0.0", []uint32{0x00}, ""},
		{fmx8, "1.984375", []uint32{0x7F}, ""},
		{fmx8, "-2.0", []uint32{0x80}, ""}, // spvx accepts 0x80's printed form
		{fmx8, "2.0", nil, "Invalid MXInt8 float literal: 2.0"},
		{fmx8, "0.01", nil, "Invalid MXInt8 float literal: 0.01"},
		{fmx8, "0x1p+7", nil, "Invalid MXInt8 float literal: 0x1p+7"},
		{spirv.NumberType{Kind: spirv.Float, Width: 8}, "1", nil, "Unsupported 8-bit float literals"},
	}
	for _, tc := range tests {
		got, err := Parse(tc.text, tc.nt)
		switch {
		case tc.err != "":
			if err == nil || err.Error() != tc.err {
				t.Errorf("Parse(%q, %+v) error = %v, want %q", tc.text, tc.nt, err, tc.err)
			}
		case err != nil:
			t.Errorf("Parse(%q, %+v) error = %v", tc.text, tc.nt, err)
		case !slices.Equal(got, tc.want):
			t.Errorf("Parse(%q, %+v) = %#x, want %#x", tc.text, tc.nt, got, tc.want)
		}
	}
}

// TestEveryCodeRoundTrips checks, for every code of every 4-, 6-, 8- and
// 16-bit type, that the printed text parses back to the same word.
func TestEveryCodeRoundTrips(t *testing.T) {
	types := []spirv.NumberType{u8, i8, u16, i16, f16, bf16, fe4m3, fe5m2, fe2m3, fe3m2, fe2m1, fe8m0, fmx8}
	for _, nt := range types {
		n := uint32(1) << nt.Width
		for code := uint32(0); code < n; code++ {
			word := code
			if nt.Kind == spirv.Signed {
				word = uint32(int32(code<<(32-nt.Width)) >> (32 - nt.Width))
			}
			text := Format([]uint32{word}, nt)
			got, err := Parse(text, nt)
			if err != nil || len(got) != 1 || got[0] != word {
				t.Errorf("%+v code %#x: printed %q, parsed back %#x, %v", nt, code, text, got, err)
			}
		}
	}
}

// TestFloat32RoundTrip samples binary32 and binary64 patterns: normal
// values print in decimal with enough digits to come back exactly.
func TestFloat32RoundTrip(t *testing.T) {
	x := uint32(12345)
	for i := 0; i < 200000; i++ {
		x = x*1664525 + 1013904223
		w := x
		if i%7 == 0 {
			w &= 0x807FFFFF // subnormals and zeros
		}
		text := Format([]uint32{w}, f32)
		got, err := Parse(text, f32)
		f := math.Float32frombits(w)
		if f != f { // NaN payloads survive through hex
			if err != nil || got[0] != w {
				t.Fatalf("NaN %#x: %q -> %#x %v", w, text, got, err)
			}
			continue
		}
		if err != nil || got[0] != w {
			t.Fatalf("%#x: %q -> %#x %v", w, text, got, err)
		}
		lo, hi := x*2654435761, x^0x9e3779b9
		text = Format([]uint32{lo, hi}, f64)
		got, err = Parse(text, f64)
		if err != nil || got[0] != lo || got[1] != hi {
			t.Fatalf("f64 %#x %#x: %q -> %#x %v", lo, hi, text, got, err)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"0", "-1", "0x1p+0", "1e40", "0x1.8p-149", "00012", ".5", "-0x1.fcp+0", "0x1p+128"} {
		f.Add(s, uint8(32), uint8(3), uint16(0))
	}
	f.Fuzz(func(t *testing.T, text string, width, kind uint8, encoding uint16) {
		nt := spirv.NumberType{Kind: spirv.NumberKind(kind % 4), Width: width%64 + 1}
		if encoding%2 == 1 {
			nt.HasEncoding, nt.Encoding = true, spirv.FPEncoding(4214+encoding%14)
		}
		words, err := Parse(text, nt)
		if err != nil {
			return
		}
		// Whatever parses must print and parse back to the same words.
		again, err := Parse(Format(words, nt), nt)
		if err != nil || !slices.Equal(again, words) {
			t.Fatalf("%q %+v: %#x printed %q reparsed %#x %v", text, nt, words, Format(words, nt), again, err)
		}
	})
}

func TestDecimal(t *testing.T) {
	tests := []struct {
		s         string
		max       uint64
		canonical bool
		want      uint64
		ok        bool
	}{
		{"0", 10, true, 0, true},
		{"7", 10, true, 7, true},
		{"10", 10, true, 10, true},
		{"11", 10, true, 0, false},
		{"7", 5, false, 0, false}, // a digit above max
		{"007", 10, false, 7, true},
		{"007", 10, true, 0, false},
		{"00", 10, true, 0, false},
		{"", 10, false, 0, false},
		{"-1", 10, false, 0, false},
		{"+1", 10, false, 0, false},
		{"1a", 100, false, 0, false},
		{" 1", 100, false, 0, false},
		{"4294967295", 1<<32 - 1, true, 1<<32 - 1, true},
		{"4294967296", 1<<32 - 1, true, 0, false},
		{"18446744073709551615", ^uint64(0), true, ^uint64(0), true},
		{"18446744073709551616", ^uint64(0), true, 0, false},
		{"99999999999999999999999", ^uint64(0), false, 0, false},
		{"0", 0, true, 0, true},
		{"1", 0, true, 0, false},
	}
	for _, tc := range tests {
		got, ok := Decimal([]byte(tc.s), tc.max, tc.canonical)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Decimal(%q, %d, %v) = %d, %v; want %d, %v", tc.s, tc.max, tc.canonical, got, ok, tc.want, tc.ok)
		}
	}
}
