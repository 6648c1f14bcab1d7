package interpengine

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"spvx/amber"
	"spvx/internal/vkref"
	"spvx/interp"
	"spvx/spirv"
)

// lavapipeEngine runs each job on a Vulkan driver through internal/vkref
// (set 0 only, one descriptor per binding; samplers converted as the
// executor's engine converts them) and writes what the driver
// left in every buffer and image back into the job's memory, so that a
// script's EXPECTs check the driver's results.
type lavapipeEngine struct{ d *vkref.Driver }

func (e lavapipeEngine) Run(_ context.Context, j *amber.Job) error {
	job := &vkref.Job{SPIRV: j.Binary, Entry: j.Entry, Groups: j.Groups, Push: j.PushConstants}
	var dst [][]byte
	add := func(k amber.DescriptorBinding, n int, b vkref.Buffer, mem []byte) error {
		if k.Set != 0 || n != 1 {
			return fmt.Errorf("vkref takes one descriptor per binding of set 0, not %d at %d:%d", n, k.Set, k.Binding)
		}
		b.Binding, b.Data = k.Binding, append([]byte(nil), mem...)
		job.Buffers, dst = append(job.Buffers, b), append(dst, mem)
		return nil
	}
	for k, d := range j.Descriptors {
		if err := add(k, len(d.Views), vkref.Buffer{Uniform: d.Kind == amber.BindUniform}, d.Views[0]); err != nil {
			return err
		}
	}
	for k, d := range j.Images {
		b, data, n, err := vkrefImage(d)
		if err != nil {
			return err
		}
		if err := add(k, n, b, data); err != nil {
			return err
		}
	}
	out, err := e.d.Run(job)
	if err != nil {
		return err
	}
	for i := range out {
		copy(dst[i], out[i])
	}
	return nil
}

// vkrefImage is an image, texel buffer or sampler descriptor as vkref
// takes it, with its memory and the number of descriptors it has.
func vkrefImage(d *amber.ImageDescriptor) (vkref.Buffer, []byte, int, error) {
	var b vkref.Buffer
	if len(d.Samplers) > 0 {
		sm, err := sampler(d.Samplers[0])
		if err != nil {
			return b, nil, 0, err
		}
		b.Sampler = sm
	}
	if d.Kind == amber.BindSampler {
		b.Image = &vkref.Image{Kind: interp.SamplerDescriptor}
		return b, nil, len(d.Samplers), nil
	}
	v := d.Images[0]
	b.Image = &vkref.Image{Kind: vkrefKind[d.Kind], Format: v.Format, Dim: vkrefDim[v.Dim],
		Width: v.Width, Height: v.Height, Depth: v.Depth, Levels: v.Levels}
	return b, v.Data, len(d.Images), nil
}

var vkrefKind = map[amber.BufferKind]interp.ResourceKind{amber.BindStorageImage: interp.StorageImage,
	amber.BindStorageTexelBuffer: interp.StorageTexelBuffer, amber.BindUniformTexelBuffer: interp.UniformTexelBuffer,
	amber.BindSampledImage: interp.SampledImage, amber.BindCombinedImageSampler: interp.CombinedImageSampler}

// vkrefDim is the image type of each IMAGE dimensionality; amber makes an
// image that never named one 2D.
var vkrefDim = map[amber.ImageDim]spirv.Dim{amber.DimUnknown: spirv.Dim2D, amber.Dim1D: spirv.Dim1D,
	amber.Dim2D: spirv.Dim2D, amber.Dim3D: spirv.Dim3D}

// TestImageScriptsOnLavapipe runs spvx's storage image, texel buffer
// and sampled image scripts (testdata/interp/image_*, texel_*, sampled_*)
// on lavapipe: their expected values, worked out by exact arithmetic or
// taken from lavapipe with the tolerances Vulkan allows, must hold on a
// Vulkan driver too (the expect_fail one must fail there as well).
// TestRunOwnScriptsOnExecutor runs the same scripts on the executor.
func TestImageScriptsOnLavapipe(t *testing.T) {
	var files []string
	for _, g := range []string{"../testdata/interp/image_*.amber", "../testdata/interp/texel_*.amber", "../testdata/interp/sampl*.amber"} {
		m, _ := filepath.Glob(g)
		files = append(files, m...)
	}
	if len(files) < 9 {
		t.Fatalf("found %d image scripts, want 9", len(files))
	}
	d, err := vkref.New(vkref.Lavapipe)
	if err != nil {
		t.Skip(err)
	}
	for _, f := range files {
		r := amber.RunFile(context.Background(), f, amber.Options{Engine: lavapipeEngine{d}})
		if r.Status != amber.Pass {
			t.Errorf("%s on lavapipe: %v: %s", f, r.Status, r.Reason)
		}
	}
}
