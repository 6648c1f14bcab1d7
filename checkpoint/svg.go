package checkpoint

import (
	"fmt"

	"spvx/diagram"
)

// HistogramSVG draws the scale histogram of every MX tensor of a listing
// together (diagram.ScaleHistogramSVG), titled with title and the number
// of MX tensors. It returns nil when the listing has no MX tensor.
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
	if n == 0 {
		return nil
	}
	return diagram.ScaleHistogramSVG(&h, fmt.Sprintf("%s: %d MX tensors", title, n))
}
