package subgroup

import (
	"errors"
	"fmt"
)

// ErrShape reports an invalid subgroup size, width, or slice length.
var ErrShape = errors.New("subgroup: invalid shape")

// BitcastShuffle computes OpSubgroupBitcastShuffleINTEL for a subgroup of n
// invocations: src holds the Operand of type srcT and dst receives the
// Result of type dstT, both flat [invocation·Components + component] (see
// the package documentation). Widths may be 1 to 64 bits; the per-invocation
// sizes must be equal. It does not apply CheckSupported, so a validator and
// an explorer can both use it; it does not allocate.
func BitcastShuffle(dst, src []uint64, srcT, dstT Type, n int) error {
	ws, cs, wd, cd := srcT.Width, srcT.Components, dstT.Width, dstT.Components
	switch {
	case n < 1:
		return fmt.Errorf("%w: subgroup size %d, want at least 1", ErrShape, n)
	case ws < 1 || ws > 64 || wd < 1 || wd > 64 || cs < 1 || cd < 1:
		return fmt.Errorf("%w: widths must be 1 to 64 bits and component counts at least 1 (%s to %s)", ErrShape, srcT, dstT)
	case ws*cs != wd*cd:
		return fmt.Errorf("%w: Operand %s has %d bits per invocation, Result Type %s has %d", ErrShape, srcT, ws*cs, dstT, wd*cd)
	case len(src) < n*cs:
		return fmt.Errorf("%w: operand data holds %d components, %d invocations of %s need %d", ErrShape, len(src), n, srcT, n*cs)
	case len(dst) < n*cd:
		return fmt.Errorf("%w: result buffer holds %d components, %d invocations of %s need %d", ErrShape, len(dst), n, dstT, n*cd)
	}
	switch {
	case ws == wd:
		shuffleSame(dst, src, ws, cs, n)
	case ws%wd == 0 && n%(ws/wd) == 0:
		splitSlots(dst[:n*cd], src[:n*cs], ws, cs, wd, cd, n)
	case wd%ws == 0 && n%(wd/ws) == 0:
		mergeSlots(dst[:n*cd], src[:n*cs], ws, cs, wd, cd, n)
	case ws%wd == 0:
		shuffleSplit(dst, src, ws, cs, wd, cd, n)
	case wd%ws == 0:
		shuffleMerge(dst, src, ws, cs, wd, cd, n)
	default:
		shuffleBits(dst, src, ws, cs, wd, cd, n)
	}
	return nil
}

func mask(w int) uint64 {
	if w >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(w) - 1
}

// shuffleSame: equal widths (so equal component counts) map every element
// to itself.
func shuffleSame(dst, src []uint64, w, c, n int) {
	m := mask(w)
	for i, v := range src[:n*c] {
		dst[i] = v & m
	}
}

// shuffleSplit handles Ws = r·Wd: stream element e' (= c_s·N + i_s) of the
// operand becomes result elements r·e' … r·e'+r−1, lowest bits first. The
// result coordinates advance by counting instead of dividing.
func shuffleSplit(dst, src []uint64, ws, cs, wd, cd, n int) {
	r := ws / wd
	m := mask(wd)
	id, cdi := 0, 0 // coordinates of the next result element
	for c := range cs {
		for i := range n {
			v := src[i*cs+c]
			for range r {
				dst[id*cd+cdi] = v & m
				v >>= uint(wd) & 63
				if id++; id == n {
					id, cdi = 0, cdi+1
				}
			}
		}
	}
}

// shuffleMerge handles Wd = r·Ws: result element e is built from operand
// stream elements r·e … r·e+r−1, the first in the low bits.
func shuffleMerge(dst, src []uint64, ws, cs, wd, cd, n int) {
	r := wd / ws
	m := mask(ws)
	is, csi := 0, 0 // coordinates of the next operand element
	for c := range cd {
		for i := range n {
			var v uint64
			for k := range r {
				v |= (src[is*cs+csi] & m) << uint(k*ws)
				if is++; is == n {
					is, csi = 0, csi+1
				}
			}
			dst[i*cd+c] = v
		}
	}
}

// shuffleBits is the general case for widths that do not divide each
// other: each result element gathers its stream bits piece by piece.
func shuffleBits(dst, src []uint64, ws, cs, wd, cd, n int) {
	for c := range cd {
		for i := range n {
			g := (c*n + i) * wd // stream position of the element's bit 0
			var v uint64
			for got := 0; got < wd; {
				e := g / ws
				off := g % ws
				take := min(ws-off, wd-got)
				piece := (src[(e%n)*cs+e/n] >> uint(off)) & mask(take)
				v |= piece << uint(got)
				got += take
				g += take
			}
			dst[i*cd+c] = v
		}
	}
}

// splitSlots handles Ws = r·Wd when r divides n. With q < n/r and j, k < r
// the stream formula reads
//
//	dst[r·q + k][r·c + j] = src[j·n/r + q][c] >> k·Wd
//
// so the loops write dst in order and need no division: each result row
// shifts by one amount, and its components gather r source slots n/r
// rows apart.
func splitSlots(dst, src []uint64, ws, cs, wd, cd, n int) {
	r := ws / wd
	m := mask(wd)
	stride := n / r * cs // slots from src[j·n/r + q][c] to src[(j+1)·n/r + q][c]
	o := 0
	for q := range n / r {
		for k := range r {
			sh := uint(k*wd) & 63
			row := dst[o : o+cd]
			for c := range cs {
				base := q*cs + c
				out := row[r*c : r*c+r]
				for j := range out {
					out[j] = src[base+j*stride] >> sh & m
				}
			}
			o += cd
		}
	}
}

// mergeSlots handles Wd = r·Ws when r divides n, the inverse of
// splitSlots:
//
//	dst[j·n/r + q][c] = Σ_k src[r·q + k][r·c + j] << k·Ws
func mergeSlots(dst, src []uint64, ws, cs, wd, cd, n int) {
	r := wd / ws
	m := mask(ws)
	o := 0
	for j := range r {
		for q := range n / r {
			row := dst[o : o+cd]
			for c := range row {
				in := src[r*q*cs+r*c+j:]
				var v uint64
				for k := range r {
					v |= (in[k*cs] & m) << (uint(k*ws) & 63)
				}
				row[c] = v
			}
			o += cd
		}
	}
}
