package amber

import (
	"fmt"
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

// ImageView is an image's texels as the executor sees them: a storage
// format and the size of the bound level, with Data the script buffer's
// bytes used in place (x fastest, then y, then z). A texel buffer is an
// image of Width texels.
type ImageView struct {
	Format               spirv.ImageFormat
	Dim                  ImageDim
	Width, Height, Depth int
	Data                 []byte
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
func imageView(b *Buffer, data []byte, kind BufferKind) (*ImageView, error) {
	name := formatName(b.Format.Type)
	f, ok := imageFormats[name]
	if !ok {
		if name == "" {
			name = b.Format.Type.Name
		}
		return nil, Skip("buffer %s: format %s is not an image format spvx's executor has (it has %s)",
			b.Name, name, strings.Join(ImageFormatNames(), ", "))
	}
	in, _ := vkformat.Lookup(f)
	if in.Size != b.Format.Stride {
		return nil, fmt.Errorf("buffer %s: %s texels are %d bytes, its elements %d", b.Name, name, in.Size, b.Format.Stride)
	}
	v := &ImageView{Format: f, Dim: b.Image.Dim, Data: data}
	if kind == BindUniformTexelBuffer || kind == BindStorageTexelBuffer {
		v.Width, v.Height, v.Depth = len(data)/in.Size, 1, 1
		v.Dim = Dim1D
		return v, nil
	}
	if b.Image.Levels() > 1 {
		return nil, Skip("buffer %s: MIP_LEVELS %d: spvx does not generate mipmap levels (amber blits them)", b.Name, b.Image.Levels())
	}
	if b.Image.Samples > 1 {
		return nil, Skip("buffer %s: SAMPLES %d: spvx's executor has no multisampled images", b.Name, b.Image.Samples)
	}
	w, h, d := b.Image.Size()
	v.Width, v.Height, v.Depth = int(w), int(h), int(d)
	if need := v.Width * v.Height * v.Depth * in.Size; need > len(data) {
		return nil, fmt.Errorf("buffer %s holds %d bytes, a %d×%d×%d image of %s needs %d", b.Name, len(data), w, h, d, name, need)
	}
	v.Data = data[:v.Width*v.Height*v.Depth*in.Size]
	return v, nil
}

// imageDescriptor makes the descriptor of an image, texel buffer or
// sampler binding from the buffers' current contents.
func (r *runner) imageDescriptor(bb *BufferBinding) (*ImageDescriptor, error) {
	d := &ImageDescriptor{Kind: bb.Kind}
	for _, b := range bb.Buffers {
		v, err := imageView(b, r.bufs[b].data, bb.Kind)
		if err != nil {
			if IsSkip(err) {
				return nil, Skip("%s:%d: BIND %s AS %s: %v", r.s.Path, bb.Line, b.Name, bb.Kind, err)
			}
			return nil, fmt.Errorf("%s:%d: BIND %s AS %s: %w", r.s.Path, bb.Line, b.Name, bb.Kind, err)
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
