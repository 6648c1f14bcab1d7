package checkpoint

import (
	"encoding/binary"
	"fmt"
	"strings"
	"sync"

	"spvx/internal/tensorfile"
	"spvx/mx"
)

// DequantizeOptions configure Dequantize.
type DequantizeOptions struct {
	// DType is the output dtype of dequantized tensors: F32, F16 or BF16;
	// "" restores the dtype recorded at quantization (BF16 for a gpt-oss
	// pair without a record).
	DType    string
	Workers  int // goroutines converting pieces of a tensor (at most 256); 0 means GOMAXPROCS
	Progress func(Progress)
	Force    bool // overwrite existing output files
}

// Dequantize reads a checkpoint in either layout and writes its quantized
// tensors back as floating tensors, copying the others; the
// descriptions of the dequantized tensors leave the __metadata__. A
// checkpoint without a quantized tensor is an error.
func Dequantize(in, out string, opts DequantizeOptions) (*Report, error) {
	if opts.DType != "" && opts.DType != "F32" && opts.DType != "F16" && opts.DType != "BF16" {
		return nil, fmt.Errorf("output dtype %q: want F32, F16 or BF16", opts.DType)
	}
	// Found before any output is written: a run that would only copy
	// every tensor is a mistake (an unquantized checkpoint, or an MX
	// tensor file, whose tensors have no checkpoint names).
	if n, err := CountMX(in); err == nil && n == 0 {
		return nil, fmt.Errorf("%s holds no MX tensor (neither spvx nor gpt-oss layout): nothing to dequantize", in)
	}
	return eachFile(in, out, opts.Force, func(in, out string, r *Report) ([]string, error) {
		return dequantizeFile(in, out, opts, r)
	})
}

func dequantizeFile(inName, outName string, opts DequantizeOptions, r *Report) ([]string, error) {
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
		if !strings.HasPrefix(k, metaPrefix) {
			meta[k] = v
		}
	}
	var outs []tensorfile.TensorInfo
	var totalIn int64
	for _, t := range in.h.Tensors {
		totalIn += t.Size
		if !used[t.Name] {
			outs = append(outs, tensorfile.TensorInfo{Name: t.Name, DType: t.DType, Shape: t.Shape, Size: t.Size})
		}
	}
	for i := range qs {
		q := &qs[i]
		if opts.DType != "" {
			q.meta.DType = opts.DType
		}
		if in.h.Tensor(q.name) != nil {
			return nil, fmt.Errorf("%s: cannot dequantize %q: the file already has a tensor of that name", inName, q.name)
		}
		n, ok := product(q.meta.Shape)
		esize, _ := tensorfile.DTypeSize(q.meta.DType)
		if !ok || int64(n) > (1<<62)/int64(esize) {
			return nil, fmt.Errorf("%s: quantized tensor %q: shape %v is too large", inName, q.name, q.meta.Shape)
		}
		outs = append(outs, tensorfile.TensorInfo{Name: q.name, DType: q.meta.DType, Shape: q.meta.Shape, Size: int64(n * esize)})
	}
	o, names, err := createSafeTensors(outName, outs, meta, opts.Force)
	if err != nil {
		return nil, err
	}
	bufs := make([]buffers, workerCount(opts.Workers))
	progress := progressCounter(opts.Progress, totalIn)
	for _, t := range in.h.Tensors {
		if used[t.Name] {
			continue
		}
		if err := copyTensor(o.f, o.placed[t.Name].Offset, in, t, &bufs[0]); err != nil {
			return nil, o.close(err)
		}
		progress(t.Name, t.Size)
		r.add(TensorReport{Name: t.Name, DType: t.DType, Shape: t.Shape, Action: "copied", InBytes: t.Size, OutBytes: t.Size})
	}
	for i := range qs {
		tr, err := dequantizeTensor(in, o, &qs[i], bufs, progress)
		if err != nil {
			return nil, o.close(fmt.Errorf("%s: tensor %q: %w", inName, qs[i].name, err))
		}
		r.add(tr)
	}
	return names, o.close(nil)
}

// dequantizeTensor dequantizes one tensor piece by piece on the workers
// of bufs (runPieces), each reading, converting and writing its own.
func dequantizeTensor(in *input, o *output, q *qtensor, bufs []buffers, progress func(string, int64)) (TensorReport, error) {
	esize, _ := tensorfile.DTypeSize(q.meta.DType)
	g := newGeometry(q.meta.Shape, q.format, q.meta.BlockSize, esize, quantSeg)
	dst := o.placed[q.name]
	var mu sync.Mutex
	err := runPieces(g, len(bufs), func(w, _ int, pc piece) error {
		buf := &bufs[w]
		sl, el := g.scaleLen(pc), g.elemLen(pc, q.format)
		buf.scales, buf.elems = grow(buf.scales, sl), grow(buf.elems, el)
		if _, err := in.f.ReadAt(buf.scales, q.scales.Offset+g.scaleOff(pc)); err != nil {
			return err
		}
		if _, err := in.f.ReadAt(buf.elems, q.blocks.Offset+g.elemOff(pc)); err != nil {
			return err
		}
		out, err := dequantizePiece(q, g, pc, buf)
		if err != nil {
			return err
		}
		if _, err := o.f.WriteAt(out, dst.Offset+g.srcOff(pc)); err != nil {
			return err
		}
		mu.Lock()
		progress(q.name, int64(sl+el))
		mu.Unlock()
		return nil
	})
	return TensorReport{Name: q.name, DType: q.meta.DType, Shape: q.meta.Shape, Action: "dequantized",
		Note:    fmt.Sprintf("from %s, blocks of %d, %s layout", q.format, q.meta.BlockSize, q.layout),
		InBytes: q.scales.Size + q.blocks.Size, OutBytes: dst.Size}, err
}

// dequantizePiece dequantizes piece pc from buf.scales and buf.elems and
// returns its bytes in the tensor's dtype: bfloat16 and binary16 (which mx
// rounds to itself, RTE) and float32 written from mx's output as they are
// on a little-endian host.
func dequantizePiece(q *qtensor, g geometry, pc piece, buf *buffers) ([]byte, error) {
	n := pc.nrows * pc.n
	half := q.meta.DType == "BF16" || q.meta.DType == "F16"
	if half {
		buf.u16 = grow(buf.u16, n)
	} else {
		buf.f32 = grow(buf.f32, n)
	}
	for r := range pc.nrows {
		s, e := buf.scales, buf.elems
		if pc.nrows > 1 {
			s, e = s[r*g.scaleRow:(r+1)*g.scaleRow], e[r*g.elemRow:(r+1)*g.elemRow]
		}
		var err error
		switch q.meta.DType {
		case "BF16":
			err = mx.DequantizeBFloat16(buf.u16[r*pc.n:(r+1)*pc.n], s, e, q.format, q.meta.BlockSize, 1)
		case "F16":
			err = mx.DequantizeHalf(buf.u16[r*pc.n:(r+1)*pc.n], s, e, q.format, q.meta.BlockSize, 1)
		default:
			err = mx.Dequantize(buf.f32[r*pc.n:(r+1)*pc.n], s, e, q.format, q.meta.BlockSize, 1)
		}
		if err != nil {
			return nil, err
		}
	}
	switch {
	case half && hostLittleEndian:
		return asBytes(buf.u16), nil
	case q.meta.DType == "F32" && hostLittleEndian:
		return asBytes(buf.f32), nil
	}
	buf.raw = grow(buf.raw, n*g.esize)
	if half {
		for i, v := range buf.u16 {
			binary.LittleEndian.PutUint16(buf.raw[2*i:], v)
		}
	} else {
		fromFloat32(buf.raw, buf.f32, q.meta.DType)
	}
	return buf.raw, nil
}
