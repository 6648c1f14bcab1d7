package interpengine

import (
	"strings"
	"testing"

	"spvx/amber"
	"spvx/interp"
	"spvx/spirv"
)

// TestResourcesKeys checks where each descriptor lands in the executor's
// Resources: buffers in Buffers, images and texel buffers in Images, a
// sampler in Samplers, and a combined image sampler in both under one
// key, its sampler converted field by field.
func TestResourcesKeys(t *testing.T) {
	img := &amber.ImageView{Format: spirv.ImageFormatRgba8, Dim: amber.Dim2D, Width: 2, Height: 3, Depth: 1, Data: make([]byte, 24)}
	tb := &amber.ImageView{Format: spirv.ImageFormatR32ui, Dim: amber.Dim1D, Width: 5, Height: 1, Depth: 1, Data: make([]byte, 20)}
	s := &amber.Sampler{MagFilter: 1, MinFilter: 0, MipmapMode: 1, AddressU: 1, AddressV: 3, AddressW: 4, BorderColor: 5,
		MinLOD: 0.5, MaxLOD: 3, NormalizedCoords: true, CompareEnable: true, CompareOp: 4}
	j := &amber.Job{
		Descriptors: map[amber.DescriptorBinding]*amber.Descriptor{{Set: 0, Binding: 0}: {Kind: amber.BindStorage, Views: [][]byte{make([]byte, 8)}}},
		Images: map[amber.DescriptorBinding]*amber.ImageDescriptor{
			{Set: 0, Binding: 1}: {Kind: amber.BindStorageImage, Images: []*amber.ImageView{img}},
			{Set: 0, Binding: 2}: {Kind: amber.BindStorageTexelBuffer, Images: []*amber.ImageView{tb, tb}},
			{Set: 1, Binding: 0}: {Kind: amber.BindCombinedImageSampler, Images: []*amber.ImageView{img}, Samplers: []*amber.Sampler{s}},
			{Set: 1, Binding: 1}: {Kind: amber.BindSampler, Samplers: []*amber.Sampler{s}},
		},
	}
	res, err := resources(j)
	if err != nil {
		t.Fatal(err)
	}
	key := func(set, b uint32) interp.BindingKey { return interp.BindingKey{Set: set, Binding: b} }
	if len(res.Buffers) != 1 || len(res.Buffers[key(0, 0)]) != 1 {
		t.Errorf("buffers: %v", res.Buffers)
	}
	if len(res.Images) != 3 || len(res.Images[key(0, 2)]) != 2 || len(res.Images[key(1, 0)]) != 1 {
		t.Errorf("images: %v", res.Images)
	}
	got := res.Images[key(0, 1)][0]
	if got.Format != img.Format || got.Width != 2 || got.Height != 3 || got.Depth != 1 || got.Levels != 1 || &got.Data[0] != &img.Data[0] {
		t.Errorf("storage image: %+v", got)
	}
	if len(res.Samplers) != 2 || len(res.Samplers[key(1, 0)]) != 1 || len(res.Samplers[key(1, 1)]) != 1 {
		t.Fatalf("samplers: %v", res.Samplers)
	}
	want := interp.Sampler{MagFilter: interp.FilterLinear, MinFilter: interp.FilterNearest, MipmapMode: interp.MipmapLinear,
		AddressU: interp.AddressMirroredRepeat, AddressV: interp.AddressClampToBorder, AddressW: interp.AddressMirrorClampToEdge,
		BorderColor: interp.BorderIntOpaqueWhite, MinLod: 0.5, MaxLod: 3,
		CompareEnable: true, CompareOp: interp.CompareGreater}
	if *res.Samplers[key(1, 0)][0] != want {
		t.Errorf("sampler:\n got %+v\nwant %+v", *res.Samplers[key(1, 0)][0], want)
	}
}

// TestResourcesBadSampler: a sampler vkCreateSampler's valid usage
// forbids (unnormalized coordinates with linear minification and
// repeat addressing) is an error naming its SAMPLER line, not a run.
func TestResourcesBadSampler(t *testing.T) {
	s := &amber.Sampler{Name: "sm", MinFilter: 1, Line: 7, NormalizedCoords: false}
	j := &amber.Job{Images: map[amber.DescriptorBinding]*amber.ImageDescriptor{
		{Set: 0, Binding: 0}: {Kind: amber.BindSampler, Samplers: []*amber.Sampler{s}}}}
	_, err := resources(j)
	if err == nil || !strings.Contains(err.Error(), "line 7: SAMPLER sm: unnormalizedCoordinates") {
		t.Fatalf("got %v, want an error naming line 7 and the unnormalized rule", err)
	}
	s.NormalizedCoords = true
	if _, err := resources(j); err != nil {
		t.Fatalf("a valid sampler: %v", err)
	}
}
