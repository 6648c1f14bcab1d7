//go:build !amd64

package mx

// withGatherDecode: no kernels to switch here.
func withGatherDecode(fn func()) {}

// withGather512: no kernels to switch here.
func withGather512(fn func()) {}

// withNT: no kernels to switch here.
func withNT(fn func()) {}
