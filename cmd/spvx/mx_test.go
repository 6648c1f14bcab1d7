package main

import (
	"bytes"
	"encoding/binary"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"spvx/checkpoint"
	"spvx/internal/tensorfile"
	"spvx/mx"
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
		{[]string{"mx"}, exitUsage, "no subcommand; give one of types"},
		{[]string{"mx", "bogus"}, exitUsage, "unknown subcommand"},
		{[]string{"mx", "decode", "-t", "e9m9", "1"}, exitUsage, "unknown format"},
		{[]string{"mx", "decode", "-t", "e2m1", "16"}, exitRejected, "bad e2m1 code"},
		{[]string{"mx", "decode", "1"}, exitUsage, "-t TYPE is required"},
		{[]string{"mx", "encode", "-t", "e4m3", "abc"}, exitRejected, "bad value"},
		{[]string{"mx", "encode", "-t", "e4m3", "-r", "up", "1"}, exitUsage, "unknown rounding mode"},
		{[]string{"mx", "encode", "-t", "e4m3", "--nope", "1"}, exitUsage, "unknown flag --nope"},
		{[]string{"mx", "quantize", "-f", "mxfp4", "-i", "x.npy", "-o", "y.safetensors", "--layout", "gpt-oss"}, exitUsage,
			"--layout is for a .safetensors checkpoint, but -i x.npy is a single tensor"},
		{[]string{"mx", "dequantize", "-i", "x.safetensors", "-o", "y.npy", "--dtype", "f16"}, exitUsage,
			"--dtype is for a .safetensors checkpoint, but -o y.npy is a single tensor"},
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
	for _, sub := range []string{"types", "decode", "encode", "table", "quantize", "dequantize", "convert", "inspect"} {
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
	// A tick per positive finite code: 0.5 … 6, with 0.5 subnormal and 6 the largest.
	b, err := os.ReadFile(svg)
	ticks := bytes.Count(b, []byte(`class="normal"`)) + bytes.Count(b, []byte(`class="subnormal"`)) + bytes.Count(b, []byte(`class="max"`))
	if err != nil || !bytes.HasPrefix(b, []byte("<svg")) || ticks != 7 || !bytes.Contains(b, []byte(`class="subnormal" data-code="1"`)) {
		t.Errorf("SVG: %v, %d ticks", err, ticks)
	}
	out, errs, code = runCLI(t, nil, "mx", "table", "--all", "--svg", svg, "--force")
	if code != exitOK || !strings.Contains(out, "# e4m3 (Float8E4M3EXT)\n") {
		t.Errorf("mx table --all: exit %d %s", code, errs)
	}
	if _, _, code = runCLI(t, nil, "mx", "table", "--all", "-t", "e2m1"); code != exitUsage {
		t.Errorf("--all with -t: exit %d", code)
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
	newQ, newNPY := filepath.Join(dir, "new.safetensors"), filepath.Join(dir, "new.npy")
	qbad := write("qb.safetensors", []byte("\xff\xff\xff\xff\xff\xff\xff\x7fjunk"))
	wrongMeta := write("wm.safetensors", bytes.Replace(bytes.Replace(qb, []byte(`"shape":"[4]"`), []byte(`"shape":"[9]"`), 1), []byte(`"elements":"4"`), []byte(`"elements":"9"`), 1))
	wrongCount := write("wc.safetensors", bytes.Replace(qb, []byte(`"elements":"4"`), []byte(`"elements":"5"`), 1))
	tests := []struct {
		args []string
		msg  string
	}{
		{[]string{"quantize", "-f", "mxfp4", "-i", f64, "-o", newQ}, `unsupported dtype "<f8"`},
		{[]string{"quantize", "-f", "mxfp4", "-i", trunc, "-o", newQ}, "truncated"},
		{[]string{"quantize", "-f", "mxfp4", "-i", odd, "-o", newQ}, "not a multiple of 4"},
		{[]string{"quantize", "-f", "mxfp4", "-i", unknown, "-o", newQ}, "unknown input type"},
		{[]string{"dequantize", "-i", qtrunc, "-o", newNPY}, "outside"},
		{[]string{"dequantize", "-i", qbad, "-o", newNPY}, "exceeds the file size"},
		{[]string{"dequantize", "-i", npy, "-o", newNPY}, "a.npy is a float32 tensor, not an MX one: nothing to dequantize"},
		{[]string{"dequantize", "-i", qbad, "-o", npy}, "a.npy exists; use --force to overwrite"},
		{[]string{"quantize", "-f", "mxfp4", "-i", npy, "-o", q}, "q.safetensors exists; use --force to overwrite"},
		{[]string{"dequantize", "-i", wrongMeta, "-o", newNPY}, "blocks tensor has 2 bytes"},
		{[]string{"dequantize", "-i", wrongCount, "-o", newNPY}, `metadata elements "5" disagrees with shape [4]`},
	}
	for _, tc := range tests {
		_, errs, code := runCLI(t, nil, append([]string{"mx"}, tc.args...)...)
		if code != exitRejected || !strings.Contains(errs, tc.msg) {
			t.Errorf("spvx mx %s: exit %d, %q; want 1 containing %q", strings.Join(tc.args, " "), code, errs, tc.msg)
		}
	}
}

// quantizedFile builds a safetensors file as spvx mx quantize writes it,
// with the given metadata and tensor sizes, for crafted-metadata tests.
func quantizedFile(t testing.TB, meta map[string]string, nScales, nBlocks int) []byte {
	t.Helper()
	st := &tensorfile.SafeTensors{
		Tensors: []tensorfile.Tensor{
			{Name: "scales", DType: "U8", Shape: []int{nScales}, Data: make([]byte, nScales)},
			{Name: "blocks", DType: "U8", Shape: []int{nBlocks}, Data: make([]byte, nBlocks)},
		},
		Metadata: meta,
	}
	var buf bytes.Buffer
	if err := tensorfile.WriteSafeTensors(&buf, st); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestMXSizeArithmetic: block sizes and shapes whose derived sizes wrap
// (n+k−1, 4k, 6n, products of dimensions) are rejected with a clear error
// and exit status, from the command line and from a file's metadata, and
// never reach an allocation or an index.
func TestMXSizeArithmetic(t *testing.T) {
	dir := t.TempDir()
	npy := filepath.Join(dir, "a.npy")
	big := make([]float32, 70000) // above mx's parallel threshold
	writeNPY(t, npy, big, []int{len(big)})
	for _, k := range []string{"0", "-1", "1048577", "2147483648", "4294967296", "9007199254740992", "2305843009213693952", "4611686018427387904", "9223372036854775807"} {
		_, errs, code := runCLI(t, nil, "mx", "quantize", "-f", "mxfp4", "--block", k, "-i", npy, "-o", filepath.Join(dir, "q"))
		if code != exitUsage || !strings.Contains(errs, "--block "+k+": want 1 to 1048576") {
			t.Errorf("--block %s: exit %d, %q", k, code, errs)
		}
	}
	for _, k := range []string{"1", "1048576"} {
		if _, errs, code := runCLI(t, nil, "mx", "quantize", "-f", "mxfp6_e2m3", "--block", k, "-i", npy, "-o", filepath.Join(dir, "q"), "--force"); code != exitOK {
			t.Errorf("--block %s: exit %d, %s", k, code, errs)
		}
	}
	meta := func(format, block, shape string) map[string]string {
		return map[string]string{"format": format, "block_size": block, "shape": shape}
	}
	tests := []struct {
		name            string
		meta            map[string]string
		nScales, nBytes int
		msg             string
	}{
		{"block 2^61", meta("mxfp4", "2305843009213693952", "[70000]"), 1, 35000, "block_size"},
		{"block 2^63-1", meta("mxfp4", "9223372036854775807", "[70000]"), 1, 35000, "block_size"},
		{"block 2^31", meta("mxfp8_e4m3", "2147483648", "[4]"), 1, 4, "block_size"},
		{"block 2^32", meta("mxfp8_e4m3", "4294967296", "[4]"), 1, 4, "block_size"},
		{"block 2^53", meta("mxfp8_e4m3", "9007199254740992", "[4]"), 1, 4, "block_size"},
		{"block 2^62", meta("mxfp8_e4m3", "4611686018427387904", "[4]"), 1, 4, "block_size"},
		{"block 0", meta("mxfp8_e4m3", "0", "[4]"), 1, 4, "block_size"},
		{"block beyond int", meta("mxfp8_e4m3", "9223372036854775808", "[4]"), 1, 4, "block_size"},
		// 6 × 3074457345618258603 wraps to 2, so the old byte count was 1.
		{"mxfp6 6n wraps", meta("mxfp6_e3m2", "32", "[3074457345618258603]"), 1, 1, "blocks tensor has 1 bytes"},
		{"shape 2^31", meta("mxfp4", "32", "[2147483648]"), 1, 1, "blocks tensor has 1 bytes"},
		{"shape 2^32", meta("mxfp4", "32", "[4294967296]"), 1, 1, "blocks tensor has 1 bytes"},
		{"shape 2^53", meta("mxint8", "32", "[9007199254740992]"), 1, 1, "blocks tensor has 1 bytes"},
		{"shape 2^61", meta("mxfp8_e5m2", "32", "[2305843009213693952]"), 1, 1, "blocks tensor has 1 bytes"},
		{"shape 2^62", meta("mxfp4", "32", "[4611686018427387904]"), 1, 1, "blocks tensor has 1 bytes"},
		{"shape 2^63-1", meta("mxfp6_e2m3", "32", "[9223372036854775807]"), 1, 1, "blocks tensor has 1 bytes"},
		{"shape product wraps to 0", meta("mxfp4", "32", "[4294967296,4294967296]"), 0, 0, "overflows"},
		{"shape product wraps to 2", meta("mxfp4", "32", "[2,9223372036854775807,3]"), 1, 1, "overflows"},
		{"shape wraps before 0", meta("mxfp4", "32", "[4294967296,4294967296,0]"), 0, 0, "overflows"},
		{"scales short", meta("mxfp4", "1", "[64]"), 63, 32, "scales tensor has 63 bytes"},
		{"negative dimension", meta("mxfp4", "32", "[-4]"), 1, 2, "bad dimension"},
	}
	for _, tc := range tests {
		in := filepath.Join(dir, "m.safetensors")
		if err := os.WriteFile(in, quantizedFile(t, tc.meta, tc.nScales, tc.nBytes), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, src := range []string{in, "-"} {
			stdin, _ := os.ReadFile(in)
			_, errs, code := runCLI(t, stdin, "mx", "dequantize", "-i", src, "-o", filepath.Join(dir, "o.npy"))
			if code != exitRejected || !strings.Contains(errs, tc.msg) {
				t.Errorf("%s (-i %s): exit %d, %q; want 1 containing %q", tc.name, src, code, errs, tc.msg)
			}
		}
	}
	// Block size 2^20 from metadata, through the parallel path.
	q := filepath.Join(dir, "q.safetensors")
	if _, errs, code := runCLI(t, nil, "mx", "quantize", "-f", "mxfp8_e4m3", "--block", "1048576", "-i", npy, "-o", q); code != exitOK {
		t.Fatal(errs)
	}
	if _, errs, code := runCLI(t, nil, "mx", "dequantize", "-i", q, "-o", filepath.Join(dir, "o.npy")); code != exitOK {
		t.Error(errs)
	}
}

// TestMXStreamsRejectedEarly: a stream that cannot be the input's format
// is rejected from its first bytes, and an endless one never read to the
// limit: the test would run for seconds and allocate a gigabyte otherwise.
func TestMXStreamsRejectedEarly(t *testing.T) {
	npyHeader := func(shape string) []byte {
		h := "{'descr': '<f4', 'fortran_order': False, 'shape': " + shape + ", }\n"
		return append(append([]byte("\x93NUMPY\x01\x00"), byte(len(h)), 0), h...)
	}
	stHeader := binary.LittleEndian.AppendUint64(nil, 1000)
	tests := []struct {
		name string
		in   io.Reader
		args []string
		msg  string
	}{
		{"quantize zeros", endless(0), []string{"quantize", "-f", "mxfp4"}, "unknown input type"},
		{"quantize text", endless('y'), []string{"quantize", "-f", "mxfp4"}, "unknown input type"},
		{"quantize npy, huge shape", io.MultiReader(bytes.NewReader(npyHeader("(1073741824,)")), endless(0)), []string{"quantize", "-f", "mxfp4"}, "more than the input limit"},
		{"quantize npy, wrapping shape", io.MultiReader(bytes.NewReader(npyHeader("(4611686018427387905,)")), endless(0)), []string{"quantize", "-f", "mxfp4"}, "overflows"},
		{"quantize npy, wrong dtype", io.MultiReader(bytes.NewReader(bytes.Replace(npyHeader("(4,)"), []byte("<f4"), []byte("<f8"), 1)), endless(0)), []string{"quantize", "-f", "mxfp4"}, "unsupported dtype"},
		{"quantize npy, endless data", io.MultiReader(bytes.NewReader(npyHeader("(1000,)")), endless(0)), []string{"quantize", "-f", "mxfp4"}, "larger than 4071 bytes"},
		{"dequantize zeros", endless(0), []string{"dequantize"}, "header length 0 is too short"},
		{"dequantize text", endless('y'), []string{"dequantize"}, "exceeds the file size"},
		{"dequantize not JSON", io.MultiReader(bytes.NewReader(stHeader), endless('y')), []string{"dequantize"}, "starts with 'y'"},
	}
	for _, tc := range tests {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		start := time.Now()
		var out, errb bytes.Buffer
		args := append(append([]string{"mx"}, tc.args...), "-i", "-", "-o", filepath.Join(t.TempDir(), "out"))
		code := run(args, stdio{tc.in, &out, &errb})
		elapsed := time.Since(start)
		runtime.ReadMemStats(&after)
		if code != exitRejected || !strings.Contains(errb.String(), tc.msg) {
			t.Errorf("%s: exit %d, %q; want 1 containing %q", tc.name, code, errb.String(), tc.msg)
		}
		if d := after.TotalAlloc - before.TotalAlloc; d > 4<<20 {
			t.Errorf("%s: allocated %d bytes", tc.name, d)
		}
		if elapsed > 2*time.Second {
			t.Errorf("%s: took %v", tc.name, elapsed)
		}
	}
	// A .npy on a stream is read to exactly its size and quantized.
	var buf bytes.Buffer
	tensorfile.WriteNPY(&buf, []float32{1, 2, 3, 4}, []int{2, 2})
	st, errs, code := runCLI(t, buf.Bytes(), "mx", "quantize", "-f", "mxfp8_e4m3", "-i", "-", "-o", "-")
	if code != exitOK {
		t.Fatal(errs)
	}
	back, errs, code := runCLI(t, []byte(st), "mx", "dequantize", "-i", "-", "-o", "-")
	if code != exitOK {
		t.Fatal(errs)
	}
	if got, shape, err := tensorfile.ReadNPY([]byte(back)); err != nil || !reflect.DeepEqual(got, []float32{1, 2, 3, 4}) || !reflect.DeepEqual(shape, []int{2, 2}) {
		t.Errorf("stdin round trip: %v %v %v", got, shape, err)
	}
	// /dev/zero named on the command line is a stream too.
	if _, err := os.Stat("/dev/zero"); err == nil {
		for _, args := range [][]string{{"quantize", "-f", "mxfp4", "-i", "/dev/zero"}, {"dequantize", "-i", "/dev/zero"}} {
			done := make(chan int, 1)
			go func() {
				_, _, code := runCLI(t, nil, append(append([]string{"mx"}, args...), "-o", filepath.Join(t.TempDir(), "o"))...)
				done <- code
			}()
			select {
			case code := <-done:
				if code != exitRejected {
					t.Errorf("spvx mx %v: exit %d", args, code)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("spvx mx %v kept reading /dev/zero", args)
			}
		}
	}
}

// TestMXHelpOnce: --help prints the usage once, on stdout; a bad flag
// prints one line on stderr, naming the flag and where the help is.
func TestMXHelpOnce(t *testing.T) {
	for _, sub := range []string{"types", "decode", "encode", "table", "quantize", "dequantize", "convert", "inspect"} {
		for _, h := range []string{"-h", "--help"} {
			out, errs, code := runCLI(t, nil, "mx", sub, h)
			if code != exitOK || strings.Count(out, "usage:") != 1 || errs != "" {
				t.Errorf("spvx mx %s %s: exit %d, %d usages on stdout, stderr %q", sub, h, code, strings.Count(out, "usage:"), errs)
			}
		}
		out, errs, code := runCLI(t, nil, "mx", sub, "--bogus")
		want := "spvx mx " + sub + ": unknown flag --bogus (run 'spvx mx " + sub + " --help')\n"
		if code != exitUsage || errs != want || out != "" {
			t.Errorf("spvx mx %s --bogus: exit %d, stdout %q, stderr %q", sub, code, out, errs)
		}
	}
}

func TestMXTypesNaNColumn(t *testing.T) {
	out, _, _ := runCLI(t, nil, "mx", "types")
	want := map[string]string{"e2m1": "none", "e4m3": "0x7f 0xff", "e5m2": "0x7d-0x7f 0xfd-0xff", "e8m0": "0xff", "mxint8": "none"}
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if w, ok := want[f[0]]; ok && !strings.HasSuffix(line, " "+w) {
			t.Errorf("mx types: %q does not end in %q", line, w)
		}
	}
}

// FuzzQuantizeFile feeds bytes to spvx mx quantize (as .npy on standard
// input, and as raw float32) and to spvx mx dequantize (as .safetensors on
// standard input), with a fuzzed format, block size and rounding, and
// dequantizes what quantize accepts. Nothing may panic; every rejection
// is exit 1 or 2 with a message; every accepted input round-trips.
func FuzzQuantizeFile(f *testing.F) {
	var npy bytes.Buffer
	tensorfile.WriteNPY(&npy, []float32{1, -2, 3.5, 0, 448, 1e-3, -7, 6}, []int{2, 4})
	f.Add(npy.Bytes(), uint8(0), int64(32), false)
	f.Add(npy.Bytes(), uint8(2), int64(3), true)
	f.Add(npy.Bytes(), uint8(4), int64(1), false)
	f.Add(npy.Bytes(), uint8(3), int64(9223372036854775807), false)
	f.Add(npy.Bytes(), uint8(1), int64(2305843009213693952), false)
	f.Add(quantizedFile(f, map[string]string{"format": "mxfp6_e3m2", "block_size": "32", "shape": "[3074457345618258603]"}, 1, 1), uint8(2), int64(32), false)
	f.Add(quantizedFile(f, map[string]string{"format": "mxfp4", "block_size": "2", "shape": "[4]", "elements": "4"}, 2, 2), uint8(4), int64(2), false)
	f.Add([]byte("\x93NUMPY\x01\x00\x40\x00{'descr': '<f4', 'fortran_order': False, 'shape': (4611686018427387905,), }"), uint8(0), int64(32), false)
	f.Fuzz(func(t *testing.T, b []byte, format uint8, block int64, away bool) {
		bf := mx.BlockFormats[int(format)%len(mx.BlockFormats)]
		round := "even"
		if away {
			round = "away"
		}
		k := strconv.FormatInt(block, 10)
		check := func(what string, code int, errs string) {
			if code != exitOK && (code != exitRejected && code != exitUsage || errs == "") {
				t.Fatalf("%s: exit %d, stderr %q", what, code, errs)
			}
		}
		st, errs, code := runCLI(t, b, "mx", "quantize", "-f", bf.String(), "--block", k, "--round", round, "-i", "-", "-o", "-")
		check("quantize .npy", code, errs)
		if code == exitOK {
			back, errs, code := runCLI(t, []byte(st), "mx", "dequantize", "-i", "-", "-o", "-")
			if code != exitOK {
				t.Fatalf("dequantize of quantize's output: exit %d, %s", code, errs)
			}
			want, wantShape, _ := tensorfile.ReadNPY(b)
			got, shape, err := tensorfile.ReadNPY([]byte(back))
			if err != nil || len(got) != len(want) || !reflect.DeepEqual(shape, wantShape) {
				t.Fatalf("round trip: %d values %v, want %d %v (%v)", len(got), shape, len(want), wantShape, err)
			}
		}
		if block >= mx.MinBlockSize && block <= mx.MaxBlockSize {
			data, shape, err := checkpoint.ReadFloat32(b, ".f32")
			if err == nil {
				_, err = checkpoint.QuantizeTensor(data, shape, checkpoint.TensorOptions{Format: bf, BlockSize: int(block)})
			}
			if err != nil && len(b)%4 == 0 && !tensorfile.IsNPY(b) {
				t.Fatalf("raw float32 of %d bytes rejected: %v", len(b), err)
			}
		}
		_, errs, code = runCLI(t, b, "mx", "dequantize", "-i", "-", "-o", "-")
		check("dequantize", code, errs)
	})
}
