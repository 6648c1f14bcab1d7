package amber

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync/atomic"
)

// Kind is the numeric kind of a scalar component.
type Kind uint8

// The scalar kinds. Normalized and scaled format components are stored as
// the integers they are made of.
const (
	Uint Kind = iota
	Int
	Float
)

// Scalar is one component type: a kind and a width in bits (8, 16, 32, 64).
type Scalar struct {
	Kind Kind
	Bits int
}

// Size is the component's size in bytes.
func (s Scalar) Size() int { return s.Bits / 8 }

func (s Scalar) String() string {
	switch s.Kind {
	case Int:
		return "int" + strconv.Itoa(s.Bits)
	case Uint:
		return "uint" + strconv.Itoa(s.Bits)
	}
	switch s.Bits {
	case 16:
		return "float16"
	case 64:
		return "double"
	}
	return "float"
}

// Layout is a buffer's memory layout rule.
type Layout uint8

// Layouts. Amber buffers are std430 unless the script says STD140; VkScript
// uniform buffers are std140.
const (
	Std430 Layout = iota
	Std140
)

// Type is an Amber data type: a scalar, a vector (Rows components), or a
// matrix (Cols columns of Rows components), optionally a runtime array
// ("float[]"). A type named by an image format (R32G32_SFLOAT) is a list of
// components that never takes vec3 padding.
type Type struct {
	Scalar
	Rows, Cols int
	Array      bool
	FormatList bool
	// Channels and Mode are an image format name's components in memory
	// order ("BGRA") and numeric mode ("UNORM", "SRGB", "UFLOAT", ...);
	// a packed format (Packed) is one integer of Bits bits holding them,
	// as amber's Format keeps it, so its values are the packed words.
	Channels string
	Mode     string
	Packed   bool
	Struct   *StructDef // a STRUCT type; the fields above are unused then
	Name     string     // as written
}

// Equal reports whether two types describe the same data (the name aside).
func (t *Type) Equal(u *Type) bool {
	return t.Scalar == u.Scalar && t.Rows == u.Rows && t.Cols == u.Cols && t.Array == u.Array && t.FormatList == u.FormatList &&
		t.Channels == u.Channels && t.Mode == u.Mode && t.Packed == u.Packed
}

// Comp is one component of an element: its byte offset and type.
type Comp struct {
	Off int
	Scalar
}

// Format is a type with a layout: where each component of one element
// lies, and the element stride. It follows amber's src/format.cc: a vec3
// (and each column of a matrix with 3 rows) is padded to 4 components; in
// std140 each matrix column and each runtime-array element is padded to 4
// components as well. A STRUCT is laid out member by member at its
// std430/std140 alignment (or its OFFSETs), padded to its alignment or
// its STRIDE.
type Format struct {
	Type   *Type
	Layout Layout
	// Comps holds the components of an element in input order (column by
	// column, member by member).
	Comps  []Comp
	Stride int
}

// NewFormat lays t out under l.
func NewFormat(t *Type, l Layout) *Format {
	f := &Format{Type: t, Layout: l}
	if t.Struct != nil {
		comps, size, _ := layoutStruct(t.Struct, l, 0)
		f.Comps, f.Stride = comps, size
		return f
	}
	rows := t.Rows
	pad := !t.FormatList && ((l == Std140 && (t.Cols > 1 || t.Array)) || t.Rows == 3)
	if pad {
		rows = 4
	}
	cs := t.Size()
	for c := 0; c < t.Cols; c++ {
		for r := 0; r < t.Rows; r++ {
			f.Comps = append(f.Comps, Comp{(c*rows + r) * cs, t.Scalar})
		}
	}
	f.Stride = t.Cols * rows * cs
	return f
}

// fits reports whether every component lies within the element's
// stride, which a STRUCT's STRIDE or member OFFSETs can break (amber
// asserts it). Buffer sizes, data writes and probes all count in strides.
func (f *Format) fits() bool {
	for _, c := range f.Comps {
		if c.Off < 0 || c.Off+c.Size() > f.Stride {
			return false
		}
	}
	return true
}

// Inputs is how many values make up one element.
func (f *Format) Inputs() int { return len(f.Comps) }

// comp is the component the i-th value of a list goes to.
func (f *Format) comp(i int) Comp { return f.Comps[i%len(f.Comps)] }

// Equal reports whether two formats lay out the same components.
func (f *Format) Equal(g *Format) bool {
	if f.Layout != g.Layout || f.Stride != g.Stride || len(f.Comps) != len(g.Comps) {
		return false
	}
	for i := range f.Comps {
		if f.Comps[i] != g.Comps[i] {
			return false
		}
	}
	return f.Type.Struct == g.Type.Struct && (f.Type.Struct != nil || f.Type.Equal(g.Type))
}

// IsFloat reports whether the first component is floating point.
func (f *Format) IsFloat() bool { return f.Comps[0].Kind == Float }

// StructDef is a STRUCT declaration.
type StructDef struct {
	Name    string
	Stride  int // STRIDE, 0 when absent
	Members []Member

	// Set by finish once the members are known, so that nothing walks
	// the members of nested STRUCTs again: a chain of n STRUCTs, each
	// holding the one before, costs O(n) to declare, not O(n²).
	depth int    // nesting levels: 1 for a STRUCT of non-STRUCT members
	comps int    // components when flattened (capped past maxStructComponents)
	align [2]int // base alignment under Std430 and Std140
	done  bool
}

// finish computes s's depth, component count and alignments from its
// members, whose own STRUCTs are finished (a STRUCT can only name STRUCTs
// declared before it).
func (s *StructDef) finish() {
	s.depth, s.comps = 1, 0
	s.align = [2]int{0, 0}
	memberVisits.Add(int64(len(s.Members)))
	for _, m := range s.Members {
		if ms := m.Type.Struct; ms != nil {
			if !ms.done {
				ms.finish()
			}
			s.depth = max(s.depth, ms.depth+1)
		}
		s.comps = min(s.comps+componentCount(m.Type), maxStructComponents+1)
		for l := Std430; l <= Std140; l++ {
			s.align[l] = max(s.align[l], alignOf(m.Type, l))
		}
	}
	s.align[Std140] = roundUp(s.align[Std140], 16)
	s.done = true
}

// memberVisits counts STRUCT members visited by finish and layoutStruct:
// the work of laying out STRUCTs, which tests compare at two sizes.
var memberVisits atomic.Int64

// maxStructComponents bounds a STRUCT's flattened size, so nested structs
// cannot blow up.
const maxStructComponents = 1 << 16

// maxStructDepth bounds STRUCT nesting: layoutStruct recurses once per
// level. spirv-val's --max-struct-depth defaults to the same 255.
const maxStructDepth = 255

// componentCount is how many components one element of t has.
func componentCount(t *Type) int {
	if t.Struct == nil {
		return t.Rows * t.Cols
	}
	if !t.Struct.done {
		t.Struct.finish()
	}
	return t.Struct.comps
}

// Member is one STRUCT member.
type Member struct {
	Name         string
	Type         *Type
	Offset       int // OFFSET, -1 when absent
	MatrixStride int // MATRIX_STRIDE, 0 when absent
}

func roundUp(n, a int) int {
	if a <= 1 {
		return n
	}
	return (n + a - 1) / a * a
}

// alignOf is a member type's base alignment under l (std430; std140
// rounds matrices and structs up to 16).
func alignOf(t *Type, l Layout) int {
	if s := t.Struct; s != nil {
		if !s.done {
			s.finish()
		}
		return s.align[l]
	}
	n := t.Size()
	rows := t.Rows
	if rows == 3 {
		rows = 4
	}
	a := rows * n
	if t.Cols > 1 && l == Std140 {
		a = roundUp(a, 16)
	}
	return a
}

// layoutStruct places the members of s from byte base and returns their
// components, the struct's size and its alignment.
func layoutStruct(s *StructDef, l Layout, base int) ([]Comp, int, int) {
	var comps []Comp
	off := 0
	align := 1
	memberVisits.Add(int64(len(s.Members)))
	for _, m := range s.Members {
		a := alignOf(m.Type, l)
		align = max(align, a)
		if m.Offset >= 0 {
			off = m.Offset
		} else {
			off = roundUp(off, a)
		}
		t := m.Type
		switch {
		case t.Struct != nil:
			c, size, _ := layoutStruct(t.Struct, l, base+off)
			comps = append(comps, c...)
			off += size
		default:
			colStride := a
			if t.Cols > 1 && m.MatrixStride > 0 {
				colStride = m.MatrixStride
			}
			for c := 0; c < t.Cols; c++ {
				for r := 0; r < t.Rows; r++ {
					comps = append(comps, Comp{base + off + c*colStride + r*t.Size(), t.Scalar})
				}
			}
			if t.Cols > 1 {
				off += t.Cols * colStride
			} else {
				off += t.Rows * t.Size()
			}
		}
	}
	if l == Std140 {
		align = roundUp(align, 16)
	}
	size := roundUp(off, align)
	if s.Stride > 0 {
		size = s.Stride
	}
	return comps, size, align
}

// ParseType reads an AmberScript type name: int8 … uint64, float16, float,
// double, vecN<T>, matCxR<T>, any of them with "[]", or an image format name
// (R32G32B32A32_SFLOAT). It returns nil for anything else.
func ParseType(name string) *Type {
	t := parseType(name)
	if t != nil {
		t.Name = name
	}
	return t
}

func parseType(s string) *Type {
	arr := false
	if len(s) > 2 && strings.HasSuffix(s, "[]") {
		arr = true
		s = s[:len(s)-2]
	}
	var t *Type
	if sc, ok := scalarNames[s]; ok {
		t = &Type{Scalar: sc, Rows: 1, Cols: 1}
	} else if len(s) > 7 && strings.HasPrefix(s, "vec") {
		if s[4] != '<' || s[len(s)-1] != '>' {
			return nil
		}
		n := int(s[3] - '0')
		if n < 2 || n > 4 {
			return nil
		}
		sc, ok := scalarNames[s[5:len(s)-1]]
		if !ok {
			return nil
		}
		t = &Type{Scalar: sc, Rows: n, Cols: 1}
	} else if len(s) > 9 && strings.HasPrefix(s, "mat") {
		if s[4] != 'x' || s[6] != '<' || s[len(s)-1] != '>' {
			return nil
		}
		c, r := int(s[3]-'0'), int(s[5]-'0')
		if c < 2 || c > 4 || r < 2 || r > 4 {
			return nil
		}
		sc, ok := scalarNames[s[7:len(s)-1]]
		if !ok {
			return nil
		}
		t = &Type{Scalar: sc, Rows: r, Cols: c}
	} else if !arr {
		return parseFormatName(s)
	}
	if t == nil {
		return nil
	}
	t.Array = arr
	return t
}

var scalarNames = map[string]Scalar{
	"int8": {Int, 8}, "int16": {Int, 16}, "int32": {Int, 32}, "int64": {Int, 64},
	"uint8": {Uint, 8}, "uint16": {Uint, 16}, "uint32": {Uint, 32}, "uint64": {Uint, 64},
	"float16": {Float, 16}, "float": {Float, 32}, "double": {Float, 64},
}

// parseFormatName reads the image format names a buffer or image can use:
// R, G, B, A (and X) components of one width followed by _UINT, _SINT,
// _SFLOAT, _UNORM, _SNORM, _USCALED, _SSCALED or _SRGB, and the packed
// formats (A2B10G10R10_UNORM_PACK32, B10G11R11_UFLOAT_PACK32, ...), which
// amber reads as one unsigned integer per texel, and the depth-only
// formats (D16_UNORM, D32_SFLOAT). Depth-stencil and mixed-width
// unpacked formats give nil.
func parseFormatName(s string) *Type {
	i := strings.IndexByte(s, '_')
	if i <= 0 {
		return nil
	}
	comps, mode := s[:i], s[i+1:]
	pack := 0
	if j := strings.LastIndex(mode, "_PACK"); j > 0 {
		n, err := strconv.Atoi(mode[j+5:])
		if err != nil || (n != 8 && n != 16 && n != 32) {
			return nil
		}
		pack, mode = n, mode[:j]
	}
	var k Kind
	switch mode {
	case "UINT", "UNORM", "USCALED", "SRGB", "UFLOAT":
		k = Uint
	case "SINT", "SNORM", "SSCALED":
		k = Int
	case "SFLOAT":
		k = Float
	default:
		return nil
	}
	chans, n, bits, total, mixed := "", 0, 0, 0, false
	for len(comps) > 0 {
		// D is a depth format's one component (D16_UNORM, D32_SFLOAT).
		if !strings.ContainsRune("RGBAXD", rune(comps[0])) || comps[0] == 'D' && len(chans) > 0 || strings.HasPrefix(chans, "D") {
			return nil
		}
		j := 1
		for j < len(comps) && comps[j] >= '0' && comps[j] <= '9' {
			j++
		}
		b, err := strconv.Atoi(comps[1:j])
		if err != nil || b <= 0 || b > 64 {
			return nil
		}
		mixed = mixed || (bits != 0 && b != bits)
		chans += comps[:1]
		bits, total = b, total+b
		n++
		comps = comps[j:]
	}
	if n == 0 || n > 4 {
		return nil
	}
	if pack != 0 {
		if total != pack {
			return nil
		}
		return &Type{Scalar: Scalar{Uint, pack}, Rows: 1, Cols: 1, FormatList: true, Channels: chans, Mode: mode, Packed: true}
	}
	if mixed || mode == "UFLOAT" || (bits != 8 && bits != 16 && bits != 32 && bits != 64) || (k == Float && bits == 8) {
		return nil
	}
	return &Type{Scalar: Scalar{k, bits}, Rows: n, Cols: 1, FormatList: true, Channels: chans, Mode: mode}
}

// Value is one number from a script: an integer (two's complement bits in
// U) or a double.
type Value struct {
	IsFloat bool
	U       uint64
	F       float64
}

func (v Value) String() string {
	if v.IsFloat {
		return formatFloat(v.F)
	}
	return strconv.FormatUint(v.U, 10)
}

func (v Value) asFloat() float64 {
	if v.IsFloat {
		return v.F
	}
	return float64(int64(v.U))
}

// put writes v as a component of type s at b, as amber's
// Buffer::WriteValueFromComponent does (integers truncate to the width,
// float16 via amber's conversion).
func put(b []byte, s Scalar, v Value) {
	switch s.Kind {
	case Float:
		f := v.asFloat()
		switch s.Bits {
		case 16:
			binary.LittleEndian.PutUint16(b, amberFloatToHalf(float32(f)))
		case 32:
			binary.LittleEndian.PutUint32(b, math.Float32bits(float32(f)))
		default:
			binary.LittleEndian.PutUint64(b, math.Float64bits(f))
		}
		return
	}
	u := v.U
	if v.IsFloat {
		u = uint64(int64(v.F))
	}
	switch s.Bits {
	case 8:
		b[0] = byte(u)
	case 16:
		binary.LittleEndian.PutUint16(b, uint16(u))
	case 32:
		binary.LittleEndian.PutUint32(b, uint32(u))
	default:
		binary.LittleEndian.PutUint64(b, u)
	}
}

// number is a component read from memory: an integer with its kind, or a
// float widened to double (float32 values exactly).
type number struct {
	kind Kind
	bits int
	i    int64
	u    uint64
	f    float64
}

func get(b []byte, s Scalar) number {
	var u uint64
	switch s.Bits {
	case 8:
		u = uint64(b[0])
	case 16:
		u = uint64(binary.LittleEndian.Uint16(b))
	case 32:
		u = uint64(binary.LittleEndian.Uint32(b))
	default:
		u = binary.LittleEndian.Uint64(b)
	}
	switch s.Kind {
	case Float:
		switch s.Bits {
		case 16:
			return number{kind: Float, bits: 16, f: float64(amberHalfToFloat(uint16(u)))}
		case 32:
			return number{kind: Float, bits: 32, f: float64(math.Float32frombits(uint32(u)))}
		}
		return number{kind: Float, bits: 64, f: math.Float64frombits(u)}
	case Int:
		sh := 64 - uint(s.Bits)
		i := int64(u<<sh) >> sh
		return number{kind: Int, bits: s.Bits, i: i, u: uint64(i)}
	}
	return number{kind: Uint, bits: s.Bits, u: u, i: int64(u)}
}

func (n number) String() string {
	switch n.kind {
	case Float:
		if n.bits < 64 {
			return strconv.FormatFloat(n.f, 'g', -1, 32)
		}
		return formatFloat(n.f)
	case Int:
		return strconv.FormatInt(n.i, 10)
	}
	return strconv.FormatUint(n.u, 10)
}

// formatFloat prints a float as the shortest text that reads back as it.
func formatFloat(f float64) string {
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// amberFloatToHalf converts as amber's float16 helper does (not IEEE: mx has
// those conversions, HalfFromFloat32 and HalfToFloat32): the mantissa is
// truncated and float32 denormals become zero. Unlike amber (which asserts),
// values beyond float16's range become infinity, values below its normal
// range become signed zero, and NaN stays NaN.
func amberFloatToHalf(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>31) << 15
	exp := int(b>>23) & 0xff
	mant := b & 0x7fffff
	switch {
	case exp == 0xff:
		if mant != 0 {
			return sign | 0x7e00
		}
		return sign | 0x7c00
	case exp == 0:
		return sign
	}
	e := exp - 112
	if e >= 31 {
		return sign | 0x7c00
	}
	if e <= 0 {
		return sign
	}
	return sign | uint16(e)<<10 | uint16(mant>>13)
}

// amberHalfToFloat converts as amber's float16 helper does, so EXPECT sees
// what amber sees: denormals read as zero, and the all-ones exponent
// (infinity, NaN) reads as the finite value 2^16 × (1 + mantissa), as in
// amber.
func amberHalfToFloat(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	if exp == 0 {
		return math.Float32frombits(sign)
	}
	mant := uint32(h&0x3ff) << 13
	return math.Float32frombits(sign | (exp+112)<<23 | mant)
}

// typeString is a type as a message names it.
func (t *Type) String() string {
	if t.Name != "" {
		return t.Name
	}
	s := t.Scalar.String()
	switch {
	case t.Cols > 1:
		s = fmt.Sprintf("mat%dx%d<%s>", t.Cols, t.Rows, s)
	case t.Rows > 1:
		s = fmt.Sprintf("vec%d<%s>", t.Rows, s)
	}
	if t.Array {
		s += "[]"
	}
	return s
}
