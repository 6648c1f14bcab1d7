package interp

import (
	"fmt"
	"math"

	"spvx/spirv"
)

// Samplers and sampled images (issue 23, second slice): OpTypeSampler and
// OpTypeSampledImage descriptors, OpSampledImage, OpImage, and the
// sampling instructions (OpImageSample*, OpImage*Gather, OpImageQueryLod).
//
// A sampler descriptor is a region like an image's; d.samplers holds the
// *Sampler bound there. A sampled-image value is one register: the
// image's handle (region<<ptrShift, what loading an image gives) with,
// in the low bits, 1 + the sampler's region, or 0 when the sampler is the
// image's own region, as a combined image sampler's load gives. OpImage
// clears the low bits. The filtering itself, following Vulkan's "Texel
// Filtering" chapter, is in sample_filter.go.

// Sampler instruction kinds (sampleInfo.kind).
const (
	smCombine = iota // OpSampledImage
	smImageOf        // OpImage
	smSample
	smDref
	smGather
	smDrefGather
	smQueryLod
)

var sampleKinds = map[spirv.Opcode]struct {
	kind           int
	implicit, proj bool
}{
	spirv.OpSampledImage: {smCombine, false, false}, spirv.OpImage: {smImageOf, false, false},
	spirv.OpImageSampleExplicitLod: {smSample, false, false}, spirv.OpImageSampleImplicitLod: {smSample, true, false},
	spirv.OpImageSampleDrefExplicitLod: {smDref, false, false}, spirv.OpImageSampleDrefImplicitLod: {smDref, true, false},
	spirv.OpImageSampleProjExplicitLod: {smSample, false, true}, spirv.OpImageSampleProjImplicitLod: {smSample, true, true},
	spirv.OpImageSampleProjDrefExplicitLod: {smDref, false, true}, spirv.OpImageSampleProjDrefImplicitLod: {smDref, true, true},
	spirv.OpImageGather: {smGather, false, false}, spirv.OpImageDrefGather: {smDrefGather, false, false},
	spirv.OpImageQueryLod: {smQueryLod, true, false},
}

// sampleInfo is one compiled sampler instruction (opSample aux). Operand
// slots are -1 when absent.
type sampleInfo struct {
	kind           int
	implicit, proj bool
	it             imageType
	csc            scalar // coordinate component type
	ncoord         int    // coordinates read (with the array layer and the projection's q)
	sc             scalar // result component type
	ncomp          int
	dref, comp     int32 // Dref, gather Component
	lod, bias      int32
	minLod         int32
	gradX, gradY   int32
	off, offs      int32 // Offset or ConstOffset (an ivec), ConstOffsets (4 of them)
	fsc, osc       scalar
}

// samplerDescriptor lays out a sampler or combined image sampler
// variable of type blockT.
func (c *compiler) samplerDescriptor(key BindingKey, blockT *tinfo, count int, region *int) (*bufBinding, error) {
	kind := SamplerDescriptor
	var it imageType
	if blockT.kind == spirv.TypeSampledImage {
		var err error
		if it, err = c.imageTypeOf(c.x.Types[blockT.id].Elem); err != nil {
			return nil, err
		}
		if it.sampled == 2 || it.dim == spirv.DimBuffer || it.dim == spirv.DimSubpassData {
			return nil, fmt.Errorf("a sampled image of Dim %s with Sampled %d", dimName(it.dim), it.sampled)
		}
		kind = CombinedImageSampler
	}
	b, err := c.imageBinding(key, kind, count, region)
	if err == nil && b.img == nil && kind == CombinedImageSampler {
		b.img = &it
	}
	return b, err
}

// compileSampler compiles the loads of sampler and sampled-image
// variables and the sampler instructions.
func (c *compiler) compileSampler(q *cinst) (bool, error) {
	if q.opc == spirv.OpLoad {
		if t := c.x.Types[q.typeID]; t == nil || t.Kind != spirv.TypeSampler && t.Kind != spirv.TypeSampledImage {
			return false, nil
		}
		v, err := q.decode(1, 1)
		if err != nil {
			return true, err
		}
		c.emit(inst{op: opCopy, dst: v.d, a: v.a, n: 1})
		return true, nil
	}
	k, ok := sampleKinds[q.opc]
	if !ok {
		return false, nil
	}
	info := sampleInfo{kind: k.kind, implicit: k.implicit, proj: k.proj, dref: -1, comp: -1, lod: -1, bias: -1, minLod: -1, gradX: -1, gradY: -1, off: -1, offs: -1}
	in, err := c.sampleInst(q, &info)
	if err != nil {
		return true, fmt.Errorf("%s: %w", q.opc, err)
	}
	c.p.samples = append(c.p.samples, info)
	in.op, in.aux, in.n = opSample, int32(len(c.p.samples)-1), int32(max(info.ncomp, 1))
	c.emit(in)
	return true, nil
}

// sampleInst decodes a sampler instruction's operands.
func (c *compiler) sampleInst(q *cinst, info *sampleInfo) (inst, error) {
	in := inst{b: -1, c: -1}
	v, err := q.decode(1, 1)
	if err != nil {
		return in, err
	}
	in.dst, in.a = v.d, v.a
	switch info.kind {
	case smCombine:
		if err := q.need(2); err != nil {
			return in, err
		}
		var bt *tinfo
		if in.b, bt, err = c.val(q.ops[1]); err != nil {
			return in, err
		}
		if v.at.kind != spirv.TypeImage || bt.kind != spirv.TypeSampler {
			return in, fmt.Errorf("the operands must be an image and a sampler")
		}
		return in, nil
	case smImageOf:
		if v.at.kind != spirv.TypeSampledImage {
			return in, fmt.Errorf("the operand is not a sampled image")
		}
		return in, nil
	}
	if v.at.kind != spirv.TypeSampledImage {
		return in, fmt.Errorf("the operand is not a sampled image")
	}
	if info.it, err = c.imageTypeOf(c.x.Types[v.at.id].Elem); err != nil {
		return in, err
	}
	if info.it.ms || info.it.dim == spirv.DimBuffer || info.it.dim == spirv.DimSubpassData {
		return in, fmt.Errorf("images of Dim %s (multisampled %v) cannot be sampled", dimName(info.it.dim), info.it.ms)
	}
	if info.implicit && !c.derivGroups {
		return in, fmt.Errorf("implicit LOD needs a derivative group: the DerivativeGroupQuadsKHR or DerivativeGroupLinearKHR execution mode")
	}
	info.sc, info.ncomp = v.rt.sc, v.rt.ncomp
	if gather := info.kind == smGather || info.kind == smDrefGather; gather && info.it.dim != spirv.Dim2D && info.it.dim != spirv.DimCube && info.it.dim != spirv.DimRect {
		return in, fmt.Errorf("a gather needs a 2D, Cube or Rect image, not Dim %s", dimName(info.it.dim))
	}
	if err := c.sampleResult(info); err != nil {
		return in, err
	}
	return in, c.sampleOperands(q, info, &in)
}

// sampleResult checks the result type: 4 components (2 for a LOD query,
// 1 for a Dref sample) of int or float.
func (c *compiler) sampleResult(info *sampleInfo) error {
	want := map[int]int{smSample: 4, smDref: 1, smGather: 4, smDrefGather: 4, smQueryLod: 2}[info.kind]
	float := info.kind == smDref || info.kind == smDrefGather || info.kind == smQueryLod
	switch {
	case info.ncomp != want:
		return fmt.Errorf("the result must have %d components, not %d", want, info.ncomp)
	case info.sc.kind != skFloat && (float || info.sc.kind != skInt):
		return fmt.Errorf("the result must be float (or integer) components")
	}
	return nil
}

// sampleCoords is the number of coordinates sampling an image of type it
// takes, the array layer included.
func (it imageType) sampleCoords() int {
	n := 2
	switch it.dim {
	case spirv.Dim1D:
		n = 1
	case spirv.Dim3D, spirv.DimCube:
		n = 3
	}
	return n + boolInt(it.arrayed)
}

// sampleOperands decodes the coordinate, Dref or Component and the image
// operands.
func (c *compiler) sampleOperands(q *cinst, info *sampleInfo, in *inst) error {
	if err := q.need(2); err != nil {
		return err
	}
	var ct *tinfo
	var err error
	if in.b, ct, err = c.val(q.ops[1]); err != nil {
		return err
	}
	info.ncoord = info.it.sampleCoords()
	if info.proj {
		if info.it.arrayed || info.it.dim == spirv.DimCube {
			return fmt.Errorf("projective sampling of arrayed or cube images")
		}
		info.ncoord++
	}
	info.csc = ct.sc
	if ct.sc.kind != skFloat || ct.ncomp < info.ncoord {
		return fmt.Errorf("the coordinate must be %d float component(s)", info.ncoord)
	}
	rest := q.ops[2:]
	if info.kind == smDref || info.kind == smDrefGather || info.kind == smGather {
		if err := q.need(3); err != nil {
			return err
		}
		slot, t, err := c.val(q.ops[2])
		if err != nil {
			return err
		}
		if t.ncomp != 1 || info.kind == smGather && t.sc.kind != skInt || info.kind != smGather && t.sc.kind != skFloat {
			return fmt.Errorf("the Dref or Component operand is not a scalar of the right type")
		}
		info.dref, info.fsc = slot, t.sc
		if info.kind == smGather {
			info.comp, info.dref = slot, -1
		}
		rest = q.ops[3:]
	}
	return c.sampleImageOperands(rest, info)
}

// sampleImageOperands reads the optional image operands of a sampling
// instruction, in the order of their mask bits.
func (c *compiler) sampleImageOperands(ops []uint32, info *sampleInfo) error {
	if len(ops) == 0 {
		return c.checkLodForm(info, 0)
	}
	mask := spirv.ImageOperands(ops[0])
	ops = ops[1:]
	const known = spirv.ImageOperandsBias | spirv.ImageOperandsLod | spirv.ImageOperandsGrad | spirv.ImageOperandsConstOffset |
		spirv.ImageOperandsOffset | spirv.ImageOperandsConstOffsets | spirv.ImageOperandsMinLod |
		spirv.ImageOperandsNonPrivateTexel | spirv.ImageOperandsVolatileTexel | spirv.ImageOperandsNontemporal
	if bad := mask &^ known; bad != 0 {
		return fmt.Errorf("image operands %#x do not apply to sampling", uint32(bad))
	}
	next := func() (int32, *tinfo, error) {
		if len(ops) == 0 {
			return 0, nil, fmt.Errorf("image operands %#x: an operand is missing", uint32(mask))
		}
		s, t, err := c.val(ops[0])
		ops = ops[1:]
		return s, t, err
	}
	for _, bit := range []spirv.ImageOperands{spirv.ImageOperandsBias, spirv.ImageOperandsLod, spirv.ImageOperandsGrad,
		spirv.ImageOperandsConstOffset, spirv.ImageOperandsOffset, spirv.ImageOperandsConstOffsets, spirv.ImageOperandsMinLod} {
		if mask&bit == 0 {
			continue
		}
		if err := c.sampleOperand(bit, info, next); err != nil {
			return err
		}
	}
	return c.checkLodForm(info, mask)
}

// sampleOperand reads one image operand's value(s) with next.
func (c *compiler) sampleOperand(bit spirv.ImageOperands, info *sampleInfo, next func() (int32, *tinfo, error)) error {
	s, t, err := next()
	if err != nil {
		return err
	}
	dims := info.it.sampleCoords()
	if info.it.arrayed {
		dims--
	}
	switch bit {
	case spirv.ImageOperandsBias, spirv.ImageOperandsLod, spirv.ImageOperandsMinLod:
		if t.sc.kind != skFloat || t.ncomp != 1 {
			return fmt.Errorf("the Bias, Lod and MinLod operands must be float scalars")
		}
		info.fsc = t.sc
		*map[spirv.ImageOperands]*int32{spirv.ImageOperandsBias: &info.bias, spirv.ImageOperandsLod: &info.lod, spirv.ImageOperandsMinLod: &info.minLod}[bit] = s
	case spirv.ImageOperandsGrad:
		s2, t2, err := next()
		if err != nil {
			return err
		}
		if t.sc.kind != skFloat || t.ncomp != dims || t2.sc.kind != skFloat || t2.ncomp != dims {
			return fmt.Errorf("the Grad operands must be %d float component(s)", dims)
		}
		info.gradX, info.gradY, info.fsc = s, s2, t.sc
	case spirv.ImageOperandsConstOffset, spirv.ImageOperandsOffset:
		if info.it.dim == spirv.DimCube || t.sc.kind != skInt || t.ncomp != dims {
			return fmt.Errorf("the offset must be %d integer component(s), and cube images take none", dims)
		}
		info.off, info.osc = s, t.sc
	case spirv.ImageOperandsConstOffsets:
		if info.kind != smGather && info.kind != smDrefGather || t.elem == nil || t.elem.sc.kind != skInt || t.ncomp != 8 {
			return fmt.Errorf("ConstOffsets must be 4 2-component integer offsets of a gather")
		}
		info.offs, info.osc = s, t.elem.sc
	}
	return nil
}

// checkLodForm checks that the operands choose a LOD the way the
// instruction's form requires: explicit forms by Lod or Grad, implicit
// ones never, gathers at the base level.
func (c *compiler) checkLodForm(info *sampleInfo, mask spirv.ImageOperands) error {
	explicit := mask&(spirv.ImageOperandsLod|spirv.ImageOperandsGrad) != 0
	const offsets = spirv.ImageOperandsConstOffset | spirv.ImageOperandsOffset | spirv.ImageOperandsConstOffsets
	const lodOps = spirv.ImageOperandsBias | spirv.ImageOperandsLod | spirv.ImageOperandsGrad | spirv.ImageOperandsMinLod
	gather := info.kind == smGather || info.kind == smDrefGather
	switch {
	case mask&spirv.ImageOperandsLod != 0 && mask&spirv.ImageOperandsGrad != 0:
		return fmt.Errorf("both Lod and Grad")
	case (info.kind == smSample || info.kind == smDref) && info.implicit == explicit:
		return fmt.Errorf("an %s-LOD instruction with%s a Lod or Grad operand", map[bool]string{true: "implicit", false: "explicit"}[info.implicit], map[bool]string{true: "", false: "out"}[explicit])
	case gather && mask&lodOps != 0, info.kind == smQueryLod && mask&(lodOps|offsets) != 0:
		return fmt.Errorf("a gather takes no LOD operands, a LOD query no image operands")
	case mask&spirv.ImageOperandsBias != 0 && !info.implicit:
		return fmt.Errorf("Bias needs an implicit-LOD instruction")
	}
	return nil
}

// sample runs opSample.
func (sg *subgroup) sample(in *inst, lanes []int32) *Fault {
	info := &sg.p.samples[in.aux]
	d, a := sg.col(in.dst), sg.col(in.a)
	low := uint64(1)<<sg.p.ptrShift - 1
	switch info.kind {
	case smCombine:
		b := sg.col(in.b)
		for _, l := range lanes {
			d[l] = a[l]&^low | (b[l]>>sg.p.ptrShift+1)&low
		}
		return nil
	case smImageOf:
		for _, l := range lanes {
			d[l] = a[l] &^ low
		}
		return nil
	}
	for _, l := range lanes {
		bi, sm, f := sg.sampledImage(a[l])
		if f == nil {
			f = sg.sampleLane(info, in, bi, sm, l)
		}
		if f != nil {
			f.Lane = uint32(l)
			return f
		}
	}
	return nil
}

// sampledImage resolves a sampled-image value to its bound image and
// sampler.
func (sg *subgroup) sampledImage(v uint64) (*boundImage, *Sampler, *Fault) {
	d := sg.wg.d
	img := v >> sg.p.ptrShift
	smp := v&(uint64(1)<<sg.p.ptrShift-1) - 1
	if smp == ^uint64(0) {
		smp = img
	}
	if img == regNull {
		return nil, nil, &Fault{Kind: FaultNullPointer, Msg: "the image is null"}
	}
	var bi *boundImage
	var sm *Sampler
	if img < uint64(len(d.images)) {
		bi = d.images[img]
	}
	if smp < uint64(len(d.samplers)) {
		sm = d.samplers[smp]
	}
	switch {
	case bi == nil:
		return nil, nil, &Fault{Kind: FaultMissingResource, Msg: d.regionName(int(img)) + " is not bound"}
	case sm == nil:
		return nil, nil, &Fault{Kind: FaultMissingResource, Msg: "the sampler of " + d.regionName(int(smp)) + " is not bound"}
	}
	return bi, sm, nil
}

// float reads component i of slot s of lane l as a float of type t.
func (sg *subgroup) float(s int32, i int, t scalar, l int32) float64 {
	return toF64(sg.regs[(s+int32(i))*int32(sg.R)+l], t)
}

// sampleLane runs a sampler instruction for lane l.
func (sg *subgroup) sampleLane(info *sampleInfo, in *inst, bi *boundImage, sm *Sampler, l int32) *Fault {
	lk := lookup{bi: bi, sm: sm, it: info.it, isInt: info.sc.kind == skInt}
	if f := lk.check(info); f != nil {
		return f
	}
	var c [4]float64
	for i := range info.ncoord {
		c[i] = sg.float(in.b, i, info.csc, l)
	}
	if info.proj {
		q := c[info.ncoord-1]
		for i := range info.ncoord - 1 {
			c[i] /= q
		}
		if info.dref >= 0 {
			lk.dref = sg.float(info.dref, 0, info.fsc, l) / q
		}
	} else if info.dref >= 0 {
		lk.dref = sg.float(info.dref, 0, info.fsc, l)
	}
	lk.setCoords(c)
	if info.off >= 0 {
		for i := range 3 - boolInt(info.it.dim < spirv.Dim3D) - boolInt(info.it.dim == spirv.Dim1D) {
			lk.off[i] = sext(sg.regs[(info.off+int32(i))*int32(sg.R)+l], info.osc.width)
		}
	}
	var out [4]uint64
	switch info.kind {
	case smGather, smDrefGather:
		out = sg.gather(info, &lk, l)
	case smQueryLod:
		x, y := lk.queryLod(sg.lodInputs(info, in, &lk, l))
		out = [4]uint64{fromF64(x, info.sc, 0, false), fromF64(y, info.sc, 0, false)}
	default:
		out = lk.encode(lk.sample(sg.lodInputs(info, in, &lk, l)), info.sc)
	}
	for i := range info.ncomp {
		sg.regs[(in.dst+int32(i))*int32(sg.R)+l] = out[i] & info.sc.mask()
	}
	return nil
}

// boolInt is 1 for true.
func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// gather runs OpImageGather and OpImageDrefGather for lane l.
func (sg *subgroup) gather(info *sampleInfo, lk *lookup, l int32) [4]uint64 {
	comp := 0
	if info.comp >= 0 {
		comp = int(sg.regs[info.comp*int32(sg.R)+l] & 3)
	}
	var offs [4][2]int64
	for k := 0; info.offs >= 0 && k < 8; k++ {
		offs[k/2][k%2] = sext(sg.regs[(info.offs+int32(k))*int32(sg.R)+l], info.osc.width)
	}
	var t [4]texel
	if info.offs >= 0 {
		t = lk.gather(comp, &offs)
	} else {
		t = lk.gather(comp, nil)
	}
	var out [4]uint64
	for i := range 4 {
		if lk.isInt {
			out[i] = t[i].u
		} else {
			out[i] = fromF64(t[i].f, info.sc, 0, false)
		}
	}
	return out
}

// lodInputs gathers what selects the LOD for lane l: the Lod operand, or
// gradients (the Grad operands, or for implicit LOD the differences over
// the lane's quad, as the fine derivatives of derivative.go), the bias
// and the MinLod operand.
func (sg *subgroup) lodInputs(info *sampleInfo, in *inst, lk *lookup, l int32) lodIn {
	li := lodIn{explicit: info.lod >= 0, minLod: math.Inf(-1)}
	if li.explicit {
		li.lod = sg.float(info.lod, 0, info.fsc, l)
	}
	if info.bias >= 0 {
		li.bias = sg.float(info.bias, 0, info.fsc, l)
	}
	if info.minLod >= 0 {
		li.minLod = sg.float(info.minLod, 0, info.fsc, l)
	}
	dims := info.it.sampleCoords() - boolInt(info.it.arrayed)
	switch {
	case info.gradX >= 0:
		for i := range dims {
			li.dx[i] = sg.float(info.gradX, i, info.fsc, l)
			li.dy[i] = sg.float(info.gradY, i, info.fsc, l)
		}
	case info.implicit:
		base, row, col := l&^3, l>>1&1, l&1
		for i := range dims {
			at := func(k int32) float64 { return sg.projected(info, in.b, i, k) }
			li.dx[i] = at(base+2*row+1) - at(base+2*row)
			li.dy[i] = at(base+2+col) - at(base+col)
		}
	}
	lk.gradients(&li)
	return li
}

// projected is coordinate i of lane l, divided by q for Proj forms.
func (sg *subgroup) projected(info *sampleInfo, s int32, i int, l int32) float64 {
	v := sg.float(s, i, info.csc, l)
	if info.proj {
		v /= sg.float(s, info.ncoord-1, info.csc, l)
	}
	return v
}

// bindSamplers binds the samplers of res (samplers and combined image
// samplers' sampler halves) to their regions, checking each.
func (d *dispatch) bindSamplers(res *Resources) error {
	for i := range d.p.bufs {
		b := &d.p.bufs[i]
		if b.kind != SamplerDescriptor && b.kind != CombinedImageSampler {
			continue
		}
		if d.samplers == nil {
			d.samplers = make([]*Sampler, len(d.regions))
		}
		for j, sm := range res.Samplers[b.key] {
			if j >= b.span || b.count > 0 && j >= b.count || b.region+j >= len(d.samplers) {
				break
			}
			if sm == nil {
				continue
			}
			if err := sm.Check(); err != nil {
				return fmt.Errorf("interp: sampler %s: %w", d.regionName(b.region+j), err)
			}
			d.samplers[b.region+j] = sm
		}
	}
	return nil
}

// Check reports a sampler Vulkan does not allow: enumerants out of
// range, a NaN or inverted LOD range, unnormalized coordinates without
// the restrictions they need.
func (sm *Sampler) Check() error {
	switch {
	case sm.MagFilter > FilterLinear || sm.MinFilter > FilterLinear || sm.MipmapMode > MipmapLinear:
		return fmt.Errorf("filter %d/%d or mipmap mode %d out of range", sm.MagFilter, sm.MinFilter, sm.MipmapMode)
	case max(sm.AddressU, sm.AddressV, sm.AddressW) > AddressMirrorClampToEdge:
		return fmt.Errorf("address mode out of range")
	case sm.BorderColor > BorderIntOpaqueWhite || sm.CompareOp > CompareAlways:
		return fmt.Errorf("border colour %d or compare op %d out of range", sm.BorderColor, sm.CompareOp)
	case !(sm.MinLod <= sm.MaxLod) || sm.MipLodBias != sm.MipLodBias:
		return fmt.Errorf("minLod %v, maxLod %v, mipLodBias %v: minLod must not exceed maxLod", sm.MinLod, sm.MaxLod, sm.MipLodBias)
	case sm.UnnormalizedCoordinates && !sm.unnormalizedOK():
		return fmt.Errorf("unnormalizedCoordinates needs equal filters, nearest mipmaps, minLod = maxLod = 0, clamp-to-edge or clamp-to-border addressing and no comparison")
	}
	return nil
}

// unnormalizedOK reports whether the sampler meets the restrictions of
// VkSamplerCreateInfo's unnormalizedCoordinates.
func (sm *Sampler) unnormalizedOK() bool {
	clampU := sm.AddressU == AddressClampToEdge || sm.AddressU == AddressClampToBorder
	clampV := sm.AddressV == AddressClampToEdge || sm.AddressV == AddressClampToBorder
	return sm.MagFilter == sm.MinFilter && sm.MipmapMode == MipmapNearest && sm.MinLod == 0 && sm.MaxLod == 0 &&
		clampU && clampV && !sm.CompareEnable
}
