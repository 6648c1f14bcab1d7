package subgroup

import "fmt"

// Kind is the scalar kind of a Type.
type Kind uint8

// The kinds a SPIR-V value type can have, as far as the rule cares.
const (
	Int   Kind = iota // OpTypeInt
	Float             // OpTypeFloat
	Other             // bool, pointer, array, struct, ...: not numerical
)

// Type describes a scalar (Components 1) or vector operand or result type.
type Type struct {
	Kind       Kind
	Width      int // bits per component
	Components int // 1 for a scalar
	Signed     bool
}

// U returns the unsigned integer type of the given width and component count.
func U(width, components int) Type { return Type{Kind: Int, Width: width, Components: components} }

// Bits returns the total number of bits of one invocation's value.
func (t Type) Bits() int { return t.Width * t.Components }

// String spells the type as the CLI does: u32, i16, 2xu16, f32, 4xf16.
func (t Type) String() string {
	var k string
	switch {
	case t.Kind == Float:
		k = "f"
	case t.Kind == Other:
		k = "?"
	case t.Signed:
		k = "i"
	default:
		k = "u"
	}
	if t.Components == 1 {
		return fmt.Sprintf("%s%d", k, t.Width)
	}
	return fmt.Sprintf("%dx%s%d", t.Components, k, t.Width)
}

// Rule identifies which check of the Supported Types rule failed, in the
// order a validator applies them.
type Rule uint8

// The checks, in order (BITCAST-SHUFFLE.md "Supported types", items 3–6).
const (
	RuleResultNotNumerical  Rule = iota + 1 // Result Type is not a scalar or vector of numerical type
	RuleOperandNotNumerical                 // Operand is not a scalar or vector of numerical type
	RuleSameType                            // Operand has the same type as Result Type
	RuleTotalBits                           // total bits differ
	RuleNotInTable                          // not in the Supported Types table
)

// TypeError reports why a pair of types is not supported. Msg begins with
// the validator's wording; Detail says which side is off and why.
type TypeError struct {
	Rule   Rule
	Msg    string
	Detail string
}

func (e *TypeError) Error() string {
	if e.Detail == "" {
		return e.Msg
	}
	return e.Msg + ": " + e.Detail
}

// The validator's messages, SPIRV-Tools style.
const (
	msgResultNotNumerical  = "Result Type must be a scalar or vector of numerical type"
	msgOperandNotNumerical = "Operand must be a scalar or vector of numerical type"
	msgSameType            = "Operand must have a different type than Result Type"
	msgTotalBits           = "The total number of bits in Result Type must equal the total number of bits in Operand"
	msgNotInTable          = "Result Type and Operand type combination is not in the Supported Types table of SPV_INTEL_subgroup_bitcast_shuffle"
)

// numerical reports whether t is a scalar or vector of int or float type
// with a plausible shape (SPIR-V vectors have 2, 3, 4, 8 or 16 components).
func numerical(t Type) bool {
	if t.Kind == Other || t.Width <= 0 || t.Width > 64 {
		return false
	}
	switch t.Components {
	case 1, 2, 3, 4, 8, 16:
		return true
	}
	return false
}

// tableSide explains why one type cannot appear in the table, or "".
func tableSide(side string, t Type) string {
	switch {
	case t.Kind == Float:
		return fmt.Sprintf("%s %s is a float type; only 8-, 16-, 32- and 64-bit integers are supported", side, t)
	case t.Width != 8 && t.Width != 16 && t.Width != 32 && t.Width != 64:
		return fmt.Sprintf("%s %s has a component width of %d bits; only 8, 16, 32 and 64 are supported", side, t, t.Width)
	case t.Components == 3:
		return fmt.Sprintf("%s %s has 3 components; only scalars and vectors of 2, 4, 8 or 16 are supported", side, t)
	}
	return ""
}

// CheckSupported applies the Supported Types rule of
// SPV_INTEL_subgroup_bitcast_shuffle to an Operand type src and a Result
// Type dst: both integer scalars or vectors of 2, 4, 8 or 16 components of
// width 8, 16, 32 or 64 (either signedness), equal total bits, different
// component counts. That closed form is exactly the spec's 20-row table,
// valid both ways. It returns nil or a *TypeError naming the failed rule.
func CheckSupported(src, dst Type) error {
	switch {
	case !numerical(dst):
		return &TypeError{Rule: RuleResultNotNumerical, Msg: msgResultNotNumerical}
	case !numerical(src):
		return &TypeError{Rule: RuleOperandNotNumerical, Msg: msgOperandNotNumerical}
	case src == dst:
		return &TypeError{Rule: RuleSameType, Msg: msgSameType}
	case src.Bits() != dst.Bits():
		return &TypeError{Rule: RuleTotalBits, Msg: msgTotalBits,
			Detail: fmt.Sprintf("Result Type %s has %d bits, Operand %s has %d", dst, dst.Bits(), src, src.Bits())}
	}
	if d := tableSide("Result Type", dst); d != "" {
		return &TypeError{Rule: RuleNotInTable, Msg: msgNotInTable, Detail: d}
	}
	if d := tableSide("Operand", src); d != "" {
		return &TypeError{Rule: RuleNotInTable, Msg: msgNotInTable, Detail: d}
	}
	if src.Components == dst.Components {
		return &TypeError{Rule: RuleNotInTable, Msg: msgNotInTable,
			Detail: fmt.Sprintf("Result Type %s and Operand %s have the same number of components; use OpBitcast", dst, src)}
	}
	return nil
}
