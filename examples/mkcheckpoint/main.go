// Command mkcheckpoint writes a small synthetic model checkpoint (a
// safetensors file shaped like a two-layer transformer: bf16 attention
// and MLP weights, f32 norms, a bf16 embedding with rows that are not
// whole MX blocks), so that the checkpoint workflow of `spvx mx` can be
// tried without downloading a model:
//
//	go run ./examples/mkcheckpoint -o /tmp/tiny.safetensors
//	go run ./cmd/spvx mx quantize -f mxfp4 --exclude '*norm*,*embed*' --stats -i /tmp/tiny.safetensors -o /tmp/tiny-mxfp4.safetensors
//
// The weights are deterministic pseudo-random values with a normal
// distribution and a per-row spread, like trained weights' statistics.
package main

import (
	"bytes"
	"encoding/binary"
	"flag"
	"fmt"
	"math"
	"math/rand"
	"os"

	"spvx/internal/tensorfile"
	"spvx/mx"
)

func main() {
	out := flag.String("o", "tiny.safetensors", "output `FILE`")
	hidden := flag.Int("hidden", 256, "hidden size (a multiple of 32 keeps the MLP weights in whole blocks)")
	layers := flag.Int("layers", 2, "number of layers")
	flag.Parse()
	n, size, err := write(*out, *hidden, *layers)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mkcheckpoint:", err)
		os.Exit(1)
	}
	fmt.Printf("wrote %s: %d tensors, %d bytes\n", *out, n, size)
}

// write writes the model and returns its tensor count and size.
func write(out string, h, layers int) (int, int, error) {
	if h < 1 || layers < 0 {
		return 0, 0, fmt.Errorf("want a positive hidden size and a non-negative number of layers")
	}
	rng := rand.New(rand.NewSource(1))
	st := &tensorfile.SafeTensors{Metadata: map[string]string{"format": "pt", "model": "spvx tiny example"}}
	add := func(name, dtype string, shape ...int) {
		n := 1
		for _, d := range shape {
			n *= d
		}
		rows := n / shape[len(shape)-1]
		esize, _ := tensorfile.DTypeSize(dtype)
		raw := make([]byte, n*esize)
		for r := 0; r < rows; r++ {
			spread := math.Exp(rng.NormFloat64()*0.5) / math.Sqrt(float64(h))
			for c := 0; c < shape[len(shape)-1]; c++ {
				i := r*shape[len(shape)-1] + c
				v := float32(rng.NormFloat64() * spread)
				if dtype == "F32" {
					v = 1 + v/4 // a norm's gains are near 1
					binary.LittleEndian.PutUint32(raw[4*i:], math.Float32bits(v))
				} else {
					binary.LittleEndian.PutUint16(raw[2*i:], mx.BFloat16FromFloat32(v, mx.RTE))
				}
			}
		}
		st.Tensors = append(st.Tensors, tensorfile.Tensor{Name: name, DType: dtype, Shape: shape, Data: raw})
	}
	add("model.embed_tokens.weight", "BF16", 1000, h+8)
	for l := 0; l < layers; l++ {
		p := fmt.Sprintf("model.layers.%d.", l)
		add(p+"input_layernorm.weight", "F32", h)
		add(p+"self_attn.qkv_proj.weight", "BF16", 3*h, h)
		add(p+"self_attn.o_proj.weight", "BF16", h, h)
		add(p+"post_attention_layernorm.weight", "F32", h)
		add(p+"mlp.gate_up_proj.weight", "BF16", 8*h, h)
		add(p+"mlp.down_proj.weight", "BF16", h, 4*h)
	}
	add("model.norm.weight", "F32", h)
	var b bytes.Buffer
	if err := tensorfile.WriteSafeTensors(&b, st); err != nil {
		return 0, 0, err
	}
	return len(st.Tensors), b.Len(), os.WriteFile(out, b.Bytes(), 0o644)
}
