package gguf

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	parser "github.com/gpustack/gguf-parser-go"
)

// sample is a file with every value type and the tensor types spvx writes.
func sample() ([]KV, []TensorInfo) {
	kvs := []KV{
		String("general.architecture", "test"),
		Uint32("general.alignment", 64),
		{"u8", TypeUint8, uint8(7)}, {"i8", TypeInt8, int8(-7)}, {"u16", TypeUint16, uint16(700)},
		{"i16", TypeInt16, int16(-700)}, {"i32", TypeInt32, int32(-70000)}, {"f32", TypeFloat32, float32(1.5)},
		{"b", TypeBool, true}, {"u64", TypeUint64, uint64(1 << 40)}, {"i64", TypeInt64, int64(-1 << 40)},
		{"f64", TypeFloat64, 2.25},
		{"arr", TypeArray, Array{TypeString, []any{"a", "bc"}}},
		{"nested", TypeArray, Array{TypeArray, []any{Array{TypeUint8, []any{uint8(1), uint8(2)}}}}},
	}
	tensors := []TensorInfo{
		{Name: "w.mx", Dims: []uint64{64, 3}, Type: MXFP4},
		{Name: "w.f32", Dims: []uint64{5}, Type: F32},
		{Name: "w.f16", Dims: []uint64{3, 2, 2}, Type: F16},
		{Name: "w.bf16", Dims: []uint64{7}, Type: BF16},
	}
	return kvs, tensors
}

func writeSample(t testing.TB) (string, []byte, []TensorInfo) {
	kvs, tensors := sample()
	header, placed, total, err := Plan(kvs, tensors)
	if err != nil {
		t.Fatal(err)
	}
	file := make([]byte, total)
	copy(file, header)
	for i := range file[len(header):] {
		file[len(header)+i] = byte(i * 7)
	}
	p := filepath.Join(t.TempDir(), "s.gguf")
	if err := os.WriteFile(p, file, 0o644); err != nil {
		t.Fatal(err)
	}
	return p, file, placed
}

func TestRoundTrip(t *testing.T) {
	_, file, placed := writeSample(t)
	f, err := Read(bytes.NewReader(file), int64(len(file)))
	if err != nil {
		t.Fatal(err)
	}
	kvs, _ := sample()
	if !reflect.DeepEqual(f.KVs, kvs) {
		t.Errorf("KVs:\n%v\nwant\n%v", f.KVs, kvs)
	}
	if !reflect.DeepEqual(f.Tensors, placed) {
		t.Errorf("tensors:\n%+v\nwant\n%+v", f.Tensors, placed)
	}
	if f.Alignment != 64 || f.DataStart%64 != 0 {
		t.Errorf("alignment %d, data at %d", f.Alignment, f.DataStart)
	}
	if placed[0].Size != 2*17*3 || placed[1].Offset%64 != 0 {
		t.Errorf("MXFP4 size %d, next offset %d", placed[0].Size, placed[1].Offset)
	}
}

// TestIndependentReader checks our files with gpustack's gguf-parser-go.
func TestIndependentReader(t *testing.T) {
	p, _, placed := writeSample(t)
	g, err := parser.ParseGGUFFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if g.Header.Version != 3 || g.Header.TensorCount != uint64(len(placed)) || g.Header.MetadataKVCount != 14 {
		t.Errorf("header %+v", g.Header)
	}
	f, err := Read(bytes.NewReader(mustRead(t, p)), int64(len(mustRead(t, p))))
	if err != nil {
		t.Fatal(err)
	}
	if g.TensorDataStartOffset != f.DataStart {
		t.Errorf("data start: parser %d, ours %d", g.TensorDataStartOffset, f.DataStart)
	}
	for i, ti := range g.TensorInfos {
		w := placed[i]
		if ti.Name != w.Name || !reflect.DeepEqual(ti.Dimensions, w.Dims) || uint32(ti.Type) != uint32(w.Type) || ti.Offset != w.Offset {
			t.Errorf("tensor %d: parser %s %v %v @%d, ours %+v", i, ti.Name, ti.Dimensions, ti.Type, ti.Offset, w)
		}
		if got := ti.Bytes(); got != w.Size {
			t.Errorf("tensor %s: parser size %d, ours %d", w.Name, got, w.Size)
		}
	}
	if a, ok := g.Header.MetadataKV.Get("general.architecture"); !ok || a.ValueString() != "test" {
		t.Errorf("architecture %v", a)
	}
	if v, ok := g.Header.MetadataKV.Get("i64"); !ok || v.ValueInt64() != -1<<40 {
		t.Errorf("i64 %v", v)
	}
	if v, ok := g.Header.MetadataKV.Get("arr"); !ok || fmt.Sprint(v.ValueArray().Len) != "2" {
		t.Errorf("arr %v", v)
	}
}

func mustRead(t testing.TB, p string) []byte {
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestBadFiles(t *testing.T) {
	_, file, _ := writeSample(t)
	le := func(b []byte, at int, v uint64, n int) []byte {
		c := append([]byte(nil), b...)
		for i := 0; i < n; i++ {
			c[at+i] = byte(v >> (8 * i))
		}
		return c
	}
	cases := map[string][]byte{
		"empty":         nil,
		"magic":         le(file, 0, 0x12345678, 4),
		"version":       le(file, 4, 9, 4),
		"tensor count":  le(file, 8, 1<<60, 8),
		"kv count":      le(file, 16, 1<<60, 8),
		"key length":    le(file, 24, 1<<62, 8),
		"truncated":     file[:len(file)-1],
		"header only":   file[:40],
		"bad alignment": replaceKV(file, 63),
	}
	for name, b := range cases {
		_, err := Read(bytes.NewReader(b), int64(len(b)))
		if err == nil {
			t.Errorf("%s: accepted", name)
			continue
		}
		if !errors.Is(err, ErrFormat) {
			t.Errorf("%s: %v does not wrap ErrFormat", name, err)
		}
	}
}

// replaceKV rewrites the sample's general.alignment value.
func replaceKV(file []byte, a uint32) []byte {
	i := bytes.Index(file, []byte("general.alignment"))
	c := append([]byte(nil), file...)
	at := i + len("general.alignment") + 4
	c[at], c[at+1], c[at+2], c[at+3] = byte(a), byte(a>>8), byte(a>>16), byte(a>>24)
	return c
}

// TestArrayElementBound: a file of one-byte array elements is refused
// beyond MaxArrayElements instead of decoding to 16 times its size.
func TestArrayElementBound(t *testing.T) {
	w := &writer{}
	w.u32(Magic)
	w.u32(Version)
	w.u64(0)
	w.u64(1)
	w.str("big")
	w.u32(uint32(TypeArray))
	w.u32(uint32(TypeUint8))
	w.u64(MaxArrayElements + 1)
	b := append(w.b, make([]byte, MaxArrayElements+1)...)
	_, err := Read(bytes.NewReader(b), int64(len(b)))
	if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "more than") {
		t.Fatalf("got %v", err)
	}
}

func FuzzRead(f *testing.F) {
	_, file, _ := writeSample(f)
	f.Add(file)
	f.Add(file[:100])
	f.Fuzz(func(t *testing.T, b []byte) {
		g, err := Read(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			return
		}
		// What is read back re-encodes to a header Read accepts again.
		header, _, _, err := Plan(g.KVs, g.Tensors)
		if err != nil {
			return // e.g. an unknown tensor type, which Plan cannot size
		}
		if _, err := Read(bytes.NewReader(header), int64(len(header))+1<<40); err != nil && !errors.Is(err, ErrFormat) {
			t.Fatal(err)
		}
	})
}
