package diagram

import (
	"errors"
	"fmt"
	"strings"

	"spvx/subgroup"
)

// Piece is a run of bits that OpSubgroupBitcastShuffleINTEL moves as a
// whole: Bits bits from the operand's invocation SrcInv, component
// SrcComp, bit SrcLo, to the result's invocation DstInv, component
// DstComp, bit DstLo.
type Piece struct {
	DstInv, DstComp, DstLo int
	SrcInv, SrcComp, SrcLo int
	Bits                   int
}

// Sources lists, per result component in (invocation, component) order,
// the operand bit ranges it is made of, from the extension's stream
// formula: the result's bit stream is the operand's, read component-major
// across invocations.
func Sources(src, dst subgroup.Type, n int) []Piece {
	var ps []Piece
	for i := range n {
		for c := range dst.Components {
			g := (c*n + i) * dst.Width
			for got := 0; got < dst.Width; {
				e := g / src.Width
				off := g % src.Width
				take := min(src.Width-off, dst.Width-got)
				ps = append(ps, Piece{i, c, got, e % n, e / n, off, take})
				got += take
				g += take
			}
		}
	}
	return ps
}

// Style selects how ShuffleSVG shows the movement.
type Style uint8

// The styles.
const (
	// Grid colours each result cell by the invocation its bits come from,
	// with a legend, and labels it with its source: a transpose shows as
	// a colour pattern.
	Grid Style = iota
	// Lines draws an arrow from each operand cell to its result cell,
	// routed through the gaps between rows and a corridor between the
	// grids so that it never crosses a box. For small cases only.
	Lines
)

// ShuffleOptions configure ShuffleSVG.
type ShuffleOptions struct {
	Style Style
	// MaxWidth is the widest the canvas may be before grids are stacked
	// and then split into tiles (0: 1800 pixels).
	MaxWidth float64
}

// MaxLinesPieces bounds the arrows the Lines style draws.
const MaxLinesPieces = 512

// MaxRowsPerTile is the most invocations one tile shows.
const MaxRowsPerTile = 64

// MaxCells bounds the cells of each grid (invocations × cells per
// invocation): 1024 invocations of 16 64-bit components. Beyond it the
// picture would be too large to read, and to build.
const MaxCells = 1 << 17

const (
	cellFont   = 9.0
	headFont   = 11.0
	titleFont  = 14.0
	cellHeight = 2*cellFont + 9
	margin     = 16.0
	compGap    = 5.0
)

// unit returns the bits per cell: a byte, or less when a width is not a
// multiple of 8 (4-bit parts), so that every piece is whole cells.
func unit(src, dst subgroup.Type) int {
	g := func(a, b int) int {
		for b != 0 {
			a, b = b, a%b
		}
		return a
	}
	return g(g(src.Width, dst.Width), 8)
}

// cell is one drawn cell of a grid.
type cell struct {
	inv, comp, lo int // this cell's own position and low bit
	srcInv        int // where its bits come from (result cells)
	label         [2]string
}

// grid is one of the two grids, laid out in tiles.
type grid struct {
	name     string // "Operand" or "Result"
	typ      subgroup.Type
	n, unit  int
	perRow   int // cells per invocation
	cells    [][]cell
	cellW    float64
	rowLabel float64 // width of the row labels
	rowGap   float64
}

func (g *grid) colX(col int) float64 {
	perComp := g.typ.Width / g.unit
	return float64(col)*g.cellW + float64(col/perComp)*compGap
}

// width of columns [c0, c1).
func (g *grid) span(c0, c1 int) float64 { return g.colX(c1-1) + g.cellW - g.colX(c0) }

// tile is a rectangle of a grid: rows [r0, r1), columns [c0, c1).
type tile struct {
	g              *grid
	r0, r1, c0, c1 int
	x, y           float64 // where it is drawn
}

const tileHead = headFont + 6 + headFont + 6 // the tile's caption and its column headers

func (t tile) width() float64 {
	return max(t.g.rowLabel+t.g.span(t.c0, t.c1), TextWidth(t.caption(), headFont))
}

func (t tile) caption() string {
	g := t.g
	c := fmt.Sprintf("%s (%s): invocations %d–%d", g.name, g.typ, t.r0, t.r1-1)
	if t.c0 > 0 || t.c1 < g.perRow {
		perComp := g.typ.Width / g.unit
		c += fmt.Sprintf(", components %d–%d", t.c0/perComp, (t.c1-1)/perComp)
	}
	return c
}
func (t tile) height() float64 {
	return t.head() + float64(t.r1-t.r0)*(cellHeight+t.g.rowGap)
}

// head is the height above the first row: the caption, the column
// headers, and a row gap (which arrows use) between them and the row.
func (t tile) head() float64 { return tileHead + t.g.rowGap }

func newGrid(name string, typ subgroup.Type, n, u int, rowGap float64) *grid {
	g := &grid{name: name, typ: typ, n: n, unit: u, perRow: typ.Bits() / u, rowGap: rowGap}
	g.cells = make([][]cell, n)
	for i := range n {
		g.cells[i] = make([]cell, g.perRow)
		for k := range g.perRow {
			comp, lo := k*u/typ.Width, k*u%typ.Width
			g.cells[i][k] = cell{inv: i, comp: comp, lo: lo, srcInv: i,
				label: [2]string{fmt.Sprintf("%d.%d", i, comp), bitRange(lo, u)}}
		}
	}
	return g
}

func bitRange(lo, bits int) string { return fmt.Sprintf("[%d:%d]", lo+bits-1, lo) }

func (g *grid) labelWidth() float64 {
	w := 0.0
	for _, row := range g.cells {
		for _, c := range row {
			w = max(w, TextWidth(c.label[0], cellFont), TextWidth(c.label[1], cellFont))
		}
	}
	return w
}

// tiles splits the grid so that each tile is at most maxW wide and
// MaxRowsPerTile tall.
func (g *grid) tiles(maxW float64) []tile {
	var cols [][2]int
	for c0 := 0; c0 < g.perRow; {
		c1 := c0 + 1
		for c1 < g.perRow && g.rowLabel+g.span(c0, c1+1) <= maxW {
			c1++
		}
		cols = append(cols, [2]int{c0, c1})
		c0 = c1
	}
	var ts []tile
	for r0 := 0; r0 < g.n; r0 += MaxRowsPerTile {
		for _, c := range cols {
			ts = append(ts, tile{g: g, r0: r0, r1: min(r0+MaxRowsPerTile, g.n), c0: c[0], c1: c[1]})
		}
	}
	return ts
}

// ShuffleSVG draws how OpSubgroupBitcastShuffleINTEL moves an operand of
// type src to a result of type dst in a subgroup of n invocations. The
// pair must be one the operation defines (equal bits per invocation);
// CheckSupported is the caller's business, so that the picture can also
// show pairs outside the Supported Types table.
func ShuffleSVG(src, dst subgroup.Type, n int, opts ShuffleOptions) ([]byte, error) {
	if n < 1 || src.Bits() != dst.Bits() || src.Width < 1 || dst.Width < 1 {
		return nil, fmt.Errorf("diagram: no shuffle from %s to %s in %d invocations", src, dst, n)
	}
	maxW := opts.MaxWidth
	if maxW == 0 {
		maxW = 1800
	}
	u := unit(src, dst)
	if cells := n * (src.Bits() / u); n > MaxCells || cells > MaxCells {
		return nil, fmt.Errorf("diagram: %d invocations of %s make %d cells a grid; at most %d can be drawn", n, src, cells, MaxCells)
	}
	rowGap := 3.0
	if opts.Style == Lines {
		rowGap = 10
	}
	op := newGrid("Operand", src, n, u, rowGap)
	res := newGrid("Result", dst, n, u, rowGap)
	pieces := Sources(src, dst, n)
	for _, p := range pieces {
		for b := 0; b < p.Bits; b += u {
			c := &res.cells[p.DstInv][(p.DstComp*dst.Width+p.DstLo+b)/u]
			c.srcInv = p.SrcInv
			c.label = [2]string{fmt.Sprintf("%d.%d", p.SrcInv, p.SrcComp), bitRange(p.SrcLo+b, u)}
		}
	}
	labelW := max(op.labelWidth(), res.labelWidth())
	rowLabel := TextWidth(fmt.Sprintf("inv %d", n-1), headFont) + 8
	op.rowLabel, res.rowLabel = rowLabel, rowLabel
	// Cells shrink from a comfortable width to the label's, then the
	// grids stack, then they split into tiles.
	preferred, minimum := labelW+16, labelW+6
	corridor := 60.0
	if opts.Style == Lines {
		corridor = 40 + 2*float64(min(len(pieces), 200))
	}
	sideBySide := func(w float64) bool {
		op.cellW, res.cellW = w, w
		a := tile{g: op, r1: n, c1: op.perRow}
		b := tile{g: res, r1: n, c1: res.perRow}
		return 2*margin+a.width()+corridor+b.width() <= maxW && n <= MaxRowsPerTile
	}
	side := false
	for w := preferred; w >= minimum; w-- {
		if sideBySide(w) {
			side = true
			break
		}
	}
	if !side {
		op.cellW, res.cellW = minimum, minimum
		for w := preferred; w > minimum; w-- {
			op.cellW, res.cellW = w, w
			if op.rowLabel+op.span(0, op.perRow) <= maxW-2*margin && res.rowLabel+res.span(0, res.perRow) <= maxW-2*margin {
				break
			}
		}
	}
	if opts.Style == Lines {
		if !side {
			return nil, errors.New("diagram: too large for the lines style (the grids do not fit side by side); use the grid style")
		}
		if len(pieces) > MaxLinesPieces {
			return nil, fmt.Errorf("diagram: %d bit ranges move; the lines style draws at most %d (use the grid style)", len(pieces), MaxLinesPieces)
		}
	}
	title := fmt.Sprintf("OpSubgroupBitcastShuffleINTEL  %s → %s, subgroup size %d", src, dst, n)
	sub := fmt.Sprintf("rows: invocations; each cell is %d bits of a component, labelled invocation.component[bits]; arrows go from operand to result", u)
	if opts.Style == Grid {
		sub = "each result cell is coloured by the invocation its bits come from, and labelled with their source"
	}
	fills, white := palette(n)
	// Layout, top to bottom: title, subtitle, legend, tiles.
	y := margin + titleFont
	var ts []tile
	width := 0.0
	legendTop := y + headFont + 14
	legendW := maxW - 2*margin
	// The legend's entries: a swatch and "inv k", wrapped to the width.
	entryW := TextWidth(fmt.Sprintf("inv %d", n-1), headFont) + 22
	perLine := max(1, int(legendW/entryW))
	legendLines := (n + perLine - 1) / perLine
	y = legendTop + float64(legendLines)*(headFont+8) + 10
	if side {
		a := tile{g: op, r0: 0, r1: n, c0: 0, c1: op.perRow, x: margin, y: y}
		b := tile{g: res, r0: 0, r1: n, c0: 0, c1: res.perRow, x: margin + a.width() + corridor, y: y}
		ts = []tile{a, b}
		width = b.x + b.width() + margin
		y += max(a.height(), b.height()) + margin
	} else {
		for _, g := range []*grid{op, res} {
			for _, t := range g.tiles(maxW - 2*margin) {
				t.x, t.y = margin, y
				ts = append(ts, t)
				width = max(width, t.x+t.width()+margin)
				y += t.height() + 12
			}
		}
		y += margin
	}
	width = max(width, TextWidth(title, titleFont)+2*margin, TextWidth(sub, headFont)+2*margin, min(float64(n), float64(perLine))*entryW+2*margin)
	var s svg
	s.start(width, y, cellFont)
	s.text(margin, margin+titleFont, titleFont, "start", title, "")
	s.text(margin, margin+titleFont+headFont+6, headFont, "start", sub, "")
	for k := range n {
		lx := margin + float64(k%perLine)*entryW
		ly := legendTop + float64(k/perLine)*(headFont+8)
		s.rect(lx, ly, 12, 12, fills[k], fmt.Sprintf(` class="legend" data-inv="%d" stroke="#333" stroke-width="0.5"`, k))
		s.text(lx+16, ly+10, headFont, "start", fmt.Sprintf("inv %d", k), "")
	}
	for _, t := range ts {
		drawTile(&s, t, fills, white)
	}
	if opts.Style == Lines {
		drawLines(&s, ts[0], ts[1], pieces, u, fills)
	}
	return s.bytes(), nil
}

func drawTile(s *svg, t tile, fills []string, white []bool) {
	g := t.g
	s.text(t.x, t.y+headFont, headFont, "start", t.caption(), ` fill="#222"`)
	gx := t.x + g.rowLabel
	top := t.y + t.head()
	// Component headers over each component's cells in this tile.
	perComp := g.typ.Width / g.unit
	for c := t.c0 / perComp; c <= (t.c1-1)/perComp; c++ {
		a, b := max(c*perComp, t.c0), min((c+1)*perComp, t.c1)
		x0, x1 := gx+g.colX(a)-g.colX(t.c0), gx+g.colX(b-1)-g.colX(t.c0)+g.cellW
		label := fmt.Sprintf("comp %d", c)
		if TextWidth(label, headFont) > x1-x0 {
			label = fmt.Sprint(c)
		}
		if TextWidth(label, headFont) <= x1-x0 {
			s.text((x0+x1)/2, top-5-g.rowGap, headFont, "middle", label, "")
		}
	}
	for i := t.r0; i < t.r1; i++ {
		y := top + float64(i-t.r0)*(cellHeight+g.rowGap)
		s.text(gx-6, y+cellHeight/2+headFont/2-1, headFont, "end", fmt.Sprintf("inv %d", i), "")
		for k := t.c0; k < t.c1; k++ {
			c := g.cells[i][k]
			x := gx + g.colX(k) - g.colX(t.c0)
			class := "src"
			if g.name == "Result" {
				class = "dst"
			}
			s.rect(x, y, g.cellW, cellHeight, fills[c.srcInv], fmt.Sprintf(` class="%s" data-cell="%d.%d.%d" stroke="white" stroke-width="1"`, class, c.inv, c.comp, c.lo))
			col := "black"
			if white[c.srcInv] {
				col = "white"
			}
			s.text(x+g.cellW/2, y+cellFont+3, cellFont, "middle", c.label[0], ` fill="`+col+`"`)
			s.text(x+g.cellW/2, y+2*cellFont+5, cellFont, "middle", c.label[1], ` fill="`+col+`"`)
		}
	}
}

// drawLines routes an arrow per piece: down from the operand cell into
// the gap below its row, along the gap to the corridor between the
// grids, along the corridor to the gap above the result row, along it to
// the result cell, and down into it. Gaps and the corridor hold no boxes.
func drawLines(s *svg, a, b tile, pieces []Piece, u int, fills []string) {
	s.b.WriteString(`<defs><marker id="arrow" viewBox="0 0 6 6" refX="6" refY="3" markerWidth="6" markerHeight="6" orient="auto"><path d="M0,0 L6,3 L0,6 z" fill="#333"/></marker></defs>` + "\n")
	ga, gb := a.g, b.g
	rowY := func(t tile, i int) float64 { return t.y + t.head() + float64(i)*(cellHeight+t.g.rowGap) }
	corrL := a.x + a.width() + 8
	corrR := b.x + gb.rowLabel - 8
	var path strings.Builder
	for k, p := range pieces {
		sc := (p.SrcComp*ga.typ.Width + p.SrcLo) / u
		dc := (p.DstComp*gb.typ.Width + p.DstLo) / u
		sx := a.x + ga.rowLabel + ga.colX(sc) + ga.span(sc, sc+p.Bits/u)/2
		dx := b.x + gb.rowLabel + gb.colX(dc) + gb.span(dc, dc+p.Bits/u)/2
		// Spread the arrows over the gaps and the corridor.
		f := float64(k+1) / float64(len(pieces)+1)
		sy := rowY(a, p.SrcInv) + cellHeight
		gapS := sy + ga.rowGap*(0.2+0.6*f)
		dy := rowY(b, p.DstInv)
		gapD := dy - gb.rowGap*(0.2+0.6*f)
		cx := corrL + (corrR-corrL)*f
		path.Reset()
		fmt.Fprintf(&path, "M%.1f,%.1f V%.1f H%.1f V%.1f H%.1f V%.1f", sx, sy, gapS, cx, gapD, dx, dy)
		fmt.Fprintf(&s.b, `<path d="%s" fill="none" stroke="%s" stroke-width="1.2" marker-end="url(#arrow)" class="arrow" data-piece="%d"/>`+"\n",
			path.String(), fills[p.SrcInv], k)
	}
}
