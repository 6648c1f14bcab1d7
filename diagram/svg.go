// Package diagram draws spvx's pictures: where OpSubgroupBitcastShuffleINTEL
// moves each bit (ShuffleSVG), the values of the OCP MX formats on a log2
// axis (MXTableSVG), and a self-contained HTML report of an Amber run
// (RunReport).
//
// Every picture is laid out before it is drawn: each text's box is
// estimated (TextWidth), the canvas is made large enough for all of them,
// and labels that would overlap are moved (staggered rows, alternate
// sides) or the picture is split into tiles. The tests read the SVGs back
// and check exactly that: well-formed XML, every text inside the canvas,
// no two labels overlapping, and the meaning (each shuffle cell's colour
// is the invocation its bits come from).
package diagram

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"math"
	"unicode/utf8"
)

// charWidth is the advance of one character in em: a generous estimate
// for sans-serif digits, letters and brackets, so that estimated boxes
// contain the rendered text.
const charWidth = 0.62

// TextWidth estimates the width in pixels of s at a font size of size
// pixels.
func TextWidth(s string, size float64) float64 {
	return float64(utf8.RuneCountInString(s)) * size * charWidth
}

// svg accumulates one SVG document.
type svg struct {
	b    bytes.Buffer
	w, h float64
}

func (s *svg) start(w, h float64, fontSize float64) {
	s.w, s.h = math.Ceil(w), math.Ceil(h)
	fmt.Fprintf(&s.b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="DejaVu Sans, Arial, sans-serif" font-size="%g">`+"\n",
		s.w, s.h, s.w, s.h, fontSize)
	fmt.Fprintf(&s.b, `<rect width="%.0f" height="%.0f" fill="white"/>`+"\n", s.w, s.h)
}

// text draws s with its anchor at (x, y) (the baseline), at size pixels;
// anchor is "start", "middle" or "end". extra is added inside the tag.
func (s *svg) text(x, y, size float64, anchor, str, extra string) {
	fmt.Fprintf(&s.b, `<text x="%.1f" y="%.1f" font-size="%g" text-anchor="%s"%s>%s</text>`+"\n", x, y, size, anchor, extra, esc(str))
}

func (s *svg) rect(x, y, w, h float64, fill, extra string) {
	fmt.Fprintf(&s.b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"%s/>`+"\n", x, y, w, h, fill, extra)
}

func (s *svg) line(x1, y1, x2, y2 float64, stroke, extra string) {
	fmt.Fprintf(&s.b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s"%s/>`+"\n", x1, y1, x2, y2, stroke, extra)
}

func (s *svg) bytes() []byte {
	s.b.WriteString("</svg>\n")
	return s.b.Bytes()
}

func esc(s string) string {
	var b bytes.Buffer
	xml.EscapeText(&b, []byte(s))
	return b.String()
}

// palette returns n distinct fill colours, and for each whether text on
// it should be white. Up to 10 come from a qualitative palette that stays
// apart for colour-blind readers; beyond, hues are spread around the
// circle, alternating light and dark so that neighbours differ.
func palette(n int) (fills []string, whiteText []bool) {
	base := []string{"#4477aa", "#ee6677", "#228833", "#ccbb44", "#66ccee", "#aa3377", "#bbbbbb", "#ee8866", "#44bb99", "#994455"}
	for i := 0; i < n; i++ {
		var r, g, b float64
		if n <= len(base) {
			var ri, gi, bi int
			fmt.Sscanf(base[i], "#%02x%02x%02x", &ri, &gi, &bi)
			r, g, b = float64(ri)/255, float64(gi)/255, float64(bi)/255
		} else {
			h := float64(i) / float64(n)
			l := 0.42
			if i%2 == 1 {
				l = 0.68
			}
			r, g, b = hsl(h, 0.65, l)
		}
		fills = append(fills, fmt.Sprintf("#%02x%02x%02x", int(r*255+0.5), int(g*255+0.5), int(b*255+0.5)))
		whiteText = append(whiteText, 0.2126*r+0.7152*g+0.0722*b < 0.45)
	}
	return fills, whiteText
}

func hsl(h, s, l float64) (r, g, b float64) {
	c := (1 - math.Abs(2*l-1)) * s
	hp := h * 6
	x := c * (1 - math.Abs(math.Mod(hp, 2)-1))
	switch int(hp) % 6 {
	case 0:
		r, g = c, x
	case 1:
		r, g = x, c
	case 2:
		g, b = c, x
	case 3:
		g, b = x, c
	case 4:
		r, b = x, c
	default:
		r, b = c, x
	}
	m := l - c/2
	return r + m, g + m, b + m
}
