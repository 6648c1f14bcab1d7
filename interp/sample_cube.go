package interp

import "math"

// Cube maps: Vulkan's "Cube Map Face Selection" table and its edge
// handling. A face's coordinates are sc = sgnS*r[axS], tc = sgnT*r[axT]
// over the major axis r[axM], s = (sc/|ma| + 1)/2, t likewise.

// cubeAxes is the table of face selection, by face (+X, -X, +Y, -Y, +Z,
// -Z): the axes and signs of sc and tc, and the major axis.
var cubeAxes = [6]struct {
	axS, axT, axM int
	sgnS, sgnT    float64
}{
	{2, 1, 0, -1, -1}, {2, 1, 0, 1, -1},
	{0, 2, 1, 1, 1}, {0, 2, 1, 1, -1},
	{0, 1, 2, 1, -1}, {0, 1, 2, -1, -1},
}

// cubeFace selects the face of direction r and its s, t coordinates.
func cubeFace(r [3]float64) (face int, s, t, ma float64) {
	ax, ay, az := math.Abs(r[0]), math.Abs(r[1]), math.Abs(r[2])
	switch {
	case ax >= ay && ax >= az:
		face = 0
	case ay >= az:
		face = 2
	default:
		face = 4
	}
	f := cubeAxes[face]
	if math.Signbit(r[f.axM]) {
		face++
		f = cubeAxes[face]
	}
	ma = math.Abs(r[f.axM])
	s = (f.sgnS*r[f.axS]/ma + 1) / 2
	t = (f.sgnT*r[f.axT]/ma + 1) / 2
	return face, s, t, ma
}

// direction is the direction the lookup's face and s, t stand for, with
// a major axis of length 1.
func (lk *lookup) direction() [3]float64 {
	return faceDir(lk.face, 2*lk.st[0]-1, 2*lk.st[1]-1)
}

// faceDir inverts the face table: the direction of face coordinates sc,
// tc on face.
func faceDir(face int, sc, tc float64) [3]float64 {
	f := cubeAxes[face]
	var r [3]float64
	r[f.axM] = 1 - 2*float64(face&1)
	r[f.axS], r[f.axT] = f.sgnS*sc, f.sgnT*tc
	return r
}

// cubeGrad is the gradient of the face's s, t for a gradient g of the
// direction r: the derivative of (sc/|ma| + 1)/2.
func cubeGrad(face int, r, g [3]float64) [3]float64 {
	f := cubeAxes[face]
	ma := math.Abs(r[f.axM])
	dma := g[f.axM] * (1 - 2*float64(face&1))
	d := func(ax int, sgn float64) float64 {
		return (sgn*g[ax]*ma - sgn*r[ax]*dma) / (2 * ma * ma)
	}
	return [3]float64{d(f.axS, f.sgnS), d(f.axT, f.sgnT)}
}

// cubeTexel reads texel (i, j) of the lookup's face at level lv (faces
// of n by n texels). Nearest filtering clamps to the face; a linear
// footprint's texel beyond an edge is the adjacent face's texel there,
// and beyond a corner the mean of the three texels around it.
func (lk *lookup) cubeTexel(lv int, c [3]int64, n int64, nearest bool) [4]texel {
	in := func(x int64) bool { return x >= 0 && x < n }
	cl := func(x int64) int64 { return min(max(x, 0), n-1) }
	base := lk.layer - lk.face
	switch {
	case nearest || in(c[0]) && in(c[1]):
		return lk.read(lv, [3]int64{cl(c[0]), cl(c[1])}, lk.layer)
	case !in(c[0]) && !in(c[1]):
		a := lk.read(lv, [3]int64{cl(c[0]), cl(c[1])}, lk.layer)
		b := lk.adjacent(lv, c[0], cl(c[1]), n, base)
		e := lk.adjacent(lv, cl(c[0]), c[1], n, base)
		for k := range a {
			a[k].f = (a[k].f + b[k].f + e[k].f) / 3
		}
		return a
	}
	return lk.adjacent(lv, c[0], c[1], n, base)
}

// adjacent reads the texel across an edge from texel (i, j) of the
// lookup's face, projecting its centre's direction onto the next face.
func (lk *lookup) adjacent(lv int, i, j, n int64, base int) [4]texel {
	r := faceDir(lk.face, 2*(float64(i)+0.5)/float64(n)-1, 2*(float64(j)+0.5)/float64(n)-1)
	face, s, t, _ := cubeFace(r)
	cl := func(x float64) int64 { return min(max(int64(math.Floor(x*float64(n))), 0), n-1) }
	return lk.read(lv, [3]int64{cl(s), cl(t)}, base+face)
}
