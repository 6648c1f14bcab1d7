// Package tensorfile reads and writes the two tensor file formats the spvx
// CLI exchanges with ML tooling: NumPy .npy (float32 arrays, format versions
// 1.0–3.0) and safetensors (a JSON header followed by raw tensor bytes).
//
// Readers take the whole file as a byte slice and validate every length and
// offset against it before slicing, so a hostile header can neither make
// them panic nor allocate more than the file's size.
package tensorfile
