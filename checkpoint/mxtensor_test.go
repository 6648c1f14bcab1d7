package checkpoint

import (
	"bufio"
	"bytes"
	"errors"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"spvx/internal/tensorfile"
	"spvx/mx"
)

// mxTensorBytes builds an MX tensor file's bytes with the given metadata
// and tensor sizes, for crafted-metadata tests.
func mxTensorBytes(t testing.TB, meta map[string]string, nScales, nBlocks int) []byte {
	t.Helper()
	st := &tensorfile.SafeTensors{
		Tensors: []tensorfile.Tensor{
			{Name: "scales", DType: "U8", Shape: []int{nScales}, Data: make([]byte, nScales)},
			{Name: "blocks", DType: "U8", Shape: []int{nBlocks}, Data: make([]byte, nBlocks)},
		},
		Metadata: meta,
	}
	var buf bytes.Buffer
	if err := tensorfile.WriteSafeTensors(&buf, st); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestMXTensorRoundTrip: every format quantizes and dequantizes a 2×35
// tensor in blocks of 16 with its shape, each value within a quarter of
// its block's largest magnitude (a loose bound that still catches a
// wrong scale, sign or order), and values MXFP4 holds come back exactly.
func TestMXTensorRoundTrip(t *testing.T) {
	data := make([]float32, 2*35)
	for i := range data {
		data[i] = float32(math.Sin(float64(i))) * float32(i+1)
	}
	for _, b := range mx.BlockFormats {
		file, err := QuantizeTensor(data, []int{2, 35}, TensorOptions{Format: b, BlockSize: 16, Rounding: mx.TiesAway})
		if err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		st, err := tensorfile.ReadSafeTensors(file)
		if err != nil || st.Metadata["format"] != b.String() || st.Metadata["block_size"] != "16" ||
			st.Metadata["shape"] != "[2,35]" || st.Metadata["rounding"] != "away" || len(st.Tensor("scales").Data) != 5 {
			t.Fatalf("%s: %v %v", b, err, st.Metadata)
		}
		got, shape, err := DequantizeTensor(file)
		if err != nil || !reflect.DeepEqual(shape, []int{2, 35}) || len(got) != len(data) {
			t.Fatalf("%s: %v %v", b, shape, err)
		}
		for i := range data {
			blk := data[i/16*16 : min(i/16*16+16, len(data))]
			var amax float64
			for _, v := range blk {
				amax = math.Max(amax, math.Abs(float64(v)))
			}
			if d := math.Abs(float64(got[i] - data[i])); d > amax/4 {
				t.Fatalf("%s: element %d: %v vs %v", b, i, got[i], data[i])
			}
		}
	}
	exact := []float32{1, 2, 3, -6, 0.5, 0, 4, -1.5}
	file, err := QuantizeTensor(exact, []int{8}, TensorOptions{Format: mx.MXFP4, BlockSize: 32})
	if err != nil {
		t.Fatal(err)
	}
	if got, _, err := DequantizeTensor(file); err != nil || !reflect.DeepEqual(got, exact) {
		t.Errorf("MXFP4 values: %v %v", got, err)
	}
	if _, err := QuantizeTensor(exact, []int{3, 3}, TensorOptions{Format: mx.MXFP4, BlockSize: 32}); err == nil {
		t.Error("a shape of 9 elements for 8 values was accepted")
	}
	if _, err := QuantizeTensor(exact, []int{8}, TensorOptions{Format: mx.MXFP4, BlockSize: 0}); err == nil {
		t.Error("block size 0 was accepted")
	}
}

// TestMXTensorMalformed: a file whose metadata disagrees with its
// tensors, or that is not an MX tensor file, is an error naming what is
// wrong, before any output is allocated.
func TestMXTensorMalformed(t *testing.T) {
	meta := func(format, block, shape string) map[string]string {
		return map[string]string{"format": format, "block_size": block, "shape": shape}
	}
	good := mxTensorBytes(t, map[string]string{"format": "mxfp4", "block_size": "32", "shape": "[64]", "elements": "64"}, 2, 32)
	if _, _, err := DequantizeTensor(good); err != nil {
		t.Fatal(err)
	}
	var plain bytes.Buffer
	tensorfile.WriteSafeTensors(&plain, &tensorfile.SafeTensors{Tensors: []tensorfile.Tensor{{Name: "w", DType: "F32", Shape: []int{1}, Data: make([]byte, 4)}}})
	wrongDType := bytes.Replace(good, []byte(`"scales":{"dtype":"U8"`), []byte(`"scales":{"dtype":"I8"`), 1)
	tests := []struct {
		name string
		file []byte
		msg  string
	}{
		{"truncated", good[:len(good)-1], "outside"},
		{"not safetensors", []byte("\xff\xff\xff\xff\xff\xff\xff\x7fjunk"), "exceeds the file size"},
		{"a checkpoint", plain.Bytes(), "not an MX tensor written by 'spvx mx quantize'"},
		{"no format", mxTensorBytes(t, map[string]string{"block_size": "32"}, 1, 1), "not an MX tensor written by 'spvx mx quantize'"},
		{"bad format", mxTensorBytes(t, meta("pt", "32", "[4]"), 1, 2), "metadata format"},
		{"block 0", mxTensorBytes(t, meta("mxfp4", "0", "[4]"), 1, 2), `metadata block_size "0"`},
		{"block 2^63-1", mxTensorBytes(t, meta("mxfp4", "9223372036854775807", "[4]"), 1, 2), "block_size"},
		{"shape not a list", mxTensorBytes(t, meta("mxfp4", "32", "4"), 1, 2), "is not a list"},
		{"negative dimension", mxTensorBytes(t, meta("mxfp4", "32", "[-4]"), 1, 2), "bad dimension"},
		{"shape overflows", mxTensorBytes(t, meta("mxfp4", "32", "[4294967296,4294967296]"), 0, 0), "overflows"},
		{"mxfp6 6n wraps", mxTensorBytes(t, meta("mxfp6_e3m2", "32", "[3074457345618258603]"), 1, 1), "blocks tensor has 1 bytes"},
		{"elements disagree", mxTensorBytes(t, map[string]string{"format": "mxfp4", "block_size": "32", "shape": "[4]", "elements": "5"}, 1, 2), `metadata elements "5" disagrees`},
		{"blocks short", mxTensorBytes(t, meta("mxfp4", "32", "[64]"), 2, 31), "blocks tensor has 31 bytes"},
		{"scales short", mxTensorBytes(t, meta("mxfp4", "1", "[64]"), 63, 32), "scales tensor has 63 bytes"},
		{"wrong dtype", wrongDType, "want U8 tensors"},
	}
	for _, tc := range tests {
		if _, _, err := DequantizeTensor(tc.file); err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: %v; want an error containing %q", tc.name, err, tc.msg)
		}
	}
}

func TestReadFloat32(t *testing.T) {
	var npy bytes.Buffer
	tensorfile.WriteNPY(&npy, []float32{1, 2, 3, 4, 5, 6}, []int{2, 3})
	if v, shape, err := ReadFloat32(npy.Bytes(), ""); err != nil || len(v) != 6 || !reflect.DeepEqual(shape, []int{2, 3}) {
		t.Errorf(".npy: %v %v %v", v, shape, err)
	}
	if v, shape, err := ReadFloat32(make([]byte, 12), ".bin"); err != nil || len(v) != 3 || !reflect.DeepEqual(shape, []int{3}) {
		t.Errorf("raw: %v %v %v", v, shape, err)
	}
	for _, tc := range []struct {
		raw []byte
		ext string
		msg string
	}{
		{[]byte{1, 2, 3}, ".f32", "not a multiple of 4"},
		{[]byte("1 2 3 4"), ".txt", "unknown input type"},
		{[]byte("1 2 3 4"), ".npy", "magic"},
		{npy.Bytes()[:npy.Len()-1], "", "truncated"},
	} {
		if _, _, err := ReadFloat32(tc.raw, tc.ext); err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%q as %s: %v; want %q", tc.raw, tc.ext, err, tc.msg)
		}
	}
}

// TestJudgeFloat32: a stream is judged from its first bytes; a .npy is
// read to its declared size, which must be within the limit.
func TestJudgeFloat32(t *testing.T) {
	var npy bytes.Buffer
	tensorfile.WriteNPY(&npy, make([]float32, 100), []int{100})
	judge := func(b []byte, ext string, limit int) (int, error) {
		return JudgeFloat32(bufio.NewReaderSize(bytes.NewReader(b), 4096), ext, limit)
	}
	if n, err := judge(npy.Bytes(), "", 1<<20); err != nil || n != npy.Len() {
		t.Errorf(".npy: %d %v, want %d", n, err, npy.Len())
	}
	if _, err := judge(npy.Bytes(), "", 100); err == nil || !strings.Contains(err.Error(), "more than the input limit of 100") {
		t.Errorf(".npy over the limit: %v", err)
	}
	if n, err := judge(make([]byte, 64), ".f32", 1000); err != nil || n != 1000 {
		t.Errorf("raw: %d %v", n, err)
	}
	if _, err := judge(make([]byte, 64), "", 1000); err == nil || !strings.Contains(err.Error(), "unknown input type") {
		t.Errorf("zeros: %v", err)
	}
	file, _ := QuantizeTensor([]float32{1}, []int{1}, TensorOptions{Format: mx.MXFP4, BlockSize: 32})
	if _, err := judge(file, "", 1<<20); err == nil || !strings.Contains(err.Error(), "this is a safetensors file, not a float32 tensor") {
		t.Errorf("safetensors: %v", err)
	}
	if _, err := judge([]byte("GGUF\x03\x00\x00\x00\x00\x00\x00\x00"), "", 1<<20); err == nil || err.Error() != "this is a GGUF file, not a float32 tensor" {
		t.Errorf("GGUF: %v", err)
	}
}

// TestClassify: each kind of input is told by its content, whatever its
// name, except raw float32 (by its name) and a shard index (by its name,
// as the checkpoint functions take it).
func TestClassify(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var npy bytes.Buffer
	tensorfile.WriteNPY(&npy, []float32{1}, []int{1})
	file, err := QuantizeTensor([]float32{1, 2}, []int{2}, TensorOptions{Format: mx.MXFP4, BlockSize: 32})
	if err != nil {
		t.Fatal(err)
	}
	ckpt := filepath.Join(dir, "m.safetensors")
	writeCheckpoint(t, ckpt, nil, makeTensor(rand.New(rand.NewSource(1)), "w", "F32", 4, 32))
	tests := []struct {
		path string
		want Kind
	}{
		{write("a.npy", npy.Bytes()), KindFloat32},
		{write("a.safetensors", npy.Bytes()), KindFloat32},
		{write("a.f32", []byte{1, 2, 3, 4}), KindFloat32},
		{write("a.bin", []byte{1, 2, 3, 4}), KindFloat32},
		{write("q.safetensors", file), KindMXTensor},
		{write("q.npy", file), KindMXTensor},
		{ckpt, KindCheckpoint},
		{write("m.safetensors.index.json", []byte("{}")), KindShardIndex},
		{write("m.gguf", []byte("GGUF\x03\x00\x00\x00")), KindGGUF},
		{write("m.safetensors.gguf", []byte("GGUF")), KindGGUF},
		{write("x.txt", []byte("hello")), KindOther},
		{write("empty.safetensors", nil), KindOther},
		{dir, KindOther},
	}
	if _, err := os.Stat("/dev/null"); err == nil {
		tests = append(tests, struct {
			path string
			want Kind
		}{"/dev/null", KindOther})
	}
	for _, tc := range tests {
		if got, err := Classify(tc.path); err != nil || got != tc.want {
			t.Errorf("%s: kind %d, %v; want %d", tc.path, got, err, tc.want)
		}
	}
	if _, err := Classify(filepath.Join(dir, "missing.npy")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

// TestDequantizeNothing: a checkpoint without a quantized tensor, and an
// MX tensor file, are errors for Dequantize, and no output is written.
func TestDequantizeNothing(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "m.safetensors")
	writeCheckpoint(t, plain, nil, makeTensor(rand.New(rand.NewSource(1)), "w", "F32", 4, 32))
	file, _ := QuantizeTensor([]float32{1, 2}, []int{2}, TensorOptions{Format: mx.MXFP4, BlockSize: 32})
	single := filepath.Join(dir, "q.safetensors")
	os.WriteFile(single, file, 0o644)
	for _, in := range []string{plain, single} {
		if n, err := CountMX(in); err != nil || n != 0 {
			t.Errorf("CountMX(%s) = %d, %v", in, n, err)
		}
		out := filepath.Join(dir, "out.safetensors")
		_, err := Dequantize(in, out, DequantizeOptions{})
		if err == nil || !strings.Contains(err.Error(), "holds no MX tensor (neither spvx nor gpt-oss layout): nothing to dequantize") {
			t.Errorf("Dequantize(%s): %v", in, err)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("Dequantize(%s) wrote %s", in, out)
		}
	}
	q := filepath.Join(dir, "q4.safetensors")
	if _, err := Quantize(plain, q, Options{Format: mx.MXFP4}); err != nil {
		t.Fatal(err)
	}
	if n, err := CountMX(q); err != nil || n != 1 {
		t.Errorf("CountMX of the quantized checkpoint = %d, %v", n, err)
	}
	writeIndex(t, filepath.Join(dir, "model.safetensors.index.json"), map[string]string{"w": "q4.safetensors"})
	if n, err := CountMX(filepath.Join(dir, "model.safetensors.index.json")); err != nil || n != 1 {
		t.Errorf("CountMX of an index = %d, %v", n, err)
	}
}

// TestInspectMXTensorFile: an MX tensor file is listed as its one MX
// tensor, with the histogram of its scales (one count per block).
func TestInspectMXTensorFile(t *testing.T) {
	data := make([]float32, 100)
	for i := range data {
		data[i] = float32(i)
	}
	file, err := QuantizeTensor(data, []int{10, 10}, TensorOptions{Format: mx.MXFP8E4M3, BlockSize: 8})
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "q.safetensors")
	os.WriteFile(p, file, 0o644)
	l, err := Inspect(p)
	if err != nil || l.Kind != "MX tensor file" || len(l.Tensors) != 1 {
		t.Fatalf("%v %+v", err, l)
	}
	e := l.Tensors[0]
	var blocks int64
	for _, c := range e.Scales {
		blocks += c
	}
	if !e.MX || e.DType != "mxfp8_e4m3" || e.BlockSize != 8 || !reflect.DeepEqual(e.Shape, []int{10, 10}) || blocks != 13 {
		t.Errorf("entry %+v, %d blocks", e, blocks)
	}
	if HistogramSVG(l, "q") == nil {
		t.Error("no histogram for the MX tensor file")
	}
}

// TestCreateOutput: an existing file is never truncated without force.
func TestCreateOutput(t *testing.T) {
	p := filepath.Join(t.TempDir(), "out")
	os.WriteFile(p, []byte("keep"), 0o644)
	if _, err := CreateOutput(p, false); err == nil || err.Error() != p+" exists; use --force to overwrite" {
		t.Errorf("without force: %v", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "keep" {
		t.Errorf("file now %q", b)
	}
	f, err := CreateOutput(p, true)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if b, _ := os.ReadFile(p); len(b) != 0 {
		t.Errorf("with force: file now %q", b)
	}
	// A symbolic link to a file is that file; to a device, that device.
	link := p + ".link"
	if err := os.Symlink(p, link); err == nil {
		if _, err := CreateOutput(link, false); err == nil || !strings.Contains(err.Error(), "exists") {
			t.Errorf("link to a file: %v", err)
		}
	}
	if _, err := os.Stat("/dev/null"); err == nil {
		f, err := CreateOutput("/dev/null", false)
		if err != nil {
			t.Fatalf("/dev/null: %v", err)
		}
		f.Close()
		if err := CheckOutputsFree([]string{"/dev/null"}, false); err != nil {
			t.Errorf("/dev/null: %v", err)
		}
	}
}

// FuzzDequantizeTensor: DequantizeTensor never panics, and what it
// accepts has the values its shape declares, at most two per byte of the
// file (MXFP4 packs two elements in a byte), so a hostile header cannot
// make it allocate more.
func FuzzDequantizeTensor(f *testing.F) {
	good, _ := QuantizeTensor([]float32{1, -2, 3.5, 0, 448, 1e-3, -7, 6}, []int{2, 4}, TensorOptions{Format: mx.MXFP6E2M3, BlockSize: 3})
	f.Add(good)
	f.Add(mxTensorBytes(f, map[string]string{"format": "mxfp6_e3m2", "block_size": "32", "shape": "[3074457345618258603]"}, 1, 1))
	f.Add(mxTensorBytes(f, map[string]string{"format": "mxfp4", "block_size": "2", "shape": "[4]", "elements": "4"}, 2, 2))
	f.Add(mxTensorBytes(f, map[string]string{"format": "mxint8", "block_size": "1", "shape": "[0]"}, 0, 0))
	f.Fuzz(func(t *testing.T, b []byte) {
		data, shape, err := DequantizeTensor(b)
		if err != nil {
			return
		}
		n := 1
		for _, d := range shape {
			n *= d
		}
		if len(data) != n || len(data) > 2*len(b) {
			t.Fatalf("%d values for shape %v from %d bytes", len(data), shape, len(b))
		}
	})
}
