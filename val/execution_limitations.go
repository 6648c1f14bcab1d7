package val

import (
	"fmt"
	"sort"
	"strings"

	"spvx/spirv"
)

// This file holds validate_execution_limitations.cpp and the registration
// side of Function::RegisterExecutionModelLimitation / RegisterLimitation.
// Passes register, for the function an instruction is in, a limitation:
// the execution models it may run in (OpKill: Fragment), or a condition
// on the entry point's execution modes (derivatives in GLCompute need a
// DerivativeGroup mode). Once the module is read, every function reached
// by an entry point is checked against each entry point reaching it:
// "OpEntryPoint Entry Point <id> '...'s callgraph contains function <id>
// '...', which cannot be used with the current execution model:" and the
// failing limitations' messages, one a line.
//
// Linear time: each entry point contributes a bit mask (its execution
// models and mode traits); masks are propagated through the call graph
// once with a work list (a mask only grows, so a function is revisited at
// most once per bit), and a function fails iff its mask meets the bits its
// limitations forbid. Only then is the first failing entry point looked
// for, by one walk up the callers.

// limitKind names one registered limitation; limitInfos describes it.
type limitKind uint8

const (
	limNone limitKind = iota
	limBarrierOld
	limSplitBarrier
	limBarrierSubgroup
	limWorkgroupExecScope
	limShaderCallScope
	limWorkgroupMemScope
	limWorkgroupTessGLSL
	limKill
	limTerminateInvocation
	limIgnoreIntersection
	limTerminateRay
	limPrimitive
	limDerivModel
	limDerivMode
	limImplicitLodModel
	limImplicitLodMode
	limQueryLodModel
	limQueryLodMode
	limInterlockModel
	limInterlockMode
	limDemote
	limIsHelper
	limEmitMeshTasks
	limSetMeshOutputs
	limMeshOutputLoad
	limMeshVertexCount    // a count limitation: see meshCountBad
	limMeshPrimitiveCount // a count limitation: see meshCountBad
	// The ray-tracing family's (ray_tracing.go, ray_tracing_reorder.go).
	limTraceRay
	limReportIntersection
	limExecuteCallable
	limHitAttributeStore
	limHitObject
	limReorderThread
	limOutput // first of the storage-class consumers (see storageConsumer)
	limWorkgroup
	limTileImage
	limCallableData
	limIncomingCallableData
	limRayPayload
	limHitAttribute
	limIncomingRayPayload
	limShaderRecordBuffer
	limHitObjectAttributeNV
	limHitObjectAttributeEXT
	numLimitKinds
)

// Bits of an execution-model mask: one per model spirv-val names, one for
// any other model, then the entry-point traits the mode limitations test.
const (
	mbVertex uint64 = 1 << iota
	mbTessControl
	mbTessEval
	mbGeometry
	mbFragment
	mbGLCompute
	mbKernel
	mbTaskNV
	mbMeshNV
	mbRayGen
	mbIntersection
	mbAnyHit
	mbClosestHit
	mbMiss
	mbCallable
	mbTaskEXT
	mbMeshEXT
	mbOther

	// traitNoDerivGroup: a GLCompute, MeshEXT or TaskEXT entry point
	// without DerivativeGroupLinearKHR or DerivativeGroupQuadsKHR.
	traitNoDerivGroup
	// traitNoInterlock: no fragment shader interlock execution mode.
	traitNoInterlock
	// traitNoDepthReplacing: no DepthReplacing execution mode (FragDepth).
	traitNoDepthReplacing

	mbAllModels = traitNoDerivGroup - 1
)

func modelBit(m spirv.ExecutionModel) uint64 {
	switch m {
	case spirv.ExecutionModelVertex:
		return mbVertex
	case spirv.ExecutionModelTessellationControl:
		return mbTessControl
	case spirv.ExecutionModelTessellationEvaluation:
		return mbTessEval
	case spirv.ExecutionModelGeometry:
		return mbGeometry
	case spirv.ExecutionModelFragment:
		return mbFragment
	case spirv.ExecutionModelGLCompute:
		return mbGLCompute
	case spirv.ExecutionModelKernel:
		return mbKernel
	case spirv.ExecutionModelTaskNV:
		return mbTaskNV
	case spirv.ExecutionModelMeshNV:
		return mbMeshNV
	case spirv.ExecutionModelRayGenerationKHR:
		return mbRayGen
	case spirv.ExecutionModelIntersectionKHR:
		return mbIntersection
	case spirv.ExecutionModelAnyHitKHR:
		return mbAnyHit
	case spirv.ExecutionModelClosestHitKHR:
		return mbClosestHit
	case spirv.ExecutionModelMissKHR:
		return mbMiss
	case spirv.ExecutionModelCallableKHR:
		return mbCallable
	case spirv.ExecutionModelTaskEXT:
		return mbTaskEXT
	case spirv.ExecutionModelMeshEXT:
		return mbMeshEXT
	}
	return mbOther
}

// limitInfo: bad is the mask bits that fail the limitation; msg is its
// message (with %s for the opcode's name where withOp); vuid, if any,
// prefixes the message in Vulkan environments.
type limitInfo struct {
	bad    uint64
	vuid   string
	msg    string
	withOp bool
}

const (
	mbDerivModels = mbFragment | mbGLCompute | mbMeshEXT | mbTaskEXT
	mbRayTracing  = mbRayGen | mbIntersection | mbAnyHit | mbClosestHit | mbMiss | mbCallable
	mbWorkgroupOK = mbTaskNV | mbMeshNV | mbTaskEXT | mbMeshEXT | mbTessControl | mbGLCompute
)

func only(allowed uint64) uint64 { return mbAllModels &^ allowed }

var limitInfos = [numLimitKinds]limitInfo{
	limBarrierOld: {bad: only(mbTessControl | mbGLCompute | mbKernel | mbTaskNV | mbMeshNV),
		msg: "In SPIR-V 1.2 or earlier, OpControlBarrier requires one of the following Execution Models: TessellationControl, GLCompute, Kernel, MeshNV or TaskNV"},
	limSplitBarrier: {bad: only(mbGLCompute | mbKernel), vuid: "VUID-StandaloneSpirv-SplitBarrierEXT-13552",
		msg: "The SplitBarrierEXT capability must not be enabled in any stage other than GLCompute or Kernel."},
	limBarrierSubgroup: {bad: mbFragment | mbVertex | mbGeometry | mbTessEval | mbRayGen | mbIntersection | mbAnyHit | mbClosestHit | mbMiss,
		vuid: "VUID-StandaloneSpirv-OpControlBarrier-04682",
		msg:  "in Vulkan environment, OpControlBarrier execution scope must be Subgroup for Fragment, Vertex, Geometry, TessellationEvaluation, RayGeneration, Intersection, AnyHit, ClosestHit, and Miss execution models"},
	limWorkgroupExecScope: {bad: only(mbWorkgroupOK), vuid: "VUID-StandaloneSpirv-None-04637",
		msg: "in Vulkan environment, Workgroup execution scope is only for TaskNV, MeshNV, TaskEXT, MeshEXT, TessellationControl, and GLCompute execution models"},
	limShaderCallScope: {bad: only(mbRayTracing), vuid: "VUID-StandaloneSpirv-None-04640",
		msg: "ShaderCallKHR Memory Scope requires a ray tracing execution model"},
	limWorkgroupMemScope: {bad: only(mbWorkgroupOK), vuid: "VUID-StandaloneSpirv-None-07321",
		msg: "Workgroup Memory Scope is limited to MeshNV, TaskNV, MeshEXT, TaskEXT, TessellationControl, and GLCompute execution model"},
	limWorkgroupTessGLSL: {bad: mbTessControl, vuid: "VUID-StandaloneSpirv-ExecutionModel-07320",
		msg: "Workgroup Memory Scope can't be used with TessellationControl using GLSL450 Memory Model"},
	limKill:                {bad: only(mbFragment), msg: "OpKill requires Fragment execution model"},
	limTerminateInvocation: {bad: only(mbFragment), msg: "OpTerminateInvocation requires Fragment execution model"},
	limIgnoreIntersection:  {bad: only(mbAnyHit), msg: "OpIgnoreIntersectionKHR requires AnyHitKHR execution model"},
	limTerminateRay:        {bad: only(mbAnyHit), msg: "OpTerminateRayKHR requires AnyHitKHR execution model"},
	limPrimitive:           {bad: only(mbGeometry), msg: "%s instructions require Geometry execution model", withOp: true},
	limDerivModel: {bad: only(mbDerivModels), withOp: true,
		msg: "Derivative instructions require Fragment, GLCompute, MeshEXT or TaskEXT execution model: %s"},
	limDerivMode: {bad: traitNoDerivGroup, withOp: true,
		msg: "Derivative instructions require DerivativeGroupQuadsKHR or DerivativeGroupLinearKHR execution mode for GLCompute, MeshEXT or TaskEXT execution model: %s"},
	limImplicitLodModel: {bad: only(mbDerivModels), withOp: true,
		msg: "ImplicitLod instructions require Fragment, GLCompute, MeshEXT or TaskEXT execution model: %s"},
	limImplicitLodMode: {bad: traitNoDerivGroup, withOp: true,
		msg: "ImplicitLod instructions require DerivativeGroupQuadsKHR or DerivativeGroupLinearKHR execution mode for GLCompute, MeshEXT or TaskEXT execution model: %s"},
	limQueryLodModel: {bad: only(mbDerivModels),
		msg: "OpImageQueryLod requires Fragment, GLCompute, MeshEXT or TaskEXT execution model"},
	limQueryLodMode: {bad: traitNoDerivGroup,
		msg: "OpImageQueryLod requires DerivativeGroupQuadsKHR or DerivativeGroupLinearKHR execution mode for GLCompute, MeshEXT or TaskEXT execution model"},
	limInterlockModel: {bad: only(mbFragment),
		msg: "OpBeginInvocationInterlockEXT/OpEndInvocationInterlockEXT require Fragment execution model"},
	limInterlockMode: {bad: traitNoInterlock,
		msg: "OpBeginInvocationInterlockEXT/OpEndInvocationInterlockEXT require a fragment shader interlock execution mode."},
	limDemote:         {bad: only(mbFragment), msg: "OpDemoteToHelperInvocationEXT requires Fragment execution model"},
	limIsHelper:       {bad: only(mbFragment), msg: "OpIsHelperInvocationEXT requires Fragment execution model"},
	limEmitMeshTasks:  {bad: only(mbTaskEXT), msg: "OpEmitMeshTasksEXT requires TaskEXT execution model"},
	limSetMeshOutputs: {bad: only(mbMeshEXT), msg: "OpSetMeshOutputsEXT requires MeshEXT execution model"},
	limMeshOutputLoad: {bad: mbMeshEXT, vuid: "VUID-StandaloneSpirv-MeshEXT-07107", msg: "The Output Storage Class in a Mesh Execution Model must not be read from"},

	limTraceRay: {bad: only(mbRayGen | mbClosestHit | mbMiss),
		msg: "OpTraceRayKHR requires RayGenerationKHR, ClosestHitKHR and MissKHR execution models"},
	limReportIntersection: {bad: only(mbIntersection), msg: "OpReportIntersectionKHR requires IntersectionKHR execution model"},
	limExecuteCallable: {bad: only(mbRayGen | mbClosestHit | mbMiss | mbCallable),
		msg: "OpExecuteCallableKHR requires RayGenerationKHR, ClosestHitKHR, MissKHR and CallableKHR execution models"},
	limOutput: {bad: mbGLCompute | mbRayTracing, vuid: "VUID-StandaloneSpirv-None-04644",
		msg: "in Vulkan environment, Output Storage Class must not be used in GLCompute, RayGenerationKHR, IntersectionKHR, AnyHitKHR, ClosestHitKHR, MissKHR, or CallableKHR execution models"},
	limWorkgroup: {bad: only(mbGLCompute | mbTaskNV | mbMeshNV | mbTaskEXT | mbMeshEXT), vuid: "VUID-StandaloneSpirv-None-04645",
		msg: "in Vulkan environment, Workgroup Storage Class is limited to MeshEXT, TaskEXT, MeshNV, TaskNV, and GLCompute execution model"},
	limTileImage: {bad: only(mbFragment), vuid: "VUID-StandaloneSpirv-None-08720",
		msg: "in Vulkan environment, TileImageEXT Storage Class is limited to Fragment execution model"},
	limCallableData: {bad: only(mbRayGen | mbClosestHit | mbCallable | mbMiss), vuid: "VUID-StandaloneSpirv-CallableDataKHR-04704",
		msg: "CallableDataKHR Storage Class is limited to RayGenerationKHR, ClosestHitKHR, CallableKHR, and MissKHR execution model"},
	limIncomingCallableData: {bad: only(mbCallable), vuid: "VUID-StandaloneSpirv-IncomingCallableDataKHR-04705",
		msg: "IncomingCallableDataKHR Storage Class is limited to CallableKHR execution model"},
	limRayPayload: {bad: only(mbRayGen | mbClosestHit | mbMiss), vuid: "VUID-StandaloneSpirv-RayPayloadKHR-04698",
		msg: "RayPayloadKHR Storage Class is limited to RayGenerationKHR, ClosestHitKHR, and MissKHR execution model"},
	limHitAttribute: {bad: only(mbIntersection | mbAnyHit | mbClosestHit), vuid: "VUID-StandaloneSpirv-HitAttributeKHR-04701",
		msg: "HitAttributeKHR Storage Class is limited to IntersectionKHR, AnyHitKHR, sand ClosestHitKHR execution model"}, // sic
	limHitAttributeStore: {bad: mbAnyHit | mbClosestHit, vuid: "VUID-StandaloneSpirv-HitAttributeKHR-04703",
		msg: "HitAttributeKHR Storage Class variables are read only with AnyHitKHR and ClosestHitKHR"},
	limHitObject: {bad: only(mbRayGen | mbClosestHit | mbMiss), withOp: true,
		msg: "%s requires RayGenerationKHR, ClosestHitKHR and MissKHR execution models"},
	limReorderThread: {bad: only(mbRayGen), withOp: true, msg: "%s requires RayGenerationKHR execution model"},
	limIncomingRayPayload: {bad: only(mbAnyHit | mbClosestHit | mbMiss), vuid: "VUID-StandaloneSpirv-IncomingRayPayloadKHR-04699",
		msg: "IncomingRayPayloadKHR Storage Class is limited to AnyHitKHR, ClosestHitKHR, and MissKHR execution model"},
	limShaderRecordBuffer: {bad: only(mbRayTracing), vuid: "VUID-StandaloneSpirv-ShaderRecordBufferKHR-07119",
		msg: "ShaderRecordBufferKHR Storage Class is limited to RayGenerationKHR, IntersectionKHR, AnyHitKHR, ClosestHitKHR, CallableKHR, and MissKHR execution model"},
	limHitObjectAttributeNV: {bad: only(mbRayGen | mbClosestHit | mbMiss),
		msg: "HitObjectAttributeNV Storage Class is limited to RayGenerationKHR, ClosestHitKHR or MissKHR execution model"},
	limHitObjectAttributeEXT: {bad: only(mbRayGen | mbClosestHit | mbMiss),
		msg: "HitObjectAttributeEXT Storage Class is limited to RayGenerationKHR, ClosestHitKHR or MissKHR execution model"},
}

// limitUse is one registration: the function (its index in
// spirv.Index.Functions), the limitation, the registering opcode, and
// the count of a count limitation.
type limitUse struct {
	fn   int32
	kind limitKind
	op   spirv.Opcode
	val  uint64
}

// fnAt returns the index in x.Functions of the function holding
// instruction i, -1 if none.
func (s *state) fnAt(i int) int32 {
	fns := s.x.Functions
	k := sort.Search(len(fns), func(k int) bool { return fns[k].Start > i }) - 1
	if k < 0 || (fns[k].End >= 0 && i > fns[k].End) {
		return -1
	}
	return int32(k)
}

// limitModels registers limitation kind for the function holding
// instruction i (RegisterExecutionModelLimitation / RegisterLimitation).
func (s *state) limitModels(i int, kind limitKind, op spirv.Opcode) {
	if f := s.fnAt(i); f >= 0 {
		s.limits = append(s.limits, limitUse{fn: f, kind: kind, op: op})
	}
}

// executionLimitsOps reports whether executionLimitsPass can act on an instruction of opcode op
// (passGate runs it on no other: a new case there needs its opcode here).
func executionLimitsOps(op spirv.Opcode) bool {
	return derivativesOps(op) || opIn(op, spirv.OpKill, spirv.OpTerminateInvocation, spirv.OpIgnoreIntersectionKHR,
		spirv.OpTerminateRayKHR, spirv.OpImageSampleImplicitLod, spirv.OpImageSampleDrefImplicitLod,
		spirv.OpImageSampleProjImplicitLod, spirv.OpImageSampleProjDrefImplicitLod, spirv.OpImageSparseSampleImplicitLod,
		spirv.OpImageSparseSampleDrefImplicitLod, spirv.OpImageSparseSampleProjImplicitLod,
		spirv.OpImageSparseSampleProjDrefImplicitLod, spirv.OpImageQueryLod, spirv.OpEmitVertex, spirv.OpEndPrimitive,
		spirv.OpEmitStreamVertex, spirv.OpEndStreamPrimitive, spirv.OpBeginInvocationInterlockEXT,
		spirv.OpEndInvocationInterlockEXT, spirv.OpDemoteToHelperInvocation, spirv.OpIsHelperInvocationEXT)
}

// executionLimitsPass registers the limitations of instructions whose own
// rule families do not register them here: the CFG's terminators, image
// sampling with implicit LOD, derivatives, geometry primitives, and
// validate_misc.cpp's fragment-only instructions.
func (s *state) executionLimitsPass(i int, in *spirv.Instruction) bool {
	op := in.Opcode
	switch op {
	case spirv.OpKill:
		s.limitModels(i, limKill, op)
	case spirv.OpTerminateInvocation:
		s.limitModels(i, limTerminateInvocation, op)
	case spirv.OpIgnoreIntersectionKHR:
		s.limitModels(i, limIgnoreIntersection, op)
	case spirv.OpTerminateRayKHR:
		s.limitModels(i, limTerminateRay, op)
	case spirv.OpImageSampleImplicitLod, spirv.OpImageSampleDrefImplicitLod, spirv.OpImageSampleProjImplicitLod,
		spirv.OpImageSampleProjDrefImplicitLod, spirv.OpImageSparseSampleImplicitLod,
		spirv.OpImageSparseSampleDrefImplicitLod, spirv.OpImageSparseSampleProjImplicitLod,
		spirv.OpImageSparseSampleProjDrefImplicitLod:
		s.limitModels(i, limImplicitLodModel, op)
		s.limitModels(i, limImplicitLodMode, op)
	case spirv.OpImageQueryLod:
		s.limitModels(i, limQueryLodModel, op)
		s.limitModels(i, limQueryLodMode, op)
	case spirv.OpDPdx, spirv.OpDPdy, spirv.OpFwidth, spirv.OpDPdxFine, spirv.OpDPdyFine, spirv.OpFwidthFine,
		spirv.OpDPdxCoarse, spirv.OpDPdyCoarse, spirv.OpFwidthCoarse:
		s.limitModels(i, limDerivModel, op)
		if s.exts["SPV_KHR_compute_shader_derivatives"] {
			s.limitModels(i, limDerivMode, op)
		}
	case spirv.OpEmitVertex, spirv.OpEndPrimitive, spirv.OpEmitStreamVertex, spirv.OpEndStreamPrimitive:
		s.limitModels(i, limPrimitive, op)
	case spirv.OpBeginInvocationInterlockEXT, spirv.OpEndInvocationInterlockEXT:
		s.limitModels(i, limInterlockModel, op)
		s.limitModels(i, limInterlockMode, op)
	case spirv.OpDemoteToHelperInvocation:
		s.limitModels(i, limDemote, op)
	case spirv.OpIsHelperInvocationEXT:
		s.limitModels(i, limIsHelper, op)
	}
	return false
}

// entryTraits returns the model bits of every OpEntryPoint naming
// function id (spirv-val keys models and modes by function) and the
// mode traits of those entry points.
func entryTraits(eps []spirv.EntryPoint, idx []int) uint64 {
	var m uint64
	for _, k := range idx {
		m |= modelBit(eps[k].Model)
	}
	derivGroup, interlock, depth := false, false, false
	for _, k := range idx {
		for _, md := range eps[k].Modes {
			switch md.Mode {
			case spirv.ExecutionModeDerivativeGroupLinearKHR, spirv.ExecutionModeDerivativeGroupQuadsKHR:
				derivGroup = true
			case spirv.ExecutionModeDepthReplacing:
				depth = true
			case spirv.ExecutionModePixelInterlockOrderedEXT, spirv.ExecutionModePixelInterlockUnorderedEXT,
				spirv.ExecutionModeSampleInterlockOrderedEXT, spirv.ExecutionModeSampleInterlockUnorderedEXT,
				spirv.ExecutionModeShadingRateInterlockOrderedEXT, spirv.ExecutionModeShadingRateInterlockUnorderedEXT:
				interlock = true
			}
		}
	}
	if m&(mbGLCompute|mbMeshEXT|mbTaskEXT) != 0 && !derivGroup {
		m |= traitNoDerivGroup
	}
	if !interlock {
		m |= traitNoInterlock
	}
	if !depth {
		m |= traitNoDepthReplacing
	}
	return m
}

// callGraph is the module's call graph with, for each function, the
// mask of the entry points whose call graphs contain it (their model bits
// and mode traits), propagated once with a work list.
type callGraph struct {
	fnIndex map[uint32]int32 // function id -> index in x.Functions
	start   []int32          // callees of function f: callees[start[f]:start[f+1]]
	callees []int32
	mask    []uint64 // per function: the bits of the entry points reaching it
	epFns   []uint32 // entry-point functions, in first-appearance order
	epMask  map[uint32]uint64
}

func (s *state) getCallGraph() *callGraph {
	if s.calls != nil {
		return s.calls
	}
	x, m := s.x, s.m
	nf := len(x.Functions)
	g := &callGraph{fnIndex: make(map[uint32]int32, nf), start: make([]int32, nf+1), mask: make([]uint64, nf)}
	for f, fn := range x.Functions {
		if _, dup := g.fnIndex[fn.ID]; !dup {
			g.fnIndex[fn.ID] = int32(f)
		}
	}
	for f, fn := range x.Functions {
		end := fn.End
		if end < 0 {
			end = m.Len() - 1
		}
		for i := fn.Start; i <= end && i < m.Len(); i++ {
			if callee, ok := calleeAt(m, i); ok {
				if h, ok := g.fnIndex[callee]; ok {
					g.callees = append(g.callees, h)
				}
			}
		}
		g.start[f+1] = int32(len(g.callees))
	}
	epIdx := map[uint32][]int{}
	for k, ep := range x.EntryPoints {
		if _, seen := epIdx[ep.Function]; !seen {
			g.epFns = append(g.epFns, ep.Function)
		}
		epIdx[ep.Function] = append(epIdx[ep.Function], k)
	}
	g.epMask = make(map[uint32]uint64, len(g.epFns))
	var work []int32
	for _, id := range g.epFns {
		em := entryTraits(x.EntryPoints, epIdx[id])
		g.epMask[id] = em
		if f, ok := g.fnIndex[id]; ok && g.mask[f]|em != g.mask[f] {
			g.mask[f] |= em
			work = append(work, f)
		}
	}
	for len(work) > 0 {
		f := work[len(work)-1]
		work = work[:len(work)-1]
		for _, h := range g.callees[g.start[f]:g.start[f+1]] {
			if g.mask[h]|g.mask[f] != g.mask[h] {
				g.mask[h] |= g.mask[f]
				work = append(work, h)
			}
		}
	}
	s.calls = g
	return g
}

// executionLimitations is ValidateExecutionLimitations for every
// function.
func (s *state) executionLimitations() bool {
	if len(s.limits) == 0 || len(s.x.EntryPoints) == 0 {
		return false
	}
	x := s.x
	bad := make([]uint64, len(x.Functions))
	counts := make([]bool, len(x.Functions))
	g := s.getCallGraph()
	var minima *meshCountLimits
	for _, u := range s.limits {
		bad[u.fn] |= limitInfos[u.kind].bad
		if u.kind == limMeshVertexCount || u.kind == limMeshPrimitiveCount {
			if minima == nil {
				minima = s.meshCountMinima(g)
			}
			counts[u.fn] = counts[u.fn] || s.meshCountFails(u, minima)
		}
	}
	for f := range x.Functions {
		if g.mask[f]&bad[f] == 0 && !counts[f] {
			continue
		}
		if s.reportLimitation(int32(f), g.fnIndex, g.start, g.callees, g.epFns, g.epMask) {
			return true
		}
	}
	return false
}

// reportLimitation finds the first entry point whose call graph holds
// function f and which f's limitations reject, and reports it as
// spirv-val does.
func (s *state) reportLimitation(f int32, fnIndex map[uint32]int32, start, callees []int32, epFns []uint32, epMask map[uint32]uint64) bool {
	x := s.x
	nf := len(x.Functions)
	// Callers, by one pass over the call edges, then the functions that
	// reach f.
	callers := make([][]int32, nf)
	for g := 0; g < nf; g++ {
		for _, h := range callees[start[g]:start[g+1]] {
			callers[h] = append(callers[h], int32(g))
		}
	}
	reaches := make([]bool, nf)
	reaches[f] = true
	stack := []int32{f}
	for len(stack) > 0 {
		g := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, c := range callers[g] {
			if !reaches[c] {
				reaches[c] = true
				stack = append(stack, c)
			}
		}
	}
	var uses []limitUse
	for _, u := range s.limits {
		if u.fn == f {
			uses = append(uses, u)
		}
	}
	reason := func(bit uint64, ep uint32, modes bool) string {
		var b strings.Builder
		for _, u := range uses {
			li := &limitInfos[u.kind]
			if m := s.meshCountMessage(u, ep); m != "" && modes {
				b.WriteString(m + "\n")
				continue
			}
			if li.bad&bit == 0 {
				continue
			}
			if v := s.vuid(li.vuid); v != "" {
				b.WriteString("[" + v + "] ")
			}
			if li.withOp {
				fmt.Fprintf(&b, li.msg, opName(u.op))
			} else {
				b.WriteString(li.msg)
			}
			b.WriteByte('\n')
		}
		return b.String()
	}
	fnID := x.Functions[f].ID
	for _, e := range epFns {
		g, ok := fnIndex[e]
		if !ok || !reaches[g] {
			continue
		}
		em := epMask[e]
		// The models in spirv-val's std::set order (by value), which is
		// the order of the mask bits.
		for bit := uint64(1); bit <= mbOther; bit <<= 1 {
			if em&bit != 0 && s.limitBad(f, bit) {
				return s.fail(x.Functions[f].Start, "",
					"OpEntryPoint Entry Point <id> %ss callgraph contains function <id> %s, which cannot be used with the current execution model:\n%s",
					s.idName(e), s.idName(fnID), reason(bit, e, false))
			}
		}
		// The execution modes: the trait bits and the count limitations.
		if t := em &^ mbAllModels; (t != 0 && s.limitBad(f, t)) || s.countBad(uses, e) {
			return s.fail(x.Functions[f].Start, "",
				"OpEntryPoint Entry Point <id> %ss callgraph contains function <id> %s, which cannot be used with the current execution modes:\n%s",
				s.idName(e), s.idName(fnID), reason(em&^mbAllModels, e, true))
		}
	}
	return false
}

func (s *state) limitBad(f int32, bits uint64) bool {
	for _, u := range s.limits {
		if u.fn == f && limitInfos[u.kind].bad&bits != 0 {
			return true
		}
	}
	return false
}
