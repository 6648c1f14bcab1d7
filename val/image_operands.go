package val

import (
	"math/bits"

	"spvx/spirv"
)

// This file holds validate_image.cpp's ValidateImageOperands: the mask's
// operand count, the Sample rule for multisampled images, Vulkan's format
// signedness, then one method per operand in mask order, as the operand
// ids follow the mask.

// The Image Operands mask bits, from the grammar, under short names.
const (
	imgBias          = uint32(spirv.ImageOperandsBias)
	imgLod           = uint32(spirv.ImageOperandsLod)
	imgGrad          = uint32(spirv.ImageOperandsGrad)
	imgConstOffset   = uint32(spirv.ImageOperandsConstOffset)
	imgOffset        = uint32(spirv.ImageOperandsOffset)
	imgConstOffsets  = uint32(spirv.ImageOperandsConstOffsets)
	imgSample        = uint32(spirv.ImageOperandsSample)
	imgMinLod        = uint32(spirv.ImageOperandsMinLod)
	imgMakeAvailable = uint32(spirv.ImageOperandsMakeTexelAvailable)
	imgMakeVisible   = uint32(spirv.ImageOperandsMakeTexelVisible)
	imgNonPrivate    = uint32(spirv.ImageOperandsNonPrivateTexel)
	imgVolatile      = uint32(spirv.ImageOperandsVolatileTexel)
	imgSignExtend    = uint32(spirv.ImageOperandsSignExtend)
	imgZeroExtend    = uint32(spirv.ImageOperandsZeroExtend)
	imgNontemporal   = uint32(spirv.ImageOperandsNontemporal)
	imgOffsets       = uint32(spirv.ImageOperandsOffsets)
)

// imageOps is one instruction's Image Operands being checked. w is the
// word index of the next operand id; the checks of the operands consume
// their ids in mask order.
type imageOps struct {
	s     *state
	i     int
	in    *spirv.Instruction
	info  imageInfo
	op    spirv.Opcode
	words []uint32
	n, w  int
	mask  uint32

	// What the opcode and image allow, worked out once for all operands.
	implicit, explicit, validLod, gatherAMD, dim1234, isGather bool
}

// imageOperands is ValidateImageOperands. w is the word index of the
// first operand after the mask.
func (s *state) imageOperands(i int, in *spirv.Instruction, info imageInfo, w int) bool {
	c := imageOps{s: s, i: i, in: in, info: info, op: in.Opcode, words: in.Words, n: len(in.Words), w: w}
	if w-1 < c.n {
		c.mask = c.words[w-1]
	}
	if c.operandCount() || c.sampleRequired() || c.formatSignedness() {
		return s.stopped()
	}
	if c.mask == 0 {
		return false
	}
	if bits.OnesCount32(c.mask&(imgOffset|imgConstOffset|imgConstOffsets|imgOffsets)) > 1 {
		return s.fail(i, "", "Image Operands Offset, ConstOffset, ConstOffsets, Offsets cannot be used together")
	}
	c.allowed()
	// Direct calls, not a table of method values: through a func value c
	// would escape to the heap, an allocation per image instruction.
	if c.bias() || c.lod() || c.grad() || c.offsets() || c.constOffsets() ||
		c.sample() || c.minLod() || c.makeTexel() || c.extend() {
		return s.stopped()
	}
	return false
}

// fail records an error at the instruction and reports that a check
// failed (whether validation stops is the caller's s.stopped()).
func (c *imageOps) fail(vuid, format string, args ...any) bool {
	c.s.fail(c.i, vuid, format, args...)
	return true
}

// next returns the type of the next operand id and moves past it.
func (c *imageOps) next() uint32 {
	if c.w >= c.n {
		return 0
	}
	c.w++
	return c.s.typeOfValue(c.words[c.w-1])
}

// nextID returns the next operand id without moving past it, 0 past the
// end.
func (c *imageOps) nextID() uint32 {
	if c.w < c.n {
		return c.words[c.w]
	}
	return 0
}

func (c *imageOps) float32S(t uint32) bool { return c.s.isFloatScalar(t) && c.s.bitWidth(t) == 32 }
func (c *imageOps) int32S(t uint32) bool   { return c.s.isIntScalar(t) && c.s.bitWidth(t) == 32 }

// allowed works out which Lod operands the opcode allows and whether
// the image's Dim takes Bias, Lod and MinLod.
func (c *imageOps) allowed() {
	op, dim := c.op, c.info.dim
	c.implicit, c.explicit = isImplicitLod(op), isExplicitLod(op)
	c.validLod = c.explicit
	switch op {
	case spirv.OpImageRead, spirv.OpImageWrite, spirv.OpImageSparseRead:
		c.validLod = c.s.caps.has(spirv.CapabilityImageReadWriteLodAMD)
	}
	c.gatherAMD = (op == spirv.OpImageGather || op == spirv.OpImageSparseGather) && c.s.caps.has(spirv.CapabilityImageGatherBiasLodAMD)
	c.dim1234 = dim == spirv.Dim1D || dim == spirv.Dim2D || dim == spirv.Dim3D || dim == spirv.DimCube
	c.isGather = op == spirv.OpImageGather || op == spirv.OpImageDrefGather || op == spirv.OpImageSparseGather ||
		op == spirv.OpImageSparseDrefGather || op == spirv.OpImageGatherQCOM
}

// operandCount: one id per mask bit (two for Grad), none for the bits
// that take no operand; no mask, no operands.
func (c *imageOps) operandCount() bool {
	if c.w-1 < c.n {
		want := bits.OnesCount32(c.mask &^ (imgNonPrivate | imgVolatile | imgSignExtend | imgZeroExtend | imgNontemporal))
		if c.mask&imgGrad != 0 {
			want++
		}
		if want != c.n-c.w {
			return c.fail("", "Number of image operand ids doesn't correspond to the bit mask")
		}
	} else if c.n != c.w-1 {
		return c.fail("", "Number of image operand ids doesn't correspond to the bit mask")
	}
	return false
}

// sampleRequired: a multisampled image needs the Sample operand.
func (c *imageOps) sampleRequired() bool {
	if c.info.ms != 0 && c.mask&imgSample == 0 {
		return c.fail("", "Image Operand Sample is required for operation on multi-sampled image")
	}
	return false
}

// formatSignedness is Vulkan's rule that an integer image's format and
// the access (its Sampled Type, or SignExtend/ZeroExtend) agree in sign.
func (c *imageOps) formatSignedness() bool {
	s, info := c.s, c.info
	if !s.opts.Env.IsVulkan() || info.format == spirv.ImageFormatUnknown || !s.isIntScalar(info.sampledType) {
		return false
	}
	signExt, zeroExt := c.mask&imgSignExtend != 0, c.mask&imgZeroExtend != 0
	formatSigned := isSignedIntImageFormat(info.format)
	typeSigned := s.typeOf(info.sampledType).Signed
	if signExt {
		typeSigned = true
	} else if zeroExt {
		typeSigned = false
	}
	if formatSigned == typeSigned {
		return false
	}
	extra := ""
	if signExt {
		extra = " (SignExtend makes the access as signed)"
	} else if zeroExt {
		extra = " (ZeroExtend makes the access as unsigned)"
	}
	return c.fail("VUID-StandaloneSpirv-Image-04965", "Image Format signedness (%s) does not match Sample Type operand%s.", pick(formatSigned, "signed", "unsigned"), extra)
}

func (c *imageOps) bias() bool {
	if c.mask&imgBias == 0 {
		return false
	}
	if !c.implicit && !c.gatherAMD {
		return c.fail("", "Image Operand Bias can only be used with ImplicitLod opcodes")
	}
	if !c.float32S(c.next()) {
		return c.fail("", "Expected Image Operand Bias to be a 32-bit float scalar")
	}
	if !c.dim1234 {
		return c.fail("", "Image Operand Bias requires 'Dim' parameter to be 1D, 2D, 3D or Cube")
	}
	return false
}

func (c *imageOps) lod() bool {
	if c.mask&imgLod == 0 {
		return false
	}
	op := c.op
	if !c.validLod && op != spirv.OpImageFetch && op != spirv.OpImageSparseFetch && !c.gatherAMD {
		return c.fail("", "Image Operand Lod can only be used with ExplicitLod opcodes and OpImageFetch")
	}
	if c.mask&imgGrad != 0 {
		return c.fail("", "Image Operand bits Lod and Grad cannot be set at the same time")
	}
	t := c.next()
	if c.explicit || c.gatherAMD {
		if !c.float32S(t) {
			return c.fail("", "Expected Image Operand Lod to be a 32-bit float scalar when used with ExplicitLod")
		}
	} else if !c.int32S(t) {
		return c.fail("", "Expected Image Operand Lod to be a 32-bit int scalar when used with OpImageFetch")
	}
	if !c.dim1234 {
		return c.fail("", "Image Operand Lod requires 'Dim' parameter to be 1D, 2D, 3D or Cube")
	}
	if c.info.ms != 0 {
		return c.fail("", "Image Operand Lod requires 'MS' parameter to be 0")
	}
	return false
}

func (c *imageOps) grad() bool {
	if c.mask&imgGrad == 0 {
		return false
	}
	s := c.s
	if !c.explicit {
		return c.fail("", "Image Operand Grad can only be used with ExplicitLod opcodes")
	}
	dx, dy := c.next(), c.next()
	if !s.isFloatScalarOrVector(dx) || s.bitWidth(dx) != 32 || !s.isFloatScalarOrVector(dy) || s.bitWidth(dy) != 32 {
		return c.fail("", "Expected both Image Operand Grad ids to be 32-bit float scalars or vectors")
	}
	plane := planeCoordSize(c.info.dim)
	if d := s.dimension(dx); d != plane {
		return c.fail("", "Expected Image Operand Grad dx to have %d components, but given %d", plane, d)
	}
	if d := s.dimension(dy); d != plane {
		return c.fail("", "Expected Image Operand Grad dy to have %d components, but given %d", plane, d)
	}
	return false
}

// offsets checks ConstOffset, then Offset.
func (c *imageOps) offsets() bool {
	for _, bit := range [2]uint32{imgConstOffset, imgOffset} {
		if c.mask&bit != 0 && c.offset(bit) {
			return true
		}
	}
	return false
}

// offset checks ConstOffset or Offset (bit).
func (c *imageOps) offset(bit uint32) bool {
	s := c.s
	name := pick(bit == imgOffset, "Offset", "ConstOffset")
	if c.info.dim == spirv.DimCube {
		if bit == imgOffset {
			return c.fail("", "Image Operand Offset cannot be used with Cube Image 'Dim'")
		}
		return c.fail("", "Image Operand ConstOffset cannot be used with Cube Image 'Dim'")
	}
	id := c.nextID()
	t := c.next()
	if !s.isIntScalarOrVector(t) || s.bitWidth(t) != 32 {
		return c.fail("", "Expected Image Operand %s to be a 32-bit int scalar or vector", name)
	}
	if _, isConst := s.x.Constants[id]; bit == imgConstOffset && !isConst {
		return c.fail("", "Expected Image Operand ConstOffset to be a const object")
	}
	plane := planeCoordSize(c.info.dim)
	if d := s.dimension(t); d != plane {
		return c.fail("", "Expected Image Operand %s to have %d components, but given %d", name, plane, d)
	}
	if bit == imgOffset && !s.opts.BeforeHLSLLegalization && s.opts.Env.IsVulkan() && !c.isGather {
		return c.fail("VUID-RuntimeSpirv-Offset-10213", "Image Operand Offset can only be used with OpImage*Gather operations.\n"+
			"This is allowed if you enable the maintenance8 feature (or use the --allow-offset-texture-operand command line flag)")
	}
	return false
}

func (c *imageOps) constOffsets() bool {
	if c.mask&imgConstOffsets == 0 {
		return false
	}
	s := c.s
	if !c.isGather {
		return c.fail("", "Image Operand ConstOffsets can only be used with OpImageGather and OpImageDrefGather")
	}
	if c.info.dim == spirv.DimCube {
		return c.fail("", "Image Operand ConstOffsets cannot be used with Cube Image 'Dim'")
	}
	id := c.nextID()
	t := c.next()
	if s.typeOp(t) != spirv.OpTypeArray {
		return c.fail("", "Expected Image Operand ConstOffsets to be an array of size 4")
	}
	if size, _ := s.constUint(s.typeWord(t, 3)); size != 4 {
		return c.fail("", "Expected Image Operand ConstOffsets to be an array of size 4")
	}
	if e := s.typeWord(t, 2); !s.isIntVector(e) || s.dimension(e) != 2 || s.bitWidth(e) != 32 {
		return c.fail("", "Expected Image Operand ConstOffsets array components to be a 32-bit int vectors of size 2")
	}
	if _, isConst := s.x.Constants[id]; !isConst {
		return c.fail("", "Expected Image Operand ConstOffsets to be a const object")
	}
	return false
}

func (c *imageOps) sample() bool {
	if c.mask&imgSample == 0 {
		return false
	}
	switch c.op {
	case spirv.OpImageFetch, spirv.OpImageRead, spirv.OpImageWrite, spirv.OpImageSparseFetch, spirv.OpImageSparseRead:
	default:
		return c.fail("", "Image Operand Sample can only be used with OpImageFetch, OpImageRead, OpImageWrite, OpImageSparseFetch and OpImageSparseRead")
	}
	if c.info.ms == 0 {
		return c.fail("", "Image Operand Sample requires non-zero 'MS' parameter")
	}
	if !c.int32S(c.next()) {
		return c.fail("", "Expected Image Operand Sample to be a 32-bit int scalar")
	}
	return false
}

func (c *imageOps) minLod() bool {
	if c.mask&imgMinLod == 0 {
		return false
	}
	if !c.implicit && c.mask&imgGrad == 0 {
		return c.fail("", "Image Operand MinLod can only be used with ImplicitLod opcodes or together with Image Operand Grad")
	}
	if !c.float32S(c.next()) {
		return c.fail("", "Expected Image Operand MinLod to be a 32-bit float scalar")
	}
	if !c.dim1234 {
		return c.fail("", "Image Operand MinLod requires 'Dim' parameter to be 1D, 2D, 3D or Cube")
	}
	if c.info.ms != 0 {
		return c.fail("", "Image Operand MinLod requires 'MS' parameter to be 0")
	}
	return false
}

// makeTexel checks MakeTexelAvailable (writes) and MakeTexelVisible
// (reads), which both need NonPrivateTexel, and their memory scopes.
func (c *imageOps) makeTexel() bool {
	op := c.op
	if c.mask&imgMakeAvailable != 0 {
		if op != spirv.OpImageWrite {
			return c.fail("", "Image Operand MakeTexelAvailableKHR can only be used with OpImageWrite: Op%s", opName(op))
		}
		if c.mask&imgNonPrivate == 0 {
			return c.fail("", "Image Operand MakeTexelAvailableKHR requires NonPrivateTexelKHR is also specified: Op%s", opName(op))
		}
		if c.w < c.n && c.s.memoryScope(c.i, c.in, c.words[c.w]) {
			return true
		}
		c.w++
	}
	if c.mask&imgMakeVisible != 0 {
		if op != spirv.OpImageRead && op != spirv.OpImageSparseRead {
			return c.fail("", "Image Operand MakeTexelVisibleKHR can only be used with OpImageRead or OpImageSparseRead: Op%s", opName(op))
		}
		if c.mask&imgNonPrivate == 0 {
			return c.fail("", "Image Operand MakeTexelVisibleKHR requires NonPrivateTexelKHR is also specified: Op%s", opName(op))
		}
		if c.w < c.n && c.s.memoryScope(c.i, c.in, c.words[c.w]) {
			return true
		}
		c.w++
	}
	return false
}

// extend checks that SignExtend and ZeroExtend on a read agree with the
// Result Type.
func (c *imageOps) extend() bool {
	signExt, zeroExt := c.mask&imgSignExtend != 0, c.mask&imgZeroExtend != 0
	if !(signExt || zeroExt) || c.op == spirv.OpImageWrite || isImageSparse(c.op) {
		return false
	}
	if signExt && !c.s.isIntScalarOrVector(c.in.TypeID) {
		return c.fail("", "Using SignExtend, but result type is not a scalar or vector integer type.")
	}
	if !signExt && zeroExt && !c.s.isUintScalarOrVector(c.in.TypeID) {
		return c.fail("", "Using ZeroExtend, but result type is a signed integer type.")
	}
	return false
}
