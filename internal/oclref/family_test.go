package oclref

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"

	"spvx/interp"
)

// A family is many small kernels of one built-in family, each run once on
// both engines. Each case carries its kernel's source and its comparison.
type famCase struct {
	kernel string // the kernel's name (unique in the family)
	src    string // the kernel's source
	run    Run    // Kernel is filled in from kernel
	// cmp judges the buffers (nil: byte for byte).
	cmp ElemCompare
}

// engines returns the reference and spvx, or skips the test.
func engines(t *testing.T) (*Reference, *SPVX) {
	t.Helper()
	s, err := NewSPVX()
	if err != nil {
		t.Skip(err)
	}
	ref, err := NewReference(PoCL)
	if err != nil {
		t.Skipf("PoCL not usable: %v", err)
	}
	return ref, s
}

// runFamily runs the cases in programs of at most chunk kernels, on PoCL
// and on spvx (with each of opts), and fails the test with every
// mismatch, grouped by kernel.
func runFamily(t *testing.T, header, std string, cases []famCase, chunk int, opts ...interp.Options) {
	t.Helper()
	ref, s := engines(t)
	if len(opts) == 0 {
		opts = []interp.Options{{SubgroupSize: 8}}
	}
	type job struct {
		p     *Program
		cases []famCase
	}
	var jobs []job
	for lo := 0; lo < len(cases); lo += chunk {
		hi := min(lo+chunk, len(cases))
		var src strings.Builder
		src.WriteString(header)
		p := &Program{Std: std}
		for _, c := range cases[lo:hi] {
			src.WriteString(c.src)
			src.WriteByte('\n')
			r := c.run
			r.Kernel = c.kernel
			p.Runs = append(p.Runs, r)
		}
		p.Source = src.String()
		jobs = append(jobs, job{p, cases[lo:hi]})
	}
	var mu sync.Mutex
	var bad []string
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2) // PoCL compiles on its own threads too
	for _, j := range jobs {
		wg.Add(1)
		sem <- struct{}{}
		go func(j job) {
			defer func() { <-sem; wg.Done() }()
			msgs := compareJob(ref, s, j.p, j.cases, opts)
			mu.Lock()
			bad = append(bad, msgs...)
			mu.Unlock()
		}(j)
	}
	wg.Wait()
	sort.Strings(bad)
	if len(bad) > 0 {
		show := bad
		if len(show) > 40 {
			show = show[:40]
		}
		t.Errorf("%d of %d kernels differ from PoCL:\n%s", len(bad), len(cases), strings.Join(show, "\n"))
	}
	t.Logf("%d kernels in %d programs compared with PoCL", len(cases), len(jobs))
}

func compareJob(ref *Reference, s *SPVX, p *Program, cases []famCase, opts []interp.Options) []string {
	want, err := ref.Run(p)
	if err != nil {
		return []string{err.Error()}
	}
	if want.BuildErr != nil {
		return []string{fmt.Sprintf("PoCL: %.2000s", want.BuildErr)}
	}
	var bad []string
	for _, o := range opts {
		s := *s
		s.Opts = o
		got, err := s.Run(p)
		if err != nil {
			return append(bad, err.Error())
		}
		if got.BuildErr != nil {
			return append(bad, got.BuildErr.Error())
		}
		for i, c := range cases {
			if e := want.Runs[i].Err; e != nil {
				bad = append(bad, fmt.Sprintf("%s: PoCL: %v", c.kernel, e))
				continue
			}
			one := &Program{Runs: p.Runs[i : i+1]}
			ms := CompareWith(one, &Result{Runs: got.Runs[i : i+1]}, &Result{Runs: want.Runs[i : i+1]}, c.cmp)
			for _, m := range ms {
				bad = append(bad, fmt.Sprintf("%s (subgroup %d): %s", c.kernel, o.SubgroupSize, strings.TrimPrefix(m.String(), "run 0 ")))
			}
		}
	}
	return bad
}
