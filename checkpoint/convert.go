package checkpoint

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"

	"spvx/internal/boundedread"
	"spvx/internal/gguf"
	"spvx/internal/tensorfile"
	"spvx/mx"
)

// ConvertOptions configure Convert.
type ConvertOptions struct {
	To     string // "gguf" or "safetensors"
	Layout Layout // the safetensors layout of MXFP4 tensors that have no recorded one
	// Relayout applies Layout to every MXFP4 tensor, recorded or not (a
	// safetensors → safetensors conversion between the layouts).
	Relayout bool
	Progress func(Progress)
	Force    bool // overwrite existing output files
}

// scalarShapeKey records, in GGUF, that a tensor was a safetensors
// scalar (GGUF tensors have at least one dimension).
const scalarShapeKey = "spvx.scalar."

var toGGUFType = map[string]gguf.Type{
	"F32": gguf.F32, "F16": gguf.F16, "BF16": gguf.BF16, "F64": gguf.F64,
	"I8": gguf.I8, "I16": gguf.I16, "I32": gguf.I32, "I64": gguf.I64,
}

var fromGGUFType = map[gguf.Type]string{
	gguf.F32: "F32", gguf.F16: "F16", gguf.BF16: "BF16", gguf.F64: "F64",
	gguf.I8: "I8", gguf.I16: "I16", gguf.I32: "I32", gguf.I64: "I64",
}

// IsGGUF reports whether a file starts with GGUF's magic.
func IsGGUF(name string) (bool, error) {
	f, _, err := boundedread.OpenRegular(name)
	if err != nil {
		return false, err
	}
	defer f.Close()
	var b [4]byte
	if _, err := io.ReadFull(f, b[:]); err != nil {
		return false, nil
	}
	return string(b[:]) == "GGUF", nil
}

// Convert moves a checkpoint between safetensors and GGUF (opts.To), or
// between the two safetensors layouts. MXFP4 tensors move bit for bit
// (GGUF's block_mxfp4 holds the same scale bytes and E2M1 codes); F32,
// F16, BF16, F64 and signed integer tensors are copied; other tensors and
// other MX formats have no GGUF form and are an error. Sharded
// checkpoints are converted shard by shard only to safetensors.
func Convert(in, out string, opts ConvertOptions) (*Report, error) {
	isG, err := IsGGUF(in)
	if err != nil {
		return nil, err
	}
	if err := sameFile(in, out); err != nil {
		return nil, err
	}
	r := &Report{Files: 1}
	switch {
	case opts.To == "gguf" && isG:
		return nil, errors.New("the input is already GGUF")
	case opts.To == "gguf":
		if IsIndex(in) {
			return nil, errors.New("a sharded checkpoint converts to GGUF shard by shard: convert each shard file")
		}
		return r, toGGUF(in, out, opts, r)
	case opts.To == "safetensors" && isG:
		return r, fromGGUF(in, out, opts, r)
	case opts.To == "safetensors":
		return eachFile(in, out, opts.Force, func(in, out string, r *Report) ([]string, error) {
			return relayout(in, out, opts, r)
		})
	}
	return nil, fmt.Errorf("convert to %q: want gguf or safetensors", opts.To)
}

// mxfp4GGUFReason says why a quantized tensor has no GGUF form, or "".
func mxfp4GGUFReason(q *qtensor) string {
	switch {
	case q.format != mx.MXFP4 || q.meta.BlockSize != 32:
		return fmt.Sprintf("GGUF holds MXFP4 with blocks of 32, not %s with blocks of %d", q.format, q.meta.BlockSize)
	case q.meta.Shape[len(q.meta.Shape)-1]%32 != 0:
		return fmt.Sprintf("GGUF's MXFP4 rows are whole blocks of 32; the last dimension is %d", q.meta.Shape[len(q.meta.Shape)-1])
	case len(q.meta.Shape) > gguf.MaxDims:
		return fmt.Sprintf("GGUF tensors have at most %d dimensions", gguf.MaxDims)
	}
	return ""
}

func reversed(shape []int) []uint64 {
	d := make([]uint64, len(shape))
	for i, v := range shape {
		d[len(shape)-1-i] = uint64(v)
	}
	return d
}

// keepMeta reports whether a quantized tensor's description is written:
// always in the spvx layout; in gpt-oss's only when it says more than a
// gpt-oss checkpoint implies (an original dtype other than BF16), so that
// a real gpt-oss file converts back to itself.
func keepMeta(l Layout, m mxMeta) bool { return l == LayoutSpvx || m.DType != "BF16" }

func toGGUF(inName, outName string, opts ConvertOptions, r *Report) error {
	in, err := openInput(inName)
	if err != nil {
		return err
	}
	defer in.f.Close()
	qs, used, err := in.quantized()
	if err != nil {
		return err
	}
	var kvs []gguf.KV
	for k, v := range in.h.Metadata {
		kvs = append(kvs, gguf.String(k, v))
	}
	type src struct {
		t *tensorfile.TensorInfo
		q *qtensor
	}
	var tensors []gguf.TensorInfo
	srcs := map[string]src{}
	for i := range in.h.Tensors {
		t := &in.h.Tensors[i]
		if used[t.Name] {
			continue
		}
		gt, ok := toGGUFType[t.DType]
		if !ok {
			return fmt.Errorf("%s: tensor %q: %s has no GGUF type", inName, t.Name, t.DType)
		}
		shape := t.Shape
		if len(shape) == 0 {
			shape = []int{1}
			kvs = append(kvs, gguf.String(scalarShapeKey+t.Name, "[]"))
		}
		if len(shape) > gguf.MaxDims {
			return fmt.Errorf("%s: tensor %q: GGUF tensors have at most %d dimensions, it has %d", inName, t.Name, gguf.MaxDims, len(shape))
		}
		tensors = append(tensors, gguf.TensorInfo{Name: t.Name, Dims: reversed(shape), Type: gt})
		srcs[t.Name] = src{t: t}
	}
	for i := range qs {
		q := &qs[i]
		if why := mxfp4GGUFReason(q); why != "" {
			return fmt.Errorf("%s: tensor %q: %s", inName, q.name, why)
		}
		if _, dup := srcs[q.name]; dup {
			return fmt.Errorf("%s: tensor %q is both a quantized pair and a plain tensor", inName, q.name)
		}
		tensors = append(tensors, gguf.TensorInfo{Name: q.name, Dims: reversed(q.meta.Shape), Type: gguf.MXFP4})
		srcs[q.name] = src{q: q}
		if _, recorded := in.h.Metadata[metaPrefix+q.name]; !recorded {
			// A gpt-oss pair as gpt-oss writes it: record its layout, so
			// that converting back restores it.
			kvs = append(kvs, gguf.String(metaPrefix+q.name, q.meta.encode()))
		}
	}
	sort.Slice(kvs, func(i, j int) bool { return kvs[i].Key < kvs[j].Key })
	sort.Slice(tensors, func(i, j int) bool { return tensors[i].Name < tensors[j].Name })
	header, placed, total, err := gguf.Plan(kvs, tensors)
	if err != nil {
		return err
	}
	f, err := CreateOutput(outName, opts.Force)
	if err != nil {
		return err
	}
	o := &output{f: f, name: outName}
	if err := f.Truncate(total); err == nil {
		_, err = f.WriteAt(header, 0)
	}
	if err != nil {
		return o.close(err)
	}
	start := int64(len(header))
	var buf buffers
	var totalIn int64
	for _, t := range in.h.Tensors {
		totalIn += t.Size
	}
	progress := progressCounter(opts.Progress, totalIn)
	for _, p := range placed {
		s := srcs[p.Name]
		if s.t != nil {
			if err := copyTensor(f, start+int64(p.Offset), in, *s.t, &buf); err != nil {
				return o.close(err)
			}
			progress(p.Name, s.t.Size)
			r.add(TensorReport{Name: p.Name, DType: s.t.DType, Shape: s.t.Shape, Action: "copied", InBytes: s.t.Size, OutBytes: s.t.Size})
			continue
		}
		q := s.q
		g := newGeometry(q.meta.Shape, mx.MXFP4, 32, 4, segTarget)
		err := g.pieces(func(pc piece) error {
			n := pc.nrows * pc.n
			sl, el := g.scaleLen(pc), g.elemLen(pc, mx.MXFP4)
			buf.scales, buf.elems = grow(buf.scales, sl), grow(buf.elems, el)
			gb, _ := mx.GGUFMXFP4Bytes(n)
			buf.raw = grow(buf.raw, gb)
			if _, err := in.f.ReadAt(buf.scales, q.scales.Offset+g.scaleOff(pc)); err != nil {
				return err
			}
			if _, err := in.f.ReadAt(buf.elems, q.blocks.Offset+g.elemOff(pc)); err != nil {
				return err
			}
			if err := mx.ToGGUFMXFP4(buf.raw, buf.scales, buf.elems, n); err != nil {
				return err
			}
			// Rows are whole blocks, so the piece starts at block
			// (r0·rowLen + c)/32 of the tensor.
			off := int64((pc.r0*g.rowLen+pc.c)/32) * mx.GGUFBlockBytes
			if _, err := f.WriteAt(buf.raw, start+int64(p.Offset)+off); err != nil {
				return err
			}
			progress(q.name, int64(sl+el))
			return nil
		})
		if err != nil {
			return o.close(fmt.Errorf("%s: tensor %q: %w", inName, q.name, err))
		}
		r.add(TensorReport{Name: q.name, DType: "MXFP4", Shape: q.meta.Shape, Action: "converted",
			Note: "to GGUF MXFP4", InBytes: q.scales.Size + q.blocks.Size, OutBytes: int64(p.Size)})
	}
	return o.close(nil)
}

func openGGUF(name string) (*os.File, *gguf.File, error) {
	f, st, err := boundedread.OpenRegular(name)
	if err != nil {
		return nil, nil, err
	}
	g, err := gguf.Read(f, st.Size())
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	return f, g, nil
}

// kvText spells a scalar metadata value for safetensors' string map.
func kvText(kv gguf.KV) (string, bool) {
	switch v := kv.Value.(type) {
	case string:
		return v, true
	case gguf.Array:
		return "", false
	case float32:
		return strconv.FormatFloat(float64(v), 'g', -1, 32), true
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64), true
	}
	return fmt.Sprint(kv.Value), true
}

func fromGGUF(inName, outName string, opts ConvertOptions, r *Report) error {
	f, g, err := openGGUF(inName)
	if err != nil {
		return err
	}
	defer f.Close()
	meta := map[string]string{}
	scalars := map[string]bool{}
	dropped := 0
	for _, kv := range g.KVs {
		if name, ok := strings.CutPrefix(kv.Key, scalarShapeKey); ok {
			scalars[name] = true
			continue
		}
		if kv.Key == gguf.AlignmentKey {
			continue
		}
		if s, ok := kvText(kv); ok {
			meta[kv.Key] = s
		} else {
			dropped++
		}
	}
	type src struct {
		t    gguf.TensorInfo
		q    *mxMeta
		lay  Layout
		s, b string
	}
	var outs []tensorfile.TensorInfo
	var srcs []src
	for _, t := range g.Tensors {
		shape := make([]int, len(t.Dims))
		for i, d := range t.Dims {
			if d > 1<<40 {
				return fmt.Errorf("%s: tensor %q: dimension %d is too large", inName, t.Name, d)
			}
			shape[len(t.Dims)-1-i] = int(d)
		}
		if dt, ok := fromGGUFType[t.Type]; ok {
			if scalars[t.Name] && len(shape) == 1 && shape[0] == 1 {
				shape = []int{}
			}
			outs = append(outs, tensorfile.TensorInfo{Name: t.Name, DType: dt, Shape: shape, Size: int64(t.Size)})
			srcs = append(srcs, src{t: t})
			continue
		}
		if t.Type != gguf.MXFP4 {
			return fmt.Errorf("%s: tensor %q: GGUF type %s has no safetensors form in spvx (F32, F16, BF16, F64, I8–I64 and MXFP4 do)", inName, t.Name, t.Type)
		}
		m := &mxMeta{Format: "mxfp4", BlockSize: 32, Rounding: "even", DType: "BF16", Shape: shape, Layout: opts.Layout.String()}
		lay := opts.Layout
		if rec, ok := meta[metaPrefix+t.Name]; ok {
			var rm mxMeta
			if err := json.Unmarshal([]byte(rec), &rm); err == nil && rm.Format == "mxfp4" && rm.BlockSize == 32 && sameShape(rm.Shape, shape) {
				m = &rm
				if l, err := ParseLayout(rm.Layout); err == nil && !opts.Relayout {
					lay = l // the recorded layout, unless --layout asks for one
				}
			}
			delete(meta, metaPrefix+t.Name)
		}
		m.Layout = lay.String()
		if keepMeta(lay, *m) {
			meta[metaPrefix+t.Name] = m.encode()
		}
		ss, bs, err := quantizedShapes(shape, mx.MXFP4, 32, lay)
		if err != nil {
			return err
		}
		ns, _ := product(ss)
		nb, _ := product(bs)
		s := src{t: t, q: m, lay: lay, s: t.Name + ".scales", b: t.Name + ".blocks"}
		outs = append(outs, tensorfile.TensorInfo{Name: s.s, DType: "U8", Shape: ss, Size: int64(ns)},
			tensorfile.TensorInfo{Name: s.b, DType: "U8", Shape: bs, Size: int64(nb)})
		srcs = append(srcs, s)
	}
	o, _, err := createSafeTensors(outName, outs, meta, opts.Force)
	if err != nil {
		return err
	}
	var buf buffers
	var done, totalIn int64
	for _, t := range g.Tensors {
		totalIn += int64(t.Size)
	}
	for _, s := range srcs {
		at := g.DataStart + int64(s.t.Offset)
		if s.q == nil {
			dst := o.placed[s.t.Name]
			buf.copy = grow(buf.copy, 4<<20)
			if err := copyRange(o.f, dst.Offset, f, at, int64(s.t.Size), buf.copy); err != nil {
				return o.close(err)
			}
			r.add(TensorReport{Name: dst.Name, DType: dst.DType, Shape: dst.Shape, Action: "copied", InBytes: dst.Size, OutBytes: dst.Size})
		} else {
			gm := newGeometry(s.q.Shape, mx.MXFP4, 32, 4, segTarget)
			sd, bd := o.placed[s.s], o.placed[s.b]
			err := gm.pieces(func(pc piece) error {
				n := pc.nrows * pc.n
				sl, el := gm.scaleLen(pc), gm.elemLen(pc, mx.MXFP4)
				gb, _ := mx.GGUFMXFP4Bytes(n)
				buf.scales, buf.elems, buf.raw = grow(buf.scales, sl), grow(buf.elems, el), grow(buf.raw, gb)
				off := int64((pc.r0*gm.rowLen+pc.c)/32) * mx.GGUFBlockBytes
				if _, err := f.ReadAt(buf.raw, at+off); err != nil {
					return err
				}
				if err := mx.FromGGUFMXFP4(buf.scales, buf.elems, buf.raw, n); err != nil {
					return err
				}
				if _, err := o.f.WriteAt(buf.scales, sd.Offset+gm.scaleOff(pc)); err != nil {
					return err
				}
				_, err := o.f.WriteAt(buf.elems, bd.Offset+gm.elemOff(pc))
				return err
			})
			if err != nil {
				return o.close(fmt.Errorf("%s: tensor %q: %w", inName, s.t.Name, err))
			}
			r.add(TensorReport{Name: s.t.Name, DType: "MXFP4", Shape: s.q.Shape, Action: "converted",
				Note: "to " + s.lay.String() + " layout", InBytes: int64(s.t.Size), OutBytes: sd.Size + bd.Size})
		}
		done += int64(s.t.Size)
		if opts.Progress != nil {
			opts.Progress(Progress{Tensor: s.t.Name, Done: done, Total: totalIn})
		}
	}
	if dropped > 0 {
		r.Tensors = append(r.Tensors, TensorReport{Name: "(metadata)", Action: "dropped", Note: fmt.Sprintf("%d array-valued GGUF metadata keys have no safetensors form", dropped)})
	}
	return o.close(nil)
}

// relayout rewrites a safetensors checkpoint's MXFP4 tensors in
// opts.Layout (the bytes stay; shapes and descriptions change).
func relayout(inName, outName string, opts ConvertOptions, r *Report) ([]string, error) {
	in, err := openInput(inName)
	if err != nil {
		return nil, err
	}
	defer in.f.Close()
	qs, used, err := in.quantized()
	if err != nil {
		return nil, err
	}
	meta := map[string]string{}
	for k, v := range in.h.Metadata {
		meta[k] = v
	}
	var outs []tensorfile.TensorInfo
	rename := map[string]string{} // input tensor -> output tensor
	for _, t := range in.h.Tensors {
		if !used[t.Name] {
			outs = append(outs, tensorfile.TensorInfo{Name: t.Name, DType: t.DType, Shape: t.Shape, Size: t.Size})
			rename[t.Name] = t.Name
		}
	}
	for i := range qs {
		q := &qs[i]
		lay := q.layout
		if opts.Relayout {
			lay = opts.Layout
		}
		if lay == LayoutGPTOSS {
			if why := gptOSSReason(q.meta.Shape, q.format, q.meta.BlockSize); why != "" {
				return nil, fmt.Errorf("%s: tensor %q cannot take the gpt-oss layout: %s", inName, q.name, why)
			}
		}
		m := q.meta
		m.Layout = lay.String()
		delete(meta, metaPrefix+q.name)
		if keepMeta(lay, m) {
			meta[metaPrefix+q.name] = m.encode()
		}
		ss, bs, err := quantizedShapes(m.Shape, q.format, m.BlockSize, lay)
		if err != nil {
			return nil, err
		}
		outs = append(outs, tensorfile.TensorInfo{Name: q.name + ".scales", DType: "U8", Shape: ss, Size: q.scales.Size},
			tensorfile.TensorInfo{Name: q.name + ".blocks", DType: "U8", Shape: bs, Size: q.blocks.Size})
		rename[q.scales.Name], rename[q.blocks.Name] = q.name+".scales", q.name+".blocks"
		r.add(TensorReport{Name: q.name, DType: q.format.String(), Shape: m.Shape, Action: "converted",
			Note: "to " + lay.String() + " layout", InBytes: q.scales.Size + q.blocks.Size, OutBytes: q.scales.Size + q.blocks.Size})
	}
	o, names, err := createSafeTensors(outName, outs, meta, opts.Force)
	if err != nil {
		return nil, err
	}
	buf := make([]byte, 4<<20)
	for _, t := range in.h.Tensors {
		dst := o.placed[rename[t.Name]]
		if err := copyRange(o.f, dst.Offset, in.f, t.Offset, t.Size, buf); err != nil {
			return nil, o.close(err)
		}
		if !used[t.Name] {
			r.add(TensorReport{Name: t.Name, DType: t.DType, Shape: t.Shape, Action: "copied", InBytes: t.Size, OutBytes: t.Size})
		}
	}
	return names, o.close(nil)
}
