package main

import (
	"bytes"
	"errors"
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
		opts := diagram.ShuffleOptions{}
		switch *style {
		case "grid":
		case "lines":
			opts.Style = diagram.Lines
		default:
			return fs.usageErr(fmt.Sprintf("--style %q: want grid or lines", *style))
		}
		pic, err := diagram.ShuffleSVG(src, dst, *n, opts)
		if err != nil {
			return fail(s, "shuffle", err)
		}
		if err := writeOutput(*svg, s, pic); err != nil {
			return fail(s, "shuffle", err)
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
	if *asJSON {
		out.WriteByte('[')
	}
	for i := range *n {
		row := result[i*dst.Components : (i+1)*dst.Components]
		parts := make([]string, len(row))
		for c, v := range row {
			parts[c] = formatComponent(v, dst)
		}
		if *asJSON {
			if i > 0 {
				out.WriteByte(',')
			}
			fmt.Fprintf(&out, "[%s]", strings.Join(parts, ","))
		} else {
			fmt.Fprintf(&out, "%d: %s\n", i, strings.Join(parts, ","))
		}
	}
	if *asJSON {
		out.WriteString("]\n")
	}
	s.out.Write(out.Bytes())
	return exitOK
}

// parseShuffleType reads u32, i16, 2xu16, 16xu8; f16/f32/f64 (and KxfW)
// parse so that the validator's rule can reject them with its own message.
func parseShuffleType(t string) (subgroup.Type, error) {
	typ := subgroup.Type{Components: 1}
	rest := strings.ToLower(t)
	if k, elem, ok := strings.Cut(rest, "x"); ok {
		c, err := strconv.Atoi(k)
		if err != nil || c < 1 || c > 16 {
			return typ, fmt.Errorf("bad component count in %q", t)
		}
		typ.Components, rest = c, elem
	}
	if rest == "" {
		return typ, fmt.Errorf("bad type %q", t)
	}
	switch rest[0] {
	case 'u':
		typ.Kind = subgroup.Int
	case 'i', 's':
		typ.Kind, typ.Signed = subgroup.Int, true
	case 'f':
		typ.Kind = subgroup.Float
	default:
		return typ, fmt.Errorf("bad type %q: want uW, iW or KxuW such as u32 or 2xu16", t)
	}
	w, err := strconv.Atoi(rest[1:])
	if err != nil || w < 1 || w > 64 {
		return typ, fmt.Errorf("bad width in %q", t)
	}
	typ.Width = w
	return typ, nil
}

// parseValues reads "a,b;c,d" into flat [invocation·C + component] data.
func parseValues(v string, t subgroup.Type, n int) ([]uint64, error) {
	rows := strings.Split(strings.TrimSpace(v), ";")
	if len(rows) != n {
		return nil, fmt.Errorf("--values has %d invocations, --subgroup is %d", len(rows), n)
	}
	out := make([]uint64, 0, n*t.Components)
	for i, r := range rows {
		comps := strings.Split(r, ",")
		if len(comps) != t.Components {
			return nil, fmt.Errorf("invocation %d has %d components, %s has %d", i, len(comps), t, t.Components)
		}
		for _, c := range comps {
			x, err := parseComponent(strings.TrimSpace(c), t)
			if err != nil {
				return nil, fmt.Errorf("invocation %d: %v", i, err)
			}
			out = append(out, x)
		}
	}
	return out, nil
}

// parseComponent reads one component value of t as its W-bit pattern. A
// decimal value must lie in the type's range: [0, 2^W-1] for uW (so no
// negative number), [-2^(W-1), 2^(W-1)-1] for iW. A hex or octal value
// (0x..., 0...) is a bit pattern for either signedness, as in the
// assembler, and must fit W bits.
func parseComponent(c string, t subgroup.Type) (uint64, error) {
	w := uint(t.Width)
	mask := uint64(1)<<w - 1
	if w == 64 {
		mask = ^uint64(0)
	}
	digits := strings.TrimLeft(c, "+-")
	pattern := len(digits) > 1 && digits[0] == '0'
	if strings.HasPrefix(c, "-") {
		v, err := strconv.ParseInt(c, 0, 64)
		if errors.Is(err, strconv.ErrRange) {
			return 0, fmt.Errorf("%s does not fit %d bits", c, w)
		}
		if err != nil {
			return 0, fmt.Errorf("bad value %q", c)
		}
		if v == 0 {
			return 0, nil
		}
		if !t.Signed {
			return 0, fmt.Errorf("%s is negative, but %s is unsigned", c, typeName(t))
		}
		if pattern {
			return 0, fmt.Errorf("%s: a hex or octal value is a bit pattern and cannot be negative", c)
		}
		if w < 64 && v < -(1<<(w-1)) {
			return 0, fmt.Errorf("%s does not fit %s (at least %d)", c, typeName(t), -(int64(1) << (w - 1)))
		}
		return uint64(v) & mask, nil
	}
	v, err := strconv.ParseUint(strings.TrimPrefix(c, "+"), 0, 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return 0, fmt.Errorf("%s does not fit %d bits", c, w)
		}
		return 0, fmt.Errorf("bad value %q", c)
	}
	max := mask
	if t.Signed && !pattern {
		max = mask >> 1
	}
	if v > max {
		if max == mask {
			return 0, fmt.Errorf("%s does not fit %d bits", c, w)
		}
		return 0, fmt.Errorf("%s does not fit %s (at most %d; write the bit pattern in hex)", c, typeName(t), max)
	}
	return v, nil
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
