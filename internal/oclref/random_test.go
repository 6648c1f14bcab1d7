package oclref

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"spvx/interp"
)

// The random-kernel campaign (not yet in CI: see TestRandom):
//
//	go test ./internal/oclref -run 'Random$' -seeds 20000 -seed0 1000000 -timeout 0
//
// runs a campaign. Every kernel runs on PoCL and on spvx under two
// schedules: subgroups of 8 in the default (wide, lockstep) order, and
// subgroups of 32 with workgroups and subgroups shuffled. A mismatch is
// reduced (-reduce, on by default) and written under testdata/random/new/
// to be reviewed and moved up as a regression.
var (
	seedsFlag  = flag.Int("seeds", 0, "random kernels to generate and compare (0: the CI set)")
	seed0Flag  = flag.Uint64("seed0", 0, "the first random kernel's seed")
	reduceFlag = flag.Bool("reduce", true, "reduce a mismatching random kernel and save it under testdata/random/new")
)

const (
	randomCISeeds = 200
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
	n := *seedsFlag
	if n == 0 {
		// The CI set waits for the three mismatch classes the first
		// campaign found (see docs/ARCHITECTURE.md, "Oracles"); a failing
		// CI set would hide every later regression.
		t.Skipf("random kernels run only as a campaign for now: -seeds N (CI set of %d pending)", randomCISeeds)
	}
	var mu sync.Mutex
	var bad []string
	skipped := 0
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for lo := 0; lo < n; lo += randomBatch {
		hi := min(lo+randomBatch, n)
		wg.Add(1)
		sem <- struct{}{}
		go func(first uint64, count int) {
			defer func() { <-sem; wg.Done() }()
			msgs, skip := randomBatchRun(ref, s, first, count)
			mu.Lock()
			bad = append(bad, msgs...)
			skipped += skip
			mu.Unlock()
		}(*seed0Flag+uint64(lo), hi-lo)
	}
	wg.Wait()
	sort.Strings(bad)
	if len(bad) > 0 {
		t.Errorf("%d of %d random kernels differ from PoCL:\n%s", len(bad), n, strings.Join(bad, "\n"))
	}
	t.Logf("%d random kernels (seeds %d..%d) compared with PoCL under %d schedules; %d not translatable by llvm-spirv-15", n-skipped, *seed0Flag, *seed0Flag+uint64(n)-1, len(randomSchedules(0)), skipped)
}

// randomEngines are the engines of the random kernels: spvx's side
// refuses a translation spirv-val rejects, so that llvm-spirv-15's own
// bugs count as untranslatable kernels, not as differences.
func randomEngines(t *testing.T) (*Reference, *SPVX) {
	ref, s := engines(t)
	v := *s
	v.Validate = true
	return ref, &v
}

// randomBatchRun compares count kernels from seed first in one program and
// returns one line per mismatching kernel, and how many kernels
// llvm-spirv-15 could not translate.
func randomBatchRun(ref *Reference, s *SPVX, first uint64, count int) ([]string, int) {
	var ks []*Kernel
	for i := 0; i < count; i++ {
		ks = append(ks, Generate(first+uint64(i)))
	}
	diffs, skipped, err := compareKernels(ref, s, ks)
	if err != nil {
		return []string{fmt.Sprintf("seeds %d..%d: %v", first, first+uint64(count)-1, err)}, 0
	}
	var bad []string
	for i, d := range diffs {
		if d == "" {
			continue
		}
		line := fmt.Sprintf("seed %d: %s", ks[i].Seed, d)
		if *reduceFlag {
			r := reduceKernel(ks[i], func(cands []*Kernel) int { return firstMismatch(ref, s, cands) })
			path := filepath.Join("testdata", "random", "new", fmt.Sprintf("seed%d.cl", ks[i].Seed))
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err == nil {
				os.WriteFile(path, []byte(r.File()), 0o644)
				line += fmt.Sprintf(" (reduced to %d lines: %s)", strings.Count(r.Source("k"), "\n"), path)
			}
		}
		bad = append(bad, line)
	}
	return bad, skipped
}

// compareKernels runs kernels as one program on both engines and returns,
// per kernel, "" or what differed, and how many kernels llvm-spirv-15 could
// not translate (those are not compared).
func compareKernels(ref *Reference, s *SPVX, ks []*Kernel) ([]string, int, error) {
	names := make([]string, len(ks))
	for i := range ks {
		names[i] = fmt.Sprintf("k%d", i)
	}
	p := randomProgram(ks, names)
	want, err := ref.Run(p)
	if err != nil {
		return nil, 0, err
	}
	if want.BuildErr != nil {
		return nil, 0, fmt.Errorf("PoCL: %.3000s", want.BuildErr)
	}
	out := make([]string, len(ks))
	skipped := 0
	for _, o := range randomSchedules(ks[0].Seed) {
		s := *s
		s.Opts = o
		got, err := spvxRuns(&s, ks, names)
		if err != nil {
			return nil, 0, err
		}
		skipped = 0
		for i := range ks {
			if got[i] == nil {
				skipped++
				continue
			}
			if out[i] != "" {
				continue
			}
			one := &Program{Runs: p.Runs[i : i+1]}
			ms := Compare(one, &Result{Runs: []Outcome{*got[i]}}, &Result{Runs: want.Runs[i : i+1]})
			if len(ms) > 0 {
				out[i] = fmt.Sprintf("subgroup %d shuffle %v: %s", o.SubgroupSize, o.Shuffle, strings.TrimPrefix(ms[0].String(), "run 0 "))
			}
		}
	}
	return out, skipped, nil
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
	diffs, _, err := compareKernels(ref, s, cands)
	if err != nil {
		return -1
	}
	for i, d := range diffs {
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
