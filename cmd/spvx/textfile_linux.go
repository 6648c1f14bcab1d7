package main

import (
	"os"
	"syscall"
)

// mapThreshold is the size from which a text file is mapped rather than
// read: for megabyte inputs, mapping the page cache (populated in one
// call) avoids copying into fresh heap memory, whose page faults dominate
// the assembler's whole-process time on virtual machines.
const mapThreshold = 1 << 20

// readTextFile returns the contents of a named file and a function that
// releases them.
func readTextFile(name string) ([]byte, func(), error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if st.Mode().IsRegular() && st.Size() >= mapThreshold && st.Size() < 1<<31 {
		b, err := syscall.Mmap(int(f.Fd()), 0, int(st.Size()), syscall.PROT_READ, syscall.MAP_PRIVATE|syscall.MAP_POPULATE)
		if err == nil {
			return b, func() { syscall.Munmap(b) }, nil
		}
	}
	b, err := os.ReadFile(name)
	return b, func() {}, err
}
