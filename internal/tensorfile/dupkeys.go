package tensorfile

import (
	"bytes"
	"encoding/json"
)

// duplicateKey returns the first key that the JSON object js holds twice
// at its top level, or, when nested is not empty, in the object under the
// key nested. encoding/json keeps the last of duplicate keys, so a header
// naming a tensor twice would silently describe only one of them.
// Malformed JSON gives ""; the caller's decoding reports it.
func duplicateKey(js []byte, nested string) string {
	dec := json.NewDecoder(bytes.NewReader(js))
	dup, _ := objectDuplicate(dec, nested)
	return dup
}

// objectDuplicate reads one object from dec, through its closing brace,
// and returns its first repeated key (see duplicateKey); ok is false when
// it stopped early, at a duplicate or at something that is not a well
// formed object. Values other than the nested object are skipped whole
// with Decode, which bounds their nesting.
func objectDuplicate(dec *json.Decoder, nested string) (dup string, ok bool) {
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return "", false
	}
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		key, isKey := t.(string)
		if err != nil || !isKey {
			return "", false
		}
		if seen[key] {
			return key, false
		}
		seen[key] = true
		if nested != "" && key == nested {
			if dup, ok := objectDuplicate(dec, ""); !ok {
				return dup, false
			}
			continue
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return "", false
		}
	}
	_, err := dec.Token() // the closing brace
	return "", err == nil
}
