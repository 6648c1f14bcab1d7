//go:build !linux

package main

import (
	"io"
	"os"
)

// mapFile maps nothing on this system: the caller reads the file.
func mapFile(f *os.File, size int64) (data []byte, release func(), ok bool) {
	return nil, nil, false
}

// readStream reads a stream of unknown size into chunks (readChunks).
func readStream(r io.Reader, limit int, prefix []byte) (data []byte, release func(), err error) {
	data, err = readChunks(r, limit, prefix)
	return data, nil, err
}
