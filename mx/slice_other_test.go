//go:build !amd64

package mx

// withGatherDecode: no kernels to switch here.
func withGatherDecode(fn func()) {}
