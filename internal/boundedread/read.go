// Package boundedread reads files and streams whose size spvx does not
// control (modules, scripts, their FILE companions, tensors, push-constant
// data) with a hard limit on what it reads: a device such as /dev/zero, an
// endless pipe or a file that keeps growing fails with an error near the
// limit instead of exhausting memory, however its size looked from Stat.
package boundedread

import (
	"errors"
	"fmt"
	"io"
)

// Max is the default limit: 1 GiB. Modules, scripts and their data are
// megabytes; the limit keeps a mistaken argument from filling memory.
const Max = 1 << 30

// ErrTooLarge returns the error for an input beyond limit.
func ErrTooLarge(limit int) error { return fmt.Errorf("input is larger than %d bytes", limit) }

// Read reads r to the end, at most limit bytes; size, if known (> 0),
// sizes the buffer. release, when not nil, frees the buffer.
//
// Its memory stays close to what it reads, and never exceeds the limit by
// more than a chunk: a growing buffer that doubles (bytes.Buffer) holds
// the old and the new copy while it grows, and reached 3 to 4 GB to find
// that a stream exceeds 1 GiB. With a known size, one buffer of size+1
// bytes is read (the extra byte notices a file that grew). Otherwise the
// stream is read into a reserved region of limit+1 bytes of address space
// where the system allows it (read_linux.go: pages become memory only as
// data arrives, and nothing is copied), or else into a list of chunks of
// at most streamChunk bytes, joined once at the end.
func Read(r io.Reader, size int64, limit int) (data []byte, release func(), err error) {
	if size <= 0 || size > int64(limit) {
		return readStream(r, limit, nil)
	}
	buf := make([]byte, size+1)
	n, err := Fill(r, buf)
	switch {
	case err == io.EOF:
		return buf[:n], nil, nil
	case err != nil:
		return nil, nil, err
	}
	// The file grew since its size was taken: read on as a stream.
	return readStream(r, limit, buf)
}

// ReadHeap is Read for a caller that keeps the data with no release: the
// result is always on the Go heap.
func ReadHeap(r io.Reader, size int64, limit int) ([]byte, error) {
	if size <= 0 || size > int64(limit) {
		return Chunks(r, limit, nil)
	}
	buf := make([]byte, size+1)
	n, err := Fill(r, buf)
	switch {
	case err == io.EOF:
		return buf[:n], nil
	case err != nil:
		return nil, err
	}
	return Chunks(r, limit, buf)
}

// Fill reads from r until buf is full (err nil), the stream ends (io.EOF,
// with n the bytes read) or fails. Unlike io.ReadFull it gives up with
// io.ErrNoProgress on a reader that keeps returning nothing and no error,
// which would otherwise spin forever.
func Fill(r io.Reader, buf []byte) (n int, err error) {
	for idle := 0; n < len(buf); {
		m, err := r.Read(buf[n:])
		n += m
		if errors.Is(err, io.EOF) {
			return n, io.EOF
		}
		if err != nil {
			return n, err
		}
		if idle++; m > 0 {
			idle = 0
		} else if idle >= 100 {
			return n, io.ErrNoProgress
		}
	}
	return n, nil
}

// streamChunk is the largest chunk Chunks reads into: big enough that a
// gigabyte is a few dozen allocations, small enough that a stream past the
// limit costs at most this much beyond it.
const streamChunk = 32 << 20

// Chunks reads r to the end into chunks that grow from 64 KiB to
// streamChunk bytes, failing as soon as more than limit bytes arrive, then
// joins them into one buffer of the exact size. prefix, if not nil, is
// data already read.
func Chunks(r io.Reader, limit int, prefix []byte) ([]byte, error) {
	var chunks [][]byte
	total := len(prefix)
	if total > limit {
		return nil, ErrTooLarge(limit)
	}
	if prefix != nil {
		chunks = append(chunks, prefix)
	}
	size := 64 << 10
	for {
		c := make([]byte, min(size, limit+1-total))
		n, err := Fill(r, c)
		total += n
		chunks = append(chunks, c[:n])
		if total > limit {
			return nil, ErrTooLarge(limit)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		size = min(2*size, streamChunk)
	}
	if len(chunks) == 1 {
		return chunks[0], nil
	}
	out := make([]byte, 0, total)
	for i, c := range chunks {
		out = append(out, c...)
		chunks[i] = nil // let the collector take each chunk once copied
	}
	return out, nil
}
