package checkpoint

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"spvx/internal/checked"
	"spvx/internal/tensorfile"
	"spvx/mx"
)

// The MX tensor file is what `spvx mx quantize` writes for one float32
// tensor: a safetensors file of two U8 tensors, "scales" (one E8M0 byte
// per block) and "blocks" (the packed elements, package mx's packing),
// whose __metadata__ holds "format", "block_size", "shape" (a JSON list),
// "elements", "rounding" and a "packing" note. It is a format of its own,
// not a checkpoint of one tensor: its tensors have no name prefix and its
// description is not under "spvx.mx.".

// TensorOptions configure QuantizeTensor.
type TensorOptions struct {
	Format    mx.BlockFormat
	BlockSize int // mx.MinBlockSize to mx.MaxBlockSize
	Rounding  mx.Rounding
}

// errUnknownFloat32 is the error for a float32 tensor input that is
// neither .npy nor named as raw float32.
var errUnknownFloat32 = errors.New("unknown input type: not a .npy file (no \\x93NUMPY magic), and raw float32 input must be a file named .f32 or .bin")

// ReadFloat32 reads a float32 tensor: a .npy file (told by its magic;
// required when ext is .npy), or raw little-endian float32 when ext is
// .f32 or .bin. ext is the lower-case extension of the input's name, ""
// for a stream.
func ReadFloat32(raw []byte, ext string) ([]float32, []int, error) {
	switch {
	case tensorfile.IsNPY(raw) || ext == ".npy":
		return tensorfile.ReadNPY(raw)
	case ext == ".f32" || ext == ".bin":
		data, err := tensorfile.ReadRawFloat32(raw)
		return data, []int{len(data)}, err
	}
	return nil, nil, errUnknownFloat32
}

// JudgeFloat32 judges a float32 tensor stream from its first bytes, as
// ReadFloat32 would read it, and returns how many bytes to read: a .npy
// file must have a float32 header whose declared size is at most limit,
// and is read to exactly that size; raw float32 data can be anything, up
// to limit. A stream of zeros or text is so rejected at once, not read to
// the limit. br must buffer at least 12 bytes.
func JudgeFloat32(br *bufio.Reader, ext string, limit int) (int, error) {
	pre, _ := br.Peek(12)
	if !tensorfile.IsNPY(pre) {
		switch ext {
		case ".f32", ".bin":
			return limit, nil
		case ".npy":
			_, err := tensorfile.NPYPrefixLen(pre)
			return 0, err
		}
		return 0, notFloat32(br, limit)
	}
	need, err := tensorfile.NPYPrefixLen(pre)
	if err != nil {
		return 0, err
	}
	if need > br.Size() {
		return 0, fmt.Errorf("%w: .npy header of %d bytes is too long to read from a stream (at most %d)", tensorfile.ErrFormat, need-12, br.Size()-12)
	}
	head, _ := br.Peek(need)
	size, err := tensorfile.NPYSize(head)
	if err != nil {
		return 0, err
	}
	if size > limit {
		return 0, fmt.Errorf(".npy header declares %d bytes, more than the input limit of %d", size, limit)
	}
	return size, nil
}

// notFloat32 is the error for a stream that is not a float32 tensor,
// naming what it holds when its first bytes tell.
func notFloat32(br *bufio.Reader, limit int) error {
	head, _ := br.Peek(min(br.Size(), 4096))
	switch {
	case bytes.HasPrefix(head, []byte("GGUF")):
		return errors.New("this is a GGUF file, not a float32 tensor")
	case tensorfile.CheckSafeTensorsPrefix(head, limit) == nil:
		return errors.New("this is a safetensors file, not a float32 tensor; a checkpoint is quantized from a file named .safetensors, not a stream")
	}
	return errUnknownFloat32
}

// QuantizeTensor quantizes data, of the given shape, and returns the MX
// tensor file.
func QuantizeTensor(data []float32, shape []int, opts TensorOptions) ([]byte, error) {
	if opts.BlockSize < mx.MinBlockSize || opts.BlockSize > mx.MaxBlockSize {
		return nil, fmt.Errorf("block size %d: want %d to %d", opts.BlockSize, mx.MinBlockSize, mx.MaxBlockSize)
	}
	if n, ok := checked.Product(shape, 1); !ok || n != len(data) {
		return nil, fmt.Errorf("shape %v does not hold %d elements", shape, len(data))
	}
	nScales, err := mx.ScaleBytes(len(data), opts.BlockSize)
	if err != nil {
		return nil, err
	}
	nElems, err := mx.ElementBytes(opts.Format, len(data))
	if err != nil {
		return nil, err
	}
	scales, elems := make([]byte, nScales), make([]byte, nElems)
	if err := mx.Quantize(scales, elems, data, opts.Format, mx.Options{BlockSize: opts.BlockSize, Rounding: opts.Rounding}); err != nil {
		return nil, err
	}
	st := &tensorfile.SafeTensors{
		Tensors: []tensorfile.Tensor{
			{Name: "scales", DType: "U8", Shape: []int{len(scales)}, Data: scales},
			{Name: "blocks", DType: "U8", Shape: []int{len(elems)}, Data: elems},
		},
		Metadata: map[string]string{
			"format":     opts.Format.String(),
			"block_size": strconv.Itoa(opts.BlockSize),
			"shape":      ShapeString(shape),
			"elements":   strconv.Itoa(len(data)),
			"rounding":   roundingName(opts.Rounding),
			"packing":    "spvx: scales one byte per block; FP4 low nibble first; FP6 little-endian 6-bit stream",
		},
	}
	var buf bytes.Buffer
	if err := tensorfile.WriteSafeTensors(&buf, st); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// ShapeString spells a shape as JSON, e.g. [2,3].
func ShapeString(shape []int) string {
	parts := make([]string, len(shape))
	for i, d := range shape {
		parts[i] = strconv.Itoa(d)
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// parseShape reads ShapeString's form.
func parseShape(s string) ([]int, error) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "[") || !strings.HasSuffix(s, "]") {
		return nil, fmt.Errorf("metadata shape %q is not a list like [2,3]", s)
	}
	shape := []int{}
	for _, f := range strings.Split(s[1:len(s)-1], ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		d, err := strconv.Atoi(f)
		if err != nil || d < 0 {
			return nil, fmt.Errorf("metadata shape %q has a bad dimension %q", s, f)
		}
		shape = append(shape, d)
	}
	return shape, nil
}

// isMXTensorFile reports whether a safetensors file's tensor names and
// metadata are an MX tensor file's: exactly the tensors scales and blocks,
// and a format entry (whether valid or not: DequantizeTensor judges that).
func isMXTensorFile(names []string, meta map[string]string) bool {
	if len(names) != 2 {
		return false
	}
	_, ok := meta["format"]
	return ok && (names[0] == "scales" && names[1] == "blocks" || names[0] == "blocks" && names[1] == "scales")
}

// errNotMXTensor is DequantizeTensor's error for a safetensors file that
// is not an MX tensor file.
var errNotMXTensor = errors.New("not an MX tensor written by 'spvx mx quantize' (no U8 tensors scales and blocks with a format in the metadata); a checkpoint dequantizes only to a checkpoint (-o OUT.safetensors)")

// DequantizeTensor reads an MX tensor file and returns its values and
// shape. The file is checked against its metadata before the output is
// allocated: the element count, computed from the shape without
// overflow, must need exactly the blocks and scales tensors' bytes, so
// the output is bounded by the blocks tensor (8 float32 bytes per FP4
// byte at most).
func DequantizeTensor(raw []byte) ([]float32, []int, error) {
	st, err := tensorfile.ReadSafeTensors(raw)
	if err != nil {
		return nil, nil, err
	}
	names := make([]string, len(st.Tensors))
	for i, t := range st.Tensors {
		names[i] = t.Name
	}
	if !isMXTensorFile(names, st.Metadata) {
		return nil, nil, errNotMXTensor
	}
	b, k, shape, n, err := mxTensorMeta(st.Metadata)
	if err != nil {
		return nil, nil, err
	}
	scales, blocks := st.Tensor("scales"), st.Tensor("blocks")
	if scales.DType != "U8" || blocks.DType != "U8" {
		return nil, nil, errors.New("want U8 tensors named scales and blocks")
	}
	want, err := mx.ElementBytes(b, n)
	if err != nil {
		return nil, nil, err
	}
	if len(blocks.Data) != want {
		return nil, nil, fmt.Errorf("blocks tensor has %d bytes, %d %s elements need %d", len(blocks.Data), n, b, want)
	}
	if want, err = mx.ScaleBytes(n, k); err != nil {
		return nil, nil, err
	}
	if len(scales.Data) != want {
		return nil, nil, fmt.Errorf("scales tensor has %d bytes, %d elements in blocks of %d need %d", len(scales.Data), n, k, want)
	}
	data := make([]float32, n)
	if err := mx.Dequantize(data, scales.Data, blocks.Data, b, k, 0); err != nil {
		return nil, nil, err
	}
	return data, shape, nil
}

// mxTensorMeta checks an MX tensor file's metadata: the format, the block
// size, and the shape with its element count n (which the "elements"
// entry, if any, must equal).
func mxTensorMeta(meta map[string]string) (b mx.BlockFormat, k int, shape []int, n int, err error) {
	if b, err = mx.ParseBlockFormat(meta["format"]); err != nil {
		return 0, 0, nil, 0, fmt.Errorf("metadata format: %w", err)
	}
	k, err = strconv.Atoi(meta["block_size"])
	if err != nil || k < mx.MinBlockSize || k > mx.MaxBlockSize {
		return 0, 0, nil, 0, fmt.Errorf("metadata block_size %q is not an integer from %d to %d", meta["block_size"], mx.MinBlockSize, mx.MaxBlockSize)
	}
	if shape, err = parseShape(meta["shape"]); err != nil {
		return 0, 0, nil, 0, err
	}
	n, ok := checked.Product(shape, 1)
	if !ok {
		return 0, 0, nil, 0, fmt.Errorf("metadata shape %v is too large: its element count overflows", shape)
	}
	if e, ok := meta["elements"]; ok && e != strconv.Itoa(n) {
		return 0, 0, nil, 0, fmt.Errorf("metadata elements %q disagrees with shape %v (%d elements)", e, shape, n)
	}
	return b, k, shape, n, nil
}
