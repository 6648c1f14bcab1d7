package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestShuffleValues(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--from", "u32", "--to", "2xu16", "--subgroup", "8", "--values",
			"0x00010000;0x00030002;0x00050004;0x00070006;0x00090008;0x000b000a;0x000d000c;0x000f000e"},
			"0: 0,8\n1: 1,9\n2: 2,10\n3: 3,11\n4: 4,12\n5: 5,13\n6: 6,14\n7: 7,15\n"},
		{[]string{"--from", "4xu8", "--to", "u32", "--subgroup", "4", "--json", "--values", "0,1,2,3;4,5,6,7;8,9,10,11;12,13,14,15"},
			"[[201851904],[218694913],[235537922],[252380931]]\n"}, // 0|4|8|12 = 0x0c080400
		{[]string{"--from", "2xi16", "--to", "i32", "--subgroup", "2", "--values", "-1,2;3,-4"},
			"0: 262143\n1: -262142\n"},
		{[]string{"--from", "u16", "--to", "2xu8", "--subgroup", "1", "--values", "0x1234"}, "0: 52,18\n"},
		// Range ends: decimal by signedness, hex as a bit pattern.
		{[]string{"--from", "2xi8", "--to", "u16", "--subgroup", "1", "--values", "-128,127"}, "0: 32640\n"},
		{[]string{"--from", "2xi8", "--to", "u16", "--subgroup", "1", "--values", "0xff,-0"}, "0: 255\n"},
		{[]string{"--from", "2xu8", "--to", "u16", "--subgroup", "1", "--values", "255,+0x01"}, "0: 511\n"},
		{[]string{"--from", "i64", "--to", "2xi32", "--subgroup", "1", "--values", "-9223372036854775808"}, "0: 0,-2147483648\n"},
		{[]string{"--from", "u64", "--to", "2xu32", "--subgroup", "1", "--values", "18446744073709551615"}, "0: 4294967295,4294967295\n"},
	}
	for _, tc := range tests {
		out, errs, code := runCLI(t, nil, append([]string{"shuffle"}, tc.args...)...)
		if code != exitOK || out != tc.want {
			t.Errorf("spvx shuffle %s = %q (exit %d %s), want %q", strings.Join(tc.args, " "), out, code, errs, tc.want)
		}
	}
}

func TestShuffleSourcesAndSVG(t *testing.T) {
	svg := filepath.Join(t.TempDir(), "s.svg")
	out, errs, code := runCLI(t, nil, "shuffle", "--from", "2xu16", "--to", "u32", "--subgroup", "2", "--svg", svg)
	want := "0          0         [31:16]  <- 1          0         [15:0]\n"
	if code != exitOK || !strings.Contains(out, want) || strings.Count(out, "\n") != 6 {
		t.Errorf("exit %d %s\n%s", code, errs, out)
	}
	// The grid: 2 invocations × 4 byte cells of the result, each
	// labelled with its source.
	b, err := os.ReadFile(svg)
	if err != nil || strings.Count(string(b), `class="dst"`) != 8 || !strings.Contains(string(b), ">1.0</text>") {
		t.Errorf("SVG: %v\n%s", err, b)
	}
	_, errs, code = runCLI(t, nil, "shuffle", "--from", "2xu16", "--to", "u32", "--subgroup", "2", "--svg", svg, "--style", "lines")
	b, _ = os.ReadFile(svg)
	if code != exitOK || strings.Count(string(b), `class="arrow"`) != 4 {
		t.Errorf("lines: exit %d %s\n%s", code, errs, b)
	}
	if _, errs, code = runCLI(t, nil, "shuffle", "--from", "2xu16", "--to", "u32", "--subgroup", "2", "--svg", svg, "--style", "dots"); code != exitUsage {
		t.Errorf("--style dots: exit %d %s", code, errs)
	}
}

func TestShuffleRejects(t *testing.T) {
	tests := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"--from", "f32", "--to", "2xu16", "--subgroup", "4"}, exitRejected, "not in the Supported Types table"},
		{[]string{"--from", "u32", "--to", "u16", "--subgroup", "4"}, exitRejected, "The total number of bits in Result Type must equal"},
		{[]string{"--from", "u32", "--to", "u32", "--subgroup", "4"}, exitRejected, "Operand must have a different type than Result Type"},
		{[]string{"--from", "2xu32", "--to", "2xi32", "--subgroup", "4"}, exitRejected, "same number of components"},
		{[]string{"--from", "u32", "--to", "2xu16", "--subgroup", "2", "--values", "1;2;3"}, exitRejected, "3 invocations"},
		{[]string{"--from", "u16", "--to", "2xu8", "--subgroup", "1", "--values", "70000"}, exitRejected, "does not fit"},
		{[]string{"--from", "2xu8", "--to", "u16", "--subgroup", "1", "--values", "-1,0"}, exitRejected, "-1 is negative, but u8 is unsigned"},
		{[]string{"--from", "u32", "--to", "2xu16", "--subgroup", "1", "--values", "-4294967295"}, exitRejected, "is negative, but u32 is unsigned"},
		{[]string{"--from", "2xu8", "--to", "u16", "--subgroup", "1", "--values", "256,0"}, exitRejected, "256 does not fit 8 bits"},
		{[]string{"--from", "2xi8", "--to", "u16", "--subgroup", "1", "--values", "128,0"}, exitRejected, "128 does not fit i8 (at most 127"},
		{[]string{"--from", "2xi8", "--to", "u16", "--subgroup", "1", "--values", "-129,0"}, exitRejected, "-129 does not fit i8 (at least -128)"},
		{[]string{"--from", "2xi8", "--to", "u16", "--subgroup", "1", "--values", "0x100,0"}, exitRejected, "0x100 does not fit 8 bits"},
		{[]string{"--from", "2xi8", "--to", "u16", "--subgroup", "1", "--values", "-0x1,0"}, exitRejected, "bit pattern and cannot be negative"},
		{[]string{"--from", "u64", "--to", "2xu32", "--subgroup", "1", "--values", "18446744073709551616"}, exitRejected, "does not fit 64 bits"},
		{[]string{"--from", "i64", "--to", "2xu32", "--subgroup", "1", "--values", "-9223372036854775809"}, exitRejected, "does not fit 64 bits"},
		{[]string{"--from", "2xu8", "--to", "u16", "--subgroup", "1", "--values", "1x,0"}, exitRejected, "bad value"},
		{[]string{"--from", "q9", "--to", "u32", "--subgroup", "1"}, exitUsage, "bad type"},
		{[]string{"--from", "u32", "--to", "2xu16"}, exitUsage, "required"},
	}
	for _, tc := range tests {
		_, errs, code := runCLI(t, nil, append([]string{"shuffle"}, tc.args...)...)
		if code != tc.code || !strings.Contains(errs, tc.msg) {
			t.Errorf("spvx shuffle %s: exit %d %q, want %d containing %q", strings.Join(tc.args, " "), code, errs, tc.code, tc.msg)
		}
	}
	if out, _, code := runCLI(t, nil, "shuffle", "--help"); code != exitOK || !strings.Contains(out, "usage: spvx shuffle") {
		t.Errorf("--help: %d %q", code, out)
	}
}
