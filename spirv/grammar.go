package spirv

import (
	"fmt"
	"sort"
)

// Opcode is a SPIR-V instruction opcode (the low 16 bits of an
// instruction's first word).
type Opcode uint16

// OperandKind identifies an operand kind of the grammar: a core kind such
// as IdRef, LiteralString, Decoration, or a kind declared by an extended
// instruction set's grammar (those are distinct kinds even when two sets
// use the same name).
type OperandKind uint16

// Category is the grammar's classification of an operand kind.
type Category uint8

// The operand kind categories of the SPIR-V grammar.
const (
	CategoryBitEnum Category = iota
	CategoryValueEnum
	CategoryID
	CategoryLiteral
	CategoryComposite
)

var categoryNames = [...]string{"BitEnum", "ValueEnum", "Id", "Literal", "Composite"}

func (c Category) String() string {
	if int(c) < len(categoryNames) {
		return categoryNames[c]
	}
	return fmt.Sprintf("Category(%d)", c)
}

// Quantifier says how many times an operand may occur.
type Quantifier uint8

// Operand quantifiers: exactly once, "?" (zero or one), "*" (zero or more).
const (
	One Quantifier = iota
	Optional
	Variadic
)

func (q Quantifier) String() string {
	switch q {
	case Optional:
		return "?"
	case Variadic:
		return "*"
	}
	return ""
}

// Version is a SPIR-V version as it appears in the module header:
// major<<16 | minor<<8.
type Version uint32

// VersionNone marks grammar entries that no core version includes: they
// are reachable only through an extension or a capability.
const VersionNone Version = 0xFFFFFFFF

// MakeVersion returns the Version for major.minor.
func MakeVersion(major, minor int) Version { return Version(major<<16 | minor<<8) }

// Major returns the major version number.
func (v Version) Major() int { return int(v>>16) & 0xFF }

// Minor returns the minor version number.
func (v Version) Minor() int { return int(v>>8) & 0xFF }

func (v Version) String() string {
	if v == VersionNone {
		return "None"
	}
	return fmt.Sprintf("%d.%d", v.Major(), v.Minor())
}

// OperandInfo describes one operand slot of an instruction or of an
// enumerant's parameter list.
type OperandInfo struct {
	Kind       OperandKind
	Quantifier Quantifier
	Name       string // the grammar's operand name, quotes stripped; may be empty
}

// InstructionInfo is the grammar entry of one core instruction.
type InstructionInfo struct {
	Name         string // canonical name, e.g. "OpTypeFloat"
	Opcode       Opcode
	Class        string // grammar class, e.g. "Type-Declaration"
	Operands     []OperandInfo
	Capabilities []Capability
	Extensions   []string
	Version      Version // first core version; VersionNone if only by extension
	LastVersion  Version // last core version, 0 if still current
	Aliases      []string
	Provisional  bool
	FromOverlay  bool // comes from spvx's overlay, not the Khronos grammar
	HasResult    bool // has an IdResult operand
	HasType      bool // has an IdResultType operand
	// IDsOnly: every operand is a single-word id, each exactly once except
	// possibly a trailing variadic one. The decoder has a fast path for
	// these, the most common instructions.
	IDsOnly bool
	// DeclaresType: the instruction declares a type (its result is a
	// type id), as SPIRV-Tools' spvOpcodeGeneratesType says: derived by
	// the generator from the grammar's "Type-Declaration" class, less
	// OpTypeForwardPointer. See DeclaresType.
	DeclaresType bool
}

// Enumerant is one named value of a ValueEnum or BitEnum operand kind.
type Enumerant struct {
	Name         string // canonical name
	Value        uint32
	Aliases      []string
	Parameters   []OperandInfo
	Capabilities []Capability
	Extensions   []string
	Version      Version
	LastVersion  Version
	Provisional  bool
	FromOverlay  bool
}

// OperandKindInfo is the grammar entry of one operand kind.
type OperandKindInfo struct {
	Name       string
	Category   Category
	Enumerants []Enumerant   // sorted by value; empty for non-enum kinds
	Bases      []OperandKind // the parts of a Composite kind
	byName     []nameIndex   // enumerant names and aliases, sorted by name
	Set        string        // the extended instruction set declaring the kind, "" for core
}

// ExtInstInfo is the grammar entry of one extended instruction.
type ExtInstInfo struct {
	Name         string
	Opcode       uint32
	Operands     []OperandInfo
	Capabilities []Capability
	Extensions   []string
}

// ExtInstSet is an extended instruction set grammar.
type ExtInstSet struct {
	// Name is the import name used in OpExtInstImport, e.g. "GLSL.std.450".
	Name string
	// PrefixMatch means any import name starting with Name and a dot
	// selects this set (versioned names such as
	// "NonSemantic.ClspvReflection.6"), as SPIRV-Tools matches them.
	PrefixMatch  bool
	Version      int
	Revision     int
	Instructions []ExtInstInfo // sorted by opcode
	byName       []nameIndex
}

// nameIndex maps a name to an index in a sibling table; slices of it are
// sorted by name so lookups are binary searches over static data.
type nameIndex struct {
	name  string
	index uint16
}

func searchNames(t []nameIndex, name string) (int, bool) {
	i := sort.Search(len(t), func(i int) bool { return t[i].name >= name })
	if i < len(t) && t[i].name == name {
		return int(t[i].index), true
	}
	return 0, false
}

// Info returns the grammar entry of op, or nil if op is not in the grammar.
func (op Opcode) Info() *InstructionInfo {
	if int(op) >= len(opcodeIndex) {
		return nil
	}
	i := opcodeIndex[op]
	if i == noInstruction {
		return nil
	}
	return &instructions[i]
}

// DeclaresType reports whether op declares a type, as SPIRV-Tools'
// spvOpcodeGeneratesType does (InstructionInfo.DeclaresType); false for
// an opcode the grammar does not know.
func DeclaresType(op Opcode) bool {
	info := op.Info()
	return info != nil && info.DeclaresType
}

// String returns the canonical name,
// e.g. "OpTypeFloat", or "Op(9999)" for an unknown opcode.
func (op Opcode) String() string {
	if info := op.Info(); info != nil {
		return info.Name
	}
	return fmt.Sprintf("Op(%d)", uint16(op))
}

// Instructions returns every core instruction of the grammar, sorted by
// opcode. The slice is shared: do not modify it.
func Instructions() []InstructionInfo { return instructions[:] }

// LookupOpcode finds an instruction by its canonical name or an alias,
// with the "Op" prefix ("OpSDot", "OpSDotKHR").
func LookupOpcode(name string) (*InstructionInfo, bool) {
	i, ok := searchNames(instructionNames[:], name)
	if !ok {
		return nil, false
	}
	return &instructions[i], true
}

// Info returns the grammar entry of the operand kind k.
func (k OperandKind) Info() *OperandKindInfo {
	if int(k) < len(operandKinds) {
		return &operandKinds[k]
	}
	return nil
}

func (k OperandKind) String() string {
	if info := k.Info(); info != nil {
		return info.Name
	}
	return fmt.Sprintf("OperandKind(%d)", uint16(k))
}

// OperandKinds returns every operand kind, core kinds first. The slice is
// shared: do not modify it.
func OperandKinds() []OperandKindInfo { return operandKinds[:] }

// LookupOperandKind finds a core operand kind by name.
func LookupOperandKind(name string) (OperandKind, bool) {
	for i := range operandKinds {
		if operandKinds[i].Set == "" && operandKinds[i].Name == name {
			return OperandKind(i), true
		}
	}
	return 0, false
}

// Enumerant returns the enumerant of kind k with the given value. For a
// BitEnum, value must be a single bit or zero ("None").
func (k OperandKind) Enumerant(value uint32) (*Enumerant, bool) {
	info := k.Info()
	if info == nil {
		return nil, false
	}
	e := info.Enumerants
	lo, hi := 0, len(e) // hand-written search: this is on the decoder's hot path
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if e[mid].Value < value {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo < len(e) && e[lo].Value == value {
		return &e[lo], true
	}
	return nil, false
}

// LookupEnumerant finds an enumerant of kind k by canonical name or alias.
// Names are keyed by kind: "MXInt8EXT" is 4231 as a Capability and 4227 as
// an FPEncoding.
func (k OperandKind) LookupEnumerant(name string) (*Enumerant, bool) {
	info := k.Info()
	if info == nil {
		return nil, false
	}
	i, ok := searchNames(info.byName, name)
	if !ok {
		return nil, false
	}
	return &info.Enumerants[i], true
}

// ExtInstSets returns every extended instruction set grammar.
func ExtInstSets() []ExtInstSet { return extInstSets[:] }

// LookupExtInstSet returns the grammar for an OpExtInstImport name, or nil
// if spvx does not know the set. Names match as SPIRV-Tools matches them:
// exactly, or for a set with versions (PrefixMatch), its name then a dot.
func LookupExtInstSet(importName string) *ExtInstSet {
	s, _ := lookupExtInstSet(importName)
	return s
}

// Instruction returns the extended instruction with the given number.
func (s *ExtInstSet) Instruction(opcode uint32) (*ExtInstInfo, bool) {
	t := s.Instructions
	i := sort.Search(len(t), func(i int) bool { return t[i].Opcode >= opcode })
	if i < len(t) && t[i].Opcode == opcode {
		return &t[i], true
	}
	return nil, false
}

// LookupInstruction finds an extended instruction by name.
func (s *ExtInstSet) LookupInstruction(name string) (*ExtInstInfo, bool) {
	i, ok := searchNames(s.byName, name)
	if !ok {
		return nil, false
	}
	return &s.Instructions[i], true
}
