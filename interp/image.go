package interp

import (
	"fmt"

	"spvx/internal/checked"
	"spvx/internal/vkformat"
	"spvx/spirv"
)

// Storage images and texel buffers (issue 23, first slice): OpImageRead,
// OpImageWrite, OpImageFetch on texel buffers, the size queries and
// OpImageTexelPointer for atomics.
//
// An image descriptor is a region of pointer space like a buffer's
// (descriptorVar), so the pointer to an image variable, or to an element
// of an array of them, is region<<ptrShift. Loading the image copies that
// pointer: the image value is its descriptor's handle. At dispatch the
// region's memory is the Image's Data, so the pointer OpImageTexelPointer
// makes (region and texel offset) is an ordinary pointer the atomics
// dereference. The texel conversions are internal/vkformat's.

// Image instruction kinds (imageInfo.kind).
const (
	imRead = iota
	imWrite
	imFetch
	imSize
	imSizeLod
	imLevels
	imTexelPtr
	imSamples
)

var imageKinds = map[spirv.Opcode]int{
	spirv.OpImageRead: imRead, spirv.OpImageWrite: imWrite, spirv.OpImageFetch: imFetch,
	spirv.OpImageQuerySize: imSize, spirv.OpImageQuerySizeLod: imSizeLod,
	spirv.OpImageQueryLevels: imLevels, spirv.OpImageTexelPointer: imTexelPtr,
	spirv.OpImageQuerySamples: imSamples,
}

// imageType is an OpTypeImage's operands.
type imageType struct {
	dim     spirv.Dim
	arrayed bool
	ms      bool
	sampled uint32
	format  spirv.ImageFormat
}

// imageInfo is one compiled image instruction (opImage aux).
type imageInfo struct {
	kind    int
	it      imageType
	csc     scalar // coordinate (or Lod) component type
	ncoord  int    // coordinates used
	sc      scalar // result or texel component type
	ncomp   int    // result or texel components
	lod     int32  // slot of the Lod operand, -1 for level 0
	lsc     scalar // the Lod operand's type
	sample  int32  // slot of the Sample operand of a multisampled image, -1 for none
	ssc     scalar // the Sample operand's type
	off     int32  // slot of a ConstOffset or Offset operand (fetch), -1 for none
	osc     scalar
	ext     int8 // integer reads: +1 SignExtend, -1 ZeroExtend, 0 the format's signedness
	ptrSize int  // OpImageTexelPointer: the pointee's bytes
	// sink: under RobustImageAccess, the offset in each invocation's
	// memory of 8 bytes an out-of-bounds texel pointer points to
	sink uint32
}

// boundImage is an image bound at dispatch, checked against its
// declaration.
type boundImage struct {
	img      *Image
	f        vkformat.Info
	dims     [3]int // width, height, depth of level 0
	layers   int
	samples  int   // per texel, 1 for a single-sampled image
	levelOff []int // byte offset of each level in img.Data
}

// imageTypeOf reads the OpTypeImage declaring type id.
func (c *compiler) imageTypeOf(id uint32) (imageType, error) {
	i, ok := c.x.Def(id)
	if t := c.x.Types[id]; !ok || t == nil || t.Kind != spirv.TypeImage {
		return imageType{}, fmt.Errorf("%%%d is not an image type", id)
	}
	w := c.m.Inst(i).Words
	if len(w) < 9 {
		return imageType{}, fmt.Errorf("OpTypeImage %%%d: missing operands", id)
	}
	return imageType{dim: spirv.Dim(w[3]), arrayed: w[5] == 1, ms: w[6] == 1, sampled: w[7], format: spirv.ImageFormat(w[8])}, nil
}

// kind is the descriptor kind of an image type, ok false for those the
// executor does not bind (subpass inputs, Sampled 0).
func (it imageType) kind() (ResourceKind, bool) {
	switch {
	case it.sampled == 2 && it.dim == spirv.DimBuffer:
		return StorageTexelBuffer, true
	case it.sampled == 2 && it.dim <= spirv.DimBuffer:
		return StorageImage, true
	case it.sampled == 1 && it.dim == spirv.DimBuffer:
		return UniformTexelBuffer, true
	case it.sampled == 1 && it.dim < spirv.DimBuffer, it.sampled == 1 && it.dim == spirv.DimRect:
		return SampledImage, true
	}
	return 0, false
}

// coords is the number of coordinates addressing a texel of the type.
func (it imageType) coords() int {
	n := map[spirv.Dim]int{spirv.Dim1D: 1, spirv.Dim2D: 2, spirv.Dim3D: 3, spirv.DimCube: 3, spirv.DimRect: 2, spirv.DimBuffer: 1}[it.dim]
	if it.arrayed && it.dim != spirv.DimCube {
		n++
	}
	return n
}

// sizeComps is the number of components OpImageQuerySize returns.
func (it imageType) sizeComps() int {
	n := map[spirv.Dim]int{spirv.Dim1D: 1, spirv.Dim2D: 2, spirv.Dim3D: 3, spirv.DimCube: 2, spirv.DimRect: 2, spirv.DimBuffer: 1}[it.dim]
	if it.arrayed {
		n++
	}
	return n
}

// imageDescriptor lays out an image descriptor variable of image type
// blockT; ok is false for images the executor does not bind.
func (c *compiler) imageDescriptor(key BindingKey, blockT *tinfo, count int, region *int) (*bufBinding, bool, error) {
	it, err := c.imageTypeOf(blockT.id)
	if err != nil {
		return nil, false, err
	}
	kind, ok := it.kind()
	if !ok {
		return nil, false, nil
	}
	// Images have bindings of their own (Resources.Images): a binding
	// number a buffer also uses (as OpenGL's separate image units allow,
	// and glslang's tests do) is another descriptor.
	b, err := c.imageBinding(key, kind, count, region)
	if err == nil && b.img == nil {
		b.img = &it
	}
	return b, true, err
}

// imageBinding is bindingRegions for image and sampler descriptors, one
// binding per kind: variables of two kinds on one binding number (a
// sampled and a storage image, as HLSL's Texture2D and RWTexture2D
// registers give glslang) each get a binding of their own, both bound to
// the binding's Resources.Images (or Samplers) and each checked against
// its own declaration.
func (c *compiler) imageBinding(key BindingKey, kind ResourceKind, count int, region *int) (*bufBinding, error) {
	if c.imgByKey == nil {
		c.imgByKey = map[ResourceKind]map[BindingKey]int{}
	}
	byKey := c.imgByKey[kind]
	if byKey == nil {
		byKey = map[BindingKey]int{}
		c.imgByKey[kind] = byKey
	}
	return c.bindingRegions(key, kind, count, region, byKey)
}

// compileImage compiles the loads of image variables and the image
// instructions.
func (c *compiler) compileImage(q *cinst) (bool, error) {
	if q.opc == spirv.OpLoad {
		if t := c.x.Types[q.typeID]; t == nil || t.Kind != spirv.TypeImage {
			return false, nil
		}
		v, err := q.decode(1, 1)
		if err != nil {
			return true, err
		}
		c.emit(inst{op: opCopy, dst: v.d, a: v.a, n: 1})
		return true, nil
	}
	k, ok := imageKinds[q.opc]
	if !ok {
		return false, nil
	}
	info, in, err := c.imageInst(q, k)
	if err != nil {
		return true, fmt.Errorf("%s: %w", q.opc, err)
	}
	c.p.images = append(c.p.images, info)
	in.op, in.aux = opImage, int32(len(c.p.images)-1)
	c.emit(in)
	return true, nil
}

// imageInst decodes an image instruction's operands.
func (c *compiler) imageInst(q *cinst, k int) (imageInfo, inst, error) {
	info := imageInfo{kind: k, lod: -1, off: -1, sample: -1}
	in := inst{dst: -1, b: -1, c: -1}
	if err := q.need(1); err != nil {
		return info, in, err
	}
	a, at, err := c.val(q.ops[0])
	if err != nil {
		return info, in, err
	}
	in.a = a
	imgT := at.id
	if k == imTexelPtr {
		if at.kind != spirv.TypePointer {
			return info, in, fmt.Errorf("the image operand is not a pointer")
		}
		imgT = at.pointeeID
		if pe := c.x.Types[imgT]; pe != nil && (pe.Kind == spirv.TypeArray || pe.Kind == spirv.TypeRuntimeArray) {
			return info, in, fmt.Errorf("the image operand points to an array of images")
		}
	}
	if info.it, err = c.imageTypeOf(imgT); err != nil {
		return info, in, err
	}
	kind, ok := info.it.kind()
	if !ok {
		return info, in, fmt.Errorf("only storage images, sampled images and texel buffers are supported, not Dim %s with Sampled %d", dimName(info.it.dim), info.it.sampled)
	}
	if kind == SampledImage && (k == imRead || k == imWrite || k == imTexelPtr) {
		return info, in, fmt.Errorf("a sampled image is read with OpImageFetch or through a sampler")
	}
	switch {
	case info.it.ms && info.it.dim != spirv.Dim2D:
		return info, in, fmt.Errorf("a multisampled image must be 2D, not Dim %s", dimName(info.it.dim))
	case k == imSamples && !info.it.ms:
		return info, in, fmt.Errorf("the image is not multisampled")
	case info.it.ms && (k == imSizeLod || k == imLevels):
		return info, in, fmt.Errorf("a multisampled image has no levels to query")
	}
	if k != imWrite {
		var rt *tinfo
		if in.dst, rt, err = q.res(); err != nil {
			return info, in, err
		}
		info.sc, info.ncomp = rt.sc, rt.ncomp
		if k == imTexelPtr {
			err = c.texelPtrType(q, rt, &info)
		}
		if err != nil {
			return info, in, err
		}
	}
	switch k {
	case imSize, imLevels, imSamples:
		return info, in, c.querySizeType(k, &info)
	case imSizeLod:
		if err := q.need(2); err != nil {
			return info, in, err
		}
		var lt *tinfo
		if in.b, lt, err = c.val(q.ops[1]); err != nil {
			return info, in, err
		}
		info.lsc = lt.sc
		return info, in, c.querySizeType(k, &info)
	}
	return info, in, c.texelOperands(q, &info, &in)
}

// querySizeType checks a size query's result type.
func (c *compiler) querySizeType(k int, info *imageInfo) error {
	want := 1
	if k == imSize || k == imSizeLod {
		want = info.it.sizeComps()
	}
	if info.sc.kind != skInt || info.ncomp != want {
		return fmt.Errorf("the result must be %d integer component(s)", want)
	}
	if k == imLevels && info.it.dim == spirv.DimBuffer {
		return fmt.Errorf("a texel buffer has no levels")
	}
	return nil
}

// texelPtrType checks OpImageTexelPointer's result: a pointer to the
// integer or float scalar the atomics access.
func (c *compiler) texelPtrType(q *cinst, rt *tinfo, info *imageInfo) error {
	if rt.kind != spirv.TypePointer {
		return fmt.Errorf("the result is not a pointer")
	}
	if err := c.notePtr(q.result, rt); err != nil {
		return err
	}
	pe, err := c.pointee(q.result, rt)
	if err != nil {
		return err
	}
	if pe.ncomp != 1 || pe.sc.kind != skInt && pe.sc.kind != skFloat {
		return fmt.Errorf("the result must point to an integer or float scalar")
	}
	info.ptrSize = int(pe.sc.width / 8)
	if c.p.opts.RobustImageAccess {
		// The invocation's own scratch: an atomic there is dropped,
		// returns 0 and races with no one.
		info.sink = alignUp(c.invSize, 8)
		c.invSize = info.sink + 8
	}
	if f, ok := vkformat.Lookup(info.it.format); ok && (f.Size != info.ptrSize || f.Comps != 1) {
		return fmt.Errorf("format %s has no %d-bit single-component texels", vkformat.Name(info.it.format), pe.sc.width)
	}
	return nil
}

// texelOperands decodes the coordinate, the texel (OpImageWrite) and
// the image operands of a read, write, fetch or texel pointer.
func (c *compiler) texelOperands(q *cinst, info *imageInfo, in *inst) error {
	if err := q.need(2); err != nil {
		return err
	}
	var ct *tinfo
	var err error
	if in.b, ct, err = c.val(q.ops[1]); err != nil {
		return err
	}
	info.ncoord, info.csc = info.it.coords(), ct.sc
	if ct.sc.kind != skInt || ct.ncomp < info.ncoord {
		return fmt.Errorf("the coordinate must be %d integer component(s)", info.ncoord)
	}
	rest := q.ops[2:]
	switch info.kind {
	case imWrite:
		if err := q.need(3); err != nil {
			return err
		}
		var tt *tinfo
		if in.c, tt, err = c.val(q.ops[2]); err != nil {
			return err
		}
		info.sc, info.ncomp = tt.sc, tt.ncomp
		rest = q.ops[3:]
	case imTexelPtr:
		if !info.it.ms {
			return nil // the Sample operand: 0 for a single-sampled image
		}
		if err := q.need(3); err != nil {
			return err
		}
		return c.sampleNumber(q.ops[2], info)
	}
	if info.ncomp > 4 || info.sc.kind != skInt && info.sc.kind != skFloat {
		return fmt.Errorf("the texel must be 1 to 4 integer or float components")
	}
	if f, ok := vkformat.Lookup(info.it.format); ok && f.Kind.IsInt() != (info.sc.kind == skInt) {
		return fmt.Errorf("format %s does not match the texel's component type", vkformat.Name(info.it.format))
	}
	return c.imageOperands(rest, info)
}

// imageOperands reads the optional image operands: Lod selects a level,
// SignExtend and ZeroExtend how an integer texel widens to the result;
// the memory-model operands change nothing here.
func (c *compiler) imageOperands(ops []uint32, info *imageInfo) error {
	if len(ops) == 0 {
		return nil
	}
	mask := spirv.ImageOperands(ops[0])
	ops = ops[1:]
	if info.it.ms && mask&spirv.ImageOperandsSample == 0 || !info.it.ms && mask&spirv.ImageOperandsSample != 0 {
		return fmt.Errorf("the Sample image operand goes with a multisampled image, and only with one")
	}
	const plain = spirv.ImageOperandsNonPrivateTexel | spirv.ImageOperandsVolatileTexel | spirv.ImageOperandsSignExtend |
		spirv.ImageOperandsZeroExtend | spirv.ImageOperandsNontemporal
	const scoped = spirv.ImageOperandsMakeTexelAvailable | spirv.ImageOperandsMakeTexelVisible
	offsets := spirv.ImageOperandsConstOffset | spirv.ImageOperandsOffset
	if bad := mask &^ (plain | scoped | spirv.ImageOperandsLod | offsets | spirv.ImageOperandsSample); bad != 0 || mask&offsets != 0 && info.kind != imFetch {
		return fmt.Errorf("image operands %#x do not apply to storage images", uint32(mask))
	}
	switch {
	case mask&spirv.ImageOperandsSignExtend != 0:
		info.ext = 1
	case mask&spirv.ImageOperandsZeroExtend != 0:
		info.ext = -1
	}
	if mask&spirv.ImageOperandsLod != 0 {
		if len(ops) == 0 {
			return fmt.Errorf("the Lod operand is missing")
		}
		s, t, err := c.val(ops[0])
		if err != nil {
			return err
		}
		if t.sc.kind != skInt || t.ncomp != 1 {
			return fmt.Errorf("the Lod operand must be an integer scalar")
		}
		if info.it.dim == spirv.DimBuffer {
			return fmt.Errorf("a texel buffer has no levels")
		}
		info.lod, info.lsc = s, t.sc
		ops = ops[1:]
	}
	if mask&offsets != 0 {
		if err := c.fetchOffset(ops, info); err != nil {
			return err
		}
		ops = ops[1:]
	}
	if mask&spirv.ImageOperandsSample != 0 {
		if len(ops) == 0 {
			return fmt.Errorf("the Sample operand is missing")
		}
		return c.sampleNumber(ops[0], info)
	}
	return nil
}

// sampleNumber reads a multisampled image's sample number.
func (c *compiler) sampleNumber(id uint32, info *imageInfo) error {
	s, t, err := c.val(id)
	if err != nil {
		return err
	}
	if t.sc.kind != skInt || t.ncomp != 1 {
		return fmt.Errorf("the Sample operand must be an integer scalar")
	}
	info.sample, info.ssc = s, t.sc
	return nil
}

// fetchOffset reads OpImageFetch's ConstOffset or Offset operand, added
// to the coordinates (not the layer).
func (c *compiler) fetchOffset(ops []uint32, info *imageInfo) error {
	if len(ops) == 0 {
		return fmt.Errorf("the offset operand is missing")
	}
	s, t, err := c.val(ops[0])
	if err != nil {
		return err
	}
	if n := info.ncoord - boolInt(info.it.arrayed); t.sc.kind != skInt || t.ncomp != n || info.it.dim == spirv.DimCube {
		return fmt.Errorf("the offset must be %d integer component(s), and cube images take none", n)
	}
	info.off, info.osc = s, t.sc
	return nil
}

// isImage reports whether descriptors of kind k are Images.
func (k ResourceKind) isImage() bool {
	return k == StorageImage || k == StorageTexelBuffer || k == UniformTexelBuffer || k == SampledImage || k == CombinedImageSampler
}

// positive is n, or 1 for 0 (an unused dimension).
func positive(n int) int {
	if n == 0 {
		return 1
	}
	return n
}

// bindImage checks img against binding b's declaration and computes its
// levels' offsets.
func bindImage(b *bufBinding, img *Image) (*boundImage, error) {
	it := b.img
	f, ok := vkformat.Lookup(img.Format)
	switch {
	case !ok:
		return nil, fmt.Errorf("format %s is no image format", vkformat.Name(img.Format))
	case f.SampledOnly && b.kind != SampledImage && b.kind != CombinedImageSampler:
		return nil, fmt.Errorf("format %s is for sampled images, the binding is a %s", vkformat.Name(img.Format), b.kind)
	case it.format != spirv.ImageFormatUnknown && it.format != img.Format:
		return nil, fmt.Errorf("the image's format is %s, the shader declares %s", vkformat.Name(img.Format), vkformat.Name(it.format))
	case img.Width <= 0 || img.Height < 0 || img.Depth < 0 || img.Layers < 0 || img.Levels < 0 || img.Samples < 0 || img.Samples > 64:
		return nil, fmt.Errorf("size %dx%dx%d, %d layers, %d levels, %d samples: the width must be positive, the rest not negative, the samples at most 64",
			img.Width, img.Height, img.Depth, img.Layers, img.Levels, img.Samples)
	case it.ms != (img.Samples > 1):
		return nil, fmt.Errorf("the image has %d samples, the shader declares a %s image", positive(img.Samples), map[bool]string{true: "multisampled", false: "single-sampled"}[it.ms])
	case it.ms && img.Levels > 1:
		return nil, fmt.Errorf("a multisampled image has one level, not %d", img.Levels)
	}
	bi := &boundImage{img: img, f: f, dims: [3]int{img.Width, positive(img.Height), positive(img.Depth)}, layers: positive(img.Layers),
		samples: positive(img.Samples)}
	levels := positive(img.Levels)
	flat := it.dim == spirv.Dim1D || it.dim == spirv.DimBuffer
	switch {
	case flat && bi.dims[1] > 1, it.dim != spirv.Dim3D && bi.dims[2] > 1:
		return nil, fmt.Errorf("a Dim %s image has no height or depth beyond its dimensions (%dx%dx%d)", dimName(it.dim), bi.dims[0], bi.dims[1], bi.dims[2])
	case it.dim == spirv.DimCube && bi.layers%6 != 0:
		return nil, fmt.Errorf("a cube image's layers are its faces: a multiple of 6, not %d", bi.layers)
	case !it.arrayed && it.dim != spirv.DimCube && bi.layers > 1, !it.arrayed && it.dim == spirv.DimCube && bi.layers != 6:
		return nil, fmt.Errorf("the shader declares no arrayed image, the image has %d layers", bi.layers)
	case levels > 1 && (it.dim == spirv.DimBuffer || it.dim == spirv.DimRect), levels > 1 && max(bi.dims[0], bi.dims[1], bi.dims[2])>>(levels-1) == 0:
		return nil, fmt.Errorf("%d levels are too many for a Dim %s image of %dx%dx%d", levels, dimName(it.dim), bi.dims[0], bi.dims[1], bi.dims[2])
	}
	size, ok := bi.levelOffsets(levels)
	if !ok || size > len(img.Data) {
		return nil, fmt.Errorf("%d bytes of data are too few for %dx%dx%d %s texels, %d layers, %d levels", len(img.Data), bi.dims[0], bi.dims[1], bi.dims[2], vkformat.Name(img.Format), bi.layers, levels)
	}
	return bi, nil
}

// levelOffsets sets bi.levelOff for the given number of levels and
// returns the bytes they take; ok is false if that overflows an int.
func (bi *boundImage) levelOffsets(levels int) (size int, ok bool) {
	for lv := range levels {
		w, h, d := bi.levelDims(lv)
		n, ok := checked.Product([]int{w, h, d, bi.layers, positive(bi.samples)}, bi.f.Size)
		if !ok || size+n < size {
			return 0, false
		}
		bi.levelOff = append(bi.levelOff, size)
		size += n
	}
	return size, true
}

// DataSize is the number of bytes of texels img's format and size take
// (the layout Image describes), whatever len(img.Data) is.
func (img *Image) DataSize() (int, error) {
	f, ok := vkformat.Lookup(img.Format)
	if !ok {
		return 0, fmt.Errorf("format %s is no storage image format", vkformat.Name(img.Format))
	}
	if img.Width <= 0 || img.Height < 0 || img.Depth < 0 || img.Layers < 0 || img.Levels < 0 || img.Levels > 64 || img.Samples < 0 || img.Samples > 64 {
		return 0, fmt.Errorf("bad size %dx%dx%d, %d layers, %d levels, %d samples", img.Width, img.Height, img.Depth, img.Layers, img.Levels, img.Samples)
	}
	bi := &boundImage{f: f, dims: [3]int{img.Width, positive(img.Height), positive(img.Depth)}, layers: positive(img.Layers),
		samples: positive(img.Samples)}
	n, ok := bi.levelOffsets(positive(img.Levels))
	if !ok {
		return 0, fmt.Errorf("%dx%dx%d, %d layers, %d levels is too large", img.Width, img.Height, img.Depth, img.Layers, img.Levels)
	}
	return n, nil
}

// levelDims is the size of level lv.
func (bi *boundImage) levelDims(lv int) (w, h, d int) {
	return max(bi.dims[0]>>lv, 1), max(bi.dims[1]>>lv, 1), max(bi.dims[2]>>lv, 1)
}

// image runs opImage.
func (sg *subgroup) image(in *inst, lanes []int32) *Fault {
	info := &sg.p.images[in.aux]
	R := int32(sg.R)
	r := sg.regs
	for _, l := range lanes {
		reg := r[in.a*R+l] >> sg.p.ptrShift
		var bi *boundImage
		if reg < uint64(len(sg.wg.d.images)) {
			bi = sg.wg.d.images[reg]
		}
		if bi == nil {
			f := &Fault{Kind: FaultMissingResource, Lane: uint32(l), Msg: sg.wg.d.regionName(int(reg)) + " is not bound"}
			if reg == regNull {
				f.Kind, f.Msg = FaultNullPointer, "the image is null"
			}
			return f
		}
		lv := 0
		if info.lod >= 0 {
			lv = int(max(min(sext(r[info.lod*R+l], info.lsc.width), 1<<30), -1))
		}
		if f := sg.imageLane(info, in, bi, reg, lv, l); f != nil {
			f.Lane = uint32(l)
			return f
		}
	}
	return nil
}

// imageLane runs an image instruction for lane l on image bi (region
// reg) at level lv.
func (sg *subgroup) imageLane(info *imageInfo, in *inst, bi *boundImage, reg uint64, lv int, l int32) *Fault {
	R := int32(sg.R)
	r := sg.regs
	switch info.kind {
	case imSize, imSizeLod, imLevels, imSamples:
		if info.kind == imSizeLod {
			lv = int(max(min(sext(r[in.b*R+l], info.lsc.width), 1<<30), -1))
		}
		v, ok := bi.query(info, lv)
		if !ok {
			return &Fault{Kind: FaultUndefined, Msg: fmt.Sprintf("level %d of %s, which has %d", lv, sg.wg.d.regionName(int(reg)), len(bi.levelOff))}
		}
		for i := range info.ncomp {
			r[(in.dst+int32(i))*R+l] = uint64(v[i]) & info.sc.mask()
		}
		return nil
	}
	var c [4]int64
	for i := range info.ncoord {
		c[i] = sext(r[(in.b+int32(i))*R+l], info.csc.width)
	}
	for i := 0; info.off >= 0 && i < info.ncoord-boolInt(info.it.arrayed); i++ {
		c[i] += sext(r[(info.off+int32(i))*R+l], info.osc.width)
	}
	s := int64(0)
	if info.sample >= 0 {
		s = sext(r[info.sample*R+l], info.ssc.width)
	}
	off, ok := bi.texel(info.it, c, lv)
	if ok && (s < 0 || s >= int64(bi.samples)) {
		if !sg.p.opts.RobustImageAccess {
			return &Fault{Kind: FaultOutOfBounds, Msg: fmt.Sprintf("sample %d of %s, which has %d", s, sg.wg.d.regionName(int(reg)), bi.samples)}
		}
		ok = false
	}
	if !ok {
		return sg.outside(info, in, bi, reg, c, lv, l)
	}
	off += int(s) * bi.f.Size
	switch info.kind {
	case imTexelPtr:
		if bi.f.Size != info.ptrSize || bi.f.Comps != 1 {
			return &Fault{Kind: FaultUndefined, Msg: fmt.Sprintf("atomics on %s texels through a %d-byte pointer", vkformat.Name(bi.img.Format), info.ptrSize)}
		}
		r[in.dst*R+l] = reg<<sg.p.ptrShift | uint64(off)
	case imWrite:
		return sg.writeTexel(info, in, bi, off, l)
	default:
		return sg.readTexel(info, in, bi, off, l)
	}
	return nil
}

// outside handles out-of-bounds coordinates: with robustImageAccess a
// read gives zeros, a write is dropped and a texel pointer points to the
// invocation's zeroed scratch (the atomic returns 0, its write is lost);
// otherwise it is a fault.
func (sg *subgroup) outside(info *imageInfo, in *inst, bi *boundImage, reg uint64, c [4]int64, lv int, l int32) *Fault {
	if sg.p.opts.RobustImageAccess {
		switch info.kind {
		case imTexelPtr:
			off := uint64(sg.lane0+int(l))*uint64(sg.p.invSize) + uint64(info.sink)
			clear(sg.inv[off : off+8])
			sg.regs[in.dst*int32(sg.R)+l] = regInv<<sg.p.ptrShift | off
		case imRead, imFetch:
			for i := range info.ncomp {
				sg.regs[(in.dst+int32(i))*int32(sg.R)+l] = 0
			}
		}
		return nil
	}
	return &Fault{Kind: FaultOutOfBounds, Msg: fmt.Sprintf("coordinate %v at level %d is outside %s (%dx%dx%d, %d layers, %d levels)",
		c[:info.ncoord], lv, sg.wg.d.regionName(int(reg)), bi.dims[0], bi.dims[1], bi.dims[2], bi.layers, len(bi.levelOff))}
}

// query returns a size query's components at level lv.
func (bi *boundImage) query(info *imageInfo, lv int) ([4]int, bool) {
	switch info.kind {
	case imLevels:
		return [4]int{len(bi.levelOff)}, true
	case imSamples:
		return [4]int{bi.samples}, true
	}
	if lv < 0 || lv >= len(bi.levelOff) {
		return [4]int{}, false
	}
	w, h, d := bi.levelDims(lv)
	v := [4]int{w, h, d}
	n := info.it.sizeComps()
	if info.it.arrayed {
		v[n-1] = bi.layers
		if info.it.dim == spirv.DimCube {
			v[n-1] /= 6
		}
	}
	return v, true
}

// texel returns the byte offset in the image's data of the texel at
// coordinates c of level lv; ok is false outside the image.
func (bi *boundImage) texel(it imageType, c [4]int64, lv int) (int, bool) {
	if lv < 0 || lv >= len(bi.levelOff) {
		return 0, false
	}
	var x, y, z, layer int64 = c[0], 0, 0, 0
	switch it.dim {
	case spirv.Dim2D, spirv.DimRect:
		y = c[1]
		if it.arrayed {
			layer = c[2]
		}
	case spirv.Dim3D:
		y, z = c[1], c[2]
	case spirv.DimCube:
		y, layer = c[1], c[2]
	default:
		if it.arrayed {
			layer = c[1]
		}
	}
	w, h, d := bi.levelDims(lv)
	if x < 0 || y < 0 || z < 0 || layer < 0 || x >= int64(w) || y >= int64(h) || z >= int64(d) || layer >= int64(bi.layers) {
		return 0, false
	}
	i := ((layer*int64(d)+z)*int64(h)+y)*int64(w) + x
	return bi.levelOff[lv] + int(i)*positive(bi.samples)*bi.f.Size, true
}

// rawFloat reports whether the format's float components have the
// shader type's width, so texels copy bit for bit (NaN payloads kept).
func rawFloat(f *vkformat.Info, s scalar) bool {
	return f.Kind == vkformat.Float && !f.Packed && f.Bits[0] == s.width && s.enc == encIEEE
}

// mismatch is the fault of a texel type the bound format does not hold.
func mismatch(f *vkformat.Info, s scalar) *Fault {
	kind := "floats"
	if s.kind == skInt {
		kind = "integers"
	}
	return &Fault{Kind: FaultUndefined, Msg: fmt.Sprintf("the shader's texels are %s, the image's format %s does not hold them", kind, vkformat.Name(f.Format))}
}

// readTexel decodes the texel at off into the result.
func (sg *subgroup) readTexel(info *imageInfo, in *inst, bi *boundImage, off int, l int32) *Fault {
	f := &bi.f
	if f.Kind.IsInt() != (info.sc.kind == skInt) {
		return mismatch(f, info.sc)
	}
	b := bi.img.Data[off : off+f.Size]
	R := int32(sg.R)
	var v [4]uint64
	switch {
	case info.sc.kind == skInt:
		v = f.DecodeInt(b)
		for i := 0; i < f.Comps && info.ext != 0; i++ {
			if w := f.Bits[i]; w < 64 && info.ext > 0 {
				v[i] = uint64(sext(v[i], w))
			} else if w < 64 {
				v[i] &= 1<<w - 1
			}
		}
	default:
		fv := f.DecodeFloat(b)
		for i := range 4 {
			v[i] = fromF64(fv[i], info.sc, 0, false)
		}
		if rawFloat(f, info.sc) {
			sz := int(f.Bits[0] / 8)
			for i := 0; i < f.Comps; i++ {
				v[i] = getLE(b[i*sz:], uint8(sz))
			}
		}
	}
	for i := range info.ncomp {
		sg.regs[(in.dst+int32(i))*R+l] = v[i] & info.sc.mask()
	}
	return nil
}

// writeTexel encodes the texel operand at off; components the operand
// lacks are (0, 0, 0, 1).
func (sg *subgroup) writeTexel(info *imageInfo, in *inst, bi *boundImage, off int, l int32) *Fault {
	f := &bi.f
	if f.Kind.IsInt() != (info.sc.kind == skInt) {
		return mismatch(f, info.sc)
	}
	b := bi.img.Data[off : off+f.Size]
	R := int32(sg.R)
	s := info.sc
	src := func(i int) uint64 { return sg.regs[(in.c+int32(i))*R+l] }
	if s.kind == skInt {
		v := [4]uint64{0, 0, 0, 1}
		for i := range info.ncomp {
			v[i] = src(i) & s.mask()
			if s.signed {
				v[i] = uint64(sext(v[i], s.width))
			}
		}
		f.EncodeInt(b, v)
		return nil
	}
	if rawFloat(f, s) && info.ncomp >= f.Comps {
		sz := uint8(f.Bits[0] / 8)
		for i := 0; i < f.Comps; i++ {
			putLE(b[i*int(sz):], sz, src(i))
		}
		return nil
	}
	v := [4]float64{0, 0, 0, 1}
	for i := range info.ncomp {
		v[i] = toF64(src(i), s)
	}
	f.EncodeFloat(b, v)
	return nil
}

// given is the number of descriptors res gives binding b.
func (b *bufBinding) given(res *Resources) int {
	if b.kind == SamplerDescriptor {
		return len(res.Samplers[b.key])
	}
	if b.kind.isImage() {
		return len(res.Images[b.key])
	}
	return len(res.Buffers[b.key])
}

// bindImages binds the images of res to their regions, checking each
// against its declaration.
func (d *dispatch) bindImages(res *Resources) error {
	for i := range d.p.bufs {
		b := &d.p.bufs[i]
		if !b.kind.isImage() {
			continue
		}
		if d.images == nil {
			d.images = make([]*boundImage, len(d.regions))
		}
		for j, img := range res.Images[b.key] {
			if j >= b.span || b.count > 0 && j >= b.count {
				break
			}
			if img == nil {
				continue
			}
			bi, err := bindImage(b, img)
			if err != nil {
				return fmt.Errorf("interp: %s: %w", d.regionName(b.region+j), err)
			}
			d.images[b.region+j], d.regions[b.region+j] = bi, img.Data
		}
	}
	return nil
}

// dimName is the SPIR-V name of dimensionality d ("2D").
func dimName(d spirv.Dim) string {
	if e, ok := spirv.OperandKindDim.Enumerant(uint32(d)); ok {
		return e.Name
	}
	return fmt.Sprintf("Dim(%d)", uint32(d))
}
