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

// Tensor is one named tensor of a safetensors file.
type Tensor struct {
	Name  string
	DType string // "U8", "F32", ...
	Shape []int
	Data  []byte // raw little-endian bytes
}

// SafeTensors is the content of a safetensors file.
type SafeTensors struct {
	Tensors  []Tensor          // sorted by name when read
	Metadata map[string]string // the optional "__metadata__" entry
}

// Tensor returns the tensor with the given name, or nil.
func (s *SafeTensors) Tensor(name string) *Tensor {
	for i := range s.Tensors {
		if s.Tensors[i].Name == name {
			return &s.Tensors[i]
		}
	}
	return nil
}

var dtypeSizes = map[string]int{
	"BOOL": 1, "U8": 1, "I8": 1, "F8_E4M3": 1, "F8_E5M2": 1, "F8_E8M0": 1,
	"U16": 2, "I16": 2, "F16": 2, "BF16": 2,
	"U32": 4, "I32": 4, "F32": 4, "U64": 8, "I64": 8, "F64": 8,
}

type tensorHeader struct {
	DType       string `json:"dtype"`
	Shape       []int  `json:"shape"`
	DataOffsets [2]int `json:"data_offsets"`
}

// CheckSafeTensorsPrefix reports whether head, the first bytes of a file
// of size bytes (or at most size bytes, for a stream of unknown length),
// can start a safetensors file: an 8-byte header length that leaves room
// in size, then a JSON object ('{' after optional white space). A reader of
// a stream calls it on the first bytes to reject what cannot be such a
// file (a stream of zeros, text) before reading the rest. head may be the
// whole file. Errors wrap ErrFormat.
func CheckSafeTensorsPrefix(head []byte, size int) error {
	if len(head) < 8 {
		return formatErr("safetensors file truncated: %d bytes, no header length", len(head))
	}
	hlen := binary.LittleEndian.Uint64(head)
	if hlen > uint64(max(size-8, 0)) {
		return formatErr("safetensors header length %d exceeds the file size %d", hlen, size)
	}
	if hlen < 2 {
		return formatErr("safetensors header length %d is too short for a JSON object", hlen)
	}
	rest := head[8:]
	if uint64(len(rest)) > hlen {
		rest = rest[:hlen]
	}
	for _, c := range rest {
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		case '{':
			return nil
		}
		return formatErr("safetensors header is not a JSON object: it starts with %q", c)
	}
	if uint64(len(head)-8) >= hlen {
		return formatErr("safetensors header is not a JSON object: %d bytes of white space", hlen)
	}
	return nil // only white space so far; the reader decides
}

// ReadSafeTensors decodes a safetensors file: an 8-byte little-endian header
// length, a JSON header, then the tensor bytes.
func ReadSafeTensors(b []byte) (*SafeTensors, error) {
	if len(b) < 8 {
		return nil, formatErr("safetensors file truncated: %d bytes, no header length", len(b))
	}
	hlen := binary.LittleEndian.Uint64(b)
	if hlen > uint64(len(b)-8) {
		return nil, formatErr("safetensors header length %d exceeds the file size %d", hlen, len(b))
	}
	header := b[8 : 8+hlen]
	data := b[8+hlen:]
	var raw map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(header))
	if err := dec.Decode(&raw); err != nil {
		return nil, formatErr("safetensors header is not a JSON object: %v", err)
	}
	if dup := duplicateKey(header, ""); dup != "" {
		return nil, formatErr("safetensors header names %q twice", dup)
	}
	st := &SafeTensors{}
	for name, msg := range raw {
		if name == "__metadata__" {
			if err := json.Unmarshal(msg, &st.Metadata); err != nil {
				return nil, formatErr("safetensors __metadata__ is not a string map: %v", err)
			}
			continue
		}
		var th tensorHeader
		if err := json.Unmarshal(msg, &th); err != nil {
			return nil, formatErr("safetensors tensor %q: %v", name, err)
		}
		size, ok := dtypeSizes[th.DType]
		if !ok {
			return nil, formatErr("safetensors tensor %q: unknown dtype %q", name, th.DType)
		}
		lo, hi := th.DataOffsets[0], th.DataOffsets[1]
		if lo < 0 || hi < lo || hi > len(data) {
			return nil, formatErr("safetensors tensor %q: data_offsets [%d, %d] outside the %d data bytes (truncated?)", name, lo, hi, len(data))
		}
		n, ok := checked.Product(th.Shape, size)
		if !ok {
			return nil, formatErr("safetensors tensor %q: shape %v of %s does not fit its %d bytes: its byte size overflows or a dimension is negative", name, th.Shape, th.DType, hi-lo)
		}
		if n != hi-lo {
			return nil, formatErr("safetensors tensor %q: shape %v of %s needs %d bytes, data_offsets give %d", name, th.Shape, th.DType, n, hi-lo)
		}
		st.Tensors = append(st.Tensors, Tensor{Name: name, DType: th.DType, Shape: th.Shape, Data: data[lo:hi]})
	}
	sort.Slice(st.Tensors, func(i, j int) bool { return st.Tensors[i].Name < st.Tensors[j].Name })
	return st, nil
}

// WriteSafeTensors encodes st: tensors laid out in name order, the header
// padded with spaces to a multiple of 8 bytes.
func WriteSafeTensors(w io.Writer, st *SafeTensors) error {
	tensors := append([]Tensor(nil), st.Tensors...)
	sort.Slice(tensors, func(i, j int) bool { return tensors[i].Name < tensors[j].Name })
	header := map[string]any{}
	if len(st.Metadata) > 0 {
		header["__metadata__"] = st.Metadata
	}
	off := 0
	for _, t := range tensors {
		if t.Name == "__metadata__" {
			return fmt.Errorf("tensorfile: a tensor cannot be named __metadata__")
		}
		size, ok := dtypeSizes[t.DType]
		if !ok {
			return fmt.Errorf("tensorfile: unknown dtype %q", t.DType)
		}
		n, ok := checked.Product(t.Shape, size)
		if !ok || n != len(t.Data) {
			return fmt.Errorf("tensorfile: tensor %q: shape %v of %s does not describe its %d bytes", t.Name, t.Shape, t.DType, len(t.Data))
		}
		shape := t.Shape
		if shape == nil {
			shape = []int{}
		}
		header[t.Name] = tensorHeader{DType: t.DType, Shape: shape, DataOffsets: [2]int{off, off + n}}
		off += n
	}
	js, err := json.Marshal(header) // map keys are sorted: deterministic output
	if err != nil {
		return err
	}
	js = append(js, bytes.Repeat([]byte(" "), (8-len(js)%8)%8)...)
	buf := binary.LittleEndian.AppendUint64(nil, uint64(len(js)))
	buf = append(buf, js...)
	for _, t := range tensors {
		buf = append(buf, t.Data...)
	}
	_, err = w.Write(buf)
	return err
}
