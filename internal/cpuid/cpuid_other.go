//go:build !amd64

package cpuid

// detectAVX2: no x86 kernels on other architectures.
func detectAVX2() bool { return false }
