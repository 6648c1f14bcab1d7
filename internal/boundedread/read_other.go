//go:build !linux

package boundedread

import (
	"io"
	"os"
)

// MapFile maps nothing on this system: the caller reads the file.
func MapFile(f *os.File, size int64) (data []byte, release func(), ok bool) {
	return nil, nil, false
}

// readStream reads a stream of unknown size into chunks (Chunks).
func readStream(r io.Reader, limit int, prefix []byte) (data []byte, release func(), err error) {
	data, err = Chunks(r, limit, prefix)
	return data, nil, err
}
