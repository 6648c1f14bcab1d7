package hexdump

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDetect(t *testing.T) {
	cases := []struct {
		in   string
		want Format
	}{
		{"0x07230203, 0x00010000", Words},
		{"  \n0x7230203 0x10000", Words},
		{"x07230203", Words},
		{"X7230203", Words},
		{"0x03, 0x02, 0x23, 0x07", PrefixedBytes},
		{"0x7 0x23", PrefixedBytes},
		{"x03", PrefixedBytes},
		{"03 02 23 07", Bytes},
		{"7 23 2 3", Bytes},
		{"\x03\x02\x23\x07", NotHex}, // a binary module
		{"\x07\x23\x02\x03", NotHex},
		{"; SPIR-V\nOpCapability Shader", NotHex}, // assembly text
		{"0x07230204", NotHex},                    // not the magic number
		{"0x003", NotHex},                         // three digits: neither a byte nor the magic
		{"0302230700000100", NotHex},              // an undelimited stream
		{"", NotHex},
		{" , ", NotHex},
	}
	for _, c := range cases {
		if got := Detect([]byte(c.in)); got != c.want {
			t.Errorf("Detect(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestDecode(t *testing.T) {
	le := []byte{3, 2, 0x23, 7, 0, 4, 1, 0}
	be := []byte{7, 0x23, 2, 3, 0, 1, 4, 0}
	cases := []struct {
		in   string
		want []byte
	}{
		{"0x07230203, 0x00010400", le},
		{"0x7230203,0x10400", le},
		{"x7230203\n\tx10400\n", le},
		{"0x07230203 0X0001040", []byte{3, 2, 0x23, 7, 0x40, 0x10, 0, 0}},
		{"0x3, 0x2, 0x23, 0x7, 0x0, 0x4, 0x1, 0x0", le},
		{"0x07 0x23 0x02 0x03 0x00 0x01 0x04 0x00", be},
		{"03 02 23 07 00 04 01 00", le},
		{"7,23,2,3,0,1,4,0,", be},
		{"03 02 23 07\r\n00 04 01 00\r\n", le},
		{"0x03, 0x02, 0x23, 0x07, 0xff, 0xFF, 0xAb, 0x0a", []byte{3, 2, 0x23, 7, 0xff, 0xff, 0xab, 0x0a}},
	}
	for _, c := range cases {
		got, err := Decode([]byte(c.in))
		if err != nil || !bytes.Equal(got, c.want) {
			t.Errorf("Decode(%q) = % x, %v; want % x", c.in, got, err, c.want)
		}
	}
	if got, err := Decode([]byte("\x03\x02\x23\x07")); got != nil || err != nil {
		t.Errorf("Decode(binary) = %v, %v; want nil, nil", got, err)
	}
}

func TestDecodeErrors(t *testing.T) {
	cases := []struct {
		in   string
		want string
	}{
		{"0x07230203, 0x1ffffffff", `hex input:1:13: "0x1ffffffff" is not a 32-bit word like 0x07230203 (the dump started as words)`},
		{"0x07230203, 42", `hex input:1:13: "42" is not a 32-bit word like 0x07230203 (the dump started as words)`},
		{"0x07230203\n  0xg1", `hex input:2:3: "0xg1" is not a 32-bit word like 0x07230203 (the dump started as words)`},
		{"0x03 0x02\n0x23 0x107", `hex input:2:6: "0x107" is not a byte like 0x07 (the dump started as bytes with 0x prefix)`},
		{"0x03 02 23 07", `hex input:1:6: "02" is not a byte like 0x07 (the dump started as bytes with 0x prefix)`},
		{"03 0x02 23 07", `hex input:1:4: "0x02" is not a byte like 07 (the dump started as bytes)`},
		{"03 02 23", `hex input:1:9: the dump ends after 3 bytes, not a whole number of 4-byte words`},
		{"0x07230203; 0x0", `hex input:1:11: unexpected character ';'`},
		{"0x07230203 {0x0}", `hex input:1:12: unexpected character '{'`},
		{"03 02 23 07 -1 00 00 00", `hex input:1:13: unexpected character '-'`},
	}
	for _, c := range cases {
		_, err := Decode([]byte(c.in))
		var he *Error
		if !errors.As(err, &he) || err.Error() != c.want {
			t.Errorf("Decode(%q) error\n got  %v\n want %s", c.in, err, c.want)
		}
	}
}

// TestModulesRoundTrip writes the example modules in every format and
// reads them back.
func TestModulesRoundTrip(t *testing.T) {
	files, _ := filepath.Glob("../../examples/*.spv")
	if len(files) == 0 {
		t.Fatal("no ../../examples/*.spv")
	}
	for _, f := range files {
		bin, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		swapped := make([]byte, len(bin))
		for i := 0; i < len(bin); i += 4 {
			binary.BigEndian.PutUint32(swapped[i:], binary.LittleEndian.Uint32(bin[i:]))
		}
		for _, d := range []struct {
			name string
			text string
			want []byte
		}{
			{"words", dumpWords(bin, "0x%08x", ", ", 8), bin},
			{"short words", dumpWords(bin, "x%x", " ", 5), bin},
			{"prefixed bytes", dumpBytes(bin, "0x%02x", ", ", 16), bin},
			{"prefixed bytes big-endian", dumpBytes(swapped, "0x%x", ",", 12), swapped},
			{"bytes", dumpBytes(bin, "%02x", " ", 16), bin},
			{"bytes big-endian", dumpBytes(swapped, "%02X", " ", 16), swapped},
		} {
			got, err := Decode([]byte(d.text))
			if err != nil || !bytes.Equal(got, d.want) {
				t.Errorf("%s as %s: %v", filepath.Base(f), d.name, err)
			}
		}
	}
}

func dumpWords(bin []byte, format, sep string, perLine int) string {
	var b strings.Builder
	for i := 0; i < len(bin); i += 4 {
		fmt.Fprintf(&b, format, binary.LittleEndian.Uint32(bin[i:]))
		b.WriteString(sep)
		if (i/4)%perLine == perLine-1 {
			b.WriteString("\n")
		}
	}
	return b.String()
}

func dumpBytes(bin []byte, format, sep string, perLine int) string {
	var b strings.Builder
	for i, c := range bin {
		fmt.Fprintf(&b, format, c)
		if i%perLine == perLine-1 {
			b.WriteString("\n")
		} else {
			b.WriteString(sep)
		}
	}
	return b.String()
}

// FuzzDecode: never a panic; a dump decodes to at most a bounded size; an
// error always carries a position inside the input.
func FuzzDecode(f *testing.F) {
	f.Add([]byte("0x07230203, 0x00010000, 0x0008000b"))
	f.Add([]byte("0x03 0x02 0x23 0x07"))
	f.Add([]byte("07 23 02 03\n00 01 00 00"))
	f.Add([]byte("\x03\x02\x23\x07"))
	f.Fuzz(func(t *testing.T, b []byte) {
		out, err := Decode(b)
		if err != nil {
			var he *Error
			if !errors.As(err, &he) || he.Line < 1 || he.Col < 1 {
				t.Fatalf("error %v has no position", err)
			}
			return
		}
		if out == nil {
			if Detect(b) != NotHex {
				t.Fatal("a dump decoded to nothing")
			}
			return
		}
		if len(out)%4 != 0 || len(out) > 2*len(b)+4 {
			t.Fatalf("%d input bytes gave %d output bytes", len(b), len(out))
		}
	})
}
