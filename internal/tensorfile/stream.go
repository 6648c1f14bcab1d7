package tensorfile

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"sort"

	"spvx/internal/checked"
)

// MaxSafeTensorsHeader bounds the JSON header a streaming reader reads, as
// the reference safetensors library does (100 MB): a header length beyond
// it is an error, never an allocation of that size.
const MaxSafeTensorsHeader = 100 << 20

// TensorInfo describes one tensor of a safetensors file without its data:
// where the data is, in the file, and what it holds.
type TensorInfo struct {
	Name   string
	DType  string
	Shape  []int
	Offset int64 // the data's absolute byte offset in the file
	Size   int64 // the data's length in bytes
}

// Header is a safetensors file's header, read without its tensor data.
type Header struct {
	Tensors   []TensorInfo      // in data order (by offset)
	Metadata  map[string]string // the optional "__metadata__" entry
	DataStart int64             // absolute offset of the data section
}

// Tensor returns the named tensor's description, or nil.
func (h *Header) Tensor(name string) *TensorInfo {
	for i := range h.Tensors {
		if h.Tensors[i].Name == name {
			return &h.Tensors[i]
		}
	}
	return nil
}

// DTypeSize returns the size in bytes of one element of a safetensors
// dtype, and whether the dtype is known.
func DTypeSize(dtype string) (int, bool) {
	n, ok := dtypeSizes[dtype]
	return n, ok
}

// ReadSafeTensorsHeader reads the header of a safetensors file of size
// bytes through r, and checks every tensor's shape and data_offsets
// against the file before returning: each tensor's bytes lie inside the
// data section, match its shape, and overlap no other tensor's. Only the
// header is read (at most MaxSafeTensorsHeader bytes); the tensors are
// read by the caller through r, so a reader of a large checkpoint holds
// one tensor at a time, never the file. Errors wrap ErrFormat.
func ReadSafeTensorsHeader(r io.ReaderAt, size int64) (*Header, error) {
	var pre [8]byte
	if size < 8 {
		return nil, formatErr("safetensors file truncated: %d bytes, no header length", size)
	}
	if _, err := r.ReadAt(pre[:], 0); err != nil {
		return nil, fmt.Errorf("reading the safetensors header length: %w", err)
	}
	hlen := binary.LittleEndian.Uint64(pre[:])
	if hlen > uint64(size-8) {
		return nil, formatErr("safetensors header length %d exceeds the file size %d", hlen, size)
	}
	if hlen > MaxSafeTensorsHeader {
		return nil, formatErr("safetensors header length %d exceeds the limit of %d bytes", hlen, MaxSafeTensorsHeader)
	}
	js := make([]byte, hlen)
	if _, err := r.ReadAt(js, 8); err != nil {
		return nil, fmt.Errorf("reading the safetensors header: %w", err)
	}
	return parseSafeTensorsHeader(js, 8+int64(hlen), size)
}

func parseSafeTensorsHeader(js []byte, dataStart, size int64) (*Header, error) {
	var raw map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(js))
	if err := dec.Decode(&raw); err != nil {
		return nil, formatErr("safetensors header is not a JSON object: %v", err)
	}
	if dup := duplicateKey(js, ""); dup != "" {
		return nil, formatErr("safetensors header names %q twice", dup)
	}
	h := &Header{DataStart: dataStart}
	dataLen := size - dataStart
	for name, msg := range raw {
		if name == "__metadata__" {
			if err := json.Unmarshal(msg, &h.Metadata); err != nil {
				return nil, formatErr("safetensors __metadata__ is not a string map: %v", err)
			}
			continue
		}
		var th struct {
			DType       string   `json:"dtype"`
			Shape       []int    `json:"shape"`
			DataOffsets [2]int64 `json:"data_offsets"`
		}
		if err := json.Unmarshal(msg, &th); err != nil {
			return nil, formatErr("safetensors tensor %q: %v", name, err)
		}
		esize, ok := dtypeSizes[th.DType]
		if !ok {
			return nil, formatErr("safetensors tensor %q: unknown dtype %q", name, th.DType)
		}
		lo, hi := th.DataOffsets[0], th.DataOffsets[1]
		if lo < 0 || hi < lo || hi > dataLen {
			return nil, formatErr("safetensors tensor %q: data_offsets [%d, %d] outside the %d data bytes (truncated?)", name, lo, hi, dataLen)
		}
		n, ok := checked.Product(th.Shape, esize)
		if !ok {
			return nil, formatErr("safetensors tensor %q: shape %v of %s does not fit its %d bytes: its byte size overflows or a dimension is negative", name, th.Shape, th.DType, hi-lo)
		}
		if int64(n) != hi-lo {
			return nil, formatErr("safetensors tensor %q: shape %v of %s needs %d bytes, data_offsets give %d", name, th.Shape, th.DType, n, hi-lo)
		}
		if th.Shape == nil {
			th.Shape = []int{}
		}
		h.Tensors = append(h.Tensors, TensorInfo{Name: name, DType: th.DType, Shape: th.Shape, Offset: dataStart + lo, Size: hi - lo})
	}
	sort.Slice(h.Tensors, func(i, j int) bool {
		a, b := h.Tensors[i], h.Tensors[j]
		if a.Offset != b.Offset {
			return a.Offset < b.Offset
		}
		return a.Name < b.Name
	})
	for i := 1; i < len(h.Tensors); i++ {
		p, t := h.Tensors[i-1], h.Tensors[i]
		if t.Offset < p.Offset+p.Size {
			return nil, formatErr("safetensors tensors %q and %q overlap: [%d, %d] and [%d, %d]", p.Name, t.Name,
				p.Offset-dataStart, p.Offset-dataStart+p.Size, t.Offset-dataStart, t.Offset-dataStart+t.Size)
		}
	}
	return h, nil
}

// PlanSafeTensors lays out a safetensors file for tensors whose data the
// caller writes afterwards, at each returned TensorInfo's Offset (with
// io.WriterAt, or in order with a plain writer after the header): the
// tensors are placed in the given order, the header is padded with spaces
// to a multiple of 8 bytes, and total is the file's size. Names must be
// unique and not "__metadata__"; each Size must match its dtype and shape.
func PlanSafeTensors(tensors []TensorInfo, meta map[string]string) (header []byte, placed []TensorInfo, total int64, err error) {
	hdr := map[string]any{}
	if len(meta) > 0 {
		hdr["__metadata__"] = meta
	}
	type entry struct {
		DType       string   `json:"dtype"`
		Shape       []int    `json:"shape"`
		DataOffsets [2]int64 `json:"data_offsets"`
	}
	placed = make([]TensorInfo, len(tensors))
	var off int64
	for i, t := range tensors {
		if t.Name == "__metadata__" {
			return nil, nil, 0, fmt.Errorf("tensorfile: a tensor cannot be named __metadata__")
		}
		if _, dup := hdr[t.Name]; dup {
			return nil, nil, 0, fmt.Errorf("tensorfile: two tensors named %q", t.Name)
		}
		esize, ok := dtypeSizes[t.DType]
		if !ok {
			return nil, nil, 0, fmt.Errorf("tensorfile: tensor %q: unknown dtype %q", t.Name, t.DType)
		}
		n, ok := checked.Product(t.Shape, esize)
		if !ok || int64(n) != t.Size {
			return nil, nil, 0, fmt.Errorf("tensorfile: tensor %q: shape %v of %s does not describe its %d bytes", t.Name, t.Shape, t.DType, t.Size)
		}
		shape := t.Shape
		if shape == nil {
			shape = []int{}
		}
		hdr[t.Name] = entry{t.DType, shape, [2]int64{off, off + t.Size}}
		placed[i] = TensorInfo{Name: t.Name, DType: t.DType, Shape: shape, Offset: off, Size: t.Size}
		off += t.Size
	}
	js, err := json.Marshal(hdr) // map keys sorted: deterministic output
	if err != nil {
		return nil, nil, 0, err
	}
	js = append(js, bytes.Repeat([]byte(" "), (8-len(js)%8)%8)...)
	header = binary.LittleEndian.AppendUint64(make([]byte, 0, 8+len(js)), uint64(len(js)))
	header = append(header, js...)
	for i := range placed {
		placed[i].Offset += int64(len(header))
	}
	return header, placed, int64(len(header)) + off, nil
}
