package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"spvx/checkpoint"
	"spvx/diagram"
	"spvx/internal/tensorfile"
	"spvx/mx"
)

const mxUsage = `usage: spvx mx <subcommand> [flags] [arguments]

subcommands:
  types                                    table of every format's parameters
  decode -t TYPE CODE...                   value of each code (decimal or 0x hex)
  encode -t TYPE [-r MODE] [--sat] [--bits] VALUE...
                                           code of each value (decimal, hex float,
                                           inf, -inf, nan; --bits: float32 bits)
  table -t TYPE [--svg FILE [--force]]     every code with its value (--all: every
                                           format, one picture on a common scale)
  quantize -f FORMAT [--block N] [--round even|away] [--force] -i IN -o OUT
                                           .npy/.f32/.bin float32 -> .safetensors
                                           (N: 1 to 1048576, default 32)
  quantize -f FORMAT [--layout spvx|gpt-oss] [--include GLOB] [--exclude GLOB]
           [--stats] [--force] -i MODEL.safetensors -o OUT.safetensors
                                           a whole checkpoint (or a sharded one:
                                           model.safetensors.index.json);
                                           --force overwrites existing outputs
  dequantize [--force] -i IN -o OUT        .safetensors from quantize -> .npy (or
                                           raw .f32/.bin)
  dequantize [--dtype bf16|f16|f32] [--force] -i IN.safetensors -o OUT.safetensors
                                           a quantized checkpoint, either layout
  convert --to gguf|safetensors [--layout spvx|gpt-oss] [--force] -i IN -o OUT
                                           MXFP4 weights between safetensors and
                                           GGUF, or between layouts, bit for bit
  inspect [--svg OUT.svg [--force]] FILE   tensors of a .safetensors or .gguf file,
                                           with MX tensors' scale histograms
  gguf info FILE                           tensors and metadata of a GGUF file

TYPE: e2m1 e2m3 e3m2 e4m3 e5m2 e8m0 mxint8, or a SPIR-V FPEncoding name
MODE: rte (default) rtz rtp rtn
FORMAT: mxfp8_e4m3 mxfp8_e5m2 mxfp6_e3m2 mxfp6_e2m3 mxfp4 mxint8
"-" as IN or OUT means standard input or output. An existing output file is
never overwritten without --force.
`

// runMX dispatches the `spvx mx` subcommands.
func runMX(args []string, s stdio) int {
	subs := []string{"types", "decode", "encode", "table", "quantize", "dequantize", "convert", "inspect", "gguf"}
	if len(args) == 0 {
		return newFlagSet("mx", "", s).usageErr("no subcommand; give one of " + strings.Join(subs, ", "))
	}
	sub, rest := args[0], args[1:]
	switch sub {
	case "-h", "-help", "--help", "help":
		fmt.Fprint(s.out, mxUsage)
		return exitOK
	case "types":
		return mxTypes(rest, s)
	case "decode":
		return mxDecode(rest, s)
	case "encode":
		return mxEncode(rest, s)
	case "table":
		return mxTable(rest, s)
	case "quantize":
		return mxQuantizeCmd(rest, s)
	case "dequantize":
		return mxDequantizeCmd(rest, s)
	case "convert":
		return mxConvert(rest, s)
	case "inspect":
		return mxInspect(rest, s, "inspect")
	case "gguf":
		return mxGGUF(rest, s)
	}
	hint := ""
	if m := closest(sub, subs); m != "" {
		hint = fmt.Sprintf("; did you mean %q?", m)
	}
	return newFlagSet("mx", "", s).usageErr(fmt.Sprintf("unknown subcommand %q%s", sub, hint))
}

// formatValue prints a decoded value per the CLI contract: Go's shortest
// 'g' form, NaN, +Inf, -Inf, and -0 for negative zero.
func formatValue(v float64) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	case v == 0 && math.Signbit(v):
		return "-0"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

func mxTypes(args []string, s stdio) int {
	fs := newFlagSet("mx types", "spvx mx types", s)
	pos, code, ok := fs.parse(args)
	if !ok {
		return code
	}
	if len(pos) > 0 {
		return fs.usageErr("takes no arguments")
	}
	fmt.Fprintf(s.out, "%-7s %-22s %4s %4s %-6s %4s %4s %-14s %-22s %-22s %-3s %s\n",
		"name", "SPIR-V FPEncoding", "enc", "bits", "s/e/m", "bias", "emax", "max", "min normal", "min subnormal", "inf", "nan")
	for _, f := range mx.Formats {
		sem := fmt.Sprintf("1/%d/%d", f.ExponentBits(), f.MantissaBits())
		switch f {
		case mx.E8M0:
			sem = "0/8/0"
		case mx.MXINT8:
			sem = "int8"
		}
		fmt.Fprintf(s.out, "%-7s %-22s %4d %4d %-6s %4d %4d %-14s %-22s %-22s %-3s %s\n",
			f, f.SPIRVName(), f.FPEncoding(), f.Bits(), sem, f.Bias(), f.EmaxElem(),
			formatValue(f.Max()), formatValue(f.MinNormal()), formatValue(f.MinSubnormal()),
			yesNo(f.HasInf()), nanCodes(f))
	}
	return exitOK
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// nanCodes spells f's NaN codes (mx.Format.NaNCodes) with runs of
// consecutive codes as ranges: "0x7f 0xff", "0x7d-0x7f 0xfd-0xff", "none".
func nanCodes(f mx.Format) string {
	codes := f.NaNCodes()
	if len(codes) == 0 {
		return "none"
	}
	var parts []string
	for i := 0; i < len(codes); {
		j := i
		for j+1 < len(codes) && codes[j+1] == codes[j]+1 {
			j++
		}
		if j == i {
			parts = append(parts, fmt.Sprintf("%#02x", codes[i]))
		} else {
			parts = append(parts, fmt.Sprintf("%#02x-%#02x", codes[i], codes[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, " ")
}

func formatFlag(fs *cmdFlags) *string {
	return fs.String("t", "", "element `TYPE`: e2m1 e2m3 e3m2 e4m3 e5m2 e8m0 mxint8 or a SPIR-V FPEncoding name")
}

func lookupFormat(fs *cmdFlags, name string) (mx.Format, int) {
	if name == "" {
		return 0, fs.usageErr("-t TYPE is required")
	}
	f, err := mx.ParseFormat(name)
	if err != nil {
		return 0, fs.usageErr(err.Error())
	}
	return f, 0
}

func mxDecode(args []string, s stdio) int {
	fs := newFlagSet("mx decode", "spvx mx decode -t TYPE CODE...", s)
	typ := formatFlag(fs)
	pos, code, ok := fs.parse(args)
	if !ok {
		return code
	}
	f, code := lookupFormat(fs, *typ)
	if code != 0 {
		return code
	}
	if len(pos) == 0 {
		return fs.usageErr("no CODE given")
	}
	var out bytes.Buffer
	for _, a := range pos {
		c, err := strconv.ParseUint(a, 0, 64)
		if err != nil || c >= uint64(f.Codes()) {
			return fail(s, "mx decode", fmt.Errorf("bad %s code %q: want 0 to %#x, decimal or 0x hex", f, a, f.Codes()-1))
		}
		fmt.Fprintf(&out, "0x%02x %s\n", c, formatValue(f.Decode(uint8(c))))
	}
	s.out.Write(out.Bytes())
	return exitOK
}

func mxEncode(args []string, s stdio) int {
	fs := newFlagSet("mx encode", "spvx mx encode -t TYPE [-r rte|rtz|rtp|rtn] [--sat] [--bits] VALUE...", s)
	typ := formatFlag(fs)
	mode := fs.String("r", "rte", "rounding `MODE`: rte, rtz, rtp or rtn")
	sat := fs.Bool("sat", false, "saturate: overflow and ±Inf give ±max (SPIR-V SaturatedToLargestFloat8NormalConversionEXT)")
	asBits := fs.Bool("bits", false, "each VALUE is a float32 bit pattern, e.g. 0x3fc00000")
	pos, code, ok := fs.parse(args)
	if !ok {
		return code
	}
	f, code := lookupFormat(fs, *typ)
	if code != 0 {
		return code
	}
	m, err := mx.ParseRoundingMode(*mode)
	if err != nil {
		return fs.usageErr(err.Error())
	}
	if len(pos) == 0 {
		return fs.usageErr("no VALUE given")
	}
	var out bytes.Buffer
	for _, a := range pos {
		var c uint8
		if *asBits {
			u, err := strconv.ParseUint(a, 0, 32)
			if err != nil {
				return fail(s, "mx encode", fmt.Errorf("bad float32 bit pattern %q: want e.g. 0x3fc00000", a))
			}
			c = f.EncodeFloat32(math.Float32frombits(uint32(u)), m, *sat)
		} else {
			v, err := parseValue(a)
			if err != nil {
				return fail(s, "mx encode", err)
			}
			c = f.EncodeFloat64(v, m, *sat)
		}
		fmt.Fprintf(&out, "0x%02x\n", c)
	}
	s.out.Write(out.Bytes())
	return exitOK
}

func mxTable(args []string, s stdio) int {
	fs := newFlagSet("mx table", "spvx mx table -t TYPE [--svg FILE [--force]] | spvx mx table --all --svg FILE [--force]", s)
	typ := formatFlag(fs)
	svg := fs.String("svg", "", "also draw every code and value on a log2 number line into `FILE`")
	all := fs.Bool("all", false, "every format: the table of each, and with --svg one page, one axis per format on a common log2 scale")
	force := forceFlag(fs)
	pos, code, ok := fs.parse(args)
	if !ok {
		return code
	}
	if len(pos) > 0 {
		return fs.usageErr("takes no positional arguments")
	}
	formats := mx.Formats
	if !*all || *typ != "" {
		if *all {
			return fs.usageErr("--all and -t exclude each other")
		}
		f, code := lookupFormat(fs, *typ)
		if code != 0 {
			return code
		}
		formats = []mx.Format{f}
	}
	var out bytes.Buffer
	for _, f := range formats {
		if len(formats) > 1 {
			fmt.Fprintf(&out, "# %s (%s)\n", f, f.SPIRVName())
		}
		for c := range f.Codes() {
			fmt.Fprintf(&out, "0x%02x %s\n", c, formatValue(f.Decode(uint8(c))))
		}
	}
	if *svg != "" {
		if err := writeMXOutput(*svg, s, *force, diagram.MXTableSVG(formats)); err != nil {
			return fail(s, "mx table", err)
		}
	}
	s.out.Write(out.Bytes())
	return exitOK
}

// writeMXOutputWith writes a file, or standard output for "-", with write,
// through a buffer. The file is made by checkpoint.CreateOutput, as every
// output of spvx mx is: without force an existing file is an error, not
// truncated. A failed write removes the file it made (not a device).
func writeMXOutputWith(name string, s stdio, force bool, write func(io.Writer) error) error {
	w := s.out
	var f *os.File
	if name != "-" {
		var err error
		if f, err = checkpoint.CreateOutput(name, force); err != nil {
			return err
		}
		w = f
	}
	bw := bufio.NewWriterSize(w, 256<<10)
	err := write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if f != nil {
		if err != nil {
			checkpoint.RemoveFailed(f, name)
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	return err
}

// writeMXOutput writes data to a file, or standard output for "-"
// (writeMXOutputWith).
func writeMXOutput(name string, s stdio, force bool, data []byte) error {
	return writeMXOutputWith(name, s, force, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// writeOutput writes a file, or standard output for "-", replacing an
// existing file (the commands outside spvx mx).
func writeOutput(name string, s stdio, data []byte) error {
	if name == "-" {
		_, err := s.out.Write(data)
		return err
	}
	return os.WriteFile(name, data, 0o644)
}

// checkOutputFree fails before any work if the output exists and force
// is not set (checkpoint.CheckOutputsFree); "-" is standard output.
func checkOutputFree(name string, force bool) error {
	if name == "-" {
		return nil
	}
	return checkpoint.CheckOutputsFree([]string{name}, force)
}

func mxQuantize(fs *cmdFlags, opts ckptFlags) int {
	s := fs.s
	format, block, round, in, out := opts.format, opts.block, opts.round, opts.in, opts.out
	b, err := mx.ParseBlockFormat(*format)
	if err != nil {
		return fs.usageErr(err.Error())
	}
	if *block < mx.MinBlockSize || *block > mx.MaxBlockSize {
		return fs.usageErr(fmt.Sprintf("--block %d: want %d to %d", *block, mx.MinBlockSize, mx.MaxBlockSize))
	}
	var rounding mx.Rounding
	switch *round {
	case "even":
	case "away":
		rounding = mx.TiesAway
	default:
		return fs.usageErr(fmt.Sprintf("--round %q: want even or away", *round))
	}
	if err := checkOutputFree(*out, *opts.force); err != nil {
		return fail(s, "mx quantize", err)
	}
	ext := strings.ToLower(filepath.Ext(*in))
	if *in == "-" {
		ext = ""
	}
	raw, release, err := readChecked(*in, s, func(br *bufio.Reader) (int, error) { return checkpoint.JudgeFloat32(br, ext, maxInput) })
	if err == nil && len(raw) == 0 {
		err = errors.New("empty input: no float32 values") // as every command refuses empty input
	}
	if err != nil {
		if release != nil {
			release()
		}
		return fail(s, "mx quantize", fmt.Errorf("%s: %w", *in, err))
	}
	data, shape, err := checkpoint.ReadFloat32(raw, ext)
	var st []byte
	if err == nil {
		st, err = checkpoint.QuantizeTensor(data, shape, checkpoint.TensorOptions{Format: b, BlockSize: *block, Rounding: rounding})
	}
	if release != nil {
		release()
	}
	if err != nil {
		return fail(s, "mx quantize", fmt.Errorf("%s: %w", *in, err))
	}
	if err := writeMXOutput(*out, s, *opts.force, st); err != nil {
		return fail(s, "mx quantize", err)
	}
	return exitOK
}

// judgeSafeTensorsInput rejects a dequantize input stream that cannot be
// a safetensors file (tensorfile.CheckSafeTensorsPrefix) from its first
// bytes, saying what it is when they tell (.npy, GGUF).
func judgeSafeTensorsInput(br *bufio.Reader) (int, error) {
	head, _ := br.Peek(4096)
	switch {
	case tensorfile.IsNPY(head):
		return 0, errors.New("this is a .npy float32 tensor, not an MX one: nothing to dequantize")
	case bytes.HasPrefix(head, []byte("GGUF")):
		return 0, errors.New("this is a GGUF file; dequantize reads safetensors")
	}
	if err := tensorfile.CheckSafeTensorsPrefix(head, maxInput); err != nil {
		return 0, err
	}
	return maxInput, nil
}

func mxDequantize(fs *cmdFlags, in, out string, force bool) int {
	s := fs.s
	if err := checkOutputFree(out, force); err != nil {
		return fail(s, "mx dequantize", err)
	}
	raw, release, err := readChecked(in, s, judgeSafeTensorsInput)
	if err != nil {
		return fail(s, "mx dequantize", fmt.Errorf("%s: %w", in, err))
	}
	data, shape, err := checkpoint.DequantizeTensor(raw)
	if release != nil {
		release()
	}
	if err != nil {
		return fail(s, "mx dequantize", fmt.Errorf("%s: %w", in, err))
	}
	// Written straight to the output (up to 8 float32 bytes per input
	// byte for MXFP4), not through a second copy in memory.
	err = writeMXOutputWith(out, s, force, func(w io.Writer) error {
		switch strings.ToLower(filepath.Ext(out)) {
		case ".f32", ".bin":
			return tensorfile.WriteRawFloat32(w, data)
		}
		return tensorfile.WriteNPY(w, data, shape)
	})
	if err != nil {
		return fail(s, "mx dequantize", err)
	}
	return exitOK
}
