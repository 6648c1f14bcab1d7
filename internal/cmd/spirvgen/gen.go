package main

import (
	"bytes"
	"fmt"
	"go/format"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// generator turns a merged model into the Go source of spirv/grammar_gen.go.
type generator struct {
	m        *model
	buf      bytes.Buffer
	kindIdx  map[string]int   // core operand kind name -> index
	setKinds []map[string]int // per ext set: its own kinds -> index
	kinds    []kindEntry      // every operand kind, in table order
	idents   map[string]bool  // Go identifiers already emitted
}

type kindEntry struct {
	set  int // -1 for core
	kind *jsonOperandKind
}

func generate(m *model) ([]byte, error) {
	g := &generator{m: m, kindIdx: map[string]int{}, idents: map[string]bool{}}
	for i := range m.core.OperandKinds {
		k := &m.core.OperandKinds[i]
		g.kindIdx[k.Kind] = len(g.kinds)
		g.kinds = append(g.kinds, kindEntry{-1, k})
	}
	for si := range m.sets {
		local := map[string]int{}
		for i := range m.sets[si].grammar.OperandKinds {
			k := &m.sets[si].grammar.OperandKinds[i]
			local[k.Kind] = len(g.kinds)
			g.kinds = append(g.kinds, kindEntry{si, k})
		}
		g.setKinds = append(g.setKinds, local)
	}
	if err := g.emit(); err != nil {
		return nil, err
	}
	out, err := format.Source(g.buf.Bytes())
	if err != nil {
		return nil, fmt.Errorf("formatting generated code: %v", err)
	}
	return out, nil
}

func (g *generator) p(format string, args ...any) { fmt.Fprintf(&g.buf, format, args...) }

// ident turns a grammar name into an exported Go identifier fragment.
func ident(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

func (g *generator) declare(name string) error {
	if g.idents[name] {
		return fmt.Errorf("generated identifier %s is declared twice", name)
	}
	g.idents[name] = true
	return nil
}

// declaresTypeFixes are the instructions where SPIRV-Tools'
// spvOpcodeGeneratesType, a hand-kept list that its assembler, binary
// parser and disassembler follow, differs from the grammar's class. spvx
// behaves as those tools do.
var declaresTypeFixes = map[string]bool{
	"OpTypeNodePayloadArrayAMDX": true,  // class "Reserved"
	"OpTypeTaskSequenceALTERA":   true,  // class "@exclude" (alias OpTypeTaskSequenceINTEL)
	"OpTypeBufferSurfaceINTEL":   false, // class "Type-Declaration", not in SPIRV-Tools' list
}

// declaresType reports whether in declares a type: a "Type-Declaration"
// with a result (so not OpTypeForwardPointer, which gives a pointer type
// declared elsewhere its storage class, nor OpTypeStructContinuedINTEL),
// corrected by declaresTypeFixes.
func declaresType(in jsonInstruction, hasResult bool) bool {
	if v, ok := declaresTypeFixes[in.OpName]; ok {
		return v
	}
	return hasResult && in.Class == "Type-Declaration"
}

func parseVersion(s string, dflt string) (string, error) {
	switch s {
	case "":
		return dflt, nil
	case "None":
		return "VersionNone", nil
	}
	maj, min, ok := strings.Cut(s, ".")
	a, err1 := strconv.Atoi(maj)
	b, err2 := strconv.Atoi(min)
	if !ok || err1 != nil || err2 != nil {
		return "", fmt.Errorf("bad version %q", s)
	}
	return fmt.Sprintf("0x%06x", a<<16|b<<8), nil
}

func quantifier(q string) (string, error) {
	switch q {
	case "":
		return "One", nil
	case "?":
		return "Optional", nil
	case "*":
		return "Variadic", nil
	}
	return "", fmt.Errorf("bad quantifier %q", q)
}

// kindRef names operand kind `name` as seen from set si (-1: core).
func (g *generator) kindRef(name string, si int) (string, error) {
	if si >= 0 {
		if i, ok := g.setKinds[si][name]; ok {
			return fmt.Sprintf("OperandKind(%d)", i), nil
		}
	}
	if _, ok := g.kindIdx[name]; ok {
		return "OperandKind" + ident(name), nil
	}
	return "", fmt.Errorf("unknown operand kind %q", name)
}

func (g *generator) operands(ops []jsonOperand, si int) (string, error) {
	if len(ops) == 0 {
		return "nil", nil
	}
	var b strings.Builder
	b.WriteString("[]OperandInfo{")
	for _, o := range ops {
		k, err := g.kindRef(o.Kind, si)
		if err != nil {
			return "", err
		}
		q, err := quantifier(o.Quantifier)
		if err != nil {
			return "", err
		}
		name := strings.Trim(o.Name, "'")
		fmt.Fprintf(&b, "{%s, %s, %q},", k, q, name)
	}
	b.WriteString("}")
	return b.String(), nil
}

func (g *generator) capabilities(names []string) (string, error) {
	if len(names) == 0 {
		return "nil", nil
	}
	caps := g.kinds[g.kindIdx["Capability"]].kind
	var b strings.Builder
	b.WriteString("[]Capability{")
	for _, n := range names {
		found := false
		for _, e := range caps.Enumerants {
			if e.Enumerant == n || contains(e.Aliases, n) {
				fmt.Fprintf(&b, "Capability%s,", ident(e.Enumerant))
				found = true
				break
			}
		}
		if !found {
			return "", fmt.Errorf("unknown capability %q", n)
		}
	}
	b.WriteString("}")
	return b.String(), nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func strs(list []string) string {
	if len(list) == 0 {
		return "nil"
	}
	var b strings.Builder
	b.WriteString("[]string{")
	for _, s := range list {
		fmt.Fprintf(&b, "%q,", s)
	}
	b.WriteString("}")
	return b.String()
}

func category(c string) (string, error) {
	switch c {
	case "BitEnum", "ValueEnum", "Literal", "Composite":
		return "Category" + c, nil
	case "Id":
		return "CategoryID", nil
	}
	return "", fmt.Errorf("bad operand kind category %q", c)
}

func (g *generator) emit() error {
	m := g.m
	g.p("// Code generated by spirvgen from the SPIR-V grammar; DO NOT EDIT.\n\n")
	g.p("// Grammar: SPIR-V %d.%d revision %d.\n", m.core.MajorVersion, m.core.MinorVersion, m.core.Revision)
	g.p("// Inputs (SHA-256):\n")
	for _, in := range m.inputs {
		g.p("//   %s %s\n", in.sha256, in.name)
	}
	g.p("\npackage spirv\n\n")
	g.p("// The grammar revision the tables were generated from.\n")
	g.p("const (\n\tGrammarMajorVersion = %d\n\tGrammarMinorVersion = %d\n\tGrammarRevision = %d\n)\n\n",
		m.core.MajorVersion, m.core.MinorVersion, m.core.Revision)
	g.p("// GrammarInputs lists the files the tables were generated from, with the\n// SHA-256 of each, so a stale table is easy to spot.\n")
	g.p("var GrammarInputs = [...]struct{ File, SHA256 string }{\n")
	for _, in := range m.inputs {
		g.p("\t{%q, %q},\n", in.name, in.sha256)
	}
	g.p("}\n\n")

	// Instructions, sorted by opcode.
	insts := append([]jsonInstruction(nil), m.core.Instructions...)
	sort.SliceStable(insts, func(i, j int) bool { return insts[i].Opcode < insts[j].Opcode })
	for i := 1; i < len(insts); i++ {
		if insts[i].Opcode == insts[i-1].Opcode {
			return fmt.Errorf("opcode %d is used by %s and %s", insts[i].Opcode, insts[i-1].OpName, insts[i].OpName)
		}
	}
	g.p("// Opcodes of every instruction of the grammar, aliases included.\nconst (\n")
	for _, in := range insts {
		if err := g.declare(in.OpName); err != nil {
			return err
		}
		g.p("\t%s Opcode = %d\n", ident(in.OpName), in.Opcode)
		for _, a := range in.Aliases {
			if err := g.declare(a); err != nil {
				return err
			}
			g.p("\t%s Opcode = %d // alias of %s\n", ident(a), in.Opcode, in.OpName)
		}
	}
	g.p(")\n\n")

	// Operand kinds of the core grammar.
	g.p("// Core operand kinds. Kinds declared by extended instruction sets follow\n// them in the table and have no names here.\nconst (\n")
	for i, k := range g.kinds {
		if k.set >= 0 {
			break
		}
		name := "OperandKind" + ident(k.kind.Kind)
		if err := g.declare(name); err != nil {
			return err
		}
		g.p("\t%s OperandKind = %d\n", name, i)
	}
	g.p(")\n\n")

	// Enum types and their enumerants.
	for _, k := range g.kinds {
		if k.set >= 0 || (k.kind.Category != "ValueEnum" && k.kind.Category != "BitEnum") {
			continue
		}
		tn := ident(k.kind.Kind)
		if err := g.declare(tn); err != nil {
			return err
		}
		g.p("// %s is a value of the %s operand kind (%s).\ntype %s uint32\n\n", tn, k.kind.Kind, k.kind.Category, tn)
		g.p("// Enumerants of %s.\nconst (\n", tn)
		for _, e := range k.kind.Enumerants {
			n := tn + ident(e.Enumerant)
			if err := g.declare(n); err != nil {
				return err
			}
			g.p("\t%s %s = 0x%x\n", n, tn, uint32(e.Value))
			for _, a := range e.Aliases {
				an := tn + ident(a)
				if g.idents[an] {
					continue
				}
				g.declare(an)
				g.p("\t%s %s = 0x%x // alias of %s\n", an, tn, uint32(e.Value), e.Enumerant)
			}
		}
		g.p(")\n\n")
	}

	// The instruction table.
	g.p("var instructions = [...]InstructionInfo{\n")
	for _, in := range insts {
		ops, err := g.operands(in.Operands, -1)
		if err != nil {
			return fmt.Errorf("%s: %v", in.OpName, err)
		}
		caps, err := g.capabilities(in.Capabilities)
		if err != nil {
			return fmt.Errorf("%s: %v", in.OpName, err)
		}
		ver, err := parseVersion(in.Version, "0x010000")
		if err != nil {
			return fmt.Errorf("%s: %v", in.OpName, err)
		}
		last, err := parseVersion(in.LastVersion, "0")
		if err != nil {
			return fmt.Errorf("%s: %v", in.OpName, err)
		}
		hasResult, hasType := false, false
		idsOnly := true
		for i, o := range in.Operands {
			hasResult = hasResult || o.Kind == "IdResult"
			hasType = hasType || o.Kind == "IdResultType"
			isID := g.kinds[g.kindIdx[o.Kind]].kind.Category == "Id"
			last := i == len(in.Operands)-1
			if !isID || o.Quantifier == "?" || (o.Quantifier == "*" && !last) {
				idsOnly = false
			}
		}
		g.p("\t{Name: %q, Opcode: %d, Class: %q, Operands: %s, Capabilities: %s, Extensions: %s, Version: %s, LastVersion: %s, Aliases: %s, Provisional: %v, FromOverlay: %v, HasResult: %v, HasType: %v, IDsOnly: %v, DeclaresType: %v},\n",
			in.OpName, in.Opcode, in.Class, ops, caps, strs(in.Extensions), ver, last, strs(in.Aliases),
			in.Provisional, m.overlay["op:"+in.OpName], hasResult, hasType, idsOnly, declaresType(in, hasResult))
	}
	g.p("}\n\n")

	maxOp := int(insts[len(insts)-1].Opcode)
	if len(insts) >= 0xFFFF || maxOp > 0xFFFF {
		return fmt.Errorf("instruction table too large")
	}
	g.p("const noInstruction = 0xFFFF\n\n")
	g.p("// opcodeIndex maps an opcode to its row in instructions, or noInstruction.\nvar opcodeIndex = [%d]uint16{", maxOp+1)
	row := map[int]int{}
	for i, in := range insts {
		row[int(in.Opcode)] = i
	}
	for op := 0; op <= maxOp; op++ {
		if op%16 == 0 {
			g.p("\n")
		}
		if r, ok := row[op]; ok {
			g.p("%d,", r)
		} else {
			g.p("noInstruction,")
		}
	}
	g.p("\n}\n\n")

	var names []nameRow
	for i, in := range insts {
		names = append(names, nameRow{in.OpName, i})
		for _, a := range in.Aliases {
			names = append(names, nameRow{a, i})
		}
	}
	g.p("var instructionNames = [...]nameIndex%s\n\n", nameTable(names))

	// The operand kind table.
	g.p("var operandKinds = [...]OperandKindInfo{\n")
	for _, k := range g.kinds {
		cat, err := category(k.kind.Category)
		if err != nil {
			return err
		}
		set := ""
		if k.set >= 0 {
			set = m.sets[k.set].name
		}
		g.p("\t{Name: %q, Category: %s, Set: %q", k.kind.Kind, cat, set)
		if len(k.kind.Bases) > 0 {
			g.p(", Bases: []OperandKind{")
			for _, b := range k.kind.Bases {
				r, err := g.kindRef(b, k.set)
				if err != nil {
					return err
				}
				g.p("%s,", r)
			}
			g.p("}")
		}
		if len(k.kind.Enumerants) > 0 {
			enums := append([]jsonEnumerant(nil), k.kind.Enumerants...)
			sort.SliceStable(enums, func(i, j int) bool { return enums[i].Value < enums[j].Value })
			g.p(",\n\t\tEnumerants: []Enumerant{\n")
			var names []nameRow
			for i, e := range enums {
				ps, err := g.operands(e.Parameters, k.set)
				if err != nil {
					return fmt.Errorf("%s %s: %v", k.kind.Kind, e.Enumerant, err)
				}
				caps, err := g.capabilities(e.Capabilities)
				if err != nil {
					return fmt.Errorf("%s %s: %v", k.kind.Kind, e.Enumerant, err)
				}
				ver, err := parseVersion(e.Version, "0x010000")
				if err != nil {
					return err
				}
				last, err := parseVersion(e.LastVersion, "0")
				if err != nil {
					return err
				}
				g.p("\t\t\t{Name: %q, Value: 0x%x, Aliases: %s, Parameters: %s, Capabilities: %s, Extensions: %s, Version: %s, LastVersion: %s, Provisional: %v, FromOverlay: %v},\n",
					e.Enumerant, uint32(e.Value), strs(e.Aliases), ps, caps, strs(e.Extensions), ver, last,
					e.Provisional, k.set < 0 && m.overlay["enum:"+k.kind.Kind+":"+e.Enumerant])
				names = append(names, nameRow{e.Enumerant, i})
				for _, a := range e.Aliases {
					names = append(names, nameRow{a, i})
				}
			}
			g.p("\t\t},\n\t\tbyName: []nameIndex%s", nameTable(names))
		}
		g.p("},\n")
	}
	g.p("}\n\n")

	// Extended instruction sets.
	g.p("var extInstSets = [...]ExtInstSet{\n")
	for si, s := range m.sets {
		ext := append([]jsonInstruction(nil), s.grammar.Instructions...)
		sort.SliceStable(ext, func(i, j int) bool { return ext[i].Opcode < ext[j].Opcode })
		g.p("\t{Name: %q, PrefixMatch: %v, Version: %d, Revision: %d,\n\t\tInstructions: []ExtInstInfo{\n", s.name, s.prefix, s.grammar.Version, s.grammar.Revision)
		var names []nameRow
		for i, in := range ext {
			ops, err := g.operands(in.Operands, si)
			if err != nil {
				return fmt.Errorf("%s %s: %v", s.name, in.OpName, err)
			}
			capNames := in.Capabilities
			if in.Capability != "" {
				capNames = append(capNames, in.Capability)
			}
			caps, err := g.capabilities(capNames)
			if err != nil {
				return fmt.Errorf("%s %s: %v", s.name, in.OpName, err)
			}
			g.p("\t\t\t{Name: %q, Opcode: %d, Operands: %s, Capabilities: %s, Extensions: %s},\n", in.OpName, in.Opcode, ops, caps, strs(in.Extensions))
			names = append(names, nameRow{in.OpName, i})
		}
		g.p("\t\t},\n\t\tbyName: []nameIndex%s},\n", nameTable(names))
	}
	g.p("}\n")
	return nil
}

type nameRow struct {
	name  string
	index int
}

func nameTable(rows []nameRow) string {
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].name < rows[j].name })
	var b strings.Builder
	b.WriteString("{")
	for i, r := range rows {
		if i > 0 && rows[i-1].name == r.name {
			continue // an alias equal to another entry's name; the first wins
		}
		fmt.Fprintf(&b, "{%q, %d},", r.name, r.index)
	}
	b.WriteString("}")
	return b.String()
}
