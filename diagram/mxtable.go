package diagram

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"spvx/mx"
)

// point is one code drawn on a number line.
type point struct {
	code  uint8
	value float64
	x     float64
	kind  string // "normal", "subnormal", "max"
	label [2]string
	side  int // -1 above the axis, +1 below
	level int
}

const (
	labelFont  = 9.0
	labelLineH = labelFont + 2
	labelH     = 2*labelLineH + 2
	axisW      = 1400.0
	tickH      = 6.0
)

// valueText spells a value for a label: a power of two as 2^k when that
// is shorter than its decimal form, otherwise the shortest decimal of at
// most 4 significant digits.
func valueText(v float64) string {
	if v == 0 {
		return "0"
	}
	if fr, e := math.Frexp(v); fr == 0.5 {
		p := "2^" + strconv.Itoa(e-1)
		if d := strconv.FormatFloat(v, 'g', -1, 64); len(d) <= len(p) {
			return d
		}
		return p
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// panel is one format's number line: its points, placed.
type panel struct {
	f        mx.Format
	pts      []point
	zero     []uint8 // codes of +0 (and -0)
	specials []string
	clipLo   int // codes left of the axis (for a clipped E8M0)
	clipHi   int
	above    int // label levels above and below the axis
	below    int
}

// newPanel collects a format's positive finite codes between 2^lo and
// 2^hi (inclusive), placing them at x = x0 + (log2 v − lo)·scale.
func newPanel(f mx.Format, lo, hi, x0, scale float64) *panel {
	p := &panel{f: f}
	var nan, inf []string
	minNormal := f.MinNormal()
	for c := 0; c < f.Codes(); c++ {
		v := f.Decode(uint8(c))
		switch {
		case math.IsNaN(v):
			nan = append(nan, fmt.Sprintf("0x%02x", c))
			continue
		case math.IsInf(v, 0):
			inf = append(inf, fmt.Sprintf("%s0x%02x", map[bool]string{true: "−", false: "+"}[v < 0], c))
			continue
		case v == 0:
			p.zero = append(p.zero, uint8(c))
			continue
		case v < 0:
			continue // the negative codes mirror the positive ones
		}
		l := math.Log2(v)
		if l < lo-1e-9 {
			p.clipLo++
			continue
		}
		if l > hi+1e-9 {
			p.clipHi++
			continue
		}
		kind := "normal"
		if f.ExponentBits() > 0 && f != mx.E8M0 && v < minNormal {
			kind = "subnormal"
		}
		if uint8(c) == f.MaxCode() {
			kind = "max"
		}
		p.pts = append(p.pts, point{code: uint8(c), value: v, x: x0 + (l-lo)*scale, kind: kind,
			label: [2]string{valueText(v), fmt.Sprintf("0x%02x", c)}})
	}
	sort.Slice(p.pts, func(i, j int) bool { return p.pts[i].x < p.pts[j].x })
	if len(inf) > 0 {
		p.specials = append(p.specials, "Inf "+strings.Join(inf, " "))
	}
	if len(nan) > 0 {
		if len(nan) > 4 {
			nan = []string{nan[0], "…", nan[len(nan)-1], fmt.Sprintf("(%d codes)", len(nan))}
		}
		p.specials = append(p.specials, "NaN "+strings.Join(nan, " "))
	}
	p.place()
	return p
}

// place gives each label a side and a level: alternately above and
// below the axis, each at the lowest level whose last label ends before
// it starts, so that no two labels overlap.
func (p *panel) place() {
	const pad = 4.0
	ends := map[[2]int]float64{} // (side, level) -> right end of its last label
	for i := range p.pts {
		pt := &p.pts[i]
		w := max(TextWidth(pt.label[0], labelFont), TextWidth(pt.label[1], labelFont))
		left := pt.x - w/2
		// Prefer the side given by alternation, then the other; the
		// lowest free level wins.
		pref := -1
		if i%2 == 1 {
			pref = 1
		}
		best, bestLevel := pref, -1
		for _, side := range []int{pref, -pref} {
			for lv := 0; ; lv++ {
				if e, ok := ends[[2]int{side, lv}]; !ok || e+pad <= left {
					if bestLevel < 0 || lv < bestLevel {
						best, bestLevel = side, lv
					}
					break
				}
			}
		}
		pt.side, pt.level = best, bestLevel
		ends[[2]int{best, bestLevel}] = pt.x + w/2
		if best < 0 {
			p.above = max(p.above, bestLevel+1)
		} else {
			p.below = max(p.below, bestLevel+1)
		}
	}
}

// MXTableSVG draws the positive values of each format on a log2 number
// line, every code labelled with its value and code (labels alternate
// above and below the axis and stack when they crowd). Subnormals, the
// largest finite value, zero, and the NaN and Inf codes are marked; the
// negative codes mirror the positive ones (sign bit set). With several
// formats, they share one log2 scale for comparison: the element formats'
// range, with E8M0's scales beyond it counted at the edges.
func MXTableSVG(formats []mx.Format) []byte {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, f := range formats {
		if f == mx.E8M0 && len(formats) > 1 {
			continue
		}
		lo = math.Min(lo, math.Floor(math.Log2(f.MinSubnormal())))
		hi = math.Max(hi, math.Ceil(math.Log2(f.Max())))
	}
	if math.IsInf(lo, 1) { // E8M0 alone
		lo, hi = -127, 127
	}
	nameW := 0.0
	for _, f := range formats {
		nameW = max(nameW, TextWidth(formatName(f), headFont))
	}
	zeroW := TextWidth("0x00", labelFont) + 40
	x0 := margin + nameW + 16 + zeroW
	scale := axisW / (hi - lo)
	var panels []*panel
	for _, f := range formats {
		panels = append(panels, newPanel(f, lo, hi, x0, scale))
	}
	specialW := 0.0
	for _, p := range panels {
		for _, s := range p.specials {
			specialW = max(specialW, TextWidth(s, labelFont))
		}
		if p.clipHi > 0 {
			specialW = max(specialW, TextWidth(fmt.Sprintf("%d more up to 2^127 →", p.clipHi), labelFont))
		}
	}
	width := x0 + axisW + 24 + specialW + margin
	title := "OCP MX formats: every positive code on a log2 scale (negative codes mirror them with the sign bit)"
	if len(formats) == 1 {
		title = fmt.Sprintf("%s: every positive code on a log2 scale (negative codes mirror them with the sign bit)", formatName(formats[0]))
	}
	legend := []struct{ fill, text string }{{"#4477aa", "normal"}, {"#ee8866", "subnormal"}, {"#cc3311", "largest finite"}, {"#777777", "zero, NaN, Inf"}}
	legendW := 0.0
	for _, l := range legend {
		legendW += 18 + TextWidth(l.text, headFont) + 14
	}
	width = max(width, TextWidth(title, titleFont)+2*margin, legendW+2*margin)
	y := margin + titleFont + 10 + headFont + 16
	// The common scale's binade labels go above the first panel.
	scaleY := y
	y += headFont + 10
	type placed struct {
		p    *panel
		axis float64
	}
	var ps []placed
	for _, p := range panels {
		top := y
		axis := top + float64(p.above)*labelH + tickH + 4
		ps = append(ps, placed{p, axis})
		y = axis + tickH + 4 + float64(max(p.below, 1))*labelH + 18
	}
	var s svg
	s.start(width, y+margin, labelFont)
	s.text(margin, margin+titleFont, titleFont, "start", title, "")
	lx := margin
	ly := margin + titleFont + 10
	for _, l := range legend {
		s.rect(lx, ly, 12, 12, l.fill, "")
		s.text(lx+18, ly+10, headFont, "start", l.text, "")
		lx += 18 + TextWidth(l.text, headFont) + 14
	}
	// Binade labels, spaced so that they do not crowd.
	step := 1
	for TextWidth("2^-127", headFont)+8 > float64(step)*scale {
		step *= 2
	}
	for k := int(lo); k <= int(hi); k++ {
		if (k-int(lo))%step != 0 {
			continue
		}
		x := x0 + float64(k-int(lo))*scale
		s.text(x, scaleY+headFont, headFont, "middle", "2^"+strconv.Itoa(k), ` fill="#555"`)
		s.line(x, scaleY+headFont+3, x, y, "#e4e4e4", "")
	}
	for _, pl := range ps {
		drawPanel(&s, pl.p, pl.axis, x0, nameW, lo, hi, scale)
	}
	return s.bytes()
}

func formatName(f mx.Format) string {
	return fmt.Sprintf("%s (%s)", f, f.SPIRVName())
}

func drawPanel(s *svg, p *panel, axis, x0, nameW, lo, hi, scale float64) {
	s.text(margin, axis+headFont/2-1, headFont, "start", formatName(p.f), "")
	x1 := x0 + (hi-lo)*scale
	s.line(x0, axis, x1, axis, "#333", "")
	// Zero, left of the axis, after a break.
	if len(p.zero) > 0 {
		zx := x0 - 24
		s.line(zx, axis-tickH, zx, axis+tickH, "#777777", ` class="zero"`)
		codes := make([]string, len(p.zero))
		for i, c := range p.zero {
			codes[i] = fmt.Sprintf("0x%02x", c)
		}
		s.text(zx, axis-tickH-labelLineH-2, labelFont, "middle", "0", "")
		s.text(zx, axis-tickH-3, labelFont, "middle", codes[0], "")
		if len(codes) > 1 {
			s.text(zx, axis+tickH+labelLineH, labelFont, "middle", "−0: "+codes[1], "")
		}
		s.text(x0-10, axis+3, labelFont, "middle", "⋯", ` fill="#777"`)
	}
	colours := map[string]string{"normal": "#4477aa", "subnormal": "#ee8866", "max": "#cc3311"}
	for _, pt := range p.pts {
		c := colours[pt.kind]
		s.line(pt.x, axis-tickH, pt.x, axis+tickH, c, fmt.Sprintf(` class="%s" data-code="%d"`, pt.kind, pt.code))
		var y0 float64
		if pt.side < 0 {
			y0 = axis - tickH - 4 - float64(pt.level+1)*labelH
		} else {
			y0 = axis + tickH + 4 + float64(pt.level)*labelH
		}
		if pt.level > 0 { // a leader from the tick to a stacked label
			ly := y0 + labelH
			if pt.side > 0 {
				ly = y0
			}
			end := axis - tickH
			if pt.side > 0 {
				end = axis + tickH
			}
			s.line(pt.x, end, pt.x, ly, c, ` stroke-width="0.5" stroke-dasharray="1,1"`)
		}
		fill := ""
		if pt.kind != "normal" {
			fill = ` fill="` + c + `"`
		}
		s.text(pt.x, y0+labelLineH, labelFont, "middle", pt.label[0], fill)
		s.text(pt.x, y0+2*labelLineH, labelFont, "middle", pt.label[1], ` fill="#555"`)
	}
	// NaN, Inf and clipped counts, right of the axis.
	sx := x1 + 24
	sy := axis - float64(len(p.specials)-1)*labelLineH/2 + 3
	if p.clipHi > 0 {
		s.text(sx, axis-labelLineH-tickH, labelFont, "start", fmt.Sprintf("%d more up to 2^127 →", p.clipHi), ` fill="#777"`)
	}
	if p.clipLo > 0 {
		s.text(x0, axis+tickH+float64(max(p.below, 1))*labelH+labelLineH+4, labelFont, "start", fmt.Sprintf("← %d scales down to 2^-127 not shown", p.clipLo), ` fill="#777"`)
	}
	for i, t := range p.specials {
		class := "nan"
		if strings.HasPrefix(t, "Inf") {
			class = "inf"
		}
		s.text(sx, sy+float64(i)*labelLineH, labelFont, "start", t, ` fill="#777" class="`+class+`"`)
	}
}
