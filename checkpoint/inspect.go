package checkpoint

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"spvx/internal/gguf"
	"spvx/mx"
)

// Entry is one tensor of a listing.
type Entry struct {
	Name  string
	DType string // safetensors dtype, GGUF type name, or the MX format
	Shape []int  // row-major (GGUF dims reversed)
	Bytes int64
	// For an MX tensor (a quantized pair, or GGUF MXFP4): its block size,
	// layout, and how many blocks have each E8M0 scale byte. Scales is nil
	// for other tensors: at 2 KB a histogram, one for each of 400,000
	// plain tensors took gigabytes.
	MX        bool
	BlockSize int
	Layout    string
	Scales    *[256]int64
}

// Listing is what Inspect finds in a file.
type Listing struct {
	Kind     string // "safetensors", "gguf", or "MX tensor file" (QuantizeTensor's)
	Metadata map[string]string
	Tensors  []Entry
}

// Inspect lists a safetensors or GGUF file's tensors and, for MX
// tensors, the histogram of their scales (read in segments: the memory
// used does not grow with the file).
func Inspect(name string) (*Listing, error) {
	isG, err := IsGGUF(name)
	if err != nil {
		return nil, err
	}
	if isG {
		return inspectGGUF(name)
	}
	in, err := openInput(name)
	if err != nil {
		return nil, err
	}
	defer in.f.Close()
	if l, ok, err := inspectMXTensor(in); ok || err != nil {
		return l, err
	}
	qs, used, err := in.quantized()
	if err != nil {
		return nil, err
	}
	l := &Listing{Kind: "safetensors", Metadata: in.h.Metadata}
	for _, t := range in.h.Tensors {
		if !used[t.Name] {
			l.Tensors = append(l.Tensors, Entry{Name: t.Name, DType: t.DType, Shape: t.Shape, Bytes: t.Size})
		}
	}
	buf := make([]byte, 1<<20)
	for _, q := range qs {
		e := Entry{Name: q.name, DType: q.format.String(), Shape: q.meta.Shape, Bytes: q.scales.Size + q.blocks.Size,
			MX: true, BlockSize: q.meta.BlockSize, Layout: q.layout.String(), Scales: new([256]int64)}
		if err := histogram(e.Scales, in.f, q.scales.Offset, q.scales.Size, 1, buf); err != nil {
			return nil, fmt.Errorf("%s: tensor %q: %w", name, q.name, err)
		}
		l.Tensors = append(l.Tensors, e)
	}
	sort.Slice(l.Tensors, func(i, j int) bool { return l.Tensors[i].Name < l.Tensors[j].Name })
	return l, nil
}

// inspectMXTensor lists an MX tensor file as its one MX tensor, named
// "tensor", with its scale histogram; ok is false for another file, or
// one whose metadata does not describe its tensors (listed as stored).
func inspectMXTensor(in *input) (l *Listing, ok bool, err error) {
	names := make([]string, len(in.h.Tensors))
	for i, t := range in.h.Tensors {
		names[i] = t.Name
	}
	if !isMXTensorFile(names, in.h.Metadata) {
		return nil, false, nil
	}
	b, k, shape, n, err := mxTensorMeta(in.h.Metadata)
	scales, blocks := in.h.Tensor("scales"), in.h.Tensor("blocks")
	if err != nil || scales.DType != "U8" || blocks.DType != "U8" {
		return nil, false, nil
	}
	if want, err := mx.ScaleBytes(n, k); err != nil || int64(want) != scales.Size {
		return nil, false, nil
	}
	e := Entry{Name: "tensor", DType: b.String(), Shape: shape, Bytes: scales.Size + blocks.Size,
		MX: true, BlockSize: k, Layout: "spvx tensor file", Scales: new([256]int64)}
	if err := histogram(e.Scales, in.f, scales.Offset, scales.Size, 1, make([]byte, 1<<20)); err != nil {
		return nil, false, fmt.Errorf("%s: %w", in.name, err)
	}
	return &Listing{Kind: "MX tensor file", Metadata: in.h.Metadata, Tensors: []Entry{e}}, true, nil
}

// histogram counts the scale bytes found every stride bytes from off.
func histogram(h *[256]int64, r io.ReaderAt, off, size, stride int64, buf []byte) error {
	chunk := int64(len(buf)) / stride * stride
	for size > 0 {
		n := min(chunk, size)
		if _, err := r.ReadAt(buf[:n], off); err != nil {
			return err
		}
		for i := int64(0); i < n; i += stride {
			h[buf[i]]++
		}
		off, size = off+n, size-n
	}
	return nil
}

func inspectGGUF(name string) (*Listing, error) {
	f, g, err := openGGUF(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	l := &Listing{Kind: "gguf", Metadata: map[string]string{}}
	for _, kv := range g.KVs {
		if s, ok := kvText(kv); ok {
			l.Metadata[kv.Key] = s
		} else {
			l.Metadata[kv.Key] = fmt.Sprintf("[%d %s]", len(kv.Value.(gguf.Array).Values), kv.Value.(gguf.Array).Elem)
		}
	}
	buf := make([]byte, 1<<20/mx.GGUFBlockBytes*mx.GGUFBlockBytes)
	for _, t := range g.Tensors {
		shape := make([]int, len(t.Dims))
		for i, d := range t.Dims {
			shape[len(t.Dims)-1-i] = int(min(d, math.MaxInt32))
		}
		e := Entry{Name: t.Name, DType: t.Type.String(), Shape: shape, Bytes: int64(t.Size)}
		if t.Type == gguf.MXFP4 {
			e.MX, e.BlockSize, e.Layout, e.DType = true, 32, "gguf", "mxfp4"
			e.Scales = new([256]int64)
			if err := histogram(e.Scales, f, g.DataStart+int64(t.Offset), int64(t.Size), mx.GGUFBlockBytes, buf); err != nil {
				return nil, fmt.Errorf("%s: tensor %q: %w", name, t.Name, err)
			}
		}
		l.Tensors = append(l.Tensors, e)
	}
	return l, nil
}

// WriteListing prints a listing as a table, with each MX tensor's scale
// histogram below it (one line per scale in use: 2^e, count, a bar). The
// text goes to w as it is made, through a small buffer, not built whole.
func WriteListing(w io.Writer, l *Listing) error {
	b := bufio.NewWriterSize(w, 64<<10)
	fmt.Fprintf(b, "%s, %d tensors\n", l.Kind, len(l.Tensors))
	keys := make([]string, 0, len(l.Metadata))
	for k := range l.Metadata {
		if !strings.HasPrefix(k, metaPrefix) { // shown as the MX tensors' rows
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := l.Metadata[k]
		if len(v) > 80 {
			v = v[:77] + "..."
		}
		fmt.Fprintf(b, "  meta %s = %s\n", k, v)
	}
	width := 4
	for _, t := range l.Tensors {
		width = max(width, len(t.Name))
	}
	fmt.Fprintf(b, "%-*s  %-10s  %-20s  %12s\n", width, "name", "dtype", "shape", "bytes")
	for _, t := range l.Tensors {
		fmt.Fprintf(b, "%-*s  %-10s  %-20s  %12d\n", width, t.Name, t.DType, shapeText(t.Shape), t.Bytes)
		if !t.MX {
			continue
		}
		var total, most int64
		for _, c := range t.Scales {
			total += c
			most = max(most, c)
		}
		fmt.Fprintf(b, "    %d blocks of %d, %s layout; scales:\n", total, t.BlockSize, t.Layout)
		for s, c := range t.Scales {
			if c == 0 {
				continue
			}
			bar := int(math.Round(float64(c) / float64(most) * 40))
			fmt.Fprintf(b, "      %-9s %10d  %s\n", scaleText(s), c, strings.Repeat("#", max(bar, 1)))
		}
	}
	return b.Flush()
}

func shapeText(s []int) string {
	p := make([]string, len(s))
	for i, d := range s {
		p[i] = fmt.Sprint(d)
	}
	return "[" + strings.Join(p, ", ") + "]"
}

// scaleText spells an E8M0 scale byte: 2^(s−127), or NaN for 0xFF.
func scaleText(s int) string {
	if s == 0xFF {
		return "NaN"
	}
	return fmt.Sprintf("2^%d", s-127)
}
