package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"spvx/spirv"
)

// endless is an io.Reader that never ends.
type endless byte

func (e endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(e)
	}
	return len(p), nil
}

func TestReadLimited(t *testing.T) {
	data := bytes.Repeat([]byte("spvx"), 1000)
	for _, size := range []int64{0, 10, 3999, 4000, 4001, 1 << 20} {
		got, _, err := readLimited(bytes.NewReader(data), size, 4000)
		if err != nil || !bytes.Equal(got, data) {
			t.Errorf("size hint %d: %d bytes, %v", size, len(got), err)
		}
	}
	if _, _, err := readLimited(bytes.NewReader(data), 0, 3999); err == nil || !strings.Contains(err.Error(), "larger than 3999 bytes") {
		t.Errorf("over the limit: %v", err)
	}
	if _, _, err := readLimited(bytes.NewReader(data), 10, 3999); err == nil || !strings.Contains(err.Error(), "larger than 3999 bytes") {
		t.Errorf("over the limit, size hint 10 (a file that grew): %v", err)
	}
	if _, _, err := readLimited(endless('x'), 0, 1<<16); err == nil {
		t.Error("an endless stream was read without error")
	}
	broken := io.MultiReader(bytes.NewReader(data[:10]), iotestErr{})
	if _, _, err := readLimited(broken, 0, 4000); err == nil || err.Error() != "broken pipe" {
		t.Errorf("read error: %v", err)
	}
	if _, err := readChunks(io.MultiReader(bytes.NewReader(data[:10]), iotestErr{}), 4000, nil); err == nil || err.Error() != "broken pipe" {
		t.Errorf("readChunks read error: %v", err)
	}
	// Past streamCopyMax the stream stays in its mapping; release frees it.
	big := bytes.Repeat([]byte("0123456789abcdef"), 3<<20/16+3)
	for _, limit := range []int{len(big), len(big) + 1, 64 << 20} {
		got, release, err := readLimited(bytes.NewReader(big), 0, limit)
		if err != nil || !bytes.Equal(got, big) {
			t.Errorf("limit %d: %d bytes, %v", limit, len(got), err)
		}
		if release != nil {
			release()
		}
	}
	if _, _, err := readLimited(bytes.NewReader(big), 0, len(big)-1); err == nil {
		t.Error("a stream one byte over the limit was accepted")
	}
	for _, limit := range []int{len(big) + 3, 1 << 30} {
		got, err := readChunks(bytes.NewReader(big), limit, []byte("pre"))
		if err != nil || !bytes.Equal(got, append([]byte("pre"), big...)) {
			t.Errorf("readChunks limit %d: %d bytes, %v", limit, len(got), err)
		}
	}
}

// TestEndlessStreamBounded: an endless stream is rejected at the limit with
// memory close to the limit, by both stream readers (the mapping and the
// chunks). The old bytes.Buffer doubled past the limit: 64 MiB cost it
// 256 MiB of allocation; here the Go heap grows by the chunks (at most the
// limit plus one byte) or, for the mapping, not at all.
func TestEndlessStreamBounded(t *testing.T) {
	const limit = 64 << 20
	for _, tc := range []struct {
		name string
		read func() error
		max  uint64
	}{
		{"readLimited", func() error { _, _, err := readLimited(endless('x'), 0, limit); return err }, limit + limit/8},
		{"readChunks", func() error { _, err := readChunks(endless('x'), limit, nil); return err }, limit + limit/8},
	} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		start := time.Now()
		err := tc.read()
		elapsed := time.Since(start)
		runtime.ReadMemStats(&after)
		if err == nil || !strings.Contains(err.Error(), "larger than") {
			t.Errorf("%s: %v", tc.name, err)
		}
		if d := after.TotalAlloc - before.TotalAlloc; d > tc.max {
			t.Errorf("%s: allocated %d bytes for a limit of %d", tc.name, d, limit)
		}
		if elapsed > 5*time.Second {
			t.Errorf("%s: %v to reject an endless stream at %d bytes", tc.name, elapsed, limit)
		}
	}
}

// stalled is a reader that returns nothing, and no error, forever.
type stalled struct{}

func (stalled) Read([]byte) (int, error) { return 0, nil }

func TestStalledStream(t *testing.T) {
	stalledAfter := func() io.Reader { return io.MultiReader(bytes.NewReader(make([]byte, 100<<10)), stalled{}) }
	for _, tc := range []struct {
		name string
		read func() error
	}{
		{"readLimited", func() error { _, _, err := readLimited(stalled{}, 0, 1<<20); return err }},
		{"readLimited, known size", func() error { _, _, err := readLimited(stalled{}, 1000, 1<<20); return err }},
		{"readLimited, after 100 KiB", func() error { _, _, err := readLimited(stalledAfter(), 0, 1<<20); return err }},
		{"readChunks", func() error { _, err := readChunks(stalled{}, 1<<20, nil); return err }},
		{"readChunks, after 100 KiB", func() error { _, err := readChunks(stalledAfter(), 1<<20, nil); return err }},
	} {
		done := make(chan error, 1)
		go func() { done <- tc.read() }()
		select {
		case err := <-done:
			if !errors.Is(err, io.ErrNoProgress) {
				t.Errorf("%s: a reader that never progresses: %v", tc.name, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: spins on a reader that returns nothing", tc.name)
		}
	}
}

type iotestErr struct{}

func (iotestErr) Read([]byte) (int, error) { return 0, errors.New("broken pipe") }

// TestReadModuleRejectsEarly: a stream that cannot start a module is
// rejected from its first bytes, not read to the end (or to the limit).
func TestReadModuleRejectsEarly(t *testing.T) {
	s := stdio{in: endless(0), out: io.Discard, err: io.Discard}
	done := make(chan error, 1)
	go func() {
		_, _, err := readModule("-", s)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, spirv.ErrBadMagic) {
			t.Errorf("endless zeros: %v, want ErrBadMagic", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("readModule kept reading an endless stream of zeros")
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		if _, _, err := readModule("/dev/zero", s); !errors.Is(err, spirv.ErrBadMagic) {
			t.Errorf("/dev/zero: %v, want ErrBadMagic", err)
		}
	}
	// A module or a hex dump on a stream is read whole.
	bin, err := os.ReadFile("../../examples/saxpy.spv")
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range [][]byte{bin, []byte("0x07230203, 0x00010300")} {
		got, _, err := readModule("-", stdio{in: bytes.NewReader(in)})
		if err != nil || !bytes.Equal(got, in) {
			t.Errorf("stream of %d bytes: got %d bytes, %v", len(in), len(got), err)
		}
	}
}

// TestReadTextRejectsBinaryStreams: spvx as stops at once on a stream of
// NULs rather than reading it to the limit.
func TestReadTextRejectsBinaryStreams(t *testing.T) {
	done := make(chan error, 1)
	go func() {
		_, _, err := readText("-", stdio{in: endless(0)})
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "byte 0 is NUL") {
			t.Errorf("endless NULs: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("readText kept reading an endless stream of NULs")
	}
	text := "OpCapability Shader\n"
	got, _, err := readText("-", stdio{in: strings.NewReader(text)})
	if err != nil || string(got) != text {
		t.Errorf("text on stdin: %q, %v", got, err)
	}
}

// BenchmarkReadStream reads a stream of unknown size (a pipe: no size
// hint) at two sizes, through the anonymous mapping (readLimited on Linux)
// and through chunks (the fallback elsewhere): time and memory grow
// linearly with the input, and nothing is copied twice.
func BenchmarkReadStream(b *testing.B) {
	for _, size := range []int{16 << 20, 128 << 20} {
		data := bytes.Repeat([]byte("OpNop\n"), size/6)
		b.Run(fmt.Sprintf("readLimited/%dMiB", size>>20), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				got, release, err := readLimited(bytes.NewReader(data), 0, maxInput)
				if err != nil || len(got) != len(data) {
					b.Fatal(err)
				}
				if release != nil {
					release()
				}
			}
		})
		b.Run(fmt.Sprintf("readChunks/%dMiB", size>>20), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if got, err := readChunks(bytes.NewReader(data), maxInput, nil); err != nil || len(got) != len(data) {
					b.Fatal(err)
				}
			}
		})
	}
}
