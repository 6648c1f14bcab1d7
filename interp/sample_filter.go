package interp

import (
	"fmt"
	"math"

	"spvx/internal/vkformat"
	"spvx/spirv"
)

// Texel filtering, after Vulkan's "Image Operations" chapter: the
// coordinate transformations (normalized to texel space, cube face
// selection, array layer rounding), LOD computation and clamping, level
// selection, wrapping, nearest and linear filtering within a level and
// between levels, depth comparison and gather.
//
// Weights and sums are exact float64 arithmetic rounded once to the
// result type: Vulkan lets an implementation quantize the linear weights
// (to as few as 4 fraction bits), so a driver's linear results may differ
// from these in the low bits (lavapipe filters 8-bit UNORM formats in
// 8-bit fixed point; its float formats agree); nearest filtering,
// gathers and fetches are exact. Texel-space coordinates are rounded to float32, as a GPU's
// texture unit holds them (scaled). Where Vulkan lets an implementation choose, the choice is the
// "preferred" one: mipmap nearest rounds d'+0.5 up then subtracts one,
// layers round to nearest even. Cube faces on ties prefer X, then Y, then
// Z; a linear footprint crossing a cube edge reads the adjacent face, and
// at a corner the missing texel is the mean of its three neighbours.

// maxLodBias is maxSamplerLodBias: the sum of the sampler's and the
// shader's biases is clamped to it.
const maxLodBias = 16

// lookup is one lane's sampling operation.
type lookup struct {
	bi    *boundImage
	sm    *Sampler
	it    imageType
	isInt bool
	st    [3]float64 // s, t, r (a cube's face coordinates in s, t)
	layer int        // array layer (a cube's: 6*cube + face)
	off   [3]int64   // ConstOffset / Offset
	dref  float64
	face  int
}

// lodIn is what selects the LOD.
type lodIn struct {
	explicit  bool
	lod, bias float64
	minLod    float64
	dx, dy    [3]float64 // gradients of the coordinates
	rho       float64    // the scale factor, from the gradients
}

// texel is one texel's components: floats, or integer bits.
type texel struct {
	f float64
	u uint64
}

// check refuses lookups Vulkan leaves undefined.
func (lk *lookup) check(info *sampleInfo) *Fault {
	f, sm := &lk.bi.f, lk.sm
	dref := info.kind == smDref || info.kind == smDrefGather
	switch {
	case f.Kind.IsInt() != lk.isInt:
		return mismatch(f, info.sc)
	case lk.isInt && (sm.MagFilter != FilterNearest || sm.MinFilter != FilterNearest || sm.MipmapMode != MipmapNearest) && info.kind == smSample:
		return &Fault{Kind: FaultUndefined, Msg: fmt.Sprintf("linear filtering of integer format %s", vkformat.Name(f.Format))}
	case dref != sm.CompareEnable:
		return &Fault{Kind: FaultUndefined, Msg: fmt.Sprintf("a %s with a sampler whose compareEnable is %v", map[bool]string{true: "depth comparison", false: "sample without comparison"}[dref], sm.CompareEnable)}
	case lk.it.dim == spirv.DimCube && (lk.bi.layers%6 != 0 || lk.bi.dims[0] != lk.bi.dims[1]):
		return &Fault{Kind: FaultUndefined, Msg: fmt.Sprintf("cube sampling of an image of %dx%d texels and %d layers (square faces, 6 per cube)", lk.bi.dims[0], lk.bi.dims[1], lk.bi.layers)}
	case sm.UnnormalizedCoordinates && (lk.it.dim == spirv.Dim3D || lk.it.dim == spirv.DimCube || lk.it.arrayed || info.proj || info.kind != smSample || info.off >= 0 || info.gradX >= 0 || info.implicit):
		return &Fault{Kind: FaultUndefined, Msg: "unnormalized coordinates with a 3D, cube or arrayed image, a projection, offset, gradient, comparison or gather"}
	}
	return nil
}

// setCoords sets the texel-space inputs from coordinates c: a cube's
// direction picks the face, the array layer is rounded and clamped.
func (lk *lookup) setCoords(c [4]float64) {
	n := lk.it.sampleCoords()
	layers := lk.bi.layers
	if lk.it.dim == spirv.DimCube {
		lk.face, lk.st[0], lk.st[1], _ = cubeFace([3]float64{c[0], c[1], c[2]})
		layers /= 6
	} else {
		copy(lk.st[:], c[:n-boolInt(lk.it.arrayed)])
	}
	if lk.it.arrayed {
		a := math.RoundToEven(c[n-1])
		if a != a {
			a = 0
		}
		lk.layer = int(min(max(a, 0), float64(layers-1)))
	}
	if lk.it.dim == spirv.DimCube {
		lk.layer = 6*lk.layer + lk.face
	}
}

// gradients turns coordinate gradients into texel-space ones and the
// scale factor rho, for a cube through the derivative of the face
// projection.
func (lk *lookup) gradients(li *lodIn) {
	if li.explicit {
		return
	}
	dx, dy := li.dx, li.dy
	if lk.it.dim == spirv.DimCube {
		dx, dy = cubeGrad(lk.face, lk.direction(), dx), cubeGrad(lk.face, lk.direction(), dy)
	}
	w, h, d := lk.bi.levelDims(0)
	size := [3]float64{float64(w), float64(h), float64(d)}
	var rx, ry float64
	for i := range 3 {
		rx += dx[i] * size[i] * dx[i] * size[i]
		ry += dy[i] * size[i] * dy[i] * size[i]
	}
	li.rho = max(math.Sqrt(rx), math.Sqrt(ry))
}

// lambda is the LOD after bias and clamping (Vulkan's λ), and λ' before
// clamping.
func (lk *lookup) lambda(li lodIn) (lam, lamBiased float64) {
	base := li.lod
	if !li.explicit {
		base = math.Log2(li.rho)
	}
	lamBiased = base + min(max(float64(lk.sm.MipLodBias)+li.bias, -maxLodBias), maxLodBias)
	lam = min(max(lamBiased, float64(lk.sm.MinLod), li.minLod), float64(lk.sm.MaxLod))
	if lam != lam {
		lam = 0
	}
	return lam, lamBiased
}

// queryLod is OpImageQueryLod's result: the level the lookup reads
// (d' relative to the base level) and the LOD λ' before clamping.
func (lk *lookup) queryLod(li lodIn) (float64, float64) {
	lam, lb := lk.lambda(li)
	q := float64(len(lk.bi.levelOff) - 1)
	return min(max(lam, 0), q), lb
}

// sample is OpImageSample*'s value: level selection, then filtering in
// one or two levels.
func (lk *lookup) sample(li lodIn) [4]texel {
	if lk.sm.UnnormalizedCoordinates {
		return lk.filter(0, lk.sm.MagFilter)
	}
	lam, _ := lk.lambda(li)
	filter := lk.sm.MinFilter
	if lam <= 0 {
		filter = lk.sm.MagFilter
	}
	q := len(lk.bi.levelOff) - 1
	dp := min(max(lam, 0), float64(q))
	if lk.sm.MipmapMode == MipmapNearest {
		return lk.filter(int(math.Ceil(dp+0.5))-1, filter)
	}
	hi := int(math.Floor(dp))
	delta := dp - float64(hi)
	a := lk.filter(hi, filter)
	if delta == 0 {
		return a
	}
	b := lk.filter(min(hi+1, q), filter)
	for i := range a {
		a[i].f = a[i].f*(1-delta) + b[i].f*delta
	}
	return a
}

// axes is the number of texel coordinates of the image's levels.
func (lk *lookup) axes() int {
	switch lk.it.dim {
	case spirv.Dim1D:
		return 1
	case spirv.Dim3D:
		return 3
	}
	return 2
}

// scaled is the texel-space coordinate u, v, w of axis i at level lv,
// less shift (0.5 for a linear footprint), rounded once to float32 as a
// texture unit computes it (lavapipe agrees where the exact value lies
// half an ULP from a texel boundary).
func (lk *lookup) scaled(lv, i int, shift float64) float64 {
	x := lk.st[i]
	if !lk.sm.UnnormalizedCoordinates {
		w, h, d := lk.bi.levelDims(lv)
		x *= float64([3]int{w, h, d}[i])
	}
	x = float64(float32(x - shift))
	// Far outside the image every wrap mode gives the same texels as
	// some nearer coordinate; bounding keeps the integer conversions
	// defined (NaN, unspecified by Vulkan, samples as 0).
	if x != x {
		return 0
	}
	return min(max(x, -1<<40), 1<<40)
}

// filter filters level lv with filter f.
func (lk *lookup) filter(lv int, f Filter) [4]texel {
	n := lk.axes()
	var i0 [3]int64
	var alpha [3]float64
	for i := range n {
		if f == FilterNearest {
			i0[i] = int64(math.Floor(lk.scaled(lv, i, 0))) + lk.off[i]
		} else {
			u := lk.scaled(lv, i, 0.5)
			i0[i] = int64(math.Floor(u)) + lk.off[i]
			alpha[i] = u - math.Floor(u)
		}
	}
	if f == FilterNearest {
		return lk.fetch(lv, i0, true)
	}
	var sum [4]texel
	for corner := range 1 << n {
		w := 1.0
		c := i0
		for i := range n {
			if corner>>i&1 == 1 {
				c[i]++
				w *= alpha[i]
			} else {
				w *= 1 - alpha[i]
			}
		}
		t := lk.fetch(lv, c, false)
		for k := range sum {
			sum[k].f += w * t[k].f
		}
	}
	return sum
}

// fetch reads the texel at integer coordinates c of level lv after
// wrapping (a border texel outside), compared with Dref when the sampler
// compares.
func (lk *lookup) fetch(lv int, c [3]int64, nearest bool) [4]texel {
	t := lk.wrapped(lv, c, nearest)
	if lk.sm.CompareEnable {
		return [4]texel{{f: lk.compare(t[0].f)}}
	}
	return t
}

// compare is Vulkan's depth compare operation: 1 if "Dref op D" holds.
func (lk *lookup) compare(d float64) float64 {
	ref := lk.dref
	if lk.bi.f.Kind == vkformat.UNorm {
		ref = min(max(ref, 0), 1)
	}
	ok := [8]bool{false, ref < d, ref == d, ref <= d, ref > d, ref != d, ref >= d, true}[lk.sm.CompareOp&7]
	if ok {
		return 1
	}
	return 0
}

// wrapped applies the address modes (cube images: their edge rules) and
// reads the texel, or gives the border colour.
func (lk *lookup) wrapped(lv int, c [3]int64, nearest bool) [4]texel {
	w, h, d := lk.bi.levelDims(lv)
	size := [3]int64{int64(w), int64(h), int64(d)}
	if lk.it.dim == spirv.DimCube {
		return lk.cubeTexel(lv, c, size[0], nearest)
	}
	modes := [3]AddressMode{lk.sm.AddressU, lk.sm.AddressV, lk.sm.AddressW}
	for i := range lk.axes() {
		var ok bool
		if c[i], ok = wrap(c[i], size[i], modes[i]); !ok {
			return lk.border()
		}
	}
	return lk.read(lv, c, lk.layer)
}

// wrap is Vulkan's wrapping operation on integer coordinate i of an axis
// of n texels; ok is false for a border texel.
func wrap(i, n int64, m AddressMode) (int64, bool) {
	mirror := func(a int64) int64 {
		if a >= 0 {
			return a
		}
		return -(1 + a)
	}
	switch m {
	case AddressRepeat:
		return (i%n + n) % n, true
	case AddressMirroredRepeat:
		return n - 1 - mirror((i%(2*n)+2*n)%(2*n)-n), true
	case AddressClampToBorder:
		return i, i >= 0 && i < n
	case AddressMirrorClampToEdge:
		return min(max(mirror(i), 0), n-1), true
	}
	return min(max(i, 0), n-1), true
}

// read decodes the texel at in-range coordinates c of level lv, layer.
func (lk *lookup) read(lv int, c [3]int64, layer int) [4]texel {
	bi := lk.bi
	w, h, d := bi.levelDims(lv)
	i := ((int64(layer)*int64(d)+c[2])*int64(h)+c[1])*int64(w) + c[0]
	off := bi.levelOff[lv] + int(i)*bi.f.Size
	b := bi.img.Data[off : off+bi.f.Size]
	var t [4]texel
	if lk.isInt {
		v := bi.f.DecodeInt(b)
		for k := range t {
			t[k].u = v[k]
		}
		return t
	}
	v := bi.f.DecodeFloat(b)
	for k := range t {
		t[k].f = v[k]
	}
	return t
}

// border is the sampler's border colour, in the components the format
// has; the others are (0, 0, 0, 1) as for any texel of the format
// (lavapipe agrees: a transparent black border of R32f reads alpha 1).
func (lk *lookup) border() [4]texel {
	var t [4]texel
	bc := lk.sm.BorderColor
	for k := range t {
		one := k == 3 && bc >= BorderFloatOpaqueBlack || bc >= BorderFloatOpaqueWhite
		if k >= lk.bi.f.Comps {
			one = k == 3
		}
		if one {
			t[k] = texel{f: 1, u: 1}
		}
	}
	return t
}

// gather is OpImage(Dref)Gather's four texels of component comp, from
// the linear footprint at the base level in the order i0j1, i1j1, i1j0,
// i0j0; with offsets (ConstOffsets), texel k is the i0j0 texel of the
// footprint offset by offsets[k].
func (lk *lookup) gather(comp int, offs *[4][2]int64) [4]texel {
	var i0 [3]int64
	for i := range lk.axes() {
		i0[i] = int64(math.Floor(lk.scaled(0, i, 0.5))) + lk.off[i]
	}
	corners := [4][2]int64{{0, 1}, {1, 1}, {1, 0}, {0, 0}}
	var out [4]texel
	for k, cr := range corners {
		c := i0
		if offs != nil {
			c[0], c[1] = i0[0]-lk.off[0]+offs[k][0], i0[1]-lk.off[1]+offs[k][1]
		} else {
			c[0], c[1] = c[0]+cr[0], c[1]+cr[1]
		}
		t := lk.fetch(0, c, false)
		if lk.sm.CompareEnable {
			out[k] = t[0]
		} else {
			out[k] = t[comp]
		}
	}
	return out
}

// encode converts a filtered texel to the result's components.
func (lk *lookup) encode(t [4]texel, s scalar) [4]uint64 {
	var out [4]uint64
	for i := range out {
		if lk.isInt {
			out[i] = t[i].u
		} else {
			out[i] = fromF64(t[i].f, s, 0, false)
		}
	}
	return out
}
