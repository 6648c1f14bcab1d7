package checkpoint

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"math"
)

// HistogramSVG draws the scale histogram of every MX tensor of a listing
// together: one bar per scale 2^e between the smallest and the largest in
// use, heights proportional to the block counts, an axis label every few
// bars so that labels never crowd, and the counts' maximum on the y axis.
// It returns nil when the listing has no MX tensor.
func HistogramSVG(l *Listing, title string) []byte {
	var h [256]int64
	n := 0
	for _, t := range l.Tensors {
		if t.MX {
			n++
			for s, c := range t.Scales {
				h[s] += c
			}
		}
	}
	lo, hi := -1, -1
	var most, total int64
	for s, c := range h {
		if c > 0 {
			if lo < 0 {
				lo = s
			}
			hi = s
			most = max(most, c)
			total += c
		}
	}
	if n == 0 || lo < 0 {
		return nil
	}
	const (
		left, right, top, bottom = 70.0, 40.0, 50.0, 60.0
		plotH                    = 260.0
		fontPx                   = 12.0
	)
	bars := hi - lo + 1
	barW := math.Max(6, math.Min(28, 900/float64(bars)))
	plotW := barW * float64(bars)
	width := left + plotW + right
	// Titles are at most as wide as the canvas: at about 0.6 em per
	// character, width/7.2 characters fit at 12 px.
	caption := fmt.Sprintf("%s: %d MX tensors, %d blocks", title, n, total)
	minW := float64(len(caption))*fontPx*0.6 + 2*10
	if width < minW {
		width = minW
	}
	height := top + plotH + bottom
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="sans-serif" font-size="%.0f">`+"\n", width, height, width, height, fontPx)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&b, `<text x="10" y="24">%s</text>`+"\n", esc(caption))
	// y axis: 0 and the maximum count.
	x0, y0 := left, top+plotH
	fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="black"/>`+"\n", x0, top, x0, y0)
	fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="black"/>`+"\n", x0, y0, x0+plotW, y0)
	fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="end">%d</text>`+"\n", x0-6, top+4, most)
	fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="end">0</text>`+"\n", x0-6, y0+4)
	// Label every k-th bar, k chosen so labels (up to 7 characters) have room.
	every := int(math.Ceil(7 * fontPx * 0.6 / barW))
	for s := lo; s <= hi; s++ {
		c := h[s]
		x := x0 + float64(s-lo)*barW
		bh := float64(c) / float64(most) * plotH
		fill := "#4477aa"
		if s == 0xFF {
			fill = "#cc3311" // NaN scale
		}
		if c > 0 {
			fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s: %d blocks</title></rect>`+"\n",
				x+1, y0-bh, barW-2, bh, fill, esc(scaleText(s)), c)
		}
		if (s-lo)%every == 0 {
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`+"\n", x+barW/2, y0+18, esc(scaleText(s)))
		}
	}
	fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">shared scale (E8M0)</text>`+"\n", x0+plotW/2, height-14)
	b.WriteString("</svg>\n")
	return b.Bytes()
}

func esc(s string) string {
	var b bytes.Buffer
	xml.EscapeText(&b, []byte(s))
	return b.String()
}
