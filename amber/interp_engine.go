//go:build spvx_interp

// This file is the adapter to the executor, written against the agreed API
// in notes/INTERP-API.md while package interp was being built elsewhere. It
// is excluded by a build tag until interp is merged: drop the tag then.

package amber

import (
	"context"
	"fmt"

	"spvx/interp"
)

// InterpEngine runs jobs on spvx's executor (package interp).
type InterpEngine struct {
	// Options are the executor options; SubgroupSize and SpecConstants are
	// set per job.
	Options interp.Options
}

// Run compiles the job's entry point once per pipeline (kept in the job's
// cache slot) and dispatches it over the job's buffers, in place.
func (e InterpEngine) Run(ctx context.Context, j *Job) error {
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
	if j.RequireFullSubgroups {
		// Vulkan rejects such a pipeline (computeFullSubgroups needs the
		// local size X to be a multiple of the subgroup size).
		if x := prog.LocalSize()[0]; x%uint32(j.SubgroupSize) != 0 {
			return fmt.Errorf("SUBGROUP FULLY_POPULATED: local size X %d is not a multiple of the subgroup size %d", x, j.SubgroupSize)
		}
	}
	res := &interp.Resources{Buffers: map[interp.BindingKey][]*interp.Buffer{}, PushConstants: j.PushConstants}
	for k, d := range j.Descriptors {
		key := interp.BindingKey{Set: k.Set, Binding: k.Binding}
		for _, v := range d.Views {
			res.Buffers[key] = append(res.Buffers[key], &interp.Buffer{Data: v})
		}
	}
	return prog.Dispatch(ctx, j.Groups[0], j.Groups[1], j.Groups[2], res)
}
