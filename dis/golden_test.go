package dis

import (
	"bytes"
	"encoding/binary"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"spvx/spirv"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/golden")

// variants are the option sets of the golden files, by file-name suffix.
var variants = map[string]Options{
	"default":        {},
	"raw-id":         {RawID: true},
	"no-header":      {NoHeader: true},
	"no-indent":      {NoIndent: true},
	"offsets":        {Offsets: true},
	"comment":        {Comment: true},
	"nested-indent":  {NestedIndent: true},
	"reorder-blocks": {ReorderBlocks: true},
	"color":          {Color: true},
	// Combinations whose interplay spirv-dis defines: comments after byte
	// offsets, blank lines of --comment and --nested-indent, colors inside
	// comments and under --no-indent.
	"comment-offsets-color":              {Comment: true, Offsets: true, Color: true},
	"nested-reorder-comment":             {NestedIndent: true, ReorderBlocks: true, Comment: true},
	"nested-offsets-raw-id":              {NestedIndent: true, Offsets: true, RawID: true},
	"no-indent-comment-nested-no-header": {NoIndent: true, Comment: true, NestedIndent: true, NoHeader: true},
}

// goldenModules are the test modules and the variants each is printed in.
var goldenModules = []struct {
	name     string
	variants []string
}{
	{"control", []string{"default", "raw-id", "no-header", "no-indent", "offsets", "comment",
		"nested-indent", "reorder-blocks", "color", "comment-offsets-color",
		"nested-reorder-comment", "nested-offsets-raw-id", "no-indent-comment-nested-no-header"}},
	{"kernel", []string{"default", "raw-id", "comment", "nested-indent", "reorder-blocks", "color"}},
	{"types", []string{"default", "raw-id"}},
	{"narrow", []string{"default", "raw-id", "comment"}},
	// Names of 255, 256, 257 and 300 bytes (longNamesModule).
	{"longnames", []string{"default", "comment", "offsets"}},
}

// loadModule returns a test module's binary: testdata/NAME.spv, or built
// here for the modules the Debian tools cannot assemble.
func loadModule(t *testing.T, name string) []byte {
	t.Helper()
	switch name {
	case "narrow":
		return narrowModule()
	case "longnames":
		b, _ := longNamesModule(40)
		return b
	}
	b, err := os.ReadFile(filepath.Join("testdata", name+".spv"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestGolden compares the text of the test modules, in every variant,
// with testdata/golden. Run with -update to rewrite the files after
// checking the new text (TestOracle compares what the oracle can print).
func TestGolden(t *testing.T) {
	for _, mod := range goldenModules {
		bin := loadModule(t, mod.name)
		m, err := spirv.Decode(bin)
		if err != nil {
			t.Fatalf("%s: %v", mod.name, err)
		}
		for _, v := range mod.variants {
			opt, ok := variants[v]
			if !ok {
				t.Fatalf("unknown variant %q", v)
			}
			path := filepath.Join("testdata", "golden", mod.name+"."+v+".spvasm")
			got := Disassemble(m, opt)
			if *update {
				if err := os.WriteFile(path, got, 0o666); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs:\n%s", path, firstDiff(got, want))
			}
			// Every path to text prints the same.
			if b, err := DisassembleBinary(bin, opt); err != nil || !bytes.Equal(b, want) {
				t.Errorf("%s: DisassembleBinary differs (err %v):\n%s", path, err, firstDiff(b, want))
			}
			var buf bytes.Buffer
			if err := FprintBinary(&buf, bin, opt); err != nil || !bytes.Equal(buf.Bytes(), want) {
				t.Errorf("%s: FprintBinary differs (err %v):\n%s", path, err, firstDiff(buf.Bytes(), want))
			}
			buf.Reset()
			if err := Fprint(&buf, m, opt); err != nil || !bytes.Equal(buf.Bytes(), want) {
				t.Errorf("%s: Fprint differs (err %v)", path, err)
			}
		}
	}
}

// TestBigEndian checks that a module stored big-endian prints as the same
// module stored little-endian, whose default text is the golden file.
func TestBigEndian(t *testing.T) {
	for _, name := range []string{"control", "kernel", "narrow"} {
		le := loadModule(t, name)
		be := make([]byte, len(le))
		for i := 0; i < len(le); i += 4 {
			binary.BigEndian.PutUint32(be[i:], binary.LittleEndian.Uint32(le[i:]))
		}
		golden, err := os.ReadFile(filepath.Join("testdata", "golden", name+".default.spvasm"))
		if err != nil {
			t.Fatal(err)
		}
		for _, opt := range []Options{{}, {Comment: true, Offsets: true}, {NestedIndent: true}} {
			got, err := DisassembleBinary(be, opt)
			if err != nil {
				t.Fatalf("%s big-endian: %v", name, err)
			}
			want := golden
			if opt != (Options{}) {
				if want, err = DisassembleBinary(le, opt); err != nil {
					t.Fatal(err)
				}
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s big-endian %+v:\n%s", name, opt, firstDiff(got, want))
			}
		}
	}
}

// builder writes a module word by word, for the modules the Debian tools
// cannot assemble. It is not an assembler: ids are numbers it hands out.
type builder struct {
	words []uint32
	bound uint32
}

func newBuilder() *builder {
	return &builder{words: []uint32{spirv.MagicNumber, 0x00010600, 0, 0, 0}, bound: 1}
}

func (b *builder) id() uint32 {
	b.bound++
	return b.bound - 1
}

// op appends an instruction; operands are words, strings are packed.
func (b *builder) op(op spirv.Opcode, operands ...any) {
	w := []uint32{0}
	for _, o := range operands {
		switch o := o.(type) {
		case uint32:
			w = append(w, o)
		case int:
			w = append(w, uint32(o))
		case string:
			w = spirv.EncodeString(w, o)
		case []uint32:
			w = append(w, o...)
		default:
			panic("builder: operand type")
		}
	}
	w[0] = uint32(len(w))<<16 | uint32(op)
	b.words = append(b.words, w...)
}

func (b *builder) bytes() []byte {
	b.words[3] = b.bound
	out := make([]byte, 4*len(b.words))
	for i, w := range b.words {
		binary.LittleEndian.PutUint32(out[4*i:], w)
	}
	return out
}

// narrowModule builds a module with every narrow floating-point type
// (SPV_KHR_bfloat16, SPV_EXT_float8, SPV_EXT_ocp_microscaling_types),
// constants of every 4- and 6-bit code and of the 8- and 16-bit codes that
// OCP-MX-RULES.md §3.4 lists, OpBitcastExtractEXT and
// OpSubgroupBitcastShuffleINTEL. Debian's spirv-as predates all of them.
func narrowModule() []byte {
	b := newBuilder()
	for _, c := range []spirv.Capability{spirv.CapabilityShader, spirv.CapabilityInt8, spirv.CapabilityInt16,
		spirv.CapabilityBFloat16TypeKHR, spirv.CapabilityFloat8EXT, spirv.CapabilityFloat6EXT,
		spirv.CapabilityFloat4EXT, spirv.CapabilityFloat8UnsignedE8M0EXT, spirv.CapabilityMXInt8EXT,
		spirv.CapabilityBitcastExtractEXT, spirv.CapabilitySubgroupBitcastShuffleINTEL} {
		b.op(spirv.OpCapability, uint32(c))
	}
	for _, e := range []string{"SPV_KHR_bfloat16", "SPV_EXT_float8", "SPV_EXT_ocp_microscaling_types",
		"SPV_INTEL_subgroup_bitcast_shuffle"} {
		b.op(spirv.OpExtension, e)
	}
	b.op(spirv.OpMemoryModel, uint32(spirv.AddressingModelLogical), uint32(spirv.MemoryModelGLSL450))
	main := b.id()
	b.op(spirv.OpEntryPoint, uint32(spirv.ExecutionModelGLCompute), main, "main")
	b.op(spirv.OpExecutionMode, main, uint32(spirv.ExecutionModeLocalSize), 1, 1, 1)
	b.op(spirv.OpName, main, "main")
	spec := b.id()
	b.op(spirv.OpName, spec, "spec_e4m3")
	void, fn := b.id(), b.id()
	b.op(spirv.OpTypeVoid, void)
	b.op(spirv.OpTypeFunction, fn, void)
	uchar, ushort, uint := b.id(), b.id(), b.id()
	b.op(spirv.OpTypeInt, uchar, 8, 0)
	b.op(spirv.OpTypeInt, ushort, 16, 0)
	b.op(spirv.OpTypeInt, uint, 32, 0)
	types := []struct {
		width uint32
		enc   spirv.FPEncoding
		codes []uint32
	}{
		{16, spirv.FPEncodingBFloat16KHR, []uint32{0x3F80, 0xBF80, 0x7F80, 0xFF80, 0x7FC1, 0x0001, 0x8000, 0x4049}},
		{8, spirv.FPEncodingFloat8E4M3EXT, []uint32{0x00, 0x07, 0x38, 0x7E, 0x7F, 0x80, 0xFF, 0xFFFFFF3C}},
		{8, spirv.FPEncodingFloat8E5M2EXT, []uint32{0x00, 0x01, 0x3C, 0x7B, 0x7C, 0x7D, 0x7E, 0x7F, 0xFC}},
		{6, spirv.FPEncodingFloat6E2M3EXT, seq(64)},
		{6, spirv.FPEncodingFloat6E3M2EXT, seq(64)},
		{4, spirv.FPEncodingFloat4E2M1EXT, seq(16)},
		{8, spirv.FPEncodingFloat8UnsignedE8M0EXT, []uint32{0x00, 0x01, 0x7E, 0x7F, 0x80, 0xFE, 0xFF}},
		{8, spirv.FPEncodingMXInt8EXT, []uint32{0x00, 0x01, 0x40, 0x7F, 0x80, 0x81, 0xEE, 0xFF}},
	}
	var fp4, e4m3, e8m0 uint32
	for _, ty := range types {
		id := b.id()
		b.op(spirv.OpTypeFloat, id, ty.width, uint32(ty.enc))
		switch ty.enc {
		case spirv.FPEncodingFloat4E2M1EXT:
			fp4 = id
		case spirv.FPEncodingFloat8E4M3EXT:
			e4m3 = id
		case spirv.FPEncodingFloat8UnsignedE8M0EXT:
			e8m0 = id
		}
		for _, c := range ty.codes {
			b.op(spirv.OpConstant, id, b.id(), c)
		}
	}
	v4fp4, v2uchar := b.id(), b.id()
	b.op(spirv.OpTypeVector, v4fp4, fp4, 4)
	b.op(spirv.OpTypeVector, v2uchar, uchar, 2)
	b.op(spirv.OpSpecConstant, e4m3, spec, 0x38)
	u16, u4, u8 := b.id(), b.id(), b.id()
	b.op(spirv.OpConstant, ushort, u16, 0xBEEF)
	b.op(spirv.OpConstant, uint, u4, 4)
	b.op(spirv.OpConstant, uchar, u8, 0x7F)
	b.op(spirv.OpFunction, void, main, 0, fn)
	b.op(spirv.OpLabel, b.id())
	ext, shuf, cvt, scale := b.id(), b.id(), b.id(), b.id()
	b.op(spirv.OpBitcastExtractEXT, fp4, ext, u16, u4)
	b.op(spirv.OpSubgroupBitcastShuffleINTEL, v2uchar, shuf, u16)
	b.op(spirv.OpFConvert, e4m3, cvt, spec)
	b.op(spirv.OpBitcast, e8m0, scale, u8)
	b.op(spirv.OpReturn)
	b.op(spirv.OpFunctionEnd)
	return b.bytes()
}

func seq(n uint32) []uint32 {
	s := make([]uint32, n)
	for i := range s {
		s[i] = uint32(i)
	}
	return s
}

// TestNarrowModule checks the narrow-type lines that OCP-MX-RULES.md §1.6
// and §3.4 spell out, independently of the golden file.
func TestNarrowModule(t *testing.T) {
	text, err := DisassembleBinary(narrowModule(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"%fp4e2m1 = OpTypeFloat 4 Float4E2M1EXT",
		"%fp6e2m3 = OpTypeFloat 6 Float6E2M3EXT",
		"%fp6e3m2 = OpTypeFloat 6 Float6E3M2EXT",
		"%fp8e4m3 = OpTypeFloat 8 Float8E4M3EXT",
		"%fp8e5m2 = OpTypeFloat 8 Float8E5M2EXT",
		"%fp8e8m0 = OpTypeFloat 8 Float8UnsignedE8M0EXT",
		"%mxint8 = OpTypeFloat 8 MXInt8EXT",
		"%bfloat16 = OpTypeFloat 16 BFloat16KHR",
		"%v4fp4e2m1 = OpTypeVector %fp4e2m1 4",
		"%fp4e2m1_n0x1_8p_2 = OpConstant %fp4e2m1 -0x1.8p+2",
		"%fp4e2m1_0x1pn1 = OpConstant %fp4e2m1 0x1p-1",
		"%fp4e2m1_n0x0p_0 = OpConstant %fp4e2m1 -0x0p+0",
		"%fp8e8m0_0x1pn127 = OpConstant %fp8e8m0 0x1p-127",
		"%fp8e8m0_0x1p_128 = OpConstant %fp8e8m0 0x1p+128",
		"%mxint8_n0x1_2pn2 = OpConstant %mxint8 -0x1.2p-2",
		"%mxint8_n0x1p_1 = OpConstant %mxint8 -0x1p+1",
		"%mxint8_0x1_fcp_0 = OpConstant %mxint8 0x1.fcp+0",
		"%fp8e4m3_0x1_ep_8 = OpConstant %fp8e4m3 0x1.ep+8",
		"%fp8e4m3_0x1_cpn7 = OpConstant %fp8e4m3 0x1.cp-7",
		"%fp8e4m3_0x1_8p_0 = OpConstant %fp8e4m3 0x1.8p+0", // 0xFFFFFF3C: upper bits ignored
		"%fp8e5m2_0x1p_16 = OpConstant %fp8e5m2 0x1p+16",
		"%fp8e5m2_0x1_4p_16 = OpConstant %fp8e5m2 0x1.4p+16",
		"%fp6e2m3_0x1_ep_2 = OpConstant %fp6e2m3 0x1.ep+2",
		"%fp6e3m2_0x1_8pn3 = OpConstant %fp6e3m2 0x1.8p-3",
		"%spec_e4m3 = OpSpecConstant %fp8e4m3 0x1p+0",
		"OpBitcastExtractEXT %fp4e2m1 %ushort_48879 %uint_4",
		"OpSubgroupBitcastShuffleINTEL %v2uchar %ushort_48879",
	} {
		if !bytes.Contains(text, []byte(want)) {
			t.Errorf("missing %q", want)
		}
	}
	// E2M1, bits -> text (OCP-MX-RULES.md §3.4).
	e2m1 := []string{"0x0p+0", "0x1p-1", "0x1p+0", "0x1.8p+0", "0x1p+1", "0x1.8p+1", "0x1p+2", "0x1.8p+2"}
	for i, v := range e2m1 {
		for _, s := range []string{"", "-"} {
			line := "= OpConstant %fp4e2m1 " + s + v + "\n"
			if !bytes.Contains(text, []byte(line)) {
				t.Errorf("E2M1 code %d: missing %q", i, strings.TrimSpace(line))
			}
		}
	}
}
