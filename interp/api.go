package interp

import (
	"fmt"
	"io"
	"strings"

	"spvx/spirv"
)

// Options configure compilation and dispatch.
type Options struct {
	// SubgroupSize is the number of invocations of a subgroup, 1..128
	// (a power of two is not required); 0 means the size the entry point
	// requires with OpExecutionMode SubgroupSize, or 32 if it has none.
	// A size that differs from the required one fails to compile.
	SubgroupSize int
	// MaxSteps is the per-dispatch budget of work units; 0 means
	// DefaultMaxSteps, a negative value means unlimited. An instruction
	// costs 32 units plus one per component of its result (or stored
	// value) per active invocation (four for a memory access), a multiway
	// branch also one per case;
	// copying, clearing or initializing memory one unit per 8 bytes;
	// starting a workgroup WorkgroupCost units plus its memory. (The name
	// is kept from when the budget counted subgroup-instructions.)
	MaxSteps int64
	// Strict reports undefined behaviour that is otherwise given a value
	// (integer division by zero, an out-of-range OpBitcastExtractEXT offset).
	Strict bool
	// Shuffle permutes workgroup and subgroup order with Seed, to expose races
	// (the subgroups of a workgroup then always run apart: SeparateSubgroups).
	Shuffle bool
	Seed    int64
	// Parallelism is the number of goroutines running workgroups; 0 means
	// GOMAXPROCS.
	Parallelism int
	// SpecConstants maps a SpecId to raw bits (the low bits are used for
	// narrow types; bool: 0 or 1).
	SpecConstants map[uint32]uint64
	// Trace, if non-nil, receives per subgroup the executed blocks and their
	// active masks. Tracing serializes the dispatch.
	Trace io.Writer
	// SeparateSubgroups runs each subgroup of a workgroup on its own
	// throughout. By default the subgroups run as one wide group in
	// lockstep while the workgroup's control flow is uniform (see
	// ARCHITECTURE.md, "Wide groups"); the results are the same for
	// race-free kernels. Shuffle and Trace imply it.
	SeparateSubgroups bool
	// RobustImageAccess gives out-of-bounds image accesses the meaning
	// Vulkan's robustImageAccess feature gives them: reads return zeros,
	// writes are dropped. Without it they are faults
	// (FaultOutOfBounds). An atomic on a texel out of bounds then does
	// nothing and returns 0.
	RobustImageAccess bool
	// MatrixAccumulate chooses how the matrix instructions sum
	// floating-point products: in order, rounding each step
	// (MatrixOrdered), or exactly, rounding once (MatrixExact).
	MatrixAccumulate MatrixAccumulate
	// CoopMatLayout chooses where a cooperative matrix's elements live
	// among a subgroup's invocations (implementation-defined): CoopMatLinear,
	// or CoopMatShuffle, a permutation drawn from Seed, to expose programs
	// that depend on one layout.
	CoopMatLayout CoopMatLayout
}

// DefaultMaxSteps is the work budget of a dispatch when Options.MaxSteps
// is 0: some 2^27 instructions over 32 invocations, or 2^28 on one; from
// a few seconds of CPU (arithmetic) to some 20 s (memory-bound code).
const DefaultMaxSteps = 1 << 33

// WorkgroupCost is the work charged for starting a workgroup, besides the
// memory it clears and initializes. It is some ten times the CPU time of
// an empty workgroup's start (100 ns, 200 units): a dispatch of billions
// of workgroups that do next to nothing then ends by the default budget
// in a fraction of a second, while a million workgroups pay only a
// quarter of it.
const WorkgroupCost = 1 << 11

// MaxWorkerMemory bounds the workgroup state (Workgroup memory, registers,
// invocation memory) that a dispatch's workers hold together: a dispatch
// whose workgroups need more than MaxWorkerMemory/Parallelism bytes each
// runs on fewer workers, down to one.
const MaxWorkerMemory = 1 << 30

// Binding describes one descriptor the entry point uses.
type Binding struct {
	Set, Binding uint32
	Kind         ResourceKind
	ArraySize    int // 1 for a non-array; 0 for a runtime array of descriptors
}

// ResourceKind says what kind of descriptor a Binding is.
type ResourceKind int

// Resource kinds.
const (
	StorageBuffer ResourceKind = iota
	UniformBuffer
	StorageImage         // OpTypeImage Sampled 2, Dim other than Buffer: an *Image
	StorageTexelBuffer   // OpTypeImage Sampled 2, Dim Buffer: an *Image
	UniformTexelBuffer   // OpTypeImage Sampled 1, Dim Buffer: an *Image
	SampledImage         // OpTypeImage Sampled 1, Dim other than Buffer: an *Image
	SamplerDescriptor    // OpTypeSampler: a *Sampler
	CombinedImageSampler // OpTypeSampledImage: an *Image and a *Sampler under one key
)

func (k ResourceKind) String() string {
	switch k {
	case StorageBuffer:
		return "StorageBuffer"
	case UniformBuffer:
		return "UniformBuffer"
	case StorageImage:
		return "StorageImage"
	case StorageTexelBuffer:
		return "StorageTexelBuffer"
	case UniformTexelBuffer:
		return "UniformTexelBuffer"
	case SampledImage:
		return "SampledImage"
	case SamplerDescriptor:
		return "Sampler"
	case CombinedImageSampler:
		return "CombinedImageSampler"
	}
	return fmt.Sprintf("ResourceKind(%d)", int(k))
}

// BindingKey names a descriptor.
type BindingKey struct{ Set, Binding uint32 }

// Resources are what a dispatch reads and writes. Buffers are used in place:
// writes land in the caller's byte slices. A descriptor array binding has one
// *Buffer per element. Dynamic offsets are expressed by passing a sub-slice
// view of the memory (Data = whole[off:off+size]); OpArrayLength sees
// len(Data).
type Resources struct {
	Buffers       map[BindingKey][]*Buffer
	Images        map[BindingKey][]*Image   // storage, sampled and combined images, texel buffers
	Samplers      map[BindingKey][]*Sampler // samplers, and combined image samplers' sampler halves
	PushConstants []byte
	Args          []KernelArg // Kernel modules, in parameter order
	GlobalOffset  [3]uint32   // Kernel modules (get_global_offset)
}

// Buffer is one buffer's memory.
type Buffer struct{ Data []byte }

// Image is one storage image, sampled image or texel buffer: its format
// (a storage format, or for a sampled image also one of
// internal/vkformat's sampled-only formats: sRGB, BGRA, D16, D32f; the
// shader's declared format, unless Unknown, must be the same) and size,
// and its texels, used in place like a Buffer's Data.
//
// Data holds the texels tightly packed, each Format's texel size
// (internal/vkformat): level 0 first, then each smaller level, level k
// being max(1, Width>>k) by max(1, Height>>k) by max(1, Depth>>k); within
// a level, layer after layer, within a layer slice z after slice z, within
// a slice row after row, x fastest. A cube image's layers are its faces,
// six per cube, in the order +X, -X, +Y, -Y, +Z, -Z. Height, Depth, Layers
// and Levels 0 mean 1. A texel buffer is an Image of Width texels.
//
// Samples is a multisampled image's sample count (0 and 1 mean a
// single-sampled image; a multisampled one is 2D, has one level, and binds
// only where the shader declares MS 1): each texel's samples are
// consecutive in Data, sample 0 first.
type Image struct {
	Format                               spirv.ImageFormat
	Width, Height, Depth, Layers, Levels int
	Samples                              int
	Data                                 []byte
}

// KernelArgKind says which form of a KernelArg is meant.
type KernelArgKind int

// Kernel argument kinds.
const (
	ArgGlobal KernelArgKind = iota // __global / __constant pointer: Global
	ArgLocal                       // __local pointer: LocalSize bytes of workgroup memory
	ArgScalar                      // by-value scalar: Scalar
	ArgBytes                       // by-value struct or vector (or byval pointer): Bytes
)

// KernelArg is one OpenCL kernel argument: exactly one of the forms,
// selected by Kind.
type KernelArg struct {
	Global    []byte // __global / __constant pointer: memory used in place
	LocalSize int    // __local pointer: bytes of workgroup memory, zeroed per workgroup
	Scalar    uint64 // by-value scalar (raw bits, little-endian value)
	Bytes     []byte // by-value struct/vector: its bytes
	Kind      KernelArgKind
}

// FaultKind classifies a Fault.
type FaultKind int

// Fault kinds.
const (
	FaultOutOfBounds FaultKind = iota + 1
	FaultNullPointer
	FaultDivByZero
	FaultStepBudget
	FaultRecursion
	FaultMissingResource
	FaultBarrier
	FaultSubgroup
	FaultUnreachable
	FaultUnsupported
	FaultCanceled
	FaultUndefined
)

var faultKindNames = [...]string{
	FaultOutOfBounds:     "out-of-bounds access",
	FaultNullPointer:     "null pointer",
	FaultDivByZero:       "division by zero",
	FaultStepBudget:      "work budget exceeded",
	FaultRecursion:       "recursion",
	FaultMissingResource: "missing resource",
	FaultBarrier:         "barrier",
	FaultSubgroup:        "undefined subgroup operation",
	FaultUnreachable:     "OpUnreachable reached",
	FaultUnsupported:     "unsupported",
	FaultCanceled:        "canceled",
	FaultUndefined:       "undefined behaviour",
}

func (k FaultKind) String() string {
	if k > 0 && int(k) < len(faultKindNames) {
		return faultKindNames[k]
	}
	return fmt.Sprintf("FaultKind(%d)", int(k))
}

// Fault is the error of a run-time fault: out-of-bounds access, null or
// dangling pointer, division by zero under Strict, step budget exceeded,
// missing resource, barrier in divergent control flow, undefined subgroup
// use. It names the instruction, function and invocation.
type Fault struct {
	Kind       FaultKind
	Inst       string // the disassembled instruction, e.g. "%12 = OpLoad %uint %11"
	Function   string // the function's OpName, or "%N"
	GlobalID   [3]uint32
	LocalID    [3]uint32
	SubgroupID uint32
	Lane       uint32
	Msg        string
}

// Error formats the fault on one line.
func (f *Fault) Error() string {
	var b strings.Builder
	b.WriteString("interp: ")
	b.WriteString(f.Kind.String())
	if f.Msg != "" {
		b.WriteString(": ")
		b.WriteString(f.Msg)
	}
	if f.Inst != "" {
		fmt.Fprintf(&b, " at %q", f.Inst)
	}
	if f.Function != "" {
		fmt.Fprintf(&b, " in function %s", f.Function)
	}
	fmt.Fprintf(&b, " (global id %d,%d,%d; local id %d,%d,%d; subgroup %d lane %d)",
		f.GlobalID[0], f.GlobalID[1], f.GlobalID[2], f.LocalID[0], f.LocalID[1], f.LocalID[2], f.SubgroupID, f.Lane)
	return b.String()
}

// LocalSize returns the workgroup size after specialization (LocalSize,
// LocalSizeId, a WorkgroupSize built-in constant); for a Kernel without one,
// zero.
func (p *Program) LocalSize() [3]uint32 { return p.localSize }

// ExecutionModel returns GLCompute or Kernel.
func (p *Program) ExecutionModel() spirv.ExecutionModel { return p.model }

// Bindings lists the descriptors the entry point uses, sorted by (Set, Binding).
func (p *Program) Bindings() []Binding { return append([]Binding(nil), p.bindings...) }

// SubgroupSize returns the subgroup size the program was compiled for.
func (p *Program) SubgroupSize() int { return p.S }

// NumArgs returns the number of kernel parameters (0 for GLCompute).
func (p *Program) NumArgs() int { return len(p.params) }

// ArgInfo describes one kernel parameter.
type ArgInfo struct {
	Pointer bool               // a pointer parameter
	Storage spirv.StorageClass // for a pointer: CrossWorkgroup, Workgroup, UniformConstant, Function (byval)...
	Size    int                // by-value: bytes; byval pointer: bytes of the pointee
}

// Args describes the kernel parameters, in order.
func (p *Program) Args() []ArgInfo {
	out := make([]ArgInfo, len(p.params))
	for i, a := range p.params {
		out[i] = ArgInfo{Pointer: a.pointer, Storage: a.storage, Size: a.size}
	}
	return out
}

// BufferAddress returns the device address of element index of a
// descriptor binding, for PhysicalStorageBuffer64 pointers (what
// vkGetBufferDeviceAddress gives a Vulkan program): the buffer bound there
// at dispatch, plus any byte offset the kernel adds. ok is false if the
// entry point does not use the binding or index is out of its range.
func (p *Program) BufferAddress(key BindingKey, index int) (addr uint64, ok bool) {
	for _, b := range p.bufs {
		if b.key == key && !b.kind.isImage() && index >= 0 && index < b.span && (b.count == 0 || index < b.count) {
			return uint64(b.region+index) << p.ptrShift, true
		}
	}
	return 0, false
}

// Sampler is a sampler descriptor, with the fields and meanings of
// VkSamplerCreateInfo that a compute shader can observe. The zero value is
// Vulkan's most common sampler: nearest filtering, nearest mipmaps,
// Repeat addressing, transparent black border, normalized coordinates,
// MinLod 0, MaxLod 0 (only level 0 is sampled; set MaxLod to sample
// further levels, as VK_LOD_CLAMP_NONE does with 1000).
type Sampler struct {
	MagFilter, MinFilter         Filter
	MipmapMode                   MipmapMode
	AddressU, AddressV, AddressW AddressMode
	BorderColor                  BorderColor
	MipLodBias, MinLod, MaxLod   float32
	// UnnormalizedCoordinates: coordinates are in texels, not [0, 1);
	// Vulkan then requires equal filters, Nearest mipmaps, MinLod and
	// MaxLod 0, ClampToEdge or ClampToBorder, no comparison.
	UnnormalizedCoordinates bool
	CompareEnable           bool // Dref instructions compare with CompareOp
	CompareOp               CompareOp
}

// Filter is VkFilter.
type Filter uint8

// Filters.
const (
	FilterNearest Filter = iota
	FilterLinear
)

// MipmapMode is VkSamplerMipmapMode.
type MipmapMode uint8

// Mipmap modes.
const (
	MipmapNearest MipmapMode = iota
	MipmapLinear
)

// AddressMode is VkSamplerAddressMode.
type AddressMode uint8

// Address modes.
const (
	AddressRepeat AddressMode = iota
	AddressMirroredRepeat
	AddressClampToEdge
	AddressClampToBorder
	AddressMirrorClampToEdge
)

// BorderColor is VkBorderColor.
type BorderColor uint8

// Border colours.
const (
	BorderFloatTransparentBlack BorderColor = iota
	BorderIntTransparentBlack
	BorderFloatOpaqueBlack
	BorderIntOpaqueBlack
	BorderFloatOpaqueWhite
	BorderIntOpaqueWhite
)

// CompareOp is VkCompareOp, the depth comparison of Dref instructions.
type CompareOp uint8

// Comparisons: the reference (Dref) is compared with the texel's value,
// "Dref op texel" as Vulkan's texel depth compare operation does.
const (
	CompareNever CompareOp = iota
	CompareLess
	CompareEqual
	CompareLessOrEqual
	CompareGreater
	CompareNotEqual
	CompareGreaterOrEqual
	CompareAlways
)
