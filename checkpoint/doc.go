// Package checkpoint quantizes and dequantizes whole model checkpoints
// with the OCP MX formats of package mx, and moves MXFP4 weights between
// safetensors and GGUF.
//
// A checkpoint is a safetensors file, or a sharded one (a
// model.safetensors.index.json beside its shard files), or, for Convert
// and Inspect, a GGUF file. Memory stays bounded by a fixed working set,
// not by the tensors or the file: every tensor is read through
// io.ReaderAt in segments of whole blocks (at most a few million
// elements), converted, and written at its place in the output with
// io.WriterAt, so the output's header is written first, from the sizes
// the shapes give. Quantize and Dequantize convert a tensor's segments on
// Options.Workers goroutines at once, each reading, converting and
// writing its own (pieces.go), so the working set is a few segments per
// worker.
//
// # Layouts of a quantized tensor
//
// A floating tensor NAME of shape [d0, ..., dn] is quantized along its
// last dimension (the reduction dimension of a linear layer's weight):
// every row of dn elements is cut into blocks of k (the last one possibly
// short), each with one E8M0 scale byte. Two layouts store the result:
//
//   - spvx: NAME.scales is U8 [d0, ..., d(n-1), ⌈dn/k⌉] and NAME.blocks
//     is U8 [d0, ..., d(n-1), E], E the packed bytes of one row (package
//     mx's packing: FP4 low nibble first, FP6 a little-endian 6-bit
//     stream). Any MX format, any k, any row length.
//   - gpt-oss: MXFP4 with k = 32 and dn a multiple of 32 only, as
//     OpenAI's gpt-oss checkpoints store it: NAME.blocks is U8 [d0, ...,
//     d(n-1), dn/32, 16] (element 2j in the low nibble of byte j, 2j+1 in
//     the high one) and NAME.scales is U8 [d0, ..., d(n-1), dn/32], the
//     E8M0 exponent biased by 127. Its bytes equal the spvx layout's; only
//     the shapes differ. Tensors that do not qualify are copied unchanged
//     and reported.
//
// Both record, in the file's __metadata__ under "spvx.mx.NAME", a JSON
// object with the format, the block size, the rounding, the original
// dtype and shape, so that Dequantize restores them; a gpt-oss pair
// without that entry (a real gpt-oss checkpoint) is recognized by its
// names and shapes (.blocks/.scales or _blocks/_scales). The input's own
// __metadata__ is kept.
//
// GGUF stores MXFP4 as ggml's block_mxfp4 (a scale byte, then 16 bytes
// with element j in the low nibble and j+16 in the high nibble of byte
// j); Convert moves the nibbles, so safetensors → GGUF → safetensors is
// the identity on the bytes.
//
// # The MX tensor file
//
// One float32 tensor (a .npy file, or raw float32) quantizes to an MX
// tensor file (QuantizeTensor, DequantizeTensor): a safetensors file of
// the U8 tensors scales and blocks, described by plain __metadata__ keys
// (format, block_size, shape, ...). It is not a checkpoint, and
// Classify tells the two apart, with .npy and GGUF files, so that each
// command can say which it was given.
package checkpoint
