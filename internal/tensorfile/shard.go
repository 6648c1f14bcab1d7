package tensorfile

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"
)

// MaxShardIndex bounds the size of a sharded checkpoint's index file.
const MaxShardIndex = 64 << 20

// ShardIndex is a sharded checkpoint's index (Hugging Face's
// model.safetensors.index.json): which shard file holds each tensor.
type ShardIndex struct {
	Metadata  map[string]any    // "metadata", e.g. {"total_size": 123}
	WeightMap map[string]string // tensor name -> shard file name
}

// Shards returns the shard file names in sorted order, each once.
func (x *ShardIndex) Shards() []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range x.WeightMap {
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out
}

// ReadShardIndex decodes an index file. Shard names must be plain file
// names in the index's directory (no path separators, no "..", not
// empty), so an index cannot point outside its checkpoint. Errors wrap
// ErrFormat.
func ReadShardIndex(b []byte) (*ShardIndex, error) {
	if len(b) > MaxShardIndex {
		return nil, formatErr("shard index of %d bytes exceeds the limit of %d", len(b), MaxShardIndex)
	}
	var raw struct {
		Metadata  map[string]any     `json:"metadata"`
		WeightMap map[string]*string `json:"weight_map"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&raw); err != nil {
		return nil, formatErr("shard index is not a JSON object: %v", err)
	}
	if dup := duplicateKey(b, "weight_map"); dup != "" {
		return nil, formatErr("shard index names %q twice", dup)
	}
	if raw.WeightMap == nil {
		return nil, formatErr("shard index has no weight_map")
	}
	x := &ShardIndex{Metadata: raw.Metadata, WeightMap: make(map[string]string, len(raw.WeightMap))}
	for name, f := range raw.WeightMap {
		if f == nil {
			return nil, formatErr("shard index: tensor %q maps to null, not a file name", name)
		}
		if !plainFileName(*f) {
			return nil, formatErr("shard index: tensor %q maps to %q, not a file name in the index's directory", name, *f)
		}
		x.WeightMap[name] = *f
	}
	return x, nil
}

func plainFileName(f string) bool {
	return f != "" && f != "." && f != ".." && !strings.ContainsAny(f, "/\\\x00")
}

// WriteShardIndex encodes x, indented as Hugging Face writes it.
func WriteShardIndex(x *ShardIndex) ([]byte, error) {
	meta := x.Metadata
	if meta == nil {
		meta = map[string]any{}
	}
	b, err := json.MarshalIndent(struct {
		Metadata  map[string]any    `json:"metadata"`
		WeightMap map[string]string `json:"weight_map"`
	}{meta, x.WeightMap}, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
