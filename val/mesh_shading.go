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
// it; and the interface variables of mesh and fragment entry points:
// PerPrimitiveEXT only on Output variables of MeshEXT and Input variables
// of Fragment, and every user Output variable of MeshEXT an array. The
// execution modes themselves are mode_setting.go's; spirv-val has no rule
// for OpWritePackedPrimitiveIndices4x8NV.

// meshShared is what the variable rule needs of the entry points, built
// once before the second loop: whether every OpEntryPoint's function is
// also a MeshEXT (Fragment) entry point, and the ids any OpEntryPoint
// lists in its interface. This is SPIRV-Tools' IsInterfaceVariable, which
// answers false for every variable as soon as one entry point lacks the
// model.
type meshShared struct {
	allMesh, allFragment bool
	iface                map[uint32]bool
}

// getMeshShared returns nil when the module does not declare
// MeshShadingEXT, the rule's condition. It is built on first use (the
// global variables come before the forks start), or by prepareShared;
// a fork never writes it.
func (s *state) getMeshShared() *meshShared {
	if s.mesh != nil || !s.caps.has(spirv.CapabilityMeshShadingEXT) {
		return s.mesh
	}
	eps := s.x.EntryPoints
	models := map[uint32]uint64{}
	ms := &meshShared{iface: map[uint32]bool{}}
	for _, ep := range eps {
		models[ep.Function] |= modelBit(ep.Model)
		for _, id := range ep.Interface {
			ms.iface[id] = true
		}
	}
	ms.allMesh, ms.allFragment = len(eps) > 0, len(eps) > 0
	for _, ep := range eps {
		ms.allMesh = ms.allMesh && models[ep.Function]&mbMeshEXT != 0
		ms.allFragment = ms.allFragment && models[ep.Function]&mbFragment != 0
	}
	s.mesh = ms
	return ms
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
	if !ok || s.m.Inst(j).Opcode != spirv.OpVariable {
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
	ms := s.getMeshShared()
	if ms == nil || !ms.iface[in.ResultID] {
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

// meshOutputSizes are, per entry-point function, the operands of its last
// OutputVertices and OutputPrimitivesEXT execution modes (0 for none), as
// SPIRV-Tools' GetOutputVertices and GetOutputPrimitivesEXT read them.
func (s *state) meshOutputSizes(fn uint32) (vertices, primitives uint64) {
	for _, ep := range s.x.EntryPoints {
		if ep.Function != fn {
			continue
		}
		for _, md := range ep.Modes {
			if len(md.Params) == 0 {
				continue
			}
			switch md.Mode {
			case spirv.ExecutionModeOutputVertices:
				vertices = uint64(md.Params[0])
			case spirv.ExecutionModeOutputPrimitivesEXT:
				primitives = uint64(md.Params[0])
			}
		}
		return vertices, primitives
	}
	return 0, 0
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
	at := make(map[uint32]int, len(g.epFns))
	for k, id := range g.epFns {
		eps[k].f, at[id] = -1, k
		if f, ok := g.fnIndex[id]; ok {
			eps[k].f = f
		}
	}
	// Every OpEntryPoint of a function carries the function's modes; the
	// last mode of each kind counts, as spirv-val registers them.
	for _, e := range s.x.EntryPoints {
		k := at[e.Function]
		for _, md := range e.Modes {
			if len(md.Params) > 0 && md.Mode == spirv.ExecutionModeOutputVertices {
				eps[k].size[0] = uint64(md.Params[0])
			} else if len(md.Params) > 0 && md.Mode == spirv.ExecutionModeOutputPrimitivesEXT {
				eps[k].size[1] = uint64(md.Params[0])
			}
		}
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
