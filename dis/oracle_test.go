package dis

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"spvx/internal/oracle"
	"spvx/spirv"
)

// knownDiff is one way Debian's spirv-dis 2023.1, the differential
// oracle, may differ from current spirv-dis (v2026.4), which spvx follows:
// how the test tolerates it, and why. The test uses every entry: rejected
// is the only oracle failure it accepts, flags the only options it does not
// compare.
type knownDiff struct {
	what, handling, reason string
	rejected               *regexp.Regexp // an oracle error message that may skip a module
	known                  func(m []string) bool
	flags                  []string // spirv-dis flags never compared with the oracle
}

// The entries of knownDiffs, by name.
const (
	diffAliases = iota
	diffNewer
	diffComments
	diffNesting
	diffLongNames
)

var knownDiffs = []knownDiff{
	diffAliases: {
		what:     "alias spelling",
		handling: "normalize: every alias of the current grammar in the oracle's text is replaced by its primary name (aliasNames)",
		reason:   "the 2023 grammar listed aliases as separate enumerants and spirv-dis printed the first by value (RayPayloadNV); the current grammar has one primary name per value (RayPayloadKHR), which current spirv-dis prints",
	},
	diffNewer: {
		what:     "unknown to the oracle",
		handling: "skip the module when the oracle's only complaint is a capability or opcode number that the current grammar has only by extension (core SPIR-V up to 1.6 is all in 2023.1); any other rejection fails the test",
		reason:   "the 2023 tools do not know the capabilities and instructions added since (e.g. Float8EXT, OpBitcastExtractEXT, SPV_INTEL_subgroup_bitcast_shuffle)",
		rejected: regexp.MustCompile(`^error: \d+: Invalid (capability operand|opcode): (\d+)\n?$`),
		known: func(m []string) bool {
			v, err := strconv.ParseUint(m[2], 10, 32)
			if err != nil {
				return false
			}
			// Known to spvx, and only by extension: everything of core
			// SPIR-V up to 1.6, which 2023.1 knows, has a core version.
			if m[1] == "opcode" {
				info := spirv.Opcode(v).Info()
				return info != nil && info.Version == spirv.VersionNone && len(info.Extensions) > 0
			}
			e, ok := spirv.OperandKindCapability.Enumerant(uint32(v))
			return ok && e.Version == spirv.VersionNone && len(e.Extensions) > 0
		},
	},
	diffComments: {
		what:     "--offsets, --comment",
		handling: "not compared with the oracle; covered by golden files",
		reason:   "SPIRV-Tools 2024.3 moved both into one trailing comment aligned at column 50 or more, and --comment gained decoration comments; 2023.1 appends \" ; 0x...\" and \"  ; id %N\"; 2025 capped the carried column at 256 (#6149)",
		flags:    []string{"--offsets", "--comment"},
	},
	diffNesting: {
		what:     "--nested-indent, --reorder-blocks",
		handling: "not compared with the oracle; covered by golden files",
		reason:   "the options appeared in SPIRV-Tools 2024.3",
		flags:    []string{"--nested-indent", "--reorder-blocks"},
	},
	diffLongNames: {
		what:     "friendly names over 256 bytes",
		handling: "the oracle's inputs have none (checked); longNamesModule is covered by golden files and TestLongNames",
		reason:   "SPIRV-Tools #6763 (2026-06) names an id whose suggested name exceeds 256 bytes by its number; 2023.1 prints the whole name",
	},
}

// oracleSkip reports whether the oracle's rejection of a module is the
// known newer-feature difference.
func oracleSkip(stderr []byte) bool {
	d := knownDiffs[diffNewer]
	m := d.rejected.FindStringSubmatch(string(stderr))
	return m != nil && d.known(m)
}

// aliasNames maps each alias of an opcode or enumerant in the current
// grammar to its primary name. Names that are primary somewhere, or alias
// different values, are left out: they cannot be rewritten blindly.
var aliasNames = sync.OnceValue(func() map[string]string {
	primary := map[string]bool{}
	alias := map[string]string{}
	bad := map[string]bool{}
	note := func(a, p string) {
		if q, ok := alias[a]; ok && q != p {
			bad[a] = true
		}
		alias[a] = p
	}
	for _, in := range spirv.Instructions() {
		primary[in.Name] = true
		for _, a := range in.Aliases {
			note(a, in.Name)
		}
	}
	for _, k := range spirv.OperandKinds() {
		for _, e := range k.Enumerants {
			primary[e.Name] = true
			for _, a := range e.Aliases {
				note(a, e.Name)
			}
		}
	}
	for a := range alias {
		if primary[a] || bad[a] {
			delete(alias, a)
		}
	}
	return alias
})

var wordRE = regexp.MustCompile(`[A-Za-z0-9_]+`)

var friendlyNames = regexp.MustCompile(`%[A-Za-z0-9_]+`)

// normalizeAliases rewrites alias spellings in spirv-dis 2023.1 text to the
// primary names, including the storage class inside friendly pointer names
// (%_ptr_RayPayloadNV_float).
func normalizeAliases(text []byte) []byte {
	names := aliasNames()
	return wordRE.ReplaceAllFunc(text, func(w []byte) []byte {
		if p, ok := names[string(w)]; ok {
			return []byte(p)
		}
		if rest, ok := bytes.CutPrefix(w, []byte("_ptr_")); ok {
			for i := 1; i < len(rest); i++ {
				if rest[i] != '_' {
					continue
				}
				if p, ok := names[string(rest[:i])]; ok {
					return []byte("_ptr_" + p + string(rest[i:]))
				}
			}
		}
		return w
	})
}

// oracleConfigs are the option sets compared with the oracle: the spirv-dis
// flags and the equivalent Options. every: compare every n-th module.
var oracleConfigs = []struct {
	flags []string
	opt   Options
	every int
}{
	{nil, Options{}, 1},
	{[]string{"--raw-id"}, Options{RawID: true}, 4},
	{[]string{"--no-header"}, Options{NoHeader: true}, 4},
	{[]string{"--no-indent"}, Options{NoIndent: true}, 4},
	{[]string{"--color"}, Options{Color: true}, 4},
	{[]string{"--color", "--raw-id", "--no-indent"}, Options{Color: true, RawID: true, NoIndent: true}, 4},
}

// TestOracle compares the output with Debian's spirv-dis on the corpus and
// on the modules of testdata, tolerating only knownDiffs.
func TestOracle(t *testing.T) {
	tool := oracle.Require(t, oracle.SpirvDis)
	for _, c := range oracleConfigs {
		for _, d := range knownDiffs {
			for _, f := range d.flags {
				if slices.Contains(c.flags, f) {
					t.Fatalf("oracleConfigs compares %s, which knownDiffs excludes: %s", f, d.reason)
				}
			}
		}
	}
	files, _ := filepath.Glob(filepath.Join(sharedDir, "corpus/valid/*.spv"))
	own, _ := filepath.Glob("testdata/*.spv")
	files = append(files, own...)
	if len(files) == 0 {
		t.Skip("no modules to compare")
	}
	type result struct {
		file     string
		compared int
		rejected int
		errs     []string
	}
	work := make(chan string)
	results := make(chan result)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range work {
				results <- compareWithOracle(tool, f, files)
			}
		}()
	}
	go func() {
		for _, f := range files {
			work <- f
		}
		close(work)
		wg.Wait()
		close(results)
	}()
	var compared, rejected int
	for r := range results {
		compared += r.compared
		rejected += r.rejected
		for _, e := range r.errs {
			t.Errorf("%s: %s", r.file, e)
		}
	}
	t.Logf("%d outputs compared with %s over %d modules; %d skipped (%s)", compared, tool, len(files), rejected, knownDiffs[diffNewer].what)
}

// TestOracleSkipsOnlyNewer: the narrow-float module, which uses
// capabilities newer than the oracle, is the known skip; damaged text is
// not.
func TestOracleSkipsOnlyNewer(t *testing.T) {
	tool := oracle.Require(t, oracle.SpirvDis)
	_, stderr, ok := oracle.Exec(t, tool, narrowModule(), "-")
	if ok || !oracleSkip(stderr) {
		t.Errorf("narrow module: oracle ok=%v, %q is not the known newer-feature rejection", ok, stderr)
	}
	for _, msg := range []string{
		"error: 4: Invalid capability operand: 99999\n", // spvx does not know it either
		"error: 4: Invalid opcode: 5\n",                 // OpName: core, not newer
		"error: 4: Invalid capability operand: 1\n",     // Shader: core
		"error: 0: Invalid SPIR-V magic number.\n",
		"",
	} {
		if oracleSkip([]byte(msg)) {
			t.Errorf("%q skips", msg)
		}
	}
}

func compareWithOracle(tool, file string, files []string) (r struct {
	file     string
	compared int
	rejected int
	errs     []string
}) {
	r.file = filepath.Base(file)
	bin, err := os.ReadFile(file)
	if err != nil {
		r.errs = append(r.errs, err.Error())
		return r
	}
	m, err := spirv.Decode(bin)
	if err != nil {
		r.errs = append(r.errs, err.Error())
		return r
	}
	pos := 0
	for i, f := range files {
		if f == file {
			pos = i
		}
	}
	for _, c := range oracleConfigs {
		if pos%c.every != 0 && !strings.HasPrefix(file, "testdata") {
			continue
		}
		res := oracle.Run(tool, bin, append(append([]string{}, c.flags...), "-")...)
		if res.Status == oracle.Failed {
			r.errs = append(r.errs, res.Err.Error())
			break
		}
		want, stderr, ok := res.Stdout, res.Stderr, res.Status == oracle.Accepted
		if !ok {
			if !oracleSkip(stderr) {
				r.errs = append(r.errs, fmt.Sprintf("%v: the oracle rejects the module, not for a known newer feature: %q", c.flags, stderr))
			}
			r.rejected++
			break
		}
		for _, name := range friendlyNames.FindAll(want, -1) {
			if len(name) > 1+maxNameLen {
				r.errs = append(r.errs, fmt.Sprintf("%v: %s: %s", c.flags, knownDiffs[diffLongNames].what, name[:40]))
			}
		}
		want = normalizeAliases(want)
		got := Disassemble(m, c.opt)
		if !bytes.Equal(normalizeAliases(got), want) {
			r.errs = append(r.errs, fmt.Sprintf("%v: differs from the oracle:\n%s", c.flags, firstDiff(got, want)))
			continue
		}
		r.compared++
	}
	return r
}
