// Package vkref runs GLCompute SPIR-V on a Vulkan driver, Mesa's lavapipe
// on this machine class, as an independent second engine for interp.
//
// The driver shares nothing with spvx but the module: it compiles the
// SPIR-V with its own front end (NIR, then LLVM). A small C host
// (host/vkhost.c), built with gcc against the system's Vulkan loader the
// first time a test needs it and run as a process, creates the buffers,
// texel buffers (VkBufferView), storage and sampled images (VkImage of
// optimal tiling, with mip levels, filled and read back through staging
// copies), samplers and combined image samplers at descriptor set 0,
// dispatches, and returns every one's bytes. Run gives the
// same job to interp, so a test compares the two byte for byte or within
// the Vulkan precision a function has.
//
// lavapipe (Mesa 22.3) has a subgroup size of 8 (its SIMD width), no float
// controls, no shaderFloat8 and no cooperative matrices; tests that need
// those cannot be judged here. Its image stores round float16 and the
// 11/10-bit floats toward zero and clamp integers to the format's range,
// and its UNORM reads may be an ULP off the correctly rounded c/(2^b-1):
// image tests store values on which those choices and spvx's agree.
package vkref

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os/exec"

	"spvx/internal/hostbuild"
	"spvx/internal/vkformat"
	"spvx/interp"
	"spvx/spirv"
)

//go:embed host/vkhost.c
var hostSource []byte

// Buffer is one buffer, texel buffer, image, sampler or combined image
// sampler at descriptor set 0.
type Buffer struct {
	Binding uint32
	Uniform bool // a uniform buffer; otherwise a storage buffer
	// Image, if set, makes the descriptor a texel buffer or image of
	// Data's texels (laid out as interp.Image describes).
	Image *Image
	// Sampler, with Image.Kind SamplerDescriptor or CombinedImageSampler,
	// is the sampler (a sampler alone has no Data).
	Sampler *interp.Sampler
	Data    []byte
}

// Image describes a texel buffer, image or sampler descriptor.
type Image struct {
	Kind    interp.ResourceKind // StorageImage, StorageTexelBuffer, UniformTexelBuffer, SampledImage, SamplerDescriptor or CombinedImageSampler
	Format  spirv.ImageFormat
	Dim     spirv.Dim // StorageImage: 1D, 2D, 3D or Cube
	Arrayed bool
	// Width, Height, Depth and Layers (a cube's faces) as in interp.Image;
	// 0 means 1.
	Width, Height, Depth, Layers int
	Levels                       int // sampled images: mip levels, 0 means 1
}

// ErrUnsupportedFormat is the error of a job whose texel buffer or image
// format the device cannot use for the descriptor.
var ErrUnsupportedFormat = errors.New("vkref: the device lacks storage support for the format")

// Job is one dispatch of one entry point.
type Job struct {
	SPIRV   []byte // the module, little-endian words
	Entry   string
	Groups  [3]uint32
	Buffers []Buffer
	Push    []byte
	Spec    map[uint32]uint32 // 32-bit specialization constants by SpecId
}

// Driver is a Vulkan device reached through the host.
type Driver struct {
	// Device is a substring of the device name ("llvmpipe" for lavapipe).
	Device string
	host   string
	// Info is the device name and subgroup size the last run reported.
	Info string
}

// Lavapipe names Mesa's software Vulkan device.
const Lavapipe = "llvmpipe"

// New finds the host and a device named like device, or says why it
// cannot (the caller skips with that message).
func New(device string) (*Driver, error) {
	host, err := hostbuild.Build("vkhost", hostSource, "/usr/include/vulkan/vulkan.h", "libvulkan-dev", "-lvulkan")
	if err != nil {
		return nil, err
	}
	d := &Driver{Device: device, host: host}
	// An empty compute shader tells whether the device exists.
	if _, err := d.Run(&Job{SPIRV: emptyShader(), Entry: "main", Groups: [3]uint32{1, 1, 1}}); err != nil {
		return nil, fmt.Errorf("no usable Vulkan device %q (Debian: mesa-vulkan-drivers): %v", device, err)
	}
	return d, nil
}

// Run dispatches the job on the driver and returns the buffers after it.
func (d *Driver) Run(j *Job) ([][]byte, error) {
	if len(j.SPIRV)%4 != 0 {
		return nil, errors.New("vkref: the module is not whole words")
	}
	var req bytes.Buffer
	w32 := func(v uint32) { binary.Write(&req, binary.LittleEndian, v) }
	wstr := func(s string) { w32(uint32(len(s))); req.WriteString(s) }
	w32(0x31484b56)
	wstr(d.Device)
	w32(uint32(len(j.SPIRV) / 4))
	req.Write(j.SPIRV)
	wstr(j.Entry)
	for _, g := range j.Groups {
		w32(g)
	}
	w32(uint32(len(j.Buffers)))
	for _, b := range j.Buffers {
		w32(b.Binding)
		kind := uint32(0)
		if b.Uniform {
			kind = 1
		}
		if b.Image != nil {
			if err := writeImage(&req, b.Image); err != nil {
				return nil, err
			}
			if k := b.Image.Kind; k == interp.SamplerDescriptor || k == interp.CombinedImageSampler {
				if b.Sampler == nil {
					return nil, fmt.Errorf("vkref: binding %d is a %s without a Sampler", b.Binding, k)
				}
				writeSampler(&req, b.Sampler)
			}
		} else {
			w32(kind)
		}
		binary.Write(&req, binary.LittleEndian, uint64(len(b.Data)))
		req.Write(b.Data)
	}
	w32(uint32(len(j.Push)))
	req.Write(j.Push)
	w32(uint32(len(j.Spec)))
	for id, v := range j.Spec {
		w32(id)
		w32(v)
	}
	cmd := exec.Command(d.host)
	cmd.Stdin = &req
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("Vulkan host: %v: %s", err, bytes.TrimSpace(stderr.Bytes()))
	}
	return d.parse(out, len(j.Buffers))
}

func (d *Driver) parse(out []byte, nbuf int) ([][]byte, error) {
	rd := bytes.NewReader(out)
	var st, n uint32
	if binary.Read(rd, binary.LittleEndian, &st) != nil || binary.Read(rd, binary.LittleEndian, &n) != nil || int(n) > rd.Len() {
		return nil, errors.New("Vulkan host: bad reply")
	}
	msg := make([]byte, n)
	rd.Read(msg)
	if st == 4 {
		return nil, fmt.Errorf("%w: %s", ErrUnsupportedFormat, nameVkFormat(string(msg)))
	}
	if st != 0 {
		return nil, errors.New(string(msg))
	}
	d.Info = string(msg)
	bufs := make([][]byte, nbuf)
	for i := range bufs {
		var size uint64
		if binary.Read(rd, binary.LittleEndian, &size) != nil || size > uint64(rd.Len()) {
			return nil, errors.New("Vulkan host: bad reply")
		}
		bufs[i] = make([]byte, size)
		rd.Read(bufs[i])
	}
	return bufs, nil
}

// RunSPVX runs the same job on interp at the given subgroup size and
// returns the buffers after it.
func RunSPVX(j *Job, opts interp.Options) ([][]byte, error) {
	m, err := spirv.Decode(j.SPIRV)
	if err != nil {
		return nil, err
	}
	if len(j.Spec) > 0 {
		opts.SpecConstants = map[uint32]uint64{}
		for id, v := range j.Spec {
			opts.SpecConstants[id] = uint64(v)
		}
	}
	p, err := interp.Compile(m, j.Entry, opts)
	if err != nil {
		return nil, err
	}
	res := &interp.Resources{Buffers: map[interp.BindingKey][]*interp.Buffer{}, PushConstants: j.Push}
	out := make([][]byte, len(j.Buffers))
	res.Images = map[interp.BindingKey][]*interp.Image{}
	res.Samplers = map[interp.BindingKey][]*interp.Sampler{}
	for i, b := range j.Buffers {
		out[i] = append([]byte(nil), b.Data...)
		key := interp.BindingKey{Set: 0, Binding: b.Binding}
		if b.Sampler != nil {
			res.Samplers[key] = []*interp.Sampler{b.Sampler}
		}
		if im := b.Image; im != nil && im.Kind != interp.SamplerDescriptor {
			res.Images[key] = []*interp.Image{{Format: im.Format, Width: im.Width, Height: im.Height, Depth: im.Depth, Layers: im.Layers, Levels: im.Levels, Data: out[i]}}
			continue
		}
		if b.Image != nil {
			continue
		}
		res.Buffers[key] = []*interp.Buffer{{Data: out[i]}}
	}
	if err := p.Dispatch(context.Background(), j.Groups[0], j.Groups[1], j.Groups[2], res); err != nil {
		return nil, err
	}
	return out, nil
}

// emptyShader is `void main() {}` at local size 1.
func emptyShader() []byte {
	words := []uint32{
		0x07230203, 0x00010000, 0, 6, 0,
		0x00020011, 1, // OpCapability Shader
		0x0003000e, 0, 1, // OpMemoryModel Logical GLSL450
		0x0005000f, 5, 1, 0x6e69616d, 0, // OpEntryPoint GLCompute %1 "main"
		0x00060010, 1, 17, 1, 1, 1, // OpExecutionMode %1 LocalSize 1 1 1
		0x00020013, 2, // %2 = OpTypeVoid
		0x00030021, 3, 2, // %3 = OpTypeFunction %2
		0x00050036, 2, 1, 0, 3, // %1 = OpFunction %2 None %3
		0x000200f8, 4, // OpLabel %4
		0x000100fd, // OpReturn
		0x00010038, // OpFunctionEnd
	}
	b := make([]byte, 4*len(words))
	for i, w := range words {
		binary.LittleEndian.PutUint32(b[4*i:], w)
	}
	return b
}

// writeImage writes a texel buffer's or image's kind and description in
// the host's request format.
func writeImage(req *bytes.Buffer, im *Image) error {
	w32 := func(v uint32) { binary.Write(req, binary.LittleEndian, v) }
	if im.Kind == interp.SamplerDescriptor {
		w32(6)
		return nil
	}
	f, ok := vkformat.Lookup(im.Format)
	if !ok {
		return fmt.Errorf("vkref: %s is no image format", vkformat.Name(im.Format))
	}
	kind := uint32(4)
	switch im.Kind {
	case interp.StorageTexelBuffer, interp.UniformTexelBuffer:
		w32(2 + uint32(im.Kind-interp.StorageTexelBuffer))
		w32(f.VkFormat)
		return nil
	case interp.StorageImage:
	case interp.SampledImage:
		kind = 5
	case interp.CombinedImageSampler:
		kind = 7
	default:
		return fmt.Errorf("vkref: descriptor kind %s is no image", im.Kind)
	}
	// VkImageType and VkImageViewType (non-arrayed, arrayed) by Dim
	types := map[spirv.Dim][3]uint32{spirv.Dim1D: {0, 0, 4}, spirv.Dim2D: {1, 1, 5}, spirv.Dim3D: {2, 2, 2}, spirv.DimCube: {1, 3, 6}}
	t, ok := types[im.Dim]
	if !ok || im.Arrayed && im.Dim == spirv.Dim3D {
		return fmt.Errorf("vkref: no Vulkan image of Dim %d (arrayed %v)", im.Dim, im.Arrayed)
	}
	view := t[1]
	if im.Arrayed {
		view = t[2]
	}
	one := func(n int) uint32 { return uint32(max(n, 1)) }
	w32(kind)
	w32(f.VkFormat)
	for _, v := range []uint32{t[0], view, one(im.Width), one(im.Height), one(im.Depth), one(im.Layers)} {
		w32(v)
	}
	if kind != 4 {
		w32(one(im.Levels))
	}
	return nil
}

// writeSampler writes a sampler's VkSamplerCreateInfo fields (interp's
// enumerations have Vulkan's values).
func writeSampler(req *bytes.Buffer, s *interp.Sampler) {
	for _, v := range []uint32{uint32(s.MagFilter), uint32(s.MinFilter), uint32(s.MipmapMode), uint32(s.AddressU),
		uint32(s.AddressV), uint32(s.AddressW), uint32(s.BorderColor), b2u(s.UnnormalizedCoordinates),
		b2u(s.CompareEnable), uint32(s.CompareOp), math.Float32bits(s.MipLodBias), math.Float32bits(s.MinLod), math.Float32bits(s.MaxLod)} {
		binary.Write(req, binary.LittleEndian, v)
	}
}

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// nameVkFormat adds the SPIR-V name of the VkFormat a host message
// ("VkFormat 98 has no ...") names.
func nameVkFormat(msg string) string {
	var v uint32
	if _, err := fmt.Sscanf(msg, "VkFormat %d", &v); err == nil {
		for _, f := range append(vkformat.Formats(), vkformat.SampledFormats()...) {
			if in, _ := vkformat.Lookup(f); in.VkFormat == v {
				return vkformat.Name(f) + ": " + msg
			}
		}
	}
	return msg
}
