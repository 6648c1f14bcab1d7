package main

import (
	"errors"
	"fmt"
	"io"
)

// maxInput bounds what spvx reads from a file or stream. Modules and their
// text are megabytes; the limit keeps a mistaken argument (a device, an
// endless pipe) from exhausting memory.
const maxInput = 1 << 30

// readAll reads r to the end, at most maxInput bytes; size, if known,
// sizes the buffer. release, when not nil, frees the buffer (see
// readLimited).
func readAll(r io.Reader, size int64) (data []byte, release func(), err error) {
	return readLimited(r, size, maxInput)
}

// readLimited is readAll with the limit as a parameter, for tests.
//
// Its memory stays close to what it reads, and never exceeds the limit by
// more than a chunk: a growing buffer that doubles (bytes.Buffer) holds
// the old and the new copy while it grows, and reached 3 to 4 GB to find
// that a stream exceeds 1 GiB. With a known size, one buffer of size+1
// bytes is read (the extra byte notices a file that grew). Otherwise the
// stream is read into a reserved region of limit+1 bytes of address space
// where the system allows it (readfile_linux.go: pages become memory only
// as data arrives, and nothing is copied), or else into a list of chunks
// of at most streamChunk bytes, joined once at the end.
func readLimited(r io.Reader, size int64, limit int) (data []byte, release func(), err error) {
	if size <= 0 || size > int64(limit) {
		return readStream(r, limit, nil)
	}
	buf := make([]byte, size+1)
	n, err := fill(r, buf)
	switch {
	case err == io.EOF:
		return buf[:n], nil, nil
	case err != nil:
		return nil, nil, err
	}
	// The file grew since its size was taken: read on as a stream.
	return readStream(r, limit, buf)
}

// fill reads from r until buf is full (err nil), the stream ends (io.EOF,
// with n the bytes read) or fails. Unlike io.ReadFull it gives up with
// io.ErrNoProgress on a reader that keeps returning nothing and no error,
// which would otherwise spin forever.
func fill(r io.Reader, buf []byte) (n int, err error) {
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

// errTooLarge is the error for an input beyond the limit.
func errTooLarge(limit int) error { return fmt.Errorf("input is larger than %d bytes", limit) }

// streamChunk is the largest chunk readChunks reads into: big enough that
// a gigabyte is a few dozen allocations, small enough that a stream past
// the limit costs at most this much beyond it.
const streamChunk = 32 << 20

// readChunks reads r to the end into chunks that grow from 64 KiB to
// streamChunk bytes, failing as soon as more than limit bytes arrive, then
// joins them into one buffer of the exact size. prefix, if not nil, is
// data already read.
func readChunks(r io.Reader, limit int, prefix []byte) ([]byte, error) {
	var chunks [][]byte
	total := len(prefix)
	if total > limit {
		return nil, errTooLarge(limit)
	}
	if prefix != nil {
		chunks = append(chunks, prefix)
	}
	size := 64 << 10
	for {
		c := make([]byte, min(size, limit+1-total))
		n, err := fill(r, c)
		total += n
		chunks = append(chunks, c[:n])
		if total > limit {
			return nil, errTooLarge(limit)
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
