package diagram

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"spvx/mx"
)

func TestMXTableLabelsEveryCode(t *testing.T) {
	for _, f := range mx.Formats {
		b := MXTableSVG([]mx.Format{f})
		p := parseSVG(t, b)
		checkLayout(t, f.String(), p)
		texts := map[string]bool{}
		for _, x := range p.texts {
			for _, w := range strings.Fields(x.s) {
				texts[w] = true
			}
		}
		var subnormals, nans int
		for c := 0; c < f.Codes(); c++ {
			v := f.Decode(uint8(c))
			code := fmt.Sprintf("0x%02x", c)
			switch {
			case math.IsNaN(v):
				nans++
			case v > 0 && !math.IsInf(v, 0):
				if !texts[code] || !texts[valueText(v)] {
					t.Errorf("%s: code %s (%s) has no label", f, code, valueText(v))
				}
				if f.ExponentBits() > 0 && f != mx.E8M0 && v < f.MinNormal() {
					subnormals++
				}
			}
		}
		s := string(b)
		if got := strings.Count(s, `class="subnormal"`); got != subnormals {
			t.Errorf("%s: %d subnormal marks, want %d", f, got, subnormals)
		}
		if strings.Count(s, `class="max"`) != 1 || !strings.Contains(s, fmt.Sprintf(`class="max" data-code="%d"`, f.MaxCode())) {
			t.Errorf("%s: the largest finite code 0x%02x is not marked", f, f.MaxCode())
		}
		if (nans > 0) != strings.Contains(s, `class="nan"`) || f.HasInf() != strings.Contains(s, `class="inf"`) {
			t.Errorf("%s: NaN/Inf marks wrong", f)
		}
	}
}

func TestMXTableAll(t *testing.T) {
	b := MXTableSVG(mx.Formats)
	p := parseSVG(t, b)
	checkLayout(t, "all", p)
	for _, f := range mx.Formats {
		if !strings.Contains(string(b), formatName(f)) {
			t.Errorf("no axis for %s", f)
		}
	}
	// E8M0 is clipped to the element formats' range, with the rest counted.
	if !strings.Contains(string(b), "more up to 2^127") || !strings.Contains(string(b), "scales down to 2^-127 not shown") {
		t.Error("E8M0's clipped scales are not counted")
	}
}

var allFormats = mx.Formats

func TestScaleHistogram(t *testing.T) {
	var h [256]int64
	if ScaleHistogramSVG(&h, "none") != nil {
		t.Error("an empty histogram was drawn")
	}
	for s := 90; s < 140; s++ {
		h[s] = int64((s - 85) * 1234567)
	}
	h[0xFF] = 3
	b := ScaleHistogramSVG(&h, "model.safetensors: 12 MX tensors")
	p := parseSVG(t, b)
	checkLayout(t, "histogram", p)
	bars := 0
	for _, r := range p.rects {
		if r.attr["class"] == "bar" {
			bars++
		}
	}
	if bars != 51 || !strings.Contains(string(b), `data-scale="255" data-count="3"`) {
		t.Errorf("%d bars", bars)
	}
}
