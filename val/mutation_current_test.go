package val

import (
	"bufio"
	"flag"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"spvx/asm"
	"spvx/internal/oracle"
)

var updateCurrent = flag.Bool("update-current", false,
	"rewrite testdata/current-spirv-val.txt with the verdicts of the current SPIRV-Tools in $"+currentToolsEnv)

// The current-oracle differential (issue 22 §4). Debian's spirv-val 2023.1
// is the only oracle apt-get gives, and TestMutationDifferential judges
// against it. Current spirv-val, the reference, is built from source by
// scripts/build-spirv-tools.sh; its verdicts on the mutation set are
// committed as golden data, so that this test compares Validate with it
// with no SPIRV-Tools installed.
//
// The mutation set is TestMutationDifferential's (same modules, kinds and
// seeded ids) with currentSeeds seeds, and ownSeeds seeds of the modules
// in ownModulesDir (named own__<file>), which use the extensions the
// corpus lacks; it is filtered by the current tools instead of 2023.1: a module is mutated when current spirv-val accepts it
// unmutated (its "base" entry, module:base:0), and every mutant current
// spirv-as assembles is judged. Each golden line is one entry: id, verdict
// (valid, invalid, or noasm when spirv-as rejects it), a hash of spirv-as's
// bytes, and the first line spirv-as or spirv-val printed.
//
// The test assembles each entry with package asm (which must give the same
// bytes, or reject what spirv-as rejects) and validates it. Every
// disagreement must be a row of testdata/differential-current.md with a
// reason; "untriaged" or "ours wrong" rows and rows missing fail. The
// agreement must reach the figures on at least currentMinEntries
// judged mutants.
const (
	currentGoldens    = "testdata/current-spirv-val.txt"
	currentTable      = "testdata/differential-current.md"
	currentToolsEnv   = "SPVX_CURRENT_SPIRV_TOOLS" // a bin folder with spirv-as and spirv-val
	currentSeeds      = 2
	ownModulesDir     = "testdata/mutation-modules" // modules of the new extensions (FP8/OCP)
	ownSeeds          = 10                          // they are few: more mutants of each
	currentVerdict    = 0.995
	currentFirstLine  = 0.97
	currentMinEntries = 3000
)

// currentHead is differential-current.md's text above its rows.
const currentHead = `# Current-spirv-val disagreements (TestMutationCurrent)

Each row is an entry of val/testdata/current-spirv-val.txt (module:kind:seed; kind "base" is the
unmutated module) on which current spirv-val (the goldens) and ` + "`val`" + ` disagree: a different
verdict, or a different first message line when both reject; or on which package asm and current
spirv-as disagree (the cells then start "spirv-as:" and "asm:"). Reasons:
- **deliberate**: a difference spvx keeps on purpose (say why);
- **val bug: <rule>**: ` + "`val`" + ` is wrong; the row is accepted so that CI passes, counts as a
  disagreement in the figures, and goes when the rule is fixed;
- **asm bug: <what>**: package asm differs from spirv-as;
- **not written: <family>**: a rule family ` + "`val`" + ` does not have yet (README lists them);
- **ours wrong** or **untriaged** (written by ` + "`-update`" + ` for a new row): the test fails.

Regenerate with ` + "`go test ./val -run MutationCurrent -count 1 -update`" + ` (reasons are kept).

| entry | current spirv-val | val | reason |
|---|---|---|---|
`

// golden is one entry's line of the goldens.
type golden struct {
	id, verdict, hash, line string
}

// currentEntry is a base module (kind "base") or a mutant.
type currentEntry struct {
	mutant
}

// modGroup is modules mutated with the same number of seeds.
type modGroup struct {
	mods  []corpusModule
	seeds int
}

// ownModules returns the modules of ownModulesDir, by file name.
func ownModules() []corpusModule {
	files, _ := filepath.Glob(filepath.Join(ownModulesDir, "*.spvasm"))
	sort.Strings(files)
	var mods []corpusModule
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		mods = append(mods, corpusModule{
			name:  "own__" + strings.TrimSuffix(filepath.Base(f), ".spvasm"),
			env:   asmVersion(string(text)),
			insts: tokenizeAsm(string(text)),
		})
	}
	return mods
}

// currentGroups returns the modules of the mutation set; none when the
// corpus is absent.
func currentGroups() []modGroup {
	corpus := mutationModules(fullModules)
	if len(corpus) == 0 {
		return nil
	}
	return []modGroup{{corpus, currentSeeds}, {ownModules(), ownSeeds}}
}

// currentBases returns the base entries of the mutation set's modules.
func currentBases(groups []modGroup) []currentEntry {
	var es []currentEntry
	for _, g := range groups {
		for _, m := range g.mods {
			es = append(es, currentEntry{mutant{id: m.name + ":base:0", env: m.env, text: joinAsm(m.insts)}})
		}
	}
	return es
}

// currentMutants returns the mutants of the modules whose base entry valid
// says current spirv-val accepts.
func currentMutants(groups []modGroup, valid func(id string) bool) []currentEntry {
	var es []currentEntry
	for _, g := range groups {
		keep := make([]bool, len(g.mods))
		for i, m := range g.mods {
			keep[i] = valid(m.name + ":base:0")
		}
		for _, m := range mutantsOf(g.mods, keep, append(mutationKinds[:len(mutationKinds):len(mutationKinds)], currentKinds...), g.seeds) {
			es = append(es, currentEntry{mutant: m})
		}
	}
	return es
}

func hash32(b []byte) string {
	h := fnv.New32a()
	h.Write(b)
	return fmt.Sprintf("%08x", h.Sum32())
}

// oneLine makes s one tab-free line, the goldens being tab-separated.
// Trailing blanks stay: spirv-val's capability messages end with one, and
// Validate's too.
func oneLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return strings.ReplaceAll(s, "\t", " ")
}

// judgeCurrent runs one entry through the current spirv-as and spirv-val.
func judgeCurrent(bin, dir string, e currentEntry) (golden, error) {
	src, out := filepath.Join(dir, "m.spvasm"), filepath.Join(dir, "m.spv")
	if err := os.WriteFile(src, []byte(e.text), 0o666); err != nil {
		return golden{}, err
	}
	g := golden{id: e.id, verdict: "noasm", hash: "-"}
	r := oracle.Run(filepath.Join(bin, "spirv-as"), nil, "--target-env", e.env, src, "-o", out)
	switch r.Status {
	case oracle.Failed:
		return g, r.Err
	case oracle.Rejected:
		g.line = oneLine(string(r.Stderr) + string(r.Stdout))
		return g, nil
	}
	b, err := os.ReadFile(out)
	if err != nil {
		return g, err
	}
	g.verdict, g.hash = "valid", hash32(b)
	r = oracle.Run(filepath.Join(bin, "spirv-val"), nil, out)
	switch r.Status {
	case oracle.Failed:
		return g, r.Err
	case oracle.Rejected:
		g.verdict = "invalid"
		g.line = oneLine(string(r.Stderr) + string(r.Stdout))
		if g.line == "" {
			g.line = "(rejected, no message)"
		}
	}
	return g, nil
}

// updateCurrentGoldens judges the mutation set with the tools in bin and
// writes the goldens.
func updateCurrentGoldens(t *testing.T, bin string, mods []modGroup) {
	run := func(es []currentEntry) []golden {
		gs := make([]golden, len(es))
		parallel(t, len(es), func(dir string, i int) {
			g, err := judgeCurrent(bin, dir, es[i])
			if err != nil {
				t.Errorf("%s: %v", es[i].id, err)
			}
			gs[i] = g
		})
		return gs
	}
	gs := run(currentBases(mods))
	byID := map[string]golden{}
	for _, g := range gs {
		byID[g.id] = g
	}
	gs = append(gs, run(currentMutants(mods, func(id string) bool { return byID[id].verdict == "valid" }))...)
	if t.Failed() {
		t.FailNow()
	}
	var b strings.Builder
	b.WriteString("# Current spirv-val's verdicts on val's mutation set: the goldens of TestMutationCurrent.\n")
	if v, err := os.ReadFile(filepath.Join(bin, "..", "VERSION")); err == nil {
		for _, l := range strings.Split(strings.TrimSpace(string(v)), "\n") {
			b.WriteString("# " + l + "\n")
		}
	}
	if r := oracle.Run(filepath.Join(bin, "spirv-val"), nil, "--version"); r.Status == oracle.Accepted {
		b.WriteString("# spirv-val --version: " + oneLine(string(r.Stdout)) + "\n")
	}
	b.WriteString("# Refresh: scripts/build-spirv-tools.sh TOOLS HEADERS, then\n")
	b.WriteString("# " + currentToolsEnv + "=<its bin> go test ./val -run MutationCurrent -count 1 -update-current\n")
	b.WriteString("# id\tverdict\tFNV-32a of spirv-as's output\tfirst line of spirv-as (noasm) or spirv-val (invalid)\n")
	for _, g := range gs {
		fmt.Fprintf(&b, "%s\t%s\t%s\t%s\n", g.id, g.verdict, g.hash, g.line)
	}
	if err := os.WriteFile(currentGoldens, []byte(b.String()), 0o666); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s: %d entries", currentGoldens, len(gs))
}

// readGoldens reads the goldens' entries by id, and their ids in order.
func readGoldens(path string) (map[string]golden, []string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	gs := map[string]golden{}
	var order []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		c := strings.SplitN(line, "\t", 4)
		if len(c) != 4 || c[1] != "valid" && c[1] != "invalid" && c[1] != "noasm" {
			return nil, nil, fmt.Errorf("%s:%d: bad entry %q", path, n, line)
		}
		gs[c[0]] = golden{c[0], c[1], c[2], c[3]}
		order = append(order, c[0])
	}
	return gs, order, sc.Err()
}

// currentTally counts the agreement of one run.
type currentTally struct {
	judged, sameVerdict, bothRej, sameLine int // val against spirv-val
	asmEntries, asmSame                    int // asm against spirv-as
}

// compareCurrent assembles and validates one entry and compares the
// outcome with its golden: agree, or the two cells of a triage row.
func compareCurrent(e currentEntry, g golden, n *currentTally) (theirs, ours string, agree bool) {
	b, err := asm.AssembleBytes([]byte(e.text), asm.Options{TargetEnv: e.env})
	n.asmEntries++
	switch {
	case g.verdict == "noasm" && err != nil:
		n.asmSame++
		return "", "", true
	case g.verdict == "noasm":
		return "spirv-as: " + g.line, "asm: (assembled)", false
	case err != nil:
		return "spirv-as: (assembled)", "asm: " + oneLine(err.Error()), false
	case hash32(b) != g.hash:
		return "spirv-as: bytes " + g.hash, "asm: bytes " + hash32(b), false
	}
	n.asmSame++
	n.judged++
	ours = ourVerdict(b)
	theirs = g.line
	if g.verdict == "valid" {
		theirs = ""
	}
	agree = (theirs == "") == (ours == "")
	if agree {
		n.sameVerdict++
	}
	if theirs != "" && ours != "" {
		n.bothRej++
		if theirs == ours {
			n.sameLine++
		} else {
			agree = false
		}
	}
	return orAccepted(theirs), orAccepted(ours), agree
}

// currentSet returns the entries of the mutation set, the goldens
// deciding which modules are mutated, and fails when the goldens are not
// of this set (the corpus, the kinds or the mutations changed).
func currentSet(t *testing.T, mods []modGroup, gs map[string]golden, order []string) []currentEntry {
	es := currentBases(mods)
	es = append(es, currentMutants(mods, func(id string) bool { return gs[id].verdict == "valid" })...)
	made := map[string]bool{}
	var missing, stale []string
	for _, e := range es {
		made[e.id] = true
		if _, ok := gs[e.id]; !ok {
			missing = append(missing, e.id)
		}
	}
	for _, id := range order {
		if !made[id] {
			stale = append(stale, id)
		}
	}
	if len(missing)+len(stale) > 0 {
		t.Fatalf("%s is not of this mutation set: %d entries missing (%v), %d not made (%v); refresh it (see its header)",
			currentGoldens, len(missing), missing[:min(3, len(missing))], len(stale), stale[:min(3, len(stale))])
	}
	return es
}

// TestMutationCurrent compares Validate (and asm) with current spirv-val's
// verdicts on the mutation set, from the goldens: see currentGoldens.
func TestMutationCurrent(t *testing.T) {
	mods := currentGroups()
	if len(mods) == 0 {
		t.Skipf("corpus not found under %s: skipping", sharedDir)
	}
	if *updateCurrent {
		bin := os.Getenv(currentToolsEnv)
		if bin == "" {
			t.Fatalf("-update-current needs $%s: the bin folder scripts/build-spirv-tools.sh prints", currentToolsEnv)
		}
		updateCurrentGoldens(t, bin, mods)
	}
	gs, order, err := readGoldens(currentGoldens)
	if err != nil {
		t.Fatal(err)
	}
	es := currentSet(t, mods, gs, order)
	if testing.Short() && len(es) > shortMutants {
		k := len(es) / shortMutants
		var sub []currentEntry
		for i := 0; i < len(es); i += k {
			sub = append(sub, es[i])
		}
		es = sub
	}
	type result struct {
		theirs, ours string
		agree        bool
		n            currentTally
	}
	res := make([]result, len(es))
	parallel(t, len(es), func(_ string, i int) {
		r := &res[i]
		r.theirs, r.ours, r.agree = compareCurrent(es[i], gs[es[i].id], &r.n)
	})
	var n currentTally
	current := map[string]triageRow{}
	ran := map[string]bool{}
	for i, r := range res {
		n.judged += r.n.judged
		n.sameVerdict += r.n.sameVerdict
		n.bothRej += r.n.bothRej
		n.sameLine += r.n.sameLine
		n.asmEntries += r.n.asmEntries
		n.asmSame += r.n.asmSame
		ran[es[i].id] = true
		if !r.agree {
			current[es[i].id] = triageRow{id: es[i].id, theirs: r.theirs, ours: r.ours}
		}
	}
	verdictRate, lineRate := ratio(n.sameVerdict, n.judged), ratio(n.sameLine, n.bothRej)
	t.Logf("%d entries of %d+%d modules; asm agrees with spirv-as on %d; val judged %d: same verdict %d (%.2f%%), both reject %d, same first line %d (%.2f%%)",
		len(es), len(mods[0].mods), len(mods[1].mods), n.asmSame, n.judged, n.sameVerdict, 100*verdictRate, n.bothRej, n.sameLine, 100*lineRate)
	checkTriage(t, currentTable, currentHead, current, ran, false)
	if testing.Short() {
		return
	}
	if verdictRate < currentVerdict {
		t.Errorf("verdict agreement %.2f%% is below %.1f%%", 100*verdictRate, 100*currentVerdict)
	}
	if lineRate < currentFirstLine {
		t.Errorf("first-line agreement %.2f%% is below %.0f%%", 100*lineRate, 100*currentFirstLine)
	}
	if n.judged < currentMinEntries {
		t.Errorf("only %d mutants judged; the issue asks for %d", n.judged, currentMinEntries)
	}
}

// ratio is a/b, 1 when b is 0.
func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

// TestCompareCurrent: an entry agrees with its golden only when asm gives
// spirv-as's bytes and Validate spirv-val's verdict and first line; each
// way of differing is a disagreement, and a golden line reads back.
func TestCompareCurrent(t *testing.T) {
	src := valHeadAsm + domTypesAsm + "%main = OpFunction %void None %fn\n%e = OpLabel\nOpReturn\nOpFunctionEnd\n"
	b, err := asm.AssembleBytes([]byte(src), asm.Options{TargetEnv: "spv1.0"})
	if err != nil {
		t.Fatal(err)
	}
	good := currentEntry{mutant{id: "m:base:0", env: "spv1.0", text: src}}
	bad := currentEntry{mutant{id: "m:k:0", env: "spv1.0", text: src + "%x = OpBogus\n"}}
	for _, c := range []struct {
		e     currentEntry
		g     golden
		agree bool
	}{
		{good, golden{"m:base:0", "valid", hash32(b), ""}, true},
		{good, golden{"m:base:0", "invalid", hash32(b), "error: line 1: x"}, false},
		{good, golden{"m:base:0", "valid", "00000000", ""}, false},
		{good, golden{"m:base:0", "noasm", "-", "error: 1: 1: x"}, false},
		{bad, golden{"m:k:0", "noasm", "-", "error: 1: 1: x"}, true},
		{bad, golden{"m:k:0", "valid", "00000000", ""}, false},
	} {
		var n currentTally
		if _, _, agree := compareCurrent(c.e, c.g, &n); agree != c.agree {
			t.Errorf("%v on %s: agree %v, want %v", c.g, c.e.id, agree, c.agree)
		}
	}
	path := filepath.Join(t.TempDir(), "g.txt")
	os.WriteFile(path, []byte("# header\nm:k:0\tinvalid\t0123abcd\terror: line 3: a b \n"), 0o666)
	gs, order, err := readGoldens(path)
	if err != nil || len(order) != 1 || gs["m:k:0"] != (golden{"m:k:0", "invalid", "0123abcd", "error: line 3: a b "}) {
		t.Errorf("readGoldens: %v %v %v", gs, order, err)
	}
	os.WriteFile(path, []byte("m:k:0\tmaybe\t-\t\n"), 0o666)
	if _, _, err := readGoldens(path); err == nil {
		t.Error("readGoldens took a verdict \"maybe\"")
	}
}
