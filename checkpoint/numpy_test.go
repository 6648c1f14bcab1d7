package checkpoint

import (
	"math/rand"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"spvx/mx"
)

// python3WithNumPy finds a python3 that can import numpy (Debian's
// python3-numpy is for /usr/bin/python3), or skips.
func python3WithNumPy(t *testing.T) string {
	for _, p := range []string{"/usr/bin/python3", "python3"} {
		if path, err := exec.LookPath(p); err == nil {
			if exec.Command(path, "-c", "import numpy").Run() == nil {
				return path
			}
		}
	}
	t.Skip("no python3 with numpy (Debian: apt-get install python3-numpy)")
	return ""
}

// TestNumPyReadsOurFiles checks our safetensors files with an independent
// reader: NumPy decodes the gpt-oss layout as gpt-oss does, and must get
// exactly the values Dequantize wrote.
func TestNumPyReadsOurFiles(t *testing.T) {
	py := python3WithNumPy(t)
	dir := t.TempDir()
	rng := rand.New(rand.NewSource(5))
	in := filepath.Join(dir, "in.safetensors")
	writeCheckpoint(t, in, map[string]string{"m": "x"},
		makeTensor(rng, "a.w", "BF16", 3, 4, 64), makeTensor(rng, "b.w", "F32", 16, 96),
		makeTensor(rng, "c.norm", "F16", 50), makeTensor(rng, "odd", "F32", 3, 33))
	q, d := filepath.Join(dir, "q.safetensors"), filepath.Join(dir, "d.safetensors")
	if _, err := Quantize(in, q, Options{Format: mx.MXFP4, Layout: LayoutGPTOSS}); err != nil {
		t.Fatal(err)
	}
	if _, err := Dequantize(q, d, DequantizeOptions{DType: "F32"}); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(py, filepath.Join("testdata", "check_numpy.py"), q, d).CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "ok 2 pairs") {
		t.Fatalf("check_numpy.py: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}
