package boundedread

import (
	"errors"
	"io/fs"
	"os"
)

// ErrNotRegular is the error for a name that must be a regular file but
// is a FIFO, a device, a socket or a directory.
var ErrNotRegular = errors.New("not a regular file")

// OpenRegular opens name for reading if it is a regular file, and fails
// with ErrNotRegular otherwise. The file is opened without blocking and
// its type taken from the open descriptor (fstat): a FIFO with no writer
// would block a plain open forever, and checking the path first (Stat)
// leaves a moment in which it can be swapped for one.
func OpenRegular(name string) (*os.File, fs.FileInfo, error) {
	f, err := openNoBlock(name)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, &fs.PathError{Op: "open", Path: name, Err: ErrNotRegular}
	}
	return f, fi, nil
}

// ReadFile reads the regular file name whole into the heap, failing if it
// is not a regular file (OpenRegular) or holds more than limit bytes, also
// when it grows while it is read.
func ReadFile(name string, limit int) ([]byte, error) {
	f, fi, err := OpenRegular(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi.Size() > int64(limit) {
		return nil, &fs.PathError{Op: "read", Path: name, Err: ErrTooLarge(limit)}
	}
	b, err := ReadHeap(f, fi.Size(), limit)
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: err}
	}
	return b, nil
}

// ReadAny reads name whole into the heap, whatever kind of file it is: a
// regular file by its size, anything else (a pipe, a device, /dev/stdin)
// as a stream. Either fails past limit bytes: /dev/zero fails near the
// limit instead of filling memory.
func ReadAny(name string, limit int) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := int64(0)
	if fi.Mode().IsRegular() {
		if size = fi.Size(); size > int64(limit) {
			return nil, &fs.PathError{Op: "read", Path: name, Err: ErrTooLarge(limit)}
		}
	}
	b, err := ReadHeap(f, size, limit)
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: err}
	}
	return b, nil
}
