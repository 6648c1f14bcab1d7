package main

import (
	"fmt"
	"io"
)

// maxInput bounds what spvx reads from a file or stream. Modules and their
// text are megabytes; the limit keeps a mistaken argument (a device, an
// endless pipe) from exhausting memory.
const maxInput = 1 << 30

// readAll reads r to the end, at most maxInput bytes; size, if known,
// sizes the buffer.
func readAll(r io.Reader, size int64) ([]byte, error) {
	return readLimited(r, size, maxInput)
}

// readLimited is readAll with the limit as a parameter, for tests.
func readLimited(r io.Reader, size int64, limit int) ([]byte, error) {
	n := 512
	if size > 0 && size <= int64(limit) {
		n = int(size) + 1
	}
	buf := make([]byte, 0, n)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		k, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+k]
		if len(buf) > limit {
			return nil, fmt.Errorf("input is larger than %d bytes", limit)
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}
