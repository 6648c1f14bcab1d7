package main

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strings"

	"spvx/dis"
	"spvx/internal/entryinfo"
	"spvx/spirv"
)

func cmdInfo(args []string, s stdio) int {
	fs := newFlagSet("info", "spvx info [--ops] FILE...\n\n"+
		"Summarizes SPIR-V modules: header, capabilities, extensions, imports,\n"+
		"memory model, entry points (a Kernel's parameters, a GLCompute shader's\n"+
		"descriptor bindings) and instruction counts. FILE - reads stdin.", s)
	ops := fs.Bool("ops", false, "also print a per-opcode histogram")
	files, code, ok := fs.parse(args)
	if !ok {
		return code
	}
	if len(files) == 0 {
		return fs.usageErr("no input file")
	}
	out := bufio.NewWriterSize(s.out, 64<<10)
	defer out.Flush()
	status := exitOK
	var m spirv.Module // reused: decoding module after module allocates little
	for i, name := range files {
		b, release, err := readModule(name, s)
		if err == nil {
			b, err = binaryModule(b)
		}
		if err == nil {
			// Lenient, as spvx dis: an id past the bound is for a validator.
			err = spirv.DecodeOptions{Lenient: true}.DecodeInto(&m, b)
		}
		if err == nil {
			if i > 0 {
				fmt.Fprintln(out)
			}
			printInfo(out, name, &m, *ops)
		}
		if release != nil {
			release() // m views b: done with both before the next file
		}
		if err == nil {
			continue
		}
		out.Flush()
		fmt.Fprintf(s.err, "spvx info: %s: %v\n", name, pathless(err))
		status = exitRejected
	}
	return status
}

// enumName is dis.EnumName: one rule for an enumerant's name and for a
// value the grammar lacks (unreachable for a decoded module).
var enumName = dis.EnumName

func printInfo(w io.Writer, name string, m *spirv.Module, ops bool) {
	h := m.Header
	x := m.Index()
	fmt.Fprintf(w, "%s:\n", name)
	order := "little-endian"
	if h.BigEndian {
		order = "big-endian"
	}
	fmt.Fprintf(w, "  version:      %s (%s)\n", h.Version, order)
	fmt.Fprintf(w, "  generator:    %s\n", generatorText(h.Generator))
	fmt.Fprintf(w, "  bound:        %d\n", h.Bound)
	fmt.Fprintf(w, "  schema:       %d\n", h.Schema)
	var caps []string
	for _, c := range x.Capabilities {
		caps = append(caps, enumName(spirv.OperandKindCapability, uint32(c)))
	}
	fmt.Fprintf(w, "  capabilities: %s\n", listOrNone(caps))
	fmt.Fprintf(w, "  extensions:   %s\n", listOrNone(x.Extensions))
	var imports []string
	for _, in := range m.All() {
		if in.Opcode == spirv.OpExtInstImport {
			imports = append(imports, fmt.Sprintf("%%%d %q", in.ResultID, in.String(1)))
		}
	}
	fmt.Fprintf(w, "  imports:      %s\n", listOrNone(imports))
	fmt.Fprintf(w, "  memory model: %s %s\n", enumName(spirv.OperandKindAddressingModel, uint32(x.AddressingModel)),
		enumName(spirv.OperandKindMemoryModel, uint32(x.MemoryModel)))
	printEntryPoints(w, m)
	fmt.Fprintf(w, "  instructions: %d (%d words)\n", m.Len(), m.Size())
	if ops {
		counts := map[spirv.Opcode]int{}
		for _, in := range m.All() {
			counts[in.Opcode]++
		}
		type row struct {
			op spirv.Opcode
			n  int
		}
		var rows []row
		for op, n := range counts {
			rows = append(rows, row{op, n})
		}
		sort.Slice(rows, func(i, j int) bool {
			if rows[i].n != rows[j].n {
				return rows[i].n > rows[j].n
			}
			return rows[i].op < rows[j].op
		})
		fmt.Fprintln(w, "  opcodes:")
		for _, r := range rows {
			fmt.Fprintf(w, "    %7d %s\n", r.n, r.op)
		}
	}
}

// printEntryPoints lists the entry points, each Kernel's parameters and
// each GLCompute shader's bindings under it.
func printEntryPoints(w io.Writer, m *spirv.Module) {
	x := m.Index()
	fmt.Fprintf(w, "  entry points: %d\n", len(x.EntryPoints))
	entries, err := entryinfo.Describe(m)
	if err != nil {
		fmt.Fprintf(w, "    (parameters and bindings not described: %v)\n", err)
	}
	for i, ep := range x.EntryPoints {
		fmt.Fprintf(w, "    %s %q %%%d: interface %d", enumName(spirv.OperandKindExecutionModel, uint32(ep.Model)), ep.Name, ep.Function, len(ep.Interface))
		if ls, ok := ep.LocalSize(); ok {
			fmt.Fprintf(w, ", local size %dx%dx%d", ls[0], ls[1], ls[2])
		}
		fmt.Fprintln(w)
		if i < len(entries) {
			printEntryIface(w, &entries[i], "      ", false)
		}
	}
}

func listOrNone(list []string) string {
	if len(list) == 0 {
		return "(none)"
	}
	return strings.Join(list, ", ")
}

func generatorText(g uint32) string {
	return fmt.Sprintf("%s; %d (tool %d, 0x%08x)", spirv.ToolName(g>>16), g&0xFFFF, g>>16, g)
}
