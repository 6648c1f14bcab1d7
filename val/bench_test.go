package val

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"spvx/spirv"
)

// BenchmarkValidate validates big.spv (decoded once, index built once, as
// Validate finds it when a caller decoded the module) with default options.
func BenchmarkValidate(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(sharedDir, "corpus/big.spv"))
	if err != nil {
		b.Skipf("big.spv not found under %s: %v", sharedDir, err)
	}
	m, err := spirv.Decode(data)
	if err != nil {
		b.Fatal(err)
	}
	m.Index()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	c0 := cpuTime()
	for b.Loop() {
		if err := Validate(m, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, c0)
}

// reportCPU reports the CPU time per iteration since c0 (all threads),
// which a loaded box disturbs less than the wall time.
func reportCPU(b *testing.B, c0 time.Duration) {
	b.ReportMetric(float64(cpuTime()-c0)/1e6/float64(b.N), "cpu-ms/op")
}

// BenchmarkDecodeValidate includes decoding and indexing, what spvx val
// does per file.
func BenchmarkDecodeValidate(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(sharedDir, "corpus/big.spv"))
	if err != nil {
		b.Skipf("big.spv not found under %s: %v", sharedDir, err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	c0 := cpuTime()
	for b.Loop() {
		m, err := spirv.Decode(data)
		if err != nil {
			b.Fatal(err)
		}
		if err := Validate(m, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, c0)
}
