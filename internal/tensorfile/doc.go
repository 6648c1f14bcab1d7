// Package tensorfile reads and writes the two tensor file formats the spvx
// CLI exchanges with ML tooling: NumPy .npy (float32 arrays, format versions
// 1.0–3.0) and safetensors (a JSON header followed by raw tensor bytes).
//
// Readers take the whole file as a byte slice. Every size a header declares
// (a shape's element count times the element size) is computed with
// overflow checks (internal/checked) and compared with the bytes actually
// present before anything is allocated: an accepted tensor's shape
// describes exactly its data, and a malformed or hostile header gives an
// error wrapping ErrFormat, never a panic or an allocation larger than the
// file (the fuzz targets check both). NPYSize and CheckSafeTensorsPrefix
// judge a file from its first bytes, for readers of streams.
package tensorfile
