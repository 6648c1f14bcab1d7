package boundedread

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestReadFileRegular(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "f")
	data := bytes.Repeat([]byte("abc"), 1000)
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ReadFile(name, 3000)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("ReadFile = %d bytes, %v", len(got), err)
	}
	if _, err := ReadFile(name, 2999); err == nil || !strings.Contains(err.Error(), "larger than 2999 bytes") {
		t.Errorf("over the limit: %v", err)
	}
	if _, err := ReadFile(dir, 3000); !errors.Is(err, ErrNotRegular) {
		t.Errorf("directory: %v", err)
	}
}

// TestReadFileFIFO checks that a FIFO with no writer is refused at once
// instead of blocking the open forever.
func TestReadFileFIFO(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no FIFOs")
	}
	name := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(name, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := ReadFile(name, 1<<20)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("FIFO: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ReadFile blocked on a FIFO")
	}
	if _, _, err := OpenRegular(name); !errors.Is(err, ErrNotRegular) {
		t.Errorf("OpenRegular FIFO: %v", err)
	}
}

// TestReadDevices checks the two ways a device is turned away: ReadFile
// refuses it by type, ReadAny reads it as a stream and stops at the limit.
func TestReadDevices(t *testing.T) {
	for _, dev := range []string{"/dev/zero", "/dev/urandom"} {
		if _, err := os.Stat(dev); err != nil {
			continue
		}
		if _, err := ReadFile(dev, 1<<20); !errors.Is(err, ErrNotRegular) {
			t.Errorf("ReadFile(%s): %v", dev, err)
		}
		if _, err := ReadAny(dev, 1<<20); err == nil || !strings.Contains(err.Error(), "larger than 1048576 bytes") {
			t.Errorf("ReadAny(%s): %v", dev, err)
		}
	}
}

// growing is a file reader that returns more bytes than the size it was
// given, as a file appended to while it is read.
type growing struct{ n int }

func (g *growing) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'g'
	}
	g.n += len(p)
	return len(p), nil
}

func TestReadGrowing(t *testing.T) {
	if _, err := ReadHeap(&growing{}, 100, 1<<16); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("ReadHeap of a growing file: %v", err)
	}
	if _, _, err := Read(&growing{}, 100, 1<<16); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("Read of a growing file: %v", err)
	}
}
