package main

import (
	"io"

	"spvx/internal/boundedread"
)

// maxInput bounds what spvx reads from a file or stream. Modules and their
// text are megabytes; the limit keeps a mistaken argument (a device, an
// endless pipe) from exhausting memory.
const maxInput = boundedread.Max

// readAll reads r to the end, at most maxInput bytes; size, if known,
// sizes the buffer. release, when not nil, frees the buffer (see
// boundedread.Read).
func readAll(r io.Reader, size int64) (data []byte, release func(), err error) {
	return readLimited(r, size, maxInput)
}

// readLimited is readAll with the limit as a parameter, for tests.
func readLimited(r io.Reader, size int64, limit int) (data []byte, release func(), err error) {
	return boundedread.Read(r, size, limit)
}

// readChunks reads r into chunks (boundedread.Chunks), for tests.
func readChunks(r io.Reader, limit int, prefix []byte) ([]byte, error) {
	return boundedread.Chunks(r, limit, prefix)
}

// mapFile maps a regular file (boundedread.MapFile).
var mapFile = boundedread.MapFile
