package entryinfo

import (
	"fmt"
	"strings"

	"spvx/spirv"
)

// funcRefs is what one function refers to: the resource variables
// (descriptors and push constants) and the functions it names.
type funcRefs struct {
	vars, callees []uint32
}

// scanFunctions reads every function once, recording its funcRefs, so
// that each entry point then walks only its call graph, however many
// entry points share the same functions.
func (d *describer) scanFunctions() {
	if d.refs != nil {
		return
	}
	d.refs = map[uint32]*funcRefs{}
	for fi := range d.x.Functions {
		f := &d.x.Functions[fi]
		if _, dup := d.refs[f.ID]; dup {
			continue
		}
		r := &funcRefs{}
		d.refs[f.ID] = r
		seen := map[uint32]bool{}
		for i := f.Start; i <= f.End && i < d.m.Len(); i++ {
			in := d.m.Inst(i)
			d.steps++
			for k, op := range in.Operands {
				if op.Kind != spirv.OperandKindIdRef || op.Count != 1 || seen[in.Word(k)] {
					continue
				}
				id := in.Word(k)
				seen[id] = true
				if _, isFn := d.funcs[id]; isFn {
					r.callees = append(r.callees, id)
				} else if d.isResource(id) {
					r.vars = append(r.vars, id)
				}
			}
		}
	}
}

// isResource reports whether id is an OpVariable that may be a descriptor
// or a push-constant block.
func (d *describer) isResource(id uint32) bool {
	i, ok := d.x.Def(id)
	if !ok || d.m.Inst(i).Opcode != spirv.OpVariable {
		return false
	}
	if _, ok := d.decoration(id, spirv.DecorationBinding); ok {
		return true
	}
	pt := d.x.Types[d.resultType(id)]
	return pt != nil && pt.Kind == spirv.TypePointer && pt.Storage == spirv.StorageClassPushConstant
}

// usedVars returns the resource variables that fn and the functions it
// calls refer to, each function visited once.
func (d *describer) usedVars(fn uint32) map[uint32]bool {
	d.scanFunctions()
	used := map[uint32]bool{}
	seen := map[uint32]bool{fn: true}
	work := []uint32{fn}
	for len(work) > 0 {
		r := d.refs[work[len(work)-1]]
		work = work[:len(work)-1]
		d.steps++
		if r == nil {
			continue
		}
		for _, v := range r.vars {
			used[v] = true
		}
		for _, c := range r.callees {
			if !seen[c] {
				seen[c] = true
				work = append(work, c)
			}
		}
	}
	return used
}

// binding describes the variable id if it is a descriptor: an OpVariable
// with a Binding decoration (and a DescriptorSet one, which Vulkan
// requires; without it set 0 is shown, as spvx run binds it).
func (d *describer) binding(id uint32) (Binding, bool) {
	i, ok := d.x.Def(id)
	if !ok || d.m.Inst(i).Opcode != spirv.OpVariable {
		return Binding{}, false
	}
	bnd, ok := d.decoration(id, spirv.DecorationBinding)
	if !ok || len(bnd.Params) == 0 {
		return Binding{}, false
	}
	b := Binding{Binding: bnd.Params[0], ID: id, Name: d.name(id), Count: 1}
	if set, ok := d.decoration(id, spirv.DecorationDescriptorSet); ok && len(set.Params) > 0 {
		b.Set = set.Params[0]
	}
	pt := d.x.Types[d.resultType(id)]
	if pt == nil || pt.Kind != spirv.TypePointer {
		b.Descriptor = "unknown"
		return b, true
	}
	b.Storage = pt.Storage
	elem := pt.Elem
	if t := d.x.Types[elem]; t != nil && (t.Kind == spirv.TypeArray || t.Kind == spirv.TypeRuntimeArray) {
		b.Count, elem = int(t.Count), t.Elem // Count 0: runtime (or unknown) length
	}
	if b.Name == "" {
		b.Name = d.name(elem)
	}
	b.Descriptor = d.descriptor(pt.Storage, elem)
	if pt.Storage == spirv.StorageClassStorageBuffer || pt.Storage == spirv.StorageClassUniform {
		b.Size = d.layout(elem, false).size()
	}
	return b, true
}

// descriptor names the Vulkan descriptor type of a resource of type t in
// storage class sc.
func (d *describer) descriptor(sc spirv.StorageClass, t uint32) string {
	switch sc {
	case spirv.StorageClassStorageBuffer:
		return "storage buffer"
	case spirv.StorageClassUniform:
		if _, ok := d.decoration(t, spirv.DecorationBufferBlock); ok {
			return "storage buffer"
		}
		return "uniform buffer"
	}
	ty := d.x.Types[t]
	if ty == nil {
		return "unknown"
	}
	switch ty.Op {
	case spirv.OpTypeSampler:
		return "sampler"
	case spirv.OpTypeSampledImage:
		return "combined image sampler"
	case spirv.OpTypeAccelerationStructureKHR:
		return "acceleration structure"
	case spirv.OpTypeImage:
		return d.imageDescriptor(t)
	}
	return strings.TrimPrefix(ty.Op.String(), "OpType")
}

// imageDescriptor tells storage from sampled images and texel buffers by
// OpTypeImage's Dim (word 3) and Sampled (word 7) operands.
func (d *describer) imageDescriptor(t uint32) string {
	i, _ := d.x.Def(t)
	w := d.m.Inst(i).Words
	if len(w) < 8 {
		return "image"
	}
	storage := w[7] == 2
	switch {
	case spirv.Dim(w[3]) == spirv.DimBuffer && storage:
		return "storage texel buffer"
	case spirv.Dim(w[3]) == spirv.DimBuffer:
		return "uniform texel buffer"
	case storage:
		return "storage image"
	}
	return "sampled image"
}

// maxTextDepth bounds typeText's walk: pointers through forward pointers
// can form a chain back to themselves that Index's depth does not count.
const maxTextDepth = 64

// typeText spells type t compactly, as spvx run's --print types: u32, i8,
// f16, f32x4 (a vector), [8]u32, []f32, *f32, struct NAME.
func (d *describer) typeText(t uint32) string {
	var b strings.Builder
	d.writeType(&b, t, 0)
	return b.String()
}

func (d *describer) writeType(b *strings.Builder, t uint32, depth int) {
	ty := d.x.Types[t]
	if ty == nil {
		fmt.Fprintf(b, "%%%d", t)
		return
	}
	if depth > maxTextDepth {
		b.WriteString("...")
		return
	}
	switch ty.Kind {
	case spirv.TypeVoid:
		b.WriteString("void")
	case spirv.TypeBool:
		b.WriteString("bool")
	case spirv.TypeInt:
		sign := "u"
		if ty.Signed {
			sign = "i"
		}
		fmt.Fprintf(b, "%s%d", sign, ty.Width)
	case spirv.TypeFloat:
		d.writeFloat(b, ty)
	case spirv.TypeVector:
		d.writeType(b, ty.Elem, depth+1)
		fmt.Fprintf(b, "x%d", ty.Count)
	case spirv.TypeMatrix:
		fmt.Fprintf(b, "mat%d(", ty.Count)
		d.writeType(b, ty.Elem, depth+1)
		b.WriteString(")")
	case spirv.TypeArray:
		fmt.Fprintf(b, "[%d]", ty.Count)
		d.writeType(b, ty.Elem, depth+1)
	case spirv.TypeRuntimeArray:
		b.WriteString("[]")
		d.writeType(b, ty.Elem, depth+1)
	case spirv.TypeStruct:
		if n := d.name(t); n != "" {
			fmt.Fprintf(b, "struct %s", n)
		} else {
			fmt.Fprintf(b, "struct %%%d", t)
		}
	case spirv.TypePointer:
		b.WriteString("*")
		d.writeType(b, ty.Elem, depth+1)
	default:
		b.WriteString(strings.TrimPrefix(ty.Op.String(), "OpType"))
	}
}

// writeFloat spells an IEEE float fN and any other encoding by its name.
func (d *describer) writeFloat(b *strings.Builder, ty *spirv.Type) {
	if !ty.HasEncoding {
		fmt.Fprintf(b, "f%d", ty.Width)
		return
	}
	if e, ok := spirv.OperandKindFPEncoding.Enumerant(uint32(ty.Encoding)); ok {
		b.WriteString(e.Name)
		return
	}
	fmt.Fprintf(b, "f%d(encoding %d)", ty.Width, uint32(ty.Encoding))
}
