package val

import (
	"slices"
	"strings"

	"spvx/spirv"
)

// This file holds validate_id.cpp's first-loop rules (IdPass): every id
// operand is defined before its use, except where SPIR-V allows a forward
// reference; a Result Type operand names a type; and the forward
// references made are all defined by the end of the module.

type idState struct {
	s        *state
	defined  []bool          // by id, for ids below the bound (the decoder checked every id against it)
	types    []bool          // ids defined by a type declaration
	flags    []uint8         // idUntypedReq, idNonSemantic, by id
	forward  map[uint32]bool // forward references not yet defined, ids past the dense tables
	fwdDense []bool          // the same for ids below len(defined)
	nFwd     int             // forward references not yet defined
	fwdPtr   map[uint32]bool // OpTypeForwardPointer targets
	cur      int             // the instruction being checked
}

func newIDState(s *state) *idState {
	n := int(min(uint64(s.m.Header.Bound), uint64(len(s.m.Words()))+64))
	return &idState{s: s, defined: make([]bool, n), types: make([]bool, n), flags: make([]uint8, n), fwdDense: make([]bool, n), forward: map[uint32]bool{}, fwdPtr: map[uint32]bool{}}
}

func (d *idState) isDefined(id uint32) bool {
	if int(id) < len(d.defined) {
		return d.defined[id]
	}
	return d.bigDefined(id)
}

// bigDefined handles ids above the dense table (a bound far larger than
// the module): defined if their definition comes earlier. Rare, so the
// index is enough.
func (d *idState) bigDefined(id uint32) bool {
	j, ok := d.s.x.Def(id)
	return ok && j < d.cur
}

func (d *idState) isType(id uint32) bool {
	if int(id) < len(d.types) {
		return d.types[id]
	}
	j, ok := d.s.x.Def(id)
	return ok && spirv.DeclaresType(d.s.m.Opcode(j))
}

// forwardOK is spvOperandCanBeForwardDeclaredFunction: whether operand k
// (Result Type and Result counted) of op may name an id defined later.
func forwardOK(in *spirv.Instruction, k int, debugInfo bool) bool {
	op := in.Opcode
	if spirv.DeclaresType(op) {
		return true
	}
	switch op {
	case spirv.OpExecutionMode, spirv.OpExecutionModeId, spirv.OpEntryPoint, spirv.OpName, spirv.OpMemberName,
		spirv.OpSelectionMerge, spirv.OpDecorate, spirv.OpMemberDecorate, spirv.OpMemberDecorateIdEXT,
		spirv.OpDecorateId, spirv.OpDecorateString, spirv.OpMemberDecorateString, spirv.OpBranch,
		spirv.OpLoopMerge, spirv.OpConditionalEntryPointINTEL, spirv.OpConditionalCapabilityINTEL,
		spirv.OpConditionalExtensionINTEL, spirv.OpExtInstWithForwardRefsKHR:
		return true
	case spirv.OpGroupDecorate, spirv.OpGroupMemberDecorate, spirv.OpBranchConditional, spirv.OpSwitch:
		return k != 0
	case spirv.OpFunctionCall, spirv.OpConstantFunctionPointerINTEL, spirv.OpGetKernelWorkGroupSize,
		spirv.OpGetKernelPreferredWorkGroupSizeMultiple:
		return k == 2
	case spirv.OpPhi:
		return k > 1
	case spirv.OpEnqueueKernel:
		return k == 8
	case spirv.OpGetKernelNDrangeSubGroupCount, spirv.OpGetKernelNDrangeMaxSubGroupSize:
		return k == 3
	case spirv.OpTypeForwardPointer, spirv.OpGraphEntryPointARM:
		return k == 0
	case spirv.OpCooperativeMatrixPerElementOpEXT:
		return k == 3
	case spirv.OpCooperativeMatrixReduceEXT:
		return k == 4
	case spirv.OpCooperativeMatrixLoadTensorNV:
		return k > 6
	case spirv.OpExtInst:
		// The debug-info sets allow forward references in many operands
		// (spvDbgInfoExtOperandCanBeForwardDeclaredFunction); until that
		// table is here, allow them all rather than reject a valid module.
		return debugInfo
	}
	return false
}

// Facts about a defined id that IdPass asks of an operand's definition.
const (
	idUntypedReq  = 1 << iota // no result type, not a type, and InstructionRequiresTypeOperand
	idNonSemantic             // an OpExtInst of a NonSemantic.* set
)

// extInstKind tells whether in is an OpExtInst (or
// OpExtInstWithForwardRefsKHR) of a debug-info set (spvExtInstIsDebugInfo)
// and of a non-semantic set (spvExtInstIsNonSemantic).
func (s *state) extInstKind(in *spirv.Instruction) (debugInfo, nonSemantic bool) {
	if (in.Opcode != spirv.OpExtInst && in.Opcode != spirv.OpExtInstWithForwardRefsKHR) || len(in.Words) <= 3 {
		return false, false
	}
	name := s.x.ExtInstImports[in.Words[3]]
	switch name {
	case "DebugInfo", "OpenCL.DebugInfo.100":
		return true, false
	case "NonSemantic.Shader.DebugInfo.100":
		return true, true
	}
	return false, strings.HasPrefix(name, "NonSemantic.")
}

func isDebugOpcode(op spirv.Opcode) bool {
	switch op {
	case spirv.OpName, spirv.OpMemberName, spirv.OpSource, spirv.OpSourceContinued, spirv.OpSourceExtension,
		spirv.OpString, spirv.OpLine, spirv.OpNoLine, spirv.OpModuleProcessed:
		return true
	}
	return false
}

func isDecorationOpcode(op spirv.Opcode) bool {
	switch op {
	case spirv.OpDecorate, spirv.OpDecorateId, spirv.OpMemberDecorate, spirv.OpMemberDecorateIdEXT,
		spirv.OpGroupDecorate, spirv.OpGroupMemberDecorate, spirv.OpDecorateStringGOOGLE, spirv.OpMemberDecorateStringGOOGLE:
		return true
	}
	return false
}

func isUntypedPointerOpcode(op spirv.Opcode) bool {
	switch op {
	case spirv.OpUntypedVariableKHR, spirv.OpUntypedAccessChainKHR, spirv.OpUntypedInBoundsAccessChainKHR,
		spirv.OpUntypedPtrAccessChainKHR, spirv.OpUntypedInBoundsPtrAccessChainKHR:
		return true
	}
	return false
}

// canHaveTypeOperand is InstructionCanHaveTypeOperand.
func canHaveTypeOperand(in *spirv.Instruction, debugInfo, nonSemantic bool) bool {
	op := in.Opcode
	if spirv.DeclaresType(op) || isDebugOpcode(op) || debugInfo || nonSemantic || isDecorationOpcode(op) || isUntypedPointerOpcode(op) {
		return true
	}
	switch op {
	case spirv.OpSizeOf, spirv.OpCooperativeMatrixLengthNV, spirv.OpCooperativeMatrixLengthKHR, spirv.OpUntypedArrayLengthKHR,
		spirv.OpFunction, spirv.OpAsmINTEL, spirv.OpConstantSizeOfEXT, spirv.OpBufferPointerEXT,
		spirv.OpUntypedImageTexelPointerEXT, spirv.OpAbortKHR:
		return true
	case spirv.OpSpecConstantOp:
		if len(in.Words) > 3 {
			switch w := spirv.Opcode(in.Words[3]); w {
			case spirv.OpCooperativeMatrixLengthNV, spirv.OpCooperativeMatrixLengthKHR:
				return true
			default:
				return isUntypedPointerOpcode(w)
			}
		}
	}
	return false
}

// requiresTypeOperand is InstructionRequiresTypeOperand.
func requiresTypeOperand(in *spirv.Instruction, debugInfo, nonSemantic bool) bool {
	op := in.Opcode
	if isDebugOpcode(op) || debugInfo || nonSemantic || isDecorationOpcode(op) || isUntypedPointerOpcode(op) {
		return false
	}
	switch op {
	case spirv.OpBranch, spirv.OpBranchConditional, spirv.OpSwitch,
		spirv.OpExtInst, spirv.OpExtInstWithForwardRefsKHR, spirv.OpExtInstImport, spirv.OpSelectionMerge,
		spirv.OpLoopMerge, spirv.OpFunction, spirv.OpSizeOf, spirv.OpCooperativeMatrixLengthNV,
		spirv.OpCooperativeMatrixLengthKHR, spirv.OpPhi, spirv.OpUntypedArrayLengthKHR, spirv.OpAsmINTEL,
		spirv.OpAliasScopeDeclINTEL, spirv.OpAliasScopeListDeclINTEL, spirv.OpAbortKHR:
		return false
	case spirv.OpSpecConstantOp:
		if len(in.Words) > 3 {
			switch spirv.Opcode(in.Words[3]) {
			case spirv.OpCooperativeMatrixLengthNV, spirv.OpCooperativeMatrixLengthKHR:
				return false
			}
		}
	}
	return true
}

// check is IdPass for instruction i.
func (d *idState) check(i int, in *spirv.Instruction) bool {
	s := d.s
	d.cur = i
	debugInfo, nonSemantic := s.extInstKind(in)
	canType, reqType := -1, -1 // lazily: canHaveTypeOperand, requiresTypeOperand
	for k, o := range in.Operands {
		ki := o.Kind.Info()
		if ki == nil || ki.Category != spirv.CategoryID || o.Kind == spirv.OperandKindIdResult || ki.Set != "" {
			continue
		}
		id := in.Words[o.Offset]
		if o.Kind == spirv.OperandKindIdResultType {
			if !d.isDefined(id) {
				return s.fail(i, "", "ID %s has not been defined", s.idName(id))
			}
			if !d.isType(id) {
				return s.fail(i, "", "ID %s is not a type id", s.idName(id))
			}
			continue
		}
		if d.isDefined(id) {
			if o.Kind != spirv.OperandKindIdRef && o.Kind != spirv.OperandKindIdMemorySemantics && o.Kind != spirv.OperandKindIdScope {
				continue
			}
			if d.isType(id) {
				if canType < 0 {
					canType = b2i(canHaveTypeOperand(in, debugInfo, nonSemantic))
				}
				if canType == 0 {
					return s.fail(i, "", "Operand %s cannot be a type", s.idName(id))
				}
				continue
			}
			if int(id) >= len(d.flags) {
				continue
			}
			f := d.flags[id]
			if f&idUntypedReq != 0 {
				if reqType < 0 {
					reqType = b2i(requiresTypeOperand(in, debugInfo, nonSemantic))
				}
				if reqType == 1 {
					return s.fail(i, "", "Operand %s requires a type", s.idName(id))
				}
			}
			if f&idNonSemantic != 0 && !nonSemantic {
				return s.fail(i, "", "Operand %s in semantic instruction cannot be a non-semantic instruction", s.idName(id))
			}
			continue
		}
		if forwardOK(in, k, debugInfo) {
			if spirv.DeclaresType(in.Opcode) && !d.fwdPtr[id] {
				return s.fail(i, "", "Operand %s requires a previous definition", s.idName(id))
			}
			d.addForward(id)
			continue
		}
		return s.fail(i, "", "ID %s has not been defined", s.idName(id))
	}
	return false
}

// define records instruction i's result after the first-loop passes, as
// RegisterInstruction does.
func (d *idState) define(i int, in *spirv.Instruction) {
	if id := in.ResultID; id != 0 {
		if int(id) < len(d.defined) {
			d.defined[id] = true
			isType := spirv.DeclaresType(in.Opcode)
			d.types[id] = isType
			var f uint8
			debugInfo, nonSemantic := d.s.extInstKind(in)
			if nonSemantic {
				f |= idNonSemantic
			}
			if !isType && !hasResultType(in) && requiresTypeOperand(in, debugInfo, nonSemantic) {
				f |= idUntypedReq
			}
			d.flags[id] = f
		}
		if d.nFwd > 0 {
			d.resolveForward(id)
		}
	}
	if in.Opcode == spirv.OpTypeForwardPointer && len(in.Words) > 1 {
		d.fwdPtr[in.Words[1]] = true
		d.s.fwdPtr = d.fwdPtr
	}
}

func (d *idState) addForward(id uint32) {
	if int(id) < len(d.fwdDense) {
		if !d.fwdDense[id] {
			d.fwdDense[id] = true
			d.nFwd++
		}
		return
	}
	if !d.forward[id] {
		d.forward[id] = true
		d.nFwd++
	}
}

func (d *idState) resolveForward(id uint32) {
	if int(id) < len(d.fwdDense) {
		if d.fwdDense[id] {
			d.fwdDense[id] = false
			d.nFwd--
		}
		return
	}
	if d.forward[id] {
		delete(d.forward, id)
		d.nFwd--
	}
}

// finish is ValidateForwardDecls.
func (d *idState) finish() bool {
	if d.nFwd == 0 {
		return false
	}
	ids := make([]uint32, 0, d.nFwd)
	for id, f := range d.fwdDense {
		if f {
			ids = append(ids, uint32(id))
		}
	}
	for id := range d.forward {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	names := make([]string, len(ids))
	for k, id := range ids {
		names[k] = d.s.idName(id)
	}
	return d.s.fail(-1, "", "The following forward referenced IDs have not been defined:\n%s", strings.Join(names, " "))
}

// checkDominance is CheckIdDefinitionDominateUse: in a reachable block,
// every use of an id defined in a block is dominated by that block (OpPhi
// operands: the definition dominates the matching parent block instead),
// and a function's parameters and labels are not used in another
// function. Errors come in spirv-val's order: by defining instruction,
// then by use.
func (s *state) checkDominance() bool {
	if len(s.x.Functions) == 0 {
		return false
	}
	g := s.getCFG()
	fnOf := func(inst int) int32 { // the function holding instruction inst
		fs := s.x.Functions
		lo, hi := 0, len(fs)
		for lo < hi {
			mid := (lo + hi) / 2
			if fs[mid].Start <= inst {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		if lo > 0 && (fs[lo-1].End < 0 || inst <= fs[lo-1].End) {
			return int32(lo - 1)
		}
		return -1
	}
	type violation struct {
		def, use int // instruction indexes
		block    int32
		outside  bool // used outside the defining function
	}
	var found []violation
	var phis []int
	for k := range g.blocks {
		b := &g.blocks[k]
		if !b.reachable || b.end < 0 {
			continue
		}
		for i := b.start + 1; i <= b.end; i++ {
			in := s.m.Inst(i)
			if in.Opcode == spirv.OpPhi {
				phis = append(phis, i)
				continue
			}
			for _, id := range in.UsedIDs() {
				j, ok := s.x.Def(id)
				if !ok {
					continue
				}
				if db := g.blockOf[j]; db >= 0 && s.m.Opcode(j) != spirv.OpLabel {
					if !g.dominates(db, int32(k)) {
						found = append(found, violation{def: j, use: i, block: int32(k)})
					}
					continue
				}
				switch s.m.Opcode(j) {
				case spirv.OpFunctionParameter, spirv.OpLabel:
					if f := fnOf(j); f >= 0 && f != b.fn {
						found = append(found, violation{def: j, use: i, outside: true})
					}
				}
			}
		}
	}
	if len(found) > 0 {
		first := found[0]
		for _, v := range found[1:] {
			if v.def < first.def || (v.def == first.def && v.use < first.use) {
				first = v
			}
		}
		if s.reportDominance(g, first.def, first.use, first.block, first.outside, fnOf) {
			return true
		}
	}
	for _, i := range phis {
		in := s.m.Inst(i)
		w := in.Words
		for k := 3; k+1 < len(w); k += 2 {
			j, ok := s.x.Def(w[k])
			if !ok || s.m.Opcode(j) == spirv.OpLabel {
				continue
			}
			vb := g.blockOf[j]
			pb, ok := g.byLabel[w[k+1]]
			if vb < 0 || !ok || !g.blocks[pb].reachable || g.blocks[pb].fn != g.blocks[g.blockOf[i]].fn {
				continue
			}
			if !g.dominates(vb, pb) {
				if s.fail(i, "", "In OpPhi instruction %s, ID %s definition does not dominate its parent %s",
					s.idName(in.ResultID), s.idName(w[k]), s.idName(w[k+1])) {
					return true
				}
			}
		}
	}
	return false
}

func (s *state) reportDominance(g *cfg, def, use int, block int32, outside bool, fnOf func(int) int32) bool {
	defID := s.m.Inst(def).ResultID
	if outside {
		f := s.x.Functions[fnOf(def)]
		uf := s.x.Functions[fnOf(use)]
		return s.fail(f.Start, "", "ID %s used in function %s is used outside of it's defining function %s",
			s.idName(defID), s.idName(uf.ID), s.idName(f.ID))
	}
	b := &g.blocks[block]
	return s.fail(b.start, "", "ID %s defined in block %s does not dominate its use in block %s",
		s.idName(defID), s.idName(g.blocks[g.blockOf[def]].label), s.idName(b.label))
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// hasResultType reports whether in has a Result Type operand (a non-zero
// type_id in SPIRV-Tools).
func hasResultType(in *spirv.Instruction) bool {
	for _, o := range in.Operands {
		if o.Kind == spirv.OperandKindIdResultType {
			return in.Words[o.Offset] != 0
		}
		if o.Kind == spirv.OperandKindIdResult {
			return false
		}
	}
	return false
}
