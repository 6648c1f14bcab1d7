package spirv

import (
	"os"
	"path/filepath"
	"testing"
)

// bigModule returns big.spv, or skips the benchmark where ../shared is absent.
func bigModule(b *testing.B) []byte {
	b.Helper()
	path := filepath.Join(sharedDir, "corpus/big.spv")
	data, err := os.ReadFile(path)
	if err != nil {
		b.Skipf("%s not available (%v): skipping", path, err)
	}
	return data
}

// bigDecoded returns big.spv and its decoded module, and sets the byte count.
func bigDecoded(b *testing.B) ([]byte, *Module) {
	b.Helper()
	data := bigModule(b)
	m, err := Decode(data)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	return data, m
}

// BenchmarkDecode measures spirv.Decode on big.spv (2.16 MB, 949 entry
// points), the figure BENCHMARKS.md reports as MB/s.
func BenchmarkDecode(b *testing.B) {
	data, m := bigDecoded(b)
	for b.Loop() {
		if _, err := Decode(data); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(m.Len()), "insts/op")
}

// BenchmarkEncode measures (*Module).Encode on big.spv.
func BenchmarkEncode(b *testing.B) {
	data, m := bigDecoded(b)
	buf := make([]byte, 0, len(data))
	for b.Loop() {
		buf = m.AppendEncoded(buf[:0])
	}
}

// BenchmarkIndex measures building the module index of big.spv.
func BenchmarkIndex(b *testing.B) {
	_, m := bigDecoded(b)
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

// BenchmarkInst measures building every instruction's view of big.spv
// with Module.Inst, the cost a consumer of a decoded module pays per
// instruction it reads.
func BenchmarkInst(b *testing.B) {
	_, m := bigDecoded(b)
	var sum uint32
	for b.Loop() {
		for i := range m.Len() {
			in := m.Inst(i)
			sum += in.ResultID + uint32(len(in.Operands))
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*m.Len()), "ns/inst")
	_ = sum
}
