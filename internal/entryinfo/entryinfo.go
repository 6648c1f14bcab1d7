// Package entryinfo describes what a compute entry point asks of its
// caller: a Kernel's parameters (index, OpName, type, address space) and a
// GLCompute shader's descriptor bindings (set, binding, descriptor type,
// size, storage class). It reads the module as written, without compiling
// it, so spvx info can describe a module the executor would refuse.
package entryinfo

import (
	"cmp"
	"fmt"
	"slices"

	"spvx/spirv"
)

// Entry describes one Kernel or GLCompute entry point.
type Entry struct {
	Model    spirv.ExecutionModel
	Name     string
	Params   []Param   // Kernel: the entry function's parameters, in order
	Bindings []Binding // GLCompute: the descriptors it uses, by (Set, Binding)
	Push     *Push     // GLCompute: the push-constant block it uses, if any
}

// Push is the push-constant block an entry point uses.
type Push struct {
	ID   uint32
	Name string // the variable's OpName, else its type's; "" if none
	Size Size   // explicit layout
}

// Param is one parameter of a Kernel entry point.
type Param struct {
	Index int
	ID    uint32
	Name  string // from OpName; "" if none
	Type  string // the parameter's type, e.g. "*f32" or "u32x4"
	// Pointer is true for a pointer parameter, whose address space is
	// Storage; ByVal marks a pointer the caller passes a copy through
	// (FuncParamAttr ByVal, or a Function pointer).
	Pointer bool
	ByVal   bool
	Storage spirv.StorageClass
	// Size is the bytes the caller provides for a by-value parameter or a
	// ByVal pointee (OpenCL C's layout); 0 for other pointers.
	Size Size
}

// Binding is one descriptor an entry point uses.
type Binding struct {
	Set, Binding uint32
	ID           uint32
	Name         string // the variable's OpName, else its type's; "" if none
	Descriptor   string // Vulkan's descriptor type, e.g. "storage buffer"
	Storage      spirv.StorageClass
	// Count is the descriptor array's length: 1 for a single descriptor,
	// 0 for a runtime array.
	Count int
	// Size is one buffer's bytes (explicit layout); zero for images and
	// samplers.
	Size Size
}

// Size is a byte size: Bytes, plus PerElement bytes for each element of a
// trailing runtime array (0 if there is none).
type Size struct{ Bytes, PerElement uint64 }

// String spells the size as "16 bytes", "4 bytes per element" or
// "16 bytes + 4 per element".
func (s Size) String() string {
	switch {
	case s.PerElement == 0:
		return fmt.Sprintf("%d bytes", s.Bytes)
	case s.Bytes == 0:
		return fmt.Sprintf("%d bytes per element", s.PerElement)
	}
	return fmt.Sprintf("%d bytes + %d per element", s.Bytes, s.PerElement)
}

// Describe describes the module's entry points, one Entry each in the
// order of Index().EntryPoints; only Kernel and GLCompute ones get
// parameters or bindings (a graphics stage's inputs are not its caller's
// arguments). It
// refuses a module whose types nest deeper than spirv.MaxTypeDepth or
// refer to themselves, since it walks types.
func Describe(m *spirv.Module) ([]Entry, error) {
	x := m.Index()
	if x.TypeCycle != 0 {
		return nil, fmt.Errorf("type %%%d refers to itself", x.TypeCycle)
	}
	if x.MaxTypeDepth > spirv.MaxTypeDepth {
		return nil, fmt.Errorf("types nest %d deep, more than %d", x.MaxTypeDepth, spirv.MaxTypeDepth)
	}
	d := newDescriber(m)
	var out []Entry
	for i := range x.EntryPoints {
		ep := &x.EntryPoints[i]
		e := Entry{Model: ep.Model, Name: ep.Name}
		switch ep.Model {
		case spirv.ExecutionModelKernel:
			e.Params = d.params(ep.Function)
		case spirv.ExecutionModelGLCompute:
			e.Bindings, e.Push = d.bindings(ep)
		}
		out = append(out, e)
	}
	return out, nil
}

// describer holds what Describe computes once per module.
type describer struct {
	m     *spirv.Module
	x     *spirv.Index
	funcs map[uint32]int // function id → index in x.Functions
	// sizes caches each type's layout, so that a type named many times
	// is laid out once and the walk stays linear in the module.
	sizes    map[layoutKey]layout
	ptrBytes uint64
	refs     map[uint32]*funcRefs  // by function id, built on first use
	groups   map[uint32][]groupUse // decoration groups by target id
	steps    int                   // instructions and functions visited, for the complexity test
}

type layoutKey struct {
	id     uint32
	kernel bool
}

func newDescriber(m *spirv.Module) *describer {
	x := m.Index()
	d := &describer{m: m, x: x, funcs: map[uint32]int{}, sizes: map[layoutKey]layout{}, ptrBytes: 8}
	if x.AddressingModel == spirv.AddressingModelPhysical32 {
		d.ptrBytes = 4
	}
	for i, f := range x.Functions {
		if _, dup := d.funcs[f.ID]; !dup {
			d.funcs[f.ID] = i
		}
	}
	d.indexGroups()
	return d
}

// name is id's OpName, or "".
func (d *describer) name(id uint32) string { return d.x.Names[id] }

// decoration returns id's first whole-id decoration of kind k.
func (d *describer) decoration(id uint32, k spirv.Decoration) (spirv.DecorationEntry, bool) {
	for e := range d.decorations(id) {
		if e.Member < 0 && e.Kind == k {
			return e, true
		}
	}
	return spirv.DecorationEntry{}, false
}

// params describes the Kernel function fn's parameters.
func (d *describer) params(fn uint32) []Param {
	fi, ok := d.funcs[fn]
	if !ok {
		return nil
	}
	var out []Param
	for i, id := range d.x.Functions[fi].Params {
		p := Param{Index: i, ID: id, Name: d.name(id)}
		t := d.resultType(id)
		p.Type = d.typeText(t)
		if pt := d.x.Types[t]; pt != nil && pt.Kind == spirv.TypePointer {
			p.Pointer, p.Storage = true, pt.Storage
			p.ByVal = pt.Storage == spirv.StorageClassFunction || d.byVal(id)
			if p.ByVal {
				p.Size = d.layout(pt.Elem, true).size()
			}
		} else {
			p.Size = d.layout(t, true).size()
		}
		out = append(out, p)
	}
	return out
}

// byVal reports a FuncParamAttr ByVal decoration on the parameter id.
func (d *describer) byVal(id uint32) bool {
	for e := range d.decorations(id) {
		if e.Kind == spirv.DecorationFuncParamAttr && len(e.Params) > 0 &&
			spirv.FunctionParameterAttribute(e.Params[0]) == spirv.FunctionParameterAttributeByVal {
			return true
		}
	}
	return false
}

// resultType is the result type of id's defining instruction, or 0.
func (d *describer) resultType(id uint32) uint32 {
	if i, ok := d.x.Def(id); ok {
		return d.m.Inst(i).TypeID
	}
	return 0
}

// bindings describes the descriptors entry point ep uses (the variables
// with a Binding decoration that its interface lists or that the
// functions it calls refer to: before SPIR-V 1.4 the interface lists only
// Input and Output variables), and its push-constant block.
func (d *describer) bindings(ep *spirv.EntryPoint) ([]Binding, *Push) {
	used := d.usedVars(ep.Function)
	for _, id := range ep.Interface {
		used[id] = true // (binding and push below skip the Input/Output ones)
	}
	var out []Binding
	var push *Push
	for id := range used {
		if b, ok := d.binding(id); ok {
			out = append(out, b)
		} else if p, ok := d.push(id); ok && (push == nil || id < push.ID) {
			push = p // (a valid module has at most one; the lowest id is stable)
		}
	}
	slices.SortFunc(out, func(a, b Binding) int {
		return cmp.Or(cmp.Compare(a.Set, b.Set), cmp.Compare(a.Binding, b.Binding), cmp.Compare(a.ID, b.ID))
	})
	return out, push
}

// push describes the variable id if it is a PushConstant block.
func (d *describer) push(id uint32) (*Push, bool) {
	i, ok := d.x.Def(id)
	if !ok || d.m.Inst(i).Opcode != spirv.OpVariable {
		return nil, false
	}
	pt := d.x.Types[d.resultType(id)]
	if pt == nil || pt.Kind != spirv.TypePointer || pt.Storage != spirv.StorageClassPushConstant {
		return nil, false
	}
	p := &Push{ID: id, Name: d.name(id), Size: d.layout(pt.Elem, false).size()}
	if p.Name == "" {
		p.Name = d.name(pt.Elem)
	}
	return p, true
}
