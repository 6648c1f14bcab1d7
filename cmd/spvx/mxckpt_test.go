package main

import (
	"bytes"
	"encoding/binary"
	"encoding/xml"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"spvx/internal/tensorfile"
)

func bf16Tensor(name string, shape []int, f func(i int) float32) tensorfile.Tensor {
	n := 1
	for _, d := range shape {
		n *= d
	}
	raw := make([]byte, 2*n)
	for i := 0; i < n; i++ {
		binary.LittleEndian.PutUint16(raw[2*i:], uint16(math.Float32bits(f(i))>>16))
	}
	return tensorfile.Tensor{Name: name, DType: "BF16", Shape: shape, Data: raw}
}

func TestMXCheckpointCLI(t *testing.T) {
	dir := t.TempDir()
	p := func(n string) string { return filepath.Join(dir, n) }
	st := &tensorfile.SafeTensors{Metadata: map[string]string{"format": "pt"}, Tensors: []tensorfile.Tensor{
		bf16Tensor("model.w", []int{8, 64}, func(i int) float32 { return float32(math.Sin(float64(i))) * 3 }),
		bf16Tensor("model.norm", []int{64}, func(i int) float32 { return 1 }),
	}}
	var b bytes.Buffer
	if err := tensorfile.WriteSafeTensors(&b, st); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(p("in.safetensors"), b.Bytes(), 0o644)

	_, errs, code := runCLI(t, nil, "mx", "quantize", "-f", "mxfp4", "--exclude", "*norm", "--stats", "-i", p("in.safetensors"), "-o", p("q.safetensors"))
	if code != exitOK || !strings.Contains(errs, "quantized   model.w BF16[8,64]: mxfp4, blocks of 32, spvx layout  max abs err") || !strings.Contains(errs, "rmse") ||
		!strings.Contains(errs, "copied      model.norm BF16[64]: not selected") || !strings.Contains(errs, "1 quantized, 1 copied") {
		t.Fatalf("quantize: exit %d\n%s", code, errs)
	}
	out, errs, code := runCLI(t, nil, "mx", "inspect", "--svg", p("h.svg"), p("q.safetensors"))
	if code != exitOK || !strings.Contains(out, "model.w     mxfp4") || !strings.Contains(out, "16 blocks of 32, spvx layout; scales:") || errs != "" {
		t.Fatalf("inspect: exit %d\n%s%s", code, out, errs)
	}
	svg, _ := os.ReadFile(p("h.svg"))
	for d := xml.NewDecoder(bytes.NewReader(svg)); ; {
		if _, err := d.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("histogram SVG: %v", err)
		}
	}
	if _, errs, code = runCLI(t, nil, "mx", "convert", "--to", "gguf", "-q", "-i", p("q.safetensors"), "-o", p("q.gguf")); code != exitOK {
		t.Fatalf("convert to gguf: %s", errs)
	}
	out, errs, code = runCLI(t, nil, "mx", "gguf", "info", p("q.gguf"))
	if code != exitOK || !strings.Contains(out, "gguf, 2 tensors") || !strings.Contains(out, "model.w     mxfp4       [8, 64]") {
		t.Fatalf("gguf info: exit %d\n%s%s", code, out, errs)
	}
	if _, errs, code = runCLI(t, nil, "mx", "convert", "--to", "safetensors", "-q", "-i", p("q.gguf"), "-o", p("back.safetensors")); code != exitOK {
		t.Fatalf("convert back: %s", errs)
	}
	q, _ := os.ReadFile(p("q.safetensors"))
	back, _ := os.ReadFile(p("back.safetensors"))
	if !bytes.Equal(q, back) {
		t.Error("safetensors → GGUF → safetensors changed the file")
	}
	if _, errs, code = runCLI(t, nil, "mx", "dequantize", "--dtype", "f32", "-q", "-i", p("q.safetensors"), "-o", p("d.safetensors")); code != exitOK {
		t.Fatalf("dequantize: %s", errs)
	}
	d, err := tensorfile.ReadSafeTensors(mustReadFile(t, p("d.safetensors")))
	if err != nil || d.Tensor("model.w") == nil || d.Tensor("model.w").DType != "F32" || d.Metadata["format"] != "pt" {
		t.Fatalf("dequantized: %v %+v", err, d)
	}
	// Errors: a GGUF info of a safetensors file, a bad glob, a bad layout.
	for _, args := range [][]string{
		{"mx", "gguf", "info", p("q.safetensors")},
		{"mx", "quantize", "-f", "mxfp4", "--include", "[", "-i", p("in.safetensors"), "-o", p("x.safetensors")},
		{"mx", "quantize", "-f", "mxfp8_e4m3", "--layout", "gpt-oss", "-i", p("in.safetensors"), "-o", p("x.safetensors")},
		{"mx", "convert", "--to", "gguf", "-i", p("in.safetensors"), "-o", p("in.safetensors")},
		{"mx", "quantize", "-f", "mxfp4", "-i", p("missing.safetensors"), "-o", p("x.safetensors")},
	} {
		if _, errs, code := runCLI(t, nil, args...); code == exitOK || errs == "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
		}
	}
}

func mustReadFile(t *testing.T, p string) []byte {
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestMXDequantizeNPYWithNumPy loads the .npy that dequantize writes with
// NumPy itself.
func TestMXDequantizeNPYWithNumPy(t *testing.T) {
	var py string
	for _, c := range []string{"/usr/bin/python3", "python3"} {
		if path, err := exec.LookPath(c); err == nil && exec.Command(path, "-c", "import numpy").Run() == nil {
			py = path
			break
		}
	}
	if py == "" {
		t.Skip("no python3 with numpy (Debian: apt-get install python3-numpy)")
	}
	dir := t.TempDir()
	data := make([]float32, 3*40)
	for i := range data {
		data[i] = float32(i%17) - 8.25
	}
	writeNPY(t, filepath.Join(dir, "in.npy"), data, []int{3, 40})
	for _, args := range [][]string{
		{"mx", "quantize", "-f", "mxfp6_e3m2", "-i", filepath.Join(dir, "in.npy"), "-o", filepath.Join(dir, "q.safetensors")},
		{"mx", "dequantize", "-i", filepath.Join(dir, "q.safetensors"), "-o", filepath.Join(dir, "d.npy")},
		{"mx", "dequantize", "-i", filepath.Join(dir, "q.safetensors"), "-o", filepath.Join(dir, "d.f32")},
	} {
		if _, errs, code := runCLI(t, nil, args...); code != exitOK {
			t.Fatalf("%v: %s", args, errs)
		}
	}
	out, err := exec.Command(py, "../../checkpoint/testdata/check_numpy.py", "--npy", filepath.Join(dir, "d.npy"), filepath.Join(dir, "d.f32")).CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "npy ok (3, 40)") {
		t.Fatalf("numpy: %v\n%s", err, out)
	}
}

// TestMXCheckpointForce checks that the checkpoint commands refuse to
// overwrite an existing output unless --force is given.
func TestMXCheckpointForce(t *testing.T) {
	dir := t.TempDir()
	p := func(n string) string { return filepath.Join(dir, n) }
	st := &tensorfile.SafeTensors{Tensors: []tensorfile.Tensor{
		bf16Tensor("w", []int{2, 32}, func(i int) float32 { return float32(i) }),
	}}
	var b bytes.Buffer
	if err := tensorfile.WriteSafeTensors(&b, st); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(p("in.safetensors"), b.Bytes(), 0o644)
	if _, errs, code := runCLI(t, nil, "mx", "quantize", "-q", "-f", "mxfp4", "-i", p("in.safetensors"), "-o", p("q.safetensors")); code != exitOK {
		t.Fatalf("quantize: %s", errs)
	}
	for _, args := range [][]string{
		{"mx", "quantize", "-q", "-f", "mxfp4", "-i", p("in.safetensors"), "-o", p("taken.safetensors")},
		{"mx", "dequantize", "-q", "-i", p("q.safetensors"), "-o", p("taken.safetensors")},
		{"mx", "convert", "-q", "--to", "gguf", "-i", p("q.safetensors"), "-o", p("taken.gguf")},
	} {
		taken := args[len(args)-1]
		os.WriteFile(taken, []byte("mine"), 0o644)
		_, errs, code := runCLI(t, nil, args...)
		if code == exitOK || !strings.Contains(errs, taken+" exists; use --force to overwrite") {
			t.Errorf("%v: exit %d, %q", args[1], code, errs)
		}
		if b, _ := os.ReadFile(taken); string(b) != "mine" {
			t.Errorf("%v: overwrote without --force", args[1])
		}
		if _, errs, code := runCLI(t, nil, append(args, "--force")...); code != exitOK {
			t.Errorf("%v --force: exit %d, %q", args[1], code, errs)
		}
	}
}
