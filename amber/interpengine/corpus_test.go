package interpengine

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"

	"spvx/amber"
	"spvx/interp"
)

// corpusDir is the shared Amber corpus of the checkout; the test skips
// with a message where it is absent.
func corpusDir(t testing.TB) string {
	d := filepath.Join("..", "..", "..", "shared", "conformance", "amber")
	if _, err := os.Stat(d); err != nil {
		t.Skipf("shared conformance corpus absent (%v)", err)
	}
	return d
}

// corpusNotPassing lists the shared scripts known not to pass on the
// executor, with the reason. It is empty: all 317 pass.
var corpusNotPassing = map[string]string{}

// TestRunCorpus runs the shared scripts on the executor. Under the race
// detector it dispatches workgroups on one goroutine: a few CTS scripts have
// shader-level data races between workgroups (compute_push_constant_and_ssbo's
// three workgroups store the same words; graphicsfuzz's
// two-for-loops-with-barrier-function; memory_model's
// release_acquire_atomic_payload), which in parallel are Go data races too,
// and which the detector rightly reports. interp's own tests run race-free
// kernels on several goroutines under -race.
func TestRunCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles 289 GLSL shaders")
	}
	dir := corpusDir(t)
	var files []string
	filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err == nil && !e.IsDir() && strings.HasSuffix(p, ".amber") {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	e := Engine{}
	if raceEnabled {
		e.Options = interp.Options{Parallelism: 1}
	}
	results := make([]amber.Result, len(files))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0)*2)
	for i, f := range files {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			results[i] = amber.RunFile(context.Background(), f, amber.Options{Engine: e})
		}()
	}
	wg.Wait()
	counts := map[amber.Status]int{}
	for _, r := range results {
		counts[r.Status]++
		rel, _ := filepath.Rel(dir, r.Path)
		if why, known := corpusNotPassing[filepath.ToSlash(rel)]; known {
			if r.Status == amber.Pass {
				t.Errorf("%s passes now; remove it from corpusNotPassing (%s)", rel, why)
			}
			continue
		}
		if r.Status != amber.Pass {
			t.Errorf("%s: %v: %s", rel, r.Status, r.Reason)
		}
		if strings.Contains(rel, "expect_fail") && r.Status == amber.Pass && !strings.Contains(r.Reason, "failed as expected") {
			t.Errorf("%s passed without failing its EXPECT", rel)
		}
	}
	if len(files) < 300 {
		t.Errorf("found %d scripts under %s, want the 317 of the corpus", len(files), dir)
	}
	t.Logf("%d scripts: %d pass, %d fail, %d skip; %d listed as not passing", len(results), counts[amber.Pass], counts[amber.Fail], counts[amber.SkipStatus], len(corpusNotPassing))
}
