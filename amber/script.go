package amber

// Syntax is the language a script is written in.
type Syntax uint8

// The two syntaxes amber reads. A file is AmberScript when it starts with
// "#!amber", and VkScript otherwise (amber's src/amber.cc).
const (
	AmberScript Syntax = iota
	VkScript
)

func (s Syntax) String() string {
	if s == VkScript {
		return "VkScript"
	}
	return "AmberScript"
}

// ShaderFormat is how a shader's source is written.
type ShaderFormat uint8

// Shader formats.
const (
	FormatGLSL ShaderFormat = iota
	FormatHLSL
	FormatSPIRVAsm
	FormatSPIRVHex
	FormatSPIRVBin
	FormatOpenCLC
)

var shaderFormatNames = [...]string{"GLSL", "HLSL", "SPIRV-ASM", "SPIRV-HEX", "SPIRV-BIN", "OPENCL-C"}

func (f ShaderFormat) String() string { return shaderFormatNames[f] }

// Shader is one SHADER (or VkScript [compute shader]) block.
type Shader struct {
	Name      string
	Stage     string // "compute", "vertex", ...
	Format    ShaderFormat
	TargetEnv string // TARGET_ENV, "" when absent
	Source    []byte // text, or the module for SPIRV-BIN
	File      string // FILE path as written, "" when inline
	Line      int
}

// BufferKind is how a buffer is bound to a pipeline.
type BufferKind uint8

// Buffer bindings a compute pipeline can use.
const (
	BindStorage BufferKind = iota
	BindUniform
	BindStorageDynamic
	BindUniformDynamic
	BindPushConstant
	BindOther // graphics kinds: parsed, not runnable
	BindStorageImage
	BindSampledImage
	BindCombinedImageSampler
	BindUniformTexelBuffer
	BindStorageTexelBuffer
	BindSampler // BIND SAMPLER / SAMPLER_ARRAY
)

var bufferKindNames = map[string]BufferKind{
	"storage": BindStorage, "uniform": BindUniform, "storage_dynamic": BindStorageDynamic,
	"uniform_dynamic": BindUniformDynamic, "push_constant": BindPushConstant,
	"color": BindOther, "depth_stencil": BindOther, "storage_image": BindStorageImage,
	"sampled_image": BindSampledImage, "combined_image_sampler": BindCombinedImageSampler,
	"uniform_texel_buffer": BindUniformTexelBuffer, "storage_texel_buffer": BindStorageTexelBuffer, "resolve": BindOther,
}

// String is the kind as BIND spells it.
func (k BufferKind) String() string {
	for name, x := range bufferKindNames {
		if x == k && x != BindOther {
			return name
		}
	}
	if k == BindSampler {
		return "sampler"
	}
	return "other"
}

// IsImage reports whether a binding of kind k is an image, texel buffer
// or sampler descriptor rather than a buffer's bytes.
func (k BufferKind) IsImage() bool { return k >= BindStorageImage }

// Buffer is a BUFFER declaration and, while a script runs, its contents.
type Buffer struct {
	Name   string
	Format *Format
	// Elements is the element count (amber's ElementCount).
	Elements int
	// Data is the initial contents; the runner copies it before running.
	Data []byte
	// MaxSize is a lower bound on the device buffer size (VkScript subdata
	// beyond the declared size grows it).
	MaxSize int
	// Image holds what IMAGE (or BUFFER FORMAT) said about the buffer as
	// an image; a plain BUFFER has the zero value, a 1×1×1 image of
	// unknown dimensionality, as amber's Buffer.
	Image ImageInfo
	// Sampler is the SAMPLER of a BIND … AS combined_image_sampler that
	// named this buffer last (amber keeps it on the buffer too).
	Sampler *Sampler
	// formatDefault marks a VkScript buffer whose format was never given
	// (amber's "char" default, replaced by the first typed use).
	formatDefault bool
	Line          int
}

// SizeInBytes is Elements × stride.
func (b *Buffer) SizeInBytes() int { return b.Elements * b.Format.Stride }

// BufferBinding is one BIND BUFFER or BUFFER_ARRAY in a pipeline.
type BufferBinding struct {
	Buffers []*Buffer
	Kind    BufferKind
	Set     uint32
	Binding uint32
	// Per buffer: dynamic OFFSET, DESCRIPTOR_OFFSET, DESCRIPTOR_RANGE (-1
	// is VK_WHOLE_SIZE).
	DynamicOffsets    []uint64
	DescriptorOffsets []uint64
	DescriptorRanges  []int64
	// BaseMipLevel is the image view's first level (storage, sampled and
	// combined images).
	BaseMipLevel uint32
	// Samplers are a BIND SAMPLER's or SAMPLER_ARRAY's samplers (Buffers
	// is empty then), or a combined image sampler's one sampler.
	Samplers []*Sampler
	Line     int
}

// Specialization is one SPECIALIZE id AS type value.
type Specialization struct {
	ID    uint32
	Type  Scalar
	Value uint64 // raw bits of the value in Type
}

// Attachment is one ATTACH of a shader to a pipeline.
type Attachment struct {
	Shader          *Shader
	Entry           string
	Specializations []Specialization
	Optimizations   []string // SHADER_OPTIMIZATION passes
	// SUBGROUP settings.
	RequiredSubgroupSize int // 0: none; -1: MIN; -2: MAX
	FullSubgroups        bool
	VaryingSubgroupSize  bool
	Line                 int
}

// Pipeline is a PIPELINE block (or VkScript's implicit compute pipeline).
type Pipeline struct {
	Name      string
	Kind      string // "compute", "graphics", "raytracing"
	Shaders   []*Attachment
	Bindings  []*BufferBinding
	PushConst *Buffer
	Line      int
}

// binding returns the pipeline's binding at set:binding, or nil.
func (p *Pipeline) binding(set, b uint32) *BufferBinding {
	for _, x := range p.Bindings {
		if x.Set == set && x.Binding == b && x.Kind != BindPushConstant {
			return x
		}
	}
	return nil
}

// Tolerance is one TOLERANCE value.
type Tolerance struct {
	Value   float64
	Percent bool
}

// Comparator is an EXPECT comparison.
type Comparator uint8

// The comparisons of EXPECT … IDX and VkScript probe ssbo.
const (
	EQ Comparator = iota
	NE
	LT
	LE
	GT
	GE
	FuzzyEQ // EQ with TOLERANCE, or VkScript's ~=
)

var comparatorSymbols = [...]string{"==", "!=", "<", "<=", ">", ">=", "~="}

// BufferComparator is an EXPECT between two buffers.
type BufferComparator uint8

// The buffer-to-buffer comparisons.
const (
	EqBuffer BufferComparator = iota
	RMSEBuffer
	HistogramEMDBuffer
)

var bufferComparatorNames = [...]string{"EQ_BUFFER", "RMSE_BUFFER", "EQ_HISTOGRAM_EMD_BUFFER"}

// Command is one step of a script: *RunCommand, *ExpectCommand,
// *ProbeCommand, *CompareCommand, *CopyCommand, *RepeatCommand, *BufferCommand,
// *EntryPointCommand, *ClearCommand.
type Command interface {
	// Pos is the line of the command in its script.
	Pos() int
}

// RunCommand is RUN (or VkScript compute): one dispatch.
type RunCommand struct {
	Pipeline *Pipeline
	Groups   [3]uint32
	Timed    bool
	Line     int
}

// ExpectCommand is EXPECT buf IDX … or VkScript probe ssbo.
type ExpectCommand struct {
	Buffer     *Buffer
	Format     *Format // the probe's format (VkScript may differ from the buffer's)
	Offset     int     // byte offset (amber's IDX is in bytes)
	Comparator Comparator
	Tolerances []Tolerance
	Values     []Value
	// Text is the command as written, for reports.
	Text string
	Line int
	// vk marks a VkScript probe, whose bound is the buffer's device size.
	vk bool
}

// CompareCommand is EXPECT a EQ_BUFFER|RMSE_BUFFER|EQ_HISTOGRAM_EMD_BUFFER b.
type CompareCommand struct {
	A, B       *Buffer
	Comparator BufferComparator
	Tolerance  float64
	Text       string
	Line       int
}

// CopyCommand is COPY a TO b.
type CopyCommand struct {
	From, To *Buffer
	Line     int
}

// RepeatCommand is REPEAT n … END.
type RepeatCommand struct {
	Count    int
	Commands []Command
	Line     int
}

// BufferCommand is a VkScript ssbo / uniform command, applied when it runs.
type BufferCommand struct {
	Buffer *Buffer
	Format *Format // the values' format (the buffer's, or a push constant's)
	Offset int
	Values []Value // nil for "ssbo B SIZE": resize only
	Size   int     // element count of "ssbo B SIZE"
	Push   bool
	Line   int
}

// EntryPointCommand is VkScript "compute entrypoint NAME".
type EntryPointCommand struct {
	Pipeline *Pipeline
	Entry    string
	Line     int
}

// ClearCommand is CLEAR pipeline (graphics only: parsed, never run here).
type ClearCommand struct {
	Pipeline *Pipeline
	Line     int
}

// Pos implementations.
func (c *RunCommand) Pos() int        { return c.Line }
func (c *ExpectCommand) Pos() int     { return c.Line }
func (c *CompareCommand) Pos() int    { return c.Line }
func (c *CopyCommand) Pos() int       { return c.Line }
func (c *RepeatCommand) Pos() int     { return c.Line }
func (c *BufferCommand) Pos() int     { return c.Line }
func (c *EntryPointCommand) Pos() int { return c.Line }
func (c *ClearCommand) Pos() int      { return c.Line }

// Requirement is a named need of a script (DEVICE_FEATURE, DEVICE_EXTENSION,
// INSTANCE_EXTENSION, DEVICE_PROPERTY, or a VkScript [require] line).
type Requirement struct {
	Kind string // "feature", "extension", "instance extension", "property"
	Name string
	Line int
}

// Script is a parsed Amber script.
type Script struct {
	Path      string
	Syntax    Syntax
	Shaders   []*Shader
	Buffers   []*Buffer
	Pipelines []*Pipeline
	Commands  []Command
	Requires  []Requirement
	// EngineData holds SET ENGINE_DATA values (fence_timeout_ms).
	EngineData map[string]uint32
	// Notes are remarks the parser makes about what it ignores (framebuffer
	// lines of VkScript, SHADER_OPTIMIZATION without spirv-opt, ...).
	Notes []string

	Samplers []*Sampler

	shaders   map[string]*Shader
	samplers  map[string]*Sampler
	buffers   map[string]*Buffer
	pipelines map[string]*Pipeline
	// held bytes of heldBy were reserved by the parse, for the values and
	// buffers it made; the run that uses the script in place takes them.
	held   int
	heldBy *Budget
}

func newScript(path string, syn Syntax) *Script {
	return &Script{Path: path, Syntax: syn, EngineData: map[string]uint32{},
		shaders: map[string]*Shader{}, samplers: map[string]*Sampler{}, buffers: map[string]*Buffer{}, pipelines: map[string]*Pipeline{}}
}

// Buffer returns the buffer of that name, or nil.
func (s *Script) Buffer(name string) *Buffer { return s.buffers[name] }

// Pipeline returns the pipeline of that name, or nil.
func (s *Script) Pipeline(name string) *Pipeline { return s.pipelines[name] }

// requires reports whether the script declared the feature.
func (s *Script) requires(kind, name string) bool {
	for _, r := range s.Requires {
		if r.Kind == kind && r.Name == name {
			return true
		}
	}
	return false
}
