package val

import (
	"fmt"

	"spvx/spirv"
)

// This file holds validate_builtins.cpp's rules for Layer, ViewportIndex,
// PrimitiveId and the tessellation built-ins (TessLevelOuter,
// TessLevelInner, TessCoord, PatchVertices, InvocationId), all Vulkan
// rules. InvocationId, PatchVertices and TessCoord have one type, one
// storage class and one set of models: they are simple built-ins (see
// simpleBuiltins). The others may be Input or Output, with models that
// must not use one or the other (biNotCalled rules), and Layer,
// ViewportIndex and PrimitiveId carry the per-primitive rules of mesh
// shaders (builtins_mesh.go) and their int type elsewhere (biNonMesh).

// The kinds of this file and builtins_mesh.go, numbered apart from
// builtins.go's so that other files can add theirs.
const (
	biLayer      biKind = 64 + iota // Layer, ViewportIndex
	biPrimitive                     // PrimitiveId
	biTessLevel                     // TessLevelOuter, TessLevelInner
	biNonMesh                       // ValidateNonMeshInterfaceRules
	biMeshIface                     // ValidateMeshBuiltinInterfaceRules
	biMeshOutput                    // the MeshEXT output built-ins
)

func init() {
	simpleBuiltins[spirv.BuiltInInvocationId] = simpleBuiltin{sbI32, "32-bit int scalar", spirv.StorageClassInput,
		mbTessControl | mbGeometry, "TessellationControl or Geometry execution models", [3]int{4257, 4258, 4259}}
	simpleBuiltins[spirv.BuiltInPatchVertices] = simpleBuiltin{sbI32, "32-bit int scalar", spirv.StorageClassInput,
		mbTessControl | mbTessEval, "TessellationControl or TessellationEvaluation execution models", [3]int{4308, 4309, 4310}}
	// TessCoord's type is checked by moreBuiltinAtDefinition.
	simpleBuiltins[spirv.BuiltInTessCoord] = simpleBuiltin{sbF32Vec4, "3-component 32-bit float vector", spirv.StorageClassInput,
		mbTessEval, "TessellationEvaluation execution model", [3]int{4387, 4388, 4389}}
}

// moreBuiltinAtDefinition checks the definitions of this file's and
// builtins_mesh.go's built-ins (Vulkan only) and seeds their reference
// rules; ok is false for other built-ins. stop reports an error.
func (s *state) moreBuiltinAtDefinition(b spirv.BuiltIn, j, member int, seed func(biKind) bool) (stop, ok bool) {
	switch b {
	case spirv.BuiltInLayer, spirv.BuiltInViewportIndex:
		return seed(biLayer), true
	case spirv.BuiltInPrimitiveId:
		return seed(biPrimitive), true
	case spirv.BuiltInTessCoord:
		t, failed := s.underlyingType(j, member)
		if failed {
			return true, true
		}
		if p := s.f32VecProblem(s.defDesc(j, member), t, 3); p != "" {
			return s.failStop(j, s.simpleVUID(b, 4389), "According to the Vulkan spec BuiltIn TessCoord variable needs to be a 3-component 32-bit float vector. %s", p), true
		}
		return seed(biSimple), true
	case spirv.BuiltInTessLevelOuter, spirv.BuiltInTessLevelInner:
		return s.tessLevelAtDefinition(b, j, member) || seed(biTessLevel), true
	}
	if stop, ok := s.miscBuiltinAtDefinition(b, j, member, seed); ok {
		return stop, true
	}
	return s.meshBuiltinAtDefinition(b, j, member, seed)
}

// tessLevelAtDefinition is the type and Patch check of TessLevelOuter
// (4 floats) and TessLevelInner (2 floats).
func (s *state) tessLevelAtDefinition(b spirv.BuiltIn, j, member int) bool {
	n, vuidN := uint64(4), 4393
	if b == spirv.BuiltInTessLevelInner {
		n, vuidN = 2, 4397
	}
	t, failed := s.underlyingType(j, member)
	if failed {
		return true
	}
	desc := s.defDesc(j, member)
	p := s.f32ArrProblem(desc, t)
	if p == "" {
		if l, _ := s.constUint(s.typeWord(t, 3)); l != n {
			p = fmt.Sprintf("%s has %d components.", desc, l)
		}
	}
	name := builtinName(b)
	if p != "" {
		return s.failStop(j, s.simpleVUID(b, vuidN), "According to the Vulkan spec BuiltIn %s variable needs to be a %d-component 32-bit float array. %s", name, n, p)
	}
	if !s.decorations().has(s.m.Inst(j).ResultID, spirv.DecorationPatch) {
		return s.failStop(j, s.vuid("VUID-StandaloneSpirv-TessLevelInner-10880"), "BuiltIn %s variable needs to also have a Patch decoration.", name)
	}
	return false
}

// moreBuiltinAtReference is the At*Reference check of this file's and
// builtins_mesh.go's rule kinds; ok is false for other kinds.
func (s *state) moreBuiltinAtReference(r biRule, i int, in *spirv.Instruction, fnID uint32, models uint64, add func(biRule), bj, rj int) (stop, ok bool) {
	switch r.kind {
	case biLayer:
		return s.layerAtReference(r, i, in, fnID, models, add, bj, rj), true
	case biPrimitive:
		return s.primitiveIDAtReference(r, i, in, fnID, models, add, bj, rj), true
	case biTessLevel:
		return s.tessLevelAtReference(r, i, in, fnID, models, add, bj, rj), true
	case biNonMesh:
		return s.nonMeshAtReference(r, fnID, models, bj), true
	case biMeshIface:
		return s.meshIfaceAtReference(r, fnID, models, bj), true
	case biMeshOutput:
		return s.meshOutputAtReference(r, i, in, fnID, models, bj, rj), true
	}
	return s.miscBuiltinAtReference(r, i, in, fnID, models, add, bj, rj)
}

// notCalledIn registers, for the result of in, a biNotCalled rule for
// each of models.
func notCalledIn(r biRule, in *spirv.Instruction, add func(biRule), vuidN int, note string, models ...spirv.ExecutionModel) {
	for _, m := range models {
		add(biRule{kind: biNotCalled, builtin: r.builtin, builtInID: r.builtInID, refID: in.ResultID, member: r.member, model: m, note: note, vuidN: vuidN})
	}
}

// inputOrOutput is the storage class check of the built-ins that may be
// Input or Output: it returns the class (ok false for none) and whether
// it failed.
func (s *state) inputOrOutput(r biRule, i int, in *spirv.Instruction, fnID uint32, bj, rj int) (sc spirv.StorageClass, ok, failed bool) {
	sc, ok = s.storageClassOf(in)
	if ok && sc != spirv.StorageClassInput && sc != spirv.StorageClassOutput {
		return sc, ok, s.failStop(i, "", "Vulkan spec allows BuiltIn %s to be only used for variables with Input or Output storage class. %s %s",
			builtinName(r.builtin), s.refDesc(r.builtin, bj, rj, i, -1, fnID), s.storageDesc(in, i))
	}
	return sc, ok, false
}

// firstModel returns the first model of mask in value order, ok false
// when mask names none spirv-val names.
func firstModel(mask uint64) (spirv.ExecutionModel, bool) {
	for k, b := 0, uint64(1); k < len(modelOfBit); k, b = k+1, b<<1 {
		if mask&b != 0 {
			return modelOfBit[k], true
		}
	}
	return 0, false
}

// layerAtReference is ValidateLayerOrViewportIndexAtReference.
func (s *state) layerAtReference(r biRule, i int, in *spirv.Instruction, fnID uint32, models uint64, add func(biRule), bj, rj int) bool {
	layer := r.builtin == spirv.BuiltInLayer
	pick := func(l, v int) int {
		if layer {
			return l
		}
		return v
	}
	sc, ok, failed := s.inputOrOutput(r, i, in, fnID, bj, rj)
	if failed {
		return true
	}
	if ok && sc == spirv.StorageClassInput {
		notCalledIn(r, in, add, pick(4274, 4406), "Vulkan spec doesn't allow BuiltIn Layer and ViewportIndex to be used for variables with Input storage class if execution model is Vertex, TessellationEvaluation, Geometry, MeshNV or MeshEXT.",
			spirv.ExecutionModelVertex, spirv.ExecutionModelTessellationEvaluation, spirv.ExecutionModelGeometry, spirv.ExecutionModelMeshNV, spirv.ExecutionModelMeshEXT)
	}
	if ok && sc == spirv.StorageClassOutput {
		notCalledIn(r, in, add, pick(4275, 4407), "Vulkan spec doesn't allow BuiltIn Layer and ViewportIndex to be used for variables with Output storage class if execution model is Fragment.", spirv.ExecutionModelFragment)
	}
	s.addInterfaceRules(r, in, add)
	return s.layerModels(r, i, fnID, models, bj, rj)
}

// layerModels is the execution model check of Layer and ViewportIndex,
// model by model in value order: Vertex and TessellationEvaluation need
// a capability, models other than those and Geometry, Fragment and the
// mesh models are refused.
func (s *state) layerModels(r biRule, i int, fnID uint32, models uint64, bj, rj int) bool {
	layer := r.builtin == spirv.BuiltInLayer
	name := builtinName(r.builtin)
	capability, own, vuidN := "ShaderViewportIndexLayerEXT or ShaderLayer", spirv.CapabilityShaderLayer, 4273
	if !layer {
		capability, own, vuidN = "ShaderViewportIndexLayerEXT or ShaderViewportIndex", spirv.CapabilityShaderViewportIndex, 4405
	}
	for k, b := 0, uint64(1); k < len(modelOfBit); k, b = k+1, b<<1 {
		switch {
		case models&b == 0, b&(mbGeometry|mbFragment|mbMeshNV|mbMeshEXT) != 0:
		case b&(mbVertex|mbTessEval) != 0:
			if !s.caps.has(spirv.CapabilityShaderViewportIndexLayerEXT) && !s.caps.has(own) {
				return s.failStop(i, s.simpleVUID(r.builtin, vuidN), "Using BuiltIn %s in Vertex or Tessellation execution model requires the %s capability.", name, capability)
			}
		default:
			return s.failStop(i, s.simpleVUID(r.builtin, vuidN-1), "Vulkan spec allows BuiltIn %s to be used only with Vertex, TessellationEvaluation, Geometry, or Fragment execution models. %s",
				name, s.refDesc(r.builtin, bj, rj, i, int64(modelOfBit[k]), fnID))
		}
	}
	return false
}

// addInterfaceRules registers the mesh and non-mesh interface rules of
// Layer, ViewportIndex and PrimitiveId for the result of in.
func (s *state) addInterfaceRules(r biRule, in *spirv.Instruction, add func(biRule)) {
	add(biRule{kind: biMeshIface, builtin: r.builtin, builtInID: r.builtInID, refID: in.ResultID, member: r.member})
	add(biRule{kind: biNonMesh, builtin: r.builtin, builtInID: r.builtInID, refID: in.ResultID, member: r.member})
}

// primitiveIDAtReference is ValidatePrimitiveIdAtReference.
func (s *state) primitiveIDAtReference(r biRule, i int, in *spirv.Instruction, fnID uint32, models uint64, add func(biRule), bj, rj int) bool {
	sc, ok, failed := s.inputOrOutput(r, i, in, fnID, bj, rj)
	if failed {
		return true
	}
	if ok && sc == spirv.StorageClassOutput {
		for _, m := range []spirv.ExecutionModel{spirv.ExecutionModelTessellationControl, spirv.ExecutionModelTessellationEvaluation,
			spirv.ExecutionModelFragment, spirv.ExecutionModelIntersectionKHR, spirv.ExecutionModelAnyHitKHR, spirv.ExecutionModelClosestHitKHR} {
			notCalledIn(r, in, add, 4334, "Vulkan spec doesn't allow BuiltIn PrimitiveId to be used for variables with Output storage class if execution model is "+executionModelName(m)+".", m)
		}
	}
	if !s.caps.has(spirv.CapabilityMeshShadingEXT) && !s.caps.has(spirv.CapabilityMeshShadingNV) &&
		!s.caps.has(spirv.CapabilityGeometry) && !s.caps.has(spirv.CapabilityTessellation) {
		notCalledIn(r, in, add, 4333, "Vulkan spec doesn't allow BuiltIn PrimitiveId to be used for variables in the Fragment execution model unless it declares Geometry, Tessellation, or MeshShader capabilities.", spirv.ExecutionModelFragment)
	}
	s.addInterfaceRules(r, in, add)
	allowed := mbFragment | mbTessControl | mbTessEval | mbGeometry | mbMeshNV | mbMeshEXT | mbIntersection | mbAnyHit | mbClosestHit
	if m, found := firstModel(models &^ allowed); found {
		return s.failStop(i, s.simpleVUID(r.builtin, 4330), "Vulkan spec allows BuiltIn PrimitiveId to be used only with Fragment, TessellationControl, TessellationEvaluation, Geometry, MeshNV, MeshEXT, IntersectionKHR, AnyHitKHR, and ClosestHitKHR execution models. %s",
			s.refDesc(r.builtin, bj, rj, i, int64(m), fnID))
	}
	return false
}

// notCalledVUID names the VUID of a biNotCalled rule: PrimitiveId's
// Fragment rule is the one not named after its built-in twice.
func (s *state) notCalledVUID(b spirv.BuiltIn, n int) string {
	if b == spirv.BuiltInPrimitiveId && n == 4333 {
		return s.vuid("VUID-PrimitiveId-Fragment-04333")
	}
	return s.simpleVUID(b, n)
}

// tessLevelAtReference is ValidateTessLevelAtReference.
func (s *state) tessLevelAtReference(r biRule, i int, in *spirv.Instruction, fnID uint32, models uint64, add func(biRule), bj, rj int) bool {
	outer := r.builtin == spirv.BuiltInTessLevelOuter
	pick := func(o, n int) int {
		if outer {
			return o
		}
		return n
	}
	sc, ok, failed := s.inputOrOutput(r, i, in, fnID, bj, rj)
	if failed {
		return true
	}
	if ok && sc == spirv.StorageClassInput {
		notCalledIn(r, in, add, pick(4391, 4395), "Vulkan spec doesn't allow TessLevelOuter/TessLevelInner to be used for variables with Input storage class if execution model is TessellationControl.", spirv.ExecutionModelTessellationControl)
	}
	if ok && sc == spirv.StorageClassOutput {
		notCalledIn(r, in, add, pick(4392, 4396), "Vulkan spec doesn't allow TessLevelOuter/TessLevelInner to be used for variables with Output storage class if execution model is TessellationEvaluation.", spirv.ExecutionModelTessellationEvaluation)
	}
	if m, found := firstModel(models &^ (mbTessControl | mbTessEval)); found {
		return s.failStop(i, s.simpleVUID(r.builtin, pick(4390, 4394)), "Vulkan spec allows BuiltIn %s to be used only with TessellationControl or TessellationEvaluation execution models. %s",
			builtinName(r.builtin), s.refDesc(r.builtin, bj, rj, i, int64(m), fnID))
	}
	return false
}

// nonMeshAtReference is ValidateNonMeshInterfaceRules: outside MeshEXT,
// Layer, ViewportIndex and PrimitiveId are 32-bit ints (arrayed, unless a
// struct member). The error is at the built-in's definition.
func (s *state) nonMeshAtReference(r biRule, fnID uint32, models uint64, bj int) bool {
	if fnID == 0 || models&mbMeshEXT != 0 {
		return false
	}
	t, failed := s.underlyingType(bj, r.member)
	if failed {
		return true
	}
	if r.member < 0 && s.typeOp(t) == spirv.OpTypeArray {
		t = s.typeWord(t, 2)
	}
	p := s.i32Problem(s.defDesc(bj, r.member), t)
	if p == "" {
		return false
	}
	n := 4337
	switch r.builtin {
	case spirv.BuiltInLayer:
		n = 4276
	case spirv.BuiltInViewportIndex:
		n = 4408
	}
	return s.failStop(bj, s.simpleVUID(r.builtin, n), "According to the Vulkan spec BuiltIn %svariable needs to be a 32-bit int scalar. %s", builtinName(r.builtin), p)
}
