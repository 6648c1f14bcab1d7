package examples

import (
	"bytes"
	"encoding/binary"
	"flag"
	"math"
	"os"
	"testing"

	"spvx/internal/tensorfile"
)

var update = flag.Bool("update", false, "rewrite the generated input files of data/ and bad/ and coopmat_fp8_gemm.amber's buffers")

// generated are the small input files the README's examples run on, each
// with the function that makes it: the function is the file's source.
var generated = []struct {
	path string
	make func() ([]byte, error)
}{
	{"data/saxpy-x.bin", saxpyX},
	{"data/saxpy-pc.bin", saxpyPush},
	{"data/scan-in.bin", scanIn},
	{"data/weights.npy", weightsNPY},
	{"data/gemm-a.bin", gemmA},
	{"data/gemm-b.bin", gemmB},
	{"data/gemm-zp.bin", gemmZP},
	{"bad/odd.spv", oddModule},
}

// saxpyX is saxpy.spv's X buffer: x[i] = i for the n = 100 elements the
// push constants name.
func saxpyX() ([]byte, error) {
	var b []byte
	for i := range 100 {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(i)))
	}
	return b, nil
}

// saxpyPush is saxpy.spv's push constant block P: a = 2, n = 100.
func saxpyPush() ([]byte, error) {
	b := binary.LittleEndian.AppendUint32(nil, math.Float32bits(2))
	return binary.LittleEndian.AppendUint32(b, 100), nil
}

// scanIn is scan.spv's input: the uint32 values 1 to 16.
func scanIn() ([]byte, error) {
	var b []byte
	for i := range 16 {
		b = binary.LittleEndian.AppendUint32(b, uint32(i+1))
	}
	return b, nil
}

// gemmA is src/gemm_int8_dpas.spvasm's A for the README: a 1x64 row of
// int8 ones, so that C is the sum of each column of B - zb.
func gemmA() ([]byte, error) {
	return bytes.Repeat([]byte{1}, 64), nil
}

// gemmB is its B, 64x64 uint8 with gemmZP's zero points in mind:
// B[k][n] = 128 + k - n, so B - zp is k - n and C[n] = 2016 - 64n.
func gemmB() ([]byte, error) {
	b := make([]byte, 0, 64*64)
	for k := range 64 {
		for n := range 64 {
			b = append(b, byte(128+k-n))
		}
	}
	return b, nil
}

// gemmZP is its per-column zero points: 128 for each of the 64 columns.
func gemmZP() ([]byte, error) {
	return bytes.Repeat([]byte{128}, 64), nil
}

// weightsNPY is a 2x32 float32 .npy array of weight-like values (two
// blocks of 32 per row for the MX formats), one row ten times the other's
// scale so that the blocks get different scales.
func weightsNPY() ([]byte, error) {
	w := make([]float32, 64)
	for i := range w {
		scale := 0.05
		if i >= 32 {
			scale = 0.5
		}
		w[i] = float32(scale * math.Sin(float64(i)*0.7+0.3))
	}
	var buf bytes.Buffer
	err := tensorfile.WriteNPY(&buf, w, []int{2, 32})
	return buf.Bytes(), err
}

// oddModule is switch64.spv less its last byte: a module whose size is
// not a multiple of 4, for spvx dis's error.
func oddModule() ([]byte, error) {
	b, err := os.ReadFile("switch64.spv")
	if err != nil {
		return nil, err
	}
	return b[:len(b)-1], nil
}

// TestGeneratedInputs checks each shipped input file against its
// generator; go test ./examples -update rewrites them.
func TestGeneratedInputs(t *testing.T) {
	for _, g := range generated {
		want, err := g.make()
		if err != nil {
			t.Fatalf("%s: %v", g.path, err)
		}
		if *update {
			if err := os.WriteFile(g.path, want, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(g.path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is not what its generator makes; run go test ./examples -run GeneratedInputs -update", g.path)
		}
	}
}
