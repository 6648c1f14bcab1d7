package main

import (
	"bytes"
	"io"
)

// readAll reads r to the end; size, if known, sizes the buffer.
func readAll(r io.Reader, size int64) ([]byte, error) {
	var buf bytes.Buffer
	if size > 0 && size == int64(int(size)) {
		buf.Grow(int(size) + 1)
	}
	_, err := buf.ReadFrom(r)
	return buf.Bytes(), err
}
