//go:build !amd64

package mx

// Without assembly kernels every slice element takes the portable loops.

func decodeF32Kernel([]float32, []uint8, *[256]float32) int { return 0 }

func decodeU16Kernel([]uint16, []uint8, *[258]uint16) int { return 0 }

func encodeBitsKernel(*sliceEncoder, []uint8, []uint32) int { return 0 }

func encode16Kernel(*sliceEncoder, []uint8, []uint16, bool) int { return 0 }

func narrow16Kernel([]uint16, []float32, bool) int { return 0 }

func widen16Kernel([]float32, []uint16, bool) int { return 0 }
