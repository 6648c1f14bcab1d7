package tensorfile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
)

func npyBytes(t testing.TB, data []float32, shape []int) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteNPY(&buf, data, shape); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestNPYRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		data  []float32
		shape []int
	}{
		{[]float32{1, -2.5, float32(math.Inf(1))}, []int{3}},
		{[]float32{1, 2, 3, 4, 5, 6}, []int{2, 3}},
		{[]float32{7}, []int{}},
		{[]float32{}, []int{0, 4}},
	} {
		b := npyBytes(t, tc.data, tc.shape)
		if (10+int(binary.LittleEndian.Uint16(b[8:])))%64 != 0 {
			t.Errorf("shape %v: data does not start on a 64-byte boundary", tc.shape)
		}
		data, shape, err := ReadNPY(b)
		if err != nil {
			t.Fatalf("shape %v: %v", tc.shape, err)
		}
		if !reflect.DeepEqual(data, tc.data) || !reflect.DeepEqual(shape, tc.shape) {
			t.Errorf("round trip: got %v %v, want %v %v", data, shape, tc.data, tc.shape)
		}
	}
}

// TestNPYFromNumPy reads a header spelled the way numpy 1.x/2.x write it.
func TestNPYFromNumPy(t *testing.T) {
	header := "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }"
	header += strings.Repeat(" ", 128-10-len(header)-1) + "\n"
	b := append([]byte("\x93NUMPY\x01\x00"), byte(len(header)), 0)
	b = append(b, header...)
	b = binary.LittleEndian.AppendUint32(b, math.Float32bits(1.5))
	b = binary.LittleEndian.AppendUint32(b, math.Float32bits(-3))
	data, shape, err := ReadNPY(b)
	if err != nil || !reflect.DeepEqual(data, []float32{1.5, -3}) || !reflect.DeepEqual(shape, []int{2}) {
		t.Errorf("ReadNPY = %v %v %v", data, shape, err)
	}
}

func TestNPYErrors(t *testing.T) {
	good := npyBytes(t, []float32{1, 2, 3, 4}, []int{4})
	f8 := bytes.Replace(good, []byte("<f4"), []byte("<f8"), 1)
	fortran := bytes.Replace(npyBytes(t, []float32{1, 2, 3, 4}, []int{2, 2}), []byte("False"), []byte("True "), 1)
	huge := bytes.Replace(good, []byte("(4,)"), []byte("(9999999999999,)"[:4]), 1)
	tests := []struct {
		name string
		b    []byte
		want string
	}{
		{"empty", nil, "missing"},
		{"wrong dtype", f8, "unsupported dtype \"<f8\""},
		{"truncated data", good[:len(good)-1], "truncated"},
		{"truncated header", good[:20], "exceeds the file size"},
		{"fortran", fortran, "Fortran"},
		{"big shape", huge, ""},
		{"version", append(append([]byte{}, good[:6]...), 9, 0, 0, 0), "version 9"},
	}
	for _, tc := range tests {
		_, _, err := ReadNPY(tc.b)
		if tc.name == "big shape" {
			continue // only must not panic
		}
		if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want ErrFormat containing %q", tc.name, err, tc.want)
		}
	}
}

func TestSafeTensorsRoundTrip(t *testing.T) {
	st := &SafeTensors{
		Tensors: []Tensor{
			{Name: "scales", DType: "U8", Shape: []int{2}, Data: []byte{127, 128}},
			{Name: "blocks", DType: "U8", Shape: []int{3}, Data: []byte{1, 2, 3}},
		},
		Metadata: map[string]string{"format": "mxfp4", "block_size": "32"},
	}
	var buf bytes.Buffer
	if err := WriteSafeTensors(&buf, st); err != nil {
		t.Fatal(err)
	}
	if hlen := binary.LittleEndian.Uint64(buf.Bytes()); hlen%8 != 0 {
		t.Errorf("header length %d is not a multiple of 8", hlen)
	}
	got, err := ReadSafeTensors(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Metadata, st.Metadata) {
		t.Errorf("metadata %v", got.Metadata)
	}
	for _, name := range []string{"scales", "blocks"} {
		a, b := got.Tensor(name), st.Tensor(name)
		if a == nil || !bytes.Equal(a.Data, b.Data) || !reflect.DeepEqual(a.Shape, b.Shape) || a.DType != b.DType {
			t.Errorf("tensor %s: got %+v, want %+v", name, a, b)
		}
	}
}

func TestSafeTensorsErrors(t *testing.T) {
	mk := func(header string, data int) []byte {
		b := binary.LittleEndian.AppendUint64(nil, uint64(len(header)))
		return append(append(b, header...), make([]byte, data)...)
	}
	tests := []struct {
		name string
		b    []byte
		want string
	}{
		{"short", []byte{1, 2}, "truncated"},
		{"header too long", binary.LittleEndian.AppendUint64(nil, 1<<40), "exceeds the file size"},
		{"not json", mk("hello", 0), "not a JSON object"},
		{"offsets", mk(`{"a":{"dtype":"U8","shape":[4],"data_offsets":[0,4]}}`, 2), "outside"},
		{"shape mismatch", mk(`{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,4]}}`, 4), "needs 8 bytes"},
		{"dtype", mk(`{"a":{"dtype":"Q9","shape":[1],"data_offsets":[0,1]}}`, 1), "unknown dtype"},
		{"metadata", mk(`{"__metadata__":{"a":1}}`, 0), "__metadata__"},
		{"huge shape", mk(`{"a":{"dtype":"U8","shape":[4294967296,4294967296,4294967296],"data_offsets":[0,1]}}`, 1), "does not fit"},
	}
	for _, tc := range tests {
		_, err := ReadSafeTensors(tc.b)
		if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want ErrFormat containing %q", tc.name, err, tc.want)
		}
	}
}

func FuzzReadNPY(f *testing.F) {
	f.Add(npyBytes(f, []float32{1, 2, 3}, []int{3}))
	f.Add(npyBytes(f, []float32{1, 2, 3, 4}, []int{2, 2}))
	f.Add([]byte("\x93NUMPY\x02\x00\x10\x00\x00\x00{'shape': (1,)}"))
	f.Fuzz(func(t *testing.T, b []byte) {
		data, shape, err := ReadNPY(b)
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := WriteNPY(&buf, data, shape); err != nil {
			t.Fatalf("WriteNPY after a successful read: %v", err)
		}
		d2, s2, err := ReadNPY(buf.Bytes())
		if err != nil || len(d2) != len(data) || !reflect.DeepEqual(s2, shape) {
			t.Fatalf("re-read: %v %v %v", err, s2, shape)
		}
	})
}

func FuzzReadSafeTensors(f *testing.F) {
	var buf bytes.Buffer
	_ = WriteSafeTensors(&buf, &SafeTensors{Tensors: []Tensor{{Name: "x", DType: "U8", Shape: []int{2}, Data: []byte{1, 2}}}, Metadata: map[string]string{"k": "v"}})
	f.Add(buf.Bytes())
	f.Add([]byte("\x02\x00\x00\x00\x00\x00\x00\x00{}"))
	f.Fuzz(func(t *testing.T, b []byte) {
		st, err := ReadSafeTensors(b)
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := WriteSafeTensors(&out, st); err != nil {
			return // e.g. a tensor named like the metadata key cannot be written back
		}
		st2, err := ReadSafeTensors(out.Bytes())
		if err != nil || len(st2.Tensors) != len(st.Tensors) {
			t.Fatalf("re-read: %v", err)
		}
		for i := range st.Tensors {
			if !bytes.Equal(st.Tensors[i].Data, st2.Tensors[i].Data) {
				t.Fatalf("tensor %q differs after a round trip", st.Tensors[i].Name)
			}
		}
	})
}
