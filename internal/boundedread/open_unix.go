//go:build unix

package boundedread

import (
	"os"
	"syscall"
)

// openNoBlock opens name read-only with O_NONBLOCK, so that opening a FIFO
// returns at once; for a regular file the flag changes nothing.
func openNoBlock(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
