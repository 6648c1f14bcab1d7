package diagram

import (
	"fmt"
	"math"
	"strconv"
)

// ScaleHistogramSVG draws how many MX blocks have each E8M0 scale byte:
// one bar per scale 2^(s−127) between the smallest and largest in use
// (NaN, 0xFF, in red), heights proportional to the counts, the largest
// count on the y axis, and scale labels spaced so that they never crowd.
// It returns nil when every count is zero.
func ScaleHistogramSVG(counts *[256]int64, title string) []byte {
	lo, hi := -1, -1
	var most, total int64
	for s, c := range counts {
		if c > 0 {
			if lo < 0 {
				lo = s
			}
			hi = s
			most = max(most, c)
			total += c
		}
	}
	if lo < 0 {
		return nil
	}
	const plotH = 260.0
	caption := fmt.Sprintf("%s: %d blocks", title, total)
	left := margin + TextWidth(strconv.FormatInt(most, 10), headFont) + 8
	bars := hi - lo + 1
	barW := math.Max(6, math.Min(28, 900/float64(bars)))
	plotW := barW * float64(bars)
	labelW := TextWidth("2^-127", headFont)
	width := max(left+plotW+labelW/2+margin, TextWidth(caption, titleFont)+2*margin)
	top := margin + titleFont + 16
	x0, y0 := left, top+plotH
	height := y0 + 2*headFont + 20 + margin
	var s svg
	s.start(width, height, headFont)
	s.text(margin, margin+titleFont, titleFont, "start", caption, "")
	s.line(x0, top, x0, y0, "black", "")
	s.line(x0, y0, x0+plotW, y0, "black", "")
	s.text(x0-6, top+headFont*0.4, headFont, "end", strconv.FormatInt(most, 10), "")
	s.text(x0-6, y0+headFont*0.4, headFont, "end", "0", "")
	every := int(math.Ceil((labelW + 6) / barW))
	for b := lo; b <= hi; b++ {
		c := counts[b]
		x := x0 + float64(b-lo)*barW
		if c > 0 {
			fill := "#4477aa"
			if b == 0xFF {
				fill = "#cc3311"
			}
			bh := float64(c) / float64(most) * plotH
			fmt.Fprintf(&s.b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s" class="bar" data-scale="%d" data-count="%d"><title>%s: %d blocks</title></rect>`+"\n",
				x+1, y0-bh, barW-2, bh, fill, b, c, esc(scaleName(b)), c)
		}
		if (b-lo)%every == 0 {
			s.text(x+barW/2, y0+headFont+6, headFont, "middle", scaleName(b), "")
		}
	}
	s.text(x0+plotW/2, y0+2*headFont+14, headFont, "middle", "shared scale (E8M0)", "")
	return s.bytes()
}

// scaleName spells an E8M0 scale byte: 2^(s−127), or NaN for 0xFF.
func scaleName(s int) string {
	if s == 0xFF {
		return "NaN"
	}
	return "2^" + strconv.Itoa(s-127)
}
