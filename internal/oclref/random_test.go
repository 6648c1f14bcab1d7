package oclref

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"spvx/interp"
)

// The random kernels. Without flags, TestRandom runs the CI set: seeds
// 0..randomCISeeds-1, not reduced. A campaign is
//
//	go test ./internal/oclref -run 'Random$' -seeds 20000 -seed0 0 -timeout 0 -v
//
// Every kernel runs on PoCL and on spvx under two schedules: subgroups of
// 8 in the default (wide, lockstep) order, and subgroups of 32 with
// workgroups and subgroups shuffled. A kernel that differs runs again on
// PoCL built with -cl-opt-disable, and then with its literals read through
// volatile variables (opaque.go: PoCL folds some built-ins on constant
// arguments wrongly); if spvx agrees with one of those builds under both
// schedules, PoCL disagrees with PoCL, and the kernel is logged as a
// "PoCL split", not failed. Any other difference fails, and is
// reduced (-reduce, on by default in a campaign) and written under
// testdata/random/new/ to be reviewed and moved up as a regression.
var (
	seedsFlag  = flag.Int("seeds", 0, "random kernels to generate and compare (0: the CI set)")
	seed0Flag  = flag.Uint64("seed0", 0, "the first random kernel's seed")
	reduceFlag = flag.Bool("reduce", true, "reduce a mismatching random kernel and save it under testdata/random/new")
)

const (
	randomCISeeds = 120
	randomBatch   = 40 // kernels per program: one PoCL compile serves them all
)

// randomSchedules are the executor's options each kernel runs under.
func randomSchedules(seed uint64) []interp.Options {
	return []interp.Options{
		{SubgroupSize: 8},
		{SubgroupSize: 32, Shuffle: true, Seed: int64(seed)},
	}
}

func TestRandom(t *testing.T) {
	ref, s := randomEngines(t)
	n, seed0, reduce := *seedsFlag, *seed0Flag, *reduceFlag
	if n == 0 {
		n, seed0, reduce = randomCISeeds, 0, false
	}
	var mu sync.Mutex
	var total batchResult
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for lo := 0; lo < n; lo += randomBatch {
		hi := min(lo+randomBatch, n)
		wg.Add(1)
		sem <- struct{}{}
		go func(first uint64, count int) {
			defer func() { <-sem; wg.Done() }()
			r := randomBatchRun(ref, s, first, count, reduce)
			t.Logf("seeds %d..%d: %d differ, %d PoCL splits, %d PoCL failures%s", first, first+uint64(count)-1, len(r.bad), len(r.splits), len(r.refFailed),
				strings.Join(append([]string{""}, append(append(r.bad, r.splits...), r.refFailed...)...), "\n\t"))
			mu.Lock()
			total.bad = append(total.bad, r.bad...)
			total.splits = append(total.splits, r.splits...)
			total.refFailed = append(total.refFailed, r.refFailed...)
			total.skipped += r.skipped
			mu.Unlock()
		}(seed0+uint64(lo), hi-lo)
	}
	wg.Wait()
	sort.Strings(total.bad)
	sort.Strings(total.splits)
	if len(total.splits) > 0 {
		t.Logf("%d kernels on which PoCL's build differed from another of its builds (-cl-opt-disable, or opaque literals) and spvx agreed with that one:\n%s", len(total.splits), strings.Join(total.splits, "\n"))
	}
	if len(total.refFailed) > 0 {
		sort.Strings(total.refFailed)
		t.Logf("%d kernels PoCL failed on alone (crashed, timed out or could not build; not compared):\n%s", len(total.refFailed), strings.Join(total.refFailed, "\n"))
	}
	if len(total.bad) > 0 {
		t.Errorf("%d of %d random kernels differ from PoCL:\n%s", len(total.bad), n, strings.Join(total.bad, "\n"))
	}
	t.Logf("%d random kernels (seeds %d..%d) compared with PoCL under %d schedules; %d not translatable by llvm-spirv-15; %d differ; %d PoCL splits; %d PoCL failures", n-total.skipped-len(total.refFailed), seed0, seed0+uint64(n)-1, len(randomSchedules(0)), total.skipped, len(total.bad), len(total.splits), len(total.refFailed))
}

// randomEngines are the engines of the random kernels: spvx's side
// refuses a translation spirv-val rejects, so that llvm-spirv-15's own
// bugs count as untranslatable kernels, not as differences.
func randomEngines(t *testing.T) (*Reference, *SPVX) {
	ref, s := engines(t)
	v := *s
	v.Validate = true
	// A batch of 40 builds in about 12 s (20 s under load); a kernel PoCL
	// hangs on costs this once per bisection level.
	r := *ref
	r.Timeout = 90 * time.Second
	return &r, &v
}

// batchResult is one line per kernel that differs from PoCL, one per
// kernel on which PoCL differed from its own unoptimized build (and spvx
// agreed with that), and how many kernels llvm-spirv-15 could not
// translate.
type batchResult struct {
	bad, splits, refFailed []string
	skipped                int
}

// refError is PoCL failing on a whole program.
type refError struct{ err error }

func (e *refError) Error() string { return "PoCL: " + e.err.Error() }

// randomBatchRun compares count kernels from seed first in one program,
// and with reduce, reduces each that differs and writes it under
// testdata/random/new.
func randomBatchRun(ref *Reference, s *SPVX, first uint64, count int, reduce bool) batchResult {
	var ks []*Kernel
	for i := 0; i < count; i++ {
		ks = append(ks, Generate(first+uint64(i)))
	}
	return compareBatch(ref, s, ks, reduce)
}

// compareBatch compares kernels in one program. When PoCL fails on the
// program (its host crashes or times out, or it cannot build it), the
// batch is split until the kernels it fails on stand alone; those are
// reported apart (refFailed), not compared.
func compareBatch(ref *Reference, s *SPVX, ks []*Kernel, reduce bool) batchResult {
	c, err := compareKernels(ref, s, ks)
	var rerr *refError
	switch {
	case errors.As(err, &rerr) && len(ks) > 1:
		a := compareBatch(ref, s, ks[:len(ks)/2], reduce)
		b := compareBatch(ref, s, ks[len(ks)/2:], reduce)
		return batchResult{bad: append(a.bad, b.bad...), splits: append(a.splits, b.splits...),
			refFailed: append(a.refFailed, b.refFailed...), skipped: a.skipped + b.skipped}
	case errors.As(err, &rerr):
		return batchResult{refFailed: []string{fmt.Sprintf("seed %d: %.300v", ks[0].Seed, err)}}
	case err != nil:
		return batchResult{bad: []string{fmt.Sprintf("seeds %d..%d: %v", ks[0].Seed, ks[len(ks)-1].Seed, err)}}
	}
	r := batchResult{skipped: c.skipped}
	for i, d := range c.poclSplits {
		if d != "" {
			r.splits = append(r.splits, fmt.Sprintf("seed %d: %s", ks[i].Seed, d))
		}
	}
	for i, d := range c.diffs {
		if d == "" {
			continue
		}
		line := fmt.Sprintf("seed %d: %s", ks[i].Seed, d)
		if reduce {
			k := reduceKernel(ks[i], func(cands []*Kernel) int { return firstMismatch(ref, s, cands) })
			path := filepath.Join("testdata", "random", "new", fmt.Sprintf("seed%d.cl", ks[i].Seed))
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err == nil {
				os.WriteFile(path, []byte(k.File()), 0o644)
				line += fmt.Sprintf(" (reduced to %d lines: %s)", strings.Count(k.Source("k"), "\n"), path)
			}
		}
		r.bad = append(r.bad, line)
	}
	return r
}

// comparison is what compareKernels found, per kernel.
type comparison struct {
	// diffs are "" or how spvx differed from PoCL.
	diffs []string
	// poclSplits are "" or how spvx differed from PoCL's build while
	// agreeing with another build of PoCL's (secondOpinion): PoCL
	// disagreeing with itself, which the campaign records apart.
	poclSplits []string
	// skipped counts the kernels llvm-spirv-15 could not translate (those
	// are not compared).
	skipped int
}

// compareKernels runs kernels as one program on both engines. A kernel on
// which spvx differs from PoCL runs again on PoCL without its optimizer,
// and then with its literals opaque (opaque.go); when spvx agrees with one
// of those under every schedule, PoCL is the one at odds (its output
// differs from its own other build, and spvx's path shares nothing with
// PoCL's but the source).
func compareKernels(ref *Reference, s *SPVX, ks []*Kernel) (*comparison, error) {
	names := make([]string, len(ks))
	for i := range ks {
		names[i] = fmt.Sprintf("k%d", i)
	}
	p := randomProgram(ks, names)
	want, err := ref.Run(p)
	if err != nil {
		return nil, &refError{err}
	}
	if want.BuildErr != nil {
		return nil, &refError{fmt.Errorf("%.3000s", want.BuildErr)}
	}
	c := &comparison{diffs: make([]string, len(ks)), poclSplits: make([]string, len(ks))}
	var gots [][]*Outcome
	for _, o := range randomSchedules(ks[0].Seed) {
		s := *s
		s.Opts = o
		got, err := spvxRuns(&s, ks, names)
		if err != nil {
			return nil, err
		}
		gots = append(gots, got)
		c.skipped = 0
		for i := range ks {
			if got[i] == nil {
				c.skipped++
				continue
			}
			if c.diffs[i] != "" {
				continue
			}
			if m := compareOne(p.Runs[i], got[i], &want.Runs[i]); m != "" {
				c.diffs[i] = fmt.Sprintf("subgroup %d shuffle %v: %s", o.SubgroupSize, o.Shuffle, m)
			}
		}
	}
	// Second opinions, each of PoCL against itself: its unoptimized
	// build, then its build of the kernels with opaque literals.
	c.secondOpinion(ref, ks, gots, "PoCL -cl-opt-disable agrees with spvx", func(sub []*Kernel, names []string) *Program {
		q := randomProgram(sub, names)
		q.RefOptions = "-cl-opt-disable"
		return q
	})
	c.secondOpinion(ref, ks, gots, "PoCL agrees with spvx when the literals are opaque", func(sub []*Kernel, names []string) *Program {
		for i, k := range sub {
			sub[i] = k.opaqueLiterals()
		}
		q := randomProgram(sub, names)
		q.Source = strings.Replace(q.Source, RandomHeader, RandomHeader+OpaqueHeader, 1)
		return q
	})
	return c, nil
}

// secondOpinion runs the kernels that still differ again on PoCL, as the
// program build makes them, and moves each on which spvx's outcomes (gots,
// per schedule) agree with that run from diffs to poclSplits, with why.
func (c *comparison) secondOpinion(ref *Reference, ks []*Kernel, gots [][]*Outcome, why string, build func([]*Kernel, []string) *Program) {
	var idx []int
	var sub []*Kernel
	var names []string
	for i, d := range c.diffs {
		if d != "" {
			idx = append(idx, i)
			sub, names = append(sub, ks[i]), append(names, fmt.Sprintf("k%d", i))
		}
	}
	if len(idx) == 0 {
		return
	}
	q := build(sub, names)
	want, err := ref.Run(q)
	if err != nil || want.BuildErr != nil {
		return // no second opinion: the differences stand
	}
	for j, i := range idx {
		agrees := true
		for _, got := range gots {
			agrees = agrees && compareOne(q.Runs[j], got[i], &want.Runs[j]) == ""
		}
		if agrees {
			c.poclSplits[i], c.diffs[i] = c.diffs[i]+" ("+why+")", ""
		}
	}
}

// compareOne compares one run's outcomes and describes the first
// difference, or returns "".
func compareOne(r Run, got, want *Outcome) string {
	one := &Program{Runs: []Run{r}}
	ms := Compare(one, &Result{Runs: []Outcome{*got}}, &Result{Runs: []Outcome{*want}})
	if len(ms) == 0 {
		return ""
	}
	return strings.TrimPrefix(ms[0].String(), "run 0 ")
}

func randomProgram(ks []*Kernel, names []string) *Program {
	p := &Program{Opt: "-O0"}
	var src strings.Builder
	src.WriteString(RandomHeader)
	for i, k := range ks {
		src.WriteString(k.Source(names[i]))
		p.Runs = append(p.Runs, k.Run(names[i]))
	}
	p.Source = src.String()
	return p
}

// spvxRuns runs the kernels on spvx, translated together; when
// llvm-spirv-15 fails on the batch, it splits the batch until the kernels
// it cannot translate stand alone, and gives those a nil Outcome.
func spvxRuns(s *SPVX, ks []*Kernel, names []string) ([]*Outcome, error) {
	got, err := s.Run(randomProgram(ks, names))
	if err == nil && got.BuildErr != nil {
		err = got.BuildErr
	}
	out := make([]*Outcome, len(ks))
	switch {
	case err == nil:
		for i := range ks {
			out[i] = &got.Runs[i]
		}
	case !strings.Contains(err.Error(), "llvm-spirv-15"):
		return nil, err
	case len(ks) > 1:
		h := len(ks) / 2
		a, err := spvxRuns(s, ks[:h], names[:h])
		if err != nil {
			return nil, err
		}
		b, err := spvxRuns(s, ks[h:], names[h:])
		if err != nil {
			return nil, err
		}
		out = append(a, b...)
	}
	return out, nil
}

// firstMismatch returns the index of the first candidate that still differs
// between the engines, or -1 (also when the candidates do not build).
func firstMismatch(ref *Reference, s *SPVX, cands []*Kernel) int {
	c, err := compareKernels(ref, s, cands)
	if err != nil {
		return -1
	}
	for i, d := range c.diffs {
		if d != "" {
			return i
		}
	}
	return -1
}

// TestRandomRegressions runs the reduced kernels of past mismatches,
// testdata/random/*.cl, on both engines.
func TestRandomRegressions(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "random", "*.cl"))
	if len(files) == 0 {
		t.Skip("no reduced random kernels under testdata/random yet")
	}
	ref, s := randomEngines(t)
	p := &Program{}
	var src strings.Builder
	src.WriteString(RandomHeader)
	for i, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		r, err := parseRegression(string(b))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		name := fmt.Sprintf("r%d", i)
		// Each file's kernel and helpers are named k and k_*.
		src.WriteString(regexp.MustCompile(`\bk(_f\d+)?\b`).ReplaceAllString(string(b), name+"$1"))
		r.Kernel = name
		p.Runs = append(p.Runs, r)
	}
	p.Source = src.String()
	want, err := ref.Run(p)
	if err != nil {
		t.Fatal(err)
	}
	if want.BuildErr != nil {
		t.Fatalf("PoCL: %v", want.BuildErr)
	}
	for _, o := range randomSchedules(1) {
		s := *s
		s.Opts = o
		got, err := s.Run(p)
		if err != nil {
			t.Fatal(err)
		}
		if got.BuildErr != nil {
			t.Fatal(got.BuildErr)
		}
		for _, m := range Compare(p, got, want) {
			t.Errorf("%s (subgroup %d): %v", files[m.Run], o.SubgroupSize, m)
		}
	}
	t.Logf("%d regressions compared with PoCL", len(files))
}

// TestRandomPoCLFolding: the campaign's kernels on which PoCL 3.1 folds a
// built-in on constant arguments wrongly (seed 1358: convert_int_sat_rte
// of a constant -INFINITY, the kernel then writes nothing; 2860: abs of a
// constant LONG_MIN is 0; 3334: trunc(fdim(NAN, c)) is 0) must come out as
// PoCL splits through the opaque-literal build, and spvx must agree with
// it: not as differences, and not silently equal (then the test no longer
// exercises the mechanism and says so).
func TestRandomPoCLFolding(t *testing.T) {
	ref, s := randomEngines(t)
	seeds := []uint64{1358, 2860, 3334}
	var ks []*Kernel
	for _, seed := range seeds {
		k := Generate(seed)
		if o := k.opaqueLiterals(); o.Source("k") == k.Source("k") || !strings.Contains(o.Source("k"), "opq((") {
			t.Fatalf("seed %d: the opaque rendering wraps no literal", seed)
		}
		ks = append(ks, k)
	}
	c, err := compareKernels(ref, s, ks)
	if err != nil {
		t.Fatal(err)
	}
	for i, seed := range seeds {
		switch {
		case c.diffs[i] != "":
			t.Errorf("seed %d differs from PoCL: %s", seed, c.diffs[i])
		case !strings.Contains(c.poclSplits[i], "literals are opaque"):
			t.Errorf("seed %d: PoCL's plain build now agrees with spvx (split %q): PoCL changed; pick kernels it still folds wrongly", seed, c.poclSplits[i])
		}
	}
}
