package spirv

import "strings"

// Index is a read-only summary of a module, built once on demand by
// (*Module).Index and shared by every consumer. It describes the module as
// written: an invalid module gets a best-effort index (dangling ids are
// simply absent), never a panic.
type Index struct {
	// defs gives, by id, 1 + the index of the id's first defining
	// instruction (0: none); ids past its end, possible when the bound is
	// far larger than the module, are in bigDefs. See Def.
	defs    []int32
	bigDefs map[uint32]int32
	// valueTypes gives, by id, the Result Type of the id's first defining
	// instruction (0: none), for ids in defs's range; the rest are in
	// bigTypes. See ValueType.
	valueTypes []uint32
	bigTypes   map[uint32]uint32

	// Types describes every type declaration by result id.
	Types map[uint32]*Type
	// Constants describes every constant (and spec constant) by result id.
	Constants map[uint32]*Constant
	// Names and MemberNames come from OpName and OpMemberName.
	Names       map[uint32]string
	MemberNames map[uint32]map[uint32]string
	// Decorations lists OpDecorate/OpDecorateId/OpDecorateString and
	// OpMemberDecorate(String) by target id, in module order.
	Decorations map[uint32][]DecorationEntry
	// ExtInstImports maps an OpExtInstImport result id to its set name.
	ExtInstImports map[uint32]string

	// MaxTypeDepth is the largest Type.Depth of the module, and
	// TypeCycle a type that refers back to itself other than through a
	// forward pointer's pointee (0: none; only an invalid module has one).
	// Consumers whose type walkers recurse check them first.
	MaxTypeDepth uint32
	TypeCycle    uint32

	Capabilities    []Capability
	Extensions      []string
	AddressingModel AddressingModel
	MemoryModel     MemoryModel
	EntryPoints     []EntryPoint
	Functions       []Function
}

// TypeKind classifies a type declaration.
type TypeKind uint8

// Type kinds; TypeOther covers every other OpType* instruction.
const (
	TypeOther TypeKind = iota
	TypeVoid
	TypeBool
	TypeInt
	TypeFloat
	TypeVector
	TypeMatrix
	TypeArray
	TypeRuntimeArray
	TypeStruct
	TypePointer
	TypeFunction
	TypeImage
	TypeSampler
	TypeSampledImage
	TypeCooperativeMatrix
)

// Type describes one type declaration.
type Type struct {
	ID     uint32
	Op     Opcode
	Kind   TypeKind
	Width  uint32 // bits, for TypeInt and TypeFloat
	Signed bool   // TypeInt signedness
	// HasEncoding and Encoding: OpTypeFloat's FP Encoding operand.
	HasEncoding bool
	Encoding    FPEncoding
	// Count is the component count of a vector, the column count of a
	// matrix, the length of an array when it is a known constant (0 if not).
	Count   uint32
	Elem    uint32       // component, column, element, or pointee type
	Storage StorageClass // for TypePointer
	Members []uint32     // struct member types, or function parameter types
	Return  uint32       // function return type
	// Depth is 1 + the largest Depth of the types this one names (element,
	// member, pointee, parameter, ...): the length of the longest chain of
	// types a walker can follow from here. A forward pointer's pointee is
	// not counted: walkers stop at forward pointers (see typeDepths).
	Depth uint32
}

// MaxTypeDepth is the type nesting depth (Type.Depth) that spvx's
// consumers accept: far beyond any real module (spirv-val's default
// --max-struct-depth is 255), and small enough that every recursive walk
// over types stays a few hundred kilobytes of stack.
const MaxTypeDepth = 1024

// Constant describes one constant instruction.
type Constant struct {
	ID, Type uint32
	Op       Opcode
	Spec     bool
	// Value holds the literal words of OpConstant/OpSpecConstant, and
	// 1 or 0 for the boolean constants.
	Value []uint32
	// Parts holds the constituents of a composite constant.
	Parts []uint32
}

// DecorationEntry is one decoration applied to an id or a struct member.
type DecorationEntry struct {
	Inst   int // index of the decorating instruction
	Member int // struct member, -1 for the whole id
	Kind   Decoration
	Params []uint32 // the decoration's literal or id operands
}

// EntryPoint is an OpEntryPoint with its execution modes: every
// OpExecutionMode(Id) of the module that names its function, in module
// order, wherever the modes are written. Entry points of the same
// function share one Modes slice.
type EntryPoint struct {
	Inst      int
	Model     ExecutionModel
	Function  uint32
	Name      string
	Interface []uint32
	Modes     []ExecutionModeEntry
}

// ExecutionModeEntry is one OpExecutionMode(Id) applied to an entry point.
type ExecutionModeEntry struct {
	Inst   int
	Mode   ExecutionMode
	Params []uint32
}

// LocalSize returns the LocalSize execution mode's x, y, z, if present.
func (e *EntryPoint) LocalSize() ([3]uint32, bool) {
	for _, m := range e.Modes {
		if m.Mode == ExecutionModeLocalSize && len(m.Params) == 3 {
			return [3]uint32{m.Params[0], m.Params[1], m.Params[2]}, true
		}
	}
	return [3]uint32{}, false
}

// Function is an OpFunction ... OpFunctionEnd range.
type Function struct {
	ID, Type, Result uint32
	Start, End       int // instruction indexes of OpFunction and OpFunctionEnd
	Params           []uint32
	Blocks           []Block
}

// Block is a basic block: from its OpLabel to its terminator, inclusive.
type Block struct {
	Label      uint32
	Start, End int // instruction indexes
}

// Def returns the index (for Module.Inst) of the instruction that defines
// id as its Result <id>, the first one if several do.
func (x *Index) Def(id uint32) (inst int, ok bool) {
	var v int32
	if int(id) < len(x.defs) {
		v = x.defs[id]
	} else {
		v = x.bigDefs[id]
	}
	return int(v) - 1, v != 0
}

// ValueType returns the Result Type of the instruction that defines id
// (the first one if several do): Module.Inst(Def(id)).TypeID, without
// touching the instruction, which validators ask for every operand. It is
// 0 when id is not defined or its definition has no result type.
func (x *Index) ValueType(id uint32) uint32 {
	if int(id) < len(x.valueTypes) {
		return x.valueTypes[id]
	}
	return x.bigTypes[id]
}

func (x *Index) setDef(id uint32, inst int, typ uint32) {
	if int(id) < len(x.defs) {
		if x.defs[id] == 0 {
			x.defs[id], x.valueTypes[id] = int32(inst+1), typ
		}
		return
	}
	if x.bigDefs == nil {
		x.bigDefs, x.bigTypes = map[uint32]int32{}, map[uint32]uint32{}
	}
	if _, dup := x.bigDefs[id]; !dup {
		x.bigDefs[id] = int32(inst + 1)
		if typ != 0 {
			x.bigTypes[id] = typ
		}
	}
}

// Index returns the module's index, building it on first use. The module
// must not be modified after the first call. Index is safe for concurrent
// use, the first call included: goroutines that share a module (a
// validator, an executor) may all call it, and the index is built once.
// DecodeInto drops the index with the module it replaces; it must not run
// concurrently with anything else on the module.
func (m *Module) Index() *Index {
	// A mutex rather than a sync.Once: DecodeInto resets m.index to nil
	// to have it built again, which a spent Once could not do. Taking an
	// uncontended mutex costs tens of nanoseconds; callers keep the result.
	m.indexMu.Lock()
	defer m.indexMu.Unlock()
	if m.index == nil {
		m.index = buildIndex(m)
	}
	return m.index
}

func buildIndex(m *Module) *Index {
	// Like the decoder's id table, the dense part is bounded by the
	// module's size, whatever the header's bound says.
	ndefs := min(uint64(m.Header.Bound), uint64(len(m.words))+64)
	n := countIndexed(m)
	x := &Index{
		defs:           make([]int32, ndefs),
		valueTypes:     make([]uint32, ndefs),
		Types:          make(map[uint32]*Type, n.types),
		Constants:      make(map[uint32]*Constant, n.constants),
		Names:          make(map[uint32]string, n.names),
		MemberNames:    map[uint32]map[uint32]string{},
		Decorations:    make(map[uint32][]DecorationEntry, n.decorated),
		ExtInstImports: map[uint32]string{},
	}
	if n.functions > 0 {
		x.Functions = make([]Function, 0, n.functions)
	}
	constants := make([]Constant, n.constants) // one allocation for all
	x.decorationWindows(m, n.decorated)
	var names nameArena
	names.b.Grow(n.nameBytes)
	var fn *Function
	var block *Block
	// Execution modes by the function they name, attached to the entry
	// points once all are known: one map access per OpExecutionMode, not a
	// scan of every entry point (40k entry points and 40k modes took 12 s).
	var modes map[uint32][]ExecutionModeEntry
	var fwd map[uint32]bool // pointers declared by OpTypeForwardPointer
	var typeInsts []int32   // the type declarations, in module order
	for i := range m.insts {
		inst := m.Inst(i)
		in := &inst
		w := in.Words
		if in.ResultID != 0 {
			x.setDef(in.ResultID, i, in.TypeID)
		}
		switch in.Opcode {
		case OpCapability:
			x.Capabilities = append(x.Capabilities, Capability(w[1]))
		case OpExtension:
			x.Extensions = append(x.Extensions, in.String(0))
		case OpExtInstImport:
			x.ExtInstImports[in.ResultID] = in.String(1)
		case OpMemoryModel:
			x.AddressingModel, x.MemoryModel = AddressingModel(w[1]), MemoryModel(w[2])
		case OpEntryPoint:
			x.EntryPoints = append(x.EntryPoints, EntryPoint{
				Inst: i, Model: ExecutionModel(w[1]), Function: w[2], Name: in.String(2),
				Interface: operandWordsFrom(in, 3),
			})
		case OpExecutionMode, OpExecutionModeId:
			if modes == nil {
				modes = map[uint32][]ExecutionModeEntry{}
			}
			modes[w[1]] = append(modes[w[1]], ExecutionModeEntry{Inst: i, Mode: ExecutionMode(w[2]), Params: w[3:]})
		case OpName:
			x.Names[w[1]] = names.name(in.OperandWords(1))
		case OpMemberName:
			mm := x.MemberNames[w[1]]
			if mm == nil {
				mm = map[uint32]string{}
				x.MemberNames[w[1]] = mm
			}
			mm[w[2]] = names.name(in.OperandWords(2))
		case OpDecorate, OpDecorateId, OpDecorateString:
			x.Decorations[w[1]] = append(x.Decorations[w[1]], DecorationEntry{Inst: i, Member: -1, Kind: Decoration(w[2]), Params: w[3:]})
		case OpMemberDecorate, OpMemberDecorateString:
			x.Decorations[w[1]] = append(x.Decorations[w[1]], DecorationEntry{Inst: i, Member: int(w[2]), Kind: Decoration(w[3]), Params: w[4:]})
		case OpTypeForwardPointer:
			if fwd == nil {
				fwd = map[uint32]bool{}
			}
			fwd[w[1]] = true
		case OpFunction:
			x.Functions = append(x.Functions, Function{ID: in.ResultID, Result: in.TypeID, Type: w[4], Start: i, End: -1})
			fn = &x.Functions[len(x.Functions)-1]
			block = nil
		case OpFunctionParameter:
			if fn != nil {
				fn.Params = append(fn.Params, in.ResultID)
			}
		case OpLabel:
			if fn != nil {
				fn.Blocks = append(fn.Blocks, Block{Label: in.ResultID, Start: i, End: -1})
				block = &fn.Blocks[len(fn.Blocks)-1]
			}
		case OpFunctionEnd:
			if fn != nil {
				fn.End = i
			}
			fn, block = nil, nil
		}
		if block != nil && isBlockTerminator(in.Opcode) {
			block.End = i
			block = nil
		}
		if t := typeOf(in, x); t != nil {
			x.Types[t.ID] = t
			typeInsts = append(typeInsts, int32(i))
		}
		if isIndexedConstant(in.Opcode) {
			c := &constants[0]
			constants = constants[1:]
			constantOf(in, c)
			x.Constants[c.ID] = c
		}
	}
	// Entry points of one function share one list of modes (the index is
	// read-only), so that many entry points of one function with many
	// modes stay linear too.
	for k := range x.EntryPoints {
		x.EntryPoints[k].Modes = modes[x.EntryPoints[k].Function]
	}
	// Array lengths are constants, which may be declared after nothing
	// else: resolve them once everything is known.
	for _, t := range x.Types {
		if t.Kind == TypeArray {
			if c := x.Constants[t.Count]; c != nil && len(c.Value) > 0 && !c.Spec {
				t.Count = c.Value[0]
			} else {
				t.Count = 0
			}
		}
	}
	x.typeDepths(m, typeInsts, fwd)
	return x
}

func operandWordsFrom(in *Instruction, first int) []uint32 {
	if first >= len(in.Operands) {
		return nil
	}
	return in.Words[in.Operands[first].Offset:]
}

func isBlockTerminator(op Opcode) bool {
	switch op {
	case OpBranch, OpBranchConditional, OpSwitch, OpReturn, OpReturnValue, OpKill,
		OpUnreachable, OpTerminateInvocation, OpIgnoreIntersectionKHR, OpTerminateRayKHR,
		OpEmitMeshTasksEXT, OpAbortKHR:
		return true
	}
	return false
}

// typeOf describes in if it declares a type. Word counts were checked by
// the decoder against the grammar, so fixed operands are present.
func typeOf(in *Instruction, x *Index) *Type {
	w := in.Words
	info := in.Opcode.Info()
	if info == nil || info.Class != "Type-Declaration" || in.ResultID == 0 {
		return nil
	}
	t := &Type{ID: in.ResultID, Op: in.Opcode}
	switch in.Opcode {
	case OpTypeVoid:
		t.Kind = TypeVoid
	case OpTypeBool:
		t.Kind = TypeBool
	case OpTypeInt:
		t.Kind, t.Width, t.Signed = TypeInt, w[2], w[3] != 0
	case OpTypeFloat:
		t.Kind, t.Width = TypeFloat, w[2]
		if len(w) > 3 {
			t.HasEncoding, t.Encoding = true, FPEncoding(w[3])
		}
	case OpTypeVector:
		t.Kind, t.Elem, t.Count = TypeVector, w[2], w[3]
	case OpTypeMatrix:
		t.Kind, t.Elem, t.Count = TypeMatrix, w[2], w[3]
	case OpTypeArray:
		t.Kind, t.Elem, t.Count = TypeArray, w[2], w[3] // Count holds the length id until resolved
	case OpTypeRuntimeArray:
		t.Kind, t.Elem = TypeRuntimeArray, w[2]
	case OpTypeStruct:
		t.Kind, t.Members = TypeStruct, w[2:]
	case OpTypePointer:
		t.Kind, t.Storage, t.Elem = TypePointer, StorageClass(w[2]), w[3]
	case OpTypeFunction:
		t.Kind, t.Return, t.Members = TypeFunction, w[2], w[3:]
	case OpTypeImage:
		t.Kind, t.Elem = TypeImage, w[2]
	case OpTypeSampler:
		t.Kind = TypeSampler
	case OpTypeSampledImage:
		t.Kind, t.Elem = TypeSampledImage, w[2]
	case OpTypeCooperativeMatrixKHR:
		t.Kind, t.Elem = TypeCooperativeMatrix, w[2]
	default:
		t.Kind = TypeOther
	}
	return t
}

func constantOf(in *Instruction, c *Constant) {
	*c = Constant{ID: in.ResultID, Type: in.TypeID, Op: in.Opcode}
	w := in.Words
	switch in.Opcode {
	case OpConstantTrue, OpSpecConstantTrue:
		c.Value = []uint32{1}
	case OpConstantFalse, OpSpecConstantFalse:
		c.Value = []uint32{0}
	case OpConstant, OpSpecConstant:
		c.Value = w[3:]
	case OpConstantComposite, OpSpecConstantComposite:
		c.Parts = w[3:]
	}
	switch in.Opcode {
	case OpSpecConstantTrue, OpSpecConstantFalse, OpSpecConstant, OpSpecConstantComposite, OpSpecConstantOp:
		c.Spec = true
	}
}

// isIndexedConstant reports whether the index describes constants of
// opcode op (constantOf).
func isIndexedConstant(op Opcode) bool {
	switch op {
	case OpConstantTrue, OpSpecConstantTrue, OpConstantFalse, OpSpecConstantFalse, OpConstant, OpSpecConstant,
		OpConstantComposite, OpSpecConstantComposite, OpConstantNull, OpSpecConstantOp:
		return true
	}
	return false
}

// nameArena makes the module's OpName and OpMemberName strings in one
// buffer, made at its size first (one allocation where each name took
// two: a module names most of its ids). Each name is a view of the bytes
// written so far, which a strings.Builder never changes; a name kept
// alone keeps the buffer, the size of all the names, alive.
type nameArena struct{ b strings.Builder }

// name returns the string packed in words (AppendString's reading).
func (a *nameArena) name(words []uint32) string {
	start := a.b.Len()
	for _, w := range words {
		for k := 0; k < 4; k++ {
			c := byte(w >> (8 * k))
			if c == 0 {
				return a.b.String()[start:]
			}
			a.b.WriteByte(c)
		}
	}
	return a.b.String()[start:]
}

// decorationWindows gives each decorated id below len(x.defs) its
// decoration list as an empty window, with room for exactly its
// decorations, of one allocation of total entries, so that buildIndex's
// appends fill the lists without growing them (one allocation where each
// list took one to a few). x.defs, not filled yet, serves as the count
// table and is left zero.
func (x *Index) decorationWindows(m *Module, total int) {
	if total == 0 {
		return
	}
	count := x.defs
	for i := range m.insts {
		if t, ok := decorationTarget(m, i); ok && int(t) < len(count) {
			count[t]++
		}
	}
	slab := make([]DecorationEntry, total)
	off := 0
	for id, c := range count {
		if c > 0 {
			x.Decorations[uint32(id)] = slab[off : off : off+int(c)]
			off += int(c)
			count[id] = 0
		}
	}
}

// decorationTarget returns the id instruction i decorates if it is one
// of the decorations the index lists.
func decorationTarget(m *Module, i int) (uint32, bool) {
	r := &m.insts[i]
	switch r.opcode {
	case OpDecorate, OpDecorateId, OpDecorateString, OpMemberDecorate, OpMemberDecorateString:
		if r.nwords > 1 {
			return m.words[int(r.offset)+1], true
		}
	}
	return 0, false
}

// indexSizes are the numbers of things buildIndex stores, counted from
// the opcodes alone first so that its maps and lists are made at their
// size once, not grown and copied as they fill (a large module's index
// allocated twice its size that way).
type indexSizes struct {
	types, constants, names, decorated, functions int
	nameBytes                                     int // at most, of the OpName and OpMemberName strings
}

// countIndexed counts m's opcodes for buildIndex. decorated counts
// decorations, more than the decorated ids; types counts the type
// declarations' opcodes, whatever their words.
func countIndexed(m *Module) indexSizes {
	var n indexSizes
	for i := range m.insts {
		op := m.insts[i].opcode
		switch op {
		case OpName:
			n.names++
			n.nameBytes += 4 * max(int(m.insts[i].nwords)-2, 0)
		case OpMemberName:
			n.nameBytes += 4 * max(int(m.insts[i].nwords)-3, 0)
		case OpDecorate, OpDecorateId, OpDecorateString, OpMemberDecorate, OpMemberDecorateString:
			n.decorated++
		case OpFunction:
			n.functions++
		}
		if isIndexedConstant(op) {
			n.constants++
		} else if DeclaresType(op) {
			n.types++
		}
	}
	return n
}

// depthFrame is one type on typeDepths' explicit stack: the type, the
// index of its declaring instruction, and the next id word of it to
// visit. It is kept small: a chain of forward references puts every
// type of the chain on the stack at once.
type depthFrame struct {
	t        *Type
	inst     int32
	op, word uint16 // operand index, word within the operand (a word count is 16 bits)
	kids     uint32 // the largest Depth of the types visited so far
}

// typeDepths sets every type's Depth, MaxTypeDepth and TypeCycle. It
// walks the type graph once, depth first with an explicit stack (a chain
// of millions of types must not exhaust the goroutine stack), in module
// order. The edges are every IdRef operand of a type declaration that
// names a type, except a forward pointer's pointee: walkers stop there,
// and it is how a valid module makes a recursive type. Any other edge
// back to a type still on the stack is a cycle: it counts 0, and
// TypeCycle records it.
func (x *Index) typeDepths(m *Module, typeInsts []int32, fwd map[uint32]bool) {
	const onStack = ^uint32(0)
	var stack []depthFrame
	push := func(t *Type) {
		j, _ := x.Def(t.ID)
		t.Depth = onStack
		stack = append(stack, depthFrame{t: t, inst: int32(j)})
	}
	for _, i32 := range typeInsts {
		i := int(i32)
		in := m.Inst(i)
		root := x.Types[in.ResultID]
		if root == nil || root.Depth != 0 {
			continue
		}
		if j, _ := x.Def(in.ResultID); j != i {
			continue // a duplicate definition; the first one is the type
		}
		push(root)
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			kid, ok := f.next(m, fwd)
			if !ok {
				f.t.Depth = f.kids + 1
				x.MaxTypeDepth = max(x.MaxTypeDepth, f.t.Depth)
				stack = stack[:len(stack)-1]
				if n := len(stack); n > 0 {
					stack[n-1].kids = max(stack[n-1].kids, f.t.Depth)
				}
				continue
			}
			switch k := x.Types[kid]; {
			case k == nil:
			case k.Depth == onStack:
				if x.TypeCycle == 0 {
					x.TypeCycle = kid
				}
			case k.Depth == 0:
				push(k)
			default:
				f.kids = max(f.kids, k.Depth)
			}
		}
	}
}

// next returns the frame's next id operand word, skipping a forward
// pointer's pointee.
func (f *depthFrame) next(m *Module, fwd map[uint32]bool) (uint32, bool) {
	in := m.Inst(int(f.inst))
	for int(f.op) < len(in.Operands) {
		o := in.Operands[f.op]
		if o.Kind != OperandKindIdRef || f.word >= o.Count || isFwdPointee(&in, int(f.op), fwd) {
			f.op, f.word = f.op+1, 0
			continue
		}
		id := in.Words[int(o.Offset)+int(f.word)]
		f.word++
		return id, true
	}
	return 0, false
}

// isFwdPointee reports whether operand op of in is the pointee of a
// pointer declared by OpTypeForwardPointer.
func isFwdPointee(in *Instruction, op int, fwd map[uint32]bool) bool {
	return in.Opcode == OpTypePointer && op == 2 && fwd[in.ResultID]
}
