package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"spvx/internal/entryinfo"
	"spvx/spirv"
)

// printEntryIface writes e's parameters (Kernel) or bindings (GLCompute),
// one aligned row each, every row starting with indent. With hints, each
// row ends with the spvx run flag that supplies it.
func printEntryIface(w io.Writer, e *entryinfo.Entry, indent string, hints bool) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	defer tw.Flush()
	if e.Model == spirv.ExecutionModelKernel && len(e.Params) == 0 {
		fmt.Fprintf(tw, "%s(no parameters)\n", indent)
	}
	if e.Model == spirv.ExecutionModelGLCompute && len(e.Bindings) == 0 && e.Push == nil {
		fmt.Fprintf(tw, "%s(no bindings)\n", indent)
	}
	for _, p := range e.Params {
		fmt.Fprintf(tw, "%sarg %d\t%s\t%s\t%s", indent, p.Index, orID(p.Name, p.ID), p.Type, paramPlace(&p))
		if hints {
			fmt.Fprintf(tw, "\t%s", paramHint(&p))
		}
		fmt.Fprintln(tw)
	}
	for _, b := range e.Bindings {
		fmt.Fprintf(tw, "%sbinding %d:%d\t%s\t%s\t%s", indent, b.Set, b.Binding, orID(b.Name, b.ID), descriptorText(&b),
			enumName(spirv.OperandKindStorageClass, uint32(b.Storage)))
		if b.Size != (entryinfo.Size{}) {
			fmt.Fprintf(tw, ", %s", b.Size)
		}
		if hints && (b.Storage == spirv.StorageClassStorageBuffer || b.Storage == spirv.StorageClassUniform) {
			fmt.Fprintf(tw, "\t--buffer %d:%d=FILE[:SIZE]", b.Set, b.Binding)
		} else if hints && isImageDescriptor(b.Descriptor) {
			fmt.Fprintf(tw, "\t--image %d:%d=FILE:FORMAT:WxHxD", b.Set, b.Binding)
			if hasSampler(b.Descriptor) {
				fmt.Fprintf(tw, " --sampler %d:%d=KEY=VALUE,...", b.Set, b.Binding)
			}
		} else if hints && hasSampler(b.Descriptor) {
			fmt.Fprintf(tw, "\t--sampler %d:%d=KEY=VALUE,...", b.Set, b.Binding)
		}
		fmt.Fprintln(tw)
	}
	if p := e.Push; p != nil {
		fmt.Fprintf(tw, "%spush constants\t%s\t\tPushConstant, %s", indent, orID(p.Name, p.ID), p.Size)
		if hints {
			fmt.Fprint(tw, "\t--push FILE")
		}
		fmt.Fprintln(tw)
	}
}

func orID(name string, id uint32) string {
	if name == "" {
		return fmt.Sprintf("%%%d", id)
	}
	return name
}

// paramPlace is a parameter's address space, or how it is passed.
func paramPlace(p *entryinfo.Param) string {
	switch {
	case p.ByVal:
		return fmt.Sprintf("%s, by value (%s)", enumName(spirv.OperandKindStorageClass, uint32(p.Storage)), p.Size)
	case p.Pointer:
		return enumName(spirv.OperandKindStorageClass, uint32(p.Storage))
	}
	return fmt.Sprintf("by value (%s)", p.Size)
}

// paramHint is the --arg form kernelArg accepts for p.
func paramHint(p *entryinfo.Param) string {
	switch {
	case p.ByVal:
		return fmt.Sprintf("--arg %d=FILE", p.Index)
	case p.Pointer && p.Storage == spirv.StorageClassWorkgroup:
		return fmt.Sprintf("--arg %d=local:SIZE", p.Index)
	case p.Pointer:
		return fmt.Sprintf("--arg %d=FILE[:SIZE]", p.Index)
	}
	if _, _, ok := parseTyped(p.Type, "0"); ok {
		return fmt.Sprintf("--arg %d=%s:VALUE", p.Index, p.Type)
	}
	return "(spvx run takes only scalars by value)"
}

// descriptorText is b's descriptor type, with the array length of an
// array of descriptors ([] for a runtime array).
func descriptorText(b *entryinfo.Binding) string {
	switch b.Count {
	case 1:
		return b.Descriptor
	case 0:
		return b.Descriptor + " []"
	}
	return fmt.Sprintf("%s [%d]", b.Descriptor, b.Count)
}

// listArgs is spvx run --list-args: what each compute entry point (or the
// one --entry names) needs from the command line.
func listArgs(s stdio, m *spirv.Module, name, entry string) int {
	es, err := entryinfo.Describe(m)
	if err != nil {
		return fail(s, "run", fmt.Errorf("%s: %w", name, err))
	}
	found := false
	for i := range es {
		e := &es[i]
		compute := e.Model == spirv.ExecutionModelKernel || e.Model == spirv.ExecutionModelGLCompute
		if !compute || entry != "" && e.Name != entry {
			continue
		}
		found = true
		fmt.Fprintf(s.out, "%s %q:\n", enumName(spirv.OperandKindExecutionModel, uint32(e.Model)), e.Name)
		printEntryIface(s.out, e, "  ", true)
	}
	if found {
		return exitOK
	}
	if entry != "" {
		return fail(s, "run", fmt.Errorf("%s: no GLCompute or Kernel entry point named %q", name, entry))
	}
	return fail(s, "run", fmt.Errorf("%s: the module has no GLCompute or Kernel entry point", name))
}
