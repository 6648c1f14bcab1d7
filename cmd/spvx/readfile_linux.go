package main

import (
	"os"
	"syscall"
)

// mapInput returns the contents of a regular file, mapped into memory
// rather than read (spvx as and spvx dis use it; the data is read-only).
// Why: on the virtual machines spvx runs on, the first touch of each fresh
// page of a read buffer costs more than assembling or disassembling it; a
// populated private mapping of the page cache costs one system call.
// release unmaps it. Other files (pipes, devices) are read.
func mapInput(path string) (data []byte, release func(), err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	size := fi.Size()
	if !fi.Mode().IsRegular() || size == 0 || size != int64(int(size)) {
		data, err := readAll(f, size)
		return data, func() {}, err
	}
	data, err = syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_PRIVATE|syscall.MAP_POPULATE)
	if err != nil {
		data, err := readAll(f, size)
		return data, func() {}, err
	}
	return data, func() { syscall.Munmap(data) }, nil
}
