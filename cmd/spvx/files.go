package main

import (
	"fmt"
	"io"
	"os"

	"spvx/internal/hexdump"
)

// binaryModule returns the module an input holds: the input itself, or,
// when it is a module written as a hex dump (0x07230203, 0x00010000, ...;
// see internal/hexdump), the bytes the dump spells, as SPIRV-Tools' tools
// accept too.
func binaryModule(data []byte) ([]byte, error) {
	bin, err := hexdump.Decode(data)
	switch {
	case err != nil:
		return nil, err
	case bin == nil:
		return data, nil
	}
	return bin, nil
}

// readInput reads a named file, or standard input for "-". The size limit
// keeps a mistaken argument (a device, a huge file) from exhausting memory.
func readInput(name string, s stdio) ([]byte, error) {
	const limit = 1 << 30
	var r io.Reader
	if name == "-" {
		r = s.in
	} else {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if len(b) > limit {
		return nil, fmt.Errorf("input is larger than %d bytes", limit)
	}
	return b, nil
}
