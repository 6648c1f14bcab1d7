package checkpoint

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"spvx/internal/boundedread"
	"spvx/internal/tensorfile"
	"spvx/mx"
)

// Options configure Quantize.
type Options struct {
	Format    mx.BlockFormat
	BlockSize int         // 0 means mx.DefaultBlockSize
	Rounding  mx.Rounding // element rounding
	Layout    Layout
	Filter    Filter
	Stats     bool // measure each quantized tensor's error (max abs, RMSE)
	Workers   int  // goroutines converting pieces of a tensor (at most 256); 0 means GOMAXPROCS
	Progress  func(Progress)
	Force     bool // overwrite existing output files
}

// Progress is reported after every segment of work.
type Progress struct {
	Tensor      string
	Done, Total int64 // input bytes
}

// TensorReport says what happened to one input tensor.
type TensorReport struct {
	Name     string
	DType    string
	Shape    []int
	Action   string // "quantized", "dequantized", "copied", "converted"
	Note     string // why a floating tensor was copied, and the like
	InBytes  int64
	OutBytes int64
	// With Options.Stats, over the finite input values: the largest
	// absolute difference between a value and its dequantized value, and
	// the root mean square of the differences.
	HasStats  bool
	MaxAbsErr float64
	RMSE      float64
}

// Report summarizes a run.
type Report struct {
	Files    int
	Tensors  []TensorReport
	InBytes  int64
	OutBytes int64
}

func (r *Report) add(t TensorReport) {
	r.Tensors = append(r.Tensors, t)
	r.InBytes += t.InBytes
	r.OutBytes += t.OutBytes
}

// segTarget is about the number of elements converted at once: it bounds
// the working set (a few buffers of this many float32s), whatever the
// tensor sizes.
const segTarget = 1 << 22

// segUnit is the granularity of a segment inside a row: a multiple of
// the block size whose elements fill whole bytes in every format (8
// elements do).
func segUnit(k int) int {
	a, b := k, 8
	for b != 0 {
		a, b = b, a%b
	}
	return k / a * 8
}

// IsIndex reports whether a path names a sharded checkpoint's index.
func IsIndex(name string) bool { return strings.HasSuffix(name, ".index.json") }

// job is one output file to produce from one input file.
type job struct{ in, out string }

// shardJobs expands an index into per-shard jobs, checking that the
// output is an index too and in a directory where the shards can go.
func shardJobs(in, out string) (*tensorfile.ShardIndex, []job, error) {
	if !IsIndex(out) {
		return nil, nil, fmt.Errorf("%s is a sharded checkpoint's index: the output must be an index too (a name ending in .index.json), its shards are written beside it", in)
	}
	b, err := readSmall(in, tensorfile.MaxShardIndex)
	if err != nil {
		return nil, nil, err
	}
	x, err := tensorfile.ReadShardIndex(b)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", in, err)
	}
	var jobs []job
	shards := x.Shards()
	for i, o := range outputShardNames(shards, out) {
		jobs = append(jobs, job{filepath.Join(filepath.Dir(in), shards[i]), filepath.Join(filepath.Dir(out), o)})
	}
	if err := checkShardsHold(x, jobs); err != nil {
		return nil, nil, err
	}
	return x, jobs, nil
}

// readSmall reads a regular file of at most limit bytes (a shard index):
// a FIFO or a device is refused, not waited on or read without end.
func readSmall(name string, limit int64) ([]byte, error) {
	b, err := boundedread.ReadFile(name, int(limit))
	if err != nil && strings.Contains(err.Error(), "larger than") {
		return nil, fmt.Errorf("%s: more than %d bytes", name, limit)
	}
	return b, err
}

// sameFile rejects an output that is its input.
func sameFile(in, out string) error {
	a, err := os.Stat(in)
	if err != nil {
		return err
	}
	if b, err := os.Stat(out); err == nil && os.SameFile(a, b) {
		return fmt.Errorf("%s: the output is the input", out)
	}
	return nil
}

// eachFile runs one per-file function over a single file or over every
// shard of an index, then writes the new index with the tensors each
// shard now holds.
// Without force, no existing output is overwritten.
func eachFile(in, out string, force bool, do func(in, out string, r *Report) ([]string, error)) (*Report, error) {
	r := &Report{}
	if !IsIndex(in) {
		if IsIndex(out) {
			return nil, fmt.Errorf("%s is an index name, but %s is a single file", out, in)
		}
		if err := sameFile(in, out); err != nil {
			return nil, err
		}
		if err := CheckOutputsFree([]string{out}, force); err != nil {
			return nil, err
		}
		_, err := do(in, out, r)
		r.Files = 1
		return r, err
	}
	x, jobs, err := shardJobs(in, out)
	if err != nil {
		return nil, err
	}
	if err := sameFile(in, out); err != nil {
		return nil, err
	}
	outs := []string{out}
	for _, j := range jobs {
		outs = append(outs, j.out)
	}
	if err := CheckOutputsFree(outs, force); err != nil {
		return nil, err
	}
	nx := &tensorfile.ShardIndex{Metadata: map[string]any{}, WeightMap: map[string]string{}}
	for k, v := range x.Metadata {
		nx.Metadata[k] = v
	}
	for _, j := range jobs {
		if err := sameFile(j.in, j.out); err != nil {
			return nil, err
		}
		names, err := do(j.in, j.out, r)
		if err != nil {
			return nil, err
		}
		for _, n := range names {
			nx.WeightMap[n] = filepath.Base(j.out)
		}
		r.Files++
	}
	var total int64
	for _, t := range r.Tensors {
		total += t.OutBytes
	}
	nx.Metadata["total_size"] = total
	b, err := tensorfile.WriteShardIndex(nx)
	if err != nil {
		return nil, err
	}
	return r, writeOutput(out, b, force)
}

// Quantize quantizes the floating tensors of the checkpoint in (a
// safetensors file or a shard index) that opts.Filter selects, copies the
// others, and writes the result to out (a file, or an index whose shards
// go beside it with the input shards' names).
func Quantize(in, out string, opts Options) (*Report, error) {
	if opts.BlockSize == 0 {
		opts.BlockSize = mx.DefaultBlockSize
	}
	if opts.BlockSize < mx.MinBlockSize || opts.BlockSize > mx.MaxBlockSize {
		return nil, fmt.Errorf("block size %d: want %d to %d", opts.BlockSize, mx.MinBlockSize, mx.MaxBlockSize)
	}
	if _, err := mx.ParseBlockFormat(opts.Format.String()); err != nil {
		return nil, err
	}
	if opts.Layout == LayoutGPTOSS && (opts.Format != mx.MXFP4 || opts.BlockSize != 32) {
		return nil, errors.New("the gpt-oss layout holds MXFP4 with blocks of 32 only")
	}
	if err := opts.Filter.Check(); err != nil {
		return nil, err
	}
	return eachFile(in, out, opts.Force, func(in, out string, r *Report) ([]string, error) {
		return quantizeFile(in, out, opts, r)
	})
}

// input is an open safetensors file and its header.
type input struct {
	f    *os.File
	name string
	h    *tensorfile.Header
	size int64
}

// openInput opens a safetensors file and reads its header. Only a regular
// file is opened (a FIFO would block the open, and the reader relies on
// ReadAt and a fixed size).
func openInput(name string) (*input, error) {
	f, st, err := boundedread.OpenRegular(name)
	if err != nil {
		return nil, err
	}
	h, err := tensorfile.ReadSafeTensorsHeader(f, st.Size())
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &input{f: f, name: name, h: h, size: st.Size()}, nil
}

// output is a file being written: its header first, then tensors at
// their planned offsets.
type output struct {
	f      *os.File
	name   string
	placed map[string]tensorfile.TensorInfo
}

// createSafeTensors creates a safetensors file of the given tensors and
// writes its header (CreateOutput: without force, an existing file is an
// error).
func createSafeTensors(name string, tensors []tensorfile.TensorInfo, meta map[string]string, force bool) (*output, []string, error) {
	sort.Slice(tensors, func(i, j int) bool { return tensors[i].Name < tensors[j].Name })
	header, placed, total, err := tensorfile.PlanSafeTensors(tensors, meta)
	if err != nil {
		return nil, nil, err
	}
	f, err := CreateOutput(name, force)
	if err != nil {
		return nil, nil, err
	}
	o := &output{f: f, name: name, placed: map[string]tensorfile.TensorInfo{}}
	if err := f.Truncate(total); err == nil {
		_, err = f.WriteAt(header, 0)
	}
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	names := make([]string, len(placed))
	for i, p := range placed {
		o.placed[p.Name] = p
		names[i] = p.Name
	}
	return o, names, nil
}

func (o *output) close(err error) error {
	regular := true
	if st, serr := o.f.Stat(); serr == nil {
		regular = st.Mode().IsRegular()
	}
	if cerr := o.f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("%s: %w", o.name, cerr)
	}
	if err != nil && regular {
		os.Remove(o.name) // never a device given as the output (/dev/null)
	}
	return err
}

// copyRange copies n bytes from src at so to dst at do, through buf.
func copyRange(dst io.WriterAt, do int64, src io.ReaderAt, so, n int64, buf []byte) error {
	for n > 0 {
		c := int64(len(buf))
		if c > n {
			c = n
		}
		if _, err := src.ReadAt(buf[:c], so); err != nil {
			return err
		}
		if _, err := dst.WriteAt(buf[:c], do); err != nil {
			return err
		}
		so, do, n = so+c, do+c, n-c
	}
	return nil
}

// quantized finds the input's quantized tensors (findQuantized), naming
// the file in an error.
func (in *input) quantized() ([]qtensor, map[string]bool, error) {
	qs, used, err := findQuantized(in.h)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", in.name, err)
	}
	return qs, used, nil
}

// copyTensor copies a tensor's bytes unchanged from the input to the
// output at offset at.
func copyTensor(dst io.WriterAt, at int64, in *input, t tensorfile.TensorInfo, buf *buffers) error {
	buf.copy = grow(buf.copy, 4<<20)
	if err := copyRange(dst, at, in.f, t.Offset, t.Size, buf.copy); err != nil {
		return fmt.Errorf("%s: tensor %q: %w", in.name, t.Name, err)
	}
	return nil
}

// progressCounter returns a function that adds n bytes of work done on
// a tensor and reports the total to cb (which may be nil).
func progressCounter(cb func(Progress), total int64) func(tensor string, n int64) {
	var done int64
	return func(tensor string, n int64) {
		done += n
		if cb != nil {
			cb(Progress{Tensor: tensor, Done: done, Total: total})
		}
	}
}

// buffers is the working set of one conversion, reused across tensors.
type buffers struct {
	raw    []byte
	f32    []float32
	u16    []uint16 // bfloat16 or binary16 values
	back   []float32
	scales []byte
	elems  []byte
	copy   []byte
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// plan of one tensor to quantize.
type quantPlan struct {
	src            tensorfile.TensorInfo
	scales, blocks string
	meta           mxMeta
}

func quantizeFile(inName, outName string, opts Options, r *Report) ([]string, error) {
	in, err := openInput(inName)
	if err != nil {
		return nil, err
	}
	defer in.f.Close()
	meta := map[string]string{}
	for k, v := range in.h.Metadata {
		meta[k] = v
	}
	exists := map[string]bool{}
	for _, t := range in.h.Tensors {
		exists[t.Name] = true
	}
	var outs []tensorfile.TensorInfo
	var plans []quantPlan
	notes := map[string]string{}
	var totalIn int64
	for _, t := range in.h.Tensors {
		totalIn += t.Size
		note := ""
		switch {
		case !floatDTypes[t.DType]:
		case !opts.Filter.selects(t.Name):
			note = "not selected"
		case len(t.Shape) == 0:
			note = "a scalar has no rows"
		case t.Size == 0:
			note = "empty"
		case opts.Layout == LayoutGPTOSS:
			note = gptOSSReason(t.Shape, opts.Format, opts.BlockSize)
		}
		if !floatDTypes[t.DType] || note != "" {
			notes[t.Name] = note
			outs = append(outs, tensorfile.TensorInfo{Name: t.Name, DType: t.DType, Shape: t.Shape, Size: t.Size})
			continue
		}
		ss, bs, err := quantizedShapes(t.Shape, opts.Format, opts.BlockSize, opts.Layout)
		if err != nil {
			return nil, fmt.Errorf("%s: tensor %q: %w", inName, t.Name, err)
		}
		p := quantPlan{src: t, scales: t.Name + ".scales", blocks: t.Name + ".blocks", meta: mxMeta{
			Format: opts.Format.String(), BlockSize: opts.BlockSize, Rounding: roundingName(opts.Rounding),
			DType: t.DType, Shape: t.Shape, Layout: opts.Layout.String(),
		}}
		for _, n := range []string{p.scales, p.blocks} {
			if exists[n] {
				return nil, fmt.Errorf("%s: tensor %q cannot be quantized: the file already has a tensor %q", inName, t.Name, n)
			}
		}
		ns, _ := product(ss)
		nb, _ := product(bs)
		outs = append(outs,
			tensorfile.TensorInfo{Name: p.scales, DType: "U8", Shape: ss, Size: int64(ns)},
			tensorfile.TensorInfo{Name: p.blocks, DType: "U8", Shape: bs, Size: int64(nb)})
		if keepMeta(opts.Layout, p.meta) {
			meta[metaPrefix+t.Name] = p.meta.encode()
		}
		plans = append(plans, p)
	}
	o, names, err := createSafeTensors(outName, outs, meta, opts.Force)
	if err != nil {
		return nil, err
	}
	bufs := make([]buffers, workerCount(opts.Workers))
	buf := &bufs[0]
	progress := progressCounter(opts.Progress, totalIn)
	planned := map[string]*quantPlan{}
	for i := range plans {
		planned[plans[i].src.Name] = &plans[i]
	}
	for _, t := range in.h.Tensors {
		if p := planned[t.Name]; p != nil {
			tr, err := quantizeTensor(in, o, p, opts, bufs, progress)
			if err != nil {
				return nil, o.close(fmt.Errorf("%s: tensor %q: %w", inName, t.Name, err))
			}
			r.add(tr)
			continue
		}
		if err := copyTensor(o.f, o.placed[t.Name].Offset, in, t, buf); err != nil {
			return nil, o.close(err)
		}
		progress(t.Name, t.Size)
		r.add(TensorReport{Name: t.Name, DType: t.DType, Shape: t.Shape, Action: "copied", Note: notes[t.Name], InBytes: t.Size, OutBytes: t.Size})
	}
	return names, o.close(nil)
}

func roundingName(r mx.Rounding) string {
	if r == mx.TiesAway {
		return "away"
	}
	return "even"
}

func product(shape []int) (int, bool) {
	n := 1
	for _, d := range shape {
		if d < 0 || d != 0 && n > math.MaxInt/d {
			return 0, false
		}
		n *= d
	}
	return n, true
}

// geometry is how a quantized tensor's rows map to bytes.
type geometry struct {
	rows, rowLen   int // after folding whole rows into one when they pack exactly
	scaleRow       int // scale bytes per row
	elemRow        int // element bytes per row
	unit, seg      int // segment granularity and length within a row
	rowsPerBatch   int // rows handled at once when a row fits a segment
	bits, k, esize int
}

func newGeometry(shape []int, b mx.BlockFormat, k, esize, target int) geometry {
	rows, rowLen := rowsAndLen(shape)
	bits := b.Element().Bits()
	if rowLen%k == 0 && rowLen*bits%8 == 0 {
		// Rows that are whole blocks and whole bytes are one long row:
		// the layout is the same, and segments can span rows.
		rows, rowLen = 1, rows*rowLen
	}
	g := geometry{rows: rows, rowLen: rowLen, bits: bits, k: k, esize: esize}
	g.scaleRow, _ = mx.ScaleBytes(rowLen, k)
	g.elemRow, _ = mx.ElementBytes(b, rowLen)
	g.unit = segUnit(k)
	g.seg = max(g.unit, target/g.unit*g.unit)
	g.rowsPerBatch = 1
	if rowLen > 0 && rowLen <= g.seg {
		g.rowsPerBatch = max(1, target/rowLen)
	}
	return g
}

// piece is a run of work: rows [r0, r0+nrows) from column c, n columns
// each (n < rowLen only when nrows is 1).
type piece struct{ r0, nrows, c, n int }

func (g geometry) pieces(f func(piece) error) error {
	if g.rowLen <= g.seg {
		for r := 0; r < g.rows; r += g.rowsPerBatch {
			if err := f(piece{r, min(g.rowsPerBatch, g.rows-r), 0, g.rowLen}); err != nil {
				return err
			}
		}
		return nil
	}
	for r := 0; r < g.rows; r++ {
		for c := 0; c < g.rowLen; c += g.seg {
			if err := f(piece{r, 1, c, min(g.seg, g.rowLen-c)}); err != nil {
				return err
			}
		}
	}
	return nil
}

// count is the number of pieces.
func (g geometry) count() int {
	n := 0
	g.pieces(func(piece) error { n++; return nil })
	return n
}

// offsets of a piece in the source, scales and elements tensors.
func (g geometry) srcOff(p piece) int64   { return int64(p.r0*g.rowLen+p.c) * int64(g.esize) }
func (g geometry) scaleOff(p piece) int64 { return int64(p.r0*g.scaleRow + p.c/g.k) }
func (g geometry) elemOff(p piece) int64  { return int64(p.r0*g.elemRow) + int64(p.c/8*g.bits) }

// sizes of a piece's scales and elements.
func (g geometry) scaleLen(p piece) int {
	if p.nrows > 1 || p.n == g.rowLen {
		return p.nrows * g.scaleRow
	}
	s, _ := mx.ScaleBytes(p.n, g.k)
	return s
}

func (g geometry) elemLen(p piece, b mx.BlockFormat) int {
	if p.nrows > 1 || p.n == g.rowLen {
		return p.nrows * g.elemRow
	}
	e, _ := mx.ElementBytes(b, p.n)
	return e
}

func quantizeTensor(in *input, o *output, p *quantPlan, opts Options, bufs []buffers, progress func(string, int64)) (TensorReport, error) {
	t := p.src
	esize, _ := tensorfile.DTypeSize(t.DType)
	g := newGeometry(t.Shape, opts.Format, opts.BlockSize, esize, quantSeg)
	sDst, bDst := o.placed[p.scales], o.placed[p.blocks]
	var stats []pieceStats
	if opts.Stats {
		stats = make([]pieceStats, g.count())
	}
	var mu sync.Mutex
	err := runPieces(g, len(bufs), func(w, i int, pc piece) error {
		buf := &bufs[w]
		sl, el := g.scaleLen(pc), g.elemLen(pc, opts.Format)
		buf.scales, buf.elems = grow(buf.scales, sl), grow(buf.elems, el)
		var st *pieceStats
		if stats != nil {
			st = &stats[i]
		}
		if err := quantizePiece(in, t, g, pc, opts, buf, st); err != nil {
			return err
		}
		if _, err := o.f.WriteAt(buf.scales, sDst.Offset+g.scaleOff(pc)); err != nil {
			return err
		}
		if _, err := o.f.WriteAt(buf.elems, bDst.Offset+g.elemOff(pc)); err != nil {
			return err
		}
		mu.Lock()
		progress(t.Name, int64(pc.nrows*pc.n*esize))
		mu.Unlock()
		return nil
	})
	tr := TensorReport{Name: t.Name, DType: t.DType, Shape: t.Shape, Action: "quantized",
		Note: fmt.Sprintf("%s, blocks of %d, %s layout", opts.Format, opts.BlockSize, opts.Layout), InBytes: t.Size, OutBytes: sDst.Size + bDst.Size}
	if opts.Stats {
		// summed in piece order, so the figures do not depend on which
		// worker ran which piece
		var all pieceStats
		for _, s := range stats {
			all.maxErr = math.Max(all.maxErr, s.maxErr)
			all.sumSq += s.sumSq
			all.count += s.count
		}
		tr.HasStats, tr.MaxAbsErr = true, all.maxErr
		if all.count > 0 {
			tr.RMSE = math.Sqrt(all.sumSq / float64(all.count))
		}
	}
	return tr, err
}

// pieceStats are one piece's error figures for Options.Stats.
type pieceStats struct {
	maxErr, sumSq float64
	count         int64
}

// quantizePiece reads piece pc of tensor t and quantizes it into
// buf.scales and buf.elems, adding its error figures to st if not nil.
// bfloat16 and binary16 tensors (without statistics, which need the
// float32 values) go to mx's 16-bit quantizers as they are read.
func quantizePiece(in *input, t tensorfile.TensorInfo, g geometry, pc piece, opts Options, buf *buffers, st *pieceStats) error {
	n := pc.nrows * pc.n
	mopt := mx.Options{BlockSize: opts.BlockSize, Rounding: opts.Rounding, Workers: 1}
	rowBufs := func(r int) ([]byte, []byte) {
		if pc.nrows > 1 {
			return buf.scales[r*g.scaleRow : (r+1)*g.scaleRow], buf.elems[r*g.elemRow : (r+1)*g.elemRow]
		}
		return buf.scales, buf.elems
	}
	if st == nil && hostLittleEndian && (t.DType == "BF16" || t.DType == "F16") {
		buf.u16 = grow(buf.u16, n)
		if _, err := in.f.ReadAt(asBytes(buf.u16), t.Offset+g.srcOff(pc)); err != nil {
			return err
		}
		q := mx.QuantizeBFloat16
		if t.DType == "F16" {
			q = mx.QuantizeHalf
		}
		for r := range pc.nrows {
			s, e := rowBufs(r)
			if err := q(s, e, buf.u16[r*pc.n:(r+1)*pc.n], opts.Format, mopt); err != nil {
				return err
			}
		}
		return nil
	}
	buf.f32 = grow(buf.f32, n)
	if t.DType == "F32" && hostLittleEndian {
		if _, err := in.f.ReadAt(asBytes(buf.f32), t.Offset+g.srcOff(pc)); err != nil {
			return err
		}
	} else {
		buf.raw = grow(buf.raw, n*g.esize)
		if _, err := in.f.ReadAt(buf.raw, t.Offset+g.srcOff(pc)); err != nil {
			return err
		}
		toFloat32(buf.f32, buf.raw, t.DType)
	}
	for r := range pc.nrows {
		src := buf.f32[r*pc.n : (r+1)*pc.n]
		s, e := rowBufs(r)
		if err := mx.Quantize(s, e, src, opts.Format, mopt); err != nil {
			return err
		}
		if st != nil {
			buf.back = grow(buf.back, len(src))
			if err := mx.Dequantize(buf.back, s, e, opts.Format, opts.BlockSize, 1); err != nil {
				return err
			}
			st.add(src, buf.back)
		}
	}
	return nil
}

// add adds the differences between the finite values of src and back.
func (st *pieceStats) add(src, back []float32) {
	for i, v := range src {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			continue
		}
		d := math.Abs(float64(v) - float64(back[i]))
		st.maxErr = math.Max(st.maxErr, d)
		st.sumSq += d * d
		st.count++
	}
}
