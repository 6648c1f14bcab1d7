package diagram

import (
	"bytes"
	"encoding/xml"
	"io"
	"math"
	"strconv"
	"strings"
	"testing"
)

// parsed is what the checks read back from an SVG.
type parsed struct {
	w, h  float64
	texts []textBox
	rects []rectEl
	paths []pathEl
}

type textBox struct {
	x0, y0, x1, y1 float64
	s              string
}

type rectEl struct {
	x, y, w, h float64
	attr       map[string]string
}

type pathEl struct {
	d    string
	attr map[string]string
}

func attrs(se xml.StartElement) map[string]string {
	m := map[string]string{}
	for _, a := range se.Attr {
		m[a.Name.Local] = a.Value
	}
	return m
}

func num(t *testing.T, s string) float64 {
	if s == "" {
		return 0
	}
	v, err := strconv.ParseFloat(strings.TrimSuffix(s, "px"), 64)
	if err != nil {
		t.Fatalf("bad number %q", s)
	}
	return v
}

// parseSVG reads an SVG back, failing on malformed XML, and estimates
// every text's box from its font size, anchor and length (TextWidth; a
// glyph spans 0.8 em above the baseline and 0.2 below).
func parseSVG(t *testing.T, b []byte) parsed {
	t.Helper()
	var p parsed
	d := xml.NewDecoder(bytes.NewReader(b))
	fontSize := 16.0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("malformed SVG: %v", err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		a := attrs(se)
		switch se.Name.Local {
		case "svg":
			p.w, p.h = num(t, a["width"]), num(t, a["height"])
			if a["font-size"] != "" {
				fontSize = num(t, a["font-size"])
			}
		case "rect":
			if a["width"] == "100%" {
				continue
			}
			p.rects = append(p.rects, rectEl{num(t, a["x"]), num(t, a["y"]), num(t, a["width"]), num(t, a["height"]), a})
		case "path":
			p.paths = append(p.paths, pathEl{a["d"], a})
		case "text":
			var s string
			if err := d.DecodeElement(&s, &se); err != nil {
				t.Fatal(err)
			}
			size := fontSize
			if a["font-size"] != "" {
				size = num(t, a["font-size"])
			}
			x, y, w := num(t, a["x"]), num(t, a["y"]), TextWidth(s, size)
			x0 := x
			switch a["text-anchor"] {
			case "middle":
				x0 = x - w/2
			case "end":
				x0 = x - w
			}
			p.texts = append(p.texts, textBox{x0, y - 0.8*size, x0 + w, y + 0.2*size, s})
		}
	}
	if p.w <= 0 || p.h <= 0 {
		t.Fatal("SVG without a size")
	}
	return p
}

// checkLayout requires every text inside the canvas and no two texts
// overlapping.
func checkLayout(t *testing.T, name string, p parsed) {
	t.Helper()
	const eps = 0.01
	for _, b := range p.texts {
		if b.x0 < -eps || b.y0 < -eps || b.x1 > p.w+eps || b.y1 > p.h+eps {
			t.Errorf("%s: text %q at [%.1f,%.1f]-[%.1f,%.1f] outside the %gx%g canvas", name, b.s, b.x0, b.y0, b.x1, b.y1, p.w, p.h)
			return
		}
	}
	// Bucket the boxes on a coarse grid so that the check stays fast for
	// thousands of labels.
	const cell = 64.0
	buckets := map[[2]int][]int{}
	for i, b := range p.texts {
		for gx := int(b.x0 / cell); gx <= int(b.x1/cell); gx++ {
			for gy := int(b.y0 / cell); gy <= int(b.y1/cell); gy++ {
				for _, j := range buckets[[2]int{gx, gy}] {
					o := p.texts[j]
					if b.x0 < o.x1-eps && o.x0 < b.x1-eps && b.y0 < o.y1-eps && o.y0 < b.y1-eps {
						t.Errorf("%s: texts %q and %q overlap", name, o.s, b.s)
						return
					}
				}
				buckets[[2]int{gx, gy}] = append(buckets[[2]int{gx, gy}], i)
			}
		}
	}
}

func TestTextWidthIsGenerous(t *testing.T) {
	// DejaVu Sans advances: digits 0.636 em, '[' 0.39, 'i' 0.278, 'W' 0.99.
	// The estimate must cover the typical labels, which are digits,
	// brackets, dots and short words.
	if w := TextWidth("[31:24]", 10); w < 7*0.55*10 {
		t.Errorf("TextWidth = %v", w)
	}
	if math.Abs(TextWidth("ab", 10)-2*charWidth*10) > 1e-9 {
		t.Error("TextWidth is not per character")
	}
}
