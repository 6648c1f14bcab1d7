package checkpoint

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"path"
	"strings"

	"spvx/internal/tensorfile"
	"spvx/mx"
)

// Layout selects how a quantized tensor is stored (see the package
// documentation).
type Layout uint8

// The layouts.
const (
	LayoutSpvx   Layout = iota // NAME.scales + NAME.blocks, any MX format
	LayoutGPTOSS               // gpt-oss's NAME.blocks [..., G, 16] + NAME.scales [..., G], MXFP4 only
)

func (l Layout) String() string {
	if l == LayoutGPTOSS {
		return "gpt-oss"
	}
	return "spvx"
}

// ParseLayout accepts "spvx" and "gpt-oss".
func ParseLayout(s string) (Layout, error) {
	switch s {
	case "spvx":
		return LayoutSpvx, nil
	case "gpt-oss":
		return LayoutGPTOSS, nil
	}
	return 0, fmt.Errorf("unknown layout %q (want spvx or gpt-oss)", s)
}

// metaPrefix prefixes the __metadata__ key that describes a quantized tensor.
const metaPrefix = "spvx.mx."

// mxMeta is the description of one quantized tensor kept in __metadata__.
type mxMeta struct {
	Format    string `json:"format"`
	BlockSize int    `json:"block_size"`
	Rounding  string `json:"rounding"`
	DType     string `json:"dtype"`
	Shape     []int  `json:"shape"`
	Layout    string `json:"layout"`
}

func (m mxMeta) encode() string {
	b, _ := json.Marshal(m)
	return string(b)
}

// floatDTypes are the dtypes Quantize converts (and Dequantize writes).
var floatDTypes = map[string]bool{"F32": true, "F16": true, "BF16": true, "F64": true}

// IsFloat reports whether a safetensors dtype is one Quantize quantizes.
func IsFloat(dtype string) bool { return floatDTypes[dtype] }

// toFloat32 converts the little-endian elements of raw, of dtype, to dst
// (len(dst) elements).
func toFloat32(dst []float32, raw []byte, dtype string) {
	switch dtype {
	case "F32":
		for i := range dst {
			dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
		}
	case "F16":
		for i := range dst {
			dst[i] = mx.HalfToFloat32(binary.LittleEndian.Uint16(raw[2*i:]))
		}
	case "BF16":
		for i := range dst {
			dst[i] = math.Float32frombits(uint32(binary.LittleEndian.Uint16(raw[2*i:])) << 16)
		}
	case "F64":
		for i := range dst {
			dst[i] = float32(math.Float64frombits(binary.LittleEndian.Uint64(raw[8*i:])))
		}
	}
}

// fromFloat32 writes src as dtype into dst, rounding to nearest even.
func fromFloat32(dst []byte, src []float32, dtype string) {
	switch dtype {
	case "F32":
		for i, v := range src {
			binary.LittleEndian.PutUint32(dst[4*i:], math.Float32bits(v))
		}
	case "F16":
		for i, v := range src {
			binary.LittleEndian.PutUint16(dst[2*i:], mx.HalfFromFloat32(v, mx.RTE))
		}
	case "BF16":
		for i, v := range src {
			binary.LittleEndian.PutUint16(dst[2*i:], mx.BFloat16FromFloat32(v, mx.RTE))
		}
	case "F64":
		for i, v := range src {
			binary.LittleEndian.PutUint64(dst[8*i:], math.Float64bits(float64(v)))
		}
	}
}

// Filter chooses the tensors to quantize by name, with path.Match globs:
// a floating tensor is quantized when Include is empty or one of its
// patterns matches, and no Exclude pattern matches.
type Filter struct {
	Include, Exclude []string
}

// Check reports a malformed pattern.
func (f Filter) Check() error {
	for _, p := range append(append([]string(nil), f.Include...), f.Exclude...) {
		if _, err := path.Match(p, ""); err != nil {
			return fmt.Errorf("bad glob %q: %w", p, err)
		}
	}
	return nil
}

func (f Filter) selects(name string) bool {
	ok := len(f.Include) == 0
	for _, p := range f.Include {
		if m, _ := path.Match(p, name); m {
			ok = true
		}
	}
	for _, p := range f.Exclude {
		if m, _ := path.Match(p, name); m {
			return false
		}
	}
	return ok
}

// shapeOK reports whether a shape can be quantized along its last
// dimension: at least one dimension and a non-empty last one.
func rowsAndLen(shape []int) (rows, rowLen int) {
	rows = 1
	for _, d := range shape[:len(shape)-1] {
		rows *= d
	}
	return rows, shape[len(shape)-1]
}

// qtensor describes one quantized tensor as it is (or will be) stored.
type qtensor struct {
	name   string // the dequantized tensor's name
	meta   mxMeta
	format mx.BlockFormat
	layout Layout
	scales *tensorfile.TensorInfo
	blocks *tensorfile.TensorInfo
}

// quantizedShapes returns the shapes of the scales and blocks tensors of
// a tensor of shape quantized in format b with block k in layout l.
func quantizedShapes(shape []int, b mx.BlockFormat, k int, l Layout) (scales, blocks []int, err error) {
	prefix := shape[:len(shape)-1]
	c := shape[len(shape)-1]
	s, err := mx.ScaleBytes(c, k)
	if err != nil {
		return nil, nil, err
	}
	if l == LayoutGPTOSS {
		g := c / 32
		return append(append([]int{}, prefix...), g), append(append([]int{}, prefix...), g, 16), nil
	}
	e, err := mx.ElementBytes(b, c)
	if err != nil {
		return nil, nil, err
	}
	return append(append([]int{}, prefix...), s), append(append([]int{}, prefix...), e), nil
}

// gptOSSReason says why a tensor cannot be stored in gpt-oss's layout, or "".
func gptOSSReason(shape []int, b mx.BlockFormat, k int) string {
	switch {
	case b != mx.MXFP4 || k != 32:
		return "gpt-oss layout is MXFP4 with blocks of 32"
	case len(shape) == 0:
		return "a scalar has no rows"
	case shape[len(shape)-1]%32 != 0:
		return fmt.Sprintf("its last dimension %d is not a multiple of 32", shape[len(shape)-1])
	}
	return ""
}

func sameShape(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// findQuantized recognizes the quantized tensors of a header: those
// described in its __metadata__, checked against their stored shapes, and
// gpt-oss pairs without a description. It returns them with the names of
// the tensors they consume.
func findQuantized(h *tensorfile.Header) ([]qtensor, map[string]bool, error) {
	var out []qtensor
	used := map[string]bool{}
	for key, val := range h.Metadata {
		name, ok := strings.CutPrefix(key, metaPrefix)
		if !ok {
			continue
		}
		var m mxMeta
		if err := json.Unmarshal([]byte(val), &m); err != nil {
			return nil, nil, fmt.Errorf("__metadata__ %q is not a quantized-tensor description: %v", key, err)
		}
		q, err := describe(h, name, m)
		if err != nil {
			return nil, nil, fmt.Errorf("quantized tensor %q: %w", name, err)
		}
		if used[q.scales.Name] || used[q.blocks.Name] {
			return nil, nil, fmt.Errorf("quantized tensor %q shares its tensors with another", name)
		}
		used[q.scales.Name], used[q.blocks.Name] = true, true
		out = append(out, q)
	}
	for i := range h.Tensors {
		t := &h.Tensors[i]
		for _, suf := range []string{".blocks", "_blocks"} {
			base, ok := strings.CutSuffix(t.Name, suf)
			if !ok || used[t.Name] {
				continue
			}
			s := h.Tensor(base + strings.Replace(suf, "blocks", "scales", 1))
			if s == nil || used[s.Name] || t.DType != "U8" || s.DType != "U8" || len(t.Shape) < 2 ||
				t.Shape[len(t.Shape)-1] != 16 || !sameShape(t.Shape[:len(t.Shape)-1], s.Shape) {
				continue
			}
			shape := append(append([]int{}, s.Shape[:len(s.Shape)-1]...), s.Shape[len(s.Shape)-1]*32)
			out = append(out, qtensor{
				name:   base,
				meta:   mxMeta{Format: "mxfp4", BlockSize: 32, Rounding: "even", DType: "BF16", Shape: shape, Layout: "gpt-oss"},
				format: mx.MXFP4, layout: LayoutGPTOSS, scales: s, blocks: t,
			})
			used[t.Name], used[s.Name] = true, true
		}
	}
	return out, used, nil
}

// describe checks a __metadata__ description against the stored tensors.
func describe(h *tensorfile.Header, name string, m mxMeta) (qtensor, error) {
	q := qtensor{name: name, meta: m}
	var err error
	if q.format, err = mx.ParseBlockFormat(m.Format); err != nil {
		return q, err
	}
	if q.layout, err = ParseLayout(m.Layout); err != nil {
		return q, err
	}
	if m.BlockSize < mx.MinBlockSize || m.BlockSize > mx.MaxBlockSize {
		return q, fmt.Errorf("block_size %d: want %d to %d", m.BlockSize, mx.MinBlockSize, mx.MaxBlockSize)
	}
	if !floatDTypes[m.DType] {
		return q, fmt.Errorf("dtype %q is not F32, F16, BF16 or F64", m.DType)
	}
	if len(m.Shape) == 0 {
		return q, fmt.Errorf("shape %v has no dimensions", m.Shape)
	}
	for _, d := range m.Shape {
		if d < 0 {
			return q, fmt.Errorf("shape %v has a negative dimension", m.Shape)
		}
	}
	if q.layout == LayoutGPTOSS {
		if r := gptOSSReason(m.Shape, q.format, m.BlockSize); r != "" {
			return q, fmt.Errorf("described as gpt-oss layout, but %s", r)
		}
	}
	ws, wb, err := quantizedShapes(m.Shape, q.format, m.BlockSize, q.layout)
	if err != nil {
		return q, err
	}
	q.scales, q.blocks = h.Tensor(name+".scales"), h.Tensor(name+".blocks")
	if q.scales == nil || q.blocks == nil {
		return q, fmt.Errorf("want U8 tensors %s.scales and %s.blocks", name, name)
	}
	if q.scales.DType != "U8" || q.blocks.DType != "U8" || !sameShape(q.scales.Shape, ws) || !sameShape(q.blocks.Shape, wb) {
		return q, fmt.Errorf("%s of shape %v in %s with blocks of %d needs U8 scales %v and blocks %v, the file has %s %v and %s %v",
			m.DType, m.Shape, m.Format, m.BlockSize, ws, wb, q.scales.DType, q.scales.Shape, q.blocks.DType, q.blocks.Shape)
	}
	return q, nil
}
