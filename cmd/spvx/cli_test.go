package main

import (
	"strings"
	"testing"
)

// TestParseArgs: flags go before, between or after positional arguments,
// "--" ends them, "-" and negative numbers are positional.
func TestParseArgs(t *testing.T) {
	tests := []struct {
		args    []string
		pos     string
		o       string
		b       bool
		errText string
	}{
		{[]string{"a", "-o", "x", "b"}, "a b", "x", false, ""},
		{[]string{"--o=x", "a", "--b"}, "a", "x", true, ""},
		{[]string{"a", "--", "-o", "-b"}, "a -o -b", "", false, ""},
		{[]string{"-", "-1.5", "-inf"}, "- -1.5 -inf", "", false, ""},
		{[]string{"-o", "-b"}, "", "-b", false, ""}, // a value flag takes the next argument
		{[]string{"a", "-o"}, "", "", false, "flag -o needs a value"},
		{[]string{"--bb"}, "", "", false, "unknown flag --bb; did you mean -b?"},
		{[]string{"--b=maybe"}, "", "", false, `invalid value "maybe" for flag -b: parse error`},
		{[]string{"--outptu"}, "", "", false, "unknown flag --outptu; did you mean --output?"},
	}
	for _, tc := range tests {
		fs := newFlagSet("t", "spvx t", stdio{})
		o := fs.String("o", "", "")
		b := fs.Bool("b", false, "")
		fs.String("output", "", "")
		pos, err := fs.parseArgs(tc.args)
		if tc.errText != "" {
			if err == nil || err.Error() != tc.errText {
				t.Errorf("%q: error %v, want %q", tc.args, err, tc.errText)
			}
			continue
		}
		if err != nil || strings.Join(pos, " ") != tc.pos || *o != tc.o || *b != tc.b {
			t.Errorf("%q: pos %q, -o %q, -b %v, err %v; want %q, %q, %v", tc.args, pos, *o, *b, err, tc.pos, tc.o, tc.b)
		}
	}
}

// TestEveryCommandHelp: -h and --help print to stdout and exit 0 for every
// command; an unknown flag is one line on stderr naming the command and
// the flag, exit 2.
func TestEveryCommandHelp(t *testing.T) {
	for _, c := range commands {
		for _, h := range []string{"-h", "--help"} {
			out, errs, code := runCLI(t, nil, c.name, h)
			if code != exitOK || !strings.Contains(out, "usage") || errs != "" {
				t.Errorf("spvx %s %s: exit %d, stdout %.40q, stderr %q", c.name, h, code, out, errs)
			}
		}
		if c.name == "mx" {
			continue // mx takes a subcommand first (TestMXHelpOnce)
		}
		out, errs, code := runCLI(t, nil, c.name, "--bogus-flag")
		want := "spvx " + c.name + ": unknown flag --bogus-flag (run 'spvx " + c.name + " --help')\n"
		if code != exitUsage || errs != want || out != "" {
			t.Errorf("spvx %s --bogus-flag: exit %d, stdout %q, stderr %q; want %q", c.name, code, out, errs, want)
		}
	}
}

func TestUnknownCommandSuggests(t *testing.T) {
	_, errs, code := runCLI(t, nil, "dsi")
	if code != exitUsage || errs != "spvx: unknown command \"dsi\"; did you mean \"dis\"? (run 'spvx --help')\n" {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		d    int
	}{{"", "abc", 3}, {"kitten", "sitting", 3}, {"target-env", "taget-env", 1}, {"ab", "ba", 1}, {"dsi", "dis", 1}} {
		if d := editDistance(tc.a, tc.b); d != tc.d {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.a, tc.b, d, tc.d)
		}
	}
}

// TestMXOneHelpPage: quantize and dequantize list the flags of both forms,
// whatever -i and -o are.
func TestMXOneHelpPage(t *testing.T) {
	for sub, flags := range map[string][]string{
		"quantize":   {"--layout", "--include", "--exclude", "--stats", "--block", "--round"},
		"dequantize": {"--dtype", "--force"},
	} {
		out, _, code := runCLI(t, nil, "mx", sub, "--help")
		for _, f := range flags {
			if code != exitOK || !strings.Contains(out, "\n  "+f) {
				t.Errorf("spvx mx %s --help lacks %s:\n%s", sub, f, out)
			}
		}
	}
}

// TestValueSyntaxes: spirv-val's --max-* (positive, decimal, 0x or 0
// octal as ParseNumber) and SIZE:ALIGN values, with nothing trailing.
func TestValueSyntaxes(t *testing.T) {
	for in, want := range map[string]uint32{"5": 5, "0x10": 16, "010": 8, "4294967295": 1<<32 - 1, "0": 0, "5abc": 0, "-1": 0, "4294967296": 0} {
		got, err := parsePositive(in)
		if (err == nil) != (want != 0) || got != want {
			t.Errorf("parsePositive(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for in, ok := range map[string]bool{"1.1": true, "1.10": true, "1": false, "1.1x": false, "1.": false, "a.b": false, "-1.0": false} {
		if err := checkVersionForm(in); (err == nil) != ok {
			t.Errorf("checkVersionForm(%q) = %v", in, err)
		}
	}
	for in, want := range map[string][2]uint32{"4:8": {4, 8}, "4": {}, "0:4": {}, "4:0": {}, "4:8x": {}, ":": {}} {
		s, a, err := parseSizeAlign(in)
		if (err == nil) != (want[0] != 0) || s != want[0] || a != want[1] {
			t.Errorf("parseSizeAlign(%q) = %d, %d, %v; want %v", in, s, a, err, want)
		}
	}
}
