package vkformat

import (
	"math"

	"spvx/spirv"
)

// Sampled-only formats: Vulkan formats a sampled image may have that no
// SPIR-V image format names (sRGB, BGRA order, depth). They get
// ImageFormat values above SPIR-V's enumerants, SampledBase plus the
// VkFormat, so an Image can carry them; a shader's OpTypeImage cannot
// declare them (it declares Unknown), and storage images refuse them.
const SampledBase spirv.ImageFormat = 1 << 16

// The sampled-only formats.
const (
	Srgba8 = SampledBase + 43  // VK_FORMAT_R8G8B8A8_SRGB
	Bgra8  = SampledBase + 44  // VK_FORMAT_B8G8R8A8_UNORM
	Sbgra8 = SampledBase + 50  // VK_FORMAT_B8G8R8A8_SRGB
	D16    = SampledBase + 124 // VK_FORMAT_D16_UNORM
	D32f   = SampledBase + 126 // VK_FORMAT_D32_SFLOAT
)

var sampledNames = map[spirv.ImageFormat]string{
	Srgba8: "Srgba8", Bgra8: "Bgra8", Sbgra8: "Sbgra8", D16: "D16", D32f: "D32f",
}

func init() {
	for f, k := range map[spirv.ImageFormat]Kind{Srgba8: UNorm, Bgra8: UNorm, Sbgra8: UNorm} {
		def(f, k, false, 8, 8, 8, 8)
	}
	def(D16, UNorm, false, 16)
	def(D32f, Float, false, 32)
	for f := range sampledNames {
		in := infos[f]
		in.SampledOnly, in.VkFormat = true, uint32(f-SampledBase)
		in.SRGB = f == Srgba8 || f == Sbgra8
		in.BGR = f == Bgra8 || f == Sbgra8
		in.Depth = f == D16 || f == D32f
		infos[f] = in
	}
}

// SampledFormats returns the sampled-only formats, in VkFormat order.
func SampledFormats() []spirv.ImageFormat {
	return []spirv.ImageFormat{Srgba8, Bgra8, Sbgra8, D16, D32f}
}

// LookupName returns the format Name gives that name ("Rgba8", "Srgba8").
func LookupName(name string) (spirv.ImageFormat, bool) {
	for f, n := range sampledNames {
		if n == name {
			return f, true
		}
	}
	for _, f := range Formats() {
		if Name(f) == name {
			return f, true
		}
	}
	return 0, false
}

// decodeSRGB is the sRGB EOTF of Vulkan's "sRGB Transfer Functions", in
// float64 (Vulkan allows some error; the exact curve is the reference).
func decodeSRGB(c float64) float64 {
	if c <= 0.04045 {
		return c / 12.92
	}
	return math.Pow((c+0.055)/1.055, 2.4)
}

// encodeSRGB is decodeSRGB's inverse.
func encodeSRGB(l float64) float64 {
	if l <= 0.0031308 {
		return l * 12.92
	}
	return 1.055*math.Pow(l, 1/2.4) - 0.055
}

// swapRB exchanges the R and B components of a BGR-ordered texel.
func (in *Info) swapRB(v *[4]float64) {
	if in.BGR {
		v[0], v[2] = v[2], v[0]
	}
}
