//go:build !linux

package main

import "os"

// mapInput returns the contents of a file. release does nothing.
func mapInput(path string) (data []byte, release func(), err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	var size int64
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		size = fi.Size()
	}
	data, err = readAll(f, size)
	return data, func() {}, err
}
