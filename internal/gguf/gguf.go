// Package gguf reads and writes GGUF files (llama.cpp's model format,
// version 3): the header, the metadata key/value pairs, the tensor infos
// and the aligned tensor data.
//
// Read takes an io.ReaderAt and reads only the header and infos; tensor
// data is read by the caller at each tensor's offset, so a reader of a
// large model holds one tensor at a time. Every count and length the
// header declares is checked against the bytes left in the file before
// anything is allocated: a hostile header gives an error wrapping
// ErrFormat, never an allocation from its numbers alone.
//
// Tensor dimensions are kept in GGUF's order, innermost first (ggml's
// ne[0] is the row length): a row-major shape [rows, cols] is Dims
// [cols, rows].
package gguf

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
)

// ErrFormat is wrapped by every error about a malformed file.
var ErrFormat = errors.New("gguf: malformed file")

func formatErr(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrFormat}, args...)...)
}

// Magic is "GGUF" read as a little-endian uint32.
const Magic = 0x46554747

// Version is the GGUF version Write writes; Read accepts 2 and 3 (they
// differ from 1 in using 64-bit counts).
const Version = 3

// DefaultAlignment is the data alignment when general.alignment is absent.
const DefaultAlignment = 32

// AlignmentKey is the metadata key of the data alignment.
const AlignmentKey = "general.alignment"

// ValueType is a metadata value's type.
type ValueType uint32

// The GGUF metadata value types.
const (
	TypeUint8 ValueType = iota
	TypeInt8
	TypeUint16
	TypeInt16
	TypeUint32
	TypeInt32
	TypeFloat32
	TypeBool
	TypeString
	TypeArray
	TypeUint64
	TypeInt64
	TypeFloat64
	numValueTypes
)

var valueTypeNames = [numValueTypes]string{"uint8", "int8", "uint16", "int16", "uint32", "int32", "float32", "bool", "string", "array", "uint64", "int64", "float64"}

func (t ValueType) String() string {
	if t < numValueTypes {
		return valueTypeNames[t]
	}
	return fmt.Sprintf("ValueType(%d)", uint32(t))
}

// scalarSize is the encoded size of a fixed-size value type, 0 otherwise.
func (t ValueType) scalarSize() int {
	switch t {
	case TypeUint8, TypeInt8, TypeBool:
		return 1
	case TypeUint16, TypeInt16:
		return 2
	case TypeUint32, TypeInt32, TypeFloat32:
		return 4
	case TypeUint64, TypeInt64, TypeFloat64:
		return 8
	}
	return 0
}

// KV is one metadata pair. Value holds, by Type: uint8, int8, uint16,
// int16, uint32, int32, float32, bool, string, uint64, int64, float64, or
// for TypeArray an Array.
type KV struct {
	Key   string
	Type  ValueType
	Value any
}

// Array is an array value: its element type and its elements, each of the
// Go type KV.Value has for that type (nested arrays are Arrays).
type Array struct {
	Elem   ValueType
	Values []any
}

// String returns s as a string KV.
func String(key, s string) KV { return KV{key, TypeString, s} }

// Uint32 returns v as a uint32 KV.
func Uint32(key string, v uint32) KV { return KV{key, TypeUint32, v} }

// Type is a ggml tensor type.
type Type uint32

// The ggml tensor types spvx names (their numbers are ggml's).
const (
	F32   Type = 0
	F16   Type = 1
	Q4_0  Type = 2
	Q4_1  Type = 3
	Q5_0  Type = 6
	Q5_1  Type = 7
	Q8_0  Type = 8
	Q8_1  Type = 9
	Q2_K  Type = 10
	Q3_K  Type = 11
	Q4_K  Type = 12
	Q5_K  Type = 13
	Q6_K  Type = 14
	Q8_K  Type = 15
	I8    Type = 24
	I16   Type = 25
	I32   Type = 26
	I64   Type = 27
	F64   Type = 28
	BF16  Type = 30
	MXFP4 Type = 39
)

type typeInfo struct {
	name        string
	block, size int // elements per block, bytes per block
}

var typeInfos = map[Type]typeInfo{
	F32: {"F32", 1, 4}, F16: {"F16", 1, 2}, Q4_0: {"Q4_0", 32, 18}, Q4_1: {"Q4_1", 32, 20},
	Q5_0: {"Q5_0", 32, 22}, Q5_1: {"Q5_1", 32, 24}, Q8_0: {"Q8_0", 32, 34}, Q8_1: {"Q8_1", 32, 36},
	Q2_K: {"Q2_K", 256, 84}, Q3_K: {"Q3_K", 256, 110}, Q4_K: {"Q4_K", 256, 144}, Q5_K: {"Q5_K", 256, 176},
	Q6_K: {"Q6_K", 256, 210}, Q8_K: {"Q8_K", 256, 292}, I8: {"I8", 1, 1}, I16: {"I16", 1, 2},
	I32: {"I32", 1, 4}, I64: {"I64", 1, 8}, F64: {"F64", 1, 8}, BF16: {"BF16", 1, 2}, MXFP4: {"MXFP4", 32, 17},
}

func (t Type) String() string {
	if ti, ok := typeInfos[t]; ok {
		return ti.name
	}
	return fmt.Sprintf("type%d", uint32(t))
}

// Known reports whether spvx knows t's block layout (and so its size).
func (t Type) Known() bool { _, ok := typeInfos[t]; return ok }

// BlockSize returns the elements per block of t (1 for plain types), 0 if unknown.
func (t Type) BlockSize() int { return typeInfos[t].block }

// TensorBytes returns the byte size of a tensor of type t and dims, or an
// error when t is unknown, the row length is not a whole number of
// blocks, or the size overflows.
func TensorBytes(t Type, dims []uint64) (uint64, error) {
	ti, ok := typeInfos[t]
	if !ok {
		return 0, formatErr("unknown tensor type %d", uint32(t))
	}
	n := uint64(1)
	for _, d := range dims {
		if d != 0 && n > math.MaxInt64/d {
			return 0, formatErr("tensor dims %v overflow", dims)
		}
		n *= d
	}
	if len(dims) > 0 && dims[0]%uint64(ti.block) != 0 {
		return 0, formatErr("row length %d of a %s tensor is not a multiple of its block size %d", dims[0], ti.name, ti.block)
	}
	blocks := n / uint64(ti.block)
	if blocks > math.MaxInt64/uint64(ti.size) {
		return 0, formatErr("tensor dims %v overflow", dims)
	}
	return blocks * uint64(ti.size), nil
}

// TensorInfo describes one tensor.
type TensorInfo struct {
	Name   string
	Dims   []uint64 // innermost first
	Type   Type
	Offset uint64 // relative to the data section, a multiple of the alignment
	Size   uint64 // data bytes (0 for a type spvx does not know)
}

// File is a GGUF file's header: everything but the tensor data.
type File struct {
	Version   uint32
	KVs       []KV
	Tensors   []TensorInfo // in file order
	Alignment uint64
	DataStart int64 // absolute offset of the data section
}

// KV returns the pair with the given key, or nil.
func (f *File) KV(key string) *KV {
	for i := range f.KVs {
		if f.KVs[i].Key == key {
			return &f.KVs[i]
		}
	}
	return nil
}

// Tensor returns the named tensor's info, or nil.
func (f *File) Tensor(name string) *TensorInfo {
	for i := range f.Tensors {
		if f.Tensors[i].Name == name {
			return &f.Tensors[i]
		}
	}
	return nil
}

// MaxDims is the most dimensions a tensor may have (ggml's GGML_MAX_DIMS).
const MaxDims = 4

// maxString bounds one string (a key, a value, a name).
const maxString = 1 << 30

// MaxArrayElements bounds the metadata array elements of a file, all
// arrays together: each decoded element takes an interface value (16
// bytes), so without a bound a file of one-byte elements would decode to
// 16 times its size. A large model's vocabulary and merges hold about a
// million.
const MaxArrayElements = 1 << 24

// reader reads the header sequentially, knowing how many bytes are left.
type reader struct {
	r     *bufio.Reader
	pos   int64
	size  int64
	err   error
	elems uint64 // array elements decoded so far (MaxArrayElements)
}

func (r *reader) left() int64 { return r.size - r.pos }

func (r *reader) bytes(n int) []byte {
	if r.err != nil {
		return nil
	}
	if int64(n) > r.left() {
		r.err = formatErr("truncated at byte %d: %d more bytes needed, %d left", r.pos, n, r.left())
		return nil
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r.r, b); err != nil {
		r.err = fmt.Errorf("gguf: reading at byte %d: %w", r.pos, err)
		return nil
	}
	r.pos += int64(n)
	return b
}

func (r *reader) fixed(n int) []byte {
	var buf [8]byte
	if r.err != nil {
		return buf[:n]
	}
	if int64(n) > r.left() {
		r.err = formatErr("truncated at byte %d: %d more bytes needed, %d left", r.pos, n, r.left())
		return buf[:n]
	}
	if _, err := io.ReadFull(r.r, buf[:n]); err != nil {
		r.err = fmt.Errorf("gguf: reading at byte %d: %w", r.pos, err)
	}
	r.pos += int64(n)
	return buf[:n]
}

func (r *reader) u32() uint32 { return binary.LittleEndian.Uint32(r.fixed(4)) }
func (r *reader) u64() uint64 { return binary.LittleEndian.Uint64(r.fixed(8)) }

func (r *reader) str(what string) string {
	n := r.u64()
	if r.err != nil {
		return ""
	}
	if n > maxString || int64(n) > r.left() {
		r.err = formatErr("%s at byte %d: string length %d exceeds the %d bytes left", what, r.pos-8, n, r.left())
		return ""
	}
	return string(r.bytes(int(n)))
}

// count reads a count of items each at least min bytes long, and checks
// that they can fit in what is left of the file.
func (r *reader) count(what string, min int64) uint64 {
	n := r.u64()
	if r.err == nil && n > uint64(r.left()/min) {
		r.err = formatErr("%s %d cannot fit in the %d bytes left at byte %d", what, n, r.left(), r.pos-8)
	}
	return n
}

func (r *reader) value(t ValueType, depth int) any {
	switch t {
	case TypeUint8:
		return r.fixed(1)[0]
	case TypeInt8:
		return int8(r.fixed(1)[0])
	case TypeBool:
		b := r.fixed(1)[0]
		if r.err == nil && b > 1 {
			r.err = formatErr("bool value %d at byte %d", b, r.pos-1)
		}
		return b == 1
	case TypeUint16:
		return binary.LittleEndian.Uint16(r.fixed(2))
	case TypeInt16:
		return int16(binary.LittleEndian.Uint16(r.fixed(2)))
	case TypeUint32:
		return r.u32()
	case TypeInt32:
		return int32(r.u32())
	case TypeFloat32:
		return math.Float32frombits(r.u32())
	case TypeUint64:
		return r.u64()
	case TypeInt64:
		return int64(r.u64())
	case TypeFloat64:
		return math.Float64frombits(r.u64())
	case TypeString:
		return r.str("string value")
	case TypeArray:
		if depth > 8 {
			r.err = formatErr("arrays nested more than 8 deep at byte %d", r.pos)
			return nil
		}
		et := ValueType(r.u32())
		if r.err == nil && et >= numValueTypes {
			r.err = formatErr("unknown array element type %d at byte %d", uint32(et), r.pos-4)
			return nil
		}
		min := int64(et.scalarSize())
		if min == 0 {
			min = 8 // a string's length, an array's type and count
		}
		n := r.count("array length", min)
		if r.err != nil {
			return nil
		}
		if r.elems += n; r.elems > MaxArrayElements {
			r.err = formatErr("metadata arrays hold more than %d elements in all", MaxArrayElements)
			return nil
		}
		a := Array{Elem: et, Values: make([]any, 0, min64(n, 1<<16))}
		for i := uint64(0); i < n && r.err == nil; i++ {
			a.Values = append(a.Values, r.value(et, depth+1))
		}
		return a
	}
	r.err = formatErr("unknown value type %d at byte %d", uint32(t), r.pos-4)
	return nil
}

func min64(a uint64, b int) int {
	if a < uint64(b) {
		return int(a)
	}
	return b
}

// Read reads a GGUF file's header through r (size bytes in all) and
// checks every tensor against the file: a known type's data lies inside
// the data section at an aligned offset, and no two tensors overlap.
func Read(ra io.ReaderAt, size int64) (*File, error) {
	r := &reader{r: bufio.NewReaderSize(io.NewSectionReader(ra, 0, size), 64<<10), size: size}
	if magic := r.u32(); r.err == nil && magic != Magic {
		return nil, formatErr("bad magic %#08x: not a GGUF file", magic)
	}
	f := &File{Version: r.u32(), Alignment: DefaultAlignment}
	if r.err == nil && f.Version != 2 && f.Version != 3 {
		return nil, formatErr("unsupported version %d (want 2 or 3)", f.Version)
	}
	nTensors := r.count("tensor count", 8+4+8+4+8)
	nKVs := r.count("metadata count", 8+4+1)
	if r.err != nil {
		return nil, r.err
	}
	keys := map[string]bool{}
	for i := uint64(0); i < nKVs && r.err == nil; i++ {
		kv := KV{Key: r.str("metadata key")}
		kv.Type = ValueType(r.u32())
		kv.Value = r.value(kv.Type, 0)
		if r.err == nil && keys[kv.Key] {
			r.err = formatErr("metadata key %q appears twice", kv.Key)
		}
		keys[kv.Key] = true
		f.KVs = append(f.KVs, kv)
	}
	if r.err != nil {
		return nil, r.err
	}
	if kv := f.KV(AlignmentKey); kv != nil {
		a, ok := kv.Value.(uint32)
		if !ok || a == 0 || a&(a-1) != 0 {
			return nil, formatErr("%s is %v (%s), want a power of two uint32", AlignmentKey, kv.Value, kv.Type)
		}
		f.Alignment = uint64(a)
	}
	names := map[string]bool{}
	for i := uint64(0); i < nTensors && r.err == nil; i++ {
		t := TensorInfo{Name: r.str("tensor name")}
		nd := r.u32()
		if r.err == nil && (nd == 0 || nd > MaxDims) {
			r.err = formatErr("tensor %q has %d dimensions (want 1 to %d)", t.Name, nd, MaxDims)
		}
		for d := uint32(0); d < nd && r.err == nil; d++ {
			t.Dims = append(t.Dims, r.u64())
		}
		t.Type = Type(r.u32())
		t.Offset = r.u64()
		if r.err != nil {
			break
		}
		if names[t.Name] {
			return nil, formatErr("tensor %q appears twice", t.Name)
		}
		names[t.Name] = true
		if t.Offset%f.Alignment != 0 {
			return nil, formatErr("tensor %q offset %d is not a multiple of the alignment %d", t.Name, t.Offset, f.Alignment)
		}
		if t.Type.Known() {
			n, err := TensorBytes(t.Type, t.Dims)
			if err != nil {
				return nil, fmt.Errorf("tensor %q: %w", t.Name, err)
			}
			t.Size = n
		}
		f.Tensors = append(f.Tensors, t)
	}
	if r.err != nil {
		return nil, r.err
	}
	f.DataStart = alignUp(r.pos, int64(f.Alignment))
	data := size - f.DataStart
	if data < 0 {
		data = 0
	}
	order := make([]int, len(f.Tensors))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return f.Tensors[order[a]].Offset < f.Tensors[order[b]].Offset })
	var end uint64
	prev := ""
	for _, k := range order {
		t := f.Tensors[k]
		if t.Offset < end {
			return nil, formatErr("tensors %q and %q overlap", prev, t.Name)
		}
		if t.Offset > uint64(data) || t.Size > uint64(data)-t.Offset {
			return nil, formatErr("tensor %q: %d bytes at data offset %d run past the file's %d data bytes (truncated?)", t.Name, t.Size, t.Offset, data)
		}
		end, prev = t.Offset+t.Size, t.Name
	}
	return f, nil
}

func alignUp(n, a int64) int64 { return (n + a - 1) / a * a }

// Plan lays out a GGUF file for tensors (Name, Dims and Type set; Size
// and Offset are filled in) whose data the caller writes afterwards at
// DataStart+Offset, and returns the header bytes (padded to the data
// start) and the file's total size. The alignment is DefaultAlignment
// unless kvs has a general.alignment.
func Plan(kvs []KV, tensors []TensorInfo) (header []byte, placed []TensorInfo, total int64, err error) {
	align := uint64(DefaultAlignment)
	w := &writer{}
	w.u32(Magic)
	w.u32(Version)
	w.u64(uint64(len(tensors)))
	w.u64(uint64(len(kvs)))
	keys := map[string]bool{}
	for _, kv := range kvs {
		if keys[kv.Key] {
			return nil, nil, 0, fmt.Errorf("gguf: metadata key %q twice", kv.Key)
		}
		keys[kv.Key] = true
		if kv.Key == AlignmentKey {
			a, ok := kv.Value.(uint32)
			if !ok || a == 0 || a&(a-1) != 0 {
				return nil, nil, 0, fmt.Errorf("gguf: %s must be a power of two uint32", AlignmentKey)
			}
			align = uint64(a)
		}
		w.str(kv.Key)
		w.u32(uint32(kv.Type))
		if err := w.value(kv.Type, kv.Value); err != nil {
			return nil, nil, 0, fmt.Errorf("gguf: metadata %q: %w", kv.Key, err)
		}
	}
	placed = make([]TensorInfo, len(tensors))
	var off uint64
	names := map[string]bool{}
	for i, t := range tensors {
		if names[t.Name] {
			return nil, nil, 0, fmt.Errorf("gguf: two tensors named %q", t.Name)
		}
		names[t.Name] = true
		if len(t.Dims) == 0 || len(t.Dims) > MaxDims {
			return nil, nil, 0, fmt.Errorf("gguf: tensor %q has %d dimensions (want 1 to %d)", t.Name, len(t.Dims), MaxDims)
		}
		n, err := TensorBytes(t.Type, t.Dims)
		if err != nil {
			return nil, nil, 0, fmt.Errorf("tensor %q: %w", t.Name, err)
		}
		t.Offset, t.Size = off, n
		placed[i] = t
		off = uint64(alignUp(int64(off+n), int64(align)))
		w.str(t.Name)
		w.u32(uint32(len(t.Dims)))
		for _, d := range t.Dims {
			w.u64(d)
		}
		w.u32(uint32(t.Type))
		w.u64(t.Offset)
	}
	header = w.b
	start := alignUp(int64(len(header)), int64(align))
	header = append(header, make([]byte, start-int64(len(header)))...)
	total = start
	if len(placed) > 0 {
		last := placed[len(placed)-1]
		total = start + int64(last.Offset+last.Size)
	}
	return header, placed, total, nil
}

type writer struct{ b []byte }

func (w *writer) u32(v uint32) { w.b = binary.LittleEndian.AppendUint32(w.b, v) }
func (w *writer) u64(v uint64) { w.b = binary.LittleEndian.AppendUint64(w.b, v) }
func (w *writer) str(s string) { w.u64(uint64(len(s))); w.b = append(w.b, s...) }

func (w *writer) value(t ValueType, v any) error {
	bad := func() error { return fmt.Errorf("value %v (%T) is not a %s", v, v, t) }
	switch t {
	case TypeUint8:
		x, ok := v.(uint8)
		if !ok {
			return bad()
		}
		w.b = append(w.b, x)
	case TypeInt8:
		x, ok := v.(int8)
		if !ok {
			return bad()
		}
		w.b = append(w.b, byte(x))
	case TypeBool:
		x, ok := v.(bool)
		if !ok {
			return bad()
		}
		if x {
			w.b = append(w.b, 1)
		} else {
			w.b = append(w.b, 0)
		}
	case TypeUint16:
		x, ok := v.(uint16)
		if !ok {
			return bad()
		}
		w.b = binary.LittleEndian.AppendUint16(w.b, x)
	case TypeInt16:
		x, ok := v.(int16)
		if !ok {
			return bad()
		}
		w.b = binary.LittleEndian.AppendUint16(w.b, uint16(x))
	case TypeUint32:
		x, ok := v.(uint32)
		if !ok {
			return bad()
		}
		w.u32(x)
	case TypeInt32:
		x, ok := v.(int32)
		if !ok {
			return bad()
		}
		w.u32(uint32(x))
	case TypeFloat32:
		x, ok := v.(float32)
		if !ok {
			return bad()
		}
		w.u32(math.Float32bits(x))
	case TypeUint64:
		x, ok := v.(uint64)
		if !ok {
			return bad()
		}
		w.u64(x)
	case TypeInt64:
		x, ok := v.(int64)
		if !ok {
			return bad()
		}
		w.u64(uint64(x))
	case TypeFloat64:
		x, ok := v.(float64)
		if !ok {
			return bad()
		}
		w.u64(math.Float64bits(x))
	case TypeString:
		x, ok := v.(string)
		if !ok {
			return bad()
		}
		w.str(x)
	case TypeArray:
		a, ok := v.(Array)
		if !ok {
			return bad()
		}
		w.u32(uint32(a.Elem))
		w.u64(uint64(len(a.Values)))
		for _, e := range a.Values {
			if err := w.value(a.Elem, e); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("unknown value type %d", uint32(t))
	}
	return nil
}
