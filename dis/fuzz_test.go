package dis

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"spvx/spirv"
)

// optionsFromByte spreads the bits of b over the options.
func optionsFromByte(b byte) Options {
	return Options{
		RawID:         b&1 != 0,
		NoHeader:      b&2 != 0,
		NoIndent:      b&4 != 0,
		Offsets:       b&8 != 0,
		Comment:       b&16 != 0,
		NestedIndent:  b&32 != 0,
		ReorderBlocks: b&64 != 0,
		Color:         b&128 != 0,
	}
}

// FuzzDisassemble checks that disassembling never panics, and that the
// streaming path (DisassembleBinary) fails exactly as the lenient decoder
// (spirv.DecodeOptions{Lenient: true}, what spirv-dis accepts) does and
// otherwise prints what Disassemble prints.
func FuzzDisassemble(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.spv")
	for i, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, byte(i*37))
	}
	f.Add(narrowModule(), byte(0))
	f.Add(narrowModule(), byte(0xFF))
	long, _ := longNamesModule(8)
	f.Add(long, byte(0))
	f.Fuzz(func(t *testing.T, b []byte, optBits byte) {
		opt := optionsFromByte(optBits)
		m, err := spirv.DecodeOptions{Lenient: true}.Decode(b)
		got, derr := DisassembleBinary(b, opt)
		if err != nil {
			if derr == nil || derr.Error() != err.Error() {
				t.Fatalf("DisassembleBinary error %v, want %v", derr, err)
			}
			return
		}
		want := Disassemble(m, opt)
		if derr != nil || !bytes.Equal(got, want) {
			t.Fatalf("DisassembleBinary differs from Disassemble (err %v):\n%s", derr, firstDiff(got, want))
		}
		// Linear output: outside NestedIndent's indentation (quadratic as
		// in spirv-dis), no word prints more than a few names of at most
		// 256 bytes and the carried comment column is at most 256, so
		// the text stays within a constant per word (the quadratic cases
		// were tens of KB per word).
		if limit := 2048*len(b)/4 + 4096; !opt.NestedIndent && len(want) > limit {
			t.Fatalf("%d bytes of text from %d bytes of binary", len(want), len(b))
		}
	})
}
