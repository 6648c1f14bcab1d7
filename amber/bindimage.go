package amber

import (
	"fmt"
	"math/bits"
	"sort"
	"strings"

	"spvx/internal/vkformat"
	"spvx/spirv"
)

// ImageDescriptor is one bound image, texel buffer or sampler descriptor
// (a BIND … AS storage_image, sampled_image, combined_image_sampler,
// uniform_texel_buffer or storage_texel_buffer, or a BIND SAMPLER), with
// one entry per array element. A combined image sampler has as many
// Samplers as Images, the same one each time; a sampler descriptor has
// Samplers only.
type ImageDescriptor struct {
	Kind     BufferKind
	Images   []*ImageView
	Samplers []*Sampler
}

// ImageView is an image's texels as the executor sees them: a format
// (a storage format, or for a sampled image also one of the sampled-only
// formats) and the size of the view's first level (BASE_MIP_LEVEL), with
// Data the script buffer's bytes used in place (x fastest, then y, then
// z). A texel buffer is an image of Width texels.
//
// An image of several mip levels has Levels of them from the base level
// on, laid out one after the other as interp.Image describes; Data is
// then a copy filled as amber fills the levels (fillLevels), and the
// runner copies it back after the dispatch (storeLevels).
type ImageView struct {
	Format               spirv.ImageFormat
	Dim                  ImageDim
	Width, Height, Depth int
	Levels               int // 1 unless MIP_LEVELS > 1
	Data                 []byte
	buf                  []byte // the buffer's bytes when Data is a copy of several levels
	texel                int    // bytes per texel
}

// imageFormats maps the VkFormat names amber uses (R8G8B8A8_UNORM) to the
// storage formats the executor knows (package internal/vkformat).
var imageFormats = func() map[string]spirv.ImageFormat {
	m := map[string]spirv.ImageFormat{}
	for _, f := range vkformat.Formats() {
		in, _ := vkformat.Lookup(f)
		m[vkFormatName(in)] = f
	}
	return m
}()

// sampledFormats maps the VkFormat names of the executor's sampled-only
// formats (sRGB, BGRA order, depth), which a sampled image or combined
// image sampler may have and a storage image or texel buffer may not, as
// in Vulkan, where they lack the storage format features.
var sampledFormats = map[string]spirv.ImageFormat{
	"R8G8B8A8_SRGB": vkformat.Srgba8, "B8G8R8A8_UNORM": vkformat.Bgra8, "B8G8R8A8_SRGB": vkformat.Sbgra8,
	"D16_UNORM": vkformat.D16, "D32_SFLOAT": vkformat.D32f,
}

// SampledImageFormatNames lists the VkFormat names only a sampled image
// (or combined image sampler) can have on the executor, sorted.
func SampledImageFormatNames() []string {
	var out []string
	for n := range sampledFormats {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// lookupImageFormat finds the executor's format of a VkFormat name bound
// as kind: the storage formats always, the sampled-only ones when the
// image is sampled.
func lookupImageFormat(name string, kind BufferKind) (spirv.ImageFormat, bool) {
	if f, ok := imageFormats[name]; ok {
		return f, true
	}
	if kind == BindSampledImage || kind == BindCombinedImageSampler {
		f, ok := sampledFormats[name]
		return f, ok
	}
	return 0, false
}

// vkFormatName is the name Vulkan gives a storage format's texels.
func vkFormatName(in vkformat.Info) string {
	switch in.VkFormat {
	case 64:
		return "A2B10G10R10_UNORM_PACK32"
	case 68:
		return "A2B10G10R10_UINT_PACK32"
	case 122:
		return "B10G11R11_UFLOAT_PACK32"
	}
	var b strings.Builder
	for i := 0; i < in.Comps; i++ {
		fmt.Fprintf(&b, "%c%d", "RGBA"[i], in.Bits[i])
	}
	b.WriteString([...]string{"_SFLOAT", "_UNORM", "_SNORM", "_UINT", "_SINT"}[in.Kind])
	return b.String()
}

// ImageFormatNames lists the VkFormat names an IMAGE or texel buffer can
// have to be bound on the executor, sorted.
func ImageFormatNames() []string {
	var out []string
	for n := range imageFormats {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// formatName is the VkFormat name of a buffer's texels: the FORMAT as
// written, or the one a DATA_TYPE of 1, 2 or 4 components amounts to
// (vec4<float> is R32G32B32A32_SFLOAT); "" when there is none.
func formatName(t *Type) string {
	if t.FormatList {
		return t.Name
	}
	if t.Struct != nil || t.Array || t.Cols != 1 || t.Rows == 3 {
		return ""
	}
	var b strings.Builder
	for i := 0; i < t.Rows; i++ {
		fmt.Fprintf(&b, "%c%d", "RGBA"[i], t.Bits)
	}
	b.WriteString(map[Kind]string{Int: "_SINT", Uint: "_UINT", Float: "_SFLOAT"}[t.Kind])
	return b.String()
}

// imageView makes the executor's view of buffer b (its current bytes
// data) bound as kind at base level base.
func imageView(b *Buffer, data []byte, kind BufferKind, base uint32) (*ImageView, error) {
	name := formatName(b.Format.Type)
	f, ok := lookupImageFormat(name, kind)
	if !ok {
		if name == "" {
			name = b.Format.Type.Name
		}
		if _, sampled := sampledFormats[name]; sampled {
			// Vulkan gives these formats no storage features either.
			return nil, fmt.Errorf("buffer %s: format %s can only be sampled, not bound as %s", b.Name, name, kind)
		}
		return nil, Skip("buffer %s: format %s is not an image format spvx's executor has (it has %s; sampled images also %s)",
			b.Name, name, strings.Join(ImageFormatNames(), ", "), strings.Join(SampledImageFormatNames(), ", "))
	}
	in, _ := vkformat.Lookup(f)
	if in.Size != b.Format.Stride {
		return nil, fmt.Errorf("buffer %s: %s texels are %d bytes, its elements %d", b.Name, name, in.Size, b.Format.Stride)
	}
	v := &ImageView{Format: f, Dim: b.Image.Dim, Levels: 1, Data: data, texel: in.Size}
	if kind == BindUniformTexelBuffer || kind == BindStorageTexelBuffer {
		v.Width, v.Height, v.Depth = len(data)/in.Size, 1, 1
		v.Dim = Dim1D
		return v, nil
	}
	if b.Image.Samples > 1 {
		return nil, Skip("buffer %s: SAMPLES %d: spvx's executor has no multisampled images", b.Name, b.Image.Samples)
	}
	w, h, d := b.Image.Size()
	if need := uint64(w) * uint64(h) * uint64(d) * uint64(in.Size); need > uint64(len(data)) {
		return nil, fmt.Errorf("buffer %s holds %d bytes, a %d×%d×%d image of %s needs %d", b.Name, len(data), w, h, d, name, need)
	}
	levels := b.Image.Levels()
	if most := maxLevels(w, h, d); levels > most {
		// vkCreateImage's limit (VUID-VkImageCreateInfo-mipLevels-00958)
		return nil, fmt.Errorf("buffer %s: MIP_LEVELS %d: a %d×%d×%d image has at most %d", b.Name, levels, w, h, d, most)
	}
	if base >= levels {
		return nil, fmt.Errorf("buffer %s: BASE_MIP_LEVEL %d: the image has %d levels", b.Name, base, levels)
	}
	v.Width, v.Height, v.Depth = levelSize(w, base), levelSize(h, base), levelSize(d, base)
	v.Levels = int(levels - base)
	if levels == 1 {
		v.Data = data[:v.Width*v.Height*v.Depth*in.Size]
		return v, nil
	}
	v.buf = data // fillLevels makes Data once the copy is budgeted
	return v, nil
}

// maxLevels is the longest mip chain of a w×h×d image: down to 1×1×1.
func maxLevels(w, h, d uint32) uint32 {
	return uint32(bits.Len32(max(w, h, d)))
}

// levelSize is a size at mip level l, as Vulkan sizes levels.
func levelSize(n, l uint32) int { return int(max(n>>l, 1)) }

// levelBytes are the sizes in bytes of the view's levels, in order.
func (v *ImageView) levelBytes() []int {
	out := make([]int, v.Levels)
	for l := range out {
		out[l] = levelSize(uint32(v.Width), uint32(l)) * levelSize(uint32(v.Height), uint32(l)) *
			levelSize(uint32(v.Depth), uint32(l)) * v.texel
	}
	return out
}

// fillLevels fills every level of the view as amber's TransferImage::
// CopyToDevice does: one buffer-to-image copy per level from the base
// level on, each from offset 0 of the buffer, tightly packed at that
// level's size. So a level is not a downsampled level 0 (amber never
// blits) but the first texels of the buffer, read as rows of the level's
// width. amber copies every level with the full depth; Vulkan's level
// depth is used here, as a valid copy needs.
func (v *ImageView) fillLevels() {
	v.Data = make([]byte, v.copyBytes())
	off := 0
	for _, n := range v.levelBytes() {
		off += copy(v.Data[off:off+n], v.buf[:n])
	}
}

// copyBytes is the size of the copy a view of several levels needs, 0
// for a view of the buffer itself.
func (v *ImageView) copyBytes() int {
	if v.buf == nil {
		return 0
	}
	total := 0
	for _, n := range v.levelBytes() {
		total += n
	}
	return total
}

// storeLevels copies a view of several levels back to its buffer as
// amber's TransferImage::CopyToHost does after a run: each level in
// order to offset 0 of the buffer, so the last level's texels end up
// first. A view of one level is the buffer itself and needs nothing.
func (v *ImageView) storeLevels() {
	if v.buf == nil {
		return
	}
	off := 0
	for _, n := range v.levelBytes() {
		copy(v.buf[:n], v.Data[off:off+n])
		off += n
	}
}

// imageDescriptor makes the descriptor of an image, texel buffer or
// sampler binding from the buffers' current contents.
func (r *runner) imageDescriptor(bb *BufferBinding) (*ImageDescriptor, error) {
	d := &ImageDescriptor{Kind: bb.Kind}
	for _, b := range bb.Buffers {
		v, err := imageView(b, r.bufs[b].data, bb.Kind, bb.BaseMipLevel)
		if err != nil {
			if IsSkip(err) {
				return nil, Skip("%s:%d: BIND %s AS %s: %v", r.s.Path, bb.Line, b.Name, bb.Kind, err)
			}
			return nil, fmt.Errorf("%s:%d: BIND %s AS %s: %w", r.s.Path, bb.Line, b.Name, bb.Kind, err)
		}
		if n := v.copyBytes(); n > 0 {
			// the levels' copy lives until the RUN ends (releaseLevels)
			if err := r.grow(n, bb.Line, b.Name); err != nil {
				return nil, err
			}
			v.fillLevels()
		}
		d.Images = append(d.Images, v)
		if bb.Kind == BindCombinedImageSampler {
			d.Samplers = append(d.Samplers, bb.Samplers[0])
		}
	}
	if bb.Kind == BindSampler {
		d.Samplers = bb.Samplers
	}
	return d, nil
}

// releaseLevels stores the job's views of several levels back into their
// buffers (when the RUN succeeded) and returns their copies' bytes to
// the budget.
func (r *runner) releaseLevels(j *Job, store bool) {
	for _, d := range j.Images {
		for _, v := range d.Images {
			n := v.copyBytes()
			if n == 0 {
				continue
			}
			if store {
				v.storeLevels()
			}
			v.Data, v.buf = nil, nil
			r.mem -= n
			r.reserved -= n
			r.budget.release(n)
		}
	}
}
