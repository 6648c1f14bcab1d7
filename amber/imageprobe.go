package amber

import (
	"fmt"
	"math"
	"strings"
)

// ProbeCommand is EXPECT buf IDX x y SIZE w h EQ_RGB(A) r g b [a]: every
// texel of the rectangle, the buffer read as a Width × Height image, must
// equal the colour (given 0..255, kept divided by 255 as amber does)
// within the tolerances (amber's default: 0.002 absolute).
type ProbeCommand struct {
	Buffer     *Buffer
	X, Y, W, H uint32
	RGBA       bool
	Color      [4]float64
	Tolerances []Tolerance
	Text       string
	Line       int
}

// Pos implements Command.
func (c *ProbeCommand) Pos() int { return c.Line }

// defaultTexelTolerance is amber's kDefaultTexelTolerance.
const defaultTexelTolerance = 0.002

// imageProbe parses the rest of EXPECT … IDX x y after the Y value, as
// amber's ParseExpect does for a probe rectangle.
func (p *amberParser) imageProbe(buf *Buffer, x, y uint32, line int) (*ProbeCommand, error) {
	pc := &ProbeCommand{Buffer: buf, X: x, Y: y, Line: line}
	t := p.z.next() // SIZE
	dims := []*uint32{&pc.W, &pc.H}
	for i, name := range []string{"width", "height"} {
		t = p.z.next()
		v, ok := t.uintUpTo(math.MaxInt32)
		if t.kind != tokInt || !ok || v == 0 {
			return nil, errAt(t.line, "invalid %s in EXPECT command: %s", name, t.show())
		}
		*dims[i] = uint32(v)
	}
	t = p.z.next()
	if t.kind != tokIdent {
		return nil, errAt(t.line, "invalid token in EXPECT command:%s", t.show())
	}
	switch t.text {
	case "EQ_RGBA":
		pc.RGBA = true
	case "EQ_RGB":
	default:
		return nil, errAt(t.line, "unknown comparator type in EXPECT: %s", t.show())
	}
	n := 3
	if pc.RGBA {
		n = 4
	}
	for i := 0; i < n; i++ {
		t = p.z.next()
		v, ok := t.uintUpTo(255)
		if t.kind != tokInt || !ok {
			return nil, errAt(t.line, "invalid %c value in EXPECT command: %s", "RGBA"[i], t.show())
		}
		pc.Color[i] = float64(float32(v) / 255)
	}
	t = p.z.next()
	if t.isIdent("TOLERANCE") {
		tols, err := parseTolerances(p.z)
		if err != nil {
			return nil, err
		}
		switch {
		case len(tols) == 0:
			return nil, errAt(t.line, "TOLERANCE specified but no tolerances provided")
		case !pc.RGBA && len(tols) > 3:
			return nil, errAt(t.line, "TOLERANCE for an RGB comparison has a maximum of 3 values")
		case len(tols) > 4:
			return nil, errAt(t.line, "TOLERANCE for an RGBA comparison has a maximum of 4 values")
		}
		pc.Tolerances = tols
		t = p.z.next()
	}
	if !t.isEnd() {
		return nil, errAt(t.line, "extra parameters after EXPECT command: %s", t.show())
	}
	return pc, nil
}

// texelChannels names the components of one texel of format f in memory
// order: an image format's letters (BGRA), RGBA for a data type, and R
// for a packed format, whose one component is the packed word (amber's
// Format has one segment for it).
func texelChannels(f *Format) string {
	t := f.Type
	if t.Packed || t.Channels == "" {
		return "RGBA"
	}
	return t.Channels
}

// texelScale is what amber divides a component by (ScaleTexelValuesIfNeeded):
// 2^b-1 for UNORM and SRGB, 2^(b-1)-1 for SNORM, else 1.
func texelScale(t *Type, bits int) float64 {
	switch t.Mode {
	case "UNORM", "SRGB":
		return float64(uint64(1)<<bits - 1)
	case "SNORM":
		return float64(uint64(1)<<(bits-1) - 1)
	}
	return 1
}

// texelRGBA reads the texel at data as amber's verifier does: its
// components converted to doubles and scaled, placed by channel name
// (has says which were present).
func texelRGBA(f *Format, data []byte) (rgba [4]float64, has [4]bool) {
	ch := texelChannels(f)
	for i, c := range f.Comps {
		if i >= len(ch) || ch[i] == 'X' {
			continue
		}
		k := strings.IndexByte("RGBA", ch[i])
		if k < 0 {
			// a depth component: amber's verifier reads only R, G, B and A
			continue
		}
		n := get(data[c.Off:], c.Scalar)
		v := n.f
		switch n.kind {
		case Int:
			v = float64(n.i)
		case Uint:
			v = float64(n.u)
		}
		if !f.Type.Packed {
			v /= texelScale(f.Type, c.Bits)
			if f.Type.Mode == "SRGB" && ch[i] != 'A' {
				v = srgbToLinear(v)
			}
		}
		rgba[k], has[k] = v, true
	}
	return rgba, has
}

func srgbToLinear(s float64) float64 {
	if s <= 0.04045 {
		return s / 12.92
	}
	return math.Pow((s+0.055)/1.055, 2.4)
}

// probeImage checks a ProbeCommand against the buffer's bytes, as
// amber's Verifier::Probe with its messages.
func probeImage(pc *ProbeCommand, data []byte, file string) *Failure {
	b := pc.Buffer
	fail := &Failure{File: file, Line: pc.Line, Command: pc.Text, Buffer: b.Name}
	w, h, _ := b.Image.Size()
	if uint64(pc.X)+uint64(pc.W) > uint64(w) || uint64(pc.Y)+uint64(pc.H) > uint64(h) {
		fail.Msg = fmt.Sprintf("Line %d: Verifier::Probe Position(%d, %d) is out of framebuffer scope (%d,%d)",
			pc.Line, pc.X+pc.W-1, pc.Y+pc.H-1, w, h)
		return fail
	}
	f := b.Format
	if need := uint64(w) * uint64(h) * uint64(f.Stride); need > uint64(len(data)) {
		fail.Msg = fmt.Sprintf("Line %d: Verifier::Probe buffer %s holds %d bytes, a %d×%d image needs %d", pc.Line, b.Name, len(data), w, h, need)
		return fail
	}
	tol, pct := pc.tolerances()
	bad, first := 0, [2]uint32{}
	var firstVal [4]float64
	for j := uint32(0); j < pc.H; j++ {
		for i := uint32(0); i < pc.W; i++ {
			at := (int(pc.Y+j)*int(w) + int(pc.X+i)) * f.Stride
			v, has := texelRGBA(f, data[at:])
			if pc.texelEqual(v, has, tol, pct) {
				continue
			}
			if bad == 0 {
				first, firstVal = [2]uint32{pc.X + i, pc.Y + j}, v
			}
			bad++
		}
	}
	if bad == 0 {
		return nil
	}
	fail.Msg = pc.failureText(first, firstVal, bad, normalized(f.Type))
	return fail
}

// tolerances are the per-channel tolerances: four given, one for all, or
// amber's default.
func (pc *ProbeCommand) tolerances() (tol [4]float64, pct [4]bool) {
	for i := range tol {
		tol[i] = defaultTexelTolerance
		if n := len(pc.Tolerances); n > 0 {
			t := pc.Tolerances[0]
			if n == 4 {
				t = pc.Tolerances[i]
			}
			tol[i], pct[i] = t.Value, t.Percent
		}
	}
	return tol, pct
}

// texelEqual compares the channels the texel has (alpha only for
// EQ_RGBA); amber measures a percentage against the actual value.
func (pc *ProbeCommand) texelEqual(v [4]float64, has [4]bool, tol [4]float64, pct [4]bool) bool {
	for k := 0; k < 4; k++ {
		if !has[k] || (k == 3 && !pc.RGBA) {
			continue
		}
		if !equalWithTolerance(pc.Color[k], v[k], tol[k], pct[k]) {
			return false
		}
	}
	return true
}

func normalized(t *Type) bool {
	return !t.Packed && (t.Mode == "UNORM" || t.Mode == "SNORM" || t.Mode == "SRGB")
}

// failureText is amber's report of a failed probe; values are shown
// times 255 for normalized formats.
func (pc *ProbeCommand) failureText(at [2]uint32, got [4]float64, bad int, norm bool) string {
	scale, n := 1.0, 3
	if norm {
		scale = 255
	}
	if pc.RGBA {
		n = 4
	}
	list := func(v [4]float64) string {
		s := make([]string, n)
		for i := range s {
			s[i] = fmt.Sprintf("%f", float32(v[i]*scale))
		}
		return strings.Join(s, ", ")
	}
	return fmt.Sprintf("Line %d: Probe failed at: %d, %d\n  Expected: %s\n    Actual: %s\nProbe failed in %d pixels",
		pc.Line, at[0], at[1], list(pc.Color), list(got), bad)
}
