package val

import (
	"fmt"
	"sort"

	"spvx/spirv"
)

// This file holds validate_builtins.cpp's rules for the compute built-ins
// (GlobalInvocationId, LocalInvocationId, NumWorkgroups, WorkgroupId,
// LocalInvocationIndex, WorkgroupSize, NumSubgroups, SubgroupId,
// SubgroupSize, SubgroupLocalInvocationId, Subgroup{Eq,Ge,Gt,Le,Lt}Mask).
// As in spirv-val, each BuiltIn decoration is checked at its definition
// (the type: a 32-bit int, a 3- or 4-component 32-bit int vector; a
// constant WorkgroupSize), then at every reference: an instruction naming
// a built-in id, or an id built from it in the global scope (a pointer to
// a decorated struct, the variable of that pointer), must use the Input
// storage class, and a function using it may only be called from the
// execution models the built-in is for. Everything but WorkgroupSize's
// static size is a Vulkan rule. Of the graphics built-ins, the ones with
// one type, storage class and model set are written (FragCoord,
// FragDepth with DepthReplacing, FrontFacing, HelperInvocation, SampleId,
// VertexIndex, InstanceIndex), and Position and PointSize (per model,
// arrayed in the per-vertex stages, not Input in Vertex or mesh stages)
// and ClipDistance/CullDistance (float arrays, not Output in Fragment);
// Layer, ViewportIndex, PrimitiveId and the tessellation built-ins are in
// builtins_graphics.go, the mesh ones in builtins_mesh.go, the ray-tracing
// ones in builtins_raytracing.go.

type biKind uint8

const (
	biComputeVec3   biKind = iota + 1 // ValidateComputeShaderI32Vec3Input
	biComputeI32                      // ValidateComputeI32Input
	biLocalIndex                      // LocalInvocationIndex
	biWorkgroupSize                   // WorkgroupSize
	biSimple                          // one of simpleBuiltins
	biPosition                        // Position
	biPointSize                       // PointSize
	biNotCalled                       // ValidateNotCalledWithExecutionModel
	biClipCull                        // ClipDistance, CullDistance
	biRayTracing                      // the ray-tracing built-ins (builtins_raytracing.go)
)

// A simple built-in has one type, one storage class, a set of execution
// models, and its VUIDs (model, storage class, type); FragDepth also
// needs DepthReplacing on every entry point using it.
type simpleBuiltin struct {
	typ       uint8 // sbF32Vec4, sbF32, sbBool, sbI32
	typeText  string
	sc        spirv.StorageClass
	models    uint64
	modelText string
	vuids     [3]int
}

const (
	sbF32Vec4 = iota
	sbF32
	sbBool
	sbI32
)

var simpleBuiltins = map[spirv.BuiltIn]simpleBuiltin{
	spirv.BuiltInFragCoord:        {sbF32Vec4, "4-component 32-bit float vector", spirv.StorageClassInput, mbFragment, "Fragment execution model", [3]int{4210, 4211, 4212}},
	spirv.BuiltInFragDepth:        {sbF32, "32-bit float scalar", spirv.StorageClassOutput, mbFragment, "Fragment execution model", [3]int{4213, 4214, 4215}},
	spirv.BuiltInFrontFacing:      {sbBool, "bool scalar", spirv.StorageClassInput, mbFragment, "Fragment execution model", [3]int{4229, 4230, 4231}},
	spirv.BuiltInHelperInvocation: {sbBool, "bool scalar", spirv.StorageClassInput, mbFragment, "Fragment execution model", [3]int{4239, 4240, 4241}},
	spirv.BuiltInSampleId:         {sbI32, "32-bit int scalar", spirv.StorageClassInput, mbFragment, "Fragment execution model", [3]int{4354, 4355, 4356}},
	spirv.BuiltInVertexIndex:      {sbI32, "32-bit int scalar", spirv.StorageClassInput, mbVertex, "Vertex execution model", [3]int{4398, 4399, 4400}},
	spirv.BuiltInInstanceIndex:    {sbI32, "32-bit int scalar", spirv.StorageClassInput, mbVertex, "Vertex execution model", [3]int{4263, 4264, 4265}},
}

// simpleVUID names VUID n of built-in b.
func (s *state) simpleVUID(b spirv.BuiltIn, n int) string {
	name := builtinName(b)
	return s.vuid(fmt.Sprintf("VUID-%s-%s-%05d", name, name, n))
}

// f32VecProblem and f32Problem are ValidateF32VecHelper's and
// ValidateF32Helper's messages.
func (s *state) f32VecProblem(desc string, t uint32, n uint32) string {
	if !s.literalVectorOf(t, s.isFloatScalar, 0) {
		return desc + " is not a float vector."
	}
	if d := s.dimension(t); d != n {
		return fmt.Sprintf("%s has %d components.", desc, d)
	}
	if w := s.bitWidth(t); w != 32 {
		return fmt.Sprintf("%s has components with bit width %d.", desc, w)
	}
	return ""
}

func (s *state) f32Problem(desc string, t uint32) string {
	if !s.isFloatScalar(t) {
		return desc + " is not a float scalar."
	}
	if w := s.bitWidth(t); w != 32 {
		return fmt.Sprintf("%s has bit width %d.", desc, w)
	}
	return ""
}

// biRule is one at-reference check: the built-in, the decorated id, and
// the id whose users it checks.
type biRule struct {
	kind      biKind
	builtin   spirv.BuiltIn
	builtInID uint32
	refID     uint32
	member    int                  // the decoration's struct member, -1 for none
	model     spirv.ExecutionModel // biNotCalled: the forbidden model,
	note      string               // its message,
	vuidN     int                  // and its VUID number
}

// builtinVUIDs are GetVUIDForBuiltin's execution model, storage class and
// type VUID numbers, for the built-ins written here.
var builtinVUIDs = map[spirv.BuiltIn][3]int{
	spirv.BuiltInSubgroupEqMask:            {0, 4370, 4371},
	spirv.BuiltInSubgroupGeMask:            {0, 4372, 4373},
	spirv.BuiltInSubgroupGtMask:            {0, 4374, 4375},
	spirv.BuiltInSubgroupLeMask:            {0, 4376, 4377},
	spirv.BuiltInSubgroupLtMask:            {0, 4378, 4379},
	spirv.BuiltInSubgroupLocalInvocationId: {0, 4380, 4381},
	spirv.BuiltInSubgroupSize:              {0, 4382, 4383},
	spirv.BuiltInGlobalInvocationId:        {4236, 4237, 4238},
	spirv.BuiltInLocalInvocationId:         {4281, 4282, 4283},
	spirv.BuiltInNumWorkgroups:             {4296, 4297, 4298},
	spirv.BuiltInNumSubgroups:              {4293, 4294, 4295},
	spirv.BuiltInSubgroupId:                {4367, 4368, 4369},
	spirv.BuiltInWorkgroupId:               {4422, 4423, 4424},
	spirv.BuiltInLocalInvocationIndex:      {4284, 4285, 4286},
}

func builtinName(b spirv.BuiltIn) string {
	if e, ok := spirv.OperandKindBuiltIn.Enumerant(uint32(b)); ok {
		return e.Name
	}
	return "Unknown"
}

// builtinVUID is VkErrorID(GetVUIDForBuiltin(b, which)): these VUIDs are
// named "VUID-<BuiltIn>-<BuiltIn>-0NNNN".
func (s *state) builtinVUID(b spirv.BuiltIn, which int) string {
	n := builtinVUIDs[b][which]
	if n == 0 {
		return ""
	}
	name := builtinName(b)
	return s.vuid(fmt.Sprintf("VUID-%s-%s-%05d", name, name, n))
}

// envLog is spvLogStringForEnv.
func (s *state) envLog() string {
	switch {
	case s.opts.Env.IsOpenCL():
		return "OpenCL"
	case s.opts.Env.IsOpenGL():
		return "OpenGL"
	case s.opts.Env.IsVulkan():
		return "Vulkan"
	}
	return "Universal"
}

// idDesc is GetIdDesc: "ID <5> (OpVariable)".
func (s *state) idDesc(j int) string {
	in := s.m.Inst(j)
	return fmt.Sprintf("ID <%d> (Op%s)", in.ResultID, opName(in.Opcode))
}

// defDesc is GetDefinitionDesc.
func (s *state) defDesc(j int, member int) string {
	if member >= 0 {
		return fmt.Sprintf("Member #%d of struct ID <%d>", member, s.m.Inst(j).ResultID)
	}
	return s.idDesc(j)
}

// underlyingType is GetUnderlyingType; ok false after recording its error.
func (s *state) underlyingType(j int, member int) (t uint32, failed bool) {
	in := s.m.Inst(j)
	if member >= 0 {
		if in.Opcode != spirv.OpTypeStruct {
			return 0, s.failStop(j, "", "%sAttempted to get underlying data type via member index for non-struct type.", s.idDesc(j))
		}
		if member+2 < len(in.Words) {
			return in.Words[member+2], false
		}
		return 0, false
	}
	if in.Opcode == spirv.OpTypeStruct {
		return 0, s.failStop(j, "", "%s did not find an member index to get underlying data type for struct type.", s.idDesc(j))
	}
	if isConstantOp(in.Opcode) {
		return in.TypeID, false
	}
	pt := s.typeOf(in.TypeID)
	switch {
	case pt != nil && pt.Op == spirv.OpTypePointer:
		return pt.Elem, false
	case pt != nil && pt.Op == spirv.OpTypeUntypedPointerKHR:
		return 0, false
	}
	return 0, s.failStop(j, "", "%s is decorated with BuiltIn. BuiltIn decoration should only be applied to struct types, variables and constants.", s.idDesc(j))
}

// failStop records an error and always reports failure, so that the
// caller stops checking this built-in (and validation, unless All).
func (s *state) failStop(j int, vuid, format string, args ...any) bool {
	s.fail(j, vuid, format, args...)
	return true
}

// i32VecProblem is ValidateI32Vec's message ("" when t is a 32-bit int
// vector of n components); i32Problem is ValidateI32Helper's.
func (s *state) i32VecProblem(desc string, t uint32, n uint32) string {
	if !s.literalVectorOf(t, s.isIntScalar, 0) {
		return desc + " is not an int vector."
	}
	if d := s.dimension(t); d != n {
		return fmt.Sprintf("%s has %d components.", desc, d)
	}
	if w := s.bitWidth(t); w != 32 {
		return fmt.Sprintf("%s has components with bit width %d.", desc, w)
	}
	return ""
}

func (s *state) i32Problem(desc string, t uint32) string {
	if !s.isIntScalar(t) {
		return desc + " is not an int scalar."
	}
	if w := s.bitWidth(t); w != 32 {
		return fmt.Sprintf("%s has bit width %d.", desc, w)
	}
	return ""
}

// storageClassOf is GetStorageClass: the storage class an instruction
// names, ok false for none.
func (s *state) storageClassOf(in *spirv.Instruction) (spirv.StorageClass, bool) {
	switch in.Opcode {
	case spirv.OpTypePointer, spirv.OpTypeUntypedPointerKHR, spirv.OpTypeForwardPointer:
		if len(in.Words) > 2 {
			return spirv.StorageClass(in.Words[2]), true
		}
	case spirv.OpVariable:
		if len(in.Words) > 3 {
			return spirv.StorageClass(in.Words[3]), true
		}
	case spirv.OpUntypedVariableKHR, spirv.OpGenericCastToPtrExplicit:
		if len(in.Words) > 4 {
			return spirv.StorageClass(in.Words[4]), true
		}
	}
	return 0, false
}

// builtins is ValidateBuiltIns for the built-ins written here.
func (s *state) builtins() bool {
	type dec struct {
		id     uint32
		member int
		b      spirv.BuiltIn
	}
	var decs []dec
	for id, ds := range s.x.Decorations {
		for _, d := range ds {
			if d.Kind == spirv.DecorationBuiltIn && len(d.Params) > 0 {
				decs = append(decs, dec{id, d.Member, spirv.BuiltIn(d.Params[0])})
			}
		}
	}
	if len(decs) == 0 {
		return false
	}
	// spirv-val walks its decorations by id.
	sort.SliceStable(decs, func(a, b int) bool {
		if decs[a].id != decs[b].id {
			return decs[a].id < decs[b].id
		}
		return decs[a].member < decs[b].member
	})
	vulkan := s.opts.Env.IsVulkan()
	var rules map[uint32][]biRule
	// seed checks the definition itself as a reference (spirv-val's
	// At*Reference(decoration, inst, inst, inst)) and registers the rule
	// for the definition's users.
	seed := func(kind biKind, d dec, j int) bool {
		if !vulkan {
			return false // the reference rules are Vulkan's
		}
		if rules == nil {
			rules = map[uint32][]biRule{}
		}
		r := biRule{kind: kind, builtin: d.b, builtInID: d.id, refID: d.id, member: d.member}
		in := s.m.Inst(j)
		if s.builtinAtReference(r, j, &in, 0, 0, func(n biRule) { rules[d.id] = append(rules[d.id], n) }) {
			return true
		}
		rules[d.id] = append(rules[d.id], r)
		return false
	}
	for _, d := range decs {
		j, ok := s.x.Def(d.id)
		if !ok {
			continue
		}
		name := builtinName(d.b)
		if d.b == spirv.BuiltInWorkgroupSize {
			if s.workgroupSizeAtDefinition(j, d.member) {
				return true
			}
			if seed(biWorkgroupSize, d, j) {
				return true
			}
			continue
		}
		if !vulkan {
			continue
		}
		if d.b == spirv.BuiltInSamplerHeapEXT || d.b == spirv.BuiltInResourceHeapEXT {
			if s.heapBuiltinAtDefinition(j, d.member, name) {
				return true
			}
			continue
		}
		if d.b == spirv.BuiltInClipDistance || d.b == spirv.BuiltInCullDistance {
			if seed(biClipCull, d, j) {
				return true
			}
			continue
		}
		if d.b == spirv.BuiltInPosition || d.b == spirv.BuiltInPointSize {
			kind := biPosition
			if d.b == spirv.BuiltInPointSize {
				kind = biPointSize
			}
			if seed(kind, d, j) {
				return true
			}
			continue
		}
		if stop, ok := s.moreBuiltinAtDefinition(d.b, j, d.member, func(k biKind) bool { return seed(k, d, j) }); ok {
			if stop {
				return true
			}
			continue
		}
		if isRTBuiltin(d.b) {
			if s.rtBuiltinAtDefinition(d.b, j, d.member) || seed(biRayTracing, d, j) {
				return true
			}
			continue
		}
		if sb, ok := simpleBuiltins[d.b]; ok {
			t, failed := s.underlyingType(j, d.member)
			if failed {
				return true
			}
			desc := s.defDesc(j, d.member)
			var p string
			switch sb.typ {
			case sbF32Vec4:
				p = s.f32VecProblem(desc, t, 4)
			case sbF32:
				p = s.f32Problem(desc, t)
			case sbBool:
				if !s.isBoolScalar(t) {
					p = desc + " is not a bool scalar."
				}
			case sbI32:
				p = s.i32Problem(desc, t)
			}
			if p != "" {
				return s.failStop(j, s.simpleVUID(d.b, sb.vuids[2]), "According to the %s spec BuiltIn %s variable needs to be a %s. %s", s.envLog(), name, sb.typeText, p)
			}
			if seed(biSimple, d, j) {
				return true
			}
			continue
		}
		switch d.b {
		case spirv.BuiltInGlobalInvocationId, spirv.BuiltInLocalInvocationId, spirv.BuiltInNumWorkgroups, spirv.BuiltInWorkgroupId:
			t, failed := s.underlyingType(j, d.member)
			if failed {
				return true
			}
			if p := s.i32VecProblem(s.defDesc(j, d.member), t, 3); p != "" {
				return s.failStop(j, s.builtinVUID(d.b, 2), "According to the %s spec BuiltIn %s variable needs to be a 3-component 32-bit int vector. %s", s.envLog(), name, p)
			}
			if seed(biComputeVec3, d, j) {
				return true
			}
		case spirv.BuiltInSubgroupId, spirv.BuiltInNumSubgroups, spirv.BuiltInSubgroupLocalInvocationId, spirv.BuiltInSubgroupSize:
			if d.member >= 0 {
				return s.failStop(j, "", "BuiltIn %s cannot be used as a member decoration ", name)
			}
			t, failed := s.underlyingType(j, d.member)
			if failed {
				return true
			}
			compute := d.b == spirv.BuiltInSubgroupId || d.b == spirv.BuiltInNumSubgroups
			if p := s.i32Problem(s.defDesc(j, d.member), t); p != "" {
				what := "32-bit int"
				if compute {
					what = "32-bit int vector" // sic
				}
				return s.failStop(j, s.builtinVUID(d.b, 2), "According to the %s spec BuiltIn %s variable needs to be a %s. %s", s.envLog(), name, what, p)
			}
			if compute {
				if seed(biComputeI32, d, j) {
					return true
				}
			} else if s.builtinStorageAtDefinition(j, d.b) {
				return true
			}
		case spirv.BuiltInSubgroupEqMask, spirv.BuiltInSubgroupGeMask, spirv.BuiltInSubgroupGtMask,
			spirv.BuiltInSubgroupLeMask, spirv.BuiltInSubgroupLtMask:
			if d.member >= 0 {
				return s.failStop(j, "", "BuiltIn %s cannot be used as a member decoration ", name)
			}
			t, failed := s.underlyingType(j, d.member)
			if failed {
				return true
			}
			if p := s.i32VecProblem(s.defDesc(j, d.member), t, 4); p != "" {
				return s.failStop(j, s.builtinVUID(d.b, 2), "According to the %s spec BuiltIn %s variable needs to be a 4-component 32-bit int vector. %s", s.envLog(), name, p)
			}
			if s.builtinStorageAtDefinition(j, d.b) {
				return true
			}
		case spirv.BuiltInLocalInvocationIndex:
			t, failed := s.underlyingType(j, d.member)
			if failed {
				return true
			}
			if p := s.i32Problem(s.defDesc(j, d.member), t); p != "" {
				return s.failStop(j, s.builtinVUID(d.b, 2), "According to the Vulkan spec BuiltIn LocalInvocationIndex variable needs to be a 32-bit int scalar. %s", p)
			}
			if seed(biLocalIndex, d, j) {
				return true
			}
		}
	}
	if len(rules) == 0 || !vulkan {
		return false
	}
	return s.builtinReferences(rules)
}

// builtinStorageAtDefinition is the Input storage class check the
// subgroup built-ins make at their definition.
func (s *state) builtinStorageAtDefinition(j int, b spirv.BuiltIn) bool {
	in := s.m.Inst(j)
	if sc, ok := s.storageClassOf(&in); ok && sc != spirv.StorageClassInput {
		return s.failStop(j, s.builtinVUID(b, 1), "%s spec allows BuiltIn %s to be only used for variables with Input storage class. %s %s", s.envLog(), builtinName(b), s.refDesc(b, j, j, j, -1, 0), s.storageDesc(&in, j))
	}
	return false
}

// refDesc is GetReferenceDesc; fn is the function's id (0 outside one),
// model the execution model (< 0: none).
func (s *state) refDesc(b spirv.BuiltIn, builtIn, referenced, from int, model int64, fn uint32) string {
	d := s.idDesc(from) + " is referencing " + s.idDesc(referenced)
	if s.m.Inst(builtIn).ResultID != s.m.Inst(referenced).ResultID {
		d += " which is dependent on " + s.idDesc(builtIn)
	}
	d += " which is decorated with BuiltIn " + builtinName(b)
	if fn != 0 {
		d += fmt.Sprintf(" in function <%d>", fn)
		if model >= 0 {
			d += " called with execution model " + executionModelName(spirv.ExecutionModel(model))
		}
	}
	return d + "."
}

// storageDesc is GetStorageClassDesc.
func (s *state) storageDesc(in *spirv.Instruction, j int) string {
	sc, _ := s.storageClassOf(in)
	return s.idDesc(j) + " uses storage class " + storageClassName(sc) + "."
}

// workgroupSizeAtDefinition is ValidateWorkgroupSizeAtDefinition.
func (s *state) workgroupSizeAtDefinition(j, member int) bool {
	in := s.m.Inst(j)
	vulkan := s.opts.Env.IsVulkan()
	if vulkan {
		t, failed := s.underlyingType(j, member)
		if failed {
			return true
		}
		if p := s.i32VecProblem(s.defDesc(j, member), t, 3); p != "" {
			return s.failStop(j, s.vuid("VUID-WorkgroupSize-WorkgroupSize-04427"), "According to the %s spec BuiltIn WorkgroupSize variable needs to be a 3-component 32-bit int vector. %s", s.envLog(), p)
		}
	}
	if !isConstantOp(in.Opcode) {
		if vulkan {
			return s.failStop(j, s.vuid("VUID-WorkgroupSize-WorkgroupSize-04426"), "Vulkan spec requires BuiltIn WorkgroupSize to be a constant. %s is not a constant.", s.idDesc(j))
		}
		return false
	}
	if in.Opcode != spirv.OpConstantComposite || len(in.Words) < 6 {
		return false
	}
	var v [3]uint64
	for k := 0; k < 3; k++ {
		if s.idOpcode(in.Words[3+k]) != spirv.OpConstant {
			return false
		}
		var ok bool
		if v[k], ok = s.constUint(in.Words[3+k]); !ok {
			return false
		}
	}
	product := v[0] * v[1] * v[2]
	if product == 0 {
		return s.failStop(j, "", "WorkgroupSize decorations must not have a static product of zero (X = %d, Y = %d, Z = %d).", v[0], v[1], v[2])
	}
	for _, ep := range s.derivativeEntryPoints() {
		id := ep.id
		if ep.quads && (v[0]%2 != 0 || v[1]%2 != 0) {
			return s.failStop(j, s.vuid("VUID-StandaloneSpirv-DerivativeGroupQuadsKHR-10151"), "WorkgroupSize decorations has a static dimensions of (X = %d, Y = %d) but Entry Point id %d has an DerivativeGroupQuadsKHR execution mode, so both dimensions must be a multiple of 2", v[0], v[1], id)
		}
		if ep.linear && product%4 != 0 {
			return s.failStop(j, s.vuid("VUID-StandaloneSpirv-DerivativeGroupLinearKHR-10152"), "WorkgroupSize decorations has a static dimensions of (X = %d, Y = %d, Z = %d) but Entry Point id %d has an DerivativeGroupLinearKHR execution mode, so the product (%d) must be a multiple of 4", v[0], v[1], v[2], id, product)
		}
	}
	return false
}

// derivativeEP is an entry point with a derivative-group execution mode.
type derivativeEP struct {
	id            uint32
	quads, linear bool
}

// derivativeEntryPoints lists the entry points (in the call graph's
// order) with a derivative-group mode, found once per fork: each
// WorkgroupSize decoration is checked against them.
func (s *state) derivativeEntryPoints() []derivativeEP {
	if s.derivEPs == nil {
		s.derivEPs = []derivativeEP{}
		for _, id := range s.getCallGraph().epFns {
			modes, _, _ := s.epModes(id)
			ep := derivativeEP{id: id, quads: hasMode(modes, spirv.ExecutionModeDerivativeGroupQuadsKHR),
				linear: hasMode(modes, spirv.ExecutionModeDerivativeGroupLinearKHR)}
			if ep.quads || ep.linear {
				s.derivEPs = append(s.derivEPs, ep)
			}
		}
	}
	return s.derivEPs
}

// mbComputeLike are the models the compute built-ins are for.
const mbComputeLike = mbGLCompute | mbTaskNV | mbMeshNV | mbTaskEXT | mbMeshEXT

// modelOfBit maps the model bits back to the models, in value order.
var modelOfBit = [...]spirv.ExecutionModel{
	spirv.ExecutionModelVertex, spirv.ExecutionModelTessellationControl, spirv.ExecutionModelTessellationEvaluation,
	spirv.ExecutionModelGeometry, spirv.ExecutionModelFragment, spirv.ExecutionModelGLCompute, spirv.ExecutionModelKernel,
	spirv.ExecutionModelTaskNV, spirv.ExecutionModelMeshNV, spirv.ExecutionModelRayGenerationKHR,
	spirv.ExecutionModelIntersectionKHR, spirv.ExecutionModelAnyHitKHR, spirv.ExecutionModelClosestHitKHR,
	spirv.ExecutionModelMissKHR, spirv.ExecutionModelCallableKHR, spirv.ExecutionModelTaskEXT, spirv.ExecutionModelMeshEXT,
}

// builtinReferences is Run's second pass: every instruction naming an id
// with rules is checked; in the global scope, its result gets the rules
// too. A bitmap of the ids with rules keeps the walk cheap.
func (s *state) builtinReferences(rules map[uint32][]biRule) bool {
	m := s.m
	var has []uint64
	mark := func(id uint32) {
		if int(id/64) >= len(has) {
			if id/64 > 1<<16 { // ids past 4M: the map alone decides
				return
			}
			has = append(has, make([]uint64, int(id/64)+1-len(has))...)
		}
		has[id/64] |= 1 << (id % 64)
	}
	maybe := func(id uint32) bool {
		if int(id/64) < len(has) {
			return has[id/64]&(1<<(id%64)) != 0
		}
		return id/64 > 1<<16
	}
	for id := range rules {
		mark(id)
	}
	g := s.getCallGraph()
	var fnID uint32
	var models uint64
	var seen []uint32
	for i := 0; i < m.Len(); i++ {
		in := m.Inst(i)
		switch in.Opcode {
		case spirv.OpFunction:
			fnID = in.ResultID
			models = 0
			if f, ok := g.fnIndex[fnID]; ok {
				models = g.mask[f] & mbAllModels
			}
		case spirv.OpFunctionEnd:
			fnID, models = 0, 0
		}
		seen = seen[:0]
		for _, id := range in.IDOperands() {
			if id == in.ResultID || !maybe(id) {
				continue
			}
			dup := false
			for _, d := range seen {
				dup = dup || d == id
			}
			if dup {
				continue
			}
			seen = append(seen, id)
			rs := rules[id]
			for k := 0; k < len(rs); k++ {
				r := rs[k]
				res := in.ResultID
				add := func(n biRule) {
					if fnID != 0 || res == 0 {
						return
					}
					// One rule per check and built-in on an id: a second
					// path to the same built-in would only change the
					// message of a later error, and keeping it would let
					// rules multiply along chains of global ids
					// (exponentially, when each names two tracked ids).
					for _, o := range rules[res] {
						if o.kind == n.kind && o.builtin == n.builtin && o.builtInID == n.builtInID && o.model == n.model {
							return
						}
					}
					rules[res] = append(rules[res], n)
					mark(res)
				}
				if s.builtinAtReference(r, i, &in, fnID, models, add) {
					return true
				}
				r.refID = res // the rule now follows the users of this instruction
				add(r)
			}
		}
	}
	return false
}

// builtinAtReference is the At*Reference check of rule r for instruction
// i, in function fnID (0: global) called with the models in mask models.
func (s *state) builtinAtReference(r biRule, i int, in *spirv.Instruction, fnID uint32, models uint64, add func(biRule)) bool {
	bj, _ := s.x.Def(r.builtInID)
	rj, _ := s.x.Def(r.refID)
	name := builtinName(r.builtin)
	switch r.kind {
	case biNotCalled:
		if fnID != 0 && models&modelBit(r.model) != 0 {
			mname := executionModelName(r.model)
			return s.failStop(i, s.notCalledVUID(r.builtin, r.vuidN),
				"%s %s depends on %s which is decorated with BuiltIn %s. Id <%d> is later referenced by %s in function <%d> which is called with execution model %s.",
				r.note, s.idDesc(rj), s.idDesc(bj), name, s.m.Inst(rj).ResultID, s.idDesc(i), fnID, mname)
		}
		return false
	case biClipCull:
		return s.clipCullAtReference(r, i, in, fnID, models, add, bj, rj)
	case biRayTracing:
		return s.rtBuiltinAtReference(r, i, in, fnID, models, bj, rj)
	case biPosition, biPointSize:
		return s.positionAtReference(r, i, in, fnID, models, add, bj, rj)
	}
	if stop, ok := s.moreBuiltinAtReference(r, i, in, fnID, models, add, bj, rj); ok {
		return stop
	}
	if r.kind == biSimple {
		return s.simpleAtReference(r, i, in, fnID, models, bj, rj)
	}
	if r.kind != biWorkgroupSize {
		if sc, ok := s.storageClassOf(in); ok && sc != spirv.StorageClassInput {
			prefix := s.envLog() + " spec allows BuiltIn " + name
			if r.kind == biLocalIndex {
				prefix = "Vulkan spec allows BuiltIn LocalInvocationIndex"
			}
			return s.failStop(i, s.builtinVUID(r.builtin, 1), "%s to be only used for variables with Input storage class. %s %s", prefix, s.refDesc(r.builtin, bj, rj, i, -1, fnID), s.storageDesc(in, i))
		}
	}
	bad := models &^ mbComputeLike
	if bad == 0 {
		return false
	}
	var model spirv.ExecutionModel
	for k, b := 0, uint64(1); k < len(modelOfBit); k, b = k+1, b<<1 {
		if bad&b != 0 {
			model = modelOfBit[k]
			break
		}
	}
	if bad&mbOther != 0 && bad&(mbOther-1) == 0 {
		return false // a model spirv-val does not name: no message to give
	}
	desc := s.refDesc(r.builtin, bj, rj, i, int64(model), fnID)
	switch r.kind {
	case biWorkgroupSize:
		return s.failStop(i, s.vuid("VUID-WorkgroupSize-WorkgroupSize-04425"), "%s spec allows BuiltIn WorkgroupSize to be used only with GLCompute, MeshNV, TaskNV, MeshEXT or TaskEXT execution model. %s", s.envLog(), desc)
	case biLocalIndex:
		return s.failStop(i, s.builtinVUID(r.builtin, 0), "Vulkan spec allows BuiltIn LocalInvocationIndex to be used only with GLCompute, MeshNV, TaskNV, MeshEXT or TaskEXT execution model. %s", desc)
	}
	return s.failStop(i, s.builtinVUID(r.builtin, 0), "%s spec allows BuiltIn %s to be used only with GLCompute, MeshNV, TaskNV, MeshEXT or TaskEXT execution model. %s", s.envLog(), name, desc)
}

// simpleAtReference is the At*Reference check of a simple built-in.
func (s *state) simpleAtReference(r biRule, i int, in *spirv.Instruction, fnID uint32, models uint64, bj, rj int) bool {
	sb := simpleBuiltins[r.builtin]
	name := builtinName(r.builtin)
	if sc, ok := s.storageClassOf(in); ok && sc != sb.sc {
		return s.failStop(i, s.simpleVUID(r.builtin, sb.vuids[1]), "%s spec allows BuiltIn %s to be only used for variables with %s storage class. %s %s",
			s.envLog(), name, storageClassName(sb.sc), s.refDesc(r.builtin, bj, rj, i, -1, fnID), s.storageDesc(in, i))
	}
	if bad := models &^ sb.models; bad != 0 {
		for k, b := 0, uint64(1); k < len(modelOfBit); k, b = k+1, b<<1 {
			if bad&b != 0 {
				return s.failStop(i, s.simpleVUID(r.builtin, sb.vuids[0]), "%s spec allows BuiltIn %s to be used only with %s. %s",
					s.envLog(), name, sb.modelText, s.refDesc(r.builtin, bj, rj, i, int64(modelOfBit[k]), fnID))
			}
		}
	}
	if r.builtin == spirv.BuiltInFragDepth && fnID != 0 {
		if f, ok := s.getCallGraph().fnIndex[fnID]; ok && s.getCallGraph().mask[f]&traitNoDepthReplacing != 0 {
			return s.failStop(i, s.vuid("VUID-FragDepth-FragDepth-04216"), "%s spec requires DepthReplacing execution mode to be declared when using BuiltIn FragDepth. %s",
				s.envLog(), s.refDesc(r.builtin, bj, rj, i, -1, fnID))
		}
	}
	return false
}

// positionAtReference is ValidatePositionAtReference and
// ValidatePointSizeAtReference.
func (s *state) positionAtReference(r biRule, i int, in *spirv.Instruction, fnID uint32, models uint64, add func(biRule), bj, rj int) bool {
	name := builtinName(r.builtin)
	pos := r.kind == biPosition
	vuid := func(n int) string { return s.simpleVUID(r.builtin, vuidNum(pos, n)) }
	sc, ok := s.storageClassOf(in)
	if ok && sc != spirv.StorageClassInput && sc != spirv.StorageClassOutput {
		return s.failStop(i, vuid(4320), "Vulkan spec allows BuiltIn %s to be only used for variables with Input or Output storage class. %s %s",
			name, s.refDesc(r.builtin, bj, rj, i, -1, fnID), s.storageDesc(in, i))
	}
	if ok && sc == spirv.StorageClassInput {
		forbidden := []spirv.ExecutionModel{spirv.ExecutionModelVertex, spirv.ExecutionModelMeshNV, spirv.ExecutionModelMeshEXT}
		if !pos {
			forbidden = forbidden[:1]
		}
		for _, m := range forbidden {
			note := fmt.Sprintf("Vulkan spec doesn't allow BuiltIn %s to be used for variables with Input storage class if execution model is %s.", name, executionModelName(m))
			add(biRule{kind: biNotCalled, builtin: r.builtin, builtInID: r.builtInID, refID: in.ResultID, member: r.member, model: m, note: note, vuidN: vuidNum(pos, 4319)})
		}
	}
	if models == 0 {
		return false
	}
	typeText := "4-component 32-bit float vector"
	if !pos {
		typeText = "32-bit float scalar"
	}
	for k, b := 0, uint64(1); k < len(modelOfBit); k, b = k+1, b<<1 {
		if models&b == 0 {
			continue
		}
		switch b {
		case mbVertex, mbGeometry, mbTessControl, mbTessEval, mbMeshNV, mbMeshEXT:
			t, failed := s.underlyingType(bj, r.member)
			if failed {
				return true
			}
			if b != mbVertex && r.member < 0 {
				// Per-vertex stages may array the variable.
				if at := s.typeOf(t); at != nil && at.Op == spirv.OpTypeArray {
					t = at.Elem
				}
			}
			desc := s.defDesc(bj, r.member)
			p := s.f32Problem(desc, t)
			if pos {
				p = s.f32VecProblem(desc, t, 4)
			}
			if p != "" {
				return s.failStop(i, vuid(4321), "According to the Vulkan spec BuiltIn %s variable needs to be a %s. %s", name, typeText, p)
			}
		default:
			return s.failStop(i, vuid(4318), "Vulkan spec allows BuiltIn %s to be used only with Vertex, TessellationControl, TessellationEvaluation or Geometry execution models. %s",
				name, s.refDesc(r.builtin, bj, rj, i, int64(modelOfBit[k]), fnID))
		}
	}
	return false
}

// vuidNum maps Position's VUID numbers (04318..04321) to PointSize's
// (04314..04317) when pos is false.
func vuidNum(pos bool, n int) int {
	if pos {
		return n
	}
	return n - 4
}

// f32ArrProblem is ValidateF32ArrHelper's message for any length.
func (s *state) f32ArrProblem(desc string, t uint32) string {
	at := s.typeOf(t)
	if at == nil || at.Op != spirv.OpTypeArray {
		return desc + " is not an array."
	}
	if !s.isFloatScalar(at.Elem) {
		return desc + " components are not float scalar."
	}
	if w := s.bitWidth(at.Elem); w != 32 {
		return fmt.Sprintf("%s has components with bit width %d.", desc, w)
	}
	return ""
}

// clipCullAtReference is ValidateClipOrCullDistanceAtReference.
func (s *state) clipCullAtReference(r biRule, i int, in *spirv.Instruction, fnID uint32, models uint64, add func(biRule), bj, rj int) bool {
	name := builtinName(r.builtin)
	clip := r.builtin == spirv.BuiltInClipDistance
	num := func(clipN, cullN int) int {
		if clip {
			return clipN
		}
		return cullN
	}
	sc, ok := s.storageClassOf(in)
	if ok && sc != spirv.StorageClassInput && sc != spirv.StorageClassOutput {
		return s.failStop(i, s.simpleVUID(r.builtin, num(4190, 4199)), "Vulkan spec allows BuiltIn %s to be only used for variables with Input or Output storage class. %s %s",
			name, s.refDesc(r.builtin, bj, rj, i, -1, fnID), s.storageDesc(in, i))
	}
	notCalled := func(m spirv.ExecutionModel, scName string, vuidN int) {
		note := fmt.Sprintf("Vulkan spec doesn't allow BuiltIn ClipDistance/CullDistance to be used for variables with %s storage class if execution model is %s.", scName, executionModelName(m))
		add(biRule{kind: biNotCalled, builtin: r.builtin, builtInID: r.builtInID, refID: in.ResultID, member: r.member, model: m, note: note, vuidN: vuidN})
	}
	if ok && sc == spirv.StorageClassInput {
		for _, m := range []spirv.ExecutionModel{spirv.ExecutionModelVertex, spirv.ExecutionModelMeshNV, spirv.ExecutionModelMeshEXT} {
			notCalled(m, "Input", num(4188, 4197))
		}
	}
	if ok && sc == spirv.StorageClassOutput {
		notCalled(spirv.ExecutionModelFragment, "Output", num(4189, 4198))
	}
	for k, b := 0, uint64(1); k < len(modelOfBit); k, b = k+1, b<<1 {
		if models&b == 0 {
			continue
		}
		switch b {
		case mbFragment, mbVertex, mbGeometry, mbTessControl, mbTessEval, mbMeshNV, mbMeshEXT:
			t, failed := s.underlyingType(bj, r.member)
			if failed {
				return true
			}
			if b != mbFragment && b != mbVertex && r.member < 0 {
				// Strip an extra level of arraying, if present.
				if at := s.typeOf(t); at != nil && at.Op == spirv.OpTypeArray {
					if sub := s.typeOf(at.Elem); sub != nil && sub.Op == spirv.OpTypeArray {
						t = at.Elem
					}
				}
			}
			if p := s.f32ArrProblem(s.defDesc(bj, r.member), t); p != "" {
				return s.failStop(i, s.simpleVUID(r.builtin, num(4191, 4200)), "According to the Vulkan spec BuiltIn %s variable needs to be a 32-bit float array. %s", name, p)
			}
		default:
			return s.failStop(i, s.simpleVUID(r.builtin, num(4187, 4196)), "Vulkan spec allows BuiltIn %s to be used only with Fragment, Vertex, TessellationControl, TessellationEvaluation or Geometry execution models. %s",
				name, s.refDesc(r.builtin, bj, rj, i, int64(modelOfBit[k]), fnID))
		}
	}
	return false
}
