package tensorfile

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// TestDuplicateNames checks that a tensor named twice in a safetensors
// header, or twice in a shard index's weight_map, is an error: JSON
// decoding keeps the last, so the first would silently vanish.
func TestDuplicateNames(t *testing.T) {
	js := `{"a":{"dtype":"U8","shape":[4],"data_offsets":[0,4]},"a":{"dtype":"U8","shape":[2],"data_offsets":[4,6]}}`
	b := append([]byte{byte(len(js)), 0, 0, 0, 0, 0, 0, 0}, js...)
	b = append(b, make([]byte, 6)...)
	if _, err := ReadSafeTensorsHeader(bytes.NewReader(b), int64(len(b))); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), `names "a" twice`) {
		t.Errorf("ReadSafeTensorsHeader: %v", err)
	}
	if _, err := ReadSafeTensors(b); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), `names "a" twice`) {
		t.Errorf("ReadSafeTensors: %v", err)
	}
	for _, c := range []struct{ js, dup string }{
		{`{"weight_map":{"a":"m.safetensors","b":"m.safetensors","a":"n.safetensors"}}`, "a"},
		{`{"metadata":{},"weight_map":{"a":"m.safetensors"},"weight_map":{"b":"m.safetensors"}}`, "weight_map"},
	} {
		if _, err := ReadShardIndex([]byte(c.js)); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), `names "`+c.dup+`" twice`) {
			t.Errorf("ReadShardIndex(%s): %v", c.js, err)
		}
	}
	// Equal keys in different objects, and in metadata values, are fine.
	ok := `{"metadata":{"a":{"a":1}},"weight_map":{"a":"m.safetensors","metadata":"m.safetensors"}}`
	if _, err := ReadShardIndex([]byte(ok)); err != nil {
		t.Errorf("ReadShardIndex(%s): %v", ok, err)
	}
}
