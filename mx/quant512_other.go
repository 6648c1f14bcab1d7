//go:build !amd64

package mx

// quantBlocks32x16 has no kernel here: 16-bit blocks are widened and go
// through the float32 loops.
func quantBlocks32x16(Format, []byte, []byte, []uint16, bool) int { return 0 }
