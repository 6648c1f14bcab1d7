package val

import (
	"slices"
	"sync"

	"spvx/spirv"
)

// This file holds validate_image.cpp's rules: OpTypeImage and
// OpTypeSampledImage (universal, OpenCL and Vulkan rules), OpSampledImage's
// types, the sampling, fetch, gather, read and write instructions' Result
// Type, image and coordinate rules, their image operands (all but the
// memory scopes, which memoryScope checks), OpImage, OpSampledImage's
// consumer rules, the query instructions and OpImageTexelPointer (and
// OpUntypedImageTexelPointerEXT). Not checked yet: the QCOM and tile-image
// instructions, and the execution-model limitations of implicit-LOD
// sampling.

// imageInfo is ImageTypeInfo: the operands of an OpTypeImage (reached
// through an OpTypeSampledImage).
type imageInfo struct {
	sampledType                 uint32
	dim                         spirv.Dim
	depth, arrayed, ms, sampled uint32
	format                      spirv.ImageFormat
	access                      uint32 // 0xFFFFFFFF: none
	ok                          bool
}

// imageTypeInfo is GetImageTypeInfo.
func (s *state) imageTypeInfo(t uint32) imageInfo {
	if t == 0 {
		return imageInfo{}
	}
	if s.typeOp(t) == spirv.OpTypeSampledImage {
		t = s.typeWord(t, 2)
	}
	if s.typeOp(t) != spirv.OpTypeImage {
		return imageInfo{}
	}
	w := s.typeWords(t)
	if len(w) != 9 && len(w) != 10 {
		return imageInfo{}
	}
	info := imageInfo{sampledType: w[2], dim: spirv.Dim(w[3]), depth: w[4], arrayed: w[5], ms: w[6], sampled: w[7],
		format: spirv.ImageFormat(w[8]), access: 0xFFFFFFFF, ok: true}
	if len(w) == 10 {
		info.access = w[9]
	}
	return info
}

func isIntImageFormat(f spirv.ImageFormat) bool {
	switch f {
	case spirv.ImageFormatRgba32i, spirv.ImageFormatRgba16i, spirv.ImageFormatRgba8i, spirv.ImageFormatR32i,
		spirv.ImageFormatRg32i, spirv.ImageFormatRg16i, spirv.ImageFormatRg8i, spirv.ImageFormatR16i,
		spirv.ImageFormatR8i, spirv.ImageFormatRgba32ui, spirv.ImageFormatRgba16ui, spirv.ImageFormatRgba8ui,
		spirv.ImageFormatR32ui, spirv.ImageFormatRgb10a2ui, spirv.ImageFormatRg32ui, spirv.ImageFormatRg16ui,
		spirv.ImageFormatRg8ui, spirv.ImageFormatR16ui, spirv.ImageFormatR8ui, spirv.ImageFormatR64ui,
		spirv.ImageFormatR64i:
		return true
	}
	return false
}

func isFloatImageFormat(f spirv.ImageFormat) bool {
	switch f {
	case spirv.ImageFormatRgba32f, spirv.ImageFormatRgba16f, spirv.ImageFormatR32f, spirv.ImageFormatRgba8,
		spirv.ImageFormatRgba8Snorm, spirv.ImageFormatRg32f, spirv.ImageFormatRg16f, spirv.ImageFormatR11fG11fB10f,
		spirv.ImageFormatR16f, spirv.ImageFormatRgba16, spirv.ImageFormatRgb10A2, spirv.ImageFormatRg16,
		spirv.ImageFormatRg8, spirv.ImageFormatR16, spirv.ImageFormatR8, spirv.ImageFormatRgba16Snorm,
		spirv.ImageFormatRg16Snorm, spirv.ImageFormatRg8Snorm, spirv.ImageFormatR16Snorm, spirv.ImageFormatR8Snorm:
		return true
	}
	return false
}

func isInt64ImageFormat(f spirv.ImageFormat) bool {
	return f == spirv.ImageFormatR64ui || f == spirv.ImageFormatR64i
}

func isImplicitLod(op spirv.Opcode) bool {
	switch op {
	case spirv.OpImageSampleImplicitLod, spirv.OpImageSampleDrefImplicitLod, spirv.OpImageSampleProjImplicitLod,
		spirv.OpImageSampleProjDrefImplicitLod, spirv.OpImageSparseSampleImplicitLod,
		spirv.OpImageSparseSampleDrefImplicitLod, spirv.OpImageSparseSampleProjImplicitLod,
		spirv.OpImageSparseSampleProjDrefImplicitLod:
		return true
	}
	return false
}

func isImageSparse(op spirv.Opcode) bool {
	switch op {
	case spirv.OpImageSparseSampleImplicitLod, spirv.OpImageSparseSampleExplicitLod,
		spirv.OpImageSparseSampleDrefImplicitLod, spirv.OpImageSparseSampleDrefExplicitLod,
		spirv.OpImageSparseSampleProjImplicitLod, spirv.OpImageSparseSampleProjExplicitLod,
		spirv.OpImageSparseSampleProjDrefImplicitLod, spirv.OpImageSparseSampleProjDrefExplicitLod,
		spirv.OpImageSparseFetch, spirv.OpImageSparseGather, spirv.OpImageSparseDrefGather,
		spirv.OpImageSparseTexelsResident, spirv.OpImageSparseRead:
		return true
	}
	return false
}

func isImageProj(op spirv.Opcode) bool {
	switch op {
	case spirv.OpImageSampleProjImplicitLod, spirv.OpImageSampleProjDrefImplicitLod,
		spirv.OpImageSparseSampleProjImplicitLod, spirv.OpImageSparseSampleProjDrefImplicitLod,
		spirv.OpImageSampleProjExplicitLod, spirv.OpImageSampleProjDrefExplicitLod,
		spirv.OpImageSparseSampleProjExplicitLod, spirv.OpImageSparseSampleProjDrefExplicitLod:
		return true
	}
	return false
}

// imagePassOps reports whether imagePass can act on an instruction of opcode op
// (passGate runs it on no other: a new case there needs its opcode here).
func imagePassOps(op spirv.Opcode) bool {
	return opNamed(op, "OpImage") ||
		opIn(op, spirv.OpTypeImage, spirv.OpTypeSampledImage, spirv.OpSampledImage, spirv.OpUntypedImageTexelPointerEXT)
}

func (s *state) imagePass(i int, in *spirv.Instruction) bool {
	switch op := in.Opcode; op {
	case spirv.OpTypeImage:
		return s.typeImage(i, in)
	case spirv.OpTypeSampledImage:
		return s.typeSampledImage(i, in)
	case spirv.OpSampledImage:
		return s.sampledImage(i, in)
	case spirv.OpImageSampleImplicitLod, spirv.OpImageSampleExplicitLod, spirv.OpImageSampleProjImplicitLod,
		spirv.OpImageSampleProjExplicitLod, spirv.OpImageSparseSampleImplicitLod, spirv.OpImageSparseSampleExplicitLod,
		spirv.OpImageSampleDrefImplicitLod, spirv.OpImageSampleDrefExplicitLod, spirv.OpImageSampleProjDrefImplicitLod,
		spirv.OpImageSampleProjDrefExplicitLod, spirv.OpImageSparseSampleDrefImplicitLod,
		spirv.OpImageSparseSampleDrefExplicitLod:
		return s.imageSample(i, in)
	case spirv.OpImageFetch, spirv.OpImageSparseFetch:
		return s.imageFetch(i, in)
	case spirv.OpImageTexelPointer, spirv.OpUntypedImageTexelPointerEXT:
		return s.imageTexelPointer(i, in)
	case spirv.OpImageGather, spirv.OpImageDrefGather, spirv.OpImageSparseGather, spirv.OpImageSparseDrefGather:
		return s.imageGather(i, in)
	case spirv.OpImageRead, spirv.OpImageSparseRead:
		return s.imageRead(i, in)
	case spirv.OpImageWrite:
		return s.imageWrite(i, in)
	case spirv.OpImageQuerySizeLod, spirv.OpImageQuerySize:
		return s.imageQuerySize(i, in)
	case spirv.OpImageQueryFormat, spirv.OpImageQueryOrder, spirv.OpImageQueryLevels, spirv.OpImageQuerySamples:
		return s.imageQueryScalar(i, in)
	case spirv.OpImageQueryLod:
		return s.imageQueryLod(i, in)
	case spirv.OpImageSparseSampleProjImplicitLod, spirv.OpImageSparseSampleProjExplicitLod,
		spirv.OpImageSparseSampleProjDrefImplicitLod, spirv.OpImageSparseSampleProjDrefExplicitLod:
		return s.fail(i, "", "Instruction reserved for future use, use of this instruction is invalid")
	case spirv.OpImageSparseTexelsResident:
		if !s.isBoolScalar(in.TypeID) {
			return s.fail(i, "", "Expected Result Type to be bool scalar type")
		}
		if !s.isIntScalar(s.opType(in, 2)) {
			return s.fail(i, "", "Expected Resident Code to be int scalar")
		}
	case spirv.OpImage:
		res := in.TypeID
		if s.typeOp(res) != spirv.OpTypeImage {
			return s.fail(i, "", "Expected Result Type to be OpTypeImage")
		}
		si := s.opType(in, 2)
		if s.typeOp(si) != spirv.OpTypeSampledImage {
			return s.fail(i, "", "Expected Sample Image to be of type OpTypeSampleImage")
		}
		if s.typeWord(si, 2) != res {
			return s.fail(i, "", "Expected Sample Image image type to be equal to Result Type")
		}
	}
	return false
}

func (s *state) typeImage(i int, in *spirv.Instruction) bool {
	info := s.imageTypeInfo(in.ResultID)
	if !info.ok {
		return s.fail(i, "", "Corrupt image type definition")
	}
	env := s.opts.Env
	switch {
	case env.IsVulkan():
		st := s.typeOf(info.sampledType)
		if st == nil || !(st.Kind == spirv.TypeFloat && st.Width == 32 || st.Kind == spirv.TypeInt && (st.Width == 32 || st.Width == 64)) {
			return s.fail(i, "VUID-StandaloneSpirv-OpTypeImage-04656", "Expected Sampled Type to be a 32-bit int, 64-bit int or 32-bit float scalar type for Vulkan environment")
		}
	case env.IsOpenCL():
		if s.typeOp(info.sampledType) != spirv.OpTypeVoid {
			return s.fail(i, "", "Sampled Type must be OpTypeVoid in the OpenCL environment.")
		}
	default:
		switch s.typeOp(info.sampledType) {
		case spirv.OpTypeVoid, spirv.OpTypeInt, spirv.OpTypeFloat:
		default:
			return s.fail(i, "", "Expected Sampled Type to be either void or numerical scalar type")
		}
	}
	switch {
	case info.depth > 2:
		return s.fail(i, "", "Invalid Depth %d (must be 0, 1 or 2)", info.depth)
	case info.arrayed > 1:
		return s.fail(i, "", "Invalid Arrayed %d (must be 0 or 1)", info.arrayed)
	case info.ms > 1:
		return s.fail(i, "", "Invalid MS %d (must be 0 or 1)", info.ms)
	case info.sampled > 2:
		return s.fail(i, "", "Invalid Sampled %d (must be 0, 1 or 2)", info.sampled)
	}
	switch info.dim {
	case spirv.DimSubpassData:
		if info.sampled != 2 {
			return s.fail(i, s.vuid("VUID-StandaloneSpirv-OpTypeImage-06214"), "Dim SubpassData requires Sampled to be 2")
		}
		if info.format != spirv.ImageFormatUnknown {
			return s.fail(i, "", "Dim SubpassData requires format Unknown")
		}
	case spirv.DimTileImageDataEXT:
		switch {
		case s.typeOp(info.sampledType) == spirv.OpTypeVoid:
			return s.fail(i, "", "Dim TileImageDataEXT requires Sampled Type to be not OpTypeVoid")
		case info.sampled != 2:
			return s.fail(i, "", "Dim TileImageDataEXT requires Sampled to be 2")
		case info.format != spirv.ImageFormatUnknown:
			return s.fail(i, "", "Dim TileImageDataEXT requires format Unknown")
		case info.depth != 0:
			return s.fail(i, "", "Dim TileImageDataEXT requires Depth to be 0")
		case info.arrayed != 0:
			return s.fail(i, "", "Dim TileImageDataEXT requires Arrayed to be 0")
		}
	default:
		if info.ms != 0 && info.sampled == 2 && !s.caps.has(spirv.CapabilityStorageImageMultisample) {
			return s.fail(i, "", "Capability StorageImageMultisample is required when using multisampled storage image")
		}
	}
	if env.IsOpenCL() {
		switch {
		case info.arrayed == 1 && info.dim != spirv.Dim1D && info.dim != spirv.Dim2D:
			return s.fail(i, "", "In the OpenCL environment, Arrayed may only be set to 1 when Dim is either 1D or 2D.")
		case info.ms != 0:
			return s.fail(i, "", "MS must be 0 in the OpenCL environment.")
		case info.sampled != 0:
			return s.fail(i, "", "Sampled must be 0 in the OpenCL environment.")
		case info.access == 0xFFFFFFFF:
			return s.fail(i, "", "In the OpenCL environment, the optional Access Qualifier must be present.")
		}
	}
	if env.IsVulkan() {
		switch {
		case info.sampled == 0:
			return s.fail(i, "VUID-StandaloneSpirv-OpTypeImage-04657", "Sampled must be 1 or 2 in the Vulkan environment.")
		case info.dim == spirv.DimSubpassData && info.arrayed != 0:
			return s.fail(i, "VUID-StandaloneSpirv-OpTypeImage-06214", "Dim SubpassData requires Arrayed to be 0 in the Vulkan environment")
		case info.dim == spirv.DimRect:
			return s.fail(i, "VUID-StandaloneSpirv-OpTypeImage-09638", "Dim must not be Rect in the Vulkan environment")
		}
		if info.format != spirv.ImageFormatUnknown {
			isInt := s.isIntScalar(info.sampledType)
			if !isInt && !isFloatImageFormat(info.format) || isInt && !isIntImageFormat(info.format) {
				return s.fail(i, "VUID-StandaloneSpirv-Image-04965", "Image Format type does not match Sample Type operand (%s)", pick(isInt, "integer", "float"))
			}
			if w := s.bitWidth(info.sampledType); isInt && (w == 32 && isInt64ImageFormat(info.format) || w == 64 && !isInt64ImageFormat(info.format)) {
				return s.fail(i, "VUID-StandaloneSpirv-Image-04965", "Image Format width does not match Sample Type operand (bit width of %d)", w)
			}
		}
	}
	return false
}

func (s *state) typeSampledImage(i int, in *spirv.Instruction) bool {
	img := s.opWord(in, 1)
	if s.typeOp(img) != spirv.OpTypeImage {
		return s.fail(i, "", "Expected Image to be of type OpTypeImage")
	}
	info := s.imageTypeInfo(img)
	if !info.ok {
		return s.fail(i, "", "Corrupt image type definition")
	}
	if info.sampled != 0 && info.sampled != 1 {
		return s.fail(i, s.vuid("VUID-StandaloneSpirv-OpTypeImage-04657"), "Sampled image type requires an image type with \"Sampled\" operand set to 0 or 1")
	}
	if s.version >= spirv.MakeVersion(1, 6) && info.dim == spirv.DimBuffer {
		return s.fail(i, "", "In SPIR-V 1.6 or later, sampled image dimension must not be Buffer")
	}
	return false
}

func (s *state) sampledImage(i int, in *spirv.Instruction) bool {
	res := in.TypeID
	if s.typeOp(res) != spirv.OpTypeSampledImage {
		return s.fail(i, "", "Expected Result Type to be OpTypeSampledImage.")
	}
	img := s.opType(in, 2)
	if s.typeOp(img) != spirv.OpTypeImage {
		return s.fail(i, "", "Expected Image to be of type OpTypeImage.")
	}
	info := s.imageTypeInfo(img)
	if !info.ok {
		return s.fail(i, "", "Corrupt image type definition")
	}
	if want := s.typeWord(res, 2); want != img {
		o := s.imageTypeInfo(want)
		if !o.ok {
			return s.fail(i, "", "Corrupt image type definition")
		}
		if info.sampledType != o.sampledType || info.dim != o.dim || info.arrayed != o.arrayed || info.ms != o.ms ||
			info.sampled != o.sampled || info.format != o.format || info.access != o.access {
			return s.fail(i, "", "Image operands must match result image operands except for depth")
		}
	}
	if s.opts.Env.IsVulkan() {
		if info.sampled != 1 {
			return s.fail(i, "VUID-StandaloneSpirv-OpTypeSampledImage-06671", "Expected Image 'Sampled' parameter to be 1 for Vulkan environment.")
		}
	} else if info.sampled != 0 && info.sampled != 1 {
		return s.fail(i, "", "Expected Image 'Sampled' parameter to be 0 or 1")
	}
	if info.dim == spirv.DimSubpassData {
		return s.fail(i, "", "Expected Image 'Dim' parameter to be not SubpassData.")
	}
	if s.typeOp(s.opType(in, 3)) != spirv.OpTypeSampler {
		return s.fail(i, "", "Expected Sampler to be of type OpTypeSampler")
	}
	return s.sampledImageConsumers(i, in)
}

// sampledUse is one instruction that uses an OpSampledImage result: its
// index and the block it is in (0 outside functions).
type sampledUse struct {
	inst  int
	block uint32
}

// sampledUses records the uses of OpSampledImage results, as
// RegisterSampledImageConsumer does: IdRef operands naming an
// OpSampledImage defined earlier in the module. The block of each
// OpSampledImage is kept under its result id in blocks.
type sampledUses struct {
	uses   map[uint32][]sampledUse
	blocks map[uint32]uint32
}

// sharedSampled holds the uses of OpSampledImage results, built once per
// validation on first need and shared by the second loop's forks.
type sharedSampled struct {
	once sync.Once
	uses *sampledUses
}

// buildSampledUses reads the def-use lists, on the first OpSampledImage.
func (s *state) buildSampledUses() *sampledUses {
	u := &sampledUses{uses: map[uint32][]sampledUse{}, blocks: map[uint32]uint32{}}
	idx := s.useIdx()
	var defs, at []int // the definitions kept, and every instruction whose block is needed
	for d := 0; d < s.m.Len(); d++ {
		if s.m.Opcode(d) != spirv.OpSampledImage {
			continue
		}
		id := s.m.Inst(d).ResultID
		if first, _ := s.x.Def(id); first != d {
			continue // a duplicate definition: the uses are the first one's
		}
		defs, at = append(defs, d), append(at, d)
		for _, x := range idx.of(s.x, id) {
			if j := int(x.inst); j > d && s.m.Inst(j).Operands[x.op].Kind == spirv.OperandKindIdRef {
				u.uses[id] = append(u.uses[id], sampledUse{inst: j})
				at = append(at, j)
			}
		}
	}
	slices.Sort(at)
	at = slices.Compact(at)
	labels := s.blockLabels(at)
	label := func(i int) uint32 {
		k, _ := slices.BinarySearch(at, i)
		return labels[k]
	}
	for _, d := range defs {
		id := s.m.Inst(d).ResultID
		u.blocks[id] = label(d)
		for k := range u.uses[id] {
			u.uses[id][k].block = label(u.uses[id][k].inst)
		}
	}
	return u
}

// blockLabels gives, for each instruction of at (ascending indexes), the
// OpLabel id of the block holding it: the OpLabel's own for an OpLabel,
// the last OpLabel's since the last OpFunctionEnd otherwise, 0 if none.
// One pass over the opcodes, not a table of the module's size.
func (s *state) blockLabels(at []int) []uint32 {
	out := make([]uint32, len(at))
	var block uint32
	for i, k := 0, 0; k < len(at); i++ {
		switch s.m.Opcode(i) {
		case spirv.OpLabel:
			block = s.m.Inst(i).ResultID
		case spirv.OpFunctionEnd:
			block = 0
		}
		for ; k < len(at) && at[k] == i; k++ {
			out[k] = block
		}
	}
	return out
}

// isSampledImageConsumer is IsAllowedSampledImageOperand.
func (s *state) isSampledImageConsumer(op spirv.Opcode) bool {
	switch op {
	case spirv.OpSampledImage, spirv.OpImageSampleImplicitLod, spirv.OpImageSampleExplicitLod,
		spirv.OpImageSampleDrefImplicitLod, spirv.OpImageSampleDrefExplicitLod, spirv.OpImageSampleProjImplicitLod,
		spirv.OpImageSampleProjExplicitLod, spirv.OpImageSampleProjDrefImplicitLod,
		spirv.OpImageSampleProjDrefExplicitLod, spirv.OpImageGather, spirv.OpImageDrefGather, spirv.OpImage,
		spirv.OpImageQueryLod, spirv.OpImageSparseSampleImplicitLod, spirv.OpImageSparseSampleExplicitLod,
		spirv.OpImageSparseSampleDrefImplicitLod, spirv.OpImageSparseSampleDrefExplicitLod,
		spirv.OpImageSparseGather, spirv.OpImageSparseDrefGather, spirv.OpCopyObject,
		spirv.OpImageSampleWeightedQCOM, spirv.OpImageBoxFilterQCOM, spirv.OpImageBlockMatchSSDQCOM,
		spirv.OpImageBlockMatchSADQCOM, spirv.OpImageBlockMatchWindowSADQCOM, spirv.OpImageBlockMatchWindowSSDQCOM,
		spirv.OpImageBlockMatchGatherSADQCOM, spirv.OpImageBlockMatchGatherSSDQCOM, spirv.OpImageGatherQCOM,
		spirv.OpImageSampleFootprintNV:
		return true
	case spirv.OpStore:
		return s.caps.has(spirv.CapabilityBindlessTextureNV)
	}
	return false
}

// sampledImageConsumers is the consumer part of ValidateSampledImage:
// every use is in the OpSampledImage's block, and is an image instruction
// that takes a sampled image (never OpPhi or OpSelect).
func (s *state) sampledImageConsumers(i int, in *spirv.Instruction) bool {
	s.sampled.once.Do(func() { s.sampled.uses = s.buildSampledUses() })
	sampled := s.sampled.uses
	id := in.ResultID
	block := sampled.blocks[id]
	for _, u := range sampled.uses[id] {
		c := s.m.Inst(u.inst)
		switch {
		case u.block != block:
			return s.fail(i, "", "All OpSampledImage instructions must be in the same block in which their Result <id> are consumed. "+
				"OpSampledImage Result Type <id> %s has a consumer in a different basic block. The consumer instruction <id> is %s.",
				s.idName(id), s.idName(c.ResultID))
		case c.Opcode == spirv.OpPhi || c.Opcode == spirv.OpSelect:
			return s.fail(i, "", "Result <id> from OpSampledImage instruction must not appear as operands of Op%s. Found result <id> %s as an operand of <id> %s.",
				opName(c.Opcode), s.idName(id), s.idName(c.ResultID))
		case !s.isSampledImageConsumer(c.Opcode):
			return s.fail(i, "", "Result <id> from OpSampledImage instruction must not appear as operand for Op%s, since it is not specified as taking an OpTypeSampledImage. Found result <id> %s as an operand of <id> %s.",
				opName(c.Opcode), s.idName(id), s.idName(c.ResultID))
		}
	}
	return false
}

// actualResultType is GetActualResultType: a sparse instruction's texel
// type (the second member of its struct), else the Result Type; failed
// when an error was recorded. what is GetActualResultTypeStr.
func (s *state) actualResultType(i int, in *spirv.Instruction) (t uint32, what string, failed bool) {
	if !isImageSparse(in.Opcode) {
		return in.TypeID, "Result Type", false
	}
	w := s.typeWords(in.TypeID)
	if s.typeOp(in.TypeID) != spirv.OpTypeStruct {
		return 0, "", s.fail(i, "", "Expected Result Type to be OpTypeStruct") || true
	}
	if len(w) != 4 || !s.isIntScalar(w[2]) {
		return 0, "", s.fail(i, "", "Expected Result Type to be a struct containing an int scalar and a texel") || true
	}
	return w[3], "Result Type's second member", false
}

// vec4Result is the "int or float vector of 4 components" rule.
func (s *state) vec4Result(i int, t uint32, what string) bool {
	if !s.isIntVector(t) && !s.isFloatVector(t) {
		return s.fail(i, "", "Expected %s to be int or float vector type", what)
	}
	if s.dimension(t) != 4 {
		return s.fail(i, "", "Expected %s to have 4 components", what)
	}
	return false
}

// imageProj is ValidateImageProj.
func (s *state) imageProj(i int, info imageInfo) bool {
	switch info.dim {
	case spirv.Dim1D, spirv.Dim2D, spirv.Dim3D, spirv.DimRect:
	default:
		return s.fail(i, "", "Expected Image 'Dim' parameter to be 1D, 2D, 3D or Rect")
	}
	if info.ms != 0 {
		return s.fail(i, "", "Expected Image 'MS' parameter to be 0")
	}
	if info.arrayed != 0 {
		return s.fail(i, "", "Expected Image 'arrayed' parameter to be 0")
	}
	return false
}

// sampledTypeMatches: with a non-void Sampled Type, the texel's
// components have it.
func (s *state) sampledTypeMatches(i int, info imageInfo, texel uint32, what string) bool {
	if s.typeOp(info.sampledType) != spirv.OpTypeVoid && s.componentType(texel) != info.sampledType {
		return s.fail(i, "", "Expected Image 'Sampled Type' to be the same as %s components", what)
	}
	return false
}

// imageSample is ValidateImageLod and ValidateImageDrefLod.
func (s *state) imageSample(i int, in *spirv.Instruction) bool {
	op := in.Opcode
	dref := false
	switch op {
	case spirv.OpImageSampleDrefImplicitLod, spirv.OpImageSampleDrefExplicitLod, spirv.OpImageSampleProjDrefImplicitLod,
		spirv.OpImageSampleProjDrefExplicitLod, spirv.OpImageSparseSampleDrefImplicitLod, spirv.OpImageSparseSampleDrefExplicitLod:
		dref = true
	}
	res, what, failed := s.actualResultType(i, in)
	if failed {
		return s.stopped()
	}
	if dref {
		if !s.isIntScalar(res) && !s.isFloatScalar(res) {
			return s.fail(i, "", "Expected %s to be int or float scalar type", what)
		}
	} else if s.vec4Result(i, res, what) {
		return true
	}
	img := s.opType(in, 2)
	if s.typeOp(img) != spirv.OpTypeSampledImage {
		return s.fail(i, "", "Expected Sampled Image to be of type OpTypeSampledImage")
	}
	info := s.imageTypeInfo(img)
	if !info.ok {
		return s.fail(i, "", "Corrupt image type definition")
	}
	if isImageProj(op) && s.imageProj(i, info) {
		return true
	}
	if info.ms != 0 {
		if dref {
			return s.fail(i, "", "Dref sampling operation is invalid for multisample image")
		}
		return s.fail(i, "", "Sampling operation is invalid for multisample image")
	}
	if dref {
		if res != info.sampledType {
			return s.fail(i, "", "Expected Image 'Sampled Type' to be the same as %s", what)
		}
	} else if s.sampledTypeMatches(i, info, res, what) {
		return true
	}
	if s.imageCoordinate(i, in, info, 3) {
		return true
	}
	if dref && s.imageDref(i, in, info) {
		return true
	}
	if dref {
		return s.imageOperands(i, in, info, 7)
	}
	if op == spirv.OpImageSampleExplicitLod && s.opts.Env.IsOpenCL() && len(in.Words) > 5 && in.Words[5]&0x8 != 0 {
		return s.fail(i, "", "ConstOffset image operand not allowed in the OpenCL environment.")
	}
	return s.imageOperands(i, in, info, 6)
}

// imageDref is ValidateImageDref.
func (s *state) imageDref(i int, in *spirv.Instruction, info imageInfo) bool {
	if t := s.opType(in, 4); !s.isFloatScalar(t) || s.bitWidth(t) != 32 {
		return s.fail(i, "", "Expected Dref to be of 32-bit float type")
	}
	if s.opts.Env.IsVulkan() && info.dim == spirv.Dim3D {
		return s.fail(i, "VUID-StandaloneSpirv-OpImage-04777", "In Vulkan, OpImage*Dref* instructions must not use images with a 3D Dim")
	}
	return false
}

func (s *state) imageFetch(i int, in *spirv.Instruction) bool {
	res, what, failed := s.actualResultType(i, in)
	if failed {
		return s.stopped()
	}
	if s.vec4Result(i, res, what) {
		return true
	}
	img := s.opType(in, 2)
	if s.typeOp(img) != spirv.OpTypeImage {
		return s.fail(i, "", "Expected Image to be of type OpTypeImage")
	}
	info := s.imageTypeInfo(img)
	switch {
	case !info.ok:
		return s.fail(i, "", "Corrupt image type definition")
	case s.sampledTypeMatches(i, info, res, what):
		return true
	case info.dim == spirv.DimCube:
		return s.fail(i, "", "Image 'Dim' cannot be Cube")
	case info.sampled != 1:
		return s.fail(i, "", "Expected Image 'Sampled' parameter to be 1")
	case s.imageCoordinate(i, in, info, 3):
		return true
	}
	return s.imageOperands(i, in, info, 6)
}

func (s *state) imageGather(i int, in *spirv.Instruction) bool {
	op := in.Opcode
	res, what, failed := s.actualResultType(i, in)
	if failed {
		return s.stopped()
	}
	if s.vec4Result(i, res, what) {
		return true
	}
	img := s.opType(in, 2)
	if s.typeOp(img) != spirv.OpTypeSampledImage {
		return s.fail(i, "", "Expected Sampled Image to be of type OpTypeSampledImage")
	}
	info := s.imageTypeInfo(img)
	if !info.ok {
		return s.fail(i, "", "Corrupt image type definition")
	}
	if info.ms != 0 {
		return s.fail(i, "", "Gather operation is invalid for multisample image")
	}
	dref := op == spirv.OpImageDrefGather || op == spirv.OpImageSparseDrefGather
	if (dref || s.typeOp(info.sampledType) != spirv.OpTypeVoid) && s.componentType(res) != info.sampledType {
		return s.fail(i, "", "Expected Image 'Sampled Type' to be the same as %s components", what)
	}
	if info.dim != spirv.Dim2D && info.dim != spirv.DimCube && info.dim != spirv.DimRect {
		return s.fail(i, s.vuid("VUID-StandaloneSpirv-OpImage-04777"), "Expected Image 'Dim' to be 2D, Cube, or Rect")
	}
	if s.imageCoordinate(i, in, info, 3) {
		return true
	}
	if dref {
		if s.imageDref(i, in, info) {
			return true
		}
	} else {
		comp := s.opWord(in, 4)
		if t := s.typeOfValue(comp); !s.isIntScalar(t) || s.bitWidth(t) != 32 {
			return s.fail(i, "", "Expected Component to be 32-bit int scalar")
		}
		if s.opts.Env.IsVulkan() {
			if _, isConst := s.x.Constants[comp]; !isConst {
				return s.fail(i, "VUID-StandaloneSpirv-OpImageGather-04664", "Expected Component Operand to be a const object for Vulkan environment")
			}
		}
	}
	return s.imageOperands(i, in, info, 7)
}

// imageReadWrite is ValidateImageReadWrite.
func (s *state) imageReadWrite(i int, info imageInfo) bool {
	if info.sampled == 2 {
		switch {
		case info.dim == spirv.Dim1D && !s.caps.has(spirv.CapabilityImage1D):
			return s.fail(i, "", "Capability Image1D is required to access storage image")
		case info.dim == spirv.DimRect && !s.caps.has(spirv.CapabilityImageRect):
			return s.fail(i, "", "Capability ImageRect is required to access storage image")
		case info.dim == spirv.DimBuffer && !s.caps.has(spirv.CapabilityImageBuffer):
			return s.fail(i, "", "Capability ImageBuffer is required to access storage image")
		case info.dim == spirv.DimCube && info.arrayed == 1 && !s.caps.has(spirv.CapabilityImageCubeArray):
			return s.fail(i, "", "Capability ImageCubeArray is required to access storage image")
		case info.ms == 1 && info.arrayed == 1 && !s.caps.has(spirv.CapabilityImageMSArray):
			return s.fail(i, "", "Capability ImageMSArray is required to access storage image")
		}
	} else if info.sampled != 0 {
		return s.fail(i, "", "Expected Image 'Sampled' parameter to be 0 or 2")
	}
	return false
}

func (s *state) imageRead(i int, in *spirv.Instruction) bool {
	op := in.Opcode
	res, what, failed := s.actualResultType(i, in)
	if failed {
		return s.stopped()
	}
	if !s.isIntScalarOrVector(res) && !s.isFloatScalarOrVector(res) {
		return s.fail(i, "", "Expected %s to be int or float scalar or vector type", what)
	}
	env := s.opts.Env
	if env.IsVulkan() && s.dimension(res) != 4 {
		return s.fail(i, "VUID-StandaloneSpirv-Result-04780", "Expected %s to have 4 components", what)
	}
	img := s.opType(in, 2)
	if s.typeOp(img) != spirv.OpTypeImage {
		return s.fail(i, "", "Expected Image to be of type OpTypeImage")
	}
	info := s.imageTypeInfo(img)
	if !info.ok {
		return s.fail(i, "", "Corrupt image type definition")
	}
	if env.IsOpenCL() {
		if info.depth != 0 {
			if !s.isFloatScalar(res) {
				return s.fail(i, "", "Expected %s from a depth image read to result in a scalar float value", what)
			}
		} else if s.dimension(res) != 4 {
			return s.fail(i, "", "Expected %s to have 4 components", what)
		}
		if len(in.Words) > 5 && in.Words[5]&0x8 != 0 {
			return s.fail(i, "", "ConstOffset image operand not allowed in the OpenCL environment.")
		}
	}
	if info.dim == spirv.DimSubpassData && op == spirv.OpImageSparseRead {
		return s.fail(i, "", "Image Dim SubpassData cannot be used with ImageSparseRead")
	}
	if info.dim == spirv.DimTileImageDataEXT {
		return s.fail(i, "", "Image Dim TileImageDataEXT cannot be used with %s", opName(op))
	}
	if s.sampledTypeMatches(i, info, res, what) || s.imageReadWrite(i, info) || s.imageCoordinate(i, in, info, 3) {
		return true
	}
	if env.IsVulkan() && info.format == spirv.ImageFormatUnknown && info.dim != spirv.DimSubpassData &&
		!s.caps.has(spirv.CapabilityStorageImageReadWithoutFormat) {
		return s.fail(i, "", "Capability StorageImageReadWithoutFormat is required to read storage image")
	}
	return s.imageOperands(i, in, info, 6)
}

func (s *state) imageWrite(i int, in *spirv.Instruction) bool {
	img := s.opType(in, 0)
	if s.typeOp(img) != spirv.OpTypeImage {
		return s.fail(i, "", "Expected Image to be of type OpTypeImage")
	}
	info := s.imageTypeInfo(img)
	switch {
	case !info.ok:
		return s.fail(i, "", "Corrupt image type definition")
	case info.dim == spirv.DimSubpassData:
		return s.fail(i, "", "Image 'Dim' cannot be SubpassData")
	case info.dim == spirv.DimTileImageDataEXT:
		return s.fail(i, "", "Image 'Dim' cannot be TileImageDataEXT")
	case s.imageReadWrite(i, info), s.imageCoordinate(i, in, info, 1):
		return true
	}
	texel := s.opType(in, 2)
	if !s.isIntScalarOrVector(texel) && !s.isFloatScalarOrVector(texel) {
		return s.fail(i, "", "Expected Texel to be int or float vector or scalar")
	}
	if s.typeOp(info.sampledType) != spirv.OpTypeVoid && s.componentType(texel) != info.sampledType {
		return s.fail(i, "", "Expected Image 'Sampled Type' to be the same as Texel components")
	}
	env := s.opts.Env
	if env.IsVulkan() && info.format == spirv.ImageFormatUnknown && info.dim != spirv.DimSubpassData &&
		!s.caps.has(spirv.CapabilityStorageImageWriteWithoutFormat) {
		return s.fail(i, "", "Capability StorageImageWriteWithoutFormat is required to write to storage image")
	}
	if len(in.Words) > 4 && env.IsOpenCL() {
		return s.fail(i, "", "Optional Image Operands are not allowed in the OpenCL environment.")
	}
	return s.imageOperands(i, in, info, 5)
}

// imageQuerySize is ValidateImageQuerySizeLod and ValidateImageQuerySize.
func (s *state) imageQuerySize(i int, in *spirv.Instruction) bool {
	lod := in.Opcode == spirv.OpImageQuerySizeLod
	res := in.TypeID
	if !s.isIntScalarOrVector(res) {
		return s.fail(i, "", "Expected Result Type to be int scalar or vector type")
	}
	img := s.opType(in, 2)
	if s.typeOp(img) != spirv.OpTypeImage {
		return s.fail(i, "", "Expected Image to be of type OpTypeImage")
	}
	info := s.imageTypeInfo(img)
	if !info.ok {
		return s.fail(i, "", "Corrupt image type definition")
	}
	want := info.arrayed
	switch {
	case info.dim == spirv.Dim1D || !lod && info.dim == spirv.DimBuffer:
		want++
	case info.dim == spirv.Dim2D || info.dim == spirv.DimCube || !lod && info.dim == spirv.DimRect:
		want += 2
	case info.dim == spirv.Dim3D:
		want += 3
	case lod:
		return s.fail(i, "", "Image 'Dim' must be 1D, 2D, 3D or Cube")
	default:
		return s.fail(i, "", "Image 'Dim' must be 1D, Buffer, 2D, Cube, 3D or Rect")
	}
	if lod {
		if info.ms != 0 {
			return s.fail(i, "", "Image 'MS' must be 0")
		}
		if s.opts.Env.IsVulkan() && info.sampled != 1 {
			return s.fail(i, "VUID-StandaloneSpirv-OpImageQuerySizeLod-04659", "OpImageQuerySizeLod must only consume an \"Image\" operand whose type has its \"Sampled\" operand set to 1")
		}
	} else {
		switch info.dim {
		case spirv.Dim1D, spirv.Dim2D, spirv.Dim3D, spirv.DimCube:
			if info.ms != 1 && info.sampled != 0 && info.sampled != 2 {
				return s.fail(i, "", "Image must have either 'MS'=1 or 'Sampled'=0 or 'Sampled'=2")
			}
		}
	}
	if n := s.dimension(res); n != want {
		return s.fail(i, "", "Result Type has %d components, but %d expected", n, want)
	}
	if lod {
		if t := s.opType(in, 3); !s.isIntScalar(t) || s.bitWidth(t) != 32 {
			return s.fail(i, "", "Expected Level of Detail to be a 32-bit int scalar")
		}
	}
	return false
}

// imageQueryScalar is ValidateImageQueryFormatOrOrder and
// ValidateImageQueryLevelsOrSamples.
func (s *state) imageQueryScalar(i int, in *spirv.Instruction) bool {
	op := in.Opcode
	if !s.isIntScalar(in.TypeID) {
		return s.fail(i, "", "Expected Result Type to be int scalar type")
	}
	img := s.opType(in, 2)
	if s.typeOp(img) != spirv.OpTypeImage {
		if op == spirv.OpImageQueryFormat || op == spirv.OpImageQueryOrder {
			return s.fail(i, "", "Expected operand to be of type OpTypeImage")
		}
		return s.fail(i, "", "Expected Image to be of type OpTypeImage")
	}
	info := s.imageTypeInfo(img)
	if !info.ok {
		return s.fail(i, "", "Corrupt image type definition")
	}
	switch op {
	case spirv.OpImageQueryFormat, spirv.OpImageQueryOrder:
		if info.dim == spirv.DimTileImageDataEXT {
			return s.fail(i, "", "Image 'Dim' cannot be TileImageDataEXT")
		}
	case spirv.OpImageQueryLevels:
		switch info.dim {
		case spirv.Dim1D, spirv.Dim2D, spirv.Dim3D, spirv.DimCube:
		default:
			return s.fail(i, "", "Image 'Dim' must be 1D, 2D, 3D or Cube")
		}
		if s.opts.Env.IsVulkan() && info.sampled != 1 {
			return s.fail(i, "VUID-StandaloneSpirv-OpImageQuerySizeLod-04659", "OpImageQueryLevels must only consume an \"Image\" operand whose type has its \"Sampled\" operand set to 1")
		}
	default:
		if info.dim != spirv.Dim2D {
			return s.fail(i, "", "Image 'Dim' must be 2D")
		}
		if info.ms != 1 {
			return s.fail(i, "", "Image 'MS' must be 1")
		}
	}
	return false
}

// imageQueryLod is ValidateImageQueryLod's type rules.
func (s *state) imageQueryLod(i int, in *spirv.Instruction) bool {
	res := in.TypeID
	if !s.isFloatVector(res) {
		return s.fail(i, "", "Expected Result Type to be float vector type")
	}
	if s.dimension(res) != 2 {
		return s.fail(i, "", "Expected Result Type to have 2 components")
	}
	img := s.opType(in, 2)
	if s.typeOp(img) != spirv.OpTypeSampledImage {
		return s.fail(i, "", "Expected Image operand to be of type OpTypeSampledImage")
	}
	info := s.imageTypeInfo(img)
	if !info.ok {
		return s.fail(i, "", "Corrupt image type definition")
	}
	switch info.dim {
	case spirv.Dim1D, spirv.Dim2D, spirv.Dim3D, spirv.DimCube:
	default:
		return s.fail(i, "", "Image 'Dim' must be 1D, 2D, 3D or Cube")
	}
	return s.imageCoordinate(i, in, info, 3)
}

// imageTexelPointer is ValidateImageTexelPointer for OpImageTexelPointer
// and OpUntypedImageTexelPointerEXT, whose operands are its Image Type
// and then OpImageTexelPointer's (an untyped pointer for Image).
func (s *state) imageTexelPointer(i int, in *spirv.Instruction) bool {
	untyped := in.Opcode == spirv.OpUntypedImageTexelPointerEXT
	k, name, ptrOp, vuid := 2, "OpImageTexelPointer", spirv.OpTypePointer, "VUID-StandaloneSpirv-OpImageTexelPointer-04658"
	if untyped {
		k, name, ptrOp, vuid = 3, "OpUntypedImageTexelPointerEXT", spirv.OpTypeUntypedPointerKHR, "VUID-StandaloneSpirv-OpUntypedImageTexelPointerEXT-11416"
	}
	res := in.TypeID
	op := s.typeOp(res)
	if op != spirv.OpTypePointer && op != spirv.OpTypeUntypedPointerKHR {
		return s.fail(i, "", "Expected Result Type to be a pointer")
	}
	if spirv.StorageClass(s.typeWord(res, 2)) != spirv.StorageClassImage {
		return s.fail(i, "", "Expected Result Type to be a pointer whose Storage Class operand is Image")
	}
	f16v := s.caps.has(spirv.CapabilityAtomicFloat16VectorNV)
	var pointee uint32
	if op == spirv.OpTypePointer {
		pointee = s.typeWord(res, 3)
		switch po := s.typeOp(pointee); {
		case po == spirv.OpTypeInt || po == spirv.OpTypeFloat || po == spirv.OpTypeVoid:
		case po == spirv.OpTypeVector && f16v && s.isFloat16Vec2or4(pointee):
		default:
			return s.fail(i, "", "Expected Result Type to be a pointer whose Type operand must be a scalar numerical type or OpTypeVoid")
		}
	}
	ptr := s.opType(in, k)
	if s.typeOp(ptr) != ptrOp {
		return s.fail(i, "", "Expected Image to be %s", ptrOp)
	}
	img := s.typeWord(ptr, 3)
	if untyped {
		img = s.opWord(in, 2)
	}
	if s.typeOp(img) != spirv.OpTypeImage {
		if untyped { // spirv-val's message has no space here
			return s.fail(i, "", "Expected Image to be OpTypeUntypedPointerKHRwith Type OpTypeImage")
		}
		return s.fail(i, "", "Expected Image to be OpTypePointer with Type OpTypeImage")
	}
	info := s.imageTypeInfo(img)
	if !info.ok {
		return s.fail(i, "", "Corrupt image type definition")
	}
	if op == spirv.OpTypePointer && info.sampledType != pointee {
		d := s.dimension(pointee)
		if !(f16v && s.isFloat16Vec2or4(pointee) && s.typeOp(info.sampledType) == spirv.OpTypeFloat &&
			(d == 2 && info.format == spirv.ImageFormatRg16f || d == 4 && info.format == spirv.ImageFormatRgba16f)) {
			return s.fail(i, "", "Expected Image 'Sampled Type' to be the same as the Type pointed to by Result Type")
		}
	}
	switch info.dim {
	case spirv.DimSubpassData:
		return s.fail(i, "", "Image Dim SubpassData cannot be used with %s", name)
	case spirv.DimTileImageDataEXT:
		return s.fail(i, "", "Image Dim TileImageDataEXT cannot be used with %s", name)
	}
	if s.imageCoordinate(i, in, info, k+1) {
		return true
	}
	if t := s.opType(in, k+2); t == 0 || !s.isIntScalar(t) {
		return s.fail(i, "", "Expected Sample to be integer scalar")
	}
	if info.ms == 0 {
		if v, ok := s.constUint(s.opWord(in, k+2)); !ok || v != 0 {
			return s.fail(i, "", "Expected Sample for Image with MS 0 to be a valid <id> for the value 0")
		}
	}
	if s.opts.Env.IsVulkan() {
		switch info.format {
		case spirv.ImageFormatR64i, spirv.ImageFormatR64ui, spirv.ImageFormatR32f, spirv.ImageFormatR32i, spirv.ImageFormatR32ui:
		case spirv.ImageFormatRg16f, spirv.ImageFormatRgba16f:
			if f16v {
				break
			}
			fallthrough
		default:
			return s.fail(i, s.vuid(vuid), "Expected the Image Format in Image to be R64i, R64ui, R32f, R32i, or R32ui for Vulkan environment using %s", name)
		}
	}
	return false
}

// planeCoordSize is GetPlaneCoordSize.
func planeCoordSize(d spirv.Dim) uint32 {
	switch d {
	case spirv.Dim1D, spirv.DimBuffer:
		return 1
	case spirv.Dim2D, spirv.DimRect, spirv.DimSubpassData, spirv.DimTileImageDataEXT:
		return 2
	case spirv.Dim3D, spirv.DimCube:
		return 3
	}
	return 0
}

// imageCoordinate is ValidateImageCoordinate for operand k.
func (s *state) imageCoordinate(i int, in *spirv.Instruction, info imageInfo, k int) bool {
	op := in.Opcode
	coord := s.opType(in, k)
	var floatOnly, intOnly bool
	switch op {
	case spirv.OpImageSampleImplicitLod, spirv.OpImageSampleDrefImplicitLod, spirv.OpImageSampleDrefExplicitLod,
		spirv.OpImageSampleProjImplicitLod, spirv.OpImageSampleProjExplicitLod, spirv.OpImageSampleProjDrefImplicitLod,
		spirv.OpImageSampleProjDrefExplicitLod, spirv.OpImageGather, spirv.OpImageDrefGather, spirv.OpImageQueryLod,
		spirv.OpImageSparseSampleImplicitLod, spirv.OpImageSparseSampleDrefImplicitLod,
		spirv.OpImageSparseSampleDrefExplicitLod, spirv.OpImageSparseGather, spirv.OpImageSparseDrefGather:
		floatOnly = true
	case spirv.OpImageFetch, spirv.OpImageSparseFetch, spirv.OpImageTexelPointer, spirv.OpUntypedImageTexelPointerEXT:
		intOnly = true
	}
	switch {
	case floatOnly && !s.isFloatScalarOrVector(coord):
		return s.fail(i, "", "Expected Coordinate to be a 32-bit float scalar or vector")
	case intOnly && !s.isIntScalarOrVector(coord):
		return s.fail(i, "", "Expected Coordinate to be a 32-bit integer scalar or vector")
	case !floatOnly && !intOnly && !s.isFloatScalarOrVector(coord) && !s.isIntScalarOrVector(coord):
		return s.fail(i, "", "Expected Coordinate to be a 32-bit integer or float scalar or vector")
	case s.bitWidth(coord) != 32:
		return s.fail(i, "", "Expected Coordinate to be a 32-bit scalar or vector")
	}
	var min uint32
	if info.dim == spirv.DimCube && (op == spirv.OpImageRead || op == spirv.OpImageWrite || op == spirv.OpImageSparseRead) {
		min = 3
	} else if op == spirv.OpImageQueryLod || op == spirv.OpImageTexelPointer && info.arrayed == 0 {
		min = planeCoordSize(info.dim)
	} else if op == spirv.OpImageTexelPointer {
		switch info.dim {
		case spirv.Dim1D:
			min = 2
		case spirv.DimCube, spirv.Dim2D:
			min = 3
		}
	} else {
		min = planeCoordSize(info.dim) + info.arrayed
		if isImageProj(op) {
			min++
		}
	}
	if n := s.dimension(coord); op == spirv.OpImageTexelPointer {
		if min != n {
			return s.fail(i, "", "Expected Coordinate to have %d components, but given %d", min, n)
		}
	} else if min > n {
		return s.fail(i, "", "Expected Coordinate to have at least %d components, but given only %d", min, n)
	}
	if info.dim == spirv.DimSubpassData {
		zero := false
		if c, ok := s.x.Constants[s.opWord(in, k)]; ok {
			switch c.Op {
			case spirv.OpConstantNull:
				zero = true
			case spirv.OpConstantComposite:
				if len(c.Parts) == 2 {
					a, okA := s.constUint(c.Parts[0])
					b, okB := s.constUint(c.Parts[1])
					zero = okA && okB && a == 0 && b == 0
				}
			}
		}
		if !zero {
			return s.fail(i, s.vuid("VUID-StandaloneSpirv-SubpassData-04660"), "Expected Coordinate for a SubpassData image to be a OpConstantComposite of (0,0) or OpConstantNull")
		}
	}
	return false
}

func isExplicitLod(op spirv.Opcode) bool {
	switch op {
	case spirv.OpImageSampleExplicitLod, spirv.OpImageSampleDrefExplicitLod, spirv.OpImageSampleProjExplicitLod,
		spirv.OpImageSampleProjDrefExplicitLod, spirv.OpImageSparseSampleExplicitLod,
		spirv.OpImageSparseSampleDrefExplicitLod, spirv.OpImageSparseSampleProjExplicitLod,
		spirv.OpImageSparseSampleProjDrefExplicitLod:
		return true
	}
	return false
}

func isSignedIntImageFormat(f spirv.ImageFormat) bool {
	switch f {
	case spirv.ImageFormatRgba32i, spirv.ImageFormatRgba16i, spirv.ImageFormatRgba8i, spirv.ImageFormatR32i,
		spirv.ImageFormatRg32i, spirv.ImageFormatRg16i, spirv.ImageFormatRg8i, spirv.ImageFormatR16i,
		spirv.ImageFormatR8i, spirv.ImageFormatR64i:
		return true
	}
	return false
}
