package val

import (
	"fmt"
	"sort"

	"spvx/spirv"
)

// The SPV_KHR_cooperative_matrix family, as spirv-val checks it:
//
//   - OpTypeCooperativeMatrixKHR and OpTypeCooperativeMatrixNV
//     (ValidateTypeCooperativeMatrix, in the type pass): a scalar numerical
//     Component Type, gated by BFloat16CooperativeMatrixKHR for BFloat16
//     and Float8CooperativeMatrixEXT for E4M3/E5M2; Scope, Rows, Columns
//     and (KHR) Use constant integers; a Workgroup Scope needs every entry
//     point to set LocalSize or LocalSizeId, with LocalSizeId's ids
//     defined before the type; the Scope is Workgroup or Subgroup.
//   - OpCooperativeMatrixLengthKHR, also inside OpSpecConstantOp
//     (ValidateCooperativeMatrixLength, memory pass): a 32-bit unsigned
//     result and a cooperative matrix type operand.
//   - OpCooperativeMatrixLoadKHR and OpCooperativeMatrixStoreKHR
//     (ValidateCooperativeMatrixLoadStoreKHR, memory pass): the object's
//     type, the logical pointer and its type, Vulkan's storage classes,
//     the pointee, MemoryLayout, SPV_ARM_cooperative_matrix_layouts's
//     Stride rules, and the memory operands (memoryAccess).
//
// OpCooperativeMatrixMulAddKHR is in arithmetics.go, the conversions in
// conversion.go and arith_util.go.

// typeCooperativeMatrix is ValidateTypeCooperativeMatrix, for both the
// KHR and the NV type, in spirv-val's order.
func (s *state) typeCooperativeMatrix(i int, in *spirv.Instruction) bool {
	khr := in.Opcode == spirv.OpTypeCooperativeMatrixKHR
	if len(in.Words) < 6 || khr && len(in.Words) < 7 {
		return false // the grammar check reports the missing operands
	}
	comp := in.Words[2]
	if op := s.defOp(comp); op != spirv.OpTypeFloat && op != spirv.OpTypeInt {
		return s.fail(i, "", "OpTypeCooperativeMatrix Component Type <id> %s is not a scalar numerical type.", s.idName(comp))
	}
	if s.isBF16Scalar(comp) && !s.caps.has(spirv.CapabilityBFloat16CooperativeMatrixKHR) {
		return s.fail(i, "", "OpTypeCooperativeMatrix Component Type <id> %srequire BFloat16CooperativeMatrixKHR be declared.", s.idName(comp))
	}
	if s.isFP8Scalar(comp) && !s.caps.has(spirv.CapabilityFloat8CooperativeMatrixEXT) {
		return s.fail(i, "", "OpTypeCooperativeMatrix Component Type <id> %srequire Float8CooperativeMatrixEXT be declared.", s.idName(comp))
	}
	for k, what := range [...]string{"OpTypeCooperativeMatrix Scope", "OpTypeCooperativeMatrix Rows", "OpTypeCooperativeMatrix Cols", "OpTypeCooperativeMatrixKHR Use"} {
		if k == 3 && !khr {
			break
		}
		if id := in.Words[3+k]; !s.isConstInt(id) {
			return s.fail(i, "", "%s <id> %s is not a constant instruction with scalar integer type.", what, s.idName(id))
		}
	}
	return s.coopMatScope(i, in.Words[3])
}

// isConstInt: id is defined by a constant instruction (spvOpcodeIsConstant,
// spec constants included) of a scalar integer type.
func (s *state) isConstInt(id uint32) bool {
	j := s.defInst(id)
	if j < 0 {
		return false
	}
	d := s.m.Inst(j)
	return isConstantOp(d.Opcode) && s.isIntScalar(d.TypeID)
}

// coopMatScope checks a cooperative matrix type's Scope value, when it is
// a constant spirv-val evaluates: Workgroup needs every entry point's
// LocalSize or LocalSizeId, and LocalSizeId's ids defined before
// instruction i; only Workgroup and Subgroup are allowed.
func (s *state) coopMatScope(i int, scopeID uint32) bool {
	v, ok := s.constUint(scopeID)
	if !ok {
		return false
	}
	if spirv.Scope(v) == spirv.ScopeWorkgroup && s.coopMatLocalSize(i) {
		return true
	}
	if spirv.Scope(v) != spirv.ScopeWorkgroup && spirv.Scope(v) != spirv.ScopeSubgroup {
		return s.fail(i, s.vuid("VUID-StandaloneSpirv-Scope-12243"), "OpTypeCooperativeMatrixKHR Scope is limited to Workgroup and Subgroup")
	}
	return false
}

// coopLocalSizes is what the Workgroup-scope rule needs of the entry
// points, in their order, computed once so that each type costs a binary
// search: each one's last LocalSize or LocalSizeId (nil for none), the
// first without one, and the running maximum of the instruction indexes
// defining LocalSizeId's ids.
type coopLocalSizes struct {
	modes     []*spirv.ExecutionModeEntry
	noLocal   int   // index of the first entry point without one, or len(modes)
	maxDefRun []int // maxDefRun[e]: the latest LocalSizeId definition of entry points 0..e
}

func (s *state) getCoopLocalSizes() *coopLocalSizes {
	if s.coopLocal != nil {
		return s.coopLocal
	}
	eps := s.x.EntryPoints
	c := &coopLocalSizes{modes: make([]*spirv.ExecutionModeEntry, len(eps)), noLocal: len(eps), maxDefRun: make([]int, len(eps))}
	run := -1
	for e := range eps {
		for k := range eps[e].Modes {
			if m := eps[e].Modes[k].Mode; m == spirv.ExecutionModeLocalSize || m == spirv.ExecutionModeLocalSizeId {
				c.modes[e] = &eps[e].Modes[k]
			}
		}
		if c.modes[e] == nil && c.noLocal == len(eps) {
			c.noLocal = e
		}
		if c.modes[e] != nil && c.modes[e].Mode == spirv.ExecutionModeLocalSizeId {
			for _, id := range c.modes[e].Params {
				run = max(run, s.defInst(id))
			}
		}
		c.maxDefRun[e] = run
	}
	s.coopLocal = c
	return c
}

// coopMatLocalSize is the Workgroup-scope rule for the type at
// instruction i: the first entry point, in order, without a local size
// or with a LocalSizeId id defined after i fails.
func (s *state) coopMatLocalSize(i int) bool {
	c := s.getCoopLocalSizes()
	late := sort.Search(len(c.maxDefRun), func(e int) bool { return c.maxDefRun[e] > i })
	switch e := min(late, c.noLocal); {
	case e == len(c.modes):
		return false
	case e == c.noLocal:
		return s.fail(i, "", "OpTypeCooperativeMatrixKHR with ScopeWorkgroup used without specifying LocalSize or LocalSizeId for entry point <id> %s", s.idName(s.x.EntryPoints[e].Function))
	default:
		for _, id := range c.modes[e].Params {
			if s.defInst(id) > i {
				return s.fail(i, "", "OpTypeCooperativeMatrixKHR with ScopeWorkgroup used before LocalSizeId constant value <id> %s is defined.", s.idName(id))
			}
		}
	}
	return false
}

// coopMatLength is ValidateCooperativeMatrixLength for the KHR length,
// whose type operand is at word k (4 in an OpSpecConstantOp).
func (s *state) coopMatLength(i int, in *spirv.Instruction, k int) bool {
	if k >= len(in.Words) {
		return false
	}
	if !s.isUintScalar(in.TypeID) || s.bitWidth(in.TypeID) != 32 {
		return s.fail(i, "", "The Result Type of Op%s <id> %s must be OpTypeInt with width 32 and signedness 0.", opName(in.Opcode), s.idName(in.ResultID))
	}
	if t := in.Words[k]; s.defInst(t) >= 0 && s.defOp(t) != spirv.OpTypeCooperativeMatrixKHR {
		return s.fail(i, "", "The type in Op%s <id> %s must be OpTypeCooperativeMatrixKHR.", opName(in.Opcode), s.idName(t))
	}
	return false
}

// coopMatMemoryPass is the family's part of the memory pass.
func (s *state) coopMatMemoryPass(i int, in *spirv.Instruction) bool {
	switch in.Opcode {
	case spirv.OpCooperativeMatrixLengthKHR:
		return s.coopMatLength(i, in, 3)
	case spirv.OpSpecConstantOp:
		if len(in.Words) > 3 && spirv.Opcode(in.Words[3]) == spirv.OpCooperativeMatrixLengthKHR {
			return s.coopMatLength(i, in, 4)
		}
	case spirv.OpCooperativeMatrixLoadKHR, spirv.OpCooperativeMatrixStoreKHR:
		return s.coopMatLoadStore(i, in)
	}
	return false
}

// coopMatOperands are the word positions of a KHR load's or store's
// operands: the object's type, the pointer, MemoryLayout, Stride and the
// memory operands.
type coopMatOperands struct {
	name                                  string
	objType                               uint32
	pointer, layout, stride, memoryAccess int
}

// coopMatLoadStoreOperands finds in's operands; ok is false when a
// required one is missing (the grammar check reports it).
func (s *state) coopMatLoadStoreOperands(in *spirv.Instruction) (o coopMatOperands, ok bool) {
	if in.Opcode == spirv.OpCooperativeMatrixLoadKHR {
		o = coopMatOperands{name: "spv::Op::OpCooperativeMatrixLoadKHR", objType: in.TypeID, pointer: 3, layout: 4, stride: 5, memoryAccess: 6}
	} else {
		o = coopMatOperands{name: "spv::Op::OpCooperativeMatrixStoreKHR", pointer: 1, layout: 3, stride: 4, memoryAccess: 5}
		if len(in.Words) > 2 {
			o.objType = s.typeOfValue(in.Words[2])
		}
	}
	return o, len(in.Words) > o.layout
}

// coopMatLoadStore is ValidateCooperativeMatrixLoadStoreKHR.
func (s *state) coopMatLoadStore(i int, in *spirv.Instruction) bool {
	o, ok := s.coopMatLoadStoreOperands(in)
	if !ok {
		return false
	}
	if s.defOp(o.objType) != spirv.OpTypeCooperativeMatrixKHR {
		what := " Result Type"
		if in.Opcode == spirv.OpCooperativeMatrixStoreKHR {
			what = " Object type"
		}
		return s.fail(i, "", "%s%s <id> %s is not a cooperative matrix type.", o.name, what, s.idName(o.objType))
	}
	if s.coopMatPointer(i, in, o) {
		return true
	}
	layout := in.Words[o.layout]
	if !s.isConstInt(layout) {
		return s.fail(i, "", "MemoryLayout operand <id> %s must be a 32-bit integer constant instruction.", s.idName(layout))
	}
	if s.coopMatStride(i, in, o) {
		return true
	}
	if o.memoryAccess < len(in.Words) {
		return s.memoryAccess(i, in, o.memoryAccess)
	}
	return false
}

// coopMatPointer checks the Pointer operand: a logical pointer, of a
// pointer type, in Vulkan to Workgroup, StorageBuffer or
// PhysicalStorageBuffer, and (typed) to a scalar or vector.
func (s *state) coopMatPointer(i int, in *spirv.Instruction, o coopMatOperands) bool {
	ptr := in.Words[o.pointer]
	pj := s.defInst(ptr)
	if pj < 0 || !s.logicalPointerOK(s.m.Opcode(pj)) {
		return s.fail(i, "", "%s Pointer <id> %s is not a logical pointer.", o.name, s.idName(ptr))
	}
	pt := s.m.Inst(pj).TypeID
	op := s.defOp(pt)
	if op != spirv.OpTypePointer && op != spirv.OpTypeUntypedPointerKHR {
		return s.fail(i, "", "%s type for pointer <id> %s is not a pointer type.", o.name, s.idName(ptr))
	}
	ptIn := s.m.Inst(s.defInst(pt))
	if len(ptIn.Words) < 3 {
		return false
	}
	if s.opts.Env.IsVulkan() {
		switch spirv.StorageClass(ptIn.Words[2]) {
		case spirv.StorageClassWorkgroup, spirv.StorageClassStorageBuffer, spirv.StorageClassPhysicalStorageBuffer:
		default:
			return s.fail(i, "VUID-StandaloneSpirv-Pointer-08973", "%s storage class for pointer type <id> %s is not Workgroup, StorageBuffer, or PhysicalStorageBuffer.", o.name, s.idName(pt))
		}
	}
	if op == spirv.OpTypePointer && len(ptIn.Words) > 3 {
		if e := ptIn.Words[3]; !s.isIntScalarOrVector(e) && !s.isFloatScalarOrVector(e) {
			return s.fail(i, "", "%s Pointer <id> %ss Type must be a scalar or vector type.", o.name, s.idName(ptr))
		}
	}
	return false
}

// coopMatStride checks Stride against the MemoryLayout: RowMajorKHR,
// ColumnMajorKHR and the ARM blocked-interleaved layouts need one, it is
// an integer, and the ARM layouts need the CooperativeMatrixLayoutsARM
// capability and a constant Stride of 1, 2 or 4 that the matrix's rows
// and columns fit.
func (s *state) coopMatStride(i int, in *spirv.Instruction, o coopMatOperands) bool {
	layout, known := s.constUint(in.Words[o.layout])
	arm := known && (layout == uint64(spirv.CooperativeMatrixLayoutRowBlockedInterleavedARM) ||
		layout == uint64(spirv.CooperativeMatrixLayoutColumnBlockedInterleavedARM))
	if arm && !s.caps.has(spirv.CapabilityCooperativeMatrixLayoutsARM) {
		return s.fail(i, "", "Using the RowBlockedInterleavedARM or ColumnBlockedInterleavedARM MemoryLayout requires the CooperativeMatrixLayoutsARM capability be declared")
	}
	required := arm || known && (layout == uint64(spirv.CooperativeMatrixLayoutRowMajorKHR) ||
		layout == uint64(spirv.CooperativeMatrixLayoutColumnMajorKHR))
	if o.stride >= len(in.Words) {
		if required {
			return s.fail(i, "", "MemoryLayout %d requires a Stride.", layout)
		}
		return false
	}
	stride := in.Words[o.stride]
	sj := s.defInst(stride)
	if sj < 0 || !s.isIntScalar(s.m.Inst(sj).TypeID) {
		return s.fail(i, "", "Stride operand <id> %s must be a scalar integer type.", s.idName(stride))
	}
	if !arm {
		return false
	}
	if !isConstantOp(s.m.Opcode(sj)) {
		return s.fail(i, "", "MemoryLayout %d requires Stride come from a constant instruction.", layout)
	}
	if v, ok := s.constUint(stride); ok {
		return s.coopMatARMShape(i, o.objType, layout, v)
	}
	return false
}

// coopMatARMShape checks an ARM blocked-interleaved layout's Stride
// value and the matrix's rows and columns against it: rows a multiple of
// 4 and columns of 16 bytes' worth of components, the one the layout
// interleaves multiplied by the Stride.
func (s *state) coopMatARMShape(i int, matrix uint32, layout, stride uint64) bool {
	if stride != 1 && stride != 2 && stride != 4 {
		return s.fail(i, "", "MemoryLayout %d requires Stride be 1, 2, or 4.", layout)
	}
	mt := s.m.Inst(s.defInst(matrix))
	if len(mt.Words) < 6 {
		return false
	}
	rows, _ := s.constUint(mt.Words[4])
	cols, _ := s.constUint(mt.Words[5])
	bytes := uint64(s.bitWidth(mt.Words[2]) / 8)
	if bytes == 0 || bytes > 16 {
		return false // sub-byte components: spirv-val divides by zero here
	}
	rowMul, colMul := uint64(4), 16/bytes
	if layout == uint64(spirv.CooperativeMatrixLayoutRowBlockedInterleavedARM) {
		colMul *= stride
	} else {
		rowMul *= stride
	}
	if rows != 0 && rows%rowMul != 0 {
		return s.fail(i, "", "MemoryLayout %d with a Stride of %d requires that the number of rows be a multiple of %d", layout, stride, rowMul)
	}
	if cols != 0 && cols%colMul != 0 {
		return s.fail(i, "", "MemoryLayout %d with a Stride of %d requires that the number of columns be a multiple of %d", layout, stride, colMul)
	}
	return false
}

// coopMatSpecStrict holds the SPV_KHR_cooperative_matrix rules that
// spirv-val is looser about, for Options.SpecStrict: the type's Scope,
// Rows, Columns and Use are 32-bit integers (spirv-val takes any width)
// and a known Use is a Cooperative Matrix Use; OpCooperativeMatrixMulAddKHR's
// Result Type has the MatrixAccumulatorKHR Use; a known RowMajorKHR or
// ColumnMajorKHR Stride is greater than 0 for a store and not negative
// for a load; and with the Shader capability a load's or store's Pointer
// points into an array.
func (s *state) coopMatSpecStrict(i int, in *spirv.Instruction) bool {
	var msg string
	switch in.Opcode {
	case spirv.OpTypeCooperativeMatrixKHR:
		msg = s.coopMatTypeStrict(in)
	case spirv.OpCooperativeMatrixMulAddKHR:
		if u, ok := s.coopMatUse(in.TypeID); ok && u != uint32(spirv.CooperativeMatrixUseMatrixAccumulatorKHR) {
			msg = "OpCooperativeMatrixMulAddKHR Result Type must have the MatrixAccumulatorKHR Use"
		}
	case spirv.OpCooperativeMatrixLoadKHR, spirv.OpCooperativeMatrixStoreKHR:
		if msg = s.coopMatStrideStrict(in); msg == "" {
			msg = s.coopMatPointerStrict(in)
		}
	}
	if msg == "" {
		return false
	}
	return s.fail(i, "", "%s%s", msg, msgStrictSuffix)
}

// coopMatTypeStrict checks the widths of the type's operands and the
// value of its Use.
func (s *state) coopMatTypeStrict(in *spirv.Instruction) string {
	if len(in.Words) < 7 {
		return ""
	}
	for k, what := range [...]string{"Scope", "Rows", "Columns", "Use"} {
		if id := in.Words[3+k]; !s.isConstInt32(id) {
			return fmt.Sprintf("OpTypeCooperativeMatrixKHR %s <id> %s must be a constant instruction with scalar 32-bit integer type", what, s.idName(id))
		}
	}
	if u, ok := s.constUint(in.Words[6]); ok && u > uint64(spirv.CooperativeMatrixUseMatrixAccumulatorKHR) {
		return fmt.Sprintf("OpTypeCooperativeMatrixKHR Use %d is not a Cooperative Matrix Use", u)
	}
	return ""
}

// coopMatStrideStrict checks a known Stride of the RowMajorKHR and
// ColumnMajorKHR layouts.
func (s *state) coopMatStrideStrict(in *spirv.Instruction) string {
	o, ok := s.coopMatLoadStoreOperands(in)
	if !ok || o.stride >= len(in.Words) {
		return ""
	}
	layout, ok := s.constUint(in.Words[o.layout])
	if !ok || layout != uint64(spirv.CooperativeMatrixLayoutRowMajorKHR) && layout != uint64(spirv.CooperativeMatrixLayoutColumnMajorKHR) {
		return ""
	}
	stride, ok := s.constInt64(in.Words[o.stride])
	if !ok {
		return ""
	}
	if t := s.typeOf(s.typeOfValue(in.Words[o.stride])); t != nil && !t.Signed && stride < 0 {
		return "" // an unsigned Stride's value is never negative
	}
	switch {
	case in.Opcode == spirv.OpCooperativeMatrixStoreKHR && stride <= 0:
		return fmt.Sprintf("OpCooperativeMatrixStoreKHR Stride must be greater than 0 with MemoryLayout %d, not %d", layout, stride)
	case in.Opcode == spirv.OpCooperativeMatrixLoadKHR && stride < 0:
		return fmt.Sprintf("OpCooperativeMatrixLoadKHR Stride must not be negative with MemoryLayout %d, not %d", layout, stride)
	}
	return ""
}

// coopMatPointerStrict is the rule that, when the Shader capability is
// declared, a load's or store's Pointer "must point into an array": the
// pointer an access chain makes (through OpCopyObject) must have its last
// index select an array or runtime array element, or be an
// OpPtrAccessChain's array step; a whole variable does not. A pointer the
// module does not make in view (a parameter, a phi or select, an untyped
// chain) is not judged.
func (s *state) coopMatPointerStrict(in *spirv.Instruction) string {
	o, ok := s.coopMatLoadStoreOperands(in)
	if !s.caps.has(spirv.CapabilityShader) || !ok || o.pointer >= len(in.Words) {
		return ""
	}
	ptr := in.Words[o.pointer]
	id := ptr
	for range 64 { // a chain of copies; longer ones are not judged
		j, ok := s.x.Def(id)
		if !ok {
			return ""
		}
		d := s.m.Inst(j)
		switch d.Opcode {
		case spirv.OpCopyObject:
			if len(d.Words) < 4 {
				return ""
			}
			id = d.Words[3]
			continue
		case spirv.OpVariable:
		case spirv.OpAccessChain, spirv.OpInBoundsAccessChain:
			if s.lastIndexIntoArray(d.Words[3], d.Words[4:]) != 0 {
				return ""
			}
		case spirv.OpPtrAccessChain, spirv.OpInBoundsPtrAccessChain:
			if len(d.Words) < 5 || s.lastIndexIntoArray(d.Words[3], d.Words[5:]) != 0 {
				return "" // with no further index, Element steps through an array
			}
		default:
			return ""
		}
		return fmt.Sprintf("Op%s Pointer <id> %s must point into an array when the Shader capability is declared", opName(in.Opcode), s.idName(ptr))
	}
	return ""
}

// lastIndexIntoArray walks a typed access chain's indexes from base's
// pointee and reports whether the last one selects an array or runtime
// array element (1), something else (0), or cannot be told (-1, also for
// no index at all).
func (s *state) lastIndexIntoArray(base uint32, idx []uint32) int {
	if len(idx) == 0 {
		return -1
	}
	pt := s.typeOf(s.typeOfValue(base))
	if pt == nil || pt.Kind != spirv.TypePointer {
		return -1
	}
	t := s.typeOf(pt.Elem)
	for k, ix := range idx {
		if t == nil {
			return -1
		}
		last := k == len(idx)-1
		switch t.Kind {
		case spirv.TypeArray, spirv.TypeRuntimeArray:
			if last {
				return 1
			}
			t = s.typeOf(t.Elem)
		case spirv.TypeStruct:
			m, ok := s.constUint(ix)
			if !ok || m >= uint64(len(t.Members)) {
				return -1
			}
			if last {
				return 0
			}
			t = s.typeOf(t.Members[m])
		case spirv.TypeVector, spirv.TypeMatrix:
			if last {
				return 0
			}
			t = s.typeOf(t.Elem)
		default:
			return -1
		}
	}
	return -1
}
