package main

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"spvx/checkpoint"
	"spvx/mx"
)

// isCheckpoint reports whether a path names a safetensors checkpoint (a
// file or a shard index), which the checkpoint forms of quantize and
// dequantize handle.
func isCheckpoint(name string) bool {
	l := strings.ToLower(name)
	return strings.HasSuffix(l, ".safetensors") || checkpoint.IsIndex(l)
}

// progressBar draws a one-line bar on a terminal, at most every 100 ms.
type progressBar struct {
	w    io.Writer
	last time.Time
	on   bool
}

func newProgressBar(w io.Writer, enabled bool) *progressBar {
	return &progressBar{w: w, on: enabled && isTerminal(w)}
}

func (p *progressBar) update(pr checkpoint.Progress) {
	if !p.on || time.Since(p.last) < 100*time.Millisecond && pr.Done < pr.Total {
		return
	}
	p.last = time.Now()
	frac := 1.0
	if pr.Total > 0 {
		frac = float64(pr.Done) / float64(pr.Total)
	}
	const width = 30
	n := int(frac * width)
	name := pr.Tensor
	if len(name) > 40 {
		name = "..." + name[len(name)-37:]
	}
	fmt.Fprintf(p.w, "\r[%s%s] %3.0f%% %s / %s  %-40s", strings.Repeat("=", n), strings.Repeat(" ", width-n), frac*100,
		byteSize(pr.Done), byteSize(pr.Total), name)
}

func (p *progressBar) done() {
	if p.on {
		fmt.Fprint(p.w, "\r\033[K")
	}
}

func byteSize(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// writeSummary prints what a checkpoint run did: per tensor with
// verbose or stats, then the totals.
func writeSummary(w io.Writer, r *checkpoint.Report, perTensor bool, elapsed time.Duration) {
	counts := map[string]int{}
	for _, t := range r.Tensors {
		counts[t.Action]++
		if !perTensor && t.Note == "" {
			continue
		}
		if !perTensor && t.Action != "copied" && t.Action != "dropped" {
			continue
		}
		line := fmt.Sprintf("%-11s %s", t.Action, t.Name)
		if t.DType != "" {
			line += fmt.Sprintf(" %s%s", t.DType, checkpoint.ShapeString(t.Shape))
		}
		if t.Note != "" {
			line += ": " + t.Note
		}
		if t.HasStats {
			line += fmt.Sprintf("  max abs err %.6g  rmse %.6g", t.MaxAbsErr, t.RMSE)
		}
		fmt.Fprintln(w, line)
	}
	var parts []string
	for _, a := range []string{"quantized", "dequantized", "converted", "copied", "dropped"} {
		if counts[a] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[a], a))
		}
	}
	ratio := ""
	if r.InBytes > 0 {
		ratio = fmt.Sprintf(" (%.3f×)", float64(r.OutBytes)/float64(r.InBytes))
	}
	fmt.Fprintf(w, "%d file(s), %d tensors: %s; %s in, %s out%s; %.2fs\n", r.Files, len(r.Tensors), strings.Join(parts, ", "),
		byteSize(r.InBytes), byteSize(r.OutBytes), ratio, elapsed.Seconds())
}

// mxQuantizeCmd is `spvx mx quantize`: one command line, and one help
// page, for both forms; -i decides which runs (a .safetensors checkpoint,
// or a single float32 tensor).
func mxQuantizeCmd(args []string, s stdio) int {
	fs := newFlagSet("mx quantize", "spvx mx quantize -f FORMAT [--block N] [--round even|away] [--force] -i IN -o OUT\n"+
		"       a single .npy/.f32/.bin float32 tensor -> .safetensors, or a whole .safetensors\n"+
		"       checkpoint (also --layout, --include, --exclude, --stats, -q, -v)", s)
	opts := checkpointFlags(fs)
	pos, code, ok := fs.parse(args)
	if !ok {
		return code
	}
	if len(pos) > 0 || *opts.in == "" || *opts.out == "" || *opts.format == "" {
		return fs.usageErr("-f, -i and -o are required and no positional arguments are taken")
	}
	ckpt, err := quantizeRoute(*opts.in)
	switch {
	case err != nil:
		return fail(s, "mx quantize", err)
	case ckpt:
		return quantizeCheckpoint(fs, opts)
	}
	if f := checkpointOnly(fs, "f", "block", "round", "i", "o", "force"); f != "" {
		return fs.usageErr(fmt.Sprintf("%s is for a .safetensors checkpoint, but -i %s is a single tensor", dash(f), *opts.in))
	}
	if msg := tensorOutError(*opts.out); msg != "" {
		return fs.usageErr(msg)
	}
	return mxQuantize(fs, opts)
}

// quantizeRoute judges a quantize input: a checkpoint (ckpt), a float32
// tensor, or an error saying why quantize does not take it and what to
// run instead.
func quantizeRoute(in string) (ckpt bool, err error) {
	switch kind := mxInputKind(in); kind {
	case checkpoint.KindMXTensor:
		return false, fmt.Errorf("%s holds one MX tensor written by 'spvx mx quantize': it is quantized already; to get its values, run 'spvx mx dequantize -i %s -o OUT.npy'", in, in)
	case checkpoint.KindGGUF:
		return false, fmt.Errorf("%s is a GGUF file; quantize reads a .safetensors checkpoint or one float32 tensor (.npy, .f32, .bin); to make it safetensors, run 'spvx mx convert --to safetensors -i %s -o OUT.safetensors'", in, in)
	case checkpoint.KindCheckpoint, checkpoint.KindShardIndex:
		return true, nil
	case checkpoint.KindOther:
		return isCheckpoint(in), nil // a missing file: the name decides whose error
	}
	return false, nil
}

// tensorOutError says why an output name does not fit a quantized single
// tensor (a .safetensors file), or "".
func tensorOutError(out string) string {
	switch outType(out) {
	case ".npy", ".f32", ".bin":
		return fmt.Sprintf("-o %s: one tensor quantizes to a .safetensors file; its float32 values come back from 'spvx mx dequantize'", out)
	case ".index.json":
		return fmt.Sprintf("-o %s: one tensor quantizes to one .safetensors file, not a sharded checkpoint", out)
	case ".gguf":
		return fmt.Sprintf("-o %s: quantize writes safetensors; GGUF comes from 'spvx mx convert --to gguf'", out)
	}
	return ""
}

// mxInputKind judges an input file (checkpoint.Classify); standard input,
// and a file that cannot be opened, are left to the reader, which judges
// a stream as it reads it and names the file in its error.
func mxInputKind(name string) checkpoint.Kind {
	if name == "-" {
		return checkpoint.KindOther
	}
	k, err := checkpoint.Classify(name)
	if err != nil {
		return checkpoint.KindOther
	}
	return k
}

// outType is the type an output name asks for: its lower-case extension,
// or ".index.json" for a shard index; "" for standard output.
func outType(name string) string {
	l := strings.ToLower(name)
	if name == "-" {
		return ""
	}
	if checkpoint.IsIndex(l) {
		return ".index.json"
	}
	return filepath.Ext(l)
}

// checkpointOnly returns the first flag given that is not one of the
// single-tensor form's, or "".
func checkpointOnly(fs *cmdFlags, tensorFlags ...string) string {
	bad := ""
	fs.Visit(func(f *flag.Flag) {
		if bad == "" && !slices.Contains(tensorFlags, f.Name) {
			bad = f.Name
		}
	})
	return bad
}

// quantizeCheckpoint is `spvx mx quantize` on a safetensors checkpoint.
func quantizeCheckpoint(fs *cmdFlags, opts ckptFlags) int {
	s := fs.s
	b, err := mx.ParseBlockFormat(*opts.format)
	if err != nil {
		return fs.usageErr(err.Error())
	}
	layout, err := checkpoint.ParseLayout(*opts.layout)
	if err != nil {
		return fs.usageErr(err.Error())
	}
	var rounding mx.Rounding
	switch *opts.round {
	case "even":
	case "away":
		rounding = mx.TiesAway
	default:
		return fs.usageErr(fmt.Sprintf("--round %q: want even or away", *opts.round))
	}
	if !isCheckpoint(*opts.out) {
		return fs.usageErr(fmt.Sprintf("-o %s: a checkpoint quantizes to a .safetensors file (or a .index.json for a sharded one)", *opts.out))
	}
	return runCheckpoint(s, "mx quantize", *opts.quiet, *opts.stats || *opts.verbose, func(progress func(checkpoint.Progress)) (*checkpoint.Report, error) {
		return checkpoint.Quantize(*opts.in, *opts.out, checkpoint.Options{
			Format: b, BlockSize: *opts.block, Rounding: rounding, Layout: layout,
			Filter: checkpoint.Filter{Include: *opts.include, Exclude: *opts.exclude},
			Stats:  *opts.stats, Progress: progress, Force: *opts.force,
		})
	})
}

// runCheckpoint runs one checkpoint job with a progress bar on a
// terminal, then prints its summary (unless quiet).
func runCheckpoint(s stdio, cmd string, quiet, perTensor bool, job func(func(checkpoint.Progress)) (*checkpoint.Report, error)) int {
	bar := newProgressBar(s.err, !quiet)
	start := time.Now()
	r, err := job(bar.update)
	bar.done()
	if err != nil {
		return fail(s, cmd, err)
	}
	if !quiet {
		writeSummary(s.err, r, perTensor, time.Since(start))
	}
	return exitOK
}

type ckptFlags struct {
	format, round, layout, in, out, dtype *string
	block                                 *int
	include, exclude                      *globList
	stats, quiet, verbose, force          *bool
}

func checkpointFlags(fs *cmdFlags) ckptFlags {
	f := ckptFlags{include: &globList{}, exclude: &globList{}}
	f.format = fs.String("f", "", "MX `FORMAT`: mxfp8_e4m3 mxfp8_e5m2 mxfp6_e3m2 mxfp6_e2m3 mxfp4 mxint8")
	f.block = fs.Int("block", mx.DefaultBlockSize, fmt.Sprintf("elements per shared scale, %d to %d", mx.MinBlockSize, mx.MaxBlockSize))
	f.round = fs.String("round", "even", "element rounding: even (OCP RNE) or away (ties away)")
	f.layout = fs.String("layout", "spvx", "quantized tensor layout: spvx, or gpt-oss (MXFP4 *.blocks + *.scales)")
	fs.Var(f.include, "include", "quantize only tensors matching `GLOB` (repeatable, comma-separated)")
	fs.Var(f.exclude, "exclude", "do not quantize tensors matching `GLOB` (repeatable, comma-separated)")
	f.stats = fs.Bool("stats", false, "report each quantized tensor's max abs error and RMSE")
	f.quiet = fs.Bool("q", false, "no progress bar and no summary")
	f.verbose = fs.Bool("v", false, "list every tensor in the summary")
	f.in = fs.String("i", "", "input `FILE`: one float32 tensor (.npy, or raw .f32/.bin; - for stdin), or a checkpoint (.safetensors, or model.safetensors.index.json)")
	f.out = fs.String("o", "", "output `FILE`: .safetensors (- for stdout, a single tensor only), or for a sharded checkpoint an .index.json with the shards beside it")
	f.force = forceFlag(fs)
	return f
}

// forceFlag is --force of every spvx mx command that writes a file:
// without it an existing output file (or shard) is an error, never
// overwritten (checkpoint.CreateOutput).
func forceFlag(fs *cmdFlags) *bool {
	return fs.Bool("force", false, "overwrite existing output files (without it, an existing file is an error)")
}

// mxDequantizeCmd is `spvx mx dequantize`: one command line for both
// forms; -o decides which runs (a .safetensors checkpoint, or a single
// tensor written as .npy or raw float32).
func mxDequantizeCmd(args []string, s stdio) int {
	fs := newFlagSet("mx dequantize", "spvx mx dequantize [--dtype bf16|f16|f32] [--force] [-q] [-v] -i IN -o OUT\n"+
		"       a quantized checkpoint to OUT.safetensors (or .index.json), or one MX tensor\n"+
		"       written by spvx mx quantize to OUT.npy (raw float32 if OUT ends in .f32 or .bin)", s)
	in := fs.String("i", "", "input `FILE`: a quantized checkpoint (spvx or gpt-oss layout), or a tensor from spvx mx quantize; - for stdin")
	out := fs.String("o", "", "output `FILE`: .safetensors or .index.json (checkpoint), else .npy float32 (raw float32 for .f32/.bin); - for stdout (.npy)")
	dtype := fs.String("dtype", "", "checkpoint: dtype of dequantized tensors: bf16, f16 or f32 (default: the recorded one, bf16 for gpt-oss)")
	quiet := fs.Bool("q", false, "checkpoint: no progress bar and no summary")
	verbose := fs.Bool("v", false, "checkpoint: list every tensor in the summary")
	force := forceFlag(fs)
	pos, code, ok := fs.parse(args)
	if !ok {
		return code
	}
	if len(pos) > 0 || *in == "" || *out == "" {
		return fs.usageErr("-i and -o are required and no positional arguments are taken")
	}
	if outType(*out) == ".gguf" {
		return fs.usageErr(fmt.Sprintf("-o %s: dequantize writes a .safetensors checkpoint, or one tensor as .npy (raw float32 as .f32 or .bin); GGUF comes from 'spvx mx convert --to gguf'", *out))
	}
	if err := dequantizeInputError(*in, isCheckpoint(*out)); err != nil {
		return fail(s, "mx dequantize", err)
	}
	if !isCheckpoint(*out) {
		if f := checkpointOnly(fs, "i", "o", "force"); f != "" {
			return fs.usageErr(fmt.Sprintf("%s is for a .safetensors checkpoint, but -o %s is a single tensor", dash(f), *out))
		}
		return mxDequantize(fs, *in, *out, *force)
	}
	return runCheckpoint(s, "mx dequantize", *quiet, *verbose, func(progress func(checkpoint.Progress)) (*checkpoint.Report, error) {
		return checkpoint.Dequantize(*in, *out, checkpoint.DequantizeOptions{DType: strings.ToUpper(*dtype), Progress: progress, Force: *force})
	})
}

// dequantizeInputError returns the error for a dequantize input that
// holds nothing to dequantize, or one of the other form's kind (toCkpt: -o
// names a checkpoint), saying which it is and what to run instead.
func dequantizeInputError(in string, toCkpt bool) error {
	switch mxInputKind(in) {
	case checkpoint.KindFloat32:
		return fmt.Errorf("%s is a float32 tensor, not an MX one: nothing to dequantize; to quantize it, run 'spvx mx quantize -f FORMAT -i %s -o OUT.safetensors'", in, in)
	case checkpoint.KindGGUF:
		return fmt.Errorf("%s is a GGUF file; dequantize reads safetensors: run 'spvx mx convert --to safetensors -i %s -o OUT.safetensors' first", in, in)
	case checkpoint.KindMXTensor:
		if toCkpt {
			return fmt.Errorf("%s holds one MX tensor written by 'spvx mx quantize', not a checkpoint; write its values to a tensor file: spvx mx dequantize -i %s -o OUT.npy", in, in)
		}
	case checkpoint.KindCheckpoint, checkpoint.KindShardIndex:
		n, err := checkpoint.CountMX(in)
		if err != nil {
			return nil // the checkpoint reader reports it
		}
		out := "OUT.safetensors"
		if checkpoint.IsIndex(strings.ToLower(in)) {
			out = "OUT.safetensors.index.json"
		}
		if n == 0 {
			return fmt.Errorf("%s holds no MX tensor (neither spvx nor gpt-oss layout): nothing to dequantize; to quantize it, run 'spvx mx quantize -f FORMAT -i %s -o %s'", in, in, out)
		}
		if !toCkpt {
			return fmt.Errorf("%s is a checkpoint of %d MX tensor%s, not one tensor from 'spvx mx quantize'; dequantize it to a checkpoint: spvx mx dequantize -i %s -o %s", in, n, plural(n), in, out)
		}
	}
	return nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func mxConvert(args []string, s stdio) int {
	fs := newFlagSet("mx convert", "spvx mx convert --to gguf|safetensors [--layout spvx|gpt-oss] [--force] -i IN -o OUT", s)
	to := fs.String("to", "", "output format: gguf or safetensors")
	layout := fs.String("layout", "", "safetensors layout of MXFP4 tensors: spvx or gpt-oss (default: the recorded one, else spvx); between safetensors files it converts every MXFP4 tensor")
	in := fs.String("i", "", "input `FILE`: .safetensors (either layout) or .gguf")
	out := fs.String("o", "", "output `FILE`")
	quiet := fs.Bool("q", false, "no progress bar and no summary")
	verbose := fs.Bool("v", false, "list every tensor in the summary")
	force := forceFlag(fs)
	pos, code, ok := fs.parse(args)
	if !ok {
		return code
	}
	if len(pos) > 0 || *in == "" || *out == "" || *to == "" {
		return fs.usageErr("--to, -i and -o are required and no positional arguments are taken")
	}
	if msg := convertNamesError(*to, *out); msg != "" {
		return fs.usageErr(msg)
	}
	switch mxInputKind(*in) {
	case checkpoint.KindFloat32:
		return fail(s, "mx convert", fmt.Errorf("%s is a float32 tensor, not a checkpoint; convert reads a .safetensors checkpoint or a .gguf file", *in))
	case checkpoint.KindMXTensor:
		return fail(s, "mx convert", fmt.Errorf("%s holds one MX tensor written by 'spvx mx quantize', not a checkpoint; convert reads a .safetensors checkpoint or a .gguf file (quantize a checkpoint with 'spvx mx quantize -f mxfp4 -i MODEL.safetensors -o OUT.safetensors')", *in))
	}
	opts := checkpoint.ConvertOptions{To: *to, Force: *force}
	if *layout != "" {
		l, err := checkpoint.ParseLayout(*layout)
		if err != nil {
			return fs.usageErr(err.Error())
		}
		opts.Layout, opts.Relayout = l, true
	}
	if *to != "gguf" && *to != "safetensors" {
		return fs.usageErr(fmt.Sprintf("--to %q: want gguf or safetensors", *to))
	}
	return runCheckpoint(s, "mx convert", *quiet, *verbose, func(progress func(checkpoint.Progress)) (*checkpoint.Report, error) {
		opts.Progress = progress
		return checkpoint.Convert(*in, *out, opts)
	})
}

// convertNamesError says why an output name does not fit --to, or "":
// convert writes a checkpoint, never a single tensor's file.
func convertNamesError(to, out string) string {
	switch t := outType(out); {
	case t == ".npy" || t == ".f32" || t == ".bin":
		return fmt.Sprintf("-o %s: convert writes a checkpoint (.gguf or .safetensors); float32 values come from 'spvx mx dequantize'", out)
	case to == "gguf" && (t == ".safetensors" || t == ".index.json"):
		return fmt.Sprintf("-o %s: --to gguf writes a .gguf file", out)
	case to == "safetensors" && t == ".gguf":
		return fmt.Sprintf("-o %s: --to safetensors writes a .safetensors file", out)
	}
	return ""
}

func mxInspect(args []string, s stdio, cmd string) int {
	fs := newFlagSet("mx "+cmd, "spvx mx "+cmd+" [--svg OUT.svg [--force]] FILE", s)
	svg := fs.String("svg", "", "also plot the MX tensors' scale histogram to `FILE` (- for stdout)")
	force := forceFlag(fs)
	pos, code, ok := fs.parse(args)
	if !ok {
		return code
	}
	if len(pos) != 1 {
		return fs.usageErr("want one FILE")
	}
	switch k := mxInputKind(pos[0]); {
	case cmd == "inspect" && k == checkpoint.KindFloat32:
		return fail(s, "mx inspect", fmt.Errorf("%s is a float32 tensor; inspect lists the tensors of a .safetensors or .gguf file", pos[0]))
	case cmd == "inspect" && k == checkpoint.KindShardIndex:
		return fail(s, "mx inspect", fmt.Errorf("%s is a sharded checkpoint's index; inspect each shard file it names", pos[0]))
	}
	if cmd == "gguf info" {
		if isG, err := checkpoint.IsGGUF(pos[0]); err != nil {
			return fail(s, "mx "+cmd, err)
		} else if !isG {
			return fail(s, "mx "+cmd, fmt.Errorf("%s: not a GGUF file (no GGUF magic)", pos[0]))
		}
	}
	l, err := checkpoint.Inspect(pos[0])
	if err != nil {
		return fail(s, "mx "+cmd, err)
	}
	if *svg != "" {
		pic := checkpoint.HistogramSVG(l, pos[0])
		if pic == nil {
			return fail(s, "mx "+cmd, fmt.Errorf("%s has no MX tensor to plot", pos[0]))
		}
		if err := writeMXOutput(*svg, s, *force, pic); err != nil {
			return fail(s, "mx "+cmd, err)
		}
		if *svg == "-" {
			return exitOK
		}
	}
	if err := checkpoint.WriteListing(s.out, l); err != nil {
		return fail(s, "mx "+cmd, err)
	}
	return exitOK
}

// mxGGUF dispatches `spvx mx gguf` subcommands.
func mxGGUF(args []string, s stdio) int {
	switch {
	case len(args) > 0 && args[0] == "info":
		return mxInspect(args[1:], s, "gguf info")
	case len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help"):
		fmt.Fprintln(s.out, "usage: spvx mx gguf info FILE\n\nThe tensors and metadata of a GGUF file, as 'spvx mx inspect FILE' prints them.")
		return exitOK
	case len(args) == 0:
		return newFlagSet("mx gguf", "", s).usageErr("no subcommand; the one is 'info FILE'")
	}
	return newFlagSet("mx gguf", "", s).usageErr(fmt.Sprintf("unknown subcommand %q; the one is 'info FILE'", args[0]))
}
