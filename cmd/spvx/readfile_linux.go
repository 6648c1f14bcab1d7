package main

import (
	"os"
	"syscall"
)

// mapFile maps size bytes of the regular file f into memory, read-only.
// Why: on the virtual machines spvx runs on, the first touch of each fresh
// page of a read buffer costs more than assembling or disassembling it; a
// populated private mapping of the page cache costs one system call.
// release unmaps it. ok is false when the mapping fails; the caller then
// reads the file.
func mapFile(f *os.File, size int64) (data []byte, release func(), ok bool) {
	data, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_PRIVATE|syscall.MAP_POPULATE)
	if err != nil {
		return nil, nil, false
	}
	return data, func() { syscall.Munmap(data) }, true
}
