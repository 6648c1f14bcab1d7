package checkpoint

import (
	"bytes"
	"fmt"
	"math/rand"
	"path/filepath"
	"testing"

	"spvx/mx"
)

// TestQuantizePiecesInParallel: tensors of several pieces (quantSeg
// elements each) quantize to the same bytes as mx.Quantize row by row,
// whatever the number of workers and whether the 16-bit tensors take
// mx's 16-bit quantizers (no --stats) or the float32 path (--stats); the
// statistics do not depend on the number of workers.
func TestQuantizePiecesInParallel(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	ts := []testTensor{
		makeTensor(rng, "bf16.folded", "BF16", 3*quantSeg/64+5, 64), // rows folded into one long row
		makeTensor(rng, "f16.long_rows", "F16", 2, quantSeg+45),     // rows of several pieces, not whole blocks
		makeTensor(rng, "bf16.short_rows", "BF16", 9000, 45),        // batches of whole rows
		makeTensor(rng, "f32", "F32", 5, quantSeg/2),
		makeTensor(rng, "f64", "F64", 3, 40000),
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "in.safetensors")
	writeCheckpoint(t, in, nil, ts...)
	for _, b := range []mx.BlockFormat{mx.MXFP4, mx.MXFP6E3M2, mx.MXINT8Block} {
		var firstStats []TensorReport
		for _, workers := range []int{1, 2, 5} {
			for _, stats := range []bool{false, true} {
				name := fmt.Sprintf("%s/w%d/stats=%v", b, workers, stats)
				out := filepath.Join(dir, fmt.Sprintf("%s-%d-%v.safetensors", b, workers, stats))
				r, err := Quantize(in, out, Options{Format: b, Workers: workers, Stats: stats})
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				st := readST(t, out)
				for _, x := range ts {
					ws, we := rowQuantize(t, x.values, x.shape, b, 32, mx.TiesEven)
					s, e := st.Tensor(x.name+".scales"), st.Tensor(x.name+".blocks")
					if s == nil || e == nil || !bytes.Equal(s.Data, ws) || !bytes.Equal(e.Data, we) {
						t.Errorf("%s: %s: quantized bytes differ from mx.Quantize per row", name, x.name)
					}
				}
				if !stats {
					continue
				}
				if firstStats == nil {
					firstStats = r.Tensors
					continue
				}
				for i, tr := range r.Tensors {
					if w := firstStats[i]; tr.MaxAbsErr != w.MaxAbsErr || tr.RMSE != w.RMSE {
						t.Errorf("%s: %s: stats %g/%g, with one worker %g/%g", name, tr.Name, tr.MaxAbsErr, tr.RMSE, w.MaxAbsErr, w.RMSE)
					}
				}
			}
		}
	}
}

// TestRunPiecesFirstError: with several workers, the error reported is
// the lowest-numbered failing piece's, as with one.
func TestRunPiecesFirstError(t *testing.T) {
	g := newGeometry([]int{100 * quantSeg}, mx.MXFP4, 32, 2, quantSeg)
	if n := g.count(); n != 100 {
		t.Fatalf("%d pieces, want 100", n)
	}
	for _, workers := range []int{1, 2, 7} {
		seen := make([]bool, 100)
		err := runPieces(g, workers, func(w, i int, pc piece) error {
			if w < 0 || w >= workers {
				t.Errorf("worker %d of %d", w, workers)
			}
			seen[i] = true
			if pc.c != i*quantSeg {
				t.Errorf("piece %d starts at %d", i, pc.c)
			}
			if i == 40 || i == 90 {
				return fmt.Errorf("piece %d", i)
			}
			return nil
		})
		if err == nil || err.Error() != "piece 40" {
			t.Errorf("workers %d: %v, want piece 40's error", workers, err)
		}
		for i := range 41 {
			if !seen[i] {
				t.Errorf("workers %d: piece %d, before the failure, not run", workers, i)
			}
		}
	}
}

// TestDequantizePiecesInParallel: tensors of several pieces dequantize to
// the bytes of mx.Dequantize row by row, rounded to the output dtype,
// whatever the number of workers.
func TestDequantizePiecesInParallel(t *testing.T) {
	rng := rand.New(rand.NewSource(8))
	ts := []testTensor{
		makeTensor(rng, "bf16.folded", "BF16", 3*quantSeg/64+5, 64),
		makeTensor(rng, "f16.long_rows", "F16", 2, quantSeg+45),
		makeTensor(rng, "f32.short_rows", "F32", 9000, 45),
	}
	dir := t.TempDir()
	in, q := filepath.Join(dir, "in.safetensors"), filepath.Join(dir, "q.safetensors")
	writeCheckpoint(t, in, nil, ts...)
	const b = mx.MXFP6E2M3
	if _, err := Quantize(in, q, Options{Format: b}); err != nil {
		t.Fatal(err)
	}
	st := readST(t, q)
	for _, dtype := range []string{"", "F32", "F16", "BF16"} {
		for _, workers := range []int{1, 2, 5} {
			out := filepath.Join(dir, fmt.Sprintf("d-%s-%d.safetensors", dtype, workers))
			if _, err := Dequantize(q, out, DequantizeOptions{DType: dtype, Workers: workers}); err != nil {
				t.Fatalf("dtype %q workers %d: %v", dtype, workers, err)
			}
			ds := readST(t, out)
			for _, x := range ts {
				want := dtype
				if want == "" {
					want = x.dtype
				}
				rows, c := rowsAndLen(x.shape)
				vals := make([]float32, rows*c)
				s, e := st.Tensor(x.name+".scales").Data, st.Tensor(x.name+".blocks").Data
				sr, _ := mx.ScaleBytes(c, 32)
				er, _ := mx.ElementBytes(b, c)
				for r := range rows {
					if err := mx.Dequantize(vals[r*c:(r+1)*c], s[r*sr:(r+1)*sr], e[r*er:(r+1)*er], b, 32, 1); err != nil {
						t.Fatal(err)
					}
				}
				esize := map[string]int{"F32": 4, "F16": 2, "BF16": 2}[want]
				raw := make([]byte, len(vals)*esize)
				fromFloat32(raw, vals, want)
				got := ds.Tensor(x.name)
				if got == nil || got.DType != want || !bytes.Equal(got.Data, raw) {
					t.Errorf("dtype %q workers %d: %s differs from mx.Dequantize per row", dtype, workers, x.name)
				}
			}
		}
	}
}

// TestWorkerCountBounded: a huge Options.Workers does not become a buffer
// set per goroutine asked for.
func TestWorkerCountBounded(t *testing.T) {
	if got := workerCount(1 << 40); got != maxWorkers {
		t.Errorf("workerCount(2^40) = %d, want %d", got, maxWorkers)
	}
	if got := workerCount(3); got != 3 {
		t.Errorf("workerCount(3) = %d", got)
	}
	if got := workerCount(0); got < 1 {
		t.Errorf("workerCount(0) = %d", got)
	}
}
