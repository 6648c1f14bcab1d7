package val

import (
	"fmt"

	"spvx/spirv"
)

// SPV_INTEL_subgroup_matrix_multiply_accumulate (DPAS) and
// SPV_INTEL_2d_block_io. spirv-val (v2026.4) checks nothing of either
// beyond the grammar's capability gating, so every rule here is the
// extension text's and runs under Options.SpecStrict (listed in
// specstrict.go's header):
//
// OpSubgroupMatrixMultiplyAccumulateINTEL: Result Type, Matrix A, B and
// C are scalars or vectors of floating-point or integer type; K Dim comes
// from a constant instruction with scalar 32-bit integer type; and the
// Matrix Multiply Accumulate Operands follow the operand table's notes:
// the signed, packed-integer and packed-float bits of A (B) only with an
// integer A (B), the TF32 bits only with a 32-bit float one.
//
// The 2D block loads, prefetch and store: Block Width, Block Height and
// Block Count are constant instructions with scalar 32-bit integer type;
// the memory base pointer (Src Base, Dst Base) points to CrossWorkgroup,
// the per-invocation pointer (Dst, Src) to Function, and
// LoadTransform's Dst Pointer, when typed, to a scalar 32-bit integer;
// Memory Width, Height and Pitch are integer scalars; Coordinate is a
// vector of two integers; and the Restrictions section's Element Size of
// 1, 2, 4 or 8 bytes, with a Block Width that is a multiple of four for
// 1-byte and of two for 2-byte elements (when both are constants).

const msgStrictSuffix = " (spec-strict)"

// intelMatrixPass applies the rules to in; spec-strict only.
func (s *state) intelMatrixPass(i int, in *spirv.Instruction) bool {
	var msg string
	switch in.Opcode {
	case spirv.OpSubgroupMatrixMultiplyAccumulateINTEL:
		msg = s.dpas(in)
	case spirv.OpSubgroup2DBlockLoadINTEL, spirv.OpSubgroup2DBlockLoadTransformINTEL,
		spirv.OpSubgroup2DBlockLoadTransposeINTEL, spirv.OpSubgroup2DBlockPrefetchINTEL,
		spirv.OpSubgroup2DBlockStoreINTEL:
		msg = s.block2D(in)
	}
	if msg == "" {
		return false
	}
	return s.fail(i, "", "%s%s", msg, msgStrictSuffix)
}

// isNumScalarOrVector: t is a scalar or vector of float or integer type.
func (s *state) isNumScalarOrVector(t uint32) bool {
	return s.isIntScalarOrVector(t) || s.isFloatScalarOrVector(t)
}

// dpas checks OpSubgroupMatrixMultiplyAccumulateINTEL (words: type,
// result, K Dim, A, B, C, optional operands).
func (s *state) dpas(in *spirv.Instruction) string {
	const name = "OpSubgroupMatrixMultiplyAccumulateINTEL"
	if len(in.Words) < 7 {
		return ""
	}
	if !s.isNumScalarOrVector(in.TypeID) {
		return name + " Result Type must be a scalar or vector of floating-point or integer type"
	}
	if k := in.Words[3]; !s.isConstInt32(k) {
		return fmt.Sprintf("%s K Dim <id> %s must come from a constant instruction with scalar 32-bit integer type", name, s.idName(k))
	}
	for n, what := range [...]string{"Matrix A", "Matrix B", "Matrix C"} {
		if id := in.Words[4+n]; !s.isNumScalarOrVector(s.typeOfValue(id)) {
			return fmt.Sprintf("%s %s <id> %s must be a scalar or vector of floating-point or integer type", name, what, s.idName(id))
		}
	}
	if len(in.Words) > 7 {
		return s.dpasOperands(in.Words[7], in.Words[4], in.Words[5])
	}
	return ""
}

// The Matrix Multiply Accumulate Operands bits, per matrix.
const (
	dpasASigned, dpasBSigned         = 0x1, 0x2
	dpasAPackedInt8, dpasBPackedInt8 = 0x10, 0x20
	dpasAPackedInt4, dpasBPackedInt4 = 0x40, 0x80
	dpasATF32, dpasBTF32             = 0x100, 0x200
	dpasAPackedF16, dpasBPackedF16   = 0x400, 0x800
	dpasAPackedBF16, dpasBPackedBF16 = 0x1000, 0x2000

	dpasAIntOnly = dpasASigned | dpasAPackedInt8 | dpasAPackedInt4 | dpasAPackedF16 | dpasAPackedBF16
	dpasBIntOnly = dpasBSigned | dpasBPackedInt8 | dpasBPackedInt4 | dpasBPackedF16 | dpasBPackedBF16
)

// dpasOperands checks the operand bits against Matrix A's and B's
// component types.
func (s *state) dpasOperands(ops, a, b uint32) string {
	for _, m := range [...]struct {
		what          string
		id            uint32
		intOnly, tf32 uint32
	}{{"Matrix A", a, dpasAIntOnly, dpasATF32}, {"Matrix B", b, dpasBIntOnly, dpasBTF32}} {
		comp := s.plainComponentType(s.typeOfValue(m.id))
		if ops&m.intOnly != 0 && !s.isIntScalar(comp) {
			return fmt.Sprintf("Matrix Multiply Accumulate Operands 0x%x: the signed and packed interpretations of %s are only valid for an integer %s", ops, m.what, m.what)
		}
		if ops&m.tf32 != 0 && !s.isFloatN(comp, 32) {
			return fmt.Sprintf("Matrix Multiply Accumulate Operands 0x%x: the TF32 interpretation of %s is only valid for a 32-bit float %s", ops, m.what, m.what)
		}
	}
	return ""
}

// isConstInt32: id comes from a constant instruction (spec constants
// included) of scalar 32-bit integer type.
func (s *state) isConstInt32(id uint32) bool {
	return s.isConstInt(id) && s.isIntN(s.typeOfValue(id), 32)
}

// block2DOperands are the word positions of a 2D block instruction's
// operands; a position of 0 is an operand the instruction lacks.
type block2DOperands struct {
	base, local                int // the 2D region's pointer and the per-invocation one
	baseName, localName        string
	width, height, pitch, coor int
}

func block2DLayout(op spirv.Opcode) block2DOperands {
	switch op {
	case spirv.OpSubgroup2DBlockStoreINTEL:
		return block2DOperands{base: 6, local: 5, baseName: "Dst Base Pointer", localName: "Src Pointer", width: 7, height: 8, pitch: 9, coor: 10}
	case spirv.OpSubgroup2DBlockPrefetchINTEL:
		return block2DOperands{base: 5, baseName: "Src Base Pointer", width: 6, height: 7, pitch: 8, coor: 9}
	}
	return block2DOperands{base: 5, local: 10, baseName: "Src Base Pointer", localName: "Dst Pointer", width: 6, height: 7, pitch: 8, coor: 9}
}

// block2D checks a 2D block load, prefetch or store, its operands in
// order.
func (s *state) block2D(in *spirv.Instruction) string {
	name := in.Opcode.String()
	o := block2DLayout(in.Opcode)
	if len(in.Words) <= o.coor || o.local > 0 && len(in.Words) <= o.local {
		return ""
	}
	for n, what := range [...]string{"Block Width", "Block Height", "Block Count"} {
		if id := in.Words[2+n]; !s.isConstInt32(id) {
			return fmt.Sprintf("%s %s <id> %s must be a constant instruction with scalar 32-bit integer type", name, what, s.idName(id))
		}
	}
	if o.local > 0 && o.local < o.base { // the store's Src Pointer comes first
		if msg := s.block2DLocal(in, name, o); msg != "" {
			return msg
		}
	}
	if msg := s.block2DPointer(name, o.baseName, in.Words[o.base], spirv.StorageClassCrossWorkgroup); msg != "" {
		return msg
	}
	for n, what := range [...]string{"Memory Width", "Memory Height", "Memory Pitch"} {
		if id := in.Words[o.width+n]; !s.isIntScalar(s.typeOfValue(id)) {
			return fmt.Sprintf("%s %s <id> %s must be an integer type scalar", name, what, s.idName(id))
		}
	}
	if id := in.Words[o.coor]; !s.isIntVector(s.typeOfValue(id)) || s.dimension(s.typeOfValue(id)) != 2 {
		return fmt.Sprintf("%s Coordinate <id> %s must be a vector of two integer type components", name, s.idName(id))
	}
	if o.local > o.base {
		if msg := s.block2DLocal(in, name, o); msg != "" {
			return msg
		}
	}
	return s.block2DRestrictions(in, name)
}

// block2DLocal checks the per-invocation pointer: Function storage, and
// for LoadTransform a typed pointer's pointee a scalar 32-bit integer.
func (s *state) block2DLocal(in *spirv.Instruction, name string, o block2DOperands) string {
	id := in.Words[o.local]
	if msg := s.block2DPointer(name, o.localName, id, spirv.StorageClassFunction); msg != "" {
		return msg
	}
	if in.Opcode == spirv.OpSubgroup2DBlockLoadTransformINTEL {
		if t := s.pointerTypeOf(id); t.Op == spirv.OpTypePointer && !s.isIntN(t.Elem, 32) {
			return fmt.Sprintf("%s Dst Pointer <id> %s must point to a scalar 32-bit integer type", name, s.idName(id))
		}
	}
	return ""
}

// block2DPointer checks that id is a pointer to storage class sc.
func (s *state) block2DPointer(name, what string, id uint32, sc spirv.StorageClass) string {
	t := s.pointerTypeOf(id)
	if t == nil || t.Op != spirv.OpTypePointer && t.Op != spirv.OpTypeUntypedPointerKHR || s.storageOf(t) != sc {
		return fmt.Sprintf("%s %s <id> %s must be a pointer to the %s storage class", name, what, s.idName(id), storageClassName(sc))
	}
	return ""
}

// block2DRestrictions is the Restrictions section's Element Size and
// Block Width rule, for constant values.
func (s *state) block2DRestrictions(in *spirv.Instruction, name string) string {
	size, ok := s.constUint(in.Words[1])
	if !ok {
		return ""
	}
	if size != 1 && size != 2 && size != 4 && size != 8 {
		return fmt.Sprintf("%s Element Size must be 1, 2, 4, or 8 bytes, not %d", name, size)
	}
	width, ok := s.constUint(in.Words[2])
	if !ok || size > 2 {
		return ""
	}
	if mul := 4 / size; width%mul != 0 {
		return fmt.Sprintf("%s Block Width must be a multiple of %d for %d-byte elements, not %d", name, mul, size, width)
	}
	return ""
}
