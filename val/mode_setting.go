package val

import "spvx/spirv"

// This file holds validate_mode_setting.cpp's rules: OpEntryPoint (the
// function's signature, the execution modes each model requires or
// allows once, Vulkan's compute local size, LocalSize products),
// OpExecutionMode/OpExecutionModeId (a mode's id-ness, the models a mode
// is for, LocalSizeId's environments, Vulkan's forbidden modes),
// OpMemoryModel's environment rules, OpCapability CooperativeMatrixKHR,
// ValidateFloatControls2 and ValidateDuplicateExecutionModes.

// modeSettingOps reports whether modeSettingPass can act on an instruction of opcode op
// (passGate runs it on no other: a new case there needs its opcode here).
func modeSettingOps(op spirv.Opcode) bool {
	return opIn(op, spirv.OpEntryPoint, spirv.OpExecutionMode, spirv.OpExecutionModeId, spirv.OpMemoryModel, spirv.OpCapability)
}

func (s *state) modeSettingPass(i int, in *spirv.Instruction) bool {
	switch in.Opcode {
	case spirv.OpEntryPoint:
		return s.entryPoint(i, in)
	case spirv.OpExecutionMode, spirv.OpExecutionModeId:
		return s.executionMode(i, in)
	case spirv.OpMemoryModel:
		return s.memoryModel(i)
	case spirv.OpCapability:
		if len(in.Words) > 1 && spirv.Capability(in.Words[1]) == spirv.CapabilityCooperativeMatrixKHR &&
			s.caps.has(spirv.CapabilityShader) && !s.caps.has(spirv.CapabilityVulkanMemoryModel) {
			return s.fail(i, "", "If the Shader and CooperativeMatrixKHR capabilities are declared, the VulkanMemoryModel capability must also be declared")
		}
	}
	return false
}

// modeInfo is what the mode-setting rules read about the module, built
// once: each entry-point function's modes and models, whether an
// OpDecorate BuiltIn WorkgroupSize and an OpExecutionModeId LocalSizeId
// come before the first function.
type modeInfo struct {
	byFn                  map[uint32]epInfo
	hasWGSize, hasLSizeID bool
}

type epInfo struct {
	modes  []spirv.ExecutionModeEntry
	models []spirv.ExecutionModel
}

func (s *state) getModeInfo() *modeInfo {
	if s.modes != nil {
		return s.modes
	}
	mi := &modeInfo{byFn: map[uint32]epInfo{}}
	for k := range s.x.EntryPoints {
		ep := &s.x.EntryPoints[k]
		e := mi.byFn[ep.Function]
		e.modes = ep.Modes
		e.models = append(e.models, ep.Model)
		mi.byFn[ep.Function] = e
	}
	for k := 0; k < s.m.Len(); k++ {
		op := s.m.Opcode(k)
		if op == spirv.OpFunction {
			break
		}
		if op != spirv.OpDecorate && op != spirv.OpExecutionModeId {
			continue // the opcode alone, for most of the declarations
		}
		d := s.m.Inst(k)
		if d.Opcode == spirv.OpDecorate && len(d.Words) > 3 && spirv.Decoration(d.Words[2]) == spirv.DecorationBuiltIn &&
			spirv.BuiltIn(d.Words[3]) == spirv.BuiltInWorkgroupSize {
			mi.hasWGSize = true
		}
		if d.Opcode == spirv.OpExecutionModeId && len(d.Words) > 2 && spirv.ExecutionMode(d.Words[2]) == spirv.ExecutionModeLocalSizeId {
			mi.hasLSizeID = true
		}
	}
	s.modes = mi
	return mi
}

// epModes returns the modes of entry-point function fn (every
// OpExecutionMode naming it) and the models of every OpEntryPoint naming
// it.
func (s *state) epModes(fn uint32) (modes []spirv.ExecutionModeEntry, models []spirv.ExecutionModel, ok bool) {
	e, ok := s.getModeInfo().byFn[fn]
	return e.modes, e.models, ok
}

func countModes(modes []spirv.ExecutionModeEntry, of ...spirv.ExecutionMode) int {
	// spirv-val counts a std::set: a mode given twice counts once.
	n := 0
	for _, want := range of {
		for _, m := range modes {
			if m.Mode == want {
				n++
				break
			}
		}
	}
	return n
}

func hasMode(modes []spirv.ExecutionModeEntry, mode spirv.ExecutionMode) bool {
	return countModes(modes, mode) > 0
}

// executionModelName is ExecutionModelToString.
func executionModelName(m spirv.ExecutionModel) string {
	switch m {
	case spirv.ExecutionModelVertex, spirv.ExecutionModelTessellationControl, spirv.ExecutionModelTessellationEvaluation,
		spirv.ExecutionModelGeometry, spirv.ExecutionModelFragment, spirv.ExecutionModelGLCompute, spirv.ExecutionModelKernel,
		spirv.ExecutionModelTaskNV, spirv.ExecutionModelMeshNV, spirv.ExecutionModelRayGenerationKHR,
		spirv.ExecutionModelIntersectionKHR, spirv.ExecutionModelAnyHitKHR, spirv.ExecutionModelClosestHitKHR,
		spirv.ExecutionModelMissKHR, spirv.ExecutionModelCallableKHR, spirv.ExecutionModelTaskEXT, spirv.ExecutionModelMeshEXT:
		if e, ok := spirv.OperandKindExecutionModel.Enumerant(uint32(m)); ok {
			return e.Name
		}
	}
	return "Unknown"
}

// entryPoint is ValidateEntryPoint.
func (s *state) entryPoint(i int, in *spirv.Instruction) bool {
	if len(in.Words) < 3 {
		return false
	}
	model := spirv.ExecutionModel(in.Words[1])
	fnID := in.Words[2]
	j, ok := s.x.Def(fnID)
	var fn spirv.Instruction
	if ok {
		fn = s.m.Inst(j)
	}
	if !ok || fn.Opcode != spirv.OpFunction {
		return s.fail(i, "", "OpEntryPoint Entry Point <id> %s is not a function.", s.idName(fnID))
	}
	if model != spirv.ExecutionModelKernel {
		ft := s.typeOf(fn.Words[len(fn.Words)-1])
		if len(fn.Words) < 5 || ft == nil || ft.Kind != spirv.TypeFunction || len(ft.Members) != 0 {
			return s.fail(i, s.vuid("VUID-StandaloneSpirv-None-04633"), "OpEntryPoint Entry Point <id> %ss function parameter count is not zero.", s.idName(fnID))
		}
	}
	if rt := s.typeOf(fn.TypeID); rt == nil || rt.Kind != spirv.TypeVoid {
		return s.fail(i, s.vuid("VUID-StandaloneSpirv-None-04633"), "OpEntryPoint Entry Point <id> %ss function return type is not void.", s.idName(fnID))
	}
	modes, _, _ := s.epModes(fnID)
	if s.caps.has(spirv.CapabilityShader) {
		if msg := shaderModeRule(model, modes); msg != "" {
			return s.fail(i, "", "%s", msg)
		}
	}
	mi := s.getModeInfo()
	hasWGSize, hasLocalSizeID := mi.hasWGSize, mi.hasLSizeID
	if s.opts.Env.IsVulkan() {
		if vuid, msg := s.tileShadingRule(model, modes); msg != "" {
			return s.fail(i, s.vuid(vuid), "%s", msg)
		}
		switch model {
		case spirv.ExecutionModelGLCompute, spirv.ExecutionModelMeshEXT, spirv.ExecutionModelMeshNV,
			spirv.ExecutionModelTaskEXT, spirv.ExecutionModelTaskNV:
			if !hasMode(modes, spirv.ExecutionModeLocalSize) && !hasWGSize && !hasLocalSizeID &&
				!hasMode(modes, spirv.ExecutionModeTileShadingRateQCOM) {
				tile := ""
				if s.caps.has(spirv.CapabilityTileShadingQCOM) {
					tile = "TileShadingRateQCOM, "
				}
				return s.fail(i, s.vuid("VUID-StandaloneSpirv-None-10685"),
					"In the Vulkan environment, %s execution model entry points require either the %sLocalSize or LocalSizeId execution mode or an object decorated with WorkgroupSize must be specified.",
					executionModelName(model), tile)
			}
		}
	}
	if hasWGSize {
		return false
	}
	// The last LocalSize or LocalSizeId of the entry point.
	var ls *spirv.ExecutionModeEntry
	for k := range modes {
		if modes[k].Mode == spirv.ExecutionModeLocalSize || modes[k].Mode == spirv.ExecutionModeLocalSizeId {
			ls = &modes[k]
		}
	}
	if ls == nil || len(ls.Params) < 3 {
		return false
	}
	name := "Local Size"
	x, y, z := uint64(ls.Params[0]), uint64(ls.Params[1]), uint64(ls.Params[2])
	if ls.Mode == spirv.ExecutionModeLocalSizeId {
		name = "LocalSizeId"
		var okx, oky, okz bool
		x, okx = s.constUint(ls.Params[0])
		y, oky = s.constUint(ls.Params[1])
		z, okz = s.constUint(ls.Params[2])
		if !okx || !oky || !okz {
			return false
		}
	}
	product := x * y * z
	if ls.Mode == spirv.ExecutionModeLocalSize {
		// spirv-val multiplies the 32-bit operands in 32 bits.
		product = uint64(uint32(x) * uint32(y) * uint32(z))
	}
	if product == 0 {
		return s.fail(ls.Inst, "", "%s execution mode must not have a product of zero (X = %d, Y = %d, Z = %d).", name, x, y, z)
	}
	if hasMode(modes, spirv.ExecutionModeDerivativeGroupQuadsKHR) && (x%2 != 0 || y%2 != 0) {
		return s.fail(ls.Inst, s.vuid("VUID-StandaloneSpirv-DerivativeGroupQuadsKHR-10151"),
			"%s execution mode dimensions is (X = %d, Y = %d) but Entry Point id %d also has an DerivativeGroupQuadsKHR execution mode, so both dimensions must be a multiple of 2", name, x, y, fnID)
	}
	if hasMode(modes, spirv.ExecutionModeDerivativeGroupLinearKHR) && product%4 != 0 {
		return s.fail(ls.Inst, s.vuid("VUID-StandaloneSpirv-DerivativeGroupLinearKHR-10152"),
			"%s execution mode dimensions is (X = %d, Y = %d, Z = %d) but Entry Point id %d also has an DerivativeGroupLinearKHR execution mode, so the product (%d) must be a multiple of 4", name, x, y, z, fnID, product)
	}
	return false
}

// shaderModeRule is the per-model mode rules of entry points in shaders;
// "" when they hold.
func shaderModeRule(model spirv.ExecutionModel, modes []spirv.ExecutionModeEntry) string {
	c := func(of ...spirv.ExecutionMode) int { return countModes(modes, of...) }
	switch model {
	case spirv.ExecutionModelFragment:
		up, low := c(spirv.ExecutionModeOriginUpperLeft), c(spirv.ExecutionModeOriginLowerLeft)
		switch {
		case up > 0 && low > 0:
			return "Fragment execution model entry points can only specify one of OriginUpperLeft or OriginLowerLeft execution modes."
		case up == 0 && low == 0:
			return "Fragment execution model entry points require either an OriginUpperLeft or OriginLowerLeft execution mode."
		case c(spirv.ExecutionModeDepthGreater, spirv.ExecutionModeDepthLess, spirv.ExecutionModeDepthUnchanged) > 1:
			return "Fragment execution model entry points can specify at most one of DepthGreater, DepthLess or DepthUnchanged execution modes."
		case c(spirv.ExecutionModePixelInterlockOrderedEXT, spirv.ExecutionModePixelInterlockUnorderedEXT,
			spirv.ExecutionModeSampleInterlockOrderedEXT, spirv.ExecutionModeSampleInterlockUnorderedEXT,
			spirv.ExecutionModeShadingRateInterlockOrderedEXT, spirv.ExecutionModeShadingRateInterlockUnorderedEXT) > 1:
			return "Fragment execution model entry points can specify at most one fragment shader interlock execution mode."
		case c(spirv.ExecutionModeStencilRefUnchangedFrontAMD, spirv.ExecutionModeStencilRefLessFrontAMD, spirv.ExecutionModeStencilRefGreaterFrontAMD) > 1:
			return "Fragment execution model entry points can specify at most one of StencilRefUnchangedFrontAMD, StencilRefLessFrontAMD or StencilRefGreaterFrontAMD execution modes."
		case c(spirv.ExecutionModeStencilRefUnchangedBackAMD, spirv.ExecutionModeStencilRefLessBackAMD, spirv.ExecutionModeStencilRefGreaterBackAMD) > 1:
			return "Fragment execution model entry points can specify at most one of StencilRefUnchangedBackAMD, StencilRefLessBackAMD or StencilRefGreaterBackAMD execution modes."
		}
	case spirv.ExecutionModelTessellationControl, spirv.ExecutionModelTessellationEvaluation:
		switch {
		case c(spirv.ExecutionModeSpacingEqual, spirv.ExecutionModeSpacingFractionalEven, spirv.ExecutionModeSpacingFractionalOdd) > 1:
			return "Tessellation execution model entry points can specify at most one of SpacingEqual, SpacingFractionalOdd or SpacingFractionalEven execution modes."
		case c(spirv.ExecutionModeTriangles, spirv.ExecutionModeQuads, spirv.ExecutionModeIsolines) > 1:
			return "Tessellation execution model entry points can specify at most one of Triangles, Quads or Isolines execution modes."
		case c(spirv.ExecutionModeVertexOrderCw, spirv.ExecutionModeVertexOrderCcw) > 1:
			return "Tessellation execution model entry points can specify at most one of VertexOrderCw or VertexOrderCcw execution modes."
		}
	case spirv.ExecutionModelGeometry:
		switch {
		case c(spirv.ExecutionModeInputPoints, spirv.ExecutionModeInputLines, spirv.ExecutionModeInputLinesAdjacency,
			spirv.ExecutionModeTriangles, spirv.ExecutionModeInputTrianglesAdjacency) != 1:
			return "Geometry execution model entry points must specify exactly one of InputPoints, InputLines, InputLinesAdjacency, Triangles or InputTrianglesAdjacency execution modes."
		case c(spirv.ExecutionModeOutputPoints, spirv.ExecutionModeOutputLineStrip, spirv.ExecutionModeOutputTriangleStrip) != 1:
			return "Geometry execution model entry points must specify exactly one of OutputPoints, OutputLineStrip or OutputTriangleStrip execution modes."
		}
	case spirv.ExecutionModelMeshEXT:
		switch {
		case c(spirv.ExecutionModeOutputPoints, spirv.ExecutionModeOutputLinesEXT, spirv.ExecutionModeOutputTrianglesEXT) != 1:
			return "MeshEXT execution model entry points must specify exactly one of OutputPoints, OutputLinesEXT, or OutputTrianglesEXT Execution Modes."
		case c(spirv.ExecutionModeOutputPrimitivesEXT, spirv.ExecutionModeOutputVertices) != 2:
			return "MeshEXT execution model entry points must specify both OutputPrimitivesEXT and OutputVertices Execution Modes."
		}
	}
	return ""
}

// idModes are the execution modes whose extra operands are ids.
func isIDMode(m spirv.ExecutionMode) bool {
	switch m {
	case spirv.ExecutionModeSubgroupsPerWorkgroupId, spirv.ExecutionModeLocalSizeHintId, spirv.ExecutionModeLocalSizeId,
		spirv.ExecutionModeOpacityMicromapIdKHR, spirv.ExecutionModeFPFastMathDefault, spirv.ExecutionModeMaximumRegistersIdINTEL,
		spirv.ExecutionModeIsApiEntryAMDX, spirv.ExecutionModeMaxNodeRecursionAMDX, spirv.ExecutionModeMaxNumWorkgroupsAMDX,
		spirv.ExecutionModeShaderIndexAMDX, spirv.ExecutionModeSharesInputWithAMDX, spirv.ExecutionModeStaticNumWorkgroupsAMDX:
		return true
	}
	return false
}

// executionMode is ValidateExecutionMode: the entry point, the id
// operands of OpExecutionModeId, the execution models each mode is for,
// FPFastMathDefault's conflicts, then Vulkan's own limits.
func (s *state) executionMode(i int, in *spirv.Instruction) bool {
	if len(in.Words) < 3 {
		return false
	}
	fnID := in.Words[1]
	_, models, ok := s.epModes(fnID)
	if !ok {
		return s.fail(i, "", "OpExecutionMode Entry Point <id> %s is not the Entry Point operand of an OpEntryPoint.", s.idName(fnID))
	}
	mode := spirv.ExecutionMode(in.Words[2])
	if s.modeIDOperands(i, in, mode) || s.modeModels(i, in, mode, models) ||
		s.fastMathDefaultConflicts(i, fnID, mode) || s.vulkanMode(i, in, mode) {
		return s.stopped()
	}
	return false
}

// failed is fail for helpers that report whether a rule failed; their
// caller then returns s.stopped(), which is what fail returned.
func (s *state) failed(i int, vuid, format string, args ...any) bool {
	s.fail(i, vuid, format, args...)
	return true
}

// modeIDOperands: OpExecutionModeId takes only the modes whose extra
// operands are ids, and those must be constants of the right kind;
// OpExecutionMode takes the other modes.
func (s *state) modeIDOperands(i int, in *spirv.Instruction, mode spirv.ExecutionMode) bool {
	if in.Opcode != spirv.OpExecutionModeId {
		if isIDMode(mode) && mode != spirv.ExecutionModeOpacityMicromapIdKHR && mode != spirv.ExecutionModeMaximumRegistersIdINTEL {
			return s.failed(i, "", "OpExecutionMode is only valid when the Mode operand is an execution mode that takes no Extra Operands, or takes Extra Operands that are not id operands.")
		}
		return false
	}
	if !isIDMode(mode) {
		return s.failed(i, "", "OpExecutionModeId is only valid when the Mode operand is an execution mode that takes Extra Operands that are id operands.")
	}
	for k := 3; k < len(in.Words); k++ {
		id := in.Words[k]
		switch mode {
		case spirv.ExecutionModeSubgroupsPerWorkgroupId, spirv.ExecutionModeLocalSizeHintId, spirv.ExecutionModeLocalSizeId,
			spirv.ExecutionModeIsApiEntryAMDX, spirv.ExecutionModeMaxNodeRecursionAMDX, spirv.ExecutionModeMaxNumWorkgroupsAMDX,
			spirv.ExecutionModeShaderIndexAMDX, spirv.ExecutionModeSharesInputWithAMDX, spirv.ExecutionModeStaticNumWorkgroupsAMDX:
			if !isConstantOp(s.idOpcode(id)) {
				return s.failed(i, "", "For OpExecutionModeId all Extra Operand ids must be constant instructions.")
			}
		case spirv.ExecutionModeFPFastMathDefault:
			if s.fastMathDefaultOperand(i, k, id) {
				return true
			}
		case spirv.ExecutionModeOpacityMicromapIdKHR:
			if j, ok := s.x.Def(id); ok {
				d := s.m.Inst(j)
				if !isConstantOp(d.Opcode) || !s.isBoolScalar(d.TypeID) {
					return s.failed(j, "", "OpacityMicromapIdKHR's operand must be an <id> of a constant instruction of OpTypeBool.")
				}
			}
		}
	}
	return false
}

// fastMathDefaultOperand checks FPFastMathDefault's operand k (id): the
// Target Type first, then the Fast Math Default bitmask constant.
func (s *state) fastMathDefaultOperand(i, k int, id uint32) bool {
	if k == 3 {
		if !s.isFloatScalar(id) {
			return s.failed(i, "", "The Target Type operand must be a floating-point scalar type")
		}
		return false
	}
	isInt, isConst, v := s.evalInt32IfConst(id)
	if !isInt || !isConst {
		return s.failed(i, "", "The Fast Math Default operand must be a non-specialization constant")
	}
	if v&0xfff80000 != 0 {
		return s.failed(i, "", "The Fast Math Default operand is an invalid bitmask value")
	}
	if v&uint32(spirv.FPFastMathModeFast) != 0 {
		return s.failed(i, "", "The Fast Math Default operand must not include Fast")
	}
	rc := uint32(spirv.FPFastMathModeAllowContract | spirv.FPFastMathModeAllowReassoc)
	if v&uint32(spirv.FPFastMathModeAllowTransform) != 0 && v&rc != rc {
		return s.failed(i, "", "The Fast Math Default operand must include AllowContract and AllowReassoc when AllowTransform is specified")
	}
	return false
}

// allModels reports whether ok holds for every execution model.
func allModels(models []spirv.ExecutionModel, ok func(spirv.ExecutionModel) bool) bool {
	for _, m := range models {
		if !ok(m) {
			return false
		}
	}
	return true
}

// isModel returns a test for membership in ms.
func isModel(ms ...spirv.ExecutionModel) func(spirv.ExecutionModel) bool {
	return func(m spirv.ExecutionModel) bool {
		for _, x := range ms {
			if m == x {
				return true
			}
		}
		return false
	}
}

// withMesh is isModel(base...) that also admits MeshNV and MeshEXT when
// their capabilities are declared.
func (s *state) withMesh(base ...spirv.ExecutionModel) func(spirv.ExecutionModel) bool {
	meshNV, meshEXT := s.caps.has(spirv.CapabilityMeshShadingNV), s.caps.has(spirv.CapabilityMeshShadingEXT)
	return func(m spirv.ExecutionModel) bool {
		switch m {
		case spirv.ExecutionModelMeshNV:
			return meshNV
		case spirv.ExecutionModelMeshEXT:
			return meshEXT
		}
		return isModel(base...)(m)
	}
}

// modeParam is the mode's first literal operand, 0 if it has none.
func modeParam(in *spirv.Instruction) uint32 {
	if len(in.Words) > 3 {
		return in.Words[3]
	}
	return 0
}

// modeModels: each mode is only for some execution models, and every
// entry point the mode applies to must have one of them.
func (s *state) modeModels(i int, in *spirv.Instruction, mode spirv.ExecutionMode, models []spirv.ExecutionModel) bool {
	all := func(ok func(spirv.ExecutionModel) bool) bool { return allModels(models, ok) }
	meshNV, meshEXT := s.caps.has(spirv.CapabilityMeshShadingNV), s.caps.has(spirv.CapabilityMeshShadingEXT)
	vulkan := s.opts.Env.IsVulkan()
	switch mode {
	case spirv.ExecutionModeInvocations, spirv.ExecutionModeInputPoints, spirv.ExecutionModeInputLines,
		spirv.ExecutionModeInputLinesAdjacency, spirv.ExecutionModeInputTrianglesAdjacency,
		spirv.ExecutionModeOutputLineStrip, spirv.ExecutionModeOutputTriangleStrip:
		if !all(isModel(spirv.ExecutionModelGeometry)) {
			return s.failed(i, "", "Execution mode can only be used with the Geometry execution model.")
		}
	case spirv.ExecutionModeOutputPoints:
		if !all(s.withMesh(spirv.ExecutionModelGeometry)) {
			if meshNV || meshEXT {
				return s.failed(i, "", "Execution mode can only be used with the Geometry MeshNV or MeshEXT execution model.")
			}
			return s.failed(i, "", "Execution mode can only be used with the Geometry execution model.")
		}
	case spirv.ExecutionModeSpacingEqual, spirv.ExecutionModeSpacingFractionalEven, spirv.ExecutionModeSpacingFractionalOdd,
		spirv.ExecutionModeVertexOrderCw, spirv.ExecutionModeVertexOrderCcw, spirv.ExecutionModePointMode,
		spirv.ExecutionModeQuads, spirv.ExecutionModeIsolines:
		if !all(isModel(spirv.ExecutionModelTessellationControl, spirv.ExecutionModelTessellationEvaluation)) {
			return s.failed(i, "", "Execution mode can only be used with a tessellation execution model.")
		}
	case spirv.ExecutionModeTriangles:
		if !all(isModel(spirv.ExecutionModelGeometry, spirv.ExecutionModelTessellationControl, spirv.ExecutionModelTessellationEvaluation)) {
			return s.failed(i, "", "Execution mode can only be used with a Geometry or tessellation execution model.")
		}
	case spirv.ExecutionModeOutputVertices:
		if !all(s.withMesh(spirv.ExecutionModelGeometry, spirv.ExecutionModelTessellationControl, spirv.ExecutionModelTessellationEvaluation)) {
			if meshNV || meshEXT {
				return s.failed(i, "", "Execution mode can only be used with a Geometry, tessellation, MeshNV or MeshEXT execution model.")
			}
			return s.failed(i, "", "Execution mode can only be used with a Geometry or tessellation execution model.")
		}
		if vulkan && meshEXT && modeParam(in) == 0 {
			return s.failed(i, s.vuid("VUID-StandaloneSpirv-MeshEXT-07330"), "In mesh shaders using the MeshEXT Execution Model the OutputVertices Execution Mode must be greater than 0")
		}
	case spirv.ExecutionModeOutputLinesEXT, spirv.ExecutionModeOutputTrianglesEXT, spirv.ExecutionModeOutputPrimitivesEXT:
		if !all(isModel(spirv.ExecutionModelMeshEXT, spirv.ExecutionModelMeshNV)) {
			return s.failed(i, "", "Execution mode can only be used with the MeshEXT or MeshNV execution model.")
		}
		if mode == spirv.ExecutionModeOutputPrimitivesEXT && vulkan && meshEXT && modeParam(in) == 0 {
			return s.failed(i, s.vuid("VUID-StandaloneSpirv-MeshEXT-07331"), "In mesh shaders using the MeshEXT Execution Model the OutputPrimitivesEXT Execution Mode must be greater than 0")
		}
	case spirv.ExecutionModeQuadDerivativesKHR:
		if !all(isModel(spirv.ExecutionModelFragment, spirv.ExecutionModelGLCompute)) {
			return s.failed(i, "", "Execution mode can only be used with the Fragment or GLCompute execution model.")
		}
	case spirv.ExecutionModePixelCenterInteger, spirv.ExecutionModeOriginUpperLeft, spirv.ExecutionModeOriginLowerLeft,
		spirv.ExecutionModeEarlyFragmentTests, spirv.ExecutionModeDepthReplacing, spirv.ExecutionModeDepthGreater,
		spirv.ExecutionModeDepthLess, spirv.ExecutionModeDepthUnchanged, spirv.ExecutionModeStencilRefReplacingEXT,
		spirv.ExecutionModeNonCoherentColorAttachmentReadEXT, spirv.ExecutionModeNonCoherentDepthAttachmentReadEXT,
		spirv.ExecutionModeNonCoherentStencilAttachmentReadEXT, spirv.ExecutionModePixelInterlockOrderedEXT,
		spirv.ExecutionModePixelInterlockUnorderedEXT, spirv.ExecutionModeSampleInterlockOrderedEXT,
		spirv.ExecutionModeSampleInterlockUnorderedEXT, spirv.ExecutionModeShadingRateInterlockOrderedEXT,
		spirv.ExecutionModeShadingRateInterlockUnorderedEXT, spirv.ExecutionModePostDepthCoverage,
		spirv.ExecutionModeEarlyAndLateFragmentTestsAMD, spirv.ExecutionModeStencilRefUnchangedFrontAMD,
		spirv.ExecutionModeStencilRefGreaterFrontAMD, spirv.ExecutionModeStencilRefLessFrontAMD,
		spirv.ExecutionModeStencilRefUnchangedBackAMD, spirv.ExecutionModeStencilRefGreaterBackAMD,
		spirv.ExecutionModeStencilRefLessBackAMD, spirv.ExecutionModeRequireFullQuadsKHR:
		if !all(isModel(spirv.ExecutionModelFragment)) {
			return s.failed(i, "", "Execution mode can only be used with the Fragment execution model.")
		}
	case spirv.ExecutionModeLocalSizeHint, spirv.ExecutionModeVecTypeHint, spirv.ExecutionModeContractionOff,
		spirv.ExecutionModeLocalSizeHintId:
		if !all(isModel(spirv.ExecutionModelKernel)) {
			return s.failed(i, "", "Execution mode can only be used with the Kernel execution model.")
		}
	case spirv.ExecutionModeLocalSize, spirv.ExecutionModeLocalSizeId:
		return s.localSizeModels(i, mode, models)
	}
	return false
}

// localSizeModels: LocalSize and LocalSizeId are for Kernel and GLCompute,
// and the task and mesh models whose capability is declared; LocalSizeId
// only where the environment allows it.
func (s *state) localSizeModels(i int, mode spirv.ExecutionMode, models []spirv.ExecutionModel) bool {
	meshNV, meshEXT := s.caps.has(spirv.CapabilityMeshShadingNV), s.caps.has(spirv.CapabilityMeshShadingEXT)
	vulkan := s.opts.Env.IsVulkan()
	if mode == spirv.ExecutionModeLocalSizeId && !s.localSizeIDAllowed() {
		extra := ""
		if vulkan {
			extra = "\nThis is allowed if you enable the maintenance4 feature (or use the --allow-localsizeid command line flag)"
		}
		return s.failed(i, "", "LocalSizeId mode is not allowed by the current environment.%s", extra)
	}
	ok := allModels(models, func(m spirv.ExecutionModel) bool {
		switch m {
		case spirv.ExecutionModelKernel, spirv.ExecutionModelGLCompute:
			return true
		case spirv.ExecutionModelTaskNV, spirv.ExecutionModelMeshNV:
			return meshNV
		case spirv.ExecutionModelTaskEXT, spirv.ExecutionModelMeshEXT:
			return meshEXT
		}
		return false
	})
	if !ok {
		if meshNV || meshEXT {
			return s.failed(i, "", "Execution mode can only be used with a Kernel, GLCompute, MeshNV, MeshEXT, TaskNV or TaskEXT execution model.")
		}
		return s.failed(i, "", "Execution mode can only be used with a Kernel or GLCompute execution model.")
	}
	return false
}

// fastMathDefaultConflicts: FPFastMathDefault excludes ContractionOff
// and SignedZeroInfNanPreserve on the same entry point.
func (s *state) fastMathDefaultConflicts(i int, fnID uint32, mode spirv.ExecutionMode) bool {
	if mode != spirv.ExecutionModeFPFastMathDefault {
		return false
	}
	modes, _, _ := s.epModes(fnID)
	if hasMode(modes, spirv.ExecutionModeContractionOff) {
		return s.failed(i, "", "FPFastMathDefault and ContractionOff execution modes cannot be applied to the same entry point")
	}
	if hasMode(modes, spirv.ExecutionModeSignedZeroInfNanPreserve) {
		return s.failed(i, "", "FPFastMathDefault and SignedZeroInfNanPreserve execution modes cannot be applied to the same entry point")
	}
	return false
}

// vulkanMode: modes the Vulkan environment forbids or limits.
func (s *state) vulkanMode(i int, in *spirv.Instruction, mode spirv.ExecutionMode) bool {
	if !s.opts.Env.IsVulkan() {
		return false
	}
	switch mode {
	case spirv.ExecutionModeOriginLowerLeft:
		return s.failed(i, s.vuid("VUID-StandaloneSpirv-OriginLowerLeft-04653"), "In the Vulkan environment, the OriginLowerLeft execution mode must not be used.")
	case spirv.ExecutionModePixelCenterInteger:
		return s.failed(i, s.vuid("VUID-StandaloneSpirv-PixelCenterInteger-04654"), "In the Vulkan environment, the PixelCenterInteger execution mode must not be used.")
	case spirv.ExecutionModeTileShadingRateQCOM:
		if len(in.Words) > 4 {
			x, y := int32(in.Words[3]), int32(in.Words[4])
			if x&(x-1) != 0 || y&(y-1) != 0 {
				return s.failed(i, "", "The TileShadingRateQCOM execution mode's x and y values must be powers of 2.")
			}
		}
	}
	return false
}

// localSizeIDAllowed is IsLocalSizeIdAllowed: everywhere but Vulkan
// before 1.3, unless --allow-localsizeid.
func (s *state) localSizeIDAllowed() bool {
	switch s.opts.Env {
	case EnvVulkan1_0, EnvVulkan1_1, EnvVulkan1_1Spirv1_4, EnvVulkan1_2:
		return s.opts.AllowLocalSizeID
	}
	return true
}

// memoryModel is ValidateMemoryModel.
func (s *state) memoryModel(i int) bool {
	if s.x.MemoryModel != spirv.MemoryModelVulkan && s.caps.has(spirv.CapabilityVulkanMemoryModel) {
		return s.fail(i, "", "VulkanMemoryModelKHR capability must only be specified if the VulkanKHR memory model is used.")
	}
	am := s.x.AddressingModel
	if s.opts.Env.IsOpenCL() {
		if am != spirv.AddressingModelPhysical32 && am != spirv.AddressingModelPhysical64 {
			return s.fail(i, "", "Addressing model must be Physical32 or Physical64 in the OpenCL environment.")
		}
		if s.x.MemoryModel != spirv.MemoryModelOpenCL {
			return s.fail(i, "", "Memory model must be OpenCL in the OpenCL environment.")
		}
	}
	if s.opts.Env.IsVulkan() && am != spirv.AddressingModelLogical && am != spirv.AddressingModelPhysicalStorageBuffer64 {
		return s.fail(i, s.vuid("VUID-StandaloneSpirv-None-04635"), "Addressing model must be Logical or PhysicalStorageBuffer64 in the Vulkan environment.")
	}
	return false
}

// perEntryMode is PerEntryExecutionMode: the modes given at most once per
// entry point (the others at most once per entry point and operand).
func perEntryMode(m spirv.ExecutionMode) bool {
	switch m {
	case spirv.ExecutionModeDenormPreserve, spirv.ExecutionModeDenormFlushToZero, spirv.ExecutionModeSignedZeroInfNanPreserve,
		spirv.ExecutionModeRoundingModeRTE, spirv.ExecutionModeRoundingModeRTZ, spirv.ExecutionModeFPFastMathDefault,
		spirv.ExecutionModeRoundingModeRTPINTEL, spirv.ExecutionModeRoundingModeRTNINTEL,
		spirv.ExecutionModeFloatingPointModeALTINTEL, spirv.ExecutionModeFloatingPointModeIEEEINTEL:
		return false
	}
	return true
}

// duplicateExecutionModes is ValidateFloatControls2 then
// ValidateDuplicateExecutionModes (the end of ValidateEntryPoints).
func (s *state) duplicateExecutionModes() bool {
	if s.floatControls2() {
		return true
	}
	type key struct{ mode, entry, operand uint32 }
	seen := map[key]bool{}
	for i := 0; i < s.m.Len(); i++ {
		if op := s.m.Opcode(i); op != spirv.OpExecutionMode && op != spirv.OpExecutionModeId {
			continue
		}
		in := s.m.Inst(i)
		if len(in.Words) < 3 {
			continue
		}
		mode := spirv.ExecutionMode(in.Words[2])
		k := key{mode: in.Words[2], entry: in.Words[1]}
		per := perEntryMode(mode)
		if !per {
			k.operand = 1 << 31 // an operand-less mode is its own key
			if len(in.Words) > 3 {
				k.operand = in.Words[3]
			}
		}
		if seen[k] {
			name := "Unknown"
			if e, ok := spirv.OperandKindExecutionMode.Enumerant(in.Words[2]); ok {
				name = e.Name
			}
			if per {
				return s.fail(i, "", "%s execution mode must not be specified multiple times per entry point", name)
			}
			return s.fail(i, "", "%s execution mode must not be specified multiple times for the same entry point and operands", name)
		}
		seen[k] = true
	}
	return false
}

// floatControls2 is ValidateFloatControls2: no NoContraction or
// FPFastMathMode Fast decoration on an instruction that an entry point
// with the FPFastMathDefault execution mode reaches, directly in its call
// graph or through global users of the decorated id. The walk keeps
// spirv-val's order (a stack of the decorated ids, then their users).
func (s *state) floatControls2() bool {
	g := s.getCallGraph()
	fast := map[uint32]bool{} // entry-point functions with FPFastMathDefault
	for _, ep := range s.x.EntryPoints {
		for _, md := range ep.Modes {
			if md.Mode == spirv.ExecutionModeFPFastMathDefault {
				fast[ep.Function] = true
			}
		}
	}
	if len(fast) == 0 {
		return false
	}
	type item struct {
		inst int
		nc   bool // NoContraction, else FPFastMathMode Fast
	}
	var work []item
	m := s.m
	for i := 0; i < m.Len(); i++ {
		if m.Opcode(i) != spirv.OpDecorate {
			continue
		}
		in := m.Inst(i)
		if len(in.Words) < 3 {
			continue
		}
		j, ok := s.x.Def(in.Words[1])
		if !ok {
			continue
		}
		switch spirv.Decoration(in.Words[2]) {
		case spirv.DecorationNoContraction:
			work = append(work, item{j, true})
		case spirv.DecorationFPFastMathMode:
			if len(in.Words) > 3 && in.Words[3]&uint32(spirv.FPFastMathModeFast) != 0 {
				work = append(work, item{j, false})
			}
		}
	}
	if len(work) == 0 {
		return false
	}
	// Which functions an entry point with FPFastMathDefault reaches.
	reached := make([]bool, len(s.x.Functions))
	var stack []int32
	for id := range fast {
		if f, ok := g.fnIndex[id]; ok && !reached[f] {
			reached[f] = true
			stack = append(stack, f)
		}
	}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, h := range g.callees[g.start[f]:g.start[f+1]] {
			if !reached[h] {
				reached[h] = true
				stack = append(stack, h)
			}
		}
	}
	visited := map[int]bool{}
	for len(work) > 0 {
		it := work[len(work)-1]
		work = work[:len(work)-1]
		if visited[it.inst] {
			continue
		}
		visited[it.inst] = true
		if f := s.fnAt(it.inst); f >= 0 && it.inst != s.x.Functions[f].Start {
			if reached[f] {
				dec := "FPFastMathMode Fast"
				if it.nc {
					dec = "NoContraction"
				}
				return s.fail(it.inst, "", "%s cannot be used by an entry point with the FPFastMathDefault execution mode", dec)
			}
			continue
		}
		for _, u := range s.useIdx().byDef(it.inst) {
			work = append(work, item{int(u.inst), it.nc})
		}
	}
	return false
}

// tileShadingRule is SPV_QCOM_tile_shading's part of ValidateEntryPoints
// in Vulkan: TileShadingRateQCOM only in compute, with the TileShadingQCOM
// capability and without LocalSize(Id); NonCoherentTileAttachmentReadQCOM
// only in fragment shaders, with the capability; the capability only in
// compute and fragment entry points. It returns the VUID and message of
// the first rule broken.
func (s *state) tileShadingRule(model spirv.ExecutionModel, modes []spirv.ExecutionModeEntry) (vuid, msg string) {
	tileCap := s.caps.has(spirv.CapabilityTileShadingQCOM)
	rate := hasMode(modes, spirv.ExecutionModeTileShadingRateQCOM)
	nonCoherent := hasMode(modes, spirv.ExecutionModeNonCoherentTileAttachmentReadQCOM)
	const fragmentOnly = "The NonCoherentTileAttachmentQCOM execution mode must not be used in any stage other than fragment."
	switch {
	case model == spirv.ExecutionModelGLCompute && tileCap:
		if rate && (hasMode(modes, spirv.ExecutionModeLocalSize) || hasMode(modes, spirv.ExecutionModeLocalSizeId)) {
			return "VUID-StandaloneSpirv-TileShadingRateQCOM-10692", "If the TileShadingRateQCOM execution mode is used, LocalSize and LocalSizeId must not be specified."
		}
		if nonCoherent {
			return "VUID-StandaloneSpirv-Execution-10687", fragmentOnly
		}
	case model == spirv.ExecutionModelGLCompute:
		if rate {
			return "VUID-StandaloneSpirv-TileShadingRateQCOM-10691", "If the TileShadingRateQCOM execution mode is used, the TileShadingQCOM capability must be enabled."
		}
	case rate:
		return "VUID-StandaloneSpirv-Execution-10688", "The TileShadingRateQCOM execution mode must not be used in any stage other than compute."
	case model != spirv.ExecutionModelFragment && nonCoherent:
		return "VUID-StandaloneSpirv-Execution-10687", fragmentOnly
	case model != spirv.ExecutionModelFragment && tileCap:
		return "VUID-StandaloneSpirv-TileShadingQCOM-10686", "The TileShadingQCOM capability must not be enabled in any stage other than compute or fragment."
	case nonCoherent && !tileCap:
		return "VUID-StandaloneSpirv-NonCoherentTileAttachmentReadQCOM-10690", "If the NonCoherentTileAttachmentReadQCOM execution mode is used, the TileShadingQCOM capability must be enabled."
	}
	return "", ""
}
