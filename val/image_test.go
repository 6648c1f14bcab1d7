package val

import "testing"

const imageDecls = `
%v4u = OpTypeVector %u32 4
%img = OpTypeImage %f32 2D 0 0 0 1 Unknown
%imgu = OpTypeImage %u32 2D 0 0 0 1 Unknown
%imgms = OpTypeImage %f32 2D 0 0 1 1 Unknown
%img3 = OpTypeImage %f32 3D 0 0 0 1 Unknown
%imgcube = OpTypeImage %f32 Cube 0 0 0 1 Unknown
%imgd = OpTypeImage %f32 2D 1 0 0 1 Unknown
%stor = OpTypeImage %f32 2D 0 0 0 2 Rgba32f
%simg = OpTypeSampledImage %img
%simgms = OpTypeSampledImage %imgms
%simgd = OpTypeSampledImage %imgd
%simg3 = OpTypeSampledImage %img3
%samp = OpTypeSampler
`

const imageBody = `
%i = OpUndef %img
%iu = OpUndef %imgu
%ims = OpUndef %imgms
%icube = OpUndef %imgcube
%st = OpUndef %stor
%s = OpUndef %samp
%si = OpSampledImage %simg %i %s
%sims = OpUndef %simgms
%sid = OpUndef %simgd
%si3 = OpUndef %simg3
`

// texelDecls declares a storage image variable %var and Image pointers.
const texelDecls = `
%imgs = OpTypeImage %u32 2D 0 0 0 2 R32ui
%pvar = OpTypePointer UniformConstant %imgs
%var = OpVariable %pvar UniformConstant
%pimgu32 = OpTypePointer Image %u32
%pimgf32 = OpTypePointer Image %f32
%pfu32 = OpTypePointer Function %u32
%u0 = OpConstant %u32 0
`

// img is a shader module with images (from OpUndef) next to tr's types.
func img(decls, body string) module {
	m := tr(imageDecls+decls, imageBody+body)
	m.caps += " ImageQuery ImageGatherExtended"
	return m
}

func TestImageRules(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "valid", oracle: true, mod: img("", `
%a = OpImageSampleExplicitLod %v4f %si %fv Lod %f1
%b = OpImageFetch %v4f %i %iv
%c = OpImageSampleDrefExplicitLod %f32 %sid %fv %f1 Lod %f1
%d = OpImageGather %v4f %si %fv %i1
%e = OpImageRead %v4f %st %iv
OpImageWrite %st %iv %fv4
%f = OpImage %img %si
`)},
		{name: "type sampled type", oracle: true, mod: img("%bad = OpTypeImage %bool 2D 0 0 0 1 Unknown", ""),
			want: "Expected Sampled Type to be either void or numerical scalar type"},
		{name: "type depth", oracle: true, mod: img("%bad = OpTypeImage %f32 2D 3 0 0 1 Unknown", ""),
			want: "Invalid Depth 3 (must be 0, 1 or 2)"},
		{name: "type arrayed", oracle: true, mod: img("%bad = OpTypeImage %f32 2D 0 2 0 1 Unknown", ""),
			want: "Invalid Arrayed 2 (must be 0 or 1)"},
		{name: "type ms", oracle: true, mod: img("%bad = OpTypeImage %f32 2D 0 0 2 1 Unknown", ""),
			want: "Invalid MS 2 (must be 0 or 1)"},
		{name: "type sampled", oracle: true, mod: img("%bad = OpTypeImage %f32 2D 0 0 0 3 Unknown", ""),
			want: "Invalid Sampled 3 (must be 0, 1 or 2)"},
		{name: "type subpass sampled", oracle: true, mod: func() module {
			m := img("%bad = OpTypeImage %f32 SubpassData 0 0 0 1 Unknown", "")
			m.caps += " InputAttachment"
			return m
		}(), want: "Dim SubpassData requires Sampled to be 2"},
		{name: "type storage multisample", oracle: true, mod: img("%bad = OpTypeImage %f32 2D 0 0 1 2 Rgba32f", ""),
			want: "Capability StorageImageMultisample is required when using multisampled storage image"},
		// Arrayed, so as not to duplicate the helper's own u32 image (a
		// duplicate non-aggregate type is an error of its own).
		{name: "vulkan sampled type", opts: vulkan, mod: img("%bad = OpTypeImage %u32 2D 0 1 0 1 Unknown", ""),
			want: ""},
		{name: "vulkan sampled 0", opts: vulkan, mod: img("%bad = OpTypeImage %f32 2D 0 0 0 0 Unknown", ""),
			want: "[VUID-StandaloneSpirv-OpTypeImage-04657] Sampled must be 1 or 2 in the Vulkan environment."},
		{name: "vulkan format", opts: vulkan, mod: img("%bad = OpTypeImage %u32 2D 0 0 0 2 Rgba32f", ""),
			want: "[VUID-StandaloneSpirv-Image-04965] Image Format type does not match Sample Type operand (integer)"},
		{name: "sampled image type", oracle: true, mod: img("%bad = OpTypeSampledImage %f32", ""),
			want: "Expected Image to be of type OpTypeImage"},
		{name: "sampled image storage", oracle: true, mod: img("%bad = OpTypeSampledImage %stor", ""),
			want: "Sampled image type requires an image type with \"Sampled\" operand set to 0 or 1"},
		{name: "sampled image result", oracle: true, mod: img("", "%a = OpSampledImage %img %i %s"),
			want: "Expected Result Type to be OpTypeSampledImage."},
		{name: "sampled image image", oracle: true, mod: img("", "%a = OpSampledImage %simg %s %s"),
			want: "Expected Image to be of type OpTypeImage."},
		{name: "sampled image operands", // 2023.1 lacks this rule
			mod:  img("", "%a = OpSampledImage %simg %iu %s"),
			want: "Image operands must match result image operands except for depth"},
		{name: "sampled image sampler", oracle: true, mod: img("", "%a = OpSampledImage %simg %i %i"),
			want: "Expected Sampler to be of type OpTypeSampler"},
		{name: "sample result", oracle: true, mod: img("", "%a = OpImageSampleExplicitLod %f32 %si %fv Lod %f1"),
			want: "Expected Result Type to be int or float vector type"},
		{name: "sample result size", oracle: true, mod: img("", "%a = OpImageSampleExplicitLod %v2f %si %fv Lod %f1"),
			want: "Expected Result Type to have 4 components"},
		{name: "sample image", oracle: true, mod: img("", "%a = OpImageSampleExplicitLod %v4f %i %fv Lod %f1"),
			want: "Expected Sampled Image to be of type OpTypeSampledImage"},
		{name: "sample multisample", oracle: true, mod: img("", "%a = OpImageSampleExplicitLod %v4f %sims %fv Lod %f1"),
			want: "Sampling operation is invalid for multisample image"},
		{name: "sample sampled type", oracle: true, mod: img("", "%a = OpImageSampleExplicitLod %v4u %si %fv Lod %f1"),
			want: "Expected Image 'Sampled Type' to be the same as Result Type components"},
		{name: "sample coordinate", // 2023.1: "Expected Coordinate to be float scalar or vector"
			mod:  img("", "%a = OpImageSampleExplicitLod %v4f %si %true Lod %f1"),
			want: "Expected Coordinate to be a 32-bit integer or float scalar or vector"},
		{name: "sample coordinate size", oracle: true, mod: img("", "%a = OpImageSampleExplicitLod %v4f %si %f1 Lod %f1"),
			want: "Expected Coordinate to have at least 2 components, but given only 1"},
		{name: "proj dim", oracle: true, mod: img("%simgc = OpTypeSampledImage %imgcube", "%sc = OpSampledImage %simgc %icube %s\n%a = OpImageSampleProjExplicitLod %v4f %sc %fv4 Lod %f1"),
			want: "Expected Image 'Dim' parameter to be 1D, 2D, 3D or Rect"},
		{name: "dref result", oracle: true, mod: img("", "%a = OpImageSampleDrefExplicitLod %v4f %sid %fv %f1 Lod %f1"),
			want: "Expected Result Type to be int or float scalar type"},
		{name: "dref sampled type", oracle: true, mod: img("", "%a = OpImageSampleDrefExplicitLod %u32 %sid %fv %f1 Lod %f1"),
			want: "Expected Image 'Sampled Type' to be the same as Result Type"},
		{name: "dref type", oracle: true, mod: img("", "%a = OpImageSampleDrefExplicitLod %f32 %sid %fv %u1 Lod %f1"),
			want: "Expected Dref to be of 32-bit float type"},
		{name: "fetch image", oracle: true, mod: img("", "%a = OpImageFetch %v4f %sid %iv"),
			want: "Expected Image to be of type OpTypeImage"},
		{name: "fetch cube", oracle: true, mod: img("", "%a = OpImageFetch %v4f %icube %iv"),
			want: "Image 'Dim' cannot be Cube"},
		{name: "fetch sampled", oracle: true, mod: img("", "%a = OpImageFetch %v4f %st %iv"),
			want: "Expected Image 'Sampled' parameter to be 1"},
		{name: "fetch coordinate", // 2023.1: "Expected Coordinate to be int scalar or vector"
			mod:  img("", "%a = OpImageFetch %v4f %i %fv"),
			want: "Expected Coordinate to be a 32-bit integer scalar or vector"},
		{name: "gather multisample", oracle: true, mod: img("", "%a = OpImageGather %v4f %sims %fv %i1"),
			want: "Gather operation is invalid for multisample image"},
		{name: "gather dim", oracle: true, mod: img("", "%a = OpImageGather %v4f %si3 %fv3 %i1"),
			want: "Expected Image 'Dim' to be 2D, Cube, or Rect"},
		{name: "gather component", oracle: true, mod: img("", "%a = OpImageGather %v4f %si %fv %f1"),
			want: "Expected Component to be 32-bit int scalar"},
		{name: "read result", oracle: true, mod: img("", "%a = OpImageRead %bool %st %iv"),
			want: "Expected Result Type to be int or float scalar or vector type"},
		{name: "read sampled", oracle: true, mod: img("", "%a = OpImageRead %v4f %i %iv"),
			want: "Expected Image 'Sampled' parameter to be 0 or 2"},
		{name: "read sampled type", oracle: true, mod: img("", "%a = OpImageRead %v4u %st %iv"),
			want: "Expected Image 'Sampled Type' to be the same as Result Type components"},
		{name: "write image", oracle: true, mod: img("", "OpImageWrite %sid %iv %fv4"),
			want: "Expected Image to be of type OpTypeImage"},
		{name: "write texel", oracle: true, mod: img("", "OpImageWrite %st %iv %true"),
			want: "Expected Texel to be int or float vector or scalar"},
		{name: "write texel type", oracle: true, mod: img("", "OpImageWrite %st %iv %uv"),
			want: "Expected Image 'Sampled Type' to be the same as Texel components"},
		{name: "consumer kind", oracle: true, mod: img("", "%a = OpImageFetch %v4f %si %iv"),
			want: "Result <id> from OpSampledImage instruction must not appear as operand for OpImageFetch, since it is not specified as taking an OpTypeSampledImage. Found result <id> '59[%59]' as an operand of <id> '63[%63]'."},
		{name: "consumer select", oracle: true, mod: img("", "%a = OpSelect %simg %true %si %si"),
			want: "Result <id> from OpSampledImage instruction must not appear as operands of OpSelect. Found result <id> '59[%59]' as an operand of <id> '63[%63]'."},
		{name: "consumer block", oracle: true, mod: img("", "OpBranch %next\n%next = OpLabel\n%a = OpImage %img %si"),
			want: "All OpSampledImage instructions must be in the same block in which their Result <id> are consumed. OpSampledImage Result Type <id> '59[%59]' has a consumer in a different basic block. The consumer instruction <id> is '64[%64]'."},
		{name: "queries", oracle: true, mod: img("", `
%a = OpImageQuerySizeLod %v2i %i %i1
%b = OpImageQuerySize %v2i %st
%c = OpImageQueryLevels %i32 %i
%d = OpImageQuerySamples %i32 %ims
`)},
		{name: "size lod result", oracle: true, mod: img("", "%a = OpImageQuerySizeLod %f32 %i %i1"),
			want: "Expected Result Type to be int scalar or vector type"},
		{name: "size lod image", oracle: true, mod: img("", "%a = OpImageQuerySizeLod %v2i %sid %i1"),
			want: "Expected Image to be of type OpTypeImage"},
		{name: "size lod ms", oracle: true, mod: img("", "%a = OpImageQuerySizeLod %v2i %ims %i1"),
			want: "Image 'MS' must be 0"},
		{name: "size lod components", oracle: true, mod: img("", "%a = OpImageQuerySizeLod %i32 %i %i1"),
			want: "Result Type has 1 components, but 2 expected"},
		{name: "size lod lod", // 2023.1: "Expected Level of Detail to be int scalar"
			mod:  img("", "%a = OpImageQuerySizeLod %v2i %i %f1"),
			want: "Expected Level of Detail to be a 32-bit int scalar"},
		{name: "size sampled", oracle: true, mod: img("", "%a = OpImageQuerySize %v2i %i"),
			want: "Image must have either 'MS'=1 or 'Sampled'=0 or 'Sampled'=2"},
		{name: "levels result", oracle: true, mod: img("", "%a = OpImageQueryLevels %f32 %i"),
			want: "Expected Result Type to be int scalar type"},
		{name: "samples ms", oracle: true, mod: img("", "%a = OpImageQuerySamples %i32 %i"),
			want: "Image 'MS' must be 1"},
		{name: "query lod result", oracle: true, mod: img("", "%a = OpImageQueryLod %v3f %si %fv"),
			want: "Expected Result Type to have 2 components"},
		{name: "query lod image", oracle: true, mod: img("", "%a = OpImageQueryLod %v2f %i %fv"),
			want: "Expected Image operand to be of type OpTypeSampledImage"},
		{name: "operands valid", oracle: true, mod: img("%c1 = OpConstantComposite %v2i %i1 %i1", `
%a = OpImageSampleExplicitLod %v4f %si %fv Grad|ConstOffset %fv %fv %c1
%b = OpImageFetch %v4f %i %iv Lod %i1
%c = OpImageFetch %v4f %ims %iv Sample %i1
`)},
		{name: "operand sample required", oracle: true, mod: img("", "%a = OpImageFetch %v4f %ims %iv"),
			want: "Image Operand Sample is required for operation on multi-sampled image"},
		{name: "operand bias", oracle: true, mod: img("", "%a = OpImageSampleExplicitLod %v4f %si %fv Bias %f1"),
			want: "Image Operand Bias can only be used with ImplicitLod opcodes"},
		{name: "operand lod fetch", // 2023.1: "to be int scalar"
			mod:  img("", "%a = OpImageFetch %v4f %i %iv Lod %f1"),
			want: "Expected Image Operand Lod to be a 32-bit int scalar when used with OpImageFetch"},
		{name: "operand lod explicit", // 2023.1: "to be float scalar"
			mod:  img("", "%a = OpImageSampleExplicitLod %v4f %si %fv Lod %i1"),
			want: "Expected Image Operand Lod to be a 32-bit float scalar when used with ExplicitLod"},
		{name: "operand lod ms", // 2023.1 lacks this rule
			mod:  img("", "%a = OpImageFetch %v4f %ims %iv Lod|Sample %i1 %i1"),
			want: "Image Operand Lod requires 'MS' parameter to be 0"},
		{name: "operand grad type", // 2023.1: "to be float scalars or vectors"
			mod:  img("", "%a = OpImageSampleExplicitLod %v4f %si %fv Grad %fv %iv"),
			want: "Expected both Image Operand Grad ids to be 32-bit float scalars or vectors"},
		{name: "operand grad size", oracle: true, mod: img("", "%a = OpImageSampleExplicitLod %v4f %si %fv Grad %fv3 %fv"),
			want: "Expected Image Operand Grad dx to have 2 components, but given 3"},
		{name: "operand const offset", // 2023.1: "to be int scalar or vector"
			mod:  img("", "%a = OpImageSampleExplicitLod %v4f %si %fv Lod|ConstOffset %f1 %fv"),
			want: "Expected Image Operand ConstOffset to be a 32-bit int scalar or vector"},
		{name: "operand const offset size", oracle: true, mod: img("", "%a = OpImageSampleExplicitLod %v4f %si %fv Lod|ConstOffset %f1 %i1"),
			want: "Expected Image Operand ConstOffset to have 2 components, but given 1"},
		{name: "operand offsets together", oracle: true, mod: img("", "%a = OpImageSampleExplicitLod %v4f %si %fv Lod|ConstOffset|Offset %f1 %iv %iv"),
			want: "Image Operands Offset, ConstOffset, ConstOffsets, Offsets cannot be used together"},
		{name: "operand const offsets", oracle: true, mod: img("", "%a = OpImageSampleExplicitLod %v4f %si %fv Lod|ConstOffsets %f1 %iv"),
			want: "Image Operand ConstOffsets can only be used with OpImageGather and OpImageDrefGather"},
		{name: "operand sample kind", oracle: true, mod: img("", "%a = OpImageSampleExplicitLod %v4f %si %fv Lod|Sample %f1 %i1"),
			want: "Image Operand Sample can only be used with OpImageFetch, OpImageRead, OpImageWrite, OpImageSparseFetch and OpImageSparseRead"},
		{name: "operand sample ms", oracle: true, mod: img("", "%a = OpImageFetch %v4f %i %iv Sample %i1"),
			want: "Image Operand Sample requires non-zero 'MS' parameter"},
		{name: "operand sample type", // 2023.1: "to be int scalar"
			mod:  img("", "%a = OpImageFetch %v4f %ims %iv Sample %f1"),
			want: "Expected Image Operand Sample to be a 32-bit int scalar"},
		{name: "operand offset vulkan", opts: vulkan, mod: img("", "%a = OpImageSampleExplicitLod %v4f %si %fv Lod|Offset %f1 %iv"),
			want: "[VUID-RuntimeSpirv-Offset-10213] Image Operand Offset can only be used with OpImage*Gather operations.\nThis is allowed if you enable the maintenance8 feature (or use the --allow-offset-texture-operand command line flag)"},
		{name: "texel pointer", oracle: true, patch: setVersion(0x10300), mod: img(texelDecls, "%a = OpImageTexelPointer %pimgu32 %var %iv %u0")},
		{name: "texel pointer result", // 2023.1: "to be OpTypePointer whose ..."
			patch: setVersion(0x10300), mod: img(texelDecls, "%a = OpImageTexelPointer %pfu32 %var %iv %u0"),
			want: "Expected Result Type to be a pointer whose Storage Class operand is Image"},
		{name: "texel pointer image", oracle: true, patch: setVersion(0x10300), mod: img(texelDecls, "%a = OpImageTexelPointer %pimgu32 %u0 %iv %u0"),
			want: "Expected Image to be OpTypePointer"},
		{name: "texel pointer sampled type", oracle: true, patch: setVersion(0x10300), mod: img(texelDecls, "%a = OpImageTexelPointer %pimgf32 %var %iv %u0"),
			want: "Expected Image 'Sampled Type' to be the same as the Type pointed to by Result Type"},
		{name: "texel pointer coordinate", oracle: true, patch: setVersion(0x10300), mod: img(texelDecls, "%a = OpImageTexelPointer %pimgu32 %var %uv3 %u0"),
			want: "Expected Coordinate to have 2 components, but given 3"},
		{name: "texel pointer sample", oracle: true, patch: setVersion(0x10300), mod: img(texelDecls, "%a = OpImageTexelPointer %pimgu32 %var %iv %u1"),
			want: "Expected Sample for Image with MS 0 to be a valid <id> for the value 0"},
		{name: "image result", oracle: true, mod: img("", "%a = OpImage %simg %si"),
			want: "Expected Result Type to be OpTypeImage"},
		{name: "image operand", oracle: true, mod: img("", "%a = OpImage %img %i"),
			want: "Expected Sample Image to be of type OpTypeSampleImage"},
		{name: "image same", oracle: true, mod: img("", "%a = OpImage %imgu %si"),
			want: "Expected Sample Image image type to be equal to Result Type"},
	})
}
