package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const grammarDir = "../../../../shared/spirv-headers"

func requireGrammar(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(grammarDir, "spirv.core.grammar.json")); err != nil {
		t.Skipf("Khronos grammar not found at %s (%v): skipping", grammarDir, err)
	}
}

// TestGeneratedFileIsCurrent regenerates spirv/grammar_gen.go in memory and
// fails on any difference from the committed file.
func TestGeneratedFileIsCurrent(t *testing.T) {
	requireGrammar(t)
	m, err := load(grammarDir, "../../../spirv/grammar/overlay.json")
	if err != nil {
		t.Fatal(err)
	}
	got, err := generate(m)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("../../../spirv/grammar_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("spirv/grammar_gen.go is stale: run go generate ./spirv")
	}
	first, _, _ := strings.Cut(string(got), "\n")
	if !regexp.MustCompile(`^// Code generated .* DO NOT EDIT\.$`).MatchString(first) {
		t.Errorf("first line %q lacks the generated-code marker", first)
	}
	if !strings.Contains(string(got), "revision 7") || !strings.Contains(string(got), "overlay.json") {
		t.Error("header does not record the grammar revision and the inputs")
	}
}

// miniGrammar writes a small grammar folder for the merge tests.
func miniGrammar(t *testing.T, overlay string) (dir, overlayPath string) {
	dir = t.TempDir()
	core := `{"major_version": 1, "minor_version": 6, "revision": 7,
	 "instructions": [
	  {"opname": "OpNop", "class": "Miscellaneous", "opcode": 0, "version": "1.0"},
	  {"opname": "OpCapability", "class": "Mode-Setting", "opcode": 17, "operands": [{"kind": "Capability", "name": "'Capability'"}], "version": "1.0"}
	 ],
	 "operand_kinds": [
	  {"category": "Id", "kind": "IdResultType"}, {"category": "Id", "kind": "IdResult"}, {"category": "Id", "kind": "IdRef"},
	  {"category": "ValueEnum", "kind": "Capability", "enumerants": [
	    {"enumerant": "Shader", "value": 1, "version": "1.0"},
	    {"enumerant": "MXInt8EXT", "value": 4231, "version": "None"}]},
	  {"category": "ValueEnum", "kind": "FPEncoding", "enumerants": [
	    {"enumerant": "MXInt8EXT", "value": 4227, "capabilities": ["MXInt8EXT"], "version": "None"}]}
	 ]}`
	if err := os.WriteFile(filepath.Join(dir, "spirv.core.grammar.json"), []byte(core), 0o644); err != nil {
		t.Fatal(err)
	}
	overlayPath = filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(overlayPath, []byte(overlay), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, overlayPath
}

func TestOverlay(t *testing.T) {
	tests := []struct {
		name, overlay string
		wantErr       string   // substring; "" means success
		wantInOutput  []string // substrings of the generated source
	}{
		{
			name: "new entries merge",
			overlay: `{"instructions": [{"opname": "OpSubgroupBitcastShuffleINTEL", "class": "Group", "opcode": 6208,
			  "operands": [{"kind": "IdResultType"}, {"kind": "IdResult"}, {"kind": "IdRef", "name": "Operand"}],
			  "capabilities": ["SubgroupBitcastShuffleINTEL"], "version": "None", "source": "SPV_INTEL_subgroup_bitcast_shuffle"}],
			 "operand_kinds": [{"kind": "Capability", "enumerants": [{"enumerant": "SubgroupBitcastShuffleINTEL", "value": 6207,
			  "extensions": ["SPV_INTEL_subgroup_bitcast_shuffle"], "version": "None", "source": "SPV_INTEL_subgroup_bitcast_shuffle"}]}]}`,
			wantInOutput: []string{
				"OpSubgroupBitcastShuffleINTEL Opcode = 6208",
				"CapabilitySubgroupBitcastShuffleINTEL Capability = 0x183f",
				`Capabilities: []Capability{CapabilitySubgroupBitcastShuffleINTEL}, Extensions: nil, Version: VersionNone, LastVersion: 0, Aliases: nil, Provisional: false, FromOverlay: true`,
			},
		},
		{
			name:    "instruction collides by name",
			overlay: `{"instructions": [{"opname": "OpNop", "class": "Miscellaneous", "opcode": 9, "source": "x"}]}`,
			wantErr: "collides with the base grammar's OpNop",
		},
		{
			name:    "instruction collides by opcode",
			overlay: `{"instructions": [{"opname": "OpOther", "class": "Miscellaneous", "opcode": 17, "source": "x"}]}`,
			wantErr: "collides with the base grammar's OpCapability",
		},
		{
			name:    "enumerant collides",
			overlay: `{"operand_kinds": [{"kind": "Capability", "enumerants": [{"enumerant": "Shader", "value": 99, "source": "x"}]}]}`,
			wantErr: "Capability Shader (99) collides",
		},
		{
			name:         "replacement is allowed when marked",
			overlay:      `{"operand_kinds": [{"kind": "Capability", "enumerants": [{"enumerant": "Shader", "value": 1, "version": "1.1", "source": "x", "replace": true}]}]}`,
			wantInOutput: []string{`{Name: "Shader", Value: 0x1, Aliases: nil, Parameters: nil, Capabilities: nil, Extensions: nil, Version: 0x010100, LastVersion: 0, Provisional: false, FromOverlay: true}`},
		},
		{
			name:    "replace of a missing entry",
			overlay: `{"instructions": [{"opname": "OpNew", "class": "Miscellaneous", "opcode": 7000, "source": "x", "replace": true}]}`,
			wantErr: "marked \"replace\" but the base grammar has no such instruction",
		},
		{
			name:    "source is required",
			overlay: `{"instructions": [{"opname": "OpNew", "class": "Miscellaneous", "opcode": 7000}]}`,
			wantErr: "missing \"source\"",
		},
		{
			name:    "unknown fields are rejected in the overlay",
			overlay: `{"instructions": [{"opname": "OpNew", "opcod": 7000, "source": "x"}]}`,
			wantErr: "unknown field",
		},
		{
			name:    "unknown capability",
			overlay: `{"instructions": [{"opname": "OpNew", "class": "Miscellaneous", "opcode": 7000, "capabilities": ["Nope"], "source": "x"}]}`,
			wantErr: `unknown capability "Nope"`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir, ov := miniGrammar(t, tc.overlay)
			m, err := load(dir, ov)
			var src []byte
			if err == nil {
				src, err = generate(m)
			}
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error = %v, want it to contain %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range tc.wantInOutput {
				if !strings.Contains(string(src), s) {
					t.Errorf("generated source lacks %q", s)
				}
			}
		})
	}
}

// TestNamesAreKeyedByKind: the same enumerant name in two kinds gets two
// constants and two name tables.
func TestNamesAreKeyedByKind(t *testing.T) {
	dir, ov := miniGrammar(t, `{}`)
	m, err := load(dir, ov)
	if err != nil {
		t.Fatal(err)
	}
	src, err := generate(m)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"CapabilityMXInt8EXT Capability = 0x1087", "FPEncodingMXInt8EXT FPEncoding = 0x1083",
		`Capabilities: []Capability{CapabilityMXInt8EXT}`, `{"MXInt8EXT", 0}`, `{"MXInt8EXT", 1}`} {
		if !strings.Contains(string(src), s) {
			t.Errorf("generated source lacks %q", s)
		}
	}
}

func TestIdent(t *testing.T) {
	for in, want := range map[string]string{"1D": "1D", "Rgba32f": "Rgba32f", "a-b.c": "a_b_c"} {
		if got := ident(in); got != want {
			t.Errorf("ident(%q) = %q, want %q", in, got, want)
		}
	}
}
