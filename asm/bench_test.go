package asm

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkAssemble measures Assemble on big.spvasm (6.2 MB, 118,365
// instructions: 949 linked corpus modules) and on the testdata files.
// Throughput is in bytes of text.
func BenchmarkAssemble(b *testing.B) {
	inputs := []string{filepath.Join(corpusDir, "big.spvasm"), "testdata/basic.spvasm", "testdata/literals.spvasm"}
	for _, path := range inputs {
		b.Run(filepath.Base(path), func(b *testing.B) {
			src, err := os.ReadFile(path)
			if err != nil {
				b.Skipf("input absent: %v", err)
			}
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Assemble(src, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
