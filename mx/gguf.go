package mx

import (
	"fmt"

	"spvx/internal/checked"
)

// GGUF (llama.cpp's file format) stores MXFP4 as block_mxfp4 = {uint8 e;
// uint8 qs[16]}: 32 elements per 17-byte block, element j in the low nibble
// of qs[j] and element j+16 in the high nibble. e is the same E8M0 byte as
// the OCP scale and the nibbles are the same E2M1 codes (ggml multiplies a
// table of doubled E2M1 values by 2^(e−128), which is the same product), so
// the conversion only moves nibbles. Note that ggml decodes e = 0xFF as a
// number, not NaN.

// GGUFBlockBytes is the size of one GGUF block_mxfp4.
const GGUFBlockBytes = 17

// GGUFMXFP4Bytes returns the GGUF size of n MXFP4 elements: whole 32-element
// blocks, the last one padded with zero codes. It returns ErrFormat for a
// negative n. (17·⌈n/32⌉ fits in an int for every int n; the product is
// checked anyway, so a change of block layout cannot make it wrap.)
func GGUFMXFP4Bytes(n int) (int, error) {
	if n < 0 {
		return 0, fmt.Errorf("%w: negative element count %d", ErrFormat, n)
	}
	size, ok := checked.Mul(ceilDiv(n, 32), GGUFBlockBytes)
	if !ok {
		return 0, fmt.Errorf("%w: GGUF size of %d MXFP4 elements overflows", ErrFormat, n)
	}
	return size, nil
}

// ToGGUFMXFP4 converts n MXFP4 elements in spvx's packing (block size 32)
// into GGUF block_mxfp4 blocks in dst, which must hold GGUFMXFP4Bytes(n).
// Elements past n in the last block are written as code 0.
func ToGGUFMXFP4(dst, scales, elements []byte, n int) error {
	size, err := GGUFMXFP4Bytes(n)
	if err != nil {
		return err
	}
	nb := ceilDiv(n, 32)
	if len(dst) < size || len(scales) < nb || len(elements) < elementBytes(MXFP4, n) {
		return ErrShortBuffer
	}
	for b := range nb {
		blk := dst[b*GGUFBlockBytes : (b+1)*GGUFBlockBytes]
		blk[0] = scales[b]
		qs := blk[1:]
		if base := b * 32; base+32 <= n {
			src := elements[b*16 : b*16+16]
			// Bytes 0..7 hold elements 0..15 and bytes 8..15 hold 16..31.
			for j := range 8 {
				lo, hi := src[j], src[j+8]
				qs[2*j] = lo&0xF | hi<<4&0xF0
				qs[2*j+1] = lo>>4 | hi&0xF0
			}
			continue
		}
		for j := range 16 {
			var lo, hi byte
			if i := b*32 + j; i < n {
				lo = Code(elements, E2M1, i)
			}
			if i := b*32 + j + 16; i < n {
				hi = Code(elements, E2M1, i)
			}
			qs[j] = lo | hi<<4
		}
	}
	return nil
}

// FromGGUFMXFP4 converts GGUF block_mxfp4 data holding n elements into
// spvx's packing: scales needs ScaleBytes(n, 32) bytes and elements
// ElementBytes(MXFP4, n). src must hold GGUFMXFP4Bytes(n) bytes.
func FromGGUFMXFP4(scales, elements, src []byte, n int) error {
	size, err := GGUFMXFP4Bytes(n)
	if err != nil {
		return err
	}
	nb := ceilDiv(n, 32)
	if len(src) < size {
		return fmt.Errorf("mx: GGUF MXFP4 data holds %d bytes, %d elements need %d: %w", len(src), n, size, ErrShortBuffer)
	}
	eb := elementBytes(MXFP4, n)
	if len(scales) < nb || len(elements) < eb {
		return ErrShortBuffer
	}
	if eb > 0 {
		elements[eb-1] = 0
	}
	for b := range nb {
		blk := src[b*GGUFBlockBytes : (b+1)*GGUFBlockBytes]
		scales[b] = blk[0]
		qs := blk[1:]
		if b*32+32 <= n {
			dst := elements[b*16 : b*16+16]
			for j := range 8 {
				q0, q1 := qs[2*j], qs[2*j+1]
				dst[j] = q0&0xF | q1<<4
				dst[j+8] = q0>>4 | q1&0xF0
			}
			continue
		}
		for j := range 16 {
			if i := b*32 + j; i < n {
				putCode(elements, 4, i, qs[j]&0xF)
			}
			if i := b*32 + j + 16; i < n {
				putCode(elements, 4, i, qs[j]>>4)
			}
		}
	}
	return nil
}
