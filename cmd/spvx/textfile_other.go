//go:build !linux

package main

import "os"

// readTextFile returns the contents of a named file and a function that
// releases them.
func readTextFile(name string) ([]byte, func(), error) {
	b, err := os.ReadFile(name)
	return b, func() {}, err
}
