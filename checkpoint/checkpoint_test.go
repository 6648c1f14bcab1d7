package checkpoint

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"spvx/internal/gguf"
	"spvx/internal/tensorfile"
	"spvx/mx"
)

// testTensor is a tensor of a generated checkpoint, with its values.
type testTensor struct {
	name   string
	dtype  string
	shape  []int
	values []float32 // for floating tensors
	raw    []byte
}

// makeTensor fills a floating tensor with values spread over a few
// binades (and an occasional zero and negative zero), encoded as dtype.
func makeTensor(rng *rand.Rand, name, dtype string, shape ...int) testTensor {
	n := 1
	for _, d := range shape {
		n *= d
	}
	t := testTensor{name: name, dtype: dtype, shape: shape, values: make([]float32, n)}
	for i := range t.values {
		v := float32(rng.NormFloat64() * math.Exp2(float64(rng.Intn(9)-4)))
		switch rng.Intn(50) {
		case 0:
			v = 0
		case 1:
			v = float32(math.Copysign(0, -1))
		}
		t.values[i] = v
	}
	esize, _ := tensorfile.DTypeSize(dtype)
	t.raw = make([]byte, n*esize)
	fromFloat32(t.raw, t.values, dtype)
	toFloat32(t.values, t.raw, dtype) // the values as stored
	return t
}

func writeCheckpoint(t testing.TB, path string, meta map[string]string, ts ...testTensor) {
	t.Helper()
	st := &tensorfile.SafeTensors{Metadata: meta}
	for _, x := range ts {
		st.Tensors = append(st.Tensors, tensorfile.Tensor{Name: x.name, DType: x.dtype, Shape: x.shape, Data: x.raw})
	}
	var b bytes.Buffer
	if err := tensorfile.WriteSafeTensors(&b, st); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// sampleTensors covers the shapes that matter: rows of whole blocks,
// rows that are not (45, 33), 1-D, 3-D, every floating dtype, and
// tensors that are never quantized.
func sampleTensors(seed int64) []testTensor {
	rng := rand.New(rand.NewSource(seed))
	u8 := testTensor{name: "tok.ids", dtype: "U8", shape: []int{5}, raw: []byte{1, 2, 3, 4, 5}}
	i64 := testTensor{name: "pos", dtype: "I64", shape: []int{2}, raw: make([]byte, 16)}
	binary.LittleEndian.PutUint64(i64.raw[8:], 7)
	return []testTensor{
		makeTensor(rng, "layer.0.w", "BF16", 64, 96),
		makeTensor(rng, "layer.0.norm", "F32", 96),
		makeTensor(rng, "layer.1.w", "F16", 7, 45),
		makeTensor(rng, "layer.1.experts", "BF16", 2, 3, 64),
		makeTensor(rng, "odd", "F32", 3, 33),
		makeTensor(rng, "f64", "F64", 4, 32),
		u8, i64,
	}
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func readST(t testing.TB, path string) *tensorfile.SafeTensors {
	t.Helper()
	st, err := tensorfile.ReadSafeTensors(readFile(t, path))
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// rowQuantize is the reference: each row quantized on its own by mx.
func rowQuantize(t testing.TB, v []float32, shape []int, b mx.BlockFormat, k int, r mx.Rounding) (scales, elems []byte) {
	rows, c := rowsAndLen(shape)
	sr, _ := mx.ScaleBytes(c, k)
	er, _ := mx.ElementBytes(b, c)
	for i := 0; i < rows; i++ {
		s, e := make([]byte, sr), make([]byte, er)
		if err := mx.Quantize(s, e, v[i*c:(i+1)*c], b, mx.Options{BlockSize: k, Rounding: r, Workers: 1}); err != nil {
			t.Fatal(err)
		}
		scales, elems = append(scales, s...), append(elems, e...)
	}
	return scales, elems
}

func TestQuantizeEveryFormat(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.safetensors")
	ts := sampleTensors(1)
	writeCheckpoint(t, in, map[string]string{"format": "pt", "note": "kept"}, ts...)
	for _, b := range mx.BlockFormats {
		for _, k := range []int{32, 16, 1} {
			t.Run(fmt.Sprintf("%s/k%d", b, k), func(t *testing.T) {
				out := t.TempDir()
				q1 := filepath.Join(out, "q1.safetensors")
				d := filepath.Join(out, "d.safetensors")
				q2 := filepath.Join(out, "q2.safetensors")
				opts := Options{Format: b, BlockSize: k, Filter: Filter{Exclude: []string{"*.norm"}}, Stats: true}
				r, err := Quantize(in, q1, opts)
				if err != nil {
					t.Fatal(err)
				}
				st := readST(t, q1)
				if st.Metadata["note"] != "kept" || st.Metadata["format"] != "pt" {
					t.Errorf("input metadata not kept: %v", st.Metadata)
				}
				for _, x := range ts {
					if !floatDTypes[x.dtype] || x.name == "layer.0.norm" {
						got := st.Tensor(x.name)
						if got == nil || !bytes.Equal(got.Data, x.raw) || got.DType != x.dtype {
							t.Errorf("%s was not copied unchanged", x.name)
						}
						continue
					}
					ws, we := rowQuantize(t, x.values, x.shape, b, k, mx.TiesEven)
					s, e := st.Tensor(x.name+".scales"), st.Tensor(x.name+".blocks")
					if s == nil || e == nil {
						t.Fatalf("%s: no .scales/.blocks in %v", x.name, names(st))
					}
					if !bytes.Equal(s.Data, ws) || !bytes.Equal(e.Data, we) {
						t.Errorf("%s: quantized bytes differ from mx.Quantize per row", x.name)
					}
				}
				for _, tr := range r.Tensors {
					if tr.Action == "quantized" && (!tr.HasStats || tr.RMSE <= 0 && b != mx.MXFP8E4M3 || math.IsNaN(tr.RMSE)) {
						t.Errorf("%s: stats %+v", tr.Name, tr)
					}
				}
				if _, err := Dequantize(q1, d, DequantizeOptions{}); err != nil {
					t.Fatal(err)
				}
				ds := readST(t, d)
				for _, x := range ts {
					got := ds.Tensor(x.name)
					if got == nil || got.DType != x.dtype || !sameShape(got.Shape, x.shape) {
						t.Fatalf("dequantized %s: %+v", x.name, got)
					}
				}
				if _, err := Quantize(d, q2, opts); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(readFile(t, q1), readFile(t, q2)) {
					t.Errorf("quantize → dequantize → quantize changed the file")
				}
			})
		}
	}
}

func names(st *tensorfile.SafeTensors) []string {
	var n []string
	for _, t := range st.Tensors {
		n = append(n, t.Name)
	}
	return n
}

// TestLayoutsAndGGUF checks gpt-oss ↔ spvx ↔ GGUF are bit-identical.
func TestLayoutsAndGGUF(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.safetensors")
	rng := rand.New(rand.NewSource(2))
	ts := []testTensor{
		makeTensor(rng, "block.0.mlp.mlp1_weight", "BF16", 4, 6, 64),
		makeTensor(rng, "block.0.attn.qkv", "BF16", 32, 96),
		makeTensor(rng, "norm", "F32", 40),
		makeTensor(rng, "emb", "F16", 3, 33),
	}
	writeCheckpoint(t, in, map[string]string{"model": "test"}, ts...)
	p := func(n string) string { return filepath.Join(dir, n) }
	must := func(_ *Report, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	// gpt-oss layout quantizes the tensors whose rows are whole blocks.
	must(Quantize(in, p("oss.safetensors"), Options{Format: mx.MXFP4, Layout: LayoutGPTOSS, Filter: Filter{Exclude: []string{"norm", "emb"}}}))
	oss := readST(t, p("oss.safetensors"))
	b := oss.Tensor("block.0.mlp.mlp1_weight.blocks")
	s := oss.Tensor("block.0.mlp.mlp1_weight.scales")
	if b == nil || s == nil || !sameShape(b.Shape, []int{4, 6, 2, 16}) || !sameShape(s.Shape, []int{4, 6, 2}) {
		t.Fatalf("gpt-oss shapes: %v", names(oss))
	}
	for k := range oss.Metadata {
		if strings.HasPrefix(k, metaPrefix) {
			t.Errorf("a BF16 gpt-oss tensor needs no description, got %s", k)
		}
	}
	// Element 2j is the low nibble of byte j, as gpt-oss reads it.
	x := ts[0].values
	sc := math.Exp2(float64(int(s.Data[0]) - 127))
	for j := 0; j < 16; j++ {
		lo, hi := b.Data[j]&0xF, b.Data[j]>>4
		for i, c := range []byte{lo, hi} {
			want := x[2*j+i]
			got := e2m1(c) * sc
			if math.Abs(got-float64(want)) > math.Abs(float64(want))*0.5+sc*0.5 {
				t.Fatalf("element %d: code %x gives %v for %v", 2*j+i, c, got, want)
			}
		}
	}
	must(Convert(p("oss.safetensors"), p("spvx.safetensors"), ConvertOptions{To: "safetensors", Layout: LayoutSpvx, Relayout: true}))
	must(Convert(p("spvx.safetensors"), p("oss2.safetensors"), ConvertOptions{To: "safetensors", Layout: LayoutGPTOSS, Relayout: true}))
	if !bytes.Equal(readFile(t, p("oss.safetensors")), readFile(t, p("oss2.safetensors"))) {
		t.Error("gpt-oss → spvx → gpt-oss is not the identity")
	}
	sp := readST(t, p("spvx.safetensors"))
	if !bytes.Equal(sp.Tensor("block.0.mlp.mlp1_weight.blocks").Data, b.Data) {
		t.Error("spvx and gpt-oss layouts hold different bytes")
	}
	// Direct spvx quantization gives the same file as the relayout.
	must(Quantize(in, p("spvx-direct.safetensors"), Options{Format: mx.MXFP4, Filter: Filter{Exclude: []string{"norm", "emb"}}}))
	if !bytes.Equal(readFile(t, p("spvx.safetensors")), readFile(t, p("spvx-direct.safetensors"))) {
		t.Error("gpt-oss relayout to spvx differs from quantizing to spvx")
	}
	for _, src := range []string{"oss.safetensors", "spvx.safetensors"} {
		g := p(src + ".gguf")
		back := p(src + ".back.safetensors")
		must(Convert(p(src), g, ConvertOptions{To: "gguf"}))
		must(Convert(g, back, ConvertOptions{To: "safetensors"}))
		if !bytes.Equal(readFile(t, p(src)), readFile(t, back)) {
			t.Errorf("%s → GGUF → safetensors is not the identity", src)
		}
	}
	// --layout overrides the layout recorded in the GGUF file.
	must(Convert(p("spvx.safetensors.gguf"), p("relaid.safetensors"), ConvertOptions{To: "safetensors", Layout: LayoutGPTOSS, Relayout: true}))
	if st := readST(t, p("relaid.safetensors")); st.Tensor("block.0.attn.qkv.blocks") == nil || !sameShape(st.Tensor("block.0.attn.qkv.blocks").Shape, []int{32, 3, 16}) {
		t.Errorf("GGUF → gpt-oss layout with --layout: %v", names(st))
	}
	// The GGUF blocks hold the same scales and codes.
	f, gf, err := openGGUF(p("spvx.safetensors.gguf"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gt := gf.Tensor("block.0.attn.qkv")
	if gt == nil || gt.Type != gguf.MXFP4 || fmt.Sprint(gt.Dims) != "[96 32]" {
		t.Fatalf("GGUF tensor: %+v", gt)
	}
	raw := make([]byte, gt.Size)
	if _, err := f.ReadAt(raw, gf.DataStart+int64(gt.Offset)); err != nil {
		t.Fatal(err)
	}
	ws, we := rowQuantize(t, ts[1].values, ts[1].shape, mx.MXFP4, 32, mx.TiesEven)
	for blk := 0; blk < len(ws); blk++ {
		g := raw[blk*17 : blk*17+17]
		if g[0] != ws[blk] {
			t.Fatalf("block %d scale %x, want %x", blk, g[0], ws[blk])
		}
		for j := 0; j < 32; j++ {
			code := g[1+j%16] >> (4 * (j / 16)) & 0xF
			if want := mx.Code(we, mx.E2M1, blk*32+j); code != want {
				t.Fatalf("block %d element %d: code %x, want %x", blk, j, code, want)
			}
		}
	}
	// Dequantizing the gpt-oss file gives the dequantized spvx values.
	must(Dequantize(p("oss.safetensors"), p("oss.deq.safetensors"), DequantizeOptions{DType: "F32"}))
	must(Dequantize(p("spvx.safetensors"), p("spvx.deq.safetensors"), DequantizeOptions{DType: "F32"}))
	if !bytes.Equal(readFile(t, p("oss.deq.safetensors")), readFile(t, p("spvx.deq.safetensors"))) {
		t.Error("the two layouts dequantize differently")
	}
}

var e2m1Values = [8]float64{0, 0.5, 1, 1.5, 2, 3, 4, 6}

func e2m1(c byte) float64 {
	v := e2m1Values[c&7]
	if c&8 != 0 {
		return -v
	}
	return v
}

func TestSharded(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewSource(3))
	a := makeTensor(rng, "a.w", "BF16", 8, 64)
	b := makeTensor(rng, "b.w", "F32", 5, 40)
	c := makeTensor(rng, "c.norm", "F32", 40)
	writeCheckpoint(t, filepath.Join(dir, "model-00001-of-00002.safetensors"), nil, a, c)
	writeCheckpoint(t, filepath.Join(dir, "model-00002-of-00002.safetensors"), nil, b)
	idx := &tensorfile.ShardIndex{Metadata: map[string]any{"total_size": 1}, WeightMap: map[string]string{
		"a.w": "model-00001-of-00002.safetensors", "c.norm": "model-00001-of-00002.safetensors", "b.w": "model-00002-of-00002.safetensors"}}
	js, _ := tensorfile.WriteShardIndex(idx)
	in := filepath.Join(dir, "model.safetensors.index.json")
	os.WriteFile(in, js, 0o644)
	out := filepath.Join(dir, "q", "model.safetensors.index.json")
	os.Mkdir(filepath.Dir(out), 0o755)
	r, err := Quantize(in, out, Options{Format: mx.MXFP6E2M3, Filter: Filter{Include: []string{"*.w"}}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Files != 2 {
		t.Errorf("files %d", r.Files)
	}
	nx, err := tensorfile.ReadShardIndex(readFile(t, out))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"a.w.scales": "model-00001-of-00002.safetensors", "a.w.blocks": "model-00001-of-00002.safetensors",
		"c.norm": "model-00001-of-00002.safetensors", "b.w.scales": "model-00002-of-00002.safetensors", "b.w.blocks": "model-00002-of-00002.safetensors"}
	if fmt.Sprint(nx.WeightMap) != fmt.Sprint(want) {
		t.Errorf("weight map %v, want %v", nx.WeightMap, want)
	}
	for name, shard := range nx.WeightMap {
		st := readST(t, filepath.Join(dir, "q", shard))
		if st.Tensor(name) == nil {
			t.Errorf("%s not in %s", name, shard)
		}
	}
	if _, err := Quantize(in, filepath.Join(dir, "q", "x.safetensors"), Options{Format: mx.MXFP4}); err == nil {
		t.Error("an index quantized to a single file")
	}
}

func TestBadCheckpoints(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewSource(4))
	good := filepath.Join(dir, "good.safetensors")
	writeCheckpoint(t, good, nil, makeTensor(rng, "w", "F32", 4, 32))
	raw := readFile(t, good)
	hlen := binary.LittleEndian.Uint64(raw)
	header := string(raw[8 : 8+hlen])
	cases := map[string][]byte{
		"truncated":   raw[:len(raw)-10],
		"short":       raw[:5],
		"hugeheader":  append(binary.LittleEndian.AppendUint64(nil, 1<<60), raw[8:]...),
		"lying shape": replaceHeader(raw, header, strings.Replace(header, "[4,32]", "[4000000000,32000000000]", 1)),
		"bad dtype":   replaceHeader(raw, header, strings.Replace(header, `"F32"`, `"F99"`, 1)),
		"negative":    replaceHeader(raw, header, strings.Replace(header, "[4,32]", "[-4,-32]", 1)),
	}
	for name, b := range cases {
		p := filepath.Join(dir, name+".safetensors")
		os.WriteFile(p, b, 0o644)
		if _, err := Quantize(p, filepath.Join(dir, "out.safetensors"), Options{Format: mx.MXFP4}); err == nil {
			t.Errorf("%s: accepted", name)
		} else {
			t.Logf("%s: %v", name, err)
		}
	}
	// A description that lies about the shape is caught before any
	// allocation from it.
	q := filepath.Join(dir, "q.safetensors")
	if _, err := Quantize(good, q, Options{Format: mx.MXFP4}); err != nil {
		t.Fatal(err)
	}
	st := readST(t, q)
	st.Metadata[metaPrefix+"w"] = `{"format":"mxfp4","block_size":32,"rounding":"even","dtype":"F32","shape":[4000000000000,32],"layout":"spvx"}`
	var b bytes.Buffer
	tensorfile.WriteSafeTensors(&b, st)
	os.WriteFile(q, b.Bytes(), 0o644)
	if _, err := Dequantize(q, filepath.Join(dir, "d.safetensors"), DequantizeOptions{}); err == nil || !strings.Contains(err.Error(), "needs U8 scales") {
		t.Errorf("lying description: %v", err)
	}
	if _, err := Quantize(good, good, Options{Format: mx.MXFP4}); err == nil {
		t.Error("output over input accepted")
	}
}

func replaceHeader(raw []byte, old, new string) []byte {
	hlen := binary.LittleEndian.Uint64(raw)
	out := binary.LittleEndian.AppendUint64(nil, uint64(len(new)))
	out = append(out, new...)
	_ = old
	return append(out, raw[8+hlen:]...)
}
