package roundtrip

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"spvx/asm"
	"spvx/dis"
	"spvx/spirv"
)

const corpus = "../../../shared/corpus"

func corpusFiles(t testing.TB) []string {
	files, _ := filepath.Glob(filepath.Join(corpus, "valid/*.spv"))
	if len(files) == 0 {
		t.Skipf("corpus not found under %s: skipping", corpus)
	}
	return files
}

func wordsOf(b []byte) []uint32 {
	w := make([]uint32, len(b)/4)
	for i := range w {
		w[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return w
}

// sameModule compares two modules, ignoring the header's generator word
// (each assembler writes its own) and bound (an original may count ids it
// does not use).
func sameModule(a, b []uint32) bool {
	if len(a) != len(b) || len(a) < 5 {
		return false
	}
	return a[0] == b[0] && a[1] == b[1] && a[4] == b[4] && slices.Equal(a[5:], b[5:])
}

// TestCorpusRawIDRoundTrip: dis --raw-id, then as --preserve-numeric-ids,
// reproduces every corpus module.
func TestCorpusRawIDRoundTrip(t *testing.T) {
	ok := 0
	files := corpusFiles(t)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m, err := spirv.Decode(b)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		text := dis.Disassemble(m, dis.Options{RawID: true})
		got, err := asm.Assemble(text, asm.Options{PreserveNumericIDs: true, File: filepath.Base(f)})
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(f), err)
			continue
		}
		if !sameModule(got, wordsOf(b)) {
			t.Errorf("%s: as(dis --raw-id) differs from the original", filepath.Base(f))
			continue
		}
		ok++
	}
	t.Logf("%d of %d modules reproduced", ok, len(files))
}

// TestCorpusFriendlyNames: with friendly names, assembling the text of
// dis and disassembling again reaches a fixed point after one round
// (the first round may renumber ids that have no name, as spirv-as
// assigns ids in order of first appearance), and the words agree.
func TestCorpusFriendlyNames(t *testing.T) {
	files := corpusFiles(t)
	if testing.Short() {
		files = files[:100]
	}
	round := func(text []byte) ([]uint32, []byte, error) {
		w, err := asm.Assemble(text, asm.Options{})
		if err != nil {
			return nil, nil, err
		}
		m, err := spirv.DecodeWords(w)
		if err != nil {
			return nil, nil, err
		}
		return w, dis.Disassemble(m, dis.Options{}), nil
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m, err := spirv.Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		text1 := dis.Disassemble(m, dis.Options{})
		w1, text2, err := round(text1)
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(f), err)
			continue
		}
		if len(w1) != len(wordsOf(b)) {
			t.Errorf("%s: as(dis(b)) has %d words, b has %d", filepath.Base(f), len(w1), len(b)/4)
		}
		w2, text3, err := round(text2)
		if err != nil {
			t.Errorf("%s: second round: %v", filepath.Base(f), err)
			continue
		}
		if !slices.Equal(w1, w2) || !bytes.Equal(text2, text3) {
			t.Errorf("%s: no fixed point after one dis/as round", filepath.Base(f))
		}
	}
}

// narrowTypes lists every type whose every code is checked.
var narrowTypes = []struct {
	name     string
	width    uint32
	encoding int64 // -1: none
	cap      spirv.Capability
}{
	{"half", 16, -1, spirv.CapabilityFloat16},
	{"bfloat16", 16, int64(spirv.FPEncodingBFloat16KHR), spirv.CapabilityBFloat16TypeKHR},
	{"e4m3", 8, int64(spirv.FPEncodingFloat8E4M3EXT), spirv.CapabilityFloat8EXT},
	{"e5m2", 8, int64(spirv.FPEncodingFloat8E5M2EXT), spirv.CapabilityFloat8EXT},
	{"e2m3", 6, int64(spirv.FPEncodingFloat6E2M3EXT), spirv.CapabilityFloat6EXT},
	{"e3m2", 6, int64(spirv.FPEncodingFloat6E3M2EXT), spirv.CapabilityFloat6EXT},
	{"e2m1", 4, int64(spirv.FPEncodingFloat4E2M1EXT), spirv.CapabilityFloat4EXT},
	{"e8m0", 8, int64(spirv.FPEncodingFloat8UnsignedE8M0EXT), spirv.CapabilityFloat8UnsignedE8M0EXT},
	{"mxint8", 8, int64(spirv.FPEncodingMXInt8EXT), spirv.CapabilityMXInt8EXT},
}

// TestEveryNarrowCodeRoundTrips builds, for each 4-, 6-, 8- and 16-bit
// float type, a module with a constant of every code, and checks that
// what dis prints assembles back to the same words.
func TestEveryNarrowCodeRoundTrips(t *testing.T) {
	for _, nt := range narrowTypes {
		t.Run(nt.name, func(t *testing.T) {
			n := uint32(1) << nt.width
			words := []uint32{spirv.MagicNumber, 0x00010600, 0, n + 2, 0,
				2<<16 | uint32(spirv.OpCapability), uint32(spirv.CapabilityShader),
				2<<16 | uint32(spirv.OpCapability), uint32(nt.cap),
				3<<16 | uint32(spirv.OpMemoryModel), uint32(spirv.AddressingModelLogical), uint32(spirv.MemoryModelGLSL450)}
			if nt.encoding < 0 {
				words = append(words, 3<<16|uint32(spirv.OpTypeFloat), 1, nt.width)
			} else {
				words = append(words, 4<<16|uint32(spirv.OpTypeFloat), 1, nt.width, uint32(nt.encoding))
			}
			for code := uint32(0); code < n; code++ {
				words = append(words, 4<<16|uint32(spirv.OpConstant), 1, 2+code, code)
			}
			m, err := spirv.DecodeWords(words)
			if err != nil {
				t.Fatal(err)
			}
			text := dis.Disassemble(m, dis.Options{RawID: true})
			got, err := asm.Assemble(text, asm.Options{PreserveNumericIDs: true, TargetEnv: "spv1.6"})
			if err != nil {
				t.Fatalf("%v\n%s", err, firstLines(text, 20))
			}
			if !slices.Equal(got[5:], words[5:]) {
				for i := 5; i < len(got) && i < len(words); i++ {
					if got[i] != words[i] {
						t.Fatalf("word %d: got %#x, want %#x", i, got[i], words[i])
					}
				}
				t.Fatalf("length %d, want %d", len(got), len(words))
			}
		})
	}
}

func firstLines(b []byte, n int) string {
	lines := strings.SplitN(string(b), "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}

// FuzzAssembleRoundTrip: whatever assembles, disassembled with raw ids and
// assembled again preserving them, gives the same words.
func FuzzAssembleRoundTrip(f *testing.F) {
	seeds, _ := filepath.Glob("../../examples/src/*.spvasm")
	for _, s := range seeds {
		if b, err := os.ReadFile(s); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("OpCapability Shader\nOpCapability Float4EXT\nOpExtension \"SPV_EXT_ocp_microscaling_types\"\nOpMemoryModel Logical GLSL450\n%t = OpTypeFloat 4 Float4E2M1EXT\n%c = OpConstant %t -0x1.8p+1\n"))
	f.Add([]byte("OpCapability Kernel\nOpMemoryModel Physical64 OpenCL\n%u = OpTypeInt 32 0\n%v = OpTypeVector %u 2\n%w = OpTypeInt 64 0\n%x = OpUndef %w\n%y = OpSubgroupBitcastShuffleINTEL %v %x\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		w1, err := asm.Assemble(src, asm.Options{LaxIDs: true})
		if err != nil {
			return
		}
		m, err := spirv.DecodeWords(w1)
		if err != nil {
			return // asm accepts some modules (e.g. made with !words) that do not decode
		}
		text := dis.Disassemble(m, dis.Options{RawID: true})
		w2, err := asm.Assemble(text, asm.Options{PreserveNumericIDs: true, LaxIDs: true})
		if err != nil {
			t.Fatalf("disassembly does not assemble: %v\n%s", err, text)
		}
		if !slices.Equal(w1[5:], w2[5:]) || w1[1] != w2[1] {
			t.Fatalf("round trip differs\n%s", text)
		}
	})
}
