package subgroup

import (
	"errors"
	"fmt"
	"math/bits"
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
	case ws < 1 || ws > 64 || wd < 1 || wd > 64 || cs < 1 || cd < 1 || cs > maxComponents || cd > maxComponents:
		return fmt.Errorf("%w: widths must be 1 to 64 bits and component counts 1 to %d (%s to %s)", ErrShape, maxComponents, srcT, dstT)
	case ws*cs != wd*cd:
		return fmt.Errorf("%w: Operand %s has %d bits per invocation, Result Type %s has %d", ErrShape, srcT, ws*cs, dstT, wd*cd)
	case !mulFits(n, cs, len(src)):
		return fmt.Errorf("%w: operand data holds %d components, too few for %d invocations of %s", ErrShape, len(src), n, srcT)
	case !mulFits(n, cd, len(dst)):
		return fmt.Errorf("%w: result buffer holds %d components, too few for %d invocations of %s", ErrShape, len(dst), n, dstT)
	}
	if ws != wd && ws&(ws-1) == 0 && wd&(wd-1) == 0 {
		// Power-of-two widths (all of the Supported Types table): the ratio
		// r is a shift, and with r dividing n the loops need no division.
		lr := bits.TrailingZeros(uint(max(ws, wd))) - bits.TrailingZeros(uint(min(ws, wd)))
		if n&(1<<lr-1) == 0 {
			switch {
			case ws > wd && cs == 1:
				splitScalar(dst[:n*cd], src[:n], lr, wd, n)
			case ws > wd:
				splitSlots(dst[:n*cd], src[:n*cs], lr, cs, wd, cd, n)
			case cd == 1:
				mergeScalar(dst[:n], src[:n*cs], ws, lr, n)
			default:
				mergeSlots(dst[:n*cd], src[:n*cs], ws, cs, lr, cd, n)
			}
			return nil
		}
	}
	switch {
	case ws == wd:
		shuffleSame(dst, src, ws, cs, n)
	case ws%wd == 0:
		shuffleSplit(dst, src, ws, cs, wd, cd, n)
	case wd%ws == 0:
		shuffleMerge(dst, src, ws, cs, wd, cd, n)
	default:
		shuffleBits(dst, src, ws, cs, wd, cd, n)
	}
	return nil
}

// maxComponents bounds component counts (SPIR-V vectors have at most 16)
// so that products of counts, widths and subgroup sizes cannot overflow.
const maxComponents = 1 << 20

// mulFits reports whether a·b ≤ limit, for a, b ≥ 0, without overflowing.
func mulFits(a, b, limit int) bool {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	return hi == 0 && lo <= uint64(limit)
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

// splitSlots handles Ws = r·Wd (r = 1<<lr) when r divides n. With q < n/r
// and j, k < r the stream formula reads
//
//	dst[r·q + k][r·c + j] = src[j·n/r + q][c] >> k·Wd
//
// so the loops write dst in order and need no division: each result row
// shifts by one amount, and its components gather r source slots n/r rows
// apart. The gather is unrolled for each r.
func splitSlots(dst, src []uint64, lr, cs, wd, cd, n int) {
	r := 1 << lr
	m := mask(wd)
	stride := n >> lr * cs // slots from src[j·n/r + q][c] to src[(j+1)·n/r + q][c]
	o := 0
	for q := range n >> lr {
		in := src[q*cs:]
		for k := range r {
			sh := uint(k*wd) & 63
			row := dst[o : o+cd]
			switch r {
			case 2:
				for c := range cs {
					out := row[2*c : 2*c+2]
					out[0], out[1] = in[c]>>sh&m, in[c+stride]>>sh&m
				}
			case 4:
				for c := range cs {
					out := row[4*c : 4*c+4]
					out[0], out[1] = in[c]>>sh&m, in[c+stride]>>sh&m
					out[2], out[3] = in[c+2*stride]>>sh&m, in[c+3*stride]>>sh&m
				}
			default:
				for c := range cs {
					out := row[8*c : 8*c+8]
					for j := range out {
						out[j] = in[c+j*stride] >> sh & m
					}
				}
			}
			o += cd
		}
	}
}

// mergeSlots handles Wd = r·Ws (r = 1<<lr) when r divides n, the inverse
// of splitSlots:
//
//	dst[j·n/r + q][c] = Σ_k src[r·q + k][r·c + j] << k·Ws
func mergeSlots(dst, src []uint64, ws, cs, lr, cd, n int) {
	r := 1 << lr
	m := mask(ws)
	var sh [8]uint // k·Ws
	for k := range sh {
		sh[k] = uint(k*ws) & 63
	}
	o := 0
	for j := range r {
		for q := range n >> lr {
			row := dst[o : o+cd]
			in := src[(q<<lr)*cs+j:]
			switch r {
			case 2:
				for c := range row {
					row[c] = in[2*c]&m | (in[2*c+cs]&m)<<sh[1]
				}
			case 4:
				for c := range row {
					row[c] = in[4*c]&m | (in[4*c+cs]&m)<<sh[1] | (in[4*c+2*cs]&m)<<sh[2] | (in[4*c+3*cs]&m)<<sh[3]
				}
			default:
				for c := range row {
					x := in[8*c : 8*c+7*cs+1]
					row[c] = x[0]&m | (x[cs]&m)<<sh[1] | (x[2*cs]&m)<<sh[2] | (x[3*cs]&m)<<sh[3] |
						(x[4*cs]&m)<<sh[4] | (x[5*cs]&m)<<sh[5] | (x[6*cs]&m)<<sh[6] | (x[7*cs]&m)<<sh[7]
				}
			}
			o += cd
		}
	}
}

// splitScalar is splitSlots for a scalar Operand (u16, u32, u64 into r
// components): result rows r·q … r·q+r−1 form an r×r block of slots,
//
//	dst[r·q + k][j] = src[j·n/r + q] >> k·Wd
//
// written through a fixed-size array so the stores need no bounds checks.
func splitScalar(dst, src []uint64, lr, wd, n int) {
	m := mask(wd)
	nq := n >> lr
	s1, s2, s3 := uint(wd)&63, uint(2*wd)&63, uint(3*wd)&63
	switch lr {
	case 1:
		for q := range nq {
			x0, x1 := src[q], src[nq+q]
			out := (*[4]uint64)(dst[4*q:])
			out[0], out[1], out[2], out[3] = x0&m, x1&m, x0>>s1&m, x1>>s1&m
		}
	case 2:
		for q := range nq {
			x0, x1, x2, x3 := src[q], src[nq+q], src[2*nq+q], src[3*nq+q]
			out := (*[16]uint64)(dst[16*q:])
			out[0], out[1], out[2], out[3] = x0&m, x1&m, x2&m, x3&m
			out[4], out[5], out[6], out[7] = x0>>s1&m, x1>>s1&m, x2>>s1&m, x3>>s1&m
			out[8], out[9], out[10], out[11] = x0>>s2&m, x1>>s2&m, x2>>s2&m, x3>>s2&m
			out[12], out[13], out[14], out[15] = x0>>s3&m, x1>>s3&m, x2>>s3&m, x3>>s3&m
		}
	default:
		for q := range nq {
			var x [8]uint64
			for j := range x {
				x[j] = src[j*nq+q]
			}
			out := (*[64]uint64)(dst[64*q:])
			for k := range 8 {
				sh := uint(k*wd) & 63
				o := (*[8]uint64)(out[8*k:])
				for j, v := range x {
					o[j] = v >> sh & m
				}
			}
		}
	}
}

// mergeScalar is mergeSlots for a scalar Result (r components into u16,
// u32, u64): source rows r·q … r·q+r−1 form an r×r block,
//
//	dst[j·n/r + q] = Σ_k src[r·q + k][j] << k·Ws
//
// read through a fixed-size array; j & (r−1) lets the compiler see that
// every index is in range.
func mergeScalar(dst, src []uint64, ws, lr, n int) {
	m := mask(ws)
	nq := n >> lr
	var sh [8]uint
	for k := range sh {
		sh[k] = uint(k*ws) & 63
	}
	switch lr {
	case 1:
		for q := range nq {
			x := (*[4]uint64)(src[4*q:])
			dst[q] = x[0]&m | (x[2]&m)<<sh[1]
			dst[nq+q] = x[1]&m | (x[3]&m)<<sh[1]
		}
	case 2:
		for j := range 4 {
			out := dst[j*nq : j*nq+nq]
			for q := range out {
				x, jj := (*[16]uint64)(src[16*q:]), j&3
				out[q] = x[jj]&m | (x[4+jj]&m)<<sh[1] | (x[8+jj]&m)<<sh[2] | (x[12+jj]&m)<<sh[3]
			}
		}
	default: // r = 8 means 8 bytes into a u64: constant shifts
		for j := range 8 {
			out := dst[j*nq : j*nq+nq]
			for q := range out {
				x, jj := (*[64]uint64)(src[64*q:]), j&7
				out[q] = x[jj]&0xFF | (x[8+jj]&0xFF)<<8 | (x[16+jj]&0xFF)<<16 | (x[24+jj]&0xFF)<<24 |
					(x[32+jj]&0xFF)<<32 | (x[40+jj]&0xFF)<<40 | (x[48+jj]&0xFF)<<48 | (x[56+jj]&0xFF)<<56
			}
		}
	}
}
