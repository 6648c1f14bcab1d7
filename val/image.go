package val

import "spvx/spirv"

// This file holds validate_image.cpp's rules, as far as they exist here:
// the Coordinate operand's type (ValidateImageCoordinate) and the MinLod
// image operand (ValidateImageOperands). The many other image checks
// spirv-val makes first are not written yet.

// imageCoordinate gives, for the image instructions whose coordinate the
// rule checks, the coordinate's word index and which types it takes.
func imageCoordinate(op spirv.Opcode) (word int, floatOnly, intOnly, ok bool) {
	switch op {
	case spirv.OpImageSampleImplicitLod, spirv.OpImageSampleDrefImplicitLod, spirv.OpImageSampleDrefExplicitLod,
		spirv.OpImageSampleProjImplicitLod, spirv.OpImageSampleProjExplicitLod, spirv.OpImageSampleProjDrefImplicitLod,
		spirv.OpImageSampleProjDrefExplicitLod, spirv.OpImageGather, spirv.OpImageDrefGather, spirv.OpImageQueryLod,
		spirv.OpImageSparseSampleImplicitLod, spirv.OpImageSparseSampleDrefImplicitLod,
		spirv.OpImageSparseSampleDrefExplicitLod, spirv.OpImageSparseGather, spirv.OpImageSparseDrefGather:
		return 4, true, false, true
	case spirv.OpImageFetch, spirv.OpImageSparseFetch:
		return 4, false, true, true
	case spirv.OpImageSampleExplicitLod, spirv.OpImageSparseSampleExplicitLod, spirv.OpImageRead, spirv.OpImageSparseRead:
		return 4, false, false, true
	case spirv.OpImageWrite:
		return 2, false, false, true
	}
	return 0, false, false, false
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

func (s *state) imagePass(i int, in *spirv.Instruction) bool {
	word, floatOnly, intOnly, ok := imageCoordinate(in.Opcode)
	if !ok || word >= len(in.Words) {
		return false
	}
	coord := s.typeOfValue(in.Words[word])
	switch {
	case floatOnly && !s.isFloatSV(coord):
		return s.fail(i, "", "Expected Coordinate to be a 32-bit float scalar or vector")
	case intOnly && !s.isIntSV(coord):
		return s.fail(i, "", "Expected Coordinate to be a 32-bit integer scalar or vector")
	case !floatOnly && !intOnly && !s.isFloatSV(coord) && !s.isIntSV(coord):
		return s.fail(i, "", "Expected Coordinate to be a 32-bit integer or float scalar or vector")
	case s.bitWidth(coord) != 32:
		return s.fail(i, "", "Expected Coordinate to be a 32-bit scalar or vector")
	}
	return s.minLod(i, in)
}

// minLod checks the MinLod image operand: only with implicit-LOD sampling
// or Grad, a 32-bit float, and an image of Dim 1D, 2D, 3D or Cube that is
// not multisampled.
func (s *state) minLod(i int, in *spirv.Instruction) bool {
	const grad, minLod = 0x4, 0x80
	k := -1
	for j, o := range in.Operands {
		if o.Kind == spirv.OperandKindImageOperands {
			k = j
			break
		}
	}
	if k < 0 {
		return false
	}
	mask := in.Words[in.Operands[k].Offset]
	if mask&minLod == 0 {
		return false
	}
	// MinLod's parameter follows those of the lower mask bits.
	params := 0
	for bit := uint32(1); bit < minLod; bit <<= 1 {
		if mask&bit == 0 {
			continue
		}
		if e, ok := spirv.OperandKindImageOperands.Enumerant(bit); ok {
			params += len(e.Parameters)
		}
	}
	if !isImplicitLod(in.Opcode) && mask&grad == 0 {
		return s.fail(i, "", "Image Operand MinLod can only be used with ImplicitLod opcodes or together with Image Operand Grad")
	}
	if p := k + 1 + params; p < len(in.Operands) {
		t := s.typeOf(s.typeOfValue(in.Words[in.Operands[p].Offset]))
		if t == nil || t.Kind != spirv.TypeFloat || t.Width != 32 {
			return s.fail(i, "", "Expected Image Operand MinLod to be a 32-bit float scalar")
		}
	}
	// The image, a sampled image or an image: the first operand after
	// the result (OpImageWrite has no result).
	iw := 3
	if in.Opcode == spirv.OpImageWrite {
		iw = 1
	}
	if len(in.Words) <= iw {
		return false
	}
	img := s.typeOf(s.typeOfValue(in.Words[iw]))
	if img != nil && img.Kind == spirv.TypeSampledImage {
		img = s.typeOf(img.Elem)
	}
	if img == nil || img.Kind != spirv.TypeImage {
		return false
	}
	j, ok := s.x.Def(img.ID)
	if !ok {
		return false
	}
	w := s.m.Inst(j).Words
	if len(w) < 7 {
		return false
	}
	switch spirv.Dim(w[3]) {
	case spirv.Dim1D, spirv.Dim2D, spirv.Dim3D, spirv.DimCube:
	default:
		return s.fail(i, "", "Image Operand MinLod requires 'Dim' parameter to be 1D, 2D, 3D or Cube")
	}
	if w[6] != 0 {
		return s.fail(i, "", "Image Operand MinLod requires 'MS' parameter to be 0")
	}
	return false
}
