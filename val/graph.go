package val

import (
	"sort"

	"spvx/spirv"
)

// The graph family (SPV_ARM_graph), as SPIRV-Tools' GraphPass
// (validate_graph.cpp) checks it: OpTypeGraphARM, OpGraphConstantARM,
// OpGraphEntryPointARM, OpGraphARM, OpGraphInputARM, OpGraphSetOutputARM
// and OpGraphEndARM; and validate.cpp's graph entry-point checks (unique
// names in the first loop, at least one entry point with GraphARM after
// ValidateEntryPoints). The layout of graph definitions is layout.go's.
//
// spirv-val finds an input's or output's graph, and an OpGraphEndARM's
// inputs and outputs, by walking back through the module, and an
// OpGraphConstantARM's duplicate by walking back to the start: here the
// graphs' starts and each constant id's first definition are found once
// (graphShared), so every rule is linear in the module.

// graphShared is what the graph rules need of the whole module, built
// once by getGraphShared.
type graphShared struct {
	starts     []int          // the indexes of the OpGraphARMs, ascending
	firstConst map[uint32]int // each GraphConstantID's first OpGraphConstantARM
	entries    int            // the number of OpGraphEntryPointARMs
}

// getGraphShared builds graphShared on first use: before the second
// loop's forks start (prepareShared calls it) or on the one goroutine of
// the passes after it. Without the GraphARM capability no graph
// instruction gets this far, and the module is not scanned.
func (s *state) getGraphShared() *graphShared {
	if s.graphs != nil {
		return s.graphs
	}
	g := &graphShared{}
	s.graphs = g
	if !s.caps.has(spirv.CapabilityGraphARM) {
		return g
	}
	g.firstConst = map[uint32]int{}
	for i := 0; i < s.m.Len(); i++ {
		switch s.m.Opcode(i) {
		case spirv.OpGraphARM:
			g.starts = append(g.starts, i)
		case spirv.OpGraphEntryPointARM:
			g.entries++
		case spirv.OpGraphConstantARM:
			if in := s.m.Inst(i); len(in.Words) > 3 {
				if _, dup := g.firstConst[in.Words[3]]; !dup {
					g.firstConst[in.Words[3]] = i
				}
			}
		}
	}
	return g
}

// graphOf is the index of the last OpGraphARM before instruction i, -1
// for none.
func (s *state) graphOf(i int) int {
	st := s.getGraphShared().starts
	k := sort.SearchInts(st, i)
	if k == 0 {
		return -1
	}
	return st[k-1]
}

// graphEntryName is the first loop's check of an OpGraphEntryPointARM:
// no two share a name. names is the loop's set of names so far.
func (s *state) graphEntryName(i int, in *spirv.Instruction, names *map[string]bool) bool {
	if len(in.Operands) < 2 {
		return false
	}
	if *names == nil {
		*names = map[string]bool{}
	}
	name := in.String(1)
	if (*names)[name] {
		return s.fail(i, "", "Graph entry points cannot share the same name.")
	}
	(*names)[name] = true
	return false
}

// graphEntryPoints is ValidateGraphEntryPoints: a module that declares
// GraphARM has a graph entry point.
func (s *state) graphEntryPoints() bool {
	if s.caps.has(spirv.CapabilityGraphARM) && s.getGraphShared().entries == 0 {
		return s.fail(-1, "", "No OpGraphEntryPointARM instruction was found but the GraphARM capability is declared.")
	}
	return false
}

// graphOps reports whether graphPass can act on an instruction of opcode op
// (passGate runs it on no other: a new case there needs its opcode here).
func graphOps(op spirv.Opcode) bool {
	return opIn(op, spirv.OpTypeGraphARM, spirv.OpGraphConstantARM, spirv.OpGraphEntryPointARM, spirv.OpGraphARM,
		spirv.OpGraphInputARM, spirv.OpGraphSetOutputARM, spirv.OpGraphEndARM)
}

// graphPass is GraphPass: it applies the rule of in's opcode.
func (s *state) graphPass(i int, in *spirv.Instruction) bool {
	switch in.Opcode {
	case spirv.OpTypeGraphARM:
		return s.graphType(i, in)
	case spirv.OpGraphConstantARM:
		return s.graphConstant(i, in)
	case spirv.OpGraphEntryPointARM:
		return s.graphEntryPoint(i, in)
	case spirv.OpGraphARM:
		if s.typeOp(in.TypeID) != spirv.OpTypeGraphARM {
			return s.fail(i, "", "GraphARM Result Type must be an OpTypeGraphARM.")
		}
	case spirv.OpGraphInputARM, spirv.OpGraphSetOutputARM:
		return s.graphInOut(i, in)
	case spirv.OpGraphEndARM:
		return s.graphEnd(i)
	}
	return false
}

// isTensorArray is IsTensorArray: an array or runtime array of tensors.
func (s *state) isTensorArray(t uint32) bool {
	op := s.typeOp(t)
	return (op == spirv.OpTypeArray || op == spirv.OpTypeRuntimeArray) && s.typeOp(s.typeWord(t, 2)) == spirv.OpTypeTensorARM
}

// graphType is ValidateGraphType: at least NumInputs types, at least one
// output, and only tensors and arrays of them.
func (s *state) graphType(i int, in *spirv.Instruction) bool {
	if len(in.Words) < 3 {
		return false
	}
	inputs, io := uint64(in.Words[2]), uint64(len(in.Words)-3)
	if io < inputs {
		return s.fail(i, "", "%d I/O types were provided but the graph has %d inputs.", io, inputs)
	}
	if io == inputs {
		return s.fail(i, "", "A graph type must have at least one output.")
	}
	for _, t := range in.Words[3:] {
		if s.typeOp(t) != spirv.OpTypeTensorARM && !s.isTensorArray(t) {
			return s.fail(i, "", "I/O type %s is not a Graph Interface Type.", s.idName(t))
		}
	}
	return false
}

// graphConstant is ValidateGraphConstant: a tensor Result Type and a
// GraphConstantID no earlier OpGraphConstantARM has.
func (s *state) graphConstant(i int, in *spirv.Instruction) bool {
	if s.typeOp(in.TypeID) != spirv.OpTypeTensorARM {
		return s.fail(i, "", "GraphConstantARM must have a Result Type that is a tensor type.")
	}
	if len(in.Words) > 3 {
		// spirv-val's walk back stops before the module's first
		// instruction, which is never an OpGraphConstantARM that passed
		// the layout checks.
		if first, ok := s.getGraphShared().firstConst[in.Words[3]]; ok && first < i && first > 0 {
			return s.fail(i, "", "No two OpGraphConstantARM instructions may have the same GraphConstantID")
		}
	}
	return false
}

// graphEntryPoint is ValidateGraphEntryPoint: the Graph is an OpGraphARM
// whose type has as many inputs and outputs as the Interface has ids,
// each a UniformConstant OpVariable of the matching I/O type.
func (s *state) graphEntryPoint(i int, in *spirv.Instruction) bool {
	g := s.opWord(in, 0)
	j, ok := s.x.Def(g)
	if !ok {
		return false
	}
	if gi := s.m.Inst(j); gi.Opcode != spirv.OpGraphARM {
		return s.fail(i, "", "GraphEntryPointARM Graph must be a OpGraphARM but found %s.", opName(gi.Opcode))
	}
	gt := s.typeOfValue(g)
	if s.typeOp(gt) != spirv.OpTypeGraphARM {
		return false // OpGraphARM's own rule reports it
	}
	tw := s.typeWords(gt)
	ids := len(in.Operands) - 2
	if len(tw)-3 != ids {
		return s.fail(i, "", "GraphEntryPointARM Interface list contains %d IDs but Graph's type %s has %d inputs and outputs.",
			ids, s.idName(gt), len(tw)-3)
	}
	for k := 2; k < len(in.Operands); k++ {
		if s.graphInterface(i, s.opWord(in, k), tw[k+1]) {
			return true
		}
	}
	return false
}

// graphInterface checks one Interface id v of the graph entry point at
// i against its graph I/O type want. spirv-val reports a wrong variable
// at the variable's definition.
func (s *state) graphInterface(i int, v, want uint32) bool {
	j, ok := s.x.Def(v)
	if !ok {
		return false
	}
	vi := s.m.Inst(j)
	if vi.Opcode != spirv.OpVariable || len(vi.Words) < 4 || spirv.StorageClass(vi.Words[3]) != spirv.StorageClassUniformConstant {
		return s.fail(j, "", "GraphEntryPointARM Interface ID %s must come from OpVariable with UniformConstant Storage Class.", s.idName(v))
	}
	pointee := s.typeWord(vi.TypeID, 3)
	if pointee != want {
		return s.fail(i, "", "GraphEntryPointARM Interface ID type %s must match the type of the corresponding graph I/O %s",
			s.idName(pointee), s.idName(want))
	}
	return false
}

// graphIO is what an OpGraphInputARM or OpGraphSetOutputARM says: its
// index and element operands, the words of its graph's type, and the
// names spirv-val uses for them.
type graphIO struct {
	input          bool
	index, element uint32 // ids; element 0 when absent
	name, what     string // "OpGraphInputARM", "InputIndex"
}

// graphIOOf reads in, an OpGraphInputARM or OpGraphSetOutputARM.
func (s *state) graphIOOf(in *spirv.Instruction) graphIO {
	io := graphIO{input: in.Opcode == spirv.OpGraphInputARM, name: "OpGraphSetOutputARM", what: "OutputIndex"}
	first := 1
	if io.input {
		first, io.name, io.what = 2, "OpGraphInputARM", "InputIndex"
	}
	io.index = s.opWord(in, first)
	if len(in.Operands) > first+1 {
		io.element = s.opWord(in, first+1)
	}
	return io
}

// graphInOut is ValidateGraphInput and ValidateGraphSetOutput.
func (s *state) graphInOut(i int, in *spirv.Instruction) bool {
	io := s.graphIOOf(in)
	// These two name the opcode as spvOpcodeString does, without "Op".
	if !s.isIntN(s.typeOfValue(io.index), 32) {
		return s.fail(i, "", "%s %s must be a 32-bit integer.", io.name[2:], io.what)
	}
	if io.element != 0 && !s.isIntN(s.typeOfValue(io.element), 32) {
		return s.fail(i, "", "%s ElementIndex must be a 32-bit integer.", io.name[2:])
	}
	if s.opts.Env.IsVulkan() {
		vuid := "VUID-StandaloneSpirv-OpGraphSetOutputARM-09932"
		if io.input {
			vuid = "VUID-StandaloneSpirv-OpGraphInputARM-09931"
		}
		if !s.isConstantID(io.index) {
			return s.fail(i, vuid, "%s %s must be the <id> of a constant instruction.", io.name, io.what)
		}
		if io.element != 0 && !s.isConstantID(io.element) {
			return s.fail(i, vuid, "%s ElementIndex must be the <id> of a constant instruction.", io.name)
		}
	}
	g := s.graphOf(i)
	idx, ok := s.constUint(io.index)
	if g < 0 || !ok {
		return false
	}
	gt := s.m.Inst(g).TypeID
	tw := s.typeWords(gt)
	if s.typeOp(gt) != spirv.OpTypeGraphARM || len(tw) < 3 {
		return false
	}
	return s.graphIOType(i, in, io, idx, g, tw)
}

// isConstantID reports whether id is defined by a constant instruction.
func (s *state) isConstantID(id uint32) bool {
	j, ok := s.x.Def(id)
	return ok && isConstantOp(s.m.Opcode(j))
}

// graphIOType checks an input or output whose index idx is known against
// the type words tw of its graph g: the index in range, ElementIndex
// only on arrays and within a sized one, and the type.
func (s *state) graphIOType(i int, in *spirv.Instruction, io graphIO, idx uint64, g int, tw []uint32) bool {
	inputs, io3 := uint64(tw[2]), uint64(len(tw)-3)
	if io3 < inputs {
		return false // the graph type's own rule reports it (under Options.All)
	}
	var t uint32
	if io.input {
		if idx >= inputs {
			return s.fail(-1, "", "Type %s for graph %s has %d inputs but found an OpGraphInputARM instruction with an InputIndex that is %d: %s",
				s.idName(tw[1]), s.idName(s.m.Inst(g).ResultID), inputs, idx, s.instText(i))
		}
		t = tw[3+idx]
	} else {
		if idx >= io3-inputs {
			return s.fail(i, "", "GraphSetOutputARM setting OutputIndex %d but graph only has %d outputs.", idx, io3-inputs)
		}
		t = tw[3+inputs+idx]
	}
	dir := "output"
	if io.input {
		dir = "input"
	}
	if io.element != 0 {
		if !s.isTensorArray(t) {
			return s.fail(i, "", "%s ElementIndex not allowed when the graph %s selected by %s is not an OpTypeArray or OpTypeRuntimeArray", io.name, dir, io.what)
		}
		if e, ok := s.constUint(io.element); ok && s.typeOp(t) == spirv.OpTypeArray {
			if n, ok := s.constUint(s.typeWord(t, 3)); ok && e >= n {
				return s.fail(i, "", "%s ElementIndex out of range. The type of the graph %s being accessed %s is an array of %d elements but ElementIndex is %d",
					io.name, dir, s.idName(t), n, e)
			}
		}
	}
	return s.graphIOMatch(i, in, io, idx, t)
}

// graphIOMatch checks the Result Type of an input, or the Value's type of
// an output, against the graph's I/O type t (its element type when there
// is an ElementIndex).
func (s *state) graphIOMatch(i int, in *spirv.Instruction, io graphIO, idx uint64, t uint32) bool {
	kind := "type"
	if io.element != 0 {
		t, kind = s.componentType(t), "component type"
	}
	dir := "output"
	got, what := s.typeOfValue(s.opWord(in, 0)), "The type %s of Value provided to the graph output instruction %s"
	subject := s.opWord(in, 0)
	if io.input {
		dir, got, what, subject = "input", in.TypeID, "Result Type %s of graph input instruction %s", in.ResultID
	}
	if got == t {
		return false
	}
	return s.fail(i, "", what+" does not match the %s %s of %s %d in the graph type.",
		s.idName(got), s.idName(subject), kind, s.idName(t), dir, idx)
}

// graphEnd is ValidateGraphEnd: within one graph, no two inputs (and no
// two outputs) select the same I/O and element.
func (s *state) graphEnd(i int) bool {
	g := s.graphOf(i)
	if g < 0 {
		return false
	}
	var ins, outs []int
	for j := g + 1; j < i; j++ {
		switch s.m.Opcode(j) {
		case spirv.OpGraphInputARM:
			ins = append(ins, j)
		case spirv.OpGraphSetOutputARM:
			outs = append(outs, j)
		}
	}
	const tail = " must not be part of the same graph definition unless ElementIndex is present in both with different values."
	if j := s.graphDuplicate(ins); j >= 0 {
		return s.fail(j, "", "Two OpGraphInputARM instructions with the same InputIndex"+tail)
	}
	if j := s.graphDuplicate(outs); j >= 0 {
		return s.fail(j, "", "Two OpGraphSetOutputARM instructions with the same OutputIndex"+tail)
	}
	return false
}

// graphDuplicate is InputOutputInstructionsHaveDuplicateIndices: the
// first of insts whose (index, element) pair, or (index, none), an
// earlier one had; -1 for none. Indexes that are not constants are
// skipped.
func (s *state) graphDuplicate(insts []int) int {
	const none = ^uint64(0)
	seen := map[[2]uint64]bool{}
	for _, j := range insts {
		in := s.m.Inst(j)
		io := s.graphIOOf(&in)
		idx, ok := s.constUint(io.index)
		if !ok {
			continue
		}
		elem := none
		if io.element != 0 {
			if elem, ok = s.constUint(io.element); !ok {
				continue
			}
		}
		if seen[[2]uint64{idx, elem}] || seen[[2]uint64{idx, none}] {
			return j
		}
		seen[[2]uint64{idx, elem}] = true
	}
	return -1
}
