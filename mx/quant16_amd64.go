package mx

// AVX2 block quantizers with the AVX-512 kernels' rounding (and the same
// constants), for CPUs without AVX-512: for bfloat16 and binary16 input,
// fused like the AVX-512 ones (quant512_amd64.go), and for float32; see
// quant16_amd64.s.

//go:noescape
func quant32BF16AVX2(scales, elements *byte, src *uint16, nblocks int, c *quant512Consts)

//go:noescape
func quant32F16AVX2(scales, elements *byte, src *uint16, nblocks int, c *quant512Consts)

//go:noescape
func quant32F32AVX2(scales, elements *byte, src *float32, nblocks int, c *quant512Consts)
