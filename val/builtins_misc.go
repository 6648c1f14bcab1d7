package val

import (
	"fmt"

	"spvx/spirv"
)

// This file holds validate_builtins.cpp's rules for the rarer built-ins,
// all Vulkan rules: BaseInstance, BaseVertex, DrawIndex, ViewIndex,
// DeviceIndex, PointCoord, SamplePosition, BaryCoordKHR,
// BaryCoordNoPerspKHR, FragInvocationCountEXT, FragSizeEXT,
// FragStencilRefEXT, FullyCoveredEXT, ShadingRateKHR, SampleMask (Input
// or Output), PrimitiveShadingRateKHR (whose type rules are the mesh
// per-primitive ones in MeshEXT, a 32-bit int elsewhere), the QCOM tile
// built-ins, the SM and core built-ins of NV and
// ARM (CoreIDARM ... SMIDNV), and VertexId, which Vulkan forbids. Each has one type, one storage class, and (but for
// DeviceIndex and the SM built-ins) a set of execution models it may or,
// for ViewIndex, may not be used with; the type is checked at the
// definition, the rest at every reference, as builtins.go does.

// The reference rule kinds of this file's built-ins.
const (
	biMisc     biKind = 128 + iota // the table's built-ins
	biPSR                          // PrimitiveShadingRateKHR
	biPSRIface                     // its 32-bit int type outside MeshEXT
)

// The types of the rarer built-ins.
const (
	miscI32    = iota // 32-bit int scalar (ValidateI32)
	miscInt           // any int scalar (ValidateI)
	miscBool          // bool scalar
	miscF32Vec        // n-component 32-bit float vector
	miscI32Vec        // n-component 32-bit int vector
	miscU32Vec        // n-component 32-bit unsigned int vector (ValidateU32Vec)
	miscI32Arr        // array of 32-bit ints (ValidateI32Arr)
	miscBanned        // not allowed at all (VertexId)
)

// miscBuiltin is one rarer built-in: its type, storage class, the models
// it may be used with (0: any) or, notModels, may not, the message's text
// for them, and its model, storage class and type VUID numbers (0: none).
// inOut allows Output besides sc (Input).
type miscBuiltin struct {
	typ       uint8
	n         uint32
	sc        spirv.StorageClass
	inOut     bool
	models    uint64
	notModels uint64
	modelText string
	vuids     [3]int
}

const (
	fragOnly   = "Fragment execution model"
	drawModels = mbVertex | mbMeshNV | mbTaskNV | mbMeshEXT | mbTaskEXT
)

var miscBuiltins = map[spirv.BuiltIn]miscBuiltin{
	spirv.BuiltInBaseInstance:           {miscI32, 0, spirv.StorageClassInput, false, mbVertex, 0, "Vertex execution model", [3]int{4181, 4182, 4183}},
	spirv.BuiltInBaseVertex:             {miscI32, 0, spirv.StorageClassInput, false, mbVertex, 0, "Vertex execution model", [3]int{4184, 4185, 4186}},
	spirv.BuiltInDrawIndex:              {miscI32, 0, spirv.StorageClassInput, false, drawModels, 0, "Vertex, MeshNV, TaskNV , MeshEXT or TaskEXT execution model", [3]int{4207, 4208, 4209}},
	spirv.BuiltInViewIndex:              {miscI32, 0, spirv.StorageClassInput, false, 0, mbGLCompute, "GLCompute execution model", [3]int{4401, 4402, 4403}},
	spirv.BuiltInDeviceIndex:            {miscI32, 0, spirv.StorageClassInput, false, 0, 0, "", [3]int{0, 4205, 4206}},
	spirv.BuiltInPointCoord:             {miscF32Vec, 2, spirv.StorageClassInput, false, mbFragment, 0, fragOnly, [3]int{4311, 4312, 4313}},
	spirv.BuiltInSamplePosition:         {miscF32Vec, 2, spirv.StorageClassInput, false, mbFragment, 0, fragOnly, [3]int{4360, 4361, 4362}},
	spirv.BuiltInBaryCoordKHR:           {miscF32Vec, 3, spirv.StorageClassInput, false, mbFragment, 0, fragOnly, [3]int{4154, 4155, 4156}},
	spirv.BuiltInBaryCoordNoPerspKHR:    {miscF32Vec, 3, spirv.StorageClassInput, false, mbFragment, 0, fragOnly, [3]int{4160, 4161, 4162}},
	spirv.BuiltInFragInvocationCountEXT: {miscI32, 0, spirv.StorageClassInput, false, mbFragment, 0, fragOnly, [3]int{4217, 4218, 4219}},
	spirv.BuiltInFragSizeEXT:            {miscI32Vec, 2, spirv.StorageClassInput, false, mbFragment, 0, fragOnly, [3]int{4220, 4221, 4222}},
	spirv.BuiltInFragStencilRefEXT:      {miscInt, 0, spirv.StorageClassOutput, false, mbFragment, 0, fragOnly, [3]int{4223, 4224, 4225}},
	spirv.BuiltInFullyCoveredEXT:        {miscBool, 0, spirv.StorageClassInput, false, mbFragment, 0, fragOnly, [3]int{4232, 4233, 4234}},
	spirv.BuiltInShadingRateKHR:         {miscI32, 0, spirv.StorageClassInput, false, mbFragment, 0, "the " + fragOnly, [3]int{4490, 4491, 4492}},
	spirv.BuiltInSampleMask:             {miscI32Arr, 0, spirv.StorageClassInput, true, mbFragment, 0, fragOnly, [3]int{4357, 4358, 4359}},
	spirv.BuiltInTileOffsetQCOM:         {miscU32Vec, 2, spirv.StorageClassInput, false, mbFragment | mbGLCompute, 0, "Fragment or GLCompute execution model", [3]int{10626, 10627, 10628}},
	spirv.BuiltInTileDimensionQCOM:      {miscU32Vec, 3, spirv.StorageClassInput, false, mbFragment | mbGLCompute, 0, "Fragment or GLCompute execution model", [3]int{10629, 10630, 10631}},
	spirv.BuiltInTileApronSizeQCOM:      {miscU32Vec, 2, spirv.StorageClassInput, false, mbFragment | mbGLCompute, 0, "Fragment or GLCompute execution model", [3]int{10632, 10633, 10634}},
	spirv.BuiltInVertexId:               {typ: miscBanned},
}

func init() {
	perPrimitiveVUIDs[spirv.BuiltInPrimitiveShadingRateKHR] = [4]int{10598, 10599, 10600, 7059}
	for _, b := range []spirv.BuiltIn{spirv.BuiltInCoreIDARM, spirv.BuiltInCoreCountARM, spirv.BuiltInCoreMaxIDARM,
		spirv.BuiltInWarpIDARM, spirv.BuiltInWarpMaxIDARM, spirv.BuiltInWarpsPerSMNV, spirv.BuiltInSMCountNV,
		spirv.BuiltInWarpIDNV, spirv.BuiltInSMIDNV} {
		miscBuiltins[b] = miscBuiltin{typ: miscI32, sc: spirv.StorageClassInput}
	}
}

// miscVUID names VUID n of built-in b ("" for 0).
func (s *state) miscVUID(b spirv.BuiltIn, n int) string {
	if n == 0 {
		return ""
	}
	return s.simpleVUID(b, n)
}

// miscBuiltinAtDefinition checks the type of one of this file's
// built-ins and seeds its reference rules; ok is false for others.
func (s *state) miscBuiltinAtDefinition(b spirv.BuiltIn, j, member int, seed func(biKind) bool) (stop, ok bool) {
	if b == spirv.BuiltInPrimitiveShadingRateKHR {
		return seed(biPSR), true // its type depends on the model: see psrAtReference
	}
	mb, ok := miscBuiltins[b]
	if !ok {
		return false, false
	}
	if mb.typ == miscBanned {
		return s.failStop(j, "", "Vulkan spec doesn't allow BuiltIn VertexId to be used."), true
	}
	t, failed := s.underlyingType(j, member)
	if failed {
		return true, true
	}
	desc := s.defDesc(j, member)
	var p, what string
	switch mb.typ {
	case miscI32:
		p, what = s.i32Problem(desc, t), "32-bit int scalar"
	case miscInt:
		what = "int scalar"
		if !s.isIntScalar(t) {
			p = desc + " is not an int scalar."
		}
	case miscBool:
		what = "bool scalar"
		if !s.isBoolScalar(t) {
			p = desc + " is not a bool scalar."
		}
	case miscF32Vec:
		p, what = s.f32VecProblem(desc, t, mb.n), fmt.Sprintf("%d-component 32-bit float vector", mb.n)
	case miscI32Vec:
		p, what = s.i32VecProblem(desc, t, mb.n), fmt.Sprintf("%d-component 32-bit int vector", mb.n)
	case miscI32Arr:
		p, what = s.i32ArrProblem(desc, t), "32-bit int array"
	case miscU32Vec:
		if p = s.u32VecProblem(desc, t, mb.n); p != "" {
			return s.failStop(j, s.miscVUID(b, mb.vuids[2]), "According to the Vulkan spec BuiltIn %s variable must be a %d-component 32-bit unsigned int vector. %s", builtinName(b), mb.n, p), true
		}
	}
	if p != "" {
		return s.failStop(j, s.miscVUID(b, mb.vuids[2]), "According to the %s spec BuiltIn %s variable needs to be a %s. %s", s.envLog(), builtinName(b), what, p), true
	}
	return seed(biMisc), true
}

// miscAtReference is the At*Reference check of this file's built-ins:
// the storage class, then the models of the entry points reaching the
// reference.
func (s *state) miscAtReference(r biRule, i int, in *spirv.Instruction, fnID uint32, models uint64, bj, rj int) bool {
	mb := miscBuiltins[r.builtin]
	name := builtinName(r.builtin)
	if sc, ok := s.storageClassOf(in); ok && sc != mb.sc && !(mb.inOut && sc == spirv.StorageClassOutput) {
		scText := storageClassName(mb.sc)
		if mb.inOut {
			scText = "Input or Output"
		}
		return s.failStop(i, s.miscVUID(r.builtin, mb.vuids[1]), "%s spec allows BuiltIn %s to be only used for variables with %s storage class. %s %s",
			s.envLog(), name, scText, s.refDesc(r.builtin, bj, rj, i, -1, fnID), s.storageDesc(in, i))
	}
	bad := models & mb.notModels
	verb := "to be not be used with"
	if mb.models != 0 {
		bad, verb = models&^mb.models, "to be used only with"
	}
	for k, b := 0, uint64(1); k < len(modelOfBit) && bad != 0; k, b = k+1, b<<1 {
		if bad&b != 0 {
			return s.failStop(i, s.miscVUID(r.builtin, mb.vuids[0]), "%s spec allows BuiltIn %s %s %s. %s",
				s.envLog(), name, verb, mb.modelText, s.refDesc(r.builtin, bj, rj, i, int64(modelOfBit[k]), fnID))
		}
	}
	return false
}

// i32ArrProblem is ValidateI32Arr's message: an array of 32-bit ints.
func (s *state) i32ArrProblem(desc string, t uint32) string {
	ty := s.typeOf(t)
	if ty == nil || ty.Op != spirv.OpTypeArray {
		return desc + " is not an array."
	}
	if !s.isIntScalar(ty.Elem) {
		return desc + " components are not int scalar."
	}
	if w := s.bitWidth(ty.Elem); w != 32 {
		return fmt.Sprintf("%s has components with bit width %d.", desc, w)
	}
	return ""
}

// u32VecProblem is ValidateU32Vec's message: an n-component vector of
// 32-bit unsigned ints.
func (s *state) u32VecProblem(desc string, t uint32, n uint32) string {
	if !s.isUintVector(t) {
		return desc + " is not an unsigned int vector."
	}
	if d := s.dimension(t); d != n {
		return fmt.Sprintf("%s has %d components.", desc, d)
	}
	if w := s.bitWidth(t); w != 32 {
		return fmt.Sprintf("%s has components with bit width %d.", desc, w)
	}
	return ""
}

// miscBuiltinAtReference is the At*Reference check of this file's rule
// kinds; ok is false for others.
func (s *state) miscBuiltinAtReference(r biRule, i int, in *spirv.Instruction, fnID uint32, models uint64, add func(biRule), bj, rj int) (stop, ok bool) {
	switch r.kind {
	case biMisc:
		return s.miscAtReference(r, i, in, fnID, models, bj, rj), true
	case biPSR:
		return s.psrAtReference(r, i, in, fnID, models, add, bj, rj), true
	case biPSRIface:
		return s.psrIfaceAtReference(r, fnID, models, bj), true
	}
	return false, false
}

// psrAtReference is ValidatePrimitiveShadingRateAtReference: an Output
// variable, of Vertex, Geometry or mesh shaders, whose type the
// interface rules check (per primitive in MeshEXT, a 32-bit int
// elsewhere).
func (s *state) psrAtReference(r biRule, i int, in *spirv.Instruction, fnID uint32, models uint64, add func(biRule), bj, rj int) bool {
	name := builtinName(r.builtin)
	if sc, ok := s.storageClassOf(in); ok && sc != spirv.StorageClassOutput {
		return s.failStop(i, s.simpleVUID(r.builtin, 4485), "Vulkan spec allows BuiltIn %s to be only used for variables with Output storage class. %s %s",
			name, s.refDesc(r.builtin, bj, rj, i, -1, fnID), s.storageDesc(in, i))
	}
	add(biRule{kind: biMeshIface, builtin: r.builtin, builtInID: r.builtInID, refID: in.ResultID, member: r.member})
	add(biRule{kind: biPSRIface, builtin: r.builtin, builtInID: r.builtInID, refID: in.ResultID, member: r.member})
	if m, found := firstModel(models &^ (mbVertex | mbGeometry | mbMeshNV | mbMeshEXT)); found {
		return s.failStop(i, s.simpleVUID(r.builtin, 4484), "Vulkan spec allows BuiltIn %s to be used only with Vertex, Geometry, MeshNV or MeshEXT execution models. %s",
			name, s.refDesc(r.builtin, bj, rj, i, int64(m), fnID))
	}
	return false
}

// psrIfaceAtReference is ValidatePrimitiveShadingRateInterfaceRules: in
// a function no MeshEXT entry point calls, a 32-bit int scalar. The error
// is at the built-in's definition.
func (s *state) psrIfaceAtReference(r biRule, fnID uint32, models uint64, bj int) bool {
	if fnID == 0 || models&mbMeshEXT != 0 {
		return false
	}
	t, failed := s.underlyingType(bj, r.member)
	if failed {
		return true
	}
	if p := s.i32Problem(s.defDesc(bj, r.member), t); p != "" {
		return s.failStop(bj, s.simpleVUID(r.builtin, 4486), "According to the Vulkan spec BuiltIn %s variable needs to be a 32-bit int scalar. %s", builtinName(r.builtin), p)
	}
	return false
}
