package amber

import (
	"context"

	"spvx/spirv"
)

// Engine runs one compute dispatch. The runner compiles shaders, lays out
// buffers and checks results; an Engine only executes. spvx's executor is
// adapted to it in package amber/interpengine, so amber itself never
// imports the executor; amber's tests use fakes.
type Engine interface {
	Run(ctx context.Context, job *Job) error
}

// DescriptorBinding names a descriptor by set and binding.
type DescriptorBinding struct{ Set, Binding uint32 }

// Descriptor is one bound descriptor: a buffer, or a BUFFER_ARRAY's
// buffers. Each view is the bound range of the buffer's memory, used in
// place: the engine's writes land in the script's buffer. Dynamic offsets,
// DESCRIPTOR_OFFSET and DESCRIPTOR_RANGE are already applied (a view is
// memory[offset : offset+range]), so OpArrayLength sees len(view).
type Descriptor struct {
	Kind  BufferKind // BindStorage, BindUniform, BindStorageDynamic, BindUniformDynamic
	Views [][]byte
}

// Job is one RUN: a compute pipeline with its bound resources.
type Job struct {
	// Module is the decoded SPIR-V of the pipeline's compute shader and
	// Binary its encoding; Entry names the entry point.
	Module *spirv.Module
	Binary []byte
	Entry  string
	// TargetEnv is the environment the shader was built for ("" when the
	// format has none, e.g. SPIRV-BIN).
	TargetEnv string

	// SubgroupSize is the subgroup size to run with: the SUBGROUP
	// REQUIRED_SIZE (MIN and MAX resolved against the device), else the
	// device default.
	SubgroupSize int
	// RequireFullSubgroups is SUBGROUP FULLY_POPULATED on: every subgroup
	// must be full (the workgroup's X size a multiple of SubgroupSize).
	RequireFullSubgroups bool
	// VaryingSubgroupSize is SUBGROUP VARYING_SIZE on.
	VaryingSubgroupSize bool

	// SpecConstants maps SpecId to the raw bits of the SPECIALIZE value,
	// in the width of its declared type (a float is its IEEE bits).
	SpecConstants map[uint32]uint64

	Descriptors map[DescriptorBinding]*Descriptor
	// Images are the image, texel buffer and sampler descriptors, their
	// texels used in place like the buffers' views.
	Images        map[DescriptorBinding]*ImageDescriptor
	PushConstants []byte
	Groups        [3]uint32

	// Cache is a slot kept per pipeline shader across the RUNs of one
	// script: an engine may store its compiled program there and reuse it
	// while the module, entry, subgroup size and specialization stay the
	// same (they do within a pipeline).
	Cache *any
}
