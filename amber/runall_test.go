package amber

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRunAllPerScriptTimeout checks issue 19: RunAll gives each script its
// own deadline, so a REPEAT 2000000000 script (and an expect_fail one
// that loops) fails with amber's timeout while the scripts beside it
// pass; results come in path order; with several jobs each script's log
// is kept apart.
func TestRunAllPerScriptTimeout(t *testing.T) {
	dir := t.TempDir()
	const head = "#!amber\nBUFFER b DATA_TYPE uint32 SIZE 4 FILL 7\n"
	loop := head + "REPEAT 2000000000\n  EXPECT b IDX 0 EQ 7\nEND\n"
	scripts := []struct{ name, src string }{
		{"a_loop.amber", loop},
		{"b_ok.amber", head + "EXPECT b IDX 0 EQ 7\n"},
		{"c_bad.expect_fail.amber", head + "EXPECT b IDX 0 EQ 8\n"},
		{"d_loop.expect_fail.amber", loop},
		{"e_ok.amber", head + "EXPECT b IDX 4 EQ 7 7 7\n"},
	}
	var paths []string
	for _, s := range scripts {
		p := filepath.Join(dir, s.name)
		if err := os.WriteFile(p, []byte(s.src), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	var log bytes.Buffer
	const timeout = 300 * time.Millisecond
	start := time.Now()
	// The outer deadline turns a missing per-script one into a failure
	// rather than a hung test.
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	runs := RunAll(ctx, paths, Options{Timeout: timeout, Log: &log}, 2)
	want := []Status{Fail, Pass, Pass, Fail, Pass}
	for i, p := range paths {
		r := runs.Result(i)
		if r.Path != p || r.Status != want[i] {
			t.Errorf("result %d: %s %v (%s), want %s %v", i, r.Path, r.Status, r.Reason, p, want[i])
		}
		if strings.Contains(p, "loop") {
			if !strings.HasPrefix(r.Reason, "timed out after 300ms: ") || !strings.Contains(r.Reason, "Vulkan::Calling vkWaitForFences Timeout") {
				t.Errorf("%s: reason %q, want the timeout in amber's words", p, r.Reason)
			}
		} else if r.Elapsed >= timeout {
			t.Errorf("%s took %v: it waited for a looping script", p, r.Elapsed)
		}
		if l := string(runs.Log(i)); !strings.Contains(l, p+":") || strings.Count(l, "EXPECT") == 0 {
			t.Errorf("log of %s: %q", p, l)
		}
		for j, q := range paths {
			if j != i && strings.Contains(string(runs.Log(i)), q+":") {
				t.Errorf("log of %s holds lines of %s", p, q)
			}
		}
	}
	if got := runs.Wait(); len(got) != len(paths) {
		t.Fatalf("Wait: %d results", len(got))
	}
	if log.Len() != 0 {
		t.Errorf("with 2 jobs, Options.Log got %q; the logs should be kept apart", log.String())
	}
	// Two loops on two workers end by their own deadlines, not after
	// the 2·10^9 iterations; a generous bound for a loaded machine.
	if el := time.Since(start); el > 20*timeout {
		t.Errorf("RunAll took %v with a %v timeout per script", el, timeout)
	}
}

// TestRunAllOneJobStreamsLog checks that with one job the log goes to
// Options.Log as the script runs, and that no timeout is no limit.
func TestRunAllOneJobStreamsLog(t *testing.T) {
	p := filepath.Join(t.TempDir(), "ok.amber")
	os.WriteFile(p, []byte("#!amber\nBUFFER b DATA_TYPE uint32 SIZE 4 FILL 7\nREPEAT 1000\n  EXPECT b IDX 0 EQ 7\nEND\n"), 0o644)
	var log bytes.Buffer
	rs := RunAll(context.Background(), []string{p}, Options{Log: &log}, 1).Wait()
	if len(rs) != 1 || rs[0].Status != Pass {
		t.Fatalf("%+v", rs)
	}
	if n := strings.Count(log.String(), p+":4: EXPECT b IDX 0 EQ 7"); n != 1000 {
		t.Errorf("log holds the EXPECT %d times, want 1000:\n%.300s", n, log.String())
	}
}
