package main

import (
	"bytes"
	"errors"
	"io"
	"os"
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
	for _, size := range []int64{0, 10, 4000, 1 << 20} {
		got, err := readLimited(bytes.NewReader(data), size, 4000)
		if err != nil || !bytes.Equal(got, data) {
			t.Errorf("size hint %d: %d bytes, %v", size, len(got), err)
		}
	}
	if _, err := readLimited(bytes.NewReader(data), 0, 3999); err == nil || !strings.Contains(err.Error(), "larger than 3999 bytes") {
		t.Errorf("over the limit: %v", err)
	}
	if _, err := readLimited(endless('x'), 0, 1<<16); err == nil {
		t.Error("an endless stream was read without error")
	}
	broken := io.MultiReader(bytes.NewReader(data[:10]), iotestErr{})
	if _, err := readLimited(broken, 0, 4000); err == nil || err.Error() != "broken pipe" {
		t.Errorf("read error: %v", err)
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
