package main

import (
	"bytes"
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
	var buf bytes.Buffer
	if size > 0 && size <= int64(limit) {
		buf.Grow(int(size) + 1) // + 1: room to see the end without growing
	}
	if _, err := buf.ReadFrom(io.LimitReader(r, int64(limit)+1)); err != nil {
		return nil, err
	}
	if buf.Len() > limit {
		return nil, fmt.Errorf("input is larger than %d bytes", limit)
	}
	return buf.Bytes(), nil
}
