package dis

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"spvx/internal/oracle"
	"spvx/spirv"
)

// knownDiffs lists every way Debian's spirv-dis 2023.1, the differential
// oracle, may differ from current spirv-dis (v2026.4), which spvx follows.
// Each entry says how the test tolerates the difference and why.
var knownDiffs = []struct{ what, handling, reason string }{
	{
		"alias spelling",
		"normalize: every alias of the current grammar in the oracle's text is replaced by its primary name (aliasNames)",
		"the 2023 grammar listed aliases as separate enumerants and spirv-dis printed the first by value (RayPayloadNV); the current grammar has one primary name per value (RayPayloadKHR), which current spirv-dis prints",
	},
	{
		"unknown to the oracle",
		"skip the module when the oracle rejects it",
		"the 2023 tools do not know the instructions, enumerants and extended instruction sets added since (e.g. FPEncoding, OpBitcastExtractEXT, SPV_INTEL_subgroup_bitcast_shuffle)",
	},
	{
		"--offsets, --comment",
		"not compared with the oracle; covered by golden files",
		"SPIRV-Tools 2024.3 moved both into one trailing comment aligned at column 50 or more, and --comment gained decoration comments; 2023.1 appends \" ; 0x...\" and \"  ; id %N\"",
	},
	{
		"--nested-indent, --reorder-blocks",
		"not compared with the oracle; covered by golden files",
		"the options appeared in SPIRV-Tools 2024.3",
	},
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
	t.Logf("%d outputs compared with %s over %d modules; %d skipped (oracle rejects the module)", compared, tool, len(files), rejected)
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
			r.rejected++
			if len(stderr) == 0 {
				r.errs = append(r.errs, fmt.Sprintf("%v: oracle failed without a message", c.flags))
			}
			break
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
