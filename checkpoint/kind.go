package checkpoint

import (
	"errors"
	"io"
	"path/filepath"
	"strings"

	"spvx/internal/boundedread"
	"spvx/internal/tensorfile"
)

// Kind is what an input file holds, as the mx commands take it: the
// commands judge a file by its content, so that one given where another
// kind is expected gets a sentence saying which, not a parse error of
// the wrong format.
type Kind uint8

// The kinds of input.
const (
	KindOther      Kind = iota // not judged: a stream, or none of the others
	KindFloat32                // a float32 tensor: .npy, or raw float32 named .f32 or .bin
	KindMXTensor               // an MX tensor file, written by QuantizeTensor
	KindCheckpoint             // any other safetensors file
	KindShardIndex             // a sharded checkpoint's index (.index.json)
	KindGGUF                   // a GGUF file
)

// Classify judges the file name from its first bytes (and its header,
// for safetensors) and its name. Only a regular file is judged: a stream
// or a device is KindOther, left to the reader, which judges the stream
// as it reads it. A file that cannot be read is an error; a malformed one
// is KindOther, for the reader's own error.
func Classify(name string) (Kind, error) {
	if IsIndex(strings.ToLower(name)) {
		return KindShardIndex, nil
	}
	f, st, err := boundedread.OpenRegular(name)
	if err != nil {
		if errors.Is(err, boundedread.ErrNotRegular) {
			return KindOther, nil
		}
		return KindOther, err
	}
	defer f.Close()
	head := make([]byte, 12)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	switch {
	case string(head[:min(n, 4)]) == "GGUF":
		return KindGGUF, nil
	case tensorfile.IsNPY(head):
		return KindFloat32, nil
	}
	if h, err := tensorfile.ReadSafeTensorsHeader(f, st.Size()); err == nil {
		names := make([]string, len(h.Tensors))
		for i, t := range h.Tensors {
			names[i] = t.Name
		}
		if isMXTensorFile(names, h.Metadata) {
			return KindMXTensor, nil
		}
		return KindCheckpoint, nil
	}
	switch strings.ToLower(filepath.Ext(name)) {
	case ".f32", ".bin":
		return KindFloat32, nil
	}
	return KindOther, nil
}

// CountMX counts the quantized tensors (either layout) of a safetensors
// checkpoint, or of every shard of an index.
func CountMX(name string) (int, error) {
	files := []string{name}
	if IsIndex(name) {
		b, err := readSmall(name, tensorfile.MaxShardIndex)
		if err != nil {
			return 0, err
		}
		x, err := tensorfile.ReadShardIndex(b)
		if err != nil {
			return 0, err
		}
		files = files[:0]
		for _, s := range x.Shards() {
			files = append(files, filepath.Join(filepath.Dir(name), s))
		}
	}
	total := 0
	for _, f := range files {
		in, err := openInput(f)
		if err != nil {
			return 0, err
		}
		qs, _, err := in.quantized()
		in.f.Close()
		if err != nil {
			return 0, err
		}
		total += len(qs)
	}
	return total, nil
}
