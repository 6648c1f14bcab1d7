package tensorfile

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func TestPlanAndReadHeader(t *testing.T) {
	tensors := []TensorInfo{
		{Name: "b", DType: "BF16", Shape: []int{2, 3}, Size: 12},
		{Name: "a", DType: "U8", Shape: []int{5}, Size: 5},
		{Name: "s", DType: "F32", Shape: nil, Size: 4},
	}
	header, placed, total, err := PlanSafeTensors(tensors, map[string]string{"k": "v"})
	if err != nil {
		t.Fatal(err)
	}
	if (len(header)-8)%8 != 0 || total != int64(len(header))+21 {
		t.Fatalf("header %d bytes, total %d", len(header), total)
	}
	file := make([]byte, total)
	copy(file, header)
	for i, p := range placed {
		for j := int64(0); j < p.Size; j++ {
			file[p.Offset+j] = byte(i + 1)
		}
	}
	h, err := ReadSafeTensorsHeader(bytes.NewReader(file), total)
	if err != nil {
		t.Fatal(err)
	}
	// In data order: b, a, s as planned; the whole-file reader agrees.
	if len(h.Tensors) != 3 || h.Tensors[0].Name != "b" || h.Tensors[1].Name != "a" || h.Metadata["k"] != "v" {
		t.Fatalf("header %+v", h)
	}
	st, err := ReadSafeTensors(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range h.Tensors {
		if got := st.Tensor(x.Name); got == nil || !bytes.Equal(got.Data, file[x.Offset:x.Offset+x.Size]) {
			t.Errorf("%s: the readers disagree", x.Name)
		}
	}
	if _, _, _, err := PlanSafeTensors([]TensorInfo{{Name: "x", DType: "F32", Shape: []int{2}, Size: 7}}, nil); err == nil {
		t.Error("a size that does not match the shape was planned")
	}
	if _, _, _, err := PlanSafeTensors([]TensorInfo{{Name: "x", DType: "U8", Size: 1, Shape: []int{1}}, {Name: "x", DType: "U8", Size: 1, Shape: []int{1}}}, nil); err == nil {
		t.Error("a duplicate name was planned")
	}
}

func TestHeaderRejects(t *testing.T) {
	mk := func(js string, data int) []byte {
		b := []byte{byte(len(js)), byte(len(js) >> 8), 0, 0, 0, 0, 0, 0}
		return append(append(b, js...), make([]byte, data)...)
	}
	cases := map[string][]byte{
		"overlap":   mk(`{"a":{"dtype":"U8","shape":[4],"data_offsets":[0,4]},"b":{"dtype":"U8","shape":[4],"data_offsets":[2,6]}}`, 6),
		"past end":  mk(`{"a":{"dtype":"U8","shape":[4],"data_offsets":[0,4]}}`, 3),
		"shape":     mk(`{"a":{"dtype":"F32","shape":[4],"data_offsets":[0,4]}}`, 4),
		"huge":      mk(`{"a":{"dtype":"F32","shape":[4611686018427387904,4],"data_offsets":[0,4]}}`, 4),
		"dtype":     mk(`{"a":{"dtype":"Q4","shape":[4],"data_offsets":[0,4]}}`, 4),
		"not json":  mk(`[1,2]`, 0),
		"metadata":  mk(`{"__metadata__":{"a":1}}`, 0),
		"too short": {1, 2, 3},
	}
	for name, b := range cases {
		_, err := ReadSafeTensorsHeader(bytes.NewReader(b), int64(len(b)))
		if err == nil || !errors.Is(err, ErrFormat) {
			t.Errorf("%s: %v", name, err)
		}
	}
	// A header length beyond the limit is refused before it is read.
	b := append([]byte{0, 0, 0, 0x10, 0, 0, 0, 0}, make([]byte, 16)...)
	if _, err := ReadSafeTensorsHeader(bytes.NewReader(b), 1<<40); err == nil || !strings.Contains(err.Error(), "limit") {
		t.Errorf("huge header: %v", err)
	}
}

func TestShardIndex(t *testing.T) {
	x, err := ReadShardIndex([]byte(`{"metadata":{"total_size":10},"weight_map":{"a":"m-1.safetensors","b":"m-2.safetensors","c":"m-1.safetensors"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(x.Shards(), ","); got != "m-1.safetensors,m-2.safetensors" {
		t.Errorf("shards %s", got)
	}
	b, err := WriteShardIndex(x)
	if err != nil {
		t.Fatal(err)
	}
	y, err := ReadShardIndex(b)
	if err != nil || len(y.WeightMap) != 3 {
		t.Fatalf("round trip: %v %v", y, err)
	}
	for _, bad := range []string{`{}`, `{"weight_map":{"a":"../x"}}`, `{"weight_map":{"a":"d/x"}}`, `{"weight_map":{"a":""}}`, `{"weight_map":{"a":null}}`, `{"weight_map":{"a":3}}`, `nope`} {
		if _, err := ReadShardIndex([]byte(bad)); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

func FuzzReadSafeTensorsHeader(f *testing.F) {
	header, _, total, _ := PlanSafeTensors([]TensorInfo{{Name: "x", DType: "F16", Shape: []int{2, 2}, Size: 8}}, map[string]string{"a": "b"})
	f.Add(append(header, make([]byte, total-int64(len(header)))...))
	f.Add([]byte("\x02\x00\x00\x00\x00\x00\x00\x00{}"))
	f.Fuzz(func(t *testing.T, b []byte) {
		h, err := ReadSafeTensorsHeader(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			return
		}
		// Every tensor lies inside the file and matches its shape, and
		// the whole-file reader accepts the same file.
		for _, x := range h.Tensors {
			if x.Offset < h.DataStart || x.Offset+x.Size > int64(len(b)) {
				t.Fatalf("%s outside the file", x.Name)
			}
		}
		if _, err := ReadSafeTensors(b); err != nil {
			t.Fatalf("ReadSafeTensors rejects what the header reader accepts: %v", err)
		}
	})
}

func FuzzReadShardIndex(f *testing.F) {
	f.Add([]byte(`{"metadata":{"total_size":10},"weight_map":{"a":"m-1.safetensors"}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		x, err := ReadShardIndex(b)
		if err != nil {
			return
		}
		for _, s := range x.Shards() {
			if !plainFileName(s) {
				t.Fatalf("shard %q accepted", s)
			}
		}
		out, err := WriteShardIndex(x)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ReadShardIndex(out); err != nil {
			t.Fatalf("a written index is rejected: %v", err)
		}
	})
}
