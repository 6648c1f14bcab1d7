package entryinfo

import (
	"math/bits"

	"spvx/spirv"
)

// layout is a type's size in memory: bytes, alignment, and the stride of a
// trailing runtime array (0: none).
type layout struct {
	bytes, align, perElem uint64
}

func (l layout) size() Size { return Size{Bytes: l.bytes, PerElement: l.perElem} }

// layout lays out type t: kernel selects OpenCL C's rules (a 3-component
// vector takes 4 components' room and is aligned to its size); otherwise
// the module's explicit Offset, ArrayStride and MatrixStride decorations
// are used, with natural alignment where one is missing. Results are
// cached per type, so the walk is linear; it recurses no deeper than the
// type nesting Describe checked, and never through a pointer.
func (d *describer) layout(t uint32, kernel bool) layout {
	key := layoutKey{t, kernel}
	if l, ok := d.sizes[key]; ok {
		return l
	}
	l := d.computeLayout(t, kernel)
	if l.align == 0 {
		l.align = 1
	}
	d.sizes[key] = l
	return l
}

func (d *describer) computeLayout(t uint32, kernel bool) layout {
	ty := d.x.Types[t]
	if ty == nil {
		return layout{}
	}
	switch ty.Kind {
	case spirv.TypeVoid:
		return layout{}
	case spirv.TypeBool:
		return layout{bytes: 1, align: 1}
	case spirv.TypeInt, spirv.TypeFloat:
		n := uint64(max(8, ty.Width)) / 8
		return layout{bytes: n, align: n}
	case spirv.TypeVector:
		e := d.layout(ty.Elem, kernel)
		n := uint64(ty.Count)
		if kernel {
			if n == 3 {
				n = 4
			}
			return layout{bytes: mul(n, e.bytes), align: mul(n, e.bytes)}
		}
		return layout{bytes: mul(n, e.bytes), align: e.align}
	case spirv.TypeMatrix:
		col := d.layout(ty.Elem, kernel)
		return layout{bytes: mul(uint64(ty.Count), alignUp(col.bytes, col.align)), align: col.align}
	case spirv.TypeArray, spirv.TypeRuntimeArray:
		return d.arrayLayout(t, ty, kernel)
	case spirv.TypeStruct:
		return d.structLayout(t, ty, kernel)
	}
	// Pointers and opaque handles (events, samplers, queues) pass as
	// pointer-sized values.
	return layout{bytes: d.ptrBytes, align: d.ptrBytes}
}

// arrayLayout: ArrayStride if decorated, else the element's aligned size.
func (d *describer) arrayLayout(t uint32, ty *spirv.Type, kernel bool) layout {
	e := d.layout(ty.Elem, kernel)
	stride := alignUp(e.bytes, e.align)
	if s, ok := d.decoration(t, spirv.DecorationArrayStride); ok && len(s.Params) > 0 {
		stride = uint64(s.Params[0])
	}
	if ty.Kind == spirv.TypeRuntimeArray {
		return layout{align: e.align, perElem: stride}
	}
	return layout{bytes: mul(uint64(ty.Count), stride), align: e.align}
}

// structLayout places members at their Offset decorations, or packed
// after the previous member (aligned unless the struct is CPacked); a
// trailing runtime array adds its stride per element.
func (d *describer) structLayout(t uint32, ty *spirv.Type, kernel bool) layout {
	n := len(ty.Members)
	offsets := make([]uint64, n)
	have := make([]bool, n)
	matStride := make([]uint64, n)
	explicit := false
	for e := range d.decorations(t) {
		if e.Member < 0 || e.Member >= n || len(e.Params) == 0 {
			continue
		}
		switch e.Kind {
		case spirv.DecorationOffset:
			offsets[e.Member], have[e.Member], explicit = uint64(e.Params[0]), true, true
		case spirv.DecorationMatrixStride:
			matStride[e.Member] = uint64(e.Params[0])
		}
	}
	_, packed := d.decoration(t, spirv.DecorationCPacked)
	out := layout{align: 1}
	var end uint64
	for i, mt := range ty.Members {
		ml := d.layout(mt, kernel)
		if packed {
			ml.align = 1
		}
		if !have[i] {
			offsets[i] = alignUp(end, ml.align)
		}
		size := ml.bytes
		if mty := d.x.Types[mt]; mty != nil && mty.Kind == spirv.TypeMatrix && matStride[i] != 0 {
			size = mul(uint64(mty.Count), matStride[i])
		}
		end = max(end, add(offsets[i], size))
		if ml.perElem != 0 {
			out.perElem = ml.perElem
		}
		out.align = max(out.align, ml.align)
	}
	out.bytes = end
	if !explicit && out.perElem == 0 {
		out.bytes = alignUp(end, out.align)
	}
	return out
}

// saturated is where sizes stop growing: a size from a hostile module
// never wraps around to a small number.
const saturated = 1 << 63

func mul(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	if hi != 0 || lo > saturated {
		return saturated
	}
	return lo
}

func add(a, b uint64) uint64 {
	s := a + b
	if s < a || s > saturated {
		return saturated
	}
	return s
}

func alignUp(x, a uint64) uint64 {
	if a <= 1 || x >= saturated {
		return x
	}
	return add(x, a-1) / a * a
}
