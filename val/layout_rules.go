package val

import (
	"fmt"

	"spvx/spirv"
)

// This file holds validate_explicit_layout.cpp's rules (ValidateExplicitLayout,
// which current spirv-val runs right after ValidateDecorations, in Vulkan
// environments only): the Vulkan block layout rules (scalar, "standard"
// std430 and "extended" std140, with relaxed block layout) for every
// variable, and every value of a PhysicalStorageBuffer pointer type, in a
// storage class that requires an explicit layout; and the ban on layout
// decorations in storage classes that prohibit one. The flags
// --relax-block-layout, --uniform-buffer-standard-layout,
// --scalar-block-layout, --workgroup-scalar-block-layout and
// --skip-block-layout select the rules as they do in spirv-val. Untyped
// pointers' references are untyped_pointers.go's; descriptor heaps are not
// written yet.
//
// Every fact is cached per type (alignment and size per type and rule set,
// checked (type, rules, offset, matrix constraints) tuples), so a module
// whose variables share types is checked in time linear in its types.

type layoutMode uint8

const (
	layoutScalar   layoutMode = iota // Vulkan scalar block layout
	layoutStandard                   // std430
	layoutExtended                   // std140
)

func (m layoutMode) String() string {
	switch m {
	case layoutScalar:
		return "scalar"
	case layoutStandard:
		return "standard"
	}
	return "extended"
}

type layoutRequirement uint8

const (
	layoutRequired layoutRequirement = iota
	layoutProhibited
	layoutAllowed
)

// unknownU32 marks a value that cannot be evaluated (a spec constant).
const unknownU32 = ^uint32(0)

type matrixConstraints struct {
	stride   uint32
	colMajor bool
}

var defaultMatrix = matrixConstraints{colMajor: true}

type memberInfo struct {
	index     uint32
	hasOffset bool
	offset    uint32
	hasMatrix bool
	matrix    matrixConstraints
}

type layoutKey struct {
	t      uint32
	mode   layoutMode
	offset uint32
	mc     matrixConstraints
}

type alignKey struct {
	t    uint32
	mode layoutMode
}

type arrayAlignKey struct {
	t    uint32
	mode layoutMode
	mc   matrixConstraints
}

type arraySizeKey struct {
	t  uint32
	mc matrixConstraints
}

// blockLayout holds ValidateExplicitLayout's caches.
type blockLayout struct {
	noLayout    map[uint32]bool
	members     map[uint32][]memberInfo
	checked     map[layoutKey]bool
	structAlign map[alignKey]uint32
	structSize  map[uint32]uint32
	arrayAlign  map[arrayAlignKey]uint32
	arraySize   map[arraySizeKey]uint32
	ptrSize     uint32
	relaxed     bool
	// budget bounds the (type, offset) tuples checked: nested arrays with
	// strides that share no factor reach distinct offsets at every level,
	// exponentially many in the nesting depth. Past the budget the rest of
	// the module's layouts are not checked (no module of any real size
	// gets there).
	budget int
}

// layoutBudget is the number of distinct layout checks per module.
const layoutBudget = 1 << 17

func (s *state) relaxedBlockLayout() bool {
	return (s.opts.Env.IsVulkan() && s.opts.Env != EnvVulkan1_0) || s.opts.RelaxBlockLayout
}

func (s *state) requirement(sc spirv.StorageClass, isBlock bool) layoutRequirement {
	switch sc {
	case spirv.StorageClassWorkgroup:
		if isBlock {
			return layoutRequired
		}
		return layoutProhibited
	case spirv.StorageClassStorageBuffer, spirv.StorageClassUniform, spirv.StorageClassPushConstant,
		spirv.StorageClassPhysicalStorageBuffer:
		return layoutRequired
	case spirv.StorageClassUniformConstant:
		return layoutProhibited
	case spirv.StorageClassFunction, spirv.StorageClassPrivate:
		if s.version <= spirv.MakeVersion(1, 4) {
			return layoutAllowed
		}
		return layoutProhibited
	}
	return layoutAllowed
}

func (s *state) storageLayout(sc spirv.StorageClass, bufferBlock bool) layoutMode {
	switch sc {
	case spirv.StorageClassWorkgroup:
		if s.opts.WorkgroupScalarBlockLayout {
			return layoutScalar
		}
	case spirv.StorageClassStorageBuffer, spirv.StorageClassPushConstant, spirv.StorageClassUniformConstant,
		spirv.StorageClassPhysicalStorageBuffer:
		if s.opts.ScalarBlockLayout {
			return layoutScalar
		}
	case spirv.StorageClassUniform:
		switch {
		case s.opts.ScalarBlockLayout:
			return layoutScalar
		case bufferBlock || s.opts.UniformBufferStandardLayout:
			return layoutStandard
		}
		return layoutExtended
	}
	return layoutStandard
}

// explicitLayout is ValidateExplicitLayout.
func (s *state) explicitLayout() bool {
	if !s.opts.Env.IsVulkan() {
		return false
	}
	ptrSize := uint32(8)
	if s.x.AddressingModel == spirv.AddressingModelPhysical32 {
		ptrSize = 4
	}
	s.layout = &blockLayout{
		noLayout: map[uint32]bool{}, members: map[uint32][]memberInfo{}, checked: map[layoutKey]bool{},
		structAlign: map[alignKey]uint32{}, structSize: map[uint32]uint32{},
		arrayAlign: map[arrayAlignKey]uint32{}, arraySize: map[arraySizeKey]uint32{},
		ptrSize: ptrSize, relaxed: s.relaxedBlockLayout(), budget: layoutBudget,
	}
	d := s.decorations()
	m := s.m
	for i := 0; i < m.Len(); i++ {
		in := m.Inst(i)
		r, ok := s.typedLayoutReference(&in)
		if !ok {
			r, ok = s.untypedLayoutReference(&in)
		}
		if !ok {
			continue
		}
		sc, t, descArray := r.sc, r.t, r.descArray
		if descArray != 0 {
			stride, strideID := d.has(descArray, spirv.DecorationArrayStride), d.has(descArray, spirv.DecorationArrayStrideIdEXT)
			if stride || strideID {
				dec := spirv.DecorationArrayStride
				if !stride {
					dec = spirv.DecorationArrayStrideIdEXT
				}
				if s.fail(i, s.vuid("VUID-StandaloneSpirv-None-10684"),
					"Invalid explicit layout decorations on type %s, the %s storage class has an explicit layout from the %s decoration",
					s.idName(descArray), storageClassName(sc), decorationName(dec)) {
					return true
				}
			}
		}
		if r.untyped && s.untypedWorkgroupBlock(i, &in, r) {
			return true
		}
		var failed bool
		switch r.req {
		case layoutRequired:
			failed = s.checkLayout(i, t, sc, r.mode, 0, defaultMatrix, 0)
		case layoutProhibited:
			failed = s.checkNoLayout(i, t, sc, 0)
		}
		if failed && s.stopped() {
			return true
		}
	}
	return false
}

// layoutRef is GetMemoryReference's MemoryReference: the data type t a
// memory instruction reaches (a descriptor array's element, descArray
// being the array), its storage class, layout requirement and mode, and
// whether it is an untyped pointer's.
type layoutRef struct {
	sc           spirv.StorageClass
	t, descArray uint32
	req          layoutRequirement
	mode         layoutMode
	untyped      bool
}

// typedLayoutReference is GetMemoryReference for typed pointers: an
// OpVariable, any instruction returning a PhysicalStorageBuffer pointer,
// or an OpBufferPointerEXT.
func (s *state) typedLayoutReference(in *spirv.Instruction) (layoutRef, bool) {
	ptr := s.typeOf(in.TypeID)
	if in.TypeID == 0 || ptr == nil || ptr.Op != spirv.OpTypePointer {
		return layoutRef{}, false
	}
	d := s.decorations()
	isStructWith := func(t uint32, dec spirv.Decoration) bool {
		return s.isKind(t, spirv.TypeStruct) && d.has(t, dec)
	}
	r := layoutRef{sc: ptr.Storage, t: ptr.Elem}
	switch {
	case in.Opcode == spirv.OpVariable:
		r.req = s.requirement(r.sc, isStructWith(r.t, spirv.DecorationBlock))
		if r.sc == spirv.StorageClassStorageBuffer || r.sc == spirv.StorageClassUniform || r.sc == spirv.StorageClassUniformConstant {
			if at := s.typeOf(r.t); at != nil && (at.Kind == spirv.TypeArray || at.Kind == spirv.TypeRuntimeArray) {
				r.descArray, r.t = r.t, at.Elem
			}
		}
		r.mode = s.storageLayout(r.sc, isStructWith(r.t, spirv.DecorationBufferBlock))
	case r.sc == spirv.StorageClassPhysicalStorageBuffer:
		r.req, r.mode = layoutRequired, s.storageLayout(r.sc, false)
	case in.Opcode == spirv.OpBufferPointerEXT: // a buffer in a descriptor heap
		r.req, r.mode = layoutRequired, s.storageLayout(r.sc, isStructWith(r.t, spirv.DecorationBufferBlock))
	default:
		return layoutRef{}, false
	}
	return r, true
}

// layoutDecorations are the explicit layout decorations, which a type
// that must not have an explicit layout may not carry.
var layoutDecorations = []spirv.Decoration{
	spirv.DecorationBlock, spirv.DecorationBufferBlock, spirv.DecorationOffset, spirv.DecorationOffsetIdEXT,
	spirv.DecorationArrayStride, spirv.DecorationArrayStrideIdEXT, spirv.DecorationMatrixStride,
	spirv.DecorationRowMajor, spirv.DecorationColMajor,
}

// checkNoLayout is CheckNoLayout: no type in t's tree has a layout
// decoration.
func (s *state) checkNoLayout(i int, t uint32, sc spirv.StorageClass, depth int) bool {
	L := s.layout
	if L.noLayout[t] || depth > 512 {
		return false
	}
	ty := s.typeOf(t)
	if ty == nil {
		return false
	}
	if ty.Kind == spirv.TypePointer && s.requirement(ty.Storage, true) != layoutProhibited {
		return false
	}
	L.noLayout[t] = true // also guards against cycles through forward pointers
	for _, e := range s.decorations().ofKinds(t, layoutDecorations[0], layoutDecorations[1:]...) {
		switch e.Kind {
		case spirv.DecorationBlock, spirv.DecorationBufferBlock, spirv.DecorationOffset, spirv.DecorationOffsetIdEXT,
			spirv.DecorationArrayStride, spirv.DecorationArrayStrideIdEXT, spirv.DecorationMatrixStride,
			spirv.DecorationRowMajor, spirv.DecorationColMajor:
			delete(L.noLayout, t)
			return s.fail(i, s.vuid("VUID-StandaloneSpirv-None-10684"),
				"Invalid explicit layout decorations on type %s, the %s storage class has an explicit layout from the %s decoration",
				s.idName(t), storageClassName(sc), decorationName(e.Kind))
		}
	}
	var bad bool
	switch ty.Kind {
	case spirv.TypeStruct:
		for _, m := range ty.Members {
			if s.checkNoLayout(i, m, sc, depth+1) {
				bad = true
				break
			}
		}
	case spirv.TypeArray, spirv.TypeRuntimeArray:
		bad = s.checkNoLayout(i, ty.Elem, sc, depth+1)
	case spirv.TypePointer:
		bad = s.checkNoLayout(i, ty.Elem, ty.Storage, depth+1)
	}
	if bad {
		delete(L.noLayout, t)
	}
	return bad
}

// containsMatrix looks through arrays for a matrix.
func (s *state) containsMatrix(t uint32) bool {
	for k := 0; k < 64; k++ {
		ty := s.typeOf(t)
		if ty == nil {
			return false
		}
		switch ty.Kind {
		case spirv.TypeMatrix:
			return true
		case spirv.TypeArray, spirv.TypeRuntimeArray:
			t = ty.Elem
		default:
			return false
		}
	}
	return false
}

// idDecorationValue is GetIdDecorationValue: a non-spec integer constant's
// value, unknownU32 otherwise.
func (s *state) idDecorationValue(id uint32) uint32 {
	if v, ok := s.constUint(id); ok {
		return uint32(v)
	}
	return unknownU32
}

// arrayStride is GetArrayStride.
func (s *state) arrayStride(t uint32) (bool, uint32) {
	for _, e := range s.decorations().ofKinds(t, spirv.DecorationArrayStride, spirv.DecorationArrayStrideIdEXT) {
		switch {
		case e.Kind == spirv.DecorationArrayStride && len(e.Params) > 0:
			return true, e.Params[0]
		case e.Kind == spirv.DecorationArrayStrideIdEXT && len(e.Params) > 0:
			return true, s.idDecorationValue(e.Params[0])
		}
	}
	return false, unknownU32
}

func isAlignedTo(v, align uint32) bool {
	if align == 0 {
		return v == 0
	}
	return v%align == 0
}

func alignTo(v, align uint32) uint32 { return (v + align - 1) &^ (align - 1) }

// improperStraddle: a vector of at most 16 bytes crossing a 16-byte
// boundary, or a larger one not starting on one.
func improperStraddle(offset, size uint32) bool {
	if size <= 16 {
		return offset>>4 != (offset+size-1)>>4
	}
	return offset%16 != 0
}

// matrixOf returns member k's matrix constraints and whether it has a
// RowMajor or ColMajor decoration.
func (s *state) matrixOf(st uint32, k int) (matrixConstraints, bool) {
	mc, has := defaultMatrix, false
	for _, e := range s.decorations().member(st, k, spirv.DecorationColMajor, spirv.DecorationRowMajor, spirv.DecorationMatrixStride) {
		switch e.Kind {
		case spirv.DecorationColMajor, spirv.DecorationRowMajor:
			has, mc.colMajor = true, e.Kind == spirv.DecorationColMajor
		case spirv.DecorationMatrixStride:
			if len(e.Params) > 0 {
				mc.stride = e.Params[0]
			}
		}
	}
	return mc, has
}

// structMembers is GetStructMembers: the members with their layout
// decorations, sorted by offset (members without one last).
func (s *state) structMembers(st uint32) []memberInfo {
	L := s.layout
	if ms, ok := L.members[st]; ok {
		return ms
	}
	ty := s.typeOf(st)
	var ms []memberInfo
	if ty != nil {
		ms = make([]memberInfo, 0, len(ty.Members))
		for k := range ty.Members {
			mi := memberInfo{index: uint32(k), offset: unknownU32}
			mi.matrix, mi.hasMatrix = s.matrixOf(st, k)
			for _, e := range s.decorations().member(st, k, spirv.DecorationOffset, spirv.DecorationOffsetIdEXT) {
				if len(e.Params) == 0 {
					continue
				}
				switch e.Kind {
				case spirv.DecorationOffset:
					mi.hasOffset, mi.offset = true, e.Params[0]
				case spirv.DecorationOffsetIdEXT:
					mi.hasOffset, mi.offset = true, s.idDecorationValue(e.Params[0])
				}
			}
			ms = append(ms, mi)
		}
		// A stable insertion sort keeps this allocation-free and members
		// usually come in offset order already.
		for a := 1; a < len(ms); a++ {
			for b := a; b > 0 && ms[b].offset < ms[b-1].offset; b-- {
				ms[b], ms[b-1] = ms[b-1], ms[b]
			}
		}
	}
	L.members[st] = ms
	return ms
}

// align is GetAlign.
func (s *state) align(t uint32, mode layoutMode, mc matrixConstraints, allowRelaxed bool, depth int) uint32 {
	L := s.layout
	ty := s.typeOf(t)
	if ty == nil || depth > 512 {
		return 1
	}
	switch ty.Kind {
	case spirv.TypeInt, spirv.TypeFloat:
		return ty.Width / 8
	case spirv.TypeVector:
		a := s.align(ty.Elem, mode, defaultMatrix, true, depth+1)
		if mode == layoutScalar || (allowRelaxed && L.relaxed) {
			return a
		}
		n := ty.Count
		if n == 3 || n > 4 {
			n = 4
		}
		return a * n
	case spirv.TypeMatrix:
		col := s.typeOf(ty.Elem)
		if col == nil {
			return 1
		}
		var a uint32
		switch {
		case mode == layoutScalar:
			return s.align(col.Elem, mode, defaultMatrix, true, depth+1)
		case mc.colMajor:
			a = s.align(ty.Elem, mode, defaultMatrix, false, depth+1)
		default:
			// A row-major matrix of C columns aligns as a vector of C
			// components.
			n := ty.Count
			if n == 3 {
				n = 4
			}
			a = s.align(col.Elem, mode, defaultMatrix, true, depth+1) * n
		}
		if mode == layoutExtended {
			a = alignTo(a, 16)
		}
		return a
	case spirv.TypeArray, spirv.TypeRuntimeArray:
		k := arrayAlignKey{t, mode, mc}
		if a, ok := L.arrayAlign[k]; ok {
			return a
		}
		a := s.align(ty.Elem, mode, mc, false, depth+1)
		if mode == layoutExtended {
			a = alignTo(a, 16)
		}
		L.arrayAlign[k] = a
		return a
	case spirv.TypeStruct:
		k := alignKey{t, mode}
		if a, ok := L.structAlign[k]; ok {
			return a
		}
		a := uint32(1)
		for idx, m := range ty.Members {
			mmc, _ := s.matrixOf(t, idx)
			a = max(a, s.align(m, mode, mmc, true, depth+1))
			if mode == layoutExtended {
				a = alignTo(a, 16)
			}
		}
		L.structAlign[k] = a
		return a
	case spirv.TypePointer:
		return L.ptrSize
	}
	return 1
}

// size is GetSize.
func (s *state) size(t uint32, mc matrixConstraints, depth int) uint32 {
	L := s.layout
	ty := s.typeOf(t)
	if ty == nil || depth > 512 {
		return 0
	}
	switch ty.Kind {
	case spirv.TypeInt, spirv.TypeFloat:
		return ty.Width / 8
	case spirv.TypeVector:
		return s.size(ty.Elem, defaultMatrix, depth+1) * ty.Count
	case spirv.TypeArray:
		k := arraySizeKey{t, mc}
		if v, ok := L.arraySize[k]; ok {
			return v
		}
		j, ok := s.x.Def(t)
		if !ok {
			return 0
		}
		count, ok := s.constUint(s.m.Inst(j).Words[3])
		if !ok {
			return 0
		}
		_, stride := s.arrayStride(t)
		v := s.size(ty.Elem, mc, depth+1)
		if stride != unknownU32 {
			v += (uint32(count) - 1) * stride
		}
		L.arraySize[k] = v
		return v
	case spirv.TypeMatrix:
		if mc.colMajor {
			return ty.Count * mc.stride
		}
		col := s.typeOf(ty.Elem)
		if col == nil {
			return 0
		}
		return (col.Count-1)*mc.stride + ty.Count*s.size(col.Elem, defaultMatrix, depth+1)
	case spirv.TypeStruct:
		if v, ok := L.structSize[t]; ok {
			return v
		}
		ms := s.structMembers(t)
		var v uint32
		if len(ms) > 0 {
			last := ms[len(ms)-1]
			if last.offset != unknownU32 && int(last.index) < len(ty.Members) {
				v = last.offset + s.size(ty.Members[last.index], last.matrix, depth+1)
			}
		}
		L.structSize[t] = v
		return v
	case spirv.TypePointer:
		return L.ptrSize
	}
	return 0
}

// missingFeature is ValidationState_t::MissingFeature with a hint.
func missingFeature(feature, flag string) string {
	return "\nThis is may be allowed if you enable the " + feature + " (or use the " + flag + " command line flag)"
}

// layoutCommon is CommonError: where the layout comes from and the flag
// that may allow it.
func (s *state) layoutCommon(i int, sc spirv.StorageClass, mode layoutMode) string {
	id := uint32(0)
	if i >= 0 {
		id = s.m.Inst(i).ResultID
	}
	msg := fmt.Sprintf(" Instantiated via %s in the %s storage class using %s layout rules.", s.idName(id), storageClassName(sc), mode)
	if mode != layoutScalar {
		switch {
		case sc == spirv.StorageClassWorkgroup:
			msg += missingFeature("workgroupMemoryExplicitLayoutScalarBlockLayout feature", "--workgroup-scalar-block-layout")
		case !s.layout.relaxed:
			msg += missingFeature("VK_KHR_relaxed_block_layout extension", "--relax-block-layout")
		case sc == spirv.StorageClassUniform && mode != layoutStandard:
			msg += missingFeature("uniformBufferStandardLayout feature", "--uniform-buffer-standard-layout")
		default:
			msg += missingFeature("scalarBlockLayout feature", "--scalar-block-layout")
		}
	}
	return msg
}

// layoutFail reports a layout error at type t's declaration.
func (s *state) layoutFail(i int, t uint32, sc spirv.StorageClass, mode layoutMode, vuid, format string, args ...any) bool {
	at := -1
	if j, ok := s.x.Def(t); ok {
		at = j
	}
	return s.fail(at, vuid, "%s", fmt.Sprintf(format, args...)+s.layoutCommon(i, sc, mode))
}

// checkLayout is CheckLayout: t, placed at offset in a block of storage
// class sc reached from instruction i, follows mode's rules.
func (s *state) checkLayout(i int, t uint32, sc spirv.StorageClass, mode layoutMode, offset uint32, mc matrixConstraints, depth int) bool {
	if s.opts.SkipBlockLayout || depth > 512 {
		return false
	}
	L := s.layout
	key := layoutKey{t, mode, offset, mc}
	if L.checked[key] || L.budget <= 0 {
		return false
	}
	L.budget--
	ty := s.typeOf(t)
	if ty == nil {
		return false
	}
	var bad bool
	switch ty.Kind {
	case spirv.TypeStruct:
		bad = s.checkStructLayout(i, t, ty, sc, mode, offset, mc, depth)
	case spirv.TypeArray, spirv.TypeRuntimeArray:
		bad = s.checkArrayLayout(i, t, ty, sc, mode, offset, mc, depth)
	case spirv.TypeMatrix:
		bad = s.checkMatrixLayout(i, t, ty, sc, mode, mc)
	}
	if !bad {
		L.checked[key] = true
	}
	return bad
}

func (s *state) checkStructLayout(i int, t uint32, ty *spirv.Type, sc spirv.StorageClass, mode layoutMode, incoming uint32, mc matrixConstraints, depth int) bool {
	ms := s.structMembers(t)
	for _, m := range ms {
		if int(m.index) >= len(ty.Members) {
			continue
		}
		if !m.hasOffset {
			return s.layoutFail(i, t, sc, mode, "", "Structure member %d must be explicitly laid out with Offset or OffsetIdEXT decorations.", m.index)
		}
		if s.containsMatrix(ty.Members[m.index]) {
			if !m.hasMatrix {
				return s.layoutFail(i, t, sc, mode, "", "Structure member %d containing a matrix must be explicitly laid out with RowMajor or ColMajor decorations.", m.index)
			}
			if m.matrix.stride == 0 {
				return s.layoutFail(i, t, sc, mode, "", "Structure member %d containing a matrix must be explicitly laid out with MatrixStride decorations.", m.index)
			}
		}
	}
	var next uint32
	ordered := 0
	for _, m := range ms {
		off := m.offset
		if off == unknownU32 || int(m.index) >= len(ty.Members) {
			continue
		}
		mid := ty.Members[m.index]
		mt := s.typeOf(mid)
		if mt != nil && mt.Kind == spirv.TypeRuntimeArray && ordered != len(ms)-1 {
			return s.layoutFail(i, t, sc, mode, s.vuid("VUID-StandaloneSpirv-OpTypeRuntimeArray-04680"),
				"Structure has a runtime array at offset %d, but other members at larger offsets.", off)
		}
		ordered++
		mmc := mc
		if m.hasMatrix {
			mmc = m.matrix
		}
		a := s.align(mid, mode, mmc, true, 0)
		if !isAlignedTo(off, a) {
			return s.layoutFail(i, t, sc, mode, "", "Structure member %d at offset %d is not aligned to %d.", m.index, off, a)
		}
		if !isAlignedTo(off+incoming, a) {
			return s.layoutFail(i, t, sc, mode, "", "Structure member %d at offset %d plus incoming offset %d is not aligned to %d.", m.index, off, incoming, a)
		}
		if off < next {
			return s.layoutFail(i, t, sc, mode, "", "Structure member %d at offset %d overlaps previous member ending at offset %d.", m.index, off, next-1)
		}
		if mode != layoutScalar && s.layout.relaxed && mt != nil && mt.Kind == spirv.TypeVector {
			if improperStraddle(incoming+off, s.size(mid, defaultMatrix, 0)) {
				return s.layoutFail(i, t, sc, mode, "", "Structure member %d: Vector has improper straddle due to offset %d.", m.index, incoming+off)
			}
		}
		if s.checkLayout(i, mid, sc, mode, incoming+off, mmc, depth+1) {
			return true
		}
		next = s.size(mid, mmc, 0) + off
		if mode != layoutScalar && mt != nil && (mt.Kind == spirv.TypeArray || mt.Kind == spirv.TypeStruct) {
			next = alignTo(next, a)
		}
	}
	return false
}

func (s *state) checkArrayLayout(i int, t uint32, ty *spirv.Type, sc spirv.StorageClass, mode layoutMode, incoming uint32, mc matrixConstraints, depth int) bool {
	has, stride := s.arrayStride(t)
	if !has {
		return s.layoutFail(i, t, sc, mode, "", "Array must be explicitly laid out with ArrayStride or ArrayStrideIdEXT decorations.")
	}
	elemSize := s.size(ty.Elem, mc, 0)
	a := s.align(t, mode, mc, true, 0)
	if stride == 0 {
		return s.layoutFail(i, t, sc, mode, "", "Array must not have a stride of 0.")
	}
	if stride == unknownU32 {
		return false
	}
	if !isAlignedTo(stride, a) {
		return s.layoutFail(i, t, sc, mode, "", "Array stride %d must satisfy alignment %d.", stride, a)
	}
	if stride < elemSize {
		return s.layoutFail(i, t, sc, mode, "", "Array stride %d is smaller than element type size %d.", stride, elemSize)
	}
	n := uint32(0)
	if ty.Kind == spirv.TypeArray {
		if j, ok := s.x.Def(t); ok {
			if c, ok := s.constUint(s.m.Inst(j).Words[3]); ok {
				n = uint32(c)
			}
		}
	}
	n = max(n, 1)
	// Element offsets repeat modulo 16 after at most 16 elements.
	var seen [16]bool
	for k := uint32(0); k < n; k++ {
		off := k*stride + incoming
		if seen[off%16] {
			break
		}
		if s.checkLayout(i, ty.Elem, sc, mode, off, mc, depth+1) {
			return true
		}
		seen[off%16] = true
	}
	return false
}

func (s *state) checkMatrixLayout(i int, t uint32, ty *spirv.Type, sc spirv.StorageClass, mode layoutMode, mc matrixConstraints) bool {
	// A zero stride comes from a matrix reached through an access chain
	// or the like; the struct check catches a missing MatrixStride.
	if mc.stride == 0 {
		return false
	}
	a := s.align(t, mode, mc, true, 0)
	if !isAlignedTo(mc.stride, a) {
		at := -1
		if j, ok := s.x.Def(t); ok {
			at = j
		}
		return s.fail(at, "", "%s", fmt.Sprintf("Matrix with a stride %d not satisfying alignment to %d.", mc.stride, a)+s.layoutCommon(i, sc, mode)+"\n")
	}
	col := s.typeOf(ty.Elem)
	if col == nil {
		return false
	}
	var size uint32
	if mc.colMajor {
		size = s.size(ty.Elem, defaultMatrix, 0)
	} else {
		size = s.size(col.Elem, defaultMatrix, 0) * ty.Count
	}
	if mc.stride < size {
		return s.layoutFail(i, t, sc, mode, "", "Matrix stride %d is smaller than column size %d.", mc.stride, size)
	}
	return false
}
