package asm

import (
	"fmt"
	"strings"
	"testing"

	"spvx/internal/numtext"
	"spvx/spirv"
)

// floatTypes are the float types whose every code TestFloatCodesRoundTrip
// tries: each FP encoding, and IEEE binary16.
var floatTypes = []struct {
	decl string
	nt   spirv.NumberType
}{
	{"16", spirv.NumberType{Kind: spirv.Float, Width: 16}},
	{"16 BFloat16KHR", enc(16, spirv.FPEncodingBFloat16KHR)},
	{"8 Float8E4M3EXT", enc(8, spirv.FPEncodingFloat8E4M3EXT)},
	{"8 Float8E5M2EXT", enc(8, spirv.FPEncodingFloat8E5M2EXT)},
	{"6 Float6E2M3EXT", enc(6, spirv.FPEncodingFloat6E2M3EXT)},
	{"6 Float6E3M2EXT", enc(6, spirv.FPEncodingFloat6E3M2EXT)},
	{"4 Float4E2M1EXT", enc(4, spirv.FPEncodingFloat4E2M1EXT)},
	{"8 Float8UnsignedE8M0EXT", enc(8, spirv.FPEncodingFloat8UnsignedE8M0EXT)},
	{"8 MXInt8EXT", enc(8, spirv.FPEncodingMXInt8EXT)},
}

func enc(w uint8, e spirv.FPEncoding) spirv.NumberType {
	return spirv.NumberType{Kind: spirv.Float, Width: w, HasEncoding: true, Encoding: e}
}

// TestFloatCodesRoundTrip assembles, for every code of every 4-, 6-, 8-
// and 16-bit float type, the text the disassembler prints for it
// (numtext.Format, what spvx dis and spirv-dis print), and checks that the
// same code comes back. SPIRV-Tools fails this for the 4- and 6-bit
// subnormals, E8M0's NaN and MXINT8's -2.0 (OCP-MX-RULES.md §3.5); spvx
// must not fail it for any code.
func TestFloatCodesRoundTrip(t *testing.T) {
	for _, ft := range floatTypes {
		t.Run(strings.ReplaceAll(ft.decl, " ", "_"), func(t *testing.T) {
			n := 1 << ft.nt.Width
			var b strings.Builder
			fmt.Fprintf(&b, "OpCapability Linkage\n%%t = OpTypeFloat %s\n", ft.decl)
			texts := make([]string, n)
			for code := 0; code < n; code++ {
				texts[code] = numtext.Format([]uint32{uint32(code)}, ft.nt)
				fmt.Fprintf(&b, "%%c%d = OpConstant %%t %s\n", code, texts[code])
			}
			words, err := Assemble([]byte(b.String()), Options{})
			if err != nil {
				t.Fatalf("Assemble: %v", err)
			}
			// The constants follow the header, OpCapability and
			// OpTypeFloat; each is 4 words with the literal last.
			first := 5 + 2 + int(words[7]>>16)
			bad := 0
			for code := 0; code < n; code++ {
				got := words[first+4*code+3]
				if got != uint32(code) && bad < 10 {
					t.Errorf("code %#x prints as %s, which assembles to %#x", code, texts[code], got)
					bad++
				}
			}
		})
	}
}

// literalPolicy lists, for the narrow float types, every deliberate
// difference between spvx and SPIRV-Tools v2026.4 in reading literals
// (OCP-MX-RULES.md §3.3, §3.5): spvx reads each text as the number it
// writes, where SPIRV-Tools has bugs. sptools is what spirv-as produces.
var literalPolicy = []struct {
	decl, text string
	want       string // spvx: the code, or "error"
	sptools    string
	reason     string
}{
	{"4 Float4E2M1EXT", "4", "0x6", "0x7", "decimal in the top binade: SPIRV-Tools takes exponent bias+1 for overflow and saturates to 6"},
	{"6 Float6E2M3EXT", "4", "0x18", "0x1f", "decimal in the top binade saturates to 7.5 in SPIRV-Tools"},
	{"6 Float6E3M2EXT", "16", "0x1c", "0x1f", "decimal in the top binade saturates to 28 in SPIRV-Tools"},
	{"8 Float8E4M3EXT", "256", "0x78", "0x7e", "decimal in the top binade saturates to 448 in SPIRV-Tools"},
	{"4 Float4E2M1EXT", "0x1p-1", "0x1", "0x0", "hex subnormal: SPIRV-Tools puts the implicit bit at the format width"},
	{"6 Float6E2M3EXT", "0x1p-3", "0x1", "0x0", "hex subnormal mis-parsed by SPIRV-Tools"},
	{"6 Float6E2M3EXT", "0x1p-1", "0x4", "0x1", "hex subnormal mis-parsed by SPIRV-Tools"},
	{"6 Float6E2M3EXT", "0x1.cp-1", "0x7", "0x3", "hex subnormal mis-parsed by SPIRV-Tools"},
	{"6 Float6E3M2EXT", "0x1p-4", "0x1", "0x0", "hex subnormal mis-parsed by SPIRV-Tools"},
	{"4 Float4E2M1EXT", "0x1p+3", "error", "0x6", "hex overflow: SPIRV-Tools clamps the exponent with no error (4.0)"},
	{"8 Float8E4M3EXT", "0x1p+9", "error", "0x78", "hex overflow: SPIRV-Tools clamps the exponent with no error (256)"},
	{"8 Float8UnsignedE8M0EXT", "0x1p+128", "0xff", "error", "E8M0's NaN: the text spirv-dis prints for 0xFF, which spirv-as rejects"},
	{"8 MXInt8EXT", "-0x1p+1", "0x80", "error", "MXINT8's -2.0: the text spirv-dis prints for 0x80, which spirv-as rejects"},
}

func TestLiteralPolicy(t *testing.T) {
	for _, p := range literalPolicy {
		src := "%t = OpTypeFloat " + p.decl + "\n%c = OpConstant %t " + p.text + "\n"
		words, err := Assemble([]byte(src), Options{})
		got := "error"
		if err == nil {
			got = fmt.Sprintf("%#x", words[len(words)-1])
		}
		if got != p.want {
			t.Errorf("OpTypeFloat %s, OpConstant %s = %s (err %v), want %s (spirv-as: %s; %s)", p.decl, p.text, got, err, p.want, p.sptools, p.reason)
		}
	}
}
