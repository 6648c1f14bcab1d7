package main

import (
	"reflect"
	"strings"
	"testing"
)

// TestMatchOutput checks the README test's comparison: "..." lines, the
// duration rule, and that anything else must be equal.
func TestMatchOutput(t *testing.T) {
	tests := []struct {
		want, got string
		ok        bool
	}{
		{"a\nb\n", "a\nb\n", true},
		{"a\nb\n", "a\nc\n", false},
		{"a\n", "a\nb\n", false}, // unshown output fails
		{"", "a\n", false},
		{"", "", true},
		{"a\n...\nd\n", "a\nb\nc\nd\n", true},
		{"a\n...\nd\n", "a\nd\n", true},
		{"a\n   ...\n", "a\nb\nc\n", true},
		{"a\n...\nd\n", "a\nb\nc\n", false},
		{"PASS x (0.00 s)\n2 passed (0.01 s)\n", "PASS x (1.25 s)\n2 passed (13 s)\n", true},
		{"done; 0.09s\n", "done; 12.5s\n", true},
		{"0 skipped (0.00 s)\n", "1 skipped (0.00 s)\n", false},
		{"took 1 ms\n", "took 2 ms\n", false}, // only seconds are durations
	}
	for _, tt := range tests {
		if got := matchOutput(splitLines(tt.want), splitLines(tt.got)); got != tt.ok {
			t.Errorf("matchOutput(%q, %q) = %v, want %v", tt.want, tt.got, got, tt.ok)
		}
	}
}

// TestShellWords checks the quoting rules of "$ " lines.
func TestShellWords(t *testing.T) {
	words, comment, err := shellWords(`spvx mx quantize --exclude '*norm*,*embed*' --values "0x1;0x2" a\ b  # exit status 1`)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"spvx", "mx", "quantize", "--exclude", "*norm*,*embed*", "--values", "0x1;0x2", "a b"}
	if !reflect.DeepEqual(words, want) || comment != "exit status 1" {
		t.Errorf("got %q, comment %q", words, comment)
	}
	if _, _, err := shellWords(`spvx 'open`); err == nil {
		t.Error("an unterminated quote is accepted")
	}
}

// TestParseDocExamples checks the translation of a document's blocks
// into scripts, and the errors that keep examples from being left out.
func TestParseDocExamples(t *testing.T) {
	doc := "text\n```\n$ spvx as x.spvasm \\\n    -o x.spv   # exit status 1\nx.spvasm:1:1: bad\n" +
		"$ spvx dis x.spv | spvx info -\n...\n$ cd ../shared/c\n$ spvx dis - < y.spv\n```\n" +
		"```\nspvx as [options] FILE...\n```\n"
	exs, err := parseDocExamples("t.md", doc)
	if err != nil {
		t.Fatal(err)
	}
	if len(exs) != 1 || !exs[0].shared || exs[0].mkckpt {
		t.Fatalf("got %d examples: %+v", len(exs), exs)
	}
	script := exs[0].script
	for _, line := range []string{
		"exec-status 1 spvx 'as' 'x.spvasm' '-o' 'x.spv'\nreadme-output 't.md:3 (spvx as x.spvasm -o x.spv)'\n",
		"exec-status 0 spvx 'dis' 'x.spv'\ncp stdout $WORK/.pipe\nstdin $WORK/.pipe\nexec-status 0 spvx 'info' '-'\n",
		"cd $SHARED/c\n",
		"stdin 'y.spv'\nexec-status 0 spvx 'dis' '-'\n",
	} {
		if !strings.Contains(script, line) {
			t.Errorf("script lacks %q:\n%s", line, script)
		}
	}
	if w := exs[0].want["t.md:3 (spvx as x.spvasm -o x.spv)"]; w != "x.spvasm:1:1: bad\n" {
		t.Errorf("expected output %q", w)
	}
	for _, bad := range []string{
		"```\n$ ls\n```\n",                        // not a command the test runs
		"```\nout\n$ spvx info x.spv\n```\n",      // output before a command
		"```sh\nspvx info x.spv\n```\n",           // a spvx command to type, untested
		"```\n$ spvx info x.spv > out.txt\n```\n", // a redirection the test cannot do
	} {
		if _, err := parseDocExamples("t.md", bad); err == nil {
			t.Errorf("%q is accepted", bad)
		}
	}
}
