package tensorfile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"spvx/internal/checked"
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
	tests := []struct {
		name string
		b    []byte
		want string
	}{
		{"empty", nil, "missing"},
		{"wrong dtype", f8, "unsupported dtype \"<f8\""},
		{"truncated data", good[:len(good)-1], "truncated"},
		{"trailing data", append(append([]byte{}, good...), 0, 0, 0, 0), "4 more than shape [4] needs (16)"},
		{"truncated header", good[:20], "exceeds the file size"},
		{"fortran", fortran, "Fortran"},
		{"version", append(append([]byte{}, good[:6]...), 9, 0, 0, 0), "version 9"},
		{"negative dimension", npyWithShape("(-1,)", 16), "bad dimension \"-1\""},
		{"dimension beyond int", npyWithShape("(9223372036854775808,)", 16), "bad dimension"},
	}
	for _, tc := range tests {
		_, _, err := ReadNPY(tc.b)
		if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want ErrFormat containing %q", tc.name, err, tc.want)
		}
	}
}

// npyWithShape builds a version 1.0 .npy file whose header declares the
// given shape tuple, followed by data bytes of zeros.
func npyWithShape(tuple string, data int) []byte {
	header := "{'descr': '<f4', 'fortran_order': False, 'shape': " + tuple + ", }\n"
	b := append([]byte("\x93NUMPY\x01\x00"), byte(len(header)), byte(len(header)>>8))
	b = append(b, header...)
	return append(b, make([]byte, data)...)
}

// TestNPYHugeShapes: shapes whose byte size is beyond the file, or beyond
// an int (products that wrap to a small number or to 0), are rejected
// before anything is allocated: ReadNPY allocates nothing of the shape's
// size, and NPYSize gives the size a stream reader would need.
func TestNPYHugeShapes(t *testing.T) {
	tests := []struct {
		tuple string
		size  int    // what NPYSize returns, or 0 when the size overflows
		want  string // ReadNPY's error
	}{
		{"(2147483648,)", 1 << 33, "truncated"},                                   // 2^31
		{"(4294967296,)", 1 << 34, "truncated"},                                   // 2^32
		{"(9007199254740992,)", 1 << 55, "truncated"},                             // 2^53
		{"(2305843009213693952,)", 0, "overflows"},                                // 2^61 × 4 wraps to 0
		{"(4611686018427387904,)", 0, "overflows"},                                // 2^62 × 4 wraps to 0
		{"(9223372036854775807,)", 0, "overflows"},                                // 2^63−1
		{"(4611686018427387905,)", 0, "overflows"},                                // (2^62+1) × 4 wraps to 4: one element's bytes
		{"(4294967296, 4294967296)", 0, "overflows"},                              // 2^64 wraps to 0
		{"(4294967296, 4294967296, 0)", 0, "overflows"},                           // wraps before the zero
		{"(3074457345618258603, 3)", 0, "overflows"},                              // wraps in the element count
		{"(1073741824, 2)", 1 << 33, "truncated"},                                 // 2^31 elements in two dimensions
		{"(2147483648, 2147483648)", 0, "overflows"},                              // 2^62 elements: 2^64 bytes
		{"(1, 1, 1, 1, 1, 1, 1, 1, 1, 576460752303423488)", 1 << 61, "truncated"}, // 2^59 elements: 2^61 bytes fit
		{"(2305843009213693951,)", 0, "truncated"},                                // (2^61−1) × 4 = 2^63−4 fits; with the header, NPYSize overflows
	}
	for _, tc := range tests {
		b := npyWithShape(tc.tuple, 16)
		hdr := len(b) - 16
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, _, err := ReadNPY(b)
		runtime.ReadMemStats(&after)
		if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("shape %s: ReadNPY err = %v, want ErrFormat containing %q", tc.tuple, err, tc.want)
		}
		if d := after.TotalAlloc - before.TotalAlloc; d > 1<<20 {
			t.Errorf("shape %s: ReadNPY allocated %d bytes", tc.tuple, d)
		}
		size, err := NPYSize(b)
		switch {
		case tc.size == 0 && (err == nil || !strings.Contains(err.Error(), "overflows")):
			t.Errorf("shape %s: NPYSize = %d, %v; want an overflow error", tc.tuple, size, err)
		case tc.size != 0 && (err != nil || size != hdr+tc.size):
			t.Errorf("shape %s: NPYSize = %d, %v; want %d", tc.tuple, size, err, hdr+tc.size)
		}
	}
	// A shape that fits exactly is read, and NPYSize agrees with the file.
	b := npyWithShape("(2, 2)", 16)
	if data, shape, err := ReadNPY(b); err != nil || len(data) != 4 || !reflect.DeepEqual(shape, []int{2, 2}) {
		t.Errorf("(2, 2): %v %v %v", data, shape, err)
	}
	if size, err := NPYSize(b); err != nil || size != len(b) {
		t.Errorf("NPYSize = %d, %v; want %d", size, err, len(b))
	}
	if n, err := NPYPrefixLen(b[:12]); err != nil || n != len(b)-16 {
		t.Errorf("NPYPrefixLen = %d, %v; want %d", n, err, len(b)-16)
	}
	for _, bad := range [][]byte{nil, []byte("\x93NUMP"), []byte("\x93NUMPY\x01"), []byte("\x93NUMPY\x02\x00\x10\x00"), []byte("\x93NUMPY\x07\x00\x10\x00\x00\x00"), make([]byte, 64)} {
		if _, err := NPYPrefixLen(bad); !errors.Is(err, ErrFormat) {
			t.Errorf("NPYPrefixLen(%q) = %v, want ErrFormat", bad, err)
		}
	}
}

func TestWriteNPYShapeChecks(t *testing.T) {
	for _, shape := range [][]int{{3}, {1 << 32, 1 << 32}, {1 << 61, 8}, {-1, -3}, {math.MaxInt, 3}} {
		if err := WriteNPY(io.Discard, []float32{1, 2, 3}[:2], shape); err == nil {
			t.Errorf("WriteNPY of 2 values with shape %v: no error", shape)
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
		{"negative dimension", mk(`{"a":{"dtype":"U8","shape":[-1,-1],"data_offsets":[0,1]}}`, 1), "does not fit"},
		// Products that wrap: 8 × 2^61 = 2^64 → 0, 4 × (2^62+1) → 4, 2^32 × 2^32 → 0.
		{"F64 2^61, no data", mk(`{"a":{"dtype":"F64","shape":[2305843009213693952],"data_offsets":[0,0]}}`, 0), "overflows"},
		{"F32 2^62+1, 4 bytes", mk(`{"a":{"dtype":"F32","shape":[4611686018427387905],"data_offsets":[0,4]}}`, 4), "overflows"},
		{"U8 2^32 x 2^32 x 0", mk(`{"a":{"dtype":"U8","shape":[4294967296,4294967296,0],"data_offsets":[0,0]}}`, 0), "overflows"},
		{"U16 2^63-1", mk(`{"a":{"dtype":"U16","shape":[9223372036854775807],"data_offsets":[0,2]}}`, 2), "overflows"},
		{"U8 2^63-1", mk(`{"a":{"dtype":"U8","shape":[9223372036854775807],"data_offsets":[0,2]}}`, 2), "needs 9223372036854775807 bytes"},
		{"F32 2^31", mk(`{"a":{"dtype":"F32","shape":[2147483648],"data_offsets":[0,8]}}`, 8), "needs 8589934592 bytes"},
		{"U8 2^32", mk(`{"a":{"dtype":"U8","shape":[4294967296],"data_offsets":[0,8]}}`, 8), "needs 4294967296 bytes"},
		{"F32 2^53", mk(`{"a":{"dtype":"F32","shape":[9007199254740992],"data_offsets":[0,8]}}`, 8), "needs 36028797018963968 bytes"},
		{"F64 2^62", mk(`{"a":{"dtype":"F64","shape":[4611686018427387904],"data_offsets":[0,8]}}`, 8), "overflows"},
		{"I16 2^62", mk(`{"a":{"dtype":"I16","shape":[4611686018427387904],"data_offsets":[0,8]}}`, 8), "overflows"},
		{"offset beyond int", mk(`{"a":{"dtype":"U8","shape":[1],"data_offsets":[0,9223372036854775808]}}`, 1), "tensor \"a\""},
	}
	for _, tc := range tests {
		_, err := ReadSafeTensors(tc.b)
		if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want ErrFormat containing %q", tc.name, err, tc.want)
		}
	}
}

func TestCheckSafeTensorsPrefix(t *testing.T) {
	hdr := func(n uint64, rest string) []byte { return append(binary.LittleEndian.AppendUint64(nil, n), rest...) }
	tests := []struct {
		head []byte
		size int
		want string // "" for accepted
	}{
		{hdr(2, "{}"), 10, ""},
		{hdr(4, "  {}"), 12, ""},
		{hdr(100, `{"a"`), 1 << 30, ""},
		{hdr(100, "   "), 1 << 30, ""},                                // only white space so far
		{make([]byte, 4096), 1 << 30, "header length 0 is too short"}, // /dev/zero
		{[]byte("OpNop\nOpNop\nOpNop\n"), 1 << 30, "exceeds"},         // text: an absurd length
		{hdr(1<<62, "{"), 1 << 30, "exceeds the file size"},
		{hdr(math.MaxUint64, "{"), 1 << 30, "exceeds the file size"},
		{hdr(3, "   "), 11, "3 bytes of white space"},
		{hdr(1, "{"), 9, "header length 1 is too short"},
		{hdr(8, "[1,2,3]"), 1 << 30, "starts with '['"},
		{[]byte{1, 2}, 1 << 30, "truncated"},
		{hdr(2, "{}"), 4, "exceeds the file size"},
	}
	for _, tc := range tests {
		err := CheckSafeTensorsPrefix(tc.head, tc.size)
		if tc.want == "" && err != nil || tc.want != "" && (!errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("CheckSafeTensorsPrefix(%.32q, %d) = %v, want %q", tc.head, tc.size, err, tc.want)
		}
	}
}

func TestWriteSafeTensorsShapeChecks(t *testing.T) {
	for _, shape := range [][]int{{3}, {1 << 61}, {1 << 32, 1 << 32, 0}, {-2, -1}} {
		st := &SafeTensors{Tensors: []Tensor{{Name: "a", DType: "F64", Shape: shape, Data: make([]byte, 16)}}}
		if err := WriteSafeTensors(io.Discard, st); err == nil {
			t.Errorf("WriteSafeTensors of 16 bytes with shape %v of F64: no error", shape)
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
		// The shape describes exactly the data, and NPYSize the file.
		if n, ok := checked.Product(shape, 1); !ok || n != len(data) {
			t.Fatalf("shape %v accepted with %d values", shape, len(data))
		}
		if size, err := NPYSize(b); err != nil || size != len(b) {
			t.Fatalf("NPYSize = %d, %v for an accepted file of %d bytes", size, err, len(b))
		}
		if n, err := NPYPrefixLen(b[:min(len(b), 12)]); err != nil || n > len(b) || n > len(b)-4*len(data) {
			t.Fatalf("NPYPrefixLen = %d, %v for an accepted file of %d bytes", n, err, len(b))
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
		// What the reader accepts, the stream check accepts from its start.
		if err := CheckSafeTensorsPrefix(b[:min(len(b), 4096)], len(b)); err != nil {
			t.Fatalf("an accepted file fails CheckSafeTensorsPrefix: %v", err)
		}
		// Every accepted tensor's shape and dtype describe exactly its data.
		for _, tn := range st.Tensors {
			n, ok := checked.Product(tn.Shape, dtypeSizes[tn.DType])
			if !ok || n != len(tn.Data) {
				t.Fatalf("tensor %q: shape %v of %s accepted with %d data bytes", tn.Name, tn.Shape, tn.DType, len(tn.Data))
			}
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

// TestWriteChunks: data longer than one write chunk round-trips through
// WriteNPY and WriteRawFloat32, and each Write is at most a chunk.
func TestWriteChunks(t *testing.T) {
	data := make([]float32, 3*11000) // over two chunks of 16,384 values
	for i := range data {
		data[i] = float32(i) * 0.5
	}
	var w maxWriter
	if err := WriteNPY(&w, data, []int{3, len(data) / 3}); err != nil {
		t.Fatal(err)
	}
	got, shape, err := ReadNPY(w.Bytes())
	if err != nil || !reflect.DeepEqual(got, data) || !reflect.DeepEqual(shape, []int{3, len(data) / 3}) {
		t.Fatalf("round trip: %d values, %v, %v", len(got), shape, err)
	}
	if w.max > writeChunk {
		t.Errorf("a write of %d bytes", w.max)
	}
	var raw maxWriter
	if err := WriteRawFloat32(&raw, data); err != nil {
		t.Fatal(err)
	}
	if back, err := ReadRawFloat32(raw.Bytes()); err != nil || !reflect.DeepEqual(back, data) {
		t.Errorf("raw round trip: %d values, %v", len(back), err)
	}
}

type maxWriter struct {
	bytes.Buffer
	max int
}

func (w *maxWriter) Write(p []byte) (int, error) {
	w.max = max(w.max, len(p))
	return w.Buffer.Write(p)
}
