package spirv

import (
	"os"
	"path/filepath"
	"testing"
)

func readFileErr(path string) ([]byte, error) { return os.ReadFile(path) }

func bigModule(b *testing.B) []byte {
	data := readFileOrSkip(b, filepath.Join(sharedDir, "corpus/big.spv"))
	return data
}

func readFileOrSkip(b *testing.B, path string) []byte {
	b.Helper()
	data, err := readFileErr(path)
	if err != nil {
		b.Skipf("%s not available (%v): skipping", path, err)
	}
	return data
}

// BenchmarkDecode measures spirv.Decode on big.spv (2.16 MB, 949 entry
// points), the figure BENCHMARKS.md reports as MB/s.
func BenchmarkDecode(b *testing.B) {
	data := bigModule(b)
	m, err := Decode(data)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(data); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(m.Insts)), "insts/op")
}

// BenchmarkEncode measures (*Module).Encode on big.spv.
func BenchmarkEncode(b *testing.B) {
	data := bigModule(b)
	m, err := Decode(data)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	buf := make([]byte, 0, len(data))
	for b.Loop() {
		buf = m.AppendEncoded(buf[:0])
	}
}

// BenchmarkIndex measures building the module index of big.spv.
func BenchmarkIndex(b *testing.B) {
	data := bigModule(b)
	m, err := Decode(data)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		_ = buildIndex(m)
	}
}

// BenchmarkReader streams big.spv instruction by instruction, the path the
// disassembler takes.
func BenchmarkReader(b *testing.B) {
	data := bigModule(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		r, err := NewReader(data)
		if err != nil {
			b.Fatal(err)
		}
		for {
			if _, err := r.Next(); err != nil {
				break
			}
		}
	}
}

// BenchmarkDecodeInto decodes big.spv into a reused Module, the path of a
// program that decodes module after module.
func BenchmarkDecodeInto(b *testing.B) {
	data := bigModule(b)
	var m Module
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if err := DecodeInto(&m, data); err != nil {
			b.Fatal(err)
		}
	}
}
