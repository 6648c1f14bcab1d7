package val

import "spvx/spirv"

// This file holds validate_capability.cpp's rule (CapabilityPass): the
// capabilities each client API environment allows an OpCapability to
// declare, guaranteed or optional, unless an extension that enables the
// capability is declared (or, in OpenCL, ImageBasic enables it). The
// universal environments, OpenGL and vulkan1.1spv1.4 have no such table,
// as in SPIRV-Tools.

// Capability lists, as SPIRV-Tools' IsSupportGuaranteed*/IsSupportOptional*
// functions spell them; each version adds to the one before.
var (
	vulkan10Guaranteed = []spirv.Capability{
		spirv.CapabilityMatrix, spirv.CapabilityShader, spirv.CapabilityInputAttachment, spirv.CapabilitySampled1D,
		spirv.CapabilityImage1D, spirv.CapabilitySampledBuffer, spirv.CapabilityImageBuffer, spirv.CapabilityImageQuery,
		spirv.CapabilityDerivativeControl,
	}
	vulkan11Guaranteed = []spirv.Capability{spirv.CapabilityDeviceGroup, spirv.CapabilityMultiView}
	vulkan12Guaranteed = []spirv.Capability{spirv.CapabilityShaderNonUniform}
	vulkan13Guaranteed = []spirv.Capability{
		spirv.CapabilityDotProduct, spirv.CapabilityDotProductInputAll, spirv.CapabilityDotProductInput4x8Bit,
		spirv.CapabilityDotProductInput4x8BitPacked, spirv.CapabilityVulkanMemoryModel,
		spirv.CapabilityVulkanMemoryModelDeviceScope, spirv.CapabilityPhysicalStorageBufferAddresses,
		spirv.CapabilityDemoteToHelperInvocation,
	}
	vulkan14Guaranteed = []spirv.Capability{
		spirv.CapabilityUniformBufferArrayDynamicIndexing, spirv.CapabilitySampledImageArrayDynamicIndexing,
		spirv.CapabilityStorageBufferArrayDynamicIndexing, spirv.CapabilityStorageImageArrayDynamicIndexing,
		spirv.CapabilityInt16, spirv.CapabilityStorageBuffer16BitAccess, spirv.CapabilityVariablePointers,
		spirv.CapabilityVariablePointersStorageBuffer, spirv.CapabilityUniformTexelBufferArrayDynamicIndexing,
		spirv.CapabilityStorageTexelBufferArrayDynamicIndexing, spirv.CapabilityInt8,
		spirv.CapabilityStorageBuffer8BitAccess, spirv.CapabilityFloatControls2, spirv.CapabilitySampleRateShading,
		spirv.CapabilityStorageImageExtendedFormats, spirv.CapabilityImageGatherExtended,
	}
	vulkan10Optional = []spirv.Capability{
		spirv.CapabilityGeometry, spirv.CapabilityTessellation, spirv.CapabilityFloat64, spirv.CapabilityInt64,
		spirv.CapabilityInt16, spirv.CapabilityTessellationPointSize, spirv.CapabilityGeometryPointSize,
		spirv.CapabilityImageGatherExtended, spirv.CapabilityStorageImageMultisample,
		spirv.CapabilityUniformBufferArrayDynamicIndexing, spirv.CapabilitySampledImageArrayDynamicIndexing,
		spirv.CapabilityStorageBufferArrayDynamicIndexing, spirv.CapabilityStorageImageArrayDynamicIndexing,
		spirv.CapabilityClipDistance, spirv.CapabilityCullDistance, spirv.CapabilityImageCubeArray,
		spirv.CapabilitySampleRateShading, spirv.CapabilitySparseResidency, spirv.CapabilityMinLod,
		spirv.CapabilitySampledCubeArray, spirv.CapabilityImageMSArray, spirv.CapabilityStorageImageExtendedFormats,
		spirv.CapabilityInterpolationFunction, spirv.CapabilityStorageImageReadWithoutFormat,
		spirv.CapabilityStorageImageWriteWithoutFormat, spirv.CapabilityMultiViewport, spirv.CapabilityInt64Atomics,
		spirv.CapabilityTransformFeedback, spirv.CapabilityGeometryStreams, spirv.CapabilityFloat16,
		spirv.CapabilityInt8, spirv.CapabilityBFloat16TypeKHR, spirv.CapabilityFloat8EXT, spirv.CapabilityFloat4EXT,
		spirv.CapabilityFloat6EXT, spirv.CapabilityFloat8UnsignedE8M0EXT, spirv.CapabilityMXInt8EXT,
		spirv.CapabilityBitcastExtractEXT, spirv.CapabilityPushConstantBanksNV,
	}
	vulkan11Optional = []spirv.Capability{
		spirv.CapabilityGroupNonUniform, spirv.CapabilityGroupNonUniformVote, spirv.CapabilityGroupNonUniformArithmetic,
		spirv.CapabilityGroupNonUniformBallot, spirv.CapabilityGroupNonUniformShuffle,
		spirv.CapabilityGroupNonUniformShuffleRelative, spirv.CapabilityGroupNonUniformClustered,
		spirv.CapabilityGroupNonUniformQuad, spirv.CapabilityDrawParameters, spirv.CapabilityStorageUniformBufferBlock16,
		spirv.CapabilityStorageUniform16, spirv.CapabilityStoragePushConstant16, spirv.CapabilityStorageInputOutput16,
		spirv.CapabilityDeviceGroup, spirv.CapabilityMultiView, spirv.CapabilityVariablePointersStorageBuffer,
		spirv.CapabilityVariablePointers,
	}
	vulkan12Optional = []spirv.Capability{
		spirv.CapabilityDenormPreserve, spirv.CapabilityDenormFlushToZero, spirv.CapabilitySignedZeroInfNanPreserve,
		spirv.CapabilityRoundingModeRTE, spirv.CapabilityRoundingModeRTZ, spirv.CapabilityVulkanMemoryModel,
		spirv.CapabilityVulkanMemoryModelDeviceScope, spirv.CapabilityStorageBuffer8BitAccess,
		spirv.CapabilityUniformAndStorageBuffer8BitAccess, spirv.CapabilityStoragePushConstant8,
		spirv.CapabilityShaderViewportIndex, spirv.CapabilityShaderLayer, spirv.CapabilityPhysicalStorageBufferAddresses,
		spirv.CapabilityRuntimeDescriptorArray, spirv.CapabilityUniformTexelBufferArrayDynamicIndexing,
		spirv.CapabilityStorageTexelBufferArrayDynamicIndexing, spirv.CapabilityUniformBufferArrayNonUniformIndexing,
		spirv.CapabilitySampledImageArrayNonUniformIndexing, spirv.CapabilityStorageBufferArrayNonUniformIndexing,
		spirv.CapabilityStorageImageArrayNonUniformIndexing, spirv.CapabilityInputAttachmentArrayNonUniformIndexing,
		spirv.CapabilityUniformTexelBufferArrayNonUniformIndexing,
		spirv.CapabilityStorageTexelBufferArrayNonUniformIndexing, spirv.CapabilityInputAttachmentArrayDynamicIndexing,
		spirv.CapabilityShaderNonUniform,
	}
	opencl12Guaranteed = []spirv.Capability{
		spirv.CapabilityAddresses, spirv.CapabilityFloat16Buffer, spirv.CapabilityInt16, spirv.CapabilityInt8,
		spirv.CapabilityKernel, spirv.CapabilityLinkage, spirv.CapabilityVector16,
	}
	opencl20Guaranteed = []spirv.Capability{
		spirv.CapabilityDeviceEnqueue, spirv.CapabilityGenericPointer, spirv.CapabilityGroups, spirv.CapabilityPipes,
	}
	opencl22Guaranteed = []spirv.Capability{spirv.CapabilitySubgroupDispatch, spirv.CapabilityPipeStorage}
	opencl12Optional   = []spirv.Capability{spirv.CapabilityImageBasic, spirv.CapabilityFloat64, spirv.CapabilityFloat16}
	// Enabled by ImageBasic (IsEnabledByCapabilityOpenCL_1_2 / _2_0).
	opencl12ByImageBasic = []spirv.Capability{
		spirv.CapabilityLiteralSampler, spirv.CapabilitySampled1D, spirv.CapabilityImage1D,
		spirv.CapabilitySampledBuffer, spirv.CapabilityImageBuffer,
	}
	opencl20ByImageBasic = append([]spirv.Capability{spirv.CapabilityImageReadWrite}, opencl12ByImageBasic...)
)

func capIn(c spirv.Capability, lists ...[]spirv.Capability) bool {
	for _, l := range lists {
		for _, x := range l {
			if x == c {
				return true
			}
		}
	}
	return false
}

// envCapabilityLists returns the lists of capabilities env allows outright,
// those ImageBasic enables, and the name the message gives the
// specification ("" for an environment without a table).
func envCapabilityLists(env Env) (allowed [][]spirv.Capability, byImageBasic []spirv.Capability, spec string) {
	vk10 := [][]spirv.Capability{vulkan10Guaranteed, vulkan10Optional}
	vk11 := append(vk10, vulkan11Guaranteed, vulkan11Optional)
	vk12 := append(vk11, vulkan12Guaranteed, vulkan12Optional)
	vk13 := append(vk12, vulkan13Guaranteed)
	cl12 := [][]spirv.Capability{opencl12Guaranteed, opencl12Optional}
	cl20 := append(cl12, opencl20Guaranteed)
	cl22 := append(cl20, opencl22Guaranteed)
	profile := " Full Profile"
	switch env {
	case EnvOpenCLEmbedded1_2, EnvOpenCLEmbedded2_0, EnvOpenCLEmbedded2_1, EnvOpenCLEmbedded2_2:
		profile = " Embedded Profile"
	}
	switch env {
	case EnvVulkan1_0:
		return vk10, nil, "Vulkan 1.0"
	case EnvVulkan1_1:
		return vk11, nil, "Vulkan 1.1"
	case EnvVulkan1_2:
		return vk12, nil, "Vulkan 1.2"
	case EnvVulkan1_3:
		return vk13, nil, "Vulkan 1.3"
	case EnvVulkan1_4:
		return append(vk13, vulkan14Guaranteed), nil, "Vulkan 1.4"
	case EnvOpenCL1_2, EnvOpenCLEmbedded1_2:
		return cl12, opencl12ByImageBasic, "OpenCL 1.2" + profile
	case EnvOpenCL2_0, EnvOpenCLEmbedded2_0, EnvOpenCL2_1, EnvOpenCLEmbedded2_1:
		return cl20, opencl20ByImageBasic, "OpenCL 2.0/2.1" + profile
	case EnvOpenCL2_2, EnvOpenCLEmbedded2_2:
		return cl22, opencl20ByImageBasic, "OpenCL 2.2" + profile
	}
	return nil, nil, ""
}

// capabilityPass is CapabilityPass: an OpCapability (or
// OpConditionalCapabilityINTEL) must declare a capability the environment
// allows.
func (s *state) capabilityPass(i int, in *spirv.Instruction) bool {
	var c spirv.Capability
	switch {
	case in.Opcode == spirv.OpCapability && len(in.Words) > 1:
		c = spirv.Capability(in.Words[1])
	case in.Opcode == spirv.OpConditionalCapabilityINTEL && len(in.Words) > 2:
		c = spirv.Capability(in.Words[2])
	default:
		return false
	}
	env := s.opts.Env
	if !env.IsVulkan() && !env.IsOpenCL() || env == EnvVulkan1_1Spirv1_4 {
		return false
	}
	allowed, byImageBasic, spec := s.envCaps()
	if capIn(c, allowed...) {
		return false
	}
	// Int64 is guaranteed by OpenCL's full profiles only.
	if c == spirv.CapabilityInt64 && env.IsOpenCL() && !isEmbedded(env) {
		return false
	}
	e, known := spirv.OperandKindCapability.Enumerant(uint32(c))
	if known && len(e.Extensions) > 0 && s.hasAnyExt(e.Extensions) {
		return false
	}
	if env.IsOpenCL() {
		if s.caps.has(spirv.CapabilityImageBasic) && capIn(c, byImageBasic) {
			return false
		}
	}
	name := "Unknown"
	if known {
		name = e.Name
	}
	if env.IsOpenCL() {
		return s.fail(i, "", "Capability %s is not allowed by %s specification (or requires extension or capability)", name, spec)
	}
	return s.fail(i, "", "Capability %s is not allowed by %s specification (or requires extension)", name, spec)
}

// envCaps caches envCapabilityLists for the run (the lists are built once
// per Validate, not per OpCapability).
func (s *state) envCaps() ([][]spirv.Capability, []spirv.Capability, string) {
	if s.envCapLists == nil {
		s.envCapLists, s.envCapImageBasic, s.envCapSpec = envCapabilityLists(s.opts.Env)
	}
	return s.envCapLists, s.envCapImageBasic, s.envCapSpec
}

func isEmbedded(env Env) bool {
	switch env {
	case EnvOpenCLEmbedded1_2, EnvOpenCLEmbedded2_0, EnvOpenCLEmbedded2_1, EnvOpenCLEmbedded2_2:
		return true
	}
	return false
}
