// Package interpengine runs Amber jobs on spvx's executor: it is the
// adapter from an amber.Job to package interp, kept apart from amber as
// google/amber keeps its Vulkan engine apart from its parser, so that
// amber never imports the executor and another engine plugs in the same
// way.
package interpengine

import (
	"context"
	"errors"
	"fmt"

	"spvx/amber"
	"spvx/interp"
)

// Engine runs jobs on spvx's executor (package interp).
type Engine struct {
	// Options are the executor options; SubgroupSize and SpecConstants are
	// set per job.
	Options interp.Options
}

// Run compiles the job's entry point once per pipeline (kept in the job's
// cache slot) and dispatches it over the job's buffers, in place.
func (e Engine) Run(ctx context.Context, j *amber.Job) error {
	prog, _ := (*j.Cache).(*interp.Program)
	if prog == nil {
		o := e.Options
		o.SubgroupSize = j.SubgroupSize
		o.SpecConstants = j.SpecConstants
		p, err := interp.Compile(j.Module, j.Entry, o)
		if err != nil {
			return err
		}
		prog = p
		*j.Cache = p
	}
	// FULLY_POPULATED with a local size X that is not a multiple of the
	// subgroup size is invalid Vulkan usage (computeFullSubgroups), but
	// amber does not check it, and the CTS's subgroup_uniform_control_flow
	// "partial" scripts (local size 119) expect the driver to run them with a
	// partial last subgroup, which is what the executor does.
	res, err := resources(j)
	if err != nil {
		return err
	}
	err = prog.Dispatch(ctx, j.Groups[0], j.Groups[1], j.Groups[2], res)
	if err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		// amber's words when a submission outlives its fence timeout
		return fmt.Errorf("Vulkan::Calling vkWaitForFences Timeout (%v)", err)
	}
	return err
}

// resources are the job's descriptors as the executor takes them: buffer
// views, images and texel buffers under their set and binding, and the
// samplers of sampler descriptors and combined image samplers under the
// same key as their images. A sampler Vulkan does not allow is an error
// naming its SAMPLER line.
func resources(j *amber.Job) (*interp.Resources, error) {
	res := &interp.Resources{Buffers: map[interp.BindingKey][]*interp.Buffer{}, PushConstants: j.PushConstants,
		Images: map[interp.BindingKey][]*interp.Image{}, Samplers: map[interp.BindingKey][]*interp.Sampler{}}
	for k, d := range j.Descriptors {
		key := interp.BindingKey{Set: k.Set, Binding: k.Binding}
		for _, v := range d.Views {
			res.Buffers[key] = append(res.Buffers[key], &interp.Buffer{Data: v})
		}
	}
	for k, d := range j.Images {
		key := interp.BindingKey{Set: k.Set, Binding: k.Binding}
		for _, v := range d.Images {
			res.Images[key] = append(res.Images[key], &interp.Image{Format: v.Format,
				Width: v.Width, Height: v.Height, Depth: v.Depth, Layers: 1, Levels: max(v.Levels, 1), Data: v.Data})
		}
		for _, s := range d.Samplers {
			sm, err := sampler(s)
			if err != nil {
				return nil, err
			}
			res.Samplers[key] = append(res.Samplers[key], sm)
		}
	}
	return res, nil
}

// sampler converts an amber SAMPLER as amber's Vulkan engine fills
// VkSamplerCreateInfo (src/vulkan/sampler.cc): both keep Vulkan's
// enumeration orders, so filters, address modes, the border colour and
// the compare op carry over by value; the mipmap mode is amber's (always
// nearest: AmberScript has no option for it), mipLodBias 0, and
// UNNORMALIZED_COORDS sets unnormalizedCoordinates. A sampler that
// vkCreateSampler's valid usage forbids (interp.Sampler.Check) is an
// error naming the SAMPLER's line.
func sampler(s *amber.Sampler) (*interp.Sampler, error) {
	sm := &interp.Sampler{
		MagFilter: interp.Filter(s.MagFilter), MinFilter: interp.Filter(s.MinFilter),
		MipmapMode: interp.MipmapMode(s.MipmapMode),
		AddressU:   interp.AddressMode(s.AddressU), AddressV: interp.AddressMode(s.AddressV),
		AddressW:    interp.AddressMode(s.AddressW),
		BorderColor: interp.BorderColor(s.BorderColor),
		MinLod:      s.MinLOD, MaxLod: s.MaxLOD,
		UnnormalizedCoordinates: !s.NormalizedCoords,
		CompareEnable:           s.CompareEnable, CompareOp: interp.CompareOp(s.CompareOp),
	}
	if err := sm.Check(); err != nil {
		return nil, fmt.Errorf("line %d: SAMPLER %s: %v", s.Line, s.Name, err)
	}
	return sm, nil
}
