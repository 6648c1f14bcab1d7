package checkpoint

import (
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"strings"
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

// TestIndexCannotNameOutputs checks that a shard index cannot choose the
// files written beside the output index: shards not named the Hugging Face
// way (.bashrc) get names spvx derives from the output index, and an
// existing file is never replaced without Force.
func TestIndexCannotNameOutputs(t *testing.T) {
	dir, out := t.TempDir(), t.TempDir()
	rng := rand.New(rand.NewSource(5))
	writeCheckpoint(t, filepath.Join(dir, ".bashrc"), nil, makeTensor(rng, "a.w", "F32", 4, 32))
	writeIndex(t, filepath.Join(dir, "model.safetensors.index.json"), map[string]string{"a.w": ".bashrc"})
	bashrc := filepath.Join(out, ".bashrc")
	os.WriteFile(bashrc, []byte("alias ls=ls\n"), 0o644)
	outIndex := filepath.Join(out, "q.safetensors.index.json")
	if _, err := Quantize(filepath.Join(dir, "model.safetensors.index.json"), outIndex, Options{Format: mx.MXFP4}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(bashrc); string(b) != "alias ls=ls\n" {
		t.Errorf("OUTDIR/.bashrc was replaced")
	}
	nx, err := tensorfile.ReadShardIndex(readFile(t, outIndex))
	if err != nil {
		t.Fatal(err)
	}
	if got := nx.WeightMap["a.w.scales"]; got != "q-00001-of-00001.safetensors" {
		t.Errorf("output shard %q, want q-00001-of-00001.safetensors", got)
	}
	// Run again: every output exists now.
	_, err = Quantize(filepath.Join(dir, "model.safetensors.index.json"), outIndex, Options{Format: mx.MXFP4})
	if err == nil || !strings.Contains(err.Error(), "exists; use --force to overwrite") {
		t.Errorf("second run: %v", err)
	}
	if _, err := Quantize(filepath.Join(dir, "model.safetensors.index.json"), outIndex, Options{Format: mx.MXFP4, Force: true}); err != nil {
		t.Errorf("second run with Force: %v", err)
	}
}

// TestForceSingleFile checks the rule for each command writing one file.
func TestForceSingleFile(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewSource(6))
	in := filepath.Join(dir, "in.safetensors")
	writeCheckpoint(t, in, nil, makeTensor(rng, "w", "F32", 4, 32))
	q := filepath.Join(dir, "q.safetensors")
	if _, err := Quantize(in, q, Options{Format: mx.MXFP4}); err != nil {
		t.Fatal(err)
	}
	taken := filepath.Join(dir, "taken")
	keep := func() {
		os.WriteFile(taken, []byte("mine"), 0o644)
	}
	for name, run := range map[string]func(force bool) error{
		"quantize":   func(f bool) error { _, err := Quantize(in, taken, Options{Format: mx.MXFP4, Force: f}); return err },
		"dequantize": func(f bool) error { _, err := Dequantize(q, taken, DequantizeOptions{Force: f}); return err },
		"to gguf":    func(f bool) error { _, err := Convert(q, taken, ConvertOptions{To: "gguf", Force: f}); return err },
		"relayout": func(f bool) error {
			_, err := Convert(q, taken, ConvertOptions{To: "safetensors", Force: f})
			return err
		},
	} {
		keep()
		if err := run(false); err == nil || err.Error() != taken+" exists; use --force to overwrite" {
			t.Errorf("%s over an existing file: %v", name, err)
		}
		if b, _ := os.ReadFile(taken); string(b) != "mine" {
			t.Errorf("%s truncated an existing file without Force", name)
		}
		if err := run(true); err != nil {
			t.Errorf("%s with Force: %v", name, err)
		}
	}
}

// TestShardLacksTensor checks that an index naming a tensor its shard
// does not hold is an error.
func TestShardLacksTensor(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewSource(7))
	shard := "model-00001-of-00001.safetensors"
	writeCheckpoint(t, filepath.Join(dir, shard), nil, makeTensor(rng, "a.w", "F32", 4, 32))
	index := filepath.Join(dir, "model.safetensors.index.json")
	writeIndex(t, index, map[string]string{"a.w": shard, "ghost.w": shard})
	_, err := Quantize(index, filepath.Join(t.TempDir(), "q.safetensors.index.json"), Options{Format: mx.MXFP4})
	if err == nil || !strings.Contains(err.Error(), `names tensor "ghost.w" in this shard, which does not hold it`) {
		t.Errorf("missing tensor: %v", err)
	}
}

func writeIndex(t *testing.T, name string, wm map[string]string) {
	t.Helper()
	js, err := tensorfile.WriteShardIndex(&tensorfile.ShardIndex{WeightMap: wm})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, js, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestInspectHistogramsOnlyForMX checks that Inspect keeps a scale
// histogram for MX tensors only, so its memory follows the tensors'
// count at a few hundred bytes each, not 2 KB more each (400,000 plain
// tensors took gigabytes), for safetensors and GGUF alike.
func TestInspectHistogramsOnlyForMX(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewSource(8))
	const plain = 4000
	ts := []testTensor{makeTensor(rng, "mx.w", "F32", 4, 32)}
	for i := 0; i < plain; i++ {
		ts = append(ts, makeTensor(rng, fmt.Sprintf("p%05d", i), "F32", 1))
	}
	in, q, g := filepath.Join(dir, "in.safetensors"), filepath.Join(dir, "q.safetensors"), filepath.Join(dir, "q.gguf")
	writeCheckpoint(t, in, nil, ts...)
	if _, err := Quantize(in, q, Options{Format: mx.MXFP4, Filter: Filter{Include: []string{"mx.w"}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := Convert(q, g, ConvertOptions{To: "gguf"}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{q, g} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		l, err := Inspect(name)
		if err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		withHist := 0
		for _, e := range l.Tensors {
			if e.Scales != nil {
				withHist++
				if !e.MX {
					t.Errorf("%s: plain tensor %s has a histogram", name, e.Name)
				}
			}
		}
		if withHist != 1 || len(l.Tensors) != plain+1 {
			t.Errorf("%s: %d of %d tensors have histograms, want 1 of %d", name, withHist, len(l.Tensors), plain+1)
		}
		// What the listing holds: a few hundred bytes a tensor.
		t.Logf("%s: %d bytes per tensor", filepath.Ext(name), (int64(after.HeapAlloc)-int64(before.HeapAlloc))/plain)
		if per := (int64(after.HeapAlloc) - int64(before.HeapAlloc)) / plain; per > 512 {
			t.Errorf("%s: the listing holds %d bytes per tensor", name, per)
		}
		runtime.KeepAlive(l)
	}
}

// TestFailedDeviceOutputKept: an output that is an existing FIFO (or a
// device, such as /dev/null) is opened without --force, and when the
// checkpoint cannot be written to it (no seeking, no truncation) it is
// left in place: only a regular file spvx made is removed on failure.
func TestFailedDeviceOutputKept(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("a FIFO opened for reading and writing is Linux's behaviour")
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "m.safetensors")
	writeCheckpoint(t, in, nil, makeTensor(rand.New(rand.NewSource(1)), "w", "F32", 4, 32))
	fifo := filepath.Join(dir, "out.safetensors")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	err := returnsWithin(t, "Quantize to a FIFO", func() error {
		_, err := Quantize(in, fifo, Options{Format: mx.MXFP4})
		return err
	})
	if err == nil || strings.Contains(err.Error(), "exists") {
		t.Errorf("Quantize to a FIFO: %v", err)
	}
	if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO is gone: %v", err)
	}
}
