package checkpoint

import (
	"math/rand"
	"path/filepath"
	"testing"

	"spvx/mx"
)

// BenchmarkQuantizeCheckpoint quantizes a 32 MiB bf16 tensor (4096×4096)
// from a file to a file, reporting input bytes per second.
func BenchmarkQuantizeCheckpoint(b *testing.B) {
	dir := b.TempDir()
	in := filepath.Join(dir, "in.safetensors")
	rng := rand.New(rand.NewSource(1))
	x := makeTensor(rng, "w", "BF16", 4096, 4096)
	writeCheckpoint(b, in, nil, x)
	for _, f := range []mx.BlockFormat{mx.MXFP4, mx.MXFP8E4M3} {
		b.Run(f.String(), func(b *testing.B) {
			b.SetBytes(int64(len(x.raw)))
			for range b.N {
				if _, err := Quantize(in, filepath.Join(dir, "out.safetensors"), Options{Format: f}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("dequantize-mxfp4", func(b *testing.B) {
		q := filepath.Join(dir, "q.safetensors")
		if _, err := Quantize(in, q, Options{Format: mx.MXFP4}); err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(len(x.raw)))
		for range b.N {
			if _, err := Dequantize(q, filepath.Join(dir, "d.safetensors"), DequantizeOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
