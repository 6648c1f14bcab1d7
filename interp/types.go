package interp

import (
	"fmt"

	"spvx/spirv"
)

// Scalar encodings of a component.
const (
	encIEEE   uint8 = iota // IEEE binary16/32/64 (or int/bool: unused)
	encBF16                // bfloat16
	encE4M3                // Float8E4M3EXT
	encE5M2                // Float8E5M2EXT
	encE2M3                // Float6E2M3EXT
	encE3M2                // Float6E3M2EXT
	encE2M1                // Float4E2M1EXT
	encE8M0                // Float8UnsignedE8M0EXT
	encMXINT8              // MXInt8EXT
)

// Scalar kinds of a component.
const (
	skNone uint8 = iota
	skBool
	skInt
	skFloat
	skPtr
)

// scalar is one component's type.
type scalar struct {
	kind   uint8
	width  uint8 // bits
	signed bool
	enc    uint8
}

func (s scalar) mask() uint64 {
	if s.width >= 64 {
		return ^uint64(0)
	}
	return 1<<s.width - 1
}

// tinfo is a resolved type.
type tinfo struct {
	id      uint32
	kind    spirv.TypeKind
	ncomp   int    // flattened scalar components
	sc      scalar // component scalar of a scalar, vector or matrix
	vec     int    // vector length (scalar 1); matrix: column length
	cols    int    // matrix columns
	count   int    // array length (0 runtime)
	elem    *tinfo // vector component, matrix column, array element
	members []*tinfo
	coop    *coopInfo // cooperative matrix (coopmat.go): per invocation a vector of vec components
	mcomp   []int     // component offset of each struct member

	// pointers
	storage   spirv.StorageClass
	pointeeID uint32
	ptrStride uint32 // ArrayStride decoration of a pointer type (OpPtrAccessChain)

	// memory layout (explicit where decorated, else natural)
	laid      bool
	size      uint32
	align     uint32
	stride    uint32   // array stride
	moff      []uint32 // member offsets
	mlay      []matLay // member matrix layout
	block     bool     // Block decorated (buffer / explicit-layout workgroup block)
	bufBlock  bool     // BufferBlock decorated (old-style storage buffer)
	explicitL bool     // has explicit layout decorations
}

// matLay is the layout of a matrix (or array of matrices) inside a struct
// member: MatrixStride and RowMajor, or the natural column-major layout.
type matLay struct {
	stride   uint32
	rowMajor bool
}

const maxComponents = 1 << 16 // flattened components of one value

// checkTypeDepth refuses a module with a type nested deeper than
// spirv.MaxTypeDepth, or one defined in terms of itself, before any of
// the recursive walks below (typ, layoutDepth, leaves) can meet it.
func checkTypeDepth(m *spirv.Module) error {
	x := m.Index()
	if x.TypeCycle != 0 {
		return fmt.Errorf("type %%%d is defined in terms of itself", x.TypeCycle)
	}
	if x.MaxTypeDepth <= spirv.MaxTypeDepth {
		return nil
	}
	for i := 0; i < m.Len(); i++ {
		id := m.Inst(i).ResultID
		if t := x.Types[id]; t != nil && t.Depth > spirv.MaxTypeDepth {
			return fmt.Errorf("type %%%d (instruction %d) nests %d deep; the limit is %d", id, i+1, t.Depth, spirv.MaxTypeDepth)
		}
	}
	return nil
}

// typ resolves a type id.
func (c *compiler) typ(id uint32) (*tinfo, error) {
	if t, ok := c.types[id]; ok {
		if t == nil {
			return nil, fmt.Errorf("type %%%d is recursive", id)
		}
		return t, nil
	}
	st := c.x.Types[id]
	if st == nil {
		return nil, fmt.Errorf("%%%d is not a type", id)
	}
	c.types[id] = nil // in progress
	t := &tinfo{id: id, kind: st.Kind}
	var err error
	long := st.Op == spirv.OpTypeVectorIdEXT
	if long {
		if st, err = c.longVectorType(id); err != nil {
			delete(c.types, id)
			return nil, err
		}
		t.kind = spirv.TypeVector
	}
	switch st.Kind {
	case spirv.TypeVoid:
	case spirv.TypeBool:
		t.ncomp, t.vec, t.sc = 1, 1, scalar{kind: skBool, width: 1}
	case spirv.TypeInt:
		if st.Width != 8 && st.Width != 16 && st.Width != 32 && st.Width != 64 {
			return nil, fmt.Errorf("OpTypeInt %%%d: unsupported width %d", id, st.Width)
		}
		t.ncomp, t.vec, t.sc = 1, 1, scalar{kind: skInt, width: uint8(st.Width), signed: st.Signed}
	case spirv.TypeFloat:
		t.ncomp, t.vec = 1, 1
		t.sc, err = floatScalar(st)
	case spirv.TypeVector:
		var e *tinfo
		if e, err = c.typ(st.Elem); err == nil {
			// SPV_EXT_long_vector allows any positive count (val checks
			// the capability); each component is a register here.
			if e.kind != spirv.TypeBool && e.kind != spirv.TypeInt && e.kind != spirv.TypeFloat && e.kind != spirv.TypePointer || st.Count < 1 || st.Count > maxLongVector {
				err = fmt.Errorf("%s %%%d: bad component type or count %d (1 to %d)", st.Op, id, st.Count, maxLongVector)
			}
			t.elem, t.sc, t.vec, t.ncomp = e, e.sc, int(st.Count), int(st.Count)
		}
	case spirv.TypeMatrix:
		var e *tinfo
		if e, err = c.typ(st.Elem); err == nil {
			if e.kind != spirv.TypeVector || st.Count < 2 || st.Count > 16 {
				err = fmt.Errorf("OpTypeMatrix %%%d: bad column type or count", id)
			}
			t.elem, t.sc, t.vec, t.cols, t.ncomp = e, e.sc, e.vec, int(st.Count), e.vec*int(st.Count)
		}
	case spirv.TypeArray, spirv.TypeRuntimeArray:
		var e *tinfo
		if e, err = c.typ(st.Elem); err == nil {
			t.elem = e
			if st.Kind == spirv.TypeArray {
				n, ok := c.arrayLen(id)
				if !ok || n == 0 {
					err = fmt.Errorf("OpTypeArray %%%d: length is not a positive constant", id)
				}
				t.count = int(n)
				if int64(n)*int64(e.ncomp) > maxComponents {
					t.ncomp = maxComponents + 1 // too big as a value; fine in memory
				} else {
					t.ncomp = int(n) * e.ncomp
				}
			}
		}
	case spirv.TypeStruct:
		t.members = make([]*tinfo, len(st.Members))
		t.mcomp = make([]int, len(st.Members))
		for i, mid := range st.Members {
			var mt *tinfo
			if mt, err = c.typ(mid); err != nil {
				break
			}
			t.members[i], t.mcomp[i] = mt, t.ncomp
			t.ncomp += mt.ncomp
			if t.ncomp > maxComponents {
				t.ncomp = maxComponents + 1
			}
		}
	case spirv.TypeCooperativeMatrix:
		err = c.coopType(t)
	case spirv.TypePointer:
		t.ncomp, t.vec = 1, 1
		t.sc = scalar{kind: skPtr, width: 64}
		t.storage, t.pointeeID = st.Storage, st.Elem
		for _, d := range c.x.Decorations[id] {
			if d.Kind == spirv.DecorationArrayStride && len(d.Params) > 0 {
				t.ptrStride = d.Params[0]
			}
		}
	case spirv.TypeFunction:
	default:
		if st.Op == spirv.OpTypeCooperativeMatrixNV {
			t.kind = spirv.TypeCooperativeMatrix
			err = c.coopType(t)
			break
		}
		if st.Op == spirv.OpTypeForwardPointer {
			err = fmt.Errorf("%%%d is a forward pointer declaration", id)
		} else {
			// Opaque types (images, samplers, events...) get one component so
			// that values of them can be carried, never used.
			t.ncomp, t.vec = 1, 1
		}
	}
	if err != nil {
		delete(c.types, id)
		return nil, err
	}
	for _, d := range c.x.Decorations[id] {
		switch d.Kind {
		case spirv.DecorationBlock:
			t.block = true
		case spirv.DecorationBufferBlock:
			t.bufBlock = true
		}
	}
	c.types[id] = t
	return t, nil
}

func floatScalar(st *spirv.Type) (scalar, error) {
	s := scalar{kind: skFloat, width: uint8(st.Width)}
	if !st.HasEncoding {
		if st.Width != 16 && st.Width != 32 && st.Width != 64 {
			return s, fmt.Errorf("OpTypeFloat %%%d: unsupported width %d", st.ID, st.Width)
		}
		return s, nil
	}
	want := uint32(8)
	switch st.Encoding {
	case spirv.FPEncodingBFloat16KHR:
		s.enc, want = encBF16, 16
	case spirv.FPEncodingFloat8E4M3EXT:
		s.enc = encE4M3
	case spirv.FPEncodingFloat8E5M2EXT:
		s.enc = encE5M2
	case spirv.FPEncodingFloat6E2M3EXT:
		s.enc, want = encE2M3, 6
	case spirv.FPEncodingFloat6E3M2EXT:
		s.enc, want = encE3M2, 6
	case spirv.FPEncodingFloat4E2M1EXT:
		s.enc, want = encE2M1, 4
	case spirv.FPEncodingFloat8UnsignedE8M0EXT:
		s.enc = encE8M0
	case spirv.FPEncodingMXInt8EXT:
		s.enc = encMXINT8
	default:
		return s, fmt.Errorf("OpTypeFloat %%%d: unsupported FP encoding %d", st.ID, st.Encoding)
	}
	if st.Width != want {
		return s, fmt.Errorf("OpTypeFloat %%%d: width %d does not match its encoding (want %d)", st.ID, st.Width, want)
	}
	return s, nil
}

// arrayLen reads an OpTypeArray's length constant (spec constants included,
// with their final values).
func (c *compiler) arrayLen(id uint32) (uint64, bool) {
	i, ok := c.x.Def(id)
	if !ok {
		return 0, false
	}
	in := c.m.Inst(i)
	if len(in.Words) < 4 {
		return 0, false
	}
	v, ok := c.constScalar(in.Words[3])
	if !ok || v > 1<<31 {
		return 0, false
	}
	return v, true
}

// layout computes the memory layout of t (explicit where the module gives
// Offset/ArrayStride/MatrixStride, natural otherwise).
func (c *compiler) layout(t *tinfo) error {
	return c.layoutDepth(t, 0)
}

func (c *compiler) layoutDepth(t *tinfo, depth int) error {
	if t.laid {
		return nil
	}
	if depth > 64 {
		return fmt.Errorf("type %%%d: nesting too deep", t.id)
	}
	switch t.kind {
	case spirv.TypeBool:
		t.size, t.align = 1, 1
	case spirv.TypeInt, spirv.TypeFloat:
		t.size = uint32(max(8, t.sc.width)) / 8
		t.align = t.size
	case spirv.TypePointer:
		t.size, t.align = c.ptrBytes, c.ptrBytes
	case spirv.TypeVector, spirv.TypeCooperativeMatrix:
		if err := c.layoutDepth(t.elem, depth+1); err != nil {
			return err
		}
		t.size, t.align = uint32(t.vec)*t.elem.size, t.elem.size
		if c.kernel && t.kind == spirv.TypeVector {
			n := uint32(t.vec)
			if n == 3 {
				n = 4
			}
			t.size, t.align = n*t.elem.size, n*t.elem.size
		}
	case spirv.TypeMatrix:
		if err := c.layoutDepth(t.elem, depth+1); err != nil {
			return err
		}
		t.stride = t.elem.size
		if c.kernel || t.elem.vec == 3 {
			t.stride = alignUp(t.elem.size, t.elem.align)
		}
		t.size, t.align = t.stride*uint32(t.cols), t.elem.align
	case spirv.TypeArray, spirv.TypeRuntimeArray:
		if err := c.layoutDepth(t.elem, depth+1); err != nil {
			return err
		}
		t.stride = alignUp(t.elem.size, t.elem.align)
		for _, d := range c.x.Decorations[t.id] {
			if d.Kind == spirv.DecorationArrayStride && len(d.Params) > 0 {
				t.stride, t.explicitL = d.Params[0], true
			}
		}
		t.align = t.elem.align
		t.size = t.stride * uint32(t.count)
		if uint64(t.stride)*uint64(t.count) > 1<<32-1 {
			return fmt.Errorf("type %%%d: too large", t.id)
		}
	case spirv.TypeStruct:
		n := len(t.members)
		t.moff = make([]uint32, n)
		t.mlay = make([]matLay, n)
		have := make([]bool, n)
		for _, d := range c.x.Decorations[t.id] {
			if d.Member < 0 || d.Member >= n {
				continue
			}
			switch d.Kind {
			case spirv.DecorationOffset:
				if len(d.Params) > 0 {
					t.moff[d.Member], have[d.Member], t.explicitL = d.Params[0], true, true
				}
			case spirv.DecorationMatrixStride:
				if len(d.Params) > 0 {
					t.mlay[d.Member].stride = d.Params[0]
				}
			case spirv.DecorationRowMajor:
				t.mlay[d.Member].rowMajor = true
			}
		}
		var off uint64
		t.align = 1
		for i, mt := range t.members {
			if err := c.layoutDepth(mt, depth+1); err != nil {
				return err
			}
			if !have[i] {
				off = uint64(alignUp(uint32(off), mt.align))
				t.moff[i] = uint32(off)
			}
			sz := uint64(c.memberSize(mt, t.mlay[i]))
			if end := uint64(t.moff[i]) + sz; end > off {
				off = end
			}
			if off > 1<<32-1 {
				return fmt.Errorf("type %%%d: too large", t.id)
			}
			t.align = max(t.align, mt.align)
		}
		t.size = uint32(off)
		if !t.explicitL {
			t.size = alignUp(t.size, t.align)
		}
	default:
		t.size, t.align = 8, 8
	}
	if t.align == 0 {
		t.align = 1
	}
	t.laid = true
	return nil
}

// memberSize is the size of a struct member of type t with matrix layout ml.
func (c *compiler) memberSize(t *tinfo, ml matLay) uint32 {
	switch {
	case t.kind == spirv.TypeMatrix && ml.stride != 0:
		if ml.rowMajor {
			return ml.stride * uint32(t.vec)
		}
		return ml.stride * uint32(t.cols)
	}
	return t.size
}

func alignUp(x, a uint32) uint32 {
	if a <= 1 {
		return x
	}
	return (x + a - 1) / a * a
}

// leaf is one scalar component of a value in memory.
type leaf struct {
	off  uint32
	size uint8 // bytes
	kind uint8 // sk*
}

// leaves appends the memory leaves of a value of type t at offset off with
// matrix layout ml (for a matrix or an array of matrices) and vector
// component stride vs (0: natural), in component order.
func (c *compiler) leaves(dst []leaf, t *tinfo, off uint32, ml matLay, vs uint32) ([]leaf, error) {
	if len(dst) > maxComponents {
		return nil, fmt.Errorf("value too large to load or store")
	}
	if err := c.layout(t); err != nil {
		return nil, err
	}
	switch t.kind {
	case spirv.TypeBool, spirv.TypeInt, spirv.TypeFloat, spirv.TypePointer:
		return append(dst, leaf{off: off, size: uint8(t.size), kind: t.sc.kind}), nil
	case spirv.TypeVector, spirv.TypeCooperativeMatrix:
		if vs == 0 {
			vs = t.elem.size
		}
		for i := 0; i < t.vec; i++ {
			dst = append(dst, leaf{off: off + uint32(i)*vs, size: uint8(t.elem.size), kind: t.sc.kind})
		}
		return dst, nil
	case spirv.TypeMatrix:
		cs, es := t.stride, t.elem.elem.size
		if ml.stride != 0 {
			cs = ml.stride
		}
		var err error
		for col := 0; col < t.cols; col++ {
			if ml.rowMajor {
				dst, err = c.leaves(dst, t.elem, off+uint32(col)*es, matLay{}, cs)
			} else {
				dst, err = c.leaves(dst, t.elem, off+uint32(col)*cs, matLay{}, 0)
			}
			if err != nil {
				return nil, err
			}
		}
		return dst, nil
	case spirv.TypeArray:
		var err error
		for i := 0; i < t.count; i++ {
			if dst, err = c.leaves(dst, t.elem, off+uint32(i)*t.stride, ml, 0); err != nil {
				return nil, err
			}
		}
		return dst, nil
	case spirv.TypeStruct:
		var err error
		for i, mt := range t.members {
			if dst, err = c.leaves(dst, mt, off+t.moff[i], t.mlay[i], 0); err != nil {
				return nil, err
			}
		}
		return dst, nil
	}
	return nil, fmt.Errorf("type %%%d cannot be loaded or stored", t.id)
}

// maxLongVector bounds an OpTypeVectorIdEXT's component count: each
// component is a register, so a vector is at most this many registers.
const maxLongVector = 256

// longVectorType reads an OpTypeVectorIdEXT (SPV_EXT_long_vector) as a
// vector type: its component count is a constant or, specialized, a spec
// constant's value.
func (c *compiler) longVectorType(id uint32) (*spirv.Type, error) {
	j, ok := c.x.Def(id)
	if !ok {
		return nil, fmt.Errorf("%%%d is not a type", id)
	}
	w := c.m.Inst(j).Words
	if len(w) < 4 {
		return nil, fmt.Errorf("OpTypeVectorIdEXT %%%d: missing operands", id)
	}
	n, ok := c.constScalar(w[3])
	if !ok {
		return nil, fmt.Errorf("OpTypeVectorIdEXT %%%d: the component count %%%d is not a constant", id, w[3])
	}
	k := c.x.Constants[w[3]]
	if ct := c.x.Types[k.Type]; ct == nil || ct.Kind != spirv.TypeInt {
		return nil, fmt.Errorf("OpTypeVectorIdEXT %%%d: the component count %%%d is not an integer", id, w[3])
	} else if ct.Width < 64 {
		n &= 1<<ct.Width - 1
	}
	n = min(n, 1<<20) // beyond any count the vector check accepts, and still readable
	return &spirv.Type{ID: id, Op: spirv.OpTypeVectorIdEXT, Kind: spirv.TypeVector, Elem: w[2], Count: uint32(n)}, nil
}
