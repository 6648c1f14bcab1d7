package val

import "spvx/spirv"

// This file holds validate_logical_pointers.cpp's variable-pointer rules
// (ValidateVariablePointers), which spirv-val applies to each instruction
// right after the operand and result rules of logical_pointers.go, in the
// same loop.
//
// A variable pointer is a logical pointer made by OpPtrAccessChain, an
// untyped pointer access chain, OpLoad, OpSelect, OpPhi, OpFunctionCall or
// OpConstantNull, or derived from one (an access chain of one, a function
// parameter some call passes one to, ...). Such a pointer must not be the
// operand of an array length, point to an array of Block structs, to a
// matrix or into one, and without VariablePointers, an OpSelect or OpPhi
// must pick among pointers into one StorageBuffer or Workgroup variable.
// The last three are found by tracing the pointer back to where it came
// from (access-chain bases, OpPhi and OpSelect operands, call arguments,
// returned values, stores to Function and Private variables).
//
// spirv-val traces every variable pointer anew; here the traces are one
// pass of Tarjan's strongly connected components over the trace graph,
// each node's result (the variables reached, whether a matrix column is
// reached) memoized, so the rules are linear in the module; the walk
// from a Function or Private variable over the uses of everything made
// from it, to the stores through them, is part of the same graph.

// Trace flags.
const (
	vpTypedMatrix   = 1 << iota // an access chain reaching into a matrix (CheckMatrixElementTyped)
	vpUntypedMatrix             // the same, with untyped access chains (CheckMatrixElementUntyped)
	vpBlockArray                // a variable of an array of Block structs (unmodified traces)
)

// vpReach is what a trace from one instruction reaches: up to two
// StorageBuffer or Workgroup variables (more are not needed: two are
// already too many) and the trace flags.
type vpReach struct {
	src   [2]int32 // instruction indexes of distinct variables, -1: none
	flags uint8
}

func (r *vpReach) add(o vpReach) {
	r.flags |= o.flags
	for _, v := range o.src {
		if v < 0 || v == r.src[0] || v == r.src[1] {
			continue
		}
		if r.src[0] < 0 {
			r.src[0] = v
		} else if r.src[1] < 0 {
			r.src[1] = v
		}
	}
}

// vpGraph memoizes the traces of one kind: full traces
// (TraceVariablePointers) or unmodified ones, which do not go through
// access chains (TraceUnmodifiedVariablePointers).
type vpGraph struct {
	unmodified bool
	reach      []vpReach // by instruction, valid when done
	index      []int32   // Tarjan's numbering, 0: not visited; -1: done
	low        []int32
}

// varPointers is the state of the variable-pointer rules for one module.
type varPointers struct {
	isVP     []int8              // IsVariablePointer by instruction: 0 unknown, 1 being computed or false, 2 true
	calls    map[uint32][]int    // function id -> its OpFunctionCall instructions, in module order
	fnIdx    map[uint32]int      // function id -> index in x.Functions
	param    map[uint32][2]int32 // parameter id -> its function's index in x.Functions, its position
	full     *vpGraph
	unmod    *vpGraph
	uses     [][]vpUse       // by instruction: its id uses (built on first need)
	matrixIn map[uint32]bool // type id -> contains a matrix (ContainsType, pointers not followed)
	steps    int             // instructions and edges visited (the linear-time test counts them)
	frames   []vpFrame       // vpTarjan's stacks, kept for the next trace
	comp     []int
	succ     []int
}

// vpUse is one use of an id: the using instruction and the word.
type vpUse struct {
	inst int32
	word int32
}

// newVarPointers computes IsVariablePointer for every logical pointer, in
// module order as spirv-val caches them (the order decides the cycles
// through recursive calls).
func (s *state) newVarPointers() *varPointers {
	vp := &varPointers{isVP: make([]int8, s.m.Len())}
	for i := range vp.isVP {
		in := s.m.Inst(i)
		if in.ResultID == 0 || in.TypeID == 0 {
			continue
		}
		if _, ok := s.logicalPointerType(in.TypeID); ok {
			s.isVariablePointer(vp, i)
		}
	}
	return vp
}

// isVariablePointer is IsVariablePointer: whether instruction i is, or is
// derived from, a variable pointer. An instruction being computed counts
// as not one, as spirv-val's cache has it.
func (s *state) isVariablePointer(vp *varPointers, i int) bool {
	if vp.isVP[i] != 0 {
		return vp.isVP[i] == 2
	}
	vp.isVP[i] = 1
	vp.steps++
	in := s.m.Inst(i)
	is := false
	switch in.Opcode {
	case spirv.OpPtrAccessChain, spirv.OpUntypedPtrAccessChainKHR, spirv.OpUntypedInBoundsPtrAccessChainKHR,
		spirv.OpLoad, spirv.OpSelect, spirv.OpPhi, spirv.OpFunctionCall, spirv.OpConstantNull:
		is = true
	case spirv.OpFunctionParameter:
		if _, ok := s.logicalPointerType(in.TypeID); ok {
			s.vpArguments(vp, in.ResultID, func(a uint32) {
				if j, ok := s.x.Def(a); ok && s.isVariablePointer(vp, j) {
					is = true
				}
			})
		}
	default:
		for _, o := range in.Operands {
			if o.Kind != spirv.OperandKindIdRef {
				continue
			}
			id := in.Words[o.Offset]
			if _, ok := s.logicalPointerType(s.x.ValueType(id)); ok && s.isVPID(vp, id) {
				is = true
			}
		}
	}
	if is {
		vp.isVP[i] = 2
	}
	return is
}

// isVPID is isVariablePointer of the instruction defining id.
func (s *state) isVPID(vp *varPointers, id uint32) bool {
	j, ok := s.x.Def(id)
	return ok && s.isVariablePointer(vp, j)
}

// vpArguments calls f with the id every OpFunctionCall of parameter p's
// function passes for p.
func (s *state) vpArguments(vp *varPointers, p uint32, f func(arg uint32)) {
	s.vpCalls(vp)
	pos, ok := vp.param[p]
	if !ok {
		return
	}
	for _, c := range vp.calls[s.x.Functions[pos[0]].ID] {
		if w := s.m.Inst(c).Words; 4+int(pos[1]) < len(w) {
			f(w[4+pos[1]])
		}
	}
}

// vpCalls indexes the functions, their parameters and their calls.
func (s *state) vpCalls(vp *varPointers) {
	if vp.param != nil {
		return
	}
	vp.param = map[uint32][2]int32{}
	vp.calls = map[uint32][]int{}
	vp.fnIdx = map[uint32]int{}
	for f, fn := range s.x.Functions {
		if _, dup := vp.fnIdx[fn.ID]; !dup {
			vp.fnIdx[fn.ID] = f
		}
		for k, id := range fn.Params {
			vp.param[id] = [2]int32{int32(f), int32(k)}
		}
	}
	for i := 0; i < s.m.Len(); i++ {
		if s.m.Opcode(i) != spirv.OpFunctionCall {
			continue
		}
		if in := s.m.Inst(i); len(in.Words) > 3 {
			vp.calls[in.Words[3]] = append(vp.calls[in.Words[3]], i)
		}
	}
}

// variablePointerRules is ValidateVariablePointers for instruction i, in.
func (s *state) variablePointerRules(vp *varPointers, i int, in *spirv.Instruction) bool {
	w := in.Words
	switch in.Opcode {
	case spirv.OpArrayLength, spirv.OpUntypedArrayLengthKHR:
		at := 3
		if in.Opcode == spirv.OpUntypedArrayLengthKHR {
			at = 4
		}
		if at < len(w) && s.isVPID(vp, w[at]) {
			return s.fail(i, "", "Pointer operand must not be a variable pointer")
		}
		return false
	case spirv.OpLoad:
		if len(w) > 3 && s.vpUntypedMatrixAccess(vp, w[3], in.TypeID) {
			return s.fail(i, "", "Variable pointer must not point to an object that is or contains a matrix")
		}
	case spirv.OpStore:
		if len(w) > 2 && s.vpUntypedMatrixAccess(vp, w[1], s.typeOfValue(w[2])) {
			return s.fail(i, "", "Variable pointer must not point to an object that is or contains a matrix")
		}
	}
	if in.ResultID == 0 || in.TypeID == 0 {
		return false
	}
	if _, ok := s.logicalPointerType(in.TypeID); !ok || !s.isVariablePointer(vp, i) {
		return false
	}
	if !s.caps.has(spirv.CapabilityVariablePointers) && (in.Opcode == spirv.OpSelect || in.Opcode == spirv.OpPhi) {
		if s.vpTrace(vp, false, i).src[1] >= 0 {
			return s.fail(i, "", "Variable pointers must point into the same structure (or OpConstantNull)")
		}
	}
	rt := s.typeOf(in.TypeID)
	if rt.Op == spirv.OpTypeUntypedPointerKHR {
		return s.untypedVariablePointer(vp, i)
	}
	switch pointee := rt.Elem; {
	case s.isBlockArray(pointee):
		return s.fail(i, "", "Variable pointer must not point to an array of Block- or BufferBlock-decorated structs")
	case s.vpContainsMatrix(vp, pointee):
		return s.fail(i, "", "Variable pointer must not point to an object that is or contains a matrix")
	case s.isFloatScalarOrVector(pointee) && s.vpTrace(vp, false, i).flags&vpTypedMatrix != 0:
		return s.fail(i, "", "Variable pointer must not point to a column or a component of a column of a matrix")
	}
	return false
}

// untypedVariablePointer is the untyped half of ValidateVariablePointers'
// pointee rules: the pointee is known only from the trace.
func (s *state) untypedVariablePointer(vp *varPointers, i int) bool {
	if s.vpTrace(vp, false, i).flags&vpUntypedMatrix != 0 {
		return s.fail(i, "", "Variable pointer must not point to a column or a component of a column of a matrix.")
	}
	if s.vpTrace(vp, true, i).flags&vpBlockArray != 0 {
		return s.fail(i, "", "Variable pointer must not point to an array of Block- or BufferBlock-decorated structs")
	}
	return false
}

// vpUntypedMatrixAccess reports whether ptr is an untyped variable
// pointer through which data of type t, containing a matrix, is loaded
// or stored.
func (s *state) vpUntypedMatrixAccess(vp *varPointers, ptr, t uint32) bool {
	pt := s.typeOf(s.typeOfValue(ptr))
	return pt != nil && pt.Op == spirv.OpTypeUntypedPointerKHR && s.isVPID(vp, ptr) && s.vpContainsMatrix(vp, t)
}

// vpContainsMatrix is ContainsType(t, is a matrix) without following
// pointers: through arrays, vectors, images, cooperative matrices and
// struct members. Memoized: every variable pointer asks.
func (s *state) vpContainsMatrix(vp *varPointers, t uint32) bool {
	if r, ok := vp.matrixIn[t]; ok {
		return r
	}
	if vp.matrixIn == nil {
		vp.matrixIn = map[uint32]bool{}
	}
	vp.matrixIn[t] = false // a type cannot contain itself but through a pointer
	r := false
	j, ok := s.x.Def(t)
	if ok {
		in := s.m.Inst(j)
		switch in.Opcode {
		case spirv.OpTypeMatrix:
			r = true
		case spirv.OpTypeArray, spirv.OpTypeRuntimeArray, spirv.OpTypeVector, spirv.OpTypeImage,
			spirv.OpTypeSampledImage, spirv.OpTypeCooperativeMatrixNV, spirv.OpTypeCooperativeMatrixKHR,
			spirv.OpTypeVectorIdEXT:
			r = len(in.Words) > 2 && s.vpContainsMatrix(vp, in.Words[2])
		case spirv.OpTypeStruct:
			for _, m := range in.Words[2:] {
				if s.vpContainsMatrix(vp, m) {
					r = true
					break
				}
			}
		}
	}
	vp.matrixIn[t] = r
	return r
}

// isBlockArray is IsBlockArray: an array or runtime array of a struct
// decorated Block or BufferBlock.
func (s *state) isBlockArray(t uint32) bool {
	ty := s.typeOf(t)
	if ty == nil || (ty.Kind != spirv.TypeArray && ty.Kind != spirv.TypeRuntimeArray) {
		return false
	}
	el := s.typeOf(ty.Elem)
	if el == nil || el.Kind != spirv.TypeStruct {
		return false
	}
	d := s.decorations()
	return d.has(el.ID, spirv.DecorationBlock) || d.has(el.ID, spirv.DecorationBufferBlock)
}

// vpTrace returns what the trace from instruction i reaches, computing
// it (and that of every instruction the trace visits) on first need.
func (s *state) vpTrace(vp *varPointers, unmodified bool, i int) vpReach {
	g := &vp.full
	if unmodified {
		g = &vp.unmod
	}
	if *g == nil {
		n := 2 * s.m.Len() // an instruction's trace node, then its forward node (vpSuccessors)
		*g = &vpGraph{unmodified: unmodified, reach: make([]vpReach, n), index: make([]int32, n), low: make([]int32, n)}
	}
	if (*g).index[i] != -1 {
		s.vpTarjan(vp, *g, i)
	}
	return (*g).reach[i]
}

// vpFrame is one instruction on vpTarjan's depth-first stack: its trace
// successors are vp.succ[start:end], next the one to visit.
type vpFrame struct {
	node, start, next, end int
}

// vpTarjan finds the strongly connected components of the trace graph
// reachable from root (a loop of OpPhi and OpCopyObject is one), giving
// every instruction of a component the union of what the component's own
// instructions and the components after it reach. Its stacks live in vp,
// reused from call to call.
func (s *state) vpTarjan(vp *varPointers, g *vpGraph, root int) {
	frames, comp := vp.frames[:0], vp.comp[:0]
	counter := int32(0)
	visit := func(v int) {
		counter++
		g.index[v], g.low[v] = counter, counter
		g.reach[v] = s.vpLocal(g, v)
		comp = append(comp, v)
		start := len(vp.succ)
		vp.succ = s.vpSuccessors(vp, g, v, vp.succ)
		vp.steps += 1 + len(vp.succ) - start
		frames = append(frames, vpFrame{node: v, start: start, next: start, end: len(vp.succ)})
	}
	visit(root)
	for len(frames) > 0 {
		f := &frames[len(frames)-1]
		v := f.node
		if f.next < f.end {
			w := vp.succ[f.next]
			f.next++
			switch {
			case g.index[w] == 0:
				visit(w)
			case g.index[w] > 0: // on the stack: the same component
				g.low[v] = min(g.low[v], g.index[w])
			default:
				g.reach[v].add(g.reach[w])
			}
			continue
		}
		vp.succ = vp.succ[:f.start]
		frames = frames[:len(frames)-1]
		if g.low[v] == g.index[v] {
			k := len(comp) - 1
			for comp[k] != v {
				k--
			}
			r := g.reach[v]
			for _, u := range comp[k:] {
				r.add(g.reach[u])
			}
			for _, u := range comp[k:] {
				g.reach[u], g.index[u] = r, -1
			}
			comp = comp[:k]
		}
		if len(frames) > 0 {
			p := frames[len(frames)-1].node
			if g.index[v] == -1 {
				g.reach[p].add(g.reach[v])
			} else {
				g.low[p] = min(g.low[p], g.low[v])
			}
		}
	}
	vp.frames, vp.comp, vp.succ = frames, comp, vp.succ[:0]
}

// vpLocal is what the trace checkers find at instruction i itself.
func (s *state) vpLocal(g *vpGraph, i int) vpReach {
	r := vpReach{src: [2]int32{-1, -1}}
	if i >= s.m.Len() {
		return r // a forward node: the checkers do not see it
	}
	in := s.m.Inst(i)
	w := in.Words
	isVar := (in.Opcode == spirv.OpVariable || in.Opcode == spirv.OpUntypedVariableKHR) && len(w) > 3
	if g.unmodified {
		switch {
		case in.Opcode == spirv.OpUntypedVariableKHR && len(w) > 4 && s.isBlockArray(w[4]):
			r.flags |= vpBlockArray
		case in.Opcode == spirv.OpVariable:
			if t := s.typeOf(in.TypeID); t != nil && t.Op == spirv.OpTypePointer && s.isBlockArray(t.Elem) {
				r.flags |= vpBlockArray
			}
		}
		return r
	}
	if isVar {
		if sc := spirv.StorageClass(w[3]); sc == spirv.StorageClassStorageBuffer || sc == spirv.StorageClassWorkgroup {
			r.src[0] = int32(i)
		}
	}
	if s.vpMatrixElement(&in, false) {
		r.flags |= vpTypedMatrix
	}
	if s.vpMatrixElement(&in, true) {
		r.flags |= vpUntypedMatrix
	}
	return r
}

// vpMatrixElement is CheckMatrixElementTyped (untyped false) or
// CheckMatrixElementUntyped: whether access chain in starts at a matrix
// or steps through one.
func (s *state) vpMatrixElement(in *spirv.Instruction, untyped bool) bool {
	w := in.Words
	var base uint32
	start := 4
	switch in.Opcode {
	case spirv.OpAccessChain, spirv.OpInBoundsAccessChain, spirv.OpPtrAccessChain:
		if in.Opcode == spirv.OpPtrAccessChain {
			start = 5
		}
		if len(w) < 4 {
			return false
		}
		pt := s.typeOf(s.typeOfValue(w[3]))
		if pt == nil || pt.Op != spirv.OpTypePointer {
			return false
		}
		base = pt.Elem
	case spirv.OpUntypedAccessChainKHR, spirv.OpUntypedInBoundsAccessChainKHR, spirv.OpUntypedPtrAccessChainKHR:
		if !untyped || len(w) < 5 {
			return false
		}
		base, start = w[3], 5
		if in.Opcode == spirv.OpUntypedPtrAccessChainKHR {
			start = 6
		}
	default:
		return false
	}
	t := s.typeOf(base)
	for k := start; t != nil; k++ {
		if t.Kind == spirv.TypeMatrix {
			return true
		}
		if k >= len(w) {
			return false
		}
		next := s.componentType(t.ID)
		if t.Kind == spirv.TypeStruct {
			v, _ := s.constUint(w[k])
			if v >= uint64(len(t.Members)) {
				return false
			}
			next = t.Members[v]
		}
		t = s.typeOf(next)
	}
	return false
}

// vpSuccessors appends to buf the nodes the trace goes to from node i.
// Node i < n is instruction i; node n+i is i's forward node, which
// spirv-val's walk from a Function or Private variable over the uses of
// everything made from it passes through: it goes to the object of a
// store through i, and to the forward nodes of i's other users.
func (s *state) vpSuccessors(vp *varPointers, g *vpGraph, i int, buf []int) []int {
	if n := s.m.Len(); i >= n {
		return s.vpForward(vp, i-n, buf)
	}
	in := s.m.Inst(i)
	w := in.Words
	add := func(id uint32) {
		if j, ok := s.x.Def(id); ok {
			buf = append(buf, j)
		}
	}
	switch in.Opcode {
	case spirv.OpAccessChain, spirv.OpInBoundsAccessChain, spirv.OpPtrAccessChain:
		if !g.unmodified && len(w) > 3 {
			add(w[3])
		}
	case spirv.OpUntypedAccessChainKHR, spirv.OpUntypedInBoundsAccessChainKHR, spirv.OpUntypedPtrAccessChainKHR:
		if !g.unmodified && len(w) > 4 {
			add(w[4])
		}
	case spirv.OpPhi:
		for k := 3; k < len(w); k += 2 {
			add(w[k])
		}
	case spirv.OpSelect:
		if len(w) > 5 {
			add(w[4])
			add(w[5])
		}
	case spirv.OpFunctionParameter:
		s.vpArguments(vp, in.ResultID, add)
	case spirv.OpFunctionCall:
		return s.vpReturns(vp, w, buf)
	case spirv.OpReturnValue, spirv.OpStore:
		if len(w) > 1 {
			add(w[1])
		}
	case spirv.OpCopyObject, spirv.OpLoad:
		if len(w) > 3 {
			add(w[3])
		}
	case spirv.OpVariable, spirv.OpUntypedVariableKHR:
		if len(w) < 4 {
			break
		}
		if sc := spirv.StorageClass(w[3]); sc == spirv.StorageClassFunction || sc == spirv.StorageClassPrivate {
			init := 4
			if in.Opcode == spirv.OpUntypedVariableKHR {
				init = 5
			}
			if len(w) > init {
				add(w[init])
			}
			buf = s.vpForward(vp, i, buf)
		}
	}
	return buf
}

// vpReturns appends to out the OpReturnValue instructions of the
// function a call (words w) calls.
func (s *state) vpReturns(vp *varPointers, w []uint32, out []int) []int {
	if len(w) < 4 {
		return out
	}
	j, ok := s.x.Def(w[3])
	if !ok {
		return out
	}
	s.vpCalls(vp)
	f, ok := vp.fnIdx[w[3]]
	if !ok || s.x.Functions[f].Start != j {
		return out
	}
	{
		fn := s.x.Functions[f]
		for _, b := range fn.Blocks {
			if b.End >= 0 && b.End < s.m.Len() && s.m.Opcode(b.End) == spirv.OpReturnValue {
				out = append(out, b.End)
			}
		}
	}
	return out
}

// vpForward appends to buf where spirv-val's walk over the uses of
// instruction i's result goes: the object of a store through it, the
// forward node of any other user. (spirv-val's walk marks each user seen
// once per variable, so a store met first as the object of another is
// not met again as a pointer; as a reachability this walk is linear, and
// differs only there.)
func (s *state) vpForward(vp *varPointers, i int, buf []int) []int {
	n := s.m.Len()
	for _, u := range s.vpUses(vp)[i] {
		if ui := s.m.Inst(int(u.inst)); ui.Opcode == spirv.OpStore && u.word == 1 {
			if len(ui.Words) > 2 {
				if j, ok := s.x.Def(ui.Words[2]); ok {
					buf = append(buf, j)
				}
			}
			continue
		}
		buf = append(buf, n+int(u.inst))
	}
	return buf
}

// vpUses returns, by defining instruction, the uses of its result in
// module order (spirv-val's uses()), building them on first need.
func (s *state) vpUses(vp *varPointers) [][]vpUse {
	if vp.uses != nil {
		return vp.uses
	}
	vp.uses = make([][]vpUse, s.m.Len())
	for i := 0; i < s.m.Len(); i++ {
		in := s.m.Inst(i)
		for _, o := range in.Operands {
			switch o.Kind {
			case spirv.OperandKindIdRef, spirv.OperandKindIdResultType, spirv.OperandKindIdScope, spirv.OperandKindIdMemorySemantics:
			default:
				continue
			}
			if j, ok := s.x.Def(in.Words[o.Offset]); ok {
				vp.uses[j] = append(vp.uses[j], vpUse{inst: int32(i), word: int32(o.Offset)})
			}
		}
	}
	return vp.uses
}
