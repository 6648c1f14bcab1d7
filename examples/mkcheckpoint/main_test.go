package main

import (
	"path/filepath"
	"testing"

	"spvx/checkpoint"
	"spvx/mx"
)

// TestWorkflow runs the README's checkpoint workflow on the generated model.
func TestWorkflow(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "tiny.safetensors")
	n, _, err := write(in, 64, 2)
	if err != nil || n != 14 {
		t.Fatalf("write: %d tensors, %v", n, err)
	}
	q := filepath.Join(dir, "q.safetensors")
	r, err := checkpoint.Quantize(in, q, checkpoint.Options{Format: mx.MXFP4, Filter: checkpoint.Filter{Exclude: []string{"*norm*", "*embed*"}}})
	if err != nil {
		t.Fatal(err)
	}
	quantized := 0
	for _, x := range r.Tensors {
		if x.Action == "quantized" {
			quantized++
		}
	}
	if quantized != 8 {
		t.Errorf("%d tensors quantized, want 8 (everything but the 5 norms and the embedding)", quantized)
	}
	if _, err := checkpoint.Convert(q, filepath.Join(dir, "q.gguf"), checkpoint.ConvertOptions{To: "gguf"}); err != nil {
		t.Fatal(err)
	}
}
