package amber

import (
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
)

// amberFeatures are the feature names amber accepts in DEVICE_FEATURE and
// VkScript [require] (src/script.cc IsKnownFeature).
var amberFeatures = strings.Fields(`robustBufferAccess fullDrawIndexUint32 imageCubeArray
independentBlend geometryShader tessellationShader sampleRateShading dualSrcBlend logicOp
multiDrawIndirect drawIndirectFirstInstance depthClamp depthBiasClamp fillModeNonSolid depthBounds
wideLines largePoints alphaToOne multiViewport samplerAnisotropy textureCompressionETC2
textureCompressionASTC_LDR textureCompressionBC occlusionQueryPrecise pipelineStatisticsQuery
vertexPipelineStoresAndAtomics fragmentStoresAndAtomics shaderTessellationAndGeometryPointSize
shaderImageGatherExtended shaderStorageImageExtendedFormats shaderStorageImageMultisample
shaderStorageImageReadWithoutFormat shaderStorageImageWriteWithoutFormat
shaderUniformBufferArrayDynamicIndexing shaderSampledImageArrayDynamicIndexing
shaderStorageBufferArrayDynamicIndexing shaderStorageImageArrayDynamicIndexing shaderClipDistance
shaderCullDistance shaderFloat64 shaderInt64 shaderInt16 shaderResourceResidency
shaderResourceMinLod sparseBinding sparseResidencyBuffer sparseResidencyImage2D
sparseResidencyImage3D sparseResidency2Samples sparseResidency4Samples sparseResidency8Samples
sparseResidency16Samples sparseResidencyAliased variableMultisampleRate inheritedQueries
VariablePointerFeatures.variablePointers VariablePointerFeatures.variablePointersStorageBuffer
Float16Int8Features.shaderFloat16 Float16Int8Features.shaderInt8
VulkanMemoryModelFeatures.vulkanMemoryModel VulkanMemoryModelFeatures.vulkanMemoryModelDeviceScope
VulkanMemoryModelFeatures.vulkanMemoryModelAvailabilityVisibilityChains
ZeroInitializeWorkgroupMemoryFeatures.shaderZeroInitializeWorkgroupMemory
Storage8BitFeatures.storageBuffer8BitAccess Storage8BitFeatures.uniformAndStorageBuffer8BitAccess
Storage8BitFeatures.storagePushConstant8 Storage16BitFeatures.storageBuffer16BitAccess
Storage16BitFeatures.uniformAndStorageBuffer16BitAccess Storage16BitFeatures.storagePushConstant16
Storage16BitFeatures.storageInputOutput16 DepthClampZeroOneFeatures.depthClampZeroOne
SubgroupSizeControl.subgroupSizeControl SubgroupSizeControl.computeFullSubgroups
SubgroupSupportedOperations.basic SubgroupSupportedOperations.vote
SubgroupSupportedOperations.arithmetic SubgroupSupportedOperations.ballot
SubgroupSupportedOperations.shuffle SubgroupSupportedOperations.shuffleRelative
SubgroupSupportedOperations.clustered SubgroupSupportedOperations.quad
SubgroupSupportedStages.vertex SubgroupSupportedStages.tessellationControl
SubgroupSupportedStages.tessellationEvaluation SubgroupSupportedStages.geometry
SubgroupSupportedStages.fragment SubgroupSupportedStages.compute
IndexTypeUint8Features.indexTypeUint8 ShaderSubgroupExtendedTypesFeatures.shaderSubgroupExtendedTypes
CooperativeMatrixFeaturesKHR.cooperativeMatrix RayTracingPipelineFeaturesKHR.rayTracingPipeline
AccelerationStructureFeaturesKHR.accelerationStructure BufferDeviceAddressFeatures.bufferDeviceAddress
ShaderLongVectorFeaturesEXT.longVector`)

// amberProperties are the DEVICE_PROPERTY names amber accepts.
var amberProperties = strings.Fields(`FloatControlsProperties.shaderSignedZeroInfNanPreserveFloat16
FloatControlsProperties.shaderSignedZeroInfNanPreserveFloat32
FloatControlsProperties.shaderSignedZeroInfNanPreserveFloat64
FloatControlsProperties.shaderDenormPreserveFloat16 FloatControlsProperties.shaderDenormPreserveFloat32
FloatControlsProperties.shaderDenormPreserveFloat64 FloatControlsProperties.shaderDenormFlushToZeroFloat16
FloatControlsProperties.shaderDenormFlushToZeroFloat32 FloatControlsProperties.shaderDenormFlushToZeroFloat64
FloatControlsProperties.shaderRoundingModeRTEFloat16 FloatControlsProperties.shaderRoundingModeRTEFloat32
FloatControlsProperties.shaderRoundingModeRTEFloat64 FloatControlsProperties.shaderRoundingModeRTZFloat16
FloatControlsProperties.shaderRoundingModeRTZFloat32 FloatControlsProperties.shaderRoundingModeRTZFloat64`)

var knownFeatures, knownProperties = set(amberFeatures), set(amberProperties)

func set(names []string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

func knownFeature(s string) bool  { return knownFeatures[s] }
func knownProperty(s string) bool { return knownProperties[s] }

// Device is the declared device spvx runs scripts on: what it supports,
// with its limits. A script that needs anything else is SKIP with the
// missing name.
type Device struct {
	Name               string
	Features           map[string]bool
	Extensions         map[string]bool
	InstanceExtensions map[string]bool
	Properties         map[string]bool
	// Subgroup sizes: DefaultSubgroupSize unless a pipeline's SUBGROUP
	// REQUIRED_SIZE asks for any power of two in [MinSubgroupSize,
	// MaxSubgroupSize].
	DefaultSubgroupSize, MinSubgroupSize, MaxSubgroupSize int
	Limits                                                []Limit
	// ImageFormats are the VkFormat names an IMAGE or texel buffer can
	// have to be bound as a storage image or texel buffer.
	ImageFormats []string
	// SampledImageFormats are the further VkFormat names a sampled image
	// or combined image sampler can have.
	SampledImageFormats []string
	// CoopMat are the cooperative matrix configurations the device lists
	// (vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR's answer).
	CoopMat []CoopMatProperties
}

// CoopMatProperties is one VkCooperativeMatrixPropertiesKHR: an M×N×K
// MulAdd's sizes, component types (VkComponentTypeKHR names without the
// VK_COMPONENT_TYPE_ prefix and _KHR suffix), saturation and scope.
type CoopMatProperties struct {
	M, N, K                int
	A, B, C, Result        string
	SaturatingAccumulation bool
	Scope                  string
}

// coopMatTypes are the A/B and C/Result component types interp's MulAdd
// runs (interp/coopmat.go; its tests run each), with whether the integer
// forms saturate.
var coopMatTypes = []struct {
	ab, cr string
	sat    bool
}{
	{"FLOAT16", "FLOAT16", false}, {"FLOAT16", "FLOAT32", false}, {"BFLOAT16", "FLOAT32", false},
	{"BFLOAT16", "BFLOAT16", false}, {"FLOAT32", "FLOAT32", false}, {"FLOAT8_E4M3_EXT", "FLOAT16", false},
	{"FLOAT8_E4M3_EXT", "FLOAT32", false}, {"FLOAT8_E5M2_EXT", "FLOAT32", false},
	{"SINT8", "SINT32", false}, {"UINT8", "UINT32", false}, {"SINT8", "SINT32", true}, {"UINT8", "UINT32", true},
}

// coopMatList is the device's list: every type pair at 16×16×16, 16×8×16
// and 8×8×32, at Subgroup scope. (interp runs any sizes up to 65536
// elements a matrix; a list must be finite.)
func coopMatList() []CoopMatProperties {
	var out []CoopMatProperties
	for _, t := range coopMatTypes {
		for _, s := range [][3]int{{16, 16, 16}, {16, 8, 16}, {8, 8, 32}} {
			out = append(out, CoopMatProperties{M: s[0], N: s[1], K: s[2], A: t.ab, B: t.ab, C: t.cr, Result: t.cr,
				SaturatingAccumulation: t.sat, Scope: "SUBGROUP"})
		}
	}
	return out
}

// Limit is one named device limit, for --device-info.
type Limit struct {
	Name  string
	Value string
}

// DefaultDevice is spvx's CPU device: the compute features the executor
// implements. Graphics-only features are absent.
func DefaultDevice() *Device {
	d := &Device{
		Name:                "spvx CPU executor",
		DefaultSubgroupSize: 32, MinSubgroupSize: 1, MaxSubgroupSize: 128,
		Features: set(strings.Fields(`shaderFloat64 shaderInt64 shaderInt16
			shaderUniformBufferArrayDynamicIndexing shaderStorageBufferArrayDynamicIndexing
			VariablePointerFeatures.variablePointers VariablePointerFeatures.variablePointersStorageBuffer
			Float16Int8Features.shaderFloat16 Float16Int8Features.shaderInt8
			VulkanMemoryModelFeatures.vulkanMemoryModel VulkanMemoryModelFeatures.vulkanMemoryModelDeviceScope
			VulkanMemoryModelFeatures.vulkanMemoryModelAvailabilityVisibilityChains
			ZeroInitializeWorkgroupMemoryFeatures.shaderZeroInitializeWorkgroupMemory
			Storage8BitFeatures.storageBuffer8BitAccess Storage8BitFeatures.uniformAndStorageBuffer8BitAccess
			Storage8BitFeatures.storagePushConstant8 Storage16BitFeatures.storageBuffer16BitAccess
			Storage16BitFeatures.uniformAndStorageBuffer16BitAccess Storage16BitFeatures.storagePushConstant16
			SubgroupSizeControl.subgroupSizeControl SubgroupSizeControl.computeFullSubgroups
			SubgroupSupportedOperations.basic SubgroupSupportedOperations.vote
			SubgroupSupportedOperations.arithmetic SubgroupSupportedOperations.ballot
			SubgroupSupportedOperations.shuffle SubgroupSupportedOperations.shuffleRelative
			SubgroupSupportedOperations.clustered SubgroupSupportedOperations.quad
			SubgroupSupportedStages.compute ShaderSubgroupExtendedTypesFeatures.shaderSubgroupExtendedTypes
			WorkgroupMemoryExplicitLayoutFeatures.workgroupMemoryExplicitLayout
			WorkgroupMemoryExplicitLayoutFeatures.workgroupMemoryExplicitLayoutScalarBlockLayout
			WorkgroupMemoryExplicitLayoutFeatures.workgroupMemoryExplicitLayout8BitAccess
			WorkgroupMemoryExplicitLayoutFeatures.workgroupMemoryExplicitLayout16BitAccess
			ShaderSubgroupUniformControlFlowFeatures.shaderSubgroupUniformControlFlow
			ShaderLongVectorFeaturesEXT.longVector shaderStorageImageExtendedFormats
			shaderStorageImageReadWithoutFormat shaderStorageImageWriteWithoutFormat
			CooperativeMatrixFeaturesKHR.cooperativeMatrix`)),
		CoopMat:             coopMatList(),
		ImageFormats:        ImageFormatNames(),
		SampledImageFormats: SampledImageFormatNames(),
		Extensions: set(strings.Fields(`VK_KHR_storage_buffer_storage_class VK_KHR_16bit_storage
			VK_KHR_8bit_storage VK_KHR_shader_float16_int8 VK_KHR_variable_pointers VK_KHR_spirv_1_4
			VK_KHR_shader_float_controls VK_KHR_vulkan_memory_model VK_KHR_zero_initialize_workgroup_memory
			VK_KHR_workgroup_memory_explicit_layout VK_KHR_shader_subgroup_uniform_control_flow
			VK_EXT_subgroup_size_control VK_KHR_shader_subgroup_extended_types VK_EXT_descriptor_indexing
			VK_KHR_shader_non_semantic_info VK_KHR_uniform_buffer_standard_layout VK_EXT_scalar_block_layout
			VK_KHR_shader_integer_dot_product VK_KHR_maintenance4 VK_KHR_get_physical_device_properties2
			VK_EXT_shader_float8 VK_EXT_shader_ocp_microscaling_types VK_KHR_cooperative_matrix`)),
		InstanceExtensions: set([]string{"VK_KHR_get_physical_device_properties2"}),
		Properties: set(strings.Fields(`FloatControlsProperties.shaderSignedZeroInfNanPreserveFloat16
			FloatControlsProperties.shaderSignedZeroInfNanPreserveFloat32
			FloatControlsProperties.shaderSignedZeroInfNanPreserveFloat64
			FloatControlsProperties.shaderDenormPreserveFloat16 FloatControlsProperties.shaderDenormPreserveFloat32
			FloatControlsProperties.shaderDenormPreserveFloat64 FloatControlsProperties.shaderRoundingModeRTEFloat16
			FloatControlsProperties.shaderRoundingModeRTEFloat32 FloatControlsProperties.shaderRoundingModeRTEFloat64`)),
		Limits: []Limit{
			{"apiVersion", "1.3 (compute)"},
			{"subgroupSize", "32 (default)"},
			{"minSubgroupSize", "1"},
			{"maxSubgroupSize", "128"},
			{"requiredSubgroupSizeStages", "compute"},
			{"maxComputeWorkGroupInvocations", "1024"},
			{"maxComputeWorkGroupSize", "1024 1024 64"},
			{"maxComputeWorkGroupCount", "65535 65535 65535"},
			{"maxComputeSharedMemorySize", "65536"},
			{"maxPushConstantsSize", "256"},
			{"maxBoundDescriptorSets", "8"},
			{"maxStorageBufferRange", "4294967295"},
			{"maxUniformBufferRange", "65536"},
			{"minStorageBufferOffsetAlignment", "4"},
			{"minUniformBufferOffsetAlignment", "4"},
			{"SPIR-V versions", "1.0 - 1.6"},
			{"image types", "1D, 2D, 3D; mip levels, one sample"},
			{"robustImageAccess", "off (an out-of-bounds image access faults)"},
		},
	}
	return d
}

// Print writes the device description (spvx run --device-info).
func (d *Device) Print(w io.Writer) {
	fmt.Fprintf(w, "device: %s\n", d.Name)
	fmt.Fprintf(w, "subgroup sizes: default %d, REQUIRED_SIZE any power of two from %d to %d\n",
		d.DefaultSubgroupSize, d.MinSubgroupSize, d.MaxSubgroupSize)
	fmt.Fprintln(w, "limits:")
	for _, l := range d.Limits {
		fmt.Fprintf(w, "  %-34s %s\n", l.Name, l.Value)
	}
	list := func(title string, m map[string]bool) {
		fmt.Fprintf(w, "%s (%d):\n", title, len(m))
		for _, n := range sorted(m) {
			fmt.Fprintf(w, "  %s\n", n)
		}
	}
	list("features", d.Features)
	list("device extensions", d.Extensions)
	list("instance extensions", d.InstanceExtensions)
	list("properties", d.Properties)
	fmt.Fprintf(w, "storage image and texel buffer formats (%d):\n", len(d.ImageFormats))
	for _, n := range d.ImageFormats {
		fmt.Fprintf(w, "  %s\n", n)
	}
	fmt.Fprintf(w, "sampled-only image formats (%d):\n", len(d.SampledImageFormats))
	for _, n := range d.SampledImageFormats {
		fmt.Fprintf(w, "  %s\n", n)
	}
	fmt.Fprintf(w, "cooperative matrix properties (%d; M N K A B C Result saturating scope):\n", len(d.CoopMat))
	for _, c := range d.CoopMat {
		fmt.Fprintf(w, "  %d %d %d %s %s %s %s %v %s\n", c.M, c.N, c.K, c.A, c.B, c.C, c.Result, c.SaturatingAccumulation, c.Scope)
	}
	fmt.Fprint(w, intelMatrixInfo)
}

func sorted(m map[string]bool) []string {
	var out []string
	for k, v := range m {
		if v {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// Missing lists what reqs needs that the device lacks, as "feature X",
// "extension Y", ...
func (d *Device) Missing(reqs []Requirement) []string {
	var out []string
	for _, r := range reqs {
		var m map[string]bool
		switch r.Kind {
		case "feature":
			m = d.Features
		case "extension":
			m = d.Extensions
		case "instance extension":
			m = d.InstanceExtensions
		case "property":
			m = d.Properties
		}
		if !m[r.Name] {
			out = append(out, r.Kind+" "+r.Name)
		}
	}
	return out
}

// CTSRule records context the Vulkan CTS gives a script from C++ rather
// than in the file: the SPIR-V version its assembly is built for, and
// requirements its test group adds.
type CTSRule struct {
	// Dir is a folder (slash-separated, relative to the CTS amber data
	// folder) matched anywhere in a script's path.
	Dir string
	// Match, if set, further restricts the rule to file names containing
	// it.
	Match string
	// SPIRVAsmEnv is the target environment the CTS assembles SPIRV-ASM
	// shaders with in this folder ("" when the default applies).
	SPIRVAsmEnv string
	Requires    []Requirement
	Source      string // the CTS source file that registers the group
}

func req(kind string, names ...string) []Requirement {
	var r []Requirement
	for _, n := range names {
		r = append(r, Requirement{Kind: kind, Name: n})
	}
	return r
}

// CTSRules is the table of CTS requirements that live in C++.
var CTSRules = []CTSRule{
	{Dir: "spirv_assembly/instruction/spirv1p4/", SPIRVAsmEnv: "spv1.4",
		Requires: req("extension", "VK_KHR_spirv_1_4"), Source: "vktSpvAsmSpirvVersion1p4Tests.cpp"},
	{Dir: "compute/workgroup_memory_explicit_layout/", SPIRVAsmEnv: "spv1.4",
		Requires: append(req("extension", "VK_KHR_workgroup_memory_explicit_layout", "VK_KHR_spirv_1_4"),
			req("feature", "WorkgroupMemoryExplicitLayoutFeatures.workgroupMemoryExplicitLayout")...),
		Source: "vktComputeWorkgroupMemoryExplicitLayoutTests.cpp"},
	{Dir: "spirv_assembly/instruction/compute/ptr_access_chain/", SPIRVAsmEnv: "spv1.4",
		Requires: append(req("extension", "VK_KHR_workgroup_memory_explicit_layout", "VK_KHR_spirv_1_4"),
			req("feature", "VariablePointerFeatures.variablePointers")...),
		Source: "vktSpvAsmPtrAccessChainTests.cpp"},
	{Dir: "subgroup_uniform_control_flow/",
		Requires: append(req("extension", "VK_KHR_shader_subgroup_uniform_control_flow"),
			req("feature", "ShaderSubgroupUniformControlFlowFeatures.shaderSubgroupUniformControlFlow",
				"SubgroupSupportedOperations.basic", "SubgroupSupportedOperations.vote",
				"SubgroupSupportedOperations.ballot", "SubgroupSupportedStages.compute")...),
		Source: "vktSubgroupUniformControlFlowTests.cpp"},
	{Dir: "ldexp/", Match: "16", Requires: req("feature", "Float16Int8Features.shaderFloat16", "shaderInt16",
		"Storage16BitFeatures.storageBuffer16BitAccess"), Source: "vktSpvAsmLdexpTests.cpp"},
	{Dir: "ldexp/", Match: "int8", Requires: req("feature", "Float16Int8Features.shaderInt8",
		"Storage8BitFeatures.storageBuffer8BitAccess"), Source: "vktSpvAsmLdexpTests.cpp"},
	{Dir: "ldexp/", Match: "i8vec", Requires: req("feature", "Float16Int8Features.shaderInt8",
		"Storage8BitFeatures.storageBuffer8BitAccess"), Source: "vktSpvAsmLdexpTests.cpp"},
	{Dir: "ldexp/", Match: "64", Requires: req("feature", "shaderInt64"), Source: "vktSpvAsmLdexpTests.cpp"},
	{Dir: "ldexp/", Match: "double", Requires: req("feature", "shaderFloat64"), Source: "vktSpvAsmLdexpTests.cpp"},
	{Dir: "compute/zero_initialize_workgroup_memory/",
		Requires: req("feature", "ZeroInitializeWorkgroupMemoryFeatures.shaderZeroInitializeWorkgroupMemory"),
		Source:   "vktComputeZeroInitializeWorkgroupMemoryTests.cpp"},
}

// ctsRules returns the rules that apply to a script path.
func ctsRules(path string) []CTSRule {
	p := filepath.ToSlash(path)
	base := filepath.Base(p)
	var out []CTSRule
	for _, r := range CTSRules {
		if !strings.Contains(p, "/"+r.Dir) && !strings.HasPrefix(p, r.Dir) {
			continue
		}
		if r.Match != "" && !strings.Contains(base, r.Match) {
			continue
		}
		out = append(out, r)
	}
	return out
}

// intelMatrixInfo describes the Intel matrix engines' parameters the
// executor runs (interp/dpas.go, interp/block2d.go). They are OpenCL
// kernel extensions, which no Vulkan feature names, so scripts cannot
// REQUIRE them; spvx run on a Kernel module uses them.
const intelMatrixInfo = `Intel subgroup matrix multiply-accumulate (SPV_INTEL_subgroup_matrix_multiply_accumulate rev 1, Kernel):
  subgroup sizes 8 16 32; N = the subgroup size; M 1 to 8
  K = N times the A elements a component packs (K < N: one element per component)
  A, B: packed int8/uint8, int4/uint4, fp16, bf16, tf32, or plain integer and float components
  C, Result: int32, float32, float16, bf16; floats summed in order (float32) or exactly (--matrix-accumulate)
Intel 2D block I/O (SPV_INTEL_2d_block_io rev 2, Kernel):
  load, transform (element sizes 1, 2), transpose, prefetch, store; element sizes 1 2 4 8
  block width at least 1 (a multiple of 4 for 1-byte, 2 for 2-byte elements), height and count at least 1, at most 65536 padded cells
`
