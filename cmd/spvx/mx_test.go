package main

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"spvx/internal/tensorfile"
)

// runCLI runs spvx in-process and returns stdout, stderr and the status.
func runCLI(t *testing.T, stdin []byte, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, stdio{bytes.NewReader(stdin), &out, &errb})
	return out.String(), errb.String(), code
}

func TestMXDecodeEncode(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"mx", "decode", "-t", "e4m3", "0x7e", "0x7f", "0x80", "1"}, "0x7e 448\n0x7f NaN\n0x80 -0\n0x01 0.001953125\n"},
		{[]string{"mx", "decode", "-t", "FLOAT8E5M2EXT", "0x7c", "252", "0x7b"}, "0x7c +Inf\n0xfc -Inf\n0x7b 57344\n"},
		{[]string{"mx", "decode", "-t", "e8m0", "0", "127", "0xff"}, "0x00 5.877471754111438e-39\n0x7f 1\n0xff NaN\n"},
		{[]string{"mx", "decode", "-t", "mxint8", "0x80", "0x7f"}, "0x80 -2\n0x7f 1.984375\n"},
		{[]string{"mx", "encode", "-t", "e4m3", "-1.5", "464", "500", "inf", "-nan"}, "0xbc\n0x7e\n0x7f\n0x7f\n0xff\n"},
		{[]string{"mx", "encode", "-t", "e4m3", "--sat", "500", "-inf"}, "0x7e\n0xfe\n"},
		{[]string{"mx", "encode", "-t", "e2m1", "-r", "rtz", "5.9", "0x1.8p1"}, "0x06\n0x05\n"},
		{[]string{"mx", "encode", "-t", "e2m1", "--bits", "0x3fc00000", "0xc0c00000"}, "0x03\n0x0f\n"},
		{[]string{"mx", "encode", "-t", "e8m0", "1.5", "3", "0"}, "0x80\n0x81\n0xff\n"},
		{[]string{"mx", "encode", "-t", "e5m2", "-r", "rtp", "1.01", "--", "-1.01"}, "0x3d\n0xbc\n"},
	}
	for _, tc := range tests {
		out, errs, code := runCLI(t, nil, tc.args...)
		if code != exitOK || out != tc.want {
			t.Errorf("spvx %s = %q (exit %d, %s), want %q", strings.Join(tc.args, " "), out, code, errs, tc.want)
		}
	}
}

func TestMXErrors(t *testing.T) {
	tests := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"mx"}, exitUsage, "usage"},
		{[]string{"mx", "bogus"}, exitUsage, "unknown subcommand"},
		{[]string{"mx", "decode", "-t", "e9m9", "1"}, exitUsage, "unknown format"},
		{[]string{"mx", "decode", "-t", "e2m1", "16"}, exitRejected, "bad e2m1 code"},
		{[]string{"mx", "decode", "1"}, exitUsage, "-t TYPE is required"},
		{[]string{"mx", "encode", "-t", "e4m3", "abc"}, exitRejected, "bad value"},
		{[]string{"mx", "encode", "-t", "e4m3", "-r", "up", "1"}, exitUsage, "unknown rounding mode"},
		{[]string{"mx", "encode", "-t", "e4m3", "--nope", "1"}, exitUsage, "flag provided but not defined"},
		{[]string{"mx", "quantize", "-f", "mxfp5", "-i", "x.npy", "-o", "y"}, exitUsage, "unknown MX format"},
		{[]string{"mx", "quantize", "-f", "mxfp4", "-i", "/nonexistent.npy", "-o", "y"}, exitRejected, "no such file"},
	}
	for _, tc := range tests {
		_, errs, code := runCLI(t, nil, tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.msg) {
			t.Errorf("spvx %s: exit %d, stderr %q; want exit %d containing %q", strings.Join(tc.args, " "), code, errs, tc.code, tc.msg)
		}
	}
}

func TestMXHelp(t *testing.T) {
	for _, sub := range []string{"types", "decode", "encode", "table", "quantize", "dequantize"} {
		out, _, code := runCLI(t, nil, "mx", sub, "--help")
		if code != exitOK || !strings.Contains(out, "usage: spvx mx "+sub) {
			t.Errorf("spvx mx %s --help: exit %d, %q", sub, code, out)
		}
	}
}

func TestMXTypesAndTable(t *testing.T) {
	out, _, code := runCLI(t, nil, "mx", "types")
	if code != exitOK || !strings.Contains(out, "Float8E4M3EXT") || strings.Count(out, "\n") != 8 {
		t.Errorf("mx types: exit %d\n%s", code, out)
	}
	svg := filepath.Join(t.TempDir(), "e2m1.svg")
	out, errs, code := runCLI(t, nil, "mx", "table", "-t", "e2m1", "--svg", svg)
	if code != exitOK || strings.Count(out, "\n") != 16 || !strings.HasPrefix(out, "0x00 0\n0x01 0.5\n") || !strings.Contains(out, "0x0f -6\n") {
		t.Errorf("mx table: exit %d %s\n%s", code, errs, out)
	}
	b, err := os.ReadFile(svg)
	if err != nil || !bytes.HasPrefix(b, []byte("<svg")) || bytes.Count(b, []byte("<circle")) != 7 {
		t.Errorf("SVG: %v, %d circles", err, bytes.Count(b, []byte("<circle")))
	}
}

func writeNPY(t *testing.T, path string, data []float32, shape []int) {
	t.Helper()
	var buf bytes.Buffer
	if err := tensorfile.WriteNPY(&buf, data, shape); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestMXQuantizeRoundTrip(t *testing.T) {
	dir := t.TempDir()
	data := make([]float32, 2*35)
	for i := range data {
		data[i] = float32(math.Sin(float64(i))) * float32(i+1)
	}
	in := filepath.Join(dir, "w.npy")
	writeNPY(t, in, data, []int{2, 35})
	for _, f := range []string{"mxfp8_e4m3", "mxfp8_e5m2", "mxfp6_e3m2", "mxfp6_e2m3", "mxfp4", "mxint8"} {
		q := filepath.Join(dir, f+".safetensors")
		if _, errs, code := runCLI(t, nil, "mx", "quantize", "-f", f, "--block", "16", "-i", in, "-o", q); code != exitOK {
			t.Fatalf("quantize %s: %s", f, errs)
		}
		raw, _ := os.ReadFile(q)
		st, err := tensorfile.ReadSafeTensors(raw)
		if err != nil {
			t.Fatal(err)
		}
		if st.Metadata["format"] != f || st.Metadata["block_size"] != "16" || st.Metadata["shape"] != "[2,35]" {
			t.Errorf("%s: metadata %v", f, st.Metadata)
		}
		if s := st.Tensor("scales"); s == nil || len(s.Data) != 5 {
			t.Errorf("%s: scales tensor %+v", f, s)
		}
		out := filepath.Join(dir, f+".npy")
		if _, errs, code := runCLI(t, nil, "mx", "dequantize", "-i", q, "-o", out); code != exitOK {
			t.Fatalf("dequantize %s: %s", f, errs)
		}
		b, _ := os.ReadFile(out)
		got, shape, err := tensorfile.ReadNPY(b)
		if err != nil || len(got) != len(data) || len(shape) != 2 || shape[0] != 2 || shape[1] != 35 {
			t.Fatalf("%s: dequantized %v %v", f, shape, err)
		}
		// Every element within 1/4 of its block's largest magnitude: a
		// loose bound that still catches a wrong scale, sign or order.
		for i := range data {
			blk := data[i/16*16 : min(i/16*16+16, len(data))]
			var amax float64
			for _, v := range blk {
				amax = math.Max(amax, math.Abs(float64(v)))
			}
			if d := math.Abs(float64(got[i] - data[i])); d > amax/4 {
				t.Fatalf("%s: element %d: %v vs %v", f, i, got[i], data[i])
			}
		}
	}
}

func TestMXQuantizeStdinRaw(t *testing.T) {
	var raw []byte
	for _, v := range []float32{1, 2, 3, -6} {
		raw = binary.LittleEndian.AppendUint32(raw, math.Float32bits(v))
	}
	dir := t.TempDir()
	f32 := filepath.Join(dir, "x.f32")
	os.WriteFile(f32, raw, 0o644)
	st, errs, code := runCLI(t, nil, "mx", "quantize", "-f", "mxfp4", "-i", f32, "-o", "-")
	if code != exitOK {
		t.Fatal(errs)
	}
	out, errs, code := runCLI(t, []byte(st), "mx", "dequantize", "-i", "-", "-o", filepath.Join(dir, "y.f32"))
	if code != exitOK || out != "" {
		t.Fatal(errs)
	}
	back, _ := os.ReadFile(filepath.Join(dir, "y.f32"))
	if !bytes.Equal(back, raw) {
		t.Errorf("exact values did not survive the MXFP4 round trip: % x", back)
	}
}

func TestMXFileErrors(t *testing.T) {
	dir := t.TempDir()
	npy := filepath.Join(dir, "a.npy")
	writeNPY(t, npy, []float32{1, 2, 3, 4}, []int{4})
	good, _ := os.ReadFile(npy)
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, b, 0o644)
		return p
	}
	f64 := write("f64.npy", bytes.Replace(good, []byte("<f4"), []byte("<f8"), 1))
	trunc := write("trunc.npy", good[:len(good)-2])
	odd := write("odd.bin", []byte{1, 2, 3})
	unknown := write("x.txt", []byte("1 2 3"))
	q := filepath.Join(dir, "q.safetensors")
	if _, errs, code := runCLI(t, nil, "mx", "quantize", "-f", "mxfp4", "-i", npy, "-o", q); code != exitOK {
		t.Fatal(errs)
	}
	qb, _ := os.ReadFile(q)
	qtrunc := write("qt.safetensors", qb[:len(qb)-1])
	qbad := write("qb.safetensors", []byte("\xff\xff\xff\xff\xff\xff\xff\x7fjunk"))
	wrongMeta := write("wm.safetensors", bytes.Replace(qb, []byte(`"shape":"[4]"`), []byte(`"shape":"[9]"`), 1))
	tests := []struct {
		args []string
		msg  string
	}{
		{[]string{"quantize", "-f", "mxfp4", "-i", f64, "-o", q}, `unsupported dtype "<f8"`},
		{[]string{"quantize", "-f", "mxfp4", "-i", trunc, "-o", q}, "truncated"},
		{[]string{"quantize", "-f", "mxfp4", "-i", odd, "-o", q}, "not a multiple of 4"},
		{[]string{"quantize", "-f", "mxfp4", "-i", unknown, "-o", q}, "unknown input type"},
		{[]string{"dequantize", "-i", qtrunc, "-o", npy}, "outside"},
		{[]string{"dequantize", "-i", qbad, "-o", npy}, "exceeds the file size"},
		{[]string{"dequantize", "-i", npy, "-o", npy}, "header"},
		{[]string{"dequantize", "-i", wrongMeta, "-o", npy}, "blocks tensor has 2 bytes"},
	}
	for _, tc := range tests {
		_, errs, code := runCLI(t, nil, append([]string{"mx"}, tc.args...)...)
		if code != exitRejected || !strings.Contains(errs, tc.msg) {
			t.Errorf("spvx mx %s: exit %d, %q; want 1 containing %q", strings.Join(tc.args, " "), code, errs, tc.msg)
		}
	}
}
