package dis

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"spvx/spirv"
)

// BenchmarkDisassemble measures Disassemble on corpus/big.spv (2.16 MB,
// 949 entry points); MB/s counts bytes of binary input. The decode is
// outside the timed loop; BenchmarkDisassembleBinary includes it.
func BenchmarkDisassemble(b *testing.B) {
	bin := bigModule(b)
	m, err := spirv.Decode(bin)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		opt  Options
	}{
		{"default", Options{}},
		{"raw-id", Options{RawID: true}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(bin)))
			b.ReportAllocs()
			for b.Loop() {
				Disassemble(m, c.opt)
			}
		})
	}
}

// BenchmarkDisassembleBinary measures decode and disassembly together,
// the work of one spvx dis run.
func BenchmarkDisassembleBinary(b *testing.B) {
	bin := bigModule(b)
	b.SetBytes(int64(len(bin)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DisassembleBinary(bin, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func bigModule(b *testing.B) []byte {
	b.Helper()
	bin, err := os.ReadFile(filepath.Join(sharedDir, "corpus/big.spv"))
	if err != nil {
		b.Skipf("corpus/big.spv not available (%v): skipping", err)
	}
	return bin
}

// BenchmarkFprintBinary measures the streaming path spvx dis uses, from
// the binary to text written to io.Discard.
func BenchmarkFprintBinary(b *testing.B) {
	bin := bigModule(b)
	b.SetBytes(int64(len(bin)))
	b.ReportAllocs()
	for b.Loop() {
		if err := FprintBinary(io.Discard, bin, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFriendlyNames measures the naming pass alone over big.spv's
// decoded instructions.
func BenchmarkFriendlyNames(b *testing.B) {
	bin := bigModule(b)
	m, err := spirv.Decode(bin)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(bin)))
	b.ReportAllocs()
	for b.Loop() {
		computeNames(m, m.Size(), false)
	}
}
