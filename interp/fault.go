package interp

import (
	"fmt"
	"strings"

	"spvx/spirv"
)

// formatInst prints instruction i of m as "%id = OpName operands...":
// ids as %N (or %name), literals as numbers, strings quoted.
func formatInst(m *spirv.Module, i int) string {
	in := m.Inst(i)
	var b strings.Builder
	names := m.Index().Names
	id := func(v uint32) string {
		if n, ok := names[v]; ok && n != "" && !strings.ContainsAny(n, " \t\"") {
			return "%" + n
		}
		return fmt.Sprintf("%%%d", v)
	}
	if in.ResultID != 0 {
		b.WriteString(id(in.ResultID))
		b.WriteString(" = ")
	}
	b.WriteString(in.Opcode.String())
	if in.TypeID != 0 {
		b.WriteString(" " + id(in.TypeID))
	}
	for k, o := range in.Operands {
		if o.Kind == spirv.OperandKindIdResult || o.Kind == spirv.OperandKindIdResultType {
			continue
		}
		w := in.OperandWords(k)
		if len(w) == 0 {
			continue
		}
		info := o.Kind.Info()
		switch {
		case o.Kind == spirv.OperandKindLiteralString:
			fmt.Fprintf(&b, " %q", in.String(k))
		case info != nil && info.Category == spirv.CategoryID:
			b.WriteString(" " + id(w[0]))
		case info != nil && (info.Category == spirv.CategoryValueEnum || info.Category == spirv.CategoryBitEnum):
			name := ""
			for _, e := range info.Enumerants {
				if e.Value == w[0] {
					name = e.Name
					break
				}
			}
			if name == "" {
				name = fmt.Sprint(w[0])
			}
			b.WriteString(" " + name)
		default:
			for _, x := range w {
				fmt.Fprintf(&b, " %d", x)
			}
		}
		if b.Len() > 200 {
			b.WriteString(" ...")
			break
		}
	}
	return b.String()
}

// describe names instruction i for compile errors.
func (c *compiler) describe(i int) string {
	return fmt.Sprintf("instruction %d (%s) in function %s", i, formatInst(c.m, i), c.fnName(c.curFnID))
}
