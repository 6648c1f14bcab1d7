package val

import (
	"path/filepath"
	"strings"
	"testing"

	"spvx/asm"
	"spvx/spirv"
)

// tsModule is a Vulkan compute shader with ranked (rank 4), spec-ranked
// and unranked tensors loaded as %t, %ts and %tu; body follows the loads.
func tsModule(body string) string {
	return `OpCapability Shader
OpCapability VulkanMemoryModel
OpCapability TensorsARM
OpCapability Int16
OpExtension "SPV_ARM_tensors"
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %main "main" %tv %tvs %tvu
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %tv DescriptorSet 0
OpDecorate %tv Binding 0
OpDecorate %tvs DescriptorSet 0
OpDecorate %tvs Binding 1
OpDecorate %tvu DescriptorSet 0
OpDecorate %tvu Binding 2
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%ushort = OpTypeInt 16 0
%float = OpTypeFloat 32
%v4 = OpTypeVector %uint 4
%c0 = OpConstant %uint 0
%c1 = OpConstant %uint 1
%c2 = OpConstant %uint 2
%c4 = OpConstant %uint 4
%c42 = OpConstant %uint 42
%h1 = OpConstant %ushort 1
%sc = OpSpecConstant %uint 4
%f1 = OpConstant %float 1
%a2 = OpTypeArray %uint %c2
%a4 = OpTypeArray %uint %c4
%as4 = OpTypeArray %uint %sc
%fa4 = OpTypeArray %float %c4
%co = OpConstantComposite %a4 %c1 %c1 %c1 %c1
%co2 = OpConstantComposite %a2 %c1 %c1
%cos = OpConstantComposite %as4 %c1 %c1 %c1 %c1
%fco = OpConstantComposite %fa4 %f1 %f1 %f1 %f1
%vco = OpConstantComposite %v4 %c1 %c1 %c1 %c1
%tt = OpTypeTensorARM %uint %c4
%tts = OpTypeTensorARM %uint %sc
%ttu = OpTypeTensorARM %uint
%pt = OpTypePointer UniformConstant %tt
%pts = OpTypePointer UniformConstant %tts
%ptu = OpTypePointer UniformConstant %ttu
%tv = OpVariable %pt UniformConstant
%tvs = OpVariable %pts UniformConstant
%tvu = OpVariable %ptu UniformConstant
%pu = OpTypePointer Function %uint
%main = OpFunction %void None %fn
%entry = OpLabel
%x = OpVariable %pu Function
%ld = OpLoad %uint %x
%t = OpLoad %tt %tv
%ts = OpLoad %tts %tvs
%tu = OpLoad %ttu %tvu
` + body + `OpReturn
OpFunctionEnd
`
}

// tlModule is a compute shader with SPV_NV_tensor_addressing's layout
// (Dim 2) %L and view (Dim 2) %V; body follows their creation.
func tlModule(body string) string {
	return `OpCapability Shader
OpCapability TensorAddressingNV
OpCapability Int64
OpExtension "SPV_NV_tensor_addressing"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%float = OpTypeFloat 32
%c0 = OpConstant %uint 0
%c1 = OpConstant %uint 1
%c2 = OpConstant %uint 2
%l1 = OpConstant %ulong 1
%f0 = OpConstant %float 0
%false = OpConstantFalse %bool
%tl = OpTypeTensorLayoutNV %c2 %c0
%tw = OpTypeTensorViewNV %c2 %false %c0 %c1
%main = OpFunction %void None %fn
%entry = OpLabel
%L = OpCreateTensorLayoutNV %tl
%V = OpCreateTensorViewNV %tw
` + body + `OpReturn
OpFunctionEnd
`
}

type tsCase struct {
	name, src, want string
	env             Env
}

// tensorCases cover every rule of TensorPass and TensorLayoutPass.
func tensorCases() []tsCase {
	v := EnvVulkan1_3
	u := EnvUniversal1_6
	const ranked = "Expected Tensor to be an OpTypeTensorARM whose Rank is specified"
	const coords = "Expected Coordinates to be an array whose Element Type is an integer type and whose Length is equal to the Rank of Tensor."
	return []tsCase{
		{"read valid", tsModule("%r = OpTensorReadARM %uint %t %co\n%r2 = OpTensorReadARM %a2 %t %co\n"), "", v},
		{"read result vector", tsModule("%r = OpTensorReadARM %v4 %t %co\n"), "Expected Result Type to be a scalar type or array of scalar type.", v},
		{"read unranked", tsModule("%r = OpTensorReadARM %uint %tu %co\n"), ranked, v},
		{"read element type", tsModule("%r = OpTensorReadARM %float %t %co\n"), "Expected Result Type to be the same as the Element Type of Tensor.", v},
		{"read coords scalar", tsModule("%r = OpTensorReadARM %uint %t %c1\n"), coords, v},
		{"read coords float", tsModule("%r = OpTensorReadARM %uint %t %fco\n"), coords, v},
		{"read coords length", tsModule("%r = OpTensorReadARM %uint %t %co2\n"), coords, v},
		{"read coords spec length", tsModule("%r = OpTensorReadARM %uint %t %cos\n"), "", v},
		{"read spec rank any array", tsModule("%r = OpTensorReadARM %uint %ts %co2\n"), "", v},
		{"read out of bounds value", tsModule("%r = OpTensorReadARM %uint %t %co OutOfBoundsValueARM %c42\n"), "", v},
		{"read out of bounds type", tsModule("%r = OpTensorReadARM %uint %t %co OutOfBoundsValueARM %f1\n"),
			"Expected the type of the OutOfBoundsValueARM value to be the same as the Element Type of Tensor.", v},
		{"read available", tsModule("%r = OpTensorReadARM %uint %t %co MakeElementAvailableARM %c1\n"), "MakeElementAvailableARM cannot be used with OpTensorReadARM.", v},
		{"read visible non-private", tsModule("%r = OpTensorReadARM %uint %t %co MakeElementVisibleARM|NonPrivateElementARM %c1\n"), "", v},
		{"read visible", tsModule("%r = OpTensorReadARM %uint %t %co MakeElementVisibleARM %c1\n"), "MakeElementAvailableARM requires NonPrivateElementARM.", v},
		{"write valid", tsModule("OpTensorWriteARM %t %co %c1\nOpTensorWriteARM %t %co %co2\n"), "", v},
		{"write unranked", tsModule("OpTensorWriteARM %tu %co %c1\n"), ranked, v},
		{"write coords", tsModule("OpTensorWriteARM %t %co2 %c1\n"), coords, v},
		{"write object vector", tsModule("OpTensorWriteARM %t %co %vco\n"),
			"Expected Object to be a scalar type or array of scalar type that is the same as the Element Type of Tensor.", v},
		{"write object float", tsModule("OpTensorWriteARM %t %co %f1\n"),
			"Expected Object to be a scalar type or array of scalar type that is the same as the Element Type of Tensor.", v},
		{"write out of bounds", tsModule("OpTensorWriteARM %t %co %c1 OutOfBoundsValueARM %c1\n"), "OutOfBoundsValue Tensor Operand not allowed with OpTensorWriteARM.", v},
		{"write visible", tsModule("OpTensorWriteARM %t %co %c1 MakeElementVisibleARM %c1\n"), "MakeElementVisibleARM not allowed with OpTensorWriteARM.", v},
		{"write available", tsModule("OpTensorWriteARM %t %co %c1 MakeElementAvailableARM %c1\n"), "MakeElementAvailableARM requires NonPrivateElementARM.", v},
		{"write available non-private", tsModule("OpTensorWriteARM %t %co %c1 MakeElementAvailableARM|NonPrivateElementARM %c1\n"), "", v},
		{"write nontemporal", tsModule("OpTensorWriteARM %t %co %c1 NontemporalARM\n"), "", v},
		{"query valid", tsModule("%q = OpTensorQuerySizeARM %uint %t %c2\n%q2 = OpTensorQuerySizeARM %uint %ts %c42\n"), "", v},
		{"query result float", tsModule("%q = OpTensorQuerySizeARM %float %t %c2\n"), "Expected Result Type to be an integer type scalar", v},
		{"query unranked", tsModule("%q = OpTensorQuerySizeARM %uint %tu %c2\n"), ranked, v},
		{"query dimension variable", tsModule("%q = OpTensorQuerySizeARM %uint %t %ld\n"), "Dimension must come from a constant instruction of scalar integer type.", v},
		{"query dimension float", tsModule("%q = OpTensorQuerySizeARM %uint %t %f1\n"), "Dimension must come from a constant instruction of scalar integer type.", v},
		{"query dimension 16-bit", tsModule("%q = OpTensorQuerySizeARM %uint %t %h1\n"), "", u},
		{"query dimension rank", tsModule("%q = OpTensorQuerySizeARM %uint %t %c4\n"), "Dimension (4) must be less than the Rank of Tensor (4).", v},
		{"layout valid", tlModule("%a = OpTensorLayoutSetDimensionNV %tl %L %c1 %c2\n%b = OpTensorLayoutSliceNV %tl %L %c0 %c1 %c0 %c1\n" +
			"%c = OpTensorLayoutSetClampValueNV %tl %L %c0\n%d = OpTensorViewSetClipNV %tw %V %c0 %c1 %c0 %c1\n%e = OpTensorViewSetStrideNV %tw %V %c1 %c1\n"), "", u},
		{"create layout type", tlModule("%a = OpCreateTensorLayoutNV %tw\n"), "CreateTensorLayoutNV Result Type <id> '15[%15]' is not a tensor layout type.", u},
		{"create view type", tlModule("%a = OpCreateTensorViewNV %tl\n"), "CreateTensorViewNV Result Type <id> '14[%14]' is not a tensor view type.", u},
		{"set layout result", tlModule("%a = OpTensorLayoutSetStrideNV %tw %L %c1 %c1\n"), "TensorLayoutSetStrideNV Result Type <id> '15[%15]' is not a tensor layout type.", u},
		{"set layout mismatch", tlModule("%a = OpTensorLayoutSetBlockSizeNV %tl %V %c1 %c1\n"), "TensorLayoutSetBlockSizeNV Result Type <id> '14[%14]' does not match TensorLayout type.", u},
		{"set view mismatch", tlModule("%a = OpTensorViewSetDimensionNV %tw %L %c1 %c1\n"), "TensorViewSetDimensionNV Result Type <id> '15[%15]' does not match TensorView type.", u},
		{"slice count", tlModule("%a = OpTensorLayoutSliceNV %tl %L %c0 %c1\n"), "TensorLayoutSliceNV unexpected number of operands.", u},
		{"clamp value 64-bit", tlModule("%a = OpTensorLayoutSetClampValueNV %tl %L %l1\n"), "TensorLayoutSetClampValueNV operand <id> '11[%ulong_1]' is not a 32-bit integer.", u},
		{"clip value float", tlModule("%a = OpTensorViewSetClipNV %tw %V %c0 %c1 %f0 %c1\n"), "TensorViewSetClipNV operand <id> '12[%float_0]' is not a 32-bit integer.", u},
		{"view stride count", tlModule("%a = OpTensorViewSetStrideNV %tw %V %c1\n"), "TensorViewSetStrideNV unexpected number of operands.", u},
		{"dimension 64-bit", tlModule("%a = OpTensorLayoutSetDimensionNV %tl %L %c1 %l1\n"), "TensorLayoutSetDimensionNV operand <id> '11[%ulong_1]' is not a 32-bit integer.", u},
	}
}

// tensorTypeCases cover ValidateTypeTensorARM, ValidateTypeTensorLayoutNV,
// ValidateTypeTensorViewNV and ValidateConstantComposite's tensor case: each rule's first failure and a valid
// neighbour.
func tensorTypeCases() []tsCase {
	v := EnvVulkan1_3
	u := EnvUniversal1_6
	arm := func(decls string) string {
		return strings.Replace(tsModule(""), "%tt = OpTypeTensorARM", "%un = OpUndef %uint\n%una = OpUndef %a4\n%z2 = OpConstantComposite %a2 %c1 %c0\n"+decls+"%tt = OpTypeTensorARM", 1)
	}
	// tc declares a rank-1 tensor %t1 of shape [2] with the constant %k1,
	// and a rank-2 tensor %t2 of shape [2 2].
	tc := "%a1 = OpTypeArray %uint %c1\n%sh2 = OpConstantComposite %a1 %c2\n%t1 = OpTypeTensorARM %uint %c1 %sh2\n%k1 = OpConstantComposite %t1 %c1 %c2\n" +
		"%sh22 = OpConstantComposite %a2 %c2 %c2\n%t2 = OpTypeTensorARM %uint %c2 %sh22\n"
	rep := func(m string) string {
		return strings.Replace(strings.Replace(m, "OpCapability TensorsARM\n", "OpCapability TensorsARM\nOpCapability ReplicatedCompositesEXT\n", 1),
			"OpExtension \"SPV_ARM_tensors\"\n", "OpExtension \"SPV_ARM_tensors\"\nOpExtension \"SPV_EXT_replicated_composites\"\n", 1)
	}
	nv := func(decls string) string {
		return strings.Replace(tlModule(""), "%tl = OpTypeTensorLayoutNV", "%c6 = OpConstant %uint 6\n%c9 = OpConstant %uint 9\n"+decls+"%tl = OpTypeTensorLayoutNV", 1)
	}
	return []tsCase{
		{"tensor type with shape", arm("%ok = OpTypeTensorARM %uint %c4 %co\n%ok2 = OpTypeTensorARM %float %c2 %co2\n"), "", v},
		{"tensor element vector", arm("%bad = OpTypeTensorARM %v4 %c4\n"), "OpTypeTensorARM Element Type <id> '10[%v4uint]' is not a scalar type.", v},
		{"tensor rank undef", arm("%bad = OpTypeTensorARM %uint %un\n"), "OpTypeTensorARM Rank <id> '28[%28]' is not a constant instruction.", v},
		{"tensor rank float", arm("%bad = OpTypeTensorARM %uint %f1\n"), "OpTypeTensorARM Rank <id> '18[%float_1]' does not have a scalar integer type.", v},
		{"tensor rank zero", arm("%bad = OpTypeTensorARM %uint %c0\n"), "OpTypeTensorARM Rank <id> '11[%uint_0]' must define a value greater than 0.", v},
		{"tensor shape undef", arm("%bad = OpTypeTensorARM %uint %c4 %una\n"), "OpTypeTensorARM Shape <id> '29[%29]' is not a constant instruction.", v},
		{"tensor shape length", arm("%bad = OpTypeTensorARM %uint %c2 %co\n"), "OpTypeTensorARM Shape <id> '23[%23]' is not an array of integer type whose Length is equal to Rank.", v},
		{"tensor shape floats", arm("%bad = OpTypeTensorARM %uint %c4 %fco\n"), "OpTypeTensorARM Shape <id> '26[%26]' is not an array of integer type whose Length is equal to Rank.", v},
		{"tensor shape zero", arm("%bad = OpTypeTensorARM %uint %c2 %z2\n"), "OpTypeTensorARM Shape constituent 1 is not greater than 0.", v},
		{"tensor constants", arm(tc + "%k2 = OpConstantComposite %t2 %k1 %k1\n"), "", v},
		{"tensor constant unshaped", arm(tc + "%tu2 = OpTypeTensorARM %uint %c2\n%bad = OpConstantComposite %tu2 %c1\n"), "OpConstantComposite Result Type <id> '37[%37]' is not a composite type.", v},
		{"tensor constant count", arm(tc + "%bad = OpConstantComposite %t1 %c1\n"), "OpConstantComposite Constituent count does not match the shape of Result Type <id> '33[%33]' along its outermost dimension, expected 2 but got 1.", v},
		{"tensor constant element", arm(tc + "%bad = OpConstantComposite %t1 %c1 %h1\n"), "OpConstantComposite Constituent <id> '16[%ushort_1]' type does not match the element type of the tensor ('33[%33]').", v},
		{"tensor constant not a tensor", arm(tc + "%bad = OpConstantComposite %t2 %c1 %c1\n"), "OpConstantComposite Constituent <id> '12[%uint_1]' must be an OpTypeTensorARM.", v},
		{"tensor constant element type", arm(tc + "%tf = OpTypeTensorARM %float %c1 %sh2\n%kf = OpConstantComposite %tf %f1 %f1\n%bad = OpConstantComposite %t2 %kf %kf\n"), "OpConstantComposite Constituent <id> '38[%38]' must have the same Element Type as Result Type <id> '36[%36]'.", v},
		{"tensor constant rank", arm(tc + "%k2 = OpConstantComposite %t2 %k1 %k1\n%bad = OpConstantComposite %t2 %k2 %k2\n"), "OpConstantComposite Constituent <id> '37[%37]' must have a Rank that is 1 less than the Rank of Result Type <id> '36[%36]', expected 1 but got 2.", v},
		{"tensor constant inner shape", arm(tc + "%sh4 = OpConstantComposite %a1 %c4\n%t4 = OpTypeTensorARM %uint %c1 %sh4\n%k4 = OpConstantComposite %t4 %c1 %c1 %c1 %c1\n%bad = OpConstantComposite %t2 %k4 %k4\n"), "OpConstantComposite Constituent <id> '39[%39]' must have a Shape that matches that of Result Type <id> '36[%36]' along all inner dimensions of Result Type, expected 2 for dimension 0 of Constituent but got 4.", v},
		{"tensor constant replicated", rep(arm(tc + "%r = OpConstantCompositeReplicateEXT %t1 %c1\n")), "", v},
		{"tensor constant replicated element", rep(arm(tc + "%r = OpConstantCompositeReplicateEXT %t1 %h1\n")), "OpConstantCompositeReplicateEXT Constituent <id> '16[%ushort_1]'s type does not match Result Type <id> '33[%33]'s element type.", v},
		{"tensor constant replicated unshaped", rep(arm(tc + "%tu2 = OpTypeTensorARM %uint %c2\n%r = OpConstantCompositeReplicateEXT %tu2 %c1\n")), "OpConstantCompositeReplicateEXT Result Type <id> '37[%37]' is not a composite type.", v},
		{"layout type valid", nv("%ok = OpTypeTensorLayoutNV %c1 %c1\n%okv = OpTypeTensorViewNV %c1 %false %c0\n"), "", u},
		{"layout dim 64-bit", nv("%bad = OpTypeTensorLayoutNV %l1 %c0\n"), "TypeTensorLayoutNV Dim <id> '11[%ulong_1]' is not a 32-bit integer.", u},
		{"layout dim 6", nv("%bad = OpTypeTensorLayoutNV %c6 %c0\n"), "TypeTensorLayoutNV Dim <id> '14[%uint_6]' must be between 1 and 5.", u},
		{"layout clamp float", nv("%bad = OpTypeTensorLayoutNV %c2 %f0\n"), "TypeTensorLayoutNV ClampMode <id> '12[%float_0]' is not a 32-bit integer.", u},
		{"layout clamp 9", nv("%bad = OpTypeTensorLayoutNV %c2 %c9\n"), "TypeTensorLayoutNV ClampMode <id> '15[%uint_9]' must be a valid TensorClampMode.", u},
		{"view dim 0", nv("%bad = OpTypeTensorViewNV %c0 %false\n"), "TypeTensorViewNV Dim <id> '8[%uint_0]' must be between 1 and 5.", u},
		{"view has dimensions int", nv("%bad = OpTypeTensorViewNV %c2 %c0 %c0 %c1\n"), "TypeTensorViewNV HasDimensions <id> '8[%uint_0]' is not a boolean value.", u},
		{"view permutation 64-bit", nv("%bad = OpTypeTensorViewNV %c2 %false %l1 %c0\n"), "TypeTensorViewNV Permutation <id> '11[%ulong_1]' is not a 32-bit integer.", u},
		{"view permutation out of range", nv("%bad = OpTypeTensorViewNV %c2 %false %c0 %c2\n"), "TypeTensorViewNV Permutation <id> '10[%uint_2]' must be a valid dimension.", u},
		{"view permutation repeated", nv("%bad = OpTypeTensorViewNV %c2 %false %c0 %c0\n"), "TypeTensorViewNV Permutation values don't form a valid permutation.", u},
		{"view permutation count", nv("%bad = OpTypeTensorViewNV %c2 %false %c0\n"), "TypeTensorViewNV Incorrect number of permutation values.", u},
	}
}

// TestTensorTypes checks the type-rule table like TestTensor.
func TestTensorTypes(t *testing.T) {
	runTensorCases(t, tensorTypeCases())
}

// TestTensor checks the table against spvx and, with
// $SPVX_CURRENT_SPIRV_TOOLS, against the current spirv-val.
func TestTensor(t *testing.T) {
	runTensorCases(t, tensorCases())
}

func runTensorCases(t *testing.T, cases []tsCase) {
	sv := currentSpirvVal(t)
	dir := t.TempDir()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			words, err := asm.Assemble([]byte(c.src), asm.Options{TargetEnv: c.env.String()})
			if err != nil {
				t.Fatalf("assembling:\n%s\n%v", c.src, err)
			}
			opts := Options{Env: c.env}
			if got := firstError(t, words, opts); got != c.want {
				t.Errorf("got  %q\nwant %q\nmodule:\n%s", got, c.want, c.src)
			}
			if sv != "" {
				checkCurrentSpirvVal(t, sv, filepath.Join(dir, "m.spv"), words, opts, c.want)
			}
		})
	}
}

// FuzzTensorGraph validates mutations of the tensor and graph tables'
// modules: the rules must never panic on malformed operands or types.
func FuzzTensorGraph(f *testing.F) {
	for _, c := range append(append(tensorCases(), tensorTypeCases()...), graphCases()...) {
		f.Add(wordsToBytes(assembleF(f, c.src)))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := spirv.Decode(b)
		if err != nil {
			return
		}
		_ = Validate(m, Options{All: true})
		_ = Validate(m, Options{All: true, Env: EnvVulkan1_3})
	})
}
