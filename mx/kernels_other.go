//go:build !amd64

package mx

// Without assembly kernels every block takes the portable loops.

func quantBlocks32(Format, []byte, []byte, []float32) int { return 0 }

func dequantBlocks32(Format, []float32, []byte, []byte) int { return 0 }

func haveKernels() bool { return false }

// useAVX2 is always false here; the tests that switch kernels off read it.
var useAVX2 bool

// useF16C is always false here too.
var useF16C bool

// useAVX512 and useVBMI are always false here too.
var useAVX512, useVBMI bool
