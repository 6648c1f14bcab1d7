package val

import (
	"fmt"

	"spvx/spirv"
)

// This file holds validate_builtins.cpp's rules for the MeshEXT output
// built-ins (PrimitivePointIndicesEXT, PrimitiveLineIndicesEXT,
// PrimitiveTriangleIndicesEXT, CullPrimitiveEXT) and the per-primitive
// rules every per-primitive built-in (those, Layer, ViewportIndex,
// PrimitiveId) obeys in a MeshEXT function (ValidateMeshBuiltinInterface-
// Rules): an array sized by the entry point's OutputPrimitivesEXT (or a
// Block struct inside one), decorated PerPrimitiveEXT, and an index array
// matching the output topology mode. All are Vulkan rules.

// meshBuiltinVUIDs are GetVUIDForBuiltin's execution model, storage
// class and type VUID numbers of the mesh output built-ins.
var meshBuiltinVUIDs = map[spirv.BuiltIn][3]int{
	spirv.BuiltInPrimitivePointIndicesEXT:    {7041, 7043, 7044},
	spirv.BuiltInPrimitiveLineIndicesEXT:     {7047, 7049, 7050},
	spirv.BuiltInPrimitiveTriangleIndicesEXT: {7053, 7055, 7056},
	spirv.BuiltInCullPrimitiveEXT:            {7034, 7035, 7036},
}

// perPrimitiveVUIDs are the VUID numbers of the per-primitive rules:
// the type, the array size, the block array size, the decoration.
// PrimitiveId's first three have no name yet (spirv-val prints none).
var perPrimitiveVUIDs = map[spirv.BuiltIn][4]int{
	spirv.BuiltInCullPrimitiveEXT: {7036, 10589, 10590, 7038},
	spirv.BuiltInPrimitiveId:      {0, 0, 0, 7040},
	spirv.BuiltInLayer:            {10592, 10593, 10594, 7039},
	spirv.BuiltInViewportIndex:    {10601, 10602, 10603, 7060},
}

// meshBuiltinAtDefinition is ValidateMeshShadingEXTBuiltinsAtDefinition;
// ok is false for other built-ins.
func (s *state) meshBuiltinAtDefinition(b spirv.BuiltIn, j, member int, seed func(biKind) bool) (stop, ok bool) {
	vuids, ok := meshBuiltinVUIDs[b]
	if !ok {
		return false, false
	}
	var p, what string
	switch b {
	case spirv.BuiltInPrimitivePointIndicesEXT:
		p, what = s.meshIndexProblem(j, member, 0), "32-bit int array."
	case spirv.BuiltInPrimitiveLineIndicesEXT:
		p, what = s.meshIndexProblem(j, member, 2), "2-component 32-bit int array."
	case spirv.BuiltInPrimitiveTriangleIndicesEXT:
		p, what = s.meshIndexProblem(j, member, 3), "3-component 32-bit int array."
	case spirv.BuiltInCullPrimitiveEXT:
		if s.cullPrimitiveTwice(j) {
			return true, true
		}
	}
	if p == failedType {
		return true, true
	}
	if p != "" {
		return s.failStop(j, s.simpleVUID(b, vuids[2]), "According to the Vulkan spec BuiltIn %s variable needs to be a %s%s", builtinName(b), what, p), true
	}
	return seed(biMeshIface) || seed(biMeshOutput), true
}

// failedType is meshIndexProblem's answer when underlyingType recorded
// an error.
const failedType = "\x00"

// meshIndexProblem is ValidateI32Arr (n = 0) and ValidateArrayedI32Vec
// (n components).
func (s *state) meshIndexProblem(j, member int, n uint32) string {
	t, failed := s.underlyingType(j, member)
	if failed {
		return failedType
	}
	desc := s.defDesc(j, member)
	if s.typeOp(t) != spirv.OpTypeArray {
		return desc + " is not an array."
	}
	c := s.typeWord(t, 2)
	if n == 0 {
		return s.i32ComponentProblem(desc, c)
	}
	if !s.isIntVector(c) {
		return desc + " is not an int vector."
	}
	if d := s.dimension(c); d != n {
		return fmt.Sprintf("%s has %d components.", desc, d)
	}
	if w := s.bitWidth(c); w != 32 {
		return fmt.Sprintf("%s has components with bit width %d.", desc, w)
	}
	return ""
}

// i32ComponentProblem is ValidateI32Arr's component check.
func (s *state) i32ComponentProblem(desc string, c uint32) string {
	if !s.isIntScalar(c) {
		return desc + " components are not int scalar."
	}
	if w := s.bitWidth(c); w != 32 {
		return fmt.Sprintf("%s has components with bit width %d.", desc, w)
	}
	return ""
}

// meshEntries is IsMeshInterfaceVar: the mesh entry points (by function,
// ascending) whose interfaces hold the built-in defined at j, a variable
// or the struct under an interface variable's arrays.
func (s *state) meshEntries(j int) []meshEPVar {
	in := s.m.Inst(j)
	ms := s.getMeshShared()
	if in.Opcode == spirv.OpTypeStruct {
		return ms.byStruct[in.ResultID]
	}
	return ms.byVar[in.ResultID]
}

// cullPrimitiveTwice is the one-CullPrimitiveEXT-per-entry-point check:
// spirv-val walks the OpEntryPoints in module order, across all
// CullPrimitiveEXT decorations, and fails at the first one whose mesh
// function holding the built-in was seen before. So the failing
// OpEntryPoint is, among the functions holding this one, a seen
// function's first OpEntryPoint or an unseen one's second.
func (s *state) cullPrimitiveTwice(j int) bool {
	ms := s.getMeshShared()
	entries := s.meshEntries(j)
	fail, failAt := uint32(0), -1
	for _, e := range entries {
		pos := ms.epPos[e.ep]
		at := pos[1]
		if ms.cullSeen[e.ep] {
			at = pos[0]
		}
		if at >= 0 && (failAt < 0 || at < failAt) {
			fail, failAt = e.ep, at
		}
	}
	if failAt >= 0 {
		return s.failStop(j, s.simpleVUID(spirv.BuiltInCullPrimitiveEXT, 10591), "There must be only one declaration of the CullPrimitiveEXT associated in entry point's interface. ID <%d> (OpFunction)", fail)
	}
	for _, e := range entries {
		ms.cullSeen[e.ep] = true
	}
	return false
}

// meshOutputAtReference is ValidateMeshShadingEXTBuiltinsAtReference:
// Output storage, MeshEXT only.
func (s *state) meshOutputAtReference(r biRule, i int, in *spirv.Instruction, fnID uint32, models uint64, bj, rj int) bool {
	vuids := meshBuiltinVUIDs[r.builtin]
	name := builtinName(r.builtin)
	if sc, ok := s.storageClassOf(in); ok && sc != spirv.StorageClassOutput {
		return s.failStop(i, s.simpleVUID(r.builtin, vuids[1]), "Vulkan spec allows BuiltIn %s to be only used for variables with Output storage class. %s %s",
			name, s.refDesc(r.builtin, bj, rj, i, -1, fnID), s.storageDesc(in, i))
	}
	if m, found := firstModel(models &^ mbMeshEXT); found {
		return s.failStop(i, s.simpleVUID(r.builtin, vuids[0]), "Vulkan spec allows BuiltIn %s to be used only with MeshEXT execution model. %s",
			name, s.refDesc(r.builtin, bj, rj, i, int64(m), fnID))
	}
	return false
}

// perPrimitiveVUID names per-primitive VUID n of b ("" for 0).
func (s *state) perPrimitiveVUID(b spirv.BuiltIn, n int) string {
	if n == 0 {
		return ""
	}
	return s.simpleVUID(b, n)
}

// meshIfaceAtReference is ValidateMeshBuiltinInterfaceRules, in a
// function called from a MeshEXT entry point. Its errors are at the
// built-in's definition.
func (s *state) meshIfaceAtReference(r biRule, fnID uint32, models uint64, bj int) bool {
	if fnID == 0 || models&mbMeshEXT == 0 {
		return false
	}
	switch r.builtin {
	case spirv.BuiltInPrimitivePointIndicesEXT, spirv.BuiltInPrimitiveLineIndicesEXT, spirv.BuiltInPrimitiveTriangleIndicesEXT:
		return s.meshTopology(r, bj)
	}
	vuids, ok := perPrimitiveVUIDs[r.builtin]
	if !ok {
		return false
	}
	name := builtinName(r.builtin)
	scalar := "TypeInt"
	if r.builtin == spirv.BuiltInCullPrimitiveEXT {
		scalar = "TypeBool"
	}
	p, isBlock := s.blockOrArrayedProblem(r, bj, scalar == "TypeBool")
	if p == failedType {
		return true
	}
	if p != "" {
		return s.failStop(bj, s.perPrimitiveVUID(r.builtin, vuids[0]), "According to the Vulkan specspec BuiltIn %s variable needs to be a either a %s or an array of %s. %s", name, scalar, scalar, p)
	}
	id := s.m.Inst(bj).ResultID
	if !s.decorations().has(id, spirv.DecorationPerPrimitiveEXT) {
		return s.failStop(bj, s.simpleVUID(r.builtin, vuids[3]), "According to the Vulkan spec the variable decorated with Builtin %s within the MeshEXT Execution Model must also be decorated with the PerPrimitiveEXT decoration. ", name)
	}
	for _, e := range s.meshEntries(bj) {
		size, prims := s.meshArrayLength(e.v), s.getMeshShared().fnModes[e.ep].primitives
		if size != prims {
			n := vuids[1]
			if isBlock {
				n = vuids[2]
			}
			return s.failStop(bj, s.perPrimitiveVUID(r.builtin, n), " The size of the array decorated with %s (%d) must match the value specified by OutputPrimitivesEXT (%d). ", name, size, prims)
		}
	}
	return false
}

// blockOrArrayedProblem is ValidateBlockTypeOrArrayedType: an array (of
// constant length) of the scalar, or the scalar in a Block.
func (s *state) blockOrArrayedProblem(r biRule, bj int, boolean bool) (p string, isBlock bool) {
	t, failed := s.underlyingType(bj, r.member)
	if failed {
		return failedType, true
	}
	desc := s.defDesc(bj, r.member)
	if s.typeOp(t) == spirv.OpTypeArray {
		if _, ok := s.constInt64(s.typeWord(t, 3)); !ok {
			return desc + " Failed to find the array length.", false
		}
		t, isBlock = s.typeWord(t, 2), false
	} else if isBlock = true; !s.decorations().has(s.m.Inst(bj).ResultID, spirv.DecorationBlock) {
		return desc + " Scalar boolean must be in a Block.", true
	}
	switch {
	case boolean && !s.isBoolScalar(t):
		return desc + " is not a bool scalar.", isBlock
	case !boolean && !s.isIntScalar(t):
		return desc + " is not an integer scalar.", isBlock
	}
	return "", isBlock
}

// meshArrayLength is GetArrayLength: the length of the array variable v
// points to; all ones when v is no variable or its type no array, 0 when
// the length is not a constant.
func (s *state) meshArrayLength(v uint32) uint64 {
	j, ok := s.x.Def(v)
	if !ok || s.m.Opcode(j) != spirv.OpVariable {
		return ^uint64(0)
	}
	pt := s.m.Inst(j).TypeID
	if s.typeOp(pt) != spirv.OpTypePointer {
		return 0
	}
	t := s.typeWord(pt, 3)
	if s.typeOp(t) != spirv.OpTypeArray {
		return ^uint64(0)
	}
	l, ok := s.constUint(s.typeWord(t, 3))
	if !ok {
		return 0
	}
	return l
}

// meshTopology is the index built-ins' part of ValidateMeshBuiltin-
// InterfaceRules: each mesh entry point holding one must declare the
// matching output mode, and an array of it must be OutputPrimitivesEXT
// long.
func (s *state) meshTopology(r biRule, bj int) bool {
	name := builtinName(r.builtin)
	for _, e := range s.meshEntries(bj) {
		modes := s.getMeshShared().fnModes[e.ep]
		t, failed := s.underlyingType(bj, r.member)
		if failed {
			return true
		}
		var dim uint64
		if s.typeOp(t) == spirv.OpTypeArray {
			dim, _ = s.constUint(s.typeWord(t, 3))
		}
		mode, has, modeN, sizeN := "OutputTrianglesEXT", modes.triangles, 7054, 7058
		switch r.builtin {
		case spirv.BuiltInPrimitiveLineIndicesEXT:
			mode, has, modeN, sizeN = "OutputLinesEXT", modes.lines, 7048, 7052
		case spirv.BuiltInPrimitivePointIndicesEXT:
			mode, has, modeN, sizeN = "OutputPoints", modes.points, 7042, 7046
		}
		if !has {
			return s.failStop(bj, s.simpleVUID(r.builtin, modeN), "The %s decoration must be used with the %s Execution Mode. ", name, mode)
		}
		if dim != 0 && dim != modes.primitives {
			return s.failStop(bj, s.simpleVUID(r.builtin, sizeN), "The size of the array decorated with %s (%d) must match the value specified by OutputPrimitivesEXT (%d). ", name, dim, modes.primitives)
		}
	}
	return false
}
