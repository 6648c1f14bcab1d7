package numtext

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"spvx/internal/oracle"
	"spvx/spirv"
)

// oracleTypes are the types Debian's SPIRV-Tools 2023.1 knows; it predates
// the FP encodings, which the table tests and the round trip cover.
var oracleTypes = []struct {
	decl string
	nt   spirv.NumberType
}{
	{"OpTypeInt 8 0", u8}, {"OpTypeInt 8 1", i8}, {"OpTypeInt 16 0", u16}, {"OpTypeInt 16 1", i16},
	{"OpTypeInt 32 0", u32}, {"OpTypeInt 32 1", i32}, {"OpTypeInt 64 0", u64}, {"OpTypeInt 64 1", i64},
	{"OpTypeFloat 16", f16}, {"OpTypeFloat 32", f32}, {"OpTypeFloat 64", f64},
}

// literalSamples makes literal texts of every shape for a type.
func literalSamples(nt spirv.NumberType, seed uint64) []string {
	out := []string{"0", "1", "-1", "+7", "0x10", "017", "-0"}
	x := seed
	next := func() uint64 { x = x*6364136223846793005 + 1442695040888963407; return x >> 11 }
	for i := 0; i < 150; i++ {
		r := next()
		switch nt.Kind {
		case spirv.Float:
			switch i % 5 {
			case 0:
				out = append(out, fmt.Sprintf("%g", math.Float64frombits(r<<11)))
			case 1:
				out = append(out, fmt.Sprintf("%.6g", float64(int64(r%2000000)-1000000)/float64(1+r%997)))
			case 2:
				out = append(out, fmt.Sprintf("0x1.%03xp%+d", r%4096, int(r>>20%300)-150))
			case 3:
				out = append(out, fmt.Sprintf("%.3e", float64(r%100000)*math.Pow(10, float64(int(r>>30%80)-40))))
			case 4:
				out = append(out, fmt.Sprintf("-0x%x.%xp%d", r%16, r>>8%256, int(r>>20%40)-20))
			}
		default:
			switch i % 3 {
			case 0:
				out = append(out, fmt.Sprint(int64(r)>>uint(r%63)))
			case 1:
				out = append(out, fmt.Sprintf("%#x", r>>uint(r%60)))
			case 2:
				out = append(out, fmt.Sprint(r>>uint(r%63)))
			}
		}
	}
	return out
}

// TestParseMatchesSpirvAs assembles many literals of each type with
// Debian's spirv-as and checks that Parse accepts exactly the same texts
// and yields the same words.
func TestParseMatchesSpirvAs(t *testing.T) {
	as := oracle.Require(t, oracle.SpirvAs)
	for ti, ot := range oracleTypes {
		for _, text := range literalSamples(ot.nt, uint64(ti+1)) {
			src := "OpCapability Shader\nOpCapability Int8\nOpCapability Int16\nOpCapability Int64\nOpCapability Float16\nOpCapability Float64\nOpMemoryModel Logical GLSL450\n" +
				"%t = " + ot.decl + "\n%c = OpConstant %t " + text + "\n"
			out, stderr, ok := oracle.Exec(t, as, []byte(src), "--target-env", "spv1.0", "-o", "-", "-")
			want, err := Parse(text, ot.nt)
			if !ok {
				if err == nil {
					t.Errorf("%s %q: spirv-as rejects (%s), Parse gives %#x", ot.decl, text, strings.TrimSpace(string(stderr)), want)
				} else if msg := strings.TrimSpace(string(stderr)); !strings.HasSuffix(msg, err.Error()) {
					t.Errorf("%s %q: spirv-as says %q, Parse says %q", ot.decl, text, msg, err)
				}
				continue
			}
			m, derr := spirv.Decode(out)
			if derr != nil {
				t.Fatal(derr)
			}
			got := m.Inst(m.Len() - 1).Words[3:]
			if err != nil {
				t.Errorf("%s %q: spirv-as gives %#x, Parse fails: %v", ot.decl, text, got, err)
			} else if !slices.Equal(got, want) {
				t.Errorf("%s %q: spirv-as gives %#x, Parse gives %#x", ot.decl, text, got, want)
			}
		}
	}
}

// TestFormatMatchesSpirvDis prints random bit patterns with Debian's
// spirv-dis and with Format.
func TestFormatMatchesSpirvDis(t *testing.T) {
	dis := oracle.Require(t, oracle.SpirvDis)
	x := uint32(99)
	for _, ot := range oracleTypes {
		words := []uint32{0x07230203, 0x00010000, 0, 100, 0,
			2<<16 | uint32(spirv.OpCapability), uint32(spirv.CapabilityShader)}
		for _, c := range []spirv.Capability{spirv.CapabilityInt8, spirv.CapabilityInt16, spirv.CapabilityInt64, spirv.CapabilityFloat16, spirv.CapabilityFloat64} {
			words = append(words, 2<<16|uint32(spirv.OpCapability), uint32(c))
		}
		words = append(words, 3<<16|uint32(spirv.OpMemoryModel), 0, 1)
		f := strings.Fields(ot.decl)
		if f[0] == "OpTypeInt" {
			sign := uint32(0)
			if ot.nt.Kind == spirv.Signed {
				sign = 1
			}
			words = append(words, 4<<16|uint32(spirv.OpTypeInt), 1, uint32(ot.nt.Width), sign)
		} else {
			words = append(words, 3<<16|uint32(spirv.OpTypeFloat), 1, uint32(ot.nt.Width))
		}
		var consts [][]uint32
		for i := 0; i < 90; i++ {
			x = x*1664525 + 1013904223
			w := []uint32{x}
			switch {
			case ot.nt.Width == 64:
				w = append(w, x*2654435761^x>>7)
				if i%9 == 0 {
					w[1] &= 0x800FFFFF
				}
			case ot.nt.Width < 32:
				w[0] &= 1<<ot.nt.Width - 1
				if ot.nt.Kind == spirv.Signed && w[0]>>(ot.nt.Width-1) != 0 {
					w[0] |= ^uint32(0) << ot.nt.Width
				}
			case i%9 == 0:
				w[0] &= 0x807FFFFF
			}
			consts = append(consts, w)
			words = append(words, uint32(3+len(w))<<16|uint32(spirv.OpConstant), 1, uint32(2+i))
			words = append(words, w...)
		}
		var bin []byte
		for _, w := range words {
			bin = append(bin, byte(w), byte(w>>8), byte(w>>16), byte(w>>24))
		}
		out, stderr, ok := oracle.Exec(t, dis, bin, "--raw-id", "--no-header", "-")
		if !ok {
			t.Fatalf("%s: spirv-dis failed: %s", ot.decl, stderr)
		}
		var lines []string
		for _, l := range strings.Split(string(out), "\n") {
			if strings.Contains(l, "OpConstant") {
				lines = append(lines, l[strings.LastIndex(l, " ")+1:])
			}
		}
		if len(lines) != len(consts) {
			t.Fatalf("%s: spirv-dis printed %d constants, want %d", ot.decl, len(lines), len(consts))
		}
		for i, w := range consts {
			if got := Format(w, ot.nt); got != lines[i] {
				t.Errorf("%s %#x: Format = %q, spirv-dis = %q", ot.decl, w, got, lines[i])
			}
		}
	}
}
