package val

import (
	"sort"
	"strconv"

	"spvx/spirv"
)

// The mesh-shading family (SPV_EXT_mesh_shader), as SPIRV-Tools'
// MeshShadingPass (validate_mesh_shading.cpp) checks it: OpEmitMeshTasksEXT
// only in TaskEXT, with 32-bit unsigned group counts and a
// TaskPayloadWorkgroupEXT payload variable; OpSetMeshOutputsEXT only in
// MeshEXT, with 32-bit unsigned counts, and constant counts no larger than
// the OutputVertices and OutputPrimitivesEXT of every entry point reaching
// it; no OpLoad from an Output variable in MeshEXT (validate_memory.cpp's
// VUID 07107); and the interface variables of mesh and fragment entry points:
// PerPrimitiveEXT only on Output variables of MeshEXT and Input variables
// of Fragment, and every user Output variable of MeshEXT an array. The
// execution modes themselves are mode_setting.go's; spirv-val has no rule
// for OpWritePackedPrimitiveIndices4x8NV.

// meshShared is what the mesh rules need of the entry points, built once
// (see getMeshShared). For the variable rule: whether every OpEntryPoint's
// function is also a MeshEXT (Fragment) entry point, and the ids any
// OpEntryPoint lists in its interface (SPIRV-Tools' IsInterfaceVariable
// answers false for every variable as soon as one entry point lacks the
// model). For the built-in rules (builtins_mesh.go): the interface
// variables of the MeshEXT and MeshNV entry points by variable and by the
// struct under their arrays, and each entry-point function's modes.
type meshShared struct {
	allMesh, allFragment bool
	iface                map[uint32]bool
	byVar, byStruct      map[uint32][]meshEPVar // sorted by entry point
	fnModes              map[uint32]meshModes
	epPos                map[uint32][2]int // each function's first and second OpEntryPoint (-1: none)
	cullSeen             map[uint32]bool   // builtins_mesh.go: entry points with a CullPrimitiveEXT
}

// meshEPVar is an entry-point function and the interface variable of it
// that names a built-in (IsMeshInterfaceVar's map entry).
type meshEPVar struct{ ep, v uint32 }

// meshModes is an entry-point function's last OutputVertices and
// OutputPrimitivesEXT operands (0 for none) and its output topology modes.
type meshModes struct {
	vertices, primitives     uint64
	points, lines, triangles bool
}

// getMeshShared builds meshShared on first use: before the second loop's
// forks start (the global variables come first, and prepareShared calls
// it), or in the single-threaded passes after it; a fork never writes it.
func (s *state) getMeshShared() *meshShared {
	if s.mesh != nil {
		return s.mesh
	}
	eps := s.x.EntryPoints
	models := map[uint32]uint64{}
	ms := &meshShared{iface: map[uint32]bool{}, byVar: map[uint32][]meshEPVar{}, byStruct: map[uint32][]meshEPVar{},
		fnModes: map[uint32]meshModes{}, cullSeen: map[uint32]bool{}, epPos: map[uint32][2]int{}}
	for k, ep := range eps {
		pos, seen := ms.epPos[ep.Function]
		switch {
		case !seen:
			pos = [2]int{k, -1}
		case pos[1] < 0:
			pos[1] = k
		}
		ms.epPos[ep.Function] = pos
		models[ep.Function] |= modelBit(ep.Model)
		if !s.caps.has(spirv.CapabilityMeshShadingEXT) {
			continue // only meshVariable reads iface, under this capability
		}
		for _, id := range ep.Interface {
			ms.iface[id] = true
		}
	}
	ms.allMesh, ms.allFragment = len(eps) > 0, len(eps) > 0
	for _, ep := range eps {
		ms.allMesh = ms.allMesh && models[ep.Function]&mbMeshEXT != 0
		ms.allFragment = ms.allFragment && models[ep.Function]&mbFragment != 0
		if _, done := ms.fnModes[ep.Function]; !done { // every OpEntryPoint of a function has its modes
			ms.fnModes[ep.Function] = modesOf(ep.Modes)
		}
	}
	s.meshInterfaceVars(ms, models)
	s.mesh = ms
	return ms
}

// modesOf reads an entry point's mesh output modes; the last of each
// kind counts, as spirv-val registers them.
func modesOf(modes []spirv.ExecutionModeEntry) meshModes {
	var m meshModes
	for _, md := range modes {
		switch md.Mode {
		case spirv.ExecutionModeOutputVertices:
			if len(md.Params) > 0 {
				m.vertices = uint64(md.Params[0])
			}
		case spirv.ExecutionModeOutputPrimitivesEXT:
			if len(md.Params) > 0 {
				m.primitives = uint64(md.Params[0])
			}
		case spirv.ExecutionModeOutputPoints:
			m.points = true
		case spirv.ExecutionModeOutputLinesEXT:
			m.lines = true
		case spirv.ExecutionModeOutputTrianglesEXT:
			m.triangles = true
		}
	}
	return m
}

// meshInterfaceVars fills byVar and byStruct: for each mesh entry-point
// function, in each of its OpEntryPoints the first interface id naming a
// key (the id itself, or the struct under its pointer's arrays), the
// last OpEntryPoint winning, as IsMeshInterfaceVar finds them.
func (s *state) meshInterfaceVars(ms *meshShared, models map[uint32]uint64) {
	type key struct{ fn, id uint32 }
	varOf, structOf := map[key]uint32{}, map[key]uint32{}
	for _, ep := range s.x.EntryPoints {
		if models[ep.Function]&(mbMeshEXT|mbMeshNV) == 0 {
			continue
		}
		seenVar, seenStruct := map[uint32]bool{}, map[uint32]bool{}
		for _, id := range ep.Interface {
			if !seenVar[id] {
				seenVar[id], varOf[key{ep.Function, id}] = true, id
			}
			if st := s.structUnderArrays(id); st != 0 && !seenStruct[st] {
				seenStruct[st], structOf[key{ep.Function, st}] = true, id
			}
		}
	}
	for k, v := range varOf {
		ms.byVar[k.id] = append(ms.byVar[k.id], meshEPVar{k.fn, v})
	}
	for k, v := range structOf {
		ms.byStruct[k.id] = append(ms.byStruct[k.id], meshEPVar{k.fn, v})
	}
	for _, m := range [2]map[uint32][]meshEPVar{ms.byVar, ms.byStruct} {
		for _, l := range m {
			sort.Slice(l, func(a, b int) bool { return l[a].ep < l[b].ep })
		}
	}
}

// structUnderArrays is the type under the arrays of variable id's
// pointer type, if it is a struct; 0 otherwise.
func (s *state) structUnderArrays(id uint32) uint32 {
	j, ok := s.x.Def(id)
	if !ok || s.m.Opcode(j) != spirv.OpVariable {
		return 0
	}
	t := s.typeWord(s.m.Inst(j).TypeID, 3)
	for n := 0; s.typeOp(t) == spirv.OpTypeArray && n <= spirv.MaxTypeDepth; n++ {
		t = s.typeWord(t, 2)
	}
	if s.typeOp(t) != spirv.OpTypeStruct {
		return 0
	}
	return t
}

// meshShadingOps reports whether meshShadingPass can act on an instruction of opcode op
// (passGate runs it on no other: a new case there needs its opcode here).
func meshShadingOps(op spirv.Opcode) bool {
	return opIn(op, spirv.OpEmitMeshTasksEXT, spirv.OpSetMeshOutputsEXT, spirv.OpVariable, spirv.OpLoad)
}

// meshShadingPass is MeshShadingPass.
func (s *state) meshShadingPass(i int, in *spirv.Instruction) bool {
	switch in.Opcode {
	case spirv.OpEmitMeshTasksEXT:
		s.limitModels(i, limEmitMeshTasks, in.Opcode)
		return s.emitMeshTasks(i, in)
	case spirv.OpSetMeshOutputsEXT:
		s.limitModels(i, limSetMeshOutputs, in.Opcode)
		return s.setMeshOutputs(i, in)
	case spirv.OpVariable:
		return s.meshVariable(i, in)
	case spirv.OpLoad:
		// validate_memory.cpp's rule, registered here as its only
		// limitation on OpLoad: MeshEXT never reads its outputs.
		if s.caps.has(spirv.CapabilityMeshShadingEXT) {
			pt := s.opType(in, 2)
			if op := s.typeOp(pt); (op == spirv.OpTypePointer || op == spirv.OpTypeUntypedPointerKHR) &&
				spirv.StorageClass(s.typeWord(pt, 2)) == spirv.StorageClassOutput {
				s.limitModels(i, limMeshOutputLoad, in.Opcode)
			}
		}
	}
	return false
}

// isU32 is IsUnsignedIntScalarType with a bit width of 32.
func (s *state) isU32(t uint32) bool { return s.isUintScalar(t) && s.typeOf(t).Width == 32 }

// emitMeshTasks is ValidateEmitMeshTasks.
func (s *state) emitMeshTasks(i int, in *spirv.Instruction) bool {
	for k, axis := range [3]string{"X", "Y", "Z"} {
		if !s.isU32(s.opType(in, k)) {
			return s.fail(i, "", "Group Count %s must be a 32-bit unsigned int scalar", axis)
		}
	}
	if len(in.Operands) != 4 {
		return false
	}
	j, ok := s.x.Def(s.opWord(in, 3))
	if !ok || s.m.Opcode(j) != spirv.OpVariable {
		return s.fail(i, "", "Payload must be the result of a OpVariable")
	}
	payload := s.m.Inst(j)
	if sc, _ := s.storageClassOf(&payload); sc != spirv.StorageClassTaskPayloadWorkgroupEXT {
		return s.fail(i, "", "Payload OpVariable must have a storage class of TaskPayloadWorkgroupEXT")
	}
	return false
}

// setMeshOutputs is ValidateSetMeshOutputs: constant counts become
// limitations checked against each entry point's output sizes.
func (s *state) setMeshOutputs(i int, in *spirv.Instruction) bool {
	if !s.isU32(s.opType(in, 0)) {
		return s.fail(i, "", "Vertex Count must be a 32-bit unsigned int scalar")
	}
	if !s.isU32(s.opType(in, 1)) {
		return s.fail(i, "", "Primitive Count must be a 32-bit unsigned int scalar")
	}
	if f := s.fnAt(i); f >= 0 {
		if v, ok := s.constUint(s.opWord(in, 0)); ok {
			s.limits = append(s.limits, limitUse{fn: f, kind: limMeshVertexCount, op: in.Opcode, val: v})
		}
		if v, ok := s.constUint(s.opWord(in, 1)); ok {
			s.limits = append(s.limits, limitUse{fn: f, kind: limMeshPrimitiveCount, op: in.Opcode, val: v})
		}
	}
	return false
}

// meshVariable is ValidateMeshVariable.
func (s *state) meshVariable(i int, in *spirv.Instruction) bool {
	if !s.caps.has(spirv.CapabilityMeshShadingEXT) {
		return false
	}
	ms := s.getMeshShared()
	if !ms.iface[in.ResultID] {
		return false
	}
	sc, _ := s.storageClassOf(in)
	decs := s.decorations()
	if decs.has(in.ResultID, spirv.DecorationPerPrimitiveEXT) {
		if ms.allFragment && sc != spirv.StorageClassInput {
			return s.fail(i, "", "PerPrimitiveEXT decoration must be applied only to variables in the Input Storage Class in the Fragment Execution Model.")
		}
		if ms.allMesh && sc != spirv.StorageClassOutput {
			return s.fail(i, s.vuid("VUID-PrimitiveId-PrimitiveId-04336"), "PerPrimitiveEXT decoration must be applied only to variables in the Output Storage Class in the Storage Class in the MeshEXT Execution Model.")
		}
	}
	if ms.allMesh && sc == spirv.StorageClassOutput && !decs.has(in.ResultID, spirv.DecorationBuiltIn) &&
		s.typeOp(in.TypeID) == spirv.OpTypePointer && s.typeOp(s.typeWord(in.TypeID, 3)) != spirv.OpTypeArray {
		return s.fail(i, "", "In the MeshEXT Execution Mode, all Output Variables must contain an Array.")
	}
	return false
}

// meshOutputSizes are the OutputVertices and OutputPrimitivesEXT of
// entry-point function fn, as GetOutputVertices and
// GetOutputPrimitivesEXT read them (0 for none).
func (s *state) meshOutputSizes(fn uint32) (vertices, primitives uint64) {
	m := s.getMeshShared().fnModes[fn]
	return m.vertices, m.primitives
}

// meshCountLimits holds, per function, the smallest OutputVertices and
// OutputPrimitivesEXT among the entry points whose call graphs contain
// it: a constant count fails for some entry point iff it exceeds that.
type meshCountLimits struct {
	minVertices, minPrimitives []uint64
	reached                    []bool
}

// meshCountMinima computes meshCountLimits in linear time: entry points
// are visited by increasing size, and a depth-first walk from each stops
// at functions an earlier (smaller) one reached.
func (s *state) meshCountMinima(g *callGraph) *meshCountLimits {
	nf := len(s.x.Functions)
	l := &meshCountLimits{minVertices: make([]uint64, nf), minPrimitives: make([]uint64, nf), reached: make([]bool, nf)}
	type ep struct {
		f    int32
		size [2]uint64
	}
	eps := make([]ep, len(g.epFns))
	for k, id := range g.epFns {
		eps[k].f = -1
		if f, ok := g.fnIndex[id]; ok {
			eps[k].f = f
		}
		v, p := s.meshOutputSizes(id)
		eps[k].size = [2]uint64{v, p}
	}
	for w, min := range [2][]uint64{l.minVertices, l.minPrimitives} {
		sort.SliceStable(eps, func(a, b int) bool { return eps[a].size[w] < eps[b].size[w] })
		seen := make([]bool, nf)
		for _, e := range eps {
			if e.f < 0 {
				continue
			}
			stack := []int32{e.f}
			for len(stack) > 0 {
				f := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if seen[f] {
					continue
				}
				seen[f], l.reached[f], min[f] = true, true, e.size[w]
				stack = append(stack, g.callees[g.start[f]:g.start[f+1]]...)
			}
		}
	}
	return l
}

// meshCountFails reports whether count limitation u fails for some
// entry point reaching its function.
func (s *state) meshCountFails(u limitUse, l *meshCountLimits) bool {
	return l.reached[u.fn] && s.meshCountBad(u, l.minVertices[u.fn], l.minPrimitives[u.fn])
}

// countBad reports whether one of the count limitations in uses fails
// for the entry point of function ep.
func (s *state) countBad(uses []limitUse, ep uint32) bool {
	for _, u := range uses {
		if s.meshCountMessage(u, ep) != "" {
			return true
		}
	}
	return false
}

// meshCountBad reports whether limitation u fails against the given
// output sizes; false for other kinds.
func (s *state) meshCountBad(u limitUse, vertices, primitives uint64) bool {
	switch u.kind {
	case limMeshVertexCount:
		return u.val > vertices
	case limMeshPrimitiveCount:
		return u.val > primitives
	}
	return false
}

// meshCountMessage is the message of a failing count limitation u for
// the entry point of function ep, "" when u does not fail there.
func (s *state) meshCountMessage(u limitUse, ep uint32) string {
	if u.kind != limMeshVertexCount && u.kind != limMeshPrimitiveCount {
		return ""
	}
	v, p := s.meshOutputSizes(ep)
	if !s.meshCountBad(u, v, p) {
		return ""
	}
	if u.kind == limMeshVertexCount {
		return "OpSetMeshOutputsEXT Vertex Count (" + strconv.FormatUint(u.val, 10) + ") is larger than the OutputVertices in OpExecutionMode (" + strconv.FormatUint(v, 10) + ")."
	}
	return "OpSetMeshOutputsEXT Primitive Count (" + strconv.FormatUint(u.val, 10) + ") is larger than the OutputPrimitivesEXT in OpExecutionMode (" + strconv.FormatUint(p, 10) + ")."
}
