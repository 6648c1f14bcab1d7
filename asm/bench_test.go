package asm

import (
	"os"
	"testing"
)

func BenchmarkAssemble(b *testing.B) {
	src, err := os.ReadFile("../../shared/corpus/big.spvasm")
	if err != nil {
		b.Skipf("corpus absent: %v", err)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Assemble(src, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
