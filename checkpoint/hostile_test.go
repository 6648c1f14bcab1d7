package checkpoint

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"spvx/internal/boundedread"
	"spvx/internal/tensorfile"
	"spvx/mx"
)

// returnsWithin fails the test if f blocks: a FIFO must be refused at
// open, not waited on.
func returnsWithin(t *testing.T, what string, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(20 * time.Second):
		t.Fatalf("%s blocked", what)
		return nil
	}
}

// TestFIFOInputs gives a FIFO as a checkpoint, as a shard of an index and
// as the index itself: each is "not a regular file" at once.
func TestFIFOInputs(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "model-00001-of-00001.safetensors")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	idx := &tensorfile.ShardIndex{WeightMap: map[string]string{"w": filepath.Base(fifo)}}
	js, _ := tensorfile.WriteShardIndex(idx)
	index := filepath.Join(dir, "model.safetensors.index.json")
	os.WriteFile(index, js, 0o644)
	fifoIndex := filepath.Join(dir, "fifo.safetensors.index.json")
	syscall.Mkfifo(fifoIndex, 0o600)
	out := t.TempDir()
	for _, in := range []string{fifo, index, fifoIndex} {
		err := returnsWithin(t, "Quantize "+in, func() error {
			_, err := Quantize(in, filepath.Join(out, filepath.Base(in)), Options{Format: mx.MXFP4})
			return err
		})
		if !errors.Is(err, boundedread.ErrNotRegular) {
			t.Errorf("Quantize(%s): %v", in, err)
		}
	}
	err := returnsWithin(t, "Inspect", func() error { _, err := Inspect(fifo); return err })
	if !errors.Is(err, boundedread.ErrNotRegular) {
		t.Errorf("Inspect: %v", err)
	}
	err = returnsWithin(t, "Convert", func() error {
		_, err := Convert(fifo, filepath.Join(out, "x.gguf"), ConvertOptions{To: "gguf"})
		return err
	})
	if !errors.Is(err, boundedread.ErrNotRegular) {
		t.Errorf("Convert: %v", err)
	}
}
