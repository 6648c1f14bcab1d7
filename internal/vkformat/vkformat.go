// Package vkformat describes the SPIR-V image formats a storage image or
// texel buffer can have, and a few Vulkan formats only sampled images
// have (sRGB, BGRA, depth: sampled.go), and converts texels between their bytes and four
// components, following the Vulkan specification's "Format Conversion"
// and "Fixed-Point Data Conversions" rules.
//
// Components decode to float64 values (float, UNORM and SNORM formats) or
// to 64-bit integer bit patterns (integer formats: sign-extended for the
// signed ones). Components a format lacks read as (0, 0, 0, 1). Encoding
// is the reverse:
//
//   - UNORM: clamp to [0, 1], multiply by 2^b-1, round to nearest (ties to
//     even: the only ties are the exact midpoints such as 127.5, where
//     every rounding to nearest agrees). NaN encodes as 0.
//   - SNORM: clamp to [-1, 1], multiply by 2^(b-1)-1, round likewise, so
//     -1 encodes as -(2^(b-1)-1); both -(2^(b-1)-1) and -2^(b-1) decode
//     to -1. NaN encodes as 0.
//   - float16 and float32: IEEE round to nearest even, overflow to
//     infinity, NaN kept quiet with its payload's high bits.
//   - the unsigned 11- and 10-bit floats of R11fG11fB10f: finite values
//     round to the closest representable finite value, so negative values
//     and -Inf give 0, values beyond the largest finite one (65024, 64512)
//     give it, +Inf stays +Inf and every NaN gives the positive NaN.
//   - integer formats keep the low bits of each component (truncation).
//
// Where Vulkan lets an implementation choose (round toward zero instead
// of to nearest for the small floats; out-of-range integers), lavapipe
// may differ: it rounds toward zero and clamps integers.
package vkformat

import (
	"encoding/binary"
	"fmt"
	"math"

	"spvx/spirv"
)

// Kind is a format's numeric class.
type Kind uint8

// Numeric classes.
const (
	Float Kind = iota // IEEE or the packed unsigned floats
	UNorm
	SNorm
	UInt
	SInt
)

// IsInt reports whether components of kind k are integers.
func (k Kind) IsInt() bool { return k == UInt || k == SInt }

// Info describes a format.
type Info struct {
	Format spirv.ImageFormat
	Kind   Kind
	Comps  int      // components stored, in order R, G, B, A
	Bits   [4]uint8 // width of each stored component
	Size   int      // bytes per texel
	Packed bool     // components share one 32-bit word, R in the low bits
	// VkFormat is the Vulkan format of the same texels (VK_FORMAT_R8_UNORM
	// is 9), for hosts that create Vulkan images.
	VkFormat uint32
	// Sampled-only formats (sampled.go): SampledOnly marks them; SRGB
	// decodes R, G and B through the sRGB curve; BGR stores B before R;
	// Depth is a depth format (its one component is D).
	SampledOnly, SRGB, BGR, Depth bool
}

var infos = map[spirv.ImageFormat]Info{}

func def(f spirv.ImageFormat, k Kind, packed bool, bits ...uint8) {
	in := Info{Format: f, Kind: k, Comps: len(bits), Packed: packed}
	n := 0
	for i, b := range bits {
		in.Bits[i] = b
		n += int(b)
	}
	in.Size = n / 8
	in.VkFormat = vkFormats[f]
	infos[f] = in
}

// vkFormats are the VkFormat values of vulkan_core.h.
var vkFormats = map[spirv.ImageFormat]uint32{
	spirv.ImageFormatR8: 9, spirv.ImageFormatR8Snorm: 10, spirv.ImageFormatR8ui: 13, spirv.ImageFormatR8i: 14,
	spirv.ImageFormatRg8: 16, spirv.ImageFormatRg8Snorm: 17, spirv.ImageFormatRg8ui: 20, spirv.ImageFormatRg8i: 21,
	spirv.ImageFormatRgba8: 37, spirv.ImageFormatRgba8Snorm: 38, spirv.ImageFormatRgba8ui: 41, spirv.ImageFormatRgba8i: 42,
	spirv.ImageFormatRgb10A2: 64, spirv.ImageFormatRgb10a2ui: 68,
	spirv.ImageFormatR16: 70, spirv.ImageFormatR16Snorm: 71, spirv.ImageFormatR16ui: 74, spirv.ImageFormatR16i: 75, spirv.ImageFormatR16f: 76,
	spirv.ImageFormatRg16: 77, spirv.ImageFormatRg16Snorm: 78, spirv.ImageFormatRg16ui: 81, spirv.ImageFormatRg16i: 82, spirv.ImageFormatRg16f: 83,
	spirv.ImageFormatRgba16: 91, spirv.ImageFormatRgba16Snorm: 92, spirv.ImageFormatRgba16ui: 95, spirv.ImageFormatRgba16i: 96, spirv.ImageFormatRgba16f: 97,
	spirv.ImageFormatR32ui: 98, spirv.ImageFormatR32i: 99, spirv.ImageFormatR32f: 100,
	spirv.ImageFormatRg32ui: 101, spirv.ImageFormatRg32i: 102, spirv.ImageFormatRg32f: 103,
	spirv.ImageFormatRgba32ui: 107, spirv.ImageFormatRgba32i: 108, spirv.ImageFormatRgba32f: 109,
	spirv.ImageFormatR64ui: 110, spirv.ImageFormatR64i: 111, spirv.ImageFormatR11fG11fB10f: 122,
}

func init() {
	for _, k := range []struct {
		k      Kind
		f4, f2 spirv.ImageFormat
		f1     spirv.ImageFormat
		w      uint8
	}{
		{Float, spirv.ImageFormatRgba32f, spirv.ImageFormatRg32f, spirv.ImageFormatR32f, 32},
		{Float, spirv.ImageFormatRgba16f, spirv.ImageFormatRg16f, spirv.ImageFormatR16f, 16},
		{UNorm, spirv.ImageFormatRgba16, spirv.ImageFormatRg16, spirv.ImageFormatR16, 16},
		{UNorm, spirv.ImageFormatRgba8, spirv.ImageFormatRg8, spirv.ImageFormatR8, 8},
		{SNorm, spirv.ImageFormatRgba16Snorm, spirv.ImageFormatRg16Snorm, spirv.ImageFormatR16Snorm, 16},
		{SNorm, spirv.ImageFormatRgba8Snorm, spirv.ImageFormatRg8Snorm, spirv.ImageFormatR8Snorm, 8},
		{SInt, spirv.ImageFormatRgba32i, spirv.ImageFormatRg32i, spirv.ImageFormatR32i, 32},
		{SInt, spirv.ImageFormatRgba16i, spirv.ImageFormatRg16i, spirv.ImageFormatR16i, 16},
		{SInt, spirv.ImageFormatRgba8i, spirv.ImageFormatRg8i, spirv.ImageFormatR8i, 8},
		{UInt, spirv.ImageFormatRgba32ui, spirv.ImageFormatRg32ui, spirv.ImageFormatR32ui, 32},
		{UInt, spirv.ImageFormatRgba16ui, spirv.ImageFormatRg16ui, spirv.ImageFormatR16ui, 16},
		{UInt, spirv.ImageFormatRgba8ui, spirv.ImageFormatRg8ui, spirv.ImageFormatR8ui, 8},
	} {
		def(k.f4, k.k, false, k.w, k.w, k.w, k.w)
		def(k.f2, k.k, false, k.w, k.w)
		def(k.f1, k.k, false, k.w)
	}
	def(spirv.ImageFormatR64ui, UInt, false, 64)
	def(spirv.ImageFormatR64i, SInt, false, 64)
	def(spirv.ImageFormatRgb10A2, UNorm, true, 10, 10, 10, 2)
	def(spirv.ImageFormatRgb10a2ui, UInt, true, 10, 10, 10, 2)
	def(spirv.ImageFormatR11fG11fB10f, Float, true, 11, 11, 10)
}

// Lookup returns the description of format f, a storage format or a
// sampled-only one (sampled.go); ok is false for Unknown and the others.
func Lookup(f spirv.ImageFormat) (Info, bool) {
	in, ok := infos[f]
	return in, ok
}

// Formats returns every format Lookup knows, in enumerant order.
func Formats() []spirv.ImageFormat {
	var fs []spirv.ImageFormat
	for f := spirv.ImageFormat(1); f <= spirv.ImageFormatR64i; f++ {
		if _, ok := infos[f]; ok {
			fs = append(fs, f)
		}
	}
	return fs
}

// raw splits texel b into its stored components' bits.
func (in *Info) raw(b []byte) (c [4]uint64) {
	if in.Packed {
		w := uint64(binary.LittleEndian.Uint32(b))
		pos := uint(0)
		for i := 0; i < in.Comps; i++ {
			c[i] = w >> pos & (1<<in.Bits[i] - 1)
			pos += uint(in.Bits[i])
		}
		return c
	}
	sz := int(in.Bits[0] / 8)
	for i := 0; i < in.Comps; i++ {
		p := b[i*sz:]
		switch sz {
		case 1:
			c[i] = uint64(p[0])
		case 2:
			c[i] = uint64(binary.LittleEndian.Uint16(p))
		case 4:
			c[i] = uint64(binary.LittleEndian.Uint32(p))
		default:
			c[i] = binary.LittleEndian.Uint64(p)
		}
	}
	return c
}

// put stores components' bits c (already masked to their widths) in b.
func (in *Info) put(b []byte, c [4]uint64) {
	if in.Packed {
		var w uint64
		pos := uint(0)
		for i := 0; i < in.Comps; i++ {
			w |= c[i] << pos
			pos += uint(in.Bits[i])
		}
		binary.LittleEndian.PutUint32(b, uint32(w))
		return
	}
	sz := int(in.Bits[0] / 8)
	for i := 0; i < in.Comps; i++ {
		p := b[i*sz:]
		switch sz {
		case 1:
			p[0] = byte(c[i])
		case 2:
			binary.LittleEndian.PutUint16(p, uint16(c[i]))
		case 4:
			binary.LittleEndian.PutUint32(p, uint32(c[i]))
		default:
			binary.LittleEndian.PutUint64(p, c[i])
		}
	}
}

// DecodeFloat decodes texel b (at least in.Size bytes) of a Float, UNorm
// or SNorm format.
func (in *Info) DecodeFloat(b []byte) [4]float64 {
	r := in.raw(b)
	v := [4]float64{0, 0, 0, 1}
	for i := 0; i < in.Comps; i++ {
		w := uint(in.Bits[i])
		switch in.Kind {
		case UNorm:
			v[i] = float64(r[i]) / float64(uint64(1)<<w-1)
		case SNorm:
			s := int64(r[i]<<(64-w)) >> (64 - w)
			v[i] = max(float64(s)/float64(int64(1)<<(w-1)-1), -1)
		default:
			v[i] = decodeFloatBits(r[i], w)
		}
		if in.SRGB && i < 3 {
			v[i] = decodeSRGB(v[i])
		}
	}
	in.swapRB(&v)
	return v
}

// DecodeInt decodes texel b of a UInt or SInt format: each component's
// bits, sign-extended to 64 for SInt.
func (in *Info) DecodeInt(b []byte) [4]uint64 {
	r := in.raw(b)
	v := [4]uint64{0, 0, 0, 1}
	for i := 0; i < in.Comps; i++ {
		w := uint(in.Bits[i])
		v[i] = r[i]
		if in.Kind == SInt {
			v[i] = uint64(int64(r[i]<<(64-w)) >> (64 - w))
		}
	}
	return v
}

// EncodeFloat encodes the first in.Comps components of v into texel b of
// a Float, UNorm or SNorm format.
func (in *Info) EncodeFloat(b []byte, v [4]float64) {
	var r [4]uint64
	in.swapRB(&v)
	for i := 0; i < in.Comps; i++ {
		w := uint(in.Bits[i])
		if in.SRGB && i < 3 {
			v[i] = encodeSRGB(clamp(v[i], 0, 1))
		}
		switch in.Kind {
		case UNorm:
			r[i] = uint64(roundEven(clamp(v[i], 0, 1), float64(uint64(1)<<w-1)))
		case SNorm:
			r[i] = uint64(int64(roundEven(clamp(v[i], -1, 1), float64(int64(1)<<(w-1)-1)))) & (1<<w - 1)
		default:
			r[i] = encodeFloatBits(v[i], w)
		}
	}
	in.put(b, r)
}

// EncodeInt encodes the low bits of the first in.Comps components of v
// into texel b of a UInt or SInt format.
func (in *Info) EncodeInt(b []byte, v [4]uint64) {
	var r [4]uint64
	for i := 0; i < in.Comps; i++ {
		r[i] = v[i]
		if w := in.Bits[i]; w < 64 {
			r[i] &= 1<<w - 1
		}
	}
	in.put(b, r)
}

// clamp clamps x to [lo, hi]; NaN gives 0.
func clamp(x, lo, hi float64) float64 {
	if x != x {
		return 0
	}
	return min(max(x, lo), hi)
}

// roundEven returns f*m rounded to the nearest integer, ties to even,
// computed from the exact product (the rounding error of the float64
// product, recovered by FMA, decides near a midpoint). |f| <= 1, m < 2^32.
func roundEven(f, m float64) float64 {
	p := f * m
	e := math.FMA(f, m, -p) // f*m = p + e exactly
	k := math.Floor(p)
	d := p - k - 0.5 // exact: p's ulp is far below 1/2
	switch {
	case d > 0 || d == 0 && e > 0:
		return k + 1
	case d < 0 || e < 0:
		return k
	case math.Mod(k, 2) != 0:
		return k + 1
	}
	return k
}

// Name is the SPIR-V name of format f ("Rgba8"), or "ImageFormat(N)".
func Name(f spirv.ImageFormat) string {
	if e, ok := spirv.OperandKindImageFormat.Enumerant(uint32(f)); ok {
		return e.Name
	}
	if n, ok := sampledNames[f]; ok {
		return n
	}
	return fmt.Sprintf("ImageFormat(%d)", uint32(f))
}
