package amber

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// within runs f and fails the test if it does not return in time: a FIFO
// or a device must be refused, not waited on or read without end.
func within(t *testing.T, what string, f func() Result) Result {
	t.Helper()
	done := make(chan Result, 1)
	go func() { done <- f() }()
	select {
	case r := <-done:
		return r
	case <-time.After(20 * time.Second):
		t.Fatalf("%s did not return", what)
		return Result{}
	}
}

// TestScriptFileNotRegular checks that a script path, and a FILE a script
// names, that is a FIFO or a device fails with "not a regular file" at once.
func TestScriptFileNotRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	r := within(t, "RunFile(FIFO)", func() Result {
		return RunFile(context.Background(), fifo, Options{Engine: &fakeEngine{}})
	})
	if r.Status != Fail || r.Reason != fifo+": not a regular file" {
		t.Errorf("script FIFO: %v %q", r.Status, r.Reason)
	}
	names := []string{fifo}
	for _, dev := range []string{"/dev/zero", "/dev/urandom"} {
		if _, err := os.Stat(dev); err == nil {
			names = append(names, dev)
		}
	}
	for _, name := range names {
		for _, cmd := range []string{
			"SHADER compute s GLSL FILE " + name,
			"BUFFER b DATA_TYPE uint32 SIZE 4 FILE BINARY " + name,
		} {
			script := filepath.Join(dir, "s.amber")
			os.WriteFile(script, []byte("#!amber\n"+cmd+"\n"), 0o644)
			r := within(t, cmd, func() Result {
				return RunFile(context.Background(), script, Options{Engine: &fakeEngine{}})
			})
			if r.Status != Fail || !strings.Contains(r.Reason, "not a regular file") || !strings.HasPrefix(r.Reason, script+":") {
				t.Errorf("%s: %v %q", cmd, r.Status, r.Reason)
			}
		}
	}
}
