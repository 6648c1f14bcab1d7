package main

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"spvx/diagram"
	"spvx/subgroup"
)

const shuffleUsage = "spvx shuffle --from T --to T --subgroup N [--values V] [--json] [--svg FILE]"

// runShuffle explores OpSubgroupBitcastShuffleINTEL.
func runShuffle(args []string, s stdio) int {
	fs := newFlagSet("shuffle", shuffleUsage, s)
	from := fs.String("from", "", "Operand `TYPE`: u8 u16 u32 u64, i8 ... i64, or KxuW / KxiW such as 2xu16")
	to := fs.String("to", "", "Result `TYPE`, spelled like --from")
	n := fs.Int("subgroup", 0, "subgroup size `N` (at least 1)")
	values := fs.String("values", "", "operand data: invocations separated by ';', components by ',' (decimal in the type's range, or 0x hex bit patterns)")
	asJSON := fs.Bool("json", false, "with --values, print the result as a JSON array of arrays")
	svg := fs.String("svg", "", "draw where each result bit comes from into `FILE`")
	style := fs.String("style", "grid", "picture style: grid (result cells coloured by source invocation) or lines (arrows; small cases)")
	pos, code, ok := fs.parse(args)
	if !ok {
		return code
	}
	if len(pos) > 0 || *from == "" || *to == "" || *n == 0 {
		return fs.usageErr("--from, --to and --subgroup are required and no positional arguments are taken")
	}
	if *n < 1 || *n > 1<<16 {
		return fs.usageErr(fmt.Sprintf("--subgroup %d: want 1 to 65536", *n))
	}
	src, err := parseShuffleType(*from)
	if err != nil {
		return fs.usageErr("--from: " + err.Error())
	}
	dst, err := parseShuffleType(*to)
	if err != nil {
		return fs.usageErr("--to: " + err.Error())
	}
	if err := subgroup.CheckSupported(src, dst); err != nil {
		return fail(s, "shuffle", err)
	}
	if *svg != "" {
		if code, ok := drawShuffle(fs, *svg, *style, src, dst, *n); !ok {
			return code
		}
	}
	var out bytes.Buffer
	if *values == "" {
		writeSources(&out, src, dst, *n)
		s.out.Write(out.Bytes())
		return exitOK
	}
	data, err := parseValues(*values, src, *n)
	if err != nil {
		return fail(s, "shuffle", err)
	}
	result := make([]uint64, *n*dst.Components)
	if err := subgroup.BitcastShuffle(result, data, src, dst, *n); err != nil {
		return fail(s, "shuffle", err)
	}
	writeShuffled(&out, result, dst, *n, *asJSON)
	s.out.Write(out.Bytes())
	return exitOK
}

// drawShuffle writes --svg's picture of where each result bit of the
// shuffle comes from, in --style.
func drawShuffle(fs *cmdFlags, file, style string, src, dst subgroup.Type, n int) (code int, ok bool) {
	opts := diagram.ShuffleOptions{}
	switch style {
	case "grid":
	case "lines":
		opts.Style = diagram.Lines
	default:
		return fs.usageErr(fmt.Sprintf("--style %q: want grid or lines", style)), false
	}
	pic, err := diagram.ShuffleSVG(src, dst, n, opts)
	if err == nil {
		err = writeOutput(file, fs.s, pic)
	}
	if err != nil {
		return fail(fs.s, "shuffle", err), false
	}
	return 0, true
}

// writeShuffled writes the n invocations' results of type dst: one line
// each ("I: c0,c1"), or with asJSON one array of arrays.
func writeShuffled(out *bytes.Buffer, result []uint64, dst subgroup.Type, n int, asJSON bool) {
	if asJSON {
		out.WriteByte('[')
	}
	for i := range n {
		row := result[i*dst.Components : (i+1)*dst.Components]
		parts := make([]string, len(row))
		for c, v := range row {
			parts[c] = formatComponent(v, dst)
		}
		if asJSON {
			if i > 0 {
				out.WriteByte(',')
			}
			fmt.Fprintf(out, "[%s]", strings.Join(parts, ","))
		} else {
			fmt.Fprintf(out, "%d: %s\n", i, strings.Join(parts, ","))
		}
	}
	if asJSON {
		out.WriteString("]\n")
	}
}

// typeName names a component type: u8, i32.
func typeName(t subgroup.Type) string {
	if t.Signed {
		return "i" + strconv.Itoa(t.Width)
	}
	return "u" + strconv.Itoa(t.Width)
}

// formatComponent prints a component in decimal, signed for iW types.
func formatComponent(v uint64, t subgroup.Type) string {
	if t.Signed && t.Width < 64 && v>>(uint(t.Width)-1)&1 == 1 {
		return strconv.FormatInt(int64(v)-int64(1)<<uint(t.Width), 10)
	}
	if t.Signed {
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatUint(v, 10)
}

// writeSources prints where every result bit range comes from.
func writeSources(out *bytes.Buffer, src, dst subgroup.Type, n int) {
	fmt.Fprintf(out, "# %s -> %s, subgroup size %d: result bits <- operand bits\n", src, dst, n)
	fmt.Fprintf(out, "%-10s %-9s %-8s    %-10s %-9s %s\n", "invocation", "component", "bits", "invocation", "component", "bits")
	for _, p := range diagram.Sources(src, dst, n) {
		fmt.Fprintf(out, "%-10d %-9d %-8s <- %-10d %-9d %s\n", p.DstInv, p.DstComp, bitRange(p.DstLo, p.Bits), p.SrcInv, p.SrcComp, bitRange(p.SrcLo, p.Bits))
	}
}

func bitRange(lo, bits int) string { return fmt.Sprintf("[%d:%d]", lo+bits-1, lo) }
