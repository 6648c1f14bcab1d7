package val

import (
	"fmt"
	"strings"

	"spvx/spirv"
)

// Env is a target environment, as spirv-val's --target-env names it.
type Env uint8

// The target environments spirv-val knows.
const (
	EnvUniversal1_6 Env = iota // spv1.6, spirv-val's default
	EnvUniversal1_0
	EnvUniversal1_1
	EnvUniversal1_2
	EnvUniversal1_3
	EnvUniversal1_4
	EnvUniversal1_5
	EnvVulkan1_0
	EnvVulkan1_1
	EnvVulkan1_1Spirv1_4
	EnvVulkan1_2
	EnvVulkan1_3
	EnvVulkan1_4
	EnvOpenCL1_2
	EnvOpenCLEmbedded1_2
	EnvOpenCL2_0
	EnvOpenCLEmbedded2_0
	EnvOpenCL2_1
	EnvOpenCLEmbedded2_1
	EnvOpenCL2_2
	EnvOpenCLEmbedded2_2
	EnvOpenGL4_0
	EnvOpenGL4_1
	EnvOpenGL4_2
	EnvOpenGL4_3
	EnvOpenGL4_5
	numEnvs
)

type envInfo struct {
	name    string // --target-env spelling
	version spirv.Version
	desc    string // spvTargetEnvDescription
}

var envs = [numEnvs]envInfo{
	EnvUniversal1_6:      {"spv1.6", spirv.MakeVersion(1, 6), "SPIR-V 1.6"},
	EnvUniversal1_0:      {"spv1.0", spirv.MakeVersion(1, 0), "SPIR-V 1.0"},
	EnvUniversal1_1:      {"spv1.1", spirv.MakeVersion(1, 1), "SPIR-V 1.1"},
	EnvUniversal1_2:      {"spv1.2", spirv.MakeVersion(1, 2), "SPIR-V 1.2"},
	EnvUniversal1_3:      {"spv1.3", spirv.MakeVersion(1, 3), "SPIR-V 1.3"},
	EnvUniversal1_4:      {"spv1.4", spirv.MakeVersion(1, 4), "SPIR-V 1.4"},
	EnvUniversal1_5:      {"spv1.5", spirv.MakeVersion(1, 5), "SPIR-V 1.5"},
	EnvVulkan1_0:         {"vulkan1.0", spirv.MakeVersion(1, 0), "SPIR-V 1.0 (under Vulkan 1.0 semantics)"},
	EnvVulkan1_1:         {"vulkan1.1", spirv.MakeVersion(1, 3), "SPIR-V 1.3 (under Vulkan 1.1 semantics)"},
	EnvVulkan1_1Spirv1_4: {"vulkan1.1spv1.4", spirv.MakeVersion(1, 4), "SPIR-V 1.4 (under Vulkan 1.1 semantics)"},
	EnvVulkan1_2:         {"vulkan1.2", spirv.MakeVersion(1, 5), "SPIR-V 1.5 (under Vulkan 1.2 semantics)"},
	EnvVulkan1_3:         {"vulkan1.3", spirv.MakeVersion(1, 6), "SPIR-V 1.6 (under Vulkan 1.3 semantics)"},
	EnvVulkan1_4:         {"vulkan1.4", spirv.MakeVersion(1, 6), "SPIR-V 1.6 (under Vulkan 1.4 semantics)"},
	EnvOpenCL1_2:         {"opencl1.2", spirv.MakeVersion(1, 0), "SPIR-V 1.0 (under OpenCL 1.2 Full Profile semantics)"},
	EnvOpenCLEmbedded1_2: {"opencl1.2embedded", spirv.MakeVersion(1, 0), "SPIR-V 1.0 (under OpenCL 1.2 Embedded Profile semantics)"},
	EnvOpenCL2_0:         {"opencl2.0", spirv.MakeVersion(1, 0), "SPIR-V 1.0 (under OpenCL 2.0 Full Profile semantics)"},
	EnvOpenCLEmbedded2_0: {"opencl2.0embedded", spirv.MakeVersion(1, 0), "SPIR-V 1.0 (under OpenCL 2.0 Embedded Profile semantics)"},
	EnvOpenCL2_1:         {"opencl2.1", spirv.MakeVersion(1, 0), "SPIR-V 1.0 (under OpenCL 2.1 Full Profile semantics)"},
	EnvOpenCLEmbedded2_1: {"opencl2.1embedded", spirv.MakeVersion(1, 0), "SPIR-V 1.0 (under OpenCL 2.1 Embedded Profile semantics)"},
	EnvOpenCL2_2:         {"opencl2.2", spirv.MakeVersion(1, 2), "SPIR-V 1.2 (under OpenCL 2.2 Full Profile semantics)"},
	EnvOpenCLEmbedded2_2: {"opencl2.2embedded", spirv.MakeVersion(1, 2), "SPIR-V 1.2 (under OpenCL 2.2 Embedded Profile semantics)"},
	EnvOpenGL4_0:         {"opengl4.0", spirv.MakeVersion(1, 0), "SPIR-V 1.0 (under OpenGL 4.0 semantics)"},
	EnvOpenGL4_1:         {"opengl4.1", spirv.MakeVersion(1, 0), "SPIR-V 1.0 (under OpenGL 4.1 semantics)"},
	EnvOpenGL4_2:         {"opengl4.2", spirv.MakeVersion(1, 0), "SPIR-V 1.0 (under OpenGL 4.2 semantics)"},
	EnvOpenGL4_3:         {"opengl4.3", spirv.MakeVersion(1, 0), "SPIR-V 1.0 (under OpenGL 4.3 semantics)"},
	EnvOpenGL4_5:         {"opengl4.5", spirv.MakeVersion(1, 0), "SPIR-V 1.0 (under OpenGL 4.5 semantics)"},
}

// ParseEnv parses a --target-env name (spv1.0 … spv1.6, vulkan1.0 …
// vulkan1.4, vulkan1.1spv1.4, opencl1.2 … opencl2.2 and their "embedded"
// forms, opengl4.0 … opengl4.5).
func ParseEnv(name string) (Env, error) {
	for e := range envs {
		if envs[e].name == name {
			return Env(e), nil
		}
	}
	return 0, fmt.Errorf("unknown target environment %q (one of %s)", name, strings.Join(EnvNames(), ", "))
}

// EnvNames lists every --target-env name, in spirv-val's help order.
func EnvNames() []string {
	var names []string
	for _, e := range envs {
		names = append(names, e.name)
	}
	return names
}

// String returns the --target-env name.
func (e Env) String() string {
	if e < numEnvs {
		return envs[e].name
	}
	return fmt.Sprintf("Env(%d)", uint8(e))
}

// Version is the highest SPIR-V version the environment accepts.
func (e Env) Version() spirv.Version {
	if e < numEnvs {
		return envs[e].version
	}
	return spirv.MakeVersion(1, 6)
}

// Description is SPIRV-Tools' description of the environment, as the
// "Invalid SPIR-V binary version" message prints it.
func (e Env) Description() string {
	if e < numEnvs {
		return envs[e].desc
	}
	return ""
}

// IsVulkan reports whether e is a Vulkan environment (spvIsVulkanEnv).
func (e Env) IsVulkan() bool { return e >= EnvVulkan1_0 && e <= EnvVulkan1_4 }

// IsOpenCL reports whether e is an OpenCL environment.
func (e Env) IsOpenCL() bool { return e >= EnvOpenCL1_2 && e <= EnvOpenCLEmbedded2_2 }

// IsOpenGL reports whether e is an OpenGL environment.
func (e Env) IsOpenGL() bool { return e >= EnvOpenGL4_0 && e <= EnvOpenGL4_5 }

// Limits are spirv-val's --max-* limits. The zero value of a field means
// spirv-val's default (see DefaultLimits).
type Limits struct {
	MaxStructMembers           uint32 // --max-struct-members
	MaxStructDepth             uint32 // --max-struct-depth
	MaxLocalVariables          uint32 // --max-local-variables
	MaxGlobalVariables         uint32 // --max-global-variables
	MaxSwitchBranches          uint32 // --max-switch-branches
	MaxFunctionArgs            uint32 // --max-function-args
	MaxControlFlowNestingDepth uint32 // --max-control-flow-nesting-depth
	MaxAccessChainIndexes      uint32 // --max-access-chain-indexes
	MaxIDBound                 uint32 // --max-id-bound
}

// DefaultLimits are spirv-val's defaults (spirv_validator_options.h).
var DefaultLimits = Limits{
	MaxStructMembers:           16383,
	MaxStructDepth:             255,
	MaxLocalVariables:          524287,
	MaxGlobalVariables:         65535,
	MaxSwitchBranches:          16383,
	MaxFunctionArgs:            255,
	MaxControlFlowNestingDepth: 1023,
	MaxAccessChainIndexes:      255,
	MaxIDBound:                 0x3FFFFF,
}

// withDefaults fills zero fields from DefaultLimits.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	pick := func(v, def uint32) uint32 {
		if v == 0 {
			return def
		}
		return v
	}
	return Limits{
		MaxStructMembers:           pick(l.MaxStructMembers, d.MaxStructMembers),
		MaxStructDepth:             pick(l.MaxStructDepth, d.MaxStructDepth),
		MaxLocalVariables:          pick(l.MaxLocalVariables, d.MaxLocalVariables),
		MaxGlobalVariables:         pick(l.MaxGlobalVariables, d.MaxGlobalVariables),
		MaxSwitchBranches:          pick(l.MaxSwitchBranches, d.MaxSwitchBranches),
		MaxFunctionArgs:            pick(l.MaxFunctionArgs, d.MaxFunctionArgs),
		MaxControlFlowNestingDepth: pick(l.MaxControlFlowNestingDepth, d.MaxControlFlowNestingDepth),
		MaxAccessChainIndexes:      pick(l.MaxAccessChainIndexes, d.MaxAccessChainIndexes),
		MaxIDBound:                 pick(l.MaxIDBound, d.MaxIDBound),
	}
}

// DescriptorLayout is a descriptor heap resource's size and alignment in
// bytes.
type DescriptorLayout struct{ Size, Align uint32 }

// Options select the environment, limits and relaxations, as spirv-val's
// flags do. The zero value is spirv-val's default: spv1.6, default limits,
// no relaxation, stop at the first error.
type Options struct {
	Env    Env
	Limits Limits

	RelaxLogicalPointer         bool // --relax-logical-pointer
	RelaxBlockLayout            bool // --relax-block-layout
	UniformBufferStandardLayout bool // --uniform-buffer-standard-layout
	ScalarBlockLayout           bool // --scalar-block-layout
	WorkgroupScalarBlockLayout  bool // --workgroup-scalar-block-layout
	SkipBlockLayout             bool // --skip-block-layout
	RelaxStructStore            bool // --relax-struct-store
	AllowLocalSizeID            bool // --allow-localsizeid
	BeforeHLSLLegalization      bool // --before-hlsl-legalization (implies RelaxLogicalPointer)
	AllowOffsetTextureOperand   bool // --allow-offset-texture-operand (read by the image rules)
	AllowVulkan32BitBitwise     bool // --allow-vulkan-32-bit-bitwise (read by the bitwise rules)

	// The descriptor heap layouts of current spirv-val's
	// --buffer-descriptor-layout, --image-descriptor-layout,
	// --sampler-descriptor-layout and --tensor-descriptor-layout
	// (SIZE:ALIGN). They are kept for the SPV_EXT_descriptor_heap rules,
	// which are not written yet; the zero value means spirv-val's default.
	BufferDescriptorLayout, ImageDescriptorLayout, SamplerDescriptorLayout, TensorDescriptorLayout DescriptorLayout

	// All goes on past the first error and reports every error found
	// (spirv-val stops at the first). Later errors may follow from earlier
	// ones.
	All bool
	// SpecStrict also enforces the extension spec texts where spirv-val is
	// looser (OCP-MX-RULES.md §2.3): the FP8/OCP allow-list of instructions
	// and the saturation decoration's target.
	SpecStrict bool

	// sequential keeps the second loop on one goroutine, and
	// forceParallel makes it parallel however small the module (for the
	// tests that compare the two).
	sequential, forceParallel bool
}

// logName is spvLogStringForEnv: "Vulkan", "OpenCL", "OpenGL" or
// "Universal".
func (e Env) logName() string {
	switch {
	case e.IsVulkan():
		return "Vulkan"
	case e.IsOpenCL():
		return "OpenCL"
	case e.IsOpenGL():
		return "OpenGL"
	}
	return "Universal"
}
