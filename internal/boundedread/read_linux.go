package boundedread

import (
	"errors"
	"io"
	"os"
	"syscall"
)

// MapFile maps size bytes of the regular file f into memory, read-only.
// Why: on the virtual machines spvx runs on, the first touch of each fresh
// page of a read buffer costs more than assembling or disassembling it; a
// populated private mapping of the page cache costs one system call.
// release unmaps it. ok is false when the mapping fails; the caller then
// reads the file.
func MapFile(f *os.File, size int64) (data []byte, release func(), ok bool) {
	data, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_PRIVATE|syscall.MAP_POPULATE)
	if err != nil {
		return nil, nil, false
	}
	return data, func() { syscall.Munmap(data) }, true
}

// streamHead is what readStream reads into the heap before it maps a
// region for a longer stream.
const streamHead = 4 << 10

// streamCopyMax is the size up to which readStream copies what it read to
// the heap and unmaps its region at once: most streams are small modules
// or texts, and their callers need not release anything.
const streamCopyMax = 1 << 20

// readStream reads a stream of unknown size into an anonymous private
// mapping of limit+1 bytes (MAP_NORESERVE): it reserves address space, not
// memory, so memory grows page by page with the data and nothing is ever
// copied or doubled; a stream beyond the limit costs the limit. A result
// above streamCopyMax stays in the mapping (its untouched pages cost no
// memory) and release unmaps it. If the mapping fails, it reads into
// chunks.
func readStream(r io.Reader, limit int, prefix []byte) (data []byte, release func(), err error) {
	if prefix == nil {
		// A small stream fits in one page of heap: mapping and unmapping
		// a region, or faulting in a fresh 64 KiB buffer, costs about
		// 0.1 ms on these VMs, ten times reading a short text.
		head := make([]byte, min(streamHead, limit+1))
		n, err := Fill(r, head)
		switch {
		case err == io.EOF:
			return head[:n], nil, nil
		case err != nil:
			return nil, nil, err
		case n > limit:
			return nil, nil, ErrTooLarge(limit)
		}
		prefix = head
	}
	region, err := syscall.Mmap(-1, 0, limit+1, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
	if err != nil {
		data, err = Chunks(r, limit, prefix)
		return data, nil, err
	}
	unmap := func() { syscall.Munmap(region) }
	n := copy(region, prefix)
	for idle := 0; n <= limit; {
		// Reads of at most 1 MiB: asked for the whole region, a reader
		// such as bufio.Reader passes the request through, and a device
		// like /dev/zero fills all of it; this way an endless stream is
		// noticed within a MiB of the limit.
		m, rerr := r.Read(region[n:min(n+1<<20, limit+1)])
		n += m
		if errors.Is(rerr, io.EOF) {
			break
		}
		if rerr != nil {
			unmap()
			return nil, nil, rerr
		}
		if idle++; m > 0 {
			idle = 0
		} else if idle >= 100 {
			unmap()
			return nil, nil, io.ErrNoProgress
		}
	}
	if n > limit {
		unmap()
		return nil, nil, ErrTooLarge(limit)
	}
	if n <= streamCopyMax {
		data = append([]byte(nil), region[:n]...)
		unmap()
		return data, nil, nil
	}
	return region[:n:n], unmap, nil
}
