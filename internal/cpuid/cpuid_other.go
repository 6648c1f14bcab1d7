//go:build !amd64

package cpuid

// detectAVX2: no x86 kernels on other architectures.
func detectAVX2() bool { return false }

// detectF16C: no x86 kernels on other architectures.
func detectF16C() bool { return false }

// detectAVX512: no x86 kernels on other architectures.
func detectAVX512() bool { return false }

// detectVBMI: no x86 kernels on other architectures.
func detectVBMI() bool { return false }
