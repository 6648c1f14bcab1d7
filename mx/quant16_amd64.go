package mx

// AVX2 block quantizers for bfloat16 and binary16 input, fused like the
// AVX-512 ones (quant512_amd64.go) and computing the same bytes, for
// CPUs without AVX-512; see quant16_amd64.s. They take the same
// constants.

//go:noescape
func quant32BF16AVX2(scales, elements *byte, src *uint16, nblocks int, c *quant512Consts)

//go:noescape
func quant32F16AVX2(scales, elements *byte, src *uint16, nblocks int, c *quant512Consts)
