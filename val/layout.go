package val

import (
	"strings"

	"spvx/spirv"
)

// This file holds validate_layout.cpp's rules: the logical layout of a
// module (SPIR-V 2.4), section by section, and where functions, blocks
// and debug-info extended instructions may appear.

// section is ModuleLayoutSection.
type section uint8

const (
	secCapabilities section = iota
	secExtensions
	secExtInstImport
	secMemoryModel
	secSamplerImageAddressMode
	secEntryPoint
	secExecutionMode
	secDebug1
	secDebug2
	secDebug3
	secAnnotations
	secTypes
	secFunctionDeclarations
	secFunctionDefinitions
	secGraphDefinitions
)

// layoutState follows the current section, function and block as
// ValidationState_t does.
type layoutState struct {
	s          *state
	cur        section
	inFunction bool
	inBlock    bool
	blocks     int // blocks of the current function
	graph      graphRegion
}

// graphRegion is GraphDefinitionRegion: where in an ARM graph definition
// the layout is.
type graphRegion uint8

const (
	graphOutside graphRegion = iota
	graphBegin
	graphInputs
	graphBody
	graphOutputs
)

func newLayoutState(s *state) *layoutState { return &layoutState{s: s} }

// isConstantOp is spvOpcodeIsConstant.
func isConstantOp(op spirv.Opcode) bool {
	switch op {
	case spirv.OpConstantTrue, spirv.OpConstantFalse, spirv.OpConstant, spirv.OpConstantComposite,
		spirv.OpConstantSampler, spirv.OpConstantNull, spirv.OpConstantFunctionPointerINTEL,
		spirv.OpConstantCompositeReplicateEXT, spirv.OpConstantDataKHR, spirv.OpConstantSizeOfEXT,
		spirv.OpSpecConstantTrue, spirv.OpSpecConstantFalse, spirv.OpSpecConstant,
		spirv.OpSpecConstantComposite, spirv.OpSpecConstantCompositeReplicateEXT,
		spirv.OpSpecConstantDataKHR, spirv.OpSpecConstantOp, spirv.OpSpecConstantStringAMDX,
		spirv.OpConstantStringAMDX, spirv.OpGraphConstantARM:
		return true
	}
	return false
}

// sectionOf is InstructionLayoutSection.
func sectionOf(cur section, op spirv.Opcode) section {
	if spirv.DeclaresType(op) || isConstantOp(op) {
		return secTypes
	}
	switch op {
	case spirv.OpCapability, spirv.OpConditionalCapabilityINTEL:
		return secCapabilities
	case spirv.OpExtension, spirv.OpConditionalExtensionINTEL:
		return secExtensions
	case spirv.OpExtInstImport:
		return secExtInstImport
	case spirv.OpMemoryModel:
		return secMemoryModel
	case spirv.OpEntryPoint, spirv.OpConditionalEntryPointINTEL:
		return secEntryPoint
	case spirv.OpExecutionMode, spirv.OpExecutionModeId:
		return secExecutionMode
	case spirv.OpSourceContinued, spirv.OpSource, spirv.OpSourceExtension, spirv.OpString:
		return secDebug1
	case spirv.OpName, spirv.OpMemberName:
		return secDebug2
	case spirv.OpModuleProcessed:
		return secDebug3
	case spirv.OpDecorate, spirv.OpMemberDecorate, spirv.OpMemberDecorateIdEXT, spirv.OpGroupDecorate,
		spirv.OpGroupMemberDecorate, spirv.OpDecorationGroup, spirv.OpDecorateId, spirv.OpDecorateString,
		spirv.OpMemberDecorateString, spirv.OpAliasDomainDeclINTEL, spirv.OpAliasScopeDeclINTEL,
		spirv.OpAliasScopeListDeclINTEL:
		return secAnnotations
	case spirv.OpTypeForwardPointer, spirv.OpTypeTaskSequenceINTEL:
		return secTypes
	case spirv.OpVariable, spirv.OpUntypedVariableKHR, spirv.OpLine, spirv.OpNoLine,
		spirv.OpUndef, spirv.OpPoisonKHR:
		if cur == secTypes {
			return secTypes
		}
		return secFunctionDefinitions
	case spirv.OpExtInst, spirv.OpExtInstWithForwardRefsKHR:
		if cur == secTypes {
			return secTypes
		}
		if cur == secGraphDefinitions {
			return secGraphDefinitions
		}
		return secFunctionDefinitions
	case spirv.OpFunction, spirv.OpFunctionParameter, spirv.OpFunctionEnd:
		if cur == secFunctionDeclarations {
			return secFunctionDeclarations
		}
		return secFunctionDefinitions
	case spirv.OpSamplerImageAddressingModeNV:
		return secSamplerImageAddressMode
	case spirv.OpGraphEntryPointARM, spirv.OpGraphARM, spirv.OpGraphInputARM, spirv.OpGraphSetOutputARM, spirv.OpGraphEndARM:
		return secGraphDefinitions
	case spirv.OpCompositeExtract:
		if cur == secGraphDefinitions {
			return secGraphDefinitions
		}
	}
	return secFunctionDefinitions
}

func (l *layoutState) inCurrent(op spirv.Opcode) bool { return sectionOf(l.cur, op) == l.cur }

func (l *layoutState) progress() {
	if l.cur <= secFunctionDefinitions {
		l.cur++
	}
}

// extInstKind classifies an OpExtInst for the layout rules: debug info
// (and whether it is one of the function-local ones), other non-semantic,
// or ordinary.
func (l *layoutState) extInstKind(in *spirv.Instruction) (debugInfo, local, nonSemantic bool) {
	if len(in.Words) < 5 {
		return
	}
	name := l.s.x.ExtInstImports[in.Words[3]]
	switch name {
	case "DebugInfo", "OpenCL.DebugInfo.100", "NonSemantic.Shader.DebugInfo.100":
		debugInfo = true
		var inst string
		if in.ExtSet != nil {
			if e, ok := in.ExtSet.Instruction(in.Words[4]); ok {
				inst = e.Name
			}
		}
		switch inst {
		case "DebugScope", "DebugNoScope", "DebugDeclare", "DebugValue":
			local = true
		case "DebugLine", "DebugNoLine", "DebugFunctionDefinition":
			local = name == "NonSemantic.Shader.DebugInfo.100"
		}
		return
	}
	nonSemantic = strings.HasPrefix(name, "NonSemantic.")
	return
}

const (
	msgLocalDebug  = "DebugScope, DebugNoScope, DebugDeclare, DebugValue of debug info extension must appear in a function body"
	msgGlobalDebug = "Debug info extension instructions other than DebugScope, DebugNoScope, DebugDeclare, DebugValue must appear between section 9 (types, constants, global variables) and section 10 (function declarations)"
)

// check is ModuleLayoutPass followed by CfgPass's block bookkeeping. It
// reports whether it failed.
func (l *layoutState) check(i int, in *spirv.Instruction) bool {
	failed := l.pass(i, in)
	// CfgPass: a label opens a block, a terminator closes it.
	if in.Opcode == spirv.OpLabel && l.inFunction {
		l.inBlock = true
		l.blocks++
	} else if isTerminator(in.Opcode) {
		l.inBlock = false
	}
	return failed
}

func (l *layoutState) pass(i int, in *spirv.Instruction) bool {
	switch {
	case l.cur <= secTypes:
		return l.moduleScoped(i, in)
	case l.cur <= secFunctionDefinitions:
		return l.functionScoped(i, in)
	}
	return l.graphScoped(i, in)
}

// graphScoped is GraphScopedInstructions: the ARM graph definitions
// section, the last one, where any instruction of an earlier section (one
// moved after the functions, say) is an error.
func (l *layoutState) graphScoped(i int, in *spirv.Instruction) bool {
	s, op := l.s, in.Opcode
	if !l.inCurrent(op) {
		return s.fail(i, "", "Op%s cannot appear in the graph definitions section", opName(op))
	}
	switch op {
	case spirv.OpGraphARM:
		if l.graph > graphOutside {
			return s.fail(i, "", "Cannot define a graph in a graph")
		}
		l.graph = graphBegin
	case spirv.OpGraphInputARM:
		if l.graph != graphBegin && l.graph != graphInputs {
			return s.fail(i, "", "OpGraphInputARM must immediately follow an OpGraphARM or OpGraphInputARM instruction.")
		}
		l.graph = graphInputs
	case spirv.OpGraphSetOutputARM:
		if l.graph == graphOutside {
			return s.fail(i, "", "Op%s must immediately precede an OpGraphEndARM or OpGraphSetOutputARM instruction.", opName(op))
		}
		l.graph = graphOutputs
	case spirv.OpGraphEndARM:
		if l.graph != graphOutputs {
			return s.fail(i, "", "%s must be preceded by at least one OpGraphSetOutputARM instruction", opName(op))
		}
		l.graph = graphOutside
	case spirv.OpGraphEntryPointARM:
		if l.graph != graphOutside {
			return s.fail(i, "", "%s cannot appear in the definition of a graph", opName(op))
		}
	default:
		if op == spirv.OpExtInst || op == spirv.OpExtInstWithForwardRefsKHR {
			if _, nonSem := s.extInstKind(in); nonSem {
				break
			}
		}
		if l.graph == graphOutside {
			return s.fail(i, "", "Op%s must appear in a graph body", opName(op))
		}
		if l.graph == graphOutputs {
			return s.fail(i, "", "%s cannot appear after a graph output instruction", opName(op))
		}
		l.graph = graphBody
	}
	return false
}

func (l *layoutState) moduleScoped(i int, in *spirv.Instruction) bool {
	s, op := l.s, in.Opcode
	if op == spirv.OpExtInst || op == spirv.OpExtInstWithForwardRefsKHR {
		debug, local, nonSem := l.extInstKind(in)
		switch {
		case debug && local:
			if !l.inFunction {
				return s.fail(i, "", msgLocalDebug)
			}
		case debug:
			if l.cur < secTypes || l.cur >= secFunctionDeclarations {
				return s.fail(i, "", msgGlobalDebug)
			}
		case nonSem:
			if l.cur < secTypes {
				return s.fail(i, "", "Non-semantic OpExtInst must not appear before types section")
			}
		default:
			if l.cur < secFunctionDefinitions {
				return s.fail(i, "", "%s must appear in a block", opName(op))
			}
		}
	}
	for !l.inCurrent(op) {
		if sectionOf(l.cur, op) < l.cur {
			return s.fail(i, "", "%s is in an invalid layout section", opName(op))
		}
		l.progress()
		switch l.cur {
		case secMemoryModel:
			if op != spirv.OpMemoryModel {
				return s.fail(i, "", "%s cannot appear before the memory model instruction", opName(op))
			}
		case secFunctionDeclarations:
			return l.pass(i, in)
		}
	}
	return false
}

func (l *layoutState) functionScoped(i int, in *spirv.Instruction) bool {
	s, op := l.s, in.Opcode
	if l.cur == secFunctionDeclarations && !l.inCurrent(op) {
		l.progress()
	}
	if !l.inCurrent(op) {
		l.progress()
		return l.pass(i, in)
	}
	switch op {
	case spirv.OpFunction:
		if l.inFunction {
			return s.fail(i, "", "Cannot declare a function in a function body")
		}
		l.inFunction, l.blocks = true, 0
	case spirv.OpFunctionParameter:
		if !l.inFunction {
			return s.fail(i, "", "Function parameter instructions must be in a function body")
		}
		if l.blocks != 0 {
			return s.fail(i, "", "Function parameters must only appear immediately after the function definition")
		}
	case spirv.OpFunctionEnd:
		if !l.inFunction {
			return s.fail(i, "", "Function end instructions must be in a function body")
		}
		if l.inBlock {
			return s.fail(i, "", "Function end cannot be called in blocks")
		}
		if l.blocks == 0 && l.cur == secFunctionDefinitions {
			return s.fail(i, "", "Function declarations must appear before function definitions.")
		}
		l.inFunction = false
	case spirv.OpLine, spirv.OpNoLine:
	case spirv.OpLabel:
		if !l.inFunction {
			return s.fail(i, "", "Label instructions must be in a function body")
		}
		if l.inBlock {
			return s.fail(i, "", "A block must end with a branch instruction.")
		}
	case spirv.OpExtInst, spirv.OpExtInstWithForwardRefsKHR:
		debug, local, nonSem := l.extInstKind(in)
		switch {
		case debug && local:
			if !l.inFunction {
				return s.fail(i, "", msgLocalDebug)
			}
		case debug:
			return s.fail(i, "", msgGlobalDebug)
		case nonSem:
			if l.inFunction && !l.inBlock {
				return s.fail(i, "", "Non-semantic OpExtInst within function definition must appear in a block")
			}
		default:
			if !l.inBlock {
				return s.fail(i, "", "%s must appear in a block", opName(op))
			}
		}
	default:
		if l.cur == secFunctionDeclarations && l.inFunction {
			return s.fail(i, "", "A function must begin with a label")
		}
		if !l.inBlock {
			return s.fail(i, "", "%s must appear in a block", opName(op))
		}
	}
	return false
}

// finish applies the end-of-module layout checks.
func (l *layoutState) finish() bool {
	s := l.s
	if !s.memoryModelSeen {
		return s.fail(-1, "", "Missing required OpMemoryModel instruction.")
	}
	if l.inFunction {
		return s.fail(-1, "", "Missing OpFunctionEnd at end of module.")
	}
	if l.graph != graphOutside {
		return s.fail(-1, "", "Missing OpGraphEndARM at end of module.")
	}
	return false
}

// isTerminator is spvOpcodeIsBlockTerminator.
func isTerminator(op spirv.Opcode) bool {
	switch op {
	case spirv.OpBranch, spirv.OpBranchConditional, spirv.OpSwitch, spirv.OpReturn, spirv.OpReturnValue,
		spirv.OpKill, spirv.OpUnreachable, spirv.OpTerminateInvocation, spirv.OpIgnoreIntersectionKHR,
		spirv.OpTerminateRayKHR, spirv.OpEmitMeshTasksEXT, spirv.OpAbortKHR:
		return true
	}
	return false
}

// entryPoints is ValidateEntryPoints, as far as it exists here: a module
// without entry points must declare Linkage (or GraphARM), and an entry
// point is never also called.
func (s *state) entryPoints() bool {
	if len(s.x.EntryPoints) == 0 && !s.caps.has(spirv.CapabilityLinkage) && !s.caps.has(spirv.CapabilityGraphARM) {
		return s.fail(-1, "", "No OpEntryPoint instruction was found. This is only allowed if the Linkage or GraphARM capability is being used.")
	}
	called := map[uint32]bool{}
	for i := 0; i < s.m.Len(); i++ {
		if callee, ok := calleeAt(s.m, i); ok {
			called[callee] = true
		}
	}
	seen := map[uint32]bool{}
	for _, ep := range s.x.EntryPoints {
		if seen[ep.Function] {
			continue
		}
		seen[ep.Function] = true
		if called[ep.Function] {
			j, _ := s.x.Def(ep.Function)
			if s.fail(j, "", "A function (%d) may not be targeted by both an OpEntryPoint instruction and an OpFunctionCall instruction.", ep.Function) {
				return true
			}
		}
	}
	return false
}
